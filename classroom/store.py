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

Limits (:class:`Limits`, the settings a deployment may change in :data:`SETTINGS`) are per client — a
browser session and a network address (:class:`classroom.throttle.Client`) — not per class, so one client
cannot use up a class: joins a minute and seats per class from one address (never more than
:data:`MAX_ADDRESS_SHARE` of a class), one seat per browser session and class (joining again gives it back),
classes created an hour.  After too many wrong join or seat codes a client is *held* (growing delays): its
codes are not checked, a join waits for the teacher (:meth:`Store.join`, :meth:`Teacher.admit_waiting`)
and the answer does not depend on the code — except for a class known at its address.  A student the
teacher removes stays out (browser and nickname).  Per class: at most 500 students; codes expire after 12
hours and a class is unreachable ``retention`` (7 days) after that — checked on every read — and deleted
with its answers by the app (:meth:`Store.purge`, run by :meth:`Store.create` and at most every 10 minutes
by :meth:`Store.open` and :meth:`Store.join`).  Bad input or a limit raises :class:`ClassroomError` (a
ValueError) with a ``kind`` for a translated message.

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
from dataclasses import dataclass, field, replace
from functools import lru_cache

import pandas as pd
from sqlalchemy import bindparam, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from . import changes, db, throttle
from .models import answers, removed, rounds, sessions, students, teacher_tokens, vouched, waiting
from .nicknames import clean_nickname, problem, skeletons
from .tasks import FIELDS, Task, Verdict, verdict
from .throttle import Client

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "SEAT_CODE_LENGTH", "FEEDBACK", "SETTINGS", "MAX_ADDRESS_SHARE", "Limits",
           "ClassroomError",
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


#: Settings a deployment may change (environment variable -> Limits field, the unit it is given in).
SETTINGS = {
    "NDCG_LAB_RETENTION_DAYS": ("retention", "days"),
    "NDCG_LAB_SEATS_PER_ADDRESS": ("seats_per_address", "seats in one class"),
    "NDCG_LAB_JOINS_PER_ADDRESS": ("joins_per_address", "joins a minute"),
    "NDCG_LAB_WRONG_CODES_PER_ADDRESS": ("free_guesses_address", "wrong codes an hour"),
    "NDCG_LAB_WRONG_CODES_PER_SESSION": ("free_guesses_session", "wrong codes an hour"),
    "NDCG_LAB_CLASSES_PER_ADDRESS": ("classes_per_address", "classes an hour"),
    "NDCG_LAB_CLASS_SIZE": ("max_students", "students in one class"),
}
#: One address never holds more than this share of a class's seats, whatever ``seats_per_address`` says.
MAX_ADDRESS_SHARE = 0.8


@dataclass(frozen=True)
class Limits:
    """The limits.  Times in seconds.  :meth:`from_env` reads the ones a deployment may change
    (:data:`SETTINGS`)."""

    code_ttl: float = 12 * 3600
    #: A class and its answers are deleted this long after its code expired.
    retention: float = 7 * 86400
    max_students: int = 500
    #: Per network address: seats in one class, and joins a minute (every class together).
    seats_per_address: int = 60
    joins_per_address: int = 30
    #: Wrong join codes or seat codes allowed per hour before the client is held (session, address), the
    #: first hold (doubling with each further failure) and the longest.  A held client's codes are not
    #: checked: a join waits for the teacher (see :meth:`Store.join`).
    free_guesses_session: int = 5
    free_guesses_address: int = 50
    guess_delay: float = 2.0
    guess_delay_cap: float = 3600.0
    guess_window: float = 3600.0
    #: Classes one browser session / one address may create an hour.
    classes_per_session: int = 10
    classes_per_address: int = 30
    nickname_chars: int = 24  # grapheme clusters
    answer_chars: int = 300
    answers_per_minute: int = 20
    answers_per_round: int = 100
    max_rounds: int = 50
    seat_code_ttl: float = 15 * 60
    max_teacher_tokens: int = 50
    #: A join kept for the teacher (from a held client) is dropped after this long.
    waiting_ttl: float = 3600.0

    @property
    def seat_cap(self) -> int:
        """Seats one address may hold in one class: ``seats_per_address``, but never more than
        :data:`MAX_ADDRESS_SHARE` of ``max_students`` (one address cannot fill a class).

        >>> Limits(seats_per_address=10_000).seat_cap, Limits().seat_cap
        (400, 60)
        """
        return max(1, min(self.seats_per_address, int(self.max_students * MAX_ADDRESS_SHARE)))

    @classmethod
    def from_env(cls) -> Limits:
        """The limits with the :data:`SETTINGS` the environment sets: ``NDCG_LAB_RETENTION_DAYS`` (default 7),
        per address ``NDCG_LAB_SEATS_PER_ADDRESS`` (60 seats in one class, at most 400),
        ``NDCG_LAB_JOINS_PER_ADDRESS`` (30 a minute), ``NDCG_LAB_WRONG_CODES_PER_ADDRESS`` (50 an hour),
        ``NDCG_LAB_CLASSES_PER_ADDRESS`` (30 an hour), the students of one class ``NDCG_LAB_CLASS_SIZE`` (500),
        and per browser session
        ``NDCG_LAB_WRONG_CODES_PER_SESSION`` (5 an hour).  A whole hall behind one address (a NAT, a proxy
        not named in ``NDCG_LAB_TRUSTED_PROXIES``) needs the seats and joins raised to its size.

        >>> Limits.from_env().retention / 86400
        7.0
        """
        base = cls()
        values = {}
        for name, (field_name, _) in SETTINGS.items():
            default = getattr(base, field_name)
            if field_name == "retention":
                values[field_name] = _env_number(name, default / 86400) * 86400
            else:
                values[field_name] = int(_env_number(name, default))
        if values["max_students"] < 1:  # a class nobody can join is a typing mistake, not a setting
            raise ValueError(f"NDCG_LAB_CLASS_SIZE must be at least 1, got {os.environ.get('NDCG_LAB_CLASS_SIZE')!r}")
        return cls(**values)


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


def _code_given(code) -> None:
    """Nothing typed (or nothing but spaces and dashes) is not a wrong code: it is refused as "code_empty" and
    never counts toward holding the browser (a student pressing Enter before typing the code was held after six
    tries, an exploratory class, fifth session)."""
    if not normalise_code(code):
        raise ClassroomError("code_empty", "type the class code")


def _new_code(length: int) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


@lru_cache(maxsize=256)
def _task(text: str) -> Task:
    return Task.from_json(text)


@lru_cache(maxsize=4096)
def _verdict(task: Task, given: tuple[tuple[str, str], ...], field: str):
    """The verdict on ``field`` for one set of answers (a class sends the same sets many times)."""
    return verdict(task.check(dict(given)), field)


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


# The statements of a submit and of a student's answers, built once with named parameters: building a Core
# statement and its cache key cost more server CPU than running it (py-spy at 600 students: SQLAlchemy's
# cache-key walk was ~18 % of a submit's samples; a prebuilt statement skips it: benchmarks/README.md).
_BY_SUBMISSION = select(answers).where(answers.c.student_id == bindparam("student"),
                                       answers.c.submission_id == bindparam("sub"))
_CURRENT_ROUND = select(rounds).join(sessions, sessions.c.id == rounds.c.session_id).where(
    sessions.c.id == bindparam("session"), rounds.c.number == sessions.c.round_no)
_ROUND_ANSWERS = select(answers).join(rounds, rounds.c.id == answers.c.round_id).where(
    answers.c.student_id == bindparam("student"), rounds.c.session_id == bindparam("session"),
    rounds.c.number == bindparam("round_no")).order_by(answers.c.id)
_MINE = answers.c.student_id == bindparam("student")
_SEAT_LIMITS = select(
    students.c.id,
    select(func.count(answers.c.id)).where(_MINE, answers.c.created_at > bindparam("since"))
    .scalar_subquery().label("recent"),
    select(func.count(answers.c.id)).where(_MINE, answers.c.round_id == bindparam("round_id"))
    .scalar_subquery().label("in_round")).where(students.c.id == bindparam("student"))
_INSERT_ANSWER = answers.insert()
_REJUDGE = update(answers).where(answers.c.id == bindparam("answer_id")).values(
    ok=bindparam("new_ok", type_=answers.c.ok.type), kinds=bindparam("new_kinds", type_=answers.c.kinds.type),
    notes=bindparam("new_notes", type_=answers.c.notes.type))


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
        #: The process's change check for this database (shared by every Store on the same URL).
        self.changes = changes.watcher(self.url, self.engine)
        self._round_rows: dict[tuple[int, int], tuple[int, str]] = {}  # (class, round) -> (round id, task)
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

    def _held(self, client: Client | None, now: float) -> float:
        """Seconds ``client`` (its browser session or its address) is still held for wrong codes; 0 when its
        codes may be checked."""
        if client is None:
            return 0.0
        with db.read(self.engine) as conn:
            return max(throttle.check_blocked(conn, key, now=now) for key in client.keys("guess"))

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

    @staticmethod
    def _known(conn, row, client: Client | None) -> bool:
        """Whether class ``row``'s code is no secret at the client's address: the class was created there, a
        student sits in it from there, or the teacher let that address in."""
        address = client.address_hash if client is not None else None
        if row is None or not address:
            return False
        if row.creator_address_hash == address:
            return True
        seated = select(students.c.id).where(students.c.session_id == row.id, students.c.address_hash == address)
        let_in = select(vouched.c.session_id).where(vouched.c.session_id == row.id, vouched.c.address_hash == address)
        return conn.execute(select(seated.exists() | let_in.exists())).scalar()

    def _look_up(self, code, client: Client | None, now: float):
        """The class row ``code`` names (None: no such class, or deleted by the retention) and how long the
        client is still held for wrong codes (0: the code may be checked).  The code is looked up first, so a
        class known at the client's address is never held back (:meth:`_known`); for any other code a held
        client gets the same answer whether the code is right or wrong."""
        row = self._session_row(normalise_code(code))
        if client is None:
            return row, 0.0
        with db.read(self.engine) as conn:
            if self._known(conn, row, client):
                return row, 0.0
        return row, self._held(client, now)

    def _refuse_held(self, wait: float) -> None:
        raise ClassroomError("rate_guess", f"too many wrong codes; try again in {int(wait) + 1} s",
                             seconds=int(wait) + 1)

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
                for table in (removed, waiting, vouched):
                    conn.execute(delete(table).where(table.c.session_id.in_(chunk)))
                conn.execute(delete(sessions).where(sessions.c.id.in_(chunk)))
            conn.execute(delete(waiting).where(waiting.c.created_at < now - self.limits.waiting_ttl))
            throttle.purge(conn, before=now - max(86400.0, self.limits.guess_window))
        self._purged_at = time.monotonic()
        for sid in old:
            self.changes.changed(sid)
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
                        expires_at=now + lim.code_ttl, joining_open=True, feedback=feedback, show_names=False,
                        creator_address_hash=client.address_hash if client else None)).inserted_primary_key[0]
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

    def use_link(self, code, key) -> bool:
        """Retire the private link ``key`` of class ``code`` (a browser has exchanged it for a token of its
        own): it opens the dashboard no more.  True if it was the class's current link."""
        row = self._session_row(normalise_code(code)) if _token_ok(key) else None
        if row is None or not _same(key, row.teacher_hash):
            return False
        with db.write(self.engine) as conn:
            done = conn.execute(update(sessions).where(sessions.c.id == row.id,
                                                       sessions.c.teacher_hash == _hash(key)).values(
                teacher_hash=_hash(secrets.token_urlsafe(32))))
        return done.rowcount == 1

    # ------------------------------------------------------------------ students
    def open(self, code, client: Client | None = None) -> ClassInfo:
        """The session a join code names, if it is open (raises ``unknown_code`` / ``expired`` /
        ``rate_guess``).  A wrong code counts against ``client``; once it has had too many it is held
        (growing delays) — except for a class known at its address (:meth:`_look_up`)."""
        self._maybe_purge()
        _code_given(code)
        now = self.clock()
        row, wait = self._look_up(code, client, now)
        if wait > 0:
            self._refuse_held(wait)
        return self._checked(row, code, client, now)

    def _checked(self, row, code, client: Client | None, now: float) -> ClassInfo:
        if row is None:
            self._wrong_guess(client, now)
            raise ClassroomError("unknown_code", f"no class has the code {normalise_code(code)[:12]!r}")
        info = _info(row)
        if info.expired(now):
            raise ClassroomError("expired", f"the class {info.code} has ended")
        return info

    def _nickname(self, nickname) -> tuple[str, tuple[str, str]]:
        """The cleaned nickname and its keys (case-folded skeleton, skeleton as typed: see
        :func:`classroom.nicknames.skeletons`; raises ``nickname_empty`` / ``nickname_invisible`` /
        ``nickname_marks`` / ``nickname_cluster``): checked before the code, the same for every class."""
        name = clean_nickname(nickname, self.limits.nickname_chars)
        if not name:
            raise ClassroomError("nickname_empty", "the nickname is empty")
        why = problem(name)
        if why:
            raise ClassroomError(f"nickname_{why}", {
                "invisible": "the nickname shows nothing readable", "marks": "the nickname stacks combining marks",
                "cluster": "the nickname has a character built from too many code points"}[why])
        folded, typed = skeletons(name)
        return name, (folded[:380], typed[:380])

    def join(self, code, nickname, client: Client | None = None, *, token: str | None = None,
             held: Sequence[str] = ()) -> tuple[Seat, str]:
        """Join session ``code`` as ``nickname``; returns the seat and the student's token.

        ``token``: the token to give the seat, made by the caller and kept before the call (a page whose run
        is cut short after the write still holds it); default a new one.  ``held``: tokens this browser
        keeps for the class (its cookie): one of a student the teacher removed keeps it out.

        A client held for wrong codes (:attr:`Limits.free_guesses_address` and ``_session``) is not told
        whether its code is right: the join is kept for the class's teacher, who may let it in
        (:meth:`Teacher.admit_waiting`; the student's page then finds its seat with ``token``), and the
        answer is ``waiting`` either way.  A class known at the client's address is joined at once.
        """
        self._maybe_purge()
        now = self.clock()
        name, key = self._nickname(nickname)
        _code_given(code)
        token = _given_token(token)
        row, wait = self._look_up(code, client, now)
        if wait > 0:
            self._wait_for_teacher(row, name, token, client, now, wait)
        info = self._checked(row, code, client, now)
        if not info.joining_open:
            raise ClassroomError("closed", "the teacher has closed joining for this class")
        hashes = [_hash(t) for t in (token, *held) if _token_ok(t)]
        try:
            with db.write(self.engine) as conn:
                # PostgreSQL: lock the session row so two joins cannot take the same number or pass the cap.
                conn.execute(select(sessions.c.id).where(sessions.c.id == info.id).with_for_update())
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
                self._barred(conn, info.id, key, client.session_hash if client else None, hashes)
                self._rate(conn, client, "join", {"s": (5, 60.0), "a": (self.limits.joins_per_address, 60.0)},
                           now)
                sid, number = self._take_seat(conn, info, name, key, _hash(token), client.session_hash
                                              if client else None, client.address_hash if client else None, now)
        except IntegrityError as exc:  # a join raced this one (SQLite serialises writes; PostgreSQL locks)
            raise ClassroomError("nickname_taken", "this nickname is taken in this class") from exc
        self.changes.changed(info.id)
        return Seat(self, info, sid, number, name), token

    @staticmethod
    def _barred(conn, session_id: int, key: tuple[str, str], session_hash: str | None,
                token_hashes: Sequence[str]) -> None:
        """Refuse a browser (session or cookie) or a nickname the teacher removed from this class."""
        who = [removed.c.token_hash.in_(token_hashes)] if token_hashes else []
        if session_hash:
            who.append(removed.c.session_hash == session_hash)
        if who and conn.execute(select(removed.c.id).where(removed.c.session_id == session_id,
                                                           or_(*who)).limit(1)).first():
            raise ClassroomError("removed_here", "the teacher has removed this browser from this class")
        if conn.execute(select(removed.c.id).where(removed.c.session_id == session_id, or_(
                removed.c.nickname_key == key[0], removed.c.nickname_typed_key == key[1])).limit(1)).first():
            raise ClassroomError("nickname_removed", "a student with this nickname was removed from this class")

    def _take_seat(self, conn, info: ClassInfo, name: str, key: tuple[str, str], token_hash: str,
                   session_hash: str | None, address_hash: str | None, now: float) -> tuple[int, int]:
        """Insert a student (the caller holds the class's row lock); (student id, number).  Raises ``full``,
        ``address_full``, ``nickname_taken``."""
        lim = self.limits
        count, top, mine = conn.execute(select(
            func.count(students.c.id), func.max(students.c.number),
            func.count(students.c.id).filter(students.c.address_hash == address_hash))
            .where(students.c.session_id == info.id)).one()
        if count >= lim.max_students:
            raise ClassroomError("full", f"the class has {count} students, the most allowed", limit=lim.max_students)
        if address_hash and mine >= lim.seat_cap:
            raise ClassroomError("address_full", "too many seats from one network address", limit=lim.seat_cap)
        if conn.execute(select(students.c.id).where(students.c.session_id == info.id, or_(
                students.c.nickname_key == key[0], students.c.nickname_typed_key == key[1]))).first():
            raise ClassroomError("nickname_taken", "this nickname is taken in this class (or looks like one that is)")
        gone = conn.execute(select(func.max(removed.c.number)).where(removed.c.session_id == info.id)).scalar()
        number = max(top or 0, gone or 0) + 1  # a removed student's number is not given again
        sid = conn.execute(students.insert().values(
            session_id=info.id, number=number, nickname=name, nickname_key=key[0], nickname_typed_key=key[1],
            token_hash=token_hash,
            joined_at=now, session_hash=session_hash, address_hash=address_hash)).inserted_primary_key[0]
        changes.notify(conn, info.id)
        return sid, number

    def _wait_for_teacher(self, row, name: str, token: str, client: Client, now: float, wait: float) -> None:
        """A held client's join: kept for the teacher when ``row`` is a live class open for joining; the same
        answer (``waiting``) either way, after the same kind of work (one write)."""
        lim = self.limits
        with db.write(self.engine) as conn:
            throttle.take(conn, f"held:a:{client.address_hash or client.session_hash}", limit=1 << 30,
                          window=3600.0, now=now)
            if row is not None and not _info(row).expired(now) and row.joining_open:
                count = conn.execute(select(func.count(waiting.c.id)).where(waiting.c.session_id == row.id)).scalar()
                if count < lim.max_students:
                    conn.execute(delete(waiting).where(waiting.c.session_id == row.id,
                                                       waiting.c.session_hash == client.session_hash))
                    conn.execute(waiting.insert().values(
                        session_id=row.id, nickname=name, token_hash=_hash(token), session_hash=client.session_hash,
                        address_hash=client.address_hash, created_at=now))
                    changes.notify(conn, row.id)  # the teacher's dashboard shows who waits
        if row is not None:
            self.changes.changed(row.id)
        raise ClassroomError("waiting", "too many wrong codes came from this browser or network: the code was not "
                             "checked; if it is right, the teacher can let you in", seconds=int(wait) + 1)

    def removed_token(self, code, token) -> bool:
        """Whether ``token`` is the token of a student the teacher removed from class ``code``."""
        row = self._session_row(normalise_code(code)) if _token_ok(token) else None
        if row is None:
            return False
        with db.read(self.engine) as conn:
            return conn.execute(select(removed.c.id).where(removed.c.session_id == row.id,
                                                           removed.c.token_hash == _hash(token))).first() is not None

    def waiting_problem(self, code, token) -> str | None:
        """Why the teacher could not let in the join kept with ``token`` (a refusal kind such as
        ``nickname_taken``), else None (still waiting, let in, or nothing kept)."""
        row = self._session_row(normalise_code(code)) if _token_ok(token) else None
        if row is None:
            return None
        with db.read(self.engine) as conn:
            found = conn.execute(select(waiting.c.problem).where(waiting.c.session_id == row.id,
                                                                  waiting.c.token_hash == _hash(token))).first()
        return found.problem or None if found is not None else None

    def seat(self, code, token) -> Seat | None:
        """A student's seat from the code and their token (None if either is wrong)."""
        if not _token_ok(token):
            return None
        code = normalise_code(code)
        if not code or len(code) > 12:
            return None
        alive = sessions.c.expires_at >= self.clock() - self.limits.retention  # as _session_row: one read
        with db.read(self.engine) as conn:
            row = conn.execute(select(sessions).where(sessions.c.code == code, alive)).first()
            st = None if row is None else conn.execute(select(students).where(
                students.c.session_id == row.id, students.c.token_hash == _hash(token))).first()
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
        """What a student's page polls for: (round number, solution revealed, feedback).

        From the process's change check (:mod:`classroom.changes`): no database read while the class has
        not changed; a change made on this server is seen at once, one made on another server as soon as
        the database tells this process (PostgreSQL ``NOTIFY``; SQLite ``data_version``, polled every
        0.2 s).  ``max_age=0`` reads the database now.
        """
        state = self.changes.state(session_id, fresh=max_age <= 0, counts=False)
        if state is None:  # removed by the teacher's purge
            raise ClassroomError("unknown_code", "this class no longer exists")
        return state.pulse

    def seated(self, session_id: int, *, max_age: float = 1.0) -> frozenset[int]:
        """The ids of the students in a session (from the process's change check, as :meth:`pulse`: every
        student's page asks whether its seat is still there, and nothing is read until the class changes)."""
        state = self.changes.state(session_id, fresh=max_age <= 0, counts=False)
        return frozenset() if state is None else state.seated

    def current_round(self, session_id: int) -> tuple[RoundInfo, changes.ClassState]:
        """The current round and the class's state, from the process's change check (a round's exercise
        never changes: it is read once per process).  The state's answer counts may be a moment old (a
        student's page does not show them: :meth:`classroom.changes.Watcher.state`)."""
        state = self.changes.state(session_id, counts=False)
        if state is None:
            raise ClassroomError("unknown_code", "this class no longer exists")
        key = (int(session_id), state.round_no)
        found = self._round_rows.get(key)
        if found is None:
            with db.read(self.engine) as conn:
                row = conn.execute(select(rounds.c.id, rounds.c.task).where(
                    rounds.c.session_id == session_id, rounds.c.number == state.round_no)).one()
            if len(self._round_rows) > 1024:
                self._round_rows.clear()
            found = self._round_rows[key] = (row.id, row.task)
        return RoundInfo(found[0], state.round_no, _task(found[1]), state.revealed), state

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
        """The class with ``code``, unless the retention has passed for it (checked on every read: a class
        past it is gone for every key, token and code, whether or not :meth:`purge` has run)."""
        if not code or len(code) > 12:
            return None
        alive = sessions.c.expires_at >= self.clock() - self.limits.retention
        with db.read(self.engine) as conn:
            return conn.execute(select(sessions).where(sessions.c.code == code, alive)).first()


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
        """This student's answers in round ``round_no``, oldest first (after :meth:`submit`, as its own write
        transaction read them: no second read)."""
        kept = self.__dict__.pop("_after_submit", None)
        if kept is not None and kept[0] == round_no:
            return kept[1]
        with db.read(self.store.engine) as conn:
            return self._answers(conn, round_no)

    def _answers(self, conn, round_no: int) -> list[Answer]:
        rows = conn.execute(_ROUND_ANSWERS, {"student": self.id, "session": self.info.id,
                                             "round_no": int(round_no)}).all()
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
        # One write transaction, four reads (was a read transaction and a write transaction, nine reads: the
        # statements were ~40 % of a submit's server CPU at 600 students, benchmarks/README.md).  The checks
        # keep their order: the same submission, the exercise moved on, unreadable text, a removed seat,
        # the limits.
        try:
            with db.write(store.engine) as conn:
                done = conn.execute(_BY_SUBMISSION, {"student": self.id, "sub": sub}).first()
                if done is not None:
                    return _answer(done, duplicate=True)
                head = conn.execute(_CURRENT_ROUND, {"session": self.info.id}).one()
                current = _round(head)
                if current.number != round_no:
                    raise ClassroomError("round_closed", "the teacher has moved on to another exercise")
                before = self._answers(conn, round_no)
                latest = {a.field: a for a in before}
                given = {f: a.text for f, a in latest.items()}
                given[field] = text
                try:
                    v = _verdict(current.task, tuple((f, given[f]) for f in FIELDS if f in given), field)
                    d = current.task.check(given)  # the same sheet, diagnosed once per process (classroom.tasks)
                except ValueError as exc:
                    raise ClassroomError("unreadable", str(exc)) from exc
                # One verdict per answer: a new answer can make another latest answer of this student carried
                # forward from it (an NDCG written before the IDCG it divides by), or no longer so.  Right or
                # not never changes (it depends on the value alone); the stored mistake / carried-from kinds
                # follow the current sheet, so the grid, the mistakes table and the CSV say what the
                # student's page says.
                rejudged = {a.id: verdict(d, f).stored() for f, a in latest.items() if f != field
                            and verdict(d, f).stored() != (a.ok, ",".join(a.kinds), ",".join(a.notes))}
                seat = conn.execute(_SEAT_LIMITS, {"student": self.id, "since": now - 60,
                                                   "round_id": current.id}).first()
                if seat is None:
                    raise ClassroomError("removed", "the teacher has removed this seat")
                if seat.recent >= lim.answers_per_minute:
                    raise ClassroomError("rate_answer", "too many answers this minute; wait a moment",
                                         limit=lim.answers_per_minute)
                if seat.in_round >= lim.answers_per_round:
                    raise ClassroomError("too_many", "too many answers for this exercise",
                                         limit=lim.answers_per_round)
                revealed = head.revealed_at is not None
                ok, kinds, notes = v.stored()  # the one verdict, as a row keeps it
                row = dict(student_id=self.id, round_id=current.id, field=field, text=text, ok=ok,
                           kinds=kinds, notes=notes, after_reveal=revealed, submission_id=sub, created_at=now)
                aid = conn.execute(_INSERT_ANSWER, row).inserted_primary_key[0]
                for other_id, (o_ok, o_kinds, o_notes) in rejudged.items():
                    conn.execute(_REJUDGE, {"answer_id": other_id, "new_ok": o_ok, "new_kinds": o_kinds,
                                            "new_notes": o_notes})
                changes.notify(conn, self.info.id, answers_only=True)
        except IntegrityError:  # the same submission raced itself: return the stored one
            with db.read(store.engine) as conn:
                done = conn.execute(_BY_SUBMISSION, {"student": self.id, "sub": sub}).one()
            return _answer(done, duplicate=True)
        new = Answer(id=aid, field=field, text=text, ok=ok, kinds=_split(kinds), after_reveal=revealed,
                     created_at=now, notes=v.notes)
        # What the page shows next, as this transaction wrote it (no read after the insert): the answers
        # before it, those it re-judged with their new kinds, then this one.
        after = [replace(a, ok=bool(rejudged[a.id][0]), kinds=_split(rejudged[a.id][1]),
                         notes=_split(rejudged[a.id][2])) if a.id in rejudged else a for a in before] + [new]
        store.changes.changed(self.info.id, answers_only=True)
        self.__dict__["_after_submit"] = (round_no, after)
        return new


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
            changes.notify(conn, self.info.id)
        self.store.changes.changed(self.info.id)
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

    def new_link(self) -> str:
        """A new key for the private teacher link (the link shown before stops working).  A link opens the
        dashboard once: :meth:`Store.use_link` retires it when a browser has taken a token of its own."""
        key = secrets.token_urlsafe(32)
        self._set(teacher_hash=_hash(key))
        return key

    def sign_out_others(self, keep: str) -> int:
        """Revoke every browser's token for this dashboard but ``keep`` (this browser's), and the private
        link; returns how many tokens were revoked."""
        with db.write(self.store.engine) as conn:
            gone = conn.execute(delete(teacher_tokens).where(teacher_tokens.c.session_id == self.info.id,
                                                             teacher_tokens.c.token_hash != _hash(str(keep))))
            conn.execute(update(sessions).where(sessions.c.id == self.info.id).values(
                teacher_hash=_hash(secrets.token_urlsafe(32))))
        return gone.rowcount

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
        """Remove a student of this class with their answers; False if absent.  Their token stops working,
        and neither their browser (its session, the token its cookie keeps) nor their nickname (or one that
        looks the same) can join this class again; their number is not given to anyone else."""
        with db.write(self.store.engine) as conn:
            found = conn.execute(select(students).where(students.c.id == int(student_id),
                                                        students.c.session_id == self.info.id)).first()
            if found is None:
                return False
            conn.execute(removed.insert().values(
                session_id=self.info.id, number=found.number, nickname_key=found.nickname_key,
                nickname_typed_key=found.nickname_typed_key,
                session_hash=found.session_hash, token_hash=found.token_hash, created_at=self.store.clock()))
            conn.execute(delete(answers).where(answers.c.student_id == found.id))
            conn.execute(delete(students).where(students.c.id == found.id))
            changes.notify(conn, self.info.id)
        self.store.changes.changed(self.info.id)
        return True

    def waiting(self) -> pd.DataFrame:
        """Joins kept for this class from clients held for wrong codes (oldest first): id, nickname,
        created_at, problem (why letting in failed, else "")."""
        with db.read(self.store.engine) as conn:
            rows = conn.execute(select(waiting.c.id, waiting.c.nickname, waiting.c.created_at, waiting.c.problem)
                                .where(waiting.c.session_id == self.info.id,
                                       waiting.c.created_at >= self.store.clock() - self.store.limits.waiting_ttl)
                                .order_by(waiting.c.id)).all()
        return pd.DataFrame(rows, columns=["waiting_id", "nickname", "created_at", "problem"])

    def admit_waiting(self) -> int:
        """Let in every join kept for this class (those not refused before), as :meth:`Store.join` would
        (nickname, removal, seat limits; not the joins-a-minute rate); their addresses join this class at
        once from now on.  Returns how many were seated; the others keep the reason for their student."""
        store, now = self.store, self.store.clock()
        seated = 0
        with db.write(store.engine) as conn:
            info = _info(conn.execute(select(sessions).where(sessions.c.id == self.info.id).with_for_update()).one())
            rows = conn.execute(select(waiting).where(
                waiting.c.session_id == info.id, waiting.c.problem == "",
                waiting.c.created_at >= now - store.limits.waiting_ttl).order_by(waiting.c.id)).all()
            for r in rows:
                try:
                    if info.expired(now):
                        raise ClassroomError("expired", "the class has ended")
                    name, key = store._nickname(r.nickname)
                    with conn.begin_nested():
                        store._barred(conn, info.id, key, r.session_hash, [r.token_hash])
                        store._take_seat(conn, info, name, key, r.token_hash, r.session_hash, r.address_hash, now)
                except ClassroomError as exc:
                    conn.execute(update(waiting).where(waiting.c.id == r.id).values(problem=exc.kind[:40]))
                    continue
                conn.execute(delete(waiting).where(waiting.c.id == r.id))
                seated += 1
                if r.address_hash and not conn.execute(select(vouched.c.session_id).where(
                        vouched.c.session_id == info.id, vouched.c.address_hash == r.address_hash)).first():
                    conn.execute(vouched.insert().values(session_id=info.id, address_hash=r.address_hash,
                                                         created_at=now))
            changes.notify(conn, info.id)
        store.changes.changed(self.info.id)
        return seated

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
            changes.notify(conn, self.info.id)
        self.store.changes.changed(self.info.id)

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
            changes.notify(conn, self.info.id)
        self.store.changes.changed(self.info.id)
        self.refresh()
        return RoundInfo(rid, number + 1, task, False)

    def version(self, round_no: int) -> tuple:
        """What the dashboard shows depends on: (students, newest student id, answers in round ``round_no``,
        newest answer id, revealed, names shown); the summaries are reused until it changes.  The current
        round's comes from the process's change check (no query while nothing changed)."""
        state = self.store.changes.state(self.info.id)
        if state is not None and state.round_no == round_no:
            return state.activity
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
