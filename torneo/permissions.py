"""Who may do what in a tournament: one table of actions and roles, enforced on the server.

Roles are per tournament (TournamentRole): organizer, mesa de control, juez. The player role is
implicit (a user linked to a player of a pair in the tournament) and only ever concerns that
player's own pair. Everyone else is the public: read-only pages of non-draft tournaments.
Superusers hold every role everywhere.
"""

from enum import StrEnum
from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser

from torneo.models import Pair, PairMember, Tournament, TournamentRole

if TYPE_CHECKING:
    from django.contrib.auth.models import User

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


def roles_for(user: "User | AnonymousUser", tournament: Tournament) -> frozenset[str]:
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


def can(user: "User | AnonymousUser", tournament: Tournament, action: Action) -> bool:
    return bool(roles_for(user, tournament) & MATRIX[action])


def can_view(user: "User | AnonymousUser", tournament: Tournament) -> bool:
    """Public pages: any non-draft tournament (listed or not); drafts only for its staff."""
    return tournament.is_visible_to_public or can(user, tournament, Action.VIEW_PRIVATE)


def can_create_tournament(user: "User | AnonymousUser") -> bool:
    return user.is_authenticated and user.has_perm("torneo.add_tournament")


def is_member_of(user: "User | AnonymousUser", pair: Pair) -> bool:
    """The player role: the user is one of the pair's players."""
    if not user.is_authenticated:
        return False
    return PairMember.objects.filter(pair=pair, player__user=user).exists()


def can_withdraw(user: "User | AnonymousUser", pair: Pair) -> bool:
    """Staff may withdraw any pair; a player only their own, and only before play starts."""
    if can(user, pair.tournament, Action.PAIRS_MANAGE):
        return True
    started = pair.tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    return not started and is_member_of(user, pair)


def anonymous() -> AnonymousUser:
    return AnonymousUser()
