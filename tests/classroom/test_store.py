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

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, inspect, select

from classroom import db
from classroom.models import answers, metadata
from classroom.store import CODE_ALPHABET, ClassroomError, Limits, Store, clean_nickname, normalise_code
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
    assert kind_of(lambda: store.join(info.code, " \u200b\t ")) == "nickname_empty"
    assert kind_of(lambda: store.join("AAAAAA", "x")) == "unknown_code"
    assert kind_of(lambda: store.join("", "x")) == "unknown_code"
    clock.now += 12 * 3600
    assert kind_of(lambda: store.join(info.code, "late")) == "expired"


def test_student_cap_and_join_rate(db_url, clock):
    store = Store(db_url, clock=clock, limits=Limits(max_students=3, joins_per_minute=2))
    info, _ = store.create(practice_task(3))
    store.join(info.code, "a")
    store.join(info.code, "b")
    assert kind_of(lambda: store.join(info.code, "c")) == "rate_join"
    clock.now += 61
    store.join(info.code, "c")
    assert kind_of(lambda: store.join(info.code, "d")) == "full"


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
    assert not carried.ok and carried.kinds == ("carried_forward",)


def test_partial_terms_are_not_right(store, blog):
    info, _ = blog
    seat, _ = store.join(info.code, "Ada")
    partial = seat.submit(1, "terms", "3 1.26", submission_id="a")
    assert not partial.ok and partial.kinds == ()  # nothing wrong yet, but not finished


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
    assert store.pulse(info.id) == (1, False)
    seat.submit(1, "dcg", "6.8", submission_id="a")
    teacher.reveal()
    teacher.reveal()  # twice is harmless
    assert store.pulse(info.id) == (1, True)
    late = seat.submit(1, "dcg", "6.86", submission_id="b")
    assert late.ok and late.after_reveal
    nxt = teacher.next_round(practice_task(11, "medium"))
    assert nxt.number == 2 and store.pulse(info.id) == (2, False)
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
        assert ctx.get_current_revision() == "0001"
        diffs = compare_metadata(ctx, metadata)
    assert diffs == []
    assert set(inspect(store.engine).get_table_names()) >= {"class_sessions", "class_rounds", "class_students",
                                                            "class_answers", "class_schema_version"}
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
    assert len(name) <= 24 and name == name.strip()
    assert not any(unicodedata.category(ch)[0] == "C" for ch in name)
    assert "\n" not in name and "  " not in name


@given(st.text(max_size=100))
def test_codes_normalise_to_ascii_letters_and_digits(text):
    assert set(normalise_code(text)) <= set(string.ascii_uppercase + string.digits)
