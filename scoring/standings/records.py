"""A match's result as the standings read it: the pair ids, the outcome, the figures (no Django).

``PairId`` is whatever the caller keys pairs by (the tournament snapshot uses pair numbers): the
records, rows, tables and trees are generic over it, so a caller gets its own pair ids back."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    # A bare ``MatchRecord`` (or ``Row``…) still means any hashable pair id, as before the generics.
    # TypeVar defaults (PEP 696) are typing-only: Python 3.11's TypeVar has no ``default``, and the
    # runtime never reads it, so the pure core needs no typing_extensions at run time.
    from typing_extensions import TypeVar as _TypeVar

    PairId = _TypeVar("PairId", bound=Hashable, default=Hashable)
else:
    PairId = TypeVar("PairId", bound=Hashable)

# Outcomes, as stored on matches.
PLAYED, BYE, WALKOVER, RETIRED, DOUBLE_LOSS, RULING, PENDING = (
    "played",
    "bye",
    "walkover",
    "retired",
    "double_loss",
    "ruling",
    "pending",
)


@dataclass(frozen=True)
class MatchRecord(Generic[PairId]):
    """One match's result. ``b`` is None for an exenta; ``winner`` None for a double loss.

    ``pool`` and ``slot`` place it in its round (repesca pools, liguillas, bracket line); ``key``
    is the caller's own reference (a match id), carried through to the bracket tree."""

    a: PairId
    b: PairId | None
    outcome: str
    winner: PairId | None = None
    games_a: int | None = None
    games_b: int | None = None
    tantos_a: int | None = None
    tantos_b: int | None = None
    round_number: int = 0
    pool: str = ""
    slot: int | None = None
    key: Any = None

    @property
    def decided(self) -> bool:
        return self.outcome != PENDING

    def losers(self) -> list[PairId]:
        """The pairs that lost it: both in a double loss (AMM 6.5.b), none for an exenta."""
        if self.b is None or self.outcome in (PENDING, BYE):
            return []
        if self.outcome == DOUBLE_LOSS:
            return [self.a, self.b]
        if self.winner is None:
            return []
        return [self.b if self.winner == self.a else self.a]


def losses_and_byes(matches: Iterable[MatchRecord[PairId]]) -> tuple[dict[PairId, int], dict[PairId, int]]:
    """Each pair's losses (both pairs in a double loss) and exentas."""
    losses: dict[PairId, int] = defaultdict(int)
    byes: dict[PairId, int] = defaultdict(int)
    for m in matches:
        if m.outcome == PENDING:
            continue
        if m.b is None:
            byes[m.a] += m.outcome == BYE
            continue
        for loser in m.losers():
            losses[loser] += 1
    return dict(losses), dict(byes)
