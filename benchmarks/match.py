"""How fast match_number answers, beside the naive loop over every convention (one convention_value each).

Median milliseconds over repeated calls, for lists of 5, 20 and 100 graded items with tied scores, two
unretrieved judged items, a cutoff and a value written with 4 decimals (the worst case: every
dimension has several choices).  The naive loop is run fewer times (it takes seconds).

    python benchmarks/match.py
"""
from __future__ import annotations

import statistics
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from metrics.lessons.match import match_number, match_number_naive  # noqa: E402
from metrics.ndcg import ndcg_from_scores  # noqa: E402


def case(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    grades = rng.integers(0, 4, size=n).tolist()
    grades[0] = max(grades[0], 1)
    scores = rng.choice([0.2, 0.4, 0.6, 0.8], size=n).tolist()
    pool = grades + [3, 1]
    k = max(1, n // 2)
    # trec_eval's ndcg_cut.k of this run (ties by docno, D1, D2, ... as match_number names them)
    names = [f"D{i}" for i in range(1, n + 1)]
    value = f"{ndcg_from_scores(grades, scores, k=k, pool=pool, ties='trec_eval', docnos=names):.4f}"
    return value, grades, scores, pool, k


def median_ms(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    print(f"{'items':>6} {'match_number':>14} {'naive loop':>12} {'speed-up':>9}  matches")
    for n, fast_repeat, naive_repeat in ((5, 21, 3), (20, 21, 1), (100, 11, 1)):
        value, grades, scores, pool, k = case(n)
        fast_call = partial(match_number, value, grades, scores=scores, pool=pool, k=k)
        fast_call()  # warm-up
        fast = median_ms(fast_call, fast_repeat)
        naive = median_ms(partial(match_number_naive, value, grades, scores=scores, pool=pool, k=k), naive_repeat)
        found = len(fast_call().library_keys)
        print(f"{n:>6} {fast:>11.1f} ms {naive:>9.0f} ms {naive / fast:>8.0f}x  {found} libraries")


if __name__ == "__main__":
    main()
