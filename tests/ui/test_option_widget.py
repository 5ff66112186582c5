"""ui.widgets.option_widget: a value the browser sent that no draw recorded never reaches Streamlit's serializer.

The monkey test on the teacher's page failed once (seed 20261140, a language switched twice in quick
succession): Streamlit's multiselect serializer raised "TypeError: bad argument type for built-in operation",
which is what its serializer raises when the format function gives None for a value that is not an option.
The cause (a format function that is not total) and its deterministic reproduction, with the exact widget
states such a browser sends, are in test_option_widget_relabel.py; this test holds that option_widget also
drops values that are not options before the draw.
"""
from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script():
    import streamlit as st

    from ui.widgets import option_widget

    names = {"a": "Alpha", "b": "Beta"}
    if st.session_state.get("_inject") == "list":
        st.session_state["ms"] = ["Αλφα (a label of a run cut short)", "a"]
    if st.session_state.get("_inject") == "single":
        st.session_state["sb"] = "Βήτα (a label of a run cut short)"
    picked = option_widget(st.multiselect, "Steps", list(names), key="ms", format_func=names.get, default=["b"])
    one = option_widget(st.selectbox, "One", list(names), key="sb", format_func=names.get)
    st.write(f"picked={picked} one={one}")


def test_an_unknown_label_is_dropped_not_drawn():
    at = AppTest.from_function(_script).run()
    assert not at.exception
    for inject, want in (("list", "picked=['a'] one=a"), ("single", "one=a")):
        at.session_state["_inject"] = inject
        at.run()
        assert not at.exception, at.exception[0].value
        assert want in at.markdown[-1].value
