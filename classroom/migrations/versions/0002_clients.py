"""A lecture hall: the teacher's choices, per-client limits, browser tokens, look-alike nicknames, notes.

* ``class_sessions``: ``joining_open``, ``feedback``, ``show_names`` (every piece of class state in the
  database, so several app servers show one class);
* ``class_students``: ``nickname_key`` becomes the UTS #39 skeleton (recomputed here for the rows there
  are; when two old nicknames of one class share a skeleton the later one keeps its row with ``#id``
  added to its key), the hashes of who joined, a seat code the teacher hands out;
* ``class_answers.notes``; ``class_teacher_tokens``; ``class_throttle``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from classroom.nicknames import skeleton

    with op.batch_alter_table("class_sessions") as batch:
        batch.add_column(sa.Column("joining_open", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("feedback", sa.String(12), nullable=False, server_default="concept"))
        batch.add_column(sa.Column("show_names", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("class_students") as batch:
        batch.alter_column("nickname_key", type_=sa.String(400), existing_type=sa.String(100),
                           existing_nullable=False)
        batch.add_column(sa.Column("session_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("address_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("reclaim_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("reclaim_until", sa.Float, nullable=True))
        batch.create_index("ix_student_reclaim", ["reclaim_hash"])
    with op.batch_alter_table("class_answers") as batch:
        batch.add_column(sa.Column("notes", sa.String(400), nullable=False, server_default=""))

    bind = op.get_bind()
    students = sa.table("class_students", sa.column("id", sa.Integer), sa.column("session_id", sa.Integer),
                        sa.column("nickname", sa.String), sa.column("nickname_key", sa.String))
    rows = bind.execute(sa.select(students.c.id, students.c.session_id, students.c.nickname)
                        .order_by(students.c.id)).all()
    # Two passes so a new key never collides with an old key still waiting for its turn.
    for r in rows:
        bind.execute(students.update().where(students.c.id == r.id).values(nickname_key=f"#migrating#{r.id}"))
    seen: set[tuple[int, str]] = set()
    for r in rows:
        key = skeleton(r.nickname)[:380]
        if (r.session_id, key) in seen:
            key = f"{key}#{r.id}"
        seen.add((r.session_id, key))
        bind.execute(students.update().where(students.c.id == r.id).values(nickname_key=key))

    op.create_table(
        "class_teacher_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_teacher_token", "class_teacher_tokens", ["token_hash"])
    op.create_table(
        "class_throttle",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("window_start", sa.Float, nullable=False),
        sa.Column("fails", sa.Integer, nullable=False),
        sa.Column("last_fail", sa.Float, nullable=False),
        sa.Column("blocked_until", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_throttle_updated", "class_throttle", ["updated_at"])


def downgrade() -> None:
    op.drop_table("class_throttle")
    op.drop_table("class_teacher_tokens")
    with op.batch_alter_table("class_answers") as batch:
        batch.drop_column("notes")
    with op.batch_alter_table("class_students") as batch:
        batch.drop_index("ix_student_reclaim")
        for name in ("reclaim_until", "reclaim_hash", "address_hash", "session_hash"):
            batch.drop_column(name)
        batch.alter_column("nickname_key", type_=sa.String(100), existing_type=sa.String(400),
                           existing_nullable=False)
    with op.batch_alter_table("class_sessions") as batch:
        for name in ("show_names", "feedback", "joining_open"):
            batch.drop_column(name)
