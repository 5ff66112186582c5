"""The one entry point of the run-file engine: :func:`evaluate` ``(qrels, runs, measures) ->`` :class:`Result`.

Files (:func:`~metrics.runfiles.read.read_qrels` / :func:`~metrics.runfiles.read.read_run` tables or their
``Parsed`` results), blocks of queries (pandas DataFrames, as a cluster hands them over) and Spark (``spark=``:
the files read and evaluated by Spark, the result collected) all go through the same engine -- one qrels
index, one ranker, one measure table (:mod:`metrics.runfiles.engine`) -- and come back as one
:class:`Result`.  Everything shown about the runs is a function of it: trec_eval's output
(:meth:`Result.text`), the per-query rows (:meth:`Result.per_query`), the summary, one measure's query × run
table for the paired tests (:meth:`Result.paired`, :func:`metrics.significance.all_pairs`), and the NDCG
variants table with its winners, flips, Kendall's tau and disagreements
(:meth:`metrics.runfiles.batch.Evaluation.of`).  trec_eval's form (:func:`metrics.runfiles.trec.evaluate_runs`)
and the variants table (:func:`metrics.runfiles.batch.evaluate`) are this function with their own arguments.

>>> from metrics.runfiles.read import read_qrels, read_run
>>> qrels = read_qrels(b"q1 0 a 2\\nq1 0 b 1\\nq2 0 c 1\\n")
>>> run = read_run(b"q1 Q0 b 1 2 r\\nq1 Q0 a 2 1 r\\nq2 Q0 c 1 1 r\\n", name="r")
>>> result = evaluate(qrels, [run], ["P.1", "nDCG@2"])
>>> {name: round(v, 4) for name, v in result.summary(result.runs[0]).items()}  # q1: b (1) above a (2)
{'P_1': 1.0, 'nDCG@2': 0.9299}
>>> result.paired("P_1").to_dict()
{'r': {'q1': 1.0, 'q2': 1.0}}

q1's NDCG@2 is (1 + 2/log2 3) / (2 + 1/log2 3) = 2.2619 / 2.6309 = 0.8597; the mean with q2's 1 is 0.9299.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .engine import (
    QrelsCounts,
    QrelsIndex,
    RunValues,
    evaluate_tables,
    per_query_frame,
    summary_value,
    table_from_frame,
)
from .measures import Requested, parse_measures
from .options import check_options, check_tables
from .read import Problem

__all__ = ["Result", "evaluate", "format_value", "passes"]

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
class Result:
    """What the one engine computed: every requested measure for every query of every run.

    The one result type of :func:`evaluate` -- for files, tables, blocks of queries and Spark
    (:meth:`metrics.runfiles.spark.SparkEvaluation.result`) alike.  ``runs`` hold each run's per-query
    arrays (:class:`~metrics.runfiles.engine.RunValues`, over the qrels queries in ``queries`` order);
    trec_eval's output (:meth:`text`), the long table (:meth:`frame`, :meth:`per_query`), the summary
    (:meth:`summary`), one measure as a query × run table for the paired tests (:meth:`paired`) and the
    NDCG variants table (:meth:`metrics.runfiles.batch.Evaluation.of`) are all read from it.
    """

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

    @property
    def run_names(self) -> list[str]:
        """The runs' names, in the order given."""
        return [run.name for run in self.runs]

    @property
    def names(self) -> list[str]:
        """Every printed name of a numeric measure, in trec_eval's order (text measures left out)."""
        return [name for r in self.requested if r.info.value != "text" for name in r.names]

    def values(self, name: str) -> np.ndarray:
        """One measure's per-query values: float64[run, query] over :attr:`queries`, NaN where a run did not
        answer the query.

        Raises
        ------
        ValueError
            If ``name`` was not computed (the message lists what was).
        """
        if name not in self.names:
            shown = ", ".join(self.names[:8]) + (", ..." if len(self.names) > 8 else "")
            raise ValueError(f"measure {str(name)[:80]!r} was not evaluated; evaluated: {shown}")
        out = np.full((len(self.runs), self.queries.size), np.nan)
        for i, run in enumerate(self.runs):
            out[i] = np.where(run.present, run.values[name], np.nan)
        return out

    def paired(self, name: str, *, complete: bool | None = None) -> pd.DataFrame:
        """One measure as the paired tests read it: one row per query, one column per run.

        The queries are those some run answered (every qrels query with ``complete``, trec_eval's ``-c``:
        a query a run did not answer counts 0 there, as in the runs' means); a query a run did not answer is
        NaN otherwise (the tests leave such queries out: :func:`metrics.significance.all_pairs` needs complete
        rows).  ``complete`` defaults to the evaluation's own (a table that applied trec_eval's ``-c`` after
        the engine, as Spark's variants table does, says so here).

        Examples
        --------
        >>> from metrics.runfiles.read import read_qrels, read_run
        >>> qrels = read_qrels(b"q1 0 a 1\\nq2 0 a 1\\n")
        >>> a = read_run(b"q1 Q0 a 1 1 t\\nq2 Q0 x 1 1 t\\n", name="a")
        >>> b = read_run(b"q1 Q0 x 1 1 t\\n", name="b")
        >>> evaluate(qrels, [a, b], ["P.1"]).paired("P_1").to_dict("list")
        {'a': [1.0, 0.0], 'b': [0.0, nan]}
        >>> evaluate(qrels, [a, b], ["P.1"], complete=True).paired("P_1").to_dict("list")
        {'a': [1.0, 0.0], 'b': [0.0, 0.0]}
        """
        values = self.values(name)
        if self.complete if complete is None else complete:
            keep = np.ones(self.queries.size, dtype=bool)
            values = np.nan_to_num(values, nan=0.0)
        else:
            keep = np.zeros(self.queries.size, dtype=bool)
            for run in self.runs:
                keep |= run.present
        frame = pd.DataFrame(values[:, keep].T, columns=self.run_names,
                             index=pd.Index(self.queries[keep], name="qid"))
        frame.columns.name = "run"
        return frame

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




#: How many passes the engine made over the runs (one per :func:`evaluate`, whatever the number of measures):
#: what the Run files page holds to one per render (tests/pages/test_run_files_passes.py).
_PASSES = [0]


def passes() -> int:
    """How many times :func:`evaluate` has run the engine in this process (each run ranked once per pass).

    Tests count a page's passes with it: one pass per files and settings, whatever the measures asked.

    Returns
    -------
    int
        The passes so far (never reset).

    Examples
    --------
    >>> before = passes()
    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> _ = evaluate(read_qrels(b"q 0 a 1\\n"), [read_run(b"q Q0 a 1 1 r\\n")], ["map", "P.5", "nDCG@5"])
    >>> passes() - before
    1
    """
    return _PASSES[0]


def _requested(measures) -> list[Requested]:
    if isinstance(measures, (str, Requested)):
        measures = [measures]
    measures = list(measures)
    specs = [m for m in measures if not isinstance(m, Requested)]
    parsed = iter(parse_measures(specs)) if specs else iter(())
    # parse_measures orders specs as trec_eval prints them; Requested objects keep their place after them
    out = list(parsed)
    out += [m for m in measures if isinstance(m, Requested)]
    return out


def _block_tables(qrels, runs):
    """Tables from a block of queries: a qrels frame and a run frame (with a ``run`` column for several)."""
    if not isinstance(runs, pd.DataFrame):
        raise ValueError("with a qrels DataFrame (a block of queries), runs must be a DataFrame too (columns qid, "
                         f"docno, score, optionally run, tag, line), got {type(runs).__name__}")
    table = table_from_frame(qrels, "qrels")
    if "run" in runs.columns:
        groups = [(str(name), part) for name, part in runs.groupby("run", sort=False)]
    else:
        groups = [("run", runs)]
    return table, [table_from_frame(part, "run", name=name) for name, part in groups]


def evaluate(qrels, runs, measures: Sequence = ("official",), *, relevance_level: int = 1, complete: bool = False,
             judged_only: bool = False, max_docs: int | None = None, num_docs_in_coll: int = 0,
             err_gmax: float | None = None, spark=None, on_progress: Callable[[float, str], None] | None = None,
             **spark_options) -> Result:
    """Every requested measure for every query of every run: the one evaluation, in one pass.

    Each run is ranked once (trec_eval's order; the tie rules the measures ask for re-order only tied
    scores) and every measure -- trec_eval's, the extras, ir_measures' names and the NDCG variants
    ``nDCG(gain=...,discount=...,idcg=...,ties=...)@k`` -- is computed from that one ranking.

    Parameters
    ----------
    qrels : Table, Parsed or pandas.DataFrame
        A qrels table (:func:`~metrics.runfiles.read.read_qrels`), or a block's qrels rows (``qid``,
        ``docno``, ``rel``), or with ``spark`` a path Spark reads.
    runs : sequence of Table or Parsed, or pandas.DataFrame
        The run tables (distinct names); with a qrels frame, the block's run rows (``qid``, ``docno``,
        ``score``, optionally ``run``, ``tag``, ``line``); with ``spark``, paths.
    measures : sequence of str (or parsed measures), default ("official",)
        ``-m`` specs (:func:`metrics.runfiles.measures.parse_measures`): ``"map"``, ``"P.5,10"``,
        ``"nDCG@10"``, ``"nDCG(gain=exponential,ties=average)@10"``, ``"official"``, ...
    relevance_level : int, default 1
        trec_eval's ``-l`` (the NDCG variants take their own ``level=``).
    complete : bool, default False
        trec_eval's ``-c``: a qrels query a run did not answer counts (0) in the means.
    judged_only, max_docs, num_docs_in_coll, err_gmax
        trec_eval's ``-J``, ``-M``, ``-N`` and ERR's top grade (:func:`metrics.runfiles.options.check_options`).
    spark : pyspark.sql.SparkSession, optional
        Evaluate on Spark (:func:`metrics.runfiles.spark.evaluate_spark`) and collect the result.
    on_progress : callable, optional
        Called with (fraction done, run name) as the runs are evaluated (not with ``spark``).
    **spark_options
        With ``spark`` only, passed to :func:`metrics.runfiles.spark.evaluate_spark`: ``qrels_columns``,
        ``run_columns``, ``skip_bad_lines``, ``limits``.

    Returns
    -------
    Result

    Raises
    ------
    ValueError
        For an unknown or malformed measure, tables of the wrong kind, repeated run names or an invalid
        option (naming it and the value).

    See Also
    --------
    metrics.runfiles.trec.evaluate_runs : trec_eval's form (the same, named as trec_eval's options).
    metrics.runfiles.batch.evaluate : the NDCG variants table (variants in, a view of the Result out).

    Examples
    --------
    Two runs on one query judged a = 1: "good" finds a first, "late" second (P@1 1 and 0, RR 1 and 1/2).

    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> qrels = read_qrels(b"q 0 a 1\\n")
    >>> good = read_run(b"q Q0 a 1 2 t\\nq Q0 x 2 1 t\\n", name="good")
    >>> late = read_run(b"q Q0 x 1 2 t\\nq Q0 a 2 1 t\\n", name="late")
    >>> result = evaluate(qrels, [good, late], ["P.1", "recip_rank"])
    >>> [result.summary(run) for run in result.runs]
    [{'recip_rank': 1.0, 'P_1': 1.0}, {'recip_rank': 0.5, 'P_1': 0.0}]

    A block of queries, as a cluster hands it over, gives the same values:

    >>> import pandas as pd
    >>> block = evaluate(pd.DataFrame({"qid": ["q"], "docno": ["a"], "rel": [1]}),
    ...                  pd.DataFrame({"run": "late", "qid": ["q", "q"], "docno": ["x", "a"], "score": [2, 1]}),
    ...                  ["recip_rank"])
    >>> block.per_query()["value"].tolist()
    [0.5]
    """
    if spark is not None:
        from .spark import evaluate_spark

        return evaluate_spark(qrels, list(runs), list(measures), spark=spark, relevance_level=relevance_level,
                              complete=complete, judged_only=judged_only, max_docs=max_docs,
                              num_docs_in_coll=num_docs_in_coll, err_gmax=err_gmax, **spark_options).result()
    if spark_options:
        raise ValueError(f"{', '.join(sorted(spark_options))}: options of Spark's reading; give them with spark=")
    requested = _requested(measures)
    if isinstance(qrels, pd.DataFrame):
        qrels, runs = _block_tables(qrels, runs)
    qrels, runs = check_tables(qrels, runs)
    opts = check_options(relevance_level=relevance_level, judged_only=judged_only, max_docs=max_docs,
                         num_docs_in_coll=num_docs_in_coll, err_gmax=err_gmax, complete=complete)
    qi = QrelsIndex(qrels)
    _PASSES[0] += 1
    values, problems = evaluate_tables(qi, runs, requested, on_progress=on_progress, **opts)
    return Result(qi.queries, requested, values, opts["complete"], problems, qi.counts())
