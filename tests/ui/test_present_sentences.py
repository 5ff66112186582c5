"""Present's sentences where the numbers degenerate (issue 36): one result, equal grades, grades 0 and 1 only, a
cutoff past the list's end, nothing relevant, a list already ideal, variants that agree, a flat or negative
discount.  Each sentence must say what is true of the lecture's numbers.

What is true is worked out here from first principles, not through the slides: the grades a lecture counts (the
first min(k, n) of the list, the first min(k, m) of the ideal order of the m items it is built from), the divisors
log_b(i + 1) and max(1, log_b i) written with math.log, a ranking that is ideal when its counted grades are the
ideal order's.  Hand-made cases first (the links the lecturer typed), then a property over random lectures in
every language.
"""
from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.variant import Variant
from tests.conftest import LANGS
from tests.metrics.conftest import PROPERTY
from ui.i18n import t
from ui.korean import alternatives_left
from ui.pages.present import slides
from ui.pages.present.link import Lecture


def sentences(lecture: Lecture, lang: str = "en") -> dict[str, str]:
    """kind -> the sentence of the lecture's step of that kind (the first, for the position steps)."""
    out: dict[str, str] = {}
    for i in range(1, len(slides.steps(lecture)) + 1):
        s = slides.slide(lecture, i, lang)
        out.setdefault(s.kind, s.sentence)
    return out


def lecture(rels, unretrieved=(), **variant) -> Lecture:
    n = len(rels) + len(unretrieved)
    return Lecture(rels=tuple(map(float, rels)), unretrieved=tuple(map(float, unretrieved)),
                   labels=tuple(f"D{i}" for i in range(1, n + 1)), variant=Variant(**variant))


# ---- the links of the issue, by hand ---------------------------------------------------------------

def test_a_cutoff_longer_than_the_list_is_said_to_cut_nothing():
    """present?rels=1,2&k=6: k = 6 on 2 results counts 2 terms on each side (IDCG from the list: 2 items)."""
    said = sentences(lecture([1, 2], k=6))
    assert "k = 6 is longer than this list of 2" in said["ranking"]
    assert "DCG@6 adds the 2 terms there are, the same as DCG@2" in said["ranking"]
    assert "k = 6 is longer than this list of 2" in said["formula"]  # beside the formula's min(6, 2)
    f = slides.formulas(lecture([1, 2], k=6))
    assert r"\sum_{i=1}^{\min(6,\,2)}" in f["dcg"] and r"\sum_{i=1}^{\min(6,\,2)}" in f["idcg"]
    assert r"\mathrm{DCG}@6" in f["dcg"] and r"\mathrm{NDCG}@6" in f["ndcg"]


def test_the_ideal_side_of_a_long_cutoff_counts_the_judged_items():
    """rels 1, 2 with five unretrieved 3s, k = 6: DCG adds 2 terms, IDCG the first 6 of the 7 judged items."""
    said = sentences(lecture([1, 2], [3, 3, 3, 3, 3], k=6))["ranking"]
    assert "adds the 2 terms there are" in said and "all 7 judged items, so IDCG@6 counts its first 6" in said
    assert r"\sum_{i=1}^{6}" in slides.formulas(lecture([1, 2], [3, 3, 3, 3, 3], k=6))["idcg"]


def test_a_list_of_three_already_ideal_never_says_from_1_to_1():
    """present?rels=1000,5,2: already in the ideal order, so NDCG is 1 under all four variants (no judged item
    left out)."""
    said = sentences(lecture([1000, 5, 2]))
    assert said["variants"].startswith("The same ranking under the 4 common variants: every one gives NDCG 1.")
    assert "ranges from" not in said["variants"]
    assert said["ndcg"].endswith("is 1, a perfect ranking.")
    assert said["ideal"].endswith("This list is already in that order.")
    assert "the same as our DCG" in said["idcg"]
    assert "(here from 2 to 1000)" in said["ranking"]


def test_one_result():
    said = sentences(lecture([2]))
    assert said["ranking"] == "A system returned one result. Its card shows how relevant it is: its grade, 2."
    assert said["discounts"] == "This list counts one position: its gain is divided by 1."  # log2(1 + 1) = 1
    assert said["dcg"].startswith("Its one discounted gain is the DCG: 2.")
    assert "1 at position 2" not in " ".join(said.values())  # the old sentence named a position that is not there


def test_nothing_relevant():
    """Every grade 0: IDCG 0, NDCG taken as 0 by convention (0 ÷ 0 has no value)."""
    said = sentences(lecture([0, 0, 0]))
    assert "every result has grade 0" in said["ranking"] and "Grade 0 means not relevant" in said["ranking"]
    assert "every order is as good as any other" in said["ideal"]
    assert "IDCG is 0, and so is our DCG" in said["idcg"]
    assert "0 ÷ 0" in said["ndcg"] and "NDCG is taken as 0" in said["ndcg"]
    assert "every one gives NDCG 0" in said["variants"]


def test_grades_0_and_1_only_have_no_second_gain_to_point_at():
    said = sentences(lecture([1, 0, 1]))
    assert "cards show no second number" in said["gains"] and "the small number is" not in said["gains"]
    said = sentences(lecture([1, 0, 1], gain="exponential"))
    assert "that is the grade itself" in said["gains"]
    mixed = sentences(lecture([3, 1, 0]))["gains"]
    assert "the small number is" in mixed and "Grades 0 and 1 get the same gain either way" in mixed


def test_a_flat_discount_is_not_said_to_grow():
    """Järvelin–Kekäläinen with log base 10: max(1, log10 i) = 1 for i = 1..3."""
    said = sentences(lecture([3, 2, 1], discount="jarvelin", log_base=10.0))["discounts"]
    assert said.startswith("Each gain is divided by 1 at every one of these 3 positions") and "grows" not in said


def test_an_unsorted_list_a_flat_discount_cannot_tell_from_the_ideal_is_not_called_perfect():
    """0, 1 under Järvelin–Kekäläinen, log base 2: divisors max(1, log2 1) = max(1, log2 2) = 1, so DCG = 0 + 1 = 1
    = IDCG (1 + 0) and NDCG = 1, though the list is not sorted by grade (found by the property below)."""
    said = sentences(lecture([0, 1], discount="jarvelin"))
    assert "a perfect ranking" not in said["ndcg"] and "cannot tell them apart" in said["ndcg"]
    assert "exactly our DCG, although this list is not in that order" in said["idcg"]
    assert "already" not in said["ideal"]


def test_a_log_base_below_1_gives_negative_discounts():
    said = sentences(lecture([3, 2, 1], log_base=0.5))["discounts"]  # log_0.5(2) = -1, log_0.5(4) = -2
    assert "-1 at position 1 down to -2 at position 3" in said and "negative" in said


def test_a_ratio_that_rounds_to_1_is_not_called_perfect():
    """1, 1.0000000001: the ideal order swaps them, NDCG is 1 - about 2e-11, shown as 1."""
    said = sentences(lecture([1, 1.0000000001]))
    assert "to four decimals, yet just short of 1" in said["ndcg"] and "a perfect ranking." not in said["ndcg"]
    assert "(here from 1 to 1.0000000001)" in said["ranking"]  # differing grades written exactly
    assert "every one gives NDCG 1 to four decimals" in said["variants"]


def test_a_cutoff_of_one_and_one_unretrieved_item():
    said = sentences(lecture([3, 2, 1], [2], k=1))
    assert "Only the first position counts." in said["ranking"]
    assert "One more judged item was not retrieved at all." in said["ranking"]
    assert "including the one the system never retrieved" in said["ideal"]
    assert "Within the cutoff k = 1, this list already has the ideal order's grades." in said["ideal"]


# ---- a property over random lectures ---------------------------------------------------------------

def divisor(i: int, discount: str, base: float) -> float:
    """The divisor at 1-based position i, from the definitions (standard log_b(i + 1); Järvelin max(1, log_b i))."""
    return math.log(i + 1) / math.log(base) if discount == "standard" else max(1.0, math.log(i) / math.log(base))


GRADES = st.sampled_from([0.0, 1.0, 2.0, 3.0, 0.5, 7.0])
LECTURES = st.builds(
    lambda rels, unret, k, gain, discount, base, source: lecture(rels, unret, k=k, gain=gain, discount=discount,
                                                                  log_base=base, idcg=source),
    st.lists(GRADES, min_size=1, max_size=14), st.lists(GRADES, max_size=4),
    st.one_of(st.none(), st.integers(1, 20)), st.sampled_from(["linear", "exponential"]),
    st.sampled_from(["standard", "jarvelin"]), st.sampled_from([2.0, math.e, 10.0, 3.0, 0.5]),
    st.sampled_from(["judged", "list"]))


@PROPERTY
@given(lec=LECTURES, lang_index=st.integers(0, len(LANGS) - 1))
def test_every_sentence_says_what_is_true_of_its_numbers(lec, lang_index):
    lang = LANGS[lang_index]
    rels, k = list(lec.rels), lec.variant.k
    n = len(rels) if k is None else min(k, len(rels))
    items = rels + (list(lec.unretrieved) if lec.variant.idcg == "judged" else [])
    ideal = sorted(items, reverse=True)[: len(items) if k is None else min(k, len(items))]
    counted = rels[:n]
    width = max(len(ideal), len(counted))
    is_ideal = counted + [0.0] * (width - len(counted)) == ideal + [0.0] * (width - len(ideal))
    nothing = max(items) == 0

    assert lec.n_terms == n and lec.n_ideal_terms == len(ideal)
    every = {}
    for language in (lang, "en"):
        said = sentences(lec, language)
        for kind, text in said.items():  # nothing left of a template, whatever the numbers
            assert "{" not in text and "}" not in text, (kind, text)
            assert not alternatives_left(text), (kind, text)
        every[language] = said
    said = every["en"]
    # no degenerate range anywhere: "from x to x"
    for text in said.values():
        for low, high in re.findall(r"from (-?[0-9.e+-]+?) to (-?[0-9.e+-]+?)(?:\)|\.(?:\s|$))", text):
            assert low != high, text
    # the cutoff: what it cuts, said once on the ranking step and again beside the formula
    if k is not None and k > len(rels):
        for kind in ("ranking", "formula"):
            assert f"k = {k} is longer than this list" in said[kind]
    else:
        assert "is longer than this list" not in said["ranking"]
    if k is not None and k < len(rels):
        assert ("Only the first position counts." if k == 1 else f"Only the first {k} positions count.") \
            in said["ranking"]
    # the discounts at the positions that count
    divisors = [divisor(i, lec.variant.discount, lec.variant.log_base) for i in range(1, n + 1)]
    text = said["discounts"]
    if n == 1:
        assert text.startswith("This list counts one position")
    elif min(divisors) < 0:
        assert "negative" in text and "grows" not in text
    elif max(divisors) - min(divisors) < 1e-12:
        assert f"every one of these {n} positions" in text and "grows" not in text
    else:
        assert "grows with the position" in text
    for value, position in re.findall(r"(-?[0-9.e+-]+) at position (\d+)", text):
        assert math.isclose(float(value), divisors[int(position) - 1], rel_tol=1e-3, abs_tol=1e-4), text
    # DCG: how many terms
    assert said["dcg"].startswith("Its one discounted gain" if n == 1 else f"The {n} discounted gains")
    # the ideal order, IDCG and NDCG
    if nothing:
        assert "every order is as good as any other" in said["ideal"]
        assert "IDCG is 0" in said["idcg"] and "0 ÷ 0" in said["ndcg"]
    elif is_ideal:
        assert "already" in said["ideal"] and "already ideal" in said["idcg"]
        assert said["ndcg"].endswith("is 1, a perfect ranking.")
    else:
        assert "already" not in said["ideal"] and "already ideal" not in said["idcg"]
        assert ", a perfect ranking." not in said["ndcg"]
        if slides.numbers(lec)["ndcg"] == 1:  # as good as the ideal order without being in it (a flat discount)
            assert "cannot tell them apart" in said["ndcg"] and "although this list is not in that order" \
                in said["idcg"]
    # the variants: the sentence agrees with the table the step shows
    table = slides.slide(lec, len(slides.steps(lec)), "en").variants["ndcg"].tolist()
    if min(table) == max(table):
        assert "every one gives NDCG" in said["variants"] and "to four decimals" not in said["variants"]
    elif slides.shown(min(table)) == slides.shown(max(table)):
        assert "to four decimals" in said["variants"]
    else:
        assert "ranges from" in said["variants"]


@pytest.mark.parametrize("lang", LANGS)
def test_each_new_sentence_is_in_every_language(lang):
    """The degenerate cases in each language: the catalogue's own sentence, never the English one."""
    cases = [lecture([2]), lecture([0, 0, 0]), lecture([1, 2], [3], k=6), lecture([3, 2, 1], log_base=0.5),
             lecture([3, 2, 1], discount="jarvelin", log_base=10.0), lecture([1, 1.0000000001])]
    keys = {"say_ranking_one", "say_none_relevant", "say_cutoff_past", "say_cutoff_ideal_all", "say_discounts_one",
            "say_discounts_negative", "say_discounts_flat", "say_ndcg_zero", "say_ndcg_almost", "say_variants_same",
            "say_variants_close", "say_idcg_zero", "say_ideal_none", "say_dcg_one", "say_unretrieved_one"}
    shown = " ".join(" ".join(sentences(c, lang).values()) for c in cases)
    for key in keys:
        start = re.split(r"\{", t(f"present.{key}", lang=lang))[0].strip()
        assert start and start in shown, (key, start)
    if lang != "en":
        assert t("present.say_ranking_one", lang="en").split("{")[0] not in shown
