// Writes that survive the venue's Wi-Fi (issue 33): window.TorneoQueue sends a JSON write to the API
// with an Idempotency-Key (torneo/idempotency.py: the same key is stored once, whatever happens to
// the answer). Without a connection the write is kept in IndexedDB ("torneo-offline", store
// "writes"), in order, and sent when the connection returns (the `online` event, the page's load,
// and every 15 s while something waits); a write queued behind others never overtakes them.
//   TorneoQueue.newKey()                       a fresh key (a UUID)
//   TorneoQueue.send({url, method, body, key, label, kind})
//       → {queued: false, response, data} when the server answered (any status), or {queued: true}
//   TorneoQueue.pending() → the number waiting;  TorneoQueue.flush() → {stored, conflicts, refused}
//   TorneoQueue.on("change", fn(count)) / on("synced", fn(result))
//   TorneoQueue.flash(message, kind)           a message the next page shows once
// A banner at the top of <main> says what waits («Sin conexión — 3 envíos por enviar») and, after
// a sync, what was stored, what conflicted (a 409: someone else wrote it meanwhile) and what was
// refused; its texts come translated from the page (#offline-strings).
// Each write is the account's that made it (#offline-strings' data-account): a phone that signs in
// as someone else meanwhile (another pair's card, a player's own account) never sends it under
// that account; it waits, uncounted, until its own account is signed in on this device again.
(function () {
  const DB = "torneo-offline";
  const STORE = "writes";
  const strings = (() => {
    const node = document.getElementById("offline-strings");
    try {
      return node ? JSON.parse(node.textContent) : {};
    } catch (e) {
      return {};
    }
  })();
  const account = (document.getElementById("offline-strings") || { dataset: {} }).dataset.account || "";
  const mine = (write) => (write.account || "") === account;
  const text = (key, values) =>
    (strings[key] || "").replace(/\{(\w+)\}/g, (_, name) => (values && name in values ? values[name] : ""));
  const listeners = { change: [], synced: [] };
  const emit = (name, value) => listeners[name].forEach((fn) => fn(value));
  let flushing = null;

  function open() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  async function tx(mode, work) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const t = db.transaction(STORE, mode);
      const result = work(t.objectStore(STORE));
      t.oncomplete = () => {
        db.close();
        resolve(result && "result" in result ? result.result : undefined);
      };
      t.onerror = () => reject(t.error);
    });
  }

  const everything = () => tx("readonly", (store) => store.getAll());
  const all = async () => (await everything()).filter(mine);
  const put = (write) => tx("readwrite", (store) => store.add(write));
  const remove = (seq) => tx("readwrite", (store) => store.delete(seq));

  function csrf() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  // A request the venue's Wi-Fi holds without answering counts as no network once TIMEOUT_MS have
  // passed: the write is kept and sent again with its key (the server stores it once).
  const TIMEOUT_MS = 20000;
  async function post(write) {
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), TIMEOUT_MS);
    let response;
    try {
      response = await fetch(write.url, {
        method: write.method || "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "Idempotency-Key": write.key,
          "X-CSRFToken": csrf(),
        },
        body: JSON.stringify(write.body || {}),
        signal: controller.signal,
      });
    } finally {
      clearTimeout(timeout);
    }
    let data = null;
    try {
      data = await response.clone().json();
    } catch (e) {
      data = null;
    }
    return { response, data };
  }

  async function pending() {
    try {
      return (await all()).length;
    } catch (e) {
      return 0;
    }
  }

  async function changed() {
    const count = await pending();
    banner(count, null);
    emit("change", count);
    return count;
  }

  // One send at a time, in the order asked: a write never overtakes an earlier one still deciding
  // whether to wait (two actas typed one after the other, the network gone for both).
  let sending = Promise.resolve();
  function send(write) {
    const run = sending.then(() => sendNow(write || {}));
    sending = run.catch(() => {});
    return run;
  }

  async function sendNow({ url, method = "POST", body = {}, key, label = "", kind = "" }) {
    const write = { url, method, body, key: key || newKey(), label, kind, account, at: new Date().toISOString() };
    const waiting = await pending();
    if (!waiting && navigator.onLine !== false) {
      try {
        const answer = await post(write);
        return { queued: false, ...answer };
      } catch (e) {
        // no network: kept below
      }
    }
    await put(write);
    await changed();
    schedule();
    return { queued: true };
  }

  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function flushOnce() {
    const result = { stored: [], conflicts: [], refused: [] };
    const inFlight = (answer) =>
      answer.response.status === 409 && answer.data && answer.data.code === "idempotency_in_flight";
    let stopped = false;
    const done = new Set();
    // Until nothing waits (a write queued while this flush was sending is sent too), or the first
    // one that cannot be sent yet: it and those behind it wait for the next flush.
    while (!stopped) {
      const writes = (await all()).filter((w) => !done.has(w.seq)).sort((a, b) => a.seq - b.seq);
      if (!writes.length) break;
      for (const write of writes) {
        let answer = null;
        for (let attempt = 0; attempt < 10; attempt++) {
          try {
            answer = await post(write);
          } catch (e) {
            answer = null;
            break; // still no network: this one and the rest wait
          }
          if (!inFlight(answer)) break;
          await wait(1000); // the first send with this key is still being answered
        }
        const status = answer && answer.response.status;
        // No network, still in flight, or an answer that is not final (the server did not keep
        // it: 5xx, 401/403/408/429): try again later.
        if (answer === null || inFlight(answer) || status >= 500 || [401, 403, 408, 429].includes(status)) {
          stopped = true;
          break;
        }
        await remove(write.seq);
        done.add(write.seq);
        const entry = { label: write.label, kind: write.kind, status, data: answer.data };
        if (status < 300) result.stored.push(entry);
        else if (status === 409) result.conflicts.push(entry);
        else result.refused.push(entry);
      }
    }
    const count = await pending();
    if (result.stored.length || result.conflicts.length || result.refused.length) {
      banner(count, result);
      emit("synced", result);
    } else {
      banner(count, null);
    }
    emit("change", count);
    return result;
  }

  function flush() {
    if (!flushing) flushing = flushOnce().finally(() => (flushing = null));
    return flushing;
  }

  let timer = null;
  function schedule() {
    if (timer) return;
    timer = setInterval(async () => {
      if (!(await pending())) {
        clearInterval(timer);
        timer = null;
        return;
      }
      flush();
    }, 15000);
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = new Uint8Array(16);
    (window.crypto || {}).getRandomValues ? crypto.getRandomValues(bytes) : bytes.forEach((_, i) => (bytes[i] = Math.random() * 256));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function banner(count, result) {
    const main = document.querySelector("main");
    if (!main) return;
    let box = document.getElementById("offline-banner");
    if (!box) {
      box = document.createElement("div");
      box.id = "offline-banner";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      main.prepend(box);
    }
    const parts = [];
    if (count) parts.push(text(count === 1 ? "waiting_one" : "waiting_many", { n: count }));
    if (result) {
      if (result.stored.length) parts.push(text("stored", { n: result.stored.length }));
      if (result.conflicts.length)
        parts.push(text("conflicts", { n: result.conflicts.length, list: result.conflicts.map((e) => e.label).join(", ") }));
      if (result.refused.length)
        parts.push(text("refused", { n: result.refused.length, list: result.refused.map((e) => e.label).join(", ") }));
    }
    box.textContent = parts.join(" · ");
    box.hidden = !parts.length;
    box.className = result && result.conflicts.length ? "offline-banner danger" : count ? "offline-banner warning" : "offline-banner";
  }

  // A message for the next page (what the server's flash messages do for a plain form): the page
  // that sent through the API goes on to another, which shows it once.
  const FLASH = "torneo-flash";
  function flash(message, kind) {
    try {
      sessionStorage.setItem(FLASH, JSON.stringify({ message, kind: kind || "success" }));
    } catch (e) {
      // private mode without storage: the next page simply shows its state
    }
  }
  function showFlash() {
    let saved = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(FLASH) || "null");
      sessionStorage.removeItem(FLASH);
    } catch (e) {
      saved = null;
    }
    const main = document.querySelector("main");
    if (!saved || !saved.message || !main) return;
    let list = main.querySelector("ul.messages");
    if (!list) {
      list = document.createElement("ul");
      list.className = "messages";
      main.prepend(list);
    }
    const item = document.createElement("li");
    item.className = `msg ${saved.kind}`;
    item.setAttribute("role", "status");
    item.textContent = saved.message;
    list.append(item);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showFlash);
  else showFlash();

  window.TorneoQueue = {
    newKey,
    send,
    pending,
    flush,
    flash,
    on: (name, fn) => listeners[name] && listeners[name].push(fn),
  };
  window.addEventListener("online", () => flush());
  window.addEventListener("load", async () => {
    if (await pending()) {
      await changed();
      schedule();
      flush();
    }
  });
})();
