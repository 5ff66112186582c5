"""The run-file engine: TREC qrels and runs (and CSV/TSV) read with pyarrow, every query of every
run evaluated at once with numpy (numba kernels for files of a million lines and more).

Public API: :func:`read_qrels`, :func:`read_run`, :func:`read_files` (``read``), :func:`evaluate`,
:func:`make_variants`, :func:`query_lists`, :func:`kendall_tau` (``batch``); the command line is
``python -m metrics.runfiles`` (``cli``).  Imported on demand: ``import metrics`` does not load it.
"""
from .batch import IDCG, MISSING, Evaluation, RunVariant, evaluate, kendall_tau, make_variants, query_lists
from .read import Parsed, Problem, Table, id_strings, read_files, read_qrels, read_run

__all__ = [
    "IDCG", "MISSING", "Evaluation", "Parsed", "Problem", "RunVariant", "Table", "evaluate", "id_strings",
    "kendall_tau", "make_variants", "query_lists", "read_files", "read_qrels", "read_run",
]
