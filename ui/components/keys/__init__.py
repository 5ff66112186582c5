"""Presenter keys for the Present page: a tiny bidirectional ``st.components.v2`` component.

The script (``keys.js`` beside this file) listens for → / Space / PageDown and ← / PageUp on the app's
document and sends ``{"step": <step to show>, "seq": <press count>}`` as the state value ``go``.
:func:`read_go` turns the widget's session-state value into a step exactly once per press; pages read
it at the top of a run (before anything is drawn), so the step the component is drawn with is always
the current one.  Tests drive it like any widget: ``at.session_state[KEY] = {"go": {"step": 3, "seq": 1}}``.
"""
from __future__ import annotations

from pathlib import Path

JS = (Path(__file__).parent / "keys.js").read_text(encoding="utf-8")
NAME = "ndcg_lab.present_keys"

_component = None


def _mount():
    global _component
    if _component is None:
        import streamlit as st

        _component = st.components.v2.component(NAME, js=JS)
    return _component


def read_go(value, seen: int) -> tuple[int, int] | None:
    """``(step, seq)`` of a press not consumed yet (``seq != seen``), or None; malformed values are ignored.

    >>> read_go({"go": {"step": 4, "seq": 2}}, 1), read_go({"go": {"step": 4, "seq": 2}}, 2)
    ((4, 2), None)
    >>> read_go({"go": {"step": "x", "seq": 3}}, 0), read_go(None, 0), read_go({"go": {"step": True, "seq": 1}}, 0)
    (None, None, None)
    """
    go = value.get("go") if isinstance(value, dict) else None
    if not isinstance(go, dict):
        return None
    step, seq = go.get("step"), go.get("seq")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (step, seq)) or seq == seen:
        return None
    return int(step), int(seq)


def keys(*, key: str, step: int, last: int, seen: int, on_go=None) -> None:
    """Draw the (invisible) key listener for a page at ``step`` of ``last``; ``seen``: the last seq consumed."""
    _mount()(key=key, data={"step": int(step), "last": int(last), "seq": int(seen)},
             on_go_change=on_go or (lambda: None), height=0)
