// Camera mode's reading of the boxes (camera.js): where each box lies in a frame, the two
// networks that read it (TensorFlow.js, loaded only when camera mode is on) and the rule
// that makes a box sure. tools/camera_figures.py and tools/cardcam/measure_designs.py read
// boxes by the same rule (docs/web.md, "Camera").
//
// The whole-card networks (camera/cards.bin, model.json) read each box with its margin,
// shrunk to 112 x 168 RGB, as one of the 24 cards or "none". The index reader
// (camera/index.bin, index.json) reads the box's two corner indices, rank glyph and suit
// pip: the top-left corner of the box's region and the bottom-right one turned half round,
// each cut from the frame and shrunk to 40 x 60 grey levels. A box is sure only when the
// whole-card reading is sure, the index reader's likeliest card is the same, and its
// probability reaches the joint rule's threshold (index.json's agree: set where both
// readers named the same wrong card on held-out designs).

let tf = null;
let models = null; // the whole-card members (model.json page.members), their outputs averaged
let indexModel = null;
// The same networks answering their last hidden layer too (taught decks, camteach.js): built
// over the loaded layers, so the weights are not copied.
let hiddenModels = null;
let hiddenIndex = null;
let meta = null;
let indexMeta = null;
let pixels = null; // classify()'s input, kept from frame to frame
let cornerPixels = null; // readCorners()'s

function bytes(url) {
  return fetch(url).then((r) => {
    if (!r.ok) throw new Error(url.split("/").pop() + ": HTTP " + r.status);
    return r.arrayBuffer();
  });
}

// The two networks and their descriptions: {meta, indexMeta} once loaded.
export async function loadModels() {
  if (models) return { meta, indexMeta };
  const base = new URL("camera/", document.baseURI).href;
  const [weights, info, indexWeights, indexInfo] = await Promise.all([
    bytes(base + "cards.bin"),
    fetch(base + "model.json").then((r) => r.json()),
    bytes(base + "index.bin"),
    fetch(base + "index.json").then((r) => r.json()),
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
  const page = indexInfo.page;
  if (indexWeights.byteLength !== page.bytes) {
    throw new Error("index.bin: " + indexWeights.byteLength + " bytes");
  }
  indexModel = await tf.loadLayersModel(tf.io.fromMemory({
    modelTopology: page.topology, weightSpecs: page.weights, weightData: indexWeights,
  }));
  const withHidden = (m) => tf.model({ inputs: m.inputs,
    outputs: [m.layers[m.layers.length - 2].output, m.outputs[0]] });
  hiddenModels = loaded.map(withHidden);
  hiddenIndex = withHidden(indexModel);
  [meta, indexMeta] = [info, indexInfo];
  models = loaded;
  return { meta, indexMeta };
}

export function boxes(n, width, height, inW, inH) {
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

// The index reader's two corners of a region (scenes.py corner_rects()): [x0, y0, x1, y1]
// of the top left and of the bottom right, `corner` of its width and height each.
export function cornerRects([x, y, w, h], corner) {
  const [cw, ch] = [corner * w, corner * h];
  return [[x, y, x + cw, y + ch], [x + w - cw, y + h - ch, x + w, y + h]]
    .map((r) => r.map(Math.round));
}

// The whole-card networks' probabilities (n x classes, flat) for n boxes of RGBA pixels
// stacked from the top, each the model's input size: N x H x W x 3, scaled as it was
// trained, (x - 0.5) * 4, each inside a border of zeros (model.json page.border: the first
// convolution's padding, written here rather than copied by a layer;
// tools/cardcam/layers.py). Each member reads each box twice, as it is and turned half
// round (a card shows its index in both corners), and all the readings are averaged.
// hidden (an array): each member's last hidden layer is pushed to it, n x d, a box's two
// ways up averaged (the same whichever way up the card lies).
export async function classify(px, n, hidden = null) {
  await loadModels();
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
  for (const [i, model] of models.entries()) {
    let output = hidden ? hiddenModels[i].predictOnBatch(batch) : model.predictOnBatch(batch);
    if (hidden) {
      hidden.push(halves(await output[0].data(), n));
      output[0].dispose();
      output = output[1];
    }
    const both = await output.data();
    output.dispose();
    const k = both.length / (2 * n);
    if (!probs) probs = new Float32Array(n * k);
    for (let i = 0; i < n * k; i++) probs[i] += (both[i] + both[n * k + i]) / (2 * models.length);
  }
  batch.dispose();
  return probs;
}

// Rows i and n + i of a 2n-row output averaged: a box and its other way up.
function halves(both, n) {
  const d = both.length / (2 * n);
  const out = new Float32Array(n * d);
  for (let i = 0; i < n * d; i++) out[i] = (both[i] + both[n * d + i]) / 2;
  return out;
}

// The index reader's probabilities for each corner (2n x classes, flat): px holds the 2n
// corners as RGBA, each IDX_W x IDX_H, stacked from the top, a box's top left then its
// bottom right as the frame shows it (turned half round here). Grey levels as PIL's "L"
// (ITU-R 601, its integer rounding), each corner to its own mean 0 and spread 1, inside a
// border of zeros (tools/cardcam/train_index.py normalise()). hidden: as classify()'s, a
// box's two corners averaged.
export async function readCorners(px, n, hidden = null) {
  await loadModels();
  const [, inH, inW] = indexMeta.input;
  const e = indexMeta.page.border || 0;
  const [h, w] = [inH + 2 * e, inW + 2 * e];
  const size = 2 * n * h * w;
  if (!cornerPixels || cornerPixels.length !== size) cornerPixels = new Float32Array(size);
  const data = cornerPixels;
  const grey = new Float32Array(inH * inW);
  for (let b = 0; b < 2 * n; b++) {
    let sum = 0;
    for (let i = 0, s = b * inH * inW * 4; i < inH * inW; i++, s += 4) {
      const g = ((px[s] * 19595 + px[s + 1] * 38470 + px[s + 2] * 7471 + 0x8000) >> 16) / 255;
      grey[i] = g;
      sum += g;
    }
    const mean = sum / (inH * inW);
    let sq = 0;
    for (let i = 0; i < inH * inW; i++) sq += (grey[i] - mean) ** 2;
    const scale = 1 / (Math.sqrt(sq / (inH * inW)) + 0.02);
    const turned = b % 2 === 1;
    for (let y = 0; y < inH; y++) {
      for (let x = 0; x < inW; x++) {
        const [ty, tx] = turned ? [inH - 1 - y, inW - 1 - x] : [y, x];
        data[(b * h + ty + e) * w + tx + e] = (grey[y * inW + x] - mean) * scale;
      }
    }
  }
  const batch = tf.tensor4d(data, [2 * n, h, w, 1]);
  let output = (hidden ? hiddenIndex : indexModel).predictOnBatch(batch);
  if (hidden) {
    const each = await output[0].data();
    output[0].dispose();
    output = output[1];
    const d = each.length / (2 * n);
    const box = new Float32Array(n * d);
    for (let b = 0; b < n; b++) {
      for (let j = 0; j < d; j++) box[b * d + j] = (each[2 * b * d + j] + each[(2 * b + 1) * d + j]) / 2;
    }
    hidden.push(box);
  }
  const probs = await output.data();
  output.dispose();
  batch.dispose();
  return probs;
}

// A box's index reading from its two corners (tools/cardcam/sureness.py index_reading()):
// a corner whose likeliest class is "none" shows no index and is left out; two that show
// one are each evidence of their own, so their probabilities are multiplied class by class
// (each at least FLOOR) and scaled to sum to one (two that disagree leave neither card
// sure); one: that corner's; neither: both averaged.
const FLOOR = 1e-6;

export function indexReading(corners, n, k, none) {
  const out = new Float32Array(n * k);
  for (let b = 0; b < n; b++) {
    const shows = [0, 1].map((j) => {
      let best = 0;
      const at = (2 * b + j) * k;
      for (let c = 1; c < k; c++) if (corners[at + c] > corners[at + best]) best = c;
      return best !== none;
    });
    const count = shows[0] + shows[1];
    const a = 2 * b * k;
    if (count === 2) {
      let sum = 0;
      for (let c = 0; c < k; c++) {
        const p = Math.max(corners[a + c], FLOOR) * Math.max(corners[a + k + c], FLOOR);
        out[b * k + c] = p;
        sum += p;
      }
      for (let c = 0; c < k; c++) out[b * k + c] /= sum;
      continue;
    }
    for (let j = 0; j < 2; j++) {
      const wt = count ? (shows[j] ? 1 : 0) : 0.5;
      for (let c = 0; c < k; c++) out[b * k + c] += wt * corners[a + j * k + c];
    }
  }
  return out;
}

// Each box's reading: its likeliest class among those the deal can still show (gone: the
// cards webcamera.py says no box can hold now), with the probabilities of the others
// dropped and the rest scaled to sum to one, or "?" below that class's threshold. played
// (webcamera.py played(), in gone too): a box whose likeliest card, the others gone left
// out, is one of them reads "!" and that card. index ({probs: indexReading(), thresholds:
// index.json's agree}): a card so read stays only when the index reading's likeliest card
// is the same, at the joint rule's threshold; else "?" (sureness.py agree()).
// tools/camera_figures.py reads the same way.
export function sureNames(probs, n, classes, gone, thresholds, played = new Set(), index = null) {
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
    let name = best >= 0 && kept > 0 && probs[i * k + best] / kept >= thresholds[best]
      ? classes[best] : "?";
    if (index && name !== "?" && name !== "none") {
      let top = 0;
      for (let c = 1; c < k; c++) if (index.probs[i * k + c] > index.probs[i * k + top]) top = c;
      if (classes[top] !== name || index.probs[i * k + top] < index.thresholds[top]) name = "?";
    }
    names.push(name);
  }
  return names;
}

// The models' fingerprint: a taught deck's features hold only for the networks that made
// them (camteach.js).
export function modelsId() {
  return meta.page.sha256 + " " + indexMeta.page.sha256;
}

// A frame's reading (camera.js): the video's n boxes, each read by both networks and the
// rule above. gone, played: sets of card codes (webcamera.py gone(), played()). more (an
// object) asks for more: its probs (the whole-card reading, n x classes) and hidden (each
// network's last hidden layer, n x d: classify(), readCorners()) are set.
export function createReader() {
  const crop = document.createElement("canvas");
  const cropCtx = crop.getContext("2d", { willReadFrequently: true });
  const corners = document.createElement("canvas");
  const cornersCtx = corners.getContext("2d", { willReadFrequently: true });
  function size(canvas, w, h) { // a canvas given its size again is made again
    if (canvas.width !== w || canvas.height !== h) [canvas.width, canvas.height] = [w, h];
  }
  return async function read(video, n, gone, played, more = null) {
    await loadModels();
    const [w, h] = [video.videoWidth, video.videoHeight];
    const [, inH, inW] = meta.input;
    const [, ixH, ixW] = indexMeta.input;
    size(crop, inW, inH * n);
    size(corners, ixW, ixH * 2 * n);
    for (const g of [cropCtx, cornersCtx]) {
      g.imageSmoothingEnabled = true;
      g.imageSmoothingQuality = "high";
    }
    regions(n, w, h, inW, inH, meta.margin || 0).forEach((r, i) => {
      const [sx, sy] = [Math.round(r[0]), Math.round(r[1])];
      cropCtx.drawImage(video, sx, sy, Math.round(r[0] + r[2]) - sx,
        Math.round(r[1] + r[3]) - sy, 0, i * inH, inW, inH);
      cornerRects(r, indexMeta.corner).forEach(([x0, y0, x1, y1], j) => {
        cornersCtx.drawImage(video, x0, y0, x1 - x0, y1 - y0, 0, (2 * i + j) * ixH, ixW, ixH);
      });
    });
    const hidden = more ? [] : null;
    const probs = await classify(cropCtx.getImageData(0, 0, inW, inH * n).data, n, hidden);
    const k = meta.classes.length;
    const each = await readCorners(cornersCtx.getImageData(0, 0, ixW, ixH * 2 * n).data, n,
      hidden);
    if (more) [more.probs, more.hidden] = [probs, hidden];
    const index = { probs: indexReading(each, n, k, meta.classes.indexOf("none")),
      thresholds: indexMeta.agree.thresholds };
    return sureNames(probs, n, meta.classes, gone, meta.thresholds, played, index);
  };
}
