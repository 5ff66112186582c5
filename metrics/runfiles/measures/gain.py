"""Gain kernels: NDCG under every variant (one kernel), trec_eval's ndcg and ndcg_cut as its presets,
and trec_eval's experimental gain measures (ndcg_rel, Rndcg, G).

One DCG kernel (:func:`ndcg_values`) computes NDCG for a :class:`DcgInput` -- which rows carry which
gain, and the ideal ranking's gains -- under a discount, a logarithm base, cutoffs and a tie rule.
trec_eval's ``ndcg`` (gain = the whole grade or a gain map ``L=G``, ideal from the judged levels walked
in trec_eval's own gain order) and ``ndcg_cut`` (gain = the whole grade) are that kernel with
:func:`trec_input`, the standard discount, base 2 and trec_eval's tie order; the ``nDCG`` measure's
variants (each a :class:`metrics.variant.Variant`, one per cutoff) are the same kernel with
:func:`variant_input`.  DCG and IDCG are
computed once per (gains, discount, base, cutoff, tie rule or ideal) and shared through the lists'
memo by every measure of a run that needs them.

Grades 0, 3 in ranked order, and a judged 2 that was not retrieved: DCG = 3/log2(3), IDCG = 3 + 2/log2(3):

>>> from .lists import Lists
>>> lists = Lists.from_codes([[0, 3]], judged=[[0, 3, 2]])
>>> [round(float(v[0]), 4) for v in KERNELS["ndcg_cut"](lists, (1, 2))]   # 0 / 3; 1.8928 / 4.2619
[0.0, 0.4441]
>>> from metrics.variant import Variant
>>> round(float(KERNELS["nDCG"](lists, (Variant(gain="exponential"),))[0][0]), 4)  # 7/log2(3) / (7 + 3/log2(3))
0.4966
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..._numbers import safe_divide
from ...registry import DISCOUNTS, GAINS, ZERO_IDCG
from ...variant import NAME, Variant
from .lists import Lists, effective_grades, ideal_ranking, prefix_at, query_count, query_sum, segmented_cumsum

__all__ = ["KERNELS", "VARIANT_MEASURE", "DcgInput", "ndcg_values", "trec_input", "variant_input"]

#: The name of the parametrised NDCG measure (ir_measures' spelling): ``nDCG(gain=exponential,ties=average)@10``,
#: the spec form of :class:`metrics.variant.Variant`.
VARIANT_MEASURE = NAME


@dataclass(frozen=True)
class DcgInput:
    """What the DCG kernel reads from a run's lists.

    ``rows`` are the rows of the lists with a non-zero gain and ``gains`` their gains; ``ideal`` the
    ideal ranking's (query, position, gain) (:func:`metrics.runfiles.measures.lists.ideal_ranking`).
    ``key`` and ``ideal_key`` name the two for the lists' memo (equal keys: equal arrays).
    """

    key: tuple
    rows: np.ndarray
    gains: np.ndarray
    ideal_key: tuple
    ideal: tuple[np.ndarray, np.ndarray, np.ndarray]


def trec_input(lists: Lists, gain_map: Mapping[int, float] | None = None, *, gain: str = "linear") -> DcgInput:
    """trec_eval's gains: each retrieved document's whole grade (or the map's gain for it; unjudged 0), and
    the ideal ranking from the judged levels as trec_eval walks them (:meth:`Lists.ideal`).

    Parameters
    ----------
    lists : Lists
        A run's ranked lists.
    gain_map : mapping of int to float, optional
        trec_eval's ``ndcg.L=G,...`` (levels not in it keep their grade as gain).
    gain : str, default "linear"
        A key of :data:`metrics.registry.GAINS` applied to the whole grades (``"exponential"``:
        gdeval's ``2^grade - 1``); with a gain map only "linear".

    Returns
    -------
    DcgInput

    Examples
    --------
    >>> lists = Lists.from_codes([[0, 3]], judged=[[0, 3, 2]])
    >>> d = trec_input(lists, {3: 1.0})
    >>> d.rows.tolist(), d.gains.tolist(), d.ideal[2].tolist()   # the ideal walks gain 2 (level 2) first
    ([1], [1.0], [2.0, 1.0])
    >>> trec_input(lists, gain="exponential").ideal[2].tolist()
    [7.0, 3.0]
    """
    key = tuple(sorted((gain_map or {}).items()))
    if gain_map and gain != "linear":
        raise ValueError(f"gain must be 'linear' with a gain map, got {gain!r}")

    def build():
        g = lists.gains(gain_map)
        rows = np.flatnonzero(g != 0)
        return rows, g[rows]

    rows, gains = lists.memo(("trec_gains", key), build)
    iq, ip, ig = lists.ideal(gain_map)
    if gain != "linear":
        func = GAINS[gain].func
        with np.errstate(over="ignore"):
            gains = lists.memo(("trec_gains", key, gain), lambda: func(gains))
            ig = lists.memo(("trec_ideal_gains", key, gain), lambda: func(ig))
    return DcgInput(("trec", key, gain), rows, gains, ("trec", key, gain), (iq, ip, ig))


def variant_input(lists: Lists, *, gain: str = "linear", level: float | None = None, idcg: str = "judged") -> DcgInput:
    """The NDCG variants' gains: each row's grade as given (fractions kept, negative = 0, below ``level`` = 0)
    through a gain of :data:`metrics.registry.GAINS`, and the ideal ranking from every judged grade
    (``idcg="judged"``) or from the retrieved list's own grades (``idcg="list"``).

    Parameters
    ----------
    lists : Lists
        A run's ranked lists.
    gain : str, default "linear"
        A key of :data:`metrics.registry.GAINS`.
    level : float, optional
        Grades below it count 0.
    idcg : {"judged", "list"}, default "judged"
        Where the ideal ranking comes from.

    Returns
    -------
    DcgInput
        Gains may be inf for a grade beyond the gain's float64 range (the caller marks those queries).

    Examples
    --------
    >>> lists = Lists.from_codes([[0, 3]], judged=[[0, 3, 2]])
    >>> d = variant_input(lists, gain="exponential", idcg="list")
    >>> d.gains.tolist(), d.ideal[2].tolist()    # the list's own grade 3 only: 2^3 - 1
    ([7.0], [7.0])
    """
    func = GAINS[gain].func

    def graded():
        g = effective_grades(lists.grade, level)
        rows = np.flatnonzero(g > 0)
        return rows, g[rows]

    rows, grades = lists.memo(("variant_rows", level), graded)
    with np.errstate(over="ignore", invalid="ignore"):
        gains = lists.memo(("variant_gains", gain, level), lambda: func(grades))
        if idcg == "judged":
            iq, ip, ig = lists.judged.ideal(level)
        else:
            iq, ip, ig = lists.memo(("list_ideal", level), lambda: ideal_ranking(lists.q[rows], grades))
        ideal = lists.memo(("ideal_gains", gain, level, idcg), lambda: (iq, ip, func(ig)))
    return DcgInput(("variant", gain, level), rows, gains, ("variant", gain, level, idcg), ideal)


def _divisors(discount: str, base: float, k: int | None, size: int) -> np.ndarray:
    """divisors[p] for p = 0..size: the discount at position p, inf past k (and at the unused 0)."""
    out = np.full(size + 1, np.inf)
    if size:
        out[1:] = DISCOUNTS[discount].func(np.arange(1, size + 1), base)
    if k is not None:
        out[k + 1:] = np.inf
    return out


def ndcg_values(lists: Lists, source: DcgInput, *, discount: str = "standard", base: float = 2.0,
                cutoffs: tuple = (None,), ties: str = "trec_eval", zero: float = 0.0) -> list[np.ndarray]:
    """NDCG of every query at each cutoff: the one DCG kernel.

    DCG sums ``gain / discount(position)`` over each query's rows (in row order, as trec_eval adds);
    IDCG the same over the ideal ranking; NDCG is their ratio, 0 where IDCG is 0.

    Parameters
    ----------
    lists : Lists
        A run's ranked lists.
    source : DcgInput
        The gains and the ideal ranking (:func:`trec_input`, :func:`variant_input`).
    discount : str, default "standard"
        A key of :data:`metrics.registry.DISCOUNTS`.
    base : float, default 2.0
        The logarithm's base.
    cutoffs : tuple of int or None, default (None,)
        One value per cutoff (None: the whole list and the whole ideal ranking).
    ties : str, default "trec_eval"
        A tie rule of :data:`metrics.registry.TIES` ("average": each tied document gets the mean
        discount of its group's positions).
    zero : float, default 0.0
        NDCG where IDCG is not > 0 (the ``value`` of a :data:`metrics.registry.ZERO_IDCG` policy).

    Returns
    -------
    list of numpy.ndarray
        One array of per-query values per cutoff.

    Examples
    --------
    >>> lists = Lists.from_codes([[0, 3]], judged=[[0, 3, 2]])
    >>> [v.round(4).tolist() for v in ndcg_values(lists, trec_input(lists), cutoffs=(1, None))]
    [[0.0], [0.4441]]
    """
    iq, ip, ig = source.ideal
    rows = source.rows
    q = lists.q[rows]
    size = max(int(lists.num_ret.max()) if lists.n else 0, int(ip.max()) if ip.size else 0, 1)
    out = []
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for k in cutoffs:
            div = lists.memo(("div", discount, base, k, size), lambda k=k: _divisors(discount, base, k, size))

            def dcg(div=div):
                if ties == "average":
                    gstart, gend = lists.tie_groups()
                    cum = np.r_[0.0, np.cumsum(1.0 / div[1:])]
                    gs, ge = gstart[rows], gend[rows]
                    weights = source.gains * ((cum[ge] - cum[gs - 1]) / (ge - gs + 1))
                else:
                    weights = source.gains / div[lists.tie_positions(ties)[rows]]
                return query_sum(q, weights, lists.n)

            top = lists.memo(("dcg", source.key, discount, base, k, ties), dcg)
            best = lists.memo(("idcg", source.ideal_key, discount, base, k),
                              lambda div=div: query_sum(iq, ig / div[ip], lists.n))
            value = safe_divide(top, best, where=best > 0)
            if zero != 0.0:
                value = np.where(best > 0, value, zero)
            out.append(value)
    return out


def _ndcg_variant(lists: Lists, variants: tuple[Variant, ...]) -> list[np.ndarray]:
    """NDCG under one variant for every query, at each of the variants' cutoffs (the variants differ only in
    ``k``); NaN for a query graded beyond its gain's float64 range (2^1100 - 1): n/a, not a misleading 0 or 1."""
    v = variants[0]
    source = variant_input(lists, gain=v.gain, level=v.level, idcg=v.idcg)
    out = ndcg_values(lists, source, discount=v.discount, base=v.log_base, cutoffs=tuple(x.k for x in variants),
                      ties=v.ties, zero=ZERO_IDCG[v.zero_idcg].value)

    def huge():
        bad = np.zeros(lists.n, dtype=bool)
        bad[lists.q[source.rows][~np.isfinite(source.gains)]] = True
        aq, _, ag = lists.judged.ideal(v.level)  # every judged grade, whichever ideal this variant uses
        with np.errstate(over="ignore", invalid="ignore"):
            bad[aq[~np.isfinite(GAINS[v.gain].func(ag))]] = True
        return bad

    bad = lists.memo(("huge", v.gain, v.level), huge)
    for value in out:
        value[bad] = np.nan
    return out


def _ndcg(lists, gain_map):
    return ndcg_values(lists, trec_input(lists, gain_map))


def _ndcg_cut(lists, cutoffs):
    return ndcg_values(lists, trec_input(lists), cutoffs=tuple(cutoffs))


def _discounted(gains: np.ndarray, pos: np.ndarray) -> np.ndarray:
    return gains / np.log2((pos + 1).astype(np.float64))


def _ideal_walk(lists, gain_map):
    """The ideal ranking's per-position gains and running DCG, and per-query length and totals."""
    iq, ipos, ig = lists.ideal(gain_map)
    istart = lists.ideal_start(iq)
    icum = segmented_cumsum(_discounted(ig, ipos), iq, istart)
    length = query_count(iq, lists.n)
    return iq, ipos, ig, istart, icum, length


def _ndcg_rel(lists, gain_map):
    g = lists.gains(gain_map)
    dg = _discounted(g, lists.pos)
    rcum = segmented_cumsum(dg, lists.q, lists.start)
    iq, ipos, ig, istart, icum, length = _ideal_walk(lists, gain_map)
    rtotal = query_sum(lists.q, dg, lists.n)
    itotal = prefix_at(icum, istart, np.arange(lists.n), length)
    pos_rows = np.flatnonzero(g > 0)
    q = lists.q[pos_rows]
    ideal_here = prefix_at(icum, istart, q, np.minimum(lists.pos[pos_rows], length[q]))
    s = query_sum(q, rcum[pos_rows] / ideal_here, lists.n)
    s = s + (length - query_count(q, lists.n)).astype(np.float64) * safe_divide(rtotal, itotal)  # 0 without relevant
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
    extra = results(extra_q, n_ret[extra_q]) / prefix_at(icum, istart, extra_q, length[extra_q])
    q_all = np.r_[bq, extra_q]
    s = query_sum(q_all, np.r_[terms, extra], lists.n)
    with np.errstate(invalid="ignore", divide="ignore"):  # 0 / 0 is trec_eval's nan (pytrec_eval agrees)
        value = s / query_count(q_all, lists.n).astype(np.float64)
    return [np.where(lists.num_rel == 0, 0.0, value)]


def _g(lists, gain_map):
    g = lists.gains(gain_map)
    sres = segmented_cumsum(g, lists.q, lists.start)
    iq, ipos, ig, istart, _icum, length = _ideal_walk(lists, gain_map)
    cost_cum = segmented_cumsum(np.maximum(ig, 1.0), iq, istart)
    cost_total = prefix_at(cost_cum, istart, np.arange(lists.n), length)
    rows = np.flatnonzero(g != 0)
    q, pos = lists.q[rows], lists.pos[rows]
    ln = length[q]
    cost = np.where(pos <= ln, prefix_at(cost_cum, istart, q, np.minimum(pos, ln)),
                    cost_total[q] + (pos - ln).astype(np.float64))
    results_g = query_sum(q, g[rows] / np.log2(2 + cost - sres[rows]), lists.n)
    sum_ideal = query_sum(iq, ig, lists.n)
    return [np.where(sum_ideal > 0, safe_divide(results_g, sum_ideal), 0.0)]


#: The kernels of this family by measure name: ``kernel(lists, params) -> list of per-query arrays``.
KERNELS = {"ndcg": _ndcg, "ndcg_cut": _ndcg_cut, "ndcg_rel": _ndcg_rel, "Rndcg": _rndcg, "G": _g,
           VARIANT_MEASURE: _ndcg_variant}
