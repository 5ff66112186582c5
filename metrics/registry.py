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
from dataclasses import dataclass

import numpy as np

__all__ = [
    "Entry",
    "Gain",
    "Discount",
    "TieRule",
    "ZeroIdcgPolicy",
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
class Gain:
    key: str
    name: str
    latex: str  # in terms of rel_i
    help: str
    func: Callable[[np.ndarray], np.ndarray]
    levels: tuple[tuple[float, float], ...] = ()  # a gain map's (grade, gain) pairs, sorted by grade


@dataclass(frozen=True)
class Discount:
    key: str
    name: str
    latex_template: str  # {log} becomes the log of the chosen base, {pos} the position symbol
    help: str
    func: Callable[[np.ndarray, float], np.ndarray]  # (positions, base) -> divisors

    def latex(self, log_base: float = 2.0, position: str = "i") -> str:
        """The divisor in LaTeX for the given base, e.g. ``\\log_{2}(i+1)``."""
        return self.latex_template.replace("{pos}", position).replace("{log}", log_latex(log_base))


@dataclass(frozen=True)
class Entry:
    """A named choice with a one-line explanation: the base of every registry record with no formula."""

    key: str
    name: str
    help: str


class TieRule(Entry):
    """How items with equal scores are ordered."""


@dataclass(frozen=True)
class ZeroIdcgPolicy(Entry):
    """What NDCG is when IDCG is 0 (no item with a positive gain): 0, 1, or undefined (skipped in a mean)."""

    latex: str = ""
    value: float = 0.0


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


GAINS: dict[str, Gain] = {
    "linear": Gain(
        key="linear",
        name="Linear gain",
        latex="rel_{i}",
        help="The grade itself is the gain (Järvelin & Kekäläinen; scikit-learn, torchmetrics, trec_eval).",
        func=lambda rel: np.asarray(rel, dtype=np.float64),
    ),
    "exponential": Gain(
        key="exponential",
        name="Exponential gain",
        latex="2^{rel_{i}} - 1",
        help="2^rel - 1 stresses highly relevant items (Burges et al. 2005; ranx ndcg_burges, TF-Ranking, Spark).",
        func=lambda rel: np.exp2(np.asarray(rel, dtype=np.float64)) - 1.0,
    ),
    "binary": Gain(
        key="binary",
        name="Binary gain",
        latex="[rel_{i} > 0]",
        help="1 for any relevant item, 0 otherwise: a hit counts, its grade does not (document 004's code).",
        func=lambda rel: (np.asarray(rel, dtype=np.float64) > 0).astype(np.float64),
    ),
}

DISCOUNTS: dict[str, Discount] = {
    "standard": Discount(
        key="standard",
        name="Standard discount",
        latex_template="{log}({pos}+1)",
        help="Divide by log_b(i + 1): every rank after the first is discounted (Burges et al.; nearly every library).",
        func=_standard,
    ),
    "jarvelin": Discount(
        key="jarvelin",
        name="Järvelin–Kekäläinen discount",
        latex_template="\\max(1, {log} {pos})",
        help="Divide by log_b(i), but not below 1: ranks below b are not discounted (the original 2002 DCG).",
        func=_jarvelin,
    ),
}

TIES: dict[str, TieRule] = {
    "average": TieRule(
        "average",
        "Average over ties",
        "Tied items share the mean gain of their group over the group's positions (McSherry & Najork; scikit-learn).",
    ),
    "optimistic": TieRule("optimistic", "Optimistic", "Within a tie, the most relevant item is ranked first."),
    "pessimistic": TieRule("pessimistic", "Pessimistic", "Within a tie, the least relevant item is ranked first."),
    "stable": TieRule("stable", "Input order", "Within a tie, items keep the order in which they were given."),
    "trec_eval": TieRule(
        "trec_eval",
        "trec_eval (docno descending)",
        "Within a tie, the item whose document id sorts last comes first "
        "(trec_eval sorts by score, then docno, both descending).",
    ),
    "ranx": TieRule(
        "ranx",
        "ranx (numba quicksort)",
        "ranx sorts a run with numba's np.argsort (quicksort): up to 15 items it is an insertion sort, so ties "
        "keep input order; from 16 items the median-of-three partitions reorder ties (reproduced exactly).",
    ),
}

#: Where the ideal ranking (IDCG) comes from.
IDCG_SOURCES: dict[str, Entry] = {
    "list": Entry(
        "list", "The list itself",
        "The ranked list itself, re-sorted by grade (scikit-learn, most blog posts)."),
    "judged": Entry(
        "judged", "All judged items",
        "Every judged item of the query, retrieved or not: the list's own plus the unretrieved ones "
        "(trec_eval, ranx)."),
}

#: What NDCG is for a list whose IDCG is 0.  ``"nan"`` leaves the list out of a mean (it is not counted).
ZERO_IDCG: dict[str, ZeroIdcgPolicy] = {
    "zero": ZeroIdcgPolicy(
        "zero", "0 (counts as a miss)",
        "NDCG is 0 when nothing is relevant: the list counts as a failure and pulls a mean down "
        "(scikit-learn, torchmetrics, trec_eval, ranx, Spark, Elasticsearch).",
        latex="\\mathrm{NDCG} = 0", value=0.0),
    "one": ZeroIdcgPolicy(
        "one", "1 (counts as perfect)",
        "NDCG is 1 when nothing is relevant: any order is ideal, so the list counts as perfect and pushes a "
        "mean up (LightGBM, XGBoost without the '-' suffix).",
        latex="\\mathrm{NDCG} = 1", value=1.0),
    "nan": ZeroIdcgPolicy(
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


def _custom_gain(func: Callable) -> Gain:
    def checked(rel: np.ndarray) -> np.ndarray:
        try:
            out = np.asarray(func(np.asarray(rel, dtype=np.float64)), dtype=np.float64)
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise ValueError(f"custom gain {func!r} failed: {exc}") from exc
        if out.shape != np.shape(rel) or not np.all(np.isfinite(out)):
            raise ValueError(f"custom gain {func!r} must return one finite gain per grade")
        return out

    name = getattr(func, "__name__", "custom")
    return Gain(key=name, name=f"Custom gain ({name})", latex=f"\\mathrm{{{name}}}(rel_{{i}})",
                help="A gain function supplied by the caller.", func=checked)


def _custom_discount(func: Callable) -> Discount:
    def checked(positions: np.ndarray, base: float) -> np.ndarray:
        try:
            out = np.asarray(func(np.asarray(positions), base), dtype=np.float64)
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise ValueError(f"custom discount {func!r} failed: {exc}") from exc
        if out.shape != np.shape(positions) or not np.all(np.isfinite(out)) or np.any(out <= 0):
            raise ValueError(f"custom discount {func!r} must return one finite divisor > 0 per position")
        return out

    name = getattr(func, "__name__", "custom")
    return Discount(key=name, name=f"Custom discount ({name})", latex_template=f"\\mathrm{{{name}}}({{pos}})",
                    help="A discount function (positions, log_base) -> divisors supplied by the caller.", func=checked)


def gain_map(mapping) -> Gain:
    """A :class:`Gain` from a map grade -> gain, with trec_eval's ``-m ndcg.L=G`` meaning.

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
    Gain
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
    return Gain(key="map", name=f"Gain map ({text})", latex="g(rel_{i})",
                help="trec_eval -m ndcg.L=G: grade L has gain G; grades not listed keep their own value as gain.",
                func=func, levels=levels)


def _resolve(value, kind: type, registry: dict, wrap: Callable, name: str):
    if isinstance(value, kind):
        return value
    if callable(value):
        return wrap(value)
    from ._validation import check_choice

    return check_choice(value, registry, name=name)


def resolve_gain(gain) -> Gain:
    """A registered gain by name, a :class:`Gain`, a mapping grade -> gain (:func:`gain_map`), or a callable.

    Every metric accepts all four forms for its ``gain`` option and calls this once.

    Parameters
    ----------
    gain : str, Gain, mapping or callable
        A key of :data:`GAINS` ("linear", "exponential", "binary"); a :class:`Gain` (returned as
        is); a mapping grade -> gain; or a function from a float64 array of grades to one finite
        gain per grade.

    Returns
    -------
    Gain
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
    return _resolve(gain, Gain, GAINS, _custom_gain, "gain")


def resolve_discount(discount) -> Discount:
    """A registered discount by name, a :class:`Discount`, or a callable (positions, base) -> divisors.

    Parameters
    ----------
    discount : str, Discount or callable
        A key of :data:`DISCOUNTS` ("standard", "jarvelin"); a :class:`Discount` (returned as is);
        or a function ``(positions, log_base) -> divisors`` giving one finite divisor > 0 per
        1-based position.

    Returns
    -------
    Discount
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
    return _resolve(discount, Discount, DISCOUNTS, _custom_discount, "discount")


def term_latex(gain="linear", discount="standard", log_base: float = 2.0, position: str = "i") -> str:
    """The i-th DCG term in LaTeX, e.g. ``\\frac{rel_{i}}{\\log_{2}(i+1)}``.

    The gain's LaTeX over the discount's LaTeX, both read from the registry, so the formula shown
    is the one computed.

    Parameters
    ----------
    gain : str, Gain, mapping or callable, default "linear"
        As for :func:`resolve_gain`.
    discount : str, Discount or callable, default "standard"
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
    return f"\\frac{{{g.latex.replace('_{i}', '_{' + position + '}')}}}{{{d.latex(log_base, position)}}}"


def dcg_latex(gain="linear", discount="standard", log_base: float = 2.0, k: str = "k") -> str:
    """The whole DCG formula in LaTeX.

    Parameters
    ----------
    gain, discount, log_base
        As for :func:`term_latex`.
    k : str, default "k"
        The upper limit of the sum as LaTeX, e.g. ``"5"`` or ``"n"``.

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
    """
    return f"\\mathrm{{DCG}}@{k} = \\sum_{{i=1}}^{{{k}}} {term_latex(gain, discount, log_base)}"


#: The four choices an NDCG variant is made of, by parameter name (the run-file engine's ``nDCG`` measure,
#: the Run files page, the lessons): each maps its keys to the registry records above.
VARIANT_CHOICES: dict[str, dict] = {"gain": GAINS, "discount": DISCOUNTS, "idcg": IDCG_SOURCES, "ties": TIES}
