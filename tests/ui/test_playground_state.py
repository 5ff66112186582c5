"""The playground's ranking model: text, table, cards and buttons edit one ranking; bad input is refused."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.ndcg import ndcg
from metrics.parse import ParseError
from ui import playground_state as ps
from ui.links import read_playground_query


def model_for(query: dict) -> ps.Model:
    return ps.from_link(read_playground_query(query))


def ids(items):
    return [it.id for it in items]


def test_default_is_document_000():
    m = model_for({})
    assert m.grades() == [3, 2, 1, 3, 2] and m.labels() == ["D1", "D2", "D3", "D4", "D5"]


def test_unretrieved_items_continue_the_labels():
    m = model_for({"rels": "3,2,3,0,1,2", "unretrieved": "3,0"})
    assert [it.label for it in m.unretrieved] == ["D7", "D8"]
    assert m.pool() == [3, 2, 3, 0, 1, 2, 3, 0]


def test_text_keeps_labels_by_position_and_adds_fresh_ones():
    m = model_for({"rels": "3,2", "labels": "A,B"})
    assert ps.set_ranked_text(m, "1 2 3")
    assert m.labels() == ["A", "B", "D1"] and m.grades() == [1, 2, 3]
    assert not ps.set_ranked_text(m, "1,2,3")  # same grades: no change


def test_bad_text_is_refused_and_the_ranking_kept():
    m = model_for({"rels": "3,2"})
    before = (m.grades(), m.version)
    with pytest.raises(ParseError) as err:
        ps.set_ranked_text(m, "3 x 1")
    assert (err.value.token, err.value.position) == ("x", 2)
    with pytest.raises(ParseError):
        ps.set_ranked_text(m, "3 -1")
    assert (m.grades(), m.version) == before


def test_overflowing_grades_are_refused():
    m = model_for({"rels": "3,2"})
    with pytest.raises(ps.InputProblem):
        ps.set_ranked_text(m, "3 5000")  # 2^5000 - 1 overflows float64 with exponential gain
    assert m.grades() == [3, 2]


def test_drag_reorders_and_moves_between_areas():
    m = model_for({"rels": "3,2,1", "unretrieved": "3"})
    cards = ps.cards(m, "R", "U")
    assert cards[0]["items"] == ["D1 · 3", "D2 · 2", "D3 · 1"] and cards[1]["items"] == ["D4 · 3"]
    sort_rev = m.sort_rev
    assert ps.apply_drag(m, [{"header": "R", "items": ["D3 · 1", "D1 · 3", "D4 · 3"]},
                             {"header": "U", "items": ["D2 · 2"]}])
    assert m.grades() == [1, 3, 3] and m.unretrieved_grades() == [2]
    assert m.sort_rev == sort_rev  # the cards already show it: not redrawn


@pytest.mark.parametrize("value", [
    None, "x", [], [{"items": []}],
    [{"header": "R", "items": ["D1 · 3"]}, {"header": "U", "items": []}],  # cards missing
    [{"header": "R", "items": ["D1 · 3", "D2 · 2", "Z · 9"]}, {"header": "U", "items": []}],  # unknown card
])
def test_stale_or_malformed_drag_values_are_ignored(value):
    m = model_for({"rels": "3,2"})
    assert not ps.apply_drag(m, value)
    assert m.grades() == [3, 2]


def test_drag_cannot_empty_the_list():
    m = model_for({"rels": "3"})
    with pytest.raises(ps.InputProblem):
        ps.apply_drag(m, [{"header": "R", "items": []}, {"header": "U", "items": ["D1 · 3"]}])
    assert m.grades() == [3]


def test_move_buttons():
    m = model_for({"rels": "3,2,1", "unretrieved": "0"})
    d3 = m.ranked[2].id
    assert ps.move(m, d3, "up") and m.labels() == ["D1", "D3", "D2"]
    assert ps.move(m, d3, "top") and m.labels() == ["D3", "D1", "D2"]
    assert not ps.move(m, d3, "up")  # already first
    assert ps.move(m, d3, "down") and m.labels() == ["D1", "D3", "D2"]
    assert ps.move(m, d3, "toggle") and m.labels() == ["D1", "D2"] and m.unretrieved_grades() == [0, 1]
    assert ps.move(m, d3, "toggle") and m.labels() == ["D1", "D2", "D3"]


def test_table_edits():
    m = model_for({"rels": "3,2,1", "unretrieved": "3"})
    frame = ps.table_frame(m)
    assert frame["retrieved"].tolist() == [True, True, True, False]
    assert ps.apply_table_edits(m, {"edited_rows": {0: {"grade": 0.0, "label": "first"}, 3: {"retrieved": True}},
                                    "added_rows": [{"label": "new", "grade": 2}], "deleted_rows": [1]})
    assert m.labels() == ["first", "D3", "D4", "new"] and m.grades() == [0, 1, 3, 2] and m.unretrieved == []


@pytest.mark.parametrize("edits", [
    {"edited_rows": {0: {"grade": None}}},
    {"edited_rows": {0: {"grade": -1}}},
    {"edited_rows": {0: {"grade": "x"}}},
    {"added_rows": [{"label": "n"}]},
    {"deleted_rows": [0, 1]},
    {"edited_rows": {0: {"retrieved": False}, 1: {"retrieved": False}}},
])
def test_bad_table_edits_are_refused(edits):
    m = model_for({"rels": "3,2"})
    with pytest.raises(ValueError):
        ps.apply_table_edits(m, edits)
    assert m.grades() == [3, 2]


def test_duplicate_labels_from_the_table_are_made_unique():
    m = model_for({"rels": "3,2"})
    ps.apply_table_edits(m, {"edited_rows": {1: {"label": "D1"}}})
    assert m.labels() == ["D1", "D1 (2)"]


def test_big_lists_cap_cards_and_table_but_keep_every_item():
    n = 3 * ps.TABLE_CAP
    m = model_for({"rels": ",".join(["1"] * n)})
    cards = ps.cards(m, "R", "U")
    assert len(cards[0]["items"]) == ps.CARD_CAP and len(ps.table_frame(m)) == ps.TABLE_CAP
    order = list(reversed(cards[0]["items"]))
    assert ps.apply_drag(m, [{"header": "R", "items": order}, {"header": "U", "items": []}])
    assert len(m.ranked) == n and ids(m.ranked[ps.CARD_CAP:]) == list(range(ps.CARD_CAP, n))
    assert ps.apply_table_edits(m, {"edited_rows": {0: {"grade": 3.0}}}) and len(m.ranked) == n


def test_query_round_trip_through_the_model():
    m = model_for({"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6", "labels": "a,b,c,d,e,f,g,h"})
    q = ps.to_query(m)
    again = model_for(q)
    assert again.grades() == m.grades() and again.unretrieved_grades() == m.unretrieved_grades()
    assert [it.label for it in again.all_items()] == [it.label for it in m.all_items()]
    assert again.k == 6


@given(st.lists(st.integers(0, 3), min_size=2, max_size=12), st.data())
def test_any_drag_permutation_gives_the_metric_of_that_order(rels, data):
    m = model_for({"rels": ",".join(map(str, rels))})
    cards = ps.cards(m, "R", "U")[0]["items"]
    order = data.draw(st.permutations(cards))
    ps.apply_drag(m, [{"header": "R", "items": list(order)}, {"header": "U", "items": []}])
    by_card = {c: r for c, r in zip(cards, rels)}
    assert m.grades() == [by_card[c] for c in order]
    assert ndcg(m.grades()) == ndcg([by_card[c] for c in order])


def test_typed_base_is_validated_and_a_bad_one_refused():
    m = model_for({"rels": "3,2"})
    state = {ps.W_K: 0, ps.W_GAIN: "linear", ps.W_DISCOUNT: "standard", ps.W_IDCG: "judged", ps.W_BASE: "3"}
    assert ps.absorb_controls(state, m) is None and m.base == 3.0
    for bad in ("1", "0", "x", "-2"):
        state[ps.W_BASE] = bad
        assert isinstance(ps.absorb_controls(state, m), ValueError)
        assert m.base == 3.0  # the last valid base is kept
