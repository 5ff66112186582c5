"""ui.state: the one page-state mechanism (kept across page switches, last valid value, the link).

Driven without Streamlit through plain dicts standing in for st.session_state and st.query_params,
and once through a real Streamlit script run (AppTest) to prove the same behaviour there.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from tests.metrics.conftest import PROPERTY
from ui import state as ui_state

FIELDS = (
    ui_state.Field("t_rels", "rels", default=(3.0, 2.0, 1.0), parse=ui_state.grades(max_items=50),
            encode=ui_state.list_encoder(","), text=ui_state.list_encoder(", "), label="common.grades"),
    ui_state.Field("t_k", "k", default=None, parse=ui_state.optional(ui_state.integer(1, 1000))),
    ui_state.Field("t_gain", "gain", default="linear", parse=ui_state.choice(("linear", "exponential"))),
    ui_state.Field("t_score", "score", default=0, parse=ui_state.integer(0, 10**6), widget=False),
)


def make(session, query):
    return ui_state.PageState("t", FIELDS, session=session, query=query)


def leave_page(session):
    """Another page is shown: Streamlit drops this page's widget values, and that page's run is the last."""
    for f in FIELDS:
        if f.widget:
            session.pop(f.key, None)
    session[ui_state.LAST_PAGE_KEY] = "another page"


def test_first_visit_reads_the_link_and_reports_bad_parameters():
    session, query = {}, {"rels": "2.1234567,3", "k": "①", "gain": "cubic", "junk": "x", "lang": "zh"}
    page = make(session, query)
    assert session["t_rels"] == "2.1234567, 3"  # exactly what was in the link
    assert page.parse_typed("t_rels") == (2.1234567, 3.0)
    assert [p.name for p in page.problems] == ["k", "gain"]
    assert session["t_k"] is None and session["t_gain"] == "linear"  # defaults used
    assert page.problems[0].error.reason == "integer" and page.problems[0].error.value == "①"
    page.finish()
    # Bad and unknown parameters leave the link; lang (global) stays; numbers are exact.
    assert query == {"rels": "2.1234567,3", "lang": "zh"}


def test_defaults_are_omitted_and_changes_are_written():
    session, query = {}, {}
    page = make(session, query)
    page.finish()
    assert query == {}
    session["t_gain"] = "exponential"  # the user picks another gain; the script reruns
    session["t_k"] = 5
    page = make(session, query)
    assert not page.opened_link
    page.finish()
    assert query == {"k": "5", "gain": "exponential"}


def test_values_survive_a_visit_to_another_page():
    session, query = {}, {}
    make(session, query).finish()
    session["t_rels"] = "1, 0.5"
    session["t_gain"] = "exponential"
    session["t_score"] = 7
    page = make(session, query)
    assert page.parse_typed("t_rels") == (1.0, 0.5)
    page.finish()
    leave_page(session)
    query.clear()  # navigation clears the address bar's parameters
    page = make(session, query)
    assert session["t_rels"] == "1, 0.5" and session["t_gain"] == "exponential" and session["t_score"] == 7
    page.finish()
    assert query == {"rels": "1,0.5", "gain": "exponential", "score": "7"}


def test_bad_text_keeps_the_last_valid_value_and_the_typed_text():
    session, query = {}, {}
    make(session, query).finish()
    session["t_rels"] = "3, x, 1"
    page = make(session, query)
    assert page.parse_typed("t_rels") == (3.0, 2.0, 1.0)  # the last valid value
    err = page.errors["t_rels"]
    assert err.reason == "parse_not_a_number" and err.fmt["token"] == "x" and err.fmt["position"] == 2
    page.finish()
    assert query == {}  # the link holds the last valid value (here the default)
    leave_page(session)
    page = make(session, query)
    assert session["t_rels"] == "3, x, 1"  # the user's work is not lost


def test_a_new_link_in_the_same_session_wins():
    session, query = {}, {}
    make(session, query).finish()
    session["t_gain"] = "exponential"
    make(session, query).finish()
    leave_page(session)
    query.clear()
    query.update({"rels": "1,1", "k": "2"})  # st.switch_page(..., query_params=...) or a pasted link
    page = make(session, query)
    assert page.opened_link
    assert session["t_rels"] == "1, 1" and session["t_k"] == 2
    assert session["t_gain"] == "linear"  # a link describes the whole view


def test_a_run_started_by_the_page_itself_does_not_read_a_lagging_address_as_a_new_link():
    """A key press sent before the browser had applied the previous run's address carries that older address;
    read as a new link it would put back the previous values (a lost key press on a slow server)."""
    session, query = {}, {}
    make(session, query).finish()
    session["t_score"] = 1
    make(session, query).finish()
    assert query == {"score": "1"}
    lagging = {"score": "0"}  # hypothetical: the browser had not yet shown score=1 when it sent the next run
    session["t_score"] = 2  # what that run's own control did (a callback, before the script)
    page = ui_state.PageState("t", FIELDS, session=session, query=lagging)  # continues the page
    assert not page.opened_link and session["t_score"] == 2
    page.finish()
    assert lagging == {"score": "2"}
    # The same address when the page arrives (from another page, a link) is a new link.
    session["t_score"] = 5
    leave_page(session)
    page = ui_state.PageState("t", FIELDS, session=session, query={"score": "0", "k": "3"})
    assert page.opened_link and session["t_score"] == 0 and session["t_k"] == 3
    # A first visit always reads its link, whatever started the run.
    fresh: dict = {}
    page = ui_state.PageState("t", FIELDS, session=fresh, query={"score": "4"})
    assert page.opened_link and fresh["t_score"] == 4


def test_a_page_reads_links_on_arrival_only_and_keeps_its_own_values_in_a_lagging_run(monkeypatch):
    """The classroom's Start: its callback gives the page a class code; the run that follows (or the cookie
    component's, sent before the browser had taken the page's rewrite) still carries the setup's address.
    Read as a new link, it put the setup back (the browser test saw "no dashboard after Start")."""
    session, query = {}, {"score": "1"}
    page = ui_state.PageState("t", FIELDS, session=session, query=query)
    assert page.opened_link and not page.continued and session["t_score"] == 1  # arrival: the link is read
    page.finish()
    session["t_score"] = 7  # a callback of the page's own control, before the next run
    page = ui_state.PageState("t", FIELDS, session=session, query=query)
    page.finish()
    assert query == {"score": "7"}
    lagging = {"score": "1"}  # the address the browser had when it sent the run
    page = ui_state.PageState("t", FIELDS, session=session, query=lagging)
    assert page.continued and not page.opened_link and session["t_score"] == 7
    page.finish()
    assert lagging == {"score": "7"}
    # The browser's Back or Forward button: the address is the page's history, read as a link.
    monkeypatch.setattr(ui_state, "_history_navigation", lambda: True)
    page = ui_state.PageState("t", FIELDS, session=session, query={"score": "1"})
    assert not page.continued and page.opened_link and session["t_score"] == 1
    monkeypatch.undo()
    # Another page in between: the next run of this one arrives, and reads its link (st.switch_page).
    ui_state.PageState("other", FIELDS[:1], session=session, query={})
    session["t_score"] = 9
    page = ui_state.PageState("t", FIELDS, session=session, query={"score": "3"})
    assert not page.continued and page.opened_link and session["t_score"] == 3


class _Address(dict):
    """st.query_params' stand-in that records what it would send to the browser (each change, or a resend)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.sent: list[dict] = []

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.sent.append(dict(self))

    def __delitem__(self, key):
        super().__delitem__(key)
        self.sent.append(dict(self))

    def to_dict(self):
        return dict(self)

    def from_dict(self, values):
        super().clear()
        super().update(values)
        self.sent.append(dict(self))


def test_a_run_older_than_the_last_address_sent_sends_its_own_again():
    """The classroom's join, on a busy server: run A puts the student's token in the link (``me``); run B, asked
    for before the browser had A's address, starts from the address without it, takes the token out (the
    cookie holds it) and finds nothing to change, so the browser kept A's link with the secret in it."""
    session = {}
    make(session, _Address()).finish()
    session["t_score"] = 1  # run A
    a = _Address()
    make(session, a).finish()
    assert a.sent == [{"score": "1"}]
    session["t_score"] = 0  # run B: back to the default, from the address before A's arrived
    b = _Address()
    page = ui_state.PageState("t", FIELDS, session=session, query=b)
    page.set("t_score", 0)
    page.finish()
    assert b.sent == [{}]  # the browser is told: no score in the link
    # A run whose address is the one last sent sends nothing.
    c = _Address()
    make(session, c).finish()
    assert c.sent == []


def test_set_from_code_updates_value_and_widget_text():
    session, query = {}, {}
    page = make(session, query)
    page.set("t_rels", (3.0, 2.0, 1.0, 3.0, 2.0))
    assert session["t_rels"] == "3, 2, 1, 3, 2"
    page.finish()
    assert query == {"rels": "3,2,1,3,2"}


def test_overlong_link_is_not_written():
    session, query = {}, {}
    page = make(session, query)
    page.set("t_rels", tuple(float(i) + 0.123456789 for i in range(50)))
    fields = tuple(
        ui_state.Field(f.key, f.param, f.default, ui_state.grades(max_items=2000), f.encode, f.text, f.widget)
        if f.key == "t_rels"
        else f
        for f in FIELDS
    )
    page = ui_state.PageState("t2", fields, session=session, query=query)
    page.set("t_rels", tuple(float(i) + 0.123456789 for i in range(1000)))
    page.finish()
    assert page.link_too_long and "rels" not in query


def test_overlong_parameter_is_refused_before_parsing():
    session, query = {}, {"rels": "1," * ui_state.MAX_PARAM_CHARS}
    page = make(session, query)
    assert page.problems[0].error.reason == "too_long"


def test_registry_records_the_page():
    make({}, {})
    assert ui_state.REGISTRY["t"].fields == FIELDS and ui_state.REGISTRY["t"].script.endswith("test_state.py")


def test_message_names_parameter_value_and_allowed_range():
    page = make({}, {"k": "900719925474100"})
    text = page.message("k", page.problems[0].error)
    assert "**k**" in text and "900719925474100" in text and "1" in text and "1000" in text


def test_message_escapes_markdown_in_the_value():
    page = make({}, {"gain": "![](//evil.example/x)"})
    text = page.message("gain", page.problems[0].error)
    assert "![](" not in text and "\\!\\[\\]\\(" in text


# ---- parsers: hostile text never raises anything but BadValue ------------------------------------

PARSERS = [
    ui_state.integer(1, 10),
    ui_state.integer(0, 2**32 - 1),
    ui_state.number(),
    ui_state.number(0, 1),
    ui_state.choice(("a", "b")),
    ui_state.text(10),
    ui_state.grades(max_items=5),
    ui_state.numbers(max_items=5),
    ui_state.boolean(),
    ui_state.optional(ui_state.integer(1, 3)),
]


@PROPERTY
@given(st.text(max_size=60))
def test_parsers_accept_or_raise_badvalue(raw):
    for parse in PARSERS:
        try:
            value = parse(raw)
        except ui_state.BadValue as exc:
            assert isinstance(exc.value, str)
        else:
            if isinstance(value, float):
                assert math.isfinite(value)


@pytest.mark.parametrize("raw", ["፩", "①", "²", "٣", "１", "1_000", "0x10", " ", "", "1e3", "9" * 4301])
def test_integers_are_ascii_digits_only(raw):
    with pytest.raises(ui_state.BadValue):
        ui_state.integer(0, 10**9)(raw)


@PROPERTY
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_numbers_round_trip_exactly_through_the_link(x):
    assert ui_state.number()(ui_state.list_encoder(",")([x])) == x
    assert ui_state.numbers()(ui_state.list_encoder(", ")([x, 1.0])) == (x, 1.0)


# ---- the same behaviour inside a real Streamlit run ----------------------------------------------

def _script():
    import streamlit as st

    from ui import state as ui_state

    fields = (
        ui_state.Field("s_rels", "rels", default=(3.0, 2.0), parse=ui_state.grades(max_items=50),
                encode=ui_state.list_encoder(","), text=ui_state.list_encoder(", ")),
        ui_state.Field("s_gain", "gain", default="linear", parse=ui_state.choice(("linear", "exponential"))),
    )
    page = ui_state.PageState("s", fields)
    page.show_link_problems()
    st.text_area("grades", key="s_rels")
    rels = page.typed("s_rels")
    st.selectbox("gain", ["linear", "exponential"], key="s_gain")
    st.write(f"rels={rels}")
    page.finish()


def test_inside_streamlit():
    at = AppTest.from_function(_script, default_timeout=30)
    at.query_params["rels"] = "2.1234567,3"
    at.query_params["gain"] = "bogus"
    at.run()
    assert not at.exception
    assert at.text_area(key="s_rels").value == "2.1234567, 3"
    assert len(at.warning) == 1 and "gain" in at.warning[0].value
    at.selectbox(key="s_gain").select("exponential").run()
    assert dict(at.query_params) in ({"rels": ["2.1234567,3"], "gain": ["exponential"]},
                                     {"rels": "2.1234567,3", "gain": "exponential"})
    at.text_area(key="s_rels").input("3, x").run()
    assert len(at.error) == 1 and "x" in at.error[0].value
    assert any("rels=(2.1234567, 3.0)" in m.value for m in at.markdown)


def test_a_parameter_declared_twice_is_refused():
    twice = (ui_state.Field("a_value", "idcg", default=None, parse=ui_state.optional(ui_state.number())),
             ui_state.Field("a_source", "idcg", default="judged", parse=ui_state.choice(("list", "judged"))))
    with pytest.raises(ValueError, match="idcg"):
        ui_state.PageState("twice", twice, session={}, query={})


# ---------------------------------------------------------------------------------------------
# Option widgets: the browser sends back the label it shows (issue 36 item 5)
# ---------------------------------------------------------------------------------------------
# A model of Streamlit's browser, independent of ui.state: each draw gives every option a label (the
# language and the list's length change them); the browser holds the label of the value it was last sent.
# The server gets that label back after later draws.  ui.state must turn it into the option again.
option_values = st.lists(st.one_of(st.integers(0, 50), st.sampled_from(["all", "linear", "jarvelin", "D1"])),
                         min_size=1, max_size=8, unique_by=lambda v: (type(v), v))


@PROPERTY
@given(options=option_values, draws=st.integers(1, 6), data=st.data())
def test_a_label_from_any_earlier_draw_comes_back_as_its_option(options, draws, data):
    session = {}
    labelled = [[f"{o} · draw {d}" for o in options] for d in range(draws)]  # every draw: new labels
    for labels in labelled:
        ui_state.remember_labels(session, "w", options, labels)
    held_draw = data.draw(st.integers(0, draws - 1), label="the draw the browser's label is from")
    i = data.draw(st.integers(0, len(options) - 1), label="the option the browser shows")
    session["w"] = labelled[held_draw][i]                 # what the browser sent back
    assert ui_state.restore_choice(session, "w") is True
    assert session["w"] == options[i] and type(session["w"]) is type(options[i])
    # an option is never touched
    assert ui_state.restore_choice(session, "w") is False and session["w"] == options[i]
    # a multiselect's list, item by item (one stale label, one option)
    j = data.draw(st.integers(0, len(options) - 1), label="a second option, already an option")
    session["w"] = [labelled[held_draw][i], options[j]]
    ui_state.restore_choice(session, "w")
    assert session["w"] == [options[i], options[j]]


@PROPERTY
@given(options=option_values, data=st.data())
def test_the_browser_is_sent_a_new_label_exactly_when_the_value_s_label_changed(options, data):
    session = {}
    before = [f"{o} (en)" for o in options]
    # the next run keeps some labels and changes others (a language switch changes all of them)
    changed = data.draw(st.lists(st.booleans(), min_size=len(options), max_size=len(options)))
    after = [f"{o} (zh)" if c else f"{o} (en)" for o, c in zip(options, changed, strict=True)]
    ui_state.remember_labels(session, "w", options, before)
    i = data.draw(st.integers(0, len(options) - 1))
    session["w"] = options[i]
    assert ui_state.relabelled(session, "w", options, after) is changed[i]


def test_a_cutoff_label_from_a_shorter_list_is_the_whole_list_again():
    """The reported crash: 'Whole list (5)' came back once the list had 6 items and reached int()."""
    session, fields = {}, (ui_state.Field("pg_k", "k", default=3, parse=ui_state.integer(1, 9)),)
    ui_state.PageState("t", fields, session=session, query={}).finish()  # the first run
    for n in (5, 6):  # two draws: the list grew
        ui_state.remember_labels(session, "pg_k", ["all", *range(1, n + 1)],
                                 [f"Whole list ({n})", *(f"k = {i}" for i in range(1, n + 1))])
    session["pg_k"] = "Whole list (5)"  # the next run: what the browser sent
    page = ui_state.PageState("t", fields, session=session, query={})
    assert page.continued and page.value("pg_k") == "all"


def test_a_label_that_is_not_known_is_left_to_streamlit():
    session = {"w": "typed by hand"}
    ui_state.remember_labels(session, "w", ["a", "b"], ["A", "B"])
    assert ui_state.restore_choice(session, "w") is False and session["w"] == "typed by hand"
    assert ui_state.relabelled(session, "w", ["a", "b"], ["A", "B"]) is False


def test_labels_remembered_are_bounded():
    session = {}
    for n in range(ui_state.LABELS_CAP // 100 + 20):
        ui_state.remember_labels(session, "w", list(range(100)), [f"{i}/{n}" for i in range(100)])
    assert len(session[ui_state.LABELS_KEY]["w"].known) == ui_state.LABELS_CAP


def test_a_plain_widget_field_refused_by_its_parser_keeps_the_last_valid_value():
    """A text box declared without ``text=`` (its widget holds the value itself) and a parser that refuses what
    was typed: the refused text never becomes the field's value, in this run or the next (the monkey found
    Run files' reported mean read back as raw text one run after it was refused)."""
    def even(raw):
        value = ui_state.text(10)(raw)
        if value and int(value) % 2:
            raise ui_state.BadValue(value, "invalid", f"{value} is odd")
        return value

    fields = (ui_state.Field("t_even", "even", default="", parse=even),)
    session, query = {}, {}
    page = ui_state.PageState("t", fields, session=session, query=query)
    session["t_even"] = "4"
    assert page.parse_typed("t_even") == "4"
    page.finish()
    assert query == {"even": "4"}
    session["t_even"] = "7"                      # typed, refused
    page = ui_state.PageState("t", fields, session=session, query=query)
    assert page.parse_typed("t_even") == "4" and "t_even" in page.errors
    page.finish()
    assert query == {"even": "4"}
    page = ui_state.PageState("t", fields, session=session, query=query)   # the next run (another widget)
    assert page.parse_typed("t_even") == "4"
    page.finish()
    assert query == {"even": "4"}
