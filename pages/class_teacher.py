"""Classroom, teacher: start a live session and watch the class answer (``/class``).

Layout and wiring only: sessions and answers are in the classroom package, drawing in ui/classroom/views.py.
Without ``code`` and ``key`` in the link the page offers the setup; with the private link, the dashboard.
"""
from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ui.classroom import views as V
from ui.i18n import t

page = V.teacher_state()
st.title(t("classroom.teacher_title"))
page.show_link_problems()
try:
    teacher = V.teacher_from_page(page)
    if teacher is None:
        V.setup(page)
    else:
        V.dashboard(page, teacher)
except SQLAlchemyError:
    V.database_down()
page.finish()
