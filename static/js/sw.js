// The service worker (issue 33, «when the venue's Wi-Fi fails»): served from /sw.js by
// torneo/views/offline.py, which writes in the version and the app shell below, so that its scope
// is the whole site and a change of the site's static files is a new worker the phones install.
//
// - Install: the app shell (the CSS and JS the pages load, the offline page) is kept.
// - Navigations (GET): network first; past TIMEOUT_MS the last copy kept of the page is shown (and
//   the network's answer, when it comes, is kept for next time); without network, the last copy,
//   or the offline page. A copy is kept of the public pages only: a 200 in HTML, not
//   «Cache-Control: private/no-store», never rendered for someone signed in (base.html marks
//   those pages: data-private-page), without a form's token, and never the staff's, the
//   accounts', the pairs' links, the admin, the API. A copy is served with
//   <meta name="offline-copy" content="when it was kept"> so that static/js/sw-register.js says
//   «Sin conexión: copia de hace N min».
// - The app shell of the desks and the pair's terminal: the pages that say so
//   (<meta name="offline-shell">: the result desk, the juez's desk, a pair's page for its own
//   players, its table's clock, its report and confirmation) and the public pages as someone signed
//   in read them (a pair's phone on the draw or the standings) are kept apart (PRIVATE), as the
//   account signed in on this device had them, for PRIVATE_MAX_AGE_MS: reloaded without network,
//   the desk or the terminal shows its last copy and its offline queue keeps working.
//   They belong to the last account seen online: any page the server sends for someone else, or
//   for nobody (signed out, a new tarjeta), deletes them at once; never shown to anyone else.
// - Static files: cache first. The API (live.json, the writes) and every other request: network
//   only (the pages' scripts cope with a lost connection themselves), and never a POST.
// - Web Push: a push (torneo/push/send.py: {"title", "body", "url", "tag"}, encrypted for this
//   device) is shown as a notification; a newer one with the same tag replaces it. Tapping it opens
//   its page of this site (or brings forward a tab already on it).
const VERSION = "dev";
const PRECACHE = [];
const OFFLINE_URL = "/sin-conexion/";
const STATIC_URL = "/static/";

const SHELL = "torneo-shell-" + VERSION;
const PAGES = "torneo-pages";
const MAX_PAGES = 60;
const TIMEOUT_MS = 4000;
const STORED = "X-Stored-At";
const TITLE = "X-Title";
// Pages never kept: the staff's (gestion/), accounts and sign-in (cuenta/), the pairs' private
// links (tarjeta/), the venue's check-in (presente/), the admin, the API, the language form.
const NEVER_AT_ROOT = /^\/(api|admin|gestion|cuenta|i18n|salud|sw\.js)(\/|$)/;
const NEVER_ANYWHERE = /\/(gestion|cuenta|tarjeta|presente)(\/|$)/;
const PRIVATE_MARK = "data-private-page";
const FORM_TOKEN = "csrfmiddlewaretoken";
const PRIVATE = "torneo-private";
const PRIVATE_MAX_AGE_MS = 24 * 3600 * 1000;
const SHELL_MARK = '<meta name="offline-shell">';
const ACCOUNT = /id="offline-strings" data-account="(\d+)"/; // templates/base.html, for someone signed in
const OWNER = "X-Account";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("torneo-shell-") && n !== SHELL).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event, url));
  } else if (url.pathname.startsWith(STATIC_URL)) {
    event.respondWith(staticFile(request));
  }
  // Anything else (the API, live.json, a page's own fetches): the browser goes to the network.
});

function keepable(url) {
  return !(NEVER_AT_ROOT.test(url.pathname) || NEVER_ANYWHERE.test(url.pathname) || url.pathname === OFFLINE_URL);
}

async function navigate(event, url) {
  const keep = keepable(url);
  const network = fetch(event.request);
  // Kept whatever answers first: a copy taken before the page reads the body.
  event.waitUntil(
    network
      .then((response) => Promise.all([keep ? store(url, response.clone()) : null, storePrivate(url, response.clone())]))
      .catch(() => null)
  );
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, TIMEOUT_MS, null);
  });
  // Without network: the signed-in account's own copy first (it is deleted when it signs out).
  const copy = async () => (await privateCopy(url)) || (keep ? await cachedCopy(url) : null);
  try {
    const first = await Promise.race([network, late]);
    clearTimeout(timer);
    if (first === null) return (await copy()) || (await network);
    if ([502, 503, 504].includes(first.status)) {
      return (await copy()) || first; // the server behind the proxy is unreachable
    }
    return first;
  } catch (e) {
    clearTimeout(timer);
    return (await copy()) || (await offlinePage());
  }
}

async function store(url, response) {
  if (response.status !== 200 || response.type !== "basic") return;
  const type = response.headers.get("Content-Type") || "";
  const control = (response.headers.get("Cache-Control") || "").toLowerCase();
  if (!type.includes("text/html") || /private|no-store/.test(control)) return;
  const html = await response.text();
  if (html.includes(PRIVATE_MARK) || html.includes(FORM_TOKEN)) return;
  const title = (html.match(/<title>([^<]*)<\/title>/i) || [null, ""])[1].trim();
  const copy = new Response(html, {
    headers: { "Content-Type": type, [STORED]: new Date().toISOString(), [TITLE]: encodeURIComponent(title) },
  });
  const cache = await caches.open(PAGES);
  const key = url.href.split("#")[0];
  await cache.delete(key); // stored again: the newest of the cache (the oldest go first)
  await cache.put(key, copy);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) await cache.delete(old);
}

// A page the server sent: whose it is (the account signed in, "" for nobody) decides which private
// copies stay; kept itself if it is a desk's or a terminal's page (SHELL_MARK) of that account.
async function storePrivate(url, response) {
  if (response.status !== 200 || response.type !== "basic") return;
  const type = response.headers.get("Content-Type") || "";
  if (!type.includes("text/html") || NEVER_AT_ROOT.test(url.pathname)) return;
  const html = await response.text();
  const account = (html.match(ACCOUNT) || [null, ""])[1];
  const cache = await caches.open(PRIVATE);
  for (const request of await cache.keys()) {
    const old = await cache.match(request);
    if (!old || old.headers.get(OWNER) !== account) await cache.delete(request);
  }
  const control = (response.headers.get("Cache-Control") || "").toLowerCase();
  // Kept: the desks' and the terminal's pages, and the public pages as this account reads them
  // (the draw, the standings: a pair's phone is signed in); never another staff page.
  const wanted = html.includes(SHELL_MARK) || keepable(url);
  if (!account || !wanted || control.includes("no-store")) return;
  const title = (html.match(/<title>([^<]*)<\/title>/i) || [null, ""])[1].trim();
  const copy = new Response(html, {
    headers: { "Content-Type": type, [STORED]: new Date().toISOString(), [TITLE]: encodeURIComponent(title), [OWNER]: account },
  });
  const key = url.href.split("#")[0];
  await cache.delete(key);
  await cache.put(key, copy);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) await cache.delete(old);
}

async function privateCopy(url) {
  const cache = await caches.open(PRIVATE);
  const key = url.href.split("#")[0];
  const kept = await cache.match(key, { ignoreVary: true });
  if (!kept) return null;
  if (Date.now() - Date.parse(kept.headers.get(STORED) || "") > PRIVATE_MAX_AGE_MS) {
    await cache.delete(key);
    return null;
  }
  return copyOf(kept);
}

async function cachedCopy(url) {
  const cache = await caches.open(PAGES);
  const kept = await cache.match(url.href.split("#")[0], { ignoreVary: true });
  return kept ? copyOf(kept) : null;
}

// A kept page as served without network: it says so (and since when), its clocks moved on.
async function copyOf(kept) {
  const stored = kept.headers.get(STORED) || new Date().toISOString();
  let html = await kept.text();
  const meta = '<meta name="offline-copy" content="' + stored + '">';
  html = /<\/head>/i.test(html) ? html.replace(/<\/head>/i, meta + "</head>") : meta + html;
  // A clock counts from the server's time in the page (static/js/clocks.js): the copy's, moved on
  // by the copy's age, so that the offset it measures is the one measured when it was kept.
  html = html.replace(
    /(<script id="clock-data" type="application\/json">\{"server_now": ")([^"]*)(")/,
    (all, before, then, after) => {
      const at = Date.parse(then);
      if (Number.isNaN(at)) return all;
      return before + new Date(at + (Date.now() - Date.parse(stored))).toISOString() + after;
    }
  );
  return new Response(html, {
    headers: { "Content-Type": kept.headers.get("Content-Type") || "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

async function offlinePage() {
  const page = await caches.match(OFFLINE_URL, { ignoreVary: true });
  if (page) return page;
  return new Response("<!DOCTYPE html><meta charset=utf-8><title>Sin conexión</title><p>Sin conexión: esta página no se había abierto en este móvil.</p>", {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

async function staticFile(request) {
  const kept = await caches.match(request, { ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const copy = response.clone();
    caches.open(SHELL).then((cache) => cache.put(request, copy));
  }
  return response;
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { title: event.data ? event.data.text() : "" };
  }
  const options = { body: data.body || "", data: { url: sameSite(data.url) } };
  if (data.tag) {
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(data.title || "Torneos de mus", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((win) => win.url === target && "focus" in win);
      return open ? open.focus() : self.clients.openWindow(target);
    })
  );
});

// A notification's address, always a page of this site (the server sends paths only).
function sameSite(path) {
  try {
    const url = new URL(path || "/", self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}
