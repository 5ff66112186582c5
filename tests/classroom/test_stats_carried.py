"""classroom.stats.spread: every answer counted under the verdict its writer got — the one her page, the grid
and the CSV show — so that a DCG carried forward from the student's own wrong terms is never drawn wrong.

The class (document 003's worked example: grades 3 2 3 0 1 2, k = 6, linear gain, discount 1/log2(i+1),
DCG 6.8611) is written from models of students, not through the function under test:

* Ann divides by log2(i) instead of log2(i+1) and leaves position 1 undivided (log2 1 = 0), rounds each term
  to 2 decimals and adds her own terms exactly: her DCG is carried forward from her terms;
* Ben writes Ann's DCG alone (nothing of his own it follows from): wrong;
* Cy writes the first two right terms and stops: unfinished;
* Dee writes the right DCG, 6.86.
"""
from __future__ import annotations

import math
from decimal import Decimal

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom import stats
from classroom.store import Store
from classroom.tasks import FIELDS, example_task
from metrics.lessons.diagnose import MARKS, STATES
from tests.conftest import examples

GRADES = (3, 2, 3, 0, 1, 2)


def _two_places(x: float) -> Decimal:
    return Decimal(repr(x)).quantize(Decimal("0.01"))


def log2_i_sheet() -> tuple[list[Decimal], Decimal]:
    """Ann's terms (g / log2 i, position 1 divided by 1) to 2 decimals and their exact sum."""
    terms = [_two_places(g / (math.log2(i) if i > 1 else 1.0)) for i, g in enumerate(GRADES, start=1)]
    return terms, sum(terms, Decimal(0))


def test_the_model_sheet_is_the_testers():
    # 3/1, 2/log2 2 = 2, 3/log2 3 = 1.893 -> 1.89, 0, 1/log2 5 = 0.431 -> 0.43, 2/log2 6 = 0.774 -> 0.77; sum 8.09
    terms, total = log2_i_sheet()
    assert [str(x) for x in terms] == ["3.00", "2.00", "1.89", "0.00", "0.43", "0.77"]
    assert str(total) == "8.09"


def _class(db_url):
    store = Store(db_url)
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    terms, total = log2_i_sheet()
    seats = {name: store.join(info.code, name)[0] for name in ("Ann", "Ben", "Cy", "Dee")}
    seats["Ann"].submit(1, "terms", " ".join(f"{x.normalize():f}" for x in terms), submission_id="1")
    seats["Ann"].submit(1, "dcg", str(total), submission_id="2")
    seats["Ben"].submit(1, "dcg", str(total), submission_id="1")
    seats["Cy"].submit(1, "terms", "3 1.26", submission_id="1")
    seats["Dee"].submit(1, "dcg", "6.86", submission_id="1")
    teacher = store.teacher(info.code, token)
    return teacher, teacher.answers(1)


def test_a_dcg_carried_from_the_students_own_terms_is_drawn_carried_not_wrong(db_url):
    teacher, frame = _class(db_url)
    spread = stats.spread(frame)
    dcg = spread[spread["field"] == "dcg"]
    # Ann's 8.09 first (earliest of the one-student bars), then Ben's, then Dee's 6.86.
    assert dcg[["answer", "students", "state", "ok"]].values.tolist() == [
        ["8.09", 1, "carried_forward", False], ["8.09", 1, "wrong", False], ["6.86", 1, "right", True]]
    terms = spread[spread["field"] == "terms"]
    assert terms[["answer", "state"]].values.tolist() == [["3 2 1.89 0 0.43 0.77", "wrong"], ["3 1.26", "unfinished"]]
    # The grid and the CSV say the same of the same answers.
    grid = stats.grid(frame, teacher.students(), FIELDS).set_index("nickname")
    assert grid.loc["Ann", "dcg"] == MARKS["carried_forward"] and grid.loc["Ben", "dcg"] == MARKS["wrong"]
    assert grid.loc["Cy", "terms"] == MARKS["unfinished"]
    results = stats.results(frame).set_index(["nickname", "field"])
    assert results.loc[("Ann", "dcg"), "verdict"] == "carried_forward"
    assert results.loc[("Ann", "dcg"), "carried_from"] == "terms"


def _grid_counts(grid: pd.DataFrame, field: str) -> dict[str, int]:
    states = {MARKS[s]: s for s in STATES}
    return grid[field][grid[field] != ""].map(states).value_counts().to_dict()


def test_the_spread_counts_what_the_grid_marks(db_url):
    teacher, frame = _class(db_url)
    spread = stats.spread(frame)
    grid = stats.grid(frame, teacher.students(), FIELDS)
    for field in FIELDS:
        bars = spread[spread["field"] == field].groupby("state")["students"].sum().to_dict()
        assert bars == _grid_counts(grid, field), field


STORED = st.sampled_from([(True, "", ""), (True, "", "self_inconsistent_sum"), (False, "arithmetic_slip", ""),
                          (False, "carried_forward:terms", ""), (False, "carried_forward:dcg+idcg", ""),
                          (False, "", "")])


@given(answers=st.lists(st.tuples(st.integers(0, 5), st.sampled_from(["dcg", "ndcg"]),
                                  st.sampled_from(["8.09", "6.86", "0.8", "x"]), STORED), max_size=40),
       limit=st.integers(1, 8))
@settings(max_examples=examples(200))
def test_every_latest_answer_is_counted_once_under_its_stored_verdict(answers, limit):
    # Random stored answers (a value may be stored right once and carried or wrong another time, as the store
    # does): the spread's bars, folded or not, add up per field and state to the grid's marks.
    frame = pd.DataFrame([{"round": 1, "answer_id": i + 1, "student_id": s, "number": s + 1, "nickname": f"s{s}",
                           "field": f, "text": text, "ok": ok, "kinds": kinds, "notes": notes,
                           "after_reveal": False, "created_at": 0.0}
                          for i, (s, f, text, (ok, kinds, notes)) in enumerate(answers)],
                         columns=["round", "answer_id", "student_id", "number", "nickname", "field", "text", "ok",
                                  "kinds", "notes", "after_reveal", "created_at"])
    roster = pd.DataFrame({"student_id": range(6), "number": range(1, 7), "nickname": [f"s{i}" for i in range(6)]})
    spread = stats.spread(frame, limit=limit)
    grid = stats.grid(frame, roster, ("dcg", "ndcg"))
    for field in ("dcg", "ndcg"):
        mine = spread[spread["field"] == field]
        assert (~mine["other"]).sum() <= limit and mine["other"].sum() <= len(STATES)
        assert mine.groupby("state")["students"].sum().to_dict() == _grid_counts(grid, field)
        assert (mine["ok"] == (mine["state"] == "right")).all()

