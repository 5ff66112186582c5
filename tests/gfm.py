"""Markdown rendered the way Streamlit renders it, for tests: which links and images does a text make?

Streamlit draws Markdown with react-markdown + remark-gfm.  Links come from two places:

* CommonMark itself: ``[x](url)``, ``![x](url)``, ``<https://x>``, ``<a@b.c>`` (and raw HTML, which
  Streamlit drops unless ``unsafe_allow_html``).  :mod:`markdown_it` parses these the same way.
* GFM's *autolink literals*: remark-gfm's transform (mdast-util-gfm-autolink-literal) runs two regular
  expressions over every text node, after backslash escapes are resolved, and turns ``www.x.com``,
  ``https://x.com/a`` and ``me@x.com`` into links.  :func:`autolinks` ports that transform: the two
  expressions and their checks are copied from the bundle Streamlit ships
  (``streamlit/static/static/js/StreamlitMarkdown.*.js``; :data:`STREAMLIT_REGEXES` is checked against it
  in tests/ui/test_escape.py, so a Streamlit upgrade that changes them fails loudly).

tests/browser/test_injection.py renders the same payloads in Chromium and checks that this module finds
a link exactly where the browser draws one, so AppTest sweeps can use :func:`links` instead of a browser.
"""
from __future__ import annotations

import re
import unicodedata

from markdown_it import MarkdownIt

__all__ = ["links", "autolinks", "visible_text", "STREAMLIT_REGEXES"]

_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])

#: The two expressions as they appear in Streamlit's JavaScript bundle (for the drift check).
STREAMLIT_REGEXES = (r"/(https?:\/\/|www(?=\.))([-.\w]+)([^ \t\r\n]*)/gi",
                     r"/(?<=^|\s|\p{P}|\p{S})([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)/gu")

# JavaScript's \w is ASCII (re.ASCII); the e-mail lookbehind is checked in code (Python's re has no \p{}).
_URL = re.compile(r"(https?://|www(?=\.))([-.\w]+)([^ \t\r\n]*)", re.IGNORECASE | re.ASCII)
_EMAIL = re.compile(r"([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)", re.ASCII)
_TRAILING = re.compile(r"[!\"&'),.:;<>?\]}]+$")


def _punctuation_or_space(ch: str) -> bool:
    # micromark's unicodeWhitespace (/\s/) or unicodePunctuation (/\p{P}|\p{S}/u)
    return ch.isspace() or unicodedata.category(ch)[0] in "PS"


def _previous_ok(text: str, index: int, email: bool = False) -> bool:
    if index == 0:
        return True
    ch = text[index - 1]
    return _punctuation_or_space(ch) and not (email and ch == "/")


def _domain_ok(domain: str) -> bool:
    parts = domain.split(".")
    if len(parts) < 2:
        return False
    for part in (parts[-1], parts[-2]):
        if part and ("_" in part or not re.search(r"[a-zA-Z\d]", part)):
            return False
    return True


def _split_url(url: str) -> str:
    """The link part of a URL match: trailing punctuation dropped, balanced closing parentheses kept."""
    m = _TRAILING.search(url)
    if not m:
        return url
    head, tail = url[:m.start()], m.group(0)
    close = tail.find(")")
    opened, closed = head.count("("), head.count(")")
    while close != -1 and opened > closed:
        head += tail[:close + 1]
        tail = tail[close + 1:]
        close = tail.find(")")
        closed += 1
    return head


def autolinks(text: str) -> list[str]:
    """The URLs remark-gfm's autolink-literal transform makes from one text node.

    >>> autolinks("see www.example.com, or write to me@example.com")
    ['http://www.example.com', 'mailto:me@example.com']
    >>> autolinks("www\u2060.example.com me\u2060@example.com https:\u2060//example.com")
    []
    """
    found = []
    pos = 0
    while (m := _URL.search(text, pos)) is not None:
        protocol, domain, path = m.groups()
        prefix = ""
        ok = _previous_ok(text, m.start())
        if ok and protocol.lower().startswith("w"):
            domain, protocol, prefix = protocol + domain, "", "http://"
        if ok and _domain_ok(domain):
            head = _split_url(domain + path)
            if head:
                found.append(prefix + protocol + head)
                pos = m.end()
                continue
        pos = m.start() + 1
    pos = 0
    while (m := _EMAIL.search(text, pos)) is not None:
        local, domain = m.groups()
        # the lookbehind (?<=^|\s|\p{P}|\p{S}) and the replace function's own checks
        if _previous_ok(text, m.start(), email=True) and not re.search(r"[-\d_]$", domain):
            found.append(f"mailto:{local}@{domain}")
            pos = m.end()
        else:
            pos = m.start() + 1
    return found


def _inline_tokens(text: str):
    for token in _MD.parse(text):
        if token.type == "inline":
            yield from token.children or ()


def links(text: str) -> list[str]:
    """Every link and image (their URLs) that Streamlit's Markdown would draw for ``text``.

    >>> links(r"[x](//evil.example) and ![](//evil.example/i.png) and \\[x\\](y)")
    ['//evil.example', '//evil.example/i.png']
    >>> links("https\\\\://example.com/a")  # an escaped colon is a colon again by the time GFM looks
    ['https://example.com/a']
    """
    found: list[str] = []
    depth = 0
    for token in _inline_tokens(text):
        if token.type == "link_open":
            found.append(str(token.attrGet("href")))
            depth += 1
        elif token.type == "link_close":
            depth -= 1
        elif token.type == "image":
            found.append(str(token.attrGet("src")))
        elif token.type == "text" and depth == 0:
            found += autolinks(token.content)
    return found


def visible_text(text: str) -> str:
    """The text a reader sees (inline content of every block, joined by spaces; escapes resolved).

    >>> visible_text(r"\\*\\*b\\*\\* \\$x\\$")
    '**b** $x$'
    """
    parts = []
    for token in _MD.parse(text):
        if token.type == "inline":
            parts.append("".join(c.content if c.type in ("text", "code_inline") else
                                 (" " if c.type in ("softbreak", "hardbreak") else "")
                                 for c in token.children or ()))
    return " ".join(parts)
