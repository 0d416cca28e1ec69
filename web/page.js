// The page around the firmware. The MicroPython WebAssembly port runs the firmware's own
// App, Session and Store (webmain.py); this script only carries key events in and frames
// out, and hands the durable store (durable.js) to the firmware. Nothing about the game is
// decided here.
import { openDurable } from "./durable.js";
import { loadMicroPython } from "./micropython.mjs";

const W = 128;
const H = 64;
const LIT = 0xffffe6bf; // a lit pixel, RGBA bytes bf e6 ff ff read as a little-endian word
const DARK = 0xff000000;
// The page's own settings, in the durable store with the match (durable.js), outside the
// firmware's files: a change is on disk as soon as a key's entry would be.
const LAYOUT_ITEM = "s66.layout"; // the key layout chosen
const HTTP_NOTE_ITEM = "s66.httpnote"; // the note on plain http, said once
const LANG_ITEM = "s66.lang"; // the UI's language as last seen, for the texts before boot
// The page's texts in the firmware's four languages (web/pagetext.json, put into the page
// by tools/web.py): they follow the language chosen in the device's settings.
const TEXTS = JSON.parse(document.getElementById("pagetext").textContent);
const KEYBOARD = { Enter: "\r", Backspace: "\x7f" }; // as the terminal simulator reads them

const statusLine = document.getElementById("status");
const canvas = document.getElementById("panel");
const ctx = canvas.getContext("2d");
const image = ctx.createImageData(W, H);
const pixels = new Uint32Array(image.data.buffer);
const keypad = document.getElementById("keypad");
const buttons = document.getElementById("buttons");
const switchButton = document.getElementById("switch");

// Everything the page keeps between events, in one place.
const page = {
  mp: null,
  web: null, // the webmain module
  store: null, // the firmware's files, on disk (durable.js)
  frame: 0, // address of the frame buffer in the WebAssembly memory
  longMs: 600,
  layout: "keypad",
  held: new Set(), // the keys that count on release (bindKey)
  picks: 0, // keypad digits that pick a list's items now (labelKeys)
  latency: [], // ms from a key's input event to its frame on the canvas
  waited: [], // of that, ms from a key's pointerdown to its handler: the browser's share
  firstFrame: 0, // ms from navigation start to the first frame
  club: globalThis.s66clubcfg.load(), // club settings (clubcfg.js), or null
  tickDue: false,
  lang: "en", // the page's texts' language
  statusKey: "", // the page text the status line shows ("" if none, or another text)
  // Frames (draw()): waiting for their writes, copied, the newest painted; who waits for
  // the last; when it was painted; and whether a transaction failed (no frame after it).
  drawing: 0,
  made: 0,
  shown: 0,
  idleWaiters: [],
  lastDrawn: 0,
  lost: false,
  audio: null, // the Web Audio context, made on the first key or tap
  ready: null, // [resolve, reject] of window.s66.ready
  cam: null, // camera mode (web/camera.js), once turned on the first time
  camOn: false,
};

// Hooks for the tests and the figures (host_tests/web, tools/web_figures.py).
window.s66 = {
  ready: new Promise((ok, no) => { page.ready = [ok, no]; }),
  state: () => JSON.parse(page.web.state()),
  current: () => page.store.current(), // every other tab's change read (durable.js)
  keyFor: (ch) => JSON.parse(page.web.key_for(ch)),
  layout: () => page.layout,
  longMs: () => page.longMs,
  held: () => [...page.held].sort(),
  lang: () => page.web.lang(),
  latency: page.latency,
  waited: page.waited,
  firstFrame: () => page.firstFrame,
  club: () => JSON.parse(page.web.club_info()),
  // Resolved once every frame asked for is on the canvas (each waits for its writes).
  idle: () => (page.drawing > 0 ? new Promise((ok) => page.idleWaiters.push(ok))
    : Promise.resolve()),
  // Date.now() when the last frame was painted (after the writes it waited for).
  drawn: () => page.lastDrawn,
  // Where the match stands, the trick being typed included (the durable kill test).
  position: () => page.web.state() + " " + page.web.typed(),
  camera: () => (page.cam ? page.cam.info() : null), // camera mode's state (web/camera.js)
};

function tr(key) {
  const texts = TEXTS[page.lang] || TEXTS.en;
  return texts[key] || TEXTS.en[key] || key;
}

// Every text of the page in the UI's language: elements marked data-t (their text),
// data-t-aria (their aria-label) and data-t-title (their tooltip), and the ones set here.
function setTexts(lang) {
  page.lang = TEXTS[lang] ? lang : "en";
  document.documentElement.lang = page.lang;
  document.title = tr("title");
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = tr(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-aria]")) el.setAttribute("aria-label", tr(el.dataset.tAria));
  for (const el of document.querySelectorAll("[data-t-title]")) el.title = tr(el.dataset.tTitle);
  switchButton.textContent = tr(page.layout === "keypad" ? "4 buttons" : "keypad");
  if (page.statusKey) statusLine.textContent = tr(page.statusKey);
  try {
    localStorage.setItem(LANG_ITEM, page.lang);
  } catch (err) {
    console.warn("page language: " + err);
  }
}

function say(key) {
  page.statusKey = key;
  statusLine.textContent = key ? tr(key) : "";
}

function fail(err) {
  page.statusKey = "";
  statusLine.textContent = tr("error") + ": " + (err && err.message ? err.message : err);
  statusLine.classList.add("error");
  console.error(err);
}

// The frame buffer is MONO_VLSB, as the OLED's RAM: byte (page, x) holds 8 pixels of
// column x, bit 0 on top. Copied out of the WebAssembly memory (fetched each time: it is
// replaced when the memory grows) when the key's call returns, painted later (draw()).
function grab() {
  return page.mp._module.HEAPU8.slice(page.frame, page.frame + W * H / 8);
}

function paint(mem) {
  for (let page = 0; page < H / 8; page++) {
    const row = page * 8 * W;
    for (let x = 0; x < W; x++) {
      const b = mem[page * W + x];
      for (let bit = 0; bit < 8; bit++) {
        pixels[row + bit * W + x] = (b >> bit) & 1 ? LIT : DARK;
      }
    }
  }
  ctx.putImageData(image, 0, 0);
}

// A frame goes on the canvas only once the writes made before it are on disk (durable.js),
// so what the panel shows survives the browser being killed, as on the board (flash before
// screen). Each frame is copied when its key returns and painted when that key's
// transaction completes; keys typed meanwhile do not hold it back, and a later frame
// painted already is not painted over.

function draw(since) {
  const n = ++page.made;
  const bytes = grab();
  page.drawing++;
  page.store.settled().then(() => {
    page.drawing--;
    if (n > page.shown && !page.lost) {
      page.shown = n;
      try {
        paint(bytes);
      } catch (err) {
        fail(err);
      }
      page.lastDrawn = Date.now();
    }
    if (since !== null) {
      page.latency.push(performance.now() - since);
      if (page.latency.length > 1000) page.latency.shift();
    }
    if (page.drawing === 0) {
      for (const ok of page.idleWaiters) ok();
      page.idleWaiters = [];
    }
  });
}

function afterKey(since, changed) {
  if (changed) draw(since);
}

// On a list the keypad's digits pick items (1-9, then 0 for the tenth) while their faces
// show card ranks ("A" would pick item 1): while one is open, the digits that pick an item
// show its number instead (webmain picks(); style.css hides the rank under it).
function labelKeys() {
  const n = page.layout === "keypad" ? page.web.picks() : 0;
  if (n === page.picks) return;
  page.picks = n;
  for (const b of keypad.querySelectorAll("button[data-key]")) {
    const i = "1234567890".indexOf(b.dataset.key);
    if (i >= 0 && i < n) b.dataset.pick = b.dataset.key;
    else delete b.dataset.pick;
  }
  keypad.classList.toggle("picking", n > 0);
}

// The club link's turn (webclub.py): after a key's frame is on the canvas, when mqtt.js
// has news, and twice a second for its timers. It never waits for the network.
function tick() {
  page.tickDue = false;
  if (!page.web) return;
  try {
    if (page.web.tick()) draw(null);
    const c = JSON.parse(page.web.club_info());
    if (c && !statusLine.classList.contains("error")) {
      const [word, ...why] = c.status.split(":"); // "offline: reason": the word in the language
      page.statusKey = "";
      statusLine.textContent = tr("club") + " " + c.table + ": " + (c.refused
        ? tr("refused") + " (" + c.refused + "): " + tr("check the table id and password")
        : [tr(word)].concat(why).join(":") + ", "
          + (c.pending ? c.pending + " " + tr("waiting for the ack") : tr("all acknowledged")));
    }
  } catch (err) {
    fail(err);
  }
}

// After the writes made so far are on disk: a result goes out only once it is kept.
function soon() {
  if (page.club && !page.tickDue) {
    page.tickDue = true;
    page.store.settled().then(() => setTimeout(tick, 0));
  }
}

// After a key: what the firmware asked of the page. An export chosen in the device's
// history list (ui/info.py) downloads as the CSV and JSON links do; a new language in its
// settings turns the page's texts too.
function follow() {
  try {
    const want = page.web.wanted();
    if (want) download(want);
    const lang = page.web.lang();
    if (lang !== page.lang) setTexts(lang);
    labelKeys();
  } catch (err) {
    fail(err);
  }
}

// One or more keys given to the firmware by act(), which answers whether the panel
// changed; then its frame, what the firmware asked of the page, the club's turn. False if
// the firmware failed.
function keyed(since, act) {
  let changed;
  try {
    changed = act();
  } catch (err) {
    fail(err);
    return false;
  }
  afterKey(since, changed);
  follow();
  soon();
  return true;
}

// A player's key (the camera's go through typeKeys below).
function press(name, long, since) {
  if (cameraTakes(name) || !keyed(since, () => page.web.key(name, long))) return;
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
    if (e.button > 0 || !page.web) return;
    e.preventDefault();
    if (page.waited.push(performance.now() - e.timeStamp) > 1000) page.waited.shift();
    if (button.setPointerCapture) button.setPointerCapture(e.pointerId);
    down = true;
    button.classList.add("down");
    if (!page.held.has(name)) {
      press(name, false, e.timeStamp);
      return;
    }
    timer = setTimeout(() => {
      timer = 0;
      press(name, true, performance.now());
    }, page.longMs);
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

// The board's beeper (loop.py make_buzzer) through Web Audio: the same tones, a square
// wave as a piezo on PWM gives, from the table tools/web.py copies out of loop.py into
// the page (data-tones: [frequency Hz, ms] per pattern). The app calls beep() only while
// its sound setting is on (ui/app.py), as on the board. Browsers start audio only after a
// user gesture: the context is made (or resumed) on the first key or tap.
const TONES = JSON.parse(document.body.dataset.tones || "[]");

function unlockAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    if (!page.audio) page.audio = new Context();
    if (page.audio.state === "suspended") page.audio.resume().catch(() => {});
  } catch (err) {
    console.warn("no audio: " + err);
  }
}
for (const kind of ["pointerup", "keydown", "touchend"]) {
  document.addEventListener(kind, unlockAudio, { capture: true, passive: true });
}

function beep(kind) {
  const tone = TONES[kind];
  if (!tone || !tone[0]) return;
  if (!page.audio) unlockAudio();
  if (!page.audio) return;
  const osc = page.audio.createOscillator();
  const gain = page.audio.createGain();
  osc.type = "square";
  osc.frequency.value = tone[0];
  gain.gain.value = 0.08;
  osc.connect(gain).connect(page.audio.destination);
  const at = page.audio.currentTime;
  osc.start(at);
  osc.stop(at + tone[1] / 1000);
}

document.addEventListener("keydown", (e) => {
  if (!page.web || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.target instanceof HTMLInputElement) return; // typing into the club form
  const ch = KEYBOARD[e.key] || (e.key.length === 1 ? e.key : null);
  if (ch === null) return;
  if (page.cam && cameraTakes(JSON.parse(page.web.key_for(ch))[0] || "")) {
    e.preventDefault();
    return;
  }
  let r;
  try {
    r = page.web.char(ch);
  } catch (err) {
    fail(err);
    return;
  }
  if (r < 0) return; // not a key of this layout: the browser keeps it
  e.preventDefault();
  afterKey(e.timeStamp, r > 0);
  follow();
  soon();
});

// Boot the app (again) from what the store holds, with a key layout.
function start(name) {
  page.layout = name === "buttons" ? "buttons" : "keypad";
  const club = page.club ? JSON.stringify(page.club) : "";
  page.frame = page.web.start(page.store, page.layout, club, beep);
  page.held = new Set(page.web.held_keys().split(" "));
  keypad.hidden = page.layout !== "keypad";
  buttons.hidden = page.layout !== "buttons";
  setTexts(page.web.lang());
  labelKeys();
  draw(null);
}

switchButton.addEventListener("click", () => {
  try {
    const next = page.layout === "keypad" ? "buttons" : "keypad";
    page.store.setItem(LAYOUT_ITEM, next);
    start(next);
  } catch (err) {
    fail(err);
  }
});

// Another tab of this page wrote the match (durable.js hears it): boot again from it, so
// this tab never appends to a journal it has not read.
// Another tab wrote the store: boot from what it holds now. refused: this tab's last key
// was made on what it had read before, so it was not written (durable.js): say so.
function otherTab(refused) {
  if (!page.web) return;
  try {
    start(page.layout);
    if (refused) say("othertab");
  } catch (err) {
    fail(err);
  }
}

// Camera mode (web/camera.js, issue 27): off until the player turns it on; its code, the
// model and TensorFlow.js load only then. It types the trick it reads onto the panel
// through typeKeys(); OK (or a tap on the panel) enters it, any other key drops it first.
const cameraButton = document.getElementById("camera-open");

function cameraTakes(name) {
  return !!(name && page.cam && page.camOn
    && page.cam.key(name, JSON.parse(page.web.key_for("#"))[0]));
}

// Keys the camera types for a trick it read (web/camera.js), not the player's: they act as
// pressed one by one (webcamera.py type_keys), with one frame drawn after the last.
function typeKeys(glue, chars) {
  keyed(performance.now(), () => glue.type_keys(chars));
}

async function toggleCamera() {
  if (!page.web) return;
  if (page.camOn) {
    page.camOn = false;
    page.cam.stop();
    cameraButton.classList.remove("on");
    return;
  }
  page.camOn = true;
  cameraButton.classList.add("on");
  try {
    if (!page.cam) {
      const { createCamera } = await import("./camera.js");
      page.mp.runPython("import webcamera");
      const glue = page.mp.pyimport("webcamera");
      page.cam = createCamera({
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
    if (!await page.cam.start()) {
      page.camOn = false;
      cameraButton.classList.remove("on");
    }
  } catch (err) {
    page.camOn = false;
    cameraButton.classList.remove("on");
    console.warn("camera: " + err);
    say("camera error");
  }
}

cameraButton.addEventListener("click", toggleCamera);
canvas.addEventListener("click", () => {
  if (page.cam && page.camOn) page.cam.tapPanel();
});

function download(kind, e) {
  if (e) e.preventDefault();
  if (!page.web) return;
  let text;
  try {
    text = page.web.export_text(kind);
  } catch (err) {
    fail(err);
    return;
  }
  const type = kind === "csv" ? "text/csv" : "application/json";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: type + ";charset=utf-8" }));
  a.download = "sixtysix-" + new Date().toISOString().slice(0, 10) + "." + kind;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// firmware.pack (tools/web.py): "S66P", the index's length (uint32 LE), the index as
// JSON ([[path, size], ...]), then the files' bytes in that order.
function unpack(bytes, FS, root) {
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

// The Club form: the broker's WebSocket URL, the table id and its password, kept in
// localStorage by clubcfg.js; the page loads again to take them up (and their policy).
function clubForm() {
  const form = document.getElementById("club-form");
  const cfg = globalThis.s66clubcfg;
  document.getElementById("club-open").addEventListener("click", () => {
    form.hidden = !form.hidden;
  });
  if (page.club) {
    form.elements.url.value = page.club.url;
    form.elements.table.value = page.club.table;
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const el = form.elements;
    const saved = cfg.save({ url: el.url.value.trim(), table: el.table.value.trim(),
      password: el.password.value || (page.club ? page.club.password : "") });
    if (!saved) {
      document.getElementById("club-why").textContent = tr("club why");
      return;
    }
    location.reload();
  });
  document.getElementById("club-forget").addEventListener("click", () => {
    cfg.forget();
    location.reload();
  });
}

async function boot() {
  setTexts(localStorage.getItem(LANG_ITEM) || "en"); // as last seen, until the app says
  say("loading");
  clubForm();
  // npm mqtt comes with clubmqtt.js: club tables only. Not cached and no network: the table
  // keeps score without the club.
  const glue = page.club ? import("./clubmqtt.js").catch((err) => {
    console.warn("club: " + err);
    return null;
  }) : null;
  for (const b of document.querySelectorAll(".keys button[data-key]")) bindKey(b);
  document.getElementById("export-csv").addEventListener("click", (e) => download("csv", e));
  document.getElementById("export-json").addEventListener("click", (e) => download("json", e));
  const packed = fetch("firmware.pack").then((r) => {
    if (!r.ok) throw new Error("firmware.pack: HTTP " + r.status);
    return r.arrayBuffer();
  });
  // The store is read from disk while the runtime loads; the firmware starts on it.
  const opened = openDurable((err) => {
    page.lost = true;
    fail(new Error("storage: " + (err.message || err) + "; entries after the panel's are not"
      + " kept: reload"));
  }, otherTab);
  page.mp = await loadMicroPython({
    heapsize: 512 * 1024,
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  page.mp.FS.mkdir("/fw");
  unpack(new Uint8Array(await packed), page.mp.FS, "/fw");
  page.mp.runPython("import sys\nsys.path.insert(0, '/fw')");
  page.web = page.mp.pyimport("webmain");
  page.longMs = page.web.LONG_MS;
  page.store = await opened;
  const glued = glue && await glue;
  if (glued) glued.onNews(soon);
  else page.club = null;
  start(page.store.getItem(LAYOUT_ITEM));
  await window.s66.idle();
  page.firstFrame = performance.now();
  say("");
  // Plain http from another machine (a phone on the laptop's address) is no secure
  // context: no service worker, so no offline use and no install. Said once, briefly.
  // It names the two ways to HTTPS (docs/web.md): make web HTTPS=1, make web-dist.
  if (!window.isSecureContext && !page.store.getItem(HTTP_NOTE_ITEM)) {
    say("httpnote");
    page.store.setItem(HTTP_NOTE_ITEM, "1");
  }
  if (page.club) {
    tick();
    setInterval(soon, 500);
  }
  if ("serviceWorker" in navigator) {
    try {
      await navigator.serviceWorker.register("sw.js");
      if (page.club) navigator.serviceWorker.ready.then((r) => r.active.postMessage("club"));
    } catch (err) {
      // Past a certificate warning the browser keeps the page but refuses its worker: the
      // scores are kept all the same; only working offline is lost. Said, not an error.
      console.warn("service worker: " + (err && err.message ? err.message : err));
      if (!page.statusKey) say("no offline");
    }
  }
}

boot().then(() => page.ready[0](), (err) => {
  fail(err);
  page.ready[1](err);
});
