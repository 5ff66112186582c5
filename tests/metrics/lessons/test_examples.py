"""The documents' worked examples: every printed number gets the right verdict, every exact value is metrics'.

Expected verdicts are derived by hand in the comments (the document's text, the exact value, and
what rounding or truncation gives); exact values are always recomputed here through metrics.ndcg.
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.lessons.examples import (
    DOCUMENTS,
    EXAMPLES,
    FORMULAS,
    ITEMS_004,
    REC_SYS_004,
    VERDICTS,
    Printed,
    code_004_ndcg,
    exact_value,
    examples_for,
    findings,
    judge,
    judge_all,
    position_table,
    printed_decimal,
    printed_places,
    recomputed_value,
)
from metrics.ndcg import dcg, idcg, ndcg
from tests.metrics.conftest import PROPERTY

# The source documents travel with the repo (copies of ../shared/seeds): no skip on a bare clone.
SEEDS = Path(__file__).resolve().parents[3] / "data" / "seeds"


def kinds(example: str) -> dict[str, tuple[str, ...]]:
    return {v.printed.key: v.kinds for v in judge_all(EXAMPLES[example])}


# ---- the data is the documents' -------------------------------------------------------------------

def test_five_documents_all_present():
    assert sorted(DOCUMENTS) == ["000", "001", "002", "003", "004"]
    for doc in DOCUMENTS:
        assert examples_for(doc)


@pytest.mark.parametrize("key", list(EXAMPLES))
def test_every_printed_number_occurs_in_its_document(key):
    """Nothing is typed in that the document does not print (whitespace-insensitive)."""
    ex = EXAMPLES[key]
    text = "".join((SEEDS / ex.source).read_text(encoding="utf-8").split())
    for p in ex.printed:
        if p.quantity == "ideal_vector":
            assert "3,3,2,2,1,1,0,0" in text.replace("*", "")
        elif p.quantity == "relevances":
            assert "{" + p.text + "}" in text
        else:
            assert p.text.rstrip("%") in text, (key, p.key, p.text)


def test_004_grades_are_looked_up_not_typed():
    assert EXAMPLES["004-recsys1"].relevances == tuple(float(ITEMS_004[i]) for i in REC_SYS_004["rec_sys_1"])
    assert EXAMPLES["004-recsys2"].relevances == (3.0, 3.0, 2.0, 0.0, 1.0)


# ---- document 000 -------------------------------------------------------------------------------

def test_000_graded():
    k = kinds("000-graded")
    # 3+2+0.63+1.5+0.86: 2/log2(5) = 0.8614 -> 0.86; 1/log2(3) = 0.6309 -> 0.63: all exact
    assert all(k[f"dcg_term_{i}"] == ("exact",) for i in range(1, 6))
    assert k["dcg"] == ("exact",) and k["idcg"] == ("exact",)  # 7.9923 -> 7.99, 8.6925 -> 8.69
    # 7.9923 / 8.6925 = 0.91944: rounds to 0.92, the document prints 0.91 -> truncation
    v = judge(EXAMPLES["000-graded"], "ndcg")
    assert v.kinds == ("truncation",) and v.rounded == "0.92" and v.truncated == "0.91"
    assert v.exact == ndcg([3, 2, 1, 3, 2], discount="jarvelin")
    assert judge(EXAMPLES["000-graded"], "dcg").exact == dcg([3, 2, 1, 3, 2], discount="jarvelin")
    assert judge(EXAMPLES["000-graded"], "cg").kinds == ("exact",)  # 3+2+1+3+2 = 11


def test_000_second_formula_is_linear_gain():
    v = judge(EXAMPLES["000-formula2"], "dcg")
    # printed terms 3+1.26+0.5+1.29+0.77 = 6.82; exact linear 6.8276 -> 6.83; written (2^rel-1) -> 13.568
    assert v.kinds == ("rounding_drift", "mislabelled_formula")
    assert v.exact == dcg([3, 2, 1, 3, 2])
    assert v.named_value == dcg([3, 2, 1, 3, 2], gain="exponential")
    assert v.rounded == "6.83" and math.isclose(v.recomputed, 6.82)
    k = kinds("000-formula2")
    # grade 1 at position 3: 2^1 - 1 = 1, so the term 0.5 is the same under both formulas
    assert k["dcg_term_3"] == ("exact",)
    assert all(k[f"dcg_term_{i}"] == ("exact", "mislabelled_formula") for i in (1, 2, 4, 5))


def test_000_binary():
    v = judge(EXAMPLES["000-binary"], "ndcg")
    # DCG = 1 + 1/log2(4) = 1.5, IDCG (list re-sorted 1,1,0,0,0) = 1 + 1 = 2 -> 0.75 exactly
    assert v.kind == "exact" and v.exact == 0.75
    # all five purchases relevant: IDCG@5 = 1+1+0.631+0.5+0.431 = 3.5616 -> 0.4212
    assert "different_idcg_items" in v.kinds
    assert v.alt_value == ndcg([1, 0, 0, 1, 0], discount="jarvelin", pool=[1] * 5)
    assert round(v.alt_value, 4) == 0.4212
    f = {x.kind: x.values for x in findings(EXAMPLES["000-binary"])}["different_idcg_items"]
    assert f["ndcg_doc_standard"] == ndcg([1, 0, 0, 1, 0])
    assert f["ndcg_alt_standard"] == ndcg([1, 0, 0, 1, 0], pool=[1] * 5)


# ---- documents 001, 002, 003 --------------------------------------------------------------------

R6, POOL8 = [3, 2, 3, 0, 1, 2], [3, 2, 3, 0, 1, 2, 3, 0]


def test_001_main():
    k = kinds("001-main")
    assert k["dcg"] == ("exact",)  # 6.8611 -> 6.86
    # IDCG 8.3841 -> 8.38 exact; written with 2^rel - 1 (17.725); eight items vs the list's six (7.141)
    assert k["idcg"] == ("exact", "mislabelled_formula", "different_idcg_items")
    # 6.86/8.38 = 0.818616 -> 81.86%; exact 0.818354 -> 81.84%
    v = judge(EXAMPLES["001-main"], "ndcg")
    assert v.kind == "rounding_drift" and v.rounded == "81.84%"
    assert v.exact == ndcg(R6, k=6, pool=POOL8)
    assert v.alt_value == ndcg(R6, k=6)
    assert judge(EXAMPLES["001-main"], "idcg").named_value == idcg(R6, k=6, pool=POOL8, gain="exponential")
    assert all(k[f"divisor_{i}"] == ("exact",) for i in range(1, 7))  # 1.58, 2.32, 2.58, 2.81 rounded


def test_001_book():
    k = kinds("001-book")
    assert set(k.values()) == {("exact",)}
    # 2.6309 / 3.1309 = 0.84030 -> 84.03%; 3.1309 / 4.1309 = 0.75792 -> 75.79%
    assert judge(EXAMPLES["001-book"], "ndcg_linear").exact == ndcg([1, 1, 2, 0])
    assert judge(EXAMPLES["001-book"], "ndcg_exponential").exact == ndcg([1, 1, 2, 0], gain="exponential")


def test_002_wikipedia():
    k = kinds("002-wiki")
    assert k["dcg"] == ("exact",)  # 6.861
    # 7.141 exact, formula (13) says 2^rel - 1 (14.595), the list's six items vs 001's eight
    assert k["idcg"] == ("exact", "mislabelled_formula", "different_idcg_items")
    v = judge(EXAMPLES["002-wiki"], "ndcg")
    assert v.kind == "exact" and v.printed.text == "0.961" and v.exact == ndcg(R6, k=6)
    # (11) over (13) taken literally: 6.861 / 14.595 = 0.470
    assert v.named_value == dcg(R6, k=6) / idcg(R6, k=6, gain="exponential")


def test_003_blog():
    k = kinds("003-blog")
    # 1/log2(6) = 0.3869 written 0.38; 1/log2(7) = 0.3562 (1/2.8 = 0.357) written 0.35: cut off
    assert k["dcg_term_5"] == ("truncation",)
    assert k["idcg_term_6"] == ("truncation",)
    # 3+1.26+1.5+0+0.38+0.71 = 6.85 but it prints 6.86 (= exact 6.8611 rounded)
    v = judge(EXAMPLES["003-blog"], "dcg")
    assert v.kind == "self_inconsistent_sum" and math.isclose(v.recomputed, 6.85)
    # 3+1.89+1.5+0.86+0.77+0.35 = 8.37, exact 8.3841 -> 8.38: the sum of its own terms, one of which (0.35)
    # is cut off, so the error is carried from that term (the rounded terms, 0.36 included, add to 8.38)
    v = judge(EXAMPLES["003-blog"], "idcg")
    assert v.kind == "carried_forward" and v.rounded == "8.38" and v.exact == idcg(R6, k=6, pool=POOL8)
    # 6.86 / 8.37 = 0.819594 -> 81.96%; exact 81.84%: carried on from the IDCG 8.37
    v = judge(EXAMPLES["003-blog"], "ndcg")
    assert v.kind == "carried_forward" and v.rounded == "81.84%"
    # 001's 81.86% = 6.86 / 8.38, both right: a ratio of rounded values, plain rounding drift
    assert judge(EXAMPLES["001-main"], "ndcg").kind == "rounding_drift"
    assert k["divisor_6"] == ("exact",)  # 2.8 is log2(7) = 2.807 correctly rounded to one decimal


def test_004_verdicts_and_findings():
    for key in ("004-recsys1", "004-recsys2"):
        assert set(kinds(key).values()) == {("exact",)}
        assert {f.kind for f in findings(EXAMPLES[key])} == {"different_idcg_items", "log_base", "binary_gain"}
    f1 = {f.kind: f.values for f in findings(EXAMPLES["004-recsys1"])}
    f2 = {f.kind: f.values for f in findings(EXAMPLES["004-recsys2"])}
    # natural log: DCG scales by 1/ln 2, NDCG unchanged
    assert math.isclose(f1["log_base"]["dcg_ln"] * math.log(2), f1["log_base"]["dcg_log2"], rel_tol=1e-12)
    assert math.isclose(f1["log_base"]["ndcg_ln"], f1["log_base"]["ndcg_log2"], rel_tol=1e-12)
    # graded, IDCG from the ground truth: rec_sys_2 wins; the post's binary code: rec_sys_1 wins
    assert f2["binary_gain"]["ndcg_graded"] > f1["binary_gain"]["ndcg_graded"]
    assert f1["binary_gain"]["ndcg_code"] > f2["binary_gain"]["ndcg_code"]
    assert f1["different_idcg_items"]["idcg_doc"] == idcg([3, 1, 2, 2, 1], k=5, pool=[3, 3, 2, 2, 1, 1, 0])


def test_code_004_by_hand():
    # rec_sys_1: 5 hits of 6 relevant items: sum_{i=1..5} 1/ln(i+1) / sum_{i=1..6} 1/ln(i+1)
    top = sum(1 / math.log(i + 1) for i in range(1, 6))
    best = sum(1 / math.log(i + 1) for i in range(1, 7))
    assert math.isclose(code_004_ndcg(REC_SYS_004["rec_sys_1"]), top / best, rel_tol=1e-12)
    # the code caps the ideal list at 100, not at the list length
    many = {f"s{i}" for i in range(150)}
    cap = sum(1 / math.log(i + 1) for i in range(1, 101))
    assert math.isclose(code_004_ndcg(["s1"], ground_truth=many), (1 / math.log(2)) / cap, rel_tol=1e-12)


# ---- every verdict is a registered kind and every exact value is metrics' -------------------------

@pytest.mark.parametrize("key", list(EXAMPLES))
def test_every_verdict_registered_and_exact_from_metrics(key):
    ex = EXAMPLES[key]
    for v in judge_all(ex) + findings(ex):
        assert v.kinds and all(k in VERDICTS for k in v.kinds)
        assert "unexplained" not in v.kinds, (key, v.printed)
    for v in judge_all(ex):
        p = v.printed
        if p.quantity in ("relevances", "ideal_vector"):
            continue
        f = FORMULAS[p.implied].variant
        rel = list(ex.relevances)
        expected = {
            "cg": lambda rel=rel, f=f: sum(rel[: ex.k]) if f.gain == "linear" else None,
            "dcg": lambda rel=rel, f=f: dcg(rel, k=ex.k, **f.options),
            "idcg": lambda rel=rel, f=f: idcg(rel, k=ex.k, pool=ex.pool, **f.options),
            "ndcg": lambda rel=rel, f=f: ndcg(rel, k=ex.k, pool=ex.pool, **f.options),
        }.get(p.quantity)
        if expected is not None:
            assert v.exact == expected(), (key, p.key)


def test_position_table_matches_breakdown_and_marks_terms():
    t = position_table(EXAMPLES["003-blog"])
    assert t["printed_idcg_term"].tolist() == ["3", "1.89", "1.5", "0.86", "0.77", "0.35"]
    assert t["idcg_term_verdict"].tolist()[-1] == "truncation"
    assert math.isclose(t["idcg_term"].sum(), idcg(R6, k=6, pool=POOL8), rel_tol=1e-12)
    book = position_table(EXAMPLES["001-book"], variant="exponential")
    assert book["printed_dcg_term"].tolist() == ["1.00", "0.63", "1.50", "0.00"]


# ---- the judge's pieces ---------------------------------------------------------------------------

def test_printed_parsing():
    assert printed_places("0.961") == 3 and printed_places("84.03%") == 4 and printed_places("11") == 0
    assert printed_decimal("75.79%") == printed_decimal("0.7579")
    with pytest.raises(ValueError, match="'x' is not a number"):
        printed_decimal("x")


def test_recomputed_value_from_printed_numbers():
    assert math.isclose(recomputed_value(EXAMPLES["001-main"], "ndcg"), 6.86 / 8.38)
    assert recomputed_value(EXAMPLES["000-binary"], "ndcg") is None  # nothing printed to redo it from


def test_bad_names_are_value_errors():
    with pytest.raises(ValueError, match="prints no 'nope'"):
        EXAMPLES["000-graded"].get("nope")
    with pytest.raises(ValueError, match="unknown document"):
        examples_for("005")
    with pytest.raises(ValueError, match="unknown formula"):
        exact_value(EXAMPLES["000-graded"], "dcg", formula="cubic")


@PROPERTY
@given(st.floats(min_value=0.001, max_value=100, allow_nan=False), st.integers(min_value=0, max_value=4))
def test_judge_property_round_and_cut(x, places):
    """A number printed as exact's rounding is 'exact'; as its cut-off (when different) 'truncation'."""
    from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

    from metrics.lessons.examples import WorkedExample

    q = Decimal(1).scaleb(-places)
    rounded = Decimal(x).quantize(q, rounding=ROUND_HALF_UP)
    cut = Decimal(x).quantize(q, rounding=ROUND_DOWN)
    # a one-item list whose DCG is x (linear gain, position 1 is not discounted)
    for text, expected in ((f"{rounded:f}", "exact"), (f"{cut:f}", "truncation")):
        if expected == "truncation" and cut == rounded:
            continue
        ex = WorkedExample(key="t", doc="000", source="", lang="zh", relevances=(x,), labels=None, k=None,
                           named="linear", implied="linear", printed=(Printed("dcg", text, "linear", "linear"),),
                           quote="")
        assert judge(ex, "dcg").kind == expected


@pytest.mark.parametrize("key", list(EXAMPLES))
def test_setup_reproduces_every_printed_total(key):
    # The playground settings of an example give the exact value of every total it prints (the formula
    # its numbers follow, its cutoff, its IDCG items: the list plus the unretrieved ones).
    from metrics.lessons.examples import printed_totals, setup
    from metrics.ndcg import cg as cg_
    from metrics.ndcg import dcg as dcg_
    from metrics.ndcg import idcg as idcg_
    from metrics.ndcg import ndcg as ndcg_

    example = EXAMPLES[key]
    s = setup(example)
    opts = dict(gain=s["gain"], discount=s["discount"], log_base=s["base"])
    pool = list(s["rels"]) + list(s["unretrieved"]) if s["idcg"] == "judged" else None
    values = {"cg": cg_(s["rels"], k=s["k"], gain=s["gain"]), "dcg": dcg_(s["rels"], k=s["k"], **opts),
              "idcg": idcg_(s["rels"], k=s["k"], pool=pool, **opts),
              "ndcg": ndcg_(s["rels"], k=s["k"], pool=pool, **opts)}
    for quantity, printed in printed_totals(example).items():
        assert values[quantity] == pytest.approx(judge(example, printed).exact, abs=1e-12), quantity
    if s["labels"] is not None:
        assert len(s["labels"]) == len(s["rels"]) + len(s["unretrieved"])


def test_setup_names_a_bad_formula():
    from metrics.lessons.examples import setup

    with pytest.raises(ValueError, match="unknown formula 'bad'; valid names are"):
        setup(EXAMPLES["000-graded"], formula="bad")
