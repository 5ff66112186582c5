"""Bold in a catalogue string is drawn bold, whatever the words around it.

CommonMark closes ``**`` only where the run is right-flanking: ``**你的数字遵循的是：**线性增益`` stays two
literal asterisks in the browser, because the closing run follows a punctuation mark (the full-width colon) and
comes before a letter.  English never meets this (a space follows the colon); Chinese and Korean do.  Every
string is rendered as Streamlit's Markdown renders it (tests/gfm.py), its placeholders filled with words and
numbers as pages put them there (Chinese, Korean, Latin), so what is checked is the catalogue's own punctuation.
"""
from __future__ import annotations

import re
import string

import pytest

from tests.gfm import visible_text
from ui.i18n import LANGUAGES, catalogue

FILLS = ["线性增益", "선형 이득", "0.82", "NDCG"]


def _filled(text: str, value: str) -> str:
    names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
    try:
        return text.format(**{name: value for name in names})
    except (KeyError, IndexError, ValueError):
        return text


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_bold_is_closed(lang):
    left = {}
    for key, text in catalogue(lang).items():
        if "**" not in text:
            continue
        for value in FILLS:
            shown = visible_text(_filled(text, value))
            if "**" in shown:
                left[key] = shown[:80]
    assert left == {}, "put CJK punctuation outside the ** (**标题**：…)"


def test_the_check_fails_on_a_colon_inside_the_bold():
    # The case that made this test: the full-width colon inside the bold, a word right after it.
    assert "**" in visible_text("**你的数字遵循的是：**线性增益")
    assert "**" not in visible_text("**你的数字遵循的是**：线性增益")
    assert re.sub(r"\s", "", visible_text("**DCG**：6.86")) == "DCG：6.86"
