"""Set and cutoff kernels: precision, recall and their relatives, the set measures, utility, judged@k.

trec_eval's ``m_P.c``, ``m_recall.c``, ``m_success.c``, ``m_rel_P.c``, ``m_Rprec.c``,
``m_Rprec_mult.c``, ``m_set_*.c``, ``m_utility.c``; ``judged`` is the extra judged@k (ir_measures'
Judged@k without the negative grades; ``1 - unj`` of trec_eval 10).

A query's values: relevant at ranks 1 and 3 of 4 retrieved, R = 3:

>>> from .lists import NONPOOL, Lists
>>> lists = Lists.from_codes([[1, NONPOOL, 2, 0]], judged=[[1, 2, 0, 1]])
>>> [v.tolist() for v in KERNELS["P"](lists, (1, 2, 4))]
[[1.0], [0.5], [0.5]]
>>> KERNELS["Rprec"](lists, None)[0].round(4).tolist()   # 2 relevant in the top R = 3
[0.6667]
"""
from __future__ import annotations

import numpy as np

from ..._numbers import safe_divide
from .lists import NONPOOL, query_count

__all__ = ["KERNELS", "judgment_rate"]


def _p(lists, cutoffs):
    return [lists.rel_in_top(k) / float(k) for k in cutoffs]


def _recall(lists, cutoffs):
    return [safe_divide(lists.rel_in_top(k), lists.num_rel) for k in cutoffs]


def _success(lists, cutoffs):
    return [(lists.rel_in_top(k) > 0).astype(np.float64) for k in cutoffs]


def _relative_p(lists, cutoffs):
    return [safe_divide(lists.rel_in_top(k), np.minimum(k, lists.num_rel)) for k in cutoffs]


def _rprec(lists, _params):
    limit = np.minimum(lists.num_ret, lists.num_rel)
    return [np.where(limit > 0, safe_divide(lists.rel_in_top(limit), lists.num_rel), 0.0)]


def _rprec_mult(lists, fractions):
    out = []
    for f in fractions:
        cut = (f * lists.num_rel.astype(np.float64) + 0.9).astype(np.int64)
        out.append(np.where(cut > 0, safe_divide(lists.rel_in_top(cut), cut), 0.0))
    return out


def _utility(lists, params):
    a, b, c, d = params
    rel_ret, ret, rel = lists.num_rel_ret, lists.num_ret, lists.num_rel
    nonrel_not_ret = lists.num_docs_in_coll + rel_ret - ret - rel
    return [a * rel_ret + b * (ret - rel_ret) + c * (rel - rel_ret) + d * nonrel_not_ret]


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
    return [query_count(q[pos <= k], lists.n) / float(k) for k in cutoffs]


def judgment_rate(lists, cutoff: int | None) -> np.ndarray:
    """ir_measures' ``Judged@k`` (its judged provider): the documents of the top ``k`` the qrels list, any
    grade, negative ones included, divided by ``k`` -- or by the list's length when it is shorter (and
    with no ``k``).  ``lists`` ranked as the provider ranks: ties by document id ascending.

    Parameters
    ----------
    lists : Lists
        The run's lists (:meth:`~.lists.Lists.view` with ``ties="docno"``).
    cutoff : int or None
        ``k``; None: the whole list.

    Returns
    -------
    numpy.ndarray of float64

    Examples
    --------
    Ranks 1 and 3 of three documents are in the qrels (one with a negative grade): 2/3 at any k >= 3.

    >>> from .lists import NONPOOL, UNJUDGED, Lists
    >>> lists = Lists.from_codes([[0, NONPOOL, UNJUDGED]], judged=[[0, -1]])
    >>> judgment_rate(lists, 10).round(4).tolist(), judgment_rate(lists, 2).tolist()
    ([0.6667], [0.5])
    """
    rows = np.flatnonzero(lists.code != NONPOOL)
    q, pos = lists.q[rows], lists.pos[rows]
    depth = lists.num_ret if cutoff is None else np.minimum(lists.num_ret, cutoff)
    inside = pos <= depth[q]
    return safe_divide(query_count(q[inside], lists.n), depth)


#: The kernels of this family by measure name: ``kernel(lists, params) -> list of per-query arrays``.
KERNELS = {"P": _p, "recall": _recall, "success": _success, "relative_P": _relative_p, "Rprec": _rprec,
           "Rprec_mult": _rprec_mult, "utility": _utility, "set_P": _set_p, "set_relative_P": _set_relative_p,
           "set_recall": _set_recall, "set_map": _set_map, "set_F": _set_f, "judged": _judged}
