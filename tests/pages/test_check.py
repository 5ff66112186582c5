"""Check page (AppTest): the documents' slips diagnosed through the page in en/zh/ko, bad input kept."""
from __future__ import annotations

import pytest

from tests.conftest import LANGS, no_exceptions, open_page
from ui.i18n import catalogue

PAGE = "pages/check.py"


def _cat(lang: str) -> dict:
    return catalogue(lang)


def _first_error(at) -> str:
    return at.error[0].value if at.error else ""


@pytest.mark.parametrize("lang", LANGS)
def test_doc003_default_sheet(lang):
    # The page opens on document 003's sheet: first wrong step is the DCG term at position 5 (0.38, truncated).
    at = open_page(PAGE, lang=lang)
    no_exceptions(at)
    c = _cat(lang)
    first = _first_error(at)
    assert c["diagnose.kind.truncation.name"] in first
    assert c["diagnose.step.term"].format(position=5) in first
    texts = " ".join(m.value for m in at.markdown)
    for kind in ("truncation", "rounded_sum", "carried_forward"):
        assert c[f"diagnose.kind.{kind}.name"] in texts
    table = at.dataframe[0].value
    marks = table[c["diagnose.col.mark"]].tolist()
    assert marks.count("✗") == 4  # term 5, ideal term 6, IDCG 8.37, NDCG 81.96%
    assert "0.3869" in table[c["diagnose.col.correct"]].tolist()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset, kind, step", [
    ("001-main", "ratio_of_rounded", "ndcg"),
    ("000-graded", "truncation", "ndcg"),
    ("000-formula2", "wrong_gain", "term"),
])
def test_document_presets(lang, preset, kind, step):
    at = open_page(PAGE, lang=lang)
    at.selectbox(key="check_preset").set_value(preset).run()
    no_exceptions(at)
    c = _cat(lang)
    first = _first_error(at)
    assert c[f"diagnose.kind.{kind}.name"] in first
    label = c[f"diagnose.step.{step}"]
    assert label.format(position=1) in first
    if preset == "000-formula2":
        # 6.82 is the sum of the rounded linear terms: drift
        assert c["diagnose.kind.rounded_sum.name"] in " ".join(m.value for m in at.markdown)


def test_doc002_is_all_right():
    at = open_page(PAGE)
    at.selectbox(key="check_preset").set_value("002-wiki").run()
    no_exceptions(at)
    assert at.success and at.success[0].value == _cat("en")["diagnose.all_right"]


def test_my_own_numbers_with_named_formula():
    # log2(i) where log2(i + 1) was meant: position 2 is 2/log2(3) = 1.26, not 2
    at = open_page(PAGE)
    at.selectbox(key="check_preset").set_value("").run()
    at.text_area(key="check_grades").input("3 2 1 3 2").run()
    at.text_input(key="check_unretrieved").input("").run()
    at.number_input(key="check_k").set_value(0).run()
    for key in ("terms", "dcg", "ideal_terms", "idcg", "ndcg"):
        at.text_input(key=f"check_{key}").input("").run()
    at.text_input(key="check_terms").input("3 2 0.63 1.5 0.86").run()
    at.selectbox(key="check_discount").set_value("standard").run()
    no_exceptions(at)
    first = _first_error(at)
    assert "log(i) vs log(i + 1)" in first and "DCG term at position 2" in first


@pytest.mark.parametrize("lang", LANGS)
def test_bad_number_is_named_and_last_valid_kept(lang):
    at = open_page(PAGE, lang=lang)
    at.text_input(key="check_terms").input("3 1.26 abc").run()
    no_exceptions(at)
    c = _cat(lang)
    errors = [e.value for e in at.error]
    assert c["common.not_a_number"].format(token="abc", position=3) in errors
    # the diagnosis still runs on the last valid terms (document 003's)
    assert any(c["diagnose.kind.truncation.name"] in e for e in errors)


def test_too_many_terms_and_bad_grades():
    at = open_page(PAGE)
    at.text_input(key="check_terms").input("1 2 3 4 5 6 7").run()
    no_exceptions(at)
    assert _cat("en")["check.too_many"].format(count=7, limit=6) in [e.value for e in at.error]
    at.text_area(key="check_grades").input("3 x 1").run()
    no_exceptions(at)
    assert "'x' at position 2 is not a number." in [e.value for e in at.error]
    at.text_input(key="check_ndcg").input("81.96% 0.5").run()
    no_exceptions(at)


def test_nothing_typed():
    at = open_page(PAGE)
    at.selectbox(key="check_preset").set_value("").run()
    for key in ("terms", "dcg", "ideal_terms", "idcg", "ndcg"):
        at.text_input(key=f"check_{key}").input("").run()
    no_exceptions(at)
    assert at.info[0].value == _cat("en")["check.nothing_yet"]


def test_user_text_not_rendered_as_html():
    at = open_page(PAGE)
    at.text_input(key="check_dcg").input("<b>7</b>").run()
    no_exceptions(at)
    assert not any("<b>" in m.value and "\\<b" not in m.value for m in at.markdown)
