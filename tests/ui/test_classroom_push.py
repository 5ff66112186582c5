"""ui.pages.classroom.push outside a Streamlit server: nothing to push to, and the pages fall back to the browsers'
timers.  (Pushes in a real server: the dashboard follows students joining and answering, the students' pages
follow the reveal and the next exercise without a click — tests/browser/test_classroom*.py — and an idle
class's cost with and without them: benchmarks/classroom.py --idle.)"""
from __future__ import annotations

from classroom.store import Store
from classroom.tasks import practice_task
from ui.pages.classroom import push


def test_no_server_no_push(monkeypatch):
    assert push.available() is False  # no Streamlit runtime in this process
    assert push.here() is None
    assert push.rerun_fragment("no-such-session", "no-such-fragment") is False
    store = Store("sqlite://")
    info, _ = store.create(practice_task(3), fields=("dcg",))
    # follow() outside a fragment subscribes nothing
    assert push.follow(store.changes, info.id, "student", lambda state: True) is False
    assert store.changes.subscribers(info.id) == 0


class _Runtime:
    """Stands for Streamlit's running server (what ``push`` asks of it)."""

    @staticmethod
    def exists():
        return True

    @classmethod
    def instance(cls):
        return cls()

    def get_app_session(self, session_id):
        return None


def test_the_switch_turns_pushes_off(monkeypatch):
    real = push._internals()
    monkeypatch.setattr(push, "_internals", lambda: (_Runtime, *real[1:]))
    assert push.available() is True  # a server with what push needs
    assert push.rerun_fragment("gone", "f") is False  # a closed tab: nothing to rerun
    monkeypatch.setenv(push.SWITCH, "0")
    assert push.available() is False  # NDCG_LAB_CLASS_PUSH=0: the browsers poll as before
