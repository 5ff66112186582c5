"""Moving through a lecture: the key listener's presses, the Back / Next buttons and the theme switch.

Functions of the session state (Streamlit's, or any mutable mapping), called by the page; no Streamlit
import here.  The listener (:mod:`ui.components.keys`) numbers its presses and sends every press the server
has not taken yet; :func:`take_keys` applies each one, in order, to the step this session shows, so a burst
of presses made while the server is busy moves exactly as many steps as were pressed.  A click on Back or
Next (:data:`BUTTONS`) is one more press in that queue, never a separate request that a busy server can drop.

A run started by the page's own controls (a press, Back, Next, the theme) carries the browser's address as it
was when the control was used, which can be a run behind on a slow server; :class:`ui.state.PageState` does
not read a run that continues the page as a new link (which would put the previous step back).
"""
from __future__ import annotations

import secrets

from ui.components.keys import read_presses
from ui.pages.present.link import STEP_KEY, THEME_KEY
from ui.shell import slow_down

__all__ = ["KEYS_KEY", "BACK_KEY", "NEXT_KEY", "BUTTONS", "SEEN_KEY", "TOKEN_KEY", "SLOW_ENV",
           "token", "take_keys", "write_together", "move", "toggle_theme", "slow_rerun"]

KEYS_KEY = "present_keys"  # the key listener's widget
BACK_KEY, NEXT_KEY = "present_back", "present_next"  # the Back / Next buttons
#: What a click on each button is to the key listener: one press back or forward, queued with the keys.
BUTTONS = {BACK_KEY: -1, NEXT_KEY: 1}
SEEN_KEY = "present_keys_seen"  # the number of the last key press taken
TOKEN_KEY = "present_keys_token"  # names this session to the listener (a window outliving it drops its presses)
#: Test-only: seconds every run of the Present page sleeps (at most ``SLOW_CAP``), once after drawing the key
#: listener and once after writing the address, so that a browser test can press keys faster than the server
#: answers.  Read from the server's environment only; no link or visitor can set it.
SLOW_ENV = "NDCG_LAB_PRESENT_SLOW"
SLOW_CAP = 5.0


def token(session) -> str:
    """This session's name for the key listener (made once per session)."""
    if not isinstance(session.get(TOKEN_KEY), str):
        session[TOKEN_KEY] = secrets.token_hex(8)
    return session[TOKEN_KEY]


def take_keys(session, total: int) -> int:
    """Apply every key press the listener sent that was not taken yet, in order, one step each (never past the
    first or the last of ``total`` steps); return how many were taken.

    >>> s = {TOKEN_KEY: "t", STEP_KEY: 2, KEYS_KEY: {"go": {"token": "t", "presses": [[1, 1], [2, 1], [3, -1]]}}}
    >>> take_keys(s, 13), s[STEP_KEY], s[SEEN_KEY], take_keys(s, 13), s[STEP_KEY]
    (3, 3, 3, 0, 3)
    >>> s[KEYS_KEY] = {"go": {"token": "t", "presses": [[4, -1], [5, -1], [6, -1], [7, 1]]}}
    >>> take_keys(s, 13), s[STEP_KEY]  # the first press back hits step 1
    (4, 2)
    """
    presses = read_presses(session.get(KEYS_KEY), token(session), int(session.get(SEEN_KEY, 0) or 0))
    if presses:
        step = int(session.get(STEP_KEY) or 1)
        for _, delta in presses:
            step = max(1, min(int(total), step + delta))
        write_together(session, {STEP_KEY: step, SEEN_KEY: presses[-1][0]})
    return len(presses)


def write_together(session, values: dict) -> None:
    """Write every item of ``values`` into ``session``, even when the run is stopped between two writes.

    Streamlit looks for a newer run request at every session-state access and stops the run there (it raises);
    a step written without the number of the last press taken would apply those presses twice in the next run.
    A write stopped that way is done again (the request is taken by then, so the second try goes through), and
    the stop is passed on once every value is written.

    >>> class Busy(dict):  # stops the run at its first write, like a request arriving in the middle
    ...     stops = 1
    ...     def __setitem__(self, key, value):
    ...         if self.stops:
    ...             self.stops -= 1
    ...             raise InterruptedError("a newer run")
    ...         super().__setitem__(key, value)
    >>> s = Busy()
    >>> try:
    ...     write_together(s, {"step": 5, "seen": 2})
    ... except InterruptedError as stop:
    ...     print(stop, dict(s))
    a newer run {'step': 5, 'seen': 2}
    """
    stopped = None
    for key, value in values.items():
        for _ in range(8):
            try:
                session[key] = value
                break
            except BaseException as exc:  # Streamlit's RerunException / StopException are BaseExceptions
                stopped = exc
        else:
            raise stopped
    if stopped is not None:
        raise stopped


def move(session, delta: int, total: int) -> None:
    """on_click of Back / Next: one step from the step this session shows (in a browser the key listener takes
    the clicks and queues them as presses, see :mod:`ui.components.keys`; this runs where it does not)."""
    session[STEP_KEY] = max(1, min(total, int(session.get(STEP_KEY) or 1) + delta))


def toggle_theme(session) -> None:
    """on_click of the theme button."""
    session[THEME_KEY] = "dark" if session.get(THEME_KEY) != "dark" else "light"


def slow_rerun() -> float:
    """Sleep :data:`SLOW_ENV` seconds (a slow server, for tests); return the seconds slept (0 when unset)."""
    return slow_down(SLOW_ENV, SLOW_CAP)
