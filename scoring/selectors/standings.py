"""Reads for the standings, classification and bracket pages and the API, each in a fixed number of
queries whatever the number of pairs: the tournament snapshot (torneo.snapshot) is read once and the
pure functions of scoring.standings do the rest; this module adds the titles and the translated
labels (the tiebreaks' among them).

The heavy public reads (standings, classification, bracket) are cached under the tournament's
stamp (torneo.pagecache), so a hundred phones refreshing after each result cost one computation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.standings import (
    AheadNode,
    BracketNode,
    CerosRules,
    Line,
    Place,
    Survival,
    Table,
    bracket_ahead,
    bracket_blank,
    bracket_forest,
    ceros_survival,
    ceros_tables,
    classify,
    elimination_stages,
    liguilla_tables,
    points_table,
    survival,
)
from torneo import pagecache
from torneo.draws.bracket import seed_positions
from torneo.models import Round, Tournament
from torneo.snapshot import MatchInfo, PairInfo, RoundInfo, TournamentSnapshot, load

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


def ceros_rules(tournament: Tournament) -> CerosRules:
    repesca = tournament.format == Tournament.Format.REPESCA
    return CerosRules(
        max_losses=tournament.max_losses,
        repesca_until=(tournament.repesca_until_round or 1) if repesca else None,
        pool_b_max_losses=tournament.pool_b_max_losses,
        reentry_round=tournament.repesca_reentry_round if repesca else None,
        final_from_round=tournament.final_phase_from_round,
    )


def survivals(data: TournamentSnapshot) -> dict[int, Survival[int]]:
    """Each pair's survival in an elimination format ("a N ceros", repesca), by number."""
    return ceros_survival(
        data.in_matches(),
        data.records(),
        ceros_rules(data.tournament),
        withdrawn=data.withdrawn(),
        last_round=data.last_round,
    )


def status_label(status: str, out_round: int | None = None) -> str:
    """A standings line's status (scoring.standings.tables.STATUSES), as the page shows it."""
    if status == "out":
        return _("Eliminada en la ronda %(n)d") % {"n": out_round}
    labels = {
        "expelled": _("Expulsada"),
        "champion": _("Campeona"),
        "alive": _("En juego"),
        "withdrawn": _("Retirada"),
    }
    return labels.get(status, "")


def _info(data: TournamentSnapshot, pair: int) -> PairInfo:
    """The snapshot's pair that the pure core calls `pair`: the core keys pairs by the ids it was
    given, the snapshot's pair numbers."""
    return data.pairs[pair]


def _row(line: Line[int], data: TournamentSnapshot, labels: dict[tuple[str, int | None], str]) -> StandingsRow:
    key = (line.status, line.out_round)
    label = labels.get(key)
    if label is None:  # a handful of labels for a thousand lines: each translated once
        label = labels[key] = status_label(line.status, line.out_round)
    return StandingsRow(
        line.position,
        line.position_to,
        _info(data, line.pair),
        line.played,
        line.wins,
        line.losses,
        line.byes,
        line.points,
        line.juegos_diff,
        line.tantos_diff,
        line.values,
        line.status,
        label,
        line.qualifies,
    )


def _table(title: str, table: Table[int], data: TournamentSnapshot) -> StandingsTable:
    champion = _info(data, table.champion) if table.champion is not None else None
    labels: dict[tuple[str, int | None], str] = {}
    rows = [_row(line, data, labels) for line in table.lines]
    return StandingsTable(title, table.pool, table.kind, rows, champion, table.alive)


def _liguilla_tables(data: TournamentSnapshot) -> list[Table[int]]:
    """The liguillas' tables, as the draw manager reads them to seed the bracket."""
    t = data.tournament
    liguilla_rounds = {r.number for r in data.rounds if r.phase == Round.Phase.LIGUILLAS}
    return liguilla_tables(
        data.liguillas(),
        [m.record() for m in data.matches if m.round_number in liguilla_rounds],
        points_win=t.points_per_win,
        tiebreaks=t.tiebreak_order,
        qualifiers=t.group_qualifiers,
        withdrawn=data.withdrawn(),
        expelled=data.expelled(),
    )


def standings(tournament: Tournament, data: TournamentSnapshot | None = None) -> Standings:
    """The standings for the tournament's format (see scoring.standings for the rules)."""
    data = data or load(tournament)
    tiebreaks = tournament.tiebreak_order
    fmt = tournament.format
    tables: list[StandingsTable]
    if fmt in (Tournament.Format.CEROS, Tournament.Format.REPESCA):
        pool_titles = {"": _("Clasificación"), "A": _("Grupo A"), "B": _("Grupo B (repesca)")}
        tables = [
            _table(pool_titles.get(t.pool, t.pool), t, data)
            for t in ceros_tables(
                data.in_matches(),
                data.records(),
                ceros_rules(tournament),
                points_win=tournament.points_per_win,
                tiebreaks=tiebreaks,
                last_round=data.last_round,
                withdrawn=data.withdrawn(),
                expelled=data.expelled(),
            )
        ]
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
    elif fmt == Tournament.Format.LIGUILLAS:
        # The first pairs still in qualify, in this order (a tie at the cut goes to the lower pair
        # number, the order of registration), as torneo.draws.manager seeds the bracket.
        tables = [_table(_("Liguilla %(g)s") % {"g": t.pool}, t, data) for t in _liguilla_tables(data)]
        note = ngettext(
            "Por puntos (%(p)d por partida ganada o exenta), después por este orden de desempate: %(t)s. "
            "Se clasifica para el cuadro la primera de cada liguilla (en un empate total en el "
            "corte, la de número más bajo).",
            "Por puntos (%(p)d por partida ganada o exenta), después por este orden de desempate: %(t)s. "
            "Se clasifican para el cuadro las %(q)d primeras de cada liguilla (en un empate total en el "
            "corte, la de número más bajo).",
            tournament.group_qualifiers or 0,
        ) % {
            "p": tournament.points_per_win,
            "t": ", ".join(tiebreak_label(t) for t in tiebreaks),
            "q": tournament.group_qualifiers,
        }
    else:
        table = points_table(
            "",
            data.in_matches(),
            data.records(),
            points_win=tournament.points_per_win,
            tiebreaks=tiebreaks,
            withdrawn=data.withdrawn(),
            expelled=data.expelled(),
        )
        tables = [_table(_("Clasificación"), table, data)]
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


def _section(title: str, places: list[Place[int]], data: TournamentSnapshot) -> ClassificationSection:
    rows = []
    for p in places:
        r = p.row
        rows.append(
            StandingsRow(
                p.position,
                p.position_to,
                _info(data, p.pair),
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


def classification(tournament: Tournament, data: TournamentSnapshot | None = None) -> Classification:
    """The final classification for prizes, by the rules in scoring.standings' docstring."""
    data = data or load(tournament)
    tiebreaks = tournament.tiebreak_order
    fmt = tournament.format
    entrants = data.in_matches()
    excluded = [data.pairs[p] for p in entrants if data.pairs[p].expelled]
    kept = [p for p in entrants if not data.pairs[p].expelled]
    records = data.records()
    finished = tournament.status == Tournament.Status.FINISHED
    order = ", ".join(tiebreak_label(t) for t in tiebreaks)
    sections: list[ClassificationSection]
    stages: dict[int, tuple[Any, str]]
    if fmt in (Tournament.Format.CEROS, Tournament.Format.REPESCA):
        keep = set(kept)
        states: dict[int, Survival[int]] = {p: s for p, s in survivals(data).items() if p in keep}
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
                entrants,
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
    elif fmt == Tournament.Format.LIGUILLAS:
        liguilla_rounds = {r.number for r in data.rounds if r.phase == Round.Phase.LIGUILLAS}
        in_bracket = [m for m in data.matches if m.round_number not in liguilla_rounds]
        group_rank = {line.pair: line.position for t in _liguilla_tables(data) for line in t.lines}
        bracket_pairs = {p for m in in_bracket for p in (m.a.number, m.b.number if m.b else None) if p is not None}
        bracket_states = survival(
            list(bracket_pairs),
            [m.record() for m in in_bracket],
            CerosRules(max_losses=1),
            withdrawn=[p for p in bracket_pairs if data.pairs[p].out],
            last_round=data.last_round,
        )
        stages = {}
        for p in kept:
            if p in bracket_states:
                key, label = elimination_stages({p: bracket_states[p]})[p]
                stages[p] = ((0, key), label)
            else:
                stages[p] = ((1, group_rank.get(p, 99)), f"group:{group_rank.get(p, 0)}")
        places = classify(
            entrants,
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
        places = classify(entrants, records, points_win=tournament.points_per_win, tiebreaks=tiebreaks, among=kept)
        sections = [_section("", places, data)]
        decided = not data.pending and data.last_round >= (tournament.swiss_rounds or 0) > 0
        rule = _(
            "El orden de la clasificación del suizo: puntos y después el orden de desempate (%(t)s); si "
            "siguen iguales, comparten el puesto."
        ) % {"t": order}
    return Classification(sections, finished or decided, rule, excluded)


# --- the bracket -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AheadSeat:
    """A seat of a match not drawn yet: its pair once known, else the table of the match whose
    winner takes it (None: no match there yet, a blank box); ``bye``: the other side of an exenta."""

    pair: PairInfo | None = None
    after_table: int | None = None
    bye: bool = False


@dataclass(frozen=True)
class AheadMatch:
    """A bracket match of a round still to come; ``redrawn``: a knockout drawn again every round,
    where the seats say who goes through but not yet against whom."""

    round_number: int
    pool: str
    a: AheadSeat
    b: AheadSeat
    redrawn: bool


@dataclass
class BracketView:
    roots: list[dict[str, Any]]  # nodes: {"match": MatchInfo, "children": [...]}
    rounds: list[int]
    champion: PairInfo | None
    applies: bool  # the format has a bracket phase
    # The page's tree: the roots with every round up to the final drawn ahead; nodes of a round
    # still to come are {"match": None, "ahead": AheadMatch, "children": [...]}.
    tree: list[dict[str, Any]] = field(default_factory=list)
    blank: bool = False  # the tree is the bracket's shape before its first round is drawn


def in_bracket(tournament: Tournament, rounds: dict[int, RoundInfo], m: MatchInfo) -> bool:
    """Which matches belong to a bracket: the cuadro after the liguillas, the rondas finales, and
    every round of a knockout (a 1 cero, or a repesca pool where one loss eliminates)."""
    info = rounds.get(m.round_number)
    if info is None:
        return False
    final_from = tournament.final_phase_from_round
    if final_from is not None and m.round_number >= final_from and tournament.format != Tournament.Format.LIGUILLAS:
        return True
    fmt = tournament.format
    if fmt == Tournament.Format.LIGUILLAS:
        return info.phase == Round.Phase.BRACKET
    if fmt == Tournament.Format.CEROS:
        return tournament.max_losses == 1
    if fmt == Tournament.Format.REPESCA:
        return (tournament.max_losses if m.pool != "B" else tournament.pool_b_max_losses) == 1
    return False


def bracket_applies(tournament: Tournament) -> bool:
    fmt = tournament.format
    return (
        fmt == Tournament.Format.LIGUILLAS
        or tournament.final_phase_from_round is not None
        or (fmt == Tournament.Format.CEROS and tournament.max_losses == 1)
        or (fmt == Tournament.Format.REPESCA and 1 in (tournament.max_losses, tournament.pool_b_max_losses))
    )


def bracket(tournament: Tournament, data: TournamentSnapshot | None = None) -> BracketView:
    if not bracket_applies(tournament):
        return BracketView([], [], None, False)
    data = data or load(tournament)
    rounds = {r.number: r for r in data.rounds}
    matches = [m for m in data.matches if in_bracket(tournament, rounds, m)]
    by_id = {m.id: m for m in matches}

    def node(n: BracketNode[int]) -> dict[str, Any]:
        return {"match": by_id[n.match.key], "children": [node(c) for c in n.children]}

    forest = bracket_forest([m.record() for m in matches])
    roots = [node(n) for n in forest]
    tree = _drawn_ahead(tournament, data, forest, by_id) if _draws_ahead(tournament) else roots
    blank = False
    if not matches and _draws_ahead(tournament):
        tree = _blank_tree(tournament, data)
        blank = bool(tree)
    champion = None
    if roots and not data.pending:
        top = [r for r in roots if r["match"].round_number == max(x["match"].round_number for x in roots)]
        if len(top) == 1 and top[0]["match"].winner and tournament.format != Tournament.Format.REPESCA:
            last = top[0]["match"]
            champion = last.a if last.winner == last.a.number else last.b
    rounds_played = sorted({m.round_number for m in matches})
    return BracketView(roots, rounds_played, champion, bracket_applies(tournament), tree, blank)


def _draws_ahead(tournament: Tournament) -> bool:
    """Whether the bracket's future rounds can be drawn ahead: one bracket that only loses pairs —
    the plain knockout, the cuadro after the liguillas, the rondas finales. A repesca's pools take
    in new pairs round by round, so they are left as played."""
    if tournament.format == Tournament.Format.LIGUILLAS or tournament.final_phase_from_round is not None:
        return True
    return tournament.format == Tournament.Format.CEROS and tournament.max_losses == 1


def _blank_tree(tournament: Tournament, data: TournamentSnapshot) -> list[dict[str, Any]]:
    """The bracket before its first round is drawn, every seat empty, when its size is known: a
    plain knockout from the pairs present (or, before the check-in, registered), the cuadro after
    the liguillas from its qualifiers — the empty seats where the seeding puts them (the top seeds'
    exentas). The rondas finales of an N ceros wait for their first draw: how many pairs reach
    them is only known then."""
    if tournament.format == Tournament.Format.LIGUILLAS:
        groups = data.liguillas() if data.rounds else {}
        if groups:
            sizes = [len(members) for members in groups.values()]
        else:
            count = len([p for p in data.pairs.values() if not p.out])
            g = max(1, tournament.group_count or 1)
            sizes = [count // g + (1 if k < count % g else 0) for k in range(g)]
        if not sizes or min(sizes) < 1:
            return []
        qualifiers = min(tournament.group_qualifiers or 1, min(sizes))
        entrants = qualifiers * len(sizes)
        if entrants < 2:
            return []
        first_round = max(size if size % 2 else size - 1 for size in sizes) + 1  # a round-robin's rounds
        size = 1
        while size < entrants:
            size *= 2
        seats = [p <= entrants for p in seed_positions(size)]
    else:
        if tournament.format != Tournament.Format.CEROS or tournament.max_losses != 1:
            return []
        present = [p for p in data.pairs.values() if not p.out and p.checked_in]
        entrants = len(present) or len([p for p in data.pairs.values() if not p.out])
        if entrants < 2:
            return []
        first_round, seats = 1, [True] * entrants
    final_from = tournament.final_phase_from_round
    fixed = tournament.format == Tournament.Format.LIGUILLAS

    def node(n: AheadNode[int] | BracketNode[int]) -> dict[str, Any]:
        assert isinstance(n, AheadNode)
        redrawn = not fixed and (final_from is None or n.round_number <= final_from)
        b = AheadSeat() if n.b is not None else AheadSeat(bye=True)
        ahead = AheadMatch(n.round_number, n.pool, AheadSeat(), b, redrawn)
        return {"match": None, "ahead": ahead, "children": [node(c) for c in n.children]}

    blank: list[AheadNode[int]] = bracket_blank(seats, first_round=first_round)
    return [node(n) for n in blank]


def _drawn_ahead(
    tournament: Tournament,
    data: TournamentSnapshot,
    forest: list[BracketNode[int]],
    by_id: dict[int, MatchInfo],
) -> list[dict[str, Any]]:
    final_from = tournament.final_phase_from_round
    fixed = tournament.format == Tournament.Format.LIGUILLAS

    def seat(s: Any) -> AheadSeat:
        if s.pair is not None:
            return AheadSeat(pair=data.pairs[s.pair])
        source = s.source
        return AheadSeat(after_table=by_id[source.match.key].table if isinstance(source, BracketNode) else None)

    def node(n: BracketNode[int] | AheadNode[int]) -> dict[str, Any]:
        children = [node(c) for c in n.children]
        if isinstance(n, BracketNode):
            return {"match": by_id[n.match.key], "children": children}
        redrawn = not fixed and (final_from is None or n.round_number <= final_from)
        b = seat(n.b) if n.b is not None else AheadSeat(bye=True)
        ahead = AheadMatch(n.round_number, n.pool, seat(n.a), b, redrawn)
        return {"match": None, "ahead": ahead, "children": children}

    return [node(n) for n in bracket_ahead(forest, out=data.withdrawn())]
