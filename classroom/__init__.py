"""Classroom: live sessions where a class answers one exercise and the teacher sees the answers come in.

Storage and session logic only (SQLAlchemy 2, Alembic migrations; no Streamlit), so the store can be
used and tested without the app:

* :mod:`classroom.tasks` — the exercise of a round, checked by :mod:`metrics.lessons.diagnose`;
* :mod:`classroom.store` — sessions, join codes, tokens, answers, limits;
* :mod:`classroom.stats` — the teacher's summaries (counts, spread, first-try share, mistakes);
* :mod:`classroom.db` — the database URL, engines (SQLite WAL / PostgreSQL via psycopg 3) and migrations.

The pages are ``pages/class.py`` (``/class``) and ``pages/join.py`` (``/join``), drawn
by :mod:`ui.classroom`.
"""
from .store import ClassroomError, Seat, Store, Teacher
from .tasks import FIELDS, Task, example_task, practice_task, ranking_task
