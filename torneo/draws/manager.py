"""The one bridge between the pure draw generators and the database (the Tabbycat pattern).

The tournament snapshot (torneo.snapshot: pairs and published matches as plain data, pairs by
number) is the state; `design_next_round` asks the format's planner what the next round is (a public draw, a
liguilla round from the fixed schedule, or a fixed-bracket round); `write_*` turn the answer into
Match rows. Everything in between is the pure code of torneo.draws and scoring.standings.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

from django.apps import apps
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.standings import compute, liguilla_tables
from torneo.draws import (
    DrawRequest,
    PairId,
    PairState,
    RepescaRules,
    allocate_liguillas,
    bracket_from_seeds,
    bracket_round,
    plan_ceros,
    plan_repesca,
    plan_swiss,
    pots_by_strength,
    round_robin,
    seeds_from_standings,
)
from torneo.draws.errors import DrawFatalError, DrawUserError
from torneo.draws.tables import assign_tables
from torneo.models import Draw, Match, Pair, Round, Tournament
from torneo.snapshot import MatchInfo, TournamentSnapshot, load

LIGUILLAS_LABEL = "liguillas"


@dataclass
class SlotPlan:
    """A deterministic match (liguilla schedule or fixed bracket): b None is an exenta."""

    pool: str
    slot: int
    a: int
    b: int | None
    walkover_winner: int | None = None  # the opponent withdrew or was expelled


@dataclass
class RoundDesign:
    number: int
    kind: str
    phase: str
    is_final: bool
    requests: list[DrawRequest] = field(default_factory=list)  # DRAW kind
    group_count: int | None = None  # DRAW kind, groups format: allocate liguillas
    pots: list[list[int]] | None = None  # liguillas seeded by rating: the bombos, strongest first
    slots: list[SlotPlan] = field(default_factory=list)  # SCHEDULE / BRACKET kinds
    champions: dict[str, int] = field(default_factory=dict)  # pools already decided
    finished: bool = False

    def keep_frozen_pots(self, frozen: list[dict[str, Any]]) -> None:
        """The seeding as published with the commitment — the liguillas' bombos, a Swiss's stronger
        half: a rating that changed since then (another tournament's result) must not change a draw
        already committed to (AMM 5.5)."""
        if self.group_count is not None:
            self.pots = next((r["pots"] for r in frozen if "pots" in r), None)
            return
        tops = {r.get("label", ""): r.get("top") for r in frozen}
        self.requests = [
            replace(r, top=None if (top := tops.get(r.label)) is None else tuple(top)) for r in self.requests
        ]

    def requests_json(self) -> list[dict[str, Any]]:
        """The frozen input of the draw, published with the commitment (pair numbers)."""
        if self.group_count is not None:
            entry: dict[str, Any] = {
                "label": LIGUILLAS_LABEL,
                "pairs": list(self.requests[0].pairs),
                "group_count": self.group_count,
            }
            if self.pots is not None:
                entry["pots"] = self.pots
            return [entry]
        out = []
        for r in self.requests:
            entry = {
                "label": r.label,
                "pairs": list(r.pairs),
                "history": [list(m) for m in r.history],
                "byes": list(r.byes),
            }
            if r.group is not None:
                entry["group"] = {str(k): v for k, v in r.group.items()}
            if r.top is not None:
                entry["top"] = list(r.top)
            out.append(entry)
        return out


def _number(pair: PairId) -> int:
    """A pair id the draws give back, as the pair number it is: the draws (keyed by ``int | str``)
    return the ids they are given, and the manager gives them pair numbers."""
    if not isinstance(pair, int):
        raise DrawFatalError(f"The draw returned {pair!r}, not one of the pair numbers it was given.")
    return pair


def _is_final(tournament: Tournament, number: int) -> bool:
    return tournament.final_phase_from_round is not None and number >= tournament.final_phase_from_round


def _states(state: TournamentSnapshot, entrants: list[int]) -> list[PairState]:
    losses: dict[int, int] = defaultdict(int)
    first_loss: dict[int, int] = {}
    for m in state.records():
        if m.b is None or m.outcome == "pending":
            continue
        for loser in m.losers():
            losses[loser] += 1
            first_loss.setdefault(loser, m.round_number)
    return [
        PairState(pair=n, losses=losses[n], first_loss_round=first_loss.get(n), withdrawn=state.out(n))
        for n in entrants
    ]


def design_next_round(tournament: Tournament, state: TournamentSnapshot | None = None) -> RoundDesign:
    """What round N+1 is, for the tournament's format. Raises DrawUserError when it cannot be made."""
    state = state or load(tournament)
    number = state.last_round + 1
    entrants = state.entrants()
    if len(entrants) < 2:
        raise DrawUserError(_("Hacen falta al menos dos parejas presentes para sortear la primera ronda."))
    fmt = tournament.format
    if fmt == Tournament.Format.LIGUILLAS:
        return _design_groups(tournament, state, number, entrants)
    final_from = tournament.final_phase_from_round
    if final_from is not None and number > final_from and fmt in (Tournament.Format.CEROS, Tournament.Format.REPESCA):
        return _design_bracket(tournament, state, number, phase=Round.Phase.MAIN)
    states = _states(state, entrants)
    if fmt == Tournament.Format.SWISS:
        if number > (tournament.swiss_rounds or 0):
            return RoundDesign(number, Round.Kind.DRAW, Round.Phase.MAIN, False, finished=True)
        standings = compute(entrants, state.records(), tiebreaks=())
        points: dict[PairId, int] = {row.pair: row.points for row in standings}
        states = [PairState(s.pair, s.losses, points.get(s.pair, 0), s.first_loss_round, s.withdrawn) for s in states]
        plan = plan_swiss(
            states,
            round_number=number,
            rounds=tournament.swiss_rounds or 0,
            history=state.history,
            byes=state.byes,
            final_from_round=final_from,
            strength=_seeding(tournament, entrants) if number == 1 else None,
        )
    elif fmt == Tournament.Format.REPESCA:
        rules = RepescaRules(
            until_round=tournament.repesca_until_round or 1,
            max_losses=tournament.max_losses,
            pool_b_max_losses=tournament.pool_b_max_losses,
            reentry_round=tournament.repesca_reentry_round,
            same_losses=tournament.same_losses,
        )
        plan = plan_repesca(
            states,
            round_number=number,
            rules=rules,
            history=state.history,
            byes=state.byes,
            final_from_round=final_from,
        )
    else:
        plan = plan_ceros(
            states,
            round_number=number,
            max_losses=tournament.max_losses,
            same_losses=tournament.same_losses,
            history=state.history,
            byes=state.byes,
            final_from_round=final_from,
        )
    return RoundDesign(
        number,
        Round.Kind.DRAW,
        Round.Phase.MAIN,
        plan.is_final,
        requests=list(plan.requests),
        champions={pool: _number(pair) for pool, pair in plan.decided.items()},
        finished=not plan.requests,
    )


# --- liguillas, then the bracket --------------------------------------------------------------


def pair_strengths(tournament: Tournament, numbers: list[int]) -> dict[int, float]:
    """Each pair's strength for seeding (higher is stronger), from the apps that know one — the
    circuits' ratings (AppConfig ``pair_strength_hooks``): torneo imports none of them. A pair
    nobody rates counts 0; with no such app, every pair is 0."""
    strength = dict.fromkeys(numbers, 0.0)
    for config in apps.get_app_configs():
        for hook in getattr(config, "pair_strength_hooks", ()):
            for number, value in import_string(hook)(tournament, numbers).items():
                if number in strength:
                    strength[number] += value
    return strength


def _seeding(tournament: Tournament, entrants: list[int]) -> dict[PairId, float] | None:
    """The strengths a Swiss's first round is drawn by halves with, when seeded by rating."""
    if not tournament.seed_by_rating:
        return None
    strength: dict[PairId, float] = {}
    strength.update(pair_strengths(tournament, entrants).items())
    return strength


def _pots(tournament: Tournament, entrants: list[int]) -> list[list[int]]:
    return pots_by_strength(pair_strengths(tournament, entrants), tournament.group_count or 1)


def _design_groups(tournament: Tournament, state: TournamentSnapshot, number: int, entrants: list[int]) -> RoundDesign:
    is_final = _is_final(tournament, number)
    if number == 1:
        if (tournament.group_count or 0) * 2 > len(entrants):
            raise DrawUserError(
                ngettext(
                    "Con %(n)d parejas no se pueden formar %(g)d liguilla de al menos dos parejas.",
                    "Con %(n)d parejas no se pueden formar %(g)d liguillas de al menos dos parejas.",
                    tournament.group_count or 0,
                )
                % {"n": len(entrants), "g": tournament.group_count}
            )
        request = DrawRequest(label=LIGUILLAS_LABEL, pairs=tuple(entrants))
        return RoundDesign(
            number,
            Round.Kind.DRAW,
            Round.Phase.LIGUILLAS,
            is_final,
            requests=[request],
            group_count=tournament.group_count,
            pots=_pots(tournament, entrants) if tournament.seed_by_rating else None,
        )
    groups = state.liguillas()
    schedules = {label: round_robin(members) for label, members in groups.items()}
    length = max(len(s) for s in schedules.values())
    if number <= length:
        slots: list[SlotPlan] = []
        for label, schedule in schedules.items():
            if number > len(schedule):
                continue
            rr = schedule[number - 1]
            for i, (a, b) in enumerate(rr.matches):
                slots.append(_fixed(state, label, i, _number(a), _number(b)))
            if rr.bye is not None and not state.out(bye := _number(rr.bye)):
                slots.append(SlotPlan(label, len(rr.matches), bye, None))
        return RoundDesign(number, Round.Kind.SCHEDULE, Round.Phase.LIGUILLAS, is_final, slots=slots)
    return _design_bracket(tournament, state, number, phase=Round.Phase.BRACKET, groups=groups, liguilla_rounds=length)


def _fixed(state: TournamentSnapshot, pool: str, slot: int, a: int, b: int) -> SlotPlan:
    """A scheduled match; if one pair is out of the tournament, the other wins by walkover."""
    walkover = None
    if state.out(a) and not state.out(b):
        walkover = b
    elif state.out(b) and not state.out(a):
        walkover = a
    return SlotPlan(pool, slot, a, b, walkover)


def _design_bracket(
    tournament: Tournament,
    state: TournamentSnapshot,
    number: int,
    *,
    phase: str,
    groups: dict[str, list[int]] | None = None,
    liguilla_rounds: int = 0,
) -> RoundDesign:
    is_final = _is_final(tournament, number)
    previous = state.in_round(number - 1)
    lines: dict[str, list[int | None]] = {}
    if groups is not None and number == liguilla_rounds + 1:
        # The liguilla tables the standings page shows (scoring.standings.tables).
        tables = {
            t.pool: t.lines
            for t in liguilla_tables(
                groups,
                [m for m in state.records() if m.round_number <= liguilla_rounds],
                points_win=tournament.points_per_win,
                tiebreaks=tournament.tiebreak_order,
                qualifiers=tournament.group_qualifiers,
                withdrawn=state.withdrawn(),
                expelled=state.expelled(),
            )
        }
        # Order the groups by their winners' records, so that the best winner is seed 1.
        order = sorted(
            tables, key=lambda g: (-tables[g][0].points, -tables[g][0].juegos_diff, -tables[g][0].tantos_diff, int(g))
        )
        standings = [[line.pair for line in tables[g] if not state.out(line.pair)] for g in order]
        qualifiers = min(tournament.group_qualifiers, min(len(s) for s in standings))
        seeding = seeds_from_standings(standings, qualifiers=qualifiers)
        first_line = bracket_from_seeds(seeding.seeds, tiers=seeding.tiers, group=seeding.group, byes=state.byes)
        lines[""] = [None if p is None else _number(p) for p in first_line]
    else:
        by_pool: dict[str, list[MatchInfo]] = defaultdict(list)
        for m in previous:
            by_pool[m.pool].append(m)
        for pool, entries in by_pool.items():
            line: list[int | None] = []
            for m in sorted(entries, key=lambda m: m.slot if m.slot is not None else 1 << 30):
                if m.b is None:
                    line.append(None if state.out(m.a.number) else m.a.number)
                elif m.outcome == "double_loss" or m.winner is None or state.out(m.winner):
                    line.append(None)  # both out: the next opponent has the exenta
                else:
                    line.append(m.winner)
            lines[pool] = line
    slots: list[SlotPlan] = []
    champions: dict[str, int] = {}
    for pool, line in lines.items():
        entrants = [n for n in line if n is not None]
        if len(entrants) <= 1:
            if entrants:
                champions[pool] = entrants[0]
            continue
        bracket = bracket_round(line, byes=state.byes)
        for i, (a, b) in enumerate(bracket.slots):
            slots.append(SlotPlan(pool, i, _number(a), _number(b) if b is not None else None))
    return RoundDesign(
        number, Round.Kind.BRACKET, phase, is_final, slots=slots, champions=champions, finished=not slots
    )


# --- writing -------------------------------------------------------------------------------------


@dataclass
class DrawnMatch:
    pool: str
    a: int
    b: int | None
    slot: int | None = None


def perform(design: RoundDesign, seed: str) -> tuple[list[DrawnMatch], dict[str, Any]]:
    """Run the round's public draw with the seed: the matches, and the published output per pool."""
    if design.group_count is not None:
        allocation = allocate_liguillas(
            list(design.requests[0].pairs), group_count=design.group_count, seed=seed, pots=design.pots
        )
        matches: list[DrawnMatch] = []
        for g, members in enumerate(allocation, start=1):
            first = round_robin(members)[0]
            matches += [DrawnMatch(str(g), _number(a), _number(b), i) for i, (a, b) in enumerate(first.matches)]
            if first.bye is not None:
                matches.append(DrawnMatch(str(g), _number(first.bye), None, len(first.matches)))
        return matches, {LIGUILLAS_LABEL: {"groups": [list(m) for m in allocation]}}
    matches, output = [], {}
    for request in design.requests:
        draw = request.draw(seed)
        output[request.label] = draw.as_json()
        matches += [DrawnMatch(request.label, _number(a), _number(b)) for a, b in draw.matches]
        if draw.bye is not None:
            matches.append(DrawnMatch(request.label, _number(draw.bye), None))
    return matches, output


def _pairs(round: Round) -> dict[int, Pair]:
    return {p.number: p for p in Pair.objects.filter(tournament=round.tournament)}


def _fixed_tables(pairs: dict[int, Pair]) -> dict[PairId, int]:
    return {n: p.fixed_table for n, p in pairs.items() if p.fixed_table}


def write_drawn(*, round: Round, draw: Draw, matches: list[DrawnMatch], seed: str) -> list[Match]:
    """A public draw's matches: tables shuffled with the draw's seed (fixed tables first); within
    each pool the bracket line follows the table order, exenta last (for a fixed final phase)."""
    pairs = _pairs(round)
    playing = [m for m in matches if m.b is not None]
    assignment = assign_tables(
        [(m.a, m.b) for m in playing if m.b is not None],
        seed=seed,
        first=round.tournament.first_table_number,
        fixed=_fixed_tables(pairs),
    )
    table_of = {id(m): t for m, t in zip(playing, assignment.tables, strict=True)}
    rows: list[Match] = []
    for pool in sorted({m.pool for m in matches}):
        in_pool = sorted((m for m in playing if m.pool == pool), key=lambda m: table_of[id(m)])
        in_pool += [m for m in matches if m.pool == pool and m.b is None]
        for index, m in enumerate(in_pool):
            row = Match(
                round=round,
                draw=draw,
                pool=pool,
                table_number=table_of.get(id(m)),
                slot=m.slot if m.slot is not None else index,
                pair_a=pairs[m.a],
                pair_b=pairs[m.b] if m.b is not None else None,
            )
            if m.b is None:
                row.outcome, row.winner = Match.Outcome.BYE, pairs[m.a]
            rows.append(row)
    Match.objects.bulk_create(rows)
    return rows


def write_fixed(*, round: Round, slots: list[SlotPlan]) -> list[Match]:
    """A liguilla or bracket round: tables in schedule / bracket order (fixed tables first)."""
    pairs = _pairs(round)
    ordered = sorted(slots, key=lambda s: (s.pool.zfill(4), s.slot))
    playing = [s for s in ordered if s.b is not None and s.walkover_winner is None]
    assignment = assign_tables(
        [(s.a, s.b) for s in playing if s.b is not None],
        seed=None,
        first=round.tournament.first_table_number,
        fixed=_fixed_tables(pairs),
    )
    table_of = {id(s): t for s, t in zip(playing, assignment.tables, strict=True)}
    rows = []
    for s in ordered:
        row = Match(
            round=round,
            pool=s.pool,
            slot=s.slot,
            table_number=table_of.get(id(s)),
            pair_a=pairs[s.a],
            pair_b=pairs[s.b] if s.b is not None else None,
        )
        if s.b is None:
            row.outcome, row.winner = Match.Outcome.BYE, pairs[s.a]
        elif s.walkover_winner is not None:
            row.outcome, row.winner = Match.Outcome.WALKOVER, pairs[s.walkover_winner]
        rows.append(row)
    Match.objects.bulk_create(rows)
    return rows


__all__ = [
    "DrawUserError",
    "RoundDesign",
    "SlotPlan",
    "design_next_round",
    "perform",
    "write_drawn",
    "write_fixed",
]
