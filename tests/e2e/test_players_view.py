"""In a real browser, on a phone-sized window: a player finds themself by name, opens their pair's
page and sees this round's table and opponent; then the result is confirmed (through the
services, as the losing pair's signature from another phone, AMM 3.16) and the page updates
itself without reloading. And a juez records a hand with the quick bet buttons."""

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from scoring.models import RecordedHand
from scoring.services.results import result_confirm, result_submit
from tests.e2e.waits import across_pages
from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.models import Match, Player, Round, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_find_yourself_open_your_pair_and_see_the_result_arrive_without_reloading(live_server, browser):
    t = TournamentFactory(name="Open de Pamplona", status=Tournament.Status.RUNNING, results_double_check=True)
    control = grant(UserFactory(), t, "control")
    mine = make_pair(t, players=[player_data(1, first_name="Íñigo", last_name="Goikoetxea Urrutia"), player_data(2)])
    rivals = make_pair(t, players=[player_data(3, first_name="Maite", last_name="Olano Aguirre"), player_data(4)])
    for _ in range(4):
        make_pair(t)
    loser = UserFactory()
    Player.objects.filter(pk=rivals.ordered_members()[0].player_id).update(user=loser)
    r = Round.objects.create(
        tournament=t, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    match = Match.objects.create(round=r, table_number=7, pair_a=mine, pair_b=rivals)

    browser.set_window_size(412, 915)
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "django_language", "value": "es"})  # Spanish whatever the machine's locale
    browser.get(f"{live_server.url}/torneos/{t.slug}/")
    browser.find_element(By.LINK_TEXT, "Búscate").click()
    search = browser.find_element(By.ID, "q")
    search.send_keys("inigo goikoetxea")
    search.submit()
    found = browser.find_elements(By.CSS_SELECTOR, ".found .found-pair")
    assert len(found) == 1 and "Íñigo Goikoetxea Urrutia" in found[0].text
    assert found[0].size["height"] >= 48  # a thumb-sized target on the phone
    found[0].click()

    assert browser.current_url.endswith(f"/torneos/{t.slug}/parejas/{mine.number}/ficha/")
    assert browser.find_element(By.ID, "mesa").text == "7"
    now = browser.find_element(By.ID, "ahora").text
    assert f"contra {rivals.number} · {rivals.display_name}" in now and "Maite Olano Aguirre" in now
    assert browser.find_element(By.ID, "resultado").text == "Pendiente"

    # The same page polling every 400 ms (?intervalo=, for the test); a marker proves no reload.
    browser.get(f"{browser.current_url}?intervalo=400")
    browser.execute_script("window.__sinRecargar = 'sí';")
    submission = result_submit(match=match, by=control, games_a=3, games_b=1)
    result_confirm(submission=submission, by=loser)

    WebDriverWait(browser, 15).until(lambda b: b.find_element(By.ID, "resultado").text == "Ganada 3-1")
    assert browser.execute_script("return window.__sinRecargar;") == "sí"
    assert browser.current_url.endswith("?intervalo=400")


def test_a_juez_records_a_hand_on_the_phone_with_the_quick_bet_buttons(live_server, browser):
    t = TournamentFactory(status=Tournament.Status.RUNNING)
    juez = grant(UserFactory(), t, "juez")
    a, b = make_pair(t), make_pair(t)
    r = Round.objects.create(
        tournament=t, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    match = Match.objects.create(round=r, table_number=3, pair_a=a, pair_b=b)
    client = Client()
    client.force_login(juez)
    browser.set_window_size(412, 915)
    browser.get(f"{live_server.url}/")
    browser.add_cookie(
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    )
    browser.add_cookie({"name": "django_language", "value": "es"})
    browser.get(f"{live_server.url}/torneos/{t.slug}/partidas/{match.pk}/manos/")

    browser.find_element(By.CSS_SELECTOR, "input[name=mano][value=b]").click()
    frame = browser.find_element(By.CSS_SELECTOR, ".frame-names").text
    assert frame.startswith(f"A = {b.number} · ") and f"B = {a.number} · " in frame  # A is the mano pair
    for seat, text in enumerate(["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]):
        browser.find_element(By.ID, f"id_cards_{seat}").send_keys(text)
    grande = browser.find_element(By.CSS_SELECTOR, ".lance[data-lance=grande]")
    grande.find_element(By.CSS_SELECTOR, "button[data-bet='A:envido N']").click()  # envido 5
    grande.find_element(By.CSS_SELECTOR, "button[data-bet='B:quiero']").click()
    assert browser.find_element(By.ID, "id_lance_grande").get_attribute("value") == "A:envido 5, B:quiero"
    # One lance's buttons at a time: opening chica's closes grande's.
    chica = browser.find_element(By.CSS_SELECTOR, ".lance[data-lance=chica]")
    assert not chica.find_element(By.CSS_SELECTOR, ".quick").is_displayed()
    chica.find_element(By.CSS_SELECTOR, ".quick-toggle").click()
    assert chica.find_element(By.CSS_SELECTOR, ".quick").is_displayed()
    assert not grande.find_element(By.CSS_SELECTOR, ".quick").is_displayed()
    chica.find_element(By.CSS_SELECTOR, "button[data-bet='A:paso']").click()
    assert browser.find_element(By.ID, "id_lance_chica").get_attribute("value") == "A:paso"
    browser.find_element(By.CSS_SELECTOR, "form.hand-form button[type=submit]").click()

    across_pages(browser, 10).until(lambda br: "anotada" in br.find_element(By.CSS_SELECTOR, ".messages").text)
    hand = RecordedHand.objects.get()
    assert hand.mano_side == "b" and hand.record["lances"]["grande"] == ["A:envido 5", "B:quiero"]
    # pair_b mano: A (pair_b) +5 grande; B (pair_a) +1 chica, +3 pares, +1 punto.
    assert (hand.score_a, hand.score_b) == (5, 5) and hand.counted
    assert browser.find_element(By.CSS_SELECTOR, f"#mano-{hand.pk} .score-after").text == "5 – 5"
