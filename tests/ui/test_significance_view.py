"""The significance section, the winner column and the lesson (ui.pages.run_files.significance), run by AppTest.

Until the Run files page calls them, they run in a small script (AppTest.from_function); every number
on screen is checked against metrics.significance, in all three languages.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from metrics.significance import TEACHING_EXAMPLE, all_pairs, bootstrap_ci, paired_t, randomization, wilcoxon
from ui.numbers import show
from ui.pages.run_files.significance import significance_fields

LANGS = ("en", "zh", "ko")




def displayed(values, digits: int = 4) -> list[float]:
    """The numbers a grid is given: each exact value at its display precision (ui.numbers.for_table)."""
    return [float(show(v, digits)) for v in values]

def _frame(n=30, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    base = rng.random(n)
    return pd.DataFrame({"bm25": base, "dense": np.clip(base + rng.normal(0.05, 0.1, n), 0, 1),
                         "hybrid": np.clip(base + rng.normal(0.1, 0.1, n), 0, 1)},
                        index=pd.Index([f"q{i}" for i in range(n)], name="qid"))


def _section_app(frame, with_state=False):
    import streamlit as st

    from ui import state as S
    from ui.pages.run_files.significance import significance_fields, significance_section

    page = S.PageState("sigtest", significance_fields("sig")) if with_state else None
    significance_section(frame, measure_name="NDCG@10", key_prefix="sig")
    if page is not None:
        page.finish()
    st.caption("end of script")


def _teaching_app():
    from ui.pages.run_files.significance import teaching_section

    teaching_section(key_prefix="teach", expanded=True)


def _winner_app(frames):
    import streamlit as st

    from ui.pages.run_files.significance import winner_significance, winner_significance_title

    table = winner_significance(frames, key_prefix="sig")
    st.caption(winner_significance_title(key_prefix="sig"))
    for row in table.itertuples():
        st.caption(f"{row.variant}: {row.text}")


def _run(app, *, lang="en", args=(), state=None, query=None) -> AppTest:
    at = AppTest.from_function(app, args=args, default_timeout=180)
    at.session_state["lang"] = lang
    for key, value in (state or {}).items():
        at.session_state[key] = value
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _texts(at) -> str:
    parts = [x.value for x in at.markdown] + [x.value for x in at.caption] + [x.value for x in at.latex]
    parts += [x.value for x in at.info] + [x.value for x in at.error] + [x.label for x in at.selectbox]
    for df in at.dataframe:
        parts += [str(c) for c in df.value.columns]
    return "\n".join(parts)


def _no_raw_keys(at) -> None:
    raw = re.findall(r"significance\.[a-z_]+", _texts(at))
    assert raw == [], raw


def _table(at) -> pd.DataFrame:
    return at.dataframe[0].value


@pytest.mark.parametrize("lang", LANGS)
def test_section_numbers_come_from_metrics(lang):
    frame = _frame()
    at = _run(_section_app, lang=lang, args=(frame,))
    _no_raw_keys(at)
    expected = all_pairs(frame, test="randomization", confidence=0.95, correction="holm", n_resamples=10_000, seed=0)
    shown = _table(at)
    assert len(shown) == 3
    # Columns by position: pair, mean A, mean B, A - B, CI, p, p corrected, significant, wins, d_z.
    # the grid holds the values it shows (4 decimals: what a screen reader reads), from metrics' exact ones
    assert list(shown.iloc[:, 3]) == displayed(expected["mean_difference"])
    assert list(shown.iloc[:, 5]) == displayed(expected["p_value"])
    assert list(shown.iloc[:, 6]) == displayed(expected["p_corrected"])
    assert list(shown.iloc[:, 4]) == [f"[{show(lo, 4)}, {show(hi, 4)}]"
                                      for lo, hi in zip(expected["ci_low"], expected["ci_high"])]
    assert list(shown.iloc[:, 7]) == ["✓" if s else "–" for s in expected["significant"]]
    assert list(shown.iloc[:, 8]) == [f"{a} / {b} / {c}" for a, b, c in
                                      zip(expected["wins_a"], expected["wins_b"], expected["ties"])]
    charts = at.get("vega_lite_chart")
    assert len(charts) == 3  # intervals, sorted differences, null distribution
    # The chosen pair's sentence names its corrected p-value as the table shows it.
    row = expected.iloc[0]
    assert any(show(row["p_corrected"], 4) in m.value for m in at.markdown)


def test_section_sentence_in_words_and_the_pair_charts():
    frame = _frame()
    at = _run(_section_app, args=(frame,))
    expected = all_pairs(frame, n_resamples=10_000, seed=0)
    row = expected.iloc[2]  # dense vs hybrid: hybrid higher, not significant
    words = [m.value for m in at.markdown if m.value.startswith("- ")][0]
    r = randomization(frame["dense"], frame["hybrid"], n_resamples=10_000, seed=0)
    assert r.p_value == row["p_value"]
    assert (f"**hybrid** beats dense on {row['wins_b']} of 30 queries ({row['ties']} ties), by "
            f"{show(abs(row['mean_difference']), 4)} on average") in words
    assert f"in {show(100 * r.p_value, 2)} % of 10,000 random relabellings" in words
    assert "Not significant at the 0.05 level" in words
    # Choose that pair: the null distribution drawn is its randomization distribution.
    at.selectbox(key="sig_pair").set_value(2).run()
    assert not at.exception
    spec = at.get("vega_lite_chart")[2].proto.spec
    assert "Mean difference A" in spec


@pytest.mark.parametrize("test, check", [
    ("t", lambda a, b: paired_t(a, b).p_value),
    ("wilcoxon", lambda a, b: wilcoxon(a, b).p_value),
])
def test_switching_the_test(test, check):
    frame = _frame()
    at = _run(_section_app, args=(frame,))
    at.selectbox(key="sig_test").set_value(test).run()
    assert not at.exception
    shown = _table(at)
    assert shown.iloc[0, 5] == displayed([check(frame["bm25"], frame["dense"])])[0]
    at.selectbox(key="sig_corr").set_value("bonferroni").run()
    shown = _table(at)
    exact = all_pairs(frame, test=test, correction="bonferroni")
    assert np.allclose(exact["p_corrected"], np.minimum(3 * exact["p_value"], 1), rtol=1e-12)
    assert list(shown.iloc[:, 6]) == displayed(exact["p_corrected"])
    at.selectbox(key="sig_conf").set_value("99").run()
    at.selectbox(key="sig_ci").set_value("bca").run()
    assert not at.exception
    expected = all_pairs(frame, test=test, confidence=0.99, correction="bonferroni", bootstrap="bca")
    assert list(_table(at).iloc[:, 4]) == [f"[{show(lo, 4)}, {show(hi, 4)}]"
                                           for lo, hi in zip(expected["ci_low"], expected["ci_high"])]
    assert "Significant at the 0.01 level" in _texts(at) or "Not significant at the 0.01 level" in _texts(at)


def test_settings_ride_in_the_link_with_ui_state():
    frame = _frame()
    at = _run(_section_app, args=(frame, True), query={"sig_test": "t", "sig_corr": "none"})
    shown = _table(at)
    assert shown.iloc[0, 5] == displayed([paired_t(frame["bm25"], frame["dense"]).p_value])[0]
    assert np.array_equal(shown.iloc[:, 5].to_numpy(), shown.iloc[:, 6].to_numpy())  # no correction
    at.selectbox(key="sig_test").set_value("wilcoxon").run()
    assert at.query_params["sig_test"] == "wilcoxon" and at.query_params["sig_corr"] == "none"
    bad = _run(_section_app, args=(frame, True), query={"sig_test": "z-test"})
    assert bad.selectbox(key="sig_test").value == "randomization"  # the default, no crash


def test_no_relabelling_as_extreme_is_said_in_words():
    frame = _frame(40)
    frame["hybrid"] = frame["bm25"] + 0.3  # far beyond anything a relabelling gives
    at = _run(_section_app, args=(frame,))
    row = all_pairs(frame).iloc[1]
    assert row["n_extreme"] == 0 and row["p_value"] == 1 / 10_001
    words = [m.value for m in at.markdown if m.value.startswith("- ")][0]
    assert "None of 10,000 random relabellings gives a difference this large: p = 0.000100" in words


def test_many_systems_chart_is_cut_the_table_is_not():
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(rng.random((8, 11)), columns=[f"s{i}" for i in range(11)])  # 55 pairs
    at = _run(_section_app, args=(frame,))
    assert len(_table(at)) == 55
    assert "The chart shows the first 45 of the 55 pairs; the table above has them all." in _texts(at)


def test_missing_scores_are_left_out_and_bad_tables_do_not_crash():
    frame = _frame(12)
    frame.iloc[3, 1] = np.nan
    at = _run(_section_app, args=(frame,))
    assert any("1 of 12 queries are left out" in c.value for c in at.caption)
    assert len(_table(at)) == 3
    one = _run(_section_app, args=(frame[["bm25"]],))
    assert [i.value for i in one.info] == ["Comparing needs at least two systems."]
    words = pd.DataFrame({"a": ["x", "y", "z"], "b": [0.1, 0.2, 0.3]})
    empty = _run(_section_app, args=(words,))
    assert [i.value for i in empty.info] == ["Comparing needs at least two queries that every system has a score for."]
    same = _run(_section_app, args=(pd.DataFrame({"a": [0.1, 0.2, 0.3], "b": [0.1, 0.2, 0.3]}),))
    assert any("score exactly the same on all 3 queries" in m.value for m in same.markdown)


def test_user_names_are_escaped_in_sentences():
    frame = _frame(8).rename(columns={"bm25": "![x](http://h/a.png)", "dense": "$\\huge PWN$"})
    at = _run(_section_app, args=(frame,))
    text = "\n".join(m.value for m in at.markdown)
    assert "![x](http" not in text and "\\!\\[x\\]" in text
    assert "$\\huge" not in text and "\\$\\\\huge PWN\\$" in text


@pytest.mark.parametrize("lang", LANGS)
def test_teaching_section_step_by_step(lang):
    at = _run(_teaching_app, lang=lang)
    _no_raw_keys(at)
    ex = TEACHING_EXAMPLE
    tt, w = paired_t(ex.a, ex.b), wilcoxon(ex.a, ex.b)
    r, boot = randomization(ex.a, ex.b), bootstrap_ci(ex.a, ex.b)
    tex = "\n".join(x.value for x in at.latex)
    assert f"= {show(tt.mean)}" in tex and f"\\frac{{{show(tt.total, 2)}}}{{10}}" in tex
    assert f"{show(tt.sum_squares, 5)}" in tex and f"= {show(tt.sd)}" in tex
    assert f"= {show(tt.t, 3)}" in tex and f"= {show(tt.p_value)}" in tex and "df &= n - 1 = 9" in tex
    assert "2 + 5 + 3 = 10" in tex and "= 45" in tex and f"= {show(w.p_value)}" in tex
    assert f"\\frac{{N}}{{2^{{10}}}} = \\frac{{{r.n_extreme}}}{{1{{,}}024}} \\\\ &= {show(r.p_value)}" in tex
    # one step per line (a phone's width): no row of a formula carries more than two equals signs
    assert all(row.count("=") <= 2 for x in at.latex for row in x.value.split("\\\\"))
    assert f"[{show(boot.low)},\\; {show(boot.high)}]" in tex
    assert len(at.get("vega_lite_chart")) == 4
    data = at.dataframe[0].value
    assert len(data) == 10 and list(data.iloc[:, 6]) == w.ranks.tolist()
    flips, draws = at.dataframe[1].value, at.dataframe[2].value
    assert list(flips.iloc[:, 2]) == displayed(r.null_means[:5])
    assert list(draws.iloc[:, 2]) == displayed(boot.resample_means[:5])
    provenance = [c.value for c in at.caption if "NDCG@10" in c.value]
    assert provenance and (lang != "en" or provenance[0] == ex.provenance)


def test_the_lessons_words_match_its_numbers():
    # The catalogue says the interval excludes 0 and which tests are significant at 5 %: check it.
    ex = TEACHING_EXAMPLE
    boot = bootstrap_ci(ex.a, ex.b)
    assert boot.high < 0 or boot.low > 0
    assert paired_t(ex.a, ex.b).p_value < 0.05 and randomization(ex.a, ex.b).p_value < 0.05
    assert wilcoxon(ex.a, ex.b).p_value > 0.05


def test_winner_significance_column():
    frame = _frame(40)
    clear = frame.assign(hybrid=np.clip(frame["dense"] + 0.2, 0, 2))
    tied = frame[["bm25"]].assign(other=frame["bm25"])
    frames = {"clear": clear, "tied": tied, "alone": frame[["bm25"]]}
    at = _run(_winner_app, args=(frames,))
    captions = [c.value for c in at.caption]
    assert captions[0] == "Winner significant? (Randomization (sign flips), 0.05)"
    assert captions[1].startswith("clear: ✓ p = ") and captions[1].endswith("vs dense")
    assert captions[2].startswith("tied: ✗ p = 1.0000")
    assert captions[3] == "alone: – (needs 2 systems and 2 complete queries)"
    at2 = _run(_winner_app, args=(frames,), state={"sig_test": "t"})
    assert at2.caption[0].value == "Winner significant? (Paired t-test, 0.05)"


def test_fields_parse_their_links():
    fields = {f.param: f for f in significance_fields("x")}
    assert fields["sig_test"].parse("Wilcoxon") == "wilcoxon" and fields["sig_conf"].parse("99") == "99"
    with pytest.raises(ValueError):
        fields["sig_corr"].parse("fdr")
