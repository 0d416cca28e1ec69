// Run one MicroPython script in the WebAssembly port under Node: the 32-bit runtime that
// anyone can install from npm, and the browser build's runtime.
//
//   node tools/wasm_run.mjs '<json spec>'
//
// spec: {"argv": [script, args...] | "code": "...", "paths": [dir, ...], "mounts": [dir, ...],
//        "cwd": dir, "heap_k": 56, "steps": "name", "after": "name"}
// The port has no view of the host's files, so every folder in `paths` (import path) and
// `mounts` (data) is copied into its in-memory file system under the same absolute path:
// a script sees the same paths as under the unix port. After the run, `mounts` are copied
// back (files the script wrote or changed; removed files are removed on the host too).
// `steps`: after the script, call the global function of that name once per top-level call
// until it returns a false value. The port frees garbage only between top-level calls from
// JS, so a driver that does one key press per call can measure the live heap between
// presses and what each press allocates.
// `after`: then call the global function of that name once.
// Exit code: the script's sys.exit code, 1 for an uncaught exception (traceback on stderr).

import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const spec = JSON.parse(process.argv[2]);
const out = (s) => process.stdout.write(s + "\n");
const mp = await loadMicroPython({
  heapsize: (spec.heap_k || 56) * 1024,
  stdout: out,
  stderr: (s) => process.stderr.write(s + "\n"),
});
const FS = mp.FS;

function copyIn(dir) {
  FS.mkdirTree(dir);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) copyIn(p);
    else if (e.isFile()) FS.writeFile(p, fs.readFileSync(p));
  }
}

function copyOut(dir) {
  const seen = new Set();
  for (const name of FS.readdir(dir)) {
    if (name === "." || name === "..") continue;
    const p = path.join(dir, name);
    seen.add(name);
    if (FS.isDir(FS.stat(p).mode)) {
      fs.mkdirSync(p, { recursive: true });
      copyOut(p);
    } else {
      fs.writeFileSync(p, FS.readFile(p));
    }
  }
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!seen.has(e.name)) fs.rmSync(path.join(dir, e.name), { recursive: true, force: true });
  }
}

const paths = spec.paths || [];
const mounts = spec.mounts || [];
for (const d of paths.concat(mounts)) if (d) copyIn(d);  // "": the working directory
if (spec.cwd) {
  FS.mkdirTree(spec.cwd);
  FS.chdir(spec.cwd);
}

function exitCode(err) {
  const m = /SystemExit: ?(-?\d*)\s*$/.exec(err.message || "");
  if (m) return m[1] === "" ? 0 : Number(m[1]);
  process.stderr.write((err.message || String(err)) + "\n");
  return 1;
}

let code = 0;
try {
  const argv = spec.argv || [];
  const setup = ["import sys", "sys.path[:] = " + JSON.stringify(paths.concat([".frozen"])),
    "sys.argv[:] = " + JSON.stringify(argv)];
  mp.runPython(setup.join("\n"));
  if (spec.code !== undefined) mp.runPython(spec.code);
  else mp.runPython(fs.readFileSync(argv[0], "utf8"));
  if (spec.steps) {
    const step = mp.globals.get(spec.steps);
    while (step()) {
      // one top-level call per step: garbage is freed in between
    }
  }
  if (spec.after) mp.globals.get(spec.after)();
} catch (err) {
  code = exitCode(err);
}
for (const d of mounts) copyOut(d);
process.exitCode = code;
