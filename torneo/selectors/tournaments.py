"""Reads of tournaments: the public list, the ones visible to or managed by a user, a tournament's
staff. Querysets with what their templates need, in a fixed number of queries."""

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from torneo import pagecache
from torneo.models import Match, Pair, Tournament, TournamentRole
from torneo.numbers import parse_int
from torneo.selectors.rounds import Champion, tournament_progress
from torneo.typing import User, signed_in


def tournaments_public() -> QuerySet[Tournament]:
    """Listed tournaments that are not drafts, with their number of registered pairs."""
    return (
        Tournament.objects.filter(listed=True)
        .exclude(status=Tournament.Status.DRAFT)
        .annotate(pair_count=Count("pairs", filter=Q(pairs__status=Pair.Status.CONFIRMED)))
        .order_by("-start_date", "name")
    )


def tournaments_visible_to(user: User) -> QuerySet[Tournament]:
    """For the API list: public tournaments plus, for staff, the ones where they hold a role."""
    visible = Q(listed=True) & ~Q(status=Tournament.Status.DRAFT)
    if user.is_superuser:
        return Tournament.objects.order_by("-start_date", "name")
    if user.is_authenticated:
        staff_of_ids = TournamentRole.objects.filter(user=user).values("tournament_id")
        visible |= Q(pk__in=staff_of_ids)
    return Tournament.objects.filter(visible).order_by("-start_date", "name")


def tournaments_managed_by(user: User) -> QuerySet[Tournament]:
    """The tournaments where a signed-in user holds a role (all of them for a superuser)."""
    if user.is_superuser:
        qs = Tournament.objects.all()
    else:
        qs = Tournament.objects.filter(roles__user=signed_in(user)).distinct()
    return qs.annotate(
        pair_count=Count("pairs", filter=Q(pairs__status=Pair.Status.CONFIRMED), distinct=True)
    ).order_by("-start_date", "name")


def staff_of(tournament: Tournament) -> QuerySet[TournamentRole]:
    return (
        TournamentRole.objects.filter(tournament=tournament).select_related("user").order_by("role", "user__username")
    )


@dataclass(frozen=True)
class Outcome:
    """What the tournament's public page says of its end: whether it is decided, and its champions
    (one per pool: a repesca without re-entry has two; none for the Swiss, whose classification
    says who won)."""

    decided: bool
    champions: tuple[Champion, ...] = ()


def tournament_outcome(tournament: Tournament) -> Outcome:
    """Decided as soon as the result that decides it counts: finished, or in play with every result
    in and its format decided (a champion in every pool, the Swiss's last round played). Its status
    turns «Terminado» when the staff next open Gestión or prepare a round
    (torneo.services.rounds.tournament_finish_if_done: not the results service, so that the mesa
    can still correct the final's acta); the public need not wait for that (issue 34). Computed
    once per change of the tournament (torneo.pagecache)."""
    finished = tournament.status == Tournament.Status.FINISHED
    if not finished and tournament.status != Tournament.Status.RUNNING:
        return Outcome(False)

    def build() -> Outcome:
        if not finished and Match.objects.filter(round__tournament=tournament, outcome=Match.Outcome.PENDING).exists():
            return Outcome(False)
        progress = tournament_progress(tournament)
        decided = finished or progress.done
        return Outcome(decided, progress.champions if decided else ())

    return pagecache.cached(f"torneo:desenlace:{tournament.pk}", pagecache.tournament_stamp(tournament), build)


def live_version(tournament: Tournament | pagecache.PublicState, *, pair: str | None = None) -> int | None:
    """What live.json answers: the tournament's live version, or with ``pair`` (a pair's number as
    typed in the URL) that pair's page's (torneo.services.live); None for a pair it does not have.
    A pair's own version is kept in the cache with the tournament's state (pagecache.pair_versions)."""
    if not pair:
        return tournament.live_version
    number = parse_int(pair, high=999_999)
    if number is None:
        return None
    own = pagecache.pair_versions(tournament.pk).get(number)
    return None if own is None else pair_page_version(tournament=tournament, pair_live_version=own)


def pair_page_version(*, tournament: Tournament | pagecache.PublicState, pair_live_version: int) -> int:
    """The version of a pair's page: the later of its own changes and everyone's (torneo.services.live)."""
    return max(pair_live_version, tournament.live_all_version)
