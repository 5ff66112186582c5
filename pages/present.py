"""Present: NDCG one step per click or key, large type, light or dark, with a one-page handout.

Layout and wiring only: the ui/pages/present package holds the lecture and its link (link), its steps (slides), their
HTML (markup) and the moves between steps (navigation); the charts are in ui/charts/present.py, the key listener
in ui/components/keys, the handout in ui/pages/present/handout.py; every number comes from metrics/.
"""
from __future__ import annotations

from functools import partial

import streamlit as st

from ui.charts.present import discount_curve, gain_bars
from ui.components.keys import keys
from ui.escape import markdown
from ui.i18n import current_language, language, t
from ui.links import PLAYGROUND_PAGE
from ui.pages.present import handout, link, markup, navigation, slides
from ui.shell import page
from ui.widgets import base_url

# The sidebar is collapsed on this page by app.py (one sidebar state per run).
session = st.session_state
lang = current_language()
# A run started by a press or a click carries the browser's address of that moment, maybe a run behind:
# PageState does not read a run that continues the page as a new link.  The slide's title is drawn beside
# the buttons, the link's problems under them; the link box is in a closed expander (the slide stays on one screen).
# Opened from the sidebar, it presents the playground's ranking and settings (link.page_state), as its "Present"
# button would; a link's own lecture wins.
with page(link.PAGE_ID, link.FIELDS, state=partial(link.page_state, session, st.query_params), title=None,
          problems=False, link_folded=True) as p:
    lecture, build_problems = link.lecture_from_values(link.field_values(session))
    total = len(slides.steps(lecture))
    # Every key press not taken yet, in order, one step each (before anything is drawn: the listener gets the step
    # shown).
    navigation.take_keys(session, total)
    step = session[link.STEP_KEY] = slides.clamp_step(session.get(link.STEP_KEY), lecture)
    theme = session.get(link.THEME_KEY) if session.get(link.THEME_KEY) in link.THEMES else "light"
    palette = markup.PALETTES[theme]
    s = slides.slide(lecture, step, lang)

    st.html(markup.page_css(theme))
    # The key listener first, at a place no other element can shift, never remounted (hidden by page_css; it draws
    # nothing but the live region that announces each step).
    keys(key=navigation.KEYS_KEY, token=navigation.token(session), step=step, last=total,
         seen=session.get(navigation.SEEN_KEY, 0), announce=slides.announcement(s, lang),
         label=t("present.status_region"), lang=language(lang).html, buttons=navigation.BUTTONS)
    navigation.slow_rerun()  # a no-op unless a test slows the server down
    head, nav = st.columns([2, 3], vertical_alignment="center", gap="small")
    head.title(s.title, anchor=False)
    nav = nav.container(horizontal=True, vertical_alignment="center", horizontal_alignment="right", key="present_nav")
    nav.button(t("present.back"), key=navigation.BACK_KEY, icon=":material/arrow_back:", disabled=step <= 1,
               on_click=navigation.move, args=(session, -1, total))
    nav.html(f'<div class="nl nl-step">{t("present.step_of", index=step, total=total)}</div>', width="content")
    nav.button(t("present.next"), key=navigation.NEXT_KEY, icon=":material/arrow_forward:", type="primary",
               disabled=step >= total, on_click=navigation.move, args=(session, 1, total))
    nav.button(t("present.theme_light") if theme == "dark" else t("present.theme_dark"), key="present_theme_toggle",
               icon=":material/contrast:", on_click=navigation.toggle_theme, args=(session,))
    p.show_link_problems()
    if session.get(link.GAIN_MAP_KEY):
        st.info(t("present.gain_map_left_out"), icon=":material/info:")
    for problem in build_problems:
        st.warning(t(f"present.param_{problem.kind}", message=markdown(problem.message, 120),
                     value=markdown(problem.value, 40)),
                   icon=":material/link_off:")

    st.html(markup.cards_html(s, lang))
    if s.formulas:  # the formula slide: DCG and IDCG side by side (stacked on a phone), NDCG under them
        with st.container(key="present_formulas"):
            dcg_col, idcg_col = st.columns(2, gap="medium")
            dcg_col.latex(s.formulas["dcg"])
            idcg_col.latex(s.formulas["idcg"])
            st.latex(s.formulas["ndcg"])
    left, right = st.columns([2, 3], gap="medium")
    with left:
        st.html(markup.number_html(s, lang))
    with right:
        bd = slides.numbers(lecture)["breakdown"]
        # The document's printed numbers take the chart's place where both would not fit a projector's screen
        # (two rows of cards, or more than two printed numbers).
        table_first = markup.printed_first(s)
        if s.variants is not None:
            st.html(markup.variants_html(s, lang))
        elif table_first:
            st.html(markup.printed_html(s, lang))
        elif s.chart == "curve":
            st.altair_chart(discount_curve(bd, lecture.n_terms, s.mark, palette, lang, height=190),
                            key="present_chart_curve")
        elif s.chart == "bars":
            st.altair_chart(gain_bars(bd, palette, lang, ideal=s.kind != "dcg", height=190), key="present_chart_bars")
        if s.printed and not table_first:
            st.html(markup.printed_html(s, lang))

    if lecture.doc is not None:
        ex = lecture.example
        st.caption(t("present.example", doc=ex.doc, title=t(f"worked_examples.ex.{ex.key}.title")))
        if link.doc_changed(lecture):
            st.caption(t("present.doc_other_settings"))
    st.caption(t("present.variant", name=slides.variant_label(lecture, lang)) + " — " + t("present.keys_hint"))

    row = st.container(horizontal=True, key="present_links")
    row.page_link(PLAYGROUND_PAGE, label=t("common.open_in_playground"), icon=":material/open_in_new:",
                  query_params=link.playground_query(lecture))

    problem = handout.font_problem(lang)
    refused = link.refused_params(session, p.problems, build_problems, arrived=not p.continued)
    if refused:  # the lecture shown is not the one the link asked for: no handout of it
        st.info(t("present.handout_refused", params=", ".join(f"**{markdown(name)}**" for name in refused)),
                icon=":material/block:")
    elif problem is None:
        for paper in handout.PAPERS:
            row.download_button(
                t(f"present.handout_{paper.lower()}"), key=f"present_handout_{paper.lower()}",
                data=partial(handout.build, lecture, lang, paper=paper, step=step, theme=theme,
                             base=base_url("present")),
                file_name=handout.file_name(lecture, paper), mime="application/pdf", on_click="ignore",
                icon=":material/picture_as_pdf:", help=t("present.handout_help"))
    else:
        st.info(t("present.handout_unavailable", reason=markdown(problem, 200)))

# Test-only again, after the address is written: presses made now carry the address the browser has, which can
# be a run behind (the run is not interrupted any more; a request sent now waits for it to end).
navigation.slow_rerun()
