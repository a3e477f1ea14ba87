"""Reads for the results, standings, bracket and classification pages and the API, each in a fixed
number of queries whatever the number of pairs: plain values are read once and the pure functions of
scoring.standings do the rest.

The heavy public reads (standings, classification, bracket) are cached under the tournament's
stamp (torneo.pagecache), so a hundred phones refreshing after each result cost one computation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import ResultSubmission
from scoring.services.results import round_locked
from scoring.standings import (
    BracketNode,
    CerosRules,
    MatchRecord,
    Place,
    Survival,
    bracket_forest,
    classify,
    compute,
    elimination_stages,
    survival,
)
from torneo import pagecache
from torneo.draws import liguilla_members
from torneo.models import Match, Pair, PairMember, Round, Tournament

Outcome = Match.Outcome
OUT_STATUSES = (Pair.Status.WITHDRAWN, Pair.Status.EXPELLED)
T = TypeVar("T")


def tiebreak_label(name: str) -> str:
    labels = {
        "juegos": _("Diferencia de juegos"),
        "tantos": _("Diferencia de tantos"),
        "buchholz": _("Buchholz (puntos de los rivales)"),
        "head_to_head": _("Enfrentamiento directo"),
        "wins": _("Partidas ganadas"),
    }
    return labels.get(name, name)


def tiebreak_short(name: str) -> str:
    labels = {
        "juegos": _("±J"),
        "tantos": _("±T"),
        "buchholz": _("Bu"),
        "head_to_head": _("DD"),
        "wins": _("G"),
    }
    return labels.get(name, name)


# --- plain data ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairInfo:
    id: int
    number: int
    name: str
    players: str
    status: str

    @property
    def out(self) -> bool:
        return self.status in OUT_STATUSES

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
    winner_id: int | None
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
        if self.winner_id is None:
            return ""
        return "a" if self.winner_id == self.a.id else "b"

    @property
    def special(self) -> bool:
        return self.outcome not in (Outcome.PENDING, Outcome.PLAYED, Outcome.BYE)

    def record(self) -> MatchRecord:
        return MatchRecord(
            a=self.a.id,
            b=self.b.id if self.b else None,
            outcome=self.outcome,
            winner=self.winner_id,
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
            "winner": None if self.winner_id is None else (self.a if self.winner_side == "a" else self.b).number,  # type: ignore[union-attr]
            "version": self.version,
        }


def _display(name: str, members: list[tuple[int, str, str]]) -> tuple[str, str]:
    members.sort()
    label = name or " / ".join(last or first for _pos, first, last in members)
    players = " · ".join(f"{first} {last}".strip() for _pos, first, last in members)
    return label, players


def pair_infos(tournament: Tournament, ids: Iterable[int] | None = None) -> dict[int, PairInfo]:
    """The tournament's pairs (or only `ids`) with their display names: two queries."""
    pairs = Pair.objects.filter(tournament=tournament)
    members = PairMember.objects.filter(tournament=tournament)
    if ids is not None:
        ids = list(ids)
        pairs, members = pairs.filter(pk__in=ids), members.filter(pair_id__in=ids)
    by_pair: dict[int, list[tuple[int, str, str]]] = defaultdict(list)
    for pair_id, position, first, last in members.values_list(
        "pair_id", "position", "player__first_name", "player__last_name"
    ):
        by_pair[pair_id].append((position, first, last))
    infos = {}
    for pk, number, name, status in pairs.values_list("pk", "number", "name", "status"):
        label, players = _display(name, by_pair.get(pk, []))
        infos[pk] = PairInfo(pk, number, label or f"#{number}", players, status)
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


def _match_infos(rows: Iterable[tuple[Any, ...]], pairs: dict[int, PairInfo]) -> list[MatchInfo]:
    out = []
    for pk, rnd, pool, table, slot, a, b, outcome, ga, gb, ta, tb, winner, version in rows:
        out.append(
            MatchInfo(
                pk, rnd, pool, table, slot, pairs[a], pairs[b] if b else None, outcome, ga, gb, ta, tb, winner, version
            )
        )
    return out


@dataclass
class TournamentData:
    """Everything the standings need, read in four queries: pairs, their players, rounds, matches
    of the published rounds."""

    tournament: Tournament
    pairs: dict[int, PairInfo]
    rounds: list[RoundInfo]
    matches: list[MatchInfo]
    _records: list[MatchRecord] | None = None

    @property
    def published(self) -> list[RoundInfo]:
        return [r for r in self.rounds if r.published]

    @property
    def last_round(self) -> int:
        return max((r.number for r in self.published), default=0)

    @property
    def pending(self) -> bool:
        return any(not m.decided for m in self.matches)

    def records(self, matches: Iterable[MatchInfo] | None = None) -> list[MatchRecord]:
        if matches is not None:
            return [m.record() for m in matches]
        if self._records is None:
            self._records = [m.record() for m in self.matches]
        return self._records

    def entrants(self) -> list[int]:
        seen: dict[int, None] = {}
        for m in self.matches:
            seen[m.a.id] = None
            if m.b:
                seen[m.b.id] = None
        return list(seen)


def load(tournament: Tournament) -> TournamentData:
    pairs = pair_infos(tournament)
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
    return TournamentData(tournament, pairs, rounds, _match_infos(rows, pairs))


# --- cache ----------------------------------------------------------------------------------------------


def cached(kind: str, tournament: Tournament, build: Callable[[], T]) -> T:
    """The standings, classification or bracket data, computed once per change (torneo.pagecache)."""
    return pagecache.cached(f"scoring:{kind}:{tournament.pk}", pagecache.tournament_stamp(tournament), build)


# --- standings ------------------------------------------------------------------------------------------


@dataclass
class StandingsRow:
    position: int
    position_to: int
    pair: PairInfo
    played: int
    wins: int
    losses: int
    byes: int
    points: int
    juegos_diff: int
    tantos_diff: int
    values: list[int | None] = field(default_factory=list)  # the tiebreak columns
    status: str = ""  # "alive", "champion", "out", "withdrawn", "expelled"
    status_label: str = ""
    qualifies: bool = False

    @property
    def shared(self) -> bool:
        return self.position_to != self.position

    @property
    def position_label(self) -> str:
        return position_label(self.position, self.position_to)

    def as_dict(self, tiebreaks: list[str]) -> dict[str, Any]:
        return {
            "position": self.position,
            "position_to": self.position_to,
            "pair": self.pair.as_dict(),
            "played": self.played,
            "wins": self.wins,
            "losses": self.losses,
            "byes": self.byes,
            "points": self.points,
            "juegos_diff": self.juegos_diff,
            "tantos_diff": self.tantos_diff,
            "tiebreaks": dict(zip(tiebreaks, self.values, strict=False)),
            "status": self.status,
            "status_label": self.status_label,
            "qualifies": self.qualifies,
        }


@dataclass
class StandingsTable:
    title: str
    pool: str
    kind: str  # "points" (Swiss, liguillas) or "ceros" (elimination formats)
    rows: list[StandingsRow]
    champion: PairInfo | None = None
    alive: int = 0


@dataclass
class Standings:
    format: str
    format_label: str
    tables: list[StandingsTable]
    tiebreaks: list[str]
    last_round: int
    pending: bool
    note: str = ""

    @property
    def tiebreak_columns(self) -> list[tuple[str, str, str]]:
        return [(t, tiebreak_short(t), tiebreak_label(t)) for t in self.tiebreaks if t != "head_to_head"]

    @property
    def value_tiebreaks(self) -> list[str]:
        return [t for t in self.tiebreaks if t != "head_to_head"]


def position_label(position: int, position_to: int) -> str:
    if position_to != position:
        return f"{position}.º–{position_to}.º"
    return f"{position}.º"


def _status(s: Survival, pair: PairInfo) -> tuple[str, str]:
    if pair.expelled:
        return "expelled", _("Expulsada")
    if s.champion:
        return "champion", _("Campeona")
    if s.alive:
        return "alive", _("En juego")
    if s.out_round is None:
        return "withdrawn", _("Retirada")
    return "out", _("Eliminada en la ronda %(n)d") % {"n": s.out_round}


def ceros_rules(tournament: Tournament) -> CerosRules:
    repesca = tournament.format == Tournament.Format.REPESCA
    return CerosRules(
        max_losses=tournament.max_losses,
        repesca_until=(tournament.repesca_until_round or 1) if repesca else None,
        pool_b_max_losses=tournament.pool_b_max_losses,
        reentry_round=tournament.repesca_reentry_round if repesca else None,
        final_from_round=tournament.final_phase_from_round,
    )


def _survival(data: TournamentData) -> dict[int, Survival]:
    entrants = data.entrants()
    return survival(
        entrants,
        data.records(),
        ceros_rules(data.tournament),
        withdrawn=[p for p in entrants if data.pairs[p].out],
        last_round=data.last_round,
    )


def groups_of(data: TournamentData) -> dict[str, list[int]]:
    """Each liguilla's pairs, from its first round (as torneo.draws.manager reads them)."""
    first = min((m.round_number for m in data.matches), default=None)
    return liguilla_members((m.pool, m.a.id, m.b.id if m.b else None) for m in data.matches if m.round_number == first)


def _points_table(
    title: str, pool: str, data: TournamentData, members: list[int], matches: list[MatchInfo], tiebreaks: list[str]
) -> StandingsTable:
    t = data.tournament
    rows = compute(members, [m.record() for m in matches], points_win=t.points_per_win, tiebreaks=tiebreaks)
    shown = [tb for tb in tiebreaks if tb != "head_to_head"]
    out = []
    for r in rows:
        pair = data.pairs[r.pair]
        status, label = (
            ("expelled", _("Expulsada")) if pair.expelled else (("withdrawn", _("Retirada")) if pair.out else ("", ""))
        )
        out.append(
            StandingsRow(
                r.rank,
                r.rank_to,
                pair,
                r.played,
                r.wins,
                r.losses,
                r.byes,
                r.points,
                r.juegos_diff,
                r.tantos_diff,
                [r.tiebreak_value(tb) for tb in shown],
                status,
                label,
            )
        )
    return StandingsTable(title, pool, "points", out)


def _ceros_tables(data: TournamentData, tiebreaks: list[str]) -> list[StandingsTable]:
    t = data.tournament
    states = _survival(data)
    places = classify(
        list(states),
        data.records(),
        stage=elimination_stages(states),
        points_win=t.points_per_win,
        tiebreaks=tiebreaks,
    )
    by_pool: dict[str, list[StandingsRow]] = defaultdict(list)
    champions: dict[str, PairInfo] = {}
    alive: dict[str, int] = defaultdict(int)
    for place in places:
        s = states[place.pair]
        pair = data.pairs[place.pair]
        status, label = _status(s, pair)
        row = place.row
        by_pool[s.pool].append(
            StandingsRow(
                0,
                0,
                pair,
                s.played,
                s.wins,
                s.losses,
                s.byes,
                row.points,
                row.juegos_diff,
                row.tantos_diff,
                [],
                status,
                label,
            )
        )
        if s.champion:
            champions[s.pool] = pair
        if s.alive:
            alive[s.pool] += 1
    by_pair = {p.pair: p for p in places}
    tables = []
    for pool in sorted(by_pool):
        rows = by_pool[pool]
        _renumber(rows, lambda r: (by_pair[r.pair.id].position, by_pair[r.pair.id].position_to))
        title = {"": _("Clasificación"), "A": _("Grupo A"), "B": _("Grupo B (repesca)")}.get(pool, pool)
        tables.append(StandingsTable(title, pool, "ceros", rows, champions.get(pool), alive[pool]))
    return tables


def _renumber(rows: list[StandingsRow], key_of: Callable[[StandingsRow], Any]) -> None:
    """Positions within one table (1, 2, …), shared where `key_of` is equal for consecutive rows."""
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and key_of(rows[j + 1]) == key_of(rows[i]):
            j += 1
        for k in range(i, j + 1):
            rows[k].position, rows[k].position_to = i + 1, j + 1
        i = j + 1


def standings(tournament: Tournament, data: TournamentData | None = None) -> Standings:
    """The standings for the tournament's format (see scoring.standings for the rules)."""
    data = data or load(tournament)
    tiebreaks = tournament.tiebreak_order
    fmt = tournament.format
    tables: list[StandingsTable]
    if fmt in (Tournament.Format.CEROS, Tournament.Format.REPESCA):
        tables = _ceros_tables(data, tiebreaks)
        note = ngettext(
            "Eliminatoria: una pareja queda eliminada al perder una partida.",
            "A %(n)d ceros: una pareja queda eliminada al perder %(n)d partidas; en las rondas finales, al perder una.",
            tournament.max_losses,
        ) % {"n": tournament.max_losses}
        if tournament.format == Tournament.Format.REPESCA:
            note += " " + _(
                "Repesca: las parejas que pierden por primera vez hasta la ronda %(k)d pasan al grupo B, donde "
                "quedan fuera al sumar %(b)d derrotas."
            ) % {"k": tournament.repesca_until_round or 1, "b": tournament.pool_b_max_losses}
        note += " " + _(
            "Si pierden ambas (AMM 6.5.b) cuenta como derrota para las dos; la exenta (AMM 5.6) pasa de ronda "
            "sin derrota."
        )
    elif fmt == Tournament.Format.GROUPS:
        groups = groups_of(data)
        liguilla_rounds = {r.number for r in data.rounds if r.phase == Round.Phase.GROUPS}
        in_groups = [m for m in data.matches if m.round_number in liguilla_rounds]
        tables = []
        for label, members in groups.items():
            inside = set(members)
            table = _points_table(
                _("Liguilla %(g)s") % {"g": label},
                label,
                data,
                members,
                [m for m in in_groups if m.a.id in inside],
                tiebreaks,
            )
            # As torneo.draws.manager seeds the bracket: the first pairs still in, in this order (a
            # tie at the cut goes to the lower pair number, the order of registration).
            for row in [r for r in table.rows if not r.pair.out][: tournament.group_qualifiers]:
                row.qualifies = True
            tables.append(table)
        note = _(
            "Por puntos (%(p)d por partida ganada o exenta), después por este orden de desempate: %(t)s. "
            "Se clasifican para el cuadro las %(q)d primeras de cada liguilla (en un empate total en el "
            "corte, la de número más bajo)."
        ) % {
            "p": tournament.points_per_win,
            "t": ", ".join(tiebreak_label(t) for t in tiebreaks),
            "q": tournament.group_qualifiers,
        }
    else:
        tables = [_points_table(_("Clasificación"), "", data, data.entrants(), data.matches, tiebreaks)]
        note = _("Por puntos (%(p)d por partida ganada o exenta), después por este orden de desempate: %(t)s.") % {
            "p": tournament.points_per_win,
            "t": ", ".join(tiebreak_label(t) for t in tiebreaks),
        }
    return Standings(
        fmt,
        str(Tournament.Format(fmt).label),
        tables,
        tiebreaks,
        data.last_round,
        data.pending,
        note,
    )


# --- the final classification ------------------------------------------------------------------------


@dataclass
class ClassificationSection:
    title: str
    rows: list[StandingsRow]


@dataclass
class Classification:
    sections: list[ClassificationSection]
    final: bool
    rule: str
    excluded: list[PairInfo]


def _stage_label(stage: str) -> str:
    if stage == "champion":
        return _("Campeona")
    if stage == "alive":
        return _("Sigue en juego")
    if stage == "withdrawn":
        return _("Retirada")
    if stage.startswith("out:"):
        return _("Eliminada en la ronda %(n)s") % {"n": stage[4:]}
    if stage.startswith("group:"):
        return _("%(p)s.ª de su liguilla") % {"p": stage[6:]}
    return ""


def _section(title: str, places: list[Place], data: TournamentData) -> ClassificationSection:
    rows = []
    for p in places:
        r = p.row
        rows.append(
            StandingsRow(
                p.position,
                p.position_to,
                data.pairs[p.pair],
                r.played,
                r.wins,
                r.losses,
                r.byes,
                r.points,
                r.juegos_diff,
                r.tantos_diff,
                [],
                "" if p.stage == "standings" else p.stage.split(":")[0],
                _stage_label(p.stage),
            )
        )
    return ClassificationSection(title, rows)


def classification(tournament: Tournament, data: TournamentData | None = None) -> Classification:
    """The final classification for prizes, by the rules in scoring.standings' docstring."""
    data = data or load(tournament)
    tiebreaks = tournament.tiebreak_order
    fmt = tournament.format
    excluded = [data.pairs[p] for p in data.entrants() if data.pairs[p].expelled]
    kept = [p for p in data.entrants() if not data.pairs[p].expelled]
    records = data.records()
    finished = tournament.status == Tournament.Status.FINISHED
    order = ", ".join(tiebreak_label(t) for t in tiebreaks)
    sections: list[ClassificationSection]
    if fmt in (Tournament.Format.CEROS, Tournament.Format.REPESCA):
        keep = set(kept)
        states = {p: s for p, s in _survival(data).items() if p in keep}
        stages = elimination_stages(states)
        pools: dict[str, list[int]] = {"": list(states)}
        if fmt == Tournament.Format.REPESCA and tournament.repesca_reentry_round is None:
            # Without re-entry, grupo B plays for its own prizes: a classification of its own.
            pools = {
                "A": [p for p, s in states.items() if s.pool != "B"],
                "B": [p for p, s in states.items() if s.pool == "B"],
            }
        sections = []
        for pool, members in pools.items():
            places = classify(
                data.entrants(),
                records,
                stage={p: stages[p] for p in members},
                points_win=tournament.points_per_win,
                tiebreaks=tiebreaks,
                among=members,
            )
            title = {"": "", "A": _("Grupo A"), "B": _("Grupo B (repesca)")}[pool]
            sections.append(_section(title, places, data))
        decided = (
            data.last_round > 0
            and not data.pending
            and all(sum(1 for p in members if states[p].alive) <= 1 for members in pools.values())
        )
        rule = _(
            "Primero la campeona; después las parejas por la ronda en que quedaron eliminadas (más tarde, "
            "mejor). Entre las eliminadas en la misma ronda deciden los puntos y el orden de desempate del "
            "torneo (%(t)s); si siguen iguales, comparten el puesto (p. ej. 3.º–4.º). Con Buchholz, entre dos "
            "semifinalistas queda delante la que perdió con la campeona. Las parejas retiradas conservan el "
            "puesto de sus resultados; las expulsadas no se clasifican."
        ) % {"t": order}
    elif fmt == Tournament.Format.GROUPS:
        groups = groups_of(data)
        liguilla_rounds = {r.number for r in data.rounds if r.phase == Round.Phase.GROUPS}
        in_groups = [m for m in data.matches if m.round_number in liguilla_rounds]
        in_bracket = [m for m in data.matches if m.round_number not in liguilla_rounds]
        group_rank: dict[int, int] = {}
        for members in groups.values():
            inside = set(members)
            rows = compute(
                members,
                [m.record() for m in in_groups if m.a.id in inside],
                points_win=tournament.points_per_win,
                tiebreaks=tiebreaks,
            )
            group_rank.update({r.pair: r.rank for r in rows})
        bracket_pairs = {p for m in in_bracket for p in (m.a.id, m.b.id if m.b else None) if p is not None}
        bracket_states = survival(
            list(bracket_pairs),
            [m.record() for m in in_bracket],
            CerosRules(max_losses=1),
            withdrawn=[p for p in bracket_pairs if data.pairs[p].out],
            last_round=data.last_round,
        )
        stages: dict[Any, tuple[Any, str]] = {}
        for p in kept:
            if p in bracket_states:
                key, label = elimination_stages({p: bracket_states[p]})[p]
                stages[p] = ((0, key), label)
            else:
                stages[p] = ((1, group_rank.get(p, 99)), f"group:{group_rank.get(p, 0)}")
        places = classify(
            data.entrants(),
            records,
            stage=stages,
            points_win=tournament.points_per_win,
            tiebreaks=tiebreaks,
            among=kept,
        )
        sections = [_section("", places, data)]
        decided = bool(in_bracket) and not data.pending and sum(1 for s in bracket_states.values() if s.alive) <= 1
        rule = _(
            "Primero las parejas del cuadro, por la ronda en que quedaron eliminadas (la campeona la "
            "primera); después las que no se clasificaron, por su puesto en la liguilla. Dentro de cada "
            "bloque deciden los puntos y el orden de desempate (%(t)s); si siguen iguales, comparten el puesto."
        ) % {"t": order}
    else:
        places = classify(
            data.entrants(), records, points_win=tournament.points_per_win, tiebreaks=tiebreaks, among=kept
        )
        sections = [_section("", places, data)]
        decided = not data.pending and data.last_round >= (tournament.swiss_rounds or 0) > 0
        rule = _(
            "El orden de la clasificación del suizo: puntos y después el orden de desempate (%(t)s); si "
            "siguen iguales, comparten el puesto."
        ) % {"t": order}
    return Classification(sections, finished or decided, rule, excluded)


# --- the bracket -----------------------------------------------------------------------------------------


@dataclass
class BracketView:
    roots: list[Any]  # nodes: {"match": MatchInfo, "children": [...]}
    rounds: list[int]
    champion: PairInfo | None
    applies: bool  # the format has a bracket phase


def in_bracket(tournament: Tournament, rounds: dict[int, RoundInfo], m: MatchInfo) -> bool:
    """Which matches belong to a bracket: the cuadro after the liguillas, the rondas finales, and
    every round of a knockout (a 1 cero, or a repesca pool where one loss eliminates)."""
    info = rounds.get(m.round_number)
    if info is None:
        return False
    final_from = tournament.final_phase_from_round
    if final_from is not None and m.round_number >= final_from and tournament.format != Tournament.Format.GROUPS:
        return True
    fmt = tournament.format
    if fmt == Tournament.Format.GROUPS:
        return info.phase == Round.Phase.BRACKET
    if fmt == Tournament.Format.CEROS:
        return tournament.max_losses == 1
    if fmt == Tournament.Format.REPESCA:
        return (tournament.max_losses if m.pool != "B" else tournament.pool_b_max_losses) == 1
    return False


def bracket_applies(tournament: Tournament) -> bool:
    fmt = tournament.format
    return (
        fmt == Tournament.Format.GROUPS
        or tournament.final_phase_from_round is not None
        or (fmt == Tournament.Format.CEROS and tournament.max_losses == 1)
        or (fmt == Tournament.Format.REPESCA and 1 in (tournament.max_losses, tournament.pool_b_max_losses))
    )


def bracket(tournament: Tournament, data: TournamentData | None = None) -> BracketView:
    if not bracket_applies(tournament):
        return BracketView([], [], None, False)
    data = data or load(tournament)
    rounds = {r.number: r for r in data.rounds}
    matches = [m for m in data.matches if in_bracket(tournament, rounds, m)]
    by_id = {m.id: m for m in matches}

    def node(n: BracketNode) -> dict[str, Any]:
        return {"match": by_id[n.match.key], "children": [node(c) for c in n.children]}

    roots = [node(n) for n in bracket_forest([m.record() for m in matches])]
    champion = None
    if roots and not data.pending:
        top = [r for r in roots if r["match"].round_number == max(x["match"].round_number for x in roots)]
        if len(top) == 1 and top[0]["match"].winner_id and tournament.format != Tournament.Format.REPESCA:
            last = top[0]["match"]
            champion = last.a if last.winner_id == last.a.id else last.b
    return BracketView(roots, sorted({m.round_number for m in matches}), champion, bracket_applies(tournament))


# --- results of a round: the public list, the mesa's entry page ------------------------------------------


def round_matches(round_: Round) -> list[MatchInfo]:
    """A round's matches with their pairs: three queries (matches, then the pairs in them)."""
    rows = list(
        Match.objects.filter(round=round_).order_by("pool", "table_number", "slot", "pk").values_list(*MATCH_FIELDS)
    )
    ids = {r[5] for r in rows} | {r[6] for r in rows if r[6]}
    pairs = pair_infos(round_.tournament, ids)
    return _match_infos(rows, pairs)


def published_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))


def current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()


def proposals(round_: Round) -> dict[int, ResultSubmission]:
    """The submissions awaiting confirmation in a round, by match (double check)."""
    subs = ResultSubmission.objects.filter(match__round=round_, status=ResultSubmission.Status.PROPOSED).select_related(
        "submitted_by", "winner"
    )
    return {s.match_id: s for s in subs}


@dataclass
class EntryState:
    """The mesa's view of a round: the tables still missing an acta and those awaiting confirmation."""

    round: Round
    matches: list[MatchInfo]
    missing: list[MatchInfo]
    awaiting: list[tuple[MatchInfo, ResultSubmission]]
    locked: bool

    @property
    def decided(self) -> int:
        return sum(1 for m in self.matches if m.decided)

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round.number,
            "locked": self.locked,
            "total": len(self.matches),
            "decided": self.decided,
            "missing": [
                {"table": m.table, "id": m.id, "a": m.a.name, "b": m.b.name if m.b else None} for m in self.missing
            ],
            "awaiting": [
                {
                    "table": m.table,
                    "id": m.id,
                    "submission": s.pk,
                    "score": submission_score(s),
                    "outcome": s.get_outcome_display(),
                    "by": s.submitted_by.get_username() if s.submitted_by else "",
                }
                for m, s in self.awaiting
            ],
        }


def submission_score(sub: ResultSubmission) -> str:
    if sub.games_a is None or sub.games_b is None:
        return ""
    return f"{sub.games_a}–{sub.games_b}"


def entry_state(round_: Round) -> EntryState:
    matches = round_matches(round_)
    waiting = proposals(round_)
    missing = [m for m in matches if not m.decided and m.id not in waiting]
    awaiting = [(m, waiting[m.id]) for m in matches if m.id in waiting]
    return EntryState(round_, matches, missing, awaiting, round_locked(round_))


def match_at_table(round_: Round, table: int) -> Match | None:
    return (
        Match.objects.filter(round=round_, table_number=table)
        .select_related("round__tournament", "pair_a", "pair_b")
        .first()
    )


def match_lookup(match: Match) -> dict[str, Any]:
    """What the mesa sees after typing a table: the pairs with their players, the result that
    stands, a proposal awaiting confirmation, the version to send back, whether it is locked."""
    pairs = pair_infos(match.round.tournament, [p for p in (match.pair_a_id, match.pair_b_id) if p])
    latest = match.submissions.select_related("submitted_by").first()
    pending = match.submissions.filter(status=ResultSubmission.Status.PROPOSED).select_related("submitted_by").first()
    a = pairs[match.pair_a_id]
    b = pairs.get(match.pair_b_id) if match.pair_b_id else None
    return {
        "id": match.pk,
        "round": match.round.number,
        "table": match.table_number,
        "pool": match.pool,
        "pair_a": a.as_dict(),
        "pair_b": b.as_dict() if b else None,
        "outcome": match.outcome,
        "outcome_label": match.get_outcome_display(),
        "games_a": match.games_a,
        "games_b": match.games_b,
        "winner": None
        if match.winner_id is None
        else (a.number if match.winner_id == a.id else b.number if b else None),
        "version": latest.version if latest else 0,
        "latest_by": latest.submitted_by.get_username() if latest and latest.submitted_by else "",
        "proposed": (
            {
                "id": pending.pk,
                "games_a": pending.games_a,
                "games_b": pending.games_b,
                "outcome": pending.outcome,
                "outcome_label": pending.get_outcome_display(),
                "by": pending.submitted_by.get_username() if pending.submitted_by else "",
            }
            if pending
            else None
        ),
        "locked": round_locked(match.round),
        # The next round's draw is committed but not yet made: a change here makes it stale.
        "next_prepared": Round.objects.filter(
            tournament_id=match.round.tournament_id, number=match.round.number + 1, status=Round.Status.PREPARED
        ).exists(),
        "is_bye": match.pair_b_id is None,
    }


def match_history(match: Match) -> list[ResultSubmission]:
    """Every version of a match's acta, newest first, with who entered and who confirmed it."""
    return list(match.submissions.select_related("submitted_by", "confirmed_by", "winner").order_by("-version"))


def submissions_awaiting(tournament: Tournament) -> list[ResultSubmission]:
    """The confirmation queue: every proposal of the tournament, oldest first."""
    return list(
        ResultSubmission.objects.filter(match__round__tournament=tournament, status=ResultSubmission.Status.PROPOSED)
        .select_related("match__round", "match__pair_a", "match__pair_b", "submitted_by", "winner")
        .order_by("submitted_at", "pk")
    )
