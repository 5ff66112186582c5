"""Practice: a generated exercise (seeded, shareable by link), answered step by step with instant feedback.

Layout and wiring only: exercises come from metrics/lessons/exercises.py, feedback from
metrics/lessons/diagnose.py, the fields and the score from ui/pages/practice.py, state and link from ui/state.py.
"""
from __future__ import annotations

from functools import partial

import streamlit as st

from metrics.lessons.exercises import DIFFICULTIES, make_exercise
from ui.diagnosis import render_findings, render_solution, render_steps_table
from ui.i18n import registry_text, t
from ui.pages import practice
from ui.shell import page
from ui.widgets import error_text, option_widget

state = st.session_state
start = partial(practice.start, previous_score=state.get("practice_score"))  # before the link is read
with page(practice.PAGE, practice.FIELDS, prepare=start, title="practice.title", caption="practice.intro",
          link_title="practice.share", link_query=practice.share_query, link_help="practice.share_help") as p:
    level_names = {k: registry_text("difficulty", DIFFICULTIES[k], "name") for k in DIFFICULTIES}
    c1, c2, c3 = st.columns([2, 1, 2], vertical_alignment="bottom")
    difficulty = option_widget(c1.selectbox, t("practice.difficulty"), list(level_names), key="practice_difficulty",
                               format_func=level_names.__getitem__, on_change=practice.clear_answers, args=(state,),
                               help=registry_text("difficulty", DIFFICULTIES[state["practice_difficulty"]], "help"))
    c2.button(
        t("practice.new"), key="practice_new", on_click=practice.new_exercise, args=(state,), icon=":material/refresh:"
    )
    score_slot = c3.empty()  # filled at the end, after this run's answers are scored

    seed = state["practice_seed"]
    ex = make_exercise(seed, difficulty)
    exercise_id = f"{difficulty}:{seed}"

    # --- the exercise ---------------------------------------------------------------------------------
    st.subheader(t("practice.exercise", seed=seed, level=level_names[difficulty]))
    practice.exercise_panel(ex, key="practice")

    # --- answers --------------------------------------------------------------------------------------
    st.subheader(t("practice.answers"))
    st.caption(t("practice.answers_help"))
    a1, a2 = st.columns(2)
    answers: dict[str, str] = {}
    for name, col in zip(practice.ANSWERS, (a1, a1, a2, a2, a2)):
        with col:
            st.text_input(t(f"check.{name}"), key=f"practice_{name}", help=t(f"check.{name}_help"),
                          max_chars=practice.MAX_ANSWER_CHARS)
            answers[name] = p.typed(f"practice_{name}")

    revealed = exercise_id in state["practice_revealed"]
    score = tuple(state["practice_score"])
    if any(v.strip() for v in answers.values()):
        try:
            d = ex.check(**{n: (v if v.strip() else None) for n, v in answers.items()})
        except ValueError as exc:
            st.error(error_text(exc))
            d = None
        if d is not None:
            render_findings(d)
            render_steps_table(d, key="practice_feedback", reveal=revealed)
            scored = state["practice_scored"].setdefault(exercise_id, set())
            score = practice.score_steps(score, scored, d.steps, revealed=revealed)
            answered_all = d.steps["ok"].notna().all()
            if answered_all and d.ok:
                if exercise_id not in state["practice_solved_ids"]:
                    state["practice_solved_ids"].add(exercise_id)
                    score = (score[0], score[1], score[2] + 1)
                    st.balloons()
                st.success(t("practice.solved"))
    state["practice_score"] = score
    score_slot.metric(t("practice.score"), t("practice.score_value", right=score[0], tried=score[1]),
                      t("practice.solved_count", solved=score[2]), delta_color="off", delta_arrow="off",
                      help=t("practice.score_help"))

    # --- the solution on request ----------------------------------------------------------------------
    if st.toggle(t("practice.show_solution"), key=f"practice_show_{exercise_id}",
                 help=t("practice.show_solution_help")):
        state["practice_revealed"].add(exercise_id)
        render_solution(ex, key="practice")
