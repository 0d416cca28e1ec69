// The store's second copy (durable.js): one file in the origin's private file system,
// written by this module as a dedicated worker through a synchronous access handle (only a
// worker may hold one), each write flushed before it is answered. The file's entry is made
// once; the writes change its bytes only, so the copy does not live or die with IndexedDB's
// database (which Chromium deletes when it finds it damaged after a kill).
//
// The file is lines "<checksum> <json>\n", one per transaction: {gen, all} (every item) or
// {base, gen, ops} (the changes made on GEN base). The page imports the same module for
// line() and replay(); only a worker answers messages.
//
// Messages (answered in order, with their id): {kind: "open", name?} -> {text, size}: the
// file as it is; {kind: "append", text} -> {size}; {kind: "afresh", text} -> {size}: the
// file made of text alone (afresh() says how, so that a kill at any instant leaves a whole
// copy of the old lines or of text). An error is answered as {error}.

const NAME = "s66.mirror";

// A line's checksum: FNV-1a over its UTF-16 code units, 8 hex digits.
function checksum(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

export function line(record) {
  const body = JSON.stringify(record);
  return checksum(body) + " " + body + "\n";
}

function parse(text) {
  const body = text.slice(9);
  if (text.length < 10 || text[8] !== " " || checksum(body) !== text.slice(0, 8)) return null;
  try {
    return JSON.parse(body);
  } catch (err) {
    return null;
  }
}

// The copy read back: {items, gen, whole} as the last line of every item and the changes
// chained after it leave them, or null. A torn or damaged line, or changes made on another
// GEN, end the chain (whole: false) until the next line of every item: a copy written
// afresh is added after the old lines before they are cut away, so a kill in between
// leaves both. A copy not whole is written afresh at its next write (a line appended after
// a torn one would be lost with it).
export function replay(text) {
  let items = null;
  let gen = "0";
  let whole = true;
  for (const t of text.split("\n")) {
    if (t === "") continue;
    const r = parse(t);
    if (r && r.all) {
      items = new Map(r.all);
      gen = r.gen;
      whole = true;
    } else if (r && r.ops && items && whole && r.base === gen) {
      for (const [k, v] of r.ops) {
        if (v === null) items.delete(k);
        else items.set(k, v);
      }
      gen = r.gen;
    } else {
      whole = false;
    }
  }
  return items ? { items, gen, whole } : null;
}

const utf8 = new TextEncoder();

// The writes that make a file of `size` bytes hold `text` alone, in order, each flushed:
// steps [{at, bytes}, ..., {truncate}], and the file's length at the end. The text goes after the old lines first (on a line of its
// own: the last may be torn), and the request is answered once it is there (`answered`
// steps). Then it is written at the start, where it must not overlap the copy at the end
// (else a second copy at the end first), and the file cut after it.
export function afresh(size, text) {
  const bytes = utf8.encode(text);
  const length = bytes.length;
  if (size === 0) return { steps: [{ at: 0, bytes }], answered: 1, length };
  const nl = utf8.encode("\n" + text);
  const steps = [{ at: size, bytes: nl }];
  let end = size + nl.length;
  if (end - bytes.length < bytes.length) {
    steps.push({ at: end, bytes: nl });
    end += nl.length;
  }
  steps.push({ at: 0, bytes }, { truncate: bytes.length });
  return { steps, answered: 1, length };
}

let handle = null;
let size = 0;

async function open(name) {
  const dir = await navigator.storage.getDirectory();
  const file = await dir.getFileHandle(name || NAME, { create: true });
  handle = await file.createSyncAccessHandle(); // refused while another tab holds it
  size = handle.getSize();
  const bytes = new Uint8Array(size);
  handle.read(bytes, { at: 0 });
  return { text: new TextDecoder().decode(bytes), size };
}

function apply(step) {
  if (step.truncate !== undefined) {
    handle.truncate(step.truncate);
    size = step.truncate;
  } else {
    const n = handle.write(step.bytes, { at: step.at });
    if (n !== step.bytes.length) throw new Error("short write to the second copy");
    size = Math.max(size, step.at + n);
  }
  handle.flush();
}

// Requests answered in turn; the steps of an afresh write past its answer are done before
// the next request is read.
async function serve(m) {
  let later = [];
  let r;
  try {
    if (m.kind === "open") {
      r = await open(m.name);
    } else if (!handle) {
      throw new Error("the second copy is not open");
    } else if (m.kind === "append") {
      apply({ at: size, bytes: utf8.encode(m.text) });
      r = { size };
    } else if (m.kind === "afresh") {
      const plan = afresh(size, m.text);
      plan.steps.slice(0, plan.answered).forEach(apply);
      later = plan.steps.slice(plan.answered);
      r = { size: plan.length }; // its size once the old lines are cut
    } else {
      throw new Error("no such request: " + m.kind);
    }
  } catch (err) {
    self.postMessage({ id: m.id, error: String(err && err.message ? err.message : err) });
    return;
  }
  self.postMessage({ ...r, id: m.id });
  try {
    later.forEach(apply);
  } catch (err) {
    // The copy stands whole at the end of the file; the next afresh write tries again.
    console.warn("the second copy was not cut short: " + err);
  }
}

if (typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope) {
  let chain = Promise.resolve();
  self.onmessage = (e) => {
    chain = chain.then(() => serve(e.data));
  };
}
