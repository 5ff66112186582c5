"""An independent model of a student computing NDCG by hand, for the property tests of the diagnosis.

Nothing here calls :mod:`metrics`: gains, divisors, ideal rankings and sums are a few lines of ``math``,
and each misconception of the catalogue is re-stated as what the student does (the test's own reading of
the entry's help text), so a sheet made here checks :func:`metrics.lessons.diagnose.diagnose` rather than
repeating it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

FIELDS = ("terms", "dcg", "ideal_terms", "idcg", "ndcg")
STEP = {"terms": "term", "dcg": "dcg", "ideal_terms": "ideal_term", "idcg": "idcg", "ndcg": "ndcg"}
BASES = (2.0, math.e, 10.0)


def gain(name: str, rel: float) -> float:
    if name == "linear":
        return rel
    if name == "exponential":
        return 2.0 ** rel - 1.0
    return 1.0 if rel > 0 else 0.0  # binary: a hit or not


def divisor(name: str, i: int, base: float) -> float:
    if name == "standard":  # log_b(i + 1)
        return math.log(i + 1) / math.log(base)
    if name == "jarvelin":  # log_b(i), never below 1
        return max(1.0, math.log(i) / math.log(base))
    if name == "log_i":  # log_b(i), position 1 left as it is
        return 1.0 if i == 1 else math.log(i) / math.log(base)
    return 1.0  # no discount


@dataclass(frozen=True)
class Way:
    """How one side is computed by this student."""

    gain: str
    discount: str
    base: float
    cut: bool = True


@dataclass(frozen=True)
class Recipe:
    """A student's whole calculation.  ``order`` is "sorted", "as_ranked", "ascending", or the ideal ranking's
    grades in an order of the student's own (a tuple: a permutation of the items' grades)."""

    dcg: Way
    ideal: Way
    source: str = "list"
    order: object = "sorted"


def side_terms(way: Way, grades, k) -> list[float]:
    top = list(grades[:k]) if (k is not None and way.cut) else list(grades)
    return [gain(way.gain, g) / divisor(way.discount, i, way.base) for i, g in enumerate(top, start=1)]


def pool_of(recipe: Recipe, grades, extra) -> list[float]:
    """The items the ideal ranking is made of: the list, or every judged item."""
    return list(grades) + (list(extra) if recipe.source == "judged" else [])


def ideal_grades(recipe: Recipe, grades, extra) -> list[float]:
    pool = pool_of(recipe, grades, extra)
    if isinstance(recipe.order, tuple):
        assert sorted(recipe.order) == sorted(pool), (recipe.order, pool)  # the student's own order of these items
        return list(recipe.order)
    if recipe.order == "as_ranked":
        return pool
    return sorted(pool, reverse=recipe.order == "sorted")


def numbers(recipe: Recipe, grades, extra, k) -> dict:
    terms = side_terms(recipe.dcg, grades, k)
    ideal = side_terms(recipe.ideal, ideal_grades(recipe, grades, extra), k)
    dcg, idcg = math.fsum(terms), math.fsum(ideal)
    return {"terms": terms, "dcg": dcg, "ideal_terms": ideal, "idcg": idcg, "ndcg": dcg / idcg if idcg else 0.0}


# ---------------------------------------------------------------------------------------- the catalogue, restated
def _side_change(key: str, way: Way, k, n_side: int) -> list[Way]:
    """What misconception ``key`` makes of one side's way of computing (empty: it does not apply)."""
    g, d, b = way.gain, way.discount, way.base
    if key == "linear_for_exponential":
        return [replace(way, gain="linear")] if g == "exponential" else []
    if key == "exponential_for_linear":
        return [replace(way, gain="exponential")] if g == "linear" else []
    if key == "wrong_gain":  # 0/1 hits for graded gains, or the reverse
        return [replace(way, gain=x) for x in ("linear", "exponential", "binary")
                if x != g and {x, g} != {"linear", "exponential"}]
    if key == "discount_one_early":  # log(i) where log(i + 1) belongs
        return [replace(way, discount="log_i")] if d == "standard" else []
    if key == "discount_one_late":  # log(i + 1) where log(i) belongs
        return [replace(way, discount="standard")] if d == "jarvelin" else []
    if key == "wrong_log_base":
        return [replace(way, base=x) for x in BASES if x != b]
    if key == "no_discount":
        return [replace(way, discount="none")]
    if key == "cutoff_ignored":
        return [replace(way, cut=False)] if k is not None and k < n_side else []
    return []


SIDE_KEYS = ("linear_for_exponential", "exponential_for_linear", "wrong_gain", "discount_one_early",
             "discount_one_late", "wrong_log_base", "no_discount", "cutoff_ignored")
IDEAL_KEYS = ("ideal_from_list", "ideal_from_judged", "ideal_order")
FORMULA_KEYS = SIDE_KEYS + IDEAL_KEYS
WRITING_KEYS = ("beyond_k", "truncation", "too_few_decimals", "rounded_sum", "ratio_of_rounded",
                "percent_vs_fraction", "arithmetic_slip")


def apply(key: str, recipe: Recipe, side: str, grades, extra, k) -> list[Recipe]:
    """The student's recipes for a formula misconception on ``side`` ("dcg", "ideal" or "both")."""
    if key in IDEAL_KEYS:
        if key == "ideal_from_list":
            return [replace(recipe, source="list")] if recipe.source == "judged" and extra else []
        if key == "ideal_from_judged":
            return [replace(recipe, source="judged")] if recipe.source == "list" and extra else []
        return [replace(recipe, order=o) for o in ("as_ranked", "ascending")]
    n = {"dcg": len(grades), "ideal": len(ideal_grades(recipe, grades, extra))}
    sides = ("dcg", "ideal") if side == "both" else (side,)
    options = [_side_change(key, getattr(recipe, s), k, n[s]) for s in sides]
    if not all(options):
        return []
    return [replace(recipe, **dict(zip(sides, ways))) for ways in zip(*options)]


def single_and_pair_recipes(recipe: Recipe, grades, extra, k) -> list[tuple[tuple[str, ...], str, Recipe]]:
    """Every formula misconception (and every pair of two on the same side) applied to ``recipe``:
    ``(keys, side, student recipe)``."""
    singles = [((key,), side, r) for key in FORMULA_KEYS
               for side in (("ideal",) if key in IDEAL_KEYS else ("dcg", "ideal", "both"))
               for r in apply(key, recipe, side, grades, extra, k)]
    pairs = []
    for (k1, s1, r1), (k2, s2, _) in combinations(singles, 2):
        if s1 != s2 or k1 == k2:
            continue
        for r in apply(k2[0], r1, s2, grades, extra, k):
            if r != r1:
                pairs.append((k1 + k2, s1, r))
    return singles + pairs


# ---------------------------------------------------------------------------------------- writing numbers down
def fmt(x: float, d: int) -> str:
    return f"{x:.{d}f}"


def pct(x: float, d: int) -> str:
    return f"{x * 100:.{max(0, d - 2)}f}%"


def read(text: str) -> tuple[float, float]:
    """A written number's value (a fraction) and the half unit its last digit allows."""
    percent = text.endswith("%")
    body = text.rstrip("%")
    decimals = len(body.split(".")[1]) if "." in body else 0
    value = float(body) / (100 if percent else 1)
    return value, 0.5 * 10.0 ** -(decimals + (2 if percent else 0))


def written_like(text: str, exact: float, *, percent: bool | None = None, finest: int = 0) -> str:
    """``exact`` written the way the student wrote ``text``: the same digits (a whole number in a list of terms
    as many as the list's finest entry, ``finest``) in the form the student meant (``percent``; by default a
    percent when written with its sign) — a percent written without its sign, 76.8, is compared as 81.8%, not
    as 0.8."""
    body = text.rstrip("%")
    decimals = len(body.split(".")[1]) if "." in body else 0
    if decimals == 0 and not text.endswith("%"):
        decimals = finest
    if text.endswith("%") if percent is None else percent:
        return f"{exact * 100:.{decimals}f}%"
    return f"{exact:.{decimals}f}"


def discount_name(way: Way, positions: int) -> str:
    """What the diagnosis calls the discount a side used: log(i) with position 1 undiscounted is the
    Järvelin–Kekäläinen discount wherever every divisor of the side's positions is the same as that one's."""
    if way.discount == "log_i" and all(
            math.isclose(divisor("log_i", i, way.base), divisor("jarvelin", i, way.base), rel_tol=1e-12)
            for i in range(1, positions + 1)):
        return "jarvelin"
    return way.discount


def close(text: str, exact: float, *, unit_decimals: int | None = None) -> bool:
    value, tol = read(text)
    if unit_decimals is not None:
        tol = 0.5 * 10.0 ** -unit_decimals
    return math.isfinite(exact) and abs(value - exact) <= tol * (1 + 1e-9) + 1e-12


def near_boundary(text: str, exact: float) -> bool:
    """Too near the rounding boundary of what is written to say whether it rounds there (float noise)."""
    value, tol = read(text)
    return abs(abs(value - exact) - tol) <= 1e-9 * max(1.0, abs(exact))


def trunc(x: float, d: int) -> float:
    unit = 10.0 ** d
    return math.trunc(x * unit + math.copysign(1e-7, x)) / unit


# ---------------------------------------------------------------------------------------- an ideal ranking unsorted
def unsorted_orders(pool):
    """The student who writes the ideal ranking in an order of their own: any order of the items' grades except
    highest first (a Hypothesis strategy; ``st.permutations`` shuffles, nothing here sorts)."""
    from hypothesis import strategies as st

    best = sorted(pool, reverse=True)
    return st.permutations([float(g) for g in pool]).map(tuple).filter(lambda order: list(order) != best)


@lru_cache(maxsize=64)
def every_order(pool: tuple[float, ...]) -> list[tuple[float, ...]]:
    """Every distinct order of the grades in ``pool`` (a multiset), by brute force: place each distinct grade
    left at the next position, in turn."""
    counts: dict[float, int] = {}
    for g in pool:
        counts[float(g)] = counts.get(float(g), 0) + 1
    out: list[tuple[float, ...]] = []
    seq: list[float] = []

    def place() -> None:
        if len(seq) == len(pool):
            out.append(tuple(seq))
            return
        for g in list(counts):
            if counts[g]:
                counts[g] -= 1
                seq.append(g)
                place()
                seq.pop()
                counts[g] += 1

    place()
    return out


def orders_giving(written: dict[int, str], pool, way: Way, k) -> set[tuple[float, ...]]:
    """The orders of ``pool`` (only the positions that count: cut at k) whose ideal terms, computed by ``way``,
    round to every written term (``written``: position -> text) — found by trying every order."""
    return _orders_giving(tuple(sorted(written.items())), tuple(sorted(float(g) for g in pool)), way, k)


@lru_cache(maxsize=256)
def _orders_giving(written: tuple, pool: tuple, way: Way, k) -> frozenset:
    written = dict(written)
    n_side = len(pool) if (k is None or not way.cut) else min(k, len(pool))
    if any(p > n_side for p in written):
        return frozenset()
    out = set()
    for order in every_order(pool):
        head = order[:n_side]
        terms = side_terms(way, head, None)
        if all(close(text, terms[p - 1]) for p, text in written.items()):
            out.add(head)
    return frozenset(out)


def shows_unsorted(written: dict[int, str], pool, way: Way, k) -> bool:
    """The written ideal terms are an order of the right grades other than highest first, and it shows: some
    written term is not the highest-first ranking's (what the diagnosis can see on the sheet)."""
    best = side_terms(way, sorted(pool, reverse=True), k)
    if not any(p > len(best) or not close(text, best[p - 1]) for p, text in written.items()):
        return False
    return bool(orders_giving(written, pool, way, k))
