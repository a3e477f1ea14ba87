"""A first Swiss round seeded by rating: the strongest half against the other half, drawn.

With the tournament's seeding by rating, the first round of a Swiss (nobody has met, nobody has had
an exenta) keeps the strongest pairs apart: ``top`` is the stronger half (⌊n/2⌋ pairs, frozen with
the commitment); each of them meets a pair of the other half, chosen uniformly at random with the
public seed (AMM 5.5), and with an odd number the exenta goes to the pair of the other half left
over — every pair has none yet, so 5.6 holds whoever gets it. The rounds after it pair by score
as always (formats.plan_swiss).

Portable, like every draw (docs/draws.md, «A Swiss seeded by rating»): with ``DrawRandom(seed)``,
the other half sorted canonically is ``shuffle``d; ``top`` sorted canonically; ``top[i]`` meets
``other[i]``; an odd pair out, ``other[len(top)]``, has the exenta.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from torneo.draws.errors import DrawUserError
from torneo.draws.generator import DrawResult
from torneo.draws.problem import PairId, build_problem, id_key, show
from torneo.draws.rng import DrawRandom


def halves_draw(
    pairs: Sequence[PairId], *, top: Iterable[PairId], history: Iterable[Sequence[PairId]] = (), seed: str
) -> DrawResult:
    """The draw of ``pairs`` with ``top`` (the stronger half) each against one of the others."""
    problem = build_problem(pairs, history=history, seed=seed)  # the input checks of every draw
    members = list(problem.ids)
    strong = sorted(set(top), key=id_key)
    unknown = [p for p in strong if p not in set(members)]
    if unknown:
        raise DrawUserError(f"La pareja {show(unknown[0])} de la mitad fuerte no está en el sorteo.")
    if len(strong) != len(members) // 2:
        raise DrawUserError(
            f"La mitad fuerte tiene {len(strong)} parejas; con {len(members)} parejas son {len(members) // 2}."
        )
    other = [p for p in members if p not in set(strong)]
    DrawRandom(seed).shuffle(other)
    matches = sorted(
        (tuple(sorted((a, b), key=id_key)) for a, b in zip(strong, other, strict=False)),
        key=lambda m: (id_key(m[0]), id_key(m[1])),
    )
    index = {p: v for v, p in enumerate(members)}
    rematches = sum(1 for a, b in matches if index[b] in problem.met[index[a]])
    return DrawResult(
        matches=tuple((a, b) for a, b in matches),
        bye=other[len(strong)] if len(other) > len(strong) else None,
        rematches=rematches,
        same_group=0,
        cross_group=len(matches),
        method="halves",
        uniform=True,
    )
