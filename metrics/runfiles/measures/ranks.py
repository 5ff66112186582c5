"""Rank kernels: average precision and its relatives, bpref, infAP, interpolated precision,
reciprocal rank, binG.

trec_eval's ``m_map.c``, ``m_gm_map.c``, ``m_map_cut.c``, ``m_bpref.c``, ``m_gm_bpref.c``,
``m_infap.c``, ``m_iprec_at_recall.c``, ``m_11pt_avg.c``, ``m_recip_rank.c`` and ``m_binG.c``.

A query with relevant documents at ranks 1 and 4 of R = 4: AP = (1/1 + 2/4) / 4.

>>> from .lists import NONPOOL, UNJUDGED, Lists
>>> lists = Lists.from_codes([[2, NONPOOL, 0, 1, UNJUDGED]], judged=[[2, 1, 0, 1, -1, 3]])
>>> KERNELS["map"](lists, None)[0].tolist(), KERNELS["recip_rank"](lists, None)[0].tolist()
([0.375], [1.0])
"""
from __future__ import annotations

import numpy as np

from ..._numbers import safe_divide
from .lists import INFAP_EPSILON, MIN_GEO_MEAN, UNJUDGED, query_count, query_sum

__all__ = ["KERNELS", "accuracy", "reciprocal_rank_at"]


def _ap(lists) -> np.ndarray:
    s = query_sum(lists.rel_q, lists.rel_k.astype(np.float64) / lists.rel_pos.astype(np.float64), lists.n)
    return np.where(lists.num_rel_ret > 0, safe_divide(s, lists.num_rel), 0.0)


def _map(lists, _params):
    return [_ap(lists)]


def _gm_map(lists, _params):
    return [np.log(np.maximum(_ap(lists), MIN_GEO_MEAN))]


def _map_cut(lists, cutoffs):
    w = lists.rel_k.astype(np.float64) / lists.rel_pos.astype(np.float64)
    out = []
    for k in cutoffs:
        m = lists.rel_pos <= k
        out.append(safe_divide(query_sum(lists.rel_q[m], w[m], lists.n), lists.num_rel))
    return out


def _bpref_values(lists) -> np.ndarray:
    nonrel = (lists.code >= 0) & (lists.code < lists.level)
    before = lists.before_rel(nonrel)
    r = lists.num_rel[lists.rel_q]
    contrib = np.ones(before.size)
    some = before > 0
    contrib[some] = 1.0 - np.minimum(before[some], r[some]).astype(np.float64) / \
        np.minimum(lists.num_nonrel[lists.rel_q][some], r[some]).astype(np.float64)
    s = query_sum(lists.rel_q, contrib, lists.n)
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
    s = query_sum(lists.rel_q, val, lists.n)
    return [np.where(lists.num_rel > 0, safe_divide(s, lists.num_rel), s)]


def _bin_g(lists, _params):
    i = lists.rel_pos - 1
    w = 1.0 / np.log2((3 + i - lists.rel_k).astype(np.float64))
    s = query_sum(lists.rel_q, w, lists.n)
    return [np.where(lists.num_rel_ret > 0, safe_divide(s, lists.num_rel), 0.0)]


def reciprocal_rank_at(lists, cutoff: int | None) -> np.ndarray:
    """Reciprocal rank of the first relevant document within the top ``cutoff`` (0 when there is none):
    MS MARCO's ``MRR@10`` per query, ir_measures' ``RR@k`` (its msmarco provider).

    Parameters
    ----------
    lists : Lists
        The run's lists at the wanted relevance level (:meth:`~.lists.Lists.view`; MS MARCO ranks ties
        by document id ascending).
    cutoff : int or None
        The depth; None: the whole list.

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    >>> from .lists import NONPOOL, Lists
    >>> lists = Lists.from_codes([[0, NONPOOL, 1]], judged=[[0, 1]])
    >>> reciprocal_rank_at(lists, 2).tolist(), reciprocal_rank_at(lists, 3).round(4).tolist()
    ([0.0], [0.3333])
    """
    out = np.zeros(lists.n)
    first = (lists.rel_k == 1) & (True if cutoff is None else lists.rel_pos <= cutoff)
    out[lists.rel_q[first]] = 1.0 / lists.rel_pos[first].astype(np.float64)
    return out


def accuracy(lists, cutoff: int | None) -> np.ndarray:
    """ir_measures' ``Accuracy`` (its accuracy provider): the chance that a relevant document of the top
    ``cutoff`` is ranked above a non-relevant one of the top ``cutoff``,
    ``1 - sum_j (non-relevant above the j-th relevant) / (non-relevant * relevant)``.

    NaN where it is undefined: no relevant document in the top ``cutoff`` (the provider reports no
    value for such a query, and its mean leaves it out) or no non-relevant one (the provider divides
    by zero and stops with ZeroDivisionError).

    Parameters
    ----------
    lists : Lists
        The run's lists at the wanted relevance level (>= 1; ties in file order, as the provider sorts).
    cutoff : int or None
        The depth; None: the whole list.

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    Relevant at ranks 2 and 4 of five: non-relevant above them 1 and 2, three non-relevant in all:
    1 - (1 + 2) / (3 * 2) = 0.5.

    >>> from .lists import NONPOOL, Lists
    >>> lists = Lists.from_codes([[0, 1, NONPOOL, 2, 0]], judged=[[0, 1, 2, 0]])
    >>> accuracy(lists, None).tolist(), accuracy(lists, 2).tolist()
    ([0.5], [0.0])
    """
    depth = lists.num_ret if cutoff is None else np.minimum(lists.num_ret, cutoff)
    inside = lists.rel_pos <= depth[lists.rel_q]
    q = lists.rel_q[inside]
    above = (lists.rel_pos[inside] - lists.rel_k[inside]).astype(np.float64)  # non-relevant documents above
    m = query_count(q, lists.n).astype(np.float64)
    nonrel = depth - m
    with np.errstate(divide="ignore", invalid="ignore"):
        value = 1.0 - query_sum(q, above, lists.n) / (nonrel * m)
    return np.where((m > 0) & (nonrel > 0), value, np.nan)


#: The kernels of this family by measure name: ``kernel(lists, params) -> list of per-query arrays``.
KERNELS = {"map": _map, "gm_map": _gm_map, "map_cut": _map_cut, "bpref": _bpref, "gm_bpref": _gm_bpref,
           "recip_rank": _recip_rank, "iprec_at_recall": _iprec_at_recall, "11pt_avg": _11pt_avg, "infAP": _infap,
           "binG": _bin_g}
