"""One translation layer for every UI string.

Every interface language is one row of :data:`LANGUAGE_TABLE` (its code in links, its name, ``<html lang>``,
the handout's font face and PDF language, how it joins a list and writes a colon); everything else reads it.
Catalogues live in ``ui/locales/<lang>/<section>.toml``; the file name is the
key prefix, so key ``title`` in ``ui/locales/en/playground.toml`` is
``t("playground.title")``.  All languages must hold the same keys
(``tests/ui/test_i18n.py`` checks it).  Names and help of gains, discounts and
other registry entries come from :mod:`metrics.registry` in English and from
the ``registry`` section in the other languages.  Each language's one term per
concept is in ``ui/locales/<lang>/glossary.toml`` (not a catalogue section; a
test holds every catalogue to it).  Korean particles are chosen for the words
and numbers actually shown (:mod:`ui.korean`).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from ui.korean import format_resolved, resolve


@dataclass(frozen=True)
class Language:
    """One interface language: everything the app needs to know about it, in one place."""

    code: str  # in links (``lang=``) and the catalogue's folder name
    name: str  # in its own script, on the language buttons
    html: str  # BCP 47, for ``<html lang>`` and a quote's ``lang``
    pdf: str  # the handout's document language
    face: str  # the Noto Sans CJK face with this language's glyph forms (SC, TC, KR)
    fontconfig: str  # what fc-match is asked for when the font is not where Debian puts it
    list_sep: str  # between the items of a list of words ("DCG, IDCG" / "DCG、IDCG")
    colon: str  # after a label ("Your numbers follow: " / "你的数字遵循的是：")
    clause_sep: str = "; "  # between clauses of one sentence ("DCG 6.86; IDCG 8.37" / "DCG 6.86；IDCG 8.37")
    stop: str = "."  # ends a sentence the app builds ("… 1.2619." / "… 1.2619。")


LANGUAGE_TABLE: dict[str, Language] = {lang.code: lang for lang in (
    Language("en", "English", "en", "en", "SC", "Noto Sans CJK SC", ", ", ": "),
    Language("zh", "简体中文", "zh-Hans", "zh-CN", "SC", "Noto Sans CJK SC:lang=zh-cn", "、", "：", "；", "。"),
    # Converted from the Simplified catalogues with OpenCC's Taiwan profile (scripts/zh_hant.py).
    Language("zh-Hant", "繁體中文", "zh-Hant", "zh-TW", "TC", "Noto Sans CJK TC:lang=zh-tw", "、", "：", "；", "。"),
    Language("ko", "한국어", "ko", "ko-KR", "KR", "Noto Sans CJK KR:lang=ko", ", ", ": "),
)}
#: code -> name, in the order the language buttons show them.
LANGUAGES = {code: lang.name for code, lang in LANGUAGE_TABLE.items()}
DEFAULT_LANGUAGE = "en"
LOCALES = Path(__file__).parent / "locales"
STATE_KEY = "lang"
#: Files of a language's folder that are not catalogue sections.
NOT_SECTIONS = frozenset({"glossary"})


def language(code: str | None = None) -> Language:
    """The :class:`Language` of ``code`` (the current language when None; English for an unknown code).

    >>> language("zh").html, language("ko").pdf, language("xx").code
    ('zh-Hans', 'ko-KR', 'en')
    """
    return LANGUAGE_TABLE.get(code or current_language(), LANGUAGE_TABLE[DEFAULT_LANGUAGE])


def join_words(items, lang: str | None = None) -> str:
    """Words (names, labels) as one list in the language's way: ``"DCG, IDCG"``, ``"DCG、IDCG"``.

    >>> join_words(["DCG", "IDCG"], "zh"), join_words(["DCG", "IDCG"], "en")
    ('DCG、IDCG', 'DCG, IDCG')
    """
    return language(lang).list_sep.join(str(x) for x in items)


def join_clauses(items, lang: str | None = None) -> str:
    """Clauses (mistake names, each a statement that may hold its own colon) as one list:
    ``"rel used for 2^rel − 1; log(i) used for log(i + 1): …"``, ``"用了 rel 而不是 2^rel − 1；用了 …：…"``.

    >>> join_clauses(["DCG 6.86", "IDCG 8.37"], "zh"), join_clauses(["DCG 6.86", "IDCG 8.37"], "ko")
    ('DCG 6.86；IDCG 8.37', 'DCG 6.86; IDCG 8.37')
    """
    return language(lang).clause_sep.join(str(x) for x in items)


def labelled(label: str, value: str = "", lang: str | None = None) -> str:
    """``label`` and ``value`` with the language's colon between them: ``"Followed: x"``, ``"遵循：x"``.

    >>> labelled("你的数字遵循的是", "x", "zh"), labelled("Followed", "x", "en")
    ('你的数字遵循的是：x', 'Followed: x')
    """
    return f"{label}{language(lang).colon}{value}"


@cache
def glossary(lang: str) -> dict[str, dict]:
    """The language's one term per concept: ``{concept: {"term": ..., "avoid": [...]}}``."""
    path = LOCALES / lang / "glossary.toml"
    if not path.is_file():
        return {}
    with path.open("rb") as fh:
        return tomllib.load(fh)


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
        if path.stem in NOT_SECTIONS:
            continue
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
    lang = lang or current_language()
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue(DEFAULT_LANGUAGE).get(key)
        if text is None:
            MISSING_KEYS.add(key)
            text = key
    if lang == "ko":  # particles chosen for the words and numbers actually put in (ui.korean)
        if not fmt:
            return resolve(text)
        try:
            return format_resolved(text, **fmt)
        except (KeyError, IndexError, ValueError, AttributeError):
            return resolve(text)
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
            return resolve(text) if current_language() == "ko" else text
    return getattr(entry, field)
