"""One-off actions the server asks of the page: a tiny ``st.components.v2`` component (``actions.js`` beside
this file), each action done once per ``nonce``.

* :func:`reset_boxes` — Streamlit's text input keeps text typed but not yet sent (no Enter, the focus still in
  the box) whatever value the server gives the box, so a student's unsent "0.96" from exercise 1 stayed in the
  box on exercise 2 and the next Enter saved it there (an exploratory class, fifth session): the page puts the
  server's values into the named boxes.
* :func:`to_top` — scroll the page to its top (the dashboard that replaces the setup form after Start was
  left scrolled down to where the Start button had been, the join code off the projector's screen).

Without a browser (AppTest) they change nothing that matters: the server's values are already the widgets'.
Draw them last in a run, and only in the run that needs them: nothing above them moves.
"""
from __future__ import annotations

from pathlib import Path

from ui.components import lazy_component

JS = (Path(__file__).parent / "actions.js").read_text(encoding="utf-8")
NAME = "ndcg_lab.page_actions"

_mount = lazy_component(NAME, lambda: JS)


def reset_boxes(*, key: str, values: dict[str, str], nonce: str) -> None:
    """Put ``values`` (widget key -> text) into those text boxes in the browser, once for ``nonce``."""
    _mount()(key=key, data={"nonce": str(nonce), "values": {str(k): str(v) for k, v in values.items()}}, height=0)


def to_top(*, key: str, nonce: str) -> None:
    """Scroll the page to its top, once for ``nonce``."""
    _mount()(key=key, data={"nonce": str(nonce), "top": True}, height=0)
