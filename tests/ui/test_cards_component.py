"""The cards component's Python side (ui.components.cards): the vendored SortableJS is the pinned one and
nothing in the component reaches the network; the data it is given is metrics' (gains, discounts) and
JSON-safe for any ranking; drops are read once, malformed ones ignored.  Its JavaScript arithmetic is
checked in Chromium (tests/browser/test_cards_arithmetic.py)."""
from __future__ import annotations

import hashlib
import json
import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.registry import ZERO_IDCG, resolve_discount, resolve_gain
from ui.components import cards
from ui.ranking import Ranking


def test_vendored_sortable_is_the_pinned_version():
    vendor = cards.HERE / "vendor" / "Sortable.min.js"
    assert hashlib.sha256(vendor.read_bytes()).hexdigest() == cards.SORTABLE_SHA256
    assert vendor.read_text(encoding="utf-8").startswith(f"/*! Sortable {cards.SORTABLE_VERSION} - MIT")
    assert "MIT License" in (cards.HERE / "vendor" / "LICENSE").read_text(encoding="utf-8")


def test_the_script_binds_sortable_locally_and_fetches_nothing():
    js = cards.script()
    assert js.startswith("const Sortable = (() => {") and "export default function" in js
    own = (cards.HERE / "cards.js").read_text(encoding="utf-8") + (cards.HERE / "cards.css").read_text(encoding="utf-8")
    for network in ("fetch(", "XMLHttpRequest", "WebSocket", "import(", "http://", "https://", "url(", "@import",
                    "innerHTML", "insertAdjacentHTML", "eval("):
        assert network not in own, network  # labels are text (textContent), never markup
    assert not re.search(r"\b(fetch|XMLHttpRequest|WebSocket|sendBeacon)\b", js)


@given(rels=st.lists(st.sampled_from([0.0, 1.0, 2.0, 2.5, 3.0, 1000.0]), min_size=1, max_size=60),
       unret=st.lists(st.sampled_from([0.0, 1.0, 3.0]), max_size=50),
       gain=st.sampled_from(["linear", "exponential", {0.0: -1.0, 2.5: 9.0, 1000.0: 1e295}]),
       discount=st.sampled_from(["standard", "jarvelin"]), base=st.sampled_from([2.0, math.e, 0.5, 1e100]),
       k=st.sampled_from([None, 1, 5, 100]), zero=st.sampled_from(["zero", "one", "nan"]),
       cap=st.sampled_from([40, 3]))
def test_payload_is_metrics_gains_and_discounts(rels, unret, gain, discount, base, k, zero, cap):
    ranking = Ranking.from_fields(rels, unret)
    data = cards.payload(ranking, cap=cap, k=k, gain=gain, discount=discount, base=base, idcg="judged", zero=zero,
                     numbers={}, texts={}, seq=3)
    json.dumps(data, allow_nan=False)  # plain JSON: no NaN or infinity can reach the browser
    gains = resolve_gain(gain).func(np.array(rels + unret, dtype=float)).tolist()
    assert [c[2] for c in data["ranked"]] + data["tail"]["ranked"] == gains[: len(rels)]
    assert [c[2] for c in data["unretrieved"]] + data["tail"]["unretrieved"] == gains[len(rels):]
    assert len(data["ranked"]) == min(cap, len(rels)) and len(data["unretrieved"]) == min(cap, len(unret))
    positions = np.arange(1, len(rels) + len(unret) + 1)
    assert data["divisors"] == resolve_discount(discount).func(positions, base).tolist()
    expected_zero = ZERO_IDCG[zero].value
    assert data["zero"] == (None if math.isnan(expected_zero) else expected_zero)
    assert (data["k"], data["seq"]) == (k, 3)


@pytest.mark.parametrize("value,seen,expected", [
    ({"order": {"ranked": ["A"], "unretrieved": ["B"], "seq": 1}}, 0, (["A"], ["B"], 1)),
    ({"order": {"ranked": ["A"], "unretrieved": ["B"], "seq": 1}}, 1, None),
    ({"order": {"ranked": ["A"], "unretrieved": None, "seq": 2}}, 1, (None, None, 2)),
    ({"order": {"ranked": ["A"] * 1001, "unretrieved": [], "seq": 2}}, 1, (None, None, 2)),
    ({"order": {"ranked": [{"x": 1}], "unretrieved": [], "seq": 2}}, 1, (None, None, 2)),
    ({"order": {"ranked": ["A"], "unretrieved": [], "seq": 2.0}}, 1, None),
    ({"order": []}, 0, None), ({}, 0, None), (["order"], 0, None), (None, 0, None),
])
def test_read_drop(value, seen, expected):
    assert cards.read_drop(value, seen) == expected
