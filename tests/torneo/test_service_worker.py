"""The service worker (issue 33): ``/sw.js`` from the site's root, with the headers that let it control
every page and make phones check it at each visit, the app shell and a version written in (a change
of the site's static files is another worker); ``/sin-conexion/``, the page it shows for a page the
phone never opened, in Spanish, and with nothing of the visitor's in it."""

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from torneo.views import offline

pytestmark = pytest.mark.django_db


def _version(client: Client) -> str:
    match = re.search(r'^const VERSION = "([0-9a-f]+)";$', client.get("/sw.js").content.decode(), re.M)
    assert match is not None
    return match.group(1)


def test_the_worker_is_served_from_the_root_with_its_headers(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"
    assert reverse("service_worker") == "/sw.js"
    code = response.content.decode()
    precache = re.search(r"^const PRECACHE = (\[.*\]);$", code, re.M)
    assert precache is not None
    for url in ("/static/css/site.css", "/static/js/live.js", "/static/js/sw-register.js", "/static/js/clocks.js"):
        assert f'"{url}"' in precache.group(1)
    assert '"/sin-conexion/"' in precache.group(1)
    assert 'const OFFLINE_URL = "/sin-conexion/";' in code
    assert 'const VERSION = "dev";' not in code
    assert client.post("/sw.js").status_code == 405


def test_the_version_changes_with_the_worker_and_with_the_static_files(client, monkeypatch, tmp_path):
    first = _version(client)
    assert _version(client) == first  # the same files: the same worker, byte for byte

    real_find = finders.find
    worker = tmp_path / "sw.js"
    worker.write_text(Path(real_find(offline.WORKER)).read_text(encoding="utf-8") + "\n// changed\n", encoding="utf-8")
    monkeypatch.setattr(
        finders, "find", lambda name, *a, **k: str(worker) if name == offline.WORKER else real_find(name)
    )
    second = _version(client)
    assert second != first

    css = tmp_path / "site.css"
    css.write_text("body { color: red; }\n", encoding="utf-8")

    def find(name, *args, **kwargs):
        if name == offline.WORKER:
            return str(worker)
        if name == "css/site.css":
            return str(css)
        return real_find(name)

    monkeypatch.setattr(finders, "find", find)
    assert _version(client) not in {first, second}


def test_the_offline_page_is_in_spanish_and_holds_nothing_of_the_visitor(client):
    client.force_login(UserFactory(username="ana-mesa"))
    response = client.get("/sin-conexion/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Sin conexión: esta página no se había abierto en este móvil." in html
    assert '<html lang="es">' in html
    assert "ana-mesa" not in html and "csrfmiddlewaretoken" not in html
    assert "data-private-page" not in html


def test_the_pages_say_whether_they_were_rendered_for_someone_signed_in(client):
    """The worker keeps no copy of a page rendered for someone signed in: base.html marks them."""
    home = client.get("/").content.decode()
    assert 'id="sw-register"' in home and "data-private-page" not in home
    assert 'data-worker="/sw.js"' in home
    client.force_login(UserFactory())
    assert "data-private-page" in client.get("/").content.decode()


def test_the_desks_and_the_terminals_pages_say_they_are_an_app_shell_for_their_account_only(client):
    """static/js/sw.js keeps apart, for the account signed in, the pages that say
    <meta name="offline-shell">: the result desk, the juez's desk, the pair's page for its own
    players (with the account in data-account); never a page for anyone else, nor another staff page."""
    from django.test import Client as Browser

    from tests.scoring.test_hands_services import table
    from torneo.services.terminals import terminal_issue

    t = table()
    shell = '<meta name="offline-shell">'
    base = f"/torneos/{t.tournament.slug}"
    mesa = Browser()
    mesa.force_login(t.control)
    for url in (f"{base}/gestion/resultados/",):
        html = mesa.get(url).content.decode()
        assert shell in html and f'data-account="{t.control.pk}"' in html, url
    assert shell not in mesa.get(f"{base}/gestion/").content.decode()  # the dashboard: not a desk
    juez = Browser()
    juez.force_login(t.juez)
    assert shell in juez.get(f"{base}/gestion/juez/").content.decode()
    pair_page = f"{base}/parejas/{t.match.pair_a.number}/ficha/"
    assert shell not in client.get(pair_page).content.decode()  # anonymous: a public copy, if any
    phone = Browser()
    phone.force_login(terminal_issue(pair=t.match.pair_a, by=t.control).terminal.user)
    assert shell in phone.get(pair_page).content.decode()
    assert shell not in phone.get(f"{base}/parejas/{t.match.pair_b.number}/ficha/").content.decode()
