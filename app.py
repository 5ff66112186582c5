"""NDCG Lab: entry point.  `streamlit run app.py` opens the Playground.

Navigation over the page scripts in pages/ and the sidebar shared by every page (language).  Pages hold
layout and wiring only; numbers come from metrics/.  ``/`` forwards to ``/playground`` (ui/shell.py), so
every page, the playground too, has a real path that a link can open.
"""
from __future__ import annotations

from functools import partial

import streamlit as st

from ui.escape import markdown
from ui.i18n import LANGUAGES, STATE_KEY, t
from ui.shell import APP_CSS, home
from ui.widgets import label_function

# The sidebar's state is set once per run, below, when the page to run is known.
st.set_page_config(page_title="NDCG Lab", page_icon="📐", layout="wide")
st.html(APP_CSS)

# The language comes from ?lang= once per session, then from the sidebar widget.
if STATE_KEY not in st.session_state:
    wanted = st.query_params.get("lang", "en")
    st.session_state[STATE_KEY] = wanted if wanted in LANGUAGES else "en"
    st.session_state["_bad_lang"] = None if wanted in LANGUAGES else wanted

# (script, key = url path and title key, icon, group); the first one is the one "/" opens.
PAGES = [
    ("pages/playground.py", "playground", ":material/tune:", "group_ndcg"),
    ("pages/worked_examples.py", "worked_examples", ":material/menu_book:", "group_ndcg"),
    ("pages/variants.py", "variants", ":material/compare_arrows:", "group_ndcg"),
    ("pages/match.py", "match", ":material/manage_search:", "group_ndcg"),
    ("pages/diversity.py", "diversity", ":material/diversity_3:", "group_ndcg"),
    ("pages/check.py", "check", ":material/fact_check:", "group_ndcg"),
    ("pages/practice.py", "practice", ":material/school:", "group_ndcg"),
    ("pages/present.py", "present", ":material/slideshow:", "group_ndcg"),
    ("pages/topn.py", "topn", ":material/format_list_numbered:", "group_other"),
    ("pages/rating.py", "rating", ":material/star_half:", "group_other"),
    ("pages/roc.py", "roc", ":material/show_chart:", "group_other"),
    ("pages/run_files.py", "run_files", ":material/upload_file:", "group_data"),
    ("pages/class.py", "class", ":material/co_present:", "group_classroom"),
    ("pages/join.py", "join", ":material/login:", "group_classroom"),
]

groups: dict[str, list] = {}
pages = []
for script, key, icon, group in PAGES:
    page = st.Page(script, title=t(f"common.nav.{key}"), icon=icon, url_path=key)
    pages.append(page)
    groups.setdefault(t(f"common.nav.{group}"), []).append(page)
# "/" is a hidden page that forwards to the first page with the query string: the first page keeps its
# own path (/playground), so a copied link to it opens for every visitor.
start = st.Page(partial(home, pages[0]), title=pages[0].title, url_path="start", default=True,
                visibility="hidden")
first_group = next(iter(groups))
groups[first_group] = [start, *groups[first_group]]
# expanded=True: every page is listed (Streamlit otherwise folds the list after 10 under "View N more",
# which hid the classroom pages a teacher looks for).
navigation = st.navigation(groups, expanded=True)
# Present collapses the sidebar (the lecture takes the whole screen), every other page asks for "auto", which
# brings it back (an unchanged value never overrides what the visitor did with the sidebar).  One value per
# run: "auto" then "collapsed" in the same run made the sidebar flick open on some of Present's reruns.
st.set_page_config(initial_sidebar_state="collapsed" if navigation.url_path == "present" else "auto")

with st.sidebar:
    # Buttons, not a select: every language in view, one click or key press away, nothing that changes the
    # language while the keyboard only moves (WCAG 3.2.2); and their code is a small part of a later visit's
    # drawing time against the select's 21 files (benchmarks/drag_latency.py).
    # label_function: a str for any value the control may hold (a dict's get gave None to Streamlit's serializer)
    st.segmented_control(t("common.language"), list(LANGUAGES), key=STATE_KEY,
                         format_func=label_function(list(LANGUAGES), list(LANGUAGES.values())),
                         required=True)
    st.caption(t("common.about"))

if st.session_state.get("_bad_lang") and navigation is not start:  # "/" forwards: warn on the page itself
    st.warning(t("common.bad_lang", value=markdown(st.session_state["_bad_lang"], 20)))
    st.session_state["_bad_lang"] = None

# Keep the language in the address bar so a copied link opens in the same language.
lang = st.session_state[STATE_KEY]
if lang != "en" and st.query_params.get("lang") != lang:
    st.query_params["lang"] = lang
elif lang == "en" and "lang" in st.query_params:
    del st.query_params["lang"]

navigation.run()
