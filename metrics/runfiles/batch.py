"""NDCG for many queries and many runs at once, under every variant: the ``nDCG`` measure of the one
engine (:mod:`metrics.runfiles.engine`), one measure per variant, gathered per run, variant and query.

A variant is a :class:`metrics.variant.Variant` (gain × discount × IDCG source × tie rule, the choices of
:data:`metrics.registry.VARIANT_CHOICES`, named by its label ``gain/discount/idcg/ties``); :func:`evaluate`
asks the engine for ``nDCG(gain=...,discount=...,idcg=...,ties=...)@k`` of each, with the cutoff, the base
and the relevance level given to :func:`evaluate`.
Each value equals what :func:`metrics.ndcg.ndcg_from_scores` gives for that
query's list (tested), computed for all queries at once:

* the list is the run's documents for the query, ranked by descending score;
  ties are broken by ``ties`` (``"trec_eval"``: document id descending, as
  trec_eval does; ``"average"``: tied items share their mean gain);
* a retrieved document missing from the qrels has grade 0 (unjudged = 0);
* negative grades count as 0 (as trec_eval does); with ``relevance_level``
  grades below it count as 0 too (ranx's ``rel_lvl``; trec_eval's ``-l`` does
  not change ndcg);
* the ideal ranking (``idcg``) is either all judged documents of the query
  (``"judged"``, as trec_eval and ranx do) or the retrieved list re-sorted
  (``"list"``, as scikit-learn and most blog posts do);
* ``k=None`` uses the whole list and, for ``"judged"``, the whole pool
  (trec_eval ``ndcg``); ``k=10`` cuts both lists at 10 (``ndcg_cut.10``).

Only queries in the qrels are evaluated.  A qrels query the run did not answer
is skipped (trec_eval's default) or scores 0 (``missing="zero"``, trec_eval
``-c``, ranx ``make_comparable``).

>>> from metrics.runfiles.read import read_qrels, read_run
>>> qrels = read_qrels(b"q1 0 a 3\\nq1 0 b 2\\nq1 0 c 1\\n", name="qrels").table
>>> run = read_run(b"q1 Q0 b 1 0.9 r\\nq1 Q0 x 2 0.5 r\\nq1 Q0 a 3 0.1 r\\n", name="run").table
>>> ev = evaluate(qrels, [run], k=3, variants=make_variants(gains=["linear"], discounts=["standard"],
...               idcg=["judged", "list"], ties=["trec_eval"]))

DCG@3 = 2/log2(2) + 0 + 3/log2(4) = 3.5.  Judged ideal 3, 2, 1: 3 + 2/log2(3) + 1/2 = 4.7619;
list ideal (b, x, a re-sorted: 3, 2, 0): 3 + 2/log2(3) = 4.2619.

>>> [round(float(v), 4) for v in ev.means().loc["run"]]
[0.735, 0.8212]
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import product

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._validation import check_choice, check_k, check_log_base, check_real, check_whole
from ..registry import DISCOUNTS, GAINS, IDCG_SOURCES, TIES
from ..variant import Variant
from .engine import TieOrder, trec_order
from .measures import MEASURES, VARIANT_MEASURE, JudgedGrades, Lists, Requested, effective_grades, variant_names
from .read import Problem, Table, id_strings
from .result import Result
from .result import evaluate as evaluate_result

__all__ = [
    "IDCG",
    "MISSING",
    "Evaluation",
    "evaluate",
    "kendall_tau",
    "make_variants",
    "ndcg_per_query",
    "query_lists",
]

#: Where the ideal ranking comes from: :data:`metrics.registry.IDCG_SOURCES` (key -> one-line help).
IDCG = {key: entry.help for key, entry in IDCG_SOURCES.items()}

#: What a qrels query that a run did not answer counts as.
MISSING = {
    "skip": "left out of the run's mean (trec_eval default)",
    "zero": "counts as 0 (trec_eval -c, ranx make_comparable)",
}

DEFAULT_TIES = ("trec_eval", "average")


def _choices(values, registry, name: str, default) -> list[str]:
    if values is None:
        values = default
    if isinstance(values, str):
        values = [values]
    out = []
    for v in values:
        check_choice(v, registry, name=name)
        out.append(v)
    if not out:
        raise ValueError(f"no {name} given; valid names are {', '.join(repr(c) for c in registry)}")
    return list(dict.fromkeys(out))


def make_variants(*, gains=None, discounts=None, idcg=None, ties=None) -> list[Variant]:
    """Every combination of the given names (None = all registered; ties default trec_eval and average).

    Parameters
    ----------
    gains : str or sequence of str, optional
        Keys of :data:`metrics.registry.GAINS`.  Default ``None``: all three.
    discounts : str or sequence of str, optional
        Keys of :data:`metrics.registry.DISCOUNTS`.  Default ``None``: both.
    idcg : str or sequence of str, optional
        Keys of :data:`IDCG` ("judged", "list").  Default ``None``: both.
    ties : str or sequence of str, optional
        Keys of :data:`metrics.registry.TIES`.  Default ``None``: "trec_eval" and "average".

    Returns
    -------
    list of Variant
        The product, gains varying slowest; repeated names are given once (other fields: the defaults).

    Raises
    ------
    ValueError
        For an unknown name (the message lists the valid ones) or an empty list.

    Examples
    --------
    3 gains × 2 discounts × 2 IDCG sources × 2 tie rules = 24:

    >>> len(make_variants()), make_variants(gains="exponential", discounts="standard",
    ...                                     idcg="judged", ties="trec_eval")[0].label
    (24, 'exponential/standard/judged/trec_eval')
    """
    g = _choices(gains, GAINS, "gain", list(GAINS))
    d = _choices(discounts, DISCOUNTS, "discount", list(DISCOUNTS))
    s = _choices(idcg, IDCG, "idcg source", list(IDCG))
    t = _choices(ties, TIES, "ties", list(DEFAULT_TIES))
    return [Variant(gain=gain, discount=dis, idcg=src, ties=tie) for gain, dis, src, tie in product(g, d, s, t)]


# ----------------------------------------------------------------------------- flat arrays
def ndcg_per_query(query, relevances, scores, *, k=None, gain="linear", discount="standard", log_base=2,
                   ties="average", idcg="list", docnos=None, pool_query=None, pool=None, n_queries=None,
                   relevance_level=None) -> np.ndarray:
    """NDCG of many ranked lists at once, from flat arrays.

    Parameters
    ----------
    query : int array
        Query index (0 .. n_queries-1) of each retrieved item.
    relevances, scores : float arrays
        Grade (0 for unjudged) and score of each item; items are ranked by
        descending score within their query.
    docnos : sequence of str, optional
        Document ids, needed for ``ties="trec_eval"``.
    pool_query, pool : arrays, optional
        Query index and grade of every judged item, needed for ``idcg="judged"``.
    k, gain, discount, log_base, ties
        As in :func:`metrics.ndcg.ndcg_from_scores`.
    idcg : {"list", "judged"}
        Ideal ranking from the list itself or from the pool.

    n_queries : int, optional
        How many queries there are.  Default ``None``: the largest query index + 1.
    relevance_level : float, optional
        Grades below it count as 0 (ranx's ``rel_lvl``).  Default ``None``: every grade > 0 counts.

    Returns
    -------
    numpy.ndarray of float64
        Length ``n_queries``; NaN for a query without items.

    Raises
    ------
    ValueError
        If the arrays differ in length, a query index is negative or not whole, a grade or score is
        not finite, ``docnos`` / ``pool`` are missing where needed, or an option is invalid.

    See Also
    --------
    metrics.ndcg.ndcg_from_scores : one list at a time (the tests compare the two).

    Examples
    --------
    Two queries: q0 ranks grades 0, 3 (ideal 3, 0): 3/log2(3) / 3 = 0.6309; q1 is perfect.

    >>> ndcg_per_query([0, 0, 1], [0, 3, 1], [0.9, 0.1, 0.5]).round(4).tolist()
    [0.6309, 1.0]

    Tied scores averaged: q0's two items share (0 + 3) / 2 over positions 1 and 2,
    1.5 × (1 + 1/log2(3)) / 3 = 0.8155; query 2 has no items:

    >>> ndcg_per_query([0, 0, 1], [0, 3, 1], [0.5, 0.5, 0.5], n_queries=3).round(4).tolist()
    [0.8155, 1.0, nan]
    """
    k = check_k(k)
    b = check_log_base(log_base)
    variant = make_variants(gains=[gain], discounts=[discount], idcg=[idcg], ties=[ties])[0]
    level = check_real(relevance_level, name="relevance_level", allow_none=True)
    q = np.asarray(query)
    if q.ndim != 1 or (q.size and not np.issubdtype(q.dtype, np.integer)):
        raise ValueError("query must be a one-dimensional array of whole-number query indices")
    q = q.astype(np.int64)
    rel = np.asarray(relevances, dtype=np.float64)
    sc = np.asarray(scores, dtype=np.float64)
    if rel.shape != q.shape or sc.shape != q.shape:
        raise ValueError(f"query, relevances and scores must have the same length, got {q.size}, {rel.size}, {sc.size}")
    if q.size and q.min() < 0:
        raise ValueError(f"query at position {int(np.argmin(q)) + 1} is {int(q.min())}; indices must be >= 0")
    for name, arr in (("relevances", rel), ("scores", sc)):
        bad = np.flatnonzero(~np.isfinite(arr))
        if bad.size:
            raise ValueError(f"{name} at position {bad[0] + 1} is {arr[bad[0]]!r}; only finite numbers are accepted")
    nq = check_real(n_queries, name="n_queries", minimum=0, allow_none=True)
    nq = int(nq) if nq is not None else (int(q.max()) + 1 if q.size else 0)
    if q.size and q.max() >= nq:
        raise ValueError(f"query index {int(q.max())} is beyond n_queries={nq}")
    docrank = None
    if ties == "trec_eval":
        if docnos is None:
            raise ValueError("ties='trec_eval' needs docnos: one document id per item")
        names = pa.array([str(x) for x in docnos], pa.string())
        if len(names) != q.size:
            raise ValueError(f"docnos has {len(names)} values but relevances has {q.size}")
        doc_rank = np.empty(q.size, dtype=np.int64)
        doc_rank[pc.array_sort_indices(names).to_numpy()] = np.arange(q.size)
        docrank = lambda rows: doc_rank[rows]  # noqa: E731
    if idcg == "judged":
        if pool is None or pool_query is None:
            raise ValueError("idcg='judged' needs pool_query and pool: the query and grade of every judged item")
        judged = JudgedGrades(np.asarray(pool_query, dtype=np.int64), np.asarray(pool, dtype=np.float64))
    else:
        judged = JudgedGrades(np.zeros(0, np.int64), np.zeros(0))
    order = trec_order(q, sc, docrank)  # the one ranker: score descending, ties by docno (or input order)
    file_row = np.arange(q.size) if order is None else order
    q, rel, sc = q[file_row], rel[file_row], sc[file_row]
    rows = np.flatnonzero(rel > 0)
    pos = TieOrder(q, sc, file_row, rel, rows)
    lists = Lists(q=q[rows], pos=pos.positions("trec_eval"), code=np.zeros(rows.size, np.int64), n=nq,
                  levels=(np.zeros(0, np.int64),) * 3, num_ret=np.bincount(q, minlength=nq)[:nq], grade=rel[rows],
                  ties=pos, judged=judged)
    out = MEASURES[VARIANT_MEASURE].compute(lists, (variant.with_(k=k, log_base=b, level=level),))[0]
    out[lists.num_ret == 0] = np.nan
    return out


# ----------------------------------------------------------------------------- runs against qrels
def kendall_tau(x, y) -> float:
    """Kendall's tau-b between two score vectors (NaN when either is constant or too short).

    tau-b = (concordant - discordant) / sqrt(pairs untied in x * pairs untied in y).
    Used to say how much two NDCG variants agree on the order of the systems: 1 is the same order,
    -1 the reverse.

    Parameters
    ----------
    x, y : sequence of float
        Two scores per item (e.g. each system's mean NDCG under two variants), same length.

    Returns
    -------
    float
        In [-1, 1], or NaN.

    Raises
    ------
    ValueError
        If the two are not one-dimensional and of the same length.

    References
    ----------
    .. [1] M. G. Kendall, "The treatment of ties in ranking problems", Biometrika 33(3), 239-251,
       1945 (tau-b).

    Examples
    --------
    Pairs (1,2), (1,3) agree, (2,3) is swapped: (2 - 1) / sqrt(3 × 3) = 1/3.

    >>> kendall_tau([1, 2, 3], [1, 3, 2])
    0.3333333333333333
    >>> kendall_tau([1, 2, 3, 4], [4, 3, 2, 1])
    -1.0
    """
    a = np.asarray(x, dtype=np.float64)
    b = np.asarray(y, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"x and y must be one-dimensional and of the same length, got {a.shape} and {b.shape}")
    iu = np.triu_indices(a.size, 1)
    da = np.sign(a[:, None] - a[None, :])[iu]
    db = np.sign(b[:, None] - b[None, :])[iu]
    na, nb = np.count_nonzero(da), np.count_nonzero(db)
    if na == 0 or nb == 0:
        return float("nan")
    return float(np.sum(da * db) / math.sqrt(na * nb))


def _variants_at(result: Result, k) -> dict[str, Variant]:
    """Every ``nDCG(...)`` measure of ``result`` at cutoff ``k``: its name -> its gain, discount, IDCG source and
    tie rule (the variants table's column)."""
    out = {}
    for r in result.requested:
        if r.info.origin == "variant":
            for v, name in zip(r.params, r.names):
                if v.k == k:
                    out[name] = Variant(gain=v.gain, discount=v.discount, idcg=v.idcg, ties=v.ties)
    return out


@dataclass
class Evaluation:
    """NDCG of every run under every variant, per query and on average: the variants table of a
    :class:`~metrics.runfiles.result.Result` (:meth:`of`), with its winners (:meth:`orders`), Kendall's tau
    (:meth:`tau`) and disagreements (:meth:`disagreements`)."""

    queries: np.ndarray  # qrels query ids (object array of str)
    runs: list[str]
    variants: list[Variant]  # gain/discount/idcg/ties; the cutoff is k
    values: np.ndarray  # float64[n_runs, n_variants, n_queries]; NaN where a run did not answer
    present: np.ndarray  # bool[n_runs, n_queries]
    missing: str
    k: int | None
    problems: list[Problem] = field(default_factory=list)
    result: Result | None = None  # the engine's result the table was read from

    @classmethod
    def of(cls, result: Result, *, k=None) -> Evaluation:
        """The variants table of a :class:`~metrics.runfiles.result.Result`: every ``nDCG(...)`` measure it
        holds at cutoff ``k`` (None: the whole list), one column per variant (its gain, discount, IDCG source
        and tie rule); a query a run did not answer is skipped, or counts 0 when the result is ``complete``.

        Parameters
        ----------
        result : Result
            From :func:`metrics.runfiles.evaluate` with ``nDCG(gain=...,discount=...,idcg=...,ties=...)@k``
            measures (the spec form of :class:`metrics.variant.Variant`) among its measures.
        k : int, optional
            The cutoff of the variants to read.

        Raises
        ------
        ValueError
            If the result holds no variant at ``k``, or two at ``k`` with the same choices (another log
            base or relevance level: the table's labels would not tell them apart).

        Examples
        --------
        >>> from metrics.runfiles.read import read_qrels, read_run
        >>> from metrics.runfiles.result import evaluate as run_evaluate
        >>> qrels = read_qrels(b"q 0 a 3\\nq 0 b 1\\n")
        >>> run = read_run(b"q Q0 b 1 2 t\\nq Q0 a 2 1 t\\n", name="ba")
        >>> result = run_evaluate(qrels, [run], ["map", Variant().format(), Variant(gain="binary").format()])
        >>> Evaluation.of(result).means().round(4).to_dict("records")  # (1 + 3/log2 3) / (3 + 1/log2 3); all relevant
        [{'linear/standard/judged/trec_eval': 0.7967, 'binary/standard/judged/trec_eval': 1.0}]
        """
        k = check_k(k)
        found = _variants_at(result, k)
        variants, names = list(found.values()), list(found)
        labels = [v.label for v in variants]
        if not variants:
            raise ValueError(f"the result holds no NDCG variant at k={k!r} (nDCG(gain=...,discount=...,idcg=...,"
                             "ties=...) measures: Variant.format())")
        if len(set(labels)) != len(labels):
            raise ValueError("the result holds two NDCG variants with the same gain, discount, IDCG source and "
                             f"tie rule at k={k!r} (another log base or relevance level); read them by name "
                             "with Result.values")
        values = np.stack([result.values(name) for name in names], axis=1) if result.runs else \
            np.zeros((0, len(variants), result.queries.size))
        present = np.array([run.present for run in result.runs], dtype=bool).reshape(len(result.runs), -1)
        return cls(result.queries, result.run_names, variants, values, present,
                   "zero" if result.complete else "skip", k, list(result.problems), result)

    @property
    def labels(self) -> list[str]:
        return [v.label for v in self.variants]

    def _index(self, variant) -> int:
        label = variant.label if isinstance(variant, Variant) else str(variant)
        if label not in self.labels:
            valid = ", ".join(repr(x) for x in self.labels)
            raise ValueError(f"variant {label!r} was not evaluated; evaluated variants are {valid}")
        return self.labels.index(label)

    def measure(self, variant) -> str:
        """The name of ``variant``'s measure in :attr:`result` (its spec form at this table's cutoff).

        >>> from metrics.runfiles.read import read_qrels, read_run
        >>> ev = evaluate(read_qrels(b"q 0 a 1\\n"), [read_run(b"q Q0 a 1 1 t\\n", name="r")], k=5,
        ...               variants=[Variant(gain="binary")])
        >>> ev.measure("binary/standard/judged/trec_eval")
        'nDCG(gain=binary,discount=standard,idcg=judged,ties=trec_eval)@5'
        """
        label = self.labels[self._index(variant)]
        if self.result is None:
            raise ValueError("this variants table was not read from a Result (Evaluation.of): it has no measures")
        for name, v in _variants_at(self.result, self.k).items():
            if v.label == label:
                return name
        raise ValueError(f"variant {label!r} at k={self.k!r} is not a measure of this table's result")

    def paired(self, variant) -> pd.DataFrame:
        """NDCG under ``variant`` as the paired tests read it: :meth:`Result.paired` of its measure (a query a
        run did not answer counts 0 with ``missing="zero"``, as in :meth:`means`; else it is NaN).

        >>> from metrics.runfiles.read import read_qrels, read_run
        >>> qrels = read_qrels(b"q1 0 a 1\\nq2 0 a 1\\n")
        >>> runs = [read_run(b"q1 Q0 a 1 1 t\\nq2 Q0 x 1 1 t\\n", name="a"), read_run(b"q1 Q0 x 1 1 t\\n", name="b")]
        >>> evaluate(qrels, runs, missing="zero").paired("linear/standard/judged/trec_eval").to_dict("list")
        {'a': [1.0, 0.0], 'b': [0.0, 0.0]}
        """
        return self.result.paired(self.measure(variant), complete=self.missing == "zero")

    def _filled(self) -> np.ndarray:
        return np.nan_to_num(self.values, nan=0.0) if self.missing == "zero" else self.values

    def means(self) -> pd.DataFrame:
        """Mean NDCG: one row per run, one column per variant label."""
        vals = self._filled()
        with np.errstate(invalid="ignore"):
            counts = np.sum(~np.isnan(vals), axis=2)
            sums = np.nansum(vals, axis=2)
            means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
        return pd.DataFrame(means, index=pd.Index(self.runs, name="run"), columns=self.labels)

    def n_queries(self) -> pd.Series:
        """How many queries each run's mean is over."""
        n = self.present.sum(axis=1) if self.missing == "skip" else np.full(len(self.runs), self.queries.size)
        return pd.Series(n, index=pd.Index(self.runs, name="run"), name="queries")

    def per_query(self) -> pd.DataFrame:
        """Per-query NDCG: one row per (run, qid) the run answered (all qrels queries with missing='zero')."""
        vals = self._filled()
        frames = []
        for r, run in enumerate(self.runs):
            keep = self.present[r] if self.missing == "skip" else np.ones(self.queries.size, dtype=bool)
            frame = pd.DataFrame(vals[r][:, keep].T, columns=self.labels)
            frame.insert(0, "qid", self.queries[keep])
            frame.insert(0, "run", run)
            frames.append(frame)
        if not frames:
            return pd.DataFrame(columns=["run", "qid", *self.labels])
        return pd.concat(frames, ignore_index=True)

    def order(self, variant) -> list[str]:
        """Runs from best to worst mean under a variant (ties keep input order)."""
        col = self.means().iloc[:, self._index(variant)].to_numpy()
        return [self.runs[i] for i in np.argsort(-np.nan_to_num(col, nan=-np.inf), kind="stable")]

    def orders(self) -> pd.DataFrame:
        """For every variant: the runs from best to worst, the winner and its margin."""
        means = self.means()
        rows = []
        for v in self.variants:
            order = self.order(v)
            col = means[v.label]
            margin = float(col[order[0]] - col[order[1]]) if len(order) > 1 else float("nan")
            rows.append({"variant": v.label, "gain": v.gain, "discount": v.discount, "idcg": v.idcg,
                         "ties": v.ties, "winner": order[0], "margin": margin, "order": " > ".join(order)})
        return pd.DataFrame(rows)

    def winner_changes(self) -> bool:
        """True when not every variant puts the same run first."""
        return self.orders()["winner"].nunique() > 1

    def tau(self) -> pd.DataFrame:
        """Kendall tau-b between variants' orderings of the runs (NaN with fewer than 2 runs)."""
        means = self.means().to_numpy()
        n = len(self.variants)
        out = np.full((n, n), np.nan)
        for i in range(n):
            for j in range(n):
                out[i, j] = kendall_tau(means[:, i], means[:, j]) if len(self.runs) > 1 else np.nan
        return pd.DataFrame(out, index=self.labels, columns=self.labels)

    def disagreements(self, a, b=None, *, n: int = 10) -> pd.DataFrame:
        """Queries where two variants (or, without ``b``, all variants) differ most.

        Columns: run, qid, the compared values and ``difference`` (|a - b|, or
        max - min over all variants), largest first.
        """
        n = check_whole(n, name="n", minimum=1)
        vals = self._filled()
        rows = []
        ia = self._index(a)
        ib = self._index(b) if b is not None else None
        for r, run in enumerate(self.runs):
            keep = np.flatnonzero(self.present[r] if self.missing == "skip" else np.ones(self.queries.size, bool))
            if ib is None:
                with np.errstate(invalid="ignore"):
                    diff = np.nanmax(vals[r][:, keep], axis=0) - np.nanmin(vals[r][:, keep], axis=0)
                frame = pd.DataFrame({"run": run, "qid": self.queries[keep], "difference": diff,
                                      "min": np.nanmin(vals[r][:, keep], axis=0),
                                      "max": np.nanmax(vals[r][:, keep], axis=0)})
            else:
                va, vb = vals[r, ia, keep], vals[r, ib, keep]
                frame = pd.DataFrame({"run": run, "qid": self.queries[keep], self.labels[ia]: va,
                                      self.labels[ib]: vb, "difference": np.abs(va - vb)})
            rows.append(frame)
        out = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
        if out.empty:
            return out
        return out.sort_values(["difference", "run", "qid"], ascending=[False, True, True], kind="stable") \
            .head(int(n)).reset_index(drop=True)


def evaluate(qrels: Table, runs: Sequence[Table], *, k=None, variants: Sequence[Variant] | None = None,
             log_base=2, relevance_level=None, missing: str = "skip",
             on_progress: Callable[[float, str], None] | None = None) -> Evaluation:
    """Evaluate runs against qrels under every variant (see the module docstring).

    ``qrels`` and ``runs`` come from :func:`metrics.runfiles.read.read_qrels` /
    :func:`metrics.runfiles.read.read_run` (``parsed.table``).  Run names must be distinct.
    Problems found here (queries missing on either side) are in ``Evaluation.problems``.

    Parameters
    ----------
    qrels : Table
        ``read_qrels(...).table``.
    runs : sequence of Table
        ``read_run(...).table`` for each run, with distinct names.
    k : int >= 1, optional
        Cut the list and the ideal at k (``ndcg_cut.k``).  Default ``None``: the whole list and, for
        "judged", the whole pool (trec_eval ``ndcg``).
    variants : sequence of Variant, optional
        Their gain, discount, IDCG source and tie rule (other fields at their defaults: the cutoff, base
        and level are this function's).  Default ``None``: :func:`make_variants` with its defaults (24 variants).
    log_base : float > 0, != 1, default 2
        The logarithm's base in the discount.
    relevance_level : float, optional
        Grades below it count as 0 (ranx's ``rel_lvl``).
    missing : {"skip", "zero"}, default "skip"
        A qrels query the run did not answer: left out of its mean, or counted as 0
        (:data:`MISSING`).
    on_progress : callable, optional
        Called with (fraction done, run name).

    Returns
    -------
    Evaluation
        ``values[run, variant, query]`` and ``means()``, ``per_query()``, ``orders()``, ``tau()``,
        ``disagreements()``, ``problems``.

    Raises
    ------
    ValueError
        For tables of the wrong kind, repeated run names, empty or wrong variants, or an invalid option.

    Examples
    --------
    Two runs on one query judged a = 3, b = 1.  Run "ab" is ideal; run "ba" gives
    (1 + 3/log2(3)) / (3 + 1/log2(3)) = 2.8928 / 3.6309 = 0.7967 with linear gain:

    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> qrels = read_qrels(b"q1 0 a 3\\nq1 0 b 1\\n").table
    >>> ab = read_run(b"q1 Q0 a 1 2 r\\nq1 Q0 b 2 1 r\\n", name="ab").table
    >>> ba = read_run(b"q1 Q0 b 1 2 r\\nq1 Q0 a 2 1 r\\n", name="ba").table
    >>> ev = evaluate(qrels, [ab, ba], variants=make_variants(gains="linear", discounts="standard",
    ...                                                      idcg="judged", ties="trec_eval"))
    >>> ev.means().round(4)["linear/standard/judged/trec_eval"].to_dict()
    {'ab': 1.0, 'ba': 0.7967}
    """
    k, b, level, variants = variant_options(k=k, log_base=log_base, relevance_level=relevance_level,
                                            missing=missing, variants=variants)
    requested = []
    for v in variants:
        params = (v.with_(k=k, log_base=b, level=level),)
        requested.append(Requested(MEASURES[VARIANT_MEASURE], params, None, variant_names(params)))
    result = evaluate_result(qrels, list(runs), requested, complete=missing == "zero", on_progress=on_progress)
    return Evaluation.of(result, k=k)


def variant_options(*, k, log_base, relevance_level, missing, variants) -> tuple:
    """The variants table's options checked once, for one machine and Spark alike: ``(k, log_base,
    relevance_level, variants)``, each refused naming the option and the bad value.

    >>> k, base, level, variants = variant_options(k=10, log_base=2, relevance_level=None, missing="zero",
    ...                                            variants=None)
    >>> k, base, level, len(variants) == len(make_variants())
    (10, 2.0, None, True)
    """
    k = check_k(k)
    base = check_log_base(log_base)
    level = check_real(relevance_level, name="relevance_level", allow_none=True)
    check_choice(missing, MISSING, name="missing")
    variants = list(variants) if variants is not None else make_variants()
    if not variants or not all(isinstance(v, Variant) for v in variants):
        raise ValueError("variants must be a non-empty list of Variant (see make_variants)")
    for v in variants:
        v.format("label")  # refuses, naming the field, a variant with a cutoff, base or level of its own
    return k, base, level, variants


def _rows_of(table: Table, qid: str) -> np.ndarray:
    code = pc.index(table.qid.dictionary, str(qid)).as_py()
    if code < 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(table.qid.indices.to_numpy() == code)


def query_lists(qrels: Table, run: Table, qid: str, *, ties: str = "trec_eval", relevance_level=None) -> dict:
    """One query's ranked list from a run, for display or for the playground.

    Returns ``grades`` in ranked order (unjudged = 0; ``ties`` as in :func:`evaluate`,
    ``"average"`` ranked like ``"stable"``), ``scores``, ``docnos``, ``pool`` (the grades of
    every judged document of the query, descending) and ``unretrieved`` / ``unretrieved_docnos``
    (the judged documents the run did not retrieve).

    Parameters
    ----------
    qrels : Table
        ``read_qrels(...).table``.
    run : Table
        ``read_run(...).table``.
    qid : str
        The query id.
    ties : str, default "trec_eval"
        A key of :data:`metrics.registry.TIES`.
    relevance_level : float, optional
        Grades below it count as 0.

    Returns
    -------
    dict
        ``qid``, ``grades``, ``scores``, ``docnos``, ``pool``, ``unretrieved``, ``unretrieved_docnos``
        (empty arrays when the run or the qrels lack the query).

    Raises
    ------
    ValueError
        For an unknown tie rule or an invalid relevance level.

    Examples
    --------
    The run ranks b (grade 2), x (not judged: 0), a (3); c (grade 1) was not retrieved:

    >>> from metrics.runfiles.read import read_qrels, read_run
    >>> qrels = read_qrels(b"q1 0 a 3\\nq1 0 b 2\\nq1 0 c 1\\n").table
    >>> run = read_run(b"q1 Q0 b 1 0.9 r\\nq1 Q0 x 2 0.5 r\\nq1 Q0 a 3 0.1 r\\n").table
    >>> lists = query_lists(qrels, run, "q1")
    >>> lists["docnos"], lists["grades"].tolist(), lists["unretrieved_docnos"], lists["pool"].tolist()
    (['b', 'x', 'a'], [2.0, 0.0, 3.0], ['c'], [3.0, 2.0, 1.0])
    """
    check_choice(ties, TIES, name="ties")
    level = check_real(relevance_level, name="relevance_level", allow_none=True)
    pool_rows = _rows_of(qrels, qid)
    grades_by_doc = dict(zip(id_strings(qrels.docno.take(pa.array(pool_rows))).to_pylist(),
                             effective_grades(qrels.value[pool_rows], level).tolist()))
    rows = _rows_of(run, qid)
    docnos = id_strings(run.docno.take(pa.array(rows))).to_pylist()
    scores = run.value[rows]
    grades = np.array([grades_by_doc.get(d, 0.0) for d in docnos], dtype=np.float64)
    rule = "stable" if ties == "average" else ties
    if rows.size:
        from ..ndcg import rank_by_scores

        order = rank_by_scores(grades, scores, ties=rule, docnos=docnos)
    else:
        order = np.zeros(0, dtype=np.int64)
    retrieved = set(docnos)
    missing = [(g, d) for d, g in grades_by_doc.items() if d not in retrieved]
    missing.sort(key=lambda x: (-x[0], x[1]))
    return {"qid": qid, "grades": grades[order], "scores": scores[order], "docnos": [docnos[i] for i in order],
            "pool": np.array(sorted(grades_by_doc.values(), reverse=True), dtype=np.float64),
            "unretrieved": np.array([g for g, _ in missing], dtype=np.float64),
            "unretrieved_docnos": [d for _, d in missing]}
