"""Misspelled forms of the 20 verbs: a non-word close to one right form ('finised', 'wirte').

When several forms are equally near, the one that ends as the written word does wins: the last
letter carries the inflection ('lookd' is 'looked', not 'look' or 'looks'); then the one with the same
letters, then the one sharing the most letters in order ('wachted' is 'watched', 'loked' is 'looked')."""

from __future__ import annotations

from functools import cache

from rapidfuzz.distance import DamerauLevenshtein, Indel


@cache
def _right_forms() -> tuple[str, ...]:
    from tutor.a13.lexicon import lexicon

    good = {"base", "present", "past", "participle", "ing"}
    return tuple(sorted(w for w, rs in lexicon().items() if any(r.kind in good for r in rs) and len(w) >= 3))


def nearest_form(word: str) -> str | None:
    """Return the one form of the 20 that `word` misspells, or None (a real word, or no single match).

    Ties between equally near forms are broken by the last letter; a tie that remains gives None."""
    if len(word) < 4 or not word.isalpha() or not word.isascii():
        return None
    limit = 2 if len(word) >= 7 else 1
    best: list[str] = []
    best_d = limit + 1
    for form in _right_forms():
        if abs(len(form) - len(word)) > limit or (form[0] != word[0] and limit == 1 and form[:1] != word[1:2]):
            continue
        d = DamerauLevenshtein.distance(word, form, score_cutoff=limit)
        if d < best_d:
            best, best_d = [form], d
        elif d == best_d:
            best.append(form)
    if len(best) > 1:
        best = [f for f in best if f[-1] == word[-1]]
    if len(best) > 1:
        best = _closest_by_letters(word, best)
    if len(best) != 1 or best_d > limit:
        return None
    if is_known(word):
        return None  # an English word of its own ('word', 'tall', 'wash')
    return best[0]


def _closest_by_letters(word: str, forms: list[str]) -> list[str]:
    """Break a tie between equally near forms: the one with the same letters in another order wins (*wachted*
    is *watched*, not *wanted*), else the one that shares the most letters in order, a dropped or doubled
    letter being likelier than a wrong one (*loked* is *looked*, not *liked*); a tie that remains stays."""
    same = [f for f in forms if sorted(f) == sorted(word)]
    if same:
        return same
    score = {f: Indel.normalized_similarity(word, f) for f in forms}
    top = max(score.values())
    return [f for f in forms if score[f] == top]


def is_known(word: str) -> bool:
    """Return True when an English word list knows the word, in its American spelling or its British one
    ('neighbour', 'favourite', 'centre': data/a13/analysis.json, british_spellings)."""
    from tutor.a13.tables import is_known as known  # pyspellchecker's English list, cached (tutor.a13.tables)

    if known(word):
        return True
    from tutor.a13.words import word_lists

    variants = [word.replace(uk, us) for uk, us in word_lists()["british_spellings"].items() if uk in word]
    return any(known(v) for v in variants)


def is_non_word(text: str) -> bool:
    """Return True for a lower-case word that no English word list knows ('woubl', 'becouse').

    Capitalised words (names, places) and short words are never taken for non-words."""
    if len(text) < 3 or not text.isalpha() or not text.islower() or not text.isascii():
        return False
    from tutor.a13.lexicon import lexicon

    if text in lexicon():
        return False
    return not is_known(text)
