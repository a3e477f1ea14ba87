"""Tests of results, standings, bracket and classification. Shared helpers live here."""

from typing import Any

from tests.torneo.simulation import Simulation, new_tournament
from torneo.models import Match, Round
from torneo.services.registrations import pair_check_in
from torneo.services.rounds import draw_publish, live_draw, round_prepare, round_publish


def publish_next_round(sim: Simulation) -> Round:
    """Prepare and publish the next round (before the juez for a drawn one), without results."""
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    if round_.kind == Round.Kind.DRAW:
        draw_publish(draw=live_draw(round_), public_value=str(round_.number * 7), witness=sim.juez, by=sim.organizer)
    else:
        round_publish(round=round_, by=sim.organizer)
    round_.refresh_from_db()
    sim.rounds.append(round_)
    return round_


def world_match(world: Any) -> Match:
    """The world fixture's two pairs drawn against each other at table 1 of round 1 (own pair has
    the player user)."""
    from tests.factories import UserFactory, grant

    for pair in (world.own_pair, world.other_pair):
        pair_check_in(pair=pair)
    organizer = world.users["organizer"]
    round_ = round_prepare(tournament=world.tournament, by=organizer)
    witness = grant(UserFactory(), world.tournament, "juez")
    draw_publish(draw=live_draw(round_), public_value="7", witness=witness, by=organizer)
    return Match.objects.select_related("round__tournament", "pair_a", "pair_b").get(round=round_)


def expel(pair: Any) -> None:
    """Expel a pair (AMM 3.16.b, 5.4: a juez's decision). No service exists yet for it (the
    referees' part): the status is what the draws and the standings read; the version bump is
    what any service change of a pair does."""
    from django.db.models import F

    from torneo.models import Pair

    Pair.objects.filter(pk=pair.pk).update(status=Pair.Status.EXPELLED, version=F("version") + 1)


def playing(round_: Round) -> list[Match]:
    """A round's matches with two pairs, by table."""
    return list(
        round_.matches.exclude(pair_b=None)
        .select_related("round__tournament", "pair_a", "pair_b")
        .order_by("table_number", "slot")
    )


__all__ = ["expel", "new_tournament", "playing", "publish_next_round", "world_match"]
