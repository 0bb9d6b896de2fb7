"""The sentence analyser on hand-written learner sentences (none from the dev set)."""

import pytest

from tutor.a13.analysis import analyse, tokenize
from tutor.a13.candidates import select_options

# sentence, expected (verb, tense, person, correct_form) of the only option left by the facts
FACT_CASES = [
    ("My brother has ate all the cake.", ("eat", "past participle", "3rd singular", "eaten")),
    ("Have she finish her homework?", ("finish", "past participle", "3rd singular", "finished")),
    ("I haven't saw that film.", ("see", "past participle", "1st singular", "seen")),
    ("They told me you had went home early.", ("go", "past participle", "2nd singular", "gone")),
    ("Tomorrow my aunt will comes to visit.", ("come", "simple future", "3rd singular", "will come")),
    ("I'll wrote you a letter.", ("write", "simple future", "1st singular", "will write")),
    ("You will to study in Spain next year.", ("study", "simple future", "2nd singular", "will study")),
    ("She wants to watched the parade.", ("watch", "infinitive", "3rd singular", "to watch")),
    ("I went to the library for study English.", ("study", "infinitive", "1st singular", "to study")),
    ("He went out for buy bread and for see his friends.", ("see", "infinitive", "3rd singular", "to see")),
    ("I need go to the bank.", ("go", "infinitive", "1st singular", "to go")),
    ("My sister goed to Lima.", ("go", "past simple", "3rd singular", "went")),
    ("You eated my sandwich!", ("eat", "past simple", "2nd singular", "ate")),
    ("I wented home after the party.", ("go", "past simple", "1st singular", "went")),
    ("The teacher watchs us all the time.", ("watch", "present simple", "3rd singular", "watches")),
    ("my cousin finishs work at six", ("finish", "present simple", "3rd singular", "finishes")),
    ("You was very funny last night.", ("be", "past simple", "2nd singular", "were")),
    ("He are my best friend.", ("be", "present simple", "3rd singular", "is")),
    ("I is hungry for knowledge.", ("be", "present simple", "1st singular", "am")),
    ("She have a beautiful garden.", ("have", "present simple", "3rd singular", "has")),
    ("I has two brothers.", ("have", "present simple", "1st singular", "have")),
    ("Yesterday I walk to the beach.", ("walk", "past simple", "1st singular", "walked")),
    ("Two years ago you write me a song.", ("write", "past simple", "2nd singular", "wrote")),
    ("The cake was eat by the dog.", ("eat", "past participle", "3rd singular", "eaten")),
    ("I goes to the gym on Mondays.", ("go", "present simple", "1st singular", "go")),
    ("You likes chocolate, right?", ("like", "present simple", "2nd singular", "like")),
]


@pytest.mark.parametrize(("sentence", "expected"), FACT_CASES)
def test_facts_leave_the_right_answer(sentence, expected):
    options = select_options(analyse(sentence))
    cells = {(o.cell.verb, o.cell.tense, o.cell.person, o.cell.correct_form) for o in options}
    assert expected in cells
    assert all(o.is_error for o in options)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I watched a movie with my dad.", ("watch", "past simple", "1st singular", "watched")),
        ("You are my favourite teacher.", ("be", "present simple", "2nd singular", "are")),
        ("He will study medicine.", ("study", "simple future", "3rd singular", "will study")),
        ("She writes poems.", ("write", "present simple", "3rd singular", "writes")),
    ],
)
def test_correct_sentences_keep_the_verb_as_written(sentence, expected):
    options = select_options(analyse(sentence))
    assert [(o.cell.verb, o.cell.tense, o.cell.person, o.cell.correct_form) for o in options] == [expected]
    assert not options[0].is_error


@pytest.mark.parametrize("sentence", ["I buyed a new phone.", "She sing very well.", "He thinked about it.",
                                      "We will called you."])
def test_out_of_scope_sentences_abstain(sentence):
    assert analyse(sentence).abstain


def test_in_scope_sentence_does_not_abstain():
    assert not analyse("He goed home.").abstain


def test_imperative_has_no_subject_to_agree_with():
    options = select_options(analyse("Don't worry, I'll went with you."))
    assert {o.cell.verb for o in options} == {"go"}


def test_question_inversion_takes_the_subject_after_the_auxiliary():
    options = analyse("Has your brother ever seed a whale?").options
    assert {(o.cell.verb, o.cell.person) for o in options if o.is_error} == {("see", "3rd singular")}


def test_tokenize_splits_contractions_with_offsets():
    words = tokenize("I'll go, she hasn't.")
    assert [w.norm for w in words] == ["i", "'ll", "go", ",", "she", "has", "n't", "."]
    text = "I'll go, she hasn't."
    assert all(text[w.start:w.end] == w.text for w in words)


def test_curly_apostrophes_and_capitals():
    options = select_options(analyse("I’LL CAME TOMORROW"))
    assert [(o.cell.verb, o.cell.tense) for o in options] == [("come", "simple future")]


def test_a_doubtful_noun_after_for_is_left_to_the_model():
    options = select_options(analyse("I went to the library for study."))
    cells = {(o.cell.verb, o.cell.tense, o.is_error) for o in options}
    assert ("study", "infinitive", True) in cells
    assert any(not o.is_error for o in options)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tutor.a13.lexicon import lexicon  # noqa: E402

_WORDS = [*sorted(lexicon()), "I", "you", "he", "she", "my", "the", "dog", "yesterday", "will", "to", "for",
          "have", "has", "n't", "'ll", ",", ".", "?", "and", "because", "who", "every", "day", "last", "week",
          "😀", "ñandú", "2019", "am", "like", "please"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=25))
def test_any_word_salad_gives_consistent_options(words):
    sentence = " ".join(words)
    analysis = analyse(sentence)
    for option in select_options(analysis):
        assert sentence[option.start:option.end]  # the span points into the sentence
        assert option.cell.correct_form in option.cell.english


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=200))
def test_arbitrary_text_never_crashes_the_analyser(text):
    analysis = analyse(text)
    assert isinstance(analysis.abstain, bool)
    select_options(analysis)


def test_contractions_without_apostrophes_are_split():
    assert [w.norm for w in tokenize("i dont know, im late")] == ["i", "do", "n't", "know", ",", "i", "'m", "late"]
    options = select_options(analyse("my sister dont work, she study all day"))
    assert ("study", "present simple", "3rd singular") in {o.cell.key for o in options}


def test_do_support_alone_is_not_a_verb_to_correct():
    assert analyse("Do you know if the shop open on Sundays?").abstain
    assert not analyse("I do my homework at night.").abstain


@pytest.mark.parametrize(("sentence", "written", "correction"), [
    ("My uncle camed home very late on Friday.", "camed", "came"),          # a form English lacks, parsed as 'came'
    ("Martina studys in the library every afternoon.", "studys", "studies"),
    ("My tía cook a big lunch every Sunday.", "cook", None),                # not one of the 20: no option
    ("She will to watch the match with us.", "will to watch", "will watch"),
])
def test_clear_cases_the_parse_alone_would_lose(sentence, written, correction):
    errors = {(o.written, o.cell.correct_form) for o in analyse(sentence).options if o.is_error}
    if correction is None:
        assert not errors
    else:
        assert (written, correction) in errors
