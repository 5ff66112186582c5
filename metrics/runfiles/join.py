"""Join a run with the qrels: each run row's query (as a qrels query) and the value of its qrels row.

One join for both engines (:mod:`metrics.runfiles.batch` for NDCG variants, :mod:`metrics.runfiles.trec`
for trec_eval's measures): query ids are matched through their dictionaries; document ids by integer
packing or dictionary codes (numpy), or, for large files, byte by byte per query (numba kernels in
:mod:`metrics.runfiles._kernels`).

>>> from metrics.runfiles.read import read_qrels, read_run
>>> qrels = read_qrels(b"q1 0 a 3\\nq1 0 b 0\\nq2 0 a 1\\n").table
>>> run = read_run(b"q1 Q0 b 1 0.9 r\\nq1 Q0 x 2 0.5 r\\nq9 Q0 a 1 0.5 r\\n").table
>>> m = match_rows(qrels, run, values=qrels.value + 10)
>>> m.q.tolist(), m.value.tolist(), m.kept.tolist(), m.foreign.tolist()
([0, 0], [10.0, 0.0], [0, 1], [2])
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._kernels import lookup_grades, lookup_grades_by_string, use_numba
from .read import Table, as_dictionary, id_strings, pack8, string_buffers

__all__ = ["Matched", "lookup_ids", "match_rows"]


@dataclass
class Matched:
    """The run rows whose query is in the qrels.

    ``q``: the qrels query (a code of ``qrels.qid.dictionary``) of each kept row; ``value``: the given
    value of the row's qrels line, 0 when the qrels do not judge the document; ``kept``: the kept
    rows' indices in the run, None when every row is kept; ``foreign``: rows of queries the qrels lack.
    """

    q: np.ndarray
    value: np.ndarray
    kept: np.ndarray | None
    foreign: np.ndarray

    @property
    def rows(self) -> np.ndarray | None:
        return self.kept


def lookup_ids(needles: pa.Array, haystack: pa.Array) -> np.ndarray:
    """Index of each needle in haystack (distinct ids), -1 when absent.

    Short ids (at most 8 bytes) are packed into integers and looked up with a pandas index;
    longer ones with pyarrow's ``index_in``.

    Parameters
    ----------
    needles : pyarrow.Array
        The ids to find.
    haystack : pyarrow.Array
        Distinct ids.

    Returns
    -------
    numpy.ndarray of int64
        One index per needle.

    Examples
    --------
    >>> lookup_ids(pa.array(["b", "z"]), pa.array(["a", "b"])).tolist()
    [1, -1]
    """
    a, b = pack8(needles), pack8(haystack)
    if a is not None and b is not None:
        return pd.Index(b).get_indexer(a).astype(np.int64)
    return pc.index_in(needles, value_set=haystack).fill_null(-1).to_numpy().astype(np.int64)


def match_rows(qrels: Table, run: Table, *, values: np.ndarray) -> Matched:
    """Match a run's rows to the qrels; ``values`` holds one number per qrels row (0 = "not judged").

    Rows of the qrels whose value is 0 are left out of the lookup (they would give 0 anyway).

    Parameters
    ----------
    qrels : Table
        The qrels (:func:`metrics.runfiles.read.read_qrels`).
    run : Table
        One run (:func:`metrics.runfiles.read.read_run`).
    values : numpy.ndarray of float
        One number per qrels row (its grade, or a code): what each matched run row gets.

    Returns
    -------
    Matched
        ``q`` (qrels query code of each kept row), ``value``, ``kept`` (None: every row kept) and
        ``foreign`` (rows of queries the qrels lack).

    Raises
    ------
    ValueError
        If ``values`` does not hold one number per qrels row.

    Examples
    --------
    Run rows: (q1, b), (q1, x), (q9, a).  q9 is not in the qrels (foreign); b is judged 0, x not
    at all: both get 0.  Grade 2 for (q1, a) would be found if the run had it:

    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> qrels = read_qrels(b"q1 0 a 2\\nq1 0 b 0\\n").table
    >>> run = read_run(b"q1 Q0 b 1 0.9 r\\nq1 Q0 x 2 0.5 r\\nq9 Q0 a 1 0.5 r\\n").table
    >>> m = match_rows(qrels, run, values=qrels.value)
    >>> m.value.tolist(), m.kept.tolist(), m.foreign.tolist()
    ([0.0, 0.0], [0, 1], [2])
    >>> match_rows(qrels, read_run(b"q1 Q0 a 1 0.9 r\\n").table, values=qrels.value).value.tolist()
    [2.0]
    """
    values = np.asarray(values, dtype=np.float64)
    if values.shape != (qrels.n_rows,):
        raise ValueError(f"values must hold one number per qrels row ({qrels.n_rows}), got shape {values.shape}")
    nq = len(qrels.qid.dictionary)
    qq = qrels.qid.indices.to_numpy().astype(np.int64)
    run_q = pc.index_in(run.qid.dictionary, value_set=qrels.qid.dictionary).fill_null(-1).to_numpy()
    rq = run_q.astype(np.int64)[run.qid.indices.to_numpy()]
    kept = np.flatnonzero(rq >= 0)
    all_kept = kept.size == rq.size
    q = rq if all_kept else rq[kept]
    judged_rows = np.flatnonzero(values != 0)
    if use_numba(run.n_rows):
        # Compare document ids as bytes, query by query: nothing to dictionary-encode.
        rdata, roffsets = string_buffers(id_strings(run.docno))
        jdata, joffsets = string_buffers(id_strings(qrels.docno).take(pa.array(judged_rows)))
        value = lookup_grades_by_string(rq, rdata, roffsets, qq[judged_rows], jdata, joffsets, values[judged_rows], nq)
        if not all_kept:
            value = value[kept]
    else:
        run_docno, qrels_docno = as_dictionary(run.docno), as_dictionary(qrels.docno)
        ndocs = len(run_docno.dictionary)
        # qrels documents as codes of the run's document dictionary (-1: never retrieved by this run)
        qd = lookup_ids(qrels_docno.dictionary, run_docno.dictionary)
        qdoc = qd[qrels_docno.indices.to_numpy()]
        judged_rows = judged_rows[qdoc[judged_rows] >= 0]
        docs = run_docno.indices.to_numpy()
        if not all_kept:
            docs = docs[kept]
        value = lookup_grades(q, docs, ndocs, qq[judged_rows], qdoc[judged_rows], values[judged_rows], nq)
    return Matched(q, value, None if all_kept else kept, np.flatnonzero(rq < 0))
