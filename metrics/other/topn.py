"""Top-N recommendation metrics of document 002: precision, recall, F1, AP/MAP, HR, ARHR, MRR, NDCG.

Every function takes a *recommended list* ``R(u)`` (item ids in ranked order,
position 1 first) and the user's *test items* ``T(u)`` (the items the user
actually adopted in the test set, in any order).  Only the first ``n`` items of
``R(u)`` count (``n=None``: the whole list).  Item ids are strings or whole
numbers; a list holding the same item twice is rejected, since a set
intersection ``|R(u) ∩ T(u)|`` would silently drop the repeat.

Over several users, document 002 *pools* the counts (formulas 3 and 4)::

    Recall@N    = Σ_u |R(u) ∩ T(u)| / Σ_u |T(u)|
    Precision@N = Σ_u |R(u) ∩ T(u)| / Σ_u |R(u)|

which is not the mean of the per-user values: users with more test items (or
longer lists) weigh more.  :func:`summary` gives both.

HR and ARHR (formulas 8 and 9) come from leave-one-out evaluation, where each
user has exactly one test item, so "hits" is both the number of users with a hit
and the number of test items found.  With several test items per user the two
readings differ; :data:`HIT_RATES` and :data:`ARHR_MODES` name both, and with
one test item per user every choice gives document 002's value.

The choices a page offers live in small registries (:data:`PRECISION_DENOMINATORS`,
:data:`AP_DENOMINATORS`, :data:`HIT_RATES`, :data:`ARHR_MODES`) holding name,
LaTeX and help, and the numbers are computed from the same entries.
"""
from __future__ import annotations

import math
import numbers
import unicodedata
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from .._numbers import safe_divide
from .._validation import check_choice, check_k, describe
from ..ndcg import ndcg as _ndcg
from ..parse import ParseError, split_tokens
from ..registry import (
    DISCOUNTS,
    Choice,  # func: the per-user counts the choice needs -> a number
)

__all__ = [
    "PRECISION_DENOMINATORS",
    "AP_DENOMINATORS",
    "HIT_RATES",
    "ARHR_MODES",
    "as_items",
    "as_runs",
    "hits",
    "precision_at_n",
    "recall_at_n",
    "f1_score",
    "f1_at_n",
    "average_precision",
    "ap_breakdown",
    "reciprocal_rank",
    "first_hit",
    "loo_ndcg",
    "binary_ndcg",
    "per_user",
    "summary",
    "RunsParseError",
    "parse_runs",
    "format_runs",
]


# ---------------------------------------------------------------------------
# registries
# ---------------------------------------------------------------------------

PRECISION_DENOMINATORS: dict[str, Choice] = {
    "list": Choice(
                "list",
                "Length of the list |R(u)|",
                "Divide by the number of items actually recommended (at most N), as document 002's formula (4).",
                latex="|R(u)|",
                func=lambda n_list, n: n_list,
            ),
    "n": Choice(
             "n",
             "The cutoff N",
             "Divide by N even when fewer than N items were recommended (trec_eval P_N): a short list is penalised.",
             latex="N",
             func=lambda n_list, n: n,
         ),
}

AP_DENOMINATORS: dict[str, Choice] = {
    "min_n_relevant": Choice(
                          "min_n_relevant",
                          "min(N, |T(u)|)",
                          "Document 002's formula (6): a user with more test items than N can still reach AP = 1.",
                          latex="\\min\\{N, |T(u)|\\}",
                          func=lambda n, n_relevant, n_hits: min(n, n_relevant),
                      ),
    "relevant": Choice(
                    "relevant",
                    "|T(u)|",
                    "All test items, found or not (trec_eval map / map_cut_N, scikit-learn average_precision_score).",
                    latex="|T(u)|",
                    func=lambda n, n_relevant, n_hits: n_relevant,
                ),
    "hits": Choice(
                "hits",
                "Number of hits",
                "Only the items that were found: the mean of the precisions at the hits; missed items cost nothing.",
                latex="|R_N(u) \\cap T(u)|",
                func=lambda n, n_relevant, n_hits: n_hits,
            ),
}

HIT_RATES: dict[str, Choice] = {
    "users": Choice(
                 "users",
                 "Users with a hit",
                 "hits = number of users with at least one test item in their top N "
        "(formula 8 read per user; ranx hit_rate, trec_eval success_N).",
                 latex="\\frac{|\\{u : R_N(u) \\cap T(u) \\neq \\emptyset\\}|}{|U|}",
                 func=lambda n_hit_users, n_hits, n_users, n_test: n_hit_users / n_users,
             ),
    "items": Choice(
                 "items",
                 "Test items found",
                 "hits = test items found, divided by all test items (the same as pooled Recall@N).",
                 latex="\\frac{\\sum_{u} |R_N(u) \\cap T(u)|}{\\sum_{u} |T(u)|}",
                 func=lambda n_hit_users, n_hits, n_users, n_test: 0.0 if n_test == 0 else n_hits / n_test,
             ),
}

ARHR_MODES: dict[str, Choice] = {
    "first": Choice(
                 "first",
                 "First hit per user",
                 "Each user counts once, at the position of their first hit (= MRR@N); at most 1.",
                 latex="\\frac{1}{|U|} \\sum_{u} \\frac{1}{pos_{u}}",
                 func=lambda recips: recips[:1],
             ),
    "all": Choice(
               "all",
               "Every hit",
               "Formula (9) taken literally: every hit adds 1/pos; with several test items per user it can exceed 1.",
               latex="\\frac{1}{|U|} \\sum_{u} \\sum_{i \\in \\mathrm{hits}(u)} \\frac{1}{pos_{i}}",
               func=lambda recips: recips,
           ),
}


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------

def _as_item(value, name: str, position: int):
    where = f"{name} at position {position}"
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{where} is the boolean {value!r}; give item ids as text or whole numbers")
    if isinstance(value, str):
        if not value.strip():
            raise ValueError(f"{where} is an empty item id; give item ids as text or whole numbers")
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    raise ValueError(f"{where} is {describe(value)}; give item ids as text or whole numbers")


def as_items(values, *, name: str = "recommended", allow_empty: bool = True) -> list:
    """Validate a list of item ids (text or whole numbers), each at most once.

    A repeated item is refused because document 002's formulas count ``|R(u) ∩ T(u)|`` with sets:
    a repeat would silently vanish from the intersection but not from ``|R(u)|``.

    Parameters
    ----------
    values : sequence of str or int
        Item ids in order: non-blank strings or whole numbers (numpy integers become int).
        Refused: booleans, floats, blank strings, a string or mapping instead of a list.
    name : str, default "recommended"
        What the list is called in error messages.
    allow_empty : bool, default True
        Accept an empty list.

    Returns
    -------
    list
        The ids, in order.

    Raises
    ------
    ValueError
        Naming the first bad or repeated id and its 1-based position.

    Examples
    --------
    >>> as_items(["A", "B", 7])
    ['A', 'B', 7]
    >>> as_items(["A", "B", "A"])
    Traceback (most recent call last):
    ...
    ValueError: recommended at position 3 is 'A', which already appears at position 1; each item may appear only once
    """
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise ValueError(f"{name} must be a list of item ids, got {type(values).__name__} {describe(values)}")
    if isinstance(values, np.ndarray) and values.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {values.shape}")
    items = [_as_item(v, name, i) for i, v in enumerate(values, start=1)]
    if not items and not allow_empty:
        raise ValueError(f"{name} is empty; give at least one item")
    seen: dict = {}
    for i, item in enumerate(items, start=1):
        if item in seen:
            raise ValueError(
                f"{name} at position {i} is {describe(item)}, which already appears at position {seen[item]}; "
                "each item may appear only once"
            )
        seen[item] = i
    return items


def _check_n(n) -> int | None:
    return check_k(n, name="N")


def as_runs(runs) -> list[tuple[str, list, list]]:
    """Validate several users' ``(recommended, test items)``: a mapping user -> pair, or a list of pairs.

    Returns ``(user, recommended, test_items)`` triples; users given as a list
    are named ``u1, u2, ...``.

    Parameters
    ----------
    runs : mapping or sequence
        ``{user: (recommended, test_items)}``, or a list of ``(recommended, test_items)`` pairs; each
        side is validated by :func:`as_items`.  Not empty.

    Returns
    -------
    list of tuple
        ``(user, recommended, test_items)``, users as text.

    Raises
    ------
    ValueError
        If ``runs`` is empty or not a mapping/list, a user's value is not a pair, or a list is invalid.

    Examples
    --------
    >>> as_runs({"alice": (["A", "B"], ["B"])})
    [('alice', ['A', 'B'], ['B'])]
    >>> as_runs([(["A"], ["A"]), (["B", "C"], ["C"])])[1]
    ('u2', ['B', 'C'], ['C'])
    """
    if isinstance(runs, Mapping):
        pairs = [(str(u), v) for u, v in runs.items()]
    elif isinstance(runs, (str, bytes)) or not isinstance(runs, Iterable):
        raise ValueError(f"runs must map each user to (recommended, test items), got {type(runs).__name__}")
    else:
        pairs = [(f"u{i}", v) for i, v in enumerate(runs, start=1)]
    if not pairs:
        raise ValueError("runs is empty; give at least one user")
    out = []
    for user, pair in pairs:
        if isinstance(pair, (str, bytes, Mapping)) or not isinstance(pair, Iterable):
            raise ValueError(f"user {user!r} must have a pair (recommended, test items), got {describe(pair)}")
        pair = list(pair)
        if len(pair) != 2:
            raise ValueError(f"user {user!r} must have a pair (recommended, test items), got {len(pair)} parts")
        out.append((user, as_items(pair[0], name=f"recommended of user {user!r}"),
                    as_items(pair[1], name=f"test items of user {user!r}")))
    return out


def _prepare(recommended, relevant, n) -> tuple[list, set, int | None]:
    n = _check_n(n)
    rec = as_items(recommended, name="recommended")
    rel = set(as_items(relevant, name="relevant"))
    return (rec if n is None else rec[:n]), rel, n


# ---------------------------------------------------------------------------
# one list
# ---------------------------------------------------------------------------

def hits(recommended, relevant, *, n=None) -> np.ndarray:
    """``rel(k)`` of document 002: 1.0 where the k-th recommended item is a test item, else 0.0.

    Every top-N metric below is built from these flags: precision counts them, AP weights them by
    the precision at their position, NDCG discounts them.

    Parameters
    ----------
    recommended : sequence of item ids
        The recommended list R(u), position 1 first.
    relevant : sequence of item ids
        The test items T(u), any order.
    n : int >= 1, optional
        Cutoff N.  Default ``None``: the whole list.

    Returns
    -------
    numpy.ndarray of float64
        One flag per position of the (cut) list.

    Raises
    ------
    ValueError
        If an id is invalid or repeated, or ``n`` is not a whole number >= 1.

    Examples
    --------
    A is a test item, B is not, C is; D is past N = 3:

    >>> hits(["A", "B", "C", "D"], ["C", "A", "Z"], n=3).tolist()
    [1.0, 0.0, 1.0]
    """
    top, rel, _ = _prepare(recommended, relevant, n)
    return np.array([1.0 if item in rel else 0.0 for item in top], dtype=np.float64)




def precision_at_n(recommended, relevant, *, n=None, denominator="list") -> float:
    """Precision@N of one list: hits in the top N over |R(u)| (or over N).

    Parameters
    ----------
    recommended : sequence of item ids
        The recommended list R(u), position 1 first.
    relevant : sequence of item ids
        The test items T(u).
    n : int >= 1, optional
        Cutoff N; ``None`` takes the whole list.
    denominator : {"list", "n"}
        ``"list"`` divides by the number of items recommended in the top N
        (document 002); ``"n"`` always divides by N (trec_eval ``P_N``).
        See :data:`PRECISION_DENOMINATORS`.

    Returns
    -------
    float
        Hits / denominator, in [0, 1]; 0.0 for an empty list.

    Raises
    ------
    ValueError
        If an id is invalid or repeated, ``n`` is not a whole number >= 1, or ``denominator`` is unknown.

    See Also
    --------
    recall_at_n, f1_at_n, summary : the other list metrics and the pooled means over users.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``m_P.c`` (P_N divides by N).

    Examples
    --------
    Top 3 of A B C D is A B C; A and C are test items: 2 hits / 3 items.

    >>> round(precision_at_n(["A", "B", "C", "D"], ["A", "C", "Z"], n=3), 4)
    0.6667

    Only two items recommended but N = 5: 1/2 by the list, 1/5 as trec_eval.

    >>> precision_at_n(["A", "B"], ["A"], n=5), precision_at_n(["A", "B"], ["A"], n=5, denominator="n")
    (0.5, 0.2)
    """
    top, rel, k = _prepare(recommended, relevant, n)
    d = check_choice(denominator, PRECISION_DENOMINATORS, name="precision denominator")
    found = sum(1 for item in top if item in rel)
    return safe_divide(found, d.func(len(top), len(top) if k is None else k))


def recall_at_n(recommended, relevant, *, n=None) -> float:
    """Recall@N of one list: test items found in the top N over all test items |T(u)|.

    0.0 when the user has no test item (as trec_eval).

    Parameters
    ----------
    recommended : sequence of item ids
        The recommended list R(u), position 1 first.
    relevant : sequence of item ids
        The test items T(u).
    n : int >= 1, optional
        Cutoff N.  Default ``None``: the whole list.

    Returns
    -------
    float
        Test items found in the top N / |T(u)|, in [0, 1].

    Raises
    ------
    ValueError
        If an id is invalid or repeated, or ``n`` is not a whole number >= 1.

    Examples
    --------
    A and C of {A, C, Z} are in the top 3: 2/3.  D is at position 4, past N = 3: 0/1.

    >>> round(recall_at_n(["A", "B", "C", "D"], ["A", "C", "Z"], n=3), 4)
    0.6667
    >>> recall_at_n(["A", "B", "C", "D"], ["D"], n=3)
    0.0
    """
    top, rel, _ = _prepare(recommended, relevant, n)
    return safe_divide(sum(1 for item in top if item in rel), len(rel))


def f1_score(precision, recall) -> float:
    """Harmonic mean 2PR / (P + R) of document 002's formula (5); 0.0 when P = R = 0.

    The harmonic mean is pulled towards the smaller of the two, so a list cannot score well by
    maximising precision or recall alone.

    Parameters
    ----------
    precision : float in [0, 1]
        P, e.g. from :func:`precision_at_n`.
    recall : float in [0, 1]
        R, e.g. from :func:`recall_at_n`.

    Returns
    -------
    float
        2PR / (P + R).

    Raises
    ------
    ValueError
        If either is not a real number between 0 and 1 (booleans refused).

    Examples
    --------
    P = 0.5, R = 1: 2 × 0.5 × 1 / 1.5 = 2/3.

    >>> f1_score(0.5, 1.0)
    0.6666666666666666
    >>> f1_score(0, 0)
    0.0
    """
    values = []
    for name, v in (("precision", precision), ("recall", recall)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real) or not 0 <= float(v) <= 1:
            raise ValueError(f"{name} must be a number between 0 and 1, got {describe(v)}")
        values.append(float(v))
    p, r = values
    return safe_divide(2 * p * r, p + r)


def f1_at_n(recommended, relevant, *, n=None, denominator="list") -> float:
    """F1 of :func:`precision_at_n` and :func:`recall_at_n` for one list.

    Parameters
    ----------
    recommended, relevant, n, denominator
        As for :func:`precision_at_n` (recall ignores ``denominator``).

    Returns
    -------
    float
        :func:`f1_score` of the list's precision and recall.

    Raises
    ------
    ValueError
        As for :func:`precision_at_n`.

    Examples
    --------
    P = 2/3 and R = 2/3 give F1 = 2/3:

    >>> round(f1_at_n(["A", "B", "C", "D"], ["A", "C", "Z"], n=3), 4)
    0.6667
    """
    return f1_score(precision_at_n(recommended, relevant, n=n, denominator=denominator),
                    recall_at_n(recommended, relevant, n=n))


def ap_breakdown(recommended, relevant, *, n=None) -> pd.DataFrame:
    """The working of AP@N, one row per position k <= N: the source of the step-by-step table.

    Columns: ``position`` k, ``item``, ``rel`` = rel(k), ``hits`` so far,
    ``precision`` = Precision@k = hits/k, ``term`` = Precision@k × rel(k).
    AP@N is the sum of ``term`` over the denominator (:func:`average_precision`).

    Parameters
    ----------
    recommended : sequence of item ids
        The recommended list R(u), position 1 first.
    relevant : sequence of item ids
        The test items T(u).
    n : int >= 1, optional
        Cutoff N.  Default ``None``: the whole list.

    Returns
    -------
    pandas.DataFrame
        Columns ``position``, ``item``, ``rel``, ``hits``, ``precision``, ``term``; no rows for an
        empty list.

    Raises
    ------
    ValueError
        If an id is invalid or repeated, or ``n`` is not a whole number >= 1.

    Examples
    --------
    A B C against {A, C}: hits at 1 and 3, terms 1/1 and 2/3:

    >>> t = ap_breakdown(["A", "B", "C"], ["A", "C"])
    >>> t[["position", "rel", "hits", "term"]].values.tolist()
    [[1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 1.0, 0.0], [3.0, 1.0, 2.0, 0.6666666666666666]]
    """
    top, rel, _ = _prepare(recommended, relevant, n)
    flags = np.array([1.0 if item in rel else 0.0 for item in top], dtype=np.float64)
    positions = np.arange(1, len(top) + 1, dtype=np.float64)
    running = np.cumsum(flags)
    precision = running / positions if len(top) else np.zeros(0)
    return pd.DataFrame({
        "position": positions,
        "item": pd.Series(top, dtype=object),
        "rel": flags,
        "hits": running,
        "precision": precision,
        "term": precision * flags,
    })


def average_precision(recommended, relevant, *, n=None, denominator="min_n_relevant") -> float:
    """AP@N = Σ_{k<=N} Precision@k × rel(k) / denominator (document 002, formula 6).

    Parameters
    ----------
    recommended, relevant : sequences of item ids
        R(u) in ranked order, and the test items T(u).
    n : int >= 1, optional
        Cutoff N; ``None`` takes the whole list (and ``N`` in the denominator is its length).
    denominator : {"min_n_relevant", "relevant", "hits"}
        ``min(N, |T(u)|)`` as document 002; ``|T(u)|`` as trec_eval and
        scikit-learn; the number of hits.  See :data:`AP_DENOMINATORS`.
        AP is 0.0 when the denominator is 0.

    Returns
    -------
    float
        AP@N in [0, 1].

    Raises
    ------
    ValueError
        If an id is invalid or repeated, ``n`` is not a whole number >= 1, or ``denominator`` is unknown.

    See Also
    --------
    ap_breakdown : the terms of the sum, position by position.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``m_map.c`` (divides by the number of relevant documents).
    .. [2] scikit-learn, ``sklearn/metrics/_ranking.py``: ``average_precision_score``.

    Examples
    --------
    R = A B C D E, T = {A, C, X}.  Hits at 1 and 3: Precision@1 = 1, Precision@3 = 2/3,
    sum = 5/3.  With N = 2 only position 1 counts: sum = 1.

    >>> rec, test = ["A", "B", "C", "D", "E"], ["A", "C", "X"]
    >>> round(average_precision(rec, test, n=5), 4)               # (5/3) / min(5, 3)
    0.5556
    >>> round(average_precision(rec, test, n=2), 4)               # 1 / min(2, 3)
    0.5
    >>> round(average_precision(rec, test, n=2, denominator="relevant"), 4)  # 1 / 3
    0.3333
    >>> average_precision(rec, test, n=2, denominator="hits")     # 1 / 1
    1.0
    """
    d = check_choice(denominator, AP_DENOMINATORS, name="AP denominator")
    top, rel, k = _prepare(recommended, relevant, n)
    return _ap_value(_positions(top, rel), len(top) if k is None else k, len(rel), d)


def _positions(top: list, relset: set) -> list[int]:
    """1-based positions of the hits in an already cut, validated list."""
    return [i for i, item in enumerate(top, start=1) if item in relset]


def _ap_value(positions: list[int], cutoff: int, n_relevant: int, d: Choice) -> float:
    # the i-th hit at position pos_i contributes Precision@pos_i × 1 = i / pos_i (the terms of ap_breakdown)
    total = math.fsum(i / pos for i, pos in enumerate(positions, start=1))
    return safe_divide(total, d.func(cutoff, n_relevant, len(positions)))


def first_hit(recommended, relevant, *, n=None) -> int | None:
    """1-based position of the first test item in the top N, or None if there is none.

    Parameters
    ----------
    recommended : sequence of item ids
        The recommended list R(u), position 1 first.
    relevant : sequence of item ids
        The test items T(u).
    n : int >= 1, optional
        Cutoff N.  Default ``None``: the whole list.

    Returns
    -------
    int or None
        The position (1 = top), or None without a hit.

    Raises
    ------
    ValueError
        If an id is invalid or repeated, or ``n`` is not a whole number >= 1.

    Examples
    --------
    B (position 2) comes before C: 2.  With N = 2, C at position 3 is not counted:

    >>> first_hit(["A", "B", "C"], ["C", "B"])
    2
    >>> first_hit(["A", "B", "C"], ["C"], n=2) is None
    True
    """
    top, rel, _ = _prepare(recommended, relevant, n)
    return next((i for i, item in enumerate(top, start=1) if item in rel), None)


def reciprocal_rank(recommended, relevant, *, n=None) -> float:
    """1 / (position of the first test item), 0.0 if none is in the top N (trec_eval recip_rank).

    The mean of this over users is MRR.

    Parameters
    ----------
    recommended : sequence of item ids
        The recommended list R(u), position 1 first.
    relevant : sequence of item ids
        The test items T(u).
    n : int >= 1, optional
        Cutoff N.  Default ``None``: the whole list.

    Returns
    -------
    float
        In (0, 1], or 0.0 without a hit.

    Raises
    ------
    ValueError
        If an id is invalid or repeated, or ``n`` is not a whole number >= 1.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``m_recip_rank.c``.

    Examples
    --------
    The first test item, B, is at position 2: 1/2.  No test item at all: 0.

    >>> reciprocal_rank(["A", "B", "C"], ["C", "B"])
    0.5
    >>> reciprocal_rank(["A", "B", "C"], ["Z"])
    0.0
    """
    pos = first_hit(recommended, relevant, n=n)
    return 0.0 if pos is None else 1.0 / pos


def loo_ndcg(recommended, held_out, *, n=None) -> tuple[float, int | None]:
    """Leave-one-out NDCG@N of document 002, formula (15): log 2 / log(j + 1).

    The single held-out item has gain 1 and its ideal position is 1, so
    IDCG = 1/log2(2) = 1 and NDCG = 1/log2(j + 1) where j is its position in the
    top N; 0 if it is not there.  Returns ``(ndcg, j)`` with ``j`` None when missed.
    The divisor log2(j + 1) is the standard discount of :mod:`metrics.registry`.

    Parameters
    ----------
    recommended : sequence of item ids
        The recommended list R(u), position 1 first.
    held_out : str or int
        The one item left out of the user's training data.
    n : int >= 1, optional
        Cutoff N.  Default ``None``: the whole list.

    Returns
    -------
    tuple of (float, int or None)
        ``(ndcg, j)``: 1/log2(j + 1) and the held-out item's position, or ``(0.0, None)``.

    Raises
    ------
    ValueError
        If an id is invalid or repeated, or ``n`` is not a whole number >= 1.

    See Also
    --------
    binary_ndcg : the same with several test items.

    Examples
    --------
    >>> loo_ndcg(["A", "B", "C"], "A")
    (1.0, 1)
    >>> value, j = loo_ndcg(["A", "B", "C"], "C")   # log 2 / log 4 = 1/2
    >>> value, j
    (0.5, 3)
    >>> loo_ndcg(["A", "B", "C"], "C", n=2)
    (0.0, None)
    """
    item = _as_item(held_out, "held_out", 1)
    j = first_hit(recommended, [item], n=n)
    return _loo_value(j), j


def _loo_value(j: int | None) -> float:
    if j is None:
        return 0.0
    return 1.0 / float(DISCOUNTS["standard"].func(np.array([j]), 2.0)[0])


def binary_ndcg(recommended, relevant, *, n=None) -> float:
    """NDCG@N with gain rel(k) ∈ {0, 1}; the ideal list puts all |T(u)| test items first.

    This is formula (14) with binary gains for several test items; with one test
    item it equals :func:`loo_ndcg`.  Computed by :func:`metrics.ndcg.ndcg` with
    the test items as the judged pool, so a test item missing from the list still
    counts in IDCG.

    Parameters
    ----------
    recommended : sequence of item ids
        The recommended list R(u), position 1 first.
    relevant : sequence of item ids
        The test items T(u).
    n : int >= 1, optional
        Cutoff N for DCG and IDCG.  Default ``None``: the whole list.

    Returns
    -------
    float
        In [0, 1]; 0.0 when there is no test item or no recommended item.

    Raises
    ------
    ValueError
        If an id is invalid or repeated, or ``n`` is not a whole number >= 1.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR techniques",
       ACM TOIS 20(4), 422-446, 2002.

    Examples
    --------
    T = {A, C}: DCG = 1 + 1/log2(4) = 1.5, IDCG = 1 + 1/log2(3) = 1.6309, NDCG = 1.5 / 1.6309:

    >>> round(binary_ndcg(["A", "B", "C"], ["A", "C"]), 4)
    0.9197

    T = {A, C, Z}: Z was never recommended but still counts in IDCG
    = 1 + 0.6309 + 0.5 = 2.1309, so NDCG = 1.5 / 2.1309:

    >>> round(binary_ndcg(["A", "B", "C"], ["A", "C", "Z"]), 4)
    0.7039
    """
    top, rel, k = _prepare(recommended, relevant, n)
    return _binary_ndcg(_positions(top, rel), len(top), len(rel), k)


def _binary_ndcg(positions: list[int], n_list: int, n_relevant: int, k: int | None) -> float:
    if not n_relevant or not n_list:
        return 0.0
    flags = [0.0] * n_list
    for j in positions:
        flags[j - 1] = 1.0
    return _ndcg(flags, k=k, pool=[1.0] * n_relevant)


# ---------------------------------------------------------------------------
# several users
# ---------------------------------------------------------------------------

def per_user(runs, *, n=None, precision_denominator="list", ap_denominator="min_n_relevant") -> pd.DataFrame:
    """One row per user: the counts and every per-user metric at cutoff N.

    Columns: ``user``, ``recommended`` (|R_N(u)|, items in the top N), ``relevant``
    (|T(u)|), ``hits`` (|R_N(u) ∩ T(u)|), ``precision``, ``recall``, ``f1``,
    ``ap``, ``hit`` (bool), ``first_hit`` (position, NaN if none), ``rr``
    (1/first_hit), ``rr_all`` (Σ 1/pos over every hit), ``hit_positions``
    (list), ``ndcg`` (binary NDCG, :func:`binary_ndcg`), ``loo_ndcg`` (formula 15,
    1/log2(j + 1) at the first hit j: with one test item per user, the held-out
    item's position; 0 without a hit).

    Parameters
    ----------
    runs : mapping or sequence
        Users' ``(recommended, test_items)``, see :func:`as_runs`.
    n : int >= 1, optional
        Cutoff N for every user.  Default ``None``: each whole list.
    precision_denominator : {"list", "n"}, default "list"
        See :func:`precision_at_n`.
    ap_denominator : {"min_n_relevant", "relevant", "hits"}, default "min_n_relevant"
        See :func:`average_precision`.

    Returns
    -------
    pandas.DataFrame
        One row per user, columns as above.

    Raises
    ------
    ValueError
        As for :func:`as_runs`, or for an unknown denominator or invalid ``n``.

    Examples
    --------
    User a finds B at position 2 (P = 1/2, R = 1/1, RR = 1/2); user b finds nothing:

    >>> t = per_user({"a": (["A", "B"], ["B"]), "b": (["C", "D"], ["X"])}, n=2)
    >>> t[["user", "hits", "precision", "recall", "rr"]].values.tolist()
    [['a', 1, 0.5, 1.0, 0.5], ['b', 0, 0.0, 0.0, 0.0]]
    """
    k = _check_n(n)
    pd_rule = check_choice(precision_denominator, PRECISION_DENOMINATORS, name="precision denominator")
    ap_rule = check_choice(ap_denominator, AP_DENOMINATORS, name="AP denominator")
    rows = []
    for user, rec, rel in as_runs(runs):  # validated once here; the values below reuse the same helpers
        top = rec if k is None else rec[:k]
        relset = set(rel)
        positions = _positions(top, relset)
        cutoff = len(top) if k is None else k
        p = safe_divide(len(positions), pd_rule.func(len(top), cutoff))
        r = safe_divide(len(positions), len(relset))
        rows.append({
            "user": user,
            "recommended": len(top),
            "relevant": len(relset),
            "hits": len(positions),
            "precision": p,
            "recall": r,
            "f1": f1_score(p, r),
            "ap": _ap_value(positions, cutoff, len(relset), ap_rule),
            "hit": bool(positions),
            "first_hit": float(positions[0]) if positions else math.nan,
            "rr": 1.0 / positions[0] if positions else 0.0,
            "rr_all": math.fsum(1.0 / j for j in positions),
            "hit_positions": positions,
            "ndcg": _binary_ndcg(positions, len(top), len(relset), k),
            "loo_ndcg": _loo_value(positions[0] if positions else None),
        })
    return pd.DataFrame(rows)


def summary(runs, *, n=None, precision_denominator="list", ap_denominator="min_n_relevant",
            hit_rate="users", arhr="first") -> dict:
    """Every over-users number of document 002 at cutoff N, pooled and averaged.

    Keys: ``users`` |U|; ``hits`` Σ|R∩T|; ``recommended`` Σ|R|; ``relevant`` Σ|T|;
    ``precision``, ``recall``, ``f1`` pooled as formulas (3)-(5) (F1 of the pooled P and R);
    ``precision_mean``, ``recall_mean``, ``f1_mean`` the per-user averages;
    ``map`` (formula 7); ``hr`` (formula 8, per ``hit_rate``); ``arhr`` (formula 9, per ``arhr``);
    ``mrr``; ``ndcg_mean`` (binary NDCG); ``loo_ndcg_mean`` (formula 15 averaged).

    Alice: R = A B C, T = {A}; Bob: R = D E F, T = {F, G, H, I}; N = 3.
    Pooled recall = (1 + 1) / (1 + 4) = 0.4, mean recall = (1 + 1/4) / 2 = 0.625.
    HR = 2/2 users; ARHR = (1/1 + 1/3) / 2 = 0.6667.

    Parameters
    ----------
    runs : mapping or sequence
        Users' ``(recommended, test_items)``, see :func:`as_runs`.
    n : int >= 1, optional
        Cutoff N.  Default ``None``: each whole list.
    precision_denominator : {"list", "n"}, default "list"
        See :func:`precision_at_n`; pooled precision divides by Σ|R| or by |U| × N.
    ap_denominator : {"min_n_relevant", "relevant", "hits"}, default "min_n_relevant"
        See :func:`average_precision`.
    hit_rate : {"users", "items"}, default "users"
        See :data:`HIT_RATES`.
    arhr : {"first", "all"}, default "first"
        See :data:`ARHR_MODES`.

    Returns
    -------
    dict
        The keys above, plus ``hit_users`` and ``precision_denominator`` (the pooled denominator).

    Raises
    ------
    ValueError
        As for :func:`per_user`, or for an unknown hit-rate or ARHR mode.

    References
    ----------
    .. [1] M. Deshpande and G. Karypis, "Item-based top-N recommendation algorithms", ACM TOIS
       22(1), 143-177, 2004 (HR and ARHR).

    Examples
    --------
    >>> s = summary({"alice": (["A", "B", "C"], ["A"]), "bob": (["D", "E", "F"], ["F", "G", "H", "I"])}, n=3)
    >>> s["recall"], s["recall_mean"], s["hr"], round(s["arhr"], 4)
    (0.4, 0.625, 1.0, 0.6667)
    """
    table = per_user(runs, n=n, precision_denominator=precision_denominator, ap_denominator=ap_denominator)
    hr_rule = check_choice(hit_rate, HIT_RATES, name="hit rate")
    arhr_rule = check_choice(arhr, ARHR_MODES, name="ARHR mode")
    k = _check_n(n)
    users = len(table)
    total_hits = int(table["hits"].sum())
    total_rec = int(table["recommended"].sum())
    total_rel = int(table["relevant"].sum())
    if precision_denominator == "n":
        pooled_den = users * k if k is not None else total_rec
    else:
        pooled_den = total_rec
    p = safe_divide(total_hits, pooled_den)
    r = safe_divide(total_hits, total_rel)
    recips = [math.fsum(arhr_rule.func([1.0 / j for j in pos])) for pos in table["hit_positions"]]
    return {
        "users": users,
        "hits": total_hits,
        "hit_users": int(table["hit"].sum()),
        "recommended": total_rec,
        "relevant": total_rel,
        "precision_denominator": pooled_den,
        "precision": p,
        "recall": r,
        "f1": f1_score(p, r),
        "precision_mean": math.fsum(table["precision"]) / users,
        "recall_mean": math.fsum(table["recall"]) / users,
        "f1_mean": math.fsum(table["f1"]) / users,
        "map": math.fsum(table["ap"]) / users,
        "hr": hr_rule.func(int(table["hit"].sum()), total_hits, users, total_rel),
        "arhr": math.fsum(recips) / users,
        "mrr": math.fsum(table["rr"]) / users,
        "ndcg_mean": math.fsum(table["ndcg"]) / users,
        "loo_ndcg_mean": math.fsum(table["loo_ndcg"]) / users,
    }


# ---------------------------------------------------------------------------
# typed input
# ---------------------------------------------------------------------------

class RunsParseError(ParseError):
    """A line of typed runs that cannot be read.

    ``kind`` says why ("empty", "missing_bar", "extra_bar", "duplicate_item",
    "duplicate_user"), ``line`` is the 1-based line, ``token`` the offending
    text, ``position`` its 1-based position in its list, ``side``
    ("recommended" / "test") and ``first`` (where it appeared before) complete
    the picture, so a UI can translate the message.
    """

    def __init__(self, message: str, *, kind: str, line: int, token: str = "", position: int = 0,
                 side: str = "", first: int = 0):
        super().__init__(message, token=token, position=position, kind=kind)
        self.line = line
        self.side = side
        self.first = first


def parse_runs(text: str) -> dict[str, tuple[list[str], list[str]]]:
    """Read users typed one per line as ``name: recommended items | test items``.

    Items are separated by spaces, commas, tabs (full-width forms are folded);
    the ``name:`` prefix is optional (lines without one are named ``u<line>``);
    empty lines and lines starting with ``#`` are skipped.  Nothing is evaluated.

    Parameters
    ----------
    text : str
        One user per line.

    Returns
    -------
    dict of str to (list of str, list of str)
        User -> (recommended, test items), in the order typed.

    Raises
    ------
    RunsParseError
        (a ValueError) naming the line and why: "empty", "missing_bar", "extra_bar",
        "duplicate_item", "duplicate_user".
    ValueError
        If ``text`` is not a string.

    See Also
    --------
    format_runs : the inverse.

    Examples
    --------
    The second line has no name and becomes ``u2``:

    >>> parse_runs("alice: A B C | C X\\nD E | D")
    {'alice': (['A', 'B', 'C'], ['C', 'X']), 'u2': (['D', 'E'], ['D'])}
    >>> parse_runs("alice: A B A | A")
    Traceback (most recent call last):
    ...
    metrics.other.topn.RunsParseError: line 1: 'A' appears twice in the recommended list (positions 1 and 3)
    """
    if not isinstance(text, str):
        raise ValueError(f"expected text, got {type(text).__name__}")
    runs: dict[str, tuple[list[str], list[str]]] = {}
    user_line: dict[str, int] = {}
    for number, raw in enumerate(unicodedata.normalize("NFKC", text).splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        bars = line.count("|")
        if bars == 0:
            raise RunsParseError(f"line {number} has no '|' between the recommended list and the test items",
                                 kind="missing_bar", line=number, token=line[:20])
        if bars > 1:
            raise RunsParseError(f"line {number} has {bars} '|'; "
                                 "use one, between the recommended list and the test items",
                                 kind="extra_bar", line=number, token=line[:20])
        head, tail = line.split("|")
        name = ""
        if ":" in head:
            name, head = head.split(":", 1)
            name = name.strip()
        name = name or f"u{number}"
        if name in user_line:
            raise RunsParseError(f"line {number}: user '{name[:20]}' already appears on line {user_line[name]}",
                                 kind="duplicate_user", line=number, token=name[:20], first=user_line[name])
        sides = []
        for side, part in (("recommended", head), ("test", tail)):
            tokens = split_tokens(part)
            seen: dict[str, int] = {}
            for i, tok in enumerate(tokens, start=1):
                if tok in seen:
                    what = "recommended list" if side == "recommended" else "test items"
                    raise RunsParseError(
                        f"line {number}: '{tok[:20]}' appears twice in the {what} (positions {seen[tok]} and {i})",
                        kind="duplicate_item", line=number, token=tok[:20], position=i, side=side, first=seen[tok])
                seen[tok] = i
            sides.append(tokens)
        user_line[name] = number
        runs[name] = (sides[0], sides[1])
    if not runs:
        raise RunsParseError("nothing to read: type one user per line, 'name: recommended | test items'",
                             kind="empty", line=0)
    return runs


def format_runs(runs) -> str:
    """The text :func:`parse_runs` reads back, one user per line.

    Parameters
    ----------
    runs : mapping or sequence
        Users' ``(recommended, test_items)``, see :func:`as_runs`.

    Returns
    -------
    str
        ``user: recommended | test items`` lines joined by newlines.

    Raises
    ------
    ValueError
        As for :func:`as_runs`.

    Examples
    --------
    >>> format_runs({"alice": (["A", "B"], ["B"])})
    'alice: A B | B'
    """
    return "\n".join(f"{user}: {' '.join(map(str, rec))} | {' '.join(map(str, rel))}"
                     for user, rec, rel in as_runs(runs))
