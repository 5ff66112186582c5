"""User-model kernels: expected reciprocal rank and rank-biased precision (and its residual).

The extras trec_eval 9 lacks: ERR (Chapelle et al., CIKM 2009), RBP and its residual (Moffat & Zobel,
TOIS 2008).

Relevant at ranks 1 and 4, p = 0.5: RBP = (1 - p)(p^0 + p^3).

>>> from .lists import NONPOOL, Lists
>>> lists = Lists.from_codes([[1, NONPOOL, 0, 1]], judged=[[1, 0, 1]])
>>> KERNELS["rbp"](lists, {"p": 0.5})[0].tolist()
[0.5625]
"""
from __future__ import annotations

import numpy as np

from ..._numbers import safe_divide
from .lists import block_positions, query_count, query_sum, segmented_cumsum

__all__ = ["KERNELS", "compatibility", "expected_reciprocal_rank"]


def _err(lists, cutoffs):
    return expected_reciprocal_rank(lists, cutoffs, gmax=lists.gmax)


def expected_reciprocal_rank(lists, cutoffs, *, gmax: float) -> list[np.ndarray]:
    """ERR at each cutoff: ``sum_r (1/r) R_r prod_{i<r} (1 - R_i)``, ``R = (2^grade - 1) / 2^gmax``.

    The extra ``err.k`` takes ``gmax`` from the qrels (or ``--err-gmax``); gdeval (ir_measures'
    ``ERR@k``) fixes it at 4, its largest grade.

    Parameters
    ----------
    lists : Lists
        The run's lists (whole grades).
    cutoffs : sequence of int
        The depths.
    gmax : float
        The top of the grade scale.

    Returns
    -------
    list of numpy.ndarray
        One array of per-query values per cutoff.

    Examples
    --------
    Grades 2 then 1 with gmax 4: 3/16 + (1/2)(1/16)(13/16) = 0.1875 + 0.025390625.

    >>> from .lists import Lists
    >>> expected_reciprocal_rank(Lists.from_codes([[2, 1]], judged=[[2, 1]]), (2,), gmax=4)[0].tolist()
    [0.212890625]
    """
    rows = np.flatnonzero(lists.code > 0)
    q, pos = lists.q[rows], lists.pos[rows]
    stop = np.exp2(lists.code[rows].astype(np.float64) - gmax) - np.exp2(-gmax)  # (2^g - 1)/2^gmax, no overflow
    rank = block_positions(q)  # documents with a grade > 0 so far; the others do not change the product
    contrib = np.zeros(rows.size)
    reach = np.ones(lists.n)  # probability that the user reaches the current document
    for r in range(1, int(rank.max()) + 1 if rank.size else 1):
        at = np.flatnonzero(rank == r)
        qq = q[at]
        contrib[at] = reach[qq] * stop[at] / pos[at].astype(np.float64)
        reach[qq] *= 1.0 - stop[at]
    return [query_sum(q[pos <= k], contrib[pos <= k], lists.n) for k in cutoffs]


def compatibility(lists, *, p: float, normalize: bool) -> np.ndarray:
    """ir_measures' ``Compat`` (Clarke, Vtyurina & Smucker, TOIS 2021, as its compat provider computes it):
    rank-biased overlap, persistence ``p``, between the run and an ideal ranking of the documents graded
    > 0, to the depth of the longer of the two; normalised by the ideal's overlap with itself.

    The ideal orders the documents by grade, then by the run's score (0 for a document the run lacks),
    then by their order in the qrels; the run orders ties by document id ascending.

    Parameters
    ----------
    lists : Lists
        The run's lists, ties by document id ascending (:meth:`~.lists.Lists.view` ``ties="docno"``),
        with each row's qrels line and score (``qrow``, ``score``) and the judged grades.
    p : float
        The persistence.
    normalize : bool
        Divide by the ideal's score (when it is > 0).

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    One relevant document, retrieved second of two; p = 0.5, depth 2: rbo = (0 + 0.5 * 1/2) / 1.5,
    the ideal's own (1 + 0.5 * 1/2) / 1.5: Compat = 0.25 / 1.25.

    >>> from .lists import JudgedGrades, NONPOOL, Lists
    >>> lists = Lists(q=[0], pos=[2], code=[1], n=1, levels=([0], [1], [1]), num_ret=[2], qrow=[0], score=[1.0],
    ...               judged=JudgedGrades([0], [1.0]))
    >>> compatibility(lists, p=0.5, normalize=True).tolist(), compatibility(lists, p=0.5, normalize=False).tolist()
    ([0.2], [0.16666666666666666])
    """
    if lists.qrow is None or lists.score is None:
        raise ValueError("Compat needs each document's qrels line and score (lists from the engine's ranker)")
    judged = lists.judged
    whole = np.trunc(judged.grade)
    ideal_rows = np.flatnonzero(whole > 0)
    run_score = np.zeros(judged.q.size)
    run_pos = np.zeros(judged.q.size, dtype=np.int64)
    run_score[lists.qrow] = lists.score
    run_pos[lists.qrow] = lists.pos
    iq = judged.q[ideal_rows]
    order = np.lexsort((ideal_rows, -run_score[ideal_rows], -whole[ideal_rows], iq))
    ideal_rows, iq = ideal_rows[order], iq[order]
    a = block_positions(iq)  # place in the ideal ranking
    b = run_pos[ideal_rows]  # place in the run (0: not retrieved)
    length = query_count(iq, lists.n)
    depth = np.maximum(lists.num_ret, length)
    # terms t_i = p^(i-1) / i for i = 1..depth of every query, their tail sums H(m) = sum_{i>=m} t_i
    dq = np.repeat(np.arange(lists.n), depth)
    i = block_positions(dq).astype(np.float64)
    start = np.cumsum(depth) - depth
    w = np.power(p, i - 1.0)
    t = w / i
    tail = segmented_cumsum(t[::-1], dq[::-1], (dq.size - 1 - (start + depth - 1)))[::-1] if dq.size else t
    seen = np.where(b > 0, np.maximum(a, b), 0)
    score = query_sum(iq[seen > 0], tail[start[iq[seen > 0]] + seen[seen > 0] - 1], lists.n)
    norm = query_sum(dq, w, lists.n)
    value = safe_divide(score, norm)
    if normalize:
        best = query_sum(dq, w * np.minimum(i, length[dq]) / i, lists.n)
        value = np.where(best > 0, safe_divide(value * norm, best), value)
    return value


def _rbp(lists, persistence):
    p = persistence["p"]
    w = np.power(p, (lists.rel_pos - 1).astype(np.float64))
    return [(1.0 - p) * query_sum(lists.rel_q, w, lists.n)]


def _rbp_resid(lists, persistence):
    # everything not judged within the run's depth d, plus the ranks past it:
    # 1 - (1 - p) * sum over judged documents of p^(i-1)  ==  p^d + (1 - p) * sum over unjudged i <= d of p^(i-1)
    p = persistence["p"]
    rows = np.flatnonzero(lists.code >= 0)
    w = np.power(p, (lists.pos[rows] - 1).astype(np.float64))
    return [1.0 - (1.0 - p) * query_sum(lists.q[rows], w, lists.n)]


#: The kernels of this family by measure name: ``kernel(lists, params) -> list of per-query arrays``.
KERNELS = {"err": _err, "rbp": _rbp, "rbp_resid": _rbp_resid}
