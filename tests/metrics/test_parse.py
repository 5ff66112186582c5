"""Typed / pasted text -> grades, numbers and labels; errors name the token and its position."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.parse import ParseError, parse_gain_map, parse_grades, parse_labels, parse_numbers, split_tokens
from tests.metrics.conftest import FUZZ, PROPERTY


@pytest.mark.parametrize("text", [
    "3 2 1 3 2",
    "3,2,1,3,2",
    "3, 2, 1, 3, 2",
    "3;2;1;3;2",
    "3\t2\t1\t3\t2",
    "3\n2\n1\n3\n2\n",
    "3、2、1、3、2",  # Chinese enumeration comma
    "３，２，１，３，２",  # full-width digits and comma (Chinese keyboard)
    "3 | 2 | 1 | 3 | 2",
    "  3  2\u30001 3 2  ",  # ideographic space
])
def test_separators(text):
    assert parse_grades(text) == [3.0, 2.0, 1.0, 3.0, 2.0]


@given(st.lists(st.integers(0, 3), min_size=2, max_size=12), st.data())
@PROPERTY
def test_a_grade_left_out_between_separators_is_refused_at_its_position(grades, data):
    # A user retypes a list with one cell left empty (``3,,2``; a spreadsheet row with a blank cell pasted as
    # ``3;;2``): reading it as the shorter list would move every later grade up one position without a word.
    gap = data.draw(st.integers(1, len(grades) - 1), label="empty cell after this many grades")
    sep = data.draw(st.sampled_from([",", ", ", ";", " ; ", "、", "|", "，"]), label="separator")
    cells = [str(g) for g in grades[:gap]] + [data.draw(st.sampled_from(["", " ", "\t"]))] + [
        str(g) for g in grades[gap:]]
    with pytest.raises(ParseError) as info:
        parse_grades(sep.join(cells))
    assert (info.value.kind, info.value.position) == ("empty", gap + 1)
    assert f"position {gap + 1} is empty" in str(info.value)
    # the same list without the empty cell, or with a trailing separator, reads as typed
    assert parse_grades(sep.join(str(g) for g in grades) + sep) == [float(g) for g in grades]


def test_number_forms():
    assert parse_grades("0 1.5 .5 2. 1e1 1E-1 +3") == [0.0, 1.5, 0.5, 2.0, 10.0, 0.1, 3.0]
    assert parse_numbers("-1.5 2 -0") == [-1.5, 2.0, -0.0]
    assert parse_numbers("0.9, 81.86%", allow_percent=True) == [0.9, pytest.approx(0.8186, rel=1e-15)]


def test_split_tokens():
    assert split_tokens("３，２，１\t0 ; 2") == ["3", "2", "1", "0", "2"]
    assert split_tokens("") == []
    assert split_tokens(" , ;") == []


@pytest.mark.parametrize("text,token,position,words", [
    ("3,x,1", "x", 2, ["'x'", "position 2", "not a number"]),
    ("3 -1", "-1", 2, ["'-1'", "position 2", "negative", "0 or more"]),
    ("1 2 nan", "nan", 3, ["'nan'", "position 3", "not a number"]),
    ("inf", "inf", 1, ["'inf'", "position 1"]),
    ("1 1e999", "1e999", 2, ["'1e999'", "position 2", "too large"]),
    ("50%", "50%", 1, ["'50%'", "position 1", "not a number"]),
    ("1 2 3 0x10", "0x10", 4, ["'0x10'", "position 4"]),
    ("1_000", "1_000", 1, ["'1_000'"]),
    ("3 2 1e", "1e", 3, ["'1e'", "position 3"]),
    ("__import__('os')", "__import__('os')", 1, ["position 1", "not a number"]),
    ("1 " + "9" * 30 + "x", "9" * 30 + "x", 2, ["position 2", "..."]),  # long tokens are shortened
])
def test_parse_errors_name_token_and_position(text, token, position, words):
    with pytest.raises(ParseError) as info:
        parse_grades(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.token == token and err.position == position
    for word in words:
        assert word in str(err), (word, str(err))


def test_parse_numbers_percent_only_when_allowed():
    with pytest.raises(ParseError, match="'5%' at position 1 is not a number"):
        parse_numbers("5%")
    assert parse_numbers("5%", allow_percent=True) == [0.05]


def test_empty_text():
    with pytest.raises(ValueError, match="nothing to read"):
        parse_grades("")
    with pytest.raises(ValueError, match="nothing to read"):
        parse_grades(" ,, \n")
    assert parse_grades("", allow_empty=True) == []
    assert parse_numbers("  ", allow_empty=True) == []


@pytest.mark.parametrize("value", [None, 3, [1, 2], b"1 2"])
def test_non_text_is_valueerror(value):
    with pytest.raises(ValueError, match="expected text"):
        parse_grades(value)


def test_parse_labels():
    assert parse_labels("A,B,A", 4) == ["A", "B", "A (2)", "D4"]
    assert parse_labels("", 3) == ["D1", "D2", "D3"]
    assert parse_labels(None, 2) == ["D1", "D2"]
    assert parse_labels("x, ,z", 3) == ["x", "D2", "z"]  # blank -> default
    assert parse_labels("A,A,A (2)", 3) == ["A", "A (2)", "A (2) (2)"]
    assert parse_labels("ＡＢ, C", 1) == ["AB"]  # NFKC, extra labels ignored
    assert parse_labels("D2,", 2) == ["D2", "D2 (2)"]  # a default clashing with a given label


@PROPERTY
@given(st.lists(st.one_of(st.integers(0, 10**6), st.floats(0, 1e6, allow_nan=False)), min_size=1, max_size=15),
       st.lists(st.sampled_from([" ", ",", ", ", ";", "\t", "\n", "、", "，", " | "]), min_size=15, max_size=15))
def test_round_trip(values, seps):
    text = "".join(f"{v!r}{s}" for v, s in zip(values, seps))
    assert parse_grades(text) == [float(v) for v in values]


@PROPERTY
@given(st.lists(st.text(min_size=1, max_size=8).filter(lambda s: "," not in s), max_size=8), st.integers(0, 10))
def test_labels_unique_and_complete(labels, n):
    out = parse_labels(",".join(labels), n)
    assert len(out) == n and len(set(out)) == n


@FUZZ
@given(st.text(max_size=30))
def test_fuzz_any_text(text):
    # anything typed: a list of finite numbers >= 0, or a ValueError (ParseError) -- never another error
    try:
        grades = parse_grades(text)
    except ParseError as err:
        assert 1 <= err.position and err.token in split_tokens(text)
        assert f"position {err.position}" in str(err)
    except ValueError as err:
        assert "nothing to read" in str(err)
    else:
        assert all(math.isfinite(g) and g >= 0 for g in grades)
        assert len(grades) == len(split_tokens(text))
    try:
        numbers = parse_numbers(text, allow_percent=True, allow_empty=True)
    except ParseError:
        pass
    else:
        assert all(math.isfinite(x) for x in numbers)


# ---- gain maps (trec_eval -m ndcg.L=G) -------------------------------------------------------------

def test_parse_gain_map_forms():
    assert parse_gain_map("0=0,1=1,2=3,3=7") == {0.0: 0.0, 1.0: 1.0, 2.0: 3.0, 3.0: 7.0}
    assert parse_gain_map("ndcg.1=3.5,2=9.0,4=7.0") == {1.0: 3.5, 2.0: 9.0, 4.0: 7.0}
    assert parse_gain_map("-m ndcg_cut.2=9") == {2.0: 9.0}
    assert parse_gain_map("２＝３，１＝-1") == {2.0: 3.0, 1.0: -1.0}  # full width; negative gains allowed
    assert parse_gain_map("  1=1\n 2=3 ; 3=7 ") == {1.0: 1.0, 2.0: 3.0, 3.0: 7.0}
    assert parse_gain_map("", allow_empty=True) == {}


@pytest.mark.parametrize("text,position,kind,fragment", [
    ("1=3,2", 2, "not_a_pair", "'2' (pair 2)"),
    ("1=3,2=3=4", 2, "not_a_pair", "'2=3=4'"),
    ("1=3,x=2", 2, "not_a_number", "level 'x'"),
    ("1=3,2=abc", 2, "not_a_number", "gain 'abc'"),
    ("-1=3", 1, "negative", "level '-1'"),
    ("1=3,2=4,1=5", 3, "duplicate", "already given (pair 1"),
    ("1=1e999", 1, "too_large", "too large"),
    ("1=50%", 1, "not_a_number", "gain '50%'"),
])
def test_parse_gain_map_errors_name_token_and_position(text, position, kind, fragment):
    with pytest.raises(ParseError) as err:
        parse_gain_map(text)
    assert err.value.position == position and err.value.kind == kind
    assert fragment in str(err.value)


def test_parse_gain_map_rejects_empty_and_non_text():
    with pytest.raises(ValueError, match="gain map is empty"):
        parse_gain_map(" , ")
    with pytest.raises(ValueError, match="must be text"):
        parse_gain_map({1: 2})
