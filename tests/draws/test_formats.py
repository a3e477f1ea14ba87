"""Every format over a full simulated tournament (stub results, no database)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from tests.draws.reference import optimal_draws
from torneo.draws import (
    DrawUserError,
    PairState,
    RepescaRules,
    allocate_liguillas,
    bracket_from_seeds,
    bracket_round,
    is_final_round,
    next_line,
    plan_ceros,
    plan_repesca,
    plan_swiss,
    pots_by_strength,
    round_robin,
    seed_positions,
    seeds_from_standings,
)
from torneo.draws.generator import DrawResult, solve
from torneo.draws.problem import build_problem, score


def _check_draw(draw: DrawResult, pairs: set, byes: list, history: list, group=None) -> None:
    """Every pair exactly once; AMM 5.6; and optimal against brute force on small fields."""
    drawn = [p for match in draw.matches for p in match] + ([draw.bye] if draw.bye is not None else [])
    assert sorted(drawn, key=str) == sorted(pairs, key=str)
    if draw.bye is not None:
        counts = Counter(b for b in byes if b in pairs)
        assert counts[draw.bye] == min(counts[p] for p in pairs)  # AMM 5.6
    if len(pairs) <= 9:
        inside = [h for h in history if h[0] in pairs and h[1] in pairs]
        problem = build_problem(
            pairs,
            history=inside,
            byes=[b for b in byes if b in pairs],
            group={p: g for p, g in (group or {}).items() if p in pairs},
            seed="ref",
        )
        best = optimal_draws(problem)[0]
        # AMM 5.7: the fewest rematches, then the fewest repeated meetings (``repeats``).
        assert (draw.rematches, draw.repeats, draw.cross_group) == (best.rematches, best.repeats, best.cross_group)


def _play(draw: DrawResult, rng: random.Random) -> list[tuple[object, object]]:
    """Random results: (winner, loser) for each match."""
    return [(a, b) if rng.random() < 0.5 else (b, a) for a, b in draw.matches]


@pytest.mark.parametrize(
    ("n", "max_losses", "same_losses"),
    [(13, 1, False), (30, 2, True), (47, 3, True), (64, 4, False), (11, 2, False)],
)
def test_ceros_full_tournament(n, max_losses, same_losses):
    rng = random.Random(n * 10 + max_losses)
    states = {p: PairState(p) for p in range(1, n + 1)}
    history: list[tuple[int, int]] = []
    byes: list[int] = []
    for round_number in range(1, 10 * n):
        plan = plan_ceros(
            list(states.values()),
            round_number=round_number,
            max_losses=max_losses,
            same_losses=same_losses,
            history=history,
            byes=byes,
        )
        alive = {p for p, s in states.items() if s.losses < max_losses}
        if not plan.requests:
            assert plan.decided == {"": next(iter(alive))}
            break
        (request,) = plan.requests
        draw = plan.draw(f"ceros/{round_number}")[""]
        _check_draw(draw, alive, byes, history, request.group)
        if draw.bye is not None:
            byes.append(draw.bye)
        for winner, loser in _play(draw, rng):
            states[loser] = replace(states[loser], losses=states[loser].losses + 1)
            history.append((winner, loser))
    else:
        pytest.fail("the tournament never ended")
    assert sum(1 for s in states.values() if s.losses < max_losses) == 1


def test_ceros_same_losses_keeps_equal_losses_together():
    states = [PairState(p, losses=0 if p < 10 else 1) for p in range(20)]
    plan = plan_ceros(states, round_number=3, max_losses=2, same_losses=True)
    draw = plan.draw("x")[""]
    assert draw.cross_group == 0
    assert all((a < 10) == (b < 10) for a, b in draw.matches)


@pytest.mark.parametrize("reentry", [None, 4])
def test_repesca_full_tournament(reentry):
    rules = RepescaRules(until_round=2, max_losses=1, pool_b_max_losses=2, reentry_round=reentry)
    rng = random.Random(7)
    n = 37
    states = {p: PairState(f"p{p}") for p in range(n)}
    by_id = {s.pair: k for k, s in states.items()}
    history: list[tuple[str, str]] = []
    byes: list[str] = []
    winners: dict[str, str] = {}
    for round_number in range(1, 60):
        plan = plan_repesca(
            [states[k] for k in states], round_number=round_number, rules=rules, history=history, byes=byes
        )
        winners.update(plan.decided)
        if not plan.requests:
            break
        draws = plan.draw(f"repesca/{round_number}")
        labels = [r.label for r in plan.requests]
        assert len(set(labels)) == len(labels)
        seen: set[str] = set()
        for request in plan.requests:
            draw = draws[request.label]
            members = set(request.pairs)
            assert not members & seen
            seen |= members
            for pair in members:
                state = states[by_id[pair]]
                assert rules.alive(state)
                if request.label == "B":
                    assert state.first_loss_round is not None
                    assert state.first_loss_round <= 2
            _check_draw(draw, members, byes, history)
            if draw.bye is not None:
                byes.append(draw.bye)
            for winner, loser in _play(draw, rng):
                k = by_id[loser]
                states[k] = replace(
                    states[k],
                    losses=states[k].losses + 1,
                    first_loss_round=states[k].first_loss_round or round_number,
                )
                history.append((winner, loser))
    else:
        pytest.fail("the tournament never ended")
    if reentry is None:
        assert set(winners) == {"A", "B"}
        assert winners["A"] != winners["B"]
    else:
        assert set(winners) == {"A"}


def test_repesca_moves_early_losers_to_pool_b():
    rules = RepescaRules(until_round=1)
    states = [
        PairState("a"),
        PairState("b"),
        PairState("c", losses=1, first_loss_round=1),
        PairState("d", losses=1, first_loss_round=1),
        PairState("e", losses=1, first_loss_round=2),
    ]
    plan = plan_repesca(states, round_number=2, rules=rules)
    pools = {r.label: set(r.pairs) for r in plan.requests}
    assert pools == {"A": {"a", "b"}, "B": {"c", "d"}}  # e lost after the repesca rounds: out
    assert plan.requests[0].seed_for("s") != plan.requests[1].seed_for("s")


@pytest.mark.parametrize("n", [24, 25])
def test_swiss_full_tournament(n):
    rng = random.Random(n)
    states = {p: PairState(p) for p in range(n)}
    history: list[tuple[int, int]] = []
    byes: list[int] = []
    rounds = 7
    for round_number in range(1, rounds + 1):
        plan = plan_swiss(list(states.values()), round_number=round_number, rounds=rounds, history=history, byes=byes)
        (request,) = plan.requests
        assert request.group == {p: s.score for p, s in states.items()}
        draw = plan.draw(f"suizo/{round_number}")[""]
        _check_draw(draw, set(states), byes, history)
        assert draw.rematches == 0  # AMM 5.7: with 24 pairs and 7 rounds, always possible
        problem = build_problem(
            request.pairs, history=request.history, byes=request.byes, group=request.group, seed="bound"
        )
        from torneo.draws.bound import analyse

        structure = analyse(problem)
        assert draw.cross_group >= structure.bound.cross_group
        if draw.method != "matching":
            assert draw.cross_group == structure.bound.cross_group
        if draw.bye is not None:
            byes.append(draw.bye)
            states[draw.bye] = replace(states[draw.bye], score=states[draw.bye].score + 1)
        for winner, loser in _play(draw, rng):
            states[winner] = replace(states[winner], score=states[winner].score + 1)
            history.append((winner, loser))
    with pytest.raises(DrawUserError):
        plan_swiss(list(states.values()), round_number=rounds + 1, rounds=rounds)


def test_groups_then_bracket_full_tournament():
    rng = random.Random(22)
    pairs = [f"p{i:02d}" for i in range(22)]
    groups = allocate_liguillas(pairs, group_count=4, seed="liguillas")
    assert sorted(len(g) for g in groups) == [5, 5, 6, 6]
    assert sorted(p for g in groups for p in g) == pairs
    assert allocate_liguillas(list(reversed(pairs)), group_count=4, seed="liguillas") == groups
    byes: list[str] = []
    standings: list[list[str]] = []
    for members in groups:
        wins = Counter(dict.fromkeys(members, 0))
        met: Counter[frozenset] = Counter()
        group_byes: Counter[str] = Counter()
        for rr_round in round_robin(members):
            in_round = [p for m in rr_round.matches for p in m] + ([rr_round.bye] if rr_round.bye else [])
            assert sorted(in_round) == sorted(members)
            if rr_round.bye is not None:
                # AMM 5.6: nobody gets a second exenta while a pair of the group has none.
                assert group_byes[rr_round.bye] == min(group_byes[p] for p in members)
                group_byes[rr_round.bye] += 1
                byes.append(rr_round.bye)
            for a, b in rr_round.matches:
                met[frozenset((a, b))] += 1
                wins[a if rng.random() < 0.5 else b] += 1
        assert all(met[frozenset((a, b))] == 1 for a in members for b in members if a < b)
        if len(members) % 2:
            assert all(group_byes[p] == 1 for p in members)
        standings.append(sorted(members, key=lambda p: (-wins[p], p)))

    seeding = seeds_from_standings(standings, qualifiers=2)
    line = bracket_from_seeds(seeding.seeds, tiers=seeding.tiers, group=seeding.group, byes=byes)
    assert len(line) == 8
    assert None not in line
    first = bracket_round(line)
    assert all(seeding.group[a] != seeding.group[b] for a, b in first.matches)
    champion = _play_bracket(line, rng, byes)
    assert champion in seeding.seeds

    # 3 qualifiers from 4 groups: 12 entrants, 4 empty seats; AMM 5.6 decides who faces them.
    seeding = seeds_from_standings(standings, qualifiers=3)
    line = bracket_from_seeds(seeding.seeds, tiers=seeding.tiers, group=seeding.group, byes=byes)
    first = bracket_round(line)
    assert len(first.byes) == 4
    had = Counter(byes)
    with_bye = {had[p] for p in first.byes}
    without = {had[p] for p, _b in first.matches} | {had[b] for _p, b in first.matches if b is not None}
    assert max(with_bye) <= min(without)
    assert _play_bracket(line, rng, byes) in seeding.seeds


def _play_bracket(line, rng: random.Random, byes: list) -> object:
    current = tuple(line)
    while len([p for p in current if p is not None]) > 1:
        round_ = bracket_round(current, byes=byes)
        byes.extend(p for p in round_.byes if len(current) % 2)
        winners = [a if rng.random() < 0.5 else b for a, b in round_.matches]
        current = next_line(round_, winners)
    return current[0]


def test_final_rounds_fixed_bracket_and_flag_amm_5_8_d():
    # From the marked round on the survivors play a fixed bracket, and the round is final (no
    # suplentes, AMM 5.8.d).
    assert is_final_round(5, 4)
    assert is_final_round(4, 4)
    assert not is_final_round(3, 4)
    assert not is_final_round(9, None)
    states = [PairState(p, losses=0) for p in "abcdef"]
    assert plan_ceros(states, round_number=4, max_losses=2, final_from_round=4).is_final
    ranking = ["a", "b", "c", "d", "e", "f"]
    line = bracket_from_seeds(ranking)
    assert line == ("a", None, "d", "e", "b", None, "c", "f")
    first = bracket_round(line)
    assert first.byes == ("a", "b")
    second = next_line(first, ["e", "c"])
    assert second == ("a", "e", "b", "c")
    assert bracket_round(second).matches == (("a", "e"), ("b", "c"))


def test_odd_fixed_bracket_gives_the_exenta_by_the_rule_amm_5_6():
    line = ("a", "b", "c", "d", "e")
    round_ = bracket_round(line, byes=["a", "b"])
    assert round_.byes == ("c",)
    assert round_.matches == (("a", "b"), ("d", "e"))
    assert bracket_round(line).byes == ("a",)  # nobody had one: the best seed
    winners = next_line(round_, ["b", "e"])
    assert winners == ("b", "c", "e")


def test_bracket_helpers_and_errors():
    assert seed_positions(2) == (1, 2)
    assert seed_positions(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    with pytest.raises(DrawUserError):
        seed_positions(6)
    with pytest.raises(DrawUserError):
        bracket_from_seeds(["a"])
    with pytest.raises(DrawUserError):
        bracket_from_seeds(["a", "a"])
    round_ = bracket_round(("a", "b"))
    with pytest.raises(DrawUserError, match="exactamente un ganador"):
        next_line(round_, [])
    with pytest.raises(DrawUserError):
        bracket_round(("a", None))
    with pytest.raises(DrawUserError):
        allocate_liguillas(["a", "b", "c"], group_count=2, seed="x")
    with pytest.raises(DrawUserError):
        round_robin(["a"])
    with pytest.raises(DrawUserError):
        seeds_from_standings([["a", "b"], ["c"]], qualifiers=2)
    with pytest.raises(DrawUserError):
        plan_ceros([PairState("a"), PairState("a")], round_number=1, max_losses=1)
    with pytest.raises(DrawUserError):
        plan_ceros([PairState("a")], round_number=1, max_losses=0)
    with pytest.raises(DrawUserError):
        plan_repesca([], round_number=1, rules=RepescaRules(until_round=2, reentry_round=2))


def test_request_publishes_the_exact_command_input():
    states = [PairState(p, losses=p % 2) for p in range(7)]
    plan = plan_ceros(states, round_number=2, max_losses=2, same_losses=True, history=[(0, 1), (0, 99)], byes=[3, 99])
    (request,) = plan.requests
    data = request.as_json("semilla")
    assert data == {
        "seed": "semilla",
        "pairs": list(range(7)),
        "history": [[0, 1]],
        "byes": [3],
        "group": {p: p % 2 for p in range(7)},
    }
    pairing, _ = solve(
        build_problem(data["pairs"], history=data["history"], byes=data["byes"], group=data["group"], seed=data["seed"])
    )
    assert score(build_problem(data["pairs"], seed="s"), pairing).bye_tier == 0


def test_liguilla_members_from_the_first_round_with_its_exentas() -> None:
    from torneo.draws import liguilla_members

    first = [("2", 7, 3), ("1", 5, None), ("10", 1, 2), ("1", 4, 6), ("2", 8, None)]
    assert liguilla_members(first) == {"1": [4, 5, 6], "2": [3, 7, 8], "10": [1, 2]}


def test_liguillas_seeded_by_pots_get_one_pair_of_each_full_pot_drawn_within_it() -> None:
    strength = {p: float(100 - p) for p in range(1, 15)}  # pair 1 strongest
    pots = pots_by_strength(strength, 4)
    assert pots == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14]]
    seen: set[tuple[tuple[int, ...], ...]] = set()
    for k in range(40):
        groups = allocate_liguillas(list(range(1, 15)), group_count=4, seed=f"s{k}", pots=pots)
        assert sorted(p for g in groups for p in g) == list(range(1, 15))
        for pot in pots[:3]:
            assert sorted(len(set(g) & set(pot)) for g in groups) == [1, 1, 1, 1]  # the strongest apart
        assert [len(g) for g in groups] == [4, 4, 3, 3]  # the last pot's pairs to the first liguillas
        seen.add(groups)
    assert len(seen) > 30  # drawn within the pots: not the same liguillas every time
    # The same seed and pots give the same liguillas, whatever order the pots list their pairs in.
    shuffled = [list(reversed(pot)) for pot in pots]
    assert allocate_liguillas(list(range(1, 15)), group_count=4, seed="s1", pots=shuffled) == allocate_liguillas(
        list(range(1, 15)), group_count=4, seed="s1", pots=pots
    )


def test_equal_strengths_fill_the_pots_in_pair_order_and_bad_pots_are_refused() -> None:
    assert pots_by_strength({3: 0.0, 1: 0.0, 2: 5.0, 4: 0.0}, 2) == [[2, 1], [3, 4]]
    with pytest.raises(DrawUserError, match="«3» aparece dos veces"):
        allocate_liguillas([1, 2, 3, 4], group_count=2, seed="x", pots=[[1, 2], [3, 3]])
    with pytest.raises(DrawUserError, match="exactamente una vez"):
        allocate_liguillas([1, 2, 3, 4], group_count=2, seed="x", pots=[[1, 2], [3, 5]])
    with pytest.raises(DrawUserError, match="exactamente una vez"):
        allocate_liguillas([1, 2, 3, 4], group_count=2, seed="x", pots=[[1, 2], [3]])
    with pytest.raises(DrawUserError, match="Cada bombo"):
        allocate_liguillas([1, 2, 3, 4, 5], group_count=2, seed="x", pots=[[1, 2, 3], [4, 5]])
