"""A browser tab at the protocol level: a websocket on ``/_stcore/stream`` that does what Streamlit's frontend
does — ``BackMsg.rerun_script`` with the page, the query string and the widget states (widget ids from the
elements the server sent), ``page_info_changed`` followed (the address bar), ``auto_rerun`` answered with the
fragment reruns a browser's timer sends, and whatever runs the server pushes by itself taken in.

Used by benchmarks/classroom.py (hundreds of them) and by tests of what a page sends when it comes back
(tests/classroom/test_reconnect.py).  (tests/classroom/wire.py is a smaller client that only joins.)
"""
from __future__ import annotations

import asyncio
from urllib.parse import urlencode

__all__ = ["Client"]


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
        self.values: dict = {}  # widget id -> WidgetState we set (sent on every rerun)
        self.metrics: dict[str, str] = {}
        self.metric_fragment: dict[str, str] = {}  # metric label -> the fragment drawing it ("" for none)
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
        self.received = 0  # messages from the server
        self.asked = 0  # reruns this client sent (its own and its timers')
        self.ends = 0  # runs ended (asked for or pushed by the server)
        #: With ``log_runs`` set: one (start, end, fragment ids drawn, deltas, how it finished) per run the server
        #: sent — start its ``new_session`` message, end its ``script_finished`` (benchmarks: how often and
        #: how long the teacher's parts are redrawn).
        self.log_runs = False
        self.runs: list[tuple[float, float, tuple[str, ...], int, int]] = []
        self._run_open: tuple[float, set, list] | None = None
        self.route = ""  # the route cookie nginx set (which app server took this tab), "" without nginx

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        extra = {"local_addr": (self.address, 0)} if self.address else {}
        self.ws = await connect(self.url, subprotocols=["streamlit"], max_size=None, open_timeout=120,
                                ping_interval=None, **extra)
        response = getattr(self.ws, "response", None)
        for name, value in (response.headers.raw_items() if response is not None else ()):
            if name.lower() == "set-cookie" and value.startswith("ndcglab_route="):
                self.route = value.split(";")[0].split("=", 1)[1]
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
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        async for data in self.ws:
            self.received += 1
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if self.log_runs:
                self._log_run(kind, msg)
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
                self.ends += 1
                # A full run ends with FINISHED_SUCCESSFULLY.  When a fragment rerun (a timer's or the
                # server's) was queued while it ran, the full run is reported as FINISHED_EARLY_FOR_RERUN
                # once it is done and the queued fragment run follows: its end then ends our wait too.
                status = msg.script_finished
                if status in (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR):
                    self.finished.set()
                elif status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    self.early = True
                elif status == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY and (
                        self.early or (self.waiting_fragment and self.fragment_drawn)):
                    self.finished.set()
            elif kind == "delta" and self.waiting_fragment and msg.delta.fragment_id == self.waiting_fragment:
                self.fragment_drawn = True
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el = msg.delta.new_element
                which = el.WhichOneof("type")
                if which == "text_input":
                    box = el.text_input
                    self.inputs[box.label] = box.id
                    self.fragment_of[box.label] = msg.delta.fragment_id
                    if box.set_value:  # the server set the box's value (as the frontend, keep it)
                        self.set_text(box.label, box.value if box.HasField("value") else "")
                elif which == "button":
                    self.buttons[el.button.label] = el.button.id
                elif which == "metric":
                    self.metrics[el.metric.label] = el.metric.body
                    self.metric_fragment[el.metric.label] = msg.delta.fragment_id
                    if self.on_metric:
                        self.on_metric(el.metric.label, el.metric.body)
                elif which == "exception":
                    self.errors.append(el.exception.message[:200])
                elif which == "alert":
                    self.alerts.append(el.alert.body[:300])

    def _log_run(self, kind: str, msg) -> None:
        import time

        now = time.perf_counter()
        if kind == "new_session":  # the server sends it at the start of every run, a fragment's too
            self._run_open = (now, set(), [0])
        if self._run_open is None:
            return
        start, fragments, deltas = self._run_open
        if kind == "delta":
            deltas[0] += 1
            if msg.delta.fragment_id:
                fragments.add(msg.delta.fragment_id)
        elif kind == "script_finished":
            self.runs.append((start, now, tuple(sorted(fragments)), deltas[0], msg.script_finished))
            self._run_open = None

    async def _auto(self, fragment_id: str, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            await self.send(fragment_id=fragment_id, auto=True)

    async def send(self, *, trigger: str | None = None, fragment_id: str = "", auto: bool = False) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

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
        self.asked += 1
        await self.ws.send(back.SerializeToString())

    async def run(self, *, patience: float = 20, tries: int = 4, **kw) -> None:
        """A full rerun (or, with ``fragment_id``, the rerun of that fragment), waiting until the server says
        it finished; after ``patience`` seconds the message is sent again, as a user would press Enter
        again (a retried submit: the store must not count it twice).  Counted in :attr:`resends`."""
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
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        wid = self.inputs[label]
        self.values[wid] = WidgetState(id=wid, string_value=text)
