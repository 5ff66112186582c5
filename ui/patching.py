"""Installing a change to Streamlit's internals once per process (pinned ``streamlit==1.67.0``).

:func:`ui.reruns.keep_fragment_reruns` and :func:`ui.config_sections.index_config_sections` each replace one
function of Streamlit's; both must run once, before a page draws anything, and change nothing on a Streamlit
that lacks what they replace.  :func:`installs_once` is that rule, written once.
"""
from __future__ import annotations

import functools
from collections.abc import Callable

__all__ = ["installs_once"]


def installs_once(install: Callable[[], bool]) -> Callable[[], bool]:
    """Wrap ``install`` (returns whether it installed): it runs until it has succeeded once, then the
    wrapper answers True at once; an ``ImportError`` (a Streamlit without the internals) answers False.

    >>> calls = []
    >>> @installs_once
    ... def install():
    ...     calls.append(1)
    ...     return True
    >>> install(), install(), len(calls)
    (True, True, 1)
    >>> @installs_once
    ... def missing():
    ...     from streamlit.no_such_module import thing  # noqa: F401
    >>> missing()
    False
    """
    done = False

    @functools.wraps(install)
    def wrapper() -> bool:
        nonlocal done
        if done:
            return True
        try:
            done = bool(install())
        except ImportError:
            return False
        return done

    return wrapper
