"""The playground's link format, declared once: its :mod:`ui.state` fields, and links to it from other pages.

Parameters (README): ``rels`` grades in ranked order, ``unretrieved`` grades of judged items not in the
list, ``labels`` the items' names (ranked items first, then unretrieved ones), ``k`` (``all`` or absent:
the whole list), ``gain``, ``discount``, ``base`` (``2``, ``e``, ``10`` or another number), ``idcg``
(``judged`` or ``list``); ``lang`` is the app's.  Numbers are written exactly (:func:`ui.numbers.exact`):
a link reproduces what was typed.  The playground reads and writes them through :data:`FIELDS`; other
pages build links with :func:`playground_query_for` / :func:`playground_url`, the same encoders.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from urllib.parse import urlencode

from metrics.parse import ParseError, parse_gain_map
from metrics.registry import ZERO_IDCG
from ui import state as ui_state
from ui.numbers import exact
from ui.ranking import MAX_LABEL_CHARS, clean_label
from ui.widgets import K_ALL, k_parser

__all__ = [
    "PLAYGROUND_PAGE", "PLAYGROUND_PATH", "PLAYGROUND_PARAMS", "GAIN_CHOICES", "DISCOUNT_CHOICES", "IDCG_CHOICES",
    "MAX_LABEL_CHARS", "MAX_ITEMS", "MAX_GRADE", "BASE_RANGE", "DEFAULT_RELS", "FIELDS", "parse_base",
    "format_base", "parse_labels_field", "playground_query", "playground_query_for", "playground_url",
    "LinkProblem", "PlaygroundLink", "read_playground_query", "PLAYGROUND_GAINS", "DEFAULT_GAIN_MAP",
    "ZERO_IDCG_CHOICES", "parse_map", "format_map",
]

PLAYGROUND_PAGE = "pages/playground.py"
PLAYGROUND_PATH = "playground"
PLAYGROUND_PARAMS = ("rels", "labels", "unretrieved", "k", "gain", "discount", "base", "idcg", "gain_map",
                     "zero_idcg")
GAIN_CHOICES = ("linear", "exponential")
#: The playground's gains: the two of the documents, and a gain map in trec_eval's ``-m ndcg.L=G`` form.
PLAYGROUND_GAINS = (*GAIN_CHOICES, "map")
#: The map the editor starts with: 2^rel - 1 written out for grades 0-3, as trec_eval would be given it.
DEFAULT_GAIN_MAP = ((0.0, 0.0), (1.0, 1.0), (2.0, 3.0), (3.0, 7.0))
#: A map's gains are bounded so no sum over MAX_ITEMS positions can overflow.
MAX_MAP_GAIN = 1e295
ZERO_IDCG_CHOICES = tuple(ZERO_IDCG)
DISCOUNT_CHOICES = ("standard", "jarvelin")
IDCG_CHOICES = ("list", "judged")
DEFAULT_RELS = (3.0, 2.0, 1.0, 3.0, 2.0)  # document 000's example
#: At most this many ranked items, and as many unretrieved ones.
MAX_ITEMS = 10_000
#: Grades above this are refused: 2^1000 - 1 over 10,000 positions still fits a float64 under every gain,
#: discount and allowed base, so no variant can overflow and switching one never fails.
MAX_GRADE = 1_000
#: Log bases allowed (besides e): from 1e-100 to 1e100, not 1.
BASE_RANGE = (1e-100, 1e100)


def parse_base(raw) -> float:
    """``2``, ``10``, ``e`` or another number from 1e-100 to 1e100, not 1.

    >>> parse_base("e") == math.e, parse_base("10"), parse_base(" 1.5 ")
    (True, 10.0, 1.5)
    >>> parse_base("1")
    Traceback (most recent call last):
    ui.state.BadValue: '1' is outside 1e-100 to 1e+100 or is one of 1
    """
    text = str(raw).strip()
    if text.lower() == "e":
        return math.e
    return ui_state.number(*BASE_RANGE, exclude=(1.0,))(text)


def format_base(base: float) -> str:
    """``2.0`` -> ``"2"``, ``math.e`` -> ``"e"``, others exact."""
    return "e" if base == math.e else exact(base)


def _grades(allow_empty: bool):
    return ui_state.grades(MAX_ITEMS, allow_empty=allow_empty, max_value=MAX_GRADE)


def parse_labels_field(raw) -> tuple[str, ...]:
    """The ``labels`` parameter: comma-separated names (each cleaned; uniqueness is the ranking's business).

    >>> parse_labels_field("A, B ,,C")
    ('A', 'B', '', 'C')
    """
    text = ui_state.text(MAX_ITEMS * 2 * (MAX_LABEL_CHARS + 1))(raw)
    return tuple(clean_label(x) for x in text.split(",")) if text.strip() else ()


def parse_map(raw) -> tuple[tuple[float, float], ...]:
    """A gain map (``0=0,1=1,2=3,3=7``, trec_eval's ``-m ndcg.L=G``) as sorted (level, gain) pairs.

    >>> parse_map("-m ndcg.2=3, 0=0")
    ((0.0, 0.0), (2.0, 3.0))
    """
    text = ui_state.text(20_000)(raw)
    try:
        pairs = parse_gain_map(text)
    except ParseError as exc:
        raise ui_state.BadValue(
            text, "playground.bad_gain_map", str(exc), token=exc.token, position=exc.position
        ) from None
    except ValueError as exc:
        raise ui_state.BadValue(text, "empty", str(exc)) from None
    for i, (level, gain) in enumerate(pairs.items(), start=1):
        if level > MAX_GRADE or abs(gain) > MAX_MAP_GAIN:
            raise ui_state.BadValue(text, "playground.bad_gain_map", f"pair {i} is too large", token=f"{exact(level)}="
                             f"{exact(gain)}", position=i)
    return tuple(sorted(pairs.items()))


def format_map(pairs, sep: str = ", ") -> str:
    """>>> format_map(((0.0, 0.0), (2.0, 3.5)), sep=",")
    '0=0,2=3.5'
    """
    return sep.join(f"{exact(level)}={exact(gain)}" for level, gain in pairs)


FIELDS = (
    ui_state.Field(
        "pg_rels",
        "rels",
        default=DEFAULT_RELS,
        parse=_grades(False),
        encode=ui_state.list_encoder(","),
        text=ui_state.list_encoder(", "),
        label="common.grades",
    ),
    ui_state.Field(
        "pg_unret",
        "unretrieved",
        default=(),
        parse=_grades(True),
        encode=ui_state.list_encoder(","),
        text=ui_state.list_encoder(", "),
        label="playground.unretrieved",
    ),
    ui_state.Field("pg_labels", "labels", default=(), parse=parse_labels_field, encode=",".join, widget=False),
    ui_state.Field("pg_gain", "gain", default="linear", parse=ui_state.choice(PLAYGROUND_GAINS)),
    ui_state.Field(
        "pg_gain_map",
        "gain_map",
        default=DEFAULT_GAIN_MAP,
        parse=parse_map,
        encode=lambda m: format_map(m, ","),
        text=format_map,
        label="playground.gain_map",
    ),
    ui_state.Field("pg_discount", "discount", default="standard", parse=ui_state.choice(DISCOUNT_CHOICES)),
    ui_state.Field(
        "pg_base", "base", default=2.0, parse=parse_base, encode=format_base, text=format_base, label="common.log_base"
    ),
    ui_state.Field("pg_k", "k", default=K_ALL, parse=k_parser(2 * MAX_ITEMS)),
    ui_state.Field("pg_idcg", "idcg", default="judged", parse=ui_state.choice(IDCG_CHOICES)),
    ui_state.Field("pg_zero", "zero_idcg", default="zero", parse=ui_state.choice(ZERO_IDCG_CHOICES)),
)
_BY_PARAM = {f.param: f for f in FIELDS}


def playground_query_for(rels, *, labels=None, unretrieved=None, k=None, gain=None, discount=None, base=None,
                         idcg=None, gain_map=None, zero_idcg=None, lang=None) -> dict[str, str]:
    """The playground's query for these settings (defaults omitted), written by its own encoders.

    ``labels`` name the ranked items, then the unretrieved ones; they are omitted when they are the
    defaults D1, D2, ...

    >>> playground_query_for([3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6)
    {'rels': '3,2,3,0,1,2', 'unretrieved': '3,0', 'k': '6'}
    >>> playground_query_for([2.1234567, 3], idcg="list", base=10, lang="zh")
    {'rels': '2.1234567,3', 'base': '10', 'idcg': 'list', 'lang': 'zh'}
    """
    from ui.ranking import Ranking

    ranking = Ranking.from_fields(rels, unretrieved or (), labels or ())
    values = dict(zip(("rels", "unretrieved", "labels"), ranking.fields()))
    values.update(k=K_ALL if k is None else int(k), gain=gain or "linear", discount=discount or "standard",
                  base=2.0 if base is None else float(base), idcg=idcg or "judged",
                  gain_map=DEFAULT_GAIN_MAP if gain_map is None else tuple(sorted(dict(gain_map).items())),
                  zero_idcg=zero_idcg or "zero")
    q = {f.param: f.to_link(values[f.param]) for f in FIELDS if values[f.param] != f.default}
    if lang and lang != "en":
        q["lang"] = lang
    return q


def playground_query(rels, **options) -> dict[str, str]:
    """Like :func:`playground_query_for` (kept for the pages that call it by this name)."""
    return playground_query_for(rels, **options)


def playground_url(rels, **options) -> str:
    """A relative URL (``playground?rels=...``) for Markdown links and the address bar."""
    return f"{PLAYGROUND_PATH}?{urlencode(playground_query_for(rels, **options), safe=',')}"


# ---------------------------------------------------------------------------------------------
# Decoding outside the playground page (tests, other pages checking the links they write)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LinkProblem:
    """One URL parameter that was ignored: its ``name``, the ``value`` given, a ``kind`` and the reason."""

    name: str
    value: str
    kind: str
    message: str
    token: str = ""
    position: int = 0


@dataclass
class PlaygroundLink:
    """What a playground link asks for.  ``None`` means "not given (or ignored): use the default"."""

    rels: list[float] | None = None
    labels: list[str] | None = None  # one per item: ranked items first, then the unretrieved ones
    unretrieved: list[float] | None = None
    k: int | None = None
    gain: str | None = None
    discount: str | None = None
    base: float | None = None
    idcg: str | None = None
    gain_map: tuple[tuple[float, float], ...] | None = None
    zero_idcg: str | None = None
    problems: list[LinkProblem] = field(default_factory=list)


_KINDS = {"parse_not_a_number": "not_a_number", "parse_negative": "negative", "parse_too_large": "too_large",
          "item_range": "too_large", "integer": "k", "range": "k", "choice": "choice", "number": "base",
          "number_range": "base", "finite": "base"}


def read_playground_query(params) -> PlaygroundLink:
    """Decode playground query parameters with :data:`FIELDS`' parsers, collecting problems (never raises).

    >>> link = read_playground_query({"rels": "3,2,1,3,2", "discount": "jarvelin"})
    >>> link.rels, link.discount, link.problems
    ([3.0, 2.0, 1.0, 3.0, 2.0], 'jarvelin', [])
    >>> bad = read_playground_query({"rels": "3,x", "k": "0", "gain": "cubic"})
    >>> [(p.name, p.kind) for p in bad.problems], bad.rels, bad.k, bad.gain
    ([('rels', 'not_a_number'), ('gain', 'choice'), ('k', 'k')], None, None, None)
    """
    out = PlaygroundLink()
    for f in FIELDS:
        if f.param not in params:
            continue
        raw = params[f.param]
        raw = str(raw[-1] if isinstance(raw, (list, tuple)) and raw else raw)
        try:
            value = f.parse(raw)
        except ui_state.BadValue as exc:
            kind = "empty" if f.param == "rels" and not raw.strip() else _KINDS.get(exc.reason, exc.reason)
            out.problems.append(LinkProblem(f.param, raw, kind, str(exc), token=str(exc.fmt.get("token", "")),
                                            position=int(exc.fmt.get("position", 0) or 0)))
            continue
        if f.param in ("rels", "unretrieved", "labels"):
            value = list(value)
        if value == K_ALL:
            value = None
        setattr(out, f.param, value)
    if out.rels is None:
        out.labels = None  # names belong to the ranking that was ignored (or not given)
    elif out.labels is not None:
        n = len(out.rels) + len(out.unretrieved or [])
        if len(out.labels) > n:
            out.problems.append(LinkProblem("labels", ",".join(out.labels), "labels_extra",
                                            f"{len(out.labels)} labels for {n} items; the extra ones are ignored"))
        out.labels = out.labels[:n] or None
    return out

