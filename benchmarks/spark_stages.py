"""Where the cores sit idle in our Spark pipeline: one evaluation of ``benchmarks/spark_runs.py``'s files (ours,
every trec_eval measure, and optionally RankingEvaluator) with Spark's event log on, then per stage: its tasks,
its wall time, how many task slots its tasks kept busy on average (sum of task durations / stage wall time),
the JVM's executor CPU time against the tasks' run time, and the CPU of the JVM and of the Python workers
sampled from /proc during the stage (so a stage whose tasks wait on their Python workers shows JVM run time
without JVM CPU). Times between stages (nothing running on the executors) are listed as "driver" gaps.

    python benchmarks/spark_stages.py --lines 1e7 [--tools spark evaluator] [--config key=value ...]

Reads the files made by ``spark_runs.py`` (benchmarks/data/spark_<lines>.*.parquet; made if missing).
Not a test: a measurement; record ``uptime`` beside its numbers.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import spark_runs  # noqa: E402  (benchmarks/ is not a package)


class Timeline:
    """CPU seconds of the JVM and of the Python workers, sampled every 0.25 s: ``(t, jvm, workers)`` with t
    on the wall clock (seconds since the epoch, as Spark's event log writes milliseconds)."""

    def __init__(self):
        self.samples: list[tuple[float, float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._seen: dict[int, tuple[str, float]] = {}
        self._wait: dict[int, float] = {}

    @staticmethod
    def _waited(pid: int) -> float:
        """Seconds the process's live threads spent runnable but waiting for a core (/proc/<pid>/task/*/schedstat,
        second field: run-queue wait in ns)."""
        total = 0
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                try:
                    with open(f"/proc/{pid}/task/{task}/schedstat") as fh:
                        total += int(fh.read().split()[1])
                except OSError:
                    pass
        except OSError:
            pass
        return total / 1e9

    @staticmethod
    def _running(pid: int) -> int:
        """How many of the process's threads are running or runnable now (state R in /proc/<pid>/task/*/stat)."""
        n = 0
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                try:
                    with open(f"/proc/{pid}/task/{task}/stat") as fh:
                        n += fh.read().rsplit(")", 1)[1].split()[0] == "R"
                except OSError:
                    pass
        except OSError:
            pass
        return n

    def _sample(self):
        running = 0
        for child in spark_runs._children(os.getpid()):
            self._seen[child] = ("jvm", spark_runs._cpu(child))
            self._wait[child] = max(self._wait.get(child, 0.0), self._waited(child))
            running += self._running(child)
            stack = spark_runs._children(child)
            while stack:
                pid = stack.pop()
                self._seen[pid] = ("workers", spark_runs._cpu(pid))
                self._wait[pid] = max(self._wait.get(pid, 0.0), self._waited(pid))
                running += self._running(pid)
                stack += spark_runs._children(pid)
        jvm = sum(c for k, c in self._seen.values() if k == "jvm")
        workers = sum(c for k, c in self._seen.values() if k == "workers")
        waited = sum(self._wait.values())
        with open("/proc/stat") as fh:  # the whole machine's busy time (every process, ours or not)
            f = [int(x) for x in fh.readline().split()[1:]]
        busy = (sum(f[:8]) - f[3] - f[4]) / os.sysconf("SC_CLK_TCK")
        self.samples.append((time.time(), jvm, workers, busy, waited, running))

    def _run(self):
        while not self._stop.wait(0.25):
            self._sample()

    def between(self, start: float, end: float) -> tuple[float, float]:
        """CPU seconds (JVM, workers) used between two wall-clock times (nearest samples)."""
        return self.spent(start, end)[:2]  # type: ignore[return-value]

    def spent(self, start: float, end: float) -> tuple[float, float, float, float]:
        """CPU seconds (JVM, workers, every process on the machine) used between two wall-clock times, and the
        seconds our threads (JVM and workers) waited, runnable, for a core."""
        before = [s for s in self.samples if s[0] <= start] or self.samples[:1]
        after = [s for s in self.samples if s[0] >= end] or self.samples[-1:]
        return tuple(after[0][i] - before[-1][i] for i in (1, 2, 3, 4))

    def runnable(self, start: float, end: float) -> float:
        """The share of samples between two times in which at least two of our threads could run (running or
        runnable): below 1, ours left a core without work at those moments."""
        inside = [s[5] for s in self.samples if start <= s[0] <= end]
        return sum(n >= 2 for n in inside) / len(inside) if inside else float("nan")

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def stages(log_dir: Path, since_ms: float) -> list[dict]:
    """The stages completed after ``since_ms`` in the event log, with their tasks' figures."""
    info: dict[int, dict] = {}
    for path in sorted(p for p in log_dir.rglob("*") if p.is_file()):
        with open(path) as fh:
            for line in fh:
                event = json.loads(line)
                kind = event["Event"]
                if kind == "SparkListenerStageCompleted":
                    s = event["Stage Info"]
                    sid = (s["Stage ID"], s["Stage Attempt ID"])
                    info.setdefault(sid, {"tasks": []}).update(
                        id=s["Stage ID"], name=s["Stage Name"][:40], n=s["Number of Tasks"],
                        start=s.get("Submission Time", 0) / 1000, end=s.get("Completion Time", 0) / 1000)
                elif kind == "SparkListenerTaskEnd":
                    sid = (event["Stage ID"], event["Stage Attempt ID"])
                    t, m = event["Task Info"], event.get("Task Metrics") or {}
                    info.setdefault(sid, {"tasks": []})["tasks"].append(
                        {"launch": t["Launch Time"] / 1000, "finish": t["Finish Time"] / 1000,
                         "run": m.get("Executor Run Time", 0) / 1000, "cpu": m.get("Executor CPU Time", 0) / 1e9,
                         "gc": m.get("JVM GC Time", 0) / 1000,
                         "written": (m.get("Shuffle Write Metrics") or {}).get("Shuffle Bytes Written", 0),
                         "write_s": (m.get("Shuffle Write Metrics") or {}).get("Shuffle Write Time", 0) / 1e9,
                         "wait_s": (m.get("Shuffle Read Metrics") or {}).get("Fetch Wait Time", 0) / 1000})
    out = [s for s in info.values() if "start" in s and s["start"] >= since_ms / 1000]
    return sorted(out, key=lambda s: s["start"])


def report(found: list[dict], timeline: Timeline, t0: float, t1: float) -> None:
    print("| stage | tasks | starts s | wall s | slots busy | longest task s | task run s | JVM exec CPU s "
          "| JVM CPU s (/proc) | workers CPU s | cores busy (ours) | machine cores busy | GC s | shuffle MB written "
          "| write s | fetch wait s | ours waiting for a core s | ≥ 2 of ours runnable |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    last = t0
    for s in found:
        if s["start"] - last > 0.3:
            jvm, wk = timeline.between(last, s["start"])
            print(f"| (between stages) | | {last - t0:.1f} | {s['start'] - last:.1f} | | | | | {jvm:.1f} | {wk:.1f} "
                  f"| {(jvm + wk) / (s['start'] - last):.2f} |")
        wall = max(s["end"] - s["start"], 1e-3)
        tasks = s["tasks"]
        busy = sum(t["finish"] - t["launch"] for t in tasks) / wall
        longest = max((t["finish"] - t["launch"] for t in tasks), default=0.0)
        jvm, wk, machine, waited = timeline.spent(s["start"], s["end"])
        print(f"| {s['id']} {s['name']} | {s['n']} | {s['start'] - t0:.1f} | {wall:.1f} | {busy:.2f} | {longest:.1f} "
              f"| {sum(t['run'] for t in tasks):.1f} | {sum(t['cpu'] for t in tasks):.1f} | {jvm:.1f} | {wk:.1f} "
              f"| {(jvm + wk) / wall:.2f} | {machine / wall:.2f} | {sum(t['gc'] for t in tasks):.1f} "
              f"| {sum(t['written'] for t in tasks) / 1e6:.0f} "
              f"| {sum(t['write_s'] for t in tasks):.1f} | {sum(t['wait_s'] for t in tasks):.1f} | {waited:.1f} "
              f"| {timeline.runnable(s['start'], s['end']):.0%} |")
        last = max(last, s["end"])
    if t1 - last > 0.3:
        jvm, wk = timeline.between(last, t1)
        print(f"| (after the last stage) | | {last - t0:.1f} | {t1 - last:.1f} | | | | | {jvm:.1f} | {wk:.1f} | |")
    jvm, wk, machine, waited = timeline.spent(t0, t1)
    print(f"\ntotal {t1 - t0:.1f} s wall, JVM {jvm:.1f} CPU-s, workers {wk:.1f} CPU-s, "
          f"our threads waited {waited:.1f} s for a core, >= 2 of ours runnable in "
          f"{timeline.runnable(t0, t1):.0%} of the samples, "
          f"{(jvm + wk) / (t1 - t0):.2f} cores busy on average by ours, {machine / (t1 - t0):.2f} by every process")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=float, default=1e7)
    ap.add_argument("--tools", nargs="+", default=["spark"], choices=["spark", "spark-jvm", "evaluator"])
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--config", nargs="*", default=[], help="extra Spark settings, key=value")
    args = ap.parse_args(argv)
    qrels, run = spark_runs.generate(int(args.lines))
    from metrics.runfiles.spark import evaluate_spark, spark_session

    log_dir = Path(tempfile.mkdtemp(prefix="spark-events-"))
    config = {"spark.driver.memory": "6g", "spark.sql.shuffle.partitions": "64",
              "spark.eventLog.enabled": "true", "spark.eventLog.dir": f"file://{log_dir}",
              "spark.eventLog.compress": "false", "spark.eventLog.rolling.enabled": "false"}
    config.update(dict(kv.split("=", 1) for kv in args.config))
    spark = spark_session(args.master, app_name="ndcg-lab-stages", config=config)
    spark.sparkContext.setLogLevel("ERROR")
    print(spark_runs.uptime(), file=sys.stderr)
    with Timeline() as timeline:
        small_run = spark_runs.DATA / "spark_warm.run.parquet"
        small_qrels = spark_runs.DATA / "spark_warm.qrels.parquet"
        spark.read.parquet(str(run)).limit(20_000).write.mode("overwrite").parquet(str(small_run))
        spark.read.parquet(str(qrels)).limit(4_000).write.mode("overwrite").parquet(str(small_qrels))
        spark_runs.time_ours(spark, small_qrels, small_run, evaluate_spark)
        for tool in args.tools:
            t0 = time.time()
            if tool == "evaluator":
                res = spark_runs.time_evaluator(spark, qrels, run)
            else:
                res = spark_runs.time_ours(spark, qrels, run, evaluate_spark, spark_runs.READER[tool])
            t1 = time.time()
            time.sleep(0.6)  # let the sampler see the end (a measurement script, not a test)
            print(f"\n## {tool}, {int(args.lines):,} run lines: {json.dumps(res)}\n{spark_runs.uptime()}\n")
            report(stages(log_dir, t0 * 1000), timeline, t0, t1)
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
