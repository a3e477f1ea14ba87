"""Player ratings in the database (issue 35): recomputed from every partida played in a circuit's
tournaments, by the task a counted result queues, or by the command; shown on the circuit."""

import io
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

import circuits.tasks
from circuits.models import Circuit, PlayerRating
from circuits.ratings import LOCK, STALE, rated_games, ratings_recompute, ratings_run
from circuits.services import circuit_create, circuit_tournament_add
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Pair, Tournament

pytestmark = pytest.mark.django_db


def season(*seeds: int, played: bool = True) -> Any:
    organizer = UserFactory()
    sims = [new_tournament(4, seed=s, format=Tournament.Format.CEROS, max_losses=1) for s in seeds]
    for sim in sims:
        grant(organizer, sim.tournament, "organizer")
    circuit = circuit_create(by=organizer, name="C", season="2026", points_table="10, 5")
    for sim in sims:
        circuit_tournament_add(circuit=circuit, tournament=sim.tournament, by=organizer)
    return type("Season", (), {"circuit": circuit, "sims": sims, "organizer": organizer})


def link(pair: Pair, users: list[Any]) -> None:
    for member, user in zip(pair.ordered_members(), users, strict=True):
        member.player.user = user
        member.player.save()


def test_every_partida_played_in_a_circuits_tournament_counts_once_and_in_order() -> None:
    s = season(1, 2)
    ana, bea = UserFactory(), UserFactory()
    link(Pair.objects.get(tournament=s.sims[0].tournament, number=1), [ana, bea])
    link(Pair.objects.get(tournament=s.sims[1].tournament, number=3), [ana, bea])
    outside = new_tournament(4, seed=3, format=Tournament.Format.CEROS, max_losses=1)  # in no circuit
    for sim in (*s.sims, outside):
        sim.play_all()
    games = rated_games()
    assert len(games) == 3 + 3  # a 4-pair knockout: two semifinals and the final, twice
    assert ratings_recompute() == 2 * 8 - 2  # ana and bea once each
    ana_rating = PlayerRating.objects.get(person=f"u:{ana.pk}")
    played = Match.objects.filter(
        round__tournament__in=[sim.tournament for sim in s.sims], outcome=Match.Outcome.PLAYED
    ).filter(pair_a__members__player__user=ana) | Match.objects.filter(
        round__tournament__in=[sim.tournament for sim in s.sims], outcome=Match.Outcome.PLAYED
    ).filter(pair_b__members__player__user=ana)
    assert ana_rating.games == played.distinct().count() >= 2 and ana_rating.user == ana
    before = {r.person: (r.mu, r.sigma, r.games) for r in PlayerRating.objects.all()}
    ratings_recompute()  # idempotent
    assert {r.person: (r.mu, r.sigma, r.games) for r in PlayerRating.objects.all()} == before
    assert not PlayerRating.objects.filter(player__tournament=outside.tournament).exists()


def test_a_walkover_tells_nothing_and_is_not_rated() -> None:
    s = season(4)
    round_ = publish_next_round(s.sims[0])
    first, second = playing(round_)
    from scoring.services.results import result_submit

    result_submit(match=first, by=s.organizer, outcome=Match.Outcome.WALKOVER, winner=first.pair_a)
    s.sims[0].enter_result(second)
    assert len(rated_games()) == 1


def test_a_counted_result_queues_the_ratings_once_it_commits(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    ran: list[bool] = []
    monkeypatch.setattr(circuits.tasks.ratings_task, "delay", lambda: ran.append(ratings_run()))
    s = season(5)
    outside = new_tournament(4, seed=6)
    round_ = publish_next_round(outside)
    cache.delete(STALE)
    with django_capture_on_commit_callbacks(execute=True):
        outside.enter_result(playing(round_)[0])
    assert ran == [] and not cache.get(STALE)  # not a circuit's tournament
    round_ = publish_next_round(s.sims[0])
    with django_capture_on_commit_callbacks(execute=True):
        s.sims[0].enter_result(playing(round_)[0])
    assert ran == [True] and PlayerRating.objects.count() == 4 and not cache.get(STALE)
    cache.set(LOCK, 1)  # another worker is at it: this one leaves it
    cache.set(STALE, 1)
    assert ratings_run() is False and cache.get(STALE)
    cache.delete(LOCK)
    assert ratings_run() is True and not cache.get(STALE)


def test_the_command_recomputes_and_the_circuit_shows_the_players_ratings() -> None:
    s = season(7)
    s.sims[0].play_all()
    out = io.StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "8 jugadores con rating" in out.getvalue()
    html = Client().get(Circuit.objects.get(pk=s.circuit.pk).get_absolute_url()).content.decode()
    assert html.count("rating ") >= 8
