"""Run files: evaluate TREC qrels and runs (or CSV/TSV) under every NDCG variant — does the winner change?

Layout and wiring only: the sections are drawn by ui/pages/run_files/sections.py; files, caching, names and
flips: ui/pages/run_files/view.py; charts: ui/charts/runfiles.py; numbers: metrics/runfiles.  The settings are
ui.state fields (kept across page switches, in the link); the files are not in links.  Tests drive the
uploaders (AppTest's ``file_uploader.set_value``) or put ``(name, bytes)`` pairs in
``st.session_state["rf_files"]`` directly.
"""
from __future__ import annotations

import streamlit as st

from ui.i18n import t
from ui.pages.run_files import sections
from ui.pages.run_files import view as runfiles_view
from ui.pages.run_files.significance import teaching_section
from ui.shell import page

SECTION = runfiles_view.SECTION
# The link box at the end holds the settings' complete address (files are never in links: said above the uploaders).
with page("run_files", runfiles_view.FIELDS, title=f"{SECTION}.title", link_title=None) as p:
    st.markdown(t(f"{SECTION}.intro"))
    sections.body(p)
    teaching_section(key_prefix="rf_teach")
    with st.expander(t(f"{SECTION}.about_title")):
        st.markdown(t(f"{SECTION}.about"))
        st.code("python -m metrics.runfiles data/samples/qrels.txt data/samples/*.run --k 10", language="bash")
