"""Integer and number ranges as regexes: checked against Python's arithmetic over every value near the bounds."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tutor.engine.dfa import DFA
from tutor.engine.regex import regex_to_dfa
from tutor.engine.schema_numbers import (
    integer_bounds,
    integer_regex,
    lower_bound_regex,
    multiple_of_table,
    upper_bound_regex,
)


@pytest.mark.parametrize(("lo", "hi"), [(0, None), (None, 0), (1, 100), (-90, 90), (-180, -3), (5, 5),
                                        (None, None), (13, 2047), (-1000, None)])
def test_integer_ranges_are_exact(lo: int | None, hi: int | None) -> None:
    dfa = regex_to_dfa(integer_regex(lo, hi))
    for x in range(-2100, 2100):
        assert dfa.accepts(str(x).encode()) == ((lo is None or x >= lo) and (hi is None or x <= hi)), x
    assert dfa.accepts(b"-0") == ((lo is None or lo <= 0) and (hi is None or hi >= 0))
    assert not dfa.accepts(b"01") and not dfa.accepts(b"")


def test_an_empty_range_has_no_regex_and_bounds_round_inward() -> None:
    assert integer_regex(7, 3) is None
    assert integer_bounds(Decimal("0.5"), Decimal("9.5"), None, None) == (1, 9)
    assert integer_bounds(None, None, Decimal(2), Decimal(5)) == (3, 4)


SPELLINGS = ["0", "-0", "0.0", "-0.0", "0.5", "-0.5", "1", "1.0", "1.5", "-1", "-1.0", "-1.5", "89.999", "90",
             "90.0", "90.0001", "-90", "-90.00", "-90.1", "100", "99.5", "180.0", "181", "12345.678", "-3",
             "-2.5", "-3.0001", "2.999", "3.000", "3.0001"]


@pytest.mark.parametrize("bound", [0, 1, -1, 3, -3, 90, -90, 100])
@pytest.mark.parametrize("strict", [False, True])
def test_number_bounds_are_exact(bound: int, strict: bool) -> None:
    lower = regex_to_dfa(lower_bound_regex(bound, strict))
    upper = regex_to_dfa(upper_bound_regex(bound, strict))
    for text in SPELLINGS:
        value = Decimal(text)
        assert lower.accepts(text.encode()) == (value > bound if strict else value >= bound), text
        assert upper.accepts(text.encode()) == (value < bound if strict else value <= bound), text


@pytest.mark.parametrize("k", [1, 2, 3, 7, 10, 12])
def test_multiples_of_an_integer(k: int) -> None:
    table, accepting = multiple_of_table(k)
    dfa = DFA(table, accepting, 0)
    for x in range(-400, 400):
        assert dfa.accepts(str(x).encode()) == (x % k == 0), x
    assert dfa.accepts(b"-0") and not dfa.accepts(b"01")
