"""Incidents and sanctions through the services (AMM 5.3, 5.3.a, 5.4, 5.4.a, 5.10, 3.16.b, 6.3):
who may report, the ladder the juez is offered, and what each step does to the results."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from referees.models import Incident, Sanction
from referees.services.incidents import incident_dismiss, incident_report
from referees.services.sanctions import ladder_proposal, sanction_give, sanction_undo
from scoring.models import ClockJuego, DelayWarning, MatchClock
from scoring.selectors.clocks import match_clock
from scoring.services import clocks as clock_svc
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.errors import NotAllowed, TournamentError
from torneo.models import Match, Pair, Player, Tournament

pytestmark = pytest.mark.django_db

STEP = Sanction.Step


@pytest.fixture
def room():
    """A 6-pair tournament, round 1 published with its clocks running, a juez and a mesa."""
    sim = new_tournament(6, seed=41, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-sala"), sim.tournament, "juez")
    clock_svc.clocks_start_round(round=round_, by=juez, at=datetime.datetime.now(datetime.UTC))
    return sim, round_, juez, playing(round_)


def player_of(pair: Pair):
    user = UserFactory()
    Player.objects.filter(pk=pair.ordered_members()[0].player_id).update(user=user)
    return user


def test_a_player_reports_an_infraction_of_their_own_partida_only_amm_5_3(room):
    sim, _round, _juez, matches = room
    match, other = matches[0], matches[1]
    reporter = player_of(match.pair_a)
    incident = incident_report(
        tournament=sim.tournament, by=reporter, match=match, pair=match.pair_b, article="3.20.c", description="Se mete"
    )
    assert (incident.source, incident.status, incident.article) == ("player", "open", "3.20.c")
    assert incident.minute is not None  # the partida's clock runs: its minute
    with pytest.raises(NotAllowed):
        incident_report(tournament=sim.tournament, by=reporter, match=other, pair=other.pair_a, article="3.20.c")
    with pytest.raises(NotAllowed):
        incident_report(tournament=sim.tournament, by=UserFactory(), match=match, article="3.20.c")


def test_a_juez_acts_on_their_own_amm_5_3_a(room):
    sim, _round, juez, matches = room
    incident = incident_report(
        tournament=sim.tournament, by=juez, match=matches[0], pair=matches[0].pair_a, article="5.10"
    )
    assert incident.source == "juez"


def test_a_player_cannot_bury_the_jueces_in_reports(room):
    sim, _round, _juez, matches = room
    match = matches[0]
    reporter = player_of(match.pair_a)
    for _ in range(3):
        incident_report(tournament=sim.tournament, by=reporter, match=match, pair=match.pair_b, article="6.3")
    with pytest.raises(TournamentError):
        incident_report(tournament=sim.tournament, by=reporter, match=match, pair=match.pair_b, article="6.3")


def test_bad_input_names_the_field(room):
    sim, _round, juez, matches = room
    with pytest.raises(ValidationError) as bad:
        incident_report(tournament=sim.tournament, by=juez, match=matches[0], article="99.9")
    assert "article" in bad.value.message_dict
    with pytest.raises(ValidationError) as bad:
        incident_report(tournament=sim.tournament, by=juez, match=matches[0], pair=matches[1].pair_a, article="6.3")
    assert "pair" in bad.value.message_dict
    with pytest.raises(ValidationError) as bad:
        incident_report(tournament=sim.tournament, by=juez, match=matches[0], article="6.3", description="x" * 2001)
    assert "description" in bad.value.message_dict


def test_the_ladder_warns_then_takes_a_juego_on_the_clock_amm_5_4(room):
    _sim, _round, juez, matches = room
    match = matches[0]
    first = ladder_proposal(pair=match.pair_a, match=match, article="3.20.c")
    assert first is not None and first.step == STEP.APERCIBIMIENTO
    warned = sanction_give(by=juez, pair=match.pair_a, match=match, article="3.20.c", step=STEP.APERCIBIMIENTO)
    assert (warned.number, warned.version, warned.status, warned.proposed) == (1, 1, "in_force", 1)
    second = ladder_proposal(pair=match.pair_a, match=match, article="5.10")
    assert second is not None and second.step == STEP.JUEGO
    lost = sanction_give(by=juez, pair=match.pair_a, match=match, article="5.10", step=STEP.JUEGO)
    assert lost.juego is not None and lost.juego.winner == "B"
    state = match_clock(match, datetime.datetime.now(datetime.UTC)).state
    assert state is not None and state.score == {"A": 0, "B": 1}
    third = ladder_proposal(pair=match.pair_a, match=match, article="3.20.c")
    assert third is not None and [int(s) for s in third.options] == [STEP.PARTIDA, STEP.EXPULSION]


def test_skipping_a_step_needs_a_reason_amm_5_4_a(room):
    _sim, _round, juez, matches = room
    match = matches[0]
    with pytest.raises(ValidationError) as refused:
        sanction_give(by=juez, pair=match.pair_a, match=match, article="5.10", step=STEP.PARTIDA)
    assert "5.4.a" in refused.value.message_dict["reason"][0]
    assert not Sanction.objects.exists()
    sanction_give(by=juez, pair=match.pair_a, match=match, article="5.10", step=STEP.PARTIDA, reason="Insulta al juez")
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.games_a, match.games_b) == ("ruling", match.pair_b_id, 0, 3)


def test_the_loss_of_the_partida_counts_at_once_even_with_the_double_check_amm_5_4(room):
    sim, _round, juez, matches = room
    sim.tournament.results_double_check = True
    sim.tournament.save(update_fields=["results_double_check"])
    match = matches[1]
    clock_svc.clock_juego(match=match, by=juez, winner="B")
    sanction_give(by=juez, pair=match.pair_b, match=match, article="5.10", step=STEP.PARTIDA, reason="Desacato")
    match.refresh_from_db()
    # The sanctioned pair keeps the juego it had won (AMM 5.4.3: the partida, not its juegos).
    assert (match.outcome, match.winner_id, match.games_a, match.games_b) == ("ruling", match.pair_a_id, 3, 1)


def test_the_expulsion_removes_the_pair_and_its_drawn_opponents_win_amm_5_10(room):
    _sim, _round, juez, matches = room
    match = matches[2]
    expelled = match.pair_a
    sanction_give(
        by=juez, pair=expelled, match=match, article="5.10", step=STEP.EXPULSION, reason="Agresión a un rival"
    )
    expelled.refresh_from_db()
    match.refresh_from_db()
    assert expelled.status == Pair.Status.EXPELLED
    assert (match.outcome, match.winner_id) == ("ruling", match.pair_b_id)
    with pytest.raises(TournamentError):
        sanction_give(by=juez, pair=expelled, match=match, article="5.10", step=STEP.APERCIBIMIENTO)


def test_an_agreed_or_manipulated_result_proposes_the_expulsion_at_once_amm_3_16_b(room):
    _sim, _round, _juez, matches = room
    match = matches[0]
    proposal = ladder_proposal(pair=match.pair_a, match=match, article="3.16.b")
    assert proposal is not None and proposal.options == (STEP.EXPULSION,)


def test_a_delay_writes_the_clocks_warning_that_decides_the_forced_end_amm_6_3(room):
    _sim, _round, juez, matches = room
    match = matches[0]
    sanction = sanction_give(by=juez, pair=match.pair_b, match=match, article="6.3", step=STEP.APERCIBIMIENTO)
    assert sanction.delay and sanction.warning is not None
    assert DelayWarning.objects.get(pk=sanction.warning_id).side == "B"


def test_undoing_a_sanction_is_a_new_version_that_takes_back_its_juego_and_warning(room):
    _sim, _round, juez, matches = room
    match = matches[0]
    sanction_give(by=juez, pair=match.pair_a, match=match, article="6.3", step=STEP.APERCIBIMIENTO)
    lost = sanction_give(by=juez, pair=match.pair_a, match=match, article="6.3", step=STEP.JUEGO)
    assert ClockJuego.objects.filter(clock__match=match).count() == 1
    with pytest.raises(ValidationError):
        sanction_undo(sanction=lost, by=juez, reason="")
    undone = sanction_undo(sanction=lost, by=juez, reason="El retraso era de la otra pareja")
    assert (undone.number, undone.version, undone.status) == (lost.number, 2, "undone")
    assert Sanction.objects.get(pk=lost.pk).status == "superseded"
    assert ClockJuego.objects.filter(clock__match=match).count() == 0
    assert DelayWarning.objects.filter(clock__match=match).count() == 1  # the first warning stays
    proposal = ladder_proposal(pair=match.pair_a, match=match, article="6.3")
    assert proposal is not None and proposal.step == STEP.JUEGO  # the apercibimiento is still in force
    with pytest.raises(TournamentError):
        sanction_undo(sanction=lost, by=juez, reason="otra vez")


def test_undoing_an_expulsion_lets_the_pair_be_drawn_again(room):
    _sim, _round, juez, matches = room
    pair = matches[0].pair_a
    expulsion = sanction_give(by=juez, pair=pair, article="5.10", step=STEP.EXPULSION, reason="Embriaguez")
    sanction_undo(sanction=expulsion, by=juez, reason="Era otra persona")
    pair.refresh_from_db()
    assert pair.status == Pair.Status.CONFIRMED


def test_only_the_jueces_and_the_organizer_sanction_and_close(room):
    sim, _round, juez, matches = room
    match = matches[0]
    mesa = grant(UserFactory(), sim.tournament, "control")
    for user in (mesa, player_of(match.pair_b), UserFactory()):
        with pytest.raises(NotAllowed):
            sanction_give(by=user, pair=match.pair_a, match=match, article="6.3", step=STEP.APERCIBIMIENTO)
    incident = incident_report(tournament=sim.tournament, by=juez, match=match, pair=match.pair_a, article="6.3")
    with pytest.raises(NotAllowed):
        incident_dismiss(incident=incident, by=mesa, resolution="nada")
    closed = incident_dismiss(incident=incident, by=sim.organizer, resolution="No se aprecia retraso")
    assert closed.status == Incident.Status.DISMISSED


def test_a_sanction_on_an_incident_closes_it(room):
    sim, _round, juez, matches = room
    match = matches[0]
    incident = incident_report(tournament=sim.tournament, by=juez, match=match, pair=match.pair_a, article="3.20.c")
    sanction_give(by=juez, pair=match.pair_a, incident=incident, article="3.20.c", step=STEP.APERCIBIMIENTO)
    incident.refresh_from_db()
    assert incident.status == Incident.Status.SANCTIONED
    assert MatchClock.objects.get(match=match).finished_at is None
    assert Match.objects.get(pk=match.pk).outcome == "pending"


def test_an_expelled_pairs_drawn_opponent_wins_by_walkover_and_it_is_never_drawn_again_amm_5_10(room):
    sim, _round, juez, matches = room
    for match in matches:
        sim.enter_result(match)
    round2 = publish_next_round(sim)
    drawn = next(m for m in playing(round2))
    expelled = drawn.pair_a
    sanction_give(by=juez, pair=expelled, article="5.10", step=STEP.EXPULSION, reason="Insultos reiterados")
    drawn.refresh_from_db()
    assert (drawn.outcome, drawn.winner_id) == ("walkover", drawn.pair_b_id)
    for m in playing(round2):
        if Match.objects.get(pk=m.pk).outcome == "pending":
            sim.enter_result(m)
    round3 = publish_next_round(sim)
    assert expelled.pk not in {p for m in round3.matches.all() for p in (m.pair_a_id, m.pair_b_id)}


def test_a_delay_warning_from_the_clocks_desk_counts_on_the_ladder_amm_6_3(room):
    _sim, _round, juez, matches = room
    match = matches[0]
    clock_svc.clock_warning(match=match, by=juez, pair="A", note="Tarda en repartir")
    proposal = ladder_proposal(pair=match.pair_a, match=match, article="6.3")
    assert proposal is not None and proposal.step == STEP.JUEGO
    sanction_give(by=juez, pair=match.pair_a, match=match, article="6.3", step=STEP.JUEGO)
    assert DelayWarning.objects.filter(clock__match=match, pair=match.pair_a).count() == 2  # both count for 6.6
