"""Vectorised many-query NDCG: hand-derived values, equality with the single-list functions for every
variant, and cross-checks against pytrec_eval-terrier (``ndcg``, ``ndcg_cut``) and ranx (``ndcg``,
``ndcg_burges``) on the shipped sample data and on generated runs.
"""
from __future__ import annotations

import math
from math import log2
from pathlib import Path

import numba  # noqa: F401  (pinned: a broken install must fail, not skip)
import numpy as np
import pytest
import ranx
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from metrics.ndcg import ndcg_from_scores
from metrics.registry import DISCOUNTS, GAINS, TIES
from metrics.runfiles.batch import (
    IDCG,
    evaluate,
    kendall_tau,
    make_variants,
    ndcg_per_query,
    query_lists,
)
from metrics.runfiles.read import id_strings, read_qrels, read_run
from metrics.variant import Variant
from tests.metrics.conftest import PROPERTY, RTOL, ranx_ids

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"
SAMPLE_RUNS = sorted(SAMPLES.glob("*.run"))
approx = lambda x: pytest.approx(x, rel=RTOL, abs=1e-12)  # noqa: E731


# ------------------------------------------------------------------------------------------ helpers
@pytest.fixture(params=["numpy", "numba"])
def engine(request, monkeypatch):
    """Run a test with the numpy kernels on dictionary codes (integer-packed ids included) and again
    with the numba kernels on the bytes of plain-string document ids."""
    import metrics.runfiles._kernels as kernels
    import metrics.runfiles.read as runs

    if request.param == "numba":
        monkeypatch.setattr(kernels, "NUMBA_MIN_ROWS", 0)
        monkeypatch.setattr(runs, "_PACK_MIN_ROWS", 0)
    else:
        monkeypatch.setattr(kernels, "NUMBA_MIN_ROWS", 10**15)
    return request.param


def qrels_bytes(qrels: dict) -> bytes:
    return "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()).encode()


def run_bytes(run: dict, tag: str = "sys") -> bytes:
    lines = []
    for q, docs in run.items():
        for i, (d, s) in enumerate(docs.items(), start=1):
            lines.append(f"{q} Q0 {d} {i} {s!r} {tag}\n")
    return "".join(lines).encode()


def tables(qrels: dict, runs: dict):
    qt = read_qrels(qrels_bytes(qrels), name="qrels").table
    rts = [read_run(run_bytes(r, name), name=name).table for name, r in runs.items()]
    return qt, rts


def generate(seed: int, *, n_queries=30, n_docs=60, depth=25, ties=True, grades=4, negative=False, prefix="d"):
    """Random qrels + 2 runs: judged docs not retrieved, unjudged retrieved, tied scores, a query only
    in the run, a qrels query with no run documents."""
    rng = np.random.default_rng(seed)
    qrels, runs = {}, {"a": {}, "b": {}}
    for qi in range(n_queries):
        q = f"q{qi}"
        docs = rng.choice(n_docs, size=rng.integers(1, 20), replace=False)
        qrels[q] = {f"{prefix}{d:03d}": int(rng.integers(-1 if negative else 0, grades)) for d in docs}
        for name in runs:
            if qi == 0 and name == "b":
                continue  # run b does not answer q0
            retrieved = rng.choice(n_docs, size=rng.integers(1, depth), replace=False)
            scores = rng.integers(0, 6, size=retrieved.size) / 2 if ties else rng.permutation(retrieved.size) + 0.5
            rng.shuffle(retrieved)
            runs[name][q] = {f"{prefix}{d:03d}": float(s) for d, s in zip(retrieved, scores)}
    for name in runs:
        runs[name]["extra"] = {"d001": 1.0}  # not in the qrels: ignored
    return qrels, runs


def single(qrels: dict, run_q: dict, q: str, v: Variant, k) -> float:
    """The single-list value: grades in file order, scores, docnos, pool from the qrels."""
    docnos = list(run_q)
    judged = qrels[q]
    rel = [max(judged.get(d, 0), 0) for d in docnos]
    pool = [max(g, 0) for g in judged.values()] if v.idcg == "judged" else None
    return ndcg_from_scores(rel, [run_q[d] for d in docnos], k=k, gain=v.gain, discount=v.discount,
                            pool=pool, ties=v.ties, docnos=docnos if v.ties == "trec_eval" else None)


# ------------------------------------------------------------------------------------------ hand-derived
def test_hand_example_all_idcg_sources_and_ties():
    # q1 judged: a=3, b=2, c=1.  Run: b 0.9, x 0.5 (unjudged), a 0.5, c 0.1.
    qt, (rt,) = tables({"q1": {"a": 3, "b": 2, "c": 1}}, {"r": {"q1": {"b": 0.9, "x": 0.5, "a": 0.5, "c": 0.1}}})
    ev = evaluate(qt, [rt], k=None, variants=make_variants(gains=["linear"], discounts=["standard"],
                                                           ties=["trec_eval", "average"]))
    m = ev.means().loc["r"]
    # trec_eval ties: x and a tie at 0.5, docno descending puts x before a: b, x, a, c
    dcg_te = 2 / log2(2) + 0 / log2(3) + 3 / log2(4) + 1 / log2(5)
    # average: x and a share (0 + 3) / 2 over positions 2 and 3
    dcg_avg = 2 / log2(2) + 1.5 * (1 / log2(3) + 1 / log2(4)) + 1 / log2(5)
    idcg = 3 / log2(2) + 2 / log2(3) + 1 / log2(4)  # judged and list coincide: all judged docs retrieved
    assert m["linear/standard/judged/trec_eval"] == approx(dcg_te / idcg)
    assert m["linear/standard/list/trec_eval"] == approx(dcg_te / idcg)
    assert m["linear/standard/judged/average"] == approx(dcg_avg / idcg)


def test_judged_ideal_counts_unretrieved_documents_and_cut_at_k():
    # judged a=1, b=3, c=3, d=2; run retrieves a then b.  (The probe in the brief: trec_eval ndcg_cut.)
    qt, (rt,) = tables({"q": {"a": 1, "b": 3, "c": 3, "d": 2}}, {"r": {"q": {"a": 2.0, "b": 1.0}}})
    v = make_variants(gains=["linear"], discounts=["standard"], idcg=["judged", "list"], ties=["trec_eval"])
    m1 = evaluate(qt, [rt], k=1, variants=v).means().loc["r"]
    m2 = evaluate(qt, [rt], k=2, variants=v).means().loc["r"]
    mall = evaluate(qt, [rt], k=None, variants=v).means().loc["r"]
    assert m1["linear/standard/judged/trec_eval"] == approx(1 / 3)  # DCG@1 = 1, ideal@1 = 3
    assert m2["linear/standard/judged/trec_eval"] == approx((1 + 3 / log2(3)) / (3 + 3 / log2(3)))
    assert mall["linear/standard/judged/trec_eval"] == approx(
        (1 + 3 / log2(3)) / (3 + 3 / log2(3) + 2 / log2(4) + 1 / log2(5)))
    # list ideal: the retrieved grades 1, 3 re-sorted -> 3, 1
    assert m2["linear/standard/list/trec_eval"] == approx((1 + 3 / log2(3)) / (3 + 1 / log2(3)))


def test_negative_grades_count_as_zero_and_relevance_level():
    # a=2, b=-1, c=1 ranked b, a, c: b counts 0 (trec_eval), so DCG = 2/log2(3) + 1/2, IDCG = 2 + 1/log2(3)
    qt, (rt,) = tables({"q": {"a": 2, "b": -1, "c": 1}}, {"r": {"q": {"b": 3.0, "a": 2.0, "c": 1.0}}})
    v = make_variants(gains=["linear"], discounts=["standard"], idcg=["judged"], ties=["trec_eval"])
    assert evaluate(qt, [rt], variants=v).means().iloc[0, 0] == approx((2 / log2(3) + 1 / 2) / (2 + 1 / log2(3)))
    # relevance_level=2: c (grade 1) counts 0 as well: DCG = 2/log2(3), IDCG = 2
    assert evaluate(qt, [rt], variants=v, relevance_level=2).means().iloc[0, 0] == approx((2 / log2(3)) / 2)


def test_query_without_relevant_documents_scores_zero():
    qt, (rt,) = tables({"q": {"a": 0}, "p": {"a": 1}}, {"r": {"q": {"a": 1.0}, "p": {"a": 1.0}}})
    ev = evaluate(qt, [rt], variants=make_variants(gains=["linear"], discounts=["standard"], idcg=["judged"],
                                                   ties=["trec_eval"]))
    per = ev.per_query().set_index("qid").iloc[:, -1]
    assert per["q"] == 0.0 and per["p"] == 1.0


# ------------------------------------------------------------------------- equality with single-list functions
@pytest.mark.parametrize("k", [None, 1, 10])
@pytest.mark.parametrize("seed, prefix", [(0, "d"), (1, "document-")])
def test_equal_to_single_list_functions_every_variant(seed, prefix, k, engine):
    qrels, runs = generate(seed, prefix=prefix)
    qt, rts = tables(qrels, runs)
    variants = make_variants(ties=list(TIES))
    assert len(variants) == len(GAINS) * len(DISCOUNTS) * len(IDCG) * len(TIES)
    ev = evaluate(qt, rts, k=k, variants=variants)
    per = ev.per_query().set_index(["run", "qid"])
    checked = 0
    for name, run in runs.items():
        for q in qrels:
            if q not in run:
                assert (name, q) not in per.index
                continue
            for v in variants:
                assert per.loc[(name, q), v.label] == approx(single(qrels, run[q], q, v, k)), (name, q, v.label)
                checked += 1
    assert checked > 1000


@PROPERTY
@given(
    lists=st.lists(
        st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)), min_size=1, max_size=9), min_size=1, max_size=5),
    k=st.one_of(st.none(), st.integers(1, 10)),
    gain=st.sampled_from(list(GAINS)),
    discount=st.sampled_from(list(DISCOUNTS)),
    ties=st.sampled_from(list(TIES)),
    base=st.sampled_from([2, 10, math.e, 1.5]),
)
def test_ndcg_per_query_matches_ndcg_from_scores(lists, k, gain, discount, ties, base):
    query = np.concatenate([[i] * len(items) for i, items in enumerate(lists)])
    rel = [g for items in lists for g, _ in items]
    score = [s / 2 for items in lists for _, s in items]
    docnos = [f"d{j}" for j in range(len(rel))]
    got = ndcg_per_query(query, rel, score, k=k, gain=gain, discount=discount, ties=ties, log_base=base,
                         docnos=docnos)
    start = 0
    for i, items in enumerate(lists):
        end = start + len(items)
        want = ndcg_from_scores(rel[start:end], score[start:end], k=k, gain=gain, discount=discount,
                                log_base=base, ties=ties, docnos=docnos[start:end])
        assert got[i] == approx(want)
        start = end


def test_ndcg_per_query_judged_pool_and_missing_query():
    # q0: grades 0, 3 ranked; pool holds 3 and an unretrieved 2.  q1: no items -> NaN.
    got = ndcg_per_query([0, 0], [0, 3], [0.9, 0.1], idcg="judged", pool_query=[0, 0], pool=[3, 2], n_queries=2)
    assert got[0] == approx((3 / log2(3)) / (3 + 2 / log2(3)))
    assert math.isnan(got[1])


def test_ndcg_per_query_validation():
    with pytest.raises(ValueError, match="docnos"):
        ndcg_per_query([0], [1], [1.0], ties="trec_eval")
    with pytest.raises(ValueError, match="pool"):
        ndcg_per_query([0], [1], [1.0], idcg="judged")
    with pytest.raises(ValueError, match="same length"):
        ndcg_per_query([0, 0], [1], [1.0])
    with pytest.raises(ValueError, match="scores at position 2"):
        ndcg_per_query([0, 0], [1, 1], [1.0, float("nan")])
    with pytest.raises(ValueError, match="unknown gain 'cubic'; valid names are 'linear'"):
        ndcg_per_query([0], [1], [1.0], gain="cubic")
    with pytest.raises(ValueError, match="k must be >= 1"):
        ndcg_per_query([0], [1], [1.0], k=0)


# ------------------------------------------------------------------------- trec_eval / ranx cross-checks
def _as_dicts(qt, rt):
    qrels, run = {}, {}
    for q, d, g in zip(qt.qid.dictionary_decode().to_pylist(), id_strings(qt.docno).to_pylist(), qt.value):
        qrels.setdefault(q, {})[d] = int(g)
    for q, d, s in zip(rt.qid.dictionary_decode().to_pylist(), id_strings(rt.docno).to_pylist(), rt.value):
        run.setdefault(q, {})[d] = float(s)
    return qrels, run


def _check_trec_eval(qt, rts, ks=(None, 1, 5, 10, 20)):
    import pytrec_eval

    for k in ks:
        v = make_variants(gains=["linear"], discounts=["standard"], idcg=["judged"], ties=["trec_eval"])
        per = evaluate(qt, rts, k=k, variants=v).per_query().set_index(["run", "qid"])
        measure = "ndcg" if k is None else f"ndcg_cut.{k}"
        key = "ndcg" if k is None else f"ndcg_cut_{k}"
        for rt in rts:
            qrels, run = _as_dicts(qt, rt)
            want = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
            assert want, "pytrec_eval evaluated nothing"
            got = per.loc[rt.name].iloc[:, 0]
            assert sorted(got.index) == sorted(want)  # same queries: qrels ∩ run
            for q, vals in want.items():
                assert got[q] == approx(vals[key]), (rt.name, q, k)


def _check_ranx(qt, rts, ks=(None, 1, 5, 10)):
    for k in ks:
        v = make_variants(gains=["linear", "exponential"], discounts=["standard"], idcg=["judged"],
                          ties=["trec_eval"])
        ev = evaluate(qt, rts, k=k, variants=v, missing="zero")
        per = ev.per_query().set_index(["run", "qid"])
        suffix = "" if k is None else f"@{k}"
        for rt in rts:
            qrels, run = ranx_ids(*_as_dicts(qt, rt))
            r = ranx.Run({q: docs for q, docs in run.items() if q in qrels})
            got = ranx.evaluate(ranx.Qrels(qrels), r, [f"ndcg{suffix}", f"ndcg_burges{suffix}"],
                                return_mean=False, make_comparable=True)
            for metric, gain in ((f"ndcg{suffix}", "linear"), (f"ndcg_burges{suffix}", "exponential")):
                ours = per.loc[rt.name][f"{gain}/standard/judged/trec_eval"]
                theirs = dict(zip(sorted(qrels), got[metric]))  # ranx sorts query ids
                for q in qrels:
                    assert ours[q] == approx(theirs[q]), (rt.name, q, metric)


@pytest.mark.parametrize("seed", [3, 4])
def test_equal_to_pytrec_eval_on_generated_runs_with_ties(seed, engine):
    qrels, runs = generate(seed, ties=True, negative=True, prefix="D" if seed % 2 else "doc-long-")
    _check_trec_eval(*tables(qrels, runs))


def test_equal_to_pytrec_eval_on_sample_data():
    assert SAMPLE_RUNS, f"the sample runs travel with the repository ({SAMPLES}); they are missing"
    qt = read_qrels(SAMPLES / "qrels.txt").table
    _check_trec_eval(qt, [read_run(p).table for p in SAMPLE_RUNS])


@pytest.mark.slow
@pytest.mark.ranx
@pytest.mark.parametrize("seed", [6, 7])
def test_equal_to_ranx_on_generated_runs(seed):
    # ranx breaks score ties arbitrarily (numba argsort), so scores are distinct within a query here.
    qrels, runs = generate(seed, ties=False)
    _check_ranx(*tables(qrels, runs))


@pytest.mark.slow
@pytest.mark.ranx
def test_equal_to_ranx_on_sample_data_where_ties_do_not_matter():
    assert SAMPLE_RUNS, f"the sample runs travel with the repository ({SAMPLES}); they are missing"
    qt = read_qrels(SAMPLES / "qrels.txt").table
    rts = [read_run(p).table for p in SAMPLE_RUNS]
    ev = evaluate(qt, rts, variants=make_variants(discounts=["standard"], idcg=["judged"]))
    # Only where trec_eval and average ties agree is the order of tied documents irrelevant.
    per = ev.per_query()
    same = np.isclose(per["linear/standard/judged/trec_eval"], per["linear/standard/judged/average"], rtol=0,
                      atol=1e-15)
    assert same.any()
    for rt in rts:
        qrels, run = ranx_ids(*_as_dicts(qt, rt))
        got = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), ["ndcg", "ndcg_burges"], return_mean=False,
                            make_comparable=True)
        theirs = {m: dict(zip(sorted(qrels), got[m])) for m in got}
        mine = per[(per["run"] == rt.name) & same].set_index("qid")
        for q in mine.index:
            assert mine.loc[q, "linear/standard/judged/trec_eval"] == approx(theirs["ndcg"][q])
            assert mine.loc[q, "exponential/standard/judged/trec_eval"] == approx(theirs["ndcg_burges"][q])


# ------------------------------------------------------------------------------------------ Evaluation API
def test_missing_policy_and_problems():
    qrels, runs = generate(8)
    qt, rts = tables(qrels, runs)
    v = make_variants(gains=["linear"], discounts=["standard"], idcg=["judged"], ties=["trec_eval"])
    skip = evaluate(qt, rts, variants=v, missing="skip")
    zero = evaluate(qt, rts, variants=v, missing="zero")
    n = len(qrels)
    assert skip.n_queries().to_dict() == {"a": n, "b": n - 1}
    assert zero.n_queries().to_dict() == {"a": n, "b": n}
    # b's mean with q0 = 0 added: sum / n instead of sum / (n - 1)
    assert zero.means().loc["b"].iloc[0] == approx(skip.means().loc["b"].iloc[0] * (n - 1) / n)
    kinds = sorted((p.file, p.kind) for p in skip.problems)
    assert kinds == [("a", "missing_in_qrels"), ("b", "missing_in_qrels"), ("b", "missing_in_run")]
    first = [p for p in skip.problems if p.kind == "missing_in_qrels"][0]
    assert first.params["example"] == "extra" and "not in the qrels" in first.message


def test_orders_winner_tau_and_disagreements():
    # Two runs on one query: A puts the grade-3 doc first, B puts two grade-2 docs first.
    qrels = {"q": {"x": 3, "y": 2, "z": 2}}
    runs = {"A": {"q": {"x": 3.0, "n1": 2.0, "n2": 1.0}}, "B": {"q": {"y": 3.0, "z": 2.0, "n1": 1.0}}}
    qt, rts = tables(qrels, runs)
    ev = evaluate(qt, rts, k=3, variants=make_variants(gains=["linear", "exponential"], discounts=["standard"],
                                                       idcg=["judged"], ties=["trec_eval"]))
    m = ev.means()
    # linear: A = 3, B = 2 + 2/log2(3) = 3.26 -> B wins; exponential: A = 7, B = 3 + 3/log2(3) = 4.89 -> A wins
    assert m.loc["B", "linear/standard/judged/trec_eval"] > m.loc["A", "linear/standard/judged/trec_eval"]
    assert ev.order("exponential/standard/judged/trec_eval") == ["A", "B"]
    assert ev.winner_changes()
    orders = ev.orders().set_index("variant")
    assert orders.loc["linear/standard/judged/trec_eval", "winner"] == "B"
    tau = ev.tau()
    assert tau.iloc[0, 1] == -1.0 and tau.iloc[0, 0] == 1.0
    dis = ev.disagreements("linear/standard/judged/trec_eval", "exponential/standard/judged/trec_eval", n=5)
    assert list(dis["run"]) == ["B", "A"] or list(dis["run"]) == ["A", "B"]
    assert (dis["difference"].diff().dropna() <= 0).all()
    spread = ev.disagreements("linear/standard/judged/trec_eval", n=1)
    assert spread["difference"].iloc[0] == pytest.approx(spread["max"].iloc[0] - spread["min"].iloc[0])
    with pytest.raises(ValueError, match="was not evaluated"):
        ev.order("binary/standard/judged/trec_eval")
    with pytest.raises(ValueError, match="n must be"):
        ev.disagreements("linear/standard/judged/trec_eval", n=0)


def test_kendall_tau_matches_scipy():
    rng = np.random.default_rng(0)
    for _ in range(50):
        n = int(rng.integers(2, 12))
        x, y = rng.integers(0, 4, n), rng.integers(0, 4, n)
        want = scipy_stats.kendalltau(x, y).statistic
        got = kendall_tau(x, y)
        assert (math.isnan(want) and math.isnan(got)) or got == pytest.approx(want, rel=1e-12)


def test_kendall_tau_hand_values():
    # (1,2,3) vs (1,3,2): pairs (1,2)+ (1,3)+ (2,3)-: (2 - 1) / 3
    assert kendall_tau([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)
    assert kendall_tau([1, 2], [2, 1]) == -1.0
    assert math.isnan(kendall_tau([1, 1], [1, 2]))
    with pytest.raises(ValueError, match="same length"):
        kendall_tau([1, 2], [1])


def test_make_variants_and_validation():
    assert len(make_variants()) == len(GAINS) * len(DISCOUNTS) * len(IDCG) * 2
    assert Variant.parse("linear/jarvelin/list/average") == Variant(gain="linear", discount="jarvelin", idcg="list",
                                                                    ties="average")
    with pytest.raises(ValueError, match="unknown idcg source 'pool'; valid names are 'list', 'judged'"):
        make_variants(idcg=["pool"])
    with pytest.raises(ValueError, match="gain/discount/idcg/ties"):
        Variant.parse("linear/standard")
    qrels, runs = generate(9)
    qt, rts = tables(qrels, runs)
    with pytest.raises(ValueError, match="unknown missing 'drop'"):
        evaluate(qt, rts, missing="drop")
    with pytest.raises(ValueError, match="run 1 is not the table of a run file"):
        evaluate(qt, [qt])
    with pytest.raises(ValueError, match="distinct"):
        evaluate(qt, [rts[0], rts[0]])
    with pytest.raises(ValueError, match="relevance_level"):
        evaluate(qt, rts, relevance_level="high")


def test_unsorted_run_file_gives_the_same_values(engine):
    qrels, runs = generate(10)
    qt, (ra, _) = tables(qrels, runs)
    lines = run_bytes(runs["a"], "a").decode().splitlines(keepends=True)
    rng = np.random.default_rng(1)
    shuffled = "".join(lines[i] for i in rng.permutation(len(lines))).encode()
    rs = read_run(shuffled, name="a").table
    v = make_variants(ties=list(TIES))
    # "stable" and "ranx" (numba's quicksort over the documents in file order) follow file order, which
    # shuffling changes; every other rule must not move.
    v = [x for x in v if x.ties not in ("stable", "ranx")]
    a = evaluate(qt, [ra], variants=v).values
    b = evaluate(qt, [rs], variants=v).values
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def test_query_lists_ranks_like_trec_eval_and_gives_the_pool(engine):
    qt, (rt,) = tables({"q1": {"a": 3, "b": 2, "c": 1}}, {"r": {"q1": {"b": 0.9, "a": 0.5, "x": 0.5}}})
    got = query_lists(qt, rt, "q1")
    assert got["docnos"] == ["b", "x", "a"]  # x > a: docno descending within the tie
    assert got["grades"].tolist() == [2.0, 0.0, 3.0]
    assert got["pool"].tolist() == [3.0, 2.0, 1.0]
    assert got["unretrieved"].tolist() == [1.0] and got["unretrieved_docnos"] == ["c"]
    assert query_lists(qt, rt, "nope")["grades"].size == 0


# ------------------------------------------------------------------------------------------ kernels
@pytest.mark.parametrize("engine_name", ["numpy", "numba"])
def test_kernels_agree_with_plain_python(engine_name, monkeypatch):
    import metrics.runfiles._kernels as kernels

    monkeypatch.setattr(kernels, "NUMBA_MIN_ROWS", 0 if engine_name == "numba" else 10**15)
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 50, 20_000).astype(np.uint64) * np.uint64(2**40)  # large keys, many repeats
    codes, first = kernels.factorize_u64(keys)
    seen = {}
    want = [seen.setdefault(int(k), len(seen)) for k in keys]
    assert codes.tolist() == want
    assert first.tolist() == [want.index(c) for c in range(len(seen))]
    q = np.repeat(np.arange(100), 10)
    d = np.tile(np.arange(10), 100)
    assert not kernels.has_duplicate_pairs(q, d, 10)
    d2 = d.copy()
    d2[555] = d2[554]
    assert kernels.has_duplicate_pairs(q, d2, 10)
    # grades: query 3 judges doc 4 (grade 2) and doc 7 (grade 1); query 5 judges doc 4 (grade 3)
    got = kernels.lookup_grades(q, d, 10, np.array([3, 3, 5]), np.array([4, 7, 4]), np.array([2.0, 1.0, 3.0]), 100)
    want = np.zeros(1000)
    want[34], want[37], want[54] = 2.0, 1.0, 3.0
    np.testing.assert_array_equal(got, want)
