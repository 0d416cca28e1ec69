// The page's side of the store's second copy (durable.js; the worker that writes it is
// web/mirror.js): a file in the origin's private file system. Chromium, killed, now and
// then finds its IndexedDB database damaged when it starts again, and deletes it, or drops
// its last transaction (the kill test saw both, "Corruption: checksum mismatch" in its
// log). Each transaction is added to the copy as one checksummed line (its changes, or all
// items when the copy is behind) while IndexedDB commits it, and flushed before the frame
// is painted. On opening, a copy ahead of IndexedDB (GEN) is put back into it. Only one tab
// holds the copy (the access handle is exclusive); plain http (no secure context) has none.

import { line, replay } from "./mirror.js";
import { GEN, writeAll } from "./idbstore.js";

const MIRROR_LIMIT = 256 * 1024; // the copy is written afresh (all items) past this size

// The worker that writes the copy, open on its file: {ask, text, size, gen}; null where
// there is none (no private file system, another tab holds it).
export async function openMirror() {
  if (typeof Worker !== "function" || !navigator.storage || !navigator.storage.getDirectory) {
    return null;
  }
  let worker;
  try {
    worker = new Worker(new URL("./mirror.js", import.meta.url), { type: "module" });
  } catch (err) {
    console.warn("no second copy of the store: " + err);
    return null;
  }
  let next = 0;
  const waiting = new Map();
  worker.onmessage = (e) => {
    const w = waiting.get(e.data.id);
    waiting.delete(e.data.id);
    if (e.data.error) w[1](new Error(e.data.error));
    else w[0](e.data);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    for (const w of waiting.values()) w[1](new Error(e.message || "the copy's worker failed"));
    waiting.clear();
  };
  const ask = (msg) => new Promise((ok, no) => {
    const id = ++next;
    waiting.set(id, [ok, no]);
    worker.postMessage({ ...msg, id });
  });
  try {
    const opened = await ask({ kind: "open" });
    return { ask, text: opened.text, size: opened.size, gen: null };
  } catch (err) {
    console.warn("no second copy of the store: " + err.message);
    worker.terminate();
    return null;
  }
}

// The items to open with: IndexedDB's (`items`), or the copy's when it is ahead (GEN), put
// back into IndexedDB first, all of them, in one transaction. The mirror's gen is set when
// its file is whole and at the store's GEN; otherwise it is written afresh at the first write.
export async function putBack(db, mirror, items) {
  const kept = replay(mirror.text);
  if (kept) kept.items.set(GEN, kept.gen);
  if (kept && Number(kept.gen) > Number(items.get(GEN) || "0")) {
    // IndexedDB lost what the copy holds.
    await writeAll(db, kept.items);
    console.warn("the store was put back from its second copy (GEN " + kept.gen + " over "
      + (items.get(GEN) || "0") + ")");
    items = kept.items;
  }
  // A copy not whole (a line torn by a kill) is written afresh at the first write.
  if (kept && kept.whole && kept.gen === (items.get(GEN) || "0")) mirror.gen = kept.gen;
  return items;
}

// A complete transaction added to the copy: its changes, or every item of `items` when
// the copy is not at the GEN this transaction started from (new, or behind another tab's
// writes) or has grown past MIRROR_LIMIT.
export async function addTo(mirror, ops, from, to, items) {
  let r;
  if (mirror.gen === from && mirror.size < MIRROR_LIMIT) {
    r = await mirror.ask({ kind: "append", text: line({ base: from, gen: to, ops }) });
  } else {
    const all = [...items].filter(([k]) => k !== GEN);
    r = await mirror.ask({ kind: "afresh", text: line({ gen: to, all }) });
  }
  mirror.size = r.size;
  mirror.gen = to;
}
