"""Constructions around a verb that decide its slot or make it right as written: do-support, a
causative's bare infinitive, a modal, a catenative verb, a counterfactual *were*, a noun after a determiner."""

from __future__ import annotations

from tutor.a13.sentence import SENTENCE_END, Sentence


def after_causative_object(i: int, s: Sentence) -> bool:
    """Return True for a verb after make / let / have / help / see + an object ('she had me write')."""
    lists = s.lists
    j = i - 1
    if s.norm(j) in lists["object_pronouns"] or (s.norm(j) == "'s" and s.norm(j - 1) == "let"):  # let's = let us
        return s.norm(j - 1) in lists["causative_triggers"]
    steps = 0
    while j >= 0 and steps < 3 and s.is_nominal(j):
        j -= 1
        steps += 1
    if steps == 0:
        return False
    if s.norm(j) in lists["determiners"]:
        j -= 1
    return s.norm(j) in lists["causative_triggers"]


def is_subjunctive_were(i: int, s: Sentence) -> bool:
    """Return True for 'were' in a counterfactual clause ('I wish I were', 'if she were', 'as if')."""
    if s.norm(i) != "were":
        return False
    for j in range(i - 1, max(-1, i - 6), -1):
        n = s.norm(j)
        if n in s.lists["subjunctive_triggers"]:
            return True
        if n in SENTENCE_END or n in (",", ";"):
            return False
    return False


def is_would(j: int, i: int, s: Sentence) -> bool:
    """'d is would before a base form (I'd like, I'd go) and had before a participle."""
    if s.norm(j) != "'d":
        return False
    return not any(r.kind in ("participle", "bad_past", "past") for r in s.lex.get(s.norm(i), ()))


def is_do_support(i: int, s: Sentence) -> bool:
    """Return True when do/does/did is an auxiliary (negation, question, emphasis)."""
    nxt = s.norm(i + 1)
    if nxt == "n't" or nxt == "not":
        return True
    if nxt in s.lists["subject_pronouns"] or nxt in s.lists["plural_pronouns"] or nxt in s.lists["determiners"]:
        return s.norm(i - 1) in SENTENCE_END | {"", ",", ":"} or s.norm(i - 1) in s.lists["wh_words"]
    return any(r.kind == "base" for r in s.lex.get(nxt, ())) and nxt not in ("do",)


def is_catenative(j: int, s: Sentence) -> bool:
    n = s.norm(j)
    verb_caten = {x for x in s.lists["catenatives"] if " " not in x} - {
        "have", "has", "had", "going", "used", "allowed", "able", "ready", "happy", "glad", "sad", "hard",
        "easy", "difficult", "important", "nice", "time"}
    if n not in verb_caten:
        return False
    # bare 'like' is also a preposition ('looks like rain'): only a verb after a subject pronoun
    before = s.norm(j - 1)
    return n != "like" or before in s.lists["subject_pronouns"] or before in (
        "'d", "would", "n't", "really", "also")


def after_modal_or_do(i: int, s: Sentence) -> bool:
    lists = s.lists
    j = s.prev_index(i)
    n = s.norm(j)
    if n in lists["modals"] or n in lists["do_aux"] or n in lists["bare_infinitive_triggers"] - {"watch", "see", "saw"}:
        return True
    if n == "'d":
        return True
    if n in lists["subject_pronouns"] or n in lists["plural_pronouns"]:  # Do you / Can she + verb
        k = s.prev_index(j)
        if s.norm(k) in lists["modals"] or s.norm(k) in lists["do_aux"] or s.norm(k) == "n't":
            return True
    return False


def is_auxiliary(i: int, s: Sentence, verb: str) -> bool:
    """Return True when have/be here is an auxiliary: its tense is read from the verb after it."""
    if verb not in ("have", "be"):
        return False
    j = s.next_index(i)
    if s.norm(j) in s.lists["subject_pronouns"]:  # Have you … / Is she …
        j = s.next_index(j)
    nxt = s.norm(j)
    return nxt in s.lex or nxt.endswith(("ed", "en", "ing"))


def is_noun_after_determiner(i: int, s: Sentence) -> bool:
    """Return True for a noun-like verb form right after a determiner, or after a determiner and a
    common adjective ('the talk', 'a new watch', 'a good start'); 'my friend Carlos start' is a verb."""
    lists = s.lists
    if s.norm(i) not in lists["noun_like_verbs"]:
        return False
    j = i - 1
    if s.norm(j) in lists["common_adjectives"]:
        j -= 1
    n = s.norm(j)
    if n == "her":  # 'her work' is a noun, 'made her work' a bare infinitive
        return s.norm(j - 1) not in lists["causative_triggers"]
    return n in lists["determiners"] and n not in ("this", "that", "these", "those")
