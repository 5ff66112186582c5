"""The command line: python -m metrics.runfiles QRELS RUN [RUN...] — tables, exit codes, CSV output
equal to pytrec_eval, and clear messages (never a traceback) for bad files."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from metrics.runfiles.cli import format_table, main

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"
QRELS = str(SAMPLES / "qrels.txt")
RUNS = [str(p) for p in sorted(SAMPLES.glob("*.run"))]
ONE = ["--gain", "linear", "--discount", "standard", "--idcg", "judged", "--ties", "trec_eval"]


def test_table_of_all_variants_and_winner_verdict(capsys):
    assert main([QRELS, *RUNS, "--k", "10"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("Mean NDCG@10 over bm25.run: 6 queries")
    header = lines[2].split()
    assert header[-5:] == ["hybrid.run", "winner", "tau", "vs", "first"]
    body = [ln for ln in lines[4:] if "/" in ln]
    assert len(body) == 24  # 3 gains x 2 discounts x 2 IDCG sources x 2 tie rules
    assert "The winner changes between variants" in out


def test_csv_per_query_equals_pytrec_eval(tmp_path, capsys):
    import pytrec_eval

    out = tmp_path / "per_query.csv"
    assert main([QRELS, *RUNS, "--k", "5", *ONE, "--csv", str(out)]) == 0
    per = pd.read_csv(out, dtype={"qid": str})
    qrels = {}
    for line in Path(QRELS).read_text().split("\n"):
        if line:
            q, _, d, g = line.split()
            qrels.setdefault(q, {})[d] = int(g)
    for path in RUNS:
        run = {}
        for line in Path(path).read_text().split("\n"):
            if line:
                q, _, d, _, s, _ = line.split()
                run.setdefault(q, {})[d] = float(s)
        want = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.5"}).evaluate(run)
        got = per[per["run"] == Path(path).name].set_index("qid")["linear/standard/judged/trec_eval"]
        assert sorted(got.index) == sorted(want)
        for q in want:
            assert got[q] == pytest.approx(want[q]["ndcg_cut_5"], rel=1e-9, abs=0)


def test_per_query_printing(capsys):
    assert main([QRELS, RUNS[0], *ONE, "--per-query", "--digits", "3"]) == 0
    out = capsys.readouterr().out
    assert "qid" in out and "101" in out


def test_bad_lines_stop_unless_skipped(capsys):
    broken = str(SAMPLES / "broken_gbk.txt")
    assert main([QRELS, broken]) == 1
    err = capsys.readouterr().err
    assert "broken_gbk.txt line 3: score 'abc' is not a finite number" in err
    assert "--skip-bad-lines" in err and "Traceback" not in err
    assert main([QRELS, broken, "--skip-bad-lines", *ONE]) == 0
    captured = capsys.readouterr()
    assert "broken_gbk.txt" in captured.out and "not in the qrels" in captured.err


@pytest.mark.parametrize(
    "args, message",
    [
        ([QRELS, "/nonexistent.run"], "is not a readable file"),
        ([RUNS[0], RUNS[0]], "looks like a run file"),
        ([QRELS, RUNS[0], "--k", "0"], "--k must be >= 1"),
        ([QRELS, RUNS[0], "--max-mb", "0.0001"], "the limit is"),
        ([QRELS, RUNS[0], "--log-base", "1"], "log_base must be"),
    ],
)
def test_bad_files_and_options_exit_1_with_a_message(args, message, capsys):
    assert main(args) == 1
    assert message in capsys.readouterr().err


def test_unknown_variant_name_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main([QRELS, RUNS[0], "--gain", "cubic"])
    assert exc.value.code == 2
    assert "invalid choice: 'cubic'" in capsys.readouterr().err


def test_runs_as_a_module():
    proc = subprocess.run([sys.executable, "-m", "metrics.runfiles", QRELS, *RUNS, "--k", "10", *ONE],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "linear/standard/judged/trec_eval" in proc.stdout


def test_output_piped_into_a_closed_pipe_stops_quietly():
    """`python -m metrics.runfiles ... | head -1`: no BrokenPipeError traceback, exit code 1."""
    import os

    read_end, write_end = os.pipe()
    proc = subprocess.Popen([sys.executable, "-m", "metrics.runfiles", QRELS, *RUNS, "--k", "10"], cwd=ROOT,
                            stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    os.close(read_end)  # the reader is gone before the first line is written (imports take far longer)
    _, err = proc.communicate(timeout=120)
    assert "Traceback" not in err.decode() and "BrokenPipeError" not in err.decode(), err.decode()
    assert proc.returncode == 1


def test_command_line_uses_numba_only_from_three_million_rows(monkeypatch, capsys):
    """A one-shot process pays numba's start on every call: the CLI raises the limit, then restores it."""
    import metrics.runfiles._kernels as kernels
    import metrics.runfiles.join
    import metrics.runfiles.read
    from metrics.runfiles.cli import CLI_NUMBA_MIN_ROWS

    seen = []

    def spy(n):
        seen.append(kernels.NUMBA_MIN_ROWS)
        return kernels.use_numba(n)

    monkeypatch.setattr(metrics.runfiles.read, "use_numba", spy)
    monkeypatch.setattr(metrics.runfiles.join, "use_numba", spy)
    monkeypatch.setattr(kernels, "NUMBA_MIN_ROWS", 0)  # as if every input were large
    assert main([QRELS, *RUNS, "--k", "10", *ONE]) == 0
    assert seen and set(seen) == {CLI_NUMBA_MIN_ROWS}
    assert kernels.NUMBA_MIN_ROWS == 0  # restored
    with pytest.raises(ValueError, match="rows must be a whole number"):
        with kernels.numba_from(-1):
            pass


def test_format_table_aligns_columns():
    text = format_table(["name", "value"], [["a", "0.5"], ["longer", "1.25"]])
    lines = text.splitlines()
    assert lines[1] == "------  -----"
    assert lines[3].index("1.25") == lines[0].index("value")
