"""Time in a learner sentence: past and present time words by clause, a finished time for a perfect, a
duration that keeps a perfect right."""

from __future__ import annotations

import re

from tutor.a13.sentence import SENTENCE_END, Sentence
from tutor.a13.words import Word


def sentence_ids(words: list[Word]) -> list[int]:
    out, k = [], 0
    for w in words:
        out.append(k)
        if w.norm in SENTENCE_END:
            k += 1
    return out


def clauses(words: list[Word], lists: dict) -> list[int]:
    """Return a clause number for every word (clauses end at punctuation and conjunctions)."""
    out, k = [], 0
    for w in words:
        if w.norm in lists["clause_breaks"]:
            k += 1
        out.append(k)
    return out


def is_past_cue(norms: list[str], i: int, lists: dict) -> bool:
    n = norms[i]
    if n in lists["time_past"]:  # yesterday, ago
        return True
    if n == "last" and i + 1 < len(norms) and norms[i + 1] not in ("time", "one", "minute", "chance"):
        return i == 0 or norms[i - 1] not in lists["determiners"]  # 'the last season' is not a time
    if n == "that" and i + 1 < len(norms) and norms[i + 1] in lists["time_nouns"] and norms[i + 1] != "time" and (
            i == 0 or norms[i - 1] in lists["prepositions"] or norms[i - 1] == ","):
        return True  # 'That night we ordered pizza', 'on that day': a time told as over
    return n.isdigit() and len(n) == 4 and 1900 <= int(n) < lists["past_years_before"] and (
        i == 0 or norms[i - 1] not in ("since", "until", "till"))  # 'since 2015' reaches up to now


def past_cue_starts(words: list[Word], lists: dict) -> frozenset[int]:
    """Return the offsets of the words that name a finished time (*yesterday*, *two days ago*, *last week*,
    *in 2019*, *this morning*): a parse tells which verb each one governs (tutor.a13.syntax)."""
    norms = [w.norm for w in words]
    out = {w.start for i, w in enumerate(words) if is_past_cue(norms, i, lists)}
    for k in range(len(words)):
        for phrase in lists["time_past_phrases"]:
            parts = phrase.split()
            if norms[k: k + len(parts)] == parts and parts[0] != "when":  # a when-clause is a clause of its own
                out.add(words[k].start)
    return frozenset(out)


def time_levels(words: list[Word], lists: dict) -> tuple[list[int], bool]:
    """Return, per word, 2 when a past time word is in its clause, 1 when it is only in another clause
    of the same sentence and its own clause has no present or future time word, -1 when its clause
    has only a present or future time word ('every day', 'now'), else 0; and whether
    a future time word occurs."""
    norms = [w.norm for w in words]
    clause = clauses(words, lists)
    sent = sentence_ids(words)
    past: set[int] = set()
    past_sentences: set[int] = set()
    now: set[int] = set()
    for i, n in enumerate(norms):
        if is_past_cue(norms, i, lists):
            past.add(clause[i])
            past_sentences.add(sent[i])
        if n in lists["time_present"] or n in lists["time_future"]:
            now.add(clause[i])
    joined = " ".join(norms)
    for phrase in lists["time_past_phrases"]:
        at = joined.find(phrase)
        if at >= 0:
            idx = joined[:at].count(" ")
            past.add(clause[idx])
            past_sentences.add(sent[idx])
    levels = []
    for i in range(len(words)):
        if clause[i] in past:
            levels.append(2)
        elif sent[i] in past_sentences and clause[i] not in now:
            levels.append(1)
        else:
            levels.append(-1 if clause[i] in now else 0)
    return levels, any(n in lists["time_future"] for n in norms)


_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}")


def finished_time(j: int, s: Sentence) -> bool:
    """Return True when the clause of word j names a finished time: *ago*, *yesterday*, *last week*,
    *in 2019*, *on Tuesday*, *when I was a child*, or a past clause it leads to (*until he retired*)
    (data/a13/analysis.json: finished_time_words, past_clause_conjunctions)."""
    lists = s.lists
    words = lists["finished_time_words"]
    lo = j
    while lo > 0 and s.norm(lo - 1) not in lists["clause_breaks"]:
        lo -= 1
    if s.norm(lo - 1) == "when":
        lo -= 1  # 'When I was a child I have studied …'
    hi = j
    while hi + 1 < len(s.norms) and (s.norm(hi + 1) not in lists["clause_breaks"] - {"when"}
                                     or _joins_nouns(hi + 1, s)):
        hi += 1
    for k in range(lo, hi + 1):
        n, nxt = s.norm(k), s.norm(k + 1)
        if n in ("ago", "yesterday") and n in words:
            return True
        if n == "last" and n in words and nxt in lists["time_nouns"]:
            return True
        if n in ("in", "on") and n in words and (
                (n == "on" and nxt in lists["weekdays"]) or (n == "in" and nxt in lists["months"])):
            return True
        if n in ("in", "on", "at", "during") and nxt.isdigit() and len(nxt) == 4 \
                and 1900 <= int(nxt) < lists["past_years_before"]:
            return True  # a past year, whatever the preposition a learner gives it ('in 2019', 'on 2019')
        if n == "at" and (s.norm(k + 2) in ("o'clock", "am", "pm") or _CLOCK.fullmatch(nxt)):
            return True  # a point in time: 'at nine o'clock', 'at 9:30', 'at 10 am'
        if n == "when" and n in words and any(is_past_form(s.norm(x), s) and s.norm(s.prev_index(x))
                                              not in lists["have_aux"] for x in range(k + 1, k + 4)):
            return True  # 'when I was a child', 'when we visited it'; 'when you have finished' is no finished time
    for k in range(lo, min(hi + 2, len(s.norms))):  # the word after the clause may be 'until'
        if s.norm(k) in lists["past_clause_conjunctions"] and _past_clause_follows(k, s):
            return True  # 'has worked there until he retired', 'have eaten before we arrived'
    return False


def _joins_nouns(k: int, s: Sentence) -> bool:
    """Return True when word k is *and* / *or* joining noun phrases, not clauses: no verb or subject pronoun
    in the next four words (*I have eaten roast beef and pudding last Sunday*: the clause goes on)."""
    if s.norm(k) not in ("and", "or"):
        return False
    pronouns = s.lists["personal_pronouns"]
    return not any(s.is_verbish(x) or s.norm(x) in pronouns for x in range(k + 1, min(k + 5, len(s.norms))))


def _past_clause_follows(k: int, s: Sentence) -> bool:
    """Return True when a clause with a past form follows word k within three words ('until he retired'), not
    an adverb before another clause ('I have seen it before, and I liked it')."""
    for x in range(k + 1, min(k + 4, len(s.norms))):
        if s.norm(x) in s.lists["clause_breaks"]:
            return False
        if is_past_form(s.norm(x), s):
            return True
    return False


def is_past_form(n: str, s: Sentence) -> bool:
    """Return True for a form that is only a past tense (was, were, went, visited)."""
    kinds = {r.kind for r in s.lex.get(n, ())}
    if kinds:
        return "past" in kinds and not kinds & {"base", "present"}
    return len(n) > 4 and n.endswith("ed")


def perfect_cue(i: int, s: Sentence) -> bool:
    """Return True when the clause has a duration ('for twenty years', 'since 2019') after word i."""
    for j in range(i + 1, min(len(s.norms), i + 10)):
        n = s.norms[j]
        if n == "ago" or n in SENTENCE_END:
            break  # 'two weeks ago' is a finished time, not a duration
        if n == "since" or (n == "for" and (s.norm(j + 1).isdigit() or s.norm(j + 1) in s.lists["duration_starts"])):
            return True
        if n in ("years", "months", "weeks") and s.norm(j + 1) != "ago":
            return True
    return False
