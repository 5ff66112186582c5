"""Input shape shared by the other metrics: one definition of "a sequence of values"."""
from __future__ import annotations

import numpy as np

from .._validation import as_list

__all__ = ["as_sequence"]


def as_sequence(values, name: str):
    """A one-dimensional numpy array as it is (no copy into a Python list), anything else as a list.

    Parameters
    ----------
    values : sequence or numpy.ndarray
        Scores, labels or ratings.
    name : str
        The argument's name, for the message.

    Returns
    -------
    numpy.ndarray or list
        Something with ``len()`` that :func:`metrics._numbers.as_reals` reads.

    Raises
    ------
    ValueError
        For text, a mapping, a set, a non-iterable or an array of more than one dimension.

    Examples
    --------
    >>> as_sequence(np.array([1.0, 2.0]), "x").tolist(), as_sequence((1, 2), "x")
    ([1.0, 2.0], [1, 2])
    >>> as_sequence("12", "x")
    Traceback (most recent call last):
    ...
    ValueError: x must be a sequence of numbers, got str '12'
    """
    if isinstance(values, np.ndarray) and values.ndim == 1:
        return values
    return as_list(values, name)
