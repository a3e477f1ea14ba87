"""Knockout brackets (cuadros): seeding, byes, first-round group separation, fixed advancement.

Used after the liguillas (groups then bracket) and for the rondas finales, where winners advance
along a fixed bracket instead of being redrawn. A bracket is a *line*: the entrants in bracket
order, ``None`` for an empty seat; each round pairs the line two by two and the winners form the
next line, in the same order.

* Standard seed positions: seed 1 and seed 2 can only meet in the final, 1–4 only in the semifinals,
  and so on (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight).
* When the entrants are not a power of two, the empty seats face the top seeds — except that AMM
  5.6 comes first: a seat's exenta goes to a pair with the fewest exentas so far (e.g. pairs that
  had one in an odd liguilla come after the others), then by seed.
* Pairs of the same group are kept apart in the first round where possible, by swapping entrants
  of the same tier (same position in their groups) that have the same exenta status.
* A line with an odd number of entrants and no empty seat gives one exenta by the 5.6 rule: the
  first pair in bracket order among those with the fewest exentas.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from torneo.draws.errors import DrawUserError
from torneo.draws.problem import GroupLabel, PairId, show

Line = tuple[PairId | None, ...]


def seed_positions(size: int) -> tuple[int, ...]:
    """The seed number at each bracket position, for a bracket of ``size`` (a power of two)."""
    if size < 2 or size & (size - 1):
        raise DrawUserError(f"El tamaño del cuadro debe ser una potencia de dos (es {size}).")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return tuple(order)


@dataclass(frozen=True)
class Seeding:
    """Bracket seeds in order (1 first), each seed's tier, and each pair's liguilla."""

    seeds: tuple[PairId, ...]
    tiers: tuple[int, ...]
    group: Mapping[PairId, GroupLabel]


def seeds_from_standings(standings: Sequence[Sequence[PairId]], *, qualifiers: int) -> Seeding:
    """Seeds from liguilla standings: all group winners (groups in the given order), then all
    runners-up, and so on; ``qualifiers`` pairs per group go through. Tier = position in the group.

    To order the winners among themselves by a cross-group ranking, pass the groups in that order.
    """
    if qualifiers < 1:
        raise DrawUserError(f"Debe clasificarse al menos una pareja por grupo (se pidieron {qualifiers}).")
    seeds: list[PairId] = []
    tiers: list[int] = []
    group: dict[PairId, GroupLabel] = {}
    for g, standing in enumerate(standings):
        if len(standing) < qualifiers:
            raise DrawUserError(f"El grupo {g + 1} tiene {len(standing)} parejas y se clasifican {qualifiers}.")
        for pair in standing:
            if pair in group:
                raise DrawUserError(f"La pareja {show(pair)} aparece en dos grupos.")
            group[pair] = g
    for tier in range(qualifiers):
        for standing in standings:
            seeds.append(standing[tier])
            tiers.append(tier)
    return Seeding(tuple(seeds), tuple(tiers), {p: group[p] for p in seeds})


@dataclass(frozen=True)
class BracketRound:
    """One round of a bracket in line order: ``(a, b)`` is a match, ``(a, None)`` an exenta."""

    slots: tuple[tuple[PairId, PairId | None], ...]

    @property
    def matches(self) -> tuple[tuple[PairId, PairId], ...]:
        return tuple((a, b) for a, b in self.slots if b is not None)

    @property
    def byes(self) -> tuple[PairId, ...]:
        return tuple(a for a, b in self.slots if b is None)


def bracket_from_seeds(
    seeds: Sequence[PairId],
    *,
    tiers: Sequence[int] | None = None,
    group: Mapping[PairId, GroupLabel] | None = None,
    byes: Iterable[PairId] = (),
) -> Line:
    """The first line of a bracket for these seeds (seed 1 first), padded to a power of two.

    ``byes``: exentas already had (one entry each), so that the empty seats respect AMM 5.6.
    ``tiers`` and ``group``: keep pairs of the same group apart in the first round where possible.
    """
    entrants = list(seeds)
    _check_distinct(entrants)
    count = len(entrants)
    if count < 2:
        raise DrawUserError("Un cuadro necesita al menos dos parejas.")
    tier_of = list(tiers) if tiers is not None else list(range(count))
    if len(tier_of) != count:
        raise DrawUserError("Hace falta un nivel («tier») por cada cabeza de serie.")
    size = 1
    while size < count:
        size *= 2
    had: dict[PairId, int] = {}
    for pair in byes:
        had[pair] = had.get(pair, 0) + 1
    empty = size - count
    # AMM 5.6: the empty seats (exentas) go to the fewest exentas first, then to the best seeds.
    chosen = set(sorted(range(count), key=lambda i: (had.get(entrants[i], 0), i))[:empty])
    order = [i for i in range(count) if i in chosen] + [i for i in range(count) if i not in chosen]
    ranked = [entrants[i] for i in order]
    ranked_tiers = [tier_of[i] for i in order]
    with_bye = [i < empty for i in range(count)]
    positions = seed_positions(size)
    if group is not None:
        _separate_groups(ranked, ranked_tiers, with_bye, positions, group)
    return tuple(ranked[p - 1] if p <= count else None for p in positions)


def _separate_groups(
    ranked: list[PairId],
    tiers: list[int],
    with_bye: list[bool],
    positions: Sequence[int],
    group: Mapping[PairId, GroupLabel],
) -> None:
    """Swap same-tier entrants until no first-round match is inside one group (where possible)."""
    count = len(ranked)
    opponent: dict[int, int] = {}
    for k in range(0, len(positions), 2):
        a, b = positions[k] - 1, positions[k + 1] - 1
        if a < count and b < count:
            opponent[a] = b
            opponent[b] = a

    def clash(i: int) -> bool:
        j = opponent.get(i)
        if j is None:
            return False
        mine = group.get(ranked[i])
        return mine is not None and mine == group.get(ranked[j])

    for i in sorted(opponent, reverse=True):
        if not clash(i):
            continue
        for j in range(count):
            if j == i or tiers[j] != tiers[i] or with_bye[j] != with_bye[i]:
                continue
            ranked[i], ranked[j] = ranked[j], ranked[i]
            if not clash(i) and not clash(j):
                break
            ranked[i], ranked[j] = ranked[j], ranked[i]


def bracket_round(line: Sequence[PairId | None], *, byes: Iterable[PairId] = ()) -> BracketRound:
    """The matches of one round of a fixed bracket.

    A padded line pairs positions two by two (a pair facing ``None`` has the exenta). An unpadded
    line with an odd number of entrants first gives one exenta by AMM 5.6: to the first pair in
    bracket order among those with the fewest exentas (``byes``: exentas already had).
    """
    entrants = [p for p in line if p is not None]
    _check_distinct(entrants)
    if len(entrants) < 2:
        raise DrawUserError("El cuadro ya está decidido: queda una sola pareja.")
    seats = list(line)
    lone: tuple[int, PairId] | None = None
    if len(seats) % 2:
        had: dict[PairId, int] = {}
        for pair in byes:
            had[pair] = had.get(pair, 0) + 1
        # AMM 5.6: the exenta to the first pair in bracket order among those with the fewest.
        fewest = min(had.get(p, 0) for p in entrants)
        index = next(i for i, p in enumerate(seats) if p is not None and had.get(p, 0) == fewest)
        chosen = seats.pop(index)
        if chosen is None:  # pragma: no cover - index points at an entrant
            raise DrawUserError("Cuadro no válido.")
        lone = (index // 2, chosen)
    slots: list[tuple[PairId, PairId | None]] = []
    for k in range(0, len(seats), 2):
        a, b = seats[k], seats[k + 1]
        if a is None and b is None:
            continue
        if a is None:
            if b is not None:
                slots.append((b, None))
        else:
            slots.append((a, b))
    if lone is not None:
        slots.insert(min(lone[0], len(slots)), (lone[1], None))
    return BracketRound(tuple(slots))


def next_line(round_: BracketRound, winners: Iterable[PairId]) -> tuple[PairId, ...]:
    """The next line of the bracket: each match's winner (and each exenta) in line order."""
    won = set(winners)
    line: list[PairId] = []
    for a, b in round_.slots:
        if b is None:
            line.append(a)
            continue
        if (a in won) == (b in won):
            raise DrawUserError(f"La partida {show(a)} – {show(b)} necesita exactamente un ganador.")
        line.append(a if a in won else b)
    return tuple(line)


def _check_distinct(pairs: Sequence[PairId]) -> None:
    seen: set[PairId] = set()
    for pair in pairs:
        if pair in seen:
            raise DrawUserError(f"La pareja {show(pair)} aparece dos veces en el cuadro.")
        seen.add(pair)
