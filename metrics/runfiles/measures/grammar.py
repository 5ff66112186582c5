"""The ``-m`` grammar: measure specs as trec_eval writes them (``map``, ``P.5,10``, ``ndcg.1=0,2=1``,
``rbp.p=0.8``, the sets ``official``, ``all_trec`` ...), as ir_measures writes them (``nDCG@10``,
``P(rel=2)@5``, ``alpha_nDCG(alpha=0.5)@20``) and the NDCG variants (``nDCG(gain=exponential,
ties=average)@10``), parsed by one grammar into :class:`Requested` measures of the tables
(:data:`~.table.MEASURES`, :data:`~.irm.IR_MEASURES`).

>>> [r.names for r in parse_measures(["ndcg_cut.10,5", "map"])]
[('map',), ('ndcg_cut_5', 'ndcg_cut_10')]
"""
from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ...parse import DECIMAL, DIGITS, WHOLE, ParseError, parse_gain_map
from ...variant import GAIN_MAP, SPEC_KEYS, Variant, parse_all
from .gain import VARIANT_MEASURE
from .irm import ALIASES, IR_MEASURES, plan
from .lists import Lists
from .table import ENGINE_ZERO_IDCG, MEASURES, NICKNAMES, Measure

__all__ = ["Requested", "evaluate_one", "measure_names", "parse_measures", "parse_variant", "variant_names"]

_UNSUPPORTED = {"all_prefs", "prefs", "qrels_jg"}


@dataclass(frozen=True)
class Requested:
    """A measure to compute: the registry entry, its parameters and the names it prints."""

    info: Measure
    params: object
    printable: str | None
    names: tuple[str, ...]

    def compute(self, lists: Lists) -> list[np.ndarray]:
        """Its per-query values, one array per printed name."""
        return self.info.compute(lists, self.params)

    @property
    def ties(self) -> tuple[str, ...]:
        """The tie orders its kernel asks of the ranker (besides trec_eval's)."""
        if self.info.origin == "variant":
            return (self.params[0].ties,)
        if self.info.origin == "ir_measures":
            return self.params.ties
        return ()

    @property
    def summary(self) -> str:
        """How the "all" line summarises it (:data:`~.table.SUMMARIES`): the measure's, or for ir_measures'
        measures the provider's (its plan)."""
        return self.params.summary if self.info.origin == "ir_measures" else self.info.summary

    @property
    def scores(self) -> bool:
        """Whether its kernel reads the documents' scores."""
        return self.info.origin == "ir_measures" and self.params.scores


_DIGITS = DIGITS  # the one number grammar (metrics.parse): ASCII digits, bounded
_NUMBER = DECIMAL


def _power(n: int) -> str:
    return f"10^{len(str(n)) - 1}"


def _bad(spec: str, why: str) -> ValueError:
    """A ValueError naming the spec (control characters written as escapes: a terminal shows them as text)."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(spec))
    return ValueError(f"measure '{shown}': {why}")


def _params(info: Measure, spec: str, text: str | None):
    """(params, printable, names) for a measure and its parameter text (None: the defaults)."""
    name = info.name
    if info.params is None:
        if text is not None:
            raise _bad(spec, f"{name} takes no parameters")
        return None, None, (name,)
    if info.params in ("cutoffs", "fractions", "numbers"):
        tokens = info.defaults if text is None else text.split(",")
        values = []
        for tok in tokens:
            if isinstance(tok, str):
                if info.params == "cutoffs":
                    if not _DIGITS.fullmatch(tok):
                        raise _bad(spec, f"cutoff '{tok[:20]}' is not a whole number >= 1")
                    value = int(tok)
                    if value < 1 or value > 10**12:
                        raise _bad(spec, f"cutoff {tok[:20]} must be between 1 and 10^12")
                else:
                    if not _NUMBER.fullmatch(tok) or not math.isfinite(float(tok)):
                        raise _bad(spec, f"parameter '{tok[:20]}' is not a number")
                    value = float(tok)
                    limit = 10**9 if name == "relstring" else 10**6 if info.params == "fractions" else 10**15
                    if abs(value) > limit or (name == "relstring" and value < 0):
                        low = 0 if name == "relstring" else f"-{_power(limit)}"
                        raise _bad(spec, f"parameter {tok[:20]} must be between {low} and {_power(limit)}")
            else:
                value = tok
            values.append(value)
        if info.count is not None and len(values) != info.count:
            raise _bad(spec, f"{name} takes {info.count} parameter(s), got {len(values)}")
        if info.params in ("cutoffs", "fractions"):
            ordered = sorted(values)
            dupes = sorted({v for v in ordered if ordered.count(v) > 1})
            if dupes:
                raise _bad(spec, f"cutoff {dupes[0]:g} is given twice")
            values = ordered
            fmt = (lambda v: f"{name}_{v}") if info.params == "cutoffs" else (lambda v: f"{name}_{v:3.2f}")
            return tuple(values), text, tuple(fmt(v) for v in values)
        if name == "11pt_avg" and values != sorted(values):
            raise _bad(spec, "recall fractions must be in increasing order (trec_eval assumes it)")
        return tuple(values), text, ((name,) if text is None else (f"{name}_{text}",))
    if info.params == "gains":
        if text is None:
            return {}, None, (name,)
        try:
            pairs = parse_gain_map(text)
        except (ParseError, ValueError) as exc:
            raise _bad(spec, str(exc)) from None
        if any(level != int(level) for level in pairs):
            raise _bad(spec, "levels must be whole grades (trec_eval reads them as integers)")
        return {int(level): gain for level, gain in pairs.items()}, text, (f"{name}_{text}",)
    # persistence: p=<number> with 0 < p < 1
    if text is None:
        return dict(info.defaults), None, (name,)
    key, eq, value = text.partition("=")
    if key != "p" or not eq or not _NUMBER.fullmatch(value):
        raise _bad(spec, f"write the persistence as {name}.p=0.8")
    p = float(value)
    if not 0.0 < p < 1.0:
        raise _bad(spec, f"persistence p={value} must be between 0 and 1 (exclusive)")
    return {"p": p}, text, (f"{name}_{text}",)


def parse_measures(specs: Iterable[str]) -> list[Requested]:
    """The measures named by ``-m`` arguments: trec_eval's names, ir_measures' names and the NDCG variants.

    One grammar reads all three:

    * trec_eval: a measure (``map``), a measure with parameters after a dot (``P.5,10``,
      ``ndcg.1=0,2=1``, ``rbp.p=0.8``) or a set (``official``, ``all_trec``, ``set``, ``common``,
      ``extras``).  As in trec_eval, a measure named twice keeps the parameters it was first given
      (``-m P.5 -m P.10`` prints P_5 only), a set marks its measures with their defaults, and they are
      printed under trec_eval's names (``P_5``) in trec_eval's order;
    * ir_measures (:data:`~.irm.IR_MEASURES`): ``Name``, ``Name@k`` or ``Name(key=value,...)@k`` with
      ir_measures' parameters (``P(rel=2)@5``, ``nDCG(dcg='exp-log2')@10``, ``alpha_nDCG(alpha=0.5)@20``,
      ``RBP(rel=1,p=0.8)``, ``nDCG(gains={0:0,1:1,2:3})@10``), printed as written;
    * the NDCG variants: ``nDCG(gain=...,discount=...,idcg=...,ties=...,base=...,level=...)@k``
      (:func:`parse_variant`), printed with every choice spelled out.

    ir_measures' names and the variants follow trec_eval's names, in the order given; a name printed
    already is not computed twice.

    Parameters
    ----------
    specs : str or iterable of str
        One spec or several, as given to ``-m``.

    Returns
    -------
    list of Requested
        One per measure, with ``info`` (the :class:`~.table.Measure`), ``params`` and ``names`` (what
        it prints).

    Raises
    ------
    ValueError
        Naming the bad spec: an unknown measure (with a "did you mean"), bad parameters (a cutoff
        that is not a whole number, a persistence outside (0, 1), an ir_measures parameter of the wrong
        type, a combination no ir_measures provider supports, ...), parameters for a set, or a set
        trec_eval needs other qrels formats for.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``trec_eval.c`` (``-m`` parsing) and ``measures.c`` (the sets);
       ir_measures 0.4.3, ``util.parse_measure``.

    Examples
    --------
    Cutoffs are sorted, and measures come out in trec_eval's order (map before ndcg_cut), then
    ir_measures' names as written:

    >>> [r.names for r in parse_measures(["nDCG@10", "ndcg_cut.10,5", "map", "P(rel=2)@5"])]
    [('map',), ('ndcg_cut_5', 'ndcg_cut_10'), ('nDCG@10',), ('P(rel=2)@5',)]
    >>> parse_measures(["P_5"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown measure 'P_5' (did you mean 'P.5'?); measures are runid, num_q, ...
    >>> [r.names for r in parse_measures(["P.5", "P.10"])]  # the first parameters win, as in trec_eval
    [('P_5',)]
    """
    if isinstance(specs, str):
        specs = [specs]
    marked: set[str] = set()
    texts: dict[str, tuple[str, str]] = {}
    later: list[Requested] = []  # variants and ir_measures' measures, in the order given
    for spec in specs:
        if not isinstance(spec, str):
            raise ValueError(f"a measure must be text such as 'map' or 'P.5,10', got {spec!r:.40}")
        text = spec.strip()
        kind = _kind(text)
        if kind == "variant":
            v = parse_variant(text)
            later.append(Requested(MEASURES[VARIANT_MEASURE], v, None, variant_names(v)))
            continue
        if kind == "irm":
            later.append(_irm_requested(text))
            continue
        name, dot, rest = text.partition(".")
        if dot and not rest:
            raise _bad(spec, "nothing after the '.'; give parameters such as P.5,10 or leave out the dot")
        if name in NICKNAMES:
            if dot:
                raise _bad(spec, f"the set '{name}' takes no parameters")
            marked.update(NICKNAMES[name])
        elif name in MEASURES and MEASURES[name].origin != "variant":
            marked.add(name)
            if dot and name not in texts:
                texts[name] = (spec, rest)
        elif name in _UNSUPPORTED:
            raise ValueError(f"measure set '{name}' needs trec_eval's preference or judgment-group qrels formats, "
                             "which are not supported")
        else:
            raise ValueError(_unknown(spec))
    out = []
    for name, info in MEASURES.items():
        if name in marked:
            spec, rest = texts.get(name, (name, None))
            out.append(Requested(info, *_params(info, spec, rest)))
    seen: set[str] = set()
    for r in later:  # a name printed already is not computed twice
        names = tuple(n for n in r.names if n not in seen)
        if not names:
            continue
        seen.update(names)
        if r.info.origin == "variant" and names != r.names:
            r = Requested(r.info, tuple(v for v in r.params if v.format() in names), None, names)
        out.append(r)
    return out


#: What may start a measure's name: a letter (ir_measures' ``α_nDCG`` included) or an underscore.
_NAME = re.compile(r"[^\W\d]\w*|11pt_avg")


def _kind(text: str) -> str:
    """"trec" (trec_eval's grammar: ``name`` or ``name.params``), "irm" or "variant"."""
    m = _NAME.match(text)
    name = m.group(0) if m else ""
    rest = text[len(name):]
    if name == VARIANT_MEASURE:
        if rest.startswith("(") and _VARIANT_KEY_GIVEN.search(rest.split(")")[0]):
            return "variant"
        return "irm"
    if rest[:1] in ("(", "@") or (not rest and name not in MEASURES and name not in NICKNAMES
                                  and (name in IR_MEASURES or name in ALIASES)):
        if name in IR_MEASURES or name in ALIASES:
            return "irm"
        raise ValueError(_unknown(text))
    return "trec"


def _irm_requested(text: str) -> Requested:
    """An ir_measures measure from its text: ``Name``, ``Name@k``, ``Name(key=value,...)@k``."""
    name, args, at = _Reader(text).spec()
    base = ALIASES.get(name, (name, {}))[0]
    measure = IR_MEASURES[base]
    if at is not None:
        if len(at) != 1:
            raise _bad(text, f"one value after @ ({name}@{at[0]!r}); write a name per cutoff")
        if measure.at is None or not any(p.name == measure.at for p in measure.parameters):
            raise _bad(text, f"{name} takes no @ value")
        if measure.at in args:
            raise _bad(text, f"{measure.at} is given twice (in the brackets and after @)")
        args[measure.at] = at[0]
    try:
        the_plan = plan(name, args)
    except ValueError as exc:
        raise _bad(text, str(exc)) from None
    return Requested(measure, the_plan, None, (text,))


class _Reader:
    """Reads ``Name(key=value,...)@v[,v]``: values are numbers, True/False, 'text', words (exp-log2) and
    dicts of whole numbers ({0:0,1:1}); errors name the spec and what was expected where."""

    def __init__(self, text: str):
        self.text, self.i = text, 0

    def fail(self, what: str) -> ValueError:
        near = self.text[self.i:self.i + 12] or "the end"
        return _bad(self.text[:60], f"expected {what} at character {self.i + 1} ({near!r})")

    def skip(self):
        while self.i < len(self.text) and self.text[self.i] == " ":
            self.i += 1

    def take(self, char: str) -> bool:
        self.skip()
        if self.text.startswith(char, self.i):
            self.i += len(char)
            return True
        return False

    def word(self) -> str:
        self.skip()
        m = re.compile(r"[^\W\d][\w\-.]*").match(self.text, self.i)
        if not m:
            raise self.fail("a name")
        self.i = m.end()
        return m.group(0)

    def number(self):
        self.skip()
        m = _NUMBER.match(self.text, self.i)
        if not m or len(m.group(0)) > 30:
            raise self.fail("a number")
        self.i = m.end()
        token = m.group(0)
        if WHOLE.fullmatch(token):
            return int(token)
        value = float(token)
        if not math.isfinite(value):
            raise self.fail("a finite number")
        return value

    def value(self):
        self.skip()
        c = self.text[self.i:self.i + 1]
        if c in ("'", '"'):
            end = self.text.find(c, self.i + 1)
            if end < 0:
                raise self.fail(f"a closing {c}")
            out = self.text[self.i + 1:end]
            self.i = end + 1
            return out
        if c == "{":
            self.i += 1
            out = {}
            if self.take("}"):
                return out
            while True:
                key = self.number()
                if not self.take(":"):
                    raise self.fail("':'")
                out[key] = self.number()
                if len(out) > 1000:
                    raise self.fail("at most 1000 gains")
                if self.take("}"):
                    return out
                if not self.take(","):
                    raise self.fail("',' or '}'")
        if c.isdigit() or c in "+-.":
            return self.number()
        word = self.word()
        return {"True": True, "False": False}.get(word, word)

    def spec(self) -> tuple[str, dict, list | None]:
        name = self.word()
        args: dict = {}
        if self.take("("):
            if not self.take(")"):
                while True:
                    key = self.word()
                    if key in args:
                        raise _bad(self.text[:60], f"{key} is given twice")
                    if not self.take("="):
                        raise self.fail("'='")
                    args[key] = self.value()
                    if self.take(")"):
                        break
                    if not self.take(","):
                        raise self.fail("',' or ')'")
        at = None
        if self.take("@"):
            at = [self.number()]
            while self.take(","):
                at.append(self.number())
        self.skip()
        if self.i != len(self.text):
            raise self.fail("the end of the measure")
        return name, args, at


_VARIANT_KEY_GIVEN = re.compile(r"[(,]\s*(" + "|".join(SPEC_KEYS) + r")\s*=")


def parse_variant(spec: str) -> tuple[Variant, ...]:
    """The NDCG variants named by a spec such as ``nDCG(gain=exponential,ties=average)@10``: one
    :class:`metrics.variant.Variant` per cutoff, in the spec form of its grammar (:mod:`metrics.variant`).

    Parameters
    ----------
    spec : str
        ``nDCG``, then optionally ``(key=value,...)`` with keys ``gain``, ``discount``, ``idcg``, ``ties``
        (names of :data:`metrics.registry.VARIANT_CHOICES`), ``base`` (the logarithm's base, > 0 and != 1),
        ``level`` (grades below it count 0) and ``zero`` (``zero`` or ``one``: what a query without
        relevant documents scores), then optionally ``@k`` or ``@k1,k2`` (cutoffs >= 1).  Keys left out
        take their defaults: linear, standard, judged, trec_eval, base 2, no level, zero, the whole list.

    Returns
    -------
    tuple of Variant
        One per cutoff, smallest first; :meth:`Variant.format` of each is the name the measure prints, every
        choice spelled out.

    Raises
    ------
    ValueError
        Naming the spec and what is wrong in it: an unknown key or name (with the valid ones), a key
        given twice, a base or level that is not a finite number, a cutoff that is not a whole number,
        a gain map or ``zero=nan`` (which the engine does not compute).

    Examples
    --------
    >>> [v.format() for v in parse_variant("nDCG(ties=average,gain=exponential)@10")]
    ['nDCG(gain=exponential,discount=standard,idcg=judged,ties=average)@10']
    >>> [v.format() for v in parse_variant("nDCG(base=10)@5,3")]  # doctest: +NORMALIZE_WHITESPACE
    ['nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval,base=10.0)@3',
     'nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval,base=10.0)@5']
    >>> parse_variant("nDCG(gain=cubic)")
    Traceback (most recent call last):
    ...
    ValueError: measure 'nDCG(gain=cubic)': unknown gain 'cubic'; valid names are 'linear', 'exponential', \
'binary' and map(L=G;L=G)
    """
    text = str(spec).strip()
    if not text.startswith(VARIANT_MEASURE):
        raise _bad(text[:60], f"write it as {VARIANT_MEASURE}(gain=linear,discount=standard,idcg=judged,"
                              "ties=trec_eval)@10 (every part optional)")
    try:
        found = parse_all(text)
    except ValueError as exc:
        raise _bad(text[:60], str(exc).partition("': ")[2]) from None
    v = found[0]
    if v.gain == GAIN_MAP:
        raise _bad(text[:60], f"the engine's {VARIANT_MEASURE} takes no gain map; trec_eval's ndcg.L=G,... does")
    if v.zero_idcg not in ENGINE_ZERO_IDCG:
        raise _bad(text[:60], f"zero={v.zero_idcg} would leave a run's mean undefined; "
                              f"zero is one of {', '.join(ENGINE_ZERO_IDCG)}")
    return found


def variant_names(variants: tuple[Variant, ...]) -> tuple[str, ...]:
    """The names the ``nDCG`` measure prints for its variants: their spec forms.

    Parameters
    ----------
    variants : tuple of Variant
        The measure's parameters (:func:`parse_variant`).

    Returns
    -------
    tuple of str
        :meth:`metrics.variant.Variant.format` of each, in order.

    Examples
    --------
    >>> variant_names(parse_variant("nDCG@10,5"))  # doctest: +NORMALIZE_WHITESPACE
    ('nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval)@5',
     'nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval)@10')
    """
    return tuple(v.format() for v in variants)


def _unknown(spec: str) -> str:
    base = re.split(r"[.(@]", spec, maxsplit=1)[0]
    hint = ""
    m = re.fullmatch(r"([A-Za-z_0-9]+?)_([0-9][0-9.,]*)", base)
    if m and m.group(1) in MEASURES:
        hint = f" (did you mean '{m.group(1)}.{m.group(2)}'?)"
    else:
        names = list(MEASURES) + list(NICKNAMES) + list(IR_MEASURES) + list(ALIASES)
        close = [n for n in names if n.lower() == base.lower()] or difflib.get_close_matches(base, names, n=1)
        if close:
            hint = f" (did you mean '{close[0]}'?)"
    names = ", ".join(list(MEASURES)[:3])
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in spec[:40])
    return f"unknown measure '{shown}'{hint}; measures are {names}, ... and ir_measures' names such as " \
           f"nDCG@10, P(rel=2)@5 (see --help); sets are {', '.join(NICKNAMES)}"


def measure_names(specs: Iterable[str]) -> list[str]:
    """The names the measures print, in output order (what the result's ``measure`` column holds).

    Parameters
    ----------
    specs : str or iterable of str
        As for :func:`parse_measures`.

    Returns
    -------
    list of str
        ``P_5``, ``ndcg_cut_10``, ... as trec_eval prints them.

    Raises
    ------
    ValueError
        As for :func:`parse_measures`.

    Examples
    --------
    >>> measure_names(["P.10,5", "ndcg.1=0,2=1", "rbp"])
    ['P_5', 'P_10', 'ndcg_1=0,2=1', 'rbp']
    """
    return [name for r in parse_measures(specs) for name in r.names]


def evaluate_one(lists: Lists, spec: str) -> np.ndarray:
    """The per-query values of one measure (its first printed name) on hand-built :class:`Lists`.

    For teaching and tests: build a query's list by hand with :meth:`Lists.from_codes` and see what
    a trec_eval measure gives.

    Parameters
    ----------
    lists : Lists
        The ranked lists of one run.
    spec : str
        One measure, as for ``-m`` (``"map"``, ``"P.5"``, ``"ndcg_cut.2"``); not a set.

    Returns
    -------
    numpy.ndarray of float64
        One value per query, for the measure's first printed name (``P.5,10`` gives ``P_5``).

    Raises
    ------
    ValueError
        If ``spec`` is not one valid measure.

    Examples
    --------
    Grades 0, 3 in ranked order, and a judged 2 that was not retrieved: DCG = 0 + 3/log2(3) = 1.8928,
    ideal 3, 2: IDCG = 3 + 2/log2(3) = 4.2619:

    >>> lists = Lists.from_codes([[0, 3]], judged=[[0, 3, 2]])
    >>> [round(float(v), 4) for v in evaluate_one(lists, "ndcg")]   # (3/log2 3) / (3 + 2/log2 3)
    [0.4441]
    """
    found = parse_measures([spec]) if _kind(str(spec).strip()) != "trec" or str(spec).split(".")[0] not in NICKNAMES \
        else []
    if len(found) != 1:
        raise ValueError(f"evaluate_one takes one measure (such as 'map' or 'P.10'), got {str(spec)[:40]!r}; "
                         "use evaluate_measures for a set such as 'official'")
    return found[0].compute(lists)[0]
