"""A student's "Everything I sent" table (``ui.pages.classroom.views.answers_table``, drawn by
:func:`ui.tables.table`): one row per answer, three cells each, the answer exactly as typed (whitespace folded,
as the store keeps it) and its mark, coloured as the steps tables colour it — and whatever the student typed
is text in a cell, never markup: the HTML is parsed and every cell must be a bare ``td`` holding the text."""
from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from classroom.store import Answer
from metrics.lessons.diagnose import MISTAKES
from ui.pages.classroom.views import answers_table
from ui.tables import table_html

#: What students type into an answer box, hostile included: Markdown, HTML, maths, links, table pipes.
HOSTILE = ["[x](http://e.com)", "![i](//h/a.png)", "$\\huge x$", "<b>b</b>", "a | b", "www.e.com", "me@e.com",
           "**6.86**", "`6.86`", "\\|", "# 6.8", "- 1", "1. 2", "~~3~~", "3 1.26 | 1.5", "&amp;", "https://x.y/z",
           "</td></tr><script>alert(1)</script>", "<img src=x onerror=alert(1)>", '" onmouseover="x']


class Cells(HTMLParser):
    """The table's rows (header and body) as cell texts with their classes; any other tag inside a cell fails."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.cell, self.tags = [], None, []

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ["", dict(attrs).get("class", "")]
        elif self.cell is not None:
            self.tags.append(tag)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(tuple(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data


def parsed(history) -> Cells:
    frame, marks = answers_table(history)
    cells = Cells()
    cells.feed(table_html(frame, marks=marks))
    assert cells.tags == [], cells.tags  # nothing but text inside a cell
    return cells


def answer(text: str, field: str = "dcg", state: str = "wrong") -> Answer:
    kinds = {"right": (), "wrong": (next(iter(MISTAKES)),), "carried_forward": ("carried_forward:terms",)}[state]
    return Answer(id=1, field=field, text=text, ok=state == "right", kinds=kinds, after_reveal=False, created_at=0.0)


def test_each_answer_is_a_row_with_its_step_text_and_mark_coloured_as_the_steps_tables():
    rows = parsed([answer("6.8"), answer("3 1.26 1.5 0 0.39 0.71", field="terms", state="right"),
                   answer("8.09", state="carried_forward")]).rows
    assert [[text for text, _ in r] for r in rows] == [
        ["Step", "Answer", "Check"], ["DCG", "6.8", "✗"],
        ["DCG terms, position 1 first", "3 1.26 1.5 0 0.39 0.71", "✓"], ["DCG", "8.09", "↪"]]
    assert [r[2][1].split()[-1] for r in rows[1:]] == ["bad", "ok", "carried"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(min_size=1, max_size=60)), min_size=1, max_size=6)
       .map(lambda parts: " ".join(parts)).filter(lambda s: s.split()))
def test_whatever_a_student_types_shows_as_typed_and_never_acts(text):
    typed = " ".join(text.split())  # the store folds whitespace (classroom.store.Seat.submit)
    rows = parsed([answer(typed)]).rows
    assert [len(r) for r in rows] == [3, 3]
    assert rows[1][1][0] == typed
