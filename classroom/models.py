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
    false,
    true,
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
    # What the teacher chose (revision 0002): students may join; feedback before the reveal ("concept":
    # right/wrong and the mistake's name, "value": also the right value); nicknames on the dashboard.
    Column("joining_open", Boolean, nullable=False, server_default=true()),
    Column("feedback", String(12), nullable=False, server_default="concept"),
    Column("show_names", Boolean, nullable=False, server_default=false()),
    # The salted hash of the address the class was created from (revision 0003): a code is "known" there.
    Column("creator_address_hash", String(64), nullable=True),
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
    Column("nickname", String(400), nullable=False),  # 24 grapheme clusters, at most 240 code points (0003)
    # UTS #39 skeleton of the case-folded nickname (classroom.nicknames.skeleton): look-alikes collide.
    Column("nickname_key", String(400), nullable=False),
    # The skeleton in the case as typed (revision 0004; classroom.nicknames.typed_skeleton): "BiII" is "Bill".
    Column("nickname_typed_key", String(400), nullable=True),
    Column("token_hash", String(64), nullable=False),
    Column("joined_at", Float, nullable=False),
    # Who joined (revision 0002), as salted hashes: the browser session and the network address.
    Column("session_hash", String(64), nullable=True),
    Column("address_hash", String(64), nullable=True),
    # A seat code the teacher handed out to give the seat back (hash, valid until).
    Column("reclaim_hash", String(64), nullable=True),
    Column("reclaim_until", Float, nullable=True),
    UniqueConstraint("session_id", "number", name="uq_student_number"),
    UniqueConstraint("session_id", "nickname_key", name="uq_student_nickname"),
    UniqueConstraint("session_id", "nickname_typed_key", name="uq_student_typed_nickname"),
    Index("ix_student_token", "token_hash"),
    Index("ix_student_reclaim", "reclaim_hash"),
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
    Column("notes", String(400), nullable=False, server_default=""),  # notes (never mistakes), revision 0002
    Column("after_reveal", Boolean, nullable=False),
    Column("submission_id", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("student_id", "submission_id", name="uq_answer_submission"),
    Index("ix_answer_round", "round_id", "student_id"),
)

teacher_tokens = Table(
    # Tokens that open a class's dashboard besides the key given at creation (revision 0002): one per
    # browser that opened the private link (kept in that browser's cookie), so the key leaves the address bar.
    "class_teacher_tokens", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_teacher_token", "token_hash"),
)

throttle = Table(
    # Per-client limits shared by every app server (revision 0002).  ``key``: action, kind of client and
    # the client's salted hash.  ``count``/``window_start``: a fixed-window rate; ``fails``/``blocked_until``:
    # failed guesses and the growing delay they earn.
    "class_throttle", metadata,
    Column("key", String(120), primary_key=True),
    Column("count", Integer, nullable=False),
    Column("window_start", Float, nullable=False),
    Column("fails", Integer, nullable=False),
    Column("last_fail", Float, nullable=False),
    Column("blocked_until", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_throttle_updated", "updated_at"),
)

removed = Table(
    # Students the teacher removed (revision 0003): their number is not given again, and their nickname
    # (its skeleton), browser session and token (the cookie their browser keeps) cannot join that class again.
    "class_removed", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("nickname_key", String(400), nullable=False),
    Column("nickname_typed_key", String(400), nullable=True),  # revision 0004 (NULL for rows removed before)
    Column("session_hash", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    Index("ix_removed_session", "session_id"),
)

waiting = Table(
    # Joins from a client held for wrong codes (revision 0003): kept, never answered, until the teacher lets
    # them in (classroom.store.Teacher.admit_waiting).  Only joins naming a live class are kept, but the
    # client is told the same thing either way, so a held guesser learns nothing from a code.
    "class_waiting", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("class_sessions.id", ondelete="CASCADE"), nullable=False),
    Column("nickname", String(400), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("session_hash", String(64), nullable=True),
    Column("address_hash", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("problem", String(40), nullable=False, server_default=""),  # why letting in failed (a refusal kind)
    Index("ix_waiting_session", "session_id"),
    Index("ix_waiting_token", "token_hash"),
)

vouched = Table(
    # Addresses the teacher let in (revision 0003): their students join this class even while the address
    # is held for wrong codes (the class's code is no secret to them: it is on their projector).
    "class_vouched", metadata,
    Column("session_id", Integer, ForeignKey("class_sessions.id", ondelete="CASCADE"), primary_key=True),
    Column("address_hash", String(64), primary_key=True),
    Column("created_at", Float, nullable=False),
)
