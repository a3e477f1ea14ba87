"""Survival in "a N ceros" formats and the repesca: who is still in, who went out and when."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic

from scoring.standings.records import BYE, DOUBLE_LOSS, PENDING, MatchRecord, PairId


@dataclass(frozen=True)
class CerosRules:
    """How losses eliminate. ``repesca_until``: pairs whose first loss comes in rounds 1..K go to
    pool B, where they are out at ``pool_b_max_losses`` losses in total (None: no repesca).
    ``reentry_round``: pool B merges back into pool A from that round. ``final_from_round``: in the
    rondas finales (a fixed bracket after their first round) one loss eliminates."""

    max_losses: int = 1
    repesca_until: int | None = None
    pool_b_max_losses: int = 2
    reentry_round: int | None = None
    final_from_round: int | None = None

    def pool_of(self, first_loss_round: int | None) -> str:
        if self.repesca_until is None:
            return ""
        if first_loss_round is not None and first_loss_round <= self.repesca_until:
            return "B"
        return "A"

    def limit(self, first_loss_round: int | None) -> int:
        return self.pool_b_max_losses if self.pool_of(first_loss_round) == "B" else self.max_losses


@dataclass
class Survival(Generic[PairId]):
    """A pair's state in an elimination format: losses, and the round where it went out."""

    pair: PairId
    pool: str = ""
    played: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    juegos_for: int = 0
    juegos_against: int = 0
    first_loss_round: int | None = None
    out_round: int | None = None  # eliminated in this round (its N-th loss, or a loss in the rondas finales)
    last_round: int | None = None
    withdrawn: bool = False  # withdrawn or expelled: never drawn again
    champion: bool = False

    @property
    def alive(self) -> bool:
        return self.out_round is None and not self.withdrawn

    @property
    def juegos_diff(self) -> int:
        return self.juegos_for - self.juegos_against


def survival(
    entrants: Iterable[PairId],
    matches: Sequence[MatchRecord[PairId]],
    rules: CerosRules,
    *,
    withdrawn: Iterable[PairId] = (),
    last_round: int = 0,
) -> dict[PairId, Survival[PairId]]:
    """Each entrant's survival after the decided matches, in round order; champions marked.

    ``last_round``: the latest published round (0 before the first). A pool has a champion when a
    single pair is left in it, every match is decided and — for pool B — the repesca rounds are over
    (a lone pool B pair waits for the next losers)."""
    states = {p: Survival(p) for p in entrants}
    for p in withdrawn:
        if p in states:
            states[p].withdrawn = True
    pending = False
    for m in sorted(matches, key=lambda m: m.round_number):
        if m.outcome == PENDING:
            pending = True
        pairs = [p for p in (m.a, m.b) if p is not None and p in states]
        for p in pairs:
            s = states[p]
            s.last_round = max(s.last_round or 0, m.round_number)
            s.pool = m.pool if rules.repesca_until is not None else ""
        if not m.decided:
            continue
        if m.b is None:
            if m.outcome == BYE and m.a in states:
                states[m.a].byes += 1
            continue
        for p in pairs:
            states[p].played += 1
        a, b = states.get(m.a), states.get(m.b)
        if a is not None and b is not None and m.games_a is not None and m.games_b is not None:
            a.juegos_for += m.games_a
            a.juegos_against += m.games_b
            b.juegos_for += m.games_b
            b.juegos_against += m.games_a
        if m.winner is not None and m.winner in states and m.outcome != DOUBLE_LOSS:
            states[m.winner].wins += 1
        in_final_phase = rules.final_from_round is not None and m.round_number >= rules.final_from_round
        for loser in m.losers():
            lost = states.get(loser)
            if lost is None:
                continue
            lost.losses += 1
            if lost.first_loss_round is None:
                lost.first_loss_round = m.round_number
            if lost.out_round is None and (in_final_phase or lost.losses >= rules.limit(lost.first_loss_round)):
                lost.out_round = m.round_number
    merged = rules.reentry_round is not None and last_round + 1 >= rules.reentry_round
    for s in states.values():
        if s.alive and rules.repesca_until is not None:
            s.pool = "A" if merged else rules.pool_of(s.first_loss_round)
    if not pending:
        by_pool: dict[str, list[Survival[PairId]]] = defaultdict(list)
        for s in states.values():
            if s.alive:
                by_pool[s.pool].append(s)
        for pool, alive in by_pool.items():
            waits = pool == "B" and rules.repesca_until is not None and last_round < rules.repesca_until
            if len(alive) == 1 and not waits and last_round > 0:
                alive[0].champion = True
    return states


def survival_order(s: Survival[PairId]) -> tuple[int, int, int]:
    """Standings order in an elimination format: pairs still in first (fewer losses first), then
    by the round of elimination, later first; withdrawn pairs after those eliminated with them."""
    if s.alive:
        return (0, s.losses, 0)
    out = s.out_round if s.out_round is not None else (s.last_round or 0) + 1
    return (1, -out, 1 if s.out_round is None else 0)
