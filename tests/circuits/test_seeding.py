"""Liguillas seeded by rating (issue 35, Tournament.seed_by_rating): the pairs go into bombos by
their players' ratings (circuits.ratings.pair_strengths, reached by the draw manager through an
AppConfig hook: torneo imports nothing of circuits); one of each full bombo per liguilla, drawn
within it (AMM 5.5); the bombos are frozen with the commitment, published, and checked by the
independent verifier."""

from typing import Any

import pytest

from circuits.models import PlayerRating
from circuits.ratings import pair_strengths
from records.build import tournament_record
from records.signing import signed
from tests.factories import UserFactory
from tests.torneo.simulation import new_tournament
from torneo.draws.manager import pair_strengths as strengths_for_the_draw
from torneo.models import Draw, Match, Pair, Tournament
from torneo.services.rounds import draw_publish, live_draw, round_prepare
from verify import verify_record

pytestmark = pytest.mark.django_db


def rate(pair: Pair, ordinal: float) -> None:
    """Give the pair's players an account each and a rating of ``ordinal`` (σ 1, so μ = ordinal + 3)."""
    for member in pair.ordered_members():
        user = UserFactory()
        member.player.user = user
        member.player.save()
        PlayerRating.objects.create(person=f"u:{user.pk}", user=user, mu=ordinal + 3, sigma=1.0, games=5)


def liguillas_of(sim: Any) -> list[set[int]]:
    groups: dict[str, set[int]] = {}
    for m in Match.objects.filter(round__tournament=sim.tournament, round__number=1):
        groups.setdefault(m.pool, set()).update(p.number for p in (m.pair_a, m.pair_b) if p is not None)
    return list(groups.values())


def test_the_strongest_pairs_by_rating_go_to_different_liguillas_drawn_within_their_bombo() -> None:
    sim = new_tournament(12, seed=31, format=Tournament.Format.LIGUILLAS, group_count=3, seed_by_rating=True)
    pairs = {p.number: p for p in Pair.objects.filter(tournament=sim.tournament)}
    for number, ordinal in ((12, 30.0), (7, 28.0), (3, 25.0), (9, 10.0)):
        rate(pairs[number], ordinal)
    assert strengths_for_the_draw(sim.tournament, [3, 7, 9, 12, 1]) == {3: 25.0, 7: 28.0, 9: 10.0, 12: 30.0, 1: 0.0}
    sim.play_round()
    draw = Draw.objects.get(round__tournament=sim.tournament, round__number=1)
    (request,) = draw.requests
    assert request["pots"][0] == [12, 7, 3] and request["pots"][1][0] == 9  # strongest first, unrated by number
    groups = liguillas_of(sim)
    assert len(groups) == 3
    assert all(len(group & {12, 7, 3}) == 1 for group in groups)
    record = signed(tournament_record(sim.tournament))
    findings = verify_record(record)
    assert [f.what for f in findings if not f.ok] == []
    assert any("bombos de 3" in f.what for f in findings)
    assert any("las liguillas son las que da la semilla" in f.what for f in findings)


def test_the_bombos_are_frozen_with_the_commitment_whatever_the_ratings_do_next_amm_5_5() -> None:
    sim = new_tournament(8, seed=32, format=Tournament.Format.LIGUILLAS, group_count=2, seed_by_rating=True)
    pairs = {p.number: p for p in Pair.objects.filter(tournament=sim.tournament)}
    rate(pairs[5], 20.0)
    rate(pairs[6], 19.0)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    frozen = live_draw(round_).requests[0]["pots"]
    assert frozen[0] == [5, 6]
    # Another tournament's result moves the ratings before the juez makes the draw: same bombos.
    PlayerRating.objects.filter(user__in=[m.player.user for m in pairs[6].ordered_members()]).update(mu=50.0)
    assert pair_strengths(sim.tournament, [5, 6])[6] > pair_strengths(sim.tournament, [5, 6])[5]
    draw_publish(draw=live_draw(round_), public_value="333", witness=sim.juez, by=sim.organizer)
    groups = liguillas_of(sim)
    assert all(len(group & {5, 6}) == 1 for group in groups)
    assert Draw.objects.get(round=round_, status=Draw.Status.PUBLISHED).requests[0]["pots"] == frozen


def test_without_the_option_the_liguillas_are_drawn_as_always() -> None:
    sim = new_tournament(8, seed=33, format=Tournament.Format.LIGUILLAS, group_count=2)
    sim.play_round()
    (request,) = Draw.objects.get(round__tournament=sim.tournament, round__number=1).requests
    assert "pots" not in request


def test_a_swiss_first_round_seeded_by_rating_draws_the_stronger_half_against_the_other() -> None:
    sim = new_tournament(9, seed=34, format=Tournament.Format.SWISS, swiss_rounds=3, seed_by_rating=True)
    pairs = {p.number: p for p in Pair.objects.filter(tournament=sim.tournament)}
    for number, ordinal in ((9, 30.0), (8, 20.0), (7, 10.0), (2, 5.0)):
        rate(pairs[number], ordinal)
    round_ = round_prepare(tournament=sim.tournament, by=sim.organizer)
    (request,) = live_draw(round_).requests
    assert request["top"] == [2, 7, 8, 9]  # the four strongest of nine
    # A rating that moves before the draw changes nothing: the half was frozen with the commitment.
    PlayerRating.objects.filter(user__in=[m.player.user for m in pairs[2].ordered_members()]).update(mu=-50.0)
    draw_publish(draw=live_draw(round_), public_value="4 2", witness=sim.juez, by=sim.organizer)
    matches = list(Match.objects.filter(round=round_).select_related("pair_a", "pair_b"))
    played = [m for m in matches if m.pair_b is not None]
    assert len(played) == 4
    assert all((m.pair_a.number in {2, 7, 8, 9}) != (m.pair_b.number in {2, 7, 8, 9}) for m in played)
    (bye,) = [m for m in matches if m.pair_b is None]
    assert bye.pair_a.number not in {2, 7, 8, 9}
    for match in Match.objects.filter(round=round_, outcome=Match.Outcome.PENDING).select_related("round__tournament"):
        sim.enter_result(match)
    sim.play_round()  # round 2 pairs by score, not by halves
    (second,) = Draw.objects.get(round__tournament=sim.tournament, round__number=2).requests
    assert "top" not in second
    findings = verify_record(signed(tournament_record(sim.tournament)))
    assert [f.what for f in findings if not f.ok] == []
    assert any("la mitad fuerte contra la otra mitad" in f.what for f in findings)
