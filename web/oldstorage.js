// localStorage, the store of earlier builds (durable.js): a killed browser does not write
// it in time, so its items are moved into the durable store once, on the first open, and
// removed from it; so are the page's own settings (the key layout, the plain-http note
// said once), whenever an earlier build's copy is found.

const MOVED = "s66.moved"; // set when localStorage's items have been moved in
// The page's own settings (page.js), kept in localStorage by earlier builds.
const PAGE_ITEMS = ["s66.layout", "s66.httpnote"];
const OWN = (k) => k.startsWith("s66:") || k === "s66.typed"; // webstore.py PREFIX; webmain.py

// Moves localStorage's items not yet in `items` through write(ops) (resolved once they are
// on disk), then removes localStorage's copies: a kill between the two leaves them in both,
// and the next open removes them.
export async function moveIn(items, write) {
  if (!items.has(MOVED)) {
    const ops = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (OWN(k) && !items.has(k)) ops.push([k, localStorage.getItem(k)]);
    }
    ops.push([MOVED, "1"]);
    await write(ops);
  }
  const page = [];
  for (const k of PAGE_ITEMS) {
    const v = localStorage.getItem(k);
    if (v !== null && !items.has(k)) page.push([k, v]);
  }
  if (page.length) await write(page);
  for (const k of PAGE_ITEMS) if (items.has(k)) localStorage.removeItem(k);
  // Moved (now or on an earlier open that died before this): localStorage's copies go.
  const old = [];
  for (let i = 0; i < localStorage.length; i++) {
    if (OWN(localStorage.key(i))) old.push(localStorage.key(i));
  }
  for (const k of old) localStorage.removeItem(k);
}
