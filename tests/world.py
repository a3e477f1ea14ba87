"""The shared world of the permission and results tests: one tournament with a user in every role
(anonymous, outsider, a player of a pair, juez, mesa de control, organizer, another tournament's
organizer, superuser). The ``world`` fixture (tests/conftest.py) builds it; tests import the role
sets from here."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import Permission

from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.models import Pair, Player, Session, TournamentRole

ROLES = ["anonymous", "outsider", "player", "juez", "control", "organizer", "other_organizer", "superuser"]
STAFF_PAIRS = {"control", "organizer", "superuser"}
ORGANIZER = {"organizer", "superuser"}
CREATORS = {"organizer", "other_organizer", "superuser"}
EVERYONE = set(ROLES)
VIEWERS_PRIVATE = {"juez", "control", "organizer", "superuser"}


@dataclass
class World:
    tournament: Any
    users: dict[str, Any]
    own_pair: Pair
    other_pair: Pair
    session: Session
    juez_role: TournamentRole


def build_world() -> World:
    """A tournament with a user in every role (and another tournament with its organizer)."""
    t = TournamentFactory()
    other = TournamentFactory()
    creator = Permission.objects.get(codename="add_tournament")
    users = {name: UserFactory(username=name) for name in ROLES if name != "anonymous"}
    users["superuser"].is_superuser = True
    users["superuser"].save()
    for name in ("organizer", "other_organizer"):
        users[name].user_permissions.add(creator)
    grant(users["juez"], t, "juez")
    grant(users["control"], t, "control")
    grant(users["organizer"], t, "organizer")
    grant(users["other_organizer"], other, "organizer")
    own = make_pair(t, players=[player_data(1), player_data(2)])
    Player.objects.filter(pk=own.ordered_members()[0].player_id).update(user=users["player"])
    other_pair = make_pair(t, players=[player_data(3), player_data(4)])
    session = Session.objects.create(
        tournament=t, name="J1", starts_at=datetime(2026, 12, 12, 10, tzinfo=ZoneInfo("Europe/Madrid"))
    )
    juez_role = TournamentRole.objects.get(tournament=t, user=users["juez"])
    return World(t, users, own, other_pair, session, juez_role)
