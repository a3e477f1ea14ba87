"""The circuits' pages (issue 35): the public ranking and its downloads, creating and managing a
circuit, each refusal on the server."""

import io
from typing import Any

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from circuits.models import Circuit
from circuits.services import circuit_create, circuit_tournament_add
from tests.factories import UserFactory, grant
from tests.torneo.simulation import new_tournament
from torneo.models import Player, Tournament

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def season() -> Any:
    """A circuit of two played knockouts and one in draft, by their organizer."""
    organizer = UserFactory()
    sims = [new_tournament(4, seed=s, format=Tournament.Format.CEROS, max_losses=1) for s in (1, 2, 3)]
    for sim in sims:
        grant(organizer, sim.tournament, "organizer")
    circuit = circuit_create(by=organizer, name="Circuito de Euskadi", season="2026", points_table="100, 80, 60")
    for sim in sims:
        circuit_tournament_add(circuit=circuit, tournament=sim.tournament, by=organizer)
    sims[0].play_all()
    sims[1].play_all()
    Tournament.objects.filter(pk=sims[2].tournament.pk).update(status=Tournament.Status.DRAFT, name="Secreto")
    return type("Season", (), {"circuit": circuit, "organizer": organizer, "sims": sims})


def test_the_public_sees_the_ranking_with_names_only(season: Any) -> None:
    Player.objects.filter(tournament=season.sims[0].tournament).update(
        phone="600 111 222", email="ane@example.com", id_document="12345678Z"
    )
    page = Client().get(reverse("circuits:detail", args=[season.circuit.slug]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "<title>Circuito de Euskadi · 2026</title>" in html
    assert "Clasificación de parejas" in html and "Clasificación de jugadores" in html
    assert html.count('class="ct-pos"') == 8 + 16  # 8 pairs, 16 players
    for secret in ("600 111 222", "ane@example.com", "12345678Z", "Secreto"):
        assert secret not in html  # no personal data; a tournament in draft is not shown
    assert "1.º 100 · 2.º 80 · 3.º 60" in html
    listing = Client().get(reverse("circuits:list")).content.decode()
    assert "Circuito de Euskadi" in listing and "Crear un circuito" not in listing


def test_the_ranking_downloads_as_csv_and_xlsx(season: Any) -> None:
    url = reverse("circuits:download", args=[season.circuit.slug])
    csv = Client().get(url, {"de": "parejas"})
    assert csv["Content-Disposition"].endswith('circuito-circuito-de-euskadi-2026-parejas.csv"')
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("puesto,pareja,jugadores,puntos,torneos,") and len(lines) == 1 + 8
    book = openpyxl.load_workbook(io.BytesIO(Client().get(url, {"de": "jugadores", "formato": "xlsx"}).content))
    sheet = book.active
    assert sheet.max_row == 1 + 16 and sheet.cell(1, 2).value == "jugador"
    assert Client().get(url, {"de": "secretos"}).status_code == 404
    assert Client().get(url, {"formato": "pdf"}).status_code == 404


def test_creating_a_circuit_needs_an_organizer_and_names_the_wrong_field(season: Any) -> None:
    url = reverse("circuits:new")
    assert Client().get(url).status_code == 302  # to the login
    assert signed_in(UserFactory()).get(url).status_code == 403
    client = signed_in(season.organizer)
    bad = client.post(url, {"name": "Liga", "season": "2027", "points_table": "100, 120", "final_spots": 0})
    assert bad.status_code == 400
    assert "Los puntos no pueden subir: el puesto 2 (120) da más que el 1 (100)." in bad.content.decode()
    assert Circuit.objects.count() == 1
    good = client.post(url, {"name": "Liga", "season": "2027", "points_table": "10 8 6", "final_spots": 4})
    circuit = Circuit.objects.get(name="Liga")
    assert good["Location"] == reverse("circuits:manage", args=[circuit.slug])
    assert circuit.points_table == [10, 8, 6] and circuit.final_spots == 4 and circuit.best_of is None


def test_only_its_managers_manage_a_circuit_and_add_only_their_own_tournaments(season: Any) -> None:
    manage = reverse("circuits:manage", args=[season.circuit.slug])
    other = UserFactory()
    theirs = new_tournament(4).tournament
    grant(other, theirs, "organizer")
    assert signed_in(other).get(manage).status_code == 403
    add = reverse("circuits:tournament_add", args=[season.circuit.slug])
    assert signed_in(other).post(add, {"tournament": theirs.pk}).status_code == 403
    client = signed_in(season.organizer)
    page = client.get(manage).content.decode()
    assert "Circuito de Euskadi" in page and f'<option value="{theirs.pk}">{theirs.name}</option>' not in page
    response = client.post(add, {"tournament": theirs.pk}, follow=True)  # not theirs to add
    assert "Elige uno de tus torneos que aún no esté en el circuito." in response.content.decode()
    assert season.circuit.entries.count() == 3
    mine = new_tournament(4).tournament
    grant(season.organizer, mine, "organizer")
    client.post(add, {"tournament": mine.pk})
    assert season.circuit.entries.filter(tournament=mine).exists()
    remove = reverse("circuits:tournament_remove", args=[season.circuit.slug, mine.pk])
    assert signed_in(other).post(remove).status_code == 403
    client.post(remove)
    assert not season.circuit.entries.filter(tournament=mine).exists()
    edit = client.post(manage, {"name": "Circuito", "season": "2026", "points_table": "5", "final_spots": "x"})
    assert edit.status_code == 400 and Circuit.objects.get(pk=season.circuit.pk).name == "Circuito de Euskadi"
