// Hooks for the tests and the figures (host_tests/test_web*.py, tools/web_figures.py,
// tools/webdrive.mjs, tools/webkill.mjs): window.s66, there before the page boots; its
// ready promise settles when boot() (page.js) has the first frame on the canvas.
import { cameraInfo } from "./cammode.js";
import { counts, drawn, idle, latency } from "./frames.js";
import { holding, waited } from "./keybind.js";
import { fw } from "./runtime.js";

let firstFrame = 0; // ms from navigation start to the first frame
let settle = null; // [resolve, reject] of window.s66.ready

window.s66 = {
  ready: new Promise((ok, no) => { settle = [ok, no]; }),
  state: () => JSON.parse(fw.web.state()),
  current: () => fw.store.current(), // every other tab's change read (durable.js)
  keyFor: (ch) => JSON.parse(fw.web.key_for(ch)),
  layout: () => fw.layout,
  longMs: () => holding().longMs,
  held: () => holding().held,
  lang: () => fw.web.lang(),
  latency,
  waited,
  firstFrame: () => firstFrame,
  club: () => JSON.parse(fw.web.club_info()),
  idle, // resolved once every frame asked for is on the canvas (each waits for its writes)
  drawn, // Date.now() when the last frame was painted (after the writes it waited for)
  frames: counts, // {made, shown}: frames asked for, the newest painted (frames.js)
  // Where the match stands, the trick being typed included (the durable kill test).
  position: () => fw.web.state() + " " + fw.web.typed(),
  camera: cameraInfo, // camera mode's state (web/camera.js)
  calls: () => fw.calls, // calls into Python so far (runtime.js counted())
};

// The first frame is on the canvas, at performance.now() ms.
export function firstFrameAt(ms) {
  firstFrame = ms;
}

// boot() ended: err undefined if it went well.
export function booted(err) {
  if (err === undefined) settle[0]();
  else settle[1](err);
}
