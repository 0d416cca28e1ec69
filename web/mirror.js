// The store's second copy (durable.js): one file in the origin's private file system,
// written by this dedicated worker through a synchronous access handle (only a worker may
// hold one), each write flushed before it is answered. The file's entry is made once; the
// writes change its bytes only, so the copy does not live or die with IndexedDB's database
// (which Chromium deletes when it finds it damaged after a kill).
//
// Messages (answered in order, with their id): {kind: "open"} -> {text, size}: the file as
// it is; {kind: "append", text} -> {size}: text added at the end; {kind: "reset", text} ->
// {size}: the file made of text alone. An error is answered as {error}.

const NAME = "s66.mirror";
let handle = null;
let size = 0;
let chain = Promise.resolve();

async function open() {
  const dir = await navigator.storage.getDirectory();
  const file = await dir.getFileHandle(NAME, { create: true });
  handle = await file.createSyncAccessHandle(); // refused while another tab holds it
  size = handle.getSize();
  const bytes = new Uint8Array(size);
  handle.read(bytes, { at: 0 });
  return { text: new TextDecoder().decode(bytes), size };
}

function write(text, at) {
  const bytes = new TextEncoder().encode(text);
  if (at === 0) handle.truncate(0);
  const n = handle.write(bytes, { at });
  if (n !== bytes.length) throw new Error("short write to the second copy");
  handle.flush();
  size = at + n;
  return { size };
}

function answer(m) {
  if (m.kind === "open") return open();
  if (!handle) throw new Error("the second copy is not open");
  if (m.kind === "append") return write(m.text, size);
  if (m.kind === "reset") return write(m.text, 0);
  throw new Error("no such request: " + m.kind);
}

self.onmessage = (e) => {
  const m = e.data;
  chain = chain.then(() => answer(m)).then(
    (r) => self.postMessage({ ...r, id: m.id }),
    (err) => self.postMessage({ id: m.id, error: String(err && err.message ? err.message : err) }),
  );
};
