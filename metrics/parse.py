"""The one number grammar; what people type or paste turned into grades, with messages naming the bad token.

One grammar for every number the app reads as text -- typed in a page, in a link, on the command line, in a
``-m`` spec or a Spark option: :data:`WHOLE` (``7``, ``-3``; at most 30 digits; :data:`DIGITS` without a
sign, for cutoffs and counts) and :data:`DECIMAL` (``2``,
``-0.5``, ``.25``, ``1e-3``; an exponent of at most 5 digits), written with the ASCII digits 0-9 only (no
``nan``, ``inf``, ``1_000``, ``0x10``, ``①`` or other scripts' digits); :func:`parse_number` reads one value
by it.  Lists typed by people (grades, scores) are folded with Unicode NFKC first, so full-width digits
from a Chinese or Korean keyboard read as ASCII, then each token is read by the same grammar.  Bounds are
checked by :mod:`metrics._validation`, the one validation module.

Accepted separators: spaces, tabs, newlines, commas, semicolons, the Chinese
enumeration comma 、 and full-width forms (３，２，１ from a Chinese keyboard),
which are folded to ASCII first (Unicode NFKC).  Nothing is ever evaluated.
"""
from __future__ import annotations

import math
import re
import unicodedata

__all__ = [
    "DECIMAL", "DIGITS", "WHOLE", "ParseError", "parse_base", "parse_gain_map", "parse_grades", "parse_labels",
    "parse_number",
    "parse_numbers", "split_tokens",
]

_SEPARATORS = re.compile(r"[\s,;、|]+")
#: Two cell separators with nothing but spaces between them: an empty cell (``3,,2``; a spreadsheet row's
#: blank cell pasted as ``3;;2``).  Spaces alone never make an empty entry (``3  2`` is two grades).
_EMPTY_CELL = re.compile(r"[,;、|]\s*(?=[,;、|])")
#: Digits alone (cutoffs, counts): 1 to 30 ASCII digits, no sign.
DIGITS = re.compile(r"[0-9]{1,30}")
#: A whole number: an optional sign and 1 to 30 ASCII digits (Python reads longer ones slowly, and none is needed).
WHOLE = re.compile(r"[+-]?[0-9]{1,30}")
#: A decimal number: an optional sign, digits with an optional point (or a point and digits), an optional
#: exponent of 1 to 5 digits; ASCII only.  Read with ``float``; a value beyond float64 is refused as not finite.
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,5})?")


class ParseError(ValueError):
    """A token that is not an accepted value.

    ``token`` and 1-based ``position`` say which; ``kind`` ("not_a_number",
    "negative", "too_large", "second_number" where one number is expected, "decimal_comma" for "6,86" where
    a comma separates values, "too_many" for a value past a list's last position) lets a UI translate
    the message.
    """

    def __init__(self, message: str, *, token: str, position: int, kind: str = "not_a_number", name: str | None = None):
        super().__init__(message)
        self.token = token
        self.position = position
        self.kind = kind
        #: The parameter or option the value was given for (:func:`parse_number`), else None.
        self.name = name


def _shown(text: str, limit: int = 40) -> str:
    """The text as typed, quoted, cut at ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def parse_number(text, *, name: str = "value", whole: bool = False) -> float | int:
    """One number written by :data:`DECIMAL` (or, with ``whole``, :data:`WHOLE`), as typed.

    The one reading of a single number for the app's fields and links (:mod:`ui.state`), the command
    line (:mod:`metrics.runfiles.cli`) and the measure specs; surrounding spaces are ignored, nothing
    else is folded or guessed.  Bounds are the caller's (:mod:`metrics._validation`).

    Parameters
    ----------
    text : str
        The number as typed.
    name : str, default "value"
        The parameter or option it was given for, named in the message.
    whole : bool, default False
        Accept only a whole number (returned as int).

    Returns
    -------
    float or int
        A finite float, or an int with ``whole``.

    Raises
    ------
    ParseError
        (a ValueError) naming ``name`` and the text as typed: ``kind`` "not_a_number" (not the grammar,
        e.g. ``nan``, ``1,5``, ``٣``) or "too_large" (beyond float64, e.g. ``1e400``).

    Examples
    --------
    >>> parse_number(" 2.5 "), parse_number("-7", whole=True), parse_number("5e-324")
    (2.5, -7, 5e-324)
    >>> parse_number("nan", name="--confidence")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: --confidence must be a number written with the digits 0-9, got 'nan'
    >>> parse_number("1.5", name="k", whole=True)
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: k must be a whole number written with the digits 0-9, got '1.5'
    """
    raw = text if isinstance(text, str) else str(text)
    value = raw.strip()
    what = "a whole number" if whole else "a number"
    if not (WHOLE if whole else DECIMAL).fullmatch(value):
        raise ParseError(f"{name} must be {what} written with the digits 0-9, got {_shown(raw)}", token=raw,
                         position=1, name=name)
    if whole:
        return int(value)
    out = float(value)
    if not math.isfinite(out):
        raise ParseError(f"{name} must be a finite number, got {_shown(raw)}", token=raw, position=1,
                         kind="too_large", name=name)
    return out


def split_tokens(text: str) -> list[str]:
    """Split typed or pasted text into tokens.

    The text is folded with Unicode NFKC first, so full-width digits and commas typed on a Chinese
    or Korean keyboard become ASCII; then it is split at any run of spaces, tabs, newlines,
    commas, semicolons, ``|`` or the enumeration comma ``、``.  Nothing is converted to a number.

    Parameters
    ----------
    text : str
        What was typed or pasted.

    Returns
    -------
    list of str
        The non-empty tokens in order (empty for blank text).

    Raises
    ------
    ValueError
        If ``text`` is not a string.

    Examples
    --------
    Full-width ``３，２，１`` (a Chinese keyboard) becomes 3, 2, 1; tabs and semicolons separate too:

    >>> split_tokens("３，２，１\\t0 ; 2")
    ['3', '2', '1', '0', '2']
    >>> split_tokens("3|2、1")
    ['3', '2', '1']
    """
    if not isinstance(text, str):
        raise ValueError(f"expected text, got {type(text).__name__}")
    folded = unicodedata.normalize("NFKC", text)
    return [t for t in _SEPARATORS.split(folded) if t]


def _number(token: str, position: int, *, allow_percent: bool) -> float:
    shown = token if len(token) <= 20 else token[:17] + "..."
    number = token[:-1] if token.endswith("%") and allow_percent else token
    if not DECIMAL.fullmatch(number):
        raise ParseError(f"'{shown}' at position {position} is not a number", token=token, position=position)
    value = float(number)
    if not math.isfinite(value):
        raise ParseError(f"'{shown}' at position {position} is too large", token=token, position=position,
                         kind="too_large")
    return value / 100 if token.endswith("%") else value


def parse_numbers(text: str, *, allow_percent: bool = False, allow_empty: bool = False) -> list[float]:
    """Parse a list of finite numbers of any sign (scores, hand-computed values).

    Tokens are split as by :func:`split_tokens`; each must be a plain decimal number (``3``,
    ``-0.5``, ``.25``, ``1e3``).  Nothing is evaluated: ``1/2`` or ``sqrt(2)`` is refused.

    Parameters
    ----------
    text : str
        The numbers as typed.
    allow_percent : bool, default False
        Accept a trailing ``%`` and divide by 100 (``81.86%`` -> 0.8186), as people write NDCG.
    allow_empty : bool, default False
        Return ``[]`` for blank text instead of raising.

    Returns
    -------
    list of float
        The numbers in order.

    Raises
    ------
    ParseError
        (a ValueError) naming the first token that is not a number, its 1-based position and its
        ``kind`` ("not_a_number" or "too_large").
    ValueError
        If the text is blank and ``allow_empty`` is False, or not a string.

    Examples
    --------
    >>> parse_numbers("0.9, 81.86%", allow_percent=True)
    [0.9, 0.8186]
    >>> parse_numbers("1e3 -2 .5")
    [1000.0, -2.0, 0.5]
    >>> parse_numbers("0.5 1/2")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: '1/2' at position 2 is not a number
    """
    tokens = split_tokens(text)
    if not tokens and not allow_empty:
        raise ValueError("nothing to read: type at least one number")
    return [_number(t, i, allow_percent=allow_percent) for i, t in enumerate(tokens, start=1)]


def parse_grades(text: str, *, allow_empty: bool = False) -> list[float]:
    """Parse relevance grades (finite numbers >= 0), e.g. pasted from a spreadsheet.

    Parameters
    ----------
    text : str
        Grades separated as in :func:`split_tokens`; fractional grades are allowed.
    allow_empty : bool, default False
        Return ``[]`` for blank text instead of raising.

    Returns
    -------
    list of float
        The grades in ranked order.

    Raises
    ------
    ParseError
        (a ValueError) naming the first bad token and its position: ``kind`` "not_a_number",
        "too_large" or "negative".
    ValueError
        If the text is blank and ``allow_empty`` is False.

    See Also
    --------
    metrics._validation.as_grades : the same rules for numbers that are already numbers.

    Examples
    --------
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

    A grade left out between two commas is refused rather than skipped (it would shift every later grade up
    one position); a trailing comma is fine:

    >>> parse_grades("3,,2")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: position 2 is empty (between '3' and '2'); type its grade, 0 for not relevant
    >>> parse_grades("3, 2,")
    [3.0, 2.0]
    """
    values = parse_numbers(text, allow_empty=allow_empty)
    tokens = split_tokens(text)
    folded = unicodedata.normalize("NFKC", text)
    for gap in _EMPTY_CELL.finditer(folded):
        before = split_tokens(folded[:gap.start()])
        if before and split_tokens(folded[gap.end():]):
            i = len(before) + 1
            raise ParseError(f"position {i} is empty (between {_shown(before[-1], 20)} and "
                             f"{_shown(tokens[i - 1], 20)}); type its grade, 0 for not relevant", token="",
                             position=i, kind="empty")
    for i, (token, value) in enumerate(zip(tokens, values), start=1):
        if value < 0:
            raise ParseError(f"'{token}' at position {i} is negative; grades must be 0 or more", token=token,
                             position=i, kind="negative")
    return values


def parse_labels(text: str, n: int) -> list[str]:
    """Labels for ``n`` items from comma-separated text; missing ones default to D1, D2, ...

    Labels are made unique (a repeated label gets a suffix), since drag-and-drop
    needs distinct items.  Only commas separate (a label may contain spaces); labels are folded
    with NFKC and stripped; extra labels beyond ``n`` are dropped.

    Parameters
    ----------
    text : str or None
        Comma-separated labels, e.g. from a link's ``labels`` parameter; empty or None gives the
        defaults.
    n : int
        How many items need a label.

    Returns
    -------
    list of str
        Exactly ``n`` distinct labels: given ones, with ``" (2)"``, ``" (3)"``... appended to
        repeats, and ``D<i>`` (1-based) where none (or an empty one) was given.

    Examples
    --------
    The second ``A`` becomes ``A (2)``; the fourth item has no label and gets ``D4``:

    >>> parse_labels("A,B,A", 4)
    ['A', 'B', 'A (2)', 'D4']

    An empty label between commas is a missing one:

    >>> parse_labels("x, ,z", 3)
    ['x', 'D2', 'z']
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

    Parameters
    ----------
    text : str or number
        The base as typed (full-width digits are folded, case and surrounding spaces ignored);
        ``"e"`` means ``math.e``.

    Returns
    -------
    float
        The base, finite, > 0 and != 1.

    Raises
    ------
    ValueError
        If the text is not a plain number (or ``e``), or the number is <= 0, 1 or not finite.

    Examples
    --------
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
    if not DECIMAL.fullmatch(folded):
        raise ValueError(f"log base {str(text)[:20]!r} is not a number; use 2, 10, e or another number > 0 and != 1")
    return check_log_base(float(folded))


_GAIN_MAP_SEPARATORS = re.compile(r"[\s,;、|]+")
#: Two cell separators with nothing but spaces between them: an empty cell (``3,,2``; a spreadsheet row's
#: blank cell pasted as ``3;;2``).  Spaces alone never make an empty entry (``3  2`` is two grades).
_EMPTY_CELL = re.compile(r"[,;、|]\s*(?=[,;、|])")
_GAIN_MAP_PREFIX = re.compile(r"^(-m\s*)?ndcg(_cut)?\.", re.IGNORECASE)


def parse_gain_map(text: str, *, allow_empty: bool = False) -> dict[float, float]:
    """A gain map in trec_eval's ``-m ndcg.L=G`` syntax: grade (relevance level) ``L`` gets gain ``G``.

    Pairs ``level=gain`` are separated by commas (trec_eval's form), spaces, semicolons or newlines;
    full-width forms (``２＝３``) are folded first and a leading ``ndcg.`` or ``-m ndcg.`` (as typed on
    trec_eval's command line) is accepted.  Levels are numbers >= 0 (trec_eval reads them with
    ``atol``: only whole levels occur in its qrels); gains are any finite number, 0 and negative
    included, as trec_eval allows ("Gains are allowed to be 0 or negative, and relevance level 0 can
    be given a gain", ``m_ndcg.c``).  Grades not in the map keep their own value as gain
    (:func:`metrics.registry.gain_map`).

    Parameters
    ----------
    text : str
        Pairs ``level=gain``, e.g. ``"0=0,1=1,2=3,3=7"``.
    allow_empty : bool, default False
        Return ``{}`` for blank text instead of raising.

    Returns
    -------
    dict of float to float
        Level -> gain, in the order typed.

    Raises
    ------
    ParseError
        (a ValueError) naming the bad pair and its 1-based number: ``kind`` "not_a_pair",
        "not_a_number", "too_large", "negative" (level) or "duplicate" (level given twice).
    ValueError
        If ``text`` is not a string, or blank when ``allow_empty`` is False.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``m_ndcg.c`` (``-m ndcg.L=G``; gains may be 0 or negative).

    Examples
    --------
    Exponential gain 2**level - 1 written out (0, 1, 3, 7), as trec_eval takes it:

    >>> parse_gain_map("0=0,1=1,2=3,3=7")
    {0.0: 0.0, 1.0: 1.0, 2.0: 3.0, 3.0: 7.0}
    >>> parse_gain_map("-m ndcg.1=3.5,2=9.0,4=7.0")
    {1.0: 3.5, 2.0: 9.0, 4.0: 7.0}
    >>> parse_gain_map("1=3, 2=x")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: gain 'x' in '2=x' (pair 2) is not a number
    >>> parse_gain_map("1=3 1=4")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: level 1 in '1=4' (pair 2) is already given (pair 1: '1=3')
    """
    if not isinstance(text, str):
        raise ValueError(f"gain map must be text such as '0=0,1=1,2=3', got {type(text).__name__}")
    folded = unicodedata.normalize("NFKC", text).strip()
    folded = _GAIN_MAP_PREFIX.sub("", folded)
    tokens = [t for t in _GAIN_MAP_SEPARATORS.split(folded) if t]
    if not tokens:
        if allow_empty:
            return {}
        raise ValueError("gain map is empty: write pairs level=gain such as 0=0,1=1,2=3,3=7")
    out: dict[float, float] = {}
    first: dict[float, tuple[int, str]] = {}
    for i, token in enumerate(tokens, start=1):
        shown = token if len(token) <= 20 else token[:17] + "..."
        if token.count("=") != 1:
            raise ParseError(f"'{shown}' (pair {i}) is not level=gain, e.g. 2=3", token=token, position=i,
                             kind="not_a_pair")
        level_text, gain_text = token.split("=")
        for part, what in ((level_text, "level"), (gain_text, "gain")):
            if not DECIMAL.fullmatch(part):
                raise ParseError(f"{what} '{part[:20]}' in '{shown}' (pair {i}) is not a number", token=token,
                                 position=i, kind="not_a_number")
        level, gain = float(level_text), float(gain_text)
        if not (math.isfinite(level) and math.isfinite(gain)):
            raise ParseError(f"'{shown}' (pair {i}) is too large", token=token, position=i, kind="too_large")
        if level < 0:
            raise ParseError(f"level '{level_text}' in '{shown}' (pair {i}) is negative; levels are grades >= 0",
                             token=token, position=i, kind="negative")
        if level in out:
            j, earlier = first[level]
            raise ParseError(f"level {level:g} in '{shown}' (pair {i}) is already given (pair {j}: '{earlier}')",
                             token=token, position=i, kind="duplicate")
        out[level] = gain + 0.0  # -0.0 -> 0.0
        first[level] = (i, shown)
    return out
