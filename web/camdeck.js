// A deck taught to camera mode (camteach.js teaches it; docs/web.md, "Teaching the page a
// deck"): the taught rule over the general rule's names, the pairs of cards it cannot tell
// apart, and the deck kept in an IndexedDB database of its own (one deck, with the
// fingerprint of the models that made its features: camread.js modelsId()).

export const MARGIN = 0.02; // of cosine: the nearest taught card before the second
const DB = "s66.deck";
const STORE = "deck";
const KEY = "taught";

// Each box's features (n of them) from the networks' hidden layers (parts: n x d each,
// camread.js read()'s more.hidden): each part scaled to length one, side by side, and the
// whole to length one, so the cosine of two boxes is the mean of the networks' cosines.
export function embeddings(parts, n) {
  const out = [];
  for (let b = 0; b < n; b++) {
    const v = new Float32Array(parts.reduce((s, p) => s + p.length / n, 0));
    let at = 0;
    for (const p of parts) {
      const k = p.length / n;
      let sq = 0;
      for (let j = 0; j < k; j++) sq += p[b * k + j] ** 2;
      const scale = 1 / (Math.sqrt(sq * parts.length) || 1);
      for (let j = 0; j < k; j++) v[at + j] = p[b * k + j] * scale;
      at += k;
    }
    out.push(v);
  }
  return out;
}

function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

export function unit(v) {
  const n = Math.sqrt(dot(v, v)) || 1;
  return v.map((x) => x / n);
}

// The taught deck's nearest card to a box's features: [card, its cosine, the second's].
export function nearest(embed, deck) {
  let [best, first, second] = [-1, -2, -2];
  deck.vectors.forEach((v, c) => {
    const s = dot(v, embed);
    if (s > first) [best, first, second] = [c, s, first];
    else if (s > second) second = s;
  });
  return [deck.cards[best], first, second];
}

// The taught rule over the general rule's names (camread.js sureNames): a card stays only
// when the deck's nearest card is the same, nearer by the deck's margin than the second;
// else "?". "?", "none" and a played card ("!") stay as they are. Stricter, never looser.
export function gate(names, embeds, deck) {
  return names.map((name, i) => {
    if (!deck || !deck.cards.includes(name)) return name;
    const [card, first, second] = nearest(embeds[i], deck);
    return card === name && first - second >= deck.margin ? name : "?";
  });
}

// The pairs of taught cards nearer each other than the margin ("KD QD"): no box of one is
// told from the other, so neither is proposed.
export function alike(deck) {
  const out = [];
  for (let a = 0; a < deck.cards.length; a++) {
    for (let b = a + 1; b < deck.cards.length; b++) {
      if (1 - dot(deck.vectors[a], deck.vectors[b]) < deck.margin) {
        out.push(deck.cards[a] + " " + deck.cards[b]);
      }
    }
  }
  return out;
}

async function stored(mode, act) {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE);
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  try {
    const tx = db.transaction(STORE, mode, { durability: "strict" });
    const got = act(tx.objectStore(STORE));
    await new Promise((ok, no) => {
      tx.oncomplete = ok;
      tx.onabort = () => no(tx.error || new Error("the taught deck was not written"));
    });
    return got ? got.result : undefined; // complete: its request has its result
  } finally {
    db.close();
  }
}

// The taught deck as kept: vectors one Float32Array, the cards' in turn.
function packed(deck) {
  const d = deck.vectors[0].length;
  const all = new Float32Array(d * deck.cards.length);
  deck.vectors.forEach((v, i) => all.set(v, i * d));
  return { ...deck, vectors: all, d };
}

export function unpacked(kept) {
  const vectors = kept.cards.map((_c, i) => kept.vectors.subarray(i * kept.d, (i + 1) * kept.d));
  return { ...kept, vectors };
}

// The kept deck (undefined if none), kept anew (deck), or dropped (null).
export function keptDeck(deck) {
  if (deck === undefined) return stored("readonly", (os) => os.get(KEY));
  return stored("readwrite", (os) => {
    if (deck) os.put(packed(deck), KEY);
    else os.delete(KEY);
  });
}
