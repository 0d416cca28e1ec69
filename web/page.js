// The page around the firmware. The MicroPython WebAssembly port runs the firmware's own
// App, Session and Store (webmain.py); the page only carries key events in and frames
// out, and hands the durable store (durable.js) to the firmware. Nothing about the game is
// decided here. This module boots it; each other job has its module, and what they share
// is runtime.js's (docs/web.md, "The page's modules"):
//   frames.js      the frame buffer onto the canvas, each frame after its writes
//   keybind.js     the on-screen keys and the keyboard, as keys of the firmware
//   keypath.js     after a key: its one call into Python, its frame, what it asked for
//   texts.js       the page's texts in the UI's language, the status line
//   beeper.js      the board's beeper through Web Audio
//   clubpage.js    the Club form and the club link's turns
//   cammode.js     camera mode's button and its keys (camera.js, loaded when turned on)
//   downloads.js   the CSV and JSON files
//   bundle.js      the firmware's bundle (firmware.pack) into the runtime's files
//   hooks.js       window.s66, for the tests and the figures
//   runtime.js     what they share: the runtime, webmain.py, the store, the layout
import { beep } from "./beeper.js";
import { fetchBundle, unpack } from "./bundle.js";
import { bindCamera } from "./cammode.js";
import { bindClubForm, listen, loadTransport, settings, soon, tick } from "./clubpage.js";
import { bindDownloads } from "./downloads.js";
import { openDurable } from "./durable.js";
import { draw, frameAt, idle, lose } from "./frames.js";
import { booted, firstFrameAt } from "./hooks.js";
import { bindKeys, holdKeys } from "./keybind.js";
import { labelKeys } from "./keypath.js";
import { loadMicroPython } from "./micropython.mjs";
import { counted, fw } from "./runtime.js";
import { fail, lastLanguage, say, saying, setTexts } from "./texts.js";

// The page's own settings, in the durable store with the match (durable.js), outside the
// firmware's files: a change is on disk as soon as a key's entry would be.
const LAYOUT_ITEM = "s66.layout"; // the key layout chosen
const HTTP_NOTE_ITEM = "s66.httpnote"; // the note on plain http, said once

const keypad = document.getElementById("keypad");
const buttons = document.getElementById("buttons");
const switchButton = document.getElementById("switch");

// The layout switch names the other layout, in the page's language (texts.js).
function labelSwitch() {
  switchButton.dataset.t = fw.layout === "keypad" ? "4 buttons" : "keypad";
}

// Boot the app (again) from what the store holds, with a key layout.
function start(name) {
  fw.layout = name === "buttons" ? "buttons" : "keypad";
  const club = settings() ? JSON.stringify(settings()) : "";
  frameAt(fw.web.start(fw.store, fw.layout, club, beep));
  holdKeys();
  keypad.hidden = fw.layout !== "keypad";
  buttons.hidden = fw.layout !== "buttons";
  labelSwitch();
  const now = JSON.parse(fw.web.after(false)); // the language, the keys' faces
  setTexts(now.lang);
  labelKeys(now.picks, now.keys);
  draw(null);
}

switchButton.addEventListener("click", () => {
  try {
    const next = fw.layout === "keypad" ? "buttons" : "keypad";
    fw.store.setItem(LAYOUT_ITEM, next);
    start(next);
  } catch (err) {
    fail(err);
  }
});

// Another tab of this page wrote the store (durable.js hears it): boot again from what it
// holds now, so this tab never appends to a journal it has not read. refused: this tab's
// last key was made on what it had read before, so it was not written (durable.js): say so.
function otherTab(refused) {
  if (!fw.web) return;
  try {
    start(fw.layout);
    if (refused) say("othertab");
  } catch (err) {
    fail(err);
  }
}

async function boot() {
  labelSwitch();
  setTexts(lastLanguage()); // as last seen, until the app says
  say("loading");
  bindClubForm();
  bindKeys();
  bindDownloads();
  bindCamera();
  const transport = loadTransport();
  const packed = fetchBundle();
  // The store is read from disk while the runtime loads; the firmware starts on it.
  const opened = openDurable((err) => {
    lose();
    fail(new Error("storage: " + (err.message || err) + "; entries after the panel's are not"
      + " kept: reload"));
  }, otherTab);
  fw.mp = await loadMicroPython({
    heapsize: 512 * 1024,
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  fw.mp.FS.mkdir("/fw");
  unpack(new Uint8Array(await packed), fw.mp.FS, "/fw");
  fw.mp.runPython("import sys\nsys.path.insert(0, '/fw')");
  fw.web = counted(fw.mp.pyimport("webmain"));
  fw.store = await opened;
  listen(await transport);
  start(fw.store.getItem(LAYOUT_ITEM));
  await idle();
  firstFrameAt(performance.now());
  say("");
  // Plain http from another machine (a phone on the laptop's address) is no secure
  // context: no service worker, so no offline use and no install. Said once, briefly.
  // It names the two ways to HTTPS (docs/web.md): make web HTTPS=1, make web-dist.
  if (!window.isSecureContext && !fw.store.getItem(HTTP_NOTE_ITEM)) {
    say("httpnote");
    fw.store.setItem(HTTP_NOTE_ITEM, "1");
  }
  if (settings()) {
    tick();
    setInterval(soon, 500);
  }
  if ("serviceWorker" in navigator) {
    try {
      await navigator.serviceWorker.register("sw.js");
      if (settings()) navigator.serviceWorker.ready.then((r) => r.active.postMessage("club"));
    } catch (err) {
      // Past a certificate warning the browser keeps the page but refuses its worker: the
      // scores are kept all the same; only working offline is lost. Said, not an error.
      console.warn("service worker: " + (err && err.message ? err.message : err));
      if (!saying()) say("no offline");
    }
  }
}

boot().then(() => booted(), (err) => {
  fail(err);
  booted(err);
});
