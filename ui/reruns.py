"""A visitor's action is never dropped: the rerun of a fragment the server's session does not hold runs the
whole page instead.

Streamlit (``AppSession.request_rerun``) drops the rerun of a fragment its session has not registered, with
the widget values it carries.  A page that has reconnected to another app server (its own died, or nginx
moved it) or to a restarted one still shows the old server's page, its new session there has run nothing
yet, and what the visitor does next in a fragment — a student's answer in the classroom's answer panel, a
slider in the playground — arrives as such a rerun: the value stays in the box, nothing is saved, nothing
is drawn.  :func:`keep_fragment_reruns` makes the server run the whole page with those values instead (the
browser sends every widget's value with a fragment's rerun): what a page without fragments would have got.
Timer reruns (``is_auto_rerun``) of a fragment that is gone stay dropped: a full run removed it on purpose.

Installed by ``ui/__init__.py`` before anything else of the app is imported: in a fresh process that is
the first run's first moment (Streamlit runs no code of the app before a page's first run), so a rerun that
a restarted server receives in the few milliseconds between a page's first message and that moment is still
dropped (seen: 0.25 s after a restart, under load, CI stop 43; the student's page's timed change check then
saves the answer the browser still holds: ``ui.pages.classroom.views._watch``).  Needs Streamlit's runtime
internals (pinned ``streamlit==1.67.0``); without them nothing changes.
"""
from __future__ import annotations

import logging

from ui.patching import installs_once

__all__ = ["fragment_rerun", "keep_fragment_reruns"]

_LOG = logging.getLogger(__name__)


@installs_once
def keep_fragment_reruns() -> bool:
    """Make every session of this process run the whole page for a visitor's rerun of a fragment it does
    not hold (see the module's docstring).  Idempotent; False when this Streamlit lacks the internals.

    >>> keep_fragment_reruns() in (True, False)  # True with the pinned Streamlit
    True
    """
    from streamlit.runtime.app_session import AppSession

    if not hasattr(AppSession, "has_fragment"):
        return False
    original = AppSession.request_rerun

    def request_rerun(self, client_state):
        if (client_state is not None and client_state.fragment_id and not client_state.is_auto_rerun
                and not self.has_fragment(client_state.fragment_id)):
            whole = type(client_state)()
            whole.CopyFrom(client_state)
            whole.fragment_id = ""
            _LOG.info("the rerun of fragment %s, unknown to session %s, runs the whole page",
                      client_state.fragment_id, self.id)
            client_state = whole
        return original(self, client_state)

    request_rerun.__wrapped__ = original
    AppSession.request_rerun = request_rerun
    return True


def fragment_rerun() -> bool:
    """Whether the run in progress reruns fragments only (False in a full run of the page, or outside one).

    A fragment that asks for a full run (``st.rerun(scope="app")``) when it finds work left undone must ask
    only from a fragment's own rerun: the full run draws the fragment too, and asking again from there
    would rerun the page for ever without reaching the part below that does the work.

    >>> fragment_rerun()  # no script run here
    False
    """
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
    except ImportError:
        return False
    ctx = get_script_run_ctx(suppress_warning=True)
    return bool(ctx is not None and ctx.fragment_ids_this_run)
