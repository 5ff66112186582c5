"""Page logic of Practice (``pages/practice.py`` lays it out): its fields for :mod:`ui.state` and the score.

The link holds the exercise (``seed``, ``difficulty``; ``lang`` is the app's) so a teacher can hand the
same exercise to a class, and the score (``score=right-tried-solved``) so a reload keeps it.  The link
shown for sharing leaves the score out: opening it keeps the visitor's own score.
"""
from __future__ import annotations

import secrets

import pandas as pd

from metrics.lessons.exercises import DIFFICULTIES, MAX_SEED
from ui import state as S

__all__ = ["PAGE", "ANSWERS", "FIELDS", "MAX_ANSWER_CHARS", "Score", "new_seed", "parse_score", "encode_score",
           "score_steps", "share_query", "clear_answers", "new_exercise"]

PAGE = "practice"
ANSWERS = ("terms", "dcg", "ideal_terms", "idcg", "ndcg")
MAX_ANSWER_CHARS = 2_000
MAX_SCORE = 10**6

#: (right on the first try, steps tried, exercises solved)
Score = tuple[int, int, int]


def new_seed() -> int:
    return secrets.randbelow(MAX_SEED + 1)


def parse_score(raw) -> Score:
    """``"3-5-1"`` -> (3, 5, 1): right, tried, solved; right never above tried.

    >>> parse_score("3-5-1")
    (3, 5, 1)
    >>> parse_score("6-5-0")
    Traceback (most recent call last):
    ui.state.BadValue: '6-5-0' is not right-tried-solved (three whole numbers, right <= tried)
    """
    value = str(raw).strip()
    parts = value.split("-")
    english = f"{value[:40]!r} is not right-tried-solved (three whole numbers, right <= tried)"
    if len(parts) != 3:
        raise S.BadValue(value, "practice.bad_score", english)
    try:
        right, tried, solved = (S.integer(0, MAX_SCORE)(p) for p in parts)
    except S.BadValue:
        raise S.BadValue(value, "practice.bad_score", english) from None
    if right > tried:
        raise S.BadValue(value, "practice.bad_score", english)
    return right, tried, solved


def encode_score(score: Score) -> str:
    """The score as link text.

    >>> encode_score((3, 5, 1))
    '3-5-1'
    """
    return "-".join(str(int(x)) for x in score)


FIELDS = (
    S.Field("practice_seed", "seed", default=None, parse=S.optional(S.integer(0, MAX_SEED), none=("",)),
            widget=False),
    S.Field("practice_difficulty", "difficulty", default="easy", parse=S.choice(tuple(DIFFICULTIES))),
    S.Field("practice_score", "score", default=(0, 0, 0), parse=parse_score, encode=encode_score, widget=False),
    *(S.Field(f"practice_{name}", None, default="", parse=S.text(MAX_ANSWER_CHARS)) for name in ANSWERS),
)


def score_steps(score: Score, scored: set, steps: pd.DataFrame, *, revealed: bool) -> Score:
    """The score after this run's answers: each step counts once per exercise, on its first answer, and
    not after the solution was shown.  ``scored`` (the steps already counted) is updated in place.

    >>> steps = pd.DataFrame({"step": ["dcg", "idcg"], "position": [None, None], "ok": [True, None]})
    >>> done = set()
    >>> score_steps((0, 0, 0), done, steps, revealed=False), done
    ((1, 1, 0), {('dcg', None)})
    >>> score_steps((1, 1, 0), done, steps, revealed=False)  # the same answer again: counted once
    (1, 1, 0)
    """
    right, tried, solved = score
    for row in steps.itertuples(index=False):
        step = (row.step, None if pd.isna(row.position) else int(row.position))
        if row.ok is None or pd.isna(row.ok) or step in scored or revealed:
            continue
        scored.add(step)
        tried += 1
        right += int(bool(row.ok))
    return right, tried, solved


def clear_answers(state) -> None:
    """Widget callback: a new exercise starts with no answers."""
    for name in ANSWERS:
        state[f"practice_{name}"] = ""


def new_exercise(state) -> None:
    """Widget callback: deal a new exercise (a fresh seed), answers cleared."""
    state["practice_seed"] = new_seed()
    clear_answers(state)


def share_query(query: dict[str, str]) -> dict[str, str]:
    """The exercise's link for a class: the page's query without the score."""
    return {k: v for k, v in query.items() if k != "score"}
