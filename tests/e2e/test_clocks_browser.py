"""The match clocks in a real browser (static/js/clocks.js): the wall counts down by itself with no
request per second, its colours follow the phase as time passes (6.4 ajustes, past the maximum),
a loss of connection keeps the countdown running with a «sin conexión» mark, the juez pauses a
table and its countdown stops (3.15), the envite timer counts in the browser (3.7), and a player
taps a juego from a 390 px phone."""

import datetime
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from scoring.models import ClockJuego, ClockPause
from scoring.services import clocks as svc
from tests.e2e.waits import left_the_page
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round, world_match
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = 390


def ago(minutes: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(minutes=minutes)


def seconds(text: str) -> int:
    """ "12:05" → 725 (left); "+01:10" → −70 (past the maximum)."""
    found = re.fullmatch(r"(\+?)(\d+):(\d\d)", text.strip())
    assert found, f"no es un tiempo: {text!r}"
    value = int(found[2]) * 60 + int(found[3])
    return -value if found[1] else value


def round_with_clocks(pairs: int = 6):
    sim = new_tournament(pairs, seed=51, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez"), sim.tournament, "juez")
    return sim, round_, juez, playing(round_)


def open_page(browser, live_server, path: str, width: int = 1000) -> None:
    browser.set_window_size(width, 900)
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "django_language", "value": "es"})
    browser.get(f"{live_server.url}{path}")


def log_in(browser, live_server, username: str, width: int = 1000) -> None:
    browser.set_window_size(width, 900)
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/cuenta/entrar/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys("clave-de-prueba" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "/cuenta/entrar/" not in d.current_url)


def card(browser, match):
    return browser.find_element(By.CSS_SELECTOR, f'[data-clock="{match.pk}"]')


def time_of(browser, match) -> str:
    return card(browser, match).find_element(By.CSS_SELECTOR, ".ck-time").text


def wall(sim, **query: object) -> str:
    extra = "&".join(f"{k}={v}" for k, v in query.items())
    return f"/torneos/{sim.tournament.slug}/relojes/" + (f"?{extra}" if extra else "")


@contextmanager
def offline(browser) -> Iterator[None]:
    """No network for the page (the DevTools protocol's emulation), then back."""
    browser.execute_cdp_cmd("Network.enable", {})
    conditions = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {**conditions, "offline": False})


def test_the_wall_counts_down_in_the_browser(live_server, browser):
    sim, round_, juez, matches = round_with_clocks()
    svc.clocks_start_round(round=round_, by=juez, at=ago(20))
    open_page(browser, live_server, wall(sim))
    first = seconds(time_of(browser, matches[0]))
    assert 39 * 60 <= first <= 40 * 60
    requests_before = browser.execute_script("return performance.getEntriesByType('resource').length;")
    time.sleep(1.1)
    second = seconds(time_of(browser, matches[0]))
    assert 1 <= first - second <= 2  # counting down, by itself
    time.sleep(1.0)
    assert seconds(time_of(browser, matches[0])) < second
    requests_after = browser.execute_script("return performance.getEntriesByType('resource').length;")
    assert requests_after - requests_before <= 1  # no request per second (live.js may poll once)
    assert all(seconds(time_of(browser, m)) == seconds(time_of(browser, matches[0])) for m in matches)


def test_the_colours_follow_the_phase_as_time_passes_amm_6_4(live_server, browser):
    sim, round_, juez, matches = round_with_clocks()
    svc.clock_start(match=matches[1], by=juez, at=ago(50 - 3 / 60))  # not yet: in 3 seconds
    svc.clocks_start_round(round=round_, by=juez, at=ago(55))  # the others: ajustes from the start
    open_page(browser, live_server, wall(sim))
    assert "ck-phase-ajustes" in card(browser, matches[0]).get_attribute("class")
    assert card(browser, matches[0]).find_element(By.CSS_SELECTOR, ".ck-status").text == "Ajustes de terminación"
    later = card(browser, matches[1])
    assert "ck-phase-normal" in later.get_attribute("class")
    assert "6.2: máximo 60 minutos" in later.find_element(By.CSS_SELECTOR, ".ck-notes").text
    WebDriverWait(browser, 8).until(lambda b: "ck-phase-ajustes" in card(b, matches[1]).get_attribute("class"))
    later = card(browser, matches[1])
    assert later.find_element(By.CSS_SELECTOR, ".ck-status").text == "Ajustes de terminación"
    assert seconds(later.find_element(By.CSS_SELECTOR, ".ck-time").text) <= 600
    colour = browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor;", later)
    assert colour == "rgb(255, 248, 230)"  # the amber of the adjustments


def test_past_the_maximum_the_time_reads_plus_and_turns_red_amm_6_2(live_server, browser):
    sim, _round, juez, matches = round_with_clocks()
    svc.clock_start(match=matches[0], by=juez, at=ago(60 - 2 / 60))  # the maximum in 2 seconds
    open_page(browser, live_server, wall(sim))
    assert seconds(time_of(browser, matches[0])) > 0
    WebDriverWait(browser, 8).until(lambda b: time_of(b, matches[0]).startswith("+"))
    target = card(browser, matches[0])
    WebDriverWait(browser, 3).until(lambda b: "ck-phase-excedido" in card(b, matches[0]).get_attribute("class"))
    assert (
        "6.5: a los 10 minutos de exceso se termina la partida"
        in target.find_element(By.CSS_SELECTOR, ".ck-notes").text
    )
    assert "ck-phase-pendiente" in card(browser, matches[1]).get_attribute("class")  # not started
    assert time_of(browser, matches[1]) == "60:00"


def test_a_loss_of_connection_keeps_the_countdown_running(live_server, browser):
    sim, round_, juez, matches = round_with_clocks()
    svc.clocks_start_round(round=round_, by=juez, at=ago(30))
    open_page(browser, live_server, wall(sim, intervalo=1000))  # a refresh every second, for the test
    mark = browser.find_element(By.CSS_SELECTOR, ".ck-offline")
    assert not mark.is_displayed()
    with offline(browser):
        WebDriverWait(browser, 6).until(lambda b: b.find_element(By.CSS_SELECTOR, ".ck-offline").is_displayed())
        assert browser.find_element(By.CSS_SELECTOR, ".ck-offline").text == "sin conexión"
        first = seconds(time_of(browser, matches[0]))
        time.sleep(1.2)
        assert seconds(time_of(browser, matches[0])) < first  # still counting
    WebDriverWait(browser, 8).until(lambda b: not b.find_element(By.CSS_SELECTOR, ".ck-offline").is_displayed())
    assert 29 * 60 <= seconds(time_of(browser, matches[0])) <= 30 * 60


def test_the_wall_takes_the_new_data_from_the_api_amm_6_4_b(live_server, browser):
    """A juego tapped at the table reaches the wall: the score and the rule in force (the words the
    script writes are the server's)."""
    sim, round_, juez, matches = round_with_clocks()
    svc.clocks_start_round(round=round_, by=juez, at=ago(57))
    match = matches[0]
    for winner, minutes in (("A", 47), ("B", 37)):
        svc.clock_juego(match=match, by=juez, winner=winner, at=ago(minutes))
    open_page(browser, live_server, wall(sim, intervalo=1000))
    notes = card(browser, match).find_element(By.CSS_SELECTOR, ".ck-notes")
    assert "6.4.c: juegos a 10 o 5 tantos; tras empate, juego final" in notes.text  # 1-1: three juegos left
    # live.js off (it would bring the whole page again): only the API's answers can bring the news.
    browser.execute_script("document.querySelector('main').removeAttribute('data-live');")
    svc.clock_juego(match=match, by=juez, winner="A", at=ago(27))  # a late tap: 2-1 when the window opened
    WebDriverWait(browser, 8).until(lambda b: card(b, match).find_element(By.CSS_SELECTOR, ".ck-score-a").text == "2")
    WebDriverWait(browser, 4).until(
        lambda b: (
            "6.4.b: si empatan, último juego a 20 tantos"
            in card(b, match).find_element(By.CSS_SELECTOR, ".ck-notes").text
        )
    )
    assert notes.text.startswith("6.4.b")  # the same element: written by the script, no page swap
    asked = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
    assert any(f"/api/v1/tournaments/{sim.tournament.slug}/clocks/?round=1" in name for name in asked)


def test_the_juez_pauses_a_table_and_its_countdown_stops_amm_3_15(live_server, browser):
    sim, round_, juez, matches = round_with_clocks()
    svc.clocks_start_round(round=round_, by=juez, at=ago(20))
    match = matches[1]
    log_in(browser, live_server, "juez")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/relojes/")
    section = browser.find_element(By.CSS_SELECTOR, f'section.ck-manage:has([data-clock="{match.pk}"])')
    section.find_element(By.NAME, "reason").send_keys("Cambio de baraja")
    button = section.find_element(By.XPATH, ".//button[contains(., 'Parar el reloj')]")
    button.click()
    WebDriverWait(browser, 5).until(left_the_page(button))
    assert (
        f"Mesa {match.table_number}: reloj parado (AMM 3.15)."
        in browser.find_element(By.CSS_SELECTOR, ".messages").text
    )
    paused = card(browser, match)
    assert "ck-paused" in paused.get_attribute("class")
    assert paused.find_element(By.CSS_SELECTOR, ".ck-status").text == "Parado"
    assert "3.15: reloj parado — Cambio de baraja" in paused.find_element(By.CSS_SELECTOR, ".ck-notes").text
    still = time_of(browser, match)
    running = seconds(time_of(browser, matches[0]))
    time.sleep(1.3)
    assert time_of(browser, match) == still  # stopped
    assert seconds(time_of(browser, matches[0])) < running  # the others run on
    assert ClockPause.objects.get().reason == "Cambio de baraja"
    # Resumed: it counts again from where it stopped.
    button = browser.find_element(By.XPATH, "//button[contains(., 'Reanudar el reloj')]")
    button.click()
    WebDriverWait(browser, 5).until(left_the_page(button))
    first = seconds(time_of(browser, match))
    time.sleep(1.2)
    assert seconds(time_of(browser, match)) < first


def test_the_envite_timer_counts_in_the_browser_amm_3_7(live_server, browser):
    sim, round_, juez, matches = round_with_clocks()
    svc.clocks_start_round(round=round_, by=juez, at=ago(10))
    log_in(browser, live_server, "juez", width=PHONE)  # the juez walks the room with a phone
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/relojes/")
    width = browser.execute_script("return document.documentElement.clientWidth;")
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= width  # no sideways scroll
    button = browser.find_element(By.CSS_SELECTOR, f'[data-envite="{matches[0].pk}"]')
    assert button.is_displayed() and button.text == "Envite: 60 s"  # shown by the script only
    button.click()
    WebDriverWait(browser, 2).until(
        lambda b: "quedan" in b.find_element(By.CSS_SELECTOR, f'[data-envite="{matches[0].pk}"]').text
    )
    left = int(re.search(r"quedan (\d+) s", button.text)[1])
    assert 58 <= left <= 60
    time.sleep(1.2)
    assert int(re.search(r"quedan (\d+) s", button.text)[1]) < left
    button.click()  # stopped: ready for the next envite
    assert button.text == "Envite: 60 s"


def test_the_mus_dialogue_timer_counts_a_minute_apart_from_the_envites_amm_2_3_and_2_3_a(live_server, browser):
    """2.3 «sin utilizar más de un minuto»; 2.3.a the other pair «en las mismas condiciones»: a tap
    starts a minute for the dialogue, another stops it for the next pair; the envite timer of the
    same table is its own."""
    sim, round_, juez, matches = round_with_clocks()
    svc.clocks_start_round(round=round_, by=juez, at=ago(10))
    log_in(browser, live_server, "juez", width=PHONE)
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/relojes/")
    mus = browser.find_element(By.CSS_SELECTOR, f'[data-mus="{matches[0].pk}"]')
    envite = browser.find_element(By.CSS_SELECTOR, f'[data-envite="{matches[0].pk}"]')
    assert mus.is_displayed() and mus.text == "Mus: 60 s"
    mus.click()
    WebDriverWait(browser, 2).until(lambda b: "quedan" in mus.text)
    left = int(re.search(r"quedan (\d+) s", mus.text)[1])
    assert 58 <= left <= 60 and envite.text == "Envite: 60 s"  # the envite timer is apart
    mus.click()  # the mano pair's minute ends: ready for the other pair's (2.3.a)
    assert mus.text == "Mus: 60 s"
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= PHONE


def test_a_player_taps_a_juego_on_a_390_px_phone(live_server, browser, world):
    match = world_match(world)
    svc.clocks_start_round(round=match.round, by=world.users["juez"], at=ago(25))
    log_in(browser, live_server, "player", width=PHONE)
    browser.set_window_size(PHONE, 844)
    browser.get(f"{live_server.url}/torneos/{world.tournament.slug}/relojes/mesa/{match.pk}/")
    width = browser.execute_script("return document.documentElement.clientWidth;")
    assert width <= PHONE
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= width  # no sideways scroll
    clock = card(browser, match)
    assert clock.find_element(By.CSS_SELECTOR, ".ck-time").size["height"] >= 60  # big, from arm's length
    first = seconds(time_of(browser, match))
    button = browser.find_element(By.XPATH, f"//button[contains(., 'Juego para {match.pair_b.number}')]")
    assert button.size["height"] >= 48 and button.location["x"] + button.size["width"] <= width
    button.click()
    WebDriverWait(browser, 5).until(left_the_page(button))
    assert (
        f"Mesa 1: juego para la pareja {match.pair_b.number}."
        in browser.find_element(By.CSS_SELECTOR, ".messages").text
    )
    assert card(browser, match).find_element(By.CSS_SELECTOR, ".ck-score-b").text == "1"
    assert ClockJuego.objects.get().winner == "B"
    assert seconds(time_of(browser, match)) <= first  # the clock runs on
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= width


def test_the_wall_fits_a_390_px_phone(live_server, browser):
    sim, round_, juez, matches = round_with_clocks(pairs=8)
    svc.clocks_start_round(round=round_, by=juez, at=ago(58))
    svc.clock_juego(match=matches[0], by=juez, winner="A", at=ago(40))
    open_page(browser, live_server, wall(sim), width=PHONE)
    width = browser.execute_script("return document.documentElement.clientWidth;")
    assert width <= PHONE
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= width
    cards = browser.find_elements(By.CSS_SELECTOR, ".ck-card")
    assert len(cards) == 4 and all(c.rect["x"] + c.rect["width"] <= width for c in cards)
    big = card(browser, matches[0]).find_element(By.CSS_SELECTOR, ".ck-time")
    assert big.size["height"] >= 40 and seconds(big.text) <= 120
