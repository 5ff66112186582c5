"""Evaluate TREC run files from the command line: trec_eval's options and output, or NDCG variants.

Usage (trec_eval's form; the output is trec_eval's, ``measure<TAB>qid<TAB>value``)::

    python -m metrics.runfiles [-q] [-c] [-n] [-M N] [-l N] [-J] [-N N] [-m measure[.params]]... QRELS RUN [RUN...]

With ``--variants`` (or any of ``--k --gain --discount --idcg --ties --log-base --relevance-level
--missing --per-query``) it prints instead one row per NDCG variant (gain/discount/IDCG source/ties)
with each run's mean, the winner and Kendall's tau against the first variant.  ``--compare MEASURE``
adds paired significance tests between the runs.  Exit status: 0 on success, 1 when a file cannot be
used (or has bad lines and ``--skip-bad-lines`` was not given), 2 for bad arguments.

>>> import contextlib, io
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = main(["-m", "map", "-m", "P.5", "data/samples/qrels.txt", "data/samples/bm25.run"])
>>> code, out.getvalue().splitlines()[0].split("\\t")[0].strip()
(0, 'map')
"""
from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .._validation import check_k, check_log_base, check_real, check_whole
from ..parse import parse_number
from ..registry import DISCOUNTS, GAINS, TIES
from ..safe_csv import to_csv
from . import _kernels
from .batch import IDCG, MISSING, evaluate, make_variants
from .measures import MEASURES, NICKNAMES, VARIANT_MEASURE, parse_measures
from .measures.irm import ALIASES, IR_MEASURES, PROVIDERS
from .options import MAX_CUTOFF, MAX_WHOLE, check_options
from .read import COLUMN_ROLES, Limits, Parsed, read_files, read_run
from .subtopics import read_subtopic_qrels
from .trec import evaluate_runs

__all__ = ["CLI_NUMBA_MIN_ROWS", "DEFAULT_MAX_RATIO", "HELP_DIFFERENCES", "format_table", "main", "run_as_script"]

#: Each command-line run pays numba's start (~1.4 s: import, loading the compiled kernels); against the
#: numpy path that pays off from about 3,000,000 run lines (measured: 2M lines 1.8-2.1 s with numba vs
#: 1.4-1.5 s without, 3M lines 2.1-2.2 s either way).  The app, a long-lived process, uses numba from 1M.
CLI_NUMBA_MIN_ROWS = 3_000_000

#: Where this evaluator, trec_eval 9.0.8 (the reference, as in pytrec_eval) and trec_eval 10 differ.
HELP_DIFFERENCES = """\
Compatibility. The measures and their output follow trec_eval 9.0.8 (the version pytrec_eval bundles);
values agree with it to 1e-9 (tested) and the printed lines are the same. Where trec_eval 9 and 10 differ:
  input     '#' lines are comments and fields after a run line's tag are ignored (trec_eval 10; trec_eval 9
            calls both malformed). The run's name (runid) is the tag of its last line, as in both.
  -c        Both count every qrels query: the means are divided by the number of qrels queries (queries
            the run did not answer count 0, 0.00001 in gm_map/gm_bpref), num_q is that number, and num_rel
            counts the relevant documents of every qrels query. trec_eval 9 (followed here) prints no
            per-query lines for the missing queries and its num_rel counts the qrels lines with a grade
            > 0 whatever -l (m_num_q.c, m_num_rel.c); trec_eval 10 evaluates them as empty rankings,
            prints their lines, and counts grades >= -l.
  iprec_at_recall, 11pt_avg
            trec_eval 9 (followed here) stops at (long)(f * R + 0.9) relevant documents; trec_eval 10
            rounds f * R (lround), which can differ when f * R has a fraction below 0.1 or at .5.
  measures  trec_eval 10 adds dcg, ideal_dcg, rbp, rbp_resid, unj, yaap (not here under those names; see
            the extras). Its rbp uses graded gains scaled to [0, 1]; its rbp_resid is 0 when no unjudged
            document is retrieved and uses p = 0.9 always.
  gain maps trec_eval 10 skips levels that are not whole numbers; trec_eval 9 reads them with atol.
Differences from both, on purpose: a measure or parameter trec_eval would misread (atof('x') = 0, a
negative or repeated gain level, -l below 0, -M 0) is refused with a message instead of evaluated;
several runs may be given (each printed as trec_eval would, after a '# run NAME' line); runs may be
CSV/TSV with named columns, UTF-8 or GBK; a qrels grade that is not a whole number (1.7) is read as
trec_eval does (1) with a warning; the preference measures and formats (-R, -T, -Z) are not supported.
"""


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table with a rule under the header.

    Parameters
    ----------
    headers : sequence of str
        Column titles.
    rows : sequence of sequences
        One sequence of cells per row, as many as ``headers``; cells are printed with ``str`` (None
        as empty).

    Returns
    -------
    str
        The lines, columns left-aligned two spaces apart, trailing spaces removed.

    Examples
    --------
    >>> print(format_table(["a", "n"], [["x", 1.5], ["yy", 10.25]]))
    a   n
    --  -----
    x   1.5
    yy  10.25
    """
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for j, row in enumerate(cells):
        lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ argument types
#: The largest --max-mb (10 TB): the cap is turned into bytes.
MAX_MB = 10**7
#: --max-ratio's default: reading a file may take 100 times its size in memory (1 MiB counted for smaller files).
#: A run written by pandas or Spark takes 5-20 times its Parquet size; a few hundred KB that hold tens of
#: millions of rows (one pair repeated, dictionary-encoded and compressed) are refused from the footer.
DEFAULT_MAX_RATIO = 100.0
MAX_RATIO = 1e9
#: The largest --seed: numpy's seeds are 32-bit here (the library takes up to 2^63 - 1).
MAX_SEED = 2**32 - 1


def _typed(text: str) -> str:
    """The value as the user typed it, quoted, cut at 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


def _shown(n: int) -> str:
    return f"10^{len(str(n)) - 1}" if n >= 10**6 and str(n).strip("0") == "1" else str(n)


def _number_option(want, check, *, whole: bool = False):
    """An argparse type: the text read by the one number grammar (:func:`metrics.parse.parse_number`: ASCII
    digits, no nan/inf), then ``check``ed -- the library's own check of that setting, so that what the option
    takes is what the library takes, refused here before anything is read or printed.  The message names the
    value as typed (argparse adds the option as typed); ``want`` says what is accepted (a callable: computed
    only when a value is refused)."""

    def parse(text: str):
        try:
            return check(parse_number(text, whole=whole))
        except ValueError:  # ParseError included
            raise argparse.ArgumentTypeError(f"must be {want() if callable(want) else want}, "
                                             f"got {_typed(text)}") from None

    return parse


def _whole(minimum: int, maximum: int = MAX_WHOLE, check=None):
    """An argparse type: a whole number in ASCII digits between ``minimum`` and ``maximum`` (then ``check``)."""

    def ok(value: int) -> int:
        value = check_whole(value, name="value", minimum=minimum, maximum=maximum)
        return value if check is None else check(value)

    return _number_option(f"a whole number between {minimum} and {_shown(maximum)}", ok, whole=True)


def _real(*, positive: bool = False, not_one: bool = False, minimum: float | None = None,
          maximum: float | None = None, below_one: bool = False, check=None, want: str | None = None):
    """An argparse type: a finite number written in ASCII (no nan, inf, 1_000 or other scripts' digits)."""
    want = want or ("a finite number" + (" > 0" if positive else "") + (" and != 1" if not_one else "")
                    + (f" >= {minimum:g}" if minimum is not None else "") + (" and < 1" if below_one else "")
                    + (f" and <= {_shown(int(maximum))}" if maximum is not None else ""))

    def ok(value: float) -> float:
        value = check_real(value, name="value", minimum=minimum)
        if (positive and value <= 0) or (not_one and value == 1) or (maximum is not None and value > maximum) \
                or (below_one and value >= 1):
            raise ValueError(value)
        return value if check is None else check(value)

    return _number_option(want, ok)


def _trec_option(name: str):
    """The check of one of trec_eval's options: :func:`metrics.runfiles.options.check_options`'s."""
    return lambda value: check_options(**{name: value})[name]


def _significance(name: str):
    """The check of one setting of the paired tests: :func:`metrics.significance.check_settings`'s (imported
    only when the option is given)."""

    def check(value):
        from ..significance import check_settings

        return check_settings(**{name: value})[name]

    return check


def _max_resamples() -> str:
    from ..significance import MAX_RESAMPLES

    return f"a whole number between 1 and {_shown(MAX_RESAMPLES)}"


def _columns(text: str) -> dict[str, str]:
    """``qid=user_id,docno=item`` -> ``{"qid": "user_id", "docno": "item"}`` (roles checked by the reader)."""
    out: dict[str, str] = {}
    for part in text.split(","):
        role, sep, name = part.partition("=")
        role, name = role.strip(), name.strip()
        if not sep or not name or role not in COLUMN_ROLES or role in out or len(name) > 200:
            raise argparse.ArgumentTypeError(f"must be ROLE=NAME pairs with roles among {', '.join(COLUMN_ROLES)}, "
                                             f"each once, got {_typed(text)} ({_typed(part)} is not one)")
        out[role] = name
    return out


_VARIANT_OPTIONS = ("k", "gain", "discount", "idcg", "ties", "log_base", "relevance_level", "missing", "per_query")


def _measure_help() -> str:
    lines = ["Measures (-m NAME or NAME.PARAMS; defaults in brackets):"]
    for m in MEASURES.values():
        params = ""
        if m.params in ("cutoffs", "fractions", "numbers"):
            params = "." + ",".join(f"{v:g}" for v in m.defaults)
        elif m.params == "gains":
            params = ".L=G,... [gain = grade]"
        elif m.params == "persistence":
            params = f".p={dict(m.defaults)['p']:g}"
        elif m.params == "variant":
            params = "(gain=...,discount=...,idcg=...,ties=...)@k"
        extra = " (extra)" if m.origin == "extra" else ""
        lines.append(f"  {m.name}{params}{extra}: {m.help} [{m.source}]")
    lines.append("Sets: " + "; ".join(f"{k} = {' '.join(v)}" for k, v in NICKNAMES.items()))
    lines.append("")
    lines.append("ir_measures' names (-m 'Name', 'Name@k' or 'Name(key=value,...)@k', printed as written; each "
                 "computed as the provider ir_measures 0.4.3 uses for it; the mean is over every qrels query, a "
                 "query the run lacks counting 0, as ir_measures averages -- trec_eval's -c; -l does not "
                 "apply to them (rel= does; judged_only= too), -M and -J cut the run before every measure):")
    for m in IR_MEASURES.values():
        params = ",".join(p.name + ("" if p.default is None else f"={p.default!r}") + ("!" if p.required else "")
                          for p in m.parameters if p.name != m.at)
        at = "" if m.at is None or all(p.name != m.at for p in m.parameters) else f"@{m.at}"
        lines.append(f"  {m.name}" + (f"({params})" if params else "") + f"{at}: {m.help}")
    aliases = []
    for alias, (base, fixed) in ALIASES.items():
        given = ",".join(f"{k}={v!r}" for k, v in fixed.items())
        aliases.append(f"{alias} = {base}" + (f"({given})" if given else ""))
    lines.append("  (! = required; aliases: " + ", ".join(aliases) + ")")
    lines.append("  Providers: " + "; ".join(f"{k}: {v}" for k, v in PROVIDERS.items()))
    lines.append("  Diversity measures (alpha_nDCG, ERR_IA, NRBP, AP_IA, P_IA, StRecall and their kin) read "
                 "diversity qrels, 'qid subtopic docno rel'.")
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m metrics.runfiles",
        usage="%(prog)s [-q] [-c] [-n] [-M N] [-l N] [-J] [-m MEASURE[.PARAMS]]... [options] QRELS RUN [RUN ...]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Evaluate TREC runs against qrels. By default as trec_eval does (its options, measures and "
                    "output); with --variants, mean NDCG under every gain, discount, IDCG source and tie rule.",
        epilog=HELP_DIFFERENCES + "\n" + _measure_help(),
    )
    p.add_argument("qrels", help="qrels file: TREC 'qid iter docno rel', CSV/TSV with a header, or Parquet")
    p.add_argument("runs", nargs="+", metavar="run",
                   help="run file(s): TREC 'qid Q0 docno rank score tag', CSV/TSV or Parquet; '-' reads standard "
                        "input")
    t = p.add_argument_group("trec_eval's options")
    t.add_argument("-q", "--query_eval_wanted", dest="trec_query", action="store_true",
                   help="also print each query's values")
    t.add_argument("-m", "--measure", dest="measures", action="append", metavar="MEASURE[.PARAMS]",
                   help="measure or set to print (repeatable; default 'official'): trec_eval's names (map, P.5,10, "
                        "ndcg_cut.10, ndcg.1=0,2=1, all_trec, ...) or ir_measures' ('nDCG@10', 'P(rel=2)@5', "
                        "'alpha_nDCG(alpha=0.5)@20', 'Judged@10', ...)")
    t.add_argument("-c", "--complete_rel_info_wanted", dest="complete", action="store_true",
                   help="average over every qrels query; missing ones count 0")
    t.add_argument("-n", "--nosummary", dest="nosummary", action="store_true", help="no summary ('all') lines")
    t.add_argument("-l", "--level_for_rel", dest="level", type=_whole(0, check=_trec_option("relevance_level")),
                   default=None, metavar="N", help="lowest relevant grade (default 1)")
    t.add_argument("-J", "--Judged_docs_only", dest="judged_only", action="store_true",
                   help="drop documents the qrels do not judge before evaluating")
    t.add_argument("-M", "--Max_retrieved_per_topic", dest="max_docs", type=_whole(1, check=_trec_option("max_docs")),
                   metavar="N",
                   help="evaluate only the first N documents of each query")
    t.add_argument("-N", "--Number_docs_in_coll", dest="num_docs",
                   type=_whole(0, check=_trec_option("num_docs_in_coll")), default=None, metavar="N",
                   help="documents in the collection (utility)")
    t.add_argument("--err-gmax", type=_real(minimum=0, check=_trec_option("err_gmax")), default=None, metavar="G",
                   help="highest grade of the scale for ERR (default: the highest grade in the qrels)")
    t.add_argument("-v", "--version", action="version", version="ndcg-lab evaluator, trec_eval 9.0.8 measures")
    v = p.add_argument_group("NDCG variants (any of these selects the variants table)")
    v.add_argument("--variants", action="store_true", help="print the variants table instead of trec_eval's output")
    v.add_argument("--k", type=_whole(1, MAX_CUTOFF, check=check_k), default=None,
                   help="cutoff (default: whole list and pool, trec_eval ndcg)")
    v.add_argument("--gain", nargs="+", choices=list(GAINS), default=None, help="gains (default: all)")
    v.add_argument("--discount", nargs="+", choices=list(DISCOUNTS), default=None, help="discounts (default: all)")
    v.add_argument("--idcg", nargs="+", choices=list(IDCG), default=None,
                   help="ideal ranking from all judged documents or from the retrieved list (default: both)")
    v.add_argument("--ties", nargs="+", choices=list(TIES), default=None, help="tie rules (default: trec_eval average)")
    v.add_argument("--missing", choices=list(MISSING), default=None,
                   help="qrels queries a run did not answer: skip (trec_eval) or zero (trec_eval -c)")
    v.add_argument("--relevance-level", type=_real(), default=None,
                   help="grades below this count as 0 (ranx rel_lvl; trec_eval -l does not change ndcg)")
    v.add_argument("--log-base", type=_real(positive=True, not_one=True, check=check_log_base), default=None,
                   help="base of the logarithm in the discount (default 2)")
    v.add_argument("--per-query", action="store_true", help="also print per-query values")
    s = p.add_argument_group("significance (needs two runs or more)")
    s.add_argument("--compare", metavar="MEASURE", default=None,
                   help="compare the runs on this measure's per-query values (a printed name: map, P_10, "
                        "ndcg_cut_10, ...; it is added to -m if needed; with --variants a variant label)")
    s.add_argument("--test", choices=["t", "wilcoxon", "randomization"], default="randomization",
                   help="paired test (default randomization)")
    s.add_argument("--correction", choices=["holm", "bonferroni", "none"], default="holm",
                   help="multiple-comparison correction over all pairs (default holm)")
    s.add_argument("--confidence", type=_real(
        positive=True, below_one=True, check=_significance("confidence"),
        want="a number between 0 and 1 (exclusive) whose significance level 1 - confidence, at 12 decimals, is "
             "above 0 and below 1, e.g. 0.95"), default=0.95,
                   help="level of the bootstrap confidence interval (default 0.95)")
    s.add_argument("--resamples", default=10_000,
                   type=_number_option(_max_resamples, _significance("n_resamples"), whole=True),
                   help="relabellings / bootstrap resamples (default 10000)")
    s.add_argument("--seed", type=_whole(0, MAX_SEED, check=_significance("seed")), default=0,
                   help="random seed (default 0)")
    w = p.add_argument_group("where did this number come from? (one -m, an NDCG: -m ndcg_cut.10 or -m nDCG@10)")
    w.add_argument("--match", metavar="VALUE", default=None,
                   help="a reported mean, as written (0.4523, 45.23%%): every library (trec_eval 9 and 10, "
                        "pytrec_eval, ir_measures, ranx, scikit-learn, torchmetrics, Spark, Elasticsearch, gdeval) "
                        "and setting (duplicates, -M, -J, ties, gain, IDCG items, zero-IDCG, queries averaged, ...) "
                        "whose mean of the run rounds to it, the near misses and the queries that make the "
                        "difference; --csv writes the conformance table (every library per query)")
    c = p.add_argument_group("Apache Spark (the 'spark' extra: pyspark and Java 17+)")
    c.add_argument("--spark", metavar="MASTER", default=None,
                   help="evaluate on Spark: local[N], spark://HOST:7077, yarn, k8s://... (or the master of "
                        "spark-submit); files are read by Spark (TREC, CSV/TSV, Parquet; any path Spark reads); "
                        "the output is the same, byte for byte")
    o = p.add_argument_group("files and output")
    o.add_argument("--qrels-columns", type=_columns, default=None, metavar="ROLE=NAME,...",
                   help="columns of a CSV/TSV or Parquet qrels whose names are not recognised, e.g. "
                        "qid=user_id,docno=item_id,rel=rating (roles: qid, docno, rel)")
    o.add_argument("--run-columns", type=_columns, default=None, metavar="ROLE=NAME,...",
                   help="columns of CSV/TSV or Parquet runs, e.g. qid=user_id,docno=item_id,score=prediction "
                        "(roles: qid, docno, score or rank, tag)")
    o.add_argument("--skip-bad-lines", action="store_true",
                   help="evaluate the readable lines of files with malformed lines instead of stopping")
    o.add_argument("--csv", metavar="OUT", help="write per-query values to this CSV file")
    o.add_argument("--max-mb", type=_real(positive=True, maximum=MAX_MB), default=None,
                   help="refuse files larger than this many MB")
    o.add_argument("--max-rows", type=_whole(1, check=lambda n: Limits(max_rows=n).max_rows), default=None,
                   metavar="N",
                   help="refuse files of more than N rows (a Parquet file's footer says how many, before any row "
                        "is decoded)")
    o.add_argument("--max-ratio",
                   type=_real(minimum=1, maximum=MAX_RATIO, check=lambda r: Limits(max_ratio=r).max_ratio),
                   default=DEFAULT_MAX_RATIO, metavar="R",
                   help="refuse a file that needs more than R times its size in memory to read (a file under 1 MiB "
                        "counts as 1 MiB); compressed Parquet can hold far more rows than its size suggests "
                        f"(default {DEFAULT_MAX_RATIO:g})")
    o.add_argument("--digits", type=_whole(0, 17), default=4, help="decimals shown (default 4, as trec_eval)")
    return p


#: What to do about a file beyond the limits (said after the problem).
_LIMIT_HINTS = {
    "too_large": "--max-mb MB sets the limit",
    "too_many_rows": "--max-rows N sets the limit",
    "too_much_memory": "--max-ratio R sets the limit: R bytes of memory per byte of the file",
}


def _report(parsed: Parsed, skip_bad: bool) -> bool:
    """Print a file's problems to stderr; True when the file can be used."""
    for problem in parsed.problems:
        label = {"fatal": "error", "error": "error", "warning": "warning"}[problem.severity]
        hint = f". {_LIMIT_HINTS[problem.kind]}" if problem.kind in _LIMIT_HINTS else ""
        print(f"{label}: {problem.message}{hint}", file=sys.stderr)
    if parsed.fatal:
        return False
    if parsed.errors and not skip_bad:
        print(f"error: {parsed.name} has {parsed.n_problems} bad line(s); fix them or pass --skip-bad-lines "
              "to evaluate the rest", file=sys.stderr)
        return False
    return True


def _read(args, max_bytes, *, subtopics: bool = False):
    """Read the files (standard input for a run given as '-'); None when one cannot be used.  With
    ``subtopics`` the qrels are diversity qrels (``qid subtopic docno rel``)."""
    files = [r for r in args.runs if r != "-"]
    limits = Limits(max_rows=args.max_rows, max_ratio=args.max_ratio)
    if subtopics:
        qrels = read_subtopic_qrels(args.qrels, max_bytes=max_bytes, limits=limits)
        runs = [read_run(path, max_bytes=max_bytes, columns=args.run_columns, limits=limits) for path in files]
    else:
        qrels, runs = read_files(args.qrels, files, max_bytes=max_bytes, qrels_columns=args.qrels_columns,
                                 run_columns=args.run_columns, limits=limits)
    if "-" in args.runs:  # with --max-mb, one byte more than the limit is enough to refuse it
        data = sys.stdin.buffer.read(-1 if max_bytes is None else max_bytes + 1)
        runs.insert(args.runs.index("-"), read_run(data, name="stdin", max_bytes=max_bytes, columns=args.run_columns,
                                                   limits=limits))
    ok = _report(qrels, args.skip_bad_lines)
    for parsed in runs:
        ok = _report(parsed, args.skip_bad_lines) and ok
    if not ok:
        return None
    names = [r.name for r in runs]
    for i, r in enumerate(runs):  # distinct names for runs with the same file name in different folders
        if names.count(r.name) > 1:
            r.table.name = str(args.runs[i])
    return qrels, runs


def _variant_mode(args) -> bool:
    return args.variants or any(getattr(args, name) not in (None, False) for name in _VARIANT_OPTIONS)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line ``python -m metrics.runfiles QRELS RUN...``: trec_eval's options and output.

    By default it prints what trec_eval prints (``-m``, ``-q``, ``-c``, ``-M``, ``-l``, ``-J``,
    ``-N``); the NDCG-variants table with ``--variants`` (or any variant option); ``--compare
    MEASURE`` tests the runs' differences.  ``--help`` lists every option and
    :data:`HELP_DIFFERENCES`.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments without the program name.  Default ``None``: ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status: 0 on success, 1 when a file cannot be read or evaluated (the reason is
        printed on standard error).  A bad option exits with status 2 (``SystemExit``, from argparse),
        naming the option and the value.

    Examples
    --------
    The relevant document a is ranked second: P@1 = 0, reciprocal rank = 1/2.  Measures print in
    trec_eval's order, whatever the order of ``-m``:

    >>> import tempfile
    >>> from pathlib import Path
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = Path(d, "qrels").write_text("q1 0 a 1\\nq1 0 b 0\\n")
    ...     _ = Path(d, "run").write_text("q1 Q0 b 1 0.9 bm25\\nq1 Q0 a 2 0.5 bm25\\n")
    ...     main(["-m", "P.1", "-m", "recip_rank", str(Path(d, "qrels")), str(Path(d, "run"))])
    recip_rank            \tall\t0.5000
    P_1                   \tall\t0.0000
    0
    """
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    for arg in argv:  # argparse (3.11) drops a value '--' given as --option=-- and uses the option's default
        if arg.startswith("-") and arg.partition("=")[2] == "--":
            parser.error(f"argument {arg.partition('=')[0]}: must be a value, got '--'")
    args = parser.parse_args(argv)
    if args.match is not None:
        return _run_match(parser, args)
    requested = _check(parser, args)  # every option, before a file is read or a line printed
    if args.spark is not None:
        _check_spark(parser, args)
    max_bytes = None if args.max_mb is None else max(1, int(args.max_mb * 1e6))
    started = time.perf_counter()
    if args.spark is not None:
        try:
            return _run_spark(args, started, max_bytes, variants=requested is None,
                              subtopics=_diversity(requested))
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
    try:
        with _kernels.numba_from(max(CLI_NUMBA_MIN_ROWS, _kernels.NUMBA_MIN_ROWS)):
            read = _read(args, max_bytes, subtopics=_diversity(requested))
            if read is None:
                return 1
            qrels, runs = read
            if requested is None:
                return _run_variants(args, qrels, runs, started)
            return _run_trec(args, qrels, runs, started)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


#: trec_eval's options the NDCG-variants table does not use (-c does: a missing query counts 0).
_TREC_ONLY = (("trec_query", "-q/--query_eval_wanted"), ("nosummary", "-n/--nosummary"),
              ("measures", "-m/--measure"), ("level", "-l/--level_for_rel"),
              ("max_docs", "-M/--Max_retrieved_per_topic"), ("judged_only", "-J/--Judged_docs_only"),
              ("num_docs", "-N/--Number_docs_in_coll"), ("err_gmax", "--err-gmax"))


def _check(parser: argparse.ArgumentParser, args) -> list | None:
    """Refuse, before anything is read or printed, every option that cannot be used: exit 2 with a message
    naming the option and the value.  Returns the parsed measures (None for the variants table)."""
    if args.runs.count("-") > 1:
        parser.error("argument run: standard input ('-') can be given once")
    if args.qrels == "-":
        parser.error("argument qrels: read from a file; only a run can come from standard input ('-')")
    if args.compare is not None and len(args.runs) < 2:
        parser.error(f"argument --compare: comparing {_typed(args.compare)} needs two runs or more, got "
                     f"{len(args.runs)}")
    if args.csv is not None:
        _check_output(parser, args.csv)
    if _variant_mode(args):
        for dest, option in _TREC_ONLY:
            value = getattr(args, dest)
            if value not in (None, False):
                shown = "" if isinstance(value, bool) else " " + _typed(", ".join(value) if isinstance(value, list)
                                                                        else str(value))
                parser.error(f"argument {option}:{shown} is one of trec_eval's options; the NDCG-variants table "
                             "(--variants, --k, --gain, ...) does not use it (leave it out, or drop the variant "
                             "options for trec_eval's output)")
        labels = [v.label for v in _variants_of(args)]
        if args.compare is not None and args.compare not in labels:
            parser.error(f"argument --compare: {_typed(args.compare)} is not one of the variants evaluated "
                         f"({', '.join(labels[:4])}{', ...' if len(labels) > 4 else ''})")
        return None
    args.level = 1 if args.level is None else args.level
    args.num_docs = 0 if args.num_docs is None else args.num_docs
    measures = list(args.measures or ["official"])
    if args.compare is not None:
        spec = _spec_of(parser, args.compare)
        try:
            parse_measures([spec])
        except ValueError as exc:
            parser.error(f"argument --compare: {_typed(args.compare)} is not a measure name such as map, P_10 or "
                         f"ndcg_cut_10 ({exc})")
        if args.compare not in {n for r in _try_parse(parser, measures) for n in r.names}:
            measures.append(spec)
        found = [r for r in _try_parse(parser, measures) if args.compare in r.names]
        if not found:
            parser.error(f"argument --compare: {_typed(args.compare)} is not a measure name such as map, P_10 or "
                         "ndcg_cut_10")
        if not found[0].info.per_query or found[0].info.value == "text":
            parser.error(f"argument --compare: {_typed(args.compare)} has no per-query values (choose a measure "
                         "printed per query, e.g. map, P_10, ndcg_cut_10)")
    requested = _try_parse(parser, measures)
    args.measures = measures
    return requested


#: The master URLs ``--spark`` accepts (Spark's own forms; anything else is refused before Spark starts).
SPARK_MASTER = re.compile(r"local(\[(\d{1,4}|\*)(,\d{1,3})?\])?|spark://[A-Za-z0-9.\-]+:\d{1,5}"
                          r"(,[A-Za-z0-9.\-]+:\d{1,5})*|yarn|k8s://[A-Za-z0-9.:/\-\[\]]{1,300}", re.ASCII)


def _check_spark(parser: argparse.ArgumentParser, args) -> None:
    """--spark: a Spark master URL (anything else is refused before Spark starts)."""
    if not SPARK_MASTER.fullmatch(args.spark):
        parser.error(f"argument --spark: must be a Spark master URL (local, local[N], local[*], spark://HOST:PORT, "
                     f"yarn, k8s://URL), got {_typed(args.spark)}")


def _check_output(parser: argparse.ArgumentParser, path: str) -> None:
    """--csv: a file that can be written (its folder exists and is writable; not a folder itself)."""
    try:
        target = Path(path)
        ok = path.strip() != "" and not target.is_dir() and target.parent.is_dir() \
            and os.access(target.parent, os.W_OK) and (not target.exists() or os.access(target, os.W_OK))
    except (OSError, ValueError):  # a NUL byte, a name too long for the system
        ok = False
    if not ok:
        parser.error(f"argument --csv: cannot write a file at {_typed(path)} (give a file name in an existing, "
                     "writable folder)")


def _variants_of(args):
    return make_variants(gains=args.gain or list(GAINS), discounts=args.discount or list(DISCOUNTS),
                         idcg=args.idcg or ["judged", "list"], ties=args.ties or ["trec_eval", "average"])


def _try_parse(parser, measures):
    for spec in measures:  # the one refused, named as typed
        try:
            parse_measures([spec])
        except ValueError as exc:
            parser.error(f"argument -m/--measure: {_typed(spec)}: {exc}")
    return parse_measures(measures)


def _diversity(requested) -> bool:
    """Whether a requested measure reads diversity qrels (``qid subtopic docno rel``)."""
    return any(r.info.origin == "ir_measures" and r.params.provider == "pyndeval" for r in requested or ())


def _spec_of(parser, name: str) -> str:
    """The -m spec that prints ``name`` (``P_10`` -> ``P.10``, ``map`` -> ``map``, an nDCG variant or an
    ir_measures name itself)."""
    if name in MEASURES or name.startswith(VARIANT_MEASURE + "(") or name.split("(")[0].split("@")[0] in IR_MEASURES \
            or name.split("(")[0].split("@")[0] in ALIASES:
        return name
    base, _, param = name.rpartition("_")
    if base in MEASURES and param:
        return f"{base}.{param}"
    parser.error(f"argument --compare: {_typed(name)} is not a measure name such as map, P_10 or ndcg_cut_10")
    return name  # pragma: no cover


#: Options that fix what --match tries instead (it tries every setting itself).
_NOT_WITH_MATCH = (("trec_query", "-q"), ("complete", "-c"), ("nosummary", "-n"), ("level", "-l"),
                   ("judged_only", "-J"), ("max_docs", "-M"), ("num_docs", "-N"), ("err_gmax", "--err-gmax"),
                   ("variants", "--variants"), ("compare", "--compare"), ("spark", "--spark"), ("k", "--k"),
                   ("gain", "--gain"), ("discount", "--discount"), ("idcg", "--idcg"), ("ties", "--ties"),
                   ("missing", "--missing"), ("relevance_level", "--relevance-level"), ("log_base", "--log-base"),
                   ("per_query", "--per-query"))


def _run_match(parser: argparse.ArgumentParser, args) -> int:
    """``--match VALUE -m MEASURE``: where did this mean come from (metrics.runfiles.match)."""
    from ..lessons.match import read_value
    from .conformance import conformance
    from .match import describe, match_grid, mean_grid, ndcg_cutoff

    for dest, option in _NOT_WITH_MATCH:
        if dest == "spark" and args.spark is not None:
            parser.error("argument --spark: --match runs on one machine (it evaluates the run as every library "
                         "does: ranx, scikit-learn, torchmetrics, Spark's own RankingMetrics, ...); leave --spark out")
        if getattr(args, dest, None) not in (None, False):
            parser.error(f"argument {option}: --match tries every setting itself (-c, -M, -J, ties, gains, ...); "
                         "leave it out")
    try:
        read_value(args.match)
    except ValueError as exc:
        parser.error(f"argument --match: {_typed(args.match)} is not a number as written ({exc})")
    if not args.measures or len(args.measures) != 1:
        parser.error(f"argument -m/--measure: --match {_typed(args.match)} needs exactly one measure, an NDCG such as "
                     "-m ndcg_cut.10 or -m nDCG@10")
    try:
        ndcg_cutoff(args.measures[0])
    except ValueError as exc:
        parser.error(f"argument -m/--measure: {exc} (for --match {_typed(args.match)})")
    if args.qrels == "-" or args.runs.count("-") > 1:
        parser.error("argument run: only one run can come from standard input ('-'), the qrels from a file")
    if args.csv is not None:
        _check_output(parser, args.csv)
    max_bytes = None if args.max_mb is None else max(1, int(args.max_mb * 1e6))
    started = time.perf_counter()
    frames = []
    read = {"max_bytes": max_bytes, "limits": Limits(max_rows=args.max_rows, max_ratio=args.max_ratio),
            "qrels_columns": args.qrels_columns, "run_columns": args.run_columns}
    try:
        for i, path in enumerate(args.runs):
            # standard input: with --max-mb, one byte more than the limit is enough to refuse it
            source = sys.stdin.buffer.read(-1 if max_bytes is None else max_bytes + 1) if path == "-" else path
            grid = mean_grid(args.qrels, source, args.measures[0], read=read)
            if len(args.runs) > 1:
                print(f"{'' if i == 0 else chr(10)}# run {path}")
            print("\n".join(describe(match_grid(args.match, grid, measure=args.measures[0]))))
            if args.csv is not None:
                table = conformance(grid).per_query
                table.insert(0, "run", "stdin" if path == "-" else str(path))
                frames.append(table)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"every setting evaluated and matched in {time.perf_counter() - started:.2f} s", file=sys.stderr)
    if frames:
        import pandas as pd

        if not _write_csv(args.csv, pd.concat(frames, ignore_index=True)):
            return 1
    return 0


def _timing(runs, qrels, started) -> None:
    lines = sum(r.table.n_rows for r in runs) + qrels.table.n_rows
    print(f"{lines:,} lines read and evaluated in {time.perf_counter() - started:.2f} s", file=sys.stderr)


def _write_csv(path: str, frame) -> bool:
    try:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(to_csv(frame))  # floats: the shortest text that reads back as the same number
    except OSError as exc:
        print(f"error: cannot write {path}: {exc}", file=sys.stderr)
        return False
    print(f"per-query values written to {path}", file=sys.stderr)
    return True


def _run_trec(args, qrels, runs, started) -> int:
    result = evaluate_runs(qrels.table, [r.table for r in runs], args.measures, relevance_level=args.level,
                           complete=args.complete, judged_only=args.judged_only, max_docs=args.max_docs,
                           num_docs_in_coll=args.num_docs, err_gmax=args.err_gmax)
    return _print_trec(args, result, lambda: _timing(runs, qrels, started))


def _run_spark(args, started, max_bytes, *, variants: bool, subtopics: bool = False) -> int:
    """Any mode on Spark (``--spark MASTER``): the files read by Spark (a run from standard input read here and
    handed to Spark), the same output as without ``--spark``; ``subtopics``: the qrels are diversity qrels (a
    diversity measure was asked for), as without ``--spark``."""
    import warnings

    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    from .spark import evaluate_spark, evaluate_variants_spark, spark_failure, spark_session

    def timing():
        print(f"evaluated on Spark ({args.spark}) in {time.perf_counter() - started:.2f} s", file=sys.stderr)

    try:
        spark = spark_session(args.spark)
        spark.sparkContext.setLogLevel("FATAL")  # a failed task's Python traceback: the message comes below
        runs = _spark_runs(args, spark, max_bytes)
        if runs is None:
            return 1
        common = {"spark": spark, "qrels_columns": args.qrels_columns, "run_columns": args.run_columns,
                  "skip_bad_lines": args.skip_bad_lines, "limits": _limits(args)}
        if variants:
            ev = evaluate_variants_spark(args.qrels, runs, k=args.k, variants=_variants_of(args),
                                         log_base=2.0 if args.log_base is None else args.log_base,
                                         relevance_level=args.relevance_level, missing=_missing(args), **common)
            return _print_variants(args, ev, timing)
        ev = evaluate_spark(args.qrels, runs, args.measures, relevance_level=args.level, complete=args.complete,
                            judged_only=args.judged_only, max_docs=args.max_docs, num_docs_in_coll=args.num_docs,
                            err_gmax=args.err_gmax, subtopics=subtopics, **common)
        result = ev.result()  # its problems are printed with the output, as without --spark
    except (PySparkException, Py4JError) as exc:  # one line (the file it names kept), never a Java stack
        print(f"error: Spark: {spark_failure(exc)}", file=sys.stderr)
        return 1
    return _print_trec(args, result, timing)


def _limits(args) -> Limits:
    return Limits(max_rows=args.max_rows, max_ratio=args.max_ratio)


def _spark_runs(args, spark, max_bytes) -> dict | None:
    """The runs for Spark, named as without --spark: {name: path}, a run from standard input read here (the
    single-machine reader: its problems, --skip-bad-lines and --max-mb as without --spark) and handed to Spark as
    a DataFrame.  With --max-mb, a file larger than the limit (its size as Spark's file system reports it) is
    refused first.  None when something cannot be used (the reason printed)."""
    from .read import Problem, read_run
    from .spark import path_bytes

    if max_bytes is not None:
        for path in [args.qrels, *(r for r in args.runs if r != "-")]:
            size = path_bytes(spark, path)
            if size is not None and size > max_bytes:
                problem = Problem(Path(path.rstrip("/")).name, None, "too_large",
                                  {"size_mb": size / 1e6, "limit_mb": max_bytes / 1e6})
                print(f"error: {problem.message}. {_LIMIT_HINTS['too_large']}", file=sys.stderr)
                return None
    bases = [Path(r.rstrip("/")).name if r != "-" else "stdin" for r in args.runs]
    runs = {}
    for given, base in zip(args.runs, bases):
        name = base if bases.count(base) == 1 else given
        if given != "-":
            runs[name] = given
            continue
        # with --max-mb, one byte more than the limit is enough to refuse it (as without --spark)
        data = sys.stdin.buffer.read(-1 if max_bytes is None else max_bytes + 1)
        parsed = read_run(data, name="stdin", max_bytes=max_bytes, columns=args.run_columns, limits=_limits(args))
        if not _report(parsed, args.skip_bad_lines):
            return None
        table = parsed.table
        import pyarrow as pa

        from .read import id_strings

        frame = pa.table({"qid": id_strings(table.qid), "docno": id_strings(table.docno),
                          "score": pa.array(table.value, pa.float64()),
                          "tag": pa.array([table.tag] * table.n_rows, pa.string())})
        runs[name] = spark.createDataFrame(frame)
    return runs


def _print_trec(args, result, timing) -> int:
    """trec_eval's output of a :class:`MeasureResult`, then the comparison and the CSV file if asked."""
    for problem in result.problems:
        label = "error" if problem.severity == "error" else "warning"
        print(f"{label}: {problem.message}", file=sys.stderr)
    if not any(run.present.any() for run in result.runs):
        print("error: no query has both results and relevance judgments", file=sys.stderr)
        return 1
    text = result.text(per_query=args.trec_query, summary=not args.nosummary, digits=args.digits)
    if text:
        print(text)
    timing()
    if args.compare and not _print_comparison(args, result.paired(args.compare), complete=result.complete):
        return 1
    if args.csv and not _write_csv(args.csv, result.frame()):
        return 1
    return 0


def _print_comparison(args, table, *, complete: bool) -> bool:
    """Paired tests between every two runs on per-query values (:meth:`Result.paired`: rows are queries,
    columns runs; with ``complete``, every qrels query, a missing one counted 0)."""
    from .. import significance

    dropped = int(table.isna().any(axis=1).sum())
    table = table.dropna()
    if len(table) < 2:
        print(f"error: --compare {args.compare}: a paired test needs at least 2 queries "
              f"{'of the qrels' if complete else 'answered by every run'}; {len(table)} here"
              + (" (-c counts a missing query as 0)" if not complete else ""), file=sys.stderr)
        return False
    pairs = significance.all_pairs(table, test=args.test, confidence=args.confidence, correction=args.correction,
                                   n_resamples=args.resamples, seed=args.seed)
    d = args.digits
    print()
    over = ("queries of the qrels (a query a run did not answer counts 0)" if complete
            else "queries answered by every run")
    print(f"Paired {args.test} tests on {args.compare} over {len(table)} {over}"
          + (f" ({dropped} left out: not answered by all; -c counts them 0)" if dropped else "")
          + f"; {int(args.confidence * 100)}% bootstrap CI of the mean difference; {args.correction} correction")
    rows = [[r.system_a, r.system_b, f"{r.mean_difference:+.{d}f}", f"[{r.ci_low:+.{d}f}, {r.ci_high:+.{d}f}]",
             f"{r.p_value:.{d}g}", f"{r.p_corrected:.{d}g}", "yes" if r.significant else "no"]
            for r in pairs.itertuples()]
    print(format_table(["A", "B", "mean A-B", "CI", "p", "p corrected", "significant"], rows))
    return True


def _missing(args) -> str:
    return args.missing or ("zero" if args.complete else "skip")


def _run_variants(args, qrels, runs, started) -> int:
    ev = evaluate(qrels.table, [r.table for r in runs], k=args.k, variants=_variants_of(args),
                  log_base=2.0 if args.log_base is None else args.log_base,
                  relevance_level=args.relevance_level, missing=_missing(args))
    return _print_variants(args, ev, lambda: _timing(runs, qrels, started))


def _print_variants(args, ev, timing) -> int:
    """The variants table of an :class:`~metrics.runfiles.batch.Evaluation`, then the per-query values, the
    comparison and the CSV file if asked."""
    for problem in ev.problems:
        print(f"warning: {problem.message}", file=sys.stderr)
    _print_results(ev, args.digits)
    timing()
    if args.per_query:
        per = ev.per_query()
        print()
        print(per.to_string(index=False, float_format=lambda x: f"{x:.{args.digits}f}"))
    if args.compare and not _print_comparison(args, ev.paired(args.compare), complete=ev.missing == "zero"):
        return 1
    if args.csv and not _write_csv(args.csv, ev.per_query()):
        return 1
    return 0


def _print_results(ev, digits: int) -> None:
    means = ev.means()
    orders = ev.orders().set_index("variant")
    tau = ev.tau()
    ref = ev.labels[0]
    at = "" if ev.k is None else f"@{ev.k}"
    print(f"Mean NDCG{at} over {', '.join(f'{n}: {q} queries' for n, q in ev.n_queries().items())}")
    print()
    headers = ["variant (gain/discount/idcg/ties)", *ev.runs, "winner"]
    if len(ev.runs) > 1:
        headers.append("tau vs first")
    rows = []
    for label in ev.labels:
        row = [label, *[_fmt(means.loc[r, label], digits) for r in ev.runs], orders.loc[label, "winner"]]
        if len(ev.runs) > 1:
            row.append(_fmt(tau.loc[label, ref], 2))
        rows.append(row)
    print(format_table(headers, rows))
    if len(ev.runs) > 1:
        winners = orders["winner"].value_counts()
        verdict = "changes" if ev.winner_changes() else "does not change"
        print()
        print(f"The winner {verdict} between variants: "
              + ", ".join(f"{run} wins under {n} variant(s)" for run, n in winners.items()))


def _fmt(value, digits: int) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"


def run_as_script() -> int:
    """The console entry point: :func:`main`, quiet when the output pipe closes early.

    The ``ndcg-lab-eval`` console script and ``python -m metrics.runfiles`` call it with the
    process's ``sys.argv``.

    Returns
    -------
    int
        :func:`main`'s exit status, or 1 when standard output was closed early (``| head``).

    Examples
    --------
    >>> import sys, tempfile
    >>> from pathlib import Path
    >>> saved = sys.argv
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = Path(d, "qrels").write_text("q1 0 a 1\\n")
    ...     _ = Path(d, "run").write_text("q1 Q0 a 1 0.9 bm25\\n")
    ...     sys.argv = ["ndcg-lab-eval", "-m", "recip_rank", str(Path(d, "qrels")), str(Path(d, "run"))]
    ...     run_as_script()
    recip_rank            \tall\t1.0000
    0
    >>> sys.argv = saved
    """
    try:
        code = main()
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_as_script())
