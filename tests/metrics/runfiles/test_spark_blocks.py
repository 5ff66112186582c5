"""What lets Spark use the single-machine kernel: a query's values do not depend on the other queries it is
evaluated with.  Evaluating any partition of the queries, block by block, gives the same bits as the whole
file for every measure (no Spark needed here; tests/metrics/runfiles/test_spark.py runs the real thing)."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from metrics.runfiles.read import read_qrels, read_run
from metrics.runfiles.trec import evaluate_runs
from tests.metrics.conftest import PROPERTY
from tests.metrics.runfiles.reference import generate, qrels_bytes, run_bytes

MEASURES = ["all_trec", "judged.1,5,10", "err.3,10", "rbp.p=0.8", "rbp_resid.p=0.5", "ndcg.0=0,1=1,2=5,3=2",
            "ndcg_rel.0=0,1=3,2=1", "Rndcg", "G.1=2,3=1", "nDCG@5", "nDCG(gain=exponential,ties=average)@3",
            "nDCG(discount=jarvelin,idcg=list,ties=pessimistic)"]


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
