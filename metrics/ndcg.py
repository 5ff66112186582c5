"""CG, DCG, IDCG and NDCG under every gain, discount, log base, cutoff and IDCG source.

All functions take the graded results in ranked order (position 1 first).
Gains and discounts come from :mod:`metrics.registry`; ``discount`` values are
divisors, so the term at position ``i`` is ``gain(rel_i) / discount(i)``.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from itertools import product
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a table is built
    import pandas as pd

from ._numbers import safe_divide
from ._validation import as_grades, as_scores, check_choice, check_k, check_log_base
from .registry import DISCOUNTS, TIES, ZERO_IDCG, Choice, resolve_discount, resolve_gain

__all__ = [
    "cg",
    "dcg",
    "idcg",
    "ndcg",
    "ndcg_from_scores",
    "dcg_from_scores",
    "breakdown",
    "all_variants",
    "ideal_ranking",
    "rank_by_scores",
    "ratio",
    "positions_counted",
    "numba_quicksort_argsort",
    "NUMBA_SMALL_QUICKSORT",
]



def _opts(gain, discount, log_base) -> tuple[Choice, Choice, float]:
    return resolve_gain(gain), resolve_discount(discount), check_log_base(log_base)


def discounted_terms(rel: np.ndarray, g: Choice, d: Choice, b: float,
           name: str = "relevances") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """gains, divisors and discounted gains for a ranked array."""
    with np.errstate(over="ignore"):
        gains = g.func(rel)
        divisors = d.func(np.arange(1, rel.size + 1), b)
        terms = gains / divisors
    bad = np.flatnonzero(~np.isfinite(terms))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"{name} at position {i + 1} is {rel[i]:g}; its {g.key} gain divided by the {d.key} discount "
            f"(log base {b:g}) overflows float64: use smaller grades"
        )
    return gains, divisors, terms


def _fsum(values) -> float:
    """Exact sum; ValueError (not OverflowError, inf or nan) when it leaves float64."""
    values = values.tolist() if isinstance(values, np.ndarray) else list(values)
    try:
        total = math.fsum(values)
    except OverflowError:
        total = math.inf
    if not math.isfinite(total):
        raise ValueError("the sum of the gains overflows float64 (max about 1.8e308): use smaller grades")
    return total


def _running_fsum(values: np.ndarray) -> np.ndarray:
    """Exact prefix sums: element j is ``math.fsum(values[:j + 1])``, in O(n).

    Keeps Shewchuk's non-overlapping partials (the algorithm behind math.fsum) and
    reads each prefix total from them; fsum is correctly rounded, so each entry
    equals fsum over the prefix.
    """
    partials: list[float] = []
    out = np.empty(values.size, dtype=np.float64)
    for j, x in enumerate(values.tolist()):
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]
        out[j] = _fsum(partials)
    return out


def positions_counted(n_items, *, k=None) -> int:
    """How many positions of a ranking of ``n_items`` a cutoff ``k`` counts: ``min(k, n_items)``.

    A cutoff longer than the ranking cuts nothing: DCG@6 of a list of 2 adds its 2 terms, the same as DCG@2
    and as DCG of the whole list (the formula's sum stops at the list's end).  The same holds for the ideal
    ranking, whose length is the number of items it is built from (the list, or every judged item).

    Parameters
    ----------
    n_items : int >= 0
        The ranking's length.
    k : int >= 1 or None, default None
        The cutoff (None: no cutoff, every position counts).

    Returns
    -------
    int
        The positions whose terms are added up.

    Raises
    ------
    ValueError
        If ``n_items`` is not a whole number >= 0 (naming it and the value), or ``k`` is not None or a whole
        number >= 1.

    Examples
    --------
    A student asked for NDCG@6 of a list of 2 results adds 2 terms on each side when IDCG comes from the list:

    >>> positions_counted(2, k=6), positions_counted(5, k=3), positions_counted(5)
    (2, 3, 5)

    With IDCG from all 8 judged items, the ideal side of the same NDCG@6 counts 6:

    >>> positions_counted(8, k=6)
    6
    >>> positions_counted(-1)
    Traceback (most recent call last):
    ...
    ValueError: n_items must be a whole number >= 0, got -1
    """
    if isinstance(n_items, bool) or not isinstance(n_items, (int, np.integer)) or n_items < 0:
        raise ValueError(f"n_items must be a whole number >= 0, got {n_items!r}")
    k = check_k(k)
    return int(n_items) if k is None else min(k, int(n_items))


def _cut(rel: np.ndarray, k: int | None) -> np.ndarray:
    return rel if k is None else rel[:k]


def ideal_ranking(relevances, *, pool=None, gain="linear") -> np.ndarray:
    """The grades an ideal system would rank: ``pool`` (or the list) sorted by gain, highest first.

    IDCG is the DCG of this ranking.  ``pool`` holds the grades of every judged item for the
    query, retrieved or not, the list's own grades included.  Items of grade 0 in the list may be
    unjudged (trec_eval counts them as 0), so only grades > 0 must be in the pool.
    The order is by *gain*, as trec_eval sorts its levels (``m_ndcg.c``, ``setup_gains``):
    with a gain map that does not keep the grades' order, grade 2 (gain 9) comes before
    grade 4 (gain 4.5).  Equal gains are ordered by grade, highest first.

    Parameters
    ----------
    relevances : sequence of float >= 0
        Grades of the ranked list, position 1 first (list, tuple or 1-d array; not empty).
    pool : sequence of float >= 0, optional
        Grades of every judged item for the query; it must contain at least as many items of
        each grade > 0 as ``relevances`` does.  Default ``None``: the list is its own pool.
    gain : {"linear", "exponential", "binary"}, mapping, Choice or callable, default "linear"
        Decides the order only; the grades themselves are returned (see :func:`dcg`).

    Returns
    -------
    numpy.ndarray of float64
        The grades of the pool (or of the list) in ideal order, one per item.

    Raises
    ------
    ValueError
        If a grade is negative, not a finite number, or the pool lacks a grade of the list.

    See Also
    --------
    idcg : the DCG of this ranking.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``m_ndcg.c``, ``setup_gains`` (levels sorted by gain).

    Examples
    --------
    The list sorted, highest first:

    >>> ideal_ranking([3, 2, 3, 0, 1, 2]).tolist()
    [3.0, 3.0, 2.0, 2.0, 1.0, 0.0]

    Two judged items were not retrieved (grades 3 and 0): the ideal ranking has 8 items, three 3s:

    >>> ideal_ranking([3, 2, 3, 0, 1, 2], pool=[3, 2, 3, 0, 1, 2, 3, 0]).tolist()
    [3.0, 3.0, 3.0, 2.0, 2.0, 1.0, 0.0, 0.0]

    With gains {2: 9, 4: 4.5} grade 2 is worth more, so it comes first:

    >>> ideal_ranking([4, 2], gain={2: 9, 4: 4.5}).tolist()
    [2.0, 4.0]
    """
    rel = as_grades(relevances)
    return _ideal(rel, pool, resolve_gain(gain))


def _ideal(rel: np.ndarray, pool, g: Choice | None = None) -> np.ndarray:
    """The ideal ranking's grades: the list (or the pool) sorted by gain, then grade, both descending."""
    judged = rel if pool is None else _checked_pool(rel, pool)
    if g is None or g.key in ("linear", "exponential"):  # increasing gains: the grade order is the gain order
        # .copy(): a contiguous array, as the list is.  numpy's SIMD exp2 (contiguous) and its scalar
        # fallback (a reversed view) can differ by an ulp, which made a perfect ranking 0.9999999999999999.
        return np.sort(judged)[::-1].copy()
    with np.errstate(over="ignore"):
        gains = g.func(judged)
    return judged[np.lexsort((-judged, -gains))].copy()


def _checked_pool(rel: np.ndarray, pool) -> np.ndarray:
    judged = as_grades(pool, name="pool")
    have = Counter(judged[judged > 0].tolist())
    need = Counter(rel[rel > 0].tolist())
    for grade, count in sorted(need.items()):
        if have[grade] < count:
            raise ValueError(
                f"pool has {have[grade]} item(s) of grade {grade:g} but relevances has {count}; "
                "the pool must hold the grades of every judged item, the list's own included"
            )
    return judged


def _ideal_dcg(rel: np.ndarray, pool, k: int | None, g: Choice, d: Choice, b: float) -> float:
    """IDCG: the one place the ideal DCG is computed.  Negative gains (a gain map may have them) count 0,
    as trec_eval's ideal stops at the first gain <= 0 (``m_ndcg.c``)."""
    gains, _, terms = discounted_terms(_cut(_ideal(rel, pool, g), k), g, d, b, "ideal ranking")
    return _fsum(np.where(gains < 0, 0.0, terms))


def cg(relevances, *, k=None, gain="linear") -> float:
    """Cumulative gain: the sum of the gains of the first ``k`` results, position ignored.

    CG is DCG without the discount: moving a relevant item from position 1 to position 5
    does not change it, which is why Järvelin & Kekäläinen added the discount.

    Parameters
    ----------
    relevances : sequence of float >= 0
        Grades in ranked order, position 1 first (list, tuple or 1-d array; not empty).
    k : int >= 1, optional
        Only the first ``k`` positions count; ``k`` may exceed the list length.  Default ``None``:
        the whole list.
    gain : {"linear", "exponential", "binary"}, mapping, Choice or callable, default "linear"
        ``rel``, ``2**rel - 1`` or ``rel > 0``; a mapping grade -> gain as in :func:`ndcg`.

    Returns
    -------
    float
        The exact (``math.fsum``) sum of the gains.

    Raises
    ------
    ValueError
        If a grade is negative or not a finite number, ``k`` is not a whole number >= 1, the gain
        is unknown, or the sum overflows float64.

    See Also
    --------
    dcg : the same sum with each gain divided by the position's discount.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 422-446, 2002.

    Examples
    --------
    Document 000's list: 3 + 2 + 1 + 3 + 2 = 11.

    >>> cg([3, 2, 1, 3, 2])
    11.0

    The first two with exponential gain: (2**3 - 1) + (2**2 - 1) = 7 + 3 = 10.

    >>> cg([3, 2, 1, 3, 2], k=2, gain="exponential")
    10.0
    """
    rel = _cut(as_grades(relevances), check_k(k))
    with np.errstate(over="ignore"):
        return _fsum(resolve_gain(gain).func(rel))


def dcg(relevances, *, k=None, gain="linear", discount="standard", log_base=2) -> float:
    """Discounted cumulative gain of a ranked list.

    Each result's gain is divided by a discount that grows with its position, so a relevant
    item counts less the further down it is ranked: DCG = sum over i of gain(rel_i) / discount(i).

    Parameters
    ----------
    relevances : sequence of float >= 0
        Grades in ranked order, position 1 first (list, tuple or 1-d array; not empty).
    k : int >= 1, optional
        Only the first ``k`` positions count; ``k`` may exceed the list length.  Default ``None``:
        the whole list.
    gain : {"linear", "exponential", "binary"}, mapping, Choice or callable, default "linear"
        ``rel`` or ``2**rel - 1`` (or ``rel > 0``), see :data:`metrics.registry.GAINS`; a mapping
        grade -> gain is trec_eval's ``-m ndcg.L=G`` (:func:`metrics.registry.gain_map`).
    discount : {"standard", "jarvelin"}, Choice or callable, default "standard"
        Divide by ``log_b(i + 1)``, or by ``max(1, log_b(i))`` (Järvelin & Kekäläinen 2002).
    log_base : float > 0, != 1, default 2
        The base ``b`` of the logarithm in the discount.

    Returns
    -------
    float
        The exact (``math.fsum``) sum of the discounted gains.

    Raises
    ------
    ValueError
        If a grade is negative or not a finite number, ``k`` is not a whole number >= 1,
        ``log_base`` is not finite, > 0 and != 1, a gain or discount is unknown, or a term overflows.

    See Also
    --------
    idcg : the DCG of the ideal ranking.
    ndcg : DCG / IDCG.
    breakdown : the same sum position by position.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 422-446, 2002.
    .. [2] C. Burges et al., "Learning to rank using gradient descent", ICML 2005 (2**rel - 1,
       log2(i + 1)).

    Examples
    --------
    Document 002 (Wikipedia's example): 3/log2(2) + 2/log2(3) + 3/log2(4) + 0 + 1/log2(6) + 2/log2(7)
    = 3 + 1.26186 + 1.5 + 0 + 0.38685 + 0.71241 = 6.86113:

    >>> round(dcg([3, 2, 3, 0, 1, 2]), 3)
    6.861

    Document 000's first formula, rel_1 + sum_{i>=2} rel_i / log2(i) = 3 + 2 + 0.63 + 1.5 + 0.86:

    >>> round(dcg([3, 2, 1, 3, 2], discount="jarvelin"), 4)
    7.9923
    """
    k = check_k(k)
    rel = _cut(as_grades(relevances), k)
    g, d, b = _opts(gain, discount, log_base)
    return _fsum(discounted_terms(rel, g, d, b)[2])


def idcg(relevances, *, k=None, gain="linear", discount="standard", log_base=2, pool=None) -> float:
    """Ideal DCG: the DCG of the ideal ranking (the list re-sorted, or all judged items in ``pool``).

    IDCG is the best DCG any system could reach for the query, the denominator of NDCG.  It is
    the DCG of :func:`ideal_ranking`, cut at the same ``k`` as the list.  With a ``pool`` and no
    ``k`` the ideal ranking covers the whole pool (trec_eval ``ndcg``).  Negative gains (possible
    with a gain map) count 0 in the ideal, as trec_eval's ideal stops at the first gain <= 0.

    Parameters
    ----------
    relevances : sequence of float >= 0
        Grades in ranked order, position 1 first (list, tuple or 1-d array; not empty).
    k : int >= 1, optional
        The ideal ranking is cut at ``k``.  Default ``None``: not cut.
    gain, discount, log_base
        As for :func:`dcg`.
    pool : sequence of float >= 0, optional
        Grades of every judged item, the list's own included (see :func:`ideal_ranking`).
        Default ``None``: the list re-sorted.

    Returns
    -------
    float
        The DCG of the ideal ranking.

    Raises
    ------
    ValueError
        As for :func:`dcg`, and if ``pool`` lacks a grade the list has.

    See Also
    --------
    ideal_ranking : the ranking whose DCG this is.
    ndcg : DCG / IDCG.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 422-446, 2002.
    .. [2] trec_eval 9.0.8, ``m_ndcg.c`` and ``m_ndcg_cut.c`` (ideal from all judged documents).

    Examples
    --------
    The list re-sorted is 3, 3, 2, 2, 1, 0:
    3/log2(2) + 3/log2(3) + 2/log2(4) + 2/log2(5) + 1/log2(6) + 0
    = 3 + 1.89279 + 1 + 0.86135 + 0.38685 = 7.14099, about 7.141.

    >>> round(idcg([3, 2, 3, 0, 1, 2]), 4)
    7.141

    Document 001: a third judged 3 was not retrieved, so the ideal top 6 is 3, 3, 3, 2, 2, 1:
    3 + 1.89279 + 1.5 + 0.86135 + 0.77371 + 0.35621 = 8.38406, about 8.3841.

    >>> round(idcg([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0]), 4)
    8.3841
    """
    k = check_k(k)
    rel = as_grades(relevances)
    g, d, b = _opts(gain, discount, log_base)
    return _ideal_dcg(rel, pool, k, g, d, b)


def ndcg(relevances, *, k=None, gain="linear", discount="standard", log_base=2, pool=None,
         zero_idcg="zero") -> float:
    """Normalised DCG = DCG / IDCG, in [0, 1].

    Parameters
    ----------
    relevances, k, gain, discount, log_base
        As for :func:`dcg`; ``gain`` may also be a map grade -> gain (trec_eval's ``-m ndcg.L=G``,
        :func:`metrics.registry.gain_map`), and the ideal ranking is then sorted by gain.
    pool : sequence of float >= 0, optional
        Grades of every judged item (the list's own included): IDCG comes from them instead of the list.
    zero_idcg : {"zero", "one", "nan"}
        What to return when IDCG is 0 (no item with a positive gain): ``0.0`` (the default, scikit-learn,
        trec_eval, ranx), ``1.0`` (LightGBM, XGBoost) or ``nan`` (undefined: a mean skips the list,
        ``numpy.nanmean``).  See :data:`metrics.registry.ZERO_IDCG`.

    Returns
    -------
    float
        DCG / IDCG: 1.0 for an ideal ranking, lower the further the relevant items sink; with
        ``zero_idcg`` when IDCG is 0.

    Raises
    ------
    ValueError
        As for :func:`idcg`, and if ``zero_idcg`` is not one of the three names.

    See Also
    --------
    ndcg_from_scores : rank by scores first, with a tie rule.
    all_variants : every gain, discount and IDCG source at once.
    sklearn.metrics.ndcg_score : scikit-learn's version (linear gain, standard discount, ties averaged).

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 422-446, 2002.
    .. [2] C. Burges et al., "Learning to rank using gradient descent", ICML 2005.
    .. [3] trec_eval 9.0.8, ``m_ndcg.c`` (gain maps ``-m ndcg.L=G``, ideal from every judged document).

    Examples
    --------
    Document 002: DCG = 6.86113 (see :func:`dcg`), IDCG = 7.14100 (see :func:`idcg`),
    NDCG = 6.86113 / 7.14100 = 0.9608.

    >>> round(ndcg([3, 2, 3, 0, 1, 2]), 4)
    0.9608

    Document 000 with Järvelin & Kekäläinen's discount: DCG = 7.99228 (see :func:`dcg`), IDCG of
    3, 3, 2, 2, 1 = 3/1 + 3/1 + 2/log2(3) + 2/log2(4) + 1/log2(5) = 3 + 3 + 1.26186 + 1 + 0.43068
    = 8.69254, NDCG = 7.99228 / 8.69254 = 0.9194.

    >>> round(ndcg([3, 2, 1, 3, 2], discount="jarvelin"), 4)
    0.9194

    Nothing relevant: IDCG = 0, and the policy decides.

    >>> ndcg([0, 0, 0]), ndcg([0, 0, 0], zero_idcg="one"), ndcg([0, 0, 0], zero_idcg="nan")
    (0.0, 1.0, nan)

    A gain map: grade 2 is worth 9, grade 4 only 4.5, so the ideal puts the 2 first:
    (4.5 + 9/log2(3)) / (9 + 4.5/log2(3)) = 10.178 / 11.839:

    >>> round(ndcg([4, 2], gain={2: 9, 4: 4.5}), 4)
    0.8597
    """
    k = check_k(k)
    rel = as_grades(relevances)
    g, d, b = _opts(gain, discount, log_base)
    policy = _zero_policy(zero_idcg)
    top = _fsum(discounted_terms(_cut(rel, k), g, d, b)[2])
    return ratio(top, _ideal_dcg(rel, pool, k, g, d, b), zero_idcg=policy)


def _zero_policy(zero_idcg) -> str:
    return check_choice(zero_idcg, ZERO_IDCG, name="zero_idcg").key


def ratio(dcg_value: float, idcg_value: float, *, zero_idcg="zero") -> float:
    """DCG / IDCG, with the policy ``zero_idcg`` when IDCG is 0 (:data:`metrics.registry.ZERO_IDCG`).

    The last step of NDCG, for callers that computed DCG and IDCG themselves.  When no item has
    a positive gain, IDCG is 0 and 0/0 has no value: libraries disagree on what to return, and
    ``zero_idcg`` names the choice.

    Parameters
    ----------
    dcg_value : float
        The list's DCG (:func:`dcg`).
    idcg_value : float
        The ideal DCG (:func:`idcg`).
    zero_idcg : {"zero", "one", "nan"}, default "zero"
        The result when ``idcg_value`` is 0: 0.0 (scikit-learn, trec_eval, ranx), 1.0 (LightGBM,
        XGBoost) or nan (left out of a mean).

    Returns
    -------
    float
        ``dcg_value / idcg_value``, or the policy's value when ``idcg_value`` is 0.

    Raises
    ------
    ValueError
        If ``zero_idcg`` is not one of the three names (only checked when IDCG is 0).

    Examples
    --------
    3 / 4 = 0.75; 0 / 0 follows the policy:

    >>> ratio(3.0, 4.0), ratio(0.0, 0.0), ratio(0.0, 0.0, zero_idcg="one")
    (0.75, 0.0, 1.0)
    """
    if idcg_value == 0:
        return ZERO_IDCG[_zero_policy(zero_idcg)].value
    return dcg_value / idcg_value


def _ratio(top: float, best: float, zero_idcg: str = "zero") -> float:
    return safe_divide(top, best, default=ZERO_IDCG[zero_idcg].value)


def rank_by_scores(relevances, scores, *, ties="stable", docnos=None) -> np.ndarray:
    """Indices that sort items by descending score, ties broken by ``ties``.

    A system returns scores, not a ranking; the ranking is the items by descending score.  Items
    with equal scores can be put in any order, and each library picks one: this function applies
    the rule ``ties``.  ``"average"`` has no single order; it is ranked like ``"stable"`` here.

    Parameters
    ----------
    relevances : sequence of float >= 0
        Grades of the items, in input order (used by the optimistic and pessimistic rules).
    scores : sequence of float
        One finite score per item, same length as ``relevances``; higher is ranked first.
    ties : {"stable", "average", "optimistic", "pessimistic", "trec_eval", "ranx"}, default "stable"
        The tie rule, see :data:`metrics.registry.TIES`.
    docnos : sequence of str, optional
        Document ids, one per item; required by ``ties="trec_eval"`` (ties by docno, descending).

    Returns
    -------
    numpy.ndarray of int64
        Positions into the input, best first: ``relevances[order]`` is the ranked list.

    Raises
    ------
    ValueError
        If lengths differ, a score is not finite, ``ties`` is unknown, or ``docnos`` is missing
        or of the wrong length for ``ties="trec_eval"``.

    See Also
    --------
    numba_quicksort_argsort : the order ranx gives.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``form_res_rels.c``, ``comp_sim_docno`` (score, then docno, descending).

    Examples
    --------
    Item 2 (score 0.9) is first; items 0 and 1 tie at 0.5.  Optimistic puts the grade-3 item 1
    before the grade-1 item 0; pessimistic (and input order) the other way round:

    >>> rank_by_scores([1, 3, 2], [0.5, 0.5, 0.9], ties="optimistic").tolist()
    [2, 1, 0]
    >>> rank_by_scores([1, 3, 2], [0.5, 0.5, 0.9], ties="pessimistic").tolist()
    [2, 0, 1]

    trec_eval: docno "b" sorts after "a", so it comes first among the ties:

    >>> rank_by_scores([1, 3, 2], [0.5, 0.5, 0.9], ties="trec_eval", docnos=["a", "b", "c"]).tolist()
    [2, 1, 0]
    """
    rel = as_grades(relevances)
    sc = as_scores(scores, n=rel.size)
    rule = check_choice(ties, TIES, name="ties").key
    idx = np.arange(rel.size)
    if rule == "optimistic":
        return np.lexsort((idx, -rel, -sc))
    if rule == "pessimistic":
        return np.lexsort((idx, rel, -sc))
    if rule == "trec_eval":
        if docnos is None or isinstance(docnos, str) or not isinstance(docnos, Iterable):
            raise ValueError(f"ties='trec_eval' needs docnos: one document id per item, got {docnos!r:.40}")
        names = [str(x) for x in docnos]
        if len(names) != rel.size:
            raise ValueError(f"docnos has {len(names)} values but relevances has {rel.size}")
        # descending score, then descending docno (byte order, as trec_eval's strcmp)
        desc_name = np.argsort(np.array([n.encode() for n in names], dtype=object), kind="stable")[::-1]
        name_rank = np.empty(rel.size, dtype=np.int64)
        name_rank[desc_name] = np.arange(rel.size)
        return np.lexsort((name_rank, -sc))
    if rule == "ranx":
        return numba_quicksort_argsort(-sc)
    return np.lexsort((idx, -sc))


#: numba's quicksort switches to insertion sort below this partition size (numba/misc/quicksort.py).
NUMBA_SMALL_QUICKSORT = 15


def numba_quicksort_argsort(keys) -> np.ndarray:
    """``np.argsort(keys)`` exactly as numba's default (quicksort) computes it inside ranx.

    ranx (0.3.21, ``ranx/data_structures/common.py``: ``sort_dict_by_value`` ->
    ``typed_list_argosrt``) orders a run with ``np.argsort([-score ...])`` compiled by numba, whose
    quicksort (numba 0.68, ``numba/misc/quicksort.py``: ``run_quicksort1``, ``partition``,
    ``insertion_sort``) is not stable: partitions of more than ``NUMBA_SMALL_QUICKSORT`` (15)
    items are split around a median-of-three pivot, which moves tied items; smaller ones are
    insertion-sorted, which keeps ties in input order.  This is a line-by-line port (pure Python,
    so the metrics do not import numba); the tests compare it with numba's own and with ranx.

    Parameters
    ----------
    keys : sequence of float
        The sort keys (ranx sorts the negated scores), any length; NaN sorts last.

    Returns
    -------
    numpy.ndarray of int64
        The indices that sort ``keys`` ascending, tied keys in numba's (unstable) order.

    See Also
    --------
    rank_by_scores : ``ties="ranx"`` ranks with this order.

    References
    ----------
    .. [1] ranx 0.3.21, ``ranx/data_structures/common.py``, ``sort_dict_by_value``.
    .. [2] numba 0.68, ``numba/misc/quicksort.py``, ``run_quicksort1``, ``partition``, ``insertion_sort``.

    Examples
    --------
    >>> numba_quicksort_argsort([0.0] * 5).tolist()  # short: insertion sort keeps input order
    [0, 1, 2, 3, 4]
    >>> numba_quicksort_argsort([0.0] * 16).tolist()  # 16 ties: the partition reverses most of them
    [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15]
    """
    a = [float(x) for x in np.asarray(keys, dtype=np.float64).tolist()]
    r = list(range(len(a)))

    def lt(x: float, y: float) -> bool:  # numba's lt_floats: NaN sorts last
        return x < y or (math.isnan(y) and not math.isnan(x))

    def insertion_sort(low: int, high: int) -> None:
        for i in range(low + 1, high + 1):
            k = r[i]
            v = a[k]
            j = i
            while j > low and lt(v, a[r[j - 1]]):
                r[j] = r[j - 1]
                j -= 1
            r[j] = k

    def partition(low: int, high: int) -> int:
        mid = (low + high) >> 1
        if lt(a[r[mid]], a[r[low]]):
            r[low], r[mid] = r[mid], r[low]
        if lt(a[r[high]], a[r[mid]]):
            r[high], r[mid] = r[mid], r[high]
        if lt(a[r[mid]], a[r[low]]):
            r[low], r[mid] = r[mid], r[low]
        pivot = a[r[mid]]
        r[high], r[mid] = r[mid], r[high]
        i, j = low, high - 1
        while True:
            while i < high and lt(a[r[i]], pivot):
                i += 1
            while j >= low and lt(pivot, a[r[j]]):
                j -= 1
            if i >= j:
                break
            r[i], r[j] = r[j], r[i]
            i += 1
            j -= 1
        r[i], r[high] = r[high], r[i]
        return i

    if len(a) < 2:
        return np.array(r, dtype=np.int64)
    stack = [(0, len(a) - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= NUMBA_SMALL_QUICKSORT:
            i = partition(low, high)
            if high - i > i - low:  # push the larger part, go on with the smaller one
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        insertion_sort(low, high)
    return np.array(r, dtype=np.int64)


def ndcg_from_scores(relevances, scores, *, k=None, gain="linear", discount="standard", log_base=2,
                     pool=None, ties="average", docnos=None, zero_idcg="zero") -> float:
    """NDCG of the items ranked by descending ``scores``.

    ``ties="average"`` gives each group of tied scores the mean gain of the group
    over the group's positions (McSherry & Najork 2008, scikit-learn's default);
    ``"optimistic"`` / ``"pessimistic"`` put the most / least relevant tied item
    first; ``"stable"`` keeps input order; ``"trec_eval"`` sorts ties by ``docnos``
    descending; ``"ranx"`` reproduces ranx's numba quicksort (input order up to 15 items).
    ``zero_idcg`` is as for :func:`ndcg`.

    Parameters
    ----------
    relevances : sequence of float >= 0
        Grades of the items in input order (not ranked).
    scores : sequence of float
        One finite score per item (any sign); the ranking is by descending score.
    k, gain, discount, log_base, pool, zero_idcg
        As for :func:`ndcg`; IDCG does not depend on the scores.
    ties : {"average", "optimistic", "pessimistic", "stable", "trec_eval", "ranx"}, default "average"
        How tied scores are ordered, see :data:`metrics.registry.TIES`.
    docnos : sequence of str, optional
        Document ids, one per item; needed by ``ties="trec_eval"`` only.

    Returns
    -------
    float
        DCG of the scored ranking / IDCG (``zero_idcg`` when IDCG is 0).

    Raises
    ------
    ValueError
        As for :func:`ndcg` and :func:`rank_by_scores`.

    See Also
    --------
    dcg_from_scores : the numerator alone.
    sklearn.metrics.ndcg_score : scikit-learn's NDCG, ``ignore_ties=False`` averages ties.

    References
    ----------
    .. [1] F. McSherry and M. Najork, "Computing information retrieval performance measures
       efficiently in the presence of tied scores", ECIR 2008.
    .. [2] scikit-learn 1.x, ``sklearn/metrics/_ranking.py``, ``_tie_averaged_dcg``.

    Examples
    --------
    Items 1 and 2 tie: they share the mean gain (3 + 0) / 2 over positions 1 and 2,
    so DCG = 1.5 * (1 + 1/log2(3)) + 1/log2(4) = 2.9464 and IDCG = 3 + 1/log2(3) = 3.6309,
    NDCG = 2.9464 / 3.6309 = 0.8115:

    >>> round(ndcg_from_scores([3, 0, 1], [0.5, 0.5, 0.1]), 4)
    0.8115

    Pessimistic puts the 0 first: DCG = 0 + 3/log2(3) + 1/log2(4) = 1.8928 + 0.5 = 2.3928,
    NDCG = 2.3928 / 3.6309 = 0.6590:

    >>> round(ndcg_from_scores([3, 0, 1], [0.5, 0.5, 0.1], ties="pessimistic"), 4)
    0.659
    """
    k = check_k(k)
    rel = as_grades(relevances)
    sc = as_scores(scores, n=rel.size)
    g, d, b = _opts(gain, discount, log_base)
    policy = _zero_policy(zero_idcg)
    best = _ideal_dcg(rel, pool, k, g, d, b)
    rule = check_choice(ties, TIES, name="ties").key
    return _ratio(_scored_dcg(rel, sc, k, g, d, b, rule, docnos), best, policy)


def dcg_from_scores(relevances, scores, *, k=None, gain="linear", discount="standard", log_base=2,
                    ties="average", docnos=None) -> float:
    """DCG of the items ranked by descending ``scores``, ties as in :func:`ndcg_from_scores`.

    Parameters
    ----------
    relevances : sequence of float >= 0
        Grades of the items in input order (not ranked).
    scores : sequence of float
        One finite score per item; the ranking is by descending score.
    k, gain, discount, log_base
        As for :func:`dcg`.
    ties : {"average", "optimistic", "pessimistic", "stable", "trec_eval", "ranx"}, default "average"
        How tied scores are ordered (:data:`metrics.registry.TIES`).
    docnos : sequence of str, optional
        Document ids, one per item; needed by ``ties="trec_eval"`` only.

    Returns
    -------
    float
        The DCG of the scored ranking; with ``"average"`` each tied group contributes its mean gain
        times the sum of its positions' 1/discount.

    Raises
    ------
    ValueError
        As for :func:`dcg` and :func:`rank_by_scores`.

    References
    ----------
    .. [1] F. McSherry and M. Najork, "Computing information retrieval performance measures
       efficiently in the presence of tied scores", ECIR 2008.

    Examples
    --------
    Items 1 and 2 tie: 1.5 * (1 + 1/log2(3)) + 1/log2(4) = 2.9464 on average; 3 + 0 + 0.5 optimistic:

    >>> round(dcg_from_scores([3, 0, 1], [0.5, 0.5, 0.1]), 4)
    2.9464
    >>> dcg_from_scores([3, 0, 1], [0.5, 0.5, 0.1], ties="optimistic")
    3.5
    """
    k = check_k(k)
    rel = as_grades(relevances)
    sc = as_scores(scores, n=rel.size)
    g, d, b = _opts(gain, discount, log_base)
    return _scored_dcg(rel, sc, k, g, d, b, check_choice(ties, TIES, name="ties").key, docnos)


def _scored_dcg(rel, sc, k, g: Choice, d: Choice, b: float, rule: str, docnos) -> float:
    if rule != "average":
        order = rank_by_scores(rel, sc, ties=rule, docnos=docnos)
        return _fsum(discounted_terms(_cut(rel[order], k), g, d, b)[2])
    order = np.argsort(-sc, kind="stable")
    weights = 1.0 / d.func(np.arange(1, rel.size + 1), b)
    if k is not None:
        weights[k:] = 0.0
    sorted_scores = sc[order]
    starts = np.flatnonzero(np.r_[True, sorted_scores[1:] != sorted_scores[:-1]])
    ends = np.r_[starts[1:], rel.size]
    with np.errstate(over="ignore", invalid="ignore"):  # an overflowing gain or mean becomes inf: _fsum raises
        gains = g.func(rel[order])
        total = _fsum(
            [float(np.mean(gains[s:e])) * math.fsum(weights[s:e].tolist()) for s, e in zip(starts, ends)]
        )
    return total


def breakdown(relevances, *, k=None, gain="linear", discount="standard", log_base=2, pool=None) -> pd.DataFrame:
    """Per-position working of DCG and IDCG: the source of every table and chart.

    One row per position up to the longer of the (cut) list and the (cut) ideal
    ranking.  ``discount`` is the divisor; ``dcg``/``idcg`` are running sums and
    ``ndcg`` is their running ratio.  Positions past the end of the list have no
    relevance (NaN) and carry the final DCG.

    Parameters
    ----------
    relevances, k, gain, discount, log_base, pool
        As for :func:`ndcg`.

    Returns
    -------
    pandas.DataFrame
        Columns ``position``, ``relevance``, ``gain``, ``discount`` (the divisor),
        ``discounted_gain``, ``dcg`` (running), ``ideal_relevance``, ``ideal_gain``,
        ``ideal_discounted_gain``, ``idcg`` (running) and ``ndcg`` (running ratio, 0 while IDCG is 0).

    Raises
    ------
    ValueError
        As for :func:`ndcg`.

    Examples
    --------
    Document 000 with Järvelin & Kekäläinen's discount max(1, log2 i): positions 1 and 2 are not
    discounted, position 3 is divided by log2(3) = 1.58, so 1 / 1.58 = 0.63:

    >>> t = breakdown([3, 2, 1, 3, 2], discount="jarvelin")
    >>> t[["position", "relevance", "discount", "discounted_gain"]].round(2).values.tolist()[:3]
    [[1.0, 3.0, 1.0, 3.0], [2.0, 2.0, 1.0, 2.0], [3.0, 1.0, 1.58, 0.63]]
    >>> round(float(t["dcg"].iloc[-1]), 2), round(float(t["idcg"].iloc[-1]), 2)
    (7.99, 8.69)
    """
    import pandas as pd  # only the tables need it (the playground's first number does not)

    k = check_k(k)
    rel = as_grades(relevances)
    g, d, b = _opts(gain, discount, log_base)
    actual = _cut(rel, k)
    ideal = _cut(_ideal(rel, pool, g), k)
    discounted_terms(actual, g, d, b)  # validation only: raises if a discounted gain overflows
    discounted_terms(ideal, g, d, b, name="ideal ranking")
    n = max(actual.size, ideal.size)
    positions = np.arange(1, n + 1)
    divisors = d.func(positions, b)

    def pad(values: np.ndarray) -> np.ndarray:
        return np.r_[values, np.full(n - values.size, np.nan)]

    gains, ideal_gains = pad(g.func(actual)), pad(np.maximum(g.func(ideal), 0.0))  # as _ideal_dcg
    terms, ideal_terms = gains / divisors, ideal_gains / divisors
    running = _running_fsum(np.nan_to_num(terms))
    ideal_running = _running_fsum(np.nan_to_num(ideal_terms))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(ideal_running != 0, running / ideal_running, 0.0)  # != 0: a log base < 1 makes IDCG negative
    return pd.DataFrame(
        {
            "position": positions,
            "relevance": pad(actual),
            "gain": gains,
            "discount": divisors,
            "discounted_gain": terms,
            "dcg": running,
            "ideal_relevance": pad(ideal),
            "ideal_gain": ideal_gains,
            "ideal_discounted_gain": ideal_terms,
            "idcg": ideal_running,
            "ndcg": ratio,
        }
    )


def all_variants(relevances, *, k=None, log_base=2, pool=None, gains=None, discounts=None,
                 zero_idcg="zero") -> pd.DataFrame:
    """CG, DCG, IDCG and NDCG under every gain × discount × IDCG source.

    IDCG source ``"list"`` re-sorts the list itself; ``"judged"`` ranks all judged
    items (``pool``); without a pool the two coincide and only ``"list"`` is given.
    ``gains`` may hold registry names and gain maps (dicts); ``zero_idcg`` is as for :func:`ndcg`.
    The table answers "does the choice matter?": the same list gets a different NDCG under each
    convention.

    Parameters
    ----------
    relevances, k, log_base, pool, zero_idcg
        As for :func:`ndcg`.
    gains : sequence of str or mapping, optional
        Gains to try (names from :data:`metrics.registry.GAINS` or gain maps).  Default ``None``:
        ``("linear", "exponential")``.
    discounts : sequence of str, optional
        Discounts to try.  Default ``None``: every discount in :data:`metrics.registry.DISCOUNTS`.

    Returns
    -------
    pandas.DataFrame
        One row per gain × discount × IDCG source with columns ``gain``, ``discount``,
        ``idcg_source`` ("list" or "judged"), ``cg``, ``dcg``, ``idcg``, ``ndcg``.

    Raises
    ------
    ValueError
        As for :func:`ndcg`.

    Examples
    --------
    Document 001 with two unretrieved judged items: 2 gains × 2 discounts × 2 IDCG sources = 8 rows.

    >>> t = all_variants([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    >>> len(t), sorted(t.columns)[:3]
    (8, ['cg', 'dcg', 'discount'])

    Linear gain, standard discount: DCG 6.8611 over the list's own IDCG 7.1410 = 0.9608, over the
    judged items' IDCG 8.3841 = 0.8184.

    >>> t[(t.gain == "linear") & (t.discount == "standard")][["idcg_source", "ndcg"]].round(4).values.tolist()
    [['list', 0.9608], ['judged', 0.8184]]
    """
    import pandas as pd  # only the tables need it (the playground's first number does not)

    k = check_k(k)
    rel = as_grades(relevances)
    b = check_log_base(log_base)
    gain_keys = list(gains or ("linear", "exponential"))
    discount_keys = list(discounts or DISCOUNTS)
    policy = _zero_policy(zero_idcg)
    sources = [("list", None)] + ([("judged", pool)] if pool is not None else [])
    rows = []
    for gk, dk, (source, p) in product(gain_keys, discount_keys, sources):
        g, d = resolve_gain(gk), resolve_discount(dk)
        top = _fsum(discounted_terms(_cut(rel, k), g, d, b)[2])
        best = _ideal_dcg(rel, p, k, g, d, b)
        rows.append(
            {
                "gain": g.key,
                "discount": d.key,
                "idcg_source": source,
                "cg": _fsum(g.func(_cut(rel, k))),
                "dcg": top,
                "idcg": best,
                "ndcg": _ratio(top, best, policy),
            }
        )
    return pd.DataFrame(rows)
