"""The diversity lesson: alpha-nDCG step by step (Clarke et al., SIGIR 2008), with the numbers of ndeval.

A query has several subtopics (intents); each document covers some of them.  Reading the ranking from the
top, the ``n``-th time a subtopic appears it gains ``(1 - alpha)^(n - 1)``: the first time 1, then less
and less -- the *novelty discount*, which makes a ranking that covers every subtopic early beat one that
repeats the same subtopic.  A document's gain is the sum over its subtopics; alpha-DCG@k discounts the
gains by ``1 / log2(rank + 1)`` as DCG does; alpha-nDCG@k divides by the alpha-DCG@k of an ideal ranking.
Finding the best ranking is NP-hard, so ndeval (and ir_measures, through pyndeval) builds it greedily:
each next document is the one with the largest gain given those already placed, a tie going to the
document whose id sorts last.  With ``alpha = 0`` nothing is discounted and alpha-nDCG is plain NDCG
with each document's grade = the number of subtopics it covers.

Every number here is the run-file engine's (:mod:`metrics.runfiles.measures.diversity`, which agrees with
pyndeval to 1e-15): :func:`alpha_ndcg` builds the one-query lists and asks the engine; the step tables
show the same gains.

>>> ranking, missed = [{"a"}, {"a"}, {"b"}], [{"c"}]
>>> round(alpha_ndcg(ranking, missed, alpha=0.5, k=3)["alpha_ndcg"], 4)   # 1.8155 / 2.1309
0.852
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from .._validation import check_real, check_whole
from ..ndcg import ndcg
from ..runfiles.measures.diversity import DEPTH, SubtopicJudgments, diversity, greedy_ideal, novelty_gains
from ..runfiles.measures.lists import JudgedGrades, Lists

__all__ = ["BEST_ORDER_MAX", "MAX_DOCS", "alpha_ndcg", "alpha_sweep", "best_order", "doc_names", "greedy_table",
           "novelty_table", "plain_ndcg"]

#: Documents in the ranking (and, separately, judged documents it missed) at most: ndeval's depth.
MAX_DOCS = DEPTH
#: Pools up to this size are also searched exhaustively for the best order (8! = 40,320 orders).
BEST_ORDER_MAX = 8


def doc_names(n_ranked: int, n_missed: int) -> list[str]:
    """The lesson's document ids: D01, D02, ... for the ranking, then on for the documents it missed (ids that
    sort as they count, so ndeval's tie rule -- the id that sorts last -- is the highest number).

    Parameters
    ----------
    n_ranked, n_missed : int
        How many documents each list has.

    Returns
    -------
    list of str

    Examples
    --------
    >>> doc_names(2, 1)
    ['D01', 'D02', 'D03']
    """
    return [f"D{i:02d}" for i in range(1, n_ranked + n_missed + 1)]


def _check(ranking, missed, alpha, k):
    ranking = [frozenset(s) for s in ranking]
    missed = [frozenset(s) for s in missed]
    if len(ranking) > MAX_DOCS or len(missed) > MAX_DOCS:
        raise ValueError(f"ranking and missed take at most {MAX_DOCS} documents each, got {len(ranking)} and "
                         f"{len(missed)}")
    alpha = check_real(alpha, name="alpha", minimum=0.0)
    if alpha > 1.0:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha!r}")
    k = check_whole(k, name="k", minimum=1, maximum=DEPTH)
    return ranking, missed, alpha, k


def _codes(pool: Sequence[frozenset]) -> dict[str, int]:
    return {s: i for i, s in enumerate(sorted(set().union(*pool)))} if pool else {}


def _pairs(docs: Sequence[frozenset], codes: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    rows = [(i, codes[s]) for i, d in enumerate(docs) for s in sorted(d)]
    arr = np.array(rows, dtype=np.int64).reshape(-1, 2)
    return arr[:, 0], arr[:, 1]


def novelty_table(ranking: Sequence[Iterable[str]], *, alpha: float, k: int = DEPTH) -> pd.DataFrame:
    """The ranking step by step: each document's subtopics, how often each was seen above it, its gain
    with the novelty discount, the rank discount and the running alpha-DCG.

    Parameters
    ----------
    ranking : sequence of sets of str
        Each ranked document's subtopics, top first (an empty set: it covers none).
    alpha : float
        The redundancy penalty, 0 to 1.
    k : int, default 20
        Rows up to this rank (1 to 20).

    Returns
    -------
    pandas.DataFrame
        ``rank, doc, subtopics, seen`` (``{subtopic: times seen above}``), ``gain``, ``plain_gain`` (the number
        of subtopics), ``discount`` (``1 / log2(rank + 1)``), ``discounted`` and ``alpha_dcg``.

    Raises
    ------
    ValueError
        Naming alpha or k when out of range, or a ranking longer than 20.

    Examples
    --------
    Subtopic a at ranks 1 and 2: the second time it gains (1 - 0.5)^1.

    >>> table = novelty_table([{"a"}, {"a", "b"}], alpha=0.5)
    >>> table["gain"].tolist(), table["plain_gain"].tolist()
    ([1.0, 1.5], [1, 2])
    """
    ranking, _, alpha, k = _check(ranking, [], alpha, k)
    codes = _codes(ranking)
    doc, sub = _pairs(ranking, codes)
    gains = novelty_gains(np.zeros(len(ranking), dtype=np.int64), doc, sub, alpha=alpha)
    names = doc_names(len(ranking), 0)
    rows, seen, total = [], {s: 0 for s in codes}, 0.0
    for i, subtopics in enumerate(ranking[:k]):
        rank = i + 1
        discount = 1.0 / math.log2(rank + 1)
        total += gains[i] * discount
        rows.append({"rank": rank, "doc": names[i], "subtopics": "".join(sorted(subtopics)),
                     "seen": {s: seen[s] for s in sorted(subtopics)}, "gain": float(gains[i]),
                     "plain_gain": len(subtopics), "discount": discount, "discounted": gains[i] * discount,
                     "alpha_dcg": total})
        for s in subtopics:
            seen[s] += 1
    return pd.DataFrame(rows, columns=["rank", "doc", "subtopics", "seen", "gain", "plain_gain", "discount",
                                       "discounted", "alpha_dcg"])


def greedy_table(ranking: Sequence[Iterable[str]], missed: Sequence[Iterable[str]] = (), *,
                 alpha: float) -> pd.DataFrame:
    """ndeval's greedy ideal ordering of every judged document with a subtopic (the ranking's and the ones it
    missed), step by step: at each step the gain every remaining document would add, and the one chosen.

    Parameters
    ----------
    ranking, missed : sequences of sets of str
        The ranking's documents (D01, ...) and the judged documents it did not retrieve (numbered on).
    alpha : float
        The redundancy penalty, 0 to 1.

    Returns
    -------
    pandas.DataFrame
        ``step, doc, subtopics, gain, candidates`` (``{doc: gain}`` of every document still unplaced, the
        chosen one included).

    Examples
    --------
    >>> greedy_table([{"a"}, {"a", "b"}], [{"c"}], alpha=0.5)[["step", "doc", "gain"]].values.tolist()
    [[1, 'D02', 2.0], [2, 'D03', 1.0], [3, 'D01', 0.5]]
    """
    ranking, missed, alpha, _ = _check(ranking, missed, alpha, 1)
    pool = ranking + missed
    names = doc_names(len(ranking), len(missed))
    cand = [i for i, d in enumerate(pool) if d]
    if not cand:
        return pd.DataFrame(columns=["step", "doc", "subtopics", "gain", "candidates"])
    codes = _codes(pool)
    docs = [pool[i] for i in cand]
    doc, sub = _pairs(docs, codes)
    place = greedy_ideal(np.zeros(len(docs), dtype=np.int64), np.arange(len(docs)), doc, sub, alpha=alpha)
    order = np.argsort(place)
    rows, seen = [], {s: 0 for s in codes}
    left = list(range(len(docs)))
    for step, j in enumerate(order.tolist(), start=1):
        gain = {names[cand[x]]: sum((1 - alpha) ** seen[s] for s in docs[x]) for x in left}
        rows.append({"step": step, "doc": names[cand[j]], "subtopics": "".join(sorted(docs[j])),
                     "gain": gain[names[cand[j]]], "candidates": gain})
        left.remove(j)
        for s in docs[j]:
            seen[s] += 1
    return pd.DataFrame(rows, columns=["step", "doc", "subtopics", "gain", "candidates"])


def _lists(ranking, missed) -> Lists:
    pool = ranking + missed
    codes = _codes(pool)
    line, sub = _pairs(pool, codes)
    judgments = SubtopicJudgments(line, sub, np.ones(line.size), np.arange(len(pool)))
    grades = np.array([1.0 if d else 0.0 for d in pool])
    n = len(ranking)
    return Lists(q=np.zeros(n, dtype=np.int64), pos=np.arange(1, n + 1), code=grades[:n].astype(np.int64), n=1,
                 levels=(np.zeros(0, np.int64),) * 3, num_ret=[n], qrow=np.arange(n),
                 judged=JudgedGrades(np.zeros(len(pool), dtype=np.int64), grades), subtopics=judgments)


def alpha_ndcg(ranking: Sequence[Iterable[str]], missed: Sequence[Iterable[str]] = (), *, alpha: float,
               k: int) -> dict[str, float]:
    """alpha-DCG@k of the ranking, of ndeval's greedy ideal ranking, and their ratio alpha-nDCG@k.

    Parameters
    ----------
    ranking, missed : sequences of sets of str
        The ranking's documents, top first, and the judged documents it missed (the ideal may use them).
    alpha : float
        The redundancy penalty, 0 to 1.
    k : int
        The cutoff, 1 to 20.

    Returns
    -------
    dict
        ``alpha_dcg``, ``alpha_idcg`` (``sum G_i / log2(i + 1)`` to rank k) and ``alpha_ndcg`` (their ratio,
        0 when no document covers a subtopic) -- the value ndeval and ir_measures' ``alpha_nDCG(alpha=..)@k``
        give.

    Raises
    ------
    ValueError
        Naming alpha or k when out of range.

    Examples
    --------
    a, a, b ranked; c missed.  Gains 1, 0.5, 1: alpha-DCG@3 = 1 + 0.5/log2 3 + 1/2; the ideal a, b, c
    (each new): 1 + 1/log2 3 + 1/2.

    >>> v = alpha_ndcg([{"a"}, {"a"}, {"b"}], [{"c"}], alpha=0.5, k=3)
    >>> round(v["alpha_dcg"], 4), round(v["alpha_idcg"], 4)
    (1.8155, 2.1309)
    """
    ranking, missed, alpha, k = _check(ranking, missed, alpha, k)
    top = float(novelty_table(ranking, alpha=alpha, k=k)["discounted"].sum()) if ranking else 0.0
    steps = greedy_table(ranking, missed, alpha=alpha)
    best = float(sum(g / math.log2(i + 2) for i, g in enumerate(steps["gain"].tolist()[:k])))
    value = float(diversity(_lists(ranking, missed), measure="alpha_nDCG", cutoff=k, alpha=alpha)[0]) \
        if ranking else 0.0
    return {"alpha_dcg": top, "alpha_idcg": best, "alpha_ndcg": value}


def plain_ndcg(ranking: Sequence[Iterable[str]], missed: Sequence[Iterable[str]] = (), *, k: int) -> float:
    """NDCG@k of the same ranking with each document's grade = the number of subtopics it covers (the ideal
    from every judged document): alpha-nDCG@k at alpha = 0.

    Parameters
    ----------
    ranking, missed : sequences of sets of str
        As for :func:`alpha_ndcg`.
    k : int
        The cutoff, 1 to 20.

    Returns
    -------
    float

    Examples
    --------
    >>> round(plain_ndcg([{"a"}, {"a"}, {"b"}], [{"c"}], k=3), 4)
    1.0
    """
    ranking, missed, _, k = _check(ranking, missed, 0.0, k)
    grades = [len(d) for d in ranking]
    pool = grades + [len(d) for d in missed]
    return ndcg(grades, k=k, pool=pool) if grades else 0.0


def best_order(ranking: Sequence[Iterable[str]], missed: Sequence[Iterable[str]] = (), *, alpha: float,
               k: int) -> tuple[list[str], float] | None:
    """The best possible alpha-DCG@k over every order of the judged documents with a subtopic (exhaustive
    search; None beyond :data:`BEST_ORDER_MAX` of them): how close ndeval's greedy ideal comes.

    Parameters
    ----------
    ranking, missed : sequences of sets of str
        As for :func:`alpha_ndcg`.
    alpha : float
        The redundancy penalty, 0 to 1.
    k : int
        The cutoff, 1 to 20.

    Returns
    -------
    (list of str, float) or None
        The ids of one best order (its first k) and its alpha-DCG@k.

    Examples
    --------
    >>> best_order([{"a"}, {"a", "b"}], [{"c"}], alpha=0.5, k=2)
    (['D02', 'D03'], 2.6309297535714578)
    """
    ranking, missed, alpha, k = _check(ranking, missed, alpha, k)
    pool = ranking + missed
    names = doc_names(len(ranking), len(missed))
    cand = [i for i, d in enumerate(pool) if d]
    if len(cand) > BEST_ORDER_MAX:
        return None
    if not cand:
        return [], 0.0
    depth = min(k, len(cand))
    discount = [1.0 / math.log2(i + 2) for i in range(depth)]
    best, best_value = None, -1.0
    for order in itertools.permutations(cand, depth):
        seen: dict[str, int] = {}
        value = 0.0
        for i, j in enumerate(order):
            value += discount[i] * sum((1 - alpha) ** seen.get(s, 0) for s in pool[j])
            for s in pool[j]:
                seen[s] = seen.get(s, 0) + 1
        if value > best_value + 1e-12:
            best, best_value = order, value
    return [names[j] for j in best], best_value


def alpha_sweep(ranking: Sequence[Iterable[str]], missed: Sequence[Iterable[str]] = (), *, k: int,
                steps: int = 21) -> pd.DataFrame:
    """alpha-nDCG@k of the ranking for alpha from 0 to 1 (at 0: plain NDCG with grade = subtopics covered).

    Parameters
    ----------
    ranking, missed : sequences of sets of str
        As for :func:`alpha_ndcg`.
    k : int
        The cutoff, 1 to 20.
    steps : int, default 21
        Values of alpha, evenly spaced.

    Returns
    -------
    pandas.DataFrame
        ``alpha, alpha_ndcg``.

    Examples
    --------
    >>> alpha_sweep([{"a"}, {"a"}, {"b"}], [{"c"}], k=3, steps=3)["alpha"].tolist()
    [0.0, 0.5, 1.0]
    """
    steps = check_whole(steps, name="steps", minimum=2, maximum=201)
    alphas = np.linspace(0.0, 1.0, steps)
    values = [alpha_ndcg(ranking, missed, alpha=float(a), k=k)["alpha_ndcg"] for a in alphas]
    return pd.DataFrame({"alpha": alphas, "alpha_ndcg": values})

