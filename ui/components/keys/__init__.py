"""Presenter keys for the Present page: a tiny bidirectional ``st.components.v2`` component.

The script (``keys.js`` beside this file) listens for → / Space / PageDown and ← / PageUp on the app's
document and counts the presses itself: each press gets the next number (``seq``) and a direction
(+1 / -1), and the component sends its presses not yet taken by the server as the state value
``go = {"token": ..., "presses": [[seq, delta], ...]}``.  The server applies every press it has not seen,
in order, to its own current step (:func:`read_presses` and :func:`ui.pages.present.navigation.take_keys`), so
a burst of presses made while the server is busy moves exactly as many steps as were pressed, none is
taken twice, and a button clicked between two presses is counted in its place.  ``token`` names the
server session: a window that outlives its session (a restarted server) drops its old presses.

The page's Back and Next buttons (``buttons``) are presses too: the script takes their clicks (mouse, touch,
Enter or Space) before Streamlit does and queues them as -1 / +1.  Streamlit sends a click once: when the
server takes a newer request (the next key press) after the click's run has started but before it has called
the button's ``on_click``, that run is dropped with the click in it (its callback never runs, or is stopped at
its first session-state read).  A queued press is carried by every later value until the server has taken
it.  The buttons' own ``on_click`` still moves the step where this script does not run (AppTest).

Keys act on the slide only when no control has the keyboard's focus: on a button or link reached with the
keyboard every key is the control's (Space presses it); in a text field, select, slider, radio group or tab
list arrows and Page keys stay there.  A button the mouse just clicked keeps Space only, so a presenter's
clicker (→ / PageDown) still moves the slide after a click on Next.

The same script keeps a polite live region (``role="status"``) with the text of the step shown, so a screen
reader announces every step, and when the focused Back or Next button is disabled at either end of the
lecture it moves the focus to the slide's title instead of letting it fall to the page body.

Tests drive it like any widget: ``at.session_state[KEY] = {"go": {"token": t, "presses": [[1, 1]]}}``.
"""
from __future__ import annotations

from pathlib import Path

from ui.components import lazy_component

JS = (Path(__file__).parent / "keys.js").read_text(encoding="utf-8")
NAME = "ndcg_lab.present_keys"
#: Presses one value carries at most (the browser keeps only its last unanswered presses; a server that is
#: this many presses behind is told the newest ones).
MAX_PRESSES = 64

_mount = lazy_component(NAME, lambda: JS)


def read_presses(value, token: str, seen: int) -> list[tuple[int, int]]:
    """The presses of the listener's session-state ``value`` not taken yet (``seq > seen``), oldest first, as
    ``(seq, delta)`` with ``delta`` +1 or -1; presses of another session (``token``) and malformed values are
    ignored.

    >>> v = {"go": {"token": "t", "presses": [[3, 1], [4, -1], [5, 1]]}}
    >>> read_presses(v, "t", 3), read_presses(v, "t", 5), read_presses(v, "other", 0)
    ([(4, -1), (5, 1)], [], [])
    >>> read_presses({"go": {"token": "t", "presses": [[1, 2], [True, 1], ["2", 1], [2, 1]]}}, "t", 0)
    [(2, 1)]
    >>> read_presses(None, "t", 0), read_presses({"go": {"token": "t", "presses": "x"}}, "t", 0)
    ([], [])
    """
    go = value.get("go") if isinstance(value, dict) else None
    if not isinstance(go, dict) or go.get("token") != token:
        return []
    presses = go.get("presses")
    if not isinstance(presses, list):
        return []
    out = {}
    for press in presses[-MAX_PRESSES:]:
        if not (isinstance(press, list) and len(press) == 2):
            continue
        seq, delta = press
        if all(isinstance(x, int) and not isinstance(x, bool) for x in press) and delta in (1, -1) and seq > seen:
            out[seq] = delta
    return sorted(out.items())


def keys(*, key: str, token: str, step: int, last: int, seen: int, announce: str = "", label: str = "",
         lang: str = "en", buttons: dict[str, int] | None = None, on_go=None) -> None:
    """Draw the (invisible) key listener for a page at ``step`` of ``last``.

    ``token`` names the server session, ``seen`` is the last press taken, ``announce`` the live region's
    text for this step, ``label`` the region's name and ``lang`` their language (a BCP 47 tag).
    ``buttons`` maps the keys of ``st.button`` widgets to the press (+1 / -1) a click on them makes: the
    listener takes their clicks and queues them with the keys, in order (see the module's docstring).
    """
    moves = {str(k): int(v) for k, v in (buttons or {}).items() if v in (1, -1)}
    _mount()(key=key, data={"token": str(token), "step": int(step), "last": int(last), "seq": int(seen),
                            "announce": str(announce), "label": str(label), "lang": str(lang),
                            "buttons": moves},
             on_go_change=on_go or (lambda: None), height=0)
