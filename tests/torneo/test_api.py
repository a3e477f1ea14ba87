"""The API: reads, writes through services, bad input with Spanish messages, token auth, schema."""

from datetime import timedelta

import pytest
from django.urls import resolve
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.models import Pair, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def control():
    t = TournamentFactory()
    user = grant(UserFactory(), t, "control")
    client = APIClient()
    client.force_authenticate(user)
    return t, client


def test_public_pair_list_and_search():
    t = TournamentFactory()
    make_pair(t, players=[player_data(1, first_name="Begoña", last_name="Zubiría"), player_data(2)])
    make_pair(t)
    data = APIClient().get(f"/api/v1/tournaments/{t.slug}/pairs/", {"q": "begona zubiria"}).json()
    assert data["count"] == 1 and data["results"][0]["players"][0]["last_name"] == "Zubiría"


def test_register_through_the_api(control):
    t, client = control
    body = {
        "name": "API",
        "players": [
            {"first_name": "Ana", "last_name": "Sanz", "email": "ana@example.com"},
            {"first_name": "Luis", "last_name": "Gil"},
        ],
    }
    response = client.post(f"/api/v1/tournaments/{t.slug}/pairs/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["number"] == 1 and response.json()["players"][0]["email"] == "ana@example.com"
    assert Pair.objects.get(tournament=t).source == Pair.Source.API


def test_api_bad_input_names_the_field_in_spanish(control):
    t, client = control
    body = {
        "players": [
            {"first_name": "Ana", "last_name": "Sanz", "id_document": "12345678A"},
            {"first_name": "", "last_name": "Gil", "email": "x"},
        ]
    }
    response = client.post(f"/api/v1/tournaments/{t.slug}/pairs/", body, format="json")
    assert response.status_code == 400
    errors = response.json()
    assert errors["players.0.id_document"] == ["Jugador 1: la letra del DNI no es correcta."]
    assert errors["players.1.first_name"] == ["Jugador 2: falta el nombre."]
    assert errors["players.1.email"] == ["Jugador 2: el correo electrónico no es válido."]
    assert not Pair.objects.exists()


def test_api_malformed_body(control):
    t, client = control
    response = client.post(f"/api/v1/tournaments/{t.slug}/pairs/", {"players": "nada"}, format="json")
    assert response.status_code == 400 and "players" in response.json()
    response = client.post(f"/api/v1/tournaments/{t.slug}/pairs/", "{no es json", content_type="application/json")
    assert response.status_code == 400 and "JSON" in response.json()["detail"]


def test_api_stale_edit_is_a_409_conflict(control):
    t, client = control
    pair = make_pair(t)
    body = {
        "players": [{"first_name": "Ana", "last_name": "Sanz"}, {"first_name": "Luis", "last_name": "Gil"}],
        "version": 1,
    }
    assert client.put(f"/api/v1/tournaments/{t.slug}/pairs/{pair.number}/", body, format="json").status_code == 200
    response = client.put(f"/api/v1/tournaments/{t.slug}/pairs/{pair.number}/", body, format="json")
    assert response.status_code == 409 and response.json()["code"] == "conflict"


def test_api_check_in_and_service_errors_are_clear(control):
    t, client = control
    pair = make_pair(t)
    url = f"/api/v1/tournaments/{t.slug}/pairs/{pair.number}/check-in/"
    assert client.post(url).json()["checked_in_at"] is not None
    assert client.delete(url).json()["checked_in_at"] is None
    client.post(f"/api/v1/tournaments/{t.slug}/pairs/{pair.number}/withdraw/", {"reason": "enfermo"}, format="json")
    response = client.post(url)
    assert response.status_code == 400 and "retirada" in response.json()["detail"]
    assert client.post(f"/api/v1/tournaments/{t.slug}/pairs/99/check-in/").status_code == 404


def test_api_import_reports_rows(control):
    t, client = control
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("p.csv", b"nombre_1;apellidos_1;nombre_2;apellidos_2\nAna;Sanz;;Gil\n")
    response = client.post(f"/api/v1/tournaments/{t.slug}/pairs/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"row": 2, "column": "nombre_2", "message": "Jugador 2: falta el nombre."}]


def test_token_authentication():
    t = TournamentFactory()
    user = grant(UserFactory(), t, "control")
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = client.post(f"/api/v1/tournaments/{t.slug}/pairs/{make_pair(t).number}/check-in/")
    assert response.status_code == 200
    response = APIClient().post("/api/v1/auth/token/", {"username": user.username, "password": "clave-de-prueba"})
    assert response.json()["token"] == token.key


def test_tournament_create_bad_dates_message(control):
    user = UserFactory(can_create_tournaments=True)
    client = APIClient()
    client.force_authenticate(user)
    response = client.post(
        "/api/v1/tournaments/",
        {"name": "X", "start_date": "2027-01-10", "end_date": "2027-01-01"},
        format="json",
    )
    assert response.status_code == 400
    assert "no puede ser anterior" in str(response.json())


def test_schema_and_docs_are_served_locally(client):
    assert client.get("/api/v1/schema/").status_code == 200
    html = client.get("/api/v1/docs/").content.decode()
    assert "swagger-ui" in html and "cdn" not in html.lower()


def creator_client() -> APIClient:
    client = APIClient()
    client.force_authenticate(UserFactory(can_create_tournaments=True))
    return client


def test_a_tournament_post_reports_every_field_error_at_once():
    # A field's own error (a bad number) used to hide the model's rules (the swiss rounds missing,
    # an unknown tiebreak, dates out of order): all of them now, each under its field.
    body = {
        "name": "Open",
        "start_date": "2027-01-10",
        "end_date": "2027-01-01",
        "games_to_win": "tres",
        "format": "swiss",
        "tiebreaks": "juegos,suerte",
    }
    response = creator_client().post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400
    errors = response.json()
    assert set(errors) == {"games_to_win", "swiss_rounds", "tiebreaks", "end_date"}, errors
    assert errors["end_date"] == ["La fecha de fin no puede ser anterior a la de inicio."]
    assert errors["swiss_rounds"] == ["Indica cuántas rondas tiene el suizo."]
    assert "suerte" in errors["tiebreaks"][0]
    assert not Tournament.objects.filter(name="Open").exists()


def test_a_tournament_post_without_a_name_still_checks_the_rest():
    body = {"start_date": "2027-01-10", "end_date": "2027-01-01", "max_pairs": 1, "format": "groups"}
    errors = creator_client().post("/api/v1/tournaments/", body, format="json").json()
    assert set(errors) == {"name", "max_pairs", "end_date", "group_count"}, errors


def test_a_taken_slug_is_reported_with_the_other_errors():
    TournamentFactory(slug="open-bilbao")
    body = {"name": "Open", "slug": "open-bilbao", "start_date": "2027-01-10", "end_date": "2027-01-01"}
    errors = creator_client().post("/api/v1/tournaments/", body, format="json").json()
    assert set(errors) == {"slug", "end_date"}, errors


def test_a_tournament_edit_checks_the_rules_against_its_other_fields():
    t = TournamentFactory()
    user = grant(UserFactory(), t, "organizer")
    client = APIClient()
    client.force_authenticate(user)
    body = {"end_date": str(t.start_date - timedelta(days=1)), "format": "swiss", "max_pairs": 0}
    response = client.patch(f"/api/v1/tournaments/{t.slug}/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"end_date", "swiss_rounds", "max_pairs"}, response.json()
    # A right edit goes through.
    response = client.patch(f"/api/v1/tournaments/{t.slug}/", {"format": "swiss", "swiss_rounds": 5}, format="json")
    assert response.status_code == 200 and response.json()["swiss_rounds"] == 5


def test_who_may_not_create_a_tournament_is_refused_before_the_body_is_read():
    TournamentFactory(slug="secreto")
    client = APIClient()
    client.force_authenticate(UserFactory())
    response = client.post("/api/v1/tournaments/", {"slug": "secreto"}, format="json")
    assert response.status_code == 403 and "slug" not in response.json()


def test_the_api_root_lists_every_endpoint():
    response = APIClient().get("/api/v1/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    data = response.json()
    assert data["tournaments"] == "http://testserver/api/v1/tournaments/"
    endpoints = data["endpoints"]
    assert endpoints["tournament-list"] == {"url": "http://testserver/api/v1/tournaments/", "methods": ["GET", "POST"]}
    assert endpoints["tournament-detail"]["url"] == "http://testserver/api/v1/tournaments/{tournament_slug}/"
    assert endpoints["pair-list"]["url"] == "http://testserver/api/v1/tournaments/{tournament_slug}/pairs/"
    assert endpoints["api_standings"]["url"] == "http://testserver/api/v1/tournaments/{tournament_slug}/standings/"
    assert endpoints["api_hand"]["url"].endswith("/tournaments/{tournament_slug}/matches/{match_id}/hands/{hand_id}/")
    assert endpoints["result-list"]["methods"] == ["GET", "POST"]
    assert endpoints["api_token"] == {"url": "http://testserver/api/v1/auth/token/", "methods": ["POST"]}
    assert "{tournament_slug}" in data["description"]
    # Every listed template, filled in, is a real URL of the API.
    t = TournamentFactory()
    values = {"tournament_slug": t.slug, "number": "1", "pk": "1", "match_id": "1", "hand_id": "1"}
    for name, endpoint in endpoints.items():
        path = endpoint["url"].removeprefix("http://testserver").format(**values)
        assert resolve(path).url_name == name, (name, path)
    # The players' view, the rounds, the results and the hands, the schema and its pages.
    assert {
        "api_find_player",
        "api_pair_overview",
        "round-list",
        "round-publish",
        "submission-confirm",
        "api_match_hands",
        "api_schema",
        "api_docs",
        "api_redoc",
    } <= set(endpoints)


def test_the_api_root_is_browsable():
    response = APIClient().get("/api/v1/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert "http://testserver/api/v1/tournaments/{tournament_slug}/pairs/" in response.content.decode()


@pytest.mark.parametrize("query", [{"offset": "99999999999999999999"}, {"limit": "99999999999999999999"}])
def test_a_page_past_what_a_database_integer_holds_is_an_empty_page_not_an_error(control, query):
    """The API fuzz found it on PostgreSQL: an offset past a bigint was «bigint out of range», a 500
    that aborted the request's transaction (torneo/api/pagination.py)."""
    t, client = control
    make_pair(t)
    response = client.get("/api/v1/players/", query)
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert body["results"] == [] if "offset" in query else len(body["results"]) == 2
    assert client.get("/api/v1/players/").status_code == 200  # the same connection goes on working
