"""AppTest: the Top-N page in three languages, bad input, bad and good links."""
from __future__ import annotations

import json

import pytest

from metrics.other.topn import AP_DENOMINATORS, ARHR_MODES, HIT_RATES, PRECISION_DENOMINATORS, parse_runs, summary
from tests.conftest import LANGS, fmt, latex, no_exceptions, open_page, texts
from ui.i18n import catalogue, t

PAGE = "pages/topn.py"
KEY = "topn_users"


@pytest.mark.parametrize("lang", LANGS)
def test_default_page_every_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exceptions(at)
    assert not at.error
    assert at.title[0].value == t("topn.title", lang=lang)
    runs = parse_runs(at.session_state[KEY])
    s = summary(runs, n=5)
    body = latex(at)
    # the pooled formulas of document 002 with the sums filled in, and the per-user means
    assert f"\\frac{{{s['hits']}}}{{{s['relevant']}}} = {fmt(s['recall'])}" in body
    assert f"= {fmt(s['precision'])}" in body and f"= {fmt(s['recall_mean'])}" in body
    assert f"= {fmt(s['mrr'])}" in body and f"= {fmt(s['loo_ndcg_mean'])}" in body
    assert t("topn.why_differ", lang=lang) in texts(at, "info")
    # the example's users have different |T(u)|: the sentence names the heaviest (alice, 3 of 7 test items)
    assert t("topn.differ_here", lang=lang, pooled=fmt(s["recall"]), mean=fmt(s["recall_mean"]), user="alice",
             size=3, total=7) in texts(at, "caption")
    charts = at.get("vega_lite_chart")
    assert len(charts) == 2
    for chart in charts:
        spec = json.loads(chart.proto.spec)
        assert "tooltip" in json.dumps(spec)
    # the radio labels are the translated registry names
    radio = at.radio(key="topn_prec")
    assert radio.options == [t(f"topn.choice.prec.{k}.name", lang=lang) for k in PRECISION_DENOMINATORS]


def test_ap_denominators_side_by_side_and_map():
    at = open_page(PAGE)
    runs = parse_runs(at.session_state[KEY])
    body = latex(at)
    for choice in AP_DENOMINATORS.values():
        assert choice.latex in body
    table = at.dataframe[-1].value
    last = table.iloc[-1].tolist()
    assert last[0] == "MAP@N"
    assert last[1:] == [fmt(summary(runs, n=5, ap_denominator=k)["map"]) for k in AP_DENOMINATORS]


def test_choose_user_and_modes_change_numbers():
    at = open_page(PAGE)
    at.selectbox(key="topn_user").set_value("bob").run()
    no_exceptions(at)
    assert "\\text{bob}" in latex(at)
    at.radio(key="topn_hr").set_value("items").run()
    at.radio(key="topn_arhr").set_value("all").run()
    no_exceptions(at)
    runs = parse_runs(at.session_state[KEY])
    s = summary(runs, n=5, hit_rate="items", arhr="all")
    assert f"= {fmt(s['hr'])}" in latex(at) and f"= {fmt(s['arhr'])}" in latex(at)
    assert at.query_params["hr"] == "items" and at.query_params["arhr"] == "all"


def test_n_and_precision_denominator():
    at = open_page(PAGE)
    at.number_input(key="topn_n").set_value(2).run()
    at.radio(key="topn_prec").set_value("n").run()
    no_exceptions(at)
    runs = parse_runs(at.session_state[KEY])
    s = summary(runs, n=2, precision_denominator="n")
    assert f"\\frac{{{s['hits']}}}{{{s['precision_denominator']}}} = {fmt(s['precision'])}" in latex(at)
    assert at.query_params["n"] == "2"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("text, key, fields", [
    ("alice: A B A | A", "err_duplicate_item", dict(line=1, token="A", first=1, position=3, side="recommended")),
    ("alice: A B | C C", "err_duplicate_item", dict(line=1, token="C", first=1, position=2, side="test")),
    ("alice: A B C", "err_missing_bar", dict(line=1)),
    ("a: A | B | C", "err_extra_bar", dict(line=1)),
    ("a: A | B\na: C | D", "err_duplicate_user", dict(line=2, token="a", first=1)),
    ("   \n# only a comment", "err_empty", {}),
])
def test_bad_input_message_and_last_valid_state(lang, text, key, fields):
    at = open_page(PAGE, lang=lang)
    before = latex(at)
    at.text_area(key=KEY).input(text).run()
    no_exceptions(at)
    fields = dict(fields)  # the parametrized dict is shared between languages
    if "side" in fields:
        fields["side"] = t(f"topn.side_{fields['side']}", lang=lang)
    assert texts(at, "error") == [t(f"topn.{key}", lang=lang, **fields)]
    assert t("common.kept_last_valid", lang=lang) in texts(at, "caption")
    assert latex(at) == before  # the last valid data is still shown
    # the link keeps the last valid text, not the broken one
    assert parse_runs(at.query_params["users"])


def test_fixing_the_input_recovers():
    at = open_page(PAGE)
    at.text_area(key=KEY).input("x: A A | A").run()
    assert at.error
    at.text_area(key=KEY).input("x: A B | B\ny: C D | Q").run()
    no_exceptions(at)
    assert not at.error
    s = summary(parse_runs("x: A B | B\ny: C D | Q"), n=5)
    assert f"= {fmt(s['recall'])}" in latex(at)


def test_link_parameters_are_read():
    users = "p: X Y Z | Z\nq: Z Y X | Y W"
    at = open_page(PAGE, query={"users": users, "n": "2", "prec": "n", "hr": "items", "arhr": "all", "user": "q"})
    no_exceptions(at)
    assert not at.warning
    assert at.session_state[KEY] == users
    assert at.session_state["topn_n"] == 2 and at.session_state["topn_user"] == "q"
    s = summary(parse_runs(users), n=2, precision_denominator="n", hit_rate="items", arhr="all")
    assert f"= {fmt(s['precision'])}" in latex(at) and f"= {fmt(s['hr'])}" in latex(at)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("query, name, reason", [
    ({"n": "0"}, "n", ("topn.bad_n_reason", {"max": 1000})),
    ({"n": "abc"}, "n", ("topn.bad_n_reason", {"max": 1000})),
    ({"prec": "x"}, "prec", ("topn.bad_choice_reason", {"valid": ", ".join(PRECISION_DENOMINATORS)})),
    ({"hr": "x"}, "hr", ("topn.bad_choice_reason", {"valid": ", ".join(HIT_RATES)})),
    ({"arhr": "x"}, "arhr", ("topn.bad_choice_reason", {"valid": ", ".join(ARHR_MODES)})),
    ({"user": "nobody"}, "user", ("topn.bad_user_reason", {})),
])
def test_bad_link_parameters_warn_and_use_defaults(lang, query, name, reason):
    at = open_page(PAGE, lang=lang, query=query)
    no_exceptions(at)
    key, fmt_args = reason
    expected = t("common.bad_param", lang=lang, name=name, reason=t(key, lang=lang, **fmt_args))
    assert expected in texts(at, "warning")
    assert at.session_state["topn_n"] == 5 or name != "n"


def test_bad_users_in_link_shows_parse_error_and_defaults():
    at = open_page(PAGE, query={"users": "a: A A | A"})
    no_exceptions(at)
    assert texts(at, "error") == [t("topn.err_duplicate_item", lang="en", line=1, token="A", first=1, position=2,
                                    side=t("topn.side_recommended", lang="en"))]


def test_user_names_are_not_rendered_as_html_or_latex_commands():
    at = open_page(PAGE)
    at.text_area(key=KEY).input("<b>x</b>\\frac: A B | B").run()
    no_exceptions(at)
    assert "\\frac:" not in latex(at) and "<b>" not in latex(at)


def test_english_choice_texts_match_the_registry():
    # the catalogue repeats the registry's English names/help; keep them identical
    en = catalogue("en")
    for section, registry in (("prec", PRECISION_DENOMINATORS), ("ap", AP_DENOMINATORS), ("hr", HIT_RATES),
                              ("arhr", ARHR_MODES)):
        for key, choice in registry.items():
            assert en[f"topn.choice.{section}.{key}.name"] == choice.name
            assert en[f"topn.choice.{section}.{key}.help"] == choice.help


def test_state_survives_leaving_the_page():
    at = open_page(PAGE)
    at.text_area(key=KEY).input("z: A B | A").run()
    at.switch_page("pages/roc.py").run()
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert at.session_state[KEY] == "z: A B | A"
