"""Every numeric command-line option × bad values, as a user types them, in every mode (issue 38 item 4).

The model below is written from the help text (what each option says it takes), not from cli.py: for each
option its kind (whole number or decimal), its bounds and the modes it belongs to.  Bad values come from
that model and from what people type by mistake: words, nan/inf, an empty value, other scripts' digits
(Arabic-Indic, circled, full-width), ``1_000`` and ``0x10``, exponents, negatives, values just past the
bounds, huge ones, and 5e-324 (the smallest float: above 0, but 1 - 5e-324 is 1, so no significance level).
Each is refused before anything is printed: nothing on stdout, exit status 2, standard error naming the
option as typed and the value as typed.  The whole table runs through ``main`` in this process (argparse
exits with status 2); a sample of it, every bad value at least once, through ``python -m metrics.runfiles``
in a subprocess, as a user runs it.
"""
from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from metrics.runfiles.cli import main

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"
QRELS = str(SAMPLES / "qrels.txt")
RUN_A, RUN_B = str(SAMPLES / "bm25.run"), str(SAMPLES / "dense.run")

#: The modes a user runs: trec_eval's output, with --compare, the variants table, the variants with --compare.
MODES = {
    "trec": [QRELS, RUN_A],
    "trec+compare": [QRELS, RUN_A, RUN_B, "--compare", "map"],
    "variants": [QRELS, RUN_A, "--variants"],
    "variants+compare": [QRELS, RUN_A, RUN_B, "--variants", "--gain", "linear", "--discount", "standard",
                         "--idcg", "judged", "--ties", "trec_eval", "--compare",
                         "linear/standard/judged/trec_eval"],
}
TREC, VARIANTS, EVERY = ("trec", "trec+compare"), ("variants", "variants+compare"), tuple(MODES)


@dataclass(frozen=True)
class Option:
    flag: str  # as a user types it
    whole: bool  # a whole number (else any decimal)
    lo: float | None  # the smallest accepted value (None: no bound)
    hi: float | None  # the largest accepted value
    lo_open: bool = False  # lo itself is refused (> lo)
    modes: tuple = EVERY


#: From ``python -m metrics.runfiles --help`` and the README: what each option takes.
OPTIONS = [
    Option("-l", True, 0, 10**15, modes=TREC),
    Option("-M", True, 1, 10**15, modes=TREC),
    Option("-N", True, 0, 10**15, modes=TREC),
    Option("--err-gmax", False, 0, None, modes=TREC),
    Option("--k", True, 1, 10**12, modes=VARIANTS),
    Option("--relevance-level", False, None, None, modes=VARIANTS),
    Option("--log-base", False, 0, None, lo_open=True, modes=VARIANTS),  # and != 1
    Option("--confidence", False, 0, 1, lo_open=True),  # and < 1, and 1 - confidence neither 0 nor 1
    Option("--resamples", True, 1, 10**6),
    Option("--seed", True, 0, 2**32 - 1),
    Option("--max-mb", False, 0, 10**7, lo_open=True),
    Option("--max-rows", True, 1, 10**15),
    Option("--max-ratio", False, 1, 1e9),
    Option("--digits", True, 0, 17),
]

#: Not numbers in the one grammar (ASCII digits; no nan/inf, separators, other scripts, hex).
NOT_NUMBERS = ["x", "nan", "NaN", "inf", "-inf", "Infinity", "", " ", "١٠", "①", "１", "٣", "1_000", "0x10",
               "1,5", "½", "1e99999", "--", "1e400"]


def bad_values(o: Option) -> list[str]:
    out = list(NOT_NUMBERS)
    if o.whole:
        out += ["1.5", "1e3", "5e-324", "2.0"]
    if o.lo is not None:
        out.append(str(o.lo) if o.lo_open else ("-1" if o.lo == 0 else str(int(o.lo) - 1) if o.whole else "0.5"))
        out.append("-1e300")
    if o.hi is not None:
        out.append(str(int(o.hi) + 1) if o.whole else repr(float(o.hi) * 10))
        out.append("9" * 40)
    if o.flag == "--confidence":
        out += ["5e-324", "0.9999999999999", "95", "1"]  # 1 - confidence at 12 decimals: 1, 0, < 0, 0
    if o.flag == "--log-base":
        out += ["1", "1.0", "-2"]
    return list(dict.fromkeys(out))


CASES = [(o.flag, value, mode) for o in OPTIONS for value in bad_values(o) for mode in o.modes]


def typed(value: str) -> str:
    """The value as the message quotes it (cut at 40 characters)."""
    return repr(value) if len(value) <= 40 else repr(value[:40]) + "..."


def assert_refused(code, out: str, err: str, flag: str, value: str) -> None:
    assert code == 2, err
    assert out == "", f"printed before refusing: {out[:200]!r}"
    line = [ln for ln in err.splitlines() if "error:" in ln]
    assert line, err
    assert f"argument {flag}" in line[-1] or f"/{flag}:" in line[-1], line[-1]
    assert typed(value) in line[-1], line[-1]
    assert "Traceback" not in err


@pytest.mark.parametrize("flag, value, mode", CASES)
def test_every_option_refuses_bad_values_before_printing(flag, value, mode, capsys):
    with pytest.raises(SystemExit) as exc:
        main([*MODES[mode], f"{flag}={value}" if value.startswith("-") else flag,
              *([] if value.startswith("-") else [value])])
    captured = capsys.readouterr()
    assert_refused(exc.value.code, captured.out, captured.err, flag, value)


def test_every_mode_and_option_and_bad_value_is_in_the_table():
    assert {m for _, _, m in CASES} == set(MODES)
    assert {f for f, _, _ in CASES} == {o.flag for o in OPTIONS}
    assert len(CASES) > 500


#: The subprocess sample: every bad value of the table typed once into the real program, by options taken in
#: turn among those it is bad for, and every option at least twice; each in its busiest mode (--compare).
def _sample() -> list[tuple[str, str, str]]:
    def mode(o: Option) -> str:
        return "trec+compare" if "trec+compare" in o.modes else "variants+compare"

    out: list[tuple[str, str, str]] = []
    values = list(dict.fromkeys(v for o in OPTIONS for v in bad_values(o)))
    for i, v in enumerate(values):
        takers = [o for o in OPTIONS if v in bad_values(o)]
        o = takers[i % len(takers)]
        out.append((o.flag, v, mode(o)))
    for o in OPTIONS:
        have = [c for c in out if c[0] == o.flag]
        for v in bad_values(o)[::-1]:
            if len(have) >= 2:
                break
            if (o.flag, v, mode(o)) not in out:
                have.append((o.flag, v, mode(o)))
                out.append(have[-1])
    return out


SAMPLE = _sample()


def test_the_sample_types_every_bad_value_and_every_option():
    assert {v for _, v, _ in SAMPLE} == {v for o in OPTIONS for v in bad_values(o)}
    assert all(sum(f == o.flag for f, _, _ in SAMPLE) >= 2 for o in OPTIONS)


@pytest.mark.slow  # 42 interpreters started (about 0.7 s of CPU each)
@pytest.mark.parametrize("flag, value, mode", SAMPLE)
def test_the_real_program_refuses_before_printing(flag, value, mode):
    arg = [f"{flag}={value}"] if value.startswith("-") else [flag, value]
    proc = subprocess.run([sys.executable, "-m", "metrics.runfiles", *MODES[mode], *arg], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert_refused(proc.returncode, proc.stdout, proc.stderr, flag, value)


@pytest.mark.parametrize("args", [
    ["--confidence", "0.5", "--resamples", "200", "--seed", str(2**32 - 1)],
    ["--confidence", "1e-12", "--resamples", "1"],
    ["--confidence", "0.999999999999", "--resamples", "1"],
])
def test_edge_values_the_model_accepts_are_accepted(args, capsys):
    assert main([*MODES["trec+compare"], *args, "--test", "t"]) == 0
    out = capsys.readouterr().out
    assert "Paired t tests on map" in out


def test_bounds_are_accepted_where_the_model_says(capsys):
    for args in (["-l", "0", "-M", str(10**15), "-N", str(10**15), "--err-gmax", "0", "--digits", "17",
                  "--max-rows", str(10**15), "--max-ratio", "1", "--max-mb", str(10**7)],
                 ["--variants", "--k", str(10**12), "--relevance-level", "-5", "--log-base", "5e-324",
                  "--digits", "0"]):
        assert main([QRELS, RUN_A, *args]) == 0, capsys.readouterr().err
        assert capsys.readouterr().out
