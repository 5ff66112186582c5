"""How long "where did this number come from?" takes for a run of 10,000 queries, beside the alternatives.

The run has 10,000 queries of 100 documents (1,000,000 lines) with scores printed with 3 decimals (a few
ties, as in real runs), a repeated line in 3% of the queries and
queries missing on both sides; the qrels 20 graded judgements per query (200,000 lines).  Measured in one
process, one after the other:

* ``match_mean``: reading both files, evaluating every combination of settings (the grid), and matching
  a value written with 4 decimals (families, near misses with their queries);
* ``match_grid`` alone: another typed value against the grid already evaluated (what the page does while
  the value is typed);
* ``conformance``: the side-by-side table from the same grid;
* the alternative, one engine call per combination (``evaluate_runs`` with one ``nDCG(...)@10`` spec and
  the point's -M/-J options): timed on a sample of combinations and multiplied by their number;
* for scale, pytrec_eval computing one setting (``ndcg_cut.10``) on the same files, and trec_eval's own
  measures through this engine (``evaluate_runs``, ``ndcg_cut.10``).

    python benchmarks/match_mean.py            # 10,000 queries
    python benchmarks/match_mean.py --queries 2000

Report the ``uptime`` load beside the numbers (the lead re-measures on an idle machine).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from metrics.runfiles import evaluate_runs, read_qrels, read_run  # noqa: E402
from metrics.runfiles.conformance import conformance  # noqa: E402
from metrics.runfiles.match import MEAN_DIMENSIONS, match_grid, match_mean, mean_grid  # noqa: E402
from metrics.variant import Variant  # noqa: E402


def files(n_queries: int, depth: int = 100, judged: int = 20, seed: int = 0) -> tuple[bytes, bytes]:
    rng = np.random.default_rng(seed)
    q_lines, r_lines = [], []
    for i in range(n_queries):
        q = f"q{i}"
        pool = rng.choice(10 * depth, size=judged, replace=False)
        grades = rng.integers(0, 4, size=judged)
        if i % 50 != 7:  # 2% of the qrels queries are not in the run
            found = rng.permutation(pool)[:judged // 2]
            docs = np.concatenate([found, rng.choice(10 * depth, size=depth, replace=False)])
            docs = list(dict.fromkeys(docs.tolist()))[:depth]
            scores = np.round(rng.random(len(docs)) * 20, 3)  # printed with 3 decimals: a few ties
            r_lines += [f"{q} Q0 d{d} {j} {float(s)!r} bench\n" for j, (d, s) in enumerate(zip(docs, scores), 1)]
            if i % 33 == 0:  # a repeated line
                r_lines.append(f"{q} Q0 d{docs[0]} {len(docs) + 1} 0.5 bench\n")
        q_lines += [f"{q} 0 d{d} {g}\n" for d, g in zip(pool, grades)]
    r_lines += [f"extra{j} Q0 d{j} 1 1.0 bench\n" for j in range(20)]  # run queries the qrels lack
    return "".join(q_lines).encode(), "".join(r_lines).encode()


def timed(func):
    t0 = time.perf_counter()
    out = func()
    return out, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--sample", type=int, default=12, help="combinations timed one by one for the alternative")
    args = ap.parse_args()
    qrels, run = files(args.queries)
    newline = b"\n"
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.queries:,} queries, {run.count(newline):,} run lines, {qrels.count(newline):,} qrels lines; "
          f"load {load}")
    value = "0.4523"
    result, t_all = timed(lambda: match_mean(value, qrels, run, "nDCG@10"))
    grid = result.grid
    n_points = len(grid.means())
    print(f"match_mean (read, {n_points:,} combinations, match): {t_all:6.2f} s  "
          f"({len(result.libraries)} libraries, {len(result.families)} families, "
          f"{len(result.near_misses)} near misses)")
    _, t_grid = timed(lambda: mean_grid(qrels, run, "nDCG@10"))
    print(f"  of which the grid (read + evaluate):            {t_grid:6.2f} s")
    _, t_match = timed(lambda: match_grid("0.3821", grid))
    print(f"match_grid, another value on the same grid:       {t_match:6.2f} s")
    _, t_conf = timed(lambda: conformance(grid))
    print(f"conformance table from the grid:                  {t_conf:6.2f} s")

    # the alternative: one engine call per combination of the ranking and variant settings
    q_table, r_table = read_qrels(qrels).table, read_run(run).table
    c = grid.candidates
    combos = [(j, ties, gain, idcg) for j in c["judged_only"] for ties in c["ties"] for gain in c["gain"]
              for idcg in ("judged", "list")]
    random.Random(0).shuffle(combos)
    t0 = time.perf_counter()
    for j, ties, gain, idcg in combos[:args.sample]:
        spec = Variant(gain=gain, idcg=idcg, ties=ties, k=10).format()
        evaluate_runs(q_table, [r_table], [spec], judged_only=j == "judged")
    per_call = (time.perf_counter() - t0) / args.sample
    engine_points = n_points // np.prod([len(c[d]) for d in ("zero_idcg", "queries", "printed")])
    print(f"alternative, one engine call per combination:     {per_call:6.3f} s each x {engine_points:,} "
          f"= {per_call * engine_points:7.1f} s (extrapolated from {args.sample})")

    import pytrec_eval

    qd: dict = {}
    for line in qrels.decode().splitlines():
        q, _, d, g = line.split()
        qd.setdefault(q, {})[d] = int(g)
    rd: dict = {}
    for line in run.decode().splitlines():
        q, _, d, _, s, _ = line.split()
        rd.setdefault(q, {})[d] = float(s)
    _, t_py = timed(lambda: pytrec_eval.RelevanceEvaluator(qd, {"ndcg_cut.10"}).evaluate(rd))
    print(f"for scale: pytrec_eval, one setting (dicts built): {t_py:6.2f} s")
    _, t_one = timed(lambda: evaluate_runs(q_table, [r_table], ["ndcg_cut.10"]))
    print(f"for scale: this engine, trec_eval's ndcg_cut.10:   {t_one:6.2f} s")
    print("dimensions tried: " + "; ".join(f"{d} {len(c[d])}" for d in MEAN_DIMENSIONS))


if __name__ == "__main__":
    main()
