"""Sanctions (AMM 5.4, 5.4.a, 5.10, 3.16.b, 6.3): the juez gives a step of the ladder — or an
article's own penalty — to a pair, and the decision reaches the results through their services:

- **apercibimiento** (5.4.1): on the acta (the result desk and the pair page show it);
- **pérdida de un juego** (5.4.2): the other pair wins a juego on the partida's clock, so the score,
  the adjustments of 6.4 and the end of the partida follow; without a running clock, the acta's
  notes tell the mesa;
- **pérdida de la partida** (5.4.3): the juez's ruling, counted at once (5.1: «inapelables»): the
  other pair wins, the sanctioned pair keeps the juegos it had won;
- **expulsión** (5.4.3, 5.10, 3.16.b): the pair is out of every later draw, loses the partida it is
  playing, and the opponents it was already drawn against win by walkover.

A delay (6.3 and the articles that point to it) also writes the clock's delay warning, which
decides 6.5.b and counts for 6.6. Every sanction is a version: undoing one (`sanction_undo`) is a
new version with its reason; the juego and the warning are taken back, the expulsion lifted; a
result already set stays until the acta is corrected (the desk says so)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from referees.models import Incident, Sanction
from referees.rules.catalogue import CLOCK_APPLIED
from referees.rules.ladder import LadderError, Past, Proposal, Scope, Step, check_choice, propose
from referees.services.incidents import A_POSTERIORI, catalogue_article, late_delay_report
from scoring.adjudications import adjudicated, won_by
from scoring.models import ClockJuego, DelayWarning, MatchClock, ResultSubmission
from scoring.selectors.clocks import match_clock
from scoring.services.clocks import clock_juego_adjudge, clock_warning
from scoring.services.results import is_locked, result_submit
from torneo.errors import NotAllowed, TournamentError
from torneo.history import update_with_history
from torneo.identity import clean_text
from torneo.models import Match, Pair, Round, Tournament
from torneo.permissions import Action, can
from torneo.services.live import live_bump
from torneo.services.registrations import pair_expel, pair_reinstate
from torneo.typing import User, signed_in

MAX_REASON = 1000

_LADDER_MESSAGES = {
    "skip_needs_reason": lambda: _(
        "Saltarse pasos de la escala de sanciones necesita un motivo: la gravedad o la intención (AMM 5.4.a)."
    ),
    "lower_needs_reason": lambda: _("Dar una sanción menor que la que propone la escala necesita un motivo (AMM 5.4)."),
}


def in_force(pair: Pair) -> list[Sanction]:
    """The pair's sanctions in force, oldest first."""
    return list(Sanction.objects.filter(pair=pair, status=Sanction.Status.IN_FORCE).order_by("given_at", "pk"))


def past_of(sanction: Sanction) -> Past:
    """A sanction as the ladder sees it: its step, partida, article and the article's penalty (only
    the protocol's own steps count, 5.4)."""
    entry = catalogue_article(sanction.tournament, sanction.article)
    return Past(Step(sanction.step), sanction.match_id, sanction.article, penalty=entry.penalty)


def ladder_proposal(*, pair: Pair, match: Match | None, article: str) -> Proposal | None:
    """What AMM 5.4 offers for the pair's new infraction of ``article`` in ``match`` (None: the
    article sets its own penalty), counting what the tournament's ``ladder_scope`` says."""
    tournament = pair.tournament
    entry = catalogue_article(tournament, article)
    given = in_force(pair)
    for sanction in given:
        sanction.tournament = tournament
    record = [past_of(s) for s in given]
    # A delay warning given from the clocks' desk (scoring's clock_warning) is an apercibimiento for
    # delay (6.3) too: the ladder counts it once, whichever desk the juez used.
    linked = {s.warning_id for s in given if s.warning_id is not None}
    for warning in DelayWarning.objects.filter(pair=pair).exclude(pk__in=linked).select_related("clock"):
        record.append(Past(Step.APERCIBIMIENTO, warning.clock.match_id, "6.3"))
    scope: Scope = "torneo" if tournament.ladder_scope == "torneo" else "partida"
    return propose(record, match=match.pk if match else None, penalty=entry.penalty, scope=scope)


def _side(match: Match, pair: Pair) -> str:
    if pair.pk == match.pair_a_id:
        return "A"
    if pair.pk == match.pair_b_id:
        return "B"
    raise ValidationError({"pair": _("La pareja no juega esa partida.")})


def _rule_lost(*, match: Match, pair: Pair, by: User, reason: str) -> ResultSubmission | None:
    """The partida lost by the juez's decision: the other pair wins, the sanctioned pair keeps the
    juegos it had (the clock's, the acta's, or those the juez gave it). An acta already typed is
    replaced (3.17 «podrá acarrear la pérdida de la partida»), until 3.18 makes it final: then
    nothing (`sanction_give` refuses the loss of the partida before writing anything)."""
    current = Match.objects.select_related("round__tournament", "pair_a", "pair_b").get(pk=match.pk)
    target = current.round.tournament.games_to_win
    side = _side(current, pair)
    if current.outcome != Match.Outcome.PENDING:
        if is_locked(current):
            return None
        kept = (current.games_a if side == "A" else current.games_b) or 0
    else:
        info = match_clock(current, timezone.now())
        kept = len(won_by(adjudicated(current), side))  # without a clock: the juegos the juez gave it
        if info.state is not None:
            kept = info.state.score["A" if side == "A" else "B"]
    kept = min(kept, target - 1)
    winner = current.pair_b if side == "A" else current.pair_a
    games = (kept, target) if side == "A" else (target, kept)
    return result_submit(
        match=current,
        by=by,
        outcome=Match.Outcome.RULING,
        games_a=games[0],
        games_b=games[1],
        winner=winner,
        source=ResultSubmission.Source.JUEZ,
        reason=reason,
        final=True,
    )


def _result_final(match: Match) -> bool:
    """AMM 3.18: the partida has a result and the next draw is published (or the tournament ended)."""
    current = Match.objects.select_related("round__tournament").get(pk=match.pk)
    return current.outcome != Match.Outcome.PENDING and is_locked(current)


def _juego_decides(*, match: Match, by: User, sanctioned: str) -> ResultSubmission | None:
    """A juego lost by sanction that decides the partida (2-2 to 2-3 at 3 juegos): the result
    counts at once, the juez's decision (AMM 5.1 «inapelables»), worded with its article — never a
    proposal of the clock's that the sanctioned pair could reject. None while the partida goes on."""
    state = match_clock(match, timezone.now()).state
    winner_side = "B" if sanctioned == "A" else "A"
    if state is None or state.winner != winner_side or match.outcome != Match.Outcome.PENDING:
        return None
    return result_submit(
        match=match,
        by=by,
        outcome=Match.Outcome.RULING,
        games_a=state.score["A"],
        games_b=state.score["B"],
        winner=match.pair_a if winner_side == "A" else match.pair_b,
        source=ResultSubmission.Source.JUEZ,
        reason=_("Sanción AMM 5.4.2: pérdida de juego — partida decidida (%(a)d-%(b)d).")
        % {"a": state.score["A"], "b": state.score["B"]},
        final=True,
    )


def _walkovers_after_expulsion(*, pair: Pair, by: User, reason: str, current: Match | None) -> int:
    """The pair's partidas already drawn and not played: its opponents win by walkover (AMM 6.1.b's
    result, the pair being out of the tournament)."""
    pending = Match.objects.filter(
        round__tournament=pair.tournament,
        round__status=Round.Status.PUBLISHED,
        outcome=Match.Outcome.PENDING,
        pair_b__isnull=False,
    ).filter(Q(pair_a=pair) | Q(pair_b=pair))
    if current is not None:
        pending = pending.exclude(pk=current.pk)
    given = 0
    for match in pending.select_related("round__tournament", "pair_a", "pair_b"):
        winner = match.pair_b if match.pair_a_id == pair.pk else match.pair_a
        result_submit(
            match=match,
            by=by,
            outcome=Match.Outcome.WALKOVER,
            winner=winner,
            source=ResultSubmission.Source.JUEZ,
            reason=reason,
            final=True,
        )
        given += 1
    return given


def sanction_give(
    *,
    by: User,
    pair: Pair,
    article: str,
    step: int,
    match: Match | None = None,
    incident: Incident | None = None,
    reason: str = "",
) -> Sanction:
    """Give ``pair`` a sanction for ``article`` (optionally on ``incident``, in ``match``), and
    apply it. The ladder (5.4) proposes the step; any other needs ``reason`` (5.4.a)."""
    tournament = pair.tournament
    if not can(by, tournament, Action.INCIDENTS_MANAGE):
        raise NotAllowed(_("Solo los jueces y la organización del torneo sancionan."))
    try:
        chosen = Step(int(step))
    except (TypeError, ValueError):
        raise ValidationError({"step": _("Sanción no válida.")}) from None
    reason = clean_text(reason or "")
    if len(reason) > MAX_REASON:
        raise ValidationError(
            {"reason": _("El motivo es demasiado largo (máximo %(n)d caracteres).") % {"n": MAX_REASON}}
        )
    if incident is not None:
        if incident.tournament_id != tournament.pk:
            raise ValidationError({"incident": _("La incidencia no es de este torneo.")})
        match = match or incident.match
    side = ""
    if match is not None:
        if match.round.tournament_id != tournament.pk:
            raise ValidationError({"match": _("La partida no es de este torneo.")})
        side = _side(match, pair)
    entry = catalogue_article(tournament, article)
    if pair.status == Pair.Status.EXPELLED:
        raise TournamentError(_("La pareja ya está expulsada del torneo."), code="expelled")
    if chosen in (Step.JUEGO, Step.PARTIDA) and match is None:
        raise ValidationError({"match": _("Indica la partida: la sanción se aplica a su resultado.")})
    if chosen == Step.PARTIDA and match is not None and _result_final(match):
        raise ValidationError(
            {
                "step": _(
                    "El resultado de la mesa %(t)s ya es inamovible: se publicó el sorteo siguiente (AMM 3.18). "
                    "La pérdida de la partida ya no puede cambiarlo."
                )
                % {"t": match.table_number}
            }
        )
    # AMM 6.3: a delay reported in its moment (an incident) may still be judged after the partida.
    if incident is None and match is not None and late_delay_report(entry, match):
        raise TournamentError(str(A_POSTERIORI), code="a_posteriori")
    with transaction.atomic():
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).values_list("pk", flat=True).get()
        proposal = ladder_proposal(pair=pair, match=match, article=entry.code)
        if proposal is None:
            if not reason:
                raise ValidationError(
                    {
                        "reason": _("El artículo %(a)s fija su propia sanción: escribe la decisión y su motivo.")
                        % {"a": entry.code}
                    }
                )
        else:
            try:
                check_choice(proposal, chosen, reason)
            except LadderError as refused:
                raise ValidationError({"reason": _LADDER_MESSAGES[refused.code]()}) from None
        number = (Sanction.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"] or 0) + 1
        sanction = Sanction.objects.create(
            tournament=tournament,
            number=number,
            incident=incident,
            match=match,
            pair=pair,
            article=entry.code,
            step=chosen,
            proposed=proposal.step if proposal else None,
            delay=entry.delay,
            reason=reason,
            given_by=signed_in(by),
        )
        words = _("AMM %(a)s: %(s)s a la pareja %(p)s.") % {
            "a": entry.code,
            "s": sanction.get_step_display().lower(),
            "p": pair.number,
        }
        if reason:
            words += " " + reason
        clock = MatchClock.objects.filter(match=match, started_at__isnull=False, finished_at__isnull=True).first()
        applied_by_clock = entry.code in CLOCK_APPLIED and clock is not None
        if match is not None and entry.delay and entry.penalty == "ladder" and clock is not None:
            # 6.3's apercibimiento por retraso: the warning 6.5.b and 6.6 count. Not for 6.1.b (the
            # clock applied it) nor 6.6 (its own penalty, not a warning in this partida).
            sanction.warning = clock_warning(match=match, by=by, pair=side, note=words[:200])
        if chosen == Step.JUEGO and match is not None and clock is not None and not applied_by_clock:
            sanction.juego = clock_juego_adjudge(
                match=match,
                by=by,
                winner="B" if side == "A" else "A",
                article="5.4.2" if entry.penalty == "ladder" else entry.code,
            )
            sanction.result = _juego_decides(match=match, by=by, sanctioned=side)
        if chosen == Step.PARTIDA and match is not None:
            sanction.result = _rule_lost(match=match, pair=pair, by=by, reason=words)
        if chosen == Step.EXPULSION:
            pair_expel(pair=pair, reason=words)
            if match is not None:
                sanction.result = _rule_lost(match=match, pair=pair, by=by, reason=words)
            _walkovers_after_expulsion(pair=pair, by=by, reason=words, current=match)
        sanction.save(update_fields=["warning", "juego", "result"])
        if incident is not None:
            update_with_history(
                Incident.objects.filter(pk=incident.pk),
                status=Incident.Status.SANCTIONED,
                closed_by=signed_in(by),
                closed_at=timezone.now(),
            )
    live_bump(tournament_id=tournament.pk)
    return sanction


def sanction_undo(*, sanction: Sanction, by: User, reason: str) -> Sanction:
    """Undo a sanction: a new version, with its reason; the juego it gave is taken back while the
    clock runs, its delay warning always (it counts nowhere, 6.5.b and 6.6), an expulsion lifted.
    A result it set stays: the acta is corrected at the desk (the juez's new decision)."""
    if not can(by, sanction.tournament, Action.INCIDENTS_MANAGE):
        raise NotAllowed(_("Solo los jueces y la organización del torneo anulan sanciones."))
    reason = clean_text(reason or "")
    if not reason:
        raise ValidationError({"reason": _("Anular una sanción necesita un motivo.")})
    if len(reason) > MAX_REASON:
        raise ValidationError(
            {"reason": _("El motivo es demasiado largo (máximo %(n)d caracteres).") % {"n": MAX_REASON}}
        )
    with transaction.atomic():
        Tournament.objects.select_for_update(no_key=True).filter(pk=sanction.tournament_id).values_list(
            "pk", flat=True
        ).get()
        current = Sanction.objects.select_for_update().get(pk=sanction.pk)
        if current.status != Sanction.Status.IN_FORCE:
            raise TournamentError(_("Esa sanción ya no está en vigor."), code="not_in_force")
        if current.warning_id is not None:
            # An undone sanction counts nowhere: not for 6.5.b, nor for 6.6, even once the partida ended.
            DelayWarning.objects.filter(pk=current.warning_id).delete()
        if current.juego_id is not None:
            _take_back_juego(current.juego_id)
        if current.step == Step.EXPULSION:
            pair_reinstate(pair=current.pair)
        current.status = Sanction.Status.SUPERSEDED
        current.save(update_fields=["status"])
        undone = Sanction.objects.create(
            tournament_id=current.tournament_id,
            number=current.number,
            version=current.version + 1,
            status=Sanction.Status.UNDONE,
            incident=current.incident,
            match=current.match,
            pair=current.pair,
            article=current.article,
            step=current.step,
            proposed=current.proposed,
            delay=current.delay,
            reason=reason,
            given_by=signed_in(by),
            result=current.result,
        )
    live_bump(tournament_id=current.tournament_id)
    return undone


def _take_back_juego(juego_id: int) -> None:
    """Remove the juego a sanction gave, if the clock still runs; the later juegos move down one."""
    juego = ClockJuego.objects.select_related("clock").filter(pk=juego_id).first()
    if juego is None or juego.clock.finished_at is not None:
        return
    later = list(ClockJuego.objects.filter(clock=juego.clock, number__gt=juego.number).order_by("number"))
    juego.delete()
    for other in later:
        other.number -= 1
        other.save(update_fields=["number"])
