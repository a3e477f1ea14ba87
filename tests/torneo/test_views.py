"""Public and staff pages: what players and the mesa de control see, and bad input on forms."""

import re

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.models import Pair, Tournament
from torneo.services.registrations import PlayerData

pytestmark = pytest.mark.django_db


def errors_in(html: str) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", "".join(re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', html, re.S)))


def test_home_lists_public_tournaments_only():
    listed = TournamentFactory(name="Open de Bilbao")
    TournamentFactory(name="Torneo oculto", listed=False)
    TournamentFactory(name="Borrador secreto", status=Tournament.Status.DRAFT)
    make_pair(listed)
    html = Client().get("/").content.decode()
    assert "Open de Bilbao" in html and "1 pareja inscrita" in html
    assert "Torneo oculto" not in html and "Borrador secreto" not in html


def test_unlisted_tournament_is_reachable_by_its_address():
    t = TournamentFactory(name="Torneo oculto", listed=False)
    assert Client().get(f"/torneos/{t.slug}/").status_code == 200


def test_pairs_page_search_ignores_accents_and_case():
    t = TournamentFactory()
    make_pair(t, players=[PlayerData("Íñigo", "Muñoz Zabala"), player_data(1)])
    make_pair(t, players=[PlayerData("Ana", "García"), player_data(2)])
    html = Client().get(f"/torneos/{t.slug}/parejas/", {"q": "inigo munoz"}).content.decode()
    assert "Íñigo Muñoz Zabala" in html and "Ana García" not in html
    html = Client().get(f"/torneos/{t.slug}/parejas/", {"q": "zzz"}).content.decode()
    assert "Ninguna pareja con «zzz»" in html


def test_public_pairs_page_never_shows_contact_data():
    t = TournamentFactory()
    make_pair(
        t,
        players=[
            player_data(1, phone="600123456", email="secreto@example.com", id_document="12345678Z"),
            player_data(2),
        ],
    )
    html = Client().get(f"/torneos/{t.slug}/parejas/").content.decode()
    assert "600123456" not in html and "secreto@example.com" not in html and "12345678Z" not in html


def test_public_registration_form_registers_and_redirects_to_the_list():
    t = TournamentFactory()
    response = Client().post(
        f"/torneos/{t.slug}/inscripcion/",
        {
            "name": "Los Txikis",
            "p1_first_name": "Mikel",
            "p1_last_name": "Urrutia",
            "p2_first_name": "Ane",
            "p2_last_name": "Olano",
            "p2_email": "ane@example.com",
        },
        follow=True,
    )
    html = response.content.decode()
    assert "Pareja Los Txikis inscrita con el número 1." in html
    assert Pair.objects.get(tournament=t).source == Pair.Source.PUBLIC_FORM


def test_public_registration_bad_input_shows_spanish_messages_on_the_fields_and_writes_nothing():
    t = TournamentFactory()
    make_pair(t, players=[PlayerData("Rosa", "Paz"), player_data(2)])
    response = Client().post(
        f"/torneos/{t.slug}/inscripcion/",
        {
            "p1_first_name": "Rosa",
            "p1_last_name": "PAZ",
            "p1_id_document": "12345678A",
            "p2_first_name": "Luis",
            "p2_last_name": "",
            "p2_phone": "abc",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    found = errors_in(html)
    assert "Este campo es obligatorio." in found  # p2 last name (Django's message, in the site's Spanish: locale/es)
    response = Client().post(
        f"/torneos/{t.slug}/inscripcion/",
        {
            "p1_first_name": "Rosa",
            "p1_last_name": "PAZ",
            "p1_id_document": "12345678A",
            "p2_first_name": "Luis",
            "p2_last_name": "Gil",
            "p2_phone": "abc",
        },
    )
    found = errors_in(response.content.decode())
    assert "Jugador 1: la letra del DNI no es correcta." in found
    assert any(m.startswith("Jugador 2: el teléfono") for m in found)
    assert Pair.objects.filter(tournament=t).count() == 1


def test_public_registration_when_closed():
    t = TournamentFactory(status=Tournament.Status.REGISTRATION_CLOSED)
    response = Client().post(f"/torneos/{t.slug}/inscripcion/", {"p1_first_name": "A"})
    assert "Inscripción cerrada" in response.content.decode()
    assert not Pair.objects.exists()


def test_trio_form_shows_a_third_optional_player_amm_5_8_e():
    assert "p3_first_name" not in Client().get(f"/torneos/{TournamentFactory().slug}/inscripcion/").content.decode()
    html = Client().get(f"/torneos/{TournamentFactory(allow_trios=True).slug}/inscripcion/").content.decode()
    assert "p3_first_name" in html and "opcional: tríos" in html


def test_mesa_checks_in_without_reloading_through_the_api():
    """static/js/checkin.js: the page's form names the API's check-in (data-api); POST marks the
    pair present, DELETE undoes it, with the browser's session and the page's CSRF token."""
    t = TournamentFactory()
    pair = make_pair(t)
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(grant(UserFactory(), t, "control"))
    html = client.get(f"/torneos/{t.slug}/gestion/parejas/").content.decode()
    url = f"/api/v1/tournaments/{t.slug}/pairs/{pair.number}/check-in/"
    assert f'data-api="{url}"' in html
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    assert client.post(url, format="json").status_code == 403  # no token: refused
    response = client.post(url, format="json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    pair.refresh_from_db()
    # The script shows the time as the page does (the server's local time, in the ISO string).
    shown = re.search(r"T(\d\d:\d\d)", response.json()["checked_in_at"]).group(1)
    assert shown == timezone.localtime(pair.checked_in_at).strftime("%H:%M")
    response = client.delete(url, format="json", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200 and response.json()["checked_in_at"] is None


def test_check_in_error_is_clear_for_the_script():
    t = TournamentFactory(max_pairs=1)
    make_pair(t)
    waiting = make_pair(t)
    client = APIClient()
    client.force_login(grant(UserFactory(), t, "control"))
    response = client.post(f"/api/v1/tournaments/{t.slug}/pairs/{waiting.number}/check-in/", format="json")
    assert response.status_code == 400 and "lista de espera" in response.json()["detail"]
    waiting.refresh_from_db()
    assert waiting.checked_in_at is None


def test_check_in_without_javascript_is_a_plain_post_and_a_redirect():
    t = TournamentFactory(max_pairs=1)
    pair = make_pair(t)
    waiting = make_pair(t)
    client = Client()
    client.force_login(grant(UserFactory(), t, "control"))
    url = f"/torneos/{t.slug}/gestion/parejas/{pair.number}/presencia/"
    back = f"/torneos/{t.slug}/gestion/parejas/?q=x#pair-{pair.number}"
    response = client.post(url, {"present": "1", "next": back})
    assert response.status_code == 302 and response["Location"] == back
    pair.refresh_from_db()
    assert pair.checked_in_at is not None
    html = client.get(f"/torneos/{t.slug}/gestion/parejas/").content.decode()
    assert f"✔ {timezone.localtime(pair.checked_in_at).strftime('%H:%M')}" in html
    # Even asking for JSON, the page answers as a page: the JSON is the API's.
    response = client.post(url, {"present": "0"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 302 and response["Location"] == f"/torneos/{t.slug}/gestion/parejas/"
    pair.refresh_from_db()
    assert pair.checked_in_at is None
    response = client.post(f"/torneos/{t.slug}/gestion/parejas/{waiting.number}/presencia/", {"present": "1"})
    assert response.status_code == 302
    assert "lista de espera" in client.get(response["Location"]).content.decode()


def test_csv_import_page_lists_bad_rows():
    t = TournamentFactory()
    client = Client()
    client.force_login(grant(UserFactory(), t, "control"))
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("p.csv", b"nombre_1;apellidos_1;nombre_2;apellidos_2\nAna;;Luis;Gil\n")
    response = client.post(f"/torneos/{t.slug}/gestion/importar/", {"file": upload})
    html = response.content.decode()
    assert response.status_code == 400
    assert "No se ha importado nada" in html and "apellidos_1" in html and "<td>2</td>" in html
    upload = SimpleUploadedFile("p.xlsx", b"binary")
    response = client.post(f"/torneos/{t.slug}/gestion/importar/", {"file": upload})
    assert "El archivo debe ser un CSV" in response.content.decode()


def test_withdraw_next_parameter_cannot_redirect_off_site():
    t = TournamentFactory()
    pair = make_pair(t)
    client = Client()
    client.force_login(grant(UserFactory(), t, "control"))
    response = client.post(f"/torneos/{t.slug}/parejas/{pair.number}/retirar/", {"next": "https://evil.example/"})
    assert response["Location"] == f"/torneos/{t.slug}/"


def test_language_switch_to_english():
    t = TournamentFactory()
    client = Client()
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    html = client.get(f"/torneos/{t.slug}/parejas/").content.decode()
    assert 'lang="en"' in html


def test_the_language_form_needs_no_token_but_never_works_from_another_site():
    """The public pages carry no per-visitor secret (torneo/views/language.py): the language form
    is checked by what the browser says of its origin."""
    t = TournamentFactory()
    url = f"/torneos/{t.slug}/parejas/"
    client = Client(enforce_csrf_checks=True)
    answer = client.post("/i18n/setlang/", {"language": "en", "next": url}, HTTP_ORIGIN="http://testserver")
    assert answer.status_code == 302 and answer["Location"] == url
    assert 'lang="en"' in client.get(url).content.decode()
    for forged in ({"HTTP_ORIGIN": "https://evil.example"}, {"HTTP_SEC_FETCH_SITE": "cross-site"}):
        victim = Client(enforce_csrf_checks=True)
        refused = victim.post("/i18n/setlang/", {"language": "en", "next": url}, **forged)
        assert refused.status_code == 403 and "idioma" in refused.content.decode()
        assert 'lang="es"' in victim.get(url).content.decode()
    assert Client().get("/i18n/setlang/").status_code == 405
    off_site = Client().post("/i18n/setlang/", {"language": "en", "next": "https://evil.example/"})
    assert off_site["Location"] == "/"


def test_custom_404_in_spanish():
    response = Client().get("/torneos/no-existe/")
    assert response.status_code == 404
    assert "Página no encontrada" in response.content.decode()
