"""The Present page through AppTest (app.py's navigation): every step, every link parameter good and bad,
the key listener (driven through session state), the buttons, languages, page switches.

Expected numbers come from metrics/ (breakdown, ndcg, all_variants); they are written here only as the
page's display rounding of those values.
"""
from __future__ import annotations

import math
import re

import pytest

from metrics.lessons.examples import EXAMPLES, FORMULAS, examples_for
from metrics.ndcg import all_variants, breakdown, cg, dcg, idcg, ndcg
from tests.conftest import LANGS, no_exceptions, one_language_each, open_page
from ui import state as ui_state
from ui.i18n import t
from ui.numbers import show_trimmed
from ui.pages.present import link, markup, navigation, slides

PAGE = "pages/present.py"


def html(at) -> str:
    return "\n".join(h.proto.body for h in at.get("html"))


def big_number(at) -> str | None:
    m = re.search(r'data-testid="nl-number">([^<]*)<', html(at))
    return m.group(1) if m else None


def title(at) -> str:
    return at.title[0].value


def warnings(at) -> list[str]:
    return [w.value for w in at.warning]


def query(at) -> dict[str, str]:
    return {k: at.query_params[k] for k in at.query_params}


def steps_of(**values) -> list[slides.Step]:
    return slides.steps(link.lecture_from_values(values)[0])


def presses(at, *deltas: int) -> None:
    """Key presses as the listener sends them: numbered after the last one the server took, with every
    earlier press it already took still in the list (the listener drops them only when the server says so)."""
    seen = at.session_state[navigation.SEEN_KEY] if navigation.SEEN_KEY in at.session_state else 0
    old = [[seq, 1] for seq in range(max(1, seen - 2), seen + 1)] if seen else []
    new = [[seen + i, d] for i, d in enumerate(deltas, start=1)]
    at.session_state[navigation.KEYS_KEY] = {"go": {"token": at.session_state[navigation.TOKEN_KEY],
                                                    "presses": old + new}}


def go(at, step: int):
    """Key presses from the step shown to ``step`` (→ or ←, one press per step), sent at once as a burst."""
    current = at.session_state[link.STEP_KEY]
    presses(at, *([1 if step > current else -1] * abs(step - current)))
    return at.run()


# ---- every step of a document's example ----------------------------------------------------------

EX = EXAMPLES["000-graded"]
OPTS = FORMULAS[EX.implied].variant.options
BD = breakdown(list(EX.relevances), **OPTS)


def test_every_step_of_document_000():
    at = open_page(PAGE, query={"doc": "000"})
    no_exceptions(at)
    lecture = link.lecture_from_example("000-graded")
    all_steps = slides.steps(lecture)
    # 3 + 5 positions + DCG, ideal, IDCG, NDCG, the formula, variants (5 grades, no k)
    assert len(all_steps) == 14
    for i, step in enumerate(all_steps, start=1):
        if i > 1:
            at = go(at, i)
        no_exceptions(at)
        assert query(at)["step"] == str(i) and query(at)["doc"] == "000"
        assert title(at) == t(f"present.title_{step.kind}", position=step.position, n=5)
        number = big_number(at)
        if step.kind == "gains":
            assert number == show_trimmed(cg(list(EX.relevances)))  # 11
        elif step.kind == "term":
            assert number == show_trimmed(float(BD["dcg"].iloc[step.position - 1]))
            assert f"= {show_trimmed(float(BD['discounted_gain'].iloc[step.position - 1]))}" in html(at)
        elif step.kind == "dcg":
            assert number == show_trimmed(dcg(list(EX.relevances), **OPTS))  # 7.9923
        elif step.kind == "idcg":
            assert number == show_trimmed(idcg(list(EX.relevances), **OPTS))  # 8.6925
        elif step.kind in ("ndcg", "formula", "variants"):
            assert number == show_trimmed(ndcg(list(EX.relevances), **OPTS))  # 0.9194
        elif step.kind in ("ranking", "discounts", "ideal"):
            assert number is None
        if step.kind == "formula":  # in symbols, document 000's grades and positions written in (Järvelin's max)
            dcg_tex, idcg_tex, ndcg_tex = (x.value for x in at.latex)
            assert "\\frac{3}{\\max(1, \\log_{2} 1)}" in dcg_tex and "\\frac{2}{\\max(1, \\log_{2} 2)}" in dcg_tex
            assert "IDCG" in idcg_tex
            assert "= \\frac{7.992}{8.693} = 0.919" in ndcg_tex  # 7.9923 / 8.6925 (three decimals in formulas)
        else:
            assert list(at.latex) == []
    # the other variants: every NDCG of all_variants
    table = html(at)
    for value in all_variants(list(EX.relevances))["ndcg"]:
        assert show_trimmed(value) in table


def test_printed_numbers_beside_exact_never_fixed():
    at = open_page(PAGE, query={"doc": "000", "step": "12"})  # NDCG
    body = html(at)
    assert "nl-printed" in body
    # 0.91 printed, 0.9194 exact: a truncation (rounding gives 0.92), shown as printed
    assert ">0.91<" in body and f">{show_trimmed(ndcg(list(EX.relevances), **OPTS))}<" in body
    assert "Truncation" in body
    # 001's 81.86 %: written like the document, the exact percent beside it
    at = open_page(PAGE, query={"doc": "001"})
    last = len(slides.steps(link.lecture_from_example("001-main")))
    at = go(at, last - 2)  # NDCG (then the formula, then the variants)
    assert title(at) == t("present.title_ndcg")
    ex = EXAMPLES["001-main"]
    exact = ndcg(list(ex.relevances), k=6, pool=ex.pool)
    assert ">81.86%<" in html(at) and f">{show_trimmed(exact * 100)}%<" in html(at)


@pytest.mark.parametrize("doc", ["000", "001", "002", "003", "004"])
def test_each_document_reaches_its_ndcg(doc):
    ex = examples_for(doc)[0]
    lecture = link.lecture_from_example(ex.key)
    ndcg_step = next(i for i, s in enumerate(slides.steps(lecture), start=1) if s.kind == "ndcg")
    at = open_page(PAGE, query={"doc": doc, "step": str(ndcg_step)})
    no_exceptions(at)
    f = FORMULAS[ex.implied].variant
    assert big_number(at) == show_trimmed(ndcg(list(ex.relevances), k=ex.k, pool=ex.pool, **f.options))
    assert warnings(at) == []
    assert t(f"worked_examples.ex.{ex.key}.title") in "".join(c.value for c in at.caption)


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_every_worked_example_key(key):
    at = open_page(PAGE, query={"doc": key, "step": "99"})  # past the end: the last step
    no_exceptions(at)
    assert warnings(at) == []
    lecture = link.lecture_from_example(key)
    assert query(at)["step"] == str(len(slides.steps(lecture)))
    assert title(at) == t("present.title_variants")


def test_004_ideal_order_joined_by_the_ground_truth_items():
    lecture = link.lecture_from_example("004-recsys1")
    ideal = next(i for i, s in enumerate(slides.steps(lecture), start=1) if s.kind == "ideal")
    at = open_page(PAGE, query={"doc": "004", "step": str(ideal)})
    body = html(at)
    assert body.count(t("present.not_retrieved")) == 2  # B (3) and G (0) were not recommended
    assert ">3,3,2,2,1,1,0,0<" in body  # the document's ideal gain vector, judged exact


def test_rest_step_for_long_lists():
    rels = ",".join(str(i % 4) for i in range(14))
    kinds = [s.kind for s in steps_of(present_rels=tuple(float(i % 4) for i in range(14)))]
    assert kinds.count("term") == slides.TERM_STEPS_CAP and kinds.count("rest") == 1
    rest = kinds.index("rest") + 1
    at = open_page(PAGE, query={"rels": rels, "step": str(rest)})
    no_exceptions(at)
    assert big_number(at) == show_trimmed(dcg([float(i % 4) for i in range(14)]))
    assert "+ 4 more" in html(at)  # the sum writes out SUM_TERMS_SHOWN terms


# ---- good parameters ---------------------------------------------------------------------------

@pytest.mark.parametrize("params, expect", [
    ({"rels": "3,2,1"}, {"rels": [3, 2, 1]}),
    ({"rels": "3 2 1", "k": "2"}, {"rels": [3, 2, 1], "k": 2}),
    ({"rels": "3,2,1", "gain": "exponential"}, {"rels": [3, 2, 1], "gain": "exponential"}),
    ({"rels": "3,2,1", "discount": "jarvelin"}, {"rels": [3, 2, 1], "discount": "jarvelin"}),
    ({"rels": "3,2,1", "base": "e"}, {"rels": [3, 2, 1], "log_base": math.e}),
    ({"rels": "3,2,1", "base": "10", "discount": "jarvelin"}, {"rels": [3, 2, 1], "log_base": 10.0,
                                                              "discount": "jarvelin"}),
    ({"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6"}, {"rels": [3, 2, 3, 0, 1, 2], "k": 6,
                                                               "pool": [3, 2, 3, 0, 1, 2, 3, 0]}),
    ({"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6", "idcg": "list"}, {"rels": [3, 2, 3, 0, 1, 2], "k": 6}),
    ({"doc": "002", "gain": "exponential"}, {"rels": [3, 2, 3, 0, 1, 2], "k": 6, "gain": "exponential"}),
])
def test_good_parameters_give_the_metrics_ndcg(params, expect):
    rels = expect.pop("rels")
    at = open_page(PAGE, query=params)
    no_exceptions(at)
    assert warnings(at) == []
    lecture = link.lecture_from_values({f.key: at.session_state[f.key] for f in link.FIELDS})[0]
    ndcg_step = next(i for i, s in enumerate(slides.steps(lecture), start=1) if s.kind == "ndcg")
    at = go(at, ndcg_step)
    assert big_number(at) == show_trimmed(ndcg([float(r) for r in rels], **expect))
    for name in params:  # the address keeps what the link gave (canonical form)
        assert name in query(at)


def test_labels_and_unretrieved_labels_on_cards():
    at = open_page(PAGE, query={"rels": "3,2", "unretrieved": "3", "labels": "Alpha,<b>B</b>,Gamma"})
    body = html(at)
    assert "Alpha" in body and "&lt;b&gt;B&lt;/b&gt;" in body and "<b>B</b>" not in body  # escaped
    assert query(at)["labels"] == "Alpha,<b>B</b>,Gamma"
    ideal = next(i for i, s in enumerate(steps_of(present_rels=(3.0, 2.0), present_unretrieved=(3.0,)), start=1)
                 if s.kind == "ideal")
    at = go(at, ideal)
    assert "Gamma" in html(at)


@pytest.mark.parametrize("theme, colour", [(name, markup.PALETTES[name]["bg"]) for name in ("light", "dark")])
def test_theme(theme, colour):
    at = open_page(PAGE, query={"doc": "000", "theme": theme})
    assert f"background: {colour}" in html(at)
    assert query(at).get("theme") == (None if theme == "light" else "dark")
    at.button(key="present_theme_toggle").click().run()
    other = "light" if theme == "dark" else "dark"
    assert f"background: {markup.PALETTES[other]['bg']}" in html(at)
    assert query(at).get("theme") == (None if other == "light" else "dark")


@pytest.mark.parametrize("lang", LANGS)
def test_languages(lang):
    at = open_page(PAGE, lang=lang, query={"doc": "001", "step": "5"})
    no_exceptions(at)
    body = html(at) + title(at) + "".join(c.value for c in at.caption)
    assert "present." not in body  # no missing catalogue key
    assert title(at) == t("present.title_term", lang=lang, position=2)
    bd = breakdown([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    assert big_number(at) == show_trimmed(float(bd["dcg"].iloc[1]))


def test_step_beyond_the_end_shows_the_last_and_the_address_says_so():
    at = open_page(PAGE, query={"doc": "000", "step": "999999999999999999999"})
    assert warnings(at) == []
    assert query(at)["step"] == "14" and title(at) == t("present.title_variants")


# ---- bad parameters: a message naming the parameter and the value, the default kept -------------

BAD = [
    ("rels", "3,x"), ("rels", "3,-1"), ("rels", ""), ("unretrieved", "3,abc"), ("k", "0"), ("k", "①"),
    ("k", "two"), ("gain", "cubic"), ("discount", "steep"), ("base", "1"), ("base", "0"), ("base", "abc"),
    ("idcg", "all"), ("doc", "005"), ("doc", "x9"), ("step", "0"), ("step", "-2"), ("step", "abc"),
    ("step", "③"), ("theme", "blue"),
]


@pytest.mark.parametrize("name, value", BAD)
def test_bad_parameter(name, value):
    at = open_page(PAGE, query={name: value})
    no_exceptions(at)
    (message,) = warnings(at)
    assert f"**{name}**" in message and (value.strip() or "“”") in message.replace("\\", "")
    defaults = link.lecture_from_values({})[0]
    lecture = link.lecture_from_values({f.key: at.session_state[f.key] for f in link.FIELDS})[0]
    assert lecture == defaults  # the default is used
    assert query(at)["step"] == "1" and (name == "step" or name not in query(at))


def test_bad_step_keeps_a_good_document():
    at = open_page(PAGE, query={"doc": "000", "step": "x"})
    assert len(warnings(at)) == 1 and title(at) == t("present.title_ranking")
    assert query(at) == {"doc": "000", "step": "1"}


def test_grades_too_large_for_the_exponential_gain():
    at = open_page(PAGE, query={"rels": "2000,1", "gain": "exponential"})
    no_exceptions(at)
    (message,) = warnings(at)
    assert "**rels**" in message
    lecture = link.lecture_from_values({f.key: at.session_state[f.key] for f in link.FIELDS})[0]
    assert lecture.rels == link.lecture_from_values({})[0].rels


def test_extra_labels_are_reported():
    at = open_page(PAGE, query={"rels": "3,2", "labels": "A,B,C,D"})
    (message,) = warnings(at)
    assert "**labels**" in message


# ---- keys, buttons, page switches -------------------------------------------------------------

def test_keys_are_taken_once_and_malformed_ones_ignored():
    at = open_page(PAGE, query={"doc": "000"})
    at = go(at, 4)
    assert query(at)["step"] == "4"
    at.button(key="present_back").click().run()
    assert query(at)["step"] == "3"
    at.run()  # the listener still holds presses 1-3: not taken again
    assert query(at)["step"] == "3"
    at = go(at, 50)  # past the end: the last step
    assert query(at)["step"] == "14"
    token = at.session_state[navigation.TOKEN_KEY]
    seen = at.session_state[navigation.SEEN_KEY]
    for bad in ({"go": {"token": token, "presses": "x"}}, {"go": None}, "junk",
                {"go": {"token": token, "presses": [[seen + 1, -2], [True, -1], [str(seen + 2), -1]]}},
                {"go": {"token": "another session", "presses": [[seen + 1, -1]]}},
                {"go": {"presses": [[seen + 1, -1]]}}):
        at.session_state[navigation.KEYS_KEY] = bad
        at.run()
        no_exceptions(at)
        assert query(at)["step"] == "14"


def test_a_burst_of_presses_moves_one_step_per_press_in_order():
    """Presses the server had not taken yet arrive together (it was busy): each moves one step, in order,
    never past an end, and a click of Next in the same run counts in its place (the click first: its
    callback runs before the page)."""
    at = open_page(PAGE, query={"doc": "000", "step": "3"})
    presses(at, 1, 1, -1, 1, 1)  # 3 -> 4 -> 5 -> 4 -> 5 -> 6
    at.run()
    assert query(at)["step"] == "6" and at.session_state[navigation.SEEN_KEY] == 5
    presses(at, -1, -1, -1, -1, -1, -1, -1, 1)  # back to 1 (two presses hit the first step), then forward one
    at.run()
    assert query(at)["step"] == "2"
    presses(at, 1, 1)
    at.button(key="present_next").click().run()  # Next (2 -> 3) and two presses (-> 5)
    assert query(at)["step"] == "5"


def test_a_press_on_a_slow_server_is_not_undone_by_the_address_it_carries(monkeypatch):
    """A press sent before the browser had applied the previous run's address carries that older address
    (``step=2`` while the page shows 5): it is the browser lagging, not a new link, and must not put step 2
    back (this lost key presses on a loaded machine)."""
    at = open_page(PAGE, query={"doc": "000", "step": "2"})
    at = go(at, 5)
    assert query(at)["step"] == "5"
    at.query_params["step"] = "2"  # the address the browser still showed when the press was made
    presses(at, 1)
    at.run()
    assert query(at)["step"] == "6" and warnings(at) == []
    at.query_params["step"] = "5"
    at.button(key="present_next").click().run()  # a click carries the lagging address too
    assert query(at)["step"] == "7"
    at.query_params["theme"] = "light"  # was never dark: a toggle carried a lagging address
    at.button(key="present_theme_toggle").click().run()
    assert query(at).get("theme") == "dark" and query(at)["step"] == "7"
    # Any other run of the page keeps its step too (a component answering, st.rerun) ...
    at.query_params["step"] = "3"
    at.run()
    assert query(at)["step"] == "7"
    # ... but the browser's Back or Forward button opens the address it goes to.
    monkeypatch.setattr(ui_state, "_history_navigation", lambda: True)
    at.query_params["step"] = "3"
    at.run()
    assert query(at)["step"] == "3"


def test_buttons_stop_at_both_ends():
    at = open_page(PAGE, query={"doc": "000"})
    assert at.button(key="present_back").disabled
    at.button(key="present_next").click().run()
    assert query(at)["step"] == "2"
    at = go(at, 14)
    assert at.button(key="present_next").disabled


def test_step_kept_across_a_page_switch_and_a_new_link_read():
    at = open_page(PAGE, query={"doc": "000", "step": "7"})
    at.switch_page("pages/playground.py").run()
    no_exceptions(at)
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert at.session_state[link.STEP_KEY] == 7
    # a link opened later from another page (another document) replaces the lecture
    at.session_state[ui_state.LAST_PAGE_KEY] = "worked_examples"
    for name in list(at.query_params):
        del at.query_params[name]
    at.query_params["doc"] = "002"
    at.run()
    assert at.session_state["present_doc"] == "002-wiki" and at.session_state[link.STEP_KEY] == 1


def test_handout_buttons_and_playground_link():
    at = open_page(PAGE, query={"doc": "000"})
    assert {b.proto.label for b in at.get("download_button")} == {t("present.handout_a4"), t("present.handout_letter")}
    (link,) = [x for x in at.get("page_link") if x.proto.label == t("common.open_in_playground")]
    assert "discount=jarvelin" in link.proto.page or "jarvelin" in str(link.proto)


@pytest.mark.parametrize("query, refused", [
    ({"rels": "2000,1", "gain": "exponential"}, "rels"),          # too large for 2^rel − 1: the default ranking
    ({"rels": "3,x,1"}, "rels"),                                  # not grades: the default ranking
    ({"doc": "000", "gain": "cubic"}, "gain"),                    # another gain than asked for
])
def test_no_handout_of_another_lecture_than_the_link_asks_for(query, refused):
    """Issue 36: when Present refused a link's grades, its handout button still made a handout of the default
    ranking without a word.  It says why there is none, and stays so while the visitor steps through."""
    at = open_page(PAGE, query=query)
    no_exceptions(at)
    assert at.get("download_button") == []
    (info,) = [i.value for i in at.info if t("present.handout_refused").split("{")[0] in i.value]
    assert f"**{refused}**" in info
    at = go(at, 3)
    assert at.get("download_button") == [] and len(at.info) >= 1
    # a good link afterwards (a new arrival): the handout is back
    at.session_state[ui_state.LAST_PAGE_KEY] = "worked_examples"
    for name in list(at.query_params):
        del at.query_params[name]
    at.query_params["doc"] = "001"
    at.run()
    assert link.lecture_from_values({f.key: at.session_state[f.key] for f in link.FIELDS})[0].doc == "001-main"
    assert {b.proto.label for b in at.get("download_button")} == {t("present.handout_a4"), t("present.handout_letter")}


# ---- the "Present" links of the other pages open the same state ----------------------------------

def lecture_of(at) -> link.Lecture:
    return link.lecture_from_values({f.key: at.session_state[f.key] for f in link.FIELDS})[0]


def test_present_links_on_the_worked_examples():
    from urllib.parse import parse_qsl

    links = {}
    for doc in ("000", "001", "002", "003", "004"):  # the page may show one document at a time
        at = open_page("pages/worked_examples.py", query={"doc": doc})
        no_exceptions(at)
        for x in at.get("page_link"):
            if x.proto.label == t("present.open"):
                links[x.proto.query_string] = x.proto
    links = list(links.values())
    assert len(links) == sum(len(e.variants) for e in EXAMPLES.values())  # one per example and variant
    assert all(x.page == "present" for x in links)
    seen = []
    for x in links:
        at = open_page(PAGE, query=dict(parse_qsl(x.query_string)))
        no_exceptions(at)
        assert warnings(at) == [] and query(at)["step"] == "1"
        lecture = lecture_of(at)
        ex = EXAMPLES[lecture.doc]
        assert lecture.rels == ex.relevances and lecture.variant.k == ex.k
        assert sorted(lecture.pool or lecture.rels) == sorted(ex.pool or ex.relevances)
        seen.append((lecture.doc, lecture.variant.gain))
    assert ("001-book", "linear") in seen and ("001-book", "exponential") in seen


def test_present_link_on_the_playground():
    from urllib.parse import parse_qsl

    at = open_page("pages/playground.py", query={"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6",
                                                 "gain": "exponential"})
    no_exceptions(at)
    (link,) = [x.proto for x in at.get("page_link") if x.proto.label == t("present.open")]
    at = open_page(PAGE, query=dict(parse_qsl(link.query_string)))
    no_exceptions(at)
    lecture = lecture_of(at)
    assert (lecture.rels, lecture.unretrieved) == ((3, 2, 3, 0, 1, 2), (3, 0))
    assert (lecture.variant.k, lecture.variant.gain) == (6, "exponential")
    ndcg_step = next(i for i, s in enumerate(slides.steps(lecture), start=1) if s.kind == "ndcg")
    at = go(at, ndcg_step)
    assert big_number(at) == show_trimmed(ndcg([3, 2, 3, 0, 1, 2], k=6, gain="exponential",
                                                pool=[3, 2, 3, 0, 1, 2, 3, 0]))


@pytest.mark.parametrize("params", [
    {"rels": "0,0,0"},  # no relevant item: IDCG 0, NDCG taken as 0
    {"rels": "2"},  # one result
    {"rels": "3,1", "k": "5"},  # k past the end of the list
    {"rels": "1.5,0.25,3", "base": "10", "discount": "jarvelin"},  # fractional grades, ranks below b undiscounted
    {"rels": ",".join(str(i % 5) for i in range(40)), "unretrieved": "4,4", "idcg": "list"},  # 40 cards: capped
])
def test_edge_rankings_every_step(params):
    at = open_page(PAGE, query=params)
    no_exceptions(at)
    lecture = lecture_of(at)
    nums = slides.numbers(lecture)
    for i, step in enumerate(slides.steps(lecture), start=1):
        at = go(at, i)
        no_exceptions(at)
        assert query(at)["step"] == str(i)
        if step.kind == "ndcg":
            assert big_number(at) == show_trimmed(ndcg(list(lecture.rels), k=lecture.variant.k, pool=lecture.pool,
                                                       **lecture.variant.options))
            assert big_number(at) == show_trimmed(nums["ndcg"])
        if step.kind == "dcg":
            capped = t("present.more_cards", m=len(lecture.rels) - slides.CARD_CAP)
            assert (capped in html(at)) == (len(lecture.rels) > slides.CARD_CAP)  # cards capped, numbers use all


# ---- Present from the sidebar carries the playground's ranking (issue 36) ------------------------------

def sidebar(at, script: str):
    """A click in the sidebar's menu: the page's own address, without the last page's parameters."""
    for name in [n for n in at.query_params if n != "lang"]:
        del at.query_params[name]
    return at.switch_page(script).run()


@pytest.mark.parametrize("lang", LANGS)
def test_present_from_the_sidebar_shows_the_ranking_typed_on_the_playground(lang):
    """A lecturer types a ranking and changes settings on the playground, then clicks Present in the sidebar: that
    ranking and those settings, from the first step, in the address too; numbers from metrics/."""
    at = open_page("pages/playground.py", lang=lang)
    at.text_area(key="pg_rels").input("3 2 3 0 1 2").run()
    at.text_input(key="pg_unret").input("3, 0").run()
    at.selectbox(key="pg_gain").set_value("exponential").run()
    at.selectbox(key="pg_k").set_value(6).run()
    no_exceptions(at)
    at = sidebar(at, PAGE)
    no_exceptions(at)
    lecture = lecture_of(at)
    assert (lecture.rels, lecture.unretrieved) == ((3, 2, 3, 0, 1, 2), (3, 0))
    assert (lecture.variant.k, lecture.variant.gain, lecture.doc) == (6, "exponential", None)
    assert {k: v for k, v in query(at).items() if k != "lang"} == {
        "rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6", "gain": "exponential", "step": "1"}
    assert warnings(at) == [] and len(at.get("download_button")) == 2
    ndcg_step = next(i for i, s in enumerate(slides.steps(lecture), start=1) if s.kind == "ndcg")
    at = go(at, ndcg_step)
    assert big_number(at) == show_trimmed(ndcg([3, 2, 3, 0, 1, 2], k=6, gain="exponential",
                                                pool=[3, 2, 3, 0, 1, 2, 3, 0]))


def test_a_link_wins_and_an_unchanged_playground_leaves_the_lecture_alone():
    at = open_page("pages/playground.py")
    at.text_area(key="pg_rels").input("1 2").run()
    at = sidebar(at, PAGE)
    assert lecture_of(at).rels == (1, 2)
    # a worked example's Present link (a link of its own) is presented as it is
    at.switch_page("pages/worked_examples.py").run()
    for name in list(at.query_params):
        del at.query_params[name]
    at.query_params["doc"] = "001"
    at.switch_page(PAGE).run()
    assert lecture_of(at).doc == "001-main"
    at = go(at, 4)
    # a look at the playground without changing it, and back through the sidebar: document 001 at step 4
    at = sidebar(at, "pages/playground.py")
    at = sidebar(at, PAGE)
    assert lecture_of(at).doc == "001-main" and at.session_state[link.STEP_KEY] == 4
    # the playground changed: its ranking, from the first step
    at = sidebar(at, "pages/playground.py")
    at.text_area(key="pg_rels").input("0 1 0").run()
    at = sidebar(at, PAGE)
    assert lecture_of(at).rels == (0, 1, 0) and lecture_of(at).doc is None and query(at)["step"] == "1"


def test_a_gain_map_is_left_out_and_said_so():
    """Present steps through the linear and exponential gains; a playground's gain map (trec_eval's -m ndcg.L=G)
    gives the linear gain with a note, by the sidebar and by the playground's own Present link alike."""
    from urllib.parse import parse_qsl

    at = open_page("pages/playground.py", query={"rels": "3,2,1", "gain": "map", "gain_map": "0=0,1=1,2=5,3=9"})
    no_exceptions(at)
    (button,) = [x.proto for x in at.get("page_link") if x.proto.label == t("present.open")]
    at = sidebar(at, PAGE)
    no_exceptions(at)
    assert lecture_of(at).variant.gain == "linear" and lecture_of(at).rels == (3, 2, 1)
    assert any(t("present.gain_map_left_out") == i.value for i in at.info) and warnings(at) == []
    assert "gain" not in query(at) and "gain_map" not in query(at)
    linked = open_page(PAGE, query=dict(parse_qsl(button.query_string)))
    assert lecture_of(linked).variant.gain == "linear" and warnings(linked) == []
    assert any(t("present.gain_map_left_out") == i.value for i in linked.info)
    at = go(at, 3)  # the note stays with the lecture
    assert any(t("present.gain_map_left_out") == i.value for i in at.info)


@one_language_each("params, kind, said", [
    ({"rels": "1,2", "k": "6"}, "ranking", "say_cutoff_past"),
    ({"rels": "1000,5,2"}, "variants", "say_variants_same"),
    ({"rels": "1000,5,2"}, "ndcg", "say_ndcg_perfect"),
    ({"rels": "0,0,0"}, "ndcg", "say_ndcg_zero"),
    ({"rels": "2"}, "discounts", "say_discounts_one"),
    ({"rels": "0,1", "discount": "jarvelin"}, "ndcg", "say_ndcg_tie"),
], ids=["k-past-end", "variants-equal", "perfect", "nothing-relevant", "one-result", "flat-discount"])
def test_the_issue_s_links_say_something_true(lang, params, kind, said):
    """The sentence shown on the step is the catalogue's sentence for that case, in the page's language."""
    at = open_page(PAGE, lang=lang, query=params)
    lecture = lecture_of(at)
    step = next(i for i, s in enumerate(slides.steps(lecture), start=1) if s.kind == kind)
    at = go(at, step)
    no_exceptions(at)
    start = t(f"present.{said}", lang=lang).split("{")[0]
    assert start in html(at).replace("&#x27;", "'").replace("&quot;", '"')
    assert "from 1 to 1" not in html(at) and "1 到 1" not in html(at)
