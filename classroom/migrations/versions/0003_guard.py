"""Hostile use, third round (issue 37): removed students stay out, held clients wait for the teacher,
nicknames keep their grapheme clusters and drop accents in their keys.

* ``class_sessions.creator_address_hash``: where the class was created (a code is known there);
* ``class_students.nickname`` holds 24 grapheme clusters (up to 240 code points: emoji sequences);
  ``nickname_key`` recomputed with :func:`classroom.nicknames.skeleton`, which now drops inherited
  combining marks (``Adạ`` is ``Ada``); two old nicknames of one class that now share a key: the later one
  keeps its row with ``#id`` added to its key, as in 0002;
* ``class_removed``, ``class_waiting``, ``class_vouched`` (see classroom/models.py).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from classroom.nicknames import skeleton

    with op.batch_alter_table("class_sessions") as batch:
        batch.add_column(sa.Column("creator_address_hash", sa.String(64), nullable=True))
    with op.batch_alter_table("class_students") as batch:
        batch.alter_column("nickname", type_=sa.String(400), existing_type=sa.String(100), existing_nullable=False)

    bind = op.get_bind()
    students = sa.table("class_students", sa.column("id", sa.Integer), sa.column("session_id", sa.Integer),
                        sa.column("nickname", sa.String), sa.column("nickname_key", sa.String))
    rows = bind.execute(sa.select(students.c.id, students.c.session_id, students.c.nickname)
                        .order_by(students.c.id)).all()
    for r in rows:  # two passes, as in 0002: a new key never collides with an old one still waiting
        bind.execute(students.update().where(students.c.id == r.id).values(nickname_key=f"#migrating#{r.id}"))
    seen: set[tuple[int, str]] = set()
    for r in rows:
        key = skeleton(r.nickname)[:380]
        if (r.session_id, key) in seen:
            key = f"{key}#{r.id}"
        seen.add((r.session_id, key))
        bind.execute(students.update().where(students.c.id == r.id).values(nickname_key=key))

    op.create_table(
        "class_removed",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("nickname_key", sa.String(400), nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_removed_session", "class_removed", ["session_id"])
    op.create_table(
        "class_waiting",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.Integer, sa.ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("nickname", sa.String(400), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=True),
        sa.Column("address_hash", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("problem", sa.String(40), nullable=False, server_default=""),
    )
    op.create_index("ix_waiting_session", "class_waiting", ["session_id"])
    op.create_index("ix_waiting_token", "class_waiting", ["token_hash"])
    op.create_table(
        "class_vouched",
        sa.Column("session_id", sa.Integer, sa.ForeignKey("class_sessions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("address_hash", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("class_vouched")
    op.drop_table("class_waiting")
    op.drop_table("class_removed")
    with op.batch_alter_table("class_students") as batch:
        batch.alter_column("nickname", type_=sa.String(100), existing_type=sa.String(400), existing_nullable=False)
    with op.batch_alter_table("class_sessions") as batch:
        batch.drop_column("creator_address_hash")
