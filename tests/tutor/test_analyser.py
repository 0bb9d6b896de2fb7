"""The first stage: the Analyser proposes a slot of candidates per verb word, or abstains (no model)."""

from __future__ import annotations

from tutor.analyser import Analyser


def test_a_sentence_with_an_error_gets_its_slot_and_the_correction_among_the_candidates():
    proposal = Analyser().propose("He goed to the market.")
    assert not proposal.abstain
    (slot,) = proposal.slots
    assert slot.written == "goed" and not slot.candidates[0].change  # "no change" is always a candidate
    assert "went" in {c.replacement for c in slot.candidates if c.change}


def test_a_sentence_without_the_20_verbs_abstains_with_no_slot():
    proposal = Analyser().propose("The weather is nice.".replace("is", "seems"))
    assert proposal.abstain and proposal.slots == []


def test_the_text_around_the_sentence_is_evidence_for_its_tense():
    analyser = Analyser()
    assert analyser.tenses("Yesterday we went home and ate.") == (2, 0)
    assert analyser.tenses("") == (0, 0)
    alone = analyser.propose("Then he watch a film.")
    in_a_story = analyser.propose("Then he watch a film.", tense_text="Yesterday we went home and ate.")
    features = [{k: v for c in p.slots[0].candidates for k, v in c.features.items()} for p in (alone, in_a_story)]
    assert features[0] != features[1]  # the narrative's past shows up in the candidates' evidence
