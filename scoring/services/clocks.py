"""Writes for the match clocks (AMM chapter VI). The truth is timestamps; the rules (torneo.clock)
say what they make due, and `clocks_tick` — the beat task, every few seconds — applies it:
one ClockEvent row per clock and key (unique), written with the clock rows locked
``skip_locked``, so a worker killed mid-tick misses nothing and applies nothing twice.

Who may: the organizer and the jueces run the clocks (Action.CLOCKS_MANAGE: pauses 3.15, absences
6.1.b, delay warnings 6.3); the mesa de control starts them with the round (it hands over the
material, 6.1.a); a juego won (and the tantos) may also be tapped by the mesa or by a player of
the table, from a phone."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import ClockEvent, ClockJuego, ClockPause, DelayWarning, JuegoClaim, MatchClock, ResultSubmission
from scoring.selectors.clocks import PHASE_ARTICLE, facts_for, latest_round_times, rounds_newest_first
from scoring.services.results import result_propose
from torneo.clock import SIDES, PartidaState, state
from torneo.clock.partida import other
from torneo.errors import NotAllowed, TournamentError
from torneo.models import Match, Round, Tournament
from torneo.notices import notify_clocks
from torneo.permissions import Action, can, is_player_of, member_pairs
from torneo.services.live import live_bump
from torneo.typing import AuthUser, User, signed_in

MAX_NOTE = 200


def _may(user: User, match: Match, *actions: Action, players: bool = False) -> None:
    tournament = match.round.tournament
    if any(can(user, tournament, action) for action in actions):
        return
    if players and is_player_of(user, match):
        return
    raise NotAllowed(_("No puedes llevar el reloj de esta partida."))


def _side(side: object) -> str:
    if side not in SIDES:
        raise ValidationError({"pair": _("Indica la pareja: «A» o «B».")})
    return str(side)


def _clock(match: Match) -> MatchClock:
    """The match's clock row, locked (created when missing)."""
    if match.pair_b_id is None:
        raise TournamentError(_("Una exenta no tiene reloj: no se juega (AMM 5.6)."), code="bye")
    if not Round.objects.filter(pk=match.round_id, status=Round.Status.PUBLISHED).exists():  # its status now
        raise TournamentError(_("La ronda todavía no está publicada: su reloj no puede empezar."), code="not_published")
    MatchClock.objects.get_or_create(match=match)
    return MatchClock.objects.select_for_update().get(match=match)


def _running(match: Match) -> MatchClock:
    clock = _clock(match)
    if clock.started_at is None:
        raise TournamentError(
            _("El reloj de la mesa %(t)s no está en marcha.") % {"t": match.table_number}, code="stopped"
        )
    if clock.finished_at is not None:
        raise TournamentError(
            _("La partida de la mesa %(t)s ya ha terminado.") % {"t": match.table_number}, code="finished"
        )
    return clock


def _done(match: Match) -> None:
    live_bump(tournament_id=match.round.tournament_id, pairs=(match.pair_a_id, match.pair_b_id))


def clock_start(*, match: Match, by: User, at: datetime.datetime | None = None) -> MatchClock:
    """Start one table's clock (AMM 6.1.a: when the material is handed over). Idempotent: a
    running clock keeps its start."""
    _may(by, match, Action.CLOCKS_MANAGE, Action.DRAWS_MANAGE)
    with transaction.atomic():
        clock = _clock(match)
        if clock.started_at is None:
            clock.started_at = at or timezone.now()
            clock.started_by = signed_in(by)
            clock.save(update_fields=["started_at", "started_by", "updated_at"])
    _done(match)
    return clock


def clocks_start_round(*, round: Round, by: User, at: datetime.datetime | None = None) -> int:
    """Start the clocks of every table of a round not started yet (AMM 6.1.a / 6.1.c: the round's
    clock). Returns how many were started."""
    round = Round.objects.select_related("tournament").get(pk=round.pk)  # its status now
    tournament = round.tournament
    if not (can(by, tournament, Action.CLOCKS_MANAGE) or can(by, tournament, Action.DRAWS_MANAGE)):
        raise NotAllowed(_("No puedes poner en marcha los relojes de este torneo."))
    if not round.is_published:
        raise TournamentError(_("La ronda todavía no está publicada: su reloj no puede empezar."), code="not_published")
    return _start_round(round, at or timezone.now(), signed_in(by))


def _start_round(round: Round, when: datetime.datetime, by: AuthUser | None) -> int:
    started = 0
    with transaction.atomic():
        # An exenta has no clock (5.6); a table whose acta is already in gets one that ends at once.
        matches = list(Match.objects.filter(round=round, pair_b__isnull=False).select_related("round__tournament"))
        existing = {c.match_id: c for c in MatchClock.objects.select_for_update().filter(match__in=matches)}
        for match in matches:
            clock = existing.get(match.pk)
            if clock is None:
                MatchClock.objects.create(match=match, started_at=when, started_by=by)
                started += 1
            elif clock.started_at is None:
                clock.started_at, clock.started_by = when, by
                clock.save(update_fields=["started_at", "started_by", "updated_at"])
                started += 1
    if started:
        live_bump(tournament_id=round.tournament_id)
    return started


AUTOSTART_LATE = datetime.timedelta(minutes=10)
"""A round whose clocks should have started longer ago than this is left to the juez: the option
was switched on late, or the worker was down; starting them back then would apply lateness
penalties (AMM 6.1.b) nobody saw coming."""


def clocks_autostart(*, now: datetime.datetime | None = None) -> int:
    """AMM 6.1.a / 6.1.c, for the tournaments that ask for it (``clocks_autostart``): the current
    round's clocks start by themselves at the latest moment the reglamento allows — the draw's
    publication plus 5 minutes, or the jornada's start plus its courtesy time — recorded at that
    moment, not at the tick's. Only clocks not started yet: a table the juez started stays as it
    is. Returns how many were started."""
    now = now or timezone.now()
    started = 0
    running = Tournament.objects.filter(clocks_autostart=True).exclude(status=Tournament.Status.FINISHED)
    for tournament in running:
        rounds = [r for r in rounds_newest_first(tournament) if r.is_published and r.published_at is not None]
        times = latest_round_times(rounds, tournament) if rounds else None
        if times is None or not (times.starts_at <= now <= times.starts_at + AUTOSTART_LATE):
            continue
        waiting = Match.objects.filter(round=rounds[0], pair_b__isnull=False, outcome=Match.Outcome.PENDING).exclude(
            clock__started_at__isnull=False
        )
        if waiting.exists():
            started += _start_round(rounds[0], times.starts_at, None)
    return started


def clock_pause(*, match: Match, by: User, reason: str, at: datetime.datetime | None = None) -> ClockPause:
    """AMM 3.15: an interruption authorised by the juez, with its reason; the clock stops."""
    _may(by, match, Action.CLOCKS_MANAGE)
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Escribe el motivo de la interrupción (AMM 3.15).")})
    if len(reason) > MAX_NOTE:
        raise ValidationError(
            {"reason": _("El motivo es demasiado largo (máximo %(n)d caracteres).") % {"n": MAX_NOTE}}
        )
    with transaction.atomic():
        clock = _running(match)
        if clock.pauses.filter(ended_at__isnull=True).exists():
            raise TournamentError(_("El reloj ya está parado."), code="paused")
        pause = ClockPause.objects.create(clock=clock, started_at=at or timezone.now(), reason=reason, by=signed_in(by))
    _done(match)
    return pause


def clock_resume(*, match: Match, by: User, at: datetime.datetime | None = None) -> ClockPause:
    """The end of an interruption (AMM 3.15): the clock runs again from where it stopped."""
    _may(by, match, Action.CLOCKS_MANAGE)
    with transaction.atomic():
        clock = _running(match)
        pause = clock.pauses.filter(ended_at__isnull=True).first()
        if pause is None:
            raise TournamentError(_("El reloj no está parado."), code="not_paused")
        pause.ended_at = max(at or timezone.now(), pause.started_at)
        pause.save(update_fields=["ended_at"])
    _done(match)
    return pause


def _paused(clock: MatchClock, at: datetime.datetime | None = None) -> bool:
    """Stopped now (``at`` None), or at the moment ``at``."""
    if at is None:
        return clock.pauses.filter(ended_at__isnull=True).exists()
    return clock.pauses.filter(Q(ended_at__isnull=True) | Q(ended_at__gt=at), started_at__lte=at).exists()


# A juego tapped on a phone without network is sent when the connection returns (issue 33, the
# phone's queue) with the moment it was tapped, in the server's clock (the page corrects the phone's
# offset, static/js/terminal-offline.js): the juego ended then (AMM 3.16: it is marked as it ends;
# chapter VI counts from it), not when the message arrived. Within LATE_TAP_MAX only: a tap older
# than that (the phone's clock wrong, or a table that played on without network for long) is not
# the phone's to date: the juez enters it, having asked the table.
LATE_TAP_MAX = datetime.timedelta(minutes=10)


def tap_moment(*, tapped_at: datetime.datetime | None, now: datetime.datetime) -> datetime.datetime:
    """When a juego tapped at ``tapped_at`` (a phone's queue; None: now) and received ``now`` ended."""
    if tapped_at is None or tapped_at >= now:
        return now  # a phone's clock a little ahead of the server's: the tap arrived as it was made
    if now - tapped_at > LATE_TAP_MAX:
        raise TournamentError(
            _(
                "Este juego se anotó sin conexión hace más de %(n)d minutos: no cuenta desde el móvil. "
                "Avisad al juez para que lo anote."
            )
            % {"n": LATE_TAP_MAX.seconds // 60},
            code="late",
        )
    return tapped_at


def table_side(user: User, match: Match) -> str | None:
    """The side of the table the user plays for (a player or the pair's terminal), or None: the
    staff — the juez, the organizer, the mesa — taps for the table and its tap counts at once."""
    tournament = match.round.tournament
    if can(user, tournament, Action.CLOCKS_MANAGE) or can(user, tournament, Action.RESULTS_ENTER):
        return None
    pairs = member_pairs(user, [match.pair_a_id, match.pair_b_id])
    if match.pair_a_id in pairs:
        return "A"
    return "B" if match.pair_b_id in pairs else None


def _pending_claim(clock: MatchClock) -> JuegoClaim | None:
    return clock.claims.filter(resolved_at__isnull=True).first()


def _close_claim(claim: JuegoClaim, *, by: User, outcome: str, juego: ClockJuego | None = None) -> None:
    claim.outcome = outcome
    claim.resolved_at = timezone.now()
    claim.resolved_by = signed_in(by)
    claim.juego = juego
    claim.save(update_fields=["outcome", "resolved_at", "resolved_by", "juego"])


def _refuse_stale(clock: MatchClock, number: int | None) -> None:
    """``number``: the juego a tap is for, as the phone saw the score (juegos counted + 1). A tap
    for a juego already counted — a second phone of the same pair confirming a claim the first one
    confirmed, a form sent twice, a tap queued offline that arrives after the score moved on — is
    refused, never counted as one more juego. None (an API client that does not say): not checked."""
    if number is None:
        return
    counted = list(clock.juegos.values_list("winner", flat=True))
    if number != len(counted) + 1:
        raise TournamentError(
            ngettext(
                "Este toque era para el juego %(n)d, pero ya va %(c)d juego anotado (%(a)d-%(b)d): lo ha anotado "
                "otro móvil o el toque llegó dos veces. Mirad el reloj de la mesa; nada ha cambiado.",
                "Este toque era para el juego %(n)d, pero ya van %(c)d juegos anotados (%(a)d-%(b)d): lo ha anotado "
                "otro móvil o el toque llegó dos veces. Mirad el reloj de la mesa; nada ha cambiado.",
                len(counted),
            )
            % {"n": number, "c": len(counted), "a": counted.count("A"), "b": counted.count("B")},
            code="stale",
        )


def clock_juego(
    *,
    match: Match,
    by: User,
    winner: str,
    at: datetime.datetime | None = None,
    number: int | None = None,
) -> ClockJuego | JuegoClaim:
    """A juego won, tapped at the table (issue 32; AMM 3.16: the juego is marked as it ends, and
    the losing pair signs). The juez, the organizer and the mesa tap for the table: it counts at
    once. A player (or the pair's terminal) tapping the *rivals'* juego concedes it: it counts at
    once. A player tapping *their own* pair's juego claims it (a JuegoClaim, returned): it counts
    when the other pair confirms it — by tapping the same juego — at the time it was claimed. Two
    pairs that each say they won the juego are refused: they call the juez, whose tap decides.
    The adjustments of 6.4 follow the counted score; the tantos of the juego start again. Refused
    while the juez has stopped the clock (AMM 3.15: no juego is played during an interruption).
    ``number``: the juego the tap is for, as the phone saw it (`_refuse_stale`)."""
    _may(by, match, Action.CLOCKS_MANAGE, Action.RESULTS_ENTER, players=True)
    winner = _side(winner)
    side = table_side(by, match)
    if side is None or side != winner:
        return _add_juego(match=match, by=by, winner=winner, at=at, article="", conceded_by=side, number=number)
    with transaction.atomic():
        clock = _running(match)
        _refuse_stale(clock, number)
        _refuse_paused(clock, at)
        _refuse_decided(match, clock)
        pending = _pending_claim(clock)
        if pending is not None and pending.winner == winner:
            raise TournamentError(
                _("Ya habéis anotado este juego: falta que lo confirme la otra pareja."), code="claimed"
            )
        if pending is not None:
            raise TournamentError(
                _(
                    "La pareja %(p)s dice que este juego lo ha ganado ella: confírmalo tocando «Juego para %(p)s» "
                    "o avisad al juez."
                )
                % {"p": _pair_number(match, pending.winner)},
                code="disputed",
            )
        claim = JuegoClaim.objects.create(
            clock=clock, winner=winner, claimed_at=_after_start(clock, at), by=signed_in(by)
        )
    _done(match)
    return claim


def _after_start(clock: MatchClock, at: datetime.datetime | None) -> datetime.datetime:
    """The moment of a tap (``at``: a late one, `tap_moment`; None: now), never before the clock started."""
    moment = at or timezone.now()
    return max(moment, clock.started_at) if clock.started_at is not None else moment


def _pair_number(match: Match, side: str) -> object:
    pair = match.pair_a if side == "A" else match.pair_b
    return pair.number if pair is not None else side


def clock_juego_adjudge(
    *, match: Match, by: User, winner: str, article: str, at: datetime.datetime | None = None
) -> ClockJuego:
    """A juego the juez gives (``article``: the sanction's, AMM 5.4.2): a fact of the partida, on its
    score like any juego, allowed while the clock is stopped for the incident (3.15), and never taken
    back by the clock's «Deshacer» (`clock_juego_undo`), only by undoing its sanction."""
    _may(by, match, Action.CLOCKS_MANAGE)
    if not article:
        raise ValidationError({"article": _("Indica el artículo por el que el juez da el juego.")})
    return _add_juego(match=match, by=by, winner=_side(winner), at=at, article=article[:12])


def _refuse_paused(clock: MatchClock, at: datetime.datetime | None = None) -> None:
    if _paused(clock, at):
        raise TournamentError(
            _("Reloj parado por el juez: no se anota ningún juego mientras la partida está interrumpida (AMM 3.15)."),
            code="paused",
        )


def _refuse_decided(match: Match, clock: MatchClock) -> None:
    """The clock row is locked: two taps at once see the same score, and the second one is refused
    here rather than written past the decided partida (which no reading accepts)."""
    number = clock.juegos.count() + 1
    to_win = match.round.tournament.games_to_win
    if number > 2 * to_win - 1:
        raise ValidationError({"winner": _("La partida no puede tener más juegos.")})
    won = Counter(clock.juegos.values_list("winner", flat=True))
    if max(won.values(), default=0) >= to_win:
        raise TournamentError(
            _("La partida ya está decidida (%(a)d-%(b)d): no hay más juegos que anotar.")
            % {"a": won.get("A", 0), "b": won.get("B", 0)},
            code="decided",
        )


def _add_juego(
    *,
    match: Match,
    by: User,
    winner: str,
    at: datetime.datetime | None,
    article: str,
    conceded_by: str | None = None,
    number: int | None = None,
) -> ClockJuego:
    """Count a juego. A claim waiting on the clock is answered by it: confirmed (the juego ended
    when it was claimed) when it names the same winner, otherwise overruled by the staff's tap, or
    withdrawn when the claiming pair itself now gives the juego to the rivals (``conceded_by``)."""
    with transaction.atomic():
        clock = _running(match)
        _refuse_stale(clock, number)
        if not article:
            _refuse_paused(clock, at)
        _refuse_decided(match, clock)
        pending = _pending_claim(clock) if not article else None
        now = _after_start(clock, at)
        if pending is not None and pending.winner == winner:
            now = min(now, pending.claimed_at)
        last = clock.juegos.order_by("-number").first()
        if last is not None and now < last.ended_at:
            now = last.ended_at
        juego = ClockJuego.objects.create(
            clock=clock, number=clock.juegos.count() + 1, winner=winner, ended_at=now, by=signed_in(by), article=article
        )
        if pending is not None:
            if pending.winner == winner:
                outcome = JuegoClaim.Outcome.CONFIRMED
            elif conceded_by == pending.winner:
                outcome = JuegoClaim.Outcome.WITHDRAWN
            else:
                outcome = JuegoClaim.Outcome.OVERRULED
            _close_claim(
                pending, by=by, outcome=outcome, juego=juego if outcome == JuegoClaim.Outcome.CONFIRMED else None
            )
        if not article:
            clock.tantos_a = clock.tantos_b = None
            clock.save(update_fields=["tantos_a", "tantos_b", "updated_at"])
    _done(match)
    return juego


def clock_juego_undo(*, match: Match, by: User) -> JuegoClaim | None:
    """Take back the last juego tapped (a wrong tap). A juego the juez gave (a sanction, AMM 5.4.2)
    is never taken back here: only undoing its sanction does, with its reason. At the table (issue
    32) a player undoes only against their own pair: their own pair's claim still waiting, or the
    last juego their pair won; a juego of the rivals is undone by the mesa or the juez."""
    _may(by, match, Action.CLOCKS_MANAGE, Action.RESULTS_ENTER, players=True)
    side = table_side(by, match)
    with transaction.atomic():
        clock = _clock(match)
        if clock.finished_at is not None:
            raise TournamentError(_("La partida ya ha terminado: corrige el acta."), code="finished")
        pending = _pending_claim(clock) if side is not None else None
        if pending is not None and pending.winner == side:
            _close_claim(pending, by=by, outcome=JuegoClaim.Outcome.WITHDRAWN)
        else:
            _undo_last(match, clock, side)
            pending = None
    _done(match)
    return pending  # the claim withdrawn, if that is what the undo did


def _undo_last(match: Match, clock: MatchClock, side: str | None) -> None:
    last = clock.juegos.order_by("-number").first()
    if last is None:
        raise TournamentError(_("No hay ningún juego que deshacer."), code="no_juego")
    if last.adjudicated:
        raise TournamentError(
            _(
                "El último juego lo dio el juez por sanción (AMM %(a)s): no se deshace desde el reloj; solo "
                "anulando la sanción en la mesa del juez, con su motivo."
            )
            % {"a": last.article},
            code="adjudicated",
        )
    if side is not None and last.winner != side:
        raise TournamentError(
            _("El último juego es de la pareja %(p)s: solo ella, la mesa de control o el juez pueden deshacerlo.")
            % {"p": _pair_number(match, last.winner)},
            code="not_yours",
        )
    last.delete()


def clock_tantos(*, match: Match, by: User, a: int, b: int) -> MatchClock:
    """The tantos of the juego being played (6.5.a's last hand, 3.7.a's final jugadas)."""
    _may(by, match, Action.CLOCKS_MANAGE, Action.RESULTS_ENTER, players=True)
    top = match.round.tournament.points_per_game
    errors: dict[str, Any] = {}
    for key, value in (("a", a), ("b", b)):
        if type(value) is not int or not 0 <= value <= top:
            errors[key] = _("Los tantos van de 0 a %(n)d.") % {"n": top}
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        clock = _running(match)
        clock.tantos_a, clock.tantos_b = a, b
        clock.save(update_fields=["tantos_a", "tantos_b", "updated_at"])
    _done(match)
    return clock


def clock_absence(
    *, match: Match, by: User, pair: str, arrived: bool = False, at: datetime.datetime | None = None
) -> MatchClock:
    """AMM 6.1.b: the juez marks a pair incomplete when the clock started, then the moment it is
    complete (``arrived``). The penalties follow from the clock; nobody can forgive them."""
    _may(by, match, Action.CLOCKS_MANAGE)
    side = _side(pair).lower()
    with transaction.atomic():
        clock = _running(match)
        if arrived:
            if not getattr(clock, f"absent_{side}"):
                raise TournamentError(_("Esa pareja no estaba marcada como incompleta."), code="not_absent")
            if getattr(clock, f"arrived_{side}_at") is not None:
                raise TournamentError(_("Esa pareja ya está completa."), code="arrived")
            setattr(clock, f"arrived_{side}_at", at or timezone.now())
        else:
            setattr(clock, f"absent_{side}", True)
        clock.save(update_fields=[f"absent_{side}", f"arrived_{side}_at", "updated_at"])
    _done(match)
    return clock


def clock_warning(
    *, match: Match, by: User, pair: str, note: str = "", at: datetime.datetime | None = None
) -> DelayWarning:
    """AMM 6.3: a delay warning to a pair in this partida (it decides 6.5.b, and counts for 6.6)."""
    _may(by, match, Action.CLOCKS_MANAGE)
    side = _side(pair)
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise ValidationError({"note": _("La nota es demasiado larga (máximo %(n)d caracteres).") % {"n": MAX_NOTE}})
    with transaction.atomic():
        clock = _running(match)
        warned = match.pair_a if side == "A" else match.pair_b
        assert warned is not None
        warning = DelayWarning.objects.create(
            clock=clock, pair=warned, side=side, at=at or timezone.now(), note=note, by=signed_in(by)
        )
    _done(match)
    return warning


# --- the beat task -------------------------------------------------------------------------------


def due_events(s: PartidaState) -> list[tuple[str, str, dict[str, Any]]]:
    """What a partida's state makes due, as (key, article, data): each key is applied once."""
    events: list[tuple[str, str, dict[str, Any]]] = []
    for side in SIDES:
        absence = s.missing[side]
        for n in range(1, absence.juegos + 1):
            events.append((f"6.1.b:{side}:{n}", "6.1.b", {"pair": side, "juegos": n}))
        if absence.partida:
            events.append((f"6.1.b:{side}:partida", "6.1.b", {"pair": side, "partida": True}))
    if s.adjustments is not None:
        events.append((s.adjustments, s.adjustments, {}))
    if s.phase != "normal":
        events.append((f"fase:{s.phase}", PHASE_ARTICLE[s.phase], {"phase": s.phase}))
    if s.forced_end is not None:
        data = s.as_dict()["forced_end"]
        assert isinstance(data, dict)
        events.append(("6.5.b", "6.5.b", data))
    for side in s.alerts:
        events.append((f"6.6:{side}", "6.6", {"pair": side}))
    return events


def clocks_tick(*, now: datetime.datetime | None = None) -> int:
    """Start the clocks that start by themselves (`clocks_autostart`), then apply what has become
    due on every running clock: the events of `due_events` (one row per
    key), the phase shown, and the end of the partida. Clocks another worker is ticking are
    skipped (``skip_locked``); the unique key makes a repeat a no-op. Then what an ended clock
    decided is proposed as the result (`clock_results_propose`). Returns the events written."""
    now = now or timezone.now()
    clocks_autostart(now=now)
    written = _tick_events(now)
    clock_results_propose()  # after the commit: its own lock order (tournament, then match)
    return written


def _tick_events(now: datetime.datetime) -> int:
    written = 0
    touched: defaultdict[int, set[int | None]] = defaultdict(set)
    with transaction.atomic():
        clocks = list(
            MatchClock.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(started_at__isnull=False, finished_at__isnull=True)
            .select_related("match__round__tournament")  # the pairs by id: no Pair rows to build
        )
        if not clocks:
            return 0
        facts = facts_for(clocks, now)
        ids = [c.pk for c in clocks]
        known = set(ClockEvent.objects.filter(clock_id__in=ids).values_list("clock_id", "key"))
        new: list[ClockEvent] = []
        changed: list[MatchClock] = []
        warn: list[tuple[Match, str]] = []
        for clock in clocks:
            decided = clock.match.outcome != Match.Outcome.PENDING  # the acta is in: the clock just ends
            partida, minute, _pause = facts[clock.pk]
            current = state(partida)
            if not decided:
                for key, article, data in due_events(current):
                    if (clock.pk, key) not in known:
                        new.append(ClockEvent(clock=clock, key=key, article=article, at=now, minute=minute, data=data))
                        if key == "fase:ajustes":
                            warn.append((clock.match, "6.4"))
                if current.phase in ("normal", "ajustes") and current.winner is None and 0 < current.remaining <= 5:
                    warn.append((clock.match, "6.2-5"))
            phase = "terminada" if decided else current.phase
            if phase != clock.phase or (phase == "terminada" and clock.finished_at is None):
                clock.phase = phase
                if phase == "terminada":
                    clock.finished_at = now
                changed.append(clock)
        if new:
            try:
                with transaction.atomic():
                    ClockEvent.objects.bulk_create(new)
            except IntegrityError:
                # A concurrent tick wrote some of them between our read and our write: row by row.
                for event in new:
                    _, created = ClockEvent.objects.get_or_create(
                        clock=event.clock,
                        key=event.key,
                        defaults={"article": event.article, "at": event.at, "minute": event.minute, "data": event.data},
                    )
                    written += int(created)
            else:
                written = len(new)
            for event in new:
                touched[event.clock.match.round.tournament_id] |= _pairs_of(event.clock.match)
        if changed:
            MatchClock.objects.bulk_update(changed, ["phase", "finished_at"])
            for clock in changed:
                touched[clock.match.round.tournament_id] |= _pairs_of(clock.match)
    for tournament_id, pairs in touched.items():
        live_bump(tournament_id=tournament_id, pairs=pairs)  # the shared pages and these tables' pairs
    if warn:  # the tables' phones: 6.4 starts, five minutes to 6.2's maximum (each sent once)
        notify_clocks(events=warn)
    return written


def _pairs_of(match: Match) -> set[int | None]:
    return {match.pair_a_id, match.pair_b_id}


# --- what the clock decided, proposed as the result ------------------------------------------------


def clock_proposal(s: PartidaState, match: Match) -> dict[str, Any] | None:
    """The result a finished partida's clock proposes (for `result_propose`), or None.

    AMM 6.1.b: a pair still incomplete at 20 minutes loses the partida (a walkover; both pairs:
    both lose). AMM 6.5.b: at the forced end, with no agreement, the only pair warned for delay
    loses by one juego (a juez's ruling), else both lose. A partida decided by the juegos tapped
    at the table: played, with the juegos lost by lateness in the score as the acta writes them."""
    names = {"A": match.pair_a.number if match.pair_a else "—", "B": match.pair_b.number if match.pair_b else "—"}
    target = match.round.tournament.games_to_win
    score = dict(s.score)
    lost_at = f"{s.rules.absence_partida_at:g}" if s.rules.absence_partida_at is not None else "—"
    games: dict[str, int | None] = (
        {"games_a": score["A"], "games_b": score["B"]} if max(score.values()) < target else {}
    )
    if s.winner == "both":
        return {
            "outcome": Match.Outcome.DOUBLE_LOSS,
            **games,
            "reason": _(
                "Reloj: ninguna de las dos parejas estaba completa a los %(m)s minutos: pierden las dos (AMM 6.1.b)."
            )
            % {"m": lost_at},
        }
    if s.winner is not None:
        loser = other(s.winner)
        if s.missing[loser].partida:
            return {
                "outcome": Match.Outcome.WALKOVER,
                "winner_side": s.winner,
                "reason": _(
                    "Reloj: la pareja %(p)s no estaba completa a los %(m)s minutos: pierde la partida (AMM 6.1.b)."
                )
                % {"p": names[loser], "m": lost_at},
            }
        late = sum(s.missing[side].juegos for side in SIDES)
        reason = _("Reloj: juegos anotados en la mesa.")
        if late:
            reason += " " + ngettext(
                "Incluye %(n)d juego perdido por retraso (AMM 6.1.b).",
                "Incluyen %(n)d juegos perdidos por retraso (AMM 6.1.b).",
                late,
            ) % {"n": late}
        return {
            "outcome": Match.Outcome.PLAYED,
            "games_a": score["A"],
            "games_b": score["B"],
            "reason": reason,
        }
    end = s.forced_end
    if end is None or end.agreed:
        return None  # an agreed result (6.5.b) is the acta the mesa types
    if end.loser in SIDES and end.result is not None:
        loser = "A" if end.loser == "A" else "B"
        winner = other(loser)
        return {
            "outcome": Match.Outcome.RULING,
            "winner_side": winner,
            "games_a": end.result["A"],
            "games_b": end.result["B"],
            "reason": _(
                "Reloj: tiempo agotado sin acuerdo; solo la pareja %(p)s tenía aviso por demora: pierde por un "
                "juego (AMM 6.5.b)."
            )
            % {"p": names[loser]},
        }
    return {
        "outcome": Match.Outcome.DOUBLE_LOSS,
        **games,
        "reason": _(
            "Reloj: tiempo agotado sin acuerdo y sin un único aviso por demora: pierden las dos parejas (AMM 6.5.b)."
        ),
    }


def _decided_by_rule(clock: MatchClock, proposal: dict[str, Any]) -> bool:
    """Whether what the clock decided is a rule's result, final at once, not a proposal the
    penalised pair could reject: a walkover or both late (6.1.b «no pueden ser perdonadas»), the
    forced end (6.5.b), or a partida whose deciding juego was not won at the table — given by the
    juez (5.4.2) or lost by lateness alone (6.1.b). A partida played to its end at the table stays a proposal,
    for the losing pair or the mesa to confirm (AMM 3.16)."""
    if proposal["outcome"] != Match.Outcome.PLAYED:
        return True
    # The lateness juegos count from the start (torneo.clock.partida.state): with no juego on the
    # clock, lateness alone decided it; otherwise the last juego did.
    last = ClockJuego.objects.filter(clock=clock).order_by("-number").first()
    return last is None or last.adjudicated


def clock_results_propose() -> int:
    """Propose the result of every partida its clock ended (the tick's ``fase:terminada``) that has
    none yet: `result_propose`, one transaction each, after the tick's. A worker killed in between
    misses nothing: the next tick finds the ended clock again, and a second proposal for the same
    match is never made. Returns how many were proposed."""
    Source = ResultSubmission.Source
    open_or_done = ResultSubmission.objects.filter(match=OuterRef("clock__match")).filter(
        Q(source=Source.CLOCK) | Q(status__in=(ResultSubmission.Status.PROPOSED, ResultSubmission.Status.DISPUTED))
    )
    ended = list(
        ClockEvent.objects.filter(key="fase:terminada", clock__match__outcome=Match.Outcome.PENDING)
        .exclude(Exists(open_or_done))
        .select_related("clock__match__round__tournament", "clock__match__pair_a", "clock__match__pair_b")
    )
    proposed = 0
    for event in ended:
        clock = event.clock
        partida, _minute, _pause = facts_for([clock], event.at)[clock.pk]
        decided = state(partida)
        proposal = clock_proposal(decided, clock.match)
        if proposal is None:
            continue
        final = _decided_by_rule(clock, proposal)
        claim = _pending_claim(clock) if decided.winner is None else None  # the forced end (6.5.b)
        if claim is not None:
            # A juego tapped before the forced end and never answered (AMM 3.16: the losing pair signs
            # it): nobody knows the score the rule applies to, so what the clock decided is only
            # proposed, with the claim named, for the mesa or a juez (6.5.b «si no hay acuerdo»). A
            # pair incomplete at 20 minutes (6.1.b) loses whatever was claimed: that stays final.
            final = False
            proposal["reason"] += " " + _(
                "Quedó sin confirmar un juego que la pareja %(p)s anotó para ella a las %(t)s: la mesa o el juez "
                "deciden el resultado (AMM 3.16, 6.5.b)."
            ) % {
                "p": _pair_number(clock.match, claim.winner),
                "t": timezone.localtime(claim.claimed_at).strftime("%H:%M"),
            }
        try:
            sub = result_propose(match=clock.match, source=Source.CLOCK, final=final, **proposal)
        except (ValidationError, TournamentError):
            # The tournament's juegos changed since (AMM 1.7.a) or the round went away: the mesa types it.
            continue
        proposed += int(sub is not None)
    return proposed
