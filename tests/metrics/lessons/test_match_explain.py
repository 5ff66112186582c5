"""Which convention? explains a number by the common conventions first, written the usual ways (rounded, cut
off, rounded at fewer decimals, from rounded DCG and IDCG), before rarer exact matches; other measures'
near misses say what they are.

The typed numbers are made here from first principles: the exact value from metrics.ndcg.ndcg with the
convention's parameters (not through the matcher or convention_value), written as text by string
operations on its 17-significant-digit decimal expansion.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.lessons.examples import EXAMPLES, judge
from metrics.lessons.libraries import COMMON_CONVENTIONS, LIBRARIES
from metrics.lessons.match import WRITINGS, match_number
from metrics.ndcg import ndcg
from tests.conftest import examples
from ui.pages import match as match_view

RANK = {key: i for i, key in enumerate(COMMON_CONVENTIONS)}


def exact_ndcg(key: str, rel, pool, k) -> float:
    """A common convention's NDCG computed straight from metrics.ndcg (its parameters written out here)."""
    params = {
        "textbook": dict(gain="linear", discount="standard", judged=False),
        "exponential": dict(gain="exponential", discount="standard", judged=False),
        "trec_eval": dict(gain="linear", discount="standard", judged=True),
        "exponential_judged": dict(gain="exponential", discount="standard", judged=True),
        "jarvelin": dict(gain="linear", discount="jarvelin", judged=False),
        "binary": dict(gain="binary", discount="standard", judged=True),
        "binary_list": dict(gain="binary", discount="standard", judged=False),
    }[key]
    return ndcg(rel, k=k, gain=params["gain"], discount=params["discount"],
                pool=pool if params["judged"] else None)


def cut_text(x: float, p: int) -> str:
    """x cut after p decimals, by string operations on its decimal expansion (17 significant digits)."""
    whole, _, frac = f"{x:.17f}".partition(".")
    return whole if p == 0 else f"{whole}.{frac[:p]}"


def round_text(x: float, p: int) -> str:
    return format(Decimal(repr(x)).quantize(Decimal(1).scaleb(-p), rounding=ROUND_HALF_UP), "f")


def test_document_000_is_first_the_jarvelin_value_cut_off():
    # Document 000: 3, 2, 1, 3, 2 with rel / max(1, log2 i): DCG 3 + 2 + 1/1.585 + 3/2 + 2/2.3219 = 7.9923,
    # IDCG (3, 3, 2, 2, 1) 3 + 3 + 2/1.585 + 2/2 + 1/2.3219 = 8.6925, NDCG 0.91945: printed 0.91 (cut off;
    # rounded it is 0.92), as Worked examples says.  Exponential gain with the Järvelin discount in natural
    # log gives 0.9133, which rounds to 0.91 exactly -- a rarer combination, said after.
    r = match_number("0.91", [3, 2, 1, 3, 2])
    first = r.explanations[0]
    assert first.conventions == ("jarvelin",) and first.quantity == "ndcg"
    assert (first.writing, first.decimals, first.shown, first.rounded) == ("truncated", 2, "0.91", "0.92")
    verdict = judge(EXAMPLES["000-graded"], "ndcg")
    assert verdict.kind == "truncation" and first.value == pytest.approx(verdict.exact, abs=1e-12)
    exotic = [e for e in r.explanations if not e.conventions]
    assert exotic, "the exact exotic family is still listed"
    assert exotic[0].settings["gain"] == ("exponential",) and exotic[0].settings["discount"] == ("jarvelin",)
    assert exotic[0].settings["log_base"] == (math.e,) and round(exotic[0].value, 4) == 0.9133
    assert r.explanations.index(first) < r.explanations.index(exotic[0])
    text = match_view.explanation_sentence(first, r.target, 4)
    assert "0.9194" in text and "0.92" in text and "Järvelin" in text


def test_padded_value_is_rounded_at_fewer_decimals():
    # "0.9200" for 3, 2, 1, 3, 2: exponential gain's 0.92961 cut after 2 decimals is 0.92 (rank 2), and the
    # Järvelin form's 0.91945 rounded at 2 decimals is 0.92, written 0.9200 (rank 5)
    r = match_number("0.9200", [3, 2, 1, 3, 2])
    ways = [(e.conventions, e.writing, e.decimals) for e in r.explanations if e.conventions]
    assert ways[0] == (("exponential", "exponential_judged"), "truncated", 2)
    assert (("jarvelin",), "rounded_shorter", 2) in ways


def test_ratio_of_rounded_dcg_and_idcg():
    # 3, 2, 3, 0, 1, 2, textbook: DCG = 3 + 2/log2(3) + 3/2 + 0 + 1/log2(6) + 2/log2(7) = 6.8611 -> 6.9 at
    # 1 decimal; IDCG (3, 3, 2, 2, 1, 0) = 3 + 3/1.585 + 2/2 + 2/2.3219 + 1/2.585 = 7.1410 -> 7.1;
    # 6.9 / 7.1 = 0.97183 (the exact 0.96081 is nowhere near)
    r = match_number("0.9718", [3, 2, 3, 0, 1, 2])
    hit = [e for e in r.explanations if "textbook" in e.conventions]
    assert hit and (hit[0].writing, hit[0].decimals, hit[0].parts) == ("ratio_of_rounded", 1, ("6.9", "7.1"))
    assert "6.9 / 7.1" in match_view.explanation_sentence(hit[0], r.target, 4)


def test_a_percent_is_shown_as_typed():
    r = match_number("91%", [3, 2, 1, 3, 2])
    first = r.explanations[0]
    assert first.conventions == ("jarvelin",) and first.writing == "truncated"
    assert "91%" in match_view.explanation_sentence(first, r.target, 4)


def test_a_dcg_is_explained_as_a_dcg():
    # 7.99 is document 000's DCG under the Järvelin form (7.9923), not an NDCG
    r = match_number("7.99", [3, 2, 1, 3, 2])
    assert (r.explanations[0].conventions, r.explanations[0].quantity) == (("jarvelin",), "dcg")
    assert "DCG" in match_view.explanation_sentence(r.explanations[0], r.target, 4)


def test_other_measures_near_misses_say_what_they_are():
    # Spark's precisionAt(5) of 3, 2, 1, 3, 2 is 5 hits / 5 = 1; its MAP is 1: not NDCGs with a binary gain
    r = match_number("0.91", [3, 2, 1, 3, 2], k=5)
    for key, measure in (("spark_precision", "precision"), ("spark_map_at", "average_precision"),
                         ("spark_map", "average_precision"), ("spark_recall", "recall")):
        miss = r.near_miss(key)
        assert (miss.dimension, miss.theirs, miss.needed) == ("quantity", measure, ("ndcg",)), key
        text = match_view.near_miss_sentence(miss, 4)
        assert "gain" not in text.lower(), text
    assert "precision at k" in match_view.near_miss_sentence(r.near_miss("spark_precision"), 4)
    # Elasticsearch's default is plain DCG: said as such, before any other setting
    es = r.near_miss("elasticsearch_dcg")
    assert es.dimension == "quantity" and es.theirs == "dcg"


def test_writings_and_conventions_have_reasons():
    for table in (COMMON_CONVENTIONS, WRITINGS):
        for entry in table.values():
            assert len(entry.help) > 40, entry.key
    lines = match_view.order_reasons()
    assert sum(1 for x in lines if x[:1].isdigit()) == len(COMMON_CONVENTIONS) + len(WRITINGS)


def test_each_common_convention_is_a_library_convention_or_a_hand_formula():
    """The conventions table names the libraries it stands for: each named library computes the same NDCG on
    an untied list with unretrieved judged items (its value from the library table, not from this table)."""
    named = {"textbook": ["sklearn"], "exponential": ["lightgbm", "xgboost", "tf_ranking"],
             "trec_eval": ["trec_eval_ndcg_cut", "ranx_ndcg"], "exponential_judged": ["ranx_ndcg_burges", "gdeval"],
             "binary": ["spark", "recommenders_binary", "recbole"]}
    rel, unretrieved = [3, 2, 0, 1, 2], [3, 1]
    from metrics.lessons.libraries import evaluate_library

    for key, libs in named.items():
        assert key in COMMON_CONVENTIONS
        for lib in libs:
            assert lib in LIBRARIES
            got = evaluate_library(lib, rel, unretrieved=unretrieved, k=5)["ndcg"]
            assert got == pytest.approx(exact_ndcg(key, rel, rel + unretrieved, 5), abs=1e-12), (key, lib)


case = st.tuples(
    st.lists(st.integers(0, 3), min_size=2, max_size=7),
    st.lists(st.integers(0, 3), max_size=3),
    st.one_of(st.none(), st.integers(1, 6)),
    st.sampled_from(list(COMMON_CONVENTIONS)),
    st.integers(1, 5),
    st.sampled_from(["round", "cut", "round_padded"]),
)


@settings(deadline=None, max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
@given(case)
def test_a_common_convention_written_any_way_is_explained_in_order(c):
    rel, extra, k, key, p, how = c
    pool = rel + extra
    x = exact_ndcg(key, rel, pool, k)
    if how == "round":
        typed = round_text(x, p)
    elif how == "cut":
        typed = cut_text(x, p)
    else:  # rounded at p decimals, written with two more zeros
        typed = round_text(x, p) + ("00" if p else ".00")
    r = match_number(typed, rel, pool=pool if extra else None, k=k)
    mine = [e for e in r.explanations if key in e.conventions and e.quantity == "ndcg"]
    assert mine, (typed, key)
    e = mine[0]
    assert e.value == pytest.approx(x, abs=1e-12)
    rank = list(WRITINGS).index(e.writing)
    # the writing found is at least as likely as the one used (rounding may also give a cut-off number)
    used = {"round": "rounded", "cut": "truncated", "round_padded": "rounded_shorter"}[how]
    assert rank <= list(WRITINGS).index(used), (typed, e)
    # common conventions first, most used first; rarer families after all of them
    ranks = [min(RANK[k] for k in e.conventions) for e in r.explanations if e.conventions]
    assert ranks == sorted(ranks)
    seen_exotic = False
    for e in r.explanations:
        seen_exotic |= not e.conventions
        assert not (seen_exotic and e.conventions)
