// The club night on the page: the Club form, and the club link's turns (webclub.py) with
// their line under the panel. The settings (the broker's WebSocket URL, the table id and
// its password) are kept in localStorage by clubcfg.js; the page loads again to take them
// up (and their policy).
import { draw } from "./frames.js";
import { fw } from "./runtime.js";
import { fail, sayLine, tr } from "./texts.js";

let club = globalThis.s66clubcfg.load(); // the club settings (clubcfg.js), or null: none
let due = false; // a turn is asked for and not taken yet (soon())

// The settings, or null: none, or no transport (listen()).
export function settings() {
  return club;
}

// npm mqtt comes with clubmqtt.js: club tables only. Not cached and no network: the table
// keeps score without the club. The transport's module, or null.
export function loadTransport() {
  return club ? import("./clubmqtt.js").catch((err) => {
    console.warn("club: " + err);
    return null;
  }) : Promise.resolve(null);
}

// Once the store is open: the transport's news asks for a turn; with none, no club.
export function listen(glue) {
  if (glue) glue.onNews(soon);
  else club = null;
}

// The club link's turn: after a key's frame is on the canvas, when mqtt.js has news, and
// twice a second for its timers (page.js). It never waits for the network. One call into
// Python (webmain.py tick()) answers whether the panel changed and the link's state.
export function tick() {
  due = false;
  if (!fw.web) return;
  try {
    const turn = JSON.parse(fw.web.tick());
    if (turn.changed) draw(null);
    const c = turn.club;
    if (c) {
      const [word, ...why] = c.status.split(":"); // "offline: reason": the word in the language
      sayLine(tr("club") + " " + c.table + ": " + (c.refused
        ? tr("refused") + " (" + c.refused + "): " + tr("check the table id and password")
        : [tr(word)].concat(why).join(":") + ", "
          + (c.pending ? c.pending + " " + tr("waiting for the ack") : tr("all acknowledged"))));
    }
  } catch (err) {
    fail(err);
  }
}

// A turn after the writes made so far are on disk: a result goes out only once it is kept.
export function soon() {
  if (club && !due) {
    due = true;
    fw.store.settled().then(() => setTimeout(tick, 0));
  }
}

// The Club form: opened and closed by its button, filled with the settings kept; saved or
// forgotten, the page loads again.
export function bindClubForm() {
  const form = document.getElementById("club-form");
  const cfg = globalThis.s66clubcfg;
  document.getElementById("club-open").addEventListener("click", () => {
    form.hidden = !form.hidden;
  });
  if (club) {
    form.elements.url.value = club.url;
    form.elements.table.value = club.table;
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const el = form.elements;
    const saved = cfg.save({ url: el.url.value.trim(), table: el.table.value.trim(),
      password: el.password.value || (club ? club.password : "") });
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
