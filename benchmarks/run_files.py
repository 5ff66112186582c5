"""End-to-end evaluation of TREC files: metrics (ours) vs pytrec_eval vs ranx vs pyarrow just reading.

    python benchmarks/run_files.py                 # 10,000 and 100,000 queries x 100 documents
    python benchmarks/run_files.py --sizes 1000    # a quick check
    python benchmarks/run_files.py --tools pyarrow trec pytrec_eval_common   # trec_eval's measures only
    python benchmarks/run_files.py --sizes 10000 100000 --baseline HEAD~1 \
        --tools pyarrow trec trec@base ours_all ours_all@base                # a change, before and after

Two workloads.  trec_eval's measures: ``trec`` (ours, ``metrics.runfiles.evaluate_runs`` with ``-m common``:
runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P recall infAP
ndcg ndcg_cut map_cut success set_P set_recall set_F, i.e. ``all_trec`` minus the rarely used) against
``pytrec_eval_common`` (the same measures; parse, evaluate, average).  NDCG@10: ``ours`` (2 variants),
``ours_all`` (24), ranx, ``pytrec_eval`` (ndcg_cut.10).  ``pyarrow`` only reads the two files.

Files are generated once under benchmarks/data/ (git-ignored): a qrels file with 20 judged documents
per query (grades 0-3, about half of them retrieved) and a run with 100 documents per query, scores
distinct within a query (ranx breaks ties arbitrarily, so ties would make the values incomparable).

``--baseline REV`` also runs the tools named ``TOOL@base`` (e.g. ``trec@base ours_all@base``) on the code of
git revision REV (its ``metrics/`` extracted with ``git archive`` under benchmarks/data/), so that a change is
measured before and after in the same run, on the same files and the same machine load.

Each tool runs in its own fresh subprocess, one after another: the time is from "start reading the
files" to "mean NDCG@k computed" (imports, interpreter start-up and ranx's numba compilation, done
on the same pipeline over 1,000-query warm-up files first, are excluded); peak memory is the
child's own peak RSS, ``VmHWM`` read from ``/proc/self/status`` just before the child exits (not
``getrusage``: RUSAGE_CHILDREN keeps the largest child so far, and a child's RUSAGE_SELF counts what
it inherited before exec); it includes the interpreter, the libraries and the warm-up, shown beside
the RSS after the warm-up ("RSS before").  Every tool's per-query values are saved and compared: the
"max |diff|" columns give the largest difference from pytrec_eval (every common measure for ``trec``;
ndcg_cut_10 for the NDCG tools, linear gain) and from ranx (exponential gain).  Prints a markdown table.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
K = 10
DOCS_PER_QUERY = 100
JUDGED_PER_QUERY = 20
COLLECTION = 1_000_000
WARMUP = 1_000  # queries in the warm-up files


# ------------------------------------------------------------------------------------- data
def generate(n_queries: int, seed: int = 0) -> tuple[Path, Path]:
    import pyarrow as pa
    import pyarrow.csv as pacsv

    DATA.mkdir(parents=True, exist_ok=True)
    qrels_path = DATA / f"qrels_{n_queries}.txt"
    run_path = DATA / f"run_{n_queries}.txt"
    if qrels_path.exists() and run_path.exists():
        return qrels_path, run_path
    rng = np.random.default_rng(seed)
    opts = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    qids = np.array([f"q{i}" for i in range(n_queries)], dtype=object)
    # run: 100 distinct documents per query, strictly decreasing scores
    docs = rng.integers(0, COLLECTION, size=(n_queries, DOCS_PER_QUERY * 2))
    run_docs = np.empty((n_queries, DOCS_PER_QUERY), dtype=np.int64)
    for i in range(n_queries):  # distinct per query
        u = np.unique(docs[i])
        rng.shuffle(u)
        run_docs[i] = u[:DOCS_PER_QUERY]
    ranks = np.tile(np.arange(1, DOCS_PER_QUERY + 1), n_queries)
    scores = (DOCS_PER_QUERY + 1 - ranks) + np.round(rng.random(ranks.size) * 0.9, 6)
    doc_names = np.char.add("D", np.char.zfill(run_docs.ravel().astype(str), 7))
    run = pa.table({
        "qid": pa.array(np.repeat(qids, DOCS_PER_QUERY), pa.string()),
        "q0": pa.array(np.full(ranks.size, "Q0", dtype=object), pa.string()),
        "docno": pa.array(doc_names.astype(object), pa.string()),
        "rank": pa.array(ranks),
        "score": pa.array(scores),
        "tag": pa.array(np.full(ranks.size, "bench", dtype=object), pa.string()),
    })
    pacsv.write_csv(run, run_path, write_options=opts)
    # qrels: half of the judged documents come from the run (mostly from its top), half are unretrieved
    half = JUDGED_PER_QUERY // 2
    picked = np.sort(rng.random((n_queries, DOCS_PER_QUERY)) ** 2, axis=1)  # skewed towards the top
    pos = np.minimum((picked[:, :half] * DOCS_PER_QUERY).astype(int), DOCS_PER_QUERY - 1)
    judged_run = np.take_along_axis(run_docs, pos, axis=1)
    judged_new = COLLECTION + rng.integers(0, COLLECTION, size=(n_queries, JUDGED_PER_QUERY - half))
    judged = np.concatenate([judged_run, judged_new], axis=1)
    keep = np.ones_like(judged, dtype=bool)
    for i in range(n_queries):  # drop duplicate judged documents
        _, first = np.unique(judged[i], return_index=True)
        keep[i] = False
        keep[i, first] = True
    grades = rng.choice([0, 0, 1, 1, 2, 3], size=judged.shape)
    names = np.char.add("D", np.char.zfill(judged[keep].astype(str), 7))
    qrels = pa.table({
        "qid": pa.array(np.repeat(qids, JUDGED_PER_QUERY)[keep.ravel()], pa.string()),
        "iter": pa.array(np.zeros(int(keep.sum()), dtype=np.int64)),
        "docno": pa.array(names.astype(object), pa.string()),
        "rel": pa.array(grades[keep]),
    })
    pacsv.write_csv(qrels, qrels_path, write_options=opts)
    return qrels_path, run_path


# ------------------------------------------------------------------------------------- one tool (child process)
def _status_mb(field: str) -> float:
    """This process's own VmHWM (peak RSS) or VmRSS from /proc/self/status, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no {field} in /proc/self/status (Linux only)")


def _measure(tool: str, qrels_path: str, run_path: str) -> tuple[dict, dict]:
    """Run one tool end to end; (timings and means, per-query values in query-id order)."""
    result: dict = {}
    per_query: dict[str, np.ndarray] = {}
    if tool == "pyarrow":
        import pyarrow.csv as pacsv

        def read(path, names):
            return pacsv.read_csv(path, read_options=pacsv.ReadOptions(column_names=names),
                                  parse_options=pacsv.ParseOptions(delimiter=" "))

        t0 = time.perf_counter()
        q = read(qrels_path, ["qid", "iter", "docno", "rel"])
        r = read(run_path, ["qid", "q0", "docno", "rank", "score", "tag"])
        result["seconds"] = time.perf_counter() - t0
        result["rows"] = q.num_rows + r.num_rows
    elif tool in ("ours", "ours_all"):
        from metrics.runfiles.batch import evaluate, make_variants
        from metrics.runfiles.read import read_files

        if tool == "ours":
            variants = make_variants(gains=["linear", "exponential"], discounts=["standard"], idcg=["judged"],
                                     ties=["trec_eval"])
        else:
            variants = make_variants()
        t0 = time.perf_counter()
        q, (r,) = read_files(qrels_path, [run_path])  # both files at once, in two threads
        t_read = time.perf_counter() - t0
        ev = evaluate(q.table, [r.table], k=K, variants=variants)
        means = ev.means()
        result["seconds"] = time.perf_counter() - t0
        result["read_seconds"] = t_read
        result["variants"] = len(variants)
        result["mean_linear"] = float(means["linear/standard/judged/trec_eval"].iloc[0])
        result["mean_exponential"] = float(means["exponential/standard/judged/trec_eval"].iloc[0])
        order = np.argsort(ev.queries.astype(str))
        per_query["linear"] = ev.values[0, ev.labels.index("linear/standard/judged/trec_eval")][order]
        per_query["exponential"] = ev.values[0, ev.labels.index("exponential/standard/judged/trec_eval")][order]
    elif tool == "ranx":
        from ranx import Qrels, Run, evaluate

        t0 = time.perf_counter()
        qrels = Qrels.from_file(qrels_path, kind="trec")
        run = Run.from_file(run_path, kind="trec")
        scores = evaluate(qrels, run, [f"ndcg@{K}", f"ndcg_burges@{K}"], return_mean=False, make_comparable=True)
        means = {m: float(np.mean(v)) for m, v in scores.items()}
        result["seconds"] = time.perf_counter() - t0
        result["mean_linear"] = means[f"ndcg@{K}"]
        result["mean_exponential"] = means[f"ndcg_burges@{K}"]
        order = np.argsort(np.array(sorted(qrels.keys()), dtype=str))  # ranx orders queries by id
        per_query["linear"] = np.asarray(scores[f"ndcg@{K}"])[order]
        per_query["exponential"] = np.asarray(scores[f"ndcg_burges@{K}"])[order]
    elif tool == "trec":
        from metrics.runfiles.read import read_files
        from metrics.runfiles.trec import evaluate_runs

        t0 = time.perf_counter()
        q, (r,) = read_files(qrels_path, [run_path])
        t_read = time.perf_counter() - t0
        res = evaluate_runs(q.table, [r.table], ["common"])
        text = res.text()  # trec_eval's summary lines
        result["seconds"] = time.perf_counter() - t0
        result["read_seconds"] = t_read
        result["lines"] = len(text.splitlines())
        run = res.runs[0]
        for name, v in run.values.items():
            if not name.startswith("gm_"):
                per_query[name] = v[run.present]
        result["mean_linear"] = float(res.summary(run)["ndcg_cut_10"])
        per_query["linear"] = per_query["ndcg_cut_10"]
    elif tool == "pytrec_eval_common":
        import pytrec_eval

        from metrics.runfiles.measures import NICKNAMES

        t0 = time.perf_counter()
        with open(qrels_path) as f:
            qrels = pytrec_eval.parse_qrel(f)
        with open(run_path) as f:
            run = pytrec_eval.parse_run(f)
        res = pytrec_eval.RelevanceEvaluator(qrels, set(NICKNAMES["common"])).evaluate(run)
        qids = sorted(res)
        keys = [k for k in res[qids[0]] if k not in ("runid", "num_q") and not k.startswith("gm_")]
        means = {k: pytrec_eval.compute_aggregated_measure(k, [res[q][k] for q in qids]) for k in res[qids[0]]}
        result["seconds"] = time.perf_counter() - t0
        result["mean_linear"] = float(means["ndcg_cut_10"])
        for k in keys:
            per_query[k] = np.array([res[q][k] for q in qids])
        per_query["linear"] = per_query["ndcg_cut_10"]
    elif tool == "pytrec_eval":
        import pytrec_eval

        t0 = time.perf_counter()
        with open(qrels_path) as f:
            qrels = pytrec_eval.parse_qrel(f)
        with open(run_path) as f:
            run = pytrec_eval.parse_run(f)
        res = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{K}"}).evaluate(run)
        qids = sorted(res)
        vals = np.array([res[q][f"ndcg_cut_{K}"] for q in qids])
        result["seconds"] = time.perf_counter() - t0
        result["mean_linear"] = float(vals.mean())
        per_query["linear"] = vals
    else:
        raise SystemExit(f"unknown tool {tool!r}")
    return result, per_query


def _child(tool: str, qrels_path: str, run_path: str, out: str) -> None:
    import gc

    sys.path.insert(0, os.environ.get("BENCH_CODE_ROOT", str(ROOT)))  # the code measured (--baseline: REV's)
    tool = tool.split("@")[0]
    # Warm-up on the small files: imports, numba compilation (ranx; ours: metrics.runfiles._kernels.warm_up,
    # since the 1,000-query files are below the size where our numba kernels are used), first-call
    # costs; not timed.
    if tool.startswith("ours") or tool == "trec":
        from metrics.runfiles._kernels import warm_up

        t0 = time.perf_counter()
        warm_up()
        compile_seconds = time.perf_counter() - t0
    warm_q, warm_r = DATA / f"qrels_{WARMUP}.txt", DATA / f"run_{WARMUP}.txt"
    _measure(tool, str(warm_q), str(warm_r))
    gc.collect()
    rss_before = _status_mb("VmRSS")
    result, per_query = _measure(tool, qrels_path, run_path)
    result["tool"] = tool
    if tool.startswith("ours") or tool == "trec":
        result["numba_warm_up_seconds"] = compile_seconds
    result["rss_after_imports_mb"] = rss_before
    result["peak_rss_mb"] = _status_mb("VmHWM")
    if per_query:
        np.savez(out + ".npz", **per_query)
    Path(out + ".json").write_text(json.dumps(result))


def baseline_code(rev: str) -> Path:
    """The ``metrics`` package of git revision ``rev``, extracted once under benchmarks/data/."""
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, capture_output=True,
                         text=True)
    if sha.returncode != 0:
        raise SystemExit(f"--baseline: {rev!r} is not a git revision of this repository")
    target = DATA / f"baseline_{sha.stdout.strip()[:12]}"
    if not (target / "metrics").is_dir():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", "--format=tar", sha.stdout.strip(), "metrics"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


BASELINE: Path | None = None
LOAD_AT_START = 0.0


def _run_child(tool: str, qrels: Path, run: Path) -> dict:
    out = str(DATA / f"result_{tool.replace('@', '_')}_{qrels.stem}")
    for ext in (".json", ".npz"):
        Path(out + ext).unlink(missing_ok=True)
    env = dict(os.environ)
    if tool.endswith("@base"):
        if BASELINE is None:
            raise SystemExit(f"{tool}: give --baseline REV for the tools named TOOL@base")
        env["BENCH_CODE_ROOT"] = str(BASELINE)
    proc = subprocess.run([sys.executable, __file__, "--child", tool, str(qrels), str(run), out],
                          cwd=ROOT, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"{tool} failed:\n{proc.stderr[-3000:]}")
    result = json.loads(Path(out + ".json").read_text())
    result["per_query"] = dict(np.load(out + ".npz")) if Path(out + ".npz").exists() else {}
    return result


def bench(n_queries: int, tools: list[str]) -> list[dict]:
    t0 = time.perf_counter()
    generate(WARMUP)
    qrels, run = generate(n_queries)
    sizes = f"qrels {qrels.stat().st_size / 1e6:.0f} MB, run {run.stat().st_size / 1e6:.0f} MB"
    print(f"# {n_queries:,} queries x {DOCS_PER_QUERY} documents ({sizes}; data ready in "
          f"{time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    results = []
    for tool in tools:
        print(f"  {tool} ...", file=sys.stderr, flush=True)
        res = _run_child(tool, qrels, run)
        res["tool"] = tool  # with its @base
        res["n_queries"] = n_queries
        res["sizes"] = sizes
        results.append(res)
        print(f"  {tool}: {res['seconds']:.2f} s, peak {res['peak_rss_mb']:.0f} MB", file=sys.stderr, flush=True)
    return results


def _max_diff(mine: dict, other: dict, keys) -> str:
    keys = [k for k in keys if k in mine and k in other]
    if not keys:
        return ""
    return f"{max(float(np.max(np.abs(mine[k] - other[k]), initial=0.0)) for k in keys):.1e}"


def table(results: list[dict]) -> str:
    by = {(r["n_queries"], r["tool"]): r for r in results}
    lines = ["| queries × docs | tool | time (s) | vs ours | vs pyarrow | peak RSS (MB) | RSS before (MB) | "
             "max \\|diff\\| vs pytrec_eval | max \\|diff\\| vs ranx (exp) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    names = {"ours": "metrics (ours) NDCG@10, 2 variants", "ours_all": "metrics (ours) NDCG@10, all 24 variants",
             "ranx": "ranx 0.3 (ndcg, ndcg_burges)", "pytrec_eval": "pytrec_eval-terrier (ndcg_cut.10)",
             "pyarrow": "pyarrow.csv read only", "trec": "metrics (ours), -m common (21 measures, 60 values)",
             "pytrec_eval_common": "pytrec_eval-terrier, the same 21 measures"}
    for r in results:
        n = r["n_queries"]
        base = r["tool"].split("@")[0]
        mine = "trec" if base in ("trec", "pytrec_eval_common") else "ours"
        ours = by.get((n, base if r["tool"].endswith("@base") else mine))  # before: against the same tool after
        ratio = f"{r['seconds'] / ours['seconds']:.1f}×" if ours else ""
        arrow = by.get((n, "pyarrow"))
        vs_arrow = f"{r['seconds'] / arrow['seconds']:.2f}×" if arrow else ""
        diffs = []
        refs = [("pytrec_eval", ["linear"]), ("ranx", ["exponential"])]
        if base == "trec":
            refs = [("pytrec_eval_common", list(r["per_query"])), ("none", [])]
        for ref, keys in refs:
            other = by.get((n, ref))
            same = other is None or r["tool"] == ref
            diffs.append("" if same else _max_diff(r["per_query"], other["per_query"], keys))
        label = names[base] + (f", before ({BASELINE.name.split('_')[1]})" if r["tool"].endswith("@base") else "")
        lines.append(f"| {n:,} × {DOCS_PER_QUERY} | {label} | {r['seconds']:.2f} | {ratio} | {vs_arrow} | "
                     f"{r['peak_rss_mb']:.0f} | {r['rss_after_imports_mb']:.0f} | {diffs[0]} | {diffs[1]} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    p.add_argument("--tools", nargs="+", default=["pyarrow", "trec", "pytrec_eval_common", "ours", "ours_all", "ranx",
                                                  "pytrec_eval"])
    p.add_argument("--baseline", metavar="REV", help="git revision whose code the TOOL@base tools run")
    p.add_argument("--child", nargs=4, metavar=("TOOL", "QRELS", "RUN", "OUT"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        _child(*args.child)
        return 0
    global BASELINE
    if args.baseline:
        BASELINE = baseline_code(args.baseline)
    global LOAD_AT_START
    LOAD_AT_START = os.getloadavg()[0]
    results = []
    for n in args.sizes:
        results += bench(n, args.tools)
    load = os.getloadavg()[0]
    start_load = LOAD_AT_START
    print(f"Machine: {os.cpu_count()} CPUs (shared; load average {start_load:.1f} at the start, {load:.1f} at the "
          f"end), Python "
          f"{sys.version.split()[0]}; one run.")
    print()
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
