// Fast entry of actas for the mesa de control, from the keyboard only:
//   table number, Enter → the cursor goes at once to the juegos of pair A (the two pairs appear when
//   the lookup answers); one digit for A moves on to B; Enter sends the acta and brings the cursor
//   back, at once too, to an empty form for the next table.
// Nothing typed is ever lost to the network: the cursor never waits for an answer, and an answer
// never moves the cursor nor touches a field the mesa types in. Each lookup has a number: only the
// answer of the latest one, for the number still in the table field, is shown (older ones are
// aborted or dropped). An acta is read from the form when Enter is pressed and saved in the
// background; if it is refused, it comes back to the form with its messages when the form is still
// empty, or else the page says so and offers to go back to it (never overwriting the next acta).
// The form carries the version of the acta it saw: if someone else entered that table meanwhile
// the server answers 409 and the page says so (nothing is overwritten unseen). The lists of tables
// still missing an acta (and awaiting confirmation) and their counters refresh after each entry and
// every few seconds.
// Without JavaScript the same form works with plain POSTs (table first, then the juegos).
// The script talks to the API (/api/v1/tournaments/<slug>/results/…, URLs in the form's data-*):
//   data-lookup  GET  lookup/?round=&table=  the match at a table (pairs, result, version);
//   data-pending GET  pending/?round=        the tables still missing an acta, those awaiting confirmation;
//   data-submit  POST results/ (JSON)        the acta: 201 {message, state}, 409 {detail}, 400 {field: [msgs]}.
// The winner goes as the pair's number and the tantos as [[40, 32], …] (parsed here like
// scoring.forms.results.parse_tantos).
// Without network (issue 33) the acta is not lost: it goes through window.TorneoQueue
// (static/js/offline-queue.js) with an Idempotency-Key of its own, and when the network does not
// answer it is kept on this device, in the order typed, and sent when the connection returns (the
// server stores it once, however many times it is sent). The lookup cannot answer then: the acta
// goes with the version last known for its table (from a lookup, an answer, or the list of tables
// without an acta: 0; unknown: 0), so a table someone else entered meanwhile comes back as a
// conflict (409), listed here with its table, never overwritten. Once the queue has sent, the
// lists refresh. Only without IndexedDB and without network is the plain form sent instead.
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
  // Texts come translated from the page ({name} placeholders are filled in here): the table of
  // entry-strings, and the form's data-msg-* for the few the table does not have.
  const T = JSON.parse(document.getElementById("entry-strings").textContent);
  for (const [key, text] of Object.entries(form.dataset)) {
    const name = key.startsWith("msg") && key.length > 3 ? key[3].toLowerCase() + key.slice(4) : null;
    if (name && text && !(name in T)) T[name] = text;
  }
  const fill = (text, values) =>
    text.replace(/\{(\w+)\}/g, (_, name) => (values && values[name] !== undefined ? values[name] : ""));
  const t = (key, values) => fill(T[key] || "", values);
  // The texts the form had before any lookup (the winner's options, the labels beside the juegos).
  const sideTexts = new Map();
  for (const option of form.querySelectorAll("select[name=winner] option")) sideTexts.set(option, option.textContent);
  const FIELDS = ["table", "games_a", "games_b", "outcome", "winner", "tantos", "reason", "version"];

  let current = null; // the lookup of the table on screen (the number in the table field)
  let absent = null; // the number in the table field when the answer was "there is no such table"
  let inflight = null; // the lookup in flight for the table field: {value, controller, promise, claimed}
  let lookupSeq = 0; // the number of the latest lookup: an answer for an earlier one is dropped
  let stateSeq = 0; // the same for the lists of tables (answers of pending/ and of each acta sent)
  let stateShown = 0;
  let timer = null;
  const queue = window.TorneoQueue || null;
  // What this page last knew of each table (by number): the version to send without network, and
  // the lookup itself (its pairs, for the winner's number).
  const versions = new Map();
  const matches = new Map();
  // What was typed for each acta kept on this device, by its label: to go back to it after a conflict.
  const typedFor = new Map();
  let lastTurn = Promise.resolve(); // the actas are handed to the queue in the order typed
  const LOOKUP_MS = 5000; // a lookup without an answer by then: the acta goes without it

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

  // The pairs named beside the juegos fields and in the winner's options (none: "A", "B").
  function showSides(data) {
    for (const side of ["a", "b"]) {
      const label = form.querySelector(`.entry-side[data-side="${side}"]`);
      const pair = data ? data["pair_" + side] : null;
      if (label) label.textContent = pair ? `${pair.number} ${pair.name}` : side.toUpperCase();
      const option = form.querySelector(`select[name=winner] option[value="${side}"]`);
      if (option) option.textContent = pair ? `${side.toUpperCase()} · ${pair.number} ${pair.name}` : sideTexts.get(option);
    }
  }

  function showLookup(data) {
    current = data;
    absent = null;
    version.value = data.version;
    card.replaceChildren();
    const pairs = el("div", { class: "entry-pairs" }, pairNode("A", data.pair_a),
      data.pair_b ? pairNode("B", data.pair_b) : el("div", { class: "entry-pair" }, t("bye")));
    card.append(pairs);
    if (data.outcome !== "pending" && !data.is_bye) {
      card.append(el("p", { class: "entry-current" }, t("current", {
        outcome: data.outcome_label, a: data.games_a ?? "–", b: data.games_b ?? "–", version: data.standing_version || data.version, by: data.standing_version ? data.standing_by : data.latest_by,
      })));
    }
    if (data.proposed) {
      card.append(el("p", { class: "entry-current" }, t("proposed", {
        a: data.proposed.games_a ?? "–", b: data.proposed.games_b ?? "–", by: data.proposed.by,
      })));
    }
    const notes = [...(data.clock_notes || []), ...(data.acta_notes || [])];
    if (notes.length) {
      // What the table's clock decided (AMM 6.1.b, 6.5.b) and the juez's sanctions (5.4): the acta
      // must say the same.
      card.append(el("ul", { class: "msg warning entry-clock" }, ...notes.map((note) => el("li", {}, note))));
    }
    if (data.disagreement && data.disagreement.length) {
      // Two actas that disagree (AMM 3.16): in red, both versions, and where the decision is taken.
      card.append(el("div", { class: "msg danger sc-disagreement" },
        el("p", {}, el("strong", {}, t("disagreement"))),
        el("ul", {}, ...data.disagreement.map((d) => el("li", {}, t("disagreement_version", {
          version: d.version, a: d.games_a ?? "–", b: d.games_b ?? "–", outcome: d.outcome_label, by: d.by,
        })))),
        el("p", {}, el("a", { href: url(form.dataset.history, data.id) + "#desacuerdo" }, t("disagreement_link")))));
    }
    if (data.next_prepared && data.outcome !== "pending") card.append(el("p", { class: "msg warning" }, t("prepared")));
    if (data.locked) {
      card.append(el("p", { class: "msg warning" }, t("locked")));
      more.open = true;
    }
    card.append(el("p", {}, el("a", { href: url(form.dataset.history, data.id) }, t("history"))));
    showSides(data);
  }

  function showNoMatch(message, value) {
    current = null;
    absent = value;
    version.value = "";
    card.replaceChildren(el("p", { class: "errorlist" }, message));
    showSides(null);
  }

  // Nothing known about the number in the table field (it changed, or the form was cleared).
  function clearMatch() {
    current = null;
    absent = null;
    version.value = "";
    card.replaceChildren(el("p", { class: "muted" }, t("hint")));
    showSides(null);
  }

  // GET a JSON resource of the API: {response, data} (data {} when the body is not JSON).
  async function getJSON(address, signal) {
    const response = await fetch(address,
      { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store", signal });
    const data = await response.json().catch(() => ({}));
    return { response, data };
  }

  // The match at a table: {ok, data}; null with no network answer (or aborted).
  function fetchMatch(value, signal) {
    return getJSON(`${form.dataset.lookup}?round=${round}&table=${value}`, signal).then(
      ({ response, data }) => {
        if (signal && signal.aborted) return null;
        if (response.ok && data && data.table !== undefined) {
          versions.set(String(data.table), data.version);
          matches.set(String(data.table), data);
        }
        return { ok: response.ok, data };
      },
      () => null);
  }

  // What this page last knew of a table, for an acta sent without a lookup's answer.
  function known(value) {
    const match = matches.get(value);
    return { ...(match || {}), table: value, version: versions.has(value) ? versions.get(value) : 0 };
  }

  // A promise's value, or null if it takes longer than `ms` (the venue's Wi-Fi that never answers).
  function within(promise, ms) {
    let timeout;
    return Promise.race([promise, new Promise((resolve) => { timeout = setTimeout(() => resolve(null), ms); })])
      .finally(() => clearTimeout(timeout));
  }

  // Forget the lookup in flight: its answer will be dropped (and the request aborted, unless an
  // acta being sent waits for it).
  function cancelLookup() {
    clearTimeout(timer);
    lookupSeq += 1;
    if (inflight && !inflight.claimed) inflight.controller.abort();
    inflight = null;
  }

  // Look up the number in the table field and show its pairs: {ok, data}, or null (not a number,
  // no network answer, or overtaken). The answer is shown only if it is the latest lookup's and the
  // field still holds that number; it never moves the cursor nor touches the juegos.
  function lookup() {
    clearTimeout(timer);
    const value = table.value.trim();
    if (!/^\d+$/.test(value)) { cancelLookup(); return Promise.resolve(null); }
    if (current && String(current.table) === value) return Promise.resolve({ ok: true, data: current });
    if (inflight && inflight.value === value) return inflight.promise;
    cancelLookup();
    const seq = lookupSeq;
    const entry = { value, controller: new AbortController(), claimed: false };
    entry.promise = fetchMatch(value, entry.controller.signal).then((answer) => {
      if (inflight === entry) inflight = null;
      if (seq !== lookupSeq || table.value.trim() !== value) return answer; // typed on meanwhile
      if (answer && answer.ok) showLookup(answer.data);
      else if (answer) showNoMatch(answer.data.detail || t("check"), value);
      // no network answer: sending the acta falls back to the plain form
      return answer;
    });
    inflight = entry;
    return entry.promise;
  }

  // The cursor goes on to the juegos at once, whether or not the pairs are there yet (unless the
  // answer already on screen says there is nothing to enter at this number).
  function goToGames() {
    const value = table.value.trim();
    if (!/^\d+$/.test(value)) return;
    lookup();
    if (absent === value || (current && String(current.table) === value && current.is_bye)) {
      table.select();
      return;
    }
    gamesA.focus();
    gamesA.select();
  }

  table.addEventListener("input", () => {
    clearTimeout(timer);
    const value = table.value.trim();
    if (current && String(current.table) === value) return;
    if (inflight && inflight.value === value) return;
    cancelLookup();
    if (current || absent !== null) clearMatch(); // the pairs on screen are another table's
    timer = setTimeout(lookup, 150);
  });

  table.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    goToGames();
  });

  gamesA.addEventListener("input", () => {
    // Juegos are one digit (a match is to 3 or 4, AMM 1.7.a): go straight on to pair B.
    if (/^\d$/.test(gamesA.value)) { gamesB.focus(); gamesB.select(); }
  });

  function clearErrors() {
    form.querySelectorAll(".js-error").forEach((node) => node.remove());
    form.querySelectorAll(".has-error").forEach((node) => node.classList.remove("has-error"));
  }

  function say(message, kind, ...extra) {
    feedback.replaceChildren(el("p", { class: "msg " + (kind || ""), role: kind === "error" ? "alert" : "status" },
      message, ...extra));
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
    if (first) focusRefused(first);
    return first;
  }

  // A refused value is selected with the cursor on it, so that what is typed next replaces it
  // (issue 34: «3» refused, then «30» typed, became «330»).
  function focusRefused(field) {
    field.focus();
    if (typeof field.select === "function") field.select();
  }

  // No table missing an acta: either every result counts, or some actas still wait for their
  // confirmation (double check, a pair's report) — one true sentence, not both.
  function allEntered(state) {
    const open = state.total === undefined ? 0 : state.total - state.decided;
    return open > 0 ? t("all_entered", { n: open }) : t("all_done");
  }

  // The lists of tables and their counters, from an answer of the API (one asked for before a
  // later one already shown is dropped).
  function renderState(state, ticket) {
    if (!state || ticket < stateShown) return;
    stateShown = ticket;
    for (const m of state.missing) if (!versions.has(String(m.table))) versions.set(String(m.table), 0);
    const missing = document.getElementById("entry-missing");
    if (missing) {
      missing.replaceChildren(...(state.missing.length ? state.missing.map((m) => el("li", {}, missingButton(m)))
        : [el("li", { class: "muted" }, allEntered(state))]));
    }
    const count = document.getElementById("missing-count");
    if (count) count.textContent = state.missing.length;
    const decided = document.getElementById("decided-count");
    if (decided && decided.dataset.template && state.total !== undefined) {
      decided.textContent = fill(decided.dataset.template, { d: state.decided, n: state.total });
    }
    const awaiting = document.getElementById("entry-awaiting");
    if (awaiting) {
      awaiting.replaceChildren(...(state.awaiting.length ? state.awaiting.map((a) =>
        el("li", {}, `${t("table", { table: a.table })}: ${a.score} ${a.outcome} `, el("small", { class: "muted" }, a.by),
          " ", awaitingAction(a)))
        : [el("li", { class: "muted" }, t("none"))]));
    }
    const waiting = document.getElementById("awaiting-count");
    if (waiting) waiting.textContent = state.awaiting.length;
  }

  // A table missing an acta; one whose last report the other pair refused to sign (AMM 3.16) is
  // marked, and says who refused it.
  function missingButton(m) {
    if (!m.refused_by) {
      return el("button", { type: "button", "data-table": m.table, title: `${m.a} – ${m.b || ""}` }, m.table);
    }
    const title = t("refused_title", { a: m.a, b: m.b || "", by: m.refused_by });
    return el("button", { type: "button", class: "refused", "data-table": m.table, title },
      `${m.table} `, el("small", {}, t("refused")));
  }

  // Beside an acta awaiting confirmation: two actas that disagree lead to the history, in red;
  // one's own entry is confirmed by somebody else, so it has no "confirmar".
  function awaitingAction(a) {
    if (a.disagreement) {
      return el("a", { class: "danger", href: url(form.dataset.history, a.id) + "#desacuerdo" }, t("disagreement_list"));
    }
    if (a.by && a.by === form.dataset.me) return el("small", { class: "muted" }, t("yours"));
    return el("a", { href: url(form.dataset.confirm, a.submission) }, t("confirm"));
  }

  async function refresh() {
    const ticket = ++stateSeq;
    try {
      const { response, data } = await getJSON(`${form.dataset.pending}?round=${round}`);
      if (response.ok) renderState(data, ticket);
    } catch (e) { /* the venue's network: try again later */ }
  }

  // What the form holds, field by field (and whether "Otros casos" was open).
  function typed() {
    const values = { open: more.open };
    for (const name of FIELDS) values[name] = $(name).value;
    return values;
  }

  function isBlank() {
    return ["table", "games_a", "games_b", "tantos", "reason"].every((name) => !$(name).value.trim())
      && ($("outcome").value || "played") === "played" && !$("winner").value;
  }

  // An empty form, the cursor on the table number: ready for the next acta.
  function clearForm() {
    cancelLookup();
    clearErrors();
    for (const name of ["table", "games_a", "games_b", "tantos", "reason", "version"]) $(name).value = "";
    $("outcome").value = "played";
    $("winner").value = "";
    more.open = false;
    clearMatch();
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

  // The acta as the API takes it, from what was typed and the match looked up at its table (its
  // version and pairs); null (and the form's messages shown) if it cannot be.
  function body(values, match) {
    const errors = {};
    if (!values.table.trim()) errors.table = [t("table_required")];
    const tantos = parseTantos(values.tantos);
    if (tantos === null) errors.tantos = [t("tantos")];
    if (Object.keys(errors).length) {
      say(t("check"), "error");
      showErrors(errors);
      return null;
    }
    match = match && String(match.table) === values.table.trim() ? match : null;
    const pair = match && values.winner ? match["pair_" + values.winner] : null;
    const seen = match ? match.version : integer(values.version);
    return {
      round: integer($("round").value) ?? integer(round),
      table: integer(values.table),
      version: seen ?? 0, // blank: "I saw no result", never overwrite one unseen
      outcome: values.outcome || "played",
      games_a: integer(values.games_a),
      games_b: integer(values.games_b),
      winner: pair ? pair.number : null,
      tantos,
      reason: values.reason,
      source: "control",
    };
  }

  // Put an acta back in the form (the cursor is placed by the caller).
  function restore(values, match) {
    cancelLookup();
    clearErrors();
    for (const name of FIELDS) $(name).value = values[name];
    more.open = values.open;
    if (match && String(match.table) === values.table.trim()) showLookup(match); else clearMatch();
    if (match) version.value = match.version;
  }

  // An acta the API did not take, back in the form with what the API said about it.
  function reopen({ values, match, status, data }) {
    if (status === 409) {
      // Someone else entered this table since it was loaded: show theirs, keep ours for a decision
      // (the version now seen goes with the next Enter, which then corrects it knowingly).
      restore(values, null);
      gamesA.focus();
      lookup().then(() => say(`${data.detail} ${t("conflict")}`, "error"));
      return;
    }
    restore(values, match);
    say(data.detail || t("check"), "error");
    if (status === 400) {
      const { code, ...errors } = data;
      if (!showErrors(errors)) table.focus();
      return;
    }
    table.focus();
  }

  // The answer to an acta the API did not take. If the form is still empty it comes back at once;
  // if the mesa has started on the next one, that stays and the page offers to go back to it.
  function refused(failure) {
    if (isBlank()) { reopen(failure); return; }
    const { code, ...rest } = failure.data;
    const why = failure.status === 400 ? messagesOf(rest).join(" ") : failure.data.detail || "";
    const back = el("button", { type: "button", class: "link" }, t("reopen", { table: failure.values.table.trim() }));
    back.addEventListener("click", () => reopen(failure));
    say(`${t("unsaved", { table: failure.values.table.trim() })} ${why || t("check")} `, "error", back);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors();
    const values = typed();
    if (!body(values, null)) return; // the form's own checks: nothing sent, the form as it was
    const value = values.table.trim();
    // The match at that table: the one on screen, or the lookup in flight for it (kept for this acta).
    let seen = null;
    if (current && String(current.table) === value) seen = Promise.resolve({ ok: true, data: current });
    else if (inflight && inflight.value === value) { inflight.claimed = true; seen = inflight.promise; }
    // The acta is read: the form is for the next one at once, whatever the network does meanwhile.
    clearForm();
    say(t("saving", { table: value }), "");
    // This acta's turn: handed to the queue after the ones typed before it, whatever their lookups do.
    const before = lastTurn;
    let done;
    lastTurn = new Promise((resolve) => { done = resolve; });
    let answer = seen ? await within(seen, LOOKUP_MS) : null;
    if (!answer && navigator.onLine !== false) {
      const controller = new AbortController();
      const timeout = setTimeout(() => controller.abort(), LOOKUP_MS);
      answer = await fetchMatch(value, controller.signal);
      clearTimeout(timeout);
    }
    const match = answer && answer.ok ? answer.data : null;
    // No lookup's answer (no network): the version last known for the table.
    const acta = body(values, answer ? match : known(value));
    const ticket = ++stateSeq;
    let sent = null;
    try {
      await before;
      sent = await post(acta, values);
    } catch (e) {
      sent = null;
    } finally {
      done();
    }
    if (!sent) {
      restore(values, match);
      form.submit(); // no network answer and nowhere to keep it: the plain form still works
      return;
    }
    if (sent.queued) {
      say(t("queued", { table: value }), "warning queued");
      return;
    }
    const { response } = sent;
    const data = sent.data || {};
    if (response.status === 201) {
      if (data.table !== undefined && data.version !== undefined) versions.set(String(data.table), data.version);
      say(data.message, "");
      renderState(data.state, ticket);
      return;
    }
    refused({ values, match, status: response.status, data });
  });

  // «Mesa 7: 3–1» (or the outcome, when there are no juegos): how the queue names the acta.
  function labelOf(acta) {
    let score = acta.games_a !== null && acta.games_b !== null ? `${acta.games_a}–${acta.games_b}` : "";
    if (acta.outcome !== "played") {
      const option = form.querySelector(`select[name=outcome] option[value="${acta.outcome}"]`);
      score = `${option ? option.textContent.trim() : acta.outcome} ${score}`.trim();
    }
    return `${t("table", { table: acta.table })}: ${score}`;
  }

  // The acta to the API, with a key of its own: through the queue ({queued: true} when kept on
  // this device), or (no queue on the page) a plain fetch, null when the network does not answer.
  async function post(acta, values) {
    if (queue) {
      const label = labelOf(acta);
      const sent = await queue.send({
        url: form.dataset.submit, method: "POST", body: acta, key: queue.newKey(), label, kind: "acta",
      });
      if (sent.queued) typedFor.set(label, values);
      return sent;
    }
    try {
      const response = await fetch(form.dataset.submit, {
        method: "POST",
        body: JSON.stringify(acta),
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": $("csrfmiddlewaretoken").value,
        },
      });
      return { queued: false, response, data: await response.json().catch(() => ({})) };
    } catch (e) {
      return null;
    }
  }

  // The queue has sent what was kept on this device: the lists refresh; the actas it could not
  // store (someone else entered the table meanwhile: 409; or refused) are listed with their tables
  // until the next sync, each with a way back to it.
  function synced(result) {
    const actas = (list) => list.filter((entry) => entry.kind === "acta");
    const stored = actas(result.stored);
    const problems = [...actas(result.conflicts), ...actas(result.refused)];
    if (!stored.length && !problems.length) return;
    for (const entry of stored) {
      const data = entry.data || {};
      if (data.table !== undefined && data.version !== undefined) versions.set(String(data.table), data.version);
    }
    refresh();
    if (feedback.querySelector(".queued")) say(t("synced"), "");
    let box = document.getElementById("entry-sync");
    if (!problems.length) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = el("div", { id: "entry-sync", class: "entry-sync" });
      feedback.after(box);
    }
    const item = (entry) => {
      const data = entry.data || {};
      const { code, detail, ...rest } = data;
      const why = entry.status === 409 ? `${detail || ""} ${t("conflict")}` : detail || messagesOf(rest).join(" ");
      const values = typedFor.get(entry.label);
      const number = values ? values.table.trim() : (/\d+/.exec(entry.label) || [""])[0];
      const back = el("button", { type: "button", class: "link" }, t("reopen", { table: number }));
      back.addEventListener("click", () => {
        if (values) reopen({ values, match: null, status: entry.status, data });
        else { table.value = number; table.dispatchEvent(new Event("input")); goToGames(); }
      });
      return el("li", {}, el("strong", {}, entry.label), ` — ${why.trim()} `, back);
    };
    const section = (list, title) => (list.length ? [el("p", {}, t(title)), el("ul", {}, ...list.map(item))] : []);
    box.replaceChildren(el("div", { class: "msg danger", role: "alert" },
      ...section(actas(result.conflicts), "syncConflicts"), ...section(actas(result.refused), "syncRefused")));
  }
  if (queue) queue.on("synced", synced);

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-table]");
    if (!button) return;
    clearErrors();
    table.value = button.dataset.table;
    table.dispatchEvent(new Event("input"));
    goToGames();
  });

  setInterval(() => { if (!document.hidden) refresh(); }, 8000);
  if (table.value && !current) lookup();
  // The page the server sent back with a refused entry (without the script's API): the first
  // refused field has the cursor, its value selected.
  const refusedField = form.querySelector(".has-error input:not([type=hidden]), .has-error select");
  if (refusedField) focusRefused(refusedField);
})();
