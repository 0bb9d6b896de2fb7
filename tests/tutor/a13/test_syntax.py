"""The parser's reading of a verb's frame: the subject's number wherever it stands, existential there,
reported and narrative clauses; and the parser's files checked by sha256."""

from __future__ import annotations

import shutil

import pytest

from tutor.a13.syntax import _model_dir, parse, verify
from tutor.errors import ModelError


def frame_of(sentence: str, word: str):
    """Return the frame of the first `word` of `sentence`."""
    return parse(sentence).frame(sentence.index(word))


@pytest.mark.parametrize(("sentence", "word", "number", "person"), [
    ("The tickets that we bought online were cheaper.", "were", "plural", None),
    ("The prices of the hotel were high.", "were", "plural", None),
    ("Both the food and the music were good.", "were", "coordinated", None),
    ("My brother and I goes to school by bus.", "goes", "coordinated", None),
    ("The staff were very kind.", "were", "collective", None),
    ("Programmes which are interesting are rare.", "which are", "plural", None),
    ("One of my friends have a dog.", "have", "singular", "3rd singular"),
    ("A lot of people comes here.", "comes", "plural", None),
    ("The number of cars are growing.", "are", "singular", "3rd singular"),
    ("My sister, who lives in Lima, works in a bank.", "works", "singular", "3rd singular"),
    ("You was right.", "was", "singular", "2nd singular"),
    ("is very important to study.", "is", "none", None),
])
def test_the_subject_and_its_number(sentence, word, number, person):
    start = sentence.index(word) + (len("which ") if word == "which are" else 0)
    frame = parse(sentence).frame(start)
    assert frame is not None and frame.verbal
    assert (frame.subject.number, frame.subject.person) == (number, person)


@pytest.mark.parametrize(("sentence", "word", "number"), [
    ("There are a problem with my room.", "are", "singular"),
    ("There were a lot of traffic.", "were", "singular"),
    ("There is many people here.", "is", "plural"),
    ("In my city, Lima, there are too much noise.", "are", "singular"),
])
def test_existential_there_takes_the_number_of_what_follows(sentence, word, number):
    assert frame_of(sentence, word).existential == number


def test_reported_relative_and_narrative_clauses():
    assert frame_of("She told me that she wants to move.", "wants").reported
    assert not frame_of("I called my mother because she wants to move.", "wants").reported
    assert frame_of("I met a man who works in a bank.", "works").relative
    assert frame_of("I opened the door and see a cat.", "see").past_neighbour == "conj"
    assert frame_of("When I arrived, I see my friend.", "see").past_neighbour == "temporal"
    assert frame_of("I opened the door and now I see the sea.", "see").past_neighbour is None


def test_a_parser_file_that_is_not_the_expected_one_is_refused_with_a_message(tmp_path):
    copy = tmp_path / "model"
    shutil.copytree(_model_dir(), copy)
    verify(copy)  # the installed files pass
    with (copy / "parser" / "model").open("r+b") as f:
        f.seek(100)
        f.write(b"\x00\x01\x02")
    with pytest.raises(ModelError, match=r"parser/model is not the expected one .*reinstall grammar-tutor"):
        verify(copy)
    (copy / "tagger" / "model").unlink()
    with pytest.raises(ModelError, match=r"tagger/model is missing"):
        verify(copy)
