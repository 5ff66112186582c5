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
    assert spread[["answer", "students", "ok"]].values.tolist() == [["6.86", 3, True]]
    named = stats.mistakes(frame)
    assert named["students"].tolist() == [1] * len(named) and len(named) >= 1  # Ada's first DCG, named
    grid = stats.grid(frame, teacher.students(), FIELDS)
    assert grid["dcg"].tolist() == [True, True, True] and grid["answers"].tolist() == [2, 1, 1]
    results = stats.results(teacher.answers())
    assert results["first_try"].tolist() == [True, False, True, True]
    assert results["after_reveal"].tolist() == [False, False, False, True]
    text = to_csv(results)
    back = pd.read_csv(io.StringIO(text))
    assert back["nickname"].iloc[0] == "'=HYPERLINK(\"http://x\")"  # inert in a spreadsheet
    assert "\n=" not in text and ",=" not in text


def test_spread_folds_the_tail_into_one_bar():
    frame = pd.DataFrame({
        "round": 1, "answer_id": range(1, 13), "student_id": range(100, 112), "number": range(1, 13),
        "nickname": "x", "field": "dcg", "text": [f"6.{i}" for i in range(12)], "ok": False, "kinds": "",
        "after_reveal": False, "created_at": 0.0})
    spread = stats.spread(frame, limit=8)
    assert len(spread) == 9 and spread["other"].tolist() == [False] * 8 + [True]
    assert spread["students"].sum() == 12
