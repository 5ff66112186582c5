"""A vectorised fast path in front of :func:`metrics._validation.as_real` for long lists of numbers.

Plain ``int``/``float`` lists and numeric numpy arrays are converted in one step; anything else
(booleans, strings, NaN, overflow, ...) goes through the per-element check, so the error messages
are exactly those of :mod:`metrics._validation` (value, 1-based position, what is accepted).
"""
from __future__ import annotations

import numpy as np

from ._validation import as_list, as_real

__all__ = ["as_reals"]


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
