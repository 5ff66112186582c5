"""The playground through AppTest (always through app.py): links (every parameter, good and bad, exact
round trip), typing, the table, dragging (set through session state), the move buttons, the document
examples (exact setups, printed numbers beside), exports, languages, big input, page switches."""
from __future__ import annotations

import json

import pandas as pd
import pytest
from numpy import array as np_array

from metrics.lessons.examples import EXAMPLES, printed_totals
from metrics.ndcg import all_variants, cg, dcg, idcg, ndcg
from tests.conftest import html_tables, no_exceptions, open_page
from ui.components.cards import NAME as CARDS_NAME
from ui.numbers import show
from ui.pages import playground

PAGE = "pages/playground.py"


def card_data(at) -> dict:
    """What the numbers-and-cards component was given (ui.components.cards.payload)."""
    (element,) = [e for e in at.get("bidi_component") if e.proto.component_name == CARDS_NAME]
    return json.loads(json.loads(element.proto.json)["payload"])  # one JSON text (see ui.components.cards.cards)


def shown(at) -> dict[str, str]:
    """The four headline numbers as the page shows them, by label (CG, DCG, IDCG, NDCG in English)."""
    return {n["label"]: n["text"] for n in card_data(at)["numbers"].values()}


def notes(at) -> dict[str, str]:
    """The text under each headline number (what the documents print), by label."""
    return {n["label"]: n["printed"] or "" for n in card_data(at)["numbers"].values()}


def numbers(rels, **kw) -> dict[str, str]:
    pool = kw.pop("pool", None)
    opts = {k: v for k, v in kw.items() if k in ("gain",)}
    return {"CG": f"{cg(rels, k=kw.get('k'), **opts):.4f}", "DCG": f"{dcg(rels, **kw):.4f}",
            "IDCG": f"{idcg(rels, **kw, pool=pool):.4f}", "NDCG": f"{ndcg(rels, **kw, pool=pool):.4f}"}


def frame(at, first_column: str) -> pd.DataFrame:
    """The table whose first column is `first_column` (the variant table, the per-position table of the ranking),
    its cells as shown (text)."""
    found = [df for df in html_tables(at) if list(df.columns)[:1] == [first_column]]
    assert found, first_column
    return found[0]  # the per-position tables both start with "Position": the ranking's comes first


def query(at) -> dict[str, str]:
    return {k: at.query_params[k] if isinstance(at.query_params[k], str) else at.query_params[k][-1]
            for k in at.query_params}


def cards(at) -> list[dict]:
    """The two card areas: their titles and cards as ``label · grade``."""
    data = card_data(at)
    return [{"header": data["t"][f"{area}_title"], "items": [f"{label} · {grade}" for label, grade, _ in data[area]]}
            for area in ("ranked", "unretrieved")]


def drop(at, ranked, unretrieved, seq) -> None:
    """What the component sends when a card is dropped."""
    at.session_state[playground.CARDS_KEY] = {"order": {"ranked": ranked, "unretrieved": unretrieved, "seq": seq}}
    at.run()


def warnings(at) -> list[str]:
    return [w.value for w in at.warning]


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def through_app(at) -> None:
    assert [s.key for s in at.sidebar.segmented_control] == ["lang"]  # app.py's sidebar: the page ran inside app.py


# ---- the two links ------------------------------------------------------------------------

def test_document_000_link_jarvelin():
    at = open_page(query={"rels": "3,2,1,3,2", "discount": "jarvelin"})
    no_exceptions(at)
    through_app(at)
    # rel_1 + sum rel_i / log2 i = 3 + 2 + 1/1.585 + 3/2 + 2/2.322 = 7.99; ideal 3,3,2,2,1 -> 8.69
    got = shown(at)
    assert (got["DCG"][:4], got["IDCG"][:4], got["NDCG"][:5]) == ("7.99", "8.69", "0.919")
    assert got == numbers([3, 2, 1, 3, 2], discount="jarvelin")
    assert warnings(at) == []


def test_documents_001_003_link_with_unretrieved_items():
    at = open_page(query={"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6"})
    no_exceptions(at)
    # DCG@6 = 3 + 1.262 + 1.5 + 0 + 0.387 + 0.712 = 6.861; ideal over all judged 3,3,3,2,2,1 -> 8.384
    got = shown(at)
    assert (got["DCG"][:4], got["IDCG"][:4], got["NDCG"][:5]) == ("6.86", "8.38", "0.818")
    assert got == numbers([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    # the substituted formula, three terms per line (a phone's width)
    dcg_tex = at.latex[0].value
    assert "\\frac{3}{\\log_{2}(2)} + \\frac{2}{\\log_{2}(3)} + \\frac{3}{\\log_{2}(4)}" in dcg_tex
    assert "\\quad + \\frac{0}{\\log_{2}(5)}" in dcg_tex
    assert "= 3 + 1.262 + 1.5 + 0 \\\\ &\\quad + 0.387 + 0.712" in dcg_tex and "= 6.861" in dcg_tex
    assert "= 0.818" in at.latex[2].value
    # this is documents 001's and 003's setup: their printed numbers sit beside the exact ones
    assert notes(at)["IDCG"].endswith("001: 8.38 · 003: 8.37")


def test_the_variant_table_matches_all_variants_and_marks_the_choice():
    at = open_page(query={"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6", "gain": "exponential"})
    table = frame(at, "Variant")
    expected = all_variants([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    assert len(table) == 4
    # the chosen variant comes first, marked; its NDCG column too
    assert table.iloc[0, 0].startswith("★ ") and "Exponential" in table.iloc[0, 0]
    assert not any(name.startswith("★") for name in table.iloc[1:, 0])
    assert "NDCG (all judged) ★" in table.columns
    for _, e in expected.iterrows():
        (row,) = [i for i, name in enumerate(table.iloc[:, 0])
                  if (e["gain"].capitalize() in name) and (("Standard" in name) == (e["discount"] == "standard"))]
        col = [c for c in table.columns if c.startswith("NDCG (" + ("list" if e["idcg_source"] == "list" else "all"))]
        assert table.loc[row, col[0]] == show(e["ndcg"])  # display rounding of metrics' value


# ---- every parameter: good ------------------------------------------------------------------------

@pytest.mark.parametrize("query_,expected", [
    ({"rels": "3 2 1 3 2"}, numbers([3, 2, 1, 3, 2])),
    ({"rels": "３，２，１"}, numbers([3, 2, 1])),
    ({"rels": "3,2,1", "gain": "exponential"}, numbers([3, 2, 1], gain="exponential")),
    ({"rels": "3,2,1", "discount": "standard"}, numbers([3, 2, 1])),
    ({"rels": "3,2,1", "k": "2"}, numbers([3, 2, 1], k=2)),
    ({"rels": "3,2,1", "k": "all"}, numbers([3, 2, 1])),
    ({"rels": "3,2,1", "base": "10", "discount": "jarvelin"}, numbers([3, 2, 1], log_base=10, discount="jarvelin")),
    ({"rels": "3,2,1", "base": "e"}, numbers([3, 2, 1], log_base=2.718281828459045)),
    ({"rels": "1,2", "unretrieved": "3"}, numbers([1, 2], pool=[1, 2, 3])),
    ({"rels": "1,2", "unretrieved": "3", "idcg": "list"}, numbers([1, 2])),
    ({"rels": "3,2", "labels": "A,B"}, numbers([3, 2])),
])
def test_good_parameters(query_, expected):
    at = open_page(query=query_)
    no_exceptions(at)
    assert warnings(at) == []
    assert shown(at) == expected


def test_labels_and_settings_reach_the_widgets():
    at = open_page(query={"rels": "3,2", "labels": "Alpha,Beta", "unretrieved": "1", "k": "2",
                          "gain": "exponential", "discount": "jarvelin", "base": "10", "idcg": "list"})
    assert at.text_area(key="pg_rels").value == "3, 2" and at.text_input(key="pg_unret").value == "1"
    assert at.selectbox(key="pg_k").value == 2
    assert at.selectbox(key="pg_gain").value == "exponential"
    assert at.selectbox(key="pg_discount").value == "jarvelin"
    assert at.selectbox(key="pg_base").value == "10"
    assert at.radio(key="pg_idcg").value == "list"
    assert cards(at)[0]["items"] == ["Alpha · 3", "Beta · 2"] and cards(at)[1]["items"] == ["D3 · 1"]
    # The page writes the same state back to the address bar.
    assert query(at) == {"rels": "3,2", "unretrieved": "1", "labels": "Alpha,Beta", "gain": "exponential",
                         "discount": "jarvelin", "base": "10", "k": "2", "idcg": "list"}


def test_link_reproduces_exactly_what_was_typed():
    at = open_page()
    at.text_area(key="pg_rels").input("2.1234567, 3").run()
    no_exceptions(at)
    assert query(at)["rels"] == "2.1234567,3"
    again = open_page(query=query(at))  # a later visitor opens the copied link
    assert again.text_area(key="pg_rels").value == "2.1234567, 3"
    assert shown(again) == shown(at)
    assert "playground?rels=2.1234567,3" in again.code[-1].value  # the copy-link box: the complete address


def test_cutoff_whole_list_is_a_choice_not_zero():
    at = open_page(query={"rels": "3,2,1"})
    select = at.selectbox(key="pg_k")
    assert select.value == "all" and select.options[0] == "Whole list (3)" and "0" not in select.options
    select.set_value(2).run()
    assert query(at)["k"] == "2" and shown(at) == numbers([3, 2, 1], k=2)
    at.selectbox(key="pg_k").set_value("all").run()
    assert "k" not in query(at)


# ---- every parameter: bad -> a warning naming it and its value, the default used, no crash --------------

@pytest.mark.parametrize("name,value", [
    ("rels", "3,x,1"), ("rels", "3,-1"), ("rels", ""), ("rels", "1e999"), ("unretrieved", "3,y"),
    ("k", "0"), ("k", "abc"), ("k", "፩"), ("k", "900719925474100"), ("k", "9" * 4301), ("gain", "cubic"),
    ("discount", "zipf"), ("base", "1"), ("base", "pi"), ("base", "1e400"), ("idcg", "both"), ("rels", "3,5000"),
])
def test_bad_parameter_warns_and_uses_the_default(name, value):
    at = open_page(query={"rels": "3,2,1,3,2", name: value})
    no_exceptions(at)
    msgs = warnings(at)
    assert len(msgs) == 1 and name in msgs[0], msgs
    assert shown(at) == numbers([3, 2, 1, 3, 2] if name != "rels" else [3, 2, 1, 3, 2])
    if value and len(value) < 30:
        assert value.replace("-", "\\-").split(",")[-1][:10] in msgs[0] or value[:5] in msgs[0]
    assert name not in query(at) or name == "rels"  # the bad value leaves the link


def test_bad_parameter_warning_in_chinese():
    at = open_page(query={"rels": "3,2", "gain": "cubic"}, lang="zh")
    (msg,) = warnings(at)
    assert "gain" in msg and "cubic" in msg and "linear" in msg


@pytest.mark.parametrize("value", ["![x](//127.0.0.1:9/a.png)", "[x](//evil.example)", "$\\huge PWN$", "<b>x</b>"])
def test_markdown_in_a_link_is_shown_as_text_not_rendered(value):
    at = open_page(query={"rels": f"3,{value}", "labels": value})
    no_exceptions(at)
    bodies = warnings(at) + errors(at) + [m.value for m in at.markdown] + [c.value for c in at.caption]
    assert not any("![x](" in b or "[x](//" in b or "$\\huge" in b or "<b>" in b for b in bodies), bodies


# ---- typing -------------------------------------------------------------------------------------

def test_typing_updates_everything():
    at = open_page()
    at.text_area(key="pg_rels").input("3\t2\n3，0 1 2").run()
    no_exceptions(at)
    assert shown(at) == numbers([3, 2, 3, 0, 1, 2])
    assert cards(at)[0]["items"] == ["D1 · 3", "D2 · 2", "D3 · 3", "D4 · 0", "D5 · 1", "D6 · 2"]
    assert query(at)["rels"] == "3,2,3,0,1,2"
    assert at.text_area(key="pg_rels").value == "3\t2\n3，0 1 2"  # what was typed stays as typed


def test_bad_text_names_the_token_and_keeps_the_last_valid_ranking():
    at = open_page(query={"rels": "3,2,1"})
    before = shown(at)
    at.text_area(key="pg_rels").input("3 x 1").run()
    no_exceptions(at)
    assert any("“x” at position 2 is not a number" in e for e in errors(at))
    assert shown(at) == before and query(at)["rels"] == "3,2,1"
    assert at.text_area(key="pg_rels").value == "3 x 1"  # the typing is not lost
    at.text_area(key="pg_rels").input("3 -2 1").run()
    assert any("“-2” at position 2 is negative" in e for e in errors(at))
    at.text_area(key="pg_rels").input("3 2000").run()
    assert any("2000" in e and "1000" in e for e in errors(at))
    at.text_area(key="pg_rels").input("3,,2").run()  # a grade left out is not skipped (2 would move up)
    assert any("position 2 is empty" in e for e in errors(at)) and shown(at) == before
    at.text_area(key="pg_rels").input("1 2 3").run()
    assert errors(at) == [] and shown(at) == numbers([1, 2, 3])


def test_unretrieved_text():
    at = open_page(query={"rels": "3,2,3,0,1,2", "k": "6"})
    at.text_input(key="pg_unret").input("3, 0").run()
    assert shown(at) == numbers([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    at.text_input(key="pg_unret").input("3, zero").run()
    assert any("“zero” at position 2" in e for e in errors(at))
    assert query(at)["unretrieved"] == "3,0"


# ---- dragging (the component's value set through session state) --------------------------------------

def test_drag_value_changes_ndcg_and_syncs_text():
    at = open_page(query={"rels": "3,2,1,3,2"})
    drop(at, ["D3", "D1", "D2", "D4"], ["D5"], 1)
    no_exceptions(at)
    assert shown(at) == numbers([1, 3, 2, 3], pool=[1, 3, 2, 3, 2])
    assert at.text_area(key="pg_rels").value == "1, 3, 2, 3"
    assert at.text_input(key="pg_unret").value == "2"
    assert query(at)["labels"] == "D3,D1,D2,D4,D5"
    assert card_data(at)["seq"] == 1  # the component learns the drop was taken: later data is current
    # the same drop again (a rerun for another reason) is not applied twice; a later one is
    at.text_area(key="pg_rels").input("1 3 2 3 1").run()
    assert query(at)["rels"] == "1,3,2,3,1" and card_data(at)["seq"] == 1
    labels = [card.split(" · ")[0] for card in cards(at)[0]["items"]]  # D3, D1, D2, D4 and a new D6
    assert labels == ["D3", "D1", "D2", "D4", "D6"]
    drop(at, ["D4", "D1", "D2", "D3", "D6"], ["D5"], 2)
    assert query(at)["rels"] == "3,3,2,1,1" and card_data(at)["seq"] == 2


def test_drag_cannot_empty_the_list():
    at = open_page(query={"rels": "3,2"})
    drop(at, [], ["D1", "D2"], 1)
    no_exceptions(at)
    assert errors(at) and shown(at) == numbers([3, 2])
    assert card_data(at)["seq"] == 1 and cards(at)[0]["items"] == ["D1 · 3", "D2 · 2"]  # the cards go back


def test_a_drop_sent_before_the_last_one_reached_the_browser():
    # Two quick drops: the browser sends the second with every widget's value, and its grade box may still
    # hold the text from before the first drop.  That text is not typing: the second drop applies, and every
    # item keeps its grade (regrading by position would give D2 grade 3 and D1 grade 2).
    at = open_page(query={"rels": "3,2,1,3,2"})
    drop(at, ["D2", "D1", "D3", "D4", "D5"], [], 1)
    assert at.text_area(key="pg_rels").value == "2, 3, 1, 3, 2"
    at.session_state["pg_rels"] = "3, 2, 1, 3, 2"  # what the lagging browser still shows
    drop(at, ["D2", "D3", "D1", "D4", "D5"], [], 2)
    no_exceptions(at)
    assert query(at)["labels"] == "D2,D3,D1,D4,D5" and query(at)["rels"] == "2,1,3,3,2"
    assert at.text_area(key="pg_rels").value == "2, 1, 3, 3, 2" and shown(at) == numbers([2, 1, 3, 3, 2])
    # the same with the move buttons (two quick clicks)
    at.session_state["pg_rels"] = "2, 3, 1, 3, 2"
    at.selectbox(key="pg_move_item").set_value("D1")
    at.button(key="pg_move_up").click().run()
    assert query(at)["labels"] == "D2,D1,D3,D4,D5" and query(at)["rels"] == "2,3,1,3,2"
    # typing is still typing
    at.text_area(key="pg_rels").input("1 1 1 1 1").run()
    assert query(at)["rels"] == "1,1,1,1,1"


@pytest.mark.parametrize("value", [
    {"order": {"ranked": ["D2"], "unretrieved": [], "seq": 1}},  # stale: not the cards on screen
    {"order": {"ranked": ["D2", "D1", "D9"], "unretrieved": [], "seq": 1}},
    {"order": {"ranked": ["D2", "D2"], "unretrieved": [], "seq": 1}},
    {"order": {"ranked": "D2,D1", "unretrieved": [], "seq": 1}},
    {"order": {"ranked": [2, 1], "unretrieved": [], "seq": 1}},
    {"order": {"ranked": ["D2", "D1"] * 600, "unretrieved": [], "seq": 1}},
])
def test_stale_or_malformed_drops_change_nothing_but_are_seen(value):
    at = open_page(query={"rels": "3,2"})
    at.session_state[playground.CARDS_KEY] = value
    at.run()
    no_exceptions(at)
    assert shown(at) == numbers([3, 2]) and "labels" not in query(at)
    assert card_data(at)["seq"] == 1  # seen: the cards take the server's order again


@pytest.mark.parametrize("value", [None, "x", {"order": None}, {"order": {"ranked": ["D2", "D1"], "seq": True}},
                                   {"order": {"ranked": ["D2", "D1"], "unretrieved": [], "seq": "2"}}])
def test_drops_without_a_sequence_number_are_ignored(value):
    at = open_page(query={"rels": "3,2"})
    at.session_state[playground.CARDS_KEY] = value
    at.run()
    no_exceptions(at)
    assert shown(at) == numbers([3, 2]) and card_data(at)["seq"] == 0


def test_card_data_is_metrics_own_gains_and_discounts():
    # Every item's gain and every position's divisor, as metrics' registry computes them: the browser's
    # numbers are built from these (tests/browser/test_playground_cards.py compares them with metrics/).
    from metrics.registry import resolve_discount, resolve_gain

    at = open_page(query={"rels": "3,2.5,0", "unretrieved": "1", "gain": "map", "gain_map": "0=-1,1=2,2.5=9",
                          "discount": "jarvelin", "base": "3", "k": "2", "idcg": "list", "zero_idcg": "nan"})
    data = card_data(at)
    gain = resolve_gain({0.0: -1.0, 1.0: 2.0, 2.5: 9.0})
    assert [g for _, _, g in data["ranked"] + data["unretrieved"]] == gain.func(np_array([3, 2.5, 0, 1])).tolist()
    assert data["divisors"] == resolve_discount("jarvelin").func(np_array([1, 2, 3, 4]), 3.0).tolist()
    assert (data["k"], data["idcg"], data["zero"], data["seq"]) == (2, "list", None, 0)
    assert [label for label, _, _ in data["ranked"]] == ["D1", "D2", "D3"] and data["ranked"][1][1] == "2.5"


def test_move_buttons():
    at = open_page(query={"rels": "3,2,1"})
    at.selectbox(key="pg_move_item").set_value("D3").run()
    at.button(key="pg_move_up").click().run()
    assert query(at)["labels"] == "D1,D3,D2"
    at.button(key="pg_move_top").click().run()
    assert query(at)["labels"] == "D3,D1,D2" and shown(at) == numbers([1, 3, 2])
    at.button(key="pg_move_toggle").click().run()
    assert query(at)["rels"] == "3,2" and query(at)["unretrieved"] == "1"
    at.button(key="pg_move_down").click().run()  # D3 is not in the list: down moves it within its area
    no_exceptions(at)


def test_table_edit_through_session_state():
    at = open_page(query={"rels": "3,2,1"})
    at.session_state[playground.table_key(at.session_state)] = {
        "edited_rows": {0: {"grade": 0.0}}, "added_rows": [{"label": "new", "grade": 3.0}], "deleted_rows": []}
    at.run()
    no_exceptions(at)
    assert query(at)["rels"] == "0,2,1,3" and query(at)["labels"] == "D1,D2,D3,new"
    assert at.text_area(key="pg_rels").value == "0, 2, 1, 3"
    at.session_state[playground.table_key(at.session_state)] = {"edited_rows": {1: {"grade": -4.0}}}
    at.run()
    assert errors(at) and query(at)["rels"] == "0,2,1,3"


# ---- the documents' examples: exact setups, printed numbers beside the exact ones -------------------------

@pytest.mark.parametrize("group", playground.EXAMPLE_GROUPS, ids=lambda g: "+".join(g))
def test_examples_reproduce_each_document_exactly(group):
    at = open_page(query={"gain": "exponential", "k": "2"})  # settings chosen before are replaced
    at.button(key=f"pg_ex_{group[0]}").click().run()
    no_exceptions(at)
    got, printed = shown(at), notes(at)
    for key in group:
        for quantity, p in printed_totals(EXAMPLES[key]).items():
            label = quantity.upper()
            assert f"{EXAMPLES[key].doc}: {p.text}" in printed[label]  # the document's number, as printed
    # the exact values under the example's own setup (formula followed, k, item set, IDCG source)
    s = playground.example_values(group[0])
    pool = list(s["pg_rels"]) + list(s["pg_unret"]) if s["pg_idcg"] == "judged" else None
    k = None if s["pg_k"] == "all" else s["pg_k"]
    assert got == numbers(list(s["pg_rels"]), k=k, gain=s["pg_gain"], discount=s["pg_discount"],
                          log_base=s["pg_base"], pool=pool)


def test_document_000_example_is_its_jarvelin_formula():
    at = open_page()
    at.button(key="pg_ex_000-graded").click().run()
    got = shown(at)
    assert (got["DCG"], got["IDCG"], got["NDCG"]) == ("7.9923", "8.6925", "0.9194")
    assert notes(at)["NDCG"].endswith("000: 0.91")
    assert at.selectbox(key="pg_discount").value == "jarvelin" and cards(at)[0]["items"][0] == "A · 3"


def test_no_printed_numbers_once_the_setup_changes():
    at = open_page()
    at.button(key="pg_ex_000-graded").click().run()
    at.selectbox(key="pg_discount").set_value("standard").run()
    assert not any(notes(at).values())


# ---- settings, exports ---------------------------------------------------------------------------

def test_controls_change_the_chosen_variant():
    at = open_page(query={"rels": "3,2,3,0,1,2"})
    at.selectbox(key="pg_gain").set_value("exponential").run()
    at.selectbox(key="pg_discount").set_value("jarvelin").run()
    at.selectbox(key="pg_k").set_value(3).run()
    assert shown(at) == numbers([3, 2, 3, 0, 1, 2], gain="exponential", discount="jarvelin", k=3)
    q = query(at)
    assert (q["gain"], q["discount"], q["k"]) == ("exponential", "jarvelin", "3")


def test_linked_base_is_an_option_and_can_be_changed():
    at = open_page(query={"rels": "3,2,1", "base": "3", "discount": "jarvelin"})
    assert at.selectbox(key="pg_base").value == "3"
    assert shown(at) == numbers([3, 2, 1], log_base=3.0, discount="jarvelin")
    at.selectbox(key="pg_base").set_value("e").run()
    no_exceptions(at)
    assert shown(at) == numbers([3, 2, 1], log_base=2.718281828459045, discount="jarvelin")
    assert query(at)["base"] == "e"


def test_downloads_name_their_variant():
    at = open_page(query={"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6"})
    # (file names are built by ui.pages.playground.export.file_name, tested in tests/ui; the browser test downloads one)
    assert [b.proto.label for b in at.get("download_button")] == ["CSV", "Markdown", "LaTeX"]
    at.toggle(key="pg_show_export").set_value(True).run()
    md = at.code[0].value
    assert md.startswith("**NDCG breakdown — Linear gain · Standard discount · all judged items · log base 2 · k = 6**")
    assert "DCG (running)" in md and "\\(" not in md
    assert "\\caption{NDCG breakdown" in at.code[1].value


# ---- languages, page switches, safety, size ----------------------------------------------------------

@pytest.mark.parametrize("lang,ndcg_label", [("zh", "NDCG（归一化 DCG）"), ("ko", "NDCG (정규화 DCG)")])
def test_languages(lang, ndcg_label):
    at = open_page(lang=lang, query={"rels": "3,2,1,3,2", "discount": "jarvelin"})
    no_exceptions(at)
    assert shown(at)[ndcg_label] == numbers([3, 2, 1, 3, 2], discount="jarvelin")["NDCG"]


def test_language_switch_keeps_the_ranking():
    at = open_page(query={"rels": "3,2,1"})
    at.text_area(key="pg_rels").input("2 2 2").run()
    at.session_state["lang"] = "ko"
    at.run()
    no_exceptions(at)
    assert query(at)["rels"] == "2,2,2" and query(at)["lang"] == "ko"
    assert cards(at)[1]["header"] == "검색되지 않음"
    assert card_data(at)["t"]["preview"] == "여기에 놓으면: {where}. NDCG {ndcg}."


def test_ranking_survives_a_page_switch():
    at = open_page(query={"rels": "3,2,1"})
    at.text_area(key="pg_rels").input("1 1 3").run()
    at.selectbox(key="pg_gain").set_value("exponential").run()
    at.switch_page("pages/worked_examples.py").run()
    for key in list(at.query_params):  # as a browser does on a page switch
        del at.query_params[key]
    at.switch_page(PAGE).run()
    no_exceptions(at)
    through_app(at)
    assert at.text_area(key="pg_rels").value == "1 1 3"
    assert at.selectbox(key="pg_gain").value == "exponential"
    assert query(at)["rels"] == "1,1,3"


def test_user_text_is_never_html():
    at = open_page(query={"rels": "3,2", "labels": "<img src=x onerror=alert(1)>,**bold**"})
    no_exceptions(at)
    for el in list(at.markdown) + list(at.caption) + list(at.warning) + list(at.info):
        assert "<img" not in el.value and "**bold**" not in el.value
        assert not getattr(el.proto, "allow_html", False)
    assert cards(at)[0]["items"][0] == "<img src=x onerror=alert(1)> · 3"


def test_big_input_is_capped_but_exact():
    rels = [(i * 7) % 4 for i in range(5000)]
    at = open_page(query={"rels": ",".join(map(str, rels)), "k": "4000"}, timeout=120)
    no_exceptions(at)
    assert shown(at) == numbers(rels, k=4000)
    assert len(cards(at)[0]["items"]) == playground.CARD_CAP
    infos = " ".join(i.value for i in at.info)
    assert str(playground.CARD_CAP) in infos and "5000" in infos
    assert len(frame(at, "Position")) == playground.TABLE_CAP  # the per-position table
    # Typing into a big list keeps every grade.
    at.text_area(key="pg_rels").input(" ".join(map(str, rels + [3]))).run()
    assert shown(at)["CG"] == f"{sum(rels[:4000]):.4f}"
    # 5001 grades do not fit in an address bar: the page says so instead of a cut link
    assert "rels" not in query(at)
    assert any(i.value == "This view holds too much to fit in a link; the address bar keeps the page without it."
               for i in at.info)


@pytest.mark.parametrize("lang", ["zh", "ko"])
def test_playground_then_another_page_in_another_language(lang):
    # The gain/discount selects bind their translated names when drawn; a lazy format_func would be
    # re-evaluated in English by AppTest and fail with "'Standard discount' is not in list".
    at = open_page(lang=lang)
    at.switch_page("pages/variants.py").run()
    no_exceptions(at)
    at.switch_page("pages/playground.py").run()
    no_exceptions(at)
    through_app(at)


# ---- gain map (trec_eval's -m ndcg.L=G) and the zero-IDCG policy -----------------------------------

def test_gain_map_from_the_link_and_typed():
    # grades 3,2,0,1 with the map 0=0,1=1,2=3,3=7 (2^rel - 1 written out) equal the exponential gain
    at = open_page(query={"rels": "3,2,0,1", "gain": "map", "gain_map": "0=0,1=1,2=3,3=7"})
    no_exceptions(at)
    assert shown(at) == numbers([3, 2, 0, 1], gain="exponential")
    table = frame(at, "Variant")
    assert len(table) == 6 and table.iloc[0, 0].startswith("★ Gain map")
    # a map that does not keep the grades' order: grade 2 gains 9, grade 3 gains 4.5 -> the ideal puts 2 first
    at.text_input(key="pg_gain_map").input("-m ndcg.2=9, 3=4.5").run()
    no_exceptions(at)
    gains = {2.0: 9.0, 3.0: 4.5}
    assert shown(at)["NDCG"] == f"{ndcg([3, 2, 0, 1], gain=gains):.4f}"
    assert query(at)["gain_map"] == "2=9,3=4.5"
    # a bad map: named, the last valid one kept
    at.text_input(key="pg_gain_map").input("2=9, 3=x").run()
    assert any("3=x" in e for e in errors(at)) and query(at)["gain_map"] == "2=9,3=4.5"


def test_bad_gain_map_in_a_link_warns():
    at = open_page(query={"rels": "3,2", "gain": "map", "gain_map": "2=9,2=3"})
    no_exceptions(at)
    (msg,) = warnings(at)
    assert "gain\\_map" in msg and "2=9,2=3" in msg  # the parameter (escaped for Markdown) and its value
    assert shown(at) == numbers([3, 2], gain="exponential")  # the default map is 2^rel - 1 for 0..3


@pytest.mark.parametrize("policy, shown_ndcg", [("zero", "0.0000"), ("one", "1.0000"), ("nan", "–")])
def test_zero_idcg_policy(policy, shown_ndcg):
    # nothing relevant: IDCG = 0, NDCG is what the policy says (0, 1 or undefined)
    at = open_page(query={"rels": "0,0,0", "zero_idcg": policy})
    no_exceptions(at)
    assert shown(at)["IDCG"] == "0.0000" and shown(at)["NDCG"] == shown_ndcg
    assert query(at).get("zero_idcg", "zero") == policy
