"""Which convention gives my number?  Every library and setting whose NDCG rounds to a typed value.

:func:`match_number` takes a ranked list (grades, optionally scores and document ids, the judged
pool, a cutoff) and a number somebody got, as they wrote it (``"0.8123"``, ``"81.23%"``), and
returns

* ``libraries``: every library in :data:`metrics.lessons.libraries.LIBRARIES` whose number, computed
  exactly, rounds to the value at the precision it was written with;
* ``matches``: every combination of the :data:`~metrics.lessons.libraries.DIMENSIONS` (grades as
  given or truncated, tie rule and score precision, gain — linear, exponential, binary or a gain
  map —, discount, log base, what k cuts, IDCG source and order, zero-IDCG policy, NDCG or plain
  DCG) that does, merged: a setting whose every choice gives the number shows as "any";
* ``near_misses``: for each library that does not give the number, the first step (in the order
  of the calculation) where its convention differs from the nearest one that does, named with
  :mod:`metrics.lessons.diagnose`'s steps and mistake kinds where they fit; a library that computes
  another measure (Spark's precisionAt, meanAveragePrecision, Elasticsearch's plain DCG) is named as
  that measure first, not as an NDCG with another gain;
* ``explanations``: the most likely stories first.  Each convention of
  :data:`~metrics.lessons.libraries.COMMON_CONVENTIONS` (most used first) whose NDCG or DCG, written
  one of the ways of :data:`WRITINGS` (rounded; ×100 without the % sign; cut off; rounded at fewer
  decimals; from rounded DCG and IDCG), gives the number, then the rarer setting families of ``matches``
  that give it exactly.  Document 000's 0.91 for 3, 2, 1, 3, 2 is first the Järvelin–Kekäläinen form's
  0.9194 cut off, before the exotic exact match (exponential gain, Järvelin discount, natural log: 0.9133).

**A percent without its sign.**  Papers print NDCG ×100 without a % sign.  An NDCG is at most 1, so a
number above 1 and at most 100 written without a sign is also read as an NDCG ×100
(:func:`unsigned_percent`: ``81.84`` as ``81.84%``), for NDCGs only (a DCG is not bounded): the
libraries, settings and explanations it gives carry ``times_100``.  ``81.84%`` with its sign is a percent
as before.

**Precision.**  The value's precision is the number of decimals written: give it as text
(``"0.80"`` has 2 decimals, ``"81.86%"`` 4 as a fraction) or as a :class:`decimal.Decimal`
(``Decimal("0.80")`` keeps its 2).  A float has lost what was typed: it is read at its shortest
round-trip text (``repr``), so ``0.80`` is ``0.8``, 1 decimal; an int has 0 decimals.  A number
matches when the exact value is within half a unit of the last written decimal (either rounding
direction, ties included).

**Speed.**  The combinations are not evaluated one by one: each stage (grades, orders, gains,
divisors, ideal rankings) is computed once, DCG and IDCG at every cut come from running sums,
and the ratios of all pairs are formed with numpy (``benchmarks/match.py`` measures it against
:func:`match_number_naive`, the one-by-one loop over :func:`~metrics.lessons.libraries.convention_value`).

>>> r = match_number("0.91", [3, 2, 1, 3, 2])
>>> first = r.explanations[0]
>>> first.conventions, first.writing, round(first.value, 4), first.shown, first.rounded
(('jarvelin',), 'truncated', 0.9194, '0.91', '0.92')
>>> r = match_number("0.8184", [3, 2, 3, 0, 1, 2], pool=[3, 2, 3, 0, 1, 2, 3, 0], k=6)
>>> "trec_eval_ndcg_cut" in r.library_keys, "sklearn" in r.library_keys
(True, False)
>>> r.near_miss("sklearn").dimension, r.near_miss("sklearn").step
('idcg', 'ideal_term')
>>> e = match_number("81.84", [3, 2, 3, 0, 1, 2], pool=[3, 2, 3, 0, 1, 2, 3, 0], k=6).explanations[0]
>>> e.conventions, e.times_100, e.writing, e.decimals, round(e.value, 6)
(('trec_eval',), True, 'rounded', 2, 0.818354)
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Context, Decimal
from itertools import product
from typing import NamedTuple

import numpy as np

from .._validation import as_grades, as_scores, check_k
from ..ndcg import rank_by_scores
from ..registry import DISCOUNTS, IDCG_SOURCES, TIES, ZERO_IDCG, Choice, resolve_gain
from .diagnose import HandNumber, hand_number
from .libraries import (
    COMMON_CONVENTIONS,
    CUTOFFS,
    DIMENSIONS,
    HIT_QUANTITIES,
    IDEAL_ORDERS,
    LIBRARIES,
    LOG_BASES,
    Convention,
    NotApplicable,
    as_float32_scores,
    convention_value,
)

__all__ = ["Match", "LibraryMatch", "NearMiss", "Explanation", "MatchResult", "match_number", "match_number_naive",
           "read_value", "written_as", "Written", "unsigned_percent", "fold_settings", "EXTRA_MISTAKES",
           "WRITINGS"]

#: Mistake kinds for dimensions diagnose has no word for (its MISTAKES cover gain, discount, base,
#: IDCG source and order, k on one side, truncation, percent vs fraction).
EXTRA_MISTAKES = {
    "grades": "grade_reading",
    "ties": "tie_rule",
    "scores_as": "score_precision",
    "zero_idcg": "zero_idcg",
    "quantity": "not_normalised",
    # not a dimension: a library whose number is another measure (precision, recall, average precision)
    "measure": "other_measure",
}

#: How a number gets written from its exact value, MOST COMMON FIRST (the order of the explanations of one
#: convention; only the first way that gives the number is said).  ``help`` is the way and why people do it.
#: "times_100" is a scale, not a rounding: it combines with each of the others (:attr:`Written.times_100`), and
#: for one exact value the two scales never both give a number above 1 (as written, the value is above 1; ×100,
#: it is at most 1.005), so its place orders the reasons shown, not which story is found.
WRITINGS: dict[str, Choice] = {c.key: c for c in (
    Choice("rounded", "rounded", "The exact value rounded at the decimals written: how numbers are normally printed."),
    Choice("times_100", "×100 without the % sign",
           "An NDCG multiplied by 100 and printed without its % sign, as papers' tables do (0.8184 -> 81.84), then "
           "rounded, cut off or rounded at fewer decimals like any number (78.2 is 0.782201 ×100 rounded at 1 "
           "decimal). Tried for an NDCG or a mean of NDCGs (never above 1) when the number is above 1, at most "
           "100 and has no % sign."),
    Choice("truncated", "cut off",
           "The digits after the last one written are dropped, not rounded: copied by hand from a longer number, "
           "int(x * 100) / 100, a spreadsheet's TRUNC."),
    Choice("rounded_shorter", "rounded at fewer decimals",
           "Rounded at fewer decimals and written with trailing zeros (0.9194 -> 0.92 -> 0.9200)."),
    Choice("ratio_of_rounded", "from rounded DCG and IDCG",
           "DCG and IDCG rounded first, as a hand calculation writes them down, then divided and rounded "
           "(7.99 / 8.69)."),
)}


@dataclass(frozen=True)
class Match:
    """One family of settings that gives the number.

    ``settings`` maps each dimension to the tuple of its choices that give this number, or None
    when every choice does (it does not matter for this list); ``value`` is the exact number.
    """

    settings: dict
    value: float
    times_100: bool = False  # the number is this NDCG ×100 written without its % sign

    def choices(self, dimension: str):
        return self.settings.get(dimension)


@dataclass(frozen=True)
class LibraryMatch:
    """A library whose number rounds to the value: its key, exact number and the k it used; ``times_100``: the
    number is that NDCG ×100 written without its % sign (81.84 for 0.818354)."""

    key: str
    value: float
    k: int | None
    times_100: bool = False


@dataclass(frozen=True)
class NearMiss:
    """A library that does not give the number, and the first setting where it departs from one that does.

    ``dimension`` is a key of :data:`DIMENSIONS` (None: no convention gives the number, so the closest
    value is reported), ``step`` a key of :data:`metrics.lessons.diagnose.STEPS` and ``mistake`` a key of
    :data:`metrics.lessons.diagnose.MISTAKES` or of :data:`EXTRA_MISTAKES`; ``theirs`` is the library's
    setting and ``needed`` the setting(s) that give the number, with every other setting the library's own.
    """

    key: str
    value: float
    dimension: str | None
    step: str
    mistake: str
    theirs: object = None
    needed: tuple = ()
    differing: tuple = ()


@dataclass(frozen=True)
class Explanation:
    """One story of how the number was written, most likely first (see the module docstring).

    ``conventions`` are keys of :data:`~metrics.lessons.libraries.COMMON_CONVENTIONS` that give this exact
    ``value`` (empty for a rarer family, whose ``settings`` are a :class:`Match`'s); ``quantity`` is "ndcg" or
    "dcg"; ``writing`` a key of :data:`WRITINGS` and ``decimals`` the precision it used, counted as the
    number is written (``81.84%`` and ``81.84`` ×100: 2; for "ratio_of_rounded": the decimals of DCG and
    IDCG, given in ``parts``); ``shown`` is what that writing gives (a fraction: 0.8184 for 81.84) and
    ``rounded`` the exact value rounded at the typed precision, for comparison; ``times_100``: the number is
    the NDCG ×100 written without its % sign (the writing "times_100" combined with ``writing``).
    """

    conventions: tuple
    quantity: str
    writing: str
    decimals: int | None
    value: float
    shown: str
    rounded: str
    settings: dict | None = None
    parts: tuple | None = None
    times_100: bool = False


@dataclass
class MatchResult:
    target: HandNumber
    matches: list[Match]
    libraries: list[LibraryMatch]
    near_misses: list[NearMiss]
    not_applicable: dict = field(default_factory=dict)  # library key -> reason
    candidates: dict = field(default_factory=dict)  # dimension -> the choices tried for this input
    explanations: list[Explanation] = field(default_factory=list)

    @property
    def library_keys(self) -> list[str]:
        return [m.key for m in self.libraries]

    def near_miss(self, key: str) -> NearMiss | None:
        return next((m for m in self.near_misses if m.key == key), None)


def read_value(value) -> HandNumber:
    """The typed value and its precision: text, :class:`decimal.Decimal`, float (its ``repr``) or int.

    A number matches a convention when the convention's exact value rounds to it at the precision
    it was written with, so the precision must be read from what was typed: ``"0.80"`` claims two
    decimals, ``0.80`` as a float has forgotten its trailing zero.

    Parameters
    ----------
    value : str, Decimal, float or int
        The number as written: text keeps every decimal (``"81.86%"`` is the fraction 0.8186 with
        4 decimals), a Decimal keeps its exponent, a float is read at its ``repr``, an int has
        0 decimals.  Booleans are refused.

    Returns
    -------
    HandNumber
        ``value`` (float), ``decimals``, ``percent``, ``text``; ``scale`` is the number of decimals
        of the fraction and ``tolerance`` half a unit of the last one.

    Raises
    ------
    ValueError
        If the value is not a finite number (text that is not a number, NaN, infinity, a boolean or
        another type).

    See Also
    --------
    metrics.lessons.diagnose.hand_number : the reader used for hand calculations.

    Examples
    --------
    >>> read_value("0.80").scale, read_value(Decimal("0.80")).scale, read_value(0.80).scale
    (2, 2, 1)
    >>> read_value("81.86%").value, read_value("81.86%").scale
    (0.8186, 4)
    """
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"value is {value}; only finite numbers are accepted")
        return hand_number(str(value), name="value")
    if not isinstance(value, (str, numbers.Real)) or isinstance(value, bool):
        raise ValueError(f"value must be text, a Decimal or a number, got {type(value).__name__}")
    return hand_number(value, name="value")


def _within(h: HandNumber, x: float) -> bool:
    return math.isfinite(x) and abs(x - h.value) <= h.tolerance * (1 + 1e-9) + 1e-12


# ------------------------------------------------------------------------------------------------
# The staged engine
# ------------------------------------------------------------------------------------------------
def _candidates(rel, scores, pool, k, gain_map) -> dict:
    fractional = bool(np.any(rel != np.trunc(rel))) or (pool is not None and bool(np.any(pool != np.trunc(pool))))
    cands = {
        "grades": ("as_is", "truncate") if fractional else ("as_is",),
        "ties": tuple(TIES) if scores is not None else ("stable",),
        "scores_as": ("float64", "float32") if scores is not None else ("float64",),
        "gain": ("linear", "exponential", "binary") + (("map",) if gain_map else ()),
        "discount": tuple(DISCOUNTS),
        "log_base": LOG_BASES,
        "cutoff": tuple(CUTOFFS) if k is not None else ("none",),
        "idcg": tuple(IDCG_SOURCES),
        "ideal_order": tuple(o for o in IDEAL_ORDERS if gain_map or o != "grade"),
        "zero_idcg": tuple(ZERO_IDCG),
        "quantity": ("ndcg", "dcg"),
    }
    return cands


def _cut_index(c: int | None, size: int) -> int:
    return size if c is None else min(c, size)


def _orders(rel, scores, docnos, cands) -> list[tuple[list, object]]:
    """([(tie rule, score type), ...], order) for every distinct ranking; order is a permutation or
    ("average", order, tie group ids).  Computed once per distinct ranking, the pairs that give it kept."""
    if scores is None:
        return [([("stable", "float64")], np.arange(rel.size))]
    out: dict[bytes, list] = {}
    for st in cands["scores_as"]:
        if st == "float64":
            sc = scores
        else:
            try:
                sc = as_float32_scores(scores)
            except NotApplicable:  # a finite score beyond float32's range: no float32 ranking exists
                continue
        for rule in cands["ties"]:
            if rule == "average":
                order = np.argsort(-sc, kind="stable")
                s_sorted = sc[order]
                groups = np.cumsum(np.r_[True, s_sorted[1:] != s_sorted[:-1]]) - 1
                key = b"avg" + order.tobytes() + groups.tobytes()
                item = ("average", order, groups)
            else:
                item = rank_by_scores(rel, sc, ties=rule, docnos=docnos)
                key = item.tobytes()
            out.setdefault(key, [[], item])[0].append((rule, st))
    return [(pairs, item) for pairs, item in out.values()]


def _ranked_gains(gains_by_item: np.ndarray, item) -> np.ndarray:
    if isinstance(item, tuple):  # tie average: each position gets the mean gain of its tie group
        _, order, groups = item
        g = gains_by_item[order]
        sums = np.bincount(groups, weights=g)
        counts = np.bincount(groups)
        return (sums / counts)[groups]
    return gains_by_item[item]


def _engine(h: HandNumber, rel, scores, docnos, pool, k, gain_map) -> tuple[list[dict], dict]:
    cands = _candidates(rel, scores, pool, k, gain_map)
    n = rel.size
    records: list[dict] = []
    orders_by_grades = {}
    for gr in cands["grades"]:
        r = np.trunc(rel) if gr == "truncate" else rel
        orders_by_grades[gr] = (r, _orders(r, scores, docnos, cands))
    judged_raw = rel if pool is None else pool
    size = max(n, judged_raw.size)
    positions = np.arange(1, size + 1)
    divisors = {(d, b): DISCOUNTS[d].func(positions, b) for d in cands["discount"] for b in cands["log_base"]}
    # cut pairs (run cut, ideal cut) per cutoff meaning
    kk = k
    cut_pairs = {"both": (kk, kk), "run": (kk, None), "hits": (kk, None if kk is None else min(kk, n)),
                 "none": (None, None)}
    for gr, gk in product(cands["grades"], cands["gain"]):
        r, orders = orders_by_grades[gr]
        judged = np.trunc(judged_raw) if gr == "truncate" else judged_raw
        g = resolve_gain(gain_map if gk == "map" else gk)
        gains_items = g.func(r)
        # ideal rankings: (sources, orders) -> ideal gain vector
        ideals: dict[bytes, list] = {}
        for src, io in product(cands["idcg"], cands["ideal_order"]):
            items = r if src == "list" else judged
            if io == "given":
                ig = g.func(items[items > 0])
            else:
                gi = g.func(items)
                if io == "gain":
                    idx = np.lexsort((-items, -gi))
                    ig = np.where(gi[idx] < 0, 0.0, gi[idx])
                else:
                    ig = gi[np.argsort(-items, kind="stable")]
            ideals.setdefault(ig.tobytes(), [[], ig])[0].append((src, io))
        ranked = [(pairs, _ranked_gains(gains_items, item)) for pairs, item in orders]
        for (d, b), div in divisors.items():
            # DCG at the run cuts, per order
            dcg_vals = [(pairs, np.cumsum(rg / div[:n])) for pairs, rg in ranked]
            idcg_vals = [(ipairs, np.cumsum(ig / div[:ig.size]) if ig.size else np.zeros(0))
                         for ipairs, ig in ideals.values()]
            for cutoff in cands["cutoff"]:
                c_run, c_ideal = cut_pairs[cutoff]
                for pairs, run in dcg_vals:
                    i = _cut_index(c_run, n)
                    top = float(run[i - 1]) if i else 0.0
                    base = {"grades": gr, "gain": gk, "discount": d, "log_base": b, "cutoff": cutoff}
                    found = []
                    if _within(h, top):
                        found.append(({"quantity": "dcg", "idcg": None, "ideal_order": None,
                                       "zero_idcg": None}, top))
                    for ipairs, irun in idcg_vals:
                        j = _cut_index(c_ideal, irun.size)
                        best = float(irun[j - 1]) if j else 0.0
                        hits = []
                        if best == 0:
                            hits = [(z, policy.value) for z, policy in ZERO_IDCG.items() if _within(h, policy.value)]
                        elif _within(h, top / best):
                            hits = [(None, top / best)]
                        for z, v in hits:
                            for src, io in ipairs:
                                found.append(({"quantity": "ndcg", "idcg": src, "ideal_order": io,
                                               "zero_idcg": z}, v))
                    for extra, v in found:
                        for rule, st in pairs:
                            records.append({**base, **extra, "ties": rule, "scores_as": st, "value": v})
    return records, cands


def _as_set(v) -> frozenset:
    if v is None:
        return frozenset([None])
    return v if isinstance(v, frozenset) else frozenset([v])


def fold_settings(records: list[dict], candidates: dict, dimensions: Sequence[str]) -> list[tuple[dict, float]]:
    """Settings families: records (one setting per dimension and a ``value``) folded where they differ in one
    dimension only and give the same value (to 12 decimals), dimension by dimension.

    Parameters
    ----------
    records : list of dict
        Each maps every dimension to its choice (None: does not apply) and ``"value"`` to the number.
    candidates : dict
        Dimension -> every choice tried: a family holding all of them shows None ("does not matter here").
    dimensions : sequence of str
        The dimensions, in the order they are folded and shown.

    Returns
    -------
    list of (dict, float)
        Each family's settings (dimension -> tuple of choices in ``candidates`` order, or None) and value.

    Examples
    --------
    Both tie rules give 0.5 with gain a; gain b gives it under rule x only.  Folding the tie rules first
    makes gain a's family "any tie rule", and gain b's stays rule x:

    >>> recs = [{"ties": t, "gain": g, "value": 0.5} for t, g in (("x", "a"), ("y", "a"), ("x", "b"))]
    >>> fold_settings(recs, {"ties": ("x", "y"), "gain": ("a", "b")}, ["ties", "gain"])
    [({'ties': None, 'gain': ('a',)}, 0.5), ({'ties': ('x',), 'gain': ('b',)}, 0.5)]
    """
    dims = list(dimensions)
    singles: dict = {}  # one frozenset per choice, shared by every record

    def one(v):
        if isinstance(v, frozenset):
            return v
        found = singles.get(v)
        if found is None:
            found = singles[v] = frozenset([v])
        return found

    recs = [(tuple(one(r[d]) for d in dims), round(r["value"], 12), r["value"]) for r in records]
    for i in range(len(dims)):
        grouped: dict[tuple, list] = {}
        for sets, rounded, value in recs:
            key = sets[:i] + sets[i + 1:] + (rounded,)
            entry = grouped.get(key)
            if entry is None:
                grouped[key] = [set(sets[i]), sets, rounded, value]
            else:
                entry[0] |= sets[i]
        recs = [(sets[:i] + (frozenset(vals),) + sets[i + 1:], rounded, value)
                for vals, sets, rounded, value in grouped.values()]
    out = []
    for sets, _, value in recs:
        settings = dict(zip(dims, sets))
        shown = {}
        for d in dims:
            vals = settings[d] - {None}
            full = set(candidates[d])
            if None in settings[d] or vals >= full:
                shown[d] = None  # does not matter here
            else:
                shown[d] = tuple(c for c in candidates[d] if c in vals)
        out.append((shown, value))
    return out


def _merge(records: list[dict], cands: dict, hundred: Sequence[dict] = ()) -> list[Match]:
    """Fold records that differ in one dimension only (same value to 12 decimals) into one, dimension by
    dimension (:func:`fold_settings`).  A record's settings are a tuple of sets in ``DIMENSIONS``'s order, so
    the key of a fold is two slices of it (the app answers while the user types; this was most of a match's
    time).  ``hundred`` are the records that give the number ×100 without a % sign, folded apart."""
    out = [Match(shown, value) for shown, value in fold_settings(records, cands, list(DIMENSIONS))]
    if hundred:
        out += [Match(shown, value, True) for shown, value in fold_settings(list(hundred), cands, list(DIMENSIONS))]
    out.sort(key=lambda m: (m.settings["quantity"] == ("dcg",), _complexity(m)))
    return out


def _complexity(m: Match) -> int:
    return sum(1 for v in m.settings.values() if v is not None)


def _library_settings(lib) -> dict:
    return lib.convention.settings()


def _near_miss(lib, value: float, matches: list[Match], h: HandNumber) -> NearMiss:
    mine = _library_settings(lib)
    if mine["quantity"] in HIT_QUANTITIES:
        # another measure altogether (Spark's precisionAt, meanAveragePrecision): say what it is, not which
        # NDCG setting it "lacks"
        wanted = tuple(dict.fromkeys(q for m in matches for q in (m.settings["quantity"] or ("ndcg",))))
        return NearMiss(lib.key, value, "quantity", DIMENSIONS["quantity"].step, EXTRA_MISTAKES["measure"],
                        mine["quantity"], wanted or ("ndcg",), ("quantity",))
    best = None
    for m in matches:
        diff = [d for d in DIMENSIONS if m.settings[d] is not None and mine[d] not in m.settings[d]
                and not (d in ("idcg", "ideal_order", "zero_idcg") and m.settings["quantity"] == ("dcg",))]
        if best is None or len(diff) < len(best[0]):
            best = (diff, m)
    if best is not None and best[0]:
        diff, m = best
        if "quantity" in diff:  # plain DCG where an NDCG is needed (or the reverse): the measure first
            diff = ["quantity", *(d for d in diff if d != "quantity")]
        d = diff[0]
        dim = DIMENSIONS[d]
        return NearMiss(lib.key, value, d, dim.step, dim.mistake or EXTRA_MISTAKES.get(d, "arithmetic_slip"),
                        mine[d], m.settings[d], tuple(diff))
    # nothing matches (or only k differs): explain by rounding
    if math.isfinite(value) and math.isfinite(value * 10.0 ** h.scale):  # a DCG of 2^1023 has no digits to cut
        unit = 10.0 ** h.scale
        truncated = math.trunc(value * unit + math.copysign(1e-7, value)) / unit
        if abs(truncated - h.value) <= 1e-9 * max(1.0, abs(value)):
            return NearMiss(lib.key, value, None, "ndcg", "truncation")
        if (h.percent and _within(HandNumber(h.value * 100, h.decimals), value)) or (
                not h.percent and h.value > 1 and _within(HandNumber(h.value / 100, h.decimals + 2), value)):
            return NearMiss(lib.key, value, None, "ndcg", "percent_vs_fraction")
    return NearMiss(lib.key, value, None, "ndcg", "arithmetic_slip")


# ------------------------------------------------------------------------------------------------
# Explanations: common conventions, written the usual ways, before rarer exact matches
# ------------------------------------------------------------------------------------------------
def _decimal(x: float) -> Decimal:
    return Decimal(repr(float(x)))


def _step(p: int) -> Decimal:
    return Decimal(1).scaleb(-p)


#: Enough digits to quantize any float (up to 309 before the point) at any precision written here: the default
#: context's 28 digits raise InvalidOperation for a DCG of 2^74 (one grade 74 with the exponential gain).
_WIDE = Context(prec=400)


def _round_at(x: float, p: int) -> Decimal:
    return _decimal(x).quantize(_step(p), rounding=ROUND_HALF_UP, context=_WIDE)


def _cut_at(x: float, p: int) -> Decimal:
    """x with the digits after the p-th decimal dropped; a float a hair under a p-decimal number (its
    computation's last bit) counts as that number."""
    q = _step(p)
    d = _decimal(x)
    up = d.quantize(q, rounding=ROUND_UP if x >= 0 else ROUND_DOWN, context=_WIDE)
    if abs(float(up) - x) <= 1e-12 * max(1.0, abs(x)):
        return up
    return d.quantize(q, rounding=ROUND_DOWN, context=_WIDE)


def _typed(h: HandNumber) -> Decimal:
    """The typed number as a fraction with exactly its written decimals ("81.86%" -> 0.8186)."""
    return _decimal(h.value).quantize(_step(h.scale), rounding=ROUND_HALF_UP, context=_WIDE)


def _text(d: Decimal) -> str:
    return format(d, "f")


#: DCG and IDCG are tried rounded at 1 to this many decimals for the "ratio_of_rounded" writing.
RATIO_DECIMALS = 6


class Written(NamedTuple):
    """How an exact value became the typed number (:func:`written_as`).

    ``writing`` is a key of :data:`WRITINGS` (not "times_100": that is ``times_100``), ``decimals`` the
    decimals it used counted as the number is written (a percent, signed or not, counts its own: 78.2 has
    1), ``shown`` what it gives as a fraction (text), ``parts`` the rounded DCG and IDCG for
    "ratio_of_rounded", ``times_100`` whether the value was multiplied by 100 and written without a % sign.
    """

    writing: str
    decimals: int
    shown: str
    parts: tuple | None = None
    times_100: bool = False


def unsigned_percent(value) -> HandNumber | None:
    """The typed number read as an NDCG ×100 written without its % sign, or None when it cannot be one.

    Papers' tables print NDCG ×100 without a sign (81.84 for 0.8184).  An NDCG is at most 1, so a number
    above 1 and at most 100 written without a % sign may be one; it is then read exactly as if the sign
    were there (``"81.84"`` as ``"81.84%"``: the fraction 0.8184 with 4 decimals).  Only for an NDCG or a
    mean of NDCGs: a DCG is not bounded, so 81.84 may simply be a DCG.

    Parameters
    ----------
    value : str, Decimal, float, int or HandNumber
        The number as written (see :func:`read_value`).

    Returns
    -------
    HandNumber or None
        The percent reading (``percent`` True, ``text`` as typed, without a sign), or None for a number
        with a % sign, at most 1 or above 100.

    Raises
    ------
    ValueError
        If ``value`` is not a finite number.

    Examples
    --------
    >>> h = unsigned_percent("81.84")
    >>> h.value, h.decimals, h.scale, h.text
    (0.8184, 2, 4, '81.84')
    >>> unsigned_percent("81.84%") is None, unsigned_percent("0.8184") is None, unsigned_percent("130") is None
    (True, True, True)
    """
    h = value if isinstance(value, HandNumber) else read_value(value)
    if h.percent or not 1 < h.value <= 100:
        return None
    return HandNumber(h.value / 100, h.decimals, True, h.text)


def written_as(value, x: float, *, dcg: float | None = None, idcg: float | None = None,
               ndcg: bool = False) -> Written | None:
    """The first way of :data:`WRITINGS` that turns the exact value ``x`` into the typed ``value``.

    Parameters
    ----------
    value : str, Decimal, float, int or HandNumber
        The number as written (see :func:`read_value`).
    x : float
        An exact value (an NDCG, a DCG, a mean).
    dcg, idcg : float, optional
        The DCG and IDCG ``x`` is the ratio of: with both, "from rounded DCG and IDCG" is tried too, and
        ``x`` is an NDCG.
    ndcg : bool, default False
        ``x`` is an NDCG or a mean of NDCGs (at most 1): a number above 1 and at most 100 without a % sign
        is also tried as ``x`` ×100 (:func:`unsigned_percent`).

    Returns
    -------
    Written or None
        ``(writing, decimals, shown, parts, times_100)`` (see :class:`Written`); None when no way of writing
        gives the number.

    Raises
    ------
    ValueError
        If ``value`` is not a finite number.

    Examples
    --------
    Document 000's 0.91 is 0.91945 cut off, not rounded (that would be 0.92):

    >>> written_as("0.91", 0.91945)
    Written(writing='truncated', decimals=2, shown='0.91', parts=None, times_100=False)
    >>> written_as("0.9200", 0.91945)[:3], written_as("0.92", 0.91945)[:3]
    (('rounded_shorter', 2, '0.92'), ('rounded', 2, '0.92'))
    >>> written_as("0.5", 0.91945) is None
    True

    A paper's 78.2 for a mean NDCG of 0.782201: ×100 without the % sign, rounded at 1 decimal (as written):

    >>> written_as("78.2", 0.782201, ndcg=True)
    Written(writing='rounded', decimals=1, shown='0.782', parts=None, times_100=True)
    >>> written_as("78.2", 0.782201) is None  # not said to be an NDCG: 78.2 could only be the value itself
    True
    """
    h = value if isinstance(value, HandNumber) else read_value(value)
    both = dcg is not None and idcg is not None
    return _writing(h, float(x), "ndcg" if both or ndcg else "", dcg if both else math.nan,
                    idcg if both else math.nan)


def _writing(h: HandNumber, x: float, quantity: str, dcg: float, idcg: float) -> Written | None:
    """The first way of :data:`WRITINGS` that turns the exact value x into the typed number; for an NDCG
    (``quantity`` "ndcg") a number that may be a percent without its sign is tried ×100 too."""
    if not math.isfinite(x):
        return None
    found = _ways(h, x, quantity, dcg, idcg)
    if found is not None:
        return found
    scaled = unsigned_percent(h) if quantity == "ndcg" else None
    if scaled is None:
        return None
    found = _ways(scaled, x, quantity, dcg, idcg)
    return None if found is None else found._replace(times_100=True)


def _ways(h: HandNumber, x: float, quantity: str, dcg: float, idcg: float) -> Written | None:
    """The rounding ways of :data:`WRITINGS`, in order, at the typed scale (a percent's fraction has two more
    decimals than written: a percent is only rounded or cut at a whole percent or finer)."""
    typed = _typed(h)
    shift = h.scale - h.decimals  # 2 for a percent, signed or not
    if _within(h, x):
        return Written("rounded", h.decimals, _text(_round_at(x, h.scale)))
    for p in range(h.scale, shift - 1, -1):  # cut at the written decimals, or at fewer and padded with zeros
        if typed == typed.quantize(_step(p), context=_WIDE) and _cut_at(x, p) == typed:
            return Written("truncated", p - shift, _text(_cut_at(x, p)))
    for p in range(h.scale - 1, shift - 1, -1):
        if typed == typed.quantize(_step(p), context=_WIDE) and _round_at(x, p) == typed:
            return Written("rounded_shorter", p - shift, _text(_round_at(x, p)))
    if quantity == "ndcg" and math.isfinite(dcg) and math.isfinite(idcg):
        for p in range(1, RATIO_DECIMALS + 1):
            top, best = _round_at(dcg, p), _round_at(idcg, p)
            if best > 0 and _within(h, float(top / best)):
                return Written("ratio_of_rounded", p, _text(_round_at(float(top / best), h.scale)),
                               (_text(top), _text(best)))
    return None


def _contains(m: Match, settings: dict) -> bool:
    return all(m.settings[d] is None or settings[d] in m.settings[d] for d in DIMENSIONS)


def _explanations(h: HandNumber, rel, sc, names, judged, k, matches: list[Match]) -> list[Explanation]:
    out: list[Explanation] = []
    covered: list[dict] = []
    for key, common in COMMON_CONVENTIONS.items():
        conv = common.convention
        try:
            r = convention_value(conv, rel, scores=sc, docnos=names, pool=judged, k=k)
        except NotApplicable:
            continue
        for quantity, x in (("ndcg", r["value"]), ("dcg", r["dcg"])):
            covered.append({**conv.settings(), "quantity": quantity})
            found = _writing(h, x, quantity, r["dcg"], r["idcg"])
            if found is None:
                continue
            writing, p, shown, parts, times_100 = found
            same = next((e for i, e in enumerate(out) if e.quantity == quantity and e.writing == writing
                         and e.decimals == p and e.parts == parts and e.times_100 == times_100
                         and abs(e.value - x) <= 1e-12 * max(1.0, abs(x))), None)
            if same is not None:  # another common convention with the same number here: one story, both named
                out[out.index(same)] = replace(same, conventions=same.conventions + (key,))
                continue
            scale = h.scale + 2 if times_100 else h.scale
            out.append(Explanation((key,), quantity, writing, p, x, shown,
                                   _text(_round_at(x, scale)) if math.isfinite(x) else "", None, parts, times_100))
    for m in matches:  # the rarer exact matches: families that hold no common convention
        if any(_contains(m, c) for c in covered):
            continue
        quantity = (m.settings["quantity"] or ("ndcg",))[0]
        scale = h.scale + 2 if m.times_100 else h.scale
        shown = _text(_round_at(m.value, scale))
        out.append(Explanation((), quantity, "rounded", h.decimals, m.value, shown, shown, m.settings, None,
                               m.times_100))
    return out


def _inputs(relevances, scores, docnos, pool, k):
    rel = as_grades(relevances)
    k = check_k(k)
    sc = None if scores is None else as_scores(scores, n=rel.size)
    names = None
    if docnos is not None:
        names = [str(x) for x in docnos]
        if len(names) != rel.size:
            raise ValueError(f"docnos has {len(names)} values but relevances has {rel.size}")
    elif sc is not None:
        names = [f"D{i}" for i in range(1, rel.size + 1)]
    judged = None
    if pool is not None:
        judged = as_grades(pool, name="pool")
        from collections import Counter

        have, need = Counter(judged[judged > 0].tolist()), Counter(rel[rel > 0].tolist())
        for grade, count in sorted(need.items()):
            if have[grade] < count:
                raise ValueError(f"pool has {have[grade]} item(s) of grade {grade:g} but relevances has {count}; "
                                 "the pool must hold the grades of every judged item, the list's own included")
    return rel, sc, names, judged, k


def _libraries(h, rel, sc, names, judged, k, gain_map):
    scaled = unsigned_percent(h)
    found, values, skipped = [], {}, {}
    for lib in LIBRARIES.values():
        try:
            r = convention_value(lib.convention, rel, scores=sc, docnos=names,
                                 pool=None if judged is None else judged, k=k, gain_map=gain_map)
        except NotApplicable as exc:
            skipped[lib.key] = exc.reason
            continue
        values[lib.key] = r
        if _within(h, r["value"]):
            found.append(LibraryMatch(lib.key, r["value"], r["k"]))
        elif scaled is not None and lib.convention.quantity == "ndcg" and _within(scaled, r["value"]):
            found.append(LibraryMatch(lib.key, r["value"], r["k"], times_100=True))
    return found, values, skipped


def match_number(value, relevances, *, scores=None, docnos=None, pool=None, k=None, gain_map=None) -> MatchResult:
    """Every library and convention whose exact number rounds to ``value`` at its written precision.

    Parameters
    ----------
    value : str, Decimal, float or int
        The number somebody got, as written (see the module docstring for how the precision is read).
    relevances : sequence of float >= 0
        Grades in ranked order, or in any order with ``scores``.
    scores : sequence of float, optional
        The system's scores: ties are then ordered by every tie rule (:data:`metrics.registry.TIES`).
    docnos : sequence of str, optional
        Document ids (trec_eval and gdeval break ties by docno); default ``D1``, ``D2``, ...
    pool : sequence of float >= 0, optional
        Grades of every judged item, the list's own included, in the order given (Spark's ground truth).
    k : int >= 1, optional
        The cutoff that was used.
    gain_map : dict, optional
        A gain map grade -> gain (trec_eval ``-m ndcg.L=G``, LightGBM ``label_gain``) to try as a fourth gain.

    Returns
    -------
    MatchResult
        ``libraries`` (named library matches), ``matches`` (merged setting families), ``near_misses``.

    Raises
    ------
    ValueError
        If ``value`` is not a finite number, or the grades, scores, docnos, pool or ``k`` are invalid
        (as for :func:`metrics.ndcg.ndcg_from_scores`).

    See Also
    --------
    match_number_naive : the same search, one combination at a time.
    metrics.lessons.libraries.evaluate_libraries : the forward question (what each library returns).

    Examples
    --------
    3, 2, 3, 0, 1, 2 with 2^rel - 1 gains: DCG = 7 + 3/log2(3) + 7/2 + 0 + 1/log2(6) + 3/log2(7)
    = 7 + 1.8928 + 3.5 + 0.3869 + 1.0686 = 13.8483, IDCG (3, 3, 2, 2, 1, 0) = 7 + 4.4165 + 1.5
    + 1.2920 + 0.3869 = 14.5954, NDCG = 0.9488 (ranx's ndcg_burges, TF-Ranking); linear gives
    6.8611 / 7.1410 = 0.9608 (scikit-learn):

    >>> r = match_number("0.9608", [3, 2, 3, 0, 1, 2])
    >>> "sklearn" in r.library_keys, "ranx_ndcg_burges" in r.library_keys
    (True, False)
    >>> r.near_miss("ranx_ndcg_burges").dimension
    'gain'
    """
    h = read_value(value)
    rel, sc, names, judged, k = _inputs(relevances, scores, docnos, pool, k)
    scaled = unsigned_percent(h)
    with np.errstate(over="ignore", invalid="ignore"):  # gains beyond float64 give inf/nan: never a match
        records, cands = _engine(h, rel, sc, names, judged, k, gain_map)
        # a number that may be a percent without its sign: the NDCGs ×100 too (a DCG is not bounded by 1)
        hundred = [] if scaled is None else [r for r in _engine(scaled, rel, sc, names, judged, k, gain_map)[0]
                                             if r["quantity"] == "ndcg"]
    matches = _merge(records, cands, hundred)
    found, values, skipped = _libraries(h, rel, sc, names, judged, k, gain_map)
    hit = {m.key for m in found}
    near = [_near_miss(LIBRARIES[key], r["value"], matches, h) for key, r in values.items() if key not in hit]
    near.sort(key=lambda m: abs(m.value - h.value) if math.isfinite(m.value) else math.inf)
    with np.errstate(over="ignore", invalid="ignore"):
        explanations = _explanations(h, rel, sc, names, judged, k, matches)
    return MatchResult(h, matches, found, near, skipped, cands, explanations)


def match_number_naive(value, relevances, *, scores=None, docnos=None, pool=None, k=None, gain_map=None) -> list[dict]:
    """The reference: every combination evaluated one by one with :func:`convention_value`.

    Returns the matching settings as dicts (one per combination, unmerged), for tests and the
    benchmark; :func:`match_number` must find the same ones.

    Parameters
    ----------
    value, relevances, scores, docnos, pool, k, gain_map
        As for :func:`match_number`.

    Returns
    -------
    list of dict
        One dict per matching combination: every key of
        :data:`~metrics.lessons.libraries.DIMENSIONS`, ``value`` (the exact number) and ``times_100``
        (the number is that NDCG ×100 without its % sign, :func:`unsigned_percent`).
        Combinations the convention refuses (:class:`~metrics.lessons.libraries.NotApplicable`)
        are skipped.

    Raises
    ------
    ValueError
        As for :func:`match_number`.

    Examples
    --------
    Scikit-learn's 0.9608 for 3, 2, 3, 0, 1, 2 (6.8611 / 7.1410) needs linear gain and the
    standard discount, but any log base gives it: log_b(x) = log2(x) / log2(b), so every term of
    DCG and of IDCG is multiplied by the same log2(b) and the ratio does not change:

    >>> found = match_number_naive("0.9608", [3, 2, 3, 0, 1, 2])
    >>> sorted({(m["gain"], m["discount"]) for m in found})
    [('linear', 'standard')]
    >>> sorted({round(m["log_base"], 3) for m in found})
    [2.0, 2.718, 10.0]
    """
    h = read_value(value)
    scaled = unsigned_percent(h)
    rel, sc, names, judged, k = _inputs(relevances, scores, docnos, pool, k)
    cands = _candidates(rel, sc, judged, k, gain_map)
    out = []
    dims = list(DIMENSIONS)
    for combo in product(*(cands[d] for d in dims)):
        settings = dict(zip(dims, combo))
        conv = Convention.of(settings, gain_map=gain_map)
        try:
            r = convention_value(conv, rel, scores=sc, docnos=names, pool=judged, k=k, gain_map=gain_map)
        except NotApplicable:
            continue
        if _within(h, r["value"]):
            out.append({**settings, "value": r["value"], "times_100": False})
        elif scaled is not None and settings["quantity"] == "ndcg" and _within(scaled, r["value"]):
            out.append({**settings, "value": r["value"], "times_100": True})
    return out
