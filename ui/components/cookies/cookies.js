// Cookies for the classroom: the server asks to store (or clear) a few cookies of the app's own origin
// and learns, through the state value "stored", that the browser really keeps them, or through "refused"
// that it does not.  Components v2 run in the app's page (no iframe), so document.cookie is the app's.
// The values are tokens the server made (URL-safe base64); the names are the server's too.
//
// It also reads the teacher's private key from the address's fragment (#key=...), which browsers never
// send in a request or a Referer, reports it once as "fragment" ("<nonce>:<key>", the key empty when there
// is none), and takes the fragment out of the address bar (and so out of the history entry) once the
// cookie that replaces it is kept.  Every page it is on asks for no Referer at all (a meta tag: the same
// policy nginx's sample configuration sends as a header).  Nothing else is read or sent.
const KEY_IN_FRAGMENT = /(?:^#|&)key=([A-Za-z0-9_-]{1,200})(?:&|$)/;

export default function (component) {
  const { data, setStateValue } = component;
  noReferrer();
  const box = (window.__ndcgLabCookies = window.__ndcgLabCookies || { sent: {} });
  if (data.readFragment && data.nonce) {
    const found = KEY_IN_FRAGMENT.exec(window.location.hash || "");
    once(box, "fragment", `${data.nonce}:${found ? found[1] : ""}`, setStateValue);
  }
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  const wanted = Array.isArray(data.set) ? data.set : [];
  for (const item of wanted) {
    const [name, value, maxAge] = item;
    document.cookie = `${name}=${value}; Path=/; Max-Age=${Math.max(0, Math.floor(Number(maxAge) || 0))}; SameSite=Lax${secure}`;
  }
  for (const name of Array.isArray(data.clear) ? data.clear : []) {
    document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
  }
  if (!wanted.length || !data.nonce) {
    return;
  }
  const jar = document.cookie.split(";").map((c) => c.trim());
  const kept = wanted.every(([name, value]) => jar.includes(`${name}=${value}`));
  if (kept && data.clearFragment && KEY_IN_FRAGMENT.test(window.location.hash || "")) {
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  }
  once(box, kept ? "stored" : "refused", data.nonce, setStateValue);
}

function once(box, name, value, setStateValue) {
  if (box.sent[name] !== value) {
    box.sent[name] = value;
    setStateValue(name, value);
  }
}

function noReferrer() {
  if (!document.querySelector('meta[name="referrer"]')) {
    const meta = document.createElement("meta");
    meta.name = "referrer";
    meta.content = "no-referrer";
    document.head.appendChild(meta);
  }
}
