"""The playground's ranking state: items, the three ways to edit them (text, table, cards), the link.

The ranking lives in one non-widget session-state entry (:data:`STATE_KEY`, a :class:`Model`) so it
survives page switches (Streamlit deletes widget state when the user leaves a page).  Widgets are
seeded from the model and every edit is absorbed back into it at the top of a run, before any
widget is drawn, so text, table and cards always show the same ranking.

Every item has a unique ``id`` and a unique ``label`` (cards need distinct strings).  Items are
either *ranked* (retrieved, in ranked order) or *unretrieved* (judged, but not in the list): their
grades enter IDCG "from all judged items" only.

Pure functions (no Streamlit) come first and are unit-tested; the session glue comes last.
Nothing here computes a metric: numbers come from :mod:`metrics`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

import pandas as pd

from metrics.ndcg import all_variants
from metrics.parse import ParseError, parse_base, parse_grades
from ui.links import (
    DISCOUNT_CHOICES,
    GAIN_CHOICES,
    IDCG_CHOICES,
    MAX_LABEL_CHARS,
    PLAYGROUND_PARAMS,
    PLAYGROUND_PATH,
    LinkProblem,
    PlaygroundLink,
    format_base,
    playground_query_for,
    read_playground_query,
)

STATE_KEY = "pg_model"
# Widget keys (explicit, all prefixed pg_).
W_TEXT = "pg_text"
W_UNRET = "pg_unret_text"
W_K = "pg_k"
W_GAIN = "pg_gain"
W_DISCOUNT = "pg_discount"
W_BASE = "pg_base"
W_IDCG = "pg_idcg"
W_MOVE = "pg_move_item"

CARD_CAP = 40  # cards drawn per drag area
TABLE_CAP = 200  # rows drawn in the editable table and the per-position table
CHART_CAP = 100  # positions drawn in the charts
TERMS_CAP = 8  # terms written out in the substituted formula
LINK_CAP = 2000  # longer rankings are not written to the address bar
EXPORT_PREVIEW_ROWS = 20  # rows of the Markdown / LaTeX preview (downloads hold every row)
SEPARATOR = " · "  # between label and grade on a card

DEFAULT_RELS = (3.0, 2.0, 1.0, 3.0, 2.0)  # document 000's example
EXAMPLES = {
    # document 000: five results graded 3, 2, 1, 3, 2
    "doc000": {"rels": [3, 2, 1, 3, 2]},
    # documents 001 / 003: six results, and the 7th and 8th judged items (3 and 0) not retrieved
    "doc001": {"rels": [3, 2, 3, 0, 1, 2], "unretrieved": [3, 0], "k": 6},
    # document 002 (Wikipedia's example): six results, IDCG from the list
    "doc002": {"rels": [3, 2, 3, 0, 1, 2], "k": 6},
}
BASE_OPTIONS = ("2", "e", "10")


class InputProblem(ValueError):
    """Bad input the UI reports in words: ``key`` is a ``playground.*`` catalogue key, ``fmt`` its fields."""

    def __init__(self, key: str, text: str, **fmt):
        super().__init__(text)
        self.key = key
        self.fmt = fmt


@dataclass
class Item:
    id: int
    label: str
    grade: float


@dataclass
class Model:
    ranked: list[Item] = field(default_factory=list)
    unretrieved: list[Item] = field(default_factory=list)
    k: int | None = None
    gain: str = "linear"
    discount: str = "standard"
    base: float = 2.0
    idcg: str = "judged"
    next_id: int = 0
    version: int = 0  # bumps on every ranking change: the table and the text areas are refreshed
    sort_rev: int = 0  # bumps on ranking changes not made by dragging: the cards are redrawn
    text_version: int = -1  # model version the grade text area shows
    unret_version: int = -1
    problems: list[LinkProblem] = field(default_factory=list)  # from the link, shown until the next change
    last_query: dict = field(default_factory=dict)  # what the page last wrote to the address bar
    loaded_query: dict = field(default_factory=dict)  # the link the model was loaded from

    # -- reading ---------------------------------------------------------------------------------
    def grades(self) -> list[float]:
        return [it.grade for it in self.ranked]

    def unretrieved_grades(self) -> list[float]:
        return [it.grade for it in self.unretrieved]

    def pool(self) -> list[float]:
        """Grades of every judged item: the ranked ones and the unretrieved ones."""
        return self.grades() + self.unretrieved_grades()

    def labels(self) -> list[str]:
        return [it.label for it in self.ranked]

    def all_items(self) -> list[Item]:
        return self.ranked + self.unretrieved

    def find(self, item_id: int) -> tuple[list[Item], int] | None:
        for group in (self.ranked, self.unretrieved):
            for i, it in enumerate(group):
                if it.id == item_id:
                    return group, i
        return None

    def changed(self, *, by_drag: bool = False) -> None:
        """Record a ranking change (by_drag: the cards already show it, do not redraw them)."""
        self.version += 1
        if not by_drag:
            self.sort_rev += 1
        self.problems = []


# ---- building ---------------------------------------------------------------------------------

def num(x: float) -> str:
    """A grade as typed: 3.0 -> "3", 2.5 -> "2.5"."""
    return f"{x:g}" if float(x) != int(x) else str(int(x))


def format_grades(grades) -> str:
    return ", ".join(num(g) for g in grades)


def fresh_label(used: set[str]) -> str:
    """The first of D1, D2, ... not in ``used``."""
    i = 1
    while f"D{i}" in used:
        i += 1
    return f"D{i}"


def unique_label(text: str, used: set[str]) -> str:
    """``text`` (trimmed to one line) made distinct from ``used``; empty text gets a fresh D-label."""
    base = " ".join(str(text or "").split())[:MAX_LABEL_CHARS]
    if not base:
        return fresh_label(used)
    label, j = base, 2
    while label in used:
        label = f"{base} ({j})"
        j += 1
    return label


def build(rels, unretrieved=(), labels=None, *, start_id: int = 0) -> tuple[list[Item], list[Item], int]:
    """Items for ranked grades and unretrieved grades; labels default to D1, D2, ... over both."""
    rels, unretrieved = list(rels), list(unretrieved or [])
    n = len(rels) + len(unretrieved)
    given = list(labels or [])
    used: set[str] = set()
    items: list[Item] = []
    for i, grade in enumerate(rels + unretrieved):
        label = unique_label(given[i] if i < len(given) else f"D{i + 1}", used)
        used.add(label)
        items.append(Item(start_id + i, label, float(grade)))
    return items[: len(rels)], items[len(rels):], start_id + n


def from_link(link: PlaygroundLink, *, previous: Model | None = None) -> Model:
    """A model for a decoded link (defaults for what it lacks), keeping ``previous``'s counters."""
    rels = link.rels if link.rels is not None else list(DEFAULT_RELS)
    unret = link.unretrieved or []
    labels = link.labels if link.rels is not None else None
    start = previous.next_id if previous else 0
    ranked, unretrieved, next_id = build(rels, unret, labels, start_id=start)
    model = Model(ranked=ranked, unretrieved=unretrieved, k=link.k, gain=link.gain or "linear",
                  discount=link.discount or "standard", base=link.base if link.base is not None else 2.0,
                  idcg=link.idcg or "judged", next_id=next_id, problems=list(link.problems))
    problem = check_numbers(model)
    if problem is not None and link.rels is not None:
        # The linked grades overflow a metric: keep the default ranking and say why.
        model.problems.append(LinkProblem("rels", format_grades(rels)[:40], "overflow", str(problem)))
        model.ranked, model.unretrieved, model.next_id = build(DEFAULT_RELS, (), None, start_id=next_id)
    if previous is not None:
        model.version, model.sort_rev = previous.version + 1, previous.sort_rev + 1
    return model


def check_numbers(model: Model, *, rels=None, unretrieved=None, base=None) -> ValueError | None:
    """The ValueError metrics/ raises for these grades (e.g. 2^rel overflows), or None if all is well.

    Every gain and discount is tried, so switching them later cannot fail.
    """
    rels = model.grades() if rels is None else list(rels)
    unretrieved = model.unretrieved_grades() if unretrieved is None else list(unretrieved)
    if not rels:
        return ValueError("empty ranking")
    try:
        all_variants(rels, log_base=model.base if base is None else base, pool=rels + unretrieved)
    except ValueError as exc:
        return exc
    return None


# ---- edits (each returns True when the ranking changed, raises InputProblem/ParseError if refused) --

def _regrade(items: list[Item], grades: list[float], used: set[str], model: Model) -> list[Item]:
    """Same positions keep their item (label), with the new grade; extra grades get fresh items."""
    out = []
    for i, grade in enumerate(grades):
        if i < len(items):
            out.append(replace(items[i], grade=float(grade)))
        else:
            label = fresh_label(used)
            used.add(label)
            out.append(Item(model.next_id, label, float(grade)))
            model.next_id += 1
    return out


def set_ranked_text(model: Model, text: str) -> bool:
    """Grades typed or pasted for the ranked list."""
    grades = parse_grades(text)
    if grades == model.grades():
        return False
    _refuse_overflow(model, rels=grades)
    used = {it.label for it in model.ranked[: len(grades)]} | {it.label for it in model.unretrieved}
    model.ranked = _regrade(model.ranked, grades, used, model)
    model.changed()
    return True


def set_unretrieved_text(model: Model, text: str) -> bool:
    """Grades of the judged items that are not in the list (may be empty)."""
    grades = parse_grades(text, allow_empty=True)
    if grades == model.unretrieved_grades():
        return False
    _refuse_overflow(model, unretrieved=grades)
    used = {it.label for it in model.ranked} | {it.label for it in model.unretrieved[: len(grades)]}
    model.unretrieved = _regrade(model.unretrieved, grades, used, model)
    model.changed()
    return True


def _refuse_overflow(model: Model, **candidate) -> None:
    problem = check_numbers(model, **candidate)
    if problem is not None:
        raise InputProblem("playground.overflow", str(problem), message=str(problem))


def card_text(item: Item) -> str:
    return f"{item.label}{SEPARATOR}{num(item.grade)}"


def cards(model: Model, ranked_header: str, unretrieved_header: str) -> list[dict]:
    """The two drag areas (at most CARD_CAP cards each) for streamlit-sortables."""
    return [
        {"header": ranked_header, "items": [card_text(it) for it in model.ranked[:CARD_CAP]]},
        {"header": unretrieved_header, "items": [card_text(it) for it in model.unretrieved[:CARD_CAP]]},
    ]


def apply_drag(model: Model, value) -> bool:
    """Take the order the cards were dragged into.  Anything malformed or stale is ignored."""
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(c, dict) for c in value):
        return False
    shown_ranked, shown_unret = model.ranked[:CARD_CAP], model.unretrieved[:CARD_CAP]
    by_text = {card_text(it): it for it in shown_ranked + shown_unret}
    new = [list(c.get("items") or []) for c in value]
    flat = new[0] + new[1]
    if len(flat) != len(by_text) or set(flat) != set(by_text):
        return False  # not the cards on screen (an old drag area): ignore
    ranked = [by_text[s] for s in new[0]] + model.ranked[CARD_CAP:]
    unret = [by_text[s] for s in new[1]] + model.unretrieved[CARD_CAP:]
    if [it.id for it in ranked] == [it.id for it in model.ranked] and \
            [it.id for it in unret] == [it.id for it in model.unretrieved]:
        return False
    if not ranked:
        raise InputProblem("playground.empty_list", "the ranked list cannot be empty")
    model.ranked, model.unretrieved = ranked, unret
    model.changed(by_drag=True)
    return True


def move(model: Model, item_id: int, action: str) -> bool:
    """Keyboard alternative to dragging: "up", "down", "top", or "toggle" (in / out of the list)."""
    found = model.find(item_id)
    if found is None:
        return False
    group, i = found
    if action in ("up", "down", "top"):
        j = {"up": i - 1, "down": i + 1, "top": 0}[action]
        if j < 0 or j >= len(group) or j == i:
            return False
        item = group.pop(i)
        group.insert(j, item)
    elif action == "toggle":
        if group is model.ranked:
            if len(model.ranked) == 1:
                raise InputProblem("playground.empty_list", "the ranked list cannot be empty")
            model.unretrieved.append(model.ranked.pop(i))
        else:
            model.ranked.append(model.unretrieved.pop(i))
    else:
        return False
    model.changed()
    return True


def table_frame(model: Model) -> pd.DataFrame:
    """The editable table: ranked items in order, then unretrieved ones (at most TABLE_CAP rows)."""
    items = (model.ranked + model.unretrieved)[:TABLE_CAP]
    n_ranked = len(model.ranked)
    return pd.DataFrame(
        {
            "label": pd.Series([it.label for it in items], dtype="object"),
            "grade": pd.Series([it.grade for it in items], dtype="float64"),
            "retrieved": pd.Series([i < n_ranked for i in range(len(items))], dtype="bool"),
        }
    )


def _grade_cell(value, row: int) -> float:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        raise InputProblem("playground.table_missing", f"row {row}: the grade is missing", row=row)
    try:
        grade = float(value) if not isinstance(value, str) else parse_grades(value)[0]
    except (TypeError, ValueError, IndexError):
        raise InputProblem("playground.table_bad", f"row {row}: {str(value)[:20]!r} is not a grade",
                           row=row, token=str(value)[:20]) from None
    if not math.isfinite(grade) or grade < 0:
        raise InputProblem("playground.table_bad", f"row {row}: {value!r} is not a grade >= 0",
                           row=row, token=str(value)[:20])
    return grade


def apply_table_edits(model: Model, edits) -> bool:
    """Apply a data_editor's edits (``edited_rows``/``added_rows``/``deleted_rows``) made on
    :func:`table_frame`.  All or nothing: a bad cell refuses the whole edit with a message."""
    if not isinstance(edits, dict):
        return False
    edited = edits.get("edited_rows") or {}
    added = edits.get("added_rows") or []
    deleted = set(int(i) for i in (edits.get("deleted_rows") or []))
    if not edited and not added and not deleted:
        return False
    shown = (model.ranked + model.unretrieved)[:TABLE_CAP]
    n_ranked = len(model.ranked)
    rows = []  # (item or None, label, grade, retrieved)
    for i, it in enumerate(shown):
        if i in deleted:
            continue
        change = edited.get(i, edited.get(str(i), {})) or {}
        label = change.get("label", it.label)
        grade = _grade_cell(change["grade"], i + 1) if "grade" in change else it.grade
        retrieved = bool(change.get("retrieved", i < n_ranked))
        rows.append((it, label, grade, retrieved))
    for j, row in enumerate(added, start=len(shown) + 1):
        row = row or {}
        grade = _grade_cell(row.get("grade"), j)
        retrieved = row.get("retrieved")
        rows.append((None, row.get("label", ""), grade, True if retrieved is None else bool(retrieved)))
    # Labels stay unique: unchanged labels keep theirs, edited / new ones are adjusted.
    used = {it.label for it in (model.ranked + model.unretrieved)[TABLE_CAP:]}
    items: list[tuple[Item, bool]] = []
    for it, label, grade, retrieved in rows:
        if it is None:
            new = Item(model.next_id, unique_label(label, used), grade)
            model.next_id += 1
        else:
            new = replace(it, label=unique_label(label, used), grade=grade)
        used.add(new.label)
        items.append((new, retrieved))
    ranked = [it for it, r in items if r] + model.ranked[TABLE_CAP:]
    unret = [it for it, r in items if not r] + model.unretrieved[max(0, TABLE_CAP - n_ranked):]
    if not ranked:
        raise InputProblem("playground.empty_list", "the ranked list cannot be empty")
    _refuse_overflow(model, rels=[it.grade for it in ranked], unretrieved=[it.grade for it in unret])
    if [(it.id, it.label, it.grade) for it in ranked] == [(it.id, it.label, it.grade) for it in model.ranked] \
            and [(it.id, it.label, it.grade) for it in unret] == [(it.id, it.label, it.grade) for it in model.unretrieved]:
        return False
    model.ranked, model.unretrieved = ranked, unret
    model.changed()
    return True


def load_example(model: Model, name: str) -> None:
    ex = EXAMPLES[name]
    model.ranked, model.unretrieved, model.next_id = build(ex["rels"], ex.get("unretrieved", ()),
                                                           start_id=model.next_id)
    model.k = ex.get("k")
    model.idcg = "judged"
    model.changed()


def to_query(model: Model) -> dict[str, str]:
    """The playground's own query parameters for this model (the ranking only up to LINK_CAP items)."""
    if len(model.all_items()) > LINK_CAP:
        q = {}
    else:
        q = playground_query_for(model.grades(), labels=[it.label for it in model.all_items()],
                                 unretrieved=model.unretrieved_grades(), k=None)
    if model.k is not None:
        q["k"] = str(model.k)
    if model.gain != "linear":
        q["gain"] = model.gain
    if model.discount != "standard":
        q["discount"] = model.discount
    if model.base != 2.0:
        q["base"] = format_base(model.base)
    if model.idcg != "judged":
        q["idcg"] = model.idcg
    return q


def base_option(base: float) -> str:
    return format_base(base)


def read_base(text) -> float:
    """A base chosen or typed in the base box (2, e, 10 or any number > 0 and != 1)."""
    return parse_base(text)


# ---- session glue ------------------------------------------------------------------------------

def sort_key(model: Model, lang: str) -> str:
    """Widget key of the drag areas: a new one whenever the ranking changed by other means."""
    return f"pg_sort_{model.sort_rev}_{lang}"


def table_key(model: Model) -> str:
    return f"pg_table_{model.version}"


def seed_controls(state, model: Model, *, force: bool = False) -> None:
    """Put the model's settings into the control widgets (missing after a page switch)."""
    values = {
        W_K: int(model.k or 0),
        W_GAIN: model.gain,
        W_DISCOUNT: model.discount,
        W_BASE: base_option(model.base),
        W_IDCG: model.idcg,
    }
    for key, value in values.items():
        if force or key not in state:
            state[key] = value


def load(state, query_params) -> Model:
    """The model for this run: from the session, or from the link when the link is new.

    The link is read when the session starts, and again when the address bar holds playground
    parameters the page did not write itself (a link opened from another page).  Without any
    playground parameter (e.g. after a page switch) the session's ranking is kept.
    """
    current = {name: str(query_params.get(name)) for name in PLAYGROUND_PARAMS if name in query_params}
    model = state.get(STATE_KEY)
    if model is None or (current and current != model.last_query and current != model.loaded_query):
        model = from_link(read_playground_query(current), previous=model)
        model.loaded_query = current
        state[STATE_KEY] = model
        seed_controls(state, model, force=True)
    else:
        seed_controls(state, model)
    return model


def absorb_inputs(state, model: Model, lang: str) -> dict[str, ValueError]:
    """Fold what the user did since the last run into the model; return refused inputs by source.

    Order matters only in theory (one interaction per run): the table edits refer to the table
    as drawn from the model before any other change.
    """
    errors: dict[str, ValueError] = {}
    edits = state.get(table_key(model))
    try:
        apply_table_edits(model, edits)
    except ValueError as exc:
        errors["table"] = exc
        model.version += 1  # redraw the table from the last valid ranking
    try:
        apply_drag(model, state.get(sort_key(model, lang)))
    except ValueError as exc:
        errors["cards"] = exc
        model.sort_rev += 1
    for source, key, setter, version_attr in (
        ("text", W_TEXT, set_ranked_text, "text_version"),
        ("unretrieved", W_UNRET, set_unretrieved_text, "unret_version"),
    ):
        text = state.get(key)
        shown_version = getattr(model, version_attr)
        if text is None or shown_version != model.version:
            continue  # the widget is about to be refreshed from the model
        if text == state.get(f"{key}__applied"):
            continue
        try:
            if setter(model, text):
                setattr(model, version_attr, model.version)  # keep what the user typed on screen
        except ValueError as exc:
            errors[source] = exc
            continue
        state[f"{key}__applied"] = text
    # Refresh the text areas that do not show the model's ranking (or were dropped by a page switch).
    if model.text_version != model.version or W_TEXT not in state:
        state[W_TEXT] = state[f"{W_TEXT}__applied"] = format_grades(model.grades())
        model.text_version = model.version
    if model.unret_version != model.version or W_UNRET not in state:
        state[W_UNRET] = state[f"{W_UNRET}__applied"] = format_grades(model.unretrieved_grades())
        model.unret_version = model.version
    return errors


def absorb_controls(state, model: Model) -> ValueError | None:
    """Copy the control widgets into the model; a bad base is refused (returned), the last one kept."""
    k = int(state.get(W_K) or 0)
    model.k = k or None
    if state.get(W_GAIN) in GAIN_CHOICES:
        model.gain = state[W_GAIN]
    if state.get(W_DISCOUNT) in DISCOUNT_CHOICES:
        model.discount = state[W_DISCOUNT]
    if state.get(W_IDCG) in IDCG_CHOICES:
        model.idcg = state[W_IDCG]
    try:
        base = read_base(state.get(W_BASE, "2"))
        if base != model.base:
            problem = check_numbers(model, base=base)
            if problem is not None:
                raise problem
    except ValueError as exc:
        return exc
    model.base = base
    return None


def write_query(query_params, model: Model) -> dict[str, str]:
    """Write the playground's own parameters to the address bar (never touching others, e.g. lang)."""
    q = to_query(model)
    for name in PLAYGROUND_PARAMS:
        if name in q:
            if query_params.get(name) != q[name]:
                query_params[name] = q[name]
        elif name in query_params:
            del query_params[name]
    model.last_query = q
    return q


def link_text(query: dict[str, str], lang: str) -> str:
    """The relative link to this view, e.g. ``playground?rels=3%2C2&k=2`` (language included)."""
    q = dict(query)
    if lang != "en":
        q["lang"] = lang
    return f"{PLAYGROUND_PATH}?{urlencode(q, safe=',')}" if q else PLAYGROUND_PATH


def move_callback(state, action: str) -> None:
    """on_click of the move buttons: move the item chosen in the move box."""
    model = state.get(STATE_KEY)
    item_id = state.get(W_MOVE)
    if model is None or item_id is None:
        return
    try:
        move(model, int(item_id), action)
    except ValueError as exc:
        state["pg_move_error"] = exc


def example_callback(state, name: str) -> None:
    model = state.get(STATE_KEY)
    if model is None:
        return
    load_example(model, name)
    seed_controls(state, model, force=True)


__all__ = [name for name in dir() if not name.startswith("_")]
_ = ParseError  # re-exported for pages that catch it
