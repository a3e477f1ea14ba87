// The hall's screen (issue 34). No dependencies.
//
// - A page whose <main> has data-autoscroll (a round's draw on the projector, the clock wall in
//   projector mode, relojes/?proyector=1) scrolls by itself when it is taller than the screen: a
//   pause at the top, slowly down to the bottom, a pause there, back to the top, and again. Whatever
//   live.js or clocks.js change meanwhile, each frame goes on from where the page is.
// - The projector (proyector/, <main data-projector="its own address">, torneo/views/projector.py)
//   shows its slides in turn — the current round's draw, the clocks, the standings, the
//   announcements —, each scrolled through once as above, then the next. A slide is the <main> of
//   its public page, read with fetch just before it is shown; a page that does not come (no
//   network, a server down, a slow answer) leaves the slide's last copy on the screen, with the
//   «sin conexión» mark, and the turn goes on (a slide never read is skipped). At the end of each
//   turn the projector's own page is read again: the list of slides (a new round) and the
//   announcements. The clocks count down through static/js/clocks.js, told with "live:updated"
//   when their slide arrives.
// ?velocidad=<pixels per second> and ?pausa=<ms> change the pace (a big hall, a test).
(function () {
  "use strict";
  const query = new URLSearchParams(window.location.search);
  function setting(name, fallback, low, high) {
    const value = Number(query.get(name));
    return query.has(name) && Number.isFinite(value) && value >= low && value <= high ? value : fallback;
  }
  const SPEED = setting("velocidad", 45, 5, 5000); // pixels per second: read while it moves
  const PAUSE = setting("pausa", 6000, 0, 120000); // at the top and at the bottom
  const TIMEOUT = 10000; // a slide's page that takes longer is taken as not come

  // One pass through the page: the top for PAUSE, down at SPEED, the bottom for PAUSE, then done().
  // A page that fits stays 2 × PAUSE.
  function scrollThrough(done) {
    let phase = "top";
    let until = performance.now() + PAUSE;
    let position = 0;
    let last = null;
    window.scrollTo(0, 0);
    function step(now) {
      const seconds = last === null ? 0 : Math.min((now - last) / 1000, 0.5);
      last = now;
      const end = Math.max(0, document.documentElement.scrollHeight - window.innerHeight);
      if (phase === "top" && now >= until) {
        phase = end > 1 ? "down" : "bottom";
        until = now + (end > 1 ? 0 : PAUSE);
      } else if (phase === "down") {
        position = Math.min(end, position + SPEED * seconds);
        window.scrollTo(0, position);
        if (position >= end) {
          phase = "bottom";
          until = now + PAUSE;
        }
      } else if (phase === "bottom" && now >= until) {
        done();
        return;
      }
      requestAnimationFrame(step);
    }
    requestAnimationFrame(step);
  }

  // --- a page that scrolls by itself, for ever ----------------------------------------------------

  function autoscroll() {
    const again = () => scrollThrough(again);
    again();
  }

  // --- the projector's turn -------------------------------------------------------------------------

  function readSlides(root) {
    const node = root.getElementById("pj-slides");
    try {
      const list = node ? JSON.parse(node.textContent) : null;
      return Array.isArray(list) ? list : null;
    } catch (e) {
      return null;
    }
  }

  async function read(url) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT);
    try {
      const response = await fetch(url, { cache: "no-store", credentials: "same-origin", signal: controller.signal });
      if (!response.ok) throw new Error(String(response.status));
      return new DOMParser().parseFromString(await response.text(), "text/html");
    } finally {
      clearTimeout(timer);
    }
  }

  function rotate(main) {
    const mark = document.querySelector(".pj-offline");
    const own = () => main.querySelector('[data-slide="avisos"]');
    let slides = readSlides(document) || [];
    let index = -1;
    let shown = 0; // slides shown in this turn

    function connected(yes) {
      if (mark) mark.hidden = yes;
    }

    // The section of a slide: the announcements' is this page's own; the others are made here.
    function section(kind) {
      let node = main.querySelector(`[data-slide="${CSS.escape(kind)}"]`);
      if (!node) {
        node = document.createElement("section");
        node.className = "pj-slide";
        node.dataset.slide = kind;
        node.hidden = true;
        main.append(node);
      }
      return node;
    }

    function show(node) {
      for (const other of main.querySelectorAll(".pj-slide")) other.hidden = other !== node;
    }

    // The projector's own page again: the turn's slides and the announcements.
    async function refreshOwn() {
      try {
        const page = await read(main.dataset.projector);
        const fresh = readSlides(page);
        const announcements = page.querySelector('[data-slide="avisos"]');
        if (fresh) slides = fresh;
        if (announcements && own()) own().innerHTML = announcements.innerHTML;
        connected(true);
      } catch (e) {
        connected(false);
      }
    }

    // The slide's content, read now; its last copy if it does not come. False: nothing to show.
    async function load(slide, node) {
      if (!slide.url) return true;
      try {
        const page = await read(slide.url);
        const fresh = page.querySelector("main");
        if (!fresh) throw new Error("sin <main>");
        node.innerHTML = fresh.innerHTML;
        connected(true);
        return true;
      } catch (e) {
        connected(false);
        return node.childElementCount > 0;
      }
    }

    async function next() {
      index += 1;
      if (index >= slides.length) {
        if (shown === 0 && own()) {
          // A whole turn with nothing to show (no network since the page opened): this page's own.
          show(own());
          index = -1;
          scrollThrough(next);
          return;
        }
        index = 0;
        shown = 0;
        await refreshOwn();
        if (!slides.length) {
          index = -1;
          scrollThrough(next);
          return;
        }
      }
      const slide = slides[index];
      const node = slide.url ? section(slide.kind) : own();
      if (!node || !(await load(slide, node))) {
        next();
        return;
      }
      shown += 1;
      show(node);
      if (node.querySelector("#clock-data")) main.dispatchEvent(new CustomEvent("live:updated"));
      scrollThrough(next);
    }

    next();
  }

  const projector = document.querySelector("main[data-projector]");
  if (projector) rotate(projector);
  else if (document.querySelector("main[data-autoscroll]")) autoscroll();
})();
