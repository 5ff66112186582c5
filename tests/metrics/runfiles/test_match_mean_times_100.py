"""Where did this number come from?: a mean NDCG printed ×100 without its % sign (a paper's 78.2) is found back,
in match_mean and in the command line's --match.

The means are computed here from first principles: trec_eval's ndcg_cut.k written out (rank by score, linear
gain, unjudged documents gain 0, the ideal from every judged document of the query, both cut at k, the mean
over the queries in both files) on random files, not through the engine; then written
×100 at a random number of decimals, rounded or cut off, without a sign.
"""
from __future__ import annotations

import contextlib
import io
import math
import tempfile
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from metrics.runfiles.cli import main
from metrics.runfiles.match import RUN_LIBRARIES, describe, match_mean
from tests.conftest import examples

SAMPLES = Path(__file__).resolve().parents[3] / "data" / "samples"


def trec_eval_mean(qrels: dict, run: dict, k: int) -> float:
    """qrels: qid -> {doc: grade}; run: qid -> {doc: score}; equal scores ordered by document id, descending
    (trec_eval's order)."""
    values = []
    for q, scored in run.items():
        if q not in qrels:
            continue
        judged = qrels[q]
        ranked = sorted(scored, key=lambda d: (scored[d], d), reverse=True)[:k]
        dcg = sum(max(judged.get(d, 0), 0) / math.log2(i + 1) for i, d in enumerate(ranked, start=1))
        ideal = sorted((g for g in judged.values() if g > 0), reverse=True)[:k]
        idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))
        values.append(dcg / idcg if idcg > 0 else 0.0)
    return sum(values) / len(values)


def hundred_written(x: float, p: int, how: str) -> str:
    d = Decimal(repr(x)).scaleb(2)
    if how == "round":
        return format(d.quantize(Decimal(1).scaleb(-p), rounding=ROUND_HALF_UP), "f")
    whole, _, frac = f"{d:.17f}".partition(".")
    return whole if p == 0 else f"{whole}.{frac[:p]}"


def as_files(qrels: dict, run: dict) -> tuple[bytes, bytes]:
    q = "".join(f"{qid} 0 {doc} {g}\n" for qid, docs in qrels.items() for doc, g in docs.items())
    r = "".join(f"{qid} Q0 {doc} {i} {s!r} r\n" for qid, docs in run.items()
                for i, (doc, s) in enumerate(sorted(docs.items(), key=lambda x: -x[1]), start=1))
    return q.encode(), r.encode()


@st.composite
def files(draw):
    n = draw(st.integers(1, 4))
    qrels, run = {}, {}
    for qi in range(1, n + 1):
        docs = [f"d{qi}_{j}" for j in range(draw(st.integers(2, 7)))]
        judged = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=len(docs), unique=True))
        qrels[str(qi)] = {d: draw(st.integers(0, 3)) for d in judged}
        if qi == 1 or draw(st.booleans()):
            retrieved = draw(st.permutations(docs + [f"u{qi}"]))[:draw(st.integers(1, len(docs) + 1))]
            run[str(qi)] = {d: float(draw(st.integers(1, 4))) for d in retrieved}  # ties too
    return qrels, run


def run_cli(argv) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue()


@settings(deadline=None, max_examples=examples(20), suppress_health_check=[HealthCheck.too_slow])
@given(files(), st.integers(1, 6), st.integers(0, 3), st.sampled_from(["round", "cut"]))
def test_a_mean_written_times_100_is_trec_evals_in_match_mean_and_the_cli(data, k, p, how):
    qrels, run = data
    mean = trec_eval_mean(qrels, run, k)
    typed = hundred_written(mean, p, how)
    assume(1 < float(typed) <= 100)
    q, r = as_files(qrels, run)
    result = match_mean(typed, q, r, f"ndcg_cut.{k}")
    te = next((m for m in result.libraries if m.key == "trec_eval_9"), None)
    assert te is not None, (typed, mean, result.near_miss("trec_eval_9"))
    assert te.times_100 and te.value == pytest.approx(mean, abs=1e-12)
    assert te.writing == "rounded" or (how == "cut" and te.writing == "truncated")
    assert te.decimals == p
    if te.writing == "rounded":  # the families are the settings whose mean rounds to the number
        assert result.families and all(f.times_100 for f in result.families)
    # the command line says it on trec_eval's line
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "qrels").write_bytes(q)
        (Path(tmp) / "run").write_bytes(r)
        code, out = run_cli(["--match", typed, "-m", f"ndcg_cut.{k}", f"{tmp}/qrels", f"{tmp}/run"])
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith(f"- {RUN_LIBRARIES['trec_eval_9'].name} gives"))
    way = "rounded at" if te.writing == "rounded" else "cut off after"
    decimals = f"{p} decimal" if p == 1 else f"{p} decimals"
    assert f"×100 = {100 * mean:.{max(p + 4, 6) - 2}f}, {way} {decimals}" in line, line
    assert "written without the % sign" in line
    assert "without a % sign it may be the mean NDCG ×100" in out.splitlines()[0]


def test_the_testers_78_2_on_a_sample_run():
    # bm25.run's ndcg_cut.10 mean (trec_eval, from the written-out formula above): 78.2-style, 1 decimal ×100
    qrels = _read_qrels((SAMPLES / "qrels.txt").read_text())
    run = _read_run((SAMPLES / "bm25.run").read_text())
    mean = trec_eval_mean(qrels, run, 10)
    typed = hundred_written(mean, 1, "round")
    lines = describe(match_mean(typed, (SAMPLES / "qrels.txt").read_bytes(), (SAMPLES / "bm25.run").read_bytes(),
                                "nDCG@10"))
    assert lines[0] == (f"Libraries whose mean of nDCG@10 gives {typed} (1 decimal; without a % sign it may be the "
                        f"mean NDCG ×100, {float(typed) / 100:.3f} as a fraction):")
    assert lines[1] == (f"- trec_eval 9.0.8 gives {mean:.6f} ×100 = {100 * mean:.4f}, rounded at 1 decimal and "
                        "written without the % sign (trec_eval -m ndcg_cut.10 qrels run), over 6 queries.")
    # with its sign: a percent as before, its decimals as written
    signed = describe(match_mean(f"{typed}%", (SAMPLES / "qrels.txt").read_bytes(),
                                 (SAMPLES / "bm25.run").read_bytes(), "nDCG@10"))
    assert signed[0].endswith(f"({'1 decimal'}; {float(typed) / 100:.3f} as a fraction):")
    assert signed[1].startswith(f"- trec_eval 9.0.8 gives {mean:.5f} (trec_eval")


def _read_qrels(text: str) -> dict:
    out: dict = {}
    for line in text.splitlines():
        if line.strip():
            qid, _, doc, grade = line.split()
            out.setdefault(qid, {})[doc] = int(grade)
    return out


def _read_run(text: str) -> dict:
    out: dict = {}
    for line in text.splitlines():
        if line.strip():
            qid, _, doc, _, score, _ = line.split()
            out.setdefault(qid, {})[doc] = float(score)
    return out
