// The web app's service worker (served as /sw.js; docs/notifications.md, The app offline).
// It keeps the app shell only: the files under /app/ and the offline page. API answers, match pages
// and sockets always go to the network and are never stored: a stored match state would be a lie.
const CACHE = "shell-1";
const SHELL = ["/offline/", "/app/styles.css", "/app/icon.svg", "/app/icons/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Every page from the network; without one, the offline page says so.
    event.respondWith(fetch(request).catch(() => caches.match("/offline/")));
  } else if (url.pathname.startsWith("/app/")) {
    // The network first (files change with each release and carry no hash), the stored copy without one.
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
      }
      return response;
    }).catch(() => caches.match(request).then((stored) => stored || Response.error())));
  }
});

// A notice from the server (backend/notifications): {title, body, url, tag}, in the player's language.
self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (error) {
    return;
  }
  if (!notice.title) return;
  event.waitUntil(self.registration.showNotification(notice.title, {
    body: notice.body || "", tag: notice.tag, data: { url: notice.url || "/" },
    icon: "/app/icons/icon-192.png", badge: "/app/icons/icon-192.png",
  }));
});

// Its link: a window already on that page comes forward, else one opens.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => new URL(w.url).pathname === target.pathname);
    return open ? open.focus() : self.clients.openWindow(target.href);
  }));
});
