"""ui.escape.markdown: any text shows as typed and makes no link, image, formula or HTML when Streamlit
renders it (tests/gfm.py renders Markdown the way Streamlit does; tests/browser/test_injection.py checks
that it agrees with Chromium on the payloads below)."""
from __future__ import annotations

from pathlib import Path

import streamlit
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.gfm import STREAMLIT_REGEXES, links, visible_text
from ui.escape import WORD_JOINER, markdown, shorten

#: Texts GFM turns into links, with the link it makes (the calibration of tests/gfm.py).
AUTOLINKED = {
    "www.example.com": "http://www.example.com",
    "WWW.Example.COM/a?b=1": "http://WWW.Example.COM/a?b=1",
    "https://example.com/a": "https://example.com/a",
    "HTTP://EXAMPLE.COM": "HTTP://EXAMPLE.COM",
    "see http://example.com/a).": "http://example.com/a",
    "me@example.com": "mailto:me@example.com",
    "mailto:me@example.com": "mailto:me@example.com",
    "x (first.last+tag@mail.example.org)": "mailto:first.last+tag@mail.example.org",
    "3,https://example.com,1": "https://example.com,1",
    "a.www.example.com": "http://www.example.com",
}
#: Texts CommonMark turns into links or images (stopped by backslash escapes).
MARKUP = {
    "[x](//evil.example)": "//evil.example",
    "![](//evil.example/x.png)": "//evil.example/x.png",
    "<https://evil.example>": "https://evil.example",
    "<me@evil.example>": "mailto:me@evil.example",
}
#: Look like links to a person, but GFM does not link them (nor do we need to break them).
NOT_LINKED = ["example.com", "ftp://example.com", "//example.com", "wwwexample.com", "awww.example.com",
              "a/me@example.com"]


def test_the_ported_expressions_are_streamlits():
    # tests/gfm.py copies remark-gfm's two expressions from the JavaScript Streamlit ships: if an upgrade
    # changes them, the port (and so every AppTest sweep relying on it) must be revisited.
    bundles = list((Path(streamlit.__file__).parent / "static").rglob("StreamlitMarkdown*.js"))
    assert bundles, "Streamlit's Markdown bundle not found"
    source = "".join(p.read_text(encoding="utf-8", errors="replace") for p in bundles)
    for regex in STREAMLIT_REGEXES:
        assert regex in source, regex


def test_the_renderer_finds_the_links_streamlit_draws():
    for text, url in {**AUTOLINKED, **MARKUP}.items():
        assert links(text) == [url], text
    for text in NOT_LINKED:
        assert links(text) == [], text


def test_escaped_payloads_make_no_link_and_read_the_same():
    for text in [*AUTOLINKED, *MARKUP, *NOT_LINKED, "a: ![](//evil.example/x) | $\\huge PWN$", "1. first", "2) b"]:
        escaped = markdown(text, 0)
        assert links(escaped) == [], (text, escaped)
        assert visible_text(escaped).replace(WORD_JOINER, "") == text, (text, escaped)


def test_only_autolink_starts_get_a_joiner():
    assert markdown("www.example.com") == f"www{WORD_JOINER}.example.com"
    assert markdown("https://x.org") == f"https\\:{WORD_JOINER}//x.org"
    assert markdown("me@x.org") == f"me{WORD_JOINER}@x.org"
    # numbers, ratios, times and plain words are left alone
    for text in ("0.8184", "3:2", "10:30", "a/b", "www", "wow.", "1e308"):
        assert WORD_JOINER not in markdown(text), text


# An alphabet dense in what links are made of, plus Markdown's active characters and some Unicode.
_pieces = st.sampled_from(["www", "WWW", ".", ":", "/", "//", "@", "http", "https", "s", "mailto:", "xmpp:",
                           "example", "com", "-", "_", "+", "(", ")", "[", "]", "<", ">", "!", "*", "$", "\\",
                           "`", "|", "#", " ", "\n", "1", "é", "中", "。", "，", "\u200b"])
texts = st.lists(_pieces, max_size=25).map("".join)


@settings(deadline=None)
@given(texts)
def test_any_text_is_inert_and_reads_as_typed(text):
    escaped = markdown(text, 0)
    assert links(escaped) == [], escaped
    assert visible_text(escaped).replace(WORD_JOINER, "") == shorten(text, 0)


@settings(deadline=None)
@given(st.text(max_size=60))
def test_any_unicode_text_is_inert(text):
    escaped = markdown(text, 0)
    assert links(escaped) == [], escaped
