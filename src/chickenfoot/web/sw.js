// @ts-check
// The service worker: what lets the site open without a network, installed at the root so that its
// scope is every page. It keeps one cache per version of the site, filled once at installation from
// the list the server writes in below and never written after: the pages' shells (fetched without
// cookies, so the same for everyone), the static files and the catalogs. Nothing a page fetches at
// run time goes in — no answer of the API, nothing of the table's WebSocket, nothing of one player's —
// so no state of a table and no hidden tile can be kept on a phone. The rules, and how a version
// comes and goes, are in docs/contributors/pages.md (The app on a phone).

/**
 * This version's cache: its name (the package's version and a hash of every file kept), the pages it
 * keeps to show offline, and the other files it keeps (the static files and the catalogs).
 * @typedef {{ cache: string, pages: string[], files: string[] }} Build
 */

/** @type {Build} written in by the server as it serves this file (server/pages.py, service_worker) */
const BUILD = { cache: "", pages: [], files: [] };

const CACHE_PREFIX = "chickenfoot-";
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", (event) => {
  event.waitUntil(keepThisVersion().then(() => worker.skipWaiting()));
});

// The new version takes over the open pages at once, and the caches of older versions go.
worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== BUILD.cache) await caches.delete(name);
      }
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request, url.pathname));
  else if (!url.search && BUILD.files.includes(url.pathname)) event.respondWith(kept(request));
  // Anything else — the API, a page's data, the manifest — goes to the network untouched.
});

// Every file of the list, fetched past the browser's HTTP cache and without cookies: what is kept is
// the same for every player. One missing file fails the installation, and the old version stays.
async function keepThisVersion() {
  const cache = await caches.open(BUILD.cache);
  const urls = [...BUILD.pages, ...BUILD.files];
  await cache.addAll(urls.map((url) => new Request(url, { cache: "no-cache", credentials: "omit" })));
}

/**
 * A page from the network first (it is always the newest, and the session's); without a network, the
 * kept shell of that page: the lobby's for a table (the same page), How to play's, or else the page
 * that says this one needs the network.
 * @param {Request} request
 * @param {string} path
 */
async function page(request, path) {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = BUILD.pages.includes(path) ? path : path.startsWith("/t/") ? "/" : "/offline.html";
    const kept = await caches.match(shell, { cacheName: BUILD.cache });
    if (kept) return kept;
    throw error;
  }
}

/**
 * A static file or a catalog of this version, from the cache (the network if it went missing).
 * @param {Request} request
 */
async function kept(request) {
  return (await caches.match(request, { cacheName: BUILD.cache })) ?? fetch(request);
}

// Messages to a player whose page is closed: the `push` listener that shows a notice and the
// `notificationclick` listener that opens the table it names live in push-sw.js, beside the caching and
// apart from it. A push carries no hidden information: the server words it in the player's language and
// sends no tile of anyone's hand.
worker.importScripts("/push-sw.js");
