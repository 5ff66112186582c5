"""Test helpers: random qrels/runs as dicts and TREC bytes, and trec_eval's printed output rebuilt from
pytrec_eval's numbers (pytrec_eval bundles trec_eval 9.0.8's C code; it returns numbers, not text, so
the text is formatted here the way trec_eval's ``meas_print_single.c`` / ``meas_print_final.c`` print
it, independently of :mod:`metrics.runfiles.trec`)."""
from __future__ import annotations

import math

import numpy as np
import pytrec_eval

from metrics.runfiles.read import read_qrels, read_run

#: Measures trec_eval prints as whole numbers (``%ld``); the rest as ``%6.4f``.
LONG = {"num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}
#: Measures trec_eval does not print per query.
SUMMARY_ONLY = {"runid", "num_q", "gm_map", "gm_bpref"}


def generate(seed: int, *, n_queries=25, n_docs=50, max_judged=20, max_ret=40, ties=True, grades=(-1, 4),
             missing_every=7, prefix="d"):
    """Random qrels and one run: negative grades, unjudged and judged-unretrieved documents, tied scores,
    qrels queries the run skips, and a run query the qrels lack."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for i in range(n_queries):
        q = f"q{i}"
        docs = rng.choice(n_docs, size=int(rng.integers(1, max_judged)), replace=False)
        qrels[q] = {f"{prefix}{d:03d}": int(rng.integers(*grades)) for d in docs}
        if missing_every and i % missing_every == 3:
            continue
        ret = rng.choice(n_docs, size=int(rng.integers(1, max_ret)), replace=False)
        scores = rng.integers(0, 8, size=ret.size) / 2 if ties else rng.permutation(ret.size) + 0.25
        run[q] = {f"{prefix}{d:03d}": float(s) for d, s in zip(ret, scores)}
    run["not_in_qrels"] = {f"{prefix}001": 1.0}
    return qrels, run


def qrels_bytes(qrels: dict) -> bytes:
    return "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()).encode()


def run_bytes(run: dict, tag: str = "tag") -> bytes:
    return "".join(f"{q} Q0 {d} {i} {s!r} {tag}\n" for q, docs in run.items()
                   for i, (d, s) in enumerate(docs.items(), start=1)).encode()


def tables(qrels: dict, run: dict, *, name: str = "run"):
    return read_qrels(qrels_bytes(qrels), name="qrels").table, read_run(run_bytes(run), name=name).table


def trec_ranked(qrels_q: dict, run_q: dict, *, max_docs=None, judged_only=False) -> list[int]:
    """A query's codes in trec_eval's order (score desc, docno desc): grade, -1 not judged, -2 negative."""
    docs = sorted(run_q, key=lambda d: (-run_q[d], tuple(-b for b in d.encode())))
    codes = [qrels_q[d] if d in qrels_q and qrels_q[d] >= 0 else (-2 if d in qrels_q else -1) for d in docs]
    if max_docs is not None:
        codes = codes[:max_docs]
    if judged_only:
        codes = [c for c in codes if c >= 0]
    return codes


def relstring(codes: list[int], n: int = 10) -> str:
    return "".join(">" if c > 9 else str(c) if c >= 0 else "-" if c == -1 else "." for c in codes[:n])


def truncated(qrels: dict, run: dict, max_docs: int) -> dict:
    """The run cut to its first ``max_docs`` documents per query in trec_eval's order (what -M does)."""
    out = {}
    for q, docs in run.items():
        keep = sorted(docs, key=lambda d: (-docs[d], tuple(-b for b in d.encode())))[:max_docs]
        out[q] = {d: docs[d] for d in keep}
    return out


def fmt(value: float) -> str:
    if math.isnan(value):
        return ("-nan" if math.copysign(1.0, value) < 0 else "nan").rjust(6)
    return f"{value:6.4f}"


def trec_eval_text(qrels: dict, run: dict, measures, *, per_query=True, relevance_level=1, judged_only=False,
                   tag="tag", complete=False) -> str:
    """What ``trec_eval [-q] [-c] [-J] [-l N] -m ... qrels run`` prints, from pytrec_eval's values."""
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(measures), relevance_level=relevance_level,
                                               judged_docs_only_flag=judged_only)
    res = evaluator.evaluate(run)
    queries = sorted(res, key=lambda q: q.encode())
    keys = list(res[queries[0]])  # pytrec_eval keeps trec_eval's measure order
    lines = []
    if per_query:
        for q in queries:
            for k in keys:
                if k in SUMMARY_ONLY:
                    continue
                if k == "relstring":
                    value = "'" + relstring(trec_ranked(qrels[q], run[q], judged_only=judged_only)) + "'"
                else:
                    value = str(int(res[q][k])) if k in LONG else fmt(res[q][k])
                lines.append(f"{k:<22}\t{q}\t{value}")
    n = len(queries)
    den = len(qrels) if complete else n
    for k in keys:
        vals = [res[q][k] for q in queries]
        if k == "relstring":
            continue
        if k == "runid":
            lines.append(f"{k:<22}\tall\t{tag}")
        elif k == "num_q":  # m_num_q.c: with -c, every qrels query
            lines.append(f"{k:<22}\tall\t{len(qrels) if complete else n}")
        elif k == "num_rel" and complete:  # m_num_rel.c te_calc_avg_num_rel: every qrels line graded > 0
            lines.append(f"{k:<22}\tall\t{sum(g > 0 for docs in qrels.values() for g in docs.values())}")
        elif k in LONG:
            lines.append(f"{k:<22}\tall\t{int(sum(vals))}")
        elif k.startswith("gm_"):
            total = math.fsum(vals) + (den - n) * math.log(0.00001)
            lines.append(f"{k:<22}\tall\t{fmt(math.exp(total / den))}")
        else:
            lines.append(f"{k:<22}\tall\t{fmt(math.fsum(vals) / den)}")
    return "\n".join(lines)
