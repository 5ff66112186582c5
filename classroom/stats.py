"""The teacher's summaries of one round, from :meth:`classroom.store.Teacher.answers` (pure pandas).

* :func:`field_summary` — per field asked: students who answered, share right on their first try
  (answers given after the solution was revealed do not count), share right now;
* :func:`spread` — per field, how many students' latest answers are each distinct answer with each verdict
  (right, wrong, carried forward, unfinished: the verdict stored with the answer, as the grid shows it);
* :func:`mistakes` — per misconception (:data:`metrics.lessons.misconceptions.MISCONCEPTIONS`) named in a
  wrong answer: students and answers (a note is never a mistake; an answer carried forward from the
  student's own earlier mistake names none: that mistake is counted where it first showed);
* :func:`grid` — one row per student, one column per field: ✓ / ✗ / ↪ / … / blank for the latest answer;
* :func:`results` — every answer of every round, for the CSV download.

Every one of them reads the verdict stored with the answer (:meth:`metrics.lessons.diagnose.Verdict.from_stored`),
which :meth:`classroom.store.Seat.submit` took from :func:`classroom.tasks.verdict`, the verdict the student's
page shows.  The spread too: a value right on its own is right whoever writes it, but a wrong value can be
carried forward for one student (the exact consequence of her own earlier, wrong numbers) and wrong for
another, so a value is counted once per verdict its writers got, never re-judged on its own.

>>> frame = pd.DataFrame({
...     "round": 1, "answer_id": [1, 2, 3, 4], "student_id": [10, 10, 11, 12], "number": [1, 1, 2, 3],
...     "nickname": ["a", "a", "b", "c"], "field": "dcg", "text": ["6.9", "6.86", "6.86", "6.85"],
...     "ok": [False, True, True, False], "kinds": ["arithmetic_slip", "", "", "truncation"], "notes": "",
...     "after_reveal": False, "created_at": 0.0})
>>> field_summary(frame, ("dcg",)).to_dict("records")  # first tries: ✗ ✓ ✗ -> 1/3; latest: ✓ ✓ ✗ -> 2/3
[{'field': 'dcg', 'answered': 3, 'first_right': 0.3333333333333333, 'right_now': 0.6666666666666666}]
>>> spread(frame)[["answer", "students", "state"]].to_dict("records")  # latest answers: 6.86, 6.86, 6.85
[{'answer': '6.86', 'students': 2, 'state': 'right'}, {'answer': '6.85', 'students': 1, 'state': 'wrong'}]
>>> mistakes(frame).to_dict("records")  # every answer counts: student 1's first slip too
[{'kind': 'arithmetic_slip', 'students': 1, 'answers': 1}, {'kind': 'truncation', 'students': 1, 'answers': 1}]
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import pandas as pd

from metrics.lessons.diagnose import STATES, Verdict

__all__ = ["field_summary", "spread", "mistakes", "grid", "results", "MAX_SPREAD"]

#: Distinct answers drawn per field; the rest are summed into one "other" bar.
MAX_SPREAD = 8


def _latest(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values("answer_id").groupby(["student_id", "field"], sort=False).tail(1)


def field_summary(frame: pd.DataFrame, fields: Sequence[str]) -> pd.DataFrame:
    """Per field: students who answered, share right on the first try and share right now (NaN: nobody)."""
    rows = []
    ordered = frame.sort_values("answer_id")
    for f in fields:
        sub = ordered[ordered["field"] == f]
        first = sub.groupby("student_id", sort=False).head(1)
        first = first[~first["after_reveal"]]
        last = sub.groupby("student_id", sort=False).tail(1)
        rows.append({"field": f, "answered": int(sub["student_id"].nunique()),
                     "first_right": float(first["ok"].mean()) if len(first) else float("nan"),
                     "right_now": float(last["ok"].mean()) if len(last) else float("nan")})
    return pd.DataFrame(rows, columns=["field", "answered", "first_right", "right_now"])


def spread(frame: pd.DataFrame, *, limit: int = MAX_SPREAD) -> pd.DataFrame:
    """Per field, the distinct latest answers (as written, spaces folded) with the verdict each student got
    for them, most frequent first.

    Columns ``field, answer, students, state, ok, other``: ``state`` is one of
    :data:`metrics.lessons.diagnose.STATES` (the stored verdict, as on the student's page, the grid and the
    CSV), ``ok`` is ``state == "right"``.  One value can take two rows: ``8.09`` carried forward for the
    student whose own terms add up to it, wrong for one who wrote it alone.  Past ``limit`` the answers are
    summed into at most one bar per state (``other``, in the order of ``STATES``).
    """
    cols = ["field", "answer", "students", "state", "ok", "other"]
    last = _latest(frame)
    if last.empty:
        return pd.DataFrame(columns=cols)
    last = last.assign(state=[_verdict(r).state for r in last.itertuples(index=False)])
    counts = (last.groupby(["field", "text", "state"], sort=False)
              .agg(students=("student_id", "nunique"), first=("answer_id", "min"))
              .reset_index().sort_values(["field", "students", "first"], ascending=[True, False, True]))
    out = []
    for f, group in counts.groupby("field", sort=False):
        top, rest = group.head(limit), group.iloc[limit:]
        for r in top.itertuples(index=False):
            out.append({"field": f, "answer": r.text, "students": int(r.students), "state": r.state,
                        "ok": r.state == "right", "other": False})
        for state in STATES:
            n = int(rest.loc[rest["state"] == state, "students"].sum())
            if n:
                out.append({"field": f, "answer": "…", "students": n, "state": state, "ok": state == "right",
                            "other": True})
    return pd.DataFrame(out, columns=cols)


def _verdict(row) -> Verdict:
    return _stored(bool(row.ok), str(row.kinds or ""), str(getattr(row, "notes", "") or ""))


@lru_cache(maxsize=4096)
def _stored(ok: bool, kinds: str, notes: str) -> Verdict:
    # A class's thousands of answers hold a few dozen distinct stored verdicts; a Verdict is frozen.
    return Verdict.from_stored(ok, kinds, notes)


def mistakes(frame: pd.DataFrame) -> pd.DataFrame:
    """Per misconception named in a wrong answer: how many students made it and in how many answers."""
    cols = ["kind", "students", "answers"]
    named = frame.assign(kind=[list(_verdict(r).mistakes) for r in frame.itertuples(index=False)])
    exploded = named.explode("kind").dropna(subset=["kind"])
    if exploded.empty:
        return pd.DataFrame(columns=cols)
    out = (exploded.groupby("kind").agg(students=("student_id", "nunique"), answers=("answer_id", "nunique"),
                                        first=("answer_id", "min"))
           .reset_index().sort_values(["students", "answers", "first"], ascending=[False, False, True]))
    return out[cols].astype({"students": int, "answers": int}).reset_index(drop=True)


def grid(frame: pd.DataFrame, roster: pd.DataFrame, fields: Sequence[str]) -> pd.DataFrame:
    """One row per student of ``roster`` (``student_id, number, nickname``): per field the mark of the latest
    answer (✓ right, ✗ wrong, ↪ carried forward, … unfinished, "" not answered), and the number of answers."""
    last = _latest(frame)
    marks = {(r.student_id, r.field): _verdict(r).mark for r in last.itertuples(index=False)}
    tries = frame.groupby("student_id").size().to_dict()
    rows = []
    for s in roster.itertuples(index=False):
        row = {"student_id": s.student_id, "number": s.number, "nickname": s.nickname}
        row.update({f: marks.get((s.student_id, f), "") for f in fields})
        row["answers"] = int(tries.get(s.student_id, 0))
        rows.append(row)
    return pd.DataFrame(rows, columns=["student_id", "number", "nickname", *fields, "answers"])


def results(frame: pd.DataFrame) -> pd.DataFrame:
    """Every answer with its verdict (``right``, ``wrong``, ``carried_forward`` or ``unfinished``), the
    misconceptions named, the fields a carried answer follows from, the notes, and whether it was the
    student's first try at that field in that round."""
    ordered = frame.sort_values("answer_id")
    first_ids = set(ordered.groupby(["round", "student_id", "field"]).head(1)["answer_id"])
    when = pd.to_datetime(ordered["created_at"], unit="s", utc=True).dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    verdicts = [_verdict(r) for r in ordered.itertuples(index=False)]
    return pd.DataFrame({
        "round": ordered["round"].to_numpy(), "student": ordered["number"].to_numpy(),
        "nickname": ordered["nickname"].to_numpy(), "field": ordered["field"].to_numpy(),
        "answer": ordered["text"].to_numpy(),
        "verdict": [v.state for v in verdicts],
        "first_try": ordered["answer_id"].isin(first_ids).to_numpy(),
        "after_reveal": ordered["after_reveal"].to_numpy(),
        "mistakes": [" ".join(v.mistakes) for v in verdicts],
        "carried_from": [" ".join(v.carried_from) for v in verdicts],
        "notes": [" ".join(v.notes) for v in verdicts],
        "time_utc": when.to_numpy(),
    })
