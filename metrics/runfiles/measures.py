"""Every measure trec_eval users rely on, and three it lacks, for all queries of a run at once.

Each measure is defined once here, with its source: for trec_eval's measures the file of
trec_eval 9.0.8 (the version pytrec_eval-terrier bundles) that computes it, e.g. ``m_ndcg_cut.c``;
for the extras the paper.  :data:`MEASURES` is the registry (name as trec_eval spells it,
parameters and their defaults, help, source, origin) and :data:`NICKNAMES` the measure sets
(``official``, ``all_trec``, ``set`` as in trec_eval; ``common`` and ``extras`` are ours).

The input of every measure is a :class:`Lists`: the ranked documents of every query as
trec_eval's ``form_res_rels.c`` forms them (retrieved documents ranked by score, ties by document
id descending; each document's *code*: its grade when judged, :data:`NONPOOL` when the qrels do
not list it, :data:`UNJUDGED` when the qrels give it a negative grade), plus the judged grades of
each query.  A measure returns one row of per-query values per printed name (``P_5``, ``P_10``,
...), computed for all queries at once with numpy: sums run in rank order (``np.bincount``
accumulates in array order), as trec_eval's loops do, so values agree to the last bit in all but
the experimental gain measures (tested against pytrec_eval to 1e-9, and the printed output
compared with trec_eval's).

A query's values, hand-derived: grades 2, not judged, 0, 1 in ranked order; the qrels judge four
documents (grades 2, 1, 0 and one more 1 that was not retrieved), so R = 3 relevant:

>>> lists = Lists.from_codes([[2, NONPOOL, 0, 1]], judged=[[2, 1, 0, 1]])
>>> [float(v) for v in evaluate_one(lists, "P.2")]          # 1 relevant in the top 2
[0.5]
>>> round(float(evaluate_one(lists, "map")[0]), 4)         # (1/1 + 2/4) / 3
0.5
>>> round(float(evaluate_one(lists, "recip_rank")[0]), 4)
1.0
"""
from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from .._numbers import safe_divide
from .._validation import check_choice, check_whole
from ..parse import ParseError, parse_gain_map
from ..registry import DISCOUNTS, GAINS, VARIANT_CHOICES, Choice

__all__ = [
    "INFAP_EPSILON",
    "MEASURES",
    "MIN_GEO_MEAN",
    "MEASURE_FACTS",
    "NICKNAMES",
    "NONPOOL",
    "JudgedGrades",
    "Lists",
    "NdcgVariant",
    "VARIANT_MEASURE",
    "Requested",
    "UNJUDGED",
    "block_positions",
    "evaluate_one",
    "effective_grades",
    "measure_names",
    "parse_measures",
    "parse_variant",
    "trec_sort_gains",
]

#: trec_eval's RELVALUE_NONPOOL: a retrieved document the qrels do not list.
NONPOOL = -1
#: trec_eval's RELVALUE_UNJUDGED: a retrieved document the qrels list with a negative grade ("in the pool
#: but not judged", as infAP's sampled qrels mark them).
UNJUDGED = -2
#: trec_eval's MIN_GEO_MEAN: per-query values below it count as it in geometric means (gm_map, gm_bpref).
MIN_GEO_MEAN = 0.00001
#: trec_eval's INFAP_EPSILON (m_infap.c).
INFAP_EPSILON = 0.00001


# ------------------------------------------------------------------------------------------ helpers
def block_positions(q: np.ndarray) -> np.ndarray:
    """1-based position of each row within its block of equal adjacent values.

    The rank of each document in its query's list, when rows are grouped by query in rank order.

    Parameters
    ----------
    q : array-like of int
        The query of each row; rows of a query are adjacent.

    Returns
    -------
    numpy.ndarray of int64
        1, 2, ... restarting at each new value.

    Examples
    --------
    >>> block_positions(np.array([4, 4, 4, 1, 1, 7])).tolist()
    [1, 2, 3, 1, 2, 1]
    """
    q = np.asarray(q)
    n = q.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    return np.arange(1, n + 1, dtype=np.int64) - np.repeat(starts, np.diff(np.r_[starts, n]))


def _qsum(q: np.ndarray, weights, n: int) -> np.ndarray:
    """Per-query sums, added in row order (``np.bincount`` loops over the rows as trec_eval's loops do)."""
    return np.bincount(q, weights=weights, minlength=n)[:n].astype(np.float64, copy=False)


def _qcount(q: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(q, minlength=n)[:n].astype(np.int64, copy=False)


def _segmented_cumsum(values: np.ndarray, q: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Inclusive running sums restarting at each query's first row (``start[q]``), each query's added one
    at a time from 0, as trec_eval's loops add them: a query's sums never depend on another query's rows
    (so a block of queries gives the same bits as the whole run).  One numpy step per rank."""
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    out = values.copy()
    if n == 0:
        return out
    rank = np.arange(n) - start[q]  # 0-based place within the query
    counts = np.bincount(rank)
    if counts.size == 1:
        return out
    order = np.argsort(rank, kind="stable")
    bounds = np.cumsum(counts)
    for r in range(1, counts.size):
        rows = order[bounds[r - 1]:bounds[r]]
        out[rows] = out[rows - 1] + values[rows]
    return out


def trec_sort_gains(entries: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """(level, gain) entries in the order trec_eval sorts them: glibc's merge sort (``qsort``) with
    trec_eval's comparator ``(int)(gain1 - gain2)``, which truncates gain differences below 1 to 0.

    For whole-number gains this is a stable sort by gain.  Gains closer than 1 compare equal and
    keep their order (trec_eval's ``-m ndcg.1=0.5,2=0.7``: level 2 is *not* put first; level 0,
    listed last, ends the ideal ranking at once and ndcg is 0, as pytrec_eval computes).

    Parameters
    ----------
    entries : sequence of (int, float)
        (relevance level, gain) pairs in the order trec_eval holds them.

    Returns
    -------
    list of (int, float)
        The pairs in ascending order as trec_eval's comparator sees it (the ideal ranking walks
        them from the end).

    References
    ----------
    .. [1] trec_eval 9.0.8, ``m_ndcg.c``, ``setup_gains`` and ``comp_rel_gain`` (returns the gain
       difference as an int); trec_eval 10 moved both to ``gain_init.c``.

    Examples
    --------
    Whole-number gains sort by gain; 0.7 - 0.5 = 0.2 truncates to 0, so 0.7 and 0.5 count as equal
    and keep their order:

    >>> trec_sort_gains([(1, 3.0), (2, 1.0), (0, 0.0)])
    [(0, 0.0), (2, 1.0), (1, 3.0)]
    >>> trec_sort_gains([(1, 0.7), (2, 0.5), (0, 0.0)])
    [(1, 0.7), (2, 0.5), (0, 0.0)]
    """
    items = list(entries)
    if len(items) <= 1:
        return items
    half = len(items) // 2
    left, right = trec_sort_gains(items[:half]), trec_sort_gains(items[half:])
    out: list[tuple[int, float]] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if int(left[i][1] - right[j][1]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


# ------------------------------------------------------------------------------------------ the input
def effective_grades(grades: np.ndarray, level: float | None) -> np.ndarray:
    """Grades as the NDCG variants use them: negative grades count 0, and with ``level`` grades below it
    count 0 too (ranx's ``rel_lvl``).

    Parameters
    ----------
    grades : numpy.ndarray of float
        Grades as given.
    level : float or None
        The lowest grade that counts; None: every grade > 0 counts.

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> effective_grades(np.array([-1.0, 0.5, 1.0, 3.0]), None).tolist()
    [0.0, 0.5, 1.0, 3.0]
    >>> effective_grades(np.array([-1.0, 0.5, 1.0, 3.0]), 1.0).tolist()
    [0.0, 0.0, 1.0, 3.0]
    """
    out = np.where(grades > 0, grades, 0.0)
    if level is not None:
        out = np.where(out >= level, out, 0.0)
    return out


class JudgedGrades:
    """Every judged grade of each query (retrieved or not), as given: the ideal ranking of the NDCG
    variants whose IDCG comes from all judged documents.  One object is shared by the lists of every
    run against the same qrels, so each ideal ranking is sorted once.

    Parameters
    ----------
    q : int array
        The query (0 .. n-1) of each judged document.
    grade : float array
        Its grade (negative: pooled but not judged; counts 0).

    Examples
    --------
    >>> iq, ig, ip = JudgedGrades(np.array([0, 1, 0]), np.array([1.0, 2.0, 3.0])).ideal(None)
    >>> iq.tolist(), ig.tolist(), ip.tolist()
    ([0, 0, 1], [3.0, 1.0, 2.0], [1, 2, 1])
    """

    def __init__(self, q, grade):
        self.q = np.ascontiguousarray(q, dtype=np.int64)
        self.grade = np.ascontiguousarray(grade, dtype=np.float64)
        self._cache: dict = {}

    def ideal(self, level: float | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(query, grade, 1-based position) of every grade > 0 (after ``level``), each query's sorted
        from the highest grade."""
        if level not in self._cache:
            g = effective_grades(self.grade, level)
            keep = g > 0
            q, g = self.q[keep], g[keep]
            order = np.lexsort((-g, q))
            q, g = q[order], g[order]
            self._cache[level] = (q, g, block_positions(q))
        return self._cache[level]


class Lists:
    """One run's ranked lists for ``n`` queries, as trec_eval's ``form_res_rels.c`` forms them.

    Parameters
    ----------
    q, pos, code : int arrays, one value per retrieved document
        Query (0 .. n-1), 1-based rank and code (grade >= 0, :data:`NONPOOL`, :data:`UNJUDGED`).
        The rows of a query are contiguous and in rank order.  Documents outside the qrels
        (:data:`NONPOOL`) may be left out: no measure needs them beyond ``num_ret``, so a run of 10^7
        lines is evaluated on its ~10^6 judged documents.
    n : int
        Number of queries (a query without rows is not evaluated: its values are 0).
    num_ret : int array, optional
        Documents retrieved per query (default: the rows of each query; required when rows are left out).
    levels : (query, grade, count) int arrays
        How many documents each query's qrels judge with each grade >= 0 (retrieved or not).
    relevance_level : int, default 1
        trec_eval ``-l``: grades >= it are relevant.  Must be >= 0.
    num_docs_in_coll : int, default 0
        trec_eval ``-N`` (used by ``utility``'s fourth coefficient).
    gmax : float, optional
        The highest grade of the scale, for ERR (default: the highest grade in ``levels``).
    grade : float array, optional
        Each row's grade as the qrels give it (fractions kept; 0 outside the qrels), for the NDCG
        variants (:data:`MEASURES` ``["nDCG"]``).  Default: the code where it is >= 0, else 0.
    ties : object, optional
        The ranker's tie information (:class:`metrics.runfiles.engine.TieOrder`): ``positions(rule)``
        (each row's 1-based rank under a tie rule of :data:`metrics.registry.TIES`) and ``groups()``
        (each row's first and last rank of its group of equal scores).  Default ``None``: no ties,
        every rule gives ``pos``.
    judged : JudgedGrades, optional
        Every qrels grade of each query as given (fractions kept), for the variants' ideal ranking
        from all judged documents.  Default: the whole grades of ``levels``.

    Use :meth:`from_codes` to build one by hand.
    """

    def __init__(self, *, q, pos, code, n: int, levels, num_ret=None, relevance_level: int = 1,
                 num_docs_in_coll: int = 0, gmax: float | None = None, grade=None, ties=None,
                 judged: JudgedGrades | None = None):
        self.q = np.ascontiguousarray(q, dtype=np.int64)
        self.pos = np.ascontiguousarray(pos, dtype=np.int64)
        self.code = np.ascontiguousarray(code, dtype=np.int64)
        self.n = int(n)
        self.grade = np.where(self.code > 0, self.code, 0).astype(np.float64) if grade is None \
            else np.ascontiguousarray(grade, dtype=np.float64)
        self.ties = ties
        self._judged = judged
        if num_ret is not None:
            self.__dict__["num_ret"] = np.ascontiguousarray(num_ret, dtype=np.int64)
        lq, lg, lc = (np.ascontiguousarray(a, dtype=np.int64) for a in levels)
        keep = lc > 0
        self.levels = (lq[keep], lg[keep], lc[keep])
        self.level = check_whole(relevance_level, name="relevance_level", minimum=0)
        self.num_docs_in_coll = int(num_docs_in_coll)
        self.gmax = float(gmax) if gmax is not None else (float(lg.max()) if lg.size else 0.0)

    @classmethod
    def from_codes(cls, ranked: Sequence[Sequence[int]], *, judged: Sequence[Sequence[int]], relevance_level: int = 1,
                   num_docs_in_coll: int = 0, gmax: float | None = None) -> Lists:
        """Lists from plain Python lists: per query, the codes in ranked order and the grades of all its
        judged documents (retrieved or not; negative grades allowed).

        >>> lists = Lists.from_codes([[1, NONPOOL], [0]], judged=[[1, 2], [0, 1]])
        >>> lists.num_ret.tolist(), lists.num_rel.tolist(), lists.num_rel_ret.tolist()
        ([2, 1], [2, 1], [1, 0])
        """
        if len(ranked) != len(judged):
            raise ValueError(f"ranked has {len(ranked)} queries but judged has {len(judged)}")
        q = np.concatenate([np.full(len(r), i, dtype=np.int64) for i, r in enumerate(ranked)] + [np.zeros(0, np.int64)])
        pos = np.concatenate([np.arange(1, len(r) + 1) for r in ranked] + [np.zeros(0, np.int64)])
        code = np.concatenate([np.asarray(r, dtype=np.int64) for r in ranked] + [np.zeros(0, np.int64)])
        rows = [(i, g) for i, grades in enumerate(judged) for g in grades if g >= 0]
        if rows:
            key, counts = np.unique(np.array(rows, dtype=np.int64), axis=0, return_counts=True)
            levels = (key[:, 0], key[:, 1], counts)
        else:
            levels = (np.zeros(0, np.int64),) * 3
        return cls(q=q, pos=pos, code=code, n=len(ranked), levels=levels, relevance_level=relevance_level,
                   num_docs_in_coll=num_docs_in_coll, gmax=gmax)

    # ---------------------------------------------------------------- the NDCG variants' input
    def tie_positions(self, rule: str) -> np.ndarray:
        """Each row's 1-based rank when tied scores are ordered by ``rule`` (a key of
        :data:`metrics.registry.TIES`; ``"trec_eval"`` is the rows' own order, ``pos``)."""
        if self.ties is None or rule == "trec_eval":
            return self.pos
        return self.ties.positions(rule)

    def tie_groups(self) -> tuple[np.ndarray, np.ndarray]:
        """Each row's first and last rank in its group of tied scores (``pos``, ``pos`` without ties)."""
        if self.ties is None:
            return self.pos, self.pos
        return self.ties.groups()

    @property
    def judged(self) -> JudgedGrades:
        """Every judged grade of each query as given (:class:`JudgedGrades`)."""
        if self._judged is None:
            lq, lg, lc = self.levels
            self._judged = JudgedGrades(np.repeat(lq, lc), np.repeat(lg, lc).astype(np.float64))
        return self._judged

    # ---------------------------------------------------------------- counts (trec_eval's RES_RELS)
    @cached_property
    def start(self) -> np.ndarray:
        """Row of each query's first document (0 for queries without rows)."""
        out = np.zeros(self.n, dtype=np.int64)
        if self.q.size:
            out[self.q[self._firsts]] = self._firsts
        return out

    @cached_property
    def _firsts(self) -> np.ndarray:
        return np.flatnonzero(np.r_[True, self.q[1:] != self.q[:-1]]) if self.q.size else np.zeros(0, np.int64)

    @cached_property
    def _key(self) -> np.ndarray:
        """Increasing along the rows: block number * (max rank + 1) + rank (for prefix lookups)."""
        if not self.q.size:
            return np.zeros(0, dtype=np.int64)
        block = np.zeros(self.q.size, dtype=np.int64)
        block[self._firsts[1:]] = 1
        return np.cumsum(block) * (int(self.pos.max()) + 1) + self.pos

    def prefix(self, values: np.ndarray):
        """A function ``(queries, x) -> sum of values over each query's rows ranked <= x``; a running
        sum restarting at each query (rows outside the qrels hold 0 and need not be there)."""
        csum = _segmented_cumsum(values, self.q, self.start)
        if not self.q.size:
            return lambda q, x: np.zeros(np.shape(q))
        scale = int(self.pos.max()) + 1
        block_of_q = np.full(self.n, -1, dtype=np.int64)
        block_of_q[self.q[self._firsts]] = np.arange(self._firsts.size)

        def at(q, x):
            q, x = np.asarray(q, dtype=np.int64), np.asarray(x, dtype=np.int64)
            out = np.zeros(q.shape)
            b = block_of_q[q]
            ok = b >= 0
            idx = np.searchsorted(self._key, b[ok] * scale + np.minimum(x[ok], scale - 1), side="right") - 1
            first = self._firsts[b[ok]]
            inside = idx >= first
            val = np.zeros(idx.shape)
            val[inside] = csum[idx[inside]]
            out[ok] = val
            return out

        return at

    @cached_property
    def num_ret(self) -> np.ndarray:
        return _qcount(self.q, self.n)

    @cached_property
    def num_rel(self) -> np.ndarray:
        """Judged documents with a grade >= the relevance level (``num_rel``)."""
        lq, lg, lc = self.levels
        keep = lg >= self.level
        return np.bincount(lq[keep], weights=lc[keep], minlength=self.n)[: self.n].astype(np.int64)

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        """Judged documents with a grade below the relevance level (bpref's denominator)."""
        lq, lg, lc = self.levels
        keep = lg < self.level
        return np.bincount(lq[keep], weights=lc[keep], minlength=self.n)[: self.n].astype(np.int64)

    @cached_property
    def num_rel_levels(self) -> np.ndarray:
        """trec_eval's ``num_rel_levels``: the highest judged grade + 1 (0 when nothing is judged >= 0)."""
        lq, lg, _ = self.levels
        out = np.zeros(self.n, dtype=np.int64)
        np.maximum.at(out, lq, lg + 1)
        return out

    @cached_property
    def rel(self) -> np.ndarray:
        """Rows of relevant retrieved documents (code >= the relevance level; judged, since the level is >= 0)."""
        return np.flatnonzero(self.code >= self.level)

    @cached_property
    def rel_q(self) -> np.ndarray:
        return self.q[self.rel]

    @cached_property
    def rel_pos(self) -> np.ndarray:
        return self.pos[self.rel]

    @cached_property
    def rel_k(self) -> np.ndarray:
        """1-based count of relevant documents so far (``rel_so_far``) at each relevant row."""
        return block_positions(self.rel_q)

    @cached_property
    def rel_start(self) -> np.ndarray:
        """Index (into the relevant rows) of each query's first relevant row."""
        out = np.zeros(self.n, dtype=np.int64)
        first = np.flatnonzero(self.rel_k == 1)
        out[self.rel_q[first]] = first
        return out

    @cached_property
    def num_rel_ret(self) -> np.ndarray:
        return _qcount(self.rel_q, self.n)

    def count(self, mask: np.ndarray) -> np.ndarray:
        """Rows per query where ``mask`` is set."""
        return _qcount(self.q[mask], self.n)

    def rel_in_top(self, k) -> np.ndarray:
        """Relevant documents among the first ``k`` (a number or one per query)."""
        k = np.asarray(k)
        limit = k if k.ndim == 0 else k[self.rel_q]
        return _qcount(self.rel_q[self.rel_pos <= limit], self.n)

    def before_rel(self, flag: np.ndarray) -> np.ndarray:
        """For each relevant row: how many rows earlier in its query have ``flag`` set."""
        flag = flag.astype(np.int64)
        c = np.cumsum(flag)
        if not self.rel.size:
            return np.zeros(0, dtype=np.int64)
        at = c[self.rel] - flag[self.rel]
        first = self.start[self.rel_q]
        return at - (c[first] - flag[first])

    # ---------------------------------------------------------------- gains and ideal rankings
    def gains(self, gain_map: Mapping[int, float] | None) -> np.ndarray:
        """Each row's gain: its grade, or the map's gain for it (trec_eval ``get_gain``: unjudged -> 0)."""
        out = np.where(self.code > 0, self.code, 0).astype(np.float64)
        for level, gain in (gain_map or {}).items():
            out[self.code == level] = gain
        return out

    def ideal(self, gain_map: Mapping[int, float] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ideal ranking's positive gains per query, as trec_eval walks its sorted gain levels
        (``setup_gains`` and the level walk of ``m_ndcg.c``): (query, 1-based position, gain)."""
        key = tuple(sorted((gain_map or {}).items()))
        cache = self.__dict__.setdefault("_ideal_cache", {})
        if key not in cache:
            cache[key] = self._ideal(gain_map or {})
        return cache[key]

    def _ideal(self, gain_map: Mapping[int, float]):
        lq, lg, lc = self.levels
        if not gain_map:
            keep = lg > 0
            q, g, c = lq[keep], lg[keep].astype(np.float64), lc[keep]
            order = np.lexsort((-g, q))
            q, g, c = q[order], g[order], c[order]
        else:
            nrl = self.num_rel_levels[lq]
            rank = np.empty(lq.size, dtype=np.int64)
            gain = np.empty(lq.size, dtype=np.float64)
            stop = np.full(self.n, np.iinfo(np.int64).max, dtype=np.int64)
            for v in np.unique(nrl):
                entries = list(gain_map.items()) + [(lv, float(lv)) for lv in range(int(v)) if lv not in gain_map]
                ordered = trec_sort_gains(entries)[::-1]  # walked from the highest
                where = {lv: (i, gn) for i, (lv, gn) in enumerate(ordered)}
                sel = np.flatnonzero(nrl == v)
                rank[sel] = [where[int(x)][0] for x in lg[sel]]
                gain[sel] = [where[int(x)][1] for x in lg[sel]]
                if ordered[0][1] <= 0:  # the walk starts from the top entry's gain, documents or not: no ideal
                    stop[lq[sel]] = 0
            # the walk stops at the first level with documents whose gain is <= 0
            np.minimum.at(stop, lq[gain <= 0], rank[gain <= 0])
            keep = rank < stop[lq]
            order = np.lexsort((rank[keep], lq[keep]))
            q, g, c = lq[keep][order], gain[keep][order], lc[keep][order]
        iq = np.repeat(q, c)
        return iq, block_positions(iq), np.repeat(g, c)

    def ideal_start(self, iq: np.ndarray) -> np.ndarray:
        out = np.zeros(self.n, dtype=np.int64)
        if iq.size:
            first = np.flatnonzero(np.r_[True, iq[1:] != iq[:-1]])
            out[iq[first]] = first
        return out


# ------------------------------------------------------------------------------------------ measures
def _num_q(lists, _params):
    return [np.ones(lists.n)]


def _num_ret(lists, _params):
    return [lists.num_ret.astype(np.float64)]


def _num_rel(lists, _params):
    return [lists.num_rel.astype(np.float64)]


def _num_rel_ret(lists, _params):
    return [lists.num_rel_ret.astype(np.float64)]


def _num_nonrel_judged_ret(lists, _params):
    return [lists.count((lists.code >= 0) & (lists.code < lists.level)).astype(np.float64)]


def _ap(lists) -> np.ndarray:
    s = _qsum(lists.rel_q, lists.rel_k.astype(np.float64) / lists.rel_pos.astype(np.float64), lists.n)
    return np.where(lists.num_rel_ret > 0, safe_divide(s, lists.num_rel), 0.0)


def _map(lists, _params):
    return [_ap(lists)]


def _gm_map(lists, _params):
    return [np.log(np.maximum(_ap(lists), MIN_GEO_MEAN))]


def _rprec(lists, _params):
    limit = np.minimum(lists.num_ret, lists.num_rel)
    return [np.where(limit > 0, safe_divide(lists.rel_in_top(limit), lists.num_rel), 0.0)]


def _bpref_values(lists) -> np.ndarray:
    nonrel = (lists.code >= 0) & (lists.code < lists.level)
    before = lists.before_rel(nonrel)
    r = lists.num_rel[lists.rel_q]
    contrib = np.ones(before.size)
    some = before > 0
    contrib[some] = 1.0 - np.minimum(before[some], r[some]).astype(np.float64) / \
        np.minimum(lists.num_nonrel[lists.rel_q][some], r[some]).astype(np.float64)
    s = _qsum(lists.rel_q, contrib, lists.n)
    return np.where(lists.num_rel > 0, safe_divide(s, lists.num_rel), s)


def _bpref(lists, _params):
    return [_bpref_values(lists)]


def _gm_bpref(lists, _params):
    return [np.log(np.maximum(_bpref_values(lists), MIN_GEO_MEAN))]


def _recip_rank(lists, _params):
    out = np.zeros(lists.n)
    first = lists.rel_k == 1
    out[lists.rel_q[first]] = 1.0 / lists.rel_pos[first].astype(np.float64)
    return [out]


def _interpolated(lists) -> np.ndarray:
    """Interpolated precision at each relevant row: the highest precision at or below it."""
    p = lists.rel_k.astype(np.float64) / lists.rel_pos.astype(np.float64)
    if not p.size:
        return p
    uniq, inv = np.unique(p, return_inverse=True)
    rq = lists.rel_q[::-1]
    seg = np.cumsum(np.r_[True, rq[1:] != rq[:-1]]).astype(np.int64)  # increasing along the reversed rows
    key = np.maximum.accumulate(seg * uniq.size + inv[::-1])
    return uniq[key - seg * uniq.size][::-1]


def _precision_at_recall(lists, fractions) -> list[np.ndarray]:
    """trec_eval 9's interpolated precision at recall fractions (``(long)(f * R + 0.9)`` relevant docs)."""
    ip = _interpolated(lists)
    with np.errstate(divide="ignore", invalid="ignore"):
        top = np.where(lists.num_rel_ret > 0, 0.0,
                       np.asarray(lists.num_rel_ret, np.float64) / np.asarray(lists.num_ret, np.float64))
    has = lists.num_rel_ret > 0
    top[has] = ip[lists.rel_start[has]]
    out = []
    for f in fractions:
        cut = (f * lists.num_rel.astype(np.float64) + 0.9).astype(np.int64)
        v = np.where(cut <= 0, top, 0.0)
        inside = (cut >= 1) & (cut <= lists.num_rel_ret)
        v[inside] = ip[lists.rel_start[inside] + cut[inside] - 1]
        out.append(v)
    return out


def _iprec_at_recall(lists, params):
    return _precision_at_recall(lists, params)


def _11pt_avg(lists, params):
    values = _precision_at_recall(lists, params)
    total = np.zeros(lists.n)
    for v in values[::-1]:  # trec_eval adds from the highest cutoff down
        total = total + v
    return [total / float(len(values))]


def _p(lists, cutoffs):
    return [lists.rel_in_top(k) / float(k) for k in cutoffs]


def _recall(lists, cutoffs):
    return [safe_divide(lists.rel_in_top(k), lists.num_rel) for k in cutoffs]


def _success(lists, cutoffs):
    return [(lists.rel_in_top(k) > 0).astype(np.float64) for k in cutoffs]


def _relative_p(lists, cutoffs):
    return [safe_divide(lists.rel_in_top(k), np.minimum(k, lists.num_rel)) for k in cutoffs]


def _map_cut(lists, cutoffs):
    w = lists.rel_k.astype(np.float64) / lists.rel_pos.astype(np.float64)
    out = []
    for k in cutoffs:
        m = lists.rel_pos <= k
        out.append(safe_divide(_qsum(lists.rel_q[m], w[m], lists.n), lists.num_rel))
    return out


def _rprec_mult(lists, fractions):
    out = []
    for f in fractions:
        cut = (f * lists.num_rel.astype(np.float64) + 0.9).astype(np.int64)
        out.append(np.where(cut > 0, safe_divide(lists.rel_in_top(cut), cut), 0.0))
    return out


def _infap(lists, _params):
    j = lists.rel_pos - 1
    rk = lists.rel_k
    nb = lists.before_rel((lists.code >= 0) & (lists.code < lists.level))
    ub = lists.before_rel(lists.code == UNJUDGED)
    val = np.ones(j.size)
    m = j > 0
    fj = j[m].astype(np.float64)
    r1 = rk[m] - 1
    val[m] = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((r1 + nb[m] + ub[m]) / fj) * \
        ((r1 + INFAP_EPSILON) / ((r1 + nb[m]) + 2 * INFAP_EPSILON))
    s = _qsum(lists.rel_q, val, lists.n)
    return [np.where(lists.num_rel > 0, safe_divide(s, lists.num_rel), s)]


def _utility(lists, params):
    a, b, c, d = params
    rel_ret, ret, rel = lists.num_rel_ret, lists.num_ret, lists.num_rel
    nonrel_not_ret = lists.num_docs_in_coll + rel_ret - ret - rel
    return [a * rel_ret + b * (ret - rel_ret) + c * (rel - rel_ret) + d * nonrel_not_ret]


def _bin_g(lists, _params):
    i = lists.rel_pos - 1
    w = 1.0 / np.log2((3 + i - lists.rel_k).astype(np.float64))
    s = _qsum(lists.rel_q, w, lists.n)
    return [np.where(lists.num_rel_ret > 0, safe_divide(s, lists.num_rel), 0.0)]


def _discounted(gains: np.ndarray, pos: np.ndarray) -> np.ndarray:
    return gains / np.log2((pos + 1).astype(np.float64))


def _ndcg(lists, gain_map):
    g = lists.gains(gain_map)
    nz = np.flatnonzero(g != 0)
    dcg = _qsum(lists.q[nz], _discounted(g[nz], lists.pos[nz]), lists.n)
    iq, ipos, ig = lists.ideal(gain_map)
    idcg = _qsum(iq, _discounted(ig, ipos), lists.n)
    return [np.where(idcg > 0, safe_divide(dcg, idcg), 0.0)]


def _ndcg_cut(lists, cutoffs):
    rows = np.flatnonzero(lists.code > 0)
    q, pos = lists.q[rows], lists.pos[rows]
    g = _discounted(lists.code[rows].astype(np.float64), pos)
    iq, ipos, ig = lists.ideal(None)
    idg = _discounted(ig, ipos)
    out = []
    for k in cutoffs:
        dcg = _qsum(q[pos <= k], g[pos <= k], lists.n)
        idcg = _qsum(iq[ipos <= k], idg[ipos <= k], lists.n)
        out.append(np.where(idcg > 0, safe_divide(dcg, idcg), dcg))
    return out


def _prefix_at(cum: np.ndarray, start: np.ndarray, q: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The running sum after the first ``x`` positions of query ``q`` of a complete ranking (0 when ``x`` is 0)."""
    out = np.zeros(x.shape, dtype=np.float64)
    m = x > 0
    out[m] = cum[start[q[m]] + x[m] - 1]
    return out


def _ideal_walk(lists, gain_map):
    """The ideal ranking's per-position gains and running DCG, and per-query length and totals."""
    iq, ipos, ig = lists.ideal(gain_map)
    istart = lists.ideal_start(iq)
    icum = _segmented_cumsum(_discounted(ig, ipos), iq, istart)
    length = _qcount(iq, lists.n)
    return iq, ipos, ig, istart, icum, length


def _ndcg_rel(lists, gain_map):
    g = lists.gains(gain_map)
    dg = _discounted(g, lists.pos)
    rcum = _segmented_cumsum(dg, lists.q, lists.start)
    iq, ipos, ig, istart, icum, length = _ideal_walk(lists, gain_map)
    rtotal = _qsum(lists.q, dg, lists.n)
    itotal = _prefix_at(icum, istart, np.arange(lists.n), length)
    pos_rows = np.flatnonzero(g > 0)
    q = lists.q[pos_rows]
    ideal_here = _prefix_at(icum, istart, q, np.minimum(lists.pos[pos_rows], length[q]))
    s = _qsum(q, rcum[pos_rows] / ideal_here, lists.n)
    s = s + (length - _qcount(q, lists.n)).astype(np.float64) * safe_divide(rtotal, itotal)  # 0 without relevant
    return [safe_divide(s, length, where=s > 0)]


def _rndcg(lists, gain_map):
    g = lists.gains(gain_map)
    dg = _discounted(g, lists.pos)
    results = lists.prefix(dg)
    iq, ipos, ig, istart, icum, length = _ideal_walk(lists, gain_map)
    n_ret = lists.num_ret
    # boundaries: the last position of each run of equal ideal gains (the ideal gain changes after it)
    change = np.r_[iq[1:] != iq[:-1], True] if iq.size else np.zeros(0, bool)
    if iq.size:
        change[:-1] |= ig[1:] != ig[:-1]
    b_rows = np.flatnonzero(change)
    bq, b = iq[b_rows], ipos[b_rows]
    terms = results(bq, np.minimum(b, n_ret[bq])) / icum[b_rows]
    extra_q = np.flatnonzero((length >= 1) & (n_ret > length + 1))
    extra = results(extra_q, n_ret[extra_q]) / _prefix_at(icum, istart, extra_q, length[extra_q])
    q_all = np.r_[bq, extra_q]
    s = _qsum(q_all, np.r_[terms, extra], lists.n)
    with np.errstate(invalid="ignore", divide="ignore"):  # 0 / 0 is trec_eval's nan (pytrec_eval agrees)
        value = s / _qcount(q_all, lists.n).astype(np.float64)
    return [np.where(lists.num_rel == 0, 0.0, value)]


def _g(lists, gain_map):
    g = lists.gains(gain_map)
    sres = _segmented_cumsum(g, lists.q, lists.start)
    iq, ipos, ig, istart, _icum, length = _ideal_walk(lists, gain_map)
    cost_cum = _segmented_cumsum(np.maximum(ig, 1.0), iq, istart)
    cost_total = _prefix_at(cost_cum, istart, np.arange(lists.n), length)
    rows = np.flatnonzero(g != 0)
    q, pos = lists.q[rows], lists.pos[rows]
    ln = length[q]
    cost = np.where(pos <= ln, _prefix_at(cost_cum, istart, q, np.minimum(pos, ln)),
                    cost_total[q] + (pos - ln).astype(np.float64))
    results_g = _qsum(q, g[rows] / np.log2(2 + cost - sres[rows]), lists.n)
    sum_ideal = _qsum(iq, ig, lists.n)
    return [np.where(sum_ideal > 0, safe_divide(results_g, sum_ideal), 0.0)]


def _set_p(lists, _params):
    return [safe_divide(lists.num_rel_ret, lists.num_ret)]


def _set_relative_p(lists, _params):
    den = np.where(lists.num_rel > 0, np.minimum(lists.num_ret, lists.num_rel), 0)
    return [safe_divide(lists.num_rel_ret, den)]


def _set_recall(lists, _params):
    return [safe_divide(lists.num_rel_ret, lists.num_rel)]


def _set_map(lists, _params):
    a = lists.num_rel_ret.astype(np.float64)
    den = np.where(lists.num_rel > 0, lists.num_ret.astype(np.float64) * lists.num_rel.astype(np.float64), 0.0)
    return [safe_divide(a * a, den)]


def _set_f(lists, params):
    (x,) = params
    a = lists.num_rel_ret.astype(np.float64)
    m = a > 0
    out = np.zeros(lists.n)
    p = a[m] / lists.num_ret[m]
    r = a[m] / lists.num_rel[m]
    out[m] = (x + 1.0) * p * r / (x * p + r)
    return [out]


def _judged(lists, cutoffs):
    rows = np.flatnonzero(lists.code >= 0)
    q, pos = lists.q[rows], lists.pos[rows]
    return [_qcount(q[pos <= k], lists.n) / float(k) for k in cutoffs]


def _err(lists, cutoffs):
    rows = np.flatnonzero(lists.code > 0)
    q, pos = lists.q[rows], lists.pos[rows]
    gmax = lists.gmax
    stop = np.exp2(lists.code[rows].astype(np.float64) - gmax) - np.exp2(-gmax)  # (2^g - 1)/2^gmax, no overflow
    rank = block_positions(q)  # documents with a grade > 0 so far; the others do not change the product
    contrib = np.zeros(rows.size)
    reach = np.ones(lists.n)  # probability that the user reaches the current document
    for r in range(1, int(rank.max()) + 1 if rank.size else 1):
        at = np.flatnonzero(rank == r)
        qq = q[at]
        contrib[at] = reach[qq] * stop[at] / pos[at].astype(np.float64)
        reach[qq] *= 1.0 - stop[at]
    return [_qsum(q[pos <= k], contrib[pos <= k], lists.n) for k in cutoffs]


def _rbp(lists, persistence):
    p = persistence["p"]
    w = np.power(p, (lists.rel_pos - 1).astype(np.float64))
    return [(1.0 - p) * _qsum(lists.rel_q, w, lists.n)]


def _rbp_resid(lists, persistence):
    # everything not judged within the run's depth d, plus the ranks past it:
    # 1 - (1 - p) * sum over judged documents of p^(i-1)  ==  p^d + (1 - p) * sum over unjudged i <= d of p^(i-1)
    p = persistence["p"]
    rows = np.flatnonzero(lists.code >= 0)
    w = np.power(p, (lists.pos[rows] - 1).astype(np.float64))
    return [1.0 - (1.0 - p) * _qsum(lists.q[rows], w, lists.n)]


# ------------------------------------------------------------------------------------------ NDCG variants
@dataclass(frozen=True)
class NdcgVariant:
    """The parameters of the ``nDCG`` measure: one choice of each kind (:data:`metrics.registry.VARIANT_CHOICES`),
    the logarithm's base, the relevance level and the cutoffs (None: the whole list and the whole pool)."""

    gain: str = "linear"
    discount: str = "standard"
    idcg: str = "judged"
    ties: str = "trec_eval"
    base: float = 2.0
    level: float | None = None
    cutoffs: tuple = (None,)

    def name(self, k: int | None) -> str:
        """The printed name, e.g. ``nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval)@10``."""
        parts = [f"gain={self.gain}", f"discount={self.discount}", f"idcg={self.idcg}", f"ties={self.ties}"]
        if self.base != 2.0:
            parts.append(f"base={self.base!r}")
        if self.level is not None:
            parts.append(f"level={self.level!r}")
        return f"{VARIANT_MEASURE}({','.join(parts)})" + ("" if k is None else f"@{k}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.name(k) for k in self.cutoffs)


#: The name of the parametrised NDCG measure (ir_measures' spelling): ``nDCG(gain=exponential,ties=average)@10``.
VARIANT_MEASURE = "nDCG"


def _divisors(discount: str, base: float, k: int | None, size: int) -> np.ndarray:
    """divisors[p] for p = 0..size: the discount at position p, inf past k (and at the unused 0)."""
    out = np.full(size + 1, np.inf)
    if size:
        out[1:] = DISCOUNTS[discount].func(np.arange(1, size + 1), base)
    if k is not None:
        out[k + 1:] = np.inf
    return out


def _variant_rows(lists: Lists, level) -> tuple[np.ndarray, np.ndarray]:
    """Rows with a grade > 0 (after ``level``) and those grades; cached per level."""
    cache = lists.__dict__.setdefault("_variant_rows", {})
    if level not in cache:
        g = effective_grades(lists.grade, level)
        rows = np.flatnonzero(g > 0)
        cache[level] = (rows, g[rows])
    return cache[level]


def _list_ideal(lists: Lists, level) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The retrieved list's own grades > 0 re-sorted (the "list" IDCG source): query, grade, position."""
    cache = lists.__dict__.setdefault("_list_ideal", {})
    if level not in cache:
        rows, g = _variant_rows(lists, level)
        q = lists.q[rows]
        order = np.lexsort((-g, q))
        q, g = q[order], g[order]
        cache[level] = (q, g, block_positions(q))
    return cache[level]


def _ndcg_variant(lists: Lists, v: NdcgVariant) -> list[np.ndarray]:
    """NDCG under one variant for every query, at each cutoff.  DCG and IDCG are computed once per
    (gain, discount, base, cutoff, tie rule or IDCG source, level) and shared by the variants of a run."""
    cache = lists.__dict__.setdefault("_variant_cache", {})
    rows, g = _variant_rows(lists, v.level)
    q = lists.q[rows]
    jq, jg, jp = lists.judged.ideal(v.level) if v.idcg == "judged" else _list_ideal(lists, v.level)
    gain = GAINS[v.gain].func
    size = max(int(lists.num_ret.max()) if lists.n else 0, int(jp.max()) if jp.size else 0, 1)
    out = []
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        gains = cache.setdefault(("gains", v.gain, v.level), gain(g))
        for k in v.cutoffs:
            dkey = ("div", v.discount, v.base, k, size)
            if dkey not in cache:
                cache[dkey] = _divisors(v.discount, v.base, k, size)
            div = cache[dkey]
            rule = "average" if v.ties == "average" else v.ties
            tkey = ("top", v.gain, v.discount, v.base, k, rule, v.level)
            if tkey not in cache:
                if v.ties == "average":
                    gstart, gend = lists.tie_groups()
                    cum = np.r_[0.0, np.cumsum(1.0 / div[1:])]
                    gs, ge = gstart[rows], gend[rows]
                    weights = gains * ((cum[ge] - cum[gs - 1]) / (ge - gs + 1))
                else:
                    weights = gains / div[lists.tie_positions(v.ties)[rows]]
                cache[tkey] = _qsum(q, weights, lists.n)
            bkey = ("best", v.gain, v.discount, v.base, k, v.idcg, v.level)
            if bkey not in cache:
                cache[bkey] = _qsum(jq, gain(jg) / div[jp], lists.n)
            value = safe_divide(cache[tkey], cache[bkey], where=cache[bkey] > 0)
            hkey = ("huge", v.gain, v.level)
            if hkey not in cache:  # a query graded beyond its gain's float64 range (2^1100 - 1): n/a, not 0 or 1
                huge = np.zeros(lists.n, dtype=bool)
                huge[q[~np.isfinite(gains)]] = True
                aq, ag, _ = lists.judged.ideal(v.level)  # every judged grade, whichever ideal this variant uses
                huge[aq[~np.isfinite(gain(ag))]] = True
                cache[hkey] = huge
            value[cache[hkey]] = np.nan
            out.append(value)
    return out


def _relstring(lists, params) -> list[np.ndarray]:
    length = max(int(params[0]), 0)
    take = np.flatnonzero(lists.pos <= length)
    code = lists.code[take]
    chars = np.where(code > 9, ">", np.where(code >= 0, np.clip(code, 0, 9).astype(str),
                                             np.where(code == NONPOOL, "-", np.where(code == UNJUDGED, ".", "<"))))
    width = np.minimum(lists.num_ret, length)
    out = np.full(lists.n, "", dtype=object)
    grid: dict[int, list[str]] = {}
    for qq, pp, ch in zip(lists.q[take].tolist(), lists.pos[take].tolist(), chars.tolist()):
        grid.setdefault(qq, ["-"] * int(width[qq]))[pp - 1] = ch
    for qq in np.flatnonzero(width > 0).tolist():
        out[qq] = "".join(grid.get(qq, ["-"] * int(width[qq])))
    return [out]


# ------------------------------------------------------------------------------------------ the registry
#: What a measure's :class:`~metrics.registry.Choice` says about itself (``MEASURES[name].<fact>``).
#:
#: ``params`` is the kind of parameter list: None, ``"cutoffs"`` (whole numbers >= 1: ``P.5,10``),
#: ``"fractions"`` (numbers: ``iprec_at_recall.0.1,0.5``), ``"numbers"`` (``set_F.0.5``),
#: ``"gains"`` (``ndcg.1=0,2=1``), ``"persistence"`` (``rbp.p=0.8``) or ``"variant"`` (``nDCG(gain=...,
#: ties=...)@k``, :func:`parse_variant`); ``defaults`` the values used without parameters.  ``summary``:
#: ``"mean"``, ``"sum"``, ``"count"``, ``"gm"`` (geometric mean), ``"runid"`` or ``"none"``.
#: ``per_query``: printed per query by ``-q``.  ``origin``: ``"trec_eval"``, ``"extra"`` or ``"variant"``.
#: ``count``: the exact number of parameters, when fixed.  The choice's ``value`` is what it prints:
#: ``"float"``, ``"long"`` (a whole number) or ``"text"``.  Its ``func(lists, params)`` returns one array of per-query
#: values per printed name; a query's values must depend on its own rows only (blocks of queries are
#: evaluated apart, :mod:`metrics.runfiles.engine`).
MEASURE_FACTS = {"params": None, "defaults": (), "summary": "mean", "per_query": True, "origin": "trec_eval",
                 "count": None}


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_TE = "trec_eval 9.0.8 "


def _m(name, help, source, compute, *, value: str = "float", **facts) -> Choice:
    """A measure as a :class:`~metrics.registry.Choice`: key and name as trec_eval spells it, ``value`` the kind
    of value it prints ("float", "long" or "text"), ``func`` (also ``compute``) what computes it, and the
    :data:`MEASURE_FACTS`."""
    unknown = set(facts) - set(MEASURE_FACTS)
    if unknown:
        raise ValueError(f"measure {name!r}: unknown facts {sorted(unknown)}; known: {sorted(MEASURE_FACTS)}")
    return Choice(name, name, help, func=compute, source=source, value=value,
                  facts={**MEASURE_FACTS, **facts, "compute": compute})


#: Every measure, in trec_eval's output order (its ``measures.c``), then the extras.
MEASURES: dict[str, Choice] = {m.key: m for m in [
    _m("runid", "The run's tag (the last field of the run file's last line).", _TE + "m_runid.c", None,
       summary="runid", per_query=False, value="text"),
    _m("num_q", "Number of queries evaluated (with -c, every query of the qrels, as in trec_eval 9 and 10).",
       _TE + "m_num_q.c", _num_q, summary="count", per_query=False, value="long"),
    _m("num_ret", "Number of documents retrieved (after -M and -J).", _TE + "m_num_ret.c", _num_ret,
       summary="sum", value="long"),
    _m("num_rel", "Number of relevant documents in the qrels (grade >= the relevance level -l); with -c the "
                  "summary counts every qrels query's lines graded > 0 (trec_eval 9's m_num_rel.c).",
       _TE + "m_num_rel.c", _num_rel, summary="sum", value="long"),
    _m("num_rel_ret", "Number of relevant documents retrieved.", _TE + "m_num_rel_ret.c", _num_rel_ret,
       summary="sum", value="long"),
    _m("map", "Mean average precision: precision at each relevant document retrieved, summed and divided by the "
              "number of relevant documents (unretrieved ones count 0).", _TE + "m_map.c", _map),
    _m("gm_map", "Average precision averaged over queries with the geometric mean (per-query values below 0.00001 "
                 "count as 0.00001); summary only.", _TE + "m_gm_map.c", _gm_map, summary="gm", per_query=False),
    _m("Rprec", "Precision after R documents, R = the number of relevant documents.", _TE + "m_Rprec.c", _rprec),
    _m("bpref", "Binary preference: for each relevant document retrieved, 1 - (judged non-relevant documents "
                "above it, at most R) / min(R, judged non-relevant); divided by R. Unjudged documents are "
                "ignored (Buckley & Voorhees, SIGIR 2004).", _TE + "m_bpref.c", _bpref),
    _m("recip_rank", "Reciprocal rank of the first relevant document retrieved.", _TE + "m_recip_rank.c",
       _recip_rank),
    _m("iprec_at_recall", "Interpolated precision (the highest precision at or below the point) at recall "
                          "fractions; trec_eval 9 takes (long)(f * R + 0.9) relevant documents, trec_eval 10 "
                          "rounds f * R.", _TE + "m_iprec_at_recall.c", _iprec_at_recall, params="fractions",
       defaults=_RECALL_POINTS),
    _m("P", "Precision at cutoffs: relevant documents in the top k / k (missing ranks count as non-relevant).",
       _TE + "m_P.c", _p, params="cutoffs", defaults=_CUTS),
    _m("relstring", "The grades of the first N (default 10) documents as a string: 0-9, '>' above 9, '-' not in "
                    "the qrels, '.' in the qrels with a negative grade; per query only.", _TE + "m_relstring.c",
       _relstring, params="numbers", defaults=(10.0,), summary="none", value="text", count=1),
    _m("recall", "Recall at cutoffs: relevant documents in the top k / R.", _TE + "m_recall.c", _recall,
       params="cutoffs", defaults=_CUTS),
    _m("infAP", "Inferred average precision for sampled judgments (qrels grade -1 = pooled but not judged) "
                "(Yilmaz & Aslam, CIKM 2006).", _TE + "m_infap.c", _infap),
    _m("gm_bpref", "bpref averaged over queries with the geometric mean; summary only.", _TE + "m_gm_bpref.c",
       _gm_bpref, summary="gm", per_query=False),
    _m("Rprec_mult", "Precision after (long)(m * R + 0.9) documents for multiples m of R.", _TE + "m_Rprec_mult.c",
       _rprec_mult, params="fractions", defaults=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    _m("utility", "Set utility a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*nonrel_not_ret (coefficients a,b,c,d; "
                  "d needs -N).", _TE + "m_utility.c", _utility, params="numbers", defaults=(1.0, -1.0, 0.0, 0.0),
       count=4),
    _m("11pt_avg", "Interpolated precision averaged over recall fractions (default the 11 points 0.0 ... 1.0).",
       _TE + "m_11pt_avg.c", _11pt_avg, params="numbers", defaults=_RECALL_POINTS),
    _m("binG", "Binary G: each relevant document retrieved scores 1 / log2(2 + non-relevant documents above it); "
               "divided by R (experimental in trec_eval).", _TE + "m_binG.c", _bin_g),
    _m("G", "Normalized gain G (experimental in trec_eval); gains as for ndcg.", _TE + "m_G.c", _g, params="gains"),
    _m("ndcg", "NDCG over the whole ranking: gain = grade (or the map L=G), 1/log2(rank + 1), ideal from every "
               "judged document (Jarvelin & Kekalainen 2002).", _TE + "m_ndcg.c", _ndcg, params="gains"),
    _m("ndcg_rel", "NDCG averaged over the relevant documents (experimental in trec_eval).", _TE + "m_ndcg_rel.c",
       _ndcg_rel, params="gains"),
    _m("Rndcg", "NDCG averaged at the R-level boundaries of the ideal ranking (experimental in trec_eval).",
       _TE + "m_Rndcg.c", _rndcg, params="gains"),
    _m("ndcg_cut", "NDCG at cutoffs: gain = grade, 1/log2(rank + 1), ideal from every judged document.",
       _TE + "m_ndcg_cut.c", _ndcg_cut, params="cutoffs", defaults=_CUTS),
    _m("map_cut", "Average precision at cutoffs (precisions of the relevant documents in the top k, divided by R).",
       _TE + "m_map_cut.c", _map_cut, params="cutoffs", defaults=_CUTS),
    _m("relative_P", "Precision at k relative to the best possible: relevant in the top k / min(k, R).",
       _TE + "m_rel_P.c", _relative_p, params="cutoffs", defaults=_CUTS),
    _m("success", "1 when a relevant document is in the top k, else 0.", _TE + "m_success.c", _success,
       params="cutoffs", defaults=(1, 5, 10)),
    _m("set_P", "Precision of the whole retrieved set.", _TE + "m_set_P.c", _set_p),
    _m("set_relative_P", "Set precision relative to the best possible: rel_ret / min(ret, R).",
       _TE + "m_set_rel_P.c", _set_relative_p),
    _m("set_recall", "Recall of the whole retrieved set.", _TE + "m_set_recall.c", _set_recall),
    _m("set_map", "Set 'map': rel_ret^2 / (ret * R) (precision times recall).", _TE + "m_set_map.c", _set_map),
    _m("set_F", "Set F measure (x + 1) P R / (x P + R), x = the weight of recall (default 1).", _TE + "m_set_F.c",
       _set_f, params="numbers", defaults=(1.0,), count=1),
    _m("num_nonrel_judged_ret", "Number of judged non-relevant documents retrieved.",
       _TE + "m_num_nonrel_judged_ret.c", _num_nonrel_judged_ret, summary="sum", value="long"),
    # ---- extras: not in trec_eval 9
    _m("judged", "judged@k: the fraction of the top k that the qrels judge (grade >= 0), missing ranks counting as "
                 "unjudged; 1 - trec_eval 10's unj.k. ir_measures' Judged@k also counts negative grades as judged.",
       "ir_measures Judged@k (MacAvaney et al.); trec_eval 10 m_unjudged.c", _judged, params="cutoffs",
       defaults=(5, 10, 20), origin="extra"),
    _m("err", "Expected reciprocal rank at k: sum over ranks r <= k of (1/r) R_r prod_{i<r} (1 - R_i), "
              "R = (2^grade - 1) / 2^gmax, gmax = the highest grade in the qrels unless given.",
       "Chapelle, Metzler, Zhang & Grinspan, CIKM 2009, eq. 4", _err, params="cutoffs", defaults=(5, 10, 20),
       origin="extra"),
    _m("rbp", "Rank-biased precision (1 - p) sum_i rel_i p^(i-1), binary relevance (grade >= -l), persistence p "
              "(default 0.9): rbp.p=0.8.", "Moffat & Zobel, ACM TOIS 27(1) 2008, eq. 6", _rbp, params="persistence",
       defaults=(("p", 0.9),), origin="extra"),
    _m("rbp_resid", "RBP's residual: the most the unjudged documents and the ranks past the run could add, "
                    "p^d + (1 - p) sum_{unjudged i <= d} p^(i-1) for a run of d documents.",
       "Moffat & Zobel, ACM TOIS 27(1) 2008, section 4", _rbp_resid, params="persistence", defaults=(("p", 0.9),),
       origin="extra"),
    # ---- NDCG under any variant: the choices of metrics.registry as parameters
    _m(VARIANT_MEASURE, "NDCG under a chosen variant: nDCG(gain=G,discount=D,idcg=S,ties=T[,base=B][,level=L])@k, "
                        "each choice from metrics.registry (defaults linear, standard, judged, trec_eval; base 2; "
                        "no @k: the whole list and, for idcg=judged, the whole pool). Grades are used as given "
                        "(fractions kept, negative = 0, below level = 0).",
       "metrics.ndcg (every value equals ndcg_from_scores on the query's list); ir_measures nDCG(...)@k naming",
       _ndcg_variant, params="variant", defaults=NdcgVariant(), origin="variant"),
]}

_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
             "iprec_at_recall", "P")
_ALL_TREC = tuple(name for name, m in MEASURES.items() if m.origin == "trec_eval")
_SET = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P",
        "set_map", "set_F")
#: Measure sets, as trec_eval's ``-m`` nicknames (``official`` is trec_eval's default), plus ``common`` (what most
#: papers report; the benchmark's set) and ``extras`` (the measures trec_eval 9 lacks).
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": _OFFICIAL,
    "all_trec": _ALL_TREC,
    "set": _SET,
    "common": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
               "recip_rank", "iprec_at_recall", "P", "recall", "infAP", "ndcg", "ndcg_cut", "map_cut", "success",
               "set_P", "set_recall", "set_F"),
    "extras": tuple(name for name, m in MEASURES.items() if m.origin == "extra"),
}
_UNSUPPORTED = {"all_prefs", "prefs", "qrels_jg"}


# ------------------------------------------------------------------------------------------ -m parsing
@dataclass(frozen=True)
class Requested:
    """A measure to compute: the registry entry, its parameters and the names it prints."""

    info: Choice
    params: object
    printable: str | None
    names: tuple[str, ...]

    def compute(self, lists: Lists) -> list[np.ndarray]:
        return self.info.func(lists, self.params)


_DIGITS = re.compile(r"[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _power(n: int) -> str:
    return f"10^{len(str(n)) - 1}"


def _bad(spec: str, why: str) -> ValueError:
    return ValueError(f"measure '{spec}': {why}")


def _params(info: Choice, spec: str, text: str | None):
    """(params, printable, names) for a measure and its parameter text (None: the defaults)."""
    name = info.name
    if info.params is None:
        if text is not None:
            raise _bad(spec, f"{name} takes no parameters")
        return None, None, (name,)
    if info.params in ("cutoffs", "fractions", "numbers"):
        tokens = info.defaults if text is None else text.split(",")
        values = []
        for tok in tokens:
            if isinstance(tok, str):
                if info.params == "cutoffs":
                    if not _DIGITS.fullmatch(tok):
                        raise _bad(spec, f"cutoff '{tok[:20]}' is not a whole number >= 1")
                    value = int(tok)
                    if value < 1 or value > 10**12:
                        raise _bad(spec, f"cutoff {tok[:20]} must be between 1 and 10^12")
                else:
                    if not _NUMBER.fullmatch(tok) or not math.isfinite(float(tok)):
                        raise _bad(spec, f"parameter '{tok[:20]}' is not a number")
                    value = float(tok)
                    limit = 10**9 if name == "relstring" else 10**6 if info.params == "fractions" else 10**15
                    if abs(value) > limit or (name == "relstring" and value < 0):
                        low = 0 if name == "relstring" else f"-{_power(limit)}"
                        raise _bad(spec, f"parameter {tok[:20]} must be between {low} and {_power(limit)}")
            else:
                value = tok
            values.append(value)
        if info.count is not None and len(values) != info.count:
            raise _bad(spec, f"{name} takes {info.count} parameter(s), got {len(values)}")
        if info.params in ("cutoffs", "fractions"):
            ordered = sorted(values)
            dupes = sorted({v for v in ordered if ordered.count(v) > 1})
            if dupes:
                raise _bad(spec, f"cutoff {dupes[0]:g} is given twice")
            values = ordered
            fmt = (lambda v: f"{name}_{v}") if info.params == "cutoffs" else (lambda v: f"{name}_{v:3.2f}")
            return tuple(values), text, tuple(fmt(v) for v in values)
        if name == "11pt_avg" and values != sorted(values):
            raise _bad(spec, "recall fractions must be in increasing order (trec_eval assumes it)")
        return tuple(values), text, ((name,) if text is None else (f"{name}_{text}",))
    if info.params == "gains":
        if text is None:
            return {}, None, (name,)
        try:
            pairs = parse_gain_map(text)
        except (ParseError, ValueError) as exc:
            raise _bad(spec, str(exc)) from None
        if any(level != int(level) for level in pairs):
            raise _bad(spec, "levels must be whole grades (trec_eval reads them as integers)")
        return {int(level): gain for level, gain in pairs.items()}, text, (f"{name}_{text}",)
    # persistence: p=<number> with 0 < p < 1
    if text is None:
        return dict(info.defaults), None, (name,)
    key, eq, value = text.partition("=")
    if key != "p" or not eq or not _NUMBER.fullmatch(value):
        raise _bad(spec, f"write the persistence as {name}.p=0.8")
    p = float(value)
    if not 0.0 < p < 1.0:
        raise _bad(spec, f"persistence p={value} must be between 0 and 1 (exclusive)")
    return {"p": p}, text, (f"{name}_{text}",)


def parse_measures(specs: Iterable[str]) -> list[Requested]:
    """The measures named by trec_eval ``-m`` arguments, in trec_eval's output order.

    A spec is a measure (``map``), a measure with parameters after a dot (``P.5,10``,
    ``ndcg.1=0,2=1``, ``rbp.p=0.8``) or a set (``official``, ``all_trec``, ``set``, ``common``,
    ``extras``).  As in trec_eval, a measure named twice keeps the parameters it was first given
    (``-m P.5 -m P.10`` prints P_5 only) and a set marks its measures with their defaults.

    Parameters
    ----------
    specs : str or iterable of str
        One spec or several, as given to ``-m``.

    Returns
    -------
    list of Requested
        One per measure, in :data:`MEASURES` order, with ``info``, ``params`` and ``names`` (what it
        prints).

    Raises
    ------
    ValueError
        Naming the bad spec: an unknown measure (with a "did you mean"), bad parameters (a cutoff
        that is not a whole number, a persistence outside (0, 1), ...), parameters for a set, or a
        set trec_eval needs other qrels formats for.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``trec_eval.c`` (``-m`` parsing) and ``measures.c`` (the sets).

    Examples
    --------
    Cutoffs are sorted, and measures come out in trec_eval's order (map before ndcg_cut):

    >>> [r.names for r in parse_measures(["ndcg_cut.10,5", "map"])]
    [('map',), ('ndcg_cut_5', 'ndcg_cut_10')]
    >>> parse_measures(["P_5"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown measure 'P_5' (did you mean 'P.5'?); measures are runid, num_q, ...
    >>> [r.names for r in parse_measures(["P.5", "P.10"])]  # the first parameters win, as in trec_eval
    [('P_5',)]
    """
    if isinstance(specs, str):
        specs = [specs]
    marked: set[str] = set()
    texts: dict[str, tuple[str, str]] = {}
    variants: dict[tuple[str, ...], NdcgVariant] = {}
    for spec in specs:
        if not isinstance(spec, str):
            raise ValueError(f"a measure must be text such as 'map' or 'P.5,10', got {spec!r:.40}")
        if _VARIANT_SPEC.match(spec.strip()):
            v = parse_variant(spec)
            variants.setdefault(v.names, v)
            continue
        name, dot, text = spec.strip().partition(".")
        if dot and not text:
            raise _bad(spec, "nothing after the '.'; give parameters such as P.5,10 or leave out the dot")
        if name in NICKNAMES:
            if dot:
                raise _bad(spec, f"the set '{name}' takes no parameters")
            marked.update(NICKNAMES[name])
        elif name in MEASURES:
            marked.add(name)
            if dot and name not in texts:
                texts[name] = (spec, text)
        elif name in _UNSUPPORTED:
            raise ValueError(f"measure set '{name}' needs trec_eval's preference or judgment-group qrels formats, "
                             "which are not supported")
        else:
            raise ValueError(_unknown(spec))
    out = []
    for name, info in MEASURES.items():
        if name in marked:
            spec, text = texts.get(name, (name, None))
            out.append(Requested(info, *_params(info, spec, text)))
    seen: set[str] = set()
    for names, v in variants.items():  # in the order given; a name printed already is not computed twice
        names = tuple(n for n in names if n not in seen)
        if names:
            seen.update(names)
            v = replace(v, cutoffs=tuple(c for c in v.cutoffs if v.name(c) in names))
            out.append(Requested(MEASURES[VARIANT_MEASURE], v, None, names))
    return out


_VARIANT_KEYS = (*VARIANT_CHOICES, "base", "level")
_VARIANT_SPEC = re.compile(re.escape(VARIANT_MEASURE) + r"(\(|@|$)")
_VARIANT_FORM = re.compile(re.escape(VARIANT_MEASURE) + r"(?:\((?P<params>[^()]*)\))?(?:@(?P<cuts>.*))?")


def parse_variant(spec: str) -> NdcgVariant:
    """The NDCG variant named by a spec such as ``nDCG(gain=exponential,ties=average)@10``.

    Parameters
    ----------
    spec : str
        ``nDCG``, then optionally ``(key=value,...)`` with keys ``gain``, ``discount``, ``idcg``, ``ties``
        (names of :data:`metrics.registry.VARIANT_CHOICES`), ``base`` (the logarithm's base, > 0 and != 1)
        and ``level`` (grades below it count 0), then optionally ``@k`` or ``@k1,k2`` (cutoffs >= 1).
        Keys left out take their defaults: linear, standard, judged, trec_eval, base 2, no level, the
        whole list.

    Returns
    -------
    NdcgVariant
        Its ``names`` are the names the measure prints, one per cutoff, every choice spelled out.

    Raises
    ------
    ValueError
        Naming the spec and what is wrong in it: an unknown key or name (with the valid ones), a key
        given twice, a base or level that is not a finite number, a cutoff that is not a whole number.

    Examples
    --------
    >>> parse_variant("nDCG(ties=average,gain=exponential)@10").names
    ('nDCG(gain=exponential,discount=standard,idcg=judged,ties=average)@10',)
    >>> parse_variant("nDCG(base=10)@5,3").names  # doctest: +NORMALIZE_WHITESPACE
    ('nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval,base=10.0)@3',
     'nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval,base=10.0)@5')
    >>> parse_variant("nDCG(gain=cubic)")
    Traceback (most recent call last):
    ...
    ValueError: measure 'nDCG(gain=cubic)': unknown gain 'cubic'; valid names are 'linear', 'exponential', 'binary'
    """
    text = str(spec).strip()
    m = _VARIANT_FORM.fullmatch(text)
    if m is None:
        raise _bad(text[:60], f"write it as {VARIANT_MEASURE}(gain=linear,discount=standard,idcg=judged,"
                              "ties=trec_eval)@10 (every part optional)")
    fields: dict[str, object] = {}
    params = (m.group("params") or "").strip()
    for part in params.split(",") if params else []:
        key, eq, value = (x.strip() for x in part.partition("="))
        if not eq or not key:
            raise _bad(text[:60], f"'{part[:20]}' is not key=value (keys: {', '.join(_VARIANT_KEYS)})")
        if key in fields:
            raise _bad(text[:60], f"{key} is given twice")
        if key in VARIANT_CHOICES:
            try:
                check_choice(value, VARIANT_CHOICES[key], name=key)
            except ValueError as exc:
                raise _bad(text[:60], str(exc)) from None
            fields[key] = value
        elif key in ("base", "level"):
            if not _NUMBER.fullmatch(value) or not math.isfinite(float(value)):
                raise _bad(text[:60], f"{key} '{value[:20]}' is not a finite number")
            number = float(value)
            if key == "base" and (number <= 0 or number == 1):
                raise _bad(text[:60], f"base {value[:20]} must be > 0 and != 1")
            fields[key] = number
        else:
            raise _bad(text[:60], f"unknown key '{key[:20]}'; keys are {', '.join(_VARIANT_KEYS)}")
    cutoffs: tuple = (None,)
    if m.group("cuts") is not None:
        values = []
        for tok in m.group("cuts").split(","):
            tok = tok.strip()
            if not _DIGITS.fullmatch(tok) or not 1 <= int(tok) <= 10**12:
                raise _bad(text[:60], f"cutoff '{tok[:20]}' is not a whole number between 1 and 10^12")
            if int(tok) in values:
                raise _bad(text[:60], f"cutoff {int(tok)} is given twice")
            values.append(int(tok))
        cutoffs = tuple(sorted(values))
    return NdcgVariant(**fields, cutoffs=cutoffs)


def _unknown(spec: str) -> str:
    base = spec.split(".")[0]
    hint = ""
    m = re.fullmatch(r"([A-Za-z_0-9]+?)_([0-9][0-9.,]*)", base)
    if m and m.group(1) in MEASURES:
        hint = f" (did you mean '{m.group(1)}.{m.group(2)}'?)"
    else:
        names = list(MEASURES) + list(NICKNAMES)
        close = [n for n in names if n.lower() == base.lower()] or difflib.get_close_matches(base, names, n=1)
        if close:
            hint = f" (did you mean '{close[0]}'?)"
    names = ", ".join(list(MEASURES)[:3])
    return f"unknown measure '{spec[:40]}'{hint}; measures are {names}, ... (see --help); sets are " \
           f"{', '.join(NICKNAMES)}"


def measure_names(specs: Iterable[str]) -> list[str]:
    """The names the measures print, in output order (what the result's ``measure`` column holds).

    Parameters
    ----------
    specs : str or iterable of str
        As for :func:`parse_measures`.

    Returns
    -------
    list of str
        ``P_5``, ``ndcg_cut_10``, ... as trec_eval prints them.

    Raises
    ------
    ValueError
        As for :func:`parse_measures`.

    Examples
    --------
    >>> measure_names(["P.10,5", "ndcg.1=0,2=1", "rbp"])
    ['P_5', 'P_10', 'ndcg_1=0,2=1', 'rbp']
    """
    return [name for r in parse_measures(specs) for name in r.names]


def evaluate_one(lists: Lists, spec: str) -> np.ndarray:
    """The per-query values of one measure (its first printed name) on hand-built :class:`Lists`.

    For teaching and tests: build a query's list by hand with :meth:`Lists.from_codes` and see what
    a trec_eval measure gives.

    Parameters
    ----------
    lists : Lists
        The ranked lists of one run.
    spec : str
        One measure, as for ``-m`` (``"map"``, ``"P.5"``, ``"ndcg_cut.2"``); not a set.

    Returns
    -------
    numpy.ndarray of float64
        One value per query, for the measure's first printed name (``P.5,10`` gives ``P_5``).

    Raises
    ------
    ValueError
        If ``spec`` is not one valid measure.

    Examples
    --------
    Grades 0, 3 in ranked order, and a judged 2 that was not retrieved: DCG = 0 + 3/log2(3) = 1.8928,
    ideal 3, 2: IDCG = 3 + 2/log2(3) = 4.2619:

    >>> lists = Lists.from_codes([[0, 3]], judged=[[0, 3, 2]])
    >>> [round(float(v), 4) for v in evaluate_one(lists, "ndcg")]   # (3/log2 3) / (3 + 2/log2 3)
    [0.4441]
    """
    found = [r for r in parse_measures([spec]) if r.info.name == str(spec).split(".")[0]]
    if len(found) != 1:
        raise ValueError(f"evaluate_one takes one measure (such as 'map' or 'P.10'), got {str(spec)[:40]!r}; "
                         "use evaluate_measures for a set such as 'official'")
    return found[0].compute(lists)[0]
