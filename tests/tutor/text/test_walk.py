"""A text is judged in order, each sentence after the previous one as corrected so far (real model)."""

import pytest

from tutor.text.sentences import split_sentences
from tutor.text.walk import walk_text

pytestmark = pytest.mark.model

TEXT = ("Yesterday my brother eated a whole pizza. Then he watch a film with me. "
        "We are agree that it was great.")


def test_each_sentence_reads_the_previous_one_corrected(tutor_engine, monkeypatch):
    seen: list[str] = []
    tenses: list[tuple[int, int]] = []
    judge, analyser = tutor_engine.judge, tutor_engine.analyser
    real_judge, real_propose = judge.judge, analyser.propose

    def recording_judge(proposal, *, context="", kind="sentence"):
        seen.append(context)
        assert kind == "text"
        return real_judge(proposal, context=context, kind=kind)

    def recording_propose(sentence, analysis=None, *, tense_text="", text_tenses=(0, 0)):
        tenses.append(text_tenses)
        return real_propose(sentence, analysis, tense_text=tense_text, text_tenses=text_tenses)

    monkeypatch.setattr(judge, "judge", recording_judge)
    monkeypatch.setattr(analyser, "propose", recording_propose)
    judged = list(walk_text(analyser, judge, TEXT, split_sentences(TEXT)))
    assert [j.sentence for j in judged] == ["Yesterday my brother eated a whole pizza.",
                                           "Then he watch a film with me.", "We are agree that it was great."]
    assert seen[0] == ""
    assert judged[0].corrected() == "Yesterday my brother ate a whole pizza."
    assert seen[1] == "Yesterday my brother ate a whole pizza."  # the model never reads "eated" again
    assert judged[1].corrected() == "Then he watched a film with me."
    assert seen[2] == "Then he watched a film with me."
    # the text's tenses around each sentence: (past, present) finite forms of the other sentences,
    # the ones before as corrected (ate, watched), the ones after as written (are, was)
    assert tenses[0] == (1, 1)  # "are" (present) and "was" (past) in the last sentence; "watch" is a base
    assert tenses[2] == (2, 0)  # ate, watched
    # a note's pattern (be + agree) is not a §A13 correction: the sentence stays as written
    assert judged[2].corrected() == judged[2].sentence


def test_findings_are_the_changes_more_likely_than_no_change(tutor_engine):
    judged = list(walk_text(tutor_engine.analyser, tutor_engine.judge, TEXT, split_sentences(TEXT)))
    assert sum(len(j.finding_choices()) for j in judged) >= 2  # eated, watch: the loop below checks something
    for j in judged:
        for v, c in j.finding_choices():
            assert c.change and c.cell is not None
            assert v.probability_of_no_change() < tutor_engine.judge.report_below("text") <= 0.5


def test_what_the_model_reads_before_a_sentence_in_each_mode():
    from tutor.text.walk import lm_context

    done = ["Title", "First one.", "Second one."]  # "First one." starts the paragraph (index 1)
    assert lm_context([], 0, "text") == ""
    assert lm_context(done, 1) == lm_context(done, 1, "sentence") == "Second one."
    assert lm_context(done, 1, "paragraph") == "First one. Second one."
    assert lm_context(done, 3, "paragraph") == "Second one."  # the next sentence starts a paragraph
    assert lm_context(done, 1, "text") == "Title First one. Second one."
    with pytest.raises(ValueError, match="sentence, paragraph, text"):
        lm_context(done, 1, "page")


@pytest.mark.model
def test_a_later_they_for_a_noun_subject_leaves_its_plural_verb_alone(tutor_engine):
    text = "The small shop in the old town have a difficult year. Three of them may close in the spring."
    result = tutor_engine.check(text)
    assert not result.findings
    assert [n.kind for n in result.notes if n.written == "have"] == ["plural_reference"]
    clear = tutor_engine.check("My brother have a new job and he likes it.")
    assert [(f.written, f.correct_form) for f in clear.findings] == [("have", "has")]
    nearer = tutor_engine.check("The shop in my street have cheap prices and they are good.")  # they: the prices
    assert [(f.written, f.correct_form) for f in nearer.findings] == [("have", "has")]
