"""Accessibility helpers for the browser tests (not a test module): axe-core and the focus indicator.

* :func:`axe` runs axe-core (the copy pinned inside ``axe-playwright-python``, injected from disk: nothing
  is fetched) at WCAG 2.0/2.1 A and AA in the page **and in every frame** (component iframes: the drag
  list, Present's key listener), after the caller has waited for the page to finish rendering.  It returns
  a :class:`AxeReport`: violations counted by rule (nodes), with a readable description of each node.
* :func:`focus_indicator` measures the focus indicator of the focused control the way WCAG's
  "focus appearance" does: the same pixels photographed focused and unfocused, the contrast of each
  changed pixel between the two states; a :class:`FocusIndicator` says how many pixels changed by at
  least 3:1 and whether that is at least a 2 CSS px ring around the control.
* :func:`contrast` and :func:`parse_color`: WCAG's contrast ratio of CSS colours.

Usage (any page or test module)::

    from tests.browser.a11y import axe, focus_indicator, tab_to
    report = axe(pg)
    assert report.counts() == {}, report.text()
    pg.keyboard.press("Tab")
    ring = focus_indicator(pg)
    assert ring.visible, ring
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tests.browser.conftest import settled

#: The WCAG 2.1 A and AA rules (axe's tags for 2.0 and 2.1 at both levels).
WCAG21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_source() -> str:
    """axe-core's script as pinned by axe-playwright-python (requirements-dev.txt), read from disk."""
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def axe_version() -> str:
    head = axe_source()[:200]
    found = re.search(r"axe v([0-9.]+)", head)
    return found.group(1) if found else "?"


@dataclass
class AxeReport:
    """axe's violations: ``rules`` maps a rule id to its nodes (each a dict with ``target``, ``html``,
    ``summary``, ``frame`` = the URL of the frame the node is in, "" for the page itself)."""

    rules: dict[str, list[dict]] = field(default_factory=dict)
    help: dict[str, str] = field(default_factory=dict)

    def counts(self, *, where=None) -> dict[str, int]:
        """Nodes per rule (only nodes for which ``where(node)`` is true, when given)."""
        out = {}
        for rule, nodes in self.rules.items():
            n = sum(1 for node in nodes if where is None or where(node))
            if n:
                out[rule] = n
        return out

    def without(self, rule: str, where) -> AxeReport:
        """A copy without the nodes of ``rule`` for which ``where(node)`` is true (an allowed, named case)."""
        rules = {}
        for r, nodes in self.rules.items():
            kept = [n for n in nodes if not (r == rule and where(n))]
            if kept:
                rules[r] = kept
        return AxeReport(rules, self.help)

    def text(self, limit: int = 8) -> str:
        lines = []
        for rule, nodes in self.rules.items():
            lines.append(f"{rule} ({len(nodes)}): {self.help.get(rule, '')}")
            for node in nodes[:limit]:
                where = f" [frame {node['frame']}]" if node["frame"] else ""
                lines.append(f"  - {node['target']}{where}: {node['html'][:160]}")
                if node["summary"]:
                    lines.append("      " + node["summary"].replace("\n", " | ")[:300])
        return "\n".join(lines) or "no violations"


AXE_RUN_JS = """async (tags) => {
  const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
                                     iframes: false});
  return r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => ({
    target: n.target.join(' '), html: n.html, summary: n.failureSummary || ''}))}));
}"""


def axe(pg, *, tags=WCAG21_AA, frames: bool = True) -> AxeReport:
    """Run axe-core in ``pg`` and (``frames=True``) separately inside each of its frames.

    Each frame is checked on its own (its nodes carry the frame's URL), so a violation inside a component
    frame is reported as the frame's, never merged with the page's.  Waiting for the page to be drawn is
    the caller's job (e.g. ``tests.browser.journey.done``).
    """
    source = axe_source()
    report = AxeReport()
    targets = [pg.main_frame] + ([f for f in pg.frames if f is not pg.main_frame] if frames else [])
    for frame in targets:
        if frame.is_detached():
            continue
        url = "" if frame is pg.main_frame else (frame.url or "about:srcdoc")
        try:
            has_axe = frame.evaluate("() => typeof window.axe !== 'undefined'")
            if not has_axe:
                frame.evaluate(source)
            found = frame.evaluate(AXE_RUN_JS, list(tags))
        except Exception as exc:  # a frame that went away while checked: say so
            if frame.is_detached():
                continue
            raise AssertionError(f"axe could not run in frame {url!r}: {exc}") from exc
        for v in found:
            report.help[v["id"]] = v["help"]
            report.rules.setdefault(v["id"], []).extend(dict(n, frame=url) for n in v["nodes"])
    return report


# --- waiting for a page to be drawn ------------------------------------------------------------------

# What keeps a page from being drawn: no title yet, a script run going, stale elements, skeletons, a chart without
# its SVG, a component frame still loading.  A chart inside a closed expander is not waited for: it is drawn
# when the expander opens (under load its first drawing can find a zero width and wait for that;
# tests/browser/test_run_files.py opens the expanders and waits for their charts).
MISSING_JS = """() => ({
  no_title: !document.querySelector('[data-testid="stMainBlockContainer"] h1'),
  running: Boolean(document.querySelector('[data-testid="stStatusWidget"]')),
  stale: [...document.querySelectorAll('[data-stale="true"]')].map((e) => e.getAttribute('data-testid')).slice(0, 5),
  skeletons: document.querySelectorAll('[data-testid="stSkeleton"]').length,
  undrawn_charts: [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .filter((c) => !c.querySelector('svg, canvas') && !c.closest('details:not([open])')).map((c) => {
      const box = c.getBoundingClientRect();
      const expander = c.closest('[data-testid="stExpander"]');
      return {label: c.getAttribute('aria-label') || (c.querySelector('[aria-label]') || c).getAttribute('aria-label'),
              size: [Math.round(box.width), Math.round(box.height)],
              expander: expander ? expander.querySelector('summary').innerText.slice(0, 40) : null,
              html: c.innerHTML.slice(0, 200)};
    }),
  loading_frames: [...document.querySelectorAll('iframe')].filter((f) => {
    try { return f.contentDocument && f.contentDocument.readyState !== 'complete'; } catch (e) { return false; }
  }).map((f) => f.title || f.src).slice(0, 5),
})"""
# Drawn: nothing of MISSING_JS is missing, for three polls in a row (100 ms apart; a rerun that starts in
# between resets the count).
RENDERED_JS = """() => {
  const m = (""" + MISSING_JS + """)();
  const ok = !m.no_title && !m.running && !m.stale.length && !m.skeletons && !m.undrawn_charts.length
    && !m.loading_frames.length;
  window.__nlDrawn = ok ? (window.__nlDrawn || 0) + 1 : 0;
  return window.__nlDrawn >= 3;
}"""


def rendered(pg, timeout: float = 60_000) -> None:
    """Wait until the page is drawn and has stayed so for three polls (see ``RENDERED_JS``); on a timeout, say
    what was still missing."""
    pg.evaluate("() => { window.__nlDrawn = 0; }")
    try:
        pg.wait_for_function(RENDERED_JS, polling=100, timeout=timeout)
        # RENDERED_JS can hold while a run is still going (Streamlit mounts its status widget only 500 ms into a
        # run, and a page just opened has nothing stale): wait for the end of every run the page asked for too
        settled(pg, timeout)
    except Exception as exc:
        raise AssertionError(f"{pg.url} not drawn after {timeout / 1000:.0f} s: "
                             f"{pg.evaluate(MISSING_JS)}") from exc


# --- colours --------------------------------------------------------------------------------------

def parse_color(css: str) -> tuple[float, float, float, float]:
    """``rgb(…)``/``rgba(…)``/``#rrggbb`` to (r, g, b, alpha) with r, g, b in 0..255."""
    css = css.strip()
    if css.startswith("#"):
        h = css[1:]
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), 1.0)
    nums = [float(x) for x in re.findall(r"[-+]?[0-9]*\.?[0-9]+", css)]
    if css.startswith("rgb") and len(nums) >= 3:
        return (nums[0], nums[1], nums[2], nums[3] if len(nums) > 3 else 1.0)
    raise ValueError(f"parse_color: cannot read the colour {css!r}; give #rrggbb, rgb() or rgba()")


def luminance(rgb) -> np.ndarray:
    """WCAG relative luminance of colours (``...x3`` array or one triple, 0..255)."""
    c = np.asarray(rgb, dtype=float)[..., :3] / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return lin @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a, b) -> float | np.ndarray:
    """WCAG contrast ratio (1..21) of two colours given as CSS strings or RGB triples / arrays of them."""
    a = parse_color(a)[:3] if isinstance(a, str) else a
    b = parse_color(b)[:3] if isinstance(b, str) else b
    la, lb = luminance(a), luminance(b)
    return (np.maximum(la, lb) + 0.05) / (np.minimum(la, lb) + 0.05)


def blend(fg, bg) -> tuple[float, float, float]:
    """A translucent colour ``fg`` (r, g, b, alpha) drawn over the opaque ``bg``."""
    r, g, b, a = fg
    return (r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a))


# --- focus indicator -----------------------------------------------------------------------------

# The focused element (inside a same-origin frame too) and the box of what the user sees as the control:
# a radio, checkbox or toggle focuses a visually hidden <input>, its ring is drawn on the label.
FOCUS_BOX_JS = """() => {
  let doc = document, el = document.activeElement, dx = 0, dy = 0;
  for (;;) {  // into same-origin frames (their boxes offset by the frame's) and open shadow roots
    if (el && el.tagName === 'IFRAME' && el.contentDocument) {
      const r = el.getBoundingClientRect(); dx += r.left; dy += r.top;
      doc = el.contentDocument; el = doc.activeElement;
    } else if (el && el.shadowRoot && el.shadowRoot.activeElement) {
      el = el.shadowRoot.activeElement;
    } else break;
  }
  if (!el || el === doc.body || el === doc.documentElement) return null;
  // a visually hidden input (radio, checkbox, toggle, slider thumb): the nearest visible ancestor
  // (inside a 1 px clipping wrapper, or itself tiny): the first ancestor above it at least 8 px wide and high
  const small = (e) => { const r = e.getBoundingClientRect(); return r.width < 8 || r.height < 8; };
  let box = el;
  for (let p = el, k = 0; p && k < 3; p = p.parentElement, k++) if (small(p)) box = p;
  while (box.parentElement && small(box)) box = box.parentElement;
  const r = box.getBoundingClientRect();
  const name = (el.getAttribute('aria-label') || el.innerText || el.value || el.title || '').trim().slice(0, 60);
  return {x: r.left + dx, y: r.top + dy, width: r.width, height: r.height, tag: el.tagName.toLowerCase(),
          role: el.getAttribute('role') || '', name, testid: (el.closest('[data-testid]') || el).dataset.testid || ''};
}"""

# The focused element itself, through same-origin frames and open shadow roots (a JS function ``deepest``).
DEEPEST_JS = """
const deepest = (el) => {
  for (;;) {
    if (el && el.tagName === 'IFRAME' && el.contentDocument) el = el.contentDocument.activeElement;
    else if (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    else return el;
  }
};
"""

SCROLL_JS = "() => {" + DEEPEST_JS + """
  let el = document.activeElement;
  el = deepest(el);
  el.scrollIntoView({block: 'center', inline: 'nearest'});
}"""

# "Unfocused": the focus parked on an off-screen element of the page (a bare blur() is not enough: a data
# grid takes the focus back to its canvas when one of its cells loses it).
BLUR_JS = "() => {" + DEEPEST_JS + """
  let el = document.activeElement;
  el = deepest(el);
  window.__nlFocused = el;
  let park = document.getElementById('nl-focus-parking');
  if (!park) {
    park = document.createElement('span');
    park.id = 'nl-focus-parking'; park.tabIndex = -1;
    park.style.cssText = 'position:fixed;left:-9999px;top:0;width:1px;height:1px;overflow:hidden';
    document.body.appendChild(park);
  }
  el.blur(); park.focus({preventScroll: true});
  return document.activeElement === park;
}"""

REFOCUS_JS = "() => {" + DEEPEST_JS + """
  const el = window.__nlFocused; if (el) el.focus(); delete window.__nlFocused;
  let a = document.activeElement;
  a = deepest(a);
  return a === el; }"""


@dataclass
class FocusIndicator:
    """What changed around the focused control between its focused and unfocused pictures."""

    element: dict
    changed: int          # pixels that differ at all
    strong: int           # pixels whose focused colour is >= 3:1 against their unfocused colour
    max_contrast: float
    needed: int           # pixels of a 2 CSS px ring around the control's box

    @property
    def visible(self) -> bool:
        """At least a 2 CSS px ring's worth of pixels changed by 3:1 or more."""
        return self.strong >= self.needed

    def __str__(self) -> str:
        e = self.element or {}
        return (f"focus indicator of {e.get('tag')} role={e.get('role')!r} name={e.get('name')!r} "
                f"({e.get('testid')}): {self.strong} px at >= 3:1 of {self.changed} changed "
                f"(max {self.max_contrast:.2f}:1), needed {self.needed}")


def _png(data: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=float)


def focus_indicator(pg, *, margin: int = 10) -> FocusIndicator:
    """Photograph the focused control (with ``margin`` px around it) focused, then unfocused, and compare.

    The focus is put back where it was (a keyboard journey goes on from it).  Fails when nothing has focus.
    """
    box = pg.evaluate(FOCUS_BOX_JS)
    assert box is not None, "nothing has focus (the focus fell to the page body)"
    vw, vh = pg.evaluate("() => [innerWidth, innerHeight]")
    if box["y"] < margin or box["y"] + box["height"] > vh - margin:  # bring the whole control into view
        pg.evaluate(SCROLL_JS)
        box = pg.evaluate(FOCUS_BOX_JS)
    x0, y0 = max(0, int(box["x"]) - margin), max(0, int(box["y"]) - margin)
    x1 = min(vw, int(box["x"] + box["width"]) + margin + 1)
    y1 = min(vh, int(box["y"] + box["height"]) + margin + 1)
    assert x1 > x0 and y1 > y0, f"the focused control is outside the viewport: {box}"
    clip = {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}
    focused = _png(pg.screenshot(clip=clip, animations="disabled", caret="hide"))
    assert pg.evaluate(BLUR_JS), "the focus could not be moved away to photograph the control unfocused"
    unfocused = _png(pg.screenshot(clip=clip, animations="disabled", caret="hide"))
    back = pg.evaluate(REFOCUS_JS)
    assert back, f"could not give the focus back to {box}"
    h = min(focused.shape[0], unfocused.shape[0])
    w = min(focused.shape[1], unfocused.shape[1])
    f, u = focused[:h, :w], unfocused[:h, :w]
    diff = np.abs(f - u).max(axis=-1) > 8
    ratios = contrast(f[diff], u[diff]) if diff.any() else np.zeros(0)
    # a 2 px ring around the part of the box in the viewport (corners included): only the sides that are in
    # the viewport count (a table taller than the screen shows its ring's top and sides, not its bottom)
    seen_w = max(min(box["x"] + box["width"], vw) - max(box["x"], 0), 0)
    seen_h = max(min(box["y"] + box["height"], vh) - max(box["y"], 0), 0)
    sides = [(box["y"] - 2 >= 0, seen_w), (box["y"] + box["height"] + 2 <= vh, seen_w),
             (box["x"] - 2 >= 0, seen_h), (box["x"] + box["width"] + 2 <= vw, seen_h)]
    ring = 2 * sum(length for inside, length in sides if inside) + 16
    return FocusIndicator(element=box, changed=int(diff.sum()), strong=int((ratios >= 3.0).sum()),
                          max_contrast=float(ratios.max()) if ratios.size else 1.0, needed=int(ring))


def tab_to(pg, predicate_js: str, *, limit: int = 80, shift: bool = False) -> dict:
    """Press Tab (Shift+Tab) until ``predicate_js`` (a JS function of the focused element, frames
    followed) is true; return the element's box.  Fails after ``limit`` presses."""
    probe = "() => {" + DEEPEST_JS + f"""
      let el = deepest(document.activeElement);
      return el ? Boolean(({predicate_js})(el)) : false; }}"""
    seen = []
    for _ in range(limit):
        pg.keyboard.press("Shift+Tab" if shift else "Tab")
        if pg.evaluate(probe):
            return pg.evaluate(FOCUS_BOX_JS)
        seen.append(pg.evaluate(FOCUS_BOX_JS))
    raise AssertionError(f"no focus matching {predicate_js} after {limit} presses; last: {seen[-5:]}")


# --- one page's accessibility as drawn ---------------------------------------------------------------

# Charts without a description, per page: Present's charts (ui/charts/present.py) are the "present" helper's.
UNDESCRIBED_CHARTS = {"present": None}  # None: not counted here (the slide's charts change with the step)

METRICS_JS = """() => [...document.querySelectorAll('[data-testid="stMetric"]')].map((m) => ({
  label: (m.querySelector('[data-testid="stMetricLabel"]') || {}).innerText || '',
  value: (m.querySelector('[data-testid="stMetricValue"]') || {}).innerText || ''}))"""


def check_page(pg, page: str, lang: str, where: str) -> list[str]:
    """What a screen reader and axe-core find on ``page`` as drawn in ``lang``: its own title, ``<html lang>``,
    every chart named by its description, every headline number (st.metric) announced as one group named by
    its label and the value shown, and no axe violation.  A list of problems (empty = clean).

    Called after the caller has waited for the page (:func:`rendered`), by tests/browser/test_a11y.py and by
    the layout tests for the pages they open anyway (one load serves both)."""
    from ui.i18n import catalogue
    from ui.shell import APP_NAME, HTML_LANG

    problems = []
    title = f"{catalogue(lang)[f'common.nav.{page}']} · {APP_NAME}"
    if pg.title() != title:
        problems.append(f"{where}: title {pg.title()!r}, expected {title!r}")
    html_lang = pg.evaluate("() => document.documentElement.lang")
    if html_lang != HTML_LANG[lang]:
        problems.append(f"{where}: <html lang={html_lang!r}>, expected {HTML_LANG[lang]!r}")
    charts = pg.eval_on_selector_all('[data-testid="stVegaLiteChart"]',
                                     "els => els.map(e => e.getAttribute('aria-label') || '')")
    bare = [c for c in charts if not c.strip() or c == "Vega visualization"]
    if bare and page not in UNDESCRIBED_CHARTS:
        problems.append(f"{where}: {len(bare)} of {len(charts)} charts without a description")
    metrics = pg.get_by_test_id("stMetric")
    shown = pg.evaluate(METRICS_JS)
    for i, m in enumerate(shown):
        snap = metrics.nth(i).aria_snapshot().splitlines()[0]
        found = re.search(r'group "(.*)"', snap)
        announced = found.group(1) if found else snap
        expected = f"{m['label'].strip()} {m['value'].strip()}"
        if " ".join(announced.split()) != " ".join(expected.split()):
            problems.append(f"{where}: metric announced as {announced!r}, shown as {expected!r}")
    report = axe(pg)
    if report.counts():
        problems.append(f"{where}: axe found {report.counts()}\n{report.text()}")
    return problems
