"""In a real browser 390 px wide: a player opens their pair's page in a circuit's tournament, taps
their name under «Rating y ranking en el …», and reads their rating and their results in the
circuit, with no sideways scrolling (issue 35)."""

import pytest
from selenium.webdriver.common.by import By

from circuits.models import PlayerRating
from circuits.ratings import ratings_recompute
from circuits.selectors import circuit_tournaments
from tests.circuits.test_ratings import link, season
from tests.factories import UserFactory
from torneo.models import Pair, Player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = 390


def test_a_player_goes_from_the_pair_page_to_their_rating_on_a_390_px_phone(live_server, browser):
    s = season(1, 2)
    ana, bea = UserFactory(), UserFactory()
    link(Pair.objects.get(tournament=s.sims[0].tournament, number=1), [ana, bea])
    link(Pair.objects.get(tournament=s.sims[1].tournament, number=3), [ana, bea])
    for sim in s.sims:
        sim.play_all()
    ratings_recompute()
    rating = PlayerRating.objects.get(person=f"u:{ana.pk}")
    pair = Pair.objects.get(tournament=s.sims[1].tournament, number=3)
    name = pair.ordered_members()[0].player.full_name
    browser.set_window_size(PHONE, 844)
    browser.get(f"{live_server.url}/")
    browser.add_cookie({"name": "django_language", "value": "es"})
    browser.get(f"{live_server.url}/torneos/{pair.tournament.slug}/parejas/3/ficha/")
    links = browser.find_element(By.CSS_SELECTOR, ".ct-pair-links")
    assert "Rating y ranking en el C" in links.text
    links.find_element(By.LINK_TEXT, name).click()
    latest = circuit_tournaments(s.circuit)[-1]  # the page names the person as their latest registration
    assert browser.find_element(By.TAG_NAME, "h1").text == Player.objects.get(user=ana, tournament=latest).full_name
    shown = browser.find_element(By.ID, "rating").text
    assert f"{rating.ordinal:.1f}".replace(".", ",") in shown and f"{rating.games} partidas" in shown
    circuit = browser.find_element(By.ID, "circuito").text
    assert "en la clasificación de jugadores" in circuit and "T1:" in circuit and "T2:" in circuit
    width = browser.execute_script("return document.documentElement.clientWidth;")
    assert width <= PHONE
    assert browser.execute_script("return document.documentElement.scrollWidth;") <= width
