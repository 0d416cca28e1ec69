// Club settings and the page's Content-Security-Policy. A classic script, first in <head>,
// so it runs before anything else loads (docs/club.md, "A browser table").
//
// The settings (the broker's WebSocket URL, the table id, its password) come once from
// the URL's fragment, #broker=ws://192.168.4.10:9001&table=t07&password=... (a fragment
// never reaches a server), or from the page's Club form; they are kept in localStorage
// under s66.club and the fragment is wiped from the address bar. #club=off forgets them.
//
// index.html's own policy lets the page connect to its own origin and to WebSockets;
// this script adds a second policy, the same but for connect-src: its own origin and
// the broker's origin only. A browser enforces both, so the page can reach nothing else.
(function () {
  const ITEM = "s66.club";
  const TABLE = /^[A-Za-z0-9-]{1,20}$/; // the ACL's user names (club/mosquitto/acl)

  // {url, table, password} if they make sense, else null.
  function valid(c) {
    if (!c || typeof c.url !== "string" || typeof c.table !== "string") return null;
    let u;
    try { u = new URL(c.url); } catch (e) { return null; }
    if ((u.protocol !== "ws:" && u.protocol !== "wss:") || u.username || u.password || u.hash) return null;
    if (!TABLE.test(c.table)) return null;
    return { url: u.href, table: c.table, password: String(c.password || "") };
  }

  function load() {
    try { return valid(JSON.parse(localStorage.getItem(ITEM))); } catch (e) { return null; }
  }

  function save(c) {
    const ok = valid(c);
    if (ok) localStorage.setItem(ITEM, JSON.stringify(ok));
    return ok;
  }

  function forget() {
    localStorage.removeItem(ITEM);
  }

  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("club") === "off") forget();
  else if (hash.has("broker")) {
    save({ url: hash.get("broker"), table: hash.get("table") || "", password: hash.get("password") });
  }
  if (hash.has("club") || hash.has("broker")) {
    history.replaceState(null, "", location.pathname + location.search);
  }

  const club = load();
  const broker = club ? " " + new URL(club.url).origin : "";
  const meta = document.createElement("meta");
  meta.httpEquiv = "Content-Security-Policy";
  meta.content = "connect-src 'self'" + broker;
  document.head.appendChild(meta);

  globalThis.s66clubcfg = { load, save, forget, valid };
})();
