"""The lower bound on a draw's cost, and the structure of the draws that meet it.

Lower bound (a relaxation, so no draw can beat it on the priorities, compared in order):

* exenta: tier 0, i.e. a pair with the fewest exentas (AMM 5.6) — always possible;
* rematches: none, so every level of ``Score.repeats`` is 0 (AMM 5.7);
* cross-group matches: in a draw without rematches, the matches inside a group g form a
  rematch-free matching of g, so at least ``def(g) = |g| - 2 ν(g)`` of its pairs play outside,
  where ν(g) is the size of a largest rematch-free matching inside g; each cross-group match serves
  two of them, so there are at least ``Σ def(g) / 2``; and since a group's outgoing pairs play other
  groups' pairs, at least ``max def(g)`` (see ``cross_bound``). The exenta leaves its group first;
  the bound takes the best eligible pair for it.

For a group large enough for Dirac's theorem (a graph on r vertices with minimum degree ≥ r/2 has a
perfect matching when r is even) ν is simply ⌊|g|/2⌋ and def(g) is the parity of |g|; smaller
groups are solved exactly with a maximum matching.

A draw that reaches the bound is optimal: it cannot be beaten on any priority. When every group's
deficiency is its parity (``parity_structure``), the draws that reach the bound are exactly those of
the structure the rejection sampler draws from (one floater per odd group, the exenta in a group
listed in ``odd_hosts``/``even_hosts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from torneo.draws.blossom import max_weight_matching
from torneo.draws.problem import Problem, Score, no_repeats


@dataclass(frozen=True)
class Structure:
    """What the bound says about a draw.

    ``groups``: members by group number. ``eligible``: pairs with the fewest exentas (AMM 5.6).
    ``deficiency``: def(g) of each group before the exenta. ``best_byes``: eligible pairs whose
    exenta reaches the bound. ``odd_hosts`` / ``even_hosts``: for the sampler, the groups that can
    hold the exenta in the parity structure. ``parity_structure``: every group's deficiency is its
    parity, and the exenta (if any) can go where the bound wants it. ``bound``: the lower bound.
    """

    groups: tuple[tuple[int, ...], ...]
    eligible: frozenset[int]
    deficiency: tuple[int, ...]
    best_byes: tuple[int, ...]
    odd_hosts: tuple[int, ...]
    even_hosts: tuple[int, ...]
    parity_structure: bool
    bound: Score

    @property
    def feasible(self) -> bool:
        """Whether the rejection sampler's structure can reach the bound."""
        return self.parity_structure


def max_clean_matching_pairs(problem: Problem, vertices: Sequence[int]) -> list[tuple[int, int]]:
    """A largest rematch-free matching among ``vertices`` (meant for small sets)."""
    local = list(vertices)
    edges = [(i, j, 1) for i, u in enumerate(local) for j in range(i + 1, len(local)) if local[j] not in problem.met[u]]
    result = max_weight_matching(len(local), edges)
    return [(local[i], local[j]) for i, j in enumerate(result.mate) if j > i]


def max_clean_matching(problem: Problem, vertices: Sequence[int]) -> int:
    """The size of a largest rematch-free matching among ``vertices``."""
    return len(max_clean_matching_pairs(problem, vertices))


def robust(problem: Problem, members: Sequence[int]) -> bool:
    """Dirac: with at most d previous opponents inside the group, r ≥ 2d + 2 remaining pairs always
    have a rematch-free perfect matching; ``+ 4`` covers up to two pairs taken out (exenta, floater).
    """
    inside = set(members)
    degree = max((len(problem.met[v] & inside) for v in members), default=0)
    return len(members) >= 2 * degree + 4


def deficiency(problem: Problem, members: Sequence[int], *, robust_group: bool | None = None) -> int:
    """def(g): how many pairs of ``members`` must play outside in a draw without rematches."""
    if robust_group is None:
        robust_group = robust(problem, members)
    if robust_group or len(members) < 2:
        return len(members) % 2
    return len(members) - 2 * max_clean_matching(problem, members)


def cross_bound(total_deficiency: int, largest_deficiency: int) -> int:
    """Fewest cross-group matches for these deficiencies: ``max(Σ def / 2, max def)``.

    Each group g sends out o(g) ≥ def(g) pairs, with the parity of |g| (the rest pair up inside),
    and a group's outgoing pairs all play pairs of *other* groups, so o(g) ≤ Σ o - o(g). When one
    group's deficiency is more than all the others' together, other groups must send out extra
    pairs (two at a time, for parity) until they match it: then the count is that deficiency.
    """
    return max(total_deficiency // 2, largest_deficiency)


def analyse(problem: Problem) -> Structure:
    """The lower bound and the structure of the draws that could meet it."""
    groups = problem.groups()
    eligible = frozenset(problem.eligible_for_bye())
    is_robust = [robust(problem, members) for members in groups]
    deficit = [deficiency(problem, members, robust_group=r) for members, r in zip(groups, is_robust, strict=True)]
    total = sum(deficit)
    parity = all(d == len(members) % 2 for d, members in zip(deficit, groups, strict=True))

    best_byes: list[int] = []
    odd_hosts: list[int] = []
    even_hosts: list[int] = []
    if problem.n % 2 == 0:
        cross = cross_bound(total, max(deficit))
    else:
        # The exenta takes b out of its group: that group's deficiency changes, the others' do not.
        order = sorted(range(len(groups)), key=lambda g: -deficit[g])
        top, second = order[0], (order[1] if len(order) > 1 else -1)
        value: dict[int, int] = {}
        change: dict[int, int] = {}
        for g, members in enumerate(groups):
            others_max = deficit[second] if g == top else deficit[top]
            if g == top and second == -1:
                others_max = 0
            for b in members:
                if b not in eligible:
                    continue
                if is_robust[g]:
                    after = (len(members) - 1) % 2
                else:
                    rest = [v for v in members if v != b]
                    after = deficiency(problem, rest, robust_group=False)
                change[b] = after - deficit[g]
                value[b] = cross_bound(total + change[b], max(after, others_max))
        cross = min(value.values())
        best_byes = sorted(b for b, v in value.items() if v == cross)
        best = min(change[b] for b in best_byes)
        hosts = sorted({problem.group[b] for b in best_byes})
        if parity:
            # In the parity structure the exenta makes an odd group even (best = -1) or, when no
            # eligible pair can do that, an even group odd (best = +1).
            # An odd group whose best exenta still leaves two floaters is not that structure.
            if best == -1:
                odd_hosts = hosts
            elif best == 1 and all(len(groups[g]) % 2 == 0 for g in hosts):
                even_hosts = hosts
            else:
                parity = False
    return Structure(
        groups=groups,
        eligible=eligible,
        deficiency=tuple(deficit),
        best_byes=tuple(best_byes),
        odd_hosts=tuple(odd_hosts),
        even_hosts=tuple(even_hosts),
        parity_structure=parity,
        bound=Score(0, no_repeats(problem), cross),
    )
