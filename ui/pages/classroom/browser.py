"""Who is at the other end, and what their browser keeps: the classroom's client identity and cookies.

* :func:`client` — the :class:`classroom.throttle.Client` the per-client limits count: Streamlit's session
  id (one browser tab's connection) and the network address: the connection's own, unless it comes from a
  proxy ``NDCG_LAB_TRUSTED_PROXIES`` names (e.g. ``127.0.0.1`` for nginx on the same machine); then
  ``X-Forwarded-For`` is walked from the right through the trusted hops
  (:func:`classroom.throttle.client_address`).  A misconfigured value is refused
  (:func:`proxy_problem` says why, the teacher's page shows it) and the connection's own address is used.
* :func:`remember` — keep a token in a cookie of the app's origin (teacher: ``ndcglab_t_<CODE>``, student:
  ``ndcglab_s_<CODE>``), through :mod:`ui.components.cookies`; returns True once the browser holds it.
* :func:`remembered` — the token this browser session has, or its cookie holds, for a class.

* :func:`fragment_key` — the teacher's private key from the address's fragment (``#key=...``), which no
  request line or ``Referer`` carries; :func:`refused` — the browser does not keep cookies.

Cookies are read with ``st.context.cookies`` (sent with the page's connection, so they reach whichever
app server the proxy picks) and are the reason a secret can leave the address bar: the private teacher
link opens the dashboard once (the browser then holds a token of its own and the link is retired), a
student's ``me`` link works until the cookie does.
"""
from __future__ import annotations

import logging
import os
import uuid
from functools import lru_cache

import streamlit as st

from classroom.throttle import TRUSTED_PROXIES_VAR, Client, client_address, trusted_proxies
from ui.components import cookies

__all__ = ["TRUSTED_PROXIES_VAR", "client", "address", "proxy_problem", "cookie_name", "remember", "remembered",
           "refused", "fragment_key", "hold", "in_cookie", "forget"]

_AUTH = "class_browser_tokens"  # session state: cookie name -> token known to this browser session
_log = logging.getLogger(__name__)


@lru_cache(maxsize=8)
def _proxies(raw: str) -> tuple[tuple, str | None]:
    """The trusted networks for one value of the variable, and the problem with it (logged once)."""
    try:
        return trusted_proxies(raw), None
    except ValueError as exc:
        _log.error("%s; using each connection's own address", exc)
        return (), str(exc)


def proxy_problem() -> str | None:
    """Why ``NDCG_LAB_TRUSTED_PROXIES`` is refused (None when it is fine or unset)."""
    return _proxies(os.environ.get(TRUSTED_PROXIES_VAR, "").strip())[1]


def address() -> str | None:
    """The client's network address (None outside a browser connection, e.g. AppTest)."""
    try:
        headers = st.context.headers
        ip = st.context.ip_address
    except Exception:  # noqa: BLE001 - no browser connection
        return None
    if not ip and not (headers and len(headers)):
        return None
    networks = _proxies(os.environ.get(TRUSTED_PROXIES_VAR, "").strip())[0]
    return client_address(ip or None, headers.get_all("X-Forwarded-For") if networks else (), networks)


def session_id() -> str:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else "no-session"


def client() -> Client | None:
    """This browser session and address, as the store's per-client limits count them; None without a
    browser connection (AppTest runs every visitor under one session id: the limits are tested on the store)."""
    try:
        connected = bool(st.context.headers)
    except Exception:  # noqa: BLE001 - no browser connection
        connected = False
    return Client(session_id(), address()) if connected else None


def cookie_name(role: str, code: str) -> str:
    """``ndcglab_t_ABC234`` (teacher) or ``ndcglab_s_ABC234`` (student)."""
    return f"ndcglab_{role}_{code}"


def hold(role: str, code: str, token: str) -> None:
    """Keep ``token`` for this browser session (a callback's way; :func:`remember` then asks for the cookie)."""
    st.session_state.setdefault(_AUTH, {})[cookie_name(role, code)] = token


def in_cookie(role: str, code: str, token: str) -> bool:
    """Whether this browser's cookie (sent with the page's connection) already holds ``token``."""
    try:
        return st.context.cookies.get(cookie_name(role, code)) == token
    except Exception:  # noqa: BLE001 - no browser connection
        return False


def remembered(role: str, code: str) -> str | None:
    """The token for ``code`` this session holds, else the one in this browser's cookie."""
    name = cookie_name(role, code)
    token = st.session_state.get(_AUTH, {}).get(name)
    if token:
        return token
    try:
        value = st.context.cookies.get(name)
    except Exception:  # noqa: BLE001 - no browser connection
        value = None
    return value if isinstance(value, str) and cookies.SAFE.fullmatch(value) else None


def remember(role: str, code: str, token: str, *, max_age: float, clear_fragment: bool = False) -> bool:
    """Hold ``token`` for this session and ask the browser to keep it; True once it confirmed.

    Call on every run while the secret is still in the address bar: the component must be drawn until it
    answers (a rerun of its own).  ``clear_fragment``: the browser then also takes a ``#key=`` fragment out of
    the address bar (the private teacher link)."""
    name = cookie_name(role, code)
    st.session_state.setdefault(_AUTH, {})[name] = token
    confirmed = st.session_state.setdefault("class_cookie_confirmed", set())
    if (name, token) in confirmed:
        return True
    nonce = _nonce(name, token)
    key = f"class_cookie_{name}"
    if cookies.stored(st.session_state.get(key), nonce):
        confirmed.add((name, token))
        return True
    cookies.write(key=key, set_=[(name, token, int(max_age))], nonce=nonce, clear_fragment=clear_fragment)
    return False


def _nonce(name: str, token: str) -> str:
    nonces = st.session_state.setdefault("class_cookie_nonces", {})
    return nonces.setdefault((name, token), uuid.uuid4().hex)


def refused(role: str, code: str, token: str) -> bool:
    """Whether this browser answered that it does not keep the cookie :func:`remember` asked for."""
    name = cookie_name(role, code)
    return cookies.refused(st.session_state.get(f"class_cookie_{name}"), _nonce(name, token))


def fragment_key(code: str) -> str | None:
    """The teacher's key in the address's fragment (``/class?code=...#key=...``), as the browser read it:
    ``""`` when there is none, None until the browser has answered (the component is drawn until then)."""
    found = st.session_state.setdefault("class_fragment_found", {})
    if code in found:
        return found[code]
    nonce = st.session_state.setdefault("class_fragment_nonce", uuid.uuid4().hex)
    key = cookies.fragment(st.session_state.get(f"class_fragment_{code}"), nonce)
    if key is None:
        cookies.write(key=f"class_fragment_{code}", nonce=nonce, read_fragment=True)
        return None
    found[code] = key
    return key


def forget(role: str, code: str) -> None:
    """Drop the token for ``code`` from this session and the browser."""
    name = cookie_name(role, code)
    st.session_state.setdefault(_AUTH, {}).pop(name, None)
    cookies.write(key=f"class_cookie_clear_{name}", clear=[name])
