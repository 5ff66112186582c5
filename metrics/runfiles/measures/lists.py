"""The ranked-lists model: what every measure reads, for all queries of one run at once.

A :class:`Lists` holds the ranked documents of every query as trec_eval's ``form_res_rels.c`` forms
them (retrieved documents ranked by score, ties by document id descending; each document's *code*:
its grade when judged, :data:`NONPOOL` when the qrels do not list it, :data:`UNJUDGED` when the qrels
give it a negative grade), plus the judged grades of each query.  Derived views (another relevance
level, only the judged documents, another tie order) and the values kernels share are built once per
list and kept in the list's own memo (:meth:`Lists.memo`); nothing outside writes into it.

The helpers here are the vector steps the kernels are made of: per-query sums in row order
(:func:`query_sum`, as trec_eval's loops add), running sums restarting at each query
(:func:`segmented_cumsum`), 1-based positions within a query (:func:`block_positions`) and the one
ideal-ranking builder (:func:`ideal_ranking`).

>>> lists = Lists.from_codes([[2, NONPOOL, 0, 1]], judged=[[2, 1, 0, 1]])
>>> lists.num_ret.tolist(), lists.num_rel.tolist(), lists.num_rel_ret.tolist()
([4], [3], [2])
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property

import numpy as np

from ..._validation import check_whole

__all__ = [
    "DOCNO_ASCENDING",
    "INFAP_EPSILON",
    "MIN_GEO_MEAN",
    "NONPOOL",
    "UNJUDGED",
    "JudgedGrades",
    "Lists",
    "block_positions",
    "effective_grades",
    "ideal_ranking",
    "prefix_at",
    "query_count",
    "query_sum",
    "segmented_cumsum",
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
#: A tie order besides :data:`metrics.registry.TIES`: score descending, then document id ascending
#: (Python's ``sorted(key=lambda d: (-score, docid))``), as ir_measures' judged, msmarco, compat and
#: pyndeval providers rank a run (trec_eval orders ties by document id descending).
DOCNO_ASCENDING = "docno"


# ------------------------------------------------------------------------------------------ vector steps
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


def query_sum(q: np.ndarray, weights, n: int) -> np.ndarray:
    """Per-query sums of ``weights``, added in row order (``np.bincount`` loops over the rows as trec_eval's
    loops do, so a query's sum has the same bits as trec_eval's).

    Parameters
    ----------
    q : numpy.ndarray of int
        The query (0 .. n-1) of each row.
    weights : numpy.ndarray of float
        The value of each row.
    n : int
        Number of queries.

    Returns
    -------
    numpy.ndarray of float64
        One sum per query (0 for a query without rows).

    Examples
    --------
    >>> query_sum(np.array([0, 2, 0]), np.array([0.5, 1.0, 0.25]), 3).tolist()
    [0.75, 0.0, 1.0]
    """
    return np.bincount(q, weights=weights, minlength=n)[:n].astype(np.float64, copy=False)


def query_count(q: np.ndarray, n: int) -> np.ndarray:
    """Rows per query.

    Parameters
    ----------
    q : numpy.ndarray of int
        The query (0 .. n-1) of each row.
    n : int
        Number of queries.

    Returns
    -------
    numpy.ndarray of int64

    Examples
    --------
    >>> query_count(np.array([0, 2, 0]), 3).tolist()
    [2, 0, 1]
    """
    return np.bincount(q, minlength=n)[:n].astype(np.int64, copy=False)


def segmented_cumsum(values: np.ndarray, q: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Inclusive running sums restarting at each query's first row, each query's added one at a time from 0.

    As trec_eval's loops add them: a query's sums never depend on another query's rows, so a block of
    queries gives the same bits as the whole run.  One numpy step per rank.

    Parameters
    ----------
    values : numpy.ndarray of float
        The value of each row; rows of a query are contiguous.
    q : numpy.ndarray of int
        The query of each row.
    start : numpy.ndarray of int
        The row of each query's first row (``start[q]`` is a row's query start).

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> segmented_cumsum(np.array([1.0, 2.0, 4.0, 8.0]), np.array([0, 0, 1, 1]), np.array([0, 2])).tolist()
    [1.0, 3.0, 4.0, 12.0]
    """
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


def prefix_at(cum: np.ndarray, start: np.ndarray, q: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The running sum after the first ``x`` positions of query ``q`` of a complete ranking (0 when ``x`` is 0).

    Parameters
    ----------
    cum : numpy.ndarray of float
        Running sums of a ranking with a row for every position (:func:`segmented_cumsum`).
    start : numpy.ndarray of int
        Each query's first row in ``cum``.
    q, x : numpy.ndarray of int
        Queries and how many positions of each.

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> prefix_at(np.array([1.0, 3.0, 4.0]), np.array([0, 2]), np.array([0, 0, 1]), np.array([2, 0, 1])).tolist()
    [3.0, 0.0, 4.0]
    """
    out = np.zeros(x.shape, dtype=np.float64)
    m = x > 0
    out[m] = cum[start[q[m]] + x[m] - 1]
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


def ideal_ranking(q: np.ndarray, gain: np.ndarray, *, count: np.ndarray | None = None,
                  order: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The one ideal-ranking builder: each query's items sorted best first, with their 1-based positions.

    Every ideal ranking of the measures comes from here: the NDCG variants' from all judged documents
    or from the retrieved list, trec_eval's from its judged levels (walked in its own gain order).

    Parameters
    ----------
    q : numpy.ndarray of int
        The query of each item (any order).
    gain : numpy.ndarray of float
        Its gain.
    count : numpy.ndarray of int, optional
        How many documents each item stands for (trec_eval's levels: one item per grade and query).
        Default: one each.
    order : numpy.ndarray, optional
        A sort key, smallest first (trec_eval's walk of its sorted gain levels).  Default: gain
        descending.  Items with equal keys keep their given order.

    Returns
    -------
    (q, position, gain) : tuple of numpy.ndarray
        One row per ideal position, queries ascending, positions 1, 2, ... within each.

    Examples
    --------
    >>> iq, ip, ig = ideal_ranking(np.array([1, 0, 0]), np.array([2.0, 1.0, 3.0]), count=np.array([1, 2, 1]))
    >>> iq.tolist(), ip.tolist(), ig.tolist()
    ([0, 0, 0, 1], [1, 2, 3, 1], [3.0, 1.0, 1.0, 2.0])
    """
    q = np.asarray(q, dtype=np.int64)
    gain = np.asarray(gain, dtype=np.float64)
    sort = np.lexsort((-gain if order is None else order, q))
    q, gain = q[sort], gain[sort]
    if count is not None:
        c = np.asarray(count, dtype=np.int64)[sort]
        q, gain = np.repeat(q, c), np.repeat(gain, c)
    return q, block_positions(q), gain


# ------------------------------------------------------------------------------------------ the input
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
    >>> iq, ip, ig = JudgedGrades(np.array([0, 1, 0]), np.array([1.0, 2.0, 3.0])).ideal(None)
    >>> iq.tolist(), ip.tolist(), ig.tolist()
    ([0, 0, 1], [1, 2, 1], [3.0, 1.0, 2.0])
    """

    def __init__(self, q, grade):
        self.q = np.ascontiguousarray(q, dtype=np.int64)
        self.grade = np.ascontiguousarray(grade, dtype=np.float64)
        self._ideal: dict = {}

    def ideal(self, level: float | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(query, 1-based position, grade) of every grade > 0 (after ``level``), each query's sorted
        from the highest grade (:func:`ideal_ranking`)."""
        if level not in self._ideal:
            g = effective_grades(self.grade, level)
            keep = g > 0
            self._ideal[level] = ideal_ranking(self.q[keep], g[keep])
        return self._ideal[level]


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
    qrow : int array, optional
        Each row's line of the qrels (its index in ``judged``): what Compat and the diversity measures
        look up.  Default: unknown (those measures refuse such lists).
    score : float array, optional
        Each row's score in the run (Compat breaks ties in its ideal ranking by it).
    subtopics : SubtopicJudgments, optional
        The subtopic judgments of the qrels lines (:mod:`metrics.runfiles.measures.diversity`), when
        the qrels are diversity qrels (``qid subtopic docno rel``).

    Use :meth:`from_codes` to build one by hand.
    """

    def __init__(self, *, q, pos, code, n: int, levels, num_ret=None, relevance_level: int = 1,
                 num_docs_in_coll: int = 0, gmax: float | None = None, grade=None, ties=None,
                 judged: JudgedGrades | None = None, qrow=None, score=None, subtopics=None):
        self.q = np.ascontiguousarray(q, dtype=np.int64)
        self.pos = np.ascontiguousarray(pos, dtype=np.int64)
        self.code = np.ascontiguousarray(code, dtype=np.int64)
        self.n = int(n)
        self.grade = np.where(self.code > 0, self.code, 0).astype(np.float64) if grade is None \
            else np.ascontiguousarray(grade, dtype=np.float64)
        self.ties = ties
        self._judged = judged
        self._num_ret = None if num_ret is None else np.ascontiguousarray(num_ret, dtype=np.int64)
        lq, lg, lc = (np.ascontiguousarray(a, dtype=np.int64) for a in levels)
        keep = lc > 0
        self.levels = (lq[keep], lg[keep], lc[keep])
        self.level = check_whole(relevance_level, name="relevance_level", minimum=0)
        self.num_docs_in_coll = int(num_docs_in_coll)
        self.gmax = float(gmax) if gmax is not None else (float(lg.max()) if lg.size else 0.0)
        self.qrow = None if qrow is None else np.ascontiguousarray(qrow, dtype=np.int64)
        self.score = None if score is None else np.ascontiguousarray(score, dtype=np.float64)
        self.subtopics = subtopics
        self._memo: dict = {}

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

    def memo(self, key, build: Callable[[], object]):
        """``build()``, computed once per ``key`` for these lists: what several kernels (or several
        parameters of one) share, e.g. an ideal ranking or a variant's DCG.

        >>> lists = Lists.from_codes([[1]], judged=[[1]])
        >>> lists.memo(("answer",), lambda: 42), lists.memo(("answer",), lambda: 0)
        (42, 42)
        """
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = build()
            return value

    # ---------------------------------------------------------------- the NDCG variants' input
    def tie_positions(self, rule: str) -> np.ndarray:
        """Each row's 1-based rank when tied scores are ordered by ``rule`` (a key of
        :data:`metrics.registry.TIES`, or :data:`DOCNO_ASCENDING`; ``"trec_eval"`` is the rows' own order,
        ``pos``)."""
        if self.ties is None or rule == "trec_eval":
            return self.pos
        if rule == DOCNO_ASCENDING:  # trec_eval orders a tie by docno descending: reverse each group
            first, last = self.ties.groups()
            return first + last - self.pos
        return self.ties.positions(rule)

    def view(self, *, level: int | None = None, judged_only: bool = False, ties: str = "trec_eval") -> Lists:
        """These lists as another measure sees them: relevant from grade ``level`` on (None: this list's
        level), only the judged documents (``judged_only``: trec_eval's ``-J``, ranks renumbered), ties
        ordered by another rule (:meth:`tie_positions`).  Built once per set of options (:meth:`memo`).

        >>> lists = Lists.from_codes([[NONPOOL, 2, 1]], judged=[[2, 1]])
        >>> v = lists.view(level=2, judged_only=True)
        >>> v.pos.tolist(), v.num_ret.tolist(), v.num_rel.tolist(), v.level
        ([1, 2], [2], [1], 2)
        """
        level = self.level if level is None else level
        if level == self.level and not judged_only and (ties == "trec_eval" or self.ties is None):
            return self
        return self.memo(("view", level, judged_only, ties), lambda: self._view(level, judged_only, ties))

    def _view(self, level: int, judged_only: bool, ties: str) -> Lists:
        rows = {"q": self.q, "pos": self.pos, "code": self.code, "grade": self.grade, "qrow": self.qrow,
                "score": self.score}
        num_ret, tie_info = self.num_ret, self.ties

        def take(index):
            return {k: (None if v is None else v[index]) for k, v in rows.items()}

        if ties != "trec_eval" and self.ties is not None:
            pos = self.tie_positions(ties)
            rows = take(np.lexsort((pos, self.q)))
            rows["pos"] = pos[np.lexsort((pos, self.q))]
            tie_info = None  # the rows are in the rule's order now
        if judged_only:
            rows = take(np.flatnonzero(rows["code"] >= 0))
            rows["pos"] = block_positions(rows["q"])
            num_ret = query_count(rows["q"], self.n)
            tie_info = None
        return Lists(**rows, n=self.n, levels=self.levels, num_ret=num_ret, relevance_level=level,
                     num_docs_in_coll=self.num_docs_in_coll, gmax=self.gmax, ties=tie_info, judged=self._judged,
                     subtopics=self.subtopics)

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
        csum = segmented_cumsum(values, self.q, self.start)
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
        """Documents retrieved per query (given, or the rows of each query)."""
        return self._num_ret if self._num_ret is not None else query_count(self.q, self.n)

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
        """The query of each relevant retrieved row."""
        return self.q[self.rel]

    @cached_property
    def rel_pos(self) -> np.ndarray:
        """The rank of each relevant retrieved row."""
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
        """Relevant documents retrieved per query."""
        return query_count(self.rel_q, self.n)

    def count(self, mask: np.ndarray) -> np.ndarray:
        """Rows per query where ``mask`` is set."""
        return query_count(self.q[mask], self.n)

    def rel_in_top(self, k) -> np.ndarray:
        """Relevant documents among the first ``k`` (a number or one per query)."""
        k = np.asarray(k)
        limit = k if k.ndim == 0 else k[self.rel_q]
        return query_count(self.rel_q[self.rel_pos <= limit], self.n)

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
        return self.memo(("trec_ideal", key), lambda: self._trec_ideal(gain_map or {}))

    def _trec_ideal(self, gain_map: Mapping[int, float]):
        lq, lg, lc = self.levels
        if not gain_map:
            keep = lg > 0
            return ideal_ranking(lq[keep], lg[keep], count=lc[keep])
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
        return ideal_ranking(lq[keep], gain[keep], count=lc[keep], order=rank[keep])

    def ideal_start(self, iq: np.ndarray) -> np.ndarray:
        """Each query's first row in an ideal ranking's rows ``iq`` (0 for a query without rows)."""
        out = np.zeros(self.n, dtype=np.int64)
        if iq.size:
            first = np.flatnonzero(np.r_[True, iq[1:] != iq[:-1]])
            out[iq[first]] = first
        return out
