"""In a real browser: the mesa de control opens a pair's *Cuentas* from the check-in list and
prints its codes; a player opens the QR's address, sends the code, chooses a username and password
and is signed in as that pair's player; an organizer's invitation link makes a juez. Real browsers
send an Origin header with their form POSTs: these pages must pass Django's CSRF check with it."""

import re

import pytest
from django.contrib.auth.models import User
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests.e2e.waits import left_the_page
from tests.factories import TournamentFactory, UserFactory, grant, make_pair
from torneo.models import Player, TournamentRole
from torneo.permissions import is_member_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "Tute-y-mus-2026"


def sign_in(browser, live_server, username: str) -> None:
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/cuenta/entrar/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys("clave-de-prueba" + Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: "/cuenta/entrar/" not in d.current_url)


def submit(browser, selector: str) -> None:
    button = browser.find_element(By.CSS_SELECTOR, selector)
    button.click()
    WebDriverWait(browser, 10).until(left_the_page(button))


def choose_account(browser, username: str) -> None:
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password1").send_keys(NEW_PASSWORD)
    browser.find_element(By.ID, "id_password2").send_keys(NEW_PASSWORD)
    submit(browser, "form.form button.primary")


def test_the_mesa_prints_a_code_and_the_player_claims_the_account(live_server, browser):
    t = TournamentFactory()
    pair = make_pair(t)
    grant(UserFactory(username="mesa"), t, "control")
    sign_in(browser, live_server, "mesa")
    browser.get(f"{live_server.url}/torneos/{t.slug}/gestion/parejas/")
    link = browser.find_element(By.CSS_SELECTOR, f"#pair-{pair.number} a.accounts-link")
    link.click()
    WebDriverWait(browser, 10).until(left_the_page(link))
    submit(browser, "form button.primary")  # Generar códigos de la pareja
    slips = browser.find_elements(By.CSS_SELECTOR, ".slip")
    assert len(slips) == 2 and all(s.find_element(By.TAG_NAME, "svg") for s in slips)
    code = slips[0].get_attribute("data-code")
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", code)

    browser.delete_all_cookies()  # the player's phone
    browser.get(f"{live_server.url}/torneos/{t.slug}/cuenta/?codigo={code}")
    assert browser.find_element(By.ID, "id_code").get_attribute("value") == code
    submit(browser, "form.form button.primary")
    assert browser.current_url.endswith("/cuenta/elegir/")
    choose_account(browser, "jugadora")
    assert browser.current_url == f"{live_server.url}/torneos/{t.slug}/"
    assert "jugadora" in browser.find_element(By.CSS_SELECTOR, ".topbar").text  # signed in
    user = User.objects.get(username="jugadora")
    assert Player.objects.get(user=user).pk == pair.ordered_members()[0].player_id
    assert is_member_of(user, pair)


def test_an_invitation_link_makes_a_juez(live_server, browser):
    t = TournamentFactory()
    grant(UserFactory(username="organiza"), t, "organizer")
    sign_in(browser, live_server, "organiza")
    browser.get(f"{live_server.url}/torneos/{t.slug}/gestion/funciones/")
    link = browser.find_element(By.CSS_SELECTOR, f"a[href='/torneos/{t.slug}/gestion/cuentas/']")
    link.click()
    WebDriverWait(browser, 10).until(left_the_page(link))
    browser.find_element(By.ID, "id_label").send_keys("Marta")
    browser.find_element(By.CSS_SELECTOR, "#id_role option[value=juez]").click()
    submit(browser, "form.form button.primary")
    invitation = browser.find_element(By.ID, "account-link").text.strip()
    assert "/cuenta/invitacion/" in invitation

    browser.delete_all_cookies()
    browser.get(invitation)
    choose_account(browser, "marta")
    assert browser.current_url.endswith(f"/torneos/{t.slug}/gestion/")
    assert TournamentRole.objects.filter(tournament=t, user__username="marta", role="juez").exists()
