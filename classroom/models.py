"""The classroom tables (SQLAlchemy Core).  The schema is versioned by Alembic: these definitions
describe the newest revision in ``classroom/migrations/versions``; a change here needs a new revision
there (``tests/classroom/test_store.py`` checks that the two agree).

Times are seconds since the epoch (float, UTC): portable between SQLite and PostgreSQL.
Secrets are never stored: only the SHA-256 of the teacher's and each student's token.
"""
from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

sessions = Table(
    "class_sessions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(12), nullable=False, unique=True),
    Column("teacher_hash", String(64), nullable=False),
    Column("steps", String(80), nullable=False),  # comma-separated answer fields asked
    Column("round_no", Integer, nullable=False),  # the current round (exercise) number, from 1
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

rounds = Table(
    "class_rounds", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("task", Text, nullable=False),  # classroom.tasks.Task as JSON
    Column("created_at", Float, nullable=False),
    Column("revealed_at", Float, nullable=True),
    UniqueConstraint("session_id", "number", name="uq_round_number"),
)

students = Table(
    "class_students", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),  # join order in the session, from 1 (shown when names are hidden)
    Column("nickname", String(100), nullable=False),
    Column("nickname_key", String(100), nullable=False),  # case-folded, for uniqueness
    Column("token_hash", String(64), nullable=False),
    Column("joined_at", Float, nullable=False),
    UniqueConstraint("session_id", "number", name="uq_student_number"),
    UniqueConstraint("session_id", "nickname_key", name="uq_student_nickname"),
    Index("ix_student_token", "token_hash"),
)

answers = Table(
    "class_answers", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("student_id", Integer, ForeignKey("class_students.id", ondelete="CASCADE"), nullable=False),
    Column("round_id", Integer, ForeignKey("class_rounds.id", ondelete="CASCADE"), nullable=False),
    Column("field", String(16), nullable=False),  # classroom.tasks.FIELDS
    Column("text", String(400), nullable=False),
    Column("ok", Boolean, nullable=False),
    Column("kinds", String(400), nullable=False),  # comma-separated mistake kinds at this step
    Column("after_reveal", Boolean, nullable=False),
    Column("submission_id", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("student_id", "submission_id", name="uq_answer_submission"),
    Index("ix_answer_round", "round_id", "student_id"),
)
