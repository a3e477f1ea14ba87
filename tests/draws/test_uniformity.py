"""Uniformity among the draws that tie on every priority, checked by chi-square on small cases.

Fixed seeds make every test deterministic; the thresholds are the 0.999 quantiles (with a margin),
so a correct sampler passes by a wide margin and a biased one (e.g. choosing the exenta's group
uniformly instead of by its number of optimal completions) fails by a wide margin.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.draws.reference import chi_square, chi_square_critical, chi_square_expected, optimal_draws
from torneo.draws import make_draw
from torneo.draws.bound import analyse
from torneo.draws.problem import build_problem
from torneo.draws.rng import DrawRandom
from torneo.draws.sampler import sample_optimal


def _groups(spec: str) -> dict[str, int]:
    """'abc|def|ghij' -> {a: 0, b: 0, c: 0, d: 1, ...}"""
    return {p: g for g, part in enumerate(spec.split("|")) for p in part}


SAMPLER_CASES = {
    # n even, three groups, two odd ones send one floater each.
    "floaters": ("abcdefghij", "ab de gh ad cf ij", "", "abc|def|ghij"),
    # n odd, two odd groups can host the exenta, with different numbers of eligible pairs.
    "two_odd_hosts": ("abcdefghi", "ac de gh be", "cefghi", "abc|def|ghi"),
    # n odd, a single odd group can host.
    "one_odd_host": ("abcdefghi", "ac de gh", "defghi", "abc|def|ghi"),
    # n odd, every eligible pair is in an even group: the exenta makes its group odd.
    "even_hosts": ("abcdefghi", "ab ef ch", "cdefgi", "abcd|efg|hi"),
    # no groups at all: every pair floats.
    "ungrouped": ("abcdefgh", "ab ac bc de fg ah", "", ""),
}


def _problem(pairs: str, history: str, byes: str, groups: str, seed: str = ""):
    return build_problem(
        list(pairs),
        history=[tuple(h) for h in history.split()],
        byes=list(byes),
        group=_groups(groups) if groups else None,
        seed=seed,
    )


@pytest.mark.parametrize("case", sorted(SAMPLER_CASES))
def test_sampler_is_uniform_over_all_optimal_draws(case):
    problem = _problem(*SAMPLER_CASES[case])
    structure = analyse(problem)
    best, optimal = optimal_draws(problem)
    assert structure.feasible
    assert best == structure.bound
    assert len(optimal) >= 6
    index = {pairing: i for i, pairing in enumerate(optimal)}
    counts = [0] * len(optimal)
    for i in range(200 * len(optimal)):
        found = sample_optimal(problem, structure, DrawRandom(f"{case}-{i}"), budget=10**6)
        assert found is not None
        counts[index[found]] += 1  # KeyError here would mean a non-optimal draw
    assert chi_square(counts) < chi_square_critical(len(optimal) - 1)


def test_sampler_gives_the_exenta_with_the_right_weights_amm_5_6():
    # Groups of 3, 5 and 5; eligible for the exenta: a (group of 3) and d, e, f, g (group of 5).
    # Which pair gets it must follow the number of optimal draws in which it has it, not be
    # uniform over groups or over eligible pairs.
    problem = _problem("abcdefghijklm", "ab de ij fk cl", "bchijklm", "abc|defgh|ijklm")
    structure = analyse(problem)
    best, optimal = optimal_draws(problem)
    assert best == structure.bound
    expected_counts = Counter(pairing.bye for pairing in optimal)
    expected = {bye: count / len(optimal) for bye, count in expected_counts.items()}
    assert len(expected) == 5
    counts: Counter[object] = Counter()
    for i in range(6000):
        found = sample_optimal(problem, structure, DrawRandom(f"exenta-{i}"), budget=10**6)
        assert found is not None
        counts[found.bye] += 1
    assert set(counts) <= set(expected)
    assert chi_square_expected(dict(counts), expected) < chi_square_critical(len(expected) - 1)


def test_exact_method_is_uniform_over_all_optimal_draws():
    pairs, history, byes = "abcdefg", "ab cd ef ag bc", "ab"
    problem = _problem(pairs, history, byes, "")
    _best, optimal = optimal_draws(problem)
    assert len(optimal) >= 20
    index = {
        tuple(sorted(map(frozenset, ((problem.ids[u], problem.ids[v]) for u, v in o.matches)))): i
        for i, o in enumerate(optimal)
    }
    counts = [0] * len(optimal)
    for i in range(150 * len(optimal)):
        draw = make_draw(list(pairs), history=[tuple(h) for h in history.split()], byes=list(byes), seed=f"e{i}")
        assert draw.method == "exact"
        counts[index[tuple(sorted(map(frozenset, draw.matches)))]] += 1
    assert chi_square(counts) < chi_square_critical(len(optimal) - 1)


def test_large_draw_gives_the_exenta_uniformly_among_the_eligible_amm_5_6():
    # 41 pairs, 38 already had an exenta: by symmetry each of the other 3 gets it a third of the time.
    ids = [f"p{i:02d}" for i in range(41)]
    eligible = ["p05", "p17", "p33"]
    byes = [p for p in ids if p not in eligible]
    counts = Counter(make_draw(ids, byes=byes, seed=f"g{i}").bye for i in range(900))
    assert set(counts) == set(eligible)
    assert chi_square([counts[p] for p in eligible]) < chi_square_critical(2)
