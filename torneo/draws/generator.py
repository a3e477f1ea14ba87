"""The draw generator: pair ids, history, exentas and groups in; matches and the exenta out.

Priorities, strictly in this order (the contract of ``python -m torneo.draws``, DESIGN.md):

1. every pair in the draw exactly once;
2. the exenta to a pair with the fewest exentas: never a second one while a pair in the draw has
   had none (AMM 5.6);
3. as few rematches as possible, none when a draw without them exists (AMM 5.7); among those, as
   few matches that would be a third meeting (or later), then a fourth, and so on
   (``Score.repeats``, compared lexicographically);
4. as many matches inside one ``group`` as possible (e.g. equal losses, equal score);
5. among the draws that tie on all of these, uniformly at random (see ``uniform`` in ``DrawResult``).

Four methods, tried in this order (docs/draws.md has the proofs):

* ``exact``: up to ``EXACT_LIMIT`` vertices, every optimal draw is counted and one is chosen exactly
  uniformly.
* ``uniform``: rejection sampling from the structure that meets the lower bound; an accepted draw
  meets the bound (so it is optimal) and is exactly uniform among the optimal draws.
* ``bound``: when the sampler does not apply or its budget runs out, a randomised construction with
  local repairs that meets the bound — optimal, random but not exactly uniform.
* ``matching``: when the bound cannot be met, a maximum-weight perfect matching with
  priority-encoded weights — optimal, random among ties but not uniformly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from torneo.draws.bound import analyse
from torneo.draws.construct import construct_optimal
from torneo.draws.errors import DrawFatalError
from torneo.draws.exact import EXACT_LIMIT, exact_uniform_draw
from torneo.draws.optimal import optimal_draw
from torneo.draws.problem import GroupLabel, PairId, Pairing, Problem, Score, build_problem, score
from torneo.draws.rng import DrawRandom
from torneo.draws.sampler import sample_optimal

#: Version of the algorithm: a published draw names it, since another version may draw differently.
#: 2: rematches weighed by how often the pairs already met (``Score.repeats``, AMM 5.7).
ALGORITHM_VERSION = 2


def sampler_budget(n: int) -> int:
    """Work (about one random number per unit) the rejection sampler may spend before falling back.

    It depends only on n, so a budget runs out at the same point on every machine; about half a
    second of pure Python at 2,048 pairs.
    """
    return 100_000 + 150 * n


def construction_moves(n: int) -> int:
    """Repair moves the construction may use before the exact matching takes over."""
    return 10_000 + 50 * n


@dataclass(frozen=True)
class DrawResult:
    """A finished draw, in the caller's ids: the pure generator's answer (the model
    torneo.models.Draw is the published record of a round's draw, with its commitment).

    ``matches``: each match's ids in canonical order, matches sorted the same way (table numbers are
    the manager's business). ``bye``: the pair with the exenta, or None. ``rematches``: matches
    between pairs that already met. ``same_group`` / ``cross_group``: matches inside / not inside a
    group (pairs without a group are never "inside"). ``method``: "exact", "uniform", "bound" or
    "matching".
    ``uniform``: whether the draw was chosen exactly uniformly among all optimal draws (always true
    for "exact" and "uniform"). ``repeats``: ``Score.repeats``, ``(r_1, ..., r_K)`` with ``r_k`` the
    matches between pairs that already met at least k times (``r_1 == rematches``; not in the
    command's output, whose keys are fixed).
    """

    matches: tuple[tuple[PairId, PairId], ...]
    bye: PairId | None
    rematches: int
    same_group: int
    cross_group: int
    method: str
    uniform: bool
    repeats: tuple[int, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The ``python -m torneo.draws`` output object (contract keys first, then extensions)."""
        return {
            "matches": [list(match) for match in self.matches],
            "bye": self.bye,
            "rematches": self.rematches,
            "same_group": self.same_group,
            "cross_group": self.cross_group,
            "method": self.method,
            "uniform": self.uniform,
            "version": ALGORITHM_VERSION,
        }


def make_draw(
    pairs: Iterable[PairId],
    *,
    history: Iterable[Iterable[PairId]] = (),
    byes: Iterable[PairId] = (),
    group: Mapping[PairId, GroupLabel] | None = None,
    seed: str,
) -> DrawResult:
    """Draw one round among ``pairs`` (see the module docstring for the priorities).

    ``history``: matches already played, ``[a, b]`` (repeats allowed; entries naming pairs not in
    this draw are ignored). ``byes``: one entry per exenta already had. ``group``: optional group
    per pair. ``seed``: the published seed text (``torneo.draws.verify.derive_seed``). Raises
    ``DrawUserError`` for bad input and ``DrawFatalError`` if an internal check fails.
    """
    problem = build_problem(pairs, history=history, byes=byes, group=group, seed=seed)
    pairing, method = solve(problem)
    return to_draw(problem, pairing, method)


def solve(problem: Problem) -> tuple[Pairing, str]:
    """The optimal pairing of a canonical problem and the method that found it."""
    rng = DrawRandom(problem.seed)
    m = problem.n + problem.n % 2
    if m <= EXACT_LIMIT:
        pairing = exact_uniform_draw(problem, rng)
        check_pairing(problem, pairing)
        return pairing, "exact"
    structure = analyse(problem)
    if structure.parity_structure:
        sampled = sample_optimal(problem, structure, rng, sampler_budget(problem.n))
        if sampled is not None:
            check_pairing(problem, sampled)
            if score(problem, sampled) != structure.bound:
                raise DrawFatalError("the sampler returned a draw that does not meet the bound")
            return sampled, "uniform"
    built = construct_optimal(problem, structure, rng, construction_moves(problem.n))
    if built is not None:
        check_pairing(problem, built)
        if score(problem, built) != structure.bound:
            raise DrawFatalError("the construction returned a draw that does not meet the bound")
        return built, "bound"
    pairing = optimal_draw(problem, rng)
    check_pairing(problem, pairing)
    found = score(problem, pairing)
    if found < structure.bound:
        raise DrawFatalError("a draw beat the lower bound: the bound is wrong")
    return pairing, "matching"


def check_pairing(problem: Problem, pairing: Pairing) -> None:
    """Invariants of every result; a failure is a bug (``DrawFatalError``), never a user error."""
    seen = [0] * problem.n
    for u, v in pairing.matches:
        if u == v:
            raise DrawFatalError("a pair was drawn against itself")
        seen[u] += 1
        seen[v] += 1
    if pairing.bye is not None:
        seen[pairing.bye] += 1
    if any(count != 1 for count in seen):
        raise DrawFatalError("a pair is missing from the draw or appears twice")
    if (pairing.bye is None) != (problem.n % 2 == 0):
        raise DrawFatalError("an exenta is needed exactly when the number of pairs is odd")
    if pairing.bye is not None and problem.bye_tier(pairing.bye) != 0:
        # AMM 5.6: the exenta goes to a pair with the fewest exentas, always possible.
        raise DrawFatalError("the exenta went to a pair that does not have the fewest exentas")


def to_draw(problem: Problem, pairing: Pairing, method: str) -> DrawResult:
    """Translate a pairing back to the caller's ids."""
    result: Score = score(problem, pairing)
    ids = problem.ids
    return DrawResult(
        matches=tuple((ids[u], ids[v]) for u, v in pairing.matches),
        bye=ids[pairing.bye] if pairing.bye is not None else None,
        rematches=result.rematches,
        same_group=len(pairing.matches) - result.cross_group,
        cross_group=result.cross_group,
        method=method,
        uniform=method in ("exact", "uniform"),
        repeats=result.repeats,
    )
