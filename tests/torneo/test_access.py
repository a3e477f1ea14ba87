"""torneo.permissions: the one home of "who may …" — the player role for a pair or a match, and
access_match, the entry every view and API endpoint that starts from a match id goes through."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Prefetch
from django.http import Http404

from tests.factories import UserFactory, grant
from tests.torneo.simulation import new_tournament
from torneo.models import Match, Pair, PairMember, Player
from torneo.permissions import Action, access_match, is_member_of, is_player_of
from torneo.services.rounds import draw_publish, live_draw, round_prepare

pytestmark = pytest.mark.django_db


@pytest.fixture
def published():
    """Five pairs, round 1 published (two matches and an exenta); a user plays in a match's pair A."""
    sim = new_tournament(5, seed=2)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    draw_publish(draw=live_draw(round_), public_value="4 4 2", witness=sim.juez, by=sim.organizer)
    match = round_.matches.filter(pair_b__isnull=False).first()
    bye = round_.matches.get(pair_b__isnull=True)
    player = UserFactory()
    Player.objects.filter(pk=match.pair_a.ordered_members()[0].player_id).update(user=player)
    control = grant(UserFactory(), sim.tournament, "control")
    return sim, match, bye, player, control


def test_a_player_reaches_their_own_match_only_when_players_are_let_in(published):
    sim, match, _bye, player, _control = published
    t = sim.tournament
    assert access_match(player, t, match.pk, action=Action.RESULTS_ENTER, players=True) == match
    with pytest.raises(PermissionDenied):
        access_match(player, t, match.pk, action=Action.RESULTS_ENTER)
    other = Match.objects.filter(round=match.round, pair_b__isnull=False).exclude(pk=match.pk).first()
    with pytest.raises(PermissionDenied):
        access_match(player, t, other.pk, action=Action.RESULTS_ENTER, players=True)


def test_staff_with_the_action_reach_any_match_and_the_public_reads_it(published):
    sim, match, _bye, _player, control = published
    assert access_match(control, sim.tournament, match.pk, action=Action.RESULTS_ENTER) == match
    assert access_match(AnonymousUser(), sim.tournament, match.pk) == match
    with pytest.raises(PermissionDenied):
        access_match(control, sim.tournament, match.pk, action=Action.RESULTS_OVERRIDE)  # organizer only


def test_a_match_of_another_tournament_an_exenta_or_junk_is_not_found(published):
    sim, match, bye, _player, control = published
    elsewhere = new_tournament(2, seed=1)
    for match_id in ("abc", "", 10**9, match.pk):
        with pytest.raises(Http404):
            access_match(control, elsewhere.tournament, match_id, action=Action.RESULTS_ENTER)
    assert access_match(control, sim.tournament, bye.pk) == bye
    with pytest.raises(Http404):
        access_match(control, sim.tournament, bye.pk, playable=True)


def test_access_match_locks_the_row_inside_the_callers_transaction(published):
    sim, match, _bye, _player, control = published
    with transaction.atomic():
        locked = access_match(control, sim.tournament, match.pk, action=Action.RESULTS_ENTER, lock=True)
        assert locked.pk == match.pk


def test_the_player_role_from_prefetched_members_costs_no_query(published, django_assert_num_queries):
    _sim, match, _bye, player, _control = published
    members = PairMember.objects.select_related("player")
    pair = Pair.objects.prefetch_related(Prefetch("members", queryset=members)).get(pk=match.pair_a_id)
    with django_assert_num_queries(0):
        assert is_member_of(player, pair) and not is_member_of(AnonymousUser(), pair)
    opponent = Pair.objects.get(pk=match.pair_b_id)
    with django_assert_num_queries(1):
        assert not is_member_of(player, opponent)
    assert is_player_of(player, match) and not is_player_of(UserFactory(), match)
