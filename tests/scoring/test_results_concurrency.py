"""Concurrent result entry on PostgreSQL (real transactions in threads): two people typing the same
table at once — one wins, the other gets a clear conflict and nothing is lost; simultaneous
confirmations; a confirmation racing a different second entry, and two decisions on the same
disagreement (double check, AMM 3.16); and a correction racing the next round's draw (AMM 3.18)."""

import time
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import ResultSubmission
from scoring.services import results
from scoring.services.results import disagreement, result_confirm, result_resolve, result_submit
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from tests.torneo.test_concurrency import run_together
from torneo.errors import Conflict, NotAllowed, TournamentError
from torneo.models import Match, Round, Tournament
from torneo.services import rounds
from torneo.services.rounds import draw_publish, live_draw, round_prepare

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def slow_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widen the race: every entry waits after reading the match's state, inside its transaction,
    as a busy server might. Without the row locks both writers would decide on stale data."""
    original = results.clean_result

    def slow(**kwargs: Any) -> dict[str, Any]:
        time.sleep(0.3)
        return original(**kwargs)

    monkeypatch.setattr(results, "clean_result", slow)


def mesa(t: Tournament, name: str) -> Any:
    return grant(UserFactory(username=name), t, "control")


def test_two_users_enter_the_same_table_at_once_one_wins_the_other_gets_a_conflict(
    on_postgres: None, slow_results: None
) -> None:
    sim = new_tournament(2, seed=1)
    (match,) = playing(publish_next_round(sim))
    ana, luis = mesa(sim.tournament, "ana"), mesa(sim.tournament, "luis")
    outcome = run_together(
        lambda: result_submit(match=match, by=ana, games_a=3, games_b=1, expected_version=0),
        lambda: result_submit(match=match, by=luis, games_a=1, games_b=3, expected_version=0),
    )
    winners = [r for r in outcome if isinstance(r, ResultSubmission)]
    conflicts = [r for r in outcome if isinstance(r, Conflict)]
    assert len(winners) == 1 and len(conflicts) == 1, outcome
    first = winners[0].submitted_by.username
    assert f"acaba de recibir otro resultado (versión 1, de {first})" in str(conflicts[0])
    match.refresh_from_db()
    assert match.result_version == 1 and ResultSubmission.objects.count() == 1
    # Nothing is lost: the other person, told of the conflict, enters theirs knowingly as version 2.
    other = luis if first == "ana" else ana
    result_submit(match=match, by=other, games_a=2, games_b=3, expected_version=1)
    assert list(ResultSubmission.objects.order_by("version").values_list("version", "status")) == [
        (1, "superseded"),
        (2, "confirmed"),
    ]


def test_the_same_race_through_the_api_gives_201_and_409(on_postgres: None, slow_results: None) -> None:
    sim = new_tournament(2, seed=2)
    (match,) = playing(publish_next_round(sim))
    url = f"/api/v1/tournaments/{sim.tournament.slug}/results/"
    clients = []
    for name in ("api-uno", "api-dos"):
        client = APIClient()
        client.force_authenticate(mesa(sim.tournament, name))
        clients.append(client)
    body = {"round": 1, "table": match.table_number, "games_b": 3, "version": 0}
    responses = run_together(
        lambda: clients[0].post(url, {**body, "games_a": 0}, format="json"),
        lambda: clients[1].post(url, {**body, "games_a": 2}, format="json"),
    )
    assert sorted(r.status_code for r in responses) == [201, 409], [getattr(r, "content", r) for r in responses]
    loser = next(r for r in responses if r.status_code == 409)
    assert loser.json()["code"] == "conflict"
    assert ResultSubmission.objects.count() == 1


def test_many_tables_entered_at_once_by_several_people_all_succeed(on_postgres: None) -> None:
    sim = new_tournament(16, seed=3)
    matches = playing(publish_next_round(sim))
    people = [mesa(sim.tournament, f"mesa{i}") for i in range(len(matches))]
    outcome = run_together(
        *[
            (lambda m=m, u=u: result_submit(match=m, by=u, games_a=3, games_b=2, expected_version=0))
            for m, u in zip(matches, people, strict=True)
        ]
    )
    assert all(isinstance(r, ResultSubmission) for r in outcome), outcome
    assert Match.objects.filter(round__tournament=sim.tournament, outcome="played").count() == len(matches)


def test_two_people_confirming_the_same_proposal_confirm_it_once_amm_3_16(on_postgres: None) -> None:
    sim = new_tournament(2, seed=4, results_double_check=True)
    (match,) = playing(publish_next_round(sim))
    sub = result_submit(match=match, by=mesa(sim.tournament, "propone"), games_a=3, games_b=0)
    a, b = mesa(sim.tournament, "confirma-a"), mesa(sim.tournament, "confirma-b")
    outcome = run_together(lambda: result_confirm(submission=sub, by=a), lambda: result_confirm(submission=sub, by=b))
    assert sum(isinstance(r, ResultSubmission) for r in outcome) == 1, outcome
    (error,) = [r for r in outcome if isinstance(r, TournamentError)]
    assert error.code == "not_proposed"
    sub.refresh_from_db()
    assert sub.status == "confirmed" and sub.confirmed_by in (a, b)


def test_a_confirmation_racing_a_different_second_entry_is_never_both_amm_3_16(
    on_postgres: None, slow_results: None
) -> None:
    """Either the confirmation lands first (the result stands and the other entry is a correction
    awaiting confirmation) or the different entry does (a disagreement, and the confirmation is
    refused): never a confirmed result and a disagreement over it at once."""
    for attempt in range(2):
        sim = new_tournament(2, seed=20 + attempt, results_double_check=True)
        (match,) = playing(publish_next_round(sim))
        t = sim.tournament
        sub = result_submit(match=match, by=mesa(t, f"propone{attempt}"), games_a=3, games_b=0)
        confirmer, other = mesa(t, f"confirma{attempt}"), mesa(t, f"discrepa{attempt}")
        jobs = [
            lambda s=sub, c=confirmer: result_confirm(submission=s, by=c),
            lambda m=match, o=other: result_submit(match=m, by=o, games_a=0, games_b=3, expected_version=1),
        ]
        outcome = run_together(*(jobs if attempt == 0 else reversed(jobs)))
        if attempt == 1:
            outcome.reverse()
        confirmed, entered = outcome
        assert isinstance(entered, ResultSubmission), outcome
        statuses = list(
            ResultSubmission.objects.filter(match=match).order_by("version").values_list("status", flat=True)
        )
        match.refresh_from_db()
        if isinstance(confirmed, ResultSubmission):
            assert statuses == ["confirmed", "proposed"] and match.winner_id == match.pair_a_id
        else:
            assert isinstance(confirmed, Conflict) and confirmed.code == "disagreement", outcome
            assert statuses == ["disputed", "disputed"] and match.outcome == Match.Outcome.PENDING


def test_two_decisions_on_the_same_disagreement_decide_it_once_amm_3_16(on_postgres: None) -> None:
    sim = new_tournament(2, seed=30, results_double_check=True)
    (match,) = playing(publish_next_round(sim))
    t = sim.tournament
    result_submit(match=match, by=mesa(t, "lee-3-1"), games_a=3, games_b=1)
    result_submit(match=match, by=mesa(t, "lee-1-3"), games_a=1, games_b=3, expected_version=1)
    first, second = disagreement(match)
    outcome = run_together(
        lambda: result_resolve(match=match, by=sim.juez, reason="acta firmada", choice=first),
        lambda: result_resolve(match=match, by=sim.organizer, reason="acta firmada", choice=second),
    )
    (decision,) = [r for r in outcome if isinstance(r, ResultSubmission)]
    (error,) = [r for r in outcome if isinstance(r, TournamentError)]
    assert error.code == "no_disagreement" and decision.version == 3
    assert list(ResultSubmission.objects.filter(match=match, status="confirmed")) == [decision]
    match.refresh_from_db()
    assert (match.games_a, match.games_b, match.result_version) == (decision.games_a, decision.games_b, 3)


def test_a_correction_racing_the_next_draw_never_slips_in_after_it_amm_3_18(
    on_postgres: None, slow_results: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Either the draw is published first and the correction is refused (the result is final), or
    the correction lands first and the draw refuses its stale commitment — never both."""
    original = rounds.perform

    def slow_perform(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return original(*args, **kwargs)

    monkeypatch.setattr(rounds, "perform", slow_perform)
    for attempt in range(2):
        sim = new_tournament(4, seed=10 + attempt, format=Tournament.Format.CEROS, max_losses=1)
        control = mesa(sim.tournament, f"corrige{attempt}")
        matches = playing(publish_next_round(sim))
        for m in matches:
            result_submit(match=m, by=control, games_a=3, games_b=1)
        second = round_prepare(tournament=sim.tournament, by=sim.organizer)
        draw = live_draw(second)
        jobs = [
            lambda d=draw, s=sim: draw_publish(draw=d, public_value="5 5", witness=s.juez, by=s.organizer),
            lambda m=matches[0], c=control: result_submit(match=m, by=c, games_a=1, games_b=3, expected_version=1),
        ]
        outcome = run_together(*(jobs if attempt == 0 else reversed(jobs)))
        if attempt == 1:
            outcome.reverse()
        published, corrected = outcome
        if isinstance(published, Round):
            assert isinstance(corrected, NotAllowed) and "AMM 3.18" in str(corrected)
            assert matches[0].submissions.count() == 1
        else:
            assert isinstance(published, TournamentError) and "han cambiado" in str(published), outcome
            assert isinstance(corrected, ResultSubmission)
            second.refresh_from_db()
            assert not second.is_published
