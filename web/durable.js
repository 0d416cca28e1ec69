// The page's durable storage: the firmware's files (webstore.py) and the trick being typed,
// kept in IndexedDB and committed to disk before the panel shows what they hold.
//
// Python (webstore.WebFS, webmain.py) stays synchronous: it reads and writes an in-memory
// Map, loaded from IndexedDB before the firmware starts. The changes go to disk in IndexedDB
// readwrite transactions with durability "strict" (the browser reports one complete only
// once its data is flushed to disk), one at a time, in the order Python made the changes.
// The changes of one JavaScript task (one key press: a journal line, or a checkpoint's
// summary, rename and journal, and the trick being typed) go in one transaction, opened at
// the end of the task or when settled() is asked; changes made while a transaction is
// under way wait and go in the next one together (a group commit: a burst of keys costs
// two flushes, not one per key). All of a transaction's changes or none reach the disk, so
// what a kill can leave is still the state after some prefix of Store's writes, as Store
// needs, with fewer places to cut. A move (WebFS.rename) puts the target and deletes the
// source in the same transaction: atomic, as littlefs's rename is. settled() is resolved
// once every change made so far is on disk; page.js paints a key's frame only then.
//
// Two tabs of the page share one store. Each transaction that writes first reads GEN (the
// number of transactions written so far, by any tab) and writes only if it is the number
// this tab last read or wrote: a tab that has not read another tab's changes never appends
// to a journal it has not read, however late the other tab's BroadcastChannel note comes.
// A refused transaction writes nothing; the tab reads the store again and boots from it
// (onOther(true): the key that made it is not counted, and the page says so).
//
// A second copy (secondcopy.js, written by web/mirror.js's worker) is kept beside
// IndexedDB, which a killed Chromium now and then loses; localStorage, the store of earlier
// builds, is moved in once (oldstorage.js). The database itself is idbstore.js's.

import { DB_NAME, FILES, GEN, openDb, readAll, storedGen } from "./idbstore.js";
import { moveIn } from "./oldstorage.js";
import { addTo, openMirror, putBack } from "./secondcopy.js";

// onFail(err): a transaction failed (the origin's quota is full, the disk is gone); what
// it wrote is not on disk. onOther(refused): another tab of the page committed a change;
// refused: this tab's last changes were made without it and were not written.
export async function openDurable(onFail, onOther) {
  const [db, second] = await Promise.all([openDb(), openMirror()]);
  let mirror = second; // null once a write to it failed
  let items = await readAll(db);
  if (mirror) items = await putBack(db, mirror, items);
  let last = Promise.resolve(); // resolved when every change made so far is on disk
  let pending = 0; // transactions opened, not yet completed
  let batch = null; // changes not yet in a transaction: {ops, done, ok}
  let failure = null; // why the last transaction was aborted here
  let gen = items.get(GEN) || "0"; // GEN as this tab last read or wrote it
  let noted = false; // another tab's note came while a transaction of this one was open
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(DB_NAME) : null;

  function commit(ops) {
    if (!batch) {
      let ok;
      const done = new Promise((resolve) => { ok = resolve; });
      batch = { ops: [], done, ok };
      last = done;
      queueMicrotask(flush);
    }
    batch.ops.push(...ops);
  }

  // One transaction at a time: while one is under way, the changes made meanwhile (keys
  // typed faster than the disk flushes) wait in the batch and go in the next one together.
  function flush() {
    if (!batch || pending > 0 || rereading) return;
    const b = batch;
    batch = null;
    pending++;
    const tx = db.transaction(FILES, "readwrite", { durability: "strict" });
    const os = tx.objectStore(FILES);
    let stale = false;
    const base = gen; // GEN before this transaction
    let copying = null; // the same changes on their way to the second copy
    const check = os.get(GEN);
    check.onsuccess = () => {
      if ((check.result || "0") !== gen) {
        stale = true; // another tab wrote since this one read: nothing of this is written
        tx.abort();
        return;
      }
      try {
        for (const [k, v] of b.ops) {
          if (v === null) os.delete(k);
          else os.put(v, k);
        }
        gen = String(Number(gen) + 1);
        os.put(gen, GEN);
        // Committed now, not once the requests' events have come back: one round trip less.
        if (tx.commit) tx.commit();
        // The second copy is written while IndexedDB commits, not after: the frame waits
        // for the slower of the two, not for both in turn (a tap's p95 went past 16 ms).
        if (mirror) copying = addTo(mirror, b.ops, base, gen, items);
      } catch (err) {
        tx.abort(); // none of them, and onabort says why
        failure = err;
      }
    };
    const end = () => {
      pending--;
      b.ok();
      if (noted) { // another tab wrote while this one did: read first, then the batch
        noted = false;
        readAgain(false);
        return;
      }
      flush();
    };
    const copied = () => copying.catch((err) => {
      console.warn("the store's second copy stops: " + err.message);
      mirror = null;
    });
    tx.oncomplete = () => {
      if (channel) channel.postMessage("wrote");
      if (!copying) {
        end();
        return;
      }
      copied().then(end);
    };
    tx.onabort = () => {
      if (stale) {
        pending--;
        held.push(b.ok); // the key that made it is said refused before its frame is drawn
        readAgain(true);
        return;
      }
      onFail(tx.error || failure || new Error("a write was aborted"));
      if (!copying) {
        end();
        return;
      }
      // The copy took changes IndexedDB refused: it is written afresh at the next write.
      copied().then(() => {
        if (mirror) mirror.gen = null;
        end();
      });
    };
  }

  // The store read again, one read at a time, and no transaction of this tab opened until
  // it is read: two notes close together started two reads that could end in either order,
  // and the older one, ending last, left this tab on a store the other tab had already
  // changed; a key typed during a read was written after it and then dropped with the
  // in-memory copy the read replaced. A note that comes during a read asks for one more.
  // A late note (the other tab's change already read here) changes nothing: no boot, and
  // the keys typed meanwhile are written once the read is done. onOther is told once, at
  // the end; refused: this tab's changes were made on the store before the other tab's.
  let rereading = null;
  let again = false;
  let lost = false; // changes of this tab dropped, made on a store since changed
  const held = []; // the dropped changes' promises, resolved once onOther has been told
  function readAgain(refused) {
    if (refused) lost = true;
    if (rereading) {
      again = true;
      return rereading;
    }
    rereading = (async () => {
      let changed = false;
      try {
        do {
          again = false;
          if (await reread()) changed = true;
        } while (again);
      } catch (err) {
        onFail(err); // the store could not be read: the page says so and asks for a reload
      }
      rereading = null;
      const dropped = lost;
      lost = false;
      if ((changed || dropped) && onOther) onOther(dropped);
      for (const ok of held.splice(0)) ok();
      flush();
    })();
    return rereading;
  }

  // The store as another tab left it, if it has changed since this tab last read or wrote
  // it (whether it has); changes made here since are dropped (made on what this tab had
  // read, not on what is there now).
  async function reread() {
    const read = await readAll(db);
    const stored = read.get(GEN) || "0";
    if (stored === gen) return false;
    items = read;
    gen = stored;
    if (batch) {
      held.push(batch.ok);
      batch = null;
      lost = true;
    }
    return true;
  }

  await moveIn(items, (ops) => {
    for (const [k, v] of ops) items.set(k, v);
    commit(ops);
    flush();
    return last;
  });
  if (mirror && mirror.gen !== gen) { // a copy new or behind: every item, now
    try {
      await addTo(mirror, [], gen, gen, items);
    } catch (err) {
      console.warn("no second copy of the store: " + err.message);
      mirror = null;
    }
  }

  if (channel && onOther) {
    channel.onmessage = () => {
      if (pending > 0) { // read the store again once this tab's transaction is done
        noted = true;
        return;
      }
      readAgain(false);
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
    // The promise of the last transaction, this task's changes included (resolved once
    // they are on disk).
    settled: () => {
      flush();
      return last;
    },
    pending: () => pending,
    // Whether this tab has read every change on disk (no other tab wrote since) and has
    // nothing of its own under way: the tests wait for it, not for a time.
    current: async () => (await storedGen(db)) === gen && pending === 0 && !batch
      && !rereading,
  };
}
