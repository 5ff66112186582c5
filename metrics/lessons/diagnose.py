"""Check a hand calculation of DCG, IDCG and NDCG: which formula it follows, where it first goes wrong, why.

People compute NDCG on paper and write down some of the per-position terms, DCG,
the ideal terms, IDCG and NDCG, each rounded the way they like (``7.99``,
``0.91``, ``81.86%``).  :func:`diagnose` takes the grades and whatever they wrote
and

1. finds the *variant* their numbers follow: gain (:data:`metrics.registry.GAINS`),
   discount (:data:`metrics.registry.DISCOUNTS`, plus the slip ``log_b(i)`` with
   position 1 undiscounted), log base (2, e, 10), IDCG source (the list itself or
   all judged items), the cutoff ``k`` on both sides or one, and the order of
   the ideal ranking;
2. compares every written number with the exact one under that variant, allowing
   the writer's own rounding (``0.91`` may be anything in [0.905, 0.915];
   ``81.86%`` anything within 0.00005 as a fraction);
3. returns the findings in step order (terms 1..n, DCG, ideal terms, IDCG, NDCG),
   each with a kind from :data:`MISTAKES`, the step and position, the written
   value, the exact value and parameters for a translated explanation.

All numbers come from :mod:`metrics.ndcg` and :mod:`metrics.registry`; nothing
here re-implements a gain, discount or logarithm.

Document 003 (grades 3, 2, 3, 0, 1, 2; two more judged items of grade 3 and 0;
k = 6) writes the fifth DCG term as 0.38, but 1/log2(6) = 0.3869 rounds to 0.39.  Its
DCG 6.86 is right, though its own terms add up to 6.85 (a note, not a wrong number); its
IDCG 8.37 adds up its ideal terms, one of which (0.35 for 1/log2 7 = 0.3562) is cut off,
so that error is carried into IDCG and on into NDCG:

>>> d = diagnose([3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6,
...              terms="3 1.26 1.5 0 0.38 0.71", dcg="6.86",
...              ideal_terms="3 1.89 1.5 0.86 0.77 0.35", idcg="8.37", ndcg="81.96%")
>>> d.first.kind, d.first.step, d.first.position
('truncation', 'term', 5)
>>> [(f.kind, f.step, f.position) for f in d.findings]  # doctest: +NORMALIZE_WHITESPACE
[('truncation', 'term', 5), ('self_inconsistent_sum', 'dcg', None), ('truncation', 'ideal_term', 6),
 ('carried_forward', 'idcg', None), ('carried_forward', 'ndcg', None)]
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from itertools import product

import numpy as np
import pandas as pd

from .._validation import as_grades, check_choice, check_k, check_log_base
from ..ndcg import breakdown, discounted_terms, ideal_ranking
from ..parse import ParseError, parse_numbers, split_tokens
from ..registry import DISCOUNTS, GAINS, IDCG_SOURCES, Choice
from .examples import VERDICTS

__all__ = [
    "MISTAKES",
    "NOTES",
    "STEPS",
    "VARIANT_DIMENSIONS",
    "HandNumber",
    "HandVariant",
    "Finding",
    "Diagnosis",
    "hand_number",
    "hand_numbers",
    "diagnose",
    "variant_values",
    "BLANKS",
    "example_sheet",
    "LOG_I",
    "EXAMPLE_SHEETS",
]


# ------------------------------------------------------------------------------------------------
# Mistake kinds
# ------------------------------------------------------------------------------------------------
def _from_verdict(key: str) -> Choice:
    # The same concept as a worked example's verdict: one English text (metrics.lessons.examples.VERDICTS).
    v = VERDICTS[key]
    return Choice(v.key, v.name, v.help)


MISTAKES: dict[str, Choice] = {
    m.key: m
    for m in (
        Choice("wrong_gain", "Gain: rel vs 2^rel − 1",
                "The numbers follow another gain than the formula named: the grade rel itself where "
                "2^rel − 1 was meant, or the reverse (or 0/1 hits)."),
        Choice("log_offset", "Neighbouring position's discount: log(i) for log(i + 1)",
                "A divisor belongs to the neighbouring position: log_b(i) (position 1 left undiscounted) where "
                "the formula has log_b(i + 1), or the reverse."),
        Choice("wrong_log_base", "Wrong log base",
                "The divisors use another logarithm base (ln, log10) than the formula named."),
        Choice("ideal_source", "IDCG from the list vs from all judged items",
                "The ideal ranking was built from the retrieved list only where all judged items (retrieved or "
                "not) were meant, or the reverse."),
        Choice("ideal_order", "Ideal ranking not sorted",
                "The ideal ranking must be every grade sorted from highest to lowest; it was left in ranked "
                "order or sorted ascending."),
        Choice("k_one_side", "k on one side only",
                "The cutoff k was applied to DCG but not to IDCG, or the reverse."),
        Choice("beyond_k", "Position past k",
                "A term was written for a position after the cutoff k; it does not count."),
        Choice("rounded_sum", "Rounded terms summed",
                "Every term is right, but the total is the sum of the rounded terms; rounding before adding "
                "drifts away from the exact sum."),
        Choice("truncation", "Truncated, not rounded",
                "The digits after the last one written were cut off instead of rounded (0.3869 -> 0.38, not 0.39)."),
        Choice("arithmetic_slip", "Arithmetic slip",
                "The value is not what the formula gives at this step, and no other cause explains it."),
        Choice("ratio_of_rounded", "Ratio of rounded values",
                "NDCG was computed from the rounded DCG and IDCG; divide the exact values and round only at the end."),
        Choice("percent_vs_fraction", "Percent vs fraction",
                "A percentage was written as a fraction or the reverse (81.86 for 0.8186, or 0.82% for 0.82)."),
        _from_verdict("carried_forward"),
        _from_verdict("self_inconsistent_sum"),
    )
}

#: Findings that are worth saying but are not a wrong number (the step itself is right).
NOTES = frozenset({"self_inconsistent_sum"})

#: The steps of a hand calculation, in the order they are done.
STEPS = ("term", "dcg", "ideal_term", "idcg", "ndcg")

#: Variant dimensions and the mistake kind reported when the numbers follow another value than intended.
VARIANT_DIMENSIONS = {
    "gain": "wrong_gain",
    "discount": "log_offset",
    "log_base": "wrong_log_base",
    "idcg_source": "ideal_source",
    "k_mode": "k_one_side",
    "ideal_order": "ideal_order",
}
K_MODES = ("both", "dcg_only", "idcg_only")
IDEAL_ORDERS = ("sorted", "as_ranked", "ascending")
LOG_BASES = (2.0, math.e, 10.0)
BLANKS = frozenset({"?", "_", "-", "…", "...", "—", "–"})


def _log_i(positions, base: float) -> np.ndarray:
    # log_b(i) is the standard divisor log_b(i + 1) one position earlier; position 1 (log 1 = 0) is
    # left undiscounted, as people who write rel_1 + sum_{i>=2} rel_i / log(i) do.
    pos = np.asarray(positions, dtype=np.float64)
    return np.where(pos <= 1, 1.0, DISCOUNTS["standard"].func(pos - 1.0, base))


#: Not a registered variant: the divisor people get by writing log_b(i) for log_b(i + 1).  For base 2 it
#: equals the Järvelin discount (max(1, log2 i)), so it is only tried for other bases.
LOG_I = Choice(
    key="log_i",
    name="log_b(i), position 1 undiscounted",
    latex="{log} {pos}",
    help="rel_1 + sum over i >= 2 of gain / log_b(i): log(i) written where log(i + 1) was meant.",
    func=_log_i,
)
_ALL_DISCOUNTS = {**DISCOUNTS, LOG_I.key: LOG_I}


# ------------------------------------------------------------------------------------------------
# Hand-written numbers
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class HandNumber:
    """A number as somebody wrote it: its value and how many decimals they wrote.

    ``value`` is always a fraction (``81.86%`` -> 0.8186); ``decimals`` counts the
    digits written after the point, so ``81.86%`` has 2 decimals as a percentage
    and 4 as a fraction (:attr:`scale`).

    >>> h = hand_number("81.86%")
    >>> h.value, h.decimals, h.percent, h.scale, h.tolerance
    (0.8186, 2, True, 4, 5e-05)
    """

    value: float
    decimals: int
    percent: bool = False
    text: str = ""

    @property
    def scale(self) -> int:
        """Decimals of :attr:`value` as a fraction."""
        return self.decimals + (2 if self.percent else 0)

    @property
    def tolerance(self) -> float:
        """Half a unit in the last place written: what rounding allows."""
        return 0.5 * 10.0 ** (-self.scale)

    def shown(self) -> str:
        return self.text or _format(self.value, self.scale)


#: More decimals than a float64 holds say nothing more (and 10 ** 400 would overflow): written precision is capped.
MAX_DECIMALS = 15


def _decimals(text: str) -> int:
    try:
        exponent = Decimal(text.rstrip("%")).as_tuple().exponent
    except InvalidOperation:  # pragma: no cover - the text was already parsed as a number
        return 0
    return min(MAX_DECIMALS, max(0, -int(exponent))) if isinstance(exponent, int) else 0


def hand_number(value, *, name: str = "value", position: int | None = None) -> HandNumber:
    """One hand-written number from text (``"0.91"``, ``"81.86%"``, ``"８.３７"``) or a number.

    A float keeps the decimals of its shortest representation (``0.91`` -> 2).
    The number of decimals matters: a hand calculation is right when the exact value rounds to
    what was written, so ``0.91`` allows 0.905 to 0.915 and ``0.9`` allows 0.85 to 0.95.

    Parameters
    ----------
    value : str, float, int or HandNumber
        Text as written (full-width digits folded; a trailing ``%`` divides by 100 and is
        remembered), or a number (an int has 0 decimals).  A HandNumber is returned as it is.
    name : str, default "value"
        What the value is called in error messages.
    position : int, optional
        Its 1-based position, for messages about a list.

    Returns
    -------
    HandNumber
        ``value`` (always a fraction), ``decimals`` (as written), ``percent``, ``text``.

    Raises
    ------
    ParseError
        (a ValueError) for text that is not one number (or holds a second one).
    ValueError
        For a boolean, NaN, infinity, blank text or another type.

    Examples
    --------
    >>> hand_number("0.91")
    HandNumber(value=0.91, decimals=2, percent=False, text='0.91')
    >>> hand_number(7.99).decimals
    2
    >>> hand_number("abc", name="dcg")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: dcg: 'abc' is not a number
    """
    where = name if position is None else f"{name} at position {position}"
    if isinstance(value, HandNumber):
        return value
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{where} is the boolean {value!r}; write a number such as 0.91 or 81.86%")
    if isinstance(value, numbers.Real):
        out = float(value)
        if not math.isfinite(out):
            raise ValueError(f"{where} is {out!r}; only finite numbers are accepted")
        integral = isinstance(value, numbers.Integral) and not isinstance(value, float)
        text = str(int(value)) if integral else repr(out)
        return HandNumber(out, _decimals(text), False, text)
    if not isinstance(value, str):
        raise ValueError(f"{where} is {type(value).__name__} {str(value)[:20]!r}, which is not a number")
    tokens = split_tokens(value)
    if not tokens:
        raise ValueError(f"{where} is empty; write a number such as 0.91 or 81.86%")
    if len(tokens) > 1:
        raise ParseError(f"{where}: '{tokens[1][:20]}' is a second number; write one number here",
                         token=tokens[1], position=2, kind="not_a_number")
    token = tokens[0]
    try:
        (out,) = parse_numbers(token, allow_percent=True)
    except ParseError as exc:
        raise ParseError(f"{where}: '{token[:20]}' is not a number", token=exc.token,
                         position=position or 1, kind=exc.kind) from None
    return HandNumber(out, _decimals(token), token.endswith("%"), token)


def hand_numbers(values, *, name: str = "terms") -> list[HandNumber | None]:
    """A list of hand-written numbers; ``?``, ``_`` or ``-`` (or None) marks a blank.

    A blank is a step the learner skipped; it is not checked.

    Parameters
    ----------
    values : str or sequence
        Text with numbers separated as in :func:`metrics.parse.split_tokens`, or a sequence of
        numbers, strings and None; see :data:`BLANKS` for the blank marks.
    name : str, default "terms"
        What the list is called in error messages.

    Returns
    -------
    list of HandNumber or None
        One entry per token, None for a blank.

    Raises
    ------
    ParseError
        (a ValueError) naming the position of the first token that is not a number.
    ValueError
        If ``values`` is neither text nor a sequence.

    Examples
    --------
    >>> [h and h.value for h in hand_numbers("3, 1.26, ?, 0")]
    [3.0, 1.26, None, 0.0]
    >>> hand_numbers("3 x 1")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: terms at position 2: 'x' is not a number
    """
    if isinstance(values, str):
        items: list = [None if tok in BLANKS else tok for tok in split_tokens(values)]
    elif isinstance(values, Mapping) or not isinstance(values, Iterable):
        raise ValueError(f"{name} must be text or a sequence of numbers, got {type(values).__name__}")
    else:
        items = list(values)
    out: list[HandNumber | None] = []
    for i, item in enumerate(items, start=1):
        if item is None or (isinstance(item, str) and item.strip() in BLANKS):
            out.append(None)
        elif isinstance(item, str):
            try:
                out.append(hand_number(item, name=name, position=i))
            except ParseError as exc:
                raise ParseError(f"{name} at position {i}: '{exc.token[:20]}' is not a number", token=exc.token,
                                 position=i, kind=exc.kind) from None
        else:
            out.append(hand_number(item, name=name, position=i))
    return out


def _format(value: float, scale: int) -> str:
    return f"{value:.{max(0, scale)}f}"


def _close(h: HandNumber, exact: float) -> bool:
    return math.isfinite(exact) and abs(h.value - exact) <= h.tolerance * (1 + 1e-9) + 1e-12


def _truncated(exact: float, scale: int) -> float:
    unit = 10.0 ** scale
    scaled = exact * unit
    if not math.isfinite(scaled) or abs(scaled) >= 2.0**53:  # no digits left to cut at this size
        return exact
    return math.trunc(scaled + math.copysign(1e-7, exact)) / unit


def _is_truncation(h: HandNumber, exact: float) -> bool:
    """The written value is the exact one cut (not rounded) after the digits written."""
    if not math.isfinite(exact) or _close(h, exact):
        return False
    return abs(h.value - _truncated(exact, h.scale)) <= 1e-9 * max(1.0, abs(exact))


def _rescaled(h: HandNumber) -> HandNumber | None:
    """The same digits read the other way: 81.86 -> 81.86%, 0.82% -> 0.82."""
    if h.percent:
        return HandNumber(h.value * 100, h.decimals, False, h.text)
    if h.value > 1:
        return HandNumber(h.value / 100, h.decimals, True, h.text)
    return None


# ------------------------------------------------------------------------------------------------
# Variants
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class HandVariant:
    """One way of computing NDCG: the formula choices and, for the last two, the slips.

    ``discount`` is a key of :data:`metrics.registry.DISCOUNTS` or ``"log_i"``
    (:data:`LOG_I`); ``k_mode`` is ``"both"`` (correct), ``"dcg_only"`` or
    ``"idcg_only"``; ``ideal_order`` is ``"sorted"`` (correct), ``"as_ranked"``
    or ``"ascending"``.
    """

    gain: str = "linear"
    discount: str = "standard"
    log_base: float = 2.0
    idcg_source: str = "list"
    k_mode: str = "both"
    ideal_order: str = "sorted"

    def value_of(self, dimension: str):
        return getattr(self, dimension)


@dataclass(frozen=True)
class _Values:
    terms: np.ndarray
    dcg: float
    ideal_terms: np.ndarray
    idcg: float
    ndcg: float

    def at(self, step: str, position: int | None) -> float:
        if step in ("term", "ideal_term"):
            arr = self.terms if step == "term" else self.ideal_terms
            return float(arr[position - 1]) if position <= arr.size else math.nan
        return float(getattr(self, step))


def _pool(rel: np.ndarray, unretrieved: np.ndarray) -> np.ndarray:
    return np.r_[rel, unretrieved]


def _ideal_for(rel: np.ndarray, unretrieved: np.ndarray, source: str, order: str) -> np.ndarray:
    pool = _pool(rel, unretrieved) if source == "judged" else rel
    if order == "as_ranked":
        return pool
    ideal = ideal_ranking(rel, pool=pool if source == "judged" else None)
    return ideal[::-1].copy() if order == "ascending" else ideal


def variant_values(grades, variant: HandVariant, *, unretrieved=None, k=None) -> _Values:
    """Exact terms, DCG, ideal terms, IDCG and NDCG under one variant (slips included).

    A :class:`HandVariant` can describe the slips people make by hand (log_b(i) for log_b(i + 1),
    k on one side only, an ideal ranking left unsorted), so :func:`diagnose` can find the one a
    hand calculation followed.

    Parameters
    ----------
    grades : sequence of float >= 0
        Grades in ranked order.
    variant : HandVariant
        Gain, discount (including ``"log_i"``), log base, IDCG source, ``k_mode`` and ideal order.
    unretrieved : sequence of float >= 0, optional
        Grades of judged items not in the list (used when ``variant.idcg_source == "judged"``).
    k : int >= 1, optional
        The cutoff, applied as ``variant.k_mode`` says.

    Returns
    -------
    object
        With ``terms`` and ``ideal_terms`` (arrays of discounted gains), ``dcg``, ``idcg`` and
        ``ndcg`` (0 when IDCG is 0).

    Raises
    ------
    ValueError
        For invalid grades or ``k``, or a sum that overflows.

    Examples
    --------
    Document 000 with Järvelin & Kekäläinen's discount: terms 3, 2, 1/log2(3), 3/log2(4),
    2/log2(5) = 3 + 2 + 0.6309 + 1.5 + 0.8614 = 7.9923; ideal 3, 3, 2, 2, 1 gives
    3 + 3 + 1.2619 + 1 + 0.4307 = 8.6925:

    >>> v = variant_values([3, 2, 1, 3, 2], HandVariant(discount="jarvelin"))
    >>> round(v.dcg, 4), round(v.idcg, 4), round(v.ndcg, 5)
    (7.9923, 8.6925, 0.91944)

    The slip "ideal ranking left in ranked order": IDCG is then the list's own DCG, and every
    list looks perfect:

    >>> variant_values([1, 3, 2], HandVariant(ideal_order="as_ranked")).ndcg
    1.0
    """
    rel = as_grades(grades, name="grades")
    extra = as_grades([] if unretrieved is None else unretrieved, name="unretrieved", allow_empty=True)
    return _values(rel, extra, check_k(k), variant)


def _sum(terms: np.ndarray) -> float:
    try:
        total = math.fsum(terms.tolist())
    except OverflowError:
        total = math.inf
    if not math.isfinite(total):
        raise ValueError("the sum of the terms overflows float64 (max about 1.8e308): use smaller grades")
    return total


def _values(rel: np.ndarray, extra: np.ndarray, k: int | None, v: HandVariant) -> _Values:
    g, d = GAINS[v.gain], _ALL_DISCOUNTS[v.discount]
    top = rel if (k is None or v.k_mode == "idcg_only") else rel[:k]
    ideal = _ideal_for(rel, extra, v.idcg_source, v.ideal_order)
    if k is not None and v.k_mode != "dcg_only":
        ideal = ideal[:k]
    terms = discounted_terms(top, g, d, v.log_base)[2]
    ideal_terms = discounted_terms(ideal, g, d, v.log_base)[2]
    total, best = _sum(terms), _sum(ideal_terms)
    return _Values(terms, total, ideal_terms, best, 0.0 if best == 0 else total / best)


# ------------------------------------------------------------------------------------------------
# Findings and the result
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """One thing that is off: a mistake kind at a step (and 1-based position for terms).

    ``theirs`` is the value written (as a fraction), ``expected`` the exact value it
    is compared with, ``params`` whatever an explanation needs (variant keys,
    sums, ratios; numbers as floats).
    """

    kind: str
    step: str
    position: int | None
    theirs: float
    expected: float
    params: dict = field(default_factory=dict)

    @property
    def mistake(self) -> Choice:
        return MISTAKES[self.kind]


@dataclass
class Diagnosis:
    """What :func:`diagnose` found.

    ``variant`` is the formula the numbers follow, ``correct`` the one they should
    follow (the named choices, k on both sides, ideal sorted), ``findings`` the
    findings in step order and ``steps`` one row per step with the written,
    followed and correct values.
    """

    variant: HandVariant
    correct: HandVariant
    findings: list[Finding]
    steps: pd.DataFrame
    k: int | None
    grades: tuple[float, ...]
    unretrieved: tuple[float, ...]

    @property
    def first(self) -> Finding | None:
        """The first wrong step, or None when every number written is right (notes aside)."""
        return next((f for f in self.findings if f.kind not in NOTES), None)

    @property
    def ok(self) -> bool:
        """Every number written is right; :data:`NOTES` (e.g. a right total whose terms add up differently)
        may still be among the findings."""
        return self.first is None

    def breakdown(self) -> pd.DataFrame:
        """The corrected calculation, position by position (:func:`metrics.ndcg.breakdown`)."""
        rel = np.asarray(self.grades)
        pool = _pool(rel, np.asarray(self.unretrieved)) if self.correct.idcg_source == "judged" else None
        return breakdown(rel, k=self.k, gain=self.correct.gain, discount=self.correct.discount,
                         log_base=self.correct.log_base, pool=pool)

    def kinds(self) -> list[tuple[str, str, int | None]]:
        return [(f.kind, f.step, f.position) for f in self.findings]


# ------------------------------------------------------------------------------------------------
# The engine
# ------------------------------------------------------------------------------------------------
def _ordered(first, values):
    out = [first] if first is not None else []
    return out + [v for v in values if v not in out]


def _hand_list(values, name: str, limit: int, what: str) -> list[HandNumber | None]:
    if values is None:
        return []
    out = hand_numbers(values, name=name)
    while out and out[-1] is None:
        out.pop()
    # People drop ".00" from whole numbers ("3", "0", "1" beside "1.26"), but do not round 1.5 to 2 while
    # writing two decimals elsewhere: a whole number in a list is as precise as the list's finest entry.
    finest = max((h.decimals for h in out if h is not None and not h.percent), default=0)
    out = [replace(h, decimals=finest) if h is not None and h.decimals == 0 and not h.percent else h for h in out]
    if len(out) > limit:
        raise ValueError(
            f"{name} has {len(out)} values but {what} has only {limit} position(s); "
            f"write at most {limit} (use ? for a blank)"
        )
    return out


def _hand_one(value, name: str) -> HandNumber | None:
    if value is None or (isinstance(value, str) and (not value.strip() or value.strip() in BLANKS)):
        return None
    return hand_number(value, name=name)


def _cost(h: HandNumber | None, exact: float) -> float:
    if h is None:
        return 0.0
    if math.isnan(exact):
        return 0.0  # a term past the cutoff is extra, not wrong; the totals tell whether it was counted
    if _close(h, exact):
        return 0.0
    if _is_truncation(h, exact):
        return 0.25
    return 1.0


def diagnose(grades, *, unretrieved=None, k=None, terms=None, dcg=None, ideal_terms=None, idcg=None,
             ndcg=None, gain=None, discount=None, log_base=None, idcg_source=None) -> Diagnosis:
    """Find the variant a hand calculation follows and its first wrong step.

    Parameters
    ----------
    grades : sequence of float >= 0
        Grades in ranked order, position 1 first.
    unretrieved : sequence of float >= 0, optional
        Grades of judged items the system did not retrieve (for an ideal ranking of all judged items).
    k : int >= 1, optional
        The cutoff, meant for DCG and IDCG alike.
    terms, ideal_terms : text or sequence, optional
        The written per-position terms of DCG and of IDCG, position 1 first; ``None``
        or ``?`` for a blank.  Text is read with :func:`metrics.parse.parse_numbers`.
    dcg, idcg, ndcg : text or number, optional
        The written totals; NDCG may be a percentage (``"81.86%"``).
    gain, discount, log_base, idcg_source : optional
        The formula the writer meant (``None``: accept whichever fits best).  A
        gain from :data:`metrics.registry.GAINS`, a discount from
        :data:`metrics.registry.DISCOUNTS`, a base > 0 and != 1, ``"list"`` or ``"judged"``.

    Returns
    -------
    Diagnosis
        ``.variant`` (followed), ``.correct``, ``.findings`` in step order, ``.first``, ``.steps``.

    Examples
    --------
    Document 000 names the exponential gain (2^rel - 1)/log2(1 + i) but writes
    3 + 1.26 + 0.5 + 1.29 + 0.77 = 6.82 for grades 3, 2, 1, 3, 2: the first term
    under its formula is (2^3 - 1)/1 = 7, and 6.82 is the sum of the rounded terms
    (the exact linear DCG is 6.8276, which rounds to 6.83):

    >>> d = diagnose([3, 2, 1, 3, 2], terms=[3, 1.26, 0.5, 1.29, 0.77], dcg=6.82,
    ...              gain="exponential", discount="standard")
    >>> d.variant.gain, d.kinds()
    ('linear', [('wrong_gain', 'term', 1), ('rounded_sum', 'dcg', None)])
    >>> diagnose([3, 2, 1], terms="3 2 1 0")
    Traceback (most recent call last):
    ...
    ValueError: terms has 4 values but the ranked list has only 3 position(s); write at most 3 (use ? for a blank)
    """
    rel = as_grades(grades, name="grades")
    extra = as_grades([] if unretrieved is None else unretrieved, name="unretrieved", allow_empty=True)
    k = check_k(k)
    want_gain = None if gain is None else check_choice(gain, GAINS, name="gain").key
    want_discount = None if discount is None else check_choice(discount, DISCOUNTS, name="discount").key
    want_base = None if log_base is None else check_log_base(log_base)
    if idcg_source is not None and idcg_source not in IDCG_SOURCES:
        raise ValueError(f"unknown idcg_source {str(idcg_source)[:20]!r}; valid names are "
                         + ", ".join(repr(s) for s in IDCG_SOURCES))
    want_source = idcg_source if extra.size else ("list" if idcg_source else None)

    hand: dict[str, object] = {
        "term": _hand_list(terms, "terms", rel.size, "the ranked list"),
        "dcg": _hand_one(dcg, "dcg"),
        "ideal_term": _hand_list(ideal_terms, "ideal_terms", rel.size + extra.size,
                                 "the ideal ranking (list and unretrieved items)"),
        "idcg": _hand_one(idcg, "idcg"),
        "ndcg": _hand_one(ndcg, "ndcg"),
    }
    given = [(s, i + 1 if s in ("term", "ideal_term") else None, h) for s in STEPS
             for i, h in (enumerate(hand[s]) if s in ("term", "ideal_term") else [(0, hand[s])]) if h is not None]
    if not given:
        raise ValueError("no hand-computed value given: write at least one of terms, dcg, ideal_terms, idcg, ndcg")

    # --- 1. the variant the numbers follow -------------------------------------------------------
    bases = _ordered(want_base, LOG_BASES)
    gains = _ordered(want_gain, list(GAINS))
    sources = _ordered(want_source, ["judged", "list"]) if extra.size else ["list"]
    k_matters = k is not None and (k < rel.size or k < rel.size + extra.size)
    k_modes = list(K_MODES) if k_matters else ["both"]
    cache: dict[HandVariant, _Values] = {}
    best, best_cost, overflow = None, math.inf, None
    for g_key, base, source, k_mode, order in product(gains, bases, sources, k_modes, IDEAL_ORDERS):
        discounts = _ordered(want_discount, ["standard", "jarvelin"] + ([] if base == 2.0 else ["log_i"]))
        for d_key in discounts:
            v = HandVariant(g_key, d_key, base, source, k_mode, order)
            try:
                vals = cache[v] = _values(rel, extra, k, v)
            except ValueError as exc:  # huge grades overflow some gains / bases: those variants are out
                overflow = overflow or exc
                continue
            cost = sum(_cost(h, vals.at(s, p)) for s, p, h in given)
            # ties go to what was named, then to the usual choices and no slip
            cost += 1e-4 * (gains.index(g_key) + discounts.index(d_key) + bases.index(base)
                            + sources.index(source) + 2 * K_MODES.index(k_mode) + 2 * IDEAL_ORDERS.index(order))
            if cost < best_cost:
                best, best_cost = v, cost
    if best is None:
        raise overflow or ValueError("no variant can be computed for these grades")
    correct = HandVariant(
        gain=want_gain or best.gain,
        discount=want_discount or (best.discount if best.discount in DISCOUNTS else "standard"),
        log_base=want_base or best.log_base,
        idcg_source=want_source or best.idcg_source,
        k_mode="both",
        ideal_order="sorted",
    )
    followed = cache[best]
    right = cache.get(correct) or _values(rel, extra, k, correct)  # the named formula: its overflow is an error

    findings: list[tuple[tuple, Finding]] = []

    def order_key(step: str, position: int | None, sub: int) -> tuple:
        return (STEPS.index(step), position or 0, sub)

    # --- 2. formula choices that differ from the named ones ----------------------------------------
    for dim, kind in VARIANT_DIMENSIONS.items():
        if best.value_of(dim) == correct.value_of(dim):
            continue
        alt = replace(best, **{dim: correct.value_of(dim)})
        alt_vals = cache.get(alt) or right
        where = next(((s, p, h) for s, p, h in given if _differs(h, followed.at(s, p), alt_vals.at(s, p))), None)
        if where is None:
            where = next(((s, p, h) for s, p, h in given if _differs(h, followed.at(s, p), right.at(s, p))),
                         given[0])
        s, p, h = where
        findings.append((order_key(s, p, 0), Finding(
            kind, s, p, h.value, right.at(s, p),
            {"theirs_variant": best.value_of(dim), "correct_variant": correct.value_of(dim), "k": k},
        )))

    # --- 3. step by step against the formula followed ------------------------------------------------
    bad_steps: set[tuple[str, int | None]] = set()
    ideal = _ideal_for(rel, extra, best.idcg_source, best.ideal_order)
    grades_of = {"term": rel, "ideal_term": ideal}
    for s, p, h in given:
        exact = followed.at(s, p)
        found = _step_finding(s, p, h, exact, hand, followed, bad_steps, k, best, grades_of)
        if found is None:
            continue
        for j, f in enumerate(found if isinstance(found, list) else [found]):
            if f.kind not in NOTES:
                bad_steps.add((s, p))
            findings.append((order_key(s, p, 1 + j), f))
    findings.sort(key=lambda item: item[0])

    return Diagnosis(
        variant=best,
        correct=correct,
        findings=[f for _, f in findings],
        steps=_steps_table(hand, followed, right, [f for _, f in findings]),
        k=k,
        grades=tuple(rel.tolist()),
        unretrieved=tuple(extra.tolist()),
    )


def _differs(h: HandNumber, a: float, b: float) -> bool:
    if math.isnan(a) and math.isnan(b):
        return False
    if math.isnan(a) or math.isnan(b):  # a position past the cutoff on one side: it shows once it adds something
        return abs(b if math.isnan(a) else a) > h.tolerance
    return abs(a - b) > h.tolerance


def _own_sum(hand_terms: list, expected_len: int) -> float | None:
    if not hand_terms or len(hand_terms) != expected_len or any(h is None for h in hand_terms):
        return None
    return math.fsum(h.value for h in hand_terms)


def _neighbour(h: HandNumber, step: str, position: int, variant: HandVariant, grades: np.ndarray):
    """The neighbouring position whose divisor gives the written term (log_b i for log_b(i + 1)), or None."""
    if position > grades.size:
        return None
    gain = float(GAINS[variant.gain].func(grades[position - 1: position])[0])
    discount = _ALL_DISCOUNTS[variant.discount]
    for other in (position - 1, position + 1):
        if other < 1:
            continue
        divisor = float(discount.func(np.array([float(other)]), variant.log_base)[0])
        if divisor > 0 and _close(h, gain / divisor) and not _close(h, gain / float(
                discount.func(np.array([float(position)]), variant.log_base)[0])):
            return {"neighbour": other, "their_divisor": divisor,
                    "divisor": float(discount.func(np.array([float(position)]), variant.log_base)[0])}
    return None


def _step_finding(step, position, h: HandNumber, exact: float, hand, vals: _Values, bad_steps, k,
                  variant: HandVariant, grades_of: dict):
    if step in ("term", "ideal_term"):
        if math.isnan(exact):
            return Finding("beyond_k", step, position, h.value, math.nan, {"k": k})
        if _close(h, exact):
            return None
        base = {"rounded": _format(exact, h.scale), "scale": h.scale}
        if _is_truncation(h, exact):
            return Finding("truncation", step, position, h.value, exact, base)
        neighbour = _neighbour(h, step, position, variant, grades_of[step])
        if neighbour is not None:
            # one divisor taken from the position before (or after): the log(i) / log(i + 1) mix-up, once
            return Finding("log_offset", step, position, h.value, exact, {**base, **neighbour, "form": "term"})
        return Finding("arithmetic_slip", step, position, h.value, exact, base)

    if step in ("dcg", "idcg"):
        side = "term" if step == "dcg" else "ideal_term"
        n = (vals.terms if step == "dcg" else vals.ideal_terms).size
        own = _own_sum(hand[side], n)
        base = {"rounded": _format(exact, h.scale), "scale": h.scale}
        wrong_terms = sorted(p for s, p in bad_steps if s == side)
        if _close(h, exact):
            if own is not None and abs(own - h.value) > h.tolerance * (1 + 1e-9) + 1e-12:
                # right total, but the terms written beside it add up to something else
                return Finding("self_inconsistent_sum", step, None, h.value, exact,
                               {**base, "their_sum": own, "also": wrong_terms})
            return None
        if own is not None and abs(own - h.value) <= h.tolerance * (1 + 1e-9) + 1e-12:
            if wrong_terms:  # the sum is right for the terms written, but some of them were off
                return Finding("carried_forward", step, None, h.value, exact,
                               {**base, "their_sum": own, "from": [(side, p) for p in wrong_terms]})
            return Finding("rounded_sum", step, None, h.value, exact, {**base, "their_sum": own, "also": []})
        if _is_truncation(h, exact):
            return Finding("truncation", step, None, h.value, exact, base)
        return Finding("arithmetic_slip", step, None, h.value, exact,
                       {**base, **({"their_sum": own} if own is not None else {})})

    # NDCG
    return _ndcg_findings(h, exact, hand, bad_steps)


def _ndcg_params(h: HandNumber, exact: float) -> dict:
    percent = _format(exact * 100, max(0, h.scale - 2)) + "%"
    return {"rounded": percent if h.percent else _format(exact, h.scale), "percent": percent, "scale": h.scale}


def _ndcg_findings(h: HandNumber, exact: float, hand, bad_steps) -> list[Finding]:
    if _close(h, exact):
        return []
    out: list[Finding] = []
    base = _ndcg_params(h, exact)
    their_dcg, their_idcg = hand["dcg"], hand["idcg"]
    ratio = their_dcg.value / their_idcg.value if (their_dcg and their_idcg and their_idcg.value) else None
    flipped = _rescaled(h)
    # NDCG is never above 1, so 81.86 is a percentage without its sign; 0.82% is checked by value.
    if flipped is not None and (h.value > 1 or _close(flipped, exact) or _is_truncation(flipped, exact)
                                or (ratio is not None and _close(flipped, ratio))):
        out.append(Finding("percent_vs_fraction", "ndcg", None, h.value, exact,
                           {**base, "wrote_percent": not h.percent}))
        h = flipped
        base = _ndcg_params(h, exact)
        if _close(h, exact):
            return out
    if ratio is not None and _close(h, ratio):
        earlier = [(s, None) for s in ("dcg", "idcg") if (s, None) in bad_steps]
        if earlier:
            out.append(Finding("carried_forward", "ndcg", None, h.value, exact,
                               {**base, "ratio": ratio, "from": earlier}))
        else:
            out.append(Finding("ratio_of_rounded", "ndcg", None, h.value, exact,
                               {**base, "ratio": ratio, "their_dcg": their_dcg.value, "their_idcg": their_idcg.value,
                                "dcg_text": their_dcg.shown(), "idcg_text": their_idcg.shown()}))
    elif _is_truncation(h, exact):
        out.append(Finding("truncation", "ndcg", None, h.value, exact, base))
    else:
        out.append(Finding("arithmetic_slip", "ndcg", None, h.value, exact,
                           {**base, **({"ratio": ratio} if ratio is not None else {})}))
    return out


def _steps_table(hand, followed: _Values, right: _Values, findings: list[Finding]) -> pd.DataFrame:
    rows = []
    by_step: dict[tuple, list[str]] = {}
    for f in findings:
        by_step.setdefault((f.step, f.position), []).append(f.kind)
    for step in STEPS:
        if step in ("term", "ideal_term"):
            n = max(len(hand[step]), (right.terms if step == "term" else right.ideal_terms).size)
            keys = [(step, i) for i in range(1, n + 1)]
        else:
            keys = [(step, None)]
        for s, p in keys:
            h = hand[s][p - 1] if p is not None and p <= len(hand[s]) else (hand[s] if p is None else None)
            kinds = by_step.get((s, p), [])
            rows.append({
                "step": s,
                "position": p,
                "theirs": h.value if h else math.nan,
                "theirs_text": h.shown() if h else "",
                "scale": h.scale if h else None,
                "followed": followed.at(s, p),
                "correct": right.at(s, p),
                "ok": None if h is None else _close(h, right.at(s, p)),
                "kinds": ",".join(kinds),
            })
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------------
# The documents' own sheets (from metrics.lessons.examples), as diagnose() arguments
# ------------------------------------------------------------------------------------------------
#: Worked examples of :mod:`metrics.lessons.examples` that are a hand calculation of one formula.
EXAMPLE_SHEETS = ("003-blog", "001-main", "000-graded", "000-formula2", "002-wiki", "000-binary")


def example_sheet(key: str) -> dict:
    """:func:`diagnose` keyword arguments holding what a document prints, as printed.

    The unretrieved grades are the document's judged items minus its list; the
    formula the document *names* is the intended one.

    Parameters
    ----------
    key : str
        One of :data:`EXAMPLE_SHEETS`, keys of :data:`metrics.lessons.examples.EXAMPLES`.

    Returns
    -------
    dict
        ``grades``, ``unretrieved``, ``k``, the printed ``terms``, ``dcg``, ``ideal_terms``, ``idcg``
        and ``ndcg`` as text (``"?"`` for a term the document does not print), and the named
        formula's ``gain``, ``discount`` and ``log_base``.

    Raises
    ------
    ValueError
        If ``key`` is not one of :data:`EXAMPLE_SHEETS`.

    Examples
    --------
    Document 003 prints its terms truncated to two decimals (0.38 for 1/log2(6) = 0.3869):

    >>> s = example_sheet("003-blog")
    >>> s["terms"], s["unretrieved"], s["idcg"], s["ndcg"]
    ('3 1.26 1.5 0 0.38 0.71', [3.0, 0.0], '8.37', '81.96%')
    """
    from collections import Counter

    from .examples import EXAMPLES, FORMULAS

    example = check_choice(key, {k: EXAMPLES[k] for k in EXAMPLE_SHEETS}, name="example")
    rel = list(example.relevances)
    unretrieved: list[float] = []
    need = Counter(rel)
    for g in example.pool or ():
        if need[g] > 0:
            need[g] -= 1
        else:
            unretrieved.append(g)

    def seq(quantity: str) -> str:
        texts = {p.position: p.text for p in example.printed if p.quantity == quantity and not p.variant}
        return " ".join(texts.get(i, "?") for i in range(1, max(texts, default=0) + 1))

    def one(quantity: str) -> str:
        return next((p.text for p in example.printed if p.quantity == quantity and not p.variant), "")

    formula = FORMULAS[example.named]
    return {
        "grades": rel,
        "unretrieved": unretrieved,
        "k": example.k,
        "terms": seq("dcg_term"),
        "dcg": one("dcg"),
        "ideal_terms": seq("idcg_term"),
        "idcg": one("idcg"),
        "ndcg": one("ndcg"),
        "gain": formula.gain,
        "discount": formula.discount,
        "log_base": formula.log_base,
    }
