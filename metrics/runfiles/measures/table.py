"""The measure table: every measure once, as a typed :class:`Measure`, in trec_eval's output order.

:data:`MEASURES` maps the name (as trec_eval spells it; the extras and ``nDCG`` as this project does)
to a :class:`Measure`: its help, source (trec_eval's ``m_*.c`` file or the paper), kernel (a function
of :class:`~.lists.Lists` from one family module: :mod:`.counts`, :mod:`.precision`, :mod:`.ranks`,
:mod:`.gain`, :mod:`.user`, :mod:`.text`), the kind of parameter text ``-m`` takes, its typed
parameters (:class:`Param`, as ir_measures' ``ParamInfo``), how the "all" line summarises it and what
it prints.  :data:`NICKNAMES` are the measure sets.  A new measure is one kernel in its family's
module and one entry here.

>>> MEASURES["P"].parameters[0]
Param(name='cutoff', dtype=<class 'int'>, desc='ranking cutoff threshold', default=None, required=True, choices=None)
>>> MEASURES["ndcg_cut"].source, MEASURES["ndcg_cut"].defaults[:3]
('trec_eval 9.0.8 m_ndcg_cut.c', (5, 10, 15))
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...registry import VARIANT_CHOICES
from ...variant import Variant
from . import counts, gain, precision, ranks, text, user
from .gain import VARIANT_MEASURE

__all__ = ["ENGINE_ZERO_IDCG", "MEASURES", "NICKNAMES", "PARAM_KINDS", "SUMMARIES", "Measure", "Param"]

#: The zero-IDCG policies the ``nDCG`` measure computes (``"nan"`` would make a run's mean undefined).
ENGINE_ZERO_IDCG = ("zero", "one")

#: How a measure's parameters are written after the dot of ``-m``: None (none), ``"cutoffs"`` (whole
#: numbers >= 1: ``P.5,10``), ``"fractions"`` (numbers: ``iprec_at_recall.0.1,0.5``), ``"numbers"``
#: (``set_F.0.5``), ``"gains"`` (``ndcg.1=0,2=1``), ``"persistence"`` (``rbp.p=0.8``) or ``"variant"``
#: (``nDCG(gain=...,ties=...)@k``); ir_measures' measures take ``"irm"`` (``P(rel=2)@5``, :mod:`.irm`).
PARAM_KINDS = (None, "cutoffs", "fractions", "numbers", "gains", "persistence", "variant", "irm")
#: How the "all" line summarises a measure's per-query values: the mean, a sum, a count (num_q), the
#: geometric mean (gm_*), the run's tag (runid) or nothing (relstring); ir_measures' means: over every
#: qrels query, a query the run lacks counting 0 (``"qrels_mean"``), or over the queries with a value
#: (``"defined_mean"``, Accuracy).
SUMMARIES = ("mean", "sum", "count", "gm", "runid", "none", "qrels_mean", "defined_mean")


@dataclass(frozen=True)
class Param:
    """A typed parameter of a measure, as ir_measures' ``ParamInfo`` declares one.

    Parameters
    ----------
    name : str
        Its name (``cutoff``, ``rel``, ``p``, ...).
    dtype : type
        ``int``, ``float``, ``bool``, ``str`` or ``dict``.
    desc : str
        What it means.
    default : object, optional
        Its value when not given (None: no default).
    required : bool, default False
        Whether it must be given.
    choices : tuple, optional
        The values allowed, when a fixed set.

    Examples
    --------
    >>> Param("p", float, "persistence", default=0.9).default
    0.9
    """

    name: str
    dtype: type
    desc: str
    default: object = None
    required: bool = False
    choices: tuple | None = None


@dataclass(frozen=True)
class Measure:
    """One measure of the table.

    Parameters
    ----------
    name : str
        As ``-m`` and the output spell it (trec_eval's name for trec_eval's measures).
    help : str
        One or two sentences: what it computes.
    source : str
        Where it is defined: trec_eval's file (``"trec_eval 9.0.8 m_P.c"``) or the paper.
    compute : callable or None
        The kernel: ``compute(lists, params) -> list of per-query arrays``, one per printed name
        (None for runid, which prints the run's tag).  A query's values depend on its own rows only.
    params : str, optional
        How ``-m`` writes its parameters (one of :data:`PARAM_KINDS`).
    defaults : object, default ()
        The parameters used when none are given (cutoffs, fractions, numbers, ``(("p", 0.9),)``, a
        a tuple of :class:`metrics.variant.Variant`).
    summary : str, default "mean"
        One of :data:`SUMMARIES`.
    per_query : bool, default True
        Printed per query by ``-q``.
    origin : str, default "trec_eval"
        ``"trec_eval"``, ``"extra"`` (not in trec_eval 9), ``"variant"`` (``nDCG(gain=...)``) or
        ``"ir_measures"`` (:data:`~.irm.IR_MEASURES`).
    count : int, optional
        The exact number of parameters, when fixed.
    value : str, default "float"
        What it prints: ``"float"``, ``"long"`` (a whole number) or ``"text"``.
    parameters : tuple of Param
        Its typed parameters.
    resolve : callable, optional
        ir_measures' measures: ``resolve(parameters) -> Plan``, the provider and kernel for those
        parameters (:func:`~.irm.plan`).
    at : str, optional
        The parameter ``@`` sets (ir_measures: ``cutoff``, ``recall`` for IPrec).

    Examples
    --------
    >>> m = MEASURES["recall"]
    >>> m.params, m.summary, m.value, [p.name for p in m.parameters]
    ('cutoffs', 'mean', 'float', ['cutoff'])
    """

    name: str
    help: str
    source: str
    compute: Callable | None = field(default=None, compare=False, repr=False)
    params: str | None = None
    defaults: object = ()
    summary: str = "mean"
    per_query: bool = True
    origin: str = "trec_eval"
    count: int | None = None
    value: str = "float"
    parameters: tuple[Param, ...] = ()
    resolve: Callable | None = field(default=None, compare=False, repr=False)
    at: str | None = None

    def __post_init__(self):
        if self.params not in PARAM_KINDS:
            raise ValueError(f"measure {self.name!r}: params must be one of {PARAM_KINDS}, got {self.params!r}")
        if self.summary not in SUMMARIES:
            raise ValueError(f"measure {self.name!r}: summary must be one of {SUMMARIES}, got {self.summary!r}")
        if self.value not in ("float", "long", "text"):
            raise ValueError(f"measure {self.name!r}: value must be float, long or text, got {self.value!r}")

    @property
    def key(self) -> str:
        """The name programs use (the table's key)."""
        return self.name


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_TE = "trec_eval 9.0.8 "
_CUTOFF = Param("cutoff", int, "ranking cutoff threshold", required=True)
_GAINS = Param("gains", dict, "custom gain mapping (level-to-gain; other levels keep their grade)")
_P = Param("p", float, "persistence", default=0.9)
_VARIANT = tuple(Param(kind, str, f"the {kind} (metrics.registry)", default=getattr(Variant(), kind),
                       choices=tuple(VARIANT_CHOICES[kind])) for kind in VARIANT_CHOICES) + (
    Param("base", float, "the logarithm's base", default=2.0),
    Param("level", float, "grades below it count 0"),
    Param("zero", str, "what a query with IDCG 0 scores (metrics.registry.ZERO_IDCG)", default="zero",
          choices=ENGINE_ZERO_IDCG),
    Param("cutoff", int, "ranking cutoff threshold"))
_KERNELS = {**counts.KERNELS, **precision.KERNELS, **ranks.KERNELS, **gain.KERNELS, **user.KERNELS, **text.KERNELS}


def _typed(params: str | None, name: str) -> tuple[Param, ...]:
    if params == "cutoffs":
        return (_CUTOFF,)
    if params == "fractions":
        return (Param("recall" if name == "iprec_at_recall" else "multiple", float, "fraction of R"),)
    if params == "numbers":
        return (Param("values", float, "the measure's numbers (see its help)"),)
    if params == "gains":
        return (_GAINS,)
    if params == "persistence":
        return (_P,)
    if params == "variant":
        return _VARIANT
    return ()


def _m(name: str, help: str, source: str, **facts) -> Measure:
    compute = None if name == "runid" else _KERNELS[name]
    return Measure(name, help, source, compute, parameters=_typed(facts.get("params"), name), **facts)


#: Every measure, in trec_eval's output order (its ``measures.c``), then the extras.
MEASURES: dict[str, Measure] = {m.name: m for m in [
    _m("runid", "The run's tag (the last field of the run file's last line).", _TE + "m_runid.c",
       summary="runid", per_query=False, value="text"),
    _m("num_q", "Number of queries evaluated (with -c, every query of the qrels, as in trec_eval 9 and 10).",
       _TE + "m_num_q.c", summary="count", per_query=False, value="long"),
    _m("num_ret", "Number of documents retrieved (after -M and -J).", _TE + "m_num_ret.c", summary="sum", value="long"),
    _m("num_rel", "Number of relevant documents in the qrels (grade >= the relevance level -l); with -c the "
                  "summary counts every qrels query's lines graded > 0 (trec_eval 9's m_num_rel.c).",
       _TE + "m_num_rel.c", summary="sum", value="long"),
    _m("num_rel_ret", "Number of relevant documents retrieved.", _TE + "m_num_rel_ret.c", summary="sum", value="long"),
    _m("map", "Mean average precision: precision at each relevant document retrieved, summed and divided by the "
              "number of relevant documents (unretrieved ones count 0).", _TE + "m_map.c"),
    _m("gm_map", "Average precision averaged over queries with the geometric mean (per-query values below 0.00001 "
                 "count as 0.00001); summary only.", _TE + "m_gm_map.c", summary="gm", per_query=False),
    _m("Rprec", "Precision after R documents, R = the number of relevant documents.", _TE + "m_Rprec.c"),
    _m("bpref", "Binary preference: for each relevant document retrieved, 1 - (judged non-relevant documents "
                "above it, at most R) / min(R, judged non-relevant); divided by R. Unjudged documents are "
                "ignored (Buckley & Voorhees, SIGIR 2004).", _TE + "m_bpref.c"),
    _m("recip_rank", "Reciprocal rank of the first relevant document retrieved.", _TE + "m_recip_rank.c"),
    _m("iprec_at_recall", "Interpolated precision (the highest precision at or below the point) at recall "
                          "fractions; trec_eval 9 takes (long)(f * R + 0.9) relevant documents, trec_eval 10 "
                          "rounds f * R.", _TE + "m_iprec_at_recall.c", params="fractions", defaults=_RECALL_POINTS),
    _m("P", "Precision at cutoffs: relevant documents in the top k / k (missing ranks count as non-relevant).",
       _TE + "m_P.c", params="cutoffs", defaults=_CUTS),
    _m("relstring", "The grades of the first N (default 10) documents as a string: 0-9, '>' above 9, '-' not in "
                    "the qrels, '.' in the qrels with a negative grade; per query only.", _TE + "m_relstring.c",
       params="numbers", defaults=(10.0,), summary="none", value="text", count=1),
    _m("recall", "Recall at cutoffs: relevant documents in the top k / R.", _TE + "m_recall.c", params="cutoffs",
       defaults=_CUTS),
    _m("infAP", "Inferred average precision for sampled judgments (qrels grade -1 = pooled but not judged) "
                "(Yilmaz & Aslam, CIKM 2006).", _TE + "m_infap.c"),
    _m("gm_bpref", "bpref averaged over queries with the geometric mean; summary only.", _TE + "m_gm_bpref.c",
       summary="gm", per_query=False),
    _m("Rprec_mult", "Precision after (long)(m * R + 0.9) documents for multiples m of R.", _TE + "m_Rprec_mult.c",
       params="fractions", defaults=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    _m("utility", "Set utility a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*nonrel_not_ret (coefficients a,b,c,d; "
                  "d needs -N).", _TE + "m_utility.c", params="numbers", defaults=(1.0, -1.0, 0.0, 0.0), count=4),
    _m("11pt_avg", "Interpolated precision averaged over recall fractions (default the 11 points 0.0 ... 1.0).",
       _TE + "m_11pt_avg.c", params="numbers", defaults=_RECALL_POINTS),
    _m("binG", "Binary G: each relevant document retrieved scores 1 / log2(2 + non-relevant documents above it); "
               "divided by R (experimental in trec_eval).", _TE + "m_binG.c"),
    _m("G", "Normalized gain G (experimental in trec_eval); gains as for ndcg.", _TE + "m_G.c", params="gains"),
    _m("ndcg", "NDCG over the whole ranking: gain = grade (or the map L=G), 1/log2(rank + 1), ideal from every "
               "judged document (Jarvelin & Kekalainen 2002).", _TE + "m_ndcg.c", params="gains"),
    _m("ndcg_rel", "NDCG averaged over the relevant documents (experimental in trec_eval).", _TE + "m_ndcg_rel.c",
       params="gains"),
    _m("Rndcg", "NDCG averaged at the R-level boundaries of the ideal ranking (experimental in trec_eval).",
       _TE + "m_Rndcg.c", params="gains"),
    _m("ndcg_cut", "NDCG at cutoffs: gain = grade, 1/log2(rank + 1), ideal from every judged document.",
       _TE + "m_ndcg_cut.c", params="cutoffs", defaults=_CUTS),
    _m("map_cut", "Average precision at cutoffs (precisions of the relevant documents in the top k, divided by R).",
       _TE + "m_map_cut.c", params="cutoffs", defaults=_CUTS),
    _m("relative_P", "Precision at k relative to the best possible: relevant in the top k / min(k, R).",
       _TE + "m_rel_P.c", params="cutoffs", defaults=_CUTS),
    _m("success", "1 when a relevant document is in the top k, else 0.", _TE + "m_success.c", params="cutoffs",
       defaults=(1, 5, 10)),
    _m("set_P", "Precision of the whole retrieved set.", _TE + "m_set_P.c"),
    _m("set_relative_P", "Set precision relative to the best possible: rel_ret / min(ret, R).", _TE + "m_set_rel_P.c"),
    _m("set_recall", "Recall of the whole retrieved set.", _TE + "m_set_recall.c"),
    _m("set_map", "Set 'map': rel_ret^2 / (ret * R) (precision times recall).", _TE + "m_set_map.c"),
    _m("set_F", "Set F measure (x + 1) P R / (x P + R), x = the weight of recall (default 1).", _TE + "m_set_F.c",
       params="numbers", defaults=(1.0,), count=1),
    _m("num_nonrel_judged_ret", "Number of judged non-relevant documents retrieved.",
       _TE + "m_num_nonrel_judged_ret.c", summary="sum", value="long"),
    # ---- extras: not in trec_eval 9
    _m("judged", "judged@k: the fraction of the top k that the qrels judge (grade >= 0), missing ranks counting as "
                 "unjudged; 1 - trec_eval 10's unj.k. ir_measures' Judged@k also counts negative grades as judged.",
       "ir_measures Judged@k (MacAvaney et al.); trec_eval 10 m_unjudged.c", params="cutoffs", defaults=(5, 10, 20),
       origin="extra"),
    _m("err", "Expected reciprocal rank at k: sum over ranks r <= k of (1/r) R_r prod_{i<r} (1 - R_i), "
              "R = (2^grade - 1) / 2^gmax, gmax = the highest grade in the qrels unless given.",
       "Chapelle, Metzler, Zhang & Grinspan, CIKM 2009, eq. 4", params="cutoffs", defaults=(5, 10, 20),
       origin="extra"),
    _m("rbp", "Rank-biased precision (1 - p) sum_i rel_i p^(i-1), binary relevance (grade >= -l), persistence p "
              "(default 0.9): rbp.p=0.8.", "Moffat & Zobel, ACM TOIS 27(1) 2008, eq. 6", params="persistence",
       defaults=(("p", 0.9),), origin="extra"),
    _m("rbp_resid", "RBP's residual: the most the unjudged documents and the ranks past the run could add, "
                    "p^d + (1 - p) sum_{unjudged i <= d} p^(i-1) for a run of d documents.",
       "Moffat & Zobel, ACM TOIS 27(1) 2008, section 4", params="persistence", defaults=(("p", 0.9),),
       origin="extra"),
    # ---- NDCG under any variant: the choices of metrics.registry as parameters
    _m(VARIANT_MEASURE, "NDCG under a chosen variant: nDCG(gain=G,discount=D,idcg=S,ties=T[,base=B][,level=L]"
                        "[,zero=Z])@k, each choice from metrics.registry (defaults linear, standard, judged, "
                        "trec_eval; base 2; zero: a query without relevant documents scores 0, zero=one: 1; "
                        "no @k: the whole list and, for idcg=judged, the whole pool). Grades are used as given "
                        "(fractions kept, negative = 0, below level = 0).",
       "metrics.ndcg (every value equals ndcg_from_scores on the query's list); ir_measures nDCG(...)@k naming",
       params="variant", defaults=(Variant(),), origin="variant"),
]}

_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
             "iprec_at_recall", "P")
_ALL_TREC = tuple(name for name, m in MEASURES.items() if m.origin == "trec_eval")
_SET = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P",
        "set_map", "set_F")
#: Measure sets, as trec_eval's ``-m`` nicknames (``official`` is trec_eval's default), plus ``common`` (what most
#: papers report; the benchmark's set) and ``extras`` (the measures trec_eval 9 lacks).
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": _OFFICIAL,
    "all_trec": _ALL_TREC,
    "set": _SET,
    "common": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
               "recip_rank", "iprec_at_recall", "P", "recall", "infAP", "ndcg", "ndcg_cut", "map_cut", "success",
               "set_P", "set_recall", "set_F"),
    "extras": tuple(name for name, m in MEASURES.items() if m.origin == "extra"),
}
