"""Every name and sentence of Which convention? and "Where did this number come from?" exists in Chinese and
Korean: the conventions table, the ways of writing a number, the settings that move a mean and their choices,
the run libraries, the refusals, the other measures a library may compute."""
from __future__ import annotations

import pytest

from metrics.lessons.libraries import COMMON_CONVENTIONS, QUANTITIES
from metrics.lessons.match import WRITINGS
from metrics.runfiles.match import MEAN_DIMENSIONS, REFUSALS, RUN_LIBRARIES
from ui.i18n import LANGUAGES, catalogue

OWN_KINDS = {"ties", "gain", "zero_idcg", "grades"}  # translated by the registry's own sections


def wanted() -> list[str]:
    keys = [f"registry.convention.{k}.{f}" for k in COMMON_CONVENTIONS for f in ("name", "help")]
    keys += [f"registry.writing.{k}.{f}" for k in WRITINGS for f in ("name", "help")]
    keys += [f"registry.quantity.{k}.name" for k in QUANTITIES]
    keys += [f"registry.run_library.{k}.name" for k in RUN_LIBRARIES]
    keys += [f"registry.refusal.{k}.help" for k in REFUSALS]
    keys += [f"registry.mean_dimension.{d}.name" for d in MEAN_DIMENSIONS]
    for d, dim in MEAN_DIMENSIONS.items():
        if d in OWN_KINDS:
            continue
        choices = ["none"] if callable(dim.choices) else list(dim.choices)
        keys += [f"registry.mean_{d}.{c}.name" for c in choices]
    return keys


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_name_is_translated(lang):
    cat = catalogue(lang)
    assert [k for k in wanted() if not cat.get(k)] == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translations_keep_the_quoted_messages(lang):
    # a refusal quotes the library's own message: the translation keeps it as it is
    cat = catalogue(lang)
    for key, entry in REFUSALS.items():
        if "'" in entry.help:
            quoted = entry.help.split("'")[1]
            assert quoted in cat[f"registry.refusal.{key}.help"], key
