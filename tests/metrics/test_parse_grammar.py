"""One number grammar for the app's fields and links, the command line and the measure specs (issue 38 item 4).

A model of the grammar written here by hand, character by character (not a regular expression, not the code
under test): an optional sign, digits with an optional point (at least one digit), an optional exponent
``e``/``E`` with an optional sign and 1 to 5 digits; whole numbers: an optional sign and 1 to 30 digits;
ASCII only, surrounding spaces ignored.  Random text over an alphabet of what people type by mistake --
other scripts' digits, full-width digits, ``_``, ``x``, ``nan``/``inf`` letters, spaces -- must be accepted by
every entry point exactly when the model accepts it, with the same value: :func:`metrics.parse.parse_number`,
a page field (:func:`ui.state.number`, :func:`ui.state.integer`), the command line
(``python -m metrics.runfiles --relevance-level X``, run through ``main``) and an ``-m`` spec
(``nDCG(level=X)@5``).
"""
from __future__ import annotations

import contextlib
import io
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.parse import ParseError, parse_number
from metrics.runfiles.cli import main
from metrics.runfiles.measures import parse_measures
from ui import state as ui_state

ASCII_DIGITS = "0123456789"
ALPHABET = ASCII_DIGITS + "+-.eE x_nafiI" + "١٣①１²٠"


def model_decimal(text: str) -> bool:
    """The grammar of a decimal number, scanned by hand."""
    s = text.strip(" ")
    i, n = 0, len(s)
    if i < n and s[i] in "+-":
        i += 1
    digits = 0
    while i < n and s[i] in ASCII_DIGITS:
        i, digits = i + 1, digits + 1
    if i < n and s[i] == ".":
        i += 1
        while i < n and s[i] in ASCII_DIGITS:
            i, digits = i + 1, digits + 1
    if digits == 0:
        return False
    if i < n and s[i] in "eE":
        i += 1
        if i < n and s[i] in "+-":
            i += 1
        start = i
        while i < n and s[i] in ASCII_DIGITS:
            i += 1
        if not 1 <= i - start <= 5:
            return False
    return i == n


def model_whole(text: str) -> bool:
    s = text.strip(" ")
    body = s[1:] if s[:1] in ("+", "-") else s
    return 1 <= len(body) <= 30 and all(c in ASCII_DIGITS for c in body)


def accepted(text: str) -> bool:
    """Decimal by the model and finite as a float."""
    return model_decimal(text) and math.isfinite(float(text.strip(" ")))


texts = st.text(alphabet=ALPHABET, max_size=12) | st.sampled_from(
    ["5e-324", "1e400", "-0", ".5", "5.", "1e5", "1e123456", "0x10", "1_000", "nan", "inf", " 7 ", "١٠", "", " "])


@given(texts)
def test_parse_number_is_the_model(text):
    if accepted(text):
        assert parse_number(text) == float(text.strip(" "))
    else:
        with pytest.raises(ParseError):
            parse_number(text)
    if model_whole(text):
        assert parse_number(text, whole=True) == int(text.strip(" "))
    else:
        with pytest.raises(ParseError):
            parse_number(text, whole=True)


@given(texts)
def test_a_page_field_and_a_link_read_the_same(text):
    field = ui_state.number()
    if accepted(text):
        assert field(text) == float(text.strip(" "))
    else:
        with pytest.raises(ui_state.BadValue):
            field(text)
    whole = ui_state.integer(-(10**30), 10**30)
    if model_whole(text):
        assert whole(text) == int(text.strip(" "))
    else:
        with pytest.raises(ui_state.BadValue):
            whole(text)


@given(texts.filter(lambda t: "," not in t and ")" not in t))
def test_a_measure_spec_reads_the_same(text):
    spec = f"nDCG(level={text})@5"
    if accepted(text):
        (r,) = parse_measures([spec])
        assert r.params[0].level == float(text.strip(" "))
    else:
        with pytest.raises(ValueError):
            parse_measures([spec])


@given(texts)
def test_the_command_line_reads_the_same(text):
    # a missing qrels file: an accepted option gets as far as reading it (exit 1), a refused one exits 2 first
    out, errors = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(errors):
        try:
            code = main(["/nonexistent/qrels", "/nonexistent/run", f"--relevance-level={text}"])
        except SystemExit as exc:
            code = exc.code
    err = errors.getvalue()
    assert out.getvalue() == ""
    if accepted(text):
        assert code == 1, err
    else:
        assert code == 2 and "argument --relevance-level" in err, err
