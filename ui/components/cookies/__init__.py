"""Cookies of the app's own origin, written by the browser: a tiny ``st.components.v2`` component.

The classroom keeps a browser's teacher token and student token in cookies (``st.context.cookies`` reads
them on every later visit, on any app server), so neither has to stay in the address bar.  Streamlit has
no way to set a cookie from Python; this component does it in the page and answers with the state value
``stored`` (the ``nonce`` it was given) once ``document.cookie`` holds every value asked for — only then
does the page take the secret out of the address bar.  A browser refusing cookies never answers, and the
link keeps working as before.
"""
from __future__ import annotations

import re
from pathlib import Path

from ui.components import lazy_component

JS = (Path(__file__).parent / "cookies.js").read_text(encoding="utf-8")
NAME = "ndcg_lab.cookies"
#: Cookie names and values this component writes: letters, digits, ``_`` and ``-`` only (no separators).
SAFE = re.compile(r"[A-Za-z0-9_-]{1,200}")

_mount = lazy_component(NAME, lambda: JS)


def stored(value, nonce: str) -> bool:
    """Whether the component's state ``value`` confirms the write tagged ``nonce``.

    >>> stored({"stored": "n1"}, "n1"), stored({"stored": "n0"}, "n1"), stored(None, "n1")
    (True, False, False)
    """
    return isinstance(value, dict) and bool(nonce) and value.get("stored") == nonce


def write(*, key: str, set_: list[tuple[str, str, int]] = (), clear: list[str] = (), nonce: str = "") -> None:
    """Ask the browser to store ``set_`` (name, value, max-age seconds) and delete ``clear``; the state value
    under ``key`` then holds ``{"stored": nonce}``."""
    for name, value, _ in set_:
        if not SAFE.fullmatch(name) or not SAFE.fullmatch(value):
            raise ValueError(f"cookie names and values must match {SAFE.pattern}, got {name[:40]!r}")
    for name in clear:
        if not SAFE.fullmatch(name):
            raise ValueError(f"cookie names must match {SAFE.pattern}, got {name[:40]!r}")
    _mount()(key=key, data={"set": [[n, v, int(a)] for n, v, a in set_], "clear": list(clear), "nonce": nonce},
             on_stored_change=lambda: None, height=0)
