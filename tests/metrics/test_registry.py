"""The gain / discount / tie registry: formulas, names, LaTeX, custom callables."""
from __future__ import annotations

import math
from math import log

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.registry import (
    DISCOUNTS,
    GAINS,
    IDCG_SOURCES,
    TIES,
    VARIANT_CHOICES,
    ZERO_IDCG,
    Choice,
    dcg_latex,
    log_latex,
    resolve_discount,
    resolve_gain,
    term_latex,
)
from metrics.variant import Variant
from tests.metrics.conftest import PROPERTY


def test_registered_names():
    assert list(GAINS) == ["linear", "exponential", "binary"]
    assert list(DISCOUNTS) == ["standard", "jarvelin"]
    assert list(TIES) == ["average", "optimistic", "pessimistic", "stable", "trec_eval", "ranx"]
    assert list(ZERO_IDCG) == ["zero", "one", "nan"]


@pytest.mark.parametrize("registry", [GAINS, DISCOUNTS, TIES], ids=["gains", "discounts", "ties"])
def test_entries_are_described(registry):
    for key, entry in registry.items():
        assert entry.key == key
        assert entry.name.strip() and entry.help.strip()


def test_gain_formulas():
    grades = np.array([0.0, 0.5, 1.0, 2.0, 3.0, 4.0])
    assert GAINS["linear"].func(grades).tolist() == [0.0, 0.5, 1.0, 2.0, 3.0, 4.0]
    # 2^rel - 1: 0, sqrt(2) - 1, 1, 3, 7, 15
    assert GAINS["exponential"].func(grades).tolist() == pytest.approx([0, 2**0.5 - 1, 1, 3, 7, 15], rel=1e-15)
    assert GAINS["binary"].func(grades).tolist() == [0.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    for gain in GAINS.values():
        assert gain.func(grades).dtype == np.float64
        assert gain.func([1, 2]).tolist() == gain.func(np.array([1.0, 2.0])).tolist()  # lists accepted


@pytest.mark.parametrize("base", [2, 10, math.e, 3, 1.5, 0.5, 100])
def test_discount_formulas(base):
    positions = np.arange(1, 13)
    lb = lambda x: log(x) / log(base)  # noqa: E731
    # standard: log_b(i + 1)
    np.testing.assert_allclose(DISCOUNTS["standard"].func(positions, float(base)),
                               [lb(i + 1) for i in positions], rtol=1e-14)
    # Järvelin-Kekäläinen: max(1, log_b(i))
    np.testing.assert_allclose(DISCOUNTS["jarvelin"].func(positions, float(base)),
                               [max(1.0, lb(i)) for i in positions], rtol=1e-14)


def test_jarvelin_base2_is_document_000():
    # rel_1 + sum_{i>=2} rel_i / log2(i): divisors 1, 1 (log2 2), log2 3, 2, log2 5
    np.testing.assert_allclose(DISCOUNTS["jarvelin"].func(np.arange(1, 6), 2.0),
                               [1, 1, math.log2(3), 2, math.log2(5)], rtol=1e-15)


def test_exact_logs_for_base_2_and_10():
    # bases 2 and 10 use log2 / log10 directly, so powers of the base are exact
    assert DISCOUNTS["standard"].func(np.array([1, 3, 7, 15]), 2.0).tolist() == [1.0, 2.0, 3.0, 4.0]
    assert DISCOUNTS["standard"].func(np.array([9, 99]), 10.0).tolist() == [1.0, 2.0]


@PROPERTY
@given(st.floats(min_value=1.01, max_value=1e6))
def test_jarvelin_never_below_one_and_equal_to_standard_shifted(base):
    # max(1, log_b i) >= 1; and for i >= b it equals the standard divisor at position i - 1
    pos = np.arange(1, 40)
    jk = DISCOUNTS["jarvelin"].func(pos, base)
    st_ = DISCOUNTS["standard"].func(pos - 1, base)
    assert (jk >= 1).all()
    big = pos >= base
    np.testing.assert_allclose(jk[big], st_[big], rtol=1e-12)
    assert (jk[~big] == 1.0).all()


def test_log_latex():
    assert log_latex(2) == "\\log_{2}"
    assert log_latex(10) == "\\log_{10}"
    assert log_latex(math.e) == "\\ln"
    assert log_latex(2.5) == "\\log_{2.5}"


def test_term_and_dcg_latex():
    assert term_latex() == "\\frac{rel_{i}}{\\log_{2}(i+1)}"
    assert term_latex("exponential", "jarvelin", 10) == "\\frac{2^{rel_{i}} - 1}{\\max(1, \\log_{10} i)}"
    assert term_latex(position="k") == "\\frac{rel_{k}}{\\log_{2}(k+1)}"
    assert dcg_latex() == "\\mathrm{DCG}@k = \\sum_{i=1}^{k} \\frac{rel_{i}}{\\log_{2}(i+1)}"
    assert DISCOUNTS["standard"].formula(math.e) == "\\ln(i+1)"
    for gain in GAINS.values():
        assert "rel_{i}" in gain.latex


def test_latex_of_unknown_names_raises_valueerror():
    with pytest.raises(ValueError, match="unknown gain 'nope'"):
        term_latex("nope")
    with pytest.raises(ValueError, match="unknown discount 'nope'"):
        dcg_latex(discount="nope")


def test_resolve_returns_registry_entries_and_instances():
    assert resolve_gain("linear") is GAINS["linear"]
    assert resolve_discount("jarvelin") is DISCOUNTS["jarvelin"]
    g = Choice("sq", "Square", "help", latex="rel_{i}^2", func=lambda r: np.asarray(r) ** 2)
    assert resolve_gain(g) is g
    d = Choice("rank", "Rank", "help", latex="{pos}", func=lambda p, b: np.asarray(p, dtype=float))
    assert resolve_discount(d) is d
    with pytest.raises(ValueError, match="discount 'judged' computes nothing"):
        resolve_discount(IDCG_SOURCES["judged"])  # a Choice, but not one that computes a discount


def test_one_record_type_for_every_choice_and_each_defined_once():
    """Every registry of the package holds registry.Choice records (the run-file measures their own typed
    Measure); the IDCG sources are the registry's own objects wherever they appear (the lessons, the
    engine's variants, the NDCG functions)."""
    from metrics.lessons import libraries
    from metrics.lessons.diagnose import MISTAKES
    from metrics.lessons.examples import VERDICTS
    from metrics.other import roc, topn
    from metrics.runfiles import IDCG, MEASURES
    from metrics.runfiles.measures import Measure, parse_variant

    registries = [GAINS, DISCOUNTS, TIES, ZERO_IDCG, IDCG_SOURCES, VARIANT_CHOICES["ties"], VERDICTS,
                  MISTAKES, libraries.DIMENSIONS, libraries.IDEAL_ORDERS,
                  libraries.CUTOFFS, topn.PRECISION_DENOMINATORS, topn.AP_DENOMINATORS, roc.AUC_METHODS]
    for registry in registries:
        for key, choice in registry.items():
            assert isinstance(choice, Choice) and choice.key == key and choice.name and choice.help, key
    for key, measure in MEASURES.items():
        assert type(measure) is Measure and measure.key == measure.name == key and measure.help, key
    assert libraries.DIMENSIONS["idcg"].choices == tuple(IDCG_SOURCES)
    assert list(IDCG) == list(IDCG_SOURCES) and IDCG["list"] == IDCG_SOURCES["list"].help
    assert parse_variant("nDCG(idcg=list)")[0].idcg == "list"
    assert libraries.VARIANTS["exponential/jarvelin/judged"] == Variant(gain="exponential", discount="jarvelin")
    # facts of a kind are typed fields of that kind's record, not attributes read through a mapping: a choice
    # has the fields of its type and no others, and ``value`` is only ever the constant it stands for
    assert libraries.DIMENSIONS["cutoff"].step == "dcg"
    assert type(libraries.DIMENSIONS["cutoff"]) is libraries.Dimension
    for attr in ("colour", "facts", "step"):
        with pytest.raises(AttributeError):
            getattr(GAINS["linear"], attr)
    with pytest.raises(AttributeError):
        _ = libraries.DIMENSIONS["cutoff"].colour
    assert [z.value for z in ZERO_IDCG.values()][:2] == [0.0, 1.0] and math.isnan(ZERO_IDCG["nan"].value)
    for registry in registries:
        for choice in registry.values():
            assert choice.value is None or registry is ZERO_IDCG, choice.key


def test_custom_callables_are_wrapped():
    def square(r):
        return r**2

    g = resolve_gain(square)
    assert g.key == "square" and "square" in g.name and g.latex == "\\mathrm{square}(rel_{i})"
    assert g.func(np.array([1.0, 2.0, 3.0])).tolist() == [1.0, 4.0, 9.0]

    def by_rank(positions, base):
        return np.asarray(positions, dtype=float) * base

    d = resolve_discount(by_rank)
    assert d.func(np.array([1, 2]), 3.0).tolist() == [3.0, 6.0]
    assert d.formula(2) == "\\mathrm{by_rank}(i)"
    assert term_latex(square, by_rank) == "\\frac{\\mathrm{square}(rel_{i})}{\\mathrm{by_rank}(i)}"


@pytest.mark.parametrize("bad", [lambda r: r[:1], lambda r: r * np.inf, lambda r: "x", lambda: 1])
def test_custom_gain_checked(bad):
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="custom gain"):
        resolve_gain(bad).func(np.array([1.0, 2.0]))


@pytest.mark.parametrize("bad", [lambda p, b: p * 0, lambda p, b: -p, lambda p, b: p[:1], lambda p, b: p * np.nan,
                                 lambda p: p])
def test_custom_discount_checked(bad):
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="custom discount"):
        resolve_discount(bad).func(np.array([1, 2]), 2.0)


@pytest.mark.parametrize("value", ["Linear", "", None, 1, ["linear"], b"linear"])
def test_unknown_gain_message_from_registry(value):
    with pytest.raises(ValueError) as info:
        resolve_gain(value)
    msg = str(info.value)
    assert msg.startswith("unknown gain")
    assert msg.endswith("valid names are " + ", ".join(repr(n) for n in GAINS))
