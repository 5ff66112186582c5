# Repository root conftest: makes `import metrics` / `import ui` work from every test directory.

import gc
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


# ---- Python's garbage collector in a long test process ------------------------------------------------------
# A test worker holds ~350,000 long-lived objects (every module the tests import, Streamlit's runtime, the
# AppTests' caches), and the collector walks them again and again while Hypothesis and AppTest allocate: one
# Hypothesis test took 3.3 s alone and 8.1 s after the page tests had run in the same process.  So the objects
# alive after collection, and then at the start of each test module, are moved out of the collector's sight
# (``gc.freeze``; they are still freed by reference counting), and a collection starts after 50,000 new
# objects, not 700.  Measured on 1,127 tests of tests/pages, tests/ui, tests/metrics/lessons and the
# significance tests in one process: 186 CPU-s before, 149 after; peak memory 771 MB before, 972 MB after.
# Only the test processes: the app's servers keep Python's defaults.
_GC_YOUNG = 50_000
_frozen_at = {"module": None}


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()
    gc.set_threshold(_GC_YOUNG, 20, 20)


def pytest_runtest_setup(item):
    module = item.nodeid.split("::")[0]
    if module != _frozen_at["module"]:
        _frozen_at["module"] = module
        gc.freeze()
