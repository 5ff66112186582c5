# Repository root conftest: makes `import metrics` / `import ui` work from every test directory.

import sys

import pytest


@pytest.fixture(autouse=True)
def _doctests_outside_a_session_read_english(request):
    """A doctest runs outside any Streamlit session, where ``ui.i18n.t`` answers in the language of the
    process's last script run (an AppTest in zh on the same xdist worker made two doctests print Chinese).
    Doctests document the English text: each starts from it."""
    i18n = sys.modules.get("ui.i18n")
    if isinstance(request.node, pytest.DoctestItem) and i18n is not None:
        i18n._last_language = i18n.DEFAULT_LANGUAGE
    yield
