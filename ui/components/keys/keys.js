// Present mode's keys: → / Space / PageDown forward, ← / PageUp back (what presenter clickers send).
// Streamlit has no key bindings, so this listens on the app's own document (components v2 run in the
// page, not in an iframe) and sends the step to go to as a state value {step, seq}.  The step is
// absolute and seq counts presses, so presses made while the server is still busy are neither lost
// nor counted twice: the page consumes each seq once, and a re-render with a stale step does not
// rewind the local counter (data.seq tells which presses the server has already seen).
export default function (component) {
  const { data, setStateValue } = component;
  const w = window;
  const last = Math.max(1, Number(data.last) || 1);
  w.__ndcgLabKeys = w.__ndcgLabKeys || { seq: 0, current: 1, handler: null };
  const box = w.__ndcgLabKeys;
  const seen = Number(data.seq) || 0;
  if (seen >= box.seq) {
    box.seq = seen;
    box.current = Number(data.step) || 1;
  }
  box.last = last;
  if (box.handler) {
    document.removeEventListener("keydown", box.handler, true);
  }
  const FORWARD = ["ArrowRight", "PageDown", " ", "Spacebar"];
  const BACK = ["ArrowLeft", "PageUp"];
  const typing = (el) => {
    if (!el) return false;
    if (el.isContentEditable) return true;
    const tag = (el.tagName || "").toUpperCase();
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  };
  const handler = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (typing(e.target) || typing(document.activeElement)) return;
    let delta = 0;
    if (FORWARD.includes(e.key)) delta = 1;
    else if (BACK.includes(e.key)) delta = -1;
    if (!delta) return;
    // Our key: no page scroll, and no click on a focused button (Space would press it).
    e.preventDefault();
    e.stopPropagation();
    const target = Math.max(1, Math.min(box.last, box.current + delta));
    if (target === box.current) return;
    box.current = target;
    box.seq += 1;
    setStateValue("go", { step: target, seq: box.seq });
  };
  box.handler = handler;
  document.addEventListener("keydown", handler, true);
  return () => {
    document.removeEventListener("keydown", handler, true);
    if (box.handler === handler) box.handler = null;
  };
}
