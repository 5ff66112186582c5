"""A vectorised fast path in front of :func:`metrics._validation.as_real` for long lists of numbers.

Plain ``int``/``float`` lists and numeric numpy arrays are converted in one step; anything else
(booleans, strings, NaN, overflow, ...) goes through the per-element check, so the error messages
are exactly those of :mod:`metrics._validation` (value, 1-based position, what is accepted).
"""
from __future__ import annotations

import numpy as np

from ._validation import as_list, as_real

__all__ = ["as_reals", "safe_divide"]


def as_reals(values, name: str) -> np.ndarray:
    """Finite float64 numbers, any sign; empty allowed (callers decide).

    Parameters
    ----------
    values : sequence of real numbers
        A list/tuple of int and float or a 1-d numeric numpy array take the fast path; anything
        else is checked value by value.
    name : str
        What the values are called in error messages.

    Returns
    -------
    numpy.ndarray of float64
        The numbers, in order.

    Raises
    ------
    ValueError
        Naming the first value that is not a finite real number and its 1-based position, or the
        wrong container type.

    Examples
    --------
    >>> as_reals([1, 2.5], "x").tolist()
    [1.0, 2.5]
    >>> as_reals([1, True], "x")
    Traceback (most recent call last):
    ...
    ValueError: x at position 2 is the boolean True; give grades as numbers (0/1), not True/False
    """
    fast = None
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "fiu":
        fast = values.astype(np.float64)
    elif isinstance(values, (list, tuple)) and all(type(v) is float or type(v) is int for v in values):
        try:
            fast = np.array(values, dtype=np.float64)
        except OverflowError:  # an int beyond float64: let the slow path name it
            fast = None
    if fast is not None and np.isfinite(fast).all():
        return fast
    items = as_list(values, name)
    return np.array([as_real(v, name, i) for i, v in enumerate(items, start=1)], dtype=np.float64)


def safe_divide(num, den, *, where=None, default: float = 0.0):
    """``num / den`` where the division is defined, ``default`` elsewhere: the one safe division of
    :mod:`metrics` (a mean over no query, a precision over no retrieved document, NDCG with IDCG 0).

    Parameters
    ----------
    num, den : float or array-like of float
        Numerators and denominators (broadcast together).
    where : bool array-like, optional
        Where to divide.  Default ``None``: where ``den != 0``.
    default : float, default 0.0
        The value elsewhere (trec_eval leaves such values at 0; NaN for "undefined").

    Returns
    -------
    float or numpy.ndarray of float64
        A float when both inputs are scalars, else an array of their broadcast shape.

    Examples
    --------
    >>> safe_divide(3.0, 4.0), safe_divide(1.0, 0.0), safe_divide(0.0, 0.0, default=float("nan"))
    (0.75, 0.0, nan)
    >>> safe_divide(np.array([1.0, 2.0]), np.array([2.0, 0.0])).tolist()
    [0.5, 0.0]
    >>> safe_divide(np.array([1.0, 2.0]), np.array([-2.0, 4.0]), where=np.array([False, True])).tolist()
    [0.0, 0.5]
    """
    scalar = np.ndim(num) == 0 and np.ndim(den) == 0
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    mask = (d != 0) if where is None else np.asarray(where, dtype=bool)
    out = np.full(np.broadcast_shapes(n.shape, d.shape, mask.shape), default, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        np.divide(n, d, out=out, where=mask)
    return float(out) if scalar else out
