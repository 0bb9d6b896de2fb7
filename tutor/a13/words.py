"""Words of a learner sentence: tokens with their normal form and span, and the analyser's word lists."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from tutor.resources import data_path

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+(?::\d+)?|[^\w\s]", re.UNICODE)
_CONTRACTIONS = ("n't", "'ll", "'ve", "'re", "'m", "'d", "'s")
_NEG_STEMS = {"wo": "will", "ca": "can", "sha": "shall", "ai": "be"}


@cache
def word_lists() -> dict:
    """Return data/a13/analysis.json: the general English word lists the analyser reads (lists as sets)."""
    raw = json.loads(data_path("a13", "analysis.json").read_text(encoding="utf-8"))
    return {k: (set(v) if isinstance(v, list) else v) for k, v in raw.items() if not k.startswith("_")}


@dataclass(frozen=True, slots=True)
class Word:
    """One token of the sentence: its text, lower-case normal form and character span."""

    text: str
    norm: str
    start: int
    end: int


def tokenize(sentence: str) -> list[Word]:
    """Split a sentence into words and punctuation, splitting English contractions."""
    words: list[Word] = []
    for m in _WORD.finditer(sentence):
        text = m.group(0)
        norm = unicodedata.normalize("NFC", text).lower().replace("’", "'")
        start = m.start()
        for suffix in _CONTRACTIONS:
            if norm.endswith(suffix) and len(norm) > len(suffix):
                stem = norm[: -len(suffix)]
                stem = _NEG_STEMS.get(stem, stem) if suffix == "n't" else stem
                cut = len(text) - len(suffix)
                words.append(Word(text[:cut], stem, start, start + cut))
                words.append(Word(text[cut:], suffix, start + cut, m.end()))
                break
        else:
            split = word_lists()["contractions_without_apostrophe"].get(norm)
            if split:  # 'dont', 'im': learners often drop the apostrophe
                stem, suffix = split
                cut = len(norm) - (len(suffix) - 1)
                words.append(Word(text[:cut], stem, start, start + cut))
                words.append(Word(text[cut:], suffix, start + cut, m.end()))
            else:
                words.append(Word(text, norm, start, m.end()))
    return words
