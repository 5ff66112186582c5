"""Classroom: live sessions where a class answers one exercise and the teacher sees the answers come in.

Storage and session logic only (SQLAlchemy 2, Alembic migrations; no Streamlit), so the store can be
used and tested without the app:

* :mod:`classroom.tasks` — the exercise of a round, checked by :mod:`metrics.lessons.diagnose`, and the
  one verdict on an answer (:func:`~classroom.tasks.verdict`) every view shows;
* :mod:`classroom.store` — sessions, join codes, tokens, seats, answers, the teacher's settings;
* :mod:`classroom.throttle` — per-client limits (browser session and address) kept in the database;
* :mod:`classroom.nicknames` — clean, visible nicknames and their UTS #39 confusable skeletons;
* :mod:`classroom.stats` — the teacher's summaries (counts, spread, first-try share, mistakes);
* :mod:`classroom.db` — the database URL, engines (SQLite WAL / PostgreSQL via psycopg 3) and migrations.

The pages are ``pages/class.py`` (``/class``) and ``pages/join.py`` (``/join``), drawn
by :mod:`ui.pages.classroom`.
"""
from .store import ClassroomError, Client, Limits, Seat, Store, Teacher
from .tasks import FIELDS, Task, Verdict, example_task, practice_task, ranking_task, verdict
