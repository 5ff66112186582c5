"""The Present page's looks: two themes (colours checked for contrast), the page's CSS and the HTML of a
slide (fixed markup; every label escaped by :func:`ui.escape.html`).  No Streamlit call.
"""
from __future__ import annotations

from ui.escape import html as html_escape
from ui.i18n import t
from ui.pages.present.navigation import KEYS_KEY
from ui.pages.present.slides import SUM_TERMS_SHOWN, Card, Slide, registry_name, shown

__all__ = ["PALETTES", "contrast", "page_css", "cards_html", "number_html", "printed_first", "printed_html",
           "variants_html"]


PALETTES = {
    "light": {"bg": "#ffffff", "text": "#111827", "muted": "#374151", "number": "#1e3a8a", "card": "#f1f5f9",
              "border": "#64748b", "accent": "#7c2d12", "actual": "#1e40af", "ideal": "#78350f",
              "beyond": "#e5e7eb", "focus": "#1d4ed8"},
    "dark": {"bg": "#0b1220", "text": "#f8fafc", "muted": "#cbd5e1", "number": "#fcd34d", "card": "#1e293b",
             "border": "#94a3b8", "accent": "#fdba74", "actual": "#93c5fd", "ideal": "#fbbf24",
             "beyond": "#111827", "focus": "#f8fafc"},
}
#: Colours that must stand out from the background by at least 3:1 (WCAG 1.4.11: chart marks, the focus ring,
#: borders of the cards); text colours need 7:1 (tests/ui/test_present_markup.py checks both).
MARKS = ("actual", "ideal", "accent", "focus", "border", "number")
TEXTS = ("text", "muted", "number", "accent")


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21).

    >>> round(contrast("#ffffff", "#000000"), 1), round(contrast("#777777", "#777777"), 1)
    (21.0, 1.0)
    """
    def lum(c: str) -> float:
        rgb = [int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# ---------------------------------------------------------------------------------------------
# HTML of a slide (fixed markup; every label escaped by ui.escape.html) and the page's CSS
# ---------------------------------------------------------------------------------------------

def page_css(theme: str) -> str:
    """The Present page's CSS: its theme over the whole app while it is shown, large type, compact margins.

    It lives in the page's own ``st.html`` element, so it leaves with the page.
    """
    p = PALETTES.get(theme, PALETTES["light"])
    return f"""<style>
.stApp, .stApp [data-testid="stHeader"], .stApp [data-testid="stBottomBlockContainer"] {{
  background: {p['bg']} !important; color: {p['text']}; }}
.stApp [data-testid="stMainBlockContainer"] {{ padding: 4.2rem 2rem 1rem 2rem; max-width: none; }}
.stApp [data-testid="stMainBlockContainer"] h1 {{ font-size: 2rem; color: {p['text']}; padding: 0; }}
.stApp [data-testid="stMain"] [data-testid="stMarkdownContainer"],
.stApp [data-testid="stMain"] [data-testid="stMarkdownContainer"] p,
.stApp [data-testid="stMain"] [data-testid="stWidgetLabel"] {{ color: {p['text']}; }}
.stApp [data-testid="stMain"] [data-testid="stCaptionContainer"] {{ color: {p['muted']}; font-size: 1rem;
  opacity: 1; }}
/* The sidebar (collapsed here, opened by the visitor) keeps Streamlit's light colours in both themes. */
.stApp [data-testid="stSidebar"] {{ color: #31333f; }}
.stApp [data-testid="stHeader"] button, .stApp [data-testid="stHeader"] span {{ color: {p['text']}; }}
.stApp [data-testid="stMain"] button[data-testid^="stBaseButton"],
.stApp [data-testid="stMain"] [data-testid="stDownloadButton"] button {{
  background: {p['card']}; color: {p['text']}; border: 2px solid {p['border']}; }}
.stApp [data-testid="stMain"] button[data-testid^="stBaseButton"] p {{ font-size: 1.1rem; color: {p['text']}; }}
.stApp [data-testid="stMain"] button[data-testid="stBaseButton-primary"] {{ background: {p['number']};
  border-color: {p['number']}; }}
.stApp [data-testid="stMain"] button[data-testid="stBaseButton-primary"] p {{ color: {p['bg']}; }}
.stApp [data-testid="stMain"] button[data-testid^="stBaseButton"]:disabled {{ background: {p['bg']};
  border: 2px dashed {p['border']}; cursor: not-allowed; }}
.stApp [data-testid="stMain"] button[data-testid^="stBaseButton"]:disabled p {{ color: {p['muted']}; }}
/* Keyboard focus: a 3 px ring in the theme's focus colour, 2 px away from the control, over a halo of the page's
   background, so the ring keeps >= 3:1 against what surrounds it on either theme.  The slide's title takes the
   focus when the focused Back / Next button is disabled at an end of the lecture. */
.stApp {{ --nl-focus: {p['focus']}; --nl-focus-halo: {p['bg']}; }}
/* A chart's toolbar (Show data, full screen) shows itself to the keyboard too, not only on hover. */
.stApp [data-testid="stElementToolbar"]:focus-within {{ opacity: 1 !important; z-index: 1000 !important; }}
.stApp :is(button, a[href], summary, [role="button"]):focus-visible, .stApp h1[tabindex="-1"]:focus-visible {{
  outline: 3px solid var(--nl-focus) !important; outline-offset: 2px !important;
  box-shadow: 0 0 0 7px var(--nl-focus-halo) !important; border-radius: 4px; }}
.stApp [data-testid="stMain"] [data-testid="stPageLink"] a,
.stApp [data-testid="stMain"] [data-testid="stPageLink"] p {{ color: {p['text']}; }}
.stApp [data-testid="stAlertContainer"] {{ background: {p['card']}; border: 1px solid {p['border']}; }}
.stApp [data-testid="stAlertContainer"] p {{ color: {p['text']}; }}
.nl {{ color: {p['text']}; font-family: "Source Sans", "Source Sans Pro", "Noto Sans CJK SC", "Noto Sans CJK KR",
  sans-serif; line-height: 1.3; }}
.stApp .st-key-{KEYS_KEY} {{ display: none; }}
.nl-step {{ font-size: 20px; font-weight: 700; color: {p['text']}; white-space: nowrap; }}
.nl-say {{ font-size: 24px; margin: 0 0 6px 0; }}
.nl-rowname {{ font-size: 17px; color: {p['muted']}; margin: 4px 0 3px 0; font-weight: 600; }}
.nl-cards {{ display: flex; flex-wrap: wrap; gap: 10px; }}
.nl-card {{ flex: 0 1 104px; min-width: 78px; box-sizing: border-box; background: {p['card']};
  border: 2px solid {p['border']}; border-radius: 10px; padding: 4px 4px 6px; text-align: center; overflow: hidden; }}
.nl-card.nl-current {{ border: 4px solid {p['accent']}; padding: 2px 2px 4px; }}
.nl-card.nl-beyond {{ background: {p['bg']}; border-style: dashed; }}
.nl-card.nl-unret {{ border-style: dashed; border-color: {p['accent']}; }}
.nl-label {{ font-size: 17px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }}
.nl-pos {{ color: {p['muted']}; font-weight: 400; }}
.nl-grade {{ font-size: 32px; font-weight: 700; color: {p['number']}; line-height: 1.1; }}
.nl-line {{ font-size: 17px; white-space: nowrap; }}
.nl-alt {{ font-size: 15px; color: {p['muted']}; }}
.nl-term {{ font-size: 19px; font-weight: 700; color: {p['accent']}; white-space: nowrap; }}
.nl-tag {{ font-size: 14px; color: {p['accent']}; white-space: nowrap; }}
.nl-more {{ align-self: center; font-size: 18px; color: {p['muted']}; }}
.nl-number-label {{ font-size: 22px; color: {p['muted']}; font-weight: 600; }}
.nl-number {{ font-size: 64px; font-weight: 800; color: {p['number']}; line-height: 1.05; }}
.nl-facts {{ font-size: 22px; margin-top: 2px; }}
.nl-facts b {{ color: {p['number']}; }}
.nl-sum {{ font-size: 22px; margin-top: 6px; overflow-wrap: anywhere; }}
.nl-sum .nl-new {{ color: {p['accent']}; font-weight: 800; text-decoration: underline; text-underline-offset: 4px; }}
/* The formula slide: KaTeX larger than the page's text, in the theme's colour. */
.stApp .st-key-present_formulas .katex-display {{ font-size: 1.15em; margin: 0.3em 0; color: {p['text']}; }}
@media (max-width: 640px) {{ .stApp .st-key-present_formulas .katex-display {{ font-size: 0.9em; }} }}
/* DCG and IDCG side by side where both fit whole; stacked where the lecture is narrower (a projector's 1024 px with
   the sidebar open leaves ~720 px: two columns of 314 px cut a 400 px formula). */
.stApp .st-key-present_formulas {{ container-type: inline-size; }}
@container (max-width: 900px) {{
  .stApp .st-key-present_formulas [data-testid="stHorizontalBlock"] {{ flex-direction: column; gap: 0; }}
  .stApp .st-key-present_formulas [data-testid="stColumn"] {{ width: 100% !important; flex: 1 1 auto !important;
    min-width: 0; }}
}}
.nl-table {{ border-collapse: collapse; font-size: 19px; margin-top: 4px; color: {p['text']}; }}
.nl-table th, .nl-table td {{ border-bottom: 1px solid {p['border']}; padding: 3px 8px; text-align: left; }}
.nl-table td:first-child {{ white-space: nowrap; }}
.nl-table th {{ color: {p['muted']}; font-size: 16px; }}
.nl-table td.nl-num {{ text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }}
.nl-table td.nl-chosen {{ color: {p['number']}; font-weight: 800; outline: 3px solid {p['accent']}; }}
/* On a phone the tables fit the screen: smaller type, names wrap between words, never inside a Chinese one (the
   variants table ran 50 px past a 390 px screen) */
@media (max-width: 640px) {{ .nl-table {{ font-size: 15px; }} .nl-table th {{ font-size: 13px; }}
  .nl-table th, .nl-table td {{ padding: 3px 4px; }}
  .nl-table td {{ word-break: keep-all; }} .nl-table td:first-child {{ white-space: normal; }} }}
@keyframes nl-move {{ from {{ transform: translate(calc(var(--slots) * (100% + 10px)), calc(-100% - 30px)); }}
  to {{ transform: none; }} }}
@keyframes nl-join {{ from {{ transform: translateY(40px); opacity: 0; }} to {{ transform: none; opacity: 1; }} }}
.nl-anim .nl-card {{ animation: nl-move 1.1s ease-in-out both; }}
.nl-anim .nl-card.nl-unret {{ animation: nl-join 1.1s ease-out 0.6s both; }}
@media (prefers-reduced-motion: reduce) {{ .nl-anim .nl-card {{ animation: none; }} }}
</style>"""


def _card_html(c: Card, lang: str, *, ideal: bool = False, animate: bool = False) -> str:
    extra = {"current": " nl-current", "beyond": " nl-beyond", "unretrieved": " nl-unret"}
    classes = "nl-card" + extra.get(c.state, "")
    style = ""
    if animate and c.moved_from:  # from its place in the list above (in card widths plus the gap)
        style = f' style="--slots: {c.moved_from - c.position}"'
    parts = [f'<div class="nl-label" title="{html_escape(c.label)}"><span class="nl-pos">#{c.position}</span> '
             f'{html_escape(c.label, 12)}</div>',
             f'<div class="nl-grade">{shown(c.grade)}</div>']
    if ideal:
        tag = (t("present.not_retrieved", lang=lang) if c.moved_from == 0
               else t("present.was_rank", lang=lang, rank=c.moved_from))
        parts.append(f'<div class="nl-tag">{html_escape(tag)}</div>')
    if c.gain is not None and not ideal:
        line = f'{html_escape(t("present.gain", lang=lang))} {shown(c.gain)}'
        if c.other_gain is not None:
            line += f' <span class="nl-alt">({shown(c.other_gain)})</span>'
        parts.append(f'<div class="nl-line">{line}</div>')
    if c.divisor is not None and not ideal:
        divided = t("present.divided_by", lang=lang, divisor=shown(c.divisor))
        parts.append(f'<div class="nl-line">{html_escape(divided)}</div>')
    if c.term is not None:
        parts.append(f'<div class="nl-term">= {shown(c.term)}</div>')
    elif c.state == "beyond":
        parts.append(f'<div class="nl-tag">{html_escape(t("present.beyond_k", lang=lang))}</div>')
    return f'<div class="{classes}"{style}>{"".join(parts)}</div>'


def cards_html(s: Slide, lang: str) -> str:
    """The ranked list's cards and, from the ideal step on, the ideal order (moving in on the ideal step)."""
    out = ['<div class="nl">', f'<p class="nl-say">{html_escape(s.sentence)}</p>']
    if s.cards:
        out.append(f'<div class="nl-rowname">{html_escape(t("present.your_ranking", lang=lang))}</div>'
                   '<div class="nl-cards">')
        out += [_card_html(c, lang) for c in s.cards]
        if s.hidden_cards:
            more = t("present.more_cards", lang=lang, m=s.hidden_cards)
            out.append(f'<div class="nl-more">{html_escape(more)}</div>')
        out.append("</div>")
    if s.ideal_cards:
        animate = s.kind == "ideal"
        out.append(f'<div class="nl-rowname">{html_escape(t("present.ideal_ranking", lang=lang))}</div>')
        out.append(f'<div class="nl-cards{" nl-anim" if animate else ""}">')
        out += [_card_html(c, lang, ideal=True, animate=animate) for c in s.ideal_cards]
        if s.hidden_ideal:
            more = t("present.more_cards", lang=lang, m=s.hidden_ideal)
            out.append(f'<div class="nl-more">{html_escape(more)}</div>')
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


def number_html(s: Slide, lang: str) -> str:
    """The current number (large), the facts beside it, the sum so far with its newest term marked."""
    out = ['<div class="nl">']
    if s.number is not None:
        out.append(f'<div class="nl-number-label">{html_escape(s.number_label)}</div>'
                   f'<div class="nl-number" data-testid="nl-number">{shown(s.number)}</div>')
    for name, value in s.facts:
        out.append(f'<div class="nl-facts">{html_escape(name)}: <b>{html_escape(value)}</b></div>')
    if s.sum_terms:
        shown_terms = s.sum_terms[:SUM_TERMS_SHOWN]
        newest = len(s.sum_terms) - 1 if s.kind == "term" else -1
        texts = [f'<span class="nl-new">{shown(x, 3)}</span>' if i == newest else shown(x, 3)
                 for i, x in enumerate(shown_terms)]
        more = len(s.sum_terms) - len(shown_terms)
        if more:
            texts.append(html_escape(t("present.sum_more", lang=lang, m=more)))
        total = f" = <b>{shown(s.sum_total)}</b>" if s.sum_total is not None else ""
        out.append(f'<div class="nl-sum">{html_escape(s.sum_label)} = {" + ".join(texts)}{total}</div>')
    out.append("</div>")
    return "".join(out)


def printed_first(s: Slide) -> bool:
    """Whether the document's printed numbers take the chart's place on this slide: under two rows of cards, or
    more than two of them, the chart and the table together run below a projector's 768 px.

    >>> from ui.pages.present.link import lecture_from_example
    >>> from ui.pages.present.slides import slide
    >>> lecture = lecture_from_example("003-blog")
    >>> [(slide(lecture, i, "en").kind, printed_first(slide(lecture, i, "en"))) for i in (4, 10, 12, 13)]
    [('term', False), ('dcg', False), ('idcg', True), ('ndcg', False)]
    """
    return bool(s.printed) and (bool(s.ideal_cards) or len(s.printed) > 2)


def printed_html(s: Slide, lang: str) -> str:
    """The document's printed numbers beside the exact ones, with the verdict (never corrected)."""
    if not s.printed:
        return ""
    head = "".join(f"<th>{html_escape(t(f'present.col_{c}', lang=lang))}</th>"
                   for c in ("quantity", "printed", "exact", "verdict"))
    rows = "".join(
        f"<tr><td>{html_escape(p.what)}</td><td class='nl-num'>{html_escape(p.printed)}</td>"
        f"<td class='nl-num'>{html_escape(p.exact)}</td><td>{html_escape(p.verdict)}</td></tr>"
        for p in s.printed)
    return (f'<div class="nl"><div class="nl-rowname">{html_escape(t("present.doc_prints", lang=lang))}</div>'
            f'<table class="nl-table" data-testid="nl-printed"><tr>{head}</tr>{rows}</table></div>')


def variants_html(s: Slide, lang: str) -> str:
    """The other variants' NDCG: one row per gain and discount, one column per IDCG source; this lecture's
    cell starred."""
    if s.variants is None:
        return ""
    v = s.variants
    sources = [x for x in ("list", "judged") if x in set(v["idcg_source"])]
    head = (f"<th>{html_escape(t('present.col_gain', lang=lang))}</th>"
            f"<th>{html_escape(t('present.col_discount', lang=lang))}</th>"
            + "".join(f"<th>{html_escape(t('present.col_ndcg', lang=lang))} · "
                      f"{html_escape(t(f'present.source_{x}', lang=lang))}</th>" for x in sources))
    rows = []
    for (gain, discount), group in v.groupby(["gain", "discount"], sort=False):
        cells = []
        for x in sources:
            r = group[group["idcg_source"] == x].iloc[0]
            mark = " nl-chosen" if r["chosen"] else ""
            cells.append(f"<td class='nl-num{mark}'>{shown(r['ndcg'])}{' ★' if r['chosen'] else ''}</td>")
        rows.append(f"<tr><td>{html_escape(registry_name('gain', gain, lang))}</td>"
                    f"<td>{html_escape(registry_name('discount', discount, lang))}</td>{''.join(cells)}</tr>")
    return (f'<div class="nl"><table class="nl-table" data-testid="nl-variants"><tr>{head}</tr>{"".join(rows)}'
            f'</table><div class="nl-rowname">{html_escape(t("present.chosen", lang=lang))}</div></div>')


