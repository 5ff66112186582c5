"""Which classes changed: one change check per class and process, shared by every page that shows the class.

A live class is watched by many pages at once (300 students and a teacher).  Instead of each page asking
the database every few seconds whether something happened, each process keeps one :class:`ClassState` per
class — round, reveal, feedback, settings, the seated students, the current round's answer count — and
re-reads it only when the database says something changed:

* **PostgreSQL**: every write that changes a class sends ``NOTIFY ndcg_lab_class, '<class id>'`` in its
  own transaction (:func:`notify`; delivered when it commits); each process holds one connection that
  ``LISTEN``\\ s and re-reads only the classes named.  While nothing changes this costs no query at all
  (a sweep re-reads every watched class once every :attr:`Watcher.SWEEP` seconds, in case a write came
  from a program that does not notify).
* **SQLite**: one process-wide connection polls ``PRAGMA data_version`` (it changes when another
  connection — this process's or another's — has committed; it reads no table) every
  :attr:`Watcher.POLL` seconds, and the watched classes are re-read when it moved.

A write made in this process marks its class at once (:meth:`Watcher.changed`).  Pages read
:meth:`Watcher.state` (no database read while nothing changed) and may :meth:`Watcher.subscribe` to be
called, from the watcher's thread, when their class's state changes — the app uses this to rerun
exactly the pages that have something new to show.  When the change feed is down (the LISTEN connection
lost), states are read from the database at most once per :attr:`Watcher.FALLBACK_AGE` seconds per class.

An answer changes only the counts (answers, students who answered): it is a change of its own kind
(``answers_only``, in the notification too).  A burst of answers is then read once by the watcher's thread
(at most every :attr:`Watcher.GATHER` seconds), and pages that do not show the counts — every student's —
keep the cached state meanwhile (:meth:`Watcher.state` with ``counts=False``): 300 students answering
cost each process a few reads a second, not one read per answer and page.

No Streamlit here.

>>> from classroom.store import Store
>>> from classroom.tasks import practice_task
>>> store = Store("sqlite://")
>>> info, _ = store.create(practice_task(7, "easy"), fields=("dcg",))
>>> before = store.changes.reads
>>> store.changes.state(info.id).round_no, store.changes.state(info.id).round_no
(1, 1)
>>> store.changes.reads - before  # the second call read nothing
1
>>> seat, _ = store.join(info.code, "Ada")
>>> seat.id in store.changes.state(info.id).seated  # a write marks its class
True
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, bindparam, func, select, text

from .models import answers, rounds, sessions, students, waiting

__all__ = ["CHANNEL", "ClassState", "Watcher", "watcher", "notify", "forget"]

_LOG = logging.getLogger(__name__)

#: The PostgreSQL notification channel (payload: the class's id).
CHANNEL = "ndcg_lab_class"


@dataclass(frozen=True)
class ClassState:
    """What the pages of a class depend on (the current round's)."""

    round_no: int
    revealed: bool
    feedback: str
    joining_open: bool
    show_names: bool
    seated: frozenset[int]
    answers: int  # answers in the current round
    newest_answer: int  # the highest answer id in the current round (0: none yet)
    waiting: int = 0  # joins kept for the teacher to let in (from held browsers or networks), not refused
    answered: int = 0  # students with an answer in the current round

    @property
    def pulse(self) -> tuple[int, bool, str]:
        """What a student's page shows besides their own answers: (round, solution revealed, feedback)."""
        return (self.round_no, self.revealed, self.feedback)

    @property
    def activity(self) -> tuple[int, int, int, int, int, bool]:
        """What the teacher's live panel shows: (students, newest student id, answers, newest answer id,
        revealed, names shown) — the tuple :meth:`classroom.store.Teacher.version` returns."""
        return (len(self.seated), max(self.seated, default=0), self.answers, self.newest_answer,
                int(self.revealed), self.show_names)


Callback = Callable[[int, "ClassState | None", "ClassState | None"], None]


#: The notification payload's last word for a change of the answer counts only (:func:`notify`).
ANSWERS_ONLY = "answers"


# The change check's statements, built once (building a statement and its cache key cost more CPU than
# running it; see classroom.store).
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
_HEADS = (select(sessions.c.id, sessions.c.round_no, sessions.c.feedback, sessions.c.joining_open,
                 sessions.c.show_names, rounds.c.id.label("round_id"), rounds.c.revealed_at)
          .join(rounds, (rounds.c.session_id == sessions.c.id) & (rounds.c.number == sessions.c.round_no))
          .where(sessions.c.id.in_(bindparam("ids", expanding=True))))
_SEATED = select(students.c.session_id, students.c.id).where(
    students.c.session_id.in_(bindparam("ids", expanding=True)))
_COUNTS = (select(answers.c.round_id, func.count(answers.c.id), func.max(answers.c.id),
                  func.count(answers.c.student_id.distinct()))
           .where(answers.c.round_id.in_(bindparam("rounds", expanding=True))).group_by(answers.c.round_id))
_HELD = (select(waiting.c.session_id, func.count(waiting.c.id))
         .where(waiting.c.session_id.in_(bindparam("ids", expanding=True)), waiting.c.problem == "")
         .group_by(waiting.c.session_id))


def notify(conn: Connection, session_id: int, *, answers_only: bool = False) -> None:
    """Inside a write transaction: tell every process (PostgreSQL ``NOTIFY``, sent on commit) that class
    ``session_id`` changed (``answers_only``: only its answer counts — a student answered).  Nothing on
    SQLite (its watchers see ``data_version`` move)."""
    if conn.dialect.name == "postgresql":
        payload = f"{int(session_id)} {_tag(conn.engine)}" + (f" {ANSWERS_ONLY}" if answers_only else "")
        conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})


def read_states(conn: Connection, session_ids: Iterable[int]) -> dict[int, ClassState]:
    """The states of the classes ``session_ids`` that exist (four queries, whatever their number)."""
    ids = sorted(set(session_ids))
    if not ids:
        return {}
    heads = conn.execute(_HEADS, {"ids": ids}).all()
    if not heads:
        return {}
    seated: dict[int, set[int]] = {h.id: set() for h in heads}
    for sid, student in conn.execute(_SEATED, {"ids": list(seated)}):
        seated[sid].add(student)
    counts = {rid: (n, newest, who) for rid, n, newest, who in conn.execute(
        _COUNTS, {"rounds": [h.round_id for h in heads]})}
    held = dict(conn.execute(_HELD, {"ids": list(seated)}).all())
    out = {}
    for h in heads:
        n, newest, who = counts.get(h.round_id, (0, 0, 0))
        out[h.id] = ClassState(round_no=int(h.round_no), revealed=h.revealed_at is not None, feedback=h.feedback,
                               joining_open=bool(h.joining_open), show_names=bool(h.show_names),
                               seated=frozenset(seated[h.id]), answers=int(n), newest_answer=int(newest or 0),
                               waiting=int(held.get(h.id, 0)), answered=int(who))
    return out


class Watcher:
    """The process's cached class states for one database, kept current by its change feed."""

    #: SQLite: seconds between two ``PRAGMA data_version`` checks.
    POLL = 0.2
    #: PostgreSQL: seconds between two sweeps that re-read every watched class without a notification.
    SWEEP = 60.0
    #: Seconds a class stays watched after the last :meth:`state` call (subscribed classes stay watched);
    #: the thread ends when nothing has been watched for as long.
    IDLE = 30.0
    #: Seconds a state may be reused while the change feed is down.
    FALLBACK_AGE = 1.0
    #: Seconds to collect further notifications before re-reading (a burst of answers is read once; the
    #: teacher's counts are redrawn at most every 0.3 s anyway).
    GATHER = 0.1

    def __init__(self, engine: Engine):
        self.engine = engine
        self.backend = engine.dialect.name
        # SQLite in memory: one process, one connection; every write is this process's own (changed()).
        self._memory = self.backend == "sqlite" and engine.url.database in (None, "", ":memory:")
        self._lock = threading.RLock()
        self._read_lock = threading.Lock()
        self._states: dict[int, ClassState] = {}
        self._read_at: dict[int, float] = {}
        self._seen: dict[int, int] = {}  # SQLite: the data_version each class was read at
        self._dirty: set[int] = set()
        self._counts: set[int] = set()  # only the answer counts changed: current for readers without counts
        self._reading: set[int] = set()  # being read now: their cached state may be older than a change
        self._asked: dict[int, float] = {}
        self._subs: dict[int, dict[object, Callback]] = {}
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._sqlite: Connection | None = None  # SQLite file: the watcher's own connection (polls and reads)
        self._stop = False
        self._live = self._memory  # the change feed is up: a clean cached state is current
        #: Statistics (read by tests and benchmarks): state reads (four queries each), SQLite
        #: ``data_version`` checks, PostgreSQL notifications received (this process's own not counted).
        self.reads = 0
        self.checks = 0
        self.notifications = 0

    @property
    def live(self) -> bool:
        """Whether the change feed is up (cached states are then current without a read)."""
        return self._live

    # ------------------------------------------------------------------ reading
    def state(self, session_id: int, *, fresh: bool = False, counts: bool = True) -> ClassState | None:
        """Class ``session_id``'s state (None if there is no such class), read from the database only when
        it changed since the last read, or ``fresh``.  ``counts=False``: the caller does not show the answer
        counts (``answers``, ``newest_answer``, ``answered``), which may then be a moment old — a class
        whose only change is new answers is not read for it (the watcher's thread reads it shortly)."""
        sid = int(session_id)
        with self._lock:
            self._asked[sid] = time.monotonic()
            cached = self._states.get(sid) if self._current(sid, time.monotonic(), counts) else None
        self._ensure_thread()
        if cached is not None and not fresh:
            return cached
        return self._refresh([sid], force=fresh, counts=counts).get(sid)

    def changed(self, session_id: int, *, answers_only: bool = False) -> None:
        """A write of this process changed class ``session_id`` (committed): its next read is fresh, and
        its subscribers hear of it.  ``answers_only`` (an answer): only readers of the counts read it
        again; the watcher's thread reads it with the other answers that come in meanwhile."""
        with self._lock:
            (self._counts if answers_only else self._dirty).add(int(session_id))
        if not answers_only:  # answers: the next poll (SQLite) or the answer's own notification (PostgreSQL)
            self._wake.set()

    def subscribe(self, session_id: int, key: object, callback: Callback) -> None:
        """Call ``callback(session_id, old, new)`` from the watcher's thread whenever the class's state
        changes (``new`` None: the class is gone).  One callback per ``key`` (a new one replaces it)."""
        sid = int(session_id)
        with self._lock:
            self._subs.setdefault(sid, {})[key] = callback
            self._asked[sid] = time.monotonic()
        self._ensure_thread()

    def unsubscribe(self, session_id: int, key: object) -> None:
        with self._lock:
            subs = self._subs.get(int(session_id))
            if subs is not None:
                subs.pop(key, None)
                if not subs:
                    del self._subs[int(session_id)]

    def subscribers(self, session_id: int) -> int:
        with self._lock:
            return len(self._subs.get(int(session_id), ()))

    def close(self) -> None:
        """Stop the thread (the next use starts it again)."""
        self._stop = True
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    # ------------------------------------------------------------------ internals
    def _current(self, sid: int, now: float, counts: bool = True) -> bool:
        return sid in self._states and sid not in self._dirty and sid not in self._reading and (
            not counts or sid not in self._counts) and (
            self._live or now - self._read_at.get(sid, -1e9) < self.FALLBACK_AGE)

    def _read(self, ids: list[int]) -> tuple[dict[int, ClassState], int | None]:
        """The states of ``ids`` and (SQLite file) the data_version they were read at; under the read lock."""
        if self.backend != "sqlite" or self._memory:
            with self.engine.connect() as conn, conn.begin():
                return read_states(conn, ids), None
        if self._sqlite is None:
            self._sqlite = self.engine.connect()
        conn = self._sqlite
        try:
            with conn.begin():
                found = read_states(conn, ids)
                version = conn.exec_driver_sql("PRAGMA data_version").scalar()  # of this read's snapshot
        except Exception:
            self._drop_sqlite()
            raise
        return found, version

    def _drop_sqlite(self) -> None:
        if self._sqlite is not None:
            try:
                self._sqlite.close()
            except Exception:  # noqa: BLE001 - a broken connection is dropped either way
                pass
            self._sqlite = None

    def _refresh(self, ids: Iterable[int], *, force: bool = False, counts: bool = True) -> dict[int, ClassState]:
        """Read the states of ``ids`` (marked clean first: a change during the read marks them again).
        Unless ``force``, classes another thread has read meanwhile (current for a reader of the counts or
        not: ``counts``, as :meth:`state`) are not read again."""
        ids = sorted(set(ids))
        done: dict[int, ClassState] = {}
        with self._read_lock:
            with self._lock:
                if not force:
                    now = time.monotonic()
                    done = {sid: self._states[sid] for sid in ids if self._current(sid, now, counts)}
                    ids = [sid for sid in ids if sid not in done]
                    if not ids:
                        return done
                self._dirty.difference_update(ids)
                self._counts.difference_update(ids)
                self._reading.update(ids)
            try:
                found, version = self._read(ids)
            except Exception:
                with self._lock:
                    self._dirty.update(ids)
                    self._reading.difference_update(ids)
                raise
            now = time.monotonic()
            events = []
            with self._lock:
                self._reading.difference_update(ids)
                self.reads += 1
                for sid in ids:
                    old, new = self._states.get(sid), found.get(sid)
                    if new is None:
                        self._states.pop(sid, None)
                        self._read_at.pop(sid, None)
                    else:
                        self._states[sid] = new
                        self._read_at[sid] = now
                    if version is not None:
                        self._seen[sid] = version
                    if old is not None and old != new:
                        events.extend((sid, old, new, cb) for cb in list(self._subs.get(sid, {}).values()))
        for sid, old, new, cb in events:
            try:
                cb(sid, old, new)
            except Exception:  # noqa: BLE001 - one page's callback must not stop the others
                _LOG.exception("a classroom change callback failed")
        return {**done, **found}

    def _watched(self, now: float) -> list[int]:
        with self._lock:
            for sid, at in list(self._asked.items()):
                if now - at > self.IDLE and sid not in self._subs:
                    del self._asked[sid]
                    for table in (self._states, self._read_at, self._seen):
                        table.pop(sid, None)
                    self._dirty.discard(sid)
                    self._counts.discard(sid)
            return list(self._asked)

    def _ensure_thread(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stop = False
            self._thread = threading.Thread(target=self._run, name=f"classroom-changes-{self.backend}", daemon=True)
            self._thread.start()

    def _mark_all(self) -> None:
        with self._lock:
            self._dirty.update(self._asked)

    def _settle(self) -> bool:
        """Re-read the watched classes marked dirty; False when nothing is watched (the thread may end)."""
        watched = self._watched(time.monotonic())
        with self._lock:
            todo = [sid for sid in watched if sid in self._dirty or sid in self._counts]
        if todo:
            try:
                self._refresh(todo)
            except Exception:  # noqa: BLE001 - the database is down: the pages say so when they read
                _LOG.debug("classroom state refresh failed", exc_info=True)
        return bool(watched)

    def _run(self) -> None:
        try:
            if self.backend == "postgresql":
                self._run_postgres()
            else:
                self._run_sqlite()
        finally:
            with self._lock:
                self._live = self._memory
                self._thread = None

    def _poll_sqlite(self) -> None:
        """One ``data_version`` check on the watcher's connection: classes read at another version are marked."""
        with self._read_lock:
            try:
                if self._sqlite is None:
                    self._sqlite = self.engine.connect()
                # On the driver's connection (autocommit): no transaction around one pragma.
                # fetchall: a statement left unfinished would hold its read snapshot, and the next read on
                # this connection would see the database as it was then.
                raw = self._sqlite.connection.dbapi_connection
                version = raw.execute("PRAGMA data_version").fetchall()[0][0]
            except Exception:  # noqa: BLE001 - the file is unreachable: read as if there were no feed
                self._drop_sqlite()
                self._live = False
                return
            self.checks += 1
            with self._lock:
                self._dirty.update(sid for sid in self._asked if self._seen.get(sid) != version)
                self._live = True

    def _run_sqlite(self) -> None:
        idle_since = time.monotonic()
        try:
            while not self._stop:
                if not self._memory:
                    self._poll_sqlite()
                now = time.monotonic()
                if self._settle():
                    idle_since = now
                elif now - idle_since > self.IDLE:
                    break
                self._wake.wait(self.POLL)
                self._wake.clear()
        finally:
            with self._read_lock:
                self._drop_sqlite()

    def _dsn(self) -> str:
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def _run_postgres(self) -> None:
        import psycopg

        conn = None
        swept = idle_since = time.monotonic()
        failures = 0
        try:
            while not self._stop:
                if conn is None:
                    try:
                        conn = psycopg.connect(self._dsn(), autocommit=True, connect_timeout=10)
                        conn.execute(f"LISTEN {CHANNEL}")
                    except psycopg.Error:
                        self._live = False
                        conn = None
                        failures += 1
                        self._wake.wait(min(30.0, 0.25 * 2 ** min(failures, 7)))
                        self._wake.clear()
                        continue
                    failures = 0
                    self._mark_all()  # anything may have changed while nobody listened
                    self._settle()
                    self._live = True
                try:
                    got = self._collect(conn)
                except psycopg.Error:
                    self._live = False
                    try:
                        conn.close()
                    except psycopg.Error:
                        pass
                    conn = None
                    continue
                now = time.monotonic()
                with self._lock:
                    self._dirty.update(sid for sid, only in got.items() if sid in self._asked and not only)
                    self._counts.update(sid for sid, only in got.items() if sid in self._asked and only)
                if now - swept >= self.SWEEP:
                    swept = now
                    self._mark_all()
                if self._settle():
                    idle_since = now
                elif now - idle_since > self.IDLE:
                    break
        finally:
            if conn is not None:
                conn.close()

    def _collect(self, conn) -> dict[int, bool]:
        """Class ids named by notifications (-> whether only their answer counts changed): waits up to a
        second for the first, then gathers for :attr:`GATHER` seconds more; returns early when this process
        marked a class itself.  This engine's own notifications are skipped (:meth:`changed` marked the
        class), except answers: those are gathered with the others' (a burst is read once)."""
        own = _tag(self.engine)
        got: dict[int, bool] = {}

        def take(notes) -> None:
            for note in notes:
                sid, _, rest = note.payload.partition(" ")
                tag, _, kind = rest.partition(" ")
                only = kind == ANSWERS_ONLY
                if (tag != own or only) and sid.isdigit():
                    if tag != own:
                        self.notifications += 1
                    got[int(sid)] = got.get(int(sid), True) and only

        deadline = time.monotonic() + 1.0
        while not got:
            left = deadline - time.monotonic()
            if left <= 0 or self._stop:
                return got
            take(conn.notifies(timeout=min(left, 0.25), stop_after=1))
            if self._wake.is_set():
                self._wake.clear()
                if not got:
                    return got
        end = time.monotonic() + self.GATHER
        while (left := end - time.monotonic()) > 0:
            take(conn.notifies(timeout=left))
        return got


def _tag(engine: Engine) -> str:
    """A tag for an engine's notifications, so its watcher skips what its own process already marked."""
    return f"{os.getpid()}-{id(engine):x}"


_watchers: dict[str, Watcher] = {}
_lock = threading.Lock()


def watcher(url: str, engine: Engine) -> Watcher:
    """The process's watcher for the database ``url`` (one per URL, like :func:`classroom.db.engine_for`)."""
    with _lock:
        found = _watchers.get(url)
        if found is None or found.engine is not engine:
            if found is not None:
                found.close()
            found = _watchers[url] = Watcher(engine)
        return found


def forget(url: str) -> None:
    """Stop and forget the watcher of ``url`` (:func:`classroom.db.dispose` calls this)."""
    with _lock:
        found = _watchers.pop(url, None)
    if found is not None:
        found.close()
