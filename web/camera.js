// Camera mode: the phone's camera reads the cards of a trick laid face up in their boxes,
// the trick is typed onto the panel as a player would type it, and one tap on OK (#, or on
// the panel) enters it through the page's own key path. Loaded by page.js only when the
// player turns camera mode on, with TensorFlow.js and the models (camera/): a first visit
// never fetches them. Frames stay in this page: nothing is sent or stored. The boxes are
// read by camread.js, the view drawn by camview.js.
//
// The boxes: one per card of a trick, in play order from the left, laid out by the rule
// of tools/cardcam/scenes.py boxes(). Each box, with the margin the model reads around it
// (model.json "margin", scenes.py region()), is read as one of the 24 cards or "none" by the
// whole-card networks and, from its two corner indices, by the index reader; a box is sure
// when both are sure of the same card (camread.js sureNames), in READS frames in a row.
// A trick is proposed only when every box is sure of a card and the core takes the trick
// (web/webcamera.py); then the keys that type it go to the panel but its last card, which
// OK adds. After a trick is entered, the boxes must be seen empty before the next one is
// proposed. A box read as a card the deal has played is not proposed. A reading the core
// refuses for its cards, or a proposal the player types another trick over, says the deck
// is not read reliably: nothing more is proposed until camera mode is turned on again or
// the player asks to try again. A deck taught (camteach.js) adds its own rule: a box is
// sure only when the deck's nearest taught card is the general rule's card too.

import { boxes, classify, cornerRects, createReader, indexReading, loadModels, modelsId,
  readCorners, regions, sureNames } from "./camread.js";
import { alike, embeddings, gate, nearest } from "./camdeck.js";
import { createTeacher } from "./camteach.js";
import { askCamera, cardText, createView } from "./camview.js";

const READS = 3; // the same sure reading in this many frames in a row
const EMPTY_READS = 2; // boxes seen empty this often: the cards were taken away
const PERIOD_MS = 100; // one frame analysed at most every 100 ms
// A frame's reading holds the page's one thread (a tenth of a second and more on a slow
// phone): while the player types, keys first. A key the camera does not take (a trick
// typed, trump, a marriage, a menu) stops the reading until no key came for this long.
const QUIET_MS = 1500;

// The reading's parts, for the tests and the tools' comparisons.
export { classify, readCorners, indexReading, regions, cornerRects, sureNames, gate, alike };

// api (page.js): typeKeys(chars) types keypad characters through the page's key path as the
// camera's own; trickKeys(codes), drop(), players(), gone(), played(), entered(),
// lastTrick() call web/webcamera.py;
// tr(key) is the page's texts; redraw() paints the panel. before: the element the view goes
// above.
export function createCamera(api, before) {
  const { view, video, note, frame, again, say, drawOverlay } = createView(api.tr, before, () => {
    const open = document.getElementById("camera-open");
    if (running && open) open.click(); // as the player's own camera button: page.js turns it off
    else stopped();
  });
  const readFrame = createReader();
  let meta = null; // model.json, once loaded
  // Teaching takes the boxes; it ends with the last batch lying there, and what it ended
  // with is said until cards are laid. A deck taught is read again if it was not reliably.
  const taught = { tr: api.tr, say, cardText, classes: [],
    started: () => { withdraw(); [history, needEmpty] = [[], false]; },
    ended: (kept) => {
      [history, needEmpty, keepNote] = [[], true, true];
      if (kept) [unreliable, again.hidden] = [false, true];
    } };
  const teach = createTeacher(taught, frame);

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
  let stale = false; // a taught deck was kept for other models (and forgotten)
  let keepNote = false;
  let near = []; // per box, a taught deck's nearest card, its cosine and the second's

  function read(n, gone, played, more) {
    return readFrame(video, n, new Set(gone.split(" ")), new Set(played.split(" ")), more);
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

  // A frame's reading (names: each box's) in play: proposals, and what the note says.
  function react(names, started) {
    history.push(names);
    if (history.length > 10) history.shift();
    shown = names;
    const empty = names.every((s) => s === "none");
    emptySeen = empty ? emptySeen + 1 : 0;
    const seen = names.find((s) => s[0] === "!");
    if (!empty) keepNote = false;
    if (unreliable) {
      say("deck unreliable");
    } else if (needEmpty) {
      if (emptySeen >= EMPTY_READS) {
        needEmpty = false;
        if (!keepNote) say("lay the cards");
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
  }

  async function step() {
    timer = 0;
    if (!running) return;
    const started = performance.now();
    const n = teach.active() ? 4 : api.players() || 2; // no match yet: two boxes to aim with
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
        const more = teach.active() || teach.deck() ? {} : null; // features too
        const names = await read(n, api.gone(), api.played(), more);
        timings.push(performance.now() - started);
        frames++;
        if (timings.length > 500) timings.shift();
        if (teach.active()) shown = teach.frame(more, n);
        else if (!more) react(names, started);
        else {
          const embeds = embeddings(more.hidden, n);
          near = embeds.map((e) => nearest(e, teach.deck()));
          react(gate(names, embeds, teach.deck()), started);
        }
        drawOverlay(boxes(n, video.videoWidth, video.videoHeight, meta.input[2],
          meta.input[1]), shown);
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
    teach.stop();
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
      stream = await askCamera(say);
      if (!stream) return false;
      say("camera loading");
      try {
        meta = (await loadModels()).meta;
        taught.classes = meta.classes;
        stale = await teach.load(modelsId());
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
      keepNote = stale; // said until cards are laid
      if (stale) {
        needEmpty = true;
        say("deck other models");
      } else if (Number(lastEntered.split(".")[1]) > 0) {
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
      if (teach.active()) return teach.key(name, okName);
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
      if (teach.active()) return teach.key("OK", "OK");
      const had = !!pending;
      if (had) confirm();
      return had;
    },
    info() {
      return { pending: pending && pending.codes, needEmpty, unreliable, shown,
        timings: timings.slice(),
        teach: teach.info(), near, proposals: proposedAt.slice(), note: note.textContent, frames,
        fps: frames / Math.max(1e-3, (performance.now() - since) / 1000) };
    },
  };
}
