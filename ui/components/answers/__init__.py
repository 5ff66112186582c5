"""The classroom's answer boxes start again on a new exercise: a tiny ``st.components.v2`` component.

Streamlit's text input keeps text typed but not yet sent (no Enter, the focus still in the box) whatever value
the server gives the box, so a student's unsent "0.96" from exercise 1 stayed in the box on exercise 2 and
the next Enter saved it there (an exploratory class, fifth session).  :func:`reset` asks the page to put the
server's values into the named boxes, once per ``nonce`` (``answers.js`` beside this file).  Without a
browser (AppTest) it draws nothing that matters: the server's values are already the widgets' values.
"""
from __future__ import annotations

from pathlib import Path

from ui.components import lazy_component

JS = (Path(__file__).parent / "answers.js").read_text(encoding="utf-8")
NAME = "ndcg_lab.answer_reset"

_mount = lazy_component(NAME, lambda: JS)


def reset(*, key: str, values: dict[str, str], nonce: str) -> None:
    """Put ``values`` (widget key -> text) into those text boxes in the browser, once for ``nonce``."""
    _mount()(key=key, data={"nonce": str(nonce), "values": {str(k): str(v) for k, v in values.items()}}, height=0)
