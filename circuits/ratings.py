"""Player ratings in the database (issue 35): recomputed from scratch from every partida played in
the circuits' tournaments (a tournament is rated once its organizers put it in a circuit: the same
consent as for the ranking), by a Celery task when a result counts, or by ``manage.py
ratings_recompute``.

Recomputing from scratch keeps it idempotent whatever changed (a corrected acta of an old round, a
tournament removed from its circuit): the same partidas give the same ratings. Many results in a
burst run it once: ``ratings_request`` marks the ratings stale and queues the task; the task runs
while they are stale, one at a time (a lock in the cache).

Partidas count in the order they were played (the tournament's start date, the round, the table);
only those played (a walkover, an exenta or a double loss tells nothing of who plays better). A
pair is its titulares (a trío's three); a suplente's partida (AMM 5.8) counts for the titular.
"""

from __future__ import annotations

from collections import defaultdict

from django.core.cache import cache
from django.db import transaction

from circuits.identity import people
from circuits.models import CircuitTournament, PlayerRating
from circuits.rating import Game, rate
from torneo.models import Match, PairMember, Tournament

STALE = "circuits:ratings:stale"
LOCK = "circuits:ratings:lock"
LOCK_SECONDS = 600


def rated_games() -> list[Game[str]]:
    """Every partida played in a circuit's tournaments, in the order it was played."""
    tournaments = CircuitTournament.objects.values_list("tournament_id", flat=True).distinct()
    matches = list(
        Match.objects.filter(round__tournament_id__in=tournaments, outcome=Match.Outcome.PLAYED, winner__isnull=False)
        .exclude(pair_b=None)
        .order_by("round__tournament__start_date", "round__tournament_id", "round__number", "table_number", "pk")
        .values_list("pair_a_id", "pair_b_id", "winner_id")
    )
    pairs = {p for a, b, _w in matches for p in (a, b)}
    members = list(
        PairMember.objects.filter(pair_id__in=pairs).order_by("pair_id", "position").values_list("pair_id", "player_id")
    )
    who = people(player for _pair, player in members)
    team: dict[int, list[str]] = defaultdict(list)
    for pair_id, player_id in members:
        team[pair_id].append(who[player_id])
    games: list[Game[str]] = []
    for a, b, winner in matches:
        if team[a] and team[b] and not set(team[a]) & set(team[b]):
            games.append(Game(tuple(team[a]), tuple(team[b]), "a" if winner == a else "b"))
    return games


def ratings_recompute() -> int:
    """Every rating again from every rated partida, written in one transaction. Returns how many
    people are rated."""
    ratings = rate(rated_games())
    rows = []
    for person, r in ratings.items():
        kind, _sep, pk = person.partition(":")
        rows.append(
            PlayerRating(
                person=person,
                user_id=int(pk) if kind == "u" else None,
                player_id=int(pk) if kind == "p" else None,
                mu=r.mu,
                sigma=r.sigma,
                games=r.games,
            )
        )
    with transaction.atomic():
        PlayerRating.objects.all().delete()
        PlayerRating.objects.bulk_create(rows, batch_size=1000)
    return len(rows)


def ratings_request() -> None:
    """A result counts: the ratings are stale; the task runs once this transaction commits."""
    cache.set(STALE, 1, timeout=None)

    def queue() -> None:
        from circuits.tasks import ratings_task  # the task module imports this one

        ratings_task.delay()

    transaction.on_commit(queue)


def ratings_run() -> bool:
    """The task's body: recompute while the ratings are stale, unless another worker is at it.
    False when it left them to that worker."""
    if not cache.add(LOCK, 1, timeout=LOCK_SECONDS):
        return False
    try:
        while cache.get(STALE):
            cache.delete(STALE)
            ratings_recompute()
    finally:
        cache.delete(LOCK)
    return True


def pair_strengths(tournament: Tournament, numbers: list[int]) -> dict[int, float]:
    """A pair's strength for seeding its tournament's liguillas: the mean of its players' ordinals
    (μ − 3σ; a player nobody rated counts 0, a newcomer's ordinal), with the same identity as the
    rankings (circuits.identity)."""
    members = list(
        PairMember.objects.filter(pair__tournament=tournament, pair__number__in=numbers).values_list(
            "pair__number", "player_id"
        )
    )
    who = people(player for _number, player in members)
    rated = {r.person: r.ordinal for r in PlayerRating.objects.filter(person__in=set(who.values()))}
    by_pair: dict[int, list[float]] = defaultdict(list)
    for number, player in members:
        by_pair[number].append(rated.get(who[player], 0.0))
    return {number: sum(values) / len(values) for number, values in by_pair.items()}


def ratings_of(people: list[str]) -> dict[str, PlayerRating]:
    return {r.person: r for r in PlayerRating.objects.filter(person__in=people)}
