// The pair's terminal without network (issue 33): the result reported and the rivals' confirmation
// are sent through the API with an Idempotency-Key (static/js/offline-queue.js, TorneoQueue). With
// no connection the write is kept on this phone, in order, and sent when the connection returns;
// the page says so at once. Sent twice (a retry, a lost answer) it is stored once.
// Forms opt in with data-offline-api (the API address) and data-offline-kind ("report", "confirm",
// "checkin": the venue's code, valid for its five minutes and the next five, or "juego": a juego
// tapped on the table's clock, sent with the moment it was tapped); a report form also has data-offline-match, data-offline-back (where to go once
// stored) and data-offline-label; the texts are the form's data-msg-* (translated by the page).
// Whatever the server refuses (a 4xx) goes through the plain form instead, so the page shows its
// usual messages; without this script (or TorneoQueue) the plain forms work as before.
(function () {
  if (!window.TorneoQueue) return;
  const forms = document.querySelectorAll("form[data-offline-api]");
  if (!forms.length) return;

  // As scoring.forms.results.parse_tantos: "40-32 38-40, 40-12" → [[40, 32], [38, 40], [40, 12]].
  function parseTantos(text) {
    const parts = (text || "").split(/[\s,;]+/).filter(Boolean);
    const out = [];
    for (const part of parts) {
      const m = /^(\d{1,2})[-–:/](\d{1,2})$/.exec(part);
      if (!m) return null;
      out.push([Number(m[1]), Number(m[2])]);
    }
    return out;
  }

  function say(form, text, kind) {
    let box = form.querySelector(".offline-note");
    if (!box) {
      box = document.createElement("p");
      box.className = "offline-note";
      box.setAttribute("role", "status");
      form.prepend(box);
    }
    box.className = `offline-note msg ${kind || "info"}`;
    box.textContent = text;
  }

  // A juego tapped: when, in the server's clock (static/js/clocks.js keeps the offset), so that a tap
  // sent later, when the connection returns, counts from the moment it was made (within 10 minutes:
  // scoring.services.clocks.tap_moment).
  function tappedAt() {
    const now = window.TorneoClocks ? window.TorneoClocks.serverNow() : Date.now();
    return new Date(now).toISOString();
  }

  function body(form) {
    const value = (name) => (form.elements.namedItem(name) || {}).value || "";
    if (form.dataset.offlineKind === "checkin") return { codigo: value("codigo").trim() };
    if (form.dataset.offlineKind === "juego") {
      // The juego it is for, as the page showed the score: a tap that arrives after the score moved
      // on (another phone, a repeat) is refused, never counted again.
      const number = Number(value("number"));
      return Number.isInteger(number) && number > 0
        ? { winner: value("winner"), tapped_at: tappedAt(), number }
        : { winner: value("winner"), tapped_at: tappedAt() };
    }
    if (form.dataset.offlineKind !== "report") return {};
    const out = {
      match: Number(form.dataset.offlineMatch),
      games_a: Number(value("games_a")),
      games_b: Number(value("games_b")),
    };
    const tantos = parseTantos(value("tantos"));
    if (tantos === null) return null;
    if (tantos.length) out.tantos = tantos;
    return out;
  }

  for (const form of forms) {
    form.addEventListener("submit", async (event) => {
      if (form.dataset.offlineSending === "plain") return; // the fallback: a plain POST
      event.preventDefault();
      const data = body(form);
      const games = form.dataset.offlineKind === "report" ? [data && data.games_a, data && data.games_b] : [0, 0];
      if (data === null || games.some((n) => !Number.isInteger(n))) {
        plain(form); // let the server say what is wrong, in its own words
        return;
      }
      const button = form.querySelector("button[type=submit]");
      if (button) button.disabled = true;
      let label = form.dataset.offlineLabel || "";
      if (form.dataset.offlineKind === "report") label = `${label} ${data.games_a}–${data.games_b}`.trim();
      const sent = await window.TorneoQueue.send({
        url: form.dataset.offlineApi,
        method: "POST",
        body: data,
        key: window.TorneoQueue.newKey(),
        label,
        kind: form.dataset.offlineKind,
      });
      if (sent.queued) {
        say(form, form.dataset.msgQueued || "", "warning");
        if (button) button.disabled = false;
        // A juego kept that counts when it arrives (the rivals' juego, a claim confirmed: not one's
        // own claim, data-offline-counts): the next tap on this page is for the juego after it.
        if (form.dataset.offlineKind === "juego" && form.dataset.offlineCounts !== undefined) {
          for (const field of document.querySelectorAll("form[data-offline-kind=juego] input[name=number]")) {
            field.value = String(Number(field.value) + 1);
          }
        }
        return;
      }
      if (sent.response && sent.response.ok) {
        // What the plain form's page would have said: by the acta's state (data-msg-<state>).
        const kind = form.dataset.offlineKind;
        let state = kind === "checkin" ? "" : (sent.data && sent.data.status) || "";
        if (kind === "juego") state = sent.response.status === 202 ? "claimed" : ""; // waits for the rivals
        const key = `msg${state.charAt(0).toUpperCase()}${state.slice(1)}`;
        const message = form.dataset[key] || form.dataset.msgDone || "";
        if (message) window.TorneoQueue.flash(message, state === "disputed" ? "warning" : "success");
        window.location.assign(form.dataset.offlineBack || window.location.href);
        return;
      }
      plain(form);
    });
  }

  function plain(form) {
    form.dataset.offlineSending = "plain";
    HTMLFormElement.prototype.submit.call(form);
  }
})();
