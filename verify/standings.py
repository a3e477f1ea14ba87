"""The standings and the final classification, recomputed from the record's results and rule set.

Written from the rules as the site documents them (docs/registro.md, «Cómo se recomputa la
clasificación»), not from the site's code: a third party reading the same rules should get the same
places. What a pair earns: ``points_per_win`` for a win or an exenta (AMM 5.6: the pair goes
through), nothing for a loss; a double loss (AMM 6.1.b, 6.5.b) is a loss for both. Ties are broken
by the tournament's tiebreak order (``juegos``, ``tantos``, ``buchholz``, ``head_to_head``,
``wins``); pairs equal on all of them share the place. The order of the blocks before the points
depends on the format:

* a N ceros (with or without repesca): the champion, then the pairs still in (fewer losses first),
  then the others by the round where they went out, later first (a withdrawn pair after those out
  in the round after its last); in the rondas finales one loss eliminates. A repesca without
  re-entry classifies grupo A and grupo B apart.
* liguillas and cuadro: the pairs of the cuadro by the same rule (one loss eliminates), then the
  others by their place in their liguilla.
* Swiss: points and tiebreaks only.

Expelled pairs (AMM 3.16.b) are not classified; withdrawn ones keep the place their results gave.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

DEFAULT_TIEBREAKS = ("juegos", "tantos", "buchholz", "head_to_head")
KNOWN_TIEBREAKS = ("juegos", "tantos", "buchholz", "head_to_head", "wins")


@dataclass(frozen=True)
class Game:
    """One partida of a published round, as the record gives it (``b`` None: an exenta)."""

    round: int
    group: str
    a: int
    b: int | None
    outcome: str
    winner: int | None
    juegos: tuple[int | None, int | None]
    tantos: tuple[int | None, int | None]

    @property
    def decided(self) -> bool:
        return self.outcome != "pending"

    def losers(self) -> list[int]:
        if self.b is None or self.outcome in ("pending", "bye"):
            return []
        if self.outcome == "double_loss":
            return [self.a, self.b]
        if self.winner is None:
            return []
        return [self.a if self.winner == self.b else self.b]


@dataclass
class Figures:
    """What a pair has earned: points and the tiebreaks' figures."""

    points: int = 0
    played: int = 0  # partidas against a rival, decided
    wins: int = 0
    losses: int = 0  # a double loss is one for each
    byes: int = 0
    juegos: int = 0  # won minus lost
    tantos: int = 0
    met: list[int] = field(default_factory=list)  # one entry per partida played (a rival met twice counts twice)
    buchholz: int = 0


def games_of(record: dict[str, Any]) -> list[Game]:
    """The partidas of the published rounds, in the record's order."""
    out = []
    for rnd in record.get("rondas", []):
        for m in rnd.get("partidas", []):
            out.append(
                Game(
                    rnd["numero"],
                    m.get("grupo") or "",
                    m["a"],
                    m.get("b"),
                    m["resultado"],
                    m.get("ganadora"),
                    (m.get("juegos_a"), m.get("juegos_b")),
                    (m.get("tantos_a"), m.get("tantos_b")),
                )
            )
    return out


def figures(pairs: Iterable[int], games: Iterable[Game], points_win: int) -> dict[int, Figures]:
    """Each pair's figures over the decided ``games`` among ``pairs`` (a rival outside counts nothing)."""
    table = {p: Figures() for p in pairs}
    for g in games:
        if not g.decided or g.a not in table:
            continue
        if g.b is None:
            if g.outcome == "bye":
                table[g.a].points += points_win
                table[g.a].byes += 1
            continue
        if g.b not in table:
            continue
        one, two = table[g.a], table[g.b]
        one.met.append(g.b)
        two.met.append(g.a)
        one.played += 1
        two.played += 1
        for loser in g.losers():
            table[loser].losses += 1
        if g.outcome != "double_loss" and g.winner in (g.a, g.b):
            table[g.winner].points += points_win
            table[g.winner].wins += 1
        if None not in g.juegos:
            ja, jb = g.juegos
            one.juegos += ja - jb  # type: ignore[operator]
            two.juegos += jb - ja  # type: ignore[operator]
        if None not in g.tantos:
            ta, tb = g.tantos
            one.tantos += ta - tb  # type: ignore[operator]
            two.tantos += tb - ta  # type: ignore[operator]
    for f in table.values():
        f.buchholz = sum(table[o].points for o in f.met)
    return table


def _cut(items: list[int], value: Callable[[int], Any]) -> list[list[int]]:
    """``items`` sorted by ``value`` (ascending), cut where the value changes."""
    blocks: list[list[int]] = []
    for p in sorted(items, key=value):
        if blocks and value(blocks[-1][0]) == value(p):
            blocks[-1].append(p)
        else:
            blocks.append([p])
    return blocks


def _mini_league(block: list[int], games: Sequence[Game], points_win: int) -> list[list[int]]:
    """Head-to-head: points won in the partidas among ``block`` only; again among any still tied."""
    inside = set(block)
    won = dict.fromkeys(block, 0)
    for g in games:
        if g.decided and g.a in inside and g.b in inside and g.outcome != "double_loss" and g.winner in inside:
            won[g.winner] += points_win
    parts = _cut(block, lambda p: -won[p])
    if len(parts) == 1:
        return parts
    return [sub for part in parts for sub in (_mini_league(part, games, points_win) if len(part) > 1 else [part])]


def _by_figure(table: dict[int, Figures], name: str) -> Callable[[int], int]:
    return lambda p: -int(getattr(table[p], name))


def ranked(
    pairs: Sequence[int],
    games: Sequence[Game],
    *,
    points_win: int,
    tiebreaks: Sequence[str],
    stage: Callable[[int], Any] | None = None,
    only: Iterable[int] | None = None,
) -> tuple[list[list[int]], dict[int, Figures]]:
    """The pairs in blocks of equals, best first: ``stage`` (lower better) then points then each
    tiebreak in order. Figures count every partida among ``pairs``; ``only`` ranks a subset."""
    table = figures(pairs, games, points_win)
    chosen = list(table) if only is None else [p for p in only if p in table]
    blocks = _cut(chosen, lambda p: ((stage(p) if stage else ()), -table[p].points))
    decided = [g for g in games if g.decided]
    for tiebreak in tiebreaks:
        next_blocks: list[list[int]] = []
        for block in blocks:
            if len(block) < 2:
                next_blocks.append(block)
            elif tiebreak == "head_to_head":
                next_blocks += _mini_league(block, decided, points_win)
            else:
                next_blocks += _cut(block, _by_figure(table, tiebreak))
        blocks = next_blocks
    return [sorted(b) for b in blocks], table


def places(blocks: list[list[int]], table: dict[int, Figures]) -> list[tuple[int, int, int, int]]:
    """(place, last place shared, pair, points) for each pair, as the record lists them."""
    rows = []
    place = 1
    for block in blocks:
        rows += [(place, place + len(block) - 1, p, table[p].points) for p in block]
        place += len(block)
    return rows


@dataclass
class Run:
    """A pair's run in an elimination: losses, when it went out, its pool (repesca)."""

    pool: str = ""
    losses: int = 0
    first_loss: int | None = None
    out: int | None = None
    last: int | None = None
    gone: bool = False  # withdrawn or expelled
    champion: bool = False

    @property
    def alive(self) -> bool:
        return self.out is None and not self.gone

    def key(self) -> tuple[int, int, int]:
        """Lower is better: the champion, the pairs still in, then out later before out earlier."""
        if self.champion:
            return (-1, 0, 0)
        if self.alive:
            return (0, self.losses, 0)
        if self.out is None:
            return (1, -((self.last or 0) + 1), 1)
        return (1, -self.out, 0)


@dataclass(frozen=True)
class Elimination:
    max_losses: int = 1
    repesca_until: int | None = None
    pool_b_losses: int = 2
    reentry: int | None = None
    finals_from: int | None = None

    def limit(self, first_loss: int | None) -> int:
        if self.repesca_until is not None and first_loss is not None and first_loss <= self.repesca_until:
            return self.pool_b_losses
        return self.max_losses


def runs(
    entrants: Iterable[int], games: Sequence[Game], rules: Elimination, *, gone: set[int], last_round: int
) -> dict[int, Run]:
    """Each pair's run through the decided partidas, round by round; a pool's last pair standing is
    its champion once nothing is pending (grupo B only after its repesca rounds)."""
    state = {p: Run(gone=p in gone) for p in entrants}
    for g in sorted(games, key=lambda g: g.round):
        for p in (g.a, g.b):
            if p in state:
                state[p].last = max(state[p].last or 0, g.round)
                if rules.repesca_until is not None:
                    state[p].pool = g.group
        if not g.decided:
            continue
        finals = rules.finals_from is not None and g.round >= rules.finals_from
        for p in g.losers():
            run = state.get(p)
            if run is None:
                continue
            run.losses += 1
            if run.first_loss is None:
                run.first_loss = g.round
            if run.out is None and (finals or run.losses >= rules.limit(run.first_loss)):
                run.out = g.round
    if rules.repesca_until is not None:
        merged = rules.reentry is not None and last_round + 1 >= rules.reentry
        for run in state.values():
            if run.alive:
                in_b = run.first_loss is not None and run.first_loss <= rules.repesca_until
                run.pool = "A" if merged or not in_b else "B"
    if all(g.decided for g in games) and last_round > 0:
        standing: dict[str, list[Run]] = {}
        for run in state.values():
            if run.alive:
                standing.setdefault(run.pool, []).append(run)
        for pool, left in standing.items():
            waits = pool == "B" and rules.repesca_until is not None and last_round < rules.repesca_until
            if len(left) == 1 and not waits:
                left[0].champion = True
    return state


@dataclass
class Classification:
    """The classification recomputed: its sections' rows (place, last place, pair, points), the
    expelled pairs left out, whether it is decided, and the pairs that went on playing after their
    elimination (none in an honest record)."""

    sections: list[list[tuple[int, int, int, int]]]
    excluded: list[int]
    decided: bool
    played_after_out: list[tuple[int, int]] = field(default_factory=list)  # (pair, round it went out)
    qualifiers: tuple[set[int], set[int]] | None = None  # liguillas: (expected, in the cuadro's first round)


def tiebreak_order(rules: dict[str, Any]) -> list[str]:
    raw = rules.get("tiebreaks") or ""
    names = raw.split(",") if isinstance(raw, str) else list(raw)
    order = [t.strip() for t in names if t.strip() in KNOWN_TIEBREAKS]
    return order or list(DEFAULT_TIEBREAKS)


@dataclass(frozen=True)
class Setting:
    """What every recomputation reads from a record: its rules, its partidas and who played."""

    rules: dict[str, Any]
    points_win: int
    tiebreaks: list[str]
    games: list[Game]
    entrants: list[int]
    expelled: list[int]
    gone: set[int]  # withdrawn or expelled
    last_round: int

    def elimination(self) -> Elimination:
        repesca = self.rules.get("format") == "repesca"
        return Elimination(
            max_losses=int(self.rules.get("max_losses") or 1),
            repesca_until=(self.rules.get("repesca_until_round") or 1) if repesca else None,
            pool_b_losses=int(self.rules.get("pool_b_max_losses") or 2),
            reentry=self.rules.get("repesca_reentry_round") if repesca else None,
            finals_from=self.rules.get("final_phase_from_round"),
        )

    def groups(self) -> dict[str, list[int]]:
        """The liguillas: the groups of round 1."""
        found: dict[str, list[int]] = {}
        for g in self.games:
            if g.round == 1:
                found.setdefault(g.group, []).extend(p for p in (g.a, g.b) if p is not None)
        return found


def setting(record: dict[str, Any]) -> Setting:
    rules = record["torneo"]["reglas"]
    games = games_of(record)
    entrants = list(dict.fromkeys(p for g in games for p in (g.a, g.b) if p is not None))
    status = {p["numero"]: p.get("estado") for p in record.get("parejas", [])}
    return Setting(
        rules=rules,
        points_win=int(rules.get("points_per_win") or 1),
        tiebreaks=tiebreak_order(rules),
        games=games,
        entrants=entrants,
        expelled=[p for p in entrants if status.get(p) == "expelled"],
        gone={p for p in entrants if status.get(p) in ("withdrawn", "expelled")},
        last_round=max((r["numero"] for r in record.get("rondas", []) if r.get("estado") == "published"), default=0),
    )


def _after_out(state: dict[int, Run]) -> list[tuple[int, int]]:
    return sorted((p, r.out) for p, r in state.items() if r.out is not None and (r.last or 0) > r.out)


def classification(record: dict[str, Any]) -> Classification:
    """The final classification of ``record``, from its partidas and its rules alone."""
    st = setting(record)
    rules, games, entrants = st.rules, st.games, st.entrants
    expelled, gone, last_round = st.expelled, st.gone, st.last_round
    kept = [p for p in entrants if p not in expelled]
    pending = any(not g.decided for g in games)
    fmt = rules.get("format")

    def rank(stage: Callable[[int], Any] | None, only: Sequence[int]) -> list[tuple[int, int, int, int]]:
        blocks, table = ranked(
            entrants, games, points_win=st.points_win, tiebreaks=st.tiebreaks, stage=stage, only=only
        )
        return places(blocks, table)

    if fmt in ("ceros", "repesca"):
        repesca = fmt == "repesca"
        state = runs(entrants, games, st.elimination(), gone=gone, last_round=last_round)
        pools = [kept]
        if repesca and rules.get("repesca_reentry_round") is None:
            # Without re-entry grupo B plays for its own prizes: a classification of its own.
            pools = [[p for p in kept if state[p].pool != "B"], [p for p in kept if state[p].pool == "B"]]
        return Classification(
            [rank(lambda p: state[p].key(), pool) for pool in pools],
            expelled,
            last_round > 0 and not pending and all(sum(state[p].alive for p in pool) <= 1 for pool in pools),
            _after_out(state),
        )
    if fmt == "groups":
        group_rounds = {r["numero"] for r in record.get("rondas", []) if r.get("fase") == "groups"}
        in_groups = [g for g in games if g.round in group_rounds]
        cuadro = [g for g in games if g.round not in group_rounds]
        groups = st.groups()
        first_cuadro = min((g.round for g in cuadro), default=None)
        in_first = {p for g in cuadro if g.round == first_cuadro for p in (g.a, g.b) if p is not None}
        place_in_group: dict[int, int] = {}
        expected: set[int] = set()
        for members in groups.values():
            inside = set(members)
            blocks, table = ranked(
                members, [g for g in in_groups if g.a in inside], points_win=st.points_win, tiebreaks=st.tiebreaks
            )
            rows = places(blocks, table)
            place_in_group.update({p: place for place, _to, p, _pts in rows})
            # The qualifiers when the cuadro was drawn: a pair that withdrew later still took its place.
            still_in = [p for _place, _to, p, _pts in rows if p not in gone or p in in_first]
            expected.update(still_in[: int(rules.get("group_qualifiers") or 0)])
        in_cuadro = {p for g in cuadro for p in (g.a, g.b) if p is not None}
        state = runs(in_cuadro, cuadro, Elimination(max_losses=1), gone=gone & in_cuadro, last_round=last_round)

        def stage(p: int) -> tuple[int, int, int, int]:
            if p in state:
                return (0, *state[p].key())
            return (1, place_in_group.get(p, 99), 0, 0)

        return Classification(
            [rank(stage, kept)],
            expelled,
            bool(cuadro) and not pending and sum(r.alive for r in state.values()) <= 1,
            _after_out(state),
            (expected, in_first) if cuadro else None,
        )
    swiss_rounds = int(rules.get("swiss_rounds") or 0)
    return Classification([rank(None, kept)], expelled, not pending and last_round >= swiss_rounds > 0)


Line = tuple[int, int, int, int, int, int, int, int, int, int, str, bool]
"""A standings line: place, last place shared, pair, played, won, lost, exentas, points, juegos
(won − lost), tantos (won − lost), status, goes on to the cuadro."""


def _line(place: int, to: int, pair: int, f: Figures, status: str, goes: bool = False) -> Line:
    return (place, to, pair, f.played, f.wins, f.losses, f.byes, f.points, f.juegos, f.tantos, status, goes)


def _status(pair: int, expelled: set[int], gone: set[int]) -> str:
    return "expelled" if pair in expelled else ("withdrawn" if pair in gone else "")


def standings(record: dict[str, Any]) -> dict[str, list[Line]]:
    """The standings tables the site publishes (its standings page), by pool: one per pool of an
    elimination format (positions within the pool, in the order of the whole), one per liguilla
    (its first ``group_qualifiers`` pairs still in go on), the Swiss's. Every pair that played is
    listed, expelled ones too (marked)."""
    st = setting(record)
    rules, games, entrants, gone = st.rules, st.games, st.entrants, st.gone
    points_win, tiebreaks = st.points_win, st.tiebreaks
    expelled = set(st.expelled)
    fmt = rules.get("format")
    if fmt in ("ceros", "repesca"):
        state = runs(entrants, games, st.elimination(), gone=gone, last_round=st.last_round)
        blocks, table = ranked(
            entrants, games, points_win=points_win, tiebreaks=tiebreaks, stage=lambda p: state[p].key()
        )
        spot = {pair: (place, to) for place, to, pair, _pts in places(blocks, table)}
        pools: dict[str, list[int]] = {}
        for block in blocks:
            for pair in block:
                pools.setdefault(state[pair].pool, []).append(pair)
        out: dict[str, list[Line]] = {}
        for pool in sorted(pools):
            members = pools[pool]
            lines: list[Line] = []
            i = 0
            while i < len(members):  # places within the pool, shared where shared in the whole
                j = i
                while j + 1 < len(members) and spot[members[j + 1]] == spot[members[i]]:
                    j += 1
                for pair in members[i : j + 1]:
                    run = state[pair]
                    label = (
                        "expelled"
                        if pair in expelled
                        else "champion"
                        if run.champion
                        else "alive"
                        if run.alive
                        else ("withdrawn" if run.out is None else "out")
                    )
                    lines.append(_line(i + 1, j + 1, pair, table[pair], label))
                i = j + 1
            out[pool] = lines
        return out
    if fmt == "groups":
        group_rounds = {r["numero"] for r in record.get("rondas", []) if r.get("fase") == "groups"}
        in_groups = [g for g in games if g.round in group_rounds]
        groups = st.groups()
        out = {}
        qualifiers = int(rules.get("group_qualifiers") or 0)
        for label, members in groups.items():
            inside = set(members)
            blocks, table = ranked(
                members, [g for g in in_groups if g.a in inside], points_win=points_win, tiebreaks=tiebreaks
            )
            going = [p for block in blocks for p in block if p not in gone][:qualifiers]
            out[label] = [
                _line(place, to, pair, table[pair], _status(pair, expelled, gone), pair in going)
                for place, to, pair, _pts in places(blocks, table)
            ]
        return out
    blocks, table = ranked(entrants, games, points_win=points_win, tiebreaks=tiebreaks)
    return {
        "": [
            _line(place, to, pair, table[pair], _status(pair, expelled, gone))
            for place, to, pair, _pts in places(blocks, table)
        ]
    }
