"""The clocks API (AMM chapter VI): every table's clock of a round and one table's (public, no
personal data), the events the beat applied (staff and the table's players), and the taps that move
a clock — start (6.1.a), pause and resume (3.15), absence and arrival (6.1.b), juegos and their undo,
tantos (6.4, 6.5.a), delay warnings (6.3) — each answering the table's clock. Who may is the
services' matrix; a match of another tournament, an exenta or a word for an id is a 404; bad input a
Spanish 400 keyed by field. Time is frozen with time-machine around the requests."""

import datetime
from dataclasses import dataclass
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.models import ClockJuego, ClockPause, DelayWarning, MatchClock
from scoring.services import clocks as svc
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Pair, Player, Round, Tournament

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


def link(user: Any, pair: Pair) -> Any:
    """Make ``user`` the first player of ``pair`` (the player role)."""
    Player.objects.filter(pk=pair.ordered_members()[0].player_id).update(user=user)
    return user


def client_for(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@dataclass
class Tables:
    sim: Any
    round: Round
    matches: list[Match]
    bye: Match
    base: str
    users: dict[str, Any]

    def client(self, role: str) -> APIClient:
        return client_for(self.users[role])

    def url(self, match: Match | int | str, action: str = "") -> str:
        pk = match.pk if isinstance(match, Match) else match
        return f"{self.base}/clocks/{pk}/{action + '/' if action else ''}"


@pytest.fixture
def tables() -> Tables:
    """A 7-pair tournament with round 1 published (three tables and an exenta), and a user in every
    role: organizer, juez, mesa de control, a player of table 1, a player of table 2, the organizer
    of another tournament, anonymous."""
    sim = new_tournament(7, seed=31, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    matches = playing(round_)
    assert len(matches) == 3
    other = new_tournament(2, seed=32)
    users = {
        "organizer": sim.organizer,
        "juez": sim.juez,
        "mesa": grant(UserFactory(username="mesa-relojes"), sim.tournament, "control"),
        "player": link(UserFactory(username="jugador-mesa"), matches[0].pair_a),
        "other_player": link(UserFactory(username="jugador-otra-mesa"), matches[1].pair_b),
        "rival": link(UserFactory(username="jugador-rival"), matches[0].pair_b),
        "other_staff": other.organizer,
        "anonymous": None,
    }
    bye = round_.matches.get(pair_b=None)
    return Tables(sim, round_, matches, bye, f"/api/v1/tournaments/{sim.tournament.slug}", users)


def start_all(t: Tables, minutes: float = 0) -> None:
    assert svc.clocks_start_round(round=t.round, by=t.users["juez"], at=at(minutes)) == 3


CONTRACT = {
    "match",
    "round",
    "table",
    "pair_a",
    "pair_b",
    "started",
    "started_at",
    "paused",
    "pause_reason",
    "minute",
    "server_now",
    "max_minutes",
    "phase",
    "missing",
    "juego",
    "forced_end",
    "alerts",
    "score",
    "winner",
    "adjustments",
    "remaining",
    "window_at",
    "max_at",
    "limit_at",
    "juegos",
}


# --- reads ----------------------------------------------------------------------------------------


def test_the_list_and_a_table_are_public_with_the_contract_keys(tables):
    t = tables
    start_all(t)
    with time_machine.travel(at(10), tick=False):
        response = client_for().get(f"{t.base}/clocks/", {"round": 1})
        detail = client_for().get(t.url(t.matches[0]))
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    data = response.json()
    assert [c["match"] for c in data] == [m.pk for m in t.matches]  # every table, the exenta aside
    assert t.bye.pk not in {c["match"] for c in data}
    for clock in data:
        assert set(clock) >= CONTRACT, CONTRACT - set(clock)
    first = data[0]
    assert (first["started"], first["phase"], first["minute"], first["server_now"]) == (
        True,
        "normal",
        10,
        at(10).isoformat(),
    )
    assert (first["max_at"], first["limit_at"], first["window_at"]) == (
        at(60).isoformat(),
        at(70).isoformat(),
        at(50).isoformat(),
    )
    nothing = {"juegos": 0, "partida": False}
    assert first["missing"] == {"A": nothing, "B": nothing}
    assert first["alerts"] == [] and first["forced_end"] is None and first["juegos"] == []
    assert detail.status_code == 200 and detail["Cache-Control"] == "no-store"
    assert detail.json() == first


def test_the_list_defaults_to_the_latest_round_and_shows_clocks_not_started(tables):
    t = tables
    data = client_for().get(f"{t.base}/clocks/").json()
    assert len(data) == 3 and {c["round"] for c in data} == {1}
    assert all(c["started"] is False and c["started_at"] is None and c["minute"] is None for c in data)
    assert "phase" not in data[0]


def test_the_clocks_never_show_personal_data(tables):
    t = tables
    start_all(t)
    match = t.matches[0]
    Player.objects.filter(memberships__pair__in=[match.pair_a, match.pair_b]).update(
        id_document="12345678Z", phone="600111222", email="jugadora@example.com"
    )
    texts = [
        client_for().get(f"{t.base}/clocks/").content.decode(),
        client_for().get(t.url(match)).content.decode(),
    ]
    for text in texts:
        for private in ("12345678Z", "600111222", "jugadora@example.com"):
            assert private not in text
    pair = client_for().get(t.url(match)).json()["pair_a"]
    assert pair == {"number": match.pair_a.number, "name": match.pair_a.display_name}


def test_the_list_takes_the_same_queries_for_3_or_12_tables(tables):
    t = tables
    start_all(t)
    big = new_tournament(24, seed=33, format=Tournament.Format.CEROS, max_losses=2)
    big_round = publish_next_round(big)
    svc.clocks_start_round(round=big_round, by=big.organizer, at=T0)
    client = client_for()
    with CaptureQueriesContext(connection) as few:
        assert len(client.get(f"{t.base}/clocks/").json()) == 3
    with CaptureQueriesContext(connection) as many:
        assert len(client.get(f"/api/v1/tournaments/{big.tournament.slug}/clocks/").json()) == 12
    assert len(many.captured_queries) == len(few.captured_queries)


def test_a_draft_tournament_s_clocks_are_not_found():
    sim = new_tournament(2, seed=1, status=Tournament.Status.DRAFT)
    assert client_for().get(f"/api/v1/tournaments/{sim.tournament.slug}/clocks/").status_code == 404
    staff = client_for(sim.organizer).get(f"/api/v1/tournaments/{sim.tournament.slug}/clocks/")
    assert staff.status_code == 404 and "ronda" in staff.json()["detail"]  # no round published yet


def test_the_events_are_for_the_staff_and_the_table_s_players(tables):
    t = tables
    start_all(t)
    url = t.url(t.matches[0], "events")
    for role in ("organizer", "juez", "mesa", "player"):
        response = t.client(role).get(url)
        assert response.status_code == 200 and response.json() == [], role
        assert response["Cache-Control"] == "no-store"
    for role in ("other_player", "other_staff", "anonymous"):
        response = t.client(role).get(url)
        assert response.status_code in (401, 403), role
        assert "detail" in response.json()


# --- who may (the services' matrix, through the API) ----------------------------------------------

ACTIONS: list[tuple[str, dict[str, Any] | None]] = [  # in an order a role allowed everything can run
    ("start_round", {"round": 1}),
    ("start", None),
    ("pause", {"reason": "Jugador indispuesto"}),
    ("resume", None),
    ("absence", {"pair": "B"}),
    ("arrival", {"pair": "B"}),
    ("juego", {"winner": "A"}),
    ("undo", None),
    ("tantos", {"a": 12, "b": 30}),
    ("warning", {"pair": "A", "note": "tarda en cortar"}),
]
EVERYTHING = {name for name, _body in ACTIONS}
ALLOWED = {
    "organizer": EVERYTHING,
    "juez": EVERYTHING,
    "mesa": {"start_round", "start", "juego", "undo", "tantos"},
    "player": {"juego", "undo", "tantos"},
    "other_player": set(),
    "other_staff": set(),
    "anonymous": set(),
}


@pytest.mark.parametrize("role", list(ALLOWED))
def test_who_may_move_a_table_s_clock(tables, role):
    t = tables
    start_all(t)
    match = t.matches[0]
    client = t.client(role)
    for name, body in ACTIONS:
        url = f"{t.base}/clocks/start/" if name == "start_round" else t.url(match, name)
        response = client.post(url, body, format="json")
        if name in ALLOWED[role]:
            # A player's juego for their own pair (A) waits for the rivals (202); the undo withdraws it.
            expected = 202 if (role, name) == ("player", "juego") else 200
            assert response.status_code == expected, (role, name, response.json())
            data = response.json()
            if name == "start_round":
                assert (data["round"], data["started"], len(data["clocks"])) == (1, 0, 3)
            else:
                assert data["match"] == match.pk and data["started"] is True
        else:
            expected = (401, 403) if role == "anonymous" else (403,)
            assert response.status_code in expected, (role, name, response.status_code)
            assert "detail" in response.json()
    manages = "pause" in ALLOWED[role]
    assert ClockPause.objects.exists() == manages
    assert DelayWarning.objects.exists() == manages
    assert MatchClock.objects.get(match=match).absent_b == manages
    taps = "tantos" in ALLOWED[role]
    assert MatchClock.objects.get(match=match).tantos_a == (12 if taps else None)
    assert not ClockJuego.objects.exists()  # tapped and undone, or never tapped


def test_a_player_of_another_table_taps_nothing_here_but_their_own_table(tables):
    t = tables
    start_all(t)
    client = t.client("other_player")
    assert client.post(t.url(t.matches[0], "juego"), {"winner": "A"}, format="json").status_code == 403
    assert client.post(t.url(t.matches[1], "juego"), {"winner": "A"}, format="json").status_code == 200
    assert list(ClockJuego.objects.values_list("clock__match", "winner")) == [(t.matches[1].pk, "A")]


def test_a_match_of_another_tournament_is_not_found(tables):
    t = tables
    other = new_tournament(4, seed=34, format=Tournament.Format.CEROS, max_losses=2)
    foreign = playing(publish_next_round(other))[0]
    svc.clocks_start_round(round=foreign.round, by=other.organizer, at=T0)
    juez = t.client("juez")
    assert juez.get(t.url(foreign)).status_code == 404
    assert juez.get(t.url(foreign, "events")).status_code == 404
    for name, body in ACTIONS[1:]:
        response = juez.post(t.url(foreign, name), body, format="json")
        assert response.status_code == 404, name
        assert "detail" in response.json()
    # Its own tournament's organizer may, at its own address.
    own = client_for(other.organizer).post(
        f"/api/v1/tournaments/{other.tournament.slug}/clocks/{foreign.pk}/juego/", {"winner": "A"}, format="json"
    )
    assert own.status_code == 200


def test_an_exenta_has_no_clock(tables):
    t = tables
    start_all(t)
    assert client_for().get(t.url(t.bye)).status_code == 404
    response = t.client("juez").post(t.url(t.bye, "start"), format="json")
    assert response.status_code == 404 and "detail" in response.json()
    assert not MatchClock.objects.filter(match=t.bye).exists()


# --- bad input: a clear 4xx JSON, never a 500 ------------------------------------------------------

BAD = [
    ("get", "clocks/abc/", None, 404, "detail", ""),
    ("get", "clocks/-1/", None, 404, "detail", ""),
    ("get", "clocks/" + "9" * 30 + "/", None, 404, "detail", ""),
    ("get", "clocks/{m}/events/x", None, 404, None, ""),
    ("get", "clocks/?round=0", None, 404, "detail", "No hay ninguna ronda 0 publicada."),
    ("get", "clocks/?round=7", None, 404, "detail", "No hay ninguna ronda 7 publicada."),
    ("get", "clocks/?round=abc", None, 400, "round", "El número de ronda no es válido."),
    ("get", "clocks/?round=" + "9" * 40, None, 404, "detail", "No hay ninguna ronda"),
    ("post", "clocks/start/", {}, 400, "round", "Indica la ronda"),
    ("post", "clocks/start/", {"round": 0}, 400, "round", "El número de ronda no es válido."),
    ("post", "clocks/start/", {"round": 10**30}, 400, "round", "El número de ronda no es válido."),
    ("post", "clocks/start/", {"round": "uno"}, 400, "round", "El número de ronda no es válido."),
    ("post", "clocks/start/", {"round": 7}, 404, "detail", "No hay ninguna ronda 7 publicada."),
    ("post", "clocks/abc/juego/", {"winner": "A"}, 404, "detail", ""),
    ("post", "clocks/" + "9" * 30 + "/juego/", {"winner": "A"}, 404, "detail", ""),
    ("post", "clocks/{m}/juego/", {}, 400, "winner", "«A» o «B»"),
    ("post", "clocks/{m}/juego/", {"winner": "C"}, 400, "winner", "«A» o «B»"),
    ("post", "clocks/{m}/juego/", {"winner": None}, 400, "winner", "«A» o «B»"),
    ("post", "clocks/{m}/tantos/", {"a": 10}, 400, "b", "Indica los tantos"),
    ("post", "clocks/{m}/tantos/", {"a": 41, "b": 0}, 400, "a", "Los tantos van de 0 a 40."),
    ("post", "clocks/{m}/tantos/", {"a": 10**30, "b": -1}, 400, "b", "Los tantos van de 0 a 40."),
    ("post", "clocks/{m}/tantos/", {"a": "x", "b": 0}, 400, "a", "Los tantos son un número entero."),
    ("post", "clocks/{m}/tantos/", {"a": 1.5, "b": 0}, 400, "a", "Los tantos son un número entero."),
    ("post", "clocks/{m}/pause/", {}, 400, "reason", "Escribe el motivo de la interrupción (AMM 3.15)."),
    ("post", "clocks/{m}/pause/", {"reason": "   "}, 400, "reason", "Escribe el motivo"),
    ("post", "clocks/{m}/pause/", {"reason": "x" * 201}, 400, "reason", "demasiado largo"),
    ("post", "clocks/{m}/pause/", {"reason": ["a"]}, 400, "reason", "El motivo tiene que ser un texto."),
    ("post", "clocks/{m}/absence/", {"pair": "a"}, 400, "pair", "Indica la pareja: «A» o «B»."),
    ("post", "clocks/{m}/arrival/", {}, 400, "pair", "Indica la pareja: «A» o «B»."),
    ("post", "clocks/{m}/warning/", {"note": "x"}, 400, "pair", "Indica la pareja: «A» o «B»."),
    ("post", "clocks/{m}/warning/", {"pair": "A", "note": "x" * 201}, 400, "note", "demasiado larga"),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "code", "key", "message"), BAD, ids=[f"{b[0]} {b[1][:40]} {b[2]}"[:80] for b in BAD]
)
def test_bad_input_is_a_clear_4xx_in_spanish_and_writes_nothing(tables, method, path, body, code, key, message):
    t = tables
    start_all(t)
    url = f"{t.base}/{path.replace('{m}', str(t.matches[0].pk))}"
    client = t.client("juez")
    response = client.post(url, body, format="json") if method == "post" else client.get(url)
    assert response.status_code == code, response.content[:300]
    if key is not None:
        errors = response.json()
        assert key in errors, errors
        assert message in str(errors[key]), errors
    assert not ClockPause.objects.exists() and not ClockJuego.objects.exists() and not DelayWarning.objects.exists()
    assert MatchClock.objects.filter(tantos_a__isnull=False).count() == 0


def test_what_a_clock_cannot_do_now_is_a_400_with_its_code(tables):
    t = tables
    juez = t.client("juez")
    match = t.matches[0]
    stopped = juez.post(t.url(match, "juego"), {"winner": "A"}, format="json")
    assert stopped.status_code == 400 and stopped.json()["code"] == "stopped"
    assert "no está en marcha" in stopped.json()["detail"]
    start_all(t)
    refused = {
        "resume": (None, "not_paused"),
        "undo": (None, "no_juego"),
        "arrival": ({"pair": "A"}, "not_absent"),
    }
    for name, (body, code) in refused.items():
        response = juez.post(t.url(match, name), body, format="json")
        assert (response.status_code, response.json()["code"]) == (400, code), name
    assert juez.post(t.url(match, "pause"), {"reason": "baño"}, format="json").status_code == 200
    again = juez.post(t.url(match, "pause"), {"reason": "otra"}, format="json")
    assert (again.status_code, again.json()["code"]) == (400, "paused")


def test_anonymous_writers_are_refused_before_anything_else(tables):
    t = tables
    for path, body in (("clocks/start/", {"round": 1}), ("clocks/abc/juego/", {}), ("clocks/1/pause/", {})):
        response = client_for().post(f"{t.base}/{path}", body, format="json")
        assert response.status_code in (401, 403), path
        assert "detail" in response.json()
    assert not MatchClock.objects.exists()


# --- the rules, through the API (time frozen) -------------------------------------------------------


def test_the_round_starts_every_table_s_clock_and_a_running_clock_keeps_its_start_amm_6_1_a(tables):
    t = tables
    mesa = t.client("mesa")
    first = t.matches[0]
    with time_machine.travel(at(-1), tick=False) as clock:
        one = mesa.post(t.url(first, "start"), format="json")
        assert one.status_code == 200 and one.json()["started_at"] == at(-1).isoformat()
        clock.move_to(at(0))
        response = mesa.post(f"{t.base}/clocks/start/", {"round": 1}, format="json")
        assert response.status_code == 200
        data = response.json()
        assert (data["round"], data["started"]) == (1, 2)
        assert [c["started_at"] for c in data["clocks"]] == [at(-1).isoformat(), T0.isoformat(), T0.isoformat()]
        clock.move_to(at(3))
        again = mesa.post(f"{t.base}/clocks/start/", {"round": 1}, format="json").json()
        assert again["started"] == 0 and again["clocks"][1]["started_at"] == T0.isoformat()
        assert again["clocks"][1]["minute"] == 3
    assert not MatchClock.objects.filter(match=t.bye).exists()


def test_an_absence_costs_a_juego_at_10_another_at_15_and_the_arrival_stops_them_amm_6_1_b(tables):
    t = tables
    start_all(t)
    juez = t.client("juez")
    late, arrives = t.matches[0], t.matches[1]
    with time_machine.travel(at(0.5), tick=False) as clock:
        response = juez.post(t.url(late, "absence"), {"pair": "A"}, format="json")
        assert response.status_code == 200 and response.json()["missing"]["A"] == {"juegos": 0, "partida": False}
        assert juez.post(t.url(arrives, "absence"), {"pair": "B"}, format="json").status_code == 200
        svc.clocks_tick(now=at(10))
        clock.move_to(at(12))
        arrived = juez.post(t.url(arrives, "arrival"), {"pair": "B"}, format="json")
        assert arrived.status_code == 200 and arrived.json()["missing"]["B"] == {"juegos": 1, "partida": False}
        svc.clocks_tick(now=at(15))
        clock.move_to(at(15.5))
        assert client_for().get(t.url(late)).json()["missing"]["A"] == {"juegos": 2, "partida": False}
        assert client_for().get(t.url(arrives)).json()["missing"]["B"] == {"juegos": 1, "partida": False}
        events = juez.get(t.url(late, "events")).json()
    assert [(e["key"], e["article"], e["minute"]) for e in events] == [
        ("6.1.b:A:1", "6.1.b", 10),
        ("6.1.b:A:2", "6.1.b", 15),
    ]
    assert datetime.datetime.fromisoformat(events[0]["at"]) == at(10)
    assert events[1]["data"] == {"pair": "A", "juegos": 2}
    assert [e["key"] for e in juez.get(t.url(arrives, "events")).json()] == ["6.1.b:B:1"]


def test_a_pause_stops_the_clock_and_its_minutes_do_not_count_amm_3_15(tables):
    t = tables
    start_all(t)
    juez = t.client("juez")
    match = t.matches[0]
    with time_machine.travel(at(20), tick=False) as clock:
        paused = juez.post(t.url(match, "pause"), {"reason": "  Jugador indispuesto "}, format="json").json()
        assert (paused["paused"], paused["pause_reason"], paused["minute"], paused["max_at"]) == (
            True,
            "Jugador indispuesto",
            20,
            None,
        )
        clock.move_to(at(30))
        assert client_for().get(t.url(match)).json()["minute"] == 20
        clock.move_to(at(35))
        resumed = juez.post(t.url(match, "resume"), format="json").json()
        assert (resumed["paused"], resumed["minute"], resumed["max_at"]) == (False, 20, at(75).isoformat())
        clock.move_to(at(40))
        assert client_for().get(t.url(match)).json()["minute"] == 25
    assert ClockPause.objects.get().reason == "Jugador indispuesto"


def test_juegos_tapped_by_the_table_decide_the_adjustments_amm_6_4_b(tables):
    t = tables
    start_all(t)
    player, rival = t.client("player"), t.client("rival")
    match = t.matches[0]
    with time_machine.travel(at(12), tick=False) as clock:
        for minutes, winner in ((12, "A"), (30, "B"), (45, "A")):
            clock.move_to(at(minutes))
            tapped = player.post(t.url(match, "juego"), {"winner": winner}, format="json")
            if winner == "A":  # the player's own pair: counted when the rivals confirm it (AMM 3.16)
                assert tapped.status_code == 202 and tapped.json()["claim"]["pair"] == match.pair_a.number
                clock.move_to(at(minutes + 0.5))
                confirmed = rival.post(t.url(match, "juego"), {"winner": "A"}, format="json")
                assert confirmed.status_code == 200 and confirmed.json()["claim"] is None
                assert confirmed.json()["juegos"][-1] == {"winner": "A", "ended": minutes}  # when claimed
            else:  # the rivals' juego, conceded: counted at once
                assert tapped.status_code == 200
        clock.move_to(at(52))
        data = client_for().get(t.url(match)).json()
        assert (data["phase"], data["adjustments"], data["score"]) == ("ajustes", "6.4.b", {"A": 2, "B": 1})
        clock.move_to(at(57))  # 2-2 with 3 minutes left: the last juego to 20 tantos
        data = player.post(t.url(match, "juego"), {"winner": "B"}, format="json").json()
        assert data["juego"] == {"article": "6.4.b", "tantos": 20, "final": True}
        assert [j["winner"] for j in data["juegos"]] == ["A", "B", "A", "B"]
        refused = player.post(t.url(match, "undo"), format="json")  # the rivals' juego: not theirs to undo
        assert refused.status_code == 400 and refused.json()["code"] == "not_yours"
        undone = rival.post(t.url(match, "undo"), format="json").json()
        assert undone["score"] == {"A": 2, "B": 1} and len(undone["juegos"]) == 3
        tantos = player.post(t.url(match, "tantos"), {"a": 25, "b": 31}, format="json")
        assert tantos.status_code == 200
    assert MatchClock.objects.filter(match=match, tantos_a=25, tantos_b=31).exists()


def test_a_delay_warning_is_recorded_for_the_pair_of_the_table_amm_6_3(tables):
    t = tables
    start_all(t)
    match = t.matches[1]
    with time_machine.travel(at(40), tick=False):
        response = t.client("juez").post(
            t.url(match, "warning"), {"pair": "B", "note": " tarda en cortar "}, format="json"
        )
    assert response.status_code == 200 and response.json()["match"] == match.pk
    warning = DelayWarning.objects.get()
    assert (warning.pair_id, warning.side, warning.note, warning.at) == (
        match.pair_b_id,
        "B",
        "tarda en cortar",
        at(40),
    )
    refused = t.client("mesa").post(t.url(match, "warning"), {"pair": "B"}, format="json")
    assert refused.status_code == 403 and DelayWarning.objects.count() == 1


def test_a_whole_partida_through_the_api_ends_by_time_against_the_warned_pair_amm_6_5_b(tables):
    """The round starts, a pair arrives late, the table taps its juegos, the juez pauses and
    resumes, warns a pair for delay; the beat's tick ends the partida at the limit (6.5.b: one pair
    warned, it loses by one juego) and the events are read through the API."""
    t = tables
    juez, mesa, player = t.client("juez"), t.client("mesa"), t.client("player")
    match = t.matches[0]
    with time_machine.travel(at(0), tick=False) as clock:
        assert mesa.post(f"{t.base}/clocks/start/", {"round": 1}, format="json").json()["started"] == 3
        clock.move_to(at(0.5))
        assert juez.post(t.url(match, "absence"), {"pair": "B"}, format="json").status_code == 200
        clock.move_to(at(8))
        assert juez.post(t.url(match, "arrival"), {"pair": "B"}, format="json").status_code == 200
        clock.move_to(at(12))
        assert player.post(t.url(match, "juego"), {"winner": "A"}, format="json").status_code == 202
        assert t.client("rival").post(t.url(match, "juego"), {"winner": "A"}, format="json").status_code == 200
        clock.move_to(at(25))
        assert juez.post(t.url(match, "pause"), {"reason": "Falta una baraja"}, format="json").status_code == 200
        clock.move_to(at(30))
        assert juez.post(t.url(match, "resume"), format="json").status_code == 200
        clock.move_to(at(35))
        assert mesa.post(t.url(match, "juego"), {"winner": "B"}, format="json").status_code == 200
        clock.move_to(at(40))
        warned = juez.post(t.url(match, "warning"), {"pair": "B", "note": "tarda en cortar"}, format="json").json()
        assert (warned["minute"], warned["score"], warned["max_at"]) == (35, {"A": 1, "B": 1}, at(65).isoformat())
        assert warned["missing"]["B"] == {"juegos": 0, "partida": False}  # complete at 8: nothing lost
        svc.clocks_tick(now=at(74.9))  # 69.9 minutes on its clock (5 paused)
        assert "6.5.b" not in [e["key"] for e in juez.get(t.url(match, "events")).json()]
        svc.clocks_tick(now=at(75))
        clock.move_to(at(76))
        data = client_for().get(t.url(match)).json()
        events = player.get(t.url(match, "events")).json()
    assert data["phase"] == "terminada"
    assert data["forced_end"]["article"] == "6.5.b" and data["forced_end"]["loser"] == "B"
    forced = next(e for e in events if e["key"] == "6.5.b")
    assert (forced["article"], forced["minute"], forced["data"]["loser"], forced["data"]["agreed"]) == (
        "6.5.b",
        70,
        "B",
        False,
    )
    assert {"key", "article", "at", "minute", "data"} == set(forced)
    assert "fase:terminada" in [e["key"] for e in events]
    assert not any(e["key"].startswith("6.1.b") for e in events)
    assert MatchClock.objects.get(match=match).finished_at == at(75)
    finished = juez.post(t.url(match, "juego"), {"winner": "A"}, format="json")
    assert finished.status_code == 400 and finished.json()["code"] == "finished"


# --- the schema -----------------------------------------------------------------------------------


def test_the_schema_documents_the_clock_endpoints():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    base = "/api/v1/tournaments/{tournament_slug}/clocks"
    expected = {
        f"{base}/": "get",
        f"{base}/start/": "post",
        f"{base}/{{match_id}}/": "get",
        f"{base}/{{match_id}}/events/": "get",
        **{
            f"{base}/{{match_id}}/{name}/": "post"
            for name in ("start", "pause", "resume", "juego", "undo", "tantos", "absence", "arrival", "warning")
        },
    }
    for path, method in expected.items():
        assert path in paths and method in paths[path], path
        assert "AMM" in paths[path][method]["description"], path
    articles = {
        f"{base}/start/": "6.1.a",
        f"{base}/{{match_id}}/pause/": "3.15",
        f"{base}/{{match_id}}/absence/": "6.1.b",
        f"{base}/{{match_id}}/warning/": "6.3",
        f"{base}/{{match_id}}/juego/": "6.4",
    }
    for path, article in articles.items():
        assert article in paths[path]["post"]["description"], path
    components = schema["components"]["schemas"]
    assert {"phase", "juego", "missing", "forced_end", "alerts", "max_at", "server_now"} <= set(
        components["ClockInfo"]["properties"]
    )
    assert components["ClockTapRequest"]["required"] == ["winner"]  # tapped_at: a tap sent late (issue 33)
    assert components["ClockTapRequest"]["properties"]["tapped_at"]["format"] == "date-time"
    assert set(components["ClockTantosRequest"]["required"]) == {"a", "b"}
    assert "6.5.b" in paths[f"{base}/{{match_id}}/events/"]["get"]["description"]


def test_no_juego_while_the_juez_stopped_the_clock_and_no_undo_of_a_sanctions_juego_amm_3_15_5_4_2(tables):
    """AMM 3.15 through the API, for a player of the table: «reloj parado por el juez», a clear
    409 or 400, never a 500; and a juego the juez gave is not undone from the clock (5.4.2)."""
    t = tables
    start_all(t)
    match = t.matches[0]
    svc.clock_pause(match=match, by=t.users["juez"], reason="Incidencia")
    player = t.client("player")
    refused = player.post(t.url(match, "juego"), {"winner": "A"}, format="json")
    assert refused.status_code in (400, 409) and "reloj parado por el juez" in str(refused.json()).lower()
    assert not ClockJuego.objects.filter(clock__match=match).exists()
    svc.clock_resume(match=match, by=t.users["juez"])
    svc.clock_juego_adjudge(match=match, by=t.users["juez"], winner="B", article="5.4.2")
    undo = player.post(t.url(match, "undo"), {}, format="json")
    assert undo.status_code in (400, 409) and "5.4.2" in str(undo.json())
    assert ClockJuego.objects.filter(clock__match=match).count() == 1
