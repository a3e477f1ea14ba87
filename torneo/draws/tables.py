"""Table numbers (mesas) for a round's matches: fixed tables first, the rest shuffled with the seed.

Some pairs must always play at the same table (accessibility); finals are often played at a chosen
table. Those matches take their table; the other matches are shuffled with the draw's own random
stream (``DrawRandom(seed + "/mesas")``) and take the free numbers in order from ``first``, so the
numbering is as verifiable as the draw itself. Exentas have no table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from torneo.draws.errors import DrawUserError
from torneo.draws.problem import PairId, show
from torneo.draws.rng import DrawRandom


@dataclass(frozen=True)
class TableAssignment:
    """``tables[i]`` is the table of ``matches[i]``; ``notes`` explain any fixed table not honoured."""

    tables: tuple[int, ...]
    notes: tuple[str, ...]


def assign_tables(
    matches: Sequence[tuple[PairId, PairId]],
    *,
    seed: str | None,
    first: int = 1,
    fixed: Mapping[PairId, int] | None = None,
    taken: Sequence[int] = (),
) -> TableAssignment:
    """Number the matches (in the given order when ``seed`` is None).

    ``fixed``: pair -> its table; ``taken``: numbers already used this round (another pool's
    matches). A fixed table wanted by two matches goes to the first in order; the other match is
    numbered like the rest, and a note says so.
    """
    if first < 1:
        raise DrawUserError(f"La primera mesa debe ser 1 o mayor (es {first}).")
    fixed = fixed or {}
    used = set(taken)
    tables: list[int | None] = [None] * len(matches)
    notes: list[str] = []
    for i, (a, b) in enumerate(matches):
        wanted = [fixed[p] for p in (a, b) if p in fixed]
        if not wanted:
            continue
        table = min(wanted)
        if len(set(wanted)) > 1:
            notes.append(
                f"Las parejas {show(a)} y {show(b)} tienen mesas fijas distintas ({wanted[0]} y {wanted[1]}): "
                f"juegan en la {table}."
            )
        if table in used:
            notes.append(f"La mesa {table} ya está ocupada: la partida {show(a)} – {show(b)} va a otra mesa.")
            continue
        tables[i] = table
        used.add(table)
    free_order = [i for i in range(len(matches)) if tables[i] is None]
    if seed is not None:  # None: keep the given order (fixed brackets and liguilla schedules)
        DrawRandom(f"{seed}/mesas").shuffle(free_order)
    number = first
    for i in free_order:
        while number in used:
            number += 1
        tables[i] = number
        used.add(number)
    return TableAssignment(tuple(t for t in tables if t is not None), tuple(notes))
