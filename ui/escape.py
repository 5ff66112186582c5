r"""One escaper per output format for user text: Markdown, KaTeX (``st.latex``), LaTeX documents, HTML.

User text is anything a visitor typed, uploaded or put in a link: labels, nicknames, file names,
query and document ids, link parameter values.  It must show exactly as typed and never act:
no image the browser fetches (``![](//host/x)``), no live link, no maths (``$\huge PWN$``), no HTML.

Live links come in two kinds.  Markdown's own (``[x](url)``, ``<https://x>``) are stopped by
backslash escapes.  GitHub-flavoured Markdown's *autolink literals* are not: Streamlit renders Markdown
with remark-gfm, whose transform finds ``www.example.com``, ``https://example.com/a`` and
``user@example.com`` in the text *after* escapes are resolved (``https\://`` is text ``https://`` again).
:func:`markdown` breaks those patterns with an invisible WORD JOINER (U+2060, a default-ignorable
character: no glyph, no width, no line break): after ``:`` before ``/``, between ``www`` and ``.``, and
before ``@``.  The text reads and measures the same (tests/browser/test_injection.py renders it in
Chromium; tests/gfm.py renders Markdown as Streamlit does for the AppTest sweeps); a copy of it holds
the joiners.
CSV cells are neutralised by :mod:`metrics.safe_csv` (the command line writes CSV too).

* :func:`markdown` — inside text Streamlit renders as Markdown (``st.markdown``, ``st.warning``,
  ``st.caption``, ``st.error``, button help, ...).  Folds line breaks, shortens long text.
* :func:`markdown_cell` — inside a Markdown *table* cell (also escapes ``|``) for exported files;
  escapes only what Markdown needs, so exports read cleanly in Marp, Jupyter and Obsidian.
* :func:`katex_text` — inside ``\text{...}`` of a formula drawn by ``st.latex`` (KaTeX).
* :func:`latex` — inside a LaTeX document (the ``.tex`` export).
* :func:`html` — inside HTML we write ourselves (the rare ``st.html`` with fixed markup).

Widget labels, option names and table headers are not Markdown: they need no escaping.
"""
from __future__ import annotations

import html as _html
import re

__all__ = ["WORD_JOINER", "shorten", "markdown", "markdown_cell", "markdown_link", "katex_text", "latex", "html"]

# Active anywhere in a line; "#", "+", "-" and "1." only start headings and lists.
_MARKDOWN_ACTIVE = re.compile(r"([\\`*_{}\[\]()!|<>~$:&])")
#: U+2060 WORD JOINER: invisible, zero width, no line break opportunity.
WORD_JOINER = "\u2060"
# Where remark-gfm's autolink literals start: "scheme:/" (http://, https://, and any other "x://"),
# "www." (any case) and the "@" of an e-mail address (mailto: and xmpp: links need one too).
_AUTOLINK = re.compile(r"(?<=:)(?=/)|(?i:(?<=www)(?=\.))|(?=@)")
_LINE_START = re.compile(r"^(#{1,6}|[+\-=]|\d+[.)])(?=\s|$)")


def shorten(text, limit: int) -> str:
    r"""``text`` on one line (runs of whitespace folded) and at most ``limit`` characters, with ``…``.

    >>> shorten("a\nb   c" + "d" * 50, 10)
    'a b cdddd…'
    """
    folded = " ".join(str(text).split())
    if limit and len(folded) > limit:
        folded = folded[: max(limit - 1, 0)] + "…"
    return folded


def markdown(text, limit: int = 40) -> str:
    r"""User text made inert inside Markdown that Streamlit renders.

    Backslash-escapes every Markdown-active character (so ``![x](http://...)`` shows as typed
    instead of an image the browser would fetch, ``$...$`` is not maths and ``<b>`` is not HTML),
    breaks autolink literals (``www.x.com``, ``https://x``, ``a@x.com``; see the module docstring),
    folds line breaks and shortens long text (``limit=0``: no limit).

    >>> print(markdown("![x](//h/a.png)"))
    \!\[x\]\(//h/a.png\)
    >>> print(markdown(r"$\huge PWN$"))
    \$\\huge PWN\$
    >>> print(markdown("-2"), markdown("# big"), markdown("- item"), markdown("1. first"), markdown("2) b"))
    -2 \# big \- item 1\. first 2\) b
    >>> print(markdown("a\nb" + "c" * 50, limit=10))
    a bcccccc…

    Autolink literals get an invisible word joiner (shown here as ``|``) where remark-gfm would
    start a link:

    >>> for typed in ("www.example.com", "https://example.com/a", "me@example.com"):
    ...     print(markdown(typed).replace(WORD_JOINER, "|"))
    www|.example.com
    https\:|//example.com/a
    me|@example.com
    """
    unlinked = _AUTOLINK.sub(WORD_JOINER, shorten(text, limit))
    escaped = _MARKDOWN_ACTIVE.sub(r"\\\1", unlinked)
    # CommonMark escapes punctuation only: "\\1." would show its backslash, so a number's "." or ")" is escaped.
    return _LINE_START.sub(lambda m: (m.group(1)[:-1] + "\\" + m.group(1)[-1]) if m.group(1)[0].isdigit()
                           else "\\" + m.group(1), escaped)


def markdown_link(url: str) -> str:
    r"""A Markdown link to an ``http(s)`` address the app made (a join link on the projector): the address as
    its text, readable and copyable as typed (no word joiner: inside a link GFM finds no other link), and as
    its target with every character outside a URL's own percent-encoded.  Any other address: inert text.

    >>> print(markdown_link("http://127.0.0.1:8501/join?code=AB3D"))
    [http://127.0.0.1:8501/join?code=AB3D](http://127.0.0.1:8501/join?code=AB3D)
    >>> print(markdown_link("https://h/a b)c_d/join?code=X"))
    [https://h/a b)c\_d/join?code=X](https://h/a%20b%29c_d/join?code=X)
    >>> print(markdown_link("javascript:alert(1)"))
    javascript\:alert\(1\)
    """
    from urllib.parse import quote, urlsplit

    url = shorten(url, 0)
    if urlsplit(url).scheme not in ("http", "https"):
        return markdown(url, 0)
    return f"[{markdown_cell(url)}]({quote(url, safe=':/?=&%-._~')})"


def markdown_cell(text) -> str:
    r"""Text for one cell of an exported Markdown table: ``|`` and the emphasis/link/HTML characters
    escaped, nothing else (parentheses, dots and dashes stay as they are).

    >>> print(markdown_cell("DCG (running)"), markdown_cell("A|B *x*"), markdown_cell("<img src=x>"))
    DCG (running) A\|B \*x\* \<img src=x\>
    """
    folded = shorten(text, 0)
    return re.sub(r"([\\`*_\[\]|<>~$])", r"\\\1", folded)


# Inside \text{...} KaTeX treats these specially.
_KATEX_TEXT = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "%": r"\%", "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}",
}


def katex_text(text, limit: int = 24) -> str:
    r"""User text for ``\text{...}`` inside a formula drawn with ``st.latex`` (KaTeX), shortened.

    The result goes *inside* the braces: ``f"\\text{{{katex_text(label)}}}"``.

    >>> print(katex_text(r"R&D_1 {50%} \x"))
    R\&D\_1 \{50\%\} \textbackslash{}x
    """
    return "".join(_KATEX_TEXT.get(ch, ch) for ch in shorten(text, limit))


def latex(text) -> str:
    r"""Text safe inside a LaTeX document (tables of the ``.tex`` export).

    >>> print(latex("R&D_1 {50%}"))
    R\&D\_1 \{50\%\}
    """
    return "".join(_KATEX_TEXT.get(ch, ch) for ch in shorten(text, 0))


def html(text, limit: int = 0) -> str:
    """Text safe inside HTML markup (quotes too, so it may go into an attribute).

    >>> html('<img src=x onerror="alert(1)">')
    '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
    """
    return _html.escape(shorten(text, limit), quote=True)
