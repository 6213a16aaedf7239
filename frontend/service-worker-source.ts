/**
 * The service worker's code (docs/product/install.md), written by the installable-app plugin as /sw.js with the
 * build's shell files. What it does:
 * - install: stores the shell (HTML pages, the entry's and the room page's scripts and styles, icons, manifest) in
 *   a cache named after the build; activate deletes the caches of older builds.
 * - page loads go to the network first (a new build, the server's headers); offline, the stored index.html starts
 *   the app, which routes the path itself.
 * - the build's files (/assets/, named by their content) come from the cache, or from the network and are then
 *   stored: code loaded on demand works offline once it was used.
 * - everything else passes untouched and is never stored: room content and API answers (/api/, /socket.io/,
 *   /files/), other origins, anything but GET.
 */
export const SHELL_CACHE_PREFIX = 'ephemera-shell-';

/** Paths the worker never answers nor stores (room content, API answers, the realtime connection). */
export const NEVER_CACHED = /^\/(?:api|socket\.io|files)(?:\/|$)/;

export function serviceWorkerSource({ version, shell, base }: { version: string; shell: string[]; base: string }) {
  return `/* Ephemera's service worker: the application shell only (frontend/service-worker-source.ts). */
const CACHE = ${JSON.stringify(SHELL_CACHE_PREFIX + version)};
const SHELL = ${JSON.stringify(shell)};
const INDEX = ${JSON.stringify(`${base}index.html`)};
const ASSETS = ${JSON.stringify(`${base}assets/`)};
const NEVER = ${NEVER_CACHED.toString()};

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith(${JSON.stringify(SHELL_CACHE_PREFIX)}) && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.match(INDEX).then((hit) => hit || Response.error())));
    return;
  }
  const isAsset = url.pathname.startsWith(ASSETS);
  if (!isAsset && !SHELL.includes(url.pathname)) return;
  event.respondWith(
    caches.match(request).then(
      (hit) =>
        hit ||
        fetch(request).then((response) => {
          if (isAsset && response.ok) {
            const copy = response.clone();
            event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
          }
          return response;
        }),
    ),
  );
});
`;
}
