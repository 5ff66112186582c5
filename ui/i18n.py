"""One translation layer for every UI string.

Catalogues live in ``ui/locales/<lang>/<section>.toml``; the file name is the
key prefix, so key ``title`` in ``ui/locales/en/playground.toml`` is
``t("playground.title")``.  All languages must hold the same keys
(``tests/ui/test_i18n.py`` checks it).  Names and help of gains, discounts and
other registry entries come from :mod:`metrics.registry` in English and from
the ``registry`` section in the other languages.
"""
from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

LANGUAGES = {"en": "English", "zh": "简体中文", "ko": "한국어"}
DEFAULT_LANGUAGE = "en"
LOCALES = Path(__file__).parent / "locales"
STATE_KEY = "lang"


def _flatten(prefix: str, table: dict, out: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}.{key}"
        if isinstance(value, dict):
            _flatten(name, value, out)
        else:
            out[name] = str(value)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every key -> string for one language (all section files merged)."""
    out: dict[str, str] = {}
    for path in sorted((LOCALES / lang).glob("*.toml")):
        with path.open("rb") as fh:
            _flatten(path.stem, tomllib.load(fh), out)
    return out


_last_language = DEFAULT_LANGUAGE


def current_language() -> str:
    """The session's language.

    Outside a script run there is no session to ask: that only happens when AppTest re-reads a
    widget's format_func after the run, so the language of the last run is the right answer
    (a lazy ``format_func=lambda k: t(...)`` then matches the options it was drawn with).
    """
    global _last_language
    if get_script_run_ctx(suppress_warning=True) is None:
        return _last_language
    lang = st.session_state.get(STATE_KEY, DEFAULT_LANGUAGE)
    _last_language = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return _last_language


#: Keys asked for that no catalogue holds (a visitor would read the raw key); the page tests fail on any.
MISSING_KEYS: set[str] = set()


def t(key: str, /, lang: str | None = None, **fmt) -> str:
    """The string for ``key`` in the current language, formatted with ``fmt``.

    A missing key shows as the key itself and is recorded in :data:`MISSING_KEYS` (the page tests fail
    on it), never crashes.
    """
    text = catalogue(lang or current_language()).get(key)
    if text is None:
        text = catalogue(DEFAULT_LANGUAGE).get(key)
        if text is None:
            MISSING_KEYS.add(key)
            text = key
    if fmt:
        try:
            return text.format(**fmt)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def registry_text(kind: str, entry, field: str) -> str:
    """Translated ``name``/``help`` of a registry entry (a :class:`metrics.registry.Choice`).

    English comes straight from the registry, so it is written once; other
    languages look up ``registry.<kind>.<key>.<field>``.
    """
    if current_language() != DEFAULT_LANGUAGE:
        text = catalogue(current_language()).get(f"registry.{kind}.{entry.key}.{field}")
        if text:
            return text
    return getattr(entry, field)
