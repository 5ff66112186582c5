"""NDCG_LAB_TRUSTED_PROXIES on real servers (issue 37): X-Forwarded-For is believed only from a proxy the
variable names.  A guessing script that forges a new address in every request is held, whether it goes
through nginx (which appends the address it saw) or reaches the app's port directly from another address.

The script speaks Streamlit's protocol (tests/classroom/wire.py), a fresh browser session per code, its
sockets bound to addresses of their own in 127/8 (Linux routes all of it to the loopback).
"""
from __future__ import annotations

from tests.classroom.servers import apps, nginx
from tests.classroom.wire import guess

WAITING = "so the code you typed was not checked"
FREE = 3  # NDCG_LAB_WRONG_CODES_PER_ADDRESS for these servers: the fourth wrong code holds the address


def forged(i: int) -> dict:
    return {"X-Forwarded-For": f"198.51.100.{i}, 203.0.113.{i}"}


def held_after(alerts: list[list[str]]) -> int | None:
    """The index of the first guess that was held (not checked), else None."""
    return next((i for i, a in enumerate(alerts) if any(WAITING in x for x in a)), None)


def test_a_forged_forwarded_for_changes_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    env = {"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1", "NDCG_LAB_WRONG_CODES_PER_ADDRESS": str(FREE)}
    with apps(url, 1, env=env) as (app,), nginx([app.port]) as proxy:
        codes = [f"ZZZ{i:03d}" for i in range(FREE + 6)]
        # The (FREE+1)th wrong code holds the address 2 s, the next one checked 4 s, ...: a later guess is held
        # (the first one after, unless the machine took longer than the hold to answer it).
        held = range(FREE + 1, FREE + 6)
        # Through nginx: the app takes the address nginx appended (127.0.0.3), not the forged ones.
        through = guess(proxy, codes, headers_of=forged, local="127.0.0.3")
        assert held_after(through) in held, through
        # Straight to the app's port from 127.0.0.2, which is no trusted proxy: the header is ignored.
        direct = guess(app.url, codes, headers_of=forged, local="127.0.0.2")
        assert held_after(direct) in held, direct
        # Without the header the same: a forged header bought nothing.
        assert "No class has this code" in " ".join(guess(app.url, ["ZZZ999"], local="127.0.0.4")[0])
        assert "Traceback" not in app.log.read_text(errors="replace")
