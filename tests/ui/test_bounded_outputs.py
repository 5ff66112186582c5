"""Every input the pages accept produces every output in bounded time: the handout (PDF bytes) and every chart
builder of every family in ui/charts/ (the Altair spec, ``to_dict()``), driven with extreme finite values
(subnormals, 1e-300, 1e300, float64's largest, mixed magnitudes) and lengths up to the pages' caps.

Each example runs under a time limit (:func:`time_limit`: a real-time alarm that interrupts a runaway loop and
fails the example; Hypothesis's own deadline only judges an example after it has finished, which a loop over
10^288 grid lines never does).  The limit is far above what any example needs on a busy machine (well under a
second each idle): it catches loops over data-derived steps, not slowness.

Inputs follow the page's own path: the link's parser (ui.state / the page's fields), then the same metrics/
functions the page calls; an input the page refuses with a message is refused here the same way.
"""
from __future__ import annotations

import math
import signal
import string
import sys
import time
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from metrics.lessons.diagnose import STATES
from metrics.lessons.libraries import tie_spread
from metrics.ndcg import breakdown
from metrics.other import rating as rating_metrics
from metrics.other import roc as roc_metrics
from metrics.other import topn as topn_metrics
from metrics.significance import all_pairs, bootstrap_ci, paired_t, randomization, wilcoxon
from metrics.variant import Variant
from ui.charts import classroom as classroom_charts
from ui.charts import ndcg as ndcg_charts
from ui.charts import other as other_charts
from ui.charts import present as present_charts
from ui.charts import runfiles as runfiles_charts
from ui.charts import significance as significance_charts
from ui.links import MAX_ITEMS as PLAYGROUND_MAX_ITEMS
from ui.pages import playground
from ui.pages import rating as rating_view
from ui.pages import roc as roc_view
from ui.pages import topn as topn_view
from ui.pages.playground import export
from ui.pages.present import handout, link, markup, slides
from ui.pages.run_files.view import flip_summary
from ui.widgets import BASES

#: Seconds one example may take before it fails.  An example needs well under a second on an idle machine.
LIMIT = 60
BIG = sys.float_info.max
SMALLEST = 5e-324  # the smallest subnormal
LANGS = ("en", "zh", "ko")

# No deadline (time_limit is the limit, and a deadline would flake on a machine whose cores are all busy); large
# inputs are the point, not a health problem.  An example here builds whole pages of output, so each test runs a
# quarter of the loaded profile's examples (a profile that lowers or raises the count scales these too).
BOUNDED = settings(deadline=None, max_examples=max(1, settings.default.max_examples // 4),
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class TimeLimitExceeded(AssertionError):
    pass


@contextmanager
def time_limit(seconds: float, what: str):
    """Fail (raise in the running code) when the block takes more than ``seconds`` of real time."""
    def expired(signum, frame):
        raise TimeLimitExceeded(f"{what} took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    start = time.monotonic()
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)  # an enclosing alarm (pytest-timeout's) is put back
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 0.001))


def spec(chart) -> dict:
    """The chart's Vega-Lite spec, validated against the schema (the JSON the browser receives)."""
    out = chart.to_dict()
    assert out.get("$schema", "").startswith("https://vega.github.io/schema/vega-lite/")
    return out


# ---- values --------------------------------------------------------------------------------------

MAGNITUDES = [SMALLEST, 1e-320, sys.float_info.min, 1e-300, 1e-200, 1e-14, 1e-7, 0.5, 1.0, 3.0, 1e7, 1e14, 1e15,
              1e200, 1e300, BIG]


def extreme(*, signed: bool = False, zero: bool = True, max_value: float = BIG) -> st.SearchStrategy[float]:
    """Finite floats, weighted towards the edges of float64 (subnormals, 1e±300, the largest)."""
    edges = [x for x in MAGNITUDES if x <= max_value] + ([0.0] if zero else [])
    if signed:
        edges += [-x for x in edges if x]
    low = -max_value if signed else (0.0 if zero else SMALLEST)
    anywhere = st.floats(min_value=low, max_value=max_value, allow_nan=False, allow_infinity=False,
                         allow_subnormal=True)
    if not zero:
        anywhere = anywhere.filter(lambda x: x != 0)
    return st.one_of(st.sampled_from(edges), anywhere)


def values(element: st.SearchStrategy, cap: int, *, min_size: int = 1) -> st.SearchStrategy[list]:
    """A short list, or one of the page's maximum length (a short pattern repeated up to ``cap``)."""
    short = st.lists(element, min_size=min_size, max_size=min(cap, 12))
    longest = st.lists(element, min_size=1, max_size=5).map(lambda p: (p * (cap // len(p) + 1))[:cap])
    return st.one_of(short, longest)


def parsed(parser, items) -> tuple:
    """Values as a link carries them, read back by the page's own parser (what the page accepts)."""
    return parser(",".join(repr(float(x)) for x in items))


# ---- Present: every step, its HTML, both charts, the live-region sentence and the handout ---------

PRESENT = {f.key: f for f in link.FIELDS}


@st.composite
def lectures(draw):
    rels = draw(values(extreme(), link.MAX_ITEMS))
    values_ = {"present_rels": parsed(PRESENT["present_rels"].parse, rels)}
    if draw(st.booleans()):
        unretrieved = draw(values(extreme(), link.MAX_ITEMS, min_size=0))
        values_["present_unretrieved"] = tuple(float(x) for x in unretrieved)
    if draw(st.booleans()):  # labels as a link gives them: any text, up to the cap, commas between labels
        labels = draw(st.one_of(st.text(max_size=200),
                                st.text(min_size=1, max_size=40).map(lambda x: (x + ",") * 600)))
        values_["present_labels"] = PRESENT["present_labels"].parse(labels[: link.MAX_LABEL_TEXT])
    values_["present_k"] = draw(st.one_of(st.none(), st.integers(1, 30), st.just(1_000_000)))
    values_["present_gain"] = draw(st.sampled_from(["linear", "exponential"]))
    values_["present_discount"] = draw(st.sampled_from(["standard", "jarvelin"]))
    base = draw(st.one_of(st.sampled_from(["2", "e", "10"]),
                          extreme(zero=False, max_value=BIG).filter(lambda b: b != 1.0).map(repr)))
    try:
        values_["present_base"] = PRESENT["present_base"].parse(base)
    except Exception:  # the page refuses it with a message and keeps the default
        pass
    values_["present_idcg"] = draw(st.sampled_from(["judged", "list"]))
    return link.lecture_from_values(values_)


@BOUNDED
@given(lecture_problems=lectures(), lang=st.sampled_from(LANGS), theme=st.sampled_from(link.THEMES))
def test_present_every_step_and_chart_in_bounded_time(lecture_problems, lang, theme):
    lecture, _ = lecture_problems
    with time_limit(LIMIT, f"Present {lecture.rels[:4]}… ({len(lecture.rels)} grades)"):
        nums = slides.numbers(lecture)
        bd = nums["breakdown"]
        palette = markup.PALETTES[theme]
        assert markup.page_css(theme)
        for i, _ in enumerate(slides.steps(lecture), start=1):
            s = slides.slide(lecture, i, lang)
            for html in (markup.cards_html(s, lang), markup.number_html(s, lang), markup.printed_html(s, lang),
                         markup.variants_html(s, lang)):
                assert "nan" not in html.lower().replace("nanum", "")
            said = slides.announcement(s, lang)
            if s.number is not None:
                assert slides.shown(s.number) in said
            if s.chart == "curve":
                spec(present_charts.discount_curve(bd, lecture.n_terms, s.mark, palette, lang, height=190))
            elif s.chart == "bars":
                spec(present_charts.gain_bars(bd, palette, lang, ideal=s.kind != "dcg", height=190))
        assert link.present_url(lecture)


@BOUNDED
@given(lecture_problems=lectures(), lang=st.sampled_from(LANGS), paper=st.sampled_from(handout.PAPERS))
def test_handout_in_bounded_time(lecture_problems, lang, paper):
    lecture, _ = lecture_problems
    with time_limit(LIMIT, f"handout of {lecture.rels[:4]}… ({len(lecture.rels)} grades)"):
        pdf = handout.build(lecture, lang, paper=paper)
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert len(pdf) < 2_000_000


@pytest.mark.parametrize("rels", [(1e-300, 1e-300), (SMALLEST,), (SMALLEST, 1e-300, 1000.0), (1e-10, 1e-10),
                                  (sys.float_info.min, 0.0, SMALLEST)])
def test_handout_of_tiny_grades_is_quick_and_draws_a_few_grid_lines(rels):
    """The link of issue 24 (``rels=1e-300,1e-300``): a handful of grid lines, labelled in the grades' scale."""
    import io

    from pypdf import PdfReader

    lecture, problems = link.lecture_from_values({"present_rels": rels})
    assert problems == [] and lecture.rels == rels
    with time_limit(LIMIT, f"handout of {rels}"):
        pdf = handout.build(lecture, "en")
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    top = max(slides.numbers(lecture)["breakdown"][["discounted_gain", "ideal_discounted_gain"]].max())
    axis = handout.ChartAxis.for_top(float(top))
    assert 2 <= len(axis.ticks()) <= handout.AXIS_STEPS + 1
    for _, label in axis.ticks():
        assert label in text
    # the grid reaches the largest bar: the top tick is at least the top value, within one step of it
    assert axis.fraction(float(top)) <= 1.0
    assert axis.fraction(float(top)) > (axis.count - 1) / axis.count


# ---- Playground, worked examples, variants: ui/charts/ndcg.py ------------------------------------

@BOUNDED
@given(rels=values(extreme(max_value=1000.0), PLAYGROUND_MAX_ITEMS),
       labels=st.lists(st.text(max_size=40), max_size=12),
       gain=st.sampled_from(["linear", "exponential"]), discount=st.sampled_from(["standard", "jarvelin"]),
       base=st.one_of(st.sampled_from([2.0, math.e, 10.0]), extreme(zero=False).filter(lambda b: b != 1.0)),
       k=st.one_of(st.none(), st.integers(1, PLAYGROUND_MAX_ITEMS)))
def test_playground_charts_and_exports_in_bounded_time(rels, labels, gain, discount, base, k):
    """The playground's three charts (its first CHART_CAP positions, as the page draws them) and its three
    downloads (every position)."""
    with time_limit(LIMIT, f"playground charts and exports of {rels[:4]}… ({len(rels)} grades)"):
        try:
            bd = breakdown(rels, k=k, gain=gain, discount=discount, log_base=base)
        except ValueError:  # the playground refuses it with a message (2^rel beyond float64)
            assume(False)
        part = bd.iloc[:playground.CHART_CAP]
        spec(ndcg_charts.discounted_gain_chart(part, labels[:playground.CHART_CAP]))
        spec(ndcg_charts.running_chart(part))
        assert len(ndcg_charts.gains_long(part, labels)) <= 2 * len(part)
        spec(ndcg_charts.discount_curves_chart(max(len(part), 10), base))
        variant = Variant(gain=gain, discount=discount, log_base=base, k=k, idcg="list")
        csv = export.to_csv(bd, labels, variant)
        assert csv.count("\n") >= len(bd) and export.file_name(variant, "csv").endswith(".csv")
        assert export.to_markdown(bd, labels, title="t").count("\n") >= len(bd)
        assert export.to_latex(bd, labels, title="t").count("\n") >= len(bd)


@BOUNDED
@given(n=st.integers(2, 30), base=st.sampled_from(sorted(BASES.values())))
def test_variants_discount_curves_in_bounded_time(n, base):
    """The Variants page's curves: its slider's positions, its log bases."""
    with time_limit(LIMIT, f"discount curves n={n} base={base}"):
        data = ndcg_charts.discount_curves_data(n, base)
        assert np.isfinite(data["weight"]).all()
        spec(ndcg_charts.discount_curves_chart(n, base))


@BOUNDED
@given(grades=values(extreme(max_value=1000.0), 200), scores=st.data())
def test_tie_spread_chart_in_bounded_time(grades, scores):
    s = scores.draw(st.lists(extreme(signed=True), min_size=len(grades), max_size=len(grades))
                    if len(grades) <= 12 else st.just([1e300, -1e-300, 0.0, 5e-324] * (len(grades) // 4 + 1))
                    .map(lambda x: x[:len(grades)]))
    with time_limit(LIMIT, f"tie spread of {len(grades)} items"):
        spread = tie_spread(grades, s, docnos=[f"d{i}" for i in range(len(grades))])
        spread["name"] = spread["ties"]
        spec(ndcg_charts.tie_spread_chart(spread, rule_title="rule"))


# ---- Top-N, Rating, ROC: ui/charts/other.py -------------------------------------------------------

@st.composite
def topn_runs(draw):
    users = draw(st.one_of(st.integers(1, 5), st.just(topn_view.MAX_USERS)))
    length = draw(st.one_of(st.integers(0, 12), st.just(topn_view.MAX_ITEMS)))
    names = draw(st.lists(st.text(string.ascii_letters + string.digits + "<>&", min_size=1, max_size=30),
                          min_size=1, max_size=6))
    runs = {}
    for u in range(users):
        recommended = [f"{names[(u + i) % len(names)]}{i}" for i in range(length)]
        relevant = recommended[u % 3::3] + [f"unseen{u}"]
        runs[f"user{u}"] = (recommended, relevant)
    return runs


@BOUNDED
@given(runs=topn_runs(), n=st.one_of(st.integers(1, 12), st.just(topn_view.MAX_N)))
def test_topn_charts_in_bounded_time(runs, n):
    with time_limit(LIMIT, f"top-N charts of {len(runs)} users, n={n}"):
        spec(other_charts.hit_grid(runs, n))
        spec(other_charts.per_user_chart(topn_metrics.per_user(runs, n=n)))


@st.composite
def rating_pairs(draw):
    true = draw(values(extreme(signed=True), rating_view.MAX_PAIRS))
    pred = draw(st.lists(extreme(signed=True), min_size=len(true), max_size=len(true)) if len(true) <= 12
                else st.just([x * -0.5 for x in true]))
    return true, pred


@BOUNDED
@given(pair=rating_pairs(), which=st.integers(1, rating_view.MAX_PAIRS))
def test_rating_charts_in_bounded_time(pair, which):
    true, pred = pair
    assume(rating_view.pair_problem(true, pred) is None)  # else the page says why and keeps the last pair
    with time_limit(LIMIT, f"rating charts of {len(true)} pairs"):
        table = rating_metrics.errors(true, pred)
        spec(other_charts.errors_chart(table))
        spec(other_charts.share_chart(rating_metrics.error_shares(true, pred)))
        chosen, _ = rating_view.pick_pair(which, len(true), table["abs_error"])
        spec(other_charts.sweep_chart(rating_view.sweep(true, pred, chosen, table["abs_error"])))


@st.composite
def roc_samples(draw):
    scores = draw(values(extreme(signed=True), roc_view.MAX_SAMPLES, min_size=2))
    labels = [i % 2 for i in range(len(scores))]
    if len(scores) <= 12:
        labels = draw(st.lists(st.integers(0, 1), min_size=len(scores), max_size=len(scores)))
    return scores, labels


@BOUNDED
@given(samples=roc_samples(), at=st.integers(0, roc_view.MAX_SAMPLES))
def test_roc_charts_in_bounded_time(samples, at):
    scores, labels = samples
    assume(roc_view.sample_problem(scores, labels) is None)
    with time_limit(LIMIT, f"ROC charts of {len(scores)} samples"):
        steps = roc_metrics.roc_steps(scores, labels)
        spec(other_charts.roc_chart(steps, min(at, len(steps) - 1)))
        assert all(other_charts.threshold_text(x) for x in steps["threshold"])
        if roc_metrics.pair_counts(scores, labels)["pairs"] <= roc_view.MAX_PAIR_GRID:
            spec(other_charts.pair_chart(roc_metrics.rank_pairs(scores, labels)))


# ---- Run files and significance: ui/charts/runfiles.py, ui/charts/significance.py ----------------

def per_query(draw, n_systems: int) -> pd.DataFrame:
    n = draw(st.one_of(st.integers(2, 12), st.just(5_000)))
    # Per-query values are a run file's measures: NDCG-like in [0, 1] or counts (num_ret, num_rel) up to the
    # number of lines an upload can hold; subnormal differences included.
    element = extreme(signed=True, max_value=draw(st.sampled_from([1.0, 1e7])))
    pattern = draw(st.lists(element, min_size=n_systems, max_size=n_systems * 7))
    data = np.resize(np.asarray(pattern, dtype=float), (n, n_systems))
    data[:, 1:] += np.linspace(0, 1, n)[:, None] * (data[:, 1:] == data[:, :1])  # not all ties
    return pd.DataFrame(data, index=[f"q{i}" for i in range(n)], columns=[f"run{j}" for j in range(n_systems)])


@BOUNDED
@given(data=st.data(), systems=st.integers(2, 4))
def test_significance_charts_in_bounded_time(data, systems):
    frame = per_query(data.draw, systems)
    assume(np.isfinite(frame.to_numpy()).all())
    a, b = frame.iloc[:, 0].to_numpy(), frame.iloc[:, 1].to_numpy()
    labels = {"a_wins": "A", "b_wins": "B", "tie": "="}
    with time_limit(LIMIT, f"significance charts of {len(frame)} queries"):
        diffs = significance_charts.differences_data(frame.index, a - b, **labels)
        spec(significance_charts.differences_chart(diffs, x_title="rank", y_title="A - B", query_title="query",
                                                   winner_title="winner", **labels))
        names = {"x_title": "x", "y_title": "p", "extreme_label": "extreme", "other_label": "other",
                 "legend_title": "part", "observed_title": "observed"}
        for result in (paired_t(a, b), wilcoxon(a, b), randomization(a, b, n_resamples=200),
                       bootstrap_ci(a, b, n_resamples=200)):
            spec(significance_charts.null_chart(result.null_distribution(), **names))
        table = all_pairs(frame, n_resamples=200)
        pair_labels = [f"{x} - {y}" for x, y in zip(table["system_a"], table["system_b"])]
        spec(significance_charts.ci_chart(table, pair_labels=pair_labels, x_title="d", significant_label="yes",
                                          not_significant_label="no", legend_title="v", pair_title="pair",
                                          low_title="low", high_title="high"))


@BOUNDED
@given(data=st.data())
def test_runfiles_charts_in_bounded_time(data):
    n = data.draw(st.one_of(st.integers(1, 12), st.just(20_000)))
    pattern = data.draw(st.lists(extreme(max_value=1.0), min_size=2, max_size=8))
    xy = np.resize(np.asarray(pattern), (n, 2))
    points = pd.DataFrame({"run": [f"run{i % 3}" for i in range(n)], "qid": [f"q{i}" for i in range(n)],
                           "x": xy[:, 0], "y": xy[:, 1]})
    flips = pd.DataFrame({"choice": data.draw(st.lists(st.sampled_from(["gain", "discount", "idcg", "ties"]),
                                                       min_size=1, max_size=40)),
                          "flips": data.draw(st.booleans())})
    with time_limit(LIMIT, f"run-file charts of {n} points"):
        drawn = runfiles_charts.scatter_points(points)
        assert len(drawn) == min(n, runfiles_charts.SCATTER_POINTS)
        gap = (points["x"] - points["y"]).abs()
        assert gap.max() == 0 or gap.idxmax() in drawn.index  # the largest disagreement is always drawn
        spec(runfiles_charts.scatter_chart(points, x_title=["x", "variant"], y_title="y", run_title="run",
                                           query_title="query"))
        summary = flip_summary(flips)
        spec(runfiles_charts.flip_chart(summary, names={c: c.upper() for c in summary["choice"]},
                                        flips_title="flips", changes_title="changes", choice_title="choice",
                                        count_title="count"))


# ---- Classroom: ui/charts/classroom.py ----------------------------------------------------------

@BOUNDED
@given(answers=st.lists(st.text(max_size=300), min_size=1, max_size=60, unique=True),
       counts=st.lists(st.integers(1, 10**9), min_size=1, max_size=60), data=st.data())
def test_classroom_chart_in_bounded_time(answers, counts, data):
    rows = pd.DataFrame({"answer": answers, "students": (counts * len(answers))[:len(answers)],
                         "state": data.draw(st.lists(st.sampled_from(STATES), min_size=len(answers),
                                                     max_size=len(answers)))})
    with time_limit(LIMIT, f"classroom chart of {len(rows)} answers"):
        spec(classroom_charts.spread_chart(rows, students="students", names={s: s for s in STATES}))


# ---- the time limit itself fails a runaway loop ----------------------------------------------------

def test_time_limit_interrupts_a_runaway_loop():
    """The guard these tests rely on: a loop like the handout's old grid (a step of 1e-300 up to 1) is stopped
    and reported, not waited for."""
    with pytest.raises(TimeLimitExceeded, match="runaway"):
        with time_limit(0.2, "runaway"):
            v = 0.0
            while v <= 1.0:
                v += 1e-300


def test_every_chart_builder_is_driven_here():
    """A chart builder added to ui/charts/ without a bounded-time property here fails this test."""
    import inspect
    from pathlib import Path

    source = Path(__file__).read_text(encoding="utf-8")
    modules = (ndcg_charts, other_charts, present_charts, runfiles_charts, significance_charts, classroom_charts)
    missing = [f"{module.__name__}.{name}" for module in modules
               for name, fn in inspect.getmembers(module, inspect.isfunction)
               if fn.__module__ == module.__name__ and not name.startswith("_") and f".{name}(" not in source]
    assert missing == []
