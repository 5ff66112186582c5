"""ir_measures' names on a real local Spark: the same kernels in blocks of queries give exactly the single
machine's per-query values, means (ir_measures' averaging over every qrels query) and text, for every measure
ir_measures 0.4.3 computes -- those of the providers that read ordinary qrels (pytrec_eval, msmarco, judged,
compat, accuracy, cwl_eval, gdeval) and the diversity family (pyndeval's), which reads diversity qrels
(``qid subtopic docno rel``).

The random files are made here, from a model of what people hand in (not through the reader under test):
graded judgements (negative grades too), tied scores, a (query, document) pair given twice in the run, qrels
queries the run lacks and a run query the qrels lack, unicode ids; diversity qrels whose subtopics come in a
different order in each query (ndeval adds a document's subtopic gains in the order the subtopics first
appear in the whole file: a bucket alone does not see that order), a document judged for several subtopics
and a judgement given twice."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from metrics.runfiles.read import read_files, read_qrels, read_run
from metrics.runfiles.spark import evaluate_spark
from metrics.runfiles.subtopics import read_subtopic_qrels
from metrics.runfiles.trec import evaluate_runs
from tests.metrics.runfiles.test_ir_measures import DIVERSITY, SPECS
from tests.metrics.runfiles.test_spark import run_cli, same_as_single_machine

pytestmark = pytest.mark.spark

SAMPLES = Path(__file__).resolve().parents[3] / "data" / "samples"
QRELS = str(SAMPLES / "qrels.txt")
RUNS = [str(SAMPLES / f"{n}.run") for n in ("bm25", "dense", "hybrid")]
NAMES = ["nDCG@10", "P(rel=2)@5", "AP(judged_only=True)", "RR(rel=2)@10", "Judged@10", "Compat", "Accuracy@5",
         "RBP(rel=1)", "INST(max_rel=3)", "NERR10(max_rel=3)", "BPM(max_rel=3)@5", "ERR@10",
         "nDCG(dcg='exp-log2')@10", "NumQ", "map"]
#: A few of trec_eval's names beside ir_measures' on diversity qrels (they read each document's highest grade).
PLAIN = ["map", "ndcg_cut.5", "P(rel=2)@5", "nDCG@10", "Judged@5"]


def test_ir_measures_names_on_spark_equal_one_machine(spark):
    ev = evaluate_spark(QRELS, RUNS, NAMES, spark=spark)
    q, runs = read_files(QRELS, RUNS)
    same_as_single_machine(ev, evaluate_runs(q.table, [r.table for r in runs], NAMES))


QUERY_IDS = ["101", "102", "7", "b\u00e9", "\ud55c\uad6d", "\u4e2d\u6587", "x-1", "10"]


def random_files(tmp_path: Path, seed: int, *, subtopics: int = 0, repeat_judgement: bool = False):
    """(qrels path, run path): TREC qrels (``qid 0 docno rel``) or diversity qrels (``qid subtopic docno rel``,
    with ``subtopics`` > 0) and a TREC run, written line by line from numpy's generator."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for i, q in enumerate(QUERY_IDS):
        docs = rng.choice(40, size=int(rng.integers(1, 18)), replace=False)
        order = rng.permutation(subtopics)  # each query lists its subtopics in its own order
        for d in docs:
            if subtopics:
                chosen = order[np.sort(rng.choice(subtopics, size=int(rng.integers(1, subtopics + 1)), replace=False))]
                for s in chosen:
                    qrels.append(f"{q} s{s} d{d:02d} {int(rng.integers(0, 4))}")
            else:
                qrels.append(f"{q} 0 d{d:02d} {int(rng.integers(-1, 5))}")
        if i % 4 == 3:  # a qrels query the run lacks
            continue
        for d in rng.choice(40, size=int(rng.integers(1, 30)), replace=False):
            run.append(f"{q} Q0 d{d:02d} 0 {int(rng.integers(0, 5)) / 2!r} r")  # ties: 5 scores
    run.append("999 Q0 d01 0 1.0 r")  # a query the qrels lack
    run.insert(3, run[1].rsplit(" ", 2)[0] + " 9.5 r")  # the pair of line 2 again (later, another score)
    if repeat_judgement:
        qrels.insert(5, qrels[2].rsplit(" ", 1)[0] + " 3")  # the judgement of line 3 again, another grade
    qrels_path, run_path = tmp_path / f"q{seed}.txt", tmp_path / f"r{seed}.run"
    qrels_path.write_text("\n".join(qrels) + "\n", encoding="utf-8")
    run_path.write_text("\n".join(run) + "\n", encoding="utf-8")
    return qrels_path, run_path


@pytest.mark.parametrize("seed, buckets", [(1, 1), (2, 3)])
def test_every_ir_measures_name_on_random_files_equals_one_machine(spark, tmp_path, seed, buckets):
    qrels, run = random_files(tmp_path, seed)
    reference = evaluate_runs(read_qrels(qrels).table, [read_run(run).table], SPECS)
    ev = evaluate_spark(str(qrels), [str(run)], SPECS, spark=spark, buckets=buckets, skip_bad_lines=True)
    same_as_single_machine(ev, reference)


@pytest.mark.parametrize("seed, buckets, complete", [(3, 1, False), (4, 4, True), (5, 8, False)])
def test_diversity_measures_on_spark_equal_one_machine(spark, tmp_path, seed, buckets, complete):
    qrels, run = random_files(tmp_path, seed, subtopics=5, repeat_judgement=True)
    q = read_subtopic_qrels(qrels)
    assert [p.kind for p in q.problems] == ["duplicate"]  # the repeated judgement: the first one kept
    reference = evaluate_runs(q.table, [read_run(run).table], DIVERSITY + PLAIN, complete=complete)
    ev = evaluate_spark(str(qrels), [str(run)], DIVERSITY + PLAIN, spark=spark, buckets=buckets, subtopics=True,
                        skip_bad_lines=True, complete=complete)
    same_as_single_machine(ev, reference)


def test_diversity_gains_add_up_in_the_files_subtopic_order_in_every_bucket(spark, tmp_path):
    # Query "1" lists subtopics c, b, a; query "2" (in a bucket of its own with 2 buckets) a, b, c.  Its d2,
    # relevant to a, b and c after d1 (a, b), gains (1-α)^1 + (1-α)^1 + (1-α)^0, added in the file's subtopic
    # order c, b, a; a bucket numbering the subtopics in its own order a, b, c would add them the other way
    # round, and at α = 0.85 that changes alpha-DCG@2's last bits (checked below on one machine).
    lines = ["1 c e1 1", "1 b e1 1", "1 a e1 1", "2 a d1 1", "2 b d1 1", "2 a d2 1", "2 b d2 1", "2 c d2 1"]
    qrels = tmp_path / "div.qrels"
    qrels.write_text("\n".join(lines) + "\n")
    run = tmp_path / "r.run"
    run.write_text("1 Q0 e1 1 3 r\n2 Q0 d1 1 3 r\n2 Q0 d2 2 2 r\n")
    names = ["alpha_DCG(alpha=0.85)@2", "alpha_nDCG(alpha=0.85)@2", "NRBP(alpha=0.85)", "nNRBP(alpha=0.85)"]
    reference = evaluate_runs(read_subtopic_qrels(qrels).table, [read_run(run).table], names)
    # the premise, on one machine: without query 1's lines, query 2's values change in the last bits
    alone = tmp_path / "alone.qrels"
    alone.write_text("\n".join(lines[3:]) + "\n")
    single = evaluate_runs(read_subtopic_qrels(alone).table, [read_run(run).table], names).frame()
    with_1 = reference.frame()
    key = (with_1.qid == "2") & (with_1.measure == names[0])
    assert with_1[key].value.item() != single[(single.qid == "2") & (single.measure == names[0])].value.item()
    for buckets in (1, 2):
        same_as_single_machine(evaluate_spark(str(qrels), [str(run)], names, spark=spark, buckets=buckets,
                                              subtopics=True), reference)


def test_diversity_qrels_in_a_dataframe(spark, tmp_path):
    import pandas as pd

    qrels, run = random_files(tmp_path, 6, subtopics=3)
    rows = [line.split() for line in qrels.read_text().splitlines()]
    frame = spark.createDataFrame(pd.DataFrame({"topic": [r[0] for r in rows], "intent": [r[1] for r in rows],
                                                "docno": [r[2] for r in rows], "rel": [int(r[3]) for r in rows]}))
    reference = evaluate_runs(read_subtopic_qrels(qrels).table, [read_run(run).table], DIVERSITY[:6] + PLAIN[:2])
    ev = evaluate_spark(frame, [str(run)], DIVERSITY[:6] + PLAIN[:2], spark=spark, buckets=2, subtopics=True,
                        skip_bad_lines=True, qrels_columns={"qid": "topic", "subtopic": "intent"})
    same_as_single_machine(ev, reference)
    with pytest.raises(ValueError, match="a column for the subtopic"):
        evaluate_spark(frame, [str(run)], ["alpha_nDCG@5"], spark=spark, subtopics=True,
                       qrels_columns={"qid": "topic"})
    null = spark.createDataFrame(pd.DataFrame({"qid": ["1", "1"], "subtopic": [None, "x"], "docno": ["a", "b"],
                                               "rel": [1, 1]}))
    with pytest.raises(ValueError, match="qrels 'qrels': empty or null subtopic"):
        evaluate_spark(null, [str(run)], ["alpha_nDCG@5"], spark=spark, subtopics=True).result()


def test_a_judgement_given_twice_is_refused_naming_it_unless_bad_lines_are_skipped(spark, tmp_path):
    qrels, run = random_files(tmp_path, 7, subtopics=2, repeat_judgement=True)
    _query, subtopic, document, _grade = qrels.read_text().splitlines()[2].split()
    ev = evaluate_spark(str(qrels), [str(run)], ["alpha_nDCG@5"], spark=spark, subtopics=True)
    with pytest.raises(ValueError) as exc:
        ev.result()
    message = str(exc.value)
    assert "judged twice" in message and repr(document) in message and repr(subtopic) in message


def test_a_diversity_measure_without_diversity_qrels_is_refused_before_spark():
    with pytest.raises(ValueError, match="'ERR_IA@20' reads diversity qrels .* pass subtopics=True"):
        evaluate_spark(QRELS, RUNS, ["map", "ERR_IA@20"])
    with pytest.raises(ValueError, match="subtopics must be"):
        evaluate_spark(QRELS, RUNS, ["map"], subtopics="yes")


def test_diversity_qrels_are_read_from_text_only(spark, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "div.parquet"
    pq.write_table(pa.table({"qid": ["1"], "subtopic": ["a"], "docno": ["d"], "rel": [1]}), path)
    with pytest.raises(ValueError, match="diversity qrels are read from TREC text"):
        evaluate_spark(str(path), RUNS[:1], ["alpha_nDCG@5"], spark=spark, subtopics=True)


@pytest.mark.parametrize("args", [
    ["-q", "-m", "alpha_nDCG@5", "-m", "ERR_IA(rel=2)@10", "-m", "map", "-m", "P@5"],
    ["-c", "-n", "-q", "-m", "nNRBP", "-m", "StRecall@3", "-m", "MAP_IA", "-m", "nDCG@10"]], ids=["-q", "-c -n -q"])
def test_cli_diversity_with_spark_is_the_same_byte_for_byte(spark, tmp_path, args):
    qrels, run = random_files(tmp_path, 8, subtopics=4)
    argv = ["--csv", None, "--skip-bad-lines"] + args + [str(qrels), str(run)]  # (the run repeats a pair)
    argv[1] = str(tmp_path / "one.csv")
    code, out, _ = run_cli(argv)
    argv[1] = str(tmp_path / "spark.csv")
    code_spark, out_spark, err = run_cli(["--spark", "local[2]"] + argv)
    assert code == code_spark == 0 and out_spark == out and ("alpha_nDCG@5" in out or "nNRBP" in out)
    assert "evaluated on Spark (local[2])" in err
    assert (tmp_path / "spark.csv").read_text() == (tmp_path / "one.csv").read_text()


def test_cli_match_says_it_runs_on_one_machine_when_given_spark(capsys):
    from metrics.runfiles import cli

    with pytest.raises(SystemExit) as exc:
        cli.main(["--spark", "local[2]", "--match", "0.45", "-m", "nDCG@10", QRELS, RUNS[0]])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --spark: --match runs on one machine" in err and "leave --spark out" in err
