"""Run files: evaluate TREC qrels and runs (or CSV/TSV) under every NDCG variant — does the winner change?

Layout and wiring only: the sections are drawn by ui/runfiles_sections.py; files, caching, names and
flips: ui/runfiles_view.py; charts: ui/charts/runfiles.py; numbers: metrics/runfiles.  The settings are
ui.state fields (kept across page switches, in the link); the files are not in links.  Tests drive the
uploaders (AppTest's ``file_uploader.set_value``) or put ``(name, bytes)`` pairs in
``st.session_state["rf_files"]`` directly.
"""
from __future__ import annotations

import streamlit as st

from ui import runfiles_sections as sections
from ui import runfiles_view
from ui import state as ui_state
from ui.i18n import t
from ui.shell import open_page
from ui.significance_view import teaching_section
from ui.widgets import copy_link, link_for

open_page("run_files")
SECTION = runfiles_view.SECTION
page = ui_state.PageState("run_files", runfiles_view.FIELDS)

st.title(t(f"{SECTION}.title"))
page.show_link_problems()
st.markdown(t(f"{SECTION}.intro"))
sections.body(page)
teaching_section(key_prefix="rf_teach")
with st.expander(t(f"{SECTION}.about_title")):
    st.markdown(t(f"{SECTION}.about"))
    st.code("python -m metrics.runfiles data/samples/qrels.txt data/samples/*.run --k 10", language="bash")
# The settings' complete address (files are never in links: said above the uploaders).
copy_link(link_for("run_files", page.query()), too_long=page.link_too_long)
page.finish()
