"""In a real browser, from the keyboard only: the mesa de control types a table number and Enter,
sees the two pairs, types the juegos and Enter, and is back on the table field for the next acta;
the list of tables missing an acta empties. A table someone else entered meanwhile gets a clear
conflict message instead of being overwritten."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from scoring.models import ResultSubmission
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
    wait_focus(browser, "table")  # the cursor starts on the table number (autofocus, once the page is parsed)
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
    assert set(ResultSubmission.objects.filter(match__round=round_).values_list("source", flat=True)) == {"control"}


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


def open_desk(browser, live_server, sim, username: str = "mesa"):
    grant(UserFactory(username=username), sim.tournament, "control")
    log_in(browser, live_server, username)
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/")
    wait_focus(browser, "table")


def field_errors(browser, name: str) -> str:
    field = browser.find_element(By.NAME, name).find_element(By.XPATH, "./ancestor::div[contains(@class,'field')]")
    return " ".join(e.text for e in field.find_elements(By.CSS_SELECTOR, ".errorlist"))


def test_bad_input_is_shown_on_its_field_and_what_was_typed_stays(live_server, browser):
    """The tantos are checked before sending (the form's message); the API's refusals go next to
    their fields; nothing is written; corrected, Enter saves it."""
    sim = new_tournament(4, seed=43)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    open_desk(browser, live_server, sim)
    browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
    wait_focus(browser, "games_a")
    browser.switch_to.active_element.send_keys("3")
    wait_focus(browser, "games_b")
    browser.switch_to.active_element.send_keys("3" + Keys.ENTER)  # 3-3: the service refuses it
    WebDriverWait(browser, 5).until(lambda d: "3-3 no es un resultado posible" in field_errors(d, "games_a"))
    assert "Revisa los campos marcados." in browser.find_element(By.ID, "entry-feedback").text
    assert focused(browser) == "games_a"
    games_b = browser.find_element(By.NAME, "games_b")
    games_b.clear()
    games_b.send_keys("1")  # 3-1 now
    browser.find_element(By.CSS_SELECTOR, "#entry-more summary").click()
    browser.find_element(By.NAME, "tantos").send_keys("cuarenta" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "como 40-32" in field_errors(d, "tantos"))
    assert browser.find_element(By.NAME, "games_a").get_attribute("value") == "3"
    assert not match.submissions.exists()
    tantos = browser.find_element(By.NAME, "tantos")
    tantos.clear()
    tantos.send_keys("40-10, 12-40 40-0 40-39" + Keys.ENTER)
    WebDriverWait(browser, 5).until(
        lambda d: f"Mesa {match.table_number}:" in d.find_element(By.ID, "entry-feedback").text
    )
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.tantos_a, match.tantos_b) == (3, 1, 132, 89)
    assert match.submissions.get().source == "control"  # the desk's provenance, through the API


def test_a_walkover_names_the_side_and_the_pair_number_is_sent(live_server, browser):
    sim = new_tournament(4, seed=44)
    round_ = publish_next_round(sim)
    match = playing(round_)[-1]
    open_desk(browser, live_server, sim)
    browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
    wait_focus(browser, "games_a")
    browser.find_element(By.CSS_SELECTOR, "#entry-more summary").click()
    Select(browser.find_element(By.NAME, "outcome")).select_by_value("walkover")
    winner = Select(browser.find_element(By.NAME, "winner"))
    assert str(match.pair_b.number) in winner.options[2].text  # the options name the pairs
    winner.select_by_value("b")
    browser.find_element(By.NAME, "reason").send_keys(Keys.ENTER)  # Enter in a text field sends the form
    WebDriverWait(browser, 5).until(lambda d: "Incomparecencia" in d.find_element(By.ID, "entry-feedback").text)
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.games_a, match.games_b) == ("walkover", match.pair_b_id, 0, 3)


def test_a_slow_network_at_human_speed(live_server, browser):
    """Every answer takes 400 ms: Enter on the table waits for the pairs, Enter on the juegos waits
    for a lookup still in flight, and the lists of missing tables refresh from the answer."""
    sim = new_tournament(6, seed=45, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    open_desk(browser, live_server, sim)
    browser.execute_cdp_cmd("Network.enable", {})
    slow = {"offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
    try:
        for match in playing(round_):
            for key in str(match.table_number):
                browser.switch_to.active_element.send_keys(key)
            browser.switch_to.active_element.send_keys(Keys.ENTER)
            wait_focus(browser, "games_a")
            assert match.pair_a.display_name in browser.find_element(By.ID, "entry-match").text
            browser.switch_to.active_element.send_keys("3")
            wait_focus(browser, "games_b")
            browser.switch_to.active_element.send_keys("2" + Keys.ENTER)
            WebDriverWait(browser, 5).until(
                lambda d, t=match.table_number: f"Mesa {t}:" in d.find_element(By.ID, "entry-feedback").text
            )
            wait_focus(browser, "table")
            missing = browser.find_element(By.ID, "entry-missing").text
            assert str(match.table_number) not in missing.split()
        assert "Todas las mesas tienen acta." in browser.find_element(By.ID, "entry-missing").text
    finally:
        off = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", off)
    assert set(Match.objects.filter(round=round_).values_list("games_a", "games_b")) == {(3, 2)}


def test_with_no_answer_from_the_api_the_plain_form_is_sent(live_server, browser):
    """The API unreachable (blocked here): the script falls back to the page's plain POST."""
    sim = new_tournament(4, seed=46)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    open_desk(browser, live_server, sim)
    browser.switch_to.active_element.send_keys(f"{match.table_number}" + Keys.ENTER)
    wait_focus(browser, "games_a")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/*"]})
    try:
        browser.switch_to.active_element.send_keys("3")
        wait_focus(browser, "games_b")
        browser.switch_to.active_element.send_keys("0" + Keys.ENTER)
        WebDriverWait(browser, 10).until(lambda d: "?ronda=1" in d.current_url)
        message = browser.find_element(By.CSS_SELECTOR, ".messages .msg").text
        assert f"Mesa {match.table_number}: {match.pair_a} 3–0 {match.pair_b}. Anotado (versión 1)." == message
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.submissions.get().source) == (3, 0, "control")


def test_without_javascript_the_plain_form_works(live_server, browser):
    sim = new_tournament(4, seed=47)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    grant(UserFactory(username="mesa"), sim.tournament, "control")
    log_in(browser, live_server, "mesa")
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/resultados/")
        browser.find_element(By.NAME, "table").send_keys(f"{match.table_number}" + Keys.ENTER)
        WebDriverWait(browser, 5).until(
            lambda d: match.pair_a.display_name in d.find_element(By.ID, "entry-match").text
        )
        browser.find_element(By.NAME, "games_a").send_keys("1")
        browser.find_element(By.NAME, "games_b").send_keys("3" + Keys.ENTER)
        WebDriverWait(browser, 5).until(lambda d: "?ronda=1" in d.current_url)
        assert "Anotado (versión 1)." in browser.find_element(By.CSS_SELECTOR, ".messages .msg").text
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    match.refresh_from_db()
    assert (match.games_a, match.games_b) == (1, 3)
