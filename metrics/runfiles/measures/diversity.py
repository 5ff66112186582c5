"""Diversity kernels: the intent-aware measures of ndeval (TREC Web track, version 4.5) as pyndeval -- and so
ir_measures -- computes them: alpha-DCG, alpha-nDCG, ERR-IA, nERR-IA, NRBP, nNRBP, MAP-IA, P-IA and
subtopic recall.

Diversity qrels judge each document per subtopic (``qid subtopic docno rel``).  At a relevance level
``rel`` a judgment counts 1 when its grade is >= rel, else 0 (ndeval's judgments are binary).  A
query's S subtopics are those with at least one relevant document.  Reading a ranking, the i-th time a
subtopic is met it gains ``(1 - alpha)^(i - 1)`` (the novelty discount); a document's gain is the sum
over its relevant subtopics, added in subtopic order (the order in which subtopic ids first appear in
the qrels).  Then, for a ranking of documents ``d_1, d_2, ...`` with gains ``G_1, G_2, ...``:

* alpha-DCG@k ``= sum_{i<=k} G_i / log2(i + 1)`` divided by ``sum_{i<=k} S (1 - alpha)^(i-1) / log2(i + 1)``
  (ndeval's "ideal ideal": every subtopic at every rank); at k = 1 ndeval does not divide (it prints G_1);
* ERR-IA@k the same with ``1/i`` for ``1/log2(i + 1)``;
* alpha-nDCG@k and nERR-IA@k divide by the same measure of an ideal ranking, which ndeval builds
  greedily (each next document the one with the largest gain given the documents before it, ties to the
  largest document id) over every judged document -- an approximation: the best ordering is NP-hard;
* NRBP ``= (1 - (1 - alpha) beta) / S * sum_i G_i beta^(i-1)`` over the whole run, nNRBP ``= NRBP /
  NRBP(ideal)`` (0/0 = NaN for a query without relevant documents, as ndeval prints);
* P-IA@k ``= (relevant (document, subtopic) pairs in the top k) / (k S)``; StRecall@k ``= (subtopics
  covered by the top k) / S``; MAP-IA the mean over subtopics of each subtopic's average precision.

ndeval evaluates to depth 20 (``DEPTH``): the cutoffs of alpha-nDCG and the others go from 1 to 20.
The run is ranked by score, ties by document id ascending (pyndeval's sort).

Two documents, the first relevant to subtopics a and b, the second to a: gains 2 and 0.5 at alpha 0.5.

>>> lists_gains = novelty_gains(np.array([0, 0]), np.array([0, 0, 1]), np.array([0, 1, 0]), alpha=0.5)
>>> lists_gains.tolist()
[2.0, 0.5]
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .lists import Lists, block_positions, query_count, query_sum

__all__ = ["DEPTH", "SubtopicJudgments", "diversity", "greedy_ideal", "novelty_gains"]

#: ndeval's DEPTH: the deepest cutoff of its cutoff measures.
DEPTH = 20


@dataclass(frozen=True)
class SubtopicJudgments:
    """The judgments of diversity qrels, aligned with the qrels table's lines (one line per query and
    document, the engine's qrels).

    Parameters
    ----------
    line : numpy.ndarray of int
        For each judgment: the qrels line of its (query, document).
    subtopic : numpy.ndarray of int
        Its subtopic, numbered in the order subtopic ids first appear in the file (ndeval adds a
        document's subtopic gains in that order).
    grade : numpy.ndarray of float
        Its grade.
    docrank : numpy.ndarray of int
        For each qrels line: the byte order of its document id among all ids (ties in ndeval's ideal
        ranking go to the largest).

    Examples
    --------
    >>> s = SubtopicJudgments(np.array([0, 0, 1]), np.array([0, 1, 0]), np.array([1.0, 0.0, 2.0]), np.array([0, 1]))
    >>> s.relevant(1)[0].tolist(), s.relevant(2)[0].tolist()
    ([0, 1], [1])
    """

    line: np.ndarray
    subtopic: np.ndarray
    grade: np.ndarray
    docrank: np.ndarray

    def relevant(self, rel: int) -> tuple[np.ndarray, np.ndarray]:
        """(line, subtopic) of the judgments with a grade >= ``rel``, sorted by line then subtopic."""
        keep = np.flatnonzero(self.grade >= rel)
        order = np.lexsort((self.subtopic[keep], self.line[keep]))
        return self.line[keep][order], self.subtopic[keep][order]


def novelty_gains(doc_q: np.ndarray, pair_doc: np.ndarray, pair_subtopic: np.ndarray, *, alpha: float) -> np.ndarray:
    """Each document's gain with the novelty discount: the sum over its relevant subtopics of
    ``(1 - alpha)^(times the subtopic was met before, higher in the ranking)``.

    Parameters
    ----------
    doc_q : numpy.ndarray of int
        The query of each document, documents in rank order within each query.
    pair_doc, pair_subtopic : numpy.ndarray of int
        (document, subtopic) of each relevant judgment, sorted by document then subtopic.
    alpha : float
        The redundancy penalty (0: none; 1: a subtopic counts once).

    Returns
    -------
    numpy.ndarray of float64
        One gain per document.

    Examples
    --------
    Three documents covering {a}, {a, b}, {a}: a gains 1, 0.5, 0.25; b gains 1.

    >>> novelty_gains(np.zeros(3, int), np.array([0, 1, 1, 2]), np.array([0, 0, 1, 0]), alpha=0.5).tolist()
    [1.0, 1.5, 0.25]
    """
    if not pair_doc.size:
        return np.zeros(doc_q.size)
    q = doc_q[pair_doc]
    order = np.lexsort((pair_doc, pair_subtopic, q))  # by query, subtopic, rank
    key = np.stack([q[order], pair_subtopic[order]])
    new = np.r_[True, (key[:, 1:] != key[:, :-1]).any(axis=0)]
    seen = np.empty(order.size, dtype=np.int64)
    seen[order] = np.arange(order.size) - np.maximum.accumulate(np.where(new, np.arange(order.size), 0))
    gain = np.power(1.0 - alpha, seen.astype(np.float64))
    return np.bincount(pair_doc, weights=gain, minlength=doc_q.size)


def greedy_ideal(cand_q: np.ndarray, cand_rank: np.ndarray, pair_cand: np.ndarray, pair_subtopic: np.ndarray, *,
                 alpha: float) -> np.ndarray:
    """ndeval's ideal ranking: repeatedly the candidate with the largest novelty gain given those already
    placed (ties to the largest document id), for every query at once.

    Parameters
    ----------
    cand_q : numpy.ndarray of int
        The query of each candidate document (one with at least one relevant subtopic).
    cand_rank : numpy.ndarray of int
        Its document id's byte order (larger wins a tie).
    pair_cand, pair_subtopic : numpy.ndarray of int
        (candidate, subtopic) of each relevant judgment, sorted by candidate then subtopic.
    alpha : float
        The redundancy penalty.

    Returns
    -------
    numpy.ndarray of int64
        Each candidate's 1-based position in its query's ideal ranking.

    Examples
    --------
    Candidates {a, b}, {a}, {c}: first {a, b} (gain 2), then {c} (1) before {a} (0.5).

    >>> greedy_ideal(np.zeros(3, int), np.array([0, 1, 2]), np.array([0, 0, 1, 2]), np.array([0, 1, 0, 2]),
    ...              alpha=0.5).tolist()
    [1, 3, 2]
    """
    n = cand_q.size
    place = np.zeros(n, dtype=np.int64)
    if not n:
        return place
    nq = int(cand_q.max()) + 1
    key_q = cand_q[pair_cand]
    _, slot = np.unique(np.stack([key_q, pair_subtopic]), axis=1, return_inverse=True)
    slot = slot.ravel()
    seen = np.zeros(int(slot.max()) + 1, dtype=np.float64)
    left = np.ones(n, dtype=bool)
    step = 0
    while left.any():
        step += 1
        pairs = np.flatnonzero(left[pair_cand])
        score = np.bincount(pair_cand[pairs], weights=np.power(1.0 - alpha, seen[slot[pairs]]), minlength=n)
        alive = np.flatnonzero(left)
        best = np.full(nq, -np.inf)
        np.maximum.at(best, cand_q[alive], score[alive])
        top = alive[score[alive] == best[cand_q[alive]]]
        pick_rank = np.full(nq, -1, dtype=np.int64)
        np.maximum.at(pick_rank, cand_q[top], cand_rank[top])
        chosen = top[cand_rank[top] == pick_rank[cand_q[top]]]
        place[chosen] = step
        left[chosen] = False
        hit = np.flatnonzero(np.isin(pair_cand, chosen))
        np.add.at(seen, slot[hit], 1.0)
    return place


def _discount(i: np.ndarray) -> np.ndarray:
    """ndeval's discount(i) for 0-based ranks: 1 at rank 0, log(2) / log(i + 2) after."""
    out = np.ones(i.shape)
    out[i > 0] = math.log(2.0) / np.log(i[i > 0] + 2.0)
    return out


def _depth_sums(q: np.ndarray, pos: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """(n, DEPTH) running sums over ranks 1..DEPTH of per-document values."""
    grid = np.zeros((n, DEPTH))
    inside = pos <= DEPTH
    np.add.at(grid, (q[inside], pos[inside] - 1), values[inside])
    return np.cumsum(grid, axis=1)


@dataclass(frozen=True)
class _Ranked:
    dcg: np.ndarray  # (n, DEPTH), normalised by the ideal ideal from rank 2 on
    err: np.ndarray
    nrbp: np.ndarray


def _measure(q, pos, gains, s, alpha, beta, n) -> _Ranked:
    i = np.arange(DEPTH, dtype=np.float64)
    ideal_gain = np.power(1.0 - alpha, i)
    dcg = _depth_sums(q, pos, gains * _discount(pos - 1), n)
    err = _depth_sums(q, pos, gains / pos.astype(np.float64), n)
    with np.errstate(divide="ignore", invalid="ignore"):
        dcg[:, 1:] /= np.cumsum(s[:, None] * ideal_gain * _discount(i.astype(np.int64)), axis=1)[:, 1:]
        err[:, 1:] /= np.cumsum(s[:, None] * ideal_gain / (i + 1.0), axis=1)[:, 1:]
    dcg[s == 0] = 0.0
    err[s == 0] = 0.0
    nrbp = query_sum(q, gains * np.power(beta, (pos - 1).astype(np.float64)), n)
    with np.errstate(divide="ignore", invalid="ignore"):
        nrbp = np.where(s > 0, nrbp * ((1 - (1 - alpha) * beta) / s), 0.0)
    return _Ranked(dcg, err, nrbp)


def diversity(lists: Lists, *, measure: str, cutoff: int | None = None, rel: int = 1, alpha: float = 0.5,
              beta: float = 0.5, judged_only: bool = False) -> np.ndarray:
    """One of ndeval's measures for every query (see the module's description).

    Parameters
    ----------
    lists : Lists
        The run's lists, ties by document id ascending, from diversity qrels (``lists.subtopics`` and
        ``lists.qrow`` set by the engine).
    measure : str
        ``alpha_DCG``, ``alpha_nDCG``, ``ERR_IA``, ``nERR_IA``, ``NRBP``, ``nNRBP``, ``AP_IA``, ``P_IA`` or
        ``StRecall``.
    cutoff : int, optional
        1 to :data:`DEPTH` (the measures with a cutoff need one).
    rel : int, default 1
        The lowest relevant grade.
    alpha, beta : float, default 0.5
        Redundancy penalty and patience (NRBP).
    judged_only : bool, default False
        Drop the documents the qrels do not list before ranking (pyndeval's judged_only filter).

    Returns
    -------
    numpy.ndarray of float64

    Raises
    ------
    ValueError
        If the lists carry no subtopic judgments.

    Examples
    --------
    >>> from .lists import JudgedGrades
    >>> s = SubtopicJudgments(np.array([0, 0, 1]), np.array([0, 1, 0]), np.array([1.0, 1.0, 1.0]), np.array([0, 1]))
    >>> lists = Lists(q=[0, 0], pos=[1, 2], code=[1, 1], n=1, levels=([0], [1], [2]), qrow=[1, 0],
    ...               judged=JudgedGrades([0, 0], [1.0, 1.0]), subtopics=s)
    >>> round(float(diversity(lists, measure="alpha_nDCG", cutoff=2)[0]), 4)  # 1 + 1.5/log2 3 over 2 + 0.5/log2 3
    0.8406
    """
    sub = lists.subtopics
    if sub is None or lists.qrow is None:
        raise ValueError(f"{measure} needs diversity qrels (qid subtopic docno rel): read them with "
                         "metrics.runfiles.read_subtopic_qrels")
    n = lists.n
    q, pos, qrow = lists.q, lists.pos, lists.qrow
    if judged_only:
        pos = block_positions(q)
    line, subtopic = sub.relevant(rel)
    line_q = lists.judged.q
    # the query's subtopics (S) and each subtopic's relevant documents
    pair_q = line_q[line]
    key, per = np.unique(np.stack([pair_q, subtopic]), axis=1, return_counts=True)
    s = query_count(key[0], n).astype(np.float64)
    # the run: each document's relevant subtopics
    row_of_line = np.full(line_q.size, -1, dtype=np.int64)
    row_of_line[qrow] = np.arange(q.size)
    run_pairs = row_of_line[line]
    keep = run_pairs >= 0
    pair_row, pair_sub = run_pairs[keep], subtopic[keep]
    order = np.lexsort((pair_sub, pair_row))
    pair_row, pair_sub = pair_row[order], pair_sub[order]
    if measure in ("P_IA", "StRecall", "AP_IA"):
        return _set_measures(measure, q, pos, pair_row, pair_sub, s, key, per, cutoff, n)
    gains = novelty_gains(q, pair_row, pair_sub, alpha=alpha)
    run = _measure(q, pos, gains, s, alpha, beta, n)
    if measure in ("alpha_DCG", "ERR_IA", "NRBP"):
        return run.nrbp if measure == "NRBP" else (run.dcg if measure == "alpha_DCG" else run.err)[:, cutoff - 1]
    # the ideal ranking over the judged documents with a relevant subtopic
    cand_line, first = np.unique(line, return_index=True)
    cand_of_line = np.full(line_q.size, -1, dtype=np.int64)
    cand_of_line[cand_line] = np.arange(cand_line.size)
    cand_q = line_q[cand_line]
    place = greedy_ideal(cand_q, sub.docrank[cand_line], cand_of_line[line], subtopic, alpha=alpha)
    iorder = np.lexsort((place, cand_q))
    ideal_pos = np.empty_like(place)
    ideal_pos[iorder] = block_positions(cand_q[iorder])
    igains = novelty_gains(cand_q[iorder], np.argsort(iorder)[cand_of_line[line]], subtopic, alpha=alpha) \
        if line.size else np.zeros(0)
    ideal = _measure(cand_q[iorder], ideal_pos[iorder], igains, s, alpha, beta, n)
    if measure == "nNRBP":
        with np.errstate(divide="ignore", invalid="ignore"):
            return run.nrbp / ideal.nrbp  # 0 / 0 = NaN for a query without relevant documents, as ndeval
    top, best = (run.dcg, ideal.dcg) if measure == "alpha_nDCG" else (run.err, ideal.err)
    k = cutoff - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(run.dcg[:, k] != 0, top[:, k] / best[:, k], 0.0)


def _set_measures(measure, q, pos, pair_row, pair_sub, s, key, per, cutoff, n) -> np.ndarray:
    pq = q[pair_row]
    ppos = pos[pair_row]
    if measure == "P_IA":
        inside = ppos <= cutoff
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(s > 0, query_count(pq[inside], n) / (cutoff * s), 0.0)
    if measure == "StRecall":
        inside = ppos <= cutoff
        covered = np.unique(np.stack([pq[inside], pair_sub[inside]]), axis=1) if inside.any() \
            else np.zeros((2, 0), np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(s > 0, query_count(covered[0], n) / s, 0.0)
    # AP_IA: per subtopic, precision at each of its relevant documents (in rank order), over its relevant count
    order = np.lexsort((ppos, pair_sub, pq))
    pq, psub, ppos = pq[order], pair_sub[order], ppos[order]
    k = block_positions(pq * (int(psub.max()) + 1 if psub.size else 1) + psub)
    total = np.zeros(key.shape[1])
    idx = _slot(key, pq, psub)
    np.add.at(total, idx, k / ppos.astype(np.float64))
    per_sub = total / per
    out = query_sum(key[0], per_sub, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(s > 0, out / s, 0.0)


def _slot(key: np.ndarray, q: np.ndarray, sub: np.ndarray) -> np.ndarray:
    """The column of ``key`` (sorted (query, subtopic) pairs) of each (q, sub)."""
    width = int(max(key[1].max(initial=0), sub.max(initial=0))) + 1
    return np.searchsorted(key[0] * width + key[1], q * width + sub)
