"""The lecture presented and its link: the Present page's fields, the lecture put together from them,
and the links other pages write to it.

A lecture presents one ranking (the playground's state: grades, labels, judged-but-not-retrieved
items, k, gain, discount, log base, IDCG source), optionally a source document's worked example
(``doc``).

* :data:`FIELDS`: the page's link parameters for :class:`ui.state.PageState` (the playground's names,
  parsed by the same parsers, plus ``doc``, ``step`` and ``theme``); :func:`lecture_from_values` puts
  them together (the playground's defaults and label rules); :func:`present_query` / :func:`present_url`
  write links (the "Present" buttons of the playground and the worked examples use them).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlencode

from metrics.lessons.examples import EXAMPLES, FORMULAS, ITEMS_004, WorkedExample, examples_for
from metrics.ndcg import all_variants, positions_counted
from metrics.parse import parse_base, parse_labels
from metrics.variant import Variant
from ui import state
from ui.i18n import DEFAULT_LANGUAGE
from ui.links import (
    DISCOUNT_CHOICES,
    GAIN_CHOICES,
    IDCG_CHOICES,
    MAX_LABEL_CHARS,
    PLAYGROUND_PARAMS,
    playground_query_for,
)
from ui.numbers import exact

__all__ = [
    "PRESENT_PAGE", "PRESENT_PATH", "PAGE_ID", "FIELDS", "THEMES", "DOCS", "STEP_KEY", "THEME_KEY",
    "Lecture", "BuildProblem", "example_key", "lecture_from_values", "lecture_from_example", "encode_values",
    "present_query", "present_url", "playground_query", "present_query_for_example",
    "present_query_from_playground", "field_values", "doc_changed", "LECTURE_PARAMS", "REFUSED_KEY",
    "refused_params", "PLAYGROUND_SEEN_KEY", "GAIN_MAP_KEY", "carried_query", "page_state",
]

PRESENT_PAGE = "pages/present.py"
PRESENT_PATH = "present"
PAGE_ID = "present"
THEMES = ("light", "dark")
DOCS = ("000", "001", "002", "003", "004")
MAX_STEP = 1_000_000  # a larger step in a link shows the last step, as any step past the end does
MAX_ITEMS = 5_000  # grades accepted from a link
MAX_LABEL_TEXT = 20_000
#: The ranking presented when the link gives none: document 000's example, as on the playground.
DEFAULT_RELS = EXAMPLES["000-graded"].relevances

@dataclass(frozen=True)
class Lecture:
    """What is presented: a ranking (``rels``, ``unretrieved``, ``labels``: the ranked items first, then the
    unretrieved ones) computed under a :class:`metrics.variant.Variant` (gain, discount, log base, k, IDCG
    source), optionally a worked example's (``doc``).

    >>> Lecture(rels=(3.0, 2.0), unretrieved=(1.0,), variant=Variant(k=1)).pool
    [3.0, 2.0, 1.0]
    """

    rels: tuple[float, ...]
    unretrieved: tuple[float, ...] = ()
    labels: tuple[str, ...] = ()
    variant: Variant = Variant()
    doc: str | None = None  # key of a worked example in metrics.lessons.examples.EXAMPLES

    @property
    def pool(self) -> list[float] | None:
        """The judged items the ideal ranking is built from (None: the list re-sorted)."""
        return list(self.rels) + list(self.unretrieved) if self.variant.idcg == "judged" else None

    @property
    def n_terms(self) -> int:
        """Positions that count in DCG (a cutoff past the list's end counts the whole list:
        :func:`metrics.ndcg.positions_counted`, as the playground's formula does)."""
        return positions_counted(len(self.rels), k=self.variant.k)

    @property
    def n_ideal_items(self) -> int:
        """The items the ideal ranking is built from: the list, or every judged item."""
        return len(self.rels) + (len(self.unretrieved) if self.variant.idcg == "judged" else 0)

    @property
    def n_ideal_terms(self) -> int:
        """Positions that count in IDCG."""
        return positions_counted(self.n_ideal_items, k=self.variant.k)

    @property
    def cutoff_past_end(self) -> bool:
        """Whether the cutoff k is longer than the ranked list (it then cuts nothing from it).

        >>> Lecture(rels=(1.0, 2.0), variant=Variant(k=6)).cutoff_past_end
        True
        """
        return self.variant.k is not None and self.variant.k > len(self.rels)

    @property
    def example(self) -> WorkedExample | None:
        return EXAMPLES.get(self.doc) if self.doc else None


def example_key(text: str) -> str | None:
    """The worked example a ``doc`` value names: a document ("000".."004" = its first example) or an
    example key ("001-book"); None if it names none.

    >>> example_key("000"), example_key("001-book"), example_key("005"), example_key("0")
    ('000-graded', '001-book', None, None)
    """
    text = text.strip()
    if text in EXAMPLES:
        return text
    if text in DOCS:
        return examples_for(text)[0].key
    return None


def _example_fields(example: WorkedExample) -> dict:
    """The playground fields of a worked example (the formula its numbers follow)."""
    formula = FORMULAS[example.implied].variant
    rels = list(example.relevances)
    labels = list(example.labels) if example.labels else None
    unretrieved: list[float] = []
    if example.pool is not None:
        if example.doc == "004" and labels:  # name the ground-truth items left out of the list
            missing = [item for item in ITEMS_004 if item not in labels]
            labels = labels + missing
            unretrieved = [float(ITEMS_004[item]) for item in missing]
        else:
            left = Counter(example.pool)
            left.subtract(Counter(rels))
            unretrieved = sorted(left.elements(), reverse=True)
    return {
        "rels": tuple(rels), "unretrieved": tuple(unretrieved), "labels": tuple(labels) if labels else None,
        "k": example.k, "gain": formula.gain, "discount": formula.discount, "base": formula.log_base,
        "idcg": "judged" if example.pool is not None else "list",
    }


# ---- the link: fields declared once for ui.state.PageState ----------------------------------------
# Every field is a non-widget field: the page changes the step and the theme itself, and the ranking
# only comes from a link.  ``None`` means "not given": the worked example's value, or the playground's
# default.  Grades, log base and choices are parsed by the playground's parsers (metrics.parse and
# the choices of ui.links).

def _step(raw) -> int:
    value = str(raw).strip()
    if not re.fullmatch(r"[0-9]{1,30}", value) or int(value) < 1:
        raise state.BadValue(value, "present.reason.step", f"{value[:40]!r} is not a step number (1 is the first)")
    return min(int(value), MAX_STEP)


def _doc(raw) -> str:
    value = str(raw).strip()
    key = example_key(value)
    if key is None:
        raise state.BadValue(value, "present.reason.doc",
                         f"{value[:40]!r} is not a document (000-004) or a worked example")
    return key


def _encode_doc(key: str) -> str:
    """A document's first example is written as the document ("000"), the others by their key."""
    doc = EXAMPLES[key].doc
    return doc if examples_for(doc)[0].key == key else key


def _base(raw) -> float:
    value = str(raw)
    try:
        return parse_base(value)
    except ValueError as exc:
        raise state.BadValue(value.strip(), "present.reason.base", str(exc)) from None


def _encode_base(base: float) -> str:
    return "e" if base == math.e else exact(base)


FIELDS = (
    state.Field("present_doc", "doc", default=None, parse=_doc, encode=_encode_doc, widget=False),
    state.Field("present_rels", "rels", default=None, parse=state.grades(max_items=MAX_ITEMS),
                encode=state.list_encoder(","), widget=False),
    state.Field("present_labels", "labels", default=None, parse=state.text(MAX_LABEL_TEXT), encode=str,
                widget=False),
    state.Field("present_unretrieved", "unretrieved", default=None,
                parse=state.grades(max_items=MAX_ITEMS, allow_empty=True), encode=state.list_encoder(","),
                widget=False),
    # k: "all" (or nothing) is the whole list, as on the playground.
    state.Field("present_k", "k", default=None, parse=state.optional(state.integer(1, 1_000_000)), widget=False),
    state.Field("present_gain", "gain", default=None, parse=state.choice(GAIN_CHOICES), widget=False),
    state.Field("present_discount", "discount", default=None, parse=state.choice(DISCOUNT_CHOICES), widget=False),
    state.Field("present_base", "base", default=None, parse=_base, encode=_encode_base, widget=False),
    state.Field("present_idcg", "idcg", default=None, parse=state.choice(IDCG_CHOICES), widget=False),
    state.Field("present_step", "step", default=None, parse=_step, widget=False),
    state.Field("present_theme", "theme", default="light", parse=state.choice(THEMES), widget=False),
)
STEP_KEY = "present_step"
THEME_KEY = "present_theme"
#: The link parameters that say which lecture it is (not where it stands or how it looks): when one is refused,
#: the lecture on screen is not the one the link asked for.
LECTURE_PARAMS = tuple(f.param for f in FIELDS if f.key not in (STEP_KEY, THEME_KEY))
#: Session-state key: the lecture parameters refused when the page last arrived (a link, another page before).
REFUSED_KEY = "present_refused"


@dataclass(frozen=True)
class BuildProblem:
    """A problem found when the link's values are put together (not a bad value of one parameter)."""

    name: str
    kind: str  # "overflow": the grades overflow a metric (the default ranking is used); "labels_extra"
    value: str
    message: str


def lecture_from_values(values) -> tuple[Lecture, list[BuildProblem]]:
    """The lecture for the page's field values (keys as in :data:`FIELDS`).

    What the link does not give comes from the worked example (``doc``), else the playground's defaults
    (document 000's ranking, linear gain, standard discount, log base 2, IDCG from all judged items).
    Labels default to D1, D2, ... and are made unique by the playground's de-duplicator
    (:func:`metrics.parse.parse_labels`); grades that overflow a metric (2^rel for huge grades) are
    refused with a problem and the default ranking is shown, as on the playground.

    >>> lec, problems = lecture_from_values({"present_doc": "000-graded", "present_gain": "exponential"})
    >>> lec.rels, lec.labels, lec.variant.gain, lec.variant.discount, problems
    ((3.0, 2.0, 1.0, 3.0, 2.0), ('A', 'D', 'E', 'G', 'F'), 'exponential', 'jarvelin', [])
    >>> lecture_from_values({"present_rels": (1.0, 1.0), "present_labels": "x,x"})[0].labels
    ('x', 'x (2)')
    """
    v = {f.key: values.get(f.key, f.default) for f in FIELDS}
    doc = v["present_doc"]
    ex = _example_fields(EXAMPLES[doc]) if doc else {}
    own_ranking = v["present_rels"] is not None
    rels = tuple(v["present_rels"] if own_ranking else ex.get("rels", DEFAULT_RELS))
    unretrieved = v["present_unretrieved"]
    if unretrieved is None:
        unretrieved = () if own_ranking else ex.get("unretrieved", ())
    unretrieved = tuple(unretrieved)
    problems: list[BuildProblem] = []
    labels_text = ""
    if v["present_labels"] is not None:
        labels_text = v["present_labels"]
        n_items = len(rels) + len(unretrieved)
        given = labels_text.split(",")
        if len(given) > n_items:
            problems.append(BuildProblem("labels", "labels_extra", labels_text,
                                         f"{len(given)} labels for {n_items} items"))
    elif not own_ranking and ex.get("labels"):
        labels_text = ",".join(ex["labels"])

    def pick(name: str, default):
        value = v[f"present_{name}"]
        if value is None:
            value = ex.get(name)
        return default if value is None else value

    k, gain, discount = pick("k", None), pick("gain", "linear"), pick("discount", "standard")
    base, idcg = pick("base", 2.0), pick("idcg", "judged")
    try:  # every variant, so that no step can fail later (2^rel overflows float64 for huge grades)
        all_variants(list(rels), log_base=base, pool=list(rels) + list(unretrieved))
    except ValueError as exc:
        problems.append(BuildProblem("rels", "overflow", ",".join(exact(x) for x in rels)[:40], str(exc)))
        rels, unretrieved, labels_text = DEFAULT_RELS, (), ""
    n_items = len(rels) + len(unretrieved)
    labels = tuple(x[:MAX_LABEL_CHARS] for x in parse_labels(labels_text, n_items))
    variant = Variant(gain=gain, discount=discount, log_base=base, idcg=idcg, k=k)
    lecture = Lecture(rels=tuple(float(x) for x in rels), unretrieved=tuple(float(x) for x in unretrieved),
                      labels=labels, variant=variant, doc=doc)
    return lecture, problems


def refused_params(session, link_problems, build_problems, *, arrived: bool) -> list[str]:
    """The link parameters that were refused and replaced part of the lecture (a bad value's default, grades
    too large for a metric and the default ranking): the lecture shown is then not the one asked for, and
    Present makes no handout of it.  ``link_problems`` are the page state's (:class:`ui.state.LinkProblem`,
    read when the page ``arrived``: kept in ``session`` until it arrives again), ``build_problems``
    :func:`lecture_from_values`' (every run).

    >>> from ui.state import BadValue, LinkProblem
    >>> session = {}
    >>> bad_gain = LinkProblem("gain", BadValue("cubic", "choice", "'cubic' is not one of: ..."))
    >>> refused_params(session, [bad_gain], [], arrived=True)
    ['gain']
    >>> refused_params(session, [], [], arrived=False)       # a press of Next: the lecture is still that one
    ['gain']
    >>> refused_params(session, [], [BuildProblem("rels", "overflow", "3000", "...")], arrived=True)
    ['rels']
    >>> refused_params(session, [LinkProblem("step", BadValue("x", "integer", "..."))], [], arrived=True)
    []
    """
    if arrived:
        session[REFUSED_KEY] = sorted({p.name for p in link_problems if p.name in LECTURE_PARAMS})
    names = set(session.get(REFUSED_KEY, ()))
    names |= {p.name for p in build_problems if p.kind == "overflow"}
    return sorted(names)


def lecture_from_example(key: str, variant: str = "") -> Lecture:
    """The lecture of one worked example (``variant``: a formula key of :data:`FORMULAS`).

    >>> lecture_from_example("001-book", "linear").variant.gain
    'linear'
    """
    ex = _example_fields(EXAMPLES[key])
    formula = FORMULAS[variant or EXAMPLES[key].implied].variant
    values = {"present_doc": key}
    for name, value in (("gain", formula.gain), ("discount", formula.discount), ("base", formula.log_base)):
        if value != ex[name]:
            values[f"present_{name}"] = value
    return lecture_from_values(values)[0]


def _values_for(lecture: Lecture) -> dict:
    """Field values that give ``lecture`` (a worked example's: only what differs from it)."""
    v = lecture.variant
    settings = {"k": v.k, "gain": v.gain, "discount": v.discount, "base": v.log_base, "idcg": v.idcg}
    if lecture.doc is not None:
        ex = _example_fields(EXAMPLES[lecture.doc])
        base = lecture_from_values({"present_doc": lecture.doc})[0]
        values: dict = {"present_doc": lecture.doc}
        if (lecture.rels, lecture.unretrieved, lecture.labels) != (base.rels, base.unretrieved, base.labels):
            values.update(_ranking_values(lecture))
        for name, value in settings.items():
            if value != ex[name] and value is not None:
                values[f"present_{name}"] = value
        return values
    values = _ranking_values(lecture)
    defaults = {"k": None, "gain": "linear", "discount": "standard", "base": 2.0, "idcg": "judged"}
    for name, value in settings.items():
        if value != defaults[name]:
            values[f"present_{name}"] = value
    return values


def _ranking_values(lecture: Lecture) -> dict:
    values: dict = {"present_rels": lecture.rels}
    if lecture.unretrieved:
        values["present_unretrieved"] = lecture.unretrieved
    n = len(lecture.rels) + len(lecture.unretrieved)
    if list(lecture.labels) != [f"D{i}" for i in range(1, n + 1)]:
        values["present_labels"] = ",".join(x.replace(",", " ") for x in lecture.labels)
    return values


def encode_values(values) -> dict[str, str]:
    """Link parameters for field values, in declaration order, defaults omitted (as ui.state writes them)."""
    out = {}
    for f in FIELDS:
        value = values.get(f.key, f.default)
        if value != f.default:
            out[f.param] = f.to_link(value)
    return out


def present_query(lecture: Lecture, *, step: int | None = None, theme: str = "light",
                  lang: str | None = None) -> dict[str, str]:
    """The link parameters of a lecture at a step: a worked example's link names only what differs.

    >>> present_query(lecture_from_example("000-graded"), step=4)
    {'doc': '000', 'step': '4'}
    >>> lecture = Lecture(rels=(3.0, 2.5), labels=("D1", "D2"), variant=Variant(gain="exponential"))
    >>> present_query(lecture, theme="dark")
    {'rels': '3,2.5', 'gain': 'exponential', 'theme': 'dark'}
    """
    values = _values_for(lecture)
    values[STEP_KEY] = step
    values[THEME_KEY] = theme
    q = encode_values(values)
    if lang and lang != DEFAULT_LANGUAGE:
        q["lang"] = lang
    return q


def playground_query(lecture: Lecture, *, lang: str | None = None) -> dict[str, str]:
    """The playground's link parameters for the lecture's ranking and settings (its own encoder).

    >>> q = playground_query(lecture_from_example("002-wiki"))
    >>> q["rels"], q["labels"], q["k"], q["idcg"]
    ('3,2,3,0,1,2', 'M1,M2,M3,M4,M5,M6', '6', 'list')
    """
    v = lecture.variant
    return playground_query_for(lecture.rels, labels=list(lecture.labels), unretrieved=list(lecture.unretrieved),
                                k=v.k, gain=v.gain, discount=v.discount, base=v.log_base, idcg=v.idcg, lang=lang)


def present_url(lecture: Lecture, **options) -> str:
    """A relative URL (``present?doc=000-graded``) for links and buttons."""
    return f"{PRESENT_PATH}?{urlencode(present_query(lecture, **options), safe=',')}"


def present_query_for_example(key: str, variant: str = "", *, lang: str | None = None) -> dict[str, str]:
    """Link parameters presenting one worked example (and one of its formula variants), from step 1.

    >>> present_query_for_example("001-book", "linear")
    {'doc': '001-book', 'gain': 'linear', 'step': '1'}
    """
    return present_query(lecture_from_example(key, variant), step=1, lang=lang)


def present_query_from_playground(query, *, lang: str | None = None) -> dict[str, str]:
    """Link parameters presenting the playground's state: its own link parameters (the same names and
    formats), from step 1.

    >>> present_query_from_playground({"rels": "3,2", "k": "2", "other": "x"})
    {'rels': '3,2', 'k': '2', 'step': '1'}
    """
    q = {name: str(query[name]) for name in PLAYGROUND_PARAMS if name in query}
    q["step"] = "1"
    if lang and lang != DEFAULT_LANGUAGE:
        q["lang"] = lang
    return q


def field_values(session) -> dict:
    """The page's field values in ``session`` (Streamlit's session state, or any mapping)."""
    return {f.key: session.get(f.key, f.default) for f in FIELDS}


def doc_changed(lecture: Lecture) -> bool:
    """Whether a worked example's lecture was changed by the link (its printed numbers may not apply)."""
    if lecture.doc is None:
        return False
    example = EXAMPLES[lecture.doc]
    keys = {example.implied, *(v for v in example.variants if v)}
    return all(lecture != lecture_from_example(lecture.doc, key) for key in keys)


# ---- Present opened from the sidebar: the playground's ranking and settings ---------------------------
#: Session-state key: the playground's link parameters when Present last ran ({} before: its defaults).
PLAYGROUND_SEEN_KEY = "present_playground_seen"
#: Session-state key: the lecture came with the playground's gain map, which Present leaves out (it says so).
GAIN_MAP_KEY = "present_gain_map_left_out"


def carried_query(session, query) -> dict[str, str] | None:
    """The playground's ranking and settings as Present's link parameters, when Present is arriving from another
    page (a click in the sidebar) with no lecture of its own in its link (``query``: the address it was opened
    with), and the playground changed since Present last ran; else None.  What the playground shows is read
    from its kept state (:func:`ui.state.kept_query`, the playground's own fields and encoders) and written as
    the playground's "Present" button writes it (:func:`present_query_from_playground`), so a lecture carried
    from the sidebar is the one that button opens.  A link's own values win: a link naming a ranking, a document
    or a setting is presented as it is.

    >>> from ui.state import LAST_PAGE_KEY, PageState
    >>> from ui.links import FIELDS as PG
    >>> session = {LAST_PAGE_KEY: "playground"}
    >>> PageState("playground", PG, session=session, query={"rels": "1,2", "k": "6"}).finish()
    >>> carried_query(session, {})
    {'rels': '1,2', 'k': '6', 'step': '1'}
    >>> carried_query(session, {}) is None               # unchanged since Present last looked: its own lecture
    True
    """
    from ui.links import FIELDS as PLAYGROUND_FIELDS
    from ui.links import PLAYGROUND_PATH

    current = state.kept_query(session, PLAYGROUND_PATH, PLAYGROUND_FIELDS) or {}
    seen = session.get(PLAYGROUND_SEEN_KEY, {})
    session[PLAYGROUND_SEEN_KEY] = current
    arriving = session.get(state.LAST_PAGE_KEY) != PAGE_ID
    if not arriving or any(name in query for name in LECTURE_PARAMS) or current == seen:
        return None
    return present_query_from_playground(current)


def page_state(session, query) -> state.PageState:
    """Present's page state (for :func:`ui.shell.page`'s ``state``): the playground's ranking carried in first
    (:func:`carried_query`, put in the address as the link Present then reads), and a gain map left out (Present
    steps through the linear and exponential gains only: the lecture uses the linear gain and says so)."""
    carried = carried_query(session, query)
    if carried is not None:
        for name, value in carried.items():
            if name not in query:
                query[name] = value
    if session.get(state.LAST_PAGE_KEY) != PAGE_ID or carried is not None:  # a new lecture: a new note
        session[GAIN_MAP_KEY] = False
    if str(query.get("gain", "")).strip().lower() == "map":
        for name in ("gain", "gain_map"):
            if name in query:
                del query[name]
        session[GAIN_MAP_KEY] = True
    return state.PageState(PAGE_ID, FIELDS, session=session, query=query)
