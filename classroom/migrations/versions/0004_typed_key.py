"""Look-alike nicknames that differ by letter case (red team F6): a second key, the skeleton in the case as
typed, so that ``BiII`` (capital i) is refused beside ``Bill`` and ``0LGA`` beside ``OLGA``.

* ``class_students.nickname_typed_key`` and ``class_removed.nickname_typed_key`` (see classroom/models.py),
  with a unique constraint per class on the students' one;
* the students' two keys recomputed (:func:`classroom.nicknames.skeletons`: accents now go before case
  folding, so U+0345 is an accent); two old nicknames of one class that now share a key: the later one keeps
  its row with ``#id`` added to that key, as in 0002 and 0003.  A removed student's nickname is not stored,
  so rows removed before keep their case-folded key only.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from classroom.nicknames import skeletons

    with op.batch_alter_table("class_removed") as batch:
        batch.add_column(sa.Column("nickname_typed_key", sa.String(400), nullable=True))
    with op.batch_alter_table("class_students") as batch:
        batch.add_column(sa.Column("nickname_typed_key", sa.String(400), nullable=True))

    bind = op.get_bind()
    students = sa.table("class_students", sa.column("id", sa.Integer), sa.column("session_id", sa.Integer),
                        sa.column("nickname", sa.String), sa.column("nickname_key", sa.String),
                        sa.column("nickname_typed_key", sa.String))
    rows = bind.execute(sa.select(students.c.id, students.c.session_id, students.c.nickname)
                        .order_by(students.c.id)).all()
    for r in rows:  # two passes: a new key never collides with an old one still waiting
        bind.execute(students.update().where(students.c.id == r.id).values(nickname_key=f"#migrating#{r.id}"))
    seen: set[tuple[int, int, str]] = set()
    for r in rows:
        keys = [k[:380] for k in skeletons(r.nickname)]
        for i, key in enumerate(keys):
            if (r.session_id, i, key) in seen:
                keys[i] = key = f"{key}#{r.id}"
            seen.add((r.session_id, i, key))
        bind.execute(students.update().where(students.c.id == r.id).values(nickname_key=keys[0],
                                                                            nickname_typed_key=keys[1]))
    with op.batch_alter_table("class_students") as batch:
        batch.create_unique_constraint("uq_student_typed_nickname", ["session_id", "nickname_typed_key"])


def downgrade() -> None:
    with op.batch_alter_table("class_students") as batch:
        batch.drop_constraint("uq_student_typed_nickname", type_="unique")
        batch.drop_column("nickname_typed_key")
    with op.batch_alter_table("class_removed") as batch:
        batch.drop_column("nickname_typed_key")
