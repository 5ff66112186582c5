"""One term per concept in each language, one name per page, and Chinese punctuation after Chinese text."""
from __future__ import annotations

import re

import pytest

from ui.i18n import LANGUAGES, catalogue, glossary


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_language_has_the_same_concepts(lang):
    assert set(glossary(lang)) == set(glossary("en"))


# A document's words, translated: kept as the post wrote them (its own terms, its own punctuation).
QUOTE = re.compile(r"\.quote$")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_avoided_word_anywhere(lang):
    avoid = {word: concept for concept, entry in glossary(lang).items() for word in entry["avoid"]}
    found = {(key, word): avoid[word] for key, text in catalogue(lang).items() if not QUOTE.search(key)
             for word in avoid if word in text}
    assert found == {}, "use the glossary's term (ui/locales/<lang>/glossary.toml)"


PAGES = {"page_playground": "playground", "page_check": "check", "page_run_files": "run_files"}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_page_one_name(lang):
    # The menu says the page's name; the page's own heading says the same where English's does.
    cat, en = catalogue(lang), catalogue("en")
    for concept, page in PAGES.items():
        assert glossary(lang)[concept]["term"] in cat[f"common.nav.{page}"], (lang, page)
    same = [p for p in ("check", "practice", "rating") if en[f"{p}.title"] == en[f"common.nav.{p}"]]
    assert {p: cat[f"{p}.title"] for p in same} == {p: cat[f"common.nav.{p}"] for p in same}


CJK = "\u3400-\u9fff\u3000-\u303f\uff00-\uffef"
ASCII_AFTER_CHINESE = re.compile(rf"(?<=[{CJK}])[,:;!?]")
# Keys whose ASCII marks are not prose: a document's own words (kept as the post wrote them) and input syntax
# a visitor types (`name: recommended | test items`).
NOT_PROSE = re.compile(r"\.quote$|^topn\.(users|reason\.empty)$")


def test_chinese_prose_uses_full_width_punctuation():
    bad = {key: m.group(0) for key, text in catalogue("zh").items() if not NOT_PROSE.search(key)
           for m in [ASCII_AFTER_CHINESE.search(text)] if m}
    assert bad == {}
