"""Classroom sessions, rounds, students and answers.

Revision ID: 0001
Revises:
Create Date: 2026-11-24
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "class_sessions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(12), nullable=False, unique=True),
        sa.Column("teacher_hash", sa.String(64), nullable=False),
        sa.Column("steps", sa.String(80), nullable=False),
        sa.Column("round_no", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "class_rounds",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("task", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("revealed_at", sa.Float, nullable=True),
        sa.UniqueConstraint("session_id", "number", name="uq_round_number"),
    )
    op.create_table(
        "class_students",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("nickname", sa.String(100), nullable=False),
        sa.Column("nickname_key", sa.String(100), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.UniqueConstraint("session_id", "number", name="uq_student_number"),
        sa.UniqueConstraint("session_id", "nickname_key", name="uq_student_nickname"),
    )
    op.create_index("ix_student_token", "class_students", ["token_hash"])
    op.create_table(
        "class_answers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("class_students.id", ondelete="CASCADE"), nullable=False),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("class_rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("field", sa.String(16), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("ok", sa.Boolean, nullable=False),
        sa.Column("kinds", sa.String(400), nullable=False),
        sa.Column("after_reveal", sa.Boolean, nullable=False),
        sa.Column("submission_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("student_id", "submission_id", name="uq_answer_submission"),
    )
    op.create_index("ix_answer_round", "class_answers", ["round_id", "student_id"])


def downgrade() -> None:
    op.drop_table("class_answers")
    op.drop_table("class_students")
    op.drop_table("class_rounds")
    op.drop_table("class_sessions")
