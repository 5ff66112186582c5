"""Classroom, student: join with the class code and answer step by step (``/join?code=...``).

Named after its URL path (``join``), as every page is (see pages/class.py).

Layout and wiring only: sessions and answers are in the classroom package, drawing in ui/classroom/views.py.
The link keeps the class code and, once joined, the student's own token (``me``), so a reload or a
restarted server brings the student back to their answers.
"""
from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ui.classroom import views
from ui.i18n import t
from ui.shell import open_page

open_page("join")
page = views.join_state()
st.title(t("classroom.join_title"))
page.show_link_problems()
try:
    seat = views.seat_from_page(page)
    if seat is None:
        views.join_form(page)
    else:
        views.student_view(seat, page)
except SQLAlchemyError:
    views.database_down()
page.finish()
