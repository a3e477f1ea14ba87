"""CSV exports of results (per round and all), standings and the final classification: UTF-8 with
a BOM, Spanish headers, public data only."""

import csv
import io

import pytest
from django.test import Client

from scoring.services.results import result_submit
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament

pytestmark = pytest.mark.django_db


def read(response) -> list[dict[str, str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")  # the BOM: spreadsheets then read the accents right
    return list(csv.DictReader(io.StringIO(body[1:])))


def test_results_csv_per_round_and_for_all_rounds_with_exentas():
    sim = new_tournament(5, seed=31, format=Tournament.Format.CEROS, max_losses=2)
    first = publish_next_round(sim)
    a, b = playing(first)
    result_submit(match=a, by=sim.organizer, games_a=3, games_b=1, tantos=[[40, 2], [40, 3], [1, 40], [40, 39]])
    result_submit(match=b, by=sim.organizer, outcome="walkover", winner=b.pair_b)
    publish_next_round(sim)
    client = Client()
    response = client.get(f"/torneos/{sim.tournament.slug}/resultados/ronda-1.csv")
    assert 'filename="resultados-' in response["Content-Disposition"]
    rows = read(response)
    assert list(rows[0]) == [
        "ronda",
        "grupo",
        "mesa",
        "pareja_a",
        "nombre_a",
        "jugadores_a",
        "pareja_b",
        "nombre_b",
        "jugadores_b",
        "resultado",
        "juegos_a",
        "juegos_b",
        "tantos_a",
        "tantos_b",
        "ganadora",
        "version",
    ]
    assert len(rows) == 3
    played = next(r for r in rows if r["mesa"] == str(a.table_number))
    assert (played["resultado"], played["juegos_a"], played["juegos_b"], played["tantos_a"], played["tantos_b"]) == (
        "Jugada",
        "3",
        "1",
        "121",
        "84",
    )
    assert played["ganadora"] == str(a.pair_a.number) and played["jugadores_a"] == a.pair_a.members_label
    walkover = next(r for r in rows if r["mesa"] == str(b.table_number))
    assert (walkover["resultado"], walkover["ganadora"]) == ("Incomparecencia", str(b.pair_b.number))
    exenta = next(r for r in rows if r["mesa"] == "")
    assert (exenta["nombre_b"], exenta["resultado"]) == ("exenta", "Exenta")
    everything = read(client.get(f"/torneos/{sim.tournament.slug}/resultados/resultados.csv"))
    assert {r["ronda"] for r in everything} == {"1", "2"}
    assert client.get(f"/torneos/{sim.tournament.slug}/resultados/ronda-9.csv").status_code == 404


def test_standings_csv_has_the_tiebreak_columns_in_the_tournaments_order():
    sim = new_tournament(6, seed=32, format=Tournament.Format.SWISS, swiss_rounds=2, tiebreaks="buchholz,juegos")
    sim.play_all()
    rows = read(Client().get(f"/torneos/{sim.tournament.slug}/clasificacion/clasificacion.csv"))
    assert list(rows[0])[-3:] == ["desempate_buchholz", "desempate_juegos", "estado"]
    assert len(rows) == 6 and rows[0]["puesto"] == "1"
    assert sum(int(r["ganadas"]) for r in rows) == 6  # three matches a round, two rounds
    assert "telefono" not in ",".join(rows[0]) and "@" not in str(rows)


def test_classification_csv_shows_shared_places():
    sim = new_tournament(4, seed=33, format=Tournament.Format.CEROS, max_losses=1, tiebreaks="wins")
    for m in playing(publish_next_round(sim)):
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=0)
    (final,) = playing(publish_next_round(sim))
    result_submit(match=final, by=sim.organizer, games_a=0, games_b=3)
    rows = read(Client().get(f"/torneos/{sim.tournament.slug}/clasificacion/final.csv"))
    assert [(r["puesto"], r["puesto_hasta"]) for r in rows] == [("1", "1"), ("2", "2"), ("3", "4"), ("3", "4")]
    assert rows[0]["pareja"] == str(final.pair_b.number) and rows[0]["detalle"] == "Campeona"


def test_exports_of_a_draft_tournament_are_hidden():
    sim = new_tournament(2, seed=1, status=Tournament.Status.DRAFT)
    for path in ("resultados/resultados.csv", "clasificacion/clasificacion.csv", "clasificacion/final.csv"):
        assert Client().get(f"/torneos/{sim.tournament.slug}/{path}").status_code == 404
