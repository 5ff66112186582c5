"""A bad value in a link is refused in the page's language, whole, and shown once escaped.

Before: the match fields' refusals quoted metrics' English sentence inside the Chinese and Korean warning
("不接受“map”——measure 'map' is not an NDCG; accepted\\…"), cut at 40 characters and escaped twice (a
backslash showed); "1 2" for one number was "“2” at position 2 is not a number".
"""
from __future__ import annotations

import re

import pytest

from tests.conftest import no_exceptions, open_page

CASES = [  # page, link, what the visitor must read in each language
    ("pages/match.py", {"value": "abc"},
     {"en": "a number such as 0.91 or 81.86% is expected", "zh": "应为一个数，如 0.91", "ko": "81.86% 같은 숫자를",
      "zh-Hant": "應為一個數，如 0.91"}),
    ("pages/run_files.py", {"match_measure": "map"},
     {"en": "it is not an NDCG measure", "zh": "这不是 NDCG 指标", "ko": "NDCG 지표가 아닙니다",
      "zh-Hant": "這不是 NDCG 指標"}),
    ("pages/run_files.py", {"match_measure": "nDCG@0"},
     {"en": "whole number of 1 or more", "zh": "不小于 1 的整数", "ko": "1 이상의 정수", "zh-Hant": "不小於 1 的整數"}),
    ("pages/check.py", {"dcg": "1 2"},
     {"en": "“2” is a second number", "zh": "“2”是第二个数", "ko": "“2”는 두 번째 수", "zh-Hant": "「2」是第二個數"}),
]
ENGLISH = re.compile(r"\b(is not|accepted|expected|must be|got)\b")


@pytest.mark.parametrize("lang", ["en", "zh", "ko", "zh-Hant"])
@pytest.mark.parametrize("page, query, said", CASES,
                         ids=[f"{c[0].split('/')[1][:-3]}-{next(iter(c[1]))}" for c in CASES])
def test_a_refused_link_value_is_said_in_the_page_s_language(lang, page, query, said):
    at = open_page(page, lang=lang, query=query)
    no_exceptions(at)
    shown = [w.value for w in at.warning if next(iter(query)).replace("_", "\\_") in w.value]
    assert len(shown) == 1, [w.value for w in at.warning]
    assert said[lang] in shown[0], shown[0]
    assert "\\\\" not in shown[0] and "…" not in shown[0]  # escaped once, not cut
    if lang != "en":
        assert not ENGLISH.search(shown[0]), shown[0]
