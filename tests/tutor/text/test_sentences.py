"""Sentence splitting keeps exact spans through abbreviations, numbers, quotes and missing stops."""

from __future__ import annotations

from tutor.text.sentences import split_sentences


def test_spans_are_exact_and_handle_abbreviations_numbers_quotes_and_lower_case():
    text = ('Dr. Ruiz lives at No. 5 and works 9.5 hours a day. "It is hard," she says. '
            "then she goes home... We eat at 10:30\nSee you soon")
    spans = split_sentences(text)
    pieces = [text[a:b] for a, b in spans]
    assert pieces == ["Dr. Ruiz lives at No. 5 and works 9.5 hours a day.", '"It is hard," she says.',
                      "then she goes home...", "We eat at 10:30", "See you soon"]


def test_repeated_sentences_keep_their_own_offsets():
    text = "I like it. I like it. I like it."
    spans = split_sentences(text)
    assert spans == [(0, 10), (11, 21), (22, 32)]


def test_text_without_letters_has_no_sentences():
    assert split_sentences("123 ... !!!") == []
