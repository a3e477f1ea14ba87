"""Issue 33 in a real browser: Web Push on the pair's phone. The phone opens its tarjeta, turns the
notifications on from its pair page («Recibir avisos en este dispositivo»: static/js/push-optin.js
subscribes through the service worker and gives the API its subscription), and the service worker
shows a push as a notification (static/js/sw.js). The push is delivered by DevTools
(``ServiceWorker.deliverPushMessage``): headless Chromium has no push service of its own, so the
browser's ``PushManager.subscribe`` is answered here with a subscription whose keys the test
holds (what the server then encrypts for it is tested against a local push service in
tests/torneo/test_push.py and test_notices.py)."""

import json
import urllib.request
from typing import Any

import pytest
import websocket
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.test_offline_pages_browser import _forget_the_worker, controlled
from tests.torneo.simulation import new_tournament
from torneo.models import PairTerminal, PushSubscription
from torneo.services.terminals import terminal_issue

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"


class DevTools:
    """The browser's DevTools socket, attached to the page's target (for the ServiceWorker domain,
    whose registrations arrive as events)."""

    def __init__(self, browser, url_prefix: str) -> None:
        address = browser.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as answer:
            endpoint = json.load(answer)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(endpoint, timeout=20, suppress_origin=True)
        self.sent = 0
        self.events: list[dict[str, Any]] = []
        pages = [
            t
            for t in self.send("Target.getTargets", {})["targetInfos"]
            if t["type"] == "page" and t["url"].startswith(url_prefix)
        ]
        assert pages, "no page"
        self.session = self.send("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True})[
            "sessionId"
        ]

    def send(
        self, method: str, params: dict[str, Any], session: str | None = None, *, check: bool = True
    ) -> dict[str, Any]:
        self.sent += 1
        message: dict[str, Any] = {"id": self.sent, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            answer = json.loads(self.socket.recv())
            if answer.get("id") == self.sent:
                assert not check or "error" not in answer, answer
                return answer.get("result", {})
            self.events.append(answer)

    def registration_ids(self, scope: str) -> list[str]:
        """The live service worker registrations of ``scope``, as ServiceWorker.enable reports them
        (the browser lives for the whole session: an earlier test's registration, unregistered, may
        still be reported for a moment besides this page's)."""
        self.send("ServiceWorker.enable", {}, self.session)
        self.socket.settimeout(1.0)
        try:
            while True:
                self.events.append(json.loads(self.socket.recv()))
        except websocket.WebSocketTimeoutException:
            pass
        finally:
            self.socket.settimeout(20)
        alive: dict[str, bool] = {}
        for event in self.events:
            if event.get("method") == "ServiceWorker.workerRegistrationUpdated":
                for reg in event["params"]["registrations"]:
                    if reg["scopeURL"] == scope:
                        alive[reg["registrationId"]] = not reg["isDeleted"]
        ids = [pk for pk, live in alive.items() if live]
        assert ids, self.events
        return ids

    def close(self) -> None:
        self.socket.close()


def notifications(browser) -> list[dict[str, Any]]:
    """What this origin's service workers show (of every registration: see `registration_ids`)."""
    return browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.getRegistrations()
          .then((rs) => Promise.all(rs.map((r) => r.getNotifications())))
          .then((lists) => done(lists.flat().map((n) => ({title: n.title, body: n.body, tag: n.tag, data: n.data}))));
        """
    )


def test_a_pair_phone_turns_notifications_on_and_its_worker_shows_a_push(browser, live_server):
    sim = new_tournament(8, seed=5)
    sim.play_round()
    pair = sim.tournament.pairs.get(number=1)
    issued = terminal_issue(pair=pair, by=sim.organizer)
    browser.set_window_size(390, 844)
    browser.set_script_timeout(20)
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/static/css/site.css")
    _forget_the_worker(browser)
    browser.execute_cdp_cmd(
        "Browser.grantPermissions", {"origin": live_server.url, "permissions": ["notifications"]}
    )
    tools = None
    try:
        browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/tarjeta/{issued.token}/")
        assert browser.current_url.endswith(f"/parejas/{pair.number}/ficha/")
        controlled(browser)
        # Headless Chromium has no push service: its PushManager answers with a subscription whose
        # keys are ours (the browser's own subscribe would fail with «push service error»).
        browser.execute_script(
            """
            const [endpoint, p256dh, auth] = arguments;
            PushManager.prototype.subscribe = function (options) {
              window.__subscribedWith = options && options.userVisibleOnly;
              return Promise.resolve({endpoint, unsubscribe: () => Promise.resolve(true),
                                      toJSON: () => ({endpoint, expirationTime: null, keys: {p256dh, auth}})});
            };
            """,
            "https://push.example.net/v2/telefono-1",
            P256DH,
            AUTH,
        )
        box = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "push-optin"))
        WebDriverWait(browser, 10).until(lambda b: box.is_displayed())
        box.find_element(By.CSS_SELECTOR, '[data-push="on"]').click()
        status = box.find_element(By.CLASS_NAME, "push-status")
        WebDriverWait(browser, 10).until(lambda b: status.text == "Avisos activados en este dispositivo.")
        assert browser.execute_script("return window.__subscribedWith;") is True
        row = PushSubscription.objects.get()
        assert row.user == PairTerminal.objects.get(pair=pair).user and row.tournament == sim.tournament
        assert (row.endpoint, row.p256dh, row.auth) == ("https://push.example.net/v2/telefono-1", P256DH, AUTH)

        # A push arrives: the worker shows it, and a newer one with the same tag replaces it.
        tools = DevTools(browser, live_server.url)
        registrations = tools.registration_ids(f"{live_server.url}/")
        for body in ("Contra Pareja 5", "Contra Pareja 6"):
            payload = {"title": "Ronda 2: mesa 3", "body": body, "url": "/torneos/x/parejas/1/ficha/", "tag": "r2"}
            for registration in registrations:  # the live one shows it (a stale one may refuse it)
                tools.send(
                    "ServiceWorker.deliverPushMessage",
                    {"origin": live_server.url, "registrationId": registration, "data": json.dumps(payload)},
                    tools.session,
                    check=False,
                )
            # Shown, and the newer one (same tag) replaces the older one.
            WebDriverWait(browser, 20).until(lambda b, body=body: {n["body"] for n in notifications(b)} == {body})
        for shown in notifications(browser):
            assert shown["title"] == "Ronda 2: mesa 3" and shown["tag"] == "r2"
            assert shown["data"]["url"] == f"{live_server.url}/torneos/x/parejas/1/ficha/"
    finally:
        if tools is not None:
            tools.close()
        browser.get(f"{live_server.url}/static/css/site.css")
        _forget_the_worker(browser)
        browser.delete_all_cookies()
