"""The bracket as a tree: each match and the matches of the previous round its pairs came from."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
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
