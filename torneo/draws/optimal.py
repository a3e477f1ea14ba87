"""The exact fallback: a maximum-weight perfect matching with priority-encoded integer weights.

As bbpPairings does for FIDE's rules, each priority gets its own range of bits in one integer
weight, so that maximising the total weight is optimising the priorities lexicographically:

    cost = tier * L_BYE + Σ_{j : c_j ≤ c} L_REM_j + cross * L_CROSS + tie
    weight = K - cost

with ``tie < TIE`` a random tie-break, ``L_CROSS = TIE * (m + 1)`` (more than all tie-breaks of a
draw together), c the times the two pairs already met, c_1 < ... < c_L the distinct such counts in
the draw (``Problem.repeat_levels``), ``L_REM_j = L_CROSS * (m + 1)**(L - j + 1)`` (one range per
level of ``Score.repeats``, AMM 5.7; see ``problem.rematch_costs``), ``L_BYE = L_CROSS *
(m + 1)**(L + 1)``, and ``K`` larger than m/2 times the largest cost, so that every maximum-weight
matching is perfect. Exact Python integers, however many levels. An odd number of pairs gets one
extra vertex, the exenta, joined to every pair with cost ``tier * L_BYE`` (AMM 5.6).

Up to ``FULL_LIMIT`` vertices the whole graph goes to the blossom algorithm. Above it, the graph is
too large for pure Python (2,048 pairs are two million edges), so the algorithm runs on a sparse
candidate graph and the result is *certified* on the full graph: the blossom algorithm's dual
variables ``y`` bound every edge it saw; any edge it did not see with ``y[u] + y[v] >= 2 w(u, v)``
cannot improve the matching (LP duality; blossom duals are non-negative, so leaving them out only
makes the test stricter). Edges that fail the test are added and the matching is recomputed, until
the certificate covers the whole graph. The test needs no loop over all pairs: the weight of a pair
that never met depends only on "same group?", so per group the pairs are kept sorted by ``y``; the
pairs that met (with weights by their meeting count) are checked one by one.
"""

from __future__ import annotations

from torneo.draws.blossom import Edge, max_weight_matching
from torneo.draws.errors import DrawFatalError
from torneo.draws.problem import Pairing, Problem, rematch_costs
from torneo.draws.rng import DrawRandom

#: Up to this many vertices the blossom algorithm gets the complete graph.
FULL_LIMIT = 120
TIE = 1 << 16
#: Candidate partners per pair in the sparse graph (same group, and anywhere).
SPARSE_SAME = 6
SPARSE_ANY = 4
#: Violated edges added per pair and per certificate round.
ADD_PER_PAIR = 3


class _Weights:
    def __init__(self, problem: Problem, m: int, with_ties: bool) -> None:
        self.problem = problem
        self.tie_range = TIE if with_ties else 1
        self.l_cross = self.tie_range * (m + 1)
        # AMM 5.7: one range per level of ``Score.repeats``, all above the cross-group range.
        self.rematch, self.l_bye = rematch_costs(problem, self.l_cross, m + 1)
        max_tier = max(problem.bye_tier(v) for v in range(problem.n))
        max_cost = self.l_bye * max_tier + max(self.rematch.values()) + self.l_cross + self.tie_range
        self.k = max_cost * (m // 2 + 1) + 1

    def pair(self, u: int, v: int, tie: int = 0) -> int:
        p = self.problem
        # AMM 5.7: the rematch bits sit above every cross-group and tie-break bit.
        cost = self.rematch[p.meeting_count(u, v)] + (0 if p.group[u] == p.group[v] else self.l_cross)
        return self.k - cost - tie

    def bye(self, v: int, tie: int = 0) -> int:
        # AMM 5.6: the exenta-tier bits sit above everything else.
        return self.k - self.l_bye * self.problem.bye_tier(v) - tie


def optimal_draw(problem: Problem, rng: DrawRandom, *, full_limit: int = FULL_LIMIT) -> Pairing:
    """An optimal draw, by maximum-weight matching (random among ties, but not uniformly).

    ``full_limit``: above this many vertices, the sparse graph with a certificate is used.
    """
    n = problem.n
    m = n + (n % 2)
    # A random numbering of the vertices: the blossom algorithm's own tie-breaking then follows it.
    position = list(range(m))
    rng.shuffle(position)
    mate = _full(problem, rng, m, position) if m <= full_limit else _sparse(problem, rng, m, position)
    matches: list[tuple[int, int]] = []
    bye: int | None = None
    for v in range(n):
        u = mate[v]
        if u == -1:
            raise DrawFatalError("the matching left a pair without a match")
        if u == n:
            bye = v
        elif v < u:
            matches.append((v, u))
    return Pairing.of(matches, bye)


def _solve(m: int, position: list[int], edges: list[Edge]) -> tuple[list[int], list[int]]:
    """Run the blossom algorithm on relabelled vertices; mate and doubled duals in our numbering."""
    relabelled = [(position[u], position[v], w) for u, v, w in edges]
    result = max_weight_matching(m, relabelled)
    back = [0] * m
    for v, p in enumerate(position):
        back[p] = v
    mate = [-1] * m
    dual = [0] * m
    for v in range(m):
        p = result.mate[position[v]]
        mate[v] = back[p] if p != -1 else -1
        dual[v] = result.dual[position[v]]
    return mate, dual


def _full(problem: Problem, rng: DrawRandom, m: int, position: list[int]) -> list[int]:
    n = problem.n
    weights = _Weights(problem, m, with_ties=True)
    edges: list[Edge] = []
    for u in range(n):
        for v in range(u + 1, n):
            edges.append((u, v, weights.pair(u, v, rng.below(TIE))))
        if m > n:
            edges.append((u, n, weights.bye(u, rng.below(TIE))))
    mate, _dual = _solve(m, position, edges)
    return mate


def _sparse(problem: Problem, rng: DrawRandom, m: int, position: list[int]) -> list[int]:
    n = problem.n
    weights = _Weights(problem, m, with_ties=False)
    groups = problem.groups()
    candidates: list[set[int]] = [set() for _ in range(n)]

    def add(u: int, v: int) -> None:
        candidates[u].add(v)
        candidates[v].add(u)

    # A perfect matching is always among the candidates (so the optimum is perfect).
    order = list(range(n))
    rng.shuffle(order)
    for i in range(0, n - 1, 2):
        add(order[i], order[i + 1])
    for v in range(n):
        members = groups[problem.group[v]]
        for _ in range(SPARSE_SAME if len(members) > 1 else 0):
            u = members[rng.below(len(members))]
            if u != v and u not in problem.met[v]:
                add(u, v)
        for _ in range(SPARSE_ANY):
            u = rng.below(n)
            if u != v and u not in problem.met[v]:
                add(u, v)
    if len(problem.repeat_levels) > 1:
        # AMM 5.7: when rematches are weighed by level, a few of each pair's least-met previous
        # opponents (saves certificate rounds when every partner is a rematch).
        for v in range(n):
            opponents = sorted(problem.met[v])
            if not opponents:
                continue
            fewest = min(problem.meeting_count(v, u) for u in opponents)
            least = [u for u in opponents if problem.meeting_count(v, u) == fewest]
            for _ in range(min(SPARSE_ANY, len(least))):
                add(v, least[rng.below(len(least))])

    while True:
        edges: list[Edge] = [(u, v, weights.pair(u, v)) for u in range(n) for v in candidates[u] if u < v]
        if m > n:
            edges.extend((u, n, weights.bye(u)) for u in range(n))
        mate, dual = _solve(m, position, edges)
        violations = _violations(problem, weights, groups, candidates, dual)
        if not violations:
            return mate
        for u, v in violations:
            add(u, v)


def _violations(
    problem: Problem,
    weights: _Weights,
    groups: tuple[tuple[int, ...], ...],
    candidates: list[set[int]],
    dual: list[int],
) -> list[tuple[int, int]]:
    """Edges outside the candidate graph that the duals do not cover (empty: the optimum is proven)."""
    n = problem.n
    by_group = [sorted(members, key=lambda v: dual[v]) for members in groups]
    group_order = sorted(range(len(groups)), key=lambda g: dual[by_group[g][0]])
    same_weight = weights.k
    cross_weight = weights.k - weights.l_cross
    found: list[tuple[int, int]] = []
    for v in range(n):
        excluded = candidates[v] | problem.met[v]
        mine = problem.group[v]
        added = 0
        need = 2 * same_weight - dual[v]
        for u in by_group[mine]:
            if u == v or u in excluded:
                continue
            if dual[u] >= need or added >= ADD_PER_PAIR:
                break
            found.append((v, u))
            added += 1
        need = 2 * cross_weight - dual[v]
        for g in group_order:
            if added >= ADD_PER_PAIR or dual[by_group[g][0]] >= need:
                break
            if g == mine:
                continue
            for u in by_group[g]:
                if u in excluded:
                    continue
                if dual[u] >= need or added >= ADD_PER_PAIR:
                    break
                found.append((v, u))
                added += 1
        for u in problem.met[v]:
            if u not in candidates[v] and dual[u] + dual[v] < 2 * weights.pair(u, v):
                found.append((v, u))
    return found
