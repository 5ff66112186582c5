"""What keeps ranx's numba compilations few (tests/conftest.py ``GROUP_MARKERS``; ``ranx_ids`` in
tests/metrics/conftest.py): every test that calls ranx carries the ``ranx`` marker, and every function that
builds a ranx ``Qrels`` or ``Run`` renames its document ids with ``ranx_ids`` first.

Without them a fresh venv JIT-compiles the same functions on two workers at once, and once more for every
width of document id; the suite would still pass, only slower, so nothing else notices.
"""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from tests.conftest import GROUP_MARKERS

TESTS = Path(__file__).resolve().parent

#: A call into ranx: ``ranx.evaluate(``, ``from ranx import``, a test helper such as ``_ranx(`` or
#: ``_check_ranx(``.  ``ties="ranx"`` (our own tie rule, no ranx call) does not match.
CALLS_RANX = re.compile(r"\bimport ranx\b|\bfrom ranx\b|\branx\.\w+\(|_ranx\(")


@functools.cache
def _modules() -> tuple[tuple[Path, list[str], ast.Module], ...]:
    """Every test module: its path, lines and syntax tree (parsed once)."""
    paths = sorted(TESTS.rglob("test_*.py"))
    return tuple((p, (text := p.read_text(encoding="utf-8")).splitlines(), ast.parse(text)) for p in paths)


def _source(lines: list[str], node: ast.AST) -> str:
    """The lines of `node` (ast.get_source_segment re-splits the whole file on every call)."""
    return "\n".join(lines[node.lineno - 1:node.end_lineno])


def _marks(nodes) -> set[str]:
    """The ``pytest.mark.NAME`` names among decorators or a ``pytestmark`` value."""
    return {n.attr for node in nodes for n in ast.walk(node)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute) and n.value.attr == "mark"}


def ranx_tests() -> dict[str, bool]:
    """Every test function whose body calls ranx -> whether it carries the ``ranx`` marker."""
    found = {}
    for path, lines, tree in _modules():
        module_marks = _marks(n.value for n in tree.body if isinstance(n, ast.Assign)
                              and any(getattr(t, "id", None) == "pytestmark" for t in n.targets))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_") \
                    and CALLS_RANX.search(_source(lines, node)):
                key = f"{path.relative_to(TESTS.parent)}::{node.name}"
                found[key] = "ranx" in module_marks | _marks(node.decorator_list)
    return found


def test_every_test_that_calls_ranx_is_in_the_ranx_group():
    found = ranx_tests()
    assert "tests/metrics/test_crosscheck.py::test_ranx_ndcg_and_ndcg_burges" in found  # the scan sees calls
    assert "tests/metrics/test_ndcg.py::test_ranx_tie_rule_reproduces_numba_beyond_15_items" not in found
    unmarked = [name for name, marked in found.items() if not marked]
    assert not unmarked, f"tests that call ranx without @pytest.mark.ranx: {unmarked}"


def test_every_ranx_qrels_and_run_gets_fixed_width_ids():
    building, without = [], []
    for path, lines, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and re.search(r"\b(Qrels|Run)\(", body := _source(lines, node)):
                building.append(f"{path.name}::{node.name}")
                if "ranx_ids(" not in body:
                    without.append(building[-1])
    assert "test_crosscheck.py::test_ranx_ndcg_and_ndcg_burges" in building
    assert not without, f"ranx Qrels/Run built without ranx_ids: {without}"


def test_group_markers_are_registered(request):
    registered = {line.split(":")[0] for line in request.config.getini("markers")}
    assert set(GROUP_MARKERS) <= registered
