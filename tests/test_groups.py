"""The xdist groups of tests/conftest.py: every test that calls ranx carries the ``ranx`` marker.

Without it, two workers of a fresh venv JIT-compile ranx's numba functions at the same time (conftest's
``GROUP_MARKERS`` gives the measurement); the suite would still pass, only slower, so nothing else notices.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import GROUP_MARKERS

TESTS = Path(__file__).resolve().parent

#: A call into ranx: ``ranx.evaluate(``, ``from ranx import``, a test helper such as ``_ranx(`` or
#: ``_check_ranx(``.  ``ties="ranx"`` (our own tie rule, no ranx call) does not match.
CALLS_RANX = re.compile(r"\bimport ranx\b|\bfrom ranx\b|\branx\.\w+\(|_ranx\(")


def _marks(nodes) -> set[str]:
    """The ``pytest.mark.NAME`` names among decorators or a ``pytestmark`` value."""
    return {n.attr for node in nodes for n in ast.walk(node)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute) and n.value.attr == "mark"}


def ranx_tests() -> dict[str, bool]:
    """Every test function whose body calls ranx -> whether it carries the ``ranx`` marker."""
    found = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        module_marks = _marks(n.value for n in tree.body if isinstance(n, ast.Assign)
                              and any(getattr(t, "id", None) == "pytestmark" for t in n.targets))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_") \
                    and CALLS_RANX.search(ast.get_source_segment(text, node)):
                key = f"{path.relative_to(TESTS.parent)}::{node.name}"
                found[key] = "ranx" in module_marks | _marks(node.decorator_list)
    return found


def test_every_test_that_calls_ranx_is_in_the_ranx_group():
    found = ranx_tests()
    assert "tests/metrics/test_crosscheck.py::test_ranx_ndcg_and_ndcg_burges" in found  # the scan sees calls
    assert "tests/metrics/test_ndcg.py::test_ranx_tie_rule_reproduces_numba_beyond_15_items" not in found
    unmarked = [name for name, marked in found.items() if not marked]
    assert not unmarked, f"tests that call ranx without @pytest.mark.ranx: {unmarked}"


def test_group_markers_are_registered(request):
    registered = {line.split(":")[0] for line in request.config.getini("markers")}
    assert set(GROUP_MARKERS) <= registered
