"""The clock pages (AMM chapter VI) with Django's test client: the public wall, a table's page (its
players tap the juegos) and the juez's dashboard. Each renders for its roles (403 / 404 / the login
page for the others); the rule in force is said in words, article first; the POST actions call the
services and a refusal comes back as a Spanish message, never a 500; the wall costs the same
number of queries for 3 tables as for 12."""

import datetime
import json
import re
import shutil
import subprocess

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import ClockJuego, ClockPause, DelayWarning, JuegoClaim, MatchClock
from scoring.services import clocks as svc
from scoring.services.results import result_submit
from scoring.views.clocks import STRINGS, clock_time, notes
from tests.factories import TournamentFactory, UserFactory, grant, make_pair
from tests.scoring import playing, publish_next_round, world_match
from tests.torneo.simulation import new_tournament
from tests.world import ROLES
from torneo.models import Match, Player, Round, Tournament

pytestmark = pytest.mark.django_db


def ago(minutes: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(minutes=minutes)


def text_of(response) -> str:
    assert response.status_code == 200, response.status_code
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def wall_url(tournament, number: int | None = None) -> str:
    url = reverse("scoring:clock_wall", args=[tournament.slug])
    return f"{url}?ronda={number}" if number else url


def table_url(match) -> str:
    return reverse("scoring:clock_table", args=[match.round.tournament.slug, match.pk])


def manage_url(tournament) -> str:
    return reverse("scoring:clocks_manage", args=[tournament.slug])


def card_text(page: str, table: int) -> str:
    """The words of one table's card on a page (from its «Mesa N» to the next card)."""
    start = page.index(f"Mesa {table} ")
    following = re.search(r" Mesa \d+ ", page[start + 5 :])
    return page[start : start + 5 + following.start()] if following else page[start:]


def clock_data(response) -> dict:
    html = response.content.decode()
    found = re.search(r'<script id="clock-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found[1])


def juegos(match, by, *winners_at: tuple[str, float]) -> None:
    """Tap juegos won at those minutes ago (the clock of the match already running)."""
    for winner, minutes in winners_at:
        svc.clock_juego(match=match, by=by, winner=winner, at=ago(minutes))


@pytest.fixture
def rounded():
    """A 6-pair tournament (three tables) with round 1 published, and its juez."""
    sim = new_tournament(6, seed=31, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-relojes"), sim.tournament, "juez")
    return sim, round_, juez, playing(round_)


# --- the wall ------------------------------------------------------------------------------------


def test_the_wall_shows_every_table_with_its_time_phase_and_score(rounded):
    sim, round_, juez, matches = rounded
    page = text_of(client_for().get(wall_url(sim.tournament)))
    assert "Relojes · Ronda 1" in page and "Los relojes de esta ronda todavía no están en marcha." in page
    assert page.count("El reloj todavía no está en marcha.") == 3 and "60:00" in page
    svc.clocks_start_round(round=round_, by=juez, at=ago(55))
    juegos(matches[0], juez, ("A", 40), ("B", 30))
    response = client_for().get(wall_url(sim.tournament, 1))
    page = text_of(response)
    assert "3 de 3 mesas en marcha." in page
    html = response.content.decode()
    assert html.count("ck-phase-ajustes") == 3  # 55 minutes of 60: the adjustments' window (6.4)
    first = card_text(page, matches[0].table_number)
    assert re.search(r"0[45]:\d\d", first) and "Ajustes de terminación" in first and "1 – 1" in first
    data = clock_data(response)
    assert {c["match"] for c in data["clocks"]} == {m.pk for m in matches}
    assert all(c["max_at"] and c["server_now"] for c in data["clocks"]) and data["rules"]["max_minutes"] == 60
    assert 'id="clock-strings"' in html and "js/clocks.js" in html
    # Issue 34: a table whose partida is over is counted apart, not «en marcha».
    finished = matches[1]
    result_submit(match=finished, by=sim.organizer, games_a=3, games_b=1, expected_version=0)
    page = text_of(client_for().get(wall_url(sim.tournament, 1)))
    assert "2 de 3 mesas en marcha. 1 terminada." in page
    assert f'data-live="/torneos/{sim.tournament.slug}/live.json"' in html  # live.js brings it fresh
    # The script refreshes the deadlines from the API's list of the round's clocks, every 15 s.
    assert f'data-clocks-api="/api/v1/tournaments/{sim.tournament.slug}/clocks/?round=1"' in html
    assert 'data-clocks-refresh="15000"' in html


def test_the_wall_says_the_rule_of_the_penultimate_juego_amm_6_4_b(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(57))
    match = matches[0]
    juegos(match, juez, ("A", 47), ("B", 37), ("A", 27))  # 2-1 when the window opened
    page = card_text(text_of(client_for().get(wall_url(sim.tournament))), match.table_number)
    assert "6.4.b: si empatan, último juego a 20 tantos" in page and "2 – 1" in page  # 3 minutes left
    juegos(match, juez, ("B", 0))  # 2-2 with 3 minutes left: the tie-break is to 20
    page = card_text(text_of(client_for().get(wall_url(sim.tournament))), match.table_number)
    assert "6.4.b: último juego a 20 tantos" in page and "2 – 2" in page


def test_the_wall_says_the_shortened_juegos_amm_6_4_c(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(52))  # 0-0 in the window: more than two juegos left
    page = text_of(client_for().get(wall_url(sim.tournament)))
    assert "6.4.c: juegos a 10 o 5 tantos; tras empate, juego final" in card_text(page, matches[0].table_number)


def test_the_wall_says_the_last_juego_amm_6_4_a(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(55))
    juegos(matches[0], juez, ("A", 50), ("B", 45), ("A", 40), ("B", 35))  # 2-2 before the window
    page = text_of(client_for().get(wall_url(sim.tournament)))
    assert "6.4.a: último juego" in card_text(page, matches[0].table_number)


def test_the_wall_shows_time_past_the_maximum_and_the_limit_amm_6_2_amm_6_5(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(63))
    response = client_for().get(wall_url(sim.tournament))
    page = card_text(text_of(response), matches[0].table_number)
    assert re.search(r"\+03:0\d", page) and "Tiempo excedido" in page
    assert "6.5: a los 10 minutos de exceso se termina la partida" in page
    assert "ck-phase-excedido" in response.content.decode()


def test_the_last_hand_amm_6_5_a(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(69.5))
    match = matches[0]
    juegos(match, juez, ("A", 60), ("B", 50), ("A", 40), ("B", 30))
    svc.clock_tantos(match=match, by=juez, a=37, b=38)  # both fewer than 5 tantos from 40
    response = client_for().get(wall_url(sim.tournament))
    page = card_text(text_of(response), match.table_number)
    assert "6.5.a: última mano" in page and "Última mano" in page
    assert "ck-phase-ultima_mano" in response.content.decode()


def test_a_partida_ended_by_time_amm_6_5_b(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(71))
    svc.clock_warning(match=matches[1], by=juez, pair="B", at=ago(30))
    page = text_of(client_for().get(wall_url(sim.tournament)))
    assert "6.5.b: partida terminada por tiempo" in card_text(page, matches[0].table_number)
    assert "Terminada" in card_text(page, matches[0].table_number)
    # The juez sees it first (after any absence), with what 6.5.b gives without an agreement.
    page = text_of(client_for(juez).get(manage_url(sim.tournament)))
    assert "6.5.b: partida terminada por tiempo, falta el acta. Sin acuerdo: pierden ambas parejas." in page
    loser = matches[1].pair_b.number
    assert f"Sin acuerdo: pierde la pareja {loser}, apercibida por retraso (3-2)." in page


def test_a_missing_pair_loses_juegos_by_the_clock_amm_6_1_b(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(12))
    match = matches[1]
    number = match.pair_a.number
    client = client_for(juez)
    response = client.post(manage_url(sim.tournament), {"action": "absent", "match": match.pk, "pair": "A"})
    assert response.status_code == 302 and response["Location"].endswith(f"?ronda=1#mesa-{match.table_number}")
    page = text_of(client.get(response["Location"]))
    assert f"Mesa {match.table_number}: pareja {number} incompleta (AMM 6.1.b)." in page
    assert f"6.1.b: pareja {number} incompleta — 1 juego perdido" in page  # 12 minutes: one juego (10)
    assert page.index(f"Mesa {match.table_number} ") < min(
        page.index(f"Mesa {m.table_number} ") for m in matches if m != match
    )  # an unresolved absence comes first
    wall = text_of(client_for().get(wall_url(sim.tournament)))
    assert f"6.1.b: pareja {number} incompleta — 1 juego perdido" in wall and "0 – 1" in card_text(
        wall, match.table_number
    )
    response = client.post(
        manage_url(sim.tournament), {"action": "arrived", "match": match.pk, "pair": "A"}, follow=True
    )
    page = text_of(response)
    assert f"pareja {number} completa." in page and f"6.1.b: pareja {number} llegó tarde — 1 juego perdido" in page
    assert f"Pareja {number}: llegó tarde (6.1.b)" in page
    response = client.post(
        manage_url(sim.tournament), {"action": "arrived", "match": match.pk, "pair": "A"}, follow=True
    )
    assert "Esa pareja ya está completa." in text_of(response)  # the service's refusal, in Spanish


# --- the juez's dashboard ------------------------------------------------------------------------


def test_the_juez_starts_the_rounds_clocks_amm_6_1_a(rounded):
    sim, round_, juez, _matches = rounded
    client = client_for(juez)
    page = text_of(client.get(manage_url(sim.tournament)))
    assert "Poner en marcha los relojes de la ronda 1" in page
    response = client.post(manage_url(sim.tournament), {"action": "start_round", "round": 1}, follow=True)
    page = text_of(response)
    assert "Ronda 1: 3 relojes en marcha." in page and "Poner en marcha los relojes" not in page
    assert MatchClock.objects.filter(match__round=round_, started_at__isnull=False).count() == 3
    assert client.post(manage_url(sim.tournament), {"action": "start_round", "round": 9}).status_code == 404


def test_the_juez_pauses_with_a_reason_and_resumes_amm_3_15(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(20))
    match = matches[0]
    client = client_for(juez)
    response = client.post(
        manage_url(sim.tournament), {"action": "pause", "match": match.pk, "reason": " "}, follow=True
    )
    assert response.status_code == 200
    assert "Escribe el motivo de la interrupción (AMM 3.15)." in text_of(response)
    assert not ClockPause.objects.exists()
    response = client.post(
        manage_url(sim.tournament), {"action": "pause", "match": match.pk, "reason": "Baraja marcada"}, follow=True
    )
    page = text_of(response)
    assert f"Mesa {match.table_number}: reloj parado (AMM 3.15)." in page and "Reanudar el reloj" in page
    wall = client_for().get(wall_url(sim.tournament))
    card = card_text(text_of(wall), match.table_number)
    assert "Parado" in card and "3.15: reloj parado — Baraja marcada" in card
    assert "ck-paused" in wall.content.decode()
    data = next(c for c in clock_data(wall)["clocks"] if c["match"] == match.pk)
    assert data["paused"] and data["max_at"] is None  # the script holds the time still
    response = client.post(
        manage_url(sim.tournament), {"action": "pause", "match": match.pk, "reason": "otra"}, follow=True
    )
    assert "El reloj ya está parado." in text_of(response)
    response = client.post(manage_url(sim.tournament), {"action": "resume", "match": match.pk}, follow=True)
    assert f"Mesa {match.table_number}: el reloj vuelve a correr." in text_of(response)
    assert ClockPause.objects.get().ended_at is not None


def test_the_juez_warns_a_pair_for_delay_amm_6_3(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(20))
    match = matches[2]
    response = client_for(juez).post(
        manage_url(sim.tournament),
        {"action": "warning", "match": match.pk, "pair": "B", "note": "Tarda en cortar"},
        follow=True,
    )
    page = text_of(response)
    assert f"apercibimiento por retraso a la pareja {match.pair_b.number} (AMM 6.3)." in page
    assert f"Apercibimientos por retraso en esta partida: {match.pair_b.number} × 1" in page
    warning = DelayWarning.objects.get()
    assert (warning.pair, warning.note) == (match.pair_b, "Tarda en cortar")
    response = client_for(juez).post(
        manage_url(sim.tournament),
        {"action": "warning", "match": match.pk, "pair": "B", "note": "x" * 201},
        follow=True,
    )
    assert "La nota es demasiado larga (máximo 200 caracteres)." in text_of(response)


def test_the_envite_timer_is_one_minute_and_two_in_final_jugadas_amm_3_7(rounded):
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(20))
    match = matches[0]
    html = client_for(juez).get(manage_url(sim.tournament)).content.decode()
    assert re.search(rf'data-envite="{match.pk}" hidden>Envite: 60 s<', html)
    svc.clock_tantos(match=match, by=juez, a=31, b=12)  # A needs 9 tantos: a final jugada (3.7.a)
    html = client_for(juez).get(manage_url(sim.tournament)).content.decode()
    assert re.search(rf'data-envite="{match.pk}" hidden>Envite: 120 s<', html)
    assert "Envite: quedan {s} s" in html  # the script's words, for its countdown


def test_the_mus_dialogue_timer_is_one_minute_for_each_pair_amm_2_3(rounded):
    """2.3: «sin utilizar más de un minuto»; 2.3.a: «en las mismas condiciones» for the other pair."""
    sim, round_, juez, matches = rounded
    svc.clocks_start_round(round=round_, by=juez, at=ago(20))
    match = matches[0]
    html = client_for(juez).get(manage_url(sim.tournament)).content.decode()
    assert re.search(rf'data-mus="{match.pk}" hidden>Mus: 60 s<', html)
    svc.clock_tantos(match=match, by=juez, a=31, b=12)  # final jugadas change the envites' time, not the mus'
    html = client_for(juez).get(manage_url(sim.tournament)).content.decode()
    assert re.search(rf'data-mus="{match.pk}" hidden>Mus: 60 s<', html)
    assert "Mus: quedan {s} s" in html and "agotado (2.3)" in html


def test_the_juez_may_cancel_the_waits_when_short_of_time_amm_6_4_d(rounded):
    sim, _round, juez, matches = rounded
    svc.clock_start(match=matches[0], by=juez, at=ago(54))
    svc.clock_start(match=matches[1], by=juez, at=ago(20))
    page = text_of(client_for(juez).get(manage_url(sim.tournament)))
    assert page.count("El juez puede anular las esperas (6.4.d)") == 1
    assert "El juez puede anular las esperas (6.4.d)" in card_text(page, matches[0].table_number)


def test_a_recidivist_pair_is_flagged_first_amm_6_6():
    sim = new_tournament(6, seed=32, format=Tournament.Format.CEROS, max_losses=3)
    round1 = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-66"), sim.tournament, "juez")
    svc.clocks_start_round(round=round1, by=juez, at=ago(200))
    first = playing(round1)[0]
    for _ in range(3):
        svc.clock_warning(match=first, by=juez, pair="A", at=ago(190))
    for match in playing(round1):
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    round2 = publish_next_round(sim)
    svc.clocks_start_round(round=round2, by=juez, at=ago(30))
    pair = first.pair_a
    match = Match.objects.get(
        round=round2, pk__in=[m.pk for m in playing(round2) if pair.pk in (m.pair_a_id, m.pair_b_id)]
    )
    svc.clock_warning(match=match, by=juez, pair="A" if match.pair_a_id == pair.pk else "B", at=ago(5))
    page = text_of(client_for(juez).get(manage_url(sim.tournament)))
    assert f"6.6: la pareja {pair.number} ya tiene 3 sanciones por retraso en partidas anteriores" in page
    assert page.index(f"Mesa {match.table_number} ") < min(
        page.index(f"Mesa {m.table_number} ") for m in playing(round2) if m.pk != match.pk
    )


def test_the_dashboard_lists_the_tables_by_urgency():
    sim = new_tournament(14, seed=33, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-orden"), sim.tournament, "juez")
    m = playing(round_)
    assert len(m) == 7
    starts = {0: 10, 1: 55, 2: 63, 3: 75, 4: 5, 5: 69.5}  # m[6] is not started
    for i, minutes in starts.items():
        svc.clock_start(match=m[i], by=juez, at=ago(minutes))
    svc.clock_absence(match=m[4], by=juez, pair="B", at=ago(4))
    juegos(m[5], juez, ("A", 60), ("B", 50), ("A", 40), ("B", 30))
    svc.clock_tantos(match=m[5], by=juez, a=36, b=39)
    page = text_of(client_for(juez).get(manage_url(sim.tournament)))
    order = sorted(range(7), key=lambda i: page.index(f"Mesa {m[i].table_number} "))
    # absence, ended by time, última mano, excedido, ajustes, normal, not started
    assert order == [4, 3, 5, 2, 1, 0, 6]
    assert "Poner en marcha este reloj" in card_text(page, m[6].table_number)


def test_a_refused_action_is_a_spanish_message_never_a_500(rounded):
    sim, round_, juez, matches = rounded
    client = client_for(juez)
    match = matches[0]
    response = client.post(
        manage_url(sim.tournament), {"action": "juego", "match": match.pk, "winner": "A"}, follow=True
    )
    assert f"El reloj de la mesa {match.table_number} no está en marcha." in text_of(response)
    response = client.post(manage_url(sim.tournament), {"action": "volar", "match": match.pk}, follow=True)
    assert response.status_code == 200 and "no está entre las opciones disponibles" in text_of(response)
    svc.clocks_start_round(round=round_, by=juez, at=ago(10))
    response = client.post(manage_url(sim.tournament), {"action": "juego", "match": match.pk}, follow=True)
    assert "Indica la pareja: «A» o «B»." in text_of(response)
    response = client.post(manage_url(sim.tournament), {"action": "undo", "match": match.pk}, follow=True)
    assert "No hay ningún juego que deshacer." in text_of(response)
    assert client.post(manage_url(sim.tournament), {"action": "undo", "match": 999999}).status_code == 404
    assert client.post(manage_url(sim.tournament), {"action": "undo"}).status_code == 404


# --- a table's page ------------------------------------------------------------------------------


def _sides(world, match):
    """(the player's side, the rivals' side) of the world's match."""
    return ("A", "B") if match.pair_a_id == world.own_pair.pk else ("B", "A")


def test_a_player_taps_the_juegos_of_their_table_and_undoes_one_amm_3_16(world):
    """Issue 32, AMM 3.16: a player's tap for the rivals counts at once (the losers sign); only the
    rivals, the mesa or the juez undo it. A tap for their own pair waits for the rivals: the
    page says so and offers to withdraw it."""
    match = world_match(world)
    mine, theirs = _sides(world, match)
    number = {"A": match.pair_a.number, "B": match.pair_b.number}
    juez = world.users["juez"]
    player = client_for(world.users["player"])
    page = text_of(player.get(table_url(match)))
    assert "Podréis anotar los juegos cuando el juez ponga el reloj en marcha." in page
    svc.clocks_start_round(round=match.round, by=juez, at=ago(15))
    page = text_of(player.get(table_url(match)))
    assert f"Juego para {match.pair_a.number}" in page and f"Juego para {match.pair_b.number}" in page
    assert "Deshacer último juego" not in page
    response = player.post(table_url(match), {"action": "juego", "winner": theirs})
    assert response.status_code == 302 and response["Location"] == table_url(match)
    page = text_of(player.get(table_url(match)))
    assert f"Mesa 1: juego para la pareja {number[theirs]}." in page
    assert f"para la pareja {number[theirs]} (minuto 15)" in page and "Deshacer último juego" in page
    assert ClockJuego.objects.get().winner == theirs
    page = text_of(player.post(table_url(match), {"action": "undo"}, follow=True))
    assert f"El último juego es de la pareja {number[theirs]}: solo ella" in page and ClockJuego.objects.count() == 1
    svc.clock_juego_undo(match=match, by=juez)  # the juez may

    page = text_of(player.post(table_url(match), {"action": "juego", "winner": mine}, follow=True))
    assert f"juego para la pareja {number[mine]} anotado; cuenta cuando lo confirme la otra pareja" in page
    assert f"cuenta cuando lo confirme la pareja {number[theirs]}" in page and "Retirar el juego anotado" in page
    assert not ClockJuego.objects.exists() and JuegoClaim.objects.get().outcome == JuegoClaim.Outcome.PENDING
    page = text_of(player.post(table_url(match), {"action": "undo"}, follow=True))
    assert "Mesa 1: juego pendiente retirado." in page and "Retirar el juego anotado" not in page
    assert JuegoClaim.objects.get().outcome == JuegoClaim.Outcome.WITHDRAWN and not ClockJuego.objects.exists()

    page = text_of(player.post(table_url(match), {"action": "tantos", "a": 12, "b": 41}, follow=True))
    assert "Los tantos van de 0 a 40." in page
    page = text_of(player.post(table_url(match), {"action": "tantos", "a": 12, "b": 33}, follow=True))
    assert "Mesa 1: tantos anotados." in page
    assert MatchClock.objects.values_list("tantos_a", "tantos_b").get() == (12, 33)
    # The table's page offers no juez action: a pause is refused (the form has no such action).
    page = text_of(player.post(table_url(match), {"action": "pause", "reason": "x"}, follow=True))
    assert "no está entre las opciones disponibles" in page and not ClockPause.objects.exists()


def test_the_rivals_confirm_a_claimed_juego_on_their_own_page_amm_3_16(world):
    match = world_match(world)
    mine, theirs = _sides(world, match)
    number = {"A": match.pair_a.number, "B": match.pair_b.number}
    svc.clocks_start_round(round=match.round, by=world.users["juez"], at=ago(20))
    svc.clock_juego(match=match, by=world.users["player"], winner=mine, at=ago(3))
    rival = UserFactory()
    Player.objects.filter(pk=world.other_pair.ordered_members()[0].player_id).update(user=rival)
    client = client_for(rival)
    page = text_of(client.get(table_url(match)))
    assert f"La pareja {number[mine]} dice que ha ganado este juego." in page
    assert f"Confirmar: juego para {number[mine]}" in page and "Retirar el juego anotado" not in page
    page = text_of(client.post(table_url(match), {"action": "juego", "winner": mine}, follow=True))
    assert f"Mesa 1: juego para la pareja {number[mine]}." in page and "dice que ha ganado" not in page
    juego = ClockJuego.objects.get()
    assert juego.winner == mine and abs((juego.ended_at - ago(3)).total_seconds()) < 5  # when it was claimed
    assert JuegoClaim.objects.get().outcome == JuegoClaim.Outcome.CONFIRMED
    # And the rivals' tap for themselves now is a claim of their own, waiting for the player.
    svc.clock_juego(match=match, by=rival, winner=theirs)
    assert (
        ClockJuego.objects.count() == 1 and JuegoClaim.objects.filter(resolved_at__isnull=True).get().winner == theirs
    )


TAPPERS = {"player", "juez", "control", "organizer", "superuser"}


@pytest.mark.parametrize("role", ROLES)
def test_the_table_page_is_public_and_offers_the_taps_to_whoever_may_tap(world, role):
    match = world_match(world)
    svc.clocks_start_round(round=match.round, by=world.users["juez"], at=ago(5))
    client = client_for(world.users.get(role))
    page = text_of(client.get(table_url(match)))
    assert "Mesa 1 · Ronda 1" in page and "6.2: máximo 60 minutos" in page
    assert ("Juego para" in page) == (role in TAPPERS), role
    response = client.post(table_url(match), {"action": "juego", "winner": "A"})
    if role == "anonymous":
        assert response.status_code == 302 and "/cuenta/entrar/" in response["Location"]
    elif role in TAPPERS:
        assert response.status_code == 302 and response["Location"] == table_url(match)
    else:
        assert response.status_code == 403
    # A player taps for their own pair (A here, if theirs): a claim the rivals confirm (issue 32).
    claimed = role == "player" and match.pair_a_id == world.own_pair.pk
    assert ClockJuego.objects.count() == (1 if role in TAPPERS and not claimed else 0)
    assert JuegoClaim.objects.count() == int(claimed)


@pytest.mark.parametrize("role", ROLES)
def test_the_dashboard_is_the_juezs_and_the_organizers(world, role):
    world_match(world)
    client = client_for(world.users.get(role))
    expected = {"juez": 200, "organizer": 200, "superuser": 200, "anonymous": 302}.get(role, 403)
    assert client.get(manage_url(world.tournament)).status_code == expected, role
    response = client.post(manage_url(world.tournament), {"action": "start_round", "round": 1})
    assert response.status_code == (302 if role in ("juez", "organizer", "superuser", "anonymous") else 403), role
    started = MatchClock.objects.filter(started_at__isnull=False).exists()
    assert started == (role in ("juez", "organizer", "superuser")), role


def test_what_has_no_clock_is_not_found(world):
    match = world_match(world)
    client = client_for(world.users["organizer"])
    other = TournamentFactory()
    make_pair(other)
    assert client.get(reverse("scoring:clock_table", args=[other.slug, match.pk])).status_code == 404
    assert client.get(reverse("scoring:clock_table", args=[world.tournament.slug, 999999])).status_code == 404
    assert client.get(wall_url(world.tournament, 7)).status_code == 404
    assert client.get(f"{wall_url(world.tournament)}?ronda=uno").status_code == 404
    # A round not published yet has no clocks to show; an exenta has none either (AMM 5.6).
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.PREPARED)
    assert client.get(table_url(match)).status_code == 404
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.PUBLISHED)
    sim = new_tournament(5, seed=34)
    round_ = publish_next_round(sim)
    bye = round_.matches.get(pair_b__isnull=True)
    assert client_for().get(reverse("scoring:clock_table", args=[sim.tournament.slug, bye.pk])).status_code == 404
    page = text_of(client_for().get(wall_url(sim.tournament)))
    assert page.count("ck-card") == 0 and "Mesa" in page
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    assert client_for().get(wall_url(draft)).status_code == 404


# --- queries -------------------------------------------------------------------------------------


def wall_queries(pairs: int) -> int:
    sim = new_tournament(pairs, seed=35, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(), sim.tournament, "juez")
    svc.clocks_start_round(round=round_, by=juez, at=ago(52))
    for match in playing(round_)[::2]:
        juegos(match, juez, ("A", 40))
        svc.clock_pause(match=match, by=juez, reason="Consulta al juez", at=ago(1))
        svc.clock_warning(match=match, by=juez, pair="B", at=ago(2))
    client = client_for()
    url = wall_url(sim.tournament)
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.content.decode().count('class="ck-card') == pairs // 2
    return len(queries)


def test_the_walls_queries_do_not_grow_with_the_tables():
    assert wall_queries(6) == wall_queries(24)


# --- the words -----------------------------------------------------------------------------------


def test_the_time_reads_mm_ss_and_past_the_maximum_plus_mm_ss():
    assert clock_time(3600) == "60:00"
    assert clock_time(59.2) == "01:00"
    assert clock_time(0) == "00:00"
    assert clock_time(-0.4) == "+00:00"
    assert clock_time(-185) == "+03:05"
    assert clock_time(85 * 60) == "85:00"


RULES = {"points": 40, "max_minutes": 60, "tie_normal": 5.0, "tie_tantos": 20, "short": [10, 5], "overtime": 10.0}


def state(**extra):
    d = {
        "started": True,
        "paused": False,
        "pair_a": {"number": 12},
        "pair_b": {"number": 7},
        "missing": {},
        "juego": {"article": None, "tantos": 40, "final": False},
        "adjustments": None,
        "max_minutes": 60,
        "page": {"absent": {}, "done": False, "result": None},
    }
    d.update(extra)
    return d


def test_the_penultimate_juegos_tie_break_depends_on_the_time_left_amm_6_4_b():
    d = state(adjustments="6.4.b")
    assert notes(d, RULES, "ajustes", 7.5) == ["6.4.b: si empatan, último juego normal"]
    assert notes(d, RULES, "ajustes", 4.9) == ["6.4.b: si empatan, último juego a 20 tantos"]
    assert notes(d, RULES, "excedido", -2) == [
        "6.4.b: si empatan, último juego a 10 o 5 tantos",
        "6.5: a los 10 minutos de exceso se termina la partida",
    ]
    d = state(adjustments="6.4.b", juego={"article": "6.4.b", "tantos": 40, "final": True})
    assert notes(d, RULES, "ajustes", 2) == ["6.4.b: último juego, normal"]
    d = state(adjustments="6.4.b", juego={"article": "6.4.b", "tantos": [10, 5], "final": True})
    assert notes(d, RULES, "excedido", -1)[0] == "6.4.b: último juego a 10 o 5 tantos"


def test_a_final_juego_of_the_shortened_ones_amm_6_4_c():
    d = state(adjustments="6.4.c", juego={"article": "6.4.c", "tantos": [10, 5], "final": True})
    assert notes(d, RULES, "ajustes", 3) == ["6.4.c: juego final a 10 o 5 tantos"]


def test_a_pair_that_never_came_loses_the_partida_amm_6_1_b():
    d = state(
        missing={"A": {"juegos": 2, "partida": True}}, winner="B", page={"absent": {"A": "missing"}, "done": False}
    )
    assert notes(d, RULES, "terminada", 30) == ["6.1.b: pareja 12 incompleta — partida perdida"]
    d = state(missing={"B": {"juegos": 2, "partida": False}}, page={"absent": {"B": "missing"}, "done": False})
    assert notes(d, RULES, "normal", 44)[0] == "6.1.b: pareja 7 incompleta — 2 juegos perdidos"


def test_every_word_of_the_script_is_handed_over_translated():
    assert all(isinstance(str(text), str) and str(text) for text in STRINGS.values())
    assert str(STRINGS["offline"]) == "sin conexión"


# --- the pair page -------------------------------------------------------------------------------


def test_the_pair_page_shows_its_tables_live_clock(world):
    match = world_match(world)
    url = reverse("scoring:pair_page", args=[world.tournament.slug, world.own_pair.number])
    response = client_for().get(url)
    assert "js/clocks.js" not in response.content.decode()  # no clock running yet: the orientative times
    svc.clocks_start_round(round=match.round, by=world.users["juez"], at=ago(52))
    response = client_for().get(url)
    html = response.content.decode()
    page = text_of(response)
    assert "Ajustes de terminación" in page and "6.4.c: juegos a 10 o 5 tantos; tras empate, juego final" in page
    assert re.search(r"0[78]:\d\d", page) and "próxima versión" not in page and "Horas orientativas" not in page
    assert f'href="{table_url(match)}">Ver el reloj de la mesa<' in html
    assert [c["match"] for c in clock_data(response)["clocks"]] == [match.pk] and "js/clocks.js" in html


def word_cases() -> list[tuple[dict, str, float | None]]:
    """Clocks in every situation the words distinguish, with the phase shown and the minutes left."""
    cases: list[tuple[dict, str, float | None]] = [(state(started=False), "pendiente", None)]
    juegos_ = [
        {"article": None, "tantos": 40, "final": False},
        {"article": None, "tantos": 40, "final": True},
        {"article": "6.4.b", "tantos": 40, "final": True},
        {"article": "6.4.b", "tantos": 20, "final": True},
        {"article": "6.4.b", "tantos": [10, 5], "final": True},
        {"article": "6.4.c", "tantos": [10, 5], "final": False},
        {"article": "6.4.c", "tantos": [10, 5], "final": True},
    ]
    for phase, left in (
        ("normal", 30.5),
        ("ajustes", 7.2),
        ("ajustes", 4.99),
        ("excedido", -3.5),
        ("ultima_mano", -9.5),
    ):
        for adjustments in (None, "6.4.a", "6.4.b", "6.4.c"):
            for juego in juegos_:
                cases.append((state(adjustments=adjustments, juego=juego), phase, left))
    absences = [
        ({"A": {"juegos": 1, "partida": False}}, {"A": "missing"}),
        (
            {"A": {"juegos": 1, "partida": False}, "B": {"juegos": 2, "partida": False}},
            {"A": "arrived", "B": "missing"},
        ),
        ({"B": {"juegos": 0, "partida": False}}, {"B": "missing"}),
        ({"A": {"juegos": 2, "partida": True}}, {"A": "missing"}),
    ]
    for missing, absent in absences:
        for phase in ("normal", "terminada"):
            d = state(missing=missing, page={"absent": absent, "done": False, "result": None})
            cases.append((d, phase, 12.0))
    for extra in (
        {"paused": True, "pause_reason": "Cambio de baraja"},
        {"forced_end": {"article": "6.5.b", "loser": "both", "result": None, "agreed": False}},
        {"winner": "A"},
        {"winner": None, "page": {"absent": {}, "done": True, "result": [3, 1]}},
    ):
        cases.append((state(**extra), "terminada" if "paused" not in extra else "normal", -11.0))
    return cases


@pytest.mark.skipif(not shutil.which("node"), reason="sin Node.js para ejecutar static/js/clocks.js")
def test_the_script_says_the_same_words_as_the_server(tmp_path):
    """static/js/clocks.js writes the words again as time passes: the same as the server's."""
    from django.conf import settings

    cases = word_cases()
    expected = [notes(d, RULES, phase, left) for d, phase, left in cases]
    times = [3600, 59.2, 0, -0.4, -185, 5100, 0.0004]
    strings = {key: str(text) for key, text in STRINGS.items()}
    (tmp_path / "cases.json").write_text(
        json.dumps({"strings": strings, "rules": RULES, "cases": cases, "times": times})
    )
    script = settings.BASE_DIR / "static" / "js" / "clocks.js"
    program = (
        f"const words = require({json.dumps(str(script))});"
        f"const data = require({json.dumps(str(tmp_path / 'cases.json'))});"
        "words.use(data.strings, data.rules);"
        "console.log(JSON.stringify({notes: data.cases.map(([d, phase, left]) => words.notes(d, phase, left)),"
        " times: data.times.map(words.clockTime)}));"
    )
    out = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True, timeout=30).stdout
    answer = json.loads(out)
    assert answer["times"] == [clock_time(s) for s in times]
    for case, mine, theirs in zip(cases, expected, answer["notes"], strict=True):
        assert theirs == mine, case
    assert len({tuple(n) for n in expected}) > 15  # the cases say many different things
