"""trec_eval's measures for every query of every run, from qrels and run tables, and trec_eval's output:
the one :func:`metrics.runfiles.evaluate` named as trec_eval names its options.

:func:`evaluate_measures` is the API (a pandas DataFrame ``run, measure, qid, value``, ``qid == "all"``
for trec_eval's summary); :func:`evaluate_runs` returns the whole :class:`MeasureResult` (values,
the run tags, relstrings, problems) and :meth:`MeasureResult.text` prints it exactly as trec_eval
does (``measure<TAB>qid<TAB>value``, the name padded to 22 characters, 4 decimals, counts as whole
numbers), so that ``diff`` against trec_eval's output is empty.

What trec_eval 9 does, and so do we (``form_res_rels.c``, ``trec_eval.c``, ``meas_avg.c``):

* only queries in the qrels are evaluated, and of those only the ones the run answers; ``complete``
  (``-c``) divides the means by the number of qrels queries instead (missing queries count 0, and
  0.00001 in geometric means), ``num_q`` is that number and ``num_rel`` counts the qrels lines graded
  > 0 of every query (``m_num_q.c``, ``m_num_rel.c``) -- trec_eval 9 does not print per-query lines
  for the missing queries;
* a query's documents are ranked by score, descending, ties by document id descending (byte order);
  ``max_docs`` (``-M``) keeps the first N; ``judged_only`` (``-J``) then drops the documents the qrels
  do not judge (a grade >= 0);
* grades are whole numbers (trec_eval reads them with ``atol``: 1.7 counts as 1, with a warning
  here); a negative grade marks a pooled but unjudged document (infAP's sampling): never relevant,
  and ignored by bpref and infAP like a document outside the pool;
* ``relevance_level`` (``-l``) is the lowest relevant grade; ndcg, ndcg_cut and relstring use the
  grades themselves.  Levels below 0 (allowed by trec_eval, where they make documents outside the pool
  relevant in some measures and not in others) are refused.

>>> from metrics.runfiles.read import read_qrels, read_run
>>> qrels = read_qrels(b"q1 0 a 2\\nq1 0 b 0\\nq1 0 c 1\\nq2 0 a 1\\n", name="qrels").table
>>> run = read_run(b"q1 Q0 b 1 0.9 bm25\\nq1 Q0 a 2 0.8 bm25\\nq1 Q0 x 3 0.7 bm25\\n", name="bm25").table
>>> print(evaluate_runs(qrels, [run], ["num_rel_ret", "P.2", "map"]).text(per_query=True))
num_rel_ret           \tq1\t1
map                   \tq1\t0.2500
P_2                   \tq1\t0.5000
num_rel_ret           \tall\t1
map                   \tall\t0.2500
P_2                   \tall\t0.5000

q2 is judged but not answered: without ``-c`` it is left out; with it, the means halve.

>>> frame = evaluate_measures(qrels, [run], ["map"], complete=True)
>>> frame[frame.qid == "all"][["measure", "value"]].to_dict("records")
[{'measure': 'map', 'value': 0.125}]
"""
from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from .engine import RunValues, trec_order
from .options import check_options
from .result import Result, evaluate, format_value

__all__ = ["MeasureResult", "RunValues", "check_options", "evaluate_measures", "evaluate_runs", "format_value",
           "trec_order"]  # RunValues, trec_order, check_options, format_value: where they were (spark.py reads them)

#: trec_eval's measures for several runs: the engine's one result type (:class:`metrics.runfiles.result.Result`).
MeasureResult = Result


def evaluate_runs(qrels, runs: Sequence, measures: Sequence[str] = ("official",), *, relevance_level: int = 1,
                  complete: bool = False, judged_only: bool = False, max_docs: int | None = None,
                  num_docs_in_coll: int = 0, err_gmax: float | None = None) -> MeasureResult:
    """trec_eval's measures (and the extras) for each run against the qrels.

    Parameters
    ----------
    qrels : Table or Parsed
        From :func:`metrics.runfiles.read.read_qrels`.
    runs : sequence of Table or Parsed
        From :func:`metrics.runfiles.read.read_run`; their names must be distinct.
    measures : sequence of str, default ("official",)
        trec_eval ``-m`` arguments: ``"map"``, ``"P.5,10"``, ``"ndcg.1=0,2=1"``, ``"all_trec"``, ...
        (:func:`metrics.runfiles.measures.parse_measures`).
    relevance_level : int, default 1
        ``-l``: the lowest relevant grade (>= 0).
    complete : bool, default False
        ``-c``: average over every qrels query (missing ones count 0).
    judged_only : bool, default False
        ``-J``: drop the documents the qrels do not judge before evaluating.
    max_docs : int, optional
        ``-M``: evaluate only the first N documents of each query.
    num_docs_in_coll : int, default 0
        ``-N``: documents in the collection (utility's fourth coefficient).
    err_gmax : float, optional
        The highest grade of the scale for ERR (default: the highest grade in the qrels).

    Returns
    -------
    MeasureResult
        ``.frame()`` (the DataFrame of :func:`evaluate_measures`), ``.text(per_query=...)`` (trec_eval's
        output), ``.summary(run)``, ``.runs`` (per-query arrays), ``.problems``.

    Raises
    ------
    ValueError
        For an unknown or malformed measure, tables of the wrong kind, a single run not in a list,
        repeated run names, or an invalid option (naming it and the value).

    See Also
    --------
    evaluate_measures : the same as a DataFrame.

    References
    ----------
    .. [1] trec_eval 9.0.8: ``trec_eval.c`` (options), ``form_res_rels.c`` (ranking), ``meas_avg.c``
       (the "all" line), and each measure's ``m_*.c`` (see :data:`metrics.runfiles.measures.MEASURES`).

    Examples
    --------
    Two documents retrieved, one relevant at rank 2 of the 2 relevant ones: P@1 = 0, recall@2 = 1/2.

    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> qrels = read_qrels(b"q 0 a 1\\nq 0 b 1\\n").table
    >>> run = read_run(b"q Q0 x 1 2 r\\nq Q0 a 2 1 r\\n").table
    >>> result = evaluate_runs(qrels, [run], ["P.1", "recall.2"])
    >>> result.summary(result.runs[0])
    {'P_1': 0.0, 'recall_2': 0.5}
    """
    return evaluate(qrels, runs, measures, relevance_level=relevance_level, complete=complete,
                    judged_only=judged_only, max_docs=max_docs, num_docs_in_coll=num_docs_in_coll, err_gmax=err_gmax)


def evaluate_measures(qrels, runs: Sequence, measures: Sequence[str] = ("official",), *, relevance_level: int = 1,
                      complete: bool = False, judged_only: bool = False, max_docs: int | None = None,
                      num_docs_in_coll: int = 0, err_gmax: float | None = None) -> pd.DataFrame:
    """Per-query values and means of the chosen measures: columns ``run, measure, qid, value``.

    ``measure`` is the name trec_eval prints (``P_5``, ``ndcg_cut_10``, ``map``); rows with
    ``qid == "all"`` hold the summary (mean, sum for num_*, geometric mean for gm_*), as trec_eval's
    ``all`` lines.  Options as for :func:`evaluate_runs` (trec_eval's -l, -c, -J, -M, -N).

    Parameters
    ----------
    qrels, runs, measures, relevance_level, complete, judged_only, max_docs, num_docs_in_coll, err_gmax
        As for :func:`evaluate_runs`.

    Returns
    -------
    pandas.DataFrame
        Columns ``run``, ``measure``, ``qid``, ``value``.

    Raises
    ------
    ValueError
        As for :func:`evaluate_runs`.

    Examples
    --------
    q1's relevant a is first (1/1); q2's relevant b comes after x (1/2); the mean is 0.75:

    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> qrels = read_qrels(b"q1 0 a 1\\nq2 0 b 1\\n").table
    >>> run = read_run(b"q1 Q0 a 1 2 r\\nq2 Q0 x 1 2 r\\nq2 Q0 b 2 1 r\\n", name="r").table
    >>> evaluate_measures(qrels, [run], ["recip_rank"]).to_dict("records")  # 1/1, 1/2, mean 0.75
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'run': 'r', 'measure': 'recip_rank', 'qid': 'q1', 'value': 1.0},
     {'run': 'r', 'measure': 'recip_rank', 'qid': 'q2', 'value': 0.5},
     {'run': 'r', 'measure': 'recip_rank', 'qid': 'all', 'value': 0.75}]
    """
    return evaluate_runs(qrels, runs, measures, relevance_level=relevance_level, complete=complete,
                         judged_only=judged_only, max_docs=max_docs, num_docs_in_coll=num_docs_in_coll,
                         err_gmax=err_gmax).frame()
