"""ui.charts.classroom.spread_chart: a valid Vega-Lite spec, one colour per answer value from its verdict."""
from __future__ import annotations

import pandas as pd

from ui.charts.classroom import RIGHT, WRONG, spread_chart


def test_each_value_is_coloured_by_its_own_verdict_and_the_spec_is_valid():
    # Three values (6.86 right, 6.85 wrong, a hostile one wrong) and the folded tail as two bars.
    rows = pd.DataFrame({"answer": ["6.86", "6.85", "<b>x</b>" + "9" * 40, "…", "…"],
                         "students": [5, 2, 1, 3, 1], "ok": [True, False, False, True, False]})
    chart = spread_chart(rows, students="Students", right="right", wrong="wrong")
    spec = chart.to_dict(validate=True)  # Altair checks it against the Vega-Lite schema
    data = next(iter(spec["datasets"].values()))
    assert [d["answer"] for d in data] == ["6.86 ✓", "6.85 ✗", "<b>x</b>" + "9" * 15 + "… ✗", "… ✓", "… ✗"]
    assert [d["verdict"] for d in data] == ["right", "wrong", "wrong", "right", "wrong"]
    assert spec["encoding"]["color"]["scale"] == {"domain": ["right", "wrong"], "range": [RIGHT, WRONG]}
    assert chart.to_dict(validate=False) == spec  # what the dashboard sends every second, unchecked
