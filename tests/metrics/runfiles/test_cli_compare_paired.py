"""``--compare`` reads the runs' per-query values from the one Result (``Result.paired``, issue 38).

Two things are checked:

* Where the answer did not change, the output did not either, byte for byte: ``data/compare/<case>.out`` is
  what the command line printed for ``<case>.args`` before the change (captured at commit 909df7d, when
  ``--compare`` pivoted ``result.frame()`` and the variants' ``Evaluation.per_query()``).
* Where it changed: with ``-c`` (trec_eval's "complete": the mean is over every qrels query, a query a run
  did not answer counts 0), a qrels query that *no* run answered used to be left out of the paired tests
  while the printed means counted it.  The tests now pair the same queries the means are over, so the mean
  difference of the table is the difference of the printed means; checked against ``scipy.stats`` directly.
"""
from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from metrics.runfiles.cli import main

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"
CASES = Path(__file__).parent / "data" / "compare"


@pytest.mark.parametrize("case", sorted(p.stem for p in CASES.glob("*.args")))
def test_output_unchanged_byte_for_byte(case, capsys):
    args = shlex.split((CASES / f"{case}.args").read_text().replace("{S}", str(SAMPLES)))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.encode("utf-8") == (CASES / f"{case}.out").read_bytes()


# q1..q3 are answered by both runs, q4 (judged, one relevant document) by neither.
#   run A: q1 a(rel) b        -> AP 1;   q2 c(rel) x -> (1/1)/2 = 0.5; q3 x -> 0; q4 -> 0 (missing)
#   run B: q1 b a(rel)        -> AP 1/2; q2 a c (both rel) -> 1;       q3 d(rel) -> 1/2; q4 -> 0 (missing)
# -c means: A = (1 + 0.5 + 0 + 0) / 4 = 0.375, B = (0.5 + 1 + 0.5 + 0) / 4 = 0.5: mean A - B = -0.125 over 4
# queries (without q4: -0.1667 over 3, which is neither run's printed mean difference).
QRELS = "q1 0 a 1\nq1 0 b 0\nq2 0 a 1\nq2 0 c 1\nq3 0 a 1\nq3 0 d 1\nq4 0 a 1\n"
RUN_A = "q1 Q0 a 1 2 A\nq1 Q0 b 2 1 A\nq2 Q0 c 1 2 A\nq2 Q0 x 2 1 A\nq3 Q0 x 1 1 A\n"
RUN_B = "q1 Q0 b 1 2 B\nq1 Q0 a 2 1 B\nq2 Q0 a 1 2 B\nq2 Q0 c 2 1 B\nq3 Q0 d 1 1 B\n"
A = np.array([1.0, 0.5, 0.0, 0.0])
B = np.array([0.5, 1.0, 0.5, 0.0])


@pytest.fixture
def files(tmp_path):
    out = []
    for name, text in (("qrels", QRELS), ("A.run", RUN_A), ("B.run", RUN_B)):
        (tmp_path / name).write_text(text)
        out.append(str(tmp_path / name))
    return out


def _row(out: str) -> list[str]:
    return out.strip().splitlines()[-1].split()


@pytest.mark.parametrize("mode", [["-m", "map"], ["--variants", "--gain", "linear", "--discount", "standard",
                                                  "--idcg", "judged", "--ties", "trec_eval"]])
def test_complete_pairs_every_qrels_query(files, mode, capsys):
    compare = "map" if mode[0] == "-m" else "linear/standard/judged/trec_eval"
    assert main([*mode, "-c", "--compare", compare, "--test", "t", *files]) == 0
    out = capsys.readouterr().out
    assert "over 4 queries" in out
    if mode[0] == "-m":
        assert "map                   \tall\t0.3750" in out and "map                   \tall\t0.5000" in out
        a, b, diff, *_, p, p_corr, significant = _row(out)
        assert (a, b, diff) == ("A.run", "B.run", f"{A.mean() - B.mean():+.4f}") == ("A.run", "B.run", "-0.1250")
        expected = stats.ttest_rel(A, B).pvalue  # scipy itself, on the four queries the means are over
        assert p == f"{expected:.4g}" and p_corr == p and significant == "no"


def test_default_pairs_the_queries_every_run_answered(files, capsys):
    # without -c trec_eval averages each run over the queries it answered; the tests pair those every run
    # answered (q1-q3 here: q4 is answered by neither): 1 - 0.5, 0.5 - 1, 0 - 0.5
    assert main(["-m", "map", "--compare", "map", "--test", "t", *files]) == 0
    a, b, diff, *_, p, _, _ = _row(capsys.readouterr().out)
    assert diff == f"{(A[:3] - B[:3]).mean():+.4f}" and p == f"{stats.ttest_rel(A[:3], B[:3]).pvalue:.4g}"


def test_paired_complete_is_trec_eval_c_whatever_the_evaluation(files):
    """Result.paired(complete=True) of an evaluation without -c (what Spark's variants table applies after the
    engine) equals the paired table of the -c evaluation: every qrels query, a missing one 0; and the
    variants table's Evaluation.paired reads it."""
    from metrics.runfiles import evaluate, read_qrels, read_run
    from metrics.runfiles.batch import evaluate as evaluate_variants
    from metrics.variant import Variant

    qrels, a, b = read_qrels(files[0]), read_run(files[1], name="A"), read_run(files[2], name="B")
    plain, complete = evaluate(qrels, [a, b], ["map"]), evaluate(qrels, [a, b], ["map"], complete=True)
    assert plain.paired("map").index.tolist() == ["q1", "q2", "q3"]
    assert complete.paired("map").to_dict("list") == {"A": A.tolist(), "B": B.tolist()}
    assert plain.paired("map", complete=True).equals(complete.paired("map"))
    ev = evaluate_variants(qrels.table, [a.table, b.table], variants=[Variant()], missing="zero")
    wide = ev.paired("linear/standard/judged/trec_eval")
    assert wide.index.tolist() == ["q1", "q2", "q3", "q4"] and (wide.loc["q4"] == 0).all()
