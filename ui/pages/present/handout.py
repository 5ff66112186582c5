"""A one-page PDF handout of a lecture (A4 or Letter), in the lecture's language.

:func:`build` is a pure function of a :class:`ui.pages.present.link.Lecture` and a language: it draws, with
`fpdf2 <https://py-pdf.github.io/fpdf2/>`_'s own primitives (no browser, no chart renderer),

* the variant named in words (and the worked example, when the lecture presents one);
* the formula of DCG, IDCG and NDCG with the numbers substituted (real fractions, sub- and superscripts);
* the per-position table (rank, label, grade, gain, discount, discounted gain, running DCG, the ideal
  order's grade, discounted gain and running IDCG);
* the discounted-gain chart (the ranking beside the ideal order);
* the document's printed numbers beside the exact ones, when it prints any for this lecture.

Every number comes from :func:`ui.pages.present.slides.numbers` (:func:`metrics.breakdown`,
:func:`metrics.all_variants`) and is rounded only here, for display.  Chinese and Korean text needs a CJK
font: Noto Sans CJK
(Debian's ``fonts-noto-cjk``) is looked up in the usual places, or named by ``NDCG_LAB_FONT``; fpdf2
embeds only the glyphs used (a subset of the CFF font).
"""
from __future__ import annotations

import math
import os
import shutil
import subprocess
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from ui.i18n import DEFAULT_LANGUAGE, LANGUAGES, language, t
from ui.pages.present.link import Lecture, present_url
from ui.pages.present.slides import base_text, numbers, printed_numbers, shown, variant_label

__all__ = ["PAPERS", "FONT_ENV", "HandoutError", "Rendered", "font_problem", "build", "render", "file_name",
           "ROWS_CAP", "CHART_CAP", "TERMS_CAP", "AXIS_STEPS", "ChartAxis"]

PAPERS = ("A4", "Letter")
FONT_ENV = "NDCG_LAB_FONT"
ROWS_CAP = 14  # table rows on the page (every number still uses every position)
CHART_CAP = 20  # positions in the chart
TERMS_CAP = 6  # terms written out in each substituted formula
MARGIN = 14.0
INK = (17, 24, 39)
MUTED = (55, 65, 81)
ACTUAL = (30, 64, 175)
IDEAL = (180, 83, 9)  # 5.0:1 on white
IDEAL_FILL = (254, 243, 199)
RULE = (148, 163, 184)

# Noto Sans CJK in the places Linux distributions put it (Debian/Ubuntu, Fedora, Arch).
_CJK_DIRS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/google-noto-cjk", "/usr/share/fonts/noto-cjk",
             "/usr/share/fonts/opentype/noto-cjk")
_LATIN_FALLBACK = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
# Face of the collection per language: the regional glyph forms of the text's language.


class HandoutError(RuntimeError):
    """The handout cannot be made here (no font for the language)."""


@dataclass(frozen=True)
class _Font:
    regular: str
    bold: str | None
    index: int  # face in a .ttc collection
    cjk: bool


def _collection_index(path: str, face: str) -> int:
    if not path.lower().endswith((".ttc", ".otc")):
        return 0
    from fontTools.ttLib import TTCollection

    with TTCollection(path, lazy=True) as collection:
        for i, font in enumerate(collection.fonts):
            name = font["name"].getDebugName(4) or ""
            if name.endswith(f" {face}") and "Mono" not in name:
                return i
    return 0


def _fc_match(lang: str) -> str | None:
    """A CJK font file from fontconfig, when it is installed (other layouts than Debian's)."""
    if shutil.which("fc-match") is None:
        return None
    want = language(lang).fontconfig
    try:
        out = subprocess.run(["fc-match", "-f", "%{file}", want], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return out if out and "CJK" in out and os.path.exists(out) else None


def _font(lang: str) -> _Font:
    return _find_font(lang, os.environ.get(FONT_ENV) or "")


@lru_cache(maxsize=16)
def _find_font(lang: str, env: str) -> _Font:
    face = language(lang).face
    if env:
        if not os.path.isfile(env):
            raise HandoutError(f"{FONT_ENV}={env} is not a file")
        return _Font(env, None, _collection_index(env, face), True)
    for folder in _CJK_DIRS:
        regular = Path(folder) / "NotoSansCJK-Regular.ttc"
        if regular.is_file():
            bold = Path(folder) / "NotoSansCJK-Bold.ttc"
            index = _collection_index(str(regular), face)
            return _Font(str(regular), str(bold) if bold.is_file() else None, index, True)
    found = _fc_match(lang)
    if found:
        return _Font(found, None, _collection_index(found, face), True)
    if lang == DEFAULT_LANGUAGE and os.path.isfile(_LATIN_FALLBACK):
        bold = _LATIN_FALLBACK.replace("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
        return _Font(_LATIN_FALLBACK, bold if os.path.isfile(bold) else None, 0, False)
    raise HandoutError("no Noto Sans CJK font found")


def font_problem(lang: str) -> str | None:
    """Why no handout can be made in ``lang`` here (None: it can)."""
    try:
        _font(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    except HandoutError as exc:
        return str(exc)
    return None


def file_name(lecture: Lecture, paper: str) -> str:
    """``ndcg_handout_000-graded_A4.pdf`` / ``ndcg_handout_A4.pdf``."""
    middle = f"_{lecture.doc}" if lecture.doc else ""
    return f"ndcg_handout{middle}_{paper}.pdf"


# ---------------------------------------------------------------------------------------------
# Formula pieces: runs of text (normal, subscript, superscript) and fractions
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Run:
    text: str
    pos: str = ""  # "", "sub", "sup"
    bold: bool = False


@dataclass(frozen=True)
class _Frac:
    top: tuple[_Run, ...]
    bottom: tuple[_Run, ...]


def _log(base: float) -> tuple[_Run, ...]:
    if base == math.e:
        return (_Run("ln"),)
    return (_Run("log"), _Run(base_text(base), "sub"))


def _gain_runs(grade: str | None, gain: str) -> tuple[_Run, ...]:
    """The gain of a grade (``None``: the symbol rel with subscript i)."""
    rel = (_Run(grade),) if grade is not None else (_Run("rel"), _Run("i", "sub"))
    if gain == "exponential":
        if grade is not None:
            return (_Run("2"), _Run(grade, "sup"), _Run(" − 1"))
        return (_Run("2"), _Run("rel", "sup"), _Run("i", "sup"), _Run(" − 1"))
    return rel


def _discount_runs(position: int | None, discount: str, base: float) -> tuple[_Run, ...]:
    """The discount of a position (``None``: the symbol i), e.g. log₂(3) for position 2."""
    if discount == "jarvelin":
        return (_Run("max(1, "), *_log(base), _Run(f" {'i' if position is None else position})"))
    return (*_log(base), _Run("(i+1)" if position is None else f"({position + 1})"))


class _Writer:
    """Draws runs, fractions and tables on an fpdf2 page, top to bottom."""

    def __init__(self, pdf, family: str, has_bold: bool, width: float):
        self.pdf = pdf
        self.family = family
        self.has_bold = has_bold
        self.x0 = MARGIN
        self.width = width
        self.y = MARGIN

    def font(self, size: float, bold: bool = False) -> None:
        self.pdf.set_font(self.family, "B" if bold and self.has_bold else "", size)

    def color(self, rgb) -> None:
        self.pdf.set_text_color(*rgb)

    def text_line(self, text: str, size: float, *, bold: bool = False, rgb=INK, gap: float = 1.5) -> None:
        """A paragraph, wrapped to the page width."""
        self.font(size, bold)
        self.color(rgb)
        self.pdf.set_xy(self.x0, self.y)
        self.pdf.multi_cell(self.width, size * 0.45, text, new_x="LMARGIN", new_y="NEXT")
        self.y = self.pdf.get_y() + gap

    # -- formulas -------------------------------------------------------------------------------
    def _run_width(self, runs, size: float) -> float:
        w = 0.0
        for r in runs:
            self.font(size * (0.7 if r.pos else 1.0), r.bold)
            w += self.pdf.get_string_width(r.text)
        return w

    def _draw_runs(self, runs, x: float, baseline: float, size: float) -> float:
        for r in runs:
            s = size * (0.7 if r.pos else 1.0)
            dy = {"sub": size * 0.12, "sup": -size * 0.16, "": 0.0}[r.pos]
            self.font(s, r.bold)
            self.pdf.text(x, baseline + dy, r.text)
            x += self.pdf.get_string_width(r.text)
        return x

    def _item_width(self, item, size: float) -> float:
        if isinstance(item, _Frac):
            return max(self._run_width(item.top, size), self._run_width(item.bottom, size)) + 1.2
        return self._run_width(item, size)

    def formula(self, items: list, size: float = 10.0, indent: float = 8.0) -> None:
        """One formula line (runs and fractions), wrapped before an item that would not fit."""
        self.color(INK)
        line_h = size * 0.95  # a fraction: numerator, bar, denominator
        x = self.x0
        baseline = self.y + line_h * 0.62
        for item in items:
            w = self._item_width(item, size)
            if x + w > self.x0 + self.width and x > self.x0 + indent:
                self.y += line_h
                baseline = self.y + line_h * 0.62
                x = self.x0 + indent
            if isinstance(item, _Frac):
                bar = baseline - size * 0.12
                tw, bw = self._run_width(item.top, size), self._run_width(item.bottom, size)
                self._draw_runs(item.top, x + (w - tw) / 2, bar - size * 0.09, size)
                self._draw_runs(item.bottom, x + (w - bw) / 2, bar + size * 0.36, size)
                self.pdf.set_draw_color(*INK)
                self.pdf.set_line_width(0.25)
                self.pdf.line(x + 0.3, bar, x + w - 0.3, bar)
            else:
                self._draw_runs(item, x, baseline, size)
            x += w
        self.y += line_h + 0.5

    # -- tables ---------------------------------------------------------------------------------
    def table(self, header: list[str], rows: list[list[str]], widths: list[float], *, size: float = 8.5,
              right: set[int] = frozenset(), bold_rows: set[int] = frozenset()) -> None:
        row_h = size * 0.5
        self.font(size, True)
        self.color(MUTED)
        x = self.x0
        for text, w, i in zip(header, widths, range(len(header))):
            self._cell(text, x, w, row_h, right=i in right, size=size, bold=True)
            x += w
        self.y += row_h
        self.pdf.set_draw_color(*RULE)
        self.pdf.set_line_width(0.2)
        self.pdf.line(self.x0, self.y, self.x0 + sum(widths), self.y)
        self.y += 0.6
        self.color(INK)
        for n, row in enumerate(rows):
            x = self.x0
            for text, w, i in zip(row, widths, range(len(row))):
                self._cell(text, x, w, row_h, right=i in right, size=size, bold=n in bold_rows)
                x += w
            self.y += row_h
        self.y += 1.5

    def _cell(self, text: str, x: float, w: float, h: float, *, right: bool, size: float, bold: bool) -> None:
        self.font(size, bold)
        text = self._fit(text, w - 1.5)
        tw = self.pdf.get_string_width(text)
        self.pdf.text(x + (w - 0.75 - tw if right else 0.75), self.y + h * 0.75, text)

    def _fit(self, text: str, width: float) -> str:
        if self.pdf.get_string_width(text) <= width:
            return text
        while text and self.pdf.get_string_width(text + "…") > width:
            text = text[:-1]
        return text + "…"


@dataclass(frozen=True)
class ChartAxis:
    """A value axis from 0 to ``count`` steps of ``unit`` × 10^``exponent`` (``unit`` 1, 2, 2.5 or 5, at most
    :data:`AXIS_STEPS` steps), for any finite top from a subnormal to float64's largest number.

    The steps are counted, never stepped through by adding a tolerance to a value (that loop drew about
    10^288 grid lines for grades of 1e-300), and values are scaled with :mod:`decimal`, so neither 10^-330
    nor 10^310 has to be a float.

    >>> [ChartAxis.for_top(x).ticks() for x in (3.2, 0.0)]
    [[(0.0, '0'), (0.25, '1'), (0.5, '2'), (0.75, '3'), (1.0, '4')], [(0.0, '0'), (1.0, '1')]]
    >>> a = ChartAxis.for_top(1e-300); [label for _, label in a.ticks()], a.fraction(1e-300)
    (['0', '2.5e-301', '5e-301', '7.5e-301', '1e-300'], 1.0)
    >>> [label for _, label in ChartAxis.for_top(5e-324).ticks()][-1], ChartAxis.for_top(1.7e308).ticks()[-1][1]
    ('6e-324', '2e308')
    """

    exponent: int
    unit: Decimal
    count: int

    @classmethod
    def for_top(cls, top: float) -> ChartAxis:
        if not (math.isfinite(top) and top > 0):
            return cls(0, Decimal(1), 1)
        raw = Decimal(repr(top)) / 4  # the shortest decimal of the float (1e-300, not 1.0000000000000000262e-300)
        exponent = raw.adjusted()  # 10^exponent <= raw < 10^(exponent + 1)
        mantissa = raw.scaleb(-exponent)
        unit = next((Decimal(m) for m in ("1", "2", "2.5", "5") if Decimal(m) >= mantissa), None)
        if unit is None:
            unit, exponent = Decimal(1), exponent + 1
        count = max(1, math.ceil(Decimal(repr(top)).scaleb(-exponent) / unit))
        return cls(exponent, unit, min(count, AXIS_STEPS))

    def fraction(self, value: float) -> float:
        """Where ``value`` lies on the axis, 0 (bottom) to 1 (top); negative and NaN values at 0."""
        if not (value > 0):
            return 0.0
        if not math.isfinite(value):
            return 1.0
        return min(1.0, float(Decimal(repr(value)).scaleb(-self.exponent) / (self.unit * self.count)))

    def ticks(self) -> list[tuple[float, str]]:
        """``(fraction, label)`` of every grid line, 0 included."""
        return [(j / self.count, _tick_label((self.unit * j).scaleb(self.exponent))) for j in range(self.count + 1)]


AXIS_STEPS = 5


def _tick_label(value: Decimal) -> str:
    """A grid value as text: like the lecture's numbers, with a power of ten for very small or large values."""
    if value == 0:
        return "0"
    if -4 <= value.adjusted() < 15:
        return shown(float(value), 2)
    mantissa, power = f"{value.normalize():.3e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return f"{mantissa}e{int(power)}"


def _chart(w: _Writer, bd, lang: str, height: float) -> None:
    """Bars of discounted gain per position: the ranking (filled) beside the ideal order (outlined, lightly
    filled: told apart by shape as well as colour)."""
    pdf = w.pdf
    part = bd.iloc[:CHART_CAP]
    actual = [0.0 if v != v else float(v) for v in part["discounted_gain"]]
    ideal = [0.0 if v != v else float(v) for v in part["ideal_discounted_gain"]]
    axis = ChartAxis.for_top(max(actual + ideal + [0.0]))
    left, bottom = w.x0 + 12, w.y + height - 7
    plot_w, plot_h = w.width - 14, height - 14
    w.font(8)
    w.color(MUTED)
    pdf.set_draw_color(*RULE)
    pdf.set_line_width(0.15)
    for where, label in axis.ticks():
        y = bottom - plot_h * where
        pdf.line(left, y, left + plot_w, y)
        pdf.text(left - 1.5 - pdf.get_string_width(label), y + 1.0, label)
    n = len(part)
    slot = plot_w / max(n, 1)
    bar = slot * 0.36
    for i in range(n):
        x = left + i * slot + slot * 0.12
        for value, dx, ideal_bar in ((actual[i], 0.0, False), (ideal[i], bar, True)):
            h = plot_h * axis.fraction(value)
            if h > 0:
                _bar(pdf, x + dx, bottom - h, bar, h, ideal=ideal_bar)
        label = str(i + 1)
        pdf.text(left + i * slot + (slot - pdf.get_string_width(label)) / 2, bottom + 4, label)
    # legend and axis names
    ly = w.y + 2.5
    lx = left
    legend = ((t("present.your_ranking", lang=lang), False), (t("present.ideal_ranking", lang=lang), True))
    for name, ideal_bar in legend:
        _bar(pdf, lx, ly - 2.2, 3, 3, ideal=ideal_bar)
        w.color(INK)
        pdf.text(lx + 4, ly, name)
        lx += 8 + pdf.get_string_width(name)
    caption = f"{t('present.chart_term', lang=lang)} · {t('present.chart_position', lang=lang)} 1–{n}"
    w.color(MUTED)
    pdf.text(left + plot_w - pdf.get_string_width(caption), ly, caption)
    w.y += height + 1


def _bar(pdf, x: float, y: float, w: float, h: float, *, ideal: bool) -> None:
    """A bar of the chart or its legend: the ranking's filled, the ideal order's outlined over a light fill."""
    if ideal:
        pdf.set_fill_color(*IDEAL_FILL)
        pdf.set_draw_color(*IDEAL)
        pdf.set_line_width(0.45)
        inset = min(0.225, w / 4, h / 4)  # the outline stays inside the bar's box
        pdf.rect(x + inset, y + inset, max(w - 2 * inset, 0.0), max(h - 2 * inset, 0.0), style="DF")
    else:
        pdf.set_fill_color(*ACTUAL)
        pdf.rect(x, y, w, h, style="F")


def _sum_items(name: str, at: str, grades: list[float], terms: list[float], total: float, lecture: Lecture,
               n_total: int) -> list[list]:
    """Three formula lines: the definition, the numbers written in, their values and the total."""
    head = [_Run(name), _Run(at, "sub") if at else _Run(""), _Run(" = Σ "),
            _Frac(_gain_runs(None, lecture.variant.gain),
                  _discount_runs(None, lecture.variant.discount, lecture.variant.log_base))]
    shown_n = min(len(grades), TERMS_CAP, n_total)
    substituted: list = [(_Run("= "),)]
    values: list = [(_Run("= "),)]
    for i in range(shown_n):
        if i:
            substituted.append((_Run(" + "),))
            values.append((_Run(" + "),))
        substituted.append(_Frac(_gain_runs(shown(grades[i]), lecture.variant.gain),
                                 _discount_runs(i + 1, lecture.variant.discount, lecture.variant.log_base)))
        values.append((_Run(shown(terms[i], 4)),))
    if n_total > shown_n:
        more = f" + … ({n_total - shown_n})"
        substituted.append((_Run(more),))
        values.append((_Run(more),))
    values.append((_Run(" = "), _Run(shown(total), bold=True)))
    return [[tuple(head[:3]), head[3]], substituted, values]


@dataclass(frozen=True)
class Rendered:
    """A drawn handout: the PDF, and how far down the page its content reaches (mm), for layout tests."""

    pdf: bytes
    bottom: float  # lowest point of the content before the footer
    footer_top: float
    page_height: float


def build(lecture: Lecture, lang: str, *, paper: str = "A4", step: int | None = None, theme: str = "light",
          base: str = "") -> bytes:
    """The handout of ``lecture`` as PDF bytes (one page, ``paper`` "A4" or "Letter"), in ``lang``.

    ``base`` (``scheme://host`` of the address the lecturer opened, :func:`ui.widgets.base_url`) makes the
    footer's link one a reader can type from paper; without it the link is relative.

    Raises :class:`HandoutError` when no font for the language is installed (see :func:`font_problem`)
    and ValueError for an unknown paper.
    """
    return render(lecture, lang, paper=paper, step=step, theme=theme, base=base).pdf


def render(lecture: Lecture, lang: str, *, paper: str = "A4", step: int | None = None,
           theme: str = "light", base: str = "") -> Rendered:
    """:func:`build`, with the layout's measurements."""
    from fpdf import FPDF

    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    font = _font(lang)
    nums = numbers(lecture)
    fmt = "A4" if paper == "A4" else "Letter"
    # Two passes: the first only collects the characters drawn, so that the embedded fonts are cut down
    # to them before fpdf2 reads them (a whole CJK face costs
    # it ~1.5 s; a subset of a few hundred glyphs, milliseconds).
    collector = _Collector(fmt)
    _draw(collector, lecture, lang, nums, step=step, theme=theme, has_bold=font.bold is not None, base=base)
    chars = "".join(sorted(collector.chars | set(_ALWAYS)))
    pdf = FPDF(orientation="portrait", unit="mm", format=fmt)
    pdf.set_auto_page_break(False)
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_title(t("present.handout_title", lang=lang))
    pdf.set_creator("NDCG Lab")
    pdf.set_lang(language(lang).pdf)
    pdf.add_font("body", "", _subset(font.regular, font.index, chars))
    if font.bold:
        pdf.add_font("body", "B", _subset(font.bold, font.index, chars))
    pdf.add_page()
    bottom, footer_top = _draw(pdf, lecture, lang, nums, step=step, theme=theme, has_bold=font.bold is not None,
                               base=base)
    return Rendered(bytes(pdf.output()), bottom, footer_top, pdf.h)


def _draw(pdf, lecture: Lecture, lang: str, nums: dict, *, step, theme: str, has_bold: bool,
          base: str = "") -> tuple[float, float]:
    """Draw the handout on ``pdf`` (an FPDF page or a :class:`_Collector`); return (bottom, footer top)."""
    bd = nums["breakdown"]
    w = _Writer(pdf, "body", has_bold, pdf.w - 2 * MARGIN)

    # -- title, variant, source ------------------------------------------------------------------
    w.text_line(t("present.handout_title", lang=lang), 16, bold=True, gap=1)
    w.text_line(t("present.variant", lang=lang, name=variant_label(lecture, lang)), 10, rgb=MUTED, gap=0.5)
    if lecture.example is not None:
        ex = lecture.example
        w.text_line(t("present.example", lang=lang, doc=ex.doc, title=t(f"worked_examples.ex.{ex.key}.title",
                                                                           lang=lang)), 10, rgb=MUTED, gap=0.5)
    ranking = " · ".join(f"{label} {shown(g)}" for label, g in zip(lecture.labels, lecture.rels))
    line = t("present.handout_ranking", lang=lang, items=ranking)
    if lecture.unretrieved:
        extra = " · ".join(f"{label} {shown(g)}" for label, g in
                           zip(lecture.labels[len(lecture.rels):], lecture.unretrieved))
        line += "   " + t("present.handout_unretrieved", lang=lang, items=extra)
    w.text_line(line if len(line) < 600 else line[:599] + "…", 9, rgb=MUTED, gap=2)

    # -- formulas with the numbers -------------------------------------------------------------
    w.text_line(t("present.handout_formula", lang=lang), 11, bold=True, gap=1)
    n = lecture.n_terms
    at = f"@{lecture.variant.k}" if lecture.variant.k else ""
    actual = bd.dropna(subset=["relevance"]).iloc[:n]
    for items in _sum_items("DCG", at, actual["relevance"].tolist(), actual["discounted_gain"].tolist(),
                            nums["dcg"], lecture, n):
        w.formula(items)
    ideal = bd.dropna(subset=["ideal_relevance"])
    for items in _sum_items("IDCG", at, ideal["ideal_relevance"].tolist(), ideal["ideal_discounted_gain"].tolist(),
                            nums["idcg"], lecture, len(ideal)):
        w.formula(items)
    w.formula([(_Run("NDCG"), _Run(at, "sub"), _Run(" = ")), _Frac((_Run("DCG"),), (_Run("IDCG"),)),
               (_Run(" = "),), _Frac((_Run(shown(nums["dcg"])),), (_Run(shown(nums["idcg"])),)),
               (_Run(" = "), _Run(shown(nums["ndcg"]), bold=True))])
    w.y += 1

    # -- per-position table ----------------------------------------------------------------------
    w.text_line(t("present.handout_table", lang=lang), 11, bold=True, gap=1)
    cols = ("position", "label", "grade", "gain", "discount", "term", "dcg", "ideal_grade", "ideal_term", "idcg")
    header = [t(f"present.h_{c}", lang=lang) for c in cols]
    fractions = (0.05, 0.12, 0.07, 0.08, 0.10, 0.11, 0.11, 0.11, 0.13, 0.12)
    widths = [w.width * f for f in fractions]
    labels = list(lecture.labels)

    def cell(x, digits=4) -> str:
        return "" if x != x else shown(x, digits)

    rows = []
    for r in bd.iloc[:ROWS_CAP].itertuples():
        i = int(r.position)
        rows.append([str(i), labels[i - 1] if i <= len(lecture.rels) else "", cell(r.relevance), cell(r.gain),
                     cell(r.discount), cell(r.discounted_gain), cell(r.dcg), cell(r.ideal_relevance),
                     cell(r.ideal_discounted_gain), cell(r.idcg)])
    if len(bd) > ROWS_CAP:
        last = bd.iloc[-1]
        rows.append(["…", "", "", "", "", "", cell(last["dcg"]), "", "", cell(last["idcg"])])
    w.table(header, rows, widths, right={0, 2, 3, 4, 5, 6, 7, 8, 9},
            bold_rows={len(rows) - 1} if len(bd) > ROWS_CAP else set())
    if len(bd) > ROWS_CAP:
        w.y -= 1
        w.text_line(t("present.handout_rows_more", lang=lang, m=len(bd) - ROWS_CAP), 8, rgb=MUTED, gap=1)

    # -- chart -----------------------------------------------------------------------------------
    w.text_line(t("present.handout_chart", lang=lang), 11, bold=True, gap=0.5)
    _chart(w, bd, lang, 46)

    # -- the document's printed numbers ------------------------------------------------------------
    printed = printed_numbers(lecture, ("relevances", "cg", "dcg", "idcg", "ndcg", "ideal_vector"), lang)
    if printed:
        w.text_line(t("present.doc_prints", lang=lang), 11, bold=True, gap=1)
        header = [t(f"present.col_{c}", lang=lang) for c in ("quantity", "printed", "exact")] + [""]
        header.append(t("present.col_verdict", lang=lang))
        w.table(header, [[p.what, p.printed, p.exact, "", p.verdict] for p in printed],
                [w.width * f for f in (0.34, 0.16, 0.16, 0.04, 0.30)], size=9, right={1, 2})

    # -- footer ----------------------------------------------------------------------------------
    bottom = w.y
    link = present_url(lecture, step=step, theme=theme, lang=lang)
    link = f"{base.rstrip('/')}/{link}" if base else link
    footer_top = w.y = max(w.y, pdf.h - MARGIN - 9)
    w.text_line(t("present.handout_footer", lang=lang), 7.5, rgb=MUTED, gap=0.3)
    w.text_line(link if len(link) <= 200 else link[:199] + "…", 7.5, rgb=MUTED, gap=0)
    return bottom, footer_top


# Always in the embedded subset: digits, Latin letters and the symbols the layout adds itself.
_ALWAYS = "".join(chr(c) for c in range(32, 127)) + "Σ−…·–★÷×₂"


class _Collector:
    """Stands in for an FPDF page in the first pass: records every character drawn, draws nothing.

    Widths are rough (0.5 mm per character at 10 pt), which only changes where lines wrap: every
    string is still drawn, so every character is seen.
    """

    _SIZES = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}

    def __init__(self, fmt: str):
        self.w, self.h = self._SIZES[fmt]
        self.chars: set[str] = set()
        self._y = 0.0
        self._size = 10.0

    def set_font(self, family, style="", size=10.0):
        self._size = size

    def get_string_width(self, text: str) -> float:
        self.chars.update(text)
        return len(text) * self._size * 0.05

    def text(self, x, y, text):
        self.chars.update(text)

    def multi_cell(self, w, h, text, **kwargs):
        self.chars.update(text)
        self._y += h * (1 + len(text) // 80)

    def set_xy(self, x, y):
        self._y = y

    def get_y(self) -> float:
        return self._y

    def __getattr__(self, name):  # colours, lines, rectangles: nothing to collect
        return lambda *args, **kwargs: None


@lru_cache(maxsize=32)
def _subset(path: str, index: int, chars: str) -> str:
    """A font file holding only ``chars`` of face ``index`` of ``path`` (a temporary file, cached)."""
    import hashlib
    import tempfile

    from fontTools import subset
    from fontTools.ttLib import TTFont

    digest = hashlib.sha256(f"{path}|{index}|{chars}".encode()).hexdigest()[:24]
    folder = Path(tempfile.gettempdir()) / "ndcg_lab_fonts"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{digest}.ttf"
    if not target.is_file():
        font = TTFont(path, fontNumber=index, lazy=True)
        options = subset.Options()
        options.name_IDs = ["*"]
        options.notdef_outline = True
        options.layout_features = []
        options.hinting = False
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=chars)
        subsetter.subset(font)
        if "CFF " in font:
            _cff_to_truetype(font)
        partial = target.with_suffix(f".{os.getpid()}.part")
        font.save(str(partial))
        font.close()
        os.replace(partial, target)  # atomic: concurrent sessions never read half a file
    return str(target)


def _cff_to_truetype(font) -> None:
    """Replace a font's CFF (cubic) outlines by TrueType (quadratic) ones, in place.

    fpdf2 then embeds a CIDFontType2 font with Identity-H encoding, which every PDF reader and text
    extractor understands (pypdf and pdfminer mis-read the CID-keyed CFF font fpdf2 embeds otherwise:
    its text comes out with NULs, or not at all).  Cubic curves are approximated to 1/1000 em.
    """
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    max_err = font["head"].unitsPerEm / 1000
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    for tag in ("CFF ", "VORG"):
        if tag in font:
            del font[tag]
    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                 "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, attr, 1 if attr == "maxZones" else 0)
    maxp.numGlyphs = len(order)
    font["maxp"] = maxp
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
    hmtx = font["hmtx"]
    for name in order:  # left side bearings from the new outlines
        advance, _ = hmtx[name]
        glyph = glyf.glyphs[name]
        glyph.recalcBounds(glyf)
        hmtx[name] = (advance, getattr(glyph, "xMin", 0))
