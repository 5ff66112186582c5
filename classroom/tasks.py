"""What a class is asked: one exercise (a :class:`Task`), built from a practice seed, a document's
worked example or a ranking, and checked by the same engine as the Practice page.

A task is stored as JSON with its round (:meth:`Task.to_json`), so an answer given before a server
restart is checked against exactly the same numbers after it.  Checking is not re-implemented here:
:meth:`Task.exercise` is a :class:`metrics.lessons.exercises.Exercise` (for a practice seed, the very
exercise :func:`~metrics.lessons.exercises.make_exercise` gives), whose ``check`` runs
:func:`metrics.lessons.diagnose.diagnose` and whose ``solution`` comes from :func:`metrics.ndcg.breakdown`.

>>> task = practice_task(7, "easy")
>>> task.exercise() == make_exercise(7, "easy")
True
>>> Task.from_json(task.to_json()) == task
True
>>> t = ranking_task([3, 2, 1, 3, 2], discount="jarvelin")  # document 000's formula
>>> d = t.check({"dcg": "7.99", "ndcg": "0.92"})
>>> verdict(d, "dcg").state, verdict(d, "ndcg").state
('right', 'right')
>>> verdict(t.check({"dcg": "6.83"}), "dcg")  # 3 + 2/log2(3) + 1/2 + 3/log2(5) + 2/log2(6) = 6.8276
Verdict(state='wrong', mistakes=('discount_one_late',), carried_from=(), notes=())
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields
from functools import lru_cache

from metrics.lessons.diagnose import EXAMPLE_SHEETS, FIELDS, MARKS, STEP_OF_FIELD, Diagnosis, Verdict, example_sheet
from metrics.lessons.exercises import DIFFICULTIES, Exercise, check_seed, make_exercise
from metrics.parse import parse_grades
from metrics.variant import Variant, parse

__all__ = ["FIELDS", "STEP_OF_FIELD", "ORIGINS", "EXAMPLE_KEYS", "MAX_ITEMS", "Task", "practice_task",
           "example_task", "ranking_task", "Verdict", "verdict", "value_verdict", "state_of", "MARKS"]

# FIELDS: the answer fields a class can be asked, in the order of a hand calculation (as on the Practice page);
# STEP_OF_FIELD: the diagnosis step each answers — both defined once, in metrics.lessons.diagnose.
ORIGINS = ("practice", "example", "ranking")
#: Every document's worked example a class can be given: the hand calculations Check my calculation offers,
#: then document 004's two recommendation lists (it prints no calculation, only the grades and ideal vector).
EXAMPLE_KEYS = EXAMPLE_SHEETS + ("004-recsys1", "004-recsys2")
#: A class exercise is done by hand: at most this many ranked (and as many unretrieved) items.
MAX_ITEMS = 20


@dataclass(frozen=True)
class Task:
    """One class exercise: where it came from and the :class:`~metrics.lessons.exercises.Exercise` itself.

    ``origin`` is ``"practice"`` (``ref`` = ``"<difficulty>:<seed>"``), ``"example"`` (``ref`` = a key
    of :data:`EXAMPLE_KEYS`) or ``"ranking"`` (``ref`` = ``""``).  For examples and rankings the
    exercise's ``seed`` 0 and ``difficulty`` "easy" are placeholders nothing reads.
    """

    origin: str
    ref: str
    ex: Exercise

    def exercise(self) -> Exercise:
        """The :class:`Exercise` that checks answers and gives the solution."""
        return self.ex

    def check(self, answers: dict[str, str | None]) -> Diagnosis:
        """Diagnose a set of answers (field -> text; blank or missing fields are not answered).

        Raises ValueError (from :func:`metrics.lessons.diagnose.diagnose`) for text that is not numbers.
        The same task and answers are diagnosed once per process (a class sends many identical sets);
        the result is shared, so treat it as read-only.
        """
        given = tuple((f, str(answers[f])) for f in FIELDS if answers.get(f) and str(answers[f]).strip())
        return _check(self, given)

    def to_json(self) -> str:
        """One flat JSON object: ``origin``, ``ref``, the exercise's fields, its variant in the spec form
        (:meth:`metrics.variant.Variant.format`, which :func:`metrics.variant.parse` reads back).

        >>> print(ranking_task([3, 2], unretrieved=[1], k=2).to_json())  # doctest: +NORMALIZE_WHITESPACE
        {"decimals": 2, "difficulty": "easy", "grades": [3.0, 2.0], "labels": ["D1", "D2"], "origin": "ranking",
         "ref": "", "scores": null, "seed": 0, "unretrieved": [1.0],
         "variant": "nDCG(gain=linear,discount=standard,idcg=judged,ties=stable)@2"}
        """
        ex = {f.name: getattr(self.ex, f.name) for f in fields(self.ex)}
        ex["variant"] = self.ex.variant.format()
        return json.dumps({"origin": self.origin, "ref": self.ref, **ex}, sort_keys=True, allow_nan=False)

    @classmethod
    def from_json(cls, text: str) -> Task:
        """The task :meth:`to_json` wrote, or a row stored before the exercise held a variant (its gain,
        discount, log_base, k and ties as fields of their own; the ideal from every judged item when there
        are unretrieved ones, as the exercise then computed it).

        >>> old = ('{"decimals": 2, "discount": "jarvelin", "gain": "linear", "grades": [3.0, 2.0], "k": null, '
        ...        '"labels": ["D1", "D2"], "log_base": 2.0, "origin": "ranking", "ref": "", "scores": null, '
        ...        '"ties": null, "unretrieved": [1.0]}')
        >>> Task.from_json(old) == ranking_task([3, 2], unretrieved=[1], discount="jarvelin")
        True
        """
        data = json.loads(text)
        origin, ref = data.pop("origin"), data.pop("ref")
        data.setdefault("seed", 0)  # rows stored before the exercise's own fields were kept
        data.setdefault("difficulty", "easy")
        for name in ("labels", "grades", "unretrieved"):
            data[name] = tuple(data[name])
        if data["scores"] is not None:
            data["scores"] = tuple(data["scores"])
        if "variant" in data:
            data["variant"] = parse(data["variant"])
        else:  # stored before the exercise held a Variant
            data["variant"] = Variant(
                gain=data.pop("gain"), discount=data.pop("discount"), log_base=data.pop("log_base"), k=data.pop("k"),
                ties=data.pop("ties") or "stable", idcg="judged" if data["unretrieved"] else "list")
        return cls(origin, ref, Exercise(**data))


@lru_cache(maxsize=1024)
def _check(task: Task, given: tuple[tuple[str, str], ...]) -> Diagnosis:
    return task.exercise().check(**dict(given))




def practice_task(seed, difficulty: str = "easy") -> Task:
    """The Practice page's exercise for ``seed`` and ``difficulty`` (the same link gives the same numbers)."""
    seed = check_seed(seed)
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, got {str(difficulty)[:20]!r}")
    return Task("practice", f"{difficulty}:{seed}", make_exercise(seed, difficulty))


def example_task(key: str) -> Task:
    """A document's worked example (:data:`EXAMPLE_KEYS`) with the formula the document names.

    >>> t = example_task("003-blog").exercise()
    >>> t.grades, t.unretrieved, t.variant.format()
    ((3.0, 2.0, 3.0, 0.0, 1.0, 2.0), (3.0, 0.0), 'nDCG(gain=linear,discount=standard,idcg=judged,ties=stable)@6')
    """
    if key not in EXAMPLE_KEYS:
        raise ValueError(f"example must be one of {', '.join(EXAMPLE_KEYS)}, got {str(key)[:20]!r}")
    sheet = example_sheet(key)
    grades = tuple(float(g) for g in sheet["grades"])
    unretrieved = tuple(float(g) for g in sheet["unretrieved"])
    variant = Variant(gain=sheet["gain"], discount=sheet["discount"], log_base=float(sheet["log_base"]),
                      idcg="judged" if unretrieved else "list", k=sheet["k"], ties="stable")
    return Task("example", key, Exercise(
        seed=0, difficulty="easy", labels=tuple(f"D{i + 1}" for i in range(len(grades))), grades=grades,
        scores=None, unretrieved=unretrieved, variant=variant, decimals=2))


def ranking_task(grades, *, unretrieved=(), k=None, gain="linear", discount="standard", log_base=2.0,
                 idcg="judged", decimals=2) -> Task:
    """A ranking (as the playground's link gives it) as a class exercise.

    With ``idcg="list"`` the ideal ranking is the list's own grades, so ``unretrieved`` grades are dropped.

    >>> ranking_task("3 2 3 0 1 2", unretrieved="3 0", k=6).exercise().unretrieved
    (3.0, 0.0)
    >>> ranking_task([3, 2, 1], unretrieved=[3], idcg="list").exercise().unretrieved
    ()
    >>> ranking_task([])
    Traceback (most recent call last):
    ...
    ValueError: grades must hold 1 to 20 grades, got 0
    """
    rel = parse_grades(grades, allow_empty=True) if isinstance(grades, str) else [float(g) for g in grades]
    extra = parse_grades(unretrieved, allow_empty=True) if isinstance(unretrieved, str) else [
        float(g) for g in unretrieved or ()]
    if not 1 <= len(rel) <= MAX_ITEMS:
        raise ValueError(f"grades must hold 1 to {MAX_ITEMS} grades, got {len(rel)}")
    if len(extra) > MAX_ITEMS:
        raise ValueError(f"unretrieved must hold at most {MAX_ITEMS} grades, got {len(extra)}")
    for name, values in (("grades", rel), ("unretrieved", extra)):
        if any(not math.isfinite(g) or g < 0 or g > 100 for g in values):
            raise ValueError(f"{name} must be numbers from 0 to 100, got {values}")
    if idcg not in ("judged", "list"):
        raise ValueError(f"idcg must be 'judged' or 'list', got {str(idcg)[:20]!r}")
    if k is not None and (isinstance(k, bool) or int(k) != k or not 1 <= int(k) <= MAX_ITEMS):
        raise ValueError(f"k must be a whole number from 1 to {MAX_ITEMS}, got {k!r}")
    if idcg == "list":
        extra = []
    labels = tuple(f"D{i + 1}" for i in range(len(rel)))
    variant = Variant(gain=gain, discount=discount, log_base=log_base, idcg="judged" if extra else "list",
                      k=None if k is None else int(k), ties="stable")  # refuses a bad gain, discount or base
    return Task("ranking", "", Exercise(seed=0, difficulty="easy", labels=labels, grades=tuple(rel), scores=None,
                                        unretrieved=tuple(extra), variant=variant, decimals=int(decimals)))


def state_of(ok: bool, mistakes) -> str:
    """A stored verdict's state (``ok`` and its kinds, as a tuple or the stored comma list); see
    :meth:`metrics.lessons.diagnose.Verdict.from_stored`.

    >>> state_of(True, ()), state_of(False, "truncation"), state_of(False, "carried_forward:dcg")
    ('right', 'wrong', 'carried_forward')
    >>> state_of(False, "")
    'unfinished'
    """
    kinds = mistakes if isinstance(mistakes, str) else ",".join(mistakes)
    return Verdict.from_stored(ok, kinds).state


def verdict(d: Diagnosis, field: str) -> Verdict:
    """The verdict on answered ``field`` in diagnosis ``d``: :meth:`metrics.lessons.diagnose.Diagnosis.verdict`,
    the one every page, the grid, the first-try share, the spread, the mistakes table and the CSV show.

    >>> t = example_task("003-blog")  # DCG 6.8611; the terms below add up to 6.86, not 6.861
    >>> verdict(t.check({"terms": "3 1.26 1.5 0 0.39 0.71", "dcg": "6.861"}), "dcg")
    Verdict(state='right', mistakes=(), carried_from=(), notes=('self_inconsistent_sum',))
    >>> verdict(t.check({"terms": "3 1.26"}), "terms").state  # right so far, positions 3-6 missing
    'unfinished'
    >>> verdict(t.check({"terms": "3 1.26 1.6 0 0.39 0.71", "dcg": "6.96"}), "dcg").carried_from
    ('terms',)
    """
    if field not in STEP_OF_FIELD:
        raise ValueError(f"field must be one of {', '.join(FIELDS)}, got {str(field)[:20]!r}")
    v = d.verdict(field)
    if v is None:
        raise ValueError(f"{field} was not answered")
    return v


@lru_cache(maxsize=4096)
def value_verdict(task: Task, field: str, text: str) -> Verdict:
    """The verdict on one answer value on its own (no other field given).  Right or not depends on the value
    alone (it is judged against the exercise's value), so it agrees with every stored verdict on that value
    as to right or not — never as to *why*: a value can be carried forward from the student's own earlier
    mistake, which only the whole sheet shows (the spread chart counts the stored verdicts,
    :func:`classroom.stats.spread`).  Kept as the tests' oracle for "right or not".  Unreadable text is
    wrong (a slip).

    >>> t = example_task("003-blog")
    >>> value_verdict(t, "dcg", "6.86").mark, value_verdict(t, "dcg", "6.8").mark
    ('✓', '✗')
    """
    try:
        return verdict(task.check({field: text}), field)
    except ValueError:
        return Verdict("wrong", ("arithmetic_slip",))
