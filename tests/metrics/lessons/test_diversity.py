"""The diversity lesson (metrics.lessons.diversity): hand-derived alpha-nDCG, an independent model of the
definition (Clarke et al., SIGIR 2008) written here from the paper, pyndeval itself (ndeval 4.5) on the same
documents, and properties: alpha = 0 is plain NDCG with grade = subtopics covered, no order beats the
exhaustive best, the greedy ideal is never above it, a student's misreading alpha^seen gives other numbers."""
from __future__ import annotations

import itertools
import math

import pyndeval
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.lessons.diversity import (
    alpha_ndcg,
    alpha_sweep,
    best_order,
    doc_names,
    greedy_table,
    novelty_table,
    plain_ndcg,
)
from tests.metrics.conftest import PROPERTY

subtopic_sets = st.lists(st.frozensets(st.sampled_from("abcd"), max_size=3), min_size=1, max_size=7)
missed_sets = st.lists(st.frozensets(st.sampled_from("abcde"), max_size=3), max_size=3)
alphas = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])


def model_dcg(order, alpha, k):
    """alpha-DCG@k from the paper: the gain of the document at rank i is sum over its subtopics s of
    (1 - alpha)^(documents above it covering s); discount log2(i + 1)."""
    total, seen = 0.0, {}
    for i, doc in enumerate(order[:k], start=1):
        total += sum((1 - alpha) ** seen.get(s, 0) for s in doc) / math.log2(i + 1)
        for s in doc:
            seen[s] = seen.get(s, 0) + 1
    return total


def model_greedy(pool, names, alpha):
    """ndeval's ideal, written from its description: the largest gain next, a tie to the id that sorts last."""
    left = [(n, d) for n, d in zip(names, pool) if d]
    out, seen = [], {}
    while left:
        best = max(left, key=lambda nd: (sum((1 - alpha) ** seen.get(s, 0) for s in nd[1]), nd[0]))
        out.append(best[1])
        left.remove(best)
        for s in best[1]:
            seen[s] = seen.get(s, 0) + 1
    return out


def test_hand_derived():
    # a, a, ab: gains 1, 0.5, 0.25 + 1; missed c.  alpha-DCG@3 = 1 + 0.5/log2 3 + 1.25/2
    v = alpha_ndcg([{"a"}, {"a"}, {"a", "b"}], [{"c"}], alpha=0.5, k=3)
    assert v["alpha_dcg"] == pytest.approx(1 + 0.5 / math.log2(3) + 1.25 / 2, rel=1e-12)
    # ideal: ab (2), c (1), a (0.5), a (0.25): greedy ties between the two a's go to D02 (sorts last)
    assert v["alpha_idcg"] == pytest.approx(2 + 1 / math.log2(3) + 0.5 / 2, rel=1e-12)
    assert v["alpha_ndcg"] == pytest.approx(v["alpha_dcg"] / v["alpha_idcg"], rel=1e-12)
    steps = greedy_table([{"a"}, {"a"}, {"a", "b"}], [{"c"}], alpha=0.5)
    assert steps["doc"].tolist() == ["D03", "D04", "D02", "D01"]
    assert steps["candidates"][1] == {"D01": 0.5, "D02": 0.5, "D04": 1.0}
    table = novelty_table([{"a"}, {"a"}, {"a", "b"}], alpha=0.5)
    assert table["seen"].tolist() == [{"a": 0}, {"a": 1}, {"a": 2, "b": 0}]
    assert doc_names(3, 1) == ["D01", "D02", "D03", "D04"]


def test_greedy_is_not_always_best():
    """A case ndeval's greedy misses (alpha = 1, k = 2): acd and abd tie at 3; the tie goes to abd (D03), after
    which every document adds one new subtopic at most; acd then be would have added two."""
    ranking = [{"a", "c", "d"}, {"d"}, {"a", "b", "d"}, {"b", "e"}]
    v = alpha_ndcg(ranking, [], alpha=1.0, k=2)
    order, best = best_order(ranking, [], alpha=1.0, k=2)
    assert best == pytest.approx(3 + 2 / math.log2(3)) and order == ["D01", "D04"]
    assert v["alpha_idcg"] == pytest.approx(3 + 1 / math.log2(3))
    assert greedy_table(ranking, [], alpha=1.0)["doc"].tolist()[:2] == ["D03", "D04"]


@PROPERTY
@given(ranking=subtopic_sets, missed=missed_sets, alpha=alphas, k=st.integers(1, 20))
def test_property_matches_the_model_and_pyndeval(ranking, missed, alpha, k):
    v = alpha_ndcg(ranking, missed, alpha=alpha, k=k)
    assert v["alpha_dcg"] == pytest.approx(model_dcg(ranking, alpha, k), rel=1e-12, abs=1e-15)
    names = doc_names(len(ranking), len(missed))
    ideal = model_greedy(ranking + missed, names, alpha)
    assert v["alpha_idcg"] == pytest.approx(model_dcg(ideal, alpha, k), rel=1e-12, abs=1e-15)
    # pyndeval on the same documents: subtopic qrels of every judged document, the ranking as a run
    qrels = [pyndeval.SubtopicQrel("1", s, n, 1) for n, d in zip(names, ranking + missed) for s in sorted(d)]
    qrels += [pyndeval.SubtopicQrel("1", "z", n, 0) for n, d in zip(names, ranking + missed) if not d]
    run = [pyndeval.ScoredDoc("1", n, float(100 - i)) for i, n in enumerate(names[: len(ranking)])]
    got = pyndeval.ndeval(qrels, run, [f"alpha-nDCG@{k}"], alpha=alpha)
    want = got.get("1", {}).get(f"alpha-nDCG@{k}", 0.0)
    assert v["alpha_ndcg"] == pytest.approx(want, rel=1e-9, abs=1e-12)


@PROPERTY
@given(ranking=subtopic_sets, missed=missed_sets, k=st.integers(1, 20))
def test_property_alpha_zero_is_plain_ndcg(ranking, missed, k):
    assert alpha_ndcg(ranking, missed, alpha=0.0, k=k)["alpha_ndcg"] == pytest.approx(
        plain_ndcg(ranking, missed, k=k), rel=1e-12, abs=1e-15)


@PROPERTY
@given(ranking=st.lists(st.frozensets(st.sampled_from("abcd"), max_size=3), min_size=1, max_size=5),
       missed=st.lists(st.frozensets(st.sampled_from("abcde"), max_size=3), max_size=3), alpha=alphas,
       k=st.integers(1, 6))
def test_property_best_order_bounds(ranking, missed, alpha, k):
    result = best_order(ranking, missed, alpha=alpha, k=k)
    assert result is not None
    order, best = result
    v = alpha_ndcg(ranking, missed, alpha=alpha, k=k)
    assert v["alpha_idcg"] <= best + 1e-12  # greedy never above the best
    assert v["alpha_dcg"] <= best + 1e-12   # nor the ranking itself
    pool = [d for d in ranking + missed if d]
    brute = max((model_dcg(list(p), alpha, k) for p in itertools.permutations(pool, min(k, len(pool)))),
                default=0.0)
    assert best == pytest.approx(brute, rel=1e-12, abs=1e-15)


def test_the_misreading_alpha_to_the_power_of_seen_gives_other_numbers():
    """A student's sheet made from the misconception "a repeat gains alpha^seen": at alpha = 0.25 a subtopic
    seen once gains 0.25 in the sheet but 0.75 here."""
    ranking = [{"a"}, {"a"}]
    sheet = 1 + 0.25 ** 1 / math.log2(3)  # the student's alpha-DCG@2
    right = 1 + 0.75 / math.log2(3)
    assert alpha_ndcg(ranking, [], alpha=0.25, k=2)["alpha_dcg"] == pytest.approx(right, rel=1e-12)
    assert not math.isclose(sheet, right)


def test_sweep_runs_from_plain_ndcg():
    ranking, missed = [{"a"}, {"a"}, {"b"}], [{"c"}]
    sweep = alpha_sweep(ranking, missed, k=3, steps=5)
    assert sweep["alpha_ndcg"].iloc[0] == pytest.approx(plain_ndcg(ranking, missed, k=3), rel=1e-12)
    assert sweep["alpha"].tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]


@pytest.mark.parametrize("kwargs, message", [
    (dict(alpha=1.5, k=3), "alpha must be between 0 and 1, got 1.5"),
    (dict(alpha=-0.1, k=3), "alpha"),
    (dict(alpha=0.5, k=0), "k"),
    (dict(alpha=0.5, k=21), "k"),
])
def test_bad_options_name_the_parameter(kwargs, message):
    with pytest.raises(ValueError, match=message):
        alpha_ndcg([{"a"}], [], **kwargs)


def test_too_many_documents_are_refused():
    with pytest.raises(ValueError, match="at most 20 documents"):
        alpha_ndcg([{"a"}] * 21, [], alpha=0.5, k=3)
