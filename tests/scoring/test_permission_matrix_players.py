"""The permission matrix of the players' view and recorded hands, walked for every writing page
and endpoint and every role: HANDS_RECORD (organizer, mesa de control, juez) for any match; a
player only for their own match, and never a hand a juez recorded. Reads are public. The table's
own actions from a pair's phone (issue 32): its clock's tantos (the staff who move clocks, and the
table's players) and calling the juez (the organizer and the jueces, and the table's players). A
pair's terminal (its private link) is one more role: the terminal of the player's pair may do
exactly what the player may; another pair's terminal, what anyone may."""

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from scoring.models import MatchClock, RecordedHand
from scoring.services.hands import hand_record
from tests.factories import make_pair
from tests.scoring.test_hands_services import S1, S2
from tests.scoring.test_hands_views import cards, form_data
from tests.torneo.matrix import Case, check_case
from tests.world import EVERYONE, ROLES, VIEWERS_PRIVATE, World
from torneo.models import Match, Round

pytestmark = pytest.mark.django_db


# The pairs' private links as two more roles (tests/conftest.py, ``terminal_role``).
MATRIX_ROLES = [*ROLES, "terminal", "other_terminal"]
EVERYONE = EVERYONE | {"terminal", "other_terminal"}
OWN_PAIR = {"player", "terminal"}  # the player's pair: its players and its terminal

HANDS_STAFF = {"juez", "control", "organizer", "superuser"}
OWN_MATCH = HANDS_STAFF | OWN_PAIR
CLOCKS_STAFF = {"juez", "control", "organizer", "superuser"}  # CLOCKS_MANAGE or RESULTS_ENTER: they tap tantos
JUECES = {"juez", "organizer", "superuser"}  # INCIDENTS_MANAGE: the mesa de control is not called


def matches(w: World) -> tuple[Match, Match]:
    """The player's own match (own_pair v other_pair) and another table, in a published round."""
    if not hasattr(w, "_matches"):
        r = Round.objects.create(
            tournament=w.tournament,
            number=1,
            kind=Round.Kind.DRAW,
            status=Round.Status.PUBLISHED,
            published_at=timezone.now(),
        )
        own = Match.objects.create(round=r, table_number=1, pair_a=w.own_pair, pair_b=w.other_pair)
        elsewhere = Match.objects.create(
            round=r, table_number=2, pair_a=make_pair(w.tournament), pair_b=make_pair(w.tournament)
        )
        w._matches = (own, elsewhere)  # type: ignore[attr-defined]
    return w._matches  # type: ignore[attr-defined]


def own(w: World) -> Match:
    return matches(w)[0]


def elsewhere(w: World) -> Match:
    return matches(w)[1]


def players_hand(w: World) -> RecordedHand:
    return hand_record(match=own(w), by=w.users["player"], record={"hands": S1}, mano="a").hand


def jueces_hand(w: World) -> RecordedHand:
    return hand_record(match=own(w), by=w.users["juez"], record={"hands": S1}, mano="a").hand


def page(match: Match, *parts: object) -> str:
    base = f"/torneos/{match.round.tournament.slug}/partidas/{match.pk}/manos/"
    return base + "".join(f"{p}/" for p in parts)


def api(match: Match, *parts: object) -> str:
    base = f"/api/v1/tournaments/{match.round.tournament.slug}/matches/{match.pk}/hands/"
    return base + "".join(f"{p}/" for p in parts)


def _hand_page(w: World, hand_of: Any, *suffix: str) -> str:
    hand = hand_of(w)
    return page(own(w), hand.pk, *suffix)


def _hand_api(w: World, hand_of: Any) -> str:
    hand = hand_of(w)
    return api(own(w), hand.pk)


def clocked(match: Match) -> Match:
    """The match with its clock running (the juez started it)."""
    MatchClock.objects.get_or_create(match=match, defaults={"started_at": match.round.published_at})
    return match


def clock_api(match: Match) -> str:
    return f"/api/v1/tournaments/{match.round.tournament.slug}/clocks/{clocked(match).pk}/tantos/"


def call_page(match: Match) -> str:
    return f"/torneos/{match.round.tournament.slug}/partida/{match.pk}/avisar-al-juez/"


def call_api(w: World) -> str:
    return f"/api/v1/tournaments/{w.tournament.slug}/incidents/"


CALL = {"pair": "B", "article": "5.10", "description": "Hablan durante el lance"}  # the own pair is A

FORM = lambda w: form_data(**cards(S1), mano="a")  # noqa: E731
RECORD = lambda w: {"mano": "a", "record": {"hands": S1}}  # noqa: E731

CASES = [
    Case("record a hand of my match", "post", lambda w: page(own(w)), OWN_MATCH, FORM),
    Case("record a hand of another match", "post", lambda w: page(elsewhere(w)), HANDS_STAFF, FORM),
    Case("correct a player's hand", "post", lambda w: _hand_page(w, players_hand), OWN_MATCH, FORM),
    Case("correct a juez's hand", "post", lambda w: _hand_page(w, jueces_hand), HANDS_STAFF, FORM),
    Case("delete a player's hand", "post", lambda w: _hand_page(w, players_hand, "borrar"), OWN_MATCH),
    Case("delete a juez's hand", "post", lambda w: _hand_page(w, jueces_hand, "borrar"), HANDS_STAFF),
    Case("staff index of tables", "get", lambda w: f"/torneos/{w.tournament.slug}/manos/", HANDS_STAFF),
    Case("API record, my match", "post", lambda w: api(own(w)), OWN_MATCH, RECORD, api=True),
    Case("API record, another match", "post", lambda w: api(elsewhere(w)), HANDS_STAFF, RECORD, api=True),
    Case(
        "API correct a player's hand",
        "put",
        lambda w: _hand_api(w, players_hand),
        OWN_MATCH,
        lambda w: {"record": {"hands": S2}},
        api=True,
    ),
    Case(
        "API correct a juez's hand",
        "put",
        lambda w: _hand_api(w, jueces_hand),
        HANDS_STAFF,
        lambda w: {"record": {"hands": S2}},
        api=True,
    ),
    Case("API delete a player's hand", "delete", lambda w: _hand_api(w, players_hand), OWN_MATCH, api=True),
    Case("API delete a juez's hand", "delete", lambda w: _hand_api(w, jueces_hand), HANDS_STAFF, api=True),
]

# The table's own actions from the pair's phone (issue 32).
TABLE = [
    Case(
        "tap my table's clock",
        "post",
        lambda w: clock_api(own(w)),
        CLOCKS_STAFF | OWN_PAIR,
        lambda w: {"a": 10, "b": 3},
        api=True,
    ),
    Case(
        "tap another table's clock",
        "post",
        lambda w: clock_api(elsewhere(w)),
        CLOCKS_STAFF,
        lambda w: {"a": 1, "b": 1},
        api=True,
    ),
    Case("call the juez to my table", "post", lambda w: call_page(own(w)), JUECES | OWN_PAIR, lambda w: CALL),
    Case("call the juez to another table", "post", lambda w: call_page(elsewhere(w)), JUECES, lambda w: CALL),
    Case(
        "API call the juez to my table",
        "post",
        call_api,
        JUECES | OWN_PAIR,
        lambda w: {**CALL, "match": own(w).pk},
        api=True,
    ),
    Case(
        "API call the juez to another table",
        "post",
        call_api,
        JUECES,
        lambda w: {**CALL, "match": elsewhere(w).pk},
        api=True,
    ),
    Case(
        "API my table's calls",
        "get",
        lambda w: f"{call_api(w)}table/?match={own(w).pk}",
        JUECES | OWN_PAIR,
        api=True,
    ),
    Case(
        "API another table's calls",
        "get",
        lambda w: f"{call_api(w)}table/?match={elsewhere(w).pk}",
        JUECES,
        api=True,
    ),
]

READS = [
    Case("find yourself", "get", lambda w: f"/torneos/{w.tournament.slug}/jugadores/?q=a", EVERYONE),
    Case("pair page", "get", lambda w: f"/torneos/{w.tournament.slug}/parejas/{w.own_pair.number}/ficha/", EVERYONE),
    Case("hands of a match", "get", lambda w: page(elsewhere(w)), EVERYONE),
    Case("a hand", "get", lambda w: _hand_page(w, jueces_hand), EVERYONE),
    Case("API hands of a match", "get", lambda w: api(own(w)), EVERYONE, api=True),
    Case(
        "API find yourself",
        "get",
        lambda w: f"/api/v1/tournaments/{w.tournament.slug}/players/?q=a",
        EVERYONE,
        api=True,
    ),
    Case(
        "API pair overview",
        "get",
        lambda w: f"/api/v1/tournaments/{w.tournament.slug}/pairs/{w.own_pair.number}/overview/",
        EVERYONE,
        api=True,
    ),
]


@pytest.mark.parametrize("role", MATRIX_ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_writes(world: World, terminal_role: Callable[[str], None], case: Case, role: str) -> None:
    terminal_role(role)
    before = RecordedHand.objects.count()
    check_case(world, case, role)
    if role not in case.allowed:
        # Refused writes leave the hands as they were (only the setup's own hand, if any).
        assert RecordedHand.objects.filter(deleted_at__isnull=False).count() == 0
        assert RecordedHand.objects.filter(version__gt=1).count() == 0
        assert RecordedHand.objects.count() <= before + 1


@pytest.mark.parametrize("role", MATRIX_ROLES)
@pytest.mark.parametrize("case", TABLE, ids=[c.name for c in TABLE])
def test_the_tables_own_actions(world: World, terminal_role: Callable[[str], None], case: Case, role: str) -> None:
    terminal_role(role)
    check_case(world, case, role)


@pytest.mark.parametrize("role", MATRIX_ROLES)
@pytest.mark.parametrize("case", READS, ids=[c.name for c in READS])
def test_reads(world: World, terminal_role: Callable[[str], None], case: Case, role: str) -> None:
    terminal_role(role)
    check_case(world, case, role)


def test_a_draft_tournaments_hands_are_hidden_from_everyone_but_its_staff(world: World) -> None:
    match = own(world)
    world.tournament.status = "draft"
    world.tournament.save()
    case = Case("hands of a draft", "get", lambda w: page(match), VIEWERS_PRIVATE)
    for role in ROLES:
        check_case(world, case, role)
