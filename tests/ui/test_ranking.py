"""The playground's ranking (ui.ranking): text, table, cards and buttons edit one ranking; names stay unique;
bad edits are refused with a message and the ranking kept.  And the playground's fields (ui.pages.playground)
round-trip through the link exactly."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.ndcg import ndcg
from ui import state as ui_state
from ui.links import FIELDS, read_playground_query
from ui.ranking import Ranking, RankingProblem


def test_default_labels_and_unretrieved_items_continue_them():
    r = Ranking.from_fields((3, 2, 3, 0, 1, 2), (3, 0))
    assert r.labels(all_items=True) == ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"]
    assert r.pool() == [3, 2, 3, 0, 1, 2, 3, 0]
    assert r.fields() == ((3, 2, 3, 0, 1, 2), (3, 0), ())  # default names are not written to a link


def test_text_keeps_labels_by_position_and_adds_fresh_ones():
    r = Ranking.from_fields((3, 2), (), ("A", "B"))
    assert r.regrade(rels=(1, 2, 3)).labels() == ["A", "B", "D1"]
    assert r.regrade(rels=(3, 2)) is r  # same grades: no change
    # a longer ranked list does not rename the unretrieved items
    r = Ranking.from_fields((3, 2, 3, 0, 1, 2), (3, 0))
    assert r.regrade(rels=(1,) * 7).labels(all_items=True)[-2:] == ["D7", "D8"]


def test_drag_reorders_and_moves_between_areas():
    r = Ranking.from_fields((3, 2, 1), (3,))
    new = r.drag(["D4", "D1"], ["D2", "D3"], cap=40)
    assert new.labels() == ["D4", "D1"] and new.unretrieved_grades() == [2, 1]
    assert r.drag(["D1", "D2", "D3"], ["D4"], cap=40) is r  # dropped where it was: nothing changes


@pytest.mark.parametrize("ranked,unretrieved", [
    (None, []), ("D1,D2,D3", []), (["D1"], []), (["D9", "D2", "D3"], []), (["D1", "D2"], []),
    (["D1", "D1", "D2"], ["D3"]), (["D1", "D2", "D3", "D4"], []),
])
def test_stale_or_malformed_drag_values_are_ignored(ranked, unretrieved):
    r = Ranking.from_fields((3, 2, 1))
    assert r.drag(ranked, unretrieved, cap=40) is r


def test_drag_cannot_empty_the_list():
    r = Ranking.from_fields((3, 2))
    with pytest.raises(RankingProblem) as err:
        r.drag([], ["D1", "D2"], cap=40)
    assert err.value.key == "playground.empty_list"


def test_move_buttons():
    r = Ranking.from_fields((3, 2, 1))
    assert r.move("D3", "up").labels() == ["D1", "D3", "D2"]
    assert r.move("D3", "top").labels() == ["D3", "D1", "D2"]
    assert r.move("D1", "up") is r and r.move("D9", "up") is r and r.move("D1", "sideways") is r
    out = r.move("D2", "toggle")
    assert out.grades() == [3, 1] and out.unretrieved_grades() == [2]
    assert out.move("D2", "toggle").grades() == [3, 1, 2]
    with pytest.raises(RankingProblem):
        Ranking.from_fields((3,)).move("D1", "toggle")


def test_table_edits():
    r = Ranking.from_fields((3, 2, 1))
    out = r.edit_table({"edited_rows": {"0": {"label": "A", "grade": 0.5}, 2: {"retrieved": False}},
                        "added_rows": [{"label": "new", "grade": 2}], "deleted_rows": [1]}, cap=200)
    assert out.labels() == ["A", "new"] and out.grades() == [0.5, 2] and out.unretrieved_grades() == [1]


@pytest.mark.parametrize("edits", [
    {"edited_rows": {0: {"grade": -1}}}, {"edited_rows": {0: {"grade": None}}},
    {"edited_rows": {0: {"grade": "abc"}}}, {"added_rows": [{"label": "x"}]},
    {"edited_rows": {0: {"retrieved": False}, 1: {"retrieved": False}, 2: {"retrieved": False}}},
    {"edited_rows": {0: {"grade": 1e400}}}, {"edited_rows": {0: {"grade": 2000}}},
])
def test_bad_table_edits_are_refused(edits):
    r = Ranking.from_fields((3, 2, 1))
    with pytest.raises(RankingProblem):
        r.edit_table(edits, cap=200, max_grade=1000)


def test_duplicate_labels_from_the_table_are_made_unique():
    r = Ranking.from_fields((3, 2))
    out = r.edit_table({"edited_rows": {1: {"label": "D1"}}}, cap=200)
    assert out.labels() == ["D1", "D1 (2)"]


def test_big_lists_cap_cards_and_table_but_keep_every_item():
    r = Ranking.from_fields([1] * 50, [0] * 45)
    assert len(r.table(cap=200)) == 95
    # a drag of the cards on screen (40 per area) keeps the items past the cap in place
    ranked, unretrieved = r.labels()[:40], r.labels(all_items=True)[50:90]
    assert r.drag(ranked[:39], unretrieved, cap=40) is r  # not the cards on screen
    out = r.drag(ranked[::-1], unretrieved[1:] + unretrieved[:1], cap=40)
    assert len(out.ranked) == 50 and out.labels()[40:] == r.labels()[40:] and out.labels()[:40] == ranked[::-1]
    assert out.labels(all_items=True)[50:] == unretrieved[1:] + unretrieved[:1] + r.labels(all_items=True)[90:]


def test_labels_are_one_line_without_commas():
    r = Ranking.from_fields((1, 2), (), ("a,b", "c\nd" + "x" * 100))
    assert r.labels() == ["a b", ("c d" + "x" * 100)[:60]]


@given(st.lists(st.integers(0, 3), min_size=1, max_size=8), st.data())
def test_any_drag_permutation_gives_the_metric_of_that_order(rels, data):
    r = Ranking.from_fields(rels)
    order = data.draw(st.permutations(list(range(len(rels)))))
    labels = r.labels()
    out = r.drag([labels[i] for i in order], [], cap=40)
    assert ndcg(out.grades()) == ndcg([rels[i] for i in order])


# ---- the fields: links round-trip exactly ------------------------------------------------------------

def test_fields_round_trip_through_the_link_exactly():
    session, query = {}, {"rels": "2.1234567,3", "unretrieved": "0.1", "labels": "A,B", "base": "e", "k": "2",
                          "gain": "exponential", "discount": "jarvelin", "idcg": "list"}
    page = ui_state.PageState("playground", FIELDS, session=session, query=query)
    assert page.problems == []
    assert session["pg_rels"] == "2.1234567, 3" and session["pg_base"] == "e"
    page.finish()
    assert query == {"rels": "2.1234567,3", "unretrieved": "0.1", "labels": "A,B", "gain": "exponential",
                     "discount": "jarvelin", "base": "e", "k": "2", "idcg": "list"}


@given(st.lists(st.floats(0, 1000, allow_nan=False), min_size=1, max_size=6),
       st.lists(st.floats(0, 1000, allow_nan=False), max_size=3), st.sampled_from(["all", 1, 4]),
       st.sampled_from([2.0, 2.718281828459045, 10.0, 1.5, 0.5]))
def test_any_values_survive_a_link_round_trip(rels, unret, k, base):
    session, query = {}, {}
    page = ui_state.PageState("playground", FIELDS, session=session, query=query)
    for key, value in (("pg_rels", tuple(rels)), ("pg_unret", tuple(unret)), ("pg_k", k), ("pg_base", base)):
        page.set(key, value)
    page.finish()
    again = ui_state.PageState("playground", FIELDS, session={}, query=dict(query))
    assert again.problems == []
    assert again.value("pg_rels") == tuple(rels) and again.value("pg_unret") == tuple(unret)
    assert again.value("pg_k") == k and again.value("pg_base") == base
    link = read_playground_query(query)
    assert (link.rels or [3, 2, 1, 3, 2]) and link.problems == []
