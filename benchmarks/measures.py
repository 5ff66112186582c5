"""Every ir_measures measure (and today's trec_eval measures beside them) against pyarrow's read of the files.

    python benchmarks/measures.py                  # 100,000 queries x 100 documents
    python benchmarks/measures.py --sizes 10000    # a quick check

The files are benchmarks/run_files.py's (a qrels file with 20 judged documents per query, grades 0-3, and a
run of 100 documents per query), plus diversity qrels made from the same judgments (each judged document
relevant to 1-3 of 4 subtopics, grade 0-1) for the diversity measures.  ``pyarrow`` is the time to read the
qrels and the run with pyarrow's CSV reader (what every evaluation starts with).  Each measure is then
evaluated alone, end to end from the tables already read (``metrics.runfiles.evaluate_runs``: the qrels
index, the ranker -- with the tie orders and scores the measure asks for -- and its kernel), best of
``--repeat`` runs; the last column is that time over pyarrow's read (the aim: at most 2).  Prints a
markdown table and ``uptime``'s load averages (the machine is shared).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from run_files import DATA, generate  # noqa: E402

TODAY = ["ndcg_cut.10", "map", "P.10", "recip_rank", "nDCG(gain=exponential)@10"]
IR_MEASURES = [
    "nDCG@10", "nDCG", "nDCG(dcg='exp-log2')@10", "nDCG(gains={0:0,1:1,2:3,3:7})@10", "P@10", "P(rel=2)@5",
    "R@100", "AP", "AP@10", "RR", "RR(rel=2)@10", "Rprec(rel=1)", "Bpref(rel=1)", "infAP(rel=1)", "Success@10",
    "IPrec@0.5", "SetP", "SetR", "SetF", "SetAP", "NumQ", "NumRel", "NumRet", "Judged@10", "Compat",
    "Accuracy@10", "RBP(rel=1)", "BPM(max_rel=3)@10", "SDCG(max_rel=3)@10", "NERR8(max_rel=3)@10",
    "NERR9(max_rel=3)@10", "NERR10(max_rel=3)", "NERR11(max_rel=3)", "INST(max_rel=3)", "INSQ(max_rel=3)",
    "ERR@10", "nDCG(dcg='exp-log2')",
]
DIVERSITY = ["alpha_nDCG@20", "alpha_DCG@20", "ERR_IA@20", "nERR_IA@20", "NRBP", "nNRBP", "AP_IA", "P_IA@20",
             "StRecall@20"]


def subtopic_qrels(qrels_path: Path, seed: int = 1) -> Path:
    """Diversity qrels from the qrels: each judged document relevant to 1-3 of 4 subtopics (grade 0 or 1)."""
    out = qrels_path.with_name(qrels_path.stem + "_subtopics.txt")
    if out.exists():
        return out
    rng = np.random.default_rng(seed)
    lines = []
    for line in qrels_path.read_text().splitlines():
        q, _, d, g = line.split()
        for s in rng.choice(4, size=int(rng.integers(1, 4)), replace=False):
            lines.append(f"{q} {s} {d} {int(int(g) > 0 and rng.random() < 0.7)}\n")
    out.write_text("".join(lines))
    return out


def read_time(qrels: Path, run: Path, repeat: int) -> float:
    import pyarrow.csv as pacsv

    opts = pacsv.ParseOptions(delimiter=" ")
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        pacsv.read_csv(qrels, read_options=pacsv.ReadOptions(column_names=["q", "i", "d", "r"]), parse_options=opts)
        pacsv.read_csv(run, read_options=pacsv.ReadOptions(column_names=["q", "z", "d", "k", "s", "t"]),
                       parse_options=opts)
        best = min(best, time.perf_counter() - t)
    return best


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--only", nargs="*", default=None, help="measure names to time (default: all)")
    args = p.parse_args(argv)
    from metrics.runfiles import evaluate_runs, read_qrels, read_run
    from metrics.runfiles.subtopics import read_subtopic_qrels

    for n in args.sizes:
        qrels_path, run_path = generate(n)
        div_path = subtopic_qrels(qrels_path)
        base = read_time(qrels_path, run_path, args.repeat)
        qt = read_qrels(str(qrels_path)).table
        rt = read_run(str(run_path), name="run").table
        dt = read_subtopic_qrels(str(div_path)).table
        rows = []
        for spec in [*TODAY, *IR_MEASURES, *DIVERSITY]:
            if args.only and spec not in args.only:
                continue
            q = dt if spec in DIVERSITY else qt
            best = float("inf")
            for _ in range(args.repeat):
                t = time.perf_counter()
                evaluate_runs(q, [rt], [spec])
                best = min(best, time.perf_counter() - t)
            rows.append((spec, best))
            print(f"{spec:40s} {best:8.3f} s  {best / base:5.2f} x", file=sys.stderr, flush=True)
        load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        print(f"\n### {n:,} queries x 100 documents ({n * 100:,} run lines); pyarrow reads both files in "
              f"{base:.3f} s\n\nuptime: {load} (cores: {os.cpu_count()})\n")
        print("| measure | evaluate (s) | / pyarrow read |\n|---|---:|---:|")
        for spec, secs in rows:
            print(f"| `{spec}` | {secs:.3f} | {secs / base:.2f} |")
    return 0


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    sys.exit(main())
