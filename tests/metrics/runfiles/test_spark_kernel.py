"""metrics.runfiles.spark.bucket_kernel: the function Spark calls per bucket, called without Spark.

No Spark session here: the kernel takes Arrow tables.  Its per-query values equal the single-machine engine's
exactly, for the whole qrels and run in one bucket and for the queries split over several buckets (the
property that makes the Spark path's values the single machine's)."""
from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.runfiles.engine import trec_order
from metrics.runfiles.spark import bucket_kernel
from metrics.runfiles.trec import evaluate_runs
from tests.conftest import examples
from tests.metrics.runfiles.reference import generate, tables

MEASURES = ["all_trec", "err.5", "judged.3", "ndcg_rel", "rbp_resid.p=0.9", "relstring.4",
            "nDCG(ties=stable,gain=exponential)@5"]


def nulls(n: int) -> pa.Array:
    return pa.nulls(n, pa.string())


def arrow_rows(qrels: dict, run: dict) -> tuple[pa.Table, pa.Table]:
    """The columns evaluate_spark hands the kernel, rows in file order (``_row``)."""
    r = [(q, d, float(s)) for q, docs in run.items() for d, s in docs.items()]
    g = [(q, d, float(v)) for q, docs in qrels.items() for d, v in docs.items()]
    left = pa.table({"_run": pa.array([0] * len(r), pa.int32()), "qid": [x[0] for x in r],
                     "docno": [x[1] for x in r], "score": [x[2] for x in r], "tag": nulls(len(r)),
                     "_row": pa.array(range(len(r)), pa.int64()), "_bad": nulls(len(r)), "_line": nulls(len(r))})
    right = pa.table({"qid": [x[0] for x in g], "docno": [x[1] for x in g], "rel": [x[2] for x in g],
                      "_row": pa.array(range(len(g)), pa.int64()), "_bad": nulls(len(g)), "_line": nulls(len(g))})
    return left, right


def per_query(kernel, out: pa.Table) -> dict:
    """(qid, measure) -> value of the kernel's value rows (notes left out)."""
    values = out.filter(pc.is_null(out.column("note"))).to_pydict()
    got = {}
    for i, name in enumerate(kernel.names):
        for qid, v in zip(values["qid"], values[f"m{i}"]):
            got[(qid, name)] = v
    return got


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), parts=st.integers(1, 4), measure=st.sampled_from(MEASURES))
def test_values_equal_the_single_machine_whole_or_split_into_buckets(seed, parts, measure):
    qrels, run = generate(seed, n_queries=12, n_docs=40, max_judged=15, max_ret=30)
    measures = ["official", measure]
    q_table, r_table = tables(qrels, run)
    top = max((g for docs in qrels.values() for g in docs.values() if g >= 0), default=0)
    reference = evaluate_runs(q_table, [r_table], measures, err_gmax=float(top))
    frame = reference.frame()
    expected = {(q, m): v for q, m, v in zip(frame["qid"], frame["measure"], frame["value"]) if q != "all"}
    kernel = bucket_kernel(measures, err_gmax=float(top))
    # queries dealt to `parts` buckets (every row of a query in one bucket, on both sides)
    queries = sorted(set(qrels) | set(run))
    bucket_of = {q: (i * 7 + seed) % parts for i, q in enumerate(queries)}
    got = {}
    for b in range(parts):
        left, right = arrow_rows({q: d for q, d in qrels.items() if bucket_of[q] == b},
                                 {q: d for q, d in run.items() if bucket_of[q] == b})
        got.update(per_query(kernel, kernel(left, right)))
    # the kernel also returns the inputs of summaries that print no per-query line (gm_map's, num_q, ...)
    printed = {m for _q, m in expected}
    assert printed <= set(kernel.names)
    got = {k: v for k, v in got.items() if k[1] in printed}
    wanted = expected
    assert wanted, "the reference has per-query values of the requested measures"
    assert got.keys() == wanted.keys()
    differ = {k: (got[k], wanted[k]) for k in wanted if not same(got[k], wanted[k])}
    assert not differ


def test_a_hand_checked_bucket():
    # q1 ranks a (rel 1), b (unjudged), c (rel 2): AP = (1/1 + 2/3) / 2 = 5/6, P@5 = 2/5 = 0.4;
    # q2 ranks x (rel 0) only, judged y (rel 1) not retrieved: AP = 0, P@5 = 0
    kernel = bucket_kernel(["map", "P.5"], runs=["bm25"])
    left, right = arrow_rows({"q1": {"a": 1, "c": 2}, "q2": {"x": 0, "y": 1}},
                             {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"x": 1.0}})
    values = per_query(kernel, kernel(left, right))
    assert kernel.names == ["map", "P_5"]
    assert values == {("q1", "map"): pytest.approx(5 / 6, abs=1e-15), ("q1", "P_5"): 0.4,
                      ("q2", "map"): 0.0, ("q2", "P_5"): 0.0}
    out = kernel(left, right)
    assert set(out.filter(pc.is_null(out.column("note"))).column("run").to_pylist()) == {"bm25"}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"measures": ["nope"]}, "nope"),
    ({"runs": []}, "runs must be a non-empty list of run names"),
    ({"runs": "bm25"}, "runs must be a non-empty list of run names (non-empty strings), got 'bm25'"),
    ({"runs": ["a", ""]}, "runs must be a non-empty list of run names (non-empty strings), got ['a', '']"),
    ({"max_docs": 0}, "max_docs must be a whole number >= 1 or None, got 0"),
    ({"skip_bad_lines": "yes"}, "skip_bad_lines must be True or False, got 'yes'"),
])
def test_bad_arguments_are_value_errors_naming_them(kwargs, message):
    with pytest.raises(ValueError) as err:
        bucket_kernel(**kwargs)
    assert message in str(err.value)


@settings(max_examples=examples(200), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 400), queries=st.sampled_from([1, 3, 40, 70_000]),
       layout=st.sampled_from(["sorted", "together", "long and short", "scattered"]), levels=st.integers(1, 6),
       nan=st.booleans())
def test_trec_order_ranks_by_query_then_score_then_document_as_trec_eval(seed, n, queries, layout, levels, nan):
    # the kernel's ranker (one sort per query when each query's rows are together, else numpy's lexsort, query
    # codes below 2^16 sorted as uint16) against Python's sort of trec_eval's key: query, score descending,
    # document id descending (comp_sim_docno), then input order.  Codes up to 70,000 cross the uint16
    # threshold, few score levels make ties; "together": each query's rows contiguous but the queries not in
    # code order; "long and short": one query holds most rows (the per-query sort would pad too much)
    rng = np.random.default_rng(seed)
    q = np.sort(rng.integers(0, queries, size=n))
    if layout == "together":  # the same blocks, codes relabelled: blocks no longer in code order
        q = rng.permutation(max(queries, 1))[q]
    elif layout == "long and short":
        q = np.sort(np.where(rng.random(n) < 0.8, 0, rng.integers(0, queries, size=n)))
    elif layout == "scattered":
        q = rng.integers(0, queries, size=n)
    q = q.astype(np.int64)
    score = rng.integers(0, levels, size=n).astype(np.float64) / levels
    if nan:  # a NaN sorts after every number (numpy's sorts and lexsort alike), NaNs in input order
        score[rng.random(n) < 0.1] = np.nan
    docrank = rng.permutation(n)  # distinct document ids' byte-order ranks
    # the queries' order: as given when the rows need no sorting (each query's rows together, scores already
    # descending), else by code
    together = 1 + int(np.count_nonzero(q[1:] != q[:-1])) == len(set(q.tolist()))
    ranked = bool(np.all((score[1:] <= score[:-1]) | (q[1:] != q[:-1])))  # (a NaN compares False)
    first = {}
    for i, code in enumerate(q.tolist()):
        first.setdefault(code, i)
    place = [first[c] if together and ranked else c for c in q.tolist()]
    key = np.where(np.isnan(score), np.inf, -score)  # NaN last
    order = trec_order(q, score, lambda rows: docrank[rows])
    got = list(range(n)) if order is None else order.tolist()
    # (NaN scores do not tie each other for the document order: NaN != NaN; they keep input order)
    assert got == sorted(range(n), key=lambda i: (place[i], key[i], -docrank[i] if not np.isnan(score[i]) else i))
    plain = trec_order(q, score, None)  # without document ids: ties keep input order
    got = list(range(n)) if plain is None else plain.tolist()
    assert got == sorted(range(n), key=lambda i: (place[i], key[i], i))
    # the same permutation as numpy's lexsort of (query, -score) (what the kernel computed before)
    assert got == (list(range(n)) if plain is None else np.lexsort((-score, q)).tolist())
