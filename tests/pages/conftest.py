"""Every page test also checks that no translation key was missing from the catalogues while it ran
(a visitor would have read the raw key, e.g. ``practice.level.easy``)."""
from __future__ import annotations

import pytest

from ui import i18n


@pytest.fixture(autouse=True)
def no_missing_translation_keys():
    i18n.MISSING_KEYS.clear()
    yield
    missing = sorted(i18n.MISSING_KEYS)
    i18n.MISSING_KEYS.clear()
    assert not missing, f"translation keys missing from every catalogue: {missing}"
