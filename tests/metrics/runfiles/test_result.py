"""One evaluate(qrels, runs, measures) -> Result for tables, Parsed files, blocks and Spark (issue 38 item 2).

Random qrels and runs (tests/metrics/runfiles/reference.py: negative grades, unjudged and unretrieved
documents, tied scores, queries on one side only) are evaluated through every entry point; the values must
be the same bit for bit, the variants table read from a Result must equal the variants evaluation, and a
measure's values must not depend on what else was evaluated in the same pass.  The run-file modules import
each other without a cycle.
"""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.runfiles import Evaluation, Result, batch, evaluate, evaluate_runs, make_variants, read_qrels, read_run
from metrics.runfiles.engine import evaluate_block
from tests.metrics.runfiles.reference import generate, qrels_bytes, run_bytes

ROOT = Path(__file__).resolve().parents[3]
MEASURES = ["map", "P.5,10", "recip_rank", "ndcg_cut.10", "num_ret", "bpref", "nDCG@10", "RR(rel=2)@10"]


def two_runs(seed: int):
    qrels, a = generate(seed)
    _, b = generate(seed + 1000)
    parsed_q = read_qrels(qrels_bytes(qrels), name="qrels")
    parsed_runs = [read_run(run_bytes(a, "ta"), name="a"), read_run(run_bytes(b, "tb"), name="b")]
    return qrels, {"a": a, "b": b}, parsed_q, parsed_runs


def frames(qrels: dict, runs: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The same data as a block of queries: what a cluster hands a task."""
    q = pd.DataFrame([(qid, d, g) for qid, docs in qrels.items() for d, g in docs.items()],
                     columns=["qid", "docno", "rel"])
    r = pd.DataFrame([(name, qid, d, s, i) for name, run in runs.items() for i, (qid, d, s) in enumerate(
        (qid, d, s) for qid, docs in run.items() for d, s in docs.items())], columns=["run", "qid", "docno", "score",
                                                                                      "line"])
    return q, r


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tables_parsed_and_blocks_give_the_same_result(seed):
    qrels, runs, pq, pruns = two_runs(seed)
    from_parsed = evaluate(pq, pruns, MEASURES)
    from_tables = evaluate(pq.table, [p.table for p in pruns], MEASURES)
    assert isinstance(from_parsed, Result)
    assert from_parsed.text(per_query=True) == from_tables.text(per_query=True)
    q, r = frames(qrels, runs)
    block = evaluate(q, r, MEASURES).per_query()
    want = from_tables.per_query()
    key = ["run", "measure", "qid"]
    got = block.sort_values(key).reset_index(drop=True)
    assert got[key].equals(want.sort_values(key).reset_index(drop=True)[key])
    assert np.array_equal(got["value"].to_numpy(), want.sort_values(key)["value"].to_numpy(), equal_nan=True)
    # the cluster's kernel gives those rows too
    rows = evaluate_block(q, r, MEASURES).sort_values(key).reset_index(drop=True)
    assert np.array_equal(rows["value"].to_numpy(), got["value"].to_numpy(), equal_nan=True)
    # trec_eval's form is the same call
    assert evaluate_runs(pq, pruns, MEASURES).text(per_query=True) == from_tables.text(per_query=True)


@pytest.mark.parametrize("seed, complete", [(4, False), (5, True)])
def test_the_variants_table_of_a_result_is_the_variants_evaluation(seed, complete):
    _, _, pq, pruns = two_runs(seed)
    variants = make_variants(ties=["trec_eval", "average", "optimistic"])
    together = evaluate(pq, pruns, ["map", "P.10", *(v.with_(k=10).format() for v in variants)], complete=complete)
    ev = Evaluation.of(together, k=10)
    want = batch.evaluate(pq.table, [p.table for p in pruns], k=10, variants=variants,
                          missing="zero" if complete else "skip")
    assert ev.labels == want.labels and ev.runs == want.runs
    assert np.array_equal(ev.values, want.values, equal_nan=True)
    assert ev.means().equals(want.means()) and ev.orders().equals(want.orders())
    # a measure's values do not depend on what else the pass computed
    alone = evaluate(pq, pruns, ["map", "P.10"], complete=complete)
    for name in ("map", "P_10"):
        assert np.array_equal(together.values(name), alone.values(name), equal_nan=True)
    assert together.summary(together.runs[0])["map"] == alone.summary(alone.runs[0])["map"]


def test_paired_is_the_per_query_table_of_one_measure():
    _, _, pq, pruns = two_runs(6)
    result = evaluate(pq, pruns, ["map"])
    per = result.per_query()
    want = per[per.measure == "map"].pivot(index="qid", columns="run", values="value")
    got = result.paired("map")
    assert list(got.columns) == ["a", "b"]
    assert got.sort_index().equals(want.sort_index().rename_axis(columns="run"))
    zero = evaluate(pq, pruns, ["map"], complete=True).paired("map")
    assert len(zero) == len(result.queries) and not zero.isna().any().any()  # -c: every qrels query, 0 if missing
    with pytest.raises(ValueError, match="'P_5' was not evaluated"):
        result.paired("P_5")


def test_the_variants_table_needs_variants_in_the_result():
    _, _, pq, pruns = two_runs(7)
    with pytest.raises(ValueError, match="no NDCG variant at k=10"):
        Evaluation.of(evaluate(pq, pruns, ["map"]), k=10)
    with pytest.raises(ValueError, match="same gain, discount"):
        Evaluation.of(evaluate(pq, pruns, ["nDCG(gain=linear)@10", "nDCG(gain=linear,base=10)@10"]), k=10)


def test_spark_options_need_spark():
    _, _, pq, pruns = two_runs(8)
    with pytest.raises(ValueError, match="run_columns: options of Spark's reading"):
        evaluate(pq, pruns, ["map"], run_columns={"qid": "user"})


@pytest.mark.spark
def test_spark_gives_the_same_result(spark, tmp_path):
    qrels, runs, pq, pruns = two_runs(9)
    (tmp_path / "qrels").write_bytes(qrels_bytes(qrels))
    paths = []
    for name, run in runs.items():
        paths.append(str(tmp_path / name))
        (tmp_path / name).write_bytes(run_bytes(run, f"t{name}"))
    on_spark = evaluate(str(tmp_path / "qrels"), paths, ["map", "P.10", "nDCG(gain=exponential)@10"], spark=spark,
                        complete=True)
    here = evaluate(pq, pruns, ["map", "P.10", "nDCG(gain=exponential)@10"], complete=True)
    assert isinstance(on_spark, Result)
    assert on_spark.text(per_query=True) == here.text(per_query=True)


def test_the_run_file_modules_import_each_other_without_a_cycle():
    """engine and trec imported each other (check_options); now: options <- engine <- result <- trec, batch."""
    folder = ROOT / "metrics" / "runfiles"
    modules = {p.stem for p in folder.glob("*.py")} | {"measures"}
    graph: dict[str, set[str]] = {}  # module-level imports
    anywhere: dict[str, set[str]] = {}  # imports inside functions too (what an optional dependency, Spark, needs)

    def deps_of(nodes) -> set[str]:
        deps = set()
        for node in nodes:
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                deps |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        return deps & modules

    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[path.stem] = deps_of(tree.body) - {path.stem}
        anywhere[path.stem] = deps_of(ast.walk(tree)) - {path.stem}
    assert not anywhere["engine"] & {"trec", "result", "batch", "cli", "spark"}
    assert not anywhere["options"] & {"engine", "trec", "result", "batch"}

    def cycle_from(start, node, seen):
        for nxt in graph.get(node, ()):
            if nxt == start:
                return True
            if nxt not in seen:
                seen.add(nxt)
                if cycle_from(start, nxt, seen):
                    return True
        return False

    # Spark is imported when asked for (result.evaluate(spark=...) and spark.py building a Result): the
    # module-level imports, what importing a module runs, form no circle
    assert [m for m in graph if cycle_from(m, m, set())] == []
