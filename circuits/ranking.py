"""A circuit's ranking (issue 35), pure: the points each final place of each tournament gives, the
best N results of each pair or player, and the ranking with shared positions.

* A place gives the points of the circuit's table (1st, 2nd, …; a place past the table's end, 0).
* Pairs tied on a place share the points of the places they fill: two pairs «3–4» each get the
  average of the 3rd's and the 4th's points (so a tie never gives more points than the places hold).
* Only the best ``best_of`` results count (all, when None); the others are listed as discarded.
* Ranked by the points counted, then by the best results one by one (the better best result first,
  then the second best…), then by more tournaments played; still equal, they share the position.

Nothing here knows Django: entities are any hashable keys (the selectors use the identity of a
player account, never a name, so that two people are never merged by a homonym).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

Entity = TypeVar("Entity", bound=Hashable)


@dataclass(frozen=True)
class Placed(Generic[Entity]):
    """An entity's final place in one tournament: ``first``–``last`` (equal unless shared)."""

    entity: Entity
    first: int
    last: int


@dataclass(frozen=True)
class EventPlaces(Generic[Entity]):
    """One tournament's final classification, as places."""

    event: Hashable
    places: Sequence[Placed[Entity]]


@dataclass(frozen=True)
class Scored:
    event: Hashable
    first: int
    last: int
    points: Fraction


@dataclass
class RankRow(Generic[Entity]):
    entity: Entity
    points: Fraction
    counted: list[Scored] = field(default_factory=list)
    discarded: list[Scored] = field(default_factory=list)
    position: int = 0
    shared: bool = False

    @property
    def played(self) -> int:
        return len(self.counted) + len(self.discarded)


def place_points(table: Sequence[int], first: int, last: int) -> Fraction:
    """The points of places ``first``–``last`` shared by the pairs tied there: the average of the
    table's points for those places (0 past the table's end)."""
    if first < 1 or last < first:
        raise ValueError(f"puesto no válido: {first}–{last}")
    total = sum(table[p - 1] if p <= len(table) else 0 for p in range(first, last + 1))
    return Fraction(total, last - first + 1)


def ranking(
    events: Iterable[EventPlaces[Entity]], *, table: Sequence[int], best_of: int | None = None
) -> list[RankRow[Entity]]:
    """Every entity placed in any of ``events``, ranked (see the module's docstring)."""
    if best_of is not None and best_of < 1:
        raise ValueError("best_of debe ser 1 o más")
    scored: dict[Entity, list[Scored]] = {}
    for event in events:
        for placed in event.places:
            points = place_points(table, placed.first, placed.last)
            scored.setdefault(placed.entity, []).append(Scored(event.event, placed.first, placed.last, points))
    rows: list[RankRow[Entity]] = []
    for entity, results in scored.items():
        ordered = sorted(results, key=lambda s: (-s.points, s.first))
        keep = ordered if best_of is None else ordered[:best_of]
        rows.append(RankRow(entity, sum((s.points for s in keep), Fraction(0)), keep, ordered[len(keep) :]))
    rows.sort(key=_order)
    for i, row in enumerate(rows):
        if i and _order(rows[i - 1]) == _order(row):
            row.position = rows[i - 1].position
            row.shared = rows[i - 1].shared = True
        else:
            row.position = i + 1
    return rows


def _order(row: RankRow[Entity]) -> tuple[Fraction, tuple[Fraction, ...], int]:
    return (-row.points, tuple(-s.points for s in row.counted if s.points), -row.played)


def qualifiers(rows: Sequence[RankRow[Entity]], spots: int) -> list[RankRow[Entity]]:
    """The rows within the first ``spots`` positions: a tie on the cut takes every tied row (the
    organizer then decides, as the circuit's rules say)."""
    return [row for row in rows if row.position <= spots]
