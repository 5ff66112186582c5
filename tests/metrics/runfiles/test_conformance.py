"""The conformance table and the command line's --match: every library side by side, the first setting that
separates it from trec_eval, exports that stay data (CSV) and text (Markdown), and the command line's
options, output and refusals."""
from __future__ import annotations

import contextlib
import io
import math

import numpy as np
import pytest

from metrics.runfiles.cli import main
from metrics.runfiles.conformance import REFERENCE, conformance, separating_setting
from metrics.runfiles.match import MEAN_DIMENSIONS, RUN_LIBRARIES, mean_grid
from tests.metrics.runfiles.test_match_mean import generate

QRELS = b"1 0 a 2\n1 0 b 1\n2 0 c 1\n3 0 d 1\n"
RUN = b"1 Q0 b 1 2 r\n1 Q0 a 2 1 r\n2 Q0 x 1 1 r\n2 Q0 c 2 1 r\n"


def test_table_reads_the_grid():
    _, _, qb, rb = generate(3, dups=True)
    grid = mean_grid(qb, rb, "nDCG@10")
    t = conformance(grid)
    assert list(t.per_query["qid"]) == list(grid.queries) + list(grid.foreign)
    means = t.means.set_index("library")
    for key in RUN_LIBRARIES:
        if key in grid.refused:
            assert key not in t.per_query and means.loc[key, "refused"] and math.isnan(means.loc[key, "mean"])
            continue
        col = t.per_query.set_index("qid")[key]
        ours = grid.per_query(RUN_LIBRARIES[key].settings).groupby(level=0).first()
        assert set(col.dropna().index) == set(ours.index), key
        assert np.allclose(col[ours.index].to_numpy(), ours.to_numpy(), rtol=0, atol=1e-12), key
        assert means.loc[key, "mean"] == pytest.approx(grid.mean(RUN_LIBRARIES[key].settings), abs=1e-12)
        assert means.loc[key, "queries"] == len(ours)


def test_the_real_ir_measures_column():
    import ir_measures
    from ir_measures import nDCG

    qrels, lines, qb, rb = generate(4, dups=True)
    t = conformance(qb, rb, "nDCG@10").per_query.set_index("qid")["ir_measures"].dropna()
    Q = [ir_measures.Qrel(q, d, g) for q, ds in qrels.items() for d, g in ds.items()]
    R = [ir_measures.ScoredDoc(q, d, s) for q, d, s in lines]
    theirs = {m.query_id: m.value for m in ir_measures.iter_calc([nDCG @ 10], Q, R)}
    assert set(t.index) == set(theirs)
    assert all(abs(t[q] - v) <= 1e-9 for q, v in theirs.items())


def test_hand_derived_separations():
    # Query 1 ranks b (grade 1) over a (grade 2): 0.8597.  Query 2 ties x and c at score 1: trec_eval puts x
    # first (docno descending): 1/log2 3 = 0.6309; the tie average gives (1 + 0.6309) / 2 = 0.8155.  Query 3
    # is unanswered: ir_measures counts it 0.  ranx refuses the different query sets.
    t = conformance(QRELS, RUN, "nDCG@10")
    m = t.means.set_index("library")
    assert m.loc["trec_eval_9", "separated_by"] == "" and m.loc["trec_eval_10", "separated_by"] == ""
    assert (m.loc["ir_measures", "separated_by"], m.loc["ir_measures", "trec_eval"], m.loc["ir_measures", "theirs"]) \
        == ("queries", "both", "qrels")
    assert m.loc["sklearn", "separated_by"] == "ties"
    assert m.loc["gdeval", "separated_by"] == "gain"  # no duplicates here: the exponential gain is the first
    assert "query ids do not match" in m.loc["ranx", "refused"]
    assert round(float(m.loc["sklearn", "mean"]), 4) == round((0.8597186998521972 + (1 + 1 / math.log2(3)) / 2) / 2, 4)


@pytest.mark.parametrize("seed", range(3))
def test_the_separating_setting_is_the_first_that_changes_a_value(seed):
    _, _, qb, rb = generate(seed, dups=seed != 1)
    grid = mean_grid(qb, rb, "nDCG@5")
    dims = list(MEAN_DIMENSIONS)
    ref = grid.canonical(RUN_LIBRARIES[REFERENCE].settings)
    for key in RUN_LIBRARIES:
        target = grid.canonical(RUN_LIBRARIES[key].settings)
        found = separating_setting(grid, key)
        # walk by hand: each library choice taken in turn, the first that moves a query's value
        point, walked = dict(ref), None
        base = grid.per_query(point).to_dict()
        for d in dims:
            if target[d] == point[d]:
                continue
            point[d] = target[d]
            now = grid.per_query(point).to_dict()
            if set(now) != set(base) or any(abs(now[q] - base[q]) > 1e-12 for q in now):
                walked = d
                break
        assert found == walked, key


def test_exports_are_inert():
    qrels = b"=cmd() 0 a 1\n+x 0 b 1\n[l](http://e.x) 0 c 1\n|p| 0 d 1\n"
    run = b"=cmd() Q0 a 1 2 r\n+x Q0 b 1 2 r\n[l](http://e.x) Q0 c 1 1 r\n|p| Q0 z 1 1 r\n|p| Q0 d 2 0.5 r\n"
    t = conformance(qrels, run, "nDCG@10")
    csv_text = t.to_csv()
    for line in csv_text.splitlines()[1:]:
        first = line.split(",")[0].strip('"')
        assert not first.startswith(("=", "+", "-", "@")), line
    assert "\"'=cmd()\"" in csv_text and "\"'+x\"" in csv_text
    with pytest.raises(ValueError, match="which"):
        t.to_csv("everything")


def test_bad_arguments():
    with pytest.raises(ValueError, match="give qrels, run and measure"):
        conformance(QRELS)
    with pytest.raises(ValueError, match="MeanGrid alone"):
        conformance(mean_grid(QRELS, RUN, "nDCG@10"), RUN)
    with pytest.raises(ValueError, match="libraries"):
        conformance(QRELS, RUN, "nDCG@10", libraries=["nope"])
    with pytest.raises(ValueError, match="library"):
        separating_setting(mean_grid(QRELS, RUN, "nDCG@10"), "nope")


# ------------------------------------------------------------------------------------------ command line
def run_cli(argv, stdin: bytes | None = None):
    out, err = io.StringIO(), io.StringIO()
    code = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            if stdin is not None:
                import sys

                old = sys.stdin
                sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
                try:
                    code = main(argv)
                finally:
                    sys.stdin = old
            else:
                code = main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_cli_match(tmp_path):
    (tmp_path / "qrels").write_bytes(QRELS)
    (tmp_path / "run").write_bytes(RUN)
    code, out, err = run_cli(["--match", "0.4969", "-m", "ndcg_cut.10", str(tmp_path / "qrels"), str(tmp_path / "run"),
                              "--csv", str(tmp_path / "table.csv")])
    assert code == 0, err
    assert "- ir_measures (pytrec_eval provider, its default) gives 0.496883" in out
    assert "First difference, Queries averaged" in out
    assert "ranx gives no number" in out
    table = (tmp_path / "table.csv").read_text()
    assert table.splitlines()[0].startswith('"run","qid","trec_eval_9"')
    assert "every setting evaluated" in err


def test_cli_match_reads_standard_input_and_several_runs(tmp_path):
    (tmp_path / "qrels").write_bytes(QRELS)
    (tmp_path / "run").write_bytes(RUN)
    code, out, _ = run_cli(["--match", "74.53%", "-m", "nDCG@10", str(tmp_path / "qrels"), str(tmp_path / "run"), "-"],
                           stdin=RUN)
    assert code == 0
    assert out.count("# run ") == 2 and "trec_eval 9.0.8 gives 0.745324" in out


@pytest.mark.parametrize("argv, message", [
    (["--match", "x", "-m", "nDCG@10"], "--match: 'x' is not a number"),
    (["--match", "0.5"], "needs exactly one measure"),
    (["--match", "0.5", "-m", "map"], "is not an NDCG"),
    (["--match", "0.5", "-m", "nDCG@10", "-m", "nDCG@5"], "needs exactly one measure"),
    (["--match", "0.5", "-m", "nDCG@10", "-c"], "argument -c: --match tries every setting"),
    (["--match", "0.5", "-m", "nDCG@10", "-M", "10"], "argument -M"),
    (["--match", "0.5", "-m", "nDCG@10", "--variants"], "argument --variants"),
])
def test_cli_match_refuses_bad_arguments(tmp_path, argv, message):
    (tmp_path / "qrels").write_bytes(QRELS)
    (tmp_path / "run").write_bytes(RUN)
    code, _, err = run_cli([*argv, str(tmp_path / "qrels"), str(tmp_path / "run")])
    assert code == 2 and message in err, err


def test_cli_match_file_errors_exit_1(tmp_path):
    (tmp_path / "qrels").write_bytes(b"\x89PNG\r\n\x1a\nbinary")
    (tmp_path / "run").write_bytes(RUN)
    code, _, err = run_cli(["--match", "0.5", "-m", "nDCG@10", str(tmp_path / "qrels"), str(tmp_path / "run")])
    assert code == 1 and "error: qrels" in err
    code, _, err = run_cli(["--match", "0.5", "-m", "nDCG@10", str(tmp_path / "missing"), str(tmp_path / "run")])
    assert code == 1 and "error:" in err


def test_cli_match_reads_with_the_command_line_s_limits_and_columns(tmp_path):
    (tmp_path / "qrels").write_bytes(QRELS)
    (tmp_path / "run.csv").write_text("user,item,pred\n1,b,2\n1,a,1\n2,x,1\n2,c,1\n")
    code, out, err = run_cli(["--match", "0.7453", "-m", "nDCG@10", "--run-columns", "qid=user,docno=item,score=pred",
                              str(tmp_path / "qrels"), str(tmp_path / "run.csv")])
    assert code == 0, err
    assert "trec_eval 9.0.8 gives 0.745324" in out
    (tmp_path / "run").write_bytes(RUN * 2000)
    code, _, err = run_cli(["--match", "0.5", "-m", "nDCG@10", "--max-mb", "0.01", str(tmp_path / "qrels"),
                            str(tmp_path / "run")])
    assert code == 1 and "error: run" in err and "MB" in err
    code, _, err = run_cli(["--match", "0.5", "-m", "nDCG@10", "--max-rows", "3", str(tmp_path / "qrels"),
                            str(tmp_path / "run")])
    assert code == 1 and "qrels has 4 rows; the limit is 3 rows" in err
