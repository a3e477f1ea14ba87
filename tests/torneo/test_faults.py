"""Faults in the middle of the writes that matter most (issue 18, item 4): a crash while a draw is
published, a worker killed in the middle of the clocks' tick. Afterwards the state is consistent:
no half-published draw, no penalty lost or given twice (AMM 6.1.b), and doing it again works.

A crash here is an exception raised at the worst moment by the code under test's own collaborator
(the write after the one that already happened); a process killed there leaves the same thing
behind, since what it had not committed never reaches the database. The production stack's
restarts (PostgreSQL's connections dropped, Redis restarted) are in tests/test_production_stack.py.
"""

import datetime

import pytest

from scoring.models import ClockEvent, MatchClock
from scoring.services import clocks as svc
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Draw, Match, Round, Tournament
from torneo.services import rounds as round_services
from torneo.services.rounds import draw_publish, live_draw, round_prepare

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


class Crash(RuntimeError):
    pass


def test_a_crash_while_a_draw_is_published_leaves_no_half_published_draw_amm_5_5(monkeypatch):
    sim = new_tournament(10, seed=8)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    draw = live_draw(round_)

    written: list[tuple[int | None, int, int | None]] = []

    def crash(**kwargs: object) -> None:
        written.extend(tables(round_))  # what was written, inside the transaction that dies
        raise Crash("the process dies after the partidas were written")

    monkeypatch.setattr(round_services, "live_bump", crash)
    with pytest.raises(Crash):
        draw_publish(draw=draw, public_value="4 2 6", witness=sim.juez, by=sim.organizer)
    draw.refresh_from_db()
    round_.refresh_from_db()
    assert draw.status == Draw.Status.COMMITTED and not draw.seed and not draw.public_value
    assert round_.status != Round.Status.PUBLISHED and round_.published_at is None
    assert not Match.objects.filter(round=round_).exists()
    monkeypatch.undo()
    # Published again with the same public value: the draw it would have been, in full.
    published = draw_publish(draw=draw, public_value="4 2 6", witness=sim.juez, by=sim.organizer)
    assert published.status == Round.Status.PUBLISHED
    assert len(written) == 5 and tables(round_) == written
    assert Draw.objects.filter(round=round_, status=Draw.Status.PUBLISHED).count() == 1


def tables(round_: Round) -> list[tuple[int | None, int, int | None]]:
    rows = Match.objects.filter(round=round_).order_by("table_number", "pk")
    return list(rows.values_list("table_number", "pair_a__number", "pair_b__number"))


@pytest.fixture
def late_table():
    """Round 1 published, its clocks started at T0, and pair A of the first table absent."""
    sim = new_tournament(6, seed=31, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-fallos"), sim.tournament, "juez")
    svc.clocks_start_round(round=round_, by=juez, at=T0)
    late = playing(round_)[0]
    svc.clock_absence(match=late, by=juez, pair="A", at=at(0.5))
    return late


def keys(match: Match) -> list[str]:
    return list(ClockEvent.objects.filter(clock__match=match).order_by("pk").values_list("key", flat=True))


EXPECTED = ["6.1.b:A:1", "6.1.b:A:2", "6.1.b:A:partida", "fase:terminada"]


def test_a_worker_killed_before_the_ticks_phases_leaves_none_of_its_penalties_amm_6_1_b(
    late_table, monkeypatch
):
    """Killed between the two writes of a tick (its lateness penalties, then the clocks' phases):
    the tick is one transaction, so none of its penalties is in; the next tick (another worker)
    writes them all, once, and ends the clock."""

    def crash(*args: object, **kwargs: object) -> None:
        raise Crash("killed after writing the events")

    monkeypatch.setattr(MatchClock.objects, "bulk_update", crash)
    with pytest.raises(Crash):
        svc.clocks_tick(now=at(20))
    assert keys(late_table) == []
    assert MatchClock.objects.get(match=late_table).phase != "terminada"
    monkeypatch.undo()
    svc.clocks_tick(now=at(20.1))
    svc.clocks_tick(now=at(20.2))
    assert keys(late_table) == EXPECTED
    assert MatchClock.objects.get(match=late_table).phase == "terminada"


def test_a_worker_killed_while_writing_the_ticks_penalties_loses_none_amm_6_1_b(late_table, monkeypatch):
    """Killed inside the write of the penalties: none is in (one transaction); the next tick writes
    them all, once."""
    real = ClockEvent.objects.bulk_create

    def crash(objs: list[ClockEvent], *args: object, **kwargs: object) -> list[ClockEvent]:
        real(objs[:1])
        raise Crash("killed after the first of the events")

    monkeypatch.setattr(ClockEvent.objects, "bulk_create", crash)
    with pytest.raises(Crash):
        svc.clocks_tick(now=at(20))
    assert keys(late_table) == []
    monkeypatch.undo()
    svc.clocks_tick(now=at(20.1))
    assert keys(late_table) == EXPECTED
    assert MatchClock.objects.get(match=late_table).phase == "terminada"


def test_two_ticks_at_once_two_beats_give_each_penalty_once_amm_6_1_b(late_table):
    """Two beats by mistake, or a tick sent twice: the same instant ticked twice writes once."""
    svc.clocks_tick(now=at(20))
    svc.clocks_tick(now=at(20))
    assert keys(late_table) == EXPECTED
