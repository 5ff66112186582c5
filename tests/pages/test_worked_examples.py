"""Worked examples page (AppTest, through app.py) in every language: headline figures, verdicts, tables,
charts, playground links; the open document in the link; printed numbers only from metrics.lessons.examples."""
from __future__ import annotations

import json
import re
from urllib.parse import parse_qs

import pytest

from metrics.lessons.examples import DOCUMENTS, EXAMPLES, VERDICTS, examples_for, judge
from tests.conftest import LANGS, no_exceptions, open_page
from ui.i18n import catalogue, t

PAGE = "pages/worked_examples.py"
OWN_SECTIONS = ("worked_examples.", "check.", "playground.", "diagnose.", "variants.", "practice.")


def charts(at):
    return at.get("vega_lite_chart") + at.get("arrow_vega_lite_chart")


def verdict_name(lang: str, kind: str) -> str:
    return VERDICTS[kind].name if lang == "en" else catalogue(lang)[f"registry.verdict.{kind}.name"]


def html_tables(at, test_id: str) -> list[str]:
    """The bodies of the page's HTML tables (ui/tables.py) with this data-testid."""
    return [h.proto.body for h in at.get("html") if f'data-testid="{test_id}"' in h.proto.body]


def tables_text(at) -> str:
    html_text = " ".join(html_tables(at, "we_verdicts") + html_tables(at, "we_positions")
                         + html_tables(at, "we_positions_ideal"))
    return " ".join(x.value.to_string() for x in list(at.dataframe) + list(at.table)) + " " + html_text


def playground_links(at) -> list:
    """The "open in playground" links (each example also has a "Present" link)."""
    return [link for link in at.get("page_link") if "playground" in link.proto.page]


def query(at) -> dict[str, str]:
    return {k: at.query_params[k] if isinstance(at.query_params[k], str) else at.query_params[k][-1]
            for k in at.query_params}


@pytest.fixture(scope="module", params=[(lang, doc) for lang in LANGS for doc in DOCUMENTS],
                ids=lambda p: f"{p[0]}-{p[1]}")
def page(request):
    lang, doc = request.param
    return lang, doc, open_page(PAGE, lang=lang, query={"doc": doc})


def test_renders_without_errors(page):
    lang, doc, at = page
    no_exceptions(at)
    assert not at.error and not at.warning
    assert [s.key for s in at.sidebar.segmented_control] == ["lang"]  # through app.py
    assert at.title[0].value == t("common.nav.worked_examples", lang=lang)
    assert query(at).get("doc", "000") == doc


def test_headline_figures_from_the_examples(page):
    lang, _, at = page
    values = [m.value for m in at.metric]
    printed = {k: {p.quantity: p.text for p in EXAMPLES[k].printed if not p.variant}
               for k in ("000-graded", "001-main", "003-blog", "002-wiki")}
    # 001's correct DCG / IDCG large; 003's truncated IDCG beside it, as the document's printed value
    assert values == [f"{printed['000-graded']['dcg']} / {printed['000-graded']['idcg']}",
                      f"{printed['001-main']['dcg']} / {printed['001-main']['idcg']}", printed["002-wiki"]["ndcg"]]
    deltas = [str(m.proto.delta) for m in at.metric]
    assert printed["003-blog"]["idcg"] in deltas[1] and "003" in deltas[1]
    # the exact values, computed (not typed)
    for key in ("dcg", "idcg"):
        assert f"{judge(EXAMPLES['000-graded'], key).exact:.4f}" in deltas[0]
    assert f"{judge(EXAMPLES['002-wiki'], 'ndcg').exact:.4f}" in deltas[2]
    captions = " ".join(c.value for c in at.caption)
    assert f"{judge(EXAMPLES['003-blog'], 'idcg_term_6').exact:.4f}" in captions


def test_only_the_open_document_is_built(page):
    lang, doc, at = page
    n_tables = sum(len(e.variants) for e in examples_for(doc))
    assert len(charts(at)) == n_tables
    assert len(playground_links(at)) == n_tables
    assert len(html_tables(at, "we_verdicts")) == len(examples_for(doc))  # one verdict table per example


def test_verdicts_named_for_every_printed_number(page):
    lang, doc, at = page
    text = tables_text(at)
    for ex in examples_for(doc):
        for p in ex.printed:
            for kind in judge(ex, p).kinds:
                assert verdict_name(lang, kind) in text, (p.key, kind)
        for kind in ex.notes:
            assert verdict_name(lang, kind) in " ".join(m.value for m in at.markdown), kind


def test_playground_links_reproduce_each_example(page):
    lang, doc, at = page
    from ui.pages.worked_examples import playground_query

    links = [parse_qs(link.proto.query_string) for link in playground_links(at)]
    expected = [playground_query(ex, v, lang) for ex in examples_for(doc) for v in ex.variants]
    assert [{k: v[-1] for k, v in q.items()} for q in links] == expected
    if doc == "001":
        assert {"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6"}.items() <= expected[0].items()
    if doc == "004":  # the ground-truth items left out of the list are named by the document
        assert expected[0]["labels"] == "A,E,C,D,F,B,G" and expected[0]["unretrieved"] == "3,0"


def test_explanations_use_numbers_from_the_data(page):
    lang, doc, at = page
    infos = " ".join(i.value for i in at.info)
    assert not re.findall(r"\{[a-z_0-9]+\}", infos)  # every placeholder was filled
    if doc == "000":
        assert "0.9194" in infos  # 7.9923 / 8.6925
    if doc == "003":
        assert "6.8500" in infos and "81.84%" in infos  # its own terms add to 6.85; exact NDCG


def test_chart_is_discounted_gain_by_position(page):
    _, _, at = page
    spec = json.loads(charts(at)[0].proto.spec)
    assert "position" in json.dumps(spec["encoding"]["x"])


@pytest.mark.parametrize("lang", LANGS)
def test_quotes_are_the_documents_words(lang):
    at = open_page(PAGE, lang=lang)
    text = " ".join(m.value for m in at.markdown)
    assert "nDCG=7.99/8.69=0.91" in text  # 000, Chinese, always shown
    if lang != "zh":  # translations appear when the UI language is not the document's
        assert t("worked_examples.ex.000-graded.quote", lang=lang)[:20] in text
    at = open_page(PAGE, lang=lang, query={"doc": "004"})
    assert "IDCG@5는 5번째까지 잘라서" in " ".join(m.value for m in at.markdown)  # 004, Korean


def test_no_printed_number_is_typed_into_the_explanations():
    # Printed numbers reach the text through placeholders filled from metrics.lessons.examples; the
    # quotes (translations of the documents' own words) are the only place they are written out.
    printed = {p.text for ex in EXAMPLES.values() for p in ex.printed
               if p.quantity in ("dcg", "idcg", "ndcg") and len(p.text) >= 4}
    for lang in LANGS:
        for key, text in catalogue(lang).items():
            if key.startswith(OWN_SECTIONS) and not key.endswith(".quote"):
                assert not [x for x in printed if x in text], (lang, key)


def test_the_open_document_is_kept_and_linked():
    at = open_page(PAGE, query={"doc": "003"})
    assert query(at) == {"doc": "003"}
    assert "worked_examples?doc=003" in at.code[-1].value  # the copy-link box
    at.switch_page("pages/check.py").run()
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert at.session_state["we_doc"] == "003"


@pytest.mark.parametrize("doc", ["005", "![](//evil.example/x)", ""])
def test_bad_document_warns_and_opens_the_first(doc):
    at = open_page(PAGE, query={"doc": doc})
    no_exceptions(at)
    assert len(at.warning) == 1
    assert not any("![](" in w.value for w in at.warning)
    assert at.session_state["we_doc"] == "000"


def test_document_004_rec_sys_2_cites_its_own_numbers(page):
    """Issue 36: rec_sys_2's log-base sentence showed rec_sys_1's DCG and "unchanged" between two numbers.

    Derived here from the formula, not through metrics: rec_sys_2 = A, B, C, G, E → grades 3, 3, 2, 0, 1;
    DCG@5 = Σ g_i / log(i + 1) with log₂ and with ln (the ln one is the log₂ one / ln 2)."""
    import math

    lang, doc, at = page
    if doc != "004":
        return
    grades = [3, 3, 2, 0, 1]
    dcg_log2 = sum(g / math.log2(i + 2) for i, g in enumerate(grades))      # 3 + 1.8928 + 1 + 0 + 0.3869 = 6.2796
    dcg_ln = sum(g / math.log(i + 2) for i, g in enumerate(grades))         # 6.2796 / ln 2 = 9.0596
    ideal = [3, 3, 2, 2, 1]                                                  # top five of 3,3,2,2,1,1,0
    ndcg = dcg_log2 / sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    name = verdict_name(lang, "log_base")
    sentences = [m.value for m in at.markdown if m.value.startswith(f"- **{name}**")]
    assert len(sentences) == 2, sentences  # the findings of rec_sys_1 and rec_sys_2
    own = sentences[1]
    assert f"{dcg_log2:.4f}" in own and f"{dcg_ln:.4f}" in own and f"{ndcg:.4f}" in own, own
    assert own.count(f"{ndcg:.4f}") == 1  # NDCG named once: it stays, no "X → X (unchanged)"
    # the post's code: sums as formulas (KaTeX), never raw Σ_{...} text
    text = " ".join(m.value for m in at.markdown)
    assert "Σ_{" not in text and "\\sum_{i=1}^{\\min(|gt|,\\,100)}" in text
