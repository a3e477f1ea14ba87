"""The juez's ruling on a recorded hand in a real browser on a 390 px phone (AMM chapter IV): from
the juez's desk to the hand awaiting a ruling, the table's facts typed in (a rectification before
pares, 4.4.b), the engine's ruling read with its articles, confirmed and stored; no page scrolls
sideways."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from scoring.models import HandRuling
from scoring.services.hands import hand_record
from tests.e2e.test_referees_browser import fits, log_in, submit
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Pair, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Asiento 1 declares «pares sí» without pares (tests/mus/data/chapter4_cases.jsonl, R02): rectified
# before pares, the hand counts as played, A 3 – B 1.
HANDS = ["12o 12c 5e 4b", "11o 7c 6e 4c", "10o 7o 5c 1e", "1o 4e 6c 7e"]
LIE = [{"pares": True, "juego": False}, {"pares": True, "juego": False}, {"pares": False}, {"pares": False}]


def loaded(browser) -> None:
    """The new page has finished loading (its style sheets included) before its width is measured."""
    WebDriverWait(browser, 5).until(lambda d: d.execute_script("return document.readyState") == "complete")


def test_the_juez_rules_on_a_hand_from_a_phone_amm_4_4_b(live_server, browser):
    sim = new_tournament(6, seed=71, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-fallo"), sim.tournament, "juez")
    match = playing(round_)[0]
    # A long pair name (real ones are: «Los de la Peña Etxeberria de Lasarte-Oria»): the hand's page
    # still fits the phone (it ran 4 px over when the factories' numbers grew long).
    Pair.objects.filter(pk=match.pair_b_id).update(name="Los de la Peña Etxeberria de Lasarte-Oria 1234567")
    hand = hand_record(match=match, by=juez, record={"hands": HANDS, "declarations": LIE}, mano="a").hand
    assert not hand.counted

    log_in(browser, live_server, "juez-fallo")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/juez/")
    fits(browser)
    link = browser.find_element(By.PARTIAL_LINK_TEXT, f"Mesa {match.table_number} · juego 1 · mano 1")
    link.click()
    WebDriverWait(browser, 5).until(lambda d: "/fallo/" in d.current_url)
    fits(browser)
    Select(browser.find_element(By.ID, "id_rect1_seat")).select_by_value("1")
    Select(browser.find_element(By.ID, "id_rect1_lance")).select_by_value("pares")
    Select(browser.find_element(By.ID, "id_rect1_when")).select_by_value("antes")
    preview = browser.find_element(By.XPATH, "//button[@value='preview']")
    assert preview.location["x"] + preview.size["width"] <= 390
    submit(browser, preview)
    loaded(browser)
    fits(browser)
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "4.1a, 4.3, 4.4.b" in text
    assert "4.4.b: rectificado antes de empezar el lance de pares" in text
    assert not HandRuling.objects.exists()  # nothing written before confirming
    submit(browser, browser.find_element(By.XPATH, "//button[@value='confirm']"))
    assert "Fallo confirmado" in browser.find_element(By.CSS_SELECTOR, ".messages").text
    loaded(browser)
    fits(browser)
    ruling = HandRuling.objects.get()
    assert (ruling.ruled_by, ruling.articles, ruling.score_a, ruling.score_b) == (juez, ["4.1a", "4.3", "4.4.b"], 3, 1)
    hand.refresh_from_db()
    assert hand.counted
