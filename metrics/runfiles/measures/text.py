"""Text kernels: trec_eval's relstring (the grades of the first N documents as a string).

>>> from .lists import NONPOOL, UNJUDGED, Lists
>>> lists = Lists.from_codes([[2, NONPOOL, 0, UNJUDGED, 12]], judged=[[2, 0, -1, 12]])
>>> KERNELS["relstring"](lists, (10.0,))[0].tolist()
['2-0.>']
"""
from __future__ import annotations

import numpy as np

from .lists import NONPOOL, UNJUDGED

__all__ = ["KERNELS"]


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


#: The kernels of this family by measure name: ``kernel(lists, params) -> list of per-query arrays``.
KERNELS = {"relstring": _relstring}
