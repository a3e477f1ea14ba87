"""The juez's pages (AMM chapter V) with Django's test client: the juez's desk (an incident from the
table's number, 5.3.a), an incident with the ladder's proposal (5.4, 5.4.a), the log with its
filters, the undo and the spreadsheet, and the players' report (5.3). Each page answers its roles
(the mesa de control reads the log, read-only); a refusal comes back next to its field, in
Spanish, with status 400 and nothing written."""

import csv
import datetime
import io
import re

import pytest
from django.test import Client
from django.urls import reverse

from referees.models import Incident, Sanction
from referees.services.incidents import incident_report
from referees.services.sanctions import sanction_give
from scoring.services import clocks as clock_svc
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round, world_match
from tests.torneo.simulation import new_tournament
from tests.world import ROLES
from torneo.models import Match, Pair, Player, Tournament

pytestmark = pytest.mark.django_db

STEP = Sanction.Step


@pytest.fixture
def room():
    """A 6-pair tournament, round 1 published with its clocks running, a juez and a mesa."""
    sim = new_tournament(6, seed=41, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-sala"), sim.tournament, "juez")
    control = grant(UserFactory(username="mesa-sala"), sim.tournament, "control")
    clock_svc.clocks_start_round(round=round_, by=juez, at=datetime.datetime.now(datetime.UTC))
    return sim, round_, juez, control, playing(round_)


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def text_of(response) -> str:
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def player_of(pair: Pair):
    user = UserFactory()
    Player.objects.filter(pk=pair.ordered_members()[0].player_id).update(user=user)
    return user


def desk_url(tournament) -> str:
    return reverse("referees:juez_desk", args=[tournament.slug])


def detail_url(incident) -> str:
    return reverse("referees:incident_detail", args=[incident.tournament.slug, incident.pk])


def log_url(tournament) -> str:
    return reverse("referees:incident_log", args=[tournament.slug])


def csv_url(tournament) -> str:
    return reverse("referees:incident_log_csv", args=[tournament.slug])


def report_url(match) -> str:
    return reverse("referees:report", args=[match.round.tournament.slug, match.pk])


def log_incident(juez, match, *, article="3.20.c", side="A", description=""):
    pair = match.pair_a if side == "A" else match.pair_b
    return incident_report(
        tournament=match.round.tournament, by=juez, match=match, pair=pair, article=article, description=description
    )


# --- who opens what -------------------------------------------------------------------------------

STAFF = {"juez", "organizer", "superuser"}
LOG_READERS = STAFF | {"control"}  # the mesa de control reads the log (it enters the results a sanction changes)


@pytest.mark.parametrize("role", ROLES)
def test_each_page_answers_its_roles(world, role):
    match = world_match(world)
    incident = log_incident(world.users["juez"], match)
    client = client_for(world.users.get(role))
    pages = {
        desk_url(world.tournament): STAFF,
        detail_url(incident): STAFF,
        log_url(world.tournament): LOG_READERS,
        csv_url(world.tournament): LOG_READERS,
        report_url(match): STAFF | {"player"},  # the player plays this partida
    }
    for url, roles in pages.items():
        response = client.get(url)
        if role == "anonymous":
            assert response.status_code == 302 and "/cuenta/entrar/" in response["Location"], url
        else:
            assert response.status_code == (200 if role in roles else 403), (url, role, response.status_code)


def test_the_mesa_de_control_reads_the_log_without_acting(room):
    sim, _round, juez, control, matches = room
    incident = log_incident(juez, matches[0])
    given = sanction_give(
        by=juez, pair=incident.pair, match=incident.match, incident=incident, article="3.20.c", step=1
    )
    page = client_for(control).get(log_url(sim.tournament))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Solo lectura" in html and 'class="rf-undo"' not in html and detail_url(incident) not in html
    assert ">Anular</button>" in client_for(juez).get(log_url(sim.tournament)).content.decode()
    response = client_for(control).post(log_url(sim.tournament), {"sanction": given.pk, "reason": "No"})
    assert response.status_code == 403
    assert Sanction.objects.get(pk=given.pk).status == Sanction.Status.IN_FORCE


def test_a_player_of_another_partida_cannot_report_on_this_one_amm_5_3(room):
    _sim, _round, _juez, _control, matches = room
    stranger = player_of(matches[1].pair_a)
    assert client_for(stranger).get(report_url(matches[0])).status_code == 403
    response = client_for(stranger).post(report_url(matches[0]), {"pair": "A", "article": "6.3"})
    assert response.status_code == 403 and not Incident.objects.exists()


def test_the_dashboard_and_the_table_page_link_the_juez_pages(world):
    match = world_match(world)
    slug = world.tournament.slug
    dashboard = reverse("torneo:manage_dashboard", args=[slug])
    juez_html = client_for(world.users["juez"]).get(dashboard).content.decode()
    assert f'href="{desk_url(world.tournament)}"' in juez_html and f'href="{log_url(world.tournament)}"' in juez_html
    control_html = client_for(world.users["control"]).get(dashboard).content.decode()
    assert f'href="{desk_url(world.tournament)}"' not in control_html
    assert f'href="{log_url(world.tournament)}"' in control_html
    table = reverse("scoring:clock_table", args=[slug, match.pk])
    assert f'href="{report_url(match)}"' in client_for(world.users["player"]).get(table).content.decode()
    assert f'href="{report_url(match)}"' not in client_for(world.users["control"]).get(table).content.decode()
    assert f'href="{report_url(match)}"' not in client_for().get(table).content.decode()
    assert desk_url(world.tournament) in client_for(world.users["juez"]).get(table).content.decode()


# --- the juez's desk ------------------------------------------------------------------------------


def test_the_juez_logs_an_incident_from_the_table_number_amm_5_3_a(room):
    sim, _round, juez, _control, matches = room
    match = matches[1]
    client = client_for(juez)
    page = client.get(desk_url(sim.tournament))
    assert page.status_code == 200
    html = page.content.decode()
    assert '<option value="3.20.c">3.20.c — Meterse en baraja (amonestación)</option>' in html
    assert 'name="table"' in html and 'name="pair"' in html
    response = client.post(
        desk_url(sim.tournament),
        {"ronda": 1, "table": match.table_number, "pair": "B", "article": "3.20.c", "description": "Se mete"},
    )
    incident = Incident.objects.get()
    assert response.status_code == 302
    assert response["Location"].endswith(f"?ronda=1#incidencia-{incident.pk}")
    assert (incident.match_id, incident.pair_id, incident.article, incident.source) == (
        match.pk,
        match.pair_b_id,
        "3.20.c",
        "juez",
    )
    assert incident.minute is not None  # the partida's clock runs: its minute
    page = text_of(client.get(response["Location"]))
    assert f"Mesa {match.table_number}: incidencia anotada a la pareja {match.pair_b.number} (AMM 3.20.c)." in page
    assert "Incidencias abiertas (1)" in page and "Meterse en baraja (amonestación)" in page and "Se mete" in page
    assert detail_url(incident) in client.get(desk_url(sim.tournament)).content.decode()  # «Sancionar»


def test_the_desk_refuses_a_table_that_is_not_in_the_round(room):
    sim, _round, juez, _control, _matches = room
    response = client_for(juez).post(desk_url(sim.tournament), {"ronda": 1, "table": 99, "pair": "A", "article": "6.3"})
    assert response.status_code == 400
    assert "No hay ninguna mesa 99 en la ronda 1." in text_of(response)
    assert not Incident.objects.exists()
    response = client_for(juez).post(desk_url(sim.tournament), {"ronda": 1, "table": 1, "pair": "A"})
    assert response.status_code == 400 and "Elige el artículo." in text_of(response)
    assert not Incident.objects.exists()


def test_the_desk_lists_the_tables_with_open_incidents_first(room):
    sim, _round, juez, _control, matches = room
    last = matches[-1]
    log_incident(juez, last)
    log_incident(juez, last, article="6.3")
    page = text_of(client_for(juez).get(desk_url(sim.tournament)))
    tables = re.findall(r"Mesa (\d+) \d+ – \d+", page)
    assert tables[0] == str(last.table_number)
    assert tables[1:] == sorted(tables[1:], key=int)
    assert "2 incidencias abiertas" in page
    # A table named in the address fills the form with its pairs.
    html = client_for(juez).get(desk_url(sim.tournament) + f"?mesa={last.table_number}").content.decode()
    assert f'value="{last.table_number}"' in html and last.pair_a.display_name in html


# --- an incident: the ladder (AMM 5.4, 5.4.a) ------------------------------------------------------


def test_the_sanction_page_shows_the_ladders_proposal_amm_5_4(room):
    _sim, _round, juez, _control, matches = room
    incident = log_incident(juez, matches[0])
    response = client_for(juez).get(detail_url(incident))
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'<input type="radio" name="step" value="1" id="id_step_1" checked', html)
    assert 'value="2" id="id_step_2" checked' not in html
    page = text_of(response)
    assert "Apercibimiento propuesta (AMM 5.4)" in page
    for step in ("Pérdida de un juego", "Pérdida de la partida", "Expulsión del torneo"):
        assert f"{step} saltarse pasos: necesita motivo (AMM 5.4.a)" in page


def test_the_first_step_of_the_ladder_needs_no_reason_amm_5_4(room):
    sim, _round, juez, _control, matches = room
    incident = log_incident(juez, matches[0])
    client = client_for(juez)
    response = client.post(detail_url(incident), {"action": "sanction", "step": STEP.APERCIBIMIENTO})
    assert response.status_code == 302 and response["Location"].startswith(desk_url(sim.tournament))
    sanction = Sanction.objects.get()
    assert (sanction.step, sanction.incident_id, sanction.pair_id) == (
        STEP.APERCIBIMIENTO,
        incident.pk,
        matches[0].pair_a_id,
    )
    incident.refresh_from_db()
    assert incident.status == Incident.Status.SANCTIONED
    page = text_of(client.get(response["Location"]))
    assert f"Sanción anotada. Juez: apercibimiento a la pareja {matches[0].pair_a.number} (AMM 3.20.c)." in page
    # The next incident of the pair in this partida: the ladder proposes the loss of a juego.
    second = log_incident(juez, matches[0], article="5.10")
    page = text_of(client_for(juez).get(detail_url(second)))
    assert "Pérdida de un juego propuesta (AMM 5.4)" in page
    assert "Apercibimiento menos de lo propuesto: necesita motivo (AMM 5.4)" in page
    assert "En esta partida (cuentan para la escala, AMM 5.4):" in page


def test_skipping_a_step_without_a_reason_is_refused_and_nothing_is_written_amm_5_4_a(room):
    _sim, _round, juez, _control, matches = room
    match = matches[0]
    incident = log_incident(juez, match, article="5.10")
    response = client_for(juez).post(detail_url(incident), {"action": "sanction", "step": STEP.PARTIDA, "reason": ""})
    assert response.status_code == 400
    html = response.content.decode()
    error = re.search(r'<div class="field has-error">.*?name="reason".*?</div>', html, re.S)
    assert error and "(AMM 5.4.a)" in error[0]  # next to the reason
    assert "Saltarse pasos de la escala de sanciones necesita un motivo" in error[0]
    assert 'value="3" id="id_step_3" checked' in html  # the juez's choice kept
    assert not Sanction.objects.exists()
    incident.refresh_from_db()
    match.refresh_from_db()
    assert incident.status == Incident.Status.OPEN and match.outcome == Match.Outcome.PENDING


def test_skipping_a_step_with_a_reason_loses_the_partida_amm_5_4_a(room):
    _sim, _round, juez, _control, matches = room
    match = matches[0]
    incident = log_incident(juez, match, article="5.10")
    response = client_for(juez).post(
        detail_url(incident), {"action": "sanction", "step": STEP.PARTIDA, "reason": "Insulta al juez"}
    )
    assert response.status_code == 302
    sanction = Sanction.objects.get()
    assert (sanction.step, sanction.proposed, sanction.reason) == (STEP.PARTIDA, STEP.APERCIBIMIENTO, "Insulta al juez")
    match.refresh_from_db()
    assert (match.outcome, match.winner_id) == (Match.Outcome.RULING, match.pair_b_id)


def test_an_article_with_its_own_penalty_proposes_no_step_and_needs_the_reason(room):
    _sim, _round, juez, _control, matches = room
    incident = log_incident(juez, matches[0], article="2.8")
    page = text_of(client_for(juez).get(detail_url(incident)))
    assert "El artículo 2.8 fija su propia sanción" in page and "propuesta (AMM" not in page
    response = client_for(juez).post(detail_url(incident), {"action": "sanction", "step": STEP.APERCIBIMIENTO})
    assert response.status_code == 400
    assert "El artículo 2.8 fija su propia sanción: escribe la decisión y su motivo." in text_of(response)
    assert not Sanction.objects.exists()


def test_the_sanctions_of_other_partidas_are_shown_apart_amm_5_4_a(room):
    _sim, _round, juez, _control, matches = room
    match = matches[0]
    sanction_give(by=juez, pair=match.pair_a, article="5.10", step=STEP.APERCIBIMIENTO)  # outside this partida
    incident = log_incident(juez, match)
    page = text_of(client_for(juez).get(detail_url(incident)))
    assert "Fuera de lo que cuenta la escala" in page
    assert "Apercibimiento propuesta (AMM 5.4)" in page  # it does not count in this partida


def test_an_incident_without_a_pair_asks_which_pair_first(room):
    _sim, _round, juez, _control, matches = room
    match = matches[0]
    incident = incident_report(tournament=match.round.tournament, by=juez, match=match, article="6.3")
    client = client_for(juez)
    html = client.get(detail_url(incident)).content.decode()
    assert 'href="?pareja=A"' in html and 'href="?pareja=B"' in html and 'name="step"' not in html
    assert "Apercibimiento propuesta (AMM 5.4)" in text_of(client.get(detail_url(incident) + "?pareja=B"))
    response = client.post(detail_url(incident), {"action": "sanction", "step": 1})
    assert response.status_code == 400 and "Elige primero a qué pareja se sanciona." in text_of(response)
    response = client.post(detail_url(incident) + "?pareja=B", {"action": "sanction", "step": 1, "pareja": "B"})
    assert response.status_code == 302
    assert Sanction.objects.get().pair_id == match.pair_b_id


def test_the_juez_closes_an_incident_without_a_sanction(room):
    sim, _round, juez, _control, matches = room
    incident = log_incident(juez, matches[0])
    client = client_for(juez)
    response = client.post(detail_url(incident), {"action": "dismiss", "resolution": ""})
    assert response.status_code == 400 and "Escribe por qué se archiva sin sanción." in text_of(response)
    incident.refresh_from_db()
    assert incident.status == Incident.Status.OPEN
    response = client.post(detail_url(incident), {"action": "dismiss", "resolution": "No se vio nada"})
    assert response.status_code == 302
    incident.refresh_from_db()
    assert (incident.status, incident.resolution, incident.closed_by) == ("dismissed", "No se vio nada", juez)
    assert not Sanction.objects.exists()
    assert "Incidencias abiertas (0)" in text_of(client.get(desk_url(sim.tournament)))


# --- the log --------------------------------------------------------------------------------------


def test_the_log_undoes_a_sanction_with_its_reason(room):
    sim, _round, juez, _control, matches = room
    incident = log_incident(juez, matches[0])
    given = sanction_give(
        by=juez, pair=incident.pair, match=incident.match, incident=incident, article="3.20.c", step=1
    )
    client = client_for(juez)
    page = client.get(log_url(sim.tournament))
    assert page.status_code == 200 and "Anular" in page.content.decode()
    response = client.post(log_url(sim.tournament) + "?estado=sanctioned", {"sanction": given.pk, "reason": ""})
    assert response.status_code == 400 and "Anular una sanción necesita un motivo." in text_of(response)
    assert Sanction.objects.get(pk=given.pk).status == Sanction.Status.IN_FORCE
    response = client.post(
        log_url(sim.tournament) + "?estado=sanctioned", {"sanction": given.pk, "reason": "Era la otra pareja"}
    )
    assert response.status_code == 302 and response["Location"].endswith("?estado=sanctioned")
    versions = list(Sanction.objects.filter(number=given.number).order_by("version"))
    assert [(s.version, s.status) for s in versions] == [(1, "superseded"), (2, "undone")]
    assert versions[1].reason == "Era la otra pareja"
    page = text_of(client.get(response["Location"]))
    assert f"Sanción nº 1 anulada: apercibimiento a la pareja {incident.pair.number}." in page


def test_the_log_filters_by_status_article_round_and_pair(room):
    sim, _round, juez, _control, matches = room
    first = log_incident(juez, matches[0], article="3.20.c", description="primera")
    log_incident(juez, matches[1], article="6.3", side="B", description="segunda")
    sanction_give(by=juez, pair=first.pair, match=first.match, incident=first, article="3.20.c", step=1)
    client = client_for(juez)

    def shown(query: str) -> set[str]:
        page = text_of(client.get(log_url(sim.tournament) + query))
        return {word for word in ("primera", "segunda") if word in page}

    assert shown("") == {"primera", "segunda"}
    assert shown("?estado=open") == {"segunda"}
    assert shown("?articulo=3.20.c") == {"primera"}
    assert shown("?ronda=1") == {"primera", "segunda"}
    assert shown("?ronda=2") == set()
    assert shown(f"?pareja={matches[1].pair_b.number}") == {"segunda"}
    assert shown("?ronda=x") == {"primera", "segunda"}  # a value that is not valid is ignored


def test_the_csv_has_a_row_per_incident_and_neutralises_formulas(room):
    sim, _round, juez, control, matches = room
    log_incident(juez, matches[0], description='=HYPERLINK("http://malo","x")')
    log_incident(juez, matches[1], article="6.3", description="normal")
    response = client_for(control).get(csv_url(sim.tournament))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:6] == ["Nº", "Fecha y hora", "Ronda", "Mesa", "Pareja", "Artículo"]
    assert "Descripción" in rows[0]
    assert len(rows) == 3
    column = rows[0].index("Descripción")
    assert sorted(r[column] for r in rows[1:]) == ['\'=HYPERLINK("http://malo","x")', "normal"]
    filtered = client_for(juez).get(csv_url(sim.tournament) + "?articulo=6.3")
    assert len(list(csv.reader(io.StringIO(filtered.content.decode("utf-8-sig"))))) == 2
    assert client_for(juez).get(csv_url(sim.tournament) + "?formato=xlsx").status_code == 200


# --- the players' report (AMM 5.3) ------------------------------------------------------------------


def test_a_player_reports_an_infraction_to_the_jueces_amm_5_3(room):
    sim, _round, _juez, _control, matches = room
    match = matches[0]
    player = player_of(match.pair_a)
    client = client_for(player)
    page = client.get(report_url(match))
    assert page.status_code == 200
    html = page.content.decode()
    assert "(vuestra pareja)" in html and '<option value="otra"' in html
    response = client.post(report_url(match), {"pair": "B", "article": "otra", "description": ""})
    assert response.status_code == 400 and "Describe lo que ha pasado" in text_of(response)
    assert not Incident.objects.exists()
    response = client.post(report_url(match), {"pair": "B", "article": "otra", "description": "Hacen señas raras"})
    assert response.status_code == 302
    # The table stays on its call, to read when a juez answers «voy» (issue 32).
    assert response["Location"] == reverse("referees:report", args=[sim.tournament.slug, match.pk])
    incident = Incident.objects.get()
    assert (incident.source, incident.article, incident.pair_id, incident.reported_by) == (
        "player",
        "5.3",
        match.pair_b_id,
        player,
    )
    assert "Aviso enviado" in text_of(client.get(response["Location"]))
    response = client.post(report_url(match), {"pair": "B", "article": "6.3", "description": ""})
    assert response.status_code == 302 and Incident.objects.filter(article="6.3").exists()


def test_the_desk_lists_the_hands_awaiting_a_ruling_with_a_link_to_rule_amm_4_1a(room):
    """A recorded hand with a false declaration (AMM 4.1a) does not count until a juez rules: the
    desk lists it with the engine's finding and links to the ruling page; once ruled, it is gone."""
    from scoring.services.hands import hand_record
    from scoring.services.hands.rulings import hand_ruling_confirm

    sim, _round, juez, _control, matches = room
    match = matches[0]
    lie = [{"pares": True, "juego": False}, {"pares": True, "juego": False}, {"pares": False}, {"pares": False}]
    record = {"hands": ["12o 12c 5e 4b", "11o 7c 6e 4c", "10o 7o 5c 1e", "1o 4e 6c 7e"], "declarations": lie}
    hand = hand_record(match=match, by=juez, record=record, mano="a").hand
    page = client_for(juez).get(desk_url(sim.tournament))
    ruling_url = reverse("scoring:hand_ruling", args=[sim.tournament.slug, match.pk, hand.pk])
    assert ruling_url in page.content.decode()
    text = text_of(page)
    assert "Manos pendientes de fallo (1)" in text
    assert f"Mesa {match.table_number} · juego 1 · mano 1" in text and "declaró «pares sí» y no lleva pares" in text
    hand_ruling_confirm(hand=hand, by=juez, facts={})
    assert "Manos pendientes de fallo" not in text_of(client_for(juez).get(desk_url(sim.tournament)))
