"""Worked examples page (AppTest) in every language: headline figures, verdicts, tables, charts, links."""
from __future__ import annotations

import json
import re

import pytest

from metrics.lessons.examples import EXAMPLES, judge
from tests.conftest import LANGS, no_exceptions, open_page
from ui.i18n import t

PAGE = "pages/worked_examples.py"


@pytest.fixture(scope="module", params=LANGS)
def page(request):
    return request.param, open_page(PAGE, lang=request.param)


def charts(at):
    return at.get("vega_lite_chart") + at.get("arrow_vega_lite_chart")


def test_renders_without_errors(page):
    lang, at = page
    no_exceptions(at)
    assert not at.error
    assert at.title[0].value == t("common.nav.worked_examples", lang=lang)
    assert len(at.tabs) == 5


def test_headline_figures_visible_with_exact_values(page):
    lang, at = page
    values = [m.value for m in at.metric]
    assert values == ["7.99 / 8.69", "6.86 / 8.37", "0.961"]
    deltas = " ".join(str(m.proto.delta) for m in at.metric)
    # the exact values, computed (not typed): 7.9923 / 8.6925, 6.8611 / 8.3841, 0.9608
    for key in ("dcg", "idcg"):
        assert f"{judge(EXAMPLES['000-graded'], key).exact:.4f}" in deltas
        assert f"{judge(EXAMPLES['003-blog'], key).exact:.4f}" in deltas
    assert f"{judge(EXAMPLES['002-wiki'], 'ndcg').exact:.4f}" in deltas


def test_every_verdict_kind_named_in_the_tables(page):
    lang, at = page
    text = " ".join(df.value.to_string() for df in at.dataframe)
    for kind in ("exact", "truncation", "rounding_drift", "self_inconsistent_sum", "mislabelled_formula",
                 "different_idcg_items"):
        assert t(f"worked_examples.verdict.{kind}.name", lang=lang) in text, kind
    findings = " ".join(m.value for m in at.markdown)
    for kind in ("log_base", "binary_gain", "text_inconsistency"):
        assert t(f"worked_examples.verdict.{kind}.name", lang=lang) in findings, kind


def test_one_chart_and_playground_link_per_table(page):
    _, at = page
    n_tables = sum(len(e.variants) for e in EXAMPLES.values())
    assert len(charts(at)) == n_tables
    links = at.get("page_link")
    assert len(links) == n_tables
    # the 001 link carries the two unretrieved judged items and k = 6
    lang = page[0]
    queries = [link.proto.query_string.replace(f"&lang={lang}", "") for link in links]
    assert "rels=3%2C2%2C3%2C0%2C1%2C2&unretrieved=3%2C0&k=6" in queries
    # 000's second formula opens with the formula its numbers follow: linear (no gain parameter)
    assert "rels=3%2C2%2C1%2C3%2C2&labels=A%2CD%2CE%2CG%2CF&idcg=list" in queries


def test_chart_is_discounted_gain_by_position(page):
    _, at = page
    spec = json.loads(charts(at)[0].proto.spec)
    assert "position" in json.dumps(spec["encoding"]["x"])


def test_quotes_are_the_documents_words(page):
    lang, at = page
    text = " ".join(m.value for m in at.markdown)
    assert "nDCG=7.99/8.69=0.91" in text  # 000, Chinese, always shown
    assert "IDCG@5는 5번째까지 잘라서" in text  # 004, Korean
    if lang != "zh":  # translations appear when the UI language is not the document's
        assert t('worked_examples.ex.000-graded.quote', lang=lang)[:20] in text


def test_explanations_use_computed_numbers(page):
    lang, at = page
    infos = " ".join(i.value for i in at.info)
    assert "0.9194" in infos  # 000: 7.9923 / 8.6925
    assert "6.8500" in infos  # 003: its own terms add to 6.85
    assert "81.84%" in infos  # 001/003 exact NDCG, rounded
    assert not re.findall(r"\{[a-z_0-9]+\}", infos)  # every placeholder was filled
