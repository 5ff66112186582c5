"""Shared helpers for the metric tests: hypothesis strategies for grade lists and a tolerance."""
from __future__ import annotations

import math

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.conftest import examples

# The machine is shared: no per-example deadline.  Example counts are the ``ci`` profile's, scaled by the
# active Hypothesis profile (tests/conftest.py: dev a quarter, thorough ten times).
PROPERTY = settings(deadline=None, max_examples=examples(100), suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(deadline=None, max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])

RTOL = 1e-9  # relative tolerance for cross-checks and hand-derived values

int_grades = st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=12)
float_grades = st.lists(
    st.floats(min_value=0.0, max_value=10.0, allow_nan=False, allow_infinity=False), min_size=1, max_size=12
)
any_grades = st.one_of(int_grades, float_grades)
ks = st.one_of(st.none(), st.integers(min_value=1, max_value=15))
log_bases = st.sampled_from([2, 10, math.e, 1.5, 3, 0.5])


def close(a: float, b: float, rtol: float = RTOL) -> bool:
    """Relative closeness; exact equality for zeros (0.0 must be 0.0)."""
    return math.isclose(a, b, rel_tol=rtol, abs_tol=0.0)


#: Width of the document ids handed to ranx (see :func:`ranx_ids`).
RANX_ID_WIDTH = 8


def ranx_ids(qrels: dict, *runs: dict) -> tuple[dict, ...]:
    """`qrels` and `runs` ({query: {document: value}}) with every document id renamed to one fixed width.

    ranx keeps document ids as numpy strings, whose width (the longest id) is part of the type numba
    compiles for: every new width costs ~8 CPU-s of JIT per Qrels/Run type in a fresh venv (measured: 14 s
    for the first width, 8 for each next one).  The tests' ids come in four widths; renamed, one.  The new ids
    keep each dictionary's order and are the same across `qrels` and `runs`, and ranx orders documents by
    value (ties in input order), never by id, so every value ranx returns is unchanged.

    >>> ranx_ids({"q1": {"d1": 2, "doc-10": 1}}, {"q1": {"doc-10": 0.5, "x": 0.2}})
    ({'q1': {'00000000': 2, '00000001': 1}}, {'q1': {'00000001': 0.5, '00000002': 0.2}})
    """
    names: dict[str, str] = {}

    def rename(table: dict) -> dict:
        return {q: {names.setdefault(d, f"{len(names):0{RANX_ID_WIDTH}d}"): v for d, v in docs.items()}
                for q, docs in table.items()}

    return (rename(qrels), *map(rename, runs))
