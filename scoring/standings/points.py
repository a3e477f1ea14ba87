"""Points and the tiebreak order: the standings table of Swiss rounds and liguillas (AMM 5.6 for the
exenta's point; the tiebreaks are the tournament's configuration, see the package docstring)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic

from scoring.standings.records import BYE, DOUBLE_LOSS, PENDING, MatchRecord, PairId

TIEBREAKS = ("juegos", "tantos", "buchholz", "head_to_head", "wins")
DEFAULT_TIEBREAKS = ("juegos", "tantos", "buchholz", "head_to_head")


@dataclass
class Row(Generic[PairId]):
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
    rank_to: int = 0  # last position of a shared place (3 for "2.º–3.º"); equal to rank otherwise
    shared: bool = False  # the position is shared with another pair (equal on every tiebreak)

    @property
    def juegos_diff(self) -> int:
        return self.juegos_for - self.juegos_against

    @property
    def tantos_diff(self) -> int:
        return self.tantos_for - self.tantos_against

    def tiebreak_value(self, tiebreak: str) -> int | None:
        """The figure shown in a tiebreak's column (head-to-head has none: it is a mini-league)."""
        if tiebreak == "juegos":
            return self.juegos_for - self.juegos_against
        if tiebreak == "tantos":
            return self.tantos_for - self.tantos_against
        if tiebreak == "buchholz":
            return self.buchholz
        if tiebreak == "wins":
            return self.wins
        return None


def check_tiebreaks(tiebreaks: Iterable[str]) -> list[str]:
    order = [t.strip() for t in tiebreaks if t.strip()]
    unknown = [t for t in order if t not in TIEBREAKS]
    if unknown:
        raise ValueError(f"Desempate desconocido: {', '.join(unknown)}")
    return order


def compute(
    pairs: Iterable[PairId],
    matches: Iterable[MatchRecord[PairId]],
    *,
    points_win: int = 1,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    first: Mapping[PairId, Any] | None = None,
    among: Iterable[PairId] | None = None,
) -> list[Row[PairId]]:
    """The standings, best first, with ``rank`` set (equal ranks for shared positions).

    ``first``: an optional sort key per pair (lower is better) that comes before the points, e.g.
    the round of elimination for a knockout's classification. ``among``: rank only these pairs
    (their figures still count every match against any of ``pairs``), e.g. grupo B on its own."""
    order = check_tiebreaks(tiebreaks)
    rows = {pair: Row(pair) for pair in pairs}
    decided = [m for m in matches if m.outcome != PENDING and m.a in rows]
    for m in decided:
        _add(rows, m, points_win)
    for row in rows.values():
        row.buchholz = sum(rows[o].points for o in row.opponents if o in rows)
    if among is not None:
        rows = {p: rows[p] for p in among if p in rows}

    def head(row: Row[PairId]) -> tuple[Any, int]:
        return ((first or {}).get(row.pair, ()), -row.points)

    groups = _split(sorted(rows.values(), key=head), head)
    by_pair: dict[PairId, list[MatchRecord[PairId]]] = defaultdict(list)
    if "head_to_head" in order:
        for m in decided:
            by_pair[m.a].append(m)
    for tiebreak in order:
        groups = [part for group in groups for part in _break(group, tiebreak, by_pair, points_win)]
    position = 1
    result: list[Row[PairId]] = []
    for group in groups:
        for row in sorted(group, key=lambda r: _pair_key(r.pair)):
            row.rank = position
            row.rank_to = position + len(group) - 1
            row.shared = len(group) > 1
            result.append(row)
        position += len(group)
    return result


def _add(rows: dict[PairId, Row[PairId]], m: MatchRecord[PairId], points_win: int) -> None:
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


def _split(ordered: list[Row[PairId]], key: Callable[[Row[PairId]], Any]) -> list[list[Row[PairId]]]:
    groups: list[list[Row[PairId]]] = []
    for row in ordered:
        if groups and key(groups[-1][0]) == key(row):
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def _head_to_head(
    group: list[Row[PairId]], by_pair: Mapping[PairId, list[MatchRecord[PairId]]], points_win: int
) -> list[list[Row[PairId]]]:
    """The mini-league among the tied pairs; re-applied to any smaller group still tied."""
    inside = {r.pair for r in group}
    mini = dict.fromkeys(inside, 0)
    for pair in inside:
        for m in by_pair.get(pair, ()):
            # Each match once (from its pair A), only between tied pairs, never a double loss.
            if m.a == pair and m.b in inside and m.winner in inside and m.outcome != DOUBLE_LOSS:
                mini[m.winner] += points_win
    parts = _split(sorted(group, key=lambda r: -mini[r.pair]), lambda r: mini[r.pair])
    if len(parts) == 1:
        return parts
    return [sub for part in parts for sub in (_head_to_head(part, by_pair, points_win) if len(part) > 1 else [part])]


def _break(
    group: list[Row[PairId]], tiebreak: str, by_pair: Mapping[PairId, list[MatchRecord[PairId]]], points_win: int
) -> list[list[Row[PairId]]]:
    if len(group) < 2:
        return [group]
    if tiebreak == "head_to_head":
        return _head_to_head(group, by_pair, points_win)

    def value(r: Row[PairId]) -> int:
        v = r.tiebreak_value(tiebreak)
        return 0 if v is None else v

    return _split(sorted(group, key=lambda r: -value(r)), value)


def _pair_key(pair: PairId) -> tuple[int, str]:
    return (0, f"{pair:012d}") if isinstance(pair, int) else (1, str(pair))
