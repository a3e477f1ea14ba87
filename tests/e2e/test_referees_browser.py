"""The juez's pages in a real browser on a 390 px phone: the juez walking the room logs an incident
in three taps from the table's number (AMM 5.3.a), opens it and gives the step the ladder proposes
(5.4: the apercibimiento, pre-selected); no page scrolls sideways."""

import datetime

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from referees.models import Incident, Sanction
from referees.services.incidents import incident_report
from referees.services.sanctions import sanction_give
from scoring.services import clocks as svc
from tests.e2e.waits import left_the_page
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = 390


def log_in(browser, live_server, username: str) -> None:
    browser.set_window_size(PHONE, 844)
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/cuenta/entrar/")
    browser.add_cookie({"name": "django_language", "value": "es"})
    browser.get(f"{live_server.url}/cuenta/entrar/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys("clave-de-prueba" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "/cuenta/entrar/" not in d.current_url)


def fits(browser) -> None:
    """Nothing overflows sideways on the phone."""
    width = browser.execute_script("return document.documentElement.clientWidth;")
    assert width <= PHONE
    widest = browser.execute_script(
        "return Array.from(document.querySelectorAll('main *')).map(e => [Math.round(e.getBoundingClientRect().right),"
        " e.tagName + ' ' + (e.textContent || '').trim().slice(0, 60)]).sort((a, b) => b[0] - a[0]).slice(0, 3);"
    )
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= PHONE, widest


def submit(browser, button) -> None:
    button.click()
    WebDriverWait(browser, 5).until(left_the_page(button))


def test_the_juez_logs_an_incident_in_three_taps_and_gives_the_first_step_amm_5_4(live_server, browser):
    sim = new_tournament(6, seed=61, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-movil"), sim.tournament, "juez")
    matches = playing(round_)
    svc.clocks_start_round(round=round_, by=juez, at=timezone.now() - datetime.timedelta(minutes=12))
    match = matches[1]
    slug = sim.tournament.slug

    log_in(browser, live_server, "juez-movil")
    browser.get(f"{live_server.url}/torneos/{slug}/gestion/juez/")
    fits(browser)
    table = browser.find_element(By.ID, "id_table")
    assert table.size["height"] >= 40  # big, for a thumb
    table.send_keys(str(match.table_number))
    # Three taps: the pair, the article, «Anotar».
    browser.find_element(By.CSS_SELECTOR, "label[for=id_pair_1]").click()
    Select(browser.find_element(By.ID, "id_article")).select_by_value("3.20.c")
    button = browser.find_element(By.XPATH, "//button[contains(., 'Anotar la incidencia')]")
    assert button.location["x"] + button.size["width"] <= PHONE
    submit(browser, button)
    messages = browser.find_element(By.CSS_SELECTOR, ".messages").text
    assert f"Mesa {match.table_number}: incidencia anotada a la pareja {match.pair_b.number} (AMM 3.20.c)." in messages
    incident = Incident.objects.get()
    assert (incident.match_id, incident.pair_id, incident.source) == (match.pk, match.pair_b_id, "juez")
    fits(browser)

    card = browser.find_element(By.ID, f"incidencia-{incident.pk}")
    assert "Meterse en baraja (amonestación)" in card.text
    link = card.find_element(By.LINK_TEXT, "Sancionar")
    link.click()
    WebDriverWait(browser, 5).until(lambda d: "/incidencia/" in d.current_url)
    fits(browser)
    first = browser.find_element(By.ID, "id_step_1")
    assert first.is_selected()  # the ladder's proposal, pre-selected
    proposed = browser.find_element(By.CSS_SELECTOR, "label[for=id_step_1]").text
    assert "propuesta (AMM 5.4)" in proposed
    assert "necesita motivo (AMM 5.4.a)" in browser.find_element(By.CSS_SELECTOR, "label[for=id_step_3]").text
    submit(browser, browser.find_element(By.XPATH, "//form[@id='sancion']//button[@type='submit']"))
    assert "Sanción anotada." in browser.find_element(By.CSS_SELECTOR, ".messages").text
    sanction = Sanction.objects.get()
    assert (sanction.step, sanction.pair_id, sanction.incident_id) == (1, match.pair_b_id, incident.pk)
    incident.refresh_from_db()
    assert incident.status == Incident.Status.SANCTIONED
    fits(browser)


def test_the_log_and_the_report_fit_a_390_px_phone(live_server, browser):
    sim = new_tournament(6, seed=62, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-registro"), sim.tournament, "juez")
    match = playing(round_)[0]
    long_words = "Descripción-muy-larga-sin-espacios-" * 6
    incident = incident_report(
        tournament=sim.tournament, by=juez, match=match, pair=match.pair_a, article="5.10", description=long_words
    )
    sanction_give(by=juez, pair=match.pair_a, match=match, incident=incident, article="5.10", step=1)
    log_in(browser, live_server, "juez-registro")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/incidencias/")
    assert "Comportamiento" in browser.find_element(By.ID, f"incidencia-{incident.pk}").text
    fits(browser)
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/partida/{match.pk}/avisar-al-juez/")
    assert browser.find_element(By.ID, "id_article")
    fits(browser)


def test_the_juez_authorises_a_suplente_and_is_refused_with_the_article_on_a_phone_amm_5_8_b(live_server, browser):
    from referees.models import Substitution

    sim = new_tournament(6, seed=63, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    grant(UserFactory(username="juez-suplentes"), sim.tournament, "juez")
    matches = playing(round_)
    registered = matches[1].pair_a.ordered_members()[0].player  # already in the tournament (5.8.b)
    log_in(browser, live_server, "juez-suplentes")
    browser.get(f"{live_server.url}/torneos/{sim.tournament.slug}/gestion/juez/suplentes/")
    fits(browser)

    def fill(first: str, last: str) -> None:
        table = browser.find_element(By.ID, "id_table")
        table.clear()
        table.send_keys(str(matches[0].table_number))
        browser.find_element(By.CSS_SELECTOR, "label[for=id_pair_0]").click()
        browser.find_element(By.CSS_SELECTOR, "label[for=id_position_1]").click()
        for name, value in (("id_first_name", first), ("id_last_name", last)):
            field = browser.find_element(By.ID, name)
            field.clear()
            field.send_keys(value)
        submit(browser, browser.find_element(By.XPATH, "//button[contains(., 'Autorizar el suplente')]"))

    fill(registered.first_name, registered.last_name)
    assert "AMM 5.8.b" in browser.find_element(By.ID, "suplente").text
    assert not Substitution.objects.exists()
    fits(browser)
    fill("Koldo", "Etxeberria Lasa")
    assert "Suplente autorizado" in browser.find_element(By.CSS_SELECTOR, ".messages").text
    sub = Substitution.objects.get()
    assert (sub.pair_id, sub.name) == (matches[0].pair_a_id, "Koldo Etxeberria Lasa")
    assert "Koldo Etxeberria Lasa juega por" in browser.find_element(By.ID, f"suplente-{sub.pk}").text
    fits(browser)


def test_typing_a_table_names_its_pairs_and_players_on_the_juezs_forms_amm_5_3_a_and_5_8(live_server, browser):
    """Issue 30: the forms name the pairs, not «Pareja A / Pareja B», nor «Primero / Segundo de la
    pareja»: typing a table writes both pairs' numbers and names and the chosen pair's players, so
    nobody sanctions (5.3.a) or replaces (5.8) at the wrong table."""
    sim = new_tournament(6, seed=62, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    grant(UserFactory(username="juez-nombres"), sim.tournament, "juez")
    match = playing(round_)[2]
    slug = sim.tournament.slug
    log_in(browser, live_server, "juez-nombres")

    def label(for_id: str) -> str:
        return browser.find_element(By.CSS_SELECTOR, f"label[for={for_id}] span").text

    browser.get(f"{live_server.url}/torneos/{slug}/gestion/juez/")
    assert label("id_pair_0") == "Pareja A"
    browser.find_element(By.ID, "id_table").send_keys(str(match.table_number))
    WebDriverWait(browser, 5).until(lambda d: label("id_pair_0") != "Pareja A")
    assert label("id_pair_0") == f"{match.pair_a.number} · {match.pair_a.display_name}"
    assert label("id_pair_1") == f"{match.pair_b.number} · {match.pair_b.display_name}"
    browser.find_element(By.ID, "id_table").send_keys("9")  # a table with no partida
    WebDriverWait(browser, 5).until(lambda d: "No hay ninguna partida" in d.find_element(By.ID, "rf-table-hint").text)
    assert label("id_pair_0") == "Pareja A"
    fits(browser)

    browser.get(f"{live_server.url}/torneos/{slug}/gestion/juez/suplentes/")
    browser.find_element(By.ID, "id_table").send_keys(str(match.table_number))
    browser.find_element(By.CSS_SELECTOR, "label[for=id_pair_1]").click()
    players = [m.player.full_name for m in match.pair_b.ordered_members()]
    WebDriverWait(browser, 5).until(lambda d: label("id_position_0") == players[0])
    assert label("id_position_1") == players[1]
    assert not browser.find_element(By.CSS_SELECTOR, "label[for=id_position_2]").is_displayed()  # no third
    fits(browser)
