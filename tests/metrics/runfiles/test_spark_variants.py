"""The NDCG variants table on Spark (evaluate_variants_spark, ``--variants --spark``): the single machine's
Evaluation (metrics.runfiles.batch.evaluate) bit for bit, and the command line's output byte for byte, in every
variant option (cutoff, gains, discounts, IDCG sources, tie rules, log base, relevance level, missing queries,
per-query values, paired comparison, CSV)."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.runfiles import cli
from metrics.runfiles.batch import evaluate, make_variants
from metrics.runfiles.read import read_qrels, read_run
from metrics.runfiles.spark import evaluate_variants_spark
from tests.conftest import examples
from tests.metrics.runfiles.reference import generate, run_bytes

pytestmark = pytest.mark.spark

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"
QRELS = str(SAMPLES / "qrels.txt")
RUNS = [str(SAMPLES / f"{n}.run") for n in ("bm25", "dense", "hybrid")]


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("options", [
    ["--variants"],
    ["--k", "5", "--per-query", "--missing", "zero"],
    ["-c", "--k", "3", "--gain", "exponential", "binary", "--discount", "jarvelin", "--idcg", "list",
     "--ties", "stable", "ranx", "optimistic", "pessimistic", "--log-base", "10", "--relevance-level", "2",
     "--per-query", "--digits", "17"],
    ["--variants", "--compare", "linear/standard/judged/trec_eval", "--test", "t"],
], ids=["all 24", "k5 per-query zero", "-c gains ties base level 17 digits", "compare"])
def test_cli_variants_table_is_the_same_byte_for_byte(spark, tmp_path, options):
    files = [QRELS, *RUNS]
    code, out, _ = run_cli(files + options + ["--csv", str(tmp_path / "one.csv")])
    code_spark, out_spark, err = run_cli(files + ["--spark", "local[2]"] + options
                                         + ["--csv", str(tmp_path / "spark.csv")])
    assert code == code_spark == 0 and out_spark == out
    assert out.startswith("Mean NDCG") and out.count("\n") >= 6
    assert "evaluated on Spark (local[2])" in err
    per_query = (tmp_path / "spark.csv").read_text()
    assert per_query == (tmp_path / "one.csv").read_text() and per_query.count("\n") > 10


def same_evaluation(got, want) -> None:
    assert got.runs == want.runs and got.labels == want.labels and got.k == want.k and got.missing == want.missing
    assert got.queries.tolist() == want.queries.tolist()
    assert np.array_equal(got.present, want.present)
    assert np.array_equal(got.values, want.values, equal_nan=True)  # every bit of every value (NaN: n/a)
    pd.testing.assert_frame_equal(got.means(), want.means(), check_exact=True)
    pd.testing.assert_frame_equal(got.per_query(), want.per_query(), check_exact=True)


@settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), buckets=st.integers(1, 6), k=st.none() | st.integers(1, 12),
       missing=st.sampled_from(["skip", "zero"]), level=st.none() | st.sampled_from([0.5, 2.0, -1.0]),
       base=st.sampled_from([2.0, 10.0, 1.5]))
def test_random_qrels_and_runs_give_the_single_machines_evaluation(spark, seed, buckets, k, missing, level, base):
    # fractional and huge grades (2^1500 - 1 overflows: exponential variants are n/a there), ties, queries on
    # one side only, two runs
    qrels, run = generate(seed, n_queries=14, n_docs=40, max_judged=15, max_ret=30)
    rng = np.random.default_rng(seed)
    for docs in list(qrels.values())[::4]:
        first = next(iter(docs))
        docs[first] = float(rng.choice([0.5, 2.25, 1500.0]))
    other = {q: {d: -s for d, s in docs.items()} for q, docs in run.items() if sum(map(ord, q)) % 3}
    q_bytes = "".join(f"{q} 0 {d} {g!r}\n" for q, docs in qrels.items() for d, g in docs.items()).encode()
    q_table = read_qrels(q_bytes, name="qrels").table
    tables = [read_run(run_bytes(run), name="a").table, read_run(run_bytes(other), name="b").table]
    variants = make_variants(ties=["trec_eval", "average", "stable", "ranx"])
    want = evaluate(q_table, tables, k=k, variants=variants, log_base=base, relevance_level=level, missing=missing)
    q_df = spark.createDataFrame(pd.DataFrame(
        [(q, d, float(g)) for q, docs in qrels.items() for d, g in docs.items()], columns=["qid", "docno", "rel"]))
    r_df = spark.createDataFrame(pd.DataFrame(
        [(name, q, d, s) for name, r in (("a", run), ("b", other)) for q, docs in r.items() for d, s in docs.items()],
        columns=["run", "qid", "docno", "score"]))
    got = evaluate_variants_spark(q_df, r_df, k=k, variants=variants, log_base=base, relevance_level=level,
                                  missing=missing, spark=spark, buckets=buckets)
    same_evaluation(got, want)


def test_sample_files_read_by_spark_every_default_variant(spark):
    q = read_qrels(QRELS).table
    runs = [read_run(r).table for r in RUNS]
    want = evaluate(q, runs, k=10)
    got = evaluate_variants_spark(QRELS, RUNS, k=10, spark=spark)
    same_evaluation(got, want)
    assert len(got.labels) == 24 and got.runs == ["bm25.run", "dense.run", "hybrid.run"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"k": 0}, "k must be"),
    ({"log_base": 1}, "log_base"),
    ({"missing": "drop"}, "unknown missing 'drop'; valid names are 'skip', 'zero'"),
    ({"variants": []}, "variants must be a non-empty list of Variant"),
    ({"relevance_level": float("nan")}, "relevance_level"),
])
def test_bad_options_are_value_errors_before_spark_is_used(kwargs, message):
    with pytest.raises(ValueError, match=message):
        evaluate_variants_spark(QRELS, RUNS, **kwargs)
