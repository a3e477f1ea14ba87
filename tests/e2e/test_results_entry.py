"""In a real browser, from the keyboard only: the mesa de control types a table number and Enter,
sees the two pairs, types the juegos and Enter, and is back on the table field for the next acta;
the list of tables missing an acta empties. A table someone else entered meanwhile gets a clear
conflict message instead of being overwritten."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from scoring.services.results import result_submit
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(browser, live_server, username: str) -> None:
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/cuenta/entrar/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys("clave-de-prueba" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "/cuenta/entrar/" not in d.current_url)


def focused(browser) -> str:
    return browser.switch_to.active_element.get_attribute("name") or ""


def wait_focus(browser, name: str) -> None:
    WebDriverWait(browser, 5).until(lambda d: focused(d) == name, f"el foco no llegó a {name}")


def test_the_mesa_enters_every_acta_from_the_keyboard_only(live_server, browser):
    sim = new_tournament(6, seed=41, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    grant(UserFactory(username="mesa"), sim.tournament, "control")
    log_in(browser, live_server, "mesa")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/")
    assert focused(browser) == "table"  # the cursor starts on the table number
    for match in playing(round_):
        browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
        wait_focus(browser, "games_a")
        card = browser.find_element(By.ID, "entry-match").text
        assert match.pair_a.display_name in card and match.pair_b.display_name in card
        browser.switch_to.active_element.send_keys("3")
        wait_focus(browser, "games_b")  # one digit for pair A moves on to pair B
        browser.switch_to.active_element.send_keys("1" + Keys.ENTER)
        WebDriverWait(browser, 5).until(
            lambda d, t=match.table_number: f"Mesa {t}:" in d.find_element(By.ID, "entry-feedback").text
        )
        wait_focus(browser, "table")  # back on the table number for the next acta
        assert browser.find_element(By.ID, "id_table").get_attribute("value") == ""
    assert "Todas las mesas tienen acta." in browser.find_element(By.ID, "entry-missing").text
    results = set(Match.objects.filter(round=round_).values_list("outcome", "games_a", "games_b"))
    assert results == {("played", 3, 1)}


def test_a_table_entered_meanwhile_by_someone_else_shows_a_conflict(live_server, browser):
    sim = new_tournament(4, seed=42)
    round_ = publish_next_round(sim)
    grant(UserFactory(username="mesa-a"), sim.tournament, "control")
    other = grant(UserFactory(username="mesa-b"), sim.tournament, "control")
    log_in(browser, live_server, "mesa-a")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/")
    match = playing(round_)[0]
    browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
    wait_focus(browser, "games_a")
    result_submit(match=match, by=other, games_a=3, games_b=0, expected_version=0)  # meanwhile, at the other desk
    browser.switch_to.active_element.send_keys("0")
    wait_focus(browser, "games_b")
    browser.switch_to.active_element.send_keys("3" + Keys.ENTER)
    message = WebDriverWait(browser, 5).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#entry-feedback .msg.error").text
    )
    assert "acaba de recibir otro resultado (versión 1, de mesa-b)" in message
    assert "Ya tiene resultado" in browser.find_element(By.ID, "entry-match").text
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.submissions.count()) == (3, 0, 1)
