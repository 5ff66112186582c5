"""Rerun a page's fragment from the server the moment its class changes, instead of every browser asking
every few seconds whether anything did.

A seated student's page, and the teacher's live panel, are :func:`st.fragment`\\ s.  The browser reruns a
fragment by itself only every :data:`SAFETY` seconds (a safety net, and what makes a page that lost its
server ask the next one for a full run: the frontend does so when the page has a timed fragment).  In
between, :func:`follow` subscribes the fragment to its class's :class:`classroom.changes.Watcher`; when the
class's state changes in a way the page shows, the watcher's thread calls :func:`rerun_fragment`, which
queues a rerun of that fragment in that browser's session — exactly what the browser's own timer would
have sent, without the browser's widget values (``widget_states=None``: whatever the browser sent last
stays; an answer it is sending at that moment is merged, never overwritten).

This needs Streamlit's runtime internals (``Runtime.get_app_session``, the session's event loop, its
script runner, the fragment id of the running fragment), pinned to ``streamlit==1.67.0`` in
requirements.txt.  :func:`available` says whether they are there; when they are not (another version,
AppTest), the pages fall back to the browser's timers at the old pace (``ui.pages.classroom.views``).
"""
from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Callable

from classroom.changes import ClassState, Watcher

__all__ = ["SAFETY", "SWITCH", "available", "here", "rerun_fragment", "follow", "forget", "pushed"]

_LOG = logging.getLogger(__name__)

#: Seconds between two reruns a page's browser asks for by itself when pushes are available.
SAFETY = 30.0
#: ``NDCG_LAB_CLASS_PUSH=0`` turns pushes off (the browsers poll as before: benchmarks compare the two).
SWITCH = "NDCG_LAB_CLASS_PUSH"

_followed: dict[tuple[str, str], tuple[Watcher, int]] = {}  # (session id, role) -> (watcher, class id)
_lock = threading.Lock()
# On the server's event loop only: per (session, fragment) the time of the last push and whether one waits.
_last: dict[tuple[str, str], float] = {}
_waiting: set[tuple[str, str]] = set()
#: Pushes queued (for tests and benchmarks).
pushed = 0


@functools.cache
def _internals():
    """(Runtime, RerunData, AppSessionState, ThreadState) of this Streamlit, or None (looked up once: a
    push and every run of a class page ask)."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.app_session import AppSessionState
        from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
        from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState
    except ImportError:
        return None
    return Runtime, RerunData, AppSessionState, ThreadState


def available() -> bool:
    """Whether this process can push reruns (a Streamlit server with the internals this module uses, and
    ``NDCG_LAB_CLASS_PUSH`` not ``0``: that switch brings back the browsers' polling, e.g. to compare)."""
    if os.environ.get(SWITCH, "").strip() == "0":
        return False
    found = _internals()
    if found is None:
        return False
    runtime_cls = found[0]
    if not runtime_cls.exists():
        return False
    try:
        runtime = runtime_cls.instance()
    except RuntimeError:
        return False
    return hasattr(runtime, "get_app_session")


def here() -> tuple[str, str] | None:
    """(session id, fragment id) of the fragment running now, or None (not in a fragment, no server)."""
    found = _internals()
    if found is None or not available():
        return None
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return None
    try:
        fragment_id = found[3].get().fragment_id
    except (RuntimeError, AttributeError):
        return None
    return (ctx.session_id, fragment_id) if fragment_id else None


def rerun_fragment(session_id: str, fragment_id: str, *, gap: float = 0.0) -> bool:
    """Queue a rerun of ``fragment_id`` in session ``session_id`` (any thread); at most one per ``gap``
    seconds (a later request waits, and requests meanwhile are merged into it).  False when the session
    is gone."""
    found = _internals()
    if found is None:
        return False
    runtime_cls = found[0]
    if not runtime_cls.exists():
        return False
    session = runtime_cls.instance().get_app_session(session_id)
    if session is None:
        return False
    loop = getattr(session, "_event_loop", None)
    if loop is None or loop.is_closed():
        return False
    loop.call_soon_threadsafe(_schedule, session, fragment_id, gap)
    return True


def _schedule(session, fragment_id: str, gap: float) -> None:
    """On the event loop: push now, or once ``gap`` seconds after the last push of this fragment."""
    key = (session.id, fragment_id)
    if key in _waiting:
        return
    loop = session._event_loop
    wait = _last.get(key, float("-inf")) + gap - loop.time()
    if wait > 0:
        _waiting.add(key)
        loop.call_later(wait, _fire, session, fragment_id)
    else:
        _fire(session, fragment_id)


def _fire(session, fragment_id: str) -> None:
    global pushed
    key = (session.id, fragment_id)
    _waiting.discard(key)
    if len(_last) > 20_000:  # sessions that ended without their fragment being pushed again
        _last.clear()
    _last[key] = session._event_loop.time()
    found = _internals()
    if found is None:
        return
    _, rerun_data_cls, session_state, _ = found
    if getattr(session, "_state", None) == session_state.SHUTDOWN_REQUESTED or not session.has_fragment(fragment_id):
        _last.pop(key, None)
        return
    client = session._client_state
    data = rerun_data_cls(
        query_string=client.query_string,
        page_script_hash=client.page_script_hash,
        fragment_id=fragment_id,
        is_auto_rerun=True,  # as the browser's own timer would send (a vanished fragment is skipped quietly)
        widget_states=None,  # keep what the browser sent; merge with whatever it is sending now
        context_info=client.context_info if client.HasField("context_info") else None,
    )
    pushed += 1
    runner = session._scriptrunner
    if runner is not None and runner.request_rerun(data):
        return
    session._create_scriptrunner(data)


def follow(watcher: Watcher, class_id: int, role: str, wants: Callable[[ClassState | None], bool], *,
           gap: float = 0.0) -> bool:
    """Inside a fragment: rerun it whenever class ``class_id``'s new state makes ``wants(state)`` true
    (``state`` None: the class is gone).  One subscription per session and ``role`` (a later call replaces
    it, another class's included).  Returns False when pushes are not available here."""
    where = here()
    if where is None:
        return False
    session_id, fragment_id = where
    key = (session_id, role)
    with _lock:
        before = _followed.get(key)
        _followed[key] = (watcher, int(class_id))
    if before is not None and before != (watcher, int(class_id)):
        before[0].unsubscribe(before[1], key)

    def changed(_sid: int, _old: ClassState | None, new: ClassState | None) -> None:
        if wants(new) and not rerun_fragment(session_id, fragment_id, gap=gap):
            forget(session_id, role)

    watcher.subscribe(class_id, key, changed)
    return True


def forget(session_id: str, role: str) -> None:
    """End the subscription of a session's ``role`` (a closed tab)."""
    key = (session_id, role)
    with _lock:
        before = _followed.pop(key, None)
    if before is not None:
        before[0].unsubscribe(before[1], key)
