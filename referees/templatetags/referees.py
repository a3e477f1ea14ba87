"""Template tags that show the juez's record on other apps' pages (the pair page), so those apps
never import referees: ``{% load referees %}{% pair_sanctions pair %}``."""

from __future__ import annotations

from typing import Any

from django import template

from referees.selectors.sanctions import pair_sanctions as sanctions_of
from referees.selectors.sanctions import pair_substitutions, round_substitutions
from torneo.models import Pair, Tournament
from torneo.permissions import Action, can, is_member_of

register = template.Library()


@register.inclusion_tag("referees/_pair_sanctions.html", takes_context=True)
def pair_sanctions(context: dict[str, Any], pair: Pair) -> dict[str, Any]:
    """The pair's sanctions in force (AMM 5.4): the public sees those that change results; the
    pair's own players and the tournament's staff also see its apercibimientos."""
    private = context.get("sanctions_private")  # the pair page's cached body says whose it is
    if private is None:
        request = context.get("request")
        user = getattr(request, "user", None)
        member = context.get("is_member")  # the pair page knows it already: no query
        if member is None and user is not None:
            member = is_member_of(user, pair)
        private = bool(member) or (
            user is not None and user.is_authenticated and can(user, pair.tournament, Action.VIEW_PRIVATE)
        )
    return {
        "sanctions": sanctions_of(pair, with_warnings=private),
        "private": private,
        "substitutions": pair_substitutions(pair),  # AMM 5.8: public (the names, never the document)
    }


@register.inclusion_tag("referees/_round_substitutes.html")
def round_substitutes(tournament: Tournament, number: int) -> dict[str, Any]:
    """The suplentes of a round's partidas (AMM 5.8), on its public page: names, never documents."""
    return {"substitutions": round_substitutions(tournament, number)}
