"""ir_measures' names on a real local Spark: the same kernels in blocks of queries give exactly the single
machine's per-query values, means (ir_measures' averaging over every qrels query) and text, for a measure of
every provider that reads ordinary qrels (pytrec_eval, msmarco, judged, compat, accuracy, cwl_eval, gdeval)."""
from __future__ import annotations

from pathlib import Path

import pytest

from metrics.runfiles.read import read_files
from metrics.runfiles.spark import evaluate_spark
from metrics.runfiles.trec import evaluate_runs
from tests.metrics.runfiles.test_spark import same_as_single_machine

pytestmark = pytest.mark.spark

SAMPLES = Path(__file__).resolve().parents[3] / "data" / "samples"
QRELS = str(SAMPLES / "qrels.txt")
RUNS = [str(SAMPLES / f"{n}.run") for n in ("bm25", "dense", "hybrid")]
NAMES = ["nDCG@10", "P(rel=2)@5", "AP(judged_only=True)", "RR(rel=2)@10", "Judged@10", "Compat", "Accuracy@5",
         "RBP(rel=1)", "INST(max_rel=3)", "NERR10(max_rel=3)", "BPM(max_rel=3)@5", "ERR@10",
         "nDCG(dcg='exp-log2')@10", "NumQ", "map"]


def test_ir_measures_names_on_spark_equal_one_machine(spark):
    ev = evaluate_spark(QRELS, RUNS, NAMES, spark=spark)
    q, runs = read_files(QRELS, RUNS)
    same_as_single_machine(ev, evaluate_runs(q.table, [r.table for r in runs], NAMES))
