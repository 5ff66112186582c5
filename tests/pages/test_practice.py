"""Practice page (AppTest): the link reproduces the exercise, answers get instant feedback and a score."""
from __future__ import annotations

import pytest

from metrics.lessons.exercises import make_exercise
from tests.conftest import LANGS, no_exceptions, open_page
from ui.i18n import catalogue

PAGE = "pages/practice.py"


def _right_answers(ex) -> dict:
    sol = ex.solution()
    bd, d = sol["breakdown"], ex.decimals
    return {
        "terms": " ".join(f"{x:.{d}f}" for x in bd["discounted_gain"].dropna()),
        "dcg": f"{sol['dcg']:.{d}f}",
        "ideal_terms": " ".join(f"{x:.{d}f}" for x in bd["ideal_discounted_gain"].dropna()),
        "idcg": f"{sol['idcg']:.{d}f}",
        "ndcg": f"{sol['ndcg']:.{d}f}",
    }


@pytest.mark.parametrize("lang", LANGS)
def test_link_reproduces_the_exercise(lang):
    at = open_page(PAGE, lang=lang, query={"seed": "42", "difficulty": "hard"})
    no_exceptions(at)
    ex = make_exercise(42, "hard")
    assert at.session_state["practice_seed"] == 42 and at.session_state["practice_difficulty"] == "hard"
    items = at.dataframe[0].value
    assert items[catalogue(lang)["common.label"]].tolist() == list(ex.labels)
    assert at.query_params["seed"] == ["42"] or at.query_params["seed"] == "42"


@pytest.mark.parametrize("lang", LANGS)
def test_right_answers_solve_and_score(lang):
    ex = make_exercise(7, "medium")
    at = open_page(PAGE, lang=lang, query={"seed": "7", "difficulty": "medium"})
    for name, text in _right_answers(ex).items():
        at.text_input(key=f"practice_{name}").input(text).run()
    no_exceptions(at)
    c = catalogue(lang)
    assert at.success[0].value == c["diagnose.all_right"]
    assert c["practice.solved"] in [s.value for s in at.success]
    score = at.session_state["practice_score"]
    assert score["solved"] == 1 and score["right"] == score["tried"] > 5


def test_slip_gets_feedback_and_first_try_counts():
    ex = make_exercise(7, "easy")
    answers = _right_answers(ex)
    at = open_page(PAGE, query={"seed": "7", "difficulty": "easy"})
    wrong = float(answers["dcg"]) + 0.437
    at.text_input(key="practice_dcg").input(f"{wrong:.2f}").run()
    no_exceptions(at)
    assert "Arithmetic slip" in at.error[0].value
    assert at.session_state["practice_score"] == {"right": 0, "tried": 1, "solved": 0}
    # correcting it later does not change the first-try score for that step
    at.text_input(key="practice_dcg").input(answers["dcg"]).run()
    assert at.session_state["practice_score"]["tried"] == 1


def test_solution_on_request():
    ex = make_exercise(7, "easy")
    at = open_page(PAGE, query={"seed": "7", "difficulty": "easy"})
    at.toggle[0].set_value(True).run()
    no_exceptions(at)
    sol = ex.solution()
    texts = " ".join(m.value for m in at.markdown)
    assert f"NDCG = DCG / IDCG = {sol['ndcg']:.2f}" in texts


def test_new_exercise_changes_seed_and_link():
    at = open_page(PAGE, query={"seed": "7", "difficulty": "easy"})
    at.button(key="practice_new").click().run()
    no_exceptions(at)
    seed = at.session_state["practice_seed"]
    assert str(seed) in str(at.query_params["seed"])


@pytest.mark.parametrize("lang", LANGS)
def test_bad_link_warns_and_falls_back(lang):
    at = open_page(PAGE, lang=lang, query={"seed": "12x", "difficulty": "insane"})
    no_exceptions(at)
    assert len(at.warning) == 2
    assert at.session_state["practice_difficulty"] == "easy"


def test_bad_answer_is_named():
    at = open_page(PAGE, query={"seed": "7", "difficulty": "easy"})
    at.text_input(key="practice_terms").input("1 zz").run()
    no_exceptions(at)
    assert any("'zz' at position 2" in e.value for e in at.error)


def test_score_shown_includes_this_answer():
    at = open_page(PAGE, query={"seed": "7", "difficulty": "easy"})
    at.text_input(key="practice_dcg").input("0.001").run()
    no_exceptions(at)
    assert at.metric[0].value == "0 / 1"
