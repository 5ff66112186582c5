"""match_mean's Spark points against the real Spark (pyspark 4.3): RankingMetrics.ndcgAt(k) and RankingEvaluator
(ndcgAtK) on one row per query in both files -- the run's documents sorted by score (ties in file order, every
line of a repeated document kept), the labels the judged documents of grade > 0 -- averaged as Spark
averages; equal to the grid's mean to 1e-9."""
from __future__ import annotations

import pytest

from metrics.runfiles.match import RUN_LIBRARIES, mean_grid
from tests.metrics.runfiles.test_match_mean import generate

pytestmark = pytest.mark.spark


def spark_rows(qrels: dict, lines: list) -> list[tuple[list, list]]:
    by_q: dict = {}
    for i, (q, d, s) in enumerate(lines):
        by_q.setdefault(q, []).append((-s, i, d))
    rows = []
    for q in sorted(by_q):
        if q not in qrels:
            continue  # the inner join of the run and the qrels
        predicted = [d for _, _, d in sorted(by_q[q])]  # score descending, ties in file order
        labels = [d for d, g in qrels[q].items() if g > 0]
        rows.append((predicted, labels))
    return rows


@pytest.mark.parametrize("seed", range(2))
def test_spark_ndcg_at_and_ranking_evaluator(spark, seed):
    from pyspark.ml.evaluation import RankingEvaluator

    qrels, lines, qb, rb = generate(seed, dups=True)
    grid = mean_grid(qb, rb, "nDCG@10")
    rows = spark_rows(qrels, lines)
    sc = spark.sparkContext
    jvm = sc._jvm

    def jlist(xs):
        out = jvm.java.util.ArrayList()
        for x in xs:
            out.add(x)
        return out

    pairs = jlist([jvm.scala.Tuple2(jlist(p), jlist(lab)) for p, lab in rows])
    metrics = jvm.org.apache.spark.mllib.evaluation.RankingMetrics.of(sc._jsc.parallelize(pairs, 2))
    theirs = metrics.ndcgAt(10)
    assert abs(grid.mean(RUN_LIBRARIES["spark"].settings) - theirs) <= 1e-9
    # the DataFrame form: prediction and label arrays of doubles (document ids as numbers)
    ids = {d: float(i) for i, d in enumerate(sorted({d for p, lab in rows for d in p + lab}))}
    frame = spark.createDataFrame([([ids[d] for d in p], [ids[d] for d in lab]) for p, lab in rows],
                                  "prediction array<double>, label array<double>")
    evaluated = RankingEvaluator(metricName="ndcgAtK", k=10).evaluate(frame)
    assert abs(grid.mean(RUN_LIBRARIES["spark_evaluator"].settings) - evaluated) <= 1e-9
