// Frames: the firmware's frame buffer painted onto the canvas. The buffer is MONO_VLSB, as
// the OLED's RAM: byte (page, x) holds 8 pixels of column x, bit 0 on top (webmain.py Panel).
//
// A frame goes on the canvas only once the writes made before it are on disk (durable.js),
// so what the panel shows survives the browser being killed, as on the board (flash before
// screen). Each frame is copied when its key returns and painted when that key's
// transaction completes; keys typed meanwhile do not hold it back, and a later frame
// painted already is not painted over.
import { fw } from "./runtime.js";
import { fail } from "./texts.js";

const W = 128;
const H = 64;
const LIT = 0xffffe6bf; // a lit pixel, RGBA bytes bf e6 ff ff read as a little-endian word
const DARK = 0xff000000;

const canvas = document.getElementById("panel");
const ctx = canvas.getContext("2d");
const image = ctx.createImageData(W, H);
const pixels = new Uint32Array(image.data.buffer);

// What this module keeps between frames.
let address = 0; // of the frame buffer in the WebAssembly memory (webmain.start())
let made = 0; // frames copied so far, numbered
let shown = 0; // the number of the newest frame painted
let drawing = 0; // frames copied and waiting for their writes
let idleWaiters = []; // who waits for the last of those (idle())
let lastDrawn = 0; // Date.now() when the last frame was painted
let lost = false; // a transaction failed: no frame after it (lose())
export const latency = []; // ms from a key's input event to its frame on the canvas

// The frame buffer's address, from webmain.start() (each boot gives it).
export function frameAt(at) {
  address = at;
}

// Copied out of the WebAssembly memory (fetched each time: it is replaced when the memory
// grows) when the key's call returns, painted later (draw()).
function grab() {
  return fw.mp._module.HEAPU8.slice(address, address + W * H / 8);
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

// The frame as it is now, painted once the writes made so far are on disk. since: when the
// key that made it came (performance.now()), for latency; null for a frame of no key.
export function draw(since) {
  const n = ++made;
  const bytes = grab();
  drawing++;
  fw.store.settled().then(() => {
    drawing--;
    if (n > shown && !lost) {
      shown = n;
      try {
        paint(bytes);
      } catch (err) {
        fail(err);
      }
      lastDrawn = Date.now();
    }
    if (since !== null) {
      latency.push(performance.now() - since);
      if (latency.length > 1000) latency.shift();
    }
    if (drawing === 0) {
      for (const ok of idleWaiters) ok();
      idleWaiters = [];
    }
  });
}

// Resolved once every frame asked for is on the canvas (each waits for its writes).
export function idle() {
  return drawing > 0 ? new Promise((ok) => idleWaiters.push(ok)) : Promise.resolve();
}

// Date.now() when the last frame was painted (after the writes it waited for).
export function drawn() {
  return lastDrawn;
}

// The frames asked for so far and the number of the newest painted (the kill test tells by
// them whether a key's frame was painted; a time can fall in the same millisecond).
export function counts() {
  return { made, shown };
}

// A write failed (durable.js): the panel keeps the last frame whose writes are on disk.
export function lose() {
  lost = true;
}
