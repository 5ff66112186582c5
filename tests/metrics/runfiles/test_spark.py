"""metrics.runfiles.spark on a real local Spark: for the sample files and random qrels and runs, every measure
and option gives exactly the single-machine engine's values (per query and means, compared with ==), and
the command line's output with --spark is the same, byte for byte.  Spark is slow to start and to run a
job, so the examples are few; tests/metrics/runfiles/test_spark_blocks.py checks the property that makes
this work (a query's values do not depend on the other queries of its block) on many more."""
from __future__ import annotations

import contextlib
import io
import math
from decimal import Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.runfiles import cli
from metrics.runfiles.read import id_strings, read_files, read_qrels, read_run
from metrics.runfiles.spark import SparkEvaluation, evaluate_spark, read_spark
from metrics.runfiles.trec import evaluate_runs
from tests.conftest import examples
from tests.metrics.runfiles.conftest import JVM_OPTIONS
from tests.metrics.runfiles.reference import generate, qrels_bytes, run_bytes

pytestmark = pytest.mark.spark

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"
QRELS = str(SAMPLES / "qrels.txt")
RUNS = [str(SAMPLES / f"{n}.run") for n in ("bm25", "dense", "hybrid")]
#: Every family of measure the command line accepts: all of trec_eval's, the extras, parameters, gain maps.
EVERY = ["all_trec", "judged.1,5,10", "err.3,10", "rbp.p=0.8", "rbp_resid.p=0.5", "ndcg.0=0,1=1,2=5",
         "ndcg_cut.3,7", "ndcg_rel.0=0,1=3,2=1", "Rndcg", "G.1=2,2=1", "P.1,4", "success.2", "set_F.0.5",
         "utility.1,-1,0,0", "iprec_at_recall.0.25,0.75", "relstring.5",
         # the NDCG variants are measures of the same table; stable and ranx ties keep file order (_row)
         "nDCG@5", "nDCG(gain=exponential,ties=average)@10", "nDCG(ties=stable,idcg=list)",
         "nDCG(ties=ranx,discount=jarvelin,base=10)@3", "nDCG(ties=optimistic,level=2)@5"]
OPTIONS = [{}, {"complete": True, "num_docs_in_coll": 1000},
           {"judged_only": True, "max_docs": 5, "relevance_level": 2, "err_gmax": 3}]


def equal(a: pd.Series, b: pd.Series) -> pd.Series:
    """Exactly equal, NaN equal to NaN (trec_eval's iprec_at_recall of a query left without documents by -J)."""
    return (a == b) | (a.isna() & b.isna())


def same_as_single_machine(ev: SparkEvaluation, reference, *, frames: bool = True) -> None:
    """Spark's per-query rows, means and trec_eval text equal the single-machine result exactly."""
    ev.cache()
    got = ev.result()
    assert got.text(per_query=True) == reference.text(per_query=True)
    assert got.text(digits=17) == reference.text(digits=17)  # every bit of the means that prints
    if not frames:
        return
    frame = reference.frame()
    per_query = ev.per_query().toPandas()
    expected = frame[frame["qid"] != "all"]
    key = ["run", "measure", "qid"]
    merged = per_query.merge(expected, on=key, how="outer", suffixes=("_spark", "_one"), indicator=True)
    assert (merged["_merge"] == "both").all() and len(merged) == len(expected) > 0
    assert equal(merged["value_spark"], merged["value_one"]).all()
    means = ev.means().toPandas()
    expected = frame[frame["qid"] == "all"]
    merged = means.merge(expected, on=["run", "measure"], how="outer", suffixes=("_spark", "_one"), indicator=True)
    assert (merged["_merge"] == "both").all() and len(merged) == len(expected) > 0
    same = equal(merged["value_spark"], merged["value_one"])
    assert same.all(), merged[~same]


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "-c -N", "-J -M 5 -l 2 err_gmax"])
def test_sample_files_every_measure_and_option(spark, options):
    ev = evaluate_spark(QRELS, RUNS, EVERY, spark=spark, **options)
    assert ev.runs == ["bm25.run", "dense.run", "hybrid.run"]
    q, runs = read_files(QRELS, RUNS)
    # Spark's DataFrames (per_query, means) are compared in full for the first options; the text for all
    same_as_single_machine(ev, evaluate_runs(q.table, [r.table for r in runs], EVERY, **options),
                           frames=not options)


def frames(spark, qrels: dict, run: dict, *, name="run"):
    q = pd.DataFrame([(qid, d, float(g)) for qid, docs in qrels.items() for d, g in docs.items()],
                     columns=["qid", "docno", "rel"])
    r = pd.DataFrame([(name, qid, d, s) for qid, docs in run.items() for d, s in docs.items()],
                     columns=["run", "qid", "docno", "score"])
    return spark.createDataFrame(q), spark.createDataFrame(r)


@settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), buckets=st.integers(1, 5), options=st.sampled_from(OPTIONS),
       measure=st.sampled_from(["all_trec", "err.5", "judged.3", "ndcg_rel", "rbp_resid.p=0.9", "G",
                                "nDCG(ties=stable,gain=exponential)@5", "nDCG(ties=ranx,idcg=list)"]))
def test_random_qrels_and_runs_in_dataframes(spark, seed, buckets, options, measure):
    qrels, run = generate(seed, n_queries=15, n_docs=60, max_judged=25, max_ret=50)
    q_df, r_df = frames(spark, qrels, run)
    measures = ["official", measure]
    ev = evaluate_spark(q_df, r_df, measures, spark=spark, buckets=buckets, **options)
    reference = evaluate_runs(read_qrels(qrels_bytes(qrels), name="qrels").table,
                              [read_run(run_bytes(run), name="run").table], measures, **options)
    reference.runs[0].tag = "run"  # a DataFrame without a tag column: runid is the run's name
    same_as_single_machine(ev, reference)


@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), buckets=st.integers(1, 4))
def test_rows_of_each_query_scattered_over_the_input(spark, seed, buckets):
    # a run and qrels whose lines are in no order (as a parallel job may write them): a block's query ids travel
    # as runs of equal ids, here mostly one row each; the single machine reads the same lines in the same order
    # (the stable tie rule follows it)
    qrels, run = generate(seed, n_queries=15, n_docs=60, max_judged=25, max_ret=50)
    rng = np.random.default_rng(seed)
    q_rows = [(qid, d, float(g)) for qid, docs in qrels.items() for d, g in docs.items()]
    r_rows = [("run", qid, d, s) for qid, docs in run.items() for d, s in docs.items()]
    q_rows = [q_rows[i] for i in rng.permutation(len(q_rows))]
    r_rows = [r_rows[i] for i in rng.permutation(len(r_rows))]
    q_df = spark.createDataFrame(pd.DataFrame(q_rows, columns=["qid", "docno", "rel"]))
    r_df = spark.createDataFrame(pd.DataFrame(r_rows, columns=["run", "qid", "docno", "score"]))
    measures = ["all_trec", "nDCG(ties=stable,gain=exponential)@5", "nDCG(ties=ranx,idcg=list)"]
    ev = evaluate_spark(q_df, r_df, measures, spark=spark, buckets=buckets)
    qrels_text = "".join(f"{q} 0 {d} {g:g}\n" for q, d, g in q_rows).encode()
    run_text = "".join(f"{q} Q0 {d} 1 {s!r} run\n" for _r, q, d, s in r_rows).encode()
    reference = evaluate_runs(read_qrels(qrels_text, name="qrels").table, [read_run(run_text, name="run").table],
                              measures)
    same_as_single_machine(ev, reference)


def test_dataframes_with_named_columns_integer_ids_two_runs_and_tags(spark):
    qrels = spark.createDataFrame(pd.DataFrame({"user": [1, 1, 1, 2, 2], "item": [10, 11, 12, 10, 13],
                                                "rating": [3, 0, 1, 2, 1]}))
    runs = spark.createDataFrame(pd.DataFrame({
        "run": ["als"] * 5 + ["pop"] * 4, "user": [1, 1, 1, 2, 2, 1, 1, 2, 2],
        "item": [11, 10, 14, 13, 10, 10, 12, 10, 11], "pred": [0.9, 0.8, 0.7, 0.9, 0.1, 5, 4, 5, 4],
        "tag": ["als-v1"] * 5 + ["pop-v2"] * 4}))
    ev = evaluate_spark(qrels, runs, ["official", "ndcg_cut.3"], spark=spark,
                        qrels_columns={"qid": "user", "docno": "item"}, run_columns={"qid": "user", "docno": "item"})
    text = ev.result().text()
    assert ev.runs == ["als", "pop"] and ev.tags == {"als": "als-v1", "pop": "pop-v2"}
    # the same data as TREC files
    q = read_qrels(b"1 0 10 3\n1 0 11 0\n1 0 12 1\n2 0 10 2\n2 0 13 1\n", name="qrels").table
    als = read_run(b"1 Q0 11 1 0.9 als-v1\n1 Q0 10 2 0.8 als-v1\n1 Q0 14 3 0.7 als-v1\n2 Q0 13 1 0.9 als-v1\n"
                   b"2 Q0 10 2 0.1 als-v1\n", name="als").table
    pop = read_run(b"1 Q0 10 1 5 pop-v2\n1 Q0 12 2 4 pop-v2\n2 Q0 10 1 5 pop-v2\n2 Q0 11 2 4 pop-v2\n",
                   name="pop").table
    assert text == evaluate_runs(q, [als, pop], ["official", "ndcg_cut.3"]).text()
    assert "runid                 \tall\tals-v1" in text
    # hand-derived: als ranks 11 (grade 0), 10 (3), 14 (unjudged) for query 1: ndcg_cut_3 =
    # (3 / log2 3) / (3 + 1 / log2 3) = 1.8928 / 3.6309 = 0.5213
    value = ev.per_query().filter("run = 'als' and qid = '1' and measure = 'ndcg_cut_3'").collect()[0]["value"]
    assert math.isclose(value, (3 / math.log2(3)) / (3 + 1 / math.log2(3)), rel_tol=1e-12)


def test_a_dict_of_single_run_dataframes_named_by_their_keys(spark):
    qrels, run = generate(7, n_queries=6, n_docs=30, max_judged=10, max_ret=20)
    q_df, r_df = frames(spark, qrels, run)
    one = r_df.drop("run")
    ev = evaluate_spark(q_df, {"first": one, "second": one.withColumn("score", -one["score"])}, ["map"], spark=spark)
    means = {r["run"]: r["value"] for r in ev.means().collect()}
    q = read_qrels(qrels_bytes(qrels)).table
    flipped = {qid: {d: -s for d, s in docs.items()} for qid, docs in run.items()}
    ref = evaluate_runs(q, [read_run(run_bytes(run), name="first").table,
                            read_run(run_bytes(flipped), name="second").table], ["map"]).frame()
    assert means == {r.run: r.value for r in ref[ref.qid == "all"].itertuples()}


def test_parquet_and_csv_files_read_by_spark(spark, tmp_path):
    qt, rt = read_qrels(QRELS).table, read_run(RUNS[0]).table
    pq.write_table(pa.table({"query_id": qt.qid.dictionary_decode(), "doc_id": id_strings(qt.docno),
                             "relevance": pa.array(qt.value)}), tmp_path / "qrels.parquet")
    pd.DataFrame({"qid": rt.qid.dictionary_decode().to_pylist(), "docno": id_strings(rt.docno).to_pylist(),
                  "score": rt.value}).to_csv(tmp_path / "bm25.run", sep="\t", index=False)
    ev = evaluate_spark(str(tmp_path / "qrels.parquet"), [str(tmp_path / "bm25.run")], ["all_trec"], spark=spark)
    reference = evaluate_runs(qt, [rt], ["all_trec"])
    reference.runs[0].tag = "bm25.run"  # a CSV run has no tag column: runid is its name, as on one machine
    assert ev.result().text(per_query=True) == reference.text(per_query=True)
    frame = read_spark(spark, tmp_path / "qrels.parquet", kind="qrels")
    assert frame.columns[:3] == ["qid", "docno", "rel"] and frame.count() == qt.n_rows


@pytest.mark.parametrize("score_type", [pa.float64(), pa.float32(), pa.int64(), pa.int32(), pa.int16(), pa.int8(),
                                        pa.decimal128(20, 3)])
def test_parquet_value_columns_of_every_type_give_the_single_machine_values(spark, tmp_path, score_type):
    # numbers are cast to double directly, decimals through their text: either way the single machine's
    # doubles (float32 widened exactly, int64 beyond 2^53 rounded to nearest), ties included (scores as
    # integers tie), and a null score is a bad line on both paths
    rng = np.random.default_rng(7)
    n = 240
    qid = [f"q{i % 12}" for i in range(n)]
    docno = [f"d{i // 12:03d}" for i in range(n)]
    raw = rng.integers(-120, 120, size=n).astype(np.float64) * (1.0 if pa.types.is_integer(score_type) else 0.37)
    if score_type == pa.int64():
        raw[:3] = [2.0**53 + 1, -(2.0**62) - 1, 2.0**63 - 1024]  # beyond a double's integers: rounded alike
        values = pa.array([2**53 + 1, -(2**62) - 1, 2**63 - 1024] + raw[3:].astype(np.int64).tolist(), pa.int64())
    elif pa.types.is_decimal(score_type):
        values = pa.array([Decimal(f"{v:.3f}") for v in raw], score_type)
    else:
        values = pa.array(raw).cast(score_type, safe=False)
    values = pa.array(values.to_pylist()[:-1] + [None], score_type)  # the last line: a null score
    pq.write_table(pa.table({"qid": qid, "docno": docno, "score": values}), tmp_path / "run.parquet")
    grades = rng.integers(0, 4, size=n // 2)
    pq.write_table(pa.table({"qid": qid[::2], "docno": docno[::2], "rel": grades}), tmp_path / "qrels.parquet")
    qrels_file, run_file = str(tmp_path / "qrels.parquet"), str(tmp_path / "run.parquet")
    with pytest.raises(ValueError, match=r"run.parquet: a line cannot be read \(not a finite number\); the first "
                                         r"such line starts with 'q\d+'"):
        evaluate_spark(qrels_file, [run_file], ["map"], spark=spark).means()
    ev = evaluate_spark(qrels_file, [run_file], ["all_trec"], spark=spark, skip_bad_lines=True)
    q, (r,) = read_files(qrels_file, [run_file])  # one machine drops the null-score row with a problem
    assert r.table.n_rows == n - 1
    reference = evaluate_runs(q.table, [r.table], ["all_trec"])
    reference.runs[0].tag = "run.parquet"
    assert ev.result().text(per_query=True) == reference.text(per_query=True)


def test_bad_lines_are_refused_naming_the_first_or_skipped_like_the_single_machine_reader(spark, tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_bytes(Path(RUNS[0]).read_bytes() + b"101 Q0 D999 99 oops bm25\n101 Q0 D109 7 1.0 bm25\nshort line\n")
    # the line named is the first bad one of the bucket that meets one first, by its first field (never quoted whole)
    with pytest.raises(ValueError, match=r"bad.run: a line cannot be read \((not a finite number\); the first such "
                                         r"line starts with '101'|not 6 fields\); the first such line starts with "
                                         r"'short'); fix it, or skip"):
        evaluate_spark(QRELS, [str(bad)], ["map"], spark=spark).means()
    ev = evaluate_spark(QRELS, [str(bad)], ["all_trec"], spark=spark, skip_bad_lines=True)
    q, (r,) = read_files(QRELS, [bad])  # the reader keeps the first of the repeated D109, as Spark does
    assert ev.result().text(per_query=True) == evaluate_runs(q.table, [r.table], ["all_trec"]).text(per_query=True)
    assert [(p.kind, p.params["count"]) for p in ev.problems] == [("bad_lines", 2)]
    assert ev.problems[0].message == ("bad.run: 2 line(s) cannot be read; the first starts with '101' (not a finite "
                                      "number); skipped")


def test_rows_the_kernel_cannot_take_are_value_errors_naming_them(spark):
    q_df = spark.createDataFrame([("q1", "a", 1.0)], "qid string, docno string, rel double")
    twice = spark.createDataFrame([("q1", "a", 1.0), ("q1", "a", 2.0)], "qid string, docno string, score double")
    with pytest.raises(ValueError, match="run 'run1': document 'a' appears twice for query 'q1'"):
        evaluate_spark(q_df, twice, ["map"], spark=spark).result()
    nan = spark.createDataFrame([("q1", "a", float("nan"))], "qid string, docno string, score double")
    with pytest.raises(ValueError, match="run 'run1': query 'q1', document 'a' has the value nan"):
        evaluate_spark(q_df, nan, ["map"], spark=spark).means()
    with pytest.raises(ValueError, match="run : no column for score among qid, docno"):
        evaluate_spark(q_df, q_df.drop("rel"), ["map"], spark=spark)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"measures": ["nope"]}, "nope"),
    ({"relevance_level": -1}, "relevance_level must be a whole number >= 0, got -1"),
    ({"max_docs": 0}, "max_docs must be a whole number >= 1 or None, got 0"),
    ({"buckets": 0}, "buckets must be a whole number >= 1 or None, got 0"),
    ({"complete": "yes"}, "complete must be True or False, got 'yes'"),
    ({"err_gmax": float("inf")}, "err_gmax must be a finite number >= 0 or None, got inf"),
])
def test_bad_options_are_value_errors_before_any_spark_job(kwargs, message):
    # no session is needed: the options are checked first
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        evaluate_spark(QRELS, RUNS, **kwargs)


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("args", [["-q", "-c", "-m", "all_trec", "-m", "err.5"], ["-J", "-M", "4", "-l", "2", "-n",
                                                                                  "-q", "-m", "ndcg.0=0,1=2,2=7"]],
                         ids=["-q -c all_trec err", "-J -M -l -n gain map"])
def test_cli_output_is_the_same_byte_for_byte(spark, args, tmp_path):
    code, out, _ = run_cli(["--csv", str(tmp_path / "one.csv")] + args + [QRELS, *RUNS[:2]])
    code_spark, out_spark, err = run_cli(["--spark", "local[2]", "--csv", str(tmp_path / "spark.csv")] + args
                                         + [QRELS, *RUNS[:2]])
    assert code == code_spark == 0 and out_spark == out and out.count("\n") >= 14
    assert "evaluated on Spark (local[2])" in err
    per_query = (tmp_path / "spark.csv").read_text()
    assert per_query == (tmp_path / "one.csv").read_text() and per_query.count("\n") > 14


def test_cli_spark_refuses_a_master_that_is_not_a_url(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--spark", "local [2]", QRELS, RUNS[0]])
    assert exc.value.code == 2 and "a Spark master URL" in capsys.readouterr().err


def run_cli_stdin(argv, data: bytes):
    """run_cli with ``data`` on standard input."""
    import sys

    class Stdin:
        buffer = io.BytesIO(data)

    saved = sys.stdin
    sys.stdin = Stdin()
    try:
        return run_cli(argv)
    finally:
        sys.stdin = saved


@pytest.mark.parametrize("args", [["-q", "-m", "official"], ["--variants", "--per-query"]], ids=["trec", "variants"])
def test_cli_a_run_from_standard_input_gives_the_same_output_with_spark(spark, args):
    data = Path(RUNS[1]).read_bytes()
    code, out, _ = run_cli_stdin(args + [QRELS, RUNS[0], "-"], data)
    code_spark, out_spark, err = run_cli_stdin(["--spark", "local[2]"] + args + [QRELS, RUNS[0], "-"], data)
    assert code == code_spark == 0 and out_spark == out and "stdin" in out


def test_cli_max_mb_with_spark_refuses_a_larger_file_as_without_spark(spark):
    assert 1_000 < Path(RUNS[0]).stat().st_size < 10_000  # over a 0.001 MB limit, under 0.01 MB
    argv = ["--max-mb", "0.001", "-m", "map", QRELS, RUNS[0]]
    code, out, err = run_cli(argv)
    code_spark, out_spark, err_spark = run_cli(["--spark", "local[2]"] + argv)
    assert code == code_spark == 1 and out == out_spark == ""
    assert err.startswith("error: bm25.run is 0.0 MB; the limit is 0.001 MB")
    assert err_spark.splitlines()[-1] == err.splitlines()[0]  # the same line (after Spark's start-up lines)
    argv[1] = "0.01"
    code, out, _ = run_cli(argv)
    code_spark, out_spark, _ = run_cli(["--spark", "local[2]"] + argv)
    assert code == code_spark == 0 and out_spark == out and "map" in out


def test_cli_spark_names_a_missing_file(spark, tmp_path):
    code, out, err = run_cli(["--spark", "local[2]", QRELS, str(tmp_path / "missing.run")])
    assert code == 1 and out == "" and "error: " in err and "missing.run" in err


def test_spark_submit_runs_the_command_line_with_the_same_output(tmp_path):
    # The README's command: spark-submit runs scripts/spark_eval.py; its --master is in force, and the metrics
    # package reaches the workers as a zip (--py-files style), not through this checkout's PYTHONPATH.
    import os
    import subprocess
    import sys

    import pyspark

    submit = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYSPARK_GATEWAY_PORT")}
    env.update(PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable, SPARK_LOCAL_IP="127.0.0.1")
    args = ["-q", "-m", "official", "-m", "nDCG(gain=exponential)@5", QRELS, *RUNS[:2]]
    done = subprocess.run([str(submit), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
                           "--conf", "spark.driver.host=127.0.0.1", "--conf",
                           f"spark.driver.extraJavaOptions={JVM_OPTIONS}", str(ROOT / "scripts" / "spark_eval.py"),
                           "--spark", "local[2]", *args], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=900)
    code, out, _ = run_cli(args)
    assert done.returncode == code == 0, done.stderr[-3000:]
    # spark-submit's PythonRunner merges the program's standard error into its output: the time line is there
    lines = done.stdout.splitlines(keepends=True)
    assert lines[-1].startswith("evaluated on Spark (local[2]) in ") and "".join(lines[:-1]) == out


def test_spark_tests_share_one_worker_under_xdist(request):
    # scripts/test.sh runs --dist loadgroup: every Spark test must carry the "spark" group in its id (xdist
    # sends a group to one worker), or each worker starts a JVM session of its own.
    group = request.node.get_closest_marker("xdist_group")
    assert group is not None and group.args == ("spark",), group
    # (``loadgroup`` is set on xdist's workers only: a run without xdist has no such option)
    if getattr(request.config.option, "loadgroup", False) or request.config.getoption("dist", "no") == "loadgroup":
        assert request.node.nodeid.endswith("@spark"), request.node.nodeid
