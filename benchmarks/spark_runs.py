"""Run files on Apache Spark: ours (every trec_eval measure) against Spark's own RankingEvaluator, and against
the single-machine engine, on the same Parquet files, in one run.

    python benchmarks/spark_runs.py --lines 1e7 --tools spark evaluator --rounds 3   # 100,000 queries x 100
    python benchmarks/spark_runs.py --lines 1e8 --tools spark evaluator --rounds 2   # 1,000,000 queries x 100
    python benchmarks/spark_runs.py --lines 1e6 --master 'local[2]' --tools spark evaluator single

Data (generated once under benchmarks/data/, git-ignored): a run of ``--lines`` lines as Parquet (``qid``,
``docno``, ``score``, plus ``item``, the document number as a double that RankingEvaluator needs), 100
documents a query with distinct scores, and qrels of 20 judged documents a query (grades 0-3, about half
retrieved), Parquet too.  Three tools, each timed from "files on disk" to "numbers on the driver":

* ``spark``: :func:`metrics.runfiles.spark.evaluate_spark` with ``-m all_trec`` (every trec_eval 9 measure,
  93 "all" values) -- Spark reads the Parquet files, Python workers check and pack the rows into blocks per
  bucket (ranges of query ids), Spark moves the blocks, the single-machine kernel evaluates each bucket, and
  the means are summed in trec_eval's order on one task: ``.means().collect()`` (the per-query values cached
  between the two jobs, to time them apart; the bounds of the buckets are one more small job).
* ``evaluator``: Spark ML's ``RankingEvaluator`` for ndcgAtK (k = 10), meanAveragePrecision and precisionAtK
  (k = 10) on the same session: the rows grouped into a ranked prediction array and a label array per
  query (sorted by score, cached), then the three evaluations -- three measures instead of 93.
* ``single``: the single-machine engine (``python -m metrics.runfiles -m all_trec QRELS RUN``), in its own
  process (reading Parquet with pyarrow, numba for large files).

The Spark tools share one session: each first evaluates a small sample (JIT, Python workers; not timed), then
``--rounds`` rounds run them in turn, the order alternating from round to round.  Reported per run: seconds,
CPU seconds (the driver, the JVM and the Python workers, read from /proc every 0.2 s), the 1-minute load
before and after, run lines per second per core (``local[N]``: N cores; the single machine counts 1 core,
though pyarrow's reader uses more), and peak memory: the driver's (Python) and the Spark JVM's (in local mode
the executors live in the driver's JVM), and the Python workers' (the largest one), each the peak RSS
(``VmHWM``) or, for the workers, the largest RSS seen; for ``single`` the child's peak RSS.  Then the side by
side table: our seconds / RankingEvaluator's (the aim: <= 1), their CPU seconds and loads, and whether MAP and
P@10 agree (to 1e-12).  Numbers taken on a busy machine are slower than the machine: compare the ratio, and
the CPU seconds, which load changes less.  Prints markdown tables.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
DOCS_PER_QUERY = 100
JUDGED_PER_QUERY = 20
K = 10
CHUNK_QUERIES = 100_000  # queries per Parquet row group
#: Our tools and the reader each asks evaluate_spark for.
READER = {"spark": "auto", "spark-jvm": "spark"}


# ------------------------------------------------------------------------------------- data
def generate(lines: int, seed: int = 0) -> tuple[Path, Path]:
    """benchmarks/data/spark_<lines>.run.parquet and .qrels.parquet (made once)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    DATA.mkdir(parents=True, exist_ok=True)
    run_path, qrels_path = DATA / f"spark_{lines}.run.parquet", DATA / f"spark_{lines}.qrels.parquet"
    if run_path.exists() and qrels_path.exists():
        return qrels_path, run_path
    n_queries = lines // DOCS_PER_QUERY
    rng = np.random.default_rng(seed)
    run_schema = pa.schema([("qid", pa.string()), ("docno", pa.string()), ("score", pa.float64()),
                            ("item", pa.float64())])
    qrels_schema = pa.schema([("qid", pa.string()), ("docno", pa.string()), ("rel", pa.int32())])
    with pq.ParquetWriter(run_path.with_suffix(".tmp"), run_schema) as rw, \
            pq.ParquetWriter(qrels_path.with_suffix(".tmp"), qrels_schema) as qw:
        for start in range(0, n_queries, CHUNK_QUERIES):
            nq = min(CHUNK_QUERIES, n_queries - start)
            q = np.repeat(np.arange(start, start + nq), DOCS_PER_QUERY)
            # distinct documents per query: a random start, then steps of 9973 (100 x 9973 < 10^6)
            base = rng.integers(0, 1_000_000, size=(nq, 1))
            item = (base + np.arange(DOCS_PER_QUERY)[None, :] * 9973) % 1_000_000
            score = rng.random((nq, DOCS_PER_QUERY))  # distinct within a query (RankingEvaluator: no ties)
            qid = pc.cast(pa.array(q), pa.string())
            docno = pc.binary_join_element_wise("d", pc.cast(pa.array(item.ravel()), pa.string()), "")
            rw.write_table(pa.table({"qid": qid, "docno": docno, "score": score.ravel(),
                                     "item": item.ravel().astype(np.float64)}, schema=run_schema))
            # qrels: 20 judged a query, 10 of them retrieved, 10 not
            ret = item[:, rng.permutation(DOCS_PER_QUERY)[:JUDGED_PER_QUERY // 2]]
            other = 1_000_000 + (rng.integers(0, 1_000_000, size=(nq, 1))
                                 + np.arange(JUDGED_PER_QUERY // 2)[None, :] * 99_991) % 1_000_000
            judged = np.concatenate([ret, other], axis=1)
            qq = np.repeat(np.arange(start, start + nq), JUDGED_PER_QUERY)
            qw.write_table(pa.table({"qid": pc.cast(pa.array(qq), pa.string()),
                                     "docno": pc.binary_join_element_wise("d", pc.cast(pa.array(judged.ravel()),
                                                                                        pa.string()), ""),
                                     "rel": rng.integers(0, 4, size=judged.size).astype(np.int32)},
                                    schema=qrels_schema))
    run_path.with_suffix(".tmp").rename(run_path)
    qrels_path.with_suffix(".tmp").rename(qrels_path)
    return qrels_path, run_path


# ------------------------------------------------------------------------------------- memory
def _status(pid: int, field: str) -> int:
    """VmHWM / VmRSS of a process in bytes (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                out += [int(c) for c in fh.read().split()]
    except OSError:
        pass
    return out


def _cpu(pid: int) -> float:
    """CPU seconds of a process, its own and its reaped children's (utime + stime + cutime + cstime)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


class Sampler:
    """The JVM (a child of the driver) and the Python workers (its descendants): the largest RSS seen, and the
    CPU seconds each process used while sampled (a worker that ends keeps the last value seen; sampled every
    0.2 s, so up to 0.2 s of a short-lived worker's CPU can be missed)."""

    def __init__(self):
        self.jvm = 0
        self.worker = 0
        self._first: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._kind: dict[int, str] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _seen(self, pid: int, kind: str) -> None:
        cpu = _cpu(pid)
        if cpu:
            self._first.setdefault(pid, 0.0 if self._started else cpu)
            self._last[pid] = cpu
            self._kind[pid] = kind

    _started = False

    def _sample(self):
        with self._lock:
            for child in _children(os.getpid()):
                self.jvm = max(self.jvm, _status(child, "VmRSS"))
                self._seen(child, "jvm")
                stack = _children(child)
                while stack:
                    pid = stack.pop()
                    self.worker = max(self.worker, _status(pid, "VmRSS"))
                    self._seen(pid, "workers")
                    stack += _children(pid)
            self._seen(os.getpid(), "driver")

    def _run(self):
        while not self._stop.wait(0.2):
            self._sample()

    def reset(self) -> None:
        """Start counting again: memory peaks and CPU from now (a process first seen later counts from 0)."""
        self._started = False
        self._sample()
        with self._lock:
            self.jvm = self.worker = 0
            self._first = dict(self._last)
            self._started = True

    def cpu(self) -> dict:
        """CPU seconds since :meth:`reset`: driver, JVM, Python workers."""
        self._sample()
        out = {"driver": 0.0, "jvm": 0.0, "workers": 0.0}
        with self._lock:
            for pid, last in self._last.items():
                out[self._kind[pid]] += last - self._first.get(pid, 0.0)
        return {k: round(v, 2) for k, v in out.items()}

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


# ------------------------------------------------------------------------------------- tools
def load1() -> float:
    """The 1-minute load average."""
    return os.getloadavg()[0]


def time_ours(spark, qrels: Path, run: Path, evaluate_spark, reader: str = "auto") -> dict:
    """Ours, every trec_eval measure: the kernel job (values cached), then the means on one task.  ``reader``:
    "auto" (the Python workers read the local Parquet files with pyarrow) or "spark" (Spark's reader, as for
    remote paths)."""
    t0 = time.perf_counter()
    ev = evaluate_spark(str(qrels), [str(run)], ["all_trec"], spark=spark, reader=reader).cache()
    ev.rows.write.format("noop").mode("overwrite").save()  # the kernel job (values kept in memory)
    kernel = time.perf_counter() - t0
    means = {r["measure"]: r["value"] for r in ev.means().collect()}  # the means on one task
    seconds = time.perf_counter() - t0
    ev.rows.unpersist()
    return {"seconds": seconds, "kernel_seconds": kernel, "values": len(means), "map": means["map"],
            "P_10": means["P_10"], "ndcg_cut_10": means["ndcg_cut_10"]}


def time_evaluator(spark, qrels: Path, run: Path) -> dict:
    """Spark ML's RankingEvaluator: rows grouped into ranked prediction and label arrays (cached), then
    ndcgAtK, meanAveragePrecision and precisionAtK."""
    from pyspark.ml.evaluation import RankingEvaluator
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    t0 = time.perf_counter()
    runs = spark.read.parquet(str(run))
    ranked = runs.withColumn("pos", F.row_number().over(Window.partitionBy("qid").orderBy(F.desc("score"))))
    preds = ranked.groupBy("qid").agg(F.sort_array(F.collect_list(F.struct("pos", "item"))).alias("p"))
    preds = preds.select("qid", F.col("p.item").alias("prediction"))
    labels = (spark.read.parquet(str(qrels)).filter("rel > 0")
              .withColumn("item", F.expr("cast(substring(docno, 2) as double)"))
              .groupBy("qid").agg(F.collect_list("item").alias("label")))
    data = preds.join(labels, "qid", "left").select(
        "prediction", F.coalesce("label", F.array().cast("array<double>")).alias("label")).cache()
    data.count()
    prep = time.perf_counter() - t0
    values = {}
    for metric in ("ndcgAtK", "meanAveragePrecision", "precisionAtK"):
        ev = RankingEvaluator(metricName=metric, k=K, predictionCol="prediction", labelCol="label")
        values[metric] = ev.evaluate(data)
    data.unpersist()
    return {"seconds": time.perf_counter() - t0, "prep_seconds": prep, "values": 3, **values}


def run_spark_tools(qrels: Path, run: Path, master: str, tools: list[str], rounds: int = 1) -> list[dict]:
    """One Spark session; ``rounds`` rounds, the tools in turn (their order alternating from round to round, so
    that neither always runs first on a machine whose load drifts).  Returns one dict per round: tool -> result
    (seconds, CPU seconds by process kind, peak memory, the 1-minute load before and after)."""
    sys.path.insert(0, str(ROOT))
    import warnings

    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
    from metrics.runfiles.spark import evaluate_spark, spark_session

    spark = spark_session(master, app_name="ndcg-lab-benchmark",
                          config={"spark.driver.memory": "6g", "spark.sql.shuffle.partitions": "64"})
    spark.sparkContext.setLogLevel("ERROR")
    out = []
    with Sampler() as sampler:
        # warm-up: a small evaluation by each tool (JIT, Python workers), not timed
        small_run, small_qrels = DATA / "spark_warm.run.parquet", DATA / "spark_warm.qrels.parquet"
        spark.read.parquet(str(run)).limit(20_000).write.mode("overwrite").parquet(str(small_run))
        spark.read.parquet(str(qrels)).limit(4_000).write.mode("overwrite").parquet(str(small_qrels))
        for tool in tools:
            if tool == "evaluator":
                time_evaluator(spark, small_qrels, small_run)
            else:
                time_ours(spark, small_qrels, small_run, evaluate_spark, READER[tool])
        for r in range(rounds):
            results = {}
            for tool in (tools if r % 2 == 0 else tools[::-1]):
                sampler.reset()
                before = load1()
                results[tool] = (time_evaluator(spark, qrels, run) if tool == "evaluator"
                                 else time_ours(spark, qrels, run, evaluate_spark, READER[tool]))
                results[tool].update(cpu=sampler.cpu(), jvm_peak=sampler.jvm, worker_peak=sampler.worker,
                                     driver_peak=_status(os.getpid(), "VmHWM"), load=(before, load1()))
                print(f"round {r + 1} {tool}: {json.dumps(results[tool])} ({uptime()})", file=sys.stderr, flush=True)
            out.append(results)
    spark.stop()
    return out


def run_single(qrels: Path, run: Path) -> dict:
    code = (
        f"import sys, time, os; sys.path.insert(0, {str(ROOT)!r}); t0 = time.perf_counter()\n"
        "from metrics.runfiles.cli import main\n"
        "import io, contextlib\n"
        "buf = io.StringIO()\n"
        f"with contextlib.redirect_stdout(buf): rc = main(['-m', 'all_trec', {str(qrels)!r}, {str(run)!r}])\n"
        "seconds = time.perf_counter() - t0\n"
        "hwm = [int(l.split()[1]) * 1024 for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
        "import json; print(json.dumps({'rc': rc, 'seconds': seconds, 'peak': hwm, "
        "'out': buf.getvalue()}))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit(result.stderr[-2000:])
    data = json.loads(result.stdout.strip().splitlines()[-1])
    means = {line.split()[0]: line.split()[-1] for line in data.pop("out").splitlines()}
    data.update({"map": float(means["map"]), "P_10": float(means["P_10"]), "ndcg_cut_10": float(means["ndcg_cut_10"])})
    return data


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lines", type=float, nargs="+", default=[1e7], help="run lines (default 1e7)")
    p.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    p.add_argument("--tools", nargs="+", default=["spark", "evaluator", "single"],
                   choices=["spark", "spark-jvm", "evaluator", "single"],
                   help="spark: ours (the workers read local Parquet); spark-jvm: ours with Spark's reader (as for "
                        "hdfs:// or s3a:// paths); evaluator: RankingEvaluator; single: one machine")
    p.add_argument("--rounds", type=int, default=1, help="rounds of the Spark tools in one session (default 1)")
    args = p.parse_args(argv)
    cores = int(args.master[6:-1]) if args.master.startswith("local[") and args.master[6:-1].isdigit() else 1
    rows, sides = [], []
    for lines in (int(x) for x in args.lines):
        print(f"generating {lines:,} lines ...", file=sys.stderr)
        qrels, run = generate(lines)
        print(f"load before: {uptime()}", file=sys.stderr)
        spark_tools = [t for t in args.tools if t != "single"]
        rounds = run_spark_tools(qrels, run, args.master, spark_tools, args.rounds) if spark_tools else [{}]
        if "single" in args.tools:
            rounds[0]["single"] = run_single(qrels, run)
        print(f"load after: {uptime()}", file=sys.stderr)
        for r, results in enumerate(rounds, start=1):
            for tool in args.tools:
                if tool not in results:
                    continue
                res = results[tool]
                n_cores = 1 if tool == "single" else cores
                mem = (f"{res['peak'] / 1e6:,.0f} MB" if tool == "single" else
                       f"driver {res['driver_peak'] / 1e6:,.0f} MB, JVM {res['jvm_peak'] / 1e6:,.0f} MB, "
                       f"worker {res['worker_peak'] / 1e6:,.0f} MB")
                extra = (f"prep {res['prep_seconds']:.1f} s; ndcg@10 {res['ndcgAtK']:.4f}, MAP "
                         f"{res['meanAveragePrecision']:.4f}, P@10 {res['precisionAtK']:.4f}" if tool == "evaluator"
                         else f"map {res['map']:.4f}, P_10 {res['P_10']:.4f}, ndcg_cut_10 {res['ndcg_cut_10']:.4f}")
                if tool in READER:
                    extra = (f"kernel {res['kernel_seconds']:.1f} s, means "
                             f"{res['seconds'] - res['kernel_seconds']:.1f} s; " + extra)
                cpu = sum(res["cpu"].values()) if "cpu" in res else float("nan")
                load = f"{res['load'][0]:.1f}–{res['load'][1]:.1f}" if "load" in res else ""
                rows.append((f"{lines:,}", str(r), tool, f"{res['seconds']:.1f}", f"{cpu:.1f}", load,
                             f"{lines / res['seconds'] / n_cores:,.0f}", mem, extra))
            for tool in (t for t in READER if t in results and "evaluator" in results):
                ours, theirs = results[tool], results["evaluator"]
                same = abs(ours["map"] - theirs["meanAveragePrecision"]) < 1e-12 and \
                    abs(ours["P_10"] - theirs["precisionAtK"]) < 1e-12
                sides.append((f"{lines:,}", str(r), tool, f"{ours['seconds']:.1f}", f"{theirs['seconds']:.1f}",
                              f"{ours['seconds'] / theirs['seconds']:.2f}",
                              f"{sum(ours['cpu'].values()):.1f} / {sum(theirs['cpu'].values()):.1f}",
                              f"{sum(ours['cpu'].values()) / sum(theirs['cpu'].values()):.2f}",
                              f"{ours['load'][0]:.1f}–{ours['load'][1]:.1f} / "
                              f"{theirs['load'][0]:.1f}–{theirs['load'][1]:.1f}", "yes" if same else "NO"))
        sys.stdout.flush()
    print("| run lines | round | tool | seconds | CPU s | load | lines/s/core | peak memory | values |")
    print("|---|---:|---|---:|---:|---|---:|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if sides:
        print()
        print(f"Side by side on {args.master}: ours (every trec_eval measure, -m all_trec) against RankingEvaluator "
              "(ndcgAtK, MAP, P@10), the same session and files; ratio = our seconds / its seconds (the aim: <= 1)")
        print()
        print("| run lines | round | ours | ours s | RankingEvaluator s | ratio | CPU s ours / its | CPU ratio | "
              "load ours / its | MAP and P@10 agree |")
        print("|---|---:|---|---:|---:|---:|---|---:|---|---|")
        for side in sides:
            print("| " + " | ".join(side) + " |")
        print()
        for lines, tool in dict.fromkeys((side[0], side[2]) for side in sides):
            mine = [side for side in sides if side[0] == lines and side[2] == tool]
            for label, col in (("wall", 5), ("CPU", 7)):
                ratios = sorted(float(side[col]) for side in mine)
                met = sum(r <= 1 for r in ratios)
                print(f"{lines} run lines, {tool}: {label} ratio median {statistics.median(ratios):.2f} (min "
                      f"{ratios[0]:.2f}, max {ratios[-1]:.2f}); the aim (<= 1) met in {met} of {len(ratios)} rounds; "
                      f"values agree: {'yes' if all(side[-1] == 'yes' for side in mine) else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
