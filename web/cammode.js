// Camera mode's button and its keys (web/camera.js, issue 27): off until the player turns
// it on; its code, the model and TensorFlow.js load only then. It types the trick it reads
// onto the panel through typeKeys(); OK (or a tap on the panel) enters it, any other key
// drops it first (takes()).
import { draw } from "./frames.js";
import { keyed } from "./keypath.js";
import { counted, fw } from "./runtime.js";
import { say, tr } from "./texts.js";

const cameraButton = document.getElementById("camera-open");
let cam = null; // camera mode (web/camera.js), once turned on the first time
let on = false; // camera mode is on
let ok = null; // [layout, the name of its OK key], asked once per layout (takes())

// Whether camera mode is on: a key then goes to it first (takes()).
export function cameraOn() {
  return !!(cam && on);
}

// Camera mode's state for the tests (camera.js info()), null before it was first turned on.
export function cameraInfo() {
  return cam ? cam.info() : null;
}

// Whether camera mode took the player's key name (OK on a proposal enters it).
export function takes(name) {
  if (!(name && cam && on)) return false;
  if (!ok || ok[0] !== fw.layout) ok = [fw.layout, JSON.parse(fw.web.key_for("#"))[0]];
  return !!cam.key(name, ok[1]);
}

// Keys the camera types for a trick it read (web/camera.js), not the player's: they act as
// pressed one by one (webcamera.py type_keys), with one frame drawn after the last.
function typeKeys(glue, chars) {
  keyed(performance.now(), () => glue.type_keys(chars));
}

async function toggleCamera() {
  if (!fw.web) return;
  if (on) {
    on = false;
    cam.stop();
    cameraButton.classList.remove("on");
    return;
  }
  on = true;
  cameraButton.classList.add("on");
  try {
    if (!cam) {
      const { createCamera } = await import("./camera.js");
      fw.mp.runPython("import webcamera");
      const glue = counted(fw.mp.pyimport("webcamera"));
      cam = createCamera({
        typeKeys: (chars) => typeKeys(glue, chars),
        trickKeys: (codes) => glue.keys(codes),
        drop: () => glue.drop(),
        players: () => glue.players(),
        gone: () => glue.gone(),
        played: () => glue.played(),
        entered: () => glue.entered(),
        lastTrick: () => glue.last_trick(),
        redraw: () => draw(null),
        tr,
      }, document.getElementById("keypad"));
    }
    if (!await cam.start()) {
      on = false;
      cameraButton.classList.remove("on");
    }
  } catch (err) {
    on = false;
    cameraButton.classList.remove("on");
    console.warn("camera: " + err);
    say("camera error");
  }
}

export function bindCamera() {
  cameraButton.addEventListener("click", toggleCamera);
  document.getElementById("panel").addEventListener("click", () => {
    if (cam && on) cam.tapPanel();
  });
}
