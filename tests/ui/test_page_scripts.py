"""Every page script is thin and goes through one helper (issue 38, item 5).

What a page script may hold is layout and wiring: at most 150 lines, no function (no ``def``, ``class`` or
``lambda``: logic lives in ``ui/pages/<key>``), and the lines every page used to repeat (the page state, the
title, the link's problems, the link box, ``finish``) come from :func:`ui.shell.page`.  The naming rule of
docs/TEAM_BRIEF.md (Layout) is checked against app.py's PAGES, the one list of pages.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ui.shell
from tests.conftest import no_exceptions
from tests.conftest import open_page as open_app

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 150
#: Pages whose logic shares one package: the classroom's teacher (``class``) and student (``join``) sides.
SHARED = {"class": "classroom", "join": "classroom"}
#: What the helper does; a page script that still does it itself has not gone through it.
REPEATED = ("PageState", "show_link_problems", "copy_link", "link_for", "finish")


def app_pages() -> list[tuple[str, str]]:
    """(script, key) of every entry of app.py's PAGES, read from its source (importing app.py would run it)."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "PAGES" for t in node.targets):
            return [(e.elts[0].value, e.elts[1].value) for e in node.value.elts]
    raise AssertionError("app.py has no PAGES list")


PAGES = app_pages()


def test_app_lists_every_page_script():
    # a script in pages/ that app.py does not list would escape every check below (and the navigation)
    assert sorted(script for script, _ in PAGES) == sorted(f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py"))
    assert len(PAGES) == 14  # hand count of the pages the README lists: 8 NDCG, 3 other, run files, 2 classroom


@pytest.mark.parametrize("script, key", PAGES, ids=[k for _, k in PAGES])
def test_page_script_is_thin(script, key):
    source = (ROOT / script).read_text(encoding="utf-8")
    lines = source.count("\n") + (not source.endswith("\n"))
    assert lines <= MAX_LINES, f"{script}: {lines} lines (at most {MAX_LINES}: move logic to ui/pages/{key})"
    tree = ast.parse(source)
    defined = [f"{type(n).__name__} at line {n.lineno}" for n in ast.walk(tree)
               if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda)]
    assert not defined, f"{script} defines {defined}: functions belong in ui/pages/{key}"
    called = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
              for n in ast.walk(tree) if isinstance(n, ast.Call)}
    # a page that asks the helper not to warn about the link under the title (problems=False) warns elsewhere
    own = {"show_link_problems"} if "problems=False" in ast.unparse(tree) else set()
    repeated = called & (set(REPEATED) - own)
    assert not repeated, f"{script} calls {sorted(repeated)} itself: ui.shell.page does"


@pytest.mark.parametrize("script, key", PAGES, ids=[k for _, k in PAGES])
def test_page_script_is_one_with_page_block(script, key):
    """The script's layout is the block of one ``with page(...) as p:`` at its top level -- except the
    playground's, a fragment (a function, so in ui/pages/playground/view.py), whose script calls
    ``open_page`` outside it; its function's own ``with page(..., opened=True)`` is checked here too."""
    tree = ast.parse((ROOT / script).read_text(encoding="utf-8"))
    if key == "playground":
        from ui.pages.playground import view

        tree = ast.parse(Path(view.__file__).read_text(encoding="utf-8"))
        fragment = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "playground")
        assert any(isinstance(d, ast.Attribute) and d.attr == "fragment" for d in fragment.decorator_list)
        body = fragment.body
    else:
        body = tree.body
    blocks = [n for n in body if isinstance(n, ast.With)
              and any(isinstance(i.context_expr, ast.Call) and getattr(i.context_expr.func, "id", "") == "page"
                      for i in n.items)]
    assert len(blocks) == 1, f"{script}: {len(blocks)} top-level `with page(...)` blocks, expected one"
    (item,) = blocks[0].items
    assert isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == "p"


@pytest.mark.parametrize("script, key", PAGES, ids=[k for _, k in PAGES])
def test_page_logic_follows_the_naming_rule(script, key):
    home = SHARED.get(key, key)
    module, package = ROOT / "ui" / "pages" / f"{home}.py", ROOT / "ui" / "pages" / home / "__init__.py"
    assert module.is_file() != package.is_file(), f"{key}: expected ui/pages/{home}.py or ui/pages/{home}/"
    imported = {n.module for n in ast.walk(ast.parse((ROOT / script).read_text(encoding="utf-8")))
                if isinstance(n, ast.ImportFrom) and n.module}
    # either `from ui.pages import <home>` or `from ui.pages.<home>[.x] import ...`
    names = {a.name for n in ast.walk(ast.parse((ROOT / script).read_text(encoding="utf-8")))
             if isinstance(n, ast.ImportFrom) and n.module == "ui.pages" for a in n.names}
    assert home in names or any(m == f"ui.pages.{home}" or m.startswith(f"ui.pages.{home}.") for m in imported), (
        f"{script} does not import its logic from ui.pages.{home}")


def test_ui_pages_holds_only_pages():
    """Nothing but a page's logic under ui/pages: every module or package there is named after a page."""
    homes = {SHARED.get(key, key) for _, key in PAGES}
    found = {p.stem for p in (ROOT / "ui" / "pages").iterdir()
             if p.name != "__init__.py" and (p.suffix == ".py" or (p / "__init__.py").is_file())}
    assert found == homes


def test_every_page_runs_through_the_helper():
    """Run every page of the app once, in one session, in app.py's order: each run went through ui.shell.page
    with the page's own key, and none raised."""
    before = dict(ui.shell.PAGE_RUNS)
    at = open_app(PAGES[0][0])
    no_exceptions(at)
    for script, _ in PAGES[1:]:
        at.switch_page(script)
        at.run()
        no_exceptions(at)
    ran = {key: ui.shell.PAGE_RUNS[key] - before.get(key, 0) for _, key in PAGES}
    assert all(n >= 1 for n in ran.values()), f"pages that did not go through ui.shell.page: {ran}"
