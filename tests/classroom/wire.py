"""A script that speaks Streamlit's own protocol to a real app server, as a guessing bot would: it opens the
join page on a websocket (``/_stcore/stream``), types a code and a nickname into the boxes the server drew
and presses Join, then reads the messages the page shows.  No browser, no JavaScript (so no cookies are
ever confirmed): the cheapest client an attacker can write.

(benchmarks/classroom.py has a fuller client for load tests; this one only joins.)
"""
from __future__ import annotations

import asyncio
import concurrent.futures

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect

__all__ = ["join_once", "guess"]


class _Tab:
    """One fresh browser session on the join page."""

    def __init__(self, base: str, query: str, headers: dict | None = None, local: str | None = None):
        self.url = base.replace("http://", "ws://") + "/_stcore/stream"
        self.query = query
        self.headers = headers or {}
        self.local = local
        self.page_hash = ""
        self.ids: dict[str, str] = {}  # widget label -> id
        self.alerts: list[str] = []
        self.done = asyncio.Event()

    async def __aenter__(self):
        extra = {"local_addr": (self.local, 0)} if self.local else {}
        self.ws = await connect(self.url, subprotocols=["streamlit"], max_size=None, open_timeout=120,
                                ping_interval=None, additional_headers=self.headers, **extra)
        self.reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc):
        self.reader.cancel()
        await self.ws.close()

    async def _read(self) -> None:
        async for data in self.ws:
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.page_hash = msg.new_session.page_script_hash or self.page_hash
            elif kind == "navigation":
                self.page_hash = msg.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = msg.page_info_changed.query_string
            elif kind == "script_finished" and msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                self.done.set()  # (a run handed over to the next one, e.g. app.py's first, is not the end)
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el = msg.delta.new_element
                which = el.WhichOneof("type")
                if which == "text_input":  # the first box of a label (the seat-code form repeats "Class code")
                    self.ids.setdefault(el.text_input.label, el.text_input.id)
                elif which == "button":
                    self.ids.setdefault(el.button.label, el.button.id)
                elif which == "alert":
                    self.alerts.append(el.alert.body)
                elif which == "exception":
                    self.alerts.append("EXCEPTION " + el.exception.message)

    async def run(self, values: dict[str, str] | None = None, press: str | None = None) -> None:
        back = BackMsg()
        cs = back.rerun_script
        cs.query_string = self.query
        cs.page_script_hash = self.page_hash
        cs.page_name = "" if self.page_hash else "join"
        for label, text in (values or {}).items():
            cs.widget_states.widgets.append(WidgetState(id=self.ids[label], string_value=text))
        if press:
            w = cs.widget_states.widgets.add()
            w.id = self.ids[press]
            w.trigger_value = True
        self.done.clear()
        self.alerts.clear()
        await self.ws.send(back.SerializeToString())
        await asyncio.wait_for(self.done.wait(), timeout=120)


async def join_once(base: str, code: str, nickname: str, headers: dict | None = None,
                    local: str | None = None) -> list[str]:
    """Open a fresh session on ``/join``, type ``code`` and ``nickname``, press Join: the alerts it shows.
    ``local``: the address the socket is bound to (Linux routes all of 127/8 to the loopback)."""
    async with _Tab(base, "", headers, local) as tab:
        await tab.run()
        typed = {"Class code": code, "Nickname": nickname}
        await tab.run(typed)  # as a browser does: the boxes send their text (on leaving them) before the click
        await tab.run(typed, press="Join")
        return list(tab.alerts)


def guess(base: str, codes: list[str], *, headers_of=None, local: str | None = None) -> list[list[str]]:
    """A guessing bot: each code from a fresh session, one after another; the alerts each got.
    ``headers_of(i)``: extra handshake headers for the i-th session (e.g. a forged ``X-Forwarded-For``);
    ``local``: the address its sockets are bound to."""

    async def main():
        return [await join_once(base, code, f"bot{i}", headers_of(i) if headers_of else None, local)
                for i, code in enumerate(codes)]

    # A thread of its own: the caller may be running an event loop (Playwright's sync API does).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()
