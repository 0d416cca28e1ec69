// Teaching camera mode a deck (camera.js; docs/web.md, "Teaching the page a deck"). The
// player lays the deck's cards in the boxes, four at a time, and moves them about in their
// boxes while the page watches them (READS frames); the page then proposes each box's
// card (the whole-card reading's likeliest card not yet taught) and one OK keeps the batch;
// a box it cannot tell is typed: a box's letter (A to D, or the next box), the card's rank
// and suit keys, as for a trick. What is kept for each of the 24 cards: its features, every
// network's last hidden layer (camread.js), averaged over the frames it was seen, in an
// IndexedDB database of its own (one taught deck, for the models that made it). On a taught
// deck a box is sure only when the general rule is sure and the nearest taught card (cosine)
// is the same card, nearer by MARGIN than the next (gate()); two taught cards nearer each
// other than MARGIN cannot be told apart, and are named when teaching ends (camdeck.js).

import { MARGIN, alike, embeddings, keptDeck, unit, unpacked } from "./camdeck.js";

// The same boxes showing cards this many frames in a row: a proposal. Meanwhile the note
// asks the player to move the cards about in their boxes: a card taught from one placement
// is far from itself in another (docs/web.md, "Taught decks measured").
const READS = 12;
const EMPTY_READS = 2; // boxes seen empty this often: the batch was taken away
const RANK_KEYS = { 1: "A", 2: "T", 3: "K", 4: "Q", 5: "J", 6: "9" }; // webcamera.py's keys
const SUIT_KEYS = { 7: "S", 8: "H", 9: "D", 0: "C" };

// api: tr, say (the view's note), cardText, classes (model.json's), started() and ended()
// (camera.js: teaching takes the boxes, and gives them back with cards lying there);
// frame: the view's element the buttons go on.
export function createTeacher(api, frame) {
  const bar = document.createElement("div");
  bar.id = "camera-deck";
  const teachButton = document.createElement("button");
  teachButton.id = "camera-teach";
  teachButton.type = "button";
  const forgetButton = document.createElement("button");
  forgetButton.id = "camera-forget";
  forgetButton.type = "button";
  bar.append(teachButton, forgetButton);
  frame.append(bar);
  let deck = null; // the taught deck: {id, cards, vectors, margin, alike, at}
  let modelId = "";
  let t = null; // teaching: its state
  let last = null; // the last teaching's figures (info())

  function label() {
    teachButton.textContent = api.tr(t ? "stop learning" : "learn deck");
    forgetButton.textContent = api.tr("forget deck");
    forgetButton.hidden = !deck || !!t;
  }

  function sayLay() {
    api.say("teach lay", t.taught.size + "/24");
  }

  function begin() {
    t = { taught: new Map(), run: null, clear: true, emptySeen: 0, typed: [], at: 0, rank: "",
      proposal: null, presses: 1, started: performance.now() };
    api.started();
    label();
    api.say("clear the boxes");
  }

  // kept: a deck was taught (camera.js proposes again on a deck it had stopped for).
  function end(key, extra, kept = false) {
    t = null;
    label();
    api.ended(kept);
    api.say(key, extra);
  }

  // Each box's card: typed, or the likeliest card of the frames seen not yet taught (nor
  // typed in another box); two boxes on one card: the less likely is "?", to be typed.
  function propose() {
    const run = t.run;
    if (!run || run.frames < READS) return;
    const k = api.classes.length;
    const names = run.sums.map((s, b) => {
      if (!s) return null;
      if (t.typed[b]) return t.typed[b];
      let best = -1;
      for (let c = 0; c < k; c++) {
        const code = api.classes[c];
        if (code === "none" || t.taught.has(code) || t.typed.includes(code)) continue;
        if (best < 0 || run.probs[b][c] > run.probs[b][best]) best = c;
      }
      return best < 0 ? "?" : api.classes[best];
    });
    const score = (b) => run.probs[b][api.classes.indexOf(names[b])];
    names.forEach((name, b) => {
      names.forEach((other, o) => {
        if (o !== b && name && name !== "?" && other === name && !t.typed[b]
            && (t.typed[o] || score(o) > score(b) || (score(o) === score(b) && o < b))) {
          names[b] = "?";
        }
      });
    });
    t.proposal = names;
    api.say("teach ok", names.map((s) => (!s ? "·" : s === "?" ? "?" : api.cardText(s)))
      .join(" "));
  }

  // OK: the batch's named boxes are kept, each the mean of its frames' features.
  // With no card proposed, OK ends a Schnapsen deck: its 20 cards, ten to ace, all taught.
  function keep() {
    if (!t.proposal || !t.proposal.some((s) => s && s !== "?")) {
      const twenty = api.classes.filter((c) => c !== "none" && c[0] !== "9");
      if (t.taught.size === 20 && twenty.every((c) => t.taught.has(c))) finish();
      return;
    }
    t.proposal.forEach((name, b) => {
      if (name && name !== "?") t.taught.set(name, unit(t.run.sums[b]));
    });
    Object.assign(t, { run: null, clear: true, emptySeen: 0, typed: [], at: 0, rank: "",
      proposal: null });
    if (t.taught.size === 24) {
      finish();
      return;
    }
    api.say("teach clear", t.taught.size + "/24");
  }

  async function finish() {
    const cards = api.classes.filter((c) => t.taught.has(c));
    const made = { id: modelId, cards, vectors: cards.map((c) => t.taught.get(c)),
      margin: MARGIN, at: Date.now() };
    made.alike = alike(made);
    last = { presses: t.presses, seconds: (performance.now() - t.started) / 1000,
      alike: made.alike, stored: false };
    end(made.alike.length ? "deck taught" : "deck taught apart", made.alike.map((p) => p
      .split(" ").map(api.cardText).join("=")).join(", "), true);
    deck = made;
    label();
    try {
      await keptDeck(made);
      last.stored = true;
    } catch (err) {
      api.say("deck not kept", String(err && err.message ? err.message : err));
    }
  }

  teachButton.addEventListener("click", () => {
    if (t) end("lay the cards");
    else begin();
  });
  forgetButton.addEventListener("click", async () => {
    deck = null;
    label();
    try {
      await keptDeck(null);
      api.say("deck forgotten");
    } catch (err) {
      api.say("deck not kept", String(err && err.message ? err.message : err));
    }
  });
  label();

  return {
    // The taught deck kept for these models (camread.js modelsId()), if any: true when
    // one was kept for other models (it is forgotten: its features mean nothing to them).
    async load(id) {
      modelId = id;
      let kept = null;
      try {
        kept = await keptDeck();
      } catch (err) {
        console.warn("taught deck: " + err);
      }
      deck = kept && kept.id === id ? unpacked(kept) : null;
      label();
      if (!kept || deck) return false;
      await keptDeck(null).catch(() => {});
      return true;
    },
    active: () => !!t,
    deck: () => deck,
    // A frame read while teaching (more: camread.js read()'s probs and hidden, n boxes).
    frame(more, n) {
      const k = api.classes.length;
      const none = api.classes.indexOf("none");
      const present = [];
      for (let b = 0; b < n; b++) {
        let top = 0;
        for (let c = 1; c < k; c++) if (more.probs[b * k + c] > more.probs[b * k + top]) top = c;
        present.push(top !== none);
      }
      if (t.clear) { // the batch kept (or teaching begun): the boxes go empty first
        t.emptySeen = present.some(Boolean) ? 0 : t.emptySeen + 1;
        if (t.emptySeen >= EMPTY_READS) {
          t.clear = false;
          sayLay();
        }
        return present.map(() => "none");
      }
      const pattern = present.join(" ");
      if (!t.run || t.run.pattern !== pattern) { // other boxes filled: seen afresh
        t.run = { pattern, frames: 0, sums: present.map(() => null), probs: [] };
        t.proposal = null;
      }
      const embeds = embeddings(more.hidden, n);
      present.forEach((p, b) => {
        if (!p) return;
        const run = t.run;
        if (!run.sums[b]) [run.sums[b], run.probs[b]] = [new Float32Array(embeds[b].length),
          new Float32Array(k)];
        for (let j = 0; j < embeds[b].length; j++) run.sums[b][j] += embeds[b][j];
        for (let c = 0; c < k; c++) run.probs[b][c] += more.probs[b * k + c];
      });
      t.run.frames++;
      if (!present.some(Boolean)) sayLay();
      else if (t.run.frames < READS) api.say("teach move", t.run.frames + "/" + READS);
      else propose();
      return present.map((p, b) => (!p ? "none" : t.proposal ? t.proposal[b] || "none" : "?"));
    },
    // A key while teaching: all are the teaching's. OK keeps the batch; A to D choose a
    // box; a rank key and a suit key name its card; * clears what was typed.
    key(name, okName) {
      t.presses++;
      if (name === okName) {
        keep();
        return true;
      }
      if ("ABCD".includes(name) && name.length === 1) {
        [t.at, t.rank] = ["ABCD".indexOf(name), ""];
      } else if (RANK_KEYS[name]) {
        t.rank = RANK_KEYS[name];
      } else if (SUIT_KEYS[name] !== undefined && t.rank) {
        const code = t.rank + SUIT_KEYS[name];
        t.rank = "";
        if (t.taught.has(code)) {
          api.say("teach twice", api.cardText(code));
          return true;
        }
        t.typed = t.typed.map((c) => (c === code ? null : c));
        t.typed[t.at] = code;
        t.at = (t.at + 1) % 4;
      } else if (name === "*") {
        [t.typed, t.at, t.rank] = [[], 0, ""];
      }
      propose();
      return true;
    },
    stop() {
      if (t) end("lay the cards");
    },
    info: () => ({ active: !!t, taught: t ? t.taught.size : deck ? deck.cards.length : 0,
      presses: t ? t.presses : null, proposal: t && t.proposal, last, deck: deck && { cards: deck.cards.length,
        d: deck.vectors[0].length, margin: deck.margin, alike: deck.alike, id: deck.id } }),
  };
}
