"""Present mode: the state of a lecture, its link, its steps and what each step shows.

A lecture presents one ranking (the playground's state: grades, labels, judged-but-not-retrieved
items, k, gain, discount, log base, IDCG source), optionally a source document's worked example
(``doc``), one step at a time.  This module holds everything but the drawing; no Streamlit call:

* :data:`FIELDS`: the page's link parameters for :class:`ui.state.PageState` (the playground's names,
  parsed by the same parsers, plus ``doc``, ``step`` and ``theme``); :func:`lecture_from_values` puts
  them together (the playground's defaults and label rules); :func:`present_query` / :func:`present_url`
  write links (the "Present" buttons of the playground and the worked examples use them);
* :func:`steps`: the order of the lecture (ranking, gains, discounts, one step per position,
  DCG, the ideal order, IDCG, NDCG, the other variants);
* :func:`slide`: what one step shows (cards, the current number, a sentence, the document's
  printed numbers beside the exact ones), every number from :mod:`metrics`.

Nothing here computes a metric: :func:`numbers` calls :func:`metrics.breakdown` and
:func:`metrics.all_variants`, and printed numbers are judged by :mod:`metrics.lessons.examples`.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import urlencode

import pandas as pd

from metrics.lessons.examples import (
    EXAMPLES,
    FORMULAS,
    ITEMS_004,
    VERDICTS,
    WorkedExample,
    examples_for,
    judge,
)
from metrics.ndcg import all_variants, breakdown
from metrics.parse import parse_base, parse_labels
from metrics.registry import DISCOUNTS, GAINS
from ui import state as S
from ui.escape import html as html_escape
from ui.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalogue, t
from ui.links import (
    DISCOUNT_CHOICES,
    GAIN_CHOICES,
    IDCG_CHOICES,
    MAX_LABEL_CHARS,
    PLAYGROUND_PARAMS,
    playground_query_for,
)
from ui.numbers import exact, show_trimmed

__all__ = [
    "PRESENT_PAGE", "PRESENT_PATH", "PAGE_ID", "FIELDS", "THEMES", "DOCS", "TERM_STEPS_CAP", "CARD_CAP",
    "Lecture", "BuildProblem", "Step", "Card", "PrintedNumber", "Slide",
    "example_key", "lecture_from_values", "lecture_from_example", "encode_values", "present_query",
    "present_url", "playground_query", "present_query_for_example", "present_query_from_playground",
    "numbers", "steps", "clamp_step", "slide", "registry_name", "variant_label", "shown",
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
TERM_STEPS_CAP = 10  # positions stepped through one by one; the others join the sum in one step
CARD_CAP = 16  # cards drawn per row; the numbers use every item


def shown(x: float, digits: int = 4) -> str:
    """A number as the lecture shows it (display rounding only)."""
    return show_trimmed(x, digits)


# ---------------------------------------------------------------------------------------------
# The lecture's state and its link
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lecture:
    """What is presented.  ``labels`` name the ranked items first, then the unretrieved ones."""

    rels: tuple[float, ...]
    unretrieved: tuple[float, ...] = ()
    labels: tuple[str, ...] = ()
    k: int | None = None
    gain: str = "linear"
    discount: str = "standard"
    base: float = 2.0
    idcg: str = "judged"
    doc: str | None = None  # key of a worked example in metrics.lessons.examples.EXAMPLES

    @property
    def pool(self) -> list[float] | None:
        """The judged items the ideal ranking is built from (None: the list re-sorted)."""
        return list(self.rels) + list(self.unretrieved) if self.idcg == "judged" else None

    @property
    def n_terms(self) -> int:
        """Positions that count in DCG."""
        return min(self.k, len(self.rels)) if self.k else len(self.rels)

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
    formula = FORMULAS[example.implied]
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
        raise S.BadValue(value, "present.reason.step", f"{value[:40]!r} is not a step number (1 is the first)")
    return min(int(value), MAX_STEP)


def _doc(raw) -> str:
    value = str(raw).strip()
    key = example_key(value)
    if key is None:
        raise S.BadValue(value, "present.reason.doc",
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
        raise S.BadValue(value.strip(), "present.reason.base", str(exc)) from None


def _encode_base(base: float) -> str:
    return "e" if base == math.e else exact(base)


FIELDS = (
    S.Field("present_doc", "doc", default=None, parse=_doc, encode=_encode_doc, widget=False),
    S.Field("present_rels", "rels", default=None, parse=S.grades(max_items=MAX_ITEMS), encode=S.list_encoder(","),
            widget=False),
    S.Field("present_labels", "labels", default=None, parse=S.text(MAX_LABEL_TEXT), encode=str, widget=False),
    S.Field("present_unretrieved", "unretrieved", default=None,
            parse=S.grades(max_items=MAX_ITEMS, allow_empty=True), encode=S.list_encoder(","), widget=False),
    # k: "all" (or nothing) is the whole list, as on the playground.
    S.Field("present_k", "k", default=None, parse=S.optional(S.integer(1, 1_000_000)), widget=False),
    S.Field("present_gain", "gain", default=None, parse=S.choice(GAIN_CHOICES), widget=False),
    S.Field("present_discount", "discount", default=None, parse=S.choice(DISCOUNT_CHOICES), widget=False),
    S.Field("present_base", "base", default=None, parse=_base, encode=_encode_base, widget=False),
    S.Field("present_idcg", "idcg", default=None, parse=S.choice(IDCG_CHOICES), widget=False),
    S.Field("present_step", "step", default=None, parse=_step, widget=False),
    S.Field("present_theme", "theme", default="light", parse=S.choice(THEMES), widget=False),
)
STEP_KEY = "present_step"
THEME_KEY = "present_theme"


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
    >>> lec.rels, lec.labels, lec.gain, lec.discount, problems
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
    base, idcg_source = pick("base", 2.0), pick("idcg", "judged")
    try:  # every variant, so that no step can fail later (2^rel overflows float64 for huge grades)
        all_variants(list(rels), log_base=base, pool=list(rels) + list(unretrieved))
    except ValueError as exc:
        problems.append(BuildProblem("rels", "overflow", ",".join(exact(x) for x in rels)[:40], str(exc)))
        rels, unretrieved, labels_text = DEFAULT_RELS, (), ""
    n_items = len(rels) + len(unretrieved)
    labels = tuple(x[:MAX_LABEL_CHARS] for x in parse_labels(labels_text, n_items))
    lecture = Lecture(rels=tuple(float(x) for x in rels), unretrieved=tuple(float(x) for x in unretrieved),
                      labels=labels, k=k, gain=gain, discount=discount, base=float(base), idcg=idcg_source, doc=doc)
    return lecture, problems


def lecture_from_example(key: str, variant: str = "") -> Lecture:
    """The lecture of one worked example (``variant``: a formula key of :data:`FORMULAS`).

    >>> lecture_from_example("001-book", "linear").gain
    'linear'
    """
    ex = _example_fields(EXAMPLES[key])
    formula = FORMULAS[variant or EXAMPLES[key].implied]
    values = {"present_doc": key}
    for name, value in (("gain", formula.gain), ("discount", formula.discount), ("base", formula.log_base)):
        if value != ex[name]:
            values[f"present_{name}"] = value
    return lecture_from_values(values)[0]


def _values_for(lecture: Lecture) -> dict:
    """Field values that give ``lecture`` (a worked example's: only what differs from it)."""
    settings = {"k": lecture.k, "gain": lecture.gain, "discount": lecture.discount, "base": lecture.base,
                "idcg": lecture.idcg}
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
    >>> present_query(Lecture(rels=(3.0, 2.5), labels=("D1", "D2"), gain="exponential"), theme="dark")
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
    return playground_query_for(lecture.rels, labels=list(lecture.labels), unretrieved=list(lecture.unretrieved),
                                k=lecture.k, gain=lecture.gain, discount=lecture.discount, base=lecture.base,
                                idcg=lecture.idcg, lang=lang)


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


# ---------------------------------------------------------------------------------------------
# Numbers (all from metrics/) and the steps
# ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def numbers(lecture: Lecture) -> dict:
    """Every number the lecture shows: the breakdown, the variant table and the chosen totals."""
    bd = breakdown(list(lecture.rels), k=lecture.k, gain=lecture.gain, discount=lecture.discount,
                   log_base=lecture.base, pool=lecture.pool)
    variants = all_variants(list(lecture.rels), k=lecture.k, log_base=lecture.base,
                            pool=list(lecture.rels) + list(lecture.unretrieved))
    source = lecture.idcg if lecture.idcg in set(variants["idcg_source"]) else "list"
    row = variants[(variants["gain"] == lecture.gain) & (variants["discount"] == lecture.discount)
                   & (variants["idcg_source"] == source)].iloc[0]
    return {"breakdown": bd, "variants": variants, "cg": float(row["cg"]), "dcg": float(row["dcg"]),
            "idcg": float(row["idcg"]), "ndcg": float(row["ndcg"])}


@dataclass(frozen=True)
class Step:
    """One click of the lecture: ``kind`` and, for a position's step, its 1-based ``position``."""

    kind: str  # ranking, gains, discounts, term, rest, dcg, ideal, idcg, ndcg, variants
    position: int = 0


def steps(lecture: Lecture) -> list[Step]:
    """The lecture's steps in order.

    >>> [s.kind + (str(s.position) if s.position else "") for s in steps(Lecture(rels=(3.0, 2.0)))]
    ['ranking', 'gains', 'discounts', 'term1', 'term2', 'dcg', 'ideal', 'idcg', 'ndcg', 'variants']
    """
    n = lecture.n_terms
    out = [Step("ranking"), Step("gains"), Step("discounts")]
    out += [Step("term", i) for i in range(1, min(n, TERM_STEPS_CAP) + 1)]
    if n > TERM_STEPS_CAP:
        out.append(Step("rest", TERM_STEPS_CAP + 1))
    out += [Step("dcg"), Step("ideal"), Step("idcg"), Step("ndcg"), Step("variants")]
    return out


def clamp_step(step: int | None, lecture: Lecture) -> int:
    """A 1-based step within the lecture (None: the first; past the end: the last)."""
    last = len(steps(lecture))
    return 1 if step is None else max(1, min(int(step), last))


# ---------------------------------------------------------------------------------------------
# What one step shows
# ---------------------------------------------------------------------------------------------

def registry_name(kind: str, key: str, lang: str) -> str:
    """Name of a gain, discount or verdict in ``lang`` (English from metrics/, the others from the catalogue).

    >>> registry_name("verdict", "truncation", "en"), registry_name("gain", "linear", "en")
    ('Truncation', 'Linear gain')
    """
    entry = {"gain": GAINS, "discount": DISCOUNTS, "verdict": VERDICTS}[kind][key]
    if lang != DEFAULT_LANGUAGE:
        text = catalogue(lang).get(f"registry.{kind}.{key}.name")
        if text:
            return text
    return entry.name


def base_text(base: float) -> str:
    return "e" if base == math.e else shown(base)


def variant_label(lecture: Lecture, lang: str) -> str:
    """The variant named in words: gain · discount · log base · IDCG source · k."""
    parts = [registry_name("gain", lecture.gain, lang), registry_name("discount", lecture.discount, lang),
             t("present.log_base", lang=lang, base=base_text(lecture.base)),
             t(f"present.idcg_{lecture.idcg}", lang=lang)]
    if lecture.k:
        parts.append(t("present.cutoff", lang=lang, k=lecture.k))
    return " · ".join(parts)


@dataclass(frozen=True)
class Card:
    """One result on screen."""

    label: str
    grade: float
    position: int  # its rank in the row it is drawn in (1-based)
    gain: float | None = None  # shown from the gains step on
    other_gain: float | None = None  # the other gain (rel vs 2^rel - 1) where it differs
    divisor: float | None = None
    term: float | None = None  # discounted gain, once it joined the sum
    state: str = ""  # "current", "beyond" (past k), "unretrieved", "" otherwise
    moved_from: int = 0  # ideal row: the item's rank in the list (0: not retrieved)


@dataclass(frozen=True)
class PrintedNumber:
    """A number the source document prints, beside the exact value and the verdict."""

    what: str  # translated name of the quantity
    printed: str
    exact: str
    verdict: str  # translated verdict name
    kind: str  # verdict kind key


@dataclass
class Slide:
    kind: str
    index: int  # 1-based
    total: int
    title: str
    sentence: str
    number_label: str = ""
    number: float | None = None
    cards: list[Card] = field(default_factory=list)
    ideal_cards: list[Card] = field(default_factory=list)
    sum_label: str = ""
    sum_terms: list[float] = field(default_factory=list)  # the discounted gains added so far
    sum_more: int = 0  # terms not written out
    sum_total: float | None = None
    chart: str = ""  # "curve" (discount curve), "bars" (discounted gains), "" none
    mark: int = 0  # position marked on the curve
    facts: list[tuple[str, str]] = field(default_factory=list)  # (name, value) pairs shown small
    printed: list[PrintedNumber] = field(default_factory=list)
    variants: pd.DataFrame | None = None  # gain, discount, idcg_source, ndcg, chosen
    hidden_cards: int = 0  # cards of the list not drawn (CARD_CAP)
    hidden_ideal: int = 0


SUM_TERMS_SHOWN = 10


def _gains(grade: float, gain: str) -> tuple[float, float | None]:
    linear, exponential = grade, 2.0 ** grade - 1.0
    chosen, other = (linear, exponential) if gain == "linear" else (exponential, linear)
    return chosen, (other if other != chosen else None)


def _list_cards(lecture: Lecture, bd: pd.DataFrame, upto: int, stage: int, current: int = 0) -> list[Card]:
    """The ranked list's cards.  ``stage``: 0 grades, 1 + gains, 2 + divisors; terms up to ``upto``."""
    cards = []
    n = lecture.n_terms
    for i, grade in enumerate(lecture.rels[:CARD_CAP], start=1):
        inside = i <= n
        gain = other = divisor = term = None
        if stage >= 1:
            if inside:
                gain = float(bd["gain"].iloc[i - 1])
                other = _gains(grade, lecture.gain)[1]
            else:
                gain, other = _gains(grade, lecture.gain)
        if stage >= 2 and inside:
            divisor = float(bd["discount"].iloc[i - 1])
        if inside and i <= upto:
            term = float(bd["discounted_gain"].iloc[i - 1])
        state = "beyond" if not inside else ("current" if i == current else "")
        cards.append(Card(lecture.labels[i - 1] if i - 1 < len(lecture.labels) else f"D{i}", grade, i, gain, other,
                          divisor, term, state))
    return cards


def _ideal_cards(lecture: Lecture, bd: pd.DataFrame, with_terms: bool) -> list[Card]:
    """The ideal order: the items the ideal ranking is built from, by grade (ties keep list order)."""
    items = list(enumerate(lecture.rels, start=1))
    if lecture.idcg == "judged":
        items += [(0, g) for g in lecture.unretrieved]
    labels = list(lecture.labels)
    named = []
    for j, (rank, grade) in enumerate(items):
        label = labels[j] if j < len(labels) else f"D{j + 1}"
        named.append((rank, grade, label))
    order = sorted(named, key=lambda x: -x[1])  # stable: equal grades keep their order
    n_ideal = int(bd["ideal_relevance"].notna().sum())
    cards = []
    for i, (rank, grade, label) in enumerate(order[:CARD_CAP], start=1):
        inside = i <= n_ideal
        term = float(bd["ideal_discounted_gain"].iloc[i - 1]) if (with_terms and inside) else None
        gain = float(bd["ideal_gain"].iloc[i - 1]) if inside else _gains(grade, lecture.gain)[0]
        state = "beyond" if not inside else ("unretrieved" if rank == 0 else "")
        cards.append(Card(label, grade, i, gain, None, float(bd["discount"].iloc[i - 1]) if inside else None,
                          term, state, moved_from=rank))
    return cards


def _matches(lecture: Lecture, example: WorkedExample, p) -> bool:
    """Whether a printed number of ``example`` is a number of this lecture (same ranking and formula)."""
    f = FORMULAS[p.implied]
    if p.quantity in ("relevances", "ideal_vector"):
        same = True
    elif p.quantity == "divisor":
        same = (f.discount, f.log_base) == (lecture.discount, lecture.base)
    elif p.quantity == "cg":
        same = f.gain == lecture.gain
    else:
        same = (f.gain, f.discount, f.log_base) == (lecture.gain, lecture.discount, lecture.base)
    if not same or tuple(example.relevances) != lecture.rels or example.k != lecture.k:
        return False
    if p.quantity in ("idcg_term", "idcg", "ndcg", "ideal_vector"):
        want = sorted(example.pool if example.pool is not None else example.relevances)
        have = sorted(lecture.pool if lecture.pool is not None else lecture.rels)
        return want == have
    return True


def printed_numbers(lecture: Lecture, quantities: tuple[str, ...], lang: str, position: int | None = None
                    ) -> list[PrintedNumber]:
    """The document's printed numbers of these quantities (at ``position``), judged."""
    example = lecture.example
    if example is None:
        return []
    out = []
    for p in example.printed:
        if p.quantity not in quantities or (position is not None and p.position not in (None, position)):
            continue
        if position is None and p.position is not None and p.quantity not in ("idcg_term",):
            continue
        if not _matches(lecture, example, p):
            continue
        v = judge(example, p)
        if v.exact is None:  # a printed list: the computed list
            exact = v.values.get("computed", "")
        elif p.text.strip().endswith("%"):  # written like the document: a percent with two more places
            exact = shown(v.exact * 100, 4) + "%"
        else:
            exact = shown(v.exact)
        what = t(f"present.q_{p.quantity}", lang=lang, position=p.position or "")
        out.append(PrintedNumber(what, p.text, exact, registry_name("verdict", v.kind, lang), v.kind))
    return out


def slide(lecture: Lecture, step: int, lang: str) -> Slide:
    """What step ``step`` (1-based, clamped) of the lecture shows, in ``lang``."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    all_steps = steps(lecture)
    index = clamp_step(step, lecture)
    st_ = all_steps[index - 1]
    nums = numbers(lecture)
    bd = nums["breakdown"]
    n = lecture.n_terms
    title = t(f"present.title_{st_.kind}", lang=lang, position=st_.position, n=n)
    s = Slide(kind=st_.kind, index=index, total=len(all_steps), title=title, sentence="")
    s.hidden_cards = max(0, len(lecture.rels) - CARD_CAP)
    kind = st_.kind

    def tt(key: str, **fmt) -> str:
        return t(f"present.{key}", lang=lang, **fmt)

    terms = bd["discounted_gain"].iloc[:n].tolist()
    if kind == "ranking":
        s.cards = _list_cards(lecture, bd, 0, 0)
        top = max(lecture.rels)
        s.sentence = tt("say_ranking", n=len(lecture.rels), top=shown(top))
        if lecture.k and lecture.k < len(lecture.rels):
            s.sentence += " " + tt("say_cutoff", k=lecture.k)
        if lecture.unretrieved:
            s.sentence += " " + tt("say_unretrieved", m=len(lecture.unretrieved))
        s.printed = printed_numbers(lecture, ("relevances",), lang)
    elif kind == "gains":
        s.cards = _list_cards(lecture, bd, 0, 1)
        key = "say_gains_linear" if lecture.gain == "linear" else "say_gains_exponential"
        s.sentence = tt(key)
        s.number_label, s.number = tt("cg"), nums["cg"]
        s.printed = printed_numbers(lecture, ("cg",), lang)
    elif kind == "discounts":
        s.cards = _list_cards(lecture, bd, 0, 2)
        divs = bd["discount"].iloc[:n].tolist()
        s.sentence = tt("say_discounts", first=shown(divs[0]), second=shown(divs[1]) if n > 1 else shown(divs[0]),
                        last=shown(divs[-1]), n=n)
        s.chart, s.mark = "curve", 0
    elif kind in ("term", "rest"):
        upto = st_.position if kind == "term" else n
        s.cards = _list_cards(lecture, bd, upto, 2, current=st_.position if kind == "term" else 0)
        s.chart, s.mark = "curve", (st_.position if kind == "term" else 0)
        s.sum_label, s.sum_terms = tt("running_dcg"), terms[:upto]
        s.sum_total = float(bd["dcg"].iloc[upto - 1])
        s.number_label, s.number = tt("running_dcg"), s.sum_total
        if kind == "term":
            i = st_.position
            s.sentence = tt("say_term", position=i, gain=shown(bd["gain"].iloc[i - 1]),
                            divisor=shown(bd["discount"].iloc[i - 1]), term=shown(terms[i - 1]),
                            total=shown(s.sum_total))
            s.facts = [(tt("term_at", position=i), shown(terms[i - 1]))]
            s.printed = printed_numbers(lecture, ("divisor", "dcg_term"), lang, position=i)
        else:
            s.sentence = tt("say_rest", first=st_.position, n=n, total=shown(s.sum_total))
    elif kind == "dcg":
        s.cards = _list_cards(lecture, bd, n, 2)
        s.sum_label, s.sum_terms, s.sum_total = tt("dcg"), terms, nums["dcg"]
        s.number_label, s.number = tt("dcg"), nums["dcg"]
        s.sentence = tt("say_dcg", n=n, dcg=shown(nums["dcg"]))
        s.chart = "bars"
        s.printed = printed_numbers(lecture, ("dcg",), lang)
    elif kind in ("ideal", "idcg"):
        s.cards = _list_cards(lecture, bd, n, 2)
        s.ideal_cards = _ideal_cards(lecture, bd, with_terms=(kind == "idcg"))
        n_items = len(lecture.rels) + (len(lecture.unretrieved) if lecture.idcg == "judged" else 0)
        s.hidden_ideal = max(0, n_items - CARD_CAP)
        s.facts = [(tt("dcg"), shown(nums["dcg"]))]
        if kind == "ideal":
            key = "say_ideal_judged" if (lecture.idcg == "judged" and lecture.unretrieved) else "say_ideal_list"
            s.sentence = tt(key, m=len(lecture.unretrieved))
            s.printed = printed_numbers(lecture, ("ideal_vector",), lang)
        else:
            ideal_terms = bd["ideal_discounted_gain"].dropna().tolist()
            s.sum_label, s.sum_terms, s.sum_total = tt("idcg"), ideal_terms, nums["idcg"]
            s.number_label, s.number = tt("idcg"), nums["idcg"]
            s.sentence = tt("say_idcg", idcg=shown(nums["idcg"]), dcg=shown(nums["dcg"]))
            s.chart = "bars"
            s.printed = printed_numbers(lecture, ("idcg_term", "idcg"), lang)
    elif kind == "ndcg":
        s.cards = _list_cards(lecture, bd, n, 2)
        s.facts = [(tt("dcg"), shown(nums["dcg"])), (tt("idcg"), shown(nums["idcg"]))]
        s.number_label, s.number = tt("ndcg"), nums["ndcg"]
        key = "say_ndcg" if nums["idcg"] != 0 else "say_ndcg_zero"
        s.sentence = tt(key, dcg=shown(nums["dcg"]), idcg=shown(nums["idcg"]), ndcg=shown(nums["ndcg"]))
        s.chart = "bars"
        s.printed = printed_numbers(lecture, ("ndcg",), lang)
    else:  # variants
        v = nums["variants"].copy()
        has_judged = bool(lecture.unretrieved)
        if not has_judged:
            v = v[v["idcg_source"] == "list"]
        chosen_source = lecture.idcg if has_judged else "list"
        v["chosen"] = ((v["gain"] == lecture.gain) & (v["discount"] == lecture.discount)
                       & (v["idcg_source"] == chosen_source))
        s.variants = v.reset_index(drop=True)
        s.number_label, s.number = tt("ndcg"), nums["ndcg"]
        low, high = float(v["ndcg"].min()), float(v["ndcg"].max())
        s.sentence = tt("say_variants", count=len(v), low=shown(low), high=shown(high))
    return s


# ---------------------------------------------------------------------------------------------
# Themes: colours chosen for a text contrast of at least 7:1 (WCAG AAA) against the background
# ---------------------------------------------------------------------------------------------

PALETTES = {
    "light": {"bg": "#ffffff", "text": "#111827", "muted": "#374151", "number": "#1e3a8a", "card": "#f1f5f9",
              "border": "#64748b", "accent": "#7c2d12", "actual": "#1e40af", "ideal": "#78350f",
              "beyond": "#e5e7eb"},
    "dark": {"bg": "#0b1220", "text": "#f8fafc", "muted": "#cbd5e1", "number": "#fcd34d", "card": "#1e293b",
             "border": "#94a3b8", "accent": "#fdba74", "actual": "#93c5fd", "ideal": "#fbbf24",
             "beyond": "#111827"},
}


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21).

    >>> round(contrast("#ffffff", "#000000"), 1), round(contrast("#777777", "#777777"), 1)
    (21.0, 1.0)
    """
    def lum(c: str) -> float:
        rgb = [int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# ---------------------------------------------------------------------------------------------
# HTML of a slide (fixed markup; every label escaped by ui.escape.html) and the page's CSS
# ---------------------------------------------------------------------------------------------

def page_css(theme: str) -> str:
    """The Present page's CSS: its theme over the whole app while it is shown, large type, compact margins.

    It lives in the page's own ``st.html`` element, so it leaves with the page.
    """
    p = PALETTES.get(theme, PALETTES["light"])
    return f"""<style>
.stApp, .stApp [data-testid="stHeader"], .stApp [data-testid="stBottomBlockContainer"] {{
  background: {p['bg']} !important; color: {p['text']}; }}
.stApp [data-testid="stMainBlockContainer"] {{ padding: 4.2rem 2rem 1rem 2rem; max-width: none; }}
.stApp [data-testid="stMainBlockContainer"] h1 {{ font-size: 2rem; color: {p['text']}; padding: 0; }}
.stApp [data-testid="stMarkdownContainer"], .stApp [data-testid="stMarkdownContainer"] p,
.stApp [data-testid="stWidgetLabel"] {{ color: {p['text']}; }}
.stApp [data-testid="stCaptionContainer"] {{ color: {p['muted']}; font-size: 1rem; opacity: 1; }}
.stApp [data-testid="stHeader"] button, .stApp [data-testid="stHeader"] span {{ color: {p['text']}; }}
.stApp button[data-testid^="stBaseButton"], .stApp [data-testid="stDownloadButton"] button {{
  background: {p['card']}; color: {p['text']}; border: 2px solid {p['border']}; }}
.stApp button[data-testid^="stBaseButton"] p {{ font-size: 1.1rem; color: {p['text']}; }}
.stApp button[data-testid="stBaseButton-primary"] {{ background: {p['number']}; border-color: {p['number']}; }}
.stApp button[data-testid="stBaseButton-primary"] p {{ color: {p['bg']}; }}
.stApp [data-testid="stPageLink"] a, .stApp [data-testid="stPageLink"] p {{ color: {p['text']}; }}
.stApp [data-testid="stAlertContainer"] {{ background: {p['card']}; border: 1px solid {p['border']}; }}
.stApp [data-testid="stAlertContainer"] p {{ color: {p['text']}; }}
.nl {{ color: {p['text']}; font-family: "Source Sans", "Source Sans Pro", "Noto Sans CJK SC", "Noto Sans CJK KR",
  sans-serif; line-height: 1.3; }}
.stApp .st-key-{KEYS_KEY} {{ display: none; }}
.nl-step {{ font-size: 20px; font-weight: 700; color: {p['text']}; white-space: nowrap; }}
.nl-say {{ font-size: 24px; margin: 0 0 6px 0; }}
.nl-rowname {{ font-size: 17px; color: {p['muted']}; margin: 4px 0 3px 0; font-weight: 600; }}
.nl-cards {{ display: flex; flex-wrap: wrap; gap: 10px; }}
.nl-card {{ flex: 0 1 104px; min-width: 78px; box-sizing: border-box; background: {p['card']};
  border: 2px solid {p['border']}; border-radius: 10px; padding: 4px 4px 6px; text-align: center; overflow: hidden; }}
.nl-card.nl-current {{ border: 4px solid {p['accent']}; padding: 2px 2px 4px; }}
.nl-card.nl-beyond {{ background: {p['bg']}; border-style: dashed; }}
.nl-card.nl-unret {{ border-style: dashed; border-color: {p['accent']}; }}
.nl-label {{ font-size: 17px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }}
.nl-pos {{ color: {p['muted']}; font-weight: 400; }}
.nl-grade {{ font-size: 32px; font-weight: 700; color: {p['number']}; line-height: 1.1; }}
.nl-line {{ font-size: 17px; white-space: nowrap; }}
.nl-alt {{ font-size: 15px; color: {p['muted']}; }}
.nl-term {{ font-size: 19px; font-weight: 700; color: {p['accent']}; white-space: nowrap; }}
.nl-tag {{ font-size: 14px; color: {p['accent']}; white-space: nowrap; }}
.nl-more {{ align-self: center; font-size: 18px; color: {p['muted']}; }}
.nl-number-label {{ font-size: 22px; color: {p['muted']}; font-weight: 600; }}
.nl-number {{ font-size: 64px; font-weight: 800; color: {p['number']}; line-height: 1.05; }}
.nl-facts {{ font-size: 22px; margin-top: 2px; }}
.nl-facts b {{ color: {p['number']}; }}
.nl-sum {{ font-size: 22px; margin-top: 6px; overflow-wrap: anywhere; }}
.nl-sum .nl-new {{ color: {p['accent']}; font-weight: 800; text-decoration: underline; text-underline-offset: 4px; }}
.nl-table {{ border-collapse: collapse; font-size: 19px; margin-top: 4px; color: {p['text']}; }}
.nl-table th, .nl-table td {{ border-bottom: 1px solid {p['border']}; padding: 3px 8px; text-align: left; }}
.nl-table th {{ color: {p['muted']}; font-size: 16px; }}
.nl-table td.nl-num {{ text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }}
.nl-table td.nl-chosen {{ color: {p['number']}; font-weight: 800; outline: 3px solid {p['accent']}; }}
@keyframes nl-move {{ from {{ transform: translate(calc(var(--slots) * (100% + 10px)), calc(-100% - 30px)); }}
  to {{ transform: none; }} }}
@keyframes nl-join {{ from {{ transform: translateY(40px); opacity: 0; }} to {{ transform: none; opacity: 1; }} }}
.nl-anim .nl-card {{ animation: nl-move 1.1s ease-in-out both; }}
.nl-anim .nl-card.nl-unret {{ animation: nl-join 1.1s ease-out 0.6s both; }}
@media (prefers-reduced-motion: reduce) {{ .nl-anim .nl-card {{ animation: none; }} }}
</style>"""


def _card_html(c: Card, lang: str, *, ideal: bool = False, animate: bool = False) -> str:
    extra = {"current": " nl-current", "beyond": " nl-beyond", "unretrieved": " nl-unret"}
    classes = "nl-card" + extra.get(c.state, "")
    style = ""
    if animate and c.moved_from:  # from its place in the list above (in card widths plus the gap)
        style = f' style="--slots: {c.moved_from - c.position}"'
    parts = [f'<div class="nl-label" title="{html_escape(c.label)}"><span class="nl-pos">#{c.position}</span> '
             f'{html_escape(c.label, 12)}</div>',
             f'<div class="nl-grade">{shown(c.grade)}</div>']
    if ideal:
        tag = (t("present.not_retrieved", lang=lang) if c.moved_from == 0
               else t("present.was_rank", lang=lang, rank=c.moved_from))
        parts.append(f'<div class="nl-tag">{html_escape(tag)}</div>')
    if c.gain is not None and not ideal:
        line = f'{html_escape(t("present.gain", lang=lang))} {shown(c.gain)}'
        if c.other_gain is not None:
            line += f' <span class="nl-alt">({shown(c.other_gain)})</span>'
        parts.append(f'<div class="nl-line">{line}</div>')
    if c.divisor is not None and not ideal:
        divided = t("present.divided_by", lang=lang, divisor=shown(c.divisor))
        parts.append(f'<div class="nl-line">{html_escape(divided)}</div>')
    if c.term is not None:
        parts.append(f'<div class="nl-term">= {shown(c.term)}</div>')
    elif c.state == "beyond":
        parts.append(f'<div class="nl-tag">{html_escape(t("present.beyond_k", lang=lang))}</div>')
    return f'<div class="{classes}"{style}>{"".join(parts)}</div>'


def cards_html(s: Slide, lang: str) -> str:
    """The ranked list's cards and, from the ideal step on, the ideal order (moving in on the ideal step)."""
    out = ['<div class="nl">', f'<p class="nl-say">{html_escape(s.sentence)}</p>']
    if s.cards:
        out.append(f'<div class="nl-rowname">{html_escape(t("present.your_ranking", lang=lang))}</div>'
                   '<div class="nl-cards">')
        out += [_card_html(c, lang) for c in s.cards]
        if s.hidden_cards:
            more = t("present.more_cards", lang=lang, m=s.hidden_cards)
            out.append(f'<div class="nl-more">{html_escape(more)}</div>')
        out.append("</div>")
    if s.ideal_cards:
        animate = s.kind == "ideal"
        out.append(f'<div class="nl-rowname">{html_escape(t("present.ideal_ranking", lang=lang))}</div>')
        out.append(f'<div class="nl-cards{" nl-anim" if animate else ""}">')
        out += [_card_html(c, lang, ideal=True, animate=animate) for c in s.ideal_cards]
        if s.hidden_ideal:
            more = t("present.more_cards", lang=lang, m=s.hidden_ideal)
            out.append(f'<div class="nl-more">{html_escape(more)}</div>')
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


def number_html(s: Slide, lang: str) -> str:
    """The current number (large), the facts beside it, the sum so far with its newest term marked."""
    out = ['<div class="nl">']
    if s.number is not None:
        out.append(f'<div class="nl-number-label">{html_escape(s.number_label)}</div>'
                   f'<div class="nl-number" data-testid="nl-number">{shown(s.number)}</div>')
    for name, value in s.facts:
        out.append(f'<div class="nl-facts">{html_escape(name)}: <b>{html_escape(value)}</b></div>')
    if s.sum_terms:
        shown_terms = s.sum_terms[:SUM_TERMS_SHOWN]
        newest = len(s.sum_terms) - 1 if s.kind == "term" else -1
        texts = [f'<span class="nl-new">{shown(x, 3)}</span>' if i == newest else shown(x, 3)
                 for i, x in enumerate(shown_terms)]
        more = len(s.sum_terms) - len(shown_terms)
        if more:
            texts.append(html_escape(t("present.sum_more", lang=lang, m=more)))
        total = f" = <b>{shown(s.sum_total)}</b>" if s.sum_total is not None else ""
        out.append(f'<div class="nl-sum">{html_escape(s.sum_label)} = {" + ".join(texts)}{total}</div>')
    out.append("</div>")
    return "".join(out)


def printed_html(s: Slide, lang: str) -> str:
    """The document's printed numbers beside the exact ones, with the verdict (never corrected)."""
    if not s.printed:
        return ""
    head = "".join(f"<th>{html_escape(t(f'present.col_{c}', lang=lang))}</th>"
                   for c in ("quantity", "printed", "exact", "verdict"))
    rows = "".join(
        f"<tr><td>{html_escape(p.what)}</td><td class='nl-num'>{html_escape(p.printed)}</td>"
        f"<td class='nl-num'>{html_escape(p.exact)}</td><td>{html_escape(p.verdict)}</td></tr>"
        for p in s.printed)
    return (f'<div class="nl"><div class="nl-rowname">{html_escape(t("present.doc_prints", lang=lang))}</div>'
            f'<table class="nl-table" data-testid="nl-printed"><tr>{head}</tr>{rows}</table></div>')


def variants_html(s: Slide, lang: str) -> str:
    """The other variants' NDCG: one row per gain and discount, one column per IDCG source; this lecture's
    cell starred."""
    if s.variants is None:
        return ""
    v = s.variants
    sources = [x for x in ("list", "judged") if x in set(v["idcg_source"])]
    head = (f"<th>{html_escape(t('present.col_gain', lang=lang))}</th>"
            f"<th>{html_escape(t('present.col_discount', lang=lang))}</th>"
            + "".join(f"<th>{html_escape(t('present.col_ndcg', lang=lang))} · "
                      f"{html_escape(t(f'present.source_{x}', lang=lang))}</th>" for x in sources))
    rows = []
    for (gain, discount), group in v.groupby(["gain", "discount"], sort=False):
        cells = []
        for x in sources:
            r = group[group["idcg_source"] == x].iloc[0]
            mark = " nl-chosen" if r["chosen"] else ""
            cells.append(f"<td class='nl-num{mark}'>{shown(r['ndcg'])}{' ★' if r['chosen'] else ''}</td>")
        rows.append(f"<tr><td>{html_escape(registry_name('gain', gain, lang))}</td>"
                    f"<td>{html_escape(registry_name('discount', discount, lang))}</td>{''.join(cells)}</tr>")
    return (f'<div class="nl"><table class="nl-table" data-testid="nl-variants"><tr>{head}</tr>{"".join(rows)}'
            f'</table><div class="nl-rowname">{html_escape(t("present.chosen", lang=lang))}</div></div>')


# ---------------------------------------------------------------------------------------------
# Session glue (called by the page with st.session_state; no Streamlit import here)
# ---------------------------------------------------------------------------------------------

KEYS_KEY = "present_keys"  # the key listener's widget
SEEN_KEY = "present_keys_seen"  # the last key press consumed


def field_values(state) -> dict:
    return {f.key: state.get(f.key, f.default) for f in FIELDS}


def take_keys(state, value) -> None:
    """Consume a key press of the listener (its session-state ``value``) once: go to its step."""
    from ui.components.keys import read_go

    got = read_go(value, state.get(SEEN_KEY, 0))
    if got is not None:
        state[STEP_KEY], state[SEEN_KEY] = got


def move(state, delta: int, total: int) -> None:
    """on_click of Back / Next."""
    state[STEP_KEY] = max(1, min(total, int(state.get(STEP_KEY) or 1) + delta))


def toggle_theme(state) -> None:
    state[THEME_KEY] = "dark" if state.get(THEME_KEY) != "dark" else "light"


def doc_changed(lecture: Lecture) -> bool:
    """Whether a worked example's lecture was changed by the link (its printed numbers may not apply)."""
    if lecture.doc is None:
        return False
    example = EXAMPLES[lecture.doc]
    keys = {example.implied, *(v for v in example.variants if v)}
    return all(lecture != lecture_from_example(lecture.doc, key) for key in keys)
