"""The match clocks in the site (AMM chapter VI): started by the round or per table, pauses (3.15),
absences (6.1.b), juegos tapped, delay warnings (6.3), and the beat's tick that applies what is due
exactly once (6.1.b penalties, 6.4 adjustments, 6.5 forced end, 6.6 alerts). Time is frozen: every
service takes the moment as ``at`` / ``now``."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.models import ClockEvent, MatchClock
from scoring.selectors.clocks import match_clock, round_clocks
from scoring.services import clocks as svc
from scoring.services.results import result_submit
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.errors import NotAllowed, TournamentError
from torneo.models import Tournament

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


@pytest.fixture
def table():
    """A 6-pair tournament with round 1 published, its clocks started at T0, and a juez."""
    sim = new_tournament(6, seed=31, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-reloj"), sim.tournament, "juez")
    assert svc.clocks_start_round(round=round_, by=juez, at=T0) == 3
    return sim, round_, juez, playing(round_)


def keys(match) -> list[str]:
    return list(ClockEvent.objects.filter(clock__match=match).order_by("pk").values_list("key", flat=True))


def test_the_round_starts_every_tables_clock_once_and_never_an_exentas_amm_6_1_a(table):
    _sim, round_, juez, matches = table
    assert MatchClock.objects.filter(match__round=round_).count() == 3
    assert svc.clocks_start_round(round=round_, by=juez, at=at(3)) == 0  # already running: same start
    assert {c.started_at for c in MatchClock.objects.all()} == {T0}
    info = match_clock(matches[0], at(12.5))
    assert info.minute == pytest.approx(12.5) and info.state.phase == "normal"
    assert info.deadline(at(12.5), 60) == at(60)


def test_a_stranger_does_not_start_the_clocks(table):
    _sim, round_, _juez, _ = table
    with pytest.raises(NotAllowed):
        svc.clocks_start_round(round=round_, by=UserFactory(), at=T0)


def test_lateness_costs_a_juego_at_10_another_at_15_and_the_partida_at_20_exactly_once_amm_6_1_b(table):
    _sim, _round, juez, matches = table
    late, arrives = matches[0], matches[1]
    svc.clock_absence(match=late, by=juez, pair="A", at=at(0.5))
    svc.clock_absence(match=arrives, by=juez, pair="B", at=at(0.5))
    svc.clocks_tick(now=at(9.9))
    assert keys(late) == []
    svc.clocks_tick(now=at(10))
    svc.clocks_tick(now=at(10.5))  # again: nothing twice
    assert keys(late) == ["6.1.b:A:1"] and keys(arrives) == ["6.1.b:B:1"]
    svc.clock_absence(match=arrives, by=juez, pair="B", arrived=True, at=at(12))
    svc.clocks_tick(now=at(15))
    assert keys(arrives) == ["6.1.b:B:1"]  # complete at 12: the second juego is not due
    svc.clocks_tick(now=at(20))
    assert keys(late) == ["6.1.b:A:1", "6.1.b:A:2", "6.1.b:A:partida", "fase:terminada"]
    clock = MatchClock.objects.get(match=late)
    assert clock.phase == "terminada" and clock.finished_at == at(20)
    info = match_clock(late, at(21))
    assert info.state.winner == "B" and info.state.score == {"A": 0, "B": 2}


def test_a_pause_stops_the_clock_and_its_minutes_do_not_count_amm_3_15(table):
    _sim, _round, juez, matches = table
    match = matches[0]
    with pytest.raises(Exception, match="motivo"):
        svc.clock_pause(match=match, by=juez, reason=" ", at=at(20))
    svc.clock_pause(match=match, by=juez, reason="Jugador indispuesto", at=at(20))
    paused = match_clock(match, at(30))
    assert paused.paused and paused.minute == pytest.approx(20) and paused.deadline(at(30), 60) is None
    with pytest.raises(TournamentError):
        svc.clock_pause(match=match, by=juez, reason="otra", at=at(31))
    svc.clock_resume(match=match, by=juez, at=at(35))
    info = match_clock(match, at(40))
    assert info.minute == pytest.approx(25) and info.deadline(at(40), 60) == at(75)
    svc.clocks_tick(now=at(60))  # 45 minutes on its clock: not yet the adjustments
    assert "fase:ajustes" not in keys(match)
    svc.clocks_tick(now=at(65))
    assert "fase:ajustes" in keys(match)


def test_juegos_tapped_decide_the_adjustments_amm_6_4_b(table):
    _sim, _round, juez, matches = table
    match = matches[0]
    for minutes, winner in ((12, "A"), (30, "B"), (45, "A")):
        svc.clock_juego(match=match, by=juez, winner=winner, at=at(minutes))
    svc.clocks_tick(now=at(52))
    assert "6.4.b" in keys(match) and "fase:ajustes" in keys(match)
    svc.clock_juego(match=match, by=juez, winner="B", at=at(57))  # 2-2 with 3 minutes left
    info = match_clock(match, at(57.5))
    assert info.state.juego.tantos == 20 and info.state.juego.final and info.state.juego.article == "6.4.b"
    svc.clock_juego_undo(match=match, by=juez)
    assert match_clock(match, at(57.5)).state.score == {"A": 2, "B": 1}


def test_the_forced_end_loses_the_warned_pair_by_one_juego_amm_6_5_b(table):
    _sim, _round, juez, matches = table
    match = matches[0]
    svc.clock_juego(match=match, by=juez, winner="A", at=at(20))
    svc.clock_warning(match=match, by=juez, pair="B", note="tarda en cortar", at=at(40))
    svc.clocks_tick(now=at(69.9))
    assert "6.5.b" not in keys(match)
    svc.clocks_tick(now=at(70))
    event = ClockEvent.objects.get(clock__match=match, key="6.5.b")
    assert event.data == {"article": "6.5.b", "loser": "B", "result": {"A": 3, "B": 2}, "agreed": False}
    assert MatchClock.objects.get(match=match).finished_at == at(70)
    with pytest.raises(TournamentError):
        svc.clock_juego(match=match, by=juez, winner="A", at=at(71))


def test_neither_pair_warned_both_lose_at_the_forced_end_amm_6_5_b(table):
    _sim, _round, _juez, matches = table
    svc.clocks_tick(now=at(71))
    event = ClockEvent.objects.get(clock__match=matches[1], key="6.5.b")
    assert event.data["loser"] == "both" and event.data["result"] is None


def test_three_earlier_delay_sanctions_alert_the_juez_amm_6_6(table):
    _sim, _round, juez, matches = table
    match = matches[0]
    earlier = [m for m in matches if m.pk != match.pk]
    # Three delay warnings of pair A of this table in other partidas (the clock of another table
    # stands in for earlier partidas: what counts is the pair's warnings outside this partida).
    other = earlier[0]
    from scoring.models import DelayWarning

    clock = MatchClock.objects.get(match=other)
    for minute in (5, 10, 15):
        DelayWarning.objects.create(clock=clock, pair=match.pair_a, side="A", at=at(minute), by=juez)
    svc.clocks_tick(now=at(30))
    assert "6.6:A" not in keys(match)
    svc.clock_warning(match=match, by=juez, pair="A", at=at(31))
    svc.clocks_tick(now=at(32))
    assert "6.6:A" in keys(match) and "6.6:B" not in keys(match)


def test_a_result_entered_ends_the_clock(table):
    sim, _round, _juez, matches = table
    match = matches[2]
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    svc.clocks_tick(now=at(40))
    assert MatchClock.objects.get(match=match).phase == "terminada"


def test_the_juez_runs_pauses_absences_and_warnings_the_table_only_taps_juegos(table):
    sim, _round, _juez, matches = table
    match = matches[0]
    mesa = grant(UserFactory(), sim.tournament, "control")
    svc.clock_juego(match=match, by=mesa, winner="A", at=at(10))
    svc.clock_tantos(match=match, by=mesa, a=12, b=30)
    for call in (
        lambda: svc.clock_pause(match=match, by=mesa, reason="x", at=at(11)),
        lambda: svc.clock_absence(match=match, by=mesa, pair="A"),
        lambda: svc.clock_warning(match=match, by=mesa, pair="A"),
        lambda: svc.clock_juego(match=match, by=UserFactory(), winner="A"),
    ):
        with pytest.raises(NotAllowed):
            call()


def test_bad_input_names_the_field(table):
    _sim, _round, juez, matches = table
    match = matches[0]
    with pytest.raises(Exception, match="«A» o «B»"):
        svc.clock_juego(match=match, by=juez, winner="C")
    with pytest.raises(Exception, match="0 a 40"):
        svc.clock_tantos(match=match, by=juez, a=41, b=0)


def test_one_tick_takes_the_same_queries_for_3_or_12_tables(table):
    _sim, _round, _juez, _ = table
    with CaptureQueriesContext(connection) as few:
        svc.clocks_tick(now=at(52))
    big = new_tournament(24, seed=32, format=Tournament.Format.CEROS, max_losses=2)
    big_round = publish_next_round(big)
    svc.clocks_start_round(round=big_round, by=big.organizer, at=T0)
    with CaptureQueriesContext(connection) as many:
        svc.clocks_tick(now=at(52.5))
    assert MatchClock.objects.filter(finished_at=None).count() == 15
    assert len(many.captured_queries) == len(few.captured_queries)


def test_the_round_view_lists_every_table_with_its_deadlines(table):
    _sim, round_, _juez, _ = table
    infos = round_clocks(round_, at(10))
    assert len(infos) == 3 and all(i.started for i in infos)
    data = infos[0].as_dict(at(10))
    assert data["max_at"] == at(60).isoformat() and data["limit_at"] == at(70).isoformat()
    assert data["phase"] == "normal" and data["server_now"] == at(10).isoformat()
    assert timezone.is_aware(T0)


def test_the_tournament_chooses_its_lateness_scheme_amm_6_1_b(table):
    """The timings are a preset of the tournament (Tournament.clock_rules): with «club-15» a pair
    still incomplete loses the partida at 15 minutes, with no juegos lost before."""
    from torneo.services.tournaments import tournament_update

    sim, _round, juez, matches = table
    tournament_update(tournament=sim.tournament, data={"clock_rules": "club-15"})
    svc.clock_absence(match=matches[0], by=juez, pair="A", at=at(1))
    svc.clocks_tick(now=at(14.9))
    assert keys(matches[0]) == []
    svc.clocks_tick(now=at(15))
    assert keys(matches[0]) == ["6.1.b:A:partida", "fase:terminada"]


def test_the_result_desk_says_what_the_clock_decided_amm_6_1_b_amm_6_5_b(table):
    """The mesa typing the table sees the clock's decisions, for the acta: the juegos a pair lost by
    lateness (6.1.b) and the forced end with its loser (6.5.b); through the API and the plain page."""
    from django.test import Client
    from rest_framework.test import APIClient

    from scoring.selectors.clocks import clock_notes

    sim, _round, juez, matches = table
    late, timed = matches[0], matches[1]
    svc.clock_absence(match=late, by=juez, pair="B", at=at(1))
    svc.clock_absence(match=late, by=juez, pair="B", arrived=True, at=at(16))
    svc.clock_warning(match=timed, by=juez, pair="A", at=at(30))
    svc.clocks_tick(now=at(20))
    svc.clocks_tick(now=at(70))
    b = late.pair_b.number
    assert f"Reloj: la pareja {b} pierde 2 juegos por llegar tarde (AMM 6.1.b)." in clock_notes(late)
    assert clock_notes(timed)[-1] == (
        f"Reloj: partida terminada por tiempo (AMM 6.5.b); sin acuerdo pierde la pareja {timed.pair_a.number}, "
        "apercibida por retraso: 2–3."
    )
    assert clock_notes(matches[2])[-1].endswith("sin acuerdo pierden ambas parejas.")
    mesa = grant(UserFactory(), sim.tournament, "control")
    api = APIClient()
    api.force_authenticate(mesa)
    lookup = api.get(f"/api/v1/tournaments/{sim.tournament.slug}/results/lookup/", {"table": timed.table_number})
    assert lookup.json()["clock_notes"] == clock_notes(timed)
    page = Client()
    page.force_login(mesa)
    html = page.post(
        f"/torneos/{sim.tournament.slug}/gestion/resultados/", {"round": 1, "table": late.table_number}
    ).content.decode()
    assert "entry-clock" in html and f"la pareja {b} pierde 2 juegos por llegar tarde" in html


# --- what the clock decided, proposed as the result ---------------------------------------------


def proposal(match):
    from scoring.models import ResultSubmission

    return list(ResultSubmission.objects.filter(match=match, source="clock"))


def test_a_pair_incomplete_at_20_minutes_loses_by_walkover_counted_at_once_amm_6_1_b(table):
    """6.1.b «Estas sanciones no pueden ser perdonadas en ningún caso por la pareja contraria»: the
    walkover counts at once, once, never a proposal the late pair could reject."""
    _sim, _round, juez, matches = table
    late, both = matches[0], matches[1]
    svc.clock_absence(match=late, by=juez, pair="A", at=at(0.5))
    for side in "AB":
        svc.clock_absence(match=both, by=juez, pair=side, at=at(0.5))
    svc.clocks_tick(now=at(19.9))
    assert proposal(late) == []
    svc.clocks_tick(now=at(20))
    svc.clocks_tick(now=at(20.1))  # again: once
    (sub,) = proposal(late)
    late.refresh_from_db()
    assert (late.outcome, late.winner_id) == ("walkover", late.pair_b_id)
    assert (sub.status, sub.outcome, sub.winner_id, sub.games_a, sub.games_b) == (
        "confirmed",
        "walkover",
        late.pair_b_id,
        0,
        3,
    )
    assert sub.submitted_by is None and f"la pareja {late.pair_a.number} no estaba completa" in sub.reason
    (double,) = proposal(both)
    assert (double.status, double.outcome, double.winner_id) == ("confirmed", "double_loss", None)


def test_the_forced_end_counts_the_warned_pairs_loss_by_one_juego_at_once_amm_6_5_b(table):
    _sim, _round, juez, matches = table
    warned, neither = matches[0], matches[1]
    svc.clock_juego(match=warned, by=juez, winner="A", at=at(20))
    svc.clock_warning(match=warned, by=juez, pair="B", at=at(40))
    svc.clock_juego(match=neither, by=juez, winner="B", at=at(30))
    svc.clocks_tick(now=at(70))
    (sub,) = proposal(warned)
    assert (sub.status, sub.outcome, sub.winner_id, sub.games_a, sub.games_b) == (
        "confirmed",
        "ruling",
        warned.pair_a_id,
        3,
        2,
    )
    assert "aviso por demora" in sub.reason and "AMM 6.5.b" in sub.reason
    warned.refresh_from_db()
    assert (warned.outcome, warned.winner_id) == ("ruling", warned.pair_a_id)
    (double,) = proposal(neither)
    assert (double.status, double.outcome, double.winner_id, double.games_a, double.games_b) == (
        "confirmed",
        "double_loss",
        None,
        0,
        1,
    )


def test_a_juego_claimed_and_unanswered_at_the_forced_end_leaves_the_result_to_the_mesa_amm_6_5_b(table):
    """At 2-2 with only A warned for delay, A wins the last juego at minute 65 and claims it from its
    phone; B never confirms (AMM 3.16: the losing pair signs). At the limit the clock's forced end
    (6.5.b) would give B the partida by one juego, against a juego A says it won: with a claim
    pending, what the clock decided is only proposed, naming the claim, for the mesa or a juez;
    never counted at once."""
    from torneo.services.terminals import terminal_issue

    sim, _round, juez, matches = table
    match = matches[0]
    for minute, winner in ((10, "A"), (20, "B"), (30, "A"), (40, "B")):
        svc.clock_juego(match=match, by=juez, winner=winner, at=at(minute))
    svc.clock_warning(match=match, by=juez, pair="A", at=at(50))
    phone_a = terminal_issue(pair=match.pair_a, by=sim.organizer).terminal.user
    svc.clock_juego(match=match, by=phone_a, winner="A", at=at(65))  # a claim: B does not answer
    svc.clocks_tick(now=at(70))
    (sub,) = proposal(match)
    assert (sub.status, sub.outcome) == ("proposed", "ruling")
    assert f"Quedó sin confirmar un juego que la pareja {match.pair_a.number} anotó para ella" in sub.reason
    match.refresh_from_db()
    assert match.outcome == "pending"


def test_juegos_tapped_to_the_end_propose_the_played_result_with_the_lateness_juegos_amm_6_1_b(table):
    _sim, _round, juez, matches = table
    match = matches[0]
    svc.clock_absence(match=match, by=juez, pair="B", at=at(0.5))
    svc.clock_absence(match=match, by=juez, pair="B", arrived=True, at=at(12))  # one juego lost at 10
    for minute, side in ((20, "A"), (30, "B"), (40, "A")):
        svc.clock_juego(match=match, by=juez, winner=side, at=at(minute))
    svc.clocks_tick(now=at(41))
    (sub,) = proposal(match)
    assert (sub.outcome, sub.games_a, sub.games_b, sub.winner_id) == ("played", 3, 1, match.pair_a_id)
    assert "Incluye 1 juego perdido por retraso (AMM 6.1.b)." in sub.reason


def _tapped_to_the_end(match, by):
    for minute in (15, 30, 45):
        svc.clock_juego(match=match, by=by, winner="B", at=at(minute))
    svc.clocks_tick(now=at(46))


def test_the_clocks_proposal_is_confirmed_by_the_mesa_never_by_the_winning_pair_amm_3_16(table):
    from scoring.services.results import result_confirm
    from torneo.models import Player

    sim, _round, juez, matches = table
    match = matches[0]
    _tapped_to_the_end(match, juez)
    (sub,) = proposal(match)
    assert (sub.status, sub.outcome, sub.games_a, sub.games_b) == ("proposed", "played", 0, 3)
    winner_player = UserFactory()
    Player.objects.filter(pk=match.pair_b.ordered_members()[0].player_id).update(user=winner_player)
    with pytest.raises(NotAllowed):
        result_confirm(submission=sub, by=winner_player)
    match.refresh_from_db()
    assert match.outcome == "pending"
    mesa = grant(UserFactory(), sim.tournament, "control")
    result_confirm(submission=sub, by=mesa)
    match.refresh_from_db()
    assert (match.outcome, match.winner_id) == ("played", match.pair_b_id)


def test_the_mesa_types_the_agreed_result_over_the_forced_ends_amm_6_5_b(table):
    """6.5.b «dando la oportunidad de comunicar un resultado de mutuo acuerdo»: the rule's result
    counts at once, and the mesa's entry of the agreed result replaces it."""
    from scoring.models import ResultSubmission

    sim, _round, _juez, matches = table
    match = matches[1]
    svc.clocks_tick(now=at(70))
    (sub,) = proposal(match)
    assert sub.status == "confirmed"
    mesa = grant(UserFactory(), sim.tournament, "control")
    entry = result_submit(match=match, by=mesa, games_a=3, games_b=2, expected_version=sub.version)
    assert entry.status == "confirmed"
    assert ResultSubmission.objects.get(pk=sub.pk).status == "superseded"
    match.refresh_from_db()
    assert (match.outcome, match.games_a, match.games_b) == ("played", 3, 2)
    svc.clocks_tick(now=at(71))
    assert len(proposal(match)) == 1  # never proposed again


def test_the_clock_never_proposes_over_an_entry_already_made(table):
    sim, _round, _juez, matches = table
    match = matches[2]
    sim.tournament.results_double_check = True
    sim.tournament.save(update_fields=["results_double_check"])
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)  # awaiting the second person
    svc.clocks_tick(now=at(70))
    assert proposal(match) == []


def test_the_desk_shows_the_clocks_proposal_with_its_reason_and_confirms_it_amm_3_16(table):
    from django.test import Client
    from django.urls import reverse

    sim, _round, juez, matches = table
    match = matches[0]
    _tapped_to_the_end(match, juez)
    (sub,) = proposal(match)
    mesa = grant(UserFactory(), sim.tournament, "control")
    page = Client()
    page.force_login(mesa)
    desk = page.get(reverse("scoring:results_entry", args=[sim.tournament.slug])).content.decode()
    assert "Reloj de la partida" in desk
    url = reverse("scoring:result_confirm", args=[sim.tournament.slug, sub.pk])
    html = page.get(url).content.decode()
    assert "Anotado por Reloj de la partida" in html and "juegos anotados en la mesa" in html
    assert page.post(url).status_code == 302
    match.refresh_from_db()
    assert (match.outcome, match.winner_id) == ("played", match.pair_b_id)


# --- the round's clocks start by themselves (AMM 6.1.a, 6.1.c) -----------------------------------


@pytest.fixture
def published():
    """A 6-pair tournament with its clocks automatic and round 1 published at T0, no clock started."""
    sim = new_tournament(6, seed=32, format=Tournament.Format.CEROS, max_losses=2)
    sim.tournament.clocks_autostart = True
    sim.tournament.save(update_fields=["clocks_autostart"])
    round_ = publish_next_round(sim)
    type(round_).objects.filter(pk=round_.pk).update(published_at=T0)
    return sim, round_, playing(round_)


def started(round_) -> set:
    return set(MatchClock.objects.filter(match__round=round_).values_list("started_at", flat=True))


def test_the_rounds_clocks_start_by_themselves_5_minutes_after_the_draw_amm_6_1_a(published):
    _sim, round_, matches = published
    svc.clocks_tick(now=at(4.9))
    assert started(round_) == set()
    svc.clocks_tick(now=at(5.2))  # the beat comes a little after: the clock started at 5, as the rule says
    assert started(round_) == {at(5)} and MatchClock.objects.filter(match__round=round_).count() == 3
    assert match_clock(matches[0], at(15)).minute == pytest.approx(10)
    svc.clocks_tick(now=at(6))
    assert started(round_) == {at(5)}  # once


def test_the_jornadas_start_and_courtesy_set_the_automatic_start_amm_6_1_c(published):
    from torneo.models import Session

    sim, round_, _matches = published
    session = Session.objects.create(tournament=sim.tournament, name="Mañana", starts_at=at(30), courtesy_minutes=15)
    type(round_).objects.filter(pk=round_.pk).update(session=session)
    svc.clocks_tick(now=at(44))
    assert started(round_) == set()
    svc.clocks_tick(now=at(45))
    assert started(round_) == {at(45)}


def test_a_table_started_by_hand_or_already_decided_keeps_its_clock(published):
    sim, _round, matches = published
    juez = grant(UserFactory(), sim.tournament, "juez")
    svc.clock_start(match=matches[0], by=juez, at=at(2))
    result_submit(match=matches[1], by=sim.organizer, games_a=3, games_b=0)
    svc.clocks_tick(now=at(5))
    assert MatchClock.objects.get(match=matches[0]).started_at == at(2)
    assert MatchClock.objects.get(match=matches[2]).started_at == at(5)
    assert MatchClock.objects.get(match=matches[1]).phase == "terminada"  # its acta is in: over at once


def test_without_the_option_or_long_past_the_start_the_clocks_wait_for_the_juez(published):
    sim, round_, _matches = published
    svc.clocks_tick(now=at(15.1))  # the start was 10 minutes ago: 6.1.b penalties nobody saw coming
    assert started(round_) == set()
    sim.tournament.clocks_autostart = False
    sim.tournament.save(update_fields=["clocks_autostart"])
    svc.clocks_tick(now=at(5))
    assert started(round_) == set()


def test_the_organizer_switches_the_automatic_clocks_on_in_the_api_and_the_form_amm_6_1_a():
    from django.test import Client
    from django.urls import reverse
    from rest_framework.test import APIClient

    sim = new_tournament(6, seed=33, format=Tournament.Format.CEROS, max_losses=2)
    api = APIClient()
    api.force_authenticate(sim.organizer)
    response = api.patch(f"/api/v1/tournaments/{sim.tournament.slug}/", {"clocks_autostart": True}, format="json")
    assert response.status_code == 200 and response.json()["clocks_autostart"] is True
    sim.tournament.refresh_from_db()
    assert sim.tournament.clocks_autostart
    page = Client()
    page.force_login(sim.organizer)
    html = page.get(reverse("torneo:manage_edit", args=[sim.tournament.slug])).content.decode()
    assert 'name="clocks_autostart"' in html and "Relojes automáticos" in html
