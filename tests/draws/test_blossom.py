"""The weighted blossom algorithm against brute force (it is the exact fallback's engine)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from torneo.draws.blossom import max_weight_matching
from torneo.draws.errors import DrawFatalError


def brute_force(n: int, edges: list[tuple[int, int, int]]) -> int:
    weight = {}
    for i, j, w in edges:
        weight[(i, j)] = weight[(j, i)] = w
    best = 0

    def walk(free: tuple[int, ...], total: int) -> None:
        nonlocal best
        best = max(best, total)
        if not free:
            return
        first, rest = free[0], free[1:]
        walk(rest, total)
        for k, other in enumerate(rest):
            if (first, other) in weight:
                walk(rest[:k] + rest[k + 1 :], total + weight[(first, other)])

    walk(tuple(range(n)), 0)
    return best


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int]]]:
    n = draw(st.integers(0, 9))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    return n, [(i, j, draw(st.integers(0, 30))) for i, j in chosen]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(graphs())
def test_maximum_weight_against_brute_force(graph):
    n, edges = graph
    result = max_weight_matching(n, edges)
    weight = {(min(i, j), max(i, j)): w for i, j, w in edges}
    total = 0
    for v, u in enumerate(result.mate):
        if u != -1:
            assert result.mate[u] == v
            if v < u:
                total += weight[(v, u)]
    assert total == brute_force(n, edges)
    assert all(d >= 0 for d in result.dual)


def test_duals_certify_edges_outside_blossoms():
    # A path a-b-c-d with weights 2, 3, 2: the best matching is a-b + c-d (4), and every edge's
    # doubled dual sum covers twice its weight (no blossom here).
    result = max_weight_matching(4, [(0, 1, 2), (1, 2, 3), (2, 3, 2)])
    assert sorted(result.mate) == [0, 1, 2, 3]
    assert result.mate[0] == 1
    for i, j, w in [(0, 1, 2), (1, 2, 3), (2, 3, 2)]:
        assert result.dual[i] + result.dual[j] >= 2 * w


def test_bad_edges_are_fatal():
    with pytest.raises(DrawFatalError):
        max_weight_matching(2, [(0, 0, 1)])
    with pytest.raises(DrawFatalError):
        max_weight_matching(2, [(0, 5, 1)])
    assert max_weight_matching(3, []).mate == (-1, -1, -1)
