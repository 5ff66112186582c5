"""classroom.changes: one change check per class and process, on SQLite (data_version) and PostgreSQL
(LISTEN/NOTIFY) — ``db_url`` is parametrised.

"Another process" is a second engine with a watcher of its own (:func:`other_process`): it never hears of
this process's writes except through the database, as an app server behind nginx would not.
"""
from __future__ import annotations

import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, text, update

from classroom import changes, db
from classroom.models import sessions
from classroom.store import ClassroomError, Store
from classroom.tasks import FIELDS, example_task, practice_task
from tests.conftest import examples


@pytest.fixture
def store(db_url):
    return Store(db_url)


@pytest.fixture
def other_process(db_url):
    """A watcher on its own engine (its own connections and cache), polling fast."""
    engine = db.new_engine(db_url)
    watcher = changes.Watcher(engine)
    watcher.POLL = 0.02
    yield watcher
    watcher.close()
    engine.dispose()


class Statements:
    """Counts the queries an engine sends (SELECTs: reads of the tables; not BEGIN, COMMIT or PRAGMA)."""

    def __init__(self, engine, *, thread: threading.Thread | None = None):
        self.n = 0
        self.engine = engine
        self.thread = thread  # count only what this thread sends (not the watcher's thread)
        event.listen(engine, "before_cursor_execute", self._count)

    def _count(self, _conn, _cursor, statement, *_args):
        if self.thread is not None and threading.current_thread() is not self.thread:
            return
        if statement.lstrip().upper().startswith("SELECT"):
            self.n += 1

    def close(self):
        event.remove(self.engine, "before_cursor_execute", self._count)


def until(condition, timeout: float = 30.0, what: str = ""):
    """Wait for ``condition()`` to hold (a condition, never a fixed time)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {timeout:.0f} s: {what or condition}")
        time.sleep(0.005)


def test_an_idle_class_is_read_once_for_all_its_pages(store):
    # 300 students' pages and a teacher's, each asking several times whether anything changed: one read of
    # four queries in all, then nothing while nothing changes.
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    seats = [store.join(info.code, f"s{i:03d}")[0] for i in range(300)]
    teacher = store.teacher(info.code, token)
    store.changes.state(info.id)
    until(lambda: store.changes.live, what="the change feed up")  # (LISTEN connected; data_version read)
    counter = Statements(store.engine)
    try:
        for _ in range(3):
            for seat in seats:
                assert store.pulse(info.id) == (1, False, "concept")
                assert seat.id in store.seated(info.id)
            assert teacher.version(1) == (300, seats[-1].id, 0, 0, 0, False)
        assert counter.n <= 4  # sessions+rounds, students, answers, waiting: at most once (it may be cached)
        seats[0].submit(1, "dcg", "6.86", submission_id="a")
        counter.n = 0
        for seat in seats:
            assert store.pulse(info.id) == (1, False, "concept") and seat.id in store.seated(info.id)
        assert teacher.version(1)[2:4] == (1, store.changes.state(info.id).newest_answer)
        assert counter.n == 4  # the answer made one more read, for everyone
    finally:
        counter.close()


def test_another_process_sees_each_kind_of_change(store, other_process):
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    watcher = other_process
    first = watcher.state(info.id)
    assert first.pulse == (1, False, "concept") and first.seated == frozenset() and first.answers == 0
    seat, _ = store.join(info.code, "Ada")
    until(lambda: watcher.state(info.id).seated == {seat.id}, what="the join")
    answer = seat.submit(1, "dcg", "6.86", submission_id="1")
    until(lambda: watcher.state(info.id).newest_answer == answer.id, what="the answer")
    teacher = store.teacher(info.code, token)
    teacher.set_feedback("value")
    until(lambda: watcher.state(info.id).feedback == "value", what="the feedback")
    teacher.set_show_names(True)
    until(lambda: watcher.state(info.id).show_names, what="names shown")
    teacher.set_joining(False)
    until(lambda: not watcher.state(info.id).joining_open, what="joining closed")
    teacher.reveal()
    until(lambda: watcher.state(info.id).revealed, what="the reveal")
    teacher.next_round(practice_task(3), after=1)
    until(lambda: watcher.state(info.id).pulse == (2, False, "value"), what="the next round")
    assert watcher.state(info.id).answers == 0  # the new round has none yet
    teacher.remove(seat.id)
    until(lambda: watcher.state(info.id).seated == frozenset(), what="the removal")


def test_subscribers_hear_each_change_once_and_not_of_other_classes(store, other_process):
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    other, _ = store.create(practice_task(5), fields=FIELDS)
    watcher = other_process
    heard, lock = [], threading.Lock()

    def hear(sid, old, new):
        with lock:
            heard.append((sid, old.pulse, new.pulse))

    watcher.state(info.id)
    watcher.state(other.id)
    watcher.subscribe(info.id, "page", hear)
    teacher = store.teacher(info.code, token)
    teacher.reveal()
    until(lambda: len(heard) == 1, what="the reveal heard")
    assert heard == [(info.id, (1, False, "concept"), (1, True, "concept"))]
    store.join(other.code, "Bo")  # another class: nothing for this page
    until(lambda: watcher.state(other.id).seated != frozenset(), what="the other class's join")
    teacher.reveal()  # already revealed: the state is the same, nobody is called
    teacher.set_feedback("value")
    until(lambda: len(heard) == 2, what="the feedback heard")
    assert heard[1] == (info.id, (1, True, "concept"), (1, True, "value"))
    watcher.unsubscribe(info.id, "page")
    teacher.set_feedback("concept")
    until(lambda: watcher.state(info.id).feedback == "concept")
    assert len(heard) == 2 and watcher.subscribers(info.id) == 0


def test_an_answer_costs_the_students_pages_no_read_and_the_counts_one(store, other_process):
    # An answer changes only the answer counts, which a student's page does not show: 300 students' pages
    # asking after every answer must not read the class again (before, each answer made the next page of
    # every student on the process read it).  Whoever shows the counts (the teacher's) reads them.
    store.changes.POLL = 3600.0  # SQLite: no data_version poll (it cannot tell an answer from a reveal)
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    seats = [store.join(info.code, name)[0] for name in ("Ada", "Bo", "Cy")]
    ids = frozenset(s.id for s in seats)
    until(lambda: store.changes.state(info.id).seated == ids and store.changes.live, what="the joins")
    assert store.current_round(info.id)[0].number == 1  # the exercise is read once per process
    pages = Statements(store.engine, thread=threading.current_thread())
    try:
        for i, seat in enumerate(seats):
            seat.submit(1, "dcg", "6.86", submission_id=f"a{i}")
            before = pages.n
            for _ in range(3):  # every student's page on this process asks, after each answer
                assert store.pulse(info.id) == (1, False, "concept")
                assert store.seated(info.id) == ids
                current, state = store.current_round(info.id)
                assert (current.number, state.feedback) == (1, "concept")
            assert pages.n == before, "a student's page read the class after an answer"
        # The teacher's counts: read, with every answer.
        assert store.changes.state(info.id).answers == 3
        assert store.teacher(info.code, token).version(1)[2] == 3
        # A reveal is no answer: the students' pages read it at once.
        store.teacher(info.code, token).reveal()
        assert store.pulse(info.id) == (1, True, "concept")
    finally:
        pages.close()
    # Another process: its counts follow (PostgreSQL: the notification says "answers"; SQLite: data_version).
    until(lambda: other_process.state(info.id).answers == 3, what="the other process's counts")
    assert other_process.state(info.id, counts=False).pulse == (1, True, "concept")


@pytest.mark.postgres
def test_postgres_a_burst_of_answers_is_read_once_per_gather_by_another_process(pg_server):
    # 40 answers sent as fast as one connection can: the other process reads the class once per gathering
    # window (Watcher.GATHER), not once per answer, and its students' pages read nothing meanwhile.
    from tests.classroom.postgres import fresh_database

    url = fresh_database(pg_server, "changes_burst")
    store = Store(url)
    engine = db.new_engine(url)
    watcher = changes.Watcher(engine)
    pages = None
    try:
        info, _ = store.create(example_task("003-blog"), fields=FIELDS)
        assert watcher.state(info.id).seated == frozenset()
        until(lambda: watcher.live, what="the listener up")
        seats = [store.join(info.code, f"s{i:02d}")[0] for i in range(40)]
        until(lambda: watcher.notifications >= 40, what="the joins' notifications")
        until(lambda: len(watcher.state(info.id).seated) == 40, what="the joins")
        pages = Statements(engine, thread=threading.current_thread())
        reads, heard, started = watcher.reads, watcher.notifications, time.monotonic()
        for i, seat in enumerate(seats):
            seat.submit(1, "dcg", "6.86", submission_id=f"b{i}")
            assert watcher.state(info.id, counts=False).pulse == (1, False, "concept")
        until(lambda: watcher.notifications - heard >= 40, what="the 40 notifications")
        # The watcher's thread reads the counts (this thread only looks at what it cached: counts=False).
        until(lambda: watcher.state(info.id, counts=False).answers == 40, what="the counts")
        assert pages.n == 0
        # Each read follows at least GATHER seconds of gathering: at most one per window (whatever the load).
        assert watcher.reads - reads <= (time.monotonic() - started) / watcher.GATHER + 1
    finally:
        if pages is not None:
            pages.close()
        watcher.close()
        engine.dispose()
        db.dispose(url)


def test_a_page_never_gets_the_state_from_before_a_change_while_it_is_being_read(store):
    # The watcher's thread is reading the class (it started after the change); a page asking meanwhile
    # waits for that read instead of taking the state cached before the change (a race seen 1 in 10).
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    watcher = store.changes
    assert watcher.state(info.id).show_names is False
    started, release = threading.Event(), threading.Event()
    real = watcher._read

    def held(ids):
        if threading.current_thread().name.startswith("classroom-changes"):
            started.set()
            assert release.wait(30)
        return real(ids)

    watcher._read = held
    try:
        store.teacher(info.code, token).set_show_names(True)  # marks the class; the thread starts reading
        assert started.wait(30)
        seen = []
        page = threading.Thread(target=lambda: seen.append(watcher.state(info.id)))
        page.start()
        release.set()
        page.join(30)
    finally:
        watcher._read = real
        release.set()
    assert seen and seen[0].show_names is True


def test_a_purged_class_has_no_state(db_url):
    class Clock:
        now = 1_800_000_000.0

        def __call__(self):
            return self.now

    clock = Clock()
    store = Store(db_url, clock=clock)
    info, _ = store.create(practice_task(1), fields=("dcg",))
    assert store.pulse(info.id) == (1, False, "concept")
    clock.now += store.limits.code_ttl + store.limits.retention + 1
    assert store.purge() == 1
    assert store.changes.state(info.id) is None and store.seated(info.id) == frozenset()
    with pytest.raises(ClassroomError) as err:
        store.pulse(info.id)
    assert err.value.kind == "unknown_code"


@pytest.mark.postgres
def test_postgres_listener_comes_back_and_a_silent_write_is_swept(pg_server):
    from tests.classroom.postgres import fresh_database

    url = fresh_database(pg_server, "changes_listener")
    store = Store(url)
    engine = db.new_engine(url)
    watcher = changes.Watcher(engine)
    try:
        info, token = store.create(practice_task(2), fields=FIELDS)
        assert watcher.state(info.id).feedback == "concept"
        until(lambda: watcher._live, what="the listener up")
        # The listening connection is cut (a database restart, a proxy's idle timeout): the watcher
        # reconnects and re-reads what it watches, so a change made meanwhile is not missed.
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"))
            conn.commit()
        store.teacher(info.code, token).set_feedback("value")
        until(lambda: watcher.state(info.id).feedback == "value", what="the change after the reconnect")
        # A program that writes without NOTIFY: seen at the next sweep.
        watcher.SWEEP = 0.2
        with engine.begin() as conn:
            conn.execute(update(sessions).where(sessions.c.id == info.id).values(show_names=True))
        until(lambda: watcher.state(info.id).show_names, what="the silent write, swept")
    finally:
        watcher.close()
        engine.dispose()
        db.dispose(url)


@pytest.mark.postgres
def test_postgres_idle_class_costs_no_query(pg_server):
    # While nothing changes, the listening process sends no statement at all (it waits on its socket).
    from tests.classroom.postgres import fresh_database

    url = fresh_database(pg_server, "changes_idle")
    store = Store(url)
    engine = db.new_engine(url)
    watcher = changes.Watcher(engine)
    counter = Statements(engine)
    try:
        info, token = store.create(practice_task(2), fields=FIELDS)
        watcher.state(info.id)
        until(lambda: watcher._live)
        sent = counter.n
        other, _ = store.create(practice_task(3), fields=FIELDS)
        store.join(other.code, "Bo")  # a change in another class: a notification, no read of this one
        until(lambda: watcher.notifications >= 1, what="the other class's notification")
        for _ in range(100):
            watcher.state(info.id)
        assert counter.n == sent
    finally:
        counter.close()
        watcher.close()
        engine.dispose()
        db.dispose(url)


# One step a teacher or a student takes; after each, the other process's view, once its feed caught
# up, equals what the database holds.
STEPS = st.lists(st.sampled_from(["join", "answer", "reveal", "next", "feedback", "names", "joining", "remove"]),
                 min_size=1, max_size=8)


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_the_other_process_converges_on_the_database(store, other_process, steps):
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    teacher = store.teacher(info.code, token)
    watcher = other_process
    watcher.state(info.id)
    seats = []
    for i, step in enumerate(steps):
        if step == "join" or not seats:
            if store.changes.state(info.id).joining_open:
                seats.append(store.join(info.code, f"p{i}")[0])
            continue
        state = store.changes.state(info.id)
        if step == "answer":
            try:
                seats[-1].submit(state.round_no, "dcg", str(i), submission_id=f"x{i}")
            except ClassroomError:
                pass
        elif step == "reveal":
            teacher.reveal()
        elif step == "next":
            teacher.next_round(practice_task(i), after=state.round_no)
        elif step == "feedback":
            teacher.set_feedback("value" if state.feedback == "concept" else "concept")
        elif step == "names":
            teacher.set_show_names(not state.show_names)
        elif step == "joining":
            teacher.set_joining(not state.joining_open)
        elif step == "remove":
            teacher.remove(seats.pop().id)
        with store.engine.connect() as conn:
            truth = changes.read_states(conn, [info.id])[info.id]
        until(lambda truth=truth: watcher.state(info.id) == truth, what=f"after {step}")
