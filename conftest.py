# Repository root conftest: makes `import metrics` / `import ui` work from every test directory.

import sys

import pytest


@pytest.fixture(autouse=True)
def _outside_a_session_english(request):
    """Outside any Streamlit session ``ui.i18n.t`` answers in the language of the process's last script run, so
    a test (or doctest) that calls the ui helpers directly would read whatever language an AppTest before it
    on the same xdist worker ran in (it happened to two doctests, then to eight ui tests when the workers'
    order changed).  Every test starts from English; an AppTest run inside it still sets its own language."""
    i18n = sys.modules.get("ui.i18n")
    if i18n is not None:
        i18n._last_language = i18n.DEFAULT_LANGUAGE
    yield
