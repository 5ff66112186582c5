"""Classroom, teacher: start a live session and watch the class answer (``/class``).

The file is named after its URL path (``class``) like every page: a fresh server's first request for
``/class`` finds it in Streamlit's legacy pages mode, and ``through_app`` reruns it through app.py.

Layout and wiring only: sessions and answers are in the classroom package, drawing in ui/pages/classroom/views.py.
Without a class the page offers the setup; with the private link (its key in the address's fragment, used
once; then this browser's cookie), the dashboard.
"""
from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from ui.pages.classroom import views
from ui.shell import page

with page(views.TEACHER_PAGE, state=views.teacher_state, title="classroom.teacher_title", link=False) as p:
    views.setting_problems()
    try:
        found = views.teacher_from_page(p)
        if found == views.OPENING:
            views.opening()
        elif found is None:
            views.setup(p)
        else:
            views.dashboard(p, *found)
    except SQLAlchemyError:
        views.database_down()
