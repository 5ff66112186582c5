"""Charts: colours of at least 3:1 with a second cue, and a description (the accessible name) that holds the
key values as the page shows them.  Checked on the chart specs; tests/browser/test_a11y_pages.py checks the
drawn charts."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from metrics.ndcg import breakdown
from metrics.other.roc import auc, roc_steps
from tests.browser.a11y import contrast
from ui.charts import access, classroom, ndcg, other, runfiles, significance
from ui.numbers import show, show_trimmed

WHITE = "#ffffff"


def test_every_meaningful_colour_is_at_least_3_to_1_on_white():
    meaningful = [*access.PALETTE, access.GREY, ndcg.ACTUAL_COLOR, ndcg.IDEAL_COLOR, other.HIT, other.MISS_EDGE,
                  other.MAE_COLOR, other.RMSE_COLOR, other.TIE_COLOR, other.CHANCE_COLOR, other.FUTURE_COLOR,
                  runfiles.FLIP_COLOR, runfiles.SAME_EDGE, significance.A_COLOR, significance.B_COLOR,
                  significance.TIE_COLOR, significance.EXTREME_COLOR, significance.NULL_COLOR,
                  significance.SIGNIFICANT_COLOR, classroom.RIGHT, classroom.WRONG]
    low = {c: round(float(contrast(c, WHITE)), 2) for c in meaningful if contrast(c, WHITE) < 3.0}
    assert low == {}
    # white check marks on the hit cells, dark ones on the miss cells: text contrast
    assert contrast("#ffffff", other.HIT) >= 4.5 and contrast("#111827", other.MISS) >= 4.5
    for fill in (other.HIT, other.TIE_COLOR, other.RMSE_COLOR):  # ✓ = ✗ in white on the pair grid
        assert contrast("#ffffff", fill) >= 4.5


def test_series_cues_are_distinct():
    assert len(set(access.PALETTE)) == len(access.PALETTE)
    assert len(set(access.SHAPES)) == len(access.SHAPES)
    assert len({tuple(d) for d in access.DASHES}) == len(access.DASHES)


def _spec(chart) -> dict:
    return chart.to_dict(validate=False)


def test_the_gains_chart_describes_both_rankings_with_the_values_it_draws():
    bd = breakdown([3, 2, 3, 0, 1, 2])
    spec = _spec(ndcg.discounted_gain_chart(bd))
    assert "aria" not in spec["config"]   # aria: false leaves unnamed mark groups (axe svg-img-alt)
    assert all("format" in tip for tip in spec["encoding"]["tooltip"] if tip["type"] == "quantitative")
    text = spec["description"]
    yours, ideal = text.split("Ideal")
    for pos, dg, best in zip(bd["position"], bd["discounted_gain"], bd["ideal_discounted_gain"]):
        assert f"{pos}: {show_trimmed(dg)}" in yours and f"{pos}: {show_trimmed(best)}" in ideal
    # 3 / log2(3) = 1.8928 at position 2 of the ideal order (3, 3, 2, 2, 1, 0)
    assert "2: 1.8928" in text.split("Ideal")[1]
    assert "Vega" not in text


def test_the_running_and_curves_charts_quote_their_numbers():
    bd = breakdown([3, 2, 1])
    text = _spec(ndcg.running_chart(bd))["description"]
    assert f"3: {show_trimmed(bd['dcg'].iloc[-1])}" in text and f"3: {show_trimmed(bd['idcg'].iloc[-1])}" in text
    curves = _spec(ndcg.discount_curves_chart(10, 2.0))["description"]
    assert "2 → 0.6309" in curves          # 1 / log2(3)
    assert "10 (log base 2)" in curves


def test_long_descriptions_are_bounded():
    bd = breakdown(list(np.arange(200) % 4))
    text = _spec(ndcg.discounted_gain_chart(bd))["description"]
    assert "… and 188 more" in text and len(text) < 1200


def test_the_roc_chart_says_the_area_so_far():
    scores, labels = [0.9, 0.8, 0.7, 0.6, 0.55], [1, 1, 0, 1, 0]
    steps = roc_steps(scores, labels)
    last = int(steps["step"].max())
    text = _spec(other.roc_chart(steps, last))["description"]
    assert f"area so far {show(auc(scores, labels))}".lower() in text.lower()


def test_the_hit_grid_marks_hits_with_a_check_and_lists_them():
    runs = {"alice": (["a", "b", "c"], {"a", "c"}), "bob": (["x", "y", "z"], set())}
    chart = other.hit_grid(runs, 3)
    spec = _spec(chart)
    assert "alice: hits at 1, 3" in spec["description"] and "bob: no hit" in spec["description"]
    marks = {v["mark"] for v in next(iter(spec["datasets"].values()))}
    assert marks == {"✓", "✗"}


@pytest.mark.parametrize("n", [3, 40])
def test_flip_and_scatter_charts_are_described(n):
    summary = pd.DataFrame({"choice": ["gain", "discount"], "changes": [4, 2], "flips": [1, 0]})
    text = _spec(runfiles.flip_chart(summary, names={"gain": "Gain", "discount": "Discount"}, flips_title="f",
                                     changes_title="c", choice_title="ch", count_title="n"))["description"]
    assert "Gain: 1 / 4" in text and "Discount: 0 / 2" in text
    rng = np.random.default_rng(n)
    data = pd.DataFrame({"run": ["A", "B"] * n, "qid": range(2 * n), "x": rng.random(2 * n), "y": rng.random(2 * n)})
    text = _spec(runfiles.scatter_chart(data, x_title="X", y_title=["Y", "two"], run_title="run",
                                        query_title="q"))["description"]
    assert f"A: {n} points, mean {show(data[data.run == 'A'].x.mean())} across" in text


def test_user_text_in_a_description_is_bounded_and_stays_text():
    name = "<img src=x onerror=alert(1)>" + "x" * 500
    runs = {name: (["a"], {"a"}), **{f"u{i}": (["a"], set()) for i in range(40)}}
    text = _spec(other.hit_grid(runs, 1))["description"]
    assert len(text) < 12 * access.ITEM_CHARS + 600
    assert "… and 18 more" in text      # 30 users drawn, 12 quoted
    assert "<img src=x onerror=alert(1)>" in text  # a plain string: Vega sets it as an attribute, never markup


def test_descriptions_list_and_label_the_chinese_way(monkeypatch):
    # A screen reader reads a Chinese page's chart in Chinese punctuation: 位置：值, items with 、, users' rows with ；.
    import ui.i18n as i18n
    monkeypatch.setattr(i18n, "_last_language", "zh")
    text = _spec(ndcg.discounted_gain_chart(breakdown([3, 2, 3, 0, 1, 2])))["description"]
    assert "2：1.8928" in text and ", " not in text     # 3 / log2(3) at position 2 of the ideal order
    grid = _spec(other.hit_grid({"alice": (["a", "b", "c"], {"a", "c"}), "bob": (["x"], {"x"})}, 3))["description"]
    assert "alice：" in grid and "1、3" in grid and "；bob：" in grid
