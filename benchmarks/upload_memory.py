"""Memory of one upload on the Run files page: peak and held RSS against the file size.

    python benchmarks/upload_memory.py                  # the read path in fresh processes, 25 and 94 MB runs
    python benchmarks/upload_memory.py --sizes 94       # one size (94 MB + its 6 MB qrels: just under the cap)
    python benchmarks/upload_memory.py --server         # also: a real server, a real upload in Chromium
    python benchmarks/upload_memory.py --bad-line --sizes 25 90   # one bad line: the reader now and before
    python benchmarks/upload_memory.py --bomb 5000000    # a Parquet "bomb": the page's reader now and before

**The read path** (default): each way of handling an upload runs in its own fresh process, side by side
in one run.  A process first warms up (imports, numba kernels loaded, one tiny evaluation), then the
upload's bytes arrive as Streamlit holds them (one ``bytes`` object, wrapped in an ``UploadedFile``) and
the page's work follows: read the qrels and the run, evaluate all 24 variants.  Peak RSS is read from the
kernel per phase (``VmHWM`` after resetting it through ``/proc/self/clear_refs``), so every number is this
process's own, over the RSS after the warm-up:

* ``before`` — the page before this change: the callback kept ``getvalue()`` in session state, a SHA-1
  keyed a hand-made cache in session state, no memory handed back after the parse;
* ``cache_data`` — the page's path with ``st.cache_data`` for the parsed files and the evaluation (every
  cached value pickled when stored and unpickled on every rerun);
* ``page`` — what the page does (:mod:`ui.pages.run_files.view`): ``st.cache_resource`` keyed on the content's
  SHA-256, ``memoryview`` of the upload's own bytes, freed memory handed back after each parse.

The page's cap is 100 MB for all files together, so the largest run it takes with its qrels is ~94 MB.
Phases: *received* (the upload's bytes), *peak* (reading and evaluating, first run), *rerun peak* (a
second run of the page: cache hits), *held* (after the runs while the visitor's session lives: the
upload, the session's references and the caches), *tab closed* (the session's references dropped, as
Streamlit does ``server.disconnectedSessionTTL`` seconds after the tab closes; the caches keep the parsed
files until their ``ttl``), *cache expired* (the caches emptied), *then trimmed* (freed memory handed back,
as the next parse on the server does).

**The server** (``--server``): ``streamlit run`` in a child process, Chromium uploads the qrels and the run
through the uploaders and waits for the result (for the page, after a warm-up upload of other files of a
million lines in another session: imports and numba's kernels are a once-per-server cost, not the
upload's); the server's own ``VmHWM``/``VmRSS`` are read from
``/proc/<pid>/status`` before the upload, after the result, and after the tab is closed and its session
expired (``server.disconnectedSessionTTL`` = 3 s here; Streamlit drops expired sessions, their state and
their uploads when a later session arrives, so one more visit follows).  Side by side: the Run files page
and a bare app of two ``st.file_uploader`` widgets (Streamlit's own cost of receiving the same files).

**One bad line** (``--bad-line``): the run alone, read from its bytes as the page reads an upload, in a fresh
process per row: the clean file (pyarrow's reader), the same file with one line missing its tag read now
(the line-by-line reader: a block of text at a time, rows packed into Arrow arrays every 65,536) and
read *before* (the reader of commit 4b36cfb, taken from git in the same run: the whole text decoded, a
Python string per line and per field, a dict of (query, document) tuples).  Peak RSS over the RSS with
the file's bytes already held.

**A Parquet bomb** (``--bomb ROWS``): one (query, document, score) repeated ROWS times, dictionary-encoded
and zstd-compressed (a few hundred KB); read now under the page's limits (refused from the footer) and
before (decoded whole), in fresh processes.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
LINE_BYTES = 37.4  # bytes per run line in benchmarks/run_files.py's generated runs ("q123 Q0 D0123456 ...")
MODES = ("before", "cache_data", "page")


def _status(pid: str = "self") -> dict[str, float]:
    out = {}
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1]) / 1024
    return out


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")


def files_for(size_mb: float) -> tuple[Path, Path]:
    """A run of about ``size_mb`` MB (100 documents per query) and its qrels, generated once."""
    sys.path.insert(0, str(HERE))
    from run_files import generate

    return generate(max(int(size_mb * 1e6 / (100 * LINE_BYTES)), 10))


# ------------------------------------------------------------------------------------- child: one way
def _child(mode: str, qrels_path: str, run_path: str) -> dict:
    import gc
    import hashlib
    import logging

    sys.path.insert(0, str(ROOT))
    logging.disable(logging.WARNING)  # st.cache_* outside a server warn about the missing script run
    import streamlit as st
    from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec

    import metrics.runfiles._kernels as kernels
    from metrics.runfiles import make_variants, read_qrels, read_run
    from metrics.runfiles.batch import Evaluation, evaluate
    from ui.pages.run_files import view as V

    variants = make_variants(idcg=["judged", "list"], ties=["trec_eval", "average"])  # the page's default 24

    # ---- the three ways of handling an upload
    if mode == "before":
        session: dict = {}

        def page_run(uploads):
            files = [(f.name, f.getvalue()) for f in uploads]  # the old callback kept getvalue()
            session["rf_files"] = files
            cache = session.setdefault("rf_cache", {})
            parsed = []
            for i, (name, data) in enumerate(files):
                key = (i, name, len(data), hashlib.sha1(data).hexdigest())
                if key not in cache:
                    reader = read_qrels if i == 0 else read_run
                    cache[key] = reader(data, name=name, max_bytes=100 * 1_000_000)
                parsed.append(cache[key])
            ev_key = tuple(cache)
            if session.get("rf_ev_key") != ev_key:
                session["rf_ev"] = evaluate(parsed[0].table, [p.table for p in parsed[1:]], k=10, variants=variants)
                session["rf_ev_key"] = ev_key
            return session["rf_ev"].means()

        def clear_caches():
            pass
    else:
        if mode == "cache_data":
            @st.cache_data(max_entries=V.CACHE_ENTRIES, ttl=V.CACHE_TTL, show_spinner=False)
            def read(kind, name, digest, _data):
                return V.read_source(kind, name, digest, _data)

            @st.cache_data(max_entries=V.CACHE_ENTRIES, ttl=V.CACHE_TTL, show_spinner=False)
            def ev_cached(key, _qrels, _runs, k, labels, missing):
                out = evaluate(_qrels.table, [p.table for p in _runs], k=k, variants=variants, missing=missing)
                V.release_memory()
                return out

            def evaluate_cached(qrels, qrels_src, runs, **kw):
                key = (qrels_src.digest, tuple((s.name, s.digest) for _, s in runs))
                return ev_cached(key, qrels, tuple(p for p, _ in runs), kw["k"], tuple(v.label for v in variants),
                                 kw["missing"])

            def read_cached(src):
                return read(src.kind, src.name, src.digest, src.data)

            def clear_caches():
                read.clear()
                ev_cached.clear()
        else:
            read_cached, evaluate_cached = V.read_cached, V.evaluate_cached

            def clear_caches():
                V._read_cached.clear()
                V._result_cached.clear()
        kept: dict = {}

        def page_run(uploads):
            if "files" not in kept:  # the uploaders' callback: once per upload
                kept["files"] = [(f.name, f.getvalue(), V.digest_of(f.getvalue())) for f in uploads]
            files = kept["files"]
            qrels_src = V.Source("qrels", files[0][0], len(files[0][1]), files[0][2], files[0][1])
            run_srcs = [V.Source("run", n, len(d), h, d) for n, d, h in files[1:]]
            parsed = [read_cached(s) for s in [qrels_src, *run_srcs]]
            ev = evaluate_cached(parsed[0], qrels_src, list(zip(parsed[1:], run_srcs)), k=10, variants=variants,
                                 missing="skip")
            return (ev if isinstance(ev, Evaluation) else ev[0]).means()  # the page's: (variants table, Result)

    # ---- warm-up: imports, numba kernels, first calls (not measured)
    saved = kernels.NUMBA_MIN_ROWS
    kernels.NUMBA_MIN_ROWS = 0
    q = read_qrels(b"q1 0 d1 1\nq1 0 d2 0\n")
    r = read_run(b"q1 Q0 d1 1 0.5 x\nq1 Q0 d2 2 0.4 x\n")
    evaluate(q.table, [r.table], k=10, variants=variants).means()
    kernels.NUMBA_MIN_ROWS = saved
    gc.collect()
    V.release_memory()
    base = _status()["VmRSS"]
    out: dict = {"mode": mode, "baseline_mb": base}

    def mark(name):
        s = _status()
        out[name + "_now"] = s["VmRSS"] - base
        out[name + "_peak"] = s["VmHWM"] - base

    # ---- the upload arrives: one bytes object per file, held by Streamlit's uploaded-file manager
    _reset_peak()
    held = {"records": [UploadedFileRec(f"id{i}", Path(p).name, "text/plain", Path(p).read_bytes())
                        for i, p in enumerate((qrels_path, run_path))]}
    out["file_mb"] = sum(len(rec.data) for rec in held["records"]) / 2**20
    mark("received")

    def uploads():
        return [UploadedFile(rec, None) for rec in held["records"]]  # a new UploadedFile per script run

    _reset_peak()
    t0 = time.perf_counter()
    means = page_run(uploads())
    out["first_run_seconds"] = time.perf_counter() - t0
    out["mean_linear"] = float(means.iloc[0, 0])
    del means
    mark("first_run")
    _reset_peak()
    t0 = time.perf_counter()
    page_run(uploads())
    out["rerun_seconds"] = time.perf_counter() - t0
    gc.collect()
    mark("rerun")
    # the tab is closed and the session expires: Streamlit drops the upload and the session state
    _reset_peak()
    held.clear()
    if mode == "before":
        session.clear()
    else:
        kept.clear()
    gc.collect()
    mark("tab_closed")
    clear_caches()
    gc.collect()
    mark("cache_expired")
    V.release_memory()  # what the next parse on this server does first thing after reading
    mark("trimmed")
    return out


# ------------------------------------------------------------------------------------- child: one read
BEFORE_COMMIT = "4b36cfb"  # the reader before the bounded line-by-line path and the Parquet limits


def read_module(commit: str):
    """``metrics.runfiles.read`` as it was at ``commit``, loaded from git as a module of the package (its relative
    imports resolve against today's package).  Shared with benchmarks/hostile_uploads.py."""
    sys.path.insert(0, str(ROOT))
    import importlib.util

    source = subprocess.run(["git", "show", f"{commit}:metrics/runfiles/read.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    import metrics.runfiles  # noqa: F401 - the package the old module's relative imports resolve in

    spec = importlib.util.spec_from_loader(f"metrics.runfiles.read_{commit}", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "metrics.runfiles"
    sys.modules[spec.name] = module
    exec(compile(source, f"read.py@{commit}", "exec"), module.__dict__)  # noqa: S102 - our own history
    return module


def _reader(which: str):
    """``read_run`` now, or as it was at :data:`BEFORE_COMMIT`."""
    sys.path.insert(0, str(ROOT))
    if which == "now":
        from metrics.runfiles import read_run

        return read_run
    return read_module(BEFORE_COMMIT).read_run


def _child_read(which: str, path: str) -> dict:
    """Read one run from its bytes (a memoryview, as the page does) in this fresh process."""
    import gc

    read_run = _reader(which)
    kwargs = {}
    if which == "now":
        from ui.pages.run_files.view import UPLOAD_LIMITS  # the page's limits

        kwargs["limits"] = UPLOAD_LIMITS
    read_run(b"q1 Q0 d1 1 0.5 x\nq1 Q0 d2 2 0.4 x\nbad line\n", name="warm-up")  # imports, first calls
    data = Path(path).read_bytes()
    gc.collect()
    base = _status()["VmRSS"]
    _reset_peak()
    t0 = time.perf_counter()
    parsed = read_run(memoryview(data), name=Path(path).name, max_bytes=10**12, **kwargs)
    seconds = time.perf_counter() - t0
    peak = _status()["VmHWM"] - base
    return {"which": which, "file": Path(path).name, "file_mb": len(data) / 2**20, "peak_mb": peak,
            "seconds": seconds, "rows": parsed.table.n_rows if parsed.table is not None else 0,
            "problems": [p.message[:100] for p in parsed.problems[:2]]}


def _run_child_read(which: str, path: Path) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child-read", which, str(path)], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{which} {path.name} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def with_bad_line(run: Path) -> Path:
    """The run with its middle line missing its tag (5 fields), written once beside it."""
    out = run.with_name(run.stem + "_bad_line.txt")
    if not out.exists():
        lines = run.read_bytes().split(b"\n")
        middle = len(lines) // 2
        lines[middle] = lines[middle].rsplit(b" ", 1)[0]
        out.write_bytes(b"\n".join(lines))
    return out


def bomb_file(rows: int) -> Path:
    """``rows`` rows of one pair, dictionary-encoded, zstd: a Parquet bomb, written once."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"bomb_{rows}.parquet"
    if not path.exists():
        zeros = pa.array(np.zeros(rows, np.int32))
        same = pa.DictionaryArray.from_arrays(zeros, pa.array(["x"]))
        pq.write_table(pa.table({"qid": same, "docno": same, "score": np.zeros(rows)}), path, compression="zstd",
                       row_group_size=1 << 22)
    return path


def _load() -> str:
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def _run_child(mode: str, qrels: Path, run: Path) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", mode, str(qrels), str(run)], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{mode} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------------------- a real server
BARE_APP = """import streamlit as st
st.title("bare")
qrels = st.file_uploader("qrels", key="q")
runs = st.file_uploader("runs", key="r", accept_multiple_files=True)
if qrels is not None and runs:
    st.write(f"{len(qrels.getvalue()) + sum(len(r.getvalue()) for r in runs)} bytes: 1 run(s) x 0 variant(s) over")
"""


def server(size_mb: float, app: str) -> dict:
    """One upload of qrels + run through Chromium into ``app`` ("page": the Run files page, "bare": two bare
    uploaders); the server process's own memory, MB over its RSS before the upload."""
    import tempfile
    import urllib.request

    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_FLAGS, wait_for_app

    qrels, run = files_for(size_mb)
    tmp = tempfile.TemporaryDirectory()
    if app == "bare":
        script, path = Path(tmp.name) / "bare.py", ""
        script.write_text(BARE_APP)
    else:
        script, path = ROOT / "app.py", "run_files?data=upload"
    port = 8600 + (os.getpid() + len(app)) % 300
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
         "--browser.gatherUsageStats", "false", "--server.disconnectedSessionTTL", "3"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid = str(proc.pid)
    url = f"http://127.0.0.1:{port}"
    out: dict = {"app": app, "file_mb": (qrels.stat().st_size + run.stat().st_size) / 2**20}
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=2)
                break
            except OSError:
                time.sleep(0.3)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)

            def visit(query: str):
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                page.set_default_timeout(300_000)
                page.goto(f"{url}/{query}")
                wait_for_app(page, 180_000)
                return context, page

            if app == "page":
                # Warm-up, not measured: imports, and numba's kernels (loaded once per server for files of a
                # million lines and more) through one upload of other files of that size, in its own session.
                wq, wr = files_for(40)
                context, page = visit(path)
                inputs = page.locator('[data-testid="stFileUploader"] input[type="file"]')
                inputs.nth(0).set_input_files(str(wq))
                wait_for_app(page, 180_000)
                inputs.nth(1).set_input_files(str(wr))
                page.get_by_text("variant(s) over").wait_for()
                wait_for_app(page, 300_000)
                context.close()
                time.sleep(6)
            context, page = visit(path)
            time.sleep(3)
            before = _status(pid)
            out["baseline_mb"] = before["VmRSS"]
            with open(f"/proc/{pid}/clear_refs", "w") as fh:
                fh.write("5")
            inputs = page.locator('[data-testid="stFileUploader"] input[type="file"]')
            t0 = time.perf_counter()
            inputs.nth(0).set_input_files(str(qrels))
            wait_for_app(page, 180_000)
            inputs.nth(1).set_input_files(str(run))
            try:
                page.get_by_text("variant(s) over").wait_for()
            except Exception:
                (ROOT / "test-artifacts").mkdir(exist_ok=True)
                page.screenshot(path=str(ROOT / "test-artifacts" / "upload_memory_failure.png"), full_page=True)
                raise
            wait_for_app(page, 300_000)
            out["upload_to_verdict_seconds"] = time.perf_counter() - t0
            time.sleep(2)
            s = _status(pid)
            out["peak"] = s["VmHWM"] - before["VmRSS"]
            out["after_verdict"] = s["VmRSS"] - before["VmRSS"]
            context.close()
            # The session outlives its tab by server.disconnectedSessionTTL (3 s here); Streamlit lets go of
            # expired sessions (their state and uploads) when a later session arrives.
            time.sleep(6)
            context, _ = visit(path)
            context.close()
            time.sleep(6)
            out["tab_closed"] = _status(pid)["VmRSS"] - before["VmRSS"]
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        tmp.cleanup()
    return out


# ------------------------------------------------------------------------------------- main
def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=float, nargs="+", default=[25, 94],
                   help="run sizes in MB (a run with its qrels under the page's 100 MB cap: at most 94)")
    p.add_argument("--server", action="store_true", help="also measure a real server with a Chromium upload")
    p.add_argument("--server-only", action="store_true", help="only the real-server measurement")
    p.add_argument("--bad-line", action="store_true",
                   help="only: a run with one bad line, read now and before (and the clean run)")
    p.add_argument("--bomb", type=int, default=None, metavar="ROWS",
                   help="only: a Parquet bomb of ROWS rows, read now (page limits) and before")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    p.add_argument("--child-read", nargs=2, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        print(json.dumps(_child(*args.child)))
        return 0
    if args.child_read:
        print(json.dumps(_child_read(*args.child_read)))
        return 0
    if args.bad_line or args.bomb:
        print(f"Fresh process per row; peak RSS in MiB over the RSS with the file's bytes held; load {_load()}.\n")
        print("| file | MiB | reader | peak MiB | peak × file | rows | s | problems |")
        print("|---|---:|---|---:|---:|---:|---:|---|")
        jobs = []
        if args.bad_line:
            for size in args.sizes:
                _qrels, run = files_for(size)
                jobs += [("now", run), ("now", with_bad_line(run)), ("before", with_bad_line(run))]
        if args.bomb:
            jobs += [("now", bomb_file(args.bomb)), ("before", bomb_file(args.bomb))]
        for which, path in jobs:
            print(f"  {path.name}, {which} ...", file=sys.stderr, flush=True)
            r = _run_child_read(which, path)
            print(f"| {r['file']} | {r['file_mb']:.1f} | {which} | {r['peak_mb']:.0f} | "
                  f"{r['peak_mb'] / max(r['file_mb'], 1e-9):.1f}× | {r['rows']:,} | {r['seconds']:.2f} | "
                  f"{'; '.join(r['problems'])[:90]} |", flush=True)
        print(f"\n(load after: {_load()})")
        return 0
    rows = []
    for size in [] if args.server_only else args.sizes:
        qrels, run = files_for(size)
        for mode in MODES:
            print(f"  {size:g} MB, {mode} ...", file=sys.stderr, flush=True)
            rows.append(_run_child(mode, qrels, run))
    if rows:
        print("Read path, fresh process per row; MB over the RSS after the warm-up (MiB); × = over the files' size.\n")
        print("| files (qrels + run) | way | received | peak (first run) | peak × | rerun peak | held, session open "
              "| tab closed (caches kept) | caches expired | then trimmed | first run (s) |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        size = r["file_mb"]
        print(f"| {size:.0f} MB | {r['mode']} | {r['received_now']:.0f} | {r['first_run_peak']:.0f} | "
              f"{r['first_run_peak'] / size:.2f}× | {r['rerun_peak']:.0f} | {r['rerun_now']:.0f} | "
              f"{r['tab_closed_now']:.0f} | {r['cache_expired_now']:.0f} | {r['trimmed_now']:.0f} | "
              f"{r['first_run_seconds']:.2f} |")
    if rows:
        values = {r["mean_linear"] for r in rows if abs(r["file_mb"] - rows[-1]["file_mb"]) < 1e-9}
        print(f"\n(same mean NDCG from every way: {len(values) == 1})")
    if args.server or args.server_only:
        print("\nA real server, Chromium uploads qrels + run; the server process's own RSS, MB over its RSS before "
              "the upload.  bare = two bare st.file_uploader widgets (Streamlit's own cost of receiving the files).\n")
        print("| files | app | peak | peak × | after the verdict | tab closed, session expired | upload → shown (s) |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for size in args.sizes:
            for app in ("bare", "page"):
                print(f"  server: {size:g} MB, {app} ...", file=sys.stderr, flush=True)
                r = server(size, app)
                print(f"| {r['file_mb']:.0f} MB | {app} | {r['peak']:.0f} | {r['peak'] / r['file_mb']:.2f}× | "
                      f"{r['after_verdict']:.0f} | {r['tab_closed']:.0f} | {r['upload_to_verdict_seconds']:.1f} |",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
