"""The pairs' private links through the API (issue 32): the mesa issues a pair's link
(``POST …/pairs/<n>/terminal/``) or withdraws it (``DELETE``), as from the pair's page. The link
answered opens the pair's terminal; a new link or its withdrawal stops the old one. Nobody else
issues or withdraws links."""

from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.scoring.test_hands_services import Table, table
from torneo.models import PairTerminal, Tournament

pytestmark = pytest.mark.django_db


def url(t: Table, number: int | None = None) -> str:
    number = t.match.pair_a.number if number is None else number
    return f"/api/v1/tournaments/{t.tournament.slug}/pairs/{number}/terminal/"


def api(user: object = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def path_of(link: str) -> str:
    return urlsplit(link).path


def test_the_mesa_issues_a_link_that_opens_the_pairs_terminal():
    t = table()
    answer = api(t.control).post(url(t))
    assert answer.status_code == 201, answer.content
    assert "no-store" in answer["Cache-Control"]
    body = answer.json()
    assert set(body) == {"pair", "token", "url"} and body["pair"] == t.match.pair_a.number
    assert body["url"].endswith(f"/torneos/{t.tournament.slug}/tarjeta/{body['token']}/")
    assert body["url"].startswith(("http://", "https://"))  # the site's address, as printed on the tarjeta
    phone = Client()
    opened = phone.get(path_of(body["url"]))
    assert opened.status_code == 303
    assert opened["Location"].endswith(f"/torneos/{t.tournament.slug}/parejas/{t.match.pair_a.number}/ficha/")
    assert get_user(phone) == PairTerminal.objects.get(pair=t.match.pair_a).user
    # The organizer too.
    assert api(t.organizer).post(url(t, t.match.pair_b.number)).status_code == 201


def test_issuing_again_stops_the_old_link_and_signs_its_phones_out():
    t = table()
    mesa = api(t.control)
    first = mesa.post(url(t)).json()
    phone = Client()
    assert phone.get(path_of(first["url"])).status_code == 303
    second = mesa.post(url(t)).json()
    assert second["token"] != first["token"]
    assert not get_user(phone).is_authenticated
    assert Client().get(path_of(first["url"])).status_code == 404
    assert Client().get(path_of(second["url"])).status_code == 303
    assert PairTerminal.objects.get(pair=t.match.pair_a).issues == 2


def test_delete_withdraws_the_link():
    t = table()
    mesa = api(t.control)
    issued = mesa.post(url(t)).json()
    phone = Client()
    phone.get(path_of(issued["url"]))
    withdrawn = mesa.delete(url(t))
    assert withdrawn.status_code == 204 and not withdrawn.content
    assert not get_user(phone).is_authenticated
    assert Client().get(path_of(issued["url"])).status_code == 404
    assert not PairTerminal.objects.get(pair=t.match.pair_a).is_active
    # A pair that never had a link: nothing to withdraw, still 204.
    assert mesa.delete(url(t, t.match.pair_b.number)).status_code == 204


def test_nobody_else_issues_or_withdraws_links():
    t = table()
    issued = api(t.control).post(url(t)).json()
    phone = Client()
    phone.get(path_of(issued["url"]))
    terminal = get_user(phone)
    elsewhere = table().organizer  # another tournament's organizer
    for user in (t.player_a, t.juez, terminal, elsewhere, UserFactory()):
        for method in ("post", "delete"):
            answer = getattr(api(user), method)(url(t))
            assert answer.status_code == 403, (user, method, answer.status_code)
            assert answer.json()["detail"]
    # The phone itself, signed in with its session (and its CSRF token), is refused too.
    for method in ("post", "delete"):
        assert getattr(phone, method)(url(t)).status_code == 403
    for method in ("post", "delete"):
        assert getattr(api(), method)(url(t)).status_code in (401, 403)
    # Nothing changed: the first link still opens the pair's terminal.
    assert PairTerminal.objects.get(pair=t.match.pair_a).issues == 1
    assert Client().get(path_of(issued["url"])).status_code == 303


def test_a_draft_of_another_tournament_is_not_found_and_an_unknown_pair_neither():
    t = table(status=Tournament.Status.DRAFT)
    assert api(table().organizer).post(url(t)).status_code == 404
    assert api(t.control).post(url(t, 999)).status_code == 404
    assert api(t.control).delete(url(t, 999)).status_code == 404


def test_a_finished_tournament_gives_no_links_a_spanish_400():
    t = table()
    Tournament.objects.filter(pk=t.tournament.pk).update(status=Tournament.Status.FINISHED)
    answer = api(t.organizer).post(url(t))
    assert answer.status_code == 400
    assert answer.json() == {"detail": "El torneo ha terminado: ya no hay tarjetas de pareja.", "code": "finished"}
    assert not PairTerminal.objects.exists()


def test_the_schema_documents_the_endpoint():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    path = "/api/v1/tournaments/{tournament_slug}/pairs/{number}/terminal/"
    assert path in schema["paths"]
    operations = schema["paths"][path]
    assert {"post", "delete"} <= set(operations)
    assert "201" in operations["post"]["responses"] and "204" in operations["delete"]["responses"]
    link = schema["components"]["schemas"]["TerminalLink"]
    assert set(link["required"]) == {"pair", "token", "url"}
