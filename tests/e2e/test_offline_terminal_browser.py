"""Issue 33 in a real browser: a pair's terminal without network. Phone A reports its table's result
with the connection cut (DevTools: Network.emulateNetworkConditions offline); the page says it is
kept on the phone; when the connection returns the report is stored exactly once, and sending the
queue again writes nothing. Phone B confirms offline the same way and the result counts."""

import pytest
from django.conf import settings
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from scoring.models import ResultSubmission
from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.models import Match, Round, Tournament
from torneo.services.terminals import terminal_issue, terminal_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def network(browser, online: bool) -> None:
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd(
        "Network.emulateNetworkConditions",
        {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def open_card(browser, live_server, tournament, token: str) -> None:
    browser.delete_all_cookies()
    browser.get(live_server.url + terminal_url(tournament, token).removeprefix(settings.SITE_URL))


def one_table(name: str, table: int, first_player: int) -> tuple[Tournament, object, Match]:
    """A running tournament with a published round of one table (two pairs) and its mesa de control."""
    t = TournamentFactory(name=name, status=Tournament.Status.RUNNING)
    control = grant(UserFactory(), t, "control")
    mine = make_pair(t, players=[player_data(first_player), player_data(first_player + 1)])
    rivals = make_pair(t, players=[player_data(first_player + 2), player_data(first_player + 3)])
    r = Round.objects.create(
        tournament=t, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    return t, control, Match.objects.create(round=r, table_number=table, pair_a=mine, pair_b=rivals)


def test_a_report_and_its_confirmation_made_offline_are_stored_once_when_the_network_returns(live_server, browser):
    t, control, match = one_table("Open de Lekeitio", 9, 41)
    mine, rivals = match.pair_a, match.pair_b
    card_a, card_b = terminal_issue(pair=mine, by=control), terminal_issue(pair=rivals, by=control)
    browser.set_window_size(390, 844)
    try:
        open_card(browser, live_server, t, card_a.token)
        browser.get(f"{live_server.url}/torneos/{t.slug}/partidas/{match.pk}/anotar/")
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return !!window.TorneoQueue"))
        network(browser, online=False)
        browser.find_element(By.ID, "id_games_a").send_keys("3")
        browser.find_element(By.ID, "id_games_b").send_keys("1")
        browser.find_element(By.CSS_SELECTOR, ".report-form button[type=submit]").click()
        note = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.CSS_SELECTOR, ".offline-note"))
        assert "Guardado en este móvil" in note.text
        WebDriverWait(browser, 10).until(lambda b: "1" in b.find_element(By.ID, "offline-banner").text)
        assert not ResultSubmission.objects.exists()

        network(browser, online=True)
        WebDriverWait(browser, 30).until(lambda b: ResultSubmission.objects.filter(match=match).exists())
        browser.execute_script("return window.TorneoQueue.flush()")  # sent again: nothing more
        sub = ResultSubmission.objects.get(match=match)
        assert (sub.games_a, sub.games_b, sub.status) == (3, 1, ResultSubmission.Status.PROPOSED)
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return window.TorneoQueue.pending()") == 0)

        open_card(browser, live_server, t, card_b.token)
        browser.get(f"{live_server.url}/torneos/{t.slug}/resultados/acta/{sub.pk}/confirmar/")
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return !!window.TorneoQueue"))
        network(browser, online=False)
        browser.find_element(By.XPATH, "//button[contains(., 'Confirmar el resultado')]").click()
        note = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.CSS_SELECTOR, ".offline-note"))
        assert "Confirmación guardada en este móvil" in note.text
        assert Match.objects.get(pk=match.pk).outcome == Match.Outcome.PENDING

        network(browser, online=True)
        WebDriverWait(browser, 30).until(lambda b: Match.objects.get(pk=match.pk).outcome == Match.Outcome.PLAYED)
        assert ResultSubmission.objects.filter(match=match).count() == 1
        assert ResultSubmission.objects.get(match=match).confirmed_by == card_b.terminal.user
    finally:
        network(browser, online=True)


def test_a_write_kept_offline_is_never_sent_under_another_account_signed_in_meanwhile(live_server, browser):
    """The phone queues its pair's report offline, then, before it is sent, another pair's card is
    opened on it: the report waits (it is not that account's), and goes when its own pair's card
    is opened on the phone again."""
    t, control, match = one_table("Open de Bermeo", 4, 51)
    mine, rivals = match.pair_a, match.pair_b
    card_a, card_b = terminal_issue(pair=mine, by=control), terminal_issue(pair=rivals, by=control)
    browser.set_window_size(390, 844)
    try:
        open_card(browser, live_server, t, card_a.token)
        browser.get(f"{live_server.url}/torneos/{t.slug}/partidas/{match.pk}/anotar/")
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return !!window.TorneoQueue"))
        network(browser, online=False)
        browser.find_element(By.ID, "id_games_a").send_keys("3")
        browser.find_element(By.ID, "id_games_b").send_keys("2")
        browser.find_element(By.CSS_SELECTOR, ".report-form button[type=submit]").click()
        WebDriverWait(browser, 10).until(lambda b: b.find_element(By.CSS_SELECTOR, ".offline-note"))
        browser.delete_all_cookies()  # the phone is handed over: the rivals open their own card
        network(browser, online=True)
        open_card(browser, live_server, t, card_b.token)
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return !!window.TorneoQueue"))
        browser.execute_script("return window.TorneoQueue.flush()")
        assert browser.execute_script("return window.TorneoQueue.pending()") == 0  # none of theirs
        assert not ResultSubmission.objects.exists()

        open_card(browser, live_server, t, card_a.token)  # its own pair again: the report goes
        WebDriverWait(browser, 30).until(lambda b: ResultSubmission.objects.filter(match=match).exists())
        sub = ResultSubmission.objects.get(match=match)
        assert (sub.games_a, sub.games_b) == (3, 2) and sub.submitted_by == card_a.terminal.user
    finally:
        network(browser, online=True)


def test_a_check_in_made_offline_is_sent_when_the_network_returns(live_server, browser):
    """The venue's code typed with the connection gone: kept on the phone, sent once it returns
    (the code is valid for its five minutes and the next five)."""
    from torneo.models import Pair
    from torneo.services import self_check_in as checkin

    t = TournamentFactory(name="Open de Zumaia", status=Tournament.Status.REGISTRATION_CLOSED)
    control = grant(UserFactory(), t, "control")
    pair = make_pair(t, players=[player_data(61), player_data(62)])
    card = terminal_issue(pair=pair, by=control)
    browser.set_window_size(390, 844)
    try:
        open_card(browser, live_server, t, card.token)
        browser.get(f"{live_server.url}/torneos/{t.slug}/presente/")
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return !!window.TorneoQueue"))
        network(browser, online=False)
        browser.find_element(By.ID, "id_codigo").send_keys(checkin.venue_code(t))
        browser.find_element(By.CSS_SELECTOR, ".check-in-form button[type=submit]").click()
        note = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.CSS_SELECTOR, ".offline-note"))
        assert "Guardado en este móvil" in note.text
        assert Pair.objects.get(pk=pair.pk).checked_in_at is None
        network(browser, online=True)
        WebDriverWait(browser, 30).until(lambda b: Pair.objects.get(pk=pair.pk).checked_in_at is not None)
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return window.TorneoQueue.pending()") == 0)
    finally:
        network(browser, online=True)


def test_a_juego_tapped_offline_counts_from_when_it_was_tapped_amm_3_16(live_server, browser):
    """A juego tapped on the table's clock with the connection gone: kept on the phone with its
    moment (the server's clock, as the page's clocks reckon it), sent when the connection returns,
    and the juego ended when it was tapped, not when it arrived."""
    import datetime
    import time

    from scoring.models import ClockJuego
    from scoring.services import clocks as clock_services

    t, control, match = one_table("Open de Ondarroa", 6, 71)
    juez = grant(UserFactory(), t, "juez")
    mine, rivals = match.pair_a, match.pair_b
    clock_services.clock_start(match=match, by=juez, at=timezone.now() - datetime.timedelta(minutes=20))
    card = terminal_issue(pair=rivals, by=control)
    browser.set_window_size(390, 844)
    try:
        open_card(browser, live_server, t, card.token)
        browser.get(f"{live_server.url}/torneos/{t.slug}/relojes/mesa/{match.pk}/")
        WebDriverWait(browser, 10).until(
            lambda b: b.execute_script("return !!window.TorneoQueue && !!window.TorneoClocks")
        )
        network(browser, online=False)
        tapped = timezone.now()
        # Pair B's phone gives the juego to pair A: it counts at once (a concession).
        browser.find_element(By.XPATH, f"//button[contains(., 'Juego para {mine.number}')]").click()
        note = WebDriverWait(browser, 10).until(lambda b: b.find_element(By.CSS_SELECTOR, ".offline-note"))
        assert "Juego guardado en este móvil" in note.text
        # Still offline, the next juego goes to pair A too: the page's taps now say juego 2 (a
        # tap carries the juego it is for: two taps kept offline are two juegos, not a repeat).
        again = browser.find_element(By.XPATH, f"//button[contains(., 'Juego para {mine.number}')]")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", again)  # the note moved it
        again.click()
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return window.TorneoQueue.pending()") == 2)
        time.sleep(3)
        assert not ClockJuego.objects.exists()
        back = timezone.now()
        network(browser, online=True)
        WebDriverWait(browser, 30).until(lambda b: ClockJuego.objects.filter(clock__match=match).count() == 2)
        juego = ClockJuego.objects.get(clock__match=match, number=1)
        assert juego.winner == "A" and juego.by == card.terminal.user
        assert tapped - datetime.timedelta(seconds=1) <= juego.ended_at <= back - datetime.timedelta(seconds=2)
        WebDriverWait(browser, 10).until(lambda b: b.execute_script("return window.TorneoQueue.pending()") == 0)
        assert ClockJuego.objects.filter(clock__match=match).count() == 2
    finally:
        network(browser, online=True)
