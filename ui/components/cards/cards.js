// The playground's cards and headline numbers (an st.components.v2 component: it runs in the page).
//
// The server sends the ranking as cards, each item's gain, every position's discount (divisor), the
// cutoff k, the IDCG source and the zero-IDCG value, all computed by metrics/ (ui/components/cards/
// __init__.py), and the four headline numbers as metrics/ computed and ui.numbers.show wrote them.
// While a card moves (mouse, touch or keyboard) this script recomputes CG, DCG, IDCG and NDCG for the
// order on screen with metrics/' own arithmetic (each term gain / divisor, summed exactly like
// math.fsum, NDCG = DCG / IDCG or the zero-IDCG value) and shows them at once; on drop they stay
// (final) and the new order goes to the server as the state value "order" {ranked, unretrieved, seq}.
// The server's rerun then carries the same numbers, so nothing moves when it arrives.
//
// Drag and drop is SortableJS (vendored, pinned: vendor/Sortable.min.js, prepended by Python as
// `Sortable`); the keyboard path is ours: focus a card, Space/Enter lifts it, arrow keys move it
// (the last ranked place leads into "Not retrieved"), Space/Enter drops, Escape puts it back; every
// step is announced in a polite live region, which is also the visible status line.

// ---- metrics/' arithmetic ------------------------------------------------------------------------

// math.fsum (CPython's msum with its final half-even correction): the correctly rounded sum.
export function fsum(values) {
  const partials = [];
  for (let x of values) {
    let i = 0;
    for (let j = 0; j < partials.length; j++) {
      let y = partials[j];
      if (Math.abs(x) < Math.abs(y)) { const t = x; x = y; y = t; }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    if (x !== 0) partials.push(x); // as CPython: a zero is no partial (so the sum of zeros is +0.0)
  }
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n];
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n];
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const y = lo * 2;
    const x = hi + y;
    const yr = x - hi;
    if (y === yr) hi = x;
  }
  return hi;
}

// CG, DCG, IDCG, NDCG of ranked gains (position 1 first) with the judged-but-not-retrieved gains, as
// metrics.ndcg computes them: terms gain / divisor over the first k positions; the ideal ranking is
// the pool (list, or list + not retrieved) by gain, highest first, cut at k, negative gains counting 0.
export function headline(model, rankedGains, unretrievedGains) {
  const k = model.k;
  const n = k == null ? rankedGains.length : Math.min(k, rankedGains.length);
  const top = rankedGains.slice(0, n);
  const cg = fsum(top);
  const dcg = fsum(top.map((g, i) => g / model.divisors[i]));
  const pool = model.idcg === "judged" ? rankedGains.concat(unretrievedGains) : rankedGains.slice();
  pool.sort((a, b) => b - a);
  const m = k == null ? pool.length : Math.min(k, pool.length);
  const idcg = fsum(pool.slice(0, m).map((g, i) => (g < 0 ? 0 : g / model.divisors[i])));
  const ndcg = idcg === 0 ? (model.zero == null ? NaN : model.zero) : dcg / idcg;
  return { cg, dcg, idcg, ndcg };
}

// ---- ui.numbers.show, digit for digit (exact decimal rounding, ties to even, as Python's format) ---

function parts(x) {
  // |x| = m * 2**e exactly (m a BigInt), and the sign bit.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e = -1074;
  if (biased !== 0) { m |= 1n << 52n; e = biased - 1075; }
  return { negative: hi >>> 31 === 1, m, e };
}

function roundHalfEven(num, den) {
  const q = num / den;
  const twice = 2n * (num % den);
  return twice > den || (twice === den && (q & 1n) === 1n) ? q + 1n : q;
}

function ratioOf(x) {
  // |x| as num / den (BigInts).
  const { negative, m, e } = parts(x);
  return e >= 0 ? { negative, num: m << BigInt(e), den: 1n } : { negative, num: m, den: 1n << BigInt(-e) };
}

function fixed(x, digits) {
  // f"{x:.{digits}f}"
  const { negative, num, den } = ratioOf(x);
  const q = roundHalfEven(num * 10n ** BigInt(digits), den).toString().padStart(digits + 1, "0");
  const text = digits > 0 ? `${q.slice(0, q.length - digits)}.${q.slice(q.length - digits)}` : q;
  return (negative ? "-" : "") + text;
}

function scientific(x, digits) {
  // f"{x:.{digits}e}" split as show() does: mantissa and int(power); x != 0.
  const { negative, num, den } = ratioOf(x);
  let power = (num / den).toString().length - 1; // |x| >= 1e15 here: its integer part has power + 1 digits
  const scaled = (p) => (p >= digits
    ? roundHalfEven(num, den * 10n ** BigInt(p - digits))
    : roundHalfEven(num * 10n ** BigInt(digits - p), den));
  let q = scaled(power);
  if (q >= 10n ** BigInt(digits + 1)) { power += 1; q = scaled(power); }
  const s = q.toString();
  const mantissa = digits > 0 ? `${s[0]}.${s.slice(1)}` : s;
  return `${negative ? "-" : ""}${mantissa}e${power}`;
}

export function show(x, digits = 4) {
  if (x == null || Number.isNaN(x)) return "–";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  if (Math.abs(x) >= 1e15) return scientific(x, digits);
  let text = fixed(x, digits);
  if (text.startsWith("-") && Number(text) === 0) text = text.slice(1);
  return text;
}

// ---- the component -------------------------------------------------------------------------------

const KEYS = ["cg", "dcg", "idcg", "ndcg"];
const BOXES = new WeakMap();
let uid = 0;

function fill(template, values) {
  return String(template || "").replace(/\{(\w+)\}/g, (m, name) => (Object.hasOwn(values, name) ? String(values[name]) : m));
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function modelOf(data) {
  const items = new Map();
  const cards = { ranked: [], unretrieved: [] };
  for (const area of ["ranked", "unretrieved"]) {
    for (const [label, grade, gain] of data[area] || []) {
      items.set(label, { label, grade, gain });
      cards[area].push(label);
    }
  }
  return {
    items,
    cards,
    tailRanked: (data.tail && data.tail.ranked) || [],
    tailUnretrieved: (data.tail && data.tail.unretrieved) || [],
    divisors: data.divisors || [],
    k: data.k == null ? null : Number(data.k),
    idcg: data.idcg,
    zero: data.zero,
    numbers: data.numbers || {},
    t: data.t || {},
    seq: Number(data.seq) || 0,
  };
}

class Cards {
  constructor(root, setStateValue, setTriggerValue) {
    this.root = root;
    this.setStateValue = setStateValue;
    this.setTriggerValue = setTriggerValue;
    this.askedForRest = false;
    this.seq = 0;
    this.model = null;
    this.committed = null; // {ranked, unretrieved} the server has (or will have, after the last drop)
    this.drag = null; // {label, origin, keyboard} while a card moves
    this.pending = null; // server data that arrived during a move
    this.cardEls = new Map();
    this.id = `ndcg-cards-${++uid}`;
    this.build();
  }

  build() {
    const id = this.id;
    this.box = el("div", { class: "cards", role: "group", "data-cards-ready": "0" });
    this.numbersEl = el("div", { class: "numbers", role: "group" });
    this.numEls = {};
    for (const key of KEYS) {
      const p = el("p", { class: "num", "data-key": key });
      const label = el("span", { class: "lab" });
      const value = el("span", { class: "val" });
      const printed = el("span", { class: "printed" });
      p.append(label, document.createTextNode(" "), value, document.createTextNode(" "), printed);
      this.numbersEl.append(p);
      this.numEls[key] = { p, label, value, printed };
    }
    this.status = el("p", { class: "status", role: "status", "aria-live": "polite", "aria-atomic": "true" });
    this.help = el("p", { class: "help", id: `${id}-help` });
    this.lists = {};
    this.titles = {};
    const areas = el("div", { class: "areas" });
    for (const area of ["ranked", "unretrieved"]) {
      const wrap = el("div", { class: `area area-${area}` });
      const title = el("p", { class: "area-title", id: `${id}-${area}-title` });
      const ul = el("ul", { class: "list", "data-area": area, "aria-labelledby": `${id}-${area}-title` });
      wrap.append(title, ul);
      areas.append(wrap);
      this.lists[area] = ul;
      this.titles[area] = title;
    }
    this.box.append(this.numbersEl, this.status, areas, this.help);
    this.root.append(this.box);
    this.box.addEventListener("keydown", (e) => this.onKey(e));
    this.box.addEventListener("focusout", (e) => this.onFocusOut(e));
    this.box.addEventListener("focusin", (e) => this.onFocusIn(e));
    const reduced = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.sortables = ["ranked", "unretrieved"].map((area) => Sortable.create(this.lists[area], {
      group: { name: id, pull: true, put: true },
      draggable: "li.card",
      forceFallback: true, // one code path (pointer events) for mouse and touch, with a drawn copy of the card
      fallbackTolerance: 3,
      delay: 160, // on touch only: a short press picks a card up, a swipe still scrolls the page
      delayOnTouchOnly: true,
      touchStartThreshold: 6,
      animation: reduced ? 0 : 120,
      emptyInsertThreshold: 24,
      ghostClass: "is-ghost",
      chosenClass: "is-chosen",
      dragClass: "is-dragging",
      onStart: (evt) => this.startMove(evt.item.dataset.label, false),
      onMove: (evt) => this.allowMove(evt),
      onChange: () => this.preview(),
      onEnd: () => this.endMove(true),
    }));
  }

  destroy() {
    for (const s of this.sortables) s.destroy();
    this.box.remove();
  }

  // ---- data from the server ----
  receive(data) {
    if (!data || typeof data !== "object") return;
    const seq = Number(data.seq) || 0;
    if (seq < this.seq) return; // an older run's output: a newer drop is on its way to the server
    if (this.drag) { this.pending = data; return; }
    this.seq = seq;
    try {
      this.adopt(modelOf(data));
    } finally {
      if (data.rest_pending && !this.askedForRest) {
        // The page stopped after the numbers (a first visit): ask for the rest once they are painted
        // (asked even if drawing failed: the rest of the page must never wait for this component).
        this.askedForRest = true;
        requestAnimationFrame(() => requestAnimationFrame(() => this.setTriggerValue("painted", true)));
      }
    }
  }

  adopt(model) {
    this.model = model;
    const t = model.t;
    this.box.setAttribute("aria-label", t.region || "");
    this.numbersEl.setAttribute("aria-label", t.numbers || "");
    setText(this.help, t.help || "");
    for (const area of ["ranked", "unretrieved"]) setText(this.titles[area], t[`${area}_title`] || "");
    // cards: reuse each label's element, move only what moved (a focused card keeps its focus)
    const active = this.activeElement();
    const wanted = new Set(model.items.keys());
    for (const [label, li] of this.cardEls) {
      if (!wanted.has(label)) { li.remove(); this.cardEls.delete(label); }
    }
    for (const area of ["ranked", "unretrieved"]) {
      const ul = this.lists[area];
      model.cards[area].forEach((label, i) => {
        let li = this.cardEls.get(label);
        if (!li) { li = this.makeCard(label); this.cardEls.set(label, li); }
        const item = model.items.get(label);
        setText(li.querySelector(".name"), item.label);
        setText(li.querySelector(".grade"), item.grade);
        const here = this.cardsIn(ul)[i];
        if (here !== li) ul.insertBefore(li, here || null);
      });
    }
    if (active && active !== this.activeElement() && active.isConnected && this.box.contains(active)) active.focus();
    this.committed = this.order();
    this.relabel();
    this.rove();
    const mine = this.compute(this.committed);
    const disagree = [];
    for (const key of KEYS) {
      const server = model.numbers[key] || {};
      const n = this.numEls[key];
      setText(n.label, server.label || key.toUpperCase());
      setText(n.printed, server.printed || "");
      setText(n.value, server.text == null ? show(mine[key]) : server.text);
      if (server.text != null && server.text !== show(mine[key])) disagree.push(key);
    }
    // The server's numbers are shown; a difference from this script's arithmetic would be a bug
    // (the browser tests fail on this attribute).
    if (disagree.length) this.box.setAttribute("data-disagree", disagree.join(" "));
    else this.box.removeAttribute("data-disagree");
    this.box.classList.remove("is-preview");
    setText(this.status, "");
    this.box.setAttribute("data-seq", String(this.seq));
    this.box.setAttribute("data-server-seq", String(this.seq)); // the server's numbers are on screen
    this.box.setAttribute("data-cards-ready", "1");
  }

  makeCard(label) {
    const li = el("li", { class: "card" });
    li.dataset.label = label;
    const body = el("div", {
      class: "card-body", role: "button", tabindex: "-1", "aria-describedby": `${this.id}-help`,
    });
    body.append(el("span", { class: "rank", "aria-hidden": "true" }), el("span", { class: "name" }),
      el("span", { class: "grade" }), el("span", { class: "disc", "aria-hidden": "true" }));
    li.append(body);
    return li;
  }

  // ---- reading the screen ----
  cardsIn(ul) {
    return [...ul.children].filter((c) => c.classList.contains("card") && !c.classList.contains("sortable-fallback"));
  }

  order() {
    return {
      ranked: this.cardsIn(this.lists.ranked).map((li) => li.dataset.label),
      unretrieved: this.cardsIn(this.lists.unretrieved).map((li) => li.dataset.label),
    };
  }

  compute(order) {
    const m = this.model;
    const gains = (labels) => labels.map((l) => m.items.get(l).gain);
    return headline(m, gains(order.ranked).concat(m.tailRanked), gains(order.unretrieved).concat(m.tailUnretrieved));
  }

  sameOrder(a, b) {
    return !!a && !!b && a.ranked.join("\u0000") === b.ranked.join("\u0000")
      && a.ranked.length === b.ranked.length
      && a.unretrieved.join("\u0000") === b.unretrieved.join("\u0000")
      && a.unretrieved.length === b.unretrieved.length;
  }

  // Each ranked card shows its rank and its position's discount; past k it counts nothing.
  relabel() {
    const m = this.model;
    const t = m.t;
    this.cardsIn(this.lists.ranked).forEach((li, i) => {
      const counted = m.k == null || i < m.k;
      const d = show(m.divisors[i], 3);
      const words = { label: li.dataset.label, grade: m.items.get(li.dataset.label).grade, rank: i + 1, d };
      setText(li.querySelector(".rank"), String(i + 1));
      setText(li.querySelector(".disc"), counted ? fill(t.discount, { d }) : (t.beyond_k || ""));
      li.classList.toggle("is-beyond", !counted);
      li.querySelector(".card-body").setAttribute("aria-label", fill(counted ? t.card_ranked : t.card_beyond, words));
    });
    this.cardsIn(this.lists.unretrieved).forEach((li) => {
      setText(li.querySelector(".rank"), "");
      setText(li.querySelector(".disc"), t.not_retrieved || "");
      li.classList.remove("is-beyond");
      li.querySelector(".card-body").setAttribute("aria-label", fill(t.card_unretrieved, {
        label: li.dataset.label, grade: m.items.get(li.dataset.label).grade,
      }));
    });
  }

  // One tab stop per area: the card focused last (or the first).
  rove() {
    for (const area of ["ranked", "unretrieved"]) {
      const bodies = this.cardsIn(this.lists[area]).map((li) => li.querySelector(".card-body"));
      const current = bodies.find((b) => b.getAttribute("tabindex") === "0") || bodies[0];
      for (const b of bodies) b.setAttribute("tabindex", b === current ? "0" : "-1");
    }
  }

  // ---- the numbers ----
  showNumbers(values, preview) {
    for (const key of KEYS) setText(this.numEls[key].value, show(values[key]));
    this.box.classList.toggle("is-preview", preview);
  }

  where(label) {
    const order = this.order();
    const r = order.ranked.indexOf(label);
    return r >= 0 ? { area: "ranked", index: r, order } : { area: "unretrieved", index: order.unretrieved.indexOf(label), order };
  }

  describe(label, action) {
    const m = this.model;
    const pos = this.where(label);
    const values = this.compute(pos.order);
    let where;
    if (pos.area !== "ranked") where = fill(m.t.where_unretrieved, { label });
    else if (m.k == null || pos.index < m.k) {
      where = fill(m.t.where_ranked, { label, rank: pos.index + 1, d: show(m.divisors[pos.index], 3) });
    } else where = fill(m.t.where_beyond, { label, rank: pos.index + 1 });
    return { values, text: fill(m.t[action], { where, ndcg: show(values.ndcg) }) };
  }

  // ---- a move: started, previewed, ended ----
  startMove(label, keyboard) {
    if (this.drag && this.drag.keyboard && !keyboard) this.endMove(false); // a pointer takes over a lifted card
    this.drag = { label, origin: this.order(), keyboard };
    const li = this.cardEls.get(label);
    if (li) li.classList.add("is-moving");
    this.box.classList.add("is-moving-card");
    if (keyboard) this.preview("lifted");
  }

  preview(template = "preview") {
    if (!this.drag || !this.model) return;
    this.relabel();
    const { values, text } = this.describe(this.drag.label, template);
    this.showNumbers(values, !this.sameOrder(this.order(), this.committed));
    setText(this.status, text);
  }

  allowMove(evt) {
    // The ranked list keeps at least one card.
    if (evt.from === this.lists.ranked && evt.to === this.lists.unretrieved
        && this.cardsIn(this.lists.ranked).length <= 1) {
      setText(this.status, this.model.t.empty || "");
      return false;
    }
    return true;
  }

  endMove(drop) {
    const drag = this.drag;
    if (!drag) return;
    const li = this.cardEls.get(drag.label);
    if (!drop) this.restore(drag.origin);
    this.drag = null;
    if (li) li.classList.remove("is-moving");
    this.box.classList.remove("is-moving-card");
    this.relabel();
    const order = this.order();
    const changed = !this.sameOrder(order, this.committed);
    if (changed) {
      const { values, text } = this.describe(drag.label, "dropped");
      this.seq += 1;
      this.committed = order;
      this.showNumbers(values, false); // final at once: the server's rerun will carry the same numbers
      this.box.setAttribute("data-seq", String(this.seq));
      setText(this.status, text);
      this.setStateValue("order", { ranked: order.ranked, unretrieved: order.unretrieved, seq: this.seq });
    } else {
      this.showNumbers(this.compute(order), false);
      setText(this.status, drop ? "" : this.describe(drag.label, "cancelled").text);
    }
    const pending = this.pending;
    this.pending = null;
    if (pending && (Number(pending.seq) || 0) >= this.seq) this.receive(pending);
  }

  restore(order) {
    for (const area of ["ranked", "unretrieved"]) {
      for (const label of order[area]) this.lists[area].append(this.cardEls.get(label));
    }
  }

  // ---- keyboard ----
  bodyOf(target) {
    return target && target.classList && target.classList.contains("card-body") ? target : null;
  }

  focusCard(label) {
    const body = this.cardEls.get(label).querySelector(".card-body");
    for (const b of this.box.querySelectorAll(".card-body")) {
      if (b.closest("ul") === body.closest("ul")) b.setAttribute("tabindex", b === body ? "0" : "-1");
    }
    body.focus();
  }

  onFocusIn(e) {
    const body = this.bodyOf(e.target);
    if (body) {
      for (const b of body.closest("ul").querySelectorAll(".card-body")) b.setAttribute("tabindex", b === body ? "0" : "-1");
    }
  }

  onFocusOut() {
    // Leaving a lifted card (Tab, a click elsewhere) puts it back.  Checked after the event: moving the
    // focused card in the DOM blurs it for a moment, and the move focuses it again.
    if (!this.drag || !this.drag.keyboard) return;
    const drag = this.drag;
    setTimeout(() => {
      if (this.drag !== drag) return;
      const body = this.cardEls.get(drag.label)?.querySelector(".card-body");
      if (this.activeElement() !== body) this.endMove(false);
    }, 0);
  }

  activeElement() {
    return this.root.getRootNode().activeElement;
  }

  onKey(e) {
    const body = this.bodyOf(e.target);
    if (!body || !this.model || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
    const label = body.closest("li").dataset.label;
    const key = e.key;
    const lifted = this.drag && this.drag.keyboard && this.drag.label === label;
    const handled = lifted ? this.liftedKey(label, key) : this.restingKey(label, key);
    if (handled) { e.preventDefault(); e.stopPropagation(); }
  }

  sequence() {
    const o = this.order();
    return o.ranked.concat(o.unretrieved);
  }

  restingKey(label, key) {
    if (key === " " || key === "Spacebar" || key === "Enter") {
      if (this.drag) return true; // a pointer drag is on
      this.startMove(label, true);
      return true;
    }
    const all = this.sequence();
    const i = all.indexOf(label);
    let j = null;
    if (key === "ArrowLeft" || key === "ArrowUp") j = i - 1;
    else if (key === "ArrowRight" || key === "ArrowDown") j = i + 1;
    else if (key === "Home") j = 0;
    else if (key === "End") j = all.length - 1;
    if (j == null) return false;
    if (j >= 0 && j < all.length && j !== i) this.focusCard(all[j]);
    return true;
  }

  liftedKey(label, key) {
    if (key === " " || key === "Spacebar" || key === "Enter") { this.endMove(true); this.focusCard(label); return true; }
    if (key === "Escape") { this.endMove(false); this.focusCard(label); return true; }
    if (key === "Tab") return false;
    // Slots: before each ranked card or at the ranked end, then before each unretrieved card or at its end.
    const o = this.order();
    const inRanked = o.ranked.includes(label);
    const ranked = o.ranked.filter((l) => l !== label);
    const unret = o.unretrieved.filter((l) => l !== label);
    const current = inRanked ? o.ranked.indexOf(label) : ranked.length + 1 + o.unretrieved.indexOf(label);
    const last = ranked.length + 1 + unret.length;
    let slot = null;
    if (key === "ArrowLeft" || key === "ArrowUp") slot = current - 1;
    else if (key === "ArrowRight" || key === "ArrowDown") slot = current + 1;
    else if (key === "Home") slot = 0;
    else if (key === "End") slot = inRanked ? ranked.length : last;
    if (slot == null) return true; // other keys do nothing while a card is lifted
    slot = Math.max(0, Math.min(last, slot));
    if (slot === current) return true;
    if (ranked.length === 0 && slot > 0) { setText(this.status, this.model.t.empty || ""); return true; }
    const li = this.cardEls.get(label);
    if (slot <= ranked.length) {
      const before = ranked[slot];
      this.lists.ranked.insertBefore(li, before ? this.cardEls.get(before) : null);
    } else {
      const before = unret[slot - ranked.length - 1];
      this.lists.unretrieved.insertBefore(li, before ? this.cardEls.get(before) : null);
    }
    this.focusCard(label);
    this.preview();
    return true;
  }
}

export default function (component) {
  const { parentElement, setStateValue, setTriggerValue } = component;
  // One JSON text (see cards() in __init__.py): parsed here.
  let data = component.data;
  try {
    if (data && typeof data.payload === "string") data = JSON.parse(data.payload);
  } catch (error) {
    console.error("ndcg_lab.ranking_cards: unreadable data", error);
    data = null;
  }
  let cards = BOXES.get(parentElement);
  try {
    if (!cards) {
      cards = new Cards(parentElement, setStateValue, setTriggerValue);
      BOXES.set(parentElement, cards);
    }
    cards.setStateValue = setStateValue;
    cards.setTriggerValue = setTriggerValue;
    cards.receive(data);
  } catch (error) {
    // Streamlit would show a thrown error with its stack to the visitor: the console only, and the rest
    // of a first visit still comes (see receive).
    console.error("ndcg_lab.ranking_cards:", error);
    if (data && data.rest_pending && !(cards && cards.askedForRest)) setTriggerValue("painted", true);
  }
  // Streamlit runs the last render's cleanup when the element goes away, but also the cleanup of a render
  // that a newer one overtook while its module was loading (two reruns in quick succession): so the cards
  // go only once the element has really left the page, never while a card is being carried.
  return () => {
    setTimeout(() => {
      const host = parentElement.host || parentElement;
      if (!cards || host.isConnected) return;
      if (BOXES.get(parentElement) === cards) BOXES.delete(parentElement);
      cards.destroy();
    }, 0);
  };
}
