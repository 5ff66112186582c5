"""The diagnosis engine: the documents' own slips, one hand-derived sheet per misconception of the catalogue,
the issue's sheets, hand-written numbers and bad input, and agreement with the Worked examples page.

Exact values are derived by hand in the comments (log2 2 = 1, log2 3 = 1.58496, log2 4 = 2,
log2 5 = 2.32193, log2 6 = 2.58496, log2 7 = 2.80735).  Hand sheets are given as text, the way
people type them, so the number of decimals written is known.  The property tests (every misconception made
into a sheet from first principles) are in test_misconceptions.py.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from metrics.lessons.diagnose import (
    EXAMPLE_SHEETS,
    FIELDS,
    MISTAKES,
    STEPS,
    diagnose,
    example_sheet,
    hand_number,
    hand_numbers,
    written_precision,
)
from metrics.lessons.examples import EXAMPLES, judge
from metrics.lessons.exercises import Exercise, make_exercise
from metrics.lessons.misconceptions import MISCONCEPTIONS, Calculation
from metrics.ndcg import dcg as exact_dcg
from metrics.ndcg import idcg as exact_idcg
from metrics.ndcg import ndcg as exact_ndcg
from metrics.parse import ParseError
from metrics.registry import GAINS
from metrics.variant import Variant
from tests.metrics.conftest import PROPERTY

DOC003 = dict(grades=[3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6)
G = [3, 2, 3, 0, 1, 2]
LIN = dict(gain="linear", discount="standard", log_base=2)


def _states(d) -> dict:
    return {f: v.state for f, v in d.verdicts.items()}


# --------------------------------------------------------------------------------------------
# The documents' slips
# --------------------------------------------------------------------------------------------
def test_doc003_sheet():
    # 003 writes the DCG terms 3, 1.26, 1.5, 0, 0.38, 0.71: 1/log2 6 = 0.38685 is TRUNCATED to 0.38.
    # DCG 6.86 is right (exact 6.86113), but its own terms add up to 3+1.26+1.5+0+0.38+0.71 = 6.85: a note,
    # the same "sum disagrees with its own terms" the Worked examples page gives (not a wrong number).
    # Ideal ranking of all 8 judged items: 3,3,3,2,2,1 (k = 6); terms 3, 1.89, 1.5, 0.86, 0.77, 0.35:
    # 1/log2 7 = 0.35621 cut to 0.35 (rounded: 0.36).  IDCG 8.37 is the sum of those terms, one of them
    # (position 6) already off: CARRIED FORWARD from the ideal terms, not rounding drift (the correctly
    # rounded terms 3+1.89+1.5+0.86+0.77+0.36 add to 8.38, the exact 8.38410 rounded).  NDCG 6.86/8.37 =
    # 0.819594 -> "81.96%" carries the wrong IDCG on; exact 6.86113/8.38410 = 0.81835.
    d = diagnose(**DOC003, terms="3 1.26 1.5 0 0.38 0.71", dcg="6.86",
                 ideal_terms="3 1.89 1.5 0.86 0.77 0.35", idcg="8.37", ndcg="81.96%")
    assert d.followed == d.correct == Calculation.of(Variant())
    assert d.kinds() == [("truncation", "term", 5), ("self_inconsistent_sum", "dcg", None),
                         ("truncation", "ideal_term", 6), ("carried_forward", "idcg", None),
                         ("carried_forward", "ndcg", None)]
    assert _states(d) == {"terms": "wrong", "dcg": "right", "ideal_terms": "wrong", "idcg": "carried_forward",
                          "ndcg": "carried_forward"}
    assert d.verdict("idcg").carried_from == ("ideal_terms",) and d.verdict("ndcg").carried_from == ("idcg",)
    first = d.first
    assert first.theirs == 0.38 and first.expected == pytest.approx(1 / math.log2(6))
    assert first.params["rounded"] == "0.39"
    note = d.findings[1]
    assert note.params["their_sum"] == pytest.approx(6.85) and note.params["also"] == [5]
    assert note.expected == pytest.approx(3 + 2 / math.log2(3) + 1.5 + 1 / math.log2(6) + 2 / math.log2(7))
    slip6 = d.findings[2]
    assert slip6.expected == pytest.approx(1 / math.log2(7)) and slip6.params["rounded"] == "0.36"
    carried = d.findings[3]
    # their own sum 3+1.89+1.5+0.86+0.77+0.35 = 8.37; exact 3+3/log2 3+3/2+2/log2 5+2/log2 6+1/log2 7
    assert carried.params["own"] == pytest.approx(8.37)
    assert carried.expected == pytest.approx(3 + 3 / math.log2(3) + 1.5 + 2 / math.log2(5) + 2 / math.log2(6)
                                             + 1 / math.log2(7))
    assert carried.params["from"] == ["ideal_terms"] and carried.params["rounded"] == "8.38"
    assert d.findings[4].params["from"] == ["idcg"] and d.findings[4].params["own"] == pytest.approx(6.86 / 8.37)
    # the DCG step itself is right (✓ in the table); the note does not make it wrong
    dcg_row = d.steps.query("step == 'dcg'").iloc[0]
    assert bool(dcg_row["ok"]) and dcg_row["kinds"] == "self_inconsistent_sum"


def test_right_total_with_inconsistent_terms_is_a_note_only():
    # Terms 3, 1.26, 1.5, 0, 0.39, 0.71 are all right (rounded to 2 places) and add to 6.86; write the exact
    # DCG 6.861 (3 places: 6.86113 -> 6.861) beside them instead: right, but the terms add to 6.860 (off by
    # 0.001 > the half unit 0.0005 of "6.861").  Nothing is wrong, so the sheet is ok, with one note.
    d = diagnose(G, terms="3 1.26 1.5 0 0.39 0.71", dcg="6.861")
    assert d.ok and d.first is None
    assert d.kinds() == [("self_inconsistent_sum", "dcg", None)]
    assert d.verdict("dcg").notes == ("self_inconsistent_sum",) and d.verdict("dcg").ok


def test_doc001_ratio_of_rounded_values():
    # 001 writes the same example with the correct rounded terms (0.39 and 0.36): DCG 6.86, IDCG 8.38,
    # then NDCG = 6.86/8.38 = 0.818616 -> 81.86%.  Exact 6.86113/8.38410 = 0.818354 -> 81.84%.
    d = diagnose(**DOC003, terms="3.00 1.26 1.50 0.00 0.39 0.71", dcg="6.86",
                 ideal_terms="3.00 1.89 1.50 0.86 0.77 0.36", idcg="8.38", ndcg="81.86%")
    assert d.kinds() == [("ratio_of_rounded", "ndcg", None)]
    f = d.first
    assert f.params["ratio"] == pytest.approx(6.86 / 8.38)
    assert f.params["percent"] == "81.84%"


def test_doc000_first_formula_ndcg_is_truncated():
    # 000's first formula rel_1 + sum_{i>=2} rel_i/log2 i (Järvelin, base 2) for 3,2,1,3,2:
    # terms 3 + 2 + 0.63 + 1.5 + 0.86, DCG 7.99 (exact 7.99228); ideal 3,3,2,2,1: 3 + 3 + 1.26 + 1 + 0.43,
    # IDCG 8.69 (exact 8.69253).  NDCG 7.99228/8.69253 = 0.91944: "0.91" is truncated (rounded 0.92),
    # not a ratio of the rounded 7.99 / 8.69 = 0.91945 (which also rounds to 0.92).
    d = diagnose([3, 2, 1, 3, 2], terms="3 2 0.63 1.5 0.86", dcg="7.99", ideal_terms="3 3 1.26 1 0.43",
                 idcg="8.69", ndcg="0.91")
    assert d.correct.dcg.discount == "jarvelin" and d.correct.dcg.gain == "linear"
    assert d.kinds() == [("truncation", "ndcg", None)]
    assert d.first.params["rounded"] == "0.92"
    # The same with the formula named: still only the truncation.
    assert diagnose([3, 2, 1, 3, 2], dcg="7.99", idcg="8.69", ndcg="0.91", discount="jarvelin").kinds() == [
        ("truncation", "ndcg", None)]


def test_doc000_second_formula_follows_rel_and_its_sum_is_carried():
    # 000 names (2^rel - 1)/log2(1 + i) but writes 3 + 1.26 + 0.5 + 1.29 + 0.77 = 6.82 for 3,2,1,3,2.
    # Under the named formula the first term is (2^3 - 1)/1 = 7 and the DCG 7 + 3/log2 3 + 1/2 + 7/log2 5 +
    # 3/log2 6 = 13.5681; the written terms are rel's (3/1, 2/1.585, 1/2, 3/2.322, 2/2.585): rel used for
    # 2^rel - 1, first at position 1.  6.82 is their own sum: carried forward from the terms, not a new
    # mistake (it is not "rounded terms added up": the terms are wrong).
    d = diagnose([3, 2, 1, 3, 2], terms="3 1.26 0.5 1.29 0.77", dcg="6.82", gain="exponential",
                 discount="standard")
    assert d.followed.dcg.gain == "linear" and d.correct.dcg.gain == "exponential"
    assert d.kinds() == [("linear_for_exponential", "term", 1), ("carried_forward", "dcg", None)]
    wrong = d.first
    assert (wrong.theirs, wrong.expected) == (3.0, 7.0)
    assert wrong.params["theirs_variant"] == "linear" and wrong.params["correct_variant"] == "exponential"
    assert wrong.params["side"] == "dcg"
    carried = d.findings[1]
    assert carried.expected == pytest.approx(7 + 3 / math.log2(3) + 0.5 + 7 / math.log2(5) + 3 / math.log2(6))
    assert carried.params["own"] == pytest.approx(6.82) and carried.params["from"] == ["terms"]
    assert d.verdict("dcg").carried_from == ("terms",)


def test_doc002_is_right():
    # 002 (Wikipedia): DCG 6.861, IDCG 7.141 (ideal 3,3,2,2,1,0 from the list itself), NDCG 0.961.
    d = diagnose([3, 2, 3, 0, 1, 2], terms="3 1.262 1.5 0 0.387 0.712", dcg="6.861", idcg="7.141",
                 ndcg="0.961")
    assert d.ok and d.first is None and d.followed == d.correct == Calculation.of()
    assert set(_states(d).values()) == {"right"}


# --------------------------------------------------------------------------------------------
# One hand-derived sheet per misconception: (id, diagnose kwargs, first finding, verdict states)
# --------------------------------------------------------------------------------------------
MISTAKE_TABLE = [
    # rel where 2^rel - 1 is meant: 3/1 = 3 where (2^3 - 1)/1 = 7
    ("linear_for_exponential", dict(grades=G, terms="3 1.26 1.5", gain="exponential"),
     ("linear_for_exponential", "term", 1), {"terms": "wrong"}),
    # 2^rel - 1 where rel is meant: 7 + 3/1.585 + 7/2 + 0 + 1/2.585 + 3/2.807 = 13.85 vs 6.86
    ("exponential_for_linear", dict(grades=G, dcg="13.85", gain="linear"), ("exponential_for_linear", "dcg", None),
     {"dcg": "wrong"}),
    # 0/1 hits where grades count: 1 + 1/1.585 + 1/2 + 0 + 1/2.585 + 1/2.807 = 2.87 vs 6.86 (linear named)
    ("wrong_gain", dict(grades=G, dcg="2.87", **LIN), ("wrong_gain", "dcg", None), {"dcg": "wrong"}),
    # log2(i) for log2(i + 1): 3/1 + 2/1 + 1/1.585 + 3/2 + 2/2.322; the standard term 2 is 2/log2 3 = 1.26
    ("discount_one_early", dict(grades=[3, 2, 1, 3, 2], terms="3 2 0.63 1.5 0.86", discount="standard"),
     ("discount_one_early", "term", 2), {"terms": "wrong"}),
    # log2(i + 1) where Järvelin's max(1, log2 i) is meant: 2/log2 3 = 1.26 where 2/max(1, log2 2) = 2
    ("discount_one_late", dict(grades=G, terms="3 1.26 1.5 0 0.39 0.71", gain="linear", discount="jarvelin"),
     ("discount_one_late", "term", 2), {"terms": "wrong"}),
    # ln for log2: 3/ln 2 = 4.33 where 3/log2 2 = 3
    ("wrong_log_base", dict(grades=G, terms="4.33 1.82 2.16 0 0.56 1.03", log_base=2),
     ("wrong_log_base", "term", 1), {"terms": "wrong"}),
    # no discount on the ideal side: ideal 3,3,2,2,1,0 added up = 11 (CG) where IDCG = 7.14
    ("no_discount", dict(grades=G, ideal_terms="3 3 2 2 1 0", idcg="11", **LIN),
     ("no_discount", "ideal_term", 2), {"ideal_terms": "wrong", "idcg": "carried_forward"}),
    # k = 3 on DCG only: DCG@3 = 3 + 1.26 + 1.5 = 5.76, IDCG over all 6 = 7.14 (IDCG@3 = 3 + 1.89 + 1 = 5.89)
    ("cutoff_ignored", dict(grades=G, k=3, dcg="5.76", idcg="7.14"), ("cutoff_ignored", "idcg", None),
     {"dcg": "right", "idcg": "wrong"}),
    # ideal from the list (3,3,2,2,1,0) instead of all judged (3,3,3,2,2,1): term 3 is 2/2 = 1, not 3/2
    ("ideal_from_list", dict(**DOC003, ideal_terms="3 1.89 1 0.86 0.39 0", idcg_source="judged"),
     ("ideal_from_list", "ideal_term", 3), {"ideal_terms": "wrong"}),
    # the reverse: all judged where the list was meant; term 3 is 3/2 = 1.5 where 2/2 = 1
    ("ideal_from_judged", dict(**DOC003, ideal_terms="3 1.89 1.5", idcg_source="list"),
     ("ideal_from_judged", "ideal_term", 3), {"ideal_terms": "wrong"}),
    # ideal left in ranked order: its terms are the DCG's, IDCG = DCG = 6.86 (NDCG would be 1)
    ("ideal_order", dict(grades=G, ideal_terms="3 1.26 1.5 0 0.39 0.71", idcg="6.86"),
     ("ideal_order", "ideal_term", 2), {"ideal_terms": "wrong", "idcg": "carried_forward"}),
    # any other order of the right grades: grades 2 3 1 3 2, the ideal written for 3 2 3 2 1 (not the ranked
    # order, not lowest first): 3, 2/log2 3 = 1.26, 3/2 = 1.5, 2/log2 5 = 0.86, 1/log2 6 = 0.39, sum 7.0119
    ("ideal_order_any", dict(grades=[2, 3, 1, 3, 2], ideal_terms="3 1.26 1.5 0.86 0.39", idcg="7.01"),
     ("ideal_order", "ideal_term", 2), {"ideal_terms": "wrong", "idcg": "carried_forward"}),
    # a term past k = 4: 1/log2 6 = 0.39 at position 5, and DCG 3 + 1.26 + 1.5 + 0 + 0.39 = 6.15 (DCG@4 5.76)
    ("beyond_k", dict(grades=G, k=4, terms="3 1.26 1.5 0 0.39", dcg="6.15"), ("beyond_k", "term", 5),
     {"terms": "wrong", "dcg": "carried_forward"}),
    # truncation: 1/log2 6 = 0.3869 -> 0.38
    ("truncation", dict(grades=G, terms="3 1.26 1.5 0 0.38"), ("truncation", "term", 5), {"terms": "wrong"}),
    # rounded terms summed: 000's linear terms 3 + 1.26 + 0.5 + 1.29 + 0.77 = 6.82 for the exact 6.8276 (6.83)
    ("rounded_sum", dict(grades=[3, 2, 1, 3, 2], terms="3 1.26 0.5 1.29 0.77", dcg="6.82"),
     ("rounded_sum", "dcg", None), {"terms": "right", "dcg": "wrong"}),
    # ratio of rounded values (document 001): 6.86 / 8.38 = 0.81862 for the exact 0.81835
    ("ratio_of_rounded", dict(**DOC003, dcg="6.86", idcg="8.38", ndcg="81.86%"), ("ratio_of_rounded", "ndcg", None),
     {"dcg": "right", "idcg": "right", "ndcg": "wrong"}),
    # percent written as a fraction: 96.08 for 0.9608 (6.86113 / 7.14101); 0.96% for 0.96
    ("percent_vs_fraction", dict(grades=G, ndcg="96.08"), ("percent_vs_fraction", "ndcg", None), {"ndcg": "wrong"}),
    ("fraction_with_sign", dict(grades=G, ndcg="0.96%"), ("percent_vs_fraction", "ndcg", None), {"ndcg": "wrong"}),
    # arithmetic slip at position 3: 3/2 written 1.6; DCG their own sum 3+1.26+1.6+0+0.39+0.71 = 6.96
    ("arithmetic_slip", dict(grades=G, terms="3 1.26 1.6 0 0.39 0.71", dcg="6.96"), ("arithmetic_slip", "term", 3),
     {"terms": "wrong", "dcg": "carried_forward"}),
    # an addition slip: right terms, DCG 6.96 is neither the exact 6.861 nor their sum 6.86
    # 2 decimals asked, 1 written: 2/log2(3) = 1.2619 is 1.3 at one decimal but 1.26 at two (3, 1.5 and 0 are
    # exact, so as right as 3.00)
    ("too_few_decimals", dict(grades=G, terms="3 1.3 1.5 0 0.4 0.7", decimals=2), ("too_few_decimals", "term", 2),
     {"terms": "wrong"}),
    ("arithmetic_slip_dcg", dict(grades=G, terms="3 1.26 1.5 0 0.39 0.71", dcg="6.96"),
     ("arithmetic_slip", "dcg", None), {"terms": "right", "dcg": "wrong"}),
    # tied items the other way: G ranked by scores .9 .8 .7 .7 .5 .4 (positions 3 and 4, grades 3 and 0, tie);
    # put 0 before 3: terms 3, 2/log2 3 = 1.26, 0/2 = 0, 3/log2 5 = 1.29; DCG 3 + 1.26 + 0 + 1.29 + 1/log2 6 +
    # 2/log2 7 = 3 + 1.2619 + 1.2920 + 0.3869 + 0.7124 = 6.6532 (the exact DCG is 6.8611): carried forward
    ("tie_order", dict(grades=G, scores=[.9, .8, .7, .7, .5, .4], terms="3 1.26 0 1.29", dcg="6.65"),
     ("tie_order", "term", 3), {"terms": "wrong", "dcg": "carried_forward"}),
]


@pytest.mark.parametrize("case_id, kwargs, expected, states", MISTAKE_TABLE, ids=[c[0] for c in MISTAKE_TABLE])
def test_one_sheet_per_misconception(case_id, kwargs, expected, states):
    d = diagnose(**kwargs)
    assert (d.first.kind, d.first.step, d.first.position) == expected, d.kinds()
    assert _states(d) == states
    assert d.first.kind in MISCONCEPTIONS


def test_the_table_covers_every_misconception():
    covered = {c[2][0] for c in MISTAKE_TABLE}
    assert covered == {k for k, m in MISCONCEPTIONS.items() if not m.generic}


# --------------------------------------------------------------------------------------------
# The sheets
# --------------------------------------------------------------------------------------------
def test_tied_items_the_other_way_practice_seed_12345():
    # The tester's Practice seed 12345 (Hard, as generated before the discount fix): D1..D6 grades 0 2 0 3 1 2,
    # scores .59 .34 .74 .79 .59 .51, ties broken optimistically, k = 4, linear gain, max(1, log10 i) (every
    # divisor 1 up to position 10).  D4 (.79, grade 3), D3 (.74, 0), then D1 and D5 tie at .59: optimistic puts
    # D5 (grade 1) first, so the top 4 is 3, 0, 1, 0 and its terms 3 0 1 0.  The other order gives 3 0 0 1;
    # it was named "log(i + 1) used for log(i)" + "Another log base" + "Calculation slip at position 4".
    ex = Exercise(seed=12345, difficulty="hard", labels=("D1", "D2", "D3", "D4", "D5", "D6"),
                  grades=(0.0, 2.0, 0.0, 3.0, 1.0, 2.0), scores=(0.59, 0.34, 0.74, 0.79, 0.59, 0.51),
                  unretrieved=(), variant=Variant(gain="linear", discount="jarvelin", log_base=10.0, idcg="list",
                                                  k=4, ties="optimistic"), decimals=3)
    assert ex.ranked_grades[:4] == [3, 0, 1, 0]
    d = ex.check(terms="3 0 0 1")
    assert d.kinds() == [("tie_order", "term", 3)]
    assert d.verdict("terms").mistakes == ("tie_order",)
    # the DCG of either order is 3 + 0 + 1 + 0 = 4 (no divisor above 1): right, whichever way the tie went
    d = ex.check(terms="3 0 0 1", dcg="4")
    assert d.verdict("dcg").state == "right" and d.first.kind == "tie_order"


def test_tied_items_the_other_way_practice_seed_777():
    # Practice seed 777 (Hard): D2 and D7 tie at .63 with grades 1 and 2, optimistic: D6 D5 D7 D2 D3 (grades
    # 3 1 2 1 2, k = 5, linear gain, ln(i + 1)).  D2 first gives 3 1 1 2 2: terms 3/ln 2 = 4.328, 1/ln 3 = 0.910,
    # 1/ln 4 = 0.721, 2/ln 5 = 1.243, 2/ln 6 = 1.116, DCG 8.319 (exact 8.419).  It was named "Another gain used
    # ... Binary gain" + "Calculation slip".
    ex = make_exercise(777, "hard")
    d = ex.check(terms="4.328 0.910 0.721 1.243 1.116", dcg="8.319")
    assert d.kinds() == [("tie_order", "term", 3), ("carried_forward", "dcg", None)]
    assert d.verdict("dcg").carried_from == ("terms",)
    assert d.followed.ranking[:5] == (3, 1, 1, 2, 2)


def test_ties_are_bounded_and_scores_checked():
    # 200 items all tied at one score, grades 0..3: the other orders tried are at most MAX_TIE_ORDERS (never n!)
    grades = [float(i % 4) for i in range(200)]
    d = diagnose(grades, scores=[0.5] * 200, terms="0 1 2 3 0 1 2 3", **LIN)
    assert d.first is not None
    for bad, message in (([0.5, 0.9, 0.1], "must not rise"), ([0.5], "one score per item"),
                         ([0.5, float("nan"), 0.1], "finite"), ("0.5 0.4 0.3", "sequence of numbers")):
        with pytest.raises(ValueError, match=message):
            diagnose([3, 2, 1], scores=bad, dcg="4")


def test_log2_i_terms_and_their_sum():
    # Issue 36: DCG terms with log2(i) (position 1 undiscounted) and their sum as DCG, for 3,2,3,0,1,2 with the
    # standard formula: 3/1, 2/1, 3/log2 3 = 1.89, 0, 1/log2 5 = 0.43, 2/log2 6 = 0.77; sum 8.09.  The terms
    # are "log(i) used for log(i + 1)" from position 2 (2/log2 3 = 1.26 belongs there); the DCG is carried
    # forward from them -- never "rounded terms summed ... every term you wrote is right", never a slip.
    d = diagnose(G, terms="3 2 1.89 0 0.43 0.77", dcg="8.09", **LIN)
    assert d.kinds() == [("discount_one_early", "term", 2), ("carried_forward", "dcg", None)]
    assert d.verdict("dcg").carried_from == ("terms",)
    # the same DCG with its terms unwritten names the misconception at the DCG: 3 + 2 + 1.8928 + 0 + 0.4307 +
    # 0.7737 = 8.0972 (exact sum, rounded 8.10)
    assert diagnose(G, dcg="8.10", **LIN).kinds() == [("discount_one_early", "dcg", None)]


def test_direction_of_the_neighbouring_discount():
    # log2(i + 1) where the exercise asks log2(i) (Järvelin): "log(i + 1) used for log(i)", not the reverse.
    d = diagnose([3, 2, 1, 3, 2], terms="3 1.26 0.5 1.29 0.77", discount="jarvelin", gain="linear", log_base=2)
    assert d.first.kind == "discount_one_late" and d.first.position == 2
    assert d.first.params["theirs_variant"] == "standard" and d.first.params["correct_variant"] == "jarvelin"


def test_gain_on_one_side_only_leaves_the_other_side_right():
    # Exercise with rel (linear): DCG terms with 2^rel - 1 (7, 3/1.585 = 1.89, 7/2 = 3.5, 0, 1/2.585 = 0.39,
    # 3/2.807 = 1.07) and IDCG terms with rel (ideal 3,3,2,2,1,0: 3, 1.89, 1, 0.86, 0.39, 0): the DCG side is
    # wrong, the ideal side right (never marked wrong because of the other side).
    d = diagnose(G, terms="7 1.89 3.5 0 0.39 1.07", ideal_terms="3 1.89 1 0.86 0.39 0", **LIN)
    assert d.kinds() == [("exponential_for_linear", "term", 1)]
    assert _states(d) == {"terms": "wrong", "ideal_terms": "right"} and d.first.params["side"] == "dcg"
    # Exercise with 2^rel - 1: the same sheet has right DCG terms and rel on the ideal side only; the ideal
    # ranking 3,3,2,2,1,0 has 7, 7/1.585 = 4.42, 3/2, 3/2.322, 1/2.585, 0 under 2^rel - 1.
    d = diagnose(G, terms="7 1.89 3.5 0 0.39 1.07", ideal_terms="3 1.89 1 0.86 0.39 0", gain="exponential",
                 discount="standard", log_base=2)
    assert d.kinds() == [("linear_for_exponential", "ideal_term", 1)]
    assert _states(d) == {"terms": "right", "ideal_terms": "wrong"} and d.first.params["side"] == "ideal"
    # the same misconception on both sides is named so: 3, 1.26, 1.5, 0, 0.39, 0.71 and 3, 1.89, 1, 0.86,
    # 0.39, 0 are rel's numbers where 2^rel - 1 is meant
    d = diagnose(G, terms="3 1.26 1.5 0 0.39 0.71", ideal_terms="3 1.89 1 0.86 0.39 0", gain="exponential",
                 discount="standard", log_base=2)
    assert [f.params["side"] for f in d.findings] == ["both", "both"]
    assert _states(d) == {"terms": "wrong", "ideal_terms": "wrong"}


def test_ideal_from_the_list_is_wrong_not_unfinished():
    # Issue 36: every IDCG term written from the retrieved list only (3,3,2,2,1,0 -> 3, 1.89, 1, 0.86, 0.39, 0)
    # and IDCG 7.14, where all judged items (3,3,3,2,2,1 at k = 6) give 8.38.  Not "not finished": the ideal
    # terms are wrong (ideal from the list), IDCG and NDCG 6.86 / 7.14 = 0.9608 carried forward.
    d = diagnose(**DOC003, dcg="6.86", ideal_terms="3 1.89 1 0.86 0.39 0", idcg="7.14", ndcg="0.96", **LIN)
    assert _states(d) == {"dcg": "right", "ideal_terms": "wrong", "idcg": "carried_forward",
                          "ndcg": "carried_forward"}
    assert d.first.kind == "ideal_from_list" and d.first.step == "ideal_term" and d.first.position == 3


def test_ndcg_above_one_after_a_slip_is_carried_not_percent():
    # DCG 7.86 (a slip: 6.8611 rounds to 6.86) over IDCG 7.14 = 1.1008: NDCG 1.10 follows the slip -- carried
    # forward, not "percent vs fraction".
    d = diagnose(G, dcg="7.86", idcg="7.14", ndcg="1.10", **LIN)
    assert d.kinds() == [("arithmetic_slip", "dcg", None), ("carried_forward", "ndcg", None)]
    # written as the percent it is (110.08%), the same
    assert diagnose(G, dcg="7.86", idcg="7.14", ndcg="110.08%", **LIN).verdict("ndcg").state == "carried_forward"


def test_a_percent_is_judged_as_the_percent_it_is():
    # Issue 41: "82%" for 0.8184 is right at that precision (0.815 to 0.825), whatever else is on the sheet.
    for other in ({}, {"dcg": "6.86"}, {"idcg": "8.48"}, {"terms": "3 1.26 1.5 0 0.38 0.71"}):
        d = diagnose(**DOC003, ndcg="82%", **other, **LIN)
        assert d.verdict("ndcg").ok, (other, d.kinds())


def test_check_detect_with_missed_items_names_the_list_only_ideal():
    # Issue 41 item 4: formula on "detect" (no gain, discount, base or source given) with the missed items'
    # grades: the ideal ranking is of all judged items; IDCG 7.14 from the list alone is named as a mistake.
    d = diagnose(**DOC003, dcg="6.86", idcg="7.14", ndcg="0.96")
    assert d.correct.idcg == "judged" and not d.ok
    assert d.first.kind == "ideal_from_list" and d.verdict("ndcg").state == "carried_forward"


def test_a_complete_answer_is_never_unfinished_and_missing_positions_are():
    right = diagnose(**DOC003, terms="3 1.26 1.5 0 0.39 0.71", **LIN)
    assert right.verdict("terms").state == "right"
    assert diagnose(**DOC003, terms="3 ? 1.5", **LIN).verdict("terms").state == "unfinished"
    # a wrong term among missing positions is wrong, not unfinished
    assert diagnose(**DOC003, terms="3 ? 1.6", **LIN).verdict("terms").state == "wrong"


def test_huge_values_are_messages_or_findings_not_crashes():
    # 1e-400 underflows to 0 and has "400 decimals": the precision is capped (15), nothing overflows.
    assert diagnose(G, dcg="1e-400").kinds() == [("arithmetic_slip", "dcg", None)]
    # 2^1e308 overflows the exponential gain: that way is skipped, the named linear one still works.
    d = diagnose([1e308, 2, 1], dcg="1e308", gain="linear", discount="standard", log_base=2)
    assert d.correct.dcg.gain == "linear" and d.ok
    with pytest.raises(ValueError, match="overflows"):
        diagnose([1e308, 2, 1], dcg="1", gain="exponential")
    # 1e308 / log2(2) = 1e308 written with 2 decimals: 1e308 * 100 leaves float64; nothing to truncate there
    assert diagnose([1e308, 1e308], terms="3 1.26", dcg="6.86").first.kind == "arithmetic_slip"


@PROPERTY
@given(grades=st.lists(st.integers(0, 3), min_size=2, max_size=8), extra=st.lists(st.integers(0, 3), max_size=3),
       k=st.one_of(st.none(), st.integers(1, 8)), gain=st.sampled_from(list(GAINS)),
       discount=st.sampled_from(["standard", "jarvelin"]), base=st.sampled_from([2.0, math.e, 10.0]))
def test_the_exercise_s_values_agree_with_metrics_ndcg(grades, extra, k, gain, discount, base):
    # Cross-check: the values the diagnosis judges against are metrics.ndcg's, to 1e-9.
    assume(any(grades))
    opts = dict(gain=gain, discount=discount, log_base=base)
    d = diagnose(grades, unretrieved=extra, k=k, dcg="0", **opts, idcg_source="judged" if extra else "list")
    pool = grades + extra if extra else None
    row = lambda step: d.steps.query(f"step == '{step}'")["correct"].iloc[0]  # noqa: E731
    assert row("dcg") == pytest.approx(exact_dcg(grades, k=k, **opts), rel=1e-9, abs=1e-12)
    assert row("idcg") == pytest.approx(exact_idcg(grades, k=k, pool=pool, **opts), rel=1e-9, abs=1e-12)
    assert row("ndcg") == pytest.approx(exact_ndcg(grades, k=k, pool=pool, **opts), rel=1e-9, abs=1e-12)


def test_clean_sheet_and_steps_table():
    d = diagnose(grades=G, terms="3 1.26 1.5 0 0.39 0.71", dcg="6.86", ideal_terms="3 1.89 1 0.86 0.39 0",
                 idcg="7.14", ndcg="96.08%")
    assert d.ok
    table = d.steps
    assert list(table["step"].unique()) == list(STEPS)
    assert table["ok"].dropna().all() and set(table["state"]) == {"right"}
    assert list(d.verdicts) == list(FIELDS)
    bd = d.breakdown()
    assert float(bd["dcg"].iloc[-1]) == pytest.approx(exact_dcg(G))


# --------------------------------------------------------------------------------------------
# Hand numbers and bad input
# --------------------------------------------------------------------------------------------
def test_hand_number_precision():
    assert hand_number("0.91").tolerance == pytest.approx(0.005)
    h = hand_number("81.86%")
    assert h.value == pytest.approx(0.8186) and h.tolerance == pytest.approx(0.00005)
    assert hand_number("８.３７").value == 8.37  # full-width digits from a Chinese keyboard
    assert hand_number(3).decimals == 0 and hand_number(1.5).decimals == 1


def test_hand_numbers_blanks():
    assert [h and h.value for h in hand_numbers("3, ?, _, 0.5")] == [3.0, None, None, 0.5]
    assert [h and h.value for h in hand_numbers([3, None, "0.5"])] == [3.0, None, 0.5]


@pytest.mark.parametrize("kwargs, message", [
    (dict(grades=G, terms="3 abc 1.5"), "terms at position 2: 'abc' is not a number"),
    (dict(grades=G, dcg="six"), "dcg: 'six' is not a number"),
    (dict(grades=G, ndcg="0.9 0.8"), "second number"),
    (dict(grades=G), "no hand-computed value given"),
    (dict(grades=G, terms="", dcg=" "), "no hand-computed value given"),
    (dict(grades=[], dcg="1"), "grades is empty"),
    (dict(grades=[3, -1], dcg="1"), "grades at position 2 is -1.0"),
    (dict(grades=G, terms="1 2 3 4 5 6 7"), "terms has 7 values but the ranked list has only 6"),
    (dict(grades=G, ideal_terms="1 2 3 4 5 6 7"), "ideal_terms has 7 values"),
    (dict(grades=G, dcg=True), "boolean"),
    (dict(grades=G, dcg=float("nan")), "only finite numbers"),
    (dict(grades=G, dcg="1", gain="cubic"), "unknown gain 'cubic'; valid names are 'linear', 'exponential', 'binary'"),
    (dict(grades=G, dcg="1", idcg_source="pool"), "unknown idcg_source 'pool'"),
    (dict(grades=G, dcg="1", k=0), "k must be >= 1"),
    (dict(grades=G, terms={"a": 1}), "terms must be text or a sequence"),
])
def test_bad_input_messages(kwargs, message):
    with pytest.raises(ValueError) as err:
        diagnose(**kwargs)
    assert message in str(err.value)


def test_parse_error_names_token_and_position():
    with pytest.raises(ParseError) as err:
        diagnose(G, terms="3 1.26 x")
    assert (err.value.token, err.value.position) == ("x", 3)


def test_registry_and_engine_agree():
    # every kind the engine can emit has a name and help
    assert all(m.name and m.help for m in MISTAKES.values())
    # the catalogue's calculation matches metrics.ndcg on the judged pool
    v = Calculation.of(Variant()).values(G, [3, 0], 6)
    assert v.idcg == pytest.approx(exact_idcg(G, k=6, pool=G + [3, 0]), rel=1e-12)


# --------------------------------------------------------------------------------------------
# Check and Worked examples agree on every document's sheet
# --------------------------------------------------------------------------------------------
# A worked example's arithmetic verdict on a printed number, and the findings Check gives for the
# same number on the document's sheet (example_sheet): the same story in the two pages' words.
SAME_STORY = {
    "exact": set(),
    "truncation": {"truncation"},
    "rounding_drift": {"rounded_sum", "ratio_of_rounded"},
    "carried_forward": {"carried_forward"},
    "self_inconsistent_sum": {"self_inconsistent_sum"},
    "unexplained": {"arithmetic_slip"},
}
GAIN_MIX_UPS = {"linear_for_exponential", "exponential_for_linear", "wrong_gain"}
ARITHMETIC = set().union(*SAME_STORY.values())
STEP_OF = {"dcg_term": "term", "dcg": "dcg", "idcg_term": "ideal_term", "idcg": "idcg", "ndcg": "ndcg"}


@pytest.mark.parametrize("key", EXAMPLE_SHEETS)
def test_check_and_worked_examples_agree(key):
    example = EXAMPLES[key]
    sheet = example_sheet(key)
    d = diagnose(**{k: v for k, v in sheet.items() if k not in ("terms", "dcg", "ideal_terms", "idcg", "ndcg")},
                 **{n: sheet[n] or None for n in ("terms", "dcg", "ideal_terms", "idcg", "ndcg")})
    found = {}
    for f in d.findings:
        found.setdefault((f.step, f.position), set()).add(f.kind)
    for p in example.printed:
        if p.variant or p.quantity not in STEP_OF:
            continue
        verdict = judge(example, p)
        checked = found.get((STEP_OF[p.quantity], p.position), set()) & ARITHMETIC
        story = SAME_STORY[verdict.kind]
        if "mislabelled_formula" in verdict.kinds and story:
            # Worked examples judges the number against the formula it follows (its drift there); Check against
            # the formula named, where it follows the writer's own terms, already named as the gain mix-up:
            # carried forward from them.  The same story: the number is the writer's own terms' sum.
            story = story | {"carried_forward"}
        assert (checked <= story and bool(checked) == bool(story)), (p.key, verdict.kinds, checked)
    # A formula named for every number but not followed (000's second formula) is the gain mix-up in both.
    one_formula = len({p.named for p in example.printed} | {p.named_ideal for p in example.printed
                                                             if p.named_ideal}) == 1
    if one_formula:
        mislabelled = any("mislabelled_formula" in judge(example, p).kinds for p in example.printed)
        assert mislabelled == any(f.kind in GAIN_MIX_UPS for f in d.findings)


def test_doc003_dcg_agrees_with_worked_examples():
    # The report that started this: Worked examples says 003's printed terms add to 6.85 beside DCG 6.86;
    # Check says the same (a note on a right total), not "fine".
    d = diagnose(**DOC003, terms="3 1.26 1.5 0 0.38 0.71", dcg="6.86")
    assert ("self_inconsistent_sum", "dcg", None) in d.kinds()
    assert judge(EXAMPLES["003-blog"], "dcg").kind == "self_inconsistent_sum"


def test_each_of_two_formula_mistakes_is_explained_by_its_own_choice():
    # Found by a native reader of the Check page: document 003's sheet (rel / log2(i + 1)) checked against
    # 2^rel - 1 with Järvelin's discount shows two mistakes; the second, the discount's, was explained with the
    # gain's choices ("linear" for "exponential"). Derivation: position 1, 3/log2(2) = 3 but 2^3 - 1 = 7 (the
    # gain); position 2, 2/log2(3) = 1.26 where (2^2 - 1)/max(1, log2 2) = 3 (gain and discount).
    import math

    grades = [3, 2, 3, 0, 1, 2]
    terms = [g / math.log2(i + 1) for i, g in enumerate(grades, start=1)]
    d = diagnose(grades, terms=" ".join(f"{x:.2f}" for x in terms), gain="exponential", discount="jarvelin",
                 log_base=2.0)
    first, second = d.findings[:2]
    assert (first.kind, first.position, first.params["dimension"]) == ("linear_for_exponential", 1, "gain")
    assert (first.params["theirs_variant"], first.params["correct_variant"]) == ("linear", "exponential")
    assert (second.kind, second.position, second.params["dimension"]) == ("discount_one_late", 2, "discount")
    assert (second.params["theirs_variant"], second.params["correct_variant"]) == ("standard", "jarvelin")


def test_a_ratio_of_the_writer_s_own_numbers_cut_off_is_a_truncation_not_carried_forward():
    # Found by a tester working as a student: IDCG terms with the last one cut off (0.3869 -> 0.38), IDCG 7.13 (their
    # own sum), NDCG 0.76; their own ratio is 5.48 / 7.13 = 0.76858..., which rounds to 0.77: 0.76 cuts it off,
    # a second truncation, not "worked out from your own numbers".
    d = diagnose([2, 3, 0, 1, 3], unretrieved=[2, 1], k=5, terms="2 1.89 0 0.43 1.16", dcg="5.48",
                 ideal_terms="3 1.89 1 0.86 0.38", idcg="7.13", ndcg="0.76", gain="linear", discount="standard",
                 log_base=2.0, idcg_source="judged")
    assert d.verdict("idcg").state == "carried_forward"
    assert (d.verdict("ndcg").state, d.verdict("ndcg").mistakes) == ("wrong", ("truncation",))
    rounded = diagnose([2, 3, 0, 1, 3], unretrieved=[2, 1], k=5, terms="2 1.89 0 0.43 1.16", dcg="5.48",
                       ideal_terms="3 1.89 1 0.86 0.38", idcg="7.13", ndcg="0.769", gain="linear",
                       discount="standard", log_base=2.0, idcg_source="judged")
    assert rounded.verdict("ndcg").state == "carried_forward"  # 0.76858 rounded; the exercise gives 0.768


# --------------------------------------------------------------------------------------------
# A written number's precision, in the unit written (teach4 item 2)
# --------------------------------------------------------------------------------------------
def test_written_precision_by_hand():
    # 83.5%: one decimal as a percent; half a unit is 0.05 percentage points: 83.45% to 83.55%; 0.0005 as a
    # fraction.  0.92: ±0.005, 0.915 to 0.925.  81.8%: one decimal as written.  3: ±0.5.
    p = written_precision("83.5%")
    assert (p.percent, p.decimals, p.half, p.lo, p.hi) == (True, 1, "0.05", "83.45", "83.55")
    assert p.tolerance == pytest.approx(0.0005, rel=1e-12)
    p = written_precision("0.92")
    assert (p.percent, p.decimals, p.half, p.lo, p.hi) == (False, 2, "0.005", "0.915", "0.925")
    assert written_precision("81.8%").decimals == 1 and written_precision("3").half == "0.5"


@given(digits=st.integers(min_value=0, max_value=10**7), decimals=st.integers(min_value=0, max_value=6),
       percent=st.booleans())
@PROPERTY
def test_written_precision_is_the_judging_tolerance_in_the_written_unit(digits, decimals, percent):
    text = f"{digits / 10**decimals:.{decimals}f}" + ("%" if percent else "")
    p = written_precision(text)
    assert p.decimals == decimals and p.percent == percent
    half = 0.5 * 10.0 ** -decimals  # in the unit written
    assert float(p.half) == pytest.approx(half, rel=1e-12)
    assert float(p.hi) - float(p.lo) == pytest.approx(2 * half, rel=1e-6, abs=1e-9)
    assert (float(p.hi) + float(p.lo)) / 2 == pytest.approx(digits / 10**decimals, rel=1e-12, abs=1e-9)
    # the same allowance the diagnosis judges with, as a fraction
    assert p.tolerance == pytest.approx(half / 100 if percent else half, rel=1e-12)
    assert p.tolerance == hand_number(text).tolerance


@PROPERTY
@given(base=st.one_of(st.sampled_from([2.0, math.e, 10.0]), st.floats(min_value=1.01, max_value=12.0)),
       positions=st.integers(min_value=1, max_value=40))
def test_log_i_and_jarvelin_coincide_exactly_where_the_divisors_do(base, positions):
    # Issue 36 item 3: log_b(i) with position 1 undiscounted and Järvelin–Kekäläinen's max(1, log_b i) are one
    # formula where every divisor of the positions agrees — checked position by position from first principles.
    from metrics.lessons.misconceptions import named_discount, same_as_jarvelin

    same = all(math.isclose(1.0 if i == 1 else math.log(i) / math.log(base), max(1.0, math.log(i) / math.log(base)),
                            rel_tol=1e-12) for i in range(1, positions + 1))
    assert same_as_jarvelin(base, positions) == same
    assert named_discount("log_i", base, positions) == ("jarvelin" if same else "log_i")


def test_the_tester_s_check_sheets_of_the_third_session():
    # Document 003's list (grades 3 2 3 0 1 2, missed judged items 3 and 0), Check my calculation.
    g, missed = [3, 2, 3, 0, 1, 2], [3, 0]
    # (a) ideal written 3,2,3,3,2,1 (the right grades in another order): terms 3, 2/log2 3 = 1.26, 3/2 = 1.5,
    # 3/log2 5 = 1.29, 2/log2 6 = 0.77, 1/log2 7 = 0.36, IDCG 8.18, NDCG 6.8611 / 8.18 = 0.84: the ideal ranking
    # unsorted, and nothing about the gain (2^rel - 1 on the ideal side gives 7, not 3, at position 1)
    d = diagnose(g, unretrieved=missed, ideal_terms="3 1.26 1.5 1.29 0.77 0.36", idcg="8.18", ndcg="0.84")
    assert {f.kind for f in d.findings} == {"ideal_order", "carried_forward"}
    assert d.first.kind == "ideal_order" and d.first.step == "ideal_term" and d.first.position == 2
    # (b) the list sorted with the missed 3 appended last (3,3,2,2,1,3): terms 3, 1.89, 1, 0.86, 0.39,
    # 3/log2 7 = 1.07 — an order of the student's own, not "sorted from lowest to highest"
    d = diagnose(g, unretrieved=missed, ideal_terms="3 1.89 1 0.86 0.39 1.07")
    assert d.first.kind == "ideal_order" and d.first.params["theirs_variant"] != "ascending"
    assert isinstance(d.first.params["theirs_variant"], tuple)
    # (c) DCG 6.9, IDCG 8.5, NDCG 0.81: their own numbers give 6.9 / 8.5 = 0.81176, quoted at their precision
    d = diagnose(g, unretrieved=missed, dcg="6.9", idcg="8.5", ndcg="0.81")
    ndcg = next(f for f in d.findings if f.step == "ndcg")
    assert ndcg.kind == "carried_forward" and ndcg.params["own"] == pytest.approx(6.9 / 8.5, rel=1e-12)
    assert ndcg.params["own_text"] == "0.81"
    # (d) "3" typed beside "1.26": the exercise's 3.0000 rounded like it is "3", not "3.00"
    d = diagnose(g, unretrieved=missed, terms="3 1.26 1.5 0 0.39 0.71")
    rounded = d.steps[d.steps["step"] == "term"]["rounded"].tolist()
    assert rounded == ["3", "1.26", "1.5", "0", "0.39", "0.71"]


# A student who writes decimals with a comma (as on a German or French sheet): the right values of G's DCG
# (linear gain, log2(i + 1), worked out by hand: 3/1, 2/1.585, 3/2, 0, 1/2.585, 2/2.807), written "1,26".
COMMA_TERMS = "3 1,26 1,5 0 0,39 0,71"


@given(st.lists(st.integers(0, 99), min_size=1, max_size=3), st.integers(0, 99), st.integers(1, 99),
       st.booleans())
def test_a_decimal_comma_in_one_number_is_named_as_such(before, whole, frac, percent):
    """One number with a decimal comma is one mistake of writing, never "a second number"; with another
    number beside it, it is the second number that is named."""
    typed = f"{whole},{frac:02d}" + ("%" if percent else "")
    with pytest.raises(ParseError) as err:
        hand_number(typed, name="ndcg")
    assert (err.value.kind, err.value.token) == ("decimal_comma", typed)
    with pytest.raises(ParseError) as err:
        hand_number(" ".join(str(b) for b in before) + " " + typed, name="ndcg")
    assert err.value.kind == "second_number"


def test_a_list_with_decimal_commas_is_named_by_its_first_comma_number():
    with pytest.raises(ParseError) as err:
        diagnose(grades=G, terms=COMMA_TERMS)
    assert (err.value.kind, err.value.token) == ("decimal_comma", "1,26")
    with pytest.raises(ParseError) as err:  # the ideal ranking has 6 + 2 unretrieved positions: still too long
        diagnose(grades=G, ideal_terms="3 3 3 2 1,5 1,26 0,39 0 0", unretrieved=[3, 0])
    assert (err.value.kind, err.value.token) == ("decimal_comma", "1,5")


def test_one_term_too_many_names_the_first_extra_value():
    with pytest.raises(ParseError) as err:
        diagnose(grades=G, terms="3 1.26 1.5 0 0.39 0.71 0.1")
    assert (err.value.kind, err.value.token, err.value.position) == ("too_many", "0.1", 7)


def test_commas_as_separators_within_the_list_s_length_are_values():
    """"3,2,1" in a list is three values (a comma separates values everywhere); only a list made too long by
    comma numbers is told about decimal commas."""
    d = diagnose(grades=G, terms="3,1.26,1.5,0,0.39,0.71")
    assert d.steps.loc[d.steps["step"] == "term", "ok"].all()
