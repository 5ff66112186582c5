"""ROC, AUC and rank loss of document 001: hand-derived values, invariants, scikit-learn."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score, roc_curve

from metrics.other.roc import AUC_METHODS, as_roc_input, auc, pair_counts, rank_loss, rank_pairs, roc_points, roc_steps
from tests.conftest import examples

SCORES = [0.9, 0.8, 0.7, 0.6, 0.55, 0.4]
LABELS = [1, 1, 0, 1, 0, 0]


def test_steps_by_hand():
    # m+ = 3, m- = 3; sorted order is the input order.  Moves: up up right up right right
    t = roc_steps(SCORES, LABELS)
    assert t["move"].tolist() == ["start", "up", "up", "right", "up", "right", "right"]
    assert t["tp"].tolist() == [0, 1, 2, 2, 3, 3, 3]
    assert t["fp"].tolist() == [0, 0, 0, 1, 1, 2, 3]
    assert t["samples"].tolist() == [[], [1], [2], [3], [4], [5], [6]]
    # areas only at moves right: heights 2/3, 1, 1, each 1/3 wide -> 2/9 + 1/3 + 1/3 = 8/9
    assert t["area"].tolist() == pytest.approx([0, 0, 0, 2 / 9, 0, 1 / 3, 1 / 3])
    assert t["auc_so_far"].iloc[-1] == pytest.approx(8 / 9)
    # rank loss: the only wrong pair is (positive 0.6, negative 0.7): 1/9
    assert rank_loss(SCORES, LABELS) == pytest.approx(1 / 9)
    assert auc(SCORES, LABELS) == auc(SCORES, LABELS, method="rank_loss") == 8 / 9


def test_ties_are_a_diagonal_and_count_half():
    # positive and negative tie at 0.5: one diagonal step; that pair counts 1/2
    t = roc_steps([0.9, 0.5, 0.5, 0.1], [1, 1, 0, 0])
    assert t["move"].tolist() == ["start", "up", "diagonal", "right"]
    assert t["samples"].iloc[2] == [2, 3]
    c = pair_counts([0.9, 0.5, 0.5, 0.1], [1, 1, 0, 0])
    assert (c["correct"], c["wrong"], c["ties"]) == (3, 0, 1)
    # loss = (1/2) / 4; AUC = 7/8 both ways
    assert rank_loss([0.9, 0.5, 0.5, 0.1], [1, 1, 0, 0]) == 0.125
    assert auc([0.9, 0.5, 0.5, 0.1], [1, 1, 0, 0]) == 0.875


def test_all_tied_scores_is_chance():
    assert auc([0.3] * 4, [1, 0, 1, 0]) == 0.5
    assert roc_steps([0.3] * 4, [1, 0, 1, 0])["move"].tolist() == ["start", "diagonal"]


def test_perfect_and_reversed():
    assert auc([3, 2, 1], [1, 0, 0]) == 1.0
    assert auc([1, 2, 3], [1, 0, 0]) == 0.0
    assert rank_loss([1, 2, 3], [1, 0, 0]) == 1.0


def test_rank_pairs_table():
    t = rank_pairs(SCORES, LABELS)
    assert len(t) == 9
    assert t["loss"].sum() == 1.0
    wrong = t[t["outcome"] == "wrong"]
    assert wrong[["positive", "negative"]].values.tolist() == [[4, 3]]
    assert len(rank_pairs(SCORES, LABELS, limit=4)) == 4


def test_method_registry_names_in_error():
    with pytest.raises(ValueError) as info:
        auc(SCORES, LABELS, method="simpson")
    for key in AUC_METHODS:
        assert repr(key) in str(info.value)


@pytest.mark.parametrize("scores, labels, match", [
    ([0.1, 0.2], [1], "labels has 1 values but scores has 2"),
    ([0.1, 0.2], [1, 2], "labels at position 2 is 2.0; a label must be 0"),
    ([0.1, 0.2], [1, -1], "labels at position 2"),
    ([0.1, 0.2], [1, 0.5], "labels at position 2"),
    ([0.1, 0.2], [1, "a"], "labels at position 2"),
    ([0.1, "x"], [1, 0], "scores at position 2"),
    ([0.1, float("inf")], [1, 0], "scores at position 2"),
    ([0.1, 0.2], [1, 1], "no negative"),
    ([0.1, 0.2], [0, 0], "no positive"),
    ([], [], "empty"),
])
def test_bad_input(scores, labels, match):
    for f in (auc, rank_loss, roc_steps, roc_points, pair_counts, rank_pairs):
        with pytest.raises(ValueError, match=match):
            f(scores, labels)


def test_bad_limit():
    with pytest.raises(ValueError, match="limit"):
        rank_pairs(SCORES, LABELS, limit=0)


def test_labels_as_floats_accepted():
    assert as_roc_input([1, 2], [1.0, 0.0])[1].tolist() == [1, 0]


def _random_case(rng):
    m = int(rng.integers(2, 60))
    scores = rng.integers(0, int(rng.integers(2, 12)), m) / 4  # coarse grid: many ties
    labels = rng.integers(0, 2, m)
    labels[0], labels[1] = 1, 0
    return scores, labels


def test_against_sklearn_random():
    rng = np.random.default_rng(11)
    for _ in range(300):
        scores, labels = _random_case(rng)
        fpr, tpr, thr = roc_curve(labels, scores, drop_intermediate=False)
        a, b, c = roc_points(scores, labels)
        np.testing.assert_allclose(a, fpr, rtol=0, atol=1e-15)
        np.testing.assert_allclose(b, tpr, rtol=0, atol=1e-15)
        np.testing.assert_array_equal(c, thr)
        expected = roc_auc_score(labels, scores)
        assert auc(scores, labels) == pytest.approx(expected, abs=1e-12)
        # trapezoid area and 1 - rank loss: the same number exactly (integer numerators)
        assert auc(scores, labels) == auc(scores, labels, method="rank_loss")
        assert auc(scores, labels) + rank_loss(scores, labels) == pytest.approx(1.0, abs=1e-15)


@settings(max_examples=examples(150), deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 6), st.sampled_from([0, 1])), min_size=2, max_size=25))
def test_properties(data):
    scores = [s / 2 for s, _ in data]
    labels = [lab for _, lab in data]
    if len(set(labels)) < 2:
        with pytest.raises(ValueError):
            auc(scores, labels)
        return
    t = roc_steps(scores, labels)
    # monotone staircase from (0, 0) to (1, 1)
    assert (t["fpr"].diff().dropna() >= 0).all() and (t["tpr"].diff().dropna() >= 0).all()
    assert (t["fpr"].iloc[-1], t["tpr"].iloc[-1]) == (1.0, 1.0)
    assert t["auc_so_far"].iloc[-1] == pytest.approx(auc(scores, labels), abs=1e-15)
    # the pair table agrees with the counts
    assert rank_pairs(scores, labels)["loss"].sum() / (sum(labels) * (len(labels) - sum(labels))) == pytest.approx(
        rank_loss(scores, labels))
    # flipping the scores gives 1 - AUC
    assert auc([-s for s in scores], labels) == pytest.approx(1 - auc(scores, labels), abs=1e-15)


def test_parse_binary_labels():
    from metrics.other.roc import parse_binary_labels
    from metrics.parse import ParseError

    assert parse_binary_labels("1, 0 1.0 0.0") == [1, 0, 1, 0]
    with pytest.raises(ParseError) as info:
        parse_binary_labels("1 0 -1")
    assert (info.value.kind, info.value.token, info.value.position) == ("not_a_label", "-1", 3)
    with pytest.raises(ParseError) as info:
        parse_binary_labels("1 yes")
    assert (info.value.kind, info.value.position) == ("not_a_number", 2)


def test_numpy_inputs_take_the_fast_path_with_the_same_answers_and_messages():
    s, lab = np.array(SCORES), np.array(LABELS)
    assert auc(s, lab) == auc(SCORES, LABELS)
    with pytest.raises(ValueError, match="labels at position 1 is the boolean"):
        auc(s, lab.astype(bool))
    with pytest.raises(ValueError, match="scores at position 2"):
        auc(np.array([0.1, np.nan, 0.3, 0.2, 0.5, 0.6]), lab)
    with pytest.raises(ValueError, match="labels at position 3 is 2.0"):
        auc(s, np.array([1, 0, 2, 1, 0, 0]))
