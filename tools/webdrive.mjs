// Drive the browser build in Debian's Chromium with playwright-core: reads one JSON job
// on stdin, runs its steps in order, prints one JSON answer on stdout.
//
//   job:    {"url": "...", "profile": "dir", "chromium": "/usr/bin/chromium",
//            "viewport": [390, 844], "spki": "base64 sha-256" (optional: Chromium trusts
//            the HTTPS server certificate whose public key has that hash, as a phone that
//            installed its authority does), "steps": [{"do": "open"}, ...],
//            "credentials": {"username": "...", "password": "..."} (optional, HTTP Basic),
//            "args": [more Chromium flags], "permissions": ["camera"] (granted to the page's
//            origin)}
//   answer: {"results": [one per step], "errors": [console errors and page errors],
//            "foreign": [requests to another origin], "log": [every console line]}
//
// Steps: open, reload (each waits for the first frame), click KEYS (the on-screen keys
// with the mouse, a long press held as a finger would), tap KEYS (the same with real
// touch events, Chromium's Input.dispatchTouchEvent, as a phone's screen gives them,
// each finger on the glass for "hold" ms, 0 unless given; needs "touch": true), type
// KEYS (the keyboard), all with the terminal simulator's characters (tools/sim.py);
// frame (the canvas as 64 rows of 128 "0"/"1", read back from its pixels), state (the
// match, sixtysix/snapshot.py), switch (the layout button), offline ON, worker (wait
// until the service worker controls the page), export KIND (the downloaded file),
// download KEYS (types the keys, answers the file they download), text SELECTOR (the
// text of each element that matches), screenshot PATH (once the keys so far are drawn, as
// frame; "still": true, and two pictures in a row alike), eval JS, wait MS, throttle RATE
// (the CPU slowed down RATE times, DevTools' CPU throttling), tab (a second
// tab of the page, which the steps after act on; tab N: back to tab N); touch PATH (writes
// the file) and await PATH (waits up to 60 s for it): a test in another process (a broker killed and started again)
// keeps step with the page through them. The job's "init", if any, is a script run in
// the page before its own (a test's instruments).
// tools/browser.py runs it; host_tests/test_web.py and tools/web_figures.py write the jobs.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

const job = JSON.parse(readFileSync(0, "utf8"));
const origin = new URL(job.url).origin;
const errors = [];
const foreign = [];
const results = [];
const KEY_NAMES = { "\r": "Enter", "\n": "Enter", "\x7f": "Backspace", "\x08": "Backspace" };

const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
if (job.spki) args.push("--ignore-certificate-errors-spki-list=" + job.spki);
// No name lookups leave the machine: Chromium asks the system's resolver for its own
// services (accounts, autofill) even with background networking off. A test's own rules
// (a name mapped to 127.0.0.1) come first.
const NO_DNS = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost";
const RULES = "--host-resolver-rules=";
const own = (job.args || []).find((f) => f.startsWith(RULES));
args.push(own ? own + ", " + NO_DNS : RULES + NO_DNS);
for (const flag of job.args || []) if (!flag.startsWith(RULES)) args.push(flag); // a test's
const context = await chromium.launchPersistentContext(job.profile, {
  executablePath: job.chromium || "/usr/bin/chromium",
  args,
  viewport: { width: job.viewport[0], height: job.viewport[1] },
  deviceScaleFactor: job.scale || 1,
  hasTouch: !!job.touch,
  acceptDownloads: true,
  httpCredentials: job.credentials || undefined, // {username, password}: HTTP Basic
});
if (job.init) await context.addInitScript(job.init);
if (job.permissions && job.permissions.length) await context.grantPermissions(job.permissions, { origin });
context.on("request", (r) => {
  const u = r.url();
  if (!u.startsWith(origin + "/") && !u.startsWith("blob:") && !u.startsWith("data:")) foreign.push(u);
});
const log = []; // every console line (the firmware's print() goes there)
function watch(p) {
  p.on("console", (m) => { log.push(m.text()); if (m.type() === "error") errors.push(m.text()); });
  p.on("pageerror", (e) => errors.push(String(e)));
  return p;
}
const tabs = [watch(context.pages()[0] || await context.newPage())];
let page = tabs[0]; // the tab the steps act on

async function ready() {
  await page.waitForFunction(() => window.s66 !== undefined);
  await page.evaluate(() => window.s66.ready);
}

async function clickKeys(keys) {
  const longMs = await page.evaluate(() => window.s66.longMs());
  for (const ch of keys) {
    const [name, long] = await page.evaluate((c) => window.s66.keyFor(c), ch);
    if (name === null) throw new Error("not a key in this layout: " + JSON.stringify(ch));
    const button = page.locator(`.keys:not([hidden]) button[data-key="${name}"]`);
    if (!long) {
      await button.click();
      continue;
    }
    const box = await button.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForTimeout(longMs + 150);
    await page.mouse.up();
  }
}

// Touches as a phone's screen sends them, through the DevTools protocol: a touch start at
// the key's middle and its end (held LONG_MS and a little for a long press). settle, gap:
// as typeKeys's, before each touch. A touch that starts within a millisecond of the last
// one's end (no finger does) waits in Chromium for that end's frame.
async function tapKeys(keys, step) {
  const longMs = await page.evaluate(() => window.s66.longMs());
  const cdp = await context.newCDPSession(page);
  for (const ch of keys) {
    await keyTurn(step.settle, step.gap);
    const [name, long] = await page.evaluate((c) => window.s66.keyFor(c), ch);
    if (name === null) throw new Error("not a key in this layout: " + JSON.stringify(ch));
    const box = await page.locator(`.keys:not([hidden]) button[data-key="${name}"]`).boundingBox();
    const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [at] });
    await page.waitForTimeout(long ? longMs + 150 : (step.hold || 0));
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  }
  await cdp.detach();
}

// settle: each key waits for the frame of the one before (a player pressing one key at a
// time), not typed ahead of the disk as fast as the driver can; gap: and then that many ms.
async function keyTurn(settle, gap) {
  if (settle) await page.evaluate(() => window.s66 && window.s66.idle && window.s66.idle());
  if (gap) await page.waitForTimeout(gap);
}

async function typeKeys(keys, settle, gap) {
  for (const ch of keys) {
    await keyTurn(settle, gap);
    await page.keyboard.press(KEY_NAMES[ch] || ch);
  }
}

// The page as it stays: pictures taken until two in a row are the same (a loaded machine
// can photograph a page between two paints), for at most 20 s; then the last one.
async function stillPicture() {
  let last = await page.screenshot();
  const until = Date.now() + 20000;
  while (Date.now() < until) {
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok())));
    const next = await page.screenshot();
    if (next.equals(last)) return next;
    last = next;
  }
  return last;
}

function frame() {
  return page.evaluate(() => {
    const c = document.getElementById("panel");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const rows = [];
    for (let y = 0; y < c.height; y++) {
      let row = "";
      for (let x = 0; x < c.width; x++) row += d[(y * c.width + x) * 4 + 1] > 127 ? "1" : "0";
      rows.push(row);
    }
    return rows;
  });
}

async function downloaded(act) {
  const [download] = await Promise.all([page.waitForEvent("download"), act()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, "utf8") };
}

const exportFile = (kind) => downloaded(() => page.click("#export-" + kind));

let failed = null;
try {
  for (const step of job.steps) {
    let out = null;
    switch (step.do) {
      case "open": await page.goto(job.url); await ready(); break;
      case "goto": await page.goto(step.url || job.url); break; // not waiting for the app
      case "reload": await page.reload(); await ready(); break;
      case "click": await clickKeys(step.keys); break;
      case "tap": await tapKeys(step.keys, step); break;
      case "type": await typeKeys(step.keys, step.settle, step.gap || 0); break;
      case "frame": // the frame of the keys so far: drawn once their writes are on disk
        await page.evaluate(() => window.s66 && window.s66.idle && window.s66.idle());
        out = await frame();
        break;
      case "state": out = await page.evaluate(() => window.s66.state()); break;
      case "switch": await page.click("#switch"); break;
      case "offline": await context.setOffline(!!step.on); break;
      case "worker":
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
        break;
      case "export": out = await exportFile(step.kind); break;
      case "download": out = await downloaded(() => typeKeys(step.keys)); break;
      case "text":
        out = await page.$$eval(step.selector, (els) => els.map((el) => el.textContent));
        break;
      case "screenshot": // as "frame": once the keys so far are drawn (and the page still)
        await page.evaluate(() => window.s66 && window.s66.idle && window.s66.idle());
        if (step.still) writeFileSync(step.path, await stillPicture());
        else await page.screenshot({ path: step.path });
        break;
      case "eval": out = await page.evaluate(step.js); break;
      case "tab": // another tab of the page (opened and booted) or tab number N
        if (step.n === undefined) {
          page = watch(await context.newPage());
          tabs.push(page);
          await page.goto(job.url);
          await ready();
        } else {
          page = tabs[step.n];
          await page.bringToFront();
        }
        break;
      case "wait": await page.waitForTimeout(step.ms); break;
      case "throttle": { // the CPU slowed down RATE times (DevTools' CPU throttling)
        const cdp = await context.newCDPSession(page);
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: step.rate });
        break;
      }
      case "touch": writeFileSync(step.path, ""); break;
      case "await": {
        const until = Date.now() + 60000;
        while (!existsSync(step.path)) {
          if (Date.now() > until) throw new Error("no " + step.path + " after 60 s");
          await page.waitForTimeout(50);
        }
        break;
      }
      default: throw new Error("unknown step " + JSON.stringify(step));
    }
    results.push(out);
  }
} catch (e) {
  failed = String(e && e.stack ? e.stack : e);
} finally {
  await context.close();
}
process.stdout.write(JSON.stringify({ results, errors, foreign, failed, log }) + "\n");
