"""The organizer's log of changes in a real browser on a 390 px phone: filtered by kind from the
select, before → after readable, the long values (a draw's input, an unbroken reason) wrapped,
nothing scrolling sideways (issue 18, item 6)."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from scoring.services.results import result_submit
from tests.e2e.test_referees_browser import fits, log_in
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_log_filters_and_fits_a_390_px_phone(live_server, browser):
    sim = new_tournament(8, seed=64, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    organizer = grant(UserFactory(username="org-registro"), sim.tournament, "organizer")
    match = playing(round_)[0]
    result_submit(match=match, by=organizer, games_a=3, games_b=1)
    result_submit(
        match=match, by=organizer, games_a=3, games_b=2, expected_version=1, reason="Acta-corregida-" * 8
    )
    log_in(browser, live_server, "org-registro")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/cambios/")
    assert "Registro de cambios" in browser.find_element(By.TAG_NAME, "h1").text
    fits(browser)  # the draw's input and the partidas, unfiltered
    Select(browser.find_element(By.ID, "id_tipo")).select_by_visible_text("Resultados")
    browser.find_element(By.CSS_SELECTOR, "form.au-filters button[type=submit]").click()
    WebDriverWait(browser, 5).until(lambda d: "tipo=resultados" in d.current_url)
    cards = browser.find_elements(By.CSS_SELECTOR, ".au-list > li")
    assert cards and all("Resultados" in c.text for c in cards)
    assert any("1 → 2" in c.text for c in cards)  # juegos B, before → after
    fits(browser)
