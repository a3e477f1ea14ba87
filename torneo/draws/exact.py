"""Small draws, solved exactly: the optimum *and* a uniformly random one among all optimal draws.

For up to ``EXACT_LIMIT`` vertices (pairs, plus one "exenta" vertex when the count is odd) the
perfect matchings are counted by dynamic programming over subsets: ``best(S)`` is the lowest cost
of a perfect matching of the set S and ``count(S)`` how many reach it (the lowest vertex of S is
matched with each other vertex in turn). A draw is then sampled by walking down from the full set,
choosing each next match with probability proportional to the number of optimal completions: every
optimal draw has exactly probability 1 / count(all). This is the tight regime (few pairs, many
previous meetings), where rejection sampling would be slow.
"""

from __future__ import annotations

from torneo.draws.problem import Pairing, Problem, rematch_costs
from torneo.draws.rng import DrawRandom

#: Vertices (pairs + the exenta vertex) up to which draws are enumerated exactly. Always matching
#: the lowest remaining vertex keeps the reachable subsets few: about 0.1 s of pure Python at 22.
EXACT_LIMIT = 22


def cost_matrix(problem: Problem) -> tuple[list[list[int]], int]:
    """Integer costs that encode the priorities in disjoint digit ranges: exenta ≫ rematches ≫ group.

    With ``m`` vertices a draw has at most m/2 matches, so in base ``m + 1`` each range outweighs
    every possible total of the ranges below: a cross-group match costs 1, a match between pairs
    that met c times costs ``rematch_costs`` (one digit per level of ``Score.repeats``, AMM 5.7),
    and an exenta tier costs the unit above all of them (AMM 5.6). Comparing the summed cost is
    comparing the priorities lexicographically. Returns the matrix (vertex ``n`` is the exenta when
    n is odd) and the vertex count m.
    """
    n = problem.n
    m = n + (n % 2)
    rematch, bye_unit = rematch_costs(problem, 1, m + 1)
    cost = [[0] * m for _ in range(m)]
    for u in range(n):
        for v in range(u + 1, n):
            # AMM 5.7: every rematch level outweighs any number of cross-group matches.
            c = rematch[problem.meeting_count(u, v)] + (0 if problem.same_group(u, v) else 1)
            cost[u][v] = cost[v][u] = c
        if m > n:
            # AMM 5.6: an exenta above the fewest outweighs everything else.
            cost[u][n] = cost[n][u] = bye_unit * problem.bye_tier(u)
    return cost, m


def exact_uniform_draw(problem: Problem, rng: DrawRandom) -> Pairing:
    """An optimal draw chosen uniformly among all optimal draws (needs ``m <= EXACT_LIMIT``)."""
    cost, m = cost_matrix(problem)
    memo: dict[int, tuple[int, int]] = {0: (0, 1)}

    def solve(mask: int) -> tuple[int, int]:
        found = memo.get(mask)
        if found is not None:
            return found
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        best = -1
        count = 0
        row = cost[i]
        bits = rest
        while bits:
            low = bits & -bits
            j = low.bit_length() - 1
            bits ^= low
            sub_cost, sub_count = solve(rest & ~low)
            c = row[j] + sub_cost
            if best < 0 or c < best:
                best, count = c, sub_count
            elif c == best:
                count += sub_count
        memo[mask] = (best, count)
        return best, count

    mask = (1 << m) - 1
    solve(mask)
    matches: list[tuple[int, int]] = []
    bye: int | None = None
    while mask:
        best, _count = memo[mask]
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        options: list[int] = []
        weights: list[int] = []
        for j in range(i + 1, m):
            if rest >> j & 1:
                sub_cost, sub_count = memo[rest & ~(1 << j)]
                if cost[i][j] + sub_cost == best:
                    options.append(j)
                    weights.append(sub_count)
        j = options[rng.weighted_index(weights)]
        if j >= problem.n:
            bye = i
        else:
            matches.append((i, j))
        mask = rest & ~(1 << j)
    return Pairing.of(matches, bye)
