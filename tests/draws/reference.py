"""Brute-force references for the draw tests: every draw enumerated, no cleverness at all."""

from __future__ import annotations

from collections.abc import Iterator

from torneo.draws.problem import Pairing, Problem, Score, score


def all_matchings(vertices: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of an even-sized vertex list."""
    if not vertices:
        yield []
        return
    first, rest = vertices[0], vertices[1:]
    for k, partner in enumerate(rest):
        for tail in all_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *tail]


def all_draws(problem: Problem) -> Iterator[Pairing]:
    """Every complete draw: all perfect matchings, with each possible exenta when n is odd."""
    everyone = list(range(problem.n))
    if problem.n % 2 == 0:
        for matching in all_matchings(everyone):
            yield Pairing.of(matching, None)
        return
    for bye in everyone:
        for matching in all_matchings([v for v in everyone if v != bye]):
            yield Pairing.of(matching, bye)


def optimal_draws(problem: Problem) -> tuple[Score, list[Pairing]]:
    """The best score (lexicographic priorities) and every draw that reaches it."""
    best: Score | None = None
    found: list[Pairing] = []
    for pairing in all_draws(problem):
        current = score(problem, pairing)
        if best is None or current < best:
            best, found = current, [pairing]
        elif current == best:
            found.append(pairing)
    assert best is not None
    return best, found


def chi_square(counts: list[int]) -> float:
    """Pearson's statistic against the uniform distribution over ``len(counts)`` cells."""
    total = sum(counts)
    expected = total / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def chi_square_critical(df: int) -> float:
    """An upper bound on the 0.999 quantile of chi-square with ``df`` degrees of freedom.

    Wilson–Hilferty with z = 3.09 (p = 0.001), plus a small margin; the tests use fixed seeds, so
    this threshold only has to be sensible, not tight: a biased sampler overshoots it by far.
    """
    z = 3.09
    return 1.05 * df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3 + 2


def chi_square_expected(counts: dict[object, int], expected: dict[object, float]) -> float:
    """Pearson's statistic of ``counts`` against expected probabilities (same keys)."""
    total = sum(counts.values())
    return sum((counts.get(k, 0) - total * p) ** 2 / (total * p) for k, p in expected.items())
