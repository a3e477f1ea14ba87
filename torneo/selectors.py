"""Reads for pages and the API: querysets with what their templates need, in a fixed number of queries."""

from django.db.models import Count, Prefetch, Q, QuerySet

from torneo.identity import normalize_name
from torneo.models import Pair, PairMember, Tournament, TournamentRole


def tournaments_public() -> QuerySet[Tournament]:
    """Listed tournaments that are not drafts, with their number of registered pairs."""
    return (
        Tournament.objects.filter(listed=True)
        .exclude(status=Tournament.Status.DRAFT)
        .annotate(pair_count=Count("pairs", filter=Q(pairs__status=Pair.Status.CONFIRMED)))
        .order_by("-start_date", "name")
    )


def tournaments_visible_to(user) -> QuerySet[Tournament]:  # type: ignore[no-untyped-def]
    """For the API list: public tournaments plus, for staff, the ones where they hold a role."""
    visible = Q(listed=True) & ~Q(status=Tournament.Status.DRAFT)
    if user.is_superuser:
        return Tournament.objects.order_by("-start_date", "name")
    if user.is_authenticated:
        staff_of_ids = TournamentRole.objects.filter(user=user).values("tournament_id")
        visible |= Q(pk__in=staff_of_ids)
    return Tournament.objects.filter(visible).order_by("-start_date", "name")


def tournaments_managed_by(user) -> QuerySet[Tournament]:  # type: ignore[no-untyped-def]
    qs = Tournament.objects.all() if user.is_superuser else Tournament.objects.filter(roles__user=user).distinct()
    return qs.annotate(
        pair_count=Count("pairs", filter=Q(pairs__status=Pair.Status.CONFIRMED), distinct=True)
    ).order_by("-start_date", "name")


def pairs_with_players() -> QuerySet[Pair]:
    return Pair.objects.prefetch_related(
        Prefetch("members", queryset=PairMember.objects.select_related("player").order_by("position"))
    )


def pairs_of(tournament: Tournament, *, q: str = "", statuses: list[str] | None = None) -> QuerySet[Pair]:
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


def _players_matching(condition: Q):  # type: ignore[no-untyped-def]
    from torneo.models import Player

    return Player.objects.filter(condition).values("pk")


def registration_counts(tournament: Tournament) -> dict[str, int]:
    rows = Pair.objects.filter(tournament=tournament).values("status").annotate(n=Count("id"))
    counts = dict.fromkeys(Pair.Status.values, 0)
    counts.update({row["status"]: row["n"] for row in rows})
    counts["checked_in"] = Pair.objects.filter(
        tournament=tournament, status=Pair.Status.CONFIRMED, checked_in_at__isnull=False
    ).count()
    return counts


def staff_of(tournament: Tournament) -> QuerySet[TournamentRole]:
    return (
        TournamentRole.objects.filter(tournament=tournament).select_related("user").order_by("role", "user__username")
    )


def draw_cli_inputs(draw) -> list[dict]:  # type: ignore[no-untyped-def]
    """For a published draw, each pool's exact `python -m torneo.draws` input (AMM 5.5): anyone
    can run it and compare with the published matches. Pool seeds are `seed/label`."""
    from torneo.draws.manager import GROUPS_LABEL

    if not draw.seed:
        return []
    inputs = []
    for request in draw.requests:
        if request["label"] == GROUPS_LABEL:
            continue
        line = {"seed": f"{draw.seed}/{request['label']}" if request["label"] else draw.seed}
        line.update({k: request[k] for k in ("pairs", "history", "byes", "group") if k in request})
        inputs.append(line)
    return inputs
