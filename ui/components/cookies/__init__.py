"""Cookies of the app's own origin, written by the browser: a tiny ``st.components.v2`` component.

The classroom keeps a browser's teacher token and student token in cookies (``st.context.cookies`` reads
them on every later visit, on any app server), so neither has to stay in the address bar.  Streamlit has
no way to set a cookie from Python; this component does it in the page and answers with the state value
``stored`` (the ``nonce`` it was given) once ``document.cookie`` holds every value asked for — only then
does the page take the secret out of the address bar — or ``refused`` when it does not (cookies blocked:
the page says so).

It also reads the teacher's private key from the address's fragment (``#key=...``: never sent in a request
line or a ``Referer``, so no proxy logs it) and answers ``fragment`` (:func:`fragment`); with
``clear_fragment`` it takes the fragment out of the address bar once the cookie is kept.  Every page it is
drawn on sends no ``Referer`` (``<meta name="referrer" content="no-referrer">``).
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


def refused(value, nonce: str) -> bool:
    """Whether the browser did not keep the cookies of the write tagged ``nonce`` (cookies blocked).

    >>> refused({"refused": "n1"}, "n1"), refused({"stored": "n1"}, "n1")
    (True, False)
    """
    return isinstance(value, dict) and bool(nonce) and value.get("refused") == nonce


def fragment(value, nonce: str) -> str | None:
    """The key the address's fragment held (``""``: none), from the answer to the read tagged ``nonce``;
    None until the browser answered.

    >>> fragment({"fragment": "n1:abc_DEF-1"}, "n1"), fragment({"fragment": "n1:"}, "n1"), fragment({}, "n1")
    ('abc_DEF-1', '', None)
    >>> fragment({"fragment": "n1:a;b"}, "n1")  # only what a key can hold
    ''
    """
    if not (isinstance(value, dict) and nonce and isinstance(value.get("fragment"), str)):
        return None
    got_nonce, _, key = value["fragment"].partition(":")
    if got_nonce != nonce:
        return None
    return key if SAFE.fullmatch(key) else ""


def write(*, key: str, set_: list[tuple[str, str, int]] = (), clear: list[str] = (), nonce: str = "",
          read_fragment: bool = False, clear_fragment: bool = False) -> None:
    """Ask the browser to store ``set_`` (name, value, max-age seconds) and delete ``clear``; the state value
    under ``key`` then holds ``{"stored": nonce}`` (or ``{"refused": nonce}``).  ``read_fragment``: also
    answer ``{"fragment": "<nonce>:<key>"}``; ``clear_fragment``: take a ``#key=`` fragment out of the
    address bar once the cookies are kept."""
    for name, value, _ in set_:
        if not SAFE.fullmatch(name) or not SAFE.fullmatch(value):
            raise ValueError(f"cookie names and values must match {SAFE.pattern}, got {name[:40]!r}")
    for name in clear:
        if not SAFE.fullmatch(name):
            raise ValueError(f"cookie names must match {SAFE.pattern}, got {name[:40]!r}")
    _mount()(key=key, data={"set": [[n, v, int(a)] for n, v, a in set_], "clear": list(clear), "nonce": nonce,
                            "readFragment": bool(read_fragment), "clearFragment": bool(clear_fragment)},
             on_stored_change=lambda: None, on_refused_change=lambda: None, on_fragment_change=lambda: None,
             height=0)
