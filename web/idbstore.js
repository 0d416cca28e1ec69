// The store's IndexedDB database (durable.js): one object store of items, read whole at
// open, written in readwrite transactions with durability "strict" (the browser reports
// one complete only once its data is flushed to disk).

export const DB_NAME = "s66";
export const FILES = "files";
export const GEN = "s66.gen"; // transactions written to the store, by every tab

export function request(r) {
  return new Promise((ok, no) => {
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
}

export function openDb() {
  return new Promise((ok, no) => {
    const r = indexedDB.open(DB_NAME, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(FILES);
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
    r.onblocked = () => no(new Error("IndexedDB is held by an older tab of this page"));
  });
}

export async function readAll(db) {
  const os = db.transaction(FILES, "readonly").objectStore(FILES);
  const [keys, values] = await Promise.all([request(os.getAllKeys()), request(os.getAll())]);
  const items = new Map();
  keys.forEach((k, i) => items.set(k, values[i]));
  return items;
}

// The store made of `items` alone, in one transaction: all of them or, aborted, none.
export async function writeAll(db, items) {
  const tx = db.transaction(FILES, "readwrite", { durability: "strict" });
  const os = tx.objectStore(FILES);
  os.clear();
  for (const [k, v] of items) os.put(v, k);
  await new Promise((ok, no) => {
    tx.oncomplete = ok;
    tx.onabort = () => no(tx.error || new Error("the store could not be put back"));
  });
}

// GEN as the store holds it.
export async function storedGen(db) {
  const os = db.transaction(FILES, "readonly").objectStore(FILES);
  return (await request(os.get(GEN))) || "0";
}
