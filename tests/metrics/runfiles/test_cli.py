"""The command line: python -m metrics.runfiles QRELS RUN [RUN...] — trec_eval's options and output (compared
line by line with trec_eval's printing of pytrec_eval's values), the NDCG-variants table, exit codes, CSV
output (neutralised, equal to pytrec_eval), significance tests, and clear messages (never a traceback) for
bad files and options."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from metrics.runfiles import evaluate_measures, read_qrels, read_run
from metrics.runfiles.cli import format_table, main
from tests.metrics.runfiles.reference import generate, qrels_bytes, run_bytes, trec_eval_text, truncated

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
        ([QRELS, RUNS[0], "--max-mb", "0.0001"], "the limit is"),
    ],
)
def test_bad_files_exit_1_with_a_message(args, message, capsys):
    assert main(args) == 1
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--k", "0"], "argument --k: must be a whole number >= 1, got '0'"),
        (["--log-base", "1"], "argument --log-base: must be a finite number > 0 and != 1, got '1'"),
        (["--digits", "-3"], "argument --digits: must be a whole number between 0 and 17, got '-3'"),
        (["--digits", "x"], "argument --digits: must be a whole number between 0 and 17, got 'x'"),
        (["-M", "0"], "argument -M/--Max_retrieved_per_topic: must be a whole number >= 1, got '0'"),
        (["-l", "-1"], "argument -l/--level_for_rel: must be a whole number >= 0, got '-1'"),
        (["-l", "①"], "argument -l/--level_for_rel: must be a whole number >= 0, got '①'"),
        (["-N", "1e3"], "argument -N/--Number_docs_in_coll: must be a whole number >= 0, got '1e3'"),
        (["-m", "bogus"], "argument -m/--measure: unknown measure 'bogus'"),
        (["-m", "P_5"], "(did you mean 'P.5'?)"),
        (["-m", "P.5,x"], "argument -m/--measure: measure 'P.5,x': cutoff 'x' is not a whole number >= 1"),
        (["-m", "P.5,5"], "cutoff 5 is given twice"),
        (["-m", "ndcg.1=x"], "measure 'ndcg.1=x': gain 'x'"),
        (["-m", "rbp.p=1.5"], "persistence p=1.5 must be between 0 and 1"),
        (["-m", "utility.1,2"], "utility takes 4 parameter(s), got 2"),
        (["-m", "map."], "nothing after the '.'"),
        (["--max-mb", "-1"], "argument --max-mb: must be a finite number > 0, got '-1'"),
        (["--confidence", "nan"], "argument --confidence: must be a finite number > 0, got 'nan'"),
        (["--compare", "P_10"], "argument --compare: comparing needs two runs or more, got 1"),
        (["--gain", "cubic"], "invalid choice: 'cubic'"),
    ],
)
def test_bad_options_exit_2_naming_option_and_value(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main([QRELS, RUNS[0], *args])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_options_from_the_shell_give_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "metrics.runfiles", "--digits", "-3", QRELS, RUNS[0]], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "argument --digits" in proc.stderr and "'-3'" in proc.stderr


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


# ------------------------------------------------------------------------------------------ trec_eval's form
def _files(tmp_path, qrels: dict, run: dict, *, tag="tag", name="run.txt"):
    q, r = tmp_path / "qrels.txt", tmp_path / name
    q.write_bytes(qrels_bytes(qrels))
    r.write_bytes(run_bytes(run, tag))
    return str(q), str(r)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("options, flags", [
    ({}, []),
    ({"judged_only": True}, ["-J"]),
    ({"relevance_level": 2}, ["-l", "2"]),
    ({"complete": True}, ["-c"]),
])
def test_q_all_trec_prints_what_trec_eval_prints(seed, options, flags, tmp_path, capsys):
    """`trec_eval -q -m all_trec qrels run` replaced by the evaluator: the outputs diff to nothing."""
    qrels, run = generate(seed, ties=seed != 1)
    q, r = _files(tmp_path, qrels, run)
    assert main(["-q", "-m", "all_trec", *flags, q, r]) == 0
    got = capsys.readouterr().out.rstrip("\n")
    want = trec_eval_text(qrels, run, ["all_trec"], **options)
    assert got.splitlines() == want.splitlines()


def test_default_measures_are_trec_eval_official_and_n_drops_the_summary(tmp_path, capsys):
    qrels, run = generate(3)
    q, r = _files(tmp_path, qrels, run, tag="my_run")
    assert main([q, r]) == 0
    out = capsys.readouterr().out
    assert out.rstrip("\n").splitlines() == trec_eval_text(qrels, run, ["official"], per_query=False,
                                                         tag="my_run").splitlines()
    assert main(["-q", "-n", "-m", "P.5", "-mmap", q, r]) == 0  # -mmap: an attached value, as getopt allows
    lines = capsys.readouterr().out.splitlines()
    assert lines and all("\tall\t" not in ln for ln in lines)
    assert {ln.split("\t")[0].strip() for ln in lines} == {"map", "P_5"}


def test_max_docs_is_the_run_cut_to_n_documents(tmp_path, capsys):
    qrels, run = generate(4)
    q, r = _files(tmp_path, qrels, run)
    assert main(["-q", "-M", "5", "-m", "all_trec", q, r]) == 0
    got = capsys.readouterr().out.rstrip("\n").splitlines()
    assert got == trec_eval_text(qrels, truncated(qrels, run, 5), ["all_trec"]).splitlines()


def test_comments_extra_columns_and_standard_input(tmp_path, capsys, monkeypatch):
    import io

    qrels, run = generate(5)
    q, r = _files(tmp_path, qrels, run)
    want = trec_eval_text(qrels, run, ["ndcg_cut.5", "map"])
    text = "# ir_metadata:\n#   tag: tag\n" + "".join(ln + " extra more\n" for ln in Path(r).read_text().splitlines())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["-q", "-m", "ndcg_cut.5", "-m", "map", q, "-"]) == 0
    assert capsys.readouterr().out.rstrip("\n").splitlines() == want.splitlines()


def test_negative_grades_give_a_warning_not_a_traceback(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 a -1\n1 0 b 2\n1 0 c 1\n")
    r.write_text("1 Q0 a 1 3 x\n1 Q0 b 2 2 x\n1 Q0 c 3 1 x\n")
    for extra in ([], ["--variants"]):
        proc = subprocess.run([sys.executable, "-m", "metrics.runfiles", *extra, str(q), str(r)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr
        assert "warning: q.txt: 1 negative grade(s), first at line 1" in proc.stderr


def test_huge_grades_give_a_clear_message_and_no_numpy_warning(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 a 1100\n1 0 b 1\n2 0 a 2\n")
    r.write_text("1 Q0 b 1 2 x\n1 Q0 a 2 1 x\n2 Q0 a 1 2 x\n")
    proc = subprocess.run([sys.executable, "-W", "error", "-m", "metrics.runfiles", str(q), str(r), "--gain",
                           "exponential"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "RuntimeWarning" not in proc.stderr and "Traceback" not in proc.stderr
    assert "grade 1100 at line 1 is too large for the exponential gain" in proc.stderr
    assert "n/a for 1 quer(ies) (e.g. '1')" in proc.stderr
    # trec_eval's own measures use the grade itself: no problem there
    proc = subprocess.run([sys.executable, "-m", "metrics.runfiles", "-m", "ndcg", str(q), str(r)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("ndcg")


def test_csv_cells_are_neutralised_and_numbers_stay_numbers(tmp_path, capsys):
    q, r = tmp_path / "q.txt", tmp_path / "=cmd.run"
    q.write_text("=HYPERLINK(1) 0 a 1\n@SUM(1) 0 b 1\n")
    r.write_text("=HYPERLINK(1) Q0 a 1 2 x\n@SUM(1) Q0 c 1 2 x\n")
    out = tmp_path / "out.csv"
    assert main(["-q", "-m", "P.1", str(q), str(r), "--csv", str(out)]) == 0
    rows = out.read_text().splitlines()
    assert rows[0] == '"run","measure","qid","value"'
    assert '"\'=cmd.run","P_1","\'=HYPERLINK(1)",1.0' in rows
    assert '"\'=cmd.run","P_1","\'@SUM(1)",0.0' in rows
    assert '"\'=cmd.run","P_1","all",0.5' in rows
    out2 = tmp_path / "variants.csv"
    assert main([str(q), str(r), *ONE, "--csv", str(out2)]) == 0
    assert "\"'=HYPERLINK(1)\"" in out2.read_text()


def test_compare_runs_with_paired_tests(tmp_path, capsys):
    from metrics import significance

    assert main(["-q", "-m", "map", *RUNS[:0], QRELS, *RUNS, "--compare", "map", "--test", "t",
                 "--correction", "bonferroni", "--resamples", "2000"]) == 0
    out = capsys.readouterr().out
    assert "Paired t tests on map over 6 queries" in out and "bonferroni correction" in out
    per = evaluate_measures(read_qrels(QRELS), [read_run(p) for p in RUNS], ["map"])
    table = per[per.qid != "all"].pivot(index="qid", columns="run", values="value")
    pairs = significance.all_pairs(table[[Path(p).name for p in RUNS]], test="t", correction="bonferroni",
                                   n_resamples=2000)
    for row in pairs.itertuples():
        line = next(ln for ln in out.splitlines() if ln.startswith(f"{row.system_a} ") and f" {row.system_b} " in ln)
        assert f"{row.mean_difference:+.4f}" in line and f"{row.p_value:.4g}" in line
    # a measure not asked for with -m is added; variants compare on a variant label
    assert main([QRELS, *RUNS, "--compare", "ndcg_cut_10"]) == 0
    assert "tests on ndcg_cut_10" in capsys.readouterr().out
    assert main([QRELS, *RUNS, "--variants", "--compare", "linear/standard/judged/trec_eval"]) == 0
    assert "tests on linear/standard/judged/trec_eval" in capsys.readouterr().out


def test_help_names_every_difference_between_trec_eval_9_and_10(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for needle in ("trec_eval 9.0.8", "'#' lines", "-c ", "lround", "rbp_resid", "atol", "judged", "err",
                   "m_ndcg_cut.c", "Chapelle"):
        assert needle in out, needle
