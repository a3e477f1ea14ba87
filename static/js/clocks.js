// The match clocks (AMM chapter VI) counting down in the browser: the clock wall, a table's page,
// the juez's dashboard and the pair page. No dependencies.
//
// The page is complete without this script: the server writes every time, phase and rule. The
// script reads the same data (json_script "clock-data": ClockInfo.as_dict of each table, with the
// page's additions under "page") and keeps it running:
//   - the time left comes from the server's deadlines (max_at, window_at, limit_at), corrected by
//     the offset between the server's clock (server_now) and the browser's when the data arrived;
//     nothing is asked of the server each second;
//   - the data is refreshed from the API (data-clocks-api: clock-list or clock-detail) every
//     data-clocks-refresh ms (15 s), at once when a deadline passes (a new phase), and whenever
//     live.js (or the hall's screen, static/js/projector.js) brings the page again ("live:updated");
//   - a failed refresh leaves the countdown running and shows a small «sin conexión» mark;
//   - the words of each rule come translated from the page (json_script "clock-strings", {name}
//     holes filled in here) and are chosen as scoring/views/clocks.py `notes` chooses them;
//   - the envite timer of AMM 3.7 (60 s, 120 s in final jugadas, 3.7.a) counts in the browser.
(function () {
  "use strict";
  let T = {};
  let rules = {};
  const clocks = new Map(); // match id → {d: the data, offset: server clock − browser clock (ms), phase}
  const timers = new Map(); // "envite:<match id>" / "mus:<match id>" → when the timer ends (browser clock, ms)
  let offline = false;
  let timer = null;

  const fill = (text, values) =>
    String(text || "").replace(/\{(\w+)\}/g, (_, name) => (values && values[name] !== undefined ? values[name] : ""));
  const t = (key, values) => fill(T[key], values);

  function readJSON(id) {
    const node = document.getElementById(id);
    if (!node) return null;
    try { return JSON.parse(node.textContent); } catch (e) { return null; }
  }

  // One clock's data; the API's answer keeps what only the page knows ("page").
  function keep(d, offset) {
    if (!d || d.match === undefined) return;
    const key = String(d.match);
    const old = clocks.get(key);
    const page = d.page || (old && old.d.page) || { absent: {}, done: false, result: null };
    clocks.set(key, { d: Object.assign({}, d, { page }), offset, phase: old ? old.phase : null });
  }

  // The page's own data (first load, and each time live.js swaps <main>): `arrival` is when the
  // browser received it.
  function loadPage(arrival) {
    T = readJSON("clock-strings") || T;
    const data = readJSON("clock-data");
    if (!data) return;
    rules = data.rules || rules;
    const offset = Date.parse(data.server_now) - arrival;
    for (const d of data.clocks || []) keep(d, offset);
  }

  function pageArrival() {
    const nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    return nav && nav.responseStart ? performance.timeOrigin + nav.responseStart : Date.now();
  }

  // --- time --------------------------------------------------------------------------------------

  // Milliseconds from now until the deadline `key` (null: none, e.g. while paused).
  function until(c, key) {
    const at = c.d[key];
    return at ? Date.parse(at) - (Date.now() + c.offset) : null;
  }

  // Minutes to the maximum (negative past it): from max_at while running, else as the server said.
  function remaining(c) {
    const left = until(c, "max_at");
    if (left !== null && !c.d.paused) return left / 60000;
    return typeof c.d.remaining === "number" ? c.d.remaining : null;
  }

  const RANK = { normal: 0, ajustes: 1, excedido: 2 };
  // The phase shown: the server's, moved on by the deadlines that passed since it answered.
  function phaseOf(c) {
    const d = c.d;
    if (!d.started) return "pendiente";
    if (d.page.done) return "terminada";
    let phase = d.phase || "normal";
    if (!d.paused && phase in RANK) {
      if ((until(c, "limit_at") ?? 1) <= 0) return "terminada";
      let rank = RANK[phase];
      if ((until(c, "max_at") ?? 1) <= 0) rank = Math.max(rank, 2);
      else if ((until(c, "window_at") ?? 1) <= 0) rank = Math.max(rank, 1);
      phase = Object.keys(RANK)[rank];
    }
    return phase;
  }

  function two(n) { return String(n).padStart(2, "0"); }
  // mm:ss left (rounded up); past the maximum, +mm:ss over it (scoring/views/clocks.py clock_time).
  function clockTime(seconds) {
    seconds = Math.round(seconds * 1000) / 1000;
    if (seconds >= 0) {
      const whole = Math.ceil(seconds);
      return `${two(Math.floor(whole / 60))}:${two(whole % 60)}`;
    }
    const whole = Math.floor(-seconds);
    return `+${two(Math.floor(whole / 60))}:${two(whole % 60)}`;
  }

  function timeText(c, phase) {
    if (!c.d.started) return clockTime((rules.max_minutes || 60) * 60);
    if (phase === "terminada") return t("finished_time");
    return clockTime((remaining(c) || 0) * 60);
  }

  // --- words (as scoring/views/clocks.py notes) ----------------------------------------------

  function tantos(value) {
    if (Array.isArray(value)) {
      if (value.length < 2) return value.join("");
      return t("tantos_or", { a: value.slice(0, -1).join(", "), b: value[value.length - 1] });
    }
    return String(value);
  }

  // `d`: a clock's data; `left`: minutes to the maximum (negative past it).
  function notes(d, phase, left) {
    if (!d.started) return [t("not_started")];
    const out = [];
    const page = d.page;
    if (d.paused) out.push(t("paused_note", { reason: d.pause_reason || "" }));
    const numbers = { A: d.pair_a.number, B: d.pair_b ? d.pair_b.number : "" };
    let lostPartida = false;
    for (const side of ["A", "B"]) {
      const missing = (d.missing || {})[side] || {};
      const absent = (page.absent || {})[side];
      let lost = "";
      if (missing.partida) { lost = t("lost_partida"); lostPartida = true; }
      else if (missing.juegos === 1) lost = t("lost_one");
      else if (missing.juegos) lost = t("lost_many", { n: missing.juegos });
      if (!lost && absent !== "missing") continue;
      const text = t(absent === "arrived" ? "late" : "absent", { pair: numbers[side] });
      out.push(lost ? `${text} — ${lost}` : text);
    }
    if (phase === "terminada") {
      if (d.forced_end || (d.winner == null && !page.done && !lostPartida)) out.push(t("forced"));
      else if (!lostPartida) out.push(t("finished"));
      return out;
    }
    if (phase === "ultima_mano") { out.push(t("last_hand")); return out; }
    const juego = d.juego || {};
    if (d.adjustments === "6.4.a") out.push(t("adj_a"));
    else if (d.adjustments === "6.4.b") {
      if (juego.article === "6.4.b") {
        if (typeof juego.tantos === "number" && juego.tantos >= rules.points) out.push(t("adj_b_normal"));
        else out.push(t("adj_b", { tantos: tantos(juego.tantos) }));
      } else if (left !== null && left >= rules.tie_normal) out.push(t("adj_b_if_normal"));
      else out.push(t("adj_b_if", { tantos: tantos(left !== null && left >= 0 ? rules.tie_tantos : rules.short) }));
    } else if (d.adjustments === "6.4.c") {
      out.push(t(juego.final ? "adj_c_final" : "adj_c", { tantos: tantos(juego.article ? juego.tantos : rules.short) }));
    } else if (phase === "ajustes") out.push(t("adj"));
    else if (phase === "excedido") out.push(t("excedido"));
    else out.push(t("normal", { n: d.max_minutes || rules.max_minutes }));
    if (phase === "excedido") out.push(t("limit", { n: rules.overtime }));
    return out;
  }

  // --- the page ----------------------------------------------------------------------------------

  function setText(node, text) {
    if (node && node.textContent !== String(text)) node.textContent = text;
  }

  function showNotes(list, texts) {
    if (!list) return;
    const now = [...list.children].map((li) => li.textContent);
    if (now.length === texts.length && now.every((text, i) => text === texts[i])) return;
    list.replaceChildren(...texts.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  }

  // The waits the table times (AMM 3.7 envites: 60 s, 120 s in final jugadas; 2.3 / 2.3.a the mus
  // dialogue: 60 s for each pair), one timer per table and kind, started and stopped by a tap.
  const WAITS = { envite: "envite_seconds", mus: "mus_seconds" };

  function showTimer(button, c, kind) {
    button.hidden = false;
    const ends = timers.get(`${kind}:${c.d.match}`);
    const seconds = c.d[WAITS[kind]] || 60;
    if (ends === undefined) {
      button.classList.remove("ck-envite-running", "ck-envite-over");
      setText(button, t(kind, { s: seconds }));
      return;
    }
    const left = Math.ceil((ends - Date.now()) / 1000);
    button.classList.toggle("ck-envite-running", left > 0);
    button.classList.toggle("ck-envite-over", left <= 0);
    setText(button, left > 0 ? t(`${kind}_running`, { s: left }) : t(`${kind}_over`));
  }

  function render() {
    for (const card of document.querySelectorAll("[data-clock]")) {
      const c = clocks.get(card.dataset.clock);
      if (!c) continue;
      const phase = phaseOf(c);
      if (c.phase !== null && c.phase !== phase && phase !== c.d.phase) soon(); // a deadline passed: new rules
      c.phase = phase;
      const running = c.d.started && !c.d.page.done && phase !== "terminada";
      const paused = Boolean(c.d.paused) && running;
      if (card.dataset.phase !== phase || card.classList.contains("ck-paused") !== paused) {
        for (const name of [...card.classList]) if (name.startsWith("ck-phase-")) card.classList.remove(name);
        card.classList.add(`ck-phase-${phase}`);
        card.classList.toggle("ck-paused", paused);
        card.dataset.phase = phase;
      }
      setText(card.querySelector(".ck-time"), timeText(c, phase));
      setText(card.querySelector(".ck-status"), paused ? t("paused") : t(`phase_${phase}`));
      const score = c.d.page.result || (c.d.score ? [c.d.score.A, c.d.score.B] : [0, 0]);
      setText(card.querySelector(".ck-score-a"), score[0]);
      setText(card.querySelector(".ck-score-b"), score[1]);
      showNotes(card.querySelector(".ck-notes"), notes(c.d, phase, remaining(c)));
    }
    for (const kind of Object.keys(WAITS)) {
      for (const button of document.querySelectorAll(`[data-${kind}]`)) {
        const c = clocks.get(button.dataset[kind]);
        if (c) showTimer(button, c, kind);
      }
    }
    const mark = document.querySelector(".ck-offline");
    if (mark) {
      mark.hidden = !offline;
      setText(mark, t("offline"));
    }
  }

  // --- the API -----------------------------------------------------------------------------------

  function settings() {
    const node = document.querySelector("[data-clocks-api]");
    return {
      url: node ? node.dataset.clocksApi : "",
      every: Math.max(Number(node && node.dataset.clocksRefresh) || 15000, 300),
    };
  }

  async function refresh() {
    const { url } = settings();
    if (!url) return;
    const sent = Date.now();
    try {
      const response = await fetch(url, { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } });
      if (response.status >= 500) throw new Error(String(response.status)); // the server is down: as offline
      if (!response.ok) { offline = false; return; } // refused (4xx): the page's data stands
      const body = await response.json();
      const arrival = (sent + Date.now()) / 2; // the server answered about halfway
      const list = Array.isArray(body) ? body : Array.isArray(body.results) ? body.results : [body];
      for (const d of list) if (d && d.server_now) keep(d, Date.parse(d.server_now) - arrival);
      offline = false;
    } catch (e) {
      offline = true; // the countdown goes on from the deadlines it has
    } finally {
      render();
    }
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      await refresh();
      schedule(settings().every);
    }, ms);
  }

  let soonPending = false;
  function soon() {
    if (soonPending) return;
    soonPending = true;
    setTimeout(() => { soonPending = false; schedule(0); }, 1500);
  }

  // Under Node (tests/scoring/test_clock_pages.py): the words alone, to check they are the server's.
  if (typeof module === "object" && module.exports) {
    module.exports = { clockTime, notes, use(strings, timings) { T = strings; rules = timings; } };
    return;
  }
  // The hall's screen (static/js/projector.js) brings the clock wall into its page later, then
  // says so with "live:updated", as live.js does.
  if (!document.getElementById("clock-data") && !document.querySelector("main[data-projector]")) return;

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-envite], [data-mus]");
    if (!button) return;
    const kind = button.dataset.envite !== undefined ? "envite" : "mus";
    const c = clocks.get(button.dataset[kind]);
    const key = `${kind}:${button.dataset[kind]}`;
    if (timers.has(key)) timers.delete(key);
    else timers.set(key, Date.now() + ((c && c.d[WAITS[kind]]) || 60) * 1000);
    render();
  });

  const main = document.querySelector("main");
  if (main) main.addEventListener("live:updated", () => { loadPage(Date.now()); render(); });
  window.addEventListener("online", () => schedule(0));

  // The server's time now (ms), as these clocks reckon it: what static/js/terminal-offline.js
  // writes on a juego tapped without network (the juego ended then).
  window.TorneoClocks = {
    serverNow() {
      const first = clocks.values().next().value;
      return Date.now() + (first ? first.offset : 0);
    },
  };

  loadPage(pageArrival());
  render();
  setInterval(render, 250);
  schedule(settings().every);
})();
