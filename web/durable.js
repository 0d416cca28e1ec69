// The page's durable storage: the firmware's files (webstore.py) and the trick being typed,
// kept in IndexedDB and committed to disk before the panel shows what they hold.
//
// Python (webstore.WebFS, webmain.py) stays synchronous: it reads and writes an in-memory
// Map, loaded from IndexedDB before the firmware starts. Every change also opens one
// IndexedDB readwrite transaction with durability "strict" (the browser reports it
// complete only once the data is flushed to disk), in the order Python made the changes;
// a move (WebFS.rename) is one transaction that puts the target and deletes the source, so
// it is atomic as littlefs's rename is. Transactions over the same object store run and
// complete in the order they were created, so when the last one issued has completed,
// every earlier one has too: settled() is that last one. app.js paints a frame only then.
//
// localStorage (the store of earlier builds) is not written by a killed browser in time:
// its items are moved here once, on the first open, and removed from it.

const DB_NAME = "s66";
const FILES = "files";
const MOVED = "s66.moved"; // set when localStorage's items have been moved in
const OWN = (k) => k.startsWith("s66:") || k === "s66.typed"; // webstore.py PREFIX; webmain.py

function request(r) {
  return new Promise((ok, no) => {
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
}

function openDb() {
  return new Promise((ok, no) => {
    const r = indexedDB.open(DB_NAME, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(FILES);
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
    r.onblocked = () => no(new Error("IndexedDB is held by an older tab of this page"));
  });
}

async function readAll(db) {
  const os = db.transaction(FILES, "readonly").objectStore(FILES);
  const [keys, values] = await Promise.all([request(os.getAllKeys()), request(os.getAll())]);
  const items = new Map();
  keys.forEach((k, i) => items.set(k, values[i]));
  return items;
}

// onFail(err): a transaction failed (the origin's quota is full, the disk is gone); what
// it wrote is not on disk. onOther(): another tab of the page committed a change.
export async function openDurable(onFail, onOther) {
  const db = await openDb();
  let items = await readAll(db);
  let last = Promise.resolve(); // the last transaction issued, completed
  let pending = 0;
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(DB_NAME) : null;

  function commit(ops) {
    pending++;
    const tx = db.transaction(FILES, "readwrite", { durability: "strict" });
    const os = tx.objectStore(FILES);
    for (const [k, v] of ops) {
      if (v === null) os.delete(k);
      else os.put(v, k);
    }
    last = new Promise((ok) => {
      tx.oncomplete = () => {
        pending--;
        if (channel) channel.postMessage("wrote");
        ok();
      };
      tx.onabort = () => {
        pending--;
        onFail(tx.error || new Error("storage: a write was aborted"));
        ok();
      };
    });
  }

  if (!items.has(MOVED)) {
    const ops = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (OWN(k) && !items.has(k)) ops.push([k, localStorage.getItem(k)]);
    }
    ops.push([MOVED, "1"]);
    for (const [k, v] of ops) items.set(k, v);
    commit(ops);
    await last;
  }
  // Moved (now or on an earlier open that died before this): localStorage's copies go.
  const old = [];
  for (let i = 0; i < localStorage.length; i++) {
    if (OWN(localStorage.key(i))) old.push(localStorage.key(i));
  }
  for (const k of old) localStorage.removeItem(k);

  if (channel && onOther) {
    channel.onmessage = async () => {
      items = await readAll(db);
      onOther();
    };
  }

  // What webstore.WebFS and webmain.py call (the Web Storage API's names, plus move).
  return {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => {
      v = String(v);
      items.set(k, v);
      commit([[k, v]]);
    },
    removeItem: (k) => {
      if (!items.has(k)) return;
      items.delete(k);
      commit([[k, null]]);
    },
    move: (src, dst) => {
      const v = items.get(src);
      if (v === undefined) return false;
      items.set(dst, v);
      items.delete(src);
      commit([[dst, v], [src, null]]);
      return true;
    },
    // The promise of the last transaction issued so far (resolved when it is on disk).
    settled: () => last,
    pending: () => pending,
  };
}
