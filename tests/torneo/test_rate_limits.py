"""Rate limits (torneo/ratelimit.py): the attacks of the security review, each refused with a 429.

Small limits through the `settings` fixture; the windows live in a per-test memory cache
(tests/conftest.py). time-machine moves the clock past a window.
"""

import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest
import time_machine
from django.core.cache import caches
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory, grant, player_data
from torneo.models import Pair

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "clave-de-prueba"  # tests/factories.py
TOKEN = "/api/v1/auth/token/"
LOGIN = "/cuenta/entrar/"


@pytest.fixture(autouse=True)
def small_limits(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login_ip": "5/min", "login_username": "3/hour", "registration": "3/hour"},
    }
    caches["ratelimit"].clear()


def ip(n: int) -> dict[str, str]:
    return {"REMOTE_ADDR": f"192.0.2.{n}"}


def form_data(n: int) -> dict[str, str]:
    a, b = player_data(500 + 2 * n), player_data(501 + 2 * n)
    return {
        "p1_first_name": a.first_name,
        "p1_last_name": a.last_name,
        "p2_first_name": b.first_name,
        "p2_last_name": b.last_name,
    }


def api_data(n: int) -> dict[str, object]:
    a, b = player_data(700 + 2 * n), player_data(701 + 2 * n)
    return {"players": [{"first_name": p.first_name, "last_name": p.last_name} for p in (a, b)]}


def soon(hours: float) -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=hours)


# --- The API token ---------------------------------------------------------------------------------


def test_token_wrong_passwords_lock_the_username_out_even_with_the_right_password():
    user = UserFactory()
    client = APIClient()
    for n in range(3):  # a different address each time: the per-username rule alone
        response = client.post(TOKEN, {"username": user.username, "password": f"mal{n}"}, **ip(n))
        assert response.status_code == 400
    response = client.post(TOKEN, {"username": user.username, "password": "mal"}, **ip(10))
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 3000  # the hour's window, not an average
    assert response.json()["detail"].startswith("Demasiados intentos fallidos")
    # The lockout: the right password from yet another address is refused too, and gives no token.
    response = client.post(TOKEN, {"username": user.username, "password": PASSWORD}, **ip(11))
    assert response.status_code == 429 and "token" not in response.json()
    # Same name in other case or spacing: same lockout. Another user is not affected.
    assert client.post(TOKEN, {"username": f" {user.username.upper()} ", "password": "x"}, **ip(12)).status_code == 429
    other = UserFactory()
    assert client.post(TOKEN, {"username": other.username, "password": PASSWORD}, **ip(12)).status_code == 200
    with time_machine.travel(soon(1.01)):
        response = client.post(TOKEN, {"username": user.username, "password": PASSWORD}, **ip(11))
        assert response.status_code == 200 and response.json()["token"]


def test_token_failures_per_ip_across_usernames():
    client = APIClient()
    # Odd bodies are the usual 400, never a 500.
    assert client.post(TOKEN, [1, 2], format="json", **ip(3)).status_code == 400
    assert client.post(TOKEN, {"username": 7, "password": "x"}, format="json", **ip(3)).status_code == 400
    users = [UserFactory() for _ in range(7)]
    for user in users[:5]:
        assert client.post(TOKEN, {"username": user.username, "password": "mal"}, **ip(1)).status_code == 400
    response = client.post(TOKEN, {"username": users[5].username, "password": PASSWORD}, **ip(1))
    assert response.status_code == 429 and int(response["Retry-After"]) <= 60
    assert client.post(TOKEN, {"username": users[5].username, "password": PASSWORD}, **ip(2)).status_code == 200
    with time_machine.travel(soon(0.02)):  # 72 s: the minute's window has passed
        assert client.post(TOKEN, {"username": users[6].username, "password": PASSWORD}, **ip(1)).status_code == 200


def test_successful_logins_are_not_counted_only_failures():
    user = UserFactory()
    client = APIClient()
    for _ in range(8):
        assert client.post(TOKEN, {"username": user.username, "password": PASSWORD}, **ip(1)).status_code == 200
    codes = [client.post(TOKEN, {"username": user.username, "password": "mal"}, **ip(1)).status_code for _ in range(4)]
    assert codes == [400, 400, 400, 429]


# --- The login form (and the admin's) ----------------------------------------------------------------


def test_login_form_locks_the_username_out_with_a_spanish_429_page():
    user = UserFactory()
    client = Client()
    for n in range(3):
        response = client.post(LOGIN, {"username": user.username, "password": "mal"}, **ip(n))
        assert response.status_code == 200 and not response.wsgi_request.user.is_authenticated
    response = client.post(LOGIN, {"username": user.username, "password": PASSWORD}, **ip(20))
    assert response.status_code == 429 and int(response["Retry-After"]) > 3000
    html = response.content.decode()
    assert "Demasiados intentos fallidos de entrar" in html and "dentro de 60 minutos" in html
    assert "Torneos de mus" in html  # the site's page (base.html), not a bare error
    assert "_auth_user_id" not in client.session
    with time_machine.travel(soon(1.01)):
        response = client.post(LOGIN, {"username": user.username, "password": PASSWORD}, **ip(20))
        assert response.status_code == 302 and "_auth_user_id" in client.session


def test_login_form_and_api_share_one_lockout():
    user = UserFactory()
    APIClient().post(TOKEN, {"username": user.username, "password": "mal"}, **ip(1))
    Client().post(LOGIN, {"username": user.username, "password": "mal"}, **ip(2))
    Client().post("/admin/login/", {"username": user.username, "password": "mal"}, **ip(3))
    assert Client().post(LOGIN, {"username": user.username, "password": PASSWORD}, **ip(4)).status_code == 429
    assert APIClient().post(TOKEN, {"username": user.username, "password": PASSWORD}, **ip(5)).status_code == 429


def test_admin_login_is_limited_too():
    admin = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    for n in range(3):
        assert client.post("/admin/login/", {"username": admin.username, "password": "mal"}, **ip(n)).status_code == 200
    response = client.post("/admin/login/", {"username": admin.username, "password": PASSWORD}, **ip(9))
    assert response.status_code == 429 and "_auth_user_id" not in client.session


def test_login_form_failures_per_ip():
    client = Client()
    for n in range(5):
        client.post(LOGIN, {"username": f"nadie{n}", "password": "mal"}, **ip(1))
    user = UserFactory()
    assert client.post(LOGIN, {"username": user.username, "password": PASSWORD}, **ip(1)).status_code == 429
    assert client.post(LOGIN, {"username": user.username, "password": PASSWORD}, **ip(2)).status_code == 302


def test_login_page_itself_is_never_refused_only_the_attempt():
    user = UserFactory()
    for _ in range(3):
        Client().post(LOGIN, {"username": user.username, "password": "mal"}, **ip(1))
    assert Client().post(LOGIN, {"username": user.username, "password": "mal"}, **ip(1)).status_code == 429
    assert Client().get(LOGIN, **ip(1)).status_code == 200


# --- Public registration -------------------------------------------------------------------------------


def test_public_registration_form_is_limited_per_ip_and_stores_nothing_after():
    t = TournamentFactory()
    for n in range(3):
        assert Client().post(f"/torneos/{t.slug}/inscripcion/", form_data(n), **ip(1)).status_code == 302
    response = Client().post(f"/torneos/{t.slug}/inscripcion/", form_data(3), **ip(1))
    assert response.status_code == 429
    html = response.content.decode()
    assert "Demasiadas inscripciones desde esta conexión" in html and "mesa de control" in html
    assert t.name in html  # the tournament's page frame
    assert Pair.objects.filter(tournament=t).count() == 3
    assert Client().get(f"/torneos/{t.slug}/inscripcion/", **ip(1)).status_code == 200  # reading is free
    assert Client().post(f"/torneos/{t.slug}/inscripcion/", form_data(4), **ip(2)).status_code == 302


def test_public_registration_api_is_limited_per_ip_with_json_429():
    t = TournamentFactory()
    client = APIClient()
    url = f"/api/v1/tournaments/{t.slug}/registrations/"
    for n in range(3):
        assert client.post(url, api_data(n), format="json", **ip(1)).status_code == 201
    response = client.post(url, api_data(3), format="json", **ip(1))
    assert response.status_code == 429 and response["Content-Type"].startswith("application/json")
    assert int(response["Retry-After"]) > 0 and response.json()["detail"].startswith("Demasiadas inscripciones")
    assert Pair.objects.filter(tournament=t).count() == 3
    with time_machine.travel(soon(1.01)):
        assert client.post(url, api_data(3), format="json", **ip(1)).status_code == 201


def test_registration_limit_is_per_ip_whatever_the_tournament_and_the_door():
    t1, t2 = TournamentFactory(), TournamentFactory()
    APIClient().post(f"/api/v1/tournaments/{t1.slug}/registrations/", api_data(0), format="json", **ip(1))
    Client().post(f"/torneos/{t2.slug}/inscripcion/", form_data(1), **ip(1))
    Client().post(f"/torneos/{t1.slug}/inscripcion/", form_data(2), **ip(1))
    response = APIClient().post(f"/api/v1/tournaments/{t2.slug}/registrations/", api_data(3), format="json", **ip(1))
    assert response.status_code == 429
    assert Client().post(f"/torneos/{t2.slug}/inscripcion/", form_data(4), **ip(1)).status_code == 429
    assert Pair.objects.count() == 3


def test_invalid_submissions_count_too():
    t = TournamentFactory()
    for _ in range(3):
        assert Client().post(f"/torneos/{t.slug}/inscripcion/", {"p1_first_name": "A"}, **ip(1)).status_code == 200
    assert Client().post(f"/torneos/{t.slug}/inscripcion/", form_data(0), **ip(1)).status_code == 429


def test_the_tournaments_staff_are_never_limited():
    t = TournamentFactory()
    control = grant(UserFactory(), t, "control")
    api = APIClient()
    api.force_authenticate(control)
    public, mesa = f"/api/v1/tournaments/{t.slug}/registrations/", f"/api/v1/tournaments/{t.slug}/pairs/"
    for n in range(5):
        assert api.post(public, api_data(n), format="json", **ip(1)).status_code == 201
        assert api.post(mesa, api_data(10 + n), format="json", **ip(1)).status_code == 201
    page = Client()
    page.force_login(control)
    for n in range(5):
        assert page.post(f"/torneos/{t.slug}/inscripcion/", form_data(20 + n), **ip(1)).status_code == 302
    assert Pair.objects.filter(tournament=t).count() == 15
    # Nothing of that was counted: an anonymous visitor from the same address has the whole allowance.
    codes = [Client().post(f"/torneos/{t.slug}/inscripcion/", form_data(40 + n), **ip(1)).status_code for n in range(4)]
    assert codes == [302, 302, 302, 429]


def test_staff_of_another_tournament_are_limited_like_anyone():
    t, other = TournamentFactory(), TournamentFactory()
    client = APIClient()
    client.force_authenticate(grant(UserFactory(), other, "organizer"))
    url = f"/api/v1/tournaments/{t.slug}/registrations/"
    codes = [client.post(url, api_data(n), format="json", **ip(1)).status_code for n in range(4)]
    assert codes == [201, 201, 201, 429]


# --- The client's address ------------------------------------------------------------------------------


def test_x_forwarded_for_is_ignored_unless_a_proxy_is_declared(settings):
    t = TournamentFactory()
    url = f"/torneos/{t.slug}/inscripcion/"
    for n in range(3):
        Client().post(url, form_data(n), HTTP_X_FORWARDED_FOR=f"198.51.100.{n}", **ip(1))
    assert Client().post(url, form_data(3), HTTP_X_FORWARDED_FOR="198.51.100.9", **ip(1)).status_code == 429
    # Behind one trusted proxy (REMOTE_ADDR is the proxy), the last hop it adds is the client.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    response = Client().post(url, form_data(4), HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.9", **ip(1))
    assert response.status_code == 302


def test_an_ipv6_client_is_its_64_network():
    t = TournamentFactory()
    url = f"/torneos/{t.slug}/inscripcion/"
    for n in range(3):
        Client().post(url, form_data(n), REMOTE_ADDR=f"2001:db8:1:2::{n + 1}")
    assert Client().post(url, form_data(3), REMOTE_ADDR="2001:db8:1:2:ffff::9").status_code == 429
    assert Client().post(url, form_data(4), REMOTE_ADDR="2001:db8:1:3::1").status_code == 302


# --- Settings --------------------------------------------------------------------------------------------


def test_the_limits_cache_is_shared_by_processes_and_configurable(tmp_path):
    """Not the per-process memory cache (each gunicorn worker would have its own limits)."""
    code = (
        "import django, os, json; os.environ['DJANGO_SETTINGS_MODULE'] = 'torneo.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(json.dumps([s.CACHES['ratelimit']['BACKEND'], s.CACHES['ratelimit']['LOCATION'],"
        " s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], s.REST_FRAMEWORK['NUM_PROXIES']]))"
    )

    def run(**env: str) -> list[object]:
        import json

        environ = {**os.environ, "VAR_DIR": str(tmp_path), **env}
        for name in ("RATELIMIT_CACHE_URL", "CACHE_URL", "NUM_PROXIES", "RATELIMIT_REGISTRATION"):
            if name not in env:
                environ.pop(name, None)
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)  # type: ignore[no-any-return]

    backend, location, rates, proxies = run()
    assert backend == "torneo.filecache.FileCache"  # Django's, listing its files less often
    assert Path(str(location)).parent == tmp_path
    assert {k: rates[k] for k in ("login_ip", "login_username", "registration", "clock_tap")} == {  # type: ignore[index]
        "login_ip": "10/min",
        "login_username": "20/hour",
        "registration": "10/hour",
        "clock_tap": "30/min",
    }
    assert proxies == 0
    backend, location, rates, proxies = run(
        RATELIMIT_CACHE_URL="redis://cache:6379/2", RATELIMIT_REGISTRATION="30/hour", NUM_PROXIES="1"
    )
    assert backend.endswith("RedisCache") and location == "redis://cache:6379/2"  # type: ignore[union-attr]
    assert rates["registration"] == "30/hour" and proxies == 1  # type: ignore[index]
