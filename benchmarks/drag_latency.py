"""The playground's speed in Chromium against bare Streamlit pages, all in one run:

* drop -> final NDCG on screen, the playground beside a bare page holding only the same cards component
  (``ui.components.cards``: the numbers and the cards, nothing else), and beside the previous baseline,
  a bare page with streamlit-sortables and one ``st.metric`` (the number comes back from the server);
* drop -> the server's rerun on screen (the component shows the server's numbers) and drop -> the whole
  run over (charts, formulas and tables drawn);
* hover -> previewed number: a mouse drag over the cards, from each pointer move that moves the card to
  the new number on screen;
* first visit (a fresh server's first page), later visits (new sessions on a warm server from new browsers)
  and return visits (new sessions from a browser that has been there: its HTTP cache warm) -> first number
  on screen, the playground against a bare Streamlit page with one ``st.metric``; where the time goes:
  connecting (to the page's first websocket message) and drawing (from there to the number), and the bare
  cards page inside app.py-like menus with app.py's language buttons, with the select they replaced, and with
  neither;
* imports before the playground's first number, with ``python -X importtime``, against all of the page's.

Run: python benchmarks/drag_latency.py [--drops 12] [--grades 5] [--rounds 3] [--later 4] [--skip-visits]
     [--compare REF]   (REF: a git commit whose app is timed beside this tree's in the visits, e.g. main)

"On screen" is read in the page: a MutationObserver sees the text change (or the component's preview
style go), then two animation frames pass (the frame that paints it); times are ``performance.now()``
in the page, from the event (the dropping key's keydown, the pointer move) or from navigation start.
Keyboard drops (Space lifts, an arrow moves, Space drops) make every drop alike; the card goes one place
right, then back.  Servers run in their own processes, warmed up first (drops not timed).  Prints
medians with quartiles, the ratios, and ``uptime``'s load (the machine is shared: say so beside every
number).
"""
from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SORTABLE = 'iframe[title="streamlit_sortables.sortable_items"]'

# The bare page of the new playground: the same component (numbers + cards), its data from metrics/.
BARE_CARDS = '''
import sys
sys.path.insert(0, {root!r})
import streamlit as st
from ui.components.cards import cards, payload, read_drop
from ui.numbers import show
from ui.ranking import Ranking
from metrics.ndcg import cg, dcg, idcg, ndcg

state = st.session_state
ranking = state.get("ranking") or Ranking.from_fields({grades!r})
drop = read_drop(state.get("cards"), state.get("seen", 0))
if drop is not None:
    state["seen"] = drop[2]
    if drop[0]:
        ranking = ranking.drag(drop[0], drop[1], 40)
state["ranking"] = ranking
g = ranking.grades()
values = {{"cg": cg(g), "dcg": dcg(g), "idcg": idcg(g), "ndcg": ndcg(g)}}
numbers = {{k: {{"label": k.upper(), "text": show(v), "printed": None}} for k, v in values.items()}}
cards(payload(ranking, cap=40, k=None, gain="linear", discount="standard", base=2.0, idcg="list", zero="zero",
              numbers=numbers, texts={{}}, seq=state.get("seen", 0)), key="cards")
'''

# The previous baseline: streamlit-sortables and one number computed by the server.
BARE_SORTABLES = '''
import sys
sys.path.insert(0, {root!r})
import streamlit as st
from streamlit_sortables import sort_items
from metrics.ndcg import ndcg

GRADES = {grades!r}
cards = [f"D{{i + 1}} · {{g}}" for i, g in enumerate(GRADES)]
value = sort_items([{{"header": "Ranked list", "items": cards}}, {{"header": "Not retrieved", "items": []}}],
                   multi_containers=True, direction="horizontal", key="bare_sort")
order = [float(card.split(" · ")[1]) for card in value[0]["items"]] or [0.0]
st.metric("NDCG", f"{{ndcg(order):.4f}}")
'''

BARE_METRIC = 'import streamlit as st\nst.metric("NDCG", "0.9561")\n'

# Where a visit's time goes: the cards page inside a menu like app.py's (13 pages with icons, the language
# buttons).
WITH_SIDEBAR = '''
import streamlit as st

def body():
    exec(open({cards!r}, encoding="utf-8").read(), {{"__name__": "__main__"}})

pages = [st.Page(body, title="Playground", url_path="pg", icon=":material/tune:", default=True)]
pages += [st.Page(lambda: None, title=f"Page {{i}}", url_path=f"p{{i}}", icon=":material/menu_book:")
          for i in range(12)]
nav = st.navigation(pages)
with st.sidebar:
    st.segmented_control("Language", ["English", "简体中文", "한국어"], key="lang", required=True)
    st.caption("About")
nav.run()
'''
# The same menu without a language control (what the control alone costs), and with the select app.py had
# before the buttons.
_BUTTONS = '''    st.segmented_control("Language", ["English", "简体中文", "한국어"], key="lang", required=True)
'''
WITH_MENU_ONLY = WITH_SIDEBAR.replace(_BUTTONS, "")
_SELECT = '''    st.selectbox("Language", ["English", "简体中文", "한국어"], key="lang")
'''
WITH_SELECT = WITH_SIDEBAR.replace(_BUTTONS, _SELECT)

# ---- in-page probes ------------------------------------------------------------------------------
PAINTED = "(f) => requestAnimationFrame(() => requestAnimationFrame(f))"

# Component pages: times of the drop's keydown, the number final on screen, the server's rerun on screen.
CARDS_PROBE = """(box) => {
  const root = box.getRootNode();
  const val = root.querySelector('.num[data-key="ndcg"] .val');
  const painted = __PAINTED__;
  const m = window.__m = {drop: 0, number: 0, server: 0, target: Number(box.dataset.seq) + 1};
  root.addEventListener('keydown', (e) => { if (e.key === ' ' && !m.drop) m.drop = performance.now(); }, true);
  const check = () => {
    if (m.drop && !m.number && !box.classList.contains('is-preview')) {
      painted(() => { if (!m.number) m.number = performance.now(); });
    }
    if (m.drop && !m.server && Number(box.dataset.serverSeq) >= m.target) {
      painted(() => { if (!m.server) m.server = performance.now(); });
    }
  };
  new MutationObserver(check).observe(box, {attributes: true, attributeFilter: ['class', 'data-server-seq']});
  new MutationObserver(check).observe(val, {childList: true, characterData: true, subtree: true});
}""".replace("__PAINTED__", PAINTED)

# Hover: every pointer move's time; every change of the NDCG text -> (change painted) - (last move).
HOVER_PROBE = """(box) => {
  const root = box.getRootNode();
  const val = root.querySelector('.num[data-key="ndcg"] .val');
  const painted = __PAINTED__;
  const h = window.__hover = {last: 0, lat: []};
  document.addEventListener('pointermove', () => { h.last = performance.now(); }, true);
  new MutationObserver(() => { const moved = h.last; painted(() => h.lat.push(performance.now() - moved)); })
    .observe(val, {childList: true, characterData: true, subtree: true});
}""".replace("__PAINTED__", PAINTED)

# The sortables page: the metric's text change in the page (painted), the dropping Space in the iframe.
METRIC_PROBE = """() => {
  const painted = __PAINTED__;
  const value = () => document.querySelector('[data-testid="stMetricValue"]').innerText;
  const m = window.__m = {before: value(), number: 0};
  new MutationObserver(() => {
    if (!m.number && value() !== m.before) painted(() => { if (!m.number) m.number = performance.now(); });
  }).observe(document.querySelector('[data-testid="stMain"]'), {subtree: true, childList: true, characterData: true});
}""".replace("__PAINTED__", PAINTED)
DROP_IN_FRAME = """() => { window.__drop = 0;
  document.addEventListener('keydown', e => { if (e.code === 'Space') window.__drop = performance.timeOrigin
    + performance.now(); }, true); }"""

# First number on screen after navigation (installed before the page's own scripts); also the time the page
# sends its first websocket message (connected: the run is asked for), to tell connecting from drawing.
FIRST_NUMBER = """(() => {
  window.__first = 0;
  window.__connected = 0;
  const Socket = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Socket(...args);
    const send = ws.send.bind(ws);
    ws.send = (data) => { if (!window.__connected) window.__connected = performance.now(); return send(data); };
    return ws;
  };
  window.WebSocket.prototype = Socket.prototype;
  Object.assign(window.WebSocket, Socket);
  const shown = () => {
    const host = document.querySelector('[data-testid="stBidiComponentIsolated"]');
    const v = host && host.shadowRoot && host.shadowRoot.querySelector('.num[data-key="ndcg"] .val');
    if (v && v.textContent) return true;
    const m = document.querySelector('[data-testid="stMetricValue"]');
    return !!(m && m.textContent);
  };
  const tick = () => {
    if (shown()) { requestAnimationFrame(() => { window.__first = performance.now(); }); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""

RUN_OVER = "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(script: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port), "--server.address",
         "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
         "--browser.gatherUsageStats", "false"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 180
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit(f"{script} did not start")


def stop(*procs: subprocess.Popen) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def quartiles(ms: list[float]) -> str:
    if not ms:
        return "no data"
    q = statistics.quantiles(ms, n=4) if len(ms) >= 2 else [ms[0]] * 3
    return f"median {statistics.median(ms):.0f} ms (quartiles {q[0]:.0f}–{q[2]:.0f}, n = {len(ms)})"


def ratio(a: list[float], b: list[float]) -> str:
    return f"{statistics.median(a) / statistics.median(b):.2f}x" if a and b and statistics.median(b) else "–"


# ---- drops --------------------------------------------------------------------------------------
def card_drops(page, url: str, n: int, warmup: int) -> dict[str, list[float]]:
    """Keyboard drops on a cards page: drop -> number final on screen, -> server's rerun on screen,
    -> the run over."""
    page.goto(url)
    page.wait_for_selector(".cards[data-cards-ready='1']", timeout=120_000)
    page.wait_for_function(RUN_OVER, timeout=120_000)
    out = {"number": [], "server": [], "run": []}
    box = page.locator(".cards")
    for i in range(warmup + n):
        label = box.evaluate("(b, i) => [...b.getRootNode().querySelectorAll('ul[data-area=ranked] > li.card')]"
                             "[i].dataset.label", 0 if i % 2 == 0 else 1)
        page.locator(f'li.card[data-label="{label}"] .card-body').focus()
        page.keyboard.press("Space")  # lift
        page.keyboard.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")  # the numbers preview the move
        box.evaluate(CARDS_PROBE)
        page.keyboard.press("Space")  # drop
        page.wait_for_function("() => window.__m.number > 0 && window.__m.server > 0", timeout=120_000)
        page.wait_for_function(RUN_OVER, timeout=120_000)
        over = page.evaluate("() => performance.now()")
        m = page.evaluate("() => window.__m")
        if i >= warmup:
            out["number"].append(m["number"] - m["drop"])
            out["server"].append(m["server"] - m["drop"])
            out["run"].append(over - m["drop"])
    return out


def hover(page, url: str, sweeps: int) -> list[float]:
    """Mouse drags across the ranked cards: pointer move -> previewed number on screen."""
    page.goto(url)
    page.wait_for_selector(".cards[data-cards-ready='1']", timeout=120_000)
    page.wait_for_function(RUN_OVER, timeout=120_000)
    box = page.locator(".cards")
    box.evaluate(HOVER_PROBE)
    for i in range(sweeps):
        cards = page.locator("ul[data-area=ranked] > li.card")
        first, last = cards.first.bounding_box(), cards.last.bounding_box()
        a = (first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
        b = (last["x"] + last["width"] / 2, last["y"] + last["height"] / 2)
        start, end = (a, b) if i % 2 == 0 else (b, a)
        page.mouse.move(*start)
        page.mouse.down()
        for s in range(1, 41):
            page.mouse.move(start[0] + (end[0] - start[0]) * s / 40, start[1] + (end[1] - start[1]) * s / 40)
        page.mouse.up()
        page.wait_for_function(RUN_OVER, timeout=120_000)
    page.wait_for_timeout(100)  # the last paint callbacks
    return page.evaluate("() => window.__hover.lat")


def sortable_drops(page, url: str, n: int, warmup: int) -> dict[str, list[float]]:
    """The previous baseline: keyboard drops in streamlit-sortables' iframe, number from the server."""
    page.goto(url)
    page.wait_for_selector('[data-testid="stMetric"]', timeout=120_000)
    frame = page.frame_locator(SORTABLE)
    frame.locator("li.sortable-item").first.wait_for(timeout=120_000)
    page.wait_for_function(RUN_OVER, timeout=120_000)
    page.wait_for_timeout(1000)  # dnd-kit's keyboard sensor attaches after its first render
    out = {"number": [], "run": []}
    for i in range(warmup + n):
        page.evaluate(METRIC_PROBE)
        frame.locator("body").evaluate(f"({DROP_IN_FRAME})()")
        frame.locator("li.sortable-item").nth(0 if i % 2 == 0 else 1).focus()
        page.keyboard.press("Space")
        page.wait_for_timeout(150)  # dnd-kit moves on its own timers, not on an observable state
        page.keyboard.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
        page.wait_for_timeout(150)
        page.keyboard.press("Space")
        page.wait_for_function("() => window.__m.number > 0", timeout=120_000)
        page.wait_for_function(RUN_OVER, timeout=120_000)
        over = page.evaluate("() => performance.timeOrigin + performance.now()")
        dropped = frame.locator("body").evaluate("() => window.__drop")
        number = page.evaluate("() => performance.timeOrigin + window.__m.number")
        if i >= warmup:
            out["number"].append(number - dropped)
            out["run"].append(over - dropped)
        page.wait_for_timeout(300)
    return out


# ---- visits -------------------------------------------------------------------------------------
def first_number(browser, url: str, wait_for: str, context=None) -> tuple[float, float]:
    """(first number on screen, the page's first websocket message), ms after navigation start.  A new
    browser context (an empty HTTP cache) unless ``context`` is given (a returning browser).  The visit
    ends when its run is over (the playground's rest drawn), so the next visit does not share the
    server with it."""
    own = context is None
    if own:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.add_init_script(FIRST_NUMBER)
    page = context.new_page()
    try:
        page.goto(url, wait_until="commit")
        page.wait_for_function("() => window.__first > 0", timeout=180_000)
        page.wait_for_selector(wait_for, timeout=180_000)
        first, connected = page.evaluate("() => [window.__first, window.__connected]")
        page.wait_for_function(RUN_OVER, timeout=180_000)
        return first, connected
    finally:
        page.close()
        if own:
            context.close()


VISIT_PAGES = (("playground", "playground"), ("metric", "bare page, one st.metric"),
               ("cards", "bare page, the cards component"),
               ("cards_sidebar", "the cards page in app.py-like menus (+ language buttons)"),
               ("cards_select", "the cards page in the menus, the language select instead"),
               ("cards_menu", "the cards page in the menus, no language control"))


def visits(browser, scripts: dict[str, Path], rels: str, rounds: int, later: int,
           compare: Path | None = None) -> dict[str, dict[str, list]]:
    """First number on screen: each round starts fresh servers (the playground, a bare ``st.metric`` page,
    the bare cards page, the cards page inside app.py-like menus with the language buttons, the select, neither);
    their first visit, then ``later`` new sessions each from new browsers (empty HTTP cache, "later"), then
    ``later`` new sessions each from one returning browser (its HTTP cache warm, "return")."""
    pages = {"playground": (ROOT / "app.py", f"/playground?rels={rels}", ".cards"),
             "metric": (scripts["bare_metric"], "", '[data-testid="stMetric"]'),
             "cards": (scripts["bare_cards"], "", ".cards"),
             "cards_sidebar": (scripts["with_sidebar"], "", ".cards"),
             "cards_select": (scripts["with_select"], "", ".cards"),
             "cards_menu": (scripts["with_menu_only"], "", ".cards")}
    if compare is not None:  # the app of another commit (--compare), served from its own copy
        pages["playground_ref"] = (compare / "app.py", f"/playground?rels={rels}", ".cards")
    out = {name: {"first": [], "later": [], "return": []} for name in pages}
    for _ in range(rounds):
        servers = {name: serve(script) for name, (script, _, _) in pages.items()}
        contexts = {}
        try:
            for name, (_, path, selector) in pages.items():
                out[name]["first"].append(first_number(browser, servers[name][1] + path, selector))
            for _ in range(later):
                for name, (_, path, selector) in pages.items():
                    out[name]["later"].append(first_number(browser, servers[name][1] + path, selector))
            for name, (_, path, selector) in pages.items():  # a browser that has been here before
                contexts[name] = browser.new_context(viewport={"width": 1400, "height": 1000})
                contexts[name].add_init_script(FIRST_NUMBER)
                first_number(browser, servers[name][1] + path, selector, contexts[name])
            for _ in range(later):
                for name, (_, path, selector) in pages.items():
                    out[name]["return"].append(first_number(browser, servers[name][1] + path, selector,
                                                            contexts[name]))
        finally:
            for context in contexts.values():
                context.close()
            stop(*(proc for proc, _ in servers.values()))
    return out


def import_times(repeat: int = 5) -> dict[str, float]:
    """Seconds of imports (python -X importtime, a fresh process each): what the playground imports before
    its first number, and everything its script imports."""
    before = ("import streamlit; import ui.escape, ui.i18n, ui.shell; from ui.pages import playground; "
              "from ui import state; from ui.components.cards import cards; "
              "from ui.pages.playground.explain import variant_name")
    # the script and its fragment's module (ui/pages/playground/view.py): their top-level imports, as before the
    # fragment moved there (the imports after the numbers are indented, inside the fragment)
    page = [m for f in ("pages/playground.py", "ui/pages/playground/view.py")
            for m in re.findall(r"^from (\S+) import", (ROOT / f).read_text(), re.M)]
    everything = before + "; " + "; ".join(f"import {m}" for m in dict.fromkeys(page) if m != "__future__")
    out = {}
    for name, code in (("streamlit alone", "import streamlit"), ("before the first number", before),
                       ("the whole page", everything)):
        runs = []
        for _ in range(repeat):  # the median of fresh processes (a shared machine varies a lot)
            res = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT, capture_output=True,
                                 text=True, check=True)
            top = [int(m.group(1)) for m in re.finditer(r"import time:\s+\d+ \|\s+(\d+) \|\s?(\S.*)$",
                                                           res.stderr, re.M) if not m.group(2).startswith(" ")]
            runs.append(sum(top) / 1e6)
        out[name] = statistics.median(runs)
    heavy = subprocess.run([sys.executable, "-c", before + "; import sys; print(sorted(m for m in ('pandas', "
                            "'altair', 'scipy', 'pyarrow', 'sqlalchemy', 'fpdf', 'numba') if m in sys.modules))"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    out["heavy modules before the first number"] = heavy
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drops", type=int, default=12)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--grades", type=int, default=5, help="length of the ranking (3, 2, 1, 3, 2, ... repeated)")
    ap.add_argument("--sweeps", type=int, default=4, help="mouse drags across the cards (hover -> preview)")
    ap.add_argument("--rounds", type=int, default=3, help="fresh servers for first visits")
    ap.add_argument("--later", type=int, default=4, help="later visits per round")
    ap.add_argument("--skip-visits", action="store_true")
    ap.add_argument("--compare", metavar="REF", help="also time the visits of the app at this git commit")
    args = ap.parse_args()
    grades = [[3, 2, 1, 3, 2][i % 5] for i in range(args.grades)]
    rels = ",".join(str(g) for g in grades)
    print(f"load average at start: {load()}")

    from playwright.sync_api import sync_playwright

    results: dict = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        scripts = {}
        for name, source in (("bare_cards", BARE_CARDS), ("bare_sortables", BARE_SORTABLES),
                             ("bare_metric", BARE_METRIC), ("with_sidebar", WITH_SIDEBAR),
                             ("with_menu_only", WITH_MENU_ONLY), ("with_select", WITH_SELECT)):
            scripts[name] = Path(tmp) / f"{name}.py"
            cards_script = str(Path(tmp) / "bare_cards.py")
            scripts[name].write_text(source.format(root=str(ROOT), grades=grades, cards=cards_script))
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        app, app_url = serve(ROOT / "app.py")
        bare, bare_url = serve(scripts["bare_cards"])
        old, old_url = serve(scripts["bare_sortables"])
        try:
            def fresh():
                return browser.new_page(viewport={"width": 1400, "height": 1000})

            results["play"] = card_drops(fresh(), f"{app_url}/playground?rels={rels}", args.drops, args.warmup)
            results["bare"] = card_drops(fresh(), bare_url, args.drops, args.warmup)
            results["old"] = sortable_drops(fresh(), old_url, args.drops, args.warmup)
            results["play_hover"] = hover(fresh(), f"{app_url}/playground?rels={rels}", args.sweeps)
            results["bare_hover"] = hover(fresh(), bare_url, args.sweeps)
            print(f"load average after the drops: {load()}")
        finally:
            stop(app, bare, old)
        if not args.skip_visits:
            compare = None
            if args.compare:
                compare = Path(tmp) / "compare"
                compare.mkdir()
                tree = subprocess.run(["git", "archive", args.compare], cwd=ROOT, capture_output=True, check=True)
                subprocess.run(["tar", "-x", "-C", str(compare)], input=tree.stdout, check=True)
            results["visits"] = visits(browser, scripts, rels, args.rounds, args.later, compare)
            print(f"load average after the visits: {load()}")
        browser.close()
    results["imports"] = import_times()

    play, bare, old = results["play"], results["bare"], results["old"]
    print(f"\ngrades: {len(grades)}; machine: {os.cpu_count()} cores, load average at the end {load()}")
    print("drop -> final NDCG on screen")
    print(f"  playground:                              {quartiles(play['number'])}")
    print(f"  bare page, same cards component:         {quartiles(bare['number'])}")
    print(f"  bare page, streamlit-sortables + metric: {quartiles(old['number'])}  (the previous baseline)")
    print(f"  ratio playground / bare cards page: {ratio(play['number'], bare['number'])} (aim <= 1.5x); "
          f"playground / sortables page: {ratio(play['number'], old['number'])}")
    print("drop -> the server's rerun on screen (the numbers are the server's)")
    print(f"  playground: {quartiles(play['server'])}; bare cards page: {quartiles(bare['server'])}")
    print("drop -> the whole run over (charts, formulas, tables drawn)")
    print(f"  playground: {quartiles(play['run'])}; bare cards page: {quartiles(bare['run'])}; "
          f"sortables page: {quartiles(old['run'])}")
    print("hover -> previewed NDCG on screen (pointer move that moves the card -> painted)")
    print(f"  playground: {quartiles(results['play_hover'])}; bare cards page: {quartiles(results['bare_hover'])}")
    if "visits" in results:
        v = results["visits"]
        print("first number on screen after navigation start (first visit = a fresh server's first page; later ="
              " new sessions from new browsers, empty HTTP cache; return = new sessions from a browser that has"
              " been there, cache warm); [connected] = the page's first websocket message, [drawing] = number -"
              " connected")

        def part(name: str, when: str, i: int | None = None) -> list[float]:
            rows = v[name][when]
            return [r[0] - r[1] for r in rows] if i is None else [r[i] for r in rows]

        labels = VISIT_PAGES + ((("playground_ref", f"playground at {args.compare}"),) if args.compare else ())
        for name, label in labels:
            print(f"  {label}:")
            for when in ("first", "later", "return"):
                print(f"    {when:6s} {quartiles(part(name, when, 0))}; connected {quartiles(part(name, when, 1))};"
                      f" drawing {quartiles(part(name, when))}")
        for when, aim in (("first", "2x"), ("later", "1.3x"), ("return", "1.3x")):
            play, metric = part("playground", when, 0), part("metric", when, 0)
            connecting = statistics.median(part("playground", when, 1)) - statistics.median(part("metric", when, 1))
            print(f"  {when} visits, playground / st.metric page: {ratio(play, metric)} (aim <= {aim}); "
                  f"playground / cards page in menus: {ratio(play, part('cards_sidebar', when, 0))}; "
                  f"menus with the buttons / neither: "
                  f"{ratio(part('cards_sidebar', when, 0), part('cards_menu', when, 0))}; "
                  f"the select / neither: {ratio(part('cards_select', when, 0), part('cards_menu', when, 0))}; "
                  f"connecting, playground - st.metric page: {connecting:.0f} ms")
            if args.compare:
                ref = part("playground_ref", when, 0)
                print(f"    playground at {args.compare} / st.metric page: {ratio(ref, metric)}; "
                      f"this tree / {args.compare}: {ratio(play, ref)}")
    print("imports (python -X importtime, seconds, fresh processes)")
    for name, value in results["imports"].items():
        print(f"  {name}: {value if isinstance(value, str) else f'{value:.2f} s'}")


if __name__ == "__main__":
    main()
