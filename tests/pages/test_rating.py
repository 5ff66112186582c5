"""AppTest through app.py: the rating-prediction page in three languages, bad input, links, state kept."""
from __future__ import annotations

import math

import pytest

from metrics.other.rating import error_sweep, mae, rmse, totals
from tests.conftest import LANGS, latex, no_exceptions, one_language_each, open_page, texts
from ui.escape import markdown
from ui.i18n import t
from ui.numbers import show_trimmed as num
from ui.pages.rating import DEFAULT_PRED, DEFAULT_TRUE, MAX_PAIRS

PAGE = "pages/rating.py"


def bad(lang: str, name: str, value: str, reason: str, **fmt) -> str:
    """The message ui.state shows for a bad value: parameter, value (escaped, shortened), what is allowed."""
    fmt = {k: markdown(v, 40) if isinstance(v, str) else v for k, v in fmt.items()}
    return t("state.bad_value", lang=lang, name=markdown(name, 40), value=markdown(value, 40),
             reason=t(reason, lang=lang, **fmt))


def metrics_shown(at) -> list[str]:
    return [m.value for m in at.metric]


@pytest.mark.parametrize("lang", LANGS)
def test_default_page_every_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exceptions(at)
    assert not at.error and not at.warning
    assert at.title[0].value == t("rating.title", lang=lang)
    assert at.text_area(key="rating_true").value == "5, 3, 4, 2, 1"
    # errors 0.5, -0.5, 0, -2, 0: squares 0.25 + 0.25 + 0 + 4 + 0 = 4.5, RMSE = sqrt(4.5 / 5) = 0.9487;
    # sizes 0.5 + 0.5 + 0 + 2 + 0 = 3, MAE = 3 / 5 = 0.6
    assert metrics_shown(at) == ["0.9487", "0.6"]
    body = latex(at)
    # the sums wrap after three terms (a phone's width)
    assert "(r - \\hat{r})^2 &= 0.25 + 0.25 + 0 \\\\ &\\quad + 4 + 0 = 4.5" in body
    assert "\\mathrm{RMSE} &= \\sqrt{\\frac{4.5}{5}} = 0.9487" in body
    assert "|r - \\hat{r}| &= 0.5 + 0.5 + 0 \\\\ &\\quad + 2 + 0 = 3" in body
    assert "\\mathrm{MAE} &= \\frac{3}{5} = 0.6" in body
    assert len(at.dataframe[0].value) == 5
    charts = at.get("vega_lite_chart")
    assert len(charts) == 3 and all("tooltip" in c.proto.spec for c in charts)
    # the what-if pair defaults to the largest error (pair 4, error 2)
    assert at.number_input(key="rating_pair").value == 4


def test_by_hand_numbers_appear():
    # errors 1 and 3: MAE = 2, RMSE = sqrt((1 + 9) / 2) = sqrt(5)
    at = open_page(PAGE, query={"true": "1,1", "pred": "2,4"})
    no_exceptions(at)
    assert metrics_shown(at) == [num(math.sqrt(5)), "2"]


def test_huge_ratings_no_overflow():
    # /rating?true=1e200&pred=0 showed RMSE inf: the error 1e200 is scaled before it is squared
    at = open_page(PAGE, query={"true": "1e200", "pred": "0"})
    no_exceptions(at)
    assert metrics_shown(at) == ["1e200", "1e200"]
    # Σe² = 1e400 is beyond float64: the working shows RMSE = M × sqrt(Σ(e/M)² / n) with M = 1e200
    assert "&= 1e200 \\times \\sqrt{\\frac{1}{1}} \\\\ &= 1e200" in latex(at)
    assert at.dataframe[0].value.iloc[0].tolist()[-1] == "(1e200)²"
    # /rating?true=1e308&pred=0 crashed (its what-if sweep overflowed)
    at = open_page(PAGE, query={"true": "1e308,0", "pred": "0,0"})
    no_exceptions(at)
    # RMSE = 1e308 / sqrt(2) = 7.0711e307, MAE = 1e308 / 2 = 5e307
    assert metrics_shown(at) == ["7.0711e307", "5e307"]
    assert len(at.get("vega_lite_chart")) == 3


@pytest.mark.parametrize("lang", LANGS)
def test_error_beyond_float_keeps_last_valid(lang):
    at = open_page(PAGE, lang=lang)
    before = metrics_shown(at)
    at.text_area(key="rating_true").input("1e308").run()
    at.text_area(key="rating_pred").input("-1e308").run()
    no_exceptions(at)
    assert texts(at, "error") == [t("rating.beyond", lang=lang, pair=1, true="1e308", pred="-1e308")]
    assert metrics_shown(at) == before


@pytest.mark.parametrize("lang", LANGS)
def test_unequal_lengths_keep_last_valid(lang):
    at = open_page(PAGE, lang=lang)
    before = metrics_shown(at)
    at.text_area(key="rating_pred").input("1 2 3").run()
    no_exceptions(at)
    assert texts(at, "error") == [t("rating.unequal", lang=lang, true=5, pred=3)]
    assert t("state.kept_last_valid", lang=lang) in texts(at, "caption")
    assert metrics_shown(at) == before


def test_last_valid_pair_of_lists_is_kept():
    at = open_page(PAGE)
    at.text_area(key="rating_true").input("1 1").run()
    at.text_area(key="rating_pred").input("2 4").run()
    assert metrics_shown(at) == [num(math.sqrt(5)), "2"]
    at.text_area(key="rating_pred").input("2").run()  # now unequal: the last pair that went together stays
    no_exceptions(at)
    assert metrics_shown(at) == [num(math.sqrt(5)), "2"]


@one_language_each("key, label, text, reason, fields", [
    ("rating_true", "rating.true_name", "5 4 x 2 1", "state.reason.parse_not_a_number", dict(token="x", position=3)),
    ("rating_pred", "rating.pred_name", "4,4,4,4,four", "state.reason.parse_not_a_number",
     dict(token="four", position=5)),
    ("rating_pred", "rating.pred_name", "4,4,4,4,1e400", "state.reason.parse_too_large",
     dict(token="1e400", position=5)),
    ("rating_true", "rating.true_name", "  ", "state.reason.empty", {}),
    ("rating_true", "rating.true_name", "1 " * (MAX_PAIRS + 1), "state.reason.too_many",
     dict(n=MAX_PAIRS + 1, max=MAX_PAIRS)),
], ids=["letter", "word", "overflow", "empty", "too-many"])
def test_bad_token_named(lang, key, label, text, reason, fields):
    at = open_page(PAGE, lang=lang)
    before = metrics_shown(at)
    at.text_area(key=key).input(text).run()
    no_exceptions(at)
    assert texts(at, "error") == [bad(lang, t(label, lang=lang), text, reason, **fields)]
    assert metrics_shown(at) == before
    assert at.text_area(key=key).value == text


def test_sweep_pair_changes_and_is_in_link():
    at = open_page(PAGE)
    at.number_input(key="rating_pair").set_value(1).run()
    no_exceptions(at)
    assert at.query_params["pair"] == "1"
    # largest error 2 -> the sweep adds up to max(4, 2 × 2) = 4 to pair 1's error
    sweep = error_sweep(DEFAULT_TRUE, DEFAULT_PRED, pair=1, extra=[0, 4])
    note = t("rating.sweep_note", lang="en", pair=1, extra="4", rmse0=num(sweep["rmse"][0]),
             rmse1=num(sweep["rmse"][1]), mae0=num(sweep["mae"][0]), mae1=num(sweep["mae"][1]))
    assert note in texts(at, "caption")


def test_link_parameters_are_read_and_kept_exactly():
    at = open_page(PAGE, query={"true": "3,3,3.1234567", "pred": "2,3,5", "pair": "2"})
    no_exceptions(at)
    assert not at.warning
    assert at.number_input(key="rating_pair").value == 2
    true, pred = [3, 3, 3.1234567], [2, 3, 5]
    assert metrics_shown(at) == [num(rmse(true, pred)), num(mae(true, pred))]
    assert at.text_area(key="rating_true").value == "3, 3, 3.1234567"
    assert (at.query_params["true"], at.query_params["pred"], at.query_params["pair"]) == ("3,3,3.1234567", "2,3,5",
                                                                                            "2")


@one_language_each("pair, reason, fields", [
    ("0", "state.reason.range", dict(lo=1, hi=MAX_PAIRS)),
    ("x", "state.reason.integer", dict(lo=1, hi=MAX_PAIRS)),
    ("²", "state.reason.integer", dict(lo=1, hi=MAX_PAIRS)),
    ("9" * 4301, "state.reason.integer", dict(lo=1, hi=MAX_PAIRS)),
    ("99", "state.reason.range", dict(lo=1, hi=5)),  # within the field's bounds, beyond the data's 5 pairs
], ids=["zero", "letter", "superscript", "4301-digits", "beyond-data"])
def test_bad_pair_in_link(lang, pair, reason, fields):
    at = open_page(PAGE, lang=lang, query={"pair": pair})
    no_exceptions(at)
    said = bad(lang, "pair", pair, reason, **fields)
    # a Chinese sentence ends with a full-width stop, and no space follows one
    assert texts(at, "warning") == [said + ("" if said.endswith("。") else " ") + t("state.default_used", lang=lang)]
    assert at.number_input(key="rating_pair").value == 4


def test_bad_ratings_in_link():
    at = open_page(PAGE, query={"true": "1,2", "pred": "1"})
    no_exceptions(at)
    assert texts(at, "error") == [t("rating.unequal", lang="en", true=2, pred=1)]
    assert metrics_shown(at) == ["0.9487", "0.6"]  # the default data is shown meanwhile
    at = open_page(PAGE, query={"true": "1,nan", "pred": "1,2"})
    no_exceptions(at)
    assert texts(at, "warning") == [bad("en", "true", "1,nan", "state.reason.parse_not_a_number", token="nan",
                                        position=2) + " " + t("state.default_used", lang="en")]


def test_state_survives_leaving_the_page():
    at = open_page(PAGE)
    at.text_area(key="rating_true").input("1, 2.5").run()
    at.text_area(key="rating_pred").input("2 2").run()
    at.number_input(key="rating_pair").set_value(1).run()
    at.switch_page("pages/topn.py").run()
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert at.text_area(key="rating_true").value == "1, 2.5"
    assert at.number_input(key="rating_pair").value == 1
    tot = totals([1, 2.5], [2, 2])
    assert metrics_shown(at) == [num(tot["rmse"]), num(tot["mae"])]


def test_many_pairs_are_drawn_in_part():
    true = " ".join(str(i % 5) for i in range(100))
    at = open_page(PAGE)
    at.text_area(key="rating_true").input(true).run()
    at.text_area(key="rating_pred").input("2 " * 100).run()
    no_exceptions(at)
    assert t("rating.bars_cut", lang="en", shown=60, total=100) in texts(at, "caption")
    assert "\\cdots" in latex(at)
