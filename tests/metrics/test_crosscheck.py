"""Cross-checks against scikit-learn, trec_eval (pytrec_eval-terrier) and ranx on seeded random input.

What each library computes (checked in the installed sources):

* scikit-learn 1.9 ``dcg_score(y_true, y_score, k, log_base, ignore_ties=False)``: linear gain,
  divisor log_b(i + 1), ties in ``y_score`` averaged (McSherry & Najork), positions past k weigh 0.
  ``ndcg_score`` has *no* ``log_base`` (it cancels) and its IDCG is ``y_true`` re-sorted: no pool.
  -> ``dcg`` / ``ndcg_from_scores(ties="average")`` without a pool.
* trec_eval 9 ``ndcg`` / ``ndcg_cut.k``: linear gain (the qrels grade), divisor log2(i + 1); the run is
  sorted by score descending, ties by docno descending (strcmp); retrieved docs not in the qrels have
  gain 0; the ideal ranking is every judged document sorted by grade (the pool), over the whole pool
  for ``ndcg`` and cut at k for ``ndcg_cut.k`` (the ideal is cut at k even when fewer than k docs
  were retrieved).  -> ``ndcg_from_scores(pool=..., ties="trec_eval", docnos=...)``.
* ranx 0.3 ``ndcg`` (linear, Järvelin) and ``ndcg_burges`` (2^rel - 1): IDCG from the relevant qrels
  sorted, cut at k; without k the whole run and the whole qrels.  Ties in the run are not specified,
  so the run scores here are distinct.

All comparisons are relative, 1e-9 (zeros must be exactly zero); the observed differences are a few
ulps (<= 2e-16 absolute) since every implementation sums the same float64 terms.
"""
from __future__ import annotations

import math
import time
import warnings

import numpy as np
import pytest

from metrics.ndcg import dcg, idcg, ndcg, ndcg_from_scores
from tests.metrics.conftest import RTOL, close, ranx_ids

N_CASES = 300


def _report(mismatches: list) -> str:
    return f"{len(mismatches)} mismatches, first: {mismatches[:3]}"


# --------------------------------------------------------------------------------------------
# scikit-learn
# --------------------------------------------------------------------------------------------
import sklearn.metrics as sklearn_metrics  # noqa: E402 - pinned: a broken install must fail, not skip


def _sk_cases(seed: int):
    rng = np.random.default_rng(seed)
    for case in range(N_CASES):
        n = int(rng.integers(2, 16))  # sklearn's ndcg_score needs more than one document
        rel = rng.integers(0, 5, n).astype(float) if case % 2 else np.round(rng.random(n) * 4, 3)
        # few distinct score values -> many ties
        scores = rng.integers(0, 4, n).astype(float) if case % 3 else rng.normal(size=n)
        k = None if case % 4 == 0 else int(rng.integers(1, n + 4))  # k may exceed n
        base = [2, 10, math.e, 3.5, 1.5, 0.5][case % 6]
        yield case, rel, scores, k, base


def test_sklearn_ndcg_score_with_ties_and_k():
    mismatches = []
    for case, rel, scores, k, _ in _sk_cases(1):
        theirs = sklearn_metrics.ndcg_score([rel], [scores], k=k)
        ours = ndcg_from_scores(rel, scores, k=k, ties="average")
        if not close(ours, theirs):
            mismatches.append((case, rel.tolist(), scores.tolist(), k, ours, theirs))
    assert not mismatches, _report(mismatches)


def test_sklearn_dcg_score_with_log_base_no_ties():
    # distinct scores: DCG of the list in score order
    mismatches = []
    for case, rel, _, k, base in _sk_cases(2):
        scores = np.random.default_rng(case).permutation(rel.size).astype(float)
        order = np.argsort(-scores)
        theirs = sklearn_metrics.dcg_score([rel], [scores], k=k, log_base=base)
        ours = dcg(rel[order], k=k, log_base=base)
        if not close(ours, theirs):
            mismatches.append((case, rel.tolist(), scores.tolist(), k, base, ours, theirs))
    assert not mismatches, _report(mismatches)


def test_sklearn_dcg_score_with_log_base_and_ties():
    # We have no tie-averaged DCG function, but NDCG(average) * IDCG is exactly that, for any base.
    mismatches, compared = [], 0
    for case, rel, scores, k, base in _sk_cases(3):
        theirs = sklearn_metrics.dcg_score([rel], [scores], k=k, log_base=base)
        best = idcg(rel, k=k, log_base=base)
        ours = ndcg_from_scores(rel, scores, k=k, log_base=base) * best
        compared += best != 0
        if not math.isclose(ours, theirs, rel_tol=RTOL, abs_tol=0):
            mismatches.append((case, rel.tolist(), scores.tolist(), k, base, ours, theirs))
    assert not mismatches, _report(mismatches)
    assert compared > N_CASES * 0.9


def test_sklearn_document_002():
    # Wikipedia's example, scores giving the list order: 0.9608 in both
    rel = [3, 2, 3, 0, 1, 2]
    theirs = sklearn_metrics.ndcg_score([rel], [[6, 5, 4, 3, 2, 1]])
    assert close(ndcg(rel), theirs)
    assert round(theirs, 4) == 0.9608


# --------------------------------------------------------------------------------------------
# trec_eval through pytrec_eval
# --------------------------------------------------------------------------------------------
import pytrec_eval  # noqa: E402 - pinned: a broken install must fail, not skip


def _random_query(rng):
    """30 docs d00..d29: 1-14 judged with grades 0-4, 1-19 retrieved (some judged, some not)."""
    docs = [f"d{j:02d}" for j in range(30)]
    rng.shuffle(docs)
    n_judged = int(rng.integers(1, 15))
    judged = {d: int(g) for d, g in zip(docs[:n_judged], rng.integers(0, 5, n_judged))}
    n_ret = int(rng.integers(1, 20))
    return judged, [str(d) for d in rng.choice(docs, n_ret, replace=False)]


def _trec_cases(seed: int, *, tied: bool):
    """Queries with judged-but-unretrieved docs, retrieved-but-unjudged docs, and (optionally) tied scores."""
    rng = np.random.default_rng(seed)
    for case in range(N_CASES):
        judged, retrieved = _random_query(rng)
        n_ret = len(retrieved)
        if tied:
            scores = rng.integers(0, 3, n_ret).astype(float)
        else:
            scores = rng.permutation(n_ret).astype(float) + rng.random()
        yield case, judged, retrieved, scores


def _trec_eval(judged, retrieved, scores, measures=("ndcg", "ndcg_cut.5,10")):
    evaluator = pytrec_eval.RelevanceEvaluator({"q": judged}, set(measures))
    return evaluator.evaluate({"q": dict(zip(retrieved, map(float, scores)))})["q"]


@pytest.mark.parametrize("tied", [False, True], ids=["distinct-scores", "tied-scores"])
def test_trec_eval_ndcg_and_ndcg_cut(tied):
    mismatches, checked = [], 0
    for case, judged, retrieved, scores in _trec_cases(10 + tied, tied=tied):
        result = _trec_eval(judged, retrieved, scores)
        rel = [judged.get(d, 0) for d in retrieved]  # unjudged retrieved docs count as 0
        pool = list(judged.values())  # every judged doc, retrieved or not
        for measure, k in [("ndcg", None), ("ndcg_cut_5", 5), ("ndcg_cut_10", 10)]:
            rules = ["trec_eval"] + ([] if tied else ["average", "optimistic", "stable"])
            for rule in rules:
                ours = ndcg_from_scores(rel, scores, k=k, pool=pool, ties=rule, docnos=retrieved)
                checked += 1
                if not close(ours, result[measure]):
                    mismatches.append((case, measure, rule, rel, scores.tolist(), pool, ours, result[measure]))
    assert not mismatches, _report(mismatches)
    assert checked >= 3 * N_CASES


def test_trec_eval_ties_really_differ_from_other_rules():
    # Guard against a vacuous tie test: on tied runs trec_eval's docno order must matter somewhere,
    # i.e. "stable" (input order) disagrees with trec_eval on some cases while ties="trec_eval" agrees.
    differs = 0
    for _case, judged, retrieved, scores in _trec_cases(11, tied=True):
        rel = [judged.get(d, 0) for d in retrieved]
        pool = list(judged.values())
        result = _trec_eval(judged, retrieved, scores)["ndcg"]
        stable = ndcg_from_scores(rel, scores, pool=pool, ties="stable")
        differs += not close(stable, result)
    assert differs > N_CASES // 10


def test_trec_eval_documents_001_003():
    # 8 judged docs (grades 3,2,3,0,1,2 retrieved + 3,0 not), 6 retrieved in this order.
    judged = {"m1": 3, "m2": 2, "m3": 3, "m4": 0, "m5": 1, "m6": 2, "m7": 3, "m8": 0}
    retrieved = ["m1", "m2", "m3", "m4", "m5", "m6"]
    scores = [6, 5, 4, 3, 2, 1]
    result = _trec_eval(judged, retrieved, scores, measures=("ndcg", "ndcg_cut.6"))
    expected = ndcg([3, 2, 3, 0, 1, 2], k=6, pool=list(judged.values()))
    assert close(result["ndcg_cut_6"], expected) and close(result["ndcg"], expected)
    assert round(expected, 5) == 0.81835


def test_trec_eval_ideal_is_cut_at_k_even_when_fewer_retrieved():
    # One retrieved doc (grade 1), pool 3, 3, 1: ndcg_cut.5's ideal is 3, 3, 1 (not cut to 1 doc).
    judged = {"a": 1, "b": 3, "c": 3}
    result = _trec_eval(judged, ["a"], [1.0], measures=("ndcg_cut.1,5",))
    # @5: DCG 1; IDCG 3 + 3/log2 3 + 1/2.  @1: 1/3
    assert close(result["ndcg_cut_5"], 1 / (3 + 3 / math.log2(3) + 1 / 2))
    assert close(result["ndcg_cut_5"], ndcg([1], k=5, pool=[1, 3, 3]))
    assert close(result["ndcg_cut_1"], ndcg([1], k=1, pool=[1, 3, 3])) and close(result["ndcg_cut_1"], 1 / 3)


# --------------------------------------------------------------------------------------------
# ranx
# --------------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.ranx
def test_ranx_ndcg_and_ndcg_burges():
    import ranx

    rng = np.random.default_rng(20)
    qrels, run, expected = {}, {}, {}
    n_queries = 80  # batched into one Qrels/Run: ranx JIT-compiles with numba once per metric
    for q in range(n_queries):
        judged, retrieved = _random_query(rng)
        n_ret = len(retrieved)
        scores = rng.permutation(n_ret).astype(float) + 1.0  # distinct
        qid = f"q{q:03d}"
        qrels[qid], run[qid] = judged, dict(zip(retrieved, scores.tolist()))
        rel = [judged.get(d, 0) for d in retrieved]
        pool = list(judged.values())
        expected[qid] = {
            "ndcg": ndcg_from_scores(rel, scores, pool=pool),
            "ndcg@5": ndcg_from_scores(rel, scores, k=5, pool=pool),
            "ndcg_burges": ndcg_from_scores(rel, scores, pool=pool, gain="exponential"),
            "ndcg_burges@5": ndcg_from_scores(rel, scores, k=5, pool=pool, gain="exponential"),
        }
    start = time.perf_counter()
    fixed_qrels, fixed_run = ranx_ids(qrels, run)
    q, r = ranx.Qrels(fixed_qrels), ranx.Run(fixed_run)
    with warnings.catch_warnings():  # numba's type-safety warnings are about ranx, not us
        warnings.simplefilter("ignore")
        result = ranx.evaluate(q, r, list(expected["q000"]), return_mean=False, make_comparable=True)
    elapsed = time.perf_counter() - start
    keys = list(q.keys())
    assert len(keys) == n_queries
    mismatches = []
    for metric, values in result.items():
        for qid, theirs in zip(keys, values):
            if not close(expected[qid][metric], float(theirs)):
                mismatches.append((qid, metric, expected[qid][metric], float(theirs)))
    assert not mismatches, _report(mismatches) + f" (ranx took {elapsed:.1f}s)"

