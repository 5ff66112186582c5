"""Per-client limits kept in the database, so every app server behind a proxy enforces the same ones.

A client is a browser session (Streamlit's session id) and a network address (:class:`Client`); each is
stored only as a salted SHA-256 (:func:`client_hash`).  Two kinds of limit, each a row of
``class_throttle`` keyed by action, kind and hash, read and written inside the caller's write transaction
(PostgreSQL: the row is locked; SQLite: ``BEGIN IMMEDIATE`` serialises writers):

* :func:`take` — a rate: at most ``limit`` per ``window`` seconds (a fixed window from the first use);
* :func:`check_blocked` / :func:`failed` — guesses: ``free`` failed guesses, then every further failure
  blocks the client for a delay that doubles (``base``, ``2·base``, ... up to ``cap`` seconds).  The count
  starts again only after ``window`` seconds without a failure and without a block running, so a steady
  guesser stays at ``cap``.

>>> from classroom import db
>>> engine = db.engine_for("sqlite://")
>>> with db.write(engine) as conn:
...     [take(conn, "demo:a:x", limit=2, window=60, now=0.0) for _ in range(3)]
[None, None, 60.0]
>>> with db.write(engine) as conn:  # five free failures, then 2 s, 4 s, ...
...     waits = [failed(conn, "g:a:x", free=5, base=2, cap=3600, window=3600, now=float(i)) for i in range(8)]
...     waits, check_blocked(conn, "g:a:x", now=7.5)
([0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 4.0, 8.0], 7.5)
"""
from __future__ import annotations

import hashlib
import ipaddress
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .models import throttle

__all__ = ["Client", "client_hash", "take", "check_blocked", "failed", "purge", "TRUSTED_PROXIES_VAR",
           "trusted_proxies", "client_address"]

#: Salt of the stored client hashes (set ``NDCG_LAB_CLIENT_SALT`` to the same value on every app server
#: to keep hashes comparable across restarts; without it addresses are hashed with a fixed salt).
_SALT = os.environ.get("NDCG_LAB_CLIENT_SALT", "ndcg-lab-classroom")


def client_hash(kind: str, value: str) -> str:
    """A salted SHA-256 of a client's session id or address (what is stored instead of the value)."""
    return hashlib.sha256(f"{_SALT}\0{kind}\0{value}".encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Client:
    """Who sends a request: ``session`` (the browser session's id) and ``address`` (None when unknown)."""

    session: str
    address: str | None = None

    @property
    def session_hash(self) -> str:
        return client_hash("session", self.session)

    @property
    def address_hash(self) -> str | None:
        return None if not self.address else client_hash("address", self.address)

    def keys(self, action: str) -> list[str]:
        """The throttle rows this client uses for ``action``: its session's and its address's."""
        keys = [f"{action}:s:{self.session_hash}"]
        if self.address_hash:
            keys.append(f"{action}:a:{self.address_hash}")
        return keys


def _row(conn: Connection, key: str, now: float):
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    conn.execute(insert(throttle).values(key=key, count=0, window_start=now, fails=0, last_fail=0.0,
                                         blocked_until=0.0, updated_at=now).on_conflict_do_nothing())
    return conn.execute(select(throttle).where(throttle.c.key == key).with_for_update()).one()


def take(conn: Connection, key: str, *, limit: int, window: float, now: float) -> float | None:
    """Count one use of ``key``; None if allowed, else the seconds until the window ends (nothing counted)."""
    row = _row(conn, key, now)
    count, start = row.count, row.window_start
    if now - start >= window or now < start:
        count, start = 0, now
    if count >= limit:
        return start + window - now
    conn.execute(update(throttle).where(throttle.c.key == key).values(count=count + 1, window_start=start,
                                                                     updated_at=now))
    return None


def check_blocked(conn: Connection, key: str, *, now: float) -> float:
    """Seconds ``key`` must still wait before its next guess (0: it may guess now)."""
    row = conn.execute(select(throttle.c.blocked_until).where(throttle.c.key == key)).first()
    return max(0.0, row.blocked_until - now) if row is not None else 0.0


def failed(conn: Connection, key: str, *, free: int, base: float, cap: float, window: float, now: float) -> float:
    """Record a failed guess; return the delay it earns (0 while within ``free``)."""
    row = _row(conn, key, now)
    # The count starts again only after ``window`` seconds with neither a failure nor a block running.
    fails = 0 if now - max(row.last_fail, row.blocked_until) > window else row.fails
    fails += 1
    delay = 0.0 if fails <= free else float(min(cap, base * 2 ** min(fails - free - 1, 40)))
    conn.execute(update(throttle).where(throttle.c.key == key).values(
        fails=fails, last_fail=now, blocked_until=max(row.blocked_until, now + delay), updated_at=now))
    return delay


def purge(conn: Connection, *, before: float) -> int:
    """Delete rows not used since ``before``; return how many."""
    return conn.execute(delete(throttle).where(throttle.c.updated_at < before)).rowcount


# ------------------------------------------------------------------------------------------ proxies
#: The environment variable naming the reverse proxies whose ``X-Forwarded-For`` the app believes.
TRUSTED_PROXIES_VAR = "NDCG_LAB_TRUSTED_PROXIES"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
_LOOPBACK = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))


def trusted_proxies(raw: str | None) -> tuple[Network, ...]:
    """The proxies named by ``NDCG_LAB_TRUSTED_PROXIES``: addresses or networks, comma-separated.

    Parameters
    ----------
    raw : str or None
        The variable's value, e.g. ``"127.0.0.1"``, ``"10.0.0.0/8, ::1"``, ``"2001:db8::/32"``; empty or
        None: no proxy is trusted (``X-Forwarded-For`` is ignored).

    Returns
    -------
    tuple of ipaddress networks

    Raises
    ------
    ValueError
        Naming the variable and the bad entry.  A bare count such as ``1`` (what earlier versions took:
        "the number of proxies in front") is refused: a count says nothing about *who* may write the header,
        so a client reaching an app port directly could forge a new address with every request.

    Examples
    --------
    nginx on the same machine, and a load balancer's private network:

    >>> [str(n) for n in trusted_proxies("127.0.0.1, ::1, 10.0.0.0/8")]
    ['127.0.0.1/32', '::1/128', '10.0.0.0/8']
    >>> trusted_proxies("")
    ()
    >>> trusted_proxies("1")
    Traceback (most recent call last):
    ValueError: NDCG_LAB_TRUSTED_PROXIES lists the proxies' addresses (e.g. 127.0.0.1 or 10.0.0.0/8), got the \
count '1': a count would trust X-Forwarded-For from any client that reaches the app directly
    """
    networks = []
    for entry in (e.strip() for e in str(raw or "").split(",")):
        if not entry:
            continue
        if entry.isdigit():
            raise ValueError(f"{TRUSTED_PROXIES_VAR} lists the proxies' addresses (e.g. 127.0.0.1 or 10.0.0.0/8), "
                             f"got the count {entry[:20]!r}: a count would trust X-Forwarded-For from any client "
                             "that reaches the app directly")
        try:
            networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
        except ValueError:
            raise ValueError(f"{TRUSTED_PROXIES_VAR} lists addresses or networks such as 127.0.0.1, ::1 or "
                             f"10.0.0.0/8, comma-separated; got {entry[:60]!r}") from None
    return tuple(networks)


def _ip(text: str):
    """An address from a header entry (``1.2.3.4``, ``[::1]``, ``1.2.3.4:5678``, ``[::1]:80``), else None."""
    text = text.strip()
    candidates = [text, text.strip("[]")]
    if text.startswith("[") and "]:" in text:
        candidates.append(text[1:text.index("]:")])
    if text.count(":") == 1:
        candidates.append(text.split(":")[0])
    for candidate in candidates:
        try:
            ip = ipaddress.ip_address(candidate)
        except ValueError:
            continue
        return ip.ipv4_mapped or ip if ip.version == 6 else ip
    return None


def _trusted(ip, networks: Sequence[Network]) -> bool:
    return any(ip.version == n.version and ip in n for n in networks)


def client_address(peer: str | None, forwarded: Iterable[str], networks: Sequence[Network]) -> str | None:
    """The client's address: the connection's peer, unless the peer is a trusted proxy; then the chain of
    ``X-Forwarded-For`` is walked from the right (each proxy appends the address it received the request
    from) through trusted hops, and the first address not trusted is the client.

    Parameters
    ----------
    peer : str or None
        The connection's own address; ``None`` is a loopback connection (Streamlit reports it so).
    forwarded : iterable of str
        The ``X-Forwarded-For`` header values, in order.
    networks : sequence of networks
        :func:`trusted_proxies`.

    Returns
    -------
    str or None
        The address (IPv4-mapped IPv6 as IPv4), ``"localhost"`` for an untrusted loopback peer.

    Examples
    --------
    nginx on this machine (trusted) forwards a client; whatever the client wrote itself stays on the left:

    >>> nets = trusted_proxies("127.0.0.1, 10.0.0.0/8")
    >>> client_address(None, ["6.6.6.6, 198.51.100.4"], nets)
    '198.51.100.4'

    A client that reaches the app directly cannot choose its address with the header:

    >>> client_address("203.0.113.9", ["6.6.6.6"], nets)
    '203.0.113.9'

    Through two trusted hops (a load balancer in 10/8, then nginx):

    >>> client_address("127.0.0.1", ["6.6.6.6, 198.51.100.4, 10.1.2.3"], nets)
    '198.51.100.4'
    """
    peer_ip = _ip(peer) if peer else None
    if peer is None:
        peer_trusted = any(_trusted(ip, networks) for ip in _LOOPBACK)
    else:
        peer_trusted = peer_ip is not None and _trusted(peer_ip, networks)
    if not peer_trusted:
        return (str(peer_ip) if peer_ip is not None else str(peer)[:64]) if peer is not None else "localhost"
    entries = [e.strip() for value in forwarded for e in str(value).split(",") if e.strip()]
    last = str(peer_ip) if peer_ip is not None else "localhost"
    for entry in reversed(entries[-32:]):
        ip = _ip(entry)
        if ip is None:  # not an address (e.g. "unknown"): the last hop that could be vouched for
            return last
        if not _trusted(ip, networks):
            return str(ip)
        last = str(ip)
    return last
