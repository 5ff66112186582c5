"""The source documents' worked examples, as data, and a judge for every number they print.

Each :class:`WorkedExample` records what one document in ``data/seeds/`` (000..004, copies of
``../shared/seeds``) writes: its input grades, the formula it *names* (writes down) for each number, the formula its
numbers actually *follow*, and every number it prints, exactly as printed (text), with
its position when it is a per-position term.  Nothing here is a computed result: exact
values are computed at run time by :mod:`metrics.ndcg`, and :func:`judge` compares each
printed number with them and names what happened (:data:`VERDICTS`).

Never "fix" a document's number: a verdict shows the printed value beside the exact one.

>>> v = judge(EXAMPLES["000-graded"], "ndcg")
>>> v.kind, v.printed.text, v.rounded, round(v.exact, 4)
('truncation', '0.91', '0.92', 0.9194)
>>> judge(EXAMPLES["003-blog"], "idcg").kinds  # its terms add to 8.37, one of them (0.35) cut off
('carried_forward', 'mislabelled_formula', 'different_idcg_items')
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a table is built
    import pandas as pd

from .._validation import check_choice
from ..ndcg import breakdown, cg, dcg, idcg, ndcg
from ..registry import Choice, resolve_gain
from ..variant import Variant

__all__ = [
    "Formula",
    "FORMULAS",
    "Printed",
    "IdcgItems",
    "WorkedExample",
    "VERDICTS",
    "Verdict",
    "EXAMPLES",
    "DOCUMENTS",
    "ITEMS_004",
    "REC_SYS_004",
    "GROUND_TRUTH_004",
    "examples_for",
    "setup",
    "printed_totals",
    "printed_places",
    "printed_decimal",
    "exact_value",
    "recomputed_value",
    "judge",
    "judge_all",
    "findings",
    "position_table",
    "code_004_ndcg",
    "explanation_values",
]


# --------------------------------------------------------------------------- formulas
@dataclass(frozen=True)
class Formula:
    """A DCG formula as a document writes it: its key (what the pages call it) and its
    :class:`metrics.variant.Variant` (gain, discount and log base; the IDCG source and the cutoff are the
    worked example's, not the formula's).

    >>> FORMULAS["binary_ln"].variant.options == {"gain": "binary", "discount": "standard", "log_base": math.e}
    True
    >>> print(FORMULAS["jarvelin"].variant.latex("p"))
    \\mathrm{DCG}@p = \\sum_{i=1}^{p} \\frac{rel_{i}}{\\max(1, \\log_{2} i)}
    """

    key: str
    variant: Variant


FORMULAS: dict[str, Formula] = {
    # rel_1 + sum_{i>=2} rel_i / log2(i)  (000's first formula; Järvelin & Kekäläinen with b = 2)
    "jarvelin": Formula("jarvelin", Variant(discount="jarvelin")),
    # sum rel_i / log2(i + 1)
    "linear": Formula("linear", Variant()),
    # sum (2^rel_i - 1) / log2(i + 1)
    "exponential": Formula("exponential", Variant(gain="exponential")),
    # 004's code: 1 per hit / ln(i + 1)
    "binary_ln": Formula("binary_ln", Variant(gain="binary", log_base=math.e)),
}


# --------------------------------------------------------------------------- printed numbers
QUANTITIES = ("cg", "divisor", "dcg_term", "dcg", "idcg_term", "idcg", "ndcg", "relevances", "ideal_vector")
_SUMS = {"dcg": "dcg_term", "idcg": "idcg_term"}


@dataclass(frozen=True)
class Printed:
    """One number (or list) exactly as a document prints it.

    ``named`` is the key in :data:`FORMULAS` of the formula the document writes for it,
    ``implied`` the one its value follows.  For an NDCG, ``named_ideal`` is the formula the
    document writes for the IDCG when it differs from the DCG's.  ``variant`` tells apart
    columns of one table computed with different formulas (001's book example).
    """

    quantity: str
    text: str
    named: str
    implied: str
    position: int | None = None
    named_ideal: str | None = None
    variant: str = ""

    @property
    def key(self) -> str:
        parts = [self.quantity] + ([self.variant] if self.variant else []) + (
            [str(self.position)] if self.position is not None else [])
        return "_".join(parts)


@dataclass(frozen=True)
class IdcgItems:
    """Which items the ideal ranking is built from: ``pool`` grades (None = re-sort the list itself)."""

    key: str  # i18n key suffix naming the set, e.g. "list", "recalled8", "purchases5", "ground_truth"
    pool: tuple[float, ...] | None = None
    labels: tuple[str, ...] | None = None  # the items' names, one per pool grade, when the document names them


@dataclass(frozen=True)
class WorkedExample:
    key: str
    doc: str  # "000" .. "004"
    source: str  # file name in data/seeds
    lang: str  # language of the document: "zh" or "ko"
    relevances: tuple[float, ...]
    labels: tuple[str, ...] | None
    k: int | None
    named: str  # formula the document writes for this example
    implied: str  # formula its numbers follow
    printed: tuple[Printed, ...]
    quote: str  # the document's own words, in its language
    idcg_items: IdcgItems = IdcgItems("list")
    alt_idcg_items: IdcgItems | None = None  # the contrast the page shows
    notes: tuple[str, ...] = ()  # example-level verdict kinds (see findings())
    variants: tuple[str, ...] = ("",)

    @property
    def pool(self):
        return self.idcg_items.pool

    @property
    def unretrieved(self) -> tuple[tuple[str | None, float], ...]:
        """The judged items the list does not hold, as (name or None, grade), highest grade first.

        >>> EXAMPLES["001-main"].unretrieved, EXAMPLES["004-recsys1"].unretrieved
        (((None, 3.0), (None, 0.0)), (('B', 3.0), ('G', 0.0)))
        """
        items = self.idcg_items
        if items.pool is None:
            return ()
        if items.labels is not None and self.labels is not None:
            left = [(name, g) for name, g in zip(items.labels, items.pool) if name not in self.labels]
        else:
            counts = Counter(items.pool)
            counts.subtract(Counter(self.relevances))
            left = [(None, g) for g in counts.elements()]
        return tuple(sorted(left, key=lambda item: -item[1]))

    def get(self, key: str) -> Printed:
        for p in self.printed:
            if p.key == key:
                return p
        valid = ", ".join(repr(p.key) for p in self.printed)
        raise ValueError(f"example {self.key!r} prints no {key!r}; it prints {valid}")


def _seq(quantity: str, texts, named: str, implied: str | None = None, variant: str = "") -> tuple[Printed, ...]:
    return tuple(
        Printed(quantity, t, named, implied or named, position=i, variant=variant)
        for i, t in enumerate(texts, start=1) if t is not None
    )


def _one(quantity: str, text: str, named: str, implied: str | None = None, *, named_ideal=None,
         variant: str = "") -> Printed:
    return Printed(quantity, text, named, implied or named, named_ideal=named_ideal, variant=variant)


# --------------------------------------------------------------------------- document 004's items
ITEMS_004: dict[str, float] = {"A": 3, "B": 3, "C": 2, "D": 2, "E": 1, "F": 1, "G": 0}  # "나머지=0"
REC_SYS_004: dict[str, tuple[str, ...]] = {
    "rec_sys_1": ("A", "E", "C", "D", "F"),
    "rec_sys_2": ("A", "B", "C", "G", "E"),
}
GROUND_TRUTH_004: tuple[float, ...] = tuple(float(v) for v in ITEMS_004.values())


def _grades_004(items) -> tuple[float, ...]:
    return tuple(float(ITEMS_004[i]) for i in items)


# --------------------------------------------------------------------------- the examples
_R6 = (3.0, 2.0, 3.0, 0.0, 1.0, 2.0)
_RECALLED8 = IdcgItems("recalled8", (3.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0, 0.0))

_EXAMPLES: list[WorkedExample] = [
    WorkedExample(
        key="000-graded", doc="000", source="000_7001d7bc414b303b.txt", lang="zh",
        relevances=(3.0, 2.0, 1.0, 3.0, 2.0), labels=("A", "D", "E", "G", "F"), k=None,
        named="jarvelin", implied="jarvelin",
        printed=(
            _one("cg", "11", "jarvelin"),
            *_seq("dcg_term", ["3", "2", "0.63", "1.5", "0.86"], "jarvelin"),
            _one("dcg", "7.99", "jarvelin"),
            *_seq("idcg_term", ["3", "3", "1.26", "1", "0.43"], "jarvelin"),
            _one("idcg", "8.69", "jarvelin"),
            _one("ndcg", "0.91", "jarvelin"),
        ),
        quote="结果为3、2 、1 、3、 2的DCG计算为:3+2+0.63+1.5+0.86=7.99 … 此理想结果的DCG=3+3+1.26+1+0.43=8.69"
              "(按照DCG的第一种方式来算)。那么,3、2 、1 、3、 2的nDCG=7.99/8.69=0.91。",
        notes=("text_inconsistency",),
    ),
    WorkedExample(
        key="000-formula2", doc="000", source="000_7001d7bc414b303b.txt", lang="zh",
        relevances=(3.0, 2.0, 1.0, 3.0, 2.0), labels=("A", "D", "E", "G", "F"), k=None,
        named="exponential", implied="linear",
        printed=(
            *_seq("dcg_term", ["3", "1.26", "0.5", "1.29", "0.77"], "exponential", "linear"),
            _one("dcg", "6.82", "exponential", "linear"),
        ),
        quote="还有第二种计算方法,据说公式只适合打分分两档的评测。DCG_P=Σ(2^{rel_i}-1)/log_2(1+i) "
              "按照这种计算方式,结果为3、2 、1 、3、 2的DCG计算为:3+1.26+0.5+1.29+0.77=6.82 "
              "np.sum(r / np.log2(np.arange(2, r.size + 2)))",
    ),
    WorkedExample(
        key="000-binary", doc="000", source="000_7001d7bc414b303b.txt", lang="zh",
        relevances=(1.0, 0.0, 0.0, 1.0, 0.0), labels=("A", "B", "C", "D", "E"), k=None,
        named="jarvelin", implied="jarvelin",
        printed=(_one("ndcg", "0.75", "jarvelin"),),
        quote="用户只购买了A、D、G、F、K。。。此时推荐的5个物品分数只能用命中与否来衡量:[1,0,0,1,0]。"
              "但是这个结果的理想状态应该是[1,1,0,0,0],即起码A、D应该排在前面,所以此时的nDCG=0.75。",
        alt_idcg_items=IdcgItems("purchases5", (1.0, 1.0, 1.0, 1.0, 1.0)),
        notes=("different_idcg_items",),
    ),
    WorkedExample(
        key="001-main", doc="001", source="001_9ab1cc906e8e676f.txt", lang="zh",
        relevances=_R6, labels=None, k=6,
        named="linear", implied="linear",
        printed=(
            *_seq("divisor", ["1.00", "1.58", "2.00", "2.32", "2.58", "2.81"], "linear"),
            *_seq("dcg_term", ["3.00", "1.26", "1.50", "0.00", "0.39", "0.71"], "linear"),
            _one("dcg", "6.86", "linear"),
            *_seq("idcg_term", ["3.00", "1.89", "1.50", "0.86", "0.77", "0.36"], "exponential", "linear"),
            _one("idcg", "8.38", "exponential", "linear"),
            _one("ndcg", "81.86%", "linear", named_ideal="exponential"),
        ),
        quote="假设搜索回来的5个结果,其相关性分数分别是 3、2、3、0、1、2 … 假如我们实际召回了8个物品,"
              "除了上面的6个,还有两个结果,假设第7个相关性为3,第8个相关性为0 … 所以,NDCG@6 = 6.86/8.38 = 81.86%",
        idcg_items=_RECALLED8, alt_idcg_items=IdcgItems("list"),
        notes=("text_inconsistency", "different_idcg_items"),
    ),
    WorkedExample(
        key="001-book", doc="001", source="001_9ab1cc906e8e676f.txt", lang="zh",
        relevances=(1.0, 1.0, 2.0, 0.0), labels=None, k=None,
        named="exponential", implied="exponential",
        printed=(
            *_seq("divisor", ["1.00", "1.58", "2.00", "2.32"], "linear"),
            *_seq("dcg_term", ["1.00", "0.63", "1.00", "0.00"], "linear", variant="linear"),
            *_seq("dcg_term", ["1.00", "0.63", "1.50", "0.00"], "exponential", variant="exponential"),
            _one("dcg", "2.63", "linear", variant="linear"),
            _one("dcg", "3.13", "exponential", variant="exponential"),
            *_seq("idcg_term", ["2.00", "0.63", "0.50", "0.00"], "linear", variant="linear"),
            *_seq("idcg_term", ["3.00", "0.63", "0.50", "0.00"], "exponential", variant="exponential"),
            _one("idcg", "3.13", "linear", variant="linear"),
            _one("idcg", "4.13", "exponential", variant="exponential"),
            _one("ndcg", "84.03%", "linear", variant="linear"),
            _one("ndcg", "75.79%", "exponential", variant="exponential"),
        ),
        quote="看到有些说法是以上公式,只适合打分分两档的情况,但美团这本书里的例子:虽然relk有三种取值,"
              "但使用的仍是上述公式(最后一列)。若采用如下公式(倒数第二列),得到的IDCG值是不一样的。 percent 84.03 75.79",
        variants=("linear", "exponential"),
    ),
    WorkedExample(
        key="002-wiki", doc="002", source="002_a85c9f765486764b.txt", lang="zh",
        relevances=_R6, labels=("M1", "M2", "M3", "M4", "M5", "M6"), k=6,
        named="linear", implied="linear",
        printed=(
            _one("cg", "11", "linear"),
            *_seq("divisor", ["1", "1.585", "2", "2.322", "2.585", "2.807"], "linear"),
            *_seq("dcg_term", ["3", "1.262", "1.5", "0", "0.387", "0.712"], "linear"),
            _one("dcg", "6.861", "linear"),
            _one("idcg", "7.141", "exponential", "linear"),
            _one("ndcg", "0.961", "linear", named_ideal="exponential"),
        ),
        quote="IDCG@N = Σ_{i=1}^{|REL_N|} (2^{rel_i} − 1)/log_2(i+1) (13) "
              "其中,REL_N表示按照收益从高到低排序后的N个物品;"
              "rel_i ∈ {0,1}。… 理想情况下,推荐列表中的电影按照评分从高到低排序:3, 3, 2, 2, 1, 0。"
              "IDCG@6 = 3/1 + 3/1.585 + 2/2 + 2/2.322 + 1/2.585 + 0/2.807 = 7.141 … NDCG@6 = 6.861/7.141 = 0.961",
        alt_idcg_items=_RECALLED8,
        notes=("different_idcg_items",),
    ),
    WorkedExample(
        key="003-blog", doc="003", source="003_5790b103b2e83771.txt", lang="zh",
        relevances=_R6, labels=None, k=6,
        named="linear", implied="linear",
        printed=(
            *_seq("divisor", ["1", "1.58", "2", "2.32", "2.58", "2.8"], "linear"),
            *_seq("dcg_term", ["3", "1.26", "1.5", "0", "0.38", "0.71"], "linear"),
            _one("dcg", "6.86", "linear"),
            *_seq("idcg_term", ["3", "1.89", "1.5", "0.86", "0.77", "0.35"], "exponential", "linear"),
            _one("idcg", "8.37", "exponential", "linear"),
            _one("ndcg", "81.96%", "linear", named_ideal="exponential"),
        ),
        quote="假设搜索回来的5个结果，其相关性分数分别是 3、2、3、0、1、2 … 所以 DCG = 3+1.26+1.5+0+0.38+0.71 = 6.86 … "
              "所以IDCG = 3+1.89+1.5+0.86+0.77+0.35 = 8.37 so 最终 NDCG@6 = 6.86/8.37 = 81.96%",
        idcg_items=_RECALLED8, alt_idcg_items=IdcgItems("list"),
        notes=("text_inconsistency", "different_idcg_items"),
    ),
    *[
        WorkedExample(
            key=f"004-{name.replace('_', '')}", doc="004", source="004_9541a3f2ed523932.txt", lang="ko",
            relevances=_grades_004(items), labels=items, k=5,
            named="linear", implied="linear",
            printed=(
                _one("relevances", printed_rel, "linear"),
                _one("ideal_vector", "3,3,2,2,1,1,0,0", "linear"),
            ),
            quote=f"{name} = {{{', '.join(items)}}} → rel은 {{{printed_rel.replace(',', ', ')}}} … "
                  "ideal gain vector = {3, 3, 2, 2, 1, 1, 0, 0, ...} IDCG@5는 5번째까지 잘라서 DCG 구한 것 … "
                  "groud truth에서 relevance 기준으로 나열 후 p개 뽑은 것",
            idcg_items=IdcgItems("ground_truth", GROUND_TRUTH_004, tuple(ITEMS_004)), alt_idcg_items=IdcgItems("list"),
            notes=("different_idcg_items", "log_base", "binary_gain"),
        )
        for name, items, printed_rel in [
            ("rec_sys_1", REC_SYS_004["rec_sys_1"], "3,1,2,2,1"),
            ("rec_sys_2", REC_SYS_004["rec_sys_2"], "3,3,2,0,1"),
        ]
    ],
]

EXAMPLES: dict[str, WorkedExample] = {e.key: e for e in _EXAMPLES}
DOCUMENTS: dict[str, str] = {e.doc: e.source for e in _EXAMPLES}


def setup(example: WorkedExample, formula: str | None = None) -> dict:
    """The playground settings that reproduce ``example``'s numbers: its grades and item names, the judged
    items it does not retrieve, its cutoff, the formula its numbers follow (or ``formula``, a key of
    :data:`FORMULAS`) and where its IDCG comes from (``"judged"``: the list and the unretrieved items).

    Keys: ``rels``, ``unretrieved``, ``labels`` (ranked items first, then unretrieved ones; None for
    D1, D2, ...), ``k``, ``gain``, ``discount``, ``base``, ``idcg``.

    Parameters
    ----------
    example : WorkedExample
        One of :data:`EXAMPLES`, e.g. ``EXAMPLES["003-blog"]``.
    formula : str, optional
        A key of :data:`FORMULAS` to use instead of the one the numbers follow (e.g. the one the
        document names).  Default ``None``: ``example.implied``.

    Returns
    -------
    dict
        The keys above, in the playground's terms (``base`` is the log base, ``idcg`` "judged" or "list").

    Examples
    --------
    Document 004's rec_sys_1 (A, E, C, D, F) leaves B (grade 3) and G (grade 0) unretrieved:

    >>> s = setup(EXAMPLES["004-recsys1"])
    >>> s["rels"], s["unretrieved"], s["labels"], s["k"], s["idcg"]
    ((3.0, 1.0, 2.0, 2.0, 1.0), (3.0, 0.0), ('A', 'E', 'C', 'D', 'F', 'B', 'G'), 5, 'judged')
    >>> setup(EXAMPLES["000-graded"])["discount"], setup(EXAMPLES["001-main"])["unretrieved"]
    ('jarvelin', (3.0, 0.0))
    """
    f = check_choice(formula or example.implied, FORMULAS, name="formula")
    left = example.unretrieved
    labels = None
    if example.labels:
        labels = tuple(example.labels) + tuple(name or f"D{len(example.labels) + i + 1}"
                                               for i, (name, _) in enumerate(left))
    return {
        "rels": tuple(example.relevances), "unretrieved": tuple(g for _, g in left), "labels": labels,
        "k": example.k, "gain": f.variant.gain, "discount": f.variant.discount, "base": f.variant.log_base,
        "idcg": "judged" if example.pool is not None else "list",
    }


def printed_totals(example: WorkedExample) -> dict[str, Printed]:
    """The totals the document prints for ``example`` (``cg``, ``dcg``, ``idcg``, ``ndcg``; one formula).

    Parameters
    ----------
    example : WorkedExample
        One of :data:`EXAMPLES`, e.g. ``EXAMPLES["003-blog"]``.

    Returns
    -------
    dict of str to Printed
        Quantity -> the printed total, for those the document prints (columns of a table with several
        formulas, ``variant`` set, are left out).

    Examples
    --------
    >>> {q: p.text for q, p in printed_totals(EXAMPLES["003-blog"]).items()}
    {'dcg': '6.86', 'idcg': '8.37', 'ndcg': '81.96%'}
    """
    return {p.quantity: p for p in example.printed
            if p.quantity in ("cg", "dcg", "idcg", "ndcg") and not p.variant}


def examples_for(doc: str) -> list[WorkedExample]:
    """The examples of one document, in the order it gives them.

    Parameters
    ----------
    doc : str
        The document's number: "000", "001", "002", "003" or "004" (keys of :data:`DOCUMENTS`).

    Returns
    -------
    list of WorkedExample
        Its examples.

    Raises
    ------
    ValueError
        If ``doc`` is not one of the documents.

    Examples
    --------
    >>> [e.key for e in examples_for("000")]
    ['000-graded', '000-formula2', '000-binary']
    """
    check_choice(doc, DOCUMENTS, name="document")
    return [e for e in _EXAMPLES if e.doc == doc]


# --------------------------------------------------------------------------- verdict kinds
VERDICTS: dict[str, Choice] = {
    "exact": Choice("exact", "Exact",
                         "The printed value is the exact value correctly rounded to the digits shown."),
    "truncation": Choice(
        "truncation", "Truncation",
        "The printed digits are the exact value cut off, not rounded: rounding would give the next digit up."),
    "rounding_drift": Choice(
        "rounding_drift", "Rounding drift",
        "Computed from numbers already rounded (rounded terms summed, or a ratio of rounded values), "
        "so the last digit drifts from the exact value rounded."),
    "self_inconsistent_sum": Choice(
        "self_inconsistent_sum", "Sum disagrees with its own terms",
        "The printed total is the exact value rounded, but the printed terms beside it add up to something else."),
    "carried_forward": Choice(
        "carried_forward", "Error carried from an earlier step",
        "Worked out correctly from earlier numbers that were already off (a term cut off or miscomputed), "
        "so their error carries into this one."),
    "mislabelled_formula": Choice(
        "mislabelled_formula", "Formula mislabelled",
        "The number follows a different formula from the one the document writes next to it."),
    "different_idcg_items": Choice(
        "different_idcg_items", "Depends on the IDCG item set",
        "This number depends on which items the ideal ranking is built from (the list itself, all recalled or "
        "judged items, or the ground truth): the document's choice gives it, another common choice gives the "
        "value in the why column — one reason documents disagree on the same ranking."),
    "log_base": Choice(
        "log_base", "Log base",
        "The logarithm has another base (natural log): every discount scales by the same factor, which cancels "
        "in NDCG but not in DCG or IDCG."),
    "binary_gain": Choice(
        "binary_gain", "Binary gain",
        "Only hit or miss counts: graded relevance is reduced to 0/1, which can change which ranking wins."),
    "text_inconsistency": Choice(
        "text_inconsistency", "Text contradicts itself",
        "The prose and the numbers disagree (a count or a list written two ways); the computation is unaffected."),
    "unexplained": Choice(
        "unexplained", "Unexplained", "No rounding, truncation or formula explains the printed value."),
}


@dataclass(frozen=True)
class Verdict:
    """What a printed number is, next to the exact values that explain it.

    ``kinds`` lists every applicable entry of :data:`VERDICTS`, the arithmetic one
    (exact / truncation / rounding_drift / carried_forward / self_inconsistent_sum / unexplained) first.
    """

    kinds: tuple[str, ...]
    printed: Printed | None = None
    exact: float | None = None  # under the formula the numbers follow, with the document's IDCG items
    rounded: str | None = None  # exact, rounded to the printed digits, written like the document
    truncated: str | None = None
    named_value: float | None = None  # under the formula the document writes
    recomputed: float | None = None  # from the document's own printed (rounded) numbers
    alt_value: float | None = None  # with the alternative IDCG items
    values: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.kinds[0]


# --------------------------------------------------------------------------- exact values
def printed_places(text: str) -> int:
    """Decimal places of a printed number, as a fraction (a percent adds two).

    A printed number claims the precision it is written with: the judge rounds the exact value to
    this many places before comparing.

    Parameters
    ----------
    text : str
        The number as printed, e.g. ``"7.99"`` or ``"81.86%"``.

    Returns
    -------
    int
        Digits after the point, plus 2 for a percent (81.86% = 0.8186).

    Examples
    --------
    >>> printed_places("7.99"), printed_places("81.86%"), printed_places("3")
    (2, 4, 0)
    """
    body = text.strip().rstrip("%")
    places = len(body.split(".")[1]) if "." in body else 0
    return places + (2 if text.strip().endswith("%") else 0)


def printed_decimal(text: str) -> Decimal:
    """The printed number as an exact decimal fraction ("81.86%" -> 0.8186).

    A :class:`decimal.Decimal`, so that 6.86 is exactly 6.86 (a float would be 6.8600000000000003...)
    and the judge's comparisons of rounded digits are exact.

    Parameters
    ----------
    text : str
        The number as printed.

    Returns
    -------
    decimal.Decimal
        The value as a fraction.

    Raises
    ------
    ValueError
        If ``text`` is not a number.

    Examples
    --------
    >>> printed_decimal("81.86%")
    Decimal('0.8186')
    """
    body = text.strip()
    try:
        value = Decimal(body.rstrip("%"))
    except ArithmeticError:
        raise ValueError(f"printed value {text!r} is not a number") from None
    return value / 100 if body.endswith("%") else value


def _fmt(value: Decimal, like: str) -> str:
    """Write ``value`` (a fraction) the way ``like`` is written (percent or not)."""
    if like.strip().endswith("%"):
        return f"{value.scaleb(2):f}%"
    return f"{value:f}"


def _round(x: float, places: int, mode=ROUND_HALF_UP) -> Decimal:
    return Decimal(x).quantize(Decimal(1).scaleb(-places), rounding=mode)


def _pool_for(example: WorkedExample, items: IdcgItems | None):
    return (items or example.idcg_items).pool


def exact_value(example: WorkedExample, printed: Printed | str, *, formula: str | None = None,
                idcg_items: IdcgItems | None = None) -> float:
    """The exact value of a printed quantity, computed by :mod:`metrics.ndcg`.

    ``formula`` defaults to the one the number follows (``printed.implied``); for an NDCG
    with ``formula="named"`` the DCG and IDCG each use the formula the document writes.

    Parameters
    ----------
    example : WorkedExample
        One of :data:`EXAMPLES`, e.g. ``EXAMPLES["003-blog"]``.
    printed : Printed or str
        One of ``example.printed``, or its key (``"dcg"``, ``"idcg_term_5"``, ``"ndcg_linear"``...).
    formula : str, optional
        A key of :data:`FORMULAS`, or ``"named"``.  Default ``None``: the formula the number follows.
    idcg_items : IdcgItems, optional
        Another set of items for the ideal ranking (e.g. ``example.alt_idcg_items``).  Default
        ``None``: the document's own.

    Returns
    -------
    float
        The exact value (a divisor, a term, CG, DCG, IDCG or NDCG).

    Raises
    ------
    ValueError
        If the key is not printed by the example, the formula is unknown, or the quantity is a list.

    Examples
    --------
    Document 003's IDCG (all eight recalled items, top 6: 3, 3, 3, 2, 2, 1) is
    3 + 1.8928 + 1.5 + 0.8614 + 0.7737 + 0.3562 = 8.3841; document 000's second DCG, under the
    2^rel - 1 formula it names, is 7 + 3/1.585 + 1/2 + 7/2.322 + 3/2.585 = 13.568:

    >>> round(exact_value(EXAMPLES["003-blog"], "idcg"), 4)
    8.3841
    >>> round(exact_value(EXAMPLES["000-formula2"], "dcg", formula="named"), 3)
    13.568
    """
    p = example.get(printed) if isinstance(printed, str) else printed
    if p.quantity in ("relevances", "ideal_vector"):
        raise ValueError(f"{p.key!r} is a list, not a number; compare it with judge()")
    pool = _pool_for(example, idcg_items)
    rel = list(example.relevances)
    if formula == "named":
        top_f, ideal_f = FORMULAS[p.named], FORMULAS[p.named_ideal or p.named]
    else:
        key = formula or p.implied
        check_choice(key, FORMULAS, name="formula")
        top_f = ideal_f = FORMULAS[key]
    k = example.k
    if p.quantity == "cg":
        return cg(rel, k=k, gain=top_f.variant.gain)
    if p.quantity == "dcg":
        return dcg(rel, k=k, **top_f.variant.options)
    if p.quantity == "idcg":
        return idcg(rel, k=k, pool=pool, **top_f.variant.options)
    if p.quantity == "ndcg":
        if top_f == ideal_f:
            return ndcg(rel, k=k, pool=pool, **top_f.variant.options)
        best = idcg(rel, k=k, pool=pool, **ideal_f.variant.options)
        return 0.0 if best == 0 else dcg(rel, k=k, **top_f.variant.options) / best
    bd = breakdown(rel, k=k, pool=pool, **top_f.variant.options)
    row = bd.iloc[p.position - 1]
    column = {"divisor": "discount", "dcg_term": "discounted_gain", "idcg_term": "ideal_discounted_gain"}
    return float(row[column[p.quantity]])


def _recomputed_from(example: WorkedExample, p: Printed) -> list[Printed]:
    """The printed numbers :func:`recomputed_value` redoes ``p`` from (empty if it prints none)."""
    same = [q for q in example.printed if q.variant == p.variant]
    if p.quantity in _SUMS:
        return [q for q in same if q.quantity == _SUMS[p.quantity]]
    if p.quantity == "ndcg":
        parts = [next((q for q in same if q.quantity == name), None) for name in ("dcg", "idcg")]
        return parts if all(parts) else []
    if p.quantity in ("dcg_term", "idcg_term"):
        return [q for q in example.printed if q.quantity == "divisor" and q.position == p.position]
    return []


def recomputed_value(example: WorkedExample, printed: Printed | str) -> float | None:
    """The value redone from the document's own printed numbers, or None if it prints none to redo it from.

    A total is the sum of its printed terms; an NDCG is the printed DCG over the printed IDCG;
    a term is its gain over the printed divisor.

    Parameters
    ----------
    example : WorkedExample
        One of :data:`EXAMPLES`, e.g. ``EXAMPLES["003-blog"]``.
    printed : Printed or str
        One of ``example.printed``, or its key (``"dcg"``, ``"idcg_term_5"``, ``"ndcg_linear"``...).

    Returns
    -------
    float or None
        The value redone from the printed numbers, or None when the document prints none to redo it from.

    Raises
    ------
    ValueError
        If the key is not printed by the example.

    Examples
    --------
    >>> recomputed_value(EXAMPLES["003-blog"], "dcg")  # 3+1.26+1.5+0+0.38+0.71, printed as 6.86
    6.85
    """
    p = example.get(printed) if isinstance(printed, str) else printed
    same = [q for q in example.printed if q.variant == p.variant]
    if p.quantity in _SUMS:
        terms = [q for q in same if q.quantity == _SUMS[p.quantity]]
        if not terms:
            return None
        return float(sum(printed_decimal(q.text) for q in terms))
    if p.quantity == "ndcg":
        top = [q for q in same if q.quantity == "dcg"]
        best = [q for q in same if q.quantity == "idcg"]
        if not (top and best):
            return None
        return float(printed_decimal(top[0].text) / printed_decimal(best[0].text))
    if p.quantity in ("dcg_term", "idcg_term"):
        divisors = {q.position: q for q in example.printed if q.quantity == "divisor"}
        if p.position not in divisors:
            return None
        f = FORMULAS[p.implied]
        grades = (list(example.relevances) if p.quantity == "dcg_term"
                  else breakdown(list(example.relevances), k=example.k, pool=example.pool)["ideal_relevance"].tolist())
        gain = float(resolve_gain(f.variant.gain).func(np.array([grades[p.position - 1]]))[0])
        return float(Decimal(gain) / printed_decimal(divisors[p.position].text))
    return None


# --------------------------------------------------------------------------- the judge
def _arithmetic(printed_value: Decimal, places: int, exact: float, recomputed: float | None, is_total: bool) -> str:
    if _round(exact, places) == printed_value:
        if is_total and recomputed is not None and _round(recomputed, places) != printed_value:
            return "self_inconsistent_sum"
        return "exact"
    # The document's own arithmetic on its rounded numbers explains it (000's 6.82 is both
    # 6.8276 cut off and 3+1.26+0.5+1.29+0.77: the sum it writes out is the better story).
    if recomputed is not None and _round(recomputed, places) == printed_value:
        return "rounding_drift"
    if _round(exact, places, ROUND_DOWN) == printed_value:
        return "truncation"
    if recomputed is not None and _round(recomputed, places, ROUND_DOWN) == printed_value:
        return "rounding_drift"
    return "unexplained"


def _judge_list(example: WorkedExample, p: Printed) -> Verdict:
    shown = [float(x) for x in p.text.split(",")]
    if p.quantity == "relevances":
        truth = list(example.relevances)
    else:
        truth = sorted(example.pool or example.relevances, reverse=True)
        # a printed vector may pad with the zeros of the unlisted ("나머지=0") items
        truth = truth + [0.0] * max(0, len(shown) - len(truth))
    ok = truth[: len(shown)] == shown and all(x == 0 for x in truth[len(shown):])
    return Verdict(kinds=("exact",) if ok else ("unexplained",), printed=p,
                   values={"computed": ",".join(f"{x:g}" for x in truth[: max(len(shown), 1)])})


def judge(example: WorkedExample, printed: Printed | str) -> Verdict:
    """The verdict on one printed number of ``example``: which kinds apply and the values that show it.

    The printed value is compared with the exact value rounded (and truncated) to the printed
    digits, with the value redone from the document's own rounded numbers, with the formula the
    document names and with the other IDCG item set; every explanation that fits is listed.

    Parameters
    ----------
    example : WorkedExample
        One of :data:`EXAMPLES`, e.g. ``EXAMPLES["003-blog"]``.
    printed : Printed or str
        One of ``example.printed``, or its key (``"dcg"``, ``"idcg_term_5"``, ``"ndcg_linear"``...).

    Returns
    -------
    Verdict
        ``kinds`` (keys of :data:`VERDICTS`, the arithmetic one first), ``exact``, ``rounded``,
        ``truncated``, ``named_value``, ``recomputed``, ``alt_value``.

    Raises
    ------
    ValueError
        If the key is not printed by the example.

    Examples
    --------
    Document 000's second DCG prints 6.82: the exact 6.8276 would round to 6.83, but its own
    terms 3 + 1.26 + 0.5 + 1.29 + 0.77 add to 6.82 (rounding drift), and it names 2^rel - 1,
    which would give 13.568 (mislabelled formula):

    >>> v = judge(EXAMPLES["000-formula2"], "dcg")
    >>> v.kinds, v.rounded, round(v.named_value, 3)
    (('rounding_drift', 'mislabelled_formula'), '6.83', 13.568)
    >>> judge(EXAMPLES["003-blog"], "dcg").kind  # its terms add to 6.85
    'self_inconsistent_sum'
    """
    p = example.get(printed) if isinstance(printed, str) else printed
    if p.quantity in ("relevances", "ideal_vector"):
        return _judge_list(example, p)
    value, places = printed_decimal(p.text), printed_places(p.text)
    exact = exact_value(example, p)
    recomputed = recomputed_value(example, p)
    kinds = [_arithmetic(value, places, exact, recomputed, p.quantity in _SUMS)]
    if kinds[0] == "rounding_drift" and any(judge(example, q).kind not in ("exact", "self_inconsistent_sum")
                                            for q in _recomputed_from(example, p)):
        # redone from the document's own numbers, but one of those was already off: not rounding
        kinds[0] = "carried_forward"
    named_value = None
    if p.named != p.implied or (p.named_ideal or p.named) != p.named:
        named_value = exact_value(example, p, formula="named")
        if _round(named_value, places) != value and _round(named_value, places, ROUND_DOWN) != value:
            kinds.append("mislabelled_formula")
    alt_value = None
    if example.alt_idcg_items is not None and p.quantity in ("idcg", "ndcg"):
        alt_value = exact_value(example, p, idcg_items=example.alt_idcg_items)
        if not math.isclose(alt_value, exact, rel_tol=1e-12, abs_tol=1e-12):
            kinds.append("different_idcg_items")
    return Verdict(
        kinds=tuple(kinds), printed=p, exact=exact,
        rounded=_fmt(_round(exact, places), p.text), truncated=_fmt(_round(exact, places, ROUND_DOWN), p.text),
        named_value=named_value, recomputed=recomputed, alt_value=alt_value,
    )


def judge_all(example: WorkedExample) -> list[Verdict]:
    """A verdict for every number ``example`` prints, in the document's order.

    Parameters
    ----------
    example : WorkedExample
        One of :data:`EXAMPLES`, e.g. ``EXAMPLES["003-blog"]``.

    Returns
    -------
    list of Verdict
        One per entry of ``example.printed`` (see :func:`judge`).

    Examples
    --------
    Document 000 gets every term and total right, but prints NDCG = 7.99 / 8.69 = 0.91945 as 0.91:
    cut off, not rounded (0.92):

    >>> [(v.printed.key, v.kind) for v in judge_all(EXAMPLES["000-graded"])][-3:]
    [('idcg_term_5', 'exact'), ('idcg', 'exact'), ('ndcg', 'truncation')]
    """
    return [judge(example, p) for p in example.printed]


# --------------------------------------------------------------------------- example-level findings
def code_004_ndcg(items, *, ground_truth=None, cap: int = 100) -> float:
    """NDCG as document 004's Python code computes it, through :func:`metrics.ndcg.ndcg`.

    The code adds ``1/ln(i+2)`` for each recommended item found in the ground truth
    (binary gain, natural log) and divides by ``sum_{i=1}^{min(|gt|, 100)} 1/ln(i+1)``:
    the ideal ranking holds every ground-truth item, cut at 100, not at the list length.

    ``items`` are labels of :data:`ITEMS_004`; the ground truth is every item of grade > 0.
    Parameters
    ----------
    items : sequence of str
        Recommended item labels in ranked order (keys of :data:`ITEMS_004`).
    ground_truth : set of str, optional
        The relevant items.  Default ``None``: every item of :data:`ITEMS_004` with grade > 0.
    cap : int >= 1, default 100
        The code's cutoff of the ideal ranking.

    Returns
    -------
    float
        The code's NDCG (the natural log cancels in the ratio).

    Examples
    --------
    rec_sys_1 hits all five, but six items are relevant, so DCG@5 / IDCG@6:

    >>> round(code_004_ndcg(REC_SYS_004["rec_sys_1"]), 4)  # (1+.6309+.5+.4307+.3869) / (... + .3562)
    0.8922

    rec_sys_2 (A, B, C, G, E) misses at position 4 (G has grade 0):
    (1 + 0.6309 + 0.5 + 0 + 0.3869) / 3.3047 = 2.5178 / 3.3047:

    >>> round(code_004_ndcg(REC_SYS_004["rec_sys_2"]), 4)
    0.7619
    """
    gt = ground_truth if ground_truth is not None else {i for i, g in ITEMS_004.items() if g > 0}
    hits = [1.0 if i in gt else 0.0 for i in items]
    return ndcg(hits, k=cap, gain="binary", log_base=math.e, pool=[1.0] * len(gt))


def findings(example: WorkedExample) -> list[Verdict]:
    """Verdicts about the example as a whole (``example.notes``), with the numbers that show them.

    Parameters
    ----------
    example : WorkedExample
        One of :data:`EXAMPLES`, e.g. ``EXAMPLES["003-blog"]``.

    Returns
    -------
    list of Verdict
        One per note, with ``values``: IDCG and NDCG under both item sets (different_idcg_items), DCG
        and NDCG with log2 and ln (log_base), graded, binary and the post's code (binary_gain).

    Raises
    ------
    ValueError
        If a note is not a key of :data:`VERDICTS`.

    Examples
    --------
    Document 004's code uses the natural log: ln(i + 1) = log2(i + 1) × ln 2, so every term and DCG
    itself is divided by ln 2, and DCG with log2 / DCG with ln = ln 2 = 0.6931; in NDCG the
    factor cancels:

    >>> f = {v.kind: v.values for v in findings(EXAMPLES["004-recsys1"])}
    >>> round(f["log_base"]["dcg_log2"] / f["log_base"]["dcg_ln"], 4)  # = ln 2
    0.6931
    """
    rel, k = list(example.relevances), example.k
    f = FORMULAS[example.implied]
    out = []
    for kind in example.notes:
        check_choice(kind, VERDICTS, name="verdict kind")
        values: dict = {}
        if kind == "different_idcg_items" and example.alt_idcg_items is not None:
            alt = example.alt_idcg_items
            values = {
                "items_doc": example.idcg_items.key, "items_alt": alt.key,
                "n_doc": len(example.pool or rel), "n_alt": len(alt.pool or rel),
                "relevant_doc": sum(1 for g in (example.pool or rel) if g > 0),
                "relevant_alt": sum(1 for g in (alt.pool or rel) if g > 0),
                "idcg_doc": idcg(rel, k=k, pool=example.pool, **f.variant.options),
                "idcg_alt": idcg(rel, k=k, pool=alt.pool, **f.variant.options),
                "ndcg_doc": ndcg(rel, k=k, pool=example.pool, **f.variant.options),
                "ndcg_alt": ndcg(rel, k=k, pool=alt.pool, **f.variant.options),
            }
            if f.variant.discount == "jarvelin":  # 000's binary example: also the standard discount
                std = FORMULAS["linear"].variant.options
                values["ndcg_doc_standard"] = ndcg(rel, k=k, pool=example.pool, **std)
                values["ndcg_alt_standard"] = ndcg(rel, k=k, pool=alt.pool, **std)
        elif kind == "log_base":
            ln = dict(f.variant.options, log_base=math.e)
            values = {
                "dcg_log2": dcg(rel, k=k, **f.variant.options), "dcg_ln": dcg(rel, k=k, **ln),
                "ndcg_log2": ndcg(rel, k=k, pool=example.pool, **f.variant.options),
                "ndcg_ln": ndcg(rel, k=k, pool=example.pool, **ln),
            }
        elif kind == "binary_gain":
            values = {
                "ndcg_graded": ndcg(rel, k=k, pool=example.pool, **f.variant.options),
                "ndcg_binary_k": ndcg(rel, k=k, pool=example.pool, gain="binary"),
                "ndcg_code": code_004_ndcg(example.labels) if example.doc == "004" else None,
            }
        out.append(Verdict(kinds=(kind,), values=values))
    return out


def explanation_values(example: WorkedExample) -> dict[str, float]:
    """Numbers an example's explanation cites besides its own printed, exact and finding values: 001's
    question on the two DCG formulas (3, 2 against 2, 3), and for 004 the other system and the post's code.

    Parameters
    ----------
    example : WorkedExample
        One of :data:`EXAMPLES`, e.g. ``EXAMPLES["003-blog"]``.

    Returns
    -------
    dict of str to float
        Named values (empty for an example whose explanation cites none).

    Examples
    --------
    >>> v = explanation_values(EXAMPLES["001-main"])
    >>> round(v["jar_a"], 4), round(v["std_a"], 4), round(v["std_b"], 4)  # 3 + 2/1; 3 + 2/1.585; 2 + 3/1.585
    (5.0, 4.2619, 3.8928)
    >>> sorted(explanation_values(EXAMPLES["004-recsys2"]))
    ['code_1', 'other_code', 'other_dcg_ln', 'other_dcg_log2', 'other_graded', 'other_ndcg_log2']

    The other system's values are named ``other_*``: rec_sys_2's own log-base finding cites its own DCG.
    """
    out: dict[str, float] = {}
    if example.key == "001-main":
        out = {"jar_a": dcg([3, 2], discount="jarvelin"), "std_a": dcg([3, 2]), "std_b": dcg([2, 3])}
    if example.doc == "004":
        other = EXAMPLES["004-recsys1" if example.key == "004-recsys2" else "004-recsys2"]
        values = {k: v for f in findings(other) for k, v in f.values.items()}
        out.update(other_graded=values["ndcg_graded"], other_code=values["ndcg_code"])
        if example.key == "004-recsys2":
            out["code_1"] = code_004_ndcg(other.labels)
            out.update({f"other_{k}": values[k] for k in ("dcg_log2", "dcg_ln", "ndcg_log2")})
    return out


# --------------------------------------------------------------------------- per-position table
def position_table(example: WorkedExample, *, variant: str = "") -> pd.DataFrame:
    """Per position: grade, divisor, DCG term and ideal term, printed beside exact, with each term's verdict.

    Printed columns hold the document's text ('' where it prints nothing).

    Parameters
    ----------
    example : WorkedExample
        One of :data:`EXAMPLES`, e.g. ``EXAMPLES["003-blog"]``.
    variant : str, default ""
        For a table with several formulas (001's book example): "linear" or "exponential".

    Returns
    -------
    pandas.DataFrame
        ``position``, ``label``, ``relevance``, ``divisor``, ``dcg_term``, ``ideal_relevance``,
        ``idcg_term``, and for each of divisor / dcg_term / idcg_term a ``printed_...`` text and a
        ``..._verdict`` kind.

    Examples
    --------
    Document 003's sixth row: log2(7) = 2.807 printed as 2.8, and the ideal term 1/log2(7) = 0.3562
    printed as 0.35 (cut off, not rounded to 0.36):

    >>> t = position_table(EXAMPLES["003-blog"])
    >>> t.loc[5, ["printed_divisor", "printed_idcg_term", "idcg_term_verdict"]].tolist()
    ['2.8', '0.35', 'truncation']
    """
    import pandas as pd  # only this table needs it (the playground's first number does not)

    formula = FORMULAS[next((p.implied for p in example.printed if p.variant == variant
                             and p.quantity in ("dcg_term", "dcg", "ndcg")), example.implied)]
    bd = breakdown(list(example.relevances), k=example.k, pool=example.pool, **formula.variant.options)
    table = pd.DataFrame({
        "position": bd["position"].astype(int),
        "label": [example.labels[i] if example.labels and i < len(example.labels) else "" for i in range(len(bd))],
        "relevance": bd["relevance"],
        "divisor": bd["discount"],
        "dcg_term": bd["discounted_gain"],
        "ideal_relevance": bd["ideal_relevance"],
        "idcg_term": bd["ideal_discounted_gain"],
    })
    for quantity in ("divisor", "dcg_term", "idcg_term"):
        texts, kinds = [""] * len(table), [""] * len(table)
        for p in example.printed:
            if p.quantity == quantity and p.variant in (variant, "") and p.position <= len(table):
                if quantity == "divisor" or p.variant == variant:
                    texts[p.position - 1] = p.text
                    kinds[p.position - 1] = judge(example, p).kind
        table[f"printed_{quantity}"] = texts
        table[f"{quantity}_verdict"] = kinds
    return table
