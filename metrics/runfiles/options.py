"""The run-file engine's checks, once: trec_eval's options and the qrels and run tables every entry point takes.

:func:`check_options` (``-l -J -M -N -c`` and ERR's top grade) and :func:`check_tables` (a qrels table and
a list of run tables with distinct names) are what :func:`metrics.runfiles.evaluate` -- and through it the
command line, the Run files page, the blocks of a cluster and Spark -- accept; the numbers themselves are
checked by :mod:`metrics._validation` (the one validation module) after :mod:`metrics.parse` (the one
number grammar) read them from text.  Nothing here imports the engine, so the engine, the result and
the entry points all import it (no import cycle).

>>> check_options(max_docs=10)["max_docs"]
10
"""
from __future__ import annotations

from collections.abc import Sequence

from .._validation import check_flag, check_real, check_whole
from .read import Parsed, Table

__all__ = ["MAX_CUTOFF", "MAX_WHOLE", "check_options", "check_tables"]

#: The largest whole number trec_eval's options take (-l, -M, -N): far beyond any collection, inside int64.
MAX_WHOLE = 10**15
#: The largest cutoff (``--k``, ``P.k``, ``nDCG@k``): what the ``-m`` grammar accepts.
MAX_CUTOFF = 10**12


def check_options(*, relevance_level=1, judged_only=False, max_docs=None, num_docs_in_coll=0, err_gmax=None,
                  complete=None) -> dict:
    """trec_eval's options checked (``-l -J -M -N -c`` and ERR's top grade), as keyword arguments.

    Parameters
    ----------
    relevance_level : int, default 1
        ``-l``: the lowest relevant grade, a whole number from 0 to :data:`MAX_WHOLE`.
    judged_only : bool, default False
        ``-J``.
    max_docs : int, optional
        ``-M``: from 1 to :data:`MAX_WHOLE`, or None (every document).
    num_docs_in_coll : int, default 0
        ``-N``: from 0 to :data:`MAX_WHOLE`.
    err_gmax : float, optional
        ERR's top grade, a finite number >= 0, or None (the qrels' highest grade).
    complete : bool, optional
        ``-c``; None: not part of the call (not in the result).

    Returns
    -------
    dict
        The options by name, as int / bool / float.

    Raises
    ------
    ValueError
        Naming the option and the value.

    Examples
    --------
    >>> check_options(max_docs=10)["max_docs"]
    10
    >>> check_options(relevance_level=-1)
    Traceback (most recent call last):
    ...
    ValueError: relevance_level must be a whole number >= 0, got -1
    """
    out = {"relevance_level": check_whole(relevance_level, name="relevance_level", minimum=0),
           "judged_only": check_flag(judged_only, name="judged_only"),
           "max_docs": check_whole(max_docs, name="max_docs", minimum=1, allow_none=True),
           "num_docs_in_coll": check_whole(num_docs_in_coll, name="num_docs_in_coll", minimum=0),
           "err_gmax": check_real(err_gmax, name="err_gmax", minimum=0, allow_none=True)}
    for name in ("relevance_level", "max_docs", "num_docs_in_coll"):  # beyond int64: numpy's OverflowError
        if out[name] is not None and out[name] > MAX_WHOLE:
            raise ValueError(f"{name} must be at most 10^15, got {out[name]}")
    if complete is not None:
        out["complete"] = check_flag(complete, name="complete")
    return out


def _table(obj, what: str, kind: str) -> Table:
    if isinstance(obj, Parsed):
        obj = obj.table
    reader = "read_qrels" if kind == "qrels" else "read_run"
    if not isinstance(obj, Table):
        raise ValueError(f"{what} must be a table read by {reader} (or its Parsed result), got {type(obj).__name__}")
    if obj.kind != kind:
        raise ValueError(f"{what} is not the table of a {kind} file ({reader}(...).table)")
    return obj


def check_tables(qrels, runs: Sequence) -> tuple[Table, list[Table]]:
    """The qrels table and the run tables, checked: the right kinds, a list of runs, distinct run names.

    Parameters
    ----------
    qrels : Table or Parsed
        From :func:`metrics.runfiles.read.read_qrels`.
    runs : sequence of Table or Parsed
        From :func:`metrics.runfiles.read.read_run`.

    Returns
    -------
    tuple of (Table, list of Table)

    Raises
    ------
    ValueError
        For a table of the wrong kind, a single run not in a list, or repeated run names.

    Examples
    --------
    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> q = read_qrels(b"q 0 a 1\\n")
    >>> r = read_run(b"q Q0 a 1 1 r\\n", name="r")
    >>> qrels, runs = check_tables(q, [r])
    >>> qrels.kind, [t.name for t in runs]
    ('qrels', ['r'])
    >>> check_tables(q, [r, r])
    Traceback (most recent call last):
    ...
    ValueError: run names must be distinct; repeated: 'r'
    """
    qrels = _table(qrels, "qrels", "qrels")
    if isinstance(runs, (Table, Parsed)):
        raise ValueError("runs must be a list of run tables, not a single one")
    tables = [_table(r, f"run {i}", "run") for i, r in enumerate(runs, start=1)]
    names = [t.name for t in tables]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"run names must be distinct; repeated: {', '.join(map(repr, dupes))}")
    return qrels, tables
