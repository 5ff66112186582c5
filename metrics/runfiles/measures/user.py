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

from .lists import block_positions, query_sum

__all__ = ["KERNELS"]


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
    return [query_sum(q[pos <= k], contrib[pos <= k], lists.n) for k in cutoffs]


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
