"""The hall's screen in a real browser at 1920×1080 (issue 34, items 4 and 5): the clock wall in
projector mode scrolls by itself until the last of 27 tables shows, then starts over, without the
site's header, the pairs' names whole and large; the projector shows the draw, the clocks (counting
down), the standings and the announcements in turn, each scrolled through; without network it goes
on with its last copies and says so; a new announcement is on the screen at the next turn."""

import datetime
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from scoring.services import clocks as svc
from tests.e2e.test_clocks_browser import offline, seconds
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament
from torneo.services.announcements import announcement_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("pantalla-y-pila")]

WIDTH, HEIGHT = 1920, 1080


@contextmanager
def screen(browser) -> Iterator[None]:
    """The page's viewport exactly 1920×1080, as a projector's (the window's size would include
    the browser's own bars); the phone-sized window of the other tests afterwards."""
    metrics = {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def open_page(browser, live_server, path: str) -> None:
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "django_language", "value": "es"})
    browser.get(f"{live_server.url}{path}")


def ago(minutes: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(minutes=minutes)


def in_view(browser, element) -> bool:
    """Wholly on the screen."""
    return browser.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;",
        element,
    )


def bottom(browser) -> float:
    return browser.execute_script("return document.documentElement.scrollHeight - window.innerHeight;")


def chrome_present(browser, *more: str) -> list[str]:
    """The site's header, menus and footer (and ``more``) that the page has: none, on a screen.
    Asked of the page at once (find_elements would wait the implicit 5 s for each)."""
    selectors = ["header.topbar", "nav.tournament-nav", "footer.footer", "nav.subnav", *more]
    return browser.execute_script("return arguments[0].filter(s => document.querySelector(s));", selectors)


def scrolled(browser) -> float:
    return browser.execute_script("return window.scrollY;")


def round_with_clocks(pairs: int):
    sim = new_tournament(pairs, seed=34, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    svc.clocks_start_round(round=round_, by=sim.juez, at=ago(20))
    return sim, round_, playing(round_)


# Screenshots for a person to look at (var/test-artefacts/, not in git; docs/test-artefacts/ keeps the
# copies the README shows).
ARTEFACTS = Path(__file__).resolve().parents[2] / "var" / "test-artefacts"


def save_screen(browser, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    (ARTEFACTS / f"{name}.png").write_bytes(browser.get_screenshot_as_png())


def test_the_clock_wall_scrolls_by_itself_until_the_last_of_27_tables_shows_and_starts_over(live_server, browser):
    sim, _round, tables = round_with_clocks(54)
    assert len(tables) == 27
    slug = sim.tournament.slug
    with screen(browser):
        # The default speed; pauses of 15 s (6 by default) so that a busy test machine cannot make
        # the pause at the top end while the names are measured.
        open_page(browser, live_server, f"/torneos/{slug}/relojes/?proyector=1&pausa=15000")
        assert browser.execute_script("return [window.innerWidth, window.innerHeight];") == [WIDTH, HEIGHT]
        assert not chrome_present(browser, "nav.sc-rounds")
        first, last = (browser.find_element(By.CSS_SELECTOR, f'[data-clock="{m.pk}"]') for m in (tables[0], tables[-1]))
        assert in_view(browser, first) and not in_view(browser, last)  # 27 tables do not fit
        # Every pair's name whole (no ellipsis) and large enough to read from the back of the hall.
        names = browser.find_elements(By.CSS_SELECTOR, ".ck-name")
        assert len(names) == 54
        sizes = browser.execute_script(
            "return arguments[0].map(n => [parseFloat(getComputedStyle(n).fontSize),"
            " n.parentElement.scrollWidth <= n.parentElement.clientWidth + 1]);",
            names,
        )
        assert all(size >= 20 and whole for size, whole in sizes), sizes
        save_screen(browser, "relojes-proyector")
        time.sleep(2)
        assert scrolled(browser) == 0  # a pause at the top first
        # At the default speed (45 px/s, after the pause) the last table is on the screen in about half
        # a minute: 27 tables are seven rows of four, some 1,400 px more than the screen.
        WebDriverWait(browser, 90, poll_frequency=0.2).until(lambda b: in_view(b, last))
        assert seconds(last.find_element(By.CSS_SELECTOR, ".ck-time").text) < 40 * 60  # counting down meanwhile
        WebDriverWait(browser, 5, poll_frequency=0.1).until(lambda b: scrolled(b) >= bottom(b) - 1)
        at_bottom = scrolled(browser)
        time.sleep(2)
        assert abs(scrolled(browser) - at_bottom) <= 1  # a pause at the bottom (its last pixel may be a fraction)
        WebDriverWait(browser, 40, poll_frequency=0.2).until(lambda b: scrolled(b) == 0)  # and again from the top
        assert in_view(browser, first)


def visible_slide(browser) -> str:
    return browser.execute_script(
        "const s = document.querySelector('main[data-projector] > .pj-slide:not([hidden])');"
        "return s ? s.dataset.slide : '';"
    )


def watch_slides(browser, until, timeout: float) -> list[str]:
    """The slides shown, in order (each once per showing), until ``until(shown)`` holds."""
    shown: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        slide = visible_slide(browser)
        if slide and (not shown or shown[-1] != slide):
            shown.append(slide)
        if until(shown):
            return shown
        time.sleep(0.05)
    raise AssertionError(f"slides shown: {shown}")


TURN = ["sorteo", "relojes", "clasificacion", "avisos"]


def a_whole_turn(shown: list[str]) -> bool:
    text = ",".join(shown)
    return ",".join(TURN) in text


def test_the_projector_shows_the_draw_the_clocks_the_standings_and_the_announcements_in_turn(live_server, browser):
    sim, _round, tables = round_with_clocks(12)
    t = sim.tournament
    made = announcement_create(tournament=t, by=sim.organizer, text="La ronda 2 empieza a las 18:30.")
    with screen(browser):
        open_page(browser, live_server, f"/torneos/{t.slug}/proyector/?pausa=700&velocidad=4000")
        assert not chrome_present(browser)
        watch_slides(browser, a_whole_turn, 40)
        main = browser.find_element(By.CSS_SELECTOR, "main[data-projector]")
        draw = main.find_element(By.CSS_SELECTOR, '[data-slide="sorteo"]').get_attribute("textContent")
        assert "Ronda 1" in draw and tables[0].pair_a.display_name in draw
        standings = main.find_element(By.CSS_SELECTOR, '[data-slide="clasificacion"]').get_attribute("textContent")
        assert "Clasificación" in standings
        notices = main.find_element(By.CSS_SELECTOR, '[data-slide="avisos"]').get_attribute("textContent")
        assert "La ronda 2 empieza a las 18:30." in notices
        assert timezone.localtime(made.created_at).strftime("%H:%M") in notices  # its time, in Madrid's
        # The clocks count down in the projector's page (static/js/clocks.js), shown or not.
        clock = f'[data-slide="relojes"] [data-clock="{tables[0].pk}"] .ck-time'

        def left() -> int:
            return seconds(browser.find_element(By.CSS_SELECTOR, clock).get_attribute("textContent"))

        before = left()
        assert 39 * 60 <= before <= 40 * 60
        WebDriverWait(browser, 5).until(lambda b: left() < before)
        # A slide taller than the screen (the draw: its tables, then its surname list) is scrolled
        # through to its end before the next.
        watch_slides(browser, lambda shown: shown[-1:] == ["sorteo"], 20)
        save_screen(browser, "proyector")
        end = bottom(browser)
        assert end > 200
        WebDriverWait(browser, 10, poll_frequency=0.05).until(lambda b: scrolled(b) >= end - 1)
        assert visible_slide(browser) == "sorteo"


def test_without_network_the_projector_goes_on_with_its_last_copies_and_says_so(live_server, browser):
    sim, _round, tables = round_with_clocks(12)
    t = sim.tournament
    announcement_create(tournament=t, by=sim.organizer, text="Aviso antes del corte.")
    with screen(browser):
        open_page(browser, live_server, f"/torneos/{t.slug}/proyector/?pausa=500&velocidad=4000")
        watch_slides(browser, a_whole_turn, 40)
        mark = browser.find_element(By.CSS_SELECTOR, ".pj-offline")
        assert not mark.is_displayed()
        with offline(browser):
            WebDriverWait(browser, 15).until(lambda b: b.find_element(By.CSS_SELECTOR, ".pj-offline").is_displayed())
            assert browser.find_element(By.CSS_SELECTOR, ".pj-offline").text == "sin conexión"
            shown = watch_slides(browser, a_whole_turn, 40)  # the turn goes on, from the last copies
            assert shown
            draw = browser.find_element(By.CSS_SELECTOR, '[data-slide="sorteo"]').get_attribute("textContent")
            assert tables[0].pair_a.display_name in draw
            assert "Aviso antes del corte." in browser.find_element(
                By.CSS_SELECTOR, '[data-slide="avisos"]'
            ).get_attribute("textContent")
        WebDriverWait(browser, 30).until(lambda b: not b.find_element(By.CSS_SELECTOR, ".pj-offline").is_displayed())


def test_a_new_announcement_is_on_the_screen_at_the_next_turn(live_server, browser):
    sim, _round, _tables = round_with_clocks(8)
    t = sim.tournament
    with screen(browser):
        open_page(browser, live_server, f"/torneos/{t.slug}/proyector/?pausa=400&velocidad=4000")
        watch_slides(browser, lambda shown: "clasificacion" in shown, 30)
        shown = watch_slides(browser, lambda shown: shown.count("sorteo") >= 2, 30)
        assert "avisos" not in shown[1:]  # none yet (the page opens on its own section, with the name)
        announcement_create(tournament=t, by=sim.organizer, text="Cambio de sala: la final, en el salón azul.")
        shown = watch_slides(browser, lambda shown: shown[-1:] == ["avisos"], 40)
        assert shown[-2:] == ["clasificacion", "avisos"]
        notices = browser.find_element(By.CSS_SELECTOR, '[data-slide="avisos"]').text
        assert "Cambio de sala: la final, en el salón azul." in notices


def test_a_rounds_draw_on_the_projector_scrolls_by_itself_too(live_server, browser):
    """The round's projector page (rondas/<n>/proyector/) scrolls with the same script."""
    sim = new_tournament(24, seed=34, format=Tournament.Format.CEROS, max_losses=2)
    publish_next_round(sim)
    with screen(browser):
        open_page(browser, live_server, f"/torneos/{sim.tournament.slug}/rondas/1/proyector/?pausa=500&velocidad=3000")
        assert bottom(browser) > 0 and scrolled(browser) == 0
        WebDriverWait(browser, 10, poll_frequency=0.05).until(lambda b: scrolled(b) >= bottom(b) - 1)
        WebDriverWait(browser, 10, poll_frequency=0.05).until(lambda b: scrolled(b) == 0)  # and again
