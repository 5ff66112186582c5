"""Input widgets shared by the pages.  Bad input shows a message naming the bad token and keeps the
last valid value; nothing the user types is rendered as HTML or evaluated."""
from __future__ import annotations

import math

import streamlit as st

from metrics.parse import ParseError, parse_grades
from metrics.registry import DISCOUNTS, GAINS
from ui.i18n import plain, registry_text, t

BASES = {"2": 2.0, "e": math.e, "10": 10.0}


def error_text(exc: ValueError) -> str:
    """A translated message for a parse error, the library's own message otherwise."""
    if isinstance(exc, ParseError):
        return t(f"common.{exc.kind}", token=plain(exc.token, 20), position=exc.position)
    return t("common.invalid_input", message=plain(exc, 200))


def grades_input(*, key: str, default: str, label: str | None = None, height: int = 80,
                 allow_empty: bool = False) -> list[float]:
    """A text area of grades.  Returns the parsed grades, or the last valid ones after a message."""
    last_key = f"{key}__last_valid"
    if key not in st.session_state:
        st.session_state[key] = default
    if last_key not in st.session_state:
        st.session_state[last_key] = parse_grades(default, allow_empty=True)
    text = st.text_area(label or t("common.grades"), key=key, help=t("common.grades_help"), height=height)
    try:
        grades = parse_grades(text, allow_empty=allow_empty)
    except ValueError as exc:
        st.error(error_text(exc))
        st.caption(t("common.kept_last_valid"))
        return list(st.session_state[last_key])
    st.session_state[last_key] = grades
    return grades


def _registry_select(kind: str, registry: dict, options, *, key: str, label: str) -> str:
    # Names are looked up now, in the current language: a format_func that calls t() later would
    # be re-run by AppTest in English and no longer match the options it was drawn with.
    names = {k: registry_text(kind, registry[k], "name") for k in options}
    help_text = "\n\n".join(f"**{names[k]}**: {registry_text(kind, registry[k], 'help')}" for k in options)
    return st.selectbox(label, list(options), key=key, format_func=names.__getitem__, help=help_text)


def gain_select(*, key: str, options=None) -> str:
    return _registry_select("gain", GAINS, list(options or GAINS), key=key, label=t("common.gain"))


def discount_select(*, key: str) -> str:
    return _registry_select("discount", DISCOUNTS, list(DISCOUNTS), key=key, label=t("common.discount"))


def base_select(*, key: str) -> float:
    choice = st.selectbox(t("common.log_base"), list(BASES), key=key, help=t("common.log_base_help"))
    return BASES[choice]


def k_input(*, key: str, n: int) -> int | None:
    """Cutoff k; 0 means the whole list.  Returns None for the whole list."""
    value = st.number_input(t("common.k"), min_value=0, max_value=max(n, 1) * 10 + 100, step=1, key=key,
                            help=t("common.k_help"))
    return int(value) or None


def keep_or_restore(first_key: str, saved_key: str, from_link) -> None:
    """Initialise a page's widget values once: keep them while the page is shown; after a visit to
    another page (Streamlit drops the widget keys) restore the snapshot the page saved in
    ``st.session_state[saved_key]``; on the first visit call ``from_link()``, which reads the
    URL query (warning about bad parameters) and sets the widget keys.
    """
    if first_key in st.session_state:
        return
    saved = st.session_state.get(saved_key)
    if saved:
        st.session_state.update(saved)
        return
    from_link()
