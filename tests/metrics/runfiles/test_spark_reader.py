"""metrics.runfiles.spark's two readers of a Parquet file give the same evaluation: the Python workers reading
a local file's row groups with pyarrow (reader "auto") and Spark's own reader (reader "spark", what remote
paths get).  Same values to the last bit, same problems (the first bad line named alike), same refusals -- on
Parquet files made here row by row from numpy's generator, with what a user's export can hold: null, empty,
blank and space-padded ids, ids of tabs, ids over the length limit, long Korean and Chinese ids and emoji
(cut for messages by characters, not bytes), integer ids, NaN/inf/null values, float32 scores, int64 beyond
2^53, a rank column instead of a score, a tag column, dictionary-encoded columns, several row groups read by
several tasks, and a folder of parts.  Where a file has no bad row, both equal the single machine."""
from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import metrics.runfiles.spark as spark_module
from metrics.runfiles.read import MAX_ID_CHARS, read_files
from metrics.runfiles.spark import evaluate_spark, evaluate_variants_spark
from metrics.runfiles.trec import evaluate_runs

pytestmark = pytest.mark.spark

MEASURES = ["all_trec", "nDCG(ties=stable)@5", "nDCG(ties=ranx,gain=exponential)@10"]

#: Ids a user's export can hold, good and bad (None: a null cell).  Bad for Spark's reader: null, "", spaces
#: only, longer than MAX_ID_CHARS after Spark's trim (which removes spaces only: a tab is an id).
ODD_IDS = [None, "", "   ", "\t", " padded ", "x" * MAX_ID_CHARS + "  ", "y" * (MAX_ID_CHARS + 1),
           "한국어질의" * 6, "中文查询" * 7, "😀" * 25, "é" * 21, "a" * 20, "b" * 21]


def draw_ids(rng, n: int, prefix: str, pool: int, odd: float) -> list:
    """n ids from a pool of ``prefix``+number, a share ``odd`` replaced by ODD_IDS."""
    ids = [f"{prefix}{int(i)}" for i in rng.integers(0, pool, size=n)]
    for i in np.flatnonzero(rng.random(n) < odd):
        ids[i] = ODD_IDS[int(rng.integers(len(ODD_IDS)))]
    return ids


def draw_values(rng, n: int, odd: float, kind: str) -> pa.Array:
    """Scores or grades of an Arrow type ``kind``, a share ``odd`` null/NaN/inf (floating point) or null."""
    if kind == "int64":  # with values beyond 2^53: both readers round them to the nearest double
        big = [2**53 + 1, -(2**62) - 1, 2**63 - 1024]
        values = [int(v) for v in rng.integers(-50, 50, size=n)]
        for i in range(min(3, n)):
            values[i] = big[i]
    elif kind == "int8":
        values = [int(v) for v in rng.integers(0, 4, size=n)]
    else:
        values = [float(v) for v in np.round(rng.normal(size=n), int(rng.integers(1, 4)))]  # ties too
    for i in np.flatnonzero(rng.random(n) < odd):
        values[i] = None if kind != "float64" else [None, float("nan"), float("inf"), -float("inf")][i % 4]
    return pa.array(values, {"int64": pa.int64(), "int8": pa.int8(), "float64": pa.float64(),
                             "float32": pa.float32()}[kind])


def write_pair(tmp_path, seed: int, *, odd: float, row_group_size: int):
    """A qrels and a run Parquet file with odd content (``odd``: the share of odd cells), made from ``seed``."""
    rng = np.random.default_rng(seed)
    n_run, n_qrels = int(rng.integers(150, 400)), int(rng.integers(60, 160))
    # integer query ids (Spark casts them to their digits) in the qrels and the run alike, for odd seeds
    run_qid = rng.integers(0, 9, size=n_run) if seed % 2 else draw_ids(rng, n_run, "q", 9, odd)
    run_cols = {"qid": pa.array(run_qid, pa.int32()) if seed % 2 else run_qid,
                "docno": draw_ids(rng, n_run, "d", 60, odd)}
    value_kind = ["float64", "float32", "int64"][seed % 3]
    if seed % 4 == 3:  # a rank column instead of a score: the order is minus the rank
        run_cols["rank"] = pa.array(rng.permutation(n_run) + 1, pa.int32())
    else:
        run_cols["score"] = draw_values(rng, n_run, odd, value_kind)
    run_cols["tag"] = [f"tag{int(t)}" for t in rng.integers(0, 3, size=n_run)]
    run = pa.table(run_cols)
    # the same (query, document) pair twice: refused, or the first kept with skip_bad_lines
    key = list(zip(run["qid"].to_pylist(), run_cols["docno"]))
    keep = [i for i in range(n_run) if key.index(key[i]) == i] if odd == 0 else list(range(n_run))
    run = run.take(pa.array(keep))
    qrels_qid = pa.array(rng.integers(0, 9, size=n_qrels), pa.int64()) if seed % 2 else \
        draw_ids(rng, n_qrels, "q", 9, odd)
    qrels = pa.table({"qid": qrels_qid, "docno": draw_ids(rng, n_qrels, "d", 60, odd),
                      "rel": draw_values(rng, n_qrels, odd, "int8" if seed % 2 else "float64")})
    pairs = list(zip(qrels["qid"].to_pylist(), qrels["docno"].to_pylist()))
    qrels = qrels.take(pa.array([i for i in range(n_qrels) if pairs.index(pairs[i]) == i]))
    q_path, r_path = tmp_path / f"qrels{seed}.parquet", tmp_path / f"run{seed}.parquet"
    pq.write_table(qrels, q_path, row_group_size=row_group_size)
    pq.write_table(run, r_path, row_group_size=row_group_size, use_dictionary=bool(seed % 2))
    return str(q_path), str(r_path)


def outcome(spark, qrels, runs, reader, **kwargs):
    """("ok", trec_eval's text per query and to 17 digits, the problems' messages) or ("refused", message)."""
    try:
        ev = evaluate_spark(qrels, runs, MEASURES, spark=spark, reader=reader, **kwargs)
        got = ev.result()
    except ValueError as exc:
        return ("refused", str(exc)), None
    return ("ok", got.text(per_query=True), got.text(digits=17), [p.message for p in ev.problems]), ev.readers


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_both_readers_give_the_same_values_problems_and_refusals(spark, tmp_path, monkeypatch, seed):
    # rows 1 in 8 odd; row groups of 37 rows, read by tasks of at most 80 rows: several tasks a file
    monkeypatch.setattr(spark_module, "SPLIT_ROWS", 80)
    qrels, run = write_pair(tmp_path, seed, odd=0.12, row_group_size=37)
    # refused: the qrels and the run are packed by tasks of their own, and the first task to meet a bad line
    # fails the job, so either file's first bad line can be named -- by either reader
    refused = (r"(qrels|run\d+\.parquet): a line cannot be read \((empty query id|empty document id|not a "
               r"finite number|an id longer than 10,000 characters)\); the first such line starts with '.*'; fix it")
    auto, _readers = outcome(spark, qrels, [run], "auto", buckets=1 + seed % 3)
    theirs, _readers = outcome(spark, qrels, [run], "spark", buckets=1 + seed % 3)
    assert auto[0] == theirs[0] == "refused"
    assert re.fullmatch(refused + ".*", auto[1]) and re.fullmatch(refused + ".*", theirs[1])
    auto, readers = outcome(spark, qrels, [run], "auto", skip_bad_lines=True, buckets=1 + seed % 3)
    theirs, their_readers = outcome(spark, qrels, [run], "spark", skip_bad_lines=True, buckets=1 + seed % 3)
    assert auto == theirs
    assert auto[0] == "ok" and auto[3], "skipping bad lines, the files evaluate with problems"
    name = run.rsplit("/", 1)[1]
    assert readers == {"qrels": "pyarrow", name: "pyarrow"}
    assert their_readers == {"qrels": "spark", name: "spark"}


@pytest.mark.parametrize("seed", [6, 7, 9])
def test_files_without_bad_rows_equal_the_single_machine(spark, tmp_path, monkeypatch, seed):
    monkeypatch.setattr(spark_module, "SPLIT_ROWS", 100)
    qrels, run = write_pair(tmp_path, seed, odd=0.0, row_group_size=45)
    (got, _text, digits, problems), readers = outcome(spark, qrels, [run], "auto", complete=True, buckets=3)
    assert set(readers.values()) == {"pyarrow"}
    q, (r,) = read_files(qrels, [run])
    reference = evaluate_runs(q.table, [r.table], MEASURES, complete=True)
    assert got == "ok" and _text == reference.text(per_query=True) and digits == reference.text(digits=17)
    table = evaluate_variants_spark(qrels, [run], k=5, spark=spark, buckets=2)
    theirs = evaluate_variants_spark(qrels, [run], k=5, spark=spark, buckets=2, reader="spark")
    assert np.array_equal(table.values, theirs.values, equal_nan=True) and np.isfinite(table.values).any()
    assert table.means().equals(theirs.means())


def test_a_folder_of_parts_is_read_in_name_order_by_the_workers(spark, tmp_path):
    qrels, run = write_pair(tmp_path, 11, odd=0.0, row_group_size=1000)
    table = pq.read_table(run)
    folder = tmp_path / "run_parts"
    folder.mkdir()
    cut = table.num_rows // 3
    for i, part in enumerate([table.slice(0, cut), table.slice(cut, cut), table.slice(2 * cut)]):
        pq.write_table(part, folder / f"part-{i:05d}.parquet")
    (folder / "_SUCCESS").write_bytes(b"")
    auto, readers = outcome(spark, qrels, [str(folder)], "auto")
    theirs, _readers = outcome(spark, qrels, [str(folder)], "spark")
    assert readers == {"qrels": "pyarrow", "run_parts": "pyarrow"}
    # Spark's reader numbers a folder's rows in its own order of the parts (it packs small files largest
    # first): the tie rules that follow file order and the last line's tag (runid) can differ; trec_eval's
    # measures cannot
    assert auto[0] == theirs[0] == "ok"
    kept = lambda text: [ln for ln in text.splitlines() if "nDCG" not in ln and "runid" not in ln]  # noqa: E731
    assert kept(auto[1]) == kept(theirs[1])
    q, (r,) = read_files(qrels, [run])
    reference = evaluate_runs(q.table, [r.table], MEASURES)  # the whole file: the parts in name order
    assert auto[1] == reference.text(per_query=True) and auto[2] == reference.text(digits=17)


def test_columns_the_workers_do_not_read_exactly_go_to_sparks_reader(spark, tmp_path):
    qrels, run = write_pair(tmp_path, 12, odd=0.0, row_group_size=1000)
    table = pq.read_table(run)
    decimal = tmp_path / "decimal.parquet"  # a decimal score: Spark reads it through its text
    pq.write_table(table.set_column(2, "score", table["score"].cast(pa.decimal128(18, 6))), decimal)
    auto, readers = outcome(spark, qrels, [str(decimal)], "auto")
    assert readers == {"qrels": "pyarrow", "decimal.parquet": "spark"}
    assert auto == outcome(spark, qrels, [str(decimal)], "spark")[0]
    frame = spark.read.parquet(run)
    _result, readers = outcome(spark, qrels, frame, "auto")
    assert readers == {"qrels": "pyarrow", "run1": "dataframe"}


def test_an_unknown_reader_is_refused_before_spark_is_touched():
    with pytest.raises(ValueError, match="unknown reader 'jvm'; valid readers are 'auto', 'spark'"):
        evaluate_spark("qrels.txt", "bm25.run", ["map"], reader="jvm")
