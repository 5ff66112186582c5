"""AppTest through app.py: the Top-N page in three languages, bad input, bad and good links, state kept."""
from __future__ import annotations

import json

import pytest

from metrics.other.topn import AP_DENOMINATORS, ARHR_MODES, HIT_RATES, PRECISION_DENOMINATORS, parse_runs, summary
from tests.conftest import LANGS, latex, no_exceptions, one_language_each, open_page, texts
from ui.escape import markdown
from ui.i18n import catalogue, t
from ui.numbers import show_trimmed as num
from ui.pages.topn import DEFAULT_USERS, MAX_CHARS, MAX_ITEMS, MAX_USERS

PAGE = "pages/topn.py"
KEY = "topn_users"


def bad(lang: str, name: str, value: str, reason: str, **fmt) -> str:
    """The message ui.state shows for a bad value: parameter, value (escaped, shortened), what is allowed."""
    fmt = {k: markdown(v, 40) if isinstance(v, str) else v for k, v in fmt.items()}
    return t("state.bad_value", lang=lang, name=markdown(name, 40), value=markdown(value, 40),
             reason=t(reason, lang=lang, **fmt))


def link_warning(lang: str, name: str, value: str, reason: str, **fmt) -> str:
    said = bad(lang, name, value, reason, **fmt)
    # a Chinese sentence ends with a full-width stop, and no space follows one
    return said + ("" if said.endswith("。") else " ") + t("state.default_used", lang=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_default_page_every_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exceptions(at)
    assert not at.error and not at.warning
    assert at.title[0].value == t("topn.title", lang=lang)
    assert at.session_state[KEY] == DEFAULT_USERS
    s = summary(parse_runs(DEFAULT_USERS), n=5)
    body = latex(at)
    # document 002's pooled formulas with the sums filled in (hits 2+1+1+0 = 4 of 3+2+1+1 = 7 test items)
    assert "|R(u) \\cap T(u)| &= 2 + 1 + 1 + 0 = 4" in body and "|T(u)| &= 3 + 2 + 1 + 1 = 7" in body
    assert "\\mathrm{Recall}@5 &= \\frac{4}{7} = 0.5714" in body
    assert f"= {num(s['precision'])}" in body and f"= {num(s['recall_mean'])}" in body
    assert f"= {num(s['mrr'])}" in body and f"= {num(s['loo_ndcg_mean'])}" in body
    assert t("topn.why_differ", lang=lang) in texts(at, "info")
    # alice holds 3 of the 7 test items: the sentence names her
    assert t("topn.differ_here", lang=lang, pooled="0.5714", mean=num(s["recall_mean"]), user="alice",
             size=3, total=7) in texts(at, "caption")
    charts = at.get("vega_lite_chart")
    assert len(charts) == 2
    assert all("tooltip" in json.dumps(json.loads(c.proto.spec)) for c in charts)
    # the radios show the registry's names in the page's language (English from metrics, zh/ko translated)
    radio = at.radio(key="topn_prec")
    expected = [PRECISION_DENOMINATORS[k].name if lang == "en" else
                catalogue(lang)[f"registry.precision_denominator.{k}.name"] for k in PRECISION_DENOMINATORS]
    assert radio.options == expected
    # a default view's link holds only what differs from the defaults (the chosen user) and the language
    query = {k: at.query_params[k] for k in at.query_params}
    assert query == ({"user": "alice"} if lang == "en" else {"user": "alice", "lang": lang})


def test_ap_denominators_side_by_side_and_map():
    at = open_page(PAGE)
    runs = parse_runs(DEFAULT_USERS)
    body = latex(at)
    for choice in AP_DENOMINATORS.values():
        assert choice.latex in body
    # alice: hits at 1 and 3 -> S = 1 + 2/3; min(5, 3) = 3 -> AP = 0.5556
    assert ("S &= 1 + 0.6667 \\\\ &= 1.6667 \\\\ \\mathrm{AP}@5(\\text{alice}) &= \\frac{1.6667}{\\min\\{N, |T(u)|\\}} "
            "\\\\ &= \\frac{1.6667}{3} = 0.5556") in body
    table = at.dataframe[-1].value
    last = table.iloc[-1].tolist()
    assert last[0] == "MAP@N"
    assert last[1:] == [num(summary(runs, n=5, ap_denominator=k)["map"]) for k in AP_DENOMINATORS]


def test_choose_user_and_modes_change_numbers_and_link():
    at = open_page(PAGE)
    at.selectbox(key="topn_user").set_value("bob").run()
    no_exceptions(at)
    assert "\\text{bob}" in latex(at)
    at.radio(key="topn_hr").set_value("items").run()
    at.radio(key="topn_arhr").set_value("all").run()
    no_exceptions(at)
    s = summary(parse_runs(DEFAULT_USERS), n=5, hit_rate="items", arhr="all")
    assert f"= {num(s['hr'])}" in latex(at) and f"= {num(s['arhr'])}" in latex(at)
    assert at.query_params["hr"] == "items" and at.query_params["arhr"] == "all" and at.query_params["user"] == "bob"


def test_n_and_precision_denominator():
    at = open_page(PAGE)
    at.number_input(key="topn_n").set_value(2).run()
    at.radio(key="topn_prec").set_value("n").run()
    no_exceptions(at)
    s = summary(parse_runs(DEFAULT_USERS), n=2, precision_denominator="n")
    # 4 users x N = 2 -> denominator 2 + 2 + 2 + 2 = 8
    assert "\\sum_u N &= 2 + 2 + 2 + 2 = 8" in latex(at)
    assert f"\\frac{{{s['hits']}}}{{8}} = {num(s['precision'])}" in latex(at)
    assert at.query_params["n"] == "2" and at.query_params["prec"] == "n"


@one_language_each("text, reason, fields", [
    ("alice: A B A | A", "topn.reason.duplicate_item_recommended", dict(line=1, token="A", first=1, position=3)),
    ("alice: A B | C C", "topn.reason.duplicate_item_test", dict(line=1, token="C", first=1, position=2)),
    ("alice: A B C", "topn.reason.missing_bar", dict(line=1)),
    ("a: A | B | C", "topn.reason.extra_bar", dict(line=1)),
    ("a: A | B\na: C | D", "topn.reason.duplicate_user", dict(line=2, token="a", first=1)),
    ("   \n# only a comment", "topn.reason.empty", {}),
    ("![](//host/x): $\\huge PWN$ | <img src=x>\nb: A A | A", "topn.reason.duplicate_item_recommended",
     dict(line=2, token="A", first=1, position=2)),
])
def test_bad_input_message_and_last_valid_state(lang, text, reason, fields):
    at = open_page(PAGE, lang=lang)
    before = latex(at)
    at.text_area(key=KEY).input(text).run()
    no_exceptions(at)
    # the message names the field, the typed text (escaped, shortened) and what is wrong
    assert texts(at, "error") == [bad(lang, t("topn.users_name", lang=lang), text, reason, **fields)]
    assert t("state.kept_last_valid", lang=lang) in texts(at, "caption")
    assert latex(at) == before  # the last valid data is still shown
    assert at.text_area(key=KEY).value == text  # and what was typed is not lost
    assert "users" not in at.query_params  # the link keeps the last valid (default) users


@pytest.mark.parametrize("text, reason, fields", [
    ("\n".join(f"u{i}: A | A" for i in range(MAX_USERS + 1)), "topn.reason.too_many_users",
     dict(n=MAX_USERS + 1, max=MAX_USERS)),
    ("big: " + " ".join(f"i{i}" for i in range(MAX_ITEMS + 1)) + " | i1", "topn.reason.too_many_items",
     dict(user="big", n=MAX_ITEMS + 1, max=MAX_ITEMS)),
    ("a: A | A\n" + "#" * MAX_CHARS, "state.reason.too_long", dict(n=MAX_CHARS + 9, max=MAX_CHARS)),
], ids=["users", "items", "characters"])
def test_input_caps(text, reason, fields):
    at = open_page(PAGE)
    at.text_area(key=KEY).input(text).run()
    no_exceptions(at)
    assert texts(at, "error") == [bad("en", "Users", text, reason, **fields)]


def test_fixing_the_input_recovers():
    at = open_page(PAGE)
    at.text_area(key=KEY).input("x: A A | A").run()
    assert at.error
    at.text_area(key=KEY).input("x: A B | B\ny: C D | Q").run()
    no_exceptions(at)
    assert not at.error
    # pooled recall: 1 + 0 = 1 hit of 1 + 1 = 2 test items
    assert "&= 1 + 0 = 1" in latex(at) and "\\mathrm{Recall}@5 &= \\frac{1}{2} = 0.5" in latex(at)
    assert at.query_params["users"] == "x: A B | B\ny: C D | Q"  # exactly as typed


def test_link_parameters_are_read():
    users = "p: X Y Z | Z\nq: Z Y X | Y W"
    at = open_page(PAGE, query={"users": users, "n": "2", "prec": "n", "hr": "items", "arhr": "all", "user": "q"})
    no_exceptions(at)
    assert not at.warning
    assert at.session_state[KEY] == users
    assert at.session_state["topn_n"] == 2 and at.session_state["topn_user"] == "q"
    s = summary(parse_runs(users), n=2, precision_denominator="n", hit_rate="items", arhr="all")
    assert f"= {num(s['precision'])}" in latex(at) and f"= {num(s['hr'])}" in latex(at)
    # the address bar keeps the link as it was
    assert {k: at.query_params[k] for k in ("users", "n", "prec", "hr", "arhr", "user")} == \
        {"users": users, "n": "2", "prec": "n", "hr": "items", "arhr": "all", "user": "q"}


@one_language_each("query, name, reason, fields", [
    ({"n": "0"}, "n", "state.reason.range", dict(lo=1, hi=1000)),
    ({"n": "①"}, "n", "state.reason.integer", dict(lo=1, hi=1000)),
    ({"n": "9" * 4301}, "n", "state.reason.integer", dict(lo=1, hi=1000)),
    ({"n": "9007199254740993"}, "n", "state.reason.range", dict(lo=1, hi=1000)),
    ({"n": "abc"}, "n", "state.reason.integer", dict(lo=1, hi=1000)),
    ({"prec": "x"}, "prec", "state.reason.choice", dict(options=", ".join(PRECISION_DENOMINATORS))),
    ({"hr": "[x](//host)"}, "hr", "state.reason.choice", dict(options=", ".join(HIT_RATES))),
    ({"arhr": "$\\huge PWN$"}, "arhr", "state.reason.choice", dict(options=", ".join(ARHR_MODES))),
    ({"user": "nobody"}, "user", "topn.reason.no_such_user", {}),
    ({"users": "a: A A | A"}, "users", "topn.reason.duplicate_item_recommended",
     dict(line=1, token="A", first=1, position=2)),
], ids=["n-zero", "n-circled", "n-4301-digits", "n-above-2^53", "n-letters", "prec", "hr-link", "arhr-latex",
        "user-absent", "users-duplicate"])
def test_bad_link_parameters_warn_and_use_defaults(lang, query, name, reason, fields):
    at = open_page(PAGE, lang=lang, query=query)
    no_exceptions(at)
    value = next(iter(query.values()))
    assert link_warning(lang, name, value, reason, **fields) in texts(at, "warning")
    assert at.session_state["topn_n"] == 5 or name != "n"
    assert at.session_state[KEY] == DEFAULT_USERS or name != "users"
    assert name not in at.query_params or name == "user"  # a bad parameter leaves the link


def test_user_names_are_not_rendered_as_html_or_latex_commands():
    at = open_page(PAGE)
    at.text_area(key=KEY).input("<b>\\x{1}: A B | B\n$\\huge P$: C | C").run()
    no_exceptions(at)
    body = latex(at)
    assert "\\text{<b>\\textbackslash{}x\\{1\\}}" in body
    assert "\\text{\\$\\textbackslash{}huge P\\$}" in body
    # the caption naming the heaviest user escapes Markdown
    at.text_area(key=KEY).input("![](//host/x): A B | A B\nz: C | C").run()
    assert any("\\!\\[\\]\\(//host/x\\)" in c for c in texts(at, "caption"))


def test_english_choice_texts_are_written_once():
    # the registries in metrics.other.topn hold the English; the catalogue does not repeat it
    en = catalogue("en")
    assert not [k for k in en if k.startswith("topn.choice.")]
    for kind, registry in (("precision_denominator", PRECISION_DENOMINATORS), ("ap_denominator", AP_DENOMINATORS),
                           ("hit_rate", HIT_RATES), ("arhr", ARHR_MODES)):
        for key in registry:
            for lang in ("zh", "ko"):
                assert catalogue(lang)[f"registry.{kind}.{key}.name"]
                assert catalogue(lang)[f"registry.{kind}.{key}.help"]


def test_state_survives_leaving_the_page():
    at = open_page(PAGE)
    at.text_area(key=KEY).input("z: A B | A").run()
    at.number_input(key="topn_n").set_value(1).run()
    at.switch_page("pages/roc.py").run()
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert at.session_state[KEY] == "z: A B | A" and at.session_state["topn_n"] == 1
    assert at.query_params["users"] == "z: A B | A" and at.query_params["n"] == "1"


def test_bad_text_survives_leaving_the_page_with_the_last_valid_numbers():
    at = open_page(PAGE)
    at.text_area(key=KEY).input("z: A B | A").run()
    at.text_area(key=KEY).input("z: A A | A").run()
    at.switch_page("pages/roc.py").run()
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert at.text_area(key=KEY).value == "z: A A | A"  # what was typed
    assert "\\mathrm{Recall}@5 &= \\frac{1}{1} = 1" in latex(at)  # the last valid users' numbers (z: 1 hit of 1)


def test_many_users_are_drawn_in_part():
    users = "\n".join(f"u{i}: A B C | {'A' if i % 2 else 'Z'}" for i in range(40))
    at = open_page(PAGE, query={"users": users, "n": "40"})
    no_exceptions(at)
    assert t("topn.grid_cut", lang="en", users=30, positions=30) in texts(at, "caption")
    assert t("topn.more_users", lang="en", shown=10, total=40) in texts(at, "caption")
    # every user still counts: 20 of 40 users have their single test item at position 1
    assert "\\mathrm{Recall}@40 &= \\frac{20}{40} = 0.5" in latex(at)
    assert "\\cdots" in latex(at)  # long sums are shortened in the formulas
