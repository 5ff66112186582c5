"""A student's "Everything I sent" table (``ui.pages.classroom.views.answers_table``): one row per answer,
three cells each, the answer exactly as typed (whitespace folded, as the store keeps it) and never a link,
an image, HTML or a formula — whatever the student typed, checked by rendering the Markdown as Streamlit
does (tests/gfm.py, calibrated against Chromium in tests/browser/test_injection.py)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from classroom.store import Answer
from metrics.lessons.diagnose import MISTAKES
from tests.gfm import links
from ui.escape import WORD_JOINER
from ui.pages.classroom.views import answers_table

_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])

#: What students type into an answer box, hostile included: Markdown, HTML, maths, links, table pipes.
HOSTILE = ["[x](http://e.com)", "![i](//h/a.png)", "$\\huge x$", "<b>b</b>", "a | b", "www.e.com", "me@e.com",
           "**6.86**", "`6.86`", "\\|", "# 6.8", "- 1", "1. 2", "~~3~~", "3 1.26 | 1.5", "&amp;", "https://x.y/z"]


def rows(markdown: str) -> list[list[str]]:
    """The table's rows as the reader sees them (cell text, escapes resolved), and no HTML anywhere."""
    out, row = [], None
    for tok in _MD.parse(markdown):
        assert tok.type not in ("html_block", "html_inline")
        if tok.type == "tr_open":
            row = []
        elif tok.type == "inline" and row is not None:
            assert all(c.type in ("text", "softbreak", "code_inline") for c in tok.children or ()), tok.children
            row.append("".join(c.content for c in tok.children or ()).replace(WORD_JOINER, ""))
        elif tok.type == "tr_close":
            out.append(row)
            row = None
    return out


def answer(text: str, field: str = "dcg", ok: bool = False) -> Answer:
    kinds = () if ok else (next(iter(MISTAKES)),)
    return Answer(id=1, field=field, text=text, ok=ok, kinds=kinds, after_reveal=False, created_at=0.0)


def test_each_answer_is_a_row_with_its_step_text_and_mark():
    table = answers_table([answer("6.8"), answer("3 1.26 1.5 0 0.39 0.71", field="terms", ok=True)])
    assert rows(table) == [["Step", "Answer", "Check"], ["DCG", "6.8", "✗"],
                           ["DCG terms, position 1 first", "3 1.26 1.5 0 0.39 0.71", "✓"]]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(min_size=1, max_size=60)), min_size=1, max_size=6)
       .map(lambda parts: " ".join(parts).replace("\x00", "")).filter(lambda s: s.split()))
# (NUL is shown as U+FFFD by every CommonMark renderer, the browser's too: not text a student can type.)
def test_whatever_a_student_types_shows_as_typed_and_never_acts(text):
    typed = " ".join(text.split())  # the store folds whitespace (classroom.store.Seat.submit)
    table = answers_table([answer(typed)])
    assert links(table) == []
    got = rows(table)
    assert len(got) == 2 and [len(r) for r in got] == [3, 3]
    assert got[1][1] == typed
