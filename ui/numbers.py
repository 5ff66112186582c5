"""Numbers as text: one module for the whole app.

* :func:`exact` — the shortest text that reads back as the same float64.  For links, text fields and
  anything a user may copy back in: ``2.1234567`` stays ``2.1234567`` (never ``2.12346``), ``3.0`` is
  ``3``.  :func:`exact_list` joins several.
* :func:`show` — display rounding (``digits`` decimals) for tables, metrics and sentences; the value
  itself is never rounded.  :func:`show_trimmed` drops trailing zeros (``0.5`` not ``0.5000``).
* :func:`for_table` — a table's float columns at their display precision, for ``st.dataframe``: the grid
  draws numbers with 4 decimals but gives screen readers the value it was given, so a raw
  ``0.9561125053043696`` would be read where ``0.9561`` is shown (the numbers behind stay exact in
  ``metrics/``; only the copy handed to the grid is rounded).

Nothing else in ``ui/`` or ``pages/`` formats numbers by hand (no ``{x:g}``, no local ``fmt``).
"""
from __future__ import annotations

import math
import numbers

__all__ = ["exact", "exact_list", "show", "show_trimmed", "for_table"]


def exact(x) -> str:
    """Shortest round-trip text of a number: integers without ``.0``, floats as Python's ``repr``.

    >>> exact(3.0), exact(2.1234567), exact(-0.0), exact(0.1 + 0.2), exact(1e-7), exact(7)
    ('3', '2.1234567', '0', '0.30000000000000004', '1e-07', '7')
    >>> float(exact(0.1 + 0.2)) == 0.1 + 0.2
    True
    """
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, numbers.Integral):
        return str(int(x))
    value = float(x)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)


def exact_list(values, sep: str = ", ") -> str:
    """Several numbers, each :func:`exact`, joined.

    >>> exact_list([3, 2.5, 1.0]), exact_list([3, 2], sep=",")
    ('3, 2.5, 1', '3,2')
    """
    return sep.join(exact(v) for v in values)


def show(x, digits: int = 4) -> str:
    """Display rounding to ``digits`` decimals (``nan`` shows as ``–``); ``-0.0000`` shows as ``0.0000``.

    From 1e15 on, ``digits`` decimals of the mantissa and a power of ten (``1e200`` is not shown as
    201 digits).

    >>> show(0.95612), show(7.990234, 2), show(float("nan")), show(-0.00001)
    ('0.9561', '7.99', '–', '0.0000')
    >>> show(1e200), show(-2.5e15, 2)
    ('1.0000e200', '-2.50e15')
    """
    value = float(x)
    if math.isnan(value):
        return "–"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if abs(value) >= 1e15:
        mantissa, power = f"{value:.{digits}e}".split("e")
        return f"{mantissa}e{int(power)}"
    text = f"{value:.{digits}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text


def show_trimmed(x, digits: int = 4) -> str:
    """Like :func:`show` with trailing zeros (and a bare point) dropped.

    >>> show_trimmed(0.5), show_trimmed(3.0), show_trimmed(0.95612), show_trimmed(-0.00001)
    ('0.5', '3', '0.9561', '0')
    >>> show_trimmed(1e200), show_trimmed(1.25e16)
    ('1e200', '1.25e16')
    """
    text = show(x, digits)
    if "e" in text:
        mantissa, power = text.split("e")
        return f"{mantissa.rstrip('0').rstrip('.')}e{power}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def for_table(frame, digits: int | dict = 4):
    """A copy of ``frame`` (a pandas DataFrame) whose float columns hold their displayed values: each
    number is what ``show(x, digits)`` writes, read back (``nan``/``±inf`` and other columns unchanged).
    ``digits`` may map column names to their decimals (a column shown with ``%.2f``); the others get 4.

    >>> import pandas as pd
    >>> for_table(pd.DataFrame({"ndcg": [0.9561125053043696, 0.5], "run": ["a", "b"]}))["ndcg"].tolist()
    [0.9561, 0.5]
    >>> for_table(pd.DataFrame({"A": [0.125], "B": [0.125]}), {"A": 2}).iloc[0].tolist()
    [0.12, 0.125]
    """
    import numpy as np
    import pandas as pd

    out = frame.copy()
    for col in out.columns:
        if pd.api.types.is_float_dtype(out[col].dtype):
            values = out[col].to_numpy(dtype=float, na_value=np.nan)
            finite = np.isfinite(values) & (np.abs(values) < 1e15)
            places = digits.get(col, 4) if isinstance(digits, dict) else digits
            rounded = values.copy()
            rounded[finite] = [float(f"{v:.{places}f}") for v in values[finite]]
            out[col] = rounded
    return out
