"""What lets Spark use the single-machine kernel: a query's values do not depend on the other queries it is
evaluated with.  Evaluating any partition of the queries, block by block, gives the same bits as the whole
file for every measure (no Spark needed here; tests/metrics/runfiles/test_spark.py runs the real thing)."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from metrics.runfiles.measures import cumsum_by_segment
from metrics.runfiles.read import read_qrels, read_run
from metrics.runfiles.trec import evaluate_runs
from tests.metrics.conftest import PROPERTY
from tests.metrics.runfiles.reference import generate, qrels_bytes, run_bytes

MEASURES = ["all_trec", "judged.1,5,10", "err.3,10", "rbp.p=0.8", "rbp_resid.p=0.5", "ndcg.0=0,1=1,2=5,3=2",
            "ndcg_rel.0=0,1=3,2=1", "Rndcg", "G.1=2,3=1"]


def by_query(result):
    """{(run, name, qid): value} for every query the run answered (and each text value)."""
    out = {}
    for run in result.runs:
        for name, values in {**run.values, **run.texts}.items():
            for qid, v, present in zip(result.queries, values, run.present):
                if present:
                    out[(run.name, name, qid)] = v
    return out


def subset(qrels: dict, run: dict, queries: set):
    return ({q: d for q, d in qrels.items() if q in queries}, {q: d for q, d in run.items() if q in queries})


def evaluate(qrels: dict, run: dict, **opts):
    q = read_qrels(qrels_bytes(qrels), name="qrels").table
    r = read_run(run_bytes(run), name="run").table
    return evaluate_runs(q, [r], MEASURES, err_gmax=4, **opts)


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), parts=st.integers(2, 5), level=st.integers(0, 3),
       judged_only=st.booleans(), max_docs=st.one_of(st.none(), st.integers(1, 30)))
def test_any_partition_of_the_queries_gives_the_same_bits(seed, parts, level, judged_only, max_docs):
    qrels, run = generate(seed, n_queries=12, n_docs=80, max_judged=30, max_ret=60)
    opts = {"relevance_level": level, "judged_only": judged_only, "max_docs": max_docs}
    whole = by_query(evaluate(qrels, run, **opts))
    rng = np.random.default_rng(seed)
    label = {q: int(rng.integers(parts)) for q in qrels}
    pieces = {}
    for p in range(parts):
        chosen = {q for q, lab in label.items() if lab == p}
        if chosen & set(run):
            pieces.update(by_query(evaluate(*subset(qrels, run, chosen), **opts)))
    assert pieces.keys() == whole.keys()
    different = {k: (whole[k], pieces[k]) for k in whole if not (whole[k] == pieces[k] or whole[k] != whole[k])}
    assert different == {}


def test_running_sums_restart_from_zero_in_every_segment():
    # 1e16 + 1 + 1 loses each 1 (ulp of 1e16 is 2), so a global cumsum minus the sum before a segment
    # gives 0 for the second segment's first value instead of 1; restarting at 0 gives 1 and 2.
    values = np.array([1e16, 1.0, 1.0, 1.0])
    assert (np.cumsum(values) - np.r_[0, 0, np.cumsum(values)[1], np.cumsum(values)[1]])[2:].tolist() == [0.0, 0.0]
    assert cumsum_by_segment(values, np.array([0, 2])).tolist() == [1e16, 1e16, 1.0, 2.0]


@PROPERTY
@given(st.lists(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=40), min_size=1, max_size=30))
def test_running_sums_equal_a_loop_per_segment(segments):
    values = np.array([v for s in segments for v in s])
    starts = np.cumsum([0] + [len(s) for s in segments[:-1]])
    expected = []
    for s in segments:
        total = 0.0
        for v in s:
            total += v
            expected.append(total)
    assert cumsum_by_segment(values, starts).tolist() == expected
