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
from django.db.models import CharField, IntegerField, QuerySet, Value
from django.http import Http404
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from torneo.models import Match, Pair, PairMember, PairTerminal, Tournament, TournamentRole
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
    RESULTS_RESOLVE = "results.resolve"  # decide between two actas that disagree (double check, AMM 3.16)
    CLOCKS_MANAGE = "clocks.manage"
    INCIDENTS_MANAGE = "incidents.manage"
    HANDS_RECORD = "hands.record"  # recorded hands of any match (the players of a match: their own)
    HANDS_RULE = "hands.rule"  # the juez's rulings on recorded hands (AMM chapter IV)
    PERSONAL_DATA_ERASE = "personal_data.erase"  # a player's document, phone and e-mail, on request (RGPD)
    AUDIT_VIEW = "audit.view"  # the log of every change: who, when, before -> after (torneo/selectors/audit.py)


_O, _C, _J = Role.ORGANIZER, Role.CONTROL, Role.JUEZ

# The matrix. Organizer: everything for their tournament; mesa de control: registrations,
# check-in, draws, results; juez: clocks, incidents, rulings (and the disagreements between two actas).
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
    Action.RESULTS_RESOLVE: frozenset({_O, _J}),
    Action.CLOCKS_MANAGE: frozenset({_O, _J}),
    Action.INCIDENTS_MANAGE: frozenset({_O, _J}),
    Action.HANDS_RECORD: frozenset({_O, _C, _J}),
    Action.HANDS_RULE: frozenset({_O, _J}),
    Action.PERSONAL_DATA_ERASE: frozenset({_O}),
    Action.AUDIT_VIEW: frozenset({_O}),
}


# The implicit player role (``is_member_of``), by the name the pages give it; not a TournamentRole.
PLAYER = "player"

# The roles as the pages name them, in Spanish and in the matrix's order (the model's choices name
# the functions for the admin and the forms).
ROLE_LABELS: dict[str, Promise] = {
    Role.ORGANIZER: _("organizador"),
    Role.CONTROL: _("mesa de control"),
    Role.JUEZ: _("juez"),
    PLAYER: _("jugador"),
}

# The tournament's pages its menus offer (URL names) and the actions its view requires, any one of
# them (``tournament_for(request, slug, action)``; none: a public page, for whoever may see the
# tournament). A menu offers a page iff ``may_open``: never one that answers 403, and every page the
# role may use (tests/torneo/test_menus.py holds this table to the views).
PAGE_ACTIONS: dict[str, tuple[Action, ...]] = {
    "torneo:tournament_detail": (),
    "torneo:tournament_pairs": (),
    "torneo:rounds_list": (),
    "scoring:results": (),
    "scoring:standings": (),
    "scoring:bracket": (),
    "scoring:find_player": (),
    "scoring:pair_page": (),
    "scoring:clock_wall": (),
    "torneo:manage_dashboard": (Action.VIEW_PRIVATE,),
    "torneo:manage_pairs": (Action.CHECK_IN,),
    "torneo:manage_edit": (Action.TOURNAMENT_EDIT,),
    "torneo:manage_sessions": (Action.TOURNAMENT_EDIT,),
    "torneo:manage_roles": (Action.ROLES_MANAGE,),
    "torneo:manage_rounds": (Action.DRAWS_MANAGE,),
    "scoring:results_entry": (Action.RESULTS_ENTER,),
    "scoring:results_queue": (Action.RESULTS_ENTER, Action.RESULTS_RESOLVE),
    "scoring:hands_index": (Action.HANDS_RECORD,),
    "scoring:clocks_manage": (Action.CLOCKS_MANAGE,),
    "referees:juez_desk": (Action.INCIDENTS_MANAGE,),
    "referees:incident_log": (Action.VIEW_PRIVATE,),
    "scoring:printables": (Action.VIEW_PRIVATE,),
    "torneo:manage_audit": (Action.AUDIT_VIEW,),
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


def may_open(user: User, tournament: Tournament, page: str) -> bool:
    """Whether the page (a URL name of ``PAGE_ACTIONS``) answers this user, rather than 403/404."""
    actions = PAGE_ACTIONS[page]
    return can_view(user, tournament) and (not actions or any(can(user, tournament, a) for a in actions))


def own_pair_numbers(user: User, tournament: Tournament) -> list[int]:
    """The numbers of the tournament's pairs in which the user is a player (the player role: a
    player's account, or the pair's terminal, torneo/models/terminals.py), cached on the user object
    per request like ``roles_for``. One query, which also brings the user's staff roles when
    ``roles_for`` has not asked yet (a union: the menus ask for both on every page)."""
    if not user.is_authenticated:
        return []
    pairs_cache: dict[int, list[int]] = user.__dict__.setdefault("_own_pairs_cache", {})
    if tournament.pk not in pairs_cache:
        roles_cache: dict[int, frozenset[str]] = user.__dict__.setdefault("_tournament_roles_cache", {})
        members = PairMember.objects.filter(tournament=tournament, player__user=user)
        terminal = PairTerminal.objects.filter(pair__tournament=tournament, user=user)
        if user.is_superuser or tournament.pk in roles_cache:
            numbers = list(
                members.order_by()
                .values_list("pair__number", flat=True)
                .union(terminal.order_by().values_list("pair__number", flat=True))
            )
        else:
            staff = TournamentRole.objects.filter(tournament=tournament, user=user).order_by()
            rows = staff.values_list("role", Value(0, output_field=IntegerField())).union(
                members.order_by().values_list(Value(PLAYER, output_field=CharField()), "pair__number"),
                terminal.order_by().values_list(Value(PLAYER, output_field=CharField()), "pair__number"),
            )
            ties = list(rows)
            roles_cache[tournament.pk] = frozenset(role for role, _n in ties if role != PLAYER)
            numbers = [number for role, number in ties if role == PLAYER]
        pairs_cache[tournament.pk] = sorted(set(numbers))
    return pairs_cache[tournament.pk]


def role_label(role: str) -> str:
    """A role's value ("control") as the pages name it ("mesa de control")."""
    return str(ROLE_LABELS.get(role, role))


def role_labels(user: User, tournament: Tournament) -> list[str]:
    """The user's roles in this tournament, named as the pages name them (the player role too)."""
    held = roles_for(user, tournament) | ({PLAYER} if own_pair_numbers(user, tournament) else set())
    return [str(label) for role, label in ROLE_LABELS.items() if role in held]


def can_create_tournament(user: User) -> bool:
    return user.is_authenticated and user.has_perm("torneo.add_tournament")


def member_pairs(user: User, pair_ids: Iterable[int | None]) -> set[int]:
    """The pairs among ``pair_ids`` in which the user is a player (or which the user's pair terminal
    is): one query."""
    return member_pairs_of_user_id(user.pk if user.is_authenticated else None, pair_ids)


def member_pairs_of_user_id(user_id: int | None, pair_ids: Iterable[int | None]) -> set[int]:
    """`member_pairs` of an account known by its id (a result's submitter): not read to ask."""
    ids = [p for p in pair_ids if p is not None]
    if user_id is None or not ids:
        return set()
    members = PairMember.objects.filter(pair_id__in=ids, player__user_id=user_id).order_by().values_list("pair_id")
    terminal = PairTerminal.objects.filter(pair_id__in=ids, user_id=user_id).order_by().values_list("pair_id")
    return {pk for (pk,) in members.union(terminal)}


def is_member_of(user: User, pair: Pair) -> bool:
    """The player role: the user is one of the pair's players. No query when the caller prefetched
    the pair's members with their players (the pair pages do)."""
    if not user.is_authenticated:
        return False
    prefetched = getattr(pair, "_prefetched_objects_cache", {}).get("members")
    if prefetched is not None and any(m.player.user_id == user.pk for m in prefetched):
        return True
    if prefetched is not None:
        return pair.pk in _terminal_pairs(user)
    return bool(member_pairs(user, [pair.pk]))


def _terminal_pairs(user: User) -> frozenset[int]:
    """The pairs whose terminal the account is (one query per request, cached on the user): a
    pair's phone reading its own page asks no more."""
    if "_pair_terminals" not in user.__dict__:
        found = PairTerminal.objects.filter(user_id=user.pk or 0).values_list("pair_id", flat=True)
        user.__dict__["_pair_terminals"] = frozenset(found)
    return frozenset(user.__dict__["_pair_terminals"])


def _is_terminal(user: User) -> bool:
    """Whether the account is a pair's terminal (`_terminal_pairs`)."""
    return bool(_terminal_pairs(user))


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
    """Staff may withdraw any pair; a player only their own, and only before play starts — with
    their own account, never through the pair's card (a card left on a table is in anyone's hands,
    and a withdrawal is not undone from a phone)."""
    if can(user, pair.tournament, Action.PAIRS_MANAGE):
        return True
    started = pair.tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    return not started and is_member_of(user, pair) and not _is_terminal(user)


def anonymous() -> AnonymousUser:
    return AnonymousUser()
