"""The API: reads, writes through services, bad input with Spanish messages, token auth, schema."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.models import Pair

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
