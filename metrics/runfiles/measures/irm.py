"""ir_measures' measures (version 0.4.3), each computed as the provider ir_measures uses by default for it.

:data:`IR_MEASURES` maps ir_measures' names (``nDCG``, ``P``, ``AP``, ``RR``, ``alpha_nDCG``, ...; its
aliases in :data:`ALIASES`) to a typed :class:`~.table.Measure` whose :class:`~.table.Param`\\ s are
ir_measures' own.  :func:`plan` turns a name and its parameters into a :class:`Plan`: which provider
ir_measures would use (the first of its default pipeline -- pytrec_eval, cwl_eval, compat, pyndeval,
judged, msmarco, gdeval, accuracy, ranx -- that supports those parameters), the kernel of this
package that gives that provider's values, the tie order it ranks with, and how it averages.

What every provider shares (ir_measures' ``Evaluator``): the queries of the qrels are evaluated, a
query the run lacks counts the measure's default, 0, in the mean (``"qrels_mean"``: trec_eval's
``-c``), a run query the qrels lack is left out.  Two exceptions: Accuracy's provider reports only the
queries where it is defined and averages those (``"defined_mean"``), and the counts (NumQ, NumRel,
NumRet) are sums.  Grades are whole numbers (ir_measures reads them as ``int``).

Where providers disagree about one name, the names say which: ``nDCG@10`` is pytrec_eval's (trec_eval's
``ndcg_cut``: gain = grade), ``nDCG(dcg='exp-log2')@10`` gdeval's (``2^grade - 1``, natural log, ties by
document id descending, grades above 4 refused by gdeval), ``ERR@10`` gdeval's (top grade 4), and the
extras ``err.10`` (top grade from the qrels) and ``nDCG(gain=...,ties=...)@10`` are this project's.

>>> p = plan("P", {"cutoff": 5, "rel": 2})
>>> p.provider, p.summary
('pytrec_eval', 'qrels_mean')
>>> plan("nDCG", {"cutoff": 10, "dcg": "exp-log2"}).provider
'gdeval'
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from .cwl import bpm, insq, inst, nerr, rbp, sdcg
from .diversity import DEPTH as DIVERSITY_DEPTH
from .diversity import diversity
from .gain import DcgInput, ndcg_values, trec_input, variant_input
from .lists import DOCNO_ASCENDING, NONPOOL, UNJUDGED, Lists, ideal_ranking
from .precision import KERNELS as PRECISION
from .precision import judgment_rate
from .ranks import KERNELS as RANKS
from .ranks import accuracy, reciprocal_rank_at
from .table import Measure, Param
from .user import compatibility, expected_reciprocal_rank

__all__ = ["ALIASES", "IR_MEASURES", "PROVIDERS", "Plan", "plan"]

#: ir_measures' providers, in the order of its default pipeline, and what each is.
PROVIDERS = {
    "pytrec_eval": "pytrec_eval-terrier (trec_eval 9.0.8's C code): trec_eval's measures and ranking",
    "cwl_eval": "cwl_eval 1.0.12 (the C/W/L framework): user models, 1000 ranks, ties in file order",
    "compat": "ir_measures' compat provider: rank-biased overlap with an ideal ranking",
    "pyndeval": "pyndeval 0.0.8 (ndeval 4.5, TREC Web track): diversity measures to depth 20",
    "judged": "ir_measures' judged provider: the share of the top k the qrels judge",
    "msmarco": "MS MARCO's msmarco_eval.py: reciprocal rank within a cutoff",
    "gdeval": "gdeval.pl 1.2a (TREC Web track): exponential-gain nDCG and ERR, grades 0 to 4",
    "accuracy": "ir_measures' accuracy provider: relevant-above-non-relevant probability",
    "ranx": "ranx 0.3: exponential-gain nDCG over the whole list",
}


@dataclass(frozen=True)
class Plan:
    """How one ir_measures measure is computed here.

    ``provider`` names the one ir_measures uses (:data:`PROVIDERS`); ``kernel(lists)`` gives its
    per-query values; ``ties`` the tie orders the kernel asks of the ranker; ``summary`` how the "all"
    line averages (:data:`~.table.SUMMARIES`); ``scores``: the kernel reads each document's score.
    """

    provider: str
    kernel: Callable[[Lists], np.ndarray]
    ties: tuple[str, ...] = ()
    summary: str = "qrels_mean"
    scores: bool = False


_NO = object()  # "not given"


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _p(name: str, dtype: type, desc: str, default=None, required: bool = False, choices=None) -> Param:
    return Param(name, dtype, desc, default, required, None if choices is None else tuple(choices))


_CUTOFF = _p("cutoff", int, "ranking cutoff threshold")
_CUTOFF_REQ = _p("cutoff", int, "ranking cutoff threshold", required=True)
_REL = _p("rel", int, "minimum relevance score to be considered relevant (inclusive)", 1)
_JUDGED = _p("judged_only", bool, "ignore returned documents that do not have relevance judgments", False)
_MIN = _p("min_rel", int, "minimum relevance score", 0)
_MAX = _p("max_rel", int, "maximum relevance score", required=True)
_T = _p("T", float, "total desired gain (normalized)", 1.0)
_ALPHA = _p("alpha", float, "Redundancy intolerance", 0.5)
_BETA = _p("beta", float, "Patience", 0.5)


def _pytrec(kernel_name: str, family: Mapping, *, at=None) -> Callable:
    """A trec_eval kernel at the measure's rel and judged_only (what pytrec_eval computes)."""
    def make(a: dict) -> Plan:
        params = at(a) if at else None
        kernel = family[kernel_name]
        return Plan("pytrec_eval", lambda lists: kernel(
            lists.view(level=a.get("rel", 1), judged_only=a.get("judged_only", False)), params)[0])
    return make


def _ndcg(a: dict) -> Plan:
    dcg, cutoff, gains, judged = a["dcg"], a.get("cutoff"), a.get("gains"), a["judged_only"]
    if dcg == "log2":
        def kernel(lists):
            lists = lists.view(judged_only=judged)
            source = trec_input(lists) if gains is None else _mapped_input(lists, gains)
            return ndcg_values(lists, source, cutoffs=(cutoff,))[0]
        return Plan("pytrec_eval", kernel)
    if gains is not None or judged:
        raise ValueError("ir_measures 0.4.3 has no provider for nDCG(dcg='exp-log2') with gains or judged_only")
    if cutoff is not None:  # gdeval: 2^g - 1, ties by docno descending (as trec_eval), ideal from the grades > 0
        return Plan("gdeval", lambda lists: ndcg_values(lists, trec_input(lists, gain="exponential"),
                                                        cutoffs=(cutoff,))[0])
    # ranx's ndcg_burges over the whole list: ranx's own sort of tied scores
    return Plan("ranx", lambda lists: ndcg_values(lists, variant_input(lists, gain="exponential", level=1.0),
                                                  ties="ranx")[0], ties=("ranx",))


def _mapped_input(lists: Lists, gains: Mapping[int, int]) -> DcgInput:
    """pytrec_eval's nDCG with ``gains``: ir_measures maps every qrels grade through the dict before
    trec_eval reads the qrels, so trec_eval's plain ndcg runs on the mapped grades."""
    key = tuple(sorted(gains.items()))

    def build():
        judged = lists.judged
        whole = np.trunc(judged.grade).astype(np.int64)
        mapped = np.array([gains.get(int(g), int(g)) for g in whole.tolist()], dtype=np.float64)
        keep = mapped > 0
        ideal = ideal_ranking(judged.q[keep], mapped[keep])
        if lists.qrow is not None:
            row_grade = mapped[lists.qrow]
        else:  # hand-built lists: the codes are the grades (negative ones are lost: -1)
            code = np.where(lists.code == UNJUDGED, -1, lists.code)
            row_grade = np.array([gains.get(int(g), int(g)) for g in code.tolist()], dtype=np.float64)
            row_grade[lists.code == NONPOOL] = 0.0
        g = np.where(row_grade > 0, row_grade, 0.0)
        rows = np.flatnonzero(g != 0)
        return rows, g[rows], ideal

    rows, g, ideal = lists.memo(("irm_gains", key), build)
    return DcgInput(("irm_gains", key), rows, g, ("irm_gains", key), ideal)


def _rr(a: dict) -> Plan:
    if a.get("cutoff") is None:
        return _pytrec("recip_rank", RANKS)(a)
    if a["judged_only"]:
        raise ValueError("ir_measures 0.4.3 has no provider for RR with a cutoff and judged_only=True")
    rel, cutoff = a["rel"], a["cutoff"]
    return Plan("msmarco", lambda lists: reciprocal_rank_at(lists.view(level=rel, ties=DOCNO_ASCENDING), cutoff),
                ties=(DOCNO_ASCENDING,))


def _ap(a: dict) -> Plan:
    if a.get("cutoff") is None:
        return _pytrec("map", RANKS)(a)
    return _pytrec("map_cut", RANKS, at=lambda a: (a["cutoff"],))(a)


def _num_ret(a: dict) -> Plan:
    if a.get("rel") is None:
        return Plan("pytrec_eval", lambda lists: lists.num_ret.astype(np.float64), summary="sum")
    rel = a["rel"]
    return Plan("pytrec_eval", lambda lists: lists.view(level=rel).num_rel_ret.astype(np.float64), summary="sum")


def _num_rel(a: dict) -> Plan:
    if a["rel"] != 1:
        raise ValueError("ir_measures 0.4.3 has no provider for NumRel with rel other than 1 (pytrec_eval's "
                         "num_rel does not take a relevance level)")
    return Plan("pytrec_eval", lambda lists: lists.view(level=1).num_rel.astype(np.float64), summary="sum")


def _set_p(a: dict) -> Plan:
    return _pytrec("set_relative_P" if a["relative"] else "set_P", PRECISION)(a)


def _accuracy(a: dict) -> Plan:
    rel, cutoff = a["rel"], a.get("cutoff")
    if rel < 1:
        raise ValueError(f"Accuracy's rel must be >= 1 here (documents outside the qrels would be relevant), "
                         f"got {rel}")
    return Plan("accuracy", lambda lists: accuracy(lists.view(level=rel, ties="stable"), cutoff), ties=("stable",),
                summary="defined_mean")


def _cwl(func: Callable, keys: tuple[str, ...]) -> Callable:
    def make(a: dict) -> Plan:
        if "max_rel" in a and a["min_rel"] >= a["max_rel"]:
            raise ValueError(f"min_rel must be below max_rel, got min_rel={a['min_rel']}, max_rel={a['max_rel']}")
        kw = {k: a[k] for k in keys}
        return Plan("cwl_eval", lambda lists: func(lists.view(ties="stable"), **kw), ties=("stable",))
    return make


def _rbp(a: dict) -> Plan:
    if a.get("cutoff") is not None:
        raise ValueError("ir_measures 0.4.3 has no provider for RBP with a cutoff")
    if a.get("rel") is None:
        raise ValueError("ir_measures 0.4.3 computes RBP only with rel given (cwl_eval's binary gains): "
                         "write RBP(rel=1)")
    return _cwl(rbp, ("p", "rel"))(a)


def _nerr(eq: int, keys: tuple[str, ...]) -> Callable:
    def func(lists, **kw):
        return nerr(lists, eq=eq, **kw)
    return _cwl(func, keys)


def _err(a: dict) -> Plan:
    cutoff = a["cutoff"]
    return Plan("gdeval", lambda lists: expected_reciprocal_rank(lists, (cutoff,), gmax=4.0)[0])


def _judged(a: dict) -> Plan:
    cutoff = a.get("cutoff")
    return Plan("judged", lambda lists: judgment_rate(lists.view(ties=DOCNO_ASCENDING), cutoff),
                ties=(DOCNO_ASCENDING,))


def _compat(a: dict) -> Plan:
    p, normalize = a["p"], a["normalize"]
    return Plan("compat", lambda lists: compatibility(lists.view(ties=DOCNO_ASCENDING), p=p, normalize=normalize),
                ties=(DOCNO_ASCENDING,), scores=True)


def _diversity(measure: str) -> Callable:
    def make(a: dict) -> Plan:
        cutoff = a.get("cutoff")
        if measure not in ("NRBP", "nNRBP", "AP_IA") and cutoff is None:
            raise ValueError(f"{measure} needs a cutoff: {measure}@20 (pyndeval evaluates to depth 20)")
        if cutoff is not None and cutoff > DIVERSITY_DEPTH:
            raise ValueError(f"{measure}'s cutoff must be at most {DIVERSITY_DEPTH} (ndeval's depth), got {cutoff}")
        for key in ("alpha", "beta"):
            if key in a and not 0.0 <= a[key] <= 1.0:
                raise ValueError(f"{key} must be between 0 and 1, got {a[key]!r}")
        kw = {"rel": a["rel"], "alpha": a.get("alpha", 0.5), "beta": a.get("beta", 0.5),
              "judged_only": a.get("judged_only", False)}
        return Plan("pyndeval", lambda lists: diversity(lists.view(ties=DOCNO_ASCENDING), measure=measure,
                                                        cutoff=cutoff, **kw), ties=(DOCNO_ASCENDING,))
    return make


def _irm(name: str, help: str, params: tuple[Param, ...], make: Callable, *, at: str = "cutoff") -> Measure:
    source = "ir_measures 0.4.3 " + name
    return Measure(name, help, source, _compute, params="irm", origin="ir_measures", parameters=params,
                   resolve=make, at=at)


def _compute(lists: Lists, the_plan: Plan) -> list[np.ndarray]:
    return [the_plan.kernel(lists)]


_DIV = (_CUTOFF, _REL, _JUDGED)
#: Every measure of ir_measures 0.4.3 by its name, with ir_measures' parameters.
IR_MEASURES: dict[str, Measure] = {m.name: m for m in [
    _irm("P", "Precision at k: relevant documents in the top k / k.", (_CUTOFF_REQ, _REL, _JUDGED),
         _pytrec("P", PRECISION, at=lambda a: (a["cutoff"],))),
    _irm("R", "Recall at k: relevant documents in the top k / all relevant.", (_CUTOFF_REQ, _REL, _JUDGED),
         _pytrec("recall", PRECISION, at=lambda a: (a["cutoff"],))),
    _irm("AP", "(Mean) average precision, optionally to a cutoff (trec_eval's map, map_cut).", (_CUTOFF, _REL, _JUDGED),
         _ap),
    _irm("RR", "(Mean) reciprocal rank of the first relevant document; with a cutoff, MS MARCO's MRR@k.",
         (_CUTOFF, _REL, _JUDGED), _rr),
    _irm("nDCG", "nDCG: trec_eval's (gain = grade) by default; dcg='exp-log2' gives gdeval's (2^grade - 1) at a "
                 "cutoff, ranx's without one; gains maps grades first.",
         (_CUTOFF, _p("dcg", str, "DCG formulation", "log2", choices=("log2", "exp-log2")),
          _p("gains", dict, "custom gain mapping (int-to-int)"), _JUDGED), _ndcg),
    _irm("Rprec", "Precision at R, the number of relevant documents.", (_REL, _JUDGED), _pytrec("Rprec", PRECISION)),
    _irm("Bpref", "Binary preference (judged relevant vs judged non-relevant ranks).", (_REL,),
         _pytrec("bpref", RANKS)),
    _irm("infAP", "Inferred AP (pooled-but-unjudged documents have grade -1).", (_REL,), _pytrec("infAP", RANKS)),
    _irm("Success", "1 when a relevant document is in the top k.", (_CUTOFF_REQ, _REL, _JUDGED),
         _pytrec("success", PRECISION, at=lambda a: (a["cutoff"],))),
    _irm("IPrec", "Interpolated precision at a recall level (@ gives the recall; trec_eval reads it to 2 decimals).",
         (_p("recall", float, "recall threshold", required=True), _REL, _JUDGED),
         _pytrec("iprec_at_recall", RANKS, at=lambda a: (float(f"{a['recall']:.2f}"),)), at="recall"),
    _irm("SetP", "Precision of the whole retrieved set (relative=True: over min(retrieved, R)).",
         (_REL, _p("relative", bool, "calculate the measure using the maximum possible SetP for the provided "
                                     "result size", False), _JUDGED), _set_p),
    _irm("SetR", "Recall of the whole retrieved set.", (_REL,), _pytrec("set_recall", PRECISION)),
    _irm("SetF", "Set F measure.", (_REL, _p("beta", float, "relative importance of R to P in the harmonic mean", 1.0),
                                    _JUDGED), _pytrec("set_F", PRECISION, at=lambda a: (float(a["beta"]),))),
    _irm("SetAP", "Set precision times set recall (trec_eval's set_map).", (_REL, _JUDGED),
         _pytrec("set_map", PRECISION)),
    _irm("NumQ", "The number of queries evaluated (a sum).", (), lambda a: Plan(
        "pytrec_eval", lambda lists: np.ones(lists.n), summary="sum")),
    _irm("NumRel", "The number of relevant documents in the qrels (a sum; rel=1 only).", (_REL,), _num_rel),
    _irm("NumRet", "The number of documents retrieved, or with rel the relevant ones (a sum).",
         (_p("rel", int, "minimum relevance score to be counted (inclusive), or all documents returned if "
                         "NOT_PROVIDED"),), _num_ret),
    _irm("Judged", "The share of the top k that the qrels judge (any grade; k larger than the list: the list).",
         (_CUTOFF,), _judged),
    _irm("Compat", "Compatibility: rank-biased overlap with an ideal ranking (Clarke et al., TOIS 2021).",
         (_p("p", float, "persistence", 0.95), _p("normalize", bool, "apply normalization for finite ideal rankings",
                                                  True)), _compat),
    _irm("Accuracy", "The probability that a relevant document is ranked above a non-relevant one (queries where "
                     "it is defined).", (_CUTOFF, _REL), _accuracy),
    _irm("RBP", "Rank-biased precision through cwl_eval (binary gains at rel; 1000 ranks).",
         (_CUTOFF, _p("p", float, "persistence", 0.8), _p("rel", int, "minimum relevance score to be considered "
                                                                      "relevant (inclusive)")), _rbp),
    _irm("BPM", "Bejeweled Player Model (static): mean gain until gain T or k documents.",
         (_CUTOFF_REQ, _T, _MIN, _MAX), _cwl(bpm, ("T", "cutoff", "min_rel", "max_rel"))),
    _irm("SDCG", "Scaled DCG: DCG@k over the DCG of k fully relevant documents (cwl_eval).",
         (_CUTOFF_REQ, _p("dcg", str, "DCG formulation", "log2", choices=("log2",)), _MIN, _MAX),
         _cwl(sdcg, ("cutoff", "min_rel", "max_rel"))),
    _irm("NERR8", "Not (but nearly) ERR, eq. 8: gain-based stopping truncated at k.", (_CUTOFF_REQ, _MIN, _MAX),
         _nerr(8, ("cutoff", "min_rel", "max_rel"))),
    _irm("NERR9", "Not (but nearly) ERR, eq. 9: gain-based stopping and discount, truncated at k.",
         (_CUTOFF_REQ, _MIN, _MAX), _nerr(9, ("cutoff", "min_rel", "max_rel"))),
    _irm("NERR10", "Not (but nearly) ERR, eq. 10: gain-based stopping with RBP patience p.",
         (_p("p", float, "persistence", 0.9), _MIN, _MAX), _nerr(10, ("p", "min_rel", "max_rel"))),
    _irm("NERR11", "Not (but nearly) ERR, eq. 11: gain-based stopping with INST's goal T.", (_T, _MIN, _MAX),
         _nerr(11, ("T", "min_rel", "max_rel"))),
    _irm("INST", "INST: adaptive stopping towards T units of gain (Moffat et al. 2015).", (_T, _MIN, _MAX),
         _cwl(inst, ("T", "min_rel", "max_rel"))),
    _irm("INSQ", "INSQ: rank-dependent stopping for T units of gain (Moffat et al. 2012).", (_T, _MIN, _MAX),
         _cwl(insq, ("T", "min_rel", "max_rel"))),
    _irm("ERR", "Expected reciprocal rank at k as gdeval computes it (top grade 4).", (_CUTOFF_REQ,), _err),
    _irm("alpha_nDCG", "alpha-nDCG: novelty-discounted nDCG over subtopics, ideal by ndeval's greedy ordering.",
         (_CUTOFF, _REL, _ALPHA, _JUDGED), _diversity("alpha_nDCG")),
    _irm("alpha_DCG", "alpha-DCG over subtopics, normalised by ndeval's 'ideal ideal'.",
         (_CUTOFF, _REL, _ALPHA, _JUDGED), _diversity("alpha_DCG")),
    _irm("ERR_IA", "Intent-aware ERR (ndeval), normalised by the 'ideal ideal'.", _DIV, _diversity("ERR_IA")),
    _irm("nERR_IA", "Intent-aware ERR normalised by ndeval's ideal ranking.", _DIV, _diversity("nERR_IA")),
    _irm("NRBP", "Novelty- and rank-biased precision (ndeval).", (_REL, _ALPHA, _BETA), _diversity("NRBP")),
    _irm("nNRBP", "NRBP normalised by ndeval's ideal ranking.", (_REL, _ALPHA, _BETA), _diversity("nNRBP")),
    _irm("AP_IA", "Intent-aware average precision: the mean over subtopics of each one's AP.", (_REL, _JUDGED),
         _diversity("AP_IA")),
    _irm("P_IA", "Intent-aware precision at k.", _DIV, _diversity("P_IA")),
    _irm("StRecall", "Subtopic recall: the share of subtopics the top k cover.", (_CUTOFF, _REL),
         _diversity("StRecall")),
]}

#: ir_measures' other names: alias -> (name, fixed parameters).
ALIASES: dict[str, tuple[str, dict]] = {
    "MAP": ("AP", {}), "MRR": ("RR", {}), "NDCG": ("nDCG", {}), "Precision": ("P", {}), "Recall": ("R", {}),
    "BPref": ("Bpref", {}), "RPrec": ("Rprec", {}), "MAP_IA": ("AP_IA", {}), "α_nDCG": ("alpha_nDCG", {}),
    "α_DCG": ("alpha_DCG", {}), "NumRelRet": ("NumRet", {"rel": 1}), "SetRelP": ("SetP", {"relative": True}),
}


def _check(measure: Measure, given: Mapping[str, object]) -> dict:
    """ir_measures' validation: known names, the right types, required ones given; defaults filled in."""
    known = {p.name: p for p in measure.parameters}
    out: dict = {}
    for key, value in given.items():
        if key not in known:
            raise ValueError(f"{measure.name} takes no parameter {key!r}; its parameters are "
                             f"{', '.join(known) or 'none'}")
        p = known[key]
        ok = (p.dtype is int and _int(value)) or (p.dtype is float and (_int(value) or isinstance(value, float))) \
            or (p.dtype is bool and isinstance(value, bool)) or (p.dtype is str and isinstance(value, str)) \
            or (p.dtype is dict and isinstance(value, dict))
        if not ok:
            raise ValueError(f"{measure.name}'s {key} must be {p.dtype.__name__}, got {value!r:.40}")
        if p.choices is not None and value not in p.choices:
            raise ValueError(f"{measure.name}'s {key} must be one of {', '.join(map(repr, p.choices))}, "
                             f"got {value!r:.40}")
        out[key] = float(value) if p.dtype is float else value
    for p in measure.parameters:
        if p.name not in out:
            if p.required:
                at = "@" if p.name == measure.at else ""
                raise ValueError(f"{measure.name} needs {p.name}" + (f" (write {measure.name}@...)" if at else ""))
            if p.default is not None:
                out[p.name] = p.default
    for key in ("cutoff", "rel", "min_rel", "max_rel"):
        if key in out and out[key] is not None and out[key] < (1 if key == "cutoff" else 0):
            raise ValueError(f"{measure.name}'s {key} must be >= {1 if key == 'cutoff' else 0}, got {out[key]}")
    if "cutoff" in out and out["cutoff"] > 10**12:
        raise ValueError(f"{measure.name}'s cutoff must be at most 10^12, got {out['cutoff']}")
    for key in ("p",):
        if key in out and not 0.0 < out[key] < 1.0:
            raise ValueError(f"{measure.name}'s {key} must be between 0 and 1 (exclusive), got {out[key]!r}")
    if "gains" in out:
        g = out["gains"]
        if not all(_int(k) and _int(v) for k, v in g.items()):
            raise ValueError(f"{measure.name}'s gains must map whole grades to whole gains (pytrec_eval reads "
                             f"integers), got {g!r:.60}")
    return out


def plan(name: str, params: Mapping[str, object]) -> Plan:
    """How ir_measures' ``name`` with ``params`` is computed: the provider it uses and the kernel.

    Parameters
    ----------
    name : str
        A name of :data:`IR_MEASURES` or an alias of :data:`ALIASES`.
    params : mapping
        Its parameters by name (``{"cutoff": 10, "rel": 2}``; ``@10`` is ``cutoff``, ``recall`` for IPrec).

    Returns
    -------
    Plan

    Raises
    ------
    ValueError
        Naming the measure and the parameter: an unknown one, the wrong type, a missing required one, a
        value out of range, or a combination no provider of ir_measures 0.4.3 supports.

    Examples
    --------
    >>> plan("RR", {"cutoff": 10}).provider, plan("RR", {}).provider
    ('msmarco', 'pytrec_eval')
    >>> plan("RBP", {})
    Traceback (most recent call last):
    ...
    ValueError: ir_measures 0.4.3 computes RBP only with rel given (cwl_eval's binary gains): write RBP(rel=1)
    """
    base, fixed = ALIASES.get(name, (name, {}))
    if base not in IR_MEASURES:
        raise ValueError(f"unknown ir_measures measure {name!r:.40}")
    measure = IR_MEASURES[base]
    given = dict(params)
    for key, value in fixed.items():
        if key in given and given[key] != value:
            raise ValueError(f"{name} is {base} with {key}={value!r}; it takes no other {key}")
        given[key] = value
    return measure.resolve(_check(measure, given))
