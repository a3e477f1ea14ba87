// Live pages: a page whose <main> has data-live="<url of live.json>" and data-live-version polls
// the tournament's version and, when it changes (a draw published, a result confirmed), fetches
// the page again and swaps <main> in place: no reload, the scroll position and the search box kept.
// Polling is slow while the tab is hidden and backs off on errors (venue networks are poor).
(function () {
  const main = document.querySelector("main[data-live]");
  if (!main) return;
  let version = main.dataset.liveVersion;
  const base = Number(main.dataset.liveInterval || 10000);
  let delay = base;
  async function tick() {
    try {
      const response = await fetch(main.dataset.live, { cache: "no-store", credentials: "same-origin" });
      if (!response.ok) throw new Error(response.status);
      const data = await response.json();
      if (String(data.version) !== String(version)) {
        const page = await fetch(window.location.href, { cache: "no-store", credentials: "same-origin" });
        const html = new DOMParser().parseFromString(await page.text(), "text/html");
        const fresh = html.querySelector("main[data-live]");
        const active = document.activeElement && document.activeElement.id;
        if (fresh && !(active && main.contains(document.activeElement) && document.activeElement.tagName === "INPUT")) {
          main.innerHTML = fresh.innerHTML;
          // The version the page shows: older than live.json's while the server renders the new
          // one (torneo/pagecache.py serves the last rendered page meanwhile): asked again next time.
          version = fresh.dataset.liveVersion || data.version;
          main.dataset.liveVersion = version;
          main.dispatchEvent(new CustomEvent("live:updated"));
        }
      }
      delay = base;
    } catch (e) {
      delay = Math.min(delay * 2, 120000);
    }
    setTimeout(tick, document.hidden ? Math.max(delay, 60000) : delay);
  }
  setTimeout(tick, delay);
})();
