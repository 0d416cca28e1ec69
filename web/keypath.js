// One key's path on the page, after the player's touch or keyboard (keybind.js) or the
// camera (cammode.js) gave it to the firmware: the key's one call into Python answers
// everything the page needs after it (webmain.py after(): the panel changed, an export
// asked for, the UI's language, the digits that pick a list's items), as JSON. Then the
// key's frame (frames.js), the export (downloads.js), the texts (texts.js), the keys'
// faces, and the club's turn once the key's writes are on disk (clubpage.js).
import { soon } from "./clubpage.js";
import { download } from "./downloads.js";
import { draw } from "./frames.js";
import { fail, language, setTexts } from "./texts.js";

const keypad = document.getElementById("keypad");
const layouts = document.querySelectorAll(".keys");
let picks = 0; // keypad digits that pick a list's items now (labelKeys)
let kind = "scoreboard"; // the kind of screen whose faces the keys show (labelKeys)

// One or more keys given to the firmware by act(), one call into Python that answers as
// webmain.key() does (null: no key of this layout, nothing done). since: when the key came
// (performance.now() or an event's timeStamp). False if the firmware failed or took no key.
export function keyed(since, act) {
  let after;
  try {
    const answer = act();
    if (!answer) return false;
    after = JSON.parse(answer);
  } catch (err) {
    fail(err);
    return false;
  }
  if (after.changed) draw(since);
  follow(after);
  soon();
  return true;
}

// What the firmware asked of the page with a key. An export chosen in the device's history
// list (ui/info.py) downloads as the CSV and JSON links do; a new language in its settings
// turns the page's texts too.
function follow(after) {
  try {
    if (after.wanted) download(after.wanted);
    if (after.lang !== language()) setTexts(after.lang);
    labelKeys(after.picks, after.keys);
  } catch (err) {
    fail(err);
  }
}

// Each key says what it does on the screen shown (issue 47): every key has a face per kind
// of screen (tools/web.py KINDS: the scoreboard, a list, the points or the name being
// typed), and style.css shows the one of the kind the firmware shows now (webmain.py
// _kind(): after.keys), on both layouts. On a list the keypad's digits pick items (1-9,
// then 0 for the tenth) while their faces show card ranks ("A" would pick item 1): while
// one is open, the digits that pick an item show its number instead (n of them:
// webmain.py _picks(); style.css hides the rank under it). 0 on the scoreboard, and
// always with the four buttons.
export function labelKeys(n, shown) {
  if (shown !== kind) {
    kind = shown;
    for (const keys of layouts) keys.dataset.kind = kind;
  }
  if (n === picks) return;
  picks = n;
  for (const b of keypad.querySelectorAll("button[data-key]")) {
    const i = "1234567890".indexOf(b.dataset.key);
    if (i >= 0 && i < n) b.dataset.pick = b.dataset.key;
    else delete b.dataset.pick;
  }
  keypad.classList.toggle("picking", n > 0);
}
