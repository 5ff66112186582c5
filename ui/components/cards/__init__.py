"""The playground's cards and its four headline numbers: one ``st.components.v2`` component.

``cards.js`` (beside this file) draws CG, DCG, IDCG and NDCG, then the ranked cards and the judged
items the system did not retrieve.  While a card moves (mouse, touch or keyboard) it recomputes the
four numbers for the order on screen and shows them at once; on drop they stay, final, and the new
order goes to the server as the state value ``order`` = ``{"ranked": [labels], "unretrieved":
[labels], "seq": n}``.  The browser computes nothing of its own: :func:`payload` sends every item's
gain and every position's discount as :mod:`metrics.registry` computes them (``Gain.func`` and
``Discount.func``, the calls :func:`metrics.ndcg.dcg` makes), and the script adds the terms
``gain / divisor`` exactly as :func:`math.fsum` does, so its numbers are metrics/' numbers to the
last bit (``tests/browser/test_playground_cards.py`` compares them over random rankings and
variants).  It formats them digit for digit as :func:`ui.numbers.show`.

Drag and drop is SortableJS, vendored from npm (``vendor/``, pinned by :data:`SORTABLE_VERSION` and
:data:`SORTABLE_SHA256`; nothing is fetched at run time); the keyboard path is the script's own.

Pages read a drop with :func:`read_drop` at the top of a run, before anything is drawn, and tell the
component the last ``seq`` they consumed: a rerun that still carries an older order never moves the
cards back.  Tests drive it like any widget: ``at.session_state[KEY] = {"order": {...}}``.
"""
from __future__ import annotations

import math
from pathlib import Path

from ui.components import lazy_component

HERE = Path(__file__).parent
NAME = "ndcg_lab.ranking_cards"
#: SortableJS as vendored (``npm pack sortablejs@1.15.7``; ``scripts/vendor_sortable.sh`` refreshes it).
SORTABLE_VERSION = "1.15.7"
SORTABLE_SHA256 = "bf4241bc73fef7f11c59a283a69fe8051cdd31c6d8ff5a2b9ba219e7831fcf76"
#: Labels a drop may name (the cards drawn: at most this many per area, see ``ui.pages.playground.CARD_CAP``).
MAX_DROP_LABELS = 1_000

__all__ = ["NAME", "SORTABLE_VERSION", "SORTABLE_SHA256", "script", "payload", "read_drop", "cards"]


def script() -> str:
    """The component's JavaScript: SortableJS (its UMD build, bound to a local name) and ``cards.js``."""
    vendor = (HERE / "vendor" / "Sortable.min.js").read_text(encoding="utf-8")
    own = (HERE / "cards.js").read_text(encoding="utf-8")
    return ("const Sortable = (() => {\nconst module = { exports: {} };\nconst exports = module.exports;\n"
            f"{vendor}\nreturn module.exports;\n}})();\n{own}")


_mount = lazy_component(NAME, script, lambda: (HERE / "cards.css").read_text(encoding="utf-8"))


def _finite(x: float) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None


def payload(ranking, *, cap: int, k: int | None, gain, discount: str, base: float, idcg: str, zero: str,
            numbers: dict, texts: dict, seq: int) -> dict:
    """What the component draws and computes with (plain JSON).

    ``ranking``: a :class:`ui.ranking.Ranking`; ``cap`` cards per area are drawn, the items after them
    keep their places and enter the numbers as gains (``tail``).  ``gain``/``discount``/``base``/``k``/
    ``idcg``/``zero``: the variant, as :func:`metrics.ndcg.ndcg` takes it.  ``numbers``: ``{"cg": {"label",
    "text", "printed"}, ...}`` as the server shows them.  ``texts``: the component's words (translated).

    >>> from ui.ranking import Ranking
    >>> p = payload(Ranking.from_fields((3, 2), (1,)), cap=40, k=None, gain="exponential", discount="standard",
    ...             base=2.0, idcg="judged", zero="nan", numbers={}, texts={}, seq=0)
    >>> p["ranked"], p["unretrieved"], p["divisors"][:2], p["zero"]
    ([['D1', '3', 7.0], ['D2', '2', 3.0]], [['D3', '1', 1.0]], [1.0, 1.584962500721156], None)
    """
    import numpy as np

    from metrics.registry import ZERO_IDCG, resolve_discount, resolve_gain
    from ui.numbers import exact

    items = list(ranking.ranked) + list(ranking.unretrieved)
    grades = np.array([it.grade for it in items], dtype=np.float64)
    with np.errstate(over="ignore"):
        gains = resolve_gain(gain).func(grades).tolist() if items else []
        divisors = resolve_discount(discount).func(np.arange(1, len(items) + 1), float(base)).tolist()
    n_ranked = len(ranking.ranked)
    ranked_gains, unretrieved_gains = gains[:n_ranked], gains[n_ranked:]

    def cards(area, area_gains):
        return [[it.label, exact(it.grade), float(g)] for it, g in zip(area[:cap], area_gains[:cap])]

    return {
        "seq": int(seq),
        "ranked": cards(ranking.ranked, ranked_gains),
        "unretrieved": cards(ranking.unretrieved, unretrieved_gains),
        "tail": {"ranked": [float(g) for g in ranked_gains[cap:]],
                 "unretrieved": [float(g) for g in unretrieved_gains[cap:]]},
        "divisors": [float(d) for d in divisors],
        "k": None if k is None else int(k),
        "idcg": idcg,
        "zero": _finite(ZERO_IDCG[zero].value),
        "numbers": numbers,
        "t": texts,
    }


def _labels(value) -> list[str] | None:
    if not isinstance(value, list) or len(value) > MAX_DROP_LABELS or not all(isinstance(x, str) for x in value):
        return None
    return list(value)


def read_drop(value, seen: int) -> tuple[list[str] | None, list[str] | None, int] | None:
    """``(ranked labels, unretrieved labels, seq)`` of a drop not consumed yet (``seq != seen``), or None.

    A new ``seq`` whose labels are malformed gives ``(None, None, seq)``: the page still records the
    ``seq`` as seen (so the component takes the server's order again) and changes nothing.  Whether the
    labels are the cards on screen is the ranking's business (:meth:`ui.ranking.Ranking.drag`).

    >>> read_drop({"order": {"ranked": ["B", "A"], "unretrieved": [], "seq": 2}}, 1)
    (['B', 'A'], [], 2)
    >>> read_drop({"order": {"ranked": ["B", "A"], "unretrieved": [], "seq": 2}}, 2) is None
    True
    >>> read_drop({"order": {"ranked": "AB", "unretrieved": [], "seq": 3}}, 0), read_drop(None, 0)
    ((None, None, 3), None)
    >>> read_drop({"order": {"ranked": ["A"], "unretrieved": [], "seq": True}}, 0) is None
    True
    """
    order = value.get("order") if isinstance(value, dict) else None
    if not isinstance(order, dict):
        return None
    seq = order.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq == seen:
        return None
    ranked, unretrieved = _labels(order.get("ranked")), _labels(order.get("unretrieved"))
    if ranked is None or unretrieved is None:
        return None, None, int(seq)
    return ranked, unretrieved, int(seq)


def cards(data: dict, *, key: str, on_order=None) -> None:
    """Draw the numbers and the cards (``data`` from :func:`payload`).  With ``data["rest_pending"]`` the
    component sends the trigger ``painted`` once its numbers are on screen (a rerun: the page draws the
    rest, see :func:`ui.pages.playground.defer_rest`).

    The data travel as one JSON text (``{"payload": "..."}``): Streamlit asks of every first-level value of
    a dict whether it is a data frame, and that question imports pandas and pyarrow (0.5 s and more on a
    first visit, before the numbers); a string is answered at once."""
    import json

    _mount()(key=key, data={"payload": json.dumps(data, allow_nan=False)}, on_order_change=on_order or (lambda: None),
             on_painted_change=lambda: None, width="stretch")
