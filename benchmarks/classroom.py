"""Classroom under load: 30 students and a teacher speaking Streamlit's own protocol to a real server.

Every client is a websocket on ``/_stcore/stream`` that does what the browser's frontend does: it sends
``BackMsg.rerun_script`` with the page name, the query string and the widget states (widget ids come
from the elements the server sent), follows ``page_info_changed`` (the address bar), and answers the
server's ``auto_rerun`` messages with fragment reruns (``st.fragment(run_every=...)``: the teacher's live
panel every second, each student's reveal/next check every three seconds), and sends an answer as a rerun
of the fragment that draws the answers, as the browser does for a widget inside a fragment.

The teacher opens the private link of a class on document 003's example asking all five steps.  Each
student opens ``/join?code=...``, types a nickname, presses Join, then answers every step after a random
pause (1-4 s); every third student first writes a wrong DCG and corrects it; every student also re-sends
one answer (a retried submit).  Measured: for each answer, the time from the student's message to the
moment the teacher's "Answers" count (drawn by the live panel) includes it — answers sorted by the time
they were sent, the j-th counted as seen when the count first reaches j — as p50 / p95 / max; then the
database is checked: every answer present exactly once.

The same run is done on SQLite (the default) and on a throwaway PostgreSQL (tests/classroom/postgres.py).

``--lecture``: the lecture hall of issue 22 instead — 300 students across 3 app processes behind Debian's
nginx (``deploy/nginx.conf`` written to a temp folder: sticky sessions by route cookie, the app trusting
nginx's ``X-Forwarded-For``) sharing one throwaway PostgreSQL.  Every student connects from an address of
its own (the client socket is bound to 127.0.x.y, so nginx and the per-address limits see 300 addresses),
and meanwhile one client on one address floods joins from fresh browser sessions (``--flood`` tabs at a
time, as fast as the server answers) until the real students have all joined: measured are the real
students admitted (aim: all) and the flooder's seats (at most ``Limits.seats_per_address``, at most
``Limits.joins_per_address`` a minute).

    python benchmarks/classroom.py [--students 30] [--only sqlite|postgres]
    python benchmarks/classroom.py --lecture [--students 300] [--servers 3] [--flood 4]
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
    """One browser tab, at the protocol level (``address``: the local address its socket is bound to)."""

    def __init__(self, base: str, page: str, query: dict[str, str], name: str, address: str | None = None):
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
        self.alerts: list[str] = []
        self.fragment_of: dict[str, str] = {}  # text input label -> the fragment drawing it ("" for none)
        self.waiting_fragment = ""  # a fragment run we asked for (not an auto-refresh)
        self.fragment_drawn = False
        self.address = address
        self.ws = None

    async def open(self) -> None:
        extra = {"local_addr": (self.address, 0)} if self.address else {}
        self.ws = await connect(self.url, subprotocols=["streamlit"], max_size=None, open_timeout=120,
                                ping_interval=None, **extra)
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
                elif status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY and (
                        self.early or (self.waiting_fragment and self.fragment_drawn)):
                    # the end of a full run reported early, or of the fragment run we asked for (recognised by
                    # the elements it drew: no auto-refresh draws in the answers' fragment)
                    self.finished.set()
            elif kind == "delta" and self.waiting_fragment and msg.delta.fragment_id == self.waiting_fragment:
                self.fragment_drawn = True
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el = msg.delta.new_element
                which = el.WhichOneof("type")
                if which == "text_input":
                    self.inputs[el.text_input.label] = el.text_input.id
                    self.fragment_of[el.text_input.label] = msg.delta.fragment_id
                elif which == "button":
                    self.buttons[el.button.label] = el.button.id
                elif which == "metric":
                    self.metrics[el.metric.label] = el.metric.body
                    if self.on_metric:
                        self.on_metric(el.metric.label, el.metric.body)
                elif which == "exception":
                    self.errors.append(el.exception.message[:200])
                elif which == "alert":
                    self.alerts.append(el.alert.body[:300])

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
        if not auto:
            self.finished.clear()
            self.early = False
            self.waiting_fragment, self.fragment_drawn = fragment_id, False
        await self.ws.send(back.SerializeToString())

    async def run(self, *, patience: float = 20, tries: int = 4, **kw) -> None:
        """A full rerun (or, with ``fragment_id``, the rerun of that fragment, as the browser sends when a
        widget inside a fragment changes), waiting until the server says it finished.

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


def address_of(i: int) -> str:
    """Student ``i``'s own loopback address (127.0.1.1, 127.0.1.2, ...; Linux routes all of 127/8 to lo)."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


async def student(i: int, base: str, code: str, sent: list, acks: list, rng: random.Random,
                  address: str | None = None, joined: list | None = None) -> Client:
    c = Client(base, "join", {"code": code}, f"s{i}", address)
    await c.open()
    await c.run()
    c.set_text("Nickname", f"student{i:03d}")
    await c.run(trigger=c.buttons["Join"])
    if "DCG" not in c.inputs:
        # A Join sent again after a timeout arrives once the first one has taken the seat, and is refused as
        # a second seat; the student opens the page again (its address holds the token): the seat is back.
        await c.run()
    if "DCG" not in c.inputs:
        raise RuntimeError(f"student {i} did not join: {c.errors} {c.alerts[-2:]}")
    if joined is not None:
        joined.append(time.perf_counter())
    plan = []
    if i % 3 == 0:
        plan.append(("dcg", "6.9"))  # wrong first, corrected below
    plan += [(f, RIGHT[f]) for f in FIELDS]
    for field, text in plan:
        await asyncio.sleep(rng.uniform(1.0, 4.0))
        c.set_text(LABELS[field], text)
        sent.append(time.perf_counter())
        await c.run(fragment_id=c.fragment_of.get(LABELS[field], ""))  # the answers are a fragment
        acks.append(time.perf_counter())
    await c.run()  # a retried submit: the same widget values again must not store anything new
    return c


async def flooder(base: str, code: str, stop: asyncio.Event, tabs: int, address: str) -> dict:
    """One client (one address) opening fresh sessions and joining under new nicknames until ``stop``."""
    counts = {"tries": 0, "admitted": 0, "refused": {}, "first_admitted": [], "errors": 0}
    serial = iter(range(10**6))

    async def tab() -> None:
        while not stop.is_set():
            k = next(serial)
            c = Client(base, "join", {"code": code}, f"bot{k}", address)
            try:
                await c.open()
                await c.run()
                c.set_text("Nickname", f"bot{k:05d}")
                await c.run(trigger=c.buttons["Join"])
            except Exception:  # noqa: BLE001 - a refused or dropped connection is a refusal too
                counts["errors"] += 1
            else:
                counts["tries"] += 1
                if "DCG" in c.inputs:
                    counts["admitted"] += 1
                    counts["first_admitted"].append(time.perf_counter())
                else:
                    why = c.alerts[-1][:60] if c.alerts else "no answer"
                    counts["refused"][why] = counts["refused"].get(why, 0) + 1
            finally:
                if c.ws is not None:
                    await c.close()

    await asyncio.gather(*(tab() for _ in range(tabs)))
    return counts


async def session(base: str, db_url: str, n_students: int, seed: int = 1, *, addresses: bool = False,
                  flood: int = 0) -> dict:
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
    joined: list[float] = []
    started = time.perf_counter()
    stop = asyncio.Event()
    flood_task = (asyncio.create_task(flooder(base, info.code, stop, flood, "127.0.200.1")) if flood else None)

    async def watch_joins() -> None:
        while len(joined) < n_students:
            await asyncio.sleep(0.2)
        stop.set()

    watcher = asyncio.create_task(watch_joins())
    results = await asyncio.gather(*(student(i, base, info.code, sent, acks, random.Random(rng.random()),
                                             address_of(i) if addresses else None, joined)
                                     for i in range(n_students)), return_exceptions=True)
    stop.set()
    watcher.cancel()
    flood_counts = await flood_task if flood_task else None
    students = [r for r in results if isinstance(r, Client)]
    failed = [repr(r)[:300] for r in results if not isinstance(r, Client)]
    expected = len(students) * len(FIELDS) + len([i for i, r in enumerate(results) if isinstance(r, Client)
                                                  and i % 3 == 0])
    deadline = time.perf_counter() + 60
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
    errors = [e for c in [teacher, *students] for e in c.errors] + failed
    roster = store.teacher(info.code, token).students()
    stored_by = frame.groupby("nickname")["field"].apply(list).to_dict()
    short = []
    for c in students:
        i = int(c.name[1:])
        want = len(FIELDS) + (1 if i % 3 == 0 else 0)
        got = stored_by.get(f"student{i:03d}", [])
        if len(got) < want:
            short.append(f"student{i:03d}: stored {got}; its last messages {c.trail[-6:]}, alerts {c.alerts[-2:]}")
    return {
        "short": short,
        "students_admitted": int(roster["nickname"].str.startswith("student").sum()), "students": n_students,
        "flood": flood_counts, "bots_admitted": int(roster["nickname"].str.startswith("bot").sum()),
        "answers_sent": len(sent), "answers_stored": len(frame), "expected": expected,
        "duplicates": int((per_step > 1).sum()) - len([c for c in students if int(c.name[1:]) % 3 == 0]),
        # (the corrected DCGs are 2 each)
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


def serve(db_url: str, **extra):
    port = free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", NDCG_LAB_DB_URL=db_url, **extra)
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
        asyncio.run(session(base, db_url, 2, seed=0, addresses=True))
        result = asyncio.run(session(base, db_url, n_students, addresses=True))  # an address each
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    result["backend"] = name
    return result


def lecture(n_students: int, n_servers: int, flood: int) -> dict:
    """``n_students`` across ``n_servers`` app processes behind nginx over one PostgreSQL, with a flooder."""
    from tests.classroom.postgres import fresh_database, throwaway_postgres
    from tests.classroom.servers import nginx

    with throwaway_postgres() as server:
        db_url = fresh_database(server, "lecture")
        procs = []
        try:
            for _ in range(n_servers):  # started together: the migration lock lets one migrate
                procs.append(serve(db_url, NDCG_LAB_TRUSTED_PROXIES="1"))
            with nginx([int(base.rsplit(":", 1)[1]) for _, base in procs]) as proxy:
                asyncio.run(session(proxy, db_url, 2, seed=0, addresses=True))  # warm-up: every page imported
                result = asyncio.run(session(proxy, db_url, n_students, addresses=True, flood=flood))
                lines = proxy.log.read_text(errors="replace").splitlines()
                result["per_server"] = {base: sum(f":{base.rsplit(':', 1)[1]} " in ln and "/_stcore/stream" in ln
                                                  for ln in lines) for _, base in procs}
        finally:
            for proc, _ in procs:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=30)
    result["backend"] = f"PostgreSQL 15, {n_servers} app processes behind nginx"
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=None)
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    parser.add_argument("--lecture", action="store_true", help="300 students, 3 servers behind nginx, a flooder")
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--flood", type=int, default=4, help="the flooder's parallel tabs (0: none)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if args.lecture:
        n = args.students or 300
        r = lecture(n, args.servers, args.flood)
        print(f"\n{n} students x {len(FIELDS)} steps (+ a corrected DCG for every third student), {r['backend']}")
        fl = r["flood"] or {}
        print(f"real students admitted: {r['students_admitted']} / {r['students']}; flooder (one address, "
              f"{args.flood} tabs): {fl.get('tries', 0)} joins tried, {r['bots_admitted']} seats, refused "
              f"{fl.get('refused', {})}, dropped {fl.get('errors', 0)}")
        print(f"answers sent / stored / expected: {r['answers_sent']} / {r['answers_stored']} / {r['expected']}; "
              f"lost {r['missing']}, duplicated {r['duplicates']}")
        print(f"submit -> teacher's count: p50 {r['p50']:.2f} s, p95 {r['p95']:.2f} s, max {r['max']:.2f} s; "
              f"student's own feedback p50 {r['ack_p50']:.2f} s; resent {r['resends']}; run {r['elapsed']:.0f} s")
        print(f"websockets per server (nginx log): {r['per_server']}; errors: {len(r['errors'])} {r['errors'][:3]}")
        for line in r["short"][:5]:
            print("missing:", line[:600])
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        return
    args.students = args.students or 30
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
    for r in results:
        if r["errors"]:
            print(f"{r['backend']} errors: {r['errors'][:3]}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
