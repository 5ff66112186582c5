"""Hostile use of the classroom store, third round (issue 37), on SQLite and a real PostgreSQL.

* A guesser cannot lock a hall out: a client held for wrong codes is told the same thing for a right and a
  wrong code (its join waits for the teacher), so holding it costs the hall one click of the teacher's,
  not the lecture; a class known at the address (created there, a student seated from there, let in by the
  teacher) is joined at once.
* Removal bars the browser and the nickname from that class; numbers are not given again.
* The retention is checked on every read.
* One address never holds more than 80 % of a class's seats, whatever the settings say.
* Nicknames keep their grapheme clusters; accents do not make a look-alike distinct.
"""
from __future__ import annotations

import csv
import io
import unicodedata

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select, text

from classroom import db, stats
from classroom.models import students
from classroom.nicknames import clean_nickname, graphemes, skeleton
from classroom.store import ClassroomError, Client, Limits, Store
from classroom.tasks import example_task, practice_task
from metrics.safe_csv import SIGNED_NUMBER, to_csv
from tests.classroom.test_store import Clock, kind_of

HALL = "198.51.100.20"  # a lecture hall behind one NAT address


@pytest.fixture
def clock():
    return Clock()


def wrong_codes(store: Store, address: str, n: int, *, session: str | None = None) -> list[str]:
    """A guesser at ``address`` typing ``n`` codes no class has (a fresh browser session each time, or the
    one ``session``): the refusal kinds it got."""
    kinds = []
    for i in range(n):
        who = Client(session or f"bot-{i}", address)
        kinds.append(kind_of(lambda who=who, i=i: store.join(f"ZZZ{i % 1000:03d}", f"bot{i}", client=who)))
    return kinds


# ---------------------------------------------------------------------------------------------- the hall
def test_a_guesser_does_not_lock_a_hall_out(db_url, clock):
    # Issue 37: ~60 wrong codes from one address, then honest students at that address typing the right code
    # were refused for minutes.  Now the first one waits for the teacher (the hall's code could not be told
    # from a guess), the teacher lets them in with one click, and everyone after joins at once.
    store = Store(db_url, clock=clock, limits=Limits(seats_per_address=400, joins_per_address=300))
    info, key = store.create(example_task("003-blog"), client=Client("teacher", "203.0.113.1"))  # elsewhere
    kinds = wrong_codes(store, HALL, 60)
    assert kinds[:50] == ["unknown_code"] * 50  # the address's free wrong codes (50 an hour)
    assert set(kinds[51:]) == {"waiting"}  # then held: no code is checked for it
    first = [Client(f"early-{i}", HALL) for i in range(3)]
    for i, who in enumerate(first):
        err = pytest.raises(ClassroomError, store.join, info.code, f"early{i}", client=who,
                            token=f"{'t' * 31}{i}").value
        assert err.kind == "waiting"
    teacher = store.teacher(info.code, key)
    assert list(teacher.waiting()["nickname"]) == ["early0", "early1", "early2"]
    assert teacher.admit_waiting() == 3
    assert store.seat(info.code, f"{'t' * 31}0").nickname == "early0"  # the waiting page finds its seat
    # the hall's address is let in for this class: every later student joins at once, right away
    seats = [store.join(info.code, f"s{i}", client=Client(f"s-{i}", HALL))[0] for i in range(40)]
    assert [s.number for s in seats] == list(range(4, 44))
    assert teacher.waiting().empty
    # the guesser at that address still learns nothing about any other code
    other, _ = store.create(practice_task(5), client=Client("t2", "203.0.113.2"))
    for code in (other.code, "ZZZ999"):
        assert kind_of(lambda code=code: store.join(code, "bot", client=Client("bot-x", HALL))) == "waiting"


def test_a_class_known_at_the_address_is_joined_at_once(db_url, clock):
    store = Store(db_url, clock=clock)
    here, _ = store.create(practice_task(1), client=Client("teacher", HALL))  # the teacher on the hall's network
    seated, _ = store.create(practice_task(2), client=Client("t2", "203.0.113.2"))
    store.join(seated.code, "before", client=Client("b", HALL))  # a student seated before the flood
    wrong_codes(store, HALL, 55)
    assert store.join(here.code, "Ada", client=Client("a", HALL))[0].number == 1
    assert store.join(seated.code, "Bo", client=Client("c", HALL))[0].number == 2
    # a seat code in a class known there is checked too (a wrong one still counts)
    assert kind_of(lambda: store.reclaim(seated.code, "ACDEFHJK", client=Client("d", HALL))) == "bad_seat_code"


def test_a_held_client_gets_one_answer_for_every_code(db_url, clock):
    # The answer (kind, message, seconds) does not depend on the code: right, wrong, expired, closed or full.
    store = Store(db_url, clock=clock, limits=Limits(max_students=1))
    live, key = store.create(practice_task(1))
    closed, closed_key = store.create(practice_task(2))
    store.teacher(closed.code, closed_key).set_joining(False)
    full, _ = store.create(practice_task(3))
    store.join(full.code, "only", client=Client("o", "203.0.113.8"))
    guesser = Client("g", "203.0.113.9")
    assert wrong_codes(store, guesser.address, 6, session="g") == ["unknown_code"] * 6  # the 6th: held 2 s
    answers = []
    for code in (live.code, closed.code, full.code, "ZZZZZZ"):
        err = pytest.raises(ClassroomError, store.join, code, "g", client=guesser).value
        answers.append((err.kind, str(err), err.params))
    assert len(set(map(repr, answers))) == 1 and answers[0][0] == "waiting"
    assert kind_of(lambda: store.join(" - ", "g", client=guesser)) == "code_empty"  # no code: nothing to hide

    # only the live class, open for joining, keeps the join for its teacher
    assert len(store.teacher(live.code, key).waiting()) == 1
    assert store.teacher(closed.code, closed_key).waiting().empty
    # a nickname's own problems are said at once (they do not depend on the code)
    assert kind_of(lambda: store.join(live.code, "\u3164", client=guesser)) == "nickname_invisible"


def test_letting_in_checks_what_a_join_checks(db_url, clock):
    store = Store(db_url, clock=clock)
    info, key = store.create(example_task("003-blog"))
    teacher = store.teacher(info.code, key)
    ada, _ = store.join(info.code, "Ada", client=Client("a", "203.0.113.3"))
    teacher.remove(ada.id)
    store.join(info.code, "Bo", client=Client("b", "203.0.113.4"))
    wrong_codes(store, HALL, 51)
    tokens = {name: name.lower().ljust(32, "x") for name in ("ADA", "bo", "Cy")}
    for i, (name, token) in enumerate(tokens.items()):
        assert kind_of(lambda i=i, name=name, token=token: store.join(
            info.code, name, client=Client(f"h{i}", HALL), token=token)) == "waiting"
    assert teacher.admit_waiting() == 1  # Cy
    assert store.waiting_problem(info.code, tokens["ADA"]) == "nickname_removed"
    assert store.waiting_problem(info.code, tokens["bo"]) == "nickname_taken"
    assert store.waiting_problem(info.code, tokens["Cy"]) is None and store.seat(info.code, tokens["Cy"])
    assert list(teacher.waiting()["problem"]) == ["nickname_removed", "nickname_taken"]
    assert teacher.admit_waiting() == 0  # those refused are not tried again
    clock.now += 3601
    assert teacher.waiting().empty  # kept an hour at most


# ---------------------------------------------------------------------------------------------- removal
def test_removal_bars_the_browser_and_the_nickname(db_url, clock):
    # Issue 37: a removed student rejoined at once from the same browser with the same nickname and number.
    store = Store(db_url, clock=clock)
    info, key = store.create(example_task("003-blog"))
    teacher = store.teacher(info.code, key)
    tab = Client("tab-1", "203.0.113.5")
    store.join(info.code, "Ada", client=Client("a0", "203.0.113.6"))
    troll, cookie = store.join(info.code, "Troll", client=tab)
    assert troll.number == 2 and teacher.remove(troll.id)
    # the same tab (its session), or the same browser later (the token its cookie keeps), under any nickname
    assert kind_of(lambda: store.join(info.code, "Nice", client=tab)) == "removed_here"
    assert kind_of(lambda: store.join(info.code, "Nice", client=Client("tab-2", "203.0.113.5"),
                                      held=[cookie])) == "removed_here"
    # the nickname, or one that looks the same, from any browser
    for name in ("Troll", "TROLL", "Tr\u043ell", "Tròll"):
        assert kind_of(lambda name=name: store.join(info.code, name, client=Client(f"x-{name}", "203.0.113.7"))) \
            == "nickname_removed", name
    # someone else under another name is welcome, with a new number (2 is not given again)
    assert store.join(info.code, "Cy", client=Client("c", "203.0.113.5"))[0].number == 3
    other, _ = store.create(practice_task(1))
    assert store.join(other.code, "Troll", client=tab)[0].number == 1  # another class: not barred


# ---------------------------------------------------------------------------------------------- retention
def test_the_retention_holds_on_every_read_even_without_a_purge(db_url, clock):
    # Issue 37: 8 days after expiry, with no class created and no code typed, the key and a token still worked.
    store = Store(db_url, clock=clock, limits=Limits(retention=86400))
    info, key = store.create(example_task("003-blog"))
    teacher = store.teacher(info.code, key)
    browser_token = teacher.issue_token()
    seat, token = store.join(info.code, "Ada")
    clock.now += 12 * 3600 + 86400 - 1
    assert store.teacher(info.code, key) and store.teacher(info.code, browser_token) and store.seat(info.code, token)
    clock.now += 2
    store.PURGE_EVERY = float("inf")  # no purge runs
    assert store.teacher(info.code, key) is None and store.teacher(info.code, browser_token) is None
    assert store.seat(info.code, token) is None
    assert kind_of(lambda: store.join(info.code, "Bo")) == "unknown_code"
    with store.engine.connect() as conn:  # the rows are still there: the read refused them
        assert conn.execute(select(students.c.id)).all()


# ---------------------------------------------------------------------------------------------- seats
def test_one_address_cannot_fill_a_class_even_with_raised_limits(db_url, clock):
    store = Store(db_url, clock=clock, limits=Limits(max_students=10, seats_per_address=10_000,
                                                     joins_per_address=10_000))
    info, _ = store.create(practice_task(3))
    for i in range(8):
        store.join(info.code, f"n{i}", client=Client(f"s{i}", HALL))
    err = pytest.raises(ClassroomError, store.join, info.code, "n8", client=Client("s8", HALL)).value
    assert (err.kind, err.params["limit"]) == ("address_full", 8)
    assert store.join(info.code, "other", client=Client("o", "203.0.113.50"))[0].number == 9


def test_the_class_size_is_a_setting(db_url, clock, monkeypatch):
    # A lecture hall of 600 needs more than the default 500 seats; a size that is not a whole number >= 1 is
    # refused by name when the server starts, never read as "nobody can join".
    monkeypatch.setenv("NDCG_LAB_CLASS_SIZE", "3")
    store = Store(db_url, clock=clock, limits=Limits.from_env())
    info, _ = store.create(practice_task(3))
    for i in range(3):
        store.join(info.code, f"n{i}", client=Client(f"s{i}", f"203.0.113.{i}"))
    err = pytest.raises(ClassroomError, store.join, info.code, "n3", client=Client("s3", "203.0.113.3")).value
    assert (err.kind, err.params["limit"]) == ("full", 3)
    for bad in ("0", "-5", "many", "inf"):
        monkeypatch.setenv("NDCG_LAB_CLASS_SIZE", bad)
        with pytest.raises(ValueError, match="NDCG_LAB_CLASS_SIZE"):
            Limits.from_env()
    monkeypatch.setenv("NDCG_LAB_CLASS_SIZE", "600")
    assert Limits.from_env().max_students == 600


# ---------------------------------------------------------------------------------------------- nicknames
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
ENGLAND = "\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"
PERSIAN = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # می‌خواهم, with its zero-width non-joiner


def test_nicknames_keep_their_grapheme_clusters(db_url, clock):
    # Issue 37: zero-width joiners became spaces (a family became four people, a Persian word split) and the
    # 24-character cut fell inside a flag.
    store = Store(db_url, clock=clock)
    info, _ = store.create(practice_task(1))
    for name in (FAMILY + " Bo", PERSIAN, "Wales " + ENGLAND, "\U0001F1EB\U0001F1F7 Zoé"):
        assert store.join(info.code, name)[0].nickname == name
    long = "ab" + "\U0001F1EB\U0001F1F7" * 30  # 2 + 30 flags: cut after 22 flags, never inside one
    seat, _ = store.join(info.code, long)
    assert seat.nickname == "ab" + "\U0001F1EB\U0001F1F7" * 22 and len(graphemes(seat.nickname)) == 24
    assert clean_nickname("a\u202eb\u200bc\U000E0041d") == "a b c d"  # bidi, zero-width space, a stray tag


def test_accents_do_not_make_a_look_alike_distinct(db_url, clock):
    store = Store(db_url, clock=clock)
    info, _ = store.create(practice_task(1))
    store.join(info.code, "Ada")
    for name in ("Ad\u1ea1", "A\u0301da", "\u00c4da", "Ada\u0308"):  # ạ, Á (combining), Ä, a trailing ̈
        assert kind_of(lambda name=name: store.join(info.code, name)) == "nickname_taken", name
    # marks of a script's own letters stay distinct (Devanagari vowel signs, Korean syllables)
    for a, b in (("\u0915\u093f", "\u0915\u0940"), ("\ubbfc\uc900", "\ubbfc\uc9c0")):
        store.join(info.code, a)
        assert store.join(info.code, b)[0].nickname == b


_CLUSTERS = ["a", "Z", "\u00e9", "e\u0301", FAMILY, ENGLAND, "\U0001F1EB\U0001F1F7", "\u0915\u094d\u0937\u093f",
             "\ud55c", "\U0001F44D\U0001F3FD", "\u2764\ufe0f", " "]


@given(st.lists(st.sampled_from(_CLUSTERS), max_size=40), st.integers(1, 30))
def test_the_cut_never_falls_inside_a_cluster(parts, limit):
    name = clean_nickname("".join(parts), limit)
    kept = graphemes(name)
    assert len(kept) <= limit
    whole = {unicodedata.normalize("NFKC", c) for c in _CLUSTERS}
    assert set(kept) <= whole  # every cluster of the result is a whole one of the input


_letters = st.text(st.characters(categories=("Lu", "Ll"), max_codepoint=0x4FF), min_size=1, max_size=12)


@given(_letters, st.lists(st.tuples(st.integers(0, 11), st.integers(0x300, 0x36F)), max_size=3))
def test_accents_never_change_a_skeleton(name, marks):
    # Any combining accent (U+0300..U+036F, Script=Inherited) added after any letter: the same key.
    accented = list(name)
    for position, mark in marks:
        i = position % len(accented)
        accented[i] += chr(mark)
    assert skeleton("".join(accented)) == skeleton(name)
    assert skeleton(name.upper()) == skeleton(name.casefold().upper())


# ---------------------------------------------------------------------------------------------- the CSV
def test_the_teachers_csv_is_safe_in_both_locales_and_keeps_numbers(db_url, clock):
    # Issue 37: read with ";" a nickname ";=1+1;" became a formula cell; an answer -1 was exported as '-1.
    store = Store(db_url, clock=clock)
    info, key = store.create(example_task("003-blog"))
    troll, _ = store.join(info.code, ";=1+1;")
    troll.submit(1, "dcg", "-1", submission_id="a")
    troll.submit(1, "ndcg", "-0.5", submission_id="b")
    text = to_csv(stats.results(store.teacher(info.code, key).answers()))
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    answers = [r[header.index("answer")] for r in rows[1:]]
    assert answers == ["-1", "-0.5"] and pd.read_csv(io.StringIO(text))["answer"].tolist() == [-1.0, -0.5]
    for delimiter in ",;":
        cells = [c for row in csv.reader(io.StringIO(text), delimiter=delimiter) for c in row]
        cells += [piece.strip(' "') for line in text.splitlines() for piece in line.split(delimiter)]
        live = [c for c in cells if c.lstrip().startswith(("=", "+", "-", "@")) and not SIGNED_NUMBER.fullmatch(c)]
        assert live == [], delimiter


# ---------------------------------------------------------------------------------------------- schema
def test_migrating_from_0002_recomputes_keys_without_losing_a_row(db_url):
    from alembic import command
    from alembic.config import Config

    engine = db.new_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0002")
            sid = conn.execute(text("INSERT INTO class_sessions (code, teacher_hash, steps, round_no, created_at, "
                                    "expires_at) VALUES ('ACDEFH', 'x', 'dcg', 1, 0, 1e10) RETURNING id")).scalar_one()
            for i, name in enumerate(["Ada", "Ad\u1ea1", "Bo"], start=1):  # 0002's keys kept the dot below apart
                conn.execute(text(
                    "INSERT INTO class_students (session_id, number, nickname, nickname_key, token_hash, joined_at) "
                    "VALUES (:s, :n, :name, :key, 't', 0)"), {"s": sid, "n": i, "name": name, "key": name.lower()})
        db.upgrade(engine)
        with engine.connect() as conn:
            keys = [r[0] for r in conn.execute(select(students.c.nickname_key).order_by(students.c.number))]
        assert keys[0] == "ada" and keys[1].startswith("ada#") and keys[2] == "bo"
    finally:
        engine.dispose()


def test_pressing_enter_before_typing_the_code_never_holds_the_browser(db_url, clock):
    """A student presses Enter in the join form before typing the code (or types only spaces or dashes), many
    times: each is "type the code", none a wrong code — the right code then joins at once, and the wrong codes
    allowed before holding are all still there."""
    store = Store(db_url, clock=clock)
    info, _ = store.create(practice_task(1))
    student = Client("s", "198.51.100.77")
    for typed in ["", " ", "-", "  --  ", "\u3000"] * 6:
        assert kind_of(lambda typed=typed: store.open(typed, client=student)) == "code_empty"
        assert kind_of(lambda typed=typed: store.join(typed, "Min", client=student)) == "code_empty"
    assert wrong_codes(store, student.address, 5, session="s") == ["unknown_code"] * 5  # not held yet
    assert store.join(info.code, "Min", client=student)[0].number == 1
