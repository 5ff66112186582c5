"""classroom.tasks: the one verdict every view uses.

Exercise: document 003's worked example (derivation in tests/classroom/test_store.py): terms
3, 1.2619, 1.5, 0, 0.3869, 0.7124; DCG 6.8611; ideal terms 3, 1.8928, 1.5, 0.8614, 0.7737, 0.3562;
IDCG 8.3841; NDCG 0.8184.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from classroom.tasks import EXAMPLE_KEYS, FIELDS, MARKS, Verdict, example_task, state_of, value_verdict, verdict

TASK = example_task("003-blog")
EXACT = {"terms": [3, 1.2619, 1.5, 0, 0.3869, 0.7124], "dcg": 6.8611,
         "ideal_terms": [3, 1.8928, 1.5, 0.8614, 0.7737, 0.3562], "idcg": 8.3841, "ndcg": 0.8184}


def test_the_issue_s_student_is_right_with_a_note():
    # Terms 3 1.26 1.5 0 0.39 0.71 add up to 6.86; DCG written 6.861 (exact 6.8611): both right, the
    # sum note is a note, not a mistake.
    d = TASK.check({"terms": "3 1.26 1.5 0 0.39 0.71", "dcg": "6.861"})
    assert verdict(d, "dcg") == Verdict("right", notes=("self_inconsistent_sum",))
    assert verdict(d, "terms") == Verdict("right")
    assert d.ok  # the diagnosis agrees: every number written is right


def test_marks_and_states():
    assert verdict(TASK.check({"dcg": "6.86"}), "dcg").mark == MARKS["right"] == "✓"
    wrong = verdict(TASK.check({"dcg": "6.85"}), "dcg")  # 6.8611 rounds to 6.86
    assert wrong.state == "wrong" and wrong.mark == "✗" and wrong.mistakes
    unfinished = verdict(TASK.check({"terms": "3 1.26"}), "terms")
    assert (unfinished.ok, unfinished.mistakes, unfinished.mark) == (False, (), "…")
    # IDCG from the list alone, 3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6 + 0 = 7.1410, every ideal term written:
    # the IDCG is carried forward from the ideal terms (wrong at position 3: 2/2 = 1 for 3/2 = 1.5), never
    # "unfinished", and NDCG 6.86 / 7.14 = 0.9608 is carried forward from the IDCG.
    d = TASK.check({"dcg": "6.86", "ideal_terms": "3 1.89 1 0.86 0.39 0", "idcg": "7.14", "ndcg": "0.9608"})
    assert verdict(d, "ideal_terms") == Verdict("wrong", ("ideal_from_list",))
    assert verdict(d, "idcg") == Verdict("carried_forward", carried_from=("ideal_terms",))
    assert verdict(d, "ndcg") == Verdict("carried_forward", carried_from=("idcg",))
    assert verdict(d, "ndcg").mark == MARKS["carried_forward"] == "↪"
    assert state_of(False, "truncation,arithmetic_slip") == "wrong" and state_of(False, "") == "unfinished"
    assert state_of(False, ("carried_forward:idcg",)) == "carried_forward"


def test_stored_form_round_trips():
    for v in (Verdict("right"), Verdict("right", notes=("self_inconsistent_sum",)), Verdict("unfinished"),
              Verdict("wrong", ("ideal_from_list", "truncation")), Verdict("carried_forward", carried_from=("dcg",)),
              Verdict("carried_forward", carried_from=("terms", "ideal_terms"))):
        assert Verdict.from_stored(*v.stored()) == v
    # rows stored before: a bare carried_forward, a note among the kinds
    assert Verdict.from_stored(False, "carried_forward", "").state == "carried_forward"
    assert Verdict.from_stored(True, "self_inconsistent_sum", "") == Verdict("right", notes=("self_inconsistent_sum",))


def test_every_document_s_example_is_offered_004_included():
    assert {"004-recsys1", "004-recsys2"} <= set(EXAMPLE_KEYS)
    ex = example_task("004-recsys1").exercise()
    # rec_sys_1 = A, E, C, D, F of the ground truth A3 B3 C2 D2 E1 F1 G0: B and G missed; k = 5
    assert ex.grades == (3.0, 1.0, 2.0, 2.0, 1.0) and sorted(ex.unretrieved) == [0.0, 3.0] and ex.variant.k == 5
    # IDCG@5 of the ground truth 3,3,2,2,1: 3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6 = 7.1410
    assert verdict(example_task("004-recsys1").check({"idcg": "7.14"}), "idcg").ok


def _near(x: float):
    return st.sampled_from([x, round(x, 2), round(x, 1), round(x + 0.01, 4), round(x - 0.01, 4),
                            int(x * 100) / 100, round(x * 1.1, 2), round(x * 100, 2)])


def _answer(field: str):
    value = EXACT[field]
    if isinstance(value, list):
        return st.tuples(*[_near(x) for x in value]).map(lambda xs: " ".join(f"{x:g}" for x in xs))
    return _near(value).map(lambda x: f"{x:g}")


@settings(deadline=None)  # the first diagnosis of a run builds caches
@given(st.fixed_dictionaries({}, optional={f: _answer(f) for f in FIELDS}).filter(bool))
def test_a_value_is_right_or_wrong_whatever_else_the_student_wrote(given_answers):
    # What lets the spread chart colour each value once: the verdict on a value with the student's other
    # answers beside it says right exactly when the verdict on the value alone does.
    d = TASK.check(given_answers)
    for field, text in given_answers.items():
        assert verdict(d, field).ok == value_verdict(TASK, field, text).ok, (given_answers, field)
