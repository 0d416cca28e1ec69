// Camera mode: the phone's camera reads the cards of a trick laid face up in their boxes,
// the trick is typed onto the panel as a player would type it, and one tap on OK (#, or on
// the panel) enters it through the page's own key path. Loaded by page.js only when the
// player turns camera mode on, with TensorFlow.js and the model (camera/): a first visit
// never fetches them. Frames stay in this page: nothing is sent or stored.
//
// The boxes: one per card of a trick, in play order from the left, laid out by the rule
// of tools/cardcam/scenes.py boxes(). Each box, with the margin the model reads around it
// (model.json "margin", scenes.py region()), is shrunk to the model's input (112 x 168 RGB)
// and read as one of the 24 cards or "none"; a box is sure when its best class reaches
// that class's threshold (model.json "thresholds") in READS frames in a row. A trick is
// proposed only when every box is sure of a card and the core takes the trick
// (web/webcamera.py); then the keys that type it go to the panel but its last card, which
// OK adds. After a trick is entered, the boxes must be seen empty before the next one is
// proposed. A box read as a card the deal has played is not proposed. A reading the core
// refuses for its cards, or a proposal the player types another trick over, says the deck
// is not read reliably: nothing more is proposed until camera mode is turned on again or
// the player asks to try again.

const READS = 3; // the same sure reading in this many frames in a row
const EMPTY_READS = 2; // boxes seen empty this often: the cards were taken away
const PERIOD_MS = 100; // one frame analysed at most every 100 ms
// A frame's reading holds the page's one thread (a tenth of a second and more on a slow
// phone): while the player types, keys first. A key the camera does not take (a trick
// typed, trump, a marriage, a menu) stops the reading until no key came for this long.
const QUIET_MS = 1500;
const LOW_SIDE = 480; // a frame's shorter side below this: the note says reading suffers
const SUIT_TEXT = { S: "♠", H: "♥", D: "♦", C: "♣" };

let tf = null;
let models = null;  // the members (model.json page.members), their outputs averaged
let meta = null;
let pixels = null; // classify()'s input, kept from frame to frame

function boxes(n, width, height, inW, inH) {
  const gap = 0.03 * width;
  const w = Math.min(0.86 * height * inW / inH, (width - (n + 1) * gap) / n);
  const h = w * inH / inW;
  const x0 = (width - n * w - (n - 1) * gap) / 2;
  const y = (height - h) / 2;
  return Array.from({ length: n }, (_, i) => [x0 + i * (w + gap), y, w, h]);
}

// What the model reads of each box (tools/cardcam/scenes.py region()): the box and the
// margin it was trained with (model.json "margin"), moved back into the frame where the
// margin would leave it, never cut.
export function regions(n, width, height, inW, inH, margin) {
  return boxes(n, width, height, inW, inH).map(([x, y, w, h]) => {
    const [rw, rh] = [w * (1 + 2 * margin), h * (1 + 2 * margin)];
    return [Math.min(Math.max(x - margin * w, 0), width - rw),
      Math.min(Math.max(y - margin * h, 0), height - rh), rw, rh];
  });
}

// Each box's reading: its likeliest class among those the deal can still show (gone: the
// cards webcamera.py says no box can hold now), with the probabilities of the others
// dropped and the rest scaled to sum to one (the model's answer with those cards known
// absent), or "?" below that class's threshold. played (webcamera.py played(), in gone
// too): a box whose likeliest card, the others gone left out, is one of them reads "!" and
// that card: the model calls it a card no box holds, so its second choice is no reading
// either. tools/camera_figures.py reads the same way.
export function sureNames(probs, n, classes, gone, thresholds, played = new Set()) {
  const k = classes.length;
  const names = [];
  for (let i = 0; i < n; i++) {
    let first = -1;
    for (let c = 0; c < k; c++) {
      if (gone.has(classes[c]) && !played.has(classes[c])) continue;
      if (first < 0 || probs[i * k + c] > probs[i * k + first]) first = c;
    }
    if (first >= 0 && played.has(classes[first])) {
      names.push("!" + classes[first]);
      continue;
    }
    let best = -1;
    let kept = 0;
    for (let c = 0; c < k; c++) {
      if (gone.has(classes[c])) continue;
      kept += probs[i * k + c];
      if (best < 0 || probs[i * k + c] > probs[i * k + best]) best = c;
    }
    names.push(best >= 0 && kept > 0 && probs[i * k + best] / kept >= thresholds[best]
      ? classes[best] : "?");
  }
  return names;
}

function cardText(code) {
  return (code[0] === "T" ? "10" : code[0]) + SUIT_TEXT[code[1]];
}

async function loadModel() {
  if (models) return;
  const base = new URL("camera/", document.baseURI).href;
  const [weights, info] = await Promise.all([
    fetch(base + "cards.bin").then((r) => {
      if (!r.ok) throw new Error("cards.bin: HTTP " + r.status);
      return r.arrayBuffer();
    }),
    fetch(base + "model.json").then((r) => r.json()),
    // TensorFlow.js's builds set globalThis.tf; the layers and the backend extend it.
    import("./camera/tf-core.es2017.min.js")
      .then(() => import("./camera/tf-layers.es2017.min.js"))
      .then(() => import("./camera/tf-backend-wasm.es2017.min.js")),
  ]);
  tf = globalThis.tf;
  // One thread: no SharedArrayBuffer needed, the page is not cross-origin isolated.
  tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  tf.wasm.setWasmPaths(base);
  if (!(await tf.setBackend("wasm"))) throw new Error("no WebAssembly backend");
  meta = info;
  // cards.bin holds the members' weights one after the other (tools/cardcam/train.py).
  const loaded = [];
  let at = 0;
  for (const m of info.page.members) {
    loaded.push(await tf.loadLayersModel(tf.io.fromMemory({
      modelTopology: m.topology, weightSpecs: m.weights,
      weightData: weights.slice(at, at + m.bytes),
    })));
    at += m.bytes;
  }
  if (at !== weights.byteLength) throw new Error("cards.bin: " + weights.byteLength + " bytes");
  models = loaded;
}

// The model's probabilities (n x classes, flat) for n boxes of RGBA pixels stacked from the
// top, each the model's input size: N x H x W x 3, scaled as it was trained, (x - 0.5) * 4,
// each inside a border of zeros (model.json page.border: the first convolution's padding,
// written here rather than copied by a layer; tools/cardcam/layers.py). Each member reads
// each box twice, as it is and turned half round (a card shows its index in both
// corners), and all the readings are averaged: a card read wrong one way up, or by one
// member, is seldom read the same wrong by the other (tools/cardcam/train.py).
export async function classify(px, n) {
  await loadModel();
  const [, inH, inW] = meta.input;
  const e = meta.page.border || 0;
  const [h, w] = [inH + 2 * e, inW + 2 * e];
  // One buffer a trick size, kept: a frame writes every pixel inside the borders, which
  // stay zero, and no megabyte is left to the collector five times a second.
  const size = 2 * n * h * w * 3;
  if (!pixels || pixels.length !== size) pixels = new Float32Array(size);
  const data = pixels;
  for (let b = 0; b < n; b++) {
    for (let y = 0; y < inH; y++) {
      let s = (b * inH + y) * inW * 4;
      let d = ((b * h + y + e) * w + e) * 3; // as it is
      let t = (((n + b) * h + h - 1 - y - e) * w + w - 1 - e) * 3; // turned half round
      for (let x = 0; x < inW; x++, s += 4, d += 3, t -= 3) {
        for (let c = 0; c < 3; c++) {
          const v = (px[s + c] / 255 - 0.5) * 4;
          data[d + c] = v;
          data[t + c] = v;
        }
      }
    }
  }
  const batch = tf.tensor4d(data, [2 * n, h, w, 3]);
  let probs = null;
  for (const model of models) {
    const output = model.predictOnBatch(batch);
    const both = await output.data();
    output.dispose();
    const k = both.length / (2 * n);
    if (!probs) probs = new Float32Array(n * k);
    for (let i = 0; i < n * k; i++) probs[i] += (both[i] + both[n * k + i]) / (2 * models.length);
  }
  batch.dispose();
  return probs;
}

// api (page.js): typeKeys(chars) types keypad characters through the page's key path as the
// camera's own; trickKeys(codes), drop(), players(), gone(), played(), entered(),
// lastTrick() call web/webcamera.py;
// tr(key) is the page's texts; redraw() paints the panel. before: the element the view goes
// above.
export function createCamera(api, before) {
  const view = document.createElement("div");
  view.id = "camera-view";
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.setAttribute("playsinline", "");
  const overlay = document.createElement("canvas");
  const note = document.createElement("p");
  note.id = "camera-note";
  note.setAttribute("role", "status");
  const frame = document.createElement("div");
  frame.className = "cam-frame";
  // Shown while the deck is not read reliably: the player asks the camera to read again.
  // Over the view, which it takes no height from (a phone's keys have none to spare).
  const again = document.createElement("button");
  again.id = "camera-again";
  again.type = "button";
  again.hidden = true;
  frame.append(video, overlay, again);
  // Its own way out, whatever happened: camera mode off, the keys as ever.
  const close = document.createElement("button");
  close.id = "camera-close";
  close.type = "button";
  close.textContent = "×";
  close.title = close.ariaLabel = api.tr("close camera");
  close.addEventListener("click", () => {
    const open = document.getElementById("camera-open");
    if (running && open) open.click(); // as the player's own camera button: page.js turns it off
    else stopped();
  });
  view.append(close, frame, note);
  before.before(view); // above the keys: the view, then the keys to type on
  const crop = document.createElement("canvas");
  const cropCtx = crop.getContext("2d", { willReadFrequently: true });

  let stream = null;
  let timer = 0;
  let running = false;
  let busy = false;
  let history = []; // per frame: per box, a class name or "?" (not sure)
  let pending = null; // {keys, rest, codes}: a trick on the panel waiting for OK
  let needEmpty = false; // a trick was entered: its cards must go first
  let emptySeen = 0;
  let shown = []; // what each box says, for the overlay
  const timings = []; // ms from a frame's capture to its reading (and proposal)
  let proposedAt = [];
  let frames = 0; // frames analysed since the camera started
  let since = 0;
  let quietUntil = 0; // no frame is read before this: the player is typing
  let lastEntered = ""; // webcamera.py entered() (deals.tricks) at the last frame read
  let unreliable = false; // the deck was read wrong: nothing is proposed
  let dropped = null; // {codes, winner, at}: a proposal the player's key dropped at entered()

  // A camera that gives less than the 640 x 480 the page asks for makes each box fewer
  // pixels, and more cards come out "not sure" (docs/web.md "Camera"): the note says so.
  function say(key, extra) {
    const w = video.videoWidth;
    const h = video.videoHeight;
    const low = w && h && Math.min(w, h) < LOW_SIDE ? " · " + api.tr("low resolution") + " "
      + w + "×" + h : "";
    note.textContent = api.tr(key) + (extra ? " " + extra : "") + low;
  }

  function drawOverlay(n) {
    const w = video.videoWidth;
    const h = video.videoHeight;
    if (!w || !h) return;
    if (overlay.width !== w || overlay.height !== h) [overlay.width, overlay.height] = [w, h];
    const g = overlay.getContext("2d");
    g.clearRect(0, 0, w, h);
    g.lineWidth = Math.max(2, w / 160);
    g.font = Math.round(h / 12) + "px system-ui, sans-serif";
    g.textAlign = "center";
    boxes(n, w, h, meta.input[2], meta.input[1]).forEach(([x, y, bw, bh], i) => {
      const s = shown[i] || "";
      const bad = s === "?" || s[0] === "!"; // not sure, or a card already played
      g.strokeStyle = bad ? "#ff6b5f" : s && s !== "none" ? "#7f7" : "#fff";
      g.strokeRect(x, y, bw, bh);
      const label = s === "?" ? api.tr("not sure") : s[0] === "!" ? cardText(s.slice(1))
        : s && s !== "none" ? cardText(s) : String(i + 1);
      g.fillStyle = "rgba(0,0,0,0.6)";
      g.fillRect(x, y + bh - h / 9, bw, h / 9);
      g.fillStyle = bad ? "#ff6b5f" : "#fff";
      g.fillText(label, x + bw / 2, y + bh - h / 40);
    });
  }

  async function read(n, gone, played) {
    const w = video.videoWidth;
    const h = video.videoHeight;
    const [, inH, inW] = meta.input;
    // A canvas given its size again is made again: only when the trick's size changes.
    if (crop.width !== inW || crop.height !== inH * n) [crop.width, crop.height] = [inW, inH * n];
    cropCtx.imageSmoothingEnabled = true;
    cropCtx.imageSmoothingQuality = "high";
    regions(n, w, h, inW, inH, meta.margin || 0).forEach(([rx, ry, rw, rh], i) => {
      const [sx, sy] = [Math.round(rx), Math.round(ry)];
      cropCtx.drawImage(video, sx, sy, Math.round(rx + rw) - sx, Math.round(ry + rh) - sy,
        0, i * inH, inW, inH);
    });
    const probs = await classify(cropCtx.getImageData(0, 0, inW, inH * n).data, n);
    return sureNames(probs, n, meta.classes, new Set(gone.split(" ")), meta.thresholds,
      new Set(played.split(" ")));
  }

  function steady(reads) {
    if (history.length < reads) return null;
    const last = history.slice(-reads);
    const first = last[0].join(" ");
    return last.every((r) => r.join(" ") === first) ? last[0] : null;
  }

  function withdraw() {
    if (!pending) return;
    pending = null;
    if (api.drop()) api.redraw();
  }

  // The deck reads wrong: the camera reads on (the boxes show what it sees) but proposes
  // nothing, and says so, until camera mode is turned on again or the player tries again.
  function distrust() {
    unreliable = true;
    dropped = null;
    withdraw();
    again.textContent = api.tr("try again");
    again.hidden = false;
    say("deck unreliable");
  }

  // Another trick entered where the player's key dropped a proposal: the proposal was
  // wrong. Only the very next trick is compared (at: where the tricks stood then); a card
  // typed without its suit agrees with the proposal's card of that rank.
  function corrected(at, where) {
    const [d0, t0] = at.split(".").map(Number);
    const [d1, t1] = where.split(".").map(Number);
    if (!(d1 === d0 && t1 === t0 + 1) && !(d1 === d0 + 1 && t1 === 0)) return false;
    const last = api.lastTrick().split(" ");
    if (last.length !== dropped.codes.length + 1) return false; // not a trick: no telling
    return Number(last[0]) !== dropped.winner || dropped.codes.some((c, i) =>
      last[i + 1][0] !== c[0] || (last[i + 1][1] !== "?" && last[i + 1][1] !== c[1]));
  }

  function propose(codes, started) {
    const answer = JSON.parse(api.trickKeys(codes.join(" ")));
    if (answer.deck) {
      distrust(); // the core refused the cards read: a card twice, a fifth of a rank
      return;
    }
    if (!answer.keys) {
      const own = { trump: "trump first", typing: "typing", board: "camera board" }[answer.why];
      say(own || "not this trick", own ? "" : answer.why); // the core's refusal, named
      return;
    }
    // The last card's rank key would enter the trick: it waits for OK, with its suit.
    const keys = answer.keys;
    pending = { keys, rest: keys.slice(-2), codes, winner: answer.winner };
    dropped = null;
    api.typeKeys(keys.slice(0, -2));
    proposedAt.push(performance.now() - started);
    if (proposedAt.length > 200) proposedAt.shift();
    say("tap OK", codes.map(cardText).join(" "));
  }

  async function step() {
    timer = 0;
    if (!running) return;
    const started = performance.now();
    const n = api.players() || 2; // no match yet: two boxes to aim with
    if (!busy && n && video.readyState >= 2 && video.videoWidth && started >= quietUntil) {
      busy = true;
      try {
        // A trick entered (by OK or typed), undone, or a new deal: the cards in the boxes
        // may be the trick just entered, typed with ranks only (nothing then says they
        // were played, and they would be proposed again), or with their suits (left out of
        // the reading, a box of a played card could read as another). They go first.
        const where = api.entered();
        if (dropped && where !== dropped.at) {
          if (corrected(dropped.at, where)) distrust();
          dropped = null;
        }
        if (where !== lastEntered && !needEmpty) {
          withdraw();
          needEmpty = true;
          history = [];
          if (!unreliable) say("clear the boxes");
        }
        lastEntered = where;
        const names = await read(n, api.gone(), api.played());
        timings.push(performance.now() - started);
        frames++;
        if (timings.length > 500) timings.shift();
        history.push(names);
        if (history.length > 10) history.shift();
        shown = names;
        const empty = names.every((s) => s === "none");
        emptySeen = empty ? emptySeen + 1 : 0;
        const seen = names.find((s) => s[0] === "!");
        if (unreliable) {
          say("deck unreliable");
        } else if (needEmpty) {
          if (emptySeen >= EMPTY_READS) {
            needEmpty = false;
            say("lay the cards");
          }
        } else if (pending) {
          const now = steady(READS);
          if (emptySeen >= EMPTY_READS || (now && !now.includes("?") && !now.includes("none")
              && now.join(" ") !== pending.codes.join(" "))) {
            withdraw(); // taken away before OK, or other cards now: no longer proposed
            say("lay the cards");
          }
        } else if (seen) {
          say("already played", cardText(seen.slice(1)));
        } else if (names.includes("?")) {
          say("not sure");
        } else {
          const now = steady(READS);
          if (now && !now.includes("none")) propose(now, started);
          else if (empty) say("lay the cards");
        }
        drawOverlay(n);
      } catch (err) {
        say("camera error", String(err && err.message ? err.message : err));
      } finally {
        busy = false;
      }
    }
    if (running) timer = setTimeout(step, Math.max(0, PERIOD_MS - (performance.now() - started)));
  }

  // OK while a trick is proposed: its last card, then the camera waits for empty boxes.
  // A trick the core then refuses (its keys stay on the panel for the player to fix) was
  // read wrong.
  function confirm() {
    const p = pending;
    pending = null;
    const before = api.entered();
    api.typeKeys(p.rest);
    needEmpty = true;
    history = [];
    if (api.entered() === before) distrust();
    else say("take the cards");
  }

  again.addEventListener("click", () => {
    unreliable = false;
    again.hidden = true;
    needEmpty = true; // the cards lying there may be the ones read wrong: they go first
    emptySeen = 0;
    history = [];
    say("clear the boxes");
  });

  function stopped() {
    running = false;
    if (timer) clearTimeout(timer);
    timer = 0;
    withdraw();
    if (stream) for (const t of stream.getTracks()) t.stop();
    stream = null;
    video.srcObject = null;
    view.hidden = true;
  }

  return {
    async start() {
      view.hidden = false;
      frame.hidden = true; // no black box over the keys until a camera answers
      // The camera is asked for first: the model and TensorFlow.js (about 2 MB) load only
      // once there is one. Each way it can fail is said in the player's words.
      if (!window.isSecureContext) {
        // A plain http page from another computer: the browser gives it no camera at all.
        say("camera needs https", "https://" + location.host + location.pathname);
        return false;
      }
      if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
        say("no camera here");
        return false;
      }
      say("camera asking");
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: { facingMode: { ideal: "environment" }, width: { ideal: 640 },
            height: { ideal: 480 } },
        });
      } catch (err) {
        const name = err && err.name;
        say(name === "NotAllowedError" || name === "SecurityError" ? "camera denied"
          : name === "NotReadableError" || name === "AbortError" ? "camera busy"
            : "no camera here");
        return false;
      }
      say("camera loading");
      try {
        await loadModel();
      } catch (err) {
        stopped();
        view.hidden = false;
        say("camera error");
        console.warn("camera: " + err);
        return false;
      }
      frame.hidden = false;
      video.srcObject = stream;
      await video.play().catch(() => {});
      running = true;
      history = [];
      frames = 0;
      unreliable = false; // turned on again: a deck read wrong before is read again
      dropped = null;
      again.hidden = true;
      since = performance.now();
      // Turned on after a trick of the deal: the cards in the boxes may be one already
      // typed (step() says why), so they go first. At a deal's start: its first trick.
      lastEntered = api.entered();
      if (Number(lastEntered.split(".")[1]) > 0) {
        needEmpty = true;
        say("clear the boxes");
      } else {
        say("lay the cards");
      }
      step();
      return true;
    },
    stop: stopped,
    // A key from the player (page.js): true if the camera took it (OK on a proposal).
    // Any other key drops the proposal first, and then types as ever.
    key(name, okName) {
      if (pending && name === okName) {
        confirm();
        return true;
      }
      quietUntil = performance.now() + QUIET_MS;
      if (!pending) return false;
      dropped = { codes: pending.codes, winner: pending.winner, at: api.entered() };
      withdraw();
      needEmpty = true; // the player types this trick: the camera waits for the next one
      return false;
    },
    tapPanel() {
      const had = !!pending;
      if (had) confirm();
      return had;
    },
    info() {
      return { pending: pending && pending.codes, needEmpty, unreliable, shown,
        timings: timings.slice(),
        proposals: proposedAt.slice(), note: note.textContent, frames,
        fps: frames / Math.max(1e-3, (performance.now() - since) / 1000) };
    },
  };
}
