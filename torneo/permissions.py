"""Who may do what in a tournament: one table of actions and roles, enforced on the server.

Roles are per tournament (TournamentRole): organizer, mesa de control, juez. The player role is
implicit (a user linked to a player of a pair in the tournament) and only ever concerns that
player's own pair. Everyone else is the public: read-only pages of non-draft tournaments.
Superusers hold every role everywhere.

Every "who may …" question has its home here (Zulip's pattern): ``can`` answers for a role and an
action; ``is_member_of`` / ``is_player_of`` for the player role; ``access_match`` fetches a match
of a tournament and checks the user may act on it, for every view and API endpoint that starts
from a match id. The services then check the state (a locked round, a stale version) and write.
"""

from collections.abc import Iterable
from enum import StrEnum

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404

from torneo.models import Match, Pair, PairMember, Tournament, TournamentRole
from torneo.typing import User

Role = TournamentRole.Role


class Action(StrEnum):
    TOURNAMENT_EDIT = "tournament.edit"
    ROLES_MANAGE = "roles.manage"
    VIEW_PRIVATE = "tournament.view_private"  # draft tournaments, players' contact data
    PAIRS_MANAGE = "pairs.manage"  # register, edit, withdraw any pair; CSV import/export
    CHECK_IN = "pairs.check_in"
    DRAWS_MANAGE = "draws.manage"
    DRAWS_REDRAW = "draws.redraw"
    RESULTS_ENTER = "results.enter"
    RESULTS_OVERRIDE = "results.override"  # change a locked round's results (AMM 3.18)
    CLOCKS_MANAGE = "clocks.manage"
    INCIDENTS_MANAGE = "incidents.manage"
    HANDS_RECORD = "hands.record"  # recorded hands of any match (the players of a match: their own)
    PERSONAL_DATA_ERASE = "personal_data.erase"  # a player's document, phone and e-mail, on request (RGPD)


_O, _C, _J = Role.ORGANIZER, Role.CONTROL, Role.JUEZ

# The matrix. Organizer: everything for their tournament; mesa de control: registrations,
# check-in, draws, results; juez: clocks, incidents, rulings.
MATRIX: dict[Action, frozenset[str]] = {
    Action.TOURNAMENT_EDIT: frozenset({_O}),
    Action.ROLES_MANAGE: frozenset({_O}),
    Action.VIEW_PRIVATE: frozenset({_O, _C, _J}),
    Action.PAIRS_MANAGE: frozenset({_O, _C}),
    Action.CHECK_IN: frozenset({_O, _C}),
    Action.DRAWS_MANAGE: frozenset({_O, _C}),
    Action.DRAWS_REDRAW: frozenset({_O}),
    Action.RESULTS_ENTER: frozenset({_O, _C}),
    Action.RESULTS_OVERRIDE: frozenset({_O}),
    Action.CLOCKS_MANAGE: frozenset({_O, _J}),
    Action.INCIDENTS_MANAGE: frozenset({_O, _J}),
    Action.HANDS_RECORD: frozenset({_O, _C, _J}),
    Action.PERSONAL_DATA_ERASE: frozenset({_O}),
}


def roles_for(user: User, tournament: Tournament) -> frozenset[str]:
    """The staff roles the user holds in this tournament (cached on the user object per request)."""
    if not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return frozenset(Role.values)
    cache: dict[int, frozenset[str]] = user.__dict__.setdefault("_tournament_roles_cache", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = frozenset(
            TournamentRole.objects.filter(tournament=tournament, user=user).values_list("role", flat=True)
        )
    return cache[tournament.pk]


def can(user: User, tournament: Tournament, action: Action) -> bool:
    return bool(roles_for(user, tournament) & MATRIX[action])


def can_view(user: User, tournament: Tournament) -> bool:
    """Public pages: any non-draft tournament (listed or not); drafts only for its staff."""
    return tournament.is_visible_to_public or can(user, tournament, Action.VIEW_PRIVATE)


def can_create_tournament(user: User) -> bool:
    return user.is_authenticated and user.has_perm("torneo.add_tournament")


def member_pairs(user: User, pair_ids: Iterable[int | None]) -> set[int]:
    """The pairs among ``pair_ids`` in which the user is a player: one query."""
    ids = [p for p in pair_ids if p is not None]
    if not user.is_authenticated or not ids:
        return set()
    return set(PairMember.objects.filter(pair_id__in=ids, player__user=user).values_list("pair_id", flat=True))


def is_member_of(user: User, pair: Pair) -> bool:
    """The player role: the user is one of the pair's players. No query when the caller prefetched
    the pair's members with their players (the pair pages do)."""
    if not user.is_authenticated:
        return False
    prefetched = getattr(pair, "_prefetched_objects_cache", {}).get("members")
    if prefetched is not None:
        return any(m.player.user_id == user.pk for m in prefetched)
    return bool(member_pairs(user, [pair.pk]))


def is_player_of(user: User, match: Match) -> bool:
    """The player role, for a match: the user plays in one of its two pairs (an exenta has none)."""
    if match.pair_b_id is None:
        return False
    return bool(member_pairs(user, [match.pair_a_id, match.pair_b_id]))


def access_match(
    user: User,
    tournament: Tournament,
    match_id: object,
    *,
    action: Action | None = None,
    players: bool = False,
    playable: bool = False,
    queryset: "QuerySet[Match] | None" = None,
    lock: bool = False,
) -> Match:
    """The match ``match_id`` of ``tournament``, if the user may reach it; else Http404 or
    PermissionDenied (both understood by the pages and the API).

    ``action``: the staff action needed (None: a public read of a public tournament's match);
    ``players``: a player of the match may too (their own match only); ``playable``: only a match
    that is played — published and not an exenta — exists for this purpose; ``queryset``: the
    caller's prefetches; ``lock``: lock the row for the caller's transaction."""
    try:
        pk = int(str(match_id))
    except ValueError:
        raise Http404 from None
    qs = queryset if queryset is not None else Match.objects.select_related("round__tournament", "pair_a", "pair_b")
    qs = qs.filter(pk=pk, round__tournament=tournament)
    if lock:
        qs = qs.select_for_update(of=("self",))
    match = qs.first()
    if match is None or (playable and (match.is_bye or not match.round.is_published)):
        raise Http404
    if action is not None and not can(user, tournament, action) and not (players and is_player_of(user, match)):
        raise PermissionDenied
    return match


def can_withdraw(user: User, pair: Pair) -> bool:
    """Staff may withdraw any pair; a player only their own, and only before play starts."""
    if can(user, pair.tournament, Action.PAIRS_MANAGE):
        return True
    started = pair.tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    return not started and is_member_of(user, pair)


def anonymous() -> AnonymousUser:
    return AnonymousUser()
