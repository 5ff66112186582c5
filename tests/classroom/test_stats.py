"""classroom.stats: the teacher's summaries, from answers stored by the real store (SQLite and PostgreSQL)."""
from __future__ import annotations

import io

import pandas as pd

from classroom import stats
from classroom.store import Store
from classroom.tasks import FIELDS, example_task
from metrics.safe_csv import to_csv


def test_first_try_share_spread_mistakes_grid_and_csv(db_url):
    store = Store(db_url)
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    ada, _ = store.join(info.code, "=HYPERLINK(\"http://x\")")
    bo, _ = store.join(info.code, "Bo")
    cy, _ = store.join(info.code, "Cy")
    ada.submit(1, "dcg", "6.8", submission_id="1")   # wrong first ...
    ada.submit(1, "dcg", "6.86", submission_id="2")  # ... then right
    bo.submit(1, "dcg", "6.86", submission_id="1")   # right at once
    teacher = store.teacher(info.code, token)
    teacher.reveal()
    cy.submit(1, "dcg", "6.86", submission_id="1")   # right, but after the reveal: not a first try that counts
    frame = teacher.answers(1)
    summary = stats.field_summary(frame, FIELDS).set_index("field")
    # first tries before the reveal: Ada ✗, Bo ✓ -> 1/2; latest: ✓ ✓ ✓ -> 3/3
    assert summary.loc["dcg", "answered"] == 3
    assert summary.loc["dcg", "first_right"] == 0.5 and summary.loc["dcg", "right_now"] == 1.0
    assert pd.isna(summary.loc["ndcg", "first_right"])
    spread = stats.spread(frame)
    assert spread[["answer", "students", "state", "ok"]].values.tolist() == [["6.86", 3, "right", True]]
    named = stats.mistakes(frame)
    assert named["students"].tolist() == [1] * len(named) and len(named) >= 1  # Ada's first DCG, named
    grid = stats.grid(frame, teacher.students(), FIELDS)
    assert grid["dcg"].tolist() == ["✓", "✓", "✓"] and grid["answers"].tolist() == [2, 1, 1]
    assert grid["ndcg"].tolist() == ["", "", ""]
    results = stats.results(teacher.answers())
    assert results["first_try"].tolist() == [True, False, True, True]
    assert results["after_reveal"].tolist() == [False, False, False, True]
    assert results["verdict"].tolist() == ["wrong", "right", "right", "right"]
    text = to_csv(results)
    back = pd.read_csv(io.StringIO(text))
    assert back["nickname"].iloc[0] == "'=HYPERLINK(\"http://x\")"  # inert in a spreadsheet
    assert "\n=" not in text and ",=" not in text


def test_spread_folds_the_tail_into_one_bar_per_verdict():
    # 12 students, 12 distinct DCGs 6.0 ... 6.11, stored as the store keeps verdicts: the odd tenths right,
    # 6.8 carried forward from the terms, the other even ones wrong.  Eight bars, then the four others (6.8,
    # 6.9, 6.10, 6.11) summed by verdict: right 6.9 + 6.11 (2), wrong 6.10 (1), carried 6.8 (1).
    tenths = range(12)
    frame = pd.DataFrame({
        "round": 1, "answer_id": range(1, 13), "student_id": range(100, 112), "number": range(1, 13),
        "nickname": "x", "field": "dcg", "text": [f"6.{i}" for i in tenths], "ok": [i % 2 == 1 for i in tenths],
        "kinds": ["" if i % 2 else "carried_forward:terms" if i == 8 else "arithmetic_slip" for i in tenths],
        "notes": "", "after_reveal": False, "created_at": 0.0})
    spread = stats.spread(frame, limit=8)
    assert spread["other"].tolist() == [False] * 8 + [True] * 3
    assert spread[spread["other"]][["students", "state"]].values.tolist() == [
        [2, "right"], [1, "wrong"], [1, "carried_forward"]]
    assert spread["students"].sum() == 12


def test_one_value_one_colour_and_a_note_is_never_a_mistake(db_url):
    # The student: terms 3 1.26 1.5 0 0.39 0.71 (they add up to 6.86) and DCG 6.861 (exact 6.8611):
    # every number right, the sum note only.  Another student writes DCG 6.861 alone.  Both right, one bar.
    store = Store(db_url)
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    ada, _ = store.join(info.code, "Ada")
    bo, _ = store.join(info.code, "Bo")
    ada.submit(1, "terms", "3 1.26 1.5 0 0.39 0.71", submission_id="1")
    noted = ada.submit(1, "dcg", "6.861", submission_id="2")
    assert noted.ok and noted.kinds == () and noted.notes == ("self_inconsistent_sum",)
    bo.submit(1, "dcg", "6.861", submission_id="1")
    frame = store.teacher(info.code, token).answers(1)
    spread = stats.spread(frame)
    assert spread[spread["field"] == "dcg"][["answer", "students", "state"]].values.tolist() == [["6.861", 2, "right"]]
    assert stats.mistakes(frame).empty
    assert stats.field_summary(frame, FIELDS).set_index("field").loc["dcg", "first_right"] == 1.0
    assert stats.grid(frame, store.teacher(info.code, token).students(), FIELDS)["dcg"].tolist() == ["✓", "✓"]
    results = stats.results(frame)
    assert results["verdict"].tolist() == ["right", "right", "right"]
    assert results["notes"].tolist() == ["", "self_inconsistent_sum", ""]
