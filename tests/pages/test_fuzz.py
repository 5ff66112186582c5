"""Hostile input on every page, through app.py: no exception, every message names the bad value, no markup
from a link or a field, the last valid state kept.

Pages are enumerated from ``app.py``'s ``PAGES`` (parsed, not imported) and their link parameters and
typed fields from :data:`ui.state.REGISTRY`, which a page fills when it runs: a new page is covered as
soon as it is in ``PAGES``.  A page that does not declare its fields through :mod:`ui.state` yet gets
the global ``lang`` parameter, an unknown parameter and its text boxes (found in the rendered page).

Each hypothesis example opens one page with one to three hostile link parameters, then types one
hostile value into one of its text boxes: two script runs.  ``FUZZ_EXAMPLES`` (environment; default 6
under the ``ci`` Hypothesis profile, scaled by the profile) sets the examples per page; the examples are
derandomized, so CI runs the same cases every time.
"""
from __future__ import annotations

import ast
import functools
import os
import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT, examples
from tests.gfm import links
from ui import state as ui_state
from ui.escape import WORD_JOINER, markdown, shorten
from ui.i18n import LANGUAGES

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or examples(6))


def app_pages() -> list[tuple[str, str]]:
    """``(script, url path)`` of every page in app.py's ``PAGES`` list."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "PAGES" for t in node.targets):
            return [(e.elts[0].value, e.elts[1].value) for e in node.value.elts]
    raise AssertionError("app.py has no PAGES list")


PAGES = app_pages()

# --- hostile values ---------------------------------------------------------------------------------
UNICODE_DIGITS = ["①", "፩", "²", "³", "٣", "𝟗", "９", "Ⅻ", "߁", "1①"]
NUMBERS = ["9" * 4301, "9007199254740993", "1" + "0" * 400, "1e308", "-1e308", "1e309", "1e-400", "nan", "NaN",
           "inf", "-inf", "Infinity", "0x10", "1_000", "−1", "1e99999", "-0", "0", "1,1e308,-1e308", "3,2,①",
           "4294967296", "-9223372036854775809"]
INJECTIONS = ["![](//evil.example/x)", "[x](//evil.example)", "$\\huge PWN$", "<img src=//evil.example/x>",
              "<script>alert(1)</script>", "\\href{//evil.example}{x}", "**b** _i_ `c`", "# h", "- item",
              ":material/warning:", "{}{0}{name}", "%s%n", "a: ![](//evil.example/x) | $\\huge PWN$"]
FORMULAS = ['=HYPERLINK("//evil.example","x")', "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3", "\t=1", "\r=1"]
BLANKS = ["", " ", "\t\n", "\u200b", "\u202e", "\x00", "\n\n\n"]
LONG = ["x" * 30_000, "1," * 12_000, "3 " * 12_000, "é" * 21_000]
FIXED = UNICODE_DIGITS + NUMBERS + INJECTIONS + FORMULAS + BLANKS + LONG
EVIL = ("evil.example", "PWN")

hostile = st.one_of(
    st.sampled_from(FIXED),
    st.text(max_size=40),
    st.integers(-(10**30), 10**30).map(str),
    st.floats().map(repr),
    st.lists(st.sampled_from(["1", "0", "2.5", "-1", "x", "①", "1e308", "", "nan"]), max_size=8).map(",".join),
)


# --- what a page declares ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Survey:
    fields: tuple          # ui.state Fields (empty for a page not on ui.state yet)


def _open(script: str, query: dict[str, str]) -> AppTest:
    """Run app.py with ``query`` and switch to ``script`` (like tests.conftest.open_page, but the
    language is left to the link, so ``lang`` is fuzzed too)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(script)
    at.run()
    return at


@functools.cache
def survey(script: str, page: str) -> Survey:
    at = _open(script, {})
    assert not at.exception, f"{page} fails with no input at all: {[e.value for e in at.exception]}"
    entry = ui_state.REGISTRY.get(page)
    return Survey(entry.fields if entry else ())


def text_boxes(at) -> list[tuple[str, str, int]]:
    """``(kind, key, max_chars)`` of every keyed text box the run shows (max_chars 0: no limit)."""
    return ([("text_area", w.key, w.proto.max_chars) for w in at.text_area if w.key]
            + [("text_input", w.key, w.proto.max_chars) for w in at.text_input if w.key])


# --- checks -----------------------------------------------------------------------------------------
TEXT_KINDS = ("markdown", "caption", "warning", "error", "info", "success", "title", "header", "subheader")
UNESCAPED = [re.compile(p) for p in (r"(?<!\\)!\[", r"(?<!\\)\]\((?://|https?:)", r"(?<!\\)<img",
                                     r"(?<!\\)<script", r"(?<!\\)\$\\huge")]


def shown(at, kinds=TEXT_KINDS) -> list[str]:
    out = []
    for kind in kinds:
        out += [str(e.value) for e in getattr(at, kind)]
    return out


def assert_clean(at, where: str) -> None:
    """No exception; no injected Markdown/HTML/LaTeX rendered live."""
    assert not at.exception, f"{where}: exception {[str(e.value)[:300] for e in at.exception]}"
    for text in shown(at):
        if any(e in text for e in EVIL):
            for pattern in UNESCAPED:
                assert not pattern.search(text), f"{where}: live markup {pattern.pattern!r} in {text[:300]!r}"
    for formula in (e.value for e in at.latex):
        assert "\\huge" not in formula and "\\href" not in formula, f"{where}: LaTeX command from input: {formula!r}"


def names_value(message: str, raw: str) -> bool:
    """Whether ``message`` quotes ``raw`` as ui.escape would show it (the first 12 characters suffice:
    pages shorten long values to 20 or 40)."""
    head = shorten(raw, 12)
    return markdown(head.rstrip("…"), 0) in message


def parse_problem(f: ui_state.Field, raw: str) -> ui_state.BadValue | None:
    """What ``f``'s parser says about ``raw`` (None: accepted)."""
    try:
        f.parse(raw)
    except ui_state.BadValue as exc:
        return exc
    return None


def expected_problem(f: ui_state.Field, raw: str) -> ui_state.BadValue | None:
    """What ui.state reports for this link value of ``f`` (None: accepted); over-long values are refused
    before parsing."""
    if len(raw) > ui_state.MAX_PARAM_CHARS:
        return ui_state.BadValue(raw, "too_long", "")
    return parse_problem(f, raw)


def kept_values(at, page: str) -> dict:
    store = at.session_state[f"_state.{page}"] if f"_state.{page}" in at.session_state else None
    return dict(store.values) if store is not None else {}


def test_every_page_is_surveyed():
    # the list the fuzz test walks: every page of app.py, each opening cleanly with no input
    assert len(PAGES) >= 9
    params = {page: [f.param for f in survey(script, page).fields if f.param] for script, page in PAGES}
    assert params["topn"] == ["users", "n", "prec", "hr", "arhr", "user"]
    assert params["rating"] == ["true", "pred", "pair"] and params["roc"] == ["scores", "labels", "step"]


@pytest.mark.parametrize("script, page", PAGES, ids=[p for _, p in PAGES])
def test_link_parameters_are_declared_once(script, page):
    names = [f.param for f in survey(script, page).fields if f.param]
    twice = sorted({n for n in names if names.count(n) > 1})
    assert not twice, f"{page}: link parameter(s) {twice} declared by more than one field: {names}"


@pytest.mark.parametrize("script, page", PAGES, ids=[p for _, p in PAGES])
@settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_hostile_link_and_text(script, page, data):
    s = survey(script, page)
    by_param = {f.param: f for f in s.fields if f.param}
    names = sorted(by_param) + ["lang", "zz_unknown"]
    chosen = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True), label="params")
    query = {name: data.draw(hostile, label=name) for name in chosen}

    # 1. the link
    at = _open(script, query)
    where = f"/{page}?{ {k: v[:60] for k, v in query.items()} }"
    assert_clean(at, where)
    warnings = [w.value for w in at.warning]
    for name, raw in query.items():
        f = by_param.get(name)
        problem = expected_problem(f, raw) if f is not None else None
        if problem is not None:
            assert any(markdown(name, 40) in w and names_value(w, problem.value) for w in warnings), (
                f"{where}: no message naming {name!r} and its value: {warnings}")
        if name == "lang" and raw not in LANGUAGES and raw:
            assert any(names_value(w, raw) for w in warnings), f"{where}: no message naming the language: {warnings}"
        # any message about this parameter names the value it was given
        for w in warnings:
            if w.startswith(f"**{markdown(name, 40)}**"):
                assert names_value(w, raw) or (problem is not None and names_value(w, problem.value)), (
                    f"{where}: message about {name!r} does not name its value: {w!r}")

    # 2. one of its text boxes (those this run shows: a link may change what the page asks for)
    boxes = text_boxes(at)
    if boxes:
        kind, key, max_chars = data.draw(st.sampled_from(boxes), label="field")
        text = data.draw(hostile, label="text")
        if max_chars:
            text = text[:max_chars]  # what a browser lets one type into the box
        before = kept_values(at, page)
        box = getattr(at, kind)(key=key).input(text)
        if box.form_id:  # a form's boxes reach the server with its submit (the join form): typed, then submitted
            next(b for b in at.button if b.form_id == box.form_id).click()
        at.run()
        where = f"/{page} field {key!r} = {text[:60]!r}"
        assert_clean(at, where)
        held = getattr(at, kind)(key=key).value
        same = held == text
        assert same, f"{where}: what was typed is lost (the box holds {str(held)[:60]!r})"
        # a box ui.state knows: a bad value is named in a message and the last valid value is kept
        f = next((f for f in s.fields if f.key == key and f.text is not None), None)
        problem = parse_problem(f, text) if f is not None else None
        if problem is not None:
            errors = [e.value for e in at.error]
            named = any(names_value(e, problem.value) for e in errors)
            assert named, f"{where}: no message naming the value: {[e[:200] for e in errors]}"
            kept = kept_values(at, page).get(key) == before.get(key)
            assert kept, f"{where}: the last valid value was not kept"


# --- autolinks: no message carries a live link ---------------------------------------------------------
#: Values that GFM (remark-gfm, which Streamlit uses) turns into links when shown as they are.
AUTOLINK_VALUES = ("www.example.com", "https://example.com/a", "me@example.com", "HTTP://EXAMPLE.COM/x",
                   "3,www.example.com,1")
ALERT_KINDS = ("warning", "error", "info", "success")


def _payload_links(at) -> list[str]:
    """Links a rendered message would draw: any link at all in an alert, and any link to the payloads'
    domain anywhere else (pages' own links to the playground are fine)."""
    bad = []
    for text in shown(at, ALERT_KINDS):
        bad += [f"{u} in {text[:120]!r}" for u in links(text)]
    for text in shown(at, ("markdown", "caption", "title", "header", "subheader")) + _labels(at):
        bad += [f"{u} in {text[:120]!r}" for u in links(text) if "example" in u.lower()]
    return bad


def _labels(at) -> list[str]:
    """Labels Streamlit renders as Markdown: expanders, tabs, metrics (label and value), buttons."""
    out = [str(e.label) for kind in ("expander", "tabs", "button") for e in getattr(at, kind)]
    return out + [str(x) for m in at.metric for x in (m.label, m.value)]


@pytest.mark.parametrize("script, page", PAGES, ids=[p for _, p in PAGES])
def test_no_message_carries_a_live_link(script, page):
    """Every link parameter of the page (and ``lang``) and every text box get autolink-shaped values, in
    rotation so each parameter meets each value; the warnings and errors that echo them make no link."""
    s = survey(script, page)
    names = sorted(f.param for f in s.fields if f.param) + ["lang"]
    echoed = False
    for turn in range(len(AUTOLINK_VALUES)):
        query = {name: AUTOLINK_VALUES[(i + turn) % len(AUTOLINK_VALUES)] for i, name in enumerate(names)}
        at = _open(script, query)
        assert_clean(at, f"/{page}?{query}")
        assert _payload_links(at) == [], f"/{page}?{query}"
        echoed |= any(WORD_JOINER in text for text in shown(at, ALERT_KINDS))
        # every text box at once (one run)
        boxes = text_boxes(at)
        for i, (kind, key, max_chars) in enumerate(boxes):
            value = AUTOLINK_VALUES[(i + turn) % len(AUTOLINK_VALUES)]
            getattr(at, kind)(key=key).input(value[:max_chars] if max_chars else value)
        if boxes:
            at.run()
            assert_clean(at, f"/{page} text boxes, turn {turn}")
            assert _payload_links(at) == [], f"/{page} text boxes, turn {turn}: {boxes}"
            echoed |= any(WORD_JOINER in text for text in shown(at, ALERT_KINDS))
    # the sweep reached the messages: some message echoed one of the values (escaped: it holds a joiner)
    if page not in NEVER_ECHOES:
        assert echoed, f"/{page}: no message echoed a value, so no message was checked"


#: Pages that echo no link value in a message: /join answers an unknown code or token with a fixed sentence.
NEVER_ECHOES = {"join"}
