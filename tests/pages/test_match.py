"""/match page (AppTest through app.py) in every language: sentences from match_number, link parameters good and bad."""
from __future__ import annotations

import pytest

from metrics.lessons.libraries import LIBRARIES
from metrics.lessons.match import match_number
from tests.conftest import LANGS, no_exceptions, open_page
from ui import escape
from ui.i18n import join_words, t

PAGE = "pages/match.py"


def text(at) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.fixture(scope="module", params=LANGS)
def page(request):
    return request.param, open_page(PAGE, lang=request.param)


def test_default_is_document_001_number(page):
    lang, at = page
    no_exceptions(at)
    assert not at.error
    assert at.title[0].value == t("common.nav.match", lang=lang)
    body = text(at)
    # 3,2,3,0,1,2 with 3,0 judged but not retrieved, k = 6, "0.8184": trec_eval ndcg_cut and ranx give it
    expected = match_number("0.8184", [3, 2, 3, 0, 1, 2], pool=[3, 2, 3, 0, 1, 2, 3, 0], k=6)
    for key in ("trec_eval_ndcg_cut", "ranx_ndcg"):
        assert key in expected.library_keys
        assert LIBRARIES[key].short.replace("_", "\\_") in body
    assert "0.818354" in body
    assert "playground?rels=3,2,3,0,1,2&unretrieved=3,0&k=6" in body
    headers = [h.value for h in at.header]
    assert t("match.near", lang=lang) in headers


def test_link_parameters_are_read():
    at = open_page(PAGE, query={"rels": "3,2,1", "scores": "0.5,0.5,0.1", "docnos": "a,b,c", "k": "2",
                                "value": "0.6399"})
    no_exceptions(at)
    assert not at.error and not at.warning
    expected = match_number("0.6399", [3, 2, 1], scores=[0.5, 0.5, 0.1], docnos=["a", "b", "c"], k=2)
    body = text(at)
    for key in expected.library_keys:
        assert LIBRARIES[key].short.replace("_", "\\_") in body, key


@pytest.mark.parametrize("query,param", [
    ({"rels": "3,x,1"}, "rels"),
    ({"k": "①"}, "k"),
    ({"value": "abc"}, "value"),
    ({"scores": "1,inf"}, "scores"),
    ({"unretrieved": "-1"}, "unretrieved"),
])
def test_bad_link_parameters_warn_and_use_defaults(query, param):
    at = open_page(PAGE, query=query)
    no_exceptions(at)
    assert any(param in w.value for w in at.warning), [w.value for w in at.warning]
    assert "0.818354" in text(at)  # the defaults are used


def test_bad_typed_value_keeps_last_valid_and_hostile_text_is_inert():
    at = open_page(PAGE)
    at.text_input(key="mt_value").set_value("![x](http://example.invalid/a.png)").run()
    no_exceptions(at)
    assert at.error  # named, escaped
    assert "![x](http" not in " ".join(e.value for e in at.error)
    assert "0.818354" in text(at)  # last valid number kept


def test_mismatched_scores_are_ignored_with_a_warning():
    at = open_page(PAGE)
    at.text_input(key="mt_scores").set_value("1, 2").run()
    no_exceptions(at)
    assert any("2" in w.value and "6" in w.value for w in at.warning)


def test_no_match_shows_near_misses_in_every_language():
    for lang in LANGS:
        at = open_page(PAGE, lang=lang, query={"rels": "3,2,1", "value": "0.1234"})
        no_exceptions(at)
        infos = " ".join(i.value for i in at.info)
        assert t("match.no_library", lang=lang) in infos
        assert t("match.near", lang=lang) in [h.value for h in at.header]


def test_counts_of_one_are_singular_in_english():
    # 1, 0, 1 with "0.9197": one family of settings (linear/binary gain, standard discount); "0.9" has 1 decimal.
    at = open_page(PAGE, query={"rels": "1,0,1", "unretrieved": "", "k": "", "value": "0.9197"})
    no_exceptions(at)
    assert len(match_number("0.9197", [1, 0, 1]).matches) == 1
    captions = " ".join(c.value for c in at.caption)
    assert "1 family of settings;" in captions and "families" not in captions
    at = open_page(PAGE, query={"rels": "3,0,1", "unretrieved": "", "k": "", "value": "0.9"})
    no_exceptions(at)
    captions = " ".join(c.value for c in at.caption)
    assert "has 1 decimal:" in captions and "2 families of settings" in captions
    # a single document: only scikit-learn refuses it
    at = open_page(PAGE, query={"rels": "3", "unretrieved": "", "k": "", "value": "1"})
    no_exceptions(at)
    assert list(match_number("1", [3]).not_applicable) == ["sklearn"]
    captions = " ".join(c.value for c in at.caption)
    assert "this library refuses it" in captions and "has 0 decimals" in captions


@pytest.mark.parametrize("lang", LANGS)
def test_singular_counts_in_every_language(lang):
    at = open_page(PAGE, lang=lang, query={"rels": "1,0,1", "unretrieved": "", "k": "", "value": "0.9197"})
    no_exceptions(at)
    assert t("match.settings_help_one", lang=lang, n=1) in [c.value for c in at.caption]


@pytest.mark.parametrize("lang", LANGS)
def test_a_score_beyond_float32_is_answered_by_the_others(lang):
    # 3, 2, 1 scored 1e308, 0.5, 2: NDCG 0.972504 (see tests/metrics/lessons/test_match.py); XGBoost
    # computes in float32 and cannot represent 1e308, every other library answers
    at = open_page(PAGE, lang=lang, query={"rels": "3,2,1", "scores": "1e308,0.5,2", "unretrieved": "", "k": "",
                                           "value": "0.9725"})
    no_exceptions(at)
    assert not at.error and not at.warning
    assert LIBRARIES["sklearn"].short.replace("_", "\\_") in text(at)
    captions = [c.value for c in at.caption]
    xgb = join_words((LIBRARIES[k].short for k in LIBRARIES if LIBRARIES[k].convention.scores_as == "float32"),
                     lang)  # listed the language's way: "a, b" / "a、b"
    assert t("match.cannot_represent", lang=lang, libraries=escape.markdown(xgb, 0)) in captions
