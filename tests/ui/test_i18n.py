"""Every catalogue is complete: same keys and same {placeholders} in every language."""
from __future__ import annotations

import re
import string

import pytest

from metrics.lessons.examples import VERDICTS
from metrics.lessons.exercises import DIFFICULTIES
from metrics.lessons.libraries import LIBRARIES
from metrics.lessons.misconceptions import MISCONCEPTIONS
from metrics.registry import DISCOUNTS, GAINS, TIES
from ui.i18n import LANGUAGES, LOCALES, catalogue

# kind -> (registry, translated fields).  Every misconception has its own name (carried forward and the sum
# note are a worked example's verdicts, translated as the verdict).
REGISTRIES = {
    "gain": (GAINS, ("name", "help")),
    "discount": (DISCOUNTS, ("name", "help")),
    "ties": (TIES, ("name", "help")),
    "mistake": (MISCONCEPTIONS, ("name", "help")),
    "verdict": (VERDICTS, ("name", "help")),
    "difficulty": (DIFFICULTIES, ("name", "help")),
    "library": (LIBRARIES, ("ties_note", "idcg_zero", "notes")),
}


def _keys(lang: str) -> set[str]:
    # English names and help of registry entries come from metrics.registry itself.
    return {k for k in catalogue(lang) if not k.startswith("registry.")}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_same_keys_as_english(lang):
    en, other = _keys("en"), _keys(lang)
    assert sorted(en - other) == [], f"{lang} is missing keys"
    assert sorted(other - en) == [], f"{lang} has keys English lacks"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_same_placeholders_as_english(lang):
    en, other = catalogue("en"), catalogue(lang)
    bad = {k: (_fields(en[k]), _fields(other[k])) for k in _keys("en") & _keys(lang)
           if _fields(en[k]) != _fields(other[k])}
    assert bad == {}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_registry_entries_translated(lang):
    cat = catalogue(lang)
    missing = [f"registry.{kind}.{key}.{field}" for kind, (reg, fields) in REGISTRIES.items() for key in reg
               for field in fields if not cat.get(f"registry.{kind}.{key}.{field}")]
    assert missing == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translations_are_not_english_copies(lang):
    # A string identical to English is allowed only when it has no letters to translate
    # (formulas, names like "NDCG", "trec_eval") or is short.
    en, other = catalogue("en"), catalogue(lang)
    copies = [k for k in _keys("en") & _keys(lang)
              if other[k] == en[k] and len(re.findall(r"[A-Za-z]{4,}", en[k])) > 3]
    assert copies == []


def test_every_locale_folder_is_a_language():
    assert {p.name for p in LOCALES.iterdir() if p.is_dir()} == set(LANGUAGES)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_placeholder_shadows_the_language_argument(lang):
    # t(key, lang=..., **fmt) takes the language as `lang`, so a {lang} placeholder could never be filled.
    assert [k for k, v in catalogue(lang).items() if "lang" in _fields(v)] == []


@pytest.mark.parametrize("kind", list(REGISTRIES))
def test_english_registry_text_is_not_repeated_in_the_english_catalogue(kind):
    # English is written once, in metrics/: no English catalogue string repeats a registry entry's text.
    reg, fields = REGISTRIES[kind]
    english = {getattr(entry, f) for entry in reg.values() for f in fields if len(getattr(entry, f)) > 12}
    repeated = sorted(k for k, v in catalogue("en").items() if v in english)
    assert repeated == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_library_version_notes_translated(lang):
    # ``versions`` is shown on /match beside the source; only some libraries have one.
    cat = catalogue(lang)
    missing = [key for key, lib in LIBRARIES.items()
               if lib.versions and not cat.get(f"registry.library.{key}.versions")]
    assert missing == []


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_library_translations_keep_the_numbers_of_the_english(lang):
    # A translation that lacks a number its English has is stale: when the English gained "up to 15 items;
    # from 16 ..." (ranx) or "2.5 -> 2" (trec_eval), translations still said "ties keep insertion order".
    cat = catalogue(lang)
    stale = {}
    for key, lib in LIBRARIES.items():
        for field in ("ties_note", "idcg_zero", "notes", "versions"):
            english = getattr(lib, field)
            translated = cat.get(f"registry.library.{key}.{field}", "")
            lacking = set(_NUMBER.findall(english)) - set(_NUMBER.findall(translated))
            if english and lacking:
                stale[f"{key}.{field}"] = sorted(lacking)
    assert stale == {}
