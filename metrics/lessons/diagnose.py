"""Check a hand calculation of DCG, IDCG and NDCG: where it first goes wrong, why, and one verdict per answer.

People compute NDCG on paper and write down some of the per-position terms, DCG,
the ideal terms, IDCG and NDCG, each rounded the way they like (``7.99``,
``0.91``, ``81.86%``).  :func:`diagnose` takes the grades, the formula meant and
whatever they wrote, and

1. judges every written number against **the exercise's value** (the formula meant), allowing the writer's
   own rounding (``0.91`` may be anything in [0.905, 0.915]; ``82%`` anything in [0.815, 0.825]): a number
   that rounds right is right, whatever else is on the sheet;
2. explains every other number by the catalogue of misconceptions
   (:data:`metrics.lessons.misconceptions.MISCONCEPTIONS`): a formula entry found by applying it to the
   exercise's formula, on the DCG side, the ideal side or both; a writing entry (digits cut off, rounded
   terms added, NDCG from rounded totals, percent vs fraction, a term past k); or a plain slip.  A number
   that follows from the writer's own earlier, wrong numbers is *carried forward* from that step, not a
   new mistake;
3. gives one :class:`Verdict` per answer field (:data:`FIELDS`) — right; wrong, with the misconception;
   carried forward from step X; unfinished (a list with positions missing and nothing wrong) — the verdict
   every page and the classroom show (:meth:`Diagnosis.verdict`).

All numbers come from :mod:`metrics.ndcg` through :class:`metrics.lessons.misconceptions.Calculation`.

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
>>> d.verdict("idcg").state, d.verdict("idcg").carried_from, d.verdict("dcg").state
('carried_forward', ('ideal_terms',), 'right')
"""
from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from itertools import combinations, product

import numpy as np
import pandas as pd

from .._validation import as_grades, check_choice, check_k, check_log_base, check_whole
from ..ndcg import breakdown
from ..parse import ParseError, parse_numbers, split_tokens
from ..registry import DISCOUNTS, GAINS, IDCG_SOURCES, Choice
from ..variant import Variant
from .examples import VERDICTS
from .misconceptions import (
    LOG_BASES,
    MISCONCEPTIONS,
    SIDE_DISCOUNTS,
    SIDES,
    Calculation,
    Misconception,
    Side,
    Values,
    formula_entries,
    named_discount,
    tie_groups,
    written_orders,
)

__all__ = [
    "MISTAKES",
    "NOTES",
    "STEPS",
    "FIELDS",
    "STEP_OF_FIELD",
    "FIELD_OF_STEP",
    "STATES",
    "MARKS",
    "HandNumber",
    "Finding",
    "Verdict",
    "Diagnosis",
    "hand_number",
    "hand_numbers",
    "Precision",
    "written_precision",
    "rounded_like",
    "diagnose",
    "BLANKS",
    "example_sheet",
    "EXAMPLE_SHEETS",
]


# ------------------------------------------------------------------------------------------------
# Kinds, steps, verdicts
# ------------------------------------------------------------------------------------------------
def _from_verdict(key: str) -> Misconception:
    # The same concept as a worked example's verdict: one English text (metrics.lessons.examples.VERDICTS);
    # it is about how one number follows from others ("any" scope), not a formula choice.
    v = VERDICTS[key]
    return Misconception(v.key, v.name, v.help, scope="any")


#: Every kind a finding can have: the misconceptions, "carried forward" (a number that follows from the
#: writer's own earlier mistake) and the notes.
MISTAKES: dict[str, Misconception] = {
    **MISCONCEPTIONS,
    "carried_forward": _from_verdict("carried_forward"),
    "self_inconsistent_sum": _from_verdict("self_inconsistent_sum"),
}

#: Findings that are worth saying but are not a wrong number (the step itself is right).
NOTES = frozenset({"self_inconsistent_sum"})

#: The steps of a hand calculation, in the order they are done, and the answer field of each.
STEPS = ("term", "dcg", "ideal_term", "idcg", "ndcg")
FIELDS = ("terms", "dcg", "ideal_terms", "idcg", "ndcg")
STEP_OF_FIELD = dict(zip(FIELDS, STEPS))
FIELD_OF_STEP = dict(zip(STEPS, FIELDS))

#: The verdict on one answer and the mark every view draws for it.
STATES = ("right", "wrong", "carried_forward", "unfinished")
MARKS = {"right": "✓", "wrong": "✗", "carried_forward": "↪", "unfinished": "…"}
BLANKS = frozenset({"?", "_", "-", "…", "...", "—", "–"})
_SIDE_OF = {"term": "dcg", "dcg": "dcg", "ideal_term": "ideal", "idcg": "ideal"}


@dataclass(frozen=True)
class Verdict:
    """The one verdict on one answer field, shown the same way by Practice, Check my calculation, the
    student's class page, the teacher's grid, first-try share, spread, mistakes table and CSV.

    ``state`` is one of :data:`STATES`: ``"right"`` (every number that counts written and right, nothing past
    the cutoff); ``"wrong"`` with ``mistakes``, the misconceptions named at this step (first first);
    ``"carried_forward"`` from the fields in ``carried_from`` (worked out from the writer's own earlier
    numbers, which were wrong); ``"unfinished"`` (a list with positions missing and nothing wrong).
    ``notes`` never make an answer wrong.

    >>> v = Verdict("carried_forward", carried_from=("dcg",))
    >>> v.ok, v.mark, v.stored()
    (False, '↪', (False, 'carried_forward:dcg', ''))
    >>> Verdict.from_stored(*v.stored()) == v
    True
    >>> Verdict.from_stored(False, "truncation", "").state, Verdict.from_stored(False, "", "").state
    ('wrong', 'unfinished')
    """

    state: str
    mistakes: tuple[str, ...] = ()
    carried_from: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.state == "right"

    @property
    def mark(self) -> str:
        return MARKS[self.state]

    def stored(self) -> tuple[bool, str, str]:
        """``(ok, kinds, notes)`` as a database row or CSV keeps them: kinds is the comma list of mistakes, or
        ``carried_forward:<field>+<field>`` for a carried answer."""
        if self.state == "carried_forward":
            kinds = "carried_forward:" + "+".join(self.carried_from)
        else:
            kinds = ",".join(self.mistakes)
        return self.ok, kinds, ",".join(self.notes)

    @classmethod
    def from_stored(cls, ok, kinds, notes="") -> Verdict:
        """The verdict a stored ``(ok, kinds, notes)`` stands for (rows stored before this form: a bare
        ``carried_forward`` is carried from an earlier step, notes once kept among the kinds stay notes)."""
        parts = [k for k in str(kinds or "").split(",") if k]
        note_parts = tuple(dict.fromkeys([k for k in str(notes or "").split(",") if k]
                                         + [k for k in parts if k in NOTES]))
        parts = [k for k in parts if k not in NOTES]
        if bool(ok):
            return cls("right", notes=note_parts)
        carried = next((k for k in parts if k.split(":")[0] == "carried_forward"), None)
        if carried is not None:
            sources = tuple(x for x in carried.partition(":")[2].split("+") if x)
            return cls("carried_forward", carried_from=sources, notes=note_parts)
        if parts:
            return cls("wrong", mistakes=tuple(parts), notes=note_parts)
        return cls("unfinished", notes=note_parts)


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


@dataclass(frozen=True)
class Precision:
    """What a written number's last digit allows, in the unit it was written in (:func:`written_precision`).

    ``decimals`` are the digits after the point as written (``83.5%`` has 1, as a percent); ``half`` is half a
    unit of the last digit and ``lo``/``hi`` the interval the exact value may lie in, all in the written unit
    (percentage points for a percent); ``tolerance`` is ``half`` as a fraction (what the diagnosis compares).
    """

    text: str
    percent: bool
    decimals: int
    half: str
    lo: str
    hi: str
    tolerance: float


def written_precision(value) -> Precision:
    """How precise a written number is, said in the unit it was written in: the one description of a number's
    precision on Check my calculation, Practice, the classroom and Which convention?.

    A number is right when the exact value lies within half a unit of its last digit: ``0.92`` allows
    ±0.005 (0.915 to 0.925); ``83.5%`` allows ±0.05 percentage points (83.45% to 83.55%), that is ±0.0005 as a
    fraction; ``81.8%`` has one decimal as written (three as a fraction).

    Parameters
    ----------
    value : str, float, int or HandNumber
        The number as written (read by :func:`hand_number`; a HandNumber keeps the decimals it was read with:
        a whole number in a list of terms counts the list's decimals).

    Returns
    -------
    Precision

    Raises
    ------
    ValueError
        For text that is not one number (see :func:`hand_number`).

    Examples
    --------
    >>> p = written_precision("83.5%")
    >>> p.decimals, p.half, p.lo, p.hi, p.tolerance
    (1, '0.05', '83.45', '83.55', 0.0005)
    >>> p = written_precision("0.92")
    >>> p.percent, p.decimals, p.half, p.lo, p.hi
    (False, 2, '0.005', '0.915', '0.925')
    >>> written_precision("3").half, written_precision("81.8%").decimals
    ('0.5', 1)
    """
    h = hand_number(value, name="value")
    shown = h.value * 100 if h.percent else h.value
    d = h.decimals
    half = 0.5 * 10.0 ** (-d)
    return Precision(h.shown(), h.percent, d, _format(half, d + 1), _format(shown - half, d + 1),
                     _format(shown + half, d + 1), h.tolerance)


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
        comma = _DECIMAL_COMMA.search(value)
        if comma is not None and len(tokens) == 2:  # "6,86": a decimal comma, not two numbers
            raise ParseError(f"{where}: '{comma.group(0)}' has a decimal comma; write a point: "
                             f"{comma.group(0).replace(',', '.')}", token=comma.group(0), position=1,
                             kind="decimal_comma")
        raise ParseError(f"{where}: '{tokens[1][:20]}' is a second number; write one number here",
                         token=tokens[1], position=2, kind="second_number")
    token = tokens[0]
    try:
        (out,) = parse_numbers(token, allow_percent=True)
    except ParseError as exc:
        raise ParseError(f"{where}: '{token[:20]}' is not a number", token=exc.token,
                         position=position or 1, kind=exc.kind) from None
    return HandNumber(out, _decimals(token), token.endswith("%"), token)


#: A number written with a decimal comma ("1,89", "96,08%"): read as two values, since a comma separates
#: values in every list (:func:`metrics.parse.split_tokens`).
_DECIMAL_COMMA = re.compile(r"(?<![\d.,])\d+,\d+%?(?![\d.,])")


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


def rounded_like(h: HandNumber, exact: float, *, step: str | None = None, scale: int | None = None,
                 percent: bool | None = None) -> str:
    """``exact`` rounded the way ``h`` is written: the one rounding "like yours" of every page and explanation.

    The digits the student wrote, in the form they meant: a percent as a percent (``81.86%``), a fraction as a
    fraction.  The form meant is ``percent`` when the diagnosis knows it (a percent written without its sign, a
    ratio of their own carried forward); otherwise a number with ``%`` is a percent, and an NDCG written above 1
    is the percent it stands for when, read so, it is nearer the value (by ratio) than read as a fraction —
    ``76.8`` for 0.8184 is 76.8%, compared as ``81.8%``, never as a fraction at the written decimals (``0.8``);
    ``1.17`` for 0.5 is a fraction.

    Parameters
    ----------
    h : HandNumber
        The number as written.
    exact : float
        The value to write like it (the exercise's, or the student's own).
    step : str, optional
        The step it was written at (``"ndcg"``: a number above 1 may be a percent without its sign).
    scale : int, optional
        Decimals of the fraction to round to instead of the written ones (the exercise's asked precision).
    percent : bool, optional
        The form the student meant, when known.

    Returns
    -------
    str
        Empty for a value that is not finite.

    Examples
    --------
    >>> rounded_like(hand_number("76.8"), 0.818354, step="ndcg"), rounded_like(hand_number("0.77"), 0.818354)
    ('81.8%', '0.82')
    >>> rounded_like(hand_number("82%"), 0.818354, step="ndcg"), rounded_like(hand_number("7.1"), 7.14099)
    ('82%', '7.1')
    >>> rounded_like(hand_number("1.17"), 0.5, step="ndcg"), rounded_like(hand_number("0.96%"), 0.818354, percent=False)
    ('0.50', '0.82')
    >>> rounded_like(hand_number("0.8"), 0.818354, step="ndcg", scale=3)
    '0.818'

    A whole number in a list of terms counts the list's decimals ("3" beside "1.26" is read as 3.00); the
    exercise's value that rounds to it is shown as it was written, another at the list's decimals:

    >>> three = hand_numbers("3 1.26")[0]
    >>> three = replace(three, decimals=2)  # as diagnose reads a list
    >>> rounded_like(three, 3.0), rounded_like(three, 2.9999), rounded_like(three, 3.4)
    ('3', '3', '3.40')
    """
    if exact is None or not math.isfinite(exact):
        return ""
    if percent is None:
        percent = h.percent
        if step == "ndcg" and not h.percent and h.value > 1 and exact > 0:
            percent = abs(math.log(h.value / 100 / exact)) < abs(math.log(h.value / exact))
    if percent:
        decimals = h.decimals if scale is None else max(0, scale - 2)
        return _format(exact * 100, decimals) + "%"
    out = _format(exact, h.decimals if scale is None else scale)
    if scale is None and not h.percent and h.text:
        # a whole number in a list of terms is read at the list's decimals ("3" beside "1.26" is 3.00); where
        # the exercise's value rounds to it there, it is shown as the student wrote it ("3", not "3.00")
        written = _decimals(h.text)
        if written < h.decimals and float(out) == h.value:
            return _format(exact, written)
    return out


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


def _fits(h: HandNumber, value: float) -> bool:
    """Written as ``value`` rounded, or cut off."""
    return _close(h, value) or _is_truncation(h, value)


def _differs(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) != math.isnan(b)
    return abs(a - b) > 1e-9 * max(1.0, abs(a), abs(b))


# ------------------------------------------------------------------------------------------------
# Findings and the result
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """One thing that is off: a kind of :data:`MISTAKES` at a step (and 1-based position for terms).

    ``theirs`` is the value written (as a fraction), ``expected`` **the exercise's value** at that step (its
    formula, exact), ``params`` whatever an explanation needs: ``rounded`` (the exercise's value rounded like
    the written one, :func:`rounded_like`), ``own`` (what the writer's own formula or numbers give there) and
    ``own_text`` (the same written like theirs; ``own_percent`` beside it for a percent mixed up with a
    fraction), ``side`` (``"dcg"``, ``"ideal"`` or ``"both"`` for a formula entry), ``theirs_variant``/
    ``correct_variant`` (the choice used and the exercise's; a discount named by
    :func:`metrics.lessons.misconceptions.named_discount`, an ideal order of the writer's own as the tuple of its
    grades), ``from`` (the fields a carried number follows from), sums and ratios.
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

    ``correct`` is the exercise's calculation, ``followed`` the one the numbers follow (side by side: the DCG
    side and the ideal side may differ), ``findings`` the findings in step order, ``steps`` one row per step
    with the written, followed and exercise's values (and ``rounded``: the exercise's value rounded like the
    written one, :func:`rounded_like`), ``verdicts`` the :class:`Verdict` of each answered field of
    :data:`FIELDS`.
    """

    correct: Calculation
    followed: Calculation
    findings: list[Finding]
    steps: pd.DataFrame
    verdicts: dict[str, Verdict]
    k: int | None
    grades: tuple[float, ...]
    unretrieved: tuple[float, ...]

    @property
    def first(self) -> Finding | None:
        """The first misconception, at the step where it first shows; None when every number written is right."""
        return next((f for f in self.findings if f.kind not in NOTES and f.kind != "carried_forward"), None)

    @property
    def ok(self) -> bool:
        """Every number written is right (:data:`NOTES` may still be among the findings)."""
        return all(v.ok or v.state == "unfinished" for v in self.verdicts.values())

    def verdict(self, field_name: str) -> Verdict | None:
        """The verdict on one answer field (a key of :data:`FIELDS`); None when it was not answered."""
        if field_name not in FIELDS:
            raise ValueError(f"field must be one of {', '.join(FIELDS)}, got {str(field_name)[:20]!r}")
        return self.verdicts.get(field_name)

    def breakdown(self) -> pd.DataFrame:
        """The corrected calculation, position by position (:func:`metrics.ndcg.breakdown`)."""
        rel = np.asarray(self.grades)
        c = self.correct
        pool = np.r_[rel, np.asarray(self.unretrieved)] if c.idcg == "judged" else None
        return breakdown(rel, k=self.k, gain=c.dcg.gain, discount=c.dcg.discount, log_base=c.dcg.log_base, pool=pool)

    def kinds(self) -> list[tuple[str, str, int | None]]:
        return [(f.kind, f.step, f.position) for f in self.findings]


# ------------------------------------------------------------------------------------------------
# The engine
# ------------------------------------------------------------------------------------------------
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
        comma = _DECIMAL_COMMA.search(values) if isinstance(values, str) else None
        if comma is not None:  # "3 1,89 1": the comma made one number two, and the list too long
            raise ParseError(f"{name}: '{comma.group(0)}' has a decimal comma; write a point: "
                             f"{comma.group(0).replace(',', '.')}", token=comma.group(0),
                             position=limit + 1, kind="decimal_comma")
        raise ParseError(f"{name} has {len(out)} values but {what} has only {limit} position(s); "
                         f"write at most {limit} (use ? for a blank)", token=str(values_text(values, limit)),
                         position=limit + 1, kind="too_many")
    return out


def values_text(values, limit: int) -> str:
    """The first value past position ``limit`` of a hand-written list, as typed (for an error message)."""
    items = split_tokens(values) if isinstance(values, str) else [str(v) for v in values]
    return items[limit] if len(items) > limit else ""


def _hand_one(value, name: str) -> HandNumber | None:
    if value is None or (isinstance(value, str) and (not value.strip() or value.strip() in BLANKS)):
        return None
    return hand_number(value, name=name)


def _cost(h: HandNumber | None, exact: float) -> float:
    if h is None:
        return 0.0
    if math.isnan(exact):
        return 1.0  # written where this calculation has no position
    if _close(h, exact):
        return 0.0
    if _is_truncation(h, exact):
        return 0.25
    return 1.0


@dataclass(frozen=True)
class _Cand:
    """One way of computing a side: the misconceptions applied (none: the exercise's) and its numbers."""

    entries: tuple[str, ...]
    changes: tuple[tuple[str, object], ...]
    terms: np.ndarray
    total: float

    def at(self, position: int | None) -> float:
        if position is None:
            return self.total
        return float(self.terms[position - 1]) if 1 <= position <= self.terms.size else math.nan

    def value(self, dim: str, correct: Calculation, which: str):
        for d, v in self.changes:
            if d == dim:
                return v
        if dim == "ranking":
            return None  # as given
        return getattr(correct, dim) if dim in ("idcg", "ideal_order") else getattr(correct.side(which), dim)


@dataclass
class _Mark:
    """The judgement of one written number."""

    step: str
    position: int | None
    hand: HandNumber
    expected: float
    state: str = "right"
    kinds: tuple[str, ...] = ()
    params: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    followed: float = math.nan
    #: a formula misconception's own choices (dimension, theirs_variant, correct_variant) when ``kinds`` names
    #: several: each finding explains its own dimension, not the first one's
    by_kind: dict = field(default_factory=dict)


class _Engine:
    def __init__(self, rel: np.ndarray, extra: np.ndarray, k: int | None, correct: Calculation, hand: dict,
                 ties: tuple[tuple[int, ...], ...] = ()):
        self.rel, self.extra, self.k, self.correct, self.hand = rel, extra, k, correct, hand
        self.ties = ties  # the ranked list's groups of tied items (0-based positions)
        self.right = correct.values_of(rel, extra, k)  # the exercise's numbers: its overflow is an error
        self.values: dict[str, dict] = {}  # side -> changes -> _Cand, every way computed (duplicates too)
        self.cands = {w: self._candidates(w) for w in ("dcg", "ideal")}
        self.cands["ideal"] += self._written_orders()

    # --- candidates ---------------------------------------------------------------------------------
    def _spec(self, which: str, changes) -> tuple[Side, str, str]:
        side, source, order = self.correct.side(which), self.correct.idcg, self.correct.ideal_order
        for dim, v in changes:
            if dim == "idcg":
                source = v
            elif dim == "ideal_order":
                order = v
            elif dim == "ranking":
                continue  # the items' order, not a choice of the side (:meth:`_ranking`)
            else:
                side = replace(side, **{dim: v})
        return side, source, order

    @staticmethod
    def _ranking(changes) -> tuple[float, ...] | None:
        """The ranked list's grades in the writer's order (``tie_order``), or None: as given."""
        return next((v for d, v in changes if d == "ranking"), None)

    def _side_values(self, which: str, changes) -> tuple[np.ndarray, float]:
        side, source, order = self._spec(which, changes)
        calc = Calculation(side, side, source, order)
        ranking = self._ranking(changes)
        if which == "dcg":
            grades = self.rel if ranking is None else np.asarray(ranking, dtype=np.float64)
        else:
            grades = calc.ideal_grades(self.rel, self.extra)
        terms = side.terms(grades, self.k)
        try:
            total = math.fsum(terms.tolist())
        except OverflowError:
            total = math.inf
        if not math.isfinite(total):
            raise ValueError("overflow")
        return terms, total

    def _candidates(self, which: str) -> list[_Cand]:
        """The exercise's way first, then every formula entry and every pair of them, applied to this side
        (catalogue order); a way whose numbers equal an earlier one's is left out (it cannot be told apart)."""
        right = (self.right.terms, self.right.dcg) if which == "dcg" else (self.right.ideal_terms, self.right.idcg)
        out = [_Cand((), (), *right)]
        self.values[which] = {(): out[0]}
        singles, alone = [], []  # ``alone``: other orders of the tied items, never paired (bounded work)
        scopes = ("side", "ranking") if which == "dcg" else ("side", "ideal")
        for e in (e for e in formula_entries() if e.scope in scopes):
            dim = e.dimension
            if dim == "cut" and self.k is None:
                continue
            if dim == "idcg" and not self.extra.size:
                continue
            if e.scope == "ranking":  # the tied items in other orders (bounded: metrics.lessons.misconceptions);
                # the first (every tie the other way: the other rule) also pairs with another entry
                orders = [((e.key,), ((dim, v),)) for v in e.func((self.rel.tolist(), self.ties))]
                singles += orders[:1]
                alone += orders[1:]
                continue
            current = getattr(self.correct, dim) if e.scope == "ideal" else getattr(self.correct.side(which), dim)
            singles += [((e.key,), ((dim, v),)) for v in e.func(current)]
        combos = singles + alone + [(a[0] + b[0], a[1] + b[1]) for a, b in combinations(singles, 2)
                                    if a[1][0][0] != b[1][0][0]]
        seen = {self._key(*right)}
        for entries, changes in combos:
            try:
                cand = _Cand(entries, changes, *self._side_values(which, changes))
            except ValueError:  # huge grades overflow some gains: that way of computing is out
                continue
            self.values[which][changes] = cand
            key = self._key(cand.terms, cand.total)
            if key in seen:  # the same numbers as an earlier (preferred) way: it cannot be told apart here
                continue
            seen.add(key)
            out.append(cand)
        return out

    def _written_orders(self) -> list[_Cand]:
        """The ideal ranking in an order of the writer's own (``ideal_order``), read back from the written IDCG
        terms (:func:`metrics.lessons.misconceptions.written_orders`): under the exercise's way of computing the
        ideal side and under each single formula entry (a pair: another gain and unsorted ...), one way per
        filling of the unwritten positions."""
        written = [(p, h.value, h.tolerance) for p, h in enumerate(self.hand["ideal_term"], start=1) if h is not None]
        if not written:
            return []
        out: list[_Cand] = []
        # the same numbers as a way of as many entries or fewer cannot be told apart from it; fewer entries are
        # preferred (an order of the student's own alone, not another gain with the ranked order)
        seen: dict[tuple, int] = {}
        for c in self.cands["ideal"]:
            key = self._key(c.terms, c.total)
            seen[key] = min(seen.get(key, len(c.entries)), len(c.entries))
        ways = [c for c in self.cands["ideal"] if len(c.entries) <= 1 and "ideal_order" not in c.entries]
        for way in ways:
            side, source, _ = self._spec("ideal", way.changes)
            pool = np.r_[self.rel, self.extra] if source == "judged" else self.rel
            for order in written_orders(written, pool, side, self.k):
                alone = (("ideal_order", order),)
                for entries, changes in (((*way.entries, "ideal_order"), way.changes + alone),
                                         (("ideal_order",), alone)):
                    if changes in self.values["ideal"]:
                        continue
                    try:
                        cand = _Cand(entries, changes, *self._side_values("ideal", changes))
                    except ValueError:  # the order is of another set of items, or overflows
                        continue
                    self.values["ideal"][changes] = cand
                    key = self._key(cand.terms, cand.total)
                    if changes == way.changes + alone and seen.get(key, math.inf) > len(entries):
                        seen[key] = len(entries)
                        out.append(cand)
        return out

    @staticmethod
    def _key(terms: np.ndarray, total: float) -> tuple:
        return tuple(float(f"{x:.10g}") for x in terms.tolist()) + (float(f"{total:.10g}"),)

    def _calc_of(self, cand_d: _Cand, cand_i: _Cand) -> Calculation:
        """The calculation the numbers follow, each side's discount named the one way (:func:`named_discount`)."""
        d_side = self._spec("dcg", cand_d.changes)[0]
        i_side, source, order = self._spec("ideal", cand_i.changes)
        d_side = replace(d_side, discount=named_discount(d_side.discount, d_side.log_base, cand_d.terms.size))
        i_side = replace(i_side, discount=named_discount(i_side.discount, i_side.log_base, cand_i.terms.size))
        return Calculation(d_side, i_side, source, order, self._ranking(cand_d.changes))

    # --- fitting one side -----------------------------------------------------------------------------
    def _own_sum(self, items: list, fill: _Cand) -> float | None:
        """The writer's terms added up, blanks within them filled with ``fill``'s values."""
        hand_terms = [h for h in items]
        if not hand_terms or all(h is None for h in hand_terms):
            return None
        vals = [h.value if h is not None else fill.at(p) for p, h in enumerate(hand_terms, start=1)]
        if any(math.isnan(v) for v in vals):
            return None
        return math.fsum(vals)

    def _fit(self, which: str, items: list, total: HandNumber | None) -> _Cand:
        written = [(p, h) for p, h in enumerate(items, start=1) if h is not None]
        limit = 1 if len(written) + (total is not None) <= 1 else 2

        def cost(c: _Cand) -> float:
            s = sum(_cost(h, c.at(p)) for p, h in written)
            if total is not None:
                own = self._own_sum(items, c)  # the written terms added, this way's values in the blanks
                if not (own is not None and _close(total, own)):
                    s += _cost(total, c.total)
            return s

        cands = self.cands[which]
        best, best_cost = cands[0], cost(cands[0])
        for c in cands[1:]:
            if len(c.entries) > limit:
                continue
            cc = cost(c)
            if cc < best_cost - 1e-9 or (cc <= best_cost + 1e-9 and len(c.entries) < len(best.entries)):
                best, best_cost = c, cc
        return best

    def _showing(self, which: str, cand: _Cand, position: int | None) -> tuple[str, ...]:
        """The entries of ``cand`` that change the number at ``position`` (None: the total)."""
        here = cand.at(position)
        shown = []
        for e, change in zip(cand.entries, cand.changes):
            other = self.values[which].get(tuple(c for c in cand.changes if c != change))
            if other is None or _differs(other.at(position), here):
                shown.append(e)
        shown = shown or list(cand.entries)
        if position is not None and self.k is not None and position > self.k:
            shown = ["beyond_k" if e == "cutoff_ignored" else e for e in shown]
        return tuple(dict.fromkeys(shown))

    def _variant_params(self, which: str, kinds, cand: _Cand) -> dict:
        """The choice the writer used and the exercise's, for the first formula entry among ``kinds``."""
        entry = next((MISCONCEPTIONS[k] for k in kinds if k in MISCONCEPTIONS and MISCONCEPTIONS[k].dimension), None)
        if entry is None:
            return {}
        dim = entry.dimension
        if dim == "ranking":  # the grades as ranked: the tie rule's order and the writer's
            return {"dimension": dim, "theirs_variant": cand.value(dim, self.correct, which),
                    "correct_variant": tuple(self.rel.tolist()), "k": self.k,
                    "tied": [[p + 1 for p in g] for g in self.ties]}
        correct = getattr(self.correct, dim) if dim in ("idcg", "ideal_order") else getattr(
            self.correct.side(which), dim)
        theirs = cand.value(dim, self.correct, which)
        if dim == "discount":  # one name for one set of divisors (log2 i is Järvelin–Kekäläinen's)
            theirs = named_discount(theirs, cand.value("log_base", self.correct, which), cand.terms.size)
        return {"dimension": dim, "theirs_variant": theirs, "correct_variant": correct, "k": self.k}

    # --- one side, step by step ---------------------------------------------------------------------
    def side(self, which: str) -> tuple[list[_Mark], _Cand]:
        term_step, total_step = ("term", "dcg") if which == "dcg" else ("ideal_term", "idcg")
        items, total = self.hand[term_step], self.hand[total_step]
        right = self.cands[which][0]
        fit = self._fit(which, items, total)
        marks: list[_Mark] = []
        grades = self.rel if which == "dcg" else self.correct.ideal_grades(self.rel, self.extra)
        for p, h in enumerate(items, start=1):
            if h is None:
                continue
            c, f = right.at(p), fit.at(p)
            m = _Mark(term_step, p, h, c, followed=f, params={"scale": h.scale})
            if not math.isnan(c):
                m.params["rounded"] = rounded_like(h, c, step=term_step)
            if not math.isnan(c) and _close(h, c):
                marks.append(m)
                continue
            m.state = "wrong"
            if fit.entries and not math.isnan(f) and _fits(h, f) and _differs(f, c):
                m.kinds = self._showing(which, fit, p)
                m.params.update(own=f, side=which, **self._variant_params(which, m.kinds, fit))
                m.by_kind = {kind: self._variant_params(which, (kind,), fit) for kind in m.kinds}
            elif math.isnan(c) and self.k is not None and p > self.k:
                m.kinds = ("beyond_k",)
                m.params["k"] = self.k
            elif math.isnan(c):
                m.kinds = ("arithmetic_slip",)
                m.params["past_end"] = right.terms.size
            else:
                m.kinds, extra = self._one_position(which, p, h, c, grades)
                m.params.update(extra)
                if m.kinds == ("arithmetic_slip",) and fit.entries and not math.isnan(f):
                    m.params["own"] = f
            marks.append(m)
        if total is not None:
            marks.append(self._total(which, total_step, total, items, marks, fit))
        return marks, fit

    def _one_position(self, which: str, p: int, h: HandNumber, c: float, grades: np.ndarray):
        """One term that no way of computing the whole side explains: cut off, one term computed another way
        (another gain, the neighbouring position's divisor ...) or a slip."""
        if _is_truncation(h, c):
            return ("truncation",), {}
        side = self.correct.side(which)
        gain = float(GAINS[side.gain].func(grades[p - 1: p])[0])
        discount = SIDE_DISCOUNTS[side.discount]
        divisor = float(discount.func(np.array([float(p)]), side.log_base)[0])
        for other, kind in ((p - 1, "discount_one_early"), (p + 1, "discount_one_late")):
            if other < 1:
                continue
            theirs = float(discount.func(np.array([float(other)]), side.log_base)[0])
            if theirs > 0 and _close(h, gain / theirs) and _differs(theirs, divisor):
                return (kind,), {"own": gain / theirs, "side": which, "one_position": True, "neighbour": other,
                                 "their_divisor": theirs, "divisor": divisor, "form": "term"}
        for cand in self.cands[which][1:]:
            if len(cand.entries) == 1 and _close(h, cand.at(p)) and _differs(cand.at(p), c):
                kinds = self._showing(which, cand, p)
                return kinds, {"own": cand.at(p), "side": which, "one_position": True,
                               **self._variant_params(which, kinds, cand)}
        return ("arithmetic_slip",), {}

    def _total(self, which: str, step: str, h: HandNumber, items: list, marks: list[_Mark], fit: _Cand) -> _Mark:
        right = self.cands[which][0]
        c = right.total
        m = _Mark(step, None, h, c, followed=fit.total, params={"scale": h.scale,
                                                                "rounded": rounded_like(h, c, step=step)})
        wrong_terms = [x for x in marks if x.state == "wrong"]
        own = self._own_sum(items, fit)
        complete = bool(items) and len(items) >= right.terms.size and all(x is not None for x in items)
        if _close(h, c):
            if own is not None and complete and not _close(h, own):
                m.notes = ("self_inconsistent_sum",)
                m.params.update(their_sum=own, also=[x.position for x in wrong_terms])
            return m
        m.state = "wrong"
        if wrong_terms:
            # worked out from the writer's own terms (or their formula), which were already off
            tail = self._own_sum(list(items) + [None] * max(0, fit.terms.size - len(items)), fit)
            values = [v for v in (own, tail, fit.total if fit.entries else None) if v is not None]
            # rounded from one of them before cut off from one (what is quoted as their own is what they wrote)
            for value in [v for v in values if _close(h, v)] + [v for v in values if not _close(h, v)]:
                if _fits(h, value):
                    m.state = "carried_forward"
                    m.params.update(own=value, their_sum=own, **{"from": [FIELD_OF_STEP[wrong_terms[0].step]]},
                                    first_position=wrong_terms[0].position)
                    return m
        if own is not None and complete and not wrong_terms and _close(h, own):
            m.kinds = ("rounded_sum",)
            m.params["their_sum"] = own
        elif _is_truncation(h, c):
            m.kinds = ("truncation",)
        elif fit.entries and _fits(h, fit.total) and _differs(fit.total, c):
            m.kinds = self._showing(which, fit, None)
            m.params.update(own=fit.total, side=which, **self._variant_params(which, m.kinds, fit))
            m.by_kind = {kind: self._variant_params(which, (kind,), fit) for kind in m.kinds}
        else:
            single = next((x for x in self.cands[which][1:] if len(x.entries) == 1 and _close(h, x.total)), None)
            if single is not None:
                m.kinds = single.entries
                m.params.update(own=single.total, side=which, **self._variant_params(which, m.kinds, single))
                m.by_kind = {kind: self._variant_params(which, (kind,), single) for kind in m.kinds}
            else:
                m.kinds = ("arithmetic_slip",)
                if fit.entries:
                    m.params["own"] = fit.total
                if own is not None:
                    m.params["their_sum"] = own
        return m

    # --- NDCG ------------------------------------------------------------------------------------------
    def ndcg(self, h: HandNumber, side_marks: dict, fits: dict) -> _Mark:
        """The written NDCG judged, rounded "like yours" in the form the student meant: a percent written without
        its sign (or a fraction with one) is the other form; a number explained as written is the form written."""
        m = self._ndcg(h, side_marks, fits)
        if "percent_vs_fraction" in m.kinds:
            meant = not h.percent
        elif m.kinds == ("arithmetic_slip",):  # nothing explains it: the form is read from the number
            meant = None
        else:  # right, carried forward or explained as written
            meant = h.percent
        m.params["as_percent"] = meant
        m.params["rounded"] = rounded_like(h, m.expected, step="ndcg", percent=meant)
        return m

    def _ndcg(self, h: HandNumber, side_marks: dict, fits: dict) -> _Mark:
        c = self.right.ndcg
        ratio_f = fits["dcg"].total / fits["ideal"].total if fits["ideal"].total else 0.0
        m = _Mark("ndcg", None, h, c, followed=ratio_f, params=_ndcg_params(h, c))
        if _close(h, c):
            return m
        m.state = "wrong"
        readings = [h] + [r for r in [_rescaled(h)] if r is not None]
        wrong_side = {w: [x for x in side_marks[w] if x.state != "right"] for w in ("dcg", "ideal")}
        # --- carried forward from the writer's own DCG / IDCG
        if wrong_side["dcg"] or wrong_side["ideal"]:
            tops = self._their_totals("dcg", side_marks, fits)
            bottoms = self._their_totals("ideal", side_marks, fits)
            cut = None  # the writer's own ratio cut off: a mistake of this step's own, unless another reading fits
            for i, r in enumerate(readings):
                for (top, top_from), (bottom, bottom_from) in product(tops, bottoms):
                    if not (top_from or bottom_from) or bottom == 0:
                        continue
                    sources = list(dict.fromkeys(x for x in (top_from, bottom_from) if x))
                    if i == 0 and not _close(r, top / bottom) and _is_truncation(r, top / bottom):
                        cut = cut or (top / bottom, sources)
                        continue
                    if _fits(r, top / bottom):
                        m.params.update(own=top / bottom, ratio=top / bottom, **{"from": sources})
                        if i == 0:
                            m.state = "carried_forward"
                        else:  # the writer's own ratio, written as a percent without its sign (or the reverse)
                            m.kinds = ("percent_vs_fraction",)
                            m.params["wrote_percent"] = not h.percent
                        return m
            if cut is not None:
                m.params.update(own=cut[0], ratio=cut[0], **{"from": cut[1]})
                m.kinds = ("truncation",)
                return m
        # --- a percent read as a fraction or the reverse
        flipped = readings[1] if len(readings) > 1 else None
        if flipped is not None and _fits(flipped, c):
            m.kinds = ("percent_vs_fraction",) if _close(flipped, c) else ("percent_vs_fraction", "truncation")
            m.params.update(_ndcg_params(flipped, c), wrote_percent=not h.percent)  # at the precision meant
            return m
        their_dcg, their_idcg = self.hand["dcg"], self.hand["idcg"]
        if (their_dcg is not None and their_idcg is not None and their_idcg.value
                and _close(their_dcg, self.right.dcg) and _close(their_idcg, self.right.idcg)
                and _close(h, their_dcg.value / their_idcg.value)):
            m.kinds = ("ratio_of_rounded",)
            m.params.update(ratio=their_dcg.value / their_idcg.value, dcg_text=their_dcg.shown(),
                            idcg_text=their_idcg.shown())
            return m
        if _is_truncation(h, c):
            m.kinds = ("truncation",)
            return m
        # --- a formula entry on a side nobody wrote a number of
        found = self._ndcg_formula(h, side_marks)
        if found is not None:
            kinds, which, own, params = found
            m.kinds = kinds
            m.params.update(own=own, side=which, **params)
            return m
        m.kinds = ("arithmetic_slip",)
        if fits["dcg"].entries or fits["ideal"].entries:
            m.params["own"] = ratio_f
        return m

    def _their_totals(self, which: str, side_marks: dict, fits: dict) -> list[tuple[float, str | None]]:
        """The totals the writer may have divided: (value, the field its error comes from; None: right).

        Their written total; else any way of computing that gives every number written on this side (the fit,
        and the others that cannot be told apart from it there): its total, or their written terms added up
        with its values for the blanks; and the other side's way applied here, where nothing here says no."""
        right = self.cands[which][0]
        step = "dcg" if which == "dcg" else "idcg"
        out: list[tuple[float, str | None]] = []
        written = self.hand[step]
        if written is not None:  # their own total as written (a right one rounded) first: what they divided
            out.append((written.value, None if _close(written, right.total) else FIELD_OF_STEP[step]))
        out.append((right.total, None))
        source = self._source(which, side_marks)
        off = any(x.state != "right" for x in side_marks[which])
        items = self.hand["term" if which == "dcg" else "ideal_term"]
        fit = fits[which]
        # only where a number written here is off: a way the numbers here do not show is no error of this side
        ways = [fit] + ([c for c in self.cands[which][1:] if c is not fit and self._consistent(which, c, side_marks)]
                        if off else [])
        for c in ways:
            if c.entries and _differs(c.total, right.total):
                out.append((c.total, source))
            own = self._own_sum(items, c) if off else None
            if own is not None:
                out.append((own, source))
        other_side = "ideal" if which == "dcg" else "dcg"
        others = [fits[other_side]] + ([c for c in self.cands[other_side][1:] if c is not fits[other_side]
                                        and self._consistent(other_side, c, side_marks)]
                                       if any(x.state != "right" for x in side_marks[other_side]) else [])
        for o in others:
            same = self.values[which].get(o.changes) if o.entries else None
            if same is not None and _differs(same.total, right.total) and self._consistent(which, same, side_marks):
                out.append((same.total, self._source(other_side, side_marks)))
        return out

    @staticmethod
    def _consistent(which: str, cand: _Cand, side_marks: dict) -> bool:
        """``cand`` gives every number written on its side as written (a total carried forward from the terms
        written beside it is theirs, not a way's)."""
        return all(_close(m.hand, cand.at(m.position)) for m in side_marks[which]
                   if not (m.position is None and m.state == "carried_forward"))

    @staticmethod
    def _source(which: str, side_marks: dict) -> str:
        marks = side_marks[which]
        total = next((x for x in marks if x.position is None), None)
        if total is not None and total.state != "right":
            return FIELD_OF_STEP[total.step]
        return FIELD_OF_STEP["term" if which == "dcg" else "ideal_term"]

    def _ndcg_formula(self, h: HandNumber, side_marks: dict):
        """A formula entry that explains NDCG on a side (or both) whose written numbers it leaves as they are
        (nothing written there, or only positions and totals it does not change)."""
        def consistent(which: str, cand: _Cand) -> bool:
            return self._consistent(which, cand, side_marks)

        singles = {w: [c for c in self.values[w].values() if len(c.entries) == 1] for w in ("dcg", "ideal")}
        right = {w: self.cands[w][0] for w in ("dcg", "ideal")}
        for e in formula_entries():
            options = {"side": ["both", "dcg", "ideal"], "ranking": ["dcg"]}.get(e.scope, ["ideal"])
            for which in options:
                tops = [c for c in singles["dcg"] if c.entries == (e.key,)] if which != "ideal" else [right["dcg"]]
                bottoms = [c for c in singles["ideal"] if c.entries == (e.key,)] if which != "dcg" else [right["ideal"]]
                for top, bottom in product(tops, bottoms):
                    if which == "both" and top.changes != bottom.changes:
                        continue
                    if not (consistent("dcg", top) and consistent("ideal", bottom)):
                        continue
                    ratio = top.total / bottom.total if bottom.total else 0.0
                    if _close(h, ratio) and _differs(ratio, self.right.ndcg):
                        side_key = "ideal" if which == "ideal" else "dcg"
                        cand = bottom if which == "ideal" else top
                        return (e.key,), which, ratio, self._variant_params(side_key, (e.key,), cand)
        return None

    # --- everything ------------------------------------------------------------------------------------
    def run(self) -> tuple[list[_Mark], Calculation]:
        side_marks, fits = {}, {}
        for which in ("dcg", "ideal"):
            side_marks[which], fits[which] = self.side(which)
        marks = side_marks["dcg"] + side_marks["ideal"]
        if self.hand["ndcg"] is not None:
            marks.append(self.ndcg(self.hand["ndcg"], side_marks, fits))
        # a misconception seen on both sides is named so on both
        both = set(fits["dcg"].entries) & set(fits["ideal"].entries)
        for m in marks:
            if m.params.get("side") in SIDES and not m.params.get("one_position") and set(m.kinds) & both:
                m.params["side"] = "both"
        return marks, self._calc_of(fits["dcg"], fits["ideal"])


def _asked_precision(marks: list[_Mark], decimals: int) -> None:
    """A right number written with fewer decimals than the exercise asks, and off at the asked precision, is
    the misconception ``too_few_decimals`` (a percent counts its own two: 77% is 0.77)."""
    for m in marks:
        h = m.hand
        if m.state != "right" or h.scale >= decimals or not math.isfinite(m.expected):
            continue
        if abs(h.value - m.expected) <= 0.5 * 10.0 ** (-decimals) * (1 + 1e-9) + 1e-12:
            continue  # 0.5 for 0.5000: as right as 0.50
        m.state, m.kinds = "wrong", ("too_few_decimals",)
        m.params.update(decimals=decimals, asked=rounded_like(h, m.expected, step=m.step, scale=decimals,
                                                              percent=m.params.get("as_percent")))


def _ndcg_params(h: HandNumber, exact: float) -> dict:
    rounded = rounded_like(h, exact, step="ndcg")
    percent = rounded if rounded.endswith("%") else _format(exact * 100, max(0, h.scale - 2)) + "%"
    return {"rounded": rounded, "percent": percent, "scale": h.scale}


def _own_texts(m: _Mark) -> dict:
    """What the writer's own numbers (or formula) give, written the way they wrote this number: ``own_text``
    (and, for a percent mixed up with a fraction, ``own_fraction``/``own_percent`` at the precision meant)."""
    own = m.params.get("own")
    if own is None or not math.isfinite(own):
        return {}
    if "percent_vs_fraction" in m.kinds:
        meant = _rescaled(m.hand) or m.hand
        return {"own_text": _format(own, meant.scale), "own_percent": _format(own * 100, max(0, meant.scale - 2)) + "%"}
    return {"own_text": rounded_like(m.hand, own, step=m.step, percent=m.params.get("as_percent"))}


def _findings(marks: list[_Mark]) -> list[Finding]:
    out: list[Finding] = []
    said: set = set()
    for m in sorted(marks, key=lambda x: (STEPS.index(x.step), x.position or 0)):
        m.params.update(_own_texts(m))
        if m.state == "carried_forward":
            out.append(Finding("carried_forward", m.step, m.position, m.hand.value, m.expected, dict(m.params)))
        for kind in m.kinds:
            entry = MISCONCEPTIONS[kind]
            once = entry.scope in ("side", "ideal", "ranking") or kind == "beyond_k"
            if once and not m.params.get("one_position"):
                if (kind, m.step) in said:
                    continue
                said.add((kind, m.step))
            out.append(Finding(kind, m.step, m.position, m.hand.value, m.expected,
                               {**m.params, **m.by_kind.get(kind, {})}))
        for note in m.notes:
            out.append(Finding(note, m.step, m.position, m.hand.value, m.expected, dict(m.params)))
    return out


def _verdicts(marks: list[_Mark], right: Values) -> dict[str, Verdict]:
    out: dict[str, Verdict] = {}
    for step in STEPS:
        mine = sorted((m for m in marks if m.step == step), key=lambda x: x.position or 0)
        if not mine:
            continue
        notes = tuple(dict.fromkeys(n for m in mine for n in m.notes))
        wrong = [m for m in mine if m.state == "wrong"]
        if wrong:
            out[FIELD_OF_STEP[step]] = Verdict("wrong", tuple(dict.fromkeys(k for m in wrong for k in m.kinds)),
                                               notes=notes)
        elif any(m.state == "carried_forward" for m in mine):
            sources = tuple(dict.fromkeys(s for m in mine for s in m.params.get("from", [])))
            out[FIELD_OF_STEP[step]] = Verdict("carried_forward", carried_from=sources, notes=notes)
        elif step in ("term", "ideal_term") and {m.position for m in mine} < set(
                range(1, (right.terms if step == "term" else right.ideal_terms).size + 1)):
            out[FIELD_OF_STEP[step]] = Verdict("unfinished", notes=notes)
        else:
            out[FIELD_OF_STEP[step]] = Verdict("right", notes=notes)
    return out


def _steps_table(hand: dict, marks: list[_Mark], right: Values, followed: Values) -> pd.DataFrame:
    by = {(m.step, m.position): m for m in marks}
    rows = []
    for step in STEPS:
        if step in ("term", "ideal_term"):
            n = max(len(hand[step]), (right.terms if step == "term" else right.ideal_terms).size)
            keys = [(step, i) for i in range(1, n + 1)]
        else:
            keys = [(step, None)]
        for s, p in keys:
            m = by.get((s, p))
            rows.append({
                "step": s,
                "position": p,
                "theirs": m.hand.value if m else math.nan,
                "theirs_text": m.hand.shown() if m else "",
                "scale": m.hand.scale if m else None,
                "rounded": "" if m is None else rounded_like(m.hand, right.at(s, p), step=s,
                                                             percent=m.params.get("as_percent")),
                "followed": followed.at(s, p),
                "correct": right.at(s, p),
                "ok": None if m is None else m.state == "right",
                "state": "" if m is None else m.state,
                "kinds": "" if m is None else ",".join(m.kinds + m.notes + (
                    ("carried_forward",) if m.state == "carried_forward" else ())),
            })
    return pd.DataFrame(rows)


def _formula_cost(vals: Values, hand: dict) -> float:
    cost = sum(_cost(h, vals.at(s, p)) for s in ("term", "ideal_term")
               for p, h in enumerate(hand[s], start=1) if h is not None)
    for s in ("dcg", "idcg", "ndcg"):
        h = hand[s]
        if h is not None:
            costs = [_cost(h, vals.at(s))]
            if s == "ndcg" and _rescaled(h) is not None:
                costs.append(_cost(_rescaled(h), vals.at(s)) + 0.5)
            cost += min(costs)
    return cost


def diagnose(grades, *, unretrieved=None, k=None, terms=None, dcg=None, ideal_terms=None, idcg=None,
             ndcg=None, gain=None, discount=None, log_base=None, idcg_source=None,
             decimals: int | None = None, scores=None) -> Diagnosis:
    """Judge a hand calculation: one verdict per answer, and the first misconception where it first shows.

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
        The written totals; NDCG may be a percentage (``"81.86%"``), judged as the percent it is.
    gain, discount, log_base : optional
        The formula meant (``None``: the registered formula the numbers fit best).  A gain from
        :data:`metrics.registry.GAINS`, a discount from :data:`metrics.registry.DISCOUNTS`, a base > 0 and != 1.
    idcg_source : {"list", "judged"}, optional
        The items of the ideal ranking (``None``: all judged items when ``unretrieved`` is given, else the list).
    decimals : int >= 0, optional
        The decimals the exercise asks for (Practice and the classroom: "write answers with 2 decimals").  A
        number written with fewer is judged at the exercise's precision: ``0.5`` or ``0`` for 0.4909 is the
        misconception ``too_few_decimals`` even though it rounds right at its own precision; ``0.5`` for 0.5000
        stays right.  ``None`` (Check my calculation): every number at the precision it was written.
    scores : sequence of float, optional
        The system's scores of the ranked items, position 1 first, never rising (Practice's Hard exercises rank
        by tied scores).  Items of equal score are tied; ``grades`` has them in the order the exercise's tie rule
        gives, and DCG terms that follow another order of them are the misconception ``tie_order``.

    Returns
    -------
    Diagnosis
        ``.verdict(field)``, ``.first``, ``.findings`` in step order, ``.steps``, ``.correct``, ``.followed``.

    Raises
    ------
    ValueError
        For invalid grades, k, formula or hand-written text (a :class:`metrics.parse.ParseError` names the
        position), more terms than positions, or nothing written.

    Examples
    --------
    Document 000 names the exponential gain (2^rel - 1)/log2(1 + i) but writes
    3 + 1.26 + 0.5 + 1.29 + 0.77 = 6.82 for grades 3, 2, 1, 3, 2: the first term
    under its formula is (2^3 - 1)/1 = 7; the terms follow rel, and 6.82 is their own sum
    (the exact DCG is 7 + 3/log2 3 + 1/2 + 7/log2 5 + 3/log2 6 = 13.5681):

    >>> d = diagnose([3, 2, 1, 3, 2], terms=[3, 1.26, 0.5, 1.29, 0.77], dcg=6.82,
    ...              gain="exponential", discount="standard")
    >>> d.kinds()
    [('linear_for_exponential', 'term', 1), ('carried_forward', 'dcg', None)]
    >>> d.verdict("terms").mistakes, d.verdict("dcg").state, d.verdict("dcg").carried_from
    (('linear_for_exponential',), 'carried_forward', ('terms',))

    Text that is not the numbers asked for is refused with a :class:`metrics.parse.ParseError` (a ValueError)
    whose ``kind`` names the slip for a page to translate — one value too many, or a decimal comma (a comma
    separates values in every list, so "4,26" is two numbers):

    >>> for sheet in (dict(terms="3 2 1 0"), dict(dcg="4,26"), dict(terms="3 1,26 0,5")):
    ...     try:
    ...         diagnose([3, 2, 1], **sheet)
    ...     except ValueError as exc:
    ...         print(exc.kind, exc.token, exc.position)
    too_many 0 4
    decimal_comma 4,26 1
    decimal_comma 1,26 4
    """
    rel = as_grades(grades, name="grades")
    extra = as_grades([] if unretrieved is None else unretrieved, name="unretrieved", allow_empty=True)
    k = check_k(k)
    ties: tuple[tuple[int, ...], ...] = ()
    if scores is not None:
        if isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
            raise ValueError(f"scores must be a sequence of numbers, got {type(scores).__name__}")
        scores = list(scores)
        if len(scores) != rel.size:
            raise ValueError(f"scores has {len(scores)} values but the ranked list has {rel.size} items; give one "
                             "score per item")
        try:
            ties = tie_groups([float(x) for x in scores])
        except (TypeError, ValueError) as exc:
            raise ValueError(str(exc) if str(exc).startswith("scores") else
                             f"scores must be numbers, got {str(exc)[:40]}") from None
    want_gain = None if gain is None else check_choice(gain, GAINS, name="gain").key
    want_discount = None if discount is None else check_choice(discount, DISCOUNTS, name="discount").key
    want_base = None if log_base is None else check_log_base(log_base)
    if idcg_source is not None and idcg_source not in IDCG_SOURCES:
        raise ValueError(f"unknown idcg_source {str(idcg_source)[:20]!r}; valid names are "
                         + ", ".join(repr(s) for s in IDCG_SOURCES))
    source = idcg_source or ("judged" if extra.size else "list")
    if not extra.size:
        source = "list"  # no item outside the list: both give the same ideal ranking

    hand: dict[str, object] = {
        "term": _hand_list(terms, "terms", rel.size, "the ranked list"),
        "dcg": _hand_one(dcg, "dcg"),
        "ideal_term": _hand_list(ideal_terms, "ideal_terms", rel.size + extra.size,
                                 "the ideal ranking (list and unretrieved items)"),
        "idcg": _hand_one(idcg, "idcg"),
        "ndcg": _hand_one(ndcg, "ndcg"),
    }
    if not any(h is not None for s in ("term", "ideal_term") for h in hand[s]) and not any(
            hand[s] is not None for s in ("dcg", "idcg", "ndcg")):
        raise ValueError("no hand-computed value given: write at least one of terms, dcg, ideal_terms, idcg, ndcg")

    # --- the formula meant: as named, or the registered one the numbers fit best --------------------------
    gains = [want_gain] if want_gain else list(GAINS)
    discounts = [want_discount] if want_discount else list(DISCOUNTS)
    bases = [want_base] if want_base else list(LOG_BASES)
    best, best_cost, problem = None, math.inf, None
    for rank, (g, dk, b) in enumerate(product(gains, discounts, bases)):
        calc = Calculation.of(Variant(gain=g, discount=dk, log_base=b, idcg=source))
        if len(gains) * len(discounts) * len(bases) == 1:
            best = calc
            break
        try:
            cost = _formula_cost(calc.values_of(rel, extra, k), hand) + 1e-4 * rank
        except ValueError as exc:  # huge grades overflow some gains: those formulas are out
            problem = problem or exc
            continue
        if cost < best_cost:
            best, best_cost = calc, cost
    if best is None:
        raise problem or ValueError("no formula can be computed for these grades")

    engine = _Engine(rel, extra, k, best, hand, ties)
    marks, followed = engine.run()
    if decimals is not None:
        _asked_precision(marks, check_whole(decimals, name="decimals", minimum=0, maximum=12))
    try:
        followed_values = followed.values_of(rel, extra, k)
    except ValueError:  # pragma: no cover - every side of it was computed already
        followed_values = engine.right
    return Diagnosis(
        correct=best,
        followed=followed,
        findings=_findings(marks),
        steps=_steps_table(hand, marks, engine.right, followed_values),
        verdicts=_verdicts(marks, engine.right),
        k=k,
        grades=tuple(rel.tolist()),
        unretrieved=tuple(extra.tolist()),
    )


# ------------------------------------------------------------------------------------------------
# The documents' own sheets (from metrics.lessons.examples), as diagnose() arguments
# ------------------------------------------------------------------------------------------------
#: Worked examples of :mod:`metrics.lessons.examples` that are a hand calculation of one formula.
EXAMPLE_SHEETS = ("003-blog", "001-main", "000-graded", "000-formula2", "002-wiki", "000-binary")


def example_sheet(key: str) -> dict:
    """:func:`diagnose` keyword arguments holding what a document prints, as printed.

    The unretrieved grades are the document's judged items minus its list; the
    formula the document *names* is the intended one.  :data:`EXAMPLE_SHEETS` are the examples that
    print a hand calculation; every other worked example (document 004's, which prints only the grades
    and the ideal vector) gives its exercise with no printed numbers (``""``).

    Parameters
    ----------
    key : str
        A key of :data:`metrics.lessons.examples.EXAMPLES`.

    Returns
    -------
    dict
        ``grades``, ``unretrieved``, ``k``, the printed ``terms``, ``dcg``, ``ideal_terms``, ``idcg``
        and ``ndcg`` as text (``"?"`` for a term the document does not print), and the named
        formula's ``gain``, ``discount`` and ``log_base``.

    Raises
    ------
    ValueError
        If ``key`` is not a worked example's key.

    Examples
    --------
    Document 003 prints its terms truncated to two decimals (0.38 for 1/log2(6) = 0.3869):

    >>> s = example_sheet("003-blog")
    >>> s["terms"], s["unretrieved"], s["idcg"], s["ndcg"]
    ('3 1.26 1.5 0 0.38 0.71', [3.0, 0.0], '8.37', '81.96%')

    Document 004's rec_sys_1 (A, E, C, D, F) misses B (grade 3) and G (grade 0) of its ground truth:

    >>> s = example_sheet("004-recsys1")
    >>> s["grades"], s["unretrieved"], s["k"], s["dcg"]
    ([3.0, 1.0, 2.0, 2.0, 1.0], [3.0, 0.0], 5, '')
    """
    from collections import Counter

    from .examples import EXAMPLES, FORMULAS

    example = check_choice(key, EXAMPLES, name="example")
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
        "gain": formula.variant.gain,
        "discount": formula.variant.discount,
        "log_base": formula.variant.log_base,
    }
