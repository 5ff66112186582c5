"""Practice: a generated exercise (seeded, shareable by link), answered step by step with instant feedback.

Layout and wiring only: exercises come from metrics/lessons/exercises.py, feedback from metrics/lessons/diagnose.py.
The link holds ``seed`` and ``difficulty`` so a teacher can hand the same exercise to a class.
"""
from __future__ import annotations

import secrets
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from metrics.lessons.exercises import DIFFICULTIES, MAX_SEED, make_exercise, parse_seed
from metrics.registry import dcg_latex
from ui.diagnosis import number, render_findings, render_steps_table, variant_label
from ui.i18n import t
from ui.widgets import error_text

P = "practice"
FIELDS = ("terms", "dcg", "ideal_terms", "idcg", "ndcg")


def _new_seed() -> int:
    return secrets.randbelow(MAX_SEED + 1)


def _clear_answers() -> None:
    for name in FIELDS:
        st.session_state[f"{P}_{name}"] = ""


def _new_exercise() -> None:
    st.session_state[f"{P}_seed"] = _new_seed()
    _clear_answers()


# --- state: once per session, then whenever the link names another exercise ----------------------
if f"{P}_score" not in st.session_state:
    st.session_state[f"{P}_score"] = {"right": 0, "tried": 0, "solved": 0}
    st.session_state[f"{P}_scored"] = {}  # exercise id -> steps already scored (first try counts)
    st.session_state[f"{P}_revealed"] = set()
    st.session_state[f"{P}_solved_ids"] = set()
    st.session_state[f"{P}_difficulty"] = "easy"
    st.session_state[f"{P}_seed"] = None
    _clear_answers()

warnings: list[str] = []
wanted_level = st.query_params.get("difficulty")
if wanted_level is not None:
    if wanted_level in DIFFICULTIES:
        if wanted_level != st.session_state[f"{P}_difficulty"] and st.session_state.get(f"{P}_url_level") != wanted_level:
            st.session_state[f"{P}_difficulty"] = wanted_level
            _clear_answers()
    else:
        warnings.append(t("common.bad_param", name="difficulty",
                          reason=t("practice.bad_difficulty", value=str(wanted_level)[:20])))
st.session_state[f"{P}_url_level"] = wanted_level
wanted_seed = st.query_params.get("seed")
if wanted_seed is not None and wanted_seed != st.session_state.get(f"{P}_url_seed"):
    try:
        seed = parse_seed(wanted_seed)
        if seed != st.session_state[f"{P}_seed"]:
            st.session_state[f"{P}_seed"] = seed
            _clear_answers()
    except ValueError:
        warnings.append(t("common.bad_param", name="seed", reason=t("practice.bad_seed", value=str(wanted_seed)[:20])))
st.session_state[f"{P}_url_seed"] = wanted_seed
if st.session_state[f"{P}_seed"] is None:
    st.session_state[f"{P}_seed"] = _new_seed()

st.title(t("practice.title"))
st.caption(t("practice.intro"))
for w in warnings:
    st.warning(w)

level_labels = {k: t(f"practice.level.{k}") for k in DIFFICULTIES}
c1, c2, c3 = st.columns([2, 1, 2], vertical_alignment="bottom")
difficulty = c1.selectbox(t("practice.difficulty"), list(level_labels), key=f"{P}_difficulty",
                          format_func=level_labels.get, on_change=_clear_answers,
                          help=t(f"practice.level_help.{st.session_state[f'{P}_difficulty']}"))
c2.button(t("practice.new"), key=f"{P}_new", on_click=_new_exercise, icon=":material/refresh:")
score = st.session_state[f"{P}_score"]
score_slot = c3.empty()  # filled at the end, after this run's answers are scored

seed = st.session_state[f"{P}_seed"]
ex = make_exercise(seed, difficulty)
exercise_id = f"{difficulty}:{seed}"

# Keep the exercise in the address bar: a copied link opens the same one.
if st.query_params.get("seed") != str(seed):
    st.query_params["seed"] = str(seed)
    st.session_state[f"{P}_url_seed"] = str(seed)
if st.query_params.get("difficulty") != difficulty:
    st.query_params["difficulty"] = difficulty
    st.session_state[f"{P}_url_level"] = difficulty

# --- the exercise ---------------------------------------------------------------------------------
st.subheader(t("practice.exercise", seed=seed, level=level_labels[difficulty]))
link = f"practice?{urlencode({'seed': seed, 'difficulty': difficulty})}"
st.markdown(f"{t('practice.share')} [{link}]({link})")

left, right = st.columns([3, 2], gap="large")
with left:
    items = {t("common.label"): list(ex.labels)}
    if ex.scores is not None:
        items[t("practice.score_col")] = [f"{s:.2f}" for s in ex.scores]
    items[t("common.relevance")] = [f"{g:g}" for g in ex.grades]
    st.dataframe(pd.DataFrame(items), hide_index=True, key=f"{P}_items")
    if ex.scores is not None:
        st.info(t("practice.rank_by_scores", rule=t(f"practice.ties.{ex.ties}")))
    else:
        st.caption(t("practice.already_ranked"))
with right:
    st.markdown(f"**{t('practice.formula')}**")
    st.latex(dcg_latex(ex.gain, ex.discount, ex.log_base, k="k" if ex.k else "n"))
    st.latex(r"\mathrm{NDCG} = \frac{\mathrm{DCG}}{\mathrm{IDCG}}")
    facts = [t("practice.cutoff", k=ex.k) if ex.k else t("practice.no_cutoff")]
    if ex.unretrieved:
        facts.append(t("practice.unretrieved", grades=", ".join(f"{g:g}" for g in ex.unretrieved)))
    else:
        facts.append(t("practice.no_unretrieved"))
    facts.append(t("practice.decimals", decimals=ex.decimals))
    for fact in facts:
        st.markdown(f"- {fact}")

# --- answers --------------------------------------------------------------------------------------
st.subheader(t("practice.answers"))
st.caption(t("practice.answers_help"))
a1, a2 = st.columns(2)
answers: dict[str, str] = {}
for name, col in zip(FIELDS, (a1, a1, a2, a2, a2)):
    answers[name] = col.text_input(t(f"check.{name}"), key=f"{P}_{name}", help=t(f"check.{name}_help"))

revealed = exercise_id in st.session_state[f"{P}_revealed"]
if any(v.strip() for v in answers.values()):
    try:
        d = ex.check(**{n: (v if v.strip() else None) for n, v in answers.items()})
    except ValueError as exc:
        st.error(error_text(exc))
        d = None
    if d is not None:
        render_findings(d)
        render_steps_table(d, key=f"{P}_feedback", reveal=revealed)
        # first try counts: each step is scored once per exercise, and not after the solution is shown
        scored = st.session_state[f"{P}_scored"].setdefault(exercise_id, set())
        for row in d.steps.itertuples(index=False):
            step = (row.step, None if pd.isna(row.position) else int(row.position))
            if row.ok is None or step in scored or revealed:
                continue
            scored.add(step)
            score["tried"] += 1
            score["right"] += int(bool(row.ok))
        answered_all = d.steps["ok"].notna().all()
        if answered_all and d.ok and exercise_id not in st.session_state[f"{P}_solved_ids"]:
            st.session_state[f"{P}_solved_ids"].add(exercise_id)
            score["solved"] += 1
            st.balloons()
        if answered_all and d.ok:
            st.success(t("practice.solved"))

st.caption(t("practice.solved_count", solved=score["solved"]))
score_slot.metric(t("practice.score"), t("practice.score_value", right=score["right"], tried=score["tried"]),
                  help=t("practice.score_help"))

# --- the solution on request ----------------------------------------------------------------------
if st.toggle(t("practice.show_solution"), key=f"{P}_show_{exercise_id}", help=t("practice.show_solution_help")):
    st.session_state[f"{P}_revealed"].add(exercise_id)
    sol = ex.solution()
    places = ex.decimals
    st.markdown(t("practice.solution_ranked", order=" › ".join(f"{lab} ({g:g})" for lab, g in
                                                                zip(sol["ranked_labels"], sol["ranked_grades"]))))
    st.markdown(t("practice.solution_ideal", ideal=", ".join(f"{g:g}" for g in sol["ideal"])))
    bd = sol["breakdown"]
    table = pd.DataFrame({
        t("common.position"): bd["position"],
        t("common.relevance"): [number(x, 0) for x in bd["relevance"]],
        t("practice.col.gain"): [number(x, places) for x in bd["gain"]],
        t("practice.col.divisor"): [number(x, places) for x in bd["discount"]],
        t("practice.col.term"): [number(x, places) for x in bd["discounted_gain"]],
        t("practice.col.ideal_grade"): [number(x, 0) for x in bd["ideal_relevance"]],
        t("practice.col.ideal_term"): [number(x, places) for x in bd["ideal_discounted_gain"]],
    })
    st.dataframe(table, hide_index=True, key=f"{P}_solution")
    st.markdown(t("practice.solution_totals", dcg=number(sol["dcg"], places), idcg=number(sol["idcg"], places),
                  ndcg=number(sol["ndcg"], places), gain=variant_label("gain", ex.gain)))
