"""trec_eval's measures for every query of every run, from qrels and run tables, and trec_eval's output.

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

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._validation import check_flag, check_real, check_whole
from .engine import (
    QrelsCounts,
    QrelsIndex,
    RunValues,
    evaluate_tables,
    per_query_frame,
    summary_value,
    trec_order,
)
from .measures import Requested, parse_measures
from .read import Parsed, Problem, Table

__all__ = ["MeasureResult", "RunValues", "check_options", "evaluate_measures", "evaluate_runs", "format_value",
           "trec_order"]

# trec_eval's printf formats (meas_print_single.c, meas_print_final.c)
_NAME_WIDTH = 22


def format_value(value, kind: str = "float", *, digits: int = 4) -> str:
    """A value as trec_eval prints it: ``%6.4f`` for measures, ``%ld`` for counts (NaN as glibc: nan / -nan).

    Parameters
    ----------
    value : float, int or str
        The value.
    kind : {"float", "long", "text"}, default "float"
        A measure, a count (num_ret, ...) or text (runid, relstring).
    digits : int, default 4
        Decimals of a float (trec_eval prints 4).

    Returns
    -------
    str
        The text trec_eval prints (a float is at least 6 characters wide).

    References
    ----------
    .. [1] trec_eval 9.0.8, ``meas_print_single.c`` and ``meas_print_final.c`` (``%6.4f``, ``%ld``).

    Examples
    --------
    >>> format_value(0.25), format_value(12.0, "long"), format_value(float("nan"))
    ('0.2500', '12', '   nan')
    """
    if kind == "long":
        return str(int(value))
    if kind == "text":
        return str(value)
    value = float(value)
    if math.isnan(value):
        return ("-nan" if math.copysign(1.0, value) < 0 else "nan").rjust(6)
    return f"{value:6.{digits}f}"


@dataclass
class MeasureResult:
    """trec_eval's measures for several runs; see :func:`evaluate_runs`."""

    queries: np.ndarray
    requested: list[Requested]
    runs: list[RunValues]
    complete: bool
    problems: list[Problem] = field(default_factory=list)
    counts: QrelsCounts | None = None  # the qrels' queries and lines graded > 0 (what -c counts)

    def summary(self, run: RunValues) -> dict[str, float | str]:
        """The "all" values of one run, computed as trec_eval does (``meas_avg.c``; with ``-c``, num_q and
        num_rel over every qrels query: ``m_num_q.c``, ``m_num_rel.c``); empty when no query was evaluated
        -- except ir_measures' measures, which ir_measures averages even then (every qrels query counts 0)."""
        present = run.present
        n = int(present.sum())
        counts = self.counts if self.counts is not None else QrelsCounts(self.queries.size, 0)
        out: dict[str, float | str] = {}
        for r in self.requested:
            kind = r.summary
            if n == 0 and r.info.origin != "ir_measures":
                continue
            if kind == "runid":
                out["runid"] = run.tag
                continue
            if kind == "none":
                continue
            for name in r.names:
                out[name] = summary_value(kind, name, run.values[name][present], n=n, complete=self.complete,
                                          counts=counts)
        return out

    def per_query(self) -> pd.DataFrame:
        """Every per-query value: ``run, measure, qid, value`` for the queries each run answered, gm_map and
        gm_bpref as the per-query logarithms of their geometric mean (what :func:`~metrics.runfiles.engine.
        evaluate_block` gives for a block of queries; text measures left out)."""
        return per_query_frame(self.queries, self.requested, self.runs)

    def frame(self) -> pd.DataFrame:
        """Long table ``run, measure, qid, value``: per-query rows for the measures trec_eval prints per
        query (not gm_map / gm_bpref), then ``qid == "all"`` rows with the summary.  Text measures
        (runid, relstring) are left out: see :attr:`RunValues.texts` and :meth:`text`."""
        parts = []
        printed = per_query_frame(self.queries, self.requested, self.runs, printed_only=True)
        for run in self.runs:
            parts.append(printed[printed["run"] == run.name])
            rows = [(run.name, name, "all", float(v)) for name, v in self.summary(run).items()
                    if not isinstance(v, str)]
            if rows:
                parts.append(pd.DataFrame(rows, columns=["run", "measure", "qid", "value"]))
        parts = [p for p in parts if len(p)]
        if not parts:
            return printed.iloc[:0]
        out = pd.concat(parts, ignore_index=True)
        return out.astype({"run": object, "measure": object, "qid": object, "value": np.float64})

    def text(self, *, per_query: bool = False, summary: bool = True, digits: int = 4) -> str:
        """trec_eval's output: with ``per_query`` (``-q``) every query's lines first, query by query in
        id order; then, unless ``summary`` is False (``-n``), the "all" lines.  Several runs are printed one
        after the other, each after a ``# run <name>`` line."""
        out = []
        for run in self.runs:
            if len(self.runs) > 1:
                out.append(f"# run {run.name}")
            out.extend(self._run_lines(run, per_query, summary, digits))
        return "\n".join(out)

    def _run_lines(self, run: RunValues, per_query: bool, summary: bool, digits: int) -> list[str]:
        lines: list[str] = []
        if per_query:
            where = np.flatnonzero(run.present)
            columns = []
            for r in self.requested:
                if not r.info.per_query:
                    continue
                for name in r.names:
                    head = name.ljust(_NAME_WIDTH) + "\t"
                    if r.info.value == "text":
                        cells = [f"'{s}'" for s in run.texts[name][where]]
                    elif r.info.value == "long":
                        cells = [str(int(v)) for v in run.values[name][where]]
                    else:
                        cells = [format_value(v, digits=digits) for v in run.values[name][where].tolist()]
                    columns.append((head, cells))
            qids = self.queries[where]
            for i, qid in enumerate(qids):
                for head, cells in columns:
                    lines.append(f"{head}{qid}\t{cells[i]}")
        if summary:
            values = self.summary(run)
            for r in self.requested:
                for name in r.names:
                    if name in values:
                        text = format_value(values[name], r.info.value, digits=digits)
                        lines.append(f"{name.ljust(_NAME_WIDTH)}\tall\t{text}")
        return lines


def _table(obj, what: str) -> Table:
    if isinstance(obj, Parsed):
        obj = obj.table
    if not isinstance(obj, Table):
        raise ValueError(f"{what} must be a table read by read_qrels / read_run (or its Parsed result), "
                         f"got {type(obj).__name__}")
    return obj


def check_options(*, relevance_level=1, judged_only=False, max_docs=None, num_docs_in_coll=0, err_gmax=None,
                  complete=None) -> dict:
    """trec_eval's options checked (``-l -J -M -N -c`` and ERR's top grade), as keyword arguments.

    Parameters
    ----------
    relevance_level, judged_only, max_docs, num_docs_in_coll, err_gmax, complete
        As for :func:`evaluate_runs` (``complete`` None: not part of the call).

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
    if complete is not None:
        out["complete"] = check_flag(complete, name="complete")
    return out


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
    requested = parse_measures(measures)
    qrels = _table(qrels, "qrels")
    if qrels.kind != "qrels":
        raise ValueError("qrels must be the table of a qrels file (read_qrels(...).table)")
    if isinstance(runs, (Table, Parsed)):
        raise ValueError("runs must be a list of run tables, not a single one")
    runs = [_table(r, f"run {i}") for i, r in enumerate(runs, start=1)]
    for i, run in enumerate(runs, start=1):
        if run.kind != "run":
            raise ValueError(f"run {i} is not the table of a run file (read_run(...).table)")
    names = [r.name for r in runs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"run names must be distinct; repeated: {', '.join(map(repr, dupes))}")
    opts = check_options(relevance_level=relevance_level, judged_only=judged_only, max_docs=max_docs,
                         num_docs_in_coll=num_docs_in_coll, err_gmax=err_gmax, complete=complete)
    qi = QrelsIndex(qrels)
    values, problems = evaluate_tables(qi, runs, requested, **opts)
    return MeasureResult(qi.queries, requested, values, opts["complete"], problems, qi.counts())


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
