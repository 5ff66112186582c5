"""The classroom pages' hostile-use guards through app.py (AppTest), issue 37: a refused proxy setting is
shown to the teacher; (more below as they land)."""
from __future__ import annotations

import pytest

from tests.classroom.conftest import db_url, pg_server  # noqa: F401 - fixtures
from tests.conftest import LANGS, no_exceptions, open_page
from ui.classroom import browser
from ui.i18n import catalogue

TEACHER, JOIN = "pages/class.py", "pages/join.py"


@pytest.fixture(autouse=True)
def database(db_url, monkeypatch):  # noqa: F811 - the fixture imported above
    monkeypatch.setenv("NDCG_LAB_DB_URL", db_url)
    return db_url


@pytest.mark.parametrize("lang", LANGS)
def test_a_proxy_count_is_refused_on_the_teachers_page(lang, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_TRUSTED_PROXIES", "1")
    at = open_page(TEACHER, lang=lang)
    no_exceptions(at)
    said = " ".join(e.value for e in at.error)
    head = catalogue(lang)["classroom.proxy_problem"].split("{message}")[0]
    assert head in said and "NDCG\\_LAB\\_TRUSTED\\_PROXIES" in said and "'1'" in said
    assert at.button(key="class_start")  # the page still works
    monkeypatch.setenv("NDCG_LAB_TRUSTED_PROXIES", "127.0.0.1, ::1")
    assert browser.proxy_problem() is None
    at = open_page(TEACHER, lang=lang)
    assert not at.error
