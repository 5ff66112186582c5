"""How metrics.runfiles.spark groups rows: buckets are ranges of query ids in byte order (range_buckets), each
bucket in a partition of its own (partition_keys, Spark's own hash), file order counted beside the rows.  The
grouping must never change a value: ids that a hash would merge, ids that only look alike (unicode forms, numbers
as text, prefixes), scores tied across a query (trec_eval breaks them by document id in byte order; the stable
and ranx rules by file order), a query's rows spread over several input partitions and Arrow batches.  The pure
parts are checked against independent models here without Spark; the Spark tests compare with the single
machine."""
from __future__ import annotations

import bisect
import unicodedata

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.registry import DISCOUNTS, GAINS, TIES
from metrics.runfiles.batch import make_variants
from metrics.runfiles.measures import parse_measures
from metrics.runfiles.read import read_qrels, read_run
from metrics.runfiles.spark import _murmur3_int, evaluate_spark, partition_keys, range_buckets
from metrics.runfiles.trec import evaluate_runs
from tests.metrics.conftest import PROPERTY

#: Query ids and document ids that look alike or sort in surprising ways: the same letters in NFC and NFD (two
#: different byte strings), Chinese, Korean (precomposed and as jamo), an emoji (4 UTF-8 bytes), numbers as text
#: ("10" < "9" in byte order; "01" and "1" are different ids), prefixes of each other.
LOOKALIKE = ["é", unicodedata.normalize("NFD", "é"), "查询", "질의", unicodedata.normalize("NFD", "질의"), "🙂", "10",
             "9", "01", "1", "1.0", "q", "q1", "q10", "Q1"]

#: Two query ids and two document ids whose Spark hashes (``hash()``, 32-bit Murmur3, seed 42) are equal,
#: found by hashing "q0".."q299999" and "doc-0".."doc-299999" in Spark; the test checks it again.
SAME_HASH_QIDS = ("q39042", "q68513")
SAME_HASH_DOCNOS = ("doc-37986", "doc-89627")

ids = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=6)


@PROPERTY
@given(qids=st.lists(ids, max_size=40), bounds=st.lists(ids, max_size=6))
def test_range_buckets_count_the_bounds_at_or_before_each_id_in_byte_order(qids, bounds):
    # the model: Python's bisect on the UTF-8 bytes (byte order is trec_eval's strcmp order)
    cuts = sorted({b.encode() for b in bounds})
    expected = [bisect.bisect_right(cuts, q.encode()) for q in qids]
    got = range_buckets(pa.array(qids, pa.string()), pa.array([c.decode() for c in cuts], pa.string()))
    assert got.tolist() == expected


def test_range_buckets_by_hand():
    # byte order: "01" < "1" < "1.0" < "10" < "9" < "q"; bounds "1" and "9": [.., "1") [ "1", "9") ["9", ..)
    got = range_buckets(pa.array(["10", "9", "01", "1", "1.0", "q"]), pa.array(["1", "9"]))
    assert got.tolist() == [1, 2, 0, 1, 1, 2]


@PROPERTY
@given(n=st.integers(1, 300))
def test_partition_keys_are_distinct_and_one_for_each_partition(n):
    keys = partition_keys(n)
    assert len(keys) == len(set(keys)) == n and min(keys) >= 0
    # the model: each key's Murmur3 hash modulo n (pmod) is its own place
    assert [int(h) % n for h in _murmur3_int(np.array(keys))] == list(range(n))


@PROPERTY
@given(gain=st.sampled_from(list(GAINS)), discount=st.sampled_from(list(DISCOUNTS)),
       idcg=st.sampled_from(["judged", "list"]), ties=st.sampled_from(list(TIES)), k=st.none() | st.integers(1, 10**12),
       base=st.floats(1e-6, 1e6).filter(lambda b: b != 1.0),
       level=st.none() | st.floats(-1e6, 1e6, allow_subnormal=True))
def test_a_variant_spec_reads_back_as_the_same_measure(gain, discount, idcg, ties, k, base, level):
    # evaluate_variants_spark asks Spark for each variant by its -m spec: the spec must give back the very
    # parameters batch.evaluate uses (base and level written with repr: every float comes back exactly)
    (v,) = make_variants(gains=[gain], discounts=[discount], idcg=[idcg], ties=[ties])
    asked = v.with_(k=k, log_base=base, level=level)  # what batch.evaluate asks the engine for
    spec = asked.format()
    (requested,) = parse_measures([spec])
    assert requested.params == (asked,)
    assert requested.names == (spec,)


# ------------------------------------------------------------------------------------------------ on Spark
@pytest.mark.spark
def test_murmur3_and_partition_keys_are_sparks_own(spark):
    from pyspark.sql import functions as F

    rng = np.random.default_rng(3)
    values = np.r_[0, 1, -1, 2**31 - 1, -(2**31), rng.integers(-(2**31), 2**31 - 1, 200)].astype(np.int64)
    frame = spark.createDataFrame([(int(v),) for v in values], "k int").select("k", F.hash("k").alias("h"))
    got = {r["k"]: r["h"] for r in frame.collect()}
    assert [got[int(v)] for v in values] == _murmur3_int(values).tolist()
    for n in (1, 2, 5, 23):
        keys = partition_keys(n)
        placed = spark.createDataFrame([(k,) for k in keys], "_key int").repartition(n, "_key") \
            .select("_key", F.spark_partition_id().alias("p")).collect()
        assert sorted((keys.index(r["_key"]), r["p"]) for r in placed) == [(b, b) for b in range(n)]


def lookalike_data(seed: int):
    """Qrels and a run over LOOKALIKE and the same-hash ids; every query has tied scores (documents ordered by
    trec_eval by id, by the stable and ranx rules by line)."""
    rng = np.random.default_rng(seed)
    queries = LOOKALIKE + list(SAME_HASH_QIDS)
    docs = LOOKALIKE + list(SAME_HASH_DOCNOS) + [f"d{i}" for i in range(6)]
    qrels, run = [], []
    for q in queries:
        judged = rng.choice(len(docs), size=8, replace=False)
        qrels += [(q, docs[d], float(rng.integers(0, 4))) for d in judged]
        ranked = rng.choice(len(docs), size=12, replace=False)
        run += [(q, docs[d], float(rng.integers(0, 3))) for d in ranked]  # three scores for 12 documents: ties
    return qrels, run


MEASURES = ["all_trec", "relstring.12", "nDCG(ties=stable)@5", "nDCG(ties=ranx,gain=exponential)",
            "nDCG(ties=average,idcg=list)@3", "nDCG(ties=optimistic)", "nDCG(ties=pessimistic)@7"]


@pytest.mark.spark
def test_the_same_hash_premise(spark):
    from pyspark.sql import functions as F

    for a, b in (SAME_HASH_QIDS, SAME_HASH_DOCNOS):
        h = spark.createDataFrame([(a,), (b,)], "s string").select(F.hash("s").alias("h")).collect()
        assert h[0]["h"] == h[1]["h"]


@pytest.mark.spark
@pytest.mark.parametrize("buckets", [1, 3, 40])
def test_lookalike_and_colliding_ids_and_ties_spread_over_partitions_and_batches(spark, tmp_path, buckets):
    # TREC files read by Spark in partitions of 300 bytes, Arrow batches of 7 rows: a query's rows come in
    # several blocks from several partitions; file order must survive for the stable and ranx rules
    qrels, run = lookalike_data(buckets)
    qrels_file, run_file = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_file.write_bytes("".join(f"{q} 0 {d} {g:g}\n" for q, d, g in qrels).encode())
    run_file.write_bytes("".join(f"{q} Q0 {d} {i} {s} tag{i % 3}\n"
                                 for i, (q, d, s) in enumerate(run, start=1)).encode())
    reference = evaluate_runs(read_qrels(qrels_file).table, [read_run(run_file).table], MEASURES)
    saved = {key: spark.conf.get(key) for key in ("spark.sql.files.maxPartitionBytes",
                                                   "spark.sql.execution.arrow.maxRecordsPerBatch")}
    spark.conf.set("spark.sql.files.maxPartitionBytes", "300")
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "7")
    try:
        assert spark.read.text(str(run_file)).rdd.getNumPartitions() > 5
        ev = evaluate_spark(str(qrels_file), [str(run_file)], MEASURES, spark=spark, buckets=buckets)
        got = ev.result()
    finally:
        for key, value in saved.items():
            spark.conf.set(key, value)
    assert got.text(per_query=True, digits=17) == reference.text(per_query=True, digits=17)
    assert len(reference.queries) == len(LOOKALIKE) + 2  # every look-alike is a query of its own
    assert "runid                 \tall\ttag" in got.text()  # the tag of the file's last line


@pytest.mark.spark
def test_dataframe_rows_in_many_partitions_keep_their_order(spark):
    # a DataFrame of 6 partitions: "stable" and "ranx" follow its row order, as a file's lines
    qrels, run = lookalike_data(11)
    q_df = spark.sparkContext.parallelize(qrels, 4).toDF("qid string, docno string, rel double")
    r_df = spark.sparkContext.parallelize(run, 6).toDF("qid string, docno string, score double")
    ev = evaluate_spark(q_df, {"r": r_df}, MEASURES, spark=spark, buckets=4)
    q = read_qrels("".join(f"{a} 0 {b} {c:g}\n" for a, b, c in qrels).encode()).table
    r = read_run("".join(f"{a} Q0 {b} 1 {c!r} r\n" for a, b, c in run).encode(), name="r").table
    assert ev.result().text(per_query=True, digits=17) == evaluate_runs(q, [r], MEASURES).text(per_query=True,
                                                                                                 digits=17)
