"""Classroom under load: 30 students and a teacher speaking Streamlit's own protocol to a real server.

Every client is a websocket on ``/_stcore/stream`` that does what the browser's frontend does: it sends
``BackMsg.rerun_script`` with the page name, the query string and the widget states (widget ids come
from the elements the server sent), follows ``page_info_changed`` (the address bar), and answers the
server's ``auto_rerun`` messages with fragment reruns (``st.fragment(run_every=...)``: the teacher's live
panel every second, each student's reveal/next check every two seconds).

The teacher opens the private link of a class on document 003's example asking all five steps.  Each
student opens ``/join?code=...``, types a nickname, presses Join, then answers every step after a random
pause (1-4 s); every third student first writes a wrong DCG and corrects it; every student also re-sends
one answer (a retried submit).  Measured: for each answer, the time from the student's message to the
moment the teacher's "Answers" count (drawn by the live panel) includes it — answers sorted by the time
they were sent, the j-th counted as seen when the count first reaches j — as p50 / p95 / max; then the
database is checked: every answer present exactly once.

The same run is done on SQLite (the default) and on a throwaway PostgreSQL (tests/classroom/postgres.py).

    python benchmarks/classroom.py [--students 30] [--only sqlite|postgres]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402  (installed with streamlit)

from classroom.store import Store  # noqa: E402
from classroom.tasks import FIELDS, example_task  # noqa: E402

TASK = example_task("003-blog")
SOL = TASK.exercise().solution()
BD = SOL["breakdown"]
RIGHT = {
    "terms": " ".join(f"{x:.2f}" for x in BD["discounted_gain"].dropna()),
    "dcg": f"{SOL['dcg']:.2f}",
    "ideal_terms": " ".join(f"{x:.2f}" for x in BD["ideal_discounted_gain"].dropna()),
    "idcg": f"{SOL['idcg']:.2f}",
    "ndcg": f"{SOL['ndcg']:.2f}",
}
LABELS = {"terms": "DCG terms, position 1 first", "dcg": "DCG", "ideal_terms": "IDCG terms, position 1 first",
          "idcg": "IDCG", "ndcg": "NDCG"}


class Client:
    """One browser tab, at the protocol level."""

    def __init__(self, base: str, page: str, query: dict[str, str], name: str):
        self.url = base.replace("http://", "ws://") + "/_stcore/stream"
        self.page = page
        self.query = urlencode(query)
        self.name = name
        self.page_hash = ""
        self.inputs: dict[str, str] = {}  # label -> widget id
        self.buttons: dict[str, str] = {}
        self.values: dict[str, WidgetState] = {}  # widget id -> state we set (sent on every rerun)
        self.metrics: dict[str, str] = {}
        self.finished = asyncio.Event()
        self.early = False
        self.trail: list[str] = []
        self.resends = 0
        self.errors: list[str] = []
        self.on_metric = None
        self.auto: dict[str, asyncio.Task] = {}
        self.ws = None

    async def open(self) -> None:
        self.ws = await connect(self.url, subprotocols=["streamlit"], max_size=None, open_timeout=60,
                                ping_interval=None)
        self.reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        for task in self.auto.values():
            task.cancel()
        self.reader.cancel()
        await self.ws.close()

    async def _read(self) -> None:
        try:
            await self._read_all()
        except Exception as exc:  # noqa: BLE001 - reported with the run that waits for it
            self.errors.append(f"connection: {exc!r}")
        else:
            self.errors.append("connection closed by the server")
        self.finished.set()

    async def _read_all(self) -> None:
        async for data in self.ws:
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            self.trail.append(kind if kind != "script_finished" else f"finished:{msg.script_finished}")
            del self.trail[:-20]
            if kind == "new_session":
                self.page_hash = msg.new_session.page_script_hash or self.page_hash
            elif kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = msg.page_info_changed.query_string
            elif kind == "auto_rerun":
                fid, every = msg.auto_rerun.fragment_id, msg.auto_rerun.interval
                if fid not in self.auto:
                    self.auto[fid] = asyncio.create_task(self._auto(fid, every))
            elif kind == "script_finished":
                # A full run ends with FINISHED_SUCCESSFULLY.  When a fragment rerun (the auto-refresh) was
                # queued while it ran, the full run is reported as FINISHED_EARLY_FOR_RERUN once it is done
                # and the queued fragment run follows: its end then ends our wait too.
                status = msg.script_finished
                if status in (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR):
                    self.finished.set()
                elif status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    self.early = True
                elif status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY and self.early:
                    self.finished.set()
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el = msg.delta.new_element
                which = el.WhichOneof("type")
                if which == "text_input":
                    self.inputs[el.text_input.label] = el.text_input.id
                elif which == "button":
                    self.buttons[el.button.label] = el.button.id
                elif which == "metric":
                    self.metrics[el.metric.label] = el.metric.body
                    if self.on_metric:
                        self.on_metric(el.metric.label, el.metric.body)
                elif which == "exception":
                    self.errors.append(el.exception.message[:200])

    async def _auto(self, fragment_id: str, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            await self.send(fragment_id=fragment_id, auto=True)

    async def send(self, *, trigger: str | None = None, fragment_id: str = "", auto: bool = False) -> None:
        back = BackMsg()
        cs = back.rerun_script
        cs.query_string = self.query
        cs.page_script_hash = self.page_hash
        cs.page_name = "" if self.page_hash else self.page
        cs.fragment_id = fragment_id
        cs.is_auto_rerun = auto
        for state in self.values.values():
            cs.widget_states.widgets.append(state)
        if trigger:
            w = cs.widget_states.widgets.add()
            w.id = trigger
            w.trigger_value = True
        if not fragment_id:
            self.finished.clear()
            self.early = False
        await self.ws.send(back.SerializeToString())

    async def run(self, *, patience: float = 20, tries: int = 4, **kw) -> None:
        """A full rerun, waiting until the server says the script finished.

        Under load the server has been seen to answer a full rerun sent while a fragment run was starting
        with fragment runs only; after ``patience`` seconds the message is sent again, as a browser user
        would press Enter again (a retried submit: the store must not count it twice).  Counted in
        :attr:`resends`.
        """
        for _ in range(tries):
            await self.send(**kw)
            try:
                await asyncio.wait_for(self.finished.wait(), timeout=patience)
                return
            except TimeoutError:
                self.resends += 1
        raise RuntimeError(f"{self.name}: no end of the run after {tries} tries; errors {self.errors}; "
                           f"last messages {self.trail}")

    def set_text(self, label: str, text: str) -> None:
        wid = self.inputs[label]
        w = WidgetState(id=wid, string_value=text)
        self.values[wid] = w


async def student(i: int, base: str, code: str, sent: list, acks: list, rng: random.Random) -> Client:
    c = Client(base, "join", {"code": code}, f"s{i}")
    await c.open()
    await c.run()
    c.set_text("Nickname", f"student{i:02d}")
    await c.run(trigger=c.buttons["Join"])
    if "DCG" not in c.inputs:
        raise RuntimeError(f"student {i} did not join: {c.errors}")
    plan = []
    if i % 3 == 0:
        plan.append(("dcg", "6.9"))  # wrong first, corrected below
    plan += [(f, RIGHT[f]) for f in FIELDS]
    for field, text in plan:
        await asyncio.sleep(rng.uniform(1.0, 4.0))
        c.set_text(LABELS[field], text)
        sent.append(time.perf_counter())
        await c.run()
        acks.append(time.perf_counter())
    await c.run()  # a retried submit: the same widget values again must not store anything new
    return c


async def session(base: str, db_url: str, n_students: int, seed: int = 1) -> dict:
    store = Store(db_url)
    info, token = store.create(TASK, fields=FIELDS)
    teacher = Client(base, "class", {"code": info.code, "key": token}, "teacher")
    seen: list[tuple[float, int]] = []

    def on_metric(label: str, body: str) -> None:
        if label == "Answers":
            seen.append((time.perf_counter(), int(body)))

    teacher.on_metric = on_metric
    await teacher.open()
    await teacher.run()
    if "Answers" not in teacher.metrics:
        raise RuntimeError(f"teacher page did not draw the dashboard: {teacher.errors}")
    rng = random.Random(seed)
    sent: list[float] = []
    acks: list[float] = []
    started = time.perf_counter()
    students = await asyncio.gather(*(student(i, base, info.code, sent, acks, random.Random(rng.random()))
                                      for i in range(n_students)))
    expected = n_students * len(FIELDS) + len(range(0, n_students, 3))
    deadline = time.perf_counter() + 30
    while (not seen or seen[-1][1] < expected) and time.perf_counter() < deadline:
        await asyncio.sleep(0.2)
    elapsed = time.perf_counter() - started
    sent.sort()
    latencies = []
    for j, t_sent in enumerate(sent, start=1):
        t_seen = next((t for t, count in seen if count >= j and t >= t_sent), None)
        latencies.append(float("inf") if t_seen is None else t_seen - t_sent)
    for c in [teacher, *students]:
        await c.close()
    frame = store.teacher(info.code, token).answers()
    per_step = frame.groupby(["student_id", "field"]).size()
    errors = [e for c in [teacher, *students] for e in c.errors]
    return {
        "answers_sent": len(sent), "answers_stored": len(frame), "expected": expected,
        "duplicates": int((per_step > 1).sum()) - len(range(0, n_students, 3)),  # the corrected DCGs are 2 each
        "missing": expected - len(frame), "errors": errors,
        "p50": statistics.median(latencies), "p95": sorted(latencies)[int(0.95 * (len(latencies) - 1))],
        "max": max(latencies), "ack_p50": statistics.median(a - s for a, s in zip(sorted(acks), sent)),
        "elapsed": elapsed, "last_count": seen[-1][1] if seen else 0,
        "resends": sum(c.resends for c in [teacher, *students]),
    }


LOG = open(os.environ.get("CLASSROOM_BENCH_LOG", os.devnull), "ab")  # noqa: SIM115 - the servers' output


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db_url: str):
    port = free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", NDCG_LAB_DB_URL=db_url)
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=LOG, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.time() + 90
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            if time.time() > deadline or proc.poll() is not None:
                raise RuntimeError("streamlit did not start") from None
            time.sleep(0.3)


def measure(name: str, db_url: str, n_students: int) -> dict:
    proc, base = serve(db_url)
    try:
        # warm-up: the first session of a server imports and caches the pages
        asyncio.run(session(base, db_url, 2, seed=0))
        result = asyncio.run(session(base, db_url, n_students))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    result["backend"] = name
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    results = []
    if args.only in (None, "sqlite"):
        with tempfile.TemporaryDirectory() as tmp:
            results.append(measure("SQLite (WAL)", f"sqlite:///{tmp}/classroom.sqlite3", args.students))
    if args.only in (None, "postgres"):
        from tests.classroom.postgres import fresh_database, throwaway_postgres

        with throwaway_postgres() as server:
            results.append(measure("PostgreSQL 15", fresh_database(server, "bench"), args.students))
    print(f"\n{args.students} students x {len(FIELDS)} steps (+ a corrected DCG for every third student)")
    print("| database | answers sent / stored / expected | lost | duplicated | submit->teacher p50 | p95 | max |"
          " student's own feedback p50 | resent | errors |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        print(f"| {r['backend']} | {r['answers_sent']} / {r['answers_stored']} / {r['expected']} | {r['missing']} | "
              f"{r['duplicates']} | {r['p50']:.2f} s | {r['p95']:.2f} s | {r['max']:.2f} s | {r['ack_p50']:.2f} s | "
              f"{r['resends']} | {len(r['errors'])} |")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
