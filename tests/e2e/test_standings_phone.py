"""In a real browser 390 px wide (a common phone): the standings table fits the screen, the
«Estado» column of an elimination format included, with no sideways scrolling; the secondary
columns (J, E, ±J) come back on a wider screen. And a Swiss table keeps its points and tiebreaks
in view."""

import pytest
from selenium.webdriver.common.by import By

from tests.torneo.simulation import new_tournament
from torneo.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = 390


def open_standings(browser, live_server, tournament: Tournament, width: int) -> None:
    browser.set_window_size(width, 844)
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "django_language", "value": "es"})
    browser.get(f"{live_server.url}/torneos/{tournament.slug}/clasificacion/")


def viewport_width(browser) -> int:
    return browser.execute_script("return document.documentElement.clientWidth;")


def right_edges(browser, selector: str) -> list[float]:
    """The right edge of every visible element matching `selector` (hidden ones left out)."""
    return browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])]"
        ".filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect().right);",
        selector,
    )


def headings(browser) -> list[str]:
    return [th.text for th in browser.find_elements(By.CSS_SELECTOR, ".sc-standings thead th") if th.is_displayed()]


def test_the_ceros_standings_show_the_estado_column_within_a_390_px_phone(live_server, browser):
    sim = new_tournament(12, seed=8, format=Tournament.Format.CEROS, max_losses=2)
    for _ in range(3):
        sim.play_round()
    open_standings(browser, live_server, sim.tournament, PHONE)
    width = viewport_width(browser)
    assert width <= PHONE
    shown = headings(browser)
    assert shown[0] == "#" and shown[-1] == "Estado" and {"G", "P"} <= set(shown)
    estado = right_edges(browser, ".sc-standings th:last-child, .sc-standings td:last-child")
    assert len(estado) == 13 and max(estado) <= width  # the heading and the twelve pairs
    assert any("Eliminada en la ronda" in td.text for td in browser.find_elements(By.CSS_SELECTOR, "td:last-child"))
    scroll = browser.find_element(By.CSS_SELECTOR, ".sc-scroll")
    assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth;", scroll)
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= width
    # The legend explains the columns on the screen, none of the hidden ones.
    legend = browser.find_element(By.CSS_SELECTOR, ".sc-legend").text
    assert "G: Ganadas" in legend and "J: Jugadas" not in legend and "Bu:" not in legend

    open_standings(browser, live_server, sim.tournament, 1000)  # a laptop: every column
    assert headings(browser) == ["#", "Pareja", "J", "G", "P", "E", "±J", "Estado"]
    legend = browser.find_element(By.CSS_SELECTOR, ".sc-legend").text
    assert "J: Jugadas" in legend and "±J: Diferencia de juegos" in legend


def test_a_swiss_table_keeps_points_and_tiebreaks_within_a_390_px_phone(live_server, browser):
    sim = new_tournament(10, seed=9, format=Tournament.Format.SWISS, swiss_rounds=3, tiebreaks="buchholz,juegos")
    sim.play_all()
    open_standings(browser, live_server, sim.tournament, PHONE)
    width = viewport_width(browser)
    assert headings(browser) == ["#", "Pareja", "Pts", "G", "P", "Bu", "±J"]
    assert max(right_edges(browser, ".sc-standings th, .sc-standings td")) <= width
