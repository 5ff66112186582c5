"""Alembic environment: migrations run on the connection :func:`classroom.db.upgrade` passes in."""
from __future__ import annotations

from alembic import context

from classroom.models import metadata


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through classroom.db.upgrade(engine)")
    # render_as_batch: SQLite alters tables by copying them; Alembic does it for us in batch mode.
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True,
                      version_table="class_schema_version")
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # inside Alembic (importing this file elsewhere does nothing)
    run()
