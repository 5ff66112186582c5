"""The app around the pages: every page runs inside app.py's navigation, ``/`` and ``/playground`` both
open the playground, and one style sheet keeps numbers, buttons and selects whole on a projector or a phone.

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

__all__ = ["APP_CSS", "through_app", "leave_legacy_pages_mode", "home"]


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
/* A collapsed sidebar stays in the page, off screen: its links and the language select would still take
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
</style>
"""
