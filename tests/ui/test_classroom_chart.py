"""ui.charts.classroom.spread_chart: a valid Vega-Lite spec; each bar coloured and marked by its verdict, the
mark first so that cutting a long answer never cuts it, the verdict named in the tooltip and the accessible
description in every language."""
from __future__ import annotations

import pandas as pd
import pytest

from metrics.lessons.diagnose import MARKS, STATES
from ui.charts.access import TEXT
from ui.charts.classroom import COLOURS, LABEL_CHARS, spread_chart
from ui.i18n import catalogue

NAMES = {"right": "right", "wrong": "wrong", "carried_forward": "carried forward", "unfinished": "not finished"}


def _relative_luminance(colour: str) -> float:
    # WCAG 2.1's definition: sRGB channels linearised, weighted 0.2126 / 0.7152 / 0.0722.
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_relative_luminance(a), _relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _spec(rows, names=NAMES):
    chart = spread_chart(rows, students="Students", names=names)
    spec = chart.to_dict(validate=True)  # Altair checks it against the Vega-Lite schema
    assert chart.to_dict(validate=False) == spec  # what the dashboard sends, unchecked
    return spec, next(iter(spec["datasets"].values()))


def test_each_bar_is_marked_first_and_coloured_by_its_verdict():
    # The tester's class: 8.09 carried forward for one student and wrong for another, a long list of terms
    # (wrong), an unfinished list, a hostile value, and the folded tail.
    long_terms = "4.33 1.82 2.16 0 0.56 1.2 0.9 0.77"
    rows = pd.DataFrame({
        "answer": ["6.86", "8.09", "8.09", long_terms, "3 1.26", "<b>x</b>" + "9" * 40, "…"],
        "students": [5, 2, 1, 1, 1, 1, 3],
        "state": ["right", "carried_forward", "wrong", "wrong", "unfinished", "wrong", "right"]})
    spec, data = _spec(rows)
    assert [d["answer"] for d in data] == [
        "✓ 6.86", "↪ 8.09", "✗ 8.09", "✗ " + long_terms[:LABEL_CHARS - 1] + "…", "… 3 1.26",
        "✗ <b>x</b>" + "9" * 15 + "…", "✓ …"]
    assert [d["verdict"] for d in data] == [NAMES[s] for s in rows["state"]]
    assert [d["full"] for d in data][3] == "✗ " + long_terms  # the whole answer in the tooltip
    scale = spec["encoding"]["color"]["scale"]
    assert dict(zip(scale["domain"], scale["range"])) == {NAMES[s]: COLOURS[s] for s in STATES}
    described = spec["description"]
    for state in STATES:  # every verdict's mark and name in the description, then each bar with its verdict
        assert f"{MARKS[state]} {NAMES[state]}" in described
    assert "↪ 8.09 (carried forward): 2" in described and "✗ 8.09 (wrong): 1" in described
    assert "8.09 ✗" not in described


def test_the_colours_are_apart_from_white_and_the_marks_tell_them_apart_in_grey():
    # WCAG 2.1 1.4.11: a bar is a graphical object, at least 3:1 against the white page (kept at 4.5:1); the
    # colours are not the only difference (1.4.1): in grey two of them look alike, so the marks differ.
    for state in STATES:
        assert _contrast(COLOURS[state], "#ffffff") >= 4.5, state
    assert len({MARKS[s] for s in STATES}) == len(STATES)
    assert _contrast(TEXT, "#ffffff") >= 4.5  # the labels that carry the marks


@pytest.mark.parametrize("lang", ["en", "zh", "zh-Hant", "ko"])
def test_every_language_names_every_verdict(lang):
    cat = catalogue(lang)
    names = {s: cat[f"classroom.chart.{s}"] for s in STATES}
    assert len(set(names.values())) == len(STATES)
    rows = pd.DataFrame({"answer": ["8.09"], "students": [1], "state": ["carried_forward"]})
    spec, data = _spec(rows, names)
    assert data[0]["verdict"] == names["carried_forward"]
    assert names["carried_forward"] in spec["description"] and "↪ 8.09" in spec["description"]


def test_a_state_it_does_not_know_or_a_missing_name_is_refused_by_name():
    rows = pd.DataFrame({"answer": ["1"], "students": [1], "state": ["maybe"]})
    with pytest.raises(ValueError, match=r"rows\['state'\].*'maybe'"):
        spread_chart(rows, students="Students", names=NAMES)
    rows = pd.DataFrame({"answer": ["1"], "students": [1], "state": ["right"]})
    with pytest.raises(ValueError, match="names.*'unfinished'"):
        spread_chart(rows, students="Students", names={k: v for k, v in NAMES.items() if k != "unfinished"})
