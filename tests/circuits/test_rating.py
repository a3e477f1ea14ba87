"""Player ratings, pure (circuits.rating, openskill's Plackett-Luce): no database."""

import pytest

from circuits.rating import Game, rate


def test_the_winners_rise_and_the_losers_fall():
    ratings = rate([Game(("ana", "bea"), ("cris", "dani"), "a")])
    assert ratings["ana"].mu > 25 > ratings["cris"].mu
    assert ratings["ana"].mu == ratings["bea"].mu and ratings["cris"].sigma < 25 / 3
    assert all(r.games == 1 for r in ratings.values())
    assert rate([]) == {}
    fresh = rate([Game(("x", "y"), ("z", "w"), "b")])
    assert fresh["z"].ordinal > fresh["x"].ordinal  # team b won


def test_a_pair_that_keeps_winning_climbs_above_one_that_keeps_losing():
    games = [Game(("ana", "bea"), (f"r{i}", f"s{i}"), "a") for i in range(10)]
    games += [Game(("cris", "dani"), (f"t{i}", f"u{i}"), "b") for i in range(10)]
    ratings = rate(games)
    assert ratings["ana"].ordinal > ratings["r0"].ordinal > ratings["cris"].ordinal
    assert ratings["ana"].games == 10 and ratings["ana"].sigma < ratings["r0"].sigma


def test_beating_a_strong_pair_is_worth_more_than_beating_a_weak_one():
    warmup = [Game(("fuerte", "fuerte2"), (f"w{i}", f"v{i}"), "a") for i in range(8)]
    warmup += [Game(("debil", "debil2"), (f"p{i}", f"q{i}"), "b") for i in range(8)]
    strong = rate([*warmup, Game(("ana", "bea"), ("fuerte", "fuerte2"), "a")])
    weak = rate([*warmup, Game(("ana", "bea"), ("debil", "debil2"), "a")])
    assert strong["ana"].mu > weak["ana"].mu


def test_a_trio_is_a_team_of_three_and_a_team_cannot_play_itself():
    ratings = rate([Game(("ana", "bea", "cris"), ("dani", "eva"), "a")])
    assert {p for p, r in ratings.items() if r.mu > 25} == {"ana", "bea", "cris"}
    with pytest.raises(ValueError, match="dos equipos distintos"):
        rate([Game(("ana", "bea"), ("bea", "cris"), "a")])
