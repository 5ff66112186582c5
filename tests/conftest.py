"""Shared fixtures: AppTest helpers for pages."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from streamlit.testing.v1 import AppTest

# Hypothesis: random exploration on a developer's machine (failures are saved in .hypothesis/ and
# replayed); on CI (CI=true, a clean clone) the same derandomized examples every run, so a red build is
# reproducible and never a new random draw. Loaded before the test modules build their settings objects,
# which inherit it.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "zh", "ko")


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
