"""The steps of a lecture and what each one shows, in words and numbers; no Streamlit, no HTML.

* :func:`steps`: the order of the lecture (ranking, gains, discounts, one step per position,
  DCG, the ideal order, IDCG, NDCG, the other variants);
* :func:`slide`: what one step shows (cards, the current number, a sentence, the document's
  printed numbers beside the exact ones);
* :func:`announcement`: the step said in one sentence for a screen reader's live region (its title, the
  sentence and the current number, as the slide shows them).

Nothing here computes a metric: :func:`numbers` calls :func:`metrics.breakdown` and
:func:`metrics.all_variants`, and printed numbers are judged by :mod:`metrics.lessons.examples`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd

from metrics.lessons.examples import FORMULAS, VERDICTS, WorkedExample, judge
from metrics.ndcg import all_variants, breakdown
from metrics.registry import DISCOUNTS, GAINS
from ui.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalogue, join_words, labelled, language, t
from ui.numbers import exact as exact_text
from ui.numbers import show_trimmed
from ui.pages.present.link import Lecture

__all__ = [
    "TERM_STEPS_CAP", "CARD_CAP", "SUM_TERMS_SHOWN", "Step", "Card", "PrintedNumber", "Slide",
    "shown", "numbers", "steps", "clamp_step", "registry_name", "base_text", "variant_label", "printed_numbers",
    "slide", "announcement", "formulas", "ranking_sentences", "cutoff_sentences", "gains_sentence",
    "discounts_sentence", "ideal_sentence", "idcg_sentence", "ndcg_sentence", "variants_sentence",
]

TERM_STEPS_CAP = 10  # positions stepped through one by one; the others join the sum in one step
CARD_CAP = 16  # cards drawn per row; the numbers use every item


def shown(x: float, digits: int = 4) -> str:
    """A number as the lecture shows it (display rounding only); one too small for ``digits`` decimals but not
    zero keeps its first digits and its power of ten, so grades of 1e-300 are not shown as 0.

    >>> shown(0.91935), shown(3.0), shown(1e-300), shown(-2.5e-7, 2), shown(0.0), shown(1e200)
    ('0.9194', '3', '1e-300', '-2.5e-7', '0', '1e200')
    """
    x = float(x)
    if x != 0 and math.isfinite(x) and abs(x) < 0.5 * 10.0 ** -digits:
        mantissa, power = f"{x:.{max(digits - 1, 1)}e}".split("e")
        return f"{mantissa.rstrip('0').rstrip('.')}e{int(power)}"
    return show_trimmed(x, digits)


@lru_cache(maxsize=64)
def numbers(lecture: Lecture) -> dict:
    """Every number the lecture shows: the breakdown, the variant table and the chosen totals."""
    bd = breakdown(list(lecture.rels), k=lecture.variant.k, pool=lecture.pool, **lecture.variant.options)
    variants = all_variants(list(lecture.rels), k=lecture.variant.k, log_base=lecture.variant.log_base,
                            pool=list(lecture.rels) + list(lecture.unretrieved))
    source = lecture.variant.idcg if lecture.variant.idcg in set(variants["idcg_source"]) else "list"
    row = variants[(variants["gain"] == lecture.variant.gain) & (variants["discount"] == lecture.variant.discount)
                   & (variants["idcg_source"] == source)].iloc[0]
    return {"breakdown": bd, "variants": variants, "cg": float(row["cg"]), "dcg": float(row["dcg"]),
            "idcg": float(row["idcg"]), "ndcg": float(row["ndcg"])}


@dataclass(frozen=True)
class Step:
    """One click of the lecture: ``kind`` and, for a position's step, its 1-based ``position``."""

    kind: str  # ranking, gains, discounts, term, rest, dcg, ideal, idcg, ndcg, formula, variants
    position: int = 0


def steps(lecture: Lecture) -> list[Step]:
    """The lecture's steps in order.

    >>> [s.kind + (str(s.position) if s.position else "") for s in steps(Lecture(rels=(3.0, 2.0)))]
    ['ranking', 'gains', 'discounts', 'term1', 'term2', 'dcg', 'ideal', 'idcg', 'ndcg', 'formula', 'variants']
    """
    n = lecture.n_terms
    out = [Step("ranking"), Step("gains"), Step("discounts")]
    out += [Step("term", i) for i in range(1, min(n, TERM_STEPS_CAP) + 1)]
    if n > TERM_STEPS_CAP:
        out.append(Step("rest", TERM_STEPS_CAP + 1))
    out += [Step("dcg"), Step("ideal"), Step("idcg"), Step("ndcg"), Step("formula"), Step("variants")]
    return out


def clamp_step(step: int | None, lecture: Lecture) -> int:
    """A 1-based step within the lecture (None: the first; past the end: the last)."""
    last = len(steps(lecture))
    return 1 if step is None else max(1, min(int(step), last))


# ---------------------------------------------------------------------------------------------
# What one step shows
# ---------------------------------------------------------------------------------------------

def registry_name(kind: str, key: str, lang: str) -> str:
    """Name of a gain, discount or verdict in ``lang`` (English from metrics/, the others from the catalogue).

    >>> registry_name("verdict", "truncation", "en"), registry_name("gain", "linear", "en")
    ('Truncation', 'Linear gain')
    """
    entry = {"gain": GAINS, "discount": DISCOUNTS, "verdict": VERDICTS}[kind][key]
    if lang != DEFAULT_LANGUAGE:
        text = catalogue(lang).get(f"registry.{kind}.{key}.name")
        if text:
            return text
    return entry.name


def base_text(base: float) -> str:
    return "e" if base == math.e else shown(base)


def variant_label(lecture: Lecture, lang: str) -> str:
    """The variant named in words: gain · discount · log base · IDCG source · k."""
    parts = [registry_name("gain", lecture.variant.gain, lang),
             registry_name("discount", lecture.variant.discount, lang),
             t("present.log_base", lang=lang, base=base_text(lecture.variant.log_base)),
             t(f"present.idcg_{lecture.variant.idcg}", lang=lang)]
    if lecture.variant.k:
        parts.append(t("present.cutoff", lang=lang, k=lecture.variant.k))
    return " · ".join(parts)


@dataclass(frozen=True)
class Card:
    """One result on screen."""

    label: str
    grade: float
    position: int  # its rank in the row it is drawn in (1-based)
    gain: float | None = None  # shown from the gains step on
    other_gain: float | None = None  # the other gain (rel vs 2^rel - 1) where it differs
    divisor: float | None = None
    term: float | None = None  # discounted gain, once it joined the sum
    state: str = ""  # "current", "beyond" (past k), "unretrieved", "" otherwise
    moved_from: int = 0  # ideal row: the item's rank in the list (0: not retrieved)


@dataclass(frozen=True)
class PrintedNumber:
    """A number the source document prints, beside the exact value and the verdict."""

    what: str  # translated name of the quantity
    printed: str
    exact: str
    verdict: str  # translated verdict name
    kind: str  # verdict kind key


@dataclass
class Slide:
    kind: str
    index: int  # 1-based
    total: int
    title: str
    sentence: str
    number_label: str = ""
    number: float | None = None
    cards: list[Card] = field(default_factory=list)
    ideal_cards: list[Card] = field(default_factory=list)
    sum_label: str = ""
    sum_terms: list[float] = field(default_factory=list)  # the discounted gains added so far
    sum_more: int = 0  # terms not written out
    sum_total: float | None = None
    chart: str = ""  # "curve" (discount curve), "bars" (discounted gains), "" none
    mark: int = 0  # position marked on the curve
    facts: list[tuple[str, str]] = field(default_factory=list)  # (name, value) pairs shown small
    printed: list[PrintedNumber] = field(default_factory=list)
    variants: pd.DataFrame | None = None  # gain, discount, idcg_source, ndcg, chosen
    formulas: dict[str, str] = field(default_factory=dict)  # dcg, idcg, ndcg: LaTeX with the numbers written in
    hidden_cards: int = 0  # cards of the list not drawn (CARD_CAP)
    hidden_ideal: int = 0


SUM_TERMS_SHOWN = 10


def _gains(grade: float, gain: str) -> tuple[float, float | None]:
    linear, exponential = grade, 2.0 ** grade - 1.0
    chosen, other = (linear, exponential) if gain == "linear" else (exponential, linear)
    return chosen, (other if other != chosen else None)


def _list_cards(lecture: Lecture, bd: pd.DataFrame, upto: int, stage: int, current: int = 0) -> list[Card]:
    """The ranked list's cards.  ``stage``: 0 grades, 1 + gains, 2 + divisors; terms up to ``upto``."""
    cards = []
    n = lecture.n_terms
    for i, grade in enumerate(lecture.rels[:CARD_CAP], start=1):
        inside = i <= n
        gain = other = divisor = term = None
        if stage >= 1:
            if inside:
                gain = float(bd["gain"].iloc[i - 1])
                other = _gains(grade, lecture.variant.gain)[1]
            else:
                gain, other = _gains(grade, lecture.variant.gain)
        if stage >= 2 and inside:
            divisor = float(bd["discount"].iloc[i - 1])
        if inside and i <= upto:
            term = float(bd["discounted_gain"].iloc[i - 1])
        state = "beyond" if not inside else ("current" if i == current else "")
        cards.append(Card(lecture.labels[i - 1] if i - 1 < len(lecture.labels) else f"D{i}", grade, i, gain, other,
                          divisor, term, state))
    return cards


def _ideal_cards(lecture: Lecture, bd: pd.DataFrame, with_terms: bool) -> list[Card]:
    """The ideal order: the items the ideal ranking is built from, by grade (ties keep list order)."""
    items = list(enumerate(lecture.rels, start=1))
    if lecture.variant.idcg == "judged":
        items += [(0, g) for g in lecture.unretrieved]
    labels = list(lecture.labels)
    named = []
    for j, (rank, grade) in enumerate(items):
        label = labels[j] if j < len(labels) else f"D{j + 1}"
        named.append((rank, grade, label))
    order = sorted(named, key=lambda x: -x[1])  # stable: equal grades keep their order
    n_ideal = int(bd["ideal_relevance"].notna().sum())
    cards = []
    for i, (rank, grade, label) in enumerate(order[:CARD_CAP], start=1):
        inside = i <= n_ideal
        term = float(bd["ideal_discounted_gain"].iloc[i - 1]) if (with_terms and inside) else None
        gain = float(bd["ideal_gain"].iloc[i - 1]) if inside else _gains(grade, lecture.variant.gain)[0]
        state = "beyond" if not inside else ("unretrieved" if rank == 0 else "")
        cards.append(Card(label, grade, i, gain, None, float(bd["discount"].iloc[i - 1]) if inside else None,
                          term, state, moved_from=rank))
    return cards


def _matches(lecture: Lecture, example: WorkedExample, p) -> bool:
    """Whether a printed number of ``example`` is a number of this lecture (same ranking and formula)."""
    f = FORMULAS[p.implied].variant
    if p.quantity in ("relevances", "ideal_vector"):
        same = True
    elif p.quantity == "divisor":
        same = (f.discount, f.log_base) == (lecture.variant.discount, lecture.variant.log_base)
    elif p.quantity == "cg":
        same = f.gain == lecture.variant.gain
    else:
        same = f.options == lecture.variant.options
    if not same or tuple(example.relevances) != lecture.rels or example.k != lecture.variant.k:
        return False
    if p.quantity in ("idcg_term", "idcg", "ndcg", "ideal_vector"):
        want = sorted(example.pool if example.pool is not None else example.relevances)
        have = sorted(lecture.pool if lecture.pool is not None else lecture.rels)
        return want == have
    return True


def printed_numbers(lecture: Lecture, quantities: tuple[str, ...], lang: str, position: int | None = None
                    ) -> list[PrintedNumber]:
    """The document's printed numbers of these quantities (at ``position``), judged."""
    example = lecture.example
    if example is None:
        return []
    out = []
    for p in example.printed:
        if p.quantity not in quantities or (position is not None and p.position not in (None, position)):
            continue
        if position is None and p.position is not None and p.quantity not in ("idcg_term",):
            continue
        if not _matches(lecture, example, p):
            continue
        v = judge(example, p)
        if v.exact is None:  # a printed list: the computed list
            exact = v.values.get("computed", "")
        elif p.text.strip().endswith("%"):  # written like the document: a percent with two more places
            exact = shown(v.exact * 100, 4) + "%"
        else:
            exact = shown(v.exact)
        what = t(f"present.q_{p.quantity}", lang=lang, position=p.position or "")
        out.append(PrintedNumber(what, p.text, exact, registry_name("verdict", v.kind, lang), v.kind))
    return out


def slide(lecture: Lecture, step: int, lang: str) -> Slide:
    """What step ``step`` (1-based, clamped) of the lecture shows, in ``lang``."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    all_steps = steps(lecture)
    index = clamp_step(step, lecture)
    st_ = all_steps[index - 1]
    nums = numbers(lecture)
    bd = nums["breakdown"]
    n = lecture.n_terms
    title = t(f"present.title_{st_.kind}", lang=lang, position=st_.position, n=n)
    s = Slide(kind=st_.kind, index=index, total=len(all_steps), title=title, sentence="")
    s.hidden_cards = max(0, len(lecture.rels) - CARD_CAP)
    kind = st_.kind

    def tt(key: str, **fmt) -> str:
        return t(f"present.{key}", lang=lang, **fmt)

    terms = bd["discounted_gain"].iloc[:n].tolist()
    if kind == "ranking":
        s.cards = _list_cards(lecture, bd, 0, 0)
        s.sentence = " ".join(ranking_sentences(lecture, lang))
        s.printed = printed_numbers(lecture, ("relevances",), lang)
    elif kind == "gains":
        s.cards = _list_cards(lecture, bd, 0, 1)
        s.sentence = gains_sentence(lecture, lang)
        s.number_label, s.number = tt("cg"), nums["cg"]
        s.printed = printed_numbers(lecture, ("cg",), lang)
    elif kind == "discounts":
        s.cards = _list_cards(lecture, bd, 0, 2)
        s.sentence = discounts_sentence(bd["discount"].iloc[:n].tolist(), lang)
        s.chart, s.mark = "curve", 0
    elif kind in ("term", "rest"):
        upto = st_.position if kind == "term" else n
        s.cards = _list_cards(lecture, bd, upto, 2, current=st_.position if kind == "term" else 0)
        s.chart, s.mark = "curve", (st_.position if kind == "term" else 0)
        s.sum_label, s.sum_terms = tt("running_dcg"), terms[:upto]
        s.sum_total = float(bd["dcg"].iloc[upto - 1])
        s.number_label, s.number = tt("running_dcg"), s.sum_total
        if kind == "term":
            i = st_.position
            s.sentence = tt("say_term", position=i, gain=shown(bd["gain"].iloc[i - 1]),
                            divisor=shown(bd["discount"].iloc[i - 1]), term=shown(terms[i - 1]),
                            total=shown(s.sum_total))
            s.facts = [(tt("term_at", position=i), shown(terms[i - 1]))]
            s.printed = printed_numbers(lecture, ("divisor", "dcg_term"), lang, position=i)
        else:
            s.sentence = tt("say_rest", first=st_.position, n=n, total=shown(s.sum_total))
    elif kind == "dcg":
        s.cards = _list_cards(lecture, bd, n, 2)
        s.sum_label, s.sum_terms, s.sum_total = tt("dcg"), terms, nums["dcg"]
        s.number_label, s.number = tt("dcg"), nums["dcg"]
        s.sentence = tt("say_dcg" if n > 1 else "say_dcg_one", n=n, dcg=shown(nums["dcg"]))
        s.chart = "bars"
        s.printed = printed_numbers(lecture, ("dcg",), lang)
    elif kind in ("ideal", "idcg"):
        s.cards = _list_cards(lecture, bd, n, 0)  # grades and terms: the gains and divisors were on earlier steps
        s.ideal_cards = _ideal_cards(lecture, bd, with_terms=(kind == "idcg"))
        n_items = len(lecture.rels) + (len(lecture.unretrieved) if lecture.variant.idcg == "judged" else 0)
        s.hidden_ideal = max(0, n_items - CARD_CAP)
        s.facts = [(tt("dcg"), shown(nums["dcg"]))]
        if kind == "ideal":
            s.sentence = ideal_sentence(lecture, bd, lang)
            s.printed = printed_numbers(lecture, ("ideal_vector",), lang)
        else:
            ideal_terms = bd["ideal_discounted_gain"].dropna().tolist()
            s.sum_label, s.sum_terms, s.sum_total = tt("idcg"), ideal_terms, nums["idcg"]
            s.number_label, s.number = tt("idcg"), nums["idcg"]
            s.sentence = idcg_sentence(lecture, bd, nums, lang)
            s.chart = "bars"
            s.printed = printed_numbers(lecture, ("idcg_term", "idcg"), lang)
    elif kind == "ndcg":
        s.cards = _list_cards(lecture, bd, n, 2)
        s.facts = [(tt("dcg"), shown(nums["dcg"])), (tt("idcg"), shown(nums["idcg"]))]
        s.number_label, s.number = tt("ndcg"), nums["ndcg"]
        s.sentence = ndcg_sentence(nums, lang, ideal=_already_ideal(lecture, bd))
        s.chart = "bars"
        s.printed = printed_numbers(lecture, ("ndcg",), lang)
    elif kind == "formula":
        s.number_label, s.number = tt("ndcg"), nums["ndcg"]
        s.sentence = " ".join([tt("say_formula"), *cutoff_sentences(lecture, lang)])
        s.formulas = formulas(lecture)
    else:  # variants
        v = nums["variants"].copy()
        has_judged = bool(lecture.unretrieved)
        if not has_judged:
            v = v[v["idcg_source"] == "list"]
        chosen_source = lecture.variant.idcg if has_judged else "list"
        v["chosen"] = ((v["gain"] == lecture.variant.gain) & (v["discount"] == lecture.variant.discount)
                       & (v["idcg_source"] == chosen_source))
        s.variants = v.reset_index(drop=True)
        s.number_label, s.number = tt("ndcg"), nums["ndcg"]
        s.sentence = variants_sentence(v["ndcg"].tolist(), lang)
    return s


# ---------------------------------------------------------------------------------------------
# The sentences built from numbers: each says what is true of these numbers, also where they degenerate
# (one result, equal grades, grades of 0 and 1 only, a cutoff past the list's end, no relevant item, an
# ideal list, equal variants, a log base below 1).
# ---------------------------------------------------------------------------------------------

def ranking_sentences(lecture: Lecture, lang: str) -> list[str]:
    """The ranking step: how many results, their grades, the cutoff, the items not retrieved.

    >>> ranking_sentences(Lecture(rels=(2.0,)), "en")[0]
    'A system returned one result. Its card shows how relevant it is: its grade, 2.'
    >>> ranking_sentences(Lecture(rels=(0.0, 0.0)), "en")[1]
    'Grade 0 means not relevant: nothing in this list is.'
    """
    rels = lecture.rels
    low, top = min(rels), max(rels)
    if len(rels) == 1:
        out = [t("present.say_ranking_one", lang=lang, top=shown(top))]
    elif low == top:
        out = [t("present.say_ranking_same", lang=lang, n=len(rels), top=shown(top))]
    else:  # grades that differ beyond the shown digits are written exactly, never "from 1 to 1"
        write = shown if shown(low) != shown(top) else exact_text
        out = [t("present.say_ranking", lang=lang, n=len(rels), low=write(low), top=write(top))]
    if top == 0:
        out.append(t("present.say_none_relevant", lang=lang))
    out += cutoff_sentences(lecture, lang)
    m = len(lecture.unretrieved)
    if m:
        out.append(t("present.say_unretrieved" if m > 1 else "present.say_unretrieved_one", lang=lang, m=m))
    return out


def cutoff_sentences(lecture: Lecture, lang: str) -> list[str]:
    """What the cutoff k means for this list: it cuts the list, or it is longer than the list and cuts nothing
    (the formula's sum stops at the list's end, :func:`metrics.ndcg.positions_counted`); and how many
    positions the ideal side counts when it is built from more items than the list has.

    >>> from metrics.variant import Variant
    >>> cutoff_sentences(Lecture(rels=(1.0, 2.0), variant=Variant(k=6)), "en")
    ['The cutoff k = 6 is longer than this list of 2: it cuts nothing, and DCG@6 adds the 2 terms there are, \
the same as DCG@2.']
    >>> cutoff_sentences(Lecture(rels=(3.0, 1.0), variant=Variant(k=1)), "en")
    ['Only the first position counts.']
    >>> cutoff_sentences(Lecture(rels=(3.0, 1.0)), "en")
    []
    """
    k, n = lecture.variant.k, len(lecture.rels)
    if k is None:
        return []
    out = []
    if k < n:
        out.append(t("present.say_cutoff" if k > 1 else "present.say_cutoff_one", lang=lang, k=k))
    elif k > n:
        out.append(t("present.say_cutoff_past" if n > 1 else "present.say_cutoff_past_one", lang=lang, k=k, n=n))
    items, m = lecture.n_ideal_items, lecture.n_ideal_terms
    if items > n and m != lecture.n_terms:
        out.append(t("present.say_cutoff_ideal" if m < items else "present.say_cutoff_ideal_all", lang=lang, k=k,
                     m=m, items=items))
    return out


def gains_sentence(lecture: Lecture, lang: str) -> str:
    """The gains step: which gain, and what the small second number on the cards is (where there is one: the two
    gains agree on grades 0 and 1).

    >>> gains_sentence(Lecture(rels=(1.0, 0.0)), "en").endswith("so the cards show no second number.")
    True
    """
    agree = [_gains(g, lecture.variant.gain)[1] is None for g in lecture.rels]
    gain = "linear" if lecture.variant.gain == "linear" else "exponential"
    if all(agree):
        return t(f"present.say_gains_{gain}_same", lang=lang)
    out = t(f"present.say_gains_{gain}", lang=lang)
    return out + " " + t("present.say_gains_some_same", lang=lang) if any(agree) else out


def discounts_sentence(divisors: list[float], lang: str) -> str:
    """The discounts step, from the divisors of the positions that count: one position, the same divisor at
    every position (a Järvelin–Kekäläinen discount with a large log base), negative divisors (a log base below
    1), or growing ones.

    >>> discounts_sentence([1.0], "en")
    'This list counts one position: its gain is divided by 1.'
    >>> discounts_sentence([1.0, 1.0, 1.0], "en")
    'Each gain is divided by 1 at every one of these 3 positions: with this discount and log base, no position \
here counts less than another.'
    """
    n = len(divisors)
    first, last = divisors[0], divisors[-1]
    fmt = {"first": shown(first), "second": shown(divisors[1]) if n > 1 else "", "last": shown(last), "n": n}
    if n == 1:
        return t("present.say_discounts_one", lang=lang, **fmt)
    if min(divisors) < 0:
        return t("present.say_discounts_negative", lang=lang, **fmt)
    if min(divisors) == max(divisors):
        return t("present.say_discounts_flat", lang=lang, **fmt)
    return t("present.say_discounts" if n > 2 else "present.say_discounts_two", lang=lang, **fmt)


def _already_ideal(lecture: Lecture, bd: pd.DataFrame) -> bool:
    """Whether the list's grades at the positions that count are the ideal order's (missing positions: 0)."""
    ideal = bd["ideal_relevance"].fillna(0.0).tolist()
    mine = list(lecture.rels[:lecture.n_terms]) + [0.0] * max(0, len(ideal) - lecture.n_terms)
    ideal += [0.0] * max(0, len(mine) - len(ideal))
    return mine == ideal


def ideal_sentence(lecture: Lecture, bd: pd.DataFrame, lang: str) -> str:
    """The ideal-order step: which items the ideal order sorts, and whether this list is already in it.

    >>> ideal_sentence(Lecture(rels=(3.0, 1.0)), numbers(Lecture(rels=(3.0, 1.0)))["breakdown"], "en")
    'The best possible order sorts the same results by grade, best first. This list is already in that order.'
    """
    judged = lecture.variant.idcg == "judged" and bool(lecture.unretrieved)
    m = len(lecture.unretrieved)
    out = t("present.say_ideal_judged" if judged else "present.say_ideal_list", lang=lang, m=m)
    if judged and m == 1:
        out = t("present.say_ideal_judged_one", lang=lang)
    pool = lecture.pool if lecture.pool is not None else list(lecture.rels)
    if max(pool) == 0:
        return out + " " + t("present.say_ideal_none", lang=lang)
    if _already_ideal(lecture, bd):
        cut = lecture.variant.k is not None and lecture.variant.k < len(lecture.rels)
        return out + " " + t("present.say_ideal_already_k" if cut else "present.say_ideal_already", lang=lang,
                             k=lecture.variant.k)
    return out


def idcg_sentence(lecture: Lecture, bd: pd.DataFrame, nums: dict, lang: str) -> str:
    """The IDCG step: the ideal order's score against ours (0 when nothing has a gain; ours when the list is
    ideal)."""
    fmt = {"idcg": shown(nums["idcg"]), "dcg": shown(nums["dcg"])}
    if nums["idcg"] == 0:
        return t("present.say_idcg_zero", lang=lang, **fmt)
    if _already_ideal(lecture, bd):
        return t("present.say_idcg_same", lang=lang, **fmt)
    if nums["idcg"] == nums["dcg"]:  # not in the ideal order, yet as good: the discount does not tell them apart
        return t("present.say_idcg_tie", lang=lang, **fmt)
    return t("present.say_idcg", lang=lang, **fmt)


def ndcg_sentence(nums: dict, lang: str, *, ideal: bool = True) -> str:
    """The NDCG step: DCG as a share of IDCG; a perfect ranking (``ideal``: the list is in the ideal order), an
    order that scores as much as the ideal one without being in it (a discount equal at the positions where they
    differ), one just short of 1 that rounds to 1, or no IDCG to divide by.

    >>> ndcg_sentence({"dcg": 2.0, "idcg": 2.0, "ndcg": 1.0}, "en")
    'NDCG is our DCG as a share of the ideal one: 2 out of 2 is 1, a perfect ranking.'
    """
    fmt = {"dcg": shown(nums["dcg"]), "idcg": shown(nums["idcg"]), "ndcg": shown(nums["ndcg"])}
    if nums["idcg"] == 0:
        return t("present.say_ndcg_zero", lang=lang, **fmt)
    if nums["ndcg"] == 1:
        return t("present.say_ndcg_perfect" if ideal else "present.say_ndcg_tie", lang=lang, **fmt)
    if shown(nums["ndcg"]) == shown(1.0):
        return t("present.say_ndcg_almost", lang=lang, **fmt)
    return t("present.say_ndcg", lang=lang, **fmt)


def variants_sentence(values: list[float], lang: str) -> str:
    """The variants step: how far the common variants' NDCG spread (all equal, equal as shown, or a range).

    >>> variants_sentence([1.0, 1.0, 1.0, 1.0], "en")
    'The same ranking under the 4 common variants: every one gives NDCG 1. Here the choice does not matter; \
in general, always say which variant you used.'
    """
    low, high = min(values), max(values)
    fmt = {"count": len(values), "low": shown(low), "high": shown(high)}
    if low == high:
        return t("present.say_variants_same", lang=lang, **fmt)
    if shown(low) == shown(high):
        return t("present.say_variants_close", lang=lang, **fmt)
    return t("present.say_variants", lang=lang, **fmt)




def formulas(lecture: Lecture) -> dict[str, str]:
    r"""DCG, IDCG and NDCG in symbols with the lecture's grades, positions and totals written in (the playground's
    :func:`ui.pages.playground.explain.formula_latex`, from the registry's templates); LaTeX for KaTeX.

    >>> f = formulas(Lecture(rels=(3.0, 2.0)))
    >>> print(f["ndcg"])
    \mathrm{NDCG} = \frac{\mathrm{DCG}}{\mathrm{IDCG}} = \frac{4.262}{4.262} = 1
    >>> print(f["dcg"].replace(" \\\\ ", "\n"))
    \begin{aligned}\mathrm{DCG}@2 &= \sum_{i=1}^{2} \frac{rel_{i}}{\log_{2}(i+1)}
    &= \frac{3}{\log_{2}(2)} + \frac{2}{\log_{2}(3)}
    &= 3 + 1.262
    &= 4.262\end{aligned}
    """
    from ui.pages.playground.explain import formula_latex

    nums = numbers(lecture)
    bd = nums["breakdown"]
    return formula_latex(bd, values=nums, n_actual=lecture.n_terms, n_ideal=int(bd["ideal_relevance"].notna().sum()),
                         k=lecture.variant.k, **lecture.variant.options)


def announcement(s: Slide, lang: str) -> str:
    """What a screen reader says when the lecture reaches this slide (a polite live region's text): the step
    and its title, the sentence, the current number with its label, the facts beside it, the grades or gains on
    the cards where the step is about them, and the document's printed numbers beside the exact ones.  Every
    number is written as the slide shows it.

    >>> from ui.pages.present.link import Lecture
    >>> lecture = Lecture(rels=(3.0, 2.0), labels=("A", "B"))
    >>> announcement(slide(lecture, 5, "en"), "en")
    'Step 5 of 11: Position 2. Position 2: gain 2 divided by 1.585 gives 1.2619. DCG so far: 4.2619. \
DCG so far: 4.2619. Discounted gain at position 2: 1.2619.'
    """
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE

    def tt(key: str, **fmt) -> str:
        return t(f"present.{key}", lang=lang, **fmt)

    way = language(lang)

    def sentence(text: str) -> str:
        text = text.strip()
        return text if not text or text[-1] in ".!?。．！？" else text + way.stop

    def cards(label: str, values, hidden: int) -> str:
        return sentence(labelled(tt(label), join_words(values, lang), lang)
                        + (" " + tt("more_cards", m=hidden) if hidden else ""))

    parts = [sentence(labelled(tt("step_of", index=s.index, total=s.total), s.title, lang)), sentence(s.sentence)]
    if s.kind == "ranking" and s.cards:
        parts.append(cards("q_relevances", (shown(c.grade) for c in s.cards), s.hidden_cards))
    elif s.kind == "gains" and s.cards:
        parts.append(cards("announce_gains", (shown(c.gain) for c in s.cards), s.hidden_cards))
    elif s.kind == "ideal" and s.ideal_cards:
        parts.append(cards("q_ideal_vector", (shown(c.grade) for c in s.ideal_cards), s.hidden_ideal))
    if s.number is not None:
        parts.append(sentence(labelled(s.number_label, shown(s.number), lang)))
    parts += [sentence(labelled(name, value, lang)) for name, value in s.facts]
    if s.printed:
        printed = way.clause_sep.join(
            tt("announce_printed", what=p.what, printed=p.printed, exact=p.exact, verdict=p.verdict) for p in s.printed)
        parts.append(sentence(labelled(tt("doc_prints"), printed, lang)))
    return " ".join(p for p in parts if p)
