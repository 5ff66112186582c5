"""Classroom sessions in a database: create, join, answer, reveal, next exercise.  No Streamlit here.

Roles are objects you only get with the right secret:

* :meth:`Store.create` returns the teacher's token once (only its SHA-256 is stored);
  :meth:`Store.teacher` turns ``(code, token)`` into a :class:`Teacher` (constant-time compare), the one
  way to the answers of a class, the reveal, the next exercise and the results.
* :meth:`Store.join` returns a student's :class:`Seat` and token; :meth:`Store.seat` finds the seat again
  from ``(code, token)`` (after a reload or a server restart).  A seat reads only its own answers.

Every answer is committed on its own before the student sees the feedback, so a killed server loses
nothing that was acknowledged.  A submission carries an id chosen by the client: sending it again (a
retry after a network error, a double click) returns the stored answer instead of a second row.

Limits (per session, :class:`Limits`): join codes expire after 12 hours; at most 200 students, 60 joins
a minute; nicknames of at most 24 characters; answers of at most 300 characters, 20 a minute and 100 per
exercise per student.  Bad input or a limit raises :class:`ClassroomError` (a ValueError) with a ``kind``
for a translated message.

>>> from classroom.tasks import practice_task
>>> store = Store("sqlite://")  # in memory, for this example
>>> info, token = store.create(practice_task(7, "easy"), fields=("dcg", "ndcg"))
>>> len(info.code), set(info.code) <= set(CODE_ALPHABET), len(token) >= 32
(6, True, True)
>>> seat, _ = store.join(info.code, "  Ada\\n <b>L</b>  ")
>>> seat.nickname, seat.number
('Ada <b>L</b>', 1)
>>> a = seat.submit(1, "dcg", "9.99", submission_id="s1")
>>> a.ok, a.duplicate, seat.submit(1, "dcg", "9.99", submission_id="s1").duplicate
(False, False, True)
>>> teacher = store.teacher(info.code, token)
>>> len(teacher.answers()), store.teacher(info.code, "wrong") is None
(1, True)
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from . import db
from .models import answers, rounds, sessions, students
from .tasks import FIELDS, Task, step_verdict

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "Limits", "ClassroomError", "ClassInfo", "RoundInfo", "Answer",
           "Store", "Teacher", "Seat", "normalise_code", "clean_nickname"]

#: Join-code characters: no look-alikes (no 0/O/Q/D? D stays; no 1/I/L, 2/Z, 5/S, 6/G, 8/B).
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479"
CODE_LENGTH = 6


@dataclass(frozen=True)
class Limits:
    """Per-session limits.  Times in seconds."""

    code_ttl: float = 12 * 3600
    max_students: int = 200
    joins_per_minute: int = 60
    nickname_chars: int = 24
    answer_chars: int = 300
    answers_per_minute: int = 20
    answers_per_round: int = 100
    max_rounds: int = 50


class ClassroomError(ValueError):
    """A refused request.  ``kind`` names the reason (for a translated message), ``params`` its numbers."""

    def __init__(self, kind: str, message: str, **params):
        super().__init__(message)
        self.kind = kind
        self.params = params


@dataclass(frozen=True)
class ClassInfo:
    id: int
    code: str
    fields: tuple[str, ...]
    round_no: int
    created_at: float
    expires_at: float

    def expired(self, now: float) -> bool:
        return now >= self.expires_at


@dataclass(frozen=True)
class RoundInfo:
    id: int
    number: int
    task: Task
    revealed: bool


@dataclass(frozen=True)
class Answer:
    id: int
    field: str
    text: str
    ok: bool
    kinds: tuple[str, ...]
    after_reveal: bool
    created_at: float
    duplicate: bool = False  # True when this submission id had been stored before


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _same(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(_hash(token).encode(), stored_hash.encode())


_NOT_CODE = re.compile(r"[^0-9A-Z]")


def normalise_code(text) -> str:
    """A code as typed (any case, spaces, dashes, full-width) in its stored form.

    >>> normalise_code(" acd-ef３ ")
    'ACDEF3'
    """
    return _NOT_CODE.sub("", unicodedata.normalize("NFKC", str(text)[:40]).upper())


def clean_nickname(text, limit: int = 24) -> str:
    """A nickname on one line, without control or format characters, at most ``limit`` characters.

    The text itself is kept (pages escape it where they show it).

    >>> clean_nickname("  Bo\\u202e\\t b  ")
    'Bo b'
    >>> clean_nickname("x" * 40, 5)
    'xxxxx'
    """
    text = unicodedata.normalize("NFKC", str(text)[:400])
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    return " ".join(text.split())[:limit].strip()


@lru_cache(maxsize=256)
def _task(text: str) -> Task:
    return Task.from_json(text)


def _round(row) -> RoundInfo:
    return RoundInfo(id=row.id, number=row.number, task=_task(row.task), revealed=row.revealed_at is not None)


def _info(row) -> ClassInfo:
    return ClassInfo(id=row.id, code=row.code, fields=tuple(row.steps.split(",")), round_no=row.round_no,
                     created_at=row.created_at, expires_at=row.expires_at)


def _answer(row, duplicate: bool = False) -> Answer:
    return Answer(id=row.id, field=row.field, text=row.text, ok=bool(row.ok),
                  kinds=tuple(k for k in row.kinds.split(",") if k), after_reveal=bool(row.after_reveal),
                  created_at=row.created_at, duplicate=duplicate)


class Store:
    """The classroom database.  ``url``: a SQLAlchemy URL, else ``$NDCG_LAB_DB_URL``, else the SQLite
    default (:func:`classroom.db.database_url`).  ``clock`` gives the time (tests move it)."""

    def __init__(self, url: str | None = None, *, limits: Limits | None = None,
                 clock: Callable[[], float] = time.time):
        self.url = db.database_url(url)
        self.engine = db.engine_for(self.url)
        self.limits = limits or Limits()
        self.clock = clock
        self._pulses: dict[int, tuple[float, tuple[int, bool]]] = {}

    # ------------------------------------------------------------------ teacher
    def create(self, task: Task, *, fields: Sequence[str] = FIELDS) -> tuple[ClassInfo, str]:
        """A new session on ``task``, asking ``fields``; returns it and the teacher's token."""
        asked = tuple(f for f in FIELDS if f in set(fields))
        unknown = [f for f in fields if f not in FIELDS]
        if unknown or not asked:
            raise ClassroomError("fields", f"fields must be some of {', '.join(FIELDS)}, got {list(fields)[:8]}")
        token = secrets.token_urlsafe(32)
        now = self.clock()
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with db.write(self.engine) as conn:
                    sid = conn.execute(sessions.insert().values(
                        code=code, teacher_hash=_hash(token), steps=",".join(asked), round_no=1, created_at=now,
                        expires_at=now + self.limits.code_ttl)).inserted_primary_key[0]
                    conn.execute(rounds.insert().values(session_id=sid, number=1, task=task.to_json(), created_at=now))
            except IntegrityError:  # the code is taken (by a live or an expired session): draw another
                continue
            return ClassInfo(sid, code, asked, 1, now, now + self.limits.code_ttl), token
        raise ClassroomError("busy", "could not find a free join code")  # pragma: no cover - 22**6 codes

    def teacher(self, code, token) -> Teacher | None:
        """The teacher's handle on session ``code``, or None when the code or the token is wrong.

        Works after the code expired (results stay readable; students can no longer join or answer).
        """
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        row = self._session_row(normalise_code(code))
        if row is None:
            _same(token, "0" * 64)  # the same work either way
            return None
        if not _same(token, row.teacher_hash):
            return None
        return Teacher(self, _info(row))

    # ------------------------------------------------------------------ students
    def open(self, code) -> ClassInfo:
        """The session a join code names, if it is open (raises ``unknown_code`` / ``expired``)."""
        row = self._session_row(normalise_code(code))
        if row is None:
            raise ClassroomError("unknown_code", f"no class has the code {normalise_code(code)[:12]!r}")
        info = _info(row)
        if info.expired(self.clock()):
            raise ClassroomError("expired", f"the class {info.code} has ended")
        return info

    def join(self, code, nickname) -> tuple[Seat, str]:
        """Join session ``code`` as ``nickname``; returns the seat and the student's token."""
        info = self.open(code)
        name = clean_nickname(nickname, self.limits.nickname_chars)
        if not name:
            raise ClassroomError("nickname_empty", "the nickname is empty")
        token = secrets.token_urlsafe(24)
        now = self.clock()
        try:
            with db.write(self.engine) as conn:
                # PostgreSQL: lock the session row so two joins cannot take the same number or pass the cap.
                conn.execute(select(sessions.c.id).where(sessions.c.id == info.id).with_for_update())
                count, recent, top = conn.execute(select(
                    func.count(students.c.id),
                    func.count(students.c.id).filter(students.c.joined_at > now - 60),
                    func.max(students.c.number)).where(students.c.session_id == info.id)).one()
                if count >= self.limits.max_students:
                    raise ClassroomError("full", f"the class has {count} students, the most allowed",
                                         limit=self.limits.max_students)
                if recent >= self.limits.joins_per_minute:
                    raise ClassroomError("rate_join", "too many joins this minute; try again in a minute")
                key = name.casefold()
                taken = conn.execute(select(students.c.id).where(
                    students.c.session_id == info.id, students.c.nickname_key == key)).first()
                if taken:
                    raise ClassroomError("nickname_taken", "this nickname is taken in this class")
                number = (top or 0) + 1
                sid = conn.execute(students.insert().values(
                    session_id=info.id, number=number, nickname=name, nickname_key=key, token_hash=_hash(token),
                    joined_at=now)).inserted_primary_key[0]
        except IntegrityError as exc:  # a join raced this one (SQLite serialises writes; PostgreSQL locks)
            raise ClassroomError("nickname_taken", "this nickname is taken in this class") from exc
        return Seat(self, info, sid, number, name), token

    def seat(self, code, token) -> Seat | None:
        """A student's seat from the code and their token (None if either is wrong)."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        row = self._session_row(normalise_code(code))
        if row is None:
            return None
        with db.read(self.engine) as conn:
            st = conn.execute(select(students).where(students.c.session_id == row.id,
                                                      students.c.token_hash == _hash(token))).first()
        if st is None or not _same(token, st.token_hash):
            return None
        return Seat(self, _info(row), st.id, st.number, st.nickname)

    # ------------------------------------------------------------------ shared reads
    def pulse(self, session_id: int, *, max_age: float = 1.0) -> tuple[int, bool]:
        """(current round number, solution revealed): what a student's page polls for.

        A class of 30 polls ten times a second; the answer is read from the database at most once per
        ``max_age`` seconds per session and process (a teacher's reveal or next exercise in this process
        updates it at once; one in another process is seen within ``max_age``).
        """
        now = time.monotonic()
        cached = self._pulses.get(session_id)
        if cached is not None and now - cached[0] < max_age:
            return cached[1]
        with db.read(self.engine) as conn:
            row = conn.execute(select(sessions.c.round_no, rounds.c.revealed_at).join(
                rounds, (rounds.c.session_id == sessions.c.id) & (rounds.c.number == sessions.c.round_no)).where(
                sessions.c.id == session_id)).one()
        value = (row.round_no, row.revealed_at is not None)
        self._pulses[session_id] = (now, value)
        return value

    def round(self, session_id: int, number: int | None = None) -> RoundInfo:
        """Round ``number`` (default: the current one) of a session."""
        with db.read(self.engine) as conn:
            if number is None:
                number = conn.execute(select(sessions.c.round_no).where(sessions.c.id == session_id)).scalar_one()
            row = conn.execute(select(rounds).where(rounds.c.session_id == session_id,
                                                    rounds.c.number == number)).one()
        return _round(row)

    def info(self, session_id: int) -> ClassInfo:
        with db.read(self.engine) as conn:
            return _info(conn.execute(select(sessions).where(sessions.c.id == session_id)).one())

    def _session_row(self, code: str):
        if not code or len(code) > 12:
            return None
        with db.read(self.engine) as conn:
            return conn.execute(select(sessions).where(sessions.c.code == code)).first()


@dataclass
class Seat:
    """One student in one session.  Reads and writes only this student's answers."""

    store: Store
    info: ClassInfo
    id: int
    number: int
    nickname: str

    def answers(self, round_no: int) -> list[Answer]:
        """This student's answers in round ``round_no``, oldest first."""
        with db.read(self.store.engine) as conn:
            rows = conn.execute(select(answers).join(rounds, rounds.c.id == answers.c.round_id).where(
                answers.c.student_id == self.id, rounds.c.session_id == self.info.id,
                rounds.c.number == round_no).order_by(answers.c.id)).all()
        return [_answer(r) for r in rows]

    def latest(self, round_no: int) -> dict[str, str]:
        """Field -> this student's last answer text in round ``round_no``."""
        return {a.field: a.text for a in self.answers(round_no)}

    def submit(self, round_no: int, field: str, text: str, *, submission_id: str) -> Answer:
        """Check and store one answer (committed before returning).

        ``submission_id`` is chosen by the client, once per answer: the same id again returns the stored
        answer (``duplicate=True``).  Raises :class:`ClassroomError` for a closed or ended exercise, a field
        not asked, empty / too long / unreadable text, or a rate limit.
        """
        store, lim = self.store, self.store.limits
        sub = str(submission_id)[:64]
        if not sub:
            raise ClassroomError("submission_id", "a submission needs an id")
        if field not in self.info.fields:
            raise ClassroomError("field", f"{str(field)[:20]!r} is not asked in this class")
        text = str(text)
        if len(text) > lim.answer_chars:
            raise ClassroomError("too_long", f"an answer has at most {lim.answer_chars} characters",
                                 limit=lim.answer_chars)
        text = " ".join(text.split())
        if not text:
            raise ClassroomError("empty", "the answer is empty")
        now = store.clock()
        if self.info.expired(now):
            raise ClassroomError("expired", "the class has ended")
        with db.read(store.engine) as conn:
            done = conn.execute(select(answers).where(answers.c.student_id == self.id,
                                                      answers.c.submission_id == sub)).first()
            if done is not None:
                return _answer(done, duplicate=True)
            current = _round(conn.execute(select(rounds).join(sessions, sessions.c.id == rounds.c.session_id).where(
                sessions.c.id == self.info.id, rounds.c.number == sessions.c.round_no)).one())
        if current.number != round_no:
            raise ClassroomError("round_closed", "the teacher has moved on to another exercise")
        given = self.latest(round_no)
        given[field] = text
        try:
            verdict_ok, kinds = step_verdict(current.task.check(given), field)
        except ValueError as exc:
            raise ClassroomError("unreadable", str(exc)) from exc
        try:
            with db.write(store.engine) as conn:
                done = conn.execute(select(answers).where(answers.c.student_id == self.id,
                                                          answers.c.submission_id == sub)).first()
                if done is not None:
                    return _answer(done, duplicate=True)
                recent, in_round = conn.execute(select(
                    func.count(answers.c.id).filter(answers.c.created_at > now - 60),
                    func.count(answers.c.id).filter(answers.c.round_id == current.id)).where(
                    answers.c.student_id == self.id)).one()
                if recent >= lim.answers_per_minute:
                    raise ClassroomError("rate_answer", "too many answers this minute; wait a moment",
                                         limit=lim.answers_per_minute)
                if in_round >= lim.answers_per_round:
                    raise ClassroomError("too_many", "too many answers for this exercise",
                                         limit=lim.answers_per_round)
                revealed = conn.execute(select(rounds.c.revealed_at).where(rounds.c.id == current.id)).scalar_one()
                row = dict(student_id=self.id, round_id=current.id, field=field, text=text, ok=verdict_ok,
                           kinds=",".join(kinds), after_reveal=revealed is not None, submission_id=sub,
                           created_at=now)
                aid = conn.execute(answers.insert().values(**row)).inserted_primary_key[0]
        except IntegrityError:  # the same submission raced itself: return the stored one
            with db.read(store.engine) as conn:
                done = conn.execute(select(answers).where(answers.c.student_id == self.id,
                                                          answers.c.submission_id == sub)).one()
            return _answer(done, duplicate=True)
        return Answer(id=aid, field=field, text=text, ok=verdict_ok, kinds=kinds, after_reveal=revealed is not None,
                      created_at=now)


@dataclass
class Teacher:
    """The teacher's handle on one session (only :meth:`Store.teacher` makes one)."""

    store: Store
    info: ClassInfo
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def refresh(self) -> ClassInfo:
        self.info = self.store.info(self.info.id)
        return self.info

    def round(self, number: int | None = None) -> RoundInfo:
        return self.store.round(self.info.id, number)

    def reveal(self) -> None:
        """Show the solution of the current round to every student."""
        with db.write(self.store.engine) as conn:
            number = conn.execute(select(sessions.c.round_no).where(sessions.c.id == self.info.id)).scalar_one()
            conn.execute(update(rounds).where(rounds.c.session_id == self.info.id, rounds.c.number == number,
                                              rounds.c.revealed_at.is_(None)).values(revealed_at=self.store.clock()))
        self.store._pulses.pop(self.info.id, None)

    def next_round(self, task: Task) -> RoundInfo:
        """Start the next exercise (every student's page follows)."""
        now = self.store.clock()
        with db.write(self.store.engine) as conn:
            number = conn.execute(select(sessions.c.round_no).where(sessions.c.id == self.info.id)
                                  .with_for_update()).scalar_one()
            if number >= self.store.limits.max_rounds:
                raise ClassroomError("too_many_rounds", "this class has had the most exercises allowed",
                                     limit=self.store.limits.max_rounds)
            rid = conn.execute(rounds.insert().values(session_id=self.info.id, number=number + 1,
                                                      task=task.to_json(), created_at=now)).inserted_primary_key[0]
            conn.execute(update(sessions).where(sessions.c.id == self.info.id).values(round_no=number + 1))
        self.store._pulses.pop(self.info.id, None)
        self.refresh()
        return RoundInfo(rid, number + 1, task, False)

    def version(self, round_no: int) -> tuple[int, int, int, int]:
        """(students, answers in round ``round_no``, newest answer id, revealed): changes whenever what the
        dashboard shows changes, so its summaries can be reused until then (one cheap query)."""
        with db.read(self.store.engine) as conn:
            n_students = conn.execute(select(func.count(students.c.id)).where(
                students.c.session_id == self.info.id)).scalar_one()
            n, newest, revealed = conn.execute(
                select(func.count(answers.c.id), func.max(answers.c.id), func.max(rounds.c.revealed_at))
                .select_from(rounds.outerjoin(answers, answers.c.round_id == rounds.c.id))
                .where(rounds.c.session_id == self.info.id, rounds.c.number == round_no)).one()
        return int(n_students), int(n), int(newest or 0), int(revealed is not None)

    def students(self) -> pd.DataFrame:
        """One row per student: number, nickname, joined_at."""
        with db.read(self.store.engine) as conn:
            rows = conn.execute(select(students.c.id, students.c.number, students.c.nickname, students.c.joined_at)
                                .where(students.c.session_id == self.info.id).order_by(students.c.number)).all()
        return pd.DataFrame(rows, columns=["student_id", "number", "nickname", "joined_at"])

    def answers(self, round_no: int | None = None) -> pd.DataFrame:
        """Every answer (of round ``round_no``, default all rounds), oldest first."""
        q = (select(rounds.c.number.label("round"), answers.c.id, answers.c.student_id,
                    students.c.number, students.c.nickname, answers.c.field, answers.c.text, answers.c.ok,
                    answers.c.kinds, answers.c.after_reveal, answers.c.created_at)
             .join(rounds, rounds.c.id == answers.c.round_id)
             .join(students, students.c.id == answers.c.student_id)
             .where(rounds.c.session_id == self.info.id))
        if round_no is not None:
            q = q.where(rounds.c.number == round_no)
        with db.read(self.store.engine) as conn:
            rows = conn.execute(q.order_by(answers.c.id)).all()
        frame = pd.DataFrame(rows, columns=["round", "answer_id", "student_id", "number", "nickname", "field",
                                            "text", "ok", "kinds", "after_reveal", "created_at"])
        return frame.astype({"ok": bool, "after_reveal": bool})
