"""Practice page (AppTest, through app.py): the link reproduces the exercise, answers get instant feedback
and a score; seed, difficulty, answers and score survive a visit to another page and a reload."""
from __future__ import annotations

import pytest

from metrics.lessons.exercises import make_exercise
from metrics.lessons.misconceptions import MISCONCEPTIONS
from tests.conftest import LANGS, no_exceptions, open_page
from ui.i18n import catalogue
from ui.state import LAST_PAGE_KEY

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


def _query(at) -> dict:
    return {k: at.query_params[k] if isinstance(at.query_params[k], str) else at.query_params[k][-1]
            for k in at.query_params}


def _through_app(at) -> None:
    # app.py draws the language buttons in the sidebar: a page run without app.py has none
    assert [s.key for s in at.sidebar.segmented_control] == ["lang"]


@pytest.mark.parametrize("lang", LANGS)
def test_link_reproduces_the_exercise(lang):
    at = open_page(PAGE, lang=lang, query={"seed": "42", "difficulty": "hard", "lang": lang})
    no_exceptions(at)
    _through_app(at)
    ex = make_exercise(42, "hard")
    assert at.session_state["practice_seed"] == 42 and at.session_state["practice_difficulty"] == "hard"
    items = at.dataframe[0].value
    assert items[catalogue(lang)["common.label"]].tolist() == list(ex.labels)
    assert _query(at) == {"seed": "42", "difficulty": "hard", **({"lang": lang} if lang != "en" else {})}
    # the share box holds the complete link: seed, difficulty and the language, not the score
    code = at.code[-1].value
    assert "practice?seed=42&difficulty=hard" in code and ("lang=" + lang in code) == (lang != "en")
    assert "score" not in code


def test_every_run_goes_through_app_py():
    at = open_page(PAGE, query={"seed": "7"})
    for _ in range(3):
        _through_app(at)
        at.run()


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
    right, tried, solved = at.session_state["practice_score"]
    assert solved == 1 and right == tried > 5
    # the score is shown once: one metric, the solved count as its note
    assert len(at.metric) == 1 and at.metric[0].value == f"{right} / {tried}"
    assert _query(at)["score"] == f"{right}-{tried}-1"


def test_slip_gets_feedback_and_first_try_counts():
    ex = make_exercise(7, "easy")
    answers = _right_answers(ex)
    at = open_page(PAGE, query={"seed": "7", "difficulty": "easy"})
    wrong = float(answers["dcg"]) + 0.437
    at.text_input(key="practice_dcg").input(f"{wrong:.2f}").run()
    no_exceptions(at)
    assert MISCONCEPTIONS["arithmetic_slip"].name in at.error[0].value
    assert at.session_state["practice_score"] == (0, 1, 0)
    # correcting it later does not change the first-try score for that step
    at.text_input(key="practice_dcg").input(answers["dcg"]).run()
    assert at.session_state["practice_score"] == (0, 1, 0)


def test_leave_and_come_back_keeps_everything():
    # The reported bug: Practice -> any page -> Practice raised KeyError 'practice_difficulty'.
    at = open_page(PAGE, query={"seed": "7", "difficulty": "medium"})
    at.text_input(key="practice_dcg").input("0.001").run()
    score = at.session_state["practice_score"]
    for other in ("pages/check.py", "pages/variants.py"):
        at.switch_page(other).run()
        no_exceptions(at)
        at.switch_page(PAGE).run()
        no_exceptions(at)
        _through_app(at)
        assert at.session_state["practice_seed"] == 7
        assert at.selectbox(key="practice_difficulty").value == "medium"
        assert at.text_input(key="practice_dcg").value == "0.001"
        assert at.session_state["practice_score"] == score


def test_reload_keeps_seed_and_score():
    at = open_page(PAGE, query={"difficulty": "medium"})
    at.text_input(key="practice_dcg").input("0.001").run()
    address = _query(at)
    assert set(address) == {"seed", "difficulty", "score"} and address["score"] == "0-1-0"
    again = open_page(PAGE, query=address)  # a reload: a new session with the same address
    no_exceptions(again)
    assert again.session_state["practice_seed"] == int(address["seed"])
    assert again.session_state["practice_score"] == (0, 1, 0)
    assert again.warning.len == 0


def test_opening_a_shared_exercise_keeps_your_score():
    at = open_page(PAGE, query={"seed": "7"})
    at.text_input(key="practice_dcg").input("0.001").run()
    at.session_state[LAST_PAGE_KEY] = "worked_examples"  # the link is opened from another page of the app
    at.query_params.clear()
    at.query_params["seed"] = "99"
    at.query_params["difficulty"] = "hard"
    at.run()
    no_exceptions(at)
    assert at.session_state["practice_seed"] == 99 and at.session_state["practice_score"] == (0, 1, 0)
    assert at.text_input(key="practice_dcg").value == ""  # a new exercise starts with no answers


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
    assert _query(at)["seed"] == str(seed)


@pytest.mark.parametrize("lang", LANGS)
def test_bad_link_warns_names_the_value_and_falls_back(lang):
    at = open_page(PAGE, lang=lang, query={"seed": "12x", "difficulty": "![](//evil.example/x)",
                                           "score": "9-1-0"})
    no_exceptions(at)
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 3
    assert "12x" in warnings[0] and "seed" in warnings[0]
    # markdown from a link is shown as text (escaped), never as an image
    assert "\\!\\[\\]\\(//evil.example/x\\)" in warnings[1] and "![](" not in warnings[1]
    assert at.session_state["practice_difficulty"] == "easy"
    assert isinstance(at.session_state["practice_seed"], int)
    assert at.session_state["practice_score"] == (0, 0, 0)


@pytest.mark.parametrize("seed", ["①", "٣", "4294967296", "1" * 5000, "-1", " "])
def test_odd_seeds_never_crash(seed):
    at = open_page(PAGE, query={"seed": seed})
    no_exceptions(at)
    assert isinstance(at.session_state["practice_seed"], int)


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


def test_feedback_quotes_the_exercise_s_numbers_zh():
    # Issue 41 item 3 (zh, seed 42, medium: grades 3 1 0 3 1 3, 2^rel - 1, log2(i + 1), no cutoff, no missed
    # items).  A student uses rel for the DCG terms only: 3/1, 1/log2 3, 0, 3/log2 5, 1/log2 6, 3/log2 7 and
    # their sum; the ideal side (grades 3 3 3 1 1 0: 7, 7/log2 3, 7/2, 1/log2 5, 1/log2 6, 0; IDCG 15.7340)
    # right; NDCG from their own DCG.  The IDCG side is never called a slip, "exact" is the exercise's IDCG
    # 15.7340 (never the linear 7.2103), and NDCG is carried forward from the DCG.
    import math
    log2 = math.log2
    lin = [3 / 1, 1 / log2(3), 0.0, 3 / log2(5), 1 / log2(6), 3 / log2(7)]
    ideal = [7 / 1, 7 / log2(3), 7 / 2, 1 / log2(5), 1 / log2(6), 0.0]
    dcg = round(sum(round(x, 2) for x in lin), 2)
    idcg = sum(ideal)
    at = open_page(PAGE, lang="zh", query={"seed": "42", "difficulty": "medium"})
    for key, text in (("terms", " ".join(f"{x:.2f}" for x in lin)), ("dcg", f"{dcg:.2f}"),
                      ("ideal_terms", " ".join(f"{x:.2f}" for x in ideal)), ("idcg", f"{idcg:.2f}"),
                      ("ndcg", f"{dcg / round(idcg, 2):.2f}")):
        at.text_input(key=f"practice_{key}").input(text)
    at.run()
    no_exceptions(at)
    c = catalogue("zh")
    texts = " ".join(m.value for m in at.markdown)
    assert c["registry.mistake.linear_for_exponential.name"] in at.error[0].value
    assert c["registry.mistake.arithmetic_slip.name"] not in texts
    assert "7.2103" not in texts  # the IDCG under rel is never quoted as the value
    lines = [m.value for m in at.markdown if m.value.startswith("- ")]
    verdicts = "\n".join(lines)
    assert c["diagnose.verdict.right"].format(mark="✓", step=c["diagnose.field.ideal_terms"]) in verdicts
    assert c["diagnose.verdict.right"].format(mark="✓", step=c["diagnose.field.idcg"]) in verdicts
    assert c["diagnose.verdict.carried_forward"].format(mark="↪", step=c["diagnose.field.ndcg"],
                                                         sources=c["diagnose.field.dcg"]) in verdicts
    # the NDCG explanation quotes the exercise's NDCG (0.8597 from 13.5260 / 15.7340), not the linear one
    assert f"{13.525968777075907 / idcg:.4f}" in texts
