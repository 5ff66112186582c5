"""Every measure trec_eval users rely on, and the ones it lacks, for all queries of a run at once.

The package, by what a newcomer looks for:

* :mod:`.lists` -- the ranked-lists model every measure reads (:class:`Lists`, built by the engine's
  ranker), the vector steps kernels are made of and the one ideal-ranking builder;
* one module per family of kernels: :mod:`.counts` (num_*), :mod:`.precision` (P, recall, the set
  measures, judged@k), :mod:`.ranks` (AP, bpref, infAP, interpolated precision, reciprocal rank),
  :mod:`.gain` (one DCG kernel: trec_eval's ndcg and ndcg_cut are its presets, the ``nDCG`` variants
  its parameters), :mod:`.user` (ERR, RBP), :mod:`.text` (relstring);
* :mod:`.table` -- :data:`MEASURES`, the typed :class:`Measure` of each (name as trec_eval spells it,
  typed parameters, help, source, summary, origin) and the sets :data:`NICKNAMES`;
* :mod:`.grammar` -- the ``-m`` grammar (:func:`parse_measures`, :func:`parse_variant`).

For trec_eval's measures the source is the file of trec_eval 9.0.8 (the version pytrec_eval-terrier
bundles) that computes it, e.g. ``m_ndcg_cut.c``; for the extras the paper.  A measure returns one row
of per-query values per printed name (``P_5``, ``P_10``, ...), computed for all queries at once with
numpy: sums run in rank order (``np.bincount`` accumulates in array order), as trec_eval's loops do, so
values agree to the last bit in all but the experimental gain measures (tested against pytrec_eval to
1e-9, and the printed output compared with trec_eval's).

A query's values, hand-derived: grades 2, not judged, 0, 1 in ranked order; the qrels judge four
documents (grades 2, 1, 0 and one more 1 that was not retrieved), so R = 3 relevant:

>>> lists = Lists.from_codes([[2, NONPOOL, 0, 1]], judged=[[2, 1, 0, 1]])
>>> [float(v) for v in evaluate_one(lists, "P.2")]          # 1 relevant in the top 2
[0.5]
>>> round(float(evaluate_one(lists, "map")[0]), 4)         # (1/1 + 2/4) / 3
0.5
>>> round(float(evaluate_one(lists, "recip_rank")[0]), 4)
1.0
"""
from .gain import VARIANT_MEASURE, DcgInput, ndcg_values, trec_input, variant_input
from .grammar import Requested, evaluate_one, measure_names, parse_measures, parse_variant, variant_names
from .lists import (
    INFAP_EPSILON,
    MIN_GEO_MEAN,
    NONPOOL,
    UNJUDGED,
    JudgedGrades,
    Lists,
    block_positions,
    effective_grades,
    ideal_ranking,
    trec_sort_gains,
)
from .table import MEASURES, NICKNAMES, Measure, Param

__all__ = [
    "INFAP_EPSILON",
    "MEASURES",
    "MIN_GEO_MEAN",
    "NICKNAMES",
    "NONPOOL",
    "UNJUDGED",
    "VARIANT_MEASURE",
    "DcgInput",
    "JudgedGrades",
    "Lists",
    "Measure",
    "Param",
    "Requested",
    "block_positions",
    "effective_grades",
    "evaluate_one",
    "ideal_ranking",
    "measure_names",
    "ndcg_values",
    "parse_measures",
    "parse_variant",
    "trec_input",
    "trec_sort_gains",
    "variant_input",
    "variant_names",
]
