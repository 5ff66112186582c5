"""The run-file engine: TREC qrels and runs (and CSV/TSV) read with pyarrow, every query of every
run evaluated at once with numpy (numba kernels for files of a million lines and more, when numba is
installed: ``pip install ndcg-lab[fast]``; the results are the same without it).

Reading (``read``): :func:`read_qrels`, :func:`read_run`, :func:`read_files`.

One evaluation (``result``): :func:`evaluate` ``(qrels, runs, measures, *, relevance_level=1, complete=False,
judged_only=False, max_docs=None, num_docs_in_coll=0, err_gmax=None, spark=None)`` -> :class:`Result`, for
tables, files' ``Parsed`` results, blocks of queries (DataFrames) and Spark alike, every run ranked once;
trec_eval's output, the per-query rows, the paired tests' tables (:meth:`Result.paired`) and the NDCG
variants table (:meth:`Evaluation.of`) are read from the Result.

One engine (``engine``): one qrels index, one ranker (trec_eval's order; other tie rules re-order only
tied scores), one measure table (:data:`MEASURES`: trec_eval's measures, the extras and ``nDCG`` with
its gain, discount, IDCG source and tie rule as parameters, ``nDCG(gain=exponential,ties=average)@10``).
For a cluster: :func:`evaluate_block` gives the per-query rows of a block of complete queries (equal
to the single-machine rows of those queries) and :func:`summarize` the "all" rows from the rows of all
blocks (with :func:`qrels_counts` for ``-c``); see :mod:`metrics.runfiles.engine`.

trec_eval's measures (``measures``, ``trec``) -- the API for pages and scripts:

* :data:`MEASURES` -- the table: ``MEASURES["ndcg_cut"]`` is a typed :class:`~metrics.runfiles.measures.Measure`
  with ``name`` (as trec_eval spells it), ``params`` (how ``-m`` writes them: None, "cutoffs", "fractions",
  "numbers", "gains", "persistence", "variant"), ``parameters`` (typed, as ir_measures declares them),
  ``defaults`` (e.g. ``(5, 10, ..., 1000)``), ``help``, ``source`` (e.g. ``"trec_eval 9.0.8 m_ndcg_cut.c"``
  or the paper), ``origin`` (``"trec_eval"``, ``"extra"``: judged, err, rbp, rbp_resid, or ``"variant"``:
  nDCG), ``summary`` (mean, sum, count, gm, runid, none) and ``per_query``.  A new measure is one kernel
  in its family's module of :mod:`metrics.runfiles.measures` and one entry in its table.
  :data:`NICKNAMES`: the sets (``official``, ``all_trec``, ``set``, ``common``, ``extras``).
* :data:`IR_MEASURES` -- ir_measures 0.4.3's measures by its names (``nDCG@10``, ``P(rel=2)@5``,
  ``alpha_nDCG(alpha=0.5)@20``, ...), each computed as the provider ir_measures uses for it, printed as
  written and averaged as ir_measures averages (:mod:`metrics.runfiles.measures.irm`); the diversity ones
  read diversity qrels (:func:`read_subtopic_qrels`: ``qid subtopic docno rel``).
* :func:`measure_names` -- the names a list of ``-m`` specs prints (``["P.5,10"]`` -> ``P_5, P_10``);
  :func:`parse_measures` validates specs (ValueError naming the bad one).
* :func:`evaluate_measures` ``(qrels, runs, measures=("official",), *, relevance_level=1, complete=False,
  judged_only=False, max_docs=None, num_docs_in_coll=0, err_gmax=None)`` -> DataFrame ``run, measure,
  qid, value``; ``qid == "all"`` rows are trec_eval's summary (mean; sum for num_*; geometric mean for
  gm_*).  ``qrels`` / ``runs`` are tables (or Parsed results) of the readers above.
* :func:`evaluate_runs` (same arguments) -> :class:`MeasureResult` with ``.frame()``, ``.text(per_query=,
  summary=, digits=)`` (trec_eval's exact output), ``.summary(run)``, ``.runs`` and ``.problems``.

Where a reported mean comes from (``match``, ``conformance``): :func:`match_mean` ``(value, qrels, run, measure)``
-- every library (trec_eval 9 and 10, pytrec_eval, ir_measures, ranx, scikit-learn, torchmetrics, Spark,
Elasticsearch, gdeval) and setting whose mean rounds to a number as it was printed, the near misses and the
queries that make the difference; ``conformance_table`` (:func:`metrics.runfiles.conformance.conformance`) --
every library's values side by side.

NDCG under every variant (``batch``): :func:`metrics.runfiles.batch.evaluate` (variants in, the variants
table of a Result out: :class:`Evaluation`), :func:`make_variants`, :func:`query_lists`, :func:`kendall_tau`.
The command line is ``python -m metrics.runfiles`` (``cli``): trec_eval's options
and output by default.  Imported on demand: ``import metrics`` does not load this package.

>>> measure_names(["ndcg_cut.10", "map", "P.5,10"])
['map', 'P_5', 'P_10', 'ndcg_cut_10']
>>> MEASURES["ndcg_cut"].source
'trec_eval 9.0.8 m_ndcg_cut.c'
"""
from .batch import IDCG, MISSING, Evaluation, kendall_tau, make_variants, query_lists
from .engine import QrelsCounts, evaluate_block, qrels_counts, summarize
from .measures import MEASURES, NICKNAMES, measure_names, parse_measures
from .measures.irm import IR_MEASURES
from .read import Parsed, Problem, Table, id_strings, read_files, read_qrels, read_run
from .result import Result, evaluate
from .subtopics import read_subtopic_qrels
from .trec import MeasureResult, evaluate_measures, evaluate_runs

#: "Where did this number come from?" (metrics.runfiles.match, metrics.runfiles.conformance), imported when first
#: used: ``metrics.runfiles.match_mean(value, qrels, run, measure)``, ``conformance_table(qrels, run, measure)``.
_LAZY = {"match_mean": ("match", "match_mean"), "match_grid": ("match", "match_grid"),
         "mean_grid": ("match", "mean_grid"), "conformance_table": ("conformance", "conformance")}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(f"{__name__}.{module}"), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "IDCG", "IR_MEASURES", "MEASURES", "MISSING", "NICKNAMES", "Evaluation", "MeasureResult", "Parsed", "Problem",
    "QrelsCounts", "Result", "Table", "evaluate", "evaluate_block", "evaluate_measures", "evaluate_runs",
    "id_strings", "kendall_tau", "make_variants", "measure_names", "parse_measures", "qrels_counts", "query_lists",
    "read_files", "read_qrels", "read_run", "read_subtopic_qrels", "summarize", "match_mean", "match_grid",
    "mean_grid", "conformance_table",
]
