"""Counting kernels: how many queries, documents retrieved, relevant, relevant retrieved.

trec_eval's ``m_num_q.c``, ``m_num_ret.c``, ``m_num_rel.c``, ``m_num_rel_ret.c`` and
``m_num_nonrel_judged_ret.c``.  Every kernel of a family module takes the :class:`~.lists.Lists` of
a run and the measure's parameters and returns one array of per-query values per printed name;
:data:`KERNELS` names them for the table (:mod:`.table`).

>>> from .lists import NONPOOL, Lists
>>> lists = Lists.from_codes([[2, NONPOOL, 0]], judged=[[2, 0, 1]])
>>> [v.tolist() for v in KERNELS["num_rel_ret"](lists, None)], KERNELS["num_nonrel_judged_ret"](lists, None)[0].tolist()
([[1.0]], [1.0])
"""
from __future__ import annotations

import numpy as np

__all__ = ["KERNELS"]


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


#: The kernels of this family by measure name: ``kernel(lists, params) -> list of per-query arrays``.
KERNELS = {"num_q": _num_q, "num_ret": _num_ret, "num_rel": _num_rel, "num_rel_ret": _num_rel_ret,
           "num_nonrel_judged_ret": _num_nonrel_judged_ret}
