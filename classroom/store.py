"""Classroom sessions in a database: create, join, answer, reveal, next exercise.  No Streamlit here.

Roles are objects you only get with the right secret:

* :meth:`Store.create` returns the teacher's key once (only its SHA-256 is stored);
  :meth:`Store.teacher` turns ``(code, key)`` into a :class:`Teacher` (constant-time compare), the one way
  to the answers of a class, the reveal, the next exercise, the roster and the results.
  :meth:`Teacher.issue_token` gives a browser its own token (kept in a cookie, so the key can leave the
  address bar); it opens the dashboard like the key.
* :meth:`Store.join` returns a student's :class:`Seat` and token; :meth:`Store.seat` finds the seat again
  from ``(code, token)`` (after a reload, a restarted server or another server).  A seat reads only its
  own answers.  :meth:`Teacher.seat_code` hands a seat back: the student types the code
  (:meth:`Store.reclaim`) and gets the seat with a new token.

Every piece of a class's state is in the database (round, reveal, joining open, feedback, names shown,
per-client limits), so any number of app servers sharing it show one class.  Every answer is committed
on its own before the student sees the feedback, so a killed server loses nothing that was acknowledged.
A submission carries an id chosen by the client: sending it again (a retry after a network error, a
double click) returns the stored answer instead of a second row.

Limits (:class:`Limits`) are per client — a browser session and a network address
(:class:`classroom.throttle.Client`) — not per class, so one client cannot use up a class: joins a minute
and seats per class from one address, one seat per browser session and class (joining again gives it
back), growing delays after wrong join codes or seat codes, classes created an hour.  Per class: at most
500 students; codes expire after 12 hours and a class with its answers is deleted ``retention`` (7 days)
after that, by the app (:meth:`Store.purge`, run by :meth:`Store.create` and at most every 10 minutes by
:meth:`Store.open`).  Bad input or a limit raises :class:`ClassroomError` (a ValueError) with a ``kind``
for a translated message.

>>> from classroom.tasks import practice_task
>>> store = Store("sqlite://")  # in memory, for this example
>>> info, token = store.create(practice_task(7, "easy"), fields=("dcg", "ndcg"))
>>> len(info.code), set(info.code) <= set(CODE_ALPHABET), len(token) >= 32
(6, True, True)
>>> seat, _ = store.join(info.code, "  Ada\\n <b>L</b>  ")
>>> seat.nickname, seat.number
('Ada <b>L</b>', 1)
>>> store.join(info.code, "ADA <b>l</b>")  # a look-alike of a nickname in the class
Traceback (most recent call last):
classroom.store.ClassroomError: this nickname is taken in this class (or looks like one that is)
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
import os
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from . import db, throttle
from .models import answers, rounds, sessions, students, teacher_tokens
from .nicknames import clean_nickname, problem, skeleton
from .tasks import FIELDS, Task, Verdict, verdict
from .throttle import Client

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "SEAT_CODE_LENGTH", "FEEDBACK", "Limits", "ClassroomError",
           "ClassInfo", "RoundInfo", "Answer", "Client", "Store", "Teacher", "Seat", "normalise_code",
           "clean_nickname"]

#: Join-code characters: no look-alikes (no 0/O/Q, 1/I/L, 2/Z, 5/S, 6/G, 8/B).
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479"
CODE_LENGTH = 6
#: A seat code the teacher hands a student (same alphabet): 22**8 = 5.5e10 codes, valid 15 minutes.
SEAT_CODE_LENGTH = 8
#: Feedback before the reveal: right/wrong with the mistake's name only, or with the right value too.
FEEDBACK = ("concept", "value")


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw[:40]!r}") from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"{name} must be a finite number >= 0, got {raw[:40]!r}")
    return value


@dataclass(frozen=True)
class Limits:
    """The limits.  Times in seconds.  :meth:`from_env` reads the ones a deployment may change."""

    code_ttl: float = 12 * 3600
    #: A class and its answers are deleted this long after its code expired.
    retention: float = 7 * 86400
    max_students: int = 500
    #: Per network address: seats in one class, and joins a minute (every class together).
    seats_per_address: int = 60
    joins_per_address: int = 30
    #: Wrong join codes or seat codes allowed per hour before the delays start (session, address), the
    #: first delay (doubling with each further failure) and the longest.
    free_guesses_session: int = 5
    free_guesses_address: int = 50
    guess_delay: float = 2.0
    guess_delay_cap: float = 3600.0
    guess_window: float = 3600.0
    #: Classes one browser session / one address may create an hour.
    classes_per_session: int = 10
    classes_per_address: int = 30
    nickname_chars: int = 24
    answer_chars: int = 300
    answers_per_minute: int = 20
    answers_per_round: int = 100
    max_rounds: int = 50
    seat_code_ttl: float = 15 * 60
    max_teacher_tokens: int = 50

    @classmethod
    def from_env(cls) -> Limits:
        """``NDCG_LAB_RETENTION_DAYS`` (default 7), ``NDCG_LAB_SEATS_PER_ADDRESS`` (60) and
        ``NDCG_LAB_JOINS_PER_ADDRESS`` (30 a minute): raise the last two when a whole hall reaches the app
        through one address (a NAT), lower them on an open network.

        >>> Limits.from_env().retention / 86400
        7.0
        """
        base = cls()
        return cls(retention=_env_number("NDCG_LAB_RETENTION_DAYS", base.retention / 86400) * 86400,
                   seats_per_address=int(_env_number("NDCG_LAB_SEATS_PER_ADDRESS", base.seats_per_address)),
                   joins_per_address=int(_env_number("NDCG_LAB_JOINS_PER_ADDRESS", base.joins_per_address)))


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
    joining_open: bool = True
    feedback: str = "concept"
    show_names: bool = False

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
    kinds: tuple[str, ...]  # mistakes named at this step (never a note), or ("carried_forward:<fields>",)
    after_reveal: bool
    created_at: float
    duplicate: bool = False  # True when this submission id had been stored before
    notes: tuple[str, ...] = ()

    @property
    def verdict(self) -> Verdict:
        """The verdict stored with this answer (:meth:`metrics.lessons.diagnose.Verdict.from_stored`)."""
        return Verdict.from_stored(self.ok, ",".join(self.kinds), ",".join(self.notes))


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _same(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(_hash(token).encode(), stored_hash.encode())


def _token_ok(token) -> bool:
    return isinstance(token, str) and 0 < len(token) <= 200


_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,200}")


def _given_token(token) -> str:
    """A caller's token (URL-safe, 32 to 200 characters: as ``secrets.token_urlsafe(24)`` makes), or a new one."""
    if token is None:
        return secrets.token_urlsafe(24)
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise ClassroomError("token", "a seat token has 32 to 200 URL-safe characters")
    return token


_NOT_CODE = re.compile(r"[^0-9A-Z]")


def normalise_code(text) -> str:
    """A code as typed (any case, spaces, dashes, full-width) in its stored form.

    >>> normalise_code(" acd-ef３ ")
    'ACDEF3'
    """
    return _NOT_CODE.sub("", unicodedata.normalize("NFKC", str(text)[:40]).upper())


def _new_code(length: int) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


@lru_cache(maxsize=256)
def _task(text: str) -> Task:
    return Task.from_json(text)


def _round(row) -> RoundInfo:
    return RoundInfo(id=row.id, number=row.number, task=_task(row.task), revealed=row.revealed_at is not None)


def _info(row) -> ClassInfo:
    return ClassInfo(id=row.id, code=row.code, fields=tuple(row.steps.split(",")), round_no=row.round_no,
                     created_at=row.created_at, expires_at=row.expires_at, joining_open=bool(row.joining_open),
                     feedback=row.feedback, show_names=bool(row.show_names))


def _split(text: str) -> tuple[str, ...]:
    return tuple(k for k in (text or "").split(",") if k)


def _answer(row, duplicate: bool = False) -> Answer:
    return Answer(id=row.id, field=row.field, text=row.text, ok=bool(row.ok), kinds=_split(row.kinds),
                  after_reveal=bool(row.after_reveal), created_at=row.created_at, duplicate=duplicate,
                  notes=_split(row.notes))


class Store:
    """The classroom database.  ``url``: a SQLAlchemy URL, else ``$NDCG_LAB_DB_URL``, else the SQLite
    default (:func:`classroom.db.database_url`).  ``clock`` gives the time (tests move it)."""

    #: Seconds between two purges started by :meth:`open` in one process.
    PURGE_EVERY = 600.0

    def __init__(self, url: str | None = None, *, limits: Limits | None = None,
                 clock: Callable[[], float] = time.time):
        self.url = db.database_url(url)
        self.engine = db.engine_for(self.url)
        self.limits = limits or Limits.from_env()
        self.clock = clock
        self._pulses: dict[int, tuple[float, tuple]] = {}
        self._seated: dict[int, tuple[float, frozenset[int]]] = {}
        self._purged_at = float("-inf")

    # ------------------------------------------------------------------ limits
    def _rate(self, conn, client: Client | None, action: str, limits: dict[str, tuple[int, float]],
              now: float) -> None:
        """Count one ``action`` for ``client`` (``limits``: kind "s"/"a" -> (limit, window)); raise if over."""
        if client is None:
            return
        for key in client.keys(action):
            limit, window = limits[key.split(":")[1]]
            wait = throttle.take(conn, key, limit=limit, window=window, now=now)
            if wait is not None:
                raise ClassroomError(f"rate_{action}", f"too many requests ({action}); try again in "
                                     f"{int(wait) + 1} s", seconds=int(wait) + 1)

    def _guard_guess(self, client: Client | None, now: float) -> None:
        """Refuse a guess (join code, seat code) while the client waits after wrong ones."""
        if client is None:
            return
        with db.read(self.engine) as conn:
            wait = max(throttle.check_blocked(conn, key, now=now) for key in client.keys("guess"))
        if wait > 0:
            raise ClassroomError("rate_guess", f"too many wrong codes; try again in {int(wait) + 1} s",
                                 seconds=int(wait) + 1)

    def _wrong_guess(self, client: Client | None, now: float) -> None:
        """Record a wrong code (committed on its own: the refusal that follows must not roll it back)."""
        if client is None:
            return
        lim = self.limits
        with db.write(self.engine) as conn:
            for key in client.keys("guess"):
                free = lim.free_guesses_session if ":s:" in key else lim.free_guesses_address
                throttle.failed(conn, key, free=free, base=lim.guess_delay, cap=lim.guess_delay_cap,
                                window=lim.guess_window, now=now)

    # ------------------------------------------------------------------ housekeeping
    def purge(self) -> int:
        """Delete classes whose code expired more than ``retention`` ago, with their rounds, students and
        answers (and throttle rows unused for a day); return how many classes."""
        now = self.clock()
        with db.write(self.engine) as conn:
            old = [r.id for r in conn.execute(select(sessions.c.id).where(
                sessions.c.expires_at < now - self.limits.retention))]
            for start in range(0, len(old), 500):
                chunk = old[start:start + 500]
                # Children first: the deletes do not rely on the database's ON DELETE CASCADE.
                round_ids = select(rounds.c.id).where(rounds.c.session_id.in_(chunk))
                conn.execute(delete(answers).where(answers.c.round_id.in_(round_ids)))
                conn.execute(delete(students).where(students.c.session_id.in_(chunk)))
                conn.execute(delete(rounds).where(rounds.c.session_id.in_(chunk)))
                conn.execute(delete(teacher_tokens).where(teacher_tokens.c.session_id.in_(chunk)))
                conn.execute(delete(sessions).where(sessions.c.id.in_(chunk)))
            throttle.purge(conn, before=now - max(86400.0, self.limits.guess_window))
        self._purged_at = time.monotonic()
        for sid in old:
            self._pulses.pop(sid, None)
        return len(old)

    def _maybe_purge(self) -> None:
        if time.monotonic() - self._purged_at >= self.PURGE_EVERY:
            self.purge()

    # ------------------------------------------------------------------ teacher
    def create(self, task: Task, *, fields: Sequence[str] = FIELDS, feedback: str = "concept",
               client: Client | None = None) -> tuple[ClassInfo, str]:
        """A new session on ``task``, asking ``fields``; returns it and the teacher's key."""
        asked = tuple(f for f in FIELDS if f in set(fields))
        unknown = [f for f in fields if f not in FIELDS]
        if unknown or not asked:
            raise ClassroomError("fields", f"fields must be some of {', '.join(FIELDS)}, got {list(fields)[:8]}")
        if feedback not in FEEDBACK:
            raise ClassroomError("feedback", f"feedback must be one of {', '.join(FEEDBACK)}, "
                                 f"got {str(feedback)[:20]!r}")
        self.purge()
        token = secrets.token_urlsafe(32)
        now = self.clock()
        lim = self.limits
        for _ in range(20):
            code = _new_code(CODE_LENGTH)
            try:
                with db.write(self.engine) as conn:
                    self._rate(conn, client, "create", {"s": (lim.classes_per_session, 3600.0),
                                                        "a": (lim.classes_per_address, 3600.0)}, now)
                    sid = conn.execute(sessions.insert().values(
                        code=code, teacher_hash=_hash(token), steps=",".join(asked), round_no=1, created_at=now,
                        expires_at=now + lim.code_ttl, joining_open=True, feedback=feedback,
                        show_names=False)).inserted_primary_key[0]
                    conn.execute(rounds.insert().values(session_id=sid, number=1, task=task.to_json(), created_at=now))
            except IntegrityError:  # the code is taken (by a live or a recently expired session): draw another
                continue
            return ClassInfo(sid, code, asked, 1, now, now + lim.code_ttl, True, feedback, False), token
        raise ClassroomError("busy", "could not find a free join code")  # pragma: no cover - 22**6 codes

    def teacher(self, code, token) -> Teacher | None:
        """The teacher's handle on session ``code``, or None when the code or the key/token is wrong.

        Works after the code expired (results stay readable until the class is purged).
        """
        if not _token_ok(token):
            return None
        row = self._session_row(normalise_code(code))
        if row is None:
            _same(token, "0" * 64)  # the same work either way
            return None
        if _same(token, row.teacher_hash):
            return Teacher(self, _info(row))
        with db.read(self.engine) as conn:
            found = conn.execute(select(teacher_tokens.c.token_hash).where(
                teacher_tokens.c.session_id == row.id, teacher_tokens.c.token_hash == _hash(token))).first()
        if found is None or not _same(token, found.token_hash):
            return None
        return Teacher(self, _info(row))

    # ------------------------------------------------------------------ students
    def open(self, code, client: Client | None = None) -> ClassInfo:
        """The session a join code names, if it is open (raises ``unknown_code`` / ``expired`` /
        ``rate_guess``).  A wrong code counts against ``client`` (growing delays after the free ones)."""
        self._maybe_purge()
        now = self.clock()
        self._guard_guess(client, now)
        row = self._session_row(normalise_code(code))
        if row is None:
            self._wrong_guess(client, now)
            raise ClassroomError("unknown_code", f"no class has the code {normalise_code(code)[:12]!r}")
        info = _info(row)
        if info.expired(now):
            raise ClassroomError("expired", f"the class {info.code} has ended")
        return info

    def join(self, code, nickname, client: Client | None = None, *, token: str | None = None) -> tuple[Seat, str]:
        """Join session ``code`` as ``nickname``; returns the seat and the student's token.

        ``token``: the token to give the seat, made by the caller and kept before the call (a page whose run
        is cut short after the write still holds it); default a new one."""
        info = self.open(code, client)
        if not info.joining_open:
            raise ClassroomError("closed", "the teacher has closed joining for this class")
        lim = self.limits
        name = clean_nickname(nickname, lim.nickname_chars)
        if not name:
            raise ClassroomError("nickname_empty", "the nickname is empty")
        why = problem(name)
        if why:
            raise ClassroomError(f"nickname_{why}", "the nickname shows nothing readable" if why == "invisible"
                                 else "the nickname stacks combining marks")
        key = skeleton(name)[:380]
        token = _given_token(token)
        now = self.clock()
        try:
            with db.write(self.engine) as conn:
                # PostgreSQL: lock the session row so two joins cannot take the same number or pass the cap.
                conn.execute(select(sessions.c.id).where(sessions.c.id == info.id).with_for_update())
                count, top = conn.execute(select(func.count(students.c.id), func.max(students.c.number))
                                          .where(students.c.session_id == info.id)).one()
                if count >= lim.max_students:
                    raise ClassroomError("full", f"the class has {count} students, the most allowed",
                                         limit=lim.max_students)
                if client is not None:
                    # The same browser session joining again (a double click, a Join sent again over a slow
                    # connection, a run cut short before the page kept the token) gets its own seat back,
                    # under a new token: the session id is the server's, no one else can send it.
                    again = conn.execute(select(students).where(
                        students.c.session_id == info.id, students.c.session_hash == client.session_hash)
                        .order_by(students.c.id).limit(1)).first()
                    if again is not None:
                        conn.execute(update(students).where(students.c.id == again.id).values(
                            token_hash=_hash(token)))
                        return Seat(self, info, again.id, again.number, again.nickname), token
                    mine = conn.execute(select(
                        func.count(students.c.id).filter(students.c.address_hash == client.address_hash))
                        .where(students.c.session_id == info.id)).one()
                    if client.address_hash and mine[0] >= lim.seats_per_address:
                        raise ClassroomError("address_full", "too many seats from one network address",
                                             limit=lim.seats_per_address)
                self._rate(conn, client, "join", {"s": (5, 60.0), "a": (lim.joins_per_address, 60.0)}, now)
                taken = conn.execute(select(students.c.id).where(
                    students.c.session_id == info.id, students.c.nickname_key == key)).first()
                if taken:
                    raise ClassroomError("nickname_taken", "this nickname is taken in this class (or looks like "
                                         "one that is)")
                number = (top or 0) + 1
                sid = conn.execute(students.insert().values(
                    session_id=info.id, number=number, nickname=name, nickname_key=key, token_hash=_hash(token),
                    joined_at=now, session_hash=client.session_hash if client else None,
                    address_hash=client.address_hash if client else None)).inserted_primary_key[0]
        except IntegrityError as exc:  # a join raced this one (SQLite serialises writes; PostgreSQL locks)
            raise ClassroomError("nickname_taken", "this nickname is taken in this class") from exc
        return Seat(self, info, sid, number, name), token

    def seat(self, code, token) -> Seat | None:
        """A student's seat from the code and their token (None if either is wrong)."""
        if not _token_ok(token):
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

    def reclaim(self, code, seat_code, client: Client | None = None, *, token: str | None = None) -> tuple[Seat, str]:
        """The seat the teacher handed back with ``seat_code``, under a new token (the old one stops
        working; ``token`` as for :meth:`join`).  A wrong seat code counts as a wrong guess."""
        info = self.open(code, client)
        now = self.clock()
        given = normalise_code(seat_code)
        token = _given_token(token)
        with db.write(self.engine) as conn:
            row = None
            if len(given) == SEAT_CODE_LENGTH:
                row = conn.execute(select(students).where(
                    students.c.session_id == info.id, students.c.reclaim_hash == _hash(given),
                    students.c.reclaim_until > now).with_for_update()).first()
            if row is not None:
                conn.execute(update(students).where(students.c.id == row.id).values(
                    token_hash=_hash(token), reclaim_hash=None, reclaim_until=None,
                    session_hash=client.session_hash if client else row.session_hash))
        if row is None:
            self._wrong_guess(client, now)
            raise ClassroomError("bad_seat_code", "this seat code is wrong or has expired")
        return Seat(self, info, row.id, row.number, row.nickname), token

    # ------------------------------------------------------------------ shared reads
    def pulse(self, session_id: int, *, max_age: float = 1.0) -> tuple:
        """What a student's page polls for: (round number, solution revealed, feedback, joining open).

        Read from the database (what every server shares) at most once per ``max_age`` seconds per
        session and process: a teacher's change made on this server is seen at once, one made on another
        server within ``max_age``.
        """
        now = time.monotonic()
        cached = self._pulses.get(session_id)
        if cached is not None and now - cached[0] < max_age:
            return cached[1]
        with db.read(self.engine) as conn:
            row = conn.execute(select(sessions.c.round_no, rounds.c.revealed_at, sessions.c.feedback).join(
                rounds, (rounds.c.session_id == sessions.c.id) & (rounds.c.number == sessions.c.round_no)).where(
                sessions.c.id == session_id)).first()
        if row is None:  # removed by the teacher's purge
            raise ClassroomError("unknown_code", "this class no longer exists")
        value = (row.round_no, row.revealed_at is not None, row.feedback)
        self._pulses[session_id] = (now, value)
        return value

    def seated(self, session_id: int, *, max_age: float = 1.0) -> frozenset[int]:
        """The ids of the students in a session (read at most once per ``max_age`` seconds per session and
        process: every student's page asks whether its seat is still there, one query answers them all)."""
        now = time.monotonic()
        cached = self._seated.get(session_id)
        if cached is not None and now - cached[0] < max_age:
            return cached[1]
        with db.read(self.engine) as conn:
            ids = frozenset(conn.execute(select(students.c.id).where(students.c.session_id == session_id)).scalars())
        self._seated[session_id] = (now, ids)
        return ids

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

    def present(self) -> bool:
        """Whether the seat still exists (the teacher may have removed the student)."""
        with db.read(self.store.engine) as conn:
            return conn.execute(select(students.c.id).where(students.c.id == self.id)).first() is not None

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
        not asked, empty / too long / unreadable text, a removed seat, or a rate limit.
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
        latest = {a.field: a for a in self.answers(round_no)}
        given = {f: a.text for f, a in latest.items()}
        given[field] = text
        try:
            d = current.task.check(given)
            v = verdict(d, field)
        except ValueError as exc:
            raise ClassroomError("unreadable", str(exc)) from exc
        # One verdict per answer: a new answer can make another latest answer of this student carried forward
        # from it (an NDCG written before the IDCG it divides by), or no longer so.  Right or not never changes
        # (it depends on the value alone); the stored mistake / carried-from kinds follow the current sheet, so
        # the grid, the mistakes table and the CSV say what the student's page says.
        rejudged = {a.id: verdict(d, f).stored() for f, a in latest.items() if f != field
                    and verdict(d, f).stored() != (a.ok, ",".join(a.kinds), ",".join(a.notes))}
        try:
            with db.write(store.engine) as conn:
                if conn.execute(select(students.c.id).where(students.c.id == self.id)).first() is None:
                    raise ClassroomError("removed", "the teacher has removed this seat")
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
                ok, kinds, notes = v.stored()  # the one verdict, as a row keeps it
                row = dict(student_id=self.id, round_id=current.id, field=field, text=text, ok=ok,
                           kinds=kinds, notes=notes, after_reveal=revealed is not None,
                           submission_id=sub, created_at=now)
                aid = conn.execute(answers.insert().values(**row)).inserted_primary_key[0]
                for other_id, (o_ok, o_kinds, o_notes) in rejudged.items():
                    conn.execute(update(answers).where(answers.c.id == other_id)
                                 .values(ok=o_ok, kinds=o_kinds, notes=o_notes))
        except IntegrityError:  # the same submission raced itself: return the stored one
            with db.read(store.engine) as conn:
                done = conn.execute(select(answers).where(answers.c.student_id == self.id,
                                                          answers.c.submission_id == sub)).one()
            return _answer(done, duplicate=True)
        return Answer(id=aid, field=field, text=text, ok=ok, kinds=_split(kinds), after_reveal=revealed is not None,
                      created_at=now, notes=v.notes)


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

    def _set(self, **values) -> None:
        with db.write(self.store.engine) as conn:
            conn.execute(update(sessions).where(sessions.c.id == self.info.id).values(**values))
        self.store._pulses.pop(self.info.id, None)
        self.refresh()

    def issue_token(self) -> str:
        """A new token that opens this dashboard (for one browser's cookie); the oldest go past
        :attr:`Limits.max_teacher_tokens`."""
        token = secrets.token_urlsafe(32)
        keep = self.store.limits.max_teacher_tokens
        with db.write(self.store.engine) as conn:
            conn.execute(teacher_tokens.insert().values(session_id=self.info.id, token_hash=_hash(token),
                                                        created_at=self.store.clock()))
            old = select(teacher_tokens.c.id).where(teacher_tokens.c.session_id == self.info.id).order_by(
                teacher_tokens.c.id.desc()).offset(keep)
            conn.execute(delete(teacher_tokens).where(teacher_tokens.c.id.in_(old)))
        return token

    def set_joining(self, open_: bool) -> None:
        """Open or close joining (students with a seat keep it and can come back)."""
        self._set(joining_open=bool(open_))

    def set_feedback(self, mode: str) -> None:
        """Feedback before the reveal: ``"concept"`` (right/wrong, the mistake's name) or ``"value"``."""
        if mode not in FEEDBACK:
            raise ClassroomError("feedback", f"feedback must be one of {', '.join(FEEDBACK)}, got {str(mode)[:20]!r}")
        self._set(feedback=mode)

    def set_show_names(self, show: bool) -> None:
        """Show nicknames on the dashboard (else "Student n")."""
        self._set(show_names=bool(show))

    def remove(self, student_id: int) -> bool:
        """Remove a student of this class with their answers (their token stops working); False if absent."""
        with db.write(self.store.engine) as conn:
            found = conn.execute(select(students.c.id).where(students.c.id == int(student_id),
                                                              students.c.session_id == self.info.id)).first()
            if found is None:
                return False
            conn.execute(delete(answers).where(answers.c.student_id == found.id))
            conn.execute(delete(students).where(students.c.id == found.id))
        self.store._seated.pop(self.info.id, None)
        return True

    def seat_code(self, student_id: int) -> str:
        """A code (valid :attr:`Limits.seat_code_ttl`) that gives this student's seat back to whoever types
        it on the join page; a new code replaces the previous one."""
        code = _new_code(SEAT_CODE_LENGTH)
        with db.write(self.store.engine) as conn:
            done = conn.execute(update(students).where(
                students.c.id == int(student_id), students.c.session_id == self.info.id).values(
                reclaim_hash=_hash(code), reclaim_until=self.store.clock() + self.store.limits.seat_code_ttl))
        if done.rowcount != 1:
            raise ClassroomError("no_student", "no such student in this class")
        return code

    def reveal(self) -> None:
        """Show the solution of the current round to every student."""
        with db.write(self.store.engine) as conn:
            number = conn.execute(select(sessions.c.round_no).where(sessions.c.id == self.info.id)).scalar_one()
            conn.execute(update(rounds).where(rounds.c.session_id == self.info.id, rounds.c.number == number,
                                              rounds.c.revealed_at.is_(None)).values(revealed_at=self.store.clock()))
        self.store._pulses.pop(self.info.id, None)

    def next_round(self, task: Task, *, after: int | None = None) -> RoundInfo:
        """Start the next exercise (every student's page follows).  ``after``: the round the teacher saw;
        if another tab or server has moved on since, nothing happens (``round_moved``)."""
        now = self.store.clock()
        with db.write(self.store.engine) as conn:
            number = conn.execute(select(sessions.c.round_no).where(sessions.c.id == self.info.id)
                                  .with_for_update()).scalar_one()
            if after is not None and number != after:
                raise ClassroomError("round_moved", "another window has already started the next exercise")
            if number >= self.store.limits.max_rounds:
                raise ClassroomError("too_many_rounds", "this class has had the most exercises allowed",
                                     limit=self.store.limits.max_rounds)
            rid = conn.execute(rounds.insert().values(session_id=self.info.id, number=number + 1,
                                                      task=task.to_json(), created_at=now)).inserted_primary_key[0]
            conn.execute(update(sessions).where(sessions.c.id == self.info.id).values(round_no=number + 1))
        self.store._pulses.pop(self.info.id, None)
        self.refresh()
        return RoundInfo(rid, number + 1, task, False)

    def version(self, round_no: int) -> tuple:
        """What the dashboard shows depends on: (students, newest student id, answers in round ``round_no``,
        newest answer id, revealed, names shown).  One cheap query; the summaries are reused until it changes."""
        with db.read(self.store.engine) as conn:
            show = select(sessions.c.show_names).where(sessions.c.id == self.info.id).scalar_subquery()
            n_students, newest_student, show = conn.execute(
                select(func.count(students.c.id), func.max(students.c.id), show)
                .where(students.c.session_id == self.info.id)).one()
            n, newest, revealed = conn.execute(
                select(func.count(answers.c.id), func.max(answers.c.id), func.max(rounds.c.revealed_at))
                .select_from(rounds.outerjoin(answers, answers.c.round_id == rounds.c.id))
                .where(rounds.c.session_id == self.info.id, rounds.c.number == round_no)).one()
        return (int(n_students), int(newest_student or 0), int(n), int(newest or 0), int(revealed is not None),
                bool(show))

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
                    answers.c.kinds, answers.c.notes, answers.c.after_reveal, answers.c.created_at)
             .join(rounds, rounds.c.id == answers.c.round_id)
             .join(students, students.c.id == answers.c.student_id)
             .where(rounds.c.session_id == self.info.id))
        if round_no is not None:
            q = q.where(rounds.c.number == round_no)
        with db.read(self.store.engine) as conn:
            rows = conn.execute(q.order_by(answers.c.id)).all()
        frame = pd.DataFrame(rows, columns=["round", "answer_id", "student_id", "number", "nickname", "field",
                                            "text", "ok", "kinds", "notes", "after_reveal", "created_at"])
        return frame.astype({"ok": bool, "after_reveal": bool})
