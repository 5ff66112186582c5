"""Evaluate TREC run files from the command line under every NDCG variant.

Usage::

    python -m metrics.runfiles QRELS RUN [RUN ...] [--k 10] [--gain linear exponential]
        [--discount standard jarvelin] [--idcg judged list] [--ties trec_eval average]
        [--missing skip|zero] [--relevance-level 1] [--log-base 2] [--skip-bad-lines]
        [--per-query] [--csv OUT.csv]

Prints one row per variant (gain/discount/IDCG source/ties) with each run's mean
NDCG@k, the winner, and Kendall's tau between that variant's ordering of the runs
and the first variant's.  Exit status: 0 on success, 1 when a file cannot be used
(or has bad lines and ``--skip-bad-lines`` was not given), 2 for bad arguments.

>>> import contextlib, io
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = main(["data/samples/qrels.txt", "data/samples/bm25.run", "--k", "10",
...                  "--gain", "linear", "--discount", "standard", "--idcg", "judged", "--ties", "trec_eval"])
>>> code, out.getvalue().splitlines()[4].split()[0]
(0, 'linear/standard/judged/trec_eval')
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence

from ..registry import DISCOUNTS, GAINS, TIES
from . import _kernels
from .batch import IDCG, MISSING, evaluate, make_variants
from .read import Parsed, read_files

__all__ = ["main", "format_table"]

#: Each command-line run pays numba's start (~1.4 s: import, loading the compiled kernels); against the
#: numpy path that pays off from about 3,000,000 run lines (measured: 2M lines 1.8-2.1 s with numba vs
#: 1.4-1.5 s without, 3M lines 2.1-2.2 s either way).  The app, a long-lived process, uses numba from 1M.
CLI_NUMBA_MIN_ROWS = 3_000_000


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table with a rule under the header.

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


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m metrics.runfiles",
        description="Mean NDCG of TREC runs under every gain, discount, IDCG source and tie rule, "
                    "and whether the winner changes.",
    )
    p.add_argument("qrels", help="qrels file: TREC 'qid iter docno rel' or CSV/TSV with a header")
    p.add_argument("runs", nargs="+", metavar="run", help="run file(s): TREC 'qid Q0 docno rank score tag' or CSV/TSV")
    p.add_argument("--k", type=int, default=None, help="cutoff (default: whole list and whole pool, trec_eval ndcg)")
    p.add_argument("--gain", nargs="+", choices=list(GAINS), default=list(GAINS), help="gains (default: all)")
    p.add_argument("--discount", nargs="+", choices=list(DISCOUNTS), default=list(DISCOUNTS),
                   help="discounts (default: all)")
    p.add_argument("--idcg", nargs="+", choices=list(IDCG), default=["judged", "list"],
                   help="ideal ranking from all judged documents or from the retrieved list (default: both)")
    p.add_argument("--ties", nargs="+", choices=list(TIES), default=["trec_eval", "average"],
                   help="tie rules (default: trec_eval average)")
    p.add_argument("--missing", choices=list(MISSING), default="skip",
                   help="qrels queries a run did not answer: skip (trec_eval) or zero (trec_eval -c)")
    p.add_argument("--relevance-level", type=float, default=None,
                   help="grades below this count as 0 (ranx rel_lvl; trec_eval -l does not change ndcg)")
    p.add_argument("--log-base", type=float, default=2.0, help="base of the logarithm in the discount (default 2)")
    p.add_argument("--skip-bad-lines", action="store_true",
                   help="evaluate the readable lines of files with malformed lines instead of stopping")
    p.add_argument("--per-query", action="store_true", help="also print per-query values")
    p.add_argument("--csv", metavar="OUT", help="write per-query values to this CSV file")
    p.add_argument("--max-mb", type=float, default=None, help="refuse files larger than this many MB")
    p.add_argument("--digits", type=int, default=4, help="decimals shown (default 4)")
    return p


def _report(parsed: Parsed, skip_bad: bool) -> bool:
    """Print a file's problems to stderr; True when the file can be used."""
    for problem in parsed.problems:
        label = {"fatal": "error", "error": "error", "warning": "warning"}[problem.severity]
        print(f"{label}: {problem.message}", file=sys.stderr)
    if parsed.fatal:
        return False
    if parsed.errors and not skip_bad:
        print(f"error: {parsed.name} has {parsed.n_problems} bad line(s); fix them or pass --skip-bad-lines "
              "to evaluate the rest", file=sys.stderr)
        return False
    return True


def _read_and_evaluate(args, max_bytes):
    """Read the files and evaluate; ``ev`` is None when a file has problems that stop the run."""
    qrels, runs = read_files(args.qrels, args.runs, max_bytes=max_bytes)
    ok = _report(qrels, args.skip_bad_lines)
    for parsed in runs:
        ok = _report(parsed, args.skip_bad_lines) and ok
    if not ok:
        return qrels, runs, None
    names = [r.name for r in runs]
    for r in runs:  # distinct names for runs with the same file name in different folders
        if names.count(r.name) > 1:
            r.table.name = str(args.runs[runs.index(r)])
    variants = make_variants(gains=args.gain, discounts=args.discount, idcg=args.idcg, ties=args.ties)
    ev = evaluate(qrels.table, [r.table for r in runs], k=args.k, variants=variants, log_base=args.log_base,
                  relevance_level=args.relevance_level, missing=args.missing)
    return qrels, runs, ev


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.k is not None and args.k < 1:
            raise ValueError(f"--k must be >= 1, got {args.k}")
        max_bytes = None if args.max_mb is None else max(1, int(args.max_mb * 1e6))
        started = time.perf_counter()
        with _kernels.numba_from(max(CLI_NUMBA_MIN_ROWS, _kernels.NUMBA_MIN_ROWS)):
            qrels, runs, ev = _read_and_evaluate(args, max_bytes)
        if ev is None:
            return 1
        elapsed = time.perf_counter() - started
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for problem in ev.problems:
        print(f"warning: {problem.message}", file=sys.stderr)
    _print_results(ev, args.digits)
    print(f"\n{sum(r.table.n_rows for r in runs) + qrels.table.n_rows:,} lines read and evaluated in "
          f"{elapsed:.2f} s", file=sys.stderr)
    if args.per_query:
        per = ev.per_query()
        print()
        print(per.to_string(index=False, float_format=lambda x: f"{x:.{args.digits}f}"))
    if args.csv:
        try:
            ev.per_query().to_csv(args.csv, index=False, float_format="%.17g")
        except OSError as exc:
            print(f"error: cannot write {args.csv}: {exc}", file=sys.stderr)
            return 1
        print(f"per-query values written to {args.csv}", file=sys.stderr)
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
    """The console entry point: :func:`main`, quiet when the output pipe closes early."""
    try:
        code = main()
        sys.stdout.flush()
        return code
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_as_script())
