"""Input widgets and small displays shared by the NDCG pages.

Values, the last valid input and the link are :mod:`ui.state`'s business; these only draw.  Option
names are looked up when the widget is drawn, in that run's language (a ``format_func`` calling
``t()`` later would be re-run by AppTest in another language and no longer match its options).
"""
from __future__ import annotations

import math
from functools import partial
from urllib.parse import urlencode, urlsplit

import streamlit as st

from metrics.parse import ParseError
from metrics.registry import DISCOUNTS, GAINS
from ui import state as ui_state
from ui.escape import markdown
from ui.i18n import registry_text, t

__all__ = [
    "BASES", "K_OPTIONS_CAP", "K_ALL", "option_widget", "label_function", "k_parser", "k_value", "error_text",
    "gain_select", "discount_select",
    "base_select", "k_options",
    "k_select", "base_url", "link_for", "copy_link",
]

BASES = {"2": 2.0, "e": math.e, "10": 10.0}
#: A cutoff select lists at most this many values of k (larger lists: k up to the cap, or the linked k).
K_OPTIONS_CAP = 1_000


def error_text(exc: ValueError) -> str:
    """A translated message for a parse error, the library's own message (escaped) otherwise."""
    if isinstance(exc, ParseError):
        fields = ui_state.parse_error_fields(exc)
        return t(f"common.{exc.kind}", token=markdown(exc.token, 20), position=exc.position,
                 limit=fields["limit"], point=markdown(fields["point"], 20))
    return t("common.invalid_input", message=markdown(exc, 200))


def option_widget(draw, label: str, options, *, key: str, format_func=str, **kwargs):
    """Draw an option widget whose option labels may change from one run to the next, keeping its value.

    ``draw`` is ``st.selectbox``, ``st.radio``, ``st.multiselect``, ``st.pills`` or
    ``st.segmented_control`` (or a container's); the other arguments are that function's.  Streamlit's
    browser sends the *label* it shows back, and the server knows only the labels of the latest run: a label
    that changed (a translated name after a language switch, "Whole list (5)" once the list has 6 items)
    came back unknown, so the page read the raw label or the widget fell back to its default.  Here a label
    from an earlier draw is turned back into its option, and when the current value's label changes the
    browser is sent the new one (:func:`ui.state.restore_choice`, :func:`ui.state.relabelled`).
    """
    session = st.session_state
    options = list(options)
    labels = [str(format_func(o)) for o in options]
    shown = label_function(options, labels)
    restored = ui_state.restore_choice(session, key, options)
    if not restored and ui_state.relabelled(session, key, options, labels):
        session[key] = session[key]  # an assignment: Streamlit sends the browser this run's label
        restored = True
    if key in session:  # a label no draw recorded (a run cut short by the next click): never drawn as None
        value = session[key]

        def offered(v) -> bool:
            return any(v == o for o in options)

        if isinstance(value, (list, tuple)):
            kept = [v for v in value if offered(v)]
            if len(kept) != len(value):
                session[key] = kept
                restored = True
        elif value is not None and not offered(value):
            del session[key]  # the widget's default (or the page's field default) instead
            restored = False
    if restored:  # the value comes from session state: a default as well would only draw Streamlit's warning
        if kwargs.get("index") is not None:
            kwargs.pop("index")
        kwargs.pop("default", None)
    if kwargs.get("on_change") is not None:
        kwargs["on_change"] = partial(_on_change, key, kwargs["on_change"])
    value = draw(label, options, key=key, format_func=shown, **kwargs)
    ui_state.remember_labels(session, key, options, labels, value)
    return value


def _on_change(key: str, callback, *args, **kwargs) -> None:
    """An option widget's ``on_change``: Streamlit calls it before the script, with whatever label the browser
    sent still in session state.  The label is put back first; when that is the value already drawn (the
    browser still showed the language before) nothing was chosen, and the callback (which may clear the
    visitor's answers or load a sheet over their work) is not called."""
    if not ui_state.unchanged(st.session_state, key):
        callback(*args, **kwargs)


def label_function(options, labels):
    """The ``format_func`` an option widget is drawn with: each option's label, and ``str(value)`` for any
    other value — never None or a number.

    Streamlit keeps a widget's format function after the run and calls it on whatever the widget holds at the
    start of the next run, before the page can put a value back: after a quick language switch that is the
    previous language's label the browser sent.  A ``dict.get`` then gave None, and Streamlit's serializer
    put None in the widget state's list of strings (``TypeError: bad argument type for built-in operation``,
    the teacher's page under the monkey).  ``str(value)`` is what Streamlit itself uses when a format
    function raises.

    >>> f = label_function(["all", 1], ["Whole list (5)", "k = 1"])
    >>> f("all"), f(1), f("整个列表 (5)"), f(True), f(None)
    ('Whole list (5)', 'k = 1', '整个列表 (5)', 'True', 'None')
    """
    pairs = list(zip(options, labels, strict=True))
    try:  # by value and type: 1 and True are equal in Python, never the same option
        table = {(type(o), o): lab for o, lab in reversed(pairs)}  # the first of equal options wins
    except TypeError:  # an unhashable option: looked up in order
        table = None

    def shown(value) -> str:
        if table is not None:
            try:
                found = table.get((type(value), value))
            except TypeError:  # an unhashable value is no option here
                found = None
        else:
            found = next((lab for o, lab in pairs if type(o) is type(value) and o == value), None)
        return str(value) if found is None else found

    return shown


def _registry_select(kind: str, registry: dict, options, *, key: str, label: str, container=st,
                     width="stretch") -> str:
    names = {k: registry_text(kind, registry[k], "name") for k in options}
    help_text = "\n\n".join(f"**{names[k]}**: {registry_text(kind, registry[k], 'help')}" for k in options)
    return option_widget(container.selectbox, label, list(options), key=key, format_func=names.__getitem__,
                         help=help_text, width=width)


def gain_select(*, key: str, options=None, container=st, width="stretch") -> str:
    return _registry_select("gain", GAINS, list(options or GAINS), key=key, label=t("common.gain"),
                            container=container, width=width)


def discount_select(*, key: str, container=st, width="stretch") -> str:
    return _registry_select("discount", DISCOUNTS, list(DISCOUNTS), key=key, label=t("common.discount"),
                            container=container, width=width)


def base_select(*, key: str, container=st) -> float:
    choice = container.selectbox(t("common.log_base"), list(BASES), key=key, help=t("common.log_base_help"))
    return BASES[choice]


#: The cutoff select's value for "the whole list" (a select cannot show None as a choice).
K_ALL = "all"


def k_parser(hi: int):
    """The parser of a cutoff field: ``all`` (or empty) for the whole list, or a whole number from 1 to ``hi``.

    >>> k_parser(10)("all"), k_parser(10)("3")
    ('all', 3)
    """
    inner = ui_state.integer(1, hi)

    def parse(raw):
        return K_ALL if str(raw).strip().lower() in ("", K_ALL) else inner(raw)

    parse.allowed = inner.allowed
    return parse


def k_value(choice) -> int | None:
    """The cutoff for :mod:`metrics`: None for the whole list."""
    return None if choice in (None, K_ALL) else int(choice)


def k_options(n: int, current=None) -> list:
    """Choices of a cutoff select: the whole list first, then 1..n (capped), and ``current``.

    >>> k_options(3), k_options(3, 7)
    (['all', 1, 2, 3], ['all', 1, 2, 3, 7])
    """
    out: list = [K_ALL, *range(1, min(max(int(n), 1), K_OPTIONS_CAP) + 1)]
    if current not in (None, K_ALL) and current not in out:
        out.append(int(current))
    return out


def k_select(*, key: str, n: int, label: str | None = None, help: str | None = None, container=st,
             width="stretch") -> int | None:
    """Cutoff k: "the whole list" is its own choice (never a 0), then k = 1, 2, ... n.  Returns None or k."""
    names = {K_ALL: t("common.k_whole", n=n)}
    ui_state.restore_choice(st.session_state, key)  # a label from an earlier draw is no cutoff
    current = st.session_state.get(key)
    options = k_options(n, current if current == K_ALL or isinstance(current, int) else None)
    choice = option_widget(container.selectbox, label or t("common.k"), options, key=key, width=width,
                           format_func=lambda k: names.get(k, f"k = {k}"), help=help or t("common.k_help"))
    return k_value(choice)


def base_url(*pages: str) -> str:
    """``scheme://host`` of the address the visitor opened (empty outside a browser: a relative link); given
    the ``pages`` the visitor may be on, also the path before them (an app served under a prefix by a proxy,
    ``https://host/lab/present`` -> ``https://host/lab``)."""
    try:
        url = st.context.url or ""
    except Exception:  # noqa: BLE001 - no browser context (AppTest, bare mode)
        return ""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return ""
    path = ""
    if pages:
        path = parts.path.rstrip("/")
        for page in pages:
            if path.endswith("/" + page):
                path = path[: -len(page) - 1]
    return f"{parts.scheme}://{parts.netloc}{path}"


def link_for(page: str, query: dict[str, str]) -> str:
    """The complete address of ``page`` with ``query`` (and the visitor's ``lang``)."""
    q = dict(query)
    lang = st.query_params.get("lang")
    if lang:
        q["lang"] = lang
    base = base_url()
    path = f"{base}/{page}" if base else page
    return f"{path}?{urlencode(q, safe=',')}" if q else path


def copy_link(url: str, *, too_long: bool = False, help: str | None = None) -> None:
    """The complete address of this view in a code box (its copy button copies it whole)."""
    if too_long:
        st.info(t("common.link_too_long"), icon=":material/link_off:")
        return
    st.caption(help or t("common.link_help"))
    st.code(url, language=None, wrap_lines=True)
