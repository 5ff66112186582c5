"""ROC curve, AUC and the rank loss of document 001 (the "watermelon book" formulas).

Drawing the curve by hand, as document 001 suggests: sort the samples by score,
highest first, start at (0, 0) with the threshold above every score, then lower
the threshold to each score in turn.  Each positive that becomes "predicted
positive" moves the point up by 1/m⁺, each negative moves it right by 1/m⁻;
samples with the same score pass the threshold together, so a tie between a
positive and a negative is a diagonal step.

The area under that curve (trapezoids) equals 1 - ℓ_rank, where the rank loss
counts, over all m⁺ × m⁻ (positive, negative) pairs, the pairs ranked the wrong
way, a tie counting one half::

    ℓ_rank = 1/(m⁺ m⁻) Σ_{x⁺} Σ_{x⁻} ( I(f(x⁺) < f(x⁻)) + ½ I(f(x⁺) = f(x⁻)) )

Both are computed here from integer counts over the common denominator
2 m⁺ m⁻, so the two AUCs are equal exactly, not just to rounding.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .._numbers import as_reals
from .._validation import check_choice
from ..parse import ParseError, parse_numbers, split_tokens
from ..registry import Choice  # AUC methods: func(scores, labels) -> (numerator, denominator)
from .inputs import as_sequence

__all__ = ["parse_binary_labels", "AUC_METHODS", "as_roc_input", "roc_steps", "roc_points", "auc", "rank_loss",
           "pair_counts", "rank_pairs"]


def as_roc_input(scores, labels) -> tuple[np.ndarray, np.ndarray]:
    """Validate finite scores and 0/1 labels of equal length with both classes present.

    A ROC curve needs at least one positive and one negative: its axes are TP / m⁺ and FP / m⁻.

    Parameters
    ----------
    scores : sequence of float
        One finite score per sample (any sign); higher means "more likely positive".
    labels : sequence of {0, 1}
        One label per score, 1 for a positive sample (0.0 and 1.0 accepted; booleans refused).

    Returns
    -------
    tuple of numpy.ndarray
        ``(scores, labels)`` as float64 and int64 arrays.

    Raises
    ------
    ValueError
        If a list is empty, the lengths differ, a value is not a finite number, a label is not 0 or
        1, or a class is missing.

    Examples
    --------
    >>> as_roc_input([0.9, 0.1], [1, 0])[1].tolist()
    [1, 0]
    >>> as_roc_input([0.9, 0.1], [1, 2])
    Traceback (most recent call last):
    ...
    ValueError: labels at position 2 is 2.0; a label must be 0 (negative) or 1 (positive)
    """
    s_items = as_sequence(scores, "scores")
    l_items = as_sequence(labels, "labels")
    if not len(s_items):
        raise ValueError("scores is empty; give one score per sample")
    if len(l_items) != len(s_items):
        raise ValueError(f"labels has {len(l_items)} values but scores has {len(s_items)}; give one label per score")
    s = as_reals(s_items, "scores")
    raw = as_reals(l_items, "labels")
    bad = np.flatnonzero((raw != 0.0) & (raw != 1.0))
    if bad.size:
        i = int(bad[0]) + 1
        raise ValueError(f"labels at position {i} is {float(raw[i - 1])!r}; "
                         "a label must be 0 (negative) or 1 (positive)")
    lab = raw.astype(np.int64)
    n_pos = int(lab.sum())
    if n_pos == 0 or n_pos == lab.size:
        missing = "positive (1)" if n_pos == 0 else "negative (0)"
        raise ValueError(f"labels has no {missing}; the ROC curve and AUC need at least one positive and one negative")
    return s, lab


def parse_binary_labels(text: str) -> list[int]:
    """Read typed 0/1 labels; anything else is a :class:`~metrics.parse.ParseError` naming it.

    ``kind`` is "not_a_number" for a non-number and "not_a_label" for another number.

    Parameters
    ----------
    text : str
        Labels separated as in :func:`metrics.parse.split_tokens`.

    Returns
    -------
    list of int
        The labels, 0 or 1.

    Raises
    ------
    ParseError
        (a ValueError) naming the first bad token and its position.
    ValueError
        If the text is blank.

    Examples
    --------
    >>> parse_binary_labels("1 0, 1")
    [1, 0, 1]
    >>> parse_binary_labels("1 0 2")
    Traceback (most recent call last):
    ...
    metrics.parse.ParseError: '2' at position 3 is not a label; use 0 (negative) or 1 (positive)
    """
    values = parse_numbers(text)
    out = []
    for i, (token, value) in enumerate(zip(split_tokens(text), values), start=1):
        if value not in (0.0, 1.0):
            raise ParseError(f"'{token[:20]}' at position {i} is not a label; use 0 (negative) or 1 (positive)",
                             token=token, position=i, kind="not_a_label")
        out.append(int(value))
    return out


def pair_counts(scores, labels) -> dict:
    """Counts over all (positive, negative) pairs: ``correct`` (f⁺ > f⁻), ``wrong`` (f⁺ < f⁻), ``ties``.

    Sorting-based, O(m log m), so it works for large inputs.

    Parameters
    ----------
    scores, labels
        As for :func:`as_roc_input`.

    Returns
    -------
    dict
        ``positives`` m⁺, ``negatives`` m⁻, ``pairs`` m⁺ × m⁻, and ``correct`` + ``wrong`` +
        ``ties`` = ``pairs``.

    Raises
    ------
    ValueError
        As for :func:`as_roc_input`.

    Examples
    --------
    Positives 0.9 and 0.4, negatives 0.4 and 0.2: 0.9 beats both, 0.4 beats 0.2 and ties 0.4:

    >>> pair_counts([0.9, 0.4, 0.4, 0.2], [1, 1, 0, 0])
    {'positives': 2, 'negatives': 2, 'pairs': 4, 'correct': 3, 'wrong': 0, 'ties': 1}
    """
    s, lab = as_roc_input(scores, labels)
    pos, neg = np.sort(s[lab == 1]), np.sort(s[lab == 0])
    below = np.searchsorted(neg, pos, side="left")     # negatives strictly below each positive
    not_above = np.searchsorted(neg, pos, side="right")  # negatives below or equal
    correct = int(below.sum())
    ties = int((not_above - below).sum())
    pairs = pos.size * neg.size
    return {"positives": int(pos.size), "negatives": int(neg.size), "pairs": int(pairs),
            "correct": correct, "wrong": int(pairs - correct - ties), "ties": ties}


def roc_steps(scores, labels) -> pd.DataFrame:
    """The ROC curve built one threshold at a time: the source of the step-by-step slider.

    Row 0 is the start, threshold +inf and point (0, 0).  Row j lowers the
    threshold to the j-th highest distinct score; every sample with score >=
    threshold is predicted positive.  Columns: ``step``, ``threshold``,
    ``samples`` (1-based input positions passing at this step), ``new_pos``,
    ``new_neg``, ``tp``, ``fp``, ``tpr``, ``fpr``, ``move`` ("start", "up",
    "right" or "diagonal"), ``area`` (the trapezoid added) and ``auc_so_far``.

    Scores 0.9 (pos), 0.7 (neg), 0.6 (pos), 0.2 (neg), so m⁺ = m⁻ = 2: up, right,
    up, right.  Only the moves right add area: at height 1/2 (width 1/2, area 0.25)
    and at height 1 (width 1/2, area 0.5), so AUC = 0.75.

    Parameters
    ----------
    scores, labels
        As for :func:`as_roc_input`.

    Returns
    -------
    pandas.DataFrame
        One row per distinct score plus the start row, columns as above.

    Raises
    ------
    ValueError
        As for :func:`as_roc_input`.

    References
    ----------
    .. [1] Zhou Zhihua, *Machine Learning* ("the watermelon book"), Tsinghua University Press 2016,
       section 2.3.3 (ROC, AUC and the rank loss).
    .. [2] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27(8),
       861-874, 2006.

    Examples
    --------
    >>> t = roc_steps([0.9, 0.7, 0.6, 0.2], [1, 0, 1, 0])
    >>> t["move"].tolist()
    ['start', 'up', 'right', 'up', 'right']
    >>> t[["fpr", "tpr"]].values.tolist()
    [[0.0, 0.0], [0.0, 0.5], [0.5, 0.5], [0.5, 1.0], [1.0, 1.0]]
    >>> float(t["auc_so_far"].iloc[-1])
    0.75
    """
    s, lab = as_roc_input(scores, labels)
    m_pos, m_neg = int(lab.sum()), int(lab.size - lab.sum())
    order = np.argsort(-s, kind="stable")
    rows = [{"step": 0, "threshold": math.inf, "samples": [], "new_pos": 0, "new_neg": 0, "tp": 0, "fp": 0,
             "tpr": 0.0, "fpr": 0.0, "move": "start", "area": 0.0, "auc_so_far": 0.0}]
    tp = fp = 0
    twice_area = 0  # in units of 1 / (m_pos * m_neg)
    start = 0
    while start < order.size:
        end = start
        while end < order.size and s[order[end]] == s[order[start]]:
            end += 1
        group = order[start:end]
        new_pos = int(lab[group].sum())
        new_neg = int(group.size - new_pos)
        step_area = new_neg * (2 * tp + new_pos)  # Δfp × (tp_before + tp_after), twice the trapezoid
        tp, fp = tp + new_pos, fp + new_neg
        twice_area += step_area
        move = "diagonal" if new_pos and new_neg else ("up" if new_pos else "right")
        rows.append({"step": len(rows), "threshold": float(s[order[start]]),
                     "samples": sorted(int(i) + 1 for i in group), "new_pos": new_pos, "new_neg": new_neg,
                     "tp": tp, "fp": fp, "tpr": tp / m_pos, "fpr": fp / m_neg, "move": move,
                     "area": step_area / (2 * m_pos * m_neg), "auc_so_far": twice_area / (2 * m_pos * m_neg)})
        start = end
    return pd.DataFrame(rows)


def roc_points(scores, labels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fpr, tpr, thresholds)`` at every distinct score, starting from (0, 0) at +inf.

    The same points as ``sklearn.metrics.roc_curve(labels, scores, drop_intermediate=False)``.

    Parameters
    ----------
    scores, labels
        As for :func:`as_roc_input`.

    Returns
    -------
    tuple of three numpy.ndarray
        False positive rates, true positive rates and thresholds, one per point.

    Raises
    ------
    ValueError
        As for :func:`as_roc_input`.

    See Also
    --------
    roc_steps : the same points with the moves and areas.
    sklearn.metrics.roc_curve : scikit-learn's version.

    Examples
    --------
    The tied 0.8 pair (one positive, one negative) passes together: a diagonal step to (1/2, 1):

    >>> fpr, tpr, thr = roc_points([0.8, 0.8, 0.3], [1, 0, 0])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.5, 1.0], [0.0, 1.0, 1.0], [inf, 0.8, 0.3])
    """
    t = roc_steps(scores, labels)
    return t["fpr"].to_numpy(), t["tpr"].to_numpy(), t["threshold"].to_numpy()


def _trapezoid(s: np.ndarray, lab: np.ndarray) -> tuple[int, int]:
    order = np.argsort(-s, kind="stable")
    sorted_s, sorted_l = s[order], lab[order]
    starts = np.flatnonzero(np.r_[True, sorted_s[1:] != sorted_s[:-1]])
    pos_per_group = np.add.reduceat(sorted_l, starts)
    size = np.diff(np.r_[starts, s.size])
    neg_per_group = size - pos_per_group
    tp_after = np.cumsum(pos_per_group)
    tp_before = tp_after - pos_per_group
    twice = int(np.sum(neg_per_group * (tp_before + tp_after), dtype=np.int64))
    m_pos = int(lab.sum())
    return twice, 2 * m_pos * (lab.size - m_pos)


def _from_rank_loss(s: np.ndarray, lab: np.ndarray) -> tuple[int, int]:
    c = pair_counts(s, lab)
    return 2 * c["pairs"] - 2 * c["wrong"] - c["ties"], 2 * c["pairs"]


AUC_METHODS: dict[str, Choice] = {
    "trapezoid": Choice(
                     "trapezoid",
                     "As the area under the curve (trapezoids)",
                     "Add up the trapezoids between consecutive ROC points (x = FPR, y = TPR).",
                     latex="\\begin{aligned}\\mathrm{AUC} &= \\frac{1}{2} \\sum_{i=1}^{m-1} (x_{i+1} - x_{i}) \\\\ "
        "&\\qquad \\times (y_{i} + y_{i+1})\\end{aligned}",
                     func=_trapezoid,
                 ),
    "rank_loss": Choice(
                     "rank_loss",
                     "As 1 minus the rank loss (pairs)",
                     "Count the (positive, negative) pairs ranked the wrong way, a tie counting one half.",
                     latex="\\begin{aligned}\\mathrm{AUC} &= 1 - \\ell_{rank} \\\\ "
        "\\ell_{rank} &= \\frac{1}{m^{+} m^{-}} \\sum_{x^{+} \\in D^{+}} \\sum_{x^{-} \\in D^{-}} c \\\\ "
        "c &= \\mathbb{I}(f(x^{+}) < f(x^{-})) \\\\ "
        "&\\quad + \\tfrac{1}{2} \\mathbb{I}(f(x^{+}) = f(x^{-}))\\end{aligned}",
                     func=_from_rank_loss,
                 ),
}


def auc(scores, labels, *, method="trapezoid") -> float:
    """Area under the ROC curve, by trapezoids or as 1 - rank loss (the same number).

    Parameters
    ----------
    scores : sequence of float
        Higher means "more likely positive".
    labels : sequence of {0, 1}
        1 for a positive sample.
    method : {"trapezoid", "rank_loss"}, default "trapezoid"
        See :data:`AUC_METHODS`.

    Returns
    -------
    float
        AUC in [0, 1]: the chance that a random positive scores above a random negative, a tie
        counting one half.  Both methods compute the same fraction of integers, so they agree exactly.

    Raises
    ------
    ValueError
        As for :func:`as_roc_input`, or for an unknown method.

    See Also
    --------
    rank_loss : 1 - AUC.
    sklearn.metrics.roc_auc_score : scikit-learn's AUC.

    References
    ----------
    .. [1] Zhou Zhihua, *Machine Learning* ("the watermelon book"), Tsinghua University Press 2016,
       section 2.3.3 (ROC, AUC and the rank loss).
    .. [2] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27(8),
       861-874, 2006.

    Examples
    --------
    Pairs (0.9, 0.4), (0.9, 0.2), (0.4, 0.4) tie, (0.4, 0.2): one tie in 4 pairs,
    loss = (0 + 1/2) / 4 = 1/8, AUC = 7/8:

    >>> auc([0.9, 0.4, 0.4, 0.2], [1, 1, 0, 0])
    0.875
    >>> auc([0.9, 0.4, 0.4, 0.2], [1, 1, 0, 0], method="rank_loss")
    0.875
    """
    m = check_choice(method, AUC_METHODS, name="AUC method")
    s, lab = as_roc_input(scores, labels)
    num, den = m.func(s, lab)
    return num / den


def rank_loss(scores, labels) -> float:
    """ℓ_rank of document 001: the share of (positive, negative) pairs ranked wrongly, a tie = 1/2.

    Parameters
    ----------
    scores, labels
        As for :func:`as_roc_input`.

    Returns
    -------
    float
        (wrong + ties / 2) / pairs, in [0, 1]; equal to 1 - :func:`auc`.

    Raises
    ------
    ValueError
        As for :func:`as_roc_input`.

    References
    ----------
    .. [1] Zhou Zhihua, *Machine Learning* ("the watermelon book"), Tsinghua University Press 2016,
       section 2.3.3 (ROC, AUC and the rank loss).
    .. [2] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27(8),
       861-874, 2006.

    Examples
    --------
    4 pairs, none wrong, one tie: (0 + 1/2) / 4 = 1/8.

    >>> rank_loss([0.9, 0.4, 0.4, 0.2], [1, 1, 0, 0])
    0.125
    """
    c = pair_counts(scores, labels)
    return (2 * c["wrong"] + c["ties"]) / (2 * c["pairs"])


def rank_pairs(scores, labels, *, limit=None) -> pd.DataFrame:
    """Every (positive, negative) pair with its loss 0, ½ or 1: the table behind :func:`rank_loss`.

    Columns ``positive`` and ``negative`` (1-based input positions),
    ``score_pos``, ``score_neg``, ``outcome`` ("correct", "tie", "wrong"), ``loss``.
    ``limit`` (an int >= 1) keeps only the first rows, for display.

    Parameters
    ----------
    scores, labels
        As for :func:`as_roc_input`.
    limit : int >= 1, optional
        At most this many rows (positives in input order, each against every negative).  Default
        ``None``: all m⁺ × m⁻ pairs.

    Returns
    -------
    pandas.DataFrame
        One row per pair, columns as above.

    Raises
    ------
    ValueError
        As for :func:`as_roc_input`, or if ``limit`` is not a whole number >= 1.

    Examples
    --------
    Positives at 1 (0.9) and 3 (0.4), the negative at 2 (0.4): 0.9 > 0.4 is correct, 0.4 = 0.4 a tie:

    >>> t = rank_pairs([0.9, 0.4, 0.4], [1, 0, 1])
    >>> t[["positive", "negative", "outcome"]].values.tolist(), t["loss"].tolist()
    ([[1, 2, 'correct'], [3, 2, 'tie']], [0.0, 0.5])
    """
    s, lab = as_roc_input(scores, labels)
    if limit is not None:
        from .._validation import check_k

        limit = check_k(limit, name="limit")
    pos_idx, neg_idx = np.flatnonzero(lab == 1), np.flatnonzero(lab == 0)
    rows = []
    for i in pos_idx:
        for j in neg_idx:
            if limit is not None and len(rows) >= limit:
                break
            sp, sn = float(s[i]), float(s[j])
            outcome = "correct" if sp > sn else ("tie" if sp == sn else "wrong")
            rows.append({"positive": int(i) + 1, "negative": int(j) + 1, "score_pos": sp, "score_neg": sn,
                         "outcome": outcome, "loss": {"correct": 0.0, "tie": 0.5, "wrong": 1.0}[outcome]})
    return pd.DataFrame(rows, columns=["positive", "negative", "score_pos", "score_neg", "outcome", "loss"])
