"""Moving through a lecture: the key listener's presses, the Back / Next buttons and the theme switch.

Functions of the session state (Streamlit's, or any mutable mapping), called by the page; no Streamlit
import here.  The listener (:mod:`ui.components.keys`) sends the step to show with a press count, so a
press is taken exactly once and a burst of presses made while the server is busy moves exactly as many
steps as were pressed.
"""
from __future__ import annotations

import os
import time

from ui.present.link import STEP_KEY, THEME_KEY

__all__ = ["KEYS_KEY", "SEEN_KEY", "SLOW_ENV", "take_keys", "move", "toggle_theme", "slow_rerun"]

KEYS_KEY = "present_keys"  # the key listener's widget
SEEN_KEY = "present_keys_seen"  # the last key press consumed
#: Test-only: seconds every run of the Present page sleeps after drawing the key listener (at most
#: ``SLOW_CAP``), so that a browser test can press keys faster than the server answers.  Read from the
#: server's environment only; no link or visitor can set it.
SLOW_ENV = "NDCG_LAB_PRESENT_SLOW"
SLOW_CAP = 5.0


def take_keys(state, value) -> None:
    """Consume a key press of the listener (its session-state ``value``) once: go to its step."""
    from ui.components.keys import read_go

    got = read_go(value, state.get(SEEN_KEY, 0))
    if got is not None:
        state[STEP_KEY], state[SEEN_KEY] = got


def move(state, delta: int, total: int) -> None:
    """on_click of Back / Next."""
    state[STEP_KEY] = max(1, min(total, int(state.get(STEP_KEY) or 1) + delta))


def toggle_theme(state) -> None:
    state[THEME_KEY] = "dark" if state.get(THEME_KEY) != "dark" else "light"


def slow_rerun() -> float:
    """Sleep :data:`SLOW_ENV` seconds (a slow server, for tests); return the seconds slept (0 when unset)."""
    try:
        seconds = min(max(float(os.environ.get(SLOW_ENV, "") or 0), 0.0), SLOW_CAP)
    except ValueError:
        return 0.0
    if seconds:
        time.sleep(seconds)
    return seconds
