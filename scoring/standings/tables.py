"""Standings tables as the pages show them, keyed by pair id (no Django, no labels): one table per
pool of an elimination format, one per liguilla, one for a Swiss. The selectors give each table
its title and each status its translated label; the draw manager seeds the bracket from the same
liguilla tables, so the page and the draw can never disagree on who qualified."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic

from scoring.standings.ceros import CerosRules, Survival, survival
from scoring.standings.classification import classify, elimination_stages
from scoring.standings.points import Row, compute
from scoring.standings.records import MatchRecord, PairId

# A line's status: "" (in a points table, still in), "alive", "champion", "out" (eliminated in
# ``out_round``), "withdrawn", "expelled" (AMM 3.16.b).
STATUSES = ("", "alive", "champion", "out", "withdrawn", "expelled")


@dataclass
class Line(Generic[PairId]):
    """One pair's line in a table: its figures and its position, ``position_to`` when shared."""

    pair: PairId
    position: int
    position_to: int
    played: int
    wins: int
    losses: int
    byes: int
    points: int
    juegos_diff: int
    tantos_diff: int
    values: list[int | None] = field(default_factory=list)  # the tiebreak columns (head-to-head has none)
    status: str = ""
    out_round: int | None = None
    qualifies: bool = False  # a liguilla pair that goes on to the bracket


@dataclass
class Table(Generic[PairId]):
    pool: str  # "" for the only table; "A"/"B" in a repesca; the liguilla's label
    kind: str  # "points" (Swiss, liguillas) or "ceros" (elimination formats)
    lines: list[Line[PairId]]
    champion: PairId | None = None
    alive: int = 0


def shown_tiebreaks(tiebreaks: Sequence[str]) -> list[str]:
    """The tiebreaks with a column of figures (head-to-head is a mini-league, not a figure)."""
    return [t for t in tiebreaks if t != "head_to_head"]


def renumber(lines: list[Line[PairId]], key_of: Callable[[Line[PairId]], Hashable]) -> None:
    """Positions within one table (1, 2, …), shared where `key_of` is equal for consecutive lines."""
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and key_of(lines[j + 1]) == key_of(lines[i]):
            j += 1
        for k in range(i, j + 1):
            lines[k].position, lines[k].position_to = i + 1, j + 1
        i = j + 1


def _line(row: Row[PairId], status: str, values: list[int | None]) -> Line[PairId]:
    return Line(
        row.pair,
        row.rank,
        row.rank_to,
        row.played,
        row.wins,
        row.losses,
        row.byes,
        row.points,
        row.juegos_diff,
        row.tantos_diff,
        values,
        status,
    )


def points_table(
    pool: str,
    members: Iterable[PairId],
    records: Iterable[MatchRecord[PairId]],
    *,
    points_win: int,
    tiebreaks: Sequence[str],
    withdrawn: Collection[PairId] = (),
    expelled: Collection[PairId] = (),
) -> Table[PairId]:
    """A points table (Swiss, a liguilla): points then the tiebreak order. ``withdrawn``: the pairs
    out of the tournament (expelled ones included); they keep the place their results gave them."""
    shown = shown_tiebreaks(tiebreaks)
    lines = []
    for row in compute(members, records, points_win=points_win, tiebreaks=tiebreaks):
        status = "expelled" if row.pair in expelled else ("withdrawn" if row.pair in withdrawn else "")
        lines.append(_line(row, status, [row.tiebreak_value(t) for t in shown]))
    return Table(pool, "points", lines)


def liguilla_tables(
    groups: Mapping[str, Sequence[PairId]],
    records: Sequence[MatchRecord[PairId]],
    *,
    points_win: int,
    tiebreaks: Sequence[str],
    qualifiers: int,
    withdrawn: Collection[PairId] = (),
    expelled: Collection[PairId] = (),
) -> list[Table[PairId]]:
    """One table per liguilla from its matches (``records``: the liguilla rounds' only). The first
    ``qualifiers`` pairs still in qualify for the bracket; a tie at the cut goes to the pair listed
    first (lower number: the order of registration)."""
    tables = []
    for label, members in groups.items():
        inside = set(members)
        table = points_table(
            label,
            members,
            [m for m in records if m.a in inside],
            points_win=points_win,
            tiebreaks=tiebreaks,
            withdrawn=withdrawn,
            expelled=expelled,
        )
        for line in [line for line in table.lines if line.pair not in withdrawn][:qualifiers]:
            line.qualifies = True
        tables.append(table)
    return tables


def _status(s: Survival[PairId], expelled: bool) -> str:
    if expelled:
        return "expelled"
    if s.champion:
        return "champion"
    if s.alive:
        return "alive"
    return "withdrawn" if s.out_round is None else "out"


def ceros_survival(
    entrants: Sequence[PairId],
    records: Sequence[MatchRecord[PairId]],
    rules: CerosRules,
    *,
    withdrawn: Collection[PairId],
    last_round: int,
) -> dict[PairId, Survival[PairId]]:
    """Each entrant's survival; ``withdrawn`` (expelled included) are never drawn again."""
    return survival(entrants, records, rules, withdrawn=[p for p in entrants if p in withdrawn], last_round=last_round)


def ceros_tables(
    entrants: Sequence[PairId],
    records: Sequence[MatchRecord[PairId]],
    rules: CerosRules,
    *,
    points_win: int,
    tiebreaks: Sequence[str],
    last_round: int,
    withdrawn: Collection[PairId] = (),
    expelled: Collection[PairId] = (),
) -> list[Table[PairId]]:
    """The tables of an elimination format ("a N ceros", repesca: one per pool), pairs still in
    first, then by the round where they went out (later first), then points and tiebreaks."""
    states = ceros_survival(entrants, records, rules, withdrawn=withdrawn, last_round=last_round)
    places = classify(
        list(states), records, stage=elimination_stages(states), points_win=points_win, tiebreaks=tiebreaks
    )
    by_pool: dict[str, list[Line[PairId]]] = defaultdict(list)
    champions: dict[str, PairId] = {}
    alive: dict[str, int] = defaultdict(int)
    for place in places:
        s = states[place.pair]
        row = place.row
        by_pool[s.pool].append(
            Line(
                place.pair,
                0,
                0,
                s.played,
                s.wins,
                s.losses,
                s.byes,
                row.points,
                row.juegos_diff,
                row.tantos_diff,
                [],
                _status(s, place.pair in expelled),
                s.out_round,
            )
        )
        if s.champion:
            champions[s.pool] = place.pair
        if s.alive:
            alive[s.pool] += 1
    by_pair = {p.pair: p for p in places}
    tables = []
    for pool in sorted(by_pool):
        lines = by_pool[pool]
        renumber(lines, lambda line: (by_pair[line.pair].position, by_pair[line.pair].position_to))
        tables.append(Table(pool, "ceros", lines, champions.get(pool), alive[pool]))
    return tables
