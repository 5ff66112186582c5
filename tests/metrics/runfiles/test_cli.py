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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
        (["--k", "0"], "argument --k: must be a whole number between 1 and 10^12, got '0'"),
        (["--log-base", "1"], "argument --log-base: must be a finite number > 0 and != 1, got '1'"),
        (["--log-base", "١٠"], "argument --log-base: must be a finite number > 0 and != 1, got '١٠'"),
        (["--digits", "-3"], "argument --digits: must be a whole number between 0 and 17, got '-3'"),
        (["--digits", "x"], "argument --digits: must be a whole number between 0 and 17, got 'x'"),
        (["--digits", "4.0"], "argument --digits: must be a whole number between 0 and 17, got '4.0'"),
        (["-M", "0"], "argument -M/--Max_retrieved_per_topic: must be a whole number between 1 and 10^15, got '0'"),
        (["-M", str(2**63)], "argument -M/--Max_retrieved_per_topic: must be a whole number between 1 and 10^15, "
                             "got '9223372036854775808'"),
        (["-l", "-1"], "argument -l/--level_for_rel: must be a whole number between 0 and 10^15, got '-1'"),
        (["-l", "①"], "argument -l/--level_for_rel: must be a whole number between 0 and 10^15, got '①'"),
        (["-l", ""], "argument -l/--level_for_rel: must be a whole number between 0 and 10^15, got ''"),
        (["-N", "1e3"], "argument -N/--Number_docs_in_coll: must be a whole number between 0 and 10^15, got '1e3'"),
        (["-m", "bogus"], "argument -m/--measure: 'bogus': unknown measure 'bogus'"),
        (["-m", "P_5"], "(did you mean 'P.5'?)"),
        (["-m", "P.5,x"], "argument -m/--measure: 'P.5,x': measure 'P.5,x': cutoff 'x' is not a whole number >= 1"),
        (["-m", "P.5,5"], "cutoff 5 is given twice"),
        (["-m", "ndcg.1=x"], "measure 'ndcg.1=x': gain 'x'"),
        (["-m", "rbp.p=1.5"], "persistence p=1.5 must be between 0 and 1"),
        (["-m", "utility.1,2"], "utility takes 4 parameter(s), got 2"),
        (["-m", "map."], "nothing after the '.'"),
        (["-m", "relstring.1e308"], "'relstring.1e308': measure 'relstring.1e308': parameter 1e308 must be between 0"),
        (["-m", "nDCG(ties=sideways)@10"], "unknown ties 'sideways'"),
        (["--max-mb", "-1"], "argument --max-mb: must be a finite number > 0 and <= 10^7, got '-1'"),
        (["--max-mb", "1e308"], "argument --max-mb: must be a finite number > 0 and <= 10^7, got '1e308'"),
        (["--confidence", "nan"], "argument --confidence: must be a number between 0 and 1 (exclusive) whose "
                                  "significance level 1 - confidence, at 12 decimals, is above 0 and below 1, e.g. "
                                  "0.95, got 'nan'"),
        (["--confidence", "95"], "argument --confidence: must be a number between 0 and 1 (exclusive) whose "
                                 "significance level 1 - confidence, at 12 decimals, is above 0 and below 1, e.g. "
                                 "0.95, got '95'"),
        # issue 38: both were accepted, 62 lines printed, then refused naming n_resamples / alpha ("got 1.0")
        (["--compare", "map", RUNS[1], "--confidence", "5e-324"], "argument --confidence: must be a number between 0 "
         "and 1 (exclusive) whose significance level 1 - confidence, at 12 decimals, is above 0 and below 1, e.g. "
         "0.95, got '5e-324'"),
        (["--compare", "map", RUNS[1], "--resamples", "5000000"],
         "argument --resamples: must be a whole number between 1 and 10^6, got '5000000'"),
        (["--resamples", "1e4"], "argument --resamples: must be a whole number between 1 and 10^6, got '1e4'"),
        (["--seed", str(2**32)], "argument --seed: must be a whole number between 0 and 4294967295, got '4294967296'"),
        (["--err-gmax", "inf"], "argument --err-gmax: must be a finite number >= 0, got 'inf'"),
        (["--compare", "P_10"], "argument --compare: comparing 'P_10' needs two runs or more, got 1"),
        (["--gain", "cubic"], "invalid choice: 'cubic'"),
        (["--csv", "/nonexistent-folder/out.csv"],
         "argument --csv: cannot write a file at '/nonexistent-folder/out.csv'"),
        (["--csv", "/"], "argument --csv: cannot write a file at '/'"),
        (["--variants", "-M", "5"], "argument -M/--Max_retrieved_per_topic: '5' is one of trec_eval's options"),
        (["--k", "5", "-m", "map"], "argument -m/--measure: 'map' is one of trec_eval's options"),
        (["--gain", "linear", "-q"], "argument -q/--query_eval_wanted: is one of trec_eval's options"),
    ],
)
def test_bad_options_exit_2_naming_option_and_value(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main([QRELS, RUNS[0], *args])
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.out == ""  # refused before anything is printed


@pytest.mark.parametrize("args, message", [
    (["--compare", "gm_map"], "argument --compare: 'gm_map' has no per-query values"),
    (["--compare", "relstring"], "argument --compare: 'relstring' has no per-query values"),
    (["--compare", "Px"], "argument --compare: 'Px' is not a measure name"),
    (["--compare", "P_x"], "argument --compare: 'P_x' is not a measure name such as map, P_10 or ndcg_cut_10 "
                           "(measure 'P.x': cutoff 'x'"),
    (["--variants", "--compare", "map"], "argument --compare: 'map' is not one of the variants evaluated"),
    (["--gain", "linear", "--compare", "exponential/standard/judged/trec_eval"],
     "'exponential/standard/judged/trec_eval' is not one of the variants evaluated"),
])
def test_compare_is_checked_before_anything_is_read_or_printed(args, message, capsys, monkeypatch):
    import metrics.runfiles.cli as cli

    monkeypatch.setattr(cli, "read_files", lambda *a, **k: pytest.fail("a file was read before the check"))
    with pytest.raises(SystemExit) as exc:
        main([QRELS, *RUNS[:2], *args])
    captured = capsys.readouterr()
    assert exc.value.code == 2 and message in captured.err and captured.out == ""


def test_a_paired_test_on_one_common_query_says_so_in_words(tmp_path, capsys):
    q, a, b = tmp_path / "qrels", tmp_path / "a", tmp_path / "b"
    q.write_bytes(b"q1 0 d1 1\nq2 0 d1 1\n")
    a.write_bytes(b"q1 Q0 d1 1 1 a\nq2 Q0 d1 1 1 a\n")
    b.write_bytes(b"q1 Q0 d2 1 1 b\n")
    assert main(["-m", "map", "--compare", "map", str(q), str(a), str(b)]) == 1
    err = capsys.readouterr().err
    assert "error: --compare map: a paired test needs at least 2 queries answered by every run; 1 here" in err
    assert "query row" not in err and "per_query" not in err


def test_compressed_and_binary_files_are_named(tmp_path, capsys):
    import gzip
    import zipfile

    gz = tmp_path / "bm25.run.gz"
    gz.write_bytes(gzip.compress(Path(RUNS[0]).read_bytes()))
    assert main([QRELS, str(gz)]) == 1
    err = capsys.readouterr().err
    assert "bm25.run.gz is a gzip file, not text: decompress it first (gunzip -k FILE" in err
    assert "UTF-8" not in err and "Traceback" not in err
    zipped = tmp_path / "qrels.zip"
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("qrels.txt", Path(QRELS).read_text() * 50)
    assert main([str(zipped), RUNS[0]]) == 1
    assert "qrels.zip is a ZIP (or Excel/Office) file, not text" in capsys.readouterr().err


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


# ------------------------------------------------------------------------------------------ every option, fuzzed
def _options():
    """Every optional argument of the command line (not --help / --version), by its longest spelling."""
    from metrics.runfiles.cli import _parser

    out = []
    for action in _parser()._actions:
        if action.option_strings and action.dest not in ("help", "version"):
            out.append((max(action.option_strings, key=len), tuple(action.option_strings)))
    return out


OPTIONS = _options()
#: What every option meets: huge, negative, non-ASCII, empty, a float for an int, and text.
HOSTILE = ["", " ", "-1", "0", "1.5", "2.0", "1e3", "1e308", "-1e308", "1e-320", "nan", "inf", "-inf",
           str(2**63), str(2**64), "9" * 40, "-" + "9" * 30, "１２", "٣", "①", "0x10", "1_000", "+5", "a\nb", "\x00",
           "é", "P_10", "map", "linear", "'; rm -rf /", "<b>x</b>", "=1", "--k"]


def _tiny(tmp_path) -> list[str]:
    q, a, b = tmp_path / "qrels", tmp_path / "a.run", tmp_path / "b.run"
    q.write_bytes(b"q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\n")
    a.write_bytes(b"q1 Q0 d1 1 2 a\nq1 Q0 d2 2 1 a\nq2 Q0 d3 1 1 a\n")
    b.write_bytes(b"q1 Q0 d2 1 2 b\nq2 Q0 d1 1 1 b\n")
    return [str(q), str(a), str(b)]


def _one_value(option: str, names: tuple, value: str, files: list[str], capsys) -> None:
    """Refused: exit 2, the option and the value as typed named, nothing on stdout.  Accepted: exit 0 or 1.
    Never a traceback."""
    from metrics.runfiles.cli import _typed

    try:
        code = main([f"{option}={value}", *files])
    except SystemExit as exc:
        captured = capsys.readouterr()
        assert exc.code == 2, (option, value, captured.err)
        assert captured.out == "", (option, value)
        assert any(name in captured.err for name in names), (option, value, captured.err)
        assert repr(value) in captured.err or _typed(value) in captured.err, (option, value, captured.err)
    else:
        captured = capsys.readouterr()
        assert code in (0, 1), (option, value)
    assert "Traceback" not in captured.err


@pytest.mark.parametrize("option, names", OPTIONS, ids=[o for o, _ in OPTIONS])
def test_every_option_refuses_hostile_values_by_name(option, names, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a --csv value that is a valid name writes here
    files = _tiny(tmp_path)
    for value in HOSTILE:
        _one_value(option, names, value, files, capsys)


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(OPTIONS),
       value=st.one_of(st.integers(min_value=-(2**80), max_value=2**80).map(str), st.floats().map(repr),
                       st.text(max_size=40), st.sampled_from(HOSTILE)))
def test_fuzz_any_option_any_value(option, value, tmp_path_factory, capsys, monkeypatch):
    tmp = tmp_path_factory.mktemp("fuzz")
    monkeypatch.chdir(tmp)
    _one_value(option[0], option[1], value, _tiny(tmp), capsys)
