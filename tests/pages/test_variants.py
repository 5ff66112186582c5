"""Variants page (AppTest) in every language: formulas, curves, library table, ties, winner flips."""
from __future__ import annotations

import json

import pytest

from metrics.lessons.libraries import LIBRARIES, evaluate_libraries
from tests.conftest import LANGS, no_exceptions, open_page
from ui.i18n import t

PAGE = "pages/variants.py"


def charts(at):
    return at.get("vega_lite_chart") + at.get("arrow_vega_lite_chart")


def ndcg_column(at) -> list[str]:
    table = at.dataframe[0].value
    return list(table[t("variants.col.ndcg", lang=at.session_state["lang"])])


def frame_text(at) -> str:
    return " ".join(df.value.to_string() for df in at.dataframe)


@pytest.fixture(scope="module", params=LANGS)
def page(request):
    return request.param, open_page(PAGE, lang=request.param)


def test_renders_in_every_language(page):
    lang, at = page
    no_exceptions(at)
    assert not at.error
    assert at.title[0].value == t("common.nav.variants", lang=lang)
    # 3 gains x 2 discounts + document 004's code + one formula per library
    assert len(at.latex) == 6 + 1 + len(LIBRARIES)
    assert len(charts(at)) == 2  # discount curves, tie spread


def test_library_table_values_come_from_metrics(page):
    _, at = page
    table = at.dataframe[0].value
    assert len(table) == len(LIBRARIES)
    # default typed ranking: 3,2,3,0,1,2 with unretrieved 3,0 and k = 6
    expected = evaluate_libraries([3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6)
    assert ndcg_column(at) == [f"{x:.4f}" for x in expected["ndcg"]]
    assert "0.9608" in table.to_string() and "0.8184" in table.to_string()


def test_curves_and_coincidences_text(page):
    lang, at = page
    spec = json.loads(charts(at)[0].proto.spec)
    assert "weight" in json.dumps(spec["encoding"]["y"])
    text = " ".join(m.value for m in at.markdown)
    assert t("variants.coincide", lang=lang, base="2", same="1", equal="1, 2") in text


def test_document_004_winner_flips(page):
    lang, at = page
    assert frame_text(at).count(t("variants.winner.a", lang=lang)) >= 1
    assert len(at.success) == 1  # "the winner depends on the choice"
    text = " ".join(m.value for m in at.markdown)
    assert t("variants.wins", lang=lang, a=7, b=18, tie=0) in text


def test_ties_table_has_every_rule(page):
    lang, at = page
    text = frame_text(at)
    from metrics.registry import TIES
    from ui.i18n import catalogue

    for key in ("average", "optimistic", "pessimistic", "trec_eval", "stable"):
        name = TIES[key].name if lang == "en" else catalogue(lang)[f"registry.ties.{key}.name"]
        assert name in text


def test_reads_the_playground_ranking_from_session_state():
    from ui.playground_state import STATE_KEY, Model, build

    ranked, unretrieved, next_id = build([0, 3], [2])
    model = Model(ranked=ranked, unretrieved=unretrieved, k=None, next_id=next_id)
    at = open_page(PAGE, state={STATE_KEY: model})
    no_exceptions(at)
    assert at.radio[0].value == "playground"
    expected = evaluate_libraries([0, 3], unretrieved=[2])
    assert list(ndcg_column(at)) == [f"{x:.4f}" for x in expected["ndcg"]]


def test_bad_input_keeps_last_valid_and_names_token():
    at = open_page(PAGE)
    at.text_area(key="va_grades").set_value("3, x, 1").run()
    no_exceptions(at)
    assert any("'x'" in e.value and "2" in e.value for e in at.error)
    # the table still shows the last valid ranking
    assert "0.9608" in at.dataframe[0].value.to_string()
    at.text_input(key="va_scores").set_value("1, 2").run()
    assert any("2" in w.value for w in at.warning)  # 2 scores for 6 items: ignored with a warning
    at.text_area(key="va_pool").set_value("1").run()
    no_exceptions(at)
    assert any(t("variants.pool_bad", message="")[:20] in e.value for e in at.error)


def test_scores_with_ties_change_the_library_values():
    at = open_page(PAGE)
    at.text_input(key="va_scores").set_value("1, 1, 0.5, 0.5, 0.5, 0.1").run()
    at.text_input(key="va_docnos").set_value("a, b, c, d, e, f").run()
    no_exceptions(at)
    expected = evaluate_libraries([3, 2, 3, 0, 1, 2], scores=[1, 1, 0.5, 0.5, 0.5, 0.1],
                                  docnos=list("abcdef"), unretrieved=[3, 0], k=6)
    assert list(ndcg_column(at)) == [f"{x:.4f}" for x in expected["ndcg"]]
