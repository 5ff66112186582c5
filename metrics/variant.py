"""One NDCG variant: every choice that changes an NDCG number, as one typed value with one text grammar.

A :class:`Variant` is the gain (or a gain map), the discount and its logarithm's base, where the ideal
ranking comes from (``idcg``), the cutoff ``k``, the tie rule, what a list whose IDCG is 0 scores
(``zero_idcg``) and the relevance level below which grades count 0.  Each choice is a key of a registry of
:mod:`metrics.registry` (``GAINS``, ``DISCOUNTS``, ``IDCG_SOURCES``, ``TIES``, ``ZERO_IDCG``): the
registry says what the key means, the variant only which keys were chosen.  The records that name a variant
hold a :class:`Variant` plus what is theirs alone: the run-file engine's ``nDCG`` measure (one variant per
cutoff) and the Run files page's variants, the documents' formulas (``metrics.lessons.examples.Formula``),
Present's lecture, the exports, the Variants page's ``VARIANTS``; a library convention gives the one it
computes (``Convention.variant``) and a hand calculation the one it follows (``Calculation.variant``).

One grammar reads and writes every text form in use (:func:`parse`, :meth:`Variant.format`):

``spec``
    The command line's measure, ir_measures' naming:
    ``nDCG(gain=G,discount=D,idcg=S,ties=T[,base=B][,level=L][,zero=Z])[@k]``.  Keys may come in any
    order and any may be left out (defaults: linear, standard, judged, trec_eval, base 2, no level,
    zero, no cutoff); a gain map is ``gain=map(L=G;L=G)``, trec_eval's ``-m ndcg.L=G`` pairs.  Written
    canonically: the four choices always, base, level and zero only when not the default.
``label``
    The Run files page's links: ``gain/discount/idcg/ties``, e.g. ``linear/standard/judged/trec_eval``.
``short``
    The Variants page's links: ``gain/discount/idcg``, e.g. ``exponential/standard/list``.
``slug``
    The exports' file names: ``gain_discount[_baseB]_kK_idcg``, e.g. ``linear_standard_k6_judged``,
    ``exponential_jarvelin_base10_kall_list`` (``K`` is ``all`` for the whole list, ``B`` is ``e`` for
    the natural logarithm).

``parse(v.format(form)) == v`` for every variant the form can carry (``spec`` carries all of them;
:meth:`Variant.format` refuses, naming the field, a variant a shorter form would lose something of), and
``parse(text).format()`` is the canonical spelling of ``text``.

Examples
--------
Document 004's code: 1 per hit divided by ln(i + 1), the ideal ranking from every relevant item, top 5:

>>> v = Variant(gain="binary", log_base=math.e, k=5)
>>> v.format()
'nDCG(gain=binary,discount=standard,idcg=judged,ties=trec_eval,base=2.718281828459045)@5'
>>> parse(v.format()) == v
True

A link's label and an export's file name are forms of the same value:

>>> parse("exponential/standard/list/average")
Variant(gain='exponential', idcg='list', ties='average')
>>> Variant(idcg="list", k=6).format("slug")
'linear_standard_k6_list'
>>> parse("linear_standard_k6_list") == Variant(idcg="list", k=6)
True

Computing with it: grades 3, 2, 3, 0, 1, 2 re-sorted give the ideal ranking (scikit-learn's convention),
DCG 6.8611 / IDCG 7.1410:

>>> round(Variant(idcg="list").ndcg([3, 2, 3, 0, 1, 2]), 4)
0.9608

Every parameter is checked, and an error names it and the bad value:

>>> Variant(discount="log")
Traceback (most recent call last):
...
ValueError: unknown discount 'log'; valid names are 'standard', 'jarvelin'
>>> parse("nDCG(base=1)@5")
Traceback (most recent call last):
...
ValueError: variant 'nDCG(base=1)@5': base 1 must be > 0 and != 1
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from ._validation import check_choice, check_k, check_log_base, check_real, describe
from .parse import DECIMAL, DIGITS, parse_gain_map
from .registry import DISCOUNTS, GAINS, IDCG_SOURCES, TIES, ZERO_IDCG, Choice, dcg_latex, gain_map

__all__ = ["FORMS", "GAIN_MAP", "MAX_CUTOFF", "NAME", "SPEC_KEYS", "Variant", "parse", "parse_all"]

#: The measure name of the spec form (ir_measures' spelling).
NAME = "nDCG"
#: ``Variant.gain`` of a gain map (its pairs are in ``Variant.gain_map``).
GAIN_MAP = "map"
#: The text forms :meth:`Variant.format` writes and :func:`parse` reads.
FORMS = ("spec", "label", "short", "slug")
#: The keys of the spec form, in the order it writes them, with the field each sets.
SPEC_KEYS = {"gain": "gain", "discount": "discount", "idcg": "idcg", "ties": "ties", "base": "log_base",
             "level": "level", "zero": "zero_idcg"}
#: The largest cutoff a text form may give.
MAX_CUTOFF = 10**12

_NUMBER = DECIMAL  # the one number grammar (metrics.parse): ASCII, bounded
_DIGITS = DIGITS
_SPEC = re.compile(re.escape(NAME) + r"(?:\((?P<params>[^()]*(?:\([^()]*\)[^()]*)*)\))?(?:@(?P<cuts>.*))?",
                   re.DOTALL)
_SLUG = re.compile(r"(?P<gain>[a-z]+)_(?P<discount>[a-z]+)(?:_base(?P<base>[^_]+))?_k(?P<k>all|[0-9]+)"
                   r"_(?P<idcg>[a-z]+)")


def _num(x: float) -> str:
    """Shortest text that reads back as ``x``: ``3`` for 3.0, ``0.1`` for 0.1 (``repr`` otherwise)."""
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    return repr(x)


@dataclass(frozen=True, repr=False)
class Variant:
    """Every choice that changes an NDCG number (see the module docstring for the text forms).

    Parameters
    ----------
    gain : str, default "linear"
        A key of :data:`metrics.registry.GAINS`, or ``"map"`` with ``gain_map``.
    gain_map : mapping or tuple of (grade, gain) pairs, optional
        With ``gain="map"`` only: grade -> gain, trec_eval's ``-m ndcg.L=G`` (grades not in it keep their
        own value as gain; :func:`metrics.registry.gain_map`).  Stored as pairs sorted by grade.
    discount : str, default "standard"
        A key of :data:`metrics.registry.DISCOUNTS`.
    log_base : float, default 2.0
        The discount's logarithm's base: finite, > 0 and != 1.
    idcg : str, default "judged"
        Where the ideal ranking comes from, a key of :data:`metrics.registry.IDCG_SOURCES`.
    k : int >= 1, optional
        The cutoff (DCG and IDCG both stop at k).  Default ``None``: the whole list.
    ties : str, default "trec_eval"
        How tied scores are ordered, a key of :data:`metrics.registry.TIES`.
    zero_idcg : str, default "zero"
        What a list whose IDCG is 0 scores, a key of :data:`metrics.registry.ZERO_IDCG`.
    level : float, optional
        Grades below it count 0 (ranx's ``rel_lvl``).  Default ``None``: every grade > 0 counts.

    Raises
    ------
    ValueError
        Naming the parameter and the bad value (and the valid names, for a choice).

    Examples
    --------
    >>> v = Variant(gain="exponential", k=10)
    >>> v
    Variant(gain='exponential', k=10)
    >>> v.gain, v.discount, v.idcg, v.k
    ('exponential', 'standard', 'judged', 10)
    >>> v.format()
    'nDCG(gain=exponential,discount=standard,idcg=judged,ties=trec_eval)@10'

    A gain map is stored sorted by grade:

    >>> Variant(gain="map", gain_map={3: 7, 1: 1}).format()
    'nDCG(gain=map(1=1;3=7),discount=standard,idcg=judged,ties=trec_eval)'
    >>> Variant(k=0)
    Traceback (most recent call last):
    ...
    ValueError: k must be >= 1, got 0
    """

    gain: str = "linear"
    gain_map: tuple[tuple[float, float], ...] = ()
    discount: str = "standard"
    log_base: float = 2.0
    idcg: str = "judged"
    k: int | None = None
    ties: str = "trec_eval"
    zero_idcg: str = "zero"
    level: float | None = None

    def __post_init__(self):
        def put(name, value):
            object.__setattr__(self, name, value)

        if self.gain != GAIN_MAP:
            check_choice(self.gain, GAINS, name="gain")
            if self.gain_map:
                raise ValueError(f"gain_map is given ({describe(self.gain_map)}) but gain is {self.gain!r}; "
                                 f"a gain map needs gain={GAIN_MAP!r}")
        else:
            if isinstance(self.gain_map, Mapping):
                pairs = self.gain_map
            elif isinstance(self.gain_map, (tuple, list)) and all(
                    isinstance(p, (tuple, list)) and len(p) == 2 for p in self.gain_map):
                pairs = dict(self.gain_map)
                if len(pairs) != len(self.gain_map):
                    raise ValueError(f"gain_map gives a grade twice: {describe(self.gain_map)}")
            else:
                raise ValueError(f"gain_map must be a mapping grade -> gain or (grade, gain) pairs, "
                                 f"got {describe(self.gain_map)}")
            put("gain_map", gain_map(pairs).levels)
        check_choice(self.discount, DISCOUNTS, name="discount")
        put("log_base", check_log_base(self.log_base))
        check_choice(self.idcg, IDCG_SOURCES, name="idcg")
        put("k", check_k(self.k))
        check_choice(self.ties, TIES, name="ties")
        check_choice(self.zero_idcg, ZERO_IDCG, name="zero_idcg")
        level = check_real(self.level, name="level", allow_none=True)
        put("level", None if level is None else level + 0.0)  # -0.0 is 0.0

    # ------------------------------------------------------------------ what the registry says about it
    @property
    def gain_choice(self) -> Choice:
        """The gain's registry record (a gain map's is made by :func:`metrics.registry.gain_map`)."""
        return gain_map(dict(self.gain_map)) if self.gain == GAIN_MAP else GAINS[self.gain]

    @property
    def metric_gain(self):
        """The ``gain`` argument of :mod:`metrics.ndcg`'s functions: the key, or the map as a dict."""
        return dict(self.gain_map) if self.gain == GAIN_MAP else self.gain

    @property
    def options(self) -> dict:
        """The options :func:`metrics.ndcg.dcg` and its siblings take: gain, discount and log_base.

        >>> Variant(gain="exponential").options
        {'gain': 'exponential', 'discount': 'standard', 'log_base': 2.0}
        """
        return {"gain": self.metric_gain, "discount": self.discount, "log_base": self.log_base}

    @property
    def name(self) -> str:
        """A name people read (English; pages translate the parts by key), e.g.
        ``Linear gain · Standard discount · IDCG from all judged items``."""
        parts = [self.gain_choice.name, DISCOUNTS[self.discount].name, f"IDCG from {IDCG_SOURCES[self.idcg].name}"]
        if self.log_base != 2.0:
            parts.append("natural log" if self.log_base == math.e else f"log base {_num(self.log_base)}")
        if self.k is not None:
            parts.append(f"k = {self.k}")
        return " · ".join(parts)

    def latex(self, k: str = "k") -> str:
        """The DCG formula in LaTeX (:func:`metrics.registry.dcg_latex`).

        >>> print(Variant(discount="jarvelin").latex("p"))
        \\mathrm{DCG}@p = \\sum_{i=1}^{p} \\frac{rel_{i}}{\\max(1, \\log_{2} i)}
        """
        return dcg_latex(self.gain_choice, self.discount, self.log_base, k=k)

    def with_(self, **changes) -> Variant:
        """A copy with some fields changed (checked like a new variant).

        >>> Variant().with_(k=5, idcg="list").format("slug")
        'linear_standard_k5_list'
        """
        return replace(self, **changes)

    # ------------------------------------------------------------------ computing
    def ndcg(self, relevances, *, pool=None, scores=None, docnos=None) -> float:
        """NDCG of one ranked list under this variant (:func:`metrics.ndcg.ndcg` /
        :func:`metrics.ndcg.ndcg_from_scores`).

        Parameters
        ----------
        relevances : sequence of float >= 0
            Grades in ranked order (or in any order, with ``scores``).
        pool : sequence of float >= 0, optional
            Every judged item's grade, the list's own included: the ideal ranking's items when
            ``idcg == "judged"`` (ignored for ``"list"``).  Default ``None``: the list itself.
        scores : sequence of float, optional
            One score per item: the list is ranked by descending score, ties by :attr:`ties`
            (``"trec_eval"`` needs ``docnos``).
        docnos : sequence of str, optional
            Document ids, for the ``"trec_eval"`` tie rule.

        Returns
        -------
        float

        Raises
        ------
        ValueError
            For invalid grades, scores or pool (as :func:`metrics.ndcg.ndcg`).

        Examples
        --------
        The list ranks grades 0, 3; a judged 2 was not retrieved.  From the list: 3/log2(3) / 3 = 0.6309;
        from every judged item: 1.8928 / (3 + 2/log2(3)) = 0.4441:

        >>> [round(Variant(idcg=s).ndcg([0, 3], pool=[0, 3, 2]), 4) for s in ("list", "judged")]
        [0.6309, 0.4441]
        """
        from .ndcg import ndcg, ndcg_from_scores

        if self.level is not None:
            import numpy as np

            from ._validation import as_grades

            relevances = np.where(as_grades(relevances) < self.level, 0.0, as_grades(relevances))
            if pool is not None:
                pool = np.where(as_grades(pool, name="pool") < self.level, 0.0, as_grades(pool, name="pool"))
        ideal_pool = pool if self.idcg == "judged" else None
        if scores is None:
            return ndcg(relevances, k=self.k, pool=ideal_pool, zero_idcg=self.zero_idcg, **self.options)
        return ndcg_from_scores(relevances, scores, k=self.k, pool=ideal_pool, ties=self.ties, docnos=docnos,
                                zero_idcg=self.zero_idcg, **self.options)

    # ------------------------------------------------------------------ text forms
    def format(self, form: str = "spec") -> str:
        """This variant as text in one of :data:`FORMS` (see the module docstring).

        Parameters
        ----------
        form : {"spec", "label", "short", "slug"}, default "spec"
            ``spec`` carries every field; the others refuse a variant they would lose a field of.

        Returns
        -------
        str

        Raises
        ------
        ValueError
            For an unknown form, or a field the form does not carry (naming the field and its value).

        Examples
        --------
        >>> v = Variant(gain="exponential", idcg="list")
        >>> v.format(), v.format("label"), v.format("short"), v.format("slug")   # doctest: +NORMALIZE_WHITESPACE
        ('nDCG(gain=exponential,discount=standard,idcg=list,ties=trec_eval)', 'exponential/standard/list/trec_eval',
         'exponential/standard/list', 'exponential_standard_kall_list')
        >>> Variant(k=10).format("label")
        Traceback (most recent call last):
        ...
        ValueError: the label form gain/discount/idcg/ties does not carry k=10; write the spec form \
nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval)@10
        """
        check_choice(form, dict.fromkeys(FORMS), name="form")
        if form == "spec":
            return self._spec()
        carried = {"label": ("gain", "discount", "idcg", "ties"), "short": ("gain", "discount", "idcg"),
                   "slug": ("gain", "gain_map", "discount", "log_base", "k", "idcg")}[form]
        written = {"label": "gain/discount/idcg/ties", "short": "gain/discount/idcg",
                   "slug": "gain_discount[_baseB]_kK_idcg"}[form]
        default = Variant()
        for f in fields(self):
            if f.name not in carried and getattr(self, f.name) != getattr(default, f.name):
                value = getattr(self, f.name)
                shown = _num(value) if isinstance(value, float) else value
                raise ValueError(f"the {form} form {written} does not carry {f.name}={shown}; "
                                 f"write the spec form {self._spec()}")
        if form == "label":
            return f"{self.gain}/{self.discount}/{self.idcg}/{self.ties}"
        if form == "short":
            return f"{self.gain}/{self.discount}/{self.idcg}"
        base = "" if self.log_base == 2.0 else "_base" + ("e" if self.log_base == math.e else _num(self.log_base))
        return f"{self.gain}_{self.discount}{base}_k{'all' if self.k is None else self.k}_{self.idcg}"

    def _spec(self) -> str:
        gain = self.gain
        if gain == GAIN_MAP:
            gain = f"{GAIN_MAP}(" + ";".join(f"{_num(lv)}={_num(g)}" for lv, g in self.gain_map) + ")"
        parts = [f"gain={gain}", f"discount={self.discount}", f"idcg={self.idcg}", f"ties={self.ties}"]
        if self.log_base != 2.0:
            parts.append(f"base={self.log_base!r}")
        if self.level is not None:
            parts.append(f"level={self.level!r}")
        if self.zero_idcg != "zero":
            parts.append(f"zero={self.zero_idcg}")
        return f"{NAME}({','.join(parts)})" + ("" if self.k is None else f"@{self.k}")

    def __str__(self) -> str:
        return self._spec()

    def __repr__(self) -> str:
        default = Variant()
        given = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if getattr(self, f.name) != getattr(default, f.name)]
        return f"Variant({', '.join(given)})"

    @property
    def label(self) -> str:
        """The ``label`` form ``gain/discount/idcg/ties`` (the Run files page's columns and links)."""
        return self.format("label")

    @classmethod
    def parse(cls, text: str) -> Variant:
        """:func:`parse` as a constructor: ``Variant.parse("linear/standard/list")``."""
        return parse(text)


# ------------------------------------------------------------------------------------------ the grammar
def _printable(text: str) -> str:
    """Control and other unprintable characters written as escapes: a terminal shows them as text."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _bad(text: str, why: str) -> ValueError:
    return ValueError(f"variant '{_printable(text[:60])}': {_printable(why)}")


def _split_params(params: str) -> list[str]:
    """Split ``key=value,...`` at the commas outside parentheses (a gain map's pairs are inside)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(params):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(params[start:i])
            start = i + 1
    out.append(params[start:])
    return out


def _gain_value(value: str, text: str) -> dict:
    if value in GAINS:
        return {"gain": value}
    m = re.fullmatch(re.escape(GAIN_MAP) + r"\((?P<pairs>[^()]*)\)", value)
    if m is None:
        valid = ", ".join(repr(g) for g in GAINS)
        raise _bad(text, f"unknown gain '{value[:20]}'; valid names are {valid} and {GAIN_MAP}(L=G;L=G)")
    try:
        pairs = parse_gain_map(m.group("pairs"))
    except ValueError as exc:
        raise _bad(text, str(exc)) from None
    return {"gain": GAIN_MAP, "gain_map": pairs}


def _number(key: str, value: str, text: str) -> float:
    if not _NUMBER.fullmatch(value) or not math.isfinite(float(value)):
        raise _bad(text, f"{key} '{value[:20]}' is not a finite number")
    number = float(value)
    if key == "base" and (number <= 0 or number == 1):
        raise _bad(text, f"base {value[:20]} must be > 0 and != 1")
    return number


def _cutoff(token: str, text: str) -> int:
    token = token.strip()
    if not _DIGITS.fullmatch(token) or not 1 <= int(token) <= MAX_CUTOFF:
        raise _bad(text, f"cutoff '{token[:20]}' is not a whole number between 1 and 10^12")
    return int(token)


def _parse_spec(text: str) -> tuple[dict, tuple]:
    m = _SPEC.fullmatch(text)
    if m is None:
        raise _bad(text, f"write it as {NAME}(gain=linear,discount=standard,idcg=judged,ties=trec_eval)@10 "
                         "(every part optional)")
    values: dict = {}
    params = (m.group("params") or "").strip()
    seen = set()
    for part in _split_params(params) if params else []:
        key, eq, value = (x.strip() for x in part.partition("="))
        if not eq or not key:
            raise _bad(text, f"'{part[:20]}' is not key=value (keys: {', '.join(SPEC_KEYS)})")
        if key not in SPEC_KEYS:
            raise _bad(text, f"unknown key '{key[:20]}'; keys are {', '.join(SPEC_KEYS)}")
        if key in seen:
            raise _bad(text, f"{key} is given twice")
        seen.add(key)
        if key == "gain":
            values.update(_gain_value(value, text))
        elif key in ("base", "level"):
            values[SPEC_KEYS[key]] = _number(key, value, text)
        else:
            registry = {"discount": DISCOUNTS, "idcg": IDCG_SOURCES, "ties": TIES, "zero": ZERO_IDCG}[key]
            try:
                check_choice(value, registry, name=key)
            except ValueError as exc:
                raise _bad(text, str(exc)) from None
            values[SPEC_KEYS[key]] = value
    cutoffs: tuple = (None,)
    if m.group("cuts") is not None:
        found: list[int] = []
        for tok in m.group("cuts").split(","):
            k = _cutoff(tok, text)
            if k in found:
                raise _bad(text, f"cutoff {k} is given twice")
            found.append(k)
        cutoffs = tuple(sorted(found))
    return values, cutoffs


def _parse_short(text: str) -> dict:
    parts = [p.strip() for p in text.split("/")]
    if len(parts) not in (3, 4):
        raise _bad(text, "write it as gain/discount/idcg/ties or gain/discount/idcg")
    names = ("gain", "discount", "idcg", "ties")[:len(parts)]
    registries = (GAINS, DISCOUNTS, IDCG_SOURCES, TIES)
    for name, value, registry in zip(names, parts, registries):
        try:
            check_choice(value, registry, name=name)
        except ValueError as exc:
            raise _bad(text, str(exc)) from None
    return dict(zip(names, parts))


def _parse_slug(text: str) -> dict:
    m = _SLUG.fullmatch(text)
    if m is None:
        raise _bad(text, "write it as gain_discount[_baseB]_kK_idcg, e.g. linear_standard_k10_judged")
    if m.group("gain") == GAIN_MAP:
        raise _bad(text, "a file name says 'map' but not the map's pairs; write the spec form "
                         f"{NAME}(gain={GAIN_MAP}(L=G;L=G),...)")
    values: dict = {}
    for name, registry in (("gain", GAINS), ("discount", DISCOUNTS), ("idcg", IDCG_SOURCES)):
        try:
            check_choice(m.group(name), registry, name=name)
        except ValueError as exc:
            raise _bad(text, str(exc)) from None
        values[name] = m.group(name)
    if m.group("base") is not None:
        values["log_base"] = math.e if m.group("base") == "e" else _number("base", m.group("base"), text)
    if m.group("k") != "all":
        values["k"] = _cutoff(m.group("k"), text)
    return values


def parse_all(text: str) -> tuple[Variant, ...]:
    """Every variant a text names: one per cutoff of a spec such as ``nDCG(gain=exponential)@5,10``.

    Parameters
    ----------
    text : str
        Any form of :data:`FORMS`; the spec form may give several cutoffs after ``@``.

    Returns
    -------
    tuple of Variant
        One per cutoff, smallest first (one for the other forms).

    Raises
    ------
    ValueError
        ``variant '<text>': ...`` naming what is wrong: an unknown key or name (with the valid ones), a
        key given twice, a base or level that is not a finite number, a cutoff that is not a whole
        number from 1 to 10^12 or given twice.

    Examples
    --------
    >>> [v.k for v in parse_all("nDCG(ties=average)@10,5")]
    [5, 10]
    """
    if not isinstance(text, str):
        raise ValueError(f"variant must be text such as 'linear/standard/judged/trec_eval', got {describe(text)}")
    stripped = text.strip()
    try:
        if stripped.startswith(NAME):
            values, cutoffs = _parse_spec(stripped)
            return tuple(Variant(**values, k=k) for k in cutoffs)
        if "/" in stripped:
            return (Variant(**_parse_short(stripped)),)
        if "_" in stripped:
            return (Variant(**_parse_slug(stripped)),)
    except ValueError as exc:
        if str(exc).startswith("variant '"):
            raise
        raise _bad(stripped, str(exc)) from None
    raise _bad(stripped, f"write it as {NAME}(gain=...,discount=...,idcg=...,ties=...)@k, gain/discount/idcg/ties, "
                         "gain/discount/idcg or gain_discount_kK_idcg")


def parse(text: str) -> Variant:
    """The variant a text names, in any form of :data:`FORMS` (see the module docstring).

    Parameters
    ----------
    text : str
        E.g. ``nDCG(gain=exponential,ties=average)@10``, ``linear/standard/judged/trec_eval``,
        ``exponential/standard/list`` or ``linear_standard_k6_judged``.  Surrounding spaces are ignored.

    Returns
    -------
    Variant
        Fields the text does not give take their defaults.

    Raises
    ------
    ValueError
        As for :func:`parse_all`, and for a spec with more than one cutoff.

    Examples
    --------
    >>> parse("nDCG(ties=average,gain=exponential)@10").format()
    'nDCG(gain=exponential,discount=standard,idcg=judged,ties=average)@10'
    >>> parse("binary/jarvelin/list").format("label")
    'binary/jarvelin/list/trec_eval'
    >>> parse("nDCG(gain=cubic)")
    Traceback (most recent call last):
    ...
    ValueError: variant 'nDCG(gain=cubic)': unknown gain 'cubic'; valid names are 'linear', 'exponential', \
'binary' and map(L=G;L=G)
    """
    found = parse_all(text)
    if len(found) != 1:
        raise _bad(str(text).strip(), f"gives {len(found)} cutoffs; one variant has one cutoff")
    return found[0]
