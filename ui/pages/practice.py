"""Page logic of Practice (``pages/practice.py`` lays it out): its fields for :mod:`ui.state`, the score,
and :func:`exercise_panel`, the one drawing of an exercise that Practice and the classroom share.

The link holds the exercise (``seed``, ``difficulty``; ``lang`` is the app's) so a teacher can hand the
same exercise to a class, and the score (``score=right-tried-solved``) so a reload keeps it.  The link
shown for sharing leaves the score out: opening it keeps the visitor's own score.
"""
from __future__ import annotations

import secrets

import pandas as pd
import streamlit as st

from metrics.lessons.exercises import DIFFICULTIES, MAX_SEED, Exercise
from ui import state as ui_state
from ui.i18n import join_words, t
from ui.numbers import exact

__all__ = ["PAGE", "ANSWERS", "FIELDS", "MAX_ANSWER_CHARS", "Score", "new_seed", "parse_score", "encode_score",
           "score_steps", "share_query", "start", "clear_answers", "new_exercise", "exercise_items", "exercise_facts",
           "exercise_panel"]

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
        raise ui_state.BadValue(value, "practice.bad_score", english)
    try:
        right, tried, solved = (ui_state.integer(0, MAX_SCORE)(p) for p in parts)
    except ui_state.BadValue:
        raise ui_state.BadValue(value, "practice.bad_score", english) from None
    if right > tried:
        raise ui_state.BadValue(value, "practice.bad_score", english)
    return right, tried, solved


def encode_score(score: Score) -> str:
    """The score as link text.

    >>> encode_score((3, 5, 1))
    '3-5-1'
    """
    return "-".join(str(int(x)) for x in score)


FIELDS = (
    ui_state.Field(
        "practice_seed",
        "seed",
        default=None,
        parse=ui_state.optional(ui_state.integer(0, MAX_SEED), none=("",)),
        widget=False,
    ),
    ui_state.Field("practice_difficulty", "difficulty", default="easy", parse=ui_state.choice(tuple(DIFFICULTIES))),
    ui_state.Field("practice_score", "score", default=(0, 0, 0), parse=parse_score, encode=encode_score, widget=False),
    *(ui_state.Field(f"practice_{name}", None, default="", parse=ui_state.text(MAX_ANSWER_CHARS)) for name in ANSWERS),
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


def start(page: ui_state.PageState, *, previous_score) -> None:
    """Before the page draws (``page(..., prepare=...)``): a shared exercise link keeps the visitor's own score
    (``previous_score``, the session's score before the page state read the link), a first visit gets a
    seed, and the session's records of scored steps, revealed solutions and solved exercises exist."""
    state = st.session_state
    if page.opened_link and "score" not in st.query_params and previous_score is not None:
        page.set("practice_score", previous_score)
    if state["practice_seed"] is None:
        page.set("practice_seed", new_seed())
    state.setdefault("practice_scored", {})  # exercise id -> steps already scored (the first try counts)
    state.setdefault("practice_revealed", set())
    state.setdefault("practice_solved_ids", set())


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


def exercise_items(ex: Exercise) -> pd.DataFrame:
    """The items as the learner sees them: label, the system's score (when they rank by it) and the grade,
    every number exactly as given (the scores are the exercise's own two-decimal values).

    >>> from metrics.lessons.exercises import make_exercise
    >>> exercise_items(make_exercise(3, "hard")).iloc[:2].to_dict("list")  # English outside a session
    {'Label': ['D1', 'D2'], 'System score': ['0.92', '0.73'], 'Grade': ['0', '2']}
    """
    items = {t("common.label"): list(ex.labels)}
    if ex.scores is not None:
        items[t("practice.score_col")] = [exact(s) for s in ex.scores]
    items[t("common.relevance")] = [exact(g) for g in ex.grades]
    return pd.DataFrame(items)


def exercise_facts(ex: Exercise) -> list[str]:
    """The cutoff, the judged items not retrieved and the decimals asked, as sentences."""
    k = ex.variant.k
    facts = [t("practice.cutoff", k=k) if k else t("practice.no_cutoff")]
    if ex.unretrieved:
        facts.append(t("practice.unretrieved", grades=join_words(exact(g) for g in ex.unretrieved)))
    else:
        facts.append(t("practice.no_unretrieved"))
    facts.append(t("practice.decimals", decimals=ex.decimals))
    return facts


def exercise_panel(ex: Exercise, *, key: str) -> None:
    """The exercise, drawn the same way on Practice and in the classroom: the items (left), the formula
    and the facts (right; the formula needs half the width on a projector)."""
    left, right = st.columns([1, 1], gap="large")
    with left:
        st.dataframe(exercise_items(ex), hide_index=True, key=f"{key}_items")
        if ex.scores is not None:
            st.info(t("practice.rank_by_scores", rule=t(f"practice.ties.{ex.variant.ties}")))
        else:
            st.caption(t("practice.already_ranked"))
    with right:
        st.markdown(f"**{t('practice.formula')}**")
        with st.container(key=f"compact_{key}_formula"):
            st.latex(ex.variant.latex("k" if ex.variant.k else "n"))
            st.latex(r"\mathrm{NDCG} = \frac{\mathrm{DCG}}{\mathrm{IDCG}}")
        for fact in exercise_facts(ex):
            st.markdown(f"- {fact}")
