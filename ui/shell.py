"""The app around the pages: every page runs inside app.py's navigation, ``/`` and ``/playground`` both
open the playground, and one style sheet keeps numbers, buttons and selects whole on a projector or a phone
and every control's focus visible (WCAG 2.1 AA).

Every page script is one block, ``with page("roc", roc_ui.FIELDS, title="roc.title") as p:`` (:func:`page`):
what every page does first and last is done there, the page's own layout is the block.  It starts with
:func:`open_page`, which calls
:func:`through_app`, gives the browser tab the page's own translated title ("ROC & AUC · NDCG Lab"; app.py's
``st.set_page_config`` would otherwise name every page "NDCG Lab") and sets ``<html lang>`` to the
interface language with a small fixed script (:func:`lang_script`), which also repairs two pieces of
Streamlit's markup for screen readers (the page menu's lists, st.metric) and hides charts' drawings
behind their descriptions.

Streamlit still has its legacy multipage mode: while ``PagesManager.uses_pages_directory`` is True,
a ``pages/`` folder beside the main script makes Streamlit run a requested ``pages/<name>.py`` on
its own, without app.py (no language, no shared sidebar, a file-name menu).  The flag is set
process-wide from the folder's existence when the first session starts (``st.navigation`` turns it
off for good), and AppTest resets it before every run.  So every page calls :func:`through_app`
first: when the flag is on, it turns it off and reruns, and the rerun executes app.py, whose
``st.navigation`` opens the same page (a page's identity is its URL path, the same in both modes)
with the query string intact.  A one-time hook at import would not do: AppTest imports ``ui`` once
per process but resets the flag on every run (``tests/pages`` prove the pages run through app.py).

The default page answers at ``/``; a page's own path is its ``url_path``.  The playground has a real
path, ``/playground``: the default page is a hidden one that forwards to it (:func:`home`), query
string included, so ``/?rels=...`` and ``/playground?rels=...`` open the same view for every visitor.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from ui.i18n import LANGUAGE_TABLE

__all__ = ["APP_CSS", "FOCUS_DARK", "APP_NAME", "HTML_LANG", "page", "PAGE_RUNS", "open_page", "page_title",
           "lang_script", "through_app", "leave_legacy_pages_mode", "home", "slow_down"]

APP_NAME = "NDCG Lab"
#: ``<html lang>`` (BCP 47) for each interface language: simplified Chinese is ``zh-Hans``.
HTML_LANG = {code: lang.html for code, lang in LANGUAGE_TABLE.items()}


def slow_down(env: str, cap: float = 5.0) -> float:
    """Sleep the seconds the environment variable ``env`` names, at most ``cap`` (a server slowed on purpose,
    for tests: NDCG_LAB_PRESENT_SLOW, NDCG_LAB_CLASS_SLOW); return the seconds slept (0 when unset, not a
    number, NaN or negative).

    >>> slow_down("NDCG_LAB_NO_SUCH_VARIABLE")
    0.0
    """
    import os
    import time

    try:
        seconds = float(os.environ.get(env, "") or 0)
    except ValueError:
        return 0.0
    seconds = min(seconds, cap) if seconds > 0 else 0.0  # NaN and negatives: none
    if seconds:
        time.sleep(seconds)
    return seconds


def page_title(key: str) -> str:
    """The browser tab's title of page ``key`` in the visitor's language: ``"Playground · NDCG Lab"``."""
    from ui.i18n import t

    return f"{t(f'common.nav.{key}')} · {APP_NAME}"


# Two repairs of Streamlit's markup, re-applied whenever React redraws (fixed text, no user input):
# * the page menu puts each group's <header> and its links' <li> inside a <div> directly in the <ul> (axe:
#   "list" and "listitem", WCAG 1.3.1): the <ul> becomes a plain box and each group a list named by its
#   header (README, Accessibility);
# * st.metric is three loose paragraphs (label, value, delta): each becomes a group named by its own label
#   and value (aria-labelledby points at the visible text, so what is announced is what is shown);
# * a Vega chart's SVG is hidden from screen readers: the chart is announced by its description.
NAV_FIX_JS = """
(() => {
  if (window.__nlNavFix) return;
  window.__nlNavFix = true;
  let serial = 0;
  const ids = (el) => { if (!el.id) el.id = 'nl-a11y-' + (++serial); return el.id; };
  const metrics = () => {
    for (const m of document.querySelectorAll('[data-testid="stMetric"]')) {
      // the label's own text (not its help button), then the value
      const label = m.querySelector('[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"]')
        || m.querySelector('[data-testid="stMetricLabel"]');
      const value = m.querySelector('[data-testid="stMetricValue"]');
      if (!label || !value) continue;
      const by = ids(label) + ' ' + ids(value);
      if (m.getAttribute('role') !== 'group') m.setAttribute('role', 'group');
      if (m.getAttribute('aria-labelledby') !== by) m.setAttribute('aria-labelledby', by);
    }
  };
  // a chart is named by its description (ui/charts/access.py); its drawing is hidden from screen readers,
  // which would otherwise read every mark with its raw value (0.630929753571 where 0.6309 is shown)
  const charts = () => {
    for (const svg of document.querySelectorAll('[data-testid="stVegaLiteChart"] > svg')) {
      if (svg.getAttribute('aria-hidden') !== 'true') svg.setAttribute('aria-hidden', 'true');
    }
  };
  const fix = () => {
    metrics();
    charts();
    for (const ul of document.querySelectorAll('ul[data-testid="stSidebarNavItems"]')) {
      const groups = [...ul.children].filter((c) => c.tagName === 'DIV');
      if (!groups.length) continue;
      if (ul.getAttribute('role') !== 'none') ul.setAttribute('role', 'none');
      groups.forEach((g, i) => {
        if (g.getAttribute('role') !== 'list') g.setAttribute('role', 'list');
        const head = g.querySelector(':scope > header');
        if (!head) return;
        if (head.getAttribute('role') !== 'none') head.setAttribute('role', 'none');
        const text = head.querySelector('p');
        if (text && !text.id) text.id = 'nl-nav-group-' + i;
        if (text && g.getAttribute('aria-labelledby') !== text.id) g.setAttribute('aria-labelledby', text.id);
      });
    }
  };
  fix();
  new MutationObserver(fix).observe(document.body, {childList: true, subtree: true});
})();
"""


def lang_script(lang: str) -> str:
    """The page's script (fixed markup): ``<html lang>`` set to the interface language (``lang`` is one of
    :data:`HTML_LANG`'s keys, anything else gives ``en``), and the page menu's list markup repaired.

    >>> lang_script("zh").startswith('<script>document.documentElement.lang = "zh-Hans";')
    True
    """
    return f'<script>document.documentElement.lang = "{HTML_LANG.get(lang, "en")}";{NAV_FIX_JS}</script>'


def open_page(key: str) -> None:
    """The opening line of every page script: run through app.py (:func:`through_app`), give the browser
    tab the page's own translated title, and set ``<html lang>`` to the visitor's language.

    ``key`` is the page's key in app.py's PAGES (its URL path and ``common.nav.<key>`` title).
    """
    import streamlit as st

    from ui.i18n import current_language

    through_app()
    st.set_page_config(page_title=page_title(key))
    # st.html runs a script only outside the style-only path; in the sidebar's end it takes no room in the
    # page (the key container is hidden by APP_CSS; the script has run when it is inserted).
    with st.sidebar.container(key="nl_html_lang"):
        st.html(lang_script(current_language()), unsafe_allow_javascript=True)


#: How many runs of each page went through :func:`page` in this process (tests check every page does).
PAGE_RUNS: Counter[str] = Counter()


@contextmanager
def page(key: str, fields: Sequence = (), *, state: Callable | None = None, title: str | None = "",
         caption: str | None = None, intro: str | None = None, problems: bool = True, link: bool = True,
         link_title: str | None = "common.link_title", link_query: Callable[[dict], dict] | None = None,
         link_help: str | None = None, link_folded: bool = False, prepare: Callable | None = None,
         opened: bool = False, close: bool = True) -> Iterator:
    """What every page script does first and last, around the page's own layout (the ``with`` block).

    Parameters
    ----------
    key : str
        The page's key in app.py's PAGES: its URL path, its ``common.nav.<key>`` name, its link's page.
    fields : sequence of ui.state.Field
        The page's fields (:class:`ui.state.PageState`); ignored when ``state`` is given.
    state : callable, optional
        Makes the page state instead (the classroom pages: ``views.teacher_state``).
    title : str or None
        Catalogue key of the page's title; ``""`` (default) for ``common.nav.<key>``, None for no title (the
        page draws its own).
    caption, intro : str, optional
        Catalogue key of the text under the title, drawn as a caption or as Markdown.
    problems : bool
        Warn about the link's bad parameters under the title (False: the page calls
        ``p.show_link_problems()`` where it wants them).
    link : bool
        End with the box holding the view's complete address (False: the page has none or draws its own).
    link_title, link_query, link_help
        The box's heading (catalogue key; None for none), a function of ``p.query()`` giving the link's
        parameters (default: the page state's), and the catalogue key of its help line.
    link_folded : bool
        The box in a closed expander titled ``link_title`` (Present: the slide stays on one screen).
    prepare : callable, optional
        Called with the page state before anything is drawn.
    opened : bool
        The page script has already called :func:`open_page` (the playground, whose body is a fragment).
    close : bool
        False when the body ends the page itself (the playground's first run, which stops after its numbers):
        no ``finish`` and no link box.

    Yields
    ------
    ui.state.PageState
        The page state: the block reads its fields with ``p.typed(...)`` / ``p.value(...)``.

    Notes
    -----
    In order: :func:`open_page` (run through app.py, the tab's title, ``<html lang>``), the page state, the
    title, the caption or intro, the link's problems; then the block; then ``p.finish()`` (keep the values,
    write the address bar) and the link box.  An exception in the block propagates without the closing steps.
    """
    import streamlit as st

    from ui.i18n import t
    from ui.state import PageState

    if not opened:
        open_page(key)
    PAGE_RUNS[key] += 1
    p = state() if state is not None else PageState(key, fields)
    if prepare is not None:
        prepare(p)
    if title is not None:
        st.title(t(title or f"common.nav.{key}"))
    if caption:
        st.caption(t(caption))
    if intro:
        st.markdown(t(intro))
    if problems:
        p.show_link_problems()
    yield p
    if not close:
        return
    p.finish()
    if link:
        from ui.widgets import copy_link, link_for

        query = p.query() if link_query is None else link_query(p.query())
        if link_folded:
            with st.expander(t(link_title), icon=":material/link:"):
                copy_link(link_for(key, query), too_long=p.link_too_long, help=t(link_help) if link_help else None)
            return
        if link_title:
            st.subheader(t(link_title))
        copy_link(link_for(key, query), too_long=p.link_too_long, help=t(link_help) if link_help else None)


def through_app() -> None:
    """Call first in every page script: rerun through app.py if Streamlit ran the page on its own."""
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    if PagesManager.uses_pages_directory and get_script_run_ctx() is not None:
        import streamlit as st

        PagesManager.uses_pages_directory = False
        st.rerun()


#: The name ``ui/__init__.py`` calls at import (a first guard; pages call :func:`through_app` as well).
leave_legacy_pages_mode = through_app


def home(target) -> None:
    """The default page at ``/``: forward to ``target`` (the playground's page), keeping the query."""
    import streamlit as st

    st.switch_page(target, query_params=st.query_params.to_dict())


# Static rules only (no user text).  Streamlit cuts a metric's value, a button's label and a select's
# value with an ellipsis when the box is narrower than the text (a projector at 1024 px with the
# sidebar open, a phone): let them wrap instead, and size metric values with the viewport.
APP_CSS = """
<style>
[data-testid="stMetricValue"] > div { white-space: normal; overflow: visible; text-overflow: clip;
  overflow-wrap: anywhere; }
[data-testid="stMetricValue"] { font-size: clamp(1.35rem, 1rem + 1.2vw, 2.1rem); line-height: 1.2; }
[data-testid="stMetricLabel"] p, [data-testid="stMetricLabel"] > div { white-space: normal; overflow: visible;
  text-overflow: clip; }
[data-testid="stMetricDelta"], [data-testid="stMetricDelta"] > div, [data-testid="stMetricDelta"] p {
  white-space: normal; overflow: visible; text-overflow: clip; height: auto; max-width: 100%; }
[data-testid="stBaseButton-secondary"] p, [data-testid="stBaseButton-primary"] p,
[data-testid="stBaseButton-tertiary"] p { white-space: normal; overflow: visible; text-overflow: clip; }
[data-testid="stWidgetLabel"] p { white-space: normal; }
[data-testid="stSidebarNavLink"] span, [data-testid="stSidebarNavLink"] .stMarkdownEllipsis,
[data-testid="stSidebarNavLink"] .stMarkdownEllipsis p { white-space: normal; overflow: visible; text-overflow: clip; }
[data-testid="stSidebarNavLink"] { height: auto; min-height: 2rem; }
/* A collapsed sidebar stays in the page, off screen: its links and the language buttons would still take
   13 tab stops nobody can see (WCAG 2.4.3, 2.4.7).  Hidden, they leave the tab order until it opens. */
[data-testid="stSidebar"][data-collapsed="true"] [data-testid="stSidebarContent"] { visibility: hidden; }
/* a formula block spans its column (Streamlit shrinks it to the formula's width): a long one scrolls in it */
[data-testid="stMarkdown"] > div:has(.katex-display),
[data-testid="stMarkdown"] > div:has(.katex-display) > [data-testid="stMarkdownContainer"] {
  width: 100%; min-width: 0; }
.katex-display { overflow-x: auto; overflow-y: hidden; padding: 2px 0; }
/* formulas side by side in narrow columns (a container keyed compact_...): text size instead of display size */
[class*="st-key-compact_"] .katex-display > .katex { font-size: 0.95em; }
@media (max-width: 640px) { .katex-display > .katex { font-size: 1.05em; } }
/* A grid of columns stacks on a phone (Streamlit: 640 px and below), and its header row would then stand apart
   from the cells: the page keys the header row stackhead_... and a label in each cell stacked_...; the labels
   show only when the columns stack, the header row only when they do not. */
[class*="st-key-stacked_"] { display: none; }
@media (max-width: 640px) {
  [class*="st-key-stacked_"] { display: block; }
  [class*="st-key-stackhead_"] { display: none; }
}
.st-key-nl_html_lang { display: none; }
/* Tables drawn by ui/tables.py: whole in their column (headers wrap between words, numbers and short words do
   not), one block per row where the columns cannot fit (each table's own container query). */
.nl-tbl { container-type: inline-size; width: 100%; margin: 0.25rem 0 1rem; --nl-tbl-line: rgba(49, 51, 63, 0.25); }
.nl-tbl table { border-collapse: collapse; width: 100%; font-size: 0.875rem; line-height: 1.35; color: #31333f; }
.nl-tbl th, .nl-tbl td { padding: 0.3rem 0.45rem; border-bottom: 1px solid var(--nl-tbl-line); text-align: left;
  vertical-align: top; overflow-wrap: break-word; }
.nl-tbl th { font-weight: 600; background: #f0f2f6; vertical-align: bottom; }
.nl-tbl .n { text-align: right; font-variant-numeric: tabular-nums; }
.nl-tbl td.n { white-space: nowrap; }
.nl-tbl .w { white-space: nowrap; }
.nl-tbl td.ok { background: #e7f6ec; }
.nl-tbl td.bad { background: #fde2e2; color: #7f1d1d; }
.nl-tbl td.carried { background: #fef3c7; color: #713f12; }
.nl-tbl td.chosen { font-weight: 700; }
/* Korean breaks lines between words (spaces), never inside one: a narrow column wrapped "정확" into 정/확.  A
   word longer than its line still breaks (break-word), without shrinking columns to one syllable. */
html:lang(ko), html:lang(ko) body, html:lang(ko) :is(p, li, td, th, span, div, label) {
  word-break: keep-all; overflow-wrap: break-word; }
/* ... also inside st.table's cells, whose own rule (word-break: normal) is more specific: "뒷자리를" broke into
   뒷/자리를 in the classroom's mistakes table */
html:lang(ko) .stApp [data-testid="stTable"] :is(td, th) :is(p, div) { word-break: keep-all;
  overflow-wrap: break-word; }
/* A table's header is a label: never one character a line (the classroom's "学生数" stood as 学/生/数 beside a
   long column); a header longer than its column still breaks */
.stApp [data-testid="stTable"] th :is(p, div) { word-break: keep-all; overflow-wrap: break-word; }
/* Code blocks (a command to copy, an export) wrap instead of scrolling: a scrolling block is a region the
   keyboard cannot reach (axe scrollable-region-focusable), and wrapped, nothing is cut at the column's edge */
.stApp [data-testid="stCode"] pre, .stApp [data-testid="stCode"] pre code { white-space: pre-wrap !important;
  overflow-wrap: anywhere; }
/* Highlighted code at >= 4.5:1 on the block's near-white (Streamlit's numbers and options are 2.6:1 and 2.8:1) */
.stApp [data-testid="stCode"] .token:is(.comment, .prolog, .doctype, .cdata) { color: #57606a; }
.stApp [data-testid="stCode"] .token:is(.number, .boolean, .constant, .symbol) { color: #0f766e; }
.stApp [data-testid="stCode"] .token:is(.parameter, .variable, .property, .attr-name, .tag, .selector) {
  color: #0e7490; }
.stApp [data-testid="stCode"] .token:is(.string, .char, .attr-value, .url, .inserted) { color: #166534; }
.stApp [data-testid="stCode"] .token:is(.keyword, .function, .builtin, .class-name, .important, .atrule) {
  color: #7e22ce; }
.stApp [data-testid="stCode"] .token:is(.operator, .punctuation, .entity, .regex, .deleted) { color: #374151; }

/* ---- Accessibility (WCAG 2.1 AA; tests/browser/test_a11y*.py measure all of it) ----
   Keyboard focus: a 3 px ring in --nl-focus, 2 px away from the control, over a halo in --nl-focus-halo,
   so the ring keeps >= 3:1 against the control and the page whatever their colours (on a dark page the
   halo is what contrasts).  A page with its own dark theme sets both variables (ui.shell.FOCUS_DARK). */
:root { --nl-focus: #1d4ed8; --nl-focus-halo: #ffffff; --nl-muted-text: #575654; }
.stApp :focus-visible,
/* text fields, selects, number inputs: the ring goes on the field's frame (it would clip the input's) */
.stApp [data-baseweb="input"]:focus-within, .stApp [data-baseweb="textarea"]:focus-within,
.stApp [data-baseweb="select"] > div:focus-within, .stApp [data-testid="stNumberInputContainer"]:focus-within,
.stApp :is([data-testid="stSelectbox"], [data-testid="stMultiSelect"]) [data-rac][role="group"]:focus-within,
.stApp :is([data-testid="stTextAreaRootElement"], [data-testid="stTextInputRootElement"]):focus-within,
/* radios, checkboxes, toggles: the input is visually hidden, the ring goes on its label */
.stApp label:is([data-baseweb="radio"], [data-baseweb="checkbox"]):has(input:focus-visible),
.stApp label[data-rac]:has(> span > input:focus-visible) {
  outline: 3px solid var(--nl-focus) !important; outline-offset: 2px !important;
  box-shadow: 0 0 0 7px var(--nl-focus-halo) !important; border-radius: 4px; }
/* a table (a canvas grid; the focus moves between the canvas and its cells for screen readers): the ring
   goes around the grid whenever anything in it has focus (Chromium does not re-match :has() for the cells
   inside the canvas), the grid marks the cell itself */
.stApp :is([data-testid="stDataFrame"], [data-testid="stDataEditor"]):focus-within {
  outline: 3px solid var(--nl-focus) !important; outline-offset: 2px !important;
  box-shadow: 0 0 0 7px var(--nl-focus-halo) !important; }
.stApp [data-baseweb="input"] :is(input, textarea):focus-visible,
.stApp [data-baseweb="textarea"] textarea:focus-visible, .stApp [data-baseweb="select"] input:focus-visible,
.stApp [data-testid="stNumberInputContainer"] :is(input, [data-baseweb="input"]):is(:focus-visible, :focus-within),
.stApp :is([data-testid="stSelectbox"], [data-testid="stMultiSelect"]) [role="group"] input:focus-visible,
.stApp :is([data-testid="stTextAreaRootElement"], [data-testid="stTextInputRootElement"]) :focus-visible,
.stApp :is([data-testid="stDataFrame"], [data-testid="stDataEditor"]) :focus-visible:not(button) {
  outline: none !important; box-shadow: none !important; }
/* slider: the focused range input is hidden inside the thumb, which gets the ring */
.stApp [data-testid="stSlider"] div:has(> div > input[type="range"]:focus-visible) {
  outline: 3px solid var(--nl-focus) !important; outline-offset: 3px !important;
  box-shadow: 0 0 0 8px var(--nl-focus-halo) !important; }
/* inside clipping strips (tabs, page links, toolbars, code, expanders, the main area): the ring inside, its halo
   inside it */
.stApp :is([data-baseweb="tab"], [role="tab"], a[data-testid="stSidebarNavLink"]):focus-visible,
.stApp [data-testid="stElementToolbar"] button:focus-visible, .stApp [data-testid="stMain"]:focus-visible,
.stApp [data-testid="stCode"] :focus-visible, .stApp [data-testid="stExpander"] summary:focus-visible {
  outline-offset: -3px !important; box-shadow: inset 0 0 0 6px var(--nl-focus-halo) !important; }
/* a chart's toolbar shows itself to the keyboard (Streamlit shows it on hover, under the chart) */
.stApp [data-testid="stElementToolbar"]:focus-within { opacity: 1 !important; z-index: 1000 !important; }
/* the sidebar's current page: by weight and a bar, not by a 1.1:1 tint only */
.stApp a[data-testid="stSidebarNavLink"][aria-current="page"] { box-shadow: inset 4px 0 0 var(--nl-focus); }
.stApp a[data-testid="stSidebarNavLink"][aria-current="page"] p { font-weight: 700; }
/* Text >= 4.5:1: captions and quotes (Streamlit's are 3.9:1 on white) in --nl-muted-text (7:1 on white,
   6.3:1 on the sidebar's grey). */
div[data-testid="stCaptionContainer"], [data-testid="stMarkdownContainer"] blockquote {
  color: var(--nl-muted-text); opacity: 1; }
/* selected pills / segmented buttons: darker text (Streamlit's is 4.48:1 on its tint) and a thicker edge,
   so "selected" does not rest on a tint alone */
.stApp [data-testid="stButtonGroup"] [data-selected="true"],
.stApp [data-testid="stButtonGroup"] [data-selected="true"] p { color: #1d4ed8; }
.stApp [data-testid="stButtonGroup"] [data-selected="true"] { box-shadow: inset 0 0 0 1px #1d4ed8; }
.stApp [data-testid="stButtonGroup"] [data-selected="true"] p { font-weight: 600; }
/* a data grid wider than its column scrolls sideways: its scrollbar is drawn (5.1:1 on white) whether or not
   the pointer is over it (Streamlit paints it transparent until then: on a projector nothing showed that
   columns were missing) */
.stApp :is([data-testid="stDataFrame"], [data-testid="stDataEditor"]) .dvn-scroller {
  scrollbar-color: #6b6e76 transparent !important; }
/* visually hidden, read by screen readers (a chart's summary): containers keyed nl_sr_... */
[class*="st-key-nl_sr_"] { position: absolute !important; width: 1px !important; height: 1px !important;
  margin: -1px !important; padding: 0 !important; overflow: hidden !important; clip: rect(0 0 0 0) !important;
  clip-path: inset(50%) !important; white-space: nowrap !important; border: 0 !important; }
</style>
"""

#: The colours for a page drawn on a dark background (Present's dark theme): put inside its <style>.
#: A yellow ring (12.9:1 on #0b1220) over a halo of the page's own dark colour; muted text 12:1.
FOCUS_DARK = ".stApp { --nl-focus: #fcd34d; --nl-focus-halo: #0b1220; --nl-muted-text: #cbd5e1; }"
