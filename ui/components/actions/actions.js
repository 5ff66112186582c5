// One-off actions the server asks of the page, each done once per nonce. Nothing is read or sent.
//
// values: the classroom's answer boxes start again when the exercise changes. A box holding text the student
// typed but never sent (no Enter, the focus still in it) keeps that text in Streamlit's own input whatever
// value the server gives the box (the input's unsent text wins), and the next Enter would send it as an
// answer to the new exercise. The server's value is put into every box named, as typing would (the input's
// setter and an "input" event), so the box shows and holds that value.
//
// top: the page scrolls to its top (a dashboard drawn where the setup form's Start button was, scrolled
// down, hid the join code on a projector).
export default function (component) {
  const { data } = component;
  const box = (window.__ndcgLabActions = window.__ndcgLabActions || { done: "" });
  if (!data.nonce || box.done === data.nonce) {
    return;
  }
  box.done = data.nonce;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  const values = data.values || {};
  const fill = (frames) => {
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
      requestAnimationFrame(() => fill(frames - 1));
    }
  };
  fill(240);
  if (data.top) {
    // for half a second: the page is still drawing, and Streamlit keeps the scroll position while it does
    const up = (frames) => {
      const main = document.querySelector('[data-testid="stMain"]');
      if (main) {
        main.scrollTo({ top: 0 });
      }
      window.scrollTo({ top: 0 });
      if (frames > 0) {
        requestAnimationFrame(() => up(frames - 1));
      }
    };
    up(30);
  }
}
