// Present mode's keys: → / Space / PageDown forward, ← / PageUp back (what presenter clickers send).
// Streamlit has no key bindings, so this listens on the app's own document (components v2 run in the
// page, not in an iframe).  Every press is numbered here (seq) and kept until the server has taken it:
// the state value carries all presses not yet taken, so presses made while the server is busy are
// neither lost nor counted twice (the server applies each unseen press, in order, to its own step).
// It also keeps the page's polite live region (the step's text for screen readers) and keeps the focus
// on the slide when the focused Back / Next button is disabled at an end of the lecture.
export default function (component) {
  const { data, setStateValue } = component;
  const w = window;
  const MAX_PRESSES = 64;
  const box = (w.__ndcgLabKeys = w.__ndcgLabKeys || { seq: 0, presses: [], token: null, handler: null });
  const token = String(data.token || "");
  const seen = Number(data.seq) || 0;
  if (box.token !== token) {  // a new server session: its count starts where the server says
    box.token = token;
    box.presses = [];
    box.seq = seen;
  }
  box.presses = box.presses.filter((p) => p[0] > seen);  // taken by the server
  if (seen > box.seq) box.seq = seen;
  box.step = Number(data.step) || 1;
  box.last = Math.max(1, Number(data.last) || 1);
  box.mounted = true;

  // ---- the live region: one element for the whole visit, only its text changes ----------------------
  let region = document.getElementById("nl-present-status");
  if (!region) {
    region = document.createElement("div");
    region.id = "nl-present-status";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    region.setAttribute("data-testid", "nl-present-status");
    region.style.cssText = "position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;"
      + "overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;";
    document.body.appendChild(region);
  }
  const said = String(data.announce || "");
  if (data.lang) region.setAttribute("lang", String(data.lang));
  if (data.label) region.setAttribute("aria-label", String(data.label));
  if (region.textContent !== said) {
    // A region created just now is not yet known to screen readers: give them a moment to find it.
    const fresh = !region.dataset.ready;
    region.dataset.ready = "1";
    if (fresh) setTimeout(() => { region.textContent = String(box.said || ""); }, 150);
    else region.textContent = said;
  }
  box.said = said;

  // ---- keys ------------------------------------------------------------------------------------------
  if (box.handler) document.removeEventListener("keydown", box.handler, true);
  const FORWARD = ["ArrowRight", "PageDown", " ", "Spacebar"];
  const BACK = ["ArrowLeft", "PageUp"];
  const OWN_KEYS = ["textbox", "searchbox", "combobox", "listbox", "option", "slider", "spinbutton", "radiogroup",
    "radio", "tab", "tablist", "menu", "menubar", "menuitem", "menuitemradio", "menuitemcheckbox", "grid",
    "gridcell", "tree", "treeitem", "treegrid"];
  // A control that uses arrow and Page keys itself (text, selects, sliders, radio groups, tabs, grids).
  const usesKeys = (el) => {
    if (!el || el === document.body || el === document.documentElement) return false;
    if (el.isContentEditable) return true;
    const tag = (el.tagName || "").toUpperCase();
    if (tag === "TEXTAREA" || tag === "SELECT" || tag === "IFRAME") return true;
    if (tag === "INPUT") return !["button", "submit", "reset", "image"].includes((el.type || "text").toLowerCase());
    return OWN_KEYS.includes((el.getAttribute("role") || "").toLowerCase());
  };
  // A control Space operates (a button, a link, a summary, a checkbox...): Space presses it.
  const CONTROLS = "button, a[href], input, select, textarea, summary, iframe, [contenteditable=''], "
    + "[contenteditable='true'], [role='button'], [role='link'], [role='checkbox'], [role='switch'], "
    + "[role='menuitem'], [role='option'], [role='tab']";
  const isControl = (el) => !!(el && el.matches && el !== document.body && el.matches(CONTROLS));
  const press = (delta) => {
    box.seq += 1;
    box.presses.push([box.seq, delta]);
    if (box.presses.length > MAX_PRESSES) box.presses = box.presses.slice(-MAX_PRESSES);
    setStateValue("go", { token: box.token, presses: box.presses.map((p) => p.slice()) });
  };
  const handler = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.defaultPrevented) return;
    let delta = 0;
    if (FORWARD.includes(e.key)) delta = 1;
    else if (BACK.includes(e.key)) delta = -1;
    if (!delta) return;
    const focused = document.activeElement;
    if (usesKeys(e.target) || usesKeys(focused)) return;
    // A control the keyboard is on keeps every key (Space presses it; → and ← do what it does, here nothing);
    // one the mouse just clicked keeps only Space, so a presenter's clicker works after a click on Next.
    const control = isControl(focused) ? focused : (isControl(e.target) ? e.target : null);
    if (control && (e.key === " " || e.key === "Spacebar" || box.keyboardFocus !== false)) return;
    e.preventDefault();  // our key: no page scroll
    press(delta);
  };
  box.handler = handler;
  document.addEventListener("keydown", handler, true);

  // ---- Back / Next: a click (mouse, touch, Enter or Space on the button) is one more numbered press -------
  // Streamlit sends a button's click once and forgets it: when the server takes a newer request (a key press)
  // before the click's run has called the button's callback, the click is gone.  A press queued here is sent
  // again with every value until the server has taken it, so it cannot be lost, and it keeps its place among
  // the keys.  The button itself never sees the click (its on_click stays for a browser without this script).
  const buttons = data.buttons && typeof data.buttons === "object" ? data.buttons : {};
  if (box.clickHandler) document.removeEventListener("click", box.clickHandler, true);
  const clickHandler = (e) => {
    if (!e.target || !e.target.closest) return;
    for (const [key, delta] of Object.entries(buttons)) {
      const button = e.target.closest(`.st-key-${key} button`);
      if (!button) continue;
      e.preventDefault();
      e.stopPropagation();
      if (!button.disabled && (delta === 1 || delta === -1)) press(delta);
      return;
    }
  };
  box.clickHandler = clickHandler;
  document.addEventListener("click", clickHandler, true);
  // How the focus got where it is: with the keyboard (Tab, a script after a key) or with the pointer.  (A key
  // pressed on a clicked button makes it :focus-visible before this listener runs, so that cannot tell.)
  if (!box.modality) {
    box.modality = true;
    document.addEventListener("keydown", () => { box.lastInput = "key"; }, true);
    document.addEventListener("pointerdown", () => { box.lastInput = "pointer"; }, true);
    document.addEventListener("focusin", () => { box.keyboardFocus = box.lastInput !== "pointer"; }, true);
  }

  // ---- focus: never dropped to the page body when Back / Next is disabled under it -------------------
  if (box.focusHandler) document.removeEventListener("focusout", box.focusHandler, true);
  const rescue = () => {
    const title = document.querySelector('[data-testid="stMainBlockContainer"] h1');
    if (!title) return;
    if (!title.hasAttribute("tabindex")) title.setAttribute("tabindex", "-1");
    title.focus({ preventScroll: true });
  };
  const focusHandler = (e) => {
    const el = e.target;
    if (e.relatedTarget || !el || !el.closest || !el.closest(".st-key-present_nav")) return;
    setTimeout(() => {
      const now = document.activeElement;
      if (now && now !== document.body && now !== document.documentElement) return;
      if (el.isConnected && !el.disabled) return;  // left on purpose (a click on the page, another window)
      rescue();
    }, 0);
  };
  box.focusHandler = focusHandler;
  document.addEventListener("focusout", focusHandler, true);

  return () => {
    document.removeEventListener("keydown", handler, true);
    document.removeEventListener("focusout", focusHandler, true);
    document.removeEventListener("click", clickHandler, true);
    if (box.handler === handler) box.handler = null;
    if (box.clickHandler === clickHandler) box.clickHandler = null;
    if (box.focusHandler === focusHandler) box.focusHandler = null;
    box.mounted = false;
    // Left the page (not just redrawn): the live region goes with it.
    setTimeout(() => {
      if (!box.mounted) {
        const r = document.getElementById("nl-present-status");
        if (r) r.remove();
      }
    }, 1000);
  };
}
