"""Page logic of "Which convention gives my number?" (pages/match.py): fields, sentences, links.

Link parameters (:data:`FIELDS`): ``rels`` (grades, ranked order, or any order with ``scores``),
``scores``, ``docnos`` (comma-separated document ids), ``unretrieved`` (grades of judged items not in
the list), ``k``, ``value`` (the number as written: its decimals are its precision).
Every number comes from :func:`metrics.lessons.match.match_number`; this module only words it.
"""
from __future__ import annotations

import math

from metrics.lessons.diagnose import MISTAKES
from metrics.lessons.libraries import (
    COMMON_CONVENTIONS,
    CUTOFFS,
    DIMENSIONS,
    GRADE_READINGS,
    IDEAL_ORDERS,
    LIBRARIES,
    QUANTITIES,
    SCORE_TYPES,
)
from metrics.lessons.match import WRITINGS, Explanation, Match, MatchResult, NearMiss
from metrics.ndcg import NUMBA_SMALL_QUICKSORT
from metrics.registry import DISCOUNTS, GAINS, IDCG_SOURCES, TIES, ZERO_IDCG
from ui import escape
from ui import state as ui_state
from ui.i18n import join_words, registry_text, t
from ui.links import format_base, playground_url
from ui.numbers import show

__all__ = ["PAGE", "FIELDS", "K_RELS", "K_SCORES", "K_DOCNOS", "K_UNRET", "K_K", "K_VALUE", "MAX_ITEMS",
           "parse_docnos", "choice_name", "settings_text", "library_sentence", "match_sentence",
           "near_miss_sentence", "open_link", "library_link", "ranx_note", "source_text", "SHOWN_MATCHES", "counted",
           "not_applicable_sentences", "SHOWN_EXPLANATIONS", "typed_text", "convention_names", "explanation_sentence",
           "order_reasons", "precision_sentences", "hundred_text", "rounding_window"]

PAGE = "match"
MAX_ITEMS = 500
SHOWN_MATCHES = 12
SHOWN_EXPLANATIONS = 8
K_RELS, K_SCORES, K_DOCNOS, K_UNRET, K_K, K_VALUE = ("mt_rels", "mt_scores", "mt_docnos", "mt_unretrieved",
                                                    "mt_k", "mt_value")


def _value_text(raw) -> str:
    value = ui_state.text(40, allow_empty=False)(raw)
    from metrics.lessons.match import read_value

    try:
        read_value(value)
    except ValueError as exc:
        raise ui_state.bad_number(value, exc) from None
    return value


FIELDS = (
    ui_state.Field(
        K_RELS,
        "rels",
        default=(3.0, 2.0, 3.0, 0.0, 1.0, 2.0),
        parse=ui_state.grades(max_items=MAX_ITEMS),
        encode=ui_state.list_encoder(","),
        text=ui_state.list_encoder(", "),
        label="match.rels_name",
    ),
    ui_state.Field(
        K_SCORES,
        "scores",
        default=(),
        parse=ui_state.numbers(max_items=MAX_ITEMS, allow_empty=True),
        encode=ui_state.list_encoder(","),
        text=ui_state.list_encoder(", "),
        label="match.scores_name",
    ),
    ui_state.Field(K_DOCNOS, "docnos", default="", parse=ui_state.text(4_000)),
    ui_state.Field(
        K_UNRET,
        "unretrieved",
        default=(3.0, 0.0),
        parse=ui_state.grades(max_items=MAX_ITEMS, allow_empty=True),
        encode=ui_state.list_encoder(","),
        text=ui_state.list_encoder(", "),
        label="match.unretrieved_name",
    ),
    ui_state.Field(K_K, "k", default=6, parse=ui_state.optional(ui_state.integer(1, 10_000))),
    ui_state.Field(K_VALUE, "value", default="0.8184", parse=_value_text),
)


def counted(key: str, count: int, /, **fmt) -> str:
    """``t(key, **fmt)`` for a sentence about ``count`` things, or ``t(key + "_one", **fmt)`` when it is 1.

    English has two forms ("1 family", "2 families", "0 families"); Chinese and Korean have one, so their
    ``_one`` entries repeat the other sentence.  ``fmt`` goes to :func:`ui.i18n.t` (``lang`` included).

    >>> counted("match.more", 1, n=1, lang="en"), counted("match.more", 3, n=3, lang="en")
    ('…and 1 more family of settings.', '…and 3 more families of settings.')
    """
    return t(f"{key}_one" if count == 1 else key, **fmt)


def parse_docnos(text: str) -> list[str]:
    """Comma-separated document ids, blanks dropped.

    >>> parse_docnos(" a, b ,,c ")
    ['a', 'b', 'c']
    """
    return [p.strip() for p in (text or "").split(",") if p.strip()]


_ENTRIES = {"cutoff": CUTOFFS, "idcg": IDCG_SOURCES, "ideal_order": IDEAL_ORDERS, "grades": GRADE_READINGS,
            "scores_as": SCORE_TYPES, "quantity": QUANTITIES, "gain": GAINS, "discount": DISCOUNTS, "ties": TIES,
            "zero_idcg": ZERO_IDCG}


def choice_name(dimension: str, choice) -> str:
    """The translated name of one choice of a dimension (a gain, a cutoff meaning, a log base, ...)."""
    if dimension == "log_base":
        return t("match.log_base", base=format_base(float(choice)))
    if dimension == "gain" and choice == "map":
        return t("match.gain_map")
    return escape.markdown(registry_text(dimension, _ENTRIES[dimension][choice], "name"), 0)


def settings_text(settings: dict) -> str:
    """The settings that matter, in calculation order: "Exponential gain · standard discount · ..."."""
    parts = []
    for d in DIMENSIONS:
        choices = settings.get(d)
        if choices is None:
            continue
        parts.append(t("match.or").join(choice_name(d, c) for c in choices))
    return " · ".join(parts) or t("match.any_setting")


def _k_text(k) -> str:
    return t("match.with_k", k=k) if k is not None else ""


def hundred_text(x: float, digits: int) -> str:
    """An NDCG ×100 as a table prints it without its % sign, with two decimals fewer than the fraction shown
    with ``digits`` (0.818354 -> 81.8354).

    >>> hundred_text(0.8183541904922857, 6), hundred_text(1.0, 4)
    ('81.8354', '100.00')
    """
    from decimal import Decimal

    if not math.isfinite(x):
        return "–"
    return format((Decimal(repr(float(x))) * 100).quantize(Decimal(1).scaleb(-max(0, digits - 2))), "f")


def _digits_100(digits: int, target) -> int:
    """Decimals of a fraction shown beside a number typed ×100: two more than its fraction has, at least 6."""
    return max(digits, target.decimals + 4, 6)


def library_sentence(key: str, value: float, k, digits: int, *, times_100: bool = False, target=None) -> str:
    """"scikit-learn's ndcg_score with k=5 gives 0.8123"; with ``times_100`` (the typed number is the NDCG ×100
    without its % sign, ``target`` the typed number) the ×100 value is said too."""
    lib = LIBRARIES[key]
    if times_100:
        d = digits if target is None else _digits_100(digits, target)
        return t("match.lib_sentence_times_100", library=escape.markdown(lib.short, 0), k=_k_text(k),
                 value=show(value, d), hundred=hundred_text(value, d))
    return t("match.lib_sentence", library=escape.markdown(lib.short, 0), k=_k_text(k), value=show(value, digits))


def match_sentence(m: Match, digits: int, target=None) -> str:
    if m.times_100:
        d = digits if target is None else _digits_100(digits, target)
        return t("match.setting_sentence_times_100", settings=settings_text(m.settings), value=show(m.value, d),
                 hundred=hundred_text(m.value, d))
    return t("match.setting_sentence", settings=settings_text(m.settings), value=show(m.value, digits))


def rounding_window(h) -> dict:
    """A typed number's fraction at its precision and the exact values that round to it, as text computed in
    decimal arithmetic (no binary noise in a 15th decimal): ``fraction``, ``lo``, ``hi``.

    >>> from metrics.lessons.match import read_value
    >>> rounding_window(read_value("81.8%"))
    {'fraction': '0.818', 'lo': '0.8175', 'hi': '0.8185'}
    """
    from decimal import Decimal, InvalidOperation

    try:  # the digits as typed ("81.840000000000001" keeps its last 1), as a fraction
        at = Decimal(h.text.strip().rstrip("%")).scaleb(-2 if h.percent else 0)
        if not at.is_finite():
            raise InvalidOperation
    except (InvalidOperation, ValueError, AttributeError):
        at = Decimal(repr(float(h.value)))
    half = Decimal(5).scaleb(-(h.scale + 1))
    return {"fraction": format(at.quantize(Decimal(1).scaleb(-h.scale)), "f"),
            "lo": format((at - half).quantize(half), "f"), "hi": format((at + half).quantize(half), "f")}


def precision_sentences(target, *, ndcg_possible: bool = True) -> list[str]:
    """The typed number's precision, said the way it was written: "81.8% has 1 decimal (0.818 as a fraction)";
    a number that may be an NDCG ×100 without its % sign (:func:`metrics.lessons.match.unsigned_percent`) gets
    a second sentence with its fraction and window.  ``target`` is the typed number
    (:attr:`MatchResult.target`).

    >>> from metrics.lessons.match import read_value
    >>> print(precision_sentences(read_value("81.8%"))[0])
    81.8% has 1 decimal (0.818 as a fraction): any exact value from 0.8175 to 0.8185 rounds to it.
    >>> for line in precision_sentences(read_value("81.84")):
    ...     print(line)
    81.84 has 2 decimals: any exact value from 81.835 to 81.845 rounds to it.
    Without a % sign it may also be an NDCG ×100: 0.8184 as a fraction, any NDCG from 0.81835 to 0.81845.
    """
    from metrics.lessons.match import unsigned_percent

    value = escape.markdown(target.text or target.shown(), 0)
    key = "match.precision_percent" if target.percent else "match.precision"
    lines = [counted(key, target.decimals, value=value, decimals=target.decimals, **rounding_window(target))]
    scaled = unsigned_percent(target) if ndcg_possible else None
    if scaled is not None:
        lines.append(t("match.precision_times_100", **rounding_window(scaled)))
    return lines


def near_miss_sentence(m: NearMiss, digits: int) -> str:
    lib = LIBRARIES[m.key]
    value = show(m.value, digits) if math.isfinite(m.value) else "–"
    if m.dimension == "quantity":  # another measure (precision, average precision) or plain DCG: say what it is
        needed = t("match.or").join(choice_name("quantity", c) for c in m.needed)
        return t("match.near_measure", library=escape.markdown(lib.short, 0), value=value,
                 measure=choice_name("quantity", m.theirs), needed=needed)
    if m.dimension is None:
        return t("match.near_rounding", library=escape.markdown(lib.short, 0), value=value,
                 kind=registry_text("mistake", MISTAKES[m.mistake], "name"))
    dim = DIMENSIONS[m.dimension]
    needed = t("match.or").join(choice_name(m.dimension, c) for c in m.needed)
    return t("match.near_sentence", library=escape.markdown(lib.short, 0), value=value,
             step=registry_text("dimension", dim, "name"), theirs=choice_name(m.dimension, m.theirs), needed=needed)


def open_link(rels, unretrieved, k, settings: dict) -> str:
    """A playground link for this list under the first choice of each playground setting in ``settings``."""
    opts = {}
    gain = (settings.get("gain") or ("linear",))[0]
    if gain in ("linear", "exponential"):
        opts["gain"] = gain
    discount = (settings.get("discount") or ("standard",))[0]
    opts["discount"] = discount
    base = (settings.get("log_base") or (2.0,))[0]
    opts["base"] = float(base)
    source = (settings.get("idcg") or ("list",))[0]
    cutoff = (settings.get("cutoff") or ("both",))[0]
    if source in ("list", "judged"):
        opts["idcg"] = source
    return playground_url(list(rels), unretrieved=list(unretrieved) or None,
                          k=k if cutoff in ("both", "hits") else None, **opts)


def library_link(key: str, rels, unretrieved, k) -> str:
    """A playground link for this list under a library's gain, discount, base, IDCG source and cutoff."""
    settings = LIBRARIES[key].convention.settings()
    return open_link(rels, unretrieved, k,
                     {d: (settings[d],) for d in ("gain", "discount", "log_base", "idcg", "cutoff")})


def source_text(key: str) -> str:
    """A library's call, notes, source (file, function, version) and version notes, as Markdown."""
    lib = LIBRARIES[key]
    text = (f"**{escape.markdown(lib.name, 0)}** — `{lib.call}`  \n"
            f"{escape.markdown(registry_text('library', lib, 'notes'), 0)}  \n"
            f"{t('match.source')}: {escape.markdown(lib.source, 0)}")
    if lib.versions:
        text += f"  \n{t('match.versions')}: {escape.markdown(registry_text('library', lib, 'versions'), 0)}"
    return text


def ranx_note(result: MatchResult, n_items: int, scores) -> str | None:
    """When ranx's tie order is not the input order (16 tied items and more), say so."""
    if not scores or n_items <= NUMBA_SMALL_QUICKSORT:
        return None
    from collections import Counter

    biggest = max(Counter(scores).values())
    if biggest <= 1:
        return None
    return t("match.ranx_note", n=NUMBA_SMALL_QUICKSORT)


#: NotApplicable reasons that mean "the library's number type cannot hold this input", and their sentence.
_CANNOT_REPRESENT = {"float32_range": "match.cannot_represent", "float64_range": "match.cannot_represent_64"}


def not_applicable_sentences(not_applicable: dict) -> list[str]:
    """Sentences for the libraries that give no number for this input (``MatchResult.not_applicable``):
    those that refuse it (one sentence) and those whose number type cannot represent it (one per kind),
    each naming its libraries in :data:`LIBRARIES` order.

    >>> for sentence in not_applicable_sentences({"xgboost": "float32_range", "sklearn": "too_few"}):
    ...     print(sentence[:72])
    Not applicable to this list (this library refuses it): scikit-learn's nd
    Cannot represent this input (this library computes in float32, so a scor
    """
    groups: dict[str, list[str]] = {}
    for key in LIBRARIES:
        reason = not_applicable.get(key)
        if reason is not None:
            groups.setdefault(_CANNOT_REPRESENT.get(reason, "match.not_applicable"), []).append(LIBRARIES[key].short)
    order = ["match.not_applicable", *_CANNOT_REPRESENT.values()]
    return [counted(key, len(groups[key]), libraries=escape.markdown(join_words(groups[key]), 0))
            for key in order if key in groups]


def typed_text(text: str, percent: bool, decimals: int, *, sign: bool = True) -> str:
    """A fraction written as text ("0.9194") the way the user typed their number: as a percent with the typed
    ``decimals`` when they typed one ("91.94%"), without the sign for a number typed ×100 without it
    (``sign=False``: "91.94").

    >>> typed_text("0.9194", False, 4), typed_text("0.9194", True, 2), typed_text("0.91", True, 2)
    ('0.9194', '91.94%', '91.00%')
    >>> typed_text("0.782", True, 1, sign=False)
    '78.2'
    """
    if not percent:
        return text
    from decimal import Decimal

    return format((Decimal(text) * 100).quantize(Decimal(1).scaleb(-max(0, decimals))), "f") + ("%" if sign else "")


def convention_names(keys) -> str:
    """The translated names of common conventions, bold, joined ("**rel / log₂(i + 1), IDCG from the list**")."""
    return t("match.or").join(f"**{escape.markdown(registry_text('convention', COMMON_CONVENTIONS[k], 'name'), 0)}**"
                             for k in keys)


def explanation_sentence(e: Explanation, target, digits: int) -> str:
    """One explanation of :attr:`MatchResult.explanations` as a sentence, with the typed number as typed: a
    percent's exact value beside its fraction ("0.818354 (81.8354%)"), a number typed ×100 without its % sign
    said so ("78.2 is 0.782201 ×100 = 78.2201, rounded at 1 decimal and written without the % sign"); decimals
    are counted as the number is written."""
    typed = escape.markdown(target.text, 0)
    percent = target.percent or e.times_100
    if e.times_100:
        digits = _digits_100(digits, target)
    exact = show(e.value, digits) if math.isfinite(e.value) else "–"
    if target.percent and math.isfinite(e.value):
        exact = t("match.exact_percent", exact=exact, hundred=hundred_text(e.value, digits))
    if e.conventions:
        who = convention_names(e.conventions)
        if e.quantity == "dcg":
            who = t("match.explain_dcg", conventions=who)
    else:
        who = t("match.explain_exotic", settings=settings_text(e.settings))
    sign = not e.times_100
    fmt = {"typed": typed, "exact": exact, "conventions": who, "p": e.decimals,
           "hundred": hundred_text(e.value, digits),
           "shown": typed_text(e.shown, percent, e.decimals if e.writing == "rounded_shorter" else target.decimals,
                               sign=sign),
           "rounded": typed_text(e.rounded, percent, target.decimals, sign=sign)}
    if e.writing == "ratio_of_rounded":
        fmt.update(dcg=e.parts[0], idcg=e.parts[1])
    prefix = "match.explain_times_100_" if e.times_100 else "match.explain_"
    if e.writing == "rounded" and not e.times_100:
        return t("match.explain_rounded", **fmt)
    return counted(prefix + e.writing, e.decimals, **fmt)


def order_reasons() -> list[str]:
    """Markdown lines: the common conventions in their order with the reason, then the ways of writing."""
    lines = [t("match.why_conventions")]
    for i, c in enumerate(COMMON_CONVENTIONS.values(), start=1):
        lines.append(f"{i}. **{escape.markdown(registry_text('convention', c, 'name'), 0)}** — "
                     f"{escape.markdown(registry_text('convention', c, 'help'), 0)}")
    lines.append("")
    lines.append(t("match.why_writings"))
    for i, w in enumerate(WRITINGS.values(), start=1):
        lines.append(f"{i}. **{escape.markdown(registry_text('writing', w, 'name'), 0)}** — "
                     f"{escape.markdown(registry_text('writing', w, 'help'), 0)}")
    return lines
