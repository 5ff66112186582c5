"""Every public function in metrics/ has a numpydoc docstring that teaches (issue 14).

Public: every function named in a module's ``__all__``, in every module under ``metrics/``
(subpackages and private modules such as ``metrics/_validation.py`` included), found with
``pkgutil.walk_packages``; ``__main__`` modules are skipped (importing one runs the command line).
Each must have

* a ``Parameters`` section when it takes parameters, naming every one of them
  (``a, b : int`` names two; ``*args`` / ``**kwargs`` are named with their stars or without);
* a ``Returns`` (or ``Yields``) section;
* an ``Examples`` section with at least one ``>>>`` line.

The examples themselves run as doctests (``--doctest-modules`` collects ``metrics/``), so an
example that no longer matches the code fails the suite there.

Run as a script (``python tests/metrics/test_docs.py``) it prints every function still missing a
section and the counts.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from types import ModuleType

import pytest

import metrics

_HEADER = re.compile(r"^([A-Z][A-Za-z ]+)\n-{3,}[ \t]*$", re.MULTILINE)


def _modules() -> list[ModuleType]:
    found = [metrics]
    for info in pkgutil.walk_packages(metrics.__path__, prefix="metrics."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        found.append(importlib.import_module(info.name))
    return found


def _public_functions() -> dict[str, object]:
    """``"module.name"`` (where the function is defined) -> function, each function once."""
    out: dict[str, object] = {}
    seen: set[int] = set()
    for module in _modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not inspect.isfunction(obj) or id(obj) in seen:
                continue
            seen.add(id(obj))
            out[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return out


def sections(doc: str) -> dict[str, str]:
    """numpydoc sections of a (dedented) docstring: title -> body text up to the next title.

    >>> sorted(sections("Sum.\\n\\nParameters\\n----------\\nx : int\\n\\nReturns\\n-------\\nint\\n"))
    ['Parameters', 'Returns']
    """
    heads = list(_HEADER.finditer(doc))
    return {m.group(1).strip(): doc[m.end(): heads[i + 1].start() if i + 1 < len(heads) else len(doc)]
            for i, m in enumerate(heads)}


def documented_names(parameters_body: str) -> set[str]:
    """Parameter names of a Parameters section: the unindented lines, ``a, b : type`` naming a and b.

    >>> sorted(documented_names("k : int\\n    The cutoff.\\nrelevances, pool\\n    Grades.\\n*args\\n"))
    ['args', 'k', 'pool', 'relevances']
    """
    names: set[str] = set()
    for line in parameters_body.splitlines():
        if not line.strip() or line[0].isspace():
            continue
        for part in line.split(" : ", 1)[0].split(","):
            names.add(part.strip().lstrip("*"))
    return names


def problems(func) -> list[str]:
    """What ``func``'s docstring lacks (empty when it is complete)."""
    doc = inspect.getdoc(func) or ""
    found = sections(doc)
    params = [p.name for p in inspect.signature(func).parameters.values()]
    missing = []
    if params and "Parameters" not in found:
        missing.append("Parameters")
    elif params:
        undocumented = [p for p in params if p not in documented_names(found["Parameters"])]
        if undocumented:
            missing.append(f"Parameters entry for {', '.join(undocumented)}")
    if "Returns" not in found and "Yields" not in found:
        missing.append("Returns")
    if ">>>" not in found.get("Examples", ""):
        missing.append("Examples with a doctest")
    return missing


PUBLIC = _public_functions()


def test_every_module_is_walked():
    """The walk reaches subpackages and private modules, and finds the functions they export."""
    names = {m.__name__ for m in _modules()}
    for expected in ("metrics.ndcg", "metrics._validation", "metrics._numbers", "metrics.runfiles._kernels",
                     "metrics.other.topn", "metrics.lessons.match", "metrics.significance"):
        assert expected in names
    assert "metrics.runfiles.__main__" not in names
    assert "metrics.ndcg.ndcg" in PUBLIC and "metrics._validation.check_k" in PUBLIC
    assert len(PUBLIC) >= 100  # 145 when this test was written: a broken walk cannot pass quietly


def test_problems_sees_a_missing_section():
    def half_documented(x, *, k=None):
        """Something.

        Parameters
        ----------
        x : int
            A number.

        Returns
        -------
        int
        """
        return x

    assert problems(half_documented) == ["Parameters entry for k", "Examples with a doctest"]


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_numpydoc_sections(name):
    assert problems(PUBLIC[name]) == [], f"{name}: docstring lacks {problems(PUBLIC[name])}"


if __name__ == "__main__":
    missing = {name: problems(func) for name, func in sorted(PUBLIC.items())}
    for name, what in missing.items():
        if what:
            print(f"{name}: {'; '.join(what)}")
    bad = sum(1 for what in missing.values() if what)
    print(f"{len(PUBLIC) - bad} of {len(PUBLIC)} public functions documented; {bad} missing a section")
