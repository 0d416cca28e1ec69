// The service worker: every file of the build in one cache, answered from the cache first,
// so after one visit the page opens with no network. tools/web.py writes BUILD: a version
// (a hash of all the files, so a new build gets a new cache), the list of files cached
// at install, and the files cached only once a page has asked for them (the club night's
// transport, npm mqtt: a table without club settings never loads it).
const BUILD = {"version": "source", "files": [], "lazy": []};
const CACHE = "s66-" + BUILD.version;

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(BUILD.files)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("s66-") && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// A page with club settings asks for the lazy files at once, so that such a table opens
// with no network from its second load on (the first was not this worker's yet).
self.addEventListener("message", (e) => {
  if (e.data === "club") e.waitUntil(caches.open(CACHE).then((c) => c.addAll(BUILD.lazy)));
});

self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  const lazy = BUILD.lazy.some((f) => new URL(f, self.location).href === req.url);
  e.respondWith(caches.open(CACHE).then((c) => c.match(req, { ignoreSearch: true })
    .then((hit) => hit || fetch(req).then((r) => {
      if (lazy && r.ok) c.put(req, r.clone());
      return r;
    }))));
});
