"""Rounds and public draws through the services, for every format, over whole simulated
tournaments: exentas (AMM 5.6), no avoidable rematches (5.7), the public draw before a juez and its
verification (5.5), rondas finales (5.8.d), withdrawn and expelled pairs, redraws."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from scoring.services.results import result_submit
from tests.factories import UserFactory, grant, make_pair
from tests.torneo.simulation import appearances, byes_so_far, new_tournament
from torneo.draws import commitment, derive_seed
from torneo.errors import TournamentError
from torneo.models import Draw, Match, Pair, Round, Tournament
from torneo.selectors.rounds import draw_cli_inputs
from torneo.services.registrations import pair_withdraw
from torneo.services.rounds import draw_publish, draw_redraw, live_draw, round_cancel, round_prepare

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def verify_with_the_command(draw: Draw) -> None:
    """AMM 5.5: anyone recomputes each pool's draw from the published input with the command."""
    assert draw.commitment == commitment(draw.secret)
    assert draw.seed == derive_seed(draw.secret, draw.public_value)
    inputs = draw_cli_inputs(draw)
    assert inputs
    for line, request in zip(inputs, draw.requests, strict=True):
        out = subprocess.run(
            [sys.executable, "-m", "torneo.draws"],
            input=json.dumps(line),
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        result = json.loads(out.stdout)
        published = draw.results[request["label"]]
        assert result["matches"] == published["matches"]
        assert result["bye"] == published["bye"]


def test_first_round_draws_only_checked_in_pairs_and_publishes_the_commitment_first_amm_5_5():
    sim = new_tournament(11, checked_in=9)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    draw = live_draw(round_)
    assert round_.status == Round.Status.PREPARED and len(draw.commitment) == 64
    assert len(draw.requests[0]["pairs"]) == 9 and not round_.matches.exists()
    draw_publish(draw=draw, public_value="4 2 6", witness=sim.juez, by=sim.organizer)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    counts = appearances(round_)
    assert len(counts) == 9 and set(counts.values()) == {1}
    assert round_.matches.filter(pair_b__isnull=True).count() == 1  # one exenta with 9 pairs
    draw.refresh_from_db()
    assert draw.seed == derive_seed(draw.secret, "4 2 6")
    verify_with_the_command(draw)


def test_the_draw_needs_a_juez_of_the_tournament_present_amm_5_5():
    sim = new_tournament(6)
    draw = live_draw(round_prepare(tournament=sim.tournament, by=sim.organizer))
    for witness in (None, sim.organizer, grant(UserFactory(), new_tournament(2).tournament, "juez")):
        with pytest.raises(TournamentError, match="juez presente"):
            draw_publish(draw=draw, public_value="33", witness=witness, by=sim.organizer)
    with pytest.raises(TournamentError, match="valor público"):
        draw_publish(draw=draw, public_value="   ", witness=sim.juez, by=sim.organizer)
    assert not Match.objects.exists()


def test_a_published_draw_is_immutable():
    sim = new_tournament(6)
    draw = live_draw(round_prepare(tournament=sim.tournament, by=sim.organizer))
    draw_publish(draw=draw, public_value="12", witness=sim.juez, by=sim.organizer)
    with pytest.raises(TournamentError, match="ya está publicado"):
        draw_publish(draw=draw, public_value="13", witness=sim.juez, by=sim.organizer)


def test_a_commitment_goes_stale_if_the_pairs_change():
    sim = new_tournament(6)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    pair_withdraw(pair=Pair.objects.filter(tournament=sim.tournament).first())
    with pytest.raises(TournamentError, match="han cambiado"):
        draw_publish(draw=live_draw(round_), public_value="5", witness=sim.juez, by=sim.organizer)
    round_cancel(round=round_)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    draw_publish(draw=live_draw(round_), public_value="5", witness=sim.juez, by=sim.organizer)
    assert sum(appearances(round_).values()) == 5


def test_next_round_waits_for_every_result_and_names_the_tables():
    sim = new_tournament(8)
    sim.play_round()
    first = sim.rounds[0]
    match = first.matches.filter(outcome=Match.Outcome.PLAYED).first()
    # Take one result back out by replaying the round without it.
    Match.objects.filter(pk=match.pk).update(outcome=Match.Outcome.PENDING, winner=None)
    with pytest.raises(TournamentError, match=f"mesas {match.table_number}"):
        round_prepare(tournament=sim.tournament, by=sim.organizer)


@pytest.mark.slow
def test_knockout_plain_101_pairs_to_a_champion_with_fair_exentas_amm_5_6():
    sim = new_tournament(101, seed=7, format=Tournament.Format.CEROS, max_losses=1)
    sim.play_all()
    # 101 -> 51 -> 26 -> 13 -> 7 -> 4 -> 2 -> 1: seven rounds.
    assert len(sim.rounds) == 7
    for round_ in sim.rounds:
        counts = appearances(round_)
        assert set(counts.values()) == {1}
        bye = round_.matches.filter(pair_b__isnull=True).first()
        if bye:
            had = byes_so_far(sim.tournament, round_.number)
            drawn = set(counts)
            # AMM 5.6: no second exenta while a pair in the draw has had none.
            assert had[bye.pair_a_id] == min(had[p] for p in drawn)
    alive = set(appearances(sim.rounds[-1]))
    final = sim.rounds[-1].matches.get()
    assert final.winner_id in alive


def test_a_tres_ceros_with_same_losses_never_rematches_when_avoidable_amm_5_7():
    sim = new_tournament(40, seed=3, format=Tournament.Format.CEROS, max_losses=3, same_losses=True)
    sim.play_all()
    met: Counter[frozenset[int]] = Counter()
    for round_ in sim.rounds:
        draw = live_draw(round_)
        for output in draw.results.values():
            if len(output["matches"]) >= 4:
                assert output["rematches"] == 0
        for m in round_.matches.exclude(pair_b__isnull=True):
            met[frozenset((m.pair_a_id, m.pair_b_id))] += 1
    losses = Counter()
    for m in Match.objects.filter(round__tournament=sim.tournament):
        for loser in m.loser_ids():
            losses[loser] += 1
    entrants = Pair.objects.filter(tournament=sim.tournament).values_list("id", flat=True)
    assert sum(1 for pair in entrants if losses[pair] < 3) == 1  # exactly one pair was never out
    verify_with_the_command(live_draw(sim.rounds[2]))


def test_repesca_losers_of_the_first_rounds_form_grupo_b():
    sim = new_tournament(
        48, seed=5, format=Tournament.Format.REPESCA, repesca_until_round=2, max_losses=1, pool_b_max_losses=2
    )
    sim.play_all()
    second = sim.rounds[1]
    pools = set(second.matches.values_list("pool", flat=True))
    assert pools == {"A", "B"}
    first_losers = {loser for m in sim.rounds[0].matches.all() for loser in m.loser_ids()}
    pool_b = {p for m in second.matches.filter(pool="B") for p in (m.pair_a_id, m.pair_b_id) if p}
    assert pool_b == first_losers
    verify_with_the_command(live_draw(second))
    # Pool A ends with its champion; pool B goes on with its own draws.
    last_a = max(r.number for r in sim.rounds if r.matches.filter(pool="A").exists())
    assert Match.objects.filter(round__tournament=sim.tournament, round__number=last_a, pool="A").count() == 1


def test_repesca_reentry_merges_grupo_b_back():
    sim = new_tournament(
        32,
        seed=9,
        format=Tournament.Format.REPESCA,
        repesca_until_round=1,
        max_losses=1,
        pool_b_max_losses=2,
        repesca_reentry_round=3,
    )
    sim.play_all()
    assert set(sim.rounds[1].matches.values_list("pool", flat=True)) == {"A", "B"}
    assert set(sim.rounds[2].matches.values_list("pool", flat=True)) == {"A"}


def test_swiss_plays_its_rounds_and_pairs_within_score_groups():
    sim = new_tournament(37, seed=11, format=Tournament.Format.SWISS, swiss_rounds=5)
    sim.play_all()
    assert len(sim.rounds) == 5
    for round_ in sim.rounds:
        assert sum(appearances(round_).values()) == 37
        output = live_draw(round_).results[""]
        assert output["rematches"] == 0
    # After round 1, score groups: most matches are inside one.
    later = live_draw(sim.rounds[3]).results[""]
    assert later["same_group"] > later["cross_group"]


def test_groups_then_bracket_runs_every_liguilla_and_a_seeded_bracket():
    sim = new_tournament(30, seed=13, format=Tournament.Format.LIGUILLAS, group_count=6, group_qualifiers=2)
    sim.play_all()
    groups_rounds = [r for r in sim.rounds if r.phase == Round.Phase.LIGUILLAS]
    bracket_rounds = [r for r in sim.rounds if r.phase == Round.Phase.BRACKET]
    assert len(groups_rounds) == 5  # groups of 5: five rounds, one exenta each (AMM 5.6)
    byes = Counter(m.pair_a_id for r in groups_rounds for m in r.matches.filter(pair_b__isnull=True))
    assert len(byes) == 30 and set(byes.values()) == {1}
    met = Counter(frozenset((m.pair_a_id, m.pair_b_id)) for r in groups_rounds for m in r.matches.exclude(pair_b=None))
    assert set(met.values()) == {1} and len(met) == 6 * 10  # every pair of a group met once
    # 12 qualifiers -> a bracket of 16 with 4 exentas, then 8, 4, 2, 1.
    assert [r.matches.exclude(pair_b=None).count() for r in bracket_rounds] == [4, 4, 2, 1]
    first_bracket = bracket_rounds[0]
    for m in first_bracket.matches.exclude(pair_b=None):
        ga = Match.objects.filter(round=groups_rounds[0]).filter(pair_a=m.pair_a).values_list("pool", flat=True)
        gb = Match.objects.filter(round=groups_rounds[0]).filter(pair_a=m.pair_b).values_list("pool", flat=True)
        if ga and gb:
            assert ga[0] != gb[0]  # same-group pairs kept apart in the first bracket round


def test_rondas_finales_follow_a_fixed_bracket_amm_5_8_d():
    sim = new_tournament(16, seed=17, format=Tournament.Format.CEROS, max_losses=1, final_phase_from_round=2)
    sim.play_all()
    assert [r.is_final for r in sim.rounds] == [False, True, True, True]
    assert [r.kind for r in sim.rounds] == ["draw", "draw", "bracket", "bracket"]
    second, third = sim.rounds[1], sim.rounds[2]
    winners = [m.winner_id for m in second.matches.order_by("slot")]
    expected = [frozenset(winners[i : i + 2]) for i in (0, 2)]
    assert sorted(frozenset((m.pair_a_id, m.pair_b_id)) for m in third.matches.order_by("slot")) == sorted(expected)


def test_withdrawn_and_expelled_pairs_are_not_drawn():
    sim = new_tournament(10, seed=2, format=Tournament.Format.CEROS, max_losses=3)
    sim.play_round()
    gone = list(Pair.objects.filter(tournament=sim.tournament).order_by("number")[:2])
    pair_withdraw(pair=gone[0])
    Pair.objects.filter(pk=gone[1].pk).update(status=Pair.Status.EXPELLED)
    round_ = sim.play_round()
    drawn = set(appearances(round_))
    assert gone[0].pk not in drawn and gone[1].pk not in drawn and len(drawn) == 8


def test_double_loss_in_a_fixed_bracket_gives_the_next_opponent_an_exenta_amm_6_5_b():
    sim = new_tournament(8, seed=4, format=Tournament.Format.CEROS, max_losses=1, final_phase_from_round=1)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    draw_publish(draw=live_draw(round_), public_value="1", witness=sim.juez, by=sim.organizer)
    matches = list(round_.matches.order_by("slot"))
    result_submit(match=matches[0], by=sim.organizer, outcome=Match.Outcome.DOUBLE_LOSS, games_a=2, games_b=2)
    for m in matches[1:]:
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=0)
    semis = round_prepare(tournament=sim.tournament, by=sim.organizer)
    from torneo.services.rounds import round_publish

    round_publish(round=semis, by=sim.organizer)
    exenta = semis.matches.get(slot=0)
    assert exenta.pair_b_id is None and exenta.pair_a_id == matches[1].pair_a_id
    assert exenta.outcome == Match.Outcome.BYE


def test_redraw_by_the_organizer_with_a_reason_keeps_the_old_draw_on_record():
    sim = new_tournament(9)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    first = live_draw(round_)
    draw_publish(draw=first, public_value="2", witness=sim.juez, by=sim.organizer)
    with pytest.raises(TournamentError, match="motivo"):
        draw_redraw(round=round_, reason=" ", by=sim.organizer)
    new = draw_redraw(round=round_, reason="Faltaba una pareja presente", by=sim.organizer)
    first.refresh_from_db()
    assert first.status == Draw.Status.SUPERSEDED and new.replaces == first and not round_.matches.exists()
    draw_publish(draw=new, public_value="3", witness=sim.juez, by=sim.organizer)
    match = round_.matches.exclude(pair_b=None).first()
    result_submit(match=match, by=sim.organizer, games_a=3, games_b=1)
    with pytest.raises(TournamentError, match="Ya hay resultados"):
        draw_redraw(round=round_, reason="otra vez", by=sim.organizer)


def test_fixed_tables_for_accessibility():
    sim = new_tournament(10, seed=1)
    pair = Pair.objects.filter(tournament=sim.tournament).order_by("number")[3]
    Pair.objects.filter(pk=pair.pk).update(fixed_table=1)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    draw_publish(draw=live_draw(round_), public_value="9", witness=sim.juez, by=sim.organizer)
    match = round_.matches.filter(pair_a=pair).first() or round_.matches.filter(pair_b=pair).first()
    assert match.table_number == 1 or match.pair_b_id is None
    tables = sorted(round_.matches.exclude(table_number=None).values_list("table_number", flat=True))
    assert tables == list(range(1, 6))


def test_draft_and_finished_tournaments_cannot_draw():
    sim = new_tournament(4, status=Tournament.Status.DRAFT)
    with pytest.raises(TournamentError, match="borrador"):
        round_prepare(tournament=sim.tournament, by=sim.organizer)


def test_nobody_checked_in():
    sim = new_tournament(4, checked_in=0)
    with pytest.raises(TournamentError, match="al menos dos parejas presentes"):
        round_prepare(tournament=sim.tournament, by=sim.organizer)


def test_late_pairs_never_enter_after_round_one():
    sim = new_tournament(6, seed=8, format=Tournament.Format.CEROS, max_losses=3)
    sim.play_round()
    late = make_pair(sim.tournament)
    from torneo.services.registrations import pair_check_in

    pair_check_in(pair=late)
    round_ = sim.play_round()
    assert late.pk not in appearances(round_)
