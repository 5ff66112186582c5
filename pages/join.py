"""Classroom, student: join with the class code and answer step by step (``/join?code=...``).

Named after its URL path (``join``), as every page is (see pages/class.py).

Layout and wiring only: sessions and answers are in the classroom package, drawing in ui/pages/classroom/views.py.
The link keeps the class code and, once joined, the student's own token (``me``), so a reload or a
restarted server brings the student back to their answers.
"""
from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from ui.pages.classroom import views
from ui.shell import page

with page(views.JOIN_PAGE, state=views.join_state, title="classroom.join_title", link=False) as p:
    try:
        seat = views.seat_from_page(p)
        if seat is None:
            views.join_form(p)
        else:
            views.student_view(seat, p)
    except SQLAlchemyError:
        views.database_down()
