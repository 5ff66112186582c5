"""The one-page handout (ui.pages.present.handout): one page of A4 or Letter, its numbers read back from the PDF and
checked against metrics/, CJK text embedded, long lists and hostile labels, rendered to PNG.

Expected numbers come from metrics.breakdown / ndcg (the handout rounds them to 4 decimals for display).
"""
from __future__ import annotations

import subprocess

import pytest
from pypdf import PdfReader

from metrics.lessons.examples import EXAMPLES, FORMULAS, judge
from metrics.ndcg import breakdown, ndcg
from tests.browser.conftest import SCREENSHOTS
from ui.i18n import t
from ui.numbers import show_trimmed
from ui.pages.present import handout
from ui.pages.present.link import Lecture, lecture_from_example, lecture_from_values

PAPER_MM = {"A4": (210, 297), "Letter": (216, 279)}


def read(pdf: bytes, tmp_path) -> PdfReader:
    path = tmp_path / "h.pdf"
    path.write_bytes(pdf)
    return PdfReader(str(path))


def text_of(pdf: bytes, tmp_path) -> str:
    reader = read(pdf, tmp_path)
    assert len(reader.pages) == 1
    return reader.pages[0].extract_text()


@pytest.mark.parametrize("paper", handout.PAPERS)
@pytest.mark.parametrize("lang", ["en", "zh", "ko", "zh-Hant"])
def test_one_page_in_each_paper_and_language(paper, lang, tmp_path):
    lecture = lecture_from_example("001-main")
    r = handout.render(lecture, lang, paper=paper)
    reader = read(r.pdf, tmp_path)
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == PAPER_MM[paper]
    assert r.bottom <= r.footer_top <= r.page_height - 10  # everything above the footer, on the page
    text = reader.pages[0].extract_text()
    assert t("present.handout_title", lang=lang) in text
    assert t("present.handout_table", lang=lang) in text
    assert t("present.idcg_judged", lang=lang) in text  # the variant named


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_numbers_read_back_match_metrics(key, tmp_path):
    ex = EXAMPLES[key]
    lecture = lecture_from_example(key)
    text = text_of(handout.build(lecture, "en"), tmp_path)
    bd = breakdown(list(lecture.rels), k=lecture.variant.k, pool=lecture.pool, **lecture.variant.options)
    # per-position table: every running DCG and IDCG, every discounted gain
    for col in ("dcg", "idcg", "discounted_gain", "ideal_discounted_gain"):
        for value in bd[col].dropna().iloc[: handout.ROWS_CAP]:
            assert show_trimmed(value) in text, (col, value)
    f = FORMULAS[ex.implied].variant
    exact = ndcg(list(ex.relevances), k=ex.k, pool=ex.pool, **f.options)
    assert f"= {show_trimmed(exact)}" in text  # NDCG = DCG / IDCG = ...
    # the document's printed totals beside the exact values, never changed
    for p in ex.printed:
        if p.quantity in ("dcg", "idcg", "ndcg") and p.variant in ("", lecture.variant.gain):
            assert judge(ex, p).printed == p  # judged, not corrected
            if FORMULAS[p.implied].variant.options == f.options or p.variant:
                assert p.text in text


def test_substituted_formula_of_document_000(tmp_path):
    # DCG = 3/max(1, log2 1) + 2/max(1, log2 2) + 1/max(1, log2 3) + ... = 3 + 2 + 0.6309 + 1.5 + 0.8614
    lecture = lecture_from_example("000-graded")
    text = text_of(handout.build(lecture, "en"), tmp_path)
    bd = breakdown([3, 2, 1, 3, 2], discount="jarvelin")
    terms = " + ".join(show_trimmed(x) for x in bd["discounted_gain"])
    assert terms in text  # "3 + 2 + 0.6309 + 1.5 + 0.8614"
    assert "max(1, log" in text


def test_long_list_fits_with_totals_of_every_position(tmp_path):
    rels = tuple(float(i % 4) for i in range(300))
    lecture, _ = lecture_from_values({"present_rels": rels, "present_unretrieved": (3.0, 3.0),
                                      "present_gain": "exponential"})
    for paper in handout.PAPERS:
        r = handout.render(lecture, "ko", paper=paper)
        assert r.bottom <= r.footer_top
        text = text_of(r.pdf, tmp_path)
        bd = breakdown(list(rels), gain="exponential", pool=list(rels) + [3.0, 3.0])
        assert show_trimmed(bd["dcg"].iloc[-1]) in text and show_trimmed(bd["idcg"].iloc[-1]) in text
        assert t("present.handout_rows_more", lang="ko", m=len(bd) - handout.ROWS_CAP) in text


def test_hostile_and_long_labels(tmp_path):
    labels = ("<script>alert(1)</script>", "%PDF-1.4 )(", "电影" * 40, "영화 A")
    lecture = Lecture(rels=(3.0, 2.0, 1.0, 0.0), labels=labels)
    r = handout.render(lecture, "zh", paper="Letter")
    assert r.bottom <= r.footer_top
    text = text_of(r.pdf, tmp_path)
    assert "<script>alert(1)</script>" in text and "영화 A" in text


def test_bad_paper_and_missing_font(monkeypatch):
    with pytest.raises(ValueError, match="paper"):
        handout.build(lecture_from_example("000-graded"), "en", paper="A5")
    monkeypatch.setenv(handout.FONT_ENV, "/nonexistent/font.ttc")
    assert "not a file" in handout.font_problem("zh")
    with pytest.raises(handout.HandoutError):
        handout.build(lecture_from_example("000-graded"), "zh")
    monkeypatch.delenv(handout.FONT_ENV)
    assert handout.font_problem("zh") is None


def test_file_names():
    assert handout.file_name(lecture_from_example("001-book"), "A4") == "ndcg_handout_001-book_A4.pdf"
    assert handout.file_name(Lecture(rels=(1.0,)), "Letter") == "ndcg_handout_Letter.pdf"


def test_rendered_to_png(tmp_path):
    """Rendered pages to look at (test-artifacts/screenshots/handout_*.png)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for key, lang, paper in (("001-main", "en", "A4"), ("000-graded", "zh", "Letter"), ("004-recsys2", "ko", "A4")):
        path = tmp_path / f"{key}.pdf"
        path.write_bytes(handout.build(lecture_from_example(key), lang, paper=paper))
        out = SCREENSHOTS / f"handout_{key}_{lang}_{paper}"
        subprocess.run(["pdftoppm", "-r", "80", "-png", "-singlefile", str(path), str(out)], check=True)
        assert out.with_suffix(".png").stat().st_size > 20_000


def test_the_footer_link_is_whole_when_the_address_is_known(tmp_path):
    # A handout is read on paper: its link must name the server (found by a tester: "present?rels=..." only).
    lecture, _ = lecture_from_values({"present_rels": (3.0, 2.0, 1.0)})
    whole = text_of(handout.build(lecture, "en", base="https://lab.example.edu:8501"), tmp_path).replace("\n", "")
    assert "https://lab.example.edu:8501/present?rels=3,2,1" in whole
    relative = text_of(handout.build(lecture, "en"), tmp_path).replace("\n", "")
    assert "present?rels=3,2,1" in relative and "://" not in relative
