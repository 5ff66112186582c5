"""Shareable playground links: the one place that writes the URL query format.

The playground reads the same names (see ``pages/playground.py`` and the README):
``rels`` grades in ranked order, ``labels``, ``unretrieved`` (grades of judged items
not in the list), ``k``, ``gain``, ``discount``, ``base``, ``lang``.
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import urlencode

from metrics.parse import ParseError, parse_base, parse_grades, parse_labels

PLAYGROUND_PAGE = "pages/playground.py"
PLAYGROUND_PATH = "playground"


def _num(x: float) -> str:
    return f"{x:g}" if float(x) != int(x) else str(int(x))


def format_base(base: float) -> str:
    """``2`` -> "2", ``math.e`` -> "e"."""
    return "e" if base == math.e else _num(base)


def playground_query(rels, *, labels=None, unretrieved=None, k=None, gain=None, discount=None,
                     base=None, lang=None) -> dict[str, str]:
    """Query parameters that open the playground on this ranking.

    >>> playground_query([3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6)
    {'rels': '3,2,3,0,1,2', 'unretrieved': '3,0', 'k': '6'}
    """
    q: dict[str, str] = {"rels": ",".join(_num(r) for r in rels)}
    if labels:
        q["labels"] = ",".join(str(x).replace(",", " ") for x in labels)
    if unretrieved:
        q["unretrieved"] = ",".join(_num(r) for r in unretrieved)
    if k is not None:
        q["k"] = str(int(k))
    if gain and gain != "linear":
        q["gain"] = gain
    if discount and discount != "standard":
        q["discount"] = discount
    if base is not None and float(base) != 2.0:
        q["base"] = format_base(float(base))
    if lang and lang != "en":
        q["lang"] = lang
    return q


def playground_url(rels, **options) -> str:
    """A relative URL (``playground?rels=...``) for markdown links and the address bar."""
    return f"{PLAYGROUND_PATH}?{urlencode(playground_query(rels, **options))}"


# ---------------------------------------------------------------------------------------------
# Decoding: the other half of the format, used by the playground when a link is opened.
# ---------------------------------------------------------------------------------------------

PLAYGROUND_PARAMS = ("rels", "labels", "unretrieved", "k", "gain", "discount", "base", "idcg")
GAIN_CHOICES = ("linear", "exponential")
DISCOUNT_CHOICES = ("standard", "jarvelin")
IDCG_CHOICES = ("list", "judged")
MAX_LABEL_CHARS = 60


@dataclass(frozen=True)
class LinkProblem:
    """One URL parameter that was ignored: its ``name``, the ``value`` given and why.

    ``kind`` names the reason for a translated message ("not_a_number", "negative", "too_large",
    "empty", "choice", "k", "base", "labels_extra"); ``token``/``position`` locate a bad grade
    and ``message`` is the English reason from the parser.
    """

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
    problems: list[LinkProblem] = field(default_factory=list)


def _first(value) -> str:
    if isinstance(value, (list, tuple)):
        value = value[-1] if value else ""
    return str(value)


def _grades(name: str, text: str, out: PlaygroundLink, *, allow_empty: bool) -> list[float] | None:
    try:
        return parse_grades(text, allow_empty=allow_empty)
    except ParseError as exc:
        out.problems.append(LinkProblem(name, text, exc.kind, str(exc), token=exc.token, position=exc.position))
    except ValueError as exc:
        out.problems.append(LinkProblem(name, text, "empty", str(exc)))
    return None


def read_playground_query(params) -> PlaygroundLink:
    """Decode playground query parameters (a mapping of name -> str), collecting problems.

    Never raises for bad values: each bad parameter becomes a :class:`LinkProblem` and is left
    ``None`` so the caller uses its default.  Unknown parameters (``lang`` and others) are ignored.

    >>> link = read_playground_query({"rels": "3,2,1,3,2", "discount": "jarvelin"})
    >>> link.rels, link.discount, link.problems
    ([3.0, 2.0, 1.0, 3.0, 2.0], 'jarvelin', [])
    >>> bad = read_playground_query({"rels": "3,x", "k": "0", "gain": "cubic"})
    >>> [(p.name, p.kind) for p in bad.problems], bad.rels, bad.k, bad.gain
    ([('rels', 'not_a_number'), ('k', 'k'), ('gain', 'choice')], None, None, None)
    """
    get = {name: _first(params[name]) for name in PLAYGROUND_PARAMS if name in params}
    out = PlaygroundLink()
    if "rels" in get:
        out.rels = _grades("rels", get["rels"], out, allow_empty=False)
    if "unretrieved" in get:
        out.unretrieved = _grades("unretrieved", get["unretrieved"], out, allow_empty=True)
    if "k" in get:
        text = unicodedata.normalize("NFKC", get["k"]).strip()
        if text.isdigit() and int(text) >= 1:
            out.k = int(text)
        else:
            out.problems.append(LinkProblem("k", get["k"], "k", f"k must be a whole number >= 1, got {get['k'][:20]!r}"))
    for name, choices in (("gain", GAIN_CHOICES), ("discount", DISCOUNT_CHOICES), ("idcg", IDCG_CHOICES)):
        if name in get:
            value = get[name].strip().lower()
            if value in choices:
                setattr(out, name, value)
            else:
                out.problems.append(LinkProblem(name, get[name], "choice",
                                                f"unknown {name} {get[name][:20]!r}; valid: {', '.join(choices)}"))
    if "base" in get:
        try:
            out.base = parse_base(get["base"])
        except ValueError as exc:
            out.problems.append(LinkProblem("base", get["base"], "base", str(exc)))
    if "labels" in get:
        n_items = len(out.rels if out.rels is not None else []) + len(out.unretrieved or [])
        given = [p for p in get["labels"].split(",")]
        if out.rels is None:
            pass  # labels belong to the ranking that was ignored (or not given): defaults are used
        else:
            if len(given) > n_items:
                out.problems.append(LinkProblem("labels", get["labels"], "labels_extra",
                                                f"{len(given)} labels for {n_items} items; the extra ones are ignored"))
            labels = parse_labels(get["labels"], n_items)
            out.labels = [x[:MAX_LABEL_CHARS] for x in labels]
    return out


def playground_query_for(rels, *, labels=None, unretrieved=None, k=None, gain=None, discount=None,
                         base=None, idcg=None, lang=None) -> dict[str, str]:
    """Like :func:`playground_query`, plus ``idcg`` (the IDCG source) when it is not the default.

    The playground writes its state to the address bar with this.  ``labels`` are omitted when
    they are the defaults D1, D2, ... in order.
    """
    n = len(list(rels)) + len(list(unretrieved or []))
    if labels is not None and list(labels) == [f"D{i}" for i in range(1, n + 1)]:
        labels = None
    q = playground_query(rels, labels=labels, unretrieved=unretrieved, k=k, gain=gain, discount=discount,
                         base=base, lang=lang)
    if idcg and idcg != "judged":
        q["idcg"] = idcg
    return q
