"""Brute-force references for the draw tests: every draw enumerated, no cleverness at all."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from torneo.draws.problem import Pairing, Problem, Score, score


def all_matchings(vertices: list[Any]) -> Iterator[list[tuple[Any, Any]]]:
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


def meeting_key(
    pairs: list[Any],
    history: list[tuple[Any, Any]],
    byes: list[Any],
    group: dict[Any, Any],
    matches: list[tuple[Any, Any]],
    bye: Any,
) -> tuple[int, tuple[int, ...], int]:
    """The priorities of a draw computed straight from the raw input, independently of ``score``.

    (exentas of the bye above the fewest (AMM 5.6); ``(r_1, ..., r_K)`` with ``r_k`` the matches
    whose pairs already met at least k times, K the most times two pairs of the draw met
    (AMM 5.7); cross-group matches), compared lexicographically.
    """
    inside = set(pairs)
    times = Counter(frozenset(h) for h in history if h[0] in inside and h[1] in inside)
    depth = max(times.values(), default=0)
    counts = [times[frozenset(m)] for m in matches]
    vector = tuple(sum(1 for c in counts if c >= k) for k in range(1, depth + 1))
    had = Counter(b for b in byes if b in inside)
    tier = had[bye] - min(had[p] for p in pairs) if bye is not None else 0
    cross = sum(1 for a, b in matches if a not in group or b not in group or group[a] != group[b])
    return tier, vector, cross


def brute_force_best(
    pairs: list[Any], history: list[tuple[Any, Any]], byes: list[Any], group: dict[Any, Any]
) -> tuple[tuple[int, tuple[int, ...], int], set[tuple[frozenset[frozenset[Any]], Any]]]:
    """The best ``meeting_key`` over every draw (all perfect matchings, every exenta), and the
    draws reaching it as (set of matches, bye)."""
    best: tuple[int, tuple[int, ...], int] | None = None
    found: set[tuple[frozenset[frozenset[Any]], Any]] = set()
    byes_to_try: list[Any] = list(pairs) if len(pairs) % 2 else [None]
    for bye in byes_to_try:
        for matching in all_matchings([p for p in pairs if p != bye]):
            key = meeting_key(pairs, history, byes, group, matching, bye)
            draw = (frozenset(frozenset(m) for m in matching), bye)
            if best is None or key < best:
                best, found = key, {draw}
            elif key == best:
                found.add(draw)
    assert best is not None
    return best, found
