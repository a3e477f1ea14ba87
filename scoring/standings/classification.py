"""The final classification: places by stage (champion, round of elimination, liguilla position),
then points and the tiebreak order (rules in the package docstring)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic

from scoring.standings.ceros import Survival, survival_order
from scoring.standings.points import DEFAULT_TIEBREAKS, Row, compute
from scoring.standings.records import MatchRecord, PairId


@dataclass
class Place(Generic[PairId]):
    """A pair's place in a classification: ``position``–``position_to`` when shared."""

    pair: PairId
    position: int
    position_to: int
    stage: str  # "champion", "alive", "out:<round>", "withdrawn", "group:<position>", "standings"
    row: Row[PairId]

    @property
    def shared(self) -> bool:
        return self.position_to != self.position


def classify(
    pairs: Iterable[PairId],
    matches: Sequence[MatchRecord[PairId]],
    *,
    stage: Mapping[PairId, tuple[Any, str]] | None = None,
    points_win: int = 1,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    among: Iterable[PairId] | None = None,
) -> list[Place[PairId]]:
    """Places by ``stage`` (a sort key, lower better, and its label) then points and the tiebreak
    order over ``matches``; equal on everything shares the position. Without ``stage`` this is
    the standings order (Swiss). ``among``: classify only these (see `compute`)."""
    stage = stage or {}
    rows = compute(
        pairs,
        matches,
        points_win=points_win,
        tiebreaks=tiebreaks,
        first={p: key for p, (key, _label) in stage.items()},
        among=among,
    )
    return [Place(r.pair, r.rank, r.rank_to, stage.get(r.pair, ((), "standings"))[1], r) for r in rows]


def elimination_stages(states: Mapping[PairId, Survival[PairId]]) -> dict[PairId, tuple[Any, str]]:
    """The classification's stage for an elimination format (see the module docstring)."""
    stages: dict[PairId, tuple[Any, str]] = {}
    for p, s in states.items():
        key = survival_order(s)
        if s.champion:
            stages[p] = ((-1, 0, 0), "champion")
        elif s.alive:
            stages[p] = (key, "alive")
        elif s.out_round is None:
            stages[p] = (key, "withdrawn")
        else:
            stages[p] = (key, f"out:{s.out_round}")
    return stages
