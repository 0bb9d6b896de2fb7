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
    assert frame_of("You just put your coat on and go.", "go").past_neighbour is None  # 'put' may be present


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


@pytest.mark.parametrize(("sentence", "word"), [
    ("The staff were very kind to us.", "were"),  # either number is right with a collective noun
    ("The team want to win the league.", "want"),
    ("My family have a small house by the sea.", "have"),
])
def test_a_collective_subject_leaves_a_number_dependent_form_alone(sentence, word):
    from tutor.a13.analysis import analyse

    analysis = analyse(sentence)
    start = sentence.index(word)
    assert not [o for o in analysis.options if o.start <= start < o.end]
    assert [w.text for w in analysis.plural_verbs] == [word]


def test_a_collective_subject_still_gets_a_past_or_participle_corrected_as_3rd_singular():
    from tutor.a13.analysis import analyse

    errors = [(o.written, o.cell.english[0], o.cell.person) for o in analyse("The class has went home.").options
              if o.is_error]
    assert ("went", "gone", "3rd singular") in errors
    errors = [(o.written, o.cell.english[0]) for o in analyse("My family eated paella on Sunday.").options
              if o.is_error]
    assert errors == [("eated", "ate")]


def test_a_misspelled_verb_is_parsed_as_its_form_so_its_subject_is_found():
    sentence = "Yesterday my cousin whent to the market."
    from tutor.a13.analysis import analyse

    analysis = analyse(sentence)
    frame = analysis.frames[sentence.index("whent")]
    assert frame is not None and frame.verbal
    assert (frame.subject.number, frame.subject.person) == ("singular", "3rd singular")
    parsed = parse(sentence, [(sentence.index("whent"), sentence.index("whent") + 5, "went")])
    assert parsed.token_at(sentence.index("to")).text == "to"  # offsets after the word still map as written
    assert parsed.token_at(sentence.index("whent")).text == "went"


def test_an_event_or_a_place_is_no_collective_noun():
    """'party' and 'club' are mostly an event and a place in learners' writing: their verb agrees as singular."""
    assert frame_of("Last night the party were great.", "were").subject.number == "singular"
    assert frame_of("The club are near my house.", "are").subject.number == "singular"


def test_an_aside_between_commas_is_left_out_of_the_parse_and_its_subject_found():
    from tutor.a13.syntax import asides

    sentence = "My neighbour, for example, walk her dog at six."
    assert [(sentence[a:b], word) for a, b, word in asides(sentence)] == [(", for example,", "")]
    frame = parse(sentence, asides(sentence)).frame(sentence.index("walk"))
    assert frame is not None and frame.subject.person == "3rd singular"
    assert asides("For example, my neighbour walks her dog.") == []  # not between commas: nothing to leave out


def test_after_a_fronted_phrase_the_aside_leaves_that_phrase_its_comma_and_spans_are_as_written():
    from tutor.a13.syntax import asides

    sentence = "In the summer, of course, my cousin walk to the lake every day."
    assert [sentence[a:b] for a, b, _ in asides(sentence)] == [" of course,"]
    frame = parse(sentence, asides(sentence)).frame(sentence.index("walk"))
    assert frame is not None and frame.subject.person == "3rd singular"
    assert sentence[frame.subject.start:frame.subject.end] == "my cousin"  # offsets of the sentence as written


@pytest.mark.parametrize(("sentence", "word", "number"), [
    ("All the shop in the square were closed.", "were", "unclear"),      # a plural cue, a singular noun
    ("Some student from my class have a car.", "have", "unclear"),
    ("Mobile phone have changed our lives.", "have", "unclear"),         # a bare singular count noun
    ("Breakfast is ready at eight.", "is", "singular"),                  # a meal: bare and singular
    ("The information are on the website.", "are", "singular"),          # an uncountable noun
    ("The children in the park was noisy.", "was", "plural"),            # an irregular plural
    ("Swimming is good for your back.", "is", "singular"),               # a gerund
])
def test_which_word_is_wrong_reads_the_number_the_noun_phrase_gives(sentence, word, number):
    assert frame_of(sentence, word).subject.number == number


@pytest.mark.parametrize(("sentence", "word", "number"), [
    ("There are a lot of beautiful beach near here.", "are", "unclear"),  # the noun is the likelier error
    ("There were some problem with the room.", "were", "unclear"),
    ("There were a lot of traffic on the bridge.", "were", "singular"),   # uncountable: the verb is wrong
])
def test_existential_there_with_a_plural_cue_and_a_singular_noun(sentence, word, number):
    frame = frame_of(sentence, word)
    assert frame.existential == number
    if number == "unclear":
        assert frame.noun is not None and sentence[frame.noun[0]:frame.noun[1]] in ("beach", "problem")


def _governed(sentence: str, word: str) -> bool:
    from tutor.a13.time_cues import past_cue_starts
    from tutor.a13.words import tokenize, word_lists

    cues = past_cue_starts(tokenize(sentence), word_lists())
    return parse(sentence, past_cues=cues).frame(sentence.index(word)).past_marker


@pytest.mark.parametrize(("sentence", "word", "governed"), [
    ("I met a girl two days ago who lives in Rome.", "met", True),
    ("I met a girl two days ago who lives in Rome.", "lives", False),         # a marker of another verb
    ("Climbing is something I started a few months ago.", "is", False),
    ("Yesterday she go to the park and eat an ice cream.", "eat", True),     # shares the subject of 'go'
    ("Last week my sister was ill, so we stay at home.", "stay", False),     # a clause with its own subject
])
def test_a_finished_time_governs_the_verbs_of_its_own_clause(sentence, word, governed):
    assert _governed(sentence, word) is governed


@pytest.mark.parametrize(("sentence", "word", "relative", "neighbour"), [
    ("When I was a child I play with dolls every day.", "play", False, "temporal"),  # no comma after the when-clause
    ("I met a child I play with every day.", "play", True, None),                   # a true contact relative clause
])
def test_a_main_clause_after_a_time_clause_without_a_comma_is_not_a_relative_clause(sentence, word, relative,
                                                                                     neighbour):
    frame = frame_of(sentence, word)
    assert (frame.relative, frame.past_neighbour) == (relative, neighbour)


@pytest.mark.parametrize(("sentence", "word", "number"), [
    ("Dog are more faithful than cats.", "are", "unclear"),       # a capital makes the parser read a name
    ("Maria have two brothers.", "have", "singular"),             # a name is a clear singular
    ("Eating well and sleeping eight hours are the secret.", "are", "coordinated"),
    ("Almost half of the respondent have a job.", "have", "unclear"),
    ("A lot of my friend live abroad.", "live", "unclear"),
    ("She is one of the teacher who are always patient.", "are", "unclear"),   # a partitive: the set is plural
    ("It is one of the songs that are on the radio.", "are", "plural"),
    ("My uncles from the coast, who are fishermen, visit us.", "are", "plural"),  # either noun may be meant
    ("The man in the blue shirt, who are my uncle, works here.", "are", "singular"),
    ("These sort of problems are common.", "are", "plural"),                    # 'these sorts of' is meant
    ("That kind of film was boring.", "was", "singular"),
])
def test_more_subjects_whose_number_the_noun_phrase_decides(sentence, word, number):
    assert frame_of(sentence, word).subject.number == number


@pytest.mark.parametrize(("sentence", "word", "number"), [
    ("Only a few tourist walk to the castle.", "walk", "unclear"),  # a singular noun after a plural cue
    ("Many of my friend like football.", "like", "plural"),
    ("My friend like football.", "like", "singular"),
])
def test_a_word_the_parser_reads_as_no_verb_has_the_number_of_the_noun_phrase_before_it(sentence, word, number):
    frame = frame_of(sentence, word)
    assert not frame.verbal and frame.before.number == number


@pytest.mark.parametrize(("sentence", "word", "number"), [
    ("My cousin are very funny, they always make me laugh.", "are", "unclear"),  # a later 'they' for the subject
    ("The waiter were slow but they were kind.", "were", "unclear"),
    ("My uncle have two sons and they live in Cádiz.", "have", "singular"),      # 'they' are the sons
    ("My aunt have a big family and they visit us.", "have", "singular"),        # or a collective noun
    ("My uncle have a boat and he sails every day.", "have", "singular"),
])
def test_a_singular_noun_taken_up_by_a_later_plural_pronoun_is_meant_as_a_plural(sentence, word, number):
    frame = frame_of(sentence, word)
    assert frame.subject.number == number
    if number == "unclear":
        assert sentence[frame.noun[0]:frame.noun[1]] in ("cousin", "waiter")


@pytest.mark.parametrize(("sentence", "word"), [
    ("The sheep were in the field.", "were"),
    ("That species was in danger.", "was"),
])
def test_a_noun_whose_plural_is_its_singular_takes_either_agreement(sentence, word):
    assert frame_of(sentence, word).subject.number == "collective"
