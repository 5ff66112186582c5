"""Memory and time of the red team's hostile uploads (issue 37, findings F1-F5): the reader now and before, side by
side in one run.

    python benchmarks/hostile_uploads.py                 # every file, now and before
    python benchmarks/hostile_uploads.py --only now      # only the reader of this tree
    python benchmarks/hostile_uploads.py --files f3 f4   # some files

Each row is one read in a fresh process, as the Run files page reads an upload: the file's bytes already held,
then ``read_run(memoryview(data), limits=<the page's limits>)``.  Peak RSS (``VmHWM`` after a reset through
``/proc/self/clear_refs``) is over the RSS just before the read.  "before" is ``metrics/runfiles/read.py`` of
commit :data:`BEFORE_COMMIT` (main before helper files2's changes), loaded from git in the same run; "now" is
this tree's.  The files are written once under ``benchmarks/data/hostile/``:

* **F1 wide line** -- a TREC run line of 10,000,000 extra fields (20 MB; trec_eval ignores fields after the tag);
* **F1 wide header** -- a CSV header of 2,000,000 columns and one row (21 MB);
* **F2 huge id** -- one row whose query id is 100,000,000 characters, zstd (4 KB);
* **F3 forged footer** -- one row whose query id is one PLAIN page of 200,000,000 NUL characters, zstd, its footer
  rewritten (fastparquet) to say every column chunk decompresses to at most 100 bytes (the red team's was 800 MB;
  200 MB keeps "before" within a shared machine);
* **F4 row groups** -- 50,000 row groups of one row (17.7 MB);
* **F5 long field** -- a CSV whose second line has an unquoted field of 200,000 characters, its third line one field
  short (the line-by-line path).

Also measured, to calibrate the estimate (:data:`metrics.runfiles.read.QID_TEXT_BYTES`, ``DOCNO_TEXT_BYTES``,
``READ_ROW_BYTES``): clean Parquet files read without limits (``--calibrate``).
"""
from __future__ import annotations

import argparse
import json
import struct
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data" / "hostile"
BEFORE_COMMIT = "cdc2896"
# the page's limits: ui/pages/run_files/view.UPLOAD_LIMITS
PAGE = dict(max_rows=100 * 2**20 // 8, max_ratio=100, max_memory=3 * 100 * 2**20)


def _build(key: str) -> Path:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    DATA.mkdir(parents=True, exist_ok=True)
    names = {"f1_line": "wide_line.run", "f1_header": "wide_header.csv", "f2": "huge_id.parquet",
             "f3": "forged.parquet", "f4": "many_rg.parquet", "f5": "long_field.csv",
             "clean2m": "clean2m.parquet", "longdoc": "longdoc.parquet", "longq": "longq.parquet"}
    path = DATA / names[key]
    if path.exists():
        return path
    if key == "f1_line":
        path.write_bytes(b"101 Q0 D101 1 1.0 tag" + b" x" * 10_000_000 + b"\n")
    elif key == "f1_header":
        path.write_bytes(b"qid,docno,score," + b",".join(b"c%d" % i for i in range(2_000_000)) + b"\n101,D1,1.0"
                         + b"," * 2_000_000 + b"\n")
    elif key == "f2":
        pq.write_table(pa.table({"qid": ["e" * 100_000_000], "docno": ["d"], "score": [1.0]}), path,
                       compression="zstd")
    elif key == "f3":
        from fastparquet import ParquetFile

        plain = DATA / "bigpage.parquet"
        table = pa.table({"qid": pa.array([b"\0" * 200_000_000], pa.binary()).cast(pa.string()), "docno": ["d1"],
                          "score": [1.0]})
        pq.write_table(table, plain, compression="zstd", use_dictionary=False, write_statistics=False)
        del table
        data = plain.read_bytes()
        length = struct.unpack("<I", data[-8:-4])[0]
        meta = ParquetFile(str(plain)).fmd
        for group in meta.row_groups:
            group.total_byte_size = 200
            for chunk in group.columns:
                chunk.meta_data.total_uncompressed_size = min(chunk.meta_data.total_uncompressed_size, 100)
        footer = meta.to_bytes()
        path.write_bytes(data[:-8 - length] + footer + struct.pack("<I", len(footer)) + b"PAR1")
    elif key == "f4":
        n = 50_000
        pq.write_table(pa.table({"qid": ["101"] * n, "docno": [f"D{i}" for i in range(n)],
                                 "score": np.arange(n, dtype=float)}), path, row_group_size=1, compression="none",
                       write_statistics=False)
    elif key == "f5":
        path.write_text("qid,docno,score\n101," + "x" * 200_000 + ",1.0\n101,D101\n")
    elif key == "clean2m":
        n = 2_000_000
        q = np.arange(n) // 100
        pq.write_table(pa.table({"qid": [f"q{x}" for x in q], "docno": [f"D{i:07d}" for i in range(n)],
                                 "score": np.arange(n, dtype=float)}), path)
    elif key in ("longdoc", "longq"):
        n = 20_000
        long = [f"{i:08d}" + "d" * 4992 for i in range(n)]
        short = [f"q{i % 50}" for i in range(n)] if key == "longdoc" else ["d"] * n
        ids = {"qid": short, "docno": long} if key == "longdoc" else {"qid": long, "docno": short}
        pq.write_table(pa.table({**ids, "score": np.arange(n, dtype=float)}), path, compression="zstd")
    return path


LABELS = {"f1_line": "F1 wide line", "f1_header": "F1 wide header", "f2": "F2 huge id", "f3": "F3 forged footer",
          "f4": "F4 row groups", "f5": "F5 long field", "clean2m": "2,000,000 short ids",
          "longdoc": "20,000 document ids of 5,000 chars", "longq": "20,000 query ids of 5,000 chars"}


def _status() -> dict[str, float]:
    out = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1]) / 1024
    return out


def _module(which: str):
    sys.path.insert(0, str(ROOT))
    if which == "now":
        import metrics.runfiles.read as module

        return module
    from upload_memory import read_module  # this folder is on sys.path when a benchmark runs as a script

    return read_module(BEFORE_COMMIT)
    import importlib.util

    source = subprocess.run(["git", "show", f"{BEFORE_COMMIT}:metrics/runfiles/read.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    import metrics.runfiles  # noqa: F401 - the package the old module's relative imports resolve in

    spec = importlib.util.spec_from_loader("metrics.runfiles.read_before", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "metrics.runfiles"
    sys.modules[spec.name] = module
    exec(compile(source, f"read.py@{BEFORE_COMMIT}", "exec"), module.__dict__)  # noqa: S102 - our own history
    return module


def _child(which: str, path: str, limited: bool) -> dict:
    import gc

    module = _module(which)
    limits = module.Limits(**PAGE) if limited else None
    module.read_run(b"q1 Q0 d1 1 0.5 x\nq1 Q0 d2 2 0.4 x\nbad line\n", name="warm-up")
    data = Path(path).read_bytes()
    gc.collect()
    base = _status()["VmRSS"]
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
    t0 = time.perf_counter()
    try:
        parsed = module.read_run(memoryview(data), name=Path(path).name, limits=limits)
        outcome = (f"{parsed.table.n_rows:,} rows" if parsed.table is not None else "refused") + (
            f": {parsed.problems[0].message}" if parsed.problems else "")
    except Exception as exc:  # noqa: BLE001 - "before" raised on some files: that is the finding
        outcome = f"raised {type(exc).__name__}: {str(exc)[:80]}"
    seconds = time.perf_counter() - t0
    return {"peak": _status()["VmHWM"] - base, "seconds": seconds, "outcome": outcome[:110],
            "file_mb": len(data) / 2**20}


def _load() -> str:
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--files", nargs="+", default=["f1_line", "f1_header", "f2", "f3", "f4", "f5"],
                   choices=sorted(LABELS))
    p.add_argument("--only", choices=["now", "before"], default=None)
    p.add_argument("--calibrate", action="store_true", help="clean Parquet files read without limits, now only")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child[0], args.child[1], args.child[2] == "1")))
        return 0
    if args.calibrate:
        args.files, args.only = ["clean2m", "longdoc", "longq"], "now"
    print(f"Fresh process per row; peak RSS in MiB over the RSS with the file's bytes held; load {_load()}.\n")
    print("| file | MiB | reader | peak MiB | peak × file | s | outcome |")
    print("|---|---:|---|---:|---:|---:|---|")
    for key in args.files:
        path = _build(key)
        for which in [args.only] if args.only else ["now", "before"]:
            print(f"  {key}, {which} ...", file=sys.stderr, flush=True)
            proc = subprocess.run([sys.executable, __file__, "--child", which, str(path),
                                   "0" if args.calibrate else "1"], cwd=ROOT, capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"| {LABELS[key]} | | {which} | | | | died: {proc.stderr.strip().splitlines()[-1][:90]} |",
                      flush=True)
                continue
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            print(f"| {LABELS[key]} | {r['file_mb']:.2f} | {which} | {r['peak']:.0f} | "
                  f"{r['peak'] / max(r['file_mb'], 1e-9):.1f}× | {r['seconds']:.2f} | {r['outcome']} |", flush=True)
    print(f"\n(load after: {_load()})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
