"""classroom.tasks: the one verdict every view uses.

Exercise: document 003's worked example (derivation in tests/classroom/test_store.py): terms
3, 1.2619, 1.5, 0, 0.3869, 0.7124; DCG 6.8611; ideal terms 3, 1.8928, 1.5, 0.8614, 0.7737, 0.3562;
IDCG 8.3841; NDCG 0.8184.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from classroom.tasks import FIELDS, MARKS, Verdict, example_task, state_of, value_verdict, verdict

TASK = example_task("003-blog")
EXACT = {"terms": [3, 1.2619, 1.5, 0, 0.3869, 0.7124], "dcg": 6.8611,
         "ideal_terms": [3, 1.8928, 1.5, 0.8614, 0.7737, 0.3562], "idcg": 8.3841, "ndcg": 0.8184}


def test_the_issue_s_student_is_right_with_a_note():
    # Terms 3 1.26 1.5 0 0.39 0.71 add up to 6.86; DCG written 6.861 (exact 6.8611): both right, the
    # sum note is a note, not a mistake.
    d = TASK.check({"terms": "3 1.26 1.5 0 0.39 0.71", "dcg": "6.861"})
    assert verdict(d, "dcg") == Verdict(True, (), ("self_inconsistent_sum",))
    assert verdict(d, "terms") == Verdict(True, (), ())
    assert d.ok  # the diagnosis agrees: every number written is right


def test_marks_and_states():
    assert verdict(TASK.check({"dcg": "6.86"}), "dcg").mark == MARKS["right"] == "✓"
    wrong = verdict(TASK.check({"dcg": "6.85"}), "dcg")  # 6.8611 rounds to 6.86
    assert wrong.state == "wrong" and wrong.mark == "✗" and wrong.mistakes
    unfinished = verdict(TASK.check({"terms": "3 1.26"}), "terms")
    assert (unfinished.ok, unfinished.mistakes, unfinished.mark) == (False, (), "…")
    assert state_of(False, "truncation,arithmetic_slip") == "wrong" and state_of(False, "") == "unfinished"


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
