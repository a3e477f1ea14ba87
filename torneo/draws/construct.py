"""A fast randomised construction of a draw that meets the lower bound (not exactly uniform).

Used when the rejection sampler ran out of budget although the bound is reachable (typically: many
pairs and many previous rounds, so that a uniformly random draw almost always holds a rematch).
Each group is shuffled and paired in order, and every rematch is then repaired with local moves:

* a 2-swap with another match of the same part: ``(u, v), (a, b)`` become ``(u, a), (v, b)`` or
  ``(u, b), (v, a)`` when both new matches are new;
* a group with an odd number of pairs carries a phantom partner (its floater is whoever ends up
  with the phantom), so a 2-swap can also change which pair floats;
* for the floaters' matches, a floater may also trade places with a pair of its own group.

Small groups whose deficiency exceeds their parity (see ``torneo.draws.bound``) get a largest
rematch-free matching instead, and all their unmatched pairs float. The moves never change the
exenta or the number of floaters per group, so a result without a rematch has exactly the bound's
number of cross-group matches: it is optimal. The number
of moves is bounded; past it the construction gives up and the exact matching takes over.
"""

from __future__ import annotations

from torneo.draws.bound import Structure, deficiency, max_clean_matching_pairs
from torneo.draws.problem import Pairing, Problem
from torneo.draws.rng import DrawRandom

PHANTOM = -1


class _Builder:
    def __init__(self, problem: Problem, rng: DrawRandom, moves: int) -> None:
        self.met = problem.met
        self.problem = problem
        self.rng = rng
        self.moves = moves

    def clean(self, u: int, v: int) -> bool:
        """Not a rematch (AMM 5.7); the phantom partner is clean with everybody."""
        return u == PHANTOM or v == PHANTOM or v not in self.met[u]

    def pair_up(self, vertices: list[int]) -> list[list[int]] | None:
        """Pairs of ``vertices`` (plus a phantom if odd) with no rematch, or None if stuck."""
        items = list(vertices)
        if len(items) % 2:
            items.append(PHANTOM)
        self.rng.shuffle(items)
        pairs = [[items[i], items[i + 1]] for i in range(0, len(items), 2)]
        if self.repair(pairs):
            return pairs
        return None

    def repair(self, pairs: list[list[int]]) -> bool:
        dirty = [i for i, (u, v) in enumerate(pairs) if not self.clean(u, v)]
        while dirty:
            if self.moves <= 0 or len(pairs) < 2:
                return False
            i = dirty[-1]
            if self.clean(*pairs[i]):
                dirty.pop()
                continue
            self.moves -= 1
            j = self.rng.below(len(pairs) - 1)
            j += j >= i
            (u, v), (a, b) = pairs[i], pairs[j]
            if self.clean(u, a) and self.clean(v, b):
                pairs[i], pairs[j] = [u, a], [v, b]
            elif self.clean(u, b) and self.clean(v, a):
                pairs[i], pairs[j] = [u, b], [v, a]
            else:
                continue
            dirty.pop()
            if not self.clean(*pairs[j]):  # pragma: no cover - both new matches were checked
                dirty.append(j)
        return True

    def exact_pairs(self, vertices: list[int], floaters: int) -> list[list[int]] | None:
        """A largest rematch-free matching (exact, for small groups); its unmatched pairs float."""
        order = list(vertices)
        self.rng.shuffle(order)
        matched = max_clean_matching_pairs(self.problem, order)
        if len(order) - 2 * len(matched) != floaters:
            return None
        inside = {v for pair in matched for v in pair}
        pairs = [[u, v] for u, v in matched]
        pairs.extend([v, PHANTOM] for v in order if v not in inside)
        return pairs


def construct_optimal(problem: Problem, structure: Structure, rng: DrawRandom, moves: int) -> Pairing | None:
    """A draw without rematches that meets ``structure.bound``, or None if not found."""
    builder = _Builder(problem, rng, moves)
    groups = [list(members) for members in structure.groups]
    bye: int | None = None
    if problem.n % 2:
        bye = structure.best_byes[rng.below(len(structure.best_byes))]
        groups[problem.group[bye]].remove(bye)

    inner: list[list[list[int]]] = []
    for members in groups:
        floaters = deficiency(problem, members)
        pairs = builder.pair_up(members) if floaters == len(members) % 2 else None
        if pairs is None:
            pairs = builder.exact_pairs(members, floaters)
            if pairs is None:
                return None
        inner.append(pairs)

    if not _split_for_the_largest(builder, problem, inner):
        return None
    floating = [pair[0] for pairs in inner for pair in pairs if pair[1] == PHANTOM]
    floating += [pair[1] for pairs in inner for pair in pairs if pair[0] == PHANTOM]
    floating.sort()
    rng.shuffle(floating)
    cross = [[floating[i], floating[i + 1]] for i in range(0, len(floating), 2)]
    while not builder.repair(cross):
        if builder.moves <= 0 or not _trade_floater(builder, problem, inner, cross):
            return None

    matches = [(u, v) for pairs in inner for u, v in pairs if PHANTOM not in (u, v)]
    matches.extend((u, v) for u, v in cross)
    return Pairing.of(matches, bye)


def _split_for_the_largest(builder: _Builder, problem: Problem, inner: list[list[list[int]]]) -> bool:
    """When one group has more floaters than all the others together, split inner matches of
    other groups (chosen at random) until they can face them: the bound's ``max def`` case."""
    counts = [sum(1 for pair in pairs if PHANTOM in pair) for pairs in inner]
    top = max(range(len(inner)), key=lambda g: counts[g], default=-1)
    if top < 0:
        return True
    missing = counts[top] - (sum(counts) - counts[top])
    if missing <= 0:
        return True
    splittable = [
        (g, k) for g, pairs in enumerate(inner) if g != top for k, pair in enumerate(pairs) if PHANTOM not in pair
    ]
    if len(splittable) < missing // 2:
        return False
    builder.rng.shuffle(splittable)
    for g, k in sorted(splittable[: missing // 2], key=lambda item: (item[0], -item[1])):
        u, v = inner[g].pop(k)
        inner[g].extend([[u, PHANTOM], [v, PHANTOM]])
    return True


def _trade_floater(builder: _Builder, problem: Problem, inner: list[list[list[int]]], cross: list[list[int]]) -> bool:
    """Let a floater in a rematch swap roles with a pair of its own group that can replace it."""
    for match in cross:
        u, v = match
        if builder.clean(u, v):
            continue
        for floater, other in ((u, v), (v, u)):
            pairs = inner[problem.group[floater]]
            for _ in range(4 * len(pairs) + 4):
                builder.moves -= 1
                if not pairs:
                    break
                k = builder.rng.below(len(pairs))
                x, y = pairs[k]
                if PHANTOM in (x, y):
                    continue
                for stay, leave in ((x, y), (y, x)):
                    if builder.clean(floater, stay) and builder.clean(leave, other):
                        # The floater plays inside its group; the group sends ``leave`` out.
                        for p in pairs:
                            if PHANTOM in p and floater in p:
                                p[0], p[1] = leave, PHANTOM
                        pairs[k] = [floater, stay]
                        match[0], match[1] = leave, other
                        return True
    return False
