"""Tied items ordered the other way (issue 36, teach4 item 1): Practice, Check my calculation and the classroom
name the mistake the same way, in every language (AppTest, through app.py).

Practice seed 777, Hard: items D1..D8, grades 1 1 2 1 1 3 2 2, scores .42 .63 .43 .18 .71 .80 .63 .33, ties
broken optimistically; D2 (grade 1) and D7 (grade 2) tie at 0.63, so the right ranking is D6 D5 D7 D2 D3 ...
(grades 3 1 2 1 2, k = 5).  The student breaks the tie the other way (D2 first: 3 1 1 2 2) and computes the rest
right from there (linear gain, ln(i + 1)): terms 3/ln 2 = 4.328, 1/ln 3 = 0.910, 1/ln 4 = 0.721, 2/ln 5 = 1.243,
2/ln 6 = 1.116, DCG 8.319, NDCG 8.319 / 10.860 = 0.766 (the sheet is made by the student model in
tests/metrics/lessons/student.py, not by the code under test).  The first mistake is at the DCG term at position
3; DCG and NDCG are carried forward from it.
"""
from __future__ import annotations

import pytest

from metrics.lessons.exercises import make_exercise
from metrics.lessons.misconceptions import MISCONCEPTIONS
from tests.conftest import LANGS, no_exceptions, open_page
from tests.metrics.lessons.student import other_rule_sheet
from ui.i18n import catalogue

SEED, LEVEL = 777, "hard"
EX = make_exercise(SEED, LEVEL)
SHEET = other_rule_sheet(EX)
STEPS = ("terms", "dcg", "ndcg")


def test_the_sheet_is_the_issue_s():
    # the student model's sheet is the one derived by hand above
    assert SHEET["ranked"][:5] == [3, 1, 2, 1, 2] and SHEET["mine"][:5] == [3, 1, 1, 2, 2]
    assert (SHEET["terms"], SHEET["dcg"], SHEET["ndcg"]) == ("4.328 0.910 0.721 1.243 1.116", "8.319", "0.766")


def _name(lang: str) -> str:
    return MISCONCEPTIONS["tie_order"].name if lang == "en" else catalogue(lang)["registry.mistake.tie_order.name"]


def _expected(lang: str) -> list[str]:
    """What every page says, built from the catalogues' sentences."""
    c = catalogue(lang)
    field = {f: c[f"diagnose.field.{f}"] for f in STEPS}
    return [
        c["diagnose.first_wrong"].format(step=c["diagnose.step.term"].format(position=3), kind=_name(lang)),
        c["diagnose.verdict.wrong"].format(mark="✗", step=field["terms"], mistakes=_name(lang)),
        c["diagnose.verdict.carried_forward"].format(mark="↪", step=field["dcg"], sources=field["terms"]),
        c["diagnose.verdict.carried_forward"].format(mark="↪", step=field["ndcg"], sources=field["dcg"]),
    ]


def _said(at) -> str:
    return "\n".join(str(x.value) for kind in ("error", "markdown") for x in getattr(at, kind))


def _assert_said(at, lang: str) -> None:
    no_exceptions(at)
    text = _said(at)
    for line in _expected(lang):
        assert line in text, (line, text[:2000])
    assert at.error[0].value == _expected(lang)[0]


@pytest.mark.parametrize("lang", LANGS)
def test_practice(lang):
    at = open_page("pages/practice.py", lang=lang, query={"seed": str(SEED), "difficulty": LEVEL})
    for f in STEPS:
        at.text_input(key=f"practice_{f}").input(SHEET[f]).run()
    _assert_said(at, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_check(lang):
    # The same sheet on Check: the grades in the exercise's ranked order with its scores in that order (the
    # student model's ranking), the missed items, k and the exercise's formula.
    order = sorted(range(len(EX.grades)), key=lambda i: (-EX.scores[i], -EX.grades[i]))  # optimistic
    query = {"rels": ",".join(f"{EX.grades[i]:g}" for i in order),
             "scores": ",".join(f"{EX.scores[i]:g}" for i in order),
             "unretrieved": ",".join(f"{g:g}" for g in EX.unretrieved), "k": str(EX.variant.k), "gain": EX.variant.gain,
             "discount": EX.variant.discount, "base": "e", "source": "judged", "ideal_terms": "", "idcg": "",
             **{f: SHEET[f] for f in STEPS}}
    at = open_page("pages/check.py", lang=lang, query=query)
    _assert_said(at, lang)
    assert not at.warning  # the scores are used
    # Without the scores the page cannot know the items tied: no tie is named
    at.text_input(key="check_scores").input("").run()
    no_exceptions(at)
    assert _name(lang) not in _said(at)
    # Scores that rise down the list are left out, with a warning, and the sheet is still checked
    at.text_input(key="check_scores").input("0.1 0.9").run()
    no_exceptions(at)
    assert at.warning and at.error


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_classroom(lang, tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DB_URL", f"sqlite:///{tmp_path / 'classroom.sqlite3'}")
    teacher = open_page("pages/class.py", lang=lang,
                        query={"source": "practice", "seed": str(SEED), "difficulty": LEVEL, "steps": ",".join(STEPS)})
    teacher.button(key="class_start").click().run()
    no_exceptions(teacher)
    code = teacher.query_params["code"]
    code = code if isinstance(code, str) else code[-1]
    student = open_page("pages/join.py", lang=lang, query={"code": code})
    student.text_input(key="join_nickname").input("Ada")  # a form: sent with its submit
    student.button(key="join_button").click().run()
    for f in STEPS:
        student.text_input(key=f"join_{f}").input(SHEET[f]).run()
    no_exceptions(student)
    text = _said(student)
    for line in _expected(lang)[1:]:  # the student's page gives the verdicts (its first line is the grid's)
        assert line in text, (line, text[:2000])
    teacher.run()
    no_exceptions(teacher)
    mistakes = [tb.value for tb in teacher.table][0]
    assert [m.replace("\\", "") for m in mistakes.iloc[:, 0]] == [_name(lang)]
