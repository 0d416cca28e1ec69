// The club night's transport: npm mqtt (MQTT 3.1.1 over WebSockets) for the firmware's
// own link (net/clublink.py through web/webclub.py). Python calls these through the port's
// `js` module as globalThis.s66club; what mqtt.js reports is queued, and Python takes the
// queue in its next poll. page.js imports this file only when the page has club settings.
import mqtt from "./mqtt.esm.js";

let client = null;
let conn = 0; // the connection Python opened last; older ones are ended and unheard
let queue = [];
let wake = () => {};

function report(n, event) {
  if (n !== conn) return;
  queue.push(event);
  wake();
}

globalThis.s66club = {
  // Python's side (webclub.JsLink).
  open(n, url, clientId, user, password, keepalive) {
    if (client) client.end(true);
    conn = n;
    queue = [];
    let over = false; // one refusal or one "down" per connection, as net/mqtt.py gives
    const end = (event) => { if (!over) { over = true; report(n, event); } };
    client = mqtt.connect(url, {
      clientId, username: user, password, keepalive, protocolVersion: 4, clean: true,
      reconnectPeriod: 0, connectTimeout: 10000, resubscribe: false, queueQoSZero: false,
      timerVariant: "native", // its default makes a worker from a blob: URL, which the policy bars
    });
    client.on("connect", () => report(n, ["connack", 0]));
    client.on("message", (topic, payload) => report(n, ["message", topic, payload.toString()]));
    client.on("error", (err) => {
      const code = err && Number.isInteger(err.code) && err.code > 0 && err.code < 6 ? err.code : 0;
      end(code ? ["connack", code] : ["down", String(err && err.message || err)]);
    });
    client.on("close", () => end(["down", "connection closed"]));
  },
  publish(topic, payload, pid) {
    const n = conn;
    client.publish(topic, payload, { qos: 1 }, (err) => { if (!err) report(n, ["puback", pid]); });
  },
  subscribe(topic, pid) {
    const n = conn;
    client.subscribe(topic, { qos: 0 }, (err, granted) => {
      if (!err) report(n, ["suback", pid, granted && granted[0] ? granted[0].qos : 0x80]);
    });
  },
  close() {
    conn = 0; // nothing from the ended connection is heard again (Python counts from 1)
    if (client) client.end(true);
    client = null;
  },
  take(n) {
    if (n !== conn || queue.length === 0) return "[]";
    const out = JSON.stringify(queue);
    queue = [];
    return out;
  },
};

// The page's side: wake(fn) is called when something is queued.
export function onNews(fn) {
  wake = fn;
}
