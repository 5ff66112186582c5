"""ir_measures' names on the command line: -m takes them beside trec_eval's and prints each as written, with
ir_measures' mean; --help lists both; a diversity measure reads diversity qrels; --compare takes an
ir_measures name; bad names exit 2 naming the option and the spec as typed.  (With --spark, the diversity
measures too: tests/metrics/runfiles/test_spark_ir_measures.py.)"""
from __future__ import annotations

import logging
from pathlib import Path

import ir_measures
import pytest

from metrics.runfiles.cli import main

logging.getLogger("ir_measures").setLevel("ERROR")
ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"
QRELS = str(SAMPLES / "qrels.txt")
RUN = str(SAMPLES / "bm25.run")


def _values(text: str) -> dict[tuple[str, str], str]:
    return {(m.strip(), q): v for m, q, v in (line.split("\t") for line in text.splitlines() if line.count("\t") == 2)}


def test_names_of_both_tools_print_as_written_with_ir_measures_means(capsys):
    assert main(["-q", "-m", "nDCG@10", "-m", "ndcg_cut.10", "-m", "P(rel=2)@5", "-m", "Judged@10",
                 "-m", "RR(rel=2)@10", QRELS, RUN]) == 0
    got = _values(capsys.readouterr().out)
    qrels = list(ir_measures.read_trec_qrels(QRELS))
    run = list(ir_measures.read_trec_run(RUN))
    for name in ("nDCG@10", "P(rel=2)@5", "Judged@10", "RR(rel=2)@10"):
        m = ir_measures.parse_measure(name)
        assert got[(name, "all")] == f"{ir_measures.calc_aggregate([m], qrels, run)[m]:6.4f}"
        for metric in ir_measures.iter_calc([m], qrels, run):
            if (name, metric.query_id) in got:
                assert got[(name, metric.query_id)] == f"{metric.value:6.4f}"
    per_query = [q for (m, q) in got if m == "ndcg_cut_10" and q != "all"]
    assert per_query and all(got[("ndcg_cut_10", q)] == got[("nDCG@10", q)] for q in per_query)  # one kernel


def test_help_lists_trec_eval_and_ir_measures_names(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "ndcg_cut.5,10,15,20,30,100,200,500,1000" in out
    for name in ("alpha_nDCG(rel=1,alpha=0.5,judged_only=False)@cutoff", "Judged@cutoff", "RBP(p=0.8,rel)@cutoff",
                 "NumRelRet = NumRet(rel=1)", "IPrec(rel=1,judged_only=False)@recall"):
        assert name in out


def test_diversity_measures_read_subtopic_qrels(tmp_path, capsys):
    qrels = tmp_path / "div.qrels"
    qrels.write_text("1 a d1 1\n1 b d1 1\n1 a d2 1\n1 c d3 1\n")
    run = tmp_path / "r.run"
    run.write_text("1 Q0 d2 1 3 r\n1 Q0 d1 2 2 r\n1 Q0 d3 3 1 r\n")
    assert main(["-m", "alpha_nDCG@2", "-m", "StRecall@1", "-m", "P@2", str(qrels), str(run)]) == 0
    got = _values(capsys.readouterr().out)
    # gains: d2 {a} 1; d1 {a, b} 0.5 + 1. ideal: d1 {a, b} 2, then d3 {c} 1 (before d2's 0.5)
    want = (1 + 1.5 / 1.584962500721156) / (2 + 1 / 1.584962500721156)
    assert got[("alpha_nDCG@2", "all")] == f"{want:6.4f}"
    assert got[("StRecall@1", "all")] == f"{1 / 3:6.4f}" and got[("P@2", "all")] == "1.0000"


@pytest.mark.parametrize("spec, message", [
    ("P@x", "'P@x': measure 'P@x': expected a number"),
    ("alpha_nDCG@40", "cutoff must be at most 20"),
    ("RBP", "write RBP(rel=1)"),
])
def test_bad_ir_measures_names_exit_2_naming_the_option(spec, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["-m", spec, QRELS, RUN])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument -m/--measure" in err and message in err


def test_compare_takes_an_ir_measures_name(capsys):
    runs = [str(p) for p in sorted(SAMPLES.glob("*.run"))]
    assert main(["-m", "P(rel=2)@5", "--compare", "P(rel=2)@5", "--resamples", "200", QRELS, *runs]) == 0
    out = capsys.readouterr().out
    assert "P(rel=2)@5" in out
