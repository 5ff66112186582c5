"""Classroom, teacher: start a live session and watch the class answer (``/class``).

The file is named after its URL path (``class``) like every page: a fresh server's first request for
``/class`` finds it in Streamlit's legacy pages mode, and ``through_app`` reruns it through app.py.

Layout and wiring only: sessions and answers are in the classroom package, drawing in ui/classroom/views.py.
Without a class the page offers the setup; with the private link (its key in the address's fragment, used
once; then this browser's cookie), the dashboard.
"""
from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ui.classroom import views
from ui.i18n import t
from ui.shell import open_page

open_page("class")
page = views.teacher_state()
st.title(t("classroom.teacher_title"))
page.show_link_problems()
views.setting_problems()
try:
    found = views.teacher_from_page(page)
    if found == views.OPENING:
        views.opening()
    elif found is None:
        views.setup(page)
    else:
        views.dashboard(page, *found)
except SQLAlchemyError:
    views.database_down()
page.finish()
