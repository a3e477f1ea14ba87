"""Reads for the rounds pages and the API: a round's draw by table and by surname, the pairs to be
drawn, and everything anyone needs to verify the draw (AMM 5.5), each pool's command input among it.

A fixed number of queries whatever the number of pairs: one per kind of row (rounds, draws,
matches, pairs with their players), the lists built in Python. `RoundPage` loads lazily; the
public pages cache their body under the tournament's stamp (torneo.pagecache).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from torneo.draws.errors import DrawUserError
from torneo.draws.manager import LIGUILLAS_LABEL, RoundDesign, design_next_round
from torneo.models import Draw, Match, Pair, PairMember, Round, Tournament, TournamentRole, pair_label, players_label
from torneo.people import JUEZ, public_name
from torneo.snapshot import TournamentSnapshot, load
from torneo.typing import AuthUser

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

Expected = dict[str, tuple[list[list[int]], int | None]]  # pool -> (matches, exenta), by pair number

DRAW_COMMAND = "python -m torneo.draws < {filename}"
# The liguillas of a groups-then-bracket tournament are drawn by allocate_liguillas (not by the
# command's pairing): this one line recomputes them from the same published values.
GROUPS_COMMAND = (
    'python -c "import json, sys; from torneo.draws import allocate_liguillas; d = json.load(sys.stdin); '
    "g = [list(x) for x in allocate_liguillas(d['pairs'], group_count=d['group_count'], seed=d['seed'])]; "
    "print(json.dumps({'groups': g, 'verified': g == d['expect']}))\" < {filename}"
)


# --- lists of rounds -----------------------------------------------------------------------------


class RoundCounts(TypedDict):
    """What `rounds_of` annotates each round with."""

    table_count: int
    bye_count: int
    pending_count: int


def rounds_of(tournament: Tournament) -> QuerySet[WithAnnotations[Round, RoundCounts]]:
    """The tournament's rounds with their counts of tables, exentas and pending results (one query)."""
    return (
        Round.objects.filter(tournament=tournament)
        .select_related("session")
        .annotate(
            table_count=Count("matches", filter=Q(matches__pair_b__isnull=False)),
            bye_count=Count("matches", filter=Q(matches__pair_b__isnull=True)),
            pending_count=Count("matches", filter=Q(matches__outcome=Match.Outcome.PENDING)),
        )
        .order_by("number")
    )


def jueces_of(tournament: Tournament) -> QuerySet[AuthUser]:
    """The users who may witness a draw: the tournament's jueces (AMM 5.5)."""
    return (
        get_user_model()
        .objects.filter(tournament_roles__tournament=tournament, tournament_roles__role=TournamentRole.Role.JUEZ)
        .distinct()
        .order_by("first_name", "last_name", "username")
    )


def person_label(user: AuthUser | None) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else ""


def witness_label(user: AuthUser | None) -> str:
    """The draw's juez as the public reads it: their name, never their username (a username is half
    of a login, and the login limits are per username: torneo/ratelimit.py)."""
    return public_name(user, fallback=JUEZ)


# --- where the tournament stands between rounds ------------------------------------------------

# Rondas finales are suggested when this many pairs or fewer are still in (a quarterfinal: three
# more rounds at most, 4, 2 and 1 tables), instead of a long tail of one-to-three-table rounds.
FINAL_ROUNDS_SUGGESTED_AT = 8


@dataclass(frozen=True)
class Champion:
    """A pool's winner once the tournament is decided (repesca without re-entry has two)."""

    title: str  # "" for the tournament's only champion, else the pool's name
    number: int
    name: str


@dataclass(frozen=True)
class Progress:
    """The tournament between rounds, as the draw planner sees it (torneo.draws.manager)."""

    last_round: int  # the latest published round (0 before the first)
    prepared: bool  # a round is prepared and not yet published
    pending: int  # results still missing in the published rounds
    design: RoundDesign | None  # the next round, once every result is in (None before round 1)
    champions: tuple[Champion, ...] = ()

    @property
    def done(self) -> bool:
        """No more rounds: a champion in every pool (elimination formats), the last round of the
        Swiss or the final of the bracket played, every result in."""
        return self.design is not None and self.design.finished

    @property
    def alive(self) -> int:
        """The pairs the next round would draw or pair (0 when unknown)."""
        if self.design is None:
            return 0
        if self.design.requests:
            return sum(len(r.pairs) for r in self.design.requests)
        return sum(1 + (s.b is not None) for s in self.design.slots)


def tournament_progress(tournament: Tournament, state: TournamentSnapshot | None = None) -> Progress:
    """Where the tournament stands: the snapshot (four queries) and, when every published result is
    in and no round is waiting to be published, the planner's next round (or that there is none)."""
    state = state or load(tournament)
    prepared = any(not r.published for r in state.rounds)
    pending = sum(1 for m in state.matches if not m.decided)
    design = None
    if state.last_round > 0 and not prepared and not pending:
        try:
            design = design_next_round(tournament, state)
        except DrawUserError:
            design = None
    champions: tuple[Champion, ...] = ()
    if design is not None and design.finished:
        many = len(design.champions) > 1
        champions = tuple(
            Champion(_pool_champion_title(pool) if many else "", number, state.pairs[number].name)
            for pool, number in sorted(design.champions.items(), key=lambda kv: _pool_order(kv[0]))
        )
    return Progress(state.last_round, prepared, pending, design, champions)


def _pool_champion_title(pool: str) -> str:
    if pool == "B":
        return _("Grupo B (repesca)")
    return _("Grupo %(g)s") % {"g": pool} if pool else ""


def final_rounds_suggestion(tournament: Tournament, progress: Progress) -> int | None:
    """The round from which to declare the rondas finales, when few pairs are left in an elimination
    format (at most FINAL_ROUNDS_SUGGESTED_AT) and they are not declared yet: the next round. None
    when it does not apply (other formats, a fixed bracket already, the repesca still filling
    grupo B or before its re-entry, where the rondas finales cannot start)."""
    design = progress.design
    if tournament.format not in (Tournament.Format.CEROS, Tournament.Format.REPESCA):
        return None
    if design is None or design.finished or design.kind != Round.Kind.DRAW:
        return None
    number = design.number
    if tournament.final_phase_from_round is not None and tournament.final_phase_from_round <= number:
        return None
    if not 2 <= progress.alive <= FINAL_ROUNDS_SUGGESTED_AT:
        return None
    if tournament.format == Tournament.Format.REPESCA:
        if number <= (tournament.repesca_until_round or 1):
            return None
        if tournament.repesca_reentry_round is not None and number < tournament.repesca_reentry_round:
            return None
    return number


@dataclass(frozen=True)
class NextStep:
    """What the mesa de control does next: continue a prepared round, prepare round `number`, or
    nothing more (`finished`: the tournament is over or decided, its classification is final)."""

    number: int
    prepared: Round | None  # the round prepared but not yet published, if any
    pending_results: int  # results still missing in the last published round
    checked_in: int  # before round 1: the pairs that will be drawn
    finished: bool = False
    champions: tuple[Champion, ...] = ()
    alive: int = 0  # the pairs still in, when every result is in
    final_rounds_from: int | None = None  # suggest the rondas finales from this round (AMM 5.8.d)


def next_step(tournament: Tournament, rounds: Sequence[WithAnnotations[Round, RoundCounts]]) -> NextStep:
    last = rounds[-1] if rounds else None
    if last is not None and not last.is_published:
        return NextStep(last.number, last, 0, 0)
    checked_in = 0
    if last is None:
        checked_in = Pair.objects.filter(
            tournament=tournament, status=Pair.Status.CONFIRMED, checked_in_at__isnull=False
        ).count()
    number = (last.number + 1) if last else 1
    pending = last.pending_count if last else 0
    finished = tournament.status == Tournament.Status.FINISHED
    if last is None or (pending and not finished):
        return NextStep(number, None, pending, checked_in, finished)
    progress = tournament_progress(tournament)
    return NextStep(
        number,
        None,
        pending,
        checked_in,
        finished or progress.done,
        progress.champions,
        progress.alive,
        None if finished else final_rounds_suggestion(tournament, progress),
    )


# --- one round -----------------------------------------------------------------------------------


def pool_title(round_: Round, pool: str) -> str:
    """How a pool is called on the wall: liguillas by number, repesca pools by letter."""
    if not pool:
        return ""
    if round_.phase == Round.Phase.LIGUILLAS or pool.isdigit():
        return _("Liguilla %(n)s") % {"n": pool}
    if pool == "B":
        return _("Grupo B (repesca)")
    return _("Grupo %(g)s") % {"g": pool}


def _pool_order(pool: str) -> tuple[int, str]:
    return (int(pool), "") if pool.isdigit() else (0, pool)


def surname_key(text: str) -> str:
    """Spanish alphabetical order: accents and case ignored, ñ after n."""
    text = unicodedata.normalize("NFC", text).lower().replace("ñ", "n\x7f")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _initial(key: str) -> str:
    if key.startswith("n\x7f"):
        return "Ñ"
    return key[:1].upper() if key[:1].isalpha() else "#"


class PairView:
    """A pair as the round's pages show it, built once from one query (no per-pair queries or
    per-row property work): number, name as `Pair.display_name` gives it, players."""

    __slots__ = ("members", "name", "number", "pk", "players")

    def __init__(self, pk: int, number: int, pair_name: str, members: list[tuple[str, str]]) -> None:
        self.pk, self.number, self.members = pk, number, members
        self.name = pair_label(pair_name, members, number)
        self.players = players_label(members)

    @property
    def display_name(self) -> str:
        return self.name


def pair_views(members: QuerySet[PairMember]) -> dict[int, PairView]:
    """PairViews by pair pk, from one query over the members (and their players and pairs)."""
    rows = members.order_by("pair_id", "position").values_list(
        "pair_id", "pair__number", "pair__name", "player__first_name", "player__last_name"
    )
    grouped: dict[int, tuple[int, str, list[tuple[str, str]]]] = {}
    for pair_id, number, name, first, last in rows:
        grouped.setdefault(pair_id, (number, name, []))[2].append((first, last))
    return {pk: PairView(pk, number, name, people) for pk, (number, name, people) in grouped.items()}


class Table:
    """A match of the round as the wall shows it (an exenta has no pair B and no table)."""

    __slots__ = (
        "a_won",
        "b_won",
        "games_a",
        "games_b",
        "is_bye",
        "number",
        "outcome",
        "pair_a",
        "pair_b",
        "pool",
        "pool_title",
        "result",
        "slot",
        "winner",
    )

    def __init__(self, row: Mapping[str, Any], pairs: dict[int, PairView], pool_title: str) -> None:
        self.number, self.pool, self.slot, self.outcome = row["table_number"], row["pool"], row["slot"], row["outcome"]
        self.games_a, self.games_b = row["games_a"], row["games_b"]
        self.pair_a = pairs[row["pair_a_id"]]
        self.pair_b = pairs[row["pair_b_id"]] if row["pair_b_id"] else None
        self.winner = pairs.get(row["winner_id"]) if row["winner_id"] else None
        self.is_bye = self.pair_b is None
        self.a_won = not self.is_bye and self.winner is self.pair_a
        self.b_won = self.pair_b is not None and self.winner is self.pair_b
        self.pool_title = pool_title
        self.result = self._result()

    def _result(self) -> str:
        """The result summary, read-only (entered by the results services)."""
        if self.outcome in (Match.Outcome.PENDING, Match.Outcome.BYE):
            return ""
        games = f"{self.games_a}–{self.games_b}" if self.games_a is not None and self.games_b is not None else ""
        if self.outcome == Match.Outcome.PLAYED:
            return games
        return f"{Match.Outcome(self.outcome).label} {games}".strip()

    def opponent_of(self, pair: PairView) -> PairView | None:
        return self.pair_b if pair is self.pair_a else self.pair_a


@dataclass
class Pool:
    label: str
    title: str
    tables: list[Table]
    byes: list[Table]


class SurnameRow:
    """One player of the round: where they play and against whom (what players look for)."""

    __slots__ = ("first_name", "last_name", "letter", "opponent", "pair", "table")

    def __init__(self, first_name: str, last_name: str, pair: PairView, table: Table, letter: str) -> None:
        self.first_name, self.last_name, self.pair, self.table, self.letter = first_name, last_name, pair, table, letter
        self.opponent = table.opponent_of(pair)


@dataclass
class PoolToDraw:
    label: str
    title: str
    pairs: list[PairView]


@dataclass
class PoolInput:
    """One pool's `python -m torneo.draws` input, as published (and the file to download)."""

    index: int
    label: str
    title: str
    data: dict[str, Any]
    filename: str
    command: str

    @property
    def text(self) -> str:
        return json.dumps(self.data, ensure_ascii=False)


@dataclass(frozen=True)
class PairLabel:
    number: int
    display_name: str


@dataclass
class SupersededPool:
    title: str
    matches: list[tuple[PairLabel, PairLabel]]
    bye: PairLabel | None
    members: list[PairLabel] = field(default_factory=list)  # a liguilla of a superseded group draw


@dataclass
class DrawRecord:
    """A published draw (current or superseded) with everything needed to recompute it."""

    draw: Draw
    inputs: list[PoolInput]
    reason: str = ""  # for a superseded draw: the organizer's reason for the new draw
    replaced_at: datetime | None = None
    pools: list[SupersededPool] = field(default_factory=list)  # superseded: what it had published

    @property
    def witness_name(self) -> str:
        return witness_label(self.draw.witness)


class RoundPage:
    """Everything the round's pages and API show. Each part is loaded on first use."""

    def __init__(self, tournament: Tournament, round_: Round, rounds: list[Round]) -> None:
        self.tournament = tournament
        self.round = round_
        self.rounds = rounds

    # --- navigation and state ---

    @property
    def previous_number(self) -> int | None:
        earlier = [r.number for r in self.rounds if r.number < self.round.number]
        return earlier[-1] if earlier else None

    @property
    def next_number(self) -> int | None:
        later = [r.number for r in self.rounds if r.number > self.round.number]
        return later[0] if later else None

    @property
    def results_final(self) -> bool:
        """AMM 3.18: once the next round's draw is published, this round's results are final."""
        return any(r.number > self.round.number and r.is_published for r in self.rounds)

    # --- draws ---

    @cached_property
    def draws(self) -> list[Draw]:
        return list(
            Draw.objects.filter(round=self.round).select_related("witness", "replaces").order_by("committed_at", "id")
        )

    @cached_property
    def live_draw(self) -> Draw | None:
        live = [d for d in self.draws if d.status != Draw.Status.SUPERSEDED]
        return live[0] if live else None

    @property
    def is_committed(self) -> bool:
        """A drawn round between its commitment and its public draw (AMM 5.5)."""
        return self.live_draw is not None and self.live_draw.status == Draw.Status.COMMITTED

    # --- matches and pairs ---

    @cached_property
    def matches(self) -> list[Mapping[str, Any]]:
        return list(
            Match.objects.filter(round=self.round)
            .order_by("pool", "table_number", "slot", "id")
            .values(
                "pool", "table_number", "slot", "pair_a_id", "pair_b_id", "outcome", "games_a", "games_b", "winner_id"
            )
        )

    @cached_property
    def pairs(self) -> dict[int, PairView]:
        """The round's pairs (or, before the draw, the tournament's) with their players, by pk."""
        members = PairMember.objects.filter(tournament=self.tournament)
        if self.round.is_published:
            in_round = Match.objects.filter(round=self.round)
            members = members.filter(Q(pair__in=in_round.values("pair_a")) | Q(pair__in=in_round.values("pair_b")))
        return pair_views(members)

    @cached_property
    def pairs_by_number(self) -> dict[int, PairView]:
        return {p.number: p for p in self.pairs.values()}

    @cached_property
    def pools(self) -> list[Pool]:
        by_label: dict[str, Pool] = {}
        for row in self.matches:
            pool = by_label.get(row["pool"])
            if pool is None:
                pool = by_label[row["pool"]] = Pool(row["pool"], pool_title(self.round, row["pool"]), [], [])
            table = Table(row, self.pairs, pool.title)
            (pool.byes if table.is_bye else pool.tables).append(table)
        for pool in by_label.values():
            # Tables in number order; walkovers of a fixed round (no table) after them.
            pool.tables.sort(key=lambda t: (t.number is None, t.number or 0, t.slot or 0))
        return [by_label[label] for label in sorted(by_label, key=_pool_order)]

    @cached_property
    def by_surname(self) -> list[SurnameRow]:
        keyed = []
        for pool in self.pools:
            for table in pool.tables + pool.byes:
                for pair in (table.pair_a, table.pair_b):
                    if pair is None:
                        continue
                    for first, last in pair.members:
                        key = surname_key(last or first)
                        row = SurnameRow(first, last, pair, table, _initial(key))
                        keyed.append(((key, surname_key(first), pair.number), row))
        keyed.sort(key=lambda kv: kv[0])
        return [row for _key, row in keyed]

    @cached_property
    def letters(self) -> list[str]:
        seen: list[str] = []
        for row in self.by_surname:
            if not seen or seen[-1] != row.letter:
                seen.append(row.letter)
        return seen

    @cached_property
    def to_draw(self) -> list[PoolToDraw]:
        """Before the public draw: the frozen list of pairs that will be drawn, by pool (AMM 5.5)."""
        draw = self.live_draw
        if draw is None or draw.status != Draw.Status.COMMITTED:
            return []
        out = []
        for request in draw.requests:
            label = "" if request["label"] == LIGUILLAS_LABEL else request["label"]
            pairs = [self.pairs_by_number[n] for n in request["pairs"] if n in self.pairs_by_number]
            out.append(PoolToDraw(label, pool_title(self.round, label), pairs))
        return out

    # --- verification (AMM 5.5) ---

    def _filename(self, label: str, draw: Draw, superseded: bool) -> str:
        name = f"sorteo-ronda-{self.round.number}"
        if label == LIGUILLAS_LABEL:
            name = f"liguillas-ronda-{self.round.number}"
        elif label:
            name += f"-grupo-{label}"
        if superseded:
            name += f"-anulado-{draw.pk}"
        return name + ".json"

    def _inputs(self, draw: Draw, expected: Expected, groups: list[list[int]] | None) -> list[PoolInput]:
        """Each pool's command input: `draw_cli_inputs` plus `expect` (the published draw), and for a
        pool without label also the secret, the public value and the commitment, so that one run of
        the command checks the commitment, derives the seed, redraws and compares."""
        superseded = draw.status == Draw.Status.SUPERSEDED
        inputs = []
        cli = iter(draw_cli_inputs(draw))
        for index, request in enumerate(draw.requests):
            label = request["label"]
            filename = self._filename(label, draw, superseded)
            if label == LIGUILLAS_LABEL:
                data: dict[str, Any] = {
                    "seed": draw.seed,
                    "pairs": request["pairs"],
                    "group_count": request["group_count"],
                    "expect": groups or [],
                }
                command = GROUPS_COMMAND.replace("{filename}", filename)
                inputs.append(PoolInput(index, label, _("Reparto en liguillas"), data, filename, command))
                continue
            line = next(cli)
            data = {"seed": line["seed"]}
            if not label:
                data.update(secret=draw.secret, public=draw.public_value, commitment=draw.commitment)
            data.update({k: v for k, v in line.items() if k != "seed"})
            matches, bye = expected.get(label, ([], None))
            data["expect"] = {"matches": matches, "bye": bye}
            command = DRAW_COMMAND.replace("{filename}", filename)
            inputs.append(PoolInput(index, label, pool_title(self.round, label), data, filename, command))
        return inputs

    def _expected_from_tables(self) -> tuple[Expected, list[list[int]] | None]:
        """The published draw as the tables show it, per pool; for a liguillas draw, the groups."""
        out: Expected = {}
        for pool in self.pools:
            matches = [[t.pair_a.number, t.pair_b.number] for t in pool.tables if t.pair_b is not None]
            out[pool.label] = (matches, pool.byes[0].pair_a.number if pool.byes else None)
        groups = None
        if self.live_draw is not None and any(r["label"] == LIGUILLAS_LABEL for r in self.live_draw.requests):
            groups = [sorted([n for m in matches for n in m] + ([bye] if bye else [])) for matches, bye in out.values()]
        return out, groups

    @staticmethod
    def _expected_from_results(draw: Draw) -> tuple[Expected, list[list[int]] | None]:
        if LIGUILLAS_LABEL in draw.results:
            return {}, [list(members) for members in draw.results[LIGUILLAS_LABEL]["groups"]]
        return {label: (out["matches"], out["bye"]) for label, out in draw.results.items()}, None

    def _label(self, number: int) -> PairLabel:
        pair = self.pairs_by_number.get(number)
        return PairLabel(number, pair.display_name if pair else "")

    @cached_property
    def verification(self) -> DrawRecord | None:
        """The current draw once published: its public value, secret, seed and command inputs."""
        draw = self.live_draw
        if draw is None or not draw.is_published:
            return None
        return DrawRecord(draw, self._inputs(draw, *self._expected_from_tables()))

    @cached_property
    def superseded(self) -> list[DrawRecord]:
        """Earlier draws of this round, replaced by the organizer's redraw: kept, with the reason."""
        replacing = {d.replaces_id: d for d in self.draws if d.replaces_id}
        records = []
        for draw in self.draws:
            if draw.status != Draw.Status.SUPERSEDED:
                continue
            new = replacing.get(draw.pk)
            expected, groups = self._expected_from_results(draw)
            published = [
                SupersededPool(
                    pool_title(self.round, label),
                    [(self._label(a), self._label(b)) for a, b in matches],
                    self._label(bye) if bye is not None else None,
                )
                for label, (matches, bye) in sorted(expected.items(), key=lambda kv: _pool_order(kv[0]))
            ]
            published += [
                SupersededPool(pool_title(self.round, str(g)), [], None, [self._label(n) for n in members])
                for g, members in enumerate(groups or [], start=1)
            ]
            records.append(
                DrawRecord(
                    draw,
                    self._inputs(draw, expected, groups) if draw.seed else [],
                    reason=new.reason if new else "",
                    replaced_at=new.committed_at if new else None,
                    pools=published,
                )
            )
        return records

    def pool_input(self, index: int, draw_id: int | None = None) -> PoolInput | None:
        """One input to download: of the current draw, or of a superseded one by its id."""
        if draw_id is None:
            record = self.verification
        else:
            record = next((r for r in self.superseded if r.draw.pk == draw_id), None)
        if record is None or not 0 <= index < len(record.inputs):
            return None
        return record.inputs[index]


def round_page(tournament: Tournament, number: int) -> RoundPage | None:
    """The round `number` of the tournament (None if there is none), with the list of rounds."""
    rounds = list(Round.objects.filter(tournament=tournament).select_related("session").order_by("number"))
    current = next((r for r in rounds if r.number == number), None)
    return RoundPage(tournament, current, rounds) if current is not None else None


def fixed_round_preview(tournament: Tournament) -> list[tuple[str, PairView, PairView | None]]:
    """For a prepared liguilla or bracket round: the matches that publishing will write (staff)."""
    from torneo.draws.errors import DrawUserError
    from torneo.draws.manager import design_next_round

    try:
        design = design_next_round(tournament)
    except DrawUserError:
        return []
    pairs = {p.number: p for p in pair_views(PairMember.objects.filter(tournament=tournament)).values()}
    return [(s.pool, pairs[s.a], pairs[s.b] if s.b is not None else None) for s in design.slots]


# --- a draw's command input ---------------------------------------------------------------------


def draw_cli_inputs(draw: Draw) -> list[dict[str, Any]]:
    """For a published draw, each pool's exact `python -m torneo.draws` input (AMM 5.5): anyone
    can run it and compare with the published matches. Pool seeds are `seed/label`."""
    if not draw.seed:
        return []
    inputs = []
    for request in draw.requests:
        if request["label"] == LIGUILLAS_LABEL:
            continue
        line = {"seed": f"{draw.seed}/{request['label']}" if request["label"] else draw.seed}
        line.update({k: request[k] for k in ("pairs", "history", "byes", "group") if k in request})
        inputs.append(line)
    return inputs


__all__ = [
    "DRAW_COMMAND",
    "FINAL_ROUNDS_SUGGESTED_AT",
    "GROUPS_COMMAND",
    "Champion",
    "NextStep",
    "Progress",
    "RoundPage",
    "draw_cli_inputs",
    "final_rounds_suggestion",
    "fixed_round_preview",
    "jueces_of",
    "next_step",
    "pool_title",
    "round_page",
    "rounds_of",
    "surname_key",
    "tournament_progress",
]
