"""classroom.store against SQLite (WAL file) and a real PostgreSQL (``db_url`` is parametrised).

Exercise used throughout: document 003's worked example (classroom.tasks.example_task("003-blog")):
grades 3 2 3 0 1 2, two more judged items of grade 3 and 0, k = 6, linear gain, log2(i + 1).
  DCG  = 3 + 2/log2 3 + 3/2 + 0 + 1/log2 6 + 2/log2 7 = 3 + 1.2619 + 1.5 + 0 + 0.3869 + 0.7124 = 6.8611
  IDCG = ideal 3 3 3 2 2 1: 3 + 1.8928 + 1.5 + 0.8614 + 0.7737 + 0.3562 = 8.3841
  NDCG = 6.8611 / 8.3841 = 0.8184
"""
from __future__ import annotations

import string
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, inspect, select

from classroom import db
from classroom.models import answers, metadata, sessions, students, throttle
from classroom.nicknames import MAX_CODE_POINTS, graphemes
from classroom.store import (
    CODE_ALPHABET,
    SEAT_CODE_LENGTH,
    ClassroomError,
    Client,
    Limits,
    Store,
    clean_nickname,
    normalise_code,
)
from classroom.tasks import FIELDS, example_task, practice_task


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(db_url, clock):
    return Store(db_url, clock=clock)


@pytest.fixture
def blog(store):
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    return info, token


def kind_of(call):
    with pytest.raises(ClassroomError) as err:
        call()
    return err.value.kind


# ---------------------------------------------------------------------------------------------- sessions
def test_create_gives_code_without_look_alikes_and_a_long_token(store, blog):
    info, token = blog
    assert len(info.code) == 6 and set(info.code) <= set(CODE_ALPHABET)
    assert not set(CODE_ALPHABET) & set("01IL2Z5S8BO6G")
    assert len(token) >= 40  # token_urlsafe(32): 43 characters, 256 bits
    assert info.fields == FIELDS and info.round_no == 1
    assert info.expires_at - info.created_at == 12 * 3600


def test_codes_are_distinct(store):
    codes = {store.create(practice_task(i, "easy"))[0].code for i in range(40)}
    assert len(codes) == 40


def test_teacher_needs_the_right_token_for_the_right_code(store, blog):
    info, token = blog
    other, other_token = store.create(practice_task(1, "easy"))
    assert store.teacher(info.code, token).info.id == info.id
    assert store.teacher(info.code.lower(), token).info.id == info.id  # codes are typed in any case
    for code, tok in [(info.code, other_token), (other.code, token), (info.code, token[:-1]),
                      (info.code, ""), (info.code, None), ("ZZZZZZ", token), (info.code, "x" * 10_000)]:
        assert store.teacher(code, tok) is None


def test_only_hashes_of_tokens_are_stored(store, blog):
    info, token = blog
    seat, student_token = store.join(info.code, "Ada")
    with store.engine.connect() as conn:
        dump = " ".join(str(v) for table in ("class_sessions", "class_students")
                        for row in conn.exec_driver_sql(f"SELECT * FROM {table}") for v in row)
    assert token not in dump and student_token not in dump


def test_fields_must_be_known(store):
    assert kind_of(lambda: store.create(practice_task(1), fields=("dcg", "cg"))) == "fields"
    assert kind_of(lambda: store.create(practice_task(1), fields=())) == "fields"
    info, _ = store.create(practice_task(1), fields=("ndcg", "dcg"))
    assert info.fields == ("dcg", "ndcg")  # always in the order of a hand calculation


# ---------------------------------------------------------------------------------------------- joining
def test_join_numbers_students_and_cleans_nicknames(store, blog):
    info, _ = blog
    a, ta = store.join(info.code, "  Ada \n Lovelace ")
    b, tb = store.join(info.code, "B" * 100)
    assert (a.number, a.nickname) == (1, "Ada Lovelace")
    assert (b.number, b.nickname) == (2, "B" * 24)
    assert ta != tb and len(ta) >= 32


def test_join_refusals(store, blog, clock):
    info, _ = blog
    store.join(info.code, "Ada")
    assert kind_of(lambda: store.join(info.code, "ada")) == "nickname_taken"  # case-insensitive
    assert kind_of(lambda: store.join(info.code, "\u0410da")) == "nickname_taken"  # Cyrillic А
    assert kind_of(lambda: store.join(info.code, "Ａｄａ")) == "nickname_taken"  # full-width
    store.join(info.code, "modern")
    assert kind_of(lambda: store.join(info.code, "rnodern")) == "nickname_taken"  # rn looks like m
    for invisible in ("\u3164", "\u115f\u1160", "\u2800\u2800", "\ufe0f", "\u0301\u0301"):
        assert kind_of(lambda name=invisible: store.join(info.code, name)) == "nickname_invisible", repr(invisible)
    # NFKC composes o + U+0301 into ó: five marks remain, one more than UTS #39's four
    assert kind_of(lambda: store.join(info.code, "Bo" + "\u0301\u0302\u0303\u0304\u0306\u0307")) == "nickname_marks"
    assert kind_of(lambda: store.join(info.code, "x\u0301\u0301")) == "nickname_marks"
    assert store.join(info.code, "Việt")[0].nickname == "Việt"  # two marks on one letter are fine
    assert kind_of(lambda: store.join(info.code, " \u200b\t ")) == "nickname_empty"
    assert kind_of(lambda: store.join("AAAAAA", "x")) == "unknown_code"
    assert kind_of(lambda: store.join("", "x")) == "code_empty"  # no code typed: not a wrong code
    clock.now += 12 * 3600
    assert kind_of(lambda: store.join(info.code, "late")) == "expired"


def test_student_cap(db_url, clock):
    store = Store(db_url, clock=clock, limits=Limits(max_students=3))
    info, _ = store.create(practice_task(3))
    for name in "abc":
        store.join(info.code, name, client=Client(f"session-{name}", f"10.0.0.{ord(name)}"))
    assert kind_of(lambda: store.join(info.code, "d", client=Client("session-d", "10.0.1.1"))) == "full"


# ---------------------------------------------------------------------------------------------- per client
def test_one_address_cannot_use_up_a_class(db_url, clock):
    # A script on one address opening new browser sessions: it gets at most 3 seats (seats_per_address) and
    # 2 joins a minute (joins_per_address); students on other addresses keep joining the whole time.
    store = Store(db_url, clock=clock, limits=Limits(seats_per_address=3, joins_per_address=2))
    info, _ = store.create(practice_task(3))
    flood = [Client(f"flood-{i}", "203.0.113.9") for i in range(6)]
    store.join(info.code, "f0", client=flood[0])
    store.join(info.code, "f1", client=flood[1])
    assert kind_of(lambda: store.join(info.code, "f2", client=flood[2])) == "rate_join"
    real = [store.join(info.code, f"real{i}", client=Client(f"r{i}", f"198.51.100.{i}"))[0] for i in range(5)]
    assert [s.number for s in real] == [3, 4, 5, 6, 7]
    clock.now += 61
    store.join(info.code, "f2", client=flood[2])
    assert kind_of(lambda: store.join(info.code, "f3", client=flood[3])) == "address_full"


def test_one_browser_session_holds_one_seat_per_class(store, blog):
    # Joining again from the same browser session (a double click, a resent Join) gives back its seat under
    # a new token: one seat, never a second one.
    info, _ = blog
    me = Client("one-tab", "198.51.100.7")
    first, old_token = store.join(info.code, "Ada", client=me)
    first.submit(1, "dcg", "6.86", submission_id="1")
    again, new_token = store.join(info.code, "Ada2", client=me)
    assert (again.id, again.nickname, again.number) == (first.id, "Ada", 1) and new_token != old_token
    assert store.seat(info.code, old_token) is None and store.seat(info.code, new_token).latest(1) == {"dcg": "6.86"}
    assert len(store.teacher(info.code, blog[1]).students()) == 1
    other, _ = store.create(practice_task(2))
    assert store.join(other.code, "Ada", client=me)[0].number == 1  # another class: another seat
    # The page makes the token and keeps it before the write: a run cut short after it still opens the seat.
    kept = "k" * 32
    seat, token = store.join(other.code, "Bo", client=Client("tab-2", "198.51.100.8"), token=kept)
    assert token == kept and store.seat(other.code, kept).id == seat.id
    for bad in ("short", "x" * 31, "a b" * 20, 7):
        assert kind_of(lambda bad=bad: store.join(other.code, "Cy", token=bad)) == "token"


def test_wrong_codes_earn_growing_delays_per_client(db_url, clock):
    # 5 free wrong codes per session (50 per address); then 2 s, 4 s, 8 s ... (Limits' defaults).  While held,
    # a client's codes are not checked: a join waits for the teacher, right code or wrong (tests/classroom/
    # test_guard.py); a seat code is refused.
    store = Store(db_url, clock=clock)
    info, _ = store.create(practice_task(3))
    guesser = Client("guesser", "203.0.113.5")
    for _ in range(5):
        assert kind_of(lambda: store.join("AAAAAA", "x", client=guesser)) == "unknown_code"
    assert kind_of(lambda: store.join("AAAAAA", "x", client=guesser)) == "unknown_code"  # the 6th: holds 2 s
    err = pytest.raises(ClassroomError, store.join, info.code, "x", client=guesser).value
    assert (err.kind, err.params["seconds"]) == ("waiting", 3)
    assert kind_of(lambda: store.reclaim(info.code, "ACDEFHJK", client=guesser)) == "rate_guess"
    clock.now += 2
    assert kind_of(lambda: store.join("AAAAAA", "x", client=guesser)) == "unknown_code"  # the 7th: 4 s
    clock.now += 3
    assert kind_of(lambda: store.join("AAAAAA", "x", client=guesser)) == "waiting"
    # Another app server on the same database enforces the same hold; another client is not slowed.
    again = Store(db_url, clock=clock)
    assert kind_of(lambda: again.join("AAAAAA", "x", client=guesser)) == "waiting"
    assert again.join(info.code, "y", client=Client("someone", "198.51.100.1"))[0].nickname == "y"
    clock.now += 1
    assert store.join(info.code, "x2", client=guesser)[0].nickname == "x2"


def test_a_steady_guesser_waits_up_to_the_cap(db_url, clock):
    lim = Limits(free_guesses_session=2, free_guesses_address=2, guess_delay=2, guess_delay_cap=60)
    store = Store(db_url, clock=clock, limits=lim)
    store.create(practice_task(3))
    guesser = Client("g", "203.0.113.5")
    waits = []
    for _ in range(10):
        try:
            store.join("AAAAAA", "x", client=guesser)
        except ClassroomError as exc:
            if exc.kind == "waiting":
                waits.append(exc.params["seconds"])
                clock.now += exc.params["seconds"]
                continue
    # free 2; then 2, 4, 8, 16, 32, 60 (cap) s: each hold answers once, then the next code is checked
    assert waits == [3, 5, 9, 17] and clock.now > 1_800_000_000 + 30


def test_classes_created_per_client(db_url, clock):
    store = Store(db_url, clock=clock, limits=Limits(classes_per_session=2, classes_per_address=3))
    me = Client("tab", "198.51.100.3")
    store.create(practice_task(1), client=me)
    store.create(practice_task(2), client=me)
    assert kind_of(lambda: store.create(practice_task(3), client=me)) == "rate_create"
    store.create(practice_task(3), client=Client("tab2", "198.51.100.3"))
    assert kind_of(lambda: store.create(practice_task(4), client=Client("tab3", "198.51.100.3"))) == "rate_create"
    store.create(practice_task(4), client=Client("elsewhere", "198.51.100.4"))
    clock.now += 3601
    store.create(practice_task(5), client=me)


def test_the_teacher_closes_joining_and_removes_a_student(store, blog):
    info, token = blog
    teacher = store.teacher(info.code, token)
    ada, ada_token = store.join(info.code, "Ada")
    ada.submit(1, "dcg", "6.86", submission_id="1")
    teacher.set_joining(False)
    assert kind_of(lambda: store.join(info.code, "Bo")) == "closed"
    assert store.seat(info.code, ada_token).id == ada.id  # a seat already taken stays
    assert teacher.remove(ada.id) and not teacher.remove(ada.id)
    assert store.seat(info.code, ada_token) is None and not ada.present()
    assert ada.id not in store.seated(info.id) and store.seated(info.id) == frozenset()
    assert kind_of(lambda: ada.submit(1, "idcg", "8.38", submission_id="2")) == "removed"
    assert teacher.answers().empty and teacher.students().empty
    teacher.set_joining(True)
    # the nickname stays barred from this class (tests/classroom/test_guard.py: the browser too)
    assert kind_of(lambda: store.join(info.code, "Ada")) == "nickname_removed"


def test_a_seat_code_gives_the_seat_back_once(store, blog, clock):
    info, token = blog
    teacher = store.teacher(info.code, token)
    ada, old_token = store.join(info.code, "Ada")
    ada.submit(1, "dcg", "6.86", submission_id="1")
    code = teacher.seat_code(ada.id)
    assert len(code) == SEAT_CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    back, new_token = store.reclaim(info.code, code.lower(), client=Client("new-phone", "198.51.100.9"))
    assert back.id == ada.id and back.latest(1) == {"dcg": "6.86"}
    assert store.seat(info.code, old_token) is None and store.seat(info.code, new_token).id == ada.id
    assert kind_of(lambda: store.reclaim(info.code, code)) == "bad_seat_code"  # once
    late = teacher.seat_code(ada.id)
    clock.now += 15 * 60 + 1
    assert kind_of(lambda: store.reclaim(info.code, late)) == "bad_seat_code"  # expired
    with pytest.raises(ClassroomError) as err:
        teacher.seat_code(10**9)
    assert err.value.kind == "no_student"


def test_teacher_tokens_open_the_dashboard_like_the_key(store, blog):
    info, token = blog
    teacher = store.teacher(info.code, token)
    browser_token = teacher.issue_token()
    assert browser_token != token and store.teacher(info.code, browser_token).info.id == info.id
    other, other_key = store.create(practice_task(2))
    assert store.teacher(other.code, browser_token) is None  # a token opens its own class only
    with store.engine.connect() as conn:
        dump = " ".join(str(v) for row in conn.exec_driver_sql("SELECT * FROM class_teacher_tokens") for v in row)
    assert browser_token not in dump


def test_teacher_settings_live_in_the_database(db_url, clock):
    one, two = Store(db_url, clock=clock), Store(db_url, clock=clock)  # two app servers
    info, token = one.create(example_task("003-blog"), feedback="value")
    assert info.feedback == "value"
    seat, _ = two.join(info.code, "Ada")
    assert two.pulse(info.id, max_age=0) == (1, False, "value")
    teacher = one.teacher(info.code, token)
    before = teacher.version(1)  # (students, newest student, answers, newest answer, revealed, names shown)
    assert before == (1, seat.id, 0, 0, 0, False)
    teacher.set_feedback("concept")
    teacher.set_show_names(True)
    assert teacher.version(1) == (1, seat.id, 0, 0, 0, True)
    teacher.reveal()
    assert two.pulse(info.id, max_age=0) == (1, True, "concept")
    assert two.teacher(info.code, token).info.show_names
    assert kind_of(lambda: teacher.set_feedback("answers")) == "feedback"
    assert kind_of(lambda: one.create(practice_task(1), feedback="x")) == "feedback"
    teacher.next_round(practice_task(5), after=1)
    assert kind_of(lambda: two.teacher(info.code, token).next_round(practice_task(6), after=1)) == "round_moved"
    assert two.pulse(info.id, max_age=0) == (2, False, "concept")


def test_seat_is_found_only_with_its_own_token(store, blog):
    info, _ = blog
    other, _ = store.create(practice_task(2))
    seat, token = store.join(info.code, "Ada")
    _, token_b = store.join(info.code, "Bo")
    assert store.seat(info.code, token).id == seat.id
    assert store.seat(info.code, token_b).id != seat.id
    assert store.seat(other.code, token) is None
    assert store.seat(info.code, token + "x") is None
    assert store.seat(info.code, None) is None


# ---------------------------------------------------------------------------------------------- answers
def test_right_and_wrong_answers_are_checked_by_the_diagnosis(store, blog):
    info, _ = blog
    seat, _ = store.join(info.code, "Ada")
    assert seat.submit(1, "dcg", "6.86", submission_id="a").ok
    wrong = seat.submit(1, "idcg", "8.37", submission_id="b")  # 8.3841 rounds to 8.38; 8.37 is a slip
    assert not wrong.ok and wrong.kinds
    trunc = seat.submit(1, "terms", "3 1.26 1.5 0 0.38 0.71", submission_id="c")  # 1/log2 6 = 0.3869 -> 0.39
    assert not trunc.ok and "truncation" in trunc.kinds
    right = seat.submit(1, "terms", "3, 1.26, 1.5, 0, 0.39, 0.71", submission_id="d")
    assert right.ok and right.kinds == ()
    assert seat.submit(1, "ndcg", "81.84%", submission_id="e").ok
    # carried forward: an NDCG that is right for the student's own (wrong) IDCG
    bo, _ = store.join(info.code, "Bo")
    bo.submit(1, "dcg", "6.86", submission_id="a")
    bo.submit(1, "idcg", "8.48", submission_id="b")
    carried = bo.submit(1, "ndcg", "0.809", submission_id="c")  # 6.86 / 8.48 = 0.8090
    assert not carried.ok and carried.kinds == ("carried_forward:idcg",)
    assert carried.verdict.state == "carried_forward" and carried.verdict.carried_from == ("idcg",)
    assert bo.answers(1)[-1].verdict == carried.verdict  # as stored and read back
    # the same sheet written the other way round: NDCG first (nothing to carry from yet: a slip), then the
    # IDCG it was divided by -- the stored NDCG verdict becomes what the student's page says, carried forward
    cy, _ = store.join(info.code, "Cy")
    cy.submit(1, "dcg", "6.86", submission_id="a")
    early = cy.submit(1, "ndcg", "0.809", submission_id="b")
    assert not early.ok and early.kinds == ("arithmetic_slip",)
    cy.submit(1, "idcg", "8.48", submission_id="c")
    stored = {a.field: a.verdict for a in cy.answers(1)}
    assert stored["ndcg"].state == "carried_forward" and stored["ndcg"].carried_from == ("idcg",)
    assert stored["idcg"].state == "wrong" and stored["dcg"].ok


def test_partial_terms_are_not_right(store, blog):
    info, _ = blog
    seat, _ = store.join(info.code, "Ada")
    partial = seat.submit(1, "terms", "3 1.26", submission_id="a")
    assert not partial.ok and partial.kinds == ()  # nothing wrong yet, but not finished
    assert partial.verdict.state == "unfinished"


def test_a_retried_submission_is_stored_once(store, blog):
    info, _ = blog
    seat, _ = store.join(info.code, "Ada")
    first = seat.submit(1, "dcg", "6.86", submission_id="same")
    again = seat.submit(1, "dcg", "6.86", submission_id="same")
    also = seat.submit(1, "dcg", "7", submission_id="same")  # the id decides, not the text
    assert not first.duplicate and again.duplicate and also.duplicate
    assert again.id == also.id == first.id and also.text == "6.86"
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(answers)).scalar_one() == 1


def test_answer_refusals(db_url, clock):
    store = Store(db_url, clock=clock, limits=Limits(answers_per_minute=3, answers_per_round=4))
    info, _ = store.create(example_task("003-blog"), fields=("dcg", "ndcg"))
    seat, _ = store.join(info.code, "Ada")
    assert kind_of(lambda: seat.submit(1, "idcg", "8.38", submission_id="x")) == "field"
    assert kind_of(lambda: seat.submit(1, "dcg", "9" * 301, submission_id="x")) == "too_long"
    assert kind_of(lambda: seat.submit(1, "dcg", "  ", submission_id="x")) == "empty"
    assert kind_of(lambda: seat.submit(1, "dcg", "six", submission_id="x")) == "unreadable"
    assert kind_of(lambda: seat.submit(2, "dcg", "6.86", submission_id="x")) == "round_closed"
    assert kind_of(lambda: seat.submit(1, "dcg", "6.86", submission_id="")) == "submission_id"
    assert seat.answers(1) == []  # nothing refused was stored
    for i in range(3):
        seat.submit(1, "dcg", f"6.8{i}", submission_id=f"r{i}")
    assert kind_of(lambda: seat.submit(1, "dcg", "6.86", submission_id="r3")) == "rate_answer"
    clock.now += 61
    seat.submit(1, "dcg", "6.86", submission_id="r3")
    assert kind_of(lambda: seat.submit(1, "ndcg", "0.82", submission_id="r4")) == "too_many"
    clock.now += 12 * 3600
    assert kind_of(lambda: seat.submit(1, "ndcg", "0.82", submission_id="r5")) == "expired"


def test_a_student_reads_only_their_own_answers(store, blog):
    info, _ = blog
    ada, _ = store.join(info.code, "Ada")
    bo, _ = store.join(info.code, "Bo")
    ada.submit(1, "dcg", "6.86", submission_id="1")
    bo.submit(1, "dcg", "6.9", submission_id="1")  # the same client id from another student is another answer
    bo.submit(1, "ndcg", "0.8", submission_id="2")
    assert [a.text for a in ada.answers(1)] == ["6.86"]
    assert [a.text for a in bo.answers(1)] == ["6.9", "0.8"]
    assert ada.latest(1) == {"dcg": "6.86"}


# ---------------------------------------------------------------------------------------------- teacher
def test_reveal_and_next_round(store, blog):
    info, token = blog
    teacher = store.teacher(info.code, token)
    seat, _ = store.join(info.code, "Ada")
    assert store.pulse(info.id) == (1, False, "concept")
    seat.submit(1, "dcg", "6.8", submission_id="a")
    teacher.reveal()
    teacher.reveal()  # twice is harmless
    assert store.pulse(info.id) == (1, True, "concept")
    late = seat.submit(1, "dcg", "6.86", submission_id="b")
    assert late.ok and late.after_reveal
    nxt = teacher.next_round(practice_task(11, "medium"))
    assert nxt.number == 2 and store.pulse(info.id) == (2, False, "concept")
    assert store.round(info.id).task == practice_task(11, "medium")
    assert store.round(info.id, 1).task == example_task("003-blog")
    assert kind_of(lambda: seat.submit(1, "dcg", "6.86", submission_id="c")) == "round_closed"
    seat.submit(2, "dcg", "1", submission_id="c")
    frame = teacher.answers()
    assert list(frame["round"]) == [1, 1, 2] and list(frame["after_reveal"]) == [False, True, False]
    assert list(teacher.answers(2)["text"]) == ["1"]


def test_round_limit(db_url, clock):
    store = Store(db_url, clock=clock, limits=Limits(max_rounds=2))
    info, token = store.create(practice_task(1))
    teacher = store.teacher(info.code, token)
    teacher.next_round(practice_task(2))
    assert kind_of(lambda: teacher.next_round(practice_task(3))) == "too_many_rounds"


def test_teacher_reads_results_after_the_code_expired(store, blog, clock):
    info, token = blog
    seat, _ = store.join(info.code, "Ada")
    seat.submit(1, "dcg", "6.86", submission_id="a")
    clock.now += 13 * 3600
    teacher = store.teacher(info.code, token)
    assert teacher is not None and len(teacher.answers()) == 1
    assert kind_of(lambda: store.open(info.code)) == "expired"


# ---------------------------------------------------------------------------------------------- durability
def test_everything_committed_survives_a_new_engine(db_url, clock):
    store = Store(db_url, clock=clock)
    info, token = store.create(example_task("003-blog"))
    seat, student_token = store.join(info.code, "Ada")
    seat.submit(1, "dcg", "6.86", submission_id="a")
    db.dispose(store.url)  # as after a server restart: no pooled connection, no cache
    again = Store(db_url, clock=clock)
    seat2 = again.seat(info.code, student_token)
    assert seat2.latest(1) == {"dcg": "6.86"}
    assert len(again.teacher(info.code, token).answers()) == 1


def test_thirty_students_at_once_lose_and_duplicate_nothing(store, blog):
    info, token = blog
    seats = [store.join(info.code, f"s{i}")[0] for i in range(30)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(30)

    def work(seat):
        try:
            barrier.wait()
            for field, text in (("dcg", "6.86"), ("idcg", "8.38"), ("ndcg", "0.82")):
                seat.submit(1, field, text, submission_id=f"{seat.id}-{field}")
                seat.submit(1, field, text, submission_id=f"{seat.id}-{field}")  # a retry
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join()  # no time limit here: a hang is pytest-timeout's to end (a busy machine is slow, not wrong)
    assert not errors, errors[:3]
    frame = store.teacher(info.code, token).answers()
    assert len(frame) == 90 and frame.groupby(["student_id", "field"]).size().eq(1).all()
    assert frame["ok"].all()


# ---------------------------------------------------------------------------------------------- schema
def test_schema_is_at_the_newest_revision_and_matches_the_models(store):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with store.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"version_table": "class_schema_version"})
        assert ctx.get_current_revision() == "0004"
        diffs = compare_metadata(ctx, metadata)
    assert diffs == []
    assert set(inspect(store.engine).get_table_names()) >= {"class_sessions", "class_rounds", "class_students",
                                                            "class_answers", "class_schema_version",
                                                            "class_teacher_tokens", "class_throttle"}
    db.upgrade(store.engine)  # running the migrations again changes nothing


def test_sqlite_runs_in_wal_mode(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    db.dispose(store.url)


def test_default_url_is_the_data_folder(monkeypatch):
    monkeypatch.delenv(db.ENV_VAR, raising=False)
    url = db.database_url()
    assert url.endswith("data/classroom/classroom.sqlite3") and db.DEFAULT_DIR.is_dir()
    monkeypatch.setenv(db.ENV_VAR, "postgresql://u:secret@h/lab")
    assert db.database_url() == "postgresql+psycopg://u:secret@h/lab"
    assert "secret" not in db.describe(db.database_url())


# ---------------------------------------------------------------------------------------------- text
@given(st.text(max_size=200))
def test_nicknames_are_one_capped_line_without_control_characters(text):
    import unicodedata

    name = clean_nickname(text, 24)
    assert len(graphemes(name)) <= 24 and len(name) <= MAX_CODE_POINTS and name == name.strip()
    # no control or format character but the joiners between two visible characters and a flag's tags
    assert not any(unicodedata.category(ch)[0] == "C" and ch not in "\u200c\u200d"
                   and not "\U000e0020" <= ch <= "\U000e007f" for ch in name)
    assert "\n" not in name and "  " not in name


@given(st.text(max_size=100))
def test_codes_normalise_to_ascii_letters_and_digits(text):
    assert set(normalise_code(text)) <= set(string.ascii_uppercase + string.digits)


# ---------------------------------------------------------------------------------------------- housekeeping
def test_expired_classes_and_their_answers_are_deleted_after_the_retention(db_url, clock):
    store = Store(db_url, clock=clock, limits=Limits(retention=86400))
    old, old_key = store.create(example_task("003-blog"))
    seat, _ = store.join(old.code, "Ada", client=Client("s", "198.51.100.1"))
    seat.submit(1, "dcg", "6.86", submission_id="1")
    store.teacher(old.code, old_key).issue_token()
    clock.now += 12 * 3600 + 86400 - 1  # expired a day ago minus a second: kept
    assert store.purge() == 0 and store.teacher(old.code, old_key) is not None
    clock.now += 2
    fresh, fresh_key = store.create(practice_task(1))  # creating a class purges first
    assert store.teacher(old.code, old_key) is None and store.teacher(fresh.code, fresh_key) is not None
    with store.engine.connect() as conn:
        counts = {t: conn.exec_driver_sql(f"SELECT COUNT(*) FROM {t}").scalar() for t in
                  ("class_sessions", "class_rounds", "class_students", "class_answers", "class_teacher_tokens")}
    assert counts == {"class_sessions": 1, "class_rounds": 1, "class_students": 0, "class_answers": 0,
                      "class_teacher_tokens": 0}
    with store.engine.connect() as conn:  # throttle rows unused for a day went too
        assert conn.execute(select(func.count()).select_from(throttle)).scalar_one() == 0


def test_limits_from_the_environment(monkeypatch):
    monkeypatch.setenv("NDCG_LAB_RETENTION_DAYS", "2.5")
    monkeypatch.setenv("NDCG_LAB_SEATS_PER_ADDRESS", "400")
    lim = Limits.from_env()
    assert (lim.retention, lim.seats_per_address, lim.joins_per_address) == (2.5 * 86400, 400, 30)
    for name, value, field in [("NDCG_LAB_JOINS_PER_ADDRESS", "300", "joins_per_address"),
                               ("NDCG_LAB_WRONG_CODES_PER_ADDRESS", "500", "free_guesses_address"),
                               ("NDCG_LAB_WRONG_CODES_PER_SESSION", "8", "free_guesses_session"),
                               ("NDCG_LAB_CLASSES_PER_ADDRESS", "90", "classes_per_address")]:
        monkeypatch.setenv(name, value)
        assert getattr(Limits.from_env(), field) == int(value)
    monkeypatch.setenv("NDCG_LAB_SEATS_PER_ADDRESS", "100000")
    assert Limits.from_env().seat_cap == 400  # one address never fills a class of 500
    monkeypatch.setenv("NDCG_LAB_RETENTION_DAYS", "soon")
    with pytest.raises(ValueError, match="NDCG_LAB_RETENTION_DAYS must be a number, got 'soon'"):
        Limits.from_env()
    monkeypatch.setenv("NDCG_LAB_RETENTION_DAYS", "nan")
    with pytest.raises(ValueError, match="finite number >= 0"):
        Limits.from_env()


def test_two_servers_migrating_an_empty_database_at_once(db_url, tmp_path):
    # Four processes (as four app servers starting together) upgrade one empty database at the same
    # moment: each imports everything, says it is ready, and waits for "go".  The lock makes one create the
    # schema and the others find it done (without it PostgreSQL fails with duplicate tables).
    import subprocess
    import sys

    script = (
        "import sys, time, pathlib\n"
        "from classroom import db\n"
        "engine = db.new_engine(sys.argv[1])\n"
        "folder = pathlib.Path(sys.argv[2])\n"
        "(folder / f'ready-{sys.argv[3]}').touch()\n"
        "while not (folder / 'go').exists():\n"
        "    time.sleep(0.005)\n"
        "db.upgrade(engine)\n"
    )
    root = Path(__file__).resolve().parents[2]
    procs = [subprocess.Popen([sys.executable, "-c", script, db_url, str(tmp_path), str(i)], cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for i in range(4)]
    try:
        deadline = time.time() + 120
        while len(list(tmp_path.glob("ready-*"))) < len(procs) and time.time() < deadline:
            if any(p.poll() not in (None, 0) for p in procs):
                break
            time.sleep(0.05)
        (tmp_path / "go").touch()
        outputs = [p.communicate(timeout=120)[0].decode(errors="replace") for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert [p.returncode for p in procs] == [0, 0, 0, 0], "\n".join(outputs)[-3000:]
    store = Store(db_url)
    info, token = store.create(practice_task(1))
    assert store.teacher(info.code, token) is not None


def test_migrating_from_0001_gives_look_alike_nicknames_distinct_keys(db_url):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    engine = db.new_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0001")
            sid = conn.execute(text("INSERT INTO class_sessions (code, teacher_hash, steps, round_no, created_at, "
                                    "expires_at) VALUES ('ACDEFH', 'x', 'dcg', 1, 0, 1e10) RETURNING id")).scalar_one()
            rid = conn.execute(text("INSERT INTO class_rounds (session_id, number, task, created_at) "
                                    "VALUES (:s, 1, '{}', 0) RETURNING id"), {"s": sid}).scalar_one()
            for i, name in enumerate(["Ada", "\u0410da", "Bo"], start=1):  # 0001 keyed them by casefold only
                st_id = conn.execute(text(
                    "INSERT INTO class_students (session_id, number, nickname, nickname_key, token_hash, joined_at) "
                    "VALUES (:s, :n, :name, :key, 't', 0) RETURNING id"),
                    {"s": sid, "n": i, "name": name, "key": name.casefold()}).scalar_one()
                conn.execute(text("INSERT INTO class_answers (student_id, round_id, field, text, ok, kinds, "
                                  "after_reveal, submission_id, created_at) VALUES (:st, :r, 'dcg', '6.86', true, '', "
                                  "false, 'x', 0)"), {"st": st_id, "r": rid})
        db.upgrade(engine)
        with engine.connect() as conn:
            keys = [r[0] for r in conn.execute(select(students.c.nickname_key).order_by(students.c.number))]
            assert conn.execute(select(sessions.c.feedback, sessions.c.joining_open)).one() == ("concept", True)
            # SQLite copies a table to alter it: nothing that refers to it may be lost on the way
            assert conn.execute(select(func.count()).select_from(answers)).scalar_one() == 3
            assert conn.execute(text("SELECT COUNT(*) FROM class_rounds")).scalar_one() == 1
        assert keys[0] == "ada" and keys[1].startswith("ada#") and keys[2] == "bo"
    finally:
        engine.dispose()
