"""AppTest: the rating-prediction page in three languages, bad input, bad and good links."""
from __future__ import annotations

import math

import pytest

from metrics.other.rating import error_sweep, mae, rmse, totals
from metrics.parse import parse_numbers
from tests.conftest import LANGS, fmt, latex, no_exceptions, open_page, texts
from ui.i18n import t

PAGE = "pages/rating.py"


@pytest.mark.parametrize("lang", LANGS)
def test_default_page_every_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exceptions(at)
    assert not at.error and not at.warning
    assert at.title[0].value == t("rating.title", lang=lang)
    true, pred = parse_numbers(at.session_state["rating_true"]), parse_numbers(at.session_state["rating_pred"])
    tot = totals(true, pred)
    assert [m.value for m in at.metric] == [fmt(rmse(true, pred)), fmt(mae(true, pred))]
    body = latex(at)
    assert f"\\sqrt{{\\frac{{{fmt(tot['sum_squared'])}}}{{{tot['n']}}}}} = {fmt(tot['rmse'])}" in body
    assert f"\\frac{{{fmt(tot['sum_abs'])}}}{{{tot['n']}}} = {fmt(tot['mae'])}" in body
    table = at.dataframe[0].value
    assert len(table) == len(true)
    assert len(at.get("vega_lite_chart")) == 3
    assert all("tooltip" in c.proto.spec for c in at.get("vega_lite_chart"))
    # the what-if pair defaults to the largest error; the note quotes the sweep's ends
    pair = at.number_input(key="rating_pair").value
    errs = [abs(a - b) for a, b in zip(true, pred)]
    assert errs[pair - 1] == max(errs)


def test_by_hand_numbers_appear():
    # errors 1 and 3: MAE = 2, RMSE = sqrt((1 + 9) / 2) = sqrt(5)
    at = open_page(PAGE, query={"true": "1,1", "pred": "2,4"})
    no_exceptions(at)
    assert [m.value for m in at.metric] == [fmt(math.sqrt(5)), "2"]


@pytest.mark.parametrize("lang", LANGS)
def test_unequal_lengths_keep_last_valid(lang):
    at = open_page(PAGE, lang=lang)
    before = [m.value for m in at.metric]
    at.text_area(key="rating_pred").input("1 2 3").run()
    no_exceptions(at)
    assert texts(at, "error") == [t("rating.unequal", lang=lang, true=5, pred=3)]
    assert t("common.kept_last_valid", lang=lang) in texts(at, "caption")
    assert [m.value for m in at.metric] == before


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key, text, where, token, position", [
    ("rating_true", "5 4 x 2 1", "rating.in_true", "x", 3),
    ("rating_pred", "4,4,4,4,four", "rating.in_pred", "four", 5),
])
def test_bad_token_named(lang, key, text, where, token, position):
    at = open_page(PAGE, lang=lang)
    at.text_area(key=key).input(text).run()
    no_exceptions(at)
    assert texts(at, "error") == [t(where, lang=lang,
                                    message=t("common.not_a_number", lang=lang, token=token, position=position))]


def test_empty_input_message():
    at = open_page(PAGE)
    at.text_area(key="rating_true").input("  ").run()
    no_exceptions(at)
    assert len(at.error) == 1 and at.error[0].value.startswith("True ratings:")


def test_sweep_pair_changes_and_is_in_link():
    at = open_page(PAGE)
    at.number_input(key="rating_pair").set_value(1).run()
    no_exceptions(at)
    assert at.query_params["pair"] == "1"
    true, pred = parse_numbers(at.session_state["rating_true"]), parse_numbers(at.session_state["rating_pred"])
    span = max(4.0, 2 * max(abs(a - b) for a, b in zip(true, pred)))
    sweep = error_sweep(true, pred, pair=1, extra=[0, span])
    note = t("rating.sweep_note", lang="en", pair=1, extra=fmt(span), rmse0=fmt(sweep["rmse"][0]),
             rmse1=fmt(sweep["rmse"][1]), mae0=fmt(sweep["mae"][0]), mae1=fmt(sweep["mae"][1]))
    assert note in texts(at, "caption")


def test_link_parameters_are_read():
    at = open_page(PAGE, query={"true": "3,3,3", "pred": "2,3,5", "pair": "2"})
    no_exceptions(at)
    assert not at.warning
    assert at.number_input(key="rating_pair").value == 2
    assert [m.value for m in at.metric] == [fmt(rmse([3, 3, 3], [2, 3, 5])), fmt(mae([3, 3, 3], [2, 3, 5]))]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("pair", ["0", "x", "99"])
def test_bad_pair_in_link(lang, pair):
    at = open_page(PAGE, lang=lang, query={"pair": pair})
    no_exceptions(at)
    assert texts(at, "warning") == [t("common.bad_param", lang=lang, name="pair",
                                      reason=t("rating.bad_pair_reason", lang=lang))]


def test_bad_ratings_in_link():
    at = open_page(PAGE, query={"true": "1,2", "pred": "1"})
    no_exceptions(at)
    assert texts(at, "error") == [t("rating.unequal", lang="en", true=2, pred=1)]
    assert len(at.metric) == 2  # the default data is shown meanwhile
