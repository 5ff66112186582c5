"""Ranking-evaluation metrics, exact and explained.  Pure numpy/pandas: never imports streamlit.

>>> import metrics
>>> round(metrics.ndcg([3, 2, 1, 3, 2], discount="jarvelin"), 4)
0.9194
"""
from .ndcg import (
    all_variants,
    breakdown,
    cg,
    dcg,
    ideal_ranking,
    idcg,
    ndcg,
    ndcg_from_scores,
    rank_by_scores,
)
from .parse import parse_grades, parse_labels
from .registry import DISCOUNTS, GAINS, TIES

__all__ = [
    "cg",
    "dcg",
    "idcg",
    "ndcg",
    "ndcg_from_scores",
    "breakdown",
    "all_variants",
    "ideal_ranking",
    "rank_by_scores",
    "parse_grades",
    "parse_labels",
    "GAINS",
    "DISCOUNTS",
    "TIES",
]
