"""The per-bucket kernel of ``metrics.runfiles.spark`` alone, without Spark: how long one bucket takes and
whether a process that evaluates bucket after bucket (as a reused Spark Python worker does) grows.

    python benchmarks/spark_kernel.py                      # 30 buckets of 500,000 run rows, -m all_trec
    python benchmarks/spark_kernel.py --buckets 10 --rows 400000 --lines 1e7

The data are ``benchmarks/spark_runs.py``'s Parquet files (made once by it, 100 documents and 20 judgements
a query, queries in order): bucket ``b`` is the next ``--rows / 100`` queries' run rows and qrels rows, put
in the columns :func:`~metrics.runfiles.spark.bucket_kernel` takes, in Arrow record batches of
``ARROW_BATCH_ROWS`` rows (as blocks of a bucket reach it from several packs).  Printed per bucket: seconds, the
process's resident memory after it, and the mean of map and P_10 over its queries (a check that the kernel
computed something).  Then the
kernel's rate, and what it implies for ``spark_runs.py``'s kernel job: its CPU seconds against the job's
core-seconds (``--job-seconds`` x ``--cores``) -- the share of the Spark path spent in the measures; the
rest is Spark reading, packing, moving and converting rows.  ``uptime``'s load is printed before and after.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lines", type=float, default=1e7, help="which spark_runs.py data (default 1e7)")
    p.add_argument("--rows", type=int, default=500_000, help="run rows a bucket (default 500,000)")
    p.add_argument("--buckets", type=int, default=30, help="buckets evaluated one after another (default 30)")
    p.add_argument("--measures", nargs="+", default=["all_trec"])
    p.add_argument("--job-seconds", type=float, default=728.3,
                   help="the Spark kernel job's seconds to compare with (default: 10^8 lines, README)")
    p.add_argument("--job-lines", type=float, default=1e8, help="the lines of that job (default 1e8)")
    p.add_argument("--cores", type=int, default=2, help="that job's cores (default 2, local[2])")
    args = p.parse_args(argv)

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq
    from spark_runs import DOCS_PER_QUERY, JUDGED_PER_QUERY, _status, generate, uptime

    def rss_mb() -> float:
        return _status(os.getpid(), "VmRSS") / 2**20

    from metrics.runfiles.spark import ARROW_BATCH_ROWS, bucket_kernel

    qrels_path, run_path = generate(int(args.lines))
    kernel = bucket_kernel(args.measures, err_gmax=3.0)  # the qrels' highest grade, as evaluate_spark finds it
    names = kernel.names
    run = pq.read_table(run_path, columns=["qid", "docno", "score"])
    qrels = pq.read_table(qrels_path)
    n_queries = run.num_rows // DOCS_PER_QUERY
    per_bucket = max(1, args.rows // DOCS_PER_QUERY)
    label = {name: f"m{i}" for i, name in enumerate(names)}

    def batches(table: pa.Table) -> pa.Table:
        return pa.Table.from_batches(table.to_batches(max_chunksize=ARROW_BATCH_ROWS))

    print(f"load before: {uptime()}")
    print(f"data loaded: {rss_mb():,.0f} MB resident; {len(names)} values a query; "
          f"{per_bucket * DOCS_PER_QUERY:,} run rows a bucket")
    seconds = []
    for b in range(args.buckets):
        first = (b * per_bucket) % max(1, n_queries - per_bucket + 1)
        lt = run.slice(first * DOCS_PER_QUERY, per_bucket * DOCS_PER_QUERY)
        rt = qrels.slice(first * JUDGED_PER_QUERY, per_bucket * JUDGED_PER_QUERY)
        k, kq = lt.num_rows, rt.num_rows
        left = batches(pa.table({
            "_run": pa.array([0] * k, pa.int32()), "qid": lt["qid"], "docno": lt["docno"], "score": lt["score"],
            "tag": pa.nulls(k, pa.string()), "_row": pa.array(range(k), pa.int64()),
            "_bad": pa.nulls(k, pa.string()), "_line": pa.nulls(k, pa.string())}))
        right = batches(pa.table({
            "qid": rt["qid"], "docno": rt["docno"], "rel": pc.cast(rt["rel"], pa.float64()),
            "_row": pa.array(range(kq), pa.int64()), "_bad": pa.nulls(kq, pa.string()),
            "_line": pa.nulls(kq, pa.string())}))
        t0 = time.perf_counter()
        out = kernel(left, right)
        seconds.append(time.perf_counter() - t0)
        values = out.filter(pc.is_null(out.column("note")))
        check = ", ".join(f"{m} {pc.mean(values.column(label[m])).as_py():.4f}" for m in ("map", "P_10")
                          if m in label)
        print(f"bucket {b:3d}: {seconds[-1]:6.2f} s, {values.num_rows:,} queries, {rss_mb():,.0f} MB resident"
              f"{'; ' + check if check else ''}", flush=True)
        del out, left, right, values
    print(f"load after: {uptime()}")
    rows = per_bucket * DOCS_PER_QUERY
    steady = sorted(seconds)[len(seconds) // 2]
    print(f"kernel: median {steady:.3f} s a bucket of {rows:,} run rows = {rows / steady:,.0f} lines/s on one core")
    cpu = args.job_lines / rows * steady
    job = args.job_seconds * args.cores
    print(f"for {args.job_lines:,.0f} lines: {args.job_lines / rows:,.0f} buckets x {steady:.3f} s = {cpu:,.0f} s of "
          f"CPU, {cpu / job:.1%} of a {args.job_seconds:,.1f} s job on {args.cores} cores ({job:,.0f} core-seconds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
