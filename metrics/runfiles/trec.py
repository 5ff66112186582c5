"""trec_eval's measures for every query of every run, from qrels and run tables, and trec_eval's output.

:func:`evaluate_measures` is the API (a pandas DataFrame ``run, measure, qid, value``, ``qid == "all"``
for trec_eval's summary); :func:`evaluate_runs` returns the whole :class:`MeasureResult` (values,
the run tags, relstrings, problems) and :meth:`MeasureResult.text` prints it exactly as trec_eval
does (``measure<TAB>qid<TAB>value``, the name padded to 22 characters, 4 decimals, counts as whole
numbers), so that ``diff`` against trec_eval's output is empty.

What trec_eval 9 does, and so do we (``form_res_rels.c``, ``trec_eval.c``, ``meas_avg.c``):

* only queries in the qrels are evaluated, and of those only the ones the run answers; ``complete``
  (``-c``) divides the means by the number of qrels queries instead (missing queries count 0, and
  0.00001 in geometric means) -- trec_eval 9 does not print per-query lines for them;
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
import pyarrow as pa
import pyarrow.compute as pc

from .join import match_rows
from .measures import MIN_GEO_MEAN, UNJUDGED, Lists, Requested, block_positions, parse_measures
from .read import Parsed, Problem, Table, id_strings

__all__ = ["MeasureResult", "RunValues", "evaluate_measures", "evaluate_runs", "format_value", "trec_order"]

# trec_eval's printf formats (meas_print_single.c, meas_print_final.c)
_NAME_WIDTH = 22


@dataclass
class _Qrels:
    """The qrels as trec_eval holds them: queries sorted by id (byte order), whole-number grades."""

    queries: np.ndarray  # object[nq]: query ids, sorted
    rank: np.ndarray  # int64[dictionary size]: sorted position of each qrels dictionary code
    code_plus3: np.ndarray  # float64[rows]: code + 3 (>= 1), so that 0 means "not in the qrels"
    levels: tuple[np.ndarray, np.ndarray, np.ndarray]
    gmax: float
    problems: list[Problem]


def _qrels_index(qrels: Table) -> _Qrels:
    names = qrels.qid.dictionary
    sort = pc.array_sort_indices(names).to_numpy()
    rank = np.empty(len(names), dtype=np.int64)
    rank[sort] = np.arange(len(names))
    queries = np.asarray(names.take(pa.array(sort)).to_pylist(), dtype=object)
    grade = np.trunc(qrels.value)
    problems = []
    fractional = np.flatnonzero(grade != qrels.value)
    if fractional.size:
        i = int(fractional[0])
        problems.append(Problem(qrels.name, qrels.line_of(i), "whole_grades",
                                {"count": int(fractional.size), "grade": float(qrels.value[i]),
                                 "whole": f"{grade[i]:g}"}))
    if grade.size and np.abs(grade).max() > 2.0**62:
        i = int(np.argmax(np.abs(grade)))
        raise ValueError(f"{qrels.name} line {qrels.line_of(i)}: grade {qrels.value[i]:g} is beyond trec_eval's "
                         "whole-number range")
    grade = grade.astype(np.int64)
    code = np.where(grade >= 0, grade, UNJUDGED)
    q = rank[qrels.qid.indices.to_numpy().astype(np.int64)]
    judged = grade >= 0
    if judged.any():
        gmax = float(grade[judged].max())
        width = int(gmax) + 1
        key = q[judged] * width + grade[judged]  # < 2^62 / ... for any real qrels; counted without sorting
        if len(names) * width <= 4 * qrels.n_rows + 1_000_000:
            counts = np.bincount(key, minlength=len(names) * width)
            key = np.flatnonzero(counts)
            counts = counts[key]
        else:
            key, counts = np.unique(key, return_counts=True)
        levels = (key // width, key % width, counts.astype(np.int64))
    else:
        levels, gmax = (np.zeros(0, np.int64),) * 3, 0.0
    return _Qrels(queries, rank, (code + 3).astype(np.float64), levels, gmax, problems)


def trec_order(q: np.ndarray, score: np.ndarray, docrank) -> np.ndarray | None:
    """The permutation that ranks rows as trec_eval does: by query, score descending, then document
    id descending (``comp_sim_docno`` in ``form_res_rels.c``); None when the rows already are.

    Queries need not be in order, only contiguous.  ``docrank(rows)`` gives the byte-order rank of the
    document ids of the given rows (only tied rows are asked).

    Parameters
    ----------
    q : numpy.ndarray of int
        The query code of each row; a query's rows are contiguous.
    score : numpy.ndarray of float
        The score of each row.
    docrank : callable or None
        ``docrank(rows) -> int array``: the byte-order rank of those rows' document ids; only called
        when there are ties (None is fine when there are none).

    Returns
    -------
    numpy.ndarray of int or None
        Row indices in trec_eval's order, or None when the rows are already in it.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``form_res_rels.c``, ``comp_sim_docno``.

    Examples
    --------
    Query 0's rows are swapped (0.9 before 0.5); query 1 stays:

    >>> trec_order(np.array([0, 0, 1]), np.array([0.5, 0.9, 0.1]), None).tolist()
    [1, 0, 2]
    >>> trec_order(np.array([0, 0]), np.array([0.5, 0.5]), lambda rows: np.array([0, 1])).tolist()  # "a", "b"
    [1, 0]
    """
    n = q.size
    if n == 0:
        return None
    brk = q[1:] != q[:-1]
    blocks = int(brk.sum()) + 1
    order = None
    distinct = int(np.count_nonzero(np.bincount(q)))
    if blocks != distinct or not bool(np.all((score[1:] <= score[:-1]) | brk)):
        order = np.lexsort((-score, q))
        q, score = q[order], score[order]
        brk = q[1:] != q[:-1]
    tied = ~brk & (score[1:] == score[:-1])
    if not tied.any():
        return order
    group = np.cumsum(np.r_[True, ~tied]) - 1
    size = np.bincount(group)
    rows = np.flatnonzero(size[group] > 1)
    src = rows if order is None else order[rows]
    perm = np.lexsort((-docrank(src), group[rows]))
    if order is None:
        order = np.arange(n)
    order[rows] = src[perm]
    return order


def _docrank(run: Table, kept: np.ndarray | None):
    def docrank(rows: np.ndarray) -> np.ndarray:
        names = id_strings(run.docno.take(pa.array(rows if kept is None else kept[rows])))
        return pc.rank(names, sort_keys="ascending", tiebreaker="dense").to_numpy().astype(np.int64)

    return docrank


def _run_tag(run: Table) -> str:
    return run.tag if run.tag is not None else run.name


@dataclass
class RunValues:
    """One run's per-query values: ``values[name]`` is a float array over the qrels queries (sorted ids),
    ``texts[name]`` an object array for text measures; ``present`` marks the queries evaluated."""

    name: str
    tag: str
    present: np.ndarray
    values: dict[str, np.ndarray] = field(default_factory=dict)
    texts: dict[str, np.ndarray] = field(default_factory=dict)


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

    def summary(self, run: RunValues) -> dict[str, float | str]:
        """The "all" values of one run, computed as trec_eval does (``meas_avg.c``); empty when no
        query was evaluated."""
        present = run.present
        n = int(present.sum())
        if n == 0:
            return {}
        den = self.queries.size if self.complete else n
        out: dict[str, float | str] = {}
        for r in self.requested:
            kind = r.info.summary
            if kind == "runid":
                out["runid"] = run.tag
                continue
            if kind == "none":
                continue
            for name in r.names:
                v = run.values[name][present]
                total = float(np.cumsum(v)[-1])  # in query order, one addition at a time, as trec_eval
                if kind == "sum":
                    out[name] = total
                elif kind == "count":
                    out[name] = float(n)
                elif kind == "gm":
                    if self.complete:
                        total += (den - n) * math.log(MIN_GEO_MEAN)
                    out[name] = math.exp(total / den)
                else:
                    out[name] = total / den
        return out

    def frame(self) -> pd.DataFrame:
        """Long table ``run, measure, qid, value``: per-query rows for the measures trec_eval prints per
        query (not gm_map / gm_bpref), then ``qid == "all"`` rows with the summary.  Text measures
        (runid, relstring) are left out: see :attr:`RunValues.texts` and :meth:`text`."""
        parts = []
        for run in self.runs:
            qids = self.queries[run.present]
            summary = self.summary(run)
            for r in self.requested:
                if r.info.value == "text":
                    continue
                for name in r.names:
                    if r.info.per_query:
                        parts.append(pd.DataFrame({"run": run.name, "measure": name, "qid": qids,
                                                   "value": run.values[name][run.present]}))
            rows = [(run.name, name, "all", float(v)) for name, v in summary.items() if not isinstance(v, str)]
            if rows:
                parts.append(pd.DataFrame(rows, columns=["run", "measure", "qid", "value"]))
        if not parts:
            return pd.DataFrame({"run": pd.Series(dtype=object), "measure": pd.Series(dtype=object),
                                 "qid": pd.Series(dtype=object), "value": pd.Series(dtype=np.float64)})
        out = pd.concat(parts, ignore_index=True)
        out["value"] = out["value"].astype(np.float64)
        return out

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


def _check_whole(value, name: str, *, minimum: int, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        accepted = f"a whole number >= {minimum}" + (" or None" if allow_none else "")
        raise ValueError(f"{name} must be {accepted}, got {value!r:.40}")
    return int(value)


def _lists(qi: _Qrels, qrels: Table, run: Table, *, level, max_docs, judged_only, num_docs, gmax):
    """The run's ranked lists as trec_eval forms them, keeping only the documents the qrels list."""
    m = match_rows(qrels, run, values=qi.code_plus3)
    q_all = qi.rank[m.q]
    value = m.value
    score = run.value if m.kept is None else run.value[m.kept]
    order = trec_order(q_all, score, _docrank(run, m.kept))
    if order is not None:
        q_all, value = q_all[order], value[order]
    nq = qi.queries.size
    n = q_all.size
    bstart = np.flatnonzero(np.r_[True, q_all[1:] != q_all[:-1]]) if n else np.zeros(0, np.int64)
    bq = q_all[bstart]
    num_ret = np.zeros(nq, dtype=np.int64)
    num_ret[bq] = np.diff(np.r_[bstart, n])
    present = num_ret > 0
    rows = np.flatnonzero(value != 0)  # documents in the qrels; the others only count in num_ret
    code = value[rows].astype(np.int64) - 3
    block = np.searchsorted(bstart, rows, side="right") - 1
    q, pos = bq[block], rows - bstart[block] + 1
    if max_docs is not None:
        keep = pos <= max_docs
        q, pos, code = q[keep], pos[keep], code[keep]
        num_ret = np.minimum(num_ret, max_docs)
    if judged_only:
        keep = code >= 0
        q, code = q[keep], code[keep]
        pos = block_positions(q)
        num_ret = np.bincount(q, minlength=nq)[:nq].astype(np.int64)
    lists = Lists(q=q, pos=pos, code=code, n=nq, levels=qi.levels, num_ret=num_ret, relevance_level=level,
                  num_docs_in_coll=num_docs, gmax=gmax)
    return lists, present, m


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
    level = _check_whole(relevance_level, "relevance_level", minimum=0)
    max_docs = _check_whole(max_docs, "max_docs", minimum=1, allow_none=True)
    num_docs = _check_whole(num_docs_in_coll, "num_docs_in_coll", minimum=0)
    for flag, name in ((complete, "complete"), (judged_only, "judged_only")):
        if not isinstance(flag, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False, got {flag!r:.40}")
    if err_gmax is not None and (isinstance(err_gmax, bool) or not isinstance(err_gmax, (int, float, np.number))
                                 or not math.isfinite(err_gmax) or err_gmax < 0):
        raise ValueError(f"err_gmax must be a finite number >= 0 or None, got {err_gmax!r:.40}")
    qi = _qrels_index(qrels)
    gmax = qi.gmax if err_gmax is None else float(err_gmax)
    problems = list(qi.problems)
    values = []
    for run in runs:
        lists, present, m = _lists(qi, qrels, run, level=level, max_docs=max_docs, judged_only=bool(judged_only),
                                   num_docs=num_docs, gmax=gmax)
        if m.foreign.size:
            first = int(m.foreign[0])
            qid = run.qid.dictionary[run.qid.indices[first].as_py()].as_py()
            count = int(np.unique(run.qid.indices.to_numpy()[m.foreign]).size)
            problems.append(Problem(run.name, run.line_of(first), "missing_in_qrels", {"count": count, "example": qid}))
        if not present.any():
            problems.append(Problem(run.name, None, "no_queries", {}))
        elif not present.all():
            absent = np.flatnonzero(~present)
            problems.append(Problem(run.name, None, "missing_in_run",
                                    {"count": int(absent.size), "example": str(qi.queries[absent[0]]),
                                     "policy": "zero (-c)" if complete else "skip"}))
        rv = RunValues(run.name, _run_tag(run), present)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            for r in requested:
                if r.info.compute is None:
                    continue
                for name, v in zip(r.names, r.compute(lists)):
                    (rv.texts if r.info.value == "text" else rv.values)[name] = v
        values.append(rv)
    return MeasureResult(qi.queries, requested, values, bool(complete), problems)


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
