"""Page logic of Check my calculation (``pages/check.py`` lays it out): its fields for :mod:`ui.state`, the
documents' sheets as field values, and the checks of the typed hand values.

Every input is in the link exactly as typed (``rels``, ``unretrieved``, ``k``, the hand values ``terms``,
``dcg``, ``ideal_terms``, ``idcg``, ``ndcg``, and the formula meant: ``gain``, ``discount``, ``base``,
``idcg``); the page opens on document 003's sheet.
"""
from __future__ import annotations

from metrics.lessons.diagnose import EXAMPLE_SHEETS, example_sheet, hand_number, hand_numbers
from metrics.lessons.misconceptions import tie_groups
from metrics.registry import DISCOUNTS, GAINS
from ui import state as ui_state
from ui.i18n import join_words
from ui.widgets import K_ALL, k_parser

__all__ = ["PAGE", "AUTO", "HAND_FIELDS", "LIST_FIELDS", "DEFAULT_SHEET", "BASES", "MAX_GRADES", "MAX_HAND_CHARS",
           "FIELDS", "SHEETS", "sheet_values", "sheet_numbers", "count_values", "load_sheet", "on_sheet",
           "tie_scores"]

PAGE = "check"
AUTO = "auto"
HAND_FIELDS = ("terms", "dcg", "ideal_terms", "idcg", "ndcg")
LIST_FIELDS = ("terms", "ideal_terms")
DEFAULT_SHEET = "003-blog"
BASES = {"2": 2.0, "e": 2.718281828459045, "10": 10.0}
MAX_GRADES = 1_000
MAX_HAND_CHARS = 20_000
#: the printed numbers named in a sheet's label, in this order
_LABELLED = (("dcg", "DCG"), ("idcg", "IDCG"), ("ndcg", "NDCG"))


def _hand_list(raw) -> str:
    """Hand-written terms, kept as typed (``3 1.26 ? 0``); refused if a value is not a number."""
    text = ui_state.text(MAX_HAND_CHARS)(raw)
    try:
        hand_numbers(text)
    except ValueError as exc:
        raise ui_state.bad_number(text, exc) from None
    return text


def _hand_one(raw) -> str:
    """One hand-written number (``7.99``, ``81.86%``) or nothing, kept as typed."""
    text = ui_state.text(MAX_HAND_CHARS)(raw)
    if text.strip():
        try:
            hand_number(text)
        except ValueError as exc:
            raise ui_state.bad_number(text, exc) from None
    return text


def _same(raw) -> str:
    return raw


def sheet_values(key: str) -> dict:
    """A document's sheet (:func:`metrics.lessons.diagnose.example_sheet`) as the page's field values.

    >>> v = sheet_values("003-blog")
    >>> v["check_grades"], v["check_k"], v["check_idcg"], v["check_base"]
    ((3.0, 2.0, 3.0, 0.0, 1.0, 2.0), 6, '8.37', '2')
    """
    sheet = example_sheet(key)
    out = {
        "check_grades": tuple(float(g) for g in sheet["grades"]),
        "check_unretrieved": tuple(float(g) for g in sheet["unretrieved"]),
        "check_scores": (),
        "check_k": K_ALL if sheet["k"] is None else sheet["k"],
        "check_gain": sheet["gain"],
        "check_discount": sheet["discount"],
        "check_base": next(k for k, v in BASES.items() if v == sheet["log_base"]),
        "check_source": AUTO,
    }
    out.update({f"check_{name}": sheet[name] or "" for name in HAND_FIELDS})
    return out


def sheet_numbers(key: str, lang: str | None = None) -> str:
    """The printed totals of a sheet, as printed (from :mod:`metrics.lessons.examples`): its label's numbers,
    listed the language's way (:func:`ui.i18n.join_words`; the current language when ``lang`` is None).

    >>> sheet_numbers("003-blog", "en"), sheet_numbers("003-blog", "zh")
    ('DCG 6.86, IDCG 8.37, NDCG 81.96%', 'DCG 6.86、IDCG 8.37、NDCG 81.96%')
    """
    sheet = example_sheet(key)
    return join_words((f"{name} {sheet[field]}" for field, name in _LABELLED if sheet[field]), lang)


_DEFAULTS = sheet_values(DEFAULT_SHEET)
#: the documents' sheets the page offers
SHEETS = EXAMPLE_SHEETS

FIELDS = (
    ui_state.Field(
        "check_grades",
        "rels",
        default=_DEFAULTS["check_grades"],
        parse=ui_state.grades(MAX_GRADES),
        encode=ui_state.list_encoder(","),
        text=ui_state.list_encoder(", "),
        label="common.grades",
    ),
    ui_state.Field(
        "check_unretrieved",
        "unretrieved",
        default=_DEFAULTS["check_unretrieved"],
        parse=ui_state.grades(MAX_GRADES, allow_empty=True),
        encode=ui_state.list_encoder(","),
        text=ui_state.list_encoder(", "),
        label="check.unretrieved",
    ),
    ui_state.Field(
        "check_scores",
        "scores",
        default=(),
        parse=ui_state.numbers(MAX_GRADES, allow_empty=True),
        encode=ui_state.list_encoder(","),
        text=ui_state.list_encoder(", "),
        label="check.scores",
    ),
    ui_state.Field("check_k", "k", default=_DEFAULTS["check_k"], parse=k_parser(10 * MAX_GRADES)),
    *(
        ui_state.Field(
            f"check_{name}",
            name,
            default=_DEFAULTS[f"check_{name}"],
            parse=_hand_list if name in LIST_FIELDS else _hand_one,
            encode=_same,
            text=_same,
            label=f"check.{name}",
        )
        for name in HAND_FIELDS
    ),
    ui_state.Field("check_gain", "gain", default=_DEFAULTS["check_gain"], parse=ui_state.choice((AUTO, *GAINS))),
    ui_state.Field(
        "check_discount", "discount", default=_DEFAULTS["check_discount"], parse=ui_state.choice((AUTO, *DISCOUNTS))
    ),
    ui_state.Field("check_base", "base", default=_DEFAULTS["check_base"], parse=ui_state.choice((AUTO, *BASES))),
    ui_state.Field("check_source", "source", default=AUTO, parse=ui_state.choice((AUTO, "list", "judged"))),
)


def count_values(text: str) -> int:
    """How many positions a typed list fills (trailing blanks do not count).

    >>> count_values("3 1.26 ? ?"), count_values("")
    (2, 0)
    """
    values = hand_numbers(text)
    while values and values[-1] is None:
        values.pop()
    return len(values)


def on_sheet(state) -> None:
    """The sheet select's callback: load the chosen document's sheet; the select shows its prompt again
    (loading is an action, not a setting)."""
    key = state.get("check_sheet")
    if key:
        load_sheet(state, key)
    state["check_sheet"] = None


def load_sheet(state, key: str) -> None:
    """Put a document's sheet into the page's fields (a widget callback: runs before the widgets are drawn)."""
    for field in FIELDS:
        value = sheet_values(key)[field.key]
        state[field.key] = field.to_widget(value)



def tie_scores(grades, scores) -> tuple[list[float] | None, bool]:
    """The system's scores to diagnose with (None: none given, or left out) and whether they were left out:
    one score per grade, never rising down the ranked list (:func:`metrics.lessons.misconceptions.tie_groups`).

    >>> tie_scores([3, 1, 0], [0.9, 0.5, 0.5]), tie_scores([3, 1], [0.9]), tie_scores([3, 1], [0.5, 0.9])
    (([0.9, 0.5, 0.5], False), (None, True), (None, True))
    >>> tie_scores([3, 1], ())
    (None, False)
    """
    scores = [float(x) for x in scores]
    if not scores:
        return None, False
    if len(scores) != len(grades):
        return None, True
    try:
        tie_groups(scores)
    except ValueError:
        return None, True
    return scores, False
