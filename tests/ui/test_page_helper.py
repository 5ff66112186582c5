"""ui.shell.page: what it draws before and after a page's own block, in order, through Streamlit's AppTest.

A tiny page with one typed field (a text that must parse as an integer 1..10) and a long free text stands for
every page: the repeated lines the helper took over must come out as the pages drew them (title, intro, the
link's problems; then the values kept, the address written, the link box), and the link box must come after
``finish()``, which is what knows whether the view fits in a link.
"""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from ui.i18n import catalogue
from ui.state import MAX_LINK_CHARS

EN = catalogue("en")


def helper_page():
    import streamlit as st

    from ui import state as S
    from ui.shell import page

    fields = (
        S.Field("hx_n", "n", default=3, parse=S.integer(1, 10), text=str),
        S.Field("hx_note", "note", default="", parse=S.text(20_000)),
    )
    options = {"title": "check.title", "caption": "check.intro", **st.session_state.get("hx_options", {})}
    with page("hx_page", fields, **options) as p:
        st.text_input("n", key="hx_n")
        p.typed("hx_n")
        st.text_area("note", key="hx_note")
        st.markdown("BODY-END")


def run(query=None, options=None) -> AppTest:
    at = AppTest.from_function(helper_page, default_timeout=60)
    at.session_state["lang"] = "en"
    if options is not None:
        at.session_state["hx_options"] = options
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return at.run()


def kinds(at: AppTest) -> list[tuple[str, str]]:
    """The main area's elements in order, as (type, first 40 characters of their text)."""
    out = []
    for el in list(at.main)[1:]:  # the first node is the main area itself
        text = getattr(el, "value", None) or getattr(el, "label", None) or ""
        out.append((el.type, str(text)[:40]))
    return out


def test_opening_and_closing_in_the_pages_order():
    at = run({"n": "99"})  # 99 is out of 1..10: the link's problem is warned about under the title
    assert not at.exception
    types = [t for t, _ in kinds(at)]
    body = types.index("markdown", types.index("text_area"))  # BODY-END
    # title, intro caption, the link's warning; the block; the link box's heading, its help and the address
    assert types[:3] == ["title", "caption", "warning"]
    assert at.title[0].value == EN["check.title"] and at.caption[0].value == EN["check.intro"]
    assert "99" in at.warning[0].value
    assert at.main[body].value == "BODY-END"
    assert [t for t, _ in kinds(at)[body + 1:]] == ["subheader", "caption", "code"]
    assert at.subheader[0].value == EN["common.link_title"]
    # the default is used and not written: the address carries no n
    assert at.code[0].value == "hx_page" and "n" not in at.query_params


def test_the_link_box_holds_the_values_after_the_block():
    at = run()
    at.text_input(key="hx_n").set_value("7").run()
    assert at.code[0].value == "hx_page?n=7"
    assert at.query_params["n"] == "7"  # finish() wrote the address bar


def test_a_view_too_long_for_a_link_says_so_instead_of_an_address():
    # the box is drawn after finish(), which finds the query longer than a link may be
    at = run()
    at.text_area(key="hx_note").set_value("x" * (MAX_LINK_CHARS + 1)).run()
    assert not at.code
    assert any(EN["common.link_too_long"] in i.value for i in at.info)
    assert "note" not in at.query_params


def test_options_no_title_folded_link_and_a_body_that_ends_the_page_itself():
    at = run(options={"title": None, "caption": None, "link_folded": True})
    assert not at.exception
    assert not at.title and at.expander[0].label == EN["common.link_title"]
    assert at.expander[0].code[0].value == "hx_page" and not at.subheader
    at = run(options={"close": False})
    at.text_input(key="hx_n").set_value("7").run()
    assert not at.code and not at.subheader and "n" not in at.query_params  # no finish, no link box
    at = run(options={"link": False})
    at.text_input(key="hx_n").set_value("7").run()
    assert not at.code and not at.subheader and at.query_params["n"] == "7"  # finish, no link box
