"""Where did this mean come from?  Every library and setting whose mean NDCG over a run rounds to a
reported number (issue 40, item 4).

A paper prints ``nDCG@10 = 0.4523``; the same qrels and run give different means in trec_eval,
pytrec_eval, ir_measures, ranx, scikit-learn, torchmetrics, Spark and Elasticsearch, because each
decides the things in :data:`MEAN_DIMENSIONS` its own way -- duplicate lines, trec_eval's whole
grades, ``-M``, ``-J``, the tie rule, the gain, a relevance level, the IDCG's item set, what a
query without relevant documents scores, which queries are averaged, and whether per-query values
are printed (rounded) before they are averaged.  :func:`match_mean` evaluates every combination on
the files with the one run-file engine (:func:`metrics.runfiles.evaluate_runs`, the ``nDCG(...)@k``
measure of :mod:`metrics.runfiles.measures`), and returns

* ``libraries``: each library of :data:`RUN_LIBRARIES` (a named point of those settings, its
  per-list convention taken from :data:`metrics.lessons.libraries.LIBRARIES`) whose mean, rounded at
  the precision the number was written with -- or cut off, as :func:`metrics.lessons.match.written_as`
  says --, gives the number;
* ``families``: every combination of settings that gives it, merged (a setting whose every choice
  gives it shows as "any");
* ``near_misses``: for each other library, the first setting (in the order of the calculation) where it
  departs from the nearest family that gives the number, and the queries that make the difference;
* ``refused``: the libraries that give no number for these files (trec_eval on duplicate lines, ranx on
  different query sets, scikit-learn on a one-document query, gdeval on ids that are not numbers).

A combination's mean is computed once per ranking (duplicates, grades, ``-M``, ``-J``): every tie
rule, gain, level and IDCG source of that ranking comes from one engine call, and the query-level
settings (zero-IDCG policy, query set, printing) are applied to the per-query arrays.
``benchmarks/match_mean.py`` measures 10,000 queries against evaluating the combinations one by one.

Query 1 ranks b (grade 1) above a (grade 2): (1 + 2/log2 3) / (2 + 1/log2 3) = 2.2619 / 2.6309 = 0.8597;
query 2 finds nothing relevant: 0; query 3 is not in the run.  trec_eval averages the two queries it
evaluates, 0.4299; ir_measures counts query 3 as 0, 0.2866 -- a near miss, and query 3 is why:

>>> qrels = b"1 0 a 2\\n1 0 b 1\\n2 0 c 1\\n3 0 d 1\\n"
>>> run = b"1 Q0 b 1 2.0 r\\n1 Q0 a 2 1.0 r\\n2 Q0 x 1 1.0 r\\n"
>>> r = match_mean("0.4299", qrels, run, "nDCG@10")
>>> "trec_eval_9" in r.library_keys, "ir_measures" in r.library_keys
(True, False)
>>> miss = r.near_miss("ir_measures")
>>> miss.dimension, miss.theirs, miss.needed, [q for q, *_ in miss.queries]
('queries', 'qrels', ('both',), ['3'])
"""
from __future__ import annotations

import math
import os
import re
import time
from dataclasses import dataclass, field, replace
from io import BytesIO
from itertools import product

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._validation import check_choice
from ..lessons.libraries import GRADE_READINGS, LIBRARIES
from ..lessons.match import fold_settings, read_value, unsigned_percent, written_as
from ..registry import GAINS, IDCG_SOURCES, TIES, ZERO_IDCG, Choice
from ..variant import Variant
from .engine import QrelsIndex, table_from_frame
from .measures import measure_names
from .read import Parsed, Table, read_qrels, read_run, shorten
from .trec import evaluate_runs

__all__ = [
    "MEAN_DIMENSIONS",
    "RUN_LIBRARIES",
    "MeanDimension",
    "RunLibrary",
    "READ_OPTIONS",
    "MeanMatch",
    "LibraryMean",
    "Family",
    "MeanNearMiss",
    "MeanGrid",
    "GridTooLarge",
    "ndcg_cutoff",
    "MeasureError",
    "NDCG_FORMS",
    "mean_grid",
    "match_mean",
    "match_grid",
    "describe",
]


# ------------------------------------------------------------------------------------------ the settings
def _table(*entries: Choice) -> dict[str, Choice]:
    return {e.key: e for e in entries}


DUPLICATES = _table(
    Choice("first", "first line kept",
           "A document listed twice for one query counts once, at its first line (this app's reader, which "
           "lists the later line as an error)."),
    Choice("last", "last line kept",
           "The later line's score replaces the earlier one (a Python dict filled line by line: ir_measures, "
           "ranx's Run.from_file, pytrec_eval fed a dict)."),
    Choice("each", "every line counted",
           "Each line is a result of its own, so the document gains at both places (gdeval.pl, and arrays "
           "handed to scikit-learn, torchmetrics or Spark)."),
)
GRADES = {key: GRADE_READINGS[key] for key in ("as_is", "truncate")}
JUDGED_ONLY = _table(
    Choice("all", "every retrieved document", "Unjudged documents stay in the ranking and gain 0."),
    Choice("judged", "judged documents only (-J)",
           "Documents the qrels do not judge are dropped first, so the judged ones move up (trec_eval -J)."),
)
IDCG_ITEMS = _table(
    Choice("judged", IDCG_SOURCES["judged"].name,
           "The ideal ranking is every judged document of the query, retrieved or not (trec_eval, ranx, "
           "ir_measures, Spark, gdeval)."),
    Choice("list", IDCG_SOURCES["list"].name,
           "The ideal ranking is the run's own documents re-sorted (scikit-learn and torchmetrics see only "
           "the documents they are given)."),
    Choice("hits", "judged items, cut at the number of hits",
           "Every judged document, but the ideal stops at the number of results returned, min(k, hits) "
           "(Elasticsearch's _rank_eval)."),
)
QUERY_SETS = _table(
    Choice("both", "queries in both files",
           "The mean is over the queries that are in the qrels and in the run (trec_eval and pytrec_eval "
           "without -c)."),
    Choice("qrels", "every qrels query (a missing one counts 0)",
           "A qrels query the run does not answer counts 0 (trec_eval -c, ir_measures, ranx with "
           "make_comparable)."),
    Choice("run", "every run query",
           "The mean is over the run's queries; one the qrels do not judge has no relevant document (the "
           "zero-IDCG policy decides): scikit-learn or torchmetrics averaged over the run, Elasticsearch's "
           "requests."),
)
PRINTED = _table(
    Choice("exact", "per-query values exact", "The mean of the exact per-query values."),
    Choice("5", "per-query values printed with 5 decimals",
           "Each query's value is printed with 5 decimals and the printed values are averaged (gdeval.pl, "
           "and ir_measures' gdeval provider, which reads gdeval's output)."),
)


def _level_choice(level: str) -> Choice:
    if level == "none":
        return Choice("none", "every grade above 0 relevant", "No relevance level: every grade above 0 gains.")
    return Choice(level, f"grades below {level} count 0",
                  f"Grades below {level} count 0 (ranx's rel_lvl is 1; a relevance level of {level} makes the "
                  "lower grades non-relevant).")


def _depth_choice(depth: str) -> Choice:
    if depth == "none":
        return Choice("none", "the whole run", "Every retrieved document of the query is ranked.")
    return Choice(depth, f"first {depth} documents (-M {depth})",
                  f"Only the first {depth} documents of each query are kept, in trec_eval's order (trec_eval "
                  f"-M {depth}; TREC's official runs use -M 1000).")


@dataclass(frozen=True)
class MeanDimension(Choice):
    """A setting that moves a mean (:data:`MEAN_DIMENSIONS`): ``choices`` is the table of its choices, or a
    callable for the ones that depend on the files."""

    choices: object = None


@dataclass(frozen=True)
class RunLibrary(Choice):
    """A library's mean as a point of :data:`MEAN_DIMENSIONS` (:data:`RUN_LIBRARIES`): the ``call`` that gives
    it (``K`` is the cutoff), its ``settings``, what it ``refuses`` (keys of :data:`REFUSALS`), the key of its
    per-list ``convention`` in :data:`metrics.lessons.libraries.LIBRARIES`, the installed package the tests
    compare with (``checked_against``; empty: reproduced) and what changes between ``versions``."""

    call: str = ""
    settings: dict = field(default_factory=dict, compare=False)
    refuses: tuple[str, ...] = ()
    convention: str = ""
    checked_against: str = ""
    versions: str = ""
    call_whole: str = ""

    def call_at(self, k: int | None) -> str:
        """The call with the cutoff written in; without one (``k=None``), the library's whole-ranking form.

        ``K`` standing alone is the cutoff (``ndcgAtK`` is Spark's metric name, not a cutoff).  Without a
        cutoff trec_eval's measure is ``ndcg`` (not ``ndcg_cut.``), ir_measures' and ranx's names lose their
        ``@K``, scikit-learn and torchmetrics take ``None``; ``call_whole`` is the form of a library that has
        none of these (Spark: any k at least the longest ranking).

        >>> RUN_LIBRARIES["trec_eval_9"].call_at(None)
        'trec_eval -m ndcg qrels run'
        >>> RUN_LIBRARIES["spark_evaluator"].call_at(10)
        "RankingEvaluator(metricName='ndcgAtK', k=10).evaluate(df)"
        >>> RUN_LIBRARIES["sklearn"].call_at(None)
        "mean over the run's queries of sklearn.metrics.ndcg_score([grades], [scores], k=None)"
        """
        if k is not None:
            return _CUTOFF.sub(str(int(k)), self.call)
        if self.call_whole:
            return self.call_whole
        text = self.call
        for pattern, whole in _WHOLE_RANKING:
            text = pattern.sub(whole, text)
        return text


#: ``K`` standing alone in a call: the cutoff.
_CUTOFF = re.compile(r"(?<![A-Za-z_])K(?![A-Za-z_])")
#: A call without a cutoff, in the order applied (see :meth:`RunLibrary.call_at`).
_WHOLE_RANKING = ((re.compile(r"ndcg_cut\.K(?![A-Za-z_])"), "ndcg"), (re.compile(r"@K(?![A-Za-z_])"), ""),
                  (re.compile(r"(?<![A-Za-z_])(top_k|k)=K(?![A-Za-z_])"), r"\1=None"))


def _dimension(key, name, help, choices) -> MeanDimension:
    return MeanDimension(key, name, help, choices=choices)


#: The settings that move a mean, IN THE ORDER OF THE CALCULATION (reading the files, ranking each query,
#: its NDCG, the queries averaged, the printing): the order in which a near miss names the first one that
#: differs.  ``.choices`` is the table of its choices (a callable for the ones that depend on the files:
#: the depths and relevance levels worth trying).
MEAN_DIMENSIONS: dict[str, MeanDimension] = _table(
    _dimension("duplicates", "Duplicate lines", "What a document listed twice for one query counts as.",
               DUPLICATES),
    _dimension("grades", "Grades", "How fractional grades are read (trec_eval reads them with atol).", GRADES),
    _dimension("depth", "Run depth (-M)", "How many documents of each query are ranked.", _depth_choice),
    _dimension("judged_only", "Judged only (-J)", "Whether unjudged documents are dropped before ranking.",
               JUDGED_ONLY),
    _dimension("ties", "Tie rule", "How documents with equal scores are ordered.", TIES),
    _dimension("gain", "Gain", "Grade -> gain.", {k: GAINS[k] for k in ("linear", "exponential", "binary")}),
    _dimension("level", "Relevance level", "Grades below it count 0.", _level_choice),
    _dimension("idcg", "IDCG item set", "The items of the ideal ranking.", IDCG_ITEMS),
    _dimension("zero_idcg", "IDCG = 0", "What a query without relevant documents scores.", ZERO_IDCG),
    _dimension("queries", "Queries averaged", "Which queries the mean is over.", QUERY_SETS),
    _dimension("printed", "Printing", "Whether per-query values are rounded before they are averaged.", PRINTED),
)

#: What a library does when the files are not what it accepts (a library's ``refuses``): no number.
REFUSALS = _table(
    Choice("duplicates", "duplicate lines",
           "stops on a document listed twice for one query ('duplicate docs')"),
    Choice("query_sets", "different query sets",
           "stops when the qrels and the run hold different queries ('Qrels and Run query ids do not match')"),
    Choice("one_document", "a one-document query",
           "refuses a query with a single document ('only meaningful when there is more than 1 document')"),
    Choice("numeric_ids", "query ids that are not numbers",
           "needs numeric topic ids ('format error' on any other)"),
    Choice("grades_0_4", "grades outside 0..4 or fractional",
           "needs whole grades of at most 4 ('format error' otherwise)"),
    Choice("fractional", "fractional grades", "needs whole grades (ratings are integers)"),
    Choice("negative", "negative grades", "refuses a negative grade"),
    Choice("cutoff", "no cutoff", "needs a cutoff k"),
)

_DEFAULTS = {"duplicates": "first", "grades": "as_is", "depth": "none", "judged_only": "all", "ties": "trec_eval",
             "gain": "linear", "level": "none", "idcg": "judged", "zero_idcg": "zero", "queries": "both",
             "printed": "exact"}


def _run_library(key, name, call, convention, notes, source, *, refuses=(), checked_against="", versions="",
                 call_whole="", **run_settings) -> RunLibrary:
    """A library's mean as a point of :data:`MEAN_DIMENSIONS`: its per-list convention from
    :data:`metrics.lessons.libraries.LIBRARIES` (gain, tie rule, IDCG items, zero-IDCG policy, grade reading),
    then its run-level settings (duplicates, queries averaged, printing)."""
    c = LIBRARIES[convention].convention
    settings = dict(_DEFAULTS)
    v = c.variant
    settings.update(gain=v.gain, ties=v.ties, zero_idcg=v.zero_idcg,
                    idcg="hits" if c.cutoff == "hits" else v.idcg,
                    grades="truncate" if c.grades == "truncate" else "as_is",
                    level="1" if c.grades == "at_least_1" else "none")
    settings.update(run_settings)
    return RunLibrary(key, name, notes, source=source, call=call, settings=settings, refuses=tuple(refuses),
                      convention=convention, checked_against=checked_against, versions=versions,
                      call_whole=call_whole)


_TREC10 = ("trec_eval 10.0 gives the same nDCG means as 9.0.8 (its -c evaluates a missing query as an empty "
           "ranking: 0, as 9.0.8 counts it; see python -m metrics.runfiles --help for where they differ).")

#: Libraries as points of :data:`MEAN_DIMENSIONS` (``.settings``), with the call that gives the mean
#: (``.call``; ``K`` is the cutoff), what they refuse (keys of :data:`REFUSALS`), the source they were read
#: from, and the installed package the tests compare with (``.checked_against``; empty: reproduced).
RUN_LIBRARIES: dict[str, RunLibrary] = _table(
    _run_library("trec_eval_9", "trec_eval 9.0.8", "trec_eval -m ndcg_cut.K qrels run", "trec_eval_ndcg_cut",
                 "Averages the queries in both files; whole grades (atol); ties by document id, descending.",
                 "trec_eval 9.0.8 trec_eval.c, form_res_rels.c (duplicate docs), m_ndcg_cut.c",
                 refuses=("duplicates",), checked_against="pytrec-eval-terrier"),
    _run_library("trec_eval_9_c", "trec_eval 9.0.8 -c", "trec_eval -c -m ndcg_cut.K qrels run", "trec_eval_ndcg_cut",
                 "-c: every qrels query counts, a missing one as 0.",
                 "trec_eval 9.0.8 trec_eval.c (-c: average_complete_flag), m_ndcg_cut.c",
                 refuses=("duplicates",), queries="qrels", checked_against="pytrec-eval-terrier"),
    _run_library("trec_eval_10", "trec_eval 10.0", "trec_eval -m ndcg_cut.K qrels run", "trec_eval_ndcg_cut",
                 "As trec_eval 9.0.8 for nDCG.", "trec_eval 10.0 m_ndcg_cut.c", refuses=("duplicates",),
                 versions=_TREC10),
    _run_library("trec_eval_10_c", "trec_eval 10.0 -c", "trec_eval -c -m ndcg_cut.K qrels run", "trec_eval_ndcg_cut",
                 "As trec_eval 9.0.8 -c for nDCG.", "trec_eval 10.0 m_ndcg_cut.c", refuses=("duplicates",),
                 queries="qrels", versions=_TREC10),
    _run_library("pytrec_eval", "pytrec_eval", "mean of pytrec_eval.RelevanceEvaluator(qrels, {'ndcg_cut.K'})"
                 ".evaluate(run) over the queries it returns", "trec_eval_ndcg_cut",
                 "trec_eval 9.0.8's code on dicts: a dict holds a document once (the last line when filled line by "
                 "line; pytrec_eval.parse_run refuses a repeat), grades are ints, and the queries returned are "
                 "those in both (no -c).",
                 "pytrec_eval-terrier 0.5.11: pytrec_eval.cpp (RelevanceEvaluator), trec_eval 9.0.8",
                 duplicates="last", checked_against="pytrec-eval-terrier"),
    _run_library("ir_measures", "ir_measures (pytrec_eval provider, its default)",
                 "ir_measures.calc_aggregate([nDCG@K], qrels, run)", "trec_eval_ndcg_cut",
                 "A qrels query the run does not answer counts 0 (the evaluator yields the measure's default for "
                 "it); the run becomes a dict (the last of two lines wins).",
                 "ir_measures 0.4.3: providers/base.py (Evaluator.iter_calc), providers/pytrec_eval_provider.py",
                 duplicates="last", queries="qrels", checked_against="ir-measures"),
    _run_library("ir_measures_gdeval", "ir_measures nDCG(dcg='exp-log2') (gdeval provider, its default)",
                 "ir_measures.calc_aggregate([nDCG(dcg='exp-log2')@K], qrels, run)", "gdeval",
                 "gdeval.pl runs on the files: every line counts, topics without a relevant document and missing "
                 "topics count 0 in ir_measures' mean, and per-topic values are read from gdeval's 5-decimal "
                 "output.",
                 "ir_measures 0.4.3: providers/gdeval_provider.py, bin/gdeval.pl (runOrder, dcg, topicDone)",
                 refuses=("numeric_ids", "grades_0_4", "cutoff"), duplicates="each", zero_idcg="zero", queries="qrels",
                 printed="5", checked_against="ir-measures"),
    _run_library("gdeval", "gdeval.pl (TREC Web track)", "gdeval.pl qrels run K (the mean of its per-topic lines)",
                 "gdeval",
                 "Topics without a relevant document are not printed, so they are not in the mean; 5 decimals.",
                 "gdeval.pl (TREC 2010-2014 Web track; ir_measures 0.4.3 bin/gdeval.pl)",
                 refuses=("numeric_ids", "grades_0_4", "cutoff"), duplicates="each", printed="5"),
    _run_library("ranx", "ranx", "ranx.evaluate(qrels, run, 'ndcg@K')", "ranx_ndcg",
                 "Refuses a qrels and a run with different query sets; ties as numba's quicksort leaves them.",
                 "ranx 0.3.21: meta/evaluate.py (evaluate, check_keys), metrics/ndcg.py",
                 refuses=("query_sets",), duplicates="last", checked_against="ranx"),
    _run_library("ranx_comparable", "ranx, make_comparable=True",
                 "ranx.evaluate(qrels, run, 'ndcg@K', make_comparable=True)", "ranx_ndcg",
                 "Adds empty results for qrels queries missing from the run (0) and drops run queries the qrels lack.",
                 "ranx 0.3.21: data_structures/run.py (make_comparable)", duplicates="last", queries="qrels",
                 checked_against="ranx"),
    _run_library("ir_measures_ranx", "ir_measures (ranx provider)",
                 "ir_measures.providers.registry['ranx'].calc_aggregate([nDCG@K], qrels, run)", "ranx_ndcg",
                 "ranx through ir_measures: refuses different query sets (ranx's check); with pandas 3 it stops "
                 "before evaluating ('DataFrame Query IDs column dtype must be `object`') unless pandas' "
                 "future.infer_string option is turned off.",
                 "ir_measures 0.4.3: providers/ranx_provider.py (RanxInvoker); ranx 0.3.21",
                 refuses=("query_sets",), duplicates="last", checked_against="ir-measures"),
    _run_library("ranx_burges", "ranx ndcg_burges", "ranx.evaluate(qrels, run, 'ndcg_burges@K')", "ranx_ndcg_burges",
                 "Gain 2^rel - 1; refuses different query sets.", "ranx 0.3.21: metrics/ndcg.py (ndcg_burges)",
                 refuses=("query_sets",), duplicates="last", checked_against="ranx"),
    _run_library("sklearn", "scikit-learn ndcg_score, averaged over the run's queries",
                 "mean over the run's queries of sklearn.metrics.ndcg_score([grades], [scores], k=K)", "sklearn",
                 "Each query's documents are its y_true (0 when unjudged) and y_score: the IDCG comes from them, "
                 "ties are averaged, a query the qrels lack scores 0.",
                 "scikit-learn 1.9: metrics/_ranking.py (ndcg_score, _tie_averaged_dcg)",
                 refuses=("one_document", "negative"), duplicates="each", queries="run",
                 checked_against="scikit-learn"),
    _run_library("torchmetrics", "torchmetrics RetrievalNormalizedDCG",
                 "torchmetrics.retrieval.RetrievalNormalizedDCG(top_k=K)(preds, target, indexes=query)", "torchmetrics",
                 "As scikit-learn, averaged over the run's queries; a query without a relevant document scores 0 "
                 "(empty_target_action='neg'). Sums in float32 (values agree to about 7 digits).",
                 "torchmetrics 1.9: retrieval/ndcg.py, functional/retrieval/ndcg.py",
                 duplicates="each", queries="run"),
    _run_library("spark", "Spark RankingMetrics.ndcgAt(k)",
                 "RankingMetrics(predictionAndLabels).ndcgAt(K), one row per query in both files", "spark",
                 "Binary: a predicted document that is a label gains 1; IDCG from min(labels, K) hits; the rows are "
                 "the queries of an inner join.",
                 "Spark 4.3.0 mllib RankingMetrics.scala (ndcgAt)", duplicates="each", ties="stable",
                 checked_against="pyspark",
                 call_whole="RankingMetrics(predictionAndLabels).ndcgAt(n), n at least the longest ranking, one row "
                            "per query in both files"),
    _run_library("spark_evaluator", "Spark RankingEvaluator (ndcgAtK)",
                 "RankingEvaluator(metricName='ndcgAtK', k=K).evaluate(df)", "spark",
                 "The DataFrame form of ndcgAt: the same mean over the rows.",
                 "Spark 4.3.0 ml/evaluation/RankingEvaluator.scala", duplicates="each", ties="stable",
                 checked_against="pyspark",
                 call_whole="RankingEvaluator(metricName='ndcgAtK', k=n).evaluate(df), n at least the longest "
                            "ranking"),
    _run_library("elasticsearch", "Elasticsearch _rank_eval (dcg, normalize: true)",
                 '_rank_eval {"metric": {"dcg": {"k": K, "normalize": true}}}', "elasticsearch_ndcg",
                 "Gain 2^rating - 1; the ideal ranking stops at the number of hits; the metric_score is the mean "
                 "over the requests (the run's queries).",
                 "Elasticsearch 8.x modules/rank-eval DiscountedCumulativeGain.java", refuses=("fractional", "cutoff"),
                 ties="stable", queries="run"),
)


# ------------------------------------------------------------------------------------------ the measure
#: The NDCG spellings :func:`ndcg_cutoff` accepts, as its messages list them.
NDCG_FORMS = "nDCG@K, NDCG@K, ndcg@K, ndcg_cut.K, ndcg_cut_K, nDCG, ndcg"


class MeasureError(ValueError):
    """A measure :func:`ndcg_cutoff` refuses: ``measure`` as given, ``kind`` ``"not_ndcg"`` or ``"cutoff"``
    (a cutoff below 1), so that a page can say it in its own language."""

    def __init__(self, message: str, *, measure: str, kind: str):
        super().__init__(message)
        self.measure = measure
        self.kind = kind


def ndcg_cutoff(measure: str) -> int | None:
    """The cutoff of an NDCG measure name, in trec_eval's or ir_measures' spelling.

    Parameters
    ----------
    measure : str
        ``nDCG@10`` (ir_measures), ``ndcg_cut.10`` (trec_eval's ``-m``), ``ndcg_cut_10`` (what trec_eval
        prints), ``NDCG@10``, ``ndcg@10``; ``nDCG`` or ``ndcg`` for the whole ranking.

    Returns
    -------
    int or None
        The cutoff (None: the whole ranking).

    Raises
    ------
    ValueError
        Naming the measure and the forms accepted.

    Examples
    --------
    >>> ndcg_cutoff("nDCG@10"), ndcg_cutoff("ndcg_cut.5"), ndcg_cutoff("ndcg_cut_20"), ndcg_cutoff("ndcg")
    (10, 5, 20, None)
    >>> ndcg_cutoff("map")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    metrics.runfiles.match.MeasureError: measure 'map' is not an NDCG; accepted: nDCG@K, NDCG@K, ndcg@K, ...
    """
    import re

    text = str(measure).strip()
    m = re.fullmatch(r"(?i:n?dcg)(?:@([0-9]{1,7}))?|ndcg_cut[._]([0-9]{1,7})", text, flags=re.ASCII)
    if m is None or not text.lower().startswith("ndcg"):
        raise MeasureError(f"measure {text[:40]!r} is not an NDCG; accepted: {NDCG_FORMS}", measure=text,
                           kind="not_ndcg")
    cut = m.group(1) or m.group(2)
    if cut is None:
        return None
    k = int(cut)
    if k < 1:
        raise MeasureError(f"measure {text[:40]!r}: the cutoff must be a whole number >= 1, got {k}", measure=text,
                           kind="cutoff")
    return k


# ------------------------------------------------------------------------------------------ the files
#: The reading options :func:`mean_grid` passes on (``read=``): to both readers, or to one (``*_columns``).
READ_OPTIONS = ("max_bytes", "limits", "qrels_columns", "run_columns")


def _read(source, kind: str, options: dict | None = None) -> tuple[Table, Parsed | None]:
    if isinstance(source, Table):
        if source.kind != kind:
            raise ValueError(f"{kind} must be a {kind} table, got a {source.kind} table")
        return source, None
    if isinstance(source, pd.DataFrame):
        return table_from_frame(source, kind), None
    if isinstance(source, Parsed):
        parsed = source
    elif isinstance(source, (bytes, bytearray, memoryview, str, os.PathLike)):
        data = source if isinstance(source, (bytes, str, os.PathLike)) else memoryview(source)  # read in place
        opts = dict(options or {})
        columns = opts.pop(f"{kind}_columns", None)
        opts.pop("qrels_columns", None), opts.pop("run_columns", None)
        parsed = (read_qrels if kind == "qrels" else read_run)(data, columns=columns, **opts)
    else:
        raise ValueError(f"{kind} must be a path, the file's bytes, a Parsed or Table of metrics.runfiles.read, or "
                         f"a pandas DataFrame; got {type(source).__name__}")
    if parsed.kind != kind:
        raise ValueError(f"{kind} must be a {kind} file, got a {parsed.kind} file")
    if parsed.fatal:
        first = next((p.message for p in parsed.problems if p.severity == "fatal"), "it cannot be read")
        raise ValueError(f"{kind} {parsed.name!r:.60} cannot be used: {first}")
    return parsed.table, parsed


def _all_run_rows(source, parsed: Parsed | None) -> pd.DataFrame | None:
    """Every line of a TREC run that repeats a document, as rows (qid, docno, score), or None when the run
    has no repeated document or is not TREC text (then only the first line of a repeat is known)."""
    if parsed is None or isinstance(source, Parsed) or not any(p.kind == "duplicate" for p in parsed.problems):
        return None
    if parsed.format not in ("trec", "whitespace") or any(p.kind not in ("duplicate", "more") for p in parsed.errors):
        return None
    data = source if isinstance(source, (bytes, bytearray, memoryview)) else None
    if data is None:
        with open(source, "rb") as fh:
            data = fh.read()
    try:
        frame = pd.read_csv(BytesIO(bytes(data)), sep=r"\s+", header=None, usecols=[0, 2, 4], dtype=str,
                            names=["qid", "q0", "docno", "rank", "score", "tag"], index_col=False,
                            skiprows=parsed.table.header_lines if parsed.table is not None else 0,
                            encoding=parsed.encoding or "utf-8", engine="c")
        frame["score"] = pd.to_numeric(frame["score"], errors="raise").astype(np.float64)
    except (ValueError, TypeError, UnicodeDecodeError, pd.errors.ParserError):
        return None
    if frame.isna().any().any() or not np.isfinite(frame["score"].to_numpy()).all():
        return None
    return frame.reset_index(drop=True)


def _table_of_rows(frame: pd.DataFrame, name: str, tag: str | None) -> Table:
    qid = pa.array(frame["qid"].astype(str).to_numpy(object), pa.string())
    docno = pa.array(frame["docno"].astype(str).to_numpy(object), pa.string())
    return Table(name, "run", pc.dictionary_encode(qid), pc.dictionary_encode(docno),
                 frame["score"].to_numpy(np.float64), tag=tag)


def _run_versions(table: Table, rows: pd.DataFrame | None) -> dict[str, Table]:
    """The run under each duplicate rule (one table for all when no document repeats)."""
    if rows is None:
        return {"first": table}
    first = rows.drop_duplicates(["qid", "docno"], keep="first")
    last_score = rows.groupby(["qid", "docno"], sort=False)["score"].last()
    last = first.drop(columns="score").merge(last_score.reset_index(), on=["qid", "docno"], how="left")
    return {"first": _table_of_rows(first, table.name, table.tag), "last": _table_of_rows(last, table.name, table.tag),
            "each": _table_of_rows(rows, table.name, table.tag)}


def _ids(table: Table) -> np.ndarray:
    codes = np.unique(table.qid.indices.to_numpy())
    return np.asarray(table.qid.dictionary.take(pa.array(codes)).to_pylist(), dtype=object)


# ------------------------------------------------------------------------------------------ the grid
class GridTooLarge(ValueError):
    """The files need more per-query values than ``max_values`` allows (``size``, ``limit``)."""

    def __init__(self, size: int, limit: int):
        super().__init__(f"max_values: these files need {size:,} per-query values (about {size * 8 / 1e6:,.0f} MB) "
                         f"for every setting, more than the {limit:,} allowed; evaluate them with the command line "
                         "(python -m metrics.runfiles --match VALUE -m MEASURE qrels run), or try fewer settings "
                         "(dimensions=...)")
        self.size, self.limit = size, limit


@dataclass
class MeanGrid:
    """Every combination's per-query values for one qrels, run and cutoff (see :func:`mean_grid`).

    ``queries`` are the qrels queries (sorted ids), ``foreign`` the run's queries the qrels lack,
    ``candidates`` the choices tried per dimension (the others cannot change a value on these files),
    ``refused`` library key -> (refusal key, detail).
    """

    k: int | None
    queries: np.ndarray
    foreign: np.ndarray
    candidates: dict
    refused: dict
    _values: dict = field(default_factory=dict, repr=False)  # (ranking, variant) -> per-query array
    _present: dict = field(default_factory=dict, repr=False)  # ranking -> bool array
    _positive: dict = field(default_factory=dict, repr=False)  # (ranking, level, idcg) -> IDCG > 0
    seconds: float = 0.0

    _RANKING = ("duplicates", "grades", "depth", "judged_only")
    _VARIANT = ("ties", "gain", "level", "idcg")

    def canonical(self, settings: dict) -> dict:
        """A point's settings with each choice the files cannot tell apart from another replaced by the one
        tried (no ties in the run: every tie rule is trec_eval's; -M beyond the deepest query: none; ...)."""
        out = {}
        for d, choice in settings.items():
            cands = self.candidates[d]
            out[d] = choice if choice in cands else _REPRESENTATIVE.get(d, lambda c, cs: cs[0])(choice, cands)
        return out

    def per_query(self, settings: dict) -> pd.Series:
        """The per-query values a point averages, by query id (the queries it counts, in its order: the
        qrels queries sorted, then the run's other queries)."""
        s = self.canonical(settings)
        ranking = tuple(s[d] for d in self._RANKING)
        values = self._values[ranking + tuple(s[d] for d in self._VARIANT)]
        present = self._present[ranking]
        positive = self._positive[(ranking, s["level"], s["idcg"])]
        v = values.copy()
        if s["zero_idcg"] == "one":
            v[present & ~positive] = 1.0
        if s["printed"] == "5":
            v = _printed5(v)
        counted = present.copy()
        if s["zero_idcg"] == "nan":
            counted &= positive
        if s["queries"] == "qrels":
            v = np.where(counted, v, 0.0)
            counted = np.ones_like(counted)
        out = pd.Series(v[counted], index=pd.Index(self.queries[counted], name="qid"), name="value")
        if s["queries"] == "run" and self.foreign.size and s["zero_idcg"] != "nan":
            extra = pd.Series(ZERO_IDCG[s["zero_idcg"]].value, index=pd.Index(self.foreign, name="qid"), name="value")
            out = pd.concat([out, extra])
        return out

    def mean(self, settings: dict) -> float:
        """The mean a point gives (NaN when it counts no query)."""
        v = self.per_query(settings).to_numpy()
        return math.fsum(v.tolist()) / v.size if v.size else math.nan

    def means(self) -> list[tuple[dict, float]]:
        """Every point of the grid and its mean: (settings, mean) for the product of :attr:`candidates`.

        The per-query arrays of a ranking and variant are read once; the query-level settings (zero-IDCG
        policy, printing, queries averaged) are sums over them (numpy sums: equal to :meth:`mean` to about
        1e-15)."""
        c = self.candidates
        out = []
        n_qrels, n_foreign = self.queries.size, self.foreign.size
        for ranking in product(*(c[d] for d in self._RANKING)):
            present = self._present[ranking]
            for variant in product(*(c[d] for d in self._VARIANT)):
                values = self._values[ranking + variant]
                positive = self._positive[(ranking, variant[2], variant[3])]
                for zero in c["zero_idcg"]:
                    v = np.where(present & ~positive, 1.0, values) if zero == "one" else values
                    counted = present & positive if zero == "nan" else present
                    count = int(counted.sum())
                    for printed in c["printed"]:
                        total = float((_printed5(v) if printed == "5" else v)[counted].sum())
                        for queries in c["queries"]:
                            if queries == "both":
                                mean = total / count if count else math.nan
                            elif queries == "qrels":
                                mean = total / n_qrels if n_qrels else math.nan
                            else:
                                extra = 0 if zero == "nan" else n_foreign
                                den = count + extra
                                add = extra * ZERO_IDCG[zero].value if extra else 0.0
                                mean = (total + add) / den if den else math.nan
                            point = dict(zip(self._RANKING, ranking))
                            point.update(zip(self._VARIANT, variant))
                            point.update(zero_idcg=zero, printed=printed, queries=queries)
                            out.append((point, mean))
        return out


def _printed5(v: np.ndarray) -> np.ndarray:
    """Each value as printf("%.5f") prints it (correctly rounded from the binary value), read back."""
    r = np.round(v, 5)
    close = np.abs(np.abs(v - r) - 0.5e-5) < 1e-12
    for i in np.flatnonzero(close):
        r[i] = float(f"{v[i]:.5f}")
    return r


def _representative_depth(choice, cands):
    return "none"


_REPRESENTATIVE = {"depth": _representative_depth}


def _refusals(key: str, qrels: Table, run_table: Table, duplicates: bool, k, foreign, missing) -> tuple | None:
    """Why a library gives no number for these files (a key of REFUSALS and a detail), or None."""
    refuses = RUN_LIBRARIES[key].refuses
    grades = qrels.value
    if "cutoff" in refuses and k is None:
        return "cutoff", ""
    if "duplicates" in refuses and duplicates:
        return "duplicates", ""
    if "query_sets" in refuses and (foreign.size or missing.size):
        example = foreign[0] if foreign.size else missing[0]
        return "query_sets", shorten(str(example))  # a detail for a message: an id is shown shortened
    if "numeric_ids" in refuses:
        ids = list(qrels.qid.dictionary.to_pylist()) + list(run_table.qid.dictionary.to_pylist())
        bad = next((i for i in ids if not str(i).rsplit("-", 1)[-1].isdigit()), None)
        if bad is not None:
            return "numeric_ids", shorten(str(bad))
    if "grades_0_4" in refuses:
        bad = np.flatnonzero((grades != np.trunc(grades)) | (grades > 4))
        if bad.size:
            return "grades_0_4", f"{grades[bad[0]]:g}"
    if "fractional" in refuses:
        bad = np.flatnonzero(grades != np.trunc(grades))
        if bad.size:
            return "fractional", f"{grades[bad[0]]:g}"
    if "negative" in refuses and (grades < 0).any():
        return "negative", f"{grades[grades < 0][0]:g}"
    if "one_document" in refuses:
        counts = np.bincount(run_table.qid.indices.to_numpy(), minlength=len(run_table.qid.dictionary))
        ones = np.flatnonzero(counts == 1)
        if ones.size:
            return "one_document", shorten(str(run_table.qid.dictionary[int(ones[0])].as_py()))
    return None


def _levels(grades: np.ndarray) -> tuple[str, ...]:
    """Relevance levels worth trying: a level changes a value only when some grade lies in (0, level)."""
    positive = grades[grades > 0]
    return ("none",) + tuple(str(level) for level in (1, 2) if ((positive > 0) & (positive < level)).any())


def _depths(run: Table) -> tuple[str, ...]:
    deepest = int(np.bincount(run.qid.indices.to_numpy()).max()) if run.n_rows else 0
    return ("none",) + tuple(str(d) for d in (1000, 100) if d < deepest)


def mean_grid(qrels, run, measure: str, *, dimensions: dict | None = None, max_values: int | None = None,
              read: dict | None = None) -> MeanGrid:
    """Every combination of :data:`MEAN_DIMENSIONS` evaluated on the files, per query.

    Parameters
    ----------
    qrels, run
        A path, the file's bytes, a :class:`~metrics.runfiles.read.Parsed` or
        :class:`~metrics.runfiles.read.Table` (``read_qrels`` / ``read_run``), or a DataFrame (``qid, docno,
        rel`` / ``qid, docno, score``).  Repeated documents in a TREC run file (read from a path or bytes)
        are tried every way of :data:`DUPLICATES`; a Parsed or Table keeps the first line only.
    measure : str
        An NDCG measure (:func:`ndcg_cutoff`).
    dimensions : dict, optional
        Dimension -> the choices to try instead of all (e.g. ``{"ties": ("trec_eval",)}``).
    max_values : int, optional
        Refuse files whose grid would hold more per-query values than this (queries × rankings × variants,
        8 bytes each), before anything is evaluated.  Default ``None``: no limit (the app sets one).
    read : dict, optional
        Options for reading files given as paths or bytes (:data:`READ_OPTIONS`): ``max_bytes``, ``limits``
        (:class:`metrics.runfiles.read.Limits`), ``qrels_columns``, ``run_columns`` (as ``columns`` of
        :func:`~metrics.runfiles.read.read_qrels` / :func:`~metrics.runfiles.read.read_run`).

    Returns
    -------
    MeanGrid
        ``.per_query(settings)``, ``.mean(settings)``, ``.candidates``, ``.refused``.

    Raises
    ------
    ValueError
        For a measure that is not an NDCG, files that cannot be used, an unknown dimension or choice, or a
        grid larger than ``max_values`` (the message gives its size).

    Examples
    --------
    Query 1 ranks b (grade 1) over a (grade 2): 2.2619 / 2.6309 = 0.8597; averaged over the query in
    both files that is the mean; with -c the unanswered query 2 halves it:

    >>> g = mean_grid(b"1 0 a 2\\n1 0 b 1\\n2 0 c 1\\n", b"1 Q0 b 1 2 r\\n1 Q0 a 2 1 r\\n", "nDCG@10")
    >>> point = {**RUN_LIBRARIES["trec_eval_9"].settings}
    >>> round(g.mean(point), 4), round(g.mean({**point, "queries": "qrels"}), 4)
    (0.8597, 0.4299)
    """
    started = time.perf_counter()
    k = ndcg_cutoff(measure)
    unknown = sorted(set(read or {}) - set(READ_OPTIONS))
    if unknown:
        raise ValueError(f"read: unknown option {unknown[0]!r:.40}; options are {', '.join(READ_OPTIONS)}")
    qrels_source, run_source = qrels, run
    qrels, _ = _read(qrels_source, "qrels", read)
    rows = None
    if isinstance(run_source, pd.DataFrame) and {"qid", "docno", "score"} <= set(run_source.columns) and \
            run_source.astype({"qid": str, "docno": str}).duplicated(["qid", "docno"]).any():
        rows = pd.DataFrame({"qid": run_source["qid"].astype(str), "docno": run_source["docno"].astype(str),
                             "score": pd.to_numeric(run_source["score"], errors="coerce").astype(np.float64)})
        if not np.isfinite(rows["score"].to_numpy()).all():
            raise ValueError("the run's score column holds a value that is not a finite number")
        run_table, run_parsed = _read(rows.drop_duplicates(["qid", "docno"], keep="first"), "run")
    else:
        run_table, run_parsed = _read(run_source, "run", read)
        if not isinstance(run_source, (Table, pd.DataFrame)):
            rows = _all_run_rows(run_source, run_parsed)
    versions = _run_versions(run_table, rows)
    first = versions["first"]
    qi = QrelsIndex(qrels)
    queries = qi.queries
    run_ids = _ids(first)
    foreign = np.asarray(sorted(set(run_ids.tolist()) - set(queries.tolist())), dtype=object)
    missing = np.asarray(sorted(set(queries.tolist()) - set(run_ids.tolist())), dtype=object)
    fractional = bool((qrels.value != np.trunc(qrels.value)).any())
    scores_tie = _has_ties(first)
    cands = {
        "duplicates": tuple(versions),
        "grades": ("as_is", "truncate") if fractional else ("as_is",),
        "depth": _depths(versions.get("each", first)),
        "judged_only": ("all", "judged"),
        "ties": tuple(TIES) if scores_tie else ("trec_eval",),
        "gain": ("linear", "exponential", "binary"),
        "level": _levels(qrels.value),
        "idcg": ("judged", "list", "hits") if k is not None else ("judged", "list"),
        "zero_idcg": tuple(ZERO_IDCG),
        "queries": ("both", "qrels", "run") if foreign.size else ("both", "qrels"),
        "printed": tuple(PRINTED),
    }
    if not missing.size:
        cands["queries"] = tuple(q for q in cands["queries"] if q != "qrels")
    for d, choices in (dimensions or {}).items():
        if d not in MEAN_DIMENSIONS:
            raise ValueError(f"dimensions: unknown dimension {d!r:.40}; dimensions are {', '.join(MEAN_DIMENSIONS)}")
        chosen = tuple(str(c) for c in choices)
        unknown = [c for c in chosen if c not in cands[d]]
        if unknown or not chosen:
            raise ValueError(f"dimensions[{d!r}]: {unknown[0] if unknown else 'nothing'!r:.40} is not a choice "
                             f"here; choices for these files: {', '.join(cands[d])}")
        cands[d] = chosen
    if max_values is not None:
        size = queries.size * math.prod(len(cands[d]) for d in (*MeanGrid._RANKING, *MeanGrid._VARIANT))
        if size > max_values:
            raise GridTooLarge(size, max_values)
    grid = MeanGrid(k, queries, foreign, cands, {})
    for key in RUN_LIBRARIES:
        why = _refusals(key, qrels, first, "each" in versions, k, foreign, missing)
        if why is not None:
            grid.refused[key] = why
    qrels_by_reading = {"as_is": qrels, "truncate": replace(qrels, value=np.trunc(qrels.value))}
    for ranking in product(cands["duplicates"], cands["grades"], cands["depth"], cands["judged_only"]):
        dup, grades, depth, judged = ranking
        _evaluate_ranking(grid, ranking, qrels_by_reading[grades], versions[dup], k,
                          max_docs=None if depth == "none" else int(depth), judged_only=judged == "judged")
    grid.seconds = time.perf_counter() - started
    return grid


def _has_ties(run: Table) -> bool:
    frame = pd.DataFrame({"q": run.qid.indices.to_numpy(), "s": run.value})
    return bool(frame.duplicated().any())


def _level_arg(level: str):
    return None if level == "none" else float(level)


def _evaluate_ranking(grid: MeanGrid, ranking: tuple, qrels: Table, run: Table, k, *, max_docs, judged_only) -> None:
    """One ranking's per-query values of every variant: one engine call for every ``nDCG(...)@k`` spec at once,
    and a second one only when some query returns fewer than k documents (the hits IDCG's cutoffs)."""
    c = grid.candidates
    opts = {"max_docs": max_docs, "judged_only": judged_only}
    plain, masks = {}, {}
    for ties, gain, level in product(c["ties"], c["gain"], c["level"]):
        lv = _level_arg(level)
        for idcg in ("judged", "list"):
            if idcg in c["idcg"] or (idcg == "judged" and "hits" in c["idcg"]):
                plain[(ties, gain, level, idcg)] = Variant(gain=gain, idcg=idcg, ties=ties, k=k, level=lv).format()
    for level in c["level"]:  # IDCG > 0 of the list ideal: some retrieved document is relevant
        masks[level] = Variant(gain="binary", idcg="list", level=_level_arg(level)).format()
    specs = list(dict.fromkeys([*plain.values(), *masks.values(), "num_ret"]))
    result = evaluate_runs(qrels, [run], specs, **opts).runs[0]
    values, present = result.values, result.present
    grid._present[ranking] = present
    for key, spec in plain.items():
        grid._values[ranking + key] = values[measure_names([spec])[0]]
    if "hits" in c["idcg"]:
        num_ret = values["num_ret"]
        short = sorted({int(n) for n in num_ret[present] if 0 < n < k})
        hits = {}
        if short:
            for ties, gain, level in product(c["ties"], c["gain"], c["level"]):
                base = Variant(gain=gain, idcg="judged", ties=ties, level=_level_arg(level)).format()
                hits[(ties, gain, level)] = f"{base}@{','.join(map(str, short))}"
            extra = evaluate_runs(qrels, [run], list(hits.values()), **opts).runs[0].values
        for ties, gain, level in product(c["ties"], c["gain"], c["level"]):
            out = grid._values[ranking + (ties, gain, level, "judged")].copy()
            if short:
                for n, name in zip(short, measure_names([hits[(ties, gain, level)]])):
                    at = present & (num_ret == n)
                    out[at] = extra[name][at]
            grid._values[ranking + (ties, gain, level, "hits")] = out
    qi = QrelsIndex(qrels)
    for level in c["level"]:
        lv = _level_arg(level)
        g = np.where(qi.grade > 0, qi.grade, 0.0)
        if lv is not None:
            g = np.where(g >= lv, g, 0.0)
        judged_pos = np.zeros(qi.n, dtype=bool)
        judged_pos[qi.q[g > 0]] = True
        list_pos = values[measure_names([masks[level]])[0]] > 0
        for idcg in c["idcg"]:
            grid._positive[(ranking, level, idcg)] = list_pos if idcg == "list" else judged_pos


# ------------------------------------------------------------------------------------------ matching
@dataclass(frozen=True)
class LibraryMean:
    """A library whose mean gives the number: its key, its mean and how the mean is written to give it
    (a key of :data:`metrics.lessons.match.WRITINGS`: rounded, or cut off; ``times_100``: multiplied by 100
    and written without the % sign, as papers' tables print NDCG; ``decimals``: the decimals written)."""

    key: str
    value: float
    writing: str
    n_queries: int
    times_100: bool = False
    decimals: int = 0


@dataclass(frozen=True)
class Family:
    """Settings that give the number: dimension -> the choices that do (None: any choice does);
    ``times_100``: the number is this mean ×100 written without the % sign."""

    settings: dict
    value: float
    times_100: bool = False


@dataclass(frozen=True)
class MeanNearMiss:
    """A library whose mean does not give the number, and why.

    ``dimension`` is the first setting (in :data:`MEAN_DIMENSIONS` order) where it departs from the nearest
    family that gives the number (None: no setting gives it); ``theirs`` its choice, ``needed`` the choices
    that give the number; ``queries`` the queries that make the difference, as (qid, library's value,
    value with the needed choice; NaN: not counted), largest difference first.
    """

    key: str
    value: float
    dimension: str | None
    theirs: str | None = None
    needed: tuple = ()
    differing: tuple = ()
    queries: tuple = ()
    needed_value: float = math.nan


@dataclass
class MeanMatch:
    """What :func:`match_mean` found."""

    target: object
    measure: str
    k: int | None
    libraries: list[LibraryMean]
    families: list[Family]
    near_misses: list[MeanNearMiss]
    refused: dict
    candidates: dict
    grid: MeanGrid
    seconds: float = 0.0

    @property
    def library_keys(self) -> list[str]:
        return [m.key for m in self.libraries]

    def near_miss(self, key: str) -> MeanNearMiss | None:
        return next((m for m in self.near_misses if m.key == key), None)


def _within(h, x: float) -> bool:
    return math.isfinite(x) and abs(x - h.value) <= h.tolerance * (1 + 1e-9) + 1e-12


SHOWN_QUERIES = 5


def _difference(grid: MeanGrid, mine: dict, other: dict) -> tuple:
    a, b = grid.per_query(mine), grid.per_query(other)
    both = pd.concat([a.rename("a"), b.rename("b")], axis=1)
    diff = (both["a"] - both["b"]).abs()
    one_side = both["a"].isna() != both["b"].isna()
    diff = diff.where(~one_side, both[["a", "b"]].abs().max(axis=1) + 1e9)  # counted by one only: first
    diff = diff[(diff > 1e-12) | one_side].sort_values(ascending=False, kind="stable")
    return tuple((str(q), float(both.at[q, "a"]), float(both.at[q, "b"])) for q in diff.index[:SHOWN_QUERIES])


def match_mean(value, qrels, run, measure: str, *, dimensions: dict | None = None,
               max_values: int | None = None, read: dict | None = None) -> MeanMatch:
    """Every library and setting whose mean of ``measure`` over the run rounds to ``value``.

    Parameters
    ----------
    value : str, Decimal, float or int
        The reported mean, as written: its decimals are its precision (``"0.4523"`` allows 0.45225 to
        0.45235; give text, a float forgets trailing zeros).  ``"45.23%"`` is read as 0.4523; ``"45.23"``
        (above 1, at most 100, no sign: a mean NDCG cannot be 45.23) as the mean ×100 without its % sign, as
        papers print it (:func:`metrics.lessons.match.unsigned_percent`; ``LibraryMean.times_100``).
    qrels, run
        The files, as for :func:`mean_grid`.
    measure : str
        An NDCG measure: ``nDCG@10``, ``ndcg_cut.10``, ``ndcg_cut_10``, ``nDCG`` (:func:`ndcg_cutoff`).
    dimensions : dict, optional
        Dimension -> choices to try instead of all of them.
    max_values : int, optional
        The largest grid accepted (:func:`mean_grid`).
    read : dict, optional
        Options for reading the files (:func:`mean_grid`).

    Returns
    -------
    MeanMatch
        ``libraries`` (:class:`LibraryMean`, rounded matches first, then cut-off ones), ``families``,
        ``near_misses`` (closest first), ``refused`` (library key -> (refusal, detail)), ``grid`` (every
        point's per-query values), ``seconds``.

    Raises
    ------
    ValueError
        If ``value`` is not a finite number, the measure is not an NDCG, or a file cannot be used.

    See Also
    --------
    describe : the result as English sentences (the command line's ``--match``).
    metrics.lessons.match.match_number : the same question for one ranked list.

    Examples
    --------
    Query 1: b (grade 1) above a (grade 2): (1 + 2/log2 3) / (2 + 1/log2 3) = 0.8597; query 2 finds
    nothing relevant: 0.  trec_eval averages both: 0.4299.  ir_measures also counts the unanswered
    query 3 as 0: 0.2866, a near miss whose difference is query 3:

    >>> r = match_mean("0.4299", b"1 0 a 2\\n1 0 b 1\\n2 0 c 1\\n3 0 d 1\\n",
    ...                b"1 Q0 b 1 2 r\\n1 Q0 a 2 1 r\\n2 Q0 x 1 1 r\\n", "nDCG@10")
    >>> "trec_eval_9" in r.library_keys, "pytrec_eval" in r.library_keys
    (True, True)
    >>> m = r.near_miss("ir_measures")
    >>> round(m.value, 4), m.dimension, m.queries
    (0.2866, 'queries', (('3', 0.0, nan),))
    """
    started = time.perf_counter()
    read_value(value)  # a bad value is refused before the files are read
    grid = mean_grid(qrels, run, measure, dimensions=dimensions, max_values=max_values, read=read)
    result = match_grid(value, grid, measure=str(measure))
    result.seconds = time.perf_counter() - started
    return result


def match_grid(value, grid: MeanGrid, *, measure: str = "nDCG") -> MeanMatch:
    """:func:`match_mean` on a grid already evaluated (:func:`mean_grid`): another typed value costs no
    evaluation (the app keeps the grid of the files while the value is typed).

    Parameters
    ----------
    value : str, Decimal, float or int
        The reported mean, as written.
    grid : MeanGrid
        From :func:`mean_grid`.
    measure : str, default "nDCG"
        The measure's name as it is shown.

    Returns
    -------
    MeanMatch
        As for :func:`match_mean`.

    Raises
    ------
    ValueError
        If ``value`` is not a finite number.

    Examples
    --------
    >>> g = mean_grid(b"1 0 a 2\\n1 0 b 1\\n2 0 c 1\\n", b"1 Q0 b 1 2 r\\n1 Q0 a 2 1 r\\n", "nDCG@10")
    >>> match_grid("0.86", g).library_keys[:2], match_grid("0.43", g).library_keys[:2]
    (['trec_eval_9', 'trec_eval_10'], ['trec_eval_9_c', 'trec_eval_10_c'])

    A paper's 86 for the same mean (0.8597 ×100 = 85.97, rounded at 0 decimals, no % sign):

    >>> m = match_grid("86", g).libraries[0]
    >>> m.key, m.times_100, m.writing, m.decimals
    ('trec_eval_9', True, 'rounded', 0)
    """
    h = read_value(value)
    started = time.perf_counter()
    cands = grid.candidates
    dims = list(MEAN_DIMENSIONS)
    # a mean of NDCGs is at most 1: a number above 1 and at most 100 without a % sign may be the mean ×100
    scaled = unsigned_percent(h)
    records = [{**settings, "value": mean} for settings, mean in grid.means()
               if _within(h, mean) or (scaled is not None and _within(scaled, mean))]
    families = [Family(s, v, not _within(h, v)) for s, v in fold_settings(records, cands, dims)]
    found, near = [], []
    for key, lib in RUN_LIBRARIES.items():
        if key in grid.refused:
            continue
        point = grid.canonical(lib.settings)
        mean = grid.mean(point)
        how = written_as(h, mean, ndcg=True) if math.isfinite(mean) else None
        if how is not None and how.writing in ("rounded", "truncated"):
            found.append(LibraryMean(key, mean, how.writing, len(grid.per_query(point)), how.times_100,
                                     how.decimals))
        else:
            near.append(_near(grid, key, point, mean, families))
    found.sort(key=lambda m: m.writing != "rounded")
    targets = [h.value] + ([] if scaled is None else [scaled.value])
    near.sort(key=lambda m: min(abs(m.value - x) for x in targets) if math.isfinite(m.value) else math.inf)
    return MeanMatch(h, measure, grid.k, found, families, near, dict(grid.refused), cands, grid,
                     time.perf_counter() - started)


def _near(grid: MeanGrid, key: str, point: dict, mean: float, families: list[Family]) -> MeanNearMiss:
    best = None
    for f in families:
        diff = [d for d in MEAN_DIMENSIONS if f.settings[d] is not None and point[d] not in f.settings[d]]
        if best is None or len(diff) < len(best[0]):
            best = (diff, f)
    if best is None or not best[0]:
        return MeanNearMiss(key, mean, None)
    diff, f = best
    d = diff[0]
    other = {**point, d: f.settings[d][0]}
    return MeanNearMiss(key, mean, d, point[d], tuple(f.settings[d]), tuple(diff), _difference(grid, point, other),
                        grid.mean(other))


# ------------------------------------------------------------------------------------------ sentences
def _choice_name(d: str, choice: str) -> str:
    table = MEAN_DIMENSIONS[d].choices
    entry = table(choice) if callable(table) else table[choice]
    return entry.name


def _settings_text(settings: dict) -> str:
    parts = [f"{MEAN_DIMENSIONS[d].name}: " + " or ".join(_choice_name(d, c) for c in choices)
             for d, choices in settings.items() if choices is not None]
    return "; ".join(parts) or "any setting"


def _fmt(x: float, digits: int) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:.{digits}f}"


def _decimals_text(n: int) -> str:
    return f"{n} decimal" if n == 1 else f"{n} decimals"


def describe(result: MeanMatch, *, digits: int | None = None, families: int = 10) -> list[str]:
    """The result as English sentences, for the command line (the app words it in three languages).

    Parameters
    ----------
    result : MeanMatch
        From :func:`match_mean`.
    digits : int, optional
        Decimals of the means shown.  Default: two more than the value was written with, at least 4.
    families : int, default 10
        How many families of settings to list.

    Returns
    -------
    list of str
        One line per library that gives the number, family, near miss and refusal, under headers.

    Examples
    --------
    >>> r = match_mean("0.4299", b"1 0 a 2\\n1 0 b 1\\n2 0 c 1\\n3 0 d 1\\n",
    ...                b"1 Q0 b 1 2 r\\n1 Q0 a 2 1 r\\n2 Q0 x 1 1 r\\n", "nDCG@10")
    >>> print(describe(r)[1])
    - trec_eval 9.0.8 gives 0.429859 (trec_eval -m ndcg_cut.10 qrels run), over 2 queries.
    """
    h = result.target
    scaled = unsigned_percent(h)
    if digits is None:
        digits = max(h.scale + 2, 4) if scaled is None else max(h.scale + 4, 6)
    header = f"Libraries whose mean of {result.measure} gives {h.text}"
    if h.percent:
        header += f" ({_decimals_text(h.decimals)}; {_fmt(h.value, h.scale)} as a fraction)"
    elif scaled is not None:
        header += (f" ({_decimals_text(h.decimals)}; without a % sign it may be the mean NDCG ×100, "
                   f"{_fmt(scaled.value, scaled.scale)} as a fraction)")
    lines = [header + ":"]
    for m in result.libraries:
        lib = RUN_LIBRARIES[m.key]
        if m.times_100:
            way = "rounded at" if m.writing == "rounded" else "cut off after"
            how = (f" ×100 = {_fmt(100 * m.value, digits - 2)}, {way} {_decimals_text(m.decimals)}"
                   f"{'' if m.writing == 'rounded' else ' (not rounded)'} and written without the % sign")
        else:
            how = "" if m.writing == "rounded" else f", cut off after {_decimals_text(m.decimals)} (not rounded)"
        lines.append(f"- {lib.name} gives {_fmt(m.value, digits)}{how} ({lib.call_at(result.k)}), over "
                     f"{m.n_queries} queries.")
    if not result.libraries:
        lines.append("- none.")
    lines.append(f"Settings that give it ({len(result.families)} families):")
    for f in result.families[:families]:
        hundred = f" (×100: {_fmt(100 * f.value, digits - 2)})" if f.times_100 else ""
        lines.append(f"- {_settings_text(f.settings)}: {_fmt(f.value, digits)}{hundred}.")
    if len(result.families) > families:
        lines.append(f"- ... and {len(result.families) - families} more.")
    lines.append("Near misses:")
    for m in result.near_misses:
        lib = RUN_LIBRARIES[m.key]
        if m.dimension is None:
            lines.append(f"- {lib.name} gives {_fmt(m.value, digits)}; no setting gives {h.text}.")
            continue
        needed = " or ".join(_choice_name(m.dimension, c) for c in m.needed)
        text = (f"- {lib.name} gives {_fmt(m.value, digits)}. First difference, {MEAN_DIMENSIONS[m.dimension].name}: "
                f"it uses {_choice_name(m.dimension, m.theirs)}; {h.text} needs {needed} (that change alone gives "
                f"{_fmt(m.needed_value, digits)}).")
        if m.queries:
            shown = ", ".join(f"{shorten(q)} ({_fmt(a, 4)} vs {_fmt(b, 4)})" for q, a, b in m.queries)
            text += f" The queries that make the difference: {shown}."
        lines.append(text)
    for key, (why, detail) in result.refused.items():
        lines.append(f"- {RUN_LIBRARIES[key].name} gives no number: it {REFUSALS[why].help}"
                     + (f" (here: {detail})." if detail else "."))
    return lines


def _check_library(key: str) -> Choice:
    return check_choice(key, RUN_LIBRARIES, name="library")
