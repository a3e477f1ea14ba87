"""The organizer's log of changes (issue 18, item 6; torneo/selectors/audit.py): every change to
registrations, roles, draws, results, sanctions and rulings, with who, when and before → after;
filterable, exportable, the organizer's only, never another tournament's, never personal data."""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from referees.services.sanctions import sanction_give, sanction_undo
from tests.factories import UserFactory, grant, make_pair, player_data
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Draw, Tournament
from torneo.services.registrations import pair_update

pytestmark = pytest.mark.django_db


def audit_url(t: Tournament) -> str:
    return f"/torneos/{t.slug}/gestion/cambios/"


def export_url(t: Tournament) -> str:
    return f"/torneos/{t.slug}/gestion/cambios.csv"


@pytest.fixture
def played():
    """A 6-pair knockout with round 1 published; a mesa de control enters table 1 as 3–1, then
    corrects it to 3–2 (two results through the site, as a person does)."""
    sim = new_tournament(6, seed=5, format=Tournament.Format.CEROS, max_losses=1)
    round_ = publish_next_round(sim)
    mesa = grant(UserFactory(username="mesa-ana"), sim.tournament, "control")
    client = Client()
    client.force_login(mesa)
    match = playing(round_)[0]
    url = f"/torneos/{sim.tournament.slug}/gestion/resultados/"
    first = {"round": 1, "table": match.table_number, "games_a": 3, "games_b": 1, "version": 0}
    assert client.post(url, first).status_code == 302
    assert client.post(url, {**first, "games_b": 2, "version": 1}).status_code == 302
    organizer = Client()
    organizer.force_login(sim.organizer)
    return sim, match, organizer


def cards(html: str) -> list[str]:
    """Each change of the page, as its text without tags."""
    items = re.findall(r'<li class="card">(.*?)</li>', html, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item)).strip() for item in items]


def test_a_corrected_result_shows_who_changed_it_and_from_what_to_what(played):
    sim, _match, organizer = played
    response = organizer.get(audit_url(sim.tournament), {"tipo": "resultados"})
    assert response.status_code == 200
    html = response.content.decode()
    # The partida's result: 3–1, then 3–2, each change by the mesa, the second from 1 to 2.
    assert re.search(r'Juegos B</th><td><span class="au-before">1</span> → 2</td>', html)
    texts = cards(html)
    correction = next(t for t in texts if "versión 1" in t and "Cambio" in t)
    assert "mesa-ana" in correction and "Confirmado → Sustituido" in correction
    created = [t for t in texts if "versión 2" in t and "Alta" in t]
    assert created and "Juegos B 2" in created[0] and "mesa-ana" in created[0]
    # Newest first.
    times = re.findall(r'<time datetime="([^"]+)"', html)
    assert times == sorted(times, reverse=True)


def test_rounds_are_named_by_their_number_not_their_database_id(played):
    """Issue 34: the log said «Ronda nº 37» (the round's id) for the draw and the partidas."""
    sim, _match, organizer = played
    html = organizer.get(audit_url(sim.tournament)).content.decode()
    assert "ronda 1" in set(re.findall(r'<th scope="row">Ronda</th><td>(.*?)</td>', html))  # a partida's round
    assert set(re.findall(r'<th scope="row">Sorteo</th><td>(.*?)</td>', html)) == {"sorteo · ronda 1"}
    assert set(re.findall(r'<th scope="row">Torneo</th><td>(.*?)</td>', html)) == {sim.tournament.name}
    assert not re.search(r"<td>nº \d+</td>", html)  # no database id anywhere


def test_roles_granted_through_the_site_are_logged_with_the_organizer(played):
    sim, _match, organizer = played
    UserFactory(username="nuevo-juez")
    response = organizer.post(
        f"/torneos/{sim.tournament.slug}/gestion/funciones/", {"username": "nuevo-juez", "role": "juez"}
    )
    assert response.status_code in (200, 302)
    texts = cards(organizer.get(audit_url(sim.tournament), {"tipo": "funciones"}).content.decode())
    granted = [t for t in texts if "nuevo-juez" in t]
    assert granted and "Alta" in granted[0] and sim.organizer.username in granted[0]
    assert all("Funciones" in t for t in texts)


def test_personal_data_changes_are_logged_without_their_values_rgpd(played):
    sim, _match, organizer = played
    pair = sim.tournament.pairs.order_by("number").first()
    players = [player_data(900, phone="600111222", email="ana@example.org", id_document="12345678Z"), player_data(901)]
    pair_update(pair=pair, players=players, name="Los de siempre")
    html = organizer.get(audit_url(sim.tournament), {"tipo": "inscripciones"}).content.decode()
    assert "Los de siempre" in html
    assert "(dato personal)" in html
    for secret in ("600111222", "ana@example.org", "12345678Z"):
        assert secret not in html
    exported = organizer.get(export_url(sim.tournament), {"tipo": "inscripciones"}).content.decode("utf-8-sig")
    assert "(dato personal)" in exported and "600111222" not in exported and "12345678Z" not in exported


def test_the_draw_secret_is_never_in_the_log(played):
    sim, _match, organizer = played
    draw = Draw.objects.get(round__tournament=sim.tournament)
    assert draw.secret
    html = organizer.get(audit_url(sim.tournament), {"tipo": "sorteos"}).content.decode()
    assert "Sorteo" in html and draw.commitment in html
    assert draw.secret not in html
    assert draw.secret not in organizer.get(export_url(sim.tournament)).content.decode("utf-8-sig")


def test_sanctions_given_and_undone_are_in_the_log(played):
    sim, match, organizer = played
    sanction = sanction_give(by=sim.juez, pair=match.pair_a, article="3.20.c", step=1, match=match)
    sanction_undo(sanction=sanction, by=sim.juez, reason="Error de mesa")
    texts = cards(organizer.get(audit_url(sim.tournament), {"tipo": "incidencias"}).content.decode())
    numbered = [t for t in texts if f"nº {sanction.number}." in t]
    assert len(numbered) >= 2  # given, then its undoing (a new version, the first one changed)
    assert any("Alta" in t and "Apercibimiento" in t for t in numbered)
    assert any("Cambio" in t and "En vigor → Sustituida" in t for t in numbered)


@pytest.mark.parametrize("role", ["control", "juez", "other_organizer", "player", "outsider"])
def test_only_the_organizer_opens_the_log(world, role):
    client = Client()
    client.force_login(world.users[role])
    assert client.get(audit_url(world.tournament)).status_code == 403
    assert client.get(export_url(world.tournament)).status_code == 403


def test_anonymous_visitors_are_sent_to_log_in(world):
    response = Client().get(audit_url(world.tournament))
    assert response.status_code == 302 and "/cuenta/entrar/" in response["Location"]


def test_another_tournaments_changes_never_appear(world):
    other = Tournament.objects.exclude(pk=world.tournament.pk).get()
    make_pair(other, players=[player_data(700, first_name="Forastero"), player_data(701)])
    client = Client()
    client.force_login(world.users["organizer"])
    html = client.get(audit_url(world.tournament)).content.decode()
    assert "Forastero" not in html and world.own_pair.ordered_members()[0].player.first_name in html


def test_filters_by_user_and_dates_and_a_reversed_range_names_the_field(played):
    sim, _match, organizer = played
    url = audit_url(sim.tournament)
    mine = cards(organizer.get(url, {"usuario": "MESA-ANA"}).content.decode())
    assert mine and all("mesa-ana" in t for t in mine)
    today = timezone.localdate()
    assert cards(organizer.get(url, {"desde": today, "hasta": today}).content.decode())
    tomorrow = today + timedelta(days=1)
    assert not cards(organizer.get(url, {"desde": tomorrow}).content.decode())
    bad = organizer.get(url, {"desde": tomorrow, "hasta": today})
    assert bad.status_code == 400
    assert "«Hasta el día» no puede ser anterior" in bad.content.decode()
    assert organizer.get(url, {"tipo": "nada"}).status_code == 400


def test_the_export_has_one_row_per_changed_field_in_three_formats(played):
    sim, _match, organizer = played
    response = organizer.get(export_url(sim.tournament), {"tipo": "resultados"})
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:8] == ["Fecha y hora", "Usuario", "Tipo", "Acción", "Qué", "Campo", "Antes", "Después"]
    assert rows[1][1:4] == ["mesa-ana", "Resultados", "Cambio"]  # newest first: the correction
    assert any(r[5] == "Juegos B" and r[6] == "1" and r[7] == "2" for r in rows[1:])
    xlsx = organizer.get(export_url(sim.tournament), {"formato": "xlsx"})
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"


def test_the_page_costs_the_same_queries_however_long_the_log(played):
    sim, _match, organizer = played

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert organizer.get(audit_url(sim.tournament)).status_code == 200
        return len(ctx)

    before = queries()
    for _ in range(30):
        make_pair(sim.tournament)
    assert queries() <= before


def test_a_juezs_ruling_and_the_one_that_replaces_it_are_in_the_log():
    from scoring.services.hands.rulings import hand_ruling_confirm
    from tests.scoring.test_hands_services import table
    from tests.scoring.test_rulings_services import lie

    t = table()
    hand = lie(t)
    hand_ruling_confirm(hand=hand, by=t.juez, facts={}, expected_version=1)
    hand_ruling_confirm(hand=hand, by=t.juez, facts={"declined_by_error": {"pares": 2}}, expected_version=1)
    organizer = Client()
    organizer.force_login(t.organizer)
    texts = cards(organizer.get(audit_url(t.tournament), {"tipo": "fallos"}).content.decode())
    assert len(texts) == 3 and all(f"mesa {t.match.table_number}" in x for x in texts)
    assert sum("Alta" in x for x in texts) == 2
    replaced = next(x for x in texts if "Cambio" in x)
    assert "Vigente sí → no" in replaced
    assert any("4.2.b" in x for x in texts)  # the articles the ruling applied
