"""Issue 33 in a real browser: when the venue's Wi-Fi fails, the public pages a phone has opened read
from their last copy, saying how old it is; a page it never opened shows the offline page; the staff's
pages and the pages rendered for someone signed in are never kept among them; the desks' and the pair
terminal's own pages are kept apart for the account signed in, until another account or nobody is
(static/js/sw.js, served at /sw.js).
The network is cut with DevTools (Network.emulateNetworkConditions offline), for the page and for
the service worker: the page's emulation does not reach the worker's own requests, which go through
its own DevTools target (reached on the browser's DevTools socket)."""

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import websocket
from django.conf import settings
from django.test import Client
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.waits import across_pages
from tests.torneo.simulation import new_tournament
from torneo.services.terminals import terminal_issue, terminal_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FALLBACK = "Sin conexión: esta página no se había abierto en este móvil."


class Network:
    """The phone's network, cut and back: the page's (Selenium's CDP commands) and the service
    workers' (each worker is a target of its own, attached through the browser's DevTools socket)."""

    def __init__(self, browser) -> None:
        self.browser = browser
        self.socket: Any = None
        self.sent = 0

    def _send(self, method: str, params: dict[str, Any], session: str | None = None) -> dict[str, Any]:
        self.sent += 1
        message: dict[str, Any] = {"id": self.sent, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            answer = json.loads(self.socket.recv())
            if answer.get("id") == self.sent:
                assert "error" not in answer, answer
                return answer["result"]

    def _emulate(self, send: Any, online: bool) -> None:
        send("Network.enable", {})
        conditions = {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        send("Network.emulateNetworkConditions", conditions)

    def cut(self) -> None:
        self._emulate(self.browser.execute_cdp_cmd, False)
        address = self.browser.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as answer:
            endpoint = json.load(answer)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(endpoint, timeout=20, suppress_origin=True)
        workers = [t for t in self._send("Target.getTargets", {})["targetInfos"] if t["type"] == "service_worker"]
        assert workers, "no service worker"
        for worker in workers:
            session = self._send("Target.attachToTarget", {"targetId": worker["targetId"], "flatten": True})
            self._emulate(lambda m, p, s=session["sessionId"]: self._send(m, p, s), False)

    def back(self) -> None:
        self._emulate(self.browser.execute_cdp_cmd, True)
        if self.socket is not None:
            self.socket.close()  # the workers' sessions end, and their emulation with them
            self.socket = None


def _forget_the_worker(browser) -> None:
    """No worker nor copies left for the next tests (the browser lives for the whole session)."""
    browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const workers = navigator.serviceWorker
          ? navigator.serviceWorker.getRegistrations().then((rs) => Promise.all(rs.map((r) => r.unregister())))
          : Promise.resolve();
        workers
          .then(() => caches.keys())
          .then((names) => Promise.all(names.map((n) => caches.delete(n))))
          .then(() => done(true), () => done(false));
        """
    )


@pytest.fixture
def phone(browser, live_server) -> Iterator[tuple[Any, Network]]:
    """A phone that has no worker and no copies yet (the browser lives for the whole session, and
    every page of the site registers the worker), left so for the next tests."""
    blank = f"{live_server.url}/static/css/site.css"  # a page that registers nothing
    browser.set_window_size(390, 844)
    browser.set_script_timeout(20)
    browser.delete_all_cookies()
    browser.get(blank)
    _forget_the_worker(browser)
    net = Network(browser)
    yield browser, net
    net.back()
    browser.get(blank)
    _forget_the_worker(browser)
    browser.delete_all_cookies()


def controlled(browser) -> None:
    """Wait until the service worker controls the page (it claims the pages once it is active)."""
    browser.execute_async_script(
        "const done = arguments[arguments.length - 1]; navigator.serviceWorker.ready.then(() => done(true));"
    )
    if not browser.execute_script("return !!navigator.serviceWorker.controller;"):
        browser.refresh()
    WebDriverWait(browser, 10).until(lambda b: b.execute_script("return !!navigator.serviceWorker.controller;"))


def kept(browser, url: str) -> bool:
    return browser.execute_async_script(
        """
        const [url, done] = arguments;
        caches.open("torneo-pages").then((c) => c.match(url)).then((r) => done(!!r), () => done(false));
        """,
        url,
    )


def age_the_copy(browser, url: str, minutes: int) -> None:
    """Make the kept copy of `url` look `minutes` older (what a phone would see later)."""
    browser.execute_async_script(
        """
        const [url, minutes, done] = arguments;
        caches.open("torneo-pages").then(async (cache) => {
          const old = await cache.match(url);
          const headers = new Headers(old.headers);
          const at = Date.parse(headers.get("X-Stored-At")) - minutes * 60000;
          headers.set("X-Stored-At", new Date(at).toISOString());
          await cache.put(url, new Response(await old.text(), { headers }));
          done(true);
        });
        """,
        url,
        minutes,
    )


def has_banner(browser) -> bool:
    """Whether the page says it is a copy (without the browser's implicit wait for what is absent)."""
    return bool(browser.execute_script("return !!document.getElementById('offline-copy');"))


def main_text(browser) -> str:
    return browser.find_element(By.TAG_NAME, "main").text


def test_a_phone_reads_the_public_pages_it_opened_without_network(live_server, phone):
    browser, net = phone
    sim = new_tournament(8, seed=5)
    round_ = sim.play_round()
    base = f"{live_server.url}/torneos/{sim.tournament.slug}"
    standings, draw, pair_page = f"{base}/clasificacion/", f"{base}/rondas/{round_.number}/", f"{base}/parejas/1/ficha/"
    first = round_.matches.select_related("pair_a").order_by("table_number").first()

    browser.get(standings)
    controlled(browser)
    online = {}
    for url in (standings, draw, pair_page):
        browser.get(url)
        online[url] = main_text(browser)
        assert not has_banner(browser)  # from the network: no banner
        WebDriverWait(browser, 10).until(lambda b, url=url: kept(b, url))
    assert first.pair_a.display_name in online[draw]

    net.cut()
    for url in (standings, draw, pair_page):
        browser.get(url)
        banner = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "offline-copy"))
        assert banner.text == "Sin conexión: copia de hace menos de un minuto"
        assert banner.find_element(By.XPATH, "..").tag_name == "main"  # at the top of <main>
        assert main_text(browser).removeprefix(banner.text).strip() == online[url].strip()

    age_the_copy(browser, draw, 7)
    browser.get(draw)
    banner = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "offline-copy"))
    assert banner.text == "Sin conexión: copia de hace 7 min"
    assert first.pair_a.display_name in main_text(browser)

    # A page this phone never opened: the offline page, with the pages it can read.
    browser.get(f"{base}/resultados/")
    assert FALLBACK in main_text(browser)
    saved = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "offline-saved"))
    WebDriverWait(browser, 10).until(lambda b: saved.is_displayed())
    links = {a.get_attribute("href") for a in saved.find_elements(By.TAG_NAME, "a")}
    assert {standings, draw, pair_page} <= links

    # The network is back: the page comes from the server again, without the banner.
    net.back()
    browser.get(standings)
    assert not has_banner(browser)


def test_the_staffs_pages_are_never_kept_and_a_public_page_read_signed_in_only_for_that_account(live_server, phone):
    """The organizer's dashboard is never kept. The results, read by the organizer (their name, a
    token in the page), are never among the public copies: kept apart for that account, readable
    without network while it is signed in on the device, gone when it signs out."""
    browser, net = phone
    sim = new_tournament(8, seed=6)
    sim.play_round()
    base = f"{live_server.url}/torneos/{sim.tournament.slug}"
    client = Client()
    client.force_login(sim.organizer)
    browser.get(f"{live_server.url}/static/css/site.css")
    browser.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )
    browser.add_cookie({"name": "django_language", "value": "es"})

    dashboard, results = f"{base}/gestion/", f"{base}/resultados/"
    browser.get(dashboard)
    controlled(browser)
    staff_page = main_text(browser)
    assert FALLBACK not in staff_page
    browser.get(results)  # a public page, rendered for the organizer (their name, a token)
    assert FALLBACK not in main_text(browser)
    settled(browser)
    assert not kept(browser, dashboard)
    assert not kept(browser, results)
    assert kept_private(browser) == [results]  # the organizer's own copy; the dashboard: never

    net.cut()
    browser.get(dashboard)
    assert FALLBACK in main_text(browser)
    assert not has_banner(browser)
    browser.get(results)
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "offline-copy"))
    net.back()

    browser.delete_all_cookies()  # signed out: the next page the server sends is for nobody
    browser.get(f"{base}/clasificacion/")
    settled(browser)
    assert kept_private(browser) == []


def kept_private(browser) -> list[str]:
    """The desk's and terminal's copies kept for the account signed in (static/js/sw.js, PRIVATE)."""
    return browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        caches.open("torneo-private").then((c) => c.keys())
          .then((keys) => done(keys.map((r) => r.url)), () => done([]));
        """
    )


def settled(browser) -> None:
    """What the worker stores after a page (it reads the answer after the page has it)."""
    browser.execute_async_script("const done = arguments[arguments.length - 1]; setTimeout(() => done(true), 1000);")


def test_a_pairs_terminal_keeps_its_own_page_for_its_account_until_another_signs_in(live_server, phone):
    """The pair's page opened from its tarjeta is the terminal's app shell: kept for that account
    only (never among the public copies), read back without network, and deleted as soon as the
    server sends a page for another account (another pair's tarjeta on the phone) or for nobody."""
    browser, net = phone
    sim = new_tournament(8, seed=7)
    sim.play_round()
    first, second = sim.tournament.pairs.order_by("number")[:2]
    card = terminal_issue(pair=first, by=sim.organizer)
    browser.get(live_server.url + terminal_url(sim.tournament, card.token).removeprefix(settings.SITE_URL))
    pair_page = f"{live_server.url}/torneos/{sim.tournament.slug}/parejas/{first.number}/ficha/"
    assert browser.current_url == pair_page  # the link signed this phone in, then went to the pair's page
    controlled(browser)
    browser.get(pair_page)
    online = main_text(browser)
    assert first.display_name in online
    settled(browser)
    assert not kept(browser, pair_page)  # never among the public copies
    assert kept_private(browser) == [pair_page]
    standings = f"{live_server.url}/torneos/{sim.tournament.slug}/clasificacion/"
    browser.get(standings)  # the phone reads the standings too: kept for this account
    settled(browser)
    assert not kept(browser, standings) and set(kept_private(browser)) == {pair_page, standings}

    net.cut()
    for url in (pair_page, standings):
        browser.get(url)
        banner = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "offline-copy"))
        assert banner.text == "Sin conexión: copia de hace menos de un minuto"
        assert first.display_name in main_text(browser)
    net.back()

    # Another pair's tarjeta opened on this phone: the first pair's copies go at once.
    other = terminal_issue(pair=second, by=sim.organizer)
    browser.get(live_server.url + terminal_url(sim.tournament, other.token).removeprefix(settings.SITE_URL))
    browser.find_element(By.XPATH, f"//button[contains(., 'Usar este móvil para la pareja {second.number}')]").click()
    WebDriverWait(browser, 10).until(lambda b: b.current_url.endswith(f"/parejas/{second.number}/ficha/"))
    settled(browser)
    theirs = f"{live_server.url}/torneos/{sim.tournament.slug}/parejas/{second.number}/ficha/"
    assert kept_private(browser) == [theirs]
    net.cut()
    browser.get(pair_page)
    assert FALLBACK in main_text(browser)
    net.back()

    # Signed out (a page for nobody): nothing of the terminal's is left on the phone.
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/clasificacion/")
    settled(browser)
    assert kept_private(browser) == []


def test_the_mesas_desk_reloads_without_network_and_is_forgotten_when_the_mesa_signs_out(live_server, phone):
    """The result desk is the mesa's app shell: reloaded without network it shows its last copy
    (and its queue keeps the actas typed); «Salir» deletes it from the device."""
    from tests.factories import UserFactory, grant

    browser, net = phone
    sim = new_tournament(8, seed=8)
    sim.play_round()
    mesa = grant(UserFactory(username="mesa-offline"), sim.tournament, "control")
    client = Client()
    client.force_login(mesa)
    browser.get(f"{live_server.url}/static/css/site.css")
    browser.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )
    desk = f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/"
    browser.get(desk)
    controlled(browser)
    browser.get(desk)
    settled(browser)
    assert kept_private(browser) == [desk] and not kept(browser, desk)

    net.cut()
    browser.get(desk)
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "offline-copy"))
    assert browser.find_element(By.ID, "id_table").is_displayed()  # the desk's form, ready to type
    WebDriverWait(browser, 10).until(lambda b: b.execute_script("return !!window.TorneoQueue"))
    net.back()

    browser.get(desk)
    browser.find_element(By.XPATH, "//button[contains(., 'Salir')]").click()
    across_pages(browser, 10).until(lambda b: "Salir" not in b.find_element(By.TAG_NAME, "header").text)
    settled(browser)
    assert kept_private(browser) == []
    net.cut()
    browser.get(desk)
    assert FALLBACK in main_text(browser)
