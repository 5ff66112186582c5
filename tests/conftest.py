"""Shared test machinery: Hypothesis profiles, per-worker isolation under pytest-xdist, AppTest helpers.

Conventions (docs/TEAM_BRIEF.md, "Tests", says the same for newcomers):

* **Hypothesis profiles** — ``dev`` (the default on a developer's machine: random, failures saved in
  .hypothesis/, a quarter of the examples), ``ci`` (scripts/test.sh and CI: derandomized, the full counts,
  so a red build is reproducible and never a new random draw) and ``thorough`` (ten times the counts, for
  a deliberate hunt).  Choose with ``HYPOTHESIS_PROFILE=...``; ``CI=true`` means ``ci``.  A test that needs
  a count of its own writes ``max_examples=examples(40)`` (40 under ``ci``, scaled by the profile), never
  a bare number, so every profile can raise or lower it.
* **Workers** — scripts/test.sh runs pytest-xdist (``-n``, ``--dist loadgroup``).  Everything a test starts
  is per worker (servers on free ports, temp folders, its own classroom database, below); tests that must
  share one process (Spark's JVM session) carry the ``spark`` marker, which puts them in one xdist group;
  tests that call ranx carry the ``ranx`` marker, for the same reason (see :data:`GROUP_MARKERS`).
"""
from __future__ import annotations

import atexit
import functools
import math
import os
import shutil
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from streamlit.components.v2 import manifest_scanner
from streamlit.testing.v1 import AppTest

_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
#: Each profile's number of examples as a multiple of the ``ci`` count.
PROFILE_SCALE = {"dev": 0.25, "ci": 1.0, "thorough": 10.0}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if _CI else "dev")
if PROFILE not in PROFILE_SCALE:
    raise pytest.UsageError(f"HYPOTHESIS_PROFILE={PROFILE!r}; the profiles are {', '.join(PROFILE_SCALE)}")


def examples(n: int) -> int:
    """``n`` examples under the ``ci`` profile, scaled by the active one (at least 1).

    >>> examples(40) == max(1, math.ceil(40 * PROFILE_SCALE[PROFILE]))
    True
    """
    return max(1, math.ceil(n * PROFILE_SCALE[PROFILE]))


# Loaded before the test modules build their settings objects, which inherit it.  No deadline and no
# too_slow health check in any profile: both are timed assertions, which fail on a machine whose cores are
# all busy.
_UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("dev", max_examples=examples(100), **_UNTIMED)
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, max_examples=examples(100),
                          **_UNTIMED)
settings.register_profile("thorough", max_examples=examples(100), **_UNTIMED)
settings.load_profile(PROFILE)

# Every new AppTest scans the metadata of every installed distribution for Streamlit component manifests
# (streamlit/testing/v1/app_test.py, ``discover_and_register_components``): 0.37 s per AppTest with the ~700
# packages the tests install, three quarters of a page test's time.  What is installed does not change during
# a test session: scan once per process, as the app's server does at its start.
manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)

# The classroom's database: one SQLite file per test process (each xdist worker, and the Streamlit servers
# the browser tests start, which inherit the environment) instead of the repository's data/classroom, which
# parallel workers would otherwise migrate and fill at the same time.  A URL set by the caller is kept.
# xdist workers inherit the controller's environment: a URL this file set in another pytest process (marked
# with that process's id) is replaced, one set by the caller is not.
_OWN_DB_DIR = None
_DB_OWNER = "NDCG_LAB_TEST_DB_OWNER"
if not os.environ.get("NDCG_LAB_DB_URL") or os.environ.get(_DB_OWNER, str(os.getpid())) != str(os.getpid()):
    _OWN_DB_DIR = Path(tempfile.mkdtemp(prefix="ndcg-lab-classroom-"))
    os.environ["NDCG_LAB_DB_URL"] = f"sqlite:///{_OWN_DB_DIR / 'classroom.sqlite3'}"
    os.environ[_DB_OWNER] = str(os.getpid())
    atexit.register(shutil.rmtree, _OWN_DB_DIR, ignore_errors=True)


#: Markers whose tests run on one worker, as one xdist group named after the marker.
#: ``spark``: they share one JVM session (7-10 s to start).  ``ranx``: ranx JIT-compiles its functions with
#: numba on first use, one compilation per argument type (the width of the longest document id is part of
#: it), cached in ranx's __pycache__.  In a fresh venv two workers would compile the same functions at the same
#: time: measured on the nine ranx tests, cold, 81 CPU-s on two workers against 57 on one (10 warm).
GROUP_MARKERS = ("spark", "ranx")


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups into the test ids
def pytest_collection_modifyitems(config, items):
    """xdist groups (scripts/test.sh runs ``--dist loadgroup``): the tests of each of :data:`GROUP_MARKERS`
    run on one worker; the tests of a module that share a module-scoped fixture (an AppTest run per
    language, say) run on one worker, which builds it once.  Every other test goes to any free worker."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        marker = next((m for m in GROUP_MARKERS if item.get_closest_marker(m) is not None), None)
        if marker is not None:
            item.add_marker(pytest.mark.xdist_group(marker))
            continue
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info is not None else ()
        if any(d and d[-1].scope in ("module", "class", "package") for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "zh", "ko", "zh-Hant")


def open_page(page: str | None = None, *, lang: str = "en", query: dict | None = None,
              state: dict | None = None, timeout: float = 60) -> AppTest:
    """Run app.py (optionally with URL query parameters and session state), then switch to `page`.

    `page` is the script path relative to the repo, e.g. "pages/variants.py"; None stays on the
    default page (the playground).
    """
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.session_state["lang"] = lang
    for key, value in (state or {}).items():
        at.session_state[key] = value
    for key, value in (query or {}).items():
        at.query_params[key] = value
    if page is not None:
        at.switch_page(page)
    at.run()
    return at


def one_language_each(argnames: str, cases: list, *, ids: list[str] | None = None):
    """``pytest.mark.parametrize("lang, " + argnames, ...)`` with each case in one language, the languages
    taken in turn: every case and every language is covered with one AppTest run per case, not three.
    (A page's translations are complete and identical in keys by tests/ui/test_i18n.py; the full view of
    each page is checked in every language by its own test.)"""
    rows = [(LANGS[i % len(LANGS)], *(case if isinstance(case, tuple) else (case,))) for i, case in enumerate(cases)]
    names = ids or [str(i) for i in range(len(cases))]
    return pytest.mark.parametrize(f"lang, {argnames}", rows, ids=[f"{n}-{row[0]}" for n, row in zip(names, rows)])


def said_in(said: dict[str, str], lang: str) -> str:
    """A case's expected text in `lang`: Traditional Chinese, when a case lists only the Simplified text, is
    that text through the same conversion that generates ui/locales/zh-Hant (scripts/zh_hant.py)."""
    if lang in said:
        return said[lang]
    if lang == "zh-Hant":
        from scripts.zh_hant import convert
        return convert(said["zh"])
    raise KeyError(lang)


def no_exceptions(at: AppTest) -> None:
    """Fail with the exception text if the page raised."""
    errors = [e.value for e in at.exception]
    assert not errors, errors


def fmt(x: float) -> str:
    """A number as the pages print it: 4 decimals, trailing zeros dropped."""
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def latex(at) -> str:
    """Every st.latex body on the page, one per line."""
    return "\n".join(x.value for x in at.latex)


def texts(at, kind: str) -> list[str]:
    """The bodies of every element of one kind ("error", "warning", "info", "caption", ...)."""
    return [x.value for x in getattr(at, kind)]


@pytest.fixture
def page_opener():
    return open_page


class _HtmlTables(HTMLParser):
    """Every <table> of some HTML as rows of cell texts (the header row first), with the data-testid of the
    element around it."""

    def __init__(self):
        super().__init__()
        self.tables, self._cell, self._test_id = [], None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-testid" in attrs and tag == "div":
            self._test_id = attrs["data-testid"]
        if tag == "table":
            self.tables.append((self._test_id, []))
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][1][-1].append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def html_tables(at, test_id: str | None = None) -> list:
    """The HTML tables a page drew (ui/tables.py through st.html) as DataFrames of the texts shown, in page
    order; only those in the element with ``data-testid=test_id`` if given."""
    import pandas as pd

    out = []
    for element in at.get("html"):
        reader = _HtmlTables()
        reader.feed(element.proto.body)
        out += [pd.DataFrame(rows[1:], columns=rows[0]) for tid, rows in reader.tables
                if rows and (test_id is None or tid == test_id)]
    return out
