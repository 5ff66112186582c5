"""The playground link format (ui.links): encoding for other pages (playground_query_for) and decoding
with the playground's own field parsers (read_playground_query); numbers exact both ways."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.links import (
    DISCOUNT_CHOICES,
    GAIN_CHOICES,
    PLAYGROUND_PARAMS,
    playground_query,
    playground_query_for,
    playground_url,
    read_playground_query,
)
from ui.ranking import Ranking


def test_documents_examples_decode():
    link = read_playground_query({"rels": "3,2,1,3,2", "discount": "jarvelin"})
    assert link.rels == [3.0, 2.0, 1.0, 3.0, 2.0]
    assert link.discount == "jarvelin" and link.problems == []
    link = read_playground_query({"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6"})
    assert (link.rels, link.unretrieved, link.k) == ([3, 2, 3, 0, 1, 2], [3, 0], 6)


@pytest.mark.parametrize("name,value,expected", [
    ("rels", "3 2 1", [3.0, 2.0, 1.0]),
    ("rels", "３，２，１", [3.0, 2.0, 1.0]),  # full-width, from a Chinese keyboard
    ("rels", "3\t2\n1", [3.0, 2.0, 1.0]),
    ("rels", "0.5,2", [0.5, 2.0]),
    ("unretrieved", "", []),
    ("unretrieved", "3,0", [3.0, 0.0]),
    ("k", "6", 6),
    ("k", "all", None),
    ("gain", "exponential", "exponential"),
    ("gain", "Linear", "linear"),
    ("discount", "standard", "standard"),
    ("base", "10", 10.0),
    ("base", "e", math.e),
    ("base", "3", 3.0),
    ("idcg", "list", "list"),
])
def test_good_values(name, value, expected):
    params = {"rels": "3,2"} if name != "rels" else {}
    link = read_playground_query({**params, name: value})
    assert link.problems == []
    assert getattr(link, name) == expected


@pytest.mark.parametrize("name,value,kind", [
    ("rels", "3,x,1", "not_a_number"),
    ("rels", "3,-1", "negative"),
    ("rels", "1e999", "too_large"),
    ("rels", "", "empty"),
    ("unretrieved", "3,y", "not_a_number"),
    ("k", "0", "k"),
    ("k", "-2", "k"),
    ("k", "2.5", "k"),
    ("k", "፩", "k"),
    ("k", "900719925474100", "k"),
    ("rels", "3,1001", "too_large"),
    ("gain", "cubic", "choice"),
    ("gain", "binary", "choice"),
    ("discount", "zipf", "choice"),
    ("base", "1", "base"),
    ("base", "0", "base"),
    ("base", "pi", "base"),
    ("idcg", "both", "choice"),
])
def test_bad_values_are_named_and_left_to_the_default(name, value, kind):
    link = read_playground_query({"rels": "3,2", name: value} if name != "rels" else {name: value})
    assert [(p.name, p.kind) for p in link.problems] == [(name, kind)]
    assert link.problems[0].value == value
    assert getattr(link, name) is None


def test_bad_token_position_is_reported():
    (problem,) = read_playground_query({"rels": "3,2,x"}).problems
    assert (problem.token, problem.position) == ("x", 3)
    assert "'x' at position 3 is not a number" in problem.message or "“x” at position 3" in problem.message


def test_choice_message_lists_the_valid_names():
    (problem,) = read_playground_query({"gain": "cubic"}).problems
    assert all(name in problem.message for name in GAIN_CHOICES)


def _labels(link) -> list[str]:
    ranking = Ranking.from_fields(link.rels, link.unretrieved or (), link.labels or ())
    return [it.label for it in ranking.ranked + ranking.unretrieved]


def test_labels_cover_ranked_then_unretrieved_items():
    link = read_playground_query({"rels": "3,2", "unretrieved": "1", "labels": "A,B,C"})
    assert link.labels == ["A", "B", "C"]
    link = read_playground_query({"rels": "3,2", "unretrieved": "1", "labels": "A"})
    assert _labels(link) == ["A", "D2", "D3"]  # missing: D<n>
    link = read_playground_query({"rels": "3,2", "labels": "A,A"})
    assert _labels(link) == ["A", "A (2)"]  # unique: cards need distinct strings


def test_extra_labels_warn():
    link = read_playground_query({"rels": "3", "labels": "A,B"})
    assert [p.kind for p in link.problems] == ["labels_extra"]
    assert link.labels == ["A"]


def test_labels_without_a_ranking_are_ignored():
    assert read_playground_query({"labels": "A,B"}).labels is None


def test_unknown_parameters_are_ignored():
    link = read_playground_query({"lang": "zh", "foo": "bar"})
    assert link.problems == [] and link.rels is None


def test_query_encoder_unchanged():
    assert playground_query([3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6) == {
        "rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6"}
    assert playground_url([3, 2], discount="jarvelin") == "playground?rels=3,2&discount=jarvelin"
    assert playground_query([2.1234567, 0.1 + 0.2])["rels"] == "2.1234567,0.30000000000000004"  # exact


def test_default_labels_are_not_written():
    assert "labels" not in playground_query_for([3, 2], labels=["D1", "D2"])
    assert playground_query_for([3, 2], labels=["A", "D2"])["labels"] == "A,D2"
    assert playground_query_for([3], idcg="list")["idcg"] == "list"
    assert "idcg" not in playground_query_for([3], idcg="judged")


grades = st.lists(st.integers(0, 5) | st.sampled_from([0.5, 1.5, 2.25]), min_size=1, max_size=30)


@given(rels=grades, unret=st.lists(st.integers(0, 5), max_size=5), k=st.none() | st.integers(1, 40),
       gain=st.sampled_from(GAIN_CHOICES), discount=st.sampled_from(DISCOUNT_CHOICES),
       base=st.sampled_from([2.0, math.e, 10.0, 3.0]))
def test_round_trip(rels, unret, k, gain, discount, base):
    q = playground_query(rels, unretrieved=unret, k=k, gain=gain, discount=discount, base=base)
    assert set(q) <= set(PLAYGROUND_PARAMS)
    link = read_playground_query(q)
    assert link.problems == []
    assert link.rels == [float(r) for r in rels]
    assert (link.unretrieved or []) == [float(r) for r in unret]
    assert link.k == k
    assert (link.gain or "linear", link.discount or "standard") == (gain, discount)
    assert (link.base if link.base is not None else 2.0) == base


@given(st.dictionaries(st.sampled_from(PLAYGROUND_PARAMS), st.text(max_size=30)))
def test_any_query_never_raises(params):
    link = read_playground_query(params)
    for p in link.problems:
        assert p.name in PLAYGROUND_PARAMS and getattr(link, p.name, None) is None or p.kind == "labels_extra"
