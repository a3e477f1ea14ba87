"""Exactly uniform sampling of optimal draws by rejection, for draws of any size.

The *structure* S of a draw is what the lower bound of ``torneo.draws.bound`` asks for when every
group's deficiency is its parity: the exenta goes to a pair with the fewest exentas (AMM 5.6), in
an odd group when such a pair exists; every group with an odd number of remaining pairs sends out
exactly one *floater*, every other pair plays inside its group, and the floaters play each other.
Every draw in S meets the bound on exentas and cross-group matches; the ones without rematches
(AMM 5.7) meet the whole bound and are therefore optimal, and when any exists, they are *all* the
optimal draws.

The sampler draws uniformly from S and keeps a draw only when it has no rematch; conditioned on
acceptance, the result is uniform over the optimal draws. Parts whose acceptance probability does
not depend on the rest are retried on their own (a group's inner matching, a group's choice of
floater and matching), which keeps the distribution exact (see docs/draws.md, "Uniformity"); a
rematch in a part that does depend on other choices (the floaters' matches, the host group of the
exenta) restarts the whole proposal. Work is counted (about one unit per random number): past
``budget`` units, or when a part is hopeless, the sampler gives up (returns None) at the same point
on every machine, and the generator falls back.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from torneo.draws.bound import Structure
from torneo.draws.problem import Pairing, Problem
from torneo.draws.rng import DrawRandom


class _OutOfBudget(Exception):
    pass


class _Restart(Exception):
    pass


class _Sampler:
    def __init__(self, problem: Problem, rng: DrawRandom, budget: int) -> None:
        self.problem = problem
        self.rng = rng
        self.budget = budget

    def charge(self, work: int) -> None:
        """Count work, in units of about one random number: the budget is deterministic."""
        self.budget -= work
        if self.budget < 0:
            raise _OutOfBudget

    def matching(self, vertices: Sequence[int]) -> list[tuple[int, int]] | None:
        """One uniform perfect matching proposal; None as soon as it holds a rematch.

        The first free position takes a uniformly chosen partner among the others still free: every
        perfect matching comes out with probability 1 / (k-1)!!. Stopping at the first rematch
        changes nothing for accepted proposals: the rest would have been drawn and rejected anyway.
        """
        arr = list(vertices)
        met = self.problem.met
        below = self.rng.below
        out: list[tuple[int, int]] = []
        size = len(arr)
        for i in range(0, size, 2):
            j = i + 1 + below(size - i - 1)
            arr[i + 1], arr[j] = arr[j], arr[i + 1]
            u, v = arr[i], arr[i + 1]
            if v in met[u]:  # AMM 5.7: a rematch rejects the proposal
                self.charge(1 + i // 2)
                return None
            out.append((u, v))
        self.charge(1 + size // 2)
        return out

    def clean_matching(self, vertices: Sequence[int]) -> list[tuple[int, int]]:
        """Uniform among the rematch-free perfect matchings of ``vertices`` (local rejection)."""
        while True:
            found = self.matching(vertices)
            if found is not None:
                return found

    def clean_config(self, group: Sequence[int]) -> tuple[int, list[tuple[int, int]]]:
        """Uniform among (special pair, rematch-free matching of the others) of an odd group."""
        while True:
            special = group[self.rng.below(len(group))]
            found = self.matching([v for v in group if v != special])
            if found is not None:
                return special, found

    def host_config_odd(
        self, group: Sequence[int], eligible: frozenset[int], single_host: bool
    ) -> tuple[int, list[tuple[int, int]]]:
        """The host group's (exenta, matching), accepted with probability H/N (see docs).

        A uniform clean configuration of the group is drawn by local rejection; it is kept when its
        special pair is eligible for the exenta, and otherwise the *whole* proposal restarts. With a
        single possible host a restart is the same as a retry, so the matching need not be drawn to
        know it.
        """
        while True:
            self.charge(1)
            special = group[self.rng.below(len(group))]
            if special not in eligible and single_host:
                continue
            found = self.matching([v for v in group if v != special])
            if found is None:
                continue
            if special in eligible:  # AMM 5.6: only a pair with the fewest exentas
                return special, found
            raise _Restart

    def run(self, structure: Structure) -> Pairing:
        groups = structure.groups
        eligible = structure.eligible
        # Pairs alone in their group always float: fixed, nothing to draw for them.
        singles = [(g, members[0]) for g, members in enumerate(groups) if len(members) == 1]
        odd_multi = [g for g, members in enumerate(groups) if len(members) % 2 == 1 and len(members) > 1]
        while True:
            # Building the floaters' list is C-speed work: a sixteenth of a random number per item.
            self.charge(1 + (len(singles) + len(odd_multi)) // 16)
            try:
                matches: list[tuple[int, int]] = []
                floaters: list[tuple[int, int]] = []  # (group number, pair) to keep a canonical order
                bye: int | None = None
                done: set[int] = set()
                if structure.odd_hosts:
                    hosts = structure.odd_hosts
                    h = hosts[self.rng.below(len(hosts))]
                    bye, inner = self.host_config_odd(groups[h], eligible, len(hosts) == 1)
                    matches.extend(inner)
                    done.add(h)
                elif structure.even_hosts:
                    hosts = structure.even_hosts
                    h = hosts[self.rng.weighted_index([len(eligible.intersection(groups[g])) for g in hosts])]
                    members = groups[h]
                    candidates = [v for v in members if v in eligible]
                    bye = candidates[self.rng.below(len(candidates))]
                    rest = [v for v in members if v != bye]
                    floater = rest[self.rng.below(len(rest))]
                    inner_or_none = self.matching([v for v in rest if v != floater])
                    if inner_or_none is None:
                        raise _Restart
                    matches.extend(inner_or_none)
                    floaters.append((h, floater))
                    done.add(h)
                    # Other groups that could have hosted are drawn once: their acceptance depends
                    # on which group hosts, so a rematch there restarts everything.
                    for g in hosts:
                        if g != h:
                            once = self.matching(groups[g])
                            if once is None:
                                raise _Restart
                            matches.extend(once)
                            done.add(g)
                floaters.extend(item for item in singles if item[0] not in done)
                for g in odd_multi:
                    if g in done:
                        continue
                    special, inner = self.clean_config(groups[g])
                    matches.extend(inner)
                    floaters.append((g, special))
                    done.add(g)
                floaters.sort()
                cross = self.matching([v for _g, v in floaters])
                if cross is None:
                    raise _Restart
                matches.extend(cross)
                done.update(g for g, _v in singles)
            except _Restart:
                continue
            for g, members in enumerate(groups):
                if g not in done and len(members) % 2 == 0:
                    matches.extend(self.clean_matching(members))
            return Pairing.of(matches, bye)


#: A part whose uniform proposal expects more rematches than this is not worth sampling:
#: its acceptance rate is below e**-12 (about 6 in a million).
MAX_EXPECTED_REMATCHES = Fraction(12)


def hopeless(problem: Problem, structure: Structure) -> bool:
    """Whether some part of the proposal would almost never come out without a rematch.

    A uniform perfect matching of k pairs holds each given pair of them with probability 1/(k-1),
    so a group with h internal previous meetings expects h/(k-1) rematches; the floaters (one per
    odd group, drawn at random from it) expect the sum over meetings between odd groups of
    1/(|g1| |g2| (f-1)). Exact rational arithmetic, so the decision is the same on every machine.
    """
    groups = structure.groups
    size = [len(members) for members in groups]
    inside = [0] * len(groups)
    between = Fraction(0)
    for (u, v), _count in problem.meetings.items():
        gu, gv = problem.group[u], problem.group[v]
        if gu == gv:
            inside[gu] += 1
        elif size[gu] % 2 and size[gv] % 2:
            between += Fraction(1, size[gu] * size[gv])
    for g, members in enumerate(groups):
        paired = len(members) - len(members) % 2
        if paired > 2 and Fraction(inside[g], paired - 1) > MAX_EXPECTED_REMATCHES:
            return True
    floaters = sum(1 for k in size if k % 2)
    return floaters > 2 and between / (floaters - 2) > MAX_EXPECTED_REMATCHES


def sample_optimal(problem: Problem, structure: Structure, rng: DrawRandom, budget: int) -> Pairing | None:
    """A draw uniform over the rematch-free draws of ``structure``, or None when the budget ran out."""
    if hopeless(problem, structure):
        return None
    try:
        return _Sampler(problem, rng, budget).run(structure)
    except _OutOfBudget:
        return None
