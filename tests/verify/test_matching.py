"""The verifier's fewest-rematches bound for pools of any size (verify/matching.py, Edmonds'
maximum matching): equal to an exhaustive search on small pools, to the site's optimal draws on
large ones, and it catches an avoidable rematch in a pool of 40 pairs (AMM 5.6, 5.7)."""

import functools
import random

import pytest

from torneo.draws import make_draw
from verify.checks import check_draw, commitment, derive_seed
from verify.matching import fewest_rematches, maximum_matching


def exhaustive(pairs: list[int], met: set[frozenset[int]], allowed: list[int]) -> int:
    """Every draw: every exenta allowed, every way to pair the rest."""

    @functools.cache
    def best(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        return min((frozenset((first, o)) in met) + best(others[:k] + others[k + 1 :]) for k, o in enumerate(others))

    if len(pairs) % 2 == 0:
        return best(tuple(pairs))
    return min(best(tuple(p for p in pairs if p != b)) for b in allowed)


def history(pairs: list[int], rounds: int, rng: random.Random) -> set[frozenset[int]]:
    met: set[frozenset[int]] = set()
    for _ in range(rounds):
        order = pairs[:]
        rng.shuffle(order)
        met |= {frozenset(order[k : k + 2]) for k in range(0, len(order) - 1, 2)}
    return met


@pytest.mark.parametrize("case", range(80))
def test_the_fewest_rematches_equal_an_exhaustive_search_on_small_pools_amm_5_7(case: int) -> None:
    rng = random.Random(case)
    n = rng.randint(2, 13)
    pairs = list(range(1, n + 1))
    met = history(pairs, rng.randint(0, n), rng)
    allowed = [p for p in pairs if rng.random() < 0.4] or [pairs[-1]]
    assert fewest_rematches(pairs, met, allowed) == exhaustive(pairs, met, allowed)


@pytest.mark.parametrize(("n", "rounds"), [(24, 20), (31, 28), (40, 10), (57, 50), (64, 60)])
def test_large_pools_agree_with_the_sites_optimal_draws_amm_5_7(n: int, rounds: int) -> None:
    rng = random.Random(n)
    pairs = list(range(1, n + 1))
    met = history(pairs, rounds, rng)
    byes = [p for p in pairs if rng.random() < 0.5]
    draw = make_draw(pairs, history=[sorted(m) for m in met], byes=byes, seed=f"s{n}")
    had = {p: byes.count(p) for p in pairs}
    allowed = [p for p in pairs if had[p] == min(had.values())]
    assert fewest_rematches(pairs, met, allowed) == draw.rematches


def test_a_matching_with_a_blossom_is_found() -> None:
    # A triangle 0-1-2 with a tail 2-3 and 0-4: the maximum matching has two edges.
    edges = {0: [1, 2, 4], 1: [0, 2], 2: [0, 1, 3], 3: [2], 4: [0]}
    mate = maximum_matching(5, lambda v: edges[v])
    assert sum(1 for v in mate if v >= 0) == 4
    assert all(mate[mate[v]] == v for v in range(5) if mate[v] >= 0)


def test_an_avoidable_rematch_in_a_pool_of_40_is_caught_amm_5_7() -> None:
    pairs = list(range(1, 41))
    met = history(pairs, 3, random.Random(7))
    secret, public = "secreto", "123"
    seed = derive_seed(secret, public)
    request = {"label": "", "pairs": pairs, "history": [sorted(m) for m in met], "byes": []}
    result = make_draw(pairs, history=request["history"], seed=seed).as_json()
    assert result["rematches"] == 0
    draw = {
        "estado": "published",
        "compromiso": commitment(secret),
        "secreto": secret,
        "valor_publico": public,
        "semilla": seed,
        "entrada": [request],
        "salida": {"": result},
    }
    assert any(f.article == "5.7" and f.ok and "mínimo posible es 0" in f.what for f in check_draw(2, draw))
    a, b = sorted(next(iter(met)))
    rest = [p for p in pairs if p not in (a, b)]
    result["matches"] = [[a, b]] + [rest[k : k + 2] for k in range(0, len(rest), 2)]
    assert any(f.article == "5.7" and not f.ok for f in check_draw(2, draw))
