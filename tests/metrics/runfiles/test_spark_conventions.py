"""Spark's own RankingMetrics, reproduced by the library conventions (metrics.lessons.libraries) and checked
against the real Spark: binary ndcgAt, precisionAt, recallAt, meanAveragePrecisionAt and meanAveragePrecision
through PySpark, graded ndcgAt through the JVM's RankingMetrics.of on (prediction, labels, relevance) triples
(PySpark's own wrapper drops the relevance values).  Each convention's number per list is averaged over the
lists as Spark averages its queries; they agree to 1e-9."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.lessons.libraries import LIBRARIES, evaluate_library, library_pool
from metrics.lessons.match import match_number
from tests.conftest import examples

pytestmark = pytest.mark.spark

#: library key -> how Spark is asked (k is the batch's cutoff).
SPARK_CALLS = {
    "spark": lambda m, k: m.ndcgAt(k),
    "spark_precision": lambda m, k: m.precisionAt(k),
    "spark_recall": lambda m, k: m.recallAt(k),
    "spark_map_at": lambda m, k: m.meanAveragePrecisionAt(k),
    "spark_map": lambda m, k: m.meanAveragePrecision,  # a property in PySpark (a method on the JVM object)
}


def as_spark(rel: list, unretrieved: list) -> tuple[list, list, list]:
    """(predicted ids, label ids, relevance of each label): the list's items d0, d1, ... in rank order; the
    labels are the judged items of grade > 0 (the list's, then the unretrieved u0, u1, ...) in that order."""
    pred = [f"d{i}" for i in range(len(rel))]
    judged = list(zip(pred, rel)) + [(f"u{j}", g) for j, g in enumerate(unretrieved)]
    labels = [(item, float(g)) for item, g in judged if g > 0]
    return pred, [item for item, _ in labels], [g for _, g in labels]


def ours(key: str, queries, k: int) -> float:
    return sum(evaluate_library(key, rel, unretrieved=unret, k=k)["ndcg"] for rel, unret in queries) / len(queries)


def jvm_metrics(spark, queries, *, graded: bool):
    """Spark's RankingMetrics built by the JVM's RankingMetrics.of from (prediction, labels[, relevance]) tuples
    of java lists: no type inference (PySpark's wrapper cannot infer the type of lists that are all empty)."""
    sc = spark.sparkContext
    jvm = sc._jvm

    def jlist(xs):
        out = jvm.java.util.ArrayList()
        for x in xs:
            out.add(x)
        return out

    rows = []
    for p, lab, r in (as_spark(*q) for q in queries):
        rows.append(jvm.scala.Tuple3(jlist(p), jlist(lab), jlist(r)) if graded else
                    jvm.scala.Tuple2(jlist(p), jlist(lab)))
    return jvm.org.apache.spark.mllib.evaluation.RankingMetrics.of(sc._jsc.parallelize(jlist(rows), 2))


def spark_binary(spark, queries, key: str, k: int) -> float:
    metrics = jvm_metrics(spark, queries, graded=False)
    if key == "spark_map":
        return metrics.meanAveragePrecision()
    return SPARK_CALLS[key](metrics, k)


def spark_graded(spark, queries, k: int) -> float:
    return jvm_metrics(spark, queries, graded=True).ndcgAt(k)


grades = st.integers(0, 3)
query = st.tuples(st.lists(grades, min_size=1, max_size=9), st.lists(grades, max_size=4))


@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(queries=st.lists(query, min_size=1, max_size=25), k=st.integers(1, 12))
def test_every_spark_convention_equals_the_real_spark(spark, queries, k):
    for key in SPARK_CALLS:
        assert math.isclose(ours(key, queries, k), spark_binary(spark, queries, key, k), rel_tol=1e-9,
                            abs_tol=1e-12), key
    assert math.isclose(ours("spark_graded", queries, k), spark_graded(spark, queries, k), rel_tol=1e-9,
                        abs_tol=1e-12)


def test_graded_ndcg_walks_the_labels_in_the_order_given_as_spark_does(spark):
    # The ranked list 0, 3, 2 (d0, d1, d2) with labels d1 (3) then d2 (2): Spark's IDCG walks them in that
    # order; given as 2 then 3 (the pool's order), the "ideal" is smaller and NDCG can exceed the sorted one.
    queries = [([0, 3, 2], [])]
    value = ours("spark_graded", queries, 3)
    # DCG = 7/ln 3 + 3/ln 4, IDCG = 7/ln 2 + 3/ln 3 (labels d1, d2 in pool order)
    expected = (7 / math.log(3) + 3 / math.log(4)) / (7 / math.log(2) + 3 / math.log(3))
    assert math.isclose(value, expected, rel_tol=1e-12)
    assert math.isclose(spark_graded(spark, queries, 3), expected, rel_tol=1e-9)


def test_pyspark_docstring_example_is_reproduced(spark):
    # pyspark.mllib.evaluation.RankingMetrics' own example (its docstring prints these prefixes):
    # predictions [1,6,2,7,8,3,9,10,4,5] for labels {1..5}, [4,1,5,6,2,7,3,8,9,10] for {1,2,3}, [1..5] for {}.
    preds = [[1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [4, 1, 5, 6, 2, 7, 3, 8, 9, 10], [1, 2, 3, 4, 5]]
    labels = [{1, 2, 3, 4, 5}, {1, 2, 3}, set()]
    queries = [([1 if p in lab else 0 for p in pred], [1] * len(lab - set(pred))) for pred, lab in zip(preds, labels)]
    printed = {("spark_precision", 1): "0.33", ("spark_precision", 5): "0.26", ("spark_precision", 15): "0.17",
               ("spark_map", 1): "0.35", ("spark_map_at", 1): "0.3333333333333333", ("spark_map_at", 2): "0.25",
               ("spark", 3): "0.33", ("spark", 10): "0.48", ("spark_recall", 1): "0.06",
               ("spark_recall", 5): "0.35", ("spark_recall", 15): "0.66"}
    for (key, k), prefix in printed.items():
        assert f"{ours(key, queries, k):.17f}".startswith(prefix), (key, k)
    # by hand: precisionAt(5) = (2/5 + 2/5 + 0) / 3 = 0.2667 (the empty ground truth counts 0)
    assert math.isclose(ours("spark_precision", queries, 5), (2 / 5 + 2 / 5) / 3, rel_tol=1e-15)
    # and through PySpark's own wrapper, on the real Spark
    from pyspark.mllib.evaluation import RankingMetrics

    metrics = RankingMetrics(spark.sparkContext.parallelize(list(zip(preds, [sorted(lab) for lab in labels])), 2))
    for (key, k), _prefix in printed.items():
        assert math.isclose(ours(key, queries, k), SPARK_CALLS[key](metrics, k), rel_tol=1e-9, abs_tol=1e-12), key


def test_the_spark_conventions_cite_their_source_and_were_checked_against_spark():
    for key in ("spark", "spark_graded", *SPARK_CALLS):
        lib = LIBRARIES[key]
        assert "RankingMetrics.scala" in lib.source and "4.3.0" in lib.source and lib.checked_against == "pyspark"


def test_match_number_names_spark_precision_for_a_precision():
    # 3, 0, 1 at k = 5: two hits over k = 5 -> 0.4 (not 2/3: Spark divides by k)
    result = match_number("0.40", [3, 0, 1], k=5)
    assert "spark_precision" in result.library_keys
    assert library_pool([3, 0, 1], [2]) == [3.0, 0.0, 1.0, 2.0]
    recall = match_number("0.667", [3, 0, 1], pool=[3, 0, 1, 2], k=5)  # 2 of 3 labels found
    assert "spark_recall" in recall.library_keys and "spark_precision" not in recall.library_keys
