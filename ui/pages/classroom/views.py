"""Drawing the classroom: the teacher's setup and live dashboard (``/class``), the student's page (``/join``).

Everything stored or decided lives in :mod:`classroom` (no Streamlit there); this module draws it.
Answers are checked by :mod:`metrics.lessons.diagnose` through :class:`classroom.tasks.Task` and shown with
the Practice page's feedback (:mod:`ui.diagnosis`).  User text (nicknames, answers) reaches Markdown only
through :func:`ui.escape.markdown`; tables and charts show it as plain text; the CSV goes through
:func:`metrics.safe_csv.to_csv`.

Both pages redraw a part of themselves when their class changes: the teacher's counts, and the charts,
mistakes and grid, and the student's check for "solution revealed" / "next exercise" / "feedback changed"
(a full rerun only when something changed) are fragments that the server reruns when the process's change
check (:mod:`classroom.changes`: PostgreSQL ``NOTIFY``, SQLite ``data_version``) says their class changed
(:mod:`ui.pages.classroom.push`); the browsers ask by themselves only every :data:`ui.pages.classroom.push.SAFETY`
seconds (without pushes, every :data:`TEACHER_REFRESH` and :data:`STUDENT_REFRESH` seconds).  Everything
they read is in the database, so a page served by any app server shows the same class.

Secrets stay out of what servers see: the teacher's browser gets a token of its own at Start, and the
private teacher link carries its key in the fragment (``#key=``, never in a request line, a ``Referer`` or a
proxy's log), exchanged once for a token and then retired; a student's ``me`` link works until the
browser keeps its token.  Tokens are kept in cookies of this browser (:mod:`ui.pages.classroom.browser`); once the
browser confirms it holds one, the secret is taken out of the address; reloads and other servers read the
cookie.  A join from a browser or network held for wrong codes waits for the teacher (:func:`waiting_panel`,
:func:`waiting_panel_teacher`), right code or wrong: a held guesser learns nothing.
One verdict: every mark on both pages comes from :func:`classroom.tasks.verdict` (stored with the
answer for the dashboard, the spread chart, the first-try share and the CSV).
"""
from __future__ import annotations

import io
import os
import secrets
import time
import uuid
from functools import lru_cache, partial
from urllib.parse import urlencode

import pandas as pd
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from classroom import stats
from classroom.db import ENV_VAR, database_url
from classroom.nicknames import MAX_CODE_POINTS  # a nickname is whole (24 grapheme clusters): never cut again
from classroom.store import FEEDBACK, ClassroomError, Seat, Store, Teacher, normalise_code
from classroom.tasks import (
    EXAMPLE_KEYS,
    FIELDS,
    MARKS,
    Task,
    example_task,
    practice_task,
    ranking_task,
    verdict,
)
from metrics.lessons.diagnose import MISTAKES, STATES
from metrics.lessons.exercises import DIFFICULTIES, MAX_SEED
from metrics.safe_csv import to_csv
from ui import state as ui_state
from ui import widgets
from ui.charts.classroom import spread_chart
from ui.components import actions as page_actions
from ui.diagnosis import (
    kind_name,
    number,
    render_findings,
    render_solution,
    render_steps_table,
    variant_label,
    verdict_line,
)
from ui.escape import html as html_escape
from ui.escape import markdown, markdown_link
from ui.i18n import current_language, labelled, registry_text, t
from ui.pages import practice
from ui.pages.classroom import browser, push
from ui.reruns import fragment_rerun
from ui.shell import slow_down
from ui.tables import VERDICT_CELLS, name_column_px
from ui.tables import table as show_table
from ui.widgets import option_widget

TEACHER_PAGE, JOIN_PAGE = "class", "join"
#: Test-only: seconds every full run of the classroom pages sleeps (at most ``SLOW_CAP``) where a browser acts
#: while a run is still going on a busy server: the teacher's after the dashboard (its cookie component answers
#: before the run rewrites the address), the student's before the answer boxes (an answer typed as soon as a
#: reconnected page is live interrupts the new session's first run).  Read from the server's environment only.
SLOW_ENV = "NDCG_LAB_CLASS_SLOW"
SLOW_CAP = 5.0
#: Without server pushes (:func:`ui.pages.classroom.push.available` false: AppTest, another Streamlit version):
#: seconds between two refreshes of the teacher's live panel and of a student's check for changes, asked
#: by the browser.  With pushes the server reruns exactly the pages whose class changed, and the browsers
#: ask only every :data:`ui.pages.classroom.push.SAFETY` seconds.
TEACHER_REFRESH = 1.0
STUDENT_REFRESH = 3.0
#: The answer boxes' column at most this many pixels wide (the whole width on a phone, 564 px beside the open
#: sidebar at 1024 px): one box a line, in step order.
ANSWER_WIDTH = 600
#: Seconds between two pushed redraws of the teacher's live counts, and of the charts, mistakes and grid,
#: while answers pour in (one redraw shows every answer that came in meanwhile; the counts are what the
#: teacher watches, the charts cost more to draw).
COUNTS_GAP = 0.3
PANEL_GAP = 2.0
#: The live panel waits at least this many times its own last run between two pushed redraws: a big class
#: on a busy server draws its charts and grid less often rather than hold the counts back (a session runs
#: one part at a time; at 600 students a panel run took 2–5 s of wall time, a quarter of the answering
#: phase, and the teacher's count waited behind it).
PANEL_SHARE = 4.0
#: ... but never more than this many seconds: the charts stay at most this late.
PANEL_MAX_GAP = 10.0
SOURCES = ("practice", "example", "ranking")
BASES = {"2": 2.0, "e": 2.718281828459045, "10": 10.0}


# ------------------------------------------------------------------------------------------------ the store
@st.cache_resource(show_spinner=False)
def _store(url: str) -> Store:
    return Store(url)


@lru_cache(maxsize=8)
def _configured_url(environment: str) -> str:
    # Secrets are read once per process (and value of the environment variable): without a secrets file
    # every st.secrets access takes a lock, looks for the files again and raises, and a class polls often.
    configured = None
    try:
        configured = st.secrets.get(ENV_VAR)
    except Exception:  # noqa: BLE001 - no secrets file is the normal case
        configured = None
    return database_url(configured)


def store() -> Store:
    """The process's store for the configured database (Streamlit secrets, then the environment).

    A classroom setting the server was started with that is not a number (``NDCG_LAB_SEATS_PER_ADDRESS=abc``)
    is said on the page, naming the setting and its value, and the page stops there: no class runs on limits
    nobody chose."""
    try:
        return _store(_configured_url(os.environ.get(ENV_VAR, "")))
    except ValueError as exc:
        if not str(exc).startswith("NDCG_LAB_"):
            raise
        st.error(t("classroom.setting_problem", message=markdown(str(exc), 200)), icon=":material/settings:")
        st.stop()


def refusal(exc: ClassroomError) -> str:
    """A translated message for a refused request."""
    text = t(f"classroom.error.{exc.kind}", **{k: v for k, v in exc.params.items() if not isinstance(v, str)})
    if text == f"classroom.error.{exc.kind}":
        return t("classroom.error.other", message=markdown(str(exc), 200))
    if exc.kind == "unreadable":
        # The same words as Practice and Check for the same text (the parser's own kind, translated):
        # never the library's English with its internal field names.
        cause = exc.__cause__
        return widgets.error_text(cause) if isinstance(cause, ValueError) else text + " " + markdown(str(exc), 200)
    return text


def refusal_of(kind: str) -> str:
    """The message for a refusal kept as its kind only (a join the teacher could not let in)."""
    lim = store().limits
    return refusal(ClassroomError(kind, kind, limit=lim.seat_cap if kind == "address_full" else lim.max_students))


def slow_run() -> float:
    """Sleep :data:`SLOW_ENV` seconds (a slow server, for tests); return the seconds slept (0 when unset)."""
    return slow_down(SLOW_ENV, SLOW_CAP)


def database_down() -> None:
    st.error(t("classroom.db_down"), icon=":material/cloud_off:")


def setting_problems() -> None:
    """A refused server setting (``NDCG_LAB_TRUSTED_PROXIES``), shown to the teacher, who can tell whoever
    runs the app (the server's log says it too)."""
    problem = browser.proxy_problem()
    if problem:
        st.error(t("classroom.proxy_problem", message=markdown(problem, 400)), icon=":material/dns:")


# ------------------------------------------------------------------------------------------------ fields
def _steps(raw) -> list[str]:
    value = str(raw).strip()
    parts = [p.strip().lower() for p in value.split(",") if p.strip()]
    if not parts or len(value) > 80 or any(p not in FIELDS for p in parts):
        raise ui_state.BadValue(value, "choice", f"{value[:40]!r} is not a list of: {', '.join(FIELDS)}",
                         options=", ".join(FIELDS))
    return [f for f in FIELDS if f in parts]


def _optional_int(lo: int, hi: int):
    inner = ui_state.integer(lo, hi)

    def parse(raw):
        return None if not str(raw).strip() else inner(raw)

    return parse


def _blank_or(value) -> str:
    return "" if value is None else str(value)


TEACHER_FIELDS = (
    ui_state.Field("class_source", "source", default="practice", parse=ui_state.choice(SOURCES)),
    ui_state.Field("class_difficulty", "difficulty", default="easy", parse=ui_state.choice(tuple(DIFFICULTIES))),
    ui_state.Field(
        "class_seed", "seed", default=None, parse=_optional_int(0, MAX_SEED), text=_blank_or, label="classroom.seed"
    ),
    ui_state.Field("class_example", "example", default=EXAMPLE_KEYS[0], parse=ui_state.choice(EXAMPLE_KEYS)),
    ui_state.Field(
        "class_rels",
        "rels",
        default=(3.0, 2.0, 3.0, 0.0, 1.0, 2.0),
        parse=ui_state.grades(max_items=20),
        text=ui_state.list_encoder(", "),
        label="common.grades",
    ),
    ui_state.Field(
        "class_unretrieved",
        "unretrieved",
        default=(),
        parse=ui_state.grades(max_items=20, allow_empty=True),
        text=ui_state.list_encoder(", "),
        label="classroom.unretrieved",
    ),
    ui_state.Field("class_k", "k", default=None, parse=_optional_int(1, 20), text=_blank_or, label="common.k"),
    ui_state.Field("class_gain", "gain", default="linear", parse=ui_state.choice(("linear", "exponential"))),
    ui_state.Field("class_discount", "discount", default="standard", parse=ui_state.choice(("standard", "jarvelin"))),
    ui_state.Field("class_base", "base", default="2", parse=ui_state.choice(tuple(BASES))),
    ui_state.Field("class_idcg", "idcg", default="judged", parse=ui_state.choice(("judged", "list"))),
    ui_state.Field("class_steps", "steps", default=list(FIELDS), parse=_steps, encode=",".join),
    ui_state.Field("class_code", "code", default="", parse=ui_state.text(12), widget=False),
    ui_state.Field("class_key", "key", default="", parse=ui_state.text(200), widget=False),
)

JOIN_FIELDS = (
    ui_state.Field("join_code", "code", default="", parse=ui_state.text(40), text=str, label="classroom.code"),
    ui_state.Field("join_me", "me", default="", parse=ui_state.text(200), widget=False),
    # The exercise the answer boxes show (set by the page): a page that comes back from another server
    # sends its boxes' values with it, and they count only for this exercise (see answer_panel).
    ui_state.Field("join_round", "round", default=None, parse=_optional_int(1, 10_000), text=_blank_or, widget=False),
)


def teacher_state() -> ui_state.PageState:
    # Runs after the first (Start, the cookie component answering, the live panel's st.rerun) carry the address
    # the browser had when it sent them; PageState does not read them as a new link (see its Notes).
    page = ui_state.PageState(TEACHER_PAGE, TEACHER_FIELDS)
    # A playground link (rels=...) without source= starts from that ranking.
    if page.opened_link and "rels" in st.query_params and "source" not in st.query_params:
        page.set("class_source", "ranking")
    return page


def join_state() -> ui_state.PageState:
    return ui_state.PageState(JOIN_PAGE, JOIN_FIELDS)


# ------------------------------------------------------------------------------------------------ links
def base_url() -> str:
    """The app's address as the visitor reached it (scheme, host and any path prefix), no trailing slash."""
    return widgets.base_url(TEACHER_PAGE, JOIN_PAGE)


def join_url(code: str) -> str:
    return f"{base_url()}/{JOIN_PAGE}?{urlencode({'code': code})}"


def teacher_url(code: str, key: str) -> str:
    """The private teacher link: the key in the fragment, which browsers never send to a server (no request
    line, no ``Referer``, no proxy log holds it); the page's script reads it (:func:`teacher_from_page`)."""
    return f"{base_url()}/{TEACHER_PAGE}?{urlencode({'code': code})}#key={key}"


@lru_cache(maxsize=64)
def qr_png(text: str) -> bytes:
    """A QR code of ``text`` as PNG bytes (segno: pure Python, drawn here, nothing fetched)."""
    import segno

    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="png", scale=8, border=2)
    return buf.getvalue()


# ------------------------------------------------------------------------------------------------ exercise
def exercise_panel(task: Task, *, key: str) -> None:
    """The exercise as the Practice page shows it (one panel for both: :func:`ui.pages.practice.exercise_panel`)."""
    practice.exercise_panel(task.exercise(), key=key)


def solution_panel(task: Task, *, key: str) -> None:
    """The worked solution (the Practice page's "show the full solution")."""
    render_solution(task.exercise(), key=key)


def origin_text(task: Task) -> str:
    if task.origin == "practice":
        level, seed = task.ref.split(":")
        return t("classroom.origin.practice", seed=seed, level=registry_text("difficulty", DIFFICULTIES[level], "name"))
    if task.origin == "example":
        return t("classroom.origin.example", example=t(f"classroom.example.{task.ref.replace('-', '_')}"))
    return t("classroom.origin.ranking")


# ------------------------------------------------------------------------------------------------ teacher
def source_form(page: ui_state.PageState, *, prefix: str) -> Task | None:
    """The choice of an exercise (practice seed, worked example or ranking); the task, or None on bad input."""
    sources = {s: t(f"classroom.source.{s}") for s in SOURCES}
    source = option_widget(st.radio, t("classroom.source_label"), list(sources), key="class_source",
                           format_func=sources.get, horizontal=True)
    try:
        if source == "practice":
            c1, c2 = st.columns(2)
            levels = {k: registry_text("difficulty", DIFFICULTIES[k], "name") for k in DIFFICULTIES}
            level = option_widget(c1.selectbox, t("practice.difficulty"), list(levels), key="class_difficulty",
                                  format_func=levels.get)
            c2.text_input(t("classroom.seed"), key="class_seed", help=t("classroom.seed_help"))
            seed = page.typed("class_seed")
            return practice_task(secrets.randbelow(MAX_SEED + 1) if seed is None else seed, level)
        if source == "example":
            names = {k: t(f"classroom.example.{k.replace('-', '_')}") for k in EXAMPLE_KEYS}
            key = option_widget(st.selectbox, t("classroom.example_label"), list(names), key="class_example",
                                format_func=names.get)
            return example_task(key)
        c1, c2, c3 = st.columns([3, 2, 1])
        c1.text_input(t("common.grades"), key="class_rels", help=t("common.grades_help"))
        rels = page.typed("class_rels")
        c2.text_input(t("classroom.unretrieved"), key="class_unretrieved", help=t("classroom.unretrieved_help"))
        unretrieved = page.typed("class_unretrieved")
        c3.text_input(t("common.k"), key="class_k", help=t("classroom.k_help"))
        k = page.typed("class_k")
        # Two selects a row, each as wide as its longest option needs (a select cannot wrap: four in a row
        # beside the sidebar at 1024 px showed "Standard disc", "all judged iter"); a phone stacks them.
        c4, c5 = st.columns([2, 3])
        gains = {g: variant_label("gain", g) for g in ("linear", "exponential")}
        gain = option_widget(c4.selectbox, t("common.gain"), list(gains), key="class_gain", format_func=gains.get)
        discounts = {d: variant_label("discount", d) for d in ("standard", "jarvelin")}
        discount = option_widget(c5.selectbox, t("common.discount"), list(discounts), key="class_discount",
                                 format_func=discounts.get)
        c6, c7 = st.columns([1, 3])
        base = c6.selectbox(t("common.log_base"), list(BASES), key="class_base")
        idcgs = {s: t(f"diagnose.source.{s}") for s in ("judged", "list")}
        idcg = option_widget(c7.selectbox, t("classroom.idcg"), list(idcgs), key="class_idcg", format_func=idcgs.get)
        return ranking_task(rels, unretrieved=unretrieved, k=k, gain=gain, discount=discount,
                            log_base=BASES[base], idcg=idcg)
    except ValueError as exc:
        st.error(t("classroom.bad_exercise", message=markdown(str(exc), 200)))
        return None


def steps_select() -> list[str]:
    names = {f: t(f"check.{f}") for f in FIELDS}
    return option_widget(st.multiselect, t("classroom.steps"), list(names), key="class_steps", format_func=names.get,
                         help=t("classroom.steps_help"))


def feedback_select(*, key: str, value: str = "concept", on_change=None, args=()) -> str:
    """The teacher's choice of what students see before the reveal."""
    names = {m: t(f"classroom.feedback.{m}") for m in FEEDBACK}
    return option_widget(st.radio, t("classroom.feedback_label"), list(names), index=list(names).index(value),
                         key=key, format_func=names.get, help=t("classroom.feedback_help"), on_change=on_change,
                         args=args)


def _start(page: ui_state.PageState, task: Task, fields: list[str]) -> None:
    try:
        info, token = store().create(task, fields=fields, feedback=st.session_state.get("class_feedback", "concept"),
                                     client=browser.client())
    except ClassroomError as exc:
        st.session_state["class_problem"] = refusal(exc)
        return
    except SQLAlchemyError:
        st.session_state["class_problem"] = t("classroom.db_down")
        return
    # This browser takes a token of its own at once; the key create() returned is never shown: the private
    # link is made on request (private_link), and retired once used.
    teacher = store().teacher(info.code, token)
    browser.hold("t", info.code, teacher.issue_token())
    store().use_link(info.code, token)
    page.set("class_code", info.code)
    st.session_state["class_to_top"] = uuid.uuid4().hex  # the dashboard opens at its top (the join code)


def setup(page: ui_state.PageState) -> None:
    """The form that starts a session (the button's callback stores it; the page then shows the dashboard)."""
    st.caption(t("classroom.teacher_intro"))
    task = source_form(page, prefix="setup")
    fields = steps_select()
    feedback_select(key="class_feedback", value="concept")
    if task is not None:
        with st.expander(t("classroom.preview"), expanded=False):
            exercise_panel(task, key="class_preview")
    st.button(t("classroom.start"), key="class_start", type="primary", icon=":material/play_arrow:",
              disabled=task is None or not fields, on_click=_start, args=(page, task, fields))
    problem = st.session_state.pop("class_problem", None)
    if problem:
        st.error(problem)


def next_task(task: Task) -> Task:
    """The exercise "next" starts: another seed at the same level, the next worked example, or (after a
    ranking) a medium practice exercise."""
    if task.origin == "practice":
        level = task.ref.split(":")[0]
        return practice_task(secrets.randbelow(MAX_SEED + 1), level)
    if task.origin == "example":
        i = EXAMPLE_KEYS.index(task.ref) if task.ref in EXAMPLE_KEYS else -1
        return example_task(EXAMPLE_KEYS[(i + 1) % len(EXAMPLE_KEYS)])
    return practice_task(secrets.randbelow(MAX_SEED + 1), "medium")


def _cookie_age(teacher_or_seat) -> float:
    """A browser keeps a class's token until the class is deleted (code expiry + retention)."""
    info = teacher_or_seat.info
    return max(60.0, info.expires_at + store().limits.retention - time.time())


#: :func:`teacher_from_page`'s answer while the browser has not yet said whether the address holds a key.
OPENING = "opening"


def teacher_from_page(page: ui_state.PageState):
    """The teacher's handle and this browser's token, :data:`OPENING`, or None (the setup is drawn).

    This session's token or this browser's cookie opens the dashboard; else the private link's key — from
    the address's fragment (``#key=...``, read in the browser: it never reaches a server, a proxy's log or
    a ``Referer``) or, from an older link, the query — which this browser exchanges for a token of its own.
    The key is retired as soon as it is exchanged (the link opens the dashboard once, in one browser) and
    leaves the address bar when the browser confirms its cookie; a browser that refuses the cookie is
    warned: this tab keeps the dashboard until it is closed or reloaded (the used key opens nothing).
    """
    code, query_key = normalise_code(page.value("class_code")), page.value("class_key")
    # The cookie components' place, there on every run: the dashboard below does not move when they go.
    slot = st.container()
    if not code and not query_key:
        return None
    token = browser.remembered("t", code) if code else None
    teacher = store().teacher(code, token) if token else None
    with slot:
        key = query_key or (browser.fragment_key(code) if code else "")
    if teacher is None:
        if key is None:
            return OPENING
        if not key:
            st.warning(t("classroom.not_this_browser", code=code), icon=":material/lock:")
            page.set("class_code", "")
            return None
        teacher = store().teacher(code, key)
        if teacher is None:
            st.error(t("classroom.bad_teacher_link"), icon=":material/lock:")
            page.set("class_code", "")
            page.set("class_key", "")
            return None
        token = _exchanged(teacher, key)
        # Used once, whatever the browser does with its cookie (red team F12: a browser refusing cookies kept
        # the link working, and a second browser opened the dashboard with it): retired the moment this
        # browser holds a token of its own; this session keeps the dashboard with that token.
        store().use_link(code, key)
    key = key or ""
    if not key and browser.in_cookie("t", code, token):
        return teacher, token
    with slot:
        kept = browser.remember("t", teacher.info.code, token, max_age=_cookie_age(teacher), clear_fragment=bool(key))
    if kept:
        if key:
            store().use_link(code, key)  # used once: the link opens no other browser
            page.set("class_key", "")  # an older link's key leaves the address bar too
    elif browser.refused("t", teacher.info.code, token):
        st.warning(t("classroom.cookie_refused"), icon=":material/cookie_off:")
    return teacher, token


def _exchanged(teacher: Teacher, key: str) -> str:
    """The token this browser session takes for the link ``key`` (one per session: reruns reuse it)."""
    held = st.session_state.setdefault("class_exchanged", {})
    token = held.get((teacher.info.code, key))
    if token is None or store().teacher(teacher.info.code, token) is None:
        token = held[(teacher.info.code, key)] = teacher.issue_token()
    return token


def opening() -> None:
    """What the page shows while the browser reads the address's fragment (a moment)."""
    st.caption(t("classroom.opening"))


def dashboard(page: ui_state.PageState, teacher: Teacher, token: str) -> None:
    """The teacher's dashboard.  On the first screen (1024×768 with the sidebar open, and on a phone): how
    to join, reveal and next, and the live counts; then the per-step charts, mistakes and class grid, the
    exercise, and the settings.  Until a student is in, the join code and QR code are large."""
    info = teacher.refresh()
    current = teacher.round()
    expired = info.expired(time.time())
    state = teacher.store.changes.state(info.id)
    joined = bool(state is not None and state.seated)
    join_head(info, expired, compact=joined)
    controls(teacher, current, expired)
    problem = st.session_state.pop("class_problem", None)
    if problem:
        st.error(problem)
    live_counts(teacher, token, current.number, info.show_names, joined)
    if current.revealed:
        with st.expander(t("classroom.solution"), expanded=True, icon=":material/check_circle:"):
            solution_panel(current.task, key="class_sol")  # one key for every exercise (see answer_panel)
    live_panel(teacher, token, current.number, info.show_names, joined)
    results_download(info.code, token)
    st.subheader(t("classroom.round", number=current.number, origin=origin_text(current.task)))
    exercise_panel(current.task, key="class_ex")
    settings(page, teacher, current, expired)
    private_link(teacher, token)
    top = st.session_state.pop("class_to_top", None)
    if top:  # just started: drawn last, in this run only
        page_actions.to_top(key="class_top", nonce=top)
    slow_run()


def join_head(info, expired: bool, *, compact: bool) -> None:
    """How to join: the link, the code, the QR code (large until the first student is in, then smaller, so
    that reveal, next and the counts fit on the first screen), how long the code works."""
    url = join_url(info.code)
    with st.container(key="class_head"):
        head, qr = st.columns([4, 1] if compact else [3, 1], vertical_alignment="center")
        with head:
            st.markdown(t("classroom.join_at", url=markdown_link(url)))  # a link: copied, it works
            size, spacing = ("2.5rem", ".2em") if compact else ("4rem", ".3em")
            st.markdown(f"<p class='class-code' style='font-size:{size};font-weight:700;letter-spacing:{spacing};"
                        f"margin:0;line-height:1.2'>{html_escape(info.code)}</p>",
                        unsafe_allow_html=True)  # CODE_ALPHABET only; escaped all the same
            if expired:
                st.warning(t("classroom.expired_teacher"), icon=":material/timer_off:")
            else:
                st.caption(t("classroom.expires", minutes=max(0, int((info.expires_at - time.time()) // 60))))
        with qr:
            st.image(qr_png(url), caption=t("classroom.qr_caption"), alt=t("classroom.qr_alt", url=url),
                     width=112 if compact else "stretch")


def private_link(teacher: Teacher, token: str) -> None:
    """The private teacher link, made on request (the dashboard is projected): each showing makes a new one
    and retires the one before; it opens the dashboard once, in one browser.  "Sign out other browsers"
    revokes every other browser's token and the link."""
    code = teacher.info.code
    shown = st.session_state.get("class_link")
    if not shown or shown[0] != code:
        c1, c2 = st.columns(2)
        c1.button(t("classroom.show_private_link"), key="class_show_link_button", icon=":material/key:",
                  help=t("classroom.private_link_help"), on_click=_link_action, args=(teacher, token, "show"))
        c2.button(t("classroom.sign_out_others"), key="class_sign_out_button", icon=":material/logout:",
                  help=t("classroom.sign_out_others_help"), on_click=_link_action, args=(teacher, token, "sign_out"))
    else:
        with st.container(border=True):
            st.markdown(f"**{t('classroom.private_link')}**")
            st.caption(t("classroom.private_link_help"))
            st.code(teacher_url(code, shown[1]), language=None, wrap_lines=True)
            c1, c2 = st.columns(2)
            c1.button(t("classroom.hide_private_link"), key="class_hide_link_button", icon=":material/visibility_off:",
                      on_click=_link_action, args=(teacher, token, "hide"))
            c2.button(t("classroom.revoke_link"), key="class_revoke_link_button", icon=":material/link_off:",
                      help=t("classroom.revoke_link_help"), on_click=_link_action, args=(teacher, token, "revoke"))
    done = st.session_state.pop("class_link_done", None)
    if done:
        st.success(done)


def _link_action(teacher: Teacher, token: str, action: str) -> None:
    try:
        if action == "show":
            st.session_state["class_link"] = (teacher.info.code, teacher.new_link())
        elif action == "revoke":
            teacher.new_link()  # made and dropped: the link shown stops working
            st.session_state["class_link"] = None
            st.session_state["class_link_done"] = t("classroom.link_revoked")
        elif action == "sign_out":
            n = teacher.sign_out_others(token)
            st.session_state["class_link"] = None
            st.session_state["class_link_done"] = t("classroom.signed_out", n=n)
        else:
            st.session_state["class_link"] = None
    except SQLAlchemyError:
        st.session_state["class_problem"] = t("classroom.db_down")


def _db_key(name: str, value) -> str:
    """A widget key that carries the database's value: when the value changes (on any server), the widget
    is a new one drawn with it, so a browser never sends back a stale value as if the teacher changed it."""
    return f"{name}_{value if isinstance(value, str) else int(bool(value))}"


def controls(teacher: Teacher, current, expired: bool) -> None:
    """Reveal, next exercise (asks first) and names shown: one row under the join code."""
    info = teacher.info
    asking = st.session_state.get("class_confirm_next") == (info.code, current.number)
    with st.container(horizontal=True, vertical_alignment="center", key="class_controls"):
        # Callbacks run before the page is drawn again, so the page shows the new state at once.
        st.button(t("classroom.reveal"), key="class_reveal", icon=":material/visibility:",
                  disabled=current.revealed or expired, on_click=_act, args=(teacher, "reveal", None, None))
        st.button(t("classroom.next"), key="class_next", icon=":material/skip_next:", type="secondary",
                  disabled=expired or asking, on_click=st.session_state.__setitem__,
                  args=("class_confirm_next", (info.code, current.number)))
        names_key = _db_key("class_show_names", info.show_names)
        st.toggle(t("classroom.show_names"), value=info.show_names, key=names_key,
                  help=t("classroom.show_names_help"), on_change=_setting, args=(teacher, "show_names", names_key))
    if asking:
        with st.container(border=True):
            st.warning(t("classroom.confirm_next", number=current.number + 1), icon=":material/skip_next:")
            y, n = st.columns(2)
            y.button(t("classroom.confirm_next_yes", number=current.number + 1), key="class_next_yes",
                     type="primary", on_click=_act, args=(teacher, "next", next_task(current.task), current.number))
            n.button(t("classroom.cancel"), key="class_next_no", on_click=st.session_state.__setitem__,
                     args=("class_confirm_next", None))


def settings(page: ui_state.PageState, teacher: Teacher, current, expired: bool) -> None:
    """Joining open, the feedback before the reveal, and the next exercise of one's choice."""
    info = teacher.info
    s1, s2 = st.columns([1, 2], vertical_alignment="center")
    joining_key = _db_key("class_joining", info.joining_open)
    s1.toggle(t("classroom.joining_open"), value=info.joining_open, key=joining_key,
              help=t("classroom.joining_open_help"), on_change=_setting, args=(teacher, "joining", joining_key),
              disabled=expired)
    feedback_key = _db_key("class_feedback_live", info.feedback)
    with s2:
        feedback_select(key=feedback_key, value=info.feedback, on_change=_setting,
                        args=(teacher, "feedback", feedback_key))
    with st.expander(t("classroom.choose_next"), icon=":material/edit_note:"):
        chosen = source_form(page, prefix="next")
        st.button(t("classroom.start_chosen"), key="class_start_chosen", disabled=chosen is None or expired,
                  on_click=_act, args=(teacher, "next", chosen, current.number))


def _setting(teacher: Teacher, what: str, key: str) -> None:
    value = st.session_state.get(key)
    try:
        if what == "show_names":
            teacher.set_show_names(bool(value))
        elif what == "joining":
            teacher.set_joining(bool(value))
        else:
            teacher.set_feedback(value)
    except ClassroomError as exc:
        st.session_state["class_problem"] = refusal(exc)
    except SQLAlchemyError:
        st.session_state["class_problem"] = t("classroom.db_down")


def _act(teacher: Teacher, action: str, task: Task | None, seen_round: int | None) -> None:
    try:
        if action == "reveal":
            teacher.reveal()
        elif task is not None:
            st.session_state["class_confirm_next"] = None
            teacher.next_round(task, after=seen_round)
    except ClassroomError as exc:
        st.session_state["class_problem"] = refusal(exc)
    except SQLAlchemyError:
        st.session_state["class_problem"] = t("classroom.db_down")


@st.cache_resource(max_entries=64, show_spinner=False, ttl=3600)
def _panel(code: str, token: str, round_no: int, version: tuple, lang: str) -> dict | None:
    """Everything the live panel draws, computed once per change of ``version`` (a new student, a new
    answer, the reveal): the panel redraws every second, the class changes far less often."""
    teacher = store().teacher(code, token)
    if teacher is None:
        return None
    fields = teacher.info.fields
    roster = teacher.students()
    frame = teacher.answers(round_no)
    summary = stats.field_summary(frame, fields).set_index("field")
    spread = stats.spread(frame)
    names = {state: t(f"classroom.chart.{state}") for state in STATES}
    charts = {}
    for f in fields:
        rows = spread[spread["field"] == f]
        if not rows.empty:
            # validate=False: the chart's structure is fixed code (validated in tests/ui); its schema check
            # took a third of the panel's time, redone every second while answers come in.
            charts[f] = spread_chart(rows, students=t("classroom.chart.students"), names=names).to_dict(validate=False)
    return {"fields": fields, "roster": roster, "frame": frame, "summary": summary, "charts": charts,
            "mistakes": stats.mistakes(frame), "grid": stats.grid(frame, roster, fields)}


def results_download(code: str, token: str) -> None:
    """The results CSV, built when the button is pressed.  Outside the live panel's fragment on purpose: a
    file built on demand gets a new id each time its button is drawn, and the previous one is dropped at the
    end of that run — drawn in a part that the server redraws as answers arrive, a click just after a
    redraw asked for a file that no longer existed (an error in the server's log, no file).  Here it is drawn
    again only when the whole dashboard is (the teacher's own actions)."""
    st.download_button(t("classroom.download"), partial(_results_csv, code, token),
                       file_name=f"class-{code}.csv", mime="text/csv", key="class_csv", on_click="ignore",
                       icon=":material/download:")


def _results_csv(code: str, token: str) -> str:
    teacher = store().teacher(code, token)
    if teacher is None:
        return ""
    results = stats.results(teacher.answers())
    return to_csv(results if teacher.info.show_names else results.drop(columns=["nickname"]))


def _live_state(teacher: Teacher, round_no: int, names_shown: bool, joined: bool):
    """The class's state now (from the process's change check: no query while nothing changed); a full rerun
    when the page drawn no longer fits (another window or server moved on or changed a setting, the first
    student came in)."""
    state = teacher.store.changes.state(teacher.info.id)
    if state is None or (state.round_no, state.show_names, bool(state.seated)) != (round_no, names_shown, joined):
        st.rerun(scope="app")
    return state


def _follow(teacher: Teacher, state, round_no: int, role: str, gap: float) -> None:
    """Rerun this fragment when the class's answers, students, reveal, names or waiting joins change."""
    drawn = (state.activity, state.waiting)
    push.follow(teacher.store.changes, teacher.info.id, role,
                lambda now: now is None or now.round_no != round_no or (now.activity, now.waiting) != drawn,
                gap=gap)


def _live_counts(teacher: Teacher, token: str, round_no: int, names_shown: bool, joined: bool) -> None:
    """Joined, answered, answers and the exercise's number, in a row that wraps on a phone: straight from the
    class's state (nothing else read or computed: the counts are redrawn as answers pour in)."""
    try:
        state = _live_state(teacher, round_no, names_shown, joined)
    except SQLAlchemyError:
        database_down()
        return
    with st.container(horizontal=True, key="class_counts"):
        st.metric(t("classroom.joined"), len(state.seated), width=120)
        st.metric(t("classroom.answered"), state.answered, width=120)
        st.metric(t("classroom.answers"), state.answers, width=120)
        st.metric(t("classroom.round_metric"), round_no, width=120)
    _follow(teacher, state, round_no, "teacher_counts", COUNTS_GAP)


def _live_panel(teacher: Teacher, token: str, round_no: int, names_shown: bool, joined: bool) -> None:
    """Per-step spread and first-try share, named mistakes, the class grid, the roster (the CSV download is
    outside: :func:`results_download`)."""
    started = time.monotonic()
    try:
        state = _live_state(teacher, round_no, names_shown, joined)
        data = _panel(teacher.info.code, token, round_no, state.activity, current_language())
    except SQLAlchemyError:
        database_down()
        return
    _follow(teacher, state, round_no, "teacher_panel", panel_gap(st.session_state.get("class_panel_cost", 0.0)))
    if data is None:
        return
    try:
        _draw_panel(teacher, data, names_shown)
    finally:
        st.session_state["class_panel_cost"] = time.monotonic() - started


def panel_gap(cost: float) -> float:
    """Seconds between two pushed redraws of the live panel whose last run took ``cost`` seconds.

    >>> panel_gap(0.1), panel_gap(1.5), panel_gap(7.0)
    (2.0, 6.0, 10.0)
    """
    return min(PANEL_MAX_GAP, max(PANEL_GAP, PANEL_SHARE * cost))


def _draw_panel(teacher: Teacher, data: dict, names_shown: bool) -> None:
    fields, roster = data["fields"], data["roster"]
    summary = data["summary"]
    per_row = 1 if len(fields) == 1 else 2  # a chart needs half the width of a projector
    for start in range(0, len(fields), per_row):
        cols = st.columns(per_row)
        for col, f in zip(cols, fields[start:start + per_row]):
            with col:
                st.markdown(f"**{t(f'check.{f}')}**")
                s = summary.loc[f]
                share = "—" if pd.isna(s["first_right"]) else f"{s['first_right'] * 100:.0f}%"
                st.metric(t("classroom.first_right"), share,
                          help=t("classroom.first_right_help", answered=int(s["answered"])))
                if f in data["charts"]:
                    st.vega_lite_chart(data["charts"][f], key=f"class_chart_{f}")
                else:
                    st.caption(t("classroom.no_answers_yet"))

    st.subheader(t("classroom.mistakes"))
    named = data["mistakes"]
    if named.empty:
        st.caption(t("classroom.no_mistakes"))
    else:
        # st.table wraps its cells: every mistake's name stays whole on a 1024 px projector (a data grid
        # would cut it off).  Its cells are Markdown: the registry's names and help are escaped.
        with st.container(key="class_mistakes"):
            st.table(pd.DataFrame({
                t("classroom.col.mistake"): [markdown(kind_name(k), 0) for k in named["kind"]],
                t("classroom.col.students"): named["students"].astype(int).astype(str),
                t("classroom.col.answers"): named["answers"].astype(int).astype(str),
                t("classroom.col.meaning"): [markdown(registry_text("mistake", MISTAKES[k], "help"), 0)
                                             for k in named["kind"]],
            }), hide_index=True)

    st.subheader(t("classroom.class_grid"))
    grid = data["grid"]
    if grid.empty:
        st.caption(t("classroom.nobody_yet"))
    else:
        who = grid["nickname"] if names_shown else [t("classroom.student_n", n=n) for n in grid["number"]]
        student = t("classroom.col.student")
        table = {student: list(who)}
        for f in fields:
            table[t(f"check.{f}")] = list(grid[f])
        table[t("classroom.col.answers")] = grid["answers"]
        # Every name whole (the grid would size the column from its first rows only), the column pinned so the
        # names stay beside the marks when the grid scrolls sideways.
        st.dataframe(pd.DataFrame(table), hide_index=True, key="class_grid", column_config={
            student: st.column_config.TextColumn(width=name_column_px([*who, student]), pinned=True)})
        st.caption(t("classroom.marks_legend", right=MARKS["right"], wrong=MARKS["wrong"],
                     carried=MARKS["carried_forward"], unfinished=MARKS["unfinished"]))

    waiting_panel_teacher(teacher)
    roster_panel(teacher, roster)


_counts_pushed = st.fragment(_live_counts, run_every=push.SAFETY)
_counts_polled = st.fragment(_live_counts, run_every=TEACHER_REFRESH)
_panel_pushed = st.fragment(_live_panel, run_every=push.SAFETY)
_panel_polled = st.fragment(_live_panel, run_every=TEACHER_REFRESH)


def live_counts(teacher: Teacher, token: str, round_no: int, names_shown: bool, joined: bool) -> None:
    """The counts, redrawn when they change (pushed by the server; polled by the browser without pushes)."""
    (_counts_pushed if push.available() else _counts_polled)(teacher, token, round_no, names_shown, joined)


def live_panel(teacher: Teacher, token: str, round_no: int, names_shown: bool, joined: bool) -> None:
    """The charts, mistakes and grid, redrawn when they change (as :func:`live_counts`)."""
    (_panel_pushed if push.available() else _panel_polled)(teacher, token, round_no, names_shown, joined)


def waiting_panel_teacher(teacher: Teacher) -> None:
    """Students whose join waits for the teacher (their browser or network typed too many wrong codes, so
    their code was not checked): the count, a button that lets them in (then their network joins this class
    at once), and their nicknames on request (the dashboard is projected)."""
    done = st.session_state.pop("class_let_in_done", None)
    if done is not None:
        st.success(t("classroom.let_in_done", n=done))
    queue = teacher.waiting()
    if queue.empty:
        return
    fresh = queue[queue["problem"] == ""]
    with st.container(border=True, key="class_waiting"):
        if len(fresh):
            st.warning(t("classroom.waiting_count", n=len(fresh)), icon=":material/hourglass_top:")
            st.button(t("classroom.let_in", n=len(fresh)), key="class_let_in", type="primary",
                      icon=":material/how_to_reg:", on_click=_let_in, args=(teacher,))
        with st.expander(t("classroom.waiting_names")):
            for _, row in queue.iterrows():
                note = f" — {refusal_of(row['problem'])}" if row["problem"] else ""
                st.markdown(f"- {markdown(row['nickname'], MAX_CODE_POINTS)}{note}")


def _let_in(teacher: Teacher) -> None:
    try:
        st.session_state["class_let_in_done"] = teacher.admit_waiting()
    except ClassroomError as exc:
        st.session_state["class_problem"] = refusal(exc)
    except SQLAlchemyError:
        st.session_state["class_problem"] = t("classroom.db_down")


def roster_panel(teacher: Teacher, roster: pd.DataFrame) -> None:
    """The students (drawn by the live panel, so a new student is there at once): give a seat back with a
    seat code, or remove someone — by the number the grid shows (a list of 300 names would not fit)."""
    with st.expander(t("classroom.manage"), icon=":material/group:"):
        if roster.empty:
            st.caption(t("classroom.nobody_yet"))
            return
        c0, c1, c2 = st.columns([1, 1, 1], vertical_alignment="bottom")
        number = c0.number_input(t("classroom.pick_student"), min_value=1, max_value=int(roster["number"].max()),
                                 step=1, key="class_pick", help=t("classroom.pick_student_help"))
        row = roster[roster["number"] == int(number)]
        chosen = int(row["student_id"].iloc[0]) if len(row) else None
        c1.button(t("classroom.hand_back"), key="class_hand_back", icon=":material/key:", disabled=chosen is None,
                  on_click=_seat_action, args=(teacher, "code", chosen), help=t("classroom.hand_back_help"))
        # Removing deletes the student's answers: it asks first, as the next exercise does.
        asking = chosen is not None and st.session_state.get("class_confirm_remove") == (teacher.info.code, chosen)
        c2.button(t("classroom.remove"), key="class_remove", icon=":material/person_remove:",
                  disabled=chosen is None or asking, on_click=st.session_state.__setitem__,
                  args=("class_confirm_remove", (teacher.info.code, chosen)), help=t("classroom.remove_help"))
        if asking:
            with st.container(border=True):
                st.warning(t("classroom.confirm_remove", student=t("classroom.student_n", n=int(number))),
                           icon=":material/person_remove:")
                y, n = st.columns(2)
                y.button(t("classroom.confirm_remove_yes"), key="class_remove_yes", type="primary",
                         on_click=_seat_action, args=(teacher, "remove", chosen))
                n.button(t("classroom.cancel"), key="class_remove_no", on_click=st.session_state.__setitem__,
                         args=("class_confirm_remove", None))
        if chosen is None:
            st.caption(t("classroom.no_student_n", n=int(number)))
        elif teacher.info.show_names:
            st.caption(t("classroom.student_named", n=int(number),
                         nickname=markdown(row["nickname"].iloc[0], MAX_CODE_POINTS)))
        done = st.session_state.get("class_seat_code")
        numbers = dict(zip(roster["student_id"].astype(int), roster["number"].astype(int)))
        if done and done[0] == teacher.info.code and done[1] in numbers:
            st.markdown(t("classroom.seat_code_for", student=t("classroom.student_n", n=numbers[done[1]])))
            st.markdown(f"<p class='class-seat-code' style='font-size:2.5rem;font-weight:700;letter-spacing:.2em;"
                        f"margin:0'>{html_escape(done[2])}</p>", unsafe_allow_html=True)  # CODE_ALPHABET only
            st.caption(t("classroom.seat_code_help", minutes=int(teacher.store.limits.seat_code_ttl // 60)))
        removed = st.session_state.get("class_removed")
        if removed and removed[0] == teacher.info.code:
            st.success(t("classroom.removed", student=removed[1]))


def _seat_action(teacher: Teacher, action: str, student_id) -> None:
    """Button callback (the live panel reruns as a fragment; the seat code and messages it shows stay)."""
    if student_id is None:
        return
    try:
        roster = teacher.students()
        row = roster[roster["student_id"] == int(student_id)]
        label = t("classroom.student_n", n=int(row["number"].iloc[0])) if len(row) else ""
        if action == "remove":
            st.session_state["class_confirm_remove"] = None
            if teacher.remove(int(student_id)):
                st.session_state["class_removed"] = (teacher.info.code, label)
            st.session_state["class_seat_code"] = None
        else:
            code = teacher.seat_code(int(student_id))
            st.session_state["class_seat_code"] = (teacher.info.code, int(student_id), code)
            st.session_state["class_removed"] = None
    except ClassroomError as exc:
        st.session_state["class_problem"] = refusal(exc)
    except SQLAlchemyError:
        st.session_state["class_problem"] = t("classroom.db_down")


# ------------------------------------------------------------------------------------------------ student
def seat_from_page(page: ui_state.PageState) -> Seat | None:
    """The student's seat: from the ``me`` link (once; then the cookie), this browser session's token or its
    cookie — the first that still opens a seat (joining again from this session gives the seat a new token,
    so a link or cookie written before may be out of date while the session holds the new one)."""
    code = normalise_code(page.value("join_code") or st.session_state.get("join_code", ""))
    me = page.value("join_me")
    # The cookie component's place, there on every run: the answer boxes below never move when it comes and
    # goes (a box that moves is drawn at its new place while the old one is still shown: two "DCG" boxes).
    slot = st.container()
    if not code:
        return None
    held = browser.remembered("s", code)
    pending = st.session_state.get("class_pending_tokens", {}).get(browser.cookie_name("s", code))
    seat, token = None, None
    for candidate in dict.fromkeys(t_ for t_ in (me, held, pending) if t_):
        seat = store().seat(code, candidate)
        if seat is not None:
            token = candidate
            break
    if seat is None:
        if held and store().removed_token(code, held):
            # Removed by the teacher: the cookie stays (it keeps this browser out of the class), the link goes.
            st.error(t("classroom.error.removed_here"), icon=":material/person_off:")
            page.set("join_me", "")
        elif me or held:
            st.warning(t("classroom.seat_lost"), icon=":material/person_off:")
            page.set("join_me", "")
            with slot:
                browser.forget("s", code)
        return None
    if token not in (me, held):  # taken by a run cut short before it kept the token: keep it now
        _seated(page, seat, token)
        me = token
    if me:  # the token stays in the link (the valid one) until this browser confirms its cookie holds it
        page.set("join_me", token)
        with slot:
            kept = browser.remember("s", seat.info.code, token, max_age=_cookie_age(seat))
        if kept:
            page.set("join_me", "")
    return seat


def _seated(page: ui_state.PageState, seat: Seat, token: str) -> None:
    st.session_state.get("class_pending_tokens", {}).pop(browser.cookie_name("s", seat.info.code), None)
    page.set("join_code", seat.info.code)
    page.set("join_me", token)  # until the browser confirms its cookie (then seat_from_page takes it out)
    st.session_state.setdefault("class_browser_tokens", {})[browser.cookie_name("s", seat.info.code)] = token


def _pending_token(code: str) -> str:
    """The token this session will give the seat it is taking, kept before the database write: a run cut
    short after the write (a second press of Join, a message sent again) still finds the seat with it."""
    name = browser.cookie_name("s", normalise_code(code or ""))
    return st.session_state.setdefault("class_pending_tokens", {}).setdefault(name, secrets.token_urlsafe(24))


def _typed_code(page: ui_state.PageState) -> str:
    """The class code in its box when Join (or Take my seat back) was pressed: read in the button's callback,
    not from the run before (Enter in the nickname box may come before the run that took the code ended)."""
    return page.parse_typed("join_code") or ""


def _join(page: ui_state.PageState) -> None:
    st.session_state.pop("join_problem", None)
    st.session_state["join_reclaim_code"] = st.session_state.get("join_code", "")
    code = _typed_code(page)
    # A second press of Join (a double click, a click sent again over a slow connection) finds the seat the
    # first one took in this browser session.
    for held in (browser.remembered("s", normalise_code(code or "")), _pending_token(code)):
        seat = store().seat(code, held) if held and code else None
        if seat is not None:
            _seated(page, seat, held)
            return
    st.session_state.pop("join_waiting", None)
    held = browser.remembered("s", normalise_code(code or ""))
    seated = _seat_from(store().join, code, st.session_state.get("join_nickname", ""), held=[held] if held else [])
    if seated is not None:
        _seated(page, *seated)


def _reclaim(page: ui_state.PageState) -> None:
    st.session_state.pop("join_problem", None)
    st.session_state["join_code"] = st.session_state.get("join_reclaim_code", "")  # read as the join form's
    seated = _seat_from(store().reclaim, _typed_code(page), st.session_state.get("join_seat_code", ""))
    if seated is not None:
        st.session_state["join_seat_code"] = ""
        _seated(page, *seated)


def _seat_from(ask, code: str, typed: str, **extra):
    """(seat, token) from the store's ``join`` or ``reclaim`` for what the student typed, or None with the
    refusal (or "the database is down") kept for the form to show.  A join kept for the teacher (this
    browser or network is held for wrong codes) makes the form wait: :func:`waiting_panel`."""
    token = _pending_token(code)
    try:
        return ask(code, typed, client=browser.client(), token=token, **extra)
    except ClassroomError as exc:
        if exc.kind == "waiting":
            st.session_state["join_waiting"] = (normalise_code(code), token)
        st.session_state["join_problem"] = refusal(exc)
    except SQLAlchemyError:
        st.session_state["join_problem"] = t("classroom.db_down")
    return None


def join_form(page: ui_state.PageState) -> None:
    """The join form: the class code, the nickname and Join in one form, so that Enter in either box joins and
    a click on Join sends both boxes with the press (with the code box outside the form, a click that also
    left the code box sent two requests, and the browser's press of Join was lost in the second).  A seat code
    from the teacher has a form of its own, with its own class code box (filled from the join form's: Enter in
    either takes the seat back)."""
    st.caption(t("classroom.join_intro"))
    with st.form("join_form", border=False, enter_to_submit=True):
        st.text_input(t("classroom.code"), key="join_code", max_chars=40, help=t("classroom.code_help"))
        page.typed("join_code")
        # The store cuts a nickname at 24 grapheme clusters (a flag or a family emoji is one, but many UTF-16
        # units, which is what a browser's maxlength counts): the box only keeps absurd lengths out.
        st.text_input(t("classroom.nickname"), key="join_nickname", max_chars=200, help=t("classroom.nickname_help"))
        st.form_submit_button(t("classroom.join"), key="join_button", type="primary", icon=":material/login:",
                              on_click=_join, args=(page,))
    # Kept until the next press of Join or Take my seat back (not popped: a later run of the page keeps it).
    problem = st.session_state.get("join_problem")
    waiting = st.session_state.get("join_waiting")
    if waiting:
        waiting_panel(*waiting)
    elif problem:
        st.error(problem)
    if not st.session_state.get("join_reclaim_code"):
        st.session_state["join_reclaim_code"] = st.session_state.get("join_code") or ""
    with st.expander(t("classroom.have_seat_code"), icon=":material/key:"):
        st.caption(t("classroom.have_seat_code_help"))
        with st.form("join_reclaim_form", border=False, enter_to_submit=True):
            st.text_input(t("classroom.code"), key="join_reclaim_code", max_chars=40)
            st.text_input(t("classroom.seat_code"), key="join_seat_code", max_chars=20)
            st.form_submit_button(t("classroom.take_seat"), key="join_reclaim", on_click=_reclaim, args=(page,))


@st.fragment(run_every=STUDENT_REFRESH)
def waiting_panel(code: str, token: str) -> None:
    """A join kept for the teacher (this browser or network was held for wrong codes, so the code was not
    checked): every few seconds, has the teacher let it in (the page then shows the seat), or refused it?
    The same panel whether the code is right or wrong: a held guesser learns nothing."""
    try:
        if store().seat(code, token) is not None:
            st.session_state.pop("join_waiting", None)
            st.rerun(scope="app")
        why = store().waiting_problem(code, token)
    except SQLAlchemyError:
        st.caption(t("classroom.reconnecting"))
        return
    if why:
        st.session_state.pop("join_waiting", None)
        st.error(refusal_of(why))
        return
    with st.container(key="join_waiting_box"):
        st.info(t("classroom.waiting_for_teacher"), icon=":material/hourglass_top:")


def _saved() -> dict:
    return st.session_state.setdefault("join_saved", {})


def _pending() -> dict:
    return st.session_state.setdefault("join_pending", {})


def _refused() -> set:
    return st.session_state.setdefault("join_refused", set())


def right_value(task: Task, field: str) -> str:
    """The right answer to ``field`` at the exercise's decimals (what "value" feedback adds)."""
    ex = task.exercise()
    sol = ex.solution()
    bd = sol["breakdown"]
    if field == "terms":
        return " ".join(number(x, ex.decimals) for x in bd["discounted_gain"].dropna())
    if field == "ideal_terms":
        return " ".join(number(x, ex.decimals) for x in bd["ideal_discounted_gain"].dropna())
    return number(sol[field], ex.decimals)


@lru_cache(maxsize=1024)
def checked(task: Task, given: tuple[tuple[str, str], ...]):
    """(diagnosis, field -> verdict) for one set of answers (field, text), computed once per process: a
    student's page is drawn again after every answer and every change of the class, many students send
    the same sets, and the diagnosis and its verdicts are what a page run costs most."""
    d = task.check(dict(given))
    return d, {f: verdict(d, f) for f, _ in given}


def step_feedback(task: Task, verdicts: dict, fields, mode: str) -> bool:
    """Before the reveal: per answered step its mark and, when wrong, the mistake's name (and with
    ``mode="value"`` the right value) — never the explanation with the formula's numbers.  Returns
    whether every asked step is right."""
    lines, all_right = [], True
    for f in fields:
        if f not in verdicts:
            all_right = False
            continue
        v = verdicts[f]
        all_right &= v.ok
        text = verdict_line(f, v)  # the same words as Practice and Check
        if mode == "value" and not v.ok:
            text = t("classroom.verdict.right_value", verdict=text, value=right_value(task, f))
        lines.append(f"- {text}")
    if lines:
        st.markdown("\n".join(lines))
    return all_right


def student_view(seat: Seat, page: ui_state.PageState | None = None) -> None:
    """One student's exercise, answers, feedback (their own only) and, once revealed, the solution."""
    current, state = seat.store.current_round(seat.info.id)  # no query while the class is unchanged
    n = current.number
    # Two places made first, so the answer boxes are drawn at the same place in every run whatever the
    # exercise above them draws (another exercise has another number of elements): a box drawn at a new
    # place appears while the old one is still shown, and an answer typed into that one is not this
    # exercise's.
    top, answers = st.container(), st.container(key="join_answers")
    with top:
        st.markdown(t("classroom.you_are", nickname=markdown(seat.nickname, MAX_CODE_POINTS), code=seat.info.code))
        st.subheader(t("classroom.round", number=n, origin=origin_text(current.task)))
        exercise_panel(current.task, key="join_ex")  # one key for every exercise: see answer_panel
        watch(seat, n, current.revealed, state.feedback)
    slow_run()
    with answers:
        # What does not change between submits is drawn here, outside the answers' fragment: a submit's
        # run sends only the boxes, the feedback and "Everything I sent" (fewer elements per answer: the
        # server's per-element work is most of an answer's cost at 600 students, benchmarks/README.md).
        st.subheader(t("practice.answers"))
        st.caption(t("classroom.answers_help"))
        answer_panel(seat, current, state.feedback, linked=page.value("join_round") if page is not None else None)
        if current.revealed:
            st.subheader(t("classroom.solution"))
            solution_panel(current.task, key="join_sol")
        else:
            st.caption(t("classroom.wait_for_reveal"))
    if page is not None:
        page.set("join_round", n)


def answer_panel(seat: Seat, current, feedback: str, *, linked: int | None = None) -> None:
    """The answers, their feedback and (once revealed) the solution: a fragment, so that a submit reruns
    this panel only — the answer saved, the teacher told, the student's feedback drawn — not the whole
    page (the exercise, the seat's look-up, the cookie and the navigation are drawn again only when the
    class changes: :func:`watch`).  Before it was one, every submit cost a full page run: twice the server's
    CPU per answer (benchmarks/classroom.py ``--against``, docs/notes/hall2.md).

    One box per step for the life of the page, whatever the exercise (keys without the exercise's number):
    a box whose key changes is a new widget, and Streamlit keeps the old one on screen beside it until the
    run ends — two boxes for one step, and an answer typed into the old one is another exercise's.  So the
    boxes follow the exercise explicitly: when the page showed another exercise (this session did, or the
    link the browser sent says so: ``linked``, the ``round`` this page set), the boxes start again from this
    exercise's stored answers, and what the browser sent for the other exercise is not taken as an answer to
    this one.

    A page that has just reconnected to another app server (its own died) still shows the old server's
    page, and the rerun of this fragment it sends names a fragment the new session has not run yet:
    Streamlit drops such a rerun, with the answer it carries.  :func:`ui.reruns.keep_fragment_reruns`
    makes the server run the whole page instead when the rerun is the visitor's own (a typed answer, a
    press), so the answer is saved there as by a full run (tests/classroom/test_reconnect.py)."""
    _answer_fragment(seat, (current.number, current.revealed, feedback), linked)


def _answer_panel(seat: Seat, drawn: tuple[int, bool, str], linked: int | None) -> None:
    """:func:`answer_panel`'s fragment.  ``drawn``: (exercise, revealed, feedback) the page around it shows;
    when the class has moved on since (this is a rerun of the panel alone), the whole page is drawn again,
    and the boxes' text counts for the exercise they showed only (see :func:`answer_panel`)."""
    try:
        current, state = seat.store.current_round(seat.info.id)  # the change check: no query while unchanged
    except SQLAlchemyError:
        st.caption(t("classroom.reconnecting"))
        return
    except ClassroomError:
        st.rerun(scope="app")
    if (current.number, current.revealed, state.feedback) != drawn:
        st.rerun(scope="app")
    _answers(seat, current, state.feedback, linked=linked)


_answer_fragment = st.fragment(_answer_panel)


def _answers(seat: Seat, current, feedback: str, *, linked: int | None) -> None:
    n = current.number
    saved = _saved()
    fields = seat.info.fields
    drawn = st.session_state.get("join_drawn_round")
    other = drawn != n if drawn is not None else (linked is not None and linked != n)
    st.session_state["join_drawn_round"] = n
    # The answers this session last read (or stored) for this exercise.  A run that brings a new answer
    # needs no read first: the submit reads this student's answers in its own transactions (the answer
    # counts then against the database's, never these); any other run reads them.
    kept = st.session_state.get("join_mine")
    history = None
    if not other and kept is not None and kept[0] == n and _new_text(fields, n, saved, kept[1]):
        mine = kept[1]
    else:
        history = seat.answers(n)
        mine = {a.field: a.text for a in history}
    # One box a line in one block (a block of two columns per pair of boxes cost the server ~11 % of an
    # answer's run at 600 students).
    with st.container(key="join_boxes", width=ANSWER_WIDTH):
        for f in fields:
            key = f"join_{f}"
            if other:  # the boxes showed another exercise: they start again from this one's answers
                st.session_state[key] = mine.get(f, "")
            if other or key not in st.session_state:  # a new exercise, a reload or another server
                saved[(n, f)] = mine.get(f, "")
            # Otherwise the stored answer is only the box's default, never written over what the browser
            # sent: a page that has just reconnected to another server (or a restarted one) starts a new
            # session there, and an answer typed as soon as it is connected (or sent to the server that then
            # died) arrives in its first runs — session state set here would win over it and lose it.
            st.text_input(t(f"check.{f}"), value="" if other else mine.get(f, ""), key=key,
                          help=t(f"check.{f}_help"), max_chars=300)
    problems, sent = [], False
    for f in seat.info.fields:
        text = st.session_state.get(f"join_{f}", "")
        if not text.strip() or text == saved.get((n, f), mine.get(f)):
            continue
        # One id per (exercise, field, text): a rerun after a failed write sends the same id again.
        pending = _pending()
        sub = pending.setdefault((n, f, text), uuid.uuid4().hex)
        try:
            seat.submit(n, f, text, submission_id=sub)
        except ClassroomError as exc:
            problems.append(labelled(t(f"check.{f}"), refusal(exc)))
            _refused().add((n, f, text))  # said once: not sent again by the net in _watch
            continue
        except SQLAlchemyError:
            problems.append(t("classroom.not_saved", field=t(f"check.{f}")))
            continue
        saved[(n, f)] = text
        pending.pop((n, f, text), None)
        sent = True
    for p in problems:
        st.error(p)

    if sent or history is None:
        history = seat.answers(n)  # after a submit, as its write transaction read them (no query)
        mine = {a.field: a.text for a in history}
    st.session_state["join_mine"] = (n, mine)
    if mine:
        d, verdicts = checked(current.task, tuple((f, mine[f]) for f in FIELDS if f in mine))
        # The same verdict lines before and after the reveal; once revealed, the right values and the
        # full explanation with the formula's numbers (the Check page's) follow.
        done = step_feedback(current.task, verdicts, fields, "value" if current.revealed else feedback)
        if current.revealed:
            render_findings(d, verdicts=False)  # the verdict lines are just above
            render_steps_table(d, key="join_feedback", reveal=True)
        if done:
            st.success(t("practice.solved"))
    # Drawn only while open (a stateful expander): most answer runs send no table at all.
    sent_list = st.expander(t("classroom.my_answers"), key="join_history_open", on_change="rerun")
    if sent_list.open:
        with sent_list:
            if history:
                frame, marks = answers_table(history)
                show_table(frame, marks=marks, label=t("classroom.my_answers"), test_id="join-history")
                st.caption(t("classroom.my_answers_help"))
            else:
                st.caption(t("classroom.no_answers_yet"))
    if other:  # text typed but never sent stays in a box whatever the server says: the page empties them
        # (drawn last, in this run only: nothing above it moves)
        page_actions.reset_boxes(key="join_reset", values={f"join_{f}": st.session_state.get(f"join_{f}", "")
                                                      for f in fields}, nonce=f"{n}:{uuid.uuid4().hex}")


def answers_table(history) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A student's answers to one exercise, oldest first: (step, answer as typed, mark) and the marks' cell
    classes, for :func:`ui.tables.table` (every cell escaped; on a phone one block per answer)."""
    frame = pd.DataFrame({t("classroom.col.step"): [t(f"check.{a.field}") for a in history],
                          t("classroom.col.answer"): [a.text for a in history],
                          t("diagnose.col.mark"): [a.verdict.mark for a in history]})
    marks = pd.DataFrame({c: [""] * len(history) for c in frame.columns})
    marks[t("diagnose.col.mark")] = [VERDICT_CELLS.get(a.verdict.state, "") for a in history]
    return frame, marks


def _new_text(fields, n: int, saved: dict, mine: dict, *, refused=frozenset()) -> bool:
    """Whether a box holds text that is not yet this student's answer to exercise ``n`` (a submit), other
    than a text in ``refused``."""
    for f in fields:
        text = st.session_state.get(f"join_{f}", "")
        if text.strip() and text != saved.get((n, f), mine.get(f)) and (n, f, text) not in refused:
            return True
    return False


def _unsent(fields, n: int) -> bool:
    """Whether a box of exercise ``n`` holds text that this session has neither saved nor had refused."""
    kept = st.session_state.get("join_mine")
    if kept is None or kept[0] != n:
        return False
    return _new_text(fields, n, _saved(), kept[1], refused=_refused())


def _watch(seat: Seat, round_no: int, revealed: bool, feedback: str) -> None:
    """Has the teacher revealed the solution, started the next exercise, changed the feedback, or removed
    this seat?  Then the whole page is drawn again.  Reads the process's change check (no database read
    while the class is unchanged) and draws nothing; rerun by the server when the class changes.

    Also the net under a dropped answer: the browser sends every box's text with each of this fragment's
    timed reruns, so an answer whose own rerun never ran (a page back on a just restarted server sent it
    before that process's first run had installed :func:`ui.reruns.keep_fragment_reruns`, CI stop 43; or a
    write that failed) is in the session now, and the whole page is drawn again to save it."""
    try:
        now = seat.store.pulse(seat.info.id)
        if now != (round_no, revealed, feedback) or seat.id not in seat.store.seated(seat.info.id):
            st.rerun(scope="app")
    except SQLAlchemyError:
        st.caption(t("classroom.reconnecting"))
        return
    except ClassroomError:
        st.rerun(scope="app")
    if fragment_rerun() and _unsent(seat.info.fields, round_no):  # a full run saves it below
        st.rerun(scope="app")
    drawn = (round_no, revealed, feedback)
    push.follow(seat.store.changes, seat.info.id, "student",
                lambda state: state is None or state.pulse != drawn or seat.id not in state.seated)


_watch_pushed = st.fragment(_watch, run_every=push.SAFETY)
_watch_polled = st.fragment(_watch, run_every=STUDENT_REFRESH)


def watch(seat: Seat, round_no: int, revealed: bool, feedback: str) -> None:
    """The student's check for changes: pushed by the server, or polled by the browser without pushes."""
    (_watch_pushed if push.available() else _watch_polled)(seat, round_no, revealed, feedback)
