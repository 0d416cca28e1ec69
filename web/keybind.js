// The player's keys: the on-screen keys (touch or mouse) and the desktop keyboard, each
// given to the firmware as one key (keypath.js), camera mode asked first (cammode.js).
import { cameraOn, takes } from "./cammode.js";
import { keyed } from "./keypath.js";
import { fw } from "./runtime.js";

const KEYBOARD = { Enter: "\r", Backspace: "\x7f" }; // as the terminal simulator reads them

let longMs = 600; // a long press (webmain.py LONG_MS, as on the board: holdKeys())
let held = new Set(); // the keys that count on release (bindKey(); holdKeys())
export const waited = []; // of a key's latency, ms from its pointerdown to its handler: the browser's share

// After each boot: the layout's keys that mean something when held (webmain held_keys())
// and how long a long press is.
export function holdKeys() {
  longMs = fw.web.LONG_MS;
  held = new Set(fw.web.held_keys().split(" "));
}

export function holding() {
  return { longMs, held: [...held].sort() };
}

// A player's key (the camera's go through cammode.js typeKeys).
function press(name, long, since) {
  if (takes(name) || !keyed(since, () => fw.web.key(name, long))) return;
  if (navigator.vibrate && navigator.userActivation && navigator.userActivation.isActive) {
    navigator.vibrate(long ? 30 : 8);
  }
}

// A touch key counts when it is touched (pointerdown), not on release: a finger that
// lifts late costs nothing. Only the keys that mean something when held (webmain
// held_keys(): * and # on the keypad, UP OK BACK on the buttons) keep the real key's
// timing (hw/keys.py): such a press counts on release; held for LONG_MS it is a long press
// at once, and its release then does nothing more.
function bindKey(button) {
  const name = button.dataset.key;
  let timer = 0;
  let down = false;
  button.addEventListener("pointerdown", (e) => {
    if (e.button > 0 || !fw.web) return;
    e.preventDefault();
    if (waited.push(performance.now() - e.timeStamp) > 1000) waited.shift();
    if (button.setPointerCapture) button.setPointerCapture(e.pointerId);
    down = true;
    button.classList.add("down");
    if (!held.has(name)) {
      press(name, false, e.timeStamp);
      return;
    }
    timer = setTimeout(() => {
      timer = 0;
      press(name, true, performance.now());
    }, longMs);
  });
  const end = (e, counts) => {
    if (!down) return;
    down = false;
    button.classList.remove("down");
    if (timer) {
      clearTimeout(timer);
      timer = 0;
      if (counts) press(name, false, e.timeStamp);
    }
  };
  button.addEventListener("pointerup", (e) => end(e, true));
  button.addEventListener("pointercancel", (e) => end(e, false));
  button.addEventListener("contextmenu", (e) => e.preventDefault());
}

// The desktop keyboard: the terminal simulator's characters (ui/keyboard.py). A character
// that is no key of this layout stays the browser's.
function onKeydown(e) {
  if (!fw.web || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.target instanceof HTMLInputElement) return; // typing into the club form
  const ch = KEYBOARD[e.key] || (e.key.length === 1 ? e.key : null);
  if (ch === null) return;
  if (cameraOn() && takes(JSON.parse(fw.web.key_for(ch))[0] || "")) {
    e.preventDefault();
    return;
  }
  if (keyed(e.timeStamp, () => fw.web.char(ch))) e.preventDefault();
}

export function bindKeys() {
  for (const b of document.querySelectorAll(".keys button[data-key]")) bindKey(b);
  document.addEventListener("keydown", onKeydown);
}
