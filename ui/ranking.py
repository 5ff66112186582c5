"""The playground's ranking: named items with grades, retrieved (in ranked order) or not, and its edits.

A :class:`Ranking` is a value (frozen): every edit returns a new one.  Its three link fields are the
grades of the ranked items (``rels``), the grades of the judged items the system did not retrieve
(``unretrieved``, they enter IDCG "from all judged items" only) and the items' names (``labels``,
ranked items first, then the unretrieved ones; empty when they are the defaults D1, D2, ...).

Names are unique (the drag areas need distinct cards) and made so by the one label de-duplicator,
:func:`metrics.parse.parse_labels`.  Nothing here is Streamlit or computes a metric.

>>> r = Ranking.from_fields((3, 2, 1), (3,), ())
>>> r.labels(), r.grades(), r.unretrieved_grades()
(['D1', 'D2', 'D3'], [3.0, 2.0, 1.0], [3.0])
>>> r.move("D3", "top").grades()
[1.0, 3.0, 2.0]
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from metrics.parse import parse_grades, parse_labels

if TYPE_CHECKING:  # pandas only for the editable table, drawn after the numbers
    import pandas as pd

__all__ = ["MAX_LABEL_CHARS", "Item", "Ranking", "RankingProblem", "clean_label"]

MAX_LABEL_CHARS = 60


class RankingProblem(ValueError):
    """An edit the ranking refuses, in words: ``key`` is a ``playground.*`` catalogue key, ``fmt`` its fields."""

    def __init__(self, key: str, english: str, **fmt):
        super().__init__(english)
        self.key = key
        self.fmt = fmt


def clean_label(text) -> str:
    """One line, no comma (labels travel comma-separated in links), at most MAX_LABEL_CHARS characters.

    >>> clean_label("  a,\\nb  "), len(clean_label("x" * 99))
    ('a b', 60)
    """
    return " ".join(str(text or "").replace(",", " ").split())[:MAX_LABEL_CHARS]


def _number(x: float) -> str:
    from ui.numbers import exact

    return exact(x)


@dataclass(frozen=True)
class Item:
    label: str
    grade: float


@dataclass(frozen=True)
class Ranking:
    ranked: tuple[Item, ...]
    unretrieved: tuple[Item, ...] = ()

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def from_fields(cls, rels, unretrieved=(), labels=()) -> Ranking:
        """From the link fields; missing, empty or repeated labels are made unique (D-numbers for missing).

        >>> Ranking.from_fields((1, 2), (0,), ("A", "A")).labels(all_items=True)
        ['A', 'A (2)', 'D3']
        """
        rels, unretrieved = [float(g) for g in rels], [float(g) for g in unretrieved or ()]
        grades = rels + unretrieved
        names = parse_labels(",".join(clean_label(x) for x in labels or ()), len(grades)) if grades else []
        items = tuple(Item(name, g) for name, g in zip(names, grades))
        return cls(items[: len(rels)], items[len(rels):])

    def fields(self) -> tuple[tuple[float, ...], tuple[float, ...], tuple[str, ...]]:
        """``(rels, unretrieved, labels)``; labels empty when they are the defaults D1, D2, ..."""
        labels = tuple(self.labels(all_items=True))
        if labels == tuple(f"D{i}" for i in range(1, len(labels) + 1)):
            labels = ()
        return tuple(self.grades()), tuple(self.unretrieved_grades()), labels

    def _rebuilt(self, ranked, unretrieved) -> Ranking:
        """Labels kept where given, made unique; a new item (empty label) gets the first D-number not in use."""
        items = list(ranked) + list(unretrieved)
        names = [clean_label(it.label) for it in items]
        used = set(names)
        fresh = (f"D{i}" for i in range(1, 2 * len(items) + 2) if f"D{i}" not in used)
        names = [name or next(fresh) for name in names]
        return Ranking.from_fields([it.grade for it in ranked], [it.grade for it in unretrieved], names)

    # -- reading -------------------------------------------------------------------------------
    def grades(self) -> list[float]:
        return [it.grade for it in self.ranked]

    def unretrieved_grades(self) -> list[float]:
        return [it.grade for it in self.unretrieved]

    def pool(self) -> list[float]:
        """Grades of every judged item: the ranked ones and the unretrieved ones."""
        return self.grades() + self.unretrieved_grades()

    def labels(self, *, all_items: bool = False) -> list[str]:
        items = self.ranked + self.unretrieved if all_items else self.ranked
        return [it.label for it in items]

    def __len__(self) -> int:
        return len(self.ranked) + len(self.unretrieved)

    # -- edits ---------------------------------------------------------------------------------
    def regrade(self, rels=None, unretrieved=None) -> Ranking:
        """New grades typed for the ranked list and/or the unretrieved items: each position keeps its item's
        name, extra positions get fresh names, dropped positions go.

        >>> Ranking.from_fields((3, 2), (), ("A", "B")).regrade(rels=(1, 1, 1)).labels()
        ['A', 'B', 'D1']
        """
        def redo(items, grades):
            if grades is None:
                return list(items)
            return [Item(items[i].label if i < len(items) else "", float(g)) for i, g in enumerate(grades)]

        new = self._rebuilt(redo(self.ranked, rels), redo(self.unretrieved, unretrieved))
        return self if new == self else new

    def move(self, label: str, action: str) -> Ranking:
        """Keyboard alternative to dragging: ``up``, ``down``, ``top``, or ``toggle`` (in or out of the list).

        >>> r = Ranking.from_fields((3, 2, 1))
        >>> r.move("D2", "up").labels(), r.move("D1", "toggle").unretrieved_grades()
        (['D2', 'D1', 'D3'], [3.0])
        """
        ranked, unret = list(self.ranked), list(self.unretrieved)
        for group in (ranked, unret):
            found = next((i for i, it in enumerate(group) if it.label == label), None)
            if found is not None:
                break
        else:
            return self
        if action in ("up", "down", "top"):
            j = {"up": found - 1, "down": found + 1, "top": 0}[action]
            if j < 0 or j >= len(group) or j == found:
                return self
            group.insert(j, group.pop(found))
        elif action == "toggle":
            if group is ranked:
                if len(ranked) == 1:
                    raise RankingProblem("playground.empty_list", "the ranked list cannot be empty")
                unret.append(ranked.pop(found))
            else:
                ranked.append(unret.pop(found))
        else:
            return self
        return Ranking(tuple(ranked), tuple(unret))

    # -- cards (ui.components.cards) ---------------------------------------------------------------
    def drag(self, ranked, unretrieved, cap: int) -> Ranking:
        """The order the cards were dropped in, by label: ``ranked`` and ``unretrieved`` name the cards on
        screen (at most ``cap`` per area); the items after the cap keep their places.  Anything malformed
        or stale (not exactly the cards on screen) is ignored; an empty ranked list is refused.

        >>> r = Ranking.from_fields((3, 2))
        >>> r.drag(["D2", "D1"], [], cap=40).grades()
        [2.0, 3.0]
        >>> r.drag(["D2"], [], cap=40) is r, r.drag(None, [], cap=40) is r
        (True, True)
        """
        if not isinstance(ranked, list | tuple) or not isinstance(unretrieved, list | tuple):
            return self
        shown = self.ranked[:cap] + self.unretrieved[:cap]
        by_label = {it.label: it for it in shown}
        flat = list(ranked) + list(unretrieved)
        if len(flat) != len(by_label) or set(flat) != set(by_label):
            return self
        new_ranked = tuple(by_label[x] for x in ranked) + self.ranked[cap:]
        new_unret = tuple(by_label[x] for x in unretrieved) + self.unretrieved[cap:]
        if (new_ranked, new_unret) == (self.ranked, self.unretrieved):
            return self
        if not new_ranked:
            raise RankingProblem("playground.empty_list", "the ranked list cannot be empty")
        return Ranking(new_ranked, new_unret)

    # -- the editable table (st.data_editor) -----------------------------------------------------
    def table(self, cap: int) -> pd.DataFrame:
        """Ranked items in order, then unretrieved ones (at most ``cap`` rows)."""
        import pandas as pd

        items = (self.ranked + self.unretrieved)[:cap]
        n_ranked = len(self.ranked)
        return pd.DataFrame({
            "label": pd.Series([it.label for it in items], dtype="object"),
            "grade": pd.Series([it.grade for it in items], dtype="float64"),
            "retrieved": pd.Series([i < n_ranked for i in range(len(items))], dtype="bool"),
        })

    def edit_table(self, edits, cap: int, *, max_grade: float = math.inf) -> Ranking:
        """Apply a data_editor's edits (``edited_rows`` / ``added_rows`` / ``deleted_rows``) made on
        :meth:`table`.  All or nothing: a bad cell refuses the whole edit with a :class:`RankingProblem`.

        >>> r = Ranking.from_fields((3, 2))
        >>> r.edit_table({"edited_rows": {1: {"grade": 0.5, "label": "B"}}}, cap=200).fields()
        ((3.0, 0.5), (), ('D1', 'B'))
        """
        if not isinstance(edits, dict):
            return self
        edited = edits.get("edited_rows") or {}
        added = edits.get("added_rows") or []
        deleted = {int(i) for i in (edits.get("deleted_rows") or [])}
        if not edited and not added and not deleted:
            return self
        shown = (self.ranked + self.unretrieved)[:cap]
        n_ranked = len(self.ranked)
        rows = []  # (label, grade, retrieved)
        for i, it in enumerate(shown):
            if i in deleted:
                continue
            change = edited.get(i, edited.get(str(i), {})) or {}
            grade = _grade_cell(change["grade"], i + 1, max_grade) if "grade" in change else it.grade
            rows.append((change.get("label", it.label), grade, bool(change.get("retrieved", i < n_ranked))))
        for j, row in enumerate(added, start=len(shown) + 1):
            row = row or {}
            retrieved = row.get("retrieved")
            rows.append((row.get("label", ""), _grade_cell(row.get("grade"), j, max_grade),
                         True if retrieved is None else bool(retrieved)))
        ranked = [Item(str(label or ""), g) for label, g, r in rows if r] + list(self.ranked[cap:])
        unret = [Item(str(label or ""), g) for label, g, r in rows if not r] + list(
            self.unretrieved[max(0, cap - n_ranked):])
        if not ranked:
            raise RankingProblem("playground.empty_list", "the ranked list cannot be empty")
        new = self._rebuilt(ranked, unret)
        return self if new == self else new


def _grade_cell(value, row: int, max_grade: float) -> float:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        raise RankingProblem("playground.table_missing", f"row {row}: the grade is missing", row=row)
    try:
        grade = float(value) if not isinstance(value, str) else parse_grades(value)[0]
    except (TypeError, ValueError, IndexError, OverflowError):
        raise RankingProblem("playground.table_bad", f"row {row}: {str(value)[:20]!r} is not a grade",
                             row=row, token=str(value)[:20]) from None
    if not math.isfinite(grade) or grade < 0 or grade > max_grade:
        raise RankingProblem("playground.table_bad", f"row {row}: {str(value)[:20]!r} is not a grade from 0 to "
                             f"{_number(max_grade)}", row=row, token=str(value)[:20])
    return grade
