"""Turn what people type or paste into grades, with messages that name the bad token.

Accepted separators: spaces, tabs, newlines, commas, semicolons, the Chinese
enumeration comma 、 and full-width forms (３，２，１ from a Chinese keyboard),
which are folded to ASCII first (Unicode NFKC).  Nothing is ever evaluated.
"""
from __future__ import annotations

import math
import re
import unicodedata

__all__ = ["ParseError", "parse_base", "parse_grades", "parse_numbers", "parse_labels", "split_tokens"]

_SEPARATORS = re.compile(r"[\s,;、|]+")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?%?")


class ParseError(ValueError):
    """A token that is not an accepted value.

    ``token`` and 1-based ``position`` say which; ``kind`` ("not_a_number",
    "negative", "too_large") lets a UI translate the message.
    """

    def __init__(self, message: str, *, token: str, position: int, kind: str = "not_a_number"):
        super().__init__(message)
        self.token = token
        self.position = position
        self.kind = kind


def split_tokens(text: str) -> list[str]:
    """Split typed or pasted text into tokens.

    >>> split_tokens("３，２，１\\t0 ; 2")
    ['3', '2', '1', '0', '2']
    """
    if not isinstance(text, str):
        raise ValueError(f"expected text, got {type(text).__name__}")
    folded = unicodedata.normalize("NFKC", text)
    return [t for t in _SEPARATORS.split(folded) if t]


def _number(token: str, position: int, *, allow_percent: bool) -> float:
    shown = token if len(token) <= 20 else token[:17] + "..."
    if not _NUMBER.fullmatch(token) or (token.endswith("%") and not allow_percent):
        raise ParseError(f"'{shown}' at position {position} is not a number", token=token, position=position)
    value = float(token.rstrip("%"))
    if not math.isfinite(value):
        raise ParseError(f"'{shown}' at position {position} is too large", token=token, position=position,
                         kind="too_large")
    return value / 100 if token.endswith("%") else value


def parse_numbers(text: str, *, allow_percent: bool = False, allow_empty: bool = False) -> list[float]:
    """Parse a list of finite numbers of any sign (scores, hand-computed values).

    >>> parse_numbers("0.9, 81.86%", allow_percent=True)
    [0.9, 0.8186]
    """
    tokens = split_tokens(text)
    if not tokens and not allow_empty:
        raise ValueError("nothing to read: type at least one number")
    return [_number(t, i, allow_percent=allow_percent) for i, t in enumerate(tokens, start=1)]


def parse_grades(text: str, *, allow_empty: bool = False) -> list[float]:
    """Parse relevance grades (finite numbers >= 0), e.g. pasted from a spreadsheet.

    >>> parse_grades("3 2 1 3 2")
    [3.0, 2.0, 1.0, 3.0, 2.0]
    >>> parse_grades("3,x,1")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: 'x' at position 2 is not a number
    >>> parse_grades("3 -1")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: '-1' at position 2 is negative; grades must be 0 or more
    """
    values = parse_numbers(text, allow_empty=allow_empty)
    tokens = split_tokens(text)
    for i, (token, value) in enumerate(zip(tokens, values), start=1):
        if value < 0:
            raise ParseError(f"'{token}' at position {i} is negative; grades must be 0 or more", token=token,
                             position=i, kind="negative")
    return values


def parse_labels(text: str, n: int) -> list[str]:
    """Labels for ``n`` items from comma-separated text; missing ones default to D1, D2, ...

    Labels are made unique (a repeated label gets a suffix), since drag-and-drop
    needs distinct items.

    >>> parse_labels("A,B,A", 4)
    ['A', 'B', 'A (2)', 'D4']
    """
    parts = [p.strip() for p in unicodedata.normalize("NFKC", text or "").split(",")] if text else []
    out: list[str] = []
    seen: set[str] = set()
    for i in range(n):
        label = parts[i] if i < len(parts) and parts[i] else f"D{i + 1}"
        base, j = label, 2
        while label in seen:
            label = f"{base} ({j})"
            j += 1
        seen.add(label)
        out.append(label)
    return out


def parse_base(text) -> float:
    """A logarithm base from text: ``"2"``, ``"10"``, ``"e"`` or any number > 0 and != 1.

    >>> parse_base("e") == math.e, parse_base("10")
    (True, 10.0)
    >>> parse_base("1")
    Traceback (most recent call last):
    ...
    ValueError: log_base must be a finite number > 0 and != 1, got 1.0
    """
    from ._validation import check_log_base

    folded = unicodedata.normalize("NFKC", str(text)).strip().lower()
    if folded == "e":
        return math.e
    if not _NUMBER.fullmatch(folded) or folded.endswith("%"):
        raise ValueError(f"log base {str(text)[:20]!r} is not a number; use 2, 10, e or another number > 0 and != 1")
    return check_log_base(float(folded))
