"""Which library computes which NDCG: their conventions as data, evaluated by :mod:`metrics.ndcg`.

Each :class:`Library` records a library's gain, discount, log base, where its ideal
ranking comes from (``"list"``: the ranked items re-sorted; ``"judged"``: every judged
item of the query, retrieved or not), how it orders tied scores, and what it returns
when IDCG is 0.  :func:`evaluate_libraries` computes the value each would return, using
only :func:`metrics.ndcg.ndcg`, :func:`~metrics.ndcg.ndcg_from_scores` and
:func:`~metrics.ndcg.idcg`; none of these libraries is a runtime dependency
(``tests/metrics/test_libraries.py`` cross-checks the ones installable here).

>>> t = evaluate_libraries([3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6).set_index("key")
>>> round(float(t.loc["sklearn", "ndcg"]), 4), round(float(t.loc["trec_eval_ndcg_cut", "ndcg"]), 4)
(0.9608, 0.8184)
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations, product

import numpy as np
import pandas as pd

from .._validation import as_grades, as_scores, check_choice, check_k
from ..ndcg import dcg, idcg, ndcg, ndcg_from_scores
from ..registry import DISCOUNTS, GAINS, TIES, dcg_latex

__all__ = [
    "Library",
    "LIBRARIES",
    "IDCG_SOURCES",
    "VARIANTS",
    "VariantChoice",
    "library_pool",
    "evaluate_library",
    "evaluate_libraries",
    "tie_spread",
    "compare_rankings",
    "find_flip",
    "coincidences",
]

IDCG_SOURCES = {
    "list": "The ranked list itself, re-sorted by grade.",
    "judged": "Every judged item of the query, retrieved or not (the list's own plus the unretrieved ones).",
}


@dataclass(frozen=True)
class Library:
    key: str
    name: str
    call: str  # how it is called
    gain: str  # key of metrics.registry.GAINS
    discount: str  # key of metrics.registry.DISCOUNTS
    log_base: float
    idcg_source: str  # key of IDCG_SOURCES
    ties: str  # key of metrics.registry.TIES used to compute it
    ties_note: str  # what the library itself does with ties
    idcg_zero: str  # what it returns when IDCG is 0
    uses_k: bool  # False: always the whole list (trec_eval `ndcg`)
    notes: str
    checked_against: str = ""  # the installed package the tests compare with, if any

    def latex(self) -> str:
        return dcg_latex(self.gain, self.discount, self.log_base)


LIBRARIES: dict[str, Library] = {lib.key: lib for lib in [
    Library(
        "sklearn", "scikit-learn", "sklearn.metrics.ndcg_score(y_true, y_score, k=k)",
        "linear", "standard", 2.0, "list", "average",
        "Averaged over tied scores (ignore_ties=False, the default).",
        "0.0 for that sample.", True,
        "y_true values are the gains; only the scored items exist, so IDCG comes from them. "
        "Negative y_true is rejected.",
        checked_against="scikit-learn",
    ),
    Library(
        "torchmetrics", "torchmetrics", "torchmetrics.functional.retrieval_normalized_dcg(preds, target, top_k=k)",
        "linear", "standard", 2.0, "list", "average",
        "Averaged over tied scores (a port of scikit-learn's code).",
        "0.0 (the RetrievalNormalizedDCG class: set by empty_target_action).", True,
        "Same convention as scikit-learn.",
    ),
    Library(
        "trec_eval_ndcg", "trec_eval / pytrec_eval: ndcg", "trec_eval -m ndcg qrels run",
        "linear", "standard", 2.0, "judged", "trec_eval",
        "Sorted by score, then by docno, both descending (input order is ignored).",
        "0.0 for the query.", False,
        "No cutoff: DCG over the whole run, IDCG over every relevant judged document. "
        "A negative judgement counts as unjudged (gain 0).",
        checked_against="pytrec-eval-terrier",
    ),
    Library(
        "trec_eval_ndcg_cut", "trec_eval / pytrec_eval: ndcg_cut.k", "trec_eval -m ndcg_cut.k qrels run",
        "linear", "standard", 2.0, "judged", "trec_eval",
        "Sorted by score, then by docno, both descending.",
        "0.0 for the query.", True,
        "DCG and IDCG both cut at k; IDCG from every judged document, retrieved or not.",
        checked_against="pytrec-eval-terrier",
    ),
    Library(
        "ranx_ndcg", "ranx: ndcg", 'ranx.evaluate(qrels, run, "ndcg@k")',
        "linear", "standard", 2.0, "judged", "stable",
        "Tied scores keep the run's insertion order.",
        "0.0.", True,
        "IDCG from the qrels (every judged document).",
        checked_against="ranx",
    ),
    Library(
        "ranx_ndcg_burges", "ranx: ndcg_burges", 'ranx.evaluate(qrels, run, "ndcg_burges@k")',
        "exponential", "standard", 2.0, "judged", "stable",
        "Tied scores keep the run's insertion order.",
        "0.0.", True,
        "Burges et al. (2005): gain 2^rel - 1; IDCG from the qrels.",
        checked_against="ranx",
    ),
    Library(
        "tf_ranking", "TF-Ranking", "tfr.keras.metrics.NDCGMetric(topn=k)",
        "exponential", "standard", 2.0, "list", "average",
        "Ties are shuffled at random; the tie average shown is the expected value over those shuffles.",
        "0.0 (division guarded).", True,
        "gain_fn defaults to 2^label - 1; labels < 0 mark padding and are ignored.",
    ),
    Library(
        "recommenders_binary", "Microsoft Recommenders (score_type='binary', default)",
        "recommenders.evaluation.python_evaluation.ndcg_at_k(true, pred, k=k)",
        "binary", "standard", math.e, "judged", "stable",
        "Ranks by prediction; ties ranked in order of appearance (rank method 'first').",
        "0.0 when no recommended item is relevant.", True,
        "Default discfun_type='loge' (natural log, cancels in NDCG). Every item of rating_true counts as 1; "
        "here: every item of grade > 0.",
    ),
    Library(
        "recommenders_raw", "Microsoft Recommenders (score_type='raw')",
        "ndcg_at_k(true, pred, k=k, score_type='raw')",
        "linear", "standard", math.e, "judged", "stable",
        "Ties ranked in order of appearance.", "0.0 when no recommended item is relevant.", True,
        "The rating itself is the gain; IDCG from rating_true, top k.",
    ),
    Library(
        "recommenders_exp", "Microsoft Recommenders (score_type='exp')",
        "ndcg_at_k(true, pred, k=k, score_type='exp')",
        "exponential", "standard", math.e, "judged", "stable",
        "Ties ranked in order of appearance.", "0.0 when no recommended item is relevant.", True,
        "Gain 2^rating - 1; IDCG from rating_true, top k.",
    ),
    Library(
        "spark", "Spark MLlib RankingMetrics.ndcgAt(k)", "RankingMetrics(predictionAndLabels).ndcgAt(k)",
        "binary", "standard", math.e, "judged", "stable",
        "Takes an already ranked array: no scores, so no ties.",
        "0.0 with a logged warning.", True,
        "Binary when no relevance values are given: 1/ln(i+2) per hit; IDCG = min(|labels|, k) hits.",
    ),
    Library(
        "spark_graded", "Spark MLlib ndcgAt(k) with relevance values",
        "RankingMetrics(predictionAndLabelsWithRelevance).ndcgAt(k)",
        "exponential", "standard", math.e, "judged", "stable",
        "Takes an already ranked array: no scores, so no ties.",
        "0.0 with a logged warning.", True,
        "Gain 2^rel - 1. Its IDCG walks the labels in the order given: it is ideal only if the "
        "ground truth is passed sorted by relevance (assumed here).",
    ),
    Library(
        "recbole", "RecBole NDCG@k", "metrics: ['NDCG'], topk: [k]",
        "binary", "standard", 2.0, "judged", "stable",
        "torch.topk on the scores: the order of tied scores is not specified.",
        "Users with no positive test item are not evaluated.", True,
        "IDCG = min(number of positive test items, k) hits.",
    ),
]}


def library_pool(relevances, unretrieved=()) -> list[float]:
    """Grades of every judged item: the list's own plus the unretrieved ones."""
    rel = as_grades(relevances)
    extra = as_grades(list(unretrieved), name="unretrieved", allow_empty=True)
    return rel.tolist() + extra.tolist()


def evaluate_library(library, relevances, *, scores=None, docnos=None, unretrieved=(), k=None) -> dict:
    """DCG, IDCG and NDCG as ``library`` would compute them for one ranked list.

    ``relevances`` are grades in ranked order (or in any order, with ``scores``);
    ``unretrieved`` holds the grades of judged items missing from the list, which only
    libraries whose IDCG comes from every judged item see.  ``docnos`` name the items
    for trec_eval's tie order (default ``D1``, ``D2``, ...).

    >>> r = evaluate_library("trec_eval_ndcg", [3, 2, 3, 0, 1, 2], unretrieved=[3, 0])
    >>> round(r["idcg"], 4), round(r["ndcg"], 4)  # IDCG over all eight judged: 3,3,3,2,2,1,0,0
    (8.3841, 0.8184)
    """
    lib = library if isinstance(library, Library) else check_choice(library, LIBRARIES, name="library")
    k = check_k(k)
    rel = as_grades(relevances)
    pool = library_pool(rel, unretrieved) if lib.idcg_source == "judged" else None
    kk = k if lib.uses_k else None
    opts = {"gain": lib.gain, "discount": lib.discount, "log_base": lib.log_base}
    best = idcg(rel, k=kk, pool=pool, **opts)
    if scores is None:
        top = dcg(rel, k=kk, **opts)
        value = 0.0 if best == 0 else top / best
    else:
        sc = as_scores(scores, n=rel.size)
        names = list(docnos) if docnos is not None else [f"D{i}" for i in range(1, rel.size + 1)]
        value = ndcg_from_scores(rel, sc, k=kk, pool=pool, ties=lib.ties, docnos=names, **opts)
        top = value * best
    return {"key": lib.key, "dcg": top, "idcg": best, "ndcg": value, "k": kk}


def evaluate_libraries(relevances, *, scores=None, docnos=None, unretrieved=(), k=None,
                       libraries=None) -> pd.DataFrame:
    """One row per library: its conventions and the DCG / IDCG / NDCG it would return.

    Document 000's list: linear 6.8276 / 7.1411 (ideal 3,3,2,2,1); TF-Ranking's 2^rel - 1 gives
    (7 + 3/1.585 + 1/2 + 7/2.322 + 3/2.585) / (7 + 7/1.585 + 3/2 + 3/2.322 + 1/2.585) = 13.568 / 14.595:

    >>> t = evaluate_libraries([3, 2, 1, 3, 2]).set_index("key")
    >>> round(float(t.loc["sklearn", "ndcg"]), 4), round(float(t.loc["tf_ranking", "ndcg"]), 4)
    (0.9561, 0.9296)
    """
    rows = []
    for key in libraries or LIBRARIES:
        lib = check_choice(key, LIBRARIES, name="library")
        r = evaluate_library(lib, relevances, scores=scores, docnos=docnos, unretrieved=unretrieved, k=k)
        rows.append({"key": lib.key, "name": lib.name, "gain": lib.gain, "discount": lib.discount,
                     "log_base": lib.log_base, "idcg_source": lib.idcg_source, "ties": lib.ties,
                     "k": r["k"], "dcg": r["dcg"], "idcg": r["idcg"], "ndcg": r["ndcg"]})
    return pd.DataFrame(rows)


def tie_spread(relevances, scores, *, docnos=None, k=None, gain="linear", discount="standard", log_base=2,
               pool=None, rules=("average", "optimistic", "pessimistic", "trec_eval", "stable")) -> pd.DataFrame:
    """NDCG of a scored list under each tie rule, and the spread (max - min) they leave.

    Two items tie at the top; IDCG = 3 + 1/log2(3) = 3.6309.  Optimistic puts the grade-3 one
    first: (3 + 0 + 1/2) / 3.6309; pessimistic: (0 + 3/log2(3) + 1/2) / 3.6309:

    >>> t = tie_spread([0, 3, 1], [0.5, 0.5, 0.1], docnos=["a", "b", "c"]).set_index("ties")
    >>> round(float(t.loc["optimistic", "ndcg"]), 4), round(float(t.loc["pessimistic", "ndcg"]), 4)
    (0.9639, 0.659)
    >>> round(t.attrs["spread"], 4)
    0.3049
    """
    rel = as_grades(relevances)
    names = list(docnos) if docnos is not None else [f"D{i}" for i in range(1, rel.size + 1)]
    rows = []
    for rule in rules:
        tie = check_choice(rule, TIES, name="ties")
        rows.append({"ties": tie.key, "ndcg": ndcg_from_scores(
            rel, scores, k=k, gain=gain, discount=discount, log_base=log_base, pool=pool, ties=tie.key,
            docnos=names)})
    out = pd.DataFrame(rows)
    out.attrs["spread"] = float(out["ndcg"].max() - out["ndcg"].min())
    return out


# --------------------------------------------------------------------------- does the choice matter?
@dataclass(frozen=True)
class VariantChoice:
    key: str
    gain: str
    discount: str
    idcg_source: str
    log_base: float = 2.0


VARIANTS: dict[str, VariantChoice] = {
    f"{g}/{d}/{s}": VariantChoice(f"{g}/{d}/{s}", g, d, s)
    for g, d, s in product(GAINS, DISCOUNTS, IDCG_SOURCES)
}


def _variant_ndcg(v: VariantChoice, rel, pool, k) -> float:
    return ndcg(rel, k=k, gain=v.gain, discount=v.discount, log_base=v.log_base,
                pool=pool if v.idcg_source == "judged" else None)


def compare_rankings(a, b, *, pool=None, k=None, variants=None, libraries=None) -> pd.DataFrame:
    """NDCG of two rankings under every variant and library convention, and which one wins.

    ``a`` and ``b`` are grades in ranked order; ``pool`` holds the grades of every judged
    item (for IDCG source "judged"; None: the lists themselves).  ``winner`` is "a", "b" or "tie".

    Document 004: rec_sys_2 wins with graded gain, rec_sys_1 with binary gain (all five hit):

    >>> t = compare_rankings([3, 1, 2, 2, 1], [3, 3, 2, 0, 1], pool=[3, 3, 2, 2, 1, 1, 0], k=5)
    >>> t.set_index("variant").loc[["linear/standard/judged", "binary/standard/judged"], "winner"].tolist()
    ['b', 'a']
    """
    k = check_k(k)
    ra, rb = as_grades(a, name="a"), as_grades(b, name="b")
    pa = pb = None
    if pool is not None:
        pa = pb = as_grades(pool, name="pool").tolist()
    rows = []
    for key in variants or VARIANTS:
        v = check_choice(key, VARIANTS, name="variant")
        rows.append({"variant": v.key, "kind": "variant", "gain": v.gain, "discount": v.discount,
                     "idcg_source": v.idcg_source,
                     "ndcg_a": _variant_ndcg(v, ra, pa, k), "ndcg_b": _variant_ndcg(v, rb, pb, k)})
    for key in libraries if libraries is not None else LIBRARIES:
        lib = check_choice(key, LIBRARIES, name="library")
        unret_a = _unretrieved(ra, pa)
        unret_b = _unretrieved(rb, pb)
        rows.append({"variant": lib.key, "kind": "library", "gain": lib.gain, "discount": lib.discount,
                     "idcg_source": lib.idcg_source,
                     "ndcg_a": evaluate_library(lib, ra, unretrieved=unret_a, k=k)["ndcg"],
                     "ndcg_b": evaluate_library(lib, rb, unretrieved=unret_b, k=k)["ndcg"]})
    out = pd.DataFrame(rows)
    diff = out["ndcg_a"] - out["ndcg_b"]
    close = np.isclose(out["ndcg_a"], out["ndcg_b"], rtol=1e-12, atol=1e-12)
    out["winner"] = np.where(close, "tie", np.where(diff > 0, "a", "b"))
    return out


def _unretrieved(rel: np.ndarray, pool) -> list[float]:
    """The pool's grades left once the list's own are taken out (multiset difference)."""
    if pool is None:
        return []
    left = sorted(pool, reverse=True)
    for g in rel.tolist():
        if g in left:
            left.remove(g)
        elif g != 0:
            raise ValueError(f"grade {g:g} of the list is not in the pool; the pool must hold the list's own grades")
    return left


def find_flip(first: str, second: str, *, grades=(3, 2, 2, 1, 0), k=None):
    """Two orders of the same items whose winner under variant ``first`` loses under ``second``.

    Searches the distinct permutations of ``grades`` in a fixed order and returns the first
    pair ``(a, b)`` with ``a`` better under ``first`` and ``b`` better under ``second``,
    or None if no such pair exists.

    >>> a, b = find_flip("linear/standard/list", "exponential/standard/list")
    >>> ndcg(a) > ndcg(b), ndcg(a, gain="exponential") < ndcg(b, gain="exponential")
    (True, True)
    """
    v1 = check_choice(first, VARIANTS, name="variant")
    v2 = check_choice(second, VARIANTS, name="variant")
    k = check_k(k)
    base = as_grades(grades, name="grades").tolist()
    orders = sorted(set(permutations(base)), reverse=True)
    scored = [(o, _variant_ndcg(v1, list(o), None, k), _variant_ndcg(v2, list(o), None, k)) for o in orders]
    for (a, a1, a2), (b, b1, b2) in product(scored, repeat=2):
        if a1 - b1 > 1e-9 and b2 - a2 > 1e-9:
            return list(a), list(b)
    return None


def coincidences(n: int = 10, log_base: float = 2.0) -> dict:
    """Where the two discounts give the same weight, and where the two gains give the same gain.

    With b = 2 the Järvelin discount max(1, log2 i) and the standard log2(i + 1) agree only at
    rank 1; Järvelin gives ranks 1 and 2 the same weight.  Gains 2^rel - 1 and rel agree on
    grades 0 and 1 only, so binary grades make linear = exponential.

    >>> c = coincidences(6)
    >>> c["same_weight_positions"], c["jarvelin_equal_weight_positions"], c["same_gain_grades"]
    ([1], [1, 2], [0, 1])
    """
    from .._validation import check_log_base

    b = check_log_base(log_base)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a whole number >= 1, got {n!r}")
    positions = np.arange(1, int(n) + 1)
    std = DISCOUNTS["standard"].func(positions, b)
    jar = DISCOUNTS["jarvelin"].func(positions, b)
    grades = np.arange(0, 6, dtype=np.float64)
    lin, exp = GAINS["linear"].func(grades), GAINS["exponential"].func(grades)
    return {
        "same_weight_positions": positions[np.isclose(std, jar, rtol=1e-12, atol=0)].tolist(),
        "jarvelin_equal_weight_positions": positions[np.isclose(jar, jar[0], rtol=1e-12, atol=0)].tolist(),
        "same_gain_grades": [int(g) for g in grades[lin == exp]],
    }
