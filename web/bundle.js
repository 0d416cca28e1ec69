// The firmware's bundle: firmware.pack (tools/web.py), "S66P", the index's length (uint32
// LE), the index as JSON ([[path, size], ...]), then the files' bytes in that order.

// The pack's bytes fetched (started at once, so it loads while the runtime does).
export function fetchBundle() {
  return fetch("firmware.pack").then((r) => {
    if (!r.ok) throw new Error("firmware.pack: HTTP " + r.status);
    return r.arrayBuffer();
  });
}

// Its files written under root in the runtime's file system FS.
export function unpack(bytes, FS, root) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== "S66P") throw new Error("bad firmware.pack");
  const n = view.getUint32(4, true);
  const index = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  let at = 8 + n;
  const made = new Set();
  for (const [path, size] of index) {
    let dir = root;
    for (const part of path.split("/").slice(0, -1)) {
      dir += "/" + part;
      if (!made.has(dir)) FS.mkdir(dir);
      made.add(dir);
    }
    FS.writeFile(root + "/" + path, bytes.subarray(at, at + size));
    at += size;
  }
}
