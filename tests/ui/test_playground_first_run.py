"""A browser's first run of the playground ends after its numbers and cards (ui.pages.playground.defer_rest):
only the first run of a session, only with a browser behind it (AppTest and other clients get the whole page
at once); the stopped run's link problems are shown again with the rest (carry_problems).  The browser side
(the component asks for the rest once its numbers are painted) is tested in
tests/browser/test_playground_cards.py."""
from __future__ import annotations

import types

import pytest

from ui import state as ui_state
from ui.pages import playground


@pytest.fixture
def browser_headers(monkeypatch):
    def use(headers):
        monkeypatch.setattr(playground.st, "context", types.SimpleNamespace(headers=headers))
    return use


def test_only_a_browsers_first_run_is_deferred(browser_headers):
    browser_headers({"User-Agent": "Mozilla/5.0"})
    state = {}
    assert playground.defer_rest(state) is True
    # every later run: the whole page
    assert (playground.defer_rest(state) is False and playground.defer_rest(state) is False)


@pytest.mark.parametrize("headers", [{}, {"User-Agent": ""}])
def test_without_a_browser_the_whole_page_comes_at_once(browser_headers, headers):
    browser_headers(headers)
    assert playground.defer_rest({}) is False


class Stopped(Exception):
    pass


def test_the_first_run_returns_never_st_stop_and_its_link_problems_come_back_once(monkeypatch):
    # st.stop() would replace the cards' waiting request for the rest with a stop (the rest never came:
    # tests/browser/test_playground_first_visit.py); the page returns after end_first_run instead.
    def stop():
        raise Stopped

    monkeypatch.setattr(playground.st, "stop", stop)
    session, query = {}, {"rels": "3,2", "k": "abc"}
    first = ui_state.PageState("playground", playground.FIELDS, session=session, query=query)
    assert [p.name for p in first.problems] == ["k"]
    assert playground.end_first_run(first, session) is None
    # the widgets' keys leave the session (their widgets were not drawn); the page state keeps their values
    assert "pg_rels" not in session and query == {"rels": "3,2"}
    again = ui_state.PageState("playground", playground.FIELDS, session=session, query=query)
    assert session["pg_rels"] == "3, 2"
    assert again.problems == []  # the link is no news to the page state any more
    playground.carry_problems(again, session)
    assert [p.name for p in again.problems] == ["k"]
    later = ui_state.PageState("playground", playground.FIELDS, session=session, query=query)
    playground.carry_problems(later, session)
    assert later.problems == []


def test_nothing_heavy_is_imported_before_the_numbers():
    # What app.py and the playground import at module level is all that loads before the first number (the
    # page imports the rest after its numbers and cards): none of the heavy libraries may be among it.
    import ast
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    modules = []
    for script in ("app.py", "pages/playground.py"):
        for node in ast.parse((root / script).read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                modules.append(node.module)
            elif isinstance(node, ast.Import):
                modules += [alias.name for alias in node.names]
    heavy = ("pandas", "pyarrow", "altair", "scipy", "sqlalchemy", "fpdf", "numba", "sklearn", "segno", "vl_convert")
    code = "; ".join(f"import {m}" for m in dict.fromkeys(modules))
    code += f"; import sys; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", (modules, out.stdout)


def test_the_components_data_do_not_make_streamlit_import_pandas():
    # Streamlit asks of each first-level value of a component's dict whether it is a data frame, and the
    # question imports pandas and pyarrow; the cards send one JSON text, which it answers at once.
    import subprocess
    import sys
    from pathlib import Path

    code = """
import json, sys
from streamlit.components.v2.bidi_component.serialization import serialize_mixed_data
from streamlit.proto.BidiComponent_pb2 import BidiComponent
from ui.components.cards import payload
from ui.ranking import Ranking
data = payload(Ranking.from_fields((3, 2, 1), (1,)), cap=40, k=None, gain="linear", discount="standard",
               base=2.0, idcg="judged", zero="zero", numbers={}, texts={}, seq=0)
proto = BidiComponent()
serialize_mixed_data({"payload": json.dumps(data)}, proto)
assert json.loads(json.loads(proto.json)["payload"]) == data
print(sorted(m for m in ("pandas", "pyarrow") if m in sys.modules))
"""
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
