// Kill the browser under the page and open it again: the durable storage test's driver.
// Reads one JSON job on stdin, prints one JSON answer on stdout (tools/web_kills.py).
//
//   job: {"chromium": path, "url": URL, "profile": dir, "reference": dir, "args": [...],
//         "keys": "...", "kills": [{"at": i, "delay": ms}, ...] (at ascending),
//         "recent": 200, "flag": file or null, "until": JS or null,
//         "referenceUrl": the reference run's page (default url), "readyWhen": JS or null}
//
// Debian's Chromium is started here as its own process group, with its own profile folder
// and a DevTools port; playwright-core connects to it over CDP. The reference run types
// every key in a profile of its own and records the position (the match and the trick
// being typed, window.s66.position()) after each: positions[i] is where the page stands
// after i keys. Then, for each kill: launch on the kill profile, open the page once, find
// where it stands, type on up to key `at`, waiting for each key's frame; press key `at`
// down, wait `delay` ms without waiting for its frame, and SIGKILL the whole process group. The
// next launch checks the page it reopens against the frames drawn before that kill:
//   ok           it stands where the last frame drawn at least `recent` ms before the kill
//                stood, or later (up to the key pressed when killed)
//   lostRecent   it stands before the last frame drawn at all (goal: never)
// A last launch checks the last kill; then, with "flag", touches that file and waits (up to
// 90 s) for the JS condition "until" on the open page, and answers its value.
import { spawn } from "node:child_process";
import {
  appendFileSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync,
  statSync, writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const job = JSON.parse(readFileSync(0, "utf8"));
const KEY_NAMES = { "\r": "Enter", "\n": "Enter", "\x7f": "Backspace", "\x08": "Backspace" };
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--window-size=390,844"];
// No name lookups leave the machine (as in webdrive.mjs); a job's own rules come first.
const NO_DNS = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost";
const RULES = "--host-resolver-rules=";
const ownRules = (job.args || []).find((f) => f.startsWith(RULES));
const JOB_ARGS = [ownRules ? ownRules + ", " + NO_DNS : RULES + NO_DNS,
  ...(job.args || []).filter((f) => !f.startsWith(RULES))];
const errors = [];
const warnings = []; // the page's console warnings, by launch (its storage says what it did)
let launches = 0;
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const origin = new URL(job.url).origin;
const foreign = [];

let live = null; // the browser running now

async function launch(profile) {
  mkdirSync(profile, { recursive: true });
  const portFile = join(profile, "DevToolsActivePort");
  rmSync(portFile, { force: true }); // a killed browser leaves its old one
  // Chromium's own log (its storage's complaints) beside the profile, one block a launch.
  appendFileSync(profile + ".log", "==== launch\n");
  launches++;
  const log = openSync(profile + ".log", "a");
  const proc = spawn(job.chromium, [...FLAGS, ...JOB_ARGS, "--user-data-dir=" + profile,
    "--remote-debugging-port=0", "--enable-logging=stderr", "about:blank"],
  { detached: true, stdio: ["ignore", "ignore", log] });
  closeSync(log);
  const exited = new Promise((ok) => proc.on("exit", ok));
  live = { proc, exited, browser: null, page: null };
  const until = Date.now() + 30000;
  let port = 0;
  while (!port) {
    if (Date.now() > until) throw new Error("chromium wrote no DevToolsActivePort in 30 s");
    if (existsSync(portFile)) port = parseInt(readFileSync(portFile, "utf8").split("\n")[0], 10);
    if (!port) await sleep(20);
  }
  const browser = await chromium.connectOverCDP("http://127.0.0.1:" + port);
  const context = browser.contexts()[0];
  context.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith(origin + "/") && !u.startsWith("blob:") && !u.startsWith("data:")
      && !u.startsWith("about:")) foreign.push(u);
  });
  const page = context.pages()[0] || await context.newPage();
  live = { proc, exited, browser, page };
  page.on("console", (m) => {
    if (m.type() === "warning") warnings.push(launches + ": " + m.text());
    // A refused WebSocket (the broker not up yet) is expected on a club table.
    if (m.type() === "error" && !m.text().startsWith("WebSocket connection to")) {
      errors.push(m.text());
    }
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return live;
}

// The processes of group pgid not yet dead (zombies are: they hold no files). Linux /proc.
function running(pgid) {
  const pids = [];
  for (const d of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(d)) continue;
    let stat;
    try {
      stat = readFileSync("/proc/" + d + "/stat", "utf8");
    } catch (e) {
      continue; // gone meanwhile
    }
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // state, ppid, pgrp, ...
    if (Number(f[2]) === pgid && f[0] !== "Z") pids.push(Number(d));
  }
  return pids;
}

// The browser dies whole before it starts again, as when a phone's system kills it: the
// browser process exits first, and its storage, network and renderer processes can still
// be running for a while after it (torn down, or forked as the signal went out and missed
// by it); a browser started on the profile then would meet them on its files.
async function kill(b) {
  live = null;
  const pgid = b.proc.pid;
  process.kill(-pgid, "SIGKILL"); // the whole group: browser, renderers, GPU, network
  await b.exited;
  const until = Date.now() + 30000;
  for (let left = running(pgid); left.length; left = running(pgid)) {
    if (Date.now() > until) throw new Error("processes of the killed browser still run: " + left);
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch (e) {
        // gone meanwhile
      }
    }
    await sleep(5);
  }
  if (b.browser) await b.browser.close().catch(() => {});
}

async function open(b, url = job.url) {
  await b.page.goto(url);
  await b.page.waitForFunction(() => window.s66 !== undefined);
  await b.page.evaluate(() => window.s66.ready);
  if (job.readyWhen && !(await poll(b, job.readyWhen, 30000))) {
    throw new Error("the page never met " + job.readyWhen);
  }
  return b.page.evaluate(async () => {
    await window.s66.ready;
    await window.s66.idle();
    return { position: window.s66.position(), drawn: window.s66.drawn(),
      secure: window.isSecureContext, worker: "serviceWorker" in navigator };
  });
}

// Evaluate the JS expression until it is truthy (an exception counts as not yet): its
// value, or null when ms ran out.
async function poll(b, js, ms) {
  const t0 = Date.now();
  for (;;) {
    let v = null;
    try { v = await b.page.evaluate(js); } catch (e) { v = null; }
    if (v || Date.now() - t0 > ms) return v || null;
    await sleep(50);
  }
}

function press(b, ch) {
  return b.page.keyboard.press(KEY_NAMES[ch] || ch);
}

// The key's frame: drawn (its writes on disk); when, and where the page stands.
function drawn(b) {
  return b.page.evaluate(async () => {
    await window.s66.idle();
    return [window.s66.drawn(), window.s66.position()];
  });
}

// What Chromium said about its storage over the run (IndexedDB, LevelDB, the profile's
// locks): printed by the tests when a kill lost something.
function storageLog() {
  try {
    return readFileSync(job.profile + ".log", "utf8").split("\n")
      .filter((l) => l.startsWith("====") || /indexeddb|leveldb|corrupt|lock/i.test(l))
      .join("\n").replace(/(==== launch\n)+/g, "==== launch\n").slice(-4000);
  } catch (e) {
    return String(e);
  }
}

// IndexedDB's database as Chromium finds it after a kill now and then: its LevelDB
// manifest overwritten, so that Chromium reports the corruption and deletes the database.
function damage(profile) {
  const root = join(profile, "Default", "IndexedDB");
  const hit = [];
  for (const d of readdirSync(root)) {
    if (!d.endsWith(".indexeddb.leveldb")) continue;
    for (const f of readdirSync(join(root, d))) {
      if (!f.startsWith("MANIFEST-")) continue;
      const path = join(root, d, f);
      writeFileSync(path, Buffer.alloc(statSync(path).size, 0x5a));
      hit.push(join(d, f));
    }
  }
  if (!hit.length) throw new Error("no IndexedDB manifest to damage under " + root);
  return hit;
}

// job.act: {"keys": "...", "before": JS, "delay": ms, "damage": bool, "after": JS}: instead
// of the kill plan, type the keys (each to its frame), run `before` on the open page (its
// value: "before"), wait `delay` ms, SIGKILL, damage IndexedDB's files if asked, open the
// page again on the same profile and answer `after`'s value as "final" (a page setting
// changed a second before the browser died; a match whose database Chromium deleted).
if (job.act) {
  const out = { errors, warnings, foreign, failed: null, before: null, final: null,
    damaged: null };
  try {
    let b = await launch(job.profile);
    await open(b);
    for (const ch of job.act.keys || "") {
      await press(b, ch);
      await drawn(b);
    }
    out.before = await b.page.evaluate(job.act.before);
    await sleep(job.act.delay);
    await kill(b);
    if (job.act.damage) out.damaged = damage(job.profile);
    b = await launch(job.profile);
    await open(b);
    out.final = await b.page.evaluate(job.act.after);
    await kill(b);
  } catch (e) {
    out.failed = String(e && e.stack ? e.stack : e);
    if (live) await kill(live).catch(() => {});
  }
  out.storageLog = storageLog();
  process.stdout.write(JSON.stringify(out) + "\n");
  process.exit(0);
}

const answer = { positions: 0, kills: [], errors, warnings, foreign, failed: null, latency: [],
  secure: null, worker: null, final: null };
try {
  // The reference: every key, no kill.
  const ref = await launch(job.reference);
  const positions = [(await open(ref, job.referenceUrl || job.url)).position];
  for (const ch of job.keys) {
    await press(ref, ch);
    positions.push((await drawn(ref))[1]);
  }
  answer.latency = await ref.page.evaluate(() => Array.from(window.s66.latency));
  await kill(ref);
  answer.positions = positions.length;

  let check = null; // what the next open must find: {lo, hi, any}
  const judge = (pos) => {
    const at = [];
    positions.forEach((p, i) => { if (p === pos) at.push(i); });
    if (!check) return { resume: at.length ? at[0] : -1, ok: at.includes(0), lostRecent: false };
    const inRange = at.filter((i) => i >= check.lo && i <= check.hi);
    const resume = inRange.length ? inRange[0] : (at.length ? at[0] : -1);
    const lostRecent = !at.some((i) => i >= check.any && i <= check.hi);
    return { resume, ok: inRange.length > 0, lostRecent };
  };
  const record = (got) => {
    const last = answer.kills[answer.kills.length - 1];
    if (last) Object.assign(last, got);
  };
  for (const k of job.kills) {
    const b = await launch(job.profile);
    const opened = await open(b);
    if (answer.secure === null) {
      answer.secure = opened.secure;
      answer.worker = opened.worker;
    }
    const j = judge(opened.position);
    record({ ok: j.ok, lostRecent: j.lostRecent, reopenedAt: j.resume });
    if (j.resume < 0) throw new Error("the reopened page stands nowhere the reference went");
    if (j.resume > k.at) throw new Error("kill at key " + k.at + " but the page is at " + j.resume);
    const times = new Map([[j.resume, opened.drawn]]);
    for (let i = j.resume; i < k.at; i++) {
      await press(b, job.keys[i]);
      const [t, pos] = await drawn(b);
      if (pos !== positions[i + 1]) {
        throw new Error("key " + i + " went elsewhere than in the reference");
      }
      times.set(i + 1, t);
    }
    // The key's frame counts as painted once a frame asked for after this count is
    // (frames.js numbers them), not by time: the frame of the key before could be painted
    // in the very millisecond of `pressed`.
    const asked = await b.page.evaluate(() => window.s66.frames().made);
    const pressed = Date.now();
    // The key goes down (its keydown handler runs the firmware) and the browser dies before
    // it comes up: one round trip less, so more kills land before the key's frame.
    await b.page.keyboard.down(KEY_NAMES[job.keys[k.at]] || job.keys[k.at]);
    if (k.delay) await sleep(k.delay);
    const [last, shown] = await b.page.evaluate(() => [window.s66.drawn(),
      window.s66.frames().shown]);
    const killedAt = Date.now();
    await kill(b);
    const keyDrawn = shown > asked;
    if (keyDrawn) times.set(k.at + 1, last);
    let lo = j.resume;
    let any = j.resume;
    for (const [i, t] of times) {
      if (t <= killedAt - job.recent && i > lo) lo = i;
      if (t <= killedAt && i > any) any = i;
    }
    check = { lo, hi: k.at + 1, any };
    answer.kills.push({ at: k.at, delay: k.delay, kind: k.kind, drawnBeforeKill: keyDrawn,
      keyToKillMs: killedAt - pressed, mustKeep: lo, lastDrawn: any });
  }
  const b = await launch(job.profile);
  const opened = await open(b);
  const j = judge(opened.position);
  record({ ok: j.ok, lostRecent: j.lostRecent, reopenedAt: j.resume });
  if (job.flag) {
    writeFileSync(job.flag, "");
    answer.final = await poll(b, job.until, 90000);
  }
  await kill(b);
} catch (e) {
  answer.failed = String(e && e.stack ? e.stack : e);
  if (live) await kill(live).catch(() => {});
}
answer.storageLog = storageLog();
process.stdout.write(JSON.stringify(answer) + "\n");
process.exit(0);
