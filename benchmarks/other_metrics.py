"""Speed of the top-N, rating and ROC metrics on large inputs, beside the alternatives in the same run.

Alternatives: scikit-learn's ``roc_auc_score``, ``mean_squared_error`` and ``mean_absolute_error`` on the
same arrays, and the plain textbook RMSE/MAE in numpy (no scaling: it overflows to inf for errors of
1e155 and more), to show what the overflow-proof scaling by a power of two costs.

Run: python benchmarks/other_metrics.py  (prints one line per case: best of 3 wall-clock runs)
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import mean_absolute_error, mean_squared_error, roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from metrics.other.rating import mae, rmse  # noqa: E402
from metrics.other.roc import auc, rank_loss, roc_steps  # noqa: E402
from metrics.other.topn import summary  # noqa: E402


def best_of(func, repeat=3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    rng = np.random.default_rng(0)
    cases = []
    n = 1_000_000
    scores = rng.random(n).round(4)  # many ties
    labels = (rng.random(n) < 0.3).astype(int)
    s_list, l_list = scores.tolist(), labels.tolist()
    cases.append((f"auc trapezoid, {n:,} samples", lambda: auc(s_list, l_list)))
    cases.append(("  sklearn roc_auc_score, same lists", lambda: roc_auc_score(l_list, s_list)))
    cases.append(("  auc trapezoid, numpy arrays", lambda: auc(scores, labels)))
    cases.append(("  sklearn roc_auc_score, numpy arrays", lambda: roc_auc_score(labels, scores)))
    cases.append((f"rank loss (sorting), {n:,} samples", lambda: rank_loss(s_list, l_list)))
    m = 100_000
    cases.append((f"roc_steps table, {m:,} samples", lambda: roc_steps(s_list[:m], l_list[:m])))
    true, pred = (rng.random(n) * 5).tolist(), (rng.random(n) * 5).tolist()
    cases.append((f"rmse + mae, {n:,} pairs", lambda: (rmse(true, pred), mae(true, pred))))
    cases.append(("  sklearn mean_squared_error + mean_absolute_error", lambda: (
        np.sqrt(mean_squared_error(true, pred)), mean_absolute_error(true, pred))))
    t_arr, p_arr = np.array(true), np.array(pred)
    cases.append(("  rmse + mae, numpy arrays (scaled, fsum)", lambda: (rmse(t_arr, p_arr), mae(t_arr, p_arr))))
    cases.append(("  plain numpy sqrt(mean(e**2)), mean(|e|) (no scaling)", lambda: (
        np.sqrt(np.mean((t_arr - p_arr) ** 2)), np.mean(np.abs(t_arr - p_arr)))))
    users = 10_000
    items = [f"i{k}" for k in range(500)]
    runs = {f"u{u}": ([items[j] for j in rng.choice(500, 20, replace=False)],
                      [items[j] for j in rng.choice(500, 5, replace=False)]) for u in range(users)}
    cases.append((f"top-N summary, {users:,} users x 20 items, N=10", lambda: summary(runs, n=10)))
    for name, func in cases:
        print(f"{name:60s} {best_of(func) * 1000:10.1f} ms")


if __name__ == "__main__":
    main()
