"""No self-confirmed results (security issue, item 2; AMM 3.16: the losing pair signs the acta).

The attack: with double check off (the default), a player posted three recorded hands with no
cards and a claimed score of 40–0 to /matches/<id>/hands/; the site wrote a result submitted and
confirmed by that player, and the mesa's own entry of the acta then got 409."""

import pytest
from rest_framework.test import APIClient

from scoring.models import ResultSubmission
from scoring.services.results import result_confirm, result_submit
from tests.factories import UserFactory
from tests.scoring.test_hands_services import _win_three_juegos, table
from torneo.errors import NotAllowed
from torneo.models import Match, Player

pytestmark = pytest.mark.django_db

CARDLESS_40_0 = {"hands": [], "claimed": {"score": {"A": 40, "B": 0}}}


def _hands_url(t):
    return f"/api/v1/tournaments/{t.tournament.slug}/matches/{t.match.pk}/hands/"


def _client(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_cardless_hands_posted_by_a_player_never_decide_a_juego_amm_3_4_c():
    t = table()
    client = _client(t.player_a)
    for _ in range(3):
        response = client.post(_hands_url(t), {"mano": "a", "record": CARDLESS_40_0}, format="json")
        assert response.status_code == 201, response.json()
    hand = response.json()["hand"]
    assert response.json()["game"]["winner"] is None and response.json()["result"] is None
    first = t.match.recorded_games.get(number=1).hands.get(number=1, is_current=True)
    assert "sin_cartas_decide" in [f["code"] for f in first.all_findings] and not first.counted
    assert hand["counted"] is False
    assert not ResultSubmission.objects.filter(match=t.match).exists()
    assert Match.objects.get(pk=t.match.pk).outcome == Match.Outcome.PENDING


def test_after_the_attack_the_mesa_enters_the_acta_without_a_conflict():
    t = table()
    for _ in range(3):
        _client(t.player_a).post(_hands_url(t), {"mano": "a", "record": CARDLESS_40_0}, format="json")
    base = f"/api/v1/tournaments/{t.tournament.slug}"
    body = {"match": t.match.pk, "games_a": 1, "games_b": 3, "version": 0}
    response = _client(t.control).post(f"{base}/results/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "confirmed"


def test_a_result_from_a_players_hands_is_only_proposed_without_double_check_amm_3_16():
    t = table()  # results_double_check off, the default
    last = _win_three_juegos(t, t.player_b)[-1]  # pair_b wins, by its own player's record
    sub = last.result.submission
    assert (sub.status, sub.submitted_by, sub.confirmed_by) == (ResultSubmission.Status.PROPOSED, t.player_b, None)
    assert Match.objects.get(pk=t.match.pk).outcome == Match.Outcome.PENDING
    assert "pareja perdedora" in last.result.message


def test_the_winning_side_never_confirms_its_own_proposal_amm_3_16():
    t = table()
    partner = UserFactory()
    Player.objects.filter(pk=t.match.pair_b.ordered_members()[1].player_id).update(user=partner)
    sub = _win_three_juegos(t, t.player_b)[-1].result.submission
    for same_side in (t.player_b, partner):
        with pytest.raises(NotAllowed):
            result_confirm(submission=sub, by=same_side)
    sub.refresh_from_db()
    assert sub.status == ResultSubmission.Status.PROPOSED
    confirmed = result_confirm(submission=sub, by=t.player_a)  # the losing pair signs
    assert (confirmed.status, confirmed.confirmed_by) == (ResultSubmission.Status.CONFIRMED, t.player_a)
    assert Match.objects.get(pk=t.match.pk).winner_id == t.match.pair_b_id


def test_a_loser_recording_its_own_defeat_waits_for_the_mesa():
    t = table()
    sub = _win_three_juegos(t, t.player_a)[-1].result.submission  # pair_a records pair_b's win
    with pytest.raises(NotAllowed):
        result_confirm(submission=sub, by=t.player_a)
    assert result_confirm(submission=sub, by=t.control).status == ResultSubmission.Status.CONFIRMED


def test_the_mesas_entry_settles_a_players_proposal_without_a_409():
    t = table()
    proposal = _win_three_juegos(t, t.player_b)[-1].result.submission
    entry = result_submit(match=t.match, by=t.control, games_a=3, games_b=1, expected_version=0)
    assert entry.status == ResultSubmission.Status.CONFIRMED
    proposal.refresh_from_db()
    assert proposal.status == ResultSubmission.Status.SUPERSEDED
    assert Match.objects.get(pk=t.match.pk).winner_id == t.match.pair_a_id


def test_with_double_check_the_mesas_entry_is_no_disagreement_with_a_players_proposal_amm_3_16():
    """A player's proposal from the recorded hands is not a second reading of the acta: the mesa's
    different entry replaces it (and awaits its own confirmation), no disagreement to resolve."""
    t = table(results_double_check=True)
    proposal = _win_three_juegos(t, t.player_b)[-1].result.submission
    entry = result_submit(match=t.match, by=t.control, games_a=3, games_b=1, expected_version=0)
    proposal.refresh_from_db()
    assert (entry.status, proposal.status) == (ResultSubmission.Status.PROPOSED, ResultSubmission.Status.SUPERSEDED)
    result_confirm(submission=entry, by=t.organizer)
    assert Match.objects.get(pk=t.match.pk).winner_id == t.match.pair_a_id


def test_hands_recorded_by_the_juez_still_decide_the_match():
    t = table()
    last = _win_three_juegos(t, t.juez)[-1]
    assert last.result.submission.status == ResultSubmission.Status.CONFIRMED
    cardless = _client(t.juez).post(_hands_url(t), {"mano": "a", "record": CARDLESS_40_0}, format="json")
    assert cardless.status_code == 400  # the match is decided: nothing more to record
