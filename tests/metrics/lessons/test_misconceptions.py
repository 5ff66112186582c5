"""Every misconception of the catalogue, made into a student's sheet from first principles, is named as itself.

For each entry of :data:`metrics.lessons.misconceptions.MISCONCEPTIONS`, Hypothesis draws an exercise (grades,
judged items the list missed, a cutoff, gain, discount, log base, the ideal ranking's items), lets a student
(:mod:`tests.metrics.lessons.student`, plain ``math``) make that mistake — on the DCG side, the ideal side or
both, a formula misconception; one number written wrong, a writing misconception — write some of the steps
with some positions left blank, rounded as students round (2 to 4 decimals, NDCG as a fraction or a percent),
carrying the mistake into the later steps or not, and checks:

* the first misconception named, its step and position (the first written number that is not the exercise's
  value, rounded like the student's);
* every answered field's verdict: right, wrong (with the misconception), carried forward from the field it
  was worked out from, unfinished (positions missing, nothing wrong);
* the same verdicts from Practice's :meth:`Exercise.check`, the classroom's :meth:`Task.check` and its stored
  form, and the teacher's grid, mistakes table and CSV.

Where two misconceptions give the same numbers at the precision written, "one of" them is accepted — only
there; elsewhere inputs are drawn where they differ (``assume``).  A right sheet is right everywhere.
"""
from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from classroom import stats
from classroom.tasks import ranking_task
from classroom.tasks import verdict as class_verdict
from metrics.lessons.diagnose import Verdict, diagnose
from metrics.lessons.exercises import Exercise
from metrics.lessons.misconceptions import MAX_BLANKS, MAX_ORDERS, MISCONCEPTIONS
from metrics.variant import Variant
from tests.conftest import examples

from .student import (
    FIELDS,
    FORMULA_KEYS,
    IDEAL_KEYS,
    STEP,
    WRITING_KEYS,
    Recipe,
    Way,
    apply,
    close,
    discount_name,
    divisor,
    fmt,
    gain,
    near_boundary,
    numbers,
    orders_giving,
    pct,
    pool_of,
    read,
    shows_unsorted,
    side_terms,
    single_and_pair_recipes,
    trunc,
    unsorted_orders,
    written_like,
)

SETTINGS = settings(deadline=None, max_examples=examples(60),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
SIDE_OF = {"terms": "dcg", "dcg": "dcg", "ideal_terms": "ideal", "idcg": "ideal"}
TERMS_OF = {"dcg": "terms", "ideal": "ideal_terms"}
TOTAL_OF = {"dcg": "dcg", "ideal": "idcg"}


def test_the_test_restates_every_entry():
    # Every misconception the diagnosis can name is made by the student model (the generic ones name a
    # difference without its direction and are never given by the diagnosis).
    named = {k for k, m in MISCONCEPTIONS.items() if not m.generic}
    assert named == set(FORMULA_KEYS) | set(WRITING_KEYS)


# ---------------------------------------------------------------------------------------------- exercises
@st.composite
def exercises(draw):
    n = draw(st.integers(min_value=3, max_value=7), label="n")
    grades = [float(g) for g in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(
        lambda g: max(g) >= 1), label="grades")]
    extra = [float(g) for g in draw(st.lists(st.integers(0, 3), max_size=3), label="unretrieved")]
    k = draw(st.one_of(st.none(), st.integers(min_value=1, max_value=n)), label="k")
    way = Way(draw(st.sampled_from(["linear", "exponential", "binary"]), label="gain"),
              draw(st.sampled_from(["standard", "jarvelin"]), label="discount"),
              draw(st.sampled_from([2.0, math.e, 10.0]), label="base"))
    source = draw(st.sampled_from(["judged", "list"]), label="source") if extra else "list"
    return grades, extra, k, Recipe(way, way, source, "sorted")


def _formula_kwargs(correct: Recipe) -> dict:
    return {"gain": correct.dcg.gain, "discount": correct.dcg.discount, "log_base": correct.dcg.base,
            "idcg_source": correct.source}


# ---------------------------------------------------------------------------------------------- writing a sheet
class Sheet:
    """What a student wrote (texts) and how each total and NDCG came about."""

    def __init__(self, grades, extra, k, correct: Recipe, d: int):
        self.grades, self.extra, self.k, self.correct, self.d = grades, extra, k, correct, d
        self.right = numbers(correct, grades, extra, k)
        self.texts: dict[str, object] = {}
        self.derived: dict[str, bool] = {}
        self.decimals: int | None = None  # the decimals the exercise asks for (None: any)
        self.percent_meant: dict[str, bool] = {}  # a number written in the other form than the one meant

    def kwargs(self) -> dict:
        out = {} if self.decimals is None else {"decimals": self.decimals}
        for f, v in self.texts.items():
            out[f] = " ".join(v) if isinstance(v, list) else v
        return out

    def terms_written(self, f: str) -> list[tuple[int, str]]:
        return [(p, x) for p, x in enumerate(self.texts.get(f, []), start=1) if x != "?"]

    def own_sum(self, f: str, fill: list[float]) -> float:
        """The student's terms added up; blanks are worked out in their head (``fill``)."""
        vals = [read(x)[0] if x != "?" else fill[p - 1] for p, x in enumerate(self.texts[f], start=1)]
        return math.fsum(vals)


def _blank_some(texts: list[str], data, label: str) -> list[str]:
    blanks = data.draw(st.lists(st.booleans(), min_size=len(texts), max_size=len(texts)), label=label)
    out = ["?" if b and i else x for i, (x, b) in enumerate(zip(texts, blanks))]  # position 1 stays written
    while out and out[-1] == "?":
        out.pop()
    return out


def _ndcg_text(value: float, d: int, percent: bool) -> str:
    return pct(value, d) if percent else fmt(value, d)


def _write_formula(sheet: Sheet, student: Recipe, fields, carry: bool, data) -> None:
    """A student who computes with ``student`` and writes ``fields``.  A total after its side's terms and NDCG
    after any earlier step are worked out from the student's own numbers (``carry``) or copied right."""
    mine, right, d = numbers(student, sheet.grades, sheet.extra, sheet.k), sheet.right, sheet.d
    value = {}
    for side in ("dcg", "ideal"):
        tf, total = TERMS_OF[side], TOTAL_OF[side]
        value[side] = mine[total]
        wrong_terms = False
        if tf in fields:
            sheet.texts[tf] = _blank_some([fmt(x, d) for x in mine[tf]], data, f"blanks_{tf}")
            wrong_terms = _field_differs(sheet, tf)[0]
            if not carry:
                value[side] = right[total]
            elif wrong_terms and data.draw(st.booleans(), label=f"own_sum_{side}"):
                value[side] = sheet.own_sum(tf, mine[tf])  # their rounded terms added up
        if total in fields:
            sheet.texts[total] = fmt(value[side], d)
            sheet.derived[total] = carry and wrong_terms
    if "ndcg" in fields:
        earlier = [f for f in FIELDS[:4] if f in sheet.texts]
        wrong = any(_field_differs(sheet, f)[0] for f in earlier)
        if earlier and not carry:
            n = right["ndcg"]
        else:
            # their own DCG and IDCG: as written where something is already off, else their exact values
            used = {s: read(sheet.texts[TOTAL_OF[s]])[0] if wrong and TOTAL_OF[s] in sheet.texts else value[s]
                    for s in ("dcg", "ideal")}
            assume(used["ideal"] > 0)  # nobody divides by an IDCG of 0
            n = used["dcg"] / used["ideal"]
        sheet.texts["ndcg"] = _ndcg_text(n, d, data.draw(st.booleans(), label="percent"))
        sheet.derived["ndcg"] = bool(earlier) and carry and wrong


def is_truncation(text: str, exact: float) -> bool:
    """``text`` is ``exact`` cut (not rounded) after the digits written."""
    value, tol = read(text)
    decimals = round(-math.log10(2 * tol))
    return not close(text, exact) and abs(value - trunc(exact, decimals)) <= 1e-9 * max(1.0, abs(exact))


# ---------------------------------------------------------------------------------------------- the oracle
def _field_differs(sheet: Sheet, f: str) -> tuple[bool, int | None]:
    """Whether a written field is not the exercise's value, and the first position where it is not."""
    right = sheet.right[f]
    if isinstance(right, list):
        for p, x in sheet.terms_written(f):
            if p > len(right) or not close(x, right[p - 1]) or too_coarse(sheet, x, right[p - 1]):
                return True, p
        return False, None
    return not close(sheet.texts[f], right) or too_coarse(sheet, sheet.texts[f], right), None


def too_coarse(sheet: Sheet, text: str, exact: float) -> bool:
    """Written with fewer decimals than the exercise asks, and off at the asked precision."""
    if sheet.decimals is None or read(text)[1] <= 0.5 * 10.0 ** -sheet.decimals * (1 + 1e-9):
        return False
    return not close(text, exact, unit_decimals=sheet.decimals)


def expected_states(sheet: Sheet) -> tuple[dict, dict]:
    """Each written field's expected state, and the fields a carried one is worked out from."""
    states, sources = {}, {}
    for f in FIELDS:
        if f not in sheet.texts:
            continue
        differs, _ = _field_differs(sheet, f)
        if f in ("terms", "ideal_terms"):
            n_right = len(sheet.right[f])
            written = {p for p, _ in sheet.terms_written(f)}
            states[f] = "wrong" if differs else ("unfinished" if written < set(range(1, n_right + 1)) else "right")
        elif f in ("dcg", "idcg"):
            tf = TERMS_OF[SIDE_OF[f]]
            if not differs:
                states[f] = "right"
            elif sheet.derived.get(f) and states.get(tf) == "wrong":
                states[f], sources[f] = "carried_forward", {tf}
            else:
                states[f] = "wrong"
        else:
            bad = {}
            for side in ("dcg", "ideal"):
                tf, total = TERMS_OF[side], TOTAL_OF[side]
                if states.get(total) in ("wrong", "carried_forward"):
                    bad[side] = total
                elif states.get(tf) == "wrong":
                    bad[side] = tf
            if not differs:
                states[f] = "right"
            elif sheet.derived.get(f) and bad:
                states[f], sources[f] = "carried_forward", set(bad.values())
            else:
                states[f] = "wrong"
    return states, sources


def formula_explanations(sheet: Sheet, f: str) -> set[str]:
    """The formula misconceptions (alone, on some side) that give every number written on ``f``'s side as
    written — the ones that cannot be told apart from each other there."""
    out = set()
    for keys, _, r in single_and_pair_recipes(sheet.correct, sheet.grades, sheet.extra, sheet.k):
        if len(keys) != 1:
            continue
        vals = numbers(r, sheet.grades, sheet.extra, sheet.k)
        if f == "ndcg":
            checks = [("ndcg", None)] + [(g, None) for g in ("dcg", "idcg") if g in sheet.texts
                                         and not sheet.derived.get(g)]
            checks += [(tf, p) for tf in ("terms", "ideal_terms") for p, _ in sheet.terms_written(tf)]
        else:
            side = SIDE_OF[f]
            tf, total = TERMS_OF[side], TOTAL_OF[side]
            checks = [(tf, p) for p, _ in sheet.terms_written(tf)]
            if total in sheet.texts and not sheet.derived.get(total):
                checks.append((total, None))
        ok = True
        for g, p in checks:
            value = vals[g] if p is None else (vals[g][p - 1] if p <= len(vals[g]) else math.nan)
            text = sheet.texts[g] if p is None else sheet.texts[g][p - 1]
            ok &= close(text, value)
        if ok:
            out.add(keys[0])
    if f == "ideal_terms" and unsorted_explains(sheet):
        out.add("ideal_order")
    return out


def _written_ideal(sheet: Sheet) -> dict[int, str]:
    return dict(sheet.terms_written("ideal_terms")) if "ideal_terms" in sheet.texts else {}


def unsorted_explains(sheet: Sheet) -> bool:
    """The written ideal terms are the right grades in another order than highest first, and it shows in them
    (some written term is not the highest-first ranking's); an IDCG written beside them, not worked out from
    them, is such an order's too."""
    written, c = _written_ideal(sheet), sheet.correct
    pool = pool_of(c, sheet.grades, sheet.extra)
    if not written or not shows_unsorted(written, pool, c.ideal, sheet.k):
        return False
    if "idcg" in sheet.texts and not sheet.derived.get("idcg"):
        return any(close(sheet.texts["idcg"], math.fsum(side_terms(c.ideal, head, None)))
                   for head in orders_giving(written, pool, c.ideal, sheet.k))
    return True


def _check_everywhere(sheet: Sheet, d) -> None:
    """The same verdicts from Practice's Exercise.check, the classroom's Task.check, the stored form and the
    teacher's summaries as from diagnose (Check my calculation)."""
    c = sheet.correct
    ex = Exercise(seed=0, difficulty="easy", labels=tuple(f"D{i + 1}" for i in range(len(sheet.grades))),
                  grades=tuple(sheet.grades), scores=None,
                  unretrieved=tuple(sheet.extra) if c.source == "judged" else (),
                  variant=Variant(gain=c.dcg.gain, discount=c.dcg.discount, log_base=c.dcg.base, k=sheet.k,
                                  idcg="judged" if c.source == "judged" and sheet.extra else "list", ties="stable"),
                  decimals=sheet.d)
    if c.source == "list" and sheet.extra:
        return  # Practice and the classroom give missed items only when they count
    assert ex.variant.idcg == c.source
    answers = {f: v for f, v in sheet.kwargs().items() if f != "decimals"}  # the exercise has its decimals
    practice = ex.check(**answers)
    task = ranking_task(sheet.grades, unretrieved=sheet.extra, k=sheet.k, gain=c.dcg.gain, discount=c.dcg.discount,
                        log_base=c.dcg.base, idcg="judged", decimals=sheet.d)
    classroom = task.check(answers)
    rows = []
    for i, f in enumerate(d.verdicts):
        v = d.verdicts[f]
        assert practice.verdict(f) == v and class_verdict(classroom, f) == v, (f, v)
        assert Verdict.from_stored(*v.stored()) == v
        ok, kinds, notes = v.stored()
        rows.append({"round": 1, "answer_id": i + 1, "student_id": 1, "number": 1, "nickname": "s", "field": f,
                     "text": sheet.kwargs()[f], "ok": ok, "kinds": kinds, "notes": notes, "after_reveal": False,
                     "created_at": 0.0})
    frame = pd.DataFrame(rows)
    grid = stats.grid(frame, pd.DataFrame({"student_id": [1], "number": [1], "nickname": ["s"]}), FIELDS)
    results = stats.results(frame).set_index("field")
    named = set(stats.mistakes(frame)["kind"])
    for f, v in d.verdicts.items():
        assert grid.loc[0, f] == v.mark
        assert results.loc[f, "verdict"] == v.state
        assert results.loc[f, "carried_from"].split() == list(v.carried_from)
    assert named == {k for v in d.verdicts.values() if v.state == "wrong" for k in v.mistakes}


def _diagnosed(sheet: Sheet):
    return diagnose(sheet.grades, unretrieved=sheet.extra, k=sheet.k, **sheet.kwargs(),
                    **_formula_kwargs(sheet.correct))


def _assert_diagnosis(sheet: Sheet, expected_first: set[str] | None, d=None) -> None:
    """The diagnosis names the first wrong field's misconception (one of ``expected_first``) where it first
    shows, and gives every field its expected state."""
    d = d or diagnose(sheet.grades, unretrieved=sheet.extra, k=sheet.k, **sheet.kwargs(),
                      **_formula_kwargs(sheet.correct))
    states, sources = expected_states(sheet)
    got = {f: v.state for f, v in d.verdicts.items()}
    assert got == states, (sheet.texts, got, states, d.kinds())
    # "exact" is always the exercise's value (issue 41): every finding quotes it, never the student's own
    field_of = {v: k for k, v in STEP.items()}
    for finding in d.findings:
        right = sheet.right[field_of[finding.step]]
        if finding.position is not None:
            right = right[finding.position - 1] if finding.position <= len(right) else math.nan
        assert (math.isnan(right) and math.isnan(finding.expected)) or math.isclose(
            finding.expected, right, rel_tol=1e-9, abs_tol=1e-12), (finding, right)
    for f, srcs in sources.items():
        assert d.verdicts[f].carried_from and set(d.verdicts[f].carried_from) <= srcs, (f, d.verdicts[f], srcs)
    _assert_said_like_the_student(sheet, d)
    first_field = next((f for f in FIELDS if states.get(f) == "wrong"), None)
    if first_field is None:
        assert d.first is None and d.ok, d.kinds()
        return
    _, position = _field_differs(sheet, first_field)
    assert d.first is not None, (sheet.texts, states)
    assert (d.first.step, d.first.position) == (STEP[first_field], position), (d.kinds(), sheet.texts)
    assert expected_first is not None
    assert d.first.kind in expected_first, (d.first.kind, expected_first, sheet.texts, d.kinds())
    assert d.verdicts[first_field].mistakes[0] == d.first.kind
    _check_everywhere(sheet, d)


def _assert_said_like_the_student(sheet: Sheet, d) -> None:
    """Issue 36 items 2 and 5: "rounded like yours" is the exercise's value written the way the student wrote
    theirs (a percent as a percent, an NDCG above 1 as the percent it is); a number carried forward is quoted as
    what the student's own numbers give, at their precision: the number they wrote, worked out from their own."""
    rows = {(r.step, None if pd.isna(r.position) else int(r.position)): r for r in d.steps.itertuples()}
    for f, text in sheet.texts.items():
        if isinstance(text, list):
            finest = max((len(x.split(".")[1]) for x in text if "." in x), default=0)
            for p, x in sheet.terms_written(f):
                if p <= len(sheet.right[f]):
                    assert rows[(STEP[f], p)].rounded == written_like(x, sheet.right[f][p - 1], finest=finest)
        else:
            meant = sheet.percent_meant.get(f)
            assert rows[(STEP[f], None)].rounded == written_like(text, sheet.right[f], percent=meant), (f, text)
    field_of = {v: k for k, v in STEP.items()}
    for finding in d.findings:
        if finding.kind == "carried_forward" and sheet.derived.get(field_of[finding.step]):
            text = sheet.texts[field_of[finding.step]]
            if not near_boundary(text, finding.params["own"]):
                assert finding.params["own_text"] == text, (finding.params, text)


def _fields(data) -> tuple[str, ...]:
    chosen = data.draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=5, unique=True), label="fields")
    return tuple(f for f in FIELDS if f in chosen)


def _assume_clear(sheet: Sheet) -> None:
    """No written number sits on a rounding boundary of the exercise's value (float noise decides those)."""
    for f, text in sheet.texts.items():
        right = sheet.right[f]
        if isinstance(text, list):
            for p, x in enumerate(text, start=1):
                if x != "?" and p <= len(right):
                    assume(not near_boundary(x, right[p - 1]))
        else:
            assume(not near_boundary(text, right))


# ---------------------------------------------------------------------------------------------- formula entries
@pytest.mark.parametrize("key", FORMULA_KEYS)
@SETTINGS
@given(exercise=exercises(), d=st.integers(min_value=2, max_value=4), carry=st.booleans(), data=st.data())
def test_formula_misconception_is_named_where_it_first_shows(key, exercise, d, carry, data):
    grades, extra, k, correct = exercise
    sides = ("ideal",) if key in IDEAL_KEYS else ("dcg", "ideal", "both")
    side = data.draw(st.sampled_from(sides), label="side")
    options = apply(key, correct, side, grades, extra, k)
    assume(options)
    student = data.draw(st.sampled_from(options), label="student")
    sheet = Sheet(grades, extra, k, correct, d)
    _write_formula(sheet, student, _fields(data), carry, data)
    _assume_clear(sheet)
    states, _ = expected_states(sheet)
    first = next((f for f in FIELDS if states.get(f) == "wrong"), None)
    expected = None
    if first is not None:
        expected = formula_explanations(sheet, first)
        assume(key in expected)  # else the student's numbers at that step are another mistake's too (a slip)
        _, position = _field_differs(sheet, first)
        if first in ("terms", "ideal_terms") and k is not None and position > k:
            expected = {"beyond_k"}  # not cutting shows as a term past k
        elif first in ("dcg", "idcg", "ndcg"):
            # a total or NDCG that is also a number written another way is named for that (checked first)
            value = read(sheet.texts[first])[0]
            right = sheet.right[first]
            assume(not is_truncation(sheet.texts[first], right))
            if first == "ndcg":
                assume(not (value > 1 and abs(value / 100 - right) <= 0.5 * 10.0 ** -(d + 2)))
                assume(not sheet.texts[first].endswith("%") or abs(value * 100 - right) > 0.5 * 10.0 ** -d)
                for a, b in (("dcg", "idcg"),):
                    if a in sheet.texts and b in sheet.texts and read(sheet.texts[b])[0]:
                        assume(not close(sheet.texts[first], read(sheet.texts[a])[0] / read(sheet.texts[b])[0]))
            else:
                tf = TERMS_OF[SIDE_OF[first]]
                if tf in sheet.texts and "?" not in sheet.texts[tf]:
                    assume(not close(sheet.texts[first], sheet.own_sum(tf, [])))
    _assert_diagnosis(sheet, expected)
    # item 3: log(i) with position 1 undiscounted is named Järvelin–Kekäläinen where the divisors are the same
    for finding in _diagnosed(sheet).findings:
        if finding.kind == "discount_one_early" and "theirs_variant" in finding.params:
            which = "dcg" if finding.params["side"] in ("dcg", "both") else "ideal"
            n = len(numbers(student, grades, extra, k)[TERMS_OF[which]])
            way = replace(getattr(correct, which), discount="log_i")  # log(i) where log(i + 1) belongs
            assert finding.params["theirs_variant"] == discount_name(way, n), (finding, n)


# ---------------------------------------------------------------------------------------------- any order
@SETTINGS
@given(exercise=exercises(), d=st.integers(min_value=2, max_value=4), carry=st.booleans(), data=st.data())
def test_an_ideal_ranking_in_any_order_is_named_unsorted(exercise, d, carry, data):
    """Issue 36: the IDCG terms of the right grades in an order of the student's own (3, 2, 3, 2, 1 for
    3, 3, 2, 2, 1 — any order, not only the ranked one or lowest first) are "ideal ranking unsorted" at the
    IDCG-terms step, and the IDCG and NDCG worked out from them are carried forward."""
    grades, extra, k, correct = exercise
    pool = pool_of(correct, grades, extra)
    order = data.draw(unsorted_orders(pool), label="order")
    sheet = Sheet(grades, extra, k, correct, d)
    fields = tuple(dict.fromkeys(("ideal_terms",) + _fields(data)))
    _write_formula(sheet, replace(correct, order=order), tuple(f for f in FIELDS if f in fields), carry, data)
    _assume_clear(sheet)
    states, _ = expected_states(sheet)
    assume(states.get("ideal_terms") == "wrong")  # the order shows in the terms written (not only in blanks)
    # the diagnosis fills at most MAX_BLANKS unwritten positions, in at most MAX_ORDERS ways
    written = _written_ideal(sheet)
    n_side = len(pool) if k is None else min(k, len(pool))
    assume(n_side - len(written) <= MAX_BLANKS)
    assume(len(orders_giving(written, pool, correct.ideal, k)) <= MAX_ORDERS)
    expected = formula_explanations(sheet, "ideal_terms")
    assume(expected)  # an IDCG copied right beside unsorted terms: no single misconception gives both
    assert "ideal_order" in expected or not unsorted_explains(sheet)
    _assert_diagnosis(sheet, expected)


def test_an_ideal_ranking_in_any_order_by_hand():
    # The sheet: grades ranked 2, 3, 1, 3, 2 (linear gain, log2(i + 1), ideal from the list); the ideal
    # terms written for 3, 2, 3, 2, 1 instead of 3, 3, 2, 2, 1: 3, 2/log2 3 = 1.26, 3/log2 4 = 1.5,
    # 2/log2 5 = 0.86, 1/log2 6 = 0.39; their sum 7.0119 -> 7.01 (the right IDCG: 3 + 1.8928 + 1 + 0.8614 +
    # 0.3869 = 7.1410); DCG 2 + 1.8928 + 0.5 + 1.2920 + 0.7737 = 6.4585; NDCG 6.46 / 7.01 = 0.9215.
    d = diagnose([2, 3, 1, 3, 2], ideal_terms="3 1.26 1.5 0.86 0.39", idcg="7.01", dcg="6.46", ndcg="0.92",
                 gain="linear", discount="standard", log_base=2)
    assert d.kinds()[0] == ("ideal_order", "ideal_term", 2)
    assert d.first.params["theirs_variant"] == (3.0, 2.0, 3.0, 2.0, 1.0)
    assert [(f, v.state) for f, v in d.verdicts.items()] == [
        ("dcg", "right"), ("ideal_terms", "wrong"), ("idcg", "carried_forward"), ("ndcg", "carried_forward")]
    assert d.verdict("ideal_terms").mistakes == ("ideal_order",)
    # with positions 4 and 5 blank, an IDCG from either filling (2 then 1: 7.0119; 1 then 2: 3 + 1.2619 + 1.5 +
    # 1/log2 5 + 2/log2 6 = 3 + 1.2619 + 1.5 + 0.4307 + 0.7737 = 6.9663 -> 6.97)
    for idcg in ("7.01", "6.97"):
        d = diagnose([2, 3, 1, 3, 2], ideal_terms="3 1.26 1.5", idcg=idcg, gain="linear", discount="standard",
                     log_base=2)
        assert [(f, v.state) for f, v in d.verdicts.items()] == [("ideal_terms", "wrong"),
                                                                  ("idcg", "carried_forward")], idcg
    # 1.95 at position 2 is no grade's term (3/log2 3 = 1.89, 2/log2 3 = 1.26): a slip, no order
    d = diagnose([2, 3, 1, 3, 2], ideal_terms="3 1.95 1", gain="linear", discount="standard", log_base=2)
    assert d.first.kind == "arithmetic_slip"
    # 2, 1.26, 1.5, 0.43 read back to grades 2, 2, 3, 1 (2/log2 5 = 0.86 would be a third 2): an order of the
    # right grades, named at position 1; with 0.86 at position 4 it is three 2s where the list has two: no order
    # of the right grades is read back (each position may still be named on its own)
    d = diagnose([2, 3, 1, 3, 2], ideal_terms="2 1.26 1.5 0.43", gain="linear", discount="standard", log_base=2)
    assert d.kinds()[0] == ("ideal_order", "ideal_term", 1)
    assert d.first.params["theirs_variant"][:4] == (2.0, 2.0, 3.0, 1.0)
    d = diagnose([2, 3, 1, 3, 2], ideal_terms="2 1.26 1.5 0.86", gain="linear", discount="standard", log_base=2)
    assert not any(isinstance(f.params.get("theirs_variant"), tuple) for f in d.findings), d.kinds()


# ---------------------------------------------------------------------------------------------- writing entries
def _written_right(sheet: Sheet, fields, data) -> None:
    """Every field in ``fields`` written right (rounded like students round), some term positions blank."""
    d, right = sheet.d, sheet.right
    for f in fields:
        if f in ("terms", "ideal_terms"):
            sheet.texts[f] = _blank_some([fmt(x, d) for x in right[f]], data, f"blanks_{f}")
        elif f == "ndcg":
            sheet.texts[f] = _ndcg_text(right[f], d, data.draw(st.booleans(), label="percent"))
        else:
            sheet.texts[f] = fmt(right[f], d)


def _carry_on(sheet: Sheet, start: str, carry: bool) -> None:
    """Work the fields after ``start`` out from the student's own numbers (``carry``), else leave them right."""
    if not carry:
        return
    d, right = sheet.d, sheet.right
    order = FIELDS.index(start)
    used = {}
    for side in ("dcg", "ideal"):
        tf, total = TERMS_OF[side], TOTAL_OF[side]
        terms_wrong = tf in sheet.texts and FIELDS.index(tf) >= order and _field_differs(sheet, tf)[0]
        value = sheet.own_sum(tf, right[tf]) if terms_wrong else right[total]
        if total in sheet.texts:
            if FIELDS.index(total) > order and terms_wrong:
                sheet.texts[total] = fmt(value, d)
                sheet.derived[total] = True
            if not close(sheet.texts[total], right[total]):
                value = read(sheet.texts[total])[0]
        used[side] = value
    if "ndcg" in sheet.texts and start != "ndcg" and (used["dcg"] != right["dcg"] or used["ideal"] != right["idcg"]):
        assume(used["ideal"] > 0)  # nobody divides by an IDCG of 0
        sheet.texts["ndcg"] = _ndcg_text(used["dcg"] / used["ideal"], d, sheet.texts["ndcg"].endswith("%"))
        sheet.derived["ndcg"] = True


def _not_another_mistake(sheet: Sheet, f: str, p: int | None, text: str) -> None:
    """``text`` at ``f`` (position ``p``) is not what any formula misconception or pair of them gives there,
    nor a neighbouring position's divisor: a value only the intended writing mistake explains."""
    for _, _, r in single_and_pair_recipes(sheet.correct, sheet.grades, sheet.extra, sheet.k):
        vals = numbers(r, sheet.grades, sheet.extra, sheet.k)[f]
        value = vals if p is None else (vals[p - 1] if p <= len(vals) else math.nan)
        assume(not close(text, value) and not (math.isfinite(value) and is_truncation(text, value)))
    if f == "ideal_terms":  # nor the right grades in another order (the slip lands on another grade's term)
        written = {**_written_ideal(sheet), p: text}
        assume(not shows_unsorted(written, pool_of(sheet.correct, sheet.grades, sheet.extra), sheet.correct.ideal,
                                  sheet.k))
    if p is not None:
        side = SIDE_OF[f]
        way = getattr(sheet.correct, side)
        graded = sheet.grades if side == "dcg" else _ideal(sheet)
        for other in (p - 1, p + 1):
            if other >= 1:
                assume(not close(text, gain(way.gain, graded[p - 1]) / divisor(way.discount, other, way.base)))


def _not_a_total_or_ratio_mistake(sheet: Sheet, f: str, text: str) -> None:
    """A total is not the sum of the right terms written beside it; an NDCG not the written DCG / IDCG."""
    if f in ("dcg", "idcg"):
        tf = TERMS_OF[SIDE_OF[f]]
        if tf in sheet.texts and "?" not in sheet.texts[tf] and len(sheet.texts[tf]) >= len(sheet.right[tf]):
            assume(not close(text, sheet.own_sum(tf, [])))
    if f == "ndcg" and "dcg" in sheet.texts and "idcg" in sheet.texts and read(sheet.texts["idcg"])[0]:
        assume(not close(text, read(sheet.texts["dcg"])[0] / read(sheet.texts["idcg"])[0]))


def _spots(sheet: Sheet, *, terms: bool = True) -> list[tuple[str, int | None]]:
    """Where one written number can be changed: each written term (``terms``), each total, a fraction NDCG."""
    spots = [(f, p) for f in ("terms", "ideal_terms") if terms and f in sheet.texts for p, _ in sheet.terms_written(f)]
    spots += [(f, None) for f in ("dcg", "idcg") if f in sheet.texts]
    return spots + ([("ndcg", None)] if "ndcg" in sheet.texts and not sheet.texts["ndcg"].endswith("%") else [])


def _write_at(sheet: Sheet, f: str, p: int | None, text: str) -> None:
    if p:
        sheet.texts[f][p - 1] = text
    else:
        sheet.texts[f] = text


def _ideal(sheet: Sheet) -> list[float]:
    pool = list(sheet.grades) + (list(sheet.extra) if sheet.correct.source == "judged" else [])
    return sorted(pool, reverse=True)


@pytest.mark.parametrize("key", WRITING_KEYS)
@SETTINGS
@given(exercise=exercises(), d=st.integers(min_value=2, max_value=4), carry=st.booleans(), data=st.data())
def test_writing_misconception_is_named_where_it_shows(key, exercise, d, carry, data):
    grades, extra, k, correct = exercise
    sheet = Sheet(grades, extra, k, correct, d)
    right = sheet.right
    fields = _fields(data)
    _written_right(sheet, fields, data)
    if key == "beyond_k":
        side = data.draw(st.sampled_from(["dcg", "ideal"]), label="side")
        tf = TERMS_OF[side]
        uncut = side_terms(getattr(correct, side), grades if side == "dcg" else _ideal(sheet), None)
        assume(k is not None and len(uncut) > k)
        m = data.draw(st.integers(min_value=k + 1, max_value=len(uncut)), label="written_to")
        sheet.texts[tf] = [fmt(x, d) for x in right[tf]] + [fmt(x, d) for x in uncut[k:m]]
        start = tf
    elif key == "truncation":
        def exact_at(spot):
            return right[spot[0]][spot[1] - 1] if spot[1] else right[spot[0]]

        # only where cutting the digits off differs from rounding (a next digit of 5 or more)
        spots = [s for s in _spots(sheet) if not close(fmt(trunc(exact_at(s), d), d), exact_at(s))]
        assume(spots)
        f, p = data.draw(st.sampled_from(spots), label="spot")
        exact = exact_at((f, p))
        text = fmt(trunc(exact, d), d)
        _not_another_mistake(sheet, f, p, text)
        _not_a_total_or_ratio_mistake(sheet, f, text)
        _write_at(sheet, f, p, text)
        start = f
    elif key == "too_few_decimals":
        # a total or NDCG (a list of terms is read at its most precise term's decimals: "1" beside "0.91" is 1.00)
        spots = _spots(sheet, terms=False)
        assume(spots)
        f, p = data.draw(st.sampled_from(spots), label="spot")
        exact = right[f][p - 1] if p else right[f]
        fewer = data.draw(st.integers(min_value=0, max_value=d - 1), label="decimals_written")
        text = fmt(exact, fewer)  # rounded right, at fewer decimals than asked
        sheet.decimals = d
        assume(not near_boundary(text, exact) and too_coarse(sheet, text, exact))
        _write_at(sheet, f, p, text)
        start, carry = f, False  # the later numbers copied right: the coarse one alone is the mistake
    elif key == "rounded_sum":
        f = data.draw(st.sampled_from(["dcg", "idcg"]), label="total")
        tf = TERMS_OF[SIDE_OF[f]]
        sheet.texts[tf] = [fmt(x, d) for x in right[tf]]
        sheet.texts[f] = fmt(sheet.own_sum(tf, []), d)
        assume(not close(sheet.texts[f], right[f]))
        start = f
    elif key == "ratio_of_rounded":
        sheet.texts["dcg"], sheet.texts["idcg"] = fmt(right["dcg"], d), fmt(right["idcg"], d)
        assume(read(sheet.texts["idcg"])[0] > 0)
        sheet.texts["ndcg"] = fmt(read(sheet.texts["dcg"])[0] / read(sheet.texts["idcg"])[0], d)
        assume(not close(sheet.texts["ndcg"], right["ndcg"]))
        start = "ndcg"
    elif key == "percent_vs_fraction":
        if data.draw(st.booleans(), label="percent_without_sign"):
            sheet.texts["ndcg"] = fmt(right["ndcg"] * 100, max(0, d - 2))
            sheet.percent_meant["ndcg"] = True
            assume(read(sheet.texts["ndcg"])[0] > 1)
        else:
            sheet.texts["ndcg"] = fmt(right["ndcg"], d) + "%"
            sheet.percent_meant["ndcg"] = False
            assume(right["ndcg"] > 0.5 * 10.0 ** -d * 2)
        assume(not close(sheet.texts["ndcg"], right["ndcg"]))
        start = "ndcg"
    else:  # arithmetic_slip
        spots = _spots(sheet)
        assume(spots)
        f, p = data.draw(st.sampled_from(spots), label="spot")
        exact = right[f][p - 1] if p else right[f]
        delta = data.draw(st.sampled_from([-1, 1]), label="sign") * data.draw(
            st.integers(min_value=3, max_value=400), label="units") * 10.0 ** -d
        wrong = round(exact, d) + delta
        assume(wrong >= 0 and (f != "ndcg" or wrong <= 1))
        text = fmt(wrong, d)
        assume(not close(text, exact) and not is_truncation(text, exact))
        _not_another_mistake(sheet, f, p, text)
        _not_a_total_or_ratio_mistake(sheet, f, text)
        _write_at(sheet, f, p, text)
        start = f
    _carry_on(sheet, start, carry)
    _assume_clear(sheet)
    states, _ = expected_states(sheet)
    assume(any(s == "wrong" for s in states.values()))
    _assert_diagnosis(sheet, {key})


# ---------------------------------------------------------------------------------------------- right sheets
@SETTINGS
@given(exercise=exercises(), d=st.integers(min_value=2, max_value=4), data=st.data())
def test_a_right_sheet_is_right_everywhere(exercise, d, data):
    grades, extra, k, correct = exercise
    sheet = Sheet(grades, extra, k, correct, d)
    _written_right(sheet, _fields(data), data)
    _assume_clear(sheet)
    got = diagnose(grades, unretrieved=extra, k=k, **sheet.kwargs(), **_formula_kwargs(correct))
    assert got.ok and got.first is None, got.kinds()
    assert all(v.state in ("right", "unfinished") for v in got.verdicts.values())
    # a complete answer is never unfinished
    for f, v in got.verdicts.items():
        if f in ("terms", "ideal_terms") and "?" not in sheet.texts[f] and len(sheet.texts[f]) == len(
                sheet.right[f]):
            assert v.state == "right"
    _assert_diagnosis(sheet, None, got)
