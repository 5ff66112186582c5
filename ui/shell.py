"""Make sure every page runs inside app.py's navigation.

Streamlit still has its legacy multipage mode: while no script in this server
process has called ``st.navigation``, a ``pages/`` folder beside the main
script makes Streamlit run a requested ``pages/<name>.py`` on its own.  When a
fresh server's first request is a shared link such as ``/playground?rels=...``,
the page would then render without app.py (no language, legacy sidebar), and
every later session too.  The legacy mode is on exactly when
``PagesManager.uses_pages_directory`` is True (``st.navigation`` sets it False),
so the first page script that sees it on turns it off and reruns: the rerun
executes app.py, whose ``st.navigation`` opens the same page (a page's identity
is its URL path, the same in both modes), with the query string intact.
"""
from __future__ import annotations


def leave_legacy_pages_mode() -> None:
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    if PagesManager.uses_pages_directory and get_script_run_ctx() is not None:
        import streamlit as st

        PagesManager.uses_pages_directory = False
        st.rerun()
