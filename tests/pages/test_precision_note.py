"""A written number's precision is said in the unit it was written in, the same way on Check my calculation,
Practice, the classroom and Which convention? (issue 36, teach4 item 2; AppTest through app.py).

"83.5%" has one decimal as a percent: it allows ±0.05 percentage points (83.45% to 83.55%), ±0.0005 as a
fraction — never "±0.0005, as a percent".  "81.8%" has one decimal as written (not 3, its digits as a fraction).
"""
from __future__ import annotations

import pytest

from metrics.lessons.exercises import make_exercise
from tests.conftest import LANGS, no_exceptions, open_page
from ui.i18n import t


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def _percent_sentence(lang: str) -> str:
    # 83.5%: half a unit of its last digit is 0.05 percentage points; 83.5 - 0.05 = 83.45, 83.5 + 0.05 = 83.55;
    # as a fraction 0.05 / 100 = 0.0005
    return t("diagnose.precision.percent", lang=lang, value="83.5%", half="0.05", lo="83.45", hi="83.55",
             tolerance="0.0005")


@pytest.mark.parametrize("lang", LANGS)
def test_check_says_a_percent_s_precision_in_percentage_points(lang):
    at = open_page("pages/check.py", lang=lang, query={"ndcg": "83.5%", "terms": "", "ideal_terms": "", "dcg": "",
                                                        "idcg": ""})
    no_exceptions(at)
    captions = _captions(at)
    assert _percent_sentence(lang) in captions
    assert "±0.0005," not in captions.replace(" ", "")  # the old "±0.0005, as a percent"


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_practice_quotes_the_student_s_own_number(lang):
    ex = make_exercise(7, "easy")  # answers asked with 2 decimals
    at = open_page("pages/practice.py", lang=lang, query={"seed": "7", "difficulty": "easy"})
    at.text_input(key="practice_ndcg").input("83.5%").run()
    no_exceptions(at)
    assert ex.decimals == 2
    assert _percent_sentence(lang) in _captions(at)


def test_a_fraction_and_a_whole_number_in_a_list():
    # 0.92: ±0.005 (0.915 to 0.925).  Terms "3 1.26": the list is read at 2 decimals, so the note quotes 1.26
    # (±0.005, 1.255 to 1.265), not 3 (which would say ±0.5).
    at = open_page("pages/check.py", query={"ndcg": "0.92", "terms": "", "ideal_terms": "", "dcg": "", "idcg": ""})
    no_exceptions(at)
    assert "0.92 allows ±0.005 (0.915 to 0.925)" in _captions(at)
    at.text_input(key="check_ndcg").input("").run()
    at.text_input(key="check_terms").input("3 1.26").run()
    no_exceptions(at)
    assert "1.26 allows ±0.005 (1.255 to 1.265)" in _captions(at) and "±0.5" not in _captions(at)


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_which_convention_counts_the_decimals_as_written(lang):
    at = open_page("pages/match.py", lang=lang, query={"rels": "3,2,3,0,1,2", "value": "81.8%"})
    no_exceptions(at)
    # one decimal as written; 81.8 -/+ 0.05 = 81.75% to 81.85% (the catalogue's sentence, Korean particles
    # resolved as every sentence is)
    want = t("match.precision_one", lang=lang, value="81.8%", decimals=1, lo="81.75%", hi="81.85%")
    assert want in _captions(at), _captions(at)
