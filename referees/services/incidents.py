"""Incidents (AMM 5.3, 5.3.a): the players report an infraction to the jueces, and the jueces act on
their own. An incident names the reglamento's article (referees.rules.catalogue), the pair or
player, the minute of the partida's clock, and a private description.

Who may: the organizer and the jueces (Action.INCIDENTS_MANAGE) for any partida of their
tournament; a player only for a partida they play (5.3), and a few open reports at a time, so that
a stranger cannot bury the jueces in reports."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from referees.models import Incident
from referees.rules.catalogue import Article, catalogue_for
from scoring.models import MatchClock, ResultSubmission
from scoring.selectors.clocks import match_clock
from torneo.errors import NotAllowed, TournamentError
from torneo.identity import clean_text
from torneo.models import Match, Pair, Player, Tournament, TournamentRole
from torneo.notices import notify_call, notify_call_answered
from torneo.permissions import Action, can, is_player_of
from torneo.services.live import live_bump
from torneo.typing import User, signed_in

MAX_DESCRIPTION = 2000
MAX_OPEN_PLAYER_REPORTS = 3
"""Open reports a player may have on one partida at a time (the jueces close them)."""


def catalogue_article(tournament: Tournament, code: str) -> Article:
    """The article ``code`` of the tournament's catalogue; a Spanish error naming the field otherwise."""
    code = (code or "").strip()
    for entry in catalogue_for(tournament.rule_set):
        if entry.code == code:
            return entry
    raise ValidationError(
        {"article": _("El artículo «%(a)s» no está en el catálogo del reglamento del torneo.") % {"a": code[:20]}}
    )


def _check_parties(tournament: Tournament, match: Match | None, pair: Pair | None, player: Player | None) -> None:
    if match is not None and match.round.tournament_id != tournament.pk:
        raise ValidationError({"match": _("La partida no es de este torneo.")})
    if pair is not None:
        if pair.tournament_id != tournament.pk:
            raise ValidationError({"pair": _("La pareja no es de este torneo.")})
        if match is not None and pair.pk not in (match.pair_a_id, match.pair_b_id):
            raise ValidationError({"pair": _("La pareja no juega esa partida.")})
    if player is not None and (pair is None or not pair.members.filter(player=player).exists()):
        raise ValidationError({"player": _("El jugador no es de la pareja indicada.")})


A_POSTERIORI = gettext_lazy(
    "Nunca se admitirán reclamaciones de este tipo a posteriori: los retrasos se denuncian en su momento, "
    "durante la partida (AMM 6.3)."
)


def partida_over(match: Match) -> bool:
    """Whether the partida has ended now: its result is in, its clock ended it, or an acta awaits
    its signature (a pair reported it from the table, issue 32; the mesa's entry awaits the double
    check; two actas disagree): whoever wrote it, the partida was over."""
    if Match.objects.filter(pk=match.pk).exclude(outcome=Match.Outcome.PENDING).exists():
        return True
    awaiting = (ResultSubmission.Status.PROPOSED, ResultSubmission.Status.DISPUTED)
    if ResultSubmission.objects.filter(match=match, status__in=awaiting).exists():
        return True
    return MatchClock.objects.filter(match=match, finished_at__isnull=False).exists()


def late_delay_report(entry: Article, match: Match) -> bool:
    """AMM 6.3: a deliberate delay (6.3 and the articles that send to it) reported after its partida
    ended. 6.1.b (the clock's) and 6.6 (reincidence, judged on the record) are not such reports."""
    return entry.delay and entry.penalty == "ladder" and partida_over(match)


def incident_report(
    *,
    tournament: Tournament,
    by: User,
    article: str,
    match: Match | None = None,
    pair: Pair | None = None,
    player: Player | None = None,
    description: str = "",
    minute: float | None = None,
) -> Incident:
    """Log an incident. The minute is the partida's clock's when it runs and none is given."""
    staff = can(by, tournament, Action.INCIDENTS_MANAGE)
    if not staff and not (match is not None and is_player_of(by, match)):
        raise NotAllowed(_("Solo los jueces, la organización o los jugadores de la partida pueden dar parte."))
    entry = catalogue_article(tournament, article)
    description = clean_text(description or "")
    if len(description) > MAX_DESCRIPTION:
        raise ValidationError(
            {"description": _("La descripción es demasiado larga (máximo %(n)d caracteres).") % {"n": MAX_DESCRIPTION}}
        )
    if minute is not None and not (0 <= minute <= 600):
        raise ValidationError({"minute": _("El minuto va de 0 a 600.")})
    _check_parties(tournament, match, pair, player)
    if match is not None and late_delay_report(entry, match):
        raise TournamentError(str(A_POSTERIORI), code="a_posteriori")
    if staff:
        roles = set(
            TournamentRole.objects.filter(tournament=tournament, user=signed_in(by)).values_list("role", flat=True)
        )
        source = Incident.Source.JUEZ if TournamentRole.Role.JUEZ in roles else Incident.Source.ORGANIZER
    else:
        source = Incident.Source.PLAYER
    if minute is None and match is not None:
        minute = match_clock(match, timezone.now()).minute
    with transaction.atomic():
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).values_list("pk", flat=True).get()
        if source == Incident.Source.PLAYER:
            open_reports = Incident.objects.filter(
                match=match, reported_by=signed_in(by), status=Incident.Status.OPEN
            ).count()
            if open_reports >= MAX_OPEN_PLAYER_REPORTS:
                raise TournamentError(
                    _("Ya tienes %(n)d partes abiertos en esta partida: espera a que un juez los atienda.")
                    % {"n": open_reports},
                    code="too_many_reports",
                )
        incident = Incident.objects.create(
            tournament=tournament,
            match=match,
            pair=pair,
            player=player,
            article=entry.code,
            minute=None if minute is None else round(minute, 1),
            description=description,
            source=source,
            reported_by=signed_in(by),
        )
        if source == Incident.Source.PLAYER:  # a call from the table: the jueces' phones (issue 33)
            notify_call(tournament=tournament, match=match, incident_id=incident.pk, reason=entry.title)
    live_bump(tournament_id=tournament.pk)
    return incident


def incident_dismiss(*, incident: Incident, by: User, resolution: str) -> Incident:
    """Close an incident without a sanction (the juez saw nothing to sanction), with a reason."""
    if not can(by, incident.tournament, Action.INCIDENTS_MANAGE):
        raise NotAllowed(_("Solo los jueces y la organización cierran incidencias."))
    resolution = clean_text(resolution or "")
    if not resolution:
        raise ValidationError({"resolution": _("Escribe por qué se archiva sin sanción.")})
    if len(resolution) > MAX_DESCRIPTION:
        raise ValidationError({"resolution": _("La resolución es demasiado larga.")})
    with transaction.atomic():
        current = Incident.objects.select_for_update().get(pk=incident.pk)
        if current.status != Incident.Status.OPEN:
            raise TournamentError(_("La incidencia ya está cerrada."), code="closed")
        current.status = Incident.Status.DISMISSED
        current.closed_by, current.closed_at, current.resolution = signed_in(by), timezone.now(), resolution
        current.save(update_fields=["status", "closed_by", "closed_at", "resolution"])
    live_bump(tournament_id=current.tournament_id)
    return current


def incident_answer(*, incident: Incident, by: User) -> Incident:
    """A juez answers a table's call «voy» (issue 32): the table reads «el juez va hacia la mesa»
    and the incident log keeps who answered and when, next to when it was called (6.3's «en el
    momento»). Once per call: a second juez sees who is already going."""
    if not can(by, incident.tournament, Action.INCIDENTS_MANAGE):
        raise NotAllowed(_("Solo los jueces y la organización atienden los avisos de las mesas."))
    with transaction.atomic():
        current = Incident.objects.select_for_update(of=("self",)).select_related("match").get(pk=incident.pk)
        if current.status != Incident.Status.OPEN:
            raise TournamentError(_("La incidencia ya está cerrada."), code="closed")
        if current.answered_at is not None:
            raise TournamentError(
                _("Ya va un juez a la mesa (desde las %(t)s).")
                % {"t": timezone.localtime(current.answered_at).strftime("%H:%M")},
                code="answered",
            )
        current.answered_by, current.answered_at = signed_in(by), timezone.now()
        current.save(update_fields=["answered_by", "answered_at"])
        if current.match is not None:  # the table's phones: «el juez va hacia la mesa» (issue 33)
            notify_call_answered(match=current.match, incident_id=current.pk)
    match = current.match
    pairs = (match.pair_a_id, match.pair_b_id) if match is not None else None
    live_bump(tournament_id=current.tournament_id, pairs=pairs)
    return current


def table_calls(*, match: Match) -> list[Incident]:
    """The calls of this table's pairs that are still open, oldest first: what the table sees of
    them (when called, whether a juez is on the way)."""
    return list(
        Incident.objects.filter(match=match, source=Incident.Source.PLAYER, status=Incident.Status.OPEN)
        .select_related("answered_by")
        .order_by("reported_at", "pk")
    )
