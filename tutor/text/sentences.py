"""Split a learner's text into sentences with their character spans (pysbd, rule-based and offline).

pysbd handles abbreviations (Mr., e.g.), numbers (3.5, 10:30), quotes and ellipses; a line break
also ends a sentence, so a list or an email's greeting stands alone. Spans are Python string
indices into the text, with surrounding whitespace trimmed.
"""

from __future__ import annotations

from functools import cache


@cache
def _segmenter():
    import pysbd

    return pysbd.Segmenter(language="en", clean=False, char_span=True)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Return the (start, end) span of every sentence of `text` that holds a letter."""
    out: list[tuple[int, int]] = []
    pos = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if body.strip():
            for span in _segmenter().segment(body):
                a, b = pos + span.start, pos + span.end
                while a < b and text[a].isspace():
                    a += 1
                while b > a and text[b - 1].isspace():
                    b -= 1
                if any(ch.isalpha() for ch in text[a:b]):
                    out.append((a, b))
        pos += len(line)
    return _repair(text, out)


def _repair(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Make spans cover the text in order: pysbd's offsets can drift after repeated sentences."""
    fixed: list[tuple[int, int]] = []
    cursor = 0
    for a, b in spans:
        piece = text[a:b]
        if text[a:b] != piece or a < cursor:
            at = text.find(piece, cursor)
            if at < 0:
                continue
            a, b = at, at + len(piece)
        fixed.append((a, b))
        cursor = b
    return fixed

