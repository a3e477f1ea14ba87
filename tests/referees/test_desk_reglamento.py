"""The juez's desk as the reglamento says (issue 30): the ladder counts only its own steps (5.4),
venue reiterations escalate (5.10, 5.4.2), its scope is the tournament's option, the clock's own
penalties are never applied twice (6.1.b), and delays are reported in their moment (6.3)."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from referees.models import Sanction
from referees.services.incidents import incident_report
from referees.services.sanctions import ladder_proposal, sanction_give, sanction_undo
from scoring.models import ClockJuego, DelayWarning, ResultSubmission
from scoring.services import clocks as clock_svc
from scoring.services.results import result_submit
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.errors import TournamentError
from torneo.forms.tournaments import TournamentForm
from torneo.models import Tournament

pytestmark = pytest.mark.django_db

STEP = Sanction.Step


@pytest.fixture
def room():
    """A 6-pair tournament, round 1 published with its clocks running, and a juez."""
    sim = new_tournament(6, seed=43, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-escala"), sim.tournament, "juez")
    clock_svc.clocks_start_round(round=round_, by=juez, at=datetime.datetime.now(datetime.UTC))
    return sim, juez, playing(round_)


def test_after_a_juego_lost_for_lateness_a_first_3_19_is_offered_the_apercibimiento_amm_5_4(room):
    """5.4 «…que no esté expresamente determinada»: 6.1.b's juego is not a step of the protocol."""
    _sim, juez, matches = room
    match = matches[0]
    sanction_give(
        by=juez, pair=match.pair_a, match=match, article="6.1.b", step=STEP.JUEGO, reason="Llega a los 11 minutos"
    )
    proposal = ladder_proposal(pair=match.pair_a, match=match, article="3.19")
    assert proposal is not None
    assert proposal.step == STEP.APERCIBIMIENTO and [int(s) for s in proposal.options] == [STEP.APERCIBIMIENTO]
    assert [p.article for p in proposal.apart] == ["6.1.b"] and proposal.counted == ()
    # An apercibimiento for 3.19 needs no reason: it is the protocol's first step.
    given = sanction_give(by=juez, pair=match.pair_a, match=match, article="3.19", step=STEP.APERCIBIMIENTO)
    assert given.proposed == STEP.APERCIBIMIENTO


def test_a_lateness_the_clock_counted_is_not_applied_a_second_time_amm_6_1_b(room):
    """6.1.b is the clock's: logging it on the desk takes no second juego and writes no delay
    warning that 6.5.b would count."""
    _sim, juez, matches = room
    match = matches[0]
    clock_svc.clock_absence(match=match, by=juez, pair="A")
    sanction_give(by=juez, pair=match.pair_a, match=match, article="6.1.b", step=STEP.JUEGO, reason="Falta un jugador")
    assert not ClockJuego.objects.filter(clock__match=match).exists()
    assert not DelayWarning.objects.filter(clock__match=match).exists()
    # A 6.3 delay, on the other hand, is the apercibimiento por retraso 6.5.b counts.
    sanction_give(by=juez, pair=match.pair_b, match=match, article="6.3", step=STEP.APERCIBIMIENTO)
    assert DelayWarning.objects.filter(clock__match=match, pair=match.pair_b).count() == 1


def test_reiterations_at_the_venue_escalate_within_the_tournament_amm_5_10_and_5_4_2(room):
    _sim, juez, matches = room
    pair = matches[0].pair_a
    first = ladder_proposal(pair=pair, match=None, article="5.10")
    assert first is not None and first.step == STEP.APERCIBIMIENTO
    sanction_give(by=juez, pair=pair, article="5.10", step=STEP.APERCIBIMIENTO)
    second = ladder_proposal(pair=pair, match=None, article="5.10")
    assert second is not None and second.step == STEP.JUEGO
    # A warning in a partida is that partida's (the default scope): the venue does not count it.
    other = matches[1].pair_a
    sanction_give(by=juez, pair=other, match=matches[1], article="3.19", step=STEP.APERCIBIMIENTO)
    venue = ladder_proposal(pair=other, match=None, article="5.10")
    assert venue is not None and venue.step == STEP.APERCIBIMIENTO and len(venue.elsewhere) == 1


def test_the_ladders_scope_is_the_tournaments_option_amm_5_4(room):
    sim, juez, matches = room
    match = matches[0]
    assert sim.tournament.ladder_scope == "partida"
    assert "ladder_scope" in TournamentForm(instance=sim.tournament).fields
    sanction_give(by=juez, pair=match.pair_a, match=match, article="3.19", step=STEP.APERCIBIMIENTO)
    venue = ladder_proposal(pair=match.pair_a, match=None, article="5.10")
    assert venue is not None and venue.step == STEP.APERCIBIMIENTO and venue.scope == "partida"
    Tournament.objects.filter(pk=sim.tournament.pk).update(ladder_scope="torneo")
    match.pair_a.tournament.refresh_from_db()
    whole = ladder_proposal(pair=match.pair_a, match=None, article="5.10")
    assert whole is not None and whole.step == STEP.JUEGO and whole.scope == "torneo"


def test_a_delay_reported_after_the_partida_ended_is_refused_amm_6_3(room):
    """6.3 «Nunca se admitirán reclamaciones de este tipo a posteriori»."""
    sim, juez, matches = room
    match, other = matches[0], matches[1]
    in_time = incident_report(tournament=sim.tournament, by=juez, match=other, pair=other.pair_b, article="6.3")
    for played in (match, other):
        result_submit(match=played, by=sim.organizer, games_a=3, games_b=1, final=True)
    with pytest.raises(TournamentError) as refused:
        incident_report(tournament=sim.tournament, by=juez, match=match, pair=match.pair_b, article="6.3")
    assert "a posteriori" in str(refused.value) and "6.3" in str(refused.value)
    with pytest.raises(TournamentError):
        sanction_give(by=juez, pair=match.pair_b, match=match, article="2.3.d", step=STEP.APERCIBIMIENTO)
    assert not Sanction.objects.exists()
    # Reported in its moment, it may still be judged once the partida is over.
    sanction_give(by=juez, pair=other.pair_b, incident=in_time, article="6.3", step=STEP.APERCIBIMIENTO)
    # Other infractions are not «reclamaciones de este tipo».
    incident_report(tournament=sim.tournament, by=juez, match=match, pair=match.pair_b, article="3.19")
    with pytest.raises(ValidationError):
        sanction_give(by=juez, pair=match.pair_b, match=match, article="3.19", step=STEP.PARTIDA)


def test_a_delay_reported_once_a_pair_reported_the_result_is_a_posteriori_amm_6_3(room):
    """6.3 at the table (issue 32): the pairs report their result from their phones, and it waits
    for the rival's signature. The partida is over once it is reported: a retraso called then (by
    the losing pair, say) is «a posteriori», from the phone as from the juez; a report rejected
    leaves the partida open again."""
    from scoring.services.results import result_reject, result_report
    from torneo.models import PairTerminal
    from torneo.services.terminals import terminal_issue

    sim, juez, matches = room
    match = matches[0]
    terminal_issue(pair=match.pair_a, by=sim.organizer)
    phone_a = PairTerminal.objects.get(pair=match.pair_a).user
    report = result_report(match=match, by=phone_a, games_a=3, games_b=1)
    terminal_issue(pair=match.pair_b, by=sim.organizer)
    phone_b = PairTerminal.objects.get(pair=match.pair_b).user
    for who in (phone_b, juez):
        with pytest.raises(TournamentError, match="a posteriori"):
            incident_report(tournament=sim.tournament, by=who, match=match, pair=match.pair_a, article="6.3")
    result_reject(submission=report, by=phone_b)
    incident_report(tournament=sim.tournament, by=phone_b, match=match, pair=match.pair_a, article="6.3")


def test_a_juego_lost_by_sanction_that_decides_the_partida_counts_at_once_amm_5_4_2_and_5_1(room):
    """5.1 «Estas decisiones serán inapelables»: 2-2 and a juego lost by sanction is 2-3, the
    result, counted at once with its article, never a proposal the sanctioned pair could reject."""
    _sim, juez, matches = room
    match = matches[0]
    for winner in ("A", "B", "A", "B"):
        clock_svc.clock_juego(match=match, by=juez, winner=winner)
    sanction_give(by=juez, pair=match.pair_a, match=match, article="3.19", step=STEP.JUEGO, reason="Reincide")
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.games_a, match.games_b) == ("ruling", match.pair_b_id, 2, 3)
    (sub,) = ResultSubmission.objects.filter(match=match)
    assert sub.status == "confirmed" and sub.source == "juez"
    assert "Sanción AMM 5.4.2: pérdida de juego — partida decidida" in sub.reason
    assert Sanction.objects.get().result_id == sub.pk
    clock_svc.clocks_tick(now=datetime.datetime.now(datetime.UTC))
    assert ResultSubmission.objects.filter(match=match).count() == 1  # no clock proposal over it


def test_without_a_clock_a_juego_lost_by_sanction_binds_the_acta_amm_5_4_2():
    sim = new_tournament(6, seed=44, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(), sim.tournament, "juez")
    match = playing(round_)[0]
    sanction_give(by=juez, pair=match.pair_a, match=match, article="3.19", step=STEP.JUEGO, reason="Esconde cartas")
    with pytest.raises(ValidationError) as refused:
        result_submit(match=match, by=sim.organizer, games_a=3, games_b=0)
    message = refused.value.message_dict["games_b"][0]
    assert f"La pareja {match.pair_b.number} tiene 1 juego ganado" in message and "sanción nº 1" in message
    assert "AMM 5.4.2" in message
    match.refresh_from_db()
    assert match.outcome == "pending" and not ResultSubmission.objects.filter(match=match).exists()
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)  # the acta with that juego
    # Undone, the sanction binds nothing any more.
    other = playing(round_)[1]
    given = sanction_give(by=juez, pair=other.pair_b, match=other, article="3.19", step=STEP.JUEGO, reason="Otra")
    sanction_undo(sanction=given, by=juez, reason="Era la otra pareja")
    result_submit(match=other, by=sim.organizer, games_a=0, games_b=3)


def test_the_juegos_lost_by_lateness_bind_the_acta_amm_6_1_b(room):
    """6.1.b «Estas sanciones no pueden ser perdonadas en ningún caso por la pareja contraria»."""
    sim, juez, matches = room
    match = matches[1]
    clock_svc.clock_absence(match=match, by=juez, pair="B")
    start = match.clock.started_at
    clock_svc.clocks_tick(now=start + datetime.timedelta(minutes=11))
    with pytest.raises(ValidationError) as refused:
        result_submit(match=match, by=sim.organizer, games_a=0, games_b=3)
    assert "retraso (AMM 6.1.b)" in refused.value.message_dict["games_a"][0]
    result_submit(match=match, by=sim.organizer, games_a=1, games_b=3)


def test_the_loss_of_the_partida_replaces_an_acta_already_typed_until_the_next_draw_amm_3_17_and_3_18(room):
    """3.17 «El incumplimiento de este requisito podrá acarrear la pérdida de la partida»: the acta
    typed is replaced by the juez's decision; once the next draw is out (3.18), the desk says why it
    cannot and writes nothing."""
    sim, juez, matches = room
    match = matches[0]
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    sanction_give(
        by=juez, pair=match.pair_a, match=match, article="3.17", step=STEP.PARTIDA, reason="Sin acta ni material"
    )
    match.refresh_from_db()
    assert (match.outcome, match.winner_id, match.games_a, match.games_b) == ("ruling", match.pair_b_id, 2, 3)
    for other in matches[1:]:
        result_submit(match=other, by=sim.organizer, games_a=3, games_b=0)
    publish_next_round(sim)
    late = matches[1]
    with pytest.raises(ValidationError) as refused:
        sanction_give(by=juez, pair=late.pair_a, match=late, article="3.17", step=STEP.PARTIDA, reason="Tarde")
    assert "inamovible" in refused.value.message_dict["step"][0] and "3.18" in refused.value.message_dict["step"][0]
    assert Sanction.objects.count() == 1
    late.refresh_from_db()
    assert (late.outcome, late.winner_id) == ("played", late.pair_a_id)


def test_a_ruling_on_cards_put_into_the_deck_records_the_generic_warning_amm_3_20_c():
    """3.20.c «siempre conllevará además la amonestación genérica del art. 5.4»: confirming the
    ruling records an incident of 3.20.c linked to it and its apercibimiento on the ladder;
    withdrawing the ruling undoes it."""
    from scoring.models import HandRuling
    from scoring.services.hands.rulings import hand_ruling_confirm, hand_ruling_withdraw
    from tests.scoring.test_hands_services import table
    from tests.scoring.test_ruling_pages import lie

    t = table()
    hand = lie(t)
    saved = hand_ruling_confirm(hand=hand, by=t.juez, facts={"into_deck": [{"seat": 3, "recovered": True}]})
    ruling = saved.ruling
    assert "3.20.c" in ruling.articles
    (sanction,) = Sanction.objects.filter(status="in_force")
    assert (sanction.pair_id, sanction.article, sanction.step) == (t.match.pair_b_id, "3.20.c", STEP.APERCIBIMIENTO)
    assert sanction.incident.ruling_id == ruling.pk and sanction.incident.status == "sanctioned"
    # The ladder counts it: a second infraction of that pair in the partida is offered the juego.
    proposal = ladder_proposal(pair=t.match.pair_b, match=t.match, article="3.19")
    assert proposal is not None and proposal.step == STEP.JUEGO
    # Ruling the hand again does not warn twice; withdrawing the ruling takes the warning back.
    hand_ruling_confirm(hand=hand, by=t.juez, facts={"into_deck": [{"seat": 3, "recovered": True}]})
    assert Sanction.objects.filter(status="in_force").count() == 1
    hand_ruling_withdraw(ruling=HandRuling.objects.get(is_current=True), by=t.juez)
    assert not Sanction.objects.filter(status="in_force").exists()


def test_a_ladder_scope_that_is_not_an_option_is_refused_by_field_and_nothing_changes_amm_5_4(room):
    from rest_framework.test import APIClient

    sim, _juez, _matches = room
    client = APIClient()
    client.force_authenticate(sim.organizer)
    answer = client.patch(f"/api/v1/tournaments/{sim.tournament.slug}/", {"ladder_scope": "jornada"}, format="json")
    assert answer.status_code == 400 and "no es una opción válida" in answer.json()["ladder_scope"][0]
    sim.tournament.refresh_from_db()
    assert sim.tournament.ladder_scope == "partida"
    assert (
        client.patch(
            f"/api/v1/tournaments/{sim.tournament.slug}/", {"ladder_scope": "torneo"}, format="json"
        ).status_code
        == 200
    )
    sim.tournament.refresh_from_db()
    assert sim.tournament.ladder_scope == "torneo"
