"""A juego tapped on a phone without network (issue 33): the phone keeps the tap with its moment
and sends it when the connection returns; the juego ended when it was tapped (AMM 3.16: marked as it
ends; chapter VI counts from it), within LATE_TAP_MAX, never during an interruption (AMM 3.15), never
before the clock started; sent twice with its Idempotency-Key, it counts once."""

import datetime

import pytest
import time_machine

from scoring.models import ClockJuego, JuegoClaim
from scoring.services import clocks as clock_services
from scoring.services.clocks import LATE_TAP_MAX
from tests.scoring.test_hands_services import Table, table
from tests.torneo.test_api_terminal_actions import api

pytestmark = pytest.mark.django_db
T0 = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=datetime.UTC)


def started() -> Table:
    t = table()
    clock_services.clock_start(match=t.match, by=t.juez, at=T0)
    return t


def tap(t: Table, user, *, winner: str, tapped_at: datetime.datetime | None, now: datetime.datetime, key: str = ""):
    body = {"winner": winner} if tapped_at is None else {"winner": winner, "tapped_at": tapped_at.isoformat()}
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    with time_machine.travel(now, tick=False):
        return api(user).post(
            f"/api/v1/tournaments/{t.tournament.slug}/clocks/{t.match.pk}/juego/", body, format="json", **headers
        )


def test_a_juego_tapped_without_network_ended_when_it_was_tapped_amm_3_16():
    t = started()
    tapped, arrived = T0 + datetime.timedelta(minutes=20), T0 + datetime.timedelta(minutes=24)
    # Pair B's player gives the juego to pair A (it counts at once), offline; sent 4 minutes later.
    answer = tap(t, t.player_b, winner="A", tapped_at=tapped, now=arrived, key="juego-1")
    assert answer.status_code == 200, answer.json()
    [juego] = ClockJuego.objects.filter(clock__match=t.match)
    assert juego.winner == "A" and juego.ended_at == tapped
    # The phone sent it again (the answer was lost): the same answer, one juego.
    again = tap(t, t.player_b, winner="A", tapped_at=tapped, now=arrived + datetime.timedelta(seconds=5), key="juego-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert ClockJuego.objects.filter(clock__match=t.match).count() == 1


def test_a_claim_tapped_without_network_is_dated_when_it_was_tapped_and_the_juego_too_amm_3_16():
    t = started()
    claimed = T0 + datetime.timedelta(minutes=18)
    answer = tap(t, t.player_a, winner="A", tapped_at=claimed, now=claimed + datetime.timedelta(minutes=2))
    assert answer.status_code == 202
    assert JuegoClaim.objects.get(clock__match=t.match).claimed_at == claimed
    confirmed = tap(t, t.player_b, winner="A", tapped_at=None, now=claimed + datetime.timedelta(minutes=3))
    assert confirmed.status_code == 200
    assert ClockJuego.objects.get(clock__match=t.match).ended_at == claimed


def test_a_tap_older_than_the_limit_is_the_juezs_to_enter_and_nothing_is_written():
    t = started()
    arrived = T0 + datetime.timedelta(minutes=40)
    answer = tap(
        t, t.player_b, winner="A", tapped_at=arrived - LATE_TAP_MAX - datetime.timedelta(seconds=1), now=arrived
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "late" and "Avisad al juez" in answer.json()["detail"]
    assert not ClockJuego.objects.filter(clock__match=t.match).exists()
    at_limit = tap(t, t.player_b, winner="A", tapped_at=arrived - LATE_TAP_MAX, now=arrived)
    assert at_limit.status_code == 200


def test_a_phone_behind_the_start_or_ahead_of_the_server_is_held_to_the_clock():
    t = started()
    early = tap(
        t, t.player_a, winner="B", tapped_at=T0 - datetime.timedelta(minutes=1), now=T0 + datetime.timedelta(minutes=5)
    )
    assert early.status_code == 200
    assert ClockJuego.objects.get(clock__match=t.match, number=1).ended_at == T0  # never before the start
    now = T0 + datetime.timedelta(minutes=30)
    assert tap(t, t.player_b, winner="A", tapped_at=now + datetime.timedelta(minutes=3), now=now).status_code == 200
    assert ClockJuego.objects.get(clock__match=t.match, number=2).ended_at == now  # never after it arrived


def test_a_juego_tapped_before_the_juez_stopped_the_clock_counts_one_tapped_during_the_stop_does_not_amm_3_15():
    t = started()
    stop = T0 + datetime.timedelta(minutes=25)
    clock_services.clock_pause(match=t.match, by=t.juez, reason="Incidencia en la mesa", at=stop)
    arrived = stop + datetime.timedelta(minutes=3)
    during = tap(t, t.player_b, winner="A", tapped_at=stop + datetime.timedelta(minutes=1), now=arrived)
    assert during.status_code == 400 and during.json()["code"] == "paused"
    before = tap(t, t.player_b, winner="A", tapped_at=stop - datetime.timedelta(minutes=1), now=arrived)
    assert before.status_code == 200
    assert ClockJuego.objects.get(clock__match=t.match).ended_at == stop - datetime.timedelta(minutes=1)
    # Now, while still stopped: refused as before.
    assert tap(t, t.player_b, winner="A", tapped_at=None, now=arrived).json()["code"] == "paused"


def test_a_tap_time_that_is_not_a_time_is_a_400_naming_the_field():
    t = started()
    with time_machine.travel(T0 + datetime.timedelta(minutes=5), tick=False):
        answer = api(t.player_b).post(
            f"/api/v1/tournaments/{t.tournament.slug}/clocks/{t.match.pk}/juego/",
            {"winner": "A", "tapped_at": "ayer"},
            format="json",
        )
    assert answer.status_code == 400 and "La hora del toque no es válida." in str(answer.json()["tapped_at"])
    assert not ClockJuego.objects.filter(clock__match=t.match).exists()
