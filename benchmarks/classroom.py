"""Classroom under load: students and a teacher speaking Streamlit's own protocol to real app servers.

Every simulated browser is a websocket on ``/_stcore/stream`` that does what the frontend does: it sends
``BackMsg.rerun_script`` with the page, the query string and the widget states (widget ids from the
elements the server sent), follows ``page_info_changed`` (the address bar), answers ``auto_rerun`` with the
fragment reruns a browser's timer sends, and takes whatever runs the server pushes by itself (the teacher's
live counts, a student's check).  The simulated browsers run in a **separate process** (``nice``-d, and
pinned with ``--client-cpus``), so the figures measure the servers, not the clients; they report their
phases to this process, which reads the CPU time of every server, PostgreSQL backend, nginx and client
process from ``/proc`` at each phase, and counts the database's statements (PostgreSQL:
``pg_stat_statements``; SQLite: the app's own count, ``NDCG_LAB_DB_STATS``).

Three runs:

* default — one app server, 30 students, on SQLite and on PostgreSQL;
* ``--lecture`` — 300 students on 3 app processes behind Debian's nginx (``deploy/nginx.conf``: sticky
  route cookie, the app trusting nginx's ``X-Forwarded-For``) over one PostgreSQL, each student from an
  address of its own (sockets bound to 127.0.x.y), while one client on one address floods joins from fresh
  sessions (``--flood`` tabs) until the real students have joined;
* ``--idle`` — N students seated and a teacher watching, nobody acting, for ``--seconds``: the server CPU
  an idle seated student costs and the database statements a second of an idle class, with the server
  pushing reruns (``ui/pages/classroom/push.py``) and, in the same run, with the browsers polling as before
  (``NDCG_LAB_CLASS_PUSH=0``).

The answering runs: the teacher opens the private link of a class on document 003's example asking all five
steps; the students join (all of them first), then each answers every step after a random pause
(``--pause``, default 1-4 s), every third first writing a wrong DCG and correcting it, every one re-sending
one answer (a retried submit).  Measured: for each answer the time from the student's message to the moment
the teacher's "Answers" count includes it (answers sorted by sending time; the j-th counted when the count
first reaches j), and to the end of the student's own run (their feedback drawn); re-sends (a message sent
again after 20 s without an answer); then the database: every answer stored exactly once; and the servers'
CPU time per answer.

    python benchmarks/classroom.py [--students 30] [--only sqlite|postgres]
    python benchmarks/classroom.py --lecture [--students 300] [--servers 3] [--flood 4]
    python benchmarks/classroom.py --idle [--students 300] [--servers 1] [--seconds 60] [--db postgres|sqlite]

``--against REF`` (the answering runs) first runs the same class on the app as committed at ``REF`` (``git
archive`` into a temp folder; the simulated browsers and the measuring stay this tree's), then on this
tree, and prints both as one table: before and after, side by side, in the same minutes of the machine.
``--profile FOLDER`` records the app servers with py-spy (``PY_SPY``: its path) while the class answers.

Every figure is printed with the machine's load average (``uptime``) before and after.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from classroom.tasks import FIELDS, example_task  # noqa: E402
from tests.classroom.protocol import Client  # noqa: E402

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


def mixed_sheets() -> list[dict[str, str]]:
    """A real class's answers (``--mix``): the right sheet and one per misconception and pair of them
    (tests/metrics/lessons/student.py, a model of a student that does not call metrics), written at the
    exercise's 2 decimals: students' sheets differ, so each answer is a diagnosis the server has not seen."""
    from tests.metrics.lessons import student as model

    ex = TASK.exercise()
    v = ex.variant
    way = model.Way(v.gain, v.discount, v.log_base)
    base = model.Recipe(way, way, source="judged")
    out = []
    for _keys, _side, recipe in [((), "", base), *model.single_and_pair_recipes(base, list(ex.grades),
                                                                                  list(ex.unretrieved), v.k)]:
        n = model.numbers(recipe, list(ex.grades), list(ex.unretrieved), v.k)
        out.append({"terms": " ".join(model.fmt(x, 2) for x in n["terms"]), "dcg": model.fmt(n["dcg"], 2),
                    "ideal_terms": " ".join(model.fmt(x, 2) for x in n["ideal_terms"]),
                    "idcg": model.fmt(n["idcg"], 2), "ndcg": model.fmt(n["ndcg"], 2)})
    return out


LABELS = {"terms": "DCG terms, position 1 first", "dcg": "DCG", "ideal_terms": "IDCG terms, position 1 first",
          "idcg": "IDCG", "ndcg": "NDCG"}
CLK = os.sysconf("SC_CLK_TCK")


# ================================================================================ the simulated browsers
def address_of(i: int) -> str:
    """Student ``i``'s own loopback address (127.0.1.1, 127.0.1.2, ...; Linux routes all of 127/8 to lo)."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


async def seat(i: int, base: str, code: str, addresses: bool) -> Client:
    """Student ``i`` opens the join link, types a nickname and presses Join."""
    c = Client(base, "join", {"code": code}, f"s{i}", address_of(i) if addresses else None)
    c.log_runs = True
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
    return c


async def answers_of(c: Client, i: int, rng: random.Random, pause: tuple[float, float], sent: list,
                     acks: list, sheets: list | None = None) -> None:
    """Every step, after a pause each; every third student first writes a wrong DCG; one retried submit.
    With ``sheets`` (``--mix``), student ``i`` writes sheet ``i`` (modulo their number) instead of the right one."""
    sheet = sheets[i % len(sheets)] if sheets else RIGHT
    plan = [("dcg", "6.9")] if i % 3 == 0 else []  # wrong first, corrected below
    plan += [(f, sheet[f]) for f in FIELDS]
    for field, text in plan:
        await asyncio.sleep(rng.uniform(*pause))
        c.set_text(LABELS[field], text)
        t0 = time.perf_counter()
        sent.append(t0)
        await c.run(fragment_id=c.fragment_of.get(LABELS[field], ""))
        acks.append(time.perf_counter() - t0)
    await c.run()  # a retried submit: the same widget values again must not store anything new


async def flooder(base: str, code: str, stop: asyncio.Event, tabs: int, address: str) -> dict:
    """One client (one address) opening fresh sessions and joining under new nicknames until ``stop``."""
    counts = {"tries": 0, "admitted": 0, "refused": {}, "errors": 0}
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
                else:
                    why = c.alerts[-1][:60] if c.alerts else "no answer"
                    counts["refused"][why] = counts["refused"].get(why, 0) + 1
            finally:
                if c.ws is not None:
                    await c.close()

    await asyncio.gather(*(tab() for _ in range(tabs)))
    return counts


def mark(name: str, **data) -> None:
    """Tell the measuring process a phase starts (it reads the CPU clocks then)."""
    print(f"MARK {name} {json.dumps(data)}", flush=True)


async def teacher_of(spec: dict) -> tuple[Client, list]:
    teacher = Client(spec["base"], "class", {"code": spec["code"], "key": spec["token"]}, "teacher")
    seen: list[tuple[float, int]] = []

    def on_metric(label: str, body: str) -> None:
        if label == "Answers":
            seen.append((time.perf_counter(), int(body)))

    teacher.on_metric = on_metric
    teacher.log_runs = True
    await teacher.open()
    await teacher.run()
    if "Answers" not in teacher.metrics:
        raise RuntimeError(f"teacher page did not draw the dashboard: {teacher.errors} {teacher.trail}")
    return teacher, seen


async def seat_all(spec: dict) -> tuple[list[Client], list[str], dict | None]:
    n, base, code = spec["students"], spec["base"], spec["code"]
    stop = asyncio.Event()
    flood = asyncio.create_task(flooder(base, code, stop, spec["flood"], "127.0.200.1")) if spec["flood"] else None
    results = await asyncio.gather(*(seat(i, base, code, spec["addresses"]) for i in range(n)),
                                   return_exceptions=True)
    stop.set()
    counts = await flood if flood else None
    seated = [r for r in results if isinstance(r, Client)]
    failed = [repr(r)[:300] for r in results if not isinstance(r, Client)]
    return seated, failed, counts


async def lag_meter(lags: list[float], stop: asyncio.Event, every: float = 0.05) -> None:
    """How late the client process's event loop wakes up (its own congestion, not the servers'): every
    ``every`` seconds, the overshoot of a sleep.  A late loop also stamps messages late."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - t0 - every)


def teacher_runs(teacher: Client, since: float, until: float) -> dict:
    """The teacher's runs in [since, until] by part: the counts' fragment, the panel's, whole pages — how
    many, and how long each took to arrive (first message to its end, as the client saw them)."""
    counts_fragment = teacher.metric_fragment.get("Answers", "")
    out: dict[str, list[float]] = {"counts": [], "panel": [], "counts and panel": [], "page": [],
                                   "nothing drawn": []}
    for start, end, fragments, deltas, _how in teacher.runs:
        if start < since or end > until:
            continue
        part = ("nothing drawn" if not deltas else "page" if not fragments else
                "counts" if fragments == (counts_fragment,) else
                "counts and panel" if counts_fragment in fragments else "panel")
        out[part].append(end - start)
    return {k: {"n": len(v), "p50": quantile(v, .5), "p95": quantile(v, .95), "max": max(v, default=0.0),
                "total": sum(v)} for k, v in out.items()}


#: How a part's run (not the whole page's) ends.
FRAGMENT_RUN = ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY


def student_runs(students: list[Client], since: float, until: float) -> dict:
    """The students' runs in [since, until] that drew something: whole pages (no fragment: the benchmark's
    one retried submit per student, and any other) and fragment runs."""
    out = {"page": 0, "fragment": 0}
    for c in students:
        for start, end, _fragments, deltas, how in c.runs:
            if since <= start and end <= until and deltas:
                out["fragment" if how == FRAGMENT_RUN else "page"] += 1
    return out


async def answering(spec: dict) -> dict:
    """The class answers (run in the client process)."""
    teacher, seen = await teacher_of(spec)
    mark("joining", route=teacher.route)
    students, failed, flood = await seat_all(spec)
    lags: list[float] = []
    stop_lag = asyncio.Event()
    lag_task = asyncio.create_task(lag_meter(lags, stop_lag))
    mark("answering", seated=len(students))
    t_answering = time.perf_counter()
    rng = random.Random(spec["seed"])
    sent: list[float] = []
    acks: list[float] = []
    started = time.perf_counter()
    sheets = mixed_sheets() if spec.get("mix") else None
    outcome = await asyncio.gather(*(answers_of(c, int(c.name[1:]), random.Random(rng.random()),
                                                tuple(spec["pause"]), sent, acks, sheets) for c in students),
                                   return_exceptions=True)
    failed += [repr(r)[:300] for r in outcome if isinstance(r, BaseException)]
    expected = sum(len(FIELDS) + (1 if int(c.name[1:]) % 3 == 0 else 0) for c in students)
    deadline = time.perf_counter() + 60
    while (not seen or seen[-1][1] < expected) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    mark("answered")
    stop_lag.set()
    await lag_task
    elapsed = time.perf_counter() - started
    sent.sort()
    latencies = []
    for j, t_sent in enumerate(sent, start=1):
        t_seen = next((t for t, count in seen if count >= j and t >= t_sent), None)
        latencies.append(float("inf") if t_seen is None else t_seen - t_sent)
    everyone = [teacher, *students]
    for c in everyone:
        await c.close()
    return {"latencies": latencies, "acks": acks, "expected": expected, "sent": len(sent),
            "last_count": seen[-1][1] if seen else 0, "elapsed": elapsed, "flood": flood,
            "resends": sum(c.resends for c in everyone), "errors": [e for c in everyone for e in c.errors] + failed,
            "seated": len(students), "teacher_route": teacher.route,
            "teacher_runs": teacher_runs(teacher, t_answering, time.perf_counter()),
            "student_runs": student_runs(students, t_answering, time.perf_counter()),
            "client_lag": {"p50": quantile(lags, .5), "p95": quantile(lags, .95), "max": max(lags, default=0.0)},
            "short": [f"{c.name}: last messages {c.trail[-6:]}, alerts {c.alerts[-2:]}" for c in students]}


async def idling(spec: dict) -> dict:
    """Seated students and a teacher, nobody acting (run in the client process)."""
    teacher, _ = await teacher_of(spec)
    students, failed, _ = await seat_all(spec)
    everyone = [teacher, *students]
    # Let every run the seating caused end (nothing received for 3 s), then measure.
    quiet_since, last = time.perf_counter(), -1
    deadline = time.perf_counter() + 120
    while time.perf_counter() - quiet_since < 3 and time.perf_counter() < deadline:
        total = sum(c.received for c in everyone)
        if total != last:
            last, quiet_since = total, time.perf_counter()
        await asyncio.sleep(0.2)
    before = [(c.received, c.asked, c.ends) for c in everyone]
    mark("idle", seated=len(students))
    await asyncio.sleep(spec["seconds"])
    mark("idle-end")
    after = [(c.received, c.asked, c.ends) for c in everyone]
    for c in everyone:
        await c.close()
    delta = [tuple(a - b for a, b in zip(x, y)) for x, y in zip(after, before)]
    return {"seated": len(students), "errors": [e for c in everyone for e in c.errors] + failed,
            "messages": sum(d[0] for d in delta), "asked": sum(d[1] for d in delta),
            "runs": sum(d[2] for d in delta), "seconds": spec["seconds"]}


def client_main(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    result = asyncio.run(answering(spec) if spec["mode"] == "answer" else idling(spec))
    print("RESULT " + json.dumps(result), flush=True)


# ================================================================================ the measuring process
LOG = open(os.environ.get("CLASSROOM_BENCH_LOG", os.devnull), "ab")  # noqa: SIM115 - the servers' output


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f}"


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            kids.setdefault(int(fields[1]), []).append(int(entry))
    return kids


def cpu_seconds(roots: list[int]) -> float:
    """User + system CPU seconds of the processes ``roots`` and all their descendants (alive now)."""
    kids = _children()
    total, todo, seen = 0.0, list(roots), set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLK
        todo += kids.get(pid, [])
    return total


class Meter:
    """CPU clocks of the servers, PostgreSQL, nginx and the clients, and the database's statement counts,
    read at each phase the client process marks."""

    def __init__(self, groups: dict[str, list[int]], statements):
        self.groups = groups
        self.statements = statements  # () -> {kind: count}
        self.marks: dict[str, tuple[float, dict[str, float], dict[str, int]]] = {}

    def read(self, name: str) -> None:
        self.marks[name] = (time.perf_counter(), {g: cpu_seconds(p) for g, p in self.groups.items()},
                            self.statements())

    def between(self, a: str, b: str) -> dict:
        (t0, c0, s0), (t1, c1, s1) = self.marks[a], self.marks[b]
        return {"seconds": t1 - t0, "cpu": {g: c1[g] - c0[g] for g in c0},
                "statements": {k: s1.get(k, 0) - s0.get(k, 0) for k in set(s0) | set(s1)}}


def run_clients(spec: dict, meter: Meter, *, nice: int, cpus: str | None, on_mark=None) -> dict:
    """The simulated browsers in their own process (niced, optionally pinned); phases read by ``meter``
    (and ``on_mark(name)`` called after each)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(spec, f)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--client-spec", f.name]
    if cpus:
        cmd = ["taskset", "-c", cpus, *cmd]
    proc = subprocess.Popen(["nice", "-n", str(nice), *cmd], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    meter.groups["clients"] = [proc.pid]
    result = None
    for line in proc.stdout:
        if line.startswith("MARK "):
            meter.read(line.split()[1])
            if on_mark is not None:
                on_mark(line.split()[1])
        elif line.startswith("RESULT "):
            result = json.loads(line[7:])
    proc.wait()
    Path(f.name).unlink()
    if result is None:
        raise RuntimeError(f"the client process ended without a result ({proc.returncode})")
    return result


# ------------------------------------------------------------------------------ servers and databases
def serve(db_url: str, n: int, env: dict, root: Path | None = None) -> list:
    from tests.classroom.servers import App

    apps = []
    for _ in range(n):  # started together would also work (the migration lock): one after the other is simpler
        apps.append(App(db_url, env=env, root=root).start())
    return apps


@contextmanager
def build_of(ref: str):
    """The app as committed at ``ref`` (``git archive``), in a temp folder: the servers of the "before" rows
    run it, the simulated browsers and the measuring stay this tree's."""
    with tempfile.TemporaryDirectory(prefix="ndcg-lab-build-") as folder:
        archive = subprocess.run(["git", "archive", "--format=tar", ref], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        yield Path(folder)


def commit_of(ref: str) -> str:
    return subprocess.run(["git", "rev-parse", "--short", ref], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


@contextmanager
def stack_of(db: str, n_servers: int, env: dict, stats_dir: Path, root: Path | None = None):
    """(base URL, db URL, meter groups, statement counter, app pids) for ``n_servers`` app processes on
    ``db`` (nginx in front of more than one), running the app in ``root`` (default: this tree)."""
    from tests.classroom.postgres import fresh_database, throwaway_postgres
    from tests.classroom.servers import nginx

    with ExitStack() as stack:
        groups: dict[str, list[int]] = {}
        if db == "postgres":
            server = stack.enter_context(throwaway_postgres({
                "shared_preload_libraries": "pg_stat_statements", "pg_stat_statements.track": "all"}))
            db_url = fresh_database(server, "bench")
            postmaster, statements = postgres_stats(db_url)
            groups["postgres"] = [postmaster]
            watchers = sqlite_stats(stats_dir)

            def counter():  # the database's own count, and what the app's change watchers did
                return {**statements(), **{k: v for k, v in watchers().items() if k.startswith("watcher_")}}
        else:
            db_url = f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/classroom.sqlite3"
            counter = sqlite_stats(stats_dir)
        apps = serve(db_url, n_servers, {**env, "NDCG_LAB_DB_STATS": str(stats_dir)}, root)
        stack.callback(lambda: [a.stop() for a in apps])
        groups["servers"] = [a.proc.pid for a in apps]
        for a in apps:  # each server's own share (the teacher's process also draws the dashboard)
            groups[f"server s{a.port}"] = [a.proc.pid]
        if n_servers > 1:
            proxy = stack.enter_context(nginx([a.port for a in apps]))
            groups["nginx"] = [nginx_pid(proxy)]
            base = str(proxy)
        else:
            base = apps[0].url
        yield base, db_url, groups, counter, apps


def nginx_pid(proxy) -> int:
    pid_file = Path(proxy.log).parent / "nginx.pid"
    deadline = time.time() + 20
    while not pid_file.exists() and time.time() < deadline:
        time.sleep(0.1)
    return int(pid_file.read_text().strip())


def postgres_stats(db_url: str):
    """(postmaster pid, () -> statement counts of the benchmark's database by kind)."""
    import psycopg

    dsn = db_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        # read while the connection is open: its backend process ends with it
        ppid = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])

    own = [0]

    def counts() -> dict[str, int]:
        with psycopg.connect(dsn, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT upper(split_part(ltrim(query), ' ', 1)), sum(calls)::bigint FROM pg_stat_statements "
                "JOIN pg_database d ON d.oid = dbid WHERE d.datname = current_database() GROUP BY 1").fetchall()
        out = {k: int(v) for k, v in rows}
        out["SELECT"] = out.get("SELECT", 0) - own[0]  # this reading's own queries, counted once they ran
        own[0] += 1
        return out

    return ppid, counts


def sqlite_stats(folder: Path):
    def counts() -> dict[str, int]:
        out: dict[str, int] = {}
        for path in folder.glob("*.json"):
            try:
                data = json.loads(path.read_text())
            except (OSError, ValueError):
                continue
            for k, v in data.items():
                out[k] = out.get(k, 0) + int(v)
        return out

    return counts


def class_for(db_url: str) -> tuple:
    from classroom.store import Store

    store = Store(db_url)
    info, token = store.create(TASK, fields=FIELDS)
    # The teacher's page exchanges the key for a token of its own and retires it (used once): the
    # measuring process reads the results with a token of its own.
    store.own_token = store.teacher(info.code, token).issue_token()
    return store, info, token


def check_stored(store, info, token, seated: int) -> dict:
    """Answers stored, lost and stored twice, from the database."""
    teacher = store.teacher(info.code, store.own_token)
    frame = teacher.answers()
    roster = teacher.students()
    real = roster[roster["nickname"].str.startswith("student")]
    expected = sum(len(FIELDS) + (1 if int(n[7:]) % 3 == 0 else 0) for n in real["nickname"])
    per_step = frame.groupby(["student_id", "field"]).size()
    corrected = sum(1 for n in real["nickname"] if int(n[7:]) % 3 == 0)  # the corrected DCGs are 2 each
    return {"stored": len(frame), "expected": expected, "lost": expected - len(frame),
            "duplicated": int((per_step > 1).sum()) - corrected, "admitted": len(real),
            "bots": int(roster["nickname"].str.startswith("bot").sum())}


def tracebacks(apps) -> int:
    """Tracebacks in the app servers' logs (must be 0)."""
    return sum(a.log.read_text(errors="replace").count("Traceback") for a in apps if a.log.exists())


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] if ordered else float("nan")


def answer_run(db: str, n_students: int, n_servers: int, args, label: str, root: Path | None = None) -> dict:
    """One class answering on ``db`` with ``n_servers`` app processes (the app in ``root``, default this
    tree); everything measured."""
    env = {"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1"} if n_servers > 1 else {}
    env["NDCG_LAB_CLASS_SIZE"] = str(max(500, n_students + 20))  # the students and the flooder's seats
    with tempfile.TemporaryDirectory() as stats, stack_of(db, n_servers, env, Path(stats), root) as parts:
        base, db_url, groups, counter, _apps = parts
        store, info, token = class_for(db_url)
        warm_store, warm_info, warm_token = class_for(db_url)  # warm-up: every page imported and cached
        warm = {"mode": "answer", "base": base, "code": warm_info.code, "token": warm_token, "students": 2,
                "seed": 0, "addresses": True, "flood": 0, "pause": [0.2, 0.5]}
        run_clients(warm, Meter(dict(groups), counter), nice=args.client_nice, cpus=args.client_cpus)
        meter = Meter(dict(groups), counter)
        spec = {**warm, "code": info.code, "token": token, "students": n_students, "seed": 1,
                "flood": args.flood if n_servers > 1 else 0, "pause": args.pause, "mix": args.mix}
        load_before = load()
        profiler = Profiler(args.profile, groups["servers"], label) if args.profile else None
        r = run_clients(spec, meter, nice=args.client_nice, cpus=args.client_cpus,
                        on_mark=profiler.mark if profiler else None)
        r.update(check_stored(store, info, token, r["seated"]))
        r["phase"] = meter.between("answering", "answered")
        r["joining"] = meter.between("joining", "answering")
        r["load"] = (load_before, load())
        r["tracebacks"] = tracebacks(_apps)
        r["label"] = label
        r["mix"] = args.mix
    return r


class Profiler:
    """``--profile FOLDER``: py-spy (``PY_SPY`` or on PATH; ``--gil``: the samples of the thread holding
    Python's lock, i.e. the server's CPU) on every app server during the answering phase, its collapsed
    stacks written to FOLDER (one file per server and build).  The profiler costs CPU: a profiled run's
    figures are not comparable with an unprofiled one."""

    def __init__(self, folder: str, pids: list[int], label: str):
        self.folder, self.pids = Path(folder), pids
        self.tag = "".join(ch if ch.isalnum() else "-" for ch in label)[-40:]
        self.procs: list[subprocess.Popen] = []
        self.folder.mkdir(parents=True, exist_ok=True)

    def mark(self, name: str) -> None:
        if name == "answering":
            exe = os.environ.get("PY_SPY", "py-spy")
            self.procs = [subprocess.Popen([exe, "record", "--gil", "--rate", "100", "--format",
                                            "raw", "-o", str(self.folder / f"{self.tag}-{pid}.txt"), "-p", str(pid)],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                          for pid in self.pids]
        elif name == "answered":
            for proc in self.procs:
                proc.send_signal(signal.SIGINT)
            for proc in self.procs:
                proc.wait(timeout=60)


def print_answer_run(r: dict) -> None:
    lat, acks = r["latencies"], r["acks"]
    cpu = r["phase"]["cpu"]
    answers = max(1, r["stored"])
    print(f"\n{r['label']}: {r['seated']} students seated ({r['admitted']} admitted), "
          f"{len(FIELDS)} steps (+ a corrected DCG for every third), pause {r.get('pause_text', '')}, "
          f"answers {'mixed (a sheet per misconception)' if r.get('mix') else 'all right'}")
    if r.get("flood"):
        fl = r["flood"]
        print(f"  flooder (one address): {fl['tries']} joins tried, {r['bots']} seats, refused {fl['refused']}, "
              f"dropped {fl['errors']}")
    print(f"  answers sent / stored / expected: {r['sent']} / {r['stored']} / {r['expected']}; "
          f"LOST {r['lost']}, DUPLICATED {r['duplicated']}, re-sent messages {r['resends']}")
    print(f"  submit -> teacher's count:  p50 {quantile(lat, .5):.2f} s, p95 {quantile(lat, .95):.2f} s, "
          f"max {quantile(lat, 1):.2f} s")
    print(f"  submit -> own feedback:     p50 {quantile(acks, .5):.2f} s, p95 {quantile(acks, .95):.2f} s, "
          f"max {quantile(acks, 1):.2f} s")
    secs = r["phase"]["seconds"]
    print(f"  answering phase {secs:.1f} s: CPU servers {cpu['servers']:.1f} s"
          + "".join(f", {g} {cpu[g]:.1f} s" for g in ("postgres", "nginx") if g in cpu)
          + f", clients {cpu['clients']:.1f} s; server CPU per answer {1000 * cpu['servers'] / answers:.1f} ms"
          + (f" (+ PostgreSQL {1000 * cpu['postgres'] / answers:.1f} ms)" if "postgres" in cpu else ""))
    per = {g.split()[1]: v for g, v in cpu.items() if g.startswith("server ")}
    if per:
        print("  per server CPU: " + ", ".join(f"{k} {v:.1f} s" + (" (the teacher's)" if k == r.get("teacher_route")
                                                                    else "") for k, v in sorted(per.items())))
    if r.get("teacher_runs"):
        tr = r["teacher_runs"]
        print("  teacher's runs while answering (as the client received them: count, p50 / p95 / max s, sum s): "
              + "; ".join(f"{k} {v['n']}, {v['p50']:.2f} / {v['p95']:.2f} / {v['max']:.2f}, {v['total']:.1f}"
                          for k, v in tr.items()))
    if r.get("student_runs"):
        sr = r["student_runs"]
        print(f"  students' runs while answering: {sr['fragment']} of a part, {sr['page']} of the whole page "
              f"({r['seated']} of them the retried submit)")
    if r.get("client_lag"):
        lg = r["client_lag"]
        print(f"  client process's event loop late by p50 {lg['p50'] * 1000:.0f} ms, p95 {lg['p95'] * 1000:.0f} ms, "
              f"max {lg['max'] * 1000:.0f} ms")
    st = r["phase"]["statements"]
    print(f"  database statements in the phase: {sum(v for k, v in st.items() if not k.startswith('watcher'))}"
          f" ({', '.join(f'{k} {v}' for k, v in sorted(st.items()) if v)})")
    print(f"  load average (1 min) before -> after: {r['load'][0]} -> {r['load'][1]}; client errors "
          f"{len(r['errors'])} {r['errors'][:3]}; tracebacks in the servers' logs {r['tracebacks']}")


def idle_run(db: str, n_students: int, n_servers: int, seconds: float, push: bool, args) -> dict:
    env = {"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1"} if n_servers > 1 else {}
    env["NDCG_LAB_CLASS_SIZE"] = str(max(500, n_students + 20))  # the students and the flooder's seats
    if not push:
        env["NDCG_LAB_CLASS_PUSH"] = "0"
    with tempfile.TemporaryDirectory() as stats, stack_of(db, n_servers, env, Path(stats)) as parts:
        base, db_url, groups, counter, _apps = parts
        _store, info, token = class_for(db_url)
        meter = Meter(dict(groups), counter)
        spec = {"mode": "idle", "base": base, "code": info.code, "token": token, "students": n_students,
                "addresses": True, "flood": 0, "seconds": seconds}
        load_before = load()
        r = run_clients(spec, meter, nice=args.client_nice, cpus=args.client_cpus)
        r["phase"] = meter.between("idle", "idle-end")
        r["load"] = (load_before, load())
        r["tracebacks"] = tracebacks(_apps)
    r["push"] = push
    return r


def print_idle(rows: list[dict], db: str, n_servers: int) -> None:
    print(f"\nIdle class on {db}, {n_servers} app process(es): students seated and a teacher watching, "
          "nobody acting")
    print("| updates | seated | seconds | server CPU | per idle student | 300 idle students | DB statements/s "
          "(by kind) | change feed /s | reruns the browsers asked | runs | tracebacks | load before → after |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|")
    for r in rows:
        ph = r["phase"]
        secs = ph["seconds"]
        cpu = ph["cpu"]["servers"]
        per = cpu / secs / max(1, r["seated"])
        stmts = {k: v for k, v in ph["statements"].items() if not k.startswith("watcher")}
        feed = {k[8:]: ph["statements"].get(k, 0) / secs for k in ("watcher_reads", "watcher_checks",
                                                                   "watcher_notifications")}
        print(f"| {'server pushes' if r['push'] else 'browsers poll'} | {r['seated']} | {secs:.0f} | "
              f"{cpu:.2f} s ({100 * cpu / secs:.1f} % of a core) | {1000 * per:.3f} ms/s | "
              f"{100 * per * 300:.1f} % of a core | {sum(stmts.values()) / secs:.2f} "
              f"({', '.join(f'{k} {v}' for k, v in sorted(stmts.items()) if v) or 'none'}) | state reads "
              f"{feed['reads']:.2f}, data_version checks {feed['checks']:.2f}, notifications "
              f"{feed['notifications']:.2f} | {r['asked']} | {r['runs']} | {r['tracebacks']} | "
              f"{r['load'][0]} → {r['load'][1]} |")
        if r["errors"]:
            print(f"  errors: {r['errors'][:3]}")
    if any("postgres" in r["phase"]["cpu"] for r in rows):
        print("PostgreSQL CPU in the window: " + ", ".join(
            f"{'push' if r['push'] else 'poll'} {r['phase']['cpu']['postgres']:.2f} s" for r in rows))


def dirty() -> bool:
    return bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip())


def print_side_by_side(runs: list[dict]) -> None:
    """The runs of one invocation as one Markdown table (before and after, same machine, same minutes)."""
    print("\n| build | database | students / processes | stored / expected | lost | stored twice | re-sent | "
          "submit → teacher's count p50 / p95 / max | submit → own feedback p50 / p95 / max | server CPU per "
          "answer | statements per answer | load (1 min) |")
    print("|---|---|---|---|---:|---:|---:|---|---|---:|---:|---|")
    for r in runs:
        lat, acks, cpu = r["latencies"], r["acks"], r["phase"]["cpu"]
        answers = max(1, r["stored"])
        st = sum(v for k, v in r["phase"]["statements"].items() if not k.startswith("watcher"))
        pg = f" (+ {1000 * cpu['postgres'] / answers:.1f} PostgreSQL)" if "postgres" in cpu else ""
        print(f"| {r['build']} | {r['label'].split(',')[0].split(':')[-1].strip()} | {r['seated']} / "
              f"{r['servers']} | {r['stored']} / {r['expected']} | {r['lost']} | {r['duplicated']} | "
              f"{r['resends']} | {quantile(lat, .5):.2f} / {quantile(lat, .95):.2f} / {quantile(lat, 1):.2f} s | "
              f"{quantile(acks, .5):.2f} / {quantile(acks, .95):.2f} / {quantile(acks, 1):.2f} s | "
              f"{1000 * cpu['servers'] / answers:.1f} ms{pg} | {st / answers:.1f} | "
              f"{r['load'][0]} → {r['load'][1]} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=None)
    parser.add_argument("--only", choices=("sqlite", "postgres"))
    parser.add_argument("--lecture", action="store_true", help="300 students, 3 servers behind nginx, a flooder")
    parser.add_argument("--idle", action="store_true", help="idle seated students: pushes against polling")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="postgres", help="(--idle)")
    parser.add_argument("--servers", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=60.0, help="(--idle) the measured window")
    parser.add_argument("--flood", type=int, default=4, help="the flooder's parallel tabs (0: none)")
    parser.add_argument("--pause", type=float, nargs=2, default=(1.0, 4.0), metavar=("MIN", "MAX"),
                        help="seconds a student pauses before each answer")
    parser.add_argument("--mix", action="store_true",
                        help="students write different sheets (misconceptions), as in a real class")
    parser.add_argument("--client-nice", type=int, default=10, help="niceness of the simulated browsers")
    parser.add_argument("--client-cpus", default=None, help="pin the simulated browsers (taskset list)")
    parser.add_argument("--against", metavar="REF", default=None,
                        help="also run the app as committed at REF (git archive), before this tree's, in the same "
                             "run: the before/after rows side by side")
    parser.add_argument("--profile", metavar="FOLDER", default=None,
                        help="py-spy the app servers while the class answers (collapsed stacks in FOLDER)")
    parser.add_argument("--client-spec", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client_spec:
        client_main(args.client_spec)
        return
    print(f"load average before: {load()} on {os.cpu_count()} CPUs; simulated browsers at nice {args.client_nice}"
          + (f", pinned to CPUs {args.client_cpus}" if args.client_cpus else ""))
    pause = f"{args.pause[0]:g}-{args.pause[1]:g} s"
    if args.idle:
        n, servers = args.students or 300, args.servers or 1
        rows = [idle_run(args.db, n, servers, args.seconds, push, args) for push in (True, False)]
        print_idle(rows, args.db, servers)
    else:
        with ExitStack() as stack:
            builds = [(None, None)]
            if args.against:
                builds.insert(0, (f"{args.against} ({commit_of(args.against)})",
                                  stack.enter_context(build_of(args.against))))
                builds[1] = (f"this tree ({commit_of('HEAD')}{'+' if dirty() else ''})", None)
            runs = []
            if args.lecture:
                n, servers = args.students or 300, args.servers or 3
                plan = [("postgres", f"Lecture: PostgreSQL 15, {servers} app processes behind nginx", servers)]
            else:
                n = args.students or 30
                plan = [(db, f"{'SQLite (WAL)' if db == 'sqlite' else 'PostgreSQL 15'}, one app server",
                         args.servers or 1) for db in ("sqlite", "postgres") if args.only in (None, db)]
            for db, name, servers in plan:
                for build, root in builds:
                    r = answer_run(db, n, servers, args, name + (f" [{build}]" if build else ""), root)
                    r["pause_text"], r["build"], r["servers"] = pause, build or "this tree", servers
                    print_answer_run(r)
                    runs.append(r)
            if len(builds) > 1:
                print_side_by_side(runs)
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main()
