// Registers the service worker (static/js/sw.js, served from /sw.js: issue 33) and, on a page the
// worker answered from its last copy because there was no network (it writes
// <meta name="offline-copy" content="when the copy was kept">), says so at the top of <main>:
// «Sin conexión: copia de hace N min», counted again each minute. On the offline page, lists the
// pages this phone can read without network. Texts: the data-* attributes of this script's tag
// (templates/base.html), translated there.
(function () {
  const tag = document.getElementById("sw-register");
  const data = (tag && tag.dataset) || {};
  const texts = {
    recent: data.copyRecent || "Sin conexión: copia de hace menos de un minuto",
    minutes: data.copyMinutes || "Sin conexión: copia de hace {n} min",
    hours: data.copyHours || "Sin conexión: copia de hace {n} h",
  };

  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(data.worker || "/sw.js", { scope: "/" }).catch(function () {
      // no worker (a private window, an old browser): the site works as before, online only
    });
  }

  function ago(stored) {
    const minutes = Math.floor((Date.now() - stored) / 60000);
    if (minutes < 1) return texts.recent;
    if (minutes < 120) return texts.minutes.replace("{n}", minutes);
    return texts.hours.replace("{n}", Math.floor(minutes / 60));
  }

  const meta = document.querySelector('meta[name="offline-copy"]');
  const main = document.querySelector("main");
  if (meta && main) {
    const stored = Date.parse(meta.content);
    if (!Number.isNaN(stored)) {
      const box = document.createElement("div");
      box.id = "offline-copy";
      box.className = "offline-banner warning";
      box.setAttribute("role", "status");
      box.dataset.stored = meta.content;
      box.textContent = ago(stored);
      main.prepend(box);
      const timer = setInterval(function () {
        if (!box.isConnected) return clearInterval(timer); // static/js/live.js brought the page anew
        box.textContent = ago(stored);
      }, 60000);
      main.addEventListener("live:updated", function () {
        box.remove();
        clearInterval(timer);
      });
    }
  }

  const saved = document.getElementById("offline-saved");
  if (saved && "caches" in window) {
    // The public pages kept, and the desk's or terminal's own (static/js/sw.js: the account's).
    Promise.all(
      ["torneo-pages", "torneo-private"].map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.keys().then(function (keys) {
            return Promise.all(
              keys.map(function (request) {
                return cache.match(request).then(function (response) {
                  return { url: request.url, response: response };
                });
              })
            );
          });
        });
      })
    )
      .then(function (lists) {
        return lists[0].concat(lists[1]);
      })
      .then(function (pages) {
        const list = saved.querySelector("ul");
        pages.reverse().forEach(function (page) {
          if (!page.response) return;
          const url = new URL(page.url);
          if (url.origin !== location.origin) return;
          const item = document.createElement("li");
          const link = document.createElement("a");
          link.href = url.pathname + url.search;
          let title = "";
          try {
            const raw = decodeURIComponent(page.response.headers.get("X-Title") || "");
            title = new DOMParser().parseFromString(raw, "text/html").documentElement.textContent.trim();
          } catch (e) {
            title = "";
          }
          link.textContent = title || url.pathname;
          item.appendChild(link);
          const at = Date.parse(page.response.headers.get("X-Stored-At") || "");
          if (!Number.isNaN(at)) item.appendChild(document.createTextNode(" · " + ago(at).replace(/^[^:]*:\s*/, "")));
          list.appendChild(item);
        });
        saved.hidden = !list.children.length;
      })
      .catch(function () {});
  }
})();
