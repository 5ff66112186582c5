"""Practice exercises for NDCG by hand: generated from a seed, so a link reproduces the same exercise.

:func:`make_exercise` draws grades, a cutoff, a formula (gain, discount, log base),
judged items the system did not retrieve and tied system scores, more of them at a
higher difficulty (:data:`DIFFICULTIES`).  The same ``(seed, difficulty)`` always
gives the same exercise, on every machine (numpy's PCG64 seeded with both).  The
solution comes from :func:`metrics.ndcg.breakdown`; answers are checked with
:func:`metrics.lessons.diagnose.diagnose`, so the feedback names the mistake.

>>> ex = make_exercise(7, "easy")
>>> ex == make_exercise(7, "easy"), ex.variant.k, ex.unretrieved, ex.scores
(True, None, (), None)
>>> s = ex.solution()
>>> round(s["ndcg"], 6) == round(ndcg(ex.ranked_grades), 6)
True
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import check_choice
from ..ndcg import breakdown, dcg, idcg, ndcg, rank_by_scores
from ..registry import DISCOUNTS, GAINS
from ..variant import Variant
from .diagnose import Diagnosis, diagnose

__all__ = ["Difficulty", "DIFFICULTIES", "Exercise", "make_exercise", "check_seed", "parse_seed", "MAX_SEED",
           "discounts_inside"]

MAX_SEED = 2**32 - 1


@dataclass(frozen=True)
class Difficulty:
    key: str
    name: str
    help: str
    sizes: tuple[int, int]  # min, max number of retrieved items
    gains: tuple[str, ...]
    discounts: tuple[str, ...]
    bases: tuple[float, ...]
    p_cutoff: float  # chance of a cutoff k below the list length
    p_unretrieved: float  # chance of judged items the system missed
    p_scores: float  # chance of system scores with a tie (items shown unranked)
    decimals: int  # how many decimals answers are expected to have


DIFFICULTIES: dict[str, Difficulty] = {
    d.key: d
    for d in (
        Difficulty("easy", "Easy", "4-5 items in ranked order, linear gain, log2(i + 1), no cutoff.",
                   (4, 5), ("linear",), ("standard",), (2.0,), 0.0, 0.0, 0.0, 2),
        Difficulty("medium", "Medium",
                   "5-6 items, linear or exponential gain, often a cutoff k and judged items the system missed.",
                   (5, 6), ("linear", "exponential"), ("standard",), (2.0,), 0.6, 0.5, 0.0, 2),
        Difficulty("hard", "Hard",
                   "6-8 items ranked by tied system scores, any gain, discount and log base, a cutoff and "
                   "missed judged items.",
                   (6, 8), tuple(GAINS), ("standard", "jarvelin"), (2.0, 2.0, math.e, 10.0), 1.0, 0.8, 1.0, 3),
    )
}
_TIE_RULES = ("pessimistic", "optimistic")


def check_seed(seed) -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED`.

    Parameters
    ----------
    seed : int
        A Python or numpy integer from 0 to 2**32 - 1 = 4294967295 (not a boolean, not a float).

    Returns
    -------
    int
        ``seed`` as a Python int.

    Raises
    ------
    ValueError
        If ``seed`` is not a whole number or out of range.

    See Also
    --------
    parse_seed : the same from text.

    Examples
    --------
    >>> check_seed(42)
    42
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be from 0 to 4294967295, got -1
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {str(seed)[:20]!r}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed must be from 0 to {MAX_SEED}, got {int(seed)}")
    return int(seed)


def parse_seed(text) -> int:
    """A seed from a link or a text box: digits only.

    Only ASCII digits are accepted (no sign, no ``²`` or full-width digits), so a link's
    ``seed`` means one thing everywhere.

    Parameters
    ----------
    text : str
        The seed as typed; surrounding spaces are ignored.

    Returns
    -------
    int
        The seed, 0 to :data:`MAX_SEED`.

    Raises
    ------
    ValueError
        If the text is not ASCII digits or the number is out of range.

    Examples
    --------
    >>> parse_seed(" 42 ")
    42
    >>> parse_seed("4x2")
    Traceback (most recent call last):
    ...
    ValueError: seed '4x2' is not a whole number from 0 to 4294967295
    """
    folded = str(text).strip()
    if not folded.isascii() or not folded.isdigit():
        raise ValueError(f"seed {folded[:20]!r} is not a whole number from 0 to {MAX_SEED}")
    return check_seed(int(folded))


@dataclass(frozen=True)
class Exercise:
    """One exercise: the items (shown in ``labels`` order, with their ``grades`` and, when the learner ranks
    them first, ``scores``), the judged items the system missed (``unretrieved``), the
    :class:`metrics.variant.Variant` to compute and the ``decimals`` answers are expected to have.

    The variant is the formula (gain, discount, log base), the cutoff ``k``, where the ideal ranking comes from
    (``idcg``: ``"judged"`` when there are unretrieved items, else ``"list"``) and the tie rule the scores are
    ranked by (``"stable"``, the order given, when there are no scores).

    >>> ex = Exercise(seed=0, difficulty="easy", labels=("D1", "D2"), grades=(1.0, 3.0), scores=(0.5, 0.5),
    ...               unretrieved=(), variant=Variant(idcg="list", ties="pessimistic"), decimals=2)
    >>> ex.ranked_labels  # tied scores, the pessimistic rule: the lower grade first
    ['D1', 'D2']
    >>> Exercise(**{**ex.__dict__, "variant": "linear/standard/list"})
    Traceback (most recent call last):
    ...
    ValueError: variant must be a metrics.variant.Variant, got str
    """

    seed: int
    difficulty: str
    labels: tuple[str, ...]
    grades: tuple[float, ...]
    scores: tuple[float, ...] | None
    unretrieved: tuple[float, ...]
    variant: Variant
    decimals: int

    def __post_init__(self):
        v = self.variant
        if not isinstance(v, Variant):
            raise ValueError(f"variant must be a metrics.variant.Variant, got {type(v).__name__}")
        if v.gain == "map" or v.level is not None or v.zero_idcg != "zero":
            raise ValueError(f"an exercise's variant takes a registered gain, no level and zero_idcg='zero', "
                             f"got {v.format()}")

    @property
    def order(self) -> list[int]:
        """Indices of the items in ranked order."""
        if self.scores is None:
            return list(range(len(self.grades)))
        return rank_by_scores(self.grades, self.scores, ties=self.variant.ties).tolist()

    @property
    def ranked_grades(self) -> list[float]:
        return [self.grades[i] for i in self.order]

    @property
    def ranked_labels(self) -> list[str]:
        return [self.labels[i] for i in self.order]

    @property
    def pool(self) -> list[float] | None:
        """Every judged grade (the ranked list's, then the unretrieved ones) when the ideal ranking takes them."""
        if self.unretrieved and self.variant.idcg == "judged":
            return self.ranked_grades + list(self.unretrieved)
        return None

    def solution(self) -> dict:
        """The worked solution: the per-position breakdown and the totals, all from :mod:`metrics.ndcg`."""
        rel, k, pool, options = self.ranked_grades, self.variant.k, self.pool, self.variant.options
        table: pd.DataFrame = breakdown(rel, k=k, pool=pool, **options)
        return {
            "breakdown": table,
            "ranked_labels": self.ranked_labels,
            "ranked_grades": rel,
            "ideal": table["ideal_relevance"].dropna().tolist(),
            "dcg": dcg(rel, k=k, **options),
            "idcg": idcg(rel, k=k, pool=pool, **options),
            "ndcg": ndcg(rel, k=k, pool=pool, **options),
        }

    def check(self, *, terms=None, dcg=None, ideal_terms=None, idcg=None, ndcg=None) -> Diagnosis:
        """Diagnose a learner's answers against this exercise's formula.

        See :func:`metrics.lessons.diagnose.diagnose`.
        """
        v = self.variant
        return diagnose(self.ranked_grades, unretrieved=list(self.unretrieved), k=v.k, terms=terms, dcg=dcg,
                        ideal_terms=ideal_terms, idcg=idcg, ndcg=ndcg, gain=v.gain, discount=v.discount,
                        log_base=v.log_base, idcg_source=v.idcg, decimals=self.decimals)


def discounts_inside(discount: str, log_base: float, positions: int) -> bool:
    """Whether ``discount`` weighs the positions 1..``positions`` differently at all (an exercise on it is about
    the discount only then).

    Järvelin–Kekäläinen's ``max(1, log_b i)`` leaves every position up to b undiscounted: with base 10 a list
    of up to 10 positions is a plain sum of gains.  The standard ``log_b(i + 1)`` differs from one position to
    the next at any base.

    Parameters
    ----------
    discount : str
        A key of :data:`metrics.registry.DISCOUNTS`.
    log_base : float
        The base.
    positions : int
        How many positions count (the cutoff k, or the whole list).

    Returns
    -------
    bool

    Examples
    --------
    >>> discounts_inside("jarvelin", 10.0, 8), discounts_inside("jarvelin", math.e, 3)
    (False, True)
    >>> discounts_inside("standard", 10.0, 2)
    True
    """
    divisors = DISCOUNTS[discount].func(np.arange(1, max(1, int(positions)) + 1), float(log_base))
    return bool(np.ptp(divisors) > 0)


def make_exercise(seed, difficulty="easy") -> Exercise:
    """The exercise for ``seed`` at ``difficulty`` (deterministic).

    The same ``(seed, difficulty)`` gives the same exercise on every machine, so a teacher can
    hand out a link and everyone works on the same numbers.

    Parameters
    ----------
    seed : int, 0 <= seed <= 2**32 - 1
        Picks the exercise (see :func:`check_seed`).
    difficulty : {"easy", "medium", "hard"}, default "easy"
        See :data:`DIFFICULTIES`: list length, gains, discounts, log bases, and how often a cutoff,
        unretrieved judged items and tied scores appear.

    Returns
    -------
    Exercise
        The exercise; ``.solution()`` gives the worked answer, ``.check(...)`` diagnoses an answer.

    Raises
    ------
    ValueError
        If ``seed`` or ``difficulty`` is invalid.

    Examples
    --------
    Seed 1, easy: grades 2, 3, 3, 0 in ranked order, linear gain, log2(i + 1).
    DCG = 2/1 + 3/log2(3) + 3/2 + 0 = 2 + 1.8928 + 1.5 = 5.3928; the ideal 3, 3, 2, 0 gives
    IDCG = 3 + 1.8928 + 1 = 5.8928; NDCG = 5.3928 / 5.8928 = 0.9152.

    >>> ex = make_exercise(1, "easy")
    >>> ex.ranked_grades, ex.variant
    ([2.0, 3.0, 3.0, 0.0], Variant(idcg='list', ties='stable'))
    >>> round(ex.solution()["ndcg"], 4)
    0.9152

    Hard exercises rank by system scores with a tie and cut the list; their discount always discounts inside the
    cut list (never Järvelin–Kekäläinen with base 10 on 8 positions, which leaves all of them undiscounted):

    >>> ex = make_exercise(3, "hard")
    >>> ex.scores is not None and len(set(ex.scores)) < len(ex.scores)  # at least one tie
    True
    >>> ex.variant.k is not None and ex.variant.k < len(ex.grades)
    True
    """
    seed = check_seed(seed)
    level = check_choice(difficulty, DIFFICULTIES, name="difficulty")
    rng = np.random.default_rng([seed, list(DIFFICULTIES).index(level.key)])
    n = int(rng.integers(level.sizes[0], level.sizes[1] + 1))
    grades = rng.integers(0, 4, size=n)
    if not grades.any():  # at least one relevant item, so NDCG is defined by more than the 0/0 rule
        grades[int(rng.integers(0, n))] = int(rng.integers(1, 4))
    gain = str(rng.choice(level.gains))
    discount = str(rng.choice(level.discounts))
    base = float(level.bases[int(rng.integers(0, len(level.bases)))])
    k = int(rng.integers(max(2, n - 3), n)) if rng.random() < level.p_cutoff else None
    if not discounts_inside(discount, base, k or n):
        # an exercise whose divisors are all 1 is no exercise on the discount: another of the level's bases,
        # drawn from a stream of its own (every other seed, and the rest of this one, stay as they were)
        bases = [b for b in level.bases if discounts_inside(discount, b, k or n)]
        other = np.random.default_rng([seed, list(DIFFICULTIES).index(level.key), 1])
        base = float(bases[int(other.integers(0, len(bases)))]) if bases else 2.0
    unretrieved: tuple[float, ...] = ()
    if rng.random() < level.p_unretrieved:
        m = int(rng.integers(1, 3 if level.key == "medium" else 4))
        extra = rng.integers(0, 4, size=m)
        extra[0] = max(int(extra[0]), 1)  # a missed relevant item, so the pool matters
        unretrieved = tuple(float(x) for x in extra)
    scores = ties = None
    labels = tuple(f"D{i + 1}" for i in range(n))
    if rng.random() < level.p_scores:
        # distinct scores with one value repeated: a tie the rule has to break
        values = rng.choice(np.arange(10, 100), size=n, replace=False).astype(float) / 100
        a = int(rng.integers(0, n))
        others = [j for j in range(n) if grades[j] != grades[a]] or [j for j in range(n) if j != a]
        b = int(others[int(rng.integers(0, len(others)))])
        values[b] = values[a]  # tied items of different grades when there are any: the rule matters
        scores = tuple(float(x) for x in values)
        ties = str(rng.choice(_TIE_RULES))
    variant = Variant(gain=gain, discount=discount, log_base=base, idcg="judged" if unretrieved else "list", k=k,
                      ties=ties or "stable")
    return Exercise(seed=seed, difficulty=level.key, labels=labels, grades=tuple(float(g) for g in grades),
                    scores=scores, unretrieved=unretrieved, variant=variant, decimals=level.decimals)
