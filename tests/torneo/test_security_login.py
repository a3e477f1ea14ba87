"""Nobody locks a known username out (torneo/ratelimit.py): the browser that signed in before keeps
signing in while strangers' failures fill the username's window (OWASP's device cookies), and the
draw's juez is published by name, never by username.

The windows live in a per-test memory cache (tests/conftest.py).
"""

import time

import pytest
from django.core import signing
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.torneo.simulation import new_tournament
from tests.torneo.test_round_views import publish_next, text_of, url
from torneo.ratelimit import DEVICE_COOKIE, DEVICE_COOKIE_SALT

pytestmark = pytest.mark.django_db

PASSWORD = "clave-de-prueba"  # tests/factories.py
LOGIN = "/cuenta/entrar/"
LOGOUT = "/cuenta/salir/"
TOKEN = "/api/v1/auth/token/"
YEAR = 365 * 24 * 60 * 60


@pytest.fixture(autouse=True)
def limits(settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **rates,
            "login_ip": "10/min",
            "login_username": "20/hour",  # the site's defaults
            "login_device": "3/day",
        },
    }
    caches["ratelimit"].clear()


def ip(n: int) -> dict[str, str]:
    return {"REMOTE_ADDR": f"192.0.2.{n}"}


def attempt(client: Client, username: str, password: str = PASSWORD, n: int = 1, **extra: object):  # type: ignore[no-untyped-def]
    return client.post(LOGIN, {"username": username, "password": password}, **ip(n), **extra)


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def known_browser(*users: object, n: int = 1) -> Client:
    """A browser where each of `users` signed in once and signed out again: the device cookie stays."""
    browser = Client()
    for user in users:
        assert attempt(browser, user.username, n=n).status_code == 302  # type: ignore[attr-defined]
        browser.post(LOGOUT, **ip(n))  # not Client.logout(), which throws every cookie away
        assert not signed_in(browser)
    return browser


def strangers_fail(username: str, times: int = 21) -> None:
    """Wrong passwords for `username` from as many addresses as tries: the username's window alone."""
    for n in range(times):
        Client().post(LOGIN, {"username": username, "password": f"mal{n}"}, REMOTE_ADDR=f"203.0.113.{n + 1}")


def test_strangers_failures_never_lock_the_owners_browser_out_but_still_stop_strangers():
    user = UserFactory()
    owner = known_browser(user, n=1)
    strangers_fail(user.username, times=25)
    # A fresh browser, the right password: refused (the limit still slows whoever guesses).
    fresh = Client()
    response = attempt(fresh, user.username, n=2)
    assert response.status_code == 429 and not signed_in(fresh)
    # The browser that signed in before: in, with the right password.
    response = attempt(owner, user.username, n=1)
    assert response.status_code == 302 and signed_in(owner)
    assert owner.session["_auth_user_id"] == str(user.pk)


def test_the_device_cookie_is_signed_http_only_lax_for_a_year_and_names_nobody():
    user = UserFactory(first_name="Itziar", last_name="Goikoetxea")
    response = attempt(Client(), user.username)
    cookie = response.cookies[DEVICE_COOKIE]
    assert cookie["httponly"] is True and cookie["samesite"] == "Lax" and int(cookie["max-age"]) == YEAR
    assert not cookie["secure"]  # plain HTTP here (the test site): a Secure cookie would never come back
    for clear in (user.username, user.email, "Itziar", "Goikoetxea"):
        assert clear not in cookie.value
    [[pk, nonce, issued]] = signing.loads(cookie.value, salt=DEVICE_COOKIE_SALT)
    assert pk == str(user.pk) and len(nonce) >= 20 and abs(issued - time.time()) < 60
    # Over HTTPS the cookie is Secure; a failed attempt gives none.
    assert attempt(Client(), user.username, secure=True).cookies[DEVICE_COOKIE]["secure"] is True
    assert DEVICE_COOKIE not in attempt(Client(), user.username, password="mal").cookies
    # The admin's login form gives it too.
    admin = UserFactory(is_staff=True)
    response = Client().post("/admin/login/", {"username": admin.username, "password": PASSWORD}, **ip(3))
    assert response.status_code == 302 and DEVICE_COOKIE in response.cookies


def test_a_forged_or_another_accounts_cookie_gives_no_exemption():
    user, other = UserFactory(), UserFactory()
    genuine = known_browser(user).cookies[DEVICE_COOKIE].value
    strangers_fail(user.username)
    entry = [str(user.pk), "un-nonce-inventado-12345", int(time.time())]
    forged = [
        known_browser(other).cookies[DEVICE_COOKIE].value,  # another account's device
        signing.dumps([entry], salt="otra-sal"),
        signing.dumps([entry], salt=DEVICE_COOKIE_SALT, key="no-es-la-clave-del-sitio"),
        genuine[:-3] + ("xyz" if not genuine.endswith("xyz") else "abc"),  # tampered signature
        "basura",
    ]
    for value in forged:
        browser = Client()
        browser.cookies[DEVICE_COOKIE] = value
        response = attempt(browser, user.username, n=4)
        assert response.status_code == 429 and not signed_in(browser), value
    browser = Client()
    browser.cookies[DEVICE_COOKIE] = genuine
    assert attempt(browser, user.username, n=4).status_code == 302 and signed_in(browser)


def test_a_stolen_cookie_has_a_few_tries_then_is_a_stranger_again():
    user = UserFactory()
    owner = known_browser(user)
    strangers_fail(user.username)
    thief = Client()
    thief.cookies[DEVICE_COOKIE] = owner.cookies[DEVICE_COOKIE].value
    codes = [attempt(thief, user.username, password=f"mal{n}", n=9).status_code for n in range(3)]
    assert codes == [200, 200, 200]  # wrong passwords, answered as such: the device's window ("3/day")
    # Its window is full: that cookie is nobody's device now, and the username's window is full too.
    assert attempt(thief, user.username, n=9).status_code == 429 and not signed_in(thief)
    assert attempt(owner, user.username, n=1).status_code == 429


def test_one_shared_browser_is_a_known_device_of_each_account_that_signed_in_there():
    first, second = UserFactory(), UserFactory()
    tablet = known_browser(first, second)
    strangers_fail(first.username)
    strangers_fail(second.username)
    for user in (first, second):
        assert attempt(tablet, user.username).status_code == 302
        assert tablet.session["_auth_user_id"] == str(user.pk)
        tablet.post(LOGOUT, **ip(1))


def test_failures_of_others_on_the_same_network_do_not_lock_a_known_device_out():
    """The venue's wifi: one address for everyone, a stranger filling its window."""
    user, neighbour = UserFactory(), UserFactory()
    owner = known_browser(user, n=7)
    for n in range(12):
        Client().post(LOGIN, {"username": f"nadie{n}", "password": "mal"}, **ip(7))
    assert attempt(Client(), neighbour.username, n=7).status_code == 429
    assert attempt(owner, user.username, n=7).status_code == 302


def test_the_api_token_honours_the_device_cookie_too():
    user = UserFactory()
    owner = known_browser(user)
    strangers_fail(user.username)
    assert APIClient().post(TOKEN, {"username": user.username, "password": PASSWORD}, **ip(5)).status_code == 429
    api = APIClient()
    api.cookies[DEVICE_COOKIE] = owner.cookies[DEVICE_COOKIE].value
    response = api.post(TOKEN, {"username": user.username, "password": PASSWORD}, **ip(5))
    assert response.status_code == 200 and response.json()["token"]


# --- The draw's juez: by name, never by username (AMM 5.5) -------------------------------------------


def test_the_public_draw_pages_and_the_api_name_the_juez_never_by_username():
    sim = new_tournament(7, seed=3)
    juez = sim.juez
    juez.first_name, juez.last_name = "Begoña", "Arrieta Zubia"  # type: ignore[attr-defined]
    juez.save()  # type: ignore[attr-defined]
    publish_next(sim, public_value="5 5 2")
    username = juez.get_username()  # type: ignore[attr-defined]
    page = Client().get(url(sim, "rondas/1/"))
    assert "Begoña Arrieta Zubia" in text_of(page)
    api = APIClient().get(f"/api/v1/tournaments/{sim.tournament.slug}/rounds/1/")
    assert api.json()["draw"]["witness"] == "Begoña Arrieta Zubia"  # the key stays, its value is the name
    for path in ("rondas/1/", "rondas/1/proyector/", "rondas/1/cartel/", "rondas/"):
        response = Client().get(url(sim, path))
        assert response.status_code == 200 and username not in response.content.decode(), path
    for path in ("rounds/", "rounds/1/"):
        assert username not in APIClient().get(f"/api/v1/tournaments/{sim.tournament.slug}/{path}").content.decode()


def test_a_juez_without_a_name_is_the_tournaments_juez_not_their_username():
    sim = new_tournament(5, seed=1)
    publish_next(sim)
    username = sim.juez.get_username()  # type: ignore[attr-defined]
    page = Client().get(url(sim, "rondas/1/"))
    assert "juez del torneo" in text_of(page) and username not in page.content.decode()
    api = APIClient().get(f"/api/v1/tournaments/{sim.tournament.slug}/rounds/1/").json()
    assert api["draw"]["witness"] == "juez del torneo"
