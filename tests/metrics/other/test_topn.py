"""Top-N metrics of document 002: hand-derived values, invariants, trec_eval and scikit-learn cross-checks."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score

from metrics.ndcg import ndcg
from metrics.other.topn import (
    AP_DENOMINATORS,
    ARHR_MODES,
    HIT_RATES,
    PRECISION_DENOMINATORS,
    ap_breakdown,
    as_items,
    as_runs,
    average_precision,
    binary_ndcg,
    f1_at_n,
    f1_score,
    first_hit,
    hits,
    loo_ndcg,
    per_user,
    precision_at_n,
    recall_at_n,
    reciprocal_rank,
    summary,
)
from tests.conftest import examples

REC = ["A", "B", "C", "D", "E"]
TEST = ["A", "C", "X"]


# --- hand-derived values ----------------------------------------------------

def test_hits_and_precision_recall_by_hand():
    # top 3 = A B C, test items {A, C, X}: rel = 1 0 1, 2 hits; P = 2/3, R = 2/3
    assert hits(REC, TEST, n=3).tolist() == [1.0, 0.0, 1.0]
    assert precision_at_n(REC, TEST, n=3) == 2 / 3
    assert recall_at_n(REC, TEST, n=3) == 2 / 3
    assert f1_at_n(REC, TEST, n=3) == pytest.approx(2 / 3)
    # n=None: the whole list of 5, still 2 hits: P = 2/5, R = 2/3, F1 = 2*(2/5)(2/3)/(2/5+2/3) = 1/2
    assert precision_at_n(REC, TEST) == 2 / 5
    assert f1_at_n(REC, TEST) == pytest.approx(0.5)


def test_precision_denominator_short_list():
    # 2 items recommended, N = 5, 1 hit: document 002 divides by |R(u)| = 2, trec_eval by N = 5
    assert precision_at_n(["A", "B"], ["A"], n=5, denominator="list") == 0.5
    assert precision_at_n(["A", "B"], ["A"], n=5, denominator="n") == 0.2
    # a full list: both agree
    assert precision_at_n(REC, TEST, n=5, denominator="n") == precision_at_n(REC, TEST, n=5)


def test_average_precision_denominators_by_hand():
    # hits at 1 and 3: P@1 = 1, P@3 = 2/3, sum 5/3
    assert average_precision(REC, TEST, n=5) == pytest.approx((5 / 3) / 3)  # min(5, 3) = 3
    assert average_precision(REC, TEST, n=5, denominator="relevant") == pytest.approx((5 / 3) / 3)
    assert average_precision(REC, TEST, n=5, denominator="hits") == pytest.approx((5 / 3) / 2)
    # N = 2: only A is found; min(2, 3) = 2, |T| = 3, hits = 1
    assert average_precision(REC, TEST, n=2) == 0.5
    assert average_precision(REC, TEST, n=2, denominator="relevant") == pytest.approx(1 / 3)
    assert average_precision(REC, TEST, n=2, denominator="hits") == 1.0
    # nothing found: 0 whatever the denominator (also when the denominator is 0)
    for d in AP_DENOMINATORS:
        assert average_precision(["P", "Q"], ["Z"], n=2, denominator=d) == 0.0
        assert average_precision(["P", "Q"], [], n=2, denominator=d) == 0.0


def test_ap_breakdown_is_the_working():
    t = ap_breakdown(REC, TEST, n=4)
    assert t["position"].tolist() == [1, 2, 3, 4]
    assert t["item"].tolist() == ["A", "B", "C", "D"]
    assert t["hits"].tolist() == [1, 1, 2, 2]
    assert t["precision"].tolist() == pytest.approx([1, 1 / 2, 2 / 3, 2 / 4])
    assert math.fsum(t["term"]) == pytest.approx(1 + 2 / 3)


def test_reciprocal_rank_first_hit():
    assert first_hit(REC, ["C", "E"]) == 3
    assert reciprocal_rank(REC, ["C", "E"]) == 1 / 3
    assert first_hit(REC, ["E"], n=4) is None
    assert reciprocal_rank(REC, ["E"], n=4) == 0.0


def test_leave_one_out_ndcg_formula_15():
    # log 2 / log(j + 1) at j = 1..5, and 0 when the held-out item is outside the top N
    for j, item in enumerate(REC, start=1):
        value, pos = loo_ndcg(REC, item)
        assert pos == j
        assert value == pytest.approx(math.log(2) / math.log(j + 1), rel=1e-15)
        # the same number as full NDCG with binary gains and an ideal list holding just that item
        assert value == pytest.approx(ndcg(hits(REC, [item]).tolist(), pool=[1.0]))
        assert binary_ndcg(REC, [item]) == pytest.approx(value)
    assert loo_ndcg(REC, "E", n=4) == (0.0, None)
    assert loo_ndcg(REC, "Z") == (0.0, None)


def test_binary_ndcg_several_items_by_hand():
    # T = {A, C, X}, N = 3: DCG = 1 + 1/log2(4) = 1.5; IDCG@3 = 1 + 1/log2(3) + 1/2 (X counts in the ideal list)
    assert binary_ndcg(REC, TEST, n=3) == pytest.approx(1.5 / (1.5 + 1 / math.log2(3)))
    assert binary_ndcg(REC, [], n=3) == 0.0


def test_summary_pooled_versus_mean_by_hand():
    runs = {"alice": (["A", "B", "C"], ["A"]), "bob": (["D", "E", "F"], ["F", "G", "H", "I"])}
    s = summary(runs, n=3)
    # pooled: hits 1 + 1 = 2, Σ|T| = 5, Σ|R| = 6
    assert (s["hits"], s["relevant"], s["recommended"]) == (2, 5, 6)
    assert s["recall"] == 2 / 5
    assert s["precision"] == 2 / 6
    assert s["f1"] == pytest.approx(2 * (1 / 3) * 0.4 / (1 / 3 + 0.4))
    # per-user average: recall (1 + 1/4) / 2, precision (1/3 + 1/3) / 2
    assert s["recall_mean"] == 0.625
    assert s["precision_mean"] == pytest.approx(1 / 3)
    # F1 per user: alice 2(1/3)(1)/(4/3) = 1/2, bob 2(1/3)(1/4)/(7/12) = 2/7
    assert s["f1_mean"] == pytest.approx((0.5 + 2 / 7) / 2)
    # AP (002): alice 1/min(3,1) = 1, bob (1/3)/min(3,4) = 1/9
    assert s["map"] == pytest.approx((1 + 1 / 9) / 2)
    # HR: both users have a hit; by items: 2 found of 5
    assert s["hr"] == 1.0
    assert summary(runs, n=3, hit_rate="items")["hr"] == 0.4
    # ARHR / MRR: (1/1 + 1/3) / 2
    assert s["arhr"] == pytest.approx(2 / 3)
    assert s["mrr"] == pytest.approx(2 / 3)
    # loo NDCG at the first hit: (1 + 1/log2(4)) / 2
    assert s["loo_ndcg_mean"] == pytest.approx(0.75)


def test_arhr_all_counts_every_hit():
    runs = {"u": (["A", "B", "C"], ["A", "C"])}
    assert summary(runs, n=3, arhr="first")["arhr"] == 1.0
    assert summary(runs, n=3, arhr="all")["arhr"] == pytest.approx(1 + 1 / 3)


def test_leave_one_out_data_all_readings_agree():
    # one held-out item per user: HR = hits/|U| and ARHR = (1/|U|) Σ 1/pos_i in every reading (002, 8-9)
    runs = {"u1": (["A", "B", "C"], ["B"]), "u2": (["D", "E", "F"], ["Z"]), "u3": (["G", "H", "I"], ["G"])}
    # hits: u1 at 2, u3 at 1 -> HR = 2/3, ARHR = (1/2 + 1) / 3 = 1/2
    for hr in HIT_RATES:
        assert summary(runs, n=3, hit_rate=hr)["hr"] == pytest.approx(2 / 3)
    for mode in ARHR_MODES:
        assert summary(runs, n=3, arhr=mode)["arhr"] == pytest.approx(0.5)


def test_precision_n_pooled_divides_by_users_times_n():
    runs = {"a": (["A"], ["A"]), "b": (["B", "C", "D"], ["D"])}
    s = summary(runs, n=3, precision_denominator="n")
    assert s["precision"] == 2 / 6  # trec_eval style: 2 users × N
    assert summary(runs, n=3)["precision"] == 2 / 4  # 002: Σ|R(u)| = 1 + 3


def test_per_user_table_columns():
    t = per_user({"a": (["A", "B"], ["B"]), "b": (["C", "D"], ["X"])}, n=2)
    assert t["user"].tolist() == ["a", "b"]
    assert t["hit_positions"].tolist() == [[2], []]
    assert t["first_hit"].iloc[0] == 2 and math.isnan(t["first_hit"].iloc[1])
    assert t["rr"].tolist() == [0.5, 0.0]


def test_as_runs_list_of_pairs_named():
    runs = as_runs([(["A"], ["A"]), (["B"], [])])
    assert [r[0] for r in runs] == ["u1", "u2"]


# --- bad input ----------------------------------------------------------------

@pytest.mark.parametrize("bad, where", [
    (["A", "B", "A"], "position 3"),
    (["A", "", "B"], "position 2"),
    (["A", True], "position 2"),
    (["A", 1.5], "position 2"),
])
def test_bad_items_named(bad, where):
    with pytest.raises(ValueError, match=where):
        as_items(bad)


def test_duplicate_message_names_both_positions():
    with pytest.raises(ValueError, match="position 3 is 'A', which already appears at position 1"):
        precision_at_n(["A", "B", "A"], ["A"])
    with pytest.raises(ValueError, match="relevant at position 2"):
        recall_at_n(["A"], ["Z", "Z"])


@pytest.mark.parametrize("n", [0, -1, 1.5, True, "3"])
def test_bad_n(n):
    with pytest.raises(ValueError, match="N"):
        precision_at_n(REC, TEST, n=n)
    with pytest.raises(ValueError, match="N"):
        summary({"u": (REC, TEST)}, n=n)


@pytest.mark.parametrize("func, kw, registry", [
    (precision_at_n, "denominator", PRECISION_DENOMINATORS),
    (average_precision, "denominator", AP_DENOMINATORS),
])
def test_unknown_choice_lists_registry(func, kw, registry):
    with pytest.raises(ValueError) as info:
        func(REC, TEST, **{kw: "nope"})
    for key in registry:
        assert repr(key) in str(info.value)


def test_unknown_summary_modes():
    with pytest.raises(ValueError, match="'users', 'items'"):
        summary({"u": (REC, TEST)}, hit_rate="x")
    with pytest.raises(ValueError, match="'first', 'all'"):
        summary({"u": (REC, TEST)}, arhr="x")


@pytest.mark.parametrize("runs", [{}, [], "abc", 5, {"u": (["A"],)}, {"u": "AB"}, {"u": (["A"], ["B"], ["C"])}])
def test_bad_runs(runs):
    with pytest.raises(ValueError):
        summary(runs)


def test_bad_items_container():
    with pytest.raises(ValueError, match="list of item ids"):
        hits("ABC", ["A"])
    with pytest.raises(ValueError, match="one-dimensional"):
        hits(np.array([["A"], ["B"]]), ["A"])


def test_f1_score_range():
    with pytest.raises(ValueError, match="precision"):
        f1_score(1.5, 0.5)
    with pytest.raises(ValueError, match="recall"):
        f1_score(0.5, "x")


# --- properties ---------------------------------------------------------------

items = st.lists(st.sampled_from("ABCDEFGHIJ"), unique=True, max_size=10)


@settings(max_examples=examples(200), deadline=None)
@given(rec=items, test=items, n=st.one_of(st.none(), st.integers(1, 12)))
def test_bounds_and_orderings(rec, test, n):
    p, r = precision_at_n(rec, test, n=n), recall_at_n(rec, test, n=n)
    assert 0 <= p <= 1 and 0 <= r <= 1
    assert 0 <= f1_at_n(rec, test, n=n) <= max(p, r) + 1e-15
    ap = {d: average_precision(rec, test, n=n, denominator=d) for d in AP_DENOMINATORS}
    assert all(0 <= v <= 1 + 1e-12 for v in ap.values())
    # hits <= min(N, |T|) <= |T|, so dividing by fewer gives more
    assert ap["hits"] >= ap["min_n_relevant"] - 1e-15 >= ap["relevant"] - 2e-15
    assert 0 <= binary_ndcg(rec, test, n=n) <= 1 + 1e-12
    assert reciprocal_rank(rec, test, n=n) >= (1.0 / n if n and first_hit(rec, test, n=n) else 0.0)


@settings(max_examples=examples(100), deadline=None)
@given(data=st.lists(st.tuples(items, items), min_size=1, max_size=6), n=st.integers(1, 8))
def test_summary_properties(data, n):
    s = summary(data, n=n)
    t = per_user(data, n=n)
    assert s["mrr"] == pytest.approx(s["arhr"])  # ARHR "first" = MRR@N
    assert s["arhr"] <= summary(data, n=n, arhr="all")["arhr"] + 1e-15
    assert s["map"] == pytest.approx(t["ap"].mean())
    # pooled recall is the per-user recall weighted by |T(u)|
    if t["relevant"].sum():
        assert s["recall"] == pytest.approx((t["recall"] * t["relevant"]).sum() / t["relevant"].sum())
    # when every user has the same |T(u)| > 0, pooled and mean recall agree
    if t["relevant"].nunique() == 1 and t["relevant"].iloc[0] > 0:
        assert s["recall"] == pytest.approx(s["recall_mean"])
    if summary(data, n=n, hit_rate="items")["relevant"]:
        assert summary(data, n=n, hit_rate="items")["hr"] == pytest.approx(s["recall"])


# --- cross-checks ---------------------------------------------------------------

def _random_query(rng: random.Random):
    universe = [f"d{i:02d}" for i in range(rng.randint(3, 25))]
    rec = rng.sample(universe, rng.randint(1, len(universe)))
    relevant = rng.sample(universe, rng.randint(1, len(universe)))
    judged_nonrel = [d for d in universe if d not in relevant and rng.random() < 0.5]
    return rec, relevant, judged_nonrel


def test_against_trec_eval_random_runs():
    rng = random.Random(2024)
    qrels, run, expected = {}, {}, {}
    for q in range(60):
        rec, relevant, nonrel = _random_query(rng)
        qid = f"q{q}"
        qrels[qid] = {**{d: 1 for d in relevant}, **{d: 0 for d in nonrel}}
        # distinct, decreasing scores so trec_eval's order is the list order
        run[qid] = {d: float(len(rec) - i) for i, d in enumerate(rec)}
        expected[qid] = (rec, relevant)
    measures = {"map", "P_5", "P_10", "recall_5", "recall_10", "map_cut_5", "map_cut_10", "recip_rank",
                "success_5", "ndcg_cut_5", "ndcg_cut_10"}
    got = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    for qid, (rec, relevant) in expected.items():
        m = got[qid]
        assert average_precision(rec, relevant, denominator="relevant") == pytest.approx(m["map"], abs=1e-12)
        for n in (5, 10):
            assert precision_at_n(rec, relevant, n=n, denominator="n") == pytest.approx(m[f"P_{n}"], abs=1e-12)
            assert recall_at_n(rec, relevant, n=n) == pytest.approx(m[f"recall_{n}"], abs=1e-12)
            assert average_precision(rec, relevant, n=n, denominator="relevant") == pytest.approx(
                m[f"map_cut_{n}"], abs=1e-12)
            assert binary_ndcg(rec, relevant, n=n) == pytest.approx(m[f"ndcg_cut_{n}"], abs=1e-12)
        assert reciprocal_rank(rec, relevant) == pytest.approx(m["recip_rank"], abs=1e-12)
        assert float(first_hit(rec, relevant, n=5) is not None) == m["success_5"]
    # MAP over users = trec_eval's mean of map
    runs = {qid: pair for qid, pair in expected.items()}
    assert summary(runs, ap_denominator="relevant")["map"] == pytest.approx(
        np.mean([got[q]["map"] for q in got]), abs=1e-12)
    assert summary(runs, n=5, hit_rate="users")["hr"] == pytest.approx(np.mean([got[q]["success_5"] for q in got]))


def test_against_sklearn_average_precision():
    # a full ranking by distinct scores, every relevant item retrieved: AP with |T| = sklearn's AP
    rng = np.random.default_rng(7)
    for _ in range(100):
        m = int(rng.integers(2, 40))
        scores = rng.permutation(m).astype(float)
        labels = rng.integers(0, 2, m)
        if labels.sum() == 0:
            continue
        order = np.argsort(-scores)
        rec = [int(i) for i in order]
        relevant = [int(i) for i in np.flatnonzero(labels)]
        expected = average_precision_score(labels, scores)
        assert average_precision(rec, relevant, denominator="relevant") == pytest.approx(expected, abs=1e-12)
        # with the whole list every relevant item is a hit, so all three denominators agree
        assert average_precision(rec, relevant, denominator="hits") == pytest.approx(expected, abs=1e-12)


# --- typed input ------------------------------------------------------------------

def test_parse_runs_round_trip_and_names():
    from metrics.other.topn import format_runs, parse_runs

    text = "alice: A B C | C X\nD, E | D\n\n# comment\nbob:|Q"
    runs = parse_runs(text)
    assert runs == {"alice": (["A", "B", "C"], ["C", "X"]), "u2": (["D", "E"], ["D"]), "bob": ([], ["Q"])}
    assert parse_runs(format_runs(runs)) == runs
    # full-width forms from a CJK keyboard are folded
    assert parse_runs("甲：Ａ，Ｂ ｜ Ｂ") == {"甲": (["A", "B"], ["B"])}


@pytest.mark.parametrize("text, kind, line", [
    ("a: A B A | A", "duplicate_item", 1),
    ("a: A | B B", "duplicate_item", 1),
    ("a: A | B\nb: A B", "missing_bar", 2),
    ("a: A | B | C", "extra_bar", 1),
    ("a: A | B\n\na: C | D", "duplicate_user", 3),
    ("", "empty", 0),
])
def test_parse_runs_errors(text, kind, line):
    from metrics.other.topn import RunsParseError, parse_runs

    with pytest.raises(RunsParseError) as info:
        parse_runs(text)
    assert info.value.kind == kind and info.value.line == line
    assert isinstance(info.value, ValueError)


def test_parse_runs_duplicate_item_details():
    from metrics.other.topn import RunsParseError, parse_runs

    with pytest.raises(RunsParseError) as info:
        parse_runs("a: A B | X Y X")
    e = info.value
    assert (e.token, e.side, e.first, e.position) == ("X", "test", 1, 3)
