"""The one place where every gain, discount and tie rule is defined.

Pages read names, LaTeX and one-line help from here, and the metric functions
read the formulas from here, so what is shown is what is computed.

A *gain* maps grades to gains.  A *discount* maps 1-based positions to the
divisor the gain is divided by (``log_b(i + 1)`` for the standard discount), so
that the discounted gain at position ``i`` is ``gain(rel_i) / discount(i)``.

>>> GAINS["exponential"].func(np.array([0.0, 1.0, 3.0])).tolist()
[0.0, 1.0, 7.0]
>>> DISCOUNTS["standard"].func(np.array([1, 2, 3]), 2.0).round(3).tolist()
[1.0, 1.585, 2.0]
>>> DISCOUNTS["jarvelin"].func(np.array([1, 2, 3, 4]), 2.0).round(3).tolist()
[1.0, 1.0, 1.585, 2.0]
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "Choice",
    "GainMap",
    "GAINS",
    "DISCOUNTS",
    "TIES",
    "ZERO_IDCG",
    "IDCG_SOURCES",
    "VARIANT_CHOICES",
    "gain_map",
    "resolve_gain",
    "resolve_discount",
    "log_latex",
    "dcg_latex",
    "term_latex",
]


@dataclass(frozen=True)
class Choice:
    """A named, explained choice: the one record type of :mod:`metrics`.

    Every registry is a dict key -> Choice, read by every page, the lessons and the run-file engine: the
    gains, discounts, tie rules, IDCG sources and zero-IDCG policies here, the library conventions'
    settings (:mod:`metrics.lessons.libraries`), the top-N and ROC choices (:mod:`metrics.other`), the
    mistakes and verdicts of the lessons.  A registry whose records carry facts of their own kind uses a
    typed subclass with those fields (a gain map's :class:`GainMap`, the lessons' ``Dimension`` and
    ``Misconception``, the run files' ``MeanDimension`` and ``RunLibrary``); the run-file measures have
    their own typed record, :class:`metrics.runfiles.measures.Measure`.  One field, one meaning: ``value``
    is the constant a choice stands for (a zero-IDCG policy's NDCG), nothing else.

    Parameters
    ----------
    key : str
        The name programs use (in links, options, ``-m``).
    name : str
        The name people read (English; pages translate it by ``key``).
    help : str
        One or two sentences: what it is and who uses it.
    latex : str, default ""
        Its formula; ``{pos}`` and ``{log}`` are placeholders a discount fills in (:meth:`formula`).
    func : callable, optional
        What it computes (a gain, a discount's divisors, a measure, a denominator ...).
    source : str, default ""
        Where it comes from: a paper, a library's file and version.
    value : object, optional
        The constant it stands for (a zero-IDCG policy's NDCG value); None for a choice that stands for none.

    Examples
    --------
    >>> d = Choice("standard", "Standard discount", "Divide by log_b(i + 1).", latex="{log}({pos}+1)")
    >>> print(d.formula(10, position="3"))
    \\log_{10}(3+1)
    >>> ZERO_IDCG["one"].value
    1.0
    """

    key: str
    name: str
    help: str
    latex: str = ""
    func: Callable | None = field(default=None, compare=False, repr=False)
    source: str = ""
    value: Any = None

    def formula(self, log_base: float = 2.0, position: str = "i") -> str:
        """:attr:`latex` with the position symbol and the logarithm of the base filled in (discounts),
        e.g. ``\\log_{2}(i+1)``."""
        return self.latex.replace("{pos}", position).replace("{log}", log_latex(log_base))


@dataclass(frozen=True)
class GainMap(Choice):
    """A gain :class:`Choice` made from a map grade -> gain (:func:`gain_map`): ``levels`` are its
    (grade, gain) pairs sorted by grade."""

    levels: tuple[tuple[float, float], ...] = ()


def _log(x: np.ndarray, base: float) -> np.ndarray:
    if base == 2.0:
        return np.log2(x)
    if base == 10.0:
        return np.log10(x)
    return np.log(x) / math.log(base)


def _standard(positions: np.ndarray, base: float) -> np.ndarray:
    return _log(np.asarray(positions, dtype=np.float64) + 1.0, base)


def _jarvelin(positions: np.ndarray, base: float) -> np.ndarray:
    # Järvelin & Kekäläinen (2002): max(1, log_b i), so ranks below b are not discounted.
    return np.maximum(1.0, _log(np.asarray(positions, dtype=np.float64), base))


GAINS: dict[str, Choice] = {
    "linear": Choice(
        key="linear",
        name="Linear gain",
        latex="rel_{i}",
        help="The grade itself is the gain (Järvelin & Kekäläinen; scikit-learn, torchmetrics, trec_eval).",
        func=lambda rel: np.asarray(rel, dtype=np.float64),
    ),
    "exponential": Choice(
        key="exponential",
        name="Exponential gain",
        latex="2^{rel_{i}} - 1",
        help="2^rel - 1 stresses highly relevant items (Burges et al. 2005; ranx ndcg_burges, TF-Ranking, Spark).",
        func=lambda rel: np.exp2(np.asarray(rel, dtype=np.float64)) - 1.0,
    ),
    "binary": Choice(
        key="binary",
        name="Binary gain",
        latex="[rel_{i} > 0]",
        help="1 for any relevant item, 0 otherwise: a hit counts, its grade does not (document 004's code).",
        func=lambda rel: (np.asarray(rel, dtype=np.float64) > 0).astype(np.float64),
    ),
}

DISCOUNTS: dict[str, Choice] = {
    "standard": Choice(
        key="standard",
        name="Standard discount",
        latex="{log}({pos}+1)",
        help="Divide by log_b(i + 1): every rank after the first is discounted (Burges et al.; nearly every library).",
        func=_standard,
    ),
    "jarvelin": Choice(
        key="jarvelin",
        name="Järvelin–Kekäläinen discount",
        latex="\\max(1, {log} {pos})",
        help="Divide by log_b(i), but not below 1: ranks below b are not discounted (the original 2002 DCG).",
        func=_jarvelin,
    ),
}

TIES: dict[str, Choice] = {
    "average": Choice(
        "average",
        "Average over ties",
        "Tied items share the mean gain of their group over the group's positions (McSherry & Najork; scikit-learn).",
    ),
    "optimistic": Choice("optimistic", "Optimistic", "Within a tie, the most relevant item is ranked first."),
    "pessimistic": Choice("pessimistic", "Pessimistic", "Within a tie, the least relevant item is ranked first."),
    "stable": Choice("stable", "Input order", "Within a tie, items keep the order in which they were given."),
    "trec_eval": Choice(
        "trec_eval",
        "trec_eval (docno descending)",
        "Within a tie, the item whose document id sorts last comes first "
        "(trec_eval sorts by score, then docno, both descending).",
    ),
    "ranx": Choice(
        "ranx",
        "ranx (numba quicksort)",
        "ranx sorts a run with numba's np.argsort (quicksort): up to 15 items it is an insertion sort, so ties "
        "keep input order; from 16 items the median-of-three partitions reorder ties (reproduced exactly).",
    ),
}

#: Where the ideal ranking (IDCG) comes from.
IDCG_SOURCES: dict[str, Choice] = {
    "list": Choice(
        "list", "the list itself",
        "The ranked list itself, re-sorted by grade (scikit-learn, most blog posts)."),
    "judged": Choice(
        "judged", "all judged items",
        "Every judged item of the query, retrieved or not: the list's own plus the unretrieved ones "
        "(trec_eval, ranx)."),
}

#: What NDCG is for a list whose IDCG is 0.  ``"nan"`` leaves the list out of a mean (it is not counted).
ZERO_IDCG: dict[str, Choice] = {
    "zero": Choice(
        "zero", "0 (counts as a miss)",
        "NDCG is 0 when nothing is relevant: the list counts as a failure and pulls a mean down "
        "(scikit-learn, torchmetrics, trec_eval, ranx, Spark, Elasticsearch).",
        latex="\\mathrm{NDCG} = 0", value=0.0),
    "one": Choice(
        "one", "1 (counts as perfect)",
        "NDCG is 1 when nothing is relevant: any order is ideal, so the list counts as perfect and pushes a "
        "mean up (LightGBM, XGBoost without the '-' suffix).",
        latex="\\mathrm{NDCG} = 1", value=1.0),
    "nan": Choice(
        "nan", "Undefined (skipped)",
        "NDCG is undefined (0/0): the list is left out, so a mean is taken over the other lists only "
        "(gdeval, RecBole).",
        latex="\\mathrm{NDCG} = \\tfrac{0}{0}\\ (\\text{skipped})", value=float("nan")),
}


def log_latex(base: float) -> str:
    """LaTeX for a logarithm of the given base: ``\\log_{2}``, ``\\ln``, ``\\log_{10}``.

    The discount's formula is written with the base the user chose; base e is the natural
    logarithm and is written ``\\ln``.

    Parameters
    ----------
    base : float
        The logarithm's base (already validated, see :func:`metrics._validation.check_log_base`);
        ``math.e`` exactly gives ``\\ln``, any other value is written in ``%g`` form.

    Returns
    -------
    str
        A LaTeX fragment to put before the argument, e.g. ``\\log_{2}``.

    Examples
    --------
    >>> print(log_latex(2), log_latex(10), log_latex(1.5))
    \\log_{2} \\log_{10} \\log_{1.5}
    >>> print(log_latex(math.e))
    \\ln
    """
    if base == math.e:
        return "\\ln"
    text = f"{base:g}"
    return f"\\log_{{{text}}}"


def _custom_gain(func: Callable) -> Choice:
    def checked(rel: np.ndarray) -> np.ndarray:
        try:
            out = np.asarray(func(np.asarray(rel, dtype=np.float64)), dtype=np.float64)
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise ValueError(f"custom gain {func!r} failed: {exc}") from exc
        if out.shape != np.shape(rel) or not np.all(np.isfinite(out)):
            raise ValueError(f"custom gain {func!r} must return one finite gain per grade")
        return out

    name = getattr(func, "__name__", "custom")
    return Choice(key=name, name=f"Custom gain ({name})", latex=f"\\mathrm{{{name}}}(rel_{{i}})",
                help="A gain function supplied by the caller.", func=checked)


def _custom_discount(func: Callable) -> Choice:
    def checked(positions: np.ndarray, base: float) -> np.ndarray:
        try:
            out = np.asarray(func(np.asarray(positions), base), dtype=np.float64)
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise ValueError(f"custom discount {func!r} failed: {exc}") from exc
        if out.shape != np.shape(positions) or not np.all(np.isfinite(out)) or np.any(out <= 0):
            raise ValueError(f"custom discount {func!r} must return one finite divisor > 0 per position")
        return out

    name = getattr(func, "__name__", "custom")
    return Choice(key=name, name=f"Custom discount ({name})", latex=f"\\mathrm{{{name}}}({{pos}})",
                    help="A discount function (positions, log_base) -> divisors supplied by the caller.", func=checked)


def gain_map(mapping) -> GainMap:
    """A gain :class:`Choice` from a map grade -> gain, with trec_eval's ``-m ndcg.L=G`` meaning.

    Grades in the map get its gain; any other grade keeps its own value as gain (trec_eval's
    default gain is the relevance level, ``m_ndcg.c`` ``setup_gains``).  Gains may be 0 or negative.
    The ideal ranking is sorted by gain, not by grade (:func:`metrics.ndcg.ideal_ranking`).

    Parameters
    ----------
    mapping : mapping of float >= 0 to float
        Grade (relevance level) -> gain, e.g. ``{1: 1, 2: 3, 3: 7}`` (exponential gain written
        out).  Not empty; levels are finite numbers >= 0, gains any finite numbers.

    Returns
    -------
    GainMap
        ``key="map"``, a name listing the pairs, and ``levels``: the (grade, gain) pairs sorted by grade.

    Raises
    ------
    ValueError
        If ``mapping`` is not a mapping, is empty, or holds a negative, non-finite or non-numeric
        level or gain.

    References
    ----------
    .. [1] trec_eval 9.0.8, ``m_ndcg.c``, ``setup_gains`` (``-m ndcg.L=G``; default gain = level).

    Examples
    --------
    Grades 2 and 4 are mapped; 0, 1 and 3 keep their own value as gain:

    >>> g = gain_map({2: 9, 4: 4.5})
    >>> g.func(np.array([0.0, 1.0, 2.0, 3.0, 4.0])).tolist()
    [0.0, 1.0, 9.0, 3.0, 4.5]
    >>> g.levels
    ((2.0, 9.0), (4.0, 4.5))
    """
    from collections.abc import Mapping

    from ._validation import as_real

    if not isinstance(mapping, Mapping):
        raise ValueError(f"gain map must be a mapping grade -> gain, got {type(mapping).__name__}")
    if not mapping:
        raise ValueError("gain map is empty; give at least one grade -> gain pair such as {2: 3}")
    pairs: dict[float, float] = {}
    for i, (level, gain) in enumerate(mapping.items(), start=1):
        lv = as_real(level, "gain map level", i)
        if lv < 0:
            raise ValueError(f"gain map level at position {i} is {lv!r}; levels are grades >= 0")
        pairs[lv] = as_real(gain, "gain map gain", i) + 0.0
    levels = tuple(sorted(pairs.items()))
    keys = np.array([lv for lv, _ in levels])
    values = np.array([gv for _, gv in levels])

    def func(rel: np.ndarray) -> np.ndarray:
        rel = np.asarray(rel, dtype=np.float64)
        out = rel.copy()
        if rel.size:
            idx = np.clip(np.searchsorted(keys, rel), 0, keys.size - 1)
            hit = keys[idx] == rel
            out[hit] = values[idx[hit]]
        return out

    text = ", ".join(f"{lv:g}\u2192{gv:g}" for lv, gv in levels)
    return GainMap(key="map", name=f"Gain map ({text})", latex="g(rel_{i})",
                   help="trec_eval -m ndcg.L=G: grade L has gain G; grades not listed keep their own value as gain.",
                   func=func, levels=levels)


def _resolve(value, registry: dict, wrap: Callable, name: str):
    if isinstance(value, Choice):
        if not callable(value.func):
            raise ValueError(f"{name} {value.key!r} computes nothing (a Choice without func)")
        return value
    if callable(value):
        return wrap(value)
    from ._validation import check_choice

    return check_choice(value, registry, name=name)


def resolve_gain(gain) -> Choice:
    """A registered gain by name, a gain :class:`Choice`, a mapping grade -> gain (:func:`gain_map`), or a callable.

    Every metric accepts all four forms for its ``gain`` option and calls this once.

    Parameters
    ----------
    gain : str, Choice, mapping or callable
        A key of :data:`GAINS` ("linear", "exponential", "binary"); a :class:`Choice` (returned as
        is); a mapping grade -> gain; or a function from a float64 array of grades to one finite
        gain per grade.

    Returns
    -------
    Choice
        The registry entry, or a new one wrapping the mapping or function (a function's gains are
        checked when it is called).

    Raises
    ------
    ValueError
        If the name is unknown (the message lists the valid names) or the mapping is invalid.

    Examples
    --------
    >>> resolve_gain("exponential").func(np.array([0.0, 1.0, 3.0])).tolist()  # 2**rel - 1
    [0.0, 1.0, 7.0]
    >>> resolve_gain({3: 10}).func(np.array([1.0, 3.0])).tolist()  # 3 -> 10, 1 keeps its value
    [1.0, 10.0]
    >>> resolve_gain("quadratic")
    Traceback (most recent call last):
    ...
    ValueError: unknown gain 'quadratic'; valid names are 'linear', 'exponential', 'binary'
    """
    from collections.abc import Mapping

    if isinstance(gain, Mapping):
        return gain_map(gain)
    return _resolve(gain, GAINS, _custom_gain, "gain")


def resolve_discount(discount) -> Choice:
    """A registered discount by name, a discount :class:`Choice`, or a callable (positions, base) -> divisors.

    Parameters
    ----------
    discount : str, Choice or callable
        A key of :data:`DISCOUNTS` ("standard", "jarvelin"); a :class:`Choice` (returned as is);
        or a function ``(positions, log_base) -> divisors`` giving one finite divisor > 0 per
        1-based position.

    Returns
    -------
    Choice
        The registry entry or a new one wrapping the function.

    Raises
    ------
    ValueError
        If the name is unknown (the message lists the valid names).

    Examples
    --------
    The standard discount divides position i by log2(i + 1): 1, log2(3) = 1.585, 2:

    >>> resolve_discount("standard").func(np.array([1, 2, 3]), 2.0).round(3).tolist()
    [1.0, 1.585, 2.0]

    A discount of your own, here 1/i (no logarithm):

    >>> resolve_discount(lambda pos, base: pos).func(np.array([1, 2, 3]), 2.0).tolist()
    [1.0, 2.0, 3.0]
    """
    return _resolve(discount, DISCOUNTS, _custom_discount, "discount")


def term_latex(gain="linear", discount="standard", log_base: float = 2.0, position: str = "i") -> str:
    """The i-th DCG term in LaTeX, e.g. ``\\frac{rel_{i}}{\\log_{2}(i+1)}``.

    The gain's LaTeX over the discount's LaTeX, both read from the registry, so the formula shown
    is the one computed.

    Parameters
    ----------
    gain : str, Choice, mapping or callable, default "linear"
        As for :func:`resolve_gain`.
    discount : str, Choice or callable, default "standard"
        As for :func:`resolve_discount`.
    log_base : float, default 2.0
        The logarithm's base (:func:`log_latex`).
    position : str, default "i"
        The LaTeX symbol of the position, e.g. ``"3"`` to write the third term.

    Returns
    -------
    str
        A LaTeX ``\\frac``.

    Raises
    ------
    ValueError
        If the gain or discount is unknown.

    Examples
    --------
    >>> print(term_latex())
    \\frac{rel_{i}}{\\log_{2}(i+1)}
    >>> print(term_latex("exponential", "jarvelin", 10, position="j"))
    \\frac{2^{rel_{j}} - 1}{\\max(1, \\log_{10} j)}
    """
    g = resolve_gain(gain)
    d = resolve_discount(discount)
    return f"\\frac{{{g.latex.replace('_{i}', '_{' + position + '}')}}}{{{d.formula(log_base, position)}}}"


def dcg_latex(gain="linear", discount="standard", log_base: float = 2.0, k: str = "k", *,
              upper: str | None = None) -> str:
    """The whole DCG formula in LaTeX.

    Parameters
    ----------
    gain, discount, log_base
        As for :func:`term_latex`.
    k : str, default "k"
        The cutoff as LaTeX, e.g. ``"5"`` or ``"n"``: the name's ``@k`` and the sum's upper limit.
    upper : str, optional
        The sum's upper limit when it is not ``k``: a cutoff past the list's end stops at the list's length
        (``\\min(6,\\,2)`` for DCG@6 of 2 results).

    Returns
    -------
    str
        ``\\mathrm{DCG}@k = \\sum_{i=1}^{k}`` followed by :func:`term_latex`.

    Raises
    ------
    ValueError
        If the gain or discount is unknown.

    Examples
    --------
    >>> print(dcg_latex())
    \\mathrm{DCG}@k = \\sum_{i=1}^{k} \\frac{rel_{i}}{\\log_{2}(i+1)}
    >>> print(dcg_latex("exponential", k="5"))
    \\mathrm{DCG}@5 = \\sum_{i=1}^{5} \\frac{2^{rel_{i}} - 1}{\\log_{2}(i+1)}
    >>> print(dcg_latex(k="6", upper="\\\\min(6,\\\\,2)"))
    \\mathrm{DCG}@6 = \\sum_{i=1}^{\\min(6,\\,2)} \\frac{rel_{i}}{\\log_{2}(i+1)}
    """
    top = k if upper is None else upper
    return f"\\mathrm{{DCG}}@{k} = \\sum_{{i=1}}^{{{top}}} {term_latex(gain, discount, log_base)}"


#: The four choices an NDCG variant is made of, by parameter name (the run-file engine's ``nDCG`` measure,
#: the Run files page, the lessons): each maps its keys to the registry records above.
VARIANT_CHOICES: dict[str, dict] = {"gain": GAINS, "discount": DISCOUNTS, "idcg": IDCG_SOURCES, "ties": TIES}
