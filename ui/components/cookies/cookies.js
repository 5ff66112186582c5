// Cookies for the classroom: the server asks to store (or clear) a few cookies of the app's own origin
// and learns, through the state value "stored", that the browser really keeps them.  Components v2 run in
// the app's page (no iframe), so document.cookie is the app's.  The values are tokens the server made
// (URL-safe base64); the names are the server's too.  Nothing else is read or sent.
export default function (component) {
  const { data, setStateValue } = component;
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  const wanted = Array.isArray(data.set) ? data.set : [];
  for (const item of wanted) {
    const [name, value, maxAge] = item;
    document.cookie = `${name}=${value}; Path=/; Max-Age=${Math.max(0, Math.floor(Number(maxAge) || 0))}; SameSite=Lax${secure}`;
  }
  for (const name of Array.isArray(data.clear) ? data.clear : []) {
    document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
  }
  const jar = document.cookie.split(";").map((c) => c.trim());
  const kept = wanted.every(([name, value]) => jar.includes(`${name}=${value}`));
  acknowledge(data, kept, setStateValue);
}

function acknowledge(data, kept, setStateValue) {
  const box = (window.__ndcgLabCookies = window.__ndcgLabCookies || { sent: null });
  if (data.nonce && kept && box.sent !== data.nonce) {
    box.sent = data.nonce;
    setStateValue("stored", data.nonce);
  }
}
