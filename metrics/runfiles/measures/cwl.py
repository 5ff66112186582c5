"""C/W/L kernels: the user-model measures of cwl_eval (Azzopardi, Thomas & Moffat, SIGIR 2019) as ir_measures
computes them through it -- RBP, BPM, SDCG, NERR8-11, INST and INSQ.

In the C/W/L framework a measure is a user who goes from rank i to rank i + 1 with probability ``C_i``;
rank i is examined with weight ``W_i = prod_{m<i} C_m / sum_j prod_{m<j} C_m`` and the measure is the
expected gain per item examined, ``sum_i W_i g_i``.  cwl_eval evaluates every query to a fixed depth
of :data:`DEPTH` ranks (ranks past the run gain 0, ranks past the depth are not seen), ranks ties in
the order the run gives them (ir_measures sorts by score, keeping file order), and reads gains from
the qrels: ``1`` when the grade is >= ``rel`` (RBP), else the grade clipped to ``[min_rel, max_rel]``
and scaled to ``[0, 1]`` (negative grades count 0 first; documents outside the qrels gain 0).

Where ``C`` does not depend on the gains (RBP, SDCG, INSQ) the weights are computed once, as cwl_eval
computes them; where it does (NERR8-11, INST) each query's products run over its ranks up to its last
document with a gain, and the ranks after it (gain 0, a fixed ``C``) are added in closed form; BPM's
weights are 1/L over its first L ranks.

RBP at p = 0.5 over 1000 ranks of a run whose first document is relevant: (1 - p) / (1 - p^1000):

>>> from .lists import NONPOOL, Lists
>>> lists = Lists.from_codes([[1, NONPOOL]], judged=[[1]])
>>> round(float(rbp(lists, p=0.5, rel=1)[0]), 12)
0.5
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import zeta

from ..._numbers import safe_divide
from .lists import NONPOOL, Lists, query_sum, segmented_cumsum

__all__ = ["DEPTH", "bpm", "cwl_gains", "inst", "insq", "nerr", "rbp", "sdcg", "weights"]

#: cwl_eval's ``max_n``: every ranking is read to this depth (ir_measures passes cwl_eval's default).
DEPTH = 1000
_CELLS = 4_000_000  # dense cells per chunk of queries (gain-dependent measures)


def weights(cvec: np.ndarray) -> np.ndarray:
    """The examination weights ``W`` of a continuation vector ``C``, computed as cwl_eval's ``w_vector``.

    Parameters
    ----------
    cvec : numpy.ndarray of float
        ``C_1 .. C_n`` (the last is not used: nothing follows rank n).

    Returns
    -------
    numpy.ndarray of float64
        ``W_1 .. W_n``, summing to 1.

    Examples
    --------
    >>> weights(np.array([0.5, 0.5, 0.5])).round(4).tolist()   # 1, 1/2, 1/4 over 7/4
    [0.5714, 0.2857, 0.1429]
    """
    prod = np.pad(np.cumprod(cvec[0:-1]), (1, 0), "constant", constant_values=1.0)
    w1 = np.divide(1.0, np.sum(prod))
    return np.append(w1, np.multiply(prod[1:len(prod)], w1))


def cwl_gains(lists: Lists, *, rel: int | None = None, min_rel: int = 0,
              max_rel: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The rows within :data:`DEPTH` with a gain and their gains, as ir_measures hands grades to cwl_eval.

    Parameters
    ----------
    lists : Lists
        The run's lists (ties in file order).
    rel : int, optional
        Binary gains: 1 for a grade >= rel (RBP).
    min_rel, max_rel : int
        Otherwise the grade clipped to ``[min_rel, max_rel]`` and scaled to ``[0, 1]``.

    Returns
    -------
    (rows, gains) : tuple of numpy.ndarray
        Rows with a gain > 0 and those gains.

    Examples
    --------
    >>> from .lists import UNJUDGED
    >>> lists = Lists.from_codes([[3, UNJUDGED, 1, 0]], judged=[[3, -1, 1, 0]])
    >>> rows, g = cwl_gains(lists, min_rel=0, max_rel=2)
    >>> rows.tolist(), g.tolist()
    ([0, 2], [1.0, 0.5])
    """
    grade = np.maximum(lists.code, 0).astype(np.float64)  # ir_measures clips negative grades to 0
    if rel is not None:
        g = (grade >= rel).astype(np.float64)
    else:
        g = (np.clip(grade, min_rel, max_rel) - min_rel) / float(max_rel - min_rel)
    keep = (lists.code != NONPOOL) & (lists.pos <= DEPTH) & (g > 0)
    rows = np.flatnonzero(keep)
    return rows, g[rows]


def _fixed(lists: Lists, cvec: np.ndarray, rows: np.ndarray, g: np.ndarray) -> np.ndarray:
    w = weights(cvec)
    return query_sum(lists.q[rows], w[lists.pos[rows] - 1] * g, lists.n)


def rbp(lists: Lists, *, p: float, rel: int) -> np.ndarray:
    """cwl_eval's RBP: ``C_i = p`` at every rank, binary gains (grade >= ``rel``).

    Parameters
    ----------
    lists : Lists
        The run's lists (ties in file order).
    p : float
        The persistence.
    rel : int
        The lowest relevant grade.

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> lists = Lists.from_codes([[0, 1]], judged=[[0, 1]])
    >>> round(float(rbp(lists, p=0.8, rel=1)[0]), 6)   # 0.8 (1 - 0.8) / (1 - 0.8^1000)
    0.16
    """
    rows, g = cwl_gains(lists, rel=rel)
    return _fixed(lists, np.dot(np.ones(DEPTH), p), rows, g)


def sdcg(lists: Lists, *, cutoff: int, min_rel: int, max_rel: int) -> np.ndarray:
    """cwl_eval's NDCG (ir_measures' SDCG@k): DCG over the top k divided by the DCG of k documents of full
    gain, ``C_i = log2(i + 1) / log2(i + 2)`` for i < k.

    Parameters
    ----------
    lists : Lists
        The run's lists (ties in file order).
    cutoff : int
        k.
    min_rel, max_rel : int
        The grade scale (gains scaled to [0, 1]).

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> lists = Lists.from_codes([[0, 2]], judged=[[0, 2]])
    >>> round(float(sdcg(lists, cutoff=2, min_rel=0, max_rel=2)[0]), 6)   # (1/log2 3) / (1 + 1/log2 3)
    0.386853
    """
    cvec = np.array([math.log(i + 1, 2.0) / math.log(i + 2, 2.0) if i < cutoff else 0.0
                     for i in range(1, DEPTH + 1)])
    rows, g = cwl_gains(lists, min_rel=min_rel, max_rel=max_rel)
    return _fixed(lists, cvec, rows, g)


def insq(lists: Lists, *, T: float, min_rel: int, max_rel: int) -> np.ndarray:
    """cwl_eval's INSQ: ``C_i = ((i + 2T - 1) / (i + 2T))^2``, T the gain the user wants.

    Parameters
    ----------
    lists : Lists
        The run's lists (ties in file order).
    T : float
        The desired gain.
    min_rel, max_rel : int
        The grade scale (gains scaled to [0, 1]).

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> lists = Lists.from_codes([[1]], judged=[[1]])
    >>> round(float(insq(lists, T=1.0, min_rel=0, max_rel=1)[0]), 6)   # W_1 = 1 / (4 sum_{x=2}^{1001} 1/x^2)
    0.388238
    """
    cvec = np.array([(((i + 1.0) + (2.0 * T) - 1.0) / ((i + 1.0) + (2.0 * T))) ** 2.0 for i in range(DEPTH)])
    rows, g = cwl_gains(lists, min_rel=min_rel, max_rel=max_rel)
    return _fixed(lists, cvec, rows, g)


def bpm(lists: Lists, *, T: float, cutoff: int, min_rel: int, max_rel: int) -> np.ndarray:
    """cwl_eval's static Bejeweled Player Model: the user reads on while the gain so far is below T and
    fewer than k documents are read; BPM is the mean gain of the L ranks read.

    Parameters
    ----------
    lists : Lists
        The run's lists (ties in file order).
    T : float
        The desired gain.
    cutoff : int
        k, the documents the user is willing to read.
    min_rel, max_rel : int
        The grade scale (gains scaled to [0, 1]).

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    Gains 0, 1, 1 with T = 1 and k = 10: the user stops at rank 2 (gain 1 reached): 1/2.

    >>> lists = Lists.from_codes([[0, 1, 1]], judged=[[0, 1, 1]])
    >>> bpm(lists, T=1.0, cutoff=10, min_rel=0, max_rel=1).tolist()
    [0.5]
    """
    rows, g = cwl_gains(lists, min_rel=min_rel, max_rel=max_rel)
    q, pos = lists.q[rows], lists.pos[rows]
    stop = np.full(lists.n, DEPTH, dtype=np.int64)  # 0-based rank where the gain so far reaches T
    if T <= 0:
        stop[:] = 0
    elif rows.size:
        start = np.zeros(lists.n, dtype=np.int64)
        first = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
        start[q[first]] = first
        cum = segmented_cumsum(g, q, start)
        reached = np.flatnonzero(cum >= T)
        np.minimum.at(stop, q[reached], pos[reached] - 1)
    read = np.minimum(np.minimum(stop, max(cutoff - 1, 0)), DEPTH - 1) + 1  # ranks with a weight
    inside = pos <= read[q]
    return query_sum(q[inside], g[inside], lists.n) / read


def _dense(lists: Lists, rows: np.ndarray, g: np.ndarray, continue_at, tail) -> np.ndarray:
    """sum_i W_i g_i for a gain-dependent C: each query's ranks up to its last gain densely, then the
    ranks after it in closed form (``tail(D, total gain per query) -> T_D``)."""
    out = np.zeros(lists.n)
    if not rows.size:
        return out
    q, pos = lists.q[rows], lists.pos[rows]
    last = np.zeros(lists.n, dtype=np.int64)
    np.maximum.at(last, q, pos)
    queries = np.flatnonzero(last > 0)
    queries = queries[np.argsort(last[queries], kind="stable")]
    order = np.argsort(q, kind="stable")
    q_sorted = q[order]
    start = 0
    while start < queries.size:
        # one width per chunk (each query's own last rank with a gain): a query's value never depends on the
        # other queries evaluated with it (blocks on a cluster give the same bits)
        width = int(last[queries[start]])
        stop = start + 1
        while stop < queries.size and int(last[queries[stop]]) == width and (stop + 1 - start) * width <= _CELLS:
            stop += 1
        chunk = queries[start:stop]
        local = np.full(lists.n, -1, dtype=np.int64)
        local[chunk] = np.arange(chunk.size)
        lo, hi = np.searchsorted(q_sorted, [chunk.min(), chunk.max() + 1])
        sel = order[lo:hi]
        sel = sel[local[q[sel]] >= 0]
        gains = np.zeros((chunk.size, width))
        gains[local[q[sel]], pos[sel] - 1] = g[sel]
        c = continue_at(gains, np.cumsum(gains, axis=1), np.arange(width, dtype=np.float64))
        prod = np.ones((chunk.size, width))
        if width > 1:
            prod[:, 1:] = np.cumprod(c[:, :-1], axis=1)
        total = prod.sum(axis=1)
        if width < DEPTH:
            total = total + prod[:, -1] * c[:, -1] * tail(width, gains.sum(axis=1))
        out[chunk] = safe_divide((prod * gains).sum(axis=1), total)
        start = stop
    return out


def _scalar_tail(c0):
    """T_D for a continuation that, at zero gain, depends on the rank only: ``c0(ranks) -> C``."""
    def tail(d, _total):
        c = c0(np.arange(d, DEPTH - 1, dtype=np.float64))
        return 1.0 + np.sum(np.cumprod(c))
    return tail


def nerr(lists: Lists, *, eq: int, min_rel: int, max_rel: int, cutoff: int | None = None, p: float = 0.9,
         T: float = 1.0) -> np.ndarray:
    """cwl_eval's NERR (Azzopardi, Moffat & Mackenzie, ICTIR 2021): ERR-like stopping on the gain of each
    document, truncated at k (eq. 8, 9), with RBP patience p (eq. 10) or with INST's goal T (eq. 11).

    Parameters
    ----------
    lists : Lists
        The run's lists (ties in file order).
    eq : {8, 9, 10, 11}
        Which equation of the paper.
    min_rel, max_rel : int
        The grade scale (gains scaled to [0, 1]).
    cutoff : int, optional
        k (eq. 8 and 9).
    p : float, default 0.9
        Patience (eq. 10).
    T : float, default 1.0
        Desired gain (eq. 11).

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    Eq. 8 at k = 2, gains 0 then 1: W = (1, 1) / 2: 0.5.

    >>> lists = Lists.from_codes([[0, 1]], judged=[[0, 1]])
    >>> nerr(lists, eq=8, cutoff=2, min_rel=0, max_rel=1).tolist()
    [0.5]
    """
    rows, g = cwl_gains(lists, min_rel=min_rel, max_rel=max_rel)
    if eq == 8:
        def cont(gains, _cum, m):
            return np.where(m < cutoff - 1, 1.0 - gains, 0.0)
        c0 = lambda m: np.where(m < cutoff - 1, 1.0, 0.0)  # noqa: E731
    elif eq == 9:
        def cont(gains, _cum, m):
            return np.where(m < cutoff - 1, (1.0 * (m + 1) / ((m + 1) + 1.0)) * (1.0 - gains), 0.0)
        c0 = lambda m: np.where(m < cutoff - 1, 1.0 * (m + 1) / ((m + 1) + 1.0), 0.0)  # noqa: E731
    elif eq == 10:
        def cont(gains, _cum, _m):
            return p * (1 - gains)
        c0 = lambda m: np.full(m.shape, p)  # noqa: E731
    elif eq == 11:
        def cont(gains, _cum, m):
            rank = m + 1
            return (((rank + (2.0 * T) - 1.0) / (rank + (2.0 * T))) ** 2.0) * (1.0 - gains)
        c0 = lambda m: (((m + 1) + (2.0 * T) - 1.0) / ((m + 1) + (2.0 * T))) ** 2.0  # noqa: E731
    else:
        raise ValueError(f"eq must be 8, 9, 10 or 11, got {eq!r}")
    return _dense(lists, rows, g, cont, _scalar_tail(c0))


def inst(lists: Lists, *, T: float, min_rel: int, max_rel: int) -> np.ndarray:
    """cwl_eval's INST (Moffat et al., ADCS 2015): ``C_i = ((i + T + T_i - 1) / (i + T + T_i))^2`` with
    ``T_i = T - (gain so far)``: the user stops sooner once the wanted gain is found.

    Parameters
    ----------
    lists : Lists
        The run's lists (ties in file order).
    T : float
        The desired gain.
    min_rel, max_rel : int
        The grade scale (gains scaled to [0, 1]).

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> lists = Lists.from_codes([[1]], judged=[[1]])
    >>> round(float(inst(lists, T=1.0, min_rel=0, max_rel=1)[0]), 6)   # C_i = (i/(i+1))^2: 1 / sum 1/x^2
    0.608297
    """
    rows, g = cwl_gains(lists, min_rel=min_rel, max_rel=max_rel)

    def cont(_gains, cum, m):
        ti = T - cum
        return (((m + 1.0) + T + ti - 1.0) / ((m + 1.0) + T + ti)) ** 2.0

    def tail(d, total):  # zero gain after rank d: C_m = ((m + c) / (m + 1 + c))^2, c = 2T - G, telescoping
        c = 2.0 * T - total
        return (d + c) ** 2 * (zeta(2.0, d + c) - zeta(2.0, DEPTH + c))

    return _dense(lists, rows, g, cont, tail)
