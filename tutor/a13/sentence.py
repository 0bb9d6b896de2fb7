"""A learner sentence as the analyser's rules question it: who is the subject of a verb, who does an
infinitive's action, is a word a noun here."""

from __future__ import annotations

from functools import cache

from tutor.a13.lexicon import lexicon, out_of_scope_errors
from tutor.a13.words import Word, word_lists

SENTENCE_END = {".", "!", "?"}


@cache
def aux_words() -> frozenset[str]:
    """Return the auxiliary verbs and their contracted forms (data/a13/analysis.json: aux_words)."""
    return frozenset(word_lists()["aux_words"])


class Sentence:
    """The word list with the positional questions the rules ask of it."""

    def __init__(self, words: list[Word]) -> None:
        self.words = words
        self.norms = [w.norm for w in words]
        self.lists = word_lists()
        self.lex = lexicon()

    def norm(self, j: int) -> str:
        return self.norms[j] if 0 <= j < len(self.norms) else ""

    def prev_index(self, i: int) -> int:
        """Return the index of the word before i, skipping adverbs such as never / already / not."""
        j = i - 1
        while j >= 0 and self.norms[j] in self.lists["adverbs_between"]:
            j -= 1
        return j

    def next_index(self, i: int) -> int:
        j = i + 1
        while j < len(self.norms) and self.norms[j] in self.lists["adverbs_between"]:
            j += 1
        return j

    def is_verbish(self, j: int) -> bool:
        n = self.norm(j)
        return (n in self.lex and not n.endswith("ing")) or n in aux_words() or n in self.lists["modals"] or (
            n in self.lists["catenatives"]) or (len(n) > 4 and n.endswith("ed"))

    def is_nominal(self, j: int) -> bool:
        """Return True for a word that can head a noun subject (not a function word or a verb)."""
        n = self.norm(j)
        lists = self.lists
        if not n.isalpha() or n in self.lex or n in aux_words() or n in out_of_scope_errors():
            return False
        return not (n in lists["determiners"] or n in lists["adverbs_between"] or n in lists["prepositions"]
                    or n in lists["discourse_markers"] or n in lists["non_subject_words"]
                    or n in lists["clause_breaks"] or n in lists["modals"] or n in lists["wh_words"]
                    or n in lists["subject_pronouns"] or n in lists["plural_pronouns"])

    def _skippable_segment(self, comma: int) -> int | None:
        """For ', who lives in Quito,' or ', Martina,' ending at `comma`, return the comma before it."""
        k = comma - 1
        while k >= 0 and self.norms[k] != "," and self.norms[k] not in SENTENCE_END:
            k -= 1
        if k < 0 or self.norms[k] != ",":
            return None
        segment = self.norms[k + 1: comma]
        if not segment:
            return None
        first = segment[0]
        opens = first in self.lists["relatives"] or first in self.lists["prepositions"] or segment[:2] == ["the", "one"]
        # an appositive with no verb: ', Martina,' / ', almost 90 years old,'
        short_name = len(segment) <= 6 and not any(self.is_verbish(k + 1 + x) for x in range(len(segment)))
        return k if opens or short_name else None

    def subject(self, p: int) -> str | None:
        """Return the person of the subject of the verb (group) at p; None if plural or absent."""
        inverted = self.inverted_subject(p)
        if inverted is not None:
            return inverted
        lists = self.lists
        pronouns = lists["subject_pronouns"]
        j = p - 1
        while j >= 0:
            n = self.norms[j]
            if n in pronouns:
                if n in ("who", "that") and j > 0 and self.is_nominal(j - 1):
                    return None if self.is_plural_noun(j - 1) or self.norm(j - 1) in lists["irregular_plurals"] \
                        else "3rd singular"  # a relative pronoun takes its antecedent's number
                return None if self._coordinated(j) else pronouns[n]
            if n in lists["plural_pronouns"]:
                return None
            if self.is_nominal(j) and n in lists["time_nouns"] and self.norm(j - 1) in lists["time_determiners"]:
                j -= 2  # 'every day', 'last week': a time adverbial, not the subject
                continue
            if self.is_nominal(j):
                head = self._head_before_phrase(j)
                if head is not None:
                    j = head
                    continue
                if self.is_plural_noun(j) or self._coordinated(j):
                    return None
                return "3rd singular"
            if n in SENTENCE_END or n == ":":
                return None
            if n == ",":
                before = self._skippable_segment(j)
                if before is None:
                    return None  # ', be careful': an imperative, or no subject of its own
                j = before - 1
                continue
            if n in ("and", "or", "but"):
                # coordinated verbs share the subject of the verb before them
                k = j - 1
                while k >= 0 and not self.is_verbish(k) and self.norms[k] not in SENTENCE_END:
                    k -= 1
                # a verb outside the lexicon ('she explains … and write'): the nearest pronoun decides
                return self.subject(k) if k >= 0 and self.is_verbish(k) else self.actor(j)
            if n in lists["clause_breaks"]:
                return None
            j -= 1
        return None

    def _np_start(self, j: int) -> int:
        """Return the first word of the noun phrase ending at j (determiner and modifiers included)."""
        k = j
        while k - 1 >= 0 and (self.is_nominal(k - 1) or self.norms[k - 1] in self.lists["determiners"]) \
                and j - k < 4:
            k -= 1
        return k

    def _coordinated(self, j: int) -> bool:
        """Return True when the subject word at j is joined to another subject by 'and' ('my brother and
        I are'); 'in the morning and I go' joins two clauses, so 'I' stands alone."""
        k = self._np_start(j)
        if self.norm(k - 1) != "and" or k - 2 < 0:
            return False
        prev = self.norm(k - 2)
        if not (self.is_nominal(k - 2) or prev in self.lists["subject_pronouns"] or prev in ("me", "him", "her")):
            return False
        first = self._np_start(k - 2)
        before = self.norm(first - 1)
        return first == 0 or before in SENTENCE_END or before in (",", ";", ":") or (
            before in self.lists["clause_breaks"] and before not in ("and", "or"))

    def _head_before_phrase(self, j: int) -> int | None:
        """For 'the students in my class are', return the index to search on from: before 'in'."""
        k = self._np_start(j)
        prep = self.norm(k - 1)
        if prep in self.lists["prepositions"] and prep not in ("like", "than", "as") and k - 2 >= 0 and (
                self.is_nominal(k - 2)):
            return k - 2
        return None

    def inverted_subject(self, i: int) -> str | None:
        """Return the subject after an auxiliary in a question ('Have you …', 'What did she …')."""
        if self.norm(i) not in aux_words():
            return None
        k = i + 2 if self.norm(i + 1) == "n't" else i + 1
        nxt = self.norm(k)
        end = next((self.norms[j] for j in range(i, len(self.norms)) if self.norms[j] in SENTENCE_END), "")
        wh_question = end == "?" and nxt in self.lists["subject_pronouns"]  # 'which city are you from?'
        for j in range(i - 1, -1, -1):  # a subject before the auxiliary: no inversion
            n = self.norms[j]
            if n in self.lists["subject_pronouns"] or n in self.lists["plural_pronouns"]:
                return None
            if self.is_nominal(j) and not wh_question:
                return None
            if n in self.lists["clause_breaks"] or n in SENTENCE_END:
                break
        if nxt in self.lists["subject_pronouns"] and nxt not in ("that", "this", "who"):
            return self.lists["subject_pronouns"][nxt]
        if nxt in self.lists["plural_pronouns"]:
            return None
        if nxt in self.lists["determiners"] or self.is_nominal(k):
            return "3rd singular"  # Has your brother …? / Will the bus …?
        return None

    def actor(self, j: int) -> str | None:
        """Return the person of whoever does the action of an infinitive at j ('He needs to do')."""
        saw_noun = False
        for k in range(j - 1, -1, -1):
            n = self.norms[k]
            if n in SENTENCE_END:
                break
            if n in self.lists["subject_pronouns"] and n not in ("this", "that", "who"):
                return self.lists["subject_pronouns"][n]
            if n in self.lists["plural_pronouns"]:
                return None
            if self.is_nominal(k):
                saw_noun = True
        return "3rd singular" if saw_noun else None

    def question_aux_before(self, i: int, auxes: set[str]) -> int | None:
        """Return the auxiliary that opens a question before i ('Has your brother came …')."""
        k = i - 1
        steps = 0
        while k >= 0 and steps < 6:
            n = self.norms[k]
            if n in auxes:
                start = k == 0 or self.norm(k - 1) in SENTENCE_END | {",", ":"} or self.norm(k - 1) in (
                    self.lists["wh_words"] | self.lists["discourse_markers"])
                return k if start else None
            if not (self.is_nominal(k) or n in self.lists["determiners"] or n in self.lists["adverbs_between"]
                    or n in self.lists["subject_pronouns"] or n == "n't"):
                return None
            k -= 1
            steps += 1
        return None

    def doubtful_noun(self, i: int, *, after_verb: bool = False) -> bool:
        """Return True when word i may be a noun here ('the walk', 'at work', 'I want work.').

        After a determiner or a preposition it is a noun; after a verb or a noun subject only a word
        that can stand bare (a mass noun, a plural) with no object after it.
        """
        n = self.norm(i)
        lists = self.lists
        if n not in lists["noun_like_verbs"]:
            return False
        before = self.norm(i - 1)
        if before in lists["subject_pronouns"]:
            return False
        if not after_verb and (before in lists["determiners"] or before in lists["prepositions"]):
            return True
        bare = n in lists["mass_noun_verbs"] or (n.endswith("s") and n not in ("is", "has", "does", "goes"))
        return bare and not verbal_after(i, self)

    def is_plural_noun(self, j: int) -> bool:
        """Return True for a plural noun head after a determiner ('the streets', 'my parents')."""
        n = self.norm(j)
        if n in self.lists["irregular_plurals"]:
            return True
        if not (n.endswith("s") and not n.endswith(("ss", "us", "is"))):
            return False
        k = j - 1
        while k >= 0 and self.is_nominal(k) and j - k < 3:
            k -= 1
        return self.norm(k) in self.lists["determiners"] | {"these", "those", "many", "all", "both", "two", "three"}


def verbal_after(i: int, s: Sentence) -> bool:
    """Return True when a noun-like word is used as a verb: an object or a complement follows it."""
    lists = s.lists
    readings = s.lex.get(s.norm(i), ())
    if not any(r.kind in ("base", "present") for r in readings):
        return False
    if s.norm(i) not in lists["noun_like_verbs"]:
        return True
    nxt = s.norm(i + 1)
    return nxt in lists["determiners"] or nxt in ("me", "him", "her", "us", "them", "it", "you") or (
        nxt.isalpha() and nxt not in lists["clause_breaks"] and nxt not in ("at", "in", "on", "with", "from"))
