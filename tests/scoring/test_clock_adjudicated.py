"""The clock and the juez's decisions (issue 30): a juego given by a sanction is a fact of the
partida the clock's «Deshacer» never removes (5.4.2, 5.1); no juego is tapped while the juez has
stopped the clock (3.15); 6.6 counts earlier latenesses (6.1.b, 6.1.c «sanciones por retrasos»);
an undone delay sanction counts nowhere, even after its partida (6.5.b, 6.6)."""

import datetime

import pytest

from referees.models import Sanction
from referees.services.sanctions import sanction_give, sanction_undo
from scoring.models import ClockEvent, ClockJuego, DelayWarning
from scoring.selectors.clocks import facts_for, match_clock
from scoring.services import clocks as svc
from scoring.services.results import result_submit
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.errors import TournamentError
from torneo.models import Tournament

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=datetime.UTC)
STEP = Sanction.Step


def at(minutes: float, start: datetime.datetime = T0) -> datetime.datetime:
    return start + datetime.timedelta(minutes=minutes)


@pytest.fixture
def table():
    sim = new_tournament(6, seed=37, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-adjudica"), sim.tournament, "juez")
    svc.clocks_start_round(round=round_, by=juez, at=T0)
    return sim, juez, playing(round_)


def test_the_clocks_undo_never_removes_a_juego_given_by_a_sanction_amm_5_4_2(table):
    sim, juez, matches = table
    match = matches[0]
    mesa = grant(UserFactory(), sim.tournament, "control")
    svc.clock_juego(match=match, by=mesa, winner="A", at=at(10))
    sanction_give(by=juez, pair=match.pair_a, match=match, article="3.19", step=STEP.JUEGO, reason="Esconde cartas")
    juegos = list(ClockJuego.objects.filter(clock__match=match).order_by("number"))
    assert [(j.winner, j.article) for j in juegos] == [("A", ""), ("B", "5.4.2")]
    with pytest.raises(TournamentError) as refused:
        svc.clock_juego_undo(match=match, by=mesa)
    assert refused.value.code == "adjudicated" and "5.4.2" in str(refused.value)
    assert ClockJuego.objects.filter(clock__match=match).count() == 2
    # Undoing the sanction itself, with its reason, takes the juego back.
    sanction_undo(sanction=Sanction.objects.get(), by=juez, reason="Se equivocó de pareja")
    assert list(ClockJuego.objects.filter(clock__match=match).values_list("winner", flat=True)) == ["A"]
    svc.clock_juego_undo(match=match, by=mesa)  # a tap at the table is still undone from the clock
    assert not ClockJuego.objects.filter(clock__match=match).exists()


def test_no_juego_is_tapped_while_the_juez_has_stopped_the_clock_amm_3_15(table):
    sim, juez, matches = table
    match = matches[1]
    mesa = grant(UserFactory(), sim.tournament, "control")
    svc.clock_pause(match=match, by=juez, reason="Incidencia en la mesa", at=at(20))
    with pytest.raises(TournamentError) as refused:
        svc.clock_juego(match=match, by=mesa, winner="A", at=at(21))
    assert refused.value.code == "paused" and "reloj parado por el juez" in str(refused.value).lower()
    # The juez's own decision during the interruption is the point of stopping: it is recorded.
    sanction_give(by=juez, pair=match.pair_b, match=match, article="3.19", step=STEP.JUEGO, reason="Intencionado")
    svc.clock_resume(match=match, by=juez, at=at(25))
    svc.clock_juego(match=match, by=mesa, winner="A", at=at(30))
    state = match_clock(match, at(31)).state
    assert state is not None and state.score == {"A": 2, "B": 0}


def _late_in_round(sim, pair, juez, start):
    """A round in which ``pair`` arrives at minute 12 (6.1.b: a juego lost), then every result."""
    round_ = publish_next_round(sim)
    svc.clocks_start_round(round=round_, by=juez, at=start)
    match = next(m for m in playing(round_) if pair.pk in (m.pair_a_id, m.pair_b_id))
    side = "A" if match.pair_a_id == pair.pk else "B"
    svc.clock_absence(match=match, by=juez, pair=side, at=start)
    svc.clock_absence(match=match, by=juez, pair=side, arrived=True, at=at(12, start))
    svc.clocks_tick(now=at(13, start))
    assert ClockEvent.objects.filter(clock__match=match, key=f"6.1.b:{side}:1").exists()
    for m in playing(round_):
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=1, final=True)
    svc.clocks_tick(now=at(14, start))
    return match


def test_three_earlier_latenesses_are_delay_sanctions_for_6_6_amm_6_6_and_6_1_c():
    sim = new_tournament(6, seed=5, format=Tournament.Format.SWISS, swiss_rounds=5)
    juez = grant(UserFactory(), sim.tournament, "juez")
    late = sim.tournament.pairs.order_by("number").first()
    for n in range(3):
        _late_in_round(sim, late, juez, T0 + datetime.timedelta(hours=2 * n))
    start = T0 + datetime.timedelta(hours=8)
    round_ = publish_next_round(sim)
    svc.clocks_start_round(round=round_, by=juez, at=start)
    match = next(m for m in playing(round_) if late.pk in (m.pair_a_id, m.pair_b_id))
    side = "A" if match.pair_a_id == late.pk else "B"
    clock = match.clock
    facts, _minute, _pause = facts_for([clock], at(5, start))[clock.pk]
    assert facts.earlier_delay_sanctions[side] == 3
    assert facts.earlier_delay_sanctions["B" if side == "A" else "A"] == 0
    svc.clock_warning(match=match, by=juez, pair=side, at=at(20, start))  # involved in a delay now
    svc.clocks_tick(now=at(21, start))
    assert ClockEvent.objects.filter(clock__match=match, key=f"6.6:{side}").exists()


def test_an_undone_delay_sanction_counts_nowhere_even_after_its_partida_amm_6_5_b_and_6_6(table):
    sim, juez, matches = table
    match = matches[2]
    given = sanction_give(by=juez, pair=match.pair_a, match=match, article="6.3", step=STEP.APERCIBIMIENTO)
    assert DelayWarning.objects.filter(clock__match=match).count() == 1
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=2, final=True)
    svc.clocks_tick(now=at(50))
    match.clock.refresh_from_db()
    assert match.clock.finished_at is not None
    sanction_undo(sanction=given, by=juez, reason="No era retraso: esperaban al juez")
    assert not DelayWarning.objects.filter(pair=match.pair_a).exists()


def test_the_printed_acta_carries_what_the_clock_recorded_and_decided_amm_3_15_6_3_6_4_6_5_b(table):
    """The acta is the partida's record: its start and limit (6.1.a, 6.2, 6.5), the pauses with
    their reason (3.15), the delay warnings from the clocks' desk (6.3), the adjustments in force
    (6.4) and the forced end (6.5.b) — printed, not only shown on the result desk."""
    from django.utils import timezone

    from scoring.selectors.actas import acta_for, round_actas

    _sim, juez, matches = table
    match = matches[0]
    svc.clock_pause(match=match, by=juez, reason="Baraja incompleta", at=at(5))
    svc.clock_resume(match=match, by=juez, at=at(7))
    svc.clock_warning(match=match, by=juez, pair="B", note="Tarda en cortar", at=at(20))
    sanction_give(by=juez, pair=match.pair_a, match=match, article="6.3", step=STEP.APERCIBIMIENTO)
    svc.clock_juego(match=match, by=juez, winner="A", at=at(30))
    svc.clocks_tick(now=at(55))  # the window of 6.4: 2 juegos or more left (6.4.c)
    svc.clocks_tick(now=at(80))  # past the limit (with the 2 minutes paused): the forced end
    notes = acta_for(match, url="https://example.org/").notes
    start = timezone.localtime(T0).strftime("%H:%M")
    limit = timezone.localtime(at(72)).strftime("%H:%M")
    assert notes[0].startswith(f"Reloj: en marcha a las {start} (AMM 6.1.a)") and f"límite a las {limit}" in notes[0]
    paused = f"Reloj parado de {timezone.localtime(at(5)).strftime('%H:%M')} a "
    assert any(n.startswith(paused) and "Baraja incompleta (AMM 3.15)" in n for n in notes)
    warned = [n for n in notes if n.startswith("Aviso por retraso")]
    assert len(warned) == 1 and f"pareja {match.pair_b.number}" in warned[0] and "Tarda en cortar" in warned[0]
    assert any("ajustes de terminación del AMM 6.4.c" in n for n in notes)
    assert any(n.startswith("Reloj: partida terminada por tiempo (AMM 6.5.b)") for n in notes)
    # The sanction's own line says its warning (AMM 5.4.1), once.
    assert sum("6.3" in n and f"pareja {match.pair_a.number}" in n for n in notes) == 1
    by_round = {a.table: a for a in round_actas(match.round, url_for=lambda m: "https://example.org/")}
    assert by_round[match.table_number].notes == notes
