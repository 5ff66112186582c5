"""Streamlit's config options looked up by section through an index, not by a walk over every option.

Streamlit (pinned 1.67.0) starts every run of every page — a fragment's too — with a ``new_session``
message whose theme it fills from six sections of its configuration (``theme``, ``theme.light``,
``theme.dark`` and the sidebars'); each :func:`streamlit.config.get_options_for_section` walks all of the
~200 options under the config lock to pick one section's.  With hundreds of students answering, that walk
was 5-7 % of every app server's CPU (py-spy, ``benchmarks/classroom.py --lecture --students 600
--profile``; docs/notes/hall3.md).  :func:`index_config_sections` replaces it with the same answer from an
index of each section's options, built once per options table: the values are read from the options
themselves at every call (an option set later is seen), and a table Streamlit builds anew (a config file
re-read) or shrinks is indexed again.

Installed by ``ui/__init__.py``; without :func:`streamlit.config.get_config_options` nothing changes.
"""
from __future__ import annotations

import threading

from ui.patching import installs_once

__all__ = ["index_config_sections"]

_lock = threading.Lock()


@installs_once
def index_config_sections() -> bool:
    """Make :func:`streamlit.config.get_options_for_section` answer from a per-section index (same result,
    same order as Streamlit's walk).  Idempotent; False when this Streamlit lacks what it needs.

    >>> index_config_sections()
    True
    >>> from streamlit import config
    >>> sorted(config.get_options_for_section("server"))[:2] == sorted(
    ...     o.name for o in config.get_config_options().values() if o.section == "server")[:2]
    True
    """
    from streamlit import config

    if not all(hasattr(config, name) for name in ("get_config_options", "get_options_for_section", "_config_lock")):
        return False
    original = config.get_options_for_section
    index: dict = {"table": None, "size": -1, "sections": {}}

    def get_options_for_section(section: str) -> dict:
        with config._config_lock:
            table = config.get_config_options()
            with _lock:
                if index["table"] is not table or index["size"] != len(table):
                    sections: dict[str, list] = {}
                    for option in table.values():
                        sections.setdefault(option.section, []).append(option)
                    index.update(table=table, size=len(table), sections=sections)
                options = index["sections"].get(section, ())
            return {option.name: option.value for option in options}

    get_options_for_section.__wrapped__ = original
    get_options_for_section.__doc__ = original.__doc__
    config.get_options_for_section = get_options_for_section
    return True
