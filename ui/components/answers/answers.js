// The classroom's answer boxes start again when the exercise changes. A box holding text the student typed
// but never sent (no Enter, the focus still in it) keeps that text in Streamlit's own input whatever value
// the server gives the box (the input's unsent text wins), and the next Enter would send it as an answer to
// the new exercise. On each new reset (its nonce) this script puts the server's value into every box named,
// as typing would (the input's setter and an "input" event), so the box shows and holds that value.
// Nothing is read or sent.
export default function (component) {
  const { data } = component;
  const box = (window.__ndcgLabAnswerReset = window.__ndcgLabAnswerReset || { done: "" });
  if (!data.nonce || box.done === data.nonce) {
    return;
  }
  box.done = data.nonce;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  const values = data.values || {};
  const apply = (frames) => {
    let missing = false;
    for (const [key, value] of Object.entries(values)) {
      const input = document.querySelector(`.st-key-${CSS.escape(key)} input`);
      if (!input) {
        missing = true;
        continue;
      }
      if (input.value !== value) {
        setter.call(input, value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }
    if (missing && frames > 0) {
      requestAnimationFrame(() => apply(frames - 1));
    }
  };
  apply(240);
}
