"""Input validation shared by every metric.

Every public function in :mod:`metrics` validates its arguments here and raises
:class:`ValueError` whose message names the bad value, where it is and what is
accepted.  Nothing else is raised for bad input.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping

import numpy as np

__all__ = [
    "as_grades",
    "as_scores",
    "check_choice",
    "check_flag",
    "check_fraction",
    "check_k",
    "check_log_base",
    "check_real",
    "check_whole",
]


def describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def as_list(values, name: str) -> list:
    if isinstance(values, (set, frozenset)):
        raise ValueError(f"{name} must be an ordered sequence (list, tuple, array), "
                         f"got an unordered {type(values).__name__}")
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise ValueError(
            f"{name} must be a sequence of numbers, got {type(values).__name__} {describe(values)}"
        )
    if isinstance(values, np.ndarray) and values.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {values.shape}")
    return list(values)


def as_real(value, name: str, position: int) -> float:
    where = f"{name} at position {position}"
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{where} is the boolean {value!r}; give grades as numbers (0/1), not True/False")
    if not isinstance(value, numbers.Real):
        raise ValueError(f"{where} is {describe(value)}, which is not a number")
    try:
        out = float(value)
    except OverflowError:  # e.g. 10**400: a Real, but beyond float64
        raise ValueError(f"{where} is {describe(value)}, which is too large for a float (max about 1.8e308)") from None
    if not math.isfinite(out):
        raise ValueError(f"{where} is {out!r}; only finite numbers are accepted")
    return out


def as_grades(values, *, name: str = "relevances", allow_empty: bool = False) -> np.ndarray:
    """Return ``values`` as a float64 array of finite grades >= 0.

    Positions in messages are 1-based, as ranks are.  Every metric that takes grades calls this
    first, so they all accept and refuse the same things.

    Parameters
    ----------
    values : sequence of real numbers
        A list, tuple, 1-d numpy array or other ordered iterable of int/float (numpy scalars too).
        Refused: strings, sets, mappings, booleans, NaN, infinities, negative numbers.
    name : str, default "relevances"
        What the values are called in error messages.
    allow_empty : bool, default False
        Accept an empty sequence (an empty array is returned).

    Returns
    -------
    numpy.ndarray of float64
        The grades, in order.

    Raises
    ------
    ValueError
        Naming the first bad value and its 1-based position, or the wrong container type.

    Examples
    --------
    >>> as_grades([3, 2, 1]).tolist()
    [3.0, 2.0, 1.0]
    >>> as_grades([3, -1])
    Traceback (most recent call last):
    ...
    ValueError: relevances at position 2 is -1.0; grades must be >= 0
    """
    items = as_list(values, name)
    if not items and not allow_empty:
        raise ValueError(f"{name} is empty; give at least one grade")
    out = np.empty(len(items), dtype=np.float64)
    for i, value in enumerate(items):
        grade = as_real(value, name, i + 1)
        if grade < 0:
            raise ValueError(f"{name} at position {i + 1} is {grade!r}; grades must be >= 0")
        out[i] = grade
    return out


def as_scores(values, *, n: int, name: str = "scores") -> np.ndarray:
    """Return ``values`` as a float64 array of ``n`` finite scores (any sign).

    Parameters
    ----------
    values : sequence of real numbers
        Scores of the items in input order; negative scores are fine, booleans, NaN and infinities
        are not.
    n : int
        The number of items (the length of the relevances) the scores must match.
    name : str, default "scores"
        What the values are called in error messages.

    Returns
    -------
    numpy.ndarray of float64
        The scores, in order.

    Raises
    ------
    ValueError
        If the length is not ``n`` or a value is not a finite real number (named with its position).

    Examples
    --------
    >>> as_scores([0.5, -1], n=2).tolist()
    [0.5, -1.0]
    >>> as_scores([0.5], n=2)
    Traceback (most recent call last):
    ...
    ValueError: scores has 1 values but relevances has 2; they must have the same length
    """
    items = as_list(values, name)
    if len(items) != n:
        raise ValueError(f"{name} has {len(items)} values but relevances has {n}; they must have the same length")
    return np.array([as_real(v, name, i + 1) for i, v in enumerate(items)], dtype=np.float64)


def check_k(k, *, name: str = "k") -> int | None:
    """Return ``k`` (None or an int >= 1).

    ``k`` is a cutoff: only the first ``k`` positions count.  It may exceed the list's length.

    Parameters
    ----------
    k : int >= 1 or None
        Python or numpy integers; not booleans, not floats (``2.0`` is refused rather than guessed).
    name : str, default "k"
        What the value is called in error messages.

    Returns
    -------
    int or None
        ``k`` as a Python int, or None (no cutoff).

    Raises
    ------
    ValueError
        If ``k`` is not a whole number or is < 1.

    Examples
    --------
    >>> check_k(None), check_k(3)
    (None, 3)
    >>> check_k(0)
    Traceback (most recent call last):
    ...
    ValueError: k must be >= 1, got 0
    """
    if k is None:
        return None
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise ValueError(f"{name} must be a whole number >= 1 or None, got {describe(k)}")
    if k < 1:
        raise ValueError(f"{name} must be >= 1, got {int(k)}")
    return int(k)


def check_log_base(base, *, name: str = "log_base") -> float:
    """Return ``base`` as a float; it must be finite, > 0 and != 1.

    log_1 is undefined (division by log(1) = 0) and a base <= 0 has no real logarithm.

    Parameters
    ----------
    base : real number
        The logarithm's base, e.g. 2, 10 or ``math.e``; not a boolean.
    name : str, default "log_base"
        What the value is called in error messages.

    Returns
    -------
    float
        The base.

    Raises
    ------
    ValueError
        If ``base`` is not a finite real number > 0 and != 1.

    Examples
    --------
    >>> check_log_base(10)
    10.0
    >>> check_log_base(1)
    Traceback (most recent call last):
    ...
    ValueError: log_base must be a finite number > 0 and != 1, got 1.0
    """
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, numbers.Real):
        raise ValueError(f"{name} must be a number > 0 and != 1, got {describe(base)}")
    try:
        out = float(base)
    except OverflowError:
        raise ValueError(f"{name} must be a finite number > 0 and != 1, got {describe(base)}") from None
    if not math.isfinite(out) or out <= 0 or out == 1:
        raise ValueError(f"{name} must be a finite number > 0 and != 1, got {out!r}")
    return out


def check_choice(value, choices: Mapping, *, name: str):
    """Return ``choices[value]``, or raise naming the valid keys.

    Parameters
    ----------
    value : str
        The name asked for (case-sensitive).
    choices : mapping of str to object
        A registry such as :data:`metrics.registry.TIES`.
    name : str
        What the option is called in error messages.

    Returns
    -------
    object
        The registry entry.

    Raises
    ------
    ValueError
        If ``value`` is not a key of ``choices``; the message lists the valid keys.

    Examples
    --------
    >>> check_choice("b", {"a": 1, "b": 2}, name="letter")
    2
    >>> check_choice("c", {"a": 1, "b": 2}, name="letter")
    Traceback (most recent call last):
    ...
    ValueError: unknown letter 'c'; valid names are 'a', 'b'
    """
    if isinstance(value, str) and value in choices:
        return choices[value]
    valid = ", ".join(repr(c) for c in choices)
    raise ValueError(f"unknown {name} {describe(value)}; valid names are {valid}")


def check_whole(value, *, name: str, minimum: int = 0, maximum: int | None = None, allow_none: bool = False):
    """Return ``value`` as an int within bounds (or None when allowed).

    Parameters
    ----------
    value : int
        Python or numpy integers; not booleans, not floats (``2.0`` is refused rather than guessed).
    name : str
        What the value is called in error messages.
    minimum : int, default 0
        The smallest value accepted.
    maximum : int, optional
        The largest value accepted.
    allow_none : bool, default False
        Accept None (returned as is).

    Returns
    -------
    int or None

    Raises
    ------
    ValueError
        Naming ``name``, the value and the accepted range.

    Examples
    --------
    >>> check_whole(3, name="max_docs", minimum=1)
    3
    >>> check_whole(2.0, name="max_docs", minimum=1)
    Traceback (most recent call last):
    ...
    ValueError: max_docs must be a whole number >= 1, got 2.0
    """
    if value is None and allow_none:
        return None
    ok = not isinstance(value, (bool, np.bool_)) and isinstance(value, numbers.Integral) and value >= minimum \
        and (maximum is None or value <= maximum)
    if not ok:
        bound = f"between {minimum} and {maximum}" if maximum is not None else f">= {minimum}"
        raise ValueError(f"{name} must be a whole number {bound}" + (" or None" if allow_none else "")
                         + f", got {describe(value)}")
    return int(value)


def check_flag(value, *, name: str) -> bool:
    """Return ``value`` as a bool; only True and False (numpy's too) are accepted.

    Parameters
    ----------
    value : bool
        The flag.
    name : str
        What the value is called in error messages.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``value`` is not a boolean (1, "yes", None are refused).

    Examples
    --------
    >>> check_flag(True, name="complete")
    True
    >>> check_flag(1, name="complete")
    Traceback (most recent call last):
    ...
    ValueError: complete must be True or False, got 1
    """
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {describe(value)}")
    return bool(value)


def check_real(value, *, name: str, minimum: float | None = None, allow_none: bool = False):
    """Return ``value`` as a finite float (>= ``minimum`` when given), or None when allowed.

    Parameters
    ----------
    value : real number
        Not a boolean, not NaN or an infinity.
    name : str
        What the value is called in error messages.
    minimum : float, optional
        The smallest value accepted.
    allow_none : bool, default False
        Accept None (returned as is).

    Returns
    -------
    float or None

    Raises
    ------
    ValueError
        Naming ``name``, the value and what is accepted.

    Examples
    --------
    >>> check_real(3, name="err_gmax", minimum=0)
    3.0
    >>> check_real(float("inf"), name="err_gmax", minimum=0)
    Traceback (most recent call last):
    ...
    ValueError: err_gmax must be a finite number >= 0, got inf
    """
    if value is None and allow_none:
        return None
    want = "a finite number" + (f" >= {minimum:g}" if minimum is not None else "") + (" or None" if allow_none else "")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be {want}, got {describe(value)}")
    try:
        out = float(value)
    except OverflowError:
        raise ValueError(f"{name} must be {want}, got {describe(value)}") from None
    if not math.isfinite(out) or (minimum is not None and out < minimum):
        raise ValueError(f"{name} must be {want}, got {describe(value)}")
    return out


def check_fraction(value, *, name: str, example: float = 0.95) -> float:
    """Return ``value`` as a float strictly between 0 and 1 (a confidence level, a significance level).

    Parameters
    ----------
    value : real number
        Not a boolean, not NaN.
    name : str
        What the value is called in error messages.
    example : float, default 0.95
        A typical value, named in the message.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming ``name``, the value and the accepted range.

    Examples
    --------
    >>> check_fraction(0.9, name="confidence")
    0.9
    >>> check_fraction(95, name="confidence")
    Traceback (most recent call last):
    ...
    ValueError: confidence must be a number between 0 and 1 (exclusive), e.g. 0.95; got 95
    """
    out = math.nan
    if not isinstance(value, (bool, np.bool_)) and isinstance(value, numbers.Real):
        try:
            out = float(value)
        except OverflowError:  # 10**400: a Real beyond float64
            out = math.nan
    if not 0.0 < out < 1.0:
        raise ValueError(f"{name} must be a number between 0 and 1 (exclusive), e.g. {example:g}; "
                         f"got {describe(value)}")
    return out
