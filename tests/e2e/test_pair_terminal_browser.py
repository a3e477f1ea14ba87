"""Issue 32 in a real browser on a 390 px phone: two pairs open their tarjetas' links (each phone its
own Chromium, as the juez's desk, all open at once), one reports the result, the other confirms it on
its own phone and the standings show it without the mesa; a call to the juez is answered «voy» and
the table reads it; a pair checks itself in with the venue's code; a replaced link is refused."""

import pytest
from django.conf import settings
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from referees.models import Incident
from scoring.models import ClockJuego
from scoring.services.clocks import clocks_start_round
from tests.e2e.waits import across_pages, left_the_page
from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.models import Match, Pair, Round, Tournament
from torneo.services import self_check_in as checkin
from torneo.services.terminals import terminal_issue, terminal_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def press(browser, element) -> None:
    """Click what leaves the page (a link, a form's button) and wait for the next page."""
    element.click()
    WebDriverWait(browser, 10).until(left_the_page(element))


def open_card(browser, live_server, tournament, token: str) -> None:
    """A phone that has never been here scans its pair's card."""
    browser.delete_all_cookies()
    browser.get(live_server.url + terminal_url(tournament, token).removeprefix(settings.SITE_URL))


def test_two_phones_report_and_confirm_a_result_without_the_mesa(live_server, browser, another_browser):
    t = TournamentFactory(name="Open de Tolosa", status=Tournament.Status.RUNNING)
    control = grant(UserFactory(), t, "control")
    juez = grant(UserFactory(first_name="Ane", last_name="Juez"), t, "juez")
    mine = make_pair(t, players=[player_data(11), player_data(12)])
    rivals = make_pair(t, players=[player_data(13), player_data(14)])
    r = Round.objects.create(
        tournament=t, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    match = Match.objects.create(round=r, table_number=3, pair_a=mine, pair_b=rivals)
    card_a = terminal_issue(pair=mine, by=control)
    card_b = terminal_issue(pair=rivals, by=control)
    browser.set_window_size(390, 844)

    clocks_start_round(round=r, by=juez)
    table = f"{live_server.url}/torneos/{t.slug}/relojes/mesa/{match.pk}/"

    # Phone A: its card opens its pair's page, without the link in the address bar.
    open_card(browser, live_server, t, card_a.token)
    assert browser.current_url.endswith(f"/torneos/{t.slug}/parejas/{mine.number}/ficha/")
    assert card_a.token not in browser.current_url
    assert f"Pareja {mine.number} · móvil" in browser.find_element(By.TAG_NAME, "body").text  # signed in
    # It taps the first juego for its own pair: it waits for the rivals (AMM 3.16).
    browser.get(table)
    press(browser, browser.find_element(By.XPATH, f"//button[contains(., 'Juego para {mine.number}')]"))
    assert "cuenta cuando lo confirme la pareja" in browser.find_element(By.ID, "juego-pendiente").text
    assert not ClockJuego.objects.exists()
    browser.get(f"{live_server.url}/torneos/{t.slug}/parejas/{mine.number}/ficha/")
    press(browser, browser.find_element(By.LINK_TEXT, "Anotar el resultado"))
    browser.find_element(By.ID, "id_games_a").send_keys("3")
    browser.find_element(By.ID, "id_games_b").send_keys("1")
    press(browser, browser.find_element(By.CSS_SELECTOR, ".report-form button[type=submit]"))
    assert "falta que lo confirme la otra pareja" in browser.find_element(By.TAG_NAME, "body").text
    # And it calls the juez; the juez answers «voy» from the desk; the table reads it.
    browser.get(f"{live_server.url}/torneos/{t.slug}/partida/{match.pk}/avisar-al-juez/")
    browser.find_element(By.CSS_SELECTOR, "input[name=pair][value=B]").click()
    browser.find_element(By.ID, "id_description").send_keys("Se enseñan las cartas")
    press(browser, browser.find_element(By.CSS_SELECTOR, "form.form button[type=submit]"))
    assert "esperando a que un juez lo atienda" in browser.find_element(By.ID, "avisos").text
    # The juez's desk (its own browser, the juez's account) shows the call; «Voy».
    desk = another_browser()
    log_in(desk, live_server, juez.username)
    desk.get(f"{live_server.url}/torneos/{t.slug}/gestion/juez/")
    assert "Se enseñan las cartas" in desk.find_element(By.TAG_NAME, "main").text
    press(desk, desk.find_element(By.XPATH, "//button[normalize-space()='Voy']"))
    assert Incident.objects.get().answered_by == juez
    browser.refresh()  # phone A, still on its call (the page also reloads itself every 20 s)
    assert "el juez va hacia la mesa (Ane Juez" in browser.find_element(By.ID, "avisos").text

    phone_b = another_browser()
    phone_b.set_window_size(390, 844)
    # Phone B: its own card; it confirms the juego on the table's clock, then the result waits
    # for its signature (AMM 3.16).
    open_card(phone_b, live_server, t, card_b.token)
    phone_b.get(table)
    assert (
        f"La pareja {mine.number} dice que ha ganado este juego." in phone_b.find_element(By.ID, "juego-pendiente").text
    )
    press(phone_b, phone_b.find_element(By.XPATH, f"//button[contains(., 'Confirmar: juego para {mine.number}')]"))
    assert ClockJuego.objects.get().winner == "A"
    phone_b.get(f"{live_server.url}/torneos/{t.slug}/parejas/{rivals.number}/ficha/")
    pending = phone_b.find_element(By.CSS_SELECTOR, ".pending-confirm")
    assert "Resultado pendiente de vuestra confirmación" in pending.text
    press(phone_b, pending.find_element(By.TAG_NAME, "a"))
    press(phone_b, phone_b.find_element(By.XPATH, "//button[contains(., 'Confirmar el resultado')]"))
    across_pages(phone_b, 10).until(lambda b: "Resultado confirmado" in b.find_element(By.TAG_NAME, "body").text)
    match.refresh_from_db()
    assert match.outcome == Match.Outcome.PLAYED and (match.games_a, match.games_b) == (3, 1)
    phone_b.get(f"{live_server.url}/torneos/{t.slug}/clasificacion/")
    assert mine.display_name in phone_b.find_element(By.TAG_NAME, "body").text

    # A new card for pair A: phone A is signed out at once, and the old link is refused, whatever
    # phone opens it.
    terminal_issue(pair=mine, by=control)
    browser.get(f"{live_server.url}/torneos/{t.slug}/parejas/{mine.number}/ficha/")
    signed_out = browser.find_element(By.TAG_NAME, "body").text
    assert f"Pareja {mine.number} · móvil" not in signed_out and "Entrar" in signed_out
    open_card(phone_b, live_server, t, card_a.token)
    assert "no es válido" in phone_b.find_element(By.TAG_NAME, "body").text


def test_a_pair_checks_itself_in_with_the_venue_code(live_server, browser):
    t = TournamentFactory(name="Open de Azpeitia", status=Tournament.Status.REGISTRATION_CLOSED)
    control = grant(UserFactory(), t, "control")
    pair = make_pair(t, players=[player_data(21), player_data(22)])
    card = terminal_issue(pair=pair, by=control)
    browser.set_window_size(390, 844)
    open_card(browser, live_server, t, card.token)
    browser.get(f"{live_server.url}/torneos/{t.slug}/presente/")
    browser.find_element(By.ID, "id_codigo").send_keys(checkin.venue_code(t).lower())
    press(browser, browser.find_element(By.XPATH, "//button[contains(., 'Estamos aquí')]"))
    across_pages(browser, 10).until(
        lambda b: (
            "presencia confirmada" in b.find_element(By.TAG_NAME, "body").text
            and b.current_url.endswith(f"/parejas/{pair.number}/ficha/")
        )
    )
    assert Pair.objects.get(pk=pair.pk).checked_in_at is not None


def log_in(browser, live_server, username: str) -> None:
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/cuenta/entrar/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys("clave-de-prueba" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "/cuenta/entrar/" not in d.current_url)


def test_two_phones_reporting_different_results_land_on_the_juezs_queue(live_server, browser, another_browser):
    """AMM 3.16 at the table: the two pairs' reports disagree; neither counts and the juez reads
    both, side by side, on the queue."""
    t = TournamentFactory(name="Open de Hernani", status=Tournament.Status.RUNNING)
    control = grant(UserFactory(), t, "control")
    juez = grant(UserFactory(), t, "juez")
    mine = make_pair(t, players=[player_data(31), player_data(32)])
    rivals = make_pair(t, players=[player_data(33), player_data(34)])
    r = Round.objects.create(
        tournament=t, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    match = Match.objects.create(round=r, table_number=5, pair_a=mine, pair_b=rivals)
    phones = [browser, another_browser()]  # each pair's phone, its own Chromium
    for phone, card, (a, b) in (
        (phones[0], terminal_issue(pair=mine, by=control), (3, 1)),
        (phones[1], terminal_issue(pair=rivals, by=control), (1, 3)),
    ):
        phone.set_window_size(390, 844)
        open_card(phone, live_server, t, card.token)
        phone.get(f"{live_server.url}/torneos/{t.slug}/partidas/{match.pk}/anotar/")
        phone.find_element(By.ID, "id_games_a").send_keys(str(a))
        phone.find_element(By.ID, "id_games_b").send_keys(str(b))
        press(phone, phone.find_element(By.CSS_SELECTOR, ".report-form button[type=submit]"))
    assert "lo decide la mesa de control o el juez" in phones[1].find_element(By.TAG_NAME, "body").text
    match.refresh_from_db()
    assert match.outcome == Match.Outcome.PENDING
    log_in(browser, live_server, juez.username)
    browser.get(f"{live_server.url}/torneos/{t.slug}/gestion/resultados/confirmar/")
    queue = browser.find_element(By.ID, f"desacuerdo-{match.pk}").text
    assert "3" in queue and "1" in queue and "Mesa 5" in queue
