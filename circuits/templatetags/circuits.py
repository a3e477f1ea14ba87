"""The circuits on a tournament's own pages, without the tournament's apps importing circuits (as
referees does): the pair page links each of its players to their page in the circuits the
tournament belongs to (rating and ranking). Links only, never figures: the pair page's body is kept
until the pair's page changes, and a rating is recomputed after it (circuits.tasks)."""

from __future__ import annotations

from typing import Any

from django import template

from circuits.identity import people
from circuits.models import CircuitTournament
from circuits.selectors import person_slug
from torneo.models import Pair, Tournament

register = template.Library()


@register.inclusion_tag("circuits/_pair_circuits.html")
def pair_circuits(pair: Pair) -> dict[str, Any]:
    entries = (
        CircuitTournament.objects.filter(tournament_id=pair.tournament_id)
        .exclude(tournament__status=Tournament.Status.DRAFT)
        .select_related("circuit")
    )
    circuits = [e.circuit for e in entries]  # one query: the body of a pair page is read by many phones
    if not circuits:
        return {"circuits": []}
    players = [m.player for m in pair.ordered_members()]
    who = people(p.pk for p in players)
    return {"circuits": circuits, "players": [(p.full_name, person_slug(who[p.pk])) for p in players]}
