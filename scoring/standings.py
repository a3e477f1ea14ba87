"""Standings from match results, as plain data (no Django): points and a configurable tiebreak order,
survival in "a N ceros" formats, the final classification and the bracket's tree.

Used for Swiss score groups, liguilla tables and bracket seeds (torneo.draws.manager), the public
standings, bracket and classification pages (scoring.selectors), and the benchmarks.

A win is worth ``points_win`` (an exenta counts as a win: the pair goes through, AMM 5.6); a double
loss (AMM 6.1.b, 6.5.b) gives both pairs nothing and counts as a loss for both. Ties are broken by
the tiebreaks in the tournament's order; pairs still equal on all of them share the position.

Tiebreaks (identifiers used in the tournament's configuration):

* ``juegos``: juegos won minus juegos lost;
* ``tantos``: tantos won minus tantos lost, from the juegos whose tantos were recorded;
* ``buchholz``: the sum of the points of the opponents met (exentas add nothing);
* ``head_to_head``: points in the matches among the tied pairs only (a mini-league); when it
  separates some of them, it is applied again among those still tied (three pairs A, B, C: if A
  beat both, B and C are then compared by their own match);
* ``wins``: matches won (exentas not counted).

Final classification (decided for this system, shown on the classification page):

* knockout and "a N ceros" (with or without repesca): the champion first, then the other pairs by
  the round in which they were eliminated (later is better; in the rondas finales one loss
  eliminates). Pairs eliminated in the same round are ordered by points and then by the
  tournament's tiebreak order; pairs equal on all of them share the position (3.º–4.º). With
  Buchholz in the order (the default), of two semifinal losers the one beaten by the champion is
  3rd. A repesca without re-entry has two classifications, grupo A and grupo B (its own prizes).
* Swiss: the standings order (points, then the tiebreak order).
* liguillas and cuadro: the bracket pairs by the bracket round where they were eliminated, then the
  pairs that did not qualify by their position in their liguilla, then points and tiebreaks.
* Withdrawn pairs keep the place their results gave them; expelled pairs (descalificadas, AMM
  3.16.b) are not classified.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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
    matches: Iterable[MatchRecord],
    *,
    points_win: int = 1,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    first: Mapping[PairId, Any] | None = None,
    among: Iterable[PairId] | None = None,
) -> list[Row]:
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

    def head(row: Row) -> tuple[Any, int]:
        return ((first or {}).get(row.pair, ()), -row.points)

    groups = _split(sorted(rows.values(), key=head), head)
    by_pair: dict[PairId, list[MatchRecord]] = defaultdict(list)
    if "head_to_head" in order:
        for m in decided:
            by_pair[m.a].append(m)
    for tiebreak in order:
        groups = [part for group in groups for part in _break(group, tiebreak, by_pair, points_win)]
    position = 1
    result: list[Row] = []
    for group in groups:
        for row in sorted(group, key=lambda r: _pair_key(r.pair)):
            row.rank = position
            row.rank_to = position + len(group) - 1
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


def _split(ordered: list[Row], key: Callable[[Row], Any]) -> list[list[Row]]:
    groups: list[list[Row]] = []
    for row in ordered:
        if groups and key(groups[-1][0]) == key(row):
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def _head_to_head(group: list[Row], by_pair: Mapping[PairId, list[MatchRecord]], points_win: int) -> list[list[Row]]:
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
    group: list[Row], tiebreak: str, by_pair: Mapping[PairId, list[MatchRecord]], points_win: int
) -> list[list[Row]]:
    if len(group) < 2:
        return [group]
    if tiebreak == "head_to_head":
        return _head_to_head(group, by_pair, points_win)

    def value(r: Row) -> int:
        v = r.tiebreak_value(tiebreak)
        return 0 if v is None else v

    return _split(sorted(group, key=lambda r: -value(r)), value)


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
        for loser in m.losers():
            losses[loser] += 1
    return dict(losses), dict(byes)


# --- "a N ceros", repesca: who is still in ---------------------------------------------------------


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
class Survival:
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
    matches: Sequence[MatchRecord],
    rules: CerosRules,
    *,
    withdrawn: Iterable[PairId] = (),
    last_round: int = 0,
) -> dict[PairId, Survival]:
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
            s = states.get(loser)
            if s is None:
                continue
            s.losses += 1
            if s.first_loss_round is None:
                s.first_loss_round = m.round_number
            if s.out_round is None and (in_final_phase or s.losses >= rules.limit(s.first_loss_round)):
                s.out_round = m.round_number
    merged = rules.reentry_round is not None and last_round + 1 >= rules.reentry_round
    for s in states.values():
        if s.alive and rules.repesca_until is not None:
            s.pool = "A" if merged else rules.pool_of(s.first_loss_round)
    if not pending:
        by_pool: dict[str, list[Survival]] = defaultdict(list)
        for s in states.values():
            if s.alive:
                by_pool[s.pool].append(s)
        for pool, alive in by_pool.items():
            waits = pool == "B" and rules.repesca_until is not None and last_round < rules.repesca_until
            if len(alive) == 1 and not waits and last_round > 0:
                alive[0].champion = True
    return states


def survival_order(s: Survival) -> tuple[int, int, int]:
    """Standings order in an elimination format: pairs still in first (fewer losses first), then
    by the round of elimination, later first; withdrawn pairs after those eliminated with them."""
    if s.alive:
        return (0, s.losses, 0)
    out = s.out_round if s.out_round is not None else (s.last_round or 0) + 1
    return (1, -out, 1 if s.out_round is None else 0)


# --- the final classification -----------------------------------------------------------------------


@dataclass
class Place:
    """A pair's place in a classification: ``position``–``position_to`` when shared."""

    pair: PairId
    position: int
    position_to: int
    stage: str  # "champion", "alive", "out:<round>", "withdrawn", "group:<position>", "standings"
    row: Row

    @property
    def shared(self) -> bool:
        return self.position_to != self.position


def classify(
    pairs: Iterable[PairId],
    matches: Sequence[MatchRecord],
    *,
    stage: Mapping[PairId, tuple[Any, str]] | None = None,
    points_win: int = 1,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    among: Iterable[PairId] | None = None,
) -> list[Place]:
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


def elimination_stages(states: Mapping[PairId, Survival]) -> dict[PairId, tuple[Any, str]]:
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


# --- the bracket as a tree ----------------------------------------------------------------------------


@dataclass(eq=False)
class BracketNode:
    """A bracket match and the matches of the previous round its two pairs came from."""

    match: MatchRecord
    children: list[BracketNode] = field(default_factory=list)

    @property
    def depth(self) -> int:
        return 1 + max((c.depth for c in self.children), default=0)


def bracket_forest(matches: Sequence[MatchRecord]) -> list[BracketNode]:
    """The bracket rounds' matches as trees, the latest round at the roots.

    Each match's children are the matches of the previous bracket round where its pairs played
    (works for fixed brackets and for knockouts redrawn every round). A match that feeds nothing
    — a double loss, both pairs out (AMM 6.5.b) — hangs under the match its bracket neighbour
    (slot ^ 1) fed, where the next opponent had the exenta; failing that it is a root of its own."""
    rounds = sorted({m.round_number for m in matches})
    by_round: dict[int, list[MatchRecord]] = defaultdict(list)
    for m in matches:
        by_round[m.round_number].append(m)
    nodes: dict[int, list[BracketNode]] = {}
    for r in rounds:
        ordered = sorted(by_round[r], key=lambda m: (m.pool, m.slot if m.slot is not None else 1 << 30, str(m.key)))
        nodes[r] = [BracketNode(m) for m in ordered]
    roots: list[BracketNode] = []
    for i, r in enumerate(rounds):
        if i + 1 == len(rounds):
            roots.extend(nodes[r])
            continue
        following = nodes[rounds[i + 1]]
        where: dict[PairId, BracketNode] = {}
        for parent in following:
            for p in (parent.match.a, parent.match.b):
                if p is not None:
                    where[p] = parent
        fed: dict[tuple[str, int | None], BracketNode] = {}
        orphans: list[BracketNode] = []
        for node in nodes[r]:
            parent = where.get(node.match.a) or (where.get(node.match.b) if node.match.b is not None else None)
            if parent is not None and node not in parent.children:
                parent.children.append(node)
                fed[(node.match.pool, node.match.slot)] = parent
            elif parent is None:
                orphans.append(node)
        for node in orphans:
            slot = node.match.slot
            parent = fed.get((node.match.pool, slot ^ 1)) if slot is not None else None
            if parent is not None and len(parent.children) < 2:
                parent.children.append(node)
                parent.children.sort(key=lambda c: c.match.slot if c.match.slot is not None else 1 << 30)
            else:
                roots.append(node)
    roots.sort(key=lambda n: (-n.match.round_number, n.match.pool, n.match.slot if n.match.slot is not None else 0))
    return roots
