// Fast entry of actas for the mesa de control, from the keyboard only:
//   table number, Enter → the two pairs appear and the cursor goes to the juegos of pair A;
//   one digit for A moves on to B; Enter saves and brings the cursor back to the table number.
// The form carries the version of the acta it saw: if someone else entered that table meanwhile
// the server answers 409 and the page says so (nothing is overwritten unseen). The lists of tables
// still missing an acta (and awaiting confirmation) refresh after each entry and every few seconds.
// Without JavaScript the same form works with plain POSTs (table first, then the juegos).
// The script talks to the API (/api/v1/tournaments/<slug>/results/…, URLs in the form's data-*):
//   data-lookup  GET  lookup/?round=&table=  the match at a table (pairs, result, version);
//   data-pending GET  pending/?round=        the tables still missing an acta, those awaiting confirmation;
//   data-submit  POST results/ (JSON)        the acta: 201 {message, state}, 409 {detail}, 400 {field: [msgs]}.
// The winner goes as the pair's number and the tantos as [[40, 32], …] (parsed here like
// scoring.forms.results.parse_tantos); with no network answer the plain form is sent instead.
(function () {
  const form = document.getElementById("entry-form");
  if (!form) return;
  const $ = (name) => form.elements.namedItem(name);
  const table = $("table");
  const gamesA = $("games_a");
  const gamesB = $("games_b");
  const version = $("version");
  const card = document.getElementById("entry-match");
  const feedback = document.getElementById("entry-feedback");
  const more = document.getElementById("entry-more");
  const round = form.dataset.round;
  // Texts come translated from the page ({name} placeholders are filled in here).
  const T = JSON.parse(document.getElementById("entry-strings").textContent);
  const t = (key, values) => T[key].replace(/\{(\w+)\}/g, (_, name) => (values && values[name] !== undefined ? values[name] : ""));
  let current = null; // the lookup of the table on screen
  let pending = null; // the lookup request in flight
  let timer = null;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v; else node.setAttribute(k, v);
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function pairNode(tag, pair) {
    return el("div", { class: "entry-pair" }, el("span", { class: "tag" }, tag),
      el("span", { class: "sc-pair" }, el("span", { class: "num" }, pair.number), " ", el("strong", {}, pair.name),
        pair.players && pair.players !== pair.name ? el("small", {}, pair.players) : null));
  }

  function url(base, id) { return base.replace(/\/0\/(?=[^/]*\/?$)/, "/" + id + "/"); }

  function showLookup(data) {
    current = data;
    version.value = data.version;
    card.replaceChildren();
    const pairs = el("div", { class: "entry-pairs" }, pairNode("A", data.pair_a),
      data.pair_b ? pairNode("B", data.pair_b) : el("div", { class: "entry-pair" }, t("bye")));
    card.append(pairs);
    if (data.outcome !== "pending" && !data.is_bye) {
      card.append(el("p", { class: "entry-current" }, t("current", {
        outcome: data.outcome_label, a: data.games_a ?? "–", b: data.games_b ?? "–", version: data.version, by: data.latest_by,
      })));
    }
    if (data.proposed) {
      card.append(el("p", { class: "entry-current" }, t("proposed", {
        a: data.proposed.games_a ?? "–", b: data.proposed.games_b ?? "–", by: data.proposed.by,
      })));
    }
    if (data.next_prepared && data.outcome !== "pending") card.append(el("p", { class: "msg warning" }, t("prepared")));
    if (data.locked) {
      card.append(el("p", { class: "msg warning" }, t("locked")));
      more.open = true;
    }
    card.append(el("p", {}, el("a", { href: url(form.dataset.history, data.id) }, t("history"))));
    for (const side of ["a", "b"]) {
      const label = form.querySelector(`.entry-side[data-side="${side}"]`);
      const pair = data["pair_" + side];
      if (label) label.textContent = pair ? `${pair.number} ${pair.name}` : side.toUpperCase();
      const option = form.querySelector(`select[name=winner] option[value="${side}"]`);
      if (option) option.textContent = pair ? `${side.toUpperCase()} · ${pair.number} ${pair.name}` : side.toUpperCase();
    }
  }

  function showNoMatch(message) {
    current = null;
    version.value = "";
    card.replaceChildren(el("p", { class: "errorlist" }, message));
  }

  // GET a JSON resource of the API: {response, data} (data {} when the body is not JSON).
  async function getJSON(address) {
    const response = await fetch(address,
      { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store" });
    const data = await response.json().catch(() => ({}));
    return { response, data };
  }

  async function lookup() {
    const value = table.value.trim();
    if (!/^\d+$/.test(value)) { current = null; return null; }
    if (current && String(current.table) === value) return current;
    const request = getJSON(`${form.dataset.lookup}?round=${round}&table=${value}`)
      .then(({ response, data }) => {
        if (table.value.trim() !== value) return null; // typed on meanwhile
        if (!response.ok) { showNoMatch(data.detail || t("check")); return null; }
        showLookup(data);
        return data;
      }, () => null); // no network answer: sending the acta falls back to the plain form
    pending = request;
    try { return await request; } finally { if (pending === request) pending = null; }
  }

  table.addEventListener("input", () => {
    clearTimeout(timer);
    current = null;
    timer = setTimeout(lookup, 150);
  });

  table.addEventListener("keydown", async (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    clearTimeout(timer);
    const data = await lookup();
    if (data && !data.is_bye) { gamesA.focus(); gamesA.select(); }
  });

  gamesA.addEventListener("input", () => {
    // Juegos are one digit (a match is to 3 or 4, AMM 1.7.a): go straight on to pair B.
    if (/^\d$/.test(gamesA.value)) { gamesB.focus(); gamesB.select(); }
  });

  function clearErrors() {
    form.querySelectorAll(".js-error").forEach((node) => node.remove());
    form.querySelectorAll(".has-error").forEach((node) => node.classList.remove("has-error"));
  }

  function say(message, kind) {
    feedback.replaceChildren(el("p", { class: "msg " + (kind || ""), role: kind === "error" ? "alert" : "status" }, message));
  }

  // DRF's messages: a list of strings, or nested by position (tantos: {"0": {"1": [...]}}).
  function messagesOf(value) {
    if (Array.isArray(value)) return value.flatMap(messagesOf);
    if (value && typeof value === "object") return Object.values(value).flatMap(messagesOf);
    return value === null || value === undefined ? [] : [String(value)];
  }

  // Errors by field name (the API's names are the form's); the rest go on top of the form.
  function showErrors(errors) {
    let first = null;
    for (const [name, value] of Object.entries(errors || {})) {
      const messages = messagesOf(value);
      if (!messages.length) continue;
      const field = ["detail", "non_field_errors", "__all__"].includes(name) ? null : $(name);
      const list = el("ul", { class: "errorlist js-error" }, ...messages.map((m) => el("li", {}, m)));
      if (field && field.type !== "hidden" && field.closest(".field")) {
        field.closest(".field").classList.add("has-error");
        field.after(list);
        if (["outcome", "winner", "tantos", "reason"].includes(name)) more.open = true;
        first = first || field;
      } else {
        form.prepend(list);
      }
    }
    if (first) first.focus();
    return first;
  }

  function renderState(state) {
    const missing = document.getElementById("entry-missing");
    if (missing) {
      missing.replaceChildren(...(state.missing.length ? state.missing.map((m) =>
        el("li", {}, el("button", { type: "button", "data-table": m.table, title: `${m.a} – ${m.b || ""}` }, m.table)))
        : [el("li", { class: "muted" }, t("all_done"))]));
      const count = document.getElementById("missing-count");
      if (count) count.textContent = state.missing.length;
    }
    const awaiting = document.getElementById("entry-awaiting");
    if (awaiting) {
      awaiting.replaceChildren(...(state.awaiting.length ? state.awaiting.map((a) =>
        el("li", {}, `${t("table", { table: a.table })}: ${a.score} ${a.outcome} `, el("small", { class: "muted" }, a.by),
          " ", el("a", { href: url(form.dataset.confirm, a.submission) }, t("confirm"))))
        : [el("li", { class: "muted" }, t("none"))]));
    }
  }

  async function refresh() {
    try {
      const { response, data } = await getJSON(`${form.dataset.pending}?round=${round}`);
      if (response.ok) renderState(data);
    } catch (e) { /* the venue's network: try again later */ }
  }

  function reset() {
    for (const name of ["table", "games_a", "games_b", "tantos", "reason", "version"]) $(name).value = "";
    $("outcome").value = "played";
    $("winner").value = "";
    more.open = false;
    current = null;
    card.replaceChildren(el("p", { class: "muted" }, t("hint")));
    table.focus();
  }

  // The tantos as scoring.forms.results.parse_tantos reads them: "40-32, 38-40 40-12" →
  // [[40, 32], [38, 40], [40, 12]]; null when the text is not that (the form's message is shown).
  const JUEGO = /(\p{Nd}{1,3})\s*[-–:/]\s*(\p{Nd}{1,3})/gu;
  const DIGITS = new Map();
  try {
    for (const system of Intl.supportedValuesOf("numberingSystem")) {
      const format = new Intl.NumberFormat("en", { numberingSystem: system, useGrouping: false });
      for (let d = 0; d < 10; d++) DIGITS.set(format.format(d), d);
    }
  } catch (e) { /* an older browser: ASCII digits (and their compatibility forms) */ }
  const digit = (c) => (c >= "0" && c <= "9" ? c.charCodeAt(0) - 48 : DIGITS.get(c) ?? Number(c.normalize("NFKC")));
  const number = (text) => [...text].reduce((n, c) => n * 10 + digit(c), 0);

  function parseTantos(text) {
    text = (text || "").trim();
    if (!text) return [];
    const found = [...text.matchAll(JUEGO)];
    const rest = text.replace(JUEGO, " ");
    if (!found.length || rest.replace(/[\s,;]+/g, "") !== "") return null;
    const games = found.map((m) => [number(m[1]), number(m[2])]);
    return games.some((g) => g.some(Number.isNaN)) ? null : games;
  }

  // An integer field: blank → null; digits → a number; anything else as typed, for the API to refuse.
  function integer(value) {
    value = (value || "").trim();
    if (!value) return null;
    return /^-?\d+$/.test(value) ? Number(value) : value;
  }

  // The acta as the API takes it, from the form; null (and the form's messages shown) if it cannot be.
  function body() {
    const errors = {};
    if (!table.value.trim()) errors.table = [t("table_required")];
    const tantos = parseTantos($("tantos").value);
    if (tantos === null) errors.tantos = [t("tantos")];
    if (Object.keys(errors).length) {
      say(t("check"), "error");
      showErrors(errors);
      return null;
    }
    const match = current && String(current.table) === table.value.trim() ? current : null;
    const side = $("winner").value;
    const pair = match && side ? match["pair_" + side] : null;
    return {
      round: integer($("round").value) ?? integer(round),
      table: integer(table.value),
      version: integer(version.value) ?? 0, // blank: "I saw no result", never overwrite one unseen
      outcome: $("outcome").value || "played",
      games_a: integer(gamesA.value),
      games_b: integer(gamesB.value),
      winner: pair ? pair.number : null,
      tantos,
      reason: $("reason").value,
      source: "control",
    };
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    if (pending) await pending;
    if (!current && table.value.trim()) await lookup();
    const acta = body();
    if (!acta) return;
    const button = document.getElementById("entry-submit");
    button.disabled = true;
    let response;
    try {
      response = await fetch(form.dataset.submit, {
        method: "POST",
        body: JSON.stringify(acta),
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": $("csrfmiddlewaretoken").value,
        },
      });
    } catch (e) {
      button.disabled = false;
      form.submit(); // no network answer: the plain form still works
      return;
    }
    button.disabled = false;
    const data = await response.json().catch(() => ({}));
    if (response.status === 201) {
      say(data.message, "");
      renderState(data.state);
      reset();
      return;
    }
    if (response.status === 409) {
      // Someone else entered this table since it was loaded: show theirs, keep ours for a decision
      // (the version now seen goes with the next Enter, which then corrects it knowingly).
      current = null;
      await lookup();
      say(`${data.detail} ${t("conflict")}`, "error");
      gamesA.focus();
      return;
    }
    if (response.status === 400) {
      say(data.detail || t("check"), "error");
      const { code, ...errors } = data;
      if (!showErrors(errors)) table.focus();
      return;
    }
    say(data.detail || t("check"), "error");
    table.focus();
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-table]");
    if (!button) return;
    table.value = button.dataset.table;
    current = null;
    lookup().then((data) => { if (data) { gamesA.focus(); gamesA.select(); } });
  });

  setInterval(() => { if (!document.hidden) refresh(); }, 8000);
  if (table.value && !current) lookup();
})();
