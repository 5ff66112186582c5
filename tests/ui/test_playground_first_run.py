"""A browser's first run of the playground stops after its numbers and cards (ui.playground.defer_rest):
only the first run of a session, only with a browser behind it (AppTest and other clients get the whole page
at once); the stopped run's link problems are shown again with the rest (carry_problems).  The browser side
(the component asks for the rest once its numbers are painted) is tested in
tests/browser/test_playground_cards.py."""
from __future__ import annotations

import types

import pytest

from ui import playground as PG
from ui import state as S


@pytest.fixture
def browser_headers(monkeypatch):
    def use(headers):
        monkeypatch.setattr(PG.st, "context", types.SimpleNamespace(headers=headers))
    return use


def test_only_a_browsers_first_run_is_deferred(browser_headers):
    browser_headers({"User-Agent": "Mozilla/5.0"})
    state = {}
    assert PG.defer_rest(state) is True
    assert PG.defer_rest(state) is False and PG.defer_rest(state) is False  # every later run: the whole page


@pytest.mark.parametrize("headers", [{}, {"User-Agent": ""}])
def test_without_a_browser_the_whole_page_comes_at_once(browser_headers, headers):
    browser_headers(headers)
    assert PG.defer_rest({}) is False


class Stopped(Exception):
    pass


def test_the_stopped_runs_link_problems_come_back_once(monkeypatch):
    def stop():
        raise Stopped

    monkeypatch.setattr(PG.st, "stop", stop)
    session, query = {}, {"rels": "3,2", "k": "abc"}
    first = S.PageState("playground", PG.FIELDS, session=session, query=query)
    assert [p.name for p in first.problems] == ["k"]
    with pytest.raises(Stopped):
        PG.stop_for_now(first, session)
    # the widgets' keys leave the session (their widgets were not drawn); the page state keeps their values
    assert "pg_rels" not in session and query == {"rels": "3,2"}
    again = S.PageState("playground", PG.FIELDS, session=session, query=query)
    assert session["pg_rels"] == "3, 2"
    assert again.problems == []  # the link is no news to the page state any more
    PG.carry_problems(again, session)
    assert [p.name for p in again.problems] == ["k"]
    later = S.PageState("playground", PG.FIELDS, session=session, query=query)
    PG.carry_problems(later, session)
    assert later.problems == []
