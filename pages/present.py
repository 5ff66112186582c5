"""Present: NDCG one step per click or key, large type, light or dark, with a one-page handout.

Layout and wiring only: the lecture, its steps and their HTML are in ui/present.py, the charts in
ui/charts/present.py, the key listener in ui/components/keys, the handout in ui/handout.py; every number
comes from metrics/.
"""
from __future__ import annotations

import streamlit as st

from ui import handout
from ui import present as P
from ui import state as S
from ui.charts.present import discount_curve, gain_bars
from ui.components.keys import keys
from ui.escape import markdown
from ui.i18n import current_language, t
from ui.links import PLAYGROUND_PAGE
from ui.shell import open_page
from ui.widgets import copy_link, link_for

open_page("present")
# Collapsed here only; app.py asks for "auto" on every other page, so leaving this page restores it.
st.set_page_config(initial_sidebar_state="collapsed")
state = st.session_state
lang = current_language()
page = S.PageState(P.PAGE_ID, P.FIELDS)

lecture, build_problems = P.lecture_from_values(P.field_values(state))
total = len(P.steps(lecture))
P.take_keys(state, state.get(P.KEYS_KEY))  # before anything is drawn: the listener gets the step shown
step = state[P.STEP_KEY] = P.clamp_step(state.get(P.STEP_KEY), lecture)
theme = state.get(P.THEME_KEY) if state.get(P.THEME_KEY) in P.THEMES else "light"
palette = P.PALETTES[theme]
s = P.slide(lecture, step, lang)

st.html(P.page_css(theme))
# The key listener first, at a place no other element can shift: it is re-sent before anything a newer key
# press could interrupt, and never remounted (hidden by page_css; it draws nothing).
keys(key=P.KEYS_KEY, step=step, last=total, seen=state.get(P.SEEN_KEY, 0),
     on_go=lambda: P.take_keys(state, state.get(P.KEYS_KEY)))
head, nav = st.columns([2, 3], vertical_alignment="center", gap="small")
head.title(s.title)
nav = nav.container(horizontal=True, vertical_alignment="center", horizontal_alignment="right", key="present_nav")
nav.button(t("present.back"), key="present_back", icon=":material/arrow_back:", disabled=step <= 1,
           on_click=P.move, args=(state, -1, total))
nav.html(f'<div class="nl nl-step">{t("present.step_of", index=step, total=total)}</div>', width="content")
nav.button(t("present.next"), key="present_next", icon=":material/arrow_forward:", type="primary",
           disabled=step >= total, on_click=P.move, args=(state, 1, total))
nav.button(t("present.theme_light") if theme == "dark" else t("present.theme_dark"), key="present_theme_toggle",
           icon=":material/contrast:", on_click=P.toggle_theme, args=(state,))
page.show_link_problems()
for problem in build_problems:
    st.warning(t(f"present.param_{problem.kind}", message=markdown(problem.message, 120)), icon=":material/link_off:")

st.html(P.cards_html(s, lang))
left, right = st.columns([2, 3], gap="medium")
with left:
    st.html(P.number_html(s, lang))
with right:
    bd = P.numbers(lecture)["breakdown"]
    if s.variants is not None:
        st.html(P.variants_html(s, lang))
    elif s.chart == "curve":
        st.altair_chart(discount_curve(bd, lecture.n_terms, s.mark, palette, lang, height=190),
                        key="present_chart_curve")
    elif s.chart == "bars":
        st.altair_chart(gain_bars(bd, palette, lang, ideal=s.kind != "dcg", height=190), key="present_chart_bars")
    if s.printed:
        st.html(P.printed_html(s, lang))

if lecture.doc is not None:
    ex = lecture.example
    st.caption(t("present.example", doc=ex.doc, title=t(f"worked_examples.ex.{ex.key}.title")))
    if P.doc_changed(lecture):
        st.caption(t("present.doc_other_settings"))
st.caption(t("present.variant", name=P.variant_label(lecture, lang)) + " — " + t("present.keys_hint"))

row = st.container(horizontal=True, key="present_links")
row.page_link(PLAYGROUND_PAGE, label=t("common.open_in_playground"), icon=":material/open_in_new:",
              query_params=P.playground_query(lecture))

problem = handout.font_problem(lang)
if problem is None:
    for paper in handout.PAPERS:
        row.download_button(
            t(f"present.handout_{paper.lower()}"), key=f"present_handout_{paper.lower()}",
            data=lambda paper=paper: handout.build(lecture, lang, paper=paper, step=step, theme=theme),
            file_name=handout.file_name(lecture, paper), mime="application/pdf", on_click="ignore",
            icon=":material/picture_as_pdf:", help=t("present.handout_help"))
else:
    st.info(t("present.handout_unavailable", reason=markdown(problem, 200)))

with st.expander(t("common.link_title"), icon=":material/link:"):  # closed: the slide stays on one screen
    copy_link(link_for(P.PAGE_ID, page.query()), too_long=page.link_too_long)
page.finish()
