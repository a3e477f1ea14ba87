"""Standings from match results, as plain data (no Django): points and a configurable tiebreak order.

Used for Swiss score groups, liguilla tables and bracket seeds, and the final classification.
A win is worth ``points_win`` (an exenta counts as a win: the pair goes through, AMM 5.6); a double
loss (AMM 6.1.b, 6.5.b) gives both pairs nothing. Ties are broken by the tiebreaks in the
tournament's order; pairs still equal on all of them share the position.

Tiebreaks (identifiers used in the tournament's configuration):

* ``juegos``: juegos won minus juegos lost;
* ``tantos``: tantos won minus tantos lost, from the juegos whose tantos were recorded;
* ``buchholz``: the sum of the points of the opponents met (exentas add nothing);
* ``head_to_head``: points in the matches among the tied pairs only (applied to each tied group);
* ``wins``: matches won (exentas not counted).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

PairId = Hashable

TIEBREAKS = ("juegos", "tantos", "buchholz", "head_to_head", "wins")
DEFAULT_TIEBREAKS = ("juegos", "tantos", "buchholz", "head_to_head")

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
class MatchRecord:
    """One match's result. ``b`` is None for an exenta; ``winner`` None for a double loss."""

    a: PairId
    b: PairId | None
    outcome: str
    winner: PairId | None = None
    games_a: int | None = None
    games_b: int | None = None
    tantos_a: int | None = None
    tantos_b: int | None = None
    round_number: int = 0


@dataclass
class Row:
    pair: PairId
    played: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    juegos_for: int = 0
    juegos_against: int = 0
    tantos_for: int = 0
    tantos_against: int = 0
    buchholz: int = 0
    opponents: list[PairId] = field(default_factory=list)
    rank: int = 0
    shared: bool = False  # the position is shared with another pair (equal on every tiebreak)

    @property
    def juegos_diff(self) -> int:
        return self.juegos_for - self.juegos_against

    @property
    def tantos_diff(self) -> int:
        return self.tantos_for - self.tantos_against


def compute(
    pairs: Iterable[PairId],
    matches: Iterable[MatchRecord],
    *,
    points_win: int = 1,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[Row]:
    """The standings, best first, with ``rank`` set (equal ranks for shared positions)."""
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        raise ValueError(f"Desempate desconocido: {', '.join(unknown)}")
    rows = {pair: Row(pair) for pair in pairs}
    decided = [m for m in matches if m.outcome != PENDING and m.a in rows]
    for m in decided:
        _add(rows, m, points_win)
    for row in rows.values():
        row.buchholz = sum(rows[o].points for o in row.opponents if o in rows)
    ordered = sorted(rows.values(), key=lambda r: -r.points)
    groups = _split(ordered, lambda r: r.points)
    for tiebreak in tiebreaks:
        groups = [part for group in groups for part in _break(group, tiebreak, decided, points_win)]
    position = 1
    result: list[Row] = []
    for group in groups:
        for row in sorted(group, key=lambda r: _pair_key(r.pair)):
            row.rank = position
            row.shared = len(group) > 1
            result.append(row)
        position += len(group)
    return result


def _add(rows: dict[PairId, Row], m: MatchRecord, points_win: int) -> None:
    a = rows[m.a]
    if m.b is None:
        if m.outcome == BYE:
            a.byes += 1
            a.points += points_win
        return
    b = rows.get(m.b)
    if b is None:
        return
    for row, other in ((a, b), (b, a)):
        row.played += 1
        row.opponents.append(other.pair)
    if m.outcome == DOUBLE_LOSS:
        a.losses += 1
        b.losses += 1
    elif m.winner is not None:
        winner, loser = (a, b) if m.winner == m.a else (b, a)
        winner.wins += 1
        winner.points += points_win
        loser.losses += 1
    if m.games_a is not None and m.games_b is not None:
        a.juegos_for += m.games_a
        a.juegos_against += m.games_b
        b.juegos_for += m.games_b
        b.juegos_against += m.games_a
    if m.tantos_a is not None and m.tantos_b is not None:
        a.tantos_for += m.tantos_a
        a.tantos_against += m.tantos_b
        b.tantos_for += m.tantos_b
        b.tantos_against += m.tantos_a


def _split(ordered: list[Row], key) -> list[list[Row]]:  # type: ignore[no-untyped-def]
    groups: list[list[Row]] = []
    for row in ordered:
        if groups and key(groups[-1][0]) == key(row):
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def _break(group: list[Row], tiebreak: str, matches: list[MatchRecord], points_win: int) -> list[list[Row]]:
    if len(group) < 2:
        return [group]
    if tiebreak == "head_to_head":
        inside = {r.pair for r in group}
        mini = dict.fromkeys(inside, 0)
        for m in matches:
            if m.a in inside and m.b in inside and m.winner in inside and m.outcome != DOUBLE_LOSS:
                mini[m.winner] += points_win
        scores = {r.pair: mini[r.pair] for r in group}
        value = scores.__getitem__
        ordered = sorted(group, key=lambda r: -value(r.pair))
        return _split(ordered, lambda r: value(r.pair))
    key = {
        "juegos": lambda r: r.juegos_diff,
        "tantos": lambda r: r.tantos_diff,
        "buchholz": lambda r: r.buchholz,
        "wins": lambda r: r.wins,
    }[tiebreak]
    ordered = sorted(group, key=lambda r: -key(r))
    return _split(ordered, key)


def _pair_key(pair: PairId) -> tuple[int, str]:
    return (0, f"{pair:012d}") if isinstance(pair, int) else (1, str(pair))


def losses_and_byes(matches: Iterable[MatchRecord]) -> tuple[dict[PairId, int], dict[PairId, int]]:
    """Each pair's losses (both pairs in a double loss) and exentas."""
    losses: dict[PairId, int] = defaultdict(int)
    byes: dict[PairId, int] = defaultdict(int)
    for m in matches:
        if m.outcome == PENDING:
            continue
        if m.b is None:
            byes[m.a] += m.outcome == BYE
            continue
        if m.outcome == DOUBLE_LOSS:
            losses[m.a] += 1
            losses[m.b] += 1
        elif m.winner is not None:
            losses[m.b if m.winner == m.a else m.a] += 1
    return dict(losses), dict(byes)
