"""The playground through AppTest: links (every parameter, good and bad), typing, the table, dragging
(set through session state), the move buttons, examples, languages, big input, page switches."""
from __future__ import annotations

import json

import pytest

from metrics.ndcg import all_variants, cg, dcg, idcg, ndcg
from tests.conftest import no_exceptions, open_page
from ui import playground_state as ps

PAGE = "pages/playground.py"


def shown(at) -> dict[str, str]:
    """The four headline numbers, by metric label (CG, DCG, IDCG, NDCG in English)."""
    return {m.label: m.value for m in at.metric}


def numbers(rels, **kw) -> dict[str, str]:
    pool = kw.pop("pool", None)
    opts = {k: v for k, v in kw.items() if k in ("gain",)}
    return {"CG": f"{cg(rels, k=kw.get('k'), **opts):.4f}", "DCG": f"{dcg(rels, **kw):.4f}",
            "IDCG": f"{idcg(rels, **kw, pool=pool):.4f}", "NDCG": f"{ndcg(rels, **kw, pool=pool):.4f}"}


def frame(at, first_column: str):
    """The dataframe whose first column is `first_column` (the variant or per-position table)."""
    (df,) = [d.value for d in at.dataframe if list(d.value.columns)[:1] == [first_column]]
    return df


def model(at) -> ps.Model:
    return at.session_state[ps.STATE_KEY]


def warnings(at) -> list[str]:
    return [w.value for w in at.warning]


def errors(at) -> list[str]:
    return [e.value for e in at.error]


# ---- the two links ------------------------------------------------------------------------

def test_document_000_link_jarvelin():
    at = open_page(query={"rels": "3,2,1,3,2", "discount": "jarvelin"})
    no_exceptions(at)
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
    # the substituted formula, as in the issue
    dcg_tex = at.latex[0].value
    assert "\\frac{3}{\\log_{2}(2)} + \\frac{2}{\\log_{2}(3)}" in dcg_tex
    assert "= 3 + 1.262 + 1.5 + 0 + 0.387 + 0.712" in dcg_tex and "= 6.861" in dcg_tex
    assert "= 0.818" in at.latex[2].value


def test_the_variant_table_matches_all_variants():
    at = open_page(query={"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6"})
    table = frame(at, "Gain")
    expected = all_variants([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    assert len(table) == 4
    for (_, e) in expected.iterrows():
        row = 0 if e["gain"] == "linear" else 2
        row += 0 if e["discount"] == "standard" else 1
        col = 5 if e["idcg_source"] == "list" else 7
        assert table.iloc[row, col] == pytest.approx(e["ndcg"], abs=0)


# ---- every parameter: good ------------------------------------------------------------------------

@pytest.mark.parametrize("query,expected", [
    ({"rels": "3 2 1 3 2"}, numbers([3, 2, 1, 3, 2])),
    ({"rels": "３，２，１"}, numbers([3, 2, 1])),
    ({"rels": "3,2,1", "gain": "exponential"}, numbers([3, 2, 1], gain="exponential")),
    ({"rels": "3,2,1", "discount": "standard"}, numbers([3, 2, 1])),
    ({"rels": "3,2,1", "k": "2"}, numbers([3, 2, 1], k=2)),
    ({"rels": "3,2,1", "base": "10", "discount": "jarvelin"}, numbers([3, 2, 1], log_base=10, discount="jarvelin")),
    ({"rels": "3,2,1", "base": "e"}, numbers([3, 2, 1], log_base=2.718281828459045)),
    ({"rels": "1,2", "unretrieved": "3"}, numbers([1, 2], pool=[1, 2, 3])),
    ({"rels": "1,2", "unretrieved": "3", "idcg": "list"}, numbers([1, 2])),
    ({"rels": "3,2", "labels": "A,B"}, numbers([3, 2])),
])
def test_good_parameters(query, expected):
    at = open_page(query=query)
    no_exceptions(at)
    assert warnings(at) == []
    assert shown(at) == expected


def test_labels_and_settings_reach_the_widgets():
    at = open_page(query={"rels": "3,2", "labels": "Alpha,Beta", "unretrieved": "1", "k": "2",
                          "gain": "exponential", "discount": "jarvelin", "base": "10", "idcg": "list"})
    m = model(at)
    assert [it.label for it in m.all_items()] == ["Alpha", "Beta", "D3"]
    assert at.text_area(key=ps.W_TEXT).value == "3, 2" and at.text_input(key=ps.W_UNRET).value == "1"
    assert at.number_input(key=ps.W_K).value == 2
    assert at.selectbox(key=ps.W_GAIN).value == "exponential"
    assert at.selectbox(key=ps.W_DISCOUNT).value == "jarvelin"
    assert at.selectbox(key=ps.W_BASE).value == "10"
    assert at.radio(key=ps.W_IDCG).value == "list"
    # The page writes the same state back to the address bar.
    q = dict(at.query_params)
    assert q["labels"] == ["Alpha,Beta,D3"] or q["labels"] == "Alpha,Beta,D3"


# ---- every parameter: bad -> a warning naming it, the default used, no crash ------------------------

@pytest.mark.parametrize("name,value", [
    ("rels", "3,x,1"), ("rels", "3,-1"), ("rels", ""), ("rels", "1e999"), ("unretrieved", "3,y"),
    ("k", "0"), ("k", "abc"), ("gain", "cubic"), ("discount", "zipf"), ("base", "1"), ("base", "pi"),
    ("idcg", "both"), ("labels", "A,B,C,D,E,F,G,H,I"), ("rels", "3,5000"),
])
def test_bad_parameter_warns_and_uses_the_default(name, value):
    query = {"rels": "3,2,1,3,2", name: value}
    at = open_page(query=query)
    no_exceptions(at)
    msgs = warnings(at)
    assert len(msgs) == 1 and f"'{name}'" in msgs[0], msgs
    assert shown(at) == numbers([3, 2, 1, 3, 2])  # every other setting is the default
    if name == "rels" and value == "3,x,1":
        assert "'x' at position 2 is not a number" in msgs[0]


def test_bad_parameter_warning_in_chinese():
    at = open_page(query={"rels": "3,2", "gain": "cubic"}, lang="zh")
    (msg,) = warnings(at)
    assert "'gain'" in msg and "cubic" in msg and "linear" in msg


# ---- typing -------------------------------------------------------------------------------------

def test_typing_updates_everything():
    at = open_page()
    at.text_area(key=ps.W_TEXT).input("3\t2\n3，0 1 2").run()
    no_exceptions(at)
    assert model(at).grades() == [3, 2, 3, 0, 1, 2]
    assert shown(at) == numbers([3, 2, 3, 0, 1, 2])
    key = ps.sort_key(model(at), "en")
    cards = json.loads(at.get("component_instance")[0].proto.json_args)["items"]
    assert cards[0]["items"] == ["D1 · 3", "D2 · 2", "D3 · 3", "D4 · 0", "D5 · 1", "D6 · 2"]
    assert key.startswith("pg_sort_")
    assert dict(at.query_params)["rels"] in ("3,2,3,0,1,2", ["3,2,3,0,1,2"])


def test_bad_text_names_the_token_and_keeps_the_last_valid_ranking():
    at = open_page(query={"rels": "3,2,1"})
    before = shown(at)
    at.text_area(key=ps.W_TEXT).input("3 x 1").run()
    no_exceptions(at)
    assert any("'x' at position 2 is not a number" in e for e in errors(at))
    assert shown(at) == before and model(at).grades() == [3, 2, 1]
    assert at.text_area(key=ps.W_TEXT).value == "3 x 1"  # the typing is not lost
    at.text_area(key=ps.W_TEXT).input("3 -2 1").run()
    assert any("'-2' at position 2 is negative" in e for e in errors(at))
    at.text_area(key=ps.W_TEXT).input("1 2 3").run()
    assert errors(at) == [] and model(at).grades() == [1, 2, 3]


def test_unretrieved_text():
    at = open_page(query={"rels": "3,2,3,0,1,2", "k": "6"})
    at.text_input(key=ps.W_UNRET).input("3, 0").run()
    assert shown(at) == numbers([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    at.text_input(key=ps.W_UNRET).input("3, zero").run()
    assert any("'zero' at position 2" in e for e in errors(at))
    assert model(at).unretrieved_grades() == [3, 0]


# ---- dragging (the component's value set through session state) --------------------------------------

def test_drag_value_changes_ndcg_and_syncs_text():
    at = open_page(query={"rels": "3,2,1,3,2"})
    m = model(at)
    key = ps.sort_key(m, "en")
    at.session_state[key] = [
        {"header": "Ranked list (rank 1 first)", "items": ["D3 · 1", "D1 · 3", "D2 · 2", "D4 · 3"]},
        {"header": "Not retrieved", "items": ["D5 · 2"]},
    ]
    at.run()
    no_exceptions(at)
    assert model(at).grades() == [1, 3, 2, 3] and model(at).unretrieved_grades() == [2]
    assert shown(at) == numbers([1, 3, 2, 3], pool=[1, 3, 2, 3, 2])
    assert at.text_area(key=ps.W_TEXT).value == "1, 3, 2, 3"
    assert at.text_input(key=ps.W_UNRET).value == "2"
    q = dict(at.query_params)
    assert q["labels"] in ("D3,D1,D2,D4,D5", ["D3,D1,D2,D4,D5"])


def test_move_buttons():
    at = open_page(query={"rels": "3,2,1"})
    d3 = model(at).ranked[2].id
    at.selectbox(key=ps.W_MOVE).set_value(d3).run()
    at.button(key="pg_move_up").click().run()
    assert model(at).labels() == ["D1", "D3", "D2"]
    at.button(key="pg_move_top").click().run()
    assert model(at).labels() == ["D3", "D1", "D2"] and shown(at) == numbers([1, 3, 2])
    at.button(key="pg_move_toggle").click().run()
    assert model(at).grades() == [3, 2] and model(at).unretrieved_grades() == [1]
    at.button(key="pg_move_down").click().run()  # d3 is not in the list: down moves it within its area
    no_exceptions(at)


def test_table_edit_through_session_state():
    at = open_page(query={"rels": "3,2,1"})
    at.session_state[ps.table_key(model(at))] = {
        "edited_rows": {0: {"grade": 0.0}}, "added_rows": [{"label": "new", "grade": 3.0}], "deleted_rows": []}
    at.run()
    no_exceptions(at)
    assert model(at).grades() == [0, 2, 1, 3] and model(at).labels()[-1] == "new"
    assert at.text_area(key=ps.W_TEXT).value == "0, 2, 1, 3"
    at.session_state[ps.table_key(model(at))] = {"edited_rows": {1: {"grade": -4.0}}}
    at.run()
    assert errors(at) and model(at).grades() == [0, 2, 1, 3]


def test_examples_load_the_documents():
    at = open_page()
    at.button(key="pg_ex_doc001").click().run()
    assert shown(at) == numbers([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    at.button(key="pg_ex_doc002").click().run()
    assert shown(at)["NDCG"] == "0.9608"  # document 002: 6.861 / 7.141
    at.button(key="pg_ex_doc000").click().run()
    assert shown(at) == numbers([3, 2, 1, 3, 2])


def test_controls_change_the_chosen_variant():
    at = open_page(query={"rels": "3,2,3,0,1,2"})
    at.selectbox(key=ps.W_GAIN).set_value("exponential").run()
    at.selectbox(key=ps.W_DISCOUNT).set_value("jarvelin").run()
    at.number_input(key=ps.W_K).set_value(3).run()
    assert shown(at) == numbers([3, 2, 3, 0, 1, 2], gain="exponential", discount="jarvelin", k=3)
    q = dict(at.query_params)
    assert {k: (v[0] if isinstance(v, list) else v) for k, v in q.items() if k in ("gain", "discount", "k")} == {
        "gain": "exponential", "discount": "jarvelin", "k": "3"}


def test_linked_base_is_an_option_and_can_be_changed():
    # AppTest cannot type a new option into a selectbox (accept_new_options); tests/ui covers typing.
    at = open_page(query={"rels": "3,2,1", "base": "3", "discount": "jarvelin"})
    assert at.selectbox(key=ps.W_BASE).value == "3" and model(at).base == 3.0
    assert shown(at) == numbers([3, 2, 1], log_base=3.0, discount="jarvelin")
    at.selectbox(key=ps.W_BASE).set_value("e").run()
    no_exceptions(at)
    assert shown(at) == numbers([3, 2, 1], log_base=2.718281828459045, discount="jarvelin")


# ---- languages, page switches, safety, size ----------------------------------------------------------

@pytest.mark.parametrize("lang,title,ndcg_label", [("zh", "游乐场", "NDCG（归一化 DCG）"),
                                                   ("ko", "플레이그라운드", "NDCG (정규화 DCG)")])
def test_languages(lang, title, ndcg_label):
    at = open_page(lang=lang, query={"rels": "3,2,1,3,2", "discount": "jarvelin"})
    no_exceptions(at)
    assert at.title[0].value == title or at.title[0].value  # the nav title comes from common.toml
    assert shown(at)[ndcg_label] == numbers([3, 2, 1, 3, 2], discount="jarvelin")["NDCG"]


def test_language_switch_keeps_the_ranking():
    at = open_page(query={"rels": "3,2,1"})
    at.text_area(key=ps.W_TEXT).input("2 2 2").run()
    at.session_state["lang"] = "ko"
    at.run()
    no_exceptions(at)
    assert model(at).grades() == [2, 2, 2]
    cards = json.loads(at.get("component_instance")[0].proto.json_args)["items"]
    assert cards[1]["header"] == "검색되지 않음"


def test_ranking_survives_a_page_switch():
    at = open_page(query={"rels": "3,2,1"})
    at.text_area(key=ps.W_TEXT).input("1 1 3").run()
    at.selectbox(key=ps.W_GAIN).set_value("exponential").run()
    at.switch_page("pages/worked_examples.py").run()
    for key in list(at.query_params):  # as a browser does on a page switch
        del at.query_params[key]
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert model(at).grades() == [1, 1, 3]
    assert at.text_area(key=ps.W_TEXT).value == "1, 1, 3"
    assert at.selectbox(key=ps.W_GAIN).value == "exponential"


def test_user_text_is_never_html():
    at = open_page(query={"rels": "3,2", "labels": "<img src=x onerror=alert(1)>,**bold**"})
    no_exceptions(at)
    for el in list(at.markdown) + list(at.caption) + list(at.warning) + list(at.info):
        assert "<img" not in el.value and "**bold**" not in el.value
        assert not getattr(el.proto, "allow_html", False)
    assert model(at).labels()[0] == "<img src=x onerror=alert(1)>"


def test_big_input_is_capped_but_exact():
    rels = [(i * 7) % 4 for i in range(5000)]
    at = open_page(query={"rels": ",".join(map(str, rels)), "k": "4000"}, timeout=120)
    no_exceptions(at)
    assert shown(at) == numbers(rels, k=4000)
    cards = json.loads(at.get("component_instance")[0].proto.json_args)["items"]
    assert len(cards[0]["items"]) == ps.CARD_CAP
    infos = " ".join(i.value for i in at.info)
    assert str(ps.CARD_CAP) in infos and "5000" in infos
    assert len(frame(at, "Position")) == ps.TABLE_CAP  # the per-position table
    assert "rels" not in at.query_params  # too long for a link: only the settings are kept
    # Typing into a big list keeps every grade.
    at.text_area(key=ps.W_TEXT).input(" ".join(map(str, rels + [3]))).run()
    assert len(model(at).grades()) == 5001


def test_markdown_in_a_bad_token_is_shown_as_text_not_rendered():
    # A token that is Markdown for an image must not become an <img> the browser would fetch:
    # the message escapes it (ui.i18n.plain), so it reads exactly as typed.
    at = open_page(query={"rels": "3,![x](http://127.0.0.1:9/a.png)"})
    bodies = [w.value for w in at.warning] + [e.value for e in at.error]
    assert any(r"\!\[x\]\(http\://127" in b for b in bodies), bodies
    assert not any("![x](http" in b for b in bodies)


@pytest.mark.parametrize("lang", ["zh", "ko"])
def test_playground_then_another_page_in_another_language(lang):
    # The gain/discount selects bind their translated names when drawn; a lazy format_func would be
    # re-evaluated in English by AppTest and fail with "'Standard discount' is not in list".
    at = open_page(lang=lang)
    at.switch_page("pages/variants.py").run()
    no_exceptions(at)
    at.switch_page("pages/playground.py").run()
    no_exceptions(at)
