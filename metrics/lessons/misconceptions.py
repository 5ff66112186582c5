"""The ways a student goes wrong computing NDCG by hand: one table (:data:`MISCONCEPTIONS`), like the registry.

Every entry is a :class:`metrics.registry.Choice` whose English ``name`` and ``help`` are written here once
(the other languages translate them by key under ``registry.mistake``) and whose facts say *what the
student does*, as a transformation of the correct calculation, so a student's sheet can be made from it:

* a **formula** entry (``scope`` ``"side"`` or ``"ideal"``) changes one choice of how a side is computed —
  the gain, the discount, the log base, the cutoff (on the DCG side, the ideal side or both), or where the
  ideal ranking comes from and how it is ordered (the ideal side only).  :func:`apply` turns the correct
  :class:`Calculation` into the student's; :meth:`Calculation.values` computes every number of it;
* a **writing** entry (``scope`` ``"term"``, ``"total"``, ``"ndcg"`` or ``"any"``) is about how one number is
  written down from the exact ones: digits cut off instead of rounded, the rounded terms added, NDCG from
  the rounded totals, a percent without its sign, a term past the cutoff, a plain slip.

:func:`metrics.lessons.diagnose.diagnose` looks for the formula entries by applying them (one or two at a
time) to the exercise's formula, and names the first entry at the step where it first shows.

Document 003's ranking (grades 3, 2, 3, 0, 1, 2 and two judged items it did not retrieve, 3 and 0) with the
ideal ranking built from the retrieved list only — the mistake document 004 warns about:

>>> right = Calculation.of(Variant())  # linear gain, standard discount, log2, IDCG from every judged item
>>> (wrong,) = apply("ideal_from_list", right)
>>> v, w = right.values([3, 2, 3, 0, 1, 2], [3, 0]), wrong.values([3, 2, 3, 0, 1, 2], [3, 0])
>>> round(v.idcg, 4), round(w.idcg, 4)  # 3+3/log2 3+3/2+2/log2 5+2/log2 6+1/log2 7 vs ideal 3,3,2,2,1,0
(8.3841, 7.141)
>>> MISCONCEPTIONS["ideal_from_list"].name
'IDCG from the retrieved list only: the judged items it missed are left out'
"""
from __future__ import annotations

import heapq
import math
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from .._validation import as_grades, check_choice, check_k
from ..ndcg import discounted_terms, ideal_ranking
from ..registry import DISCOUNTS, GAINS, Choice
from ..variant import Variant

__all__ = [
    "MISCONCEPTIONS",
    "Misconception",
    "FORMULA_SCOPES",
    "SIDES",
    "LOG_BASES",
    "SIDE_DISCOUNTS",
    "IDEAL_ORDERS",
    "Side",
    "Calculation",
    "Values",
    "ideal_grades",
    "apply",
    "formula_entries",
    "same_as_jarvelin",
    "named_discount",
    "written_orders",
    "MAX_ORDERS",
    "MAX_BLANKS",
]

#: The two sides of NDCG = DCG / IDCG a formula entry can change (or both at once: ``"both"``).
SIDES = ("dcg", "ideal")
#: Formula entries change a side's choice (``"side"``) or the ideal ranking's items and order (``"ideal"``).
FORMULA_SCOPES = ("side", "ideal")
LOG_BASES = (2.0, math.e, 10.0)
#: The named orders of an ideal ranking; a student's may also be any other order of its grades (a tuple of them,
#: :func:`written_orders`).
IDEAL_ORDERS = ("sorted", "as_ranked", "ascending")
#: At most this many orders of an unsorted ideal ranking are tried for its unwritten positions (each one a way
#: the student may have filled them in: IDCG and NDCG are checked against every one).
MAX_ORDERS = 5040
#: With more unwritten positions than this, only the highest-first and the lowest-first filling are tried.
MAX_BLANKS = 12


def _log_i(positions, base: float) -> np.ndarray:
    # log_b(i) is the standard divisor log_b(i + 1) one position early; position 1 (log 1 = 0) is left
    # undiscounted, as people who write rel_1 + sum_{i>=2} rel_i / log(i) do.
    pos = np.asarray(positions, dtype=np.float64)
    return np.where(pos <= 1, 1.0, DISCOUNTS["standard"].func(pos - 1.0, base))


def _undiscounted(positions, base: float) -> np.ndarray:
    return np.ones(np.asarray(positions).shape, dtype=np.float64)


#: The divisors a student may use: the registered discounts, log_b(i) with position 1 undiscounted (the
#: standard divisor one position early; for a base up to 2 the same numbers as Järvelin–Kekäläinen's, and then
#: named so: :func:`named_discount`) and none.
SIDE_DISCOUNTS: dict[str, Choice] = {
    **DISCOUNTS,
    "log_i": Choice("log_i", "log_b(i), position 1 undiscounted",
                    "rel_1 + the sum over i >= 2 of gain / log_b(i). With log base 2 (any base up to 2) these are "
                    "exactly the Järvelin–Kekäläinen divisors max(1, log_b i), and the discount is named so; with "
                    "base e or 10 they differ from position 2 on (log_b 2 < 1 multiplies the gain, where "
                    "Järvelin–Kekäläinen leaves every position up to b undiscounted).",
                    latex="{log} {pos}", func=_log_i),
    "none": Choice("none", "No discount", "Every gain counted in full: cumulative gain, not discounted.",
                   latex="1", func=_undiscounted),
}



def same_as_jarvelin(log_base: float, positions: int) -> bool:
    """Whether ``log_b(i)`` with position 1 undiscounted and Järvelin–Kekäläinen's ``max(1, log_b i)`` give the
    same divisor at every position 1..``positions``.

    Position 1 is undiscounted by both; from position 2 on, ``max(1, log_b i) = log_b i`` exactly when
    ``log_b i >= 1``, that is ``i >= b`` (for b > 1).  So they coincide on any list when 1 < b <= 2 (base 2:
    both divide position 2 by log2 2 = 1) and on a list of one position at any base; with base e or 10
    position 2 differs (ln 2 = 0.693 and log10 2 = 0.301 against 1).

    Parameters
    ----------
    log_base : float
        The logarithm's base (> 0, != 1).
    positions : int
        How many positions the side has.

    Returns
    -------
    bool

    Examples
    --------
    >>> same_as_jarvelin(2.0, 100), same_as_jarvelin(math.e, 6), same_as_jarvelin(10.0, 1)
    (True, False, True)
    """
    return positions <= 1 or 1.0 < float(log_base) <= 2.0


def named_discount(discount: str, log_base: float, positions: int) -> str:
    """The key a side's discount is named by, the same on every page: ``"log_i"`` (log_b(i), position 1
    undiscounted) is named ``"jarvelin"`` where the two give the same divisors (:func:`same_as_jarvelin`) —
    one name for one set of numbers; every other key is its own name.

    Parameters
    ----------
    discount : str
        A key of :data:`SIDE_DISCOUNTS`.
    log_base : float
        The side's log base.
    positions : int
        The side's number of positions (after the cutoff, where it is applied).

    Returns
    -------
    str

    Examples
    --------
    >>> named_discount("log_i", 2.0, 6), named_discount("log_i", 10.0, 6), named_discount("standard", 2.0, 6)
    ('jarvelin', 'log_i', 'standard')
    """
    if discount == "log_i" and same_as_jarvelin(log_base, positions):
        return "jarvelin"
    return discount


@dataclass(frozen=True)
class Side:
    """How one side (the ranked list's DCG, or the ideal ranking's IDCG) is computed.

    ``discount`` is a key of :data:`SIDE_DISCOUNTS`; ``cut`` says whether the cutoff k is applied.
    """

    gain: str = "linear"
    discount: str = "standard"
    log_base: float = 2.0
    cut: bool = True

    def terms(self, grades: np.ndarray, k: int | None) -> np.ndarray:
        top = grades if (k is None or not self.cut) else grades[:k]
        return discounted_terms(top, GAINS[self.gain], SIDE_DISCOUNTS[self.discount], self.log_base)[2]


@dataclass(frozen=True)
class Values:
    """Every number of a hand calculation: the DCG terms, DCG, the ideal terms, IDCG and NDCG (0 when IDCG is 0)."""

    terms: np.ndarray
    dcg: float
    ideal_terms: np.ndarray
    idcg: float
    ndcg: float

    def at(self, step: str, position: int | None = None) -> float:
        """The value of one step (``"term"``, ``"dcg"``, ``"ideal_term"``, ``"idcg"``, ``"ndcg"``); a term at a
        position past the side's end is NaN."""
        if step in ("term", "ideal_term"):
            arr = self.terms if step == "term" else self.ideal_terms
            return float(arr[position - 1]) if position is not None and 1 <= position <= arr.size else math.nan
        return float(getattr(self, step))


def ideal_grades(grades: np.ndarray, unretrieved: np.ndarray, source: str, order) -> np.ndarray:
    """The ideal ranking's grades: from the list (``source="list"``) or every judged item (``"judged"``), sorted
    from the highest down (``order="sorted"``), left as ranked (``"as_ranked"``), sorted up (``"ascending"``) or
    in an order of the student's own (a tuple of the grades, :func:`written_orders`).

    Parameters
    ----------
    grades : numpy.ndarray of float
        The ranked list's grades (already checked).
    unretrieved : numpy.ndarray of float
        The judged items the list missed.
    source : {"list", "judged"}
        Where the ideal ranking's items come from.
    order : {"sorted", "as_ranked", "ascending"} or tuple of float
        How they are put in order (a student's slip may leave them as ranked, sort them upwards or write them
        in any other order: then ``order`` is that order, a permutation of the items' grades).

    Returns
    -------
    numpy.ndarray of float

    Raises
    ------
    ValueError
        For an order given as grades that are not a permutation of the items' grades.

    Examples
    --------
    >>> ideal_grades(np.array([1., 3.]), np.array([2.]), "judged", "sorted").tolist()
    [3.0, 2.0, 1.0]
    >>> ideal_grades(np.array([1., 3.]), np.array([2.]), "list", "ascending").tolist()
    [1.0, 3.0]
    >>> ideal_grades(np.array([1., 3.]), np.array([2.]), "judged", (2.0, 3.0, 1.0)).tolist()
    [2.0, 3.0, 1.0]
    """
    pool = np.r_[grades, unretrieved] if source == "judged" else grades
    if isinstance(order, tuple):
        written = np.asarray(order, dtype=np.float64)
        if written.shape != pool.shape or not np.array_equal(np.sort(written), np.sort(pool)):
            raise ValueError(f"order must be a permutation of the ideal ranking's {pool.size} grades, got "
                             f"{len(order)} grades that are not")
        return written
    if order == "as_ranked":
        return pool
    ideal = ideal_ranking(grades, pool=pool if source == "judged" else None)
    return ideal[::-1].copy() if order == "ascending" else ideal


def _fillings(remaining: list[tuple[float, int]], length: int, limit: int) -> list[tuple[float, ...]]:
    """Distinct sequences of ``length`` grades drawn from the multiset ``remaining`` (value, count; highest value
    first), highest first, at most ``limit``; past :data:`MAX_BLANKS` only the highest-first and lowest-first."""
    if length > MAX_BLANKS:
        flat = [v for v, c in remaining for _ in range(c)]
        return list(dict.fromkeys([tuple(flat[:length]), tuple(sorted(flat)[:length])]))
    counts = [c for _, c in remaining]
    out: list[tuple[float, ...]] = []
    seq: list[float] = []

    def grow() -> None:
        if len(seq) == length:
            out.append(tuple(seq))
            return
        for i, (v, _) in enumerate(remaining):
            if counts[i] and len(out) < limit:
                counts[i] -= 1
                seq.append(v)
                grow()
                seq.pop()
                counts[i] += 1

    grow()
    return out


def written_orders(written, pool, side: Side, k: int | None = None, *,
                   limit: int = MAX_ORDERS) -> list[tuple[float, ...]]:
    """The orders of the ideal ranking that a student's written IDCG terms show, when they put the right grades
    in another order than highest first (the misconception ``ideal_order``).

    Each written term is read back to the grades whose term at its position rounds to it (the term rises with
    the grade at a fixed position, so these are a run of neighbouring grades); the written positions must take
    grades of the pool, no grade more often than the pool has it (a matching, found greedily: each grade, lowest
    first, goes to the waiting positions whose run ends soonest), and at least one written term must not be the
    highest-first ranking's.  Nothing enumerates n! orders: only the unwritten positions are filled in every
    way (distinct orders of the grades left, at most ``limit``; past :data:`MAX_BLANKS` unwritten positions only
    highest-first and lowest-first), since IDCG depends on how the student filled them.

    Parameters
    ----------
    written : sequence of (int, float, float)
        The written ideal terms: 1-based position, the value written, and the half unit its last digit allows.
    pool : sequence of float
        The ideal ranking's grades, in any order.
    side : Side
        How the ideal side's terms are computed (gain, discount, log base, whether it is cut at ``k``).
    k : int, optional
        The cutoff.
    limit : int, default :data:`MAX_ORDERS`
        At most this many orders are returned.

    Returns
    -------
    list of tuple of float
        Permutations of ``pool`` whose terms give every written term as written, one per filling of the
        unwritten positions (highest-first filling first; grades past the side's end follow highest first);
        empty when the written terms are no other order of the pool's grades.

    Examples
    --------
    Grades 3, 3, 2, 2, 1 written as 3, 2, 3, 2, 1 (linear gain, log2(i + 1)): the terms 3, 2/log2 3 = 1.26,
    3/2 = 1.5, 2/log2 5 = 0.86, 1/log2 6 = 0.39 read back to that order:

    >>> terms = [(1, 3.0, .005), (2, 1.26, .005), (3, 1.5, .005), (4, 0.86, .005), (5, 0.39, .005)]
    >>> written_orders(terms, [3, 3, 2, 2, 1], Side())
    [(3.0, 2.0, 3.0, 2.0, 1.0)]

    Positions 4 and 5 blank: the 2 and the 1 left can fill them either way (IDCG is checked against both):

    >>> written_orders(terms[:3], [3, 3, 2, 2, 1], Side())
    [(3.0, 2.0, 3.0, 2.0, 1.0), (3.0, 2.0, 3.0, 1.0, 2.0)]

    The highest-first terms show no unsorted ranking, and 1.9 at position 2 is no grade's term (3/log2 3 = 1.89):

    >>> written_orders([(1, 3.0, .005), (2, 1.89, .005)], [3, 3, 2, 2, 1], Side())
    []
    >>> written_orders([(1, 3.0, .005), (2, 1.9, .005)], [3, 3, 2, 2, 1], Side())
    []
    """
    rows = [(int(p), float(v), float(tol)) for p, v, tol in written]
    grades = np.asarray(pool, dtype=np.float64)
    if not rows or grades.size == 0:
        return []
    n_side = grades.size if (k is None or not side.cut) else min(int(k), grades.size)
    if any(p < 1 or p > n_side for p, _, _ in rows) or len({p for p, _, _ in rows}) != len(rows):
        return []
    values, counts = np.unique(grades, return_counts=True)  # ascending
    with np.errstate(all="ignore"):
        gains = GAINS[side.gain].func(values)
        divisors = SIDE_DISCOUNTS[side.discount].func(np.array([p for p, _, _ in rows], dtype=np.float64),
                                                      side.log_base)
    best = ideal_ranking(grades)  # highest first
    runs, shows = [], False
    for w, (p, v, tol) in enumerate(rows):
        with np.errstate(all="ignore"):
            terms = gains / divisors[w]
            right = float(GAINS[side.gain].func(best[p - 1: p])[0] / divisors[w])
        fit = np.flatnonzero(np.abs(terms - v) <= tol * (1 + 1e-9) + 1e-12)
        if fit.size == 0:
            return []
        shows |= not (math.isfinite(right) and abs(right - v) <= tol * (1 + 1e-9) + 1e-12)
        runs.append((int(fit[0]), int(fit[-1]), w))
    if not shows:
        return []
    # each grade, lowest first, to the waiting positions whose run of grades ends soonest
    runs.sort()
    assigned = [-1] * len(rows)
    waiting: list[tuple[int, int]] = []
    r = 0
    for j in range(values.size):
        while r < len(runs) and runs[r][0] <= j:
            heapq.heappush(waiting, (runs[r][1], runs[r][2]))
            r += 1
        room = int(counts[j])
        while room and waiting:
            end, w = heapq.heappop(waiting)
            if end < j:
                return []
            assigned[w], room = j, room - 1
    if waiting or r < len(runs) or any(a < 0 for a in assigned):
        return []
    with np.errstate(all="ignore"):
        if not all(abs(gains[a] / divisors[w] - rows[w][1]) <= rows[w][2] * (1 + 1e-9) + 1e-12
                   for w, a in enumerate(assigned)):
            return []  # a run with a gap (a gain that does not rise with the grade): no order read back
    left = Counter(dict(zip(values.tolist(), counts.tolist())))
    order: list[float | None] = [None] * grades.size
    for w, a in enumerate(assigned):
        order[rows[w][0] - 1] = float(values[a])
        left[float(values[a])] -= 1
    blanks = [i for i in range(n_side) if order[i] is None]
    remaining = sorted(((v, c) for v, c in left.items() if c > 0), reverse=True)
    out = []
    for fill in _fillings(remaining, len(blanks), max(1, int(limit))):
        full = list(order)
        rest = Counter(dict(remaining))
        for i, g in zip(blanks, fill):
            full[i] = g
            rest[g] -= 1
        tail = sorted((g for g, c in rest.items() for _ in range(c)), reverse=True)
        out.append(tuple(float(x) for x in full[:n_side]) + tuple(tail))
    return out


def _sum(terms: np.ndarray) -> float:
    try:
        total = math.fsum(terms.tolist())
    except OverflowError:
        total = math.inf
    if not math.isfinite(total):
        raise ValueError("the sum of the terms overflows float64 (max about 1.8e308): use smaller grades")
    return total


@dataclass(frozen=True)
class Calculation:
    """A whole hand calculation: the DCG side, the ideal side, the ideal ranking's items and order.

    The correct calculation has the same :class:`Side` on both sides, ``cut=True`` and the ideal ranking
    sorted from the highest grade down; a student's may differ anywhere (:func:`apply`).
    """

    dcg: Side
    ideal: Side
    idcg: str = "list"
    ideal_order: str = "sorted"

    @classmethod
    def of(cls, variant: Variant | None = None) -> Calculation:
        """The correct calculation of a :class:`metrics.variant.Variant` (its gain, discount, log base and IDCG
        source; the cutoff is given to :meth:`values`): the same side twice, cut at k, ideal sorted.

        Default ``None``: ``Variant(idcg="list")``, the textbook formula with the list's own ideal ranking.

        >>> Calculation.of(Variant(gain="exponential", idcg="judged")).variant.format("short")
        'exponential/standard/judged'
        """
        v = Variant(idcg="list") if variant is None else variant
        if not isinstance(v, Variant):
            raise ValueError(f"variant must be a metrics.variant.Variant, got {type(v).__name__}")
        if v.gain == "map" or v.k is not None:
            field, value = ("gain", "map") if v.gain == "map" else ("k", v.k)
            raise ValueError(f"a hand calculation's variant takes a registered gain and no cutoff of its own, "
                             f"got {field}={value!r}")
        side = Side(v.gain, v.discount, v.log_base)
        return cls(side, side, v.idcg, "sorted")

    @property
    def variant(self) -> Variant | None:
        """The :class:`metrics.variant.Variant` this calculation follows, when it is one: both sides the same
        registered formula, cut at k, the ideal sorted from the highest grade down; None for a student's
        calculation that is no variant (a side without discount, ``log_b(i)``, one side uncut ...).

        >>> Calculation.of().variant == Variant(idcg="list")
        True
        >>> print(Calculation.of().with_side("ideal", discount="none").variant)
        None
        """
        d = self.dcg
        if self.ideal != d or not d.cut or self.ideal_order != "sorted" or d.discount not in DISCOUNTS:
            return None
        return Variant(gain=d.gain, discount=d.discount, log_base=d.log_base, idcg=self.idcg)

    def with_side(self, which: str, **changes) -> Calculation:
        """A copy with one side (``"dcg"`` or ``"ideal"``) changed, e.g. ``with_side("ideal", cut=False)``."""
        if which == "dcg":
            return replace(self, dcg=replace(self.dcg, **changes))
        return replace(self, ideal=replace(self.ideal, **changes))

    def side(self, which: str) -> Side:
        return self.dcg if which == "dcg" else self.ideal

    def ideal_grades(self, grades: np.ndarray, unretrieved: np.ndarray) -> np.ndarray:
        """The grades of the ideal ranking, in the order this calculation puts them."""
        return ideal_grades(grades, unretrieved, self.idcg, self.ideal_order)

    def values(self, grades, unretrieved=None, k=None) -> Values:
        """Every number of this calculation for ``grades`` (ranked), ``unretrieved`` judged grades and cutoff ``k``.

        Parameters
        ----------
        grades : sequence of float >= 0
            The ranked list's grades.
        unretrieved : sequence of float >= 0, optional
            Judged items the list missed (they count when ``idcg == "judged"``).
        k : int >= 1, optional
            The cutoff, applied to a side when its ``cut`` is True.

        Returns
        -------
        Values

        Raises
        ------
        ValueError
            For invalid grades or k, or a gain or sum that overflows float64.

        Examples
        --------
        Järvelin–Kekäläinen's DCG of document 000: 3 + 2 + 1/log2 3 + 3/2 + 2/log2 5 = 7.9923:

        >>> round(Calculation.of(Variant(discount="jarvelin")).values([3, 2, 1, 3, 2]).dcg, 4)
        7.9923
        """
        rel = as_grades(grades, name="grades")
        extra = as_grades([] if unretrieved is None else unretrieved, name="unretrieved", allow_empty=True)
        return self.values_of(rel, extra, check_k(k))

    def values_of(self, rel: np.ndarray, extra: np.ndarray, k: int | None) -> Values:
        """:meth:`values` for grades already checked (arrays) — what the diagnosis calls many times."""
        terms = self.dcg.terms(rel, k)
        ideal_terms = self.ideal.terms(self.ideal_grades(rel, extra), k)
        total, best = _sum(terms), _sum(ideal_terms)
        return Values(terms, total, ideal_terms, best, 0.0 if best == 0 else total / best)


# ------------------------------------------------------------------------------------------------ the table
def _swap(old, new):
    return lambda value: [new] if value == old else []


@dataclass(frozen=True)
class Misconception(Choice):
    """One misconception of :data:`MISCONCEPTIONS`: a :class:`~metrics.registry.Choice` whose ``func`` maps a
    value to the values the student uses instead, with its ``scope``, the ``steps`` where it can first show,
    the ``dimension`` it changes (a :class:`Side` or :class:`Calculation` field, or None) and whether it is
    ``generic`` (a catch-all tried after the specific ones)."""

    scope: str = ""
    steps: tuple[str, ...] = ()
    dimension: str | None = None
    generic: bool = False


def _entry(key: str, name: str, help: str, scope: str, steps: tuple[str, ...], *, dimension: str | None = None,
           change=None, generic: bool = False) -> Misconception:
    return Misconception(key, name, help, func=change, scope=scope, steps=steps, dimension=dimension,
                         generic=generic)


_SIDE_STEPS = ("term", "dcg", "ideal_term", "idcg", "ndcg")
_IDEAL_STEPS = ("ideal_term", "idcg", "ndcg")

#: Every misconception, in the order they are preferred when two explain the same numbers.  Facts:
#: ``scope`` ("side": either side or both; "ideal": the ideal side; "term", "total", "ndcg", "any": how one
#: number is written), ``steps`` (where it can first show), ``dimension`` (the :class:`Side` field or the
#: :class:`Calculation` field a formula entry changes) and ``func`` (value -> the values the student uses
#: instead).  ``generic`` entries name a difference without its direction (the Which convention? page's
#: near misses, answers stored before the directions were named); the diagnosis never gives them.
MISCONCEPTIONS: dict[str, Misconception] = {
    m.key: m
    for m in (
        _entry("linear_for_exponential", "rel used for 2^rel − 1",
               "The gain 2^rel − 1 was meant; the grade rel itself was used (3 where 2^3 − 1 = 7 belongs).",
               "side", _SIDE_STEPS, dimension="gain", change=_swap("exponential", "linear")),
        _entry("exponential_for_linear", "2^rel − 1 used for rel",
               "The grade rel itself was meant as the gain; 2^rel − 1 was used (7 where 3 belongs).",
               "side", _SIDE_STEPS, dimension="gain", change=_swap("linear", "exponential")),
        _entry("wrong_gain", "Another gain used",
               "The numbers follow another gain than the formula's: 0/1 hits where grades count, or the reverse.",
               "side", _SIDE_STEPS, dimension="gain",
               change=lambda g: [x for x in GAINS if x != g and {x, g} != {"linear", "exponential"}]),
        _entry("discount_one_early", "log(i) used for log(i + 1): each divisor one position early",
               "The divisor of position i is log_b(i + 1); log_b(i), the previous position's, was used "
               "(position 1 left undiscounted). With log base 2 these are exactly the Järvelin–Kekäläinen "
               "divisors max(1, log2 i), so the numbers are named so; with base e or 10 they differ from "
               "position 2 on.",
               "side", _SIDE_STEPS, dimension="discount", change=_swap("standard", "log_i")),
        _entry("discount_one_late", "log(i + 1) used for log(i): each divisor one position late",
               "The divisor of position i is log_b(i) (never below 1); log_b(i + 1), the next position's, was used.",
               "side", _SIDE_STEPS, dimension="discount",
               change=lambda d: ["standard"] if d in ("jarvelin", "log_i") else []),
        _entry("wrong_log_base", "Another log base used",
               "The divisors use another logarithm (ln or log10 where log2 was meant, or the reverse).",
               "side", _SIDE_STEPS, dimension="log_base",
               change=lambda b: [x for x in LOG_BASES if x != b]),
        _entry("no_discount", "Gains added without the discount",
               "The gains were added as they are (cumulative gain), not divided by the discount.",
               "side", _SIDE_STEPS, dimension="discount", change=lambda d: ["none"] if d != "none" else []),
        _entry("cutoff_ignored", "Cutoff k not applied",
               "The sum runs past position k. On one side only, DCG and IDCG are cut at different places.",
               "side", ("dcg", "idcg", "ndcg"), dimension="cut", change=_swap(True, False)),
        _entry("ideal_from_list", "IDCG from the retrieved list only: the judged items it missed are left out",
               "The ideal ranking sorts every judged item, retrieved or not; it was built from the retrieved list "
               "alone, so IDCG is too small and NDCG too large.",
               "ideal", _IDEAL_STEPS, dimension="idcg", change=_swap("judged", "list")),
        _entry("ideal_from_judged", "IDCG from all judged items where the list alone was meant",
               "The formula builds the ideal ranking from the retrieved list; the judged items it missed were "
               "added.",
               "ideal", _IDEAL_STEPS, dimension="idcg", change=_swap("list", "judged")),
        _entry("ideal_order", "Ideal ranking not sorted from the highest grade down",
               "The ideal ranking is every grade sorted from highest to lowest; it was left in the ranked order, "
               "sorted from the lowest up or written in another order (terms for grades 3, 2, 3, 2, 1 where "
               "3, 3, 2, 2, 1 belongs), so a lower grade takes a position a higher one should have.",
               "ideal", _IDEAL_STEPS, dimension="ideal_order",
               change=lambda o: ["as_ranked", "ascending"] if o == "sorted" else []),
        _entry("beyond_k", "A term written past the cutoff k",
               "Positions after k do not count; a term was written (and usually added) for one of them.",
               "term", ("term", "ideal_term")),
        _entry("too_few_decimals", "Fewer decimals than the exercise asks",
               "The number rounds right at the decimals written, but the exercise asks for more, and at its "
               "precision the number is off (0.5 or 0 for 0.4909 when 2 decimals are asked: 0.49).",
               "any", _SIDE_STEPS),
        _entry("truncation", "Digits cut off instead of rounded",
               "The digits after the last one written were cut off, not rounded (0.3869 -> 0.38, not 0.39).",
               "any", _SIDE_STEPS),
        _entry("rounded_sum", "Rounded terms added up",
               "Every term is right, but the total is the sum of the rounded terms; rounding before adding "
               "drifts away from the exact sum.",
               "total", ("dcg", "idcg")),
        _entry("ratio_of_rounded", "NDCG from the rounded DCG and IDCG",
               "NDCG was computed from the rounded DCG and IDCG; divide the exact values and round only at the end.",
               "ndcg", ("ndcg",)),
        _entry("percent_vs_fraction", "Percent and fraction mixed up",
               "A percentage was written as a fraction or the reverse (81.86 for 81.86%, or 0.82% for 0.82).",
               "ndcg", ("ndcg",)),
        _entry("arithmetic_slip", "Calculation slip",
               "The value is not what the calculation gives at this step, and no other cause explains it.",
               "any", _SIDE_STEPS),
        # Directions not known (other pages' words; answers stored before the directions were named).
        _entry("log_offset", "The neighbouring position's discount used",
               "A divisor belongs to the neighbouring position: log_b(i) where log_b(i + 1) belongs, or the reverse.",
               "side", _SIDE_STEPS, dimension="discount", generic=True),
        _entry("k_one_side", "Cutoff k on one side only",
               "The cutoff k was applied to DCG but not to IDCG, or the reverse.",
               "side", ("dcg", "idcg", "ndcg"), dimension="cut", generic=True),
        _entry("ideal_source", "IDCG from another set of items",
               "The ideal ranking was built from another set of items than the formula's (the retrieved list "
               "only, or all judged items).",
               "ideal", _IDEAL_STEPS, dimension="idcg", generic=True),
    )
}


def formula_entries(scope: str | None = None) -> list[Misconception]:
    """The formula entries (not generic) of :data:`MISCONCEPTIONS` in catalogue order, of one scope or both.

    Parameters
    ----------
    scope : {"side", "ideal"}, optional
        Only the entries of this scope.  Default ``None``: both (:data:`FORMULA_SCOPES`).

    Returns
    -------
    list of Misconception

    Examples
    --------
    >>> [m.key for m in formula_entries("ideal")]
    ['ideal_from_list', 'ideal_from_judged', 'ideal_order']
    """
    scopes = FORMULA_SCOPES if scope is None else (scope,)
    return [m for m in MISCONCEPTIONS.values() if m.scope in scopes and not m.generic]


def apply(key: str, calc: Calculation, side: str = "both") -> list[Calculation]:
    """The student's calculation(s): ``calc`` with misconception ``key`` applied to ``side``.

    Parameters
    ----------
    key : str
        A formula entry of :data:`MISCONCEPTIONS` (scope ``"side"`` or ``"ideal"``).
    calc : Calculation
        The calculation it is applied to (usually the correct one).
    side : {"both", "dcg", "ideal"}, default "both"
        Which side a ``"side"`` entry changes; an ``"ideal"`` entry always changes the ideal side.

    Returns
    -------
    list of Calculation
        One per value the student may use instead (another log base: two); empty when the entry does not
        apply (``linear_for_exponential`` to a linear gain).

    Raises
    ------
    ValueError
        For a key that is not a formula entry, or an unknown side.

    Examples
    --------
    The exercise asks for 2^rel − 1; a student uses rel on the ideal side only:

    >>> (s,) = apply("linear_for_exponential", Calculation.of(Variant(gain="exponential")), "ideal")
    >>> s.dcg.gain, s.ideal.gain
    ('exponential', 'linear')
    >>> [c.dcg.log_base for c in apply("wrong_log_base", Calculation.of())]
    [2.718281828459045, 10.0]
    >>> apply("truncation", Calculation.of())
    Traceback (most recent call last):
    ...
    ValueError: misconception 'truncation' is about writing a number, not a formula: no calculation to apply it to
    """
    entry = check_choice(key, MISCONCEPTIONS, name="misconception")
    if entry.scope not in FORMULA_SCOPES or entry.generic:
        raise ValueError(f"misconception {entry.key!r} is about writing a number, not a formula: "
                         "no calculation to apply it to")
    if side not in ("both", *SIDES):
        raise ValueError(f"side must be 'both', 'dcg' or 'ideal', got {str(side)[:20]!r}")
    dim = entry.dimension
    if entry.scope == "ideal":
        return [replace(calc, **{dim: v}) for v in entry.func(getattr(calc, dim))]
    out = []
    sides = SIDES if side == "both" else (side,)
    # the same change on each side it applies to: both sides take the first side's value list
    first = getattr(calc.side(sides[0]), dim)
    for v in entry.func(first):
        changed = {s: replace(calc.side(s), **{dim: v}) for s in sides if v in entry.func(getattr(calc.side(s), dim))}
        if len(changed) == len(sides):
            out.append(replace(calc, **changed))
    return out
