"""Which convention?: an NDCG printed ×100 without its % sign (as papers' tables print it) is recognised.

The typed numbers are made here from first principles: each common convention's NDCG is computed by the
formula written out below (gains, discounts, ideal ranking, cutoff — not through metrics.ndcg, the matcher
or convention_value), multiplied by 100 and written as text, rounded or cut off at a random number of
decimals, by Decimal and string operations.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from itertools import product

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from metrics.lessons.libraries import COMMON_CONVENTIONS, DIMENSIONS, LIBRARIES
from metrics.lessons.match import (
    WRITINGS,
    match_number,
    match_number_naive,
    read_value,
    unsigned_percent,
    written_as,
)
from tests.conftest import examples
from ui.i18n import t
from ui.pages import match as match_view

#: Each common convention written out: gain of a grade, discount of position i (1-based), ideal from the list
#: or from every judged item.  The conventions table's names say the same (test below).
FORMULAS = {
    "textbook": (lambda g: g, lambda i: math.log2(i + 1), "list"),
    "exponential": (lambda g: 2.0 ** g - 1, lambda i: math.log2(i + 1), "list"),
    "trec_eval": (lambda g: g, lambda i: math.log2(i + 1), "judged"),
    "exponential_judged": (lambda g: 2.0 ** g - 1, lambda i: math.log2(i + 1), "judged"),
    "jarvelin": (lambda g: g, lambda i: max(1.0, math.log2(i)), "list"),
    "binary": (lambda g: 1.0 if g > 0 else 0.0, lambda i: math.log2(i + 1), "judged"),
    "binary_list": (lambda g: 1.0 if g > 0 else 0.0, lambda i: math.log2(i + 1), "list"),
}


def first_principles_ndcg(key: str, rel: list[int], extra: list[int], k: int | None) -> float:
    """DCG of the list over DCG of the ideal ranking, both cut at k; 0 when the ideal DCG is 0."""
    gain, discount, ideal_from = FORMULAS[key]
    cut = len(rel) if k is None else min(k, len(rel))
    dcg = sum(gain(g) / discount(i) for i, g in enumerate(rel[:cut], start=1))
    items = rel if ideal_from == "list" else rel + extra
    ideal = sorted((gain(g) for g in items), reverse=True)
    ideal = ideal[:len(ideal) if k is None else k]
    idcg = sum(x / discount(i) for i, x in enumerate(ideal, start=1))
    return dcg / idcg if idcg > 0 else 0.0


def hundred_written(x: float, p: int, how: str) -> str:
    """x ×100 written with p decimals, rounded (half up) or cut off, without a % sign."""
    d = Decimal(repr(x)).scaleb(2)
    if how == "round":
        return format(d.quantize(Decimal(1).scaleb(-p), rounding=ROUND_HALF_UP), "f")
    whole, _, frac = f"{d:.17f}".partition(".")
    return whole if p == 0 else f"{whole}.{frac[:p]}"


def test_the_conventions_written_out_are_the_tables():
    # the formulas above stand for the conventions the table names (gain, discount and ideal in its settings)
    gains = {"textbook": "linear", "exponential": "exponential", "trec_eval": "linear",
             "exponential_judged": "exponential", "jarvelin": "linear", "binary": "binary", "binary_list": "binary"}
    assert set(FORMULAS) == set(COMMON_CONVENTIONS)
    for key, (_, _, ideal) in FORMULAS.items():
        s = COMMON_CONVENTIONS[key].convention.settings()
        assert (s["gain"], s["idcg"], s["cutoff"], s["quantity"]) == (gains[key], ideal, "both", "ndcg"), key
        assert s["discount"] == ("jarvelin" if key == "jarvelin" else "standard") and s["log_base"] == 2.0


# ---- hand-derived ---------------------------------------------------------------------------------------

POOL = [3, 2, 3, 0, 1, 2, 3, 0]


def test_the_testers_81_84_is_trec_eval_times_100():
    # 3, 2, 3, 0, 1, 2 with 3, 0 judged but not retrieved, k = 6 (the page's default), linear gain:
    # DCG = 3 + 2/log2 3 + 3/2 + 0 + 1/log2 6 + 2/log2 7 = 3 + 1.26186 + 1.5 + 0.38685 + 0.71241 = 6.86112;
    # ideal (3, 3, 3, 2, 2, 1) = 3 + 1.89279 + 1.5 + 0.86135 + 0.77371 + 0.35621 = 8.38406; 0.818354 -> 81.84
    r = match_number("81.84", [3, 2, 3, 0, 1, 2], pool=POOL, k=6)
    first = r.explanations[0]
    assert (first.conventions, first.quantity, first.times_100) == (("trec_eval",), "ndcg", True)
    assert (first.writing, first.decimals, first.shown) == ("rounded", 2, "0.8184")
    assert first.value == pytest.approx(6.86112 / 8.38406, abs=1e-5)
    assert {"trec_eval_ndcg_cut", "ranx_ndcg"} <= set(r.library_keys)
    assert all(m.times_100 for m in r.libraries)
    # every other library is a near miss named by the setting it differs in, not "percent and fraction"
    sk = r.near_miss("sklearn")
    assert (sk.dimension, sk.theirs) == ("idcg", "list")
    assert r.matches and all(m.times_100 for m in r.matches)
    sentence = match_view.explanation_sentence(first, r.target, 4)
    assert sentence.startswith("81.84 is 0.818354 ×100 = 81.8354, rounded at 2 decimals and written without the % "
                               "sign"), sentence


def test_the_percent_sign_keeps_working_as_before():
    # 81.84% is the same fraction, said as a percent: the same libraries and settings, nothing ×100
    signed = match_number("81.84%", [3, 2, 3, 0, 1, 2], pool=POOL, k=6)
    fraction = match_number("0.8184", [3, 2, 3, 0, 1, 2], pool=POOL, k=6)
    unsigned = match_number("81.84", [3, 2, 3, 0, 1, 2], pool=POOL, k=6)
    assert signed.library_keys == fraction.library_keys == unsigned.library_keys
    assert [m.settings for m in signed.matches] == [m.settings for m in fraction.matches]
    assert [m.settings for m in unsigned.matches] == [m.settings for m in fraction.matches]
    assert not any(m.times_100 for m in signed.libraries + signed.matches)
    e = signed.explanations[0]
    assert (e.conventions, e.writing, e.decimals, e.times_100) == (("trec_eval",), "rounded", 2, False)
    assert "81.84%" in match_view.explanation_sentence(e, signed.target, 6)


def test_a_dcg_is_never_read_times_100():
    # 3, 2, 3 with 2^rel - 1: 7 + 3/log2 3 + 7/2 = 12.3928 (Elasticsearch's DCG): 12.39 is that DCG as written
    r = match_number("12.39", [3, 2, 3])
    assert "elasticsearch_dcg" in r.library_keys
    es = next(m for m in r.libraries if m.key == "elasticsearch_dcg")
    assert not es.times_100
    assert all(not m.times_100 for m in r.matches if m.settings["quantity"] == ("dcg",))
    # written_as says ×100 only when told the value is an NDCG
    assert written_as("12.39", 0.1239) is None
    assert written_as("12.39", 0.1239, ndcg=True).times_100


@pytest.mark.parametrize("typed, expected", [
    ("81.84", (0.8184, 2, 4)), ("1.5", (0.015, 1, 3)), ("100", (1.0, 0, 2)), ("８１.８", (0.818, 1, 3)),
    ("1", None), ("0.5", None), ("100.01", None), ("-50", None), ("81.84%", None), ("130", None),
])
def test_which_numbers_may_be_times_100(typed, expected):
    h = unsigned_percent(typed)
    if expected is None:
        assert h is None
    else:
        assert (h.value, h.decimals, h.scale) == pytest.approx(expected)
        assert h.percent and h.text == read_value(typed).text


def test_decimals_are_counted_as_written():
    # 91 for 3, 2, 1, 3, 2: the Järvelin form's 0.919450 ×100 = 91.945 cut off at 0 decimals (rounded: 92)
    r = match_number("91", [3, 2, 1, 3, 2])
    first = r.explanations[0]
    assert (first.conventions, first.writing, first.decimals, first.times_100) == (("jarvelin",), "truncated", 0,
                                                                                    True)
    assert "rounded: 92)" in match_view.explanation_sentence(first, r.target, 4)
    # 91% (with its sign) is the same story, 0 decimals as written (it was 2, the fraction's)
    e = match_number("91%", [3, 2, 1, 3, 2]).explanations[0]
    assert (e.writing, e.decimals, e.times_100) == ("truncated", 0, False)
    # the precision line: "81.8% has 1 decimal (0.818 as a fraction)"
    assert match_view.precision_sentences(read_value("81.8%"), )[0].startswith(
        "81.8% has 1 decimal (0.818 as a fraction)")


@pytest.mark.parametrize("typed, fraction, lo, hi", [
    # the typed digits / 100, by hand: 15 decimals (the most read), no binary noise in the last one
    ("81.840000000000001", "0.81840000000000001", "0.818400000000000005", "0.818400000000000015"),
    ("１００", "1.00", "0.995", "1.005"), ("1e2", "1.00", "0.995", "1.005"), ("1.5", "0.015", "0.0145", "0.0155"),
])
def test_the_times_100_window_is_the_typed_digits(typed, fraction, lo, hi):
    line = match_view.precision_sentences(read_value(typed))[-1]
    assert line == t("match.precision_times_100", lang="en", fraction=fraction, lo=lo, hi=hi)
    r = match_number(typed, [3, 2, 3, 0, 1, 2], pool=POOL, k=6)  # answered, whatever it finds
    assert r.target.text and all(math.isfinite(e.value) for e in r.explanations)


def test_times_100_is_in_the_writings_table_second():
    assert list(WRITINGS)[:2] == ["rounded", "times_100"]
    assert any("×100" in line for line in match_view.order_reasons())


# ---- properties -----------------------------------------------------------------------------------------

case = st.tuples(
    st.lists(st.integers(0, 3), min_size=2, max_size=7),
    st.lists(st.integers(0, 3), max_size=3),
    st.one_of(st.none(), st.integers(1, 6)),
    st.sampled_from(list(COMMON_CONVENTIONS)),
    st.integers(0, 4),
    st.sampled_from(["round", "cut"]),
)


@settings(deadline=None, max_examples=examples(80), suppress_health_check=[HealthCheck.too_slow])
@given(case)
def test_an_ndcg_written_times_100_is_named_first_for_its_convention(c):
    rel, extra, k, key, p, how = c
    x = first_principles_ndcg(key, rel, extra, k)
    typed = hundred_written(x, p, how)
    assume(1 < float(typed) <= 100)
    r = match_number(typed, rel, pool=rel + extra if extra else None, k=k)
    mine = [e for e in r.explanations if key in e.conventions and e.quantity == "ndcg"]
    assert mine, (typed, key)
    e = mine[0]
    assert e.times_100 and e.value == pytest.approx(x, abs=1e-12), (typed, e)
    used = {"round": "rounded", "cut": "truncated"}[how]
    # the writing found is at least as likely as the one used (a cut-off number may also be the rounded one)
    assert list(WRITINGS).index(e.writing) <= list(WRITINGS).index(used), (typed, e)
    if e.writing in ("rounded", "truncated"):
        assert e.decimals == p
    # the Most likely list says it (English here; the pages' tests take every language): the typed number as
    # typed, ×100, without the sign
    sentence = match_view.explanation_sentence(e, r.target, max(r.target.scale + 2, 4))
    assert sentence.startswith(f"{typed} is ") and "×100" in sentence and "without the % sign" in sentence, sentence
    # every library of that convention gives it ×100 too (a library is a convention)
    for m in r.libraries:
        if LIBRARIES[m.key].convention.settings() == COMMON_CONVENTIONS[key].convention.settings():
            assert m.times_100


def expand(result) -> set[tuple]:
    out = set()
    for m in result.matches:
        lists = [result.candidates[d] if m.settings[d] is None else m.settings[d] for d in DIMENSIONS]
        out.update((*combo, m.times_100) for combo in product(*lists))
    return out


@settings(deadline=None, max_examples=examples(10), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 3), min_size=1, max_size=4), st.one_of(st.none(), st.integers(1, 4)),
       st.sampled_from(list(COMMON_CONVENTIONS)), st.integers(0, 3))
def test_the_engine_finds_what_the_naive_loop_finds_times_100(rel, k, key, p):
    typed = hundred_written(first_principles_ndcg(key, rel, [], k), p, "round")
    assume(1 < float(typed) <= 100)
    fast = match_number(typed, rel, k=k)
    naive = match_number_naive(typed, rel, k=k)
    assert any(d["times_100"] for d in naive)
    assert expand(fast) == {(*(d[x] for x in DIMENSIONS), d["times_100"]) for d in naive}
