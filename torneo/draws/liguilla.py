"""Groups then bracket, first half: drawn round-robin groups (liguillas) and their schedule.

``allocate_liguillas`` draws the pairs into G groups of near-equal size (sizes differ by at most one)
with the published seed, so the allocation is verifiable like any draw (AMM 5.5).
``round_robin`` is the circle (Berger) method: one pair stays put and the others rotate, so every
two pairs of the group meet exactly once; an odd group gets an empty seat, and whoever faces it has
the exenta that round — each pair exactly once, so nobody has a second exenta before the others
(AMM 5.6).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from torneo.draws.errors import DrawUserError
from torneo.draws.problem import PairId, id_key, show
from torneo.draws.rng import DrawRandom


@dataclass(frozen=True)
class RoundRobinRound:
    """One round of a liguilla: its matches and the pair with the exenta (odd groups)."""

    matches: tuple[tuple[PairId, PairId], ...]
    bye: PairId | None


def _distinct(pairs: Sequence[PairId]) -> list[PairId]:
    seen: set[PairId] = set()
    for pair in pairs:
        if pair in seen:
            raise DrawUserError(f"La pareja {show(pair)} aparece dos veces.")
        seen.add(pair)
    return sorted(seen, key=id_key)


def allocate_liguillas(
    pairs: Sequence[PairId],
    *,
    group_count: int,
    seed: str,
    pots: Sequence[Sequence[PairId]] | None = None,
) -> tuple[tuple[PairId, ...], ...]:
    """Draw the pairs into ``group_count`` liguillas of near-equal size.

    The pairs are sorted canonically, shuffled with ``DrawRandom(seed)`` (Fisher–Yates, see
    ``torneo.draws.rng``), and dealt like cards: position i goes to group ``i mod G``. Each group is
    returned sorted; group 0 gets the extra pairs when the count does not divide evenly.

    ``pots`` (bombos, strongest first; the tournament's seeding by rating): every pot but the last
    holds G pairs and the pots hold every pair once. One random stream deals the pots in order:
    each pot is sorted canonically, shuffled, and its i-th pair goes to group i, so every liguilla
    gets one pair of each full pot (the strongest kept apart) and the rest is drawn as above.
    """
    members = _distinct(pairs)
    if group_count < 1:
        raise DrawUserError(f"Hace falta al menos un grupo (se pidieron {group_count}).")
    if len(members) < 2 * group_count:
        raise DrawUserError(
            f"Con {len(members)} parejas no se pueden formar {group_count} grupos de al menos dos parejas."
        )
    rng = DrawRandom(seed)
    groups: list[list[PairId]] = [[] for _ in range(group_count)]
    if pots is None:
        rng.shuffle(members)
        for i, pair in enumerate(members):
            groups[i % group_count].append(pair)
        return tuple(tuple(sorted(group, key=id_key)) for group in groups)
    dealt = [_distinct(pot) for pot in pots]
    if sorted((p for pot in dealt for p in pot), key=id_key) != members:
        raise DrawUserError("Los bombos deben contener cada pareja del sorteo exactamente una vez.")
    if any(len(pot) != group_count for pot in dealt[:-1]) or not 0 < len(dealt[-1]) <= group_count:
        raise DrawUserError(f"Cada bombo tiene {group_count} parejas, una por liguilla (el último, las que queden).")
    for pot in dealt:
        rng.shuffle(pot)
        for i, pair in enumerate(pot):
            groups[i].append(pair)
    return tuple(tuple(sorted(group, key=id_key)) for group in groups)


Id = TypeVar("Id", int, str)


def pots_by_strength(strength: Mapping[Id, float], group_count: int) -> list[list[Id]]:
    """The bombos: the pairs by strength, strongest first (equal strength: canonical order), cut
    every ``group_count`` pairs."""
    ordered = sorted(strength, key=lambda p: (-strength[p], id_key(p)))
    return [ordered[k : k + group_count] for k in range(0, len(ordered), group_count)]


def round_robin(members: Sequence[PairId]) -> tuple[RoundRobinRound, ...]:
    """The full schedule of one liguilla by the circle method (n-1 rounds, or n if n is odd)."""
    seats: list[PairId | None] = list(_distinct(members))
    if len(seats) < 2:
        raise DrawUserError("Una liguilla necesita al menos dos parejas.")
    if len(seats) % 2:
        seats.append(None)  # the empty seat: facing it is the exenta, once per pair (AMM 5.6)
    size = len(seats)
    rounds: list[RoundRobinRound] = []
    for _ in range(size - 1):
        matches: list[tuple[PairId, PairId]] = []
        bye: PairId | None = None
        for i in range(size // 2):
            a, b = seats[i], seats[size - 1 - i]
            if a is None:
                bye = b
            elif b is None:
                bye = a
            else:
                matches.append((a, b))
        rounds.append(RoundRobinRound(tuple(matches), bye))
        # Keep seat 0, rotate the others one step clockwise.
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return tuple(rounds)


def liguilla_members(
    first_round: Iterable[tuple[str, PairId, PairId | None]],
) -> dict[str, list[PairId]]:
    """Each liguilla's pairs, from its first round's matches ``(liguilla label, a, b or None)``:
    every pair plays there or has its exenta. Labels in order ("1", "2", … "10"), pairs sorted."""
    groups: dict[str, list[PairId]] = {}
    for label, a, b in first_round:
        groups.setdefault(label, []).extend(p for p in (a, b) if p is not None)
    return {label: sorted(groups[label], key=id_key) for label in sorted(groups, key=lambda g: (len(g), g))}
