"""Which library computes which NDCG: their conventions as data, evaluated by :mod:`metrics.ndcg`.

A :class:`Convention` is every choice that changes the number: how grades are read (as
given, truncated to integers, integers only), how tied scores are ordered (and whether
scores are float32), the gain, the discount and its log base, what the cutoff ``k`` cuts
(DCG and IDCG, only the run, the ideal at the number of hits, nothing), where the ideal
ranking comes from and in which order, what a list with IDCG = 0 scores, and whether the
number is NDCG or plain DCG.  Each :class:`Library` is a named convention with the call
that produces it and the source file, function and version it was read from
(:attr:`Library.source`).  :func:`convention_value` computes any convention using only
:mod:`metrics.ndcg`; :func:`evaluate_libraries` gives one row per library.  None of these
libraries is a runtime dependency; ``tests/metrics/lessons/test_libraries.py`` cross-checks
the ones installable here (scikit-learn, pytrec_eval, ranx, LightGBM, XGBoost).

>>> t = evaluate_libraries([3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6).set_index("key")
>>> round(float(t.loc["sklearn", "ndcg"]), 4), round(float(t.loc["trec_eval_ndcg_cut", "ndcg"]), 4)
(0.9608, 0.8184)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations, product

import numpy as np
import pandas as pd

from .._validation import as_grades, as_scores, check_choice, check_k
from ..ndcg import dcg, dcg_from_scores, idcg, ndcg, ndcg_from_scores, rank_by_scores, ratio  # noqa: F401 (doctests)
from ..registry import DISCOUNTS, GAINS, IDCG_SOURCES, TIES, ZERO_IDCG, Choice, dcg_latex
from ..variant import Variant

__all__ = [
    "Library",
    "LIBRARIES",
    "FLOAT32_MAX",
    "as_float32_scores",
    "VARIANTS",
    "Convention",
    "CommonConvention",
    "COMMON_CONVENTIONS",
    "Dimension",
    "dimension",
    "DIMENSIONS",
    "CUTOFFS",
    "TEXTBOOK",
    "VARIANT_DIMENSIONS",
    "IDEAL_ORDERS",
    "GRADE_READINGS",
    "SCORE_TYPES",
    "QUANTITIES",
    "HIT_QUANTITIES",
    "LOG_BASES",
    "NotApplicable",
    "convention_value",
    "library_pool",
    "evaluate_library",
    "evaluate_libraries",
    "zero_idcg_means",
    "tie_spread",
    "compare_rankings",
    "find_flip",
    "coincidences",
]



# --------------------------------------------------------------------------- convention dimensions
CUTOFFS: dict[str, Choice] = {e.key: e for e in (
    Choice("both", "k cuts DCG and IDCG", "Both the run and the ideal ranking stop at k (ndcg@k, ndcg_cut.k)."),
    Choice("run", "k cuts the run only",
          "Only the first k results count, but the ideal ranking is not cut (trec_eval -M k with ndcg)."),
    Choice("hits", "ideal cut at the number of hits",
          "The run stops at k; the ideal stops at the number of results returned, min(k, list length) "
          "(Elasticsearch _rank_eval)."),
    Choice("none", "no cutoff", "The whole list and the whole ideal ranking count (trec_eval ndcg)."),
)}
IDEAL_ORDERS: dict[str, Choice] = {e.key: e for e in (
    Choice("gain", "ideal sorted by gain", "The ideal ranking puts the highest gain first (trec_eval)."),
    Choice("grade", "ideal sorted by grade",
          "The ideal ranking puts the highest grade first, whatever its gain (LightGBM with a label_gain "
          "that is not increasing)."),
    Choice("given", "ground truth in given order",
           "The relevant items in the order they were given, not sorted (Spark's ndcgAt walks its labels "
           "array): every judged item's (the pool in its order, else the list), or the list's own."),
)}
GRADE_READINGS: dict[str, Choice] = {e.key: e for e in (
    Choice("as_is", "grades as given", "Fractional grades are used as they are."),
    Choice("truncate", "grades truncated to integers",
          "The grade is read as a whole number, cutting the fraction (trec_eval reads qrels with atol: "
          "2.5 -> 2)."),
    Choice("integer", "integer grades only", "Fractional grades are rejected with an error."),
    Choice("at_least_1", "grades below 1 count 0",
          "Judgments under the relevance level 1 are dropped (ranx's rel_lvl=1): 0.5 counts as 0."),
)}
SCORE_TYPES: dict[str, Choice] = {e.key: e for e in (
    Choice("float64", "scores as float64", "Scores are compared as given (double precision)."),
    Choice("float32", "scores as float32",
          "Scores are stored as float32 first, so scores closer than about 1e-7 relative tie (XGBoost)."),
)}
QUANTITIES: dict[str, Choice] = {e.key: e for e in (
    Choice("ndcg", "NDCG", "DCG divided by the ideal DCG."),
    Choice("dcg", "DCG (not normalised)",
          "Plain DCG, not divided by anything (Elasticsearch dcg with normalize: false, its default)."),
    Choice("precision", "precision at k",
          "Relevant items among the first k, divided by k (Spark's precisionAt: by k even when the list is "
          "shorter or fewer items are relevant)."),
    Choice("recall", "recall at k",
          "Relevant items among the first k, divided by the number of relevant items (Spark's recallAt)."),
    Choice("average_precision", "average precision",
          "The precision at each relevant item's position among the first k, summed, divided by the number of "
          "relevant items, at most k (Spark's meanAveragePrecisionAt; without k, meanAveragePrecision)."),
)}
#: Quantities computed from binary hits (grade > 0) rather than from gains and discounts.
HIT_QUANTITIES = ("precision", "recall", "average_precision")
LOG_BASES = (2.0, math.e, 10.0)


@dataclass(frozen=True)
class Dimension(Choice):
    """One setting of a :class:`Convention`: a :class:`~metrics.registry.Choice` with the values it takes
    (``choices``), the step of the calculation it changes (``step``, a key of
    :data:`metrics.lessons.diagnose.STEPS`) and the diagnose mistake kind it corresponds to (``mistake``)."""

    choices: tuple = ()
    step: str = ""
    mistake: str = ""


@dataclass(frozen=True)
class CommonConvention(Choice):
    """One of :data:`COMMON_CONVENTIONS`: a :class:`~metrics.registry.Choice` whose ``help`` is the reason for
    its place in the order, with its :class:`Convention`."""

    convention: Convention | None = None


def dimension(key: str, name: str, help: str, choices: tuple, step: str, mistake: str) -> Dimension:
    """One setting of a :class:`Convention` as a :class:`Dimension`: its ``choices``, the step of the
    calculation it changes (a key of :data:`metrics.lessons.diagnose.STEPS`) and the diagnose mistake kind it
    corresponds to (read as ``DIMENSIONS[key].step`` and ``.mistake``).

    Parameters
    ----------
    key, name, help : str
        As for any :class:`~metrics.registry.Choice`.
    choices : tuple
        The values the setting takes.
    step : str
        The step of the calculation it changes.
    mistake : str
        The diagnose mistake kind it corresponds to ("" for none).

    Returns
    -------
    Dimension

    Examples
    --------
    >>> DIMENSIONS["discount"].step, DIMENSIONS["discount"].mistake, DIMENSIONS["discount"].choices
    ('term', 'log_offset', ('standard', 'jarvelin'))
    """
    return Dimension(key, name, help, choices=tuple(choices), step=step, mistake=mistake)


DIMENSIONS: dict[str, Dimension] = {d.key: d for d in (
    dimension("grades", "Grades", "How grades are read.", tuple(GRADE_READINGS), "term", ""),
    dimension("ties", "Tie rule", "How tied scores are ordered.", tuple(TIES), "term", ""),
    dimension("scores_as", "Score precision", "The precision scores are compared in.", tuple(SCORE_TYPES),
              "term", ""),
    dimension("gain", "Gain", "Grade -> gain.", ("linear", "exponential", "binary", "map"), "term", "wrong_gain"),
    dimension("discount", "Discount", "Position -> divisor.", tuple(DISCOUNTS), "term", "log_offset"),
    dimension("log_base", "Log base", "The logarithm's base.", LOG_BASES, "term", "wrong_log_base"),
    dimension("cutoff", "Cutoff", "What k cuts.", tuple(CUTOFFS), "dcg", "k_one_side"),
    dimension("idcg", "IDCG from", "The items of the ideal ranking.", tuple(IDCG_SOURCES), "ideal_term",
              "ideal_source"),
    dimension("ideal_order", "Ideal order", "How the ideal ranking is sorted.", tuple(IDEAL_ORDERS),
              "ideal_term", "ideal_order"),
    dimension("zero_idcg", "IDCG = 0", "What a list with no relevant item scores.", tuple(ZERO_IDCG), "ndcg", ""),
    dimension("quantity", "Number", "NDCG or plain DCG.", tuple(QUANTITIES), "ndcg", ""),
)}


#: The variant of the textbook formula, a convention's starting point: linear gain, log2(i + 1), IDCG from the
#: list itself, the list taken in the order given (ties kept in input order).
TEXTBOOK = Variant(idcg="list", ties="stable")
#: The settings of a :class:`Convention` that are its :class:`~metrics.variant.Variant`'s (:data:`DIMENSIONS`
#: keys, each the Variant's field of that name).
VARIANT_DIMENSIONS = ("gain", "discount", "log_base", "idcg", "ties", "zero_idcg")


@dataclass(frozen=True)
class Convention:
    """Every choice that changes a library's NDCG number: a :class:`metrics.variant.Variant` and what is the
    convention's own (see :data:`DIMENSIONS` for the choices of each setting).

    ``variant`` holds the gain (a gain map with ``gain="map"``), discount, log base, IDCG source, tie rule and
    zero-IDCG policy, and no cutoff or level: the cutoff is the call's ``k`` or ``default_k``, cut as ``cutoff``
    says, and grades are read as ``grades`` says.  Its own: ``cutoff`` (what k cuts), ``ideal_order`` (the
    ideal ranking sorted by gain, by grade, or the judged items in the order given), ``scores_as``, ``grades``,
    ``quantity`` (NDCG, plain DCG or a hit measure), ``max_grade`` (the largest grade the library accepts),
    ``default_k`` (the cutoff it uses when none is given: XGBoost's ``ndcg`` is ``ndcg@32``, gdeval's is 20,
    Elasticsearch's ``k`` is 10) and ``min_items`` (the shortest list it accepts; scikit-learn: 2).

    >>> c = Convention(TEXTBOOK.with_(gain="exponential", idcg="judged"), cutoff="hits", default_k=10)
    >>> c.variant.gain, c.cutoff, c.settings()["idcg"]
    ('exponential', 'hits', 'judged')
    >>> Convention(Variant(k=10))
    Traceback (most recent call last):
    ...
    ValueError: variant has k=10; a convention's cutoff is the call's k or its default_k (default_k=10)
    """

    variant: Variant = TEXTBOOK
    cutoff: str = "both"
    ideal_order: str = "gain"
    scores_as: str = "float64"
    grades: str = "as_is"
    quantity: str = "ndcg"
    max_grade: float | None = None
    default_k: int | None = None
    min_items: int = 1

    def __post_init__(self):
        if not isinstance(self.variant, Variant):
            raise ValueError(f"variant must be a metrics.variant.Variant, got {type(self.variant).__name__}")
        if self.variant.k is not None:
            raise ValueError(f"variant has k={self.variant.k}; a convention's cutoff is the call's k or its "
                             f"default_k (default_k={self.variant.k})")
        if self.variant.level is not None:
            raise ValueError(f"variant has level={self.variant.level:g}; a convention reads grades as its grades "
                             "setting says (grades='at_least_1' for level 1)")
        for name, choices in (("cutoff", CUTOFFS), ("ideal_order", IDEAL_ORDERS), ("scores_as", SCORE_TYPES),
                              ("grades", GRADE_READINGS), ("quantity", QUANTITIES)):
            check_choice(getattr(self, name), choices, name=name)

    @classmethod
    def of(cls, settings: dict, *, gain_map=None, **limits) -> Convention:
        """The convention of one setting per :data:`DIMENSIONS` key (what :meth:`settings` gives, what the match
        search tries), the gain map for ``gain="map"``; ``limits`` are ``max_grade``, ``default_k``, ``min_items``.

        >>> c = Convention.of({**Convention().settings(), "gain": "map"}, gain_map={1: 1, 2: 3})
        >>> c.variant.format()
        'nDCG(gain=map(1=1;2=3),discount=standard,idcg=list,ties=stable)'
        >>> Convention.of({"gain": "exponential", "ideal_order": "given"}).settings()["idcg"]
        'list'
        """
        unknown = sorted(set(settings) - set(DIMENSIONS))
        if unknown:
            raise ValueError(f"settings has unknown setting(s) {unknown}; the settings are {', '.join(DIMENSIONS)}")
        picked = {d: settings[d] for d in VARIANT_DIMENSIONS if d in settings}
        if picked.get("gain") == "map":
            picked["gain_map"] = gain_map
        variant = TEXTBOOK.with_(**picked)
        return cls(variant, **{d: settings[d] for d in DIMENSIONS if d not in VARIANT_DIMENSIONS and d in settings},
                   **limits)

    def settings(self) -> dict:
        """One choice per :data:`DIMENSIONS` key (the variant's and the convention's own; no limits)."""
        return {name: getattr(self.variant if name in VARIANT_DIMENSIONS else self, name) for name in DIMENSIONS}

    def as_variant(self) -> Variant | None:
        """The :class:`metrics.variant.Variant` this convention computes, when it is no more than one: NDCG of
        the grades as given (or below 1 counted 0: ``level=1``), k cutting DCG and IDCG (or nothing), the ideal
        sorted by gain; its ``k`` is the convention's ``default_k``.  None for a convention outside the variants
        (plain DCG or a hit measure, grades truncated or integers only, a gain map, Spark's ideal in the order
        given, an ideal sorted by grade, a cutoff on one side only).

        >>> LIBRARIES["sklearn"].convention.as_variant()
        Variant(idcg='list', ties='average')
        >>> print(LIBRARIES["spark_graded"].convention.as_variant())
        None
        """
        if (self.quantity != "ndcg" or self.grades not in ("as_is", "at_least_1") or self.variant.gain == "map"
                or self.ideal_order != "gain" or self.cutoff not in ("both", "none")):
            return None
        return self.variant.with_(k=None if self.cutoff == "none" else self.default_k,
                                  level=1.0 if self.grades == "at_least_1" else None)


def _common(key: str, name: str, reason: str, convention: Convention) -> CommonConvention:
    return CommonConvention(key, name, reason, convention=convention)


#: The conventions people most often use, MOST LIKELY FIRST: the order in which "Which convention gives
#: my number?" explains a number (a convention's value rounded, cut off or rounded at fewer decimals comes
#: before any rarer combination that happens to give it exactly).  ``help`` is the reason for the place in
#: the order: where the convention is taught or which tools compute it by default.  ``.convention`` is
#: the :class:`Convention` (no scores: the list is taken in the order given).
COMMON_CONVENTIONS: dict[str, CommonConvention] = {c.key: c for c in (
    _common("textbook", "rel / log₂(i + 1), IDCG from the list",
            "The first formula of Wikipedia's NDCG article, of most course notes and blog posts, and scikit-learn's "
            "ndcg_score: what a hand calculation or a notebook most often uses.",
            Convention()),
    _common("exponential", "(2^rel − 1) / log₂(i + 1), IDCG from the list",
            "Burges et al.'s form (2005), the second formula most posts show, and the default of the "
            "learning-to-rank libraries (LightGBM, XGBoost, TF-Ranking).",
            Convention(TEXTBOOK.with_(gain="exponential"))),
    _common("trec_eval", "rel / log₂(i + 1), IDCG from every judged item",
            "trec_eval's ndcg_cut (pytrec_eval, ir_measures, ranx): the number in IR papers and leaderboards. It "
            "differs from the textbook form only when judged items are missing from the list.",
            Convention(TEXTBOOK.with_(idcg="judged"))),
    _common("exponential_judged", "(2^rel − 1) / log₂(i + 1), IDCG from every judged item",
            "ranx's ndcg_burges, gdeval (TREC Web track), Elasticsearch's normalised dcg and Microsoft "
            "Recommenders' exp score: the exponential form with the judged items' ideal ranking.",
            Convention(TEXTBOOK.with_(gain="exponential", idcg="judged"))),
    _common("jarvelin", "rel / max(1, log₂ i), Järvelin–Kekäläinen discount",
            "The original paper's discount (Järvelin & Kekäläinen 2002), still in older textbooks and lecture "
            "notes; document 000 calls it DCG's first way.",
            Convention(TEXTBOOK.with_(discount="jarvelin"))),
    _common("binary", "hit / log₂(i + 1), IDCG from every relevant item",
            "Hit-or-miss NDCG of recommender systems (Spark's ndcgAt, Microsoft Recommenders, RecBole): every "
            "relevant item gains 1.",
            Convention(TEXTBOOK.with_(gain="binary", idcg="judged"))),
    _common("binary_list", "hit / log₂(i + 1), IDCG from the list",
            "Hit-or-miss NDCG with the list's own ideal ranking: binary relevance fed to scikit-learn's "
            "ndcg_score or to the textbook formula.",
            Convention(TEXTBOOK.with_(gain="binary"))),
)}


class NotApplicable(ValueError):
    """The convention cannot evaluate this input (the library would raise): ``reason`` says why."""

    def __init__(self, message: str, *, reason: str):
        super().__init__(message)
        self.reason = reason


FLOAT32_MAX = float(np.finfo(np.float32).max)


def as_float32_scores(scores) -> np.ndarray:
    """``scores`` as a library that stores them as float32 sees them (back in float64).

    Scores that differ below float32's precision become equal (they tie); a finite score beyond
    float32's range (about ±3.4e38) would become infinite in the cast, which no such library can
    rank by: the convention cannot represent the input.

    Parameters
    ----------
    scores : sequence of float
        Finite scores (float64), in input order.

    Returns
    -------
    numpy.ndarray of float64
        Each score rounded to the nearest float32.

    Raises
    ------
    NotApplicable
        (reason "float32_range") naming the first score beyond float32's range and its position.

    Examples
    --------
    >>> as_float32_scores([0.1, 1 + 1e-9]).tolist() == [float(np.float32(0.1)), 1.0]
    True
    >>> try:
    ...     as_float32_scores([2.0, -1e308])
    ... except NotApplicable as exc:
    ...     print(exc.reason, "-", exc)
    float32_range - score at position 2 is -1e+308; float32 holds numbers up to about 3.4028235e+38 in \
magnitude, so a library that stores scores as float32 cannot represent it
    """
    scores = np.asarray(scores, dtype=np.float64)
    with np.errstate(over="ignore"):
        cast = scores.astype(np.float32)
    beyond = np.flatnonzero(~np.isfinite(cast) & np.isfinite(scores))
    if beyond.size:
        i = int(beyond[0])
        raise NotApplicable(f"score at position {i + 1} is {scores[i]:g}; float32 holds numbers up to about "
                            f"{FLOAT32_MAX:.8g} in magnitude, so a library that stores scores as float32 "
                            "cannot represent it", reason="float32_range")
    return cast.astype(np.float64)


def _read_grades(values: np.ndarray, how: str, name: str) -> np.ndarray:
    if how == "truncate":
        return np.trunc(values)
    if how == "at_least_1":
        return np.where(values < 1, 0.0, values)
    if how == "integer" and np.any(values != np.trunc(values)):
        i = int(np.flatnonzero(values != np.trunc(values))[0])
        raise NotApplicable(f"{name} at position {i + 1} is {values[i]:g}; this convention takes integer grades only",
                            reason="fractional")
    return values


def convention_value(convention: Convention, relevances, *, scores=None, docnos=None, pool=None, k=None,
                     gain_map=None) -> dict:
    """DCG, IDCG and the number (NDCG or DCG) under ``convention`` for one list.

    ``relevances`` are grades in ranked order (or any order, with ``scores``); ``pool`` holds the
    grades of every judged item, the list's own included, in the order given (Spark's ground truth);
    ``gain_map`` is used when ``convention.variant.gain == "map"`` (replacing its map).  Raises
    :class:`NotApplicable` (a ValueError) when the library would refuse the input (fractional grades, a grade above its
    maximum, a single document for scikit-learn).

    Parameters
    ----------
    convention : Convention
        Every choice that changes the number (see :data:`DIMENSIONS`).
    relevances : sequence of float >= 0
        Grades, in ranked order unless ``scores`` are given.
    scores : sequence of float, optional
        One score per item; the list is ranked by descending score with ``convention.variant.ties``.
    docnos : sequence of str, optional
        Document ids for trec_eval's tie order.  Default: ``D1``, ``D2``, ...
    pool : sequence of float >= 0, optional
        Every judged item's grade, the list's own included, in the order given.  Default ``None``:
        the list only.
    k : int >= 1, optional
        The cutoff; what it cuts is ``convention.cutoff``.  Default ``None``: the convention's
        ``default_k`` (often none).
    gain_map : mapping or Gain, optional
        Grade -> gain, used when ``convention.variant.gain == "map"``.

    Returns
    -------
    dict
        ``dcg``, ``idcg``, ``value`` (NDCG, or DCG when ``convention.quantity == "dcg"``), ``k`` (the
        run's cutoff) and ``ideal_k`` (the ideal's cutoff).

    Raises
    ------
    NotApplicable
        (a ValueError) when the library would refuse the input; ``reason`` is "too_few",
        "fractional", "too_large", "no_map", "float32_range" (a convention that stores scores as
        float32 given a finite score beyond float32's range, which its cast would make infinite) or
        "float64_range" (a gain, a discounted gain or a sum beyond float64's range, e.g. 2^rel - 1
        for a grade of 1100).
    ValueError
        For invalid grades, scores or ``k`` (as :func:`metrics.ndcg.ndcg`).

    Examples
    --------
    The default convention is scikit-learn's on a ranked list: DCG 6.8611 / IDCG 7.1410 = 0.9608
    (see :func:`metrics.ndcg.ndcg`):

    >>> round(convention_value(Convention(), [3, 2, 3, 0, 1, 2])["value"], 4)
    0.9608

    Elasticsearch's default (normalize off): plain DCG with 2^rel - 1, 7 + 3/log2(3) + 7/2 = 12.39:

    >>> es = Convention(TEXTBOOK.with_(gain="exponential", idcg="judged"), cutoff="hits", quantity="dcg", default_k=10)
    >>> round(convention_value(es, [3, 2, 3])["value"], 4)
    12.3928

    Spark's precisionAt(5) of 3, 0, 1 divides its 2 hits by 5, not by the 3 items returned:

    >>> convention_value(Convention(TEXTBOOK, quantity="precision"), [3, 0, 1], k=5)["value"]
    0.4
    """
    c = convention
    k = check_k(k)
    rel = as_grades(relevances)
    judged = rel if pool is None else as_grades(pool, name="pool")
    if rel.size < c.min_items:
        raise NotApplicable(f"only meaningful when there is more than {c.min_items - 1} document; got {rel.size}",
                            reason="too_few")
    rel = _read_grades(rel, c.grades, "relevances")
    judged = _read_grades(judged, c.grades, "pool")
    if c.max_grade is not None and (rel.max(initial=0) > c.max_grade or judged.max(initial=0) > c.max_grade):
        raise NotApplicable(f"a grade above {c.max_grade:g}, the largest this convention accepts",
                            reason="too_large")
    if c.quantity in HIT_QUANTITIES:
        return _hit_value(c, rel, judged, scores, docnos, k)
    v = c.variant
    g = gain_map if v.gain == "map" and gain_map else v.metric_gain  # a dict or a Gain: metrics.ndcg resolves it
    kk = k if k is not None else c.default_k
    n = rel.size
    run_k = None if c.cutoff == "none" else kk
    ideal_k = {"both": kk, "run": None, "hits": None if kk is None else min(kk, n), "none": None}[c.cutoff]
    opts = {"gain": g, "discount": v.discount, "log_base": v.log_base}
    sc = names = None
    if scores is not None:
        sc = as_scores(scores, n=n)
        if c.scores_as == "float32":
            sc = as_float32_scores(sc)
        names = list(docnos) if docnos is not None else [f"D{i}" for i in range(1, n + 1)]
    try:
        top, best = _dcg_and_ideal(c, rel, judged, pool, sc, names, run_k, ideal_k, opts)
    except ValueError as exc:
        # The inputs are valid (checked above); metrics.ndcg refuses only a gain or a sum beyond float64
        # ("... overflows float64 ...": exponential gains of grades above ~1023, sums above ~1.8e308).
        if "overflows float64" not in str(exc):
            raise
        raise NotApplicable(str(exc), reason="float64_range") from None
    value = top if c.quantity == "dcg" else ratio(top, best, zero_idcg=v.zero_idcg)
    return {"dcg": top, "idcg": best, "value": value, "k": run_k, "ideal_k": ideal_k}


def _dcg_and_ideal(c: Convention, rel, judged, pool, sc, names, run_k, ideal_k, opts) -> tuple[float, float]:
    if sc is None:
        top = dcg(rel, k=run_k, **opts)
    else:
        top = dcg_from_scores(rel, sc, k=run_k, ties=c.variant.ties, docnos=names, **opts)
    pool_arg = judged if (pool is not None or c.grades != "as_is") else None
    if c.variant.idcg == "list":
        ideal_pool = None
    else:
        ideal_pool = pool_arg if pool is not None else None
    if c.ideal_order == "given":
        items = rel if c.variant.idcg == "list" else judged
        given = items[items > 0]
        best = dcg(given, k=ideal_k, **opts) if given.size else 0.0
    elif c.ideal_order == "grade":
        source = rel if ideal_pool is None else ideal_pool
        best = dcg(np.sort(source)[::-1].copy(), k=ideal_k, **opts)
    else:
        best = idcg(rel, k=ideal_k, pool=ideal_pool, **opts)
    return top, best


def _hit_value(c: Convention, rel: np.ndarray, judged: np.ndarray, scores, docnos, k) -> dict:
    """Precision, recall or average precision of binary hits (grade > 0), as Spark's RankingMetrics forms them:
    the labels are the judged items of grade > 0; one addition at a time, in rank order."""
    n = rel.size
    if scores is None:
        ranked = rel
    else:
        if c.variant.ties == "average":
            raise NotApplicable("the tie average is defined here for DCG only; choose a tie order", reason="ties")
        sc = as_scores(scores, n=n)
        if c.scores_as == "float32":
            sc = sc.astype(np.float32).astype(np.float64)
        names = list(docnos) if docnos is not None else [f"D{i}" for i in range(1, n + 1)]
        ranked = rel[rank_by_scores(rel, sc, ties=c.variant.ties, docnos=names)]
    hits = (ranked > 0).tolist()
    labels = int(np.count_nonzero(judged > 0))
    kk = k if k is not None else c.default_k
    if c.cutoff == "none" or kk is None:
        kk = max(n, labels) if c.quantity == "average_precision" else n  # meanAveragePrecision; the whole list
    if labels == 0:  # Spark: "Empty ground truth set", 0.0 with a logged warning
        return {"dcg": 0.0, "idcg": 0.0, "value": ZERO_IDCG[c.variant.zero_idcg].value, "k": kk, "ideal_k": None}
    top = hits[:min(kk, n)]
    if c.quantity == "average_precision":
        count, total = 0, 0.0
        for i, hit in enumerate(top):
            if hit:
                count += 1
                total += count / (i + 1)
        num, den = total, min(labels, kk)
    else:
        num, den = float(sum(top)), (kk if c.quantity == "precision" else labels)
    return {"dcg": num, "idcg": float(den), "value": num / den, "k": kk, "ideal_k": None}


# --------------------------------------------------------------------------- libraries
@dataclass(frozen=True)
class Library:
    """A library's NDCG as a :class:`Convention`, with how it is called and where that was read.

    ``source`` cites the file, function and version the convention was read from; ``versions``
    says what changes between versions; ``checked_against`` names the installed package the tests
    compare with (empty: not installable here, checked against its source).
    """

    key: str
    name: str
    short: str  # the library's name for a sentence ("scikit-learn's ndcg_score")
    call: str  # how it is called
    convention: Convention
    ties_note: str  # what the library itself does with ties
    idcg_zero: str  # what it returns when IDCG is 0
    notes: str
    source: str
    versions: str = ""
    checked_against: str = ""
    family: str = ""  # the library (sklearn, trec_eval, ...) for grouping several entries

    @property
    def uses_k(self) -> bool:
        return self.convention.cutoff != "none"

    def latex(self) -> str:
        v = self.convention.variant
        return dcg_latex(v.gain if v.gain != "map" else "linear", v.discount, v.log_base)


def _lib(key, name, short, call, convention, ties_note, idcg_zero, notes, source, **extra) -> Library:
    return Library(key, name, short, call, convention, ties_note, idcg_zero, notes, source, **extra)


_TREC_VERSIONS = (
    "-l (relevance level) does not change ndcg: every level's gain counts.  "
    "A query in the qrels but missing from the run: trec_eval 9.x skips it (unless -c, which averages it "
    "in as 0); trec_eval 10 stops with an error.  Scores are compared as double; ties are broken by docno.")

_SPARK_VERSIONS = (
    "The values are the mean over the queries of an RDD (RankingMetrics) or a DataFrame (RankingEvaluator, "
    "binary only). PySpark's RankingMetrics drops relevance values; graded ndcgAt (3.4+) only through the JVM's "
    "RankingMetrics.of on (prediction, labels, relevance) triples.")

LIBRARIES: dict[str, Library] = {lib.key: lib for lib in [
    _lib("sklearn", "scikit-learn", "scikit-learn's ndcg_score", "sklearn.metrics.ndcg_score(y_true, y_score, k=k)",
         Convention(TEXTBOOK.with_(ties="average"), min_items=2),
         "Averaged over tied scores (ignore_ties=False, the default).",
         "0.0 for that sample.",
         "y_true values are the gains; only the scored items exist, so IDCG comes from them. Negative y_true is "
         "rejected, and so is a single document ('only meaningful when there is more than 1 document').",
         "sklearn/metrics/_ranking.py: ndcg_score, _ndcg_sample_scores, _tie_averaged_dcg (scikit-learn 1.9)",
         checked_against="scikit-learn", family="sklearn"),
    _lib("torchmetrics", "torchmetrics", "torchmetrics' retrieval_normalized_dcg",
         "torchmetrics.functional.retrieval_normalized_dcg(preds, target, top_k=k)",
         Convention(TEXTBOOK.with_(ties="average")),
         "Averaged over tied scores (a port of scikit-learn's _tie_averaged_dcg).",
         "0.0 (the RetrievalNormalizedDCG class: set by empty_target_action).",
         "Same convention as scikit-learn, but sums in float32: values agree with scikit-learn to about "
         "7 significant digits. A single document is accepted.",
         "torchmetrics/functional/retrieval/ndcg.py: retrieval_normalized_dcg, _dcg_sample_scores, "
         "_tie_average_dcg (torchmetrics 1.9.0; torch is not installable here)", family="torchmetrics"),
    _lib("trec_eval_ndcg", "trec_eval / pytrec_eval: ndcg", "trec_eval's ndcg", "trec_eval -m ndcg qrels run",
         Convention(TEXTBOOK.with_(idcg="judged", ties="trec_eval"), cutoff="none", grades="truncate"),
         "Sorted by score, then by docno, both descending (input order is ignored).",
         "0.0 for the query.",
         "No cutoff: DCG over the whole run, IDCG over every relevant judged document. Grades are read with "
         "atol (2.5 -> 2); a negative judgement counts as unjudged (gain 0).",
         "trec_eval m_ndcg.c: te_calc_ndcg, setup_gains; get_qrels.c: te_get_qrels (atol) (trec_eval 9.0.7 / "
         "10.0; pytrec_eval-terrier 0.5.11)", versions=_TREC_VERSIONS,
         checked_against="pytrec-eval-terrier", family="trec_eval"),
    _lib("trec_eval_ndcg_cut", "trec_eval / pytrec_eval: ndcg_cut.k", "trec_eval's ndcg_cut",
         "trec_eval -m ndcg_cut.k qrels run",
         Convention(TEXTBOOK.with_(idcg="judged", ties="trec_eval"), cutoff="both", grades="truncate"),
         "Sorted by score, then by docno, both descending.",
         "0.0 for the query.",
         "DCG and IDCG both cut at k; IDCG from every judged document, retrieved or not. Grades read with atol.",
         "trec_eval m_ndcg_cut.c: te_calc_ndcg_cut (trec_eval 9.0.7 / 10.0; pytrec_eval-terrier 0.5.11)",
         versions=_TREC_VERSIONS, checked_against="pytrec-eval-terrier", family="trec_eval"),
    _lib("trec_eval_ndcg_M", "trec_eval: ndcg with -M k", "trec_eval's ndcg with -M",
         "trec_eval -M k -m ndcg qrels run",
         Convention(TEXTBOOK.with_(idcg="judged", ties="trec_eval"), cutoff="run", grades="truncate"),
         "Sorted by score, then by docno, both descending.",
         "0.0 for the query.",
         "-M k keeps only the first k documents of the run; the ideal ranking is not cut, so a run that "
         "stops at k can never reach 1 if more than k documents are relevant.",
         "trec_eval trec_eval.c (-M: max_num_docs_per_topic), form_res_rels.c: te_form_res_rels; "
         "m_ndcg.c: te_calc_ndcg (trec_eval 9.0.7 / 10.0)", versions=_TREC_VERSIONS,
         checked_against="pytrec-eval-terrier", family="trec_eval"),
    _lib("ranx_ndcg", "ranx: ndcg", "ranx's ndcg", 'ranx.evaluate(qrels, run, "ndcg@k")',
         Convention(TEXTBOOK.with_(idcg="judged", ties="ranx"), grades="at_least_1"),
         "Input order for up to 15 items; from 16 items numba's quicksort reorders ties (reproduced exactly).",
         "0.0.",
         "IDCG from the qrels (every judged document with grade >= rel_lvl = 1).",
         "ranx/metrics/ndcg.py: _dcg, _idcg, _ndcg; ranx/data_structures/common.py: sort_dict_by_value "
         "(np.argsort compiled by numba 0.68: numba/misc/quicksort.py) (ranx 0.3.21)",
         checked_against="ranx", family="ranx"),
    _lib("ranx_ndcg_burges", "ranx: ndcg_burges", "ranx's ndcg_burges", 'ranx.evaluate(qrels, run, "ndcg_burges@k")',
         Convention(TEXTBOOK.with_(gain="exponential", idcg="judged", ties="ranx"), grades="at_least_1"),
         "Input order for up to 15 items; from 16 items numba's quicksort reorders ties (reproduced exactly).",
         "0.0.",
         "Burges et al. (2005): gain 2^rel - 1; IDCG from the qrels.",
         "ranx/metrics/ndcg.py: _dcg (jarvelin=False), ndcg_burges (ranx 0.3.21)",
         checked_against="ranx", family="ranx"),
    _lib("lightgbm", "LightGBM: ndcg@k", "LightGBM's ndcg",
         "lightgbm metric='ndcg', eval_at=[k] (label_gain = 2^i - 1)",
         Convention(TEXTBOOK.with_(gain="exponential", zero_idcg="one"),
                    ideal_order="grade", grades="integer", max_grade=30),
         "Stable sort by score: tied items keep their input order.",
         "1.0: a query whose labels are all 0 counts as perfect.",
         "label_gain (default 2^i - 1 for labels 0..30) maps labels to gains; the ideal sorts by label, not by "
         "gain, so a label_gain that is not increasing can give NDCG > 1. Labels must be integers.",
         "LightGBM src/metric/dcg_calculator.cpp: DCGCalculator::CalMaxDCGAtK, CalDCGAtK; "
         "src/metric/rank_metric.hpp: NDCGMetric::Eval (LightGBM 4.7.0)",
         checked_against="lightgbm", family="lightgbm"),
    _lib("xgboost", "XGBoost: ndcg@k", "XGBoost's ndcg", "xgboost eval_metric='ndcg@k' (ndcg_exp_gain=True)",
         Convention(TEXTBOOK.with_(gain="exponential", zero_idcg="one"),
                    grades="integer", scores_as="float32", max_grade=31, default_k=32),
         "Stable sort by prediction, which is float32: scores that differ below float32 precision tie.",
         "1.0 (ndcg@k-: 0.0).",
         "Gain 2^rel - 1 (labels must be integers <= 31); IDCG from the list's labels. 'ndcg' without @k is "
         "ndcg@32 (LambdaRankParam's default top-k).",
         "XGBoost src/metric/rank_metric.cc: EvalNDCG; src/common/ranking_utils.h: CalcDCGGain, CheckNDCGLabels, "
         "LambdaRankParam::DefaultK (XGBoost 3.2.0)",
         versions="XGBoost 1.x cast labels to int (2.5 -> 2) and returned float32 results; 2.0+ rejects "
                  "fractional labels with exponential gain, returns float64 and adds ndcg_exp_gain.",
         checked_against="xgboost", family="xgboost"),
    _lib("xgboost_minus", "XGBoost: ndcg@k-", "XGBoost's ndcg@k-", "xgboost eval_metric='ndcg@k-'",
         Convention(TEXTBOOK.with_(gain="exponential", zero_idcg="zero"),
                    grades="integer", scores_as="float32", max_grade=31, default_k=32),
         "Stable sort by float32 prediction.",
         "0.0: the '-' suffix scores a query with no relevant document 0.",
         "As ndcg@k, but a list without relevant documents counts 0.",
         "XGBoost src/metric/rank_metric.cc: EvalRank (minus) (XGBoost 3.2.0)",
         checked_against="xgboost", family="xgboost"),
    _lib("xgboost_linear", "XGBoost: ndcg@k, ndcg_exp_gain=False", "XGBoost's ndcg with ndcg_exp_gain=False",
         "xgboost eval_metric='ndcg@k', ndcg_exp_gain=False",
         Convention(TEXTBOOK.with_(gain="linear", zero_idcg="one"), scores_as="float32", default_k=32),
         "Stable sort by float32 prediction.",
         "1.0.",
         "The label itself is the gain (fractional labels allowed).",
         "XGBoost src/common/ranking_utils.h: LambdaRankParam::ndcg_exp_gain (XGBoost 3.2.0)",
         checked_against="xgboost", family="xgboost"),
    _lib("elasticsearch_dcg", "Elasticsearch _rank_eval: dcg (default)", "Elasticsearch's _rank_eval dcg",
         '_rank_eval {"metric": {"dcg": {"k": k}}}',
         Convention(TEXTBOOK.with_(gain="exponential", idcg="judged"),
                    cutoff="hits", quantity="dcg", grades="integer", default_k=10),
         "Takes the search hits in the order returned.",
         "Not normalised: the DCG itself (0.0 with no relevant hit).",
         "normalize is false by default, so the number is plain DCG with gain 2^rating - 1. Unrated hits "
         "count 0 unless unknown_doc_rating gives them a rating; k (default 10) is the number of hits asked for.",
         "Elasticsearch modules/rank-eval/.../DiscountedCumulativeGain.java: evaluate, computeDCG (8.x)",
         family="elasticsearch"),
    _lib("elasticsearch_ndcg", "Elasticsearch _rank_eval: dcg with normalize", "Elasticsearch's _rank_eval ndcg",
         '_rank_eval {"metric": {"dcg": {"k": k, "normalize": true}}}',
         Convention(TEXTBOOK.with_(gain="exponential", idcg="judged"), cutoff="hits", grades="integer", default_k=10),
         "Takes the search hits in the order returned.",
         "0.0.",
         "IDCG from every rated document sorted, cut at the number of hits returned (not at k).",
         "Elasticsearch modules/rank-eval/.../DiscountedCumulativeGain.java: evaluate (8.x)",
         family="elasticsearch"),
    _lib("gdeval", "gdeval.pl (TREC Web track)", "gdeval's ndcg@k", "gdeval.pl -k k qrels run",
         Convention(TEXTBOOK.with_(gain="exponential", log_base=math.e, idcg="judged", ties="trec_eval",
                                   zero_idcg="nan"),
                    grades="integer", max_grade=4, default_k=20),
         "Sorted by score, then by docno, both descending (runOrder).",
         "Not evaluated: topics without a relevant document are skipped.",
         "Gain 2^rel - 1, divided by ln(rank + 1) (the base cancels in NDCG); IDCG from the qrels, cut at k "
         "(default 20). Judgments must be integers <= 4. Prints 5 decimals.",
         "gdeval.pl: dcg, topicDone, runOrder (version 1.2, TREC 2010 Web track; 1.3 adds -k)",
         family="gdeval"),
    _lib("tf_ranking", "TF-Ranking", "TF-Ranking's NDCGMetric", "tfr.keras.metrics.NDCGMetric(topn=k)",
         Convention(TEXTBOOK.with_(gain="exponential", ties="average")),
         "Ties are shuffled at random; the tie average shown is the expected value over those shuffles.",
         "0.0 (division guarded).",
         "gain_fn defaults to 2^label - 1; labels < 0 mark padding and are ignored.",
         "tensorflow_ranking/python/metrics_impl.py: NDCGMetric (TF-Ranking 0.5)", family="tf_ranking"),
    _lib("recommenders_binary", "Microsoft Recommenders (score_type='binary', default)",
         "Microsoft Recommenders' ndcg_at_k",
         "recommenders.evaluation.python_evaluation.ndcg_at_k(true, pred, k=k)",
         Convention(TEXTBOOK.with_(gain="binary", log_base=math.e, idcg="judged")),
         "Ranks by prediction; ties ranked in order of appearance (rank method 'first').",
         "0.0 when no recommended item is relevant.",
         "Default discfun_type='loge' (natural log, cancels in NDCG). Every item of rating_true counts as 1; "
         "here: every item of grade > 0.",
         "recommenders/evaluation/python_evaluation.py: ndcg_at_k (Recommenders 1.2)", family="recommenders"),
    _lib("recommenders_raw", "Microsoft Recommenders (score_type='raw')",
         "Microsoft Recommenders' ndcg_at_k (raw)", "ndcg_at_k(true, pred, k=k, score_type='raw')",
         Convention(TEXTBOOK.with_(gain="linear", log_base=math.e, idcg="judged")),
         "Ties ranked in order of appearance.", "0.0 when no recommended item is relevant.",
         "The rating itself is the gain; IDCG from rating_true, top k.",
         "recommenders/evaluation/python_evaluation.py: ndcg_at_k (Recommenders 1.2)", family="recommenders"),
    _lib("recommenders_exp", "Microsoft Recommenders (score_type='exp')",
         "Microsoft Recommenders' ndcg_at_k (exp)", "ndcg_at_k(true, pred, k=k, score_type='exp')",
         Convention(TEXTBOOK.with_(gain="exponential", log_base=math.e, idcg="judged")),
         "Ties ranked in order of appearance.", "0.0 when no recommended item is relevant.",
         "Gain 2^rating - 1; IDCG from rating_true, top k.",
         "recommenders/evaluation/python_evaluation.py: ndcg_at_k (Recommenders 1.2)", family="recommenders"),
    _lib("spark", "Spark MLlib RankingMetrics.ndcgAt(k)", "Spark's ndcgAt",
         "RankingMetrics(predictionAndLabels).ndcgAt(k)",
         Convention(TEXTBOOK.with_(gain="binary", log_base=math.e, idcg="judged")),
         "Takes an already ranked array: no scores, so no ties.",
         "0.0 with a logged warning.",
         "Binary when no relevance values are given: 1/ln(i+2) per hit; IDCG = min(|labels|, k) hits.",
         "Spark mllib/src/main/scala/org/apache/spark/mllib/evaluation/RankingMetrics.scala: ndcgAt "
         "(Spark 3.5, 4.3.0)", versions=_SPARK_VERSIONS, checked_against="pyspark", family="spark"),
    _lib("spark_graded", "Spark MLlib ndcgAt(k) with relevance values", "Spark's ndcgAt with relevance values",
         "RankingMetrics(predictionAndLabelsWithRelevance).ndcgAt(k)",
         Convention(TEXTBOOK.with_(gain="exponential", log_base=math.e, idcg="judged"), ideal_order="given"),
         "Takes an already ranked array: no scores, so no ties.",
         "0.0 with a logged warning.",
         "Gain 2^rel - 1. Its IDCG walks the labels in the order given, not sorted: it is the ideal DCG only "
         "when the ground truth is passed sorted by relevance.",
         "Spark RankingMetrics.scala: ndcgAt, the relevance-values branch (maxDcg over lab(i)) (Spark 3.4+, "
         "4.3.0)", versions=_SPARK_VERSIONS, checked_against="pyspark", family="spark"),
    _lib("spark_precision", "Spark MLlib RankingMetrics.precisionAt(k)", "Spark's precisionAt",
         "RankingMetrics(predictionAndLabels).precisionAt(k)",
         Convention(TEXTBOOK.with_(gain="binary"), quantity="precision"),
         "Takes an already ranked array: no scores, so no ties.",
         "0.0 with a logged warning (an empty ground truth set).",
         "Not an NDCG: the labels among the first k predictions, divided by k even when fewer than k items are "
         "predicted or relevant. Here the labels are the judged items of grade > 0.",
         "Spark RankingMetrics.scala: precisionAt, countRelevantItemRatio (Spark 1.2+, 4.3.0); "
         "RankingEvaluator metricName='precisionAtK'", versions=_SPARK_VERSIONS, checked_against="pyspark",
         family="spark"),
    _lib("spark_recall", "Spark MLlib RankingMetrics.recallAt(k)", "Spark's recallAt",
         "RankingMetrics(predictionAndLabels).recallAt(k)",
         Convention(TEXTBOOK.with_(gain="binary"), quantity="recall"),
         "Takes an already ranked array: no scores, so no ties.",
         "0.0 with a logged warning (an empty ground truth set).",
         "Not an NDCG: the labels among the first k predictions, divided by the number of labels. Here the "
         "labels are the judged items of grade > 0.",
         "Spark RankingMetrics.scala: recallAt, countRelevantItemRatio (Spark 3.0+, 4.3.0); "
         "RankingEvaluator metricName='recallAtK'", versions=_SPARK_VERSIONS, checked_against="pyspark",
         family="spark"),
    _lib("spark_map_at", "Spark MLlib RankingMetrics.meanAveragePrecisionAt(k)", "Spark's meanAveragePrecisionAt",
         "RankingMetrics(predictionAndLabels).meanAveragePrecisionAt(k)",
         Convention(TEXTBOOK.with_(gain="binary"), quantity="average_precision"),
         "Takes an already ranked array: no scores, so no ties.",
         "0.0 with a logged warning (an empty ground truth set).",
         "Not an NDCG: at each label among the first k predictions, the precision so far; their sum divided by "
         "min(number of labels, k). Here the labels are the judged items of grade > 0.",
         "Spark RankingMetrics.scala: meanAveragePrecisionAt, averagePrecision (Spark 3.0+, 4.3.0); "
         "RankingEvaluator metricName='meanAveragePrecisionAtK'", versions=_SPARK_VERSIONS,
         checked_against="pyspark", family="spark"),
    _lib("spark_map", "Spark MLlib RankingMetrics.meanAveragePrecision", "Spark's meanAveragePrecision",
         "RankingMetrics(predictionAndLabels).meanAveragePrecision",
         Convention(TEXTBOOK.with_(gain="binary"), quantity="average_precision", cutoff="none"),
         "Takes an already ranked array: no scores, so no ties.",
         "0.0 with a logged warning (an empty ground truth set).",
         "Not an NDCG: average precision over the whole prediction, divided by the number of labels (k is "
         "ignored). Here the labels are the judged items of grade > 0.",
         "Spark RankingMetrics.scala: meanAveragePrecision, averagePrecision (Spark 1.2+, 4.3.0); "
         "RankingEvaluator metricName='meanAveragePrecision'", versions=_SPARK_VERSIONS,
         checked_against="pyspark", family="spark"),
    _lib("recbole", "RecBole NDCG@k", "RecBole's NDCG", "metrics: ['NDCG'], topk: [k]",
         Convention(TEXTBOOK.with_(gain="binary", idcg="judged", zero_idcg="nan")),
         "torch.topk on the scores: the order of tied scores is not specified.",
         "Users with no positive test item are not evaluated.",
         "IDCG = min(number of positive test items, k) hits.",
         "recbole/evaluator/metrics.py: NDCG.metric_info (RecBole 1.2)", family="recbole"),
]}


def library_pool(relevances, unretrieved=()) -> list[float]:
    """Grades of every judged item: the list's own plus the unretrieved ones.

    Libraries whose IDCG comes from every judged item (trec_eval, Recommenders, ...) need this
    pool; the others see only the list.

    Parameters
    ----------
    relevances : sequence of float >= 0
        Grades of the ranked list (not empty).
    unretrieved : sequence of float >= 0, default ()
        Grades of judged items the system did not return.

    Returns
    -------
    list of float
        The list's grades followed by the unretrieved ones.

    Raises
    ------
    ValueError
        If a grade is negative or not a finite number.

    Examples
    --------
    >>> library_pool([3, 2], [3, 0])
    [3.0, 2.0, 3.0, 0.0]
    """
    rel = as_grades(relevances)
    extra = as_grades(list(unretrieved), name="unretrieved", allow_empty=True)
    return rel.tolist() + extra.tolist()


def evaluate_library(library, relevances, *, scores=None, docnos=None, unretrieved=(), k=None,
                     gain_map=None) -> dict:
    """DCG, IDCG and NDCG as ``library`` would compute them for one ranked list.

    ``relevances`` are grades in ranked order (or in any order, with ``scores``);
    ``unretrieved`` holds the grades of judged items missing from the list, which only
    libraries whose IDCG comes from every judged item see.  ``docnos`` name the items
    for trec_eval's tie order (default ``D1``, ``D2``, ...).  Raises ValueError where the
    library does (:class:`NotApplicable`): scikit-learn on a single document, LightGBM on a
    fractional grade, ...  ``ndcg`` is the library's number (plain DCG for Elasticsearch's default).

    Parameters
    ----------
    library : str or Library
        A key of :data:`LIBRARIES` (e.g. "sklearn", "trec_eval_ndcg", "ranx_ndcg_burges") or a Library.
    relevances : sequence of float >= 0
        Grades, in ranked order unless ``scores`` are given.
    scores : sequence of float, optional
        One score per item; ties are broken as the library does.
    docnos : sequence of str, optional
        Document ids for trec_eval's tie order.
    unretrieved : sequence of float >= 0, default ()
        Grades of judged items missing from the list.
    k : int >= 1, optional
        The cutoff as passed to the library.  Default ``None``: the library's default.
    gain_map : mapping, optional
        Grade -> gain for libraries that take one (trec_eval ``-m ndcg.L=G``, LightGBM ``label_gain``).

    Returns
    -------
    dict
        ``key``, ``dcg``, ``idcg``, ``ndcg`` (the library's number) and ``k`` (the cutoff used).

    Raises
    ------
    NotApplicable
        (a ValueError) where the library refuses the input.
    ValueError
        For an unknown library or invalid input.

    See Also
    --------
    evaluate_libraries : every library at once, as a table.

    References
    ----------
    .. [1] Each :class:`Library`'s ``source``: file, function and version, e.g. scikit-learn 1.9
       ``sklearn/metrics/_ranking.py``: ``ndcg_score``; trec_eval 9.0.8 ``m_ndcg.c``.

    Examples
    --------
    >>> r = evaluate_library("trec_eval_ndcg", [3, 2, 3, 0, 1, 2], unretrieved=[3, 0])
    >>> round(r["idcg"], 4), round(r["ndcg"], 4)  # IDCG over all eight judged: 3,3,3,2,2,1,0,0
    (8.3841, 0.8184)
    >>> evaluate_library("sklearn", [3])
    Traceback (most recent call last):
    ...
    metrics.lessons.libraries.NotApplicable: only meaningful when there is more than 1 document; got 1
    """
    lib = library if isinstance(library, Library) else check_choice(library, LIBRARIES, name="library")
    rel = as_grades(relevances)
    pool = library_pool(rel, unretrieved)
    r = convention_value(lib.convention, rel, scores=scores, docnos=docnos, pool=pool, k=k, gain_map=gain_map)
    return {"key": lib.key, "dcg": r["dcg"], "idcg": r["idcg"], "ndcg": r["value"], "k": r["k"]}


def evaluate_libraries(relevances, *, scores=None, docnos=None, unretrieved=(), k=None,
                       libraries=None) -> pd.DataFrame:
    """One row per library: its conventions and the DCG / IDCG / NDCG it would return.

    A library that refuses the input (scikit-learn on one document, LightGBM on 2.5) gets NaN and
    its reason in ``error``.

    Parameters
    ----------
    relevances, scores, docnos, unretrieved, k
        As for :func:`evaluate_library`.
    libraries : sequence of str, optional
        Keys of :data:`LIBRARIES` to evaluate.  Default ``None``: all of them.

    Returns
    -------
    pandas.DataFrame
        One row per library with ``key``, ``name``, ``gain``, ``discount``, ``log_base``,
        ``idcg_source``, ``ideal_order``, ``ties``, ``k``, ``dcg``, ``idcg``, ``ndcg`` and ``error`` ("" when
        it applies).

    Raises
    ------
    ValueError
        For invalid grades or an unknown library key (a library's refusal is a row, not an error).

    Examples
    --------
    Document 000's list: linear 6.8276 / 7.1411 (ideal 3,3,2,2,1); TF-Ranking's
    2^rel - 1 gives (7 + 3/1.585 + 1/2 + 7/2.322 + 3/2.585) / (7 + 7/1.585 + 3/2 + 3/2.322 + 1/2.585)
    = 13.568 / 14.595:

    >>> t = evaluate_libraries([3, 2, 1, 3, 2]).set_index("key")
    >>> round(float(t.loc["sklearn", "ndcg"]), 4), round(float(t.loc["tf_ranking", "ndcg"]), 4)
    (0.9561, 0.9296)
    >>> evaluate_libraries([3]).set_index("key").loc["sklearn", "error"]
    'only meaningful when there is more than 1 document; got 1'
    """
    rows = []
    as_grades(relevances)
    for key in libraries or LIBRARIES:
        lib = check_choice(key, LIBRARIES, name="library")
        try:
            r = evaluate_library(lib, relevances, scores=scores, docnos=docnos, unretrieved=unretrieved, k=k)
            error = ""
        except NotApplicable as exc:
            r = {"k": None, "dcg": math.nan, "idcg": math.nan, "ndcg": math.nan}
            error = str(exc)
        c = lib.convention
        rows.append({"key": lib.key, "name": lib.name, "gain": c.variant.gain, "discount": c.variant.discount,
                     "log_base": c.variant.log_base, "idcg_source": c.variant.idcg, "ideal_order": c.ideal_order,
                     "ties": c.variant.ties,
                     "k": r["k"], "dcg": r["dcg"], "idcg": r["idcg"], "ndcg": r["ndcg"], "error": error})
    return pd.DataFrame(rows)


def zero_idcg_means(values, idcgs) -> pd.DataFrame:
    """The mean NDCG of several lists under each zero-IDCG policy, and how many lists it counts.

    ``values`` are the per-list NDCGs where IDCG > 0 (anything where IDCG = 0); ``idcgs`` the IDCGs.

    Parameters
    ----------
    values : sequence of float
        One NDCG per list; the entries of lists with IDCG 0 are ignored.
    idcgs : sequence of float
        One IDCG per list, same length as ``values`` (not empty).

    Returns
    -------
    pandas.DataFrame
        One row per policy of :data:`metrics.registry.ZERO_IDCG` ("zero", "one", "nan") with
        ``mean`` and ``counted`` (the number of lists in the mean).

    Raises
    ------
    ValueError
        If the two are empty or of different lengths.

    Examples
    --------
    Two lists score 0.8 and 0.6, a third has no relevant item: its 0 pulls the mean to 0.4667, its 1
    pushes it to 0.8, skipping it leaves 0.7 over two lists:

    >>> t = zero_idcg_means([0.8, 0.6, 0.0], [3.0, 2.0, 0.0]).set_index("zero_idcg")
    >>> t["mean"].round(4).tolist(), t["counted"].tolist()
    ([0.4667, 0.8, 0.7], [3, 3, 2])
    """
    v = np.asarray(list(values), dtype=np.float64)
    d = np.asarray(list(idcgs), dtype=np.float64)
    if v.size == 0 or v.size != d.size:
        raise ValueError(f"values and idcgs must be non-empty and of equal length, got {v.size} and {d.size}")
    rows = []
    for policy in ZERO_IDCG.values():
        filled = np.where(d == 0, policy.value, v)
        counted = filled[~np.isnan(filled)]
        mean = math.fsum(counted.tolist()) / counted.size if counted.size else math.nan
        rows.append({"zero_idcg": policy.key, "mean": mean, "counted": int(counted.size)})
    return pd.DataFrame(rows)


def tie_spread(relevances, scores, *, docnos=None, k=None, gain="linear", discount="standard", log_base=2,
               pool=None, rules=("average", "optimistic", "pessimistic", "trec_eval", "stable")) -> pd.DataFrame:
    """NDCG of a scored list under each tie rule, and the spread (max - min) they leave.

    A large spread means the reported number depends on an arbitrary choice the system never made.

    Parameters
    ----------
    relevances : sequence of float >= 0
        Grades in input order.
    scores : sequence of float
        One score per item.
    docnos : sequence of str, optional
        Document ids for the trec_eval rule.  Default: ``D1``, ``D2``, ...
    k, gain, discount, log_base, pool
        As for :func:`metrics.ndcg.ndcg`.
    rules : sequence of str, default ("average", "optimistic", "pessimistic", "trec_eval", "stable")
        Keys of :data:`metrics.registry.TIES`.

    Returns
    -------
    pandas.DataFrame
        Columns ``ties`` and ``ndcg``, one row per rule; ``attrs["spread"]`` is max - min.

    Raises
    ------
    ValueError
        As for :func:`metrics.ndcg.ndcg_from_scores`.

    Examples
    --------
    Two items tie at the top; IDCG = 3 + 1/log2(3) = 3.6309.  Optimistic puts the grade-3 one
    first: (3 + 0 + 1/2) / 3.6309; pessimistic: (0 + 3/log2(3) + 1/2) / 3.6309:

    >>> t = tie_spread([0, 3, 1], [0.5, 0.5, 0.1], docnos=["a", "b", "c"]).set_index("ties")
    >>> round(float(t.loc["optimistic", "ndcg"]), 4), round(float(t.loc["pessimistic", "ndcg"]), 4)
    (0.9639, 0.659)
    >>> round(t.attrs["spread"], 4)
    0.3049
    """
    rel = as_grades(relevances)
    names = list(docnos) if docnos is not None else [f"D{i}" for i in range(1, rel.size + 1)]
    rows = []
    for rule in rules:
        tie = check_choice(rule, TIES, name="ties")
        rows.append({"ties": tie.key, "ndcg": ndcg_from_scores(
            rel, scores, k=k, gain=gain, discount=discount, log_base=log_base, pool=pool, ties=tie.key,
            docnos=names)})
    out = pd.DataFrame(rows)
    out.attrs["spread"] = float(out["ndcg"].max() - out["ndcg"].min())
    return out


# --------------------------------------------------------------------------- does the choice matter?
#: NDCG variants (gain × discount × IDCG source, log base 2) by their short form ``gain/discount/idcg``
#: (:mod:`metrics.variant`): ``VARIANTS[key].ndcg(rel, pool=pool)``.
VARIANTS: dict[str, Variant] = {
    v.format("short"): v for v in (Variant(gain=g, discount=d, idcg=s) for g, d, s in product(GAINS, DISCOUNTS,
                                                                                                IDCG_SOURCES))
}


def _variant_ndcg(v: Variant, rel, pool, k) -> float:
    return v.with_(k=k).ndcg(rel, pool=pool)


def compare_rankings(a, b, *, pool=None, k=None, variants=None, libraries=None) -> pd.DataFrame:
    """NDCG of two rankings under every variant and library convention, and which one wins.

    ``a`` and ``b`` are grades in ranked order; ``pool`` holds the grades of every judged
    item (for IDCG source "judged"; None: the lists themselves).  ``winner`` is "a", "b" or "tie".

    Parameters
    ----------
    a, b : sequence of float >= 0
        Two rankings' grades, in ranked order.
    pool : sequence of float >= 0, optional
        Every judged item's grade (both lists' grades must be in it).
    k : int >= 1, optional
        The cutoff for every variant and library.
    variants : sequence of str, optional
        Keys of :data:`VARIANTS` ("gain/discount/idcg").  Default ``None``: all.
    libraries : sequence of str, optional
        Keys of :data:`LIBRARIES`.  Default ``None``: all; ``()`` for none.

    Returns
    -------
    pandas.DataFrame
        One row per variant and library: ``variant``, ``kind`` ("variant" or "library"), ``gain``,
        ``discount``, ``idcg``, ``ndcg_a``, ``ndcg_b``, ``winner``.

    Raises
    ------
    ValueError
        For invalid grades, an unknown key, a grade missing from the pool, or a library that refuses
        the lists.

    Examples
    --------
    Document 004: rec_sys_2 wins with graded gain, rec_sys_1 with binary gain (all five hit).
    Binary, judged pool (six relevant items, top 5 all hits): a hits 5 of 5, NDCG = 1; b misses
    position 4: (1 + 0.6309 + 0.5 + 0 + 0.3869) / (1 + 0.6309 + 0.5 + 0.4307 + 0.3869)
    = 2.5178 / 2.9485 = 0.8539.

    >>> t = compare_rankings([3, 1, 2, 2, 1], [3, 3, 2, 0, 1], pool=[3, 3, 2, 2, 1, 1, 0], k=5)
    >>> t.set_index("variant").loc[["linear/standard/judged", "binary/standard/judged"], "winner"].tolist()
    ['b', 'a']
    >>> round(float(t.set_index("variant").loc["binary/standard/judged", "ndcg_b"]), 4)
    0.8539
    """
    k = check_k(k)
    ra, rb = as_grades(a, name="a"), as_grades(b, name="b")
    pa = pb = None
    if pool is not None:
        pa = pb = as_grades(pool, name="pool").tolist()
    rows = []
    for key in variants or VARIANTS:
        v = check_choice(key, VARIANTS, name="variant")
        rows.append({"variant": key, "kind": "variant", "gain": v.gain, "discount": v.discount, "idcg": v.idcg,
                     "ndcg_a": _variant_ndcg(v, ra, pa, k), "ndcg_b": _variant_ndcg(v, rb, pb, k)})
    for key in libraries if libraries is not None else LIBRARIES:
        lib = check_choice(key, LIBRARIES, name="library")
        unret_a = _unretrieved(ra, pa)
        unret_b = _unretrieved(rb, pb)
        lv = lib.convention.variant
        rows.append({"variant": lib.key, "kind": "library", "gain": lv.gain, "discount": lv.discount, "idcg": lv.idcg,
                     "ndcg_a": evaluate_library(lib, ra, unretrieved=unret_a, k=k)["ndcg"],
                     "ndcg_b": evaluate_library(lib, rb, unretrieved=unret_b, k=k)["ndcg"]})
    out = pd.DataFrame(rows)
    diff = out["ndcg_a"] - out["ndcg_b"]
    close = np.isclose(out["ndcg_a"], out["ndcg_b"], rtol=1e-12, atol=1e-12)
    out["winner"] = np.where(close, "tie", np.where(diff > 0, "a", "b"))
    return out


def _unretrieved(rel: np.ndarray, pool) -> list[float]:
    """The pool's grades left once the list's own are taken out (multiset difference)."""
    if pool is None:
        return []
    left = sorted(pool, reverse=True)
    for g in rel.tolist():
        if g in left:
            left.remove(g)
        elif g != 0:
            raise ValueError(f"grade {g:g} of the list is not in the pool; the pool must hold the list's own grades")
    return left


def find_flip(first: str, second: str, *, grades=(3, 2, 2, 1, 0), k=None):
    """Two orders of the same items whose winner under variant ``first`` loses under ``second``.

    Searches the distinct permutations of ``grades`` in a fixed order and returns the first
    pair ``(a, b)`` with ``a`` better under ``first`` and ``b`` better under ``second``,
    or None if no such pair exists.

    Parameters
    ----------
    first, second : str
        Keys of :data:`VARIANTS`, e.g. "linear/standard/list".
    grades : sequence of float >= 0, default (3, 2, 2, 1, 0)
        The items to permute (keep it short: all distinct permutations are tried).
    k : int >= 1, optional
        The cutoff for both variants.

    Returns
    -------
    tuple of two lists of float, or None
        ``(a, b)``: ``a`` wins under ``first``, ``b`` under ``second``.

    Raises
    ------
    ValueError
        For an unknown variant, invalid grades or ``k``.

    Examples
    --------
    >>> a, b = find_flip("linear/standard/list", "exponential/standard/list")
    >>> ndcg(a) > ndcg(b), ndcg(a, gain="exponential") < ndcg(b, gain="exponential")
    (True, True)
    """
    v1 = check_choice(first, VARIANTS, name="variant")
    v2 = check_choice(second, VARIANTS, name="variant")
    k = check_k(k)
    base = as_grades(grades, name="grades").tolist()
    orders = sorted(set(permutations(base)), reverse=True)
    scored = [(o, _variant_ndcg(v1, list(o), None, k), _variant_ndcg(v2, list(o), None, k)) for o in orders]
    for (a, a1, a2), (b, b1, b2) in product(scored, repeat=2):
        if a1 - b1 > 1e-9 and b2 - a2 > 1e-9:
            return list(a), list(b)
    return None


def coincidences(n: int = 10, log_base: float = 2.0) -> dict:
    """Where the two discounts give the same weight, and where the two gains give the same gain.

    With b = 2 the Järvelin discount max(1, log2 i) and the standard log2(i + 1) agree only at
    rank 1; Järvelin gives ranks 1 and 2 the same weight.  Gains 2^rel - 1 and rel agree on
    grades 0 and 1 only, so binary grades make linear = exponential.

    Parameters
    ----------
    n : int >= 1, default 10
        Positions 1..n are compared.
    log_base : float > 0, != 1, default 2.0
        The base of both discounts.

    Returns
    -------
    dict
        ``same_weight_positions`` (where the two discounts are equal),
        ``jarvelin_equal_weight_positions`` (positions Järvelin weighs like position 1) and
        ``same_gain_grades`` (grades 0..5 where 2^rel - 1 = rel).

    Raises
    ------
    ValueError
        If ``n`` is not a whole number >= 1 or the base is invalid.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 422-446, 2002.

    Examples
    --------
    Base 2: log2(1 + 1) = 1 = max(1, log2 1) at rank 1; at rank 2 max(1, log2 2) = 1 but
    log2(3) = 1.585.  2^0 - 1 = 0 and 2^1 - 1 = 1, but 2^2 - 1 = 3 != 2:

    >>> c = coincidences(6)
    >>> c["same_weight_positions"], c["jarvelin_equal_weight_positions"], c["same_gain_grades"]
    ([1], [1, 2], [0, 1])

    Base 10: log10(i) < 1 up to rank 9, so Järvelin gives ranks 1 to 6 the same weight:

    >>> coincidences(6, log_base=10)["jarvelin_equal_weight_positions"]
    [1, 2, 3, 4, 5, 6]
    """
    from .._validation import check_log_base

    b = check_log_base(log_base)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a whole number >= 1, got {n!r}")
    positions = np.arange(1, int(n) + 1)
    std = DISCOUNTS["standard"].func(positions, b)
    jar = DISCOUNTS["jarvelin"].func(positions, b)
    grades = np.arange(0, 6, dtype=np.float64)
    lin, exp = GAINS["linear"].func(grades), GAINS["exponential"].func(grades)
    return {
        "same_weight_positions": positions[np.isclose(std, jar, rtol=1e-12, atol=0)].tolist(),
        "jarvelin_equal_weight_positions": positions[np.isclose(jar, jar[0], rtol=1e-12, atol=0)].tolist(),
        "same_gain_grades": [int(g) for g in grades[lin == exp]],
    }
