"""All-pairs significance: 10 systems x 10,000 queries, randomization test with 10,000 resamples,
ours (metrics.significance.all_pairs) beside ranx's compare in the same run, on the same per-query values.

Run: python benchmarks/significance.py [--queries 10000] [--systems 10] [--resamples 10000]
                                       [--ranx-permutations N]   (default: as many as ours)

What is timed (wall clock, after a warm-up on small input that pays imports and numba's compilation):

* ours: ``all_pairs(frame, test="randomization", n_resamples=R)`` — the 45 unordered pairs, the
  randomization test, Holm's correction AND a 95 % bootstrap interval for every pair (R resamples too),
  wins/losses/ties; then the same with the t-test (its time is mostly the bootstrap intervals);
* ranx: ``compare(qrels, runs, "ndcg@10", stat_test="fisher", n_permutations=R)`` as shipped (it
  evaluates every run, then tests all 90 *ordered* pairs: each pair twice), and separately its test step
  alone (``ranx.statistical_tests.compute_statistical_significance`` on the per-query scores it
  computed), with the t-test (``stat_test="student"``) too.

The per-query NDCG@10 values are ranx's own (``ranx.evaluate(..., return_mean=False)``), so both tools
test exactly the same numbers; the p-values are compared (t-test: equal; randomization: both Monte Carlo
with different random streams, so they differ by sampling error, reported in standard errors).
``--ranx-permutations N`` (N < R) runs ranx with fewer permutations and says so; its time grows linearly
with N (each permutation is one pass over the queries), so the line also shows the time scaled to R.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from metrics.significance import all_pairs  # noqa: E402


def synthetic(n_queries: int, n_systems: int, docs: int = 20, seed: int = 0):
    """qrels and runs whose systems differ by a little skill each (some pairs close, some far apart)."""
    rng = np.random.default_rng(seed)
    grades = rng.integers(0, 4, (n_queries, docs))
    qids = [f"q{i:05d}" for i in range(n_queries)]
    names = [f"d{j:02d}" for j in range(docs)]
    qrels = {q: {names[j]: int(g) for j, g in enumerate(row) if g > 0} or {names[0]: 1}
             for q, row in zip(qids, grades)}
    runs = {}
    for s in range(n_systems):
        skill = 1.0 + 0.01 * s
        scores = grades * skill + rng.normal(0, 1.2, (n_queries, docs))
        runs[f"sys{s}"] = {q: dict(zip(names, row.tolist())) for q, row in zip(qids, scores)}
    return qrels, runs


def timed(func):
    start = time.perf_counter()
    out = func()
    return out, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--systems", type=int, default=10)
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--ranx-permutations", type=int, default=None)
    args = ap.parse_args()
    R = args.resamples
    R_ranx = args.ranx_permutations or R
    warnings.simplefilter("ignore")  # numba's type-safety warnings are about ranx

    import ranx
    from ranx.statistical_tests import compute_statistical_significance

    # Warm-up: imports, numba compilation (or its cache), BLAS threads.
    wq, wr = synthetic(50, 2, seed=1)
    w_runs = [ranx.Run(r, name=n) for n, r in wr.items()]
    ranx.compare(ranx.Qrels(wq), w_runs, "ndcg@10", stat_test="fisher", n_permutations=50)
    ranx.compare(ranx.Qrels(wq), w_runs, "ndcg@10", stat_test="student")
    all_pairs(pd.DataFrame(np.random.default_rng(0).random((50, 3))), n_resamples=50)

    print(f"data: {args.queries:,} queries x {args.systems} systems, 20 documents each; NDCG@10 by ranx")
    qrels_d, runs_d = synthetic(args.queries, args.systems)
    qrels = ranx.Qrels(qrels_d)
    runs = [ranx.Run(r, name=n) for n, r in runs_d.items()]
    per, t_eval = timed(lambda: {run.name: np.asarray(ranx.evaluate(qrels, run, "ndcg@10", return_mean=False))
                                 for run in runs})
    frame = pd.DataFrame(per)
    pairs = args.systems * (args.systems - 1) // 2
    print(f"ranx evaluate, {args.systems} runs (not part of any test time below): {t_eval:.2f} s")

    ours, t_ours = timed(lambda: all_pairs(frame, test="randomization", n_resamples=R, seed=0))
    ours_t, t_ours_t = timed(lambda: all_pairs(frame, test="t", n_resamples=R, seed=0))
    print(f"ours  all_pairs randomization, {pairs} pairs, R={R:,} (+ bootstrap CIs, Holm): {t_ours:8.2f} s")
    print(f"ours  all_pairs t-test,        {pairs} pairs          (+ bootstrap CIs, Holm): {t_ours_t:8.2f} s")

    scores = {name: {"ndcg@10": values} for name, values in per.items()}
    names = list(per)
    note = "" if R_ranx == R else f"  [ran with {R_ranx:,} permutations; x{R / R_ranx:g} = {{scaled:.1f}} s at R={R:,}]"
    stud, t_rstud = timed(lambda: ranx.compare(qrels, runs, "ndcg@10", stat_test="student", max_p=0.05))
    print(f"ranx  compare student, {2 * pairs} ordered pairs (incl. its evaluation):            {t_rstud:8.2f} s")
    fisher_only, t_rtest = timed(lambda: compute_statistical_significance(names, scores, "fisher", R_ranx, 0.05, 42))
    print(f"ranx  fisher test step only, {2 * pairs} ordered pairs, R={R_ranx:,}:                "
          f"{t_rtest:8.2f} s" + note.format(scaled=t_rtest * R / R_ranx))
    fisher, t_rfull = timed(lambda: ranx.compare(qrels, runs, "ndcg@10", stat_test="fisher", n_permutations=R_ranx,
                                                 max_p=0.05, random_seed=42))
    print(f"ranx  compare fisher, {2 * pairs} ordered pairs (incl. its evaluation), R={R_ranx:,}:    "
          f"{t_rfull:8.2f} s" + note.format(scaled=t_eval + (t_rfull - t_eval) * R / R_ranx))

    ranx_full = t_rfull if R_ranx == R else t_eval + (t_rfull - t_eval) * R / R_ranx
    ranx_test = t_rtest * R / R_ranx
    print(f"speed-up, randomization: {ranx_full / t_ours:.1f}x vs compare; {ranx_test / t_ours:.1f}x vs its test "
          f"step alone ({ranx_test / 2 / t_ours:.1f}x if ranx tested each pair once)"
          + ("" if R_ranx == R else " [ranx scaled]"))

    # Agreement on the same per-query values.
    worst_t, worst_z = 0.0, 0.0
    for row_t, row in zip(ours_t.itertuples(), ours.itertuples()):
        key = (row.system_a, row.system_b)
        worst_t = max(worst_t, abs(row_t.p_value - stud.comparisons[key]["ndcg@10"]["p_value"]))
        theirs = fisher.comparisons[key]["ndcg@10"]["p_value"]
        p = max(min(row.p_value, 1 - 1 / R), 1 / R)
        se = math.sqrt(p * (1 - p) * (1 / R + 1 / R_ranx))
        worst_z = max(worst_z, abs(row.p_value - theirs) / se)
    print(f"agreement: t-test max |p_ours - p_ranx| = {worst_t:.2e}; randomization max |difference| = "
          f"{worst_z:.2f} standard errors of the difference of two Monte Carlo estimates")
    print("p-values (ours, randomization): min {:.4g}, median {:.4g}, max {:.4g}; significant after Holm: {}/{}".format(
        ours["p_value"].min(), ours["p_value"].median(), ours["p_value"].max(), int(ours["significant"].sum()), pairs))


if __name__ == "__main__":
    main()
