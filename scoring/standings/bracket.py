"""The bracket as a tree: each match and the matches of the previous round its pairs came from; and
the same tree drawn ahead, every future round up to the final as empty seats (``bracket_ahead``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Generic

from scoring.standings.records import MatchRecord, PairId


@dataclass(eq=False)
class BracketNode(Generic[PairId]):
    """A bracket match and the matches of the previous round its two pairs came from."""

    match: MatchRecord[PairId]
    children: list[BracketNode[PairId]] = field(default_factory=list)

    @property
    def depth(self) -> int:
        return 1 + max((c.depth for c in self.children), default=0)


def bracket_forest(matches: Sequence[MatchRecord[PairId]]) -> list[BracketNode[PairId]]:
    """The bracket rounds' matches as trees, the latest round at the roots.

    Each match's children are the matches of the previous bracket round where its pairs played
    (works for fixed brackets and for knockouts redrawn every round). A match that feeds nothing
    — a double loss, both pairs out (AMM 6.5.b) — hangs under the match its bracket neighbour
    (slot ^ 1) fed, where the next opponent had the exenta; failing that it is a root of its own."""
    rounds = sorted({m.round_number for m in matches})
    by_round: dict[int, list[MatchRecord[PairId]]] = defaultdict(list)
    for m in matches:
        by_round[m.round_number].append(m)
    nodes: dict[int, list[BracketNode[PairId]]] = {}
    for r in rounds:
        ordered = sorted(by_round[r], key=lambda m: (m.pool, m.slot if m.slot is not None else 1 << 30, str(m.key)))
        nodes[r] = [BracketNode(m) for m in ordered]
    roots: list[BracketNode[PairId]] = []
    for i, r in enumerate(rounds):
        if i + 1 == len(rounds):
            roots.extend(nodes[r])
            continue
        following = nodes[rounds[i + 1]]
        where: dict[PairId, BracketNode[PairId]] = {}
        for parent in following:
            for p in (parent.match.a, parent.match.b):
                if p is not None:
                    where[p] = parent
        fed: dict[tuple[str, int | None], BracketNode[PairId]] = {}
        orphans: list[BracketNode[PairId]] = []
        for node in nodes[r]:
            fed_into = where.get(node.match.a) or (where.get(node.match.b) if node.match.b is not None else None)
            if fed_into is not None and node not in fed_into.children:
                fed_into.children.append(node)
                fed[(node.match.pool, node.match.slot)] = fed_into
            elif fed_into is None:
                orphans.append(node)
        for node in orphans:
            slot = node.match.slot
            neighbour = fed.get((node.match.pool, slot ^ 1)) if slot is not None else None
            if neighbour is not None and len(neighbour.children) < 2:
                neighbour.children.append(node)
                neighbour.children.sort(key=lambda c: c.match.slot if c.match.slot is not None else 1 << 30)
            else:
                roots.append(node)
    roots.sort(key=lambda n: (-n.match.round_number, n.match.pool, n.match.slot if n.match.slot is not None else 0))
    return roots


@dataclass(eq=False)
class Seat(Generic[PairId]):
    """A seat of a match not drawn yet: the pair once it is known, and the match whose winner (or
    exenta) takes it."""

    pair: PairId | None
    source: BracketNode[PairId] | AheadNode[PairId] | None  # None: a first-round seat not drawn yet


@dataclass(eq=False)
class AheadNode(Generic[PairId]):
    """A future bracket match: its round, its seats (``b`` None: the seat ``a`` has the exenta) and
    the matches that feed it."""

    round_number: int
    pool: str
    a: Seat[PairId]
    b: Seat[PairId] | None
    children: list[BracketNode[PairId] | AheadNode[PairId]] = field(default_factory=list)


def bracket_ahead(
    roots: Sequence[BracketNode[PairId]], *, out: Collection[PairId] = ()
) -> list[BracketNode[PairId] | AheadNode[PairId]]:
    """The forest of ``bracket_forest`` with every round still to come drawn ahead, up to each pool's
    final: the latest round's matches, in bracket order, send their winner (or the pair with the
    exenta) to the next round two by two, as a fixed bracket does (torneo.draws.bracket.next_line);
    a pending match sends an empty seat, a double loss or a winner in ``out`` (withdrawn, expelled)
    nobody, so that its neighbour has the exenta (AMM 6.5.b). An odd line gives its last seat the
    exenta. Roots of earlier rounds (orphans) are kept as they are."""
    latest: dict[str, int] = {}
    for node in roots:
        latest[node.match.pool] = max(latest.get(node.match.pool, 0), node.match.round_number)
    result: list[BracketNode[PairId] | AheadNode[PairId]] = []
    for pool, last in latest.items():
        front = sorted(
            (n for n in roots if n.match.pool == pool and n.match.round_number == last),
            key=lambda n: n.match.slot if n.match.slot is not None else 1 << 30,
        )
        line: list[Seat[PairId] | None] = [_advancing(n, out) for n in front]
        tops: list[BracketNode[PairId] | AheadNode[PairId]] = list(front)
        number = last
        while sum(1 for s in line if s is not None) > 1:
            number += 1
            tops, line = _next_round(line, number, pool)
        result.extend(tops)
    fronts = {id(n) for n in roots if n.match.round_number == latest[n.match.pool]}
    result.extend(n for n in roots if id(n) not in fronts)
    return result


def _advancing(node: BracketNode[PairId], out: Collection[PairId]) -> Seat[PairId] | None:
    m = node.match
    if m.b is None:
        return None if m.a in out else Seat(m.a, node)
    if not m.decided:
        return Seat(None, node)
    if m.winner is None or m.winner in out:
        return None
    return Seat(m.winner, node)


def _next_round(
    line: list[Seat[PairId] | None], number: int, pool: str
) -> tuple[list[BracketNode[PairId] | AheadNode[PairId]], list[Seat[PairId] | None]]:
    seats = list(line)
    lone = None
    if len(seats) % 2:
        lone = seats.pop()
    nodes: list[BracketNode[PairId] | AheadNode[PairId]] = []
    following: list[Seat[PairId] | None] = []
    pairs = [(seats[k], seats[k + 1]) for k in range(0, len(seats), 2)]
    if lone is not None:
        pairs.append((lone, None))
    for a, b in pairs:
        if a is None:
            if b is None:
                continue  # nobody from either side: the seat disappears, as in next_line
            a, b = b, None
        node: AheadNode[PairId] = AheadNode(number, pool, a, b)
        node.children = [s.source for s in (a, b) if s is not None and s.source is not None]
        nodes.append(node)
        following.append(Seat(a.pair if b is None else None, node))
    return nodes, following


def bracket_blank(seats: Sequence[bool], *, first_round: int, pool: str = "") -> list[AheadNode[PairId]]:
    """A bracket before its first round is drawn, every seat empty: ``seats`` its first line in
    bracket order, True a seat the draw will fill, False an empty seat (its neighbour has the
    exenta; an odd line gives the last seat one). Every round up to the final, as in
    ``bracket_ahead``."""
    line = list(seats)
    if len(line) % 2:
        line.append(False)
    nodes: list[BracketNode[PairId] | AheadNode[PairId]] = []
    following: list[Seat[PairId] | None] = []
    for k in range(0, len(line), 2):
        filled = [x for x in line[k : k + 2] if x]
        if not filled:
            following.append(None)
            continue
        node: AheadNode[PairId] = AheadNode(
            first_round, pool, Seat(None, None), Seat(None, None) if len(filled) == 2 else None
        )
        nodes.append(node)
        following.append(Seat(None, node))
    tops, number = nodes, first_round
    while sum(1 for s in following if s is not None) > 1:
        number += 1
        tops, following = _next_round(following, number, pool)
    return [n for n in tops if isinstance(n, AheadNode)]
