"""metrics.variant: one typed Variant, one grammar for every text form.

The canonical spellings the tests expect are written here from the forms' definitions (the README's grammar),
not through :meth:`Variant.format`: a spec is the four choices in the order gain, discount, idcg, ties, then
base, level and zero when not the default, then ``@k``.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import ndcg_score

from metrics.registry import DISCOUNTS, GAINS, IDCG_SOURCES, TIES, ZERO_IDCG
from metrics.variant import FORMS, Variant, parse, parse_all
from tests.metrics.conftest import PROPERTY, RTOL

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
bases = st.one_of(st.sampled_from([2.0, 10.0, math.e, 1.5, 0.5]),
                  st.floats(min_value=1e-6, max_value=1e6).filter(lambda b: b != 1.0))
gain_maps = st.dictionaries(st.floats(min_value=0, max_value=100, allow_nan=False).map(lambda x: round(x, 3)),
                            finite, min_size=1, max_size=5)


@st.composite
def variants(draw):
    gain = draw(st.sampled_from([*GAINS, "map"]))
    return Variant(
        gain=gain,
        gain_map=draw(gain_maps) if gain == "map" else (),
        discount=draw(st.sampled_from(list(DISCOUNTS))),
        log_base=draw(bases),
        idcg=draw(st.sampled_from(list(IDCG_SOURCES))),
        k=draw(st.none() | st.integers(min_value=1, max_value=10**12)),
        ties=draw(st.sampled_from(list(TIES))),
        zero_idcg=draw(st.sampled_from(list(ZERO_IDCG))),
        level=draw(st.none() | finite),
    )


@PROPERTY
@given(variants())
def test_the_spec_form_carries_every_variant(v):
    assert parse(v.format()) == v
    assert parse(str(v)) == v
    assert parse(f"  {v.format()} ") == v


@PROPERTY
@given(variants(), st.sampled_from(FORMS[1:]))
def test_a_short_form_carries_what_it_names_and_refuses_the_rest(v, form):
    carried = {"label": {"gain", "discount", "idcg", "ties"}, "short": {"gain", "discount", "idcg"},
               "slug": {"gain", "discount", "log_base", "k", "idcg"}}[form]
    default = Variant()
    lost = [name for name in ("gain_map", "discount", "log_base", "idcg", "k", "ties", "zero_idcg", "level", "gain")
            if name not in carried and getattr(v, name) != getattr(default, name)]
    if lost or (form == "slug" and v.gain == "map"):
        with pytest.raises(ValueError, match="does not carry|spec form"):
            parse(v.format(form))
        return
    assert parse(v.format(form)) == v


_SPEC_KEYS = ("gain", "discount", "idcg", "ties", "base", "level", "zero")


@PROPERTY
@given(st.data())
def test_format_of_parse_is_the_canonical_spelling(data):
    """Specs typed as a user might (keys in any order, some left out, spaces, defaults spelled out) are
    written back canonically."""
    chosen = {
        "gain": data.draw(st.sampled_from(list(GAINS))),
        "discount": data.draw(st.sampled_from(list(DISCOUNTS))),
        "idcg": data.draw(st.sampled_from(list(IDCG_SOURCES))),
        "ties": data.draw(st.sampled_from(list(TIES))),
        "base": data.draw(st.sampled_from(["2", "10", "2.5", "0.5", "1e1"])),
        "level": data.draw(st.sampled_from(["1", "0.5", "-2", "3e0"])),
        "zero": data.draw(st.sampled_from(list(ZERO_IDCG))),
    }
    given_keys = data.draw(st.lists(st.sampled_from(_SPEC_KEYS), unique=True))
    cut = data.draw(st.none() | st.integers(min_value=1, max_value=1000))
    space = data.draw(st.sampled_from(["", " "]))
    text = "nDCG(" + ",".join(f"{space}{key}{space}={space}{chosen[key]}" for key in given_keys) + ")" \
        + ("" if cut is None else f"@{cut}")
    # the expected canonical spelling, from the definition
    value = {key: chosen[key] if key in given_keys else None for key in _SPEC_KEYS}
    defaults = {"gain": "linear", "discount": "standard", "idcg": "judged", "ties": "trec_eval"}
    parts = [f"{key}={value[key] or defaults[key]}" for key in ("gain", "discount", "idcg", "ties")]
    if value["base"] is not None and float(value["base"]) != 2.0:
        parts.append(f"base={float(value['base'])!r}")
    if value["level"] is not None:
        parts.append(f"level={float(value['level'])!r}")
    if value["zero"] not in (None, "zero"):
        parts.append(f"zero={value['zero']}")
    expected = "nDCG(" + ",".join(parts) + ")" + ("" if cut is None else f"@{cut}")
    assert parse(text).format() == expected
    assert parse(expected).format() == expected


def test_hand_written_forms():
    # every choice of the registry in each position of a label
    for g in GAINS:
        for d in DISCOUNTS:
            for s in IDCG_SOURCES:
                assert parse(f"{g}/{d}/{s}") == Variant(gain=g, discount=d, idcg=s)
                for t in TIES:
                    assert parse(f"{g}/{d}/{s}/{t}") == Variant(gain=g, discount=d, idcg=s, ties=t)
    assert parse("nDCG") == Variant()
    assert parse("nDCG@5") == Variant(k=5)
    assert parse("nDCG()") == Variant()
    assert [v.k for v in parse_all("nDCG(gain=binary)@10,3")] == [3, 10]
    # a gain map, trec_eval's pairs inside map(...); the pairs keep their order by grade
    v = parse("nDCG(gain=map(3=7;1=1; 2=3),idcg=list)@5")
    assert v.gain == "map" and v.gain_map == ((1.0, 1.0), (2.0, 3.0), (3.0, 7.0)) and v.k == 5
    assert v.format() == "nDCG(gain=map(1=1;2=3;3=7),discount=standard,idcg=list,ties=trec_eval)@5"
    # the exports' file-name form: base e is written "e", a whole list "kall"
    assert parse("exponential_jarvelin_basee_kall_list") == Variant(gain="exponential", discount="jarvelin",
                                                                    log_base=math.e, idcg="list")
    assert parse("binary_standard_base10_k3_judged") == Variant(gain="binary", log_base=10.0, k=3)
    assert Variant(log_base=0.5, k=2, idcg="list").format("slug") == "linear_standard_base0.5_k2_list"


def test_the_engine_prints_the_names_it_printed_before():
    """The run-file engine's measure names are this grammar's spec form (the names in saved results)."""
    assert Variant(gain="exponential", k=10).format() == \
        "nDCG(gain=exponential,discount=standard,idcg=judged,ties=trec_eval)@10"
    assert parse("nDCG(level=1,base=2.5)@5").format() == \
        "nDCG(gain=linear,discount=standard,idcg=judged,ties=trec_eval,base=2.5,level=1.0)@5"


@pytest.mark.parametrize("text, message", [
    ("nDCG(gain=cubic)", "unknown gain 'cubic'"),
    ("nDCG(gain=linear,gain=binary)", "gain is given twice"),
    ("nDCG(base=1)", "base 1 must be > 0 and != 1"),
    ("nDCG(base=x)", "base 'x' is not a finite number"),
    ("nDCG(level=inf)", "level 'inf' is not a finite number"),
    ("nDCG(level=1e999)", "level '1e999' is not a finite number"),
    ("nDCG(color=red)", "unknown key 'color'"),
    ("nDCG(gain)", "'gain' is not key=value"),
    ("nDCG(zero=two)", "unknown zero 'two'"),
    ("nDCG(gain=map())", "gain map is empty"),
    ("nDCG(gain=map(1=x))", "gain 'x' in '1=x' (pair 1) is not a number"),
    ("nDCG(gain=map(1=2;1=3))", "already given"),
    ("nDCG@0", "cutoff '0' is not a whole number"),
    ("nDCG@1000000000001", "cutoff '1000000000001' is not a whole number between 1 and 10^12"),
    ("nDCG@٣", "cutoff '٣' is not a whole number"),  # Arabic-Indic digit: ASCII digits only
    ("nDCG@5,5", "cutoff 5 is given twice"),
    ("nDCG@5,10", "gives 2 cutoffs"),
    ("nDCG(gain=linear", "write it as nDCG("),
    ("linear/standard", "write it as gain/discount/idcg/ties"),
    ("linear/standard/judged/trec_eval/x", "write it as gain/discount/idcg/ties"),
    ("linear/standard/pool", "unknown idcg 'pool'"),
    ("linear/standard/list/random", "unknown ties 'random'"),
    ("map_standard_k5_list", "says 'map' but not the map's pairs"),
    ("linear_standard_base1_k5_list", "base 1 must be > 0 and != 1"),
    ("linear_standard_k0_list", "cutoff '0'"),
    ("<b>linear</b>", "write it as gain/discount/idcg/ties"),
    ("<i>linear_standard", "write it as gain_discount[_baseB]_kK_idcg"),
    ("", "write it as nDCG"),
])
def test_errors_name_the_text_and_the_problem(text, message):
    with pytest.raises(ValueError) as exc:
        parse(text)
    assert str(exc.value).startswith("variant '")
    assert message in str(exc.value)


def test_control_characters_are_shown_as_escapes():
    with pytest.raises(ValueError) as exc:
        parse("nDCG(gain=\x1b[31m)")
    assert "\x1b" not in str(exc.value) and "\\x1b" in str(exc.value)


@pytest.mark.parametrize("kwargs, message", [
    ({"gain": "quadratic"}, "unknown gain 'quadratic'; valid names are 'linear', 'exponential', 'binary'"),
    ({"discount": "log"}, "unknown discount 'log'"),
    ({"idcg": "pool"}, "unknown idcg 'pool'"),
    ({"ties": "random"}, "unknown ties 'random'"),
    ({"zero_idcg": 0}, "unknown zero_idcg 0"),
    ({"log_base": 1}, "log_base must be a finite number > 0 and != 1, got 1.0"),
    ({"log_base": True}, "log_base must be a number"),
    ({"log_base": float("nan")}, "log_base must be a finite number"),
    ({"k": 2.0}, "k must be"),
    ({"k": True}, "k must be"),
    ({"level": float("inf")}, "level must be"),
    ({"level": "1"}, "level must be"),
    ({"gain_map": {1: 2}}, "a gain map needs gain='map'"),
    ({"gain": "map"}, "gain map is empty"),
    ({"gain": "map", "gain_map": {-1: 2}}, "levels are grades >= 0"),
    ({"gain": "map", "gain_map": ((1, 2), (1, 3))}, "gives a grade twice"),
    ({"gain": "map", "gain_map": "1=2"}, "gain_map must be a mapping"),
])
def test_every_parameter_is_checked_and_named(kwargs, message):
    with pytest.raises(ValueError) as exc:
        Variant(**kwargs)
    assert message in str(exc.value)


def test_other_forms_are_refused_by_format():
    with pytest.raises(ValueError, match="unknown form 'json'"):
        Variant().format("json")
    with pytest.raises(ValueError, match="does not carry log_base=10"):
        Variant(log_base=10).format("label")
    with pytest.raises(ValueError, match="does not carry ties=average"):
        Variant(ties="average").format("slug")
    with pytest.raises(ValueError, match="variant must be text"):
        parse(None)


def test_values_are_normalised_so_equal_variants_compare_equal():
    assert Variant(log_base=10) == Variant(log_base=10.0)
    assert Variant(k=np.int64(5)) == Variant(k=5) and type(Variant(k=np.int64(5)).k) is int
    assert Variant(level=-0.0) == Variant(level=0)
    assert Variant(gain="map", gain_map={2: 3, 1: 1}) == Variant(gain="map", gain_map=[(1, 1), (2, 3)])
    assert hash(Variant(gain="map", gain_map={2: 3})) == hash(Variant(gain="map", gain_map=((2.0, 3.0),)))


# ---------------------------------------------------------------------------------------------- numbers
def test_hand_derived_values():
    # Document 000's list 3, 2, 1, 3, 2 under Järvelin–Kekäläinen (log2, positions below 2 undiscounted):
    # DCG = 3 + 2 + 1/log2 3 + 3/2 + 2/log2 5 = 7.99227; ideal 3, 3, 2, 2, 1:
    # IDCG = 3 + 3 + 2/log2 3 + 2/2 + 1/log2 5 = 8.69245; NDCG = 0.919449
    dcg = 3 + 2 + 1 / math.log2(3) + 3 / 2 + 2 / math.log2(5)
    best = 3 + 3 + 2 / math.log2(3) + 1 + 1 / math.log2(5)
    assert Variant(discount="jarvelin").ndcg([3, 2, 1, 3, 2]) == pytest.approx(dcg / best, rel=RTOL)
    # nothing relevant: IDCG 0, the zero-IDCG policy decides
    assert [Variant(zero_idcg=z).ndcg([0, 0]) for z in ("zero", "one")] == [0.0, 1.0]
    assert math.isnan(Variant(zero_idcg="nan").ndcg([0, 0]))
    # level 2: the grade 1 counts 0; ranked 1, 2 -> DCG 2/log2 3, IDCG 2
    assert Variant(level=2).ndcg([1, 2]) == pytest.approx(1 / math.log2(3), rel=RTOL)
    # a gain map 1 -> 10: ranked 1, 2 -> DCG 10 + 2/log2 3, ideal 10, 2
    assert Variant(gain="map", gain_map={1: 10}, idcg="list").ndcg([1, 2]) == pytest.approx(
        (10 + 2 / math.log2(3)) / (10 + 2 / math.log2(3)), rel=RTOL)
    assert Variant(gain="map", gain_map={1: 10}, idcg="list").ndcg([2, 1]) == pytest.approx(
        (2 + 10 / math.log2(3)) / (10 + 2 / math.log2(3)), rel=RTOL)


@PROPERTY
@given(st.lists(st.integers(0, 4), min_size=2, max_size=12), st.data())
def test_scikit_learn_agrees_with_the_list_variant(grades, data):
    scores = data.draw(st.lists(st.integers(0, 5).map(float), min_size=len(grades), max_size=len(grades)))
    k = data.draw(st.none() | st.integers(1, 14))
    v = Variant(idcg="list", ties="average", k=k)
    if not any(grades):
        return  # scikit-learn's 0 here is the "zero" policy; checked by hand above
    expected = ndcg_score([grades], [scores], k=k)
    assert v.ndcg(grades, scores=scores) == pytest.approx(expected, rel=RTOL, abs=1e-12)


def test_the_registry_names_and_latex_are_the_variants():
    v = Variant(gain="exponential", discount="jarvelin", log_base=10, idcg="list", k=5)
    assert v.name == "Exponential gain · Järvelin–Kekäläinen discount · IDCG from the list itself · " \
                     "log base 10 · k = 5"
    assert v.latex("p") == "\\mathrm{DCG}@p = \\sum_{i=1}^{p} \\frac{2^{rel_{i}} - 1}{\\max(1, \\log_{10} p)}" \
        .replace("\\log_{10} p", "\\log_{10} i")
    assert v.options == {"gain": "exponential", "discount": "jarvelin", "log_base": 10.0}


def test_random_hostile_text_never_crashes():
    rng = random.Random(38)
    alphabet = "nDCG()@,=;/_.0123456789ekmaplinearxbsz \t\n\x00\u202e<>&'\"%"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        if rng.random() < 0.5:
            text = "nDCG(" + text
        try:
            v = parse(text)
        except ValueError as exc:
            assert str(exc).startswith("variant '")
            assert "\x00" not in str(exc) and "\u202e" not in str(exc)
        else:
            assert parse(v.format()) == v


@PROPERTY
@given(st.lists(st.integers(0, 4), min_size=1, max_size=10), st.lists(st.integers(0, 4), max_size=4))
def test_a_library_convention_that_is_a_variant_computes_as_the_variant(grades, unretrieved):
    """The libraries' conventions (metrics.lessons.libraries, each cross-checked against the library itself)
    and the Variant they hold agree on every list they accept."""
    from metrics.lessons.libraries import LIBRARIES, NotApplicable, convention_value

    pool = grades + unretrieved
    held = set()
    for lib in LIBRARIES.values():
        v = lib.convention.as_variant()
        if v is None:
            continue
        held.add(lib.key)
        try:
            expected = convention_value(lib.convention, grades, pool=pool)["value"]
        except NotApplicable:
            continue
        got = v.ndcg(grades, pool=pool)
        assert got == pytest.approx(expected, rel=RTOL, abs=1e-12) or (math.isnan(got) and math.isnan(expected)), \
            lib.key
    # trec_eval truncates grades (atol), LightGBM and XGBoost take a gain map per call, Elasticsearch's dcg is
    # not normalised, Spark's graded ideal keeps the given order: those conventions are more than a variant
    assert {"sklearn", "torchmetrics", "ranx_ndcg", "ranx_ndcg_burges", "spark", "recbole"} <= held
    assert not held & {"trec_eval_ndcg_cut", "lightgbm", "elasticsearch_dcg", "spark_graded", "spark_precision"}
