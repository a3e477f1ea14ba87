"""One tournament in memory: its pairs, rounds and published matches as plain values, read in four
queries (pairs, their players, rounds, matches) whatever the tournament's size.

The one loader of a tournament's state. The draw manager plans the next round from it, the
standings, classification and bracket pages and the CSV exports build their tables from it (through
the pure core scoring.standings), the pair page decides from it whether the pair is still in. Pairs
are keyed one way everywhere: by their number (unique in the tournament, public, and what the
published draws name), in ``pairs``, in every ``MatchInfo`` and in the standings' records.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from scoring.standings import MatchRecord
from torneo.draws import liguilla_members
from torneo.models import Match, Pair, PairMember, Round, Tournament, pair_label, players_label

Outcome = Match.Outcome


@dataclass(frozen=True)
class PairInfo:
    id: int
    number: int
    name: str  # the display name: the pair's name, or its players' surnames
    players: str
    status: str
    checked_in: bool = False

    @property
    def out(self) -> bool:
        """Withdrawn or expelled: never drawn again (AMM 3.16.b for the expulsion)."""
        return self.status in Pair.Status.out()

    @property
    def expelled(self) -> bool:
        return self.status == Pair.Status.EXPELLED

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "players": self.players, "status": self.status}


@dataclass(frozen=True)
class RoundInfo:
    id: int
    number: int
    kind: str
    phase: str
    is_final: bool
    published: bool


@dataclass
class MatchInfo:
    id: int
    round_number: int
    pool: str
    table: int | None
    slot: int | None
    a: PairInfo
    b: PairInfo | None
    outcome: str
    games_a: int | None
    games_b: int | None
    tantos_a: int | None
    tantos_b: int | None
    winner: int | None  # the winner's pair number
    version: int

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def decided(self) -> bool:
        return self.outcome != Outcome.PENDING

    @property
    def outcome_label(self) -> str:
        return str(Outcome(self.outcome).label)

    @property
    def score(self) -> str:
        if self.games_a is None or self.games_b is None:
            return ""
        return f"{self.games_a}–{self.games_b}"

    @property
    def winner_side(self) -> str:
        if self.winner is None:
            return ""
        return "a" if self.winner == self.a.number else "b"

    @property
    def special(self) -> bool:
        return self.outcome not in (Outcome.PENDING, Outcome.PLAYED, Outcome.BYE)

    def record(self) -> MatchRecord[int]:
        return MatchRecord(
            a=self.a.number,
            b=self.b.number if self.b else None,
            outcome=self.outcome,
            winner=self.winner,
            games_a=self.games_a,
            games_b=self.games_b,
            tantos_a=self.tantos_a,
            tantos_b=self.tantos_b,
            round_number=self.round_number,
            pool=self.pool,
            slot=self.slot,
            key=self.id,
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "round": self.round_number,
            "pool": self.pool,
            "table": self.table,
            "pair_a": self.a.as_dict(),
            "pair_b": self.b.as_dict() if self.b else None,
            "outcome": self.outcome,
            "games_a": self.games_a,
            "games_b": self.games_b,
            "tantos_a": self.tantos_a,
            "tantos_b": self.tantos_b,
            "winner": self.winner,
            "version": self.version,
        }


def pair_infos(tournament: Tournament, ids: Iterable[int] | None = None) -> dict[int, PairInfo]:
    """The tournament's pairs (or only the pairs of pks `ids`) with their display names, by pk:
    two queries."""
    pairs = Pair.objects.filter(tournament=tournament)
    members = PairMember.objects.filter(tournament=tournament)
    if ids is not None:
        ids = list(ids)
        pairs, members = pairs.filter(pk__in=ids), members.filter(pair_id__in=ids)
    by_pair: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for pair_id, first, last in members.order_by("pair_id", "position").values_list(
        "pair_id", "player__first_name", "player__last_name"
    ):
        by_pair[pair_id].append((first, last))
    infos = {}
    for pk, number, name, status, checked_in_at in pairs.values_list(
        "pk", "number", "name", "status", "checked_in_at"
    ):
        seated = by_pair.get(pk, [])
        infos[pk] = PairInfo(
            pk, number, pair_label(name, seated, number), players_label(seated), status, checked_in_at is not None
        )
    return infos


MATCH_FIELDS = (
    "pk",
    "round__number",
    "pool",
    "table_number",
    "slot",
    "pair_a_id",
    "pair_b_id",
    "outcome",
    "games_a",
    "games_b",
    "tantos_a",
    "tantos_b",
    "winner_id",
    "result_version",
)


def match_infos(rows: Iterable[tuple[Any, ...]], pairs: dict[int, PairInfo]) -> list[MatchInfo]:
    """Rows of ``MATCH_FIELDS`` as MatchInfo, with ``pairs`` by pk (as `pair_infos` returns them)."""
    out = []
    for pk, rnd, pool, table, slot, a, b, outcome, ga, gb, ta, tb, winner, version in rows:
        out.append(
            MatchInfo(
                pk,
                rnd,
                pool,
                table,
                slot,
                pairs[a],
                pairs[b] if b else None,
                outcome,
                ga,
                gb,
                ta,
                tb,
                pairs[winner].number if winner else None,
                version,
            )
        )
    return out


@dataclass
class TournamentSnapshot:
    """A tournament's pairs (by number), its rounds and the matches of its published rounds (in
    round, pool, table order)."""

    tournament: Tournament
    pairs: dict[int, PairInfo]
    rounds: list[RoundInfo]
    matches: list[MatchInfo]
    _records: list[MatchRecord[int]] | None = None

    @property
    def published(self) -> list[RoundInfo]:
        return [r for r in self.rounds if r.published]

    @property
    def last_round(self) -> int:
        """The number of the latest published round (0 before the first)."""
        return max((r.number for r in self.published), default=0)

    @property
    def pending(self) -> bool:
        return any(not m.decided for m in self.matches)

    def records(self, matches: Iterable[MatchInfo] | None = None) -> list[MatchRecord[int]]:
        """The matches (all published ones by default) as the standings' plain records."""
        if matches is not None:
            return [m.record() for m in matches]
        if self._records is None:
            self._records = [m.record() for m in self.matches]
        return self._records

    def in_round(self, number: int) -> list[MatchInfo]:
        return [m for m in self.matches if m.round_number == number]

    def in_matches(self) -> list[int]:
        """Every pair of a published match (exentas included), in the order they first appear."""
        seen: dict[int, None] = {}
        for m in self.matches:
            seen[m.a.number] = None
            if m.b:
                seen[m.b.number] = None
        return list(seen)

    def entrants(self) -> list[int]:
        """The pairs in the tournament's draws: those of round 1, or before it the confirmed pairs
        that checked in (only the pairs present are drawn), by number."""
        first = self.in_round(1)
        if first:
            return sorted({n for m in first for n in (m.a.number, m.b.number if m.b else None) if n is not None})
        return sorted(n for n, p in self.pairs.items() if p.status == Pair.Status.CONFIRMED and p.checked_in)

    def liguillas(self) -> dict[str, list[int]]:
        """Each liguilla's pairs, from its first round (every pair plays there or has its exenta)."""
        # liguilla_members returns the pair ids it is given: pair numbers here.
        members = liguilla_members((m.pool, m.a.number, m.b.number if m.b else None) for m in self.in_round(1))
        return cast("dict[str, list[int]]", members)

    def out(self, number: int) -> bool:
        return self.pairs[number].out

    def withdrawn(self) -> set[int]:
        """The pairs out of the tournament (withdrawn or expelled)."""
        return {n for n, p in self.pairs.items() if p.out}

    def expelled(self) -> set[int]:
        return {n for n, p in self.pairs.items() if p.expelled}

    @property
    def history(self) -> list[tuple[int, int]]:
        """Who has met whom (no repeated matches, AMM 5.7)."""
        return [(m.a.number, m.b.number) for m in self.matches if m.b is not None]

    @property
    def byes(self) -> list[int]:
        """The pairs that had an exenta (no second exenta, AMM 5.6)."""
        return [m.a.number for m in self.matches if m.b is None and m.outcome == Outcome.BYE]


def load(tournament: Tournament) -> TournamentSnapshot:
    """The tournament's snapshot: four queries."""
    by_pk = pair_infos(tournament)
    rounds = [
        RoundInfo(pk, n, kind, phase, final, status == Round.Status.PUBLISHED)
        for pk, n, kind, phase, final, status in Round.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("pk", "number", "kind", "phase", "is_final", "status")
    ]
    rows = (
        Match.objects.filter(round__tournament=tournament, round__status=Round.Status.PUBLISHED)
        .order_by("round__number", "pool", "table_number", "slot", "pk")
        .values_list(*MATCH_FIELDS)
    )
    pairs = {p.number: p for p in by_pk.values()}
    return TournamentSnapshot(tournament, pairs, rounds, match_infos(rows, by_pk))
