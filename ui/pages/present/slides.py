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
from ui.numbers import show_trimmed
from ui.pages.present.link import Lecture

__all__ = [
    "TERM_STEPS_CAP", "CARD_CAP", "SUM_TERMS_SHOWN", "Step", "Card", "PrintedNumber", "Slide",
    "shown", "numbers", "steps", "clamp_step", "registry_name", "base_text", "variant_label", "printed_numbers",
    "slide", "announcement", "formulas",
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
        top = max(lecture.rels)
        s.sentence = tt("say_ranking", n=len(lecture.rels), top=shown(top))
        if lecture.variant.k and lecture.variant.k < len(lecture.rels):
            s.sentence += " " + tt("say_cutoff", k=lecture.variant.k)
        if lecture.unretrieved:
            s.sentence += " " + tt("say_unretrieved", m=len(lecture.unretrieved))
        s.printed = printed_numbers(lecture, ("relevances",), lang)
    elif kind == "gains":
        s.cards = _list_cards(lecture, bd, 0, 1)
        key = "say_gains_linear" if lecture.variant.gain == "linear" else "say_gains_exponential"
        s.sentence = tt(key)
        s.number_label, s.number = tt("cg"), nums["cg"]
        s.printed = printed_numbers(lecture, ("cg",), lang)
    elif kind == "discounts":
        s.cards = _list_cards(lecture, bd, 0, 2)
        divs = bd["discount"].iloc[:n].tolist()
        s.sentence = tt("say_discounts", first=shown(divs[0]), second=shown(divs[1]) if n > 1 else shown(divs[0]),
                        last=shown(divs[-1]), n=n)
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
        s.sentence = tt("say_dcg", n=n, dcg=shown(nums["dcg"]))
        s.chart = "bars"
        s.printed = printed_numbers(lecture, ("dcg",), lang)
    elif kind in ("ideal", "idcg"):
        s.cards = _list_cards(lecture, bd, n, 0)  # grades and terms: the gains and divisors were on earlier steps
        s.ideal_cards = _ideal_cards(lecture, bd, with_terms=(kind == "idcg"))
        n_items = len(lecture.rels) + (len(lecture.unretrieved) if lecture.variant.idcg == "judged" else 0)
        s.hidden_ideal = max(0, n_items - CARD_CAP)
        s.facts = [(tt("dcg"), shown(nums["dcg"]))]
        if kind == "ideal":
            key = "say_ideal_judged" if (lecture.variant.idcg == "judged" and lecture.unretrieved) else "say_ideal_list"
            s.sentence = tt(key, m=len(lecture.unretrieved))
            s.printed = printed_numbers(lecture, ("ideal_vector",), lang)
        else:
            ideal_terms = bd["ideal_discounted_gain"].dropna().tolist()
            s.sum_label, s.sum_terms, s.sum_total = tt("idcg"), ideal_terms, nums["idcg"]
            s.number_label, s.number = tt("idcg"), nums["idcg"]
            s.sentence = tt("say_idcg", idcg=shown(nums["idcg"]), dcg=shown(nums["dcg"]))
            s.chart = "bars"
            s.printed = printed_numbers(lecture, ("idcg_term", "idcg"), lang)
    elif kind == "ndcg":
        s.cards = _list_cards(lecture, bd, n, 2)
        s.facts = [(tt("dcg"), shown(nums["dcg"])), (tt("idcg"), shown(nums["idcg"]))]
        s.number_label, s.number = tt("ndcg"), nums["ndcg"]
        key = "say_ndcg" if nums["idcg"] != 0 else "say_ndcg_zero"
        s.sentence = tt(key, dcg=shown(nums["dcg"]), idcg=shown(nums["idcg"]), ndcg=shown(nums["ndcg"]))
        s.chart = "bars"
        s.printed = printed_numbers(lecture, ("ndcg",), lang)
    elif kind == "formula":
        s.number_label, s.number = tt("ndcg"), nums["ndcg"]
        s.sentence = tt("say_formula")
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
        low, high = float(v["ndcg"].min()), float(v["ndcg"].max())
        s.sentence = tt("say_variants", count=len(v), low=shown(low), high=shown(high))
    return s




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
