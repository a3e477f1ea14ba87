// «Recibir avisos en este dispositivo» (issue 33): turns Web Push on for the account signed in on
// this browser — the pair's phone, a player's account, a juez on the desk. The browser subscribes
// with the site's VAPID key (GET /api/v1/push/key/) through the service worker (static/js/sw.js,
// which shows the pushes) and hands the subscription to the API (POST /api/v1/push/subscriptions/,
// with the tournament it was turned on for); «Dejar de recibir avisos» unsubscribes and tells the
// API (DELETE). Shown only where the browser can (a service worker, PushManager, a secure page).
(function () {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) return;
  setUp();
  // static/js/live.js puts a fresh copy of the page in <main>: the box in it is new.
  const main = document.querySelector("main");
  if (main) main.addEventListener("live:updated", setUp);
})();

function setUp() {
  const box = document.getElementById("push-optin");
  if (!box || box.dataset.ready) return;
  box.dataset.ready = "1";
  const on = box.querySelector('[data-push="on"]');
  const off = box.querySelector('[data-push="off"]');
  const status = box.querySelector(".push-status");

  function csrf() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function api(method, url, body) {
    return fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
      body: JSON.stringify(body),
    }).then(function (response) {
      if (!response.ok && response.status !== 404) throw new Error("HTTP " + response.status);
      return response;
    });
  }

  function keyBytes(text) {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(padded);
    return Uint8Array.from(raw, function (c) {
      return c.charCodeAt(0);
    });
  }

  function show(subscribed, message) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    if (message !== undefined) status.textContent = message;
  }

  function subscribe() {
    on.disabled = true;
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") throw new Error("denied");
        return Promise.all([navigator.serviceWorker.ready, fetch(box.dataset.key).then((r) => r.json())]);
      })
      .then(function ([registration, key]) {
        return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.public_key) });
      })
      .then(function (subscription) {
        return api("POST", box.dataset.subscriptions, Object.assign(subscription.toJSON(), { tournament: box.dataset.tournament }));
      })
      .then(function () {
        show(true, box.dataset.on);
      })
      .catch(function (error) {
        show(false, error && error.message === "denied" ? box.dataset.denied : box.dataset.failed);
      })
      .finally(function () {
        on.disabled = false;
      });
  }

  function unsubscribe() {
    navigator.serviceWorker.ready
      .then((registration) => registration.pushManager.getSubscription())
      .then(function (subscription) {
        if (!subscription) return null;
        const endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(() => api("DELETE", box.dataset.subscriptions, { endpoint: endpoint }));
      })
      .then(function () {
        show(false, box.dataset.off);
      })
      .catch(function () {
        status.textContent = box.dataset.failed;
      });
  }

  on.addEventListener("click", subscribe);
  off.addEventListener("click", unsubscribe);
  box.hidden = false;
  navigator.serviceWorker.ready
    .then((registration) => registration.pushManager.getSubscription())
    .then(function (subscription) {
      show(Boolean(subscription) && Notification.permission === "granted");
    })
    .catch(function () {
      show(false);
    });
}
