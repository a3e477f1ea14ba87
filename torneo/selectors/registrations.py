"""Reads of registrations: a tournament's pairs with their players (searchable by player name) and
its counts by status. Querysets with what their templates need, in a fixed number of queries."""

from collections.abc import Sequence
from typing import TypedDict

from django.db.models import Count, Prefetch, Q, QuerySet

from torneo.identity import normalize_name
from torneo.models import Pair, PairMember, Player, Tournament


def members_prefetch(path: str = "members") -> "Prefetch[str, QuerySet[PairMember]]":
    """A pair's members with their players, in seat order, prefetched along ``path`` (e.g.
    "pair_a__members"): what the pair's label and the player role (torneo.permissions) read."""
    return Prefetch(path, queryset=PairMember.objects.select_related("player").order_by("position"))


def pairs_with_players() -> QuerySet[Pair]:
    return Pair.objects.prefetch_related(members_prefetch())


def pairs_of(tournament: Tournament, *, q: str = "", statuses: Sequence[str] | None = None) -> QuerySet[Pair]:
    """A tournament's pairs, optionally only some statuses and those with a player matching `q`
    (every word of the search must appear in one player's name, accents and case ignored)."""
    qs = pairs_with_players().filter(tournament=tournament)
    if statuses:
        qs = qs.filter(status__in=statuses)
    words = normalize_name(q).split()
    if words:
        member_filter = Q()
        for word in words:
            member_filter &= Q(normalized_name__contains=word)
        players = _players_matching(member_filter & Q(tournament=tournament))
        qs = qs.filter(Q(members__player__in=players) | Q(name__icontains=q.strip()))
        qs = qs.distinct()
    return qs.order_by("registered_at", "id")


class _Pk(TypedDict):
    pk: int


def _players_matching(condition: Q) -> QuerySet[Player, _Pk]:
    return Player.objects.filter(condition).values("pk")


def registration_counts(tournament: Tournament) -> dict[str, int]:
    rows = Pair.objects.filter(tournament=tournament).values("status").annotate(n=Count("id"))
    counts = dict.fromkeys(Pair.Status.values, 0)
    counts.update({row["status"]: row["n"] for row in rows})
    counts["checked_in"] = Pair.objects.filter(
        tournament=tournament, status=Pair.Status.CONFIRMED, checked_in_at__isnull=False
    ).count()
    return counts
