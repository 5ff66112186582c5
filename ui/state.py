r"""Page state: one small mechanism for every page.

What a page gets, by declaring its fields once:

* **kept across page switches** — Streamlit deletes a widget's value when its page is not drawn; the
  values live on in a plain session-state entry and are put back before the widgets are drawn;
* **the last valid value on bad input** — a text field that no longer parses keeps the last value that
  did; a message names the field, the bad value (escaped, shortened) and what is allowed;
* **the link** — on a page's first visit in a session, or when a link the app did not write itself is
  opened (``st.switch_page(..., query_params=...)``, a pasted address), the link's parameters are read
  (bad ones are reported and their defaults used); at the end of every run the address bar is rewritten
  from the current values (defaults omitted, unknown parameters dropped, ``lang`` kept), so a copied
  address reproduces the view exactly (numbers written by :func:`ui.numbers.exact`).

Usage (a page script)::

    from ui import state as S

    FIELDS = (
        S.Field("ch_rels", "rels", default=(3.0, 2.0, 1.0), parse=S.grades(max_items=500),
                encode=S.list_encoder(","), text=S.list_encoder(", "), label="common.grades"),
        S.Field("ch_k", "k", default=None, parse=S.optional(S.integer(1, 10_000))),
        S.Field("ch_gain", "gain", default="linear", parse=S.choice(("linear", "exponential"))),
    )
    page = S.PageState("check", FIELDS)   # before any widget of the page
    page.show_link_problems()             # after the title: one warning per bad link parameter
    st.text_area(t("common.grades"), key="ch_rels")
    rels = page.typed("ch_rels")          # the parsed value; on bad text an error here, last valid kept
    gain = st.selectbox(..., key="ch_gain")
    page.finish()                         # last line: keep the values, write the link

Kinds of field:

* a *plain widget* field (``text=None``): the widget holds the value itself (selectbox, radio,
  number_input, toggle); :meth:`PageState.value` returns it;
* a *typed* field (``text=`` a formatter): the widget holds text, the value is what the text parses to;
  call :meth:`PageState.typed` right after drawing the widget;
* a *non-widget* field (``widget=False``): the page keeps the value in ``st.session_state[key]``
  itself (a score, a seed); it is read from and written to the link like the others.

Parsers (:func:`integer`, :func:`number`, :func:`choice`, :func:`text`, :func:`grades`,
:func:`numbers`, :func:`boolean`, :func:`optional`) take the link's or the field's text and return the
value or raise :class:`BadValue`.  Integers are ASCII decimal digits only (``isdigit()`` would accept
``①``, ``፩``, ``²``), lengths and magnitudes are bounded, floats are finite.

Every declared field is recorded in :data:`REGISTRY` (page -> script and fields) when its page runs, so
tests can enumerate every page's link parameters (the hostile-input fuzz test does).
"""
from __future__ import annotations

import math
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from metrics.parse import DECIMAL, WHOLE  # the one number grammar: ASCII digits, bounded
from ui.numbers import exact

__all__ = [
    "MAX_PARAM_CHARS", "MAX_LINK_CHARS", "GLOBAL_PARAMS", "LAST_PAGE_KEY", "LABELS_KEY", "LABELS_CAP",
    "REGISTRY", "BadValue", "Field", "PageState", "link_text", "default_used", "kept_query",
    "integer", "number", "choice", "text", "grades", "numbers", "boolean", "optional", "list_encoder",
    "remember_labels", "restore_choice", "restore_choices", "relabelled",
]

#: A link parameter longer than this is refused before parsing (a link is not a file upload).
MAX_PARAM_CHARS = 20_000
#: The address bar is not written when the whole query would be longer (browsers and proxies cut
#: long URLs); the page says so with :attr:`PageState.link_too_long`.
MAX_LINK_CHARS = 8_000
#: Parameters that belong to the whole app, not to a page: never dropped by a page.
GLOBAL_PARAMS = ("lang",)
#: Session-state key: the page of the session's latest run (every PageState records it when it starts).
LAST_PAGE_KEY = "_state.last_page"
#: Session-state key: the labels each option widget was drawn with (:func:`remember_labels`).
LABELS_KEY = "_state.labels"
#: Labels remembered per widget (the oldest are forgotten first): a cutoff select of 1,000 values in three
#: languages after a few list lengths.
LABELS_CAP = 5_000


class BadValue(ValueError):
    """A value that does not parse.  ``reason`` is a ``state.reason.*`` catalogue key, ``fmt`` its fields.

    ``str(exc)`` is an English message (for logs and tests); pages show :meth:`PageState.message`.
    """

    def __init__(self, value: str, reason: str, english: str, **fmt):
        super().__init__(english)
        self.value = value
        self.reason = reason
        self.fmt = fmt


def parse_error_fields(exc) -> dict:
    """The fields of a :class:`metrics.parse.ParseError`'s message beyond its token and position (unescaped):
    the list's length for one value too many, the number written with a point for a decimal comma."""
    return {"limit": exc.position - 1, "point": str(exc.token).replace(",", ".")}


def bad_number(text: str, exc: ValueError) -> BadValue:
    """The :class:`BadValue` for one hand-written number that :func:`metrics.lessons.diagnose.hand_number` (or
    :func:`metrics.parse.parse_numbers`) refused, with a reason every language has: the token and its position
    for a :class:`metrics.parse.ParseError`, "empty" for nothing written."""
    from metrics.parse import ParseError

    if isinstance(exc, ParseError):
        if exc.kind == "not_a_number" and exc.position == 1 and exc.token.strip() == str(text).strip():
            return BadValue(text, "hand_number", str(exc))  # the whole text, not "the value at position 1"
        return BadValue(text, f"parse_{exc.kind}", str(exc), token=exc.token, position=exc.position,
                        **parse_error_fields(exc))
    if not str(text).strip():
        return BadValue(text, "empty", str(exc))
    return BadValue(text, "hand_number", str(exc))


Parser = Callable[[str], Any]


# ---------------------------------------------------------------------------------------------
# Parsers
# ---------------------------------------------------------------------------------------------


def _clean(raw) -> str:
    return str(raw).strip()


def integer(lo: int, hi: int) -> Parser:
    """A whole number from ``lo`` to ``hi``, ASCII decimal digits only.

    >>> integer(1, 10)("7"), integer(0, 2**32 - 1)(" 42 ")
    (7, 42)
    >>> integer(1, 10)("①")
    Traceback (most recent call last):
    ui.state.BadValue: '①' is not a whole number written with the digits 0-9 (from 1 to 10)
    >>> integer(1, 10)("11")
    Traceback (most recent call last):
    ui.state.BadValue: '11' is outside 1 to 10
    """
    def parse(raw) -> int:
        value = _clean(raw)
        if not WHOLE.fullmatch(value):
            raise BadValue(value, "integer", f"{value[:40]!r} is not a whole number written with the digits 0-9 "
                           f"(from {lo} to {hi})", lo=lo, hi=hi)
        out = int(value)
        if not lo <= out <= hi:
            raise BadValue(value, "range", f"{value[:40]!r} is outside {lo} to {hi}", lo=lo, hi=hi)
        return out

    parse.allowed = ("integer", {"lo": lo, "hi": hi})
    return parse


def number(lo: float | None = None, hi: float | None = None, *, exclude: Sequence[float] = ()) -> Parser:
    """A finite decimal number (``2``, ``-0.5``, ``1e-3``), optionally bounded; ASCII only.

    >>> number(0)("2.5"), number()("-1e-3")
    (2.5, -0.001)
    >>> number()("1e400")
    Traceback (most recent call last):
    ui.state.BadValue: '1e400' is not a finite number
    >>> number(0, 1)("nan")
    Traceback (most recent call last):
    ui.state.BadValue: 'nan' is not a number (from 0 to 1)
    """
    lo_text = "" if lo is None else exact(lo)
    hi_text = "" if hi is None else exact(hi)

    def parse(raw) -> float:
        value = _clean(raw)
        if not DECIMAL.fullmatch(value):
            raise BadValue(value, "number", f"{value[:40]!r} is not a number"
                           + (f" (from {lo_text} to {hi_text})" if lo is not None and hi is not None else ""),
                           lo=lo_text, hi=hi_text)
        out = float(value)
        if not math.isfinite(out):
            raise BadValue(value, "finite", f"{value[:40]!r} is not a finite number")
        if (lo is not None and out < lo) or (hi is not None and out > hi) or out in exclude:
            raise BadValue(value, "number_range", f"{value[:40]!r} is outside {lo_text or '-∞'} to {hi_text or '∞'}"
                           + (f" or is one of {', '.join(exact(x) for x in exclude)}" if exclude else ""),
                           lo=lo_text or "-∞", hi=hi_text or "∞")
        return out

    parse.allowed = ("number", {"lo": lo_text or "-∞", "hi": hi_text or "∞"})
    return parse


def choice(options: Sequence[str]) -> Parser:
    """One of ``options`` (case-insensitive, surrounding spaces ignored).

    >>> choice(("linear", "exponential"))(" Linear ")
    'linear'
    >>> choice(("a", "b"))("c")
    Traceback (most recent call last):
    ui.state.BadValue: 'c' is not one of: a, b
    """
    options = tuple(options)
    lookup = {o.lower(): o for o in options}

    def parse(raw) -> str:
        value = _clean(raw)
        found = lookup.get(value.lower())
        if found is None:
            raise BadValue(value, "choice", f"{value[:40]!r} is not one of: {', '.join(options)}",
                           options=", ".join(options))
        return found

    parse.allowed = ("choice", {"options": ", ".join(options)})
    return parse


def text(max_chars: int, *, allow_empty: bool = True) -> Parser:
    """Any text up to ``max_chars`` characters (Unicode normalised to NFC, line breaks kept).

    >>> text(5)("hello")
    'hello'
    >>> text(3)("hello")
    Traceback (most recent call last):
    ui.state.BadValue: text of 5 characters is longer than 3
    """
    def parse(raw) -> str:
        value = unicodedata.normalize("NFC", str(raw))
        if len(value) > max_chars:
            raise BadValue(value, "too_long", f"text of {len(value)} characters is longer than {max_chars}",
                           n=len(value), max=max_chars)
        if not allow_empty and not value.strip():
            raise BadValue(value, "empty", "the text is empty")
        return value

    parse.allowed = ("text", {"max": max_chars})
    return parse


def _from_parse_error(value: str, exc: ValueError) -> BadValue:
    from metrics.parse import ParseError, split_tokens

    if isinstance(exc, ParseError):
        return BadValue(value, f"parse_{exc.kind}", str(exc), token=exc.token, position=exc.position)
    if not split_tokens(str(value)):  # "nothing to read" in every language
        return BadValue(value, "empty_list", str(exc))
    return BadValue(value, "invalid", str(exc), message=str(exc))


def grades(max_items: int = 1_000, *, allow_empty: bool = False, max_value: float | None = None) -> Parser:
    """Relevance grades as people type them (``3 2 1``, ``3,2,1``, ``３，２，１``): a tuple of floats.

    Text longer than ``32 × max_items`` characters is refused before parsing; with ``max_value`` a
    grade above it is refused too (e.g. 1024: 2^1025 − 1 would overflow the exponential gain).

    >>> grades()("3, 2.5, 0")
    (3.0, 2.5, 0.0)
    >>> grades(max_items=2)("1 2 3")
    Traceback (most recent call last):
    ui.state.BadValue: 3 values; at most 2 are accepted
    >>> grades(max_value=1024)("3 2000")
    Traceback (most recent call last):
    ui.state.BadValue: 2000 at position 2 is outside 0 to 1024
    """
    from metrics.parse import parse_grades

    def parse(raw) -> tuple[float, ...]:
        value = str(raw)
        if len(value) > 32 * max_items:
            raise BadValue(value, "too_long", f"text of {len(value)} characters is longer than {32 * max_items}",
                           n=len(value), max=32 * max_items)
        try:
            out = tuple(parse_grades(value, allow_empty=allow_empty))
        except ValueError as exc:
            raise _from_parse_error(value, exc) from None
        if len(out) > max_items:
            raise BadValue(value, "too_many", f"{len(out)} values; at most {max_items} are accepted",
                           n=len(out), max=max_items)
        for i, g in enumerate(out, start=1):
            if max_value is not None and g > max_value:
                raise BadValue(value, "item_range", f"{exact(g)} at position {i} is outside 0 to {exact(max_value)}",
                               token=exact(g), position=i, lo="0", hi=exact(max_value))
        return out

    parse.allowed = ("grades", {"max": max_items})
    return parse


def numbers(max_items: int = 1_000, *, allow_empty: bool = False, lo: float | None = None,
            hi: float | None = None) -> Parser:
    """Any finite numbers (scores, ratings, hand values) as people type them: a tuple of floats.

    >>> numbers()("0.9, -1.5 2")
    (0.9, -1.5, 2.0)
    >>> numbers(lo=0, hi=1)("0.5 2")
    Traceback (most recent call last):
    ui.state.BadValue: 2 at position 2 is outside 0 to 1
    """
    from metrics.parse import parse_numbers

    def parse(raw) -> tuple[float, ...]:
        value = str(raw)
        if len(value) > 32 * max_items:
            raise BadValue(value, "too_long", f"text of {len(value)} characters is longer than {32 * max_items}",
                           n=len(value), max=32 * max_items)
        try:
            out = tuple(float(x) for x in parse_numbers(value, allow_empty=True))
        except ValueError as exc:
            raise _from_parse_error(value, exc) from None
        if not out and not allow_empty:
            raise BadValue(value, "empty", "no numbers given")
        if len(out) > max_items:
            raise BadValue(value, "too_many", f"{len(out)} values; at most {max_items} are accepted",
                           n=len(out), max=max_items)
        for i, x in enumerate(out, start=1):
            if not math.isfinite(x):
                raise BadValue(value, "finite", f"{exact(x)} at position {i} is not a finite number")
            if (lo is not None and x < lo) or (hi is not None and x > hi):
                raise BadValue(value, "item_range", f"{exact(x)} at position {i} is outside {exact(lo)} to {exact(hi)}",
                               token=exact(x), position=i, lo=exact(lo) if lo is not None else "-∞",
                               hi=exact(hi) if hi is not None else "∞")
        return out

    parse.allowed = ("numbers", {"max": max_items})
    return parse


def boolean() -> Parser:
    """``1``/``0``, ``true``/``false``, ``yes``/``no``, ``on``/``off``.

    >>> boolean()("true"), boolean()("0")
    (True, False)
    """
    truth = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False,
             "off": False}

    def parse(raw) -> bool:
        value = _clean(raw)
        if value.lower() not in truth:
            raise BadValue(value, "boolean", f"{value[:40]!r} is not 1/0 or true/false")
        return truth[value.lower()]

    parse.allowed = ("boolean", {})
    return parse


def optional(inner: Parser, *, none: Sequence[str] = ("", "all", "none")) -> Parser:
    """``inner``, or ``None`` for an empty value or one of ``none`` (e.g. ``k=all``: the whole list).

    >>> optional(integer(1, 10))("all") is None, optional(integer(1, 10))("3")
    (True, 3)
    """
    words = {w.lower() for w in none}

    def parse(raw):
        if _clean(raw).lower() in words:
            return None
        return inner(raw)

    parse.allowed = getattr(inner, "allowed", ("invalid", {}))
    return parse


def list_encoder(sep: str = ",") -> Callable[[Sequence[float]], str]:
    """Numbers joined with ``sep``, each exact (``(2.1234567, 3.0)`` -> ``"2.1234567,3"``).

    >>> list_encoder(",")((2.1234567, 3.0)), list_encoder(", ")([1, 0.5])
    ('2.1234567,3', '1, 0.5')
    """
    def encode(values) -> str:
        return sep.join(exact(v) for v in values)

    return encode


def _encode_default(value) -> str:
    if value is None:
        return "all"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return exact(value)
    if isinstance(value, (tuple, list)):
        return ",".join(exact(v) if isinstance(v, (int, float)) else str(v) for v in value)
    return str(value)


# ---------------------------------------------------------------------------------------------
# Option widgets: the browser sends back a label, not a value
# ---------------------------------------------------------------------------------------------
# Streamlit's option widgets (selectbox, radio, multiselect, pills, segmented control) send the *label* the
# browser shows, and the server turns it back into an option with the labels of the widget's latest run.  A
# label that changed since the browser got it (the cutoff's "Whole list (5)" once the list has 6 items; every
# translated name after a language switch; "D1 (3)" once D1's grade is 2) is unknown then: session state
# holds the raw label (a page reading it before the widget is drawn gets a string such as 'Whole list (5)')
# and the widget falls back to its default (the visitor's choice is lost).  Two remedies, at the cause:
# every label a widget was drawn with is remembered, so a stale one is turned back into its option before
# anything reads it (:func:`restore_choice`), and when the label of the current value changes, the value is
# assigned again before the widget is drawn, which makes Streamlit send the browser the new label
# (:func:`relabelled`; ``ui.widgets.option_widget`` does both around every option widget).
@dataclass
class _Labels:
    drawn: list = field(default_factory=list)   # [(option, label)] of the widget's latest draw
    known: dict = field(default_factory=dict)   # label -> option: every label drawn in this session
    value: object = None                        # the value the widget's latest draw returned


def remember_labels(session, key: str, options: Sequence, labels: Sequence[str], value=None) -> None:
    """Record the labels option widget ``key`` was drawn with in this run and the ``value`` the draw returned
    (call it right after drawing).

    >>> s = {}
    >>> remember_labels(s, "k", ["all", 1], ["Whole list (5)", "k = 1"])
    >>> s[LABELS_KEY]["k"].known
    {'Whole list (5)': 'all', 'k = 1': 1}
    """
    memory = session.get(LABELS_KEY)
    if memory is None:
        memory = session[LABELS_KEY] = {}
    entry = memory.setdefault(key, _Labels())
    entry.drawn = list(zip(options, labels, strict=True))
    entry.value = value
    for option, label in entry.drawn:
        entry.known.pop(label, None)  # re-inserted: the latest draws are kept longest
        entry.known[label] = option
    while len(entry.known) > LABELS_CAP:
        del entry.known[next(iter(entry.known))]


def _is_option(value, options) -> bool:
    return any(value == o and type(value) is type(o) for o in options)


def restore_choice(session, key: str, options: Sequence | None = None) -> bool:
    """If option widget ``key`` holds a label from an earlier draw instead of an option, put its option back.

    ``options`` are the widget's options in this run (default: those of its latest draw).  A list (a
    multiselect's, multi pills') is restored item by item.  Returns whether the value was replaced; the
    replacement is an assignment, so Streamlit sends the browser the current label when the widget is drawn.

    >>> s = {}
    >>> remember_labels(s, "k", ["all", 1, 2, 3, 4, 5], ["Whole list (5)", *(f"k = {i}" for i in range(1, 6))])
    >>> remember_labels(s, "k", ["all", *range(1, 7)], ["Whole list (6)", *(f"k = {i}" for i in range(1, 7))])
    >>> s["k"] = "Whole list (5)"           # what the browser sent: the label of the run before
    >>> restore_choice(s, "k"), s["k"]
    (True, 'all')
    >>> restore_choice(s, "k")              # an option: left as it is
    False
    """
    entry = (session.get(LABELS_KEY) or {}).get(key)
    if entry is None or key not in session:
        return False
    options = [o for o, _ in entry.drawn] if options is None else list(options)
    value = session[key]

    def back(item):
        if isinstance(item, str) and not _is_option(item, options) and item in entry.known:
            return entry.known[item]
        return item

    if isinstance(value, (list, tuple)):
        restored = type(value)(back(v) for v in value)
        changed = any(a is not b for a, b in zip(restored, value, strict=True))
    else:
        restored = back(value)
        changed = restored is not value
    if changed:
        session[key] = restored
    return changed


def restore_choices(session) -> None:
    """:func:`restore_choice` for every option widget drawn in this session (a page calls it before reading)."""
    for key in list(session.get(LABELS_KEY) or {}):
        restore_choice(session, key)


def unchanged(session, key: str) -> bool:
    """Whether option widget ``key`` holds, once a stale label is put back (:func:`restore_choice`), the value
    its latest draw returned: Streamlit then calls the widget's ``on_change`` although nothing was chosen
    (the browser sent the label of the language before, which Streamlit compares as a new value).

    >>> s = {"d": "easy"}
    >>> remember_labels(s, "d", ["easy", "hard"], ["Easy", "Hard"], value="easy")
    >>> remember_labels(s, "d", ["easy", "hard"], ["简单", "困难"], value="easy")
    >>> s["d"] = "Easy"                     # sent by a browser that still shows English
    >>> unchanged(s, "d"), s["d"]
    (True, 'easy')
    >>> s["d"] = "困难"
    >>> unchanged(s, "d"), s["d"]
    (False, 'hard')
    """
    restore_choice(session, key)
    entry = (session.get(LABELS_KEY) or {}).get(key)
    if entry is None or key not in session:
        return False
    value, drawn = session[key], entry.value
    if isinstance(value, (list, tuple)) and isinstance(drawn, (list, tuple)):
        return len(value) == len(drawn) and all(_is_option(v, [d]) for v, d in zip(value, drawn, strict=True))
    return _is_option(value, [drawn])


def relabelled(session, key: str, options: Sequence, labels: Sequence[str]) -> bool:
    """Whether the browser shows the current value of option widget ``key`` under another label than this
    run's ``labels`` give it (the language changed, the list grew): then the value must be sent again.

    >>> s = {"k": "all"}
    >>> remember_labels(s, "k", ["all", 1], ["Whole list (1)", "k = 1"])
    >>> relabelled(s, "k", ["all", 1, 2], ["Whole list (2)", "k = 1", "k = 2"])
    True
    >>> s["k"] = 1
    >>> relabelled(s, "k", ["all", 1, 2], ["Whole list (2)", "k = 1", "k = 2"])
    False
    """
    entry = (session.get(LABELS_KEY) or {}).get(key)
    if entry is None or key not in session:
        return False
    value = session[key]
    items = list(value) if isinstance(value, (list, tuple)) else [value]

    def label(item, pairs):
        return next((lab for o, lab in pairs if item == o and type(item) is type(o)), None)

    now_pairs = list(zip(options, labels, strict=True))
    held = [label(v, entry.drawn) for v in items]
    now = [label(v, now_pairs) for v in items]
    return None not in held and None not in now and held != now


# ---------------------------------------------------------------------------------------------
# Fields and the page state
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Field:
    """One piece of a page's state.

    Parameters
    ----------
    key : str
        The session-state key (the widget's ``key=`` for widget fields).  Prefix it with the page's.
    param : str or None
        The link parameter, or None to keep the value across page switches without putting it in links.
    default
        The value when nothing is given (the parsed form: a float, a tuple, a string, None, ...).
    parse : callable
        Link text (or the widget's text, for typed fields) -> value; raises :class:`BadValue`.
    encode : callable, optional
        Value -> link text, exact (default: :func:`ui.numbers.exact` for numbers, ``,``-joined lists,
        ``all`` for None).
    text : callable, optional
        For *typed* fields: value -> the text put in the widget.  None for plain widget fields.
    widget : bool
        False for values the page keeps in session state itself (no widget to restore).
    label : str, optional
        Catalogue key of the field's name in messages about typed text (default: the parameter name).
    """

    key: str
    param: str | None
    default: Any
    parse: Parser
    encode: Callable[[Any], str] | None = None
    text: Callable[[Any], str] | None = None
    widget: bool = True
    label: str | None = None

    def to_link(self, value) -> str:
        return (self.encode or _encode_default)(value)

    def to_widget(self, value):
        return self.text(value) if self.text is not None else value


@dataclass
class LinkProblem:
    """A link parameter that was ignored: its name, the text given and why."""

    name: str
    error: BadValue


@dataclass
class _Entry:
    script: str | None
    fields: tuple[Field, ...]


#: page -> the script that declared it and its fields (filled when each page runs).
REGISTRY: dict[str, _Entry] = {}


@dataclass
class _Kept:
    values: dict[str, Any] = field(default_factory=dict)   # key -> last valid value
    texts: dict[str, Any] = field(default_factory=dict)    # key -> widget content (typed fields: raw text)
    written: dict[str, str] | None = None                  # the query this page last wrote


def _st():
    import streamlit as st

    return st


def _history_navigation() -> bool:
    """Whether this run was started by the browser's Back or Forward button (False outside Streamlit)."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
    except ImportError:  # pragma: no cover - Streamlit is a dependency
        return False
    ctx = get_script_run_ctx(suppress_warning=True)
    return bool(getattr(ctx, "is_history_navigation", False)) if ctx is not None else False


def _query_get(params: Mapping, name: str) -> str | None:
    if name not in params:
        return None
    value = params.get(name) if hasattr(params, "get") else params[name]
    if isinstance(value, (list, tuple)):
        value = value[-1] if value else ""
    return None if value is None else str(value)


class PageState:
    """The state of one page: construct it before the page's first widget, call :meth:`finish` last.

    Parameters
    ----------
    page : str
        The page's id (its url_path, e.g. ``"check"``).
    fields : sequence of Field
        Every value of the page worth keeping.
    session, query : mappings, optional
        For tests without Streamlit: stand-ins for ``st.session_state`` and ``st.query_params``.

    Notes
    -----
    A link is read when the page *arrives*: a session's first visit, another page before this run (a page
    change, ``st.switch_page(..., query_params=...)``), or the browser's Back or Forward button.  A run that
    *continues* the page (the session's previous page run was this page, no history navigation) keeps its own
    values whatever address it carries.  Within one session the browser changes the address only through the
    app; any other run (a widget, a button, a component answering, ``st.rerun``) carries the address the
    browser had when it sent the run, which is a run behind when the server is slow.  Read as a new link, that
    older address would put back the previous values: a slider's key press lost on a busy server.  A pasted
    or edited address reloads the page, which is a new session.
    """

    def __init__(self, page: str, fields: Sequence[Field], *, session=None, query=None):
        params = [f.param for f in fields if f.param is not None]
        repeated = sorted({p for p in params if params.count(p) > 1})
        keys = [f.key for f in fields]
        if repeated or len(set(keys)) != len(keys):
            raise ValueError(f"page {page!r} declares link parameter(s) {repeated} or a key twice; "
                             "every field needs its own key and parameter")
        self.page = page
        self.fields = {f.key: f for f in fields}
        self.problems: list[LinkProblem] = []
        self.errors: dict[str, BadValue] = {}
        self.link_too_long = False
        self.opened_link = False
        st = None if session is not None and query is not None else _st()
        self._session = session if session is not None else st.session_state
        self._query = query if query is not None else st.query_params
        caller = sys._getframe(1).f_globals.get("__file__")
        REGISTRY[page] = _Entry(caller, tuple(fields))
        previous = self._session.get(LAST_PAGE_KEY)
        self._session[LAST_PAGE_KEY] = page
        restore_choices(self._session)  # before anything reads a value: no label from an earlier draw
        #: This run continues the page: the session's previous page run was this page, no history navigation.
        self.continued = previous == page and not _history_navigation()
        self._start(continued=self.continued)

    # -- reading ------------------------------------------------------------------------------
    @property
    def _store_key(self) -> str:
        return f"_state.{self.page}"

    def _kept(self) -> _Kept | None:
        return self._session.get(self._store_key)

    def _link_values(self) -> dict[str, str]:
        out = {}
        for f in self.fields.values():
            if f.param is not None:
                raw = _query_get(self._query, f.param)
                if raw is not None:
                    out[f.param] = raw
        return out

    def _parse_link(self, f: Field, raw: str):
        if len(raw) > MAX_PARAM_CHARS:
            raise BadValue(raw, "too_long", f"the value has {len(raw)} characters; at most {MAX_PARAM_CHARS}",
                           n=len(raw), max=MAX_PARAM_CHARS)
        return f.parse(raw)

    def _start(self, *, continued: bool) -> None:
        kept = self._kept()
        link = self._link_values()
        fresh = kept is None
        if fresh:
            kept = _Kept()
            self._session[self._store_key] = kept
        self.opened_link = bool(link) and (fresh or (link != (kept.written or {}) and not continued))
        if fresh or self.opened_link:
            # A link describes the whole view: what it does not give takes the default.
            for f in self.fields.values():
                value = f.default
                if f.param is not None and f.param in link:
                    try:
                        value = self._parse_link(f, link[f.param])
                    except BadValue as exc:
                        self.problems.append(LinkProblem(f.param, exc))
                        value = f.default
                kept.values[f.key] = value
                kept.texts[f.key] = f.to_widget(value)
                if f.widget:
                    self._session[f.key] = kept.texts[f.key]
                else:
                    self._session[f.key] = value
            return
        # Same session, no new link: put back what Streamlit dropped after a visit to another page.
        for f in self.fields.values():
            if f.key in self._session:
                continue
            if f.widget:
                self._session[f.key] = kept.texts.get(f.key, f.to_widget(kept.values.get(f.key, f.default)))
            else:
                self._session[f.key] = kept.values.get(f.key, f.default)

    # -- values -------------------------------------------------------------------------------
    def value(self, key: str):
        """The current value of a plain widget or non-widget field (typed fields: :meth:`typed`)."""
        f = self.fields[key]
        if f.text is not None:
            return self._kept().values.get(key, f.default)
        return self._session.get(key, f.default)

    def set(self, key: str, value) -> None:
        """Give a field a new value from code (an example button, a callback): widget text follows.

        Call it in a widget callback or before the field's widget is drawn in this run.
        """
        f = self.fields[key]
        kept = self._kept()
        kept.values[key] = value
        kept.texts[key] = f.to_widget(value)
        self._session[key] = kept.texts[key] if f.widget else value
        self.errors.pop(key, None)

    def parse_typed(self, key: str):
        """The parsed value of a typed field's current text, or the last valid one (error recorded)."""
        f = self.fields[key]
        kept = self._kept()
        raw = self._session.get(key, f.to_widget(kept.values.get(key, f.default)))
        try:
            value = f.parse(raw)
        except BadValue as exc:
            self.errors[key] = exc
            return kept.values.get(key, f.default)
        self.errors.pop(key, None)
        kept.values[key] = value
        return value

    def typed(self, key: str):
        """Like :meth:`parse_typed`, and on bad text an error right here (naming the field, the bad value
        and what is allowed) plus "the last valid value is kept"."""
        value = self.parse_typed(key)
        if key in self.errors:
            st = _st()
            st.error(self.message(self.fields[key], self.errors[key]), icon=":material/error:")
            st.caption(_t("state.kept_last_valid"))
        return value

    # -- messages -----------------------------------------------------------------------------
    def message(self, f: Field | str, exc: BadValue) -> str:
        """The translated message for a bad value of ``f`` (a Field or a link parameter name)."""
        from ui.escape import markdown

        if isinstance(f, Field):
            name = _t(f.label) if f.label else (f.param or f.key)
        else:
            name = f
        # "message" (reason "invalid") is a whole sentence; other fields are a token or a value.
        fmt = {k: markdown(v, 200 if k in ("message", "accepted") else 40) if isinstance(v, str) else v
               for k, v in exc.fmt.items()}
        # A page's own parser may name a full catalogue key (with a dot, e.g. "topn.reason.missing_bar").
        key = exc.reason if "." in exc.reason else f"state.reason.{exc.reason}"
        reason = _t(key, **fmt)
        if reason == key:  # no translation: the English message
            reason = markdown(str(exc), 200)
        return _t("state.bad_value", name=markdown(name, 40), value=markdown(exc.value, 40), reason=reason)

    def show_link_problems(self) -> None:
        """One warning per ignored link parameter (call it after the page's title)."""
        st = _st()
        for p in self.problems:
            st.warning(default_used(self.message(p.name, p.error)), icon=":material/link_off:")

    # -- the link -----------------------------------------------------------------------------
    def query(self) -> dict[str, str]:
        """The link parameters for the current values (defaults omitted), in declaration order."""
        kept = self._kept()
        out: dict[str, str] = {}
        for f in self.fields.values():
            if f.param is None:
                continue
            if f.text is not None or f.key in self.errors:
                value = kept.values.get(f.key, f.default)
            else:
                value = self._session.get(f.key, f.default)
            if value != f.default:
                out[f.param] = f.to_link(value)
        return out

    def finish(self) -> None:
        """Keep every value for the next visit and rewrite the address bar (call it last)."""
        kept = self._kept()
        for f in self.fields.values():
            if f.key not in self._session:
                continue
            current = self._session[f.key]
            if f.widget:
                kept.texts[f.key] = current
                if f.key in self.errors:  # refused by its parser this run: the last valid value stays
                    continue
                if f.text is None:
                    kept.values[f.key] = current
                else:
                    self.parse_typed(f.key)
            else:
                kept.values[f.key] = current
        query = self.query()
        self.link_too_long = sum(len(k) + len(v) + 2 for k, v in query.items()) > MAX_LINK_CHARS
        if self.link_too_long:
            query = {}
        sent = False
        for name in list(self._query.keys()):
            # Defaults and parameters this page does not know (or reported as bad) leave the link.
            if name not in GLOBAL_PARAMS and name not in query:
                del self._query[name]
                sent = True
        for name, value in query.items():
            if _query_get(self._query, name) != value:
                self._query[name] = value
                sent = True
        if not sent and kept.written is not None and kept.written != query:
            # Nothing above was sent (this run started from an address that already matches), yet the previous
            # run sent another one: the browser asked for this run before that address arrived, and now shows
            # it (a token that was to leave the link stayed in it).  Send this run's address again.
            _resend(self._query)
        kept.written = query

    def url(self, base: str = "") -> str:
        """The page's address for the current values (``base`` + path + query), e.g. for "copy link"."""
        from urllib.parse import urlencode

        query = dict(self.query())
        lang = _query_get(self._query, "lang")
        if lang:
            query["lang"] = lang
        path = f"{base.rstrip('/')}/{self.page}" if base else self.page
        return f"{path}?{urlencode(query)}" if query else path


def kept_query(session, page: str, fields: Sequence[Field]) -> dict[str, str] | None:
    """The link parameters of the last valid values ``page`` kept in this session (defaults omitted), or None
    before the page's first run: what another page shows of it without drawing it (Present opened from the
    sidebar presents the playground's ranking).  The values are those :meth:`PageState.finish` kept (a typed
    field's last text that parsed), encoded by the page's own ``fields``.

    >>> f = (Field("pg_k", "k", default=None, parse=optional(integer(1, 9)), widget=False),)
    >>> session = {}
    >>> kept_query(session, "pg", f) is None
    True
    >>> p = PageState("pg", f, session=session, query={"k": "3"}); p.finish()
    >>> kept_query(session, "pg", f)
    {'k': '3'}
    """
    kept = session.get(f"_state.{page}")
    if kept is None:
        return None
    out: dict[str, str] = {}
    for f in fields:
        value = kept.values.get(f.key, f.default)
        if f.param is not None and value != f.default:
            out[f.param] = f.to_link(value)
    return out


def default_used(said: str) -> str:
    """A refused link value's message ``said`` followed by "the default is used", in the current language; no
    space after a full-width stop (Chinese).  The warning of :meth:`PageState.show_link_problems`, and of a page
    that refuses a link value only once its data is known (ROC's step, Rating's pair, Top-N's user)."""
    gap = "" if said.endswith(("。", "！", "？")) else " "
    return said + gap + _t("state.default_used")


def link_text(page, param: str) -> str | None:
    """The text of link parameter ``param`` when ``page`` (a :class:`ui.state.PageState`) has just read a
    link, else None: a message about a value the data cannot use then quotes what the link said."""
    import streamlit as st

    if not page.opened_link:
        return None
    value = st.query_params.get(param)
    return None if value is None else str(value)


def _resend(query) -> None:
    """Send ``st.query_params``' current address to the browser again (a stand-in without ``from_dict``,
    as in the tests without Streamlit, has no browser to tell)."""
    if hasattr(query, "from_dict"):
        query.from_dict(query.to_dict())


def _t(key: str, **fmt) -> str:
    from ui.i18n import t

    return t(key, **fmt)
