"""Reads for the match clocks: the facts of each partida from its timestamps, and its chapter VI
state now (torneo.clock decides). A fixed number of queries for any number of clocks: the clocks
with their matches, then their juegos, pauses and delay warnings, and the pairs' earlier warnings.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Count, Exists, OuterRef, QuerySet, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import ClockEvent, ClockJuego, ClockPause, DelayWarning, JuegoClaim, MatchClock
from torneo.clock import (
    AMM,
    PRESETS,
    Juego,
    Partida,
    PartidaState,
    RoundTimes,
    clock_minutes,
    jornada_of,
    round_times,
    state,
)
from torneo.clock.partida import Side
from torneo.clock.times import max_duration_minutes
from torneo.models import Match, Round, Session, Tournament
from torneo.selectors.registrations import members_prefetch

PHASE_ARTICLE = {"normal": "6.2", "ajustes": "6.4", "excedido": "6.2", "ultima_mano": "6.5.a", "terminada": "6.5"}


@dataclasses.dataclass
class ClockInfo:
    """One partida's clock now: its facts, its state (None: not started) and its deadlines."""

    match: Match
    clock: MatchClock | None
    minute: float | None
    paused: bool
    facts: Partida | None
    state: PartidaState | None
    pause_reason: str = ""
    claim: JuegoClaim | None = None  # a juego a pair tapped for itself, waiting for the rivals (issue 32)

    @property
    def started(self) -> bool:
        return self.state is not None

    def deadline(self, now: datetime.datetime, minutes: float) -> datetime.datetime | None:
        """When the clock reaches ``minutes`` if it keeps running (None while paused or stopped)."""
        if self.minute is None or self.paused:
            return None
        return now + datetime.timedelta(minutes=minutes - self.minute)

    def as_dict(self, now: datetime.datetime) -> dict[str, Any]:
        match = self.match
        out: dict[str, Any] = {
            "match": match.pk,
            "round": match.round.number,
            "table": match.table_number,
            "pair_a": {"number": match.pair_a.number, "name": match.pair_a.display_name},
            "pair_b": {"number": match.pair_b.number, "name": match.pair_b.display_name} if match.pair_b else None,
            "started": self.started,
            "started_at": self.clock.started_at.isoformat() if self.clock and self.clock.started_at else None,
            "paused": self.paused,
            "pause_reason": self.pause_reason,
            "minute": None if self.minute is None else round(self.minute, 3),
            "server_now": now.isoformat(),
        }
        if self.state is not None:
            maximum = self.state.max_minutes
            rules = self.state.rules
            out.update(self.state.as_dict())
            for key, minutes in (
                ("window_at", maximum - rules.adjustments_window),
                ("max_at", maximum),
                ("limit_at", maximum + rules.overtime_limit),
            ):
                when = self.deadline(now, minutes)
                out[key] = when.isoformat() if when else None
            out["juegos"] = [
                {"winner": j.winner, "ended": round(j.ended, 3)} for j in (self.facts.juegos if self.facts else ())
            ]
            claim = self.claim
            pair = None if claim is None else (match.pair_a if claim.winner == "A" else match.pair_b)
            out["claim"] = (
                None
                if claim is None or pair is None
                else {"winner": claim.winner, "pair": pair.number, "claimed_at": claim.claimed_at.isoformat()}
            )
        return out


def clocks_of(matches: QuerySet[MatchClock]) -> list[MatchClock]:
    return list(
        matches.select_related("match__round__tournament", "match__pair_a", "match__pair_b").order_by(
            "match__round__number", "match__table_number", "match__pk"
        )
    )


def _ts(when: datetime.datetime) -> float:
    return when.timestamp()


Facts = tuple[Partida, float, ClockPause | None]


def facts_for(clocks: Sequence[MatchClock], now: datetime.datetime) -> dict[int, Facts]:
    """Each started clock's facts at ``now``, its minute and its open pause: five queries."""
    started = [c for c in clocks if c.started_at is not None]
    ids = [c.pk for c in started]
    juegos: dict[int, list[ClockJuego]] = defaultdict(list)
    pauses: dict[int, list[ClockPause]] = defaultdict(list)
    if not ids:
        return {}
    for juego in ClockJuego.objects.filter(clock_id__in=ids).order_by("clock_id", "number"):
        juegos[juego.clock_id].append(juego)
    for pause in ClockPause.objects.filter(clock_id__in=ids).order_by("clock_id", "started_at", "pk"):
        pauses[pause.clock_id].append(pause)
    # 6.6: every delay warning of these pairs in the tournament, by clock (earlier = the others').
    pair_ids = {c.match.pair_a_id for c in started} | {c.match.pair_b_id for c in started if c.match.pair_b_id}
    by_pair: dict[int, int] = defaultdict(int)
    own: dict[tuple[int, int], int] = defaultdict(int)
    late_own: set[tuple[int, int]] = set()
    rows = DelayWarning.objects.filter(pair_id__in=pair_ids).values("pair_id", "clock_id").annotate(n=Count("pk"))
    for row in rows:
        by_pair[row["pair_id"]] += row["n"]
        own[(row["clock_id"], row["pair_id"])] += row["n"]
    # 6.6 with 6.1.c: a lateness penalised under 6.1.b is a «sanción por retraso» too — one per partida
    # whatever it cost (a juego, two, the partida), counted in the partidas before this one.
    tournaments = {c.match.round.tournament_id for c in started}
    for clock_id, pair_id in _late_pairs(pair_ids, tournaments):
        by_pair[pair_id] += 1
        late_own.add((clock_id, pair_id))
    out: dict[int, Facts] = {}
    for clock in started:
        assert clock.started_at is not None
        start = _ts(clock.started_at)
        spans = [(_ts(p.started_at), _ts(p.ended_at) if p.ended_at else None) for p in pauses[clock.pk]]
        minute = clock_minutes(start, _ts(now), spans)
        match = clock.match
        sides: dict[Side, int | None] = {"A": match.pair_a_id, "B": match.pair_b_id}
        warned: dict[Side, int] = {}
        earlier: dict[Side, int] = {}
        for side, pair in sides.items():
            if pair is not None:
                warned[side] = own[(clock.pk, pair)]
                earlier[side] = by_pair[pair] - own[(clock.pk, pair)] - int((clock.pk, pair) in late_own)
        missing: dict[Side, float | None] = {}
        absences: tuple[tuple[Side, bool, datetime.datetime | None], ...] = (
            ("A", clock.absent_a, clock.arrived_a_at),
            ("B", clock.absent_b, clock.arrived_b_at),
        )
        for side, absent, arrived in absences:
            if absent:
                missing[side] = None if arrived is None else clock_minutes(start, _ts(arrived), spans)
        tournament = match.round.tournament
        points = tournament.points_per_game
        tantos: dict[Side, int] | None = None
        if clock.tantos_a is not None and clock.tantos_b is not None:
            tantos = {"A": min(clock.tantos_a, points), "B": min(clock.tantos_b, points)}
        facts = Partida(
            minute=minute,
            games_to_win=tournament.games_to_win,
            juegos=tuple(
                Juego("A" if j.winner == "A" else "B", min(minute, clock_minutes(start, _ts(j.ended_at), spans)))
                for j in juegos[clock.pk]
            ),
            tantos=tantos,
            missing=missing,
            delay_warnings=warned,
            earlier_delay_sanctions=earlier,
            points_per_game=tournament.points_per_game,
            rules=PRESETS.get(tournament.clock_rules, AMM),
        )
        open_pause = next((p for p in pauses[clock.pk] if p.ended_at is None), None)
        out[clock.pk] = (facts, minute, open_pause)
    return out


def _late_pairs(pair_ids: set[int], tournaments: set[int]) -> set[tuple[int, int]]:
    """(clock, pair) for every partida in which one of these pairs was penalised for lateness
    (AMM 6.1.b: the clock's events «6.1.b:<side>:…»). One query, by tournament (latenesses are
    few; a list of every pair's id would be the query's weight at a thousand tables)."""
    found: set[tuple[int, int]] = set()
    events = ClockEvent.objects.filter(article="6.1.b", clock__match__round__tournament_id__in=tournaments).values_list(
        "clock_id", "key", "clock__match__pair_a_id", "clock__match__pair_b_id"
    )
    for clock_id, key, pair_a, pair_b in events:
        side = key.split(":")[1] if key.count(":") >= 1 else ""
        pair = pair_a if side == "A" else pair_b if side == "B" else None
        if pair in pair_ids:
            found.add((clock_id, pair))
    return found


def with_players(matches: Iterable[Match]) -> None:
    """The pairs' players, for their names (two queries whatever the number of tables), unless the
    caller's query brought them."""
    pairs = [
        pair
        for match in matches
        for pair in (match.pair_a, match.pair_b)
        if pair is not None and "members" not in getattr(pair, "_prefetched_objects_cache", {})
    ]
    if pairs:
        prefetch_related_objects(pairs, members_prefetch())


def clock_infos(matches: Iterable[Match], now: datetime.datetime) -> list[ClockInfo]:
    """The clocks of these matches now (a match without a clock: not started), with the pairs'
    players loaded for their names."""
    matches = list(matches)
    with_players(matches)
    by_id = {m.pk: m for m in matches}
    clocks = {c.match_id: c for c in MatchClock.objects.filter(match_id__in=list(by_id))}
    for clock in clocks.values():
        clock.match = by_id[clock.match_id]
    facts = facts_for(list(clocks.values()), now)
    claims = {
        c.clock_id: c
        for c in JuegoClaim.objects.filter(clock_id__in=[c.pk for c in clocks.values()], resolved_at__isnull=True)
    }
    infos = []
    for match in matches:
        found = clocks.get(match.pk)
        known = facts.get(found.pk) if found else None
        if found is None or known is None:
            infos.append(ClockInfo(match, found, None, False, None, None))
            continue
        partida, minute, pause = known
        infos.append(
            ClockInfo(
                match,
                found,
                minute,
                pause is not None,
                partida,
                state(partida),
                pause.reason if pause else "",
                claims.get(found.pk),
            )
        )
    return infos


def round_clocks(round_: Round, now: datetime.datetime) -> list[ClockInfo]:
    """Every table of a round (exentas aside) with its clock now."""
    matches = (
        Match.objects.filter(round=round_, pair_b__isnull=False)
        .select_related("round__tournament", "pair_a", "pair_b")
        .order_by("pool", "table_number", "pk")
    )
    return clock_infos(matches, now)


def match_clock(match: Match, now: datetime.datetime) -> ClockInfo:
    return clock_infos([match], now)[0]


def clock_events(match: Match) -> list[ClockEvent]:
    return list(ClockEvent.objects.filter(clock__match=match).order_by("at", "pk"))


def current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()


def clock_notes(match: Match) -> list[str]:
    """What the table's clock recorded and decided, for the acta and the result desk (see
    `clock_notes_by_match`)."""
    return clock_notes_by_match([match])[match.pk]


def _hhmm(when: datetime.datetime) -> str:
    return timezone.localtime(when).strftime("%H:%M")


def clock_notes_by_match(matches: Sequence[Match]) -> dict[int, list[str]]:
    """What each table's clock recorded and decided, in Spanish, by match id, for the printed acta
    and the result desk: its start, its maximum and its limit (AMM 6.1.a, 6.2, 6.5); the pauses
    with their reason (3.15); the delay warnings given from the clocks' desk (6.3: those given with
    a sanction are the sanction's own note); the juegos and the partida lost by lateness (6.1.b);
    the adjustments in force (6.4); the forced end (6.5.b). Four queries for any number of tables."""
    ids = [m.pk for m in matches]
    found: dict[int, list[str]] = {m.pk: [] for m in matches}
    clocks = {c.match_id: c for c in MatchClock.objects.filter(match_id__in=ids, started_at__isnull=False)}
    if not clocks:
        return found
    events: dict[int, list[ClockEvent]] = defaultdict(list)
    for event in ClockEvent.objects.filter(clock__match_id__in=ids).order_by("at", "pk"):
        events[event.clock_id].append(event)
    pauses: dict[int, list[ClockPause]] = defaultdict(list)
    for pause in ClockPause.objects.filter(clock__match_id__in=ids).order_by("started_at", "pk"):
        pauses[pause.clock_id].append(pause)
    warnings: dict[int, list[DelayWarning]] = defaultdict(list)
    unlinked = DelayWarning.objects.filter(clock__match_id__in=ids, sanctions__isnull=True).select_related("pair")
    for warning in unlinked.order_by("at", "pk"):
        warnings[warning.clock_id].append(warning)
    for match in matches:
        clock = clocks.get(match.pk)
        if clock is not None:
            found[match.pk] = _notes_of(match, clock, events[clock.pk], pauses[clock.pk], warnings[clock.pk])
    return found


def _notes_of(
    match: Match,
    clock: MatchClock,
    events: Sequence[ClockEvent],
    pauses: Sequence[ClockPause],
    warnings: Sequence[DelayWarning],
) -> list[str]:
    numbers = {"A": match.pair_a.number if match.pair_a else "—", "B": match.pair_b.number if match.pair_b else "—"}
    notes: list[str] = []
    assert clock.started_at is not None
    tournament = match.round.tournament
    rules = PRESETS.get(tournament.clock_rules, AMM)
    maximum = max_duration_minutes(tournament.games_to_win)
    line = _("Reloj: en marcha a las %(t)s (AMM 6.1.a).") % {"t": _hhmm(clock.started_at)}
    if all(p.ended_at is not None for p in pauses):
        paused = sum(((p.ended_at - p.started_at).total_seconds() for p in pauses if p.ended_at), 0.0) / 60
        at_max = clock.started_at + datetime.timedelta(minutes=maximum + paused)
        at_limit = at_max + datetime.timedelta(minutes=rules.overtime_limit)
        line = _(
            "Reloj: en marcha a las %(t)s (AMM 6.1.a); tiempo máximo a las %(m)s (AMM 6.2), límite a las %(l)s "
            "(AMM 6.5)."
        ) % {"t": _hhmm(clock.started_at), "m": _hhmm(at_max), "l": _hhmm(at_limit)}
    notes.append(line)
    for pause in pauses:
        notes.append(
            _("Reloj parado de %(a)s a %(b)s: %(r)s (AMM 3.15).")
            % {"a": _hhmm(pause.started_at), "b": _hhmm(pause.ended_at) if pause.ended_at else "—", "r": pause.reason}
        )
    for warning in warnings:
        notes.append(
            _("Aviso por retraso a la pareja %(p)s a las %(t)s (AMM 6.3)%(n)s.")
            % {"p": warning.pair.number, "t": _hhmm(warning.at), "n": f": {warning.note}" if warning.note else ""}
        )
    lost: dict[str, int] = {}
    partida: list[str] = []
    forced: dict[str, Any] | None = None
    adjustments: ClockEvent | None = None
    for event in events:
        parts = event.key.split(":")
        if parts[0] == "6.1.b" and parts[-1] == "partida":
            partida.append(parts[1])
        elif parts[0] == "6.1.b":
            lost[parts[1]] = max(lost.get(parts[1], 0), int(parts[2]))
        elif event.key == "6.5.b":
            forced = event.data
        elif event.key.startswith("6.4."):
            adjustments = event
    for side in ("A", "B"):
        if side in partida:
            notes.append(
                _("Reloj: la pareja %(p)s pierde la partida por no estar completa a tiempo (AMM 6.1.b).")
                % {"p": numbers[side]}
            )
        elif side in lost:
            notes.append(
                ngettext(
                    "Reloj: la pareja %(p)s pierde %(n)d juego por llegar tarde (AMM 6.1.b).",
                    "Reloj: la pareja %(p)s pierde %(n)d juegos por llegar tarde (AMM 6.1.b).",
                    lost[side],
                )
                % {"p": numbers[side], "n": lost[side]}
            )
    if adjustments is not None:
        notes.append(
            _("Reloj: ajustes de terminación del AMM %(a)s desde el minuto %(m)d.")
            % {"a": adjustments.key, "m": int(adjustments.minute)}
        )
    if forced is not None:
        loser, result = forced.get("loser"), forced.get("result")
        if loser in ("A", "B") and result:
            notes.append(
                _(
                    "Reloj: partida terminada por tiempo (AMM 6.5.b); sin acuerdo pierde la pareja %(p)s, "
                    "apercibida por retraso: %(a)s–%(b)s."
                )
                % {"p": numbers[loser], "a": result.get("A"), "b": result.get("B")}
            )
        else:
            notes.append(_("Reloj: partida terminada por tiempo (AMM 6.5.b); sin acuerdo pierden ambas parejas."))
    return notes


# --- a round's times (AMM 6.1.a, 6.1.c, 6.2, 6.5) ---------------------------------------------------


def rounds_newest_first(tournament: Tournament) -> list[Round]:
    """The tournament's rounds, newest first, with their named jornadas, and whether the tournament
    has any jornada at all (so that a round naming none costs a query only when there is one to
    find): one query, a row per round."""
    has_sessions = Exists(Session.objects.filter(tournament=OuterRef("tournament")))
    return list(
        Round.objects.filter(tournament=tournament)
        .select_related("session")
        .annotate(has_sessions=has_sessions)
        .order_by("-number")
    )


def latest_round_times(rounds: list[Round], tournament: Tournament) -> RoundTimes | None:
    """The latest round's times (torneo.clock.times): its clock starts at the later of the draw's
    publication plus 5 minutes (AMM 6.1.a) and its jornada's start plus, for the jornada's first
    round, the courtesy time (AMM 6.1.c). A round that names no jornada belongs to the one its
    publication falls in (jornada_of). `rounds`: the tournament's, newest first."""
    latest = rounds[0]
    if latest.published_at is None:
        return None
    sessions = list({r.session.pk: r.session for r in rounds if r.session is not None}.values())
    if getattr(latest, "has_sessions", True) and any(r.session_id is None and r.published_at for r in rounds):
        sessions = list(Session.objects.filter(tournament=tournament).order_by("starts_at", "pk"))
    starts = [s.starts_at for s in sessions]

    def jornada(round_: Round) -> int | None:
        if round_.session is not None:
            return round_.session.pk
        if round_.published_at is None:
            return None
        index = jornada_of(timezone.localtime(round_.published_at), starts)
        return sessions[index].pk if index is not None else None

    session_id = jornada(latest)
    if session_id is None:
        return round_times(latest.published_at, tournament.games_to_win)
    session = next(s for s in sessions if s.pk == session_id)
    # AMM 6.1.c: the courtesy time applies to the first partida of each jornada only.
    first = all(jornada(r) != session_id for r in rounds[1:])
    return round_times(
        latest.published_at,
        tournament.games_to_win,
        jornada_starts_at=session.starts_at,
        courtesy_minutes=session.courtesy_minutes if first else 0,
    )
