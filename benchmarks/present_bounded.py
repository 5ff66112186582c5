"""Present's outputs for extreme inputs: the time and the peak memory of every slide (with its HTML, its chart spec
and its screen-reader sentence) and of the handout PDF, for document 000's lecture beside the inputs of issue 24.

The alternative measured in the same run is the handout's old chart grid: the number of grid lines its loop
(``v = 0; while v <= ymax + 1e-12: v += step``) would draw for the same top value, counted with exact
arithmetic (never run: for grades of 1e-300 it is about 10^288 lines, a loop that held a core until the server
was killed).  The new grid is counted (at most ``ui.pages.present.handout.AXIS_STEPS`` steps).

    python benchmarks/present_bounded.py [--repeat 3]

Record ``uptime``'s load beside the numbers: on a busy machine every time grows.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
import tracemalloc
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ui.charts.present import discount_curve, gain_bars  # noqa: E402
from ui.pages.present import (  # noqa: E402
    handout,  # noqa: E402
    link,
    markup,
    slides,
)

CASES = {
    "document 000 (3,2,1,3,2)": {"present_doc": "000-graded"},
    "rels=1e-300,1e-300 (issue 24)": {"present_rels": (1e-300, 1e-300)},
    "rels=5e-324 (smallest subnormal)": {"present_rels": (5e-324,)},
    "mixed 5e-324 .. 1000": {"present_rels": (5e-324, 1e-300, 1e-7, 1000.0)},
    "5,000 grades, 5,000 unretrieved": {"present_rels": tuple(float(i % 997) for i in range(5000)),
                                        "present_unretrieved": tuple(float(i % 13) for i in range(5000))},
}


def old_grid_lines(top: float) -> str:
    """How many lines the old loop drew: ymax / step + 1e-12 / step steps past 0 (exact decimal arithmetic)."""
    raw = top / 4 if top > 0 else 1.0
    if raw == 0:
        return "error (log10 of 0: a subnormal top)"
    power = 10 ** math.floor(math.log10(raw))
    step = next((m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw), 10 * power)
    ymax = step * max(1, math.ceil(top / step)) if top > 0 else 1.0
    lines = int((Decimal(ymax) + Decimal("1e-12")) / Decimal(step)) + 1
    return f"{lines:.3g}" if lines > 10**6 else str(lines)


def measure(fn, repeat: int) -> tuple[float, float]:
    """(median seconds, peak MiB of Python allocations) of ``fn()``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(times), peak / 2**20


def every_slide(lecture) -> None:
    bd = slides.numbers(lecture)["breakdown"]
    for i, _ in enumerate(slides.steps(lecture), start=1):
        s = slides.slide(lecture, i, "en")
        markup.cards_html(s, "en"), markup.number_html(s, "en"), markup.variants_html(s, "en")
        slides.announcement(s, "en")
        if s.chart == "curve":
            discount_curve(bd, lecture.n_terms, s.mark, markup.PALETTES["light"], "en").to_dict()
        elif s.chart == "bars":
            gain_bars(bd, markup.PALETTES["light"], "en").to_dict()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'input':36} {'steps':>5} {'slides s':>9} {'MiB':>6} {'handout s':>10} {'MiB':>6} "
          f"{'grid lines':>10} {'old grid lines':>16}")
    for name, values in CASES.items():
        lecture, _ = link.lecture_from_values(values)
        slides.numbers.cache_clear()
        bd = slides.numbers(lecture)["breakdown"]
        top = float(max(bd["discounted_gain"].fillna(0).max(), bd["ideal_discounted_gain"].fillna(0).max()))
        slide_s, slide_mb = measure(lambda lecture=lecture: every_slide(lecture), args.repeat)
        pdf_s, pdf_mb = measure(lambda lecture=lecture: handout.build(lecture, "en"), args.repeat)
        grid = len(handout.ChartAxis.for_top(top).ticks())
        print(f"{name:36} {len(slides.steps(lecture)):>5} {slide_s:>9.3f} {slide_mb:>6.1f} {pdf_s:>10.3f} "
              f"{pdf_mb:>6.1f} {grid:>10} {old_grid_lines(top):>16}")


if __name__ == "__main__":
    main()
