"""Suplentes (AMM 5.8): the juez authorises a person to replace a pair's player in a partida, within
the limits of referees.rules.substitutes — each refusal a Spanish message naming its article — or
beyond them for force majeure, with a reason on record. Who may: the jueces and the organizer
(Action.INCIDENTS_MANAGE)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from referees.models import Substitution
from referees.rules.substitutes import Facts, Refusal, refusals
from scoring.models import MatchClock, RecordedHand, ResultSubmission
from torneo.errors import NotAllowed, TournamentError
from torneo.history import update_with_history
from torneo.identity import clean_text, identity_key, normalize_document, normalize_name, validate_document
from torneo.models import Match, Pair, Player, Tournament
from torneo.permissions import Action, can
from torneo.services.live import live_bump
from torneo.typing import User, signed_in

MAX_REASON = 1000


def _message(refusal: Refusal) -> str:
    return {
        "started": _(
            "La partida ya ha empezado con un suplente en ese puesto: quien empieza una partida la termina (AMM 5.8.a)."
        ),
        "registered": _(
            "Esa persona está inscrita en el torneo (aunque esté eliminada o retirada): no puede ser suplente "
            "(AMM 5.8.b)."
        ),
        "other_pair": _("Esa persona ya ha sido suplente de otra pareja: no puede serlo de una diferente (AMM 5.8.c)."),
        "final_round": _("No se admiten suplencias en las rondas finales del torneo (AMM 5.8.d)."),
        "trio": _(
            "En un trío los tres jugadores son titulares: si falta uno juega el tercero, sin suplente; un suplente "
            "solo cuando dos de los tres no pueden jugar (indica el otro que falta) (AMM 5.8.e)."
        ),
        "one_per_pair": _(
            "La pareja ya tiene un suplente en esta partida: la norma admite uno por pareja («si uno de los "
            "integrantes…»); un segundo solo por fuerza mayor, con su motivo (AMM 5.8)."
        ),
    }[refusal.code]


def _started(match: Match) -> bool:
    """Whether the partida has begun (5.8.a), known with or without a clock: its clock runs or ran
    (the mesa marks a table begun by starting its clock), a hand or a result of it was recorded
    (proposed ones too), or its result is in."""
    if Match.objects.filter(pk=match.pk).exclude(outcome=Match.Outcome.PENDING).exists():
        return True
    if MatchClock.objects.filter(match=match, started_at__isnull=False).exists():
        return True
    if ResultSubmission.objects.filter(match=match).exists():
        return True
    return RecordedHand.objects.filter(game__match=match).exists()


def _earlier_pairs(tournament: Tournament, *, document: str, name: str) -> set[int]:
    """AMM 5.8.c with 5.8.b's identity rule: the pairs this person was a suplente for. The same
    person by document when both have one; by the normalised name (accents and case aside) when
    either has none — so a suplente given first without a document and then with one is the same."""
    pairs: set[int] = set()
    rows = Substitution.objects.filter(tournament=tournament, status=Substitution.Status.ACTIVE)
    for pair_id, their_document, first, last in rows.values_list("pair_id", "id_document", "first_name", "last_name"):
        if document and their_document:
            same = document == their_document
        else:
            same = normalize_name(f"{first} {last}") == name
        if same:
            pairs.add(pair_id)
    return pairs


def _registered(tournament: Tournament, *, document: str, name: str) -> bool:
    """AMM 5.8.b: registered in any pair of the tournament, whatever its state. The same person by
    document; by name when either side has none (the registrations' identity rule)."""
    players = Player.objects.filter(tournament=tournament, memberships__isnull=False)
    same = Q(normalized_name=name, id_document="")
    if document:
        same |= Q(id_document=document)
    else:
        same |= Q(normalized_name=name)
    return players.filter(same).exists()


def substitute_authorise(
    *,
    by: User,
    match: Match,
    pair: Pair,
    replaced: Player,
    first_name: str,
    last_name: str,
    id_document: str = "",
    force_majeure: bool = False,
    reason: str = "",
    also_missing: Player | None = None,
) -> Substitution:
    """Authorise a suplente for ``replaced`` (a player of ``pair``) in ``match``. Every limit of
    AMM 5.8 it breaks is refused, all named at once, unless ``force_majeure`` with a reason. For a
    trío, ``also_missing`` names the second of its three who cannot play (5.8.e). A pair marked
    incomplete on the running clock is complete from this moment: 6.1.b stops counting."""
    tournament = pair.tournament
    if not can(by, tournament, Action.INCIDENTS_MANAGE):
        raise NotAllowed(_("Solo los jueces y la organización del torneo autorizan suplentes."))
    first_name, last_name = clean_text(first_name or ""), clean_text(last_name or "")
    reason = clean_text(reason or "")
    errors: dict[str, str] = {}
    if not first_name:
        errors["first_name"] = _("Escribe el nombre del suplente.")
    if not last_name:
        errors["last_name"] = _("Escribe los apellidos del suplente.")
    if len(first_name) > 100 or len(last_name) > 150:
        errors["last_name"] = _("El nombre es demasiado largo.")
    document = normalize_document(clean_text(id_document or ""))
    if document:
        try:
            validate_document(document)
        except ValidationError as bad:
            errors["id_document"] = bad.messages[0]
    if len(reason) > MAX_REASON:
        errors["reason"] = _("El motivo es demasiado largo (máximo %(n)d caracteres).") % {"n": MAX_REASON}
    if force_majeure and not reason:
        errors["reason"] = _("La fuerza mayor necesita un motivo (AMM 5.8).")
    if match.round.tournament_id != tournament.pk or pair.pk not in (match.pair_a_id, match.pair_b_id):
        errors["pair"] = _("La pareja no juega esa partida.")
    elif not pair.members.filter(player=replaced).exists():
        errors["replaced"] = _("El jugador sustituido no es de esa pareja.")
    trio = pair.members.count() > 2
    if also_missing is not None and (
        not trio or also_missing.pk == replaced.pk or not pair.members.filter(player=also_missing).exists()
    ):
        errors["also_missing"] = _("El otro jugador que falta debe ser otro de los tres del trío.")
    if errors:
        raise ValidationError(errors)
    identity = identity_key(document=document, first_name=first_name, last_name=last_name)
    with transaction.atomic():
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).values_list("pk", flat=True).get()
        place = Substitution.objects.filter(match=match, replaced=replaced, status=Substitution.Status.ACTIVE)
        name = normalize_name(f"{first_name} {last_name}")
        others = Substitution.objects.filter(match=match, pair=pair, status=Substitution.Status.ACTIVE).exclude(
            replaced=replaced
        )
        facts = Facts(
            pair=pair.pk,
            registered=_registered(tournament, document=document, name=name),
            earlier_pairs=frozenset(_earlier_pairs(tournament, document=document, name=name)),
            final_round=match.round.is_final,
            trio=trio,
            trio_missing=1 + int(also_missing is not None),
            other_places=others.count(),
            suplente_started=place.exists() and _started(match),
        )
        broken = refusals(facts)
        if broken and not force_majeure:
            raise ValidationError({"first_name": [_message(r) for r in broken]})
        update_with_history(
            place, status=Substitution.Status.CANCELLED, cancelled_by=signed_in(by), cancelled_at=timezone.now()
        )
        try:
            with transaction.atomic():
                substitution = Substitution.objects.create(
                    tournament=tournament,
                    match=match,
                    pair=pair,
                    replaced=replaced,
                    first_name=first_name,
                    last_name=last_name,
                    id_document=document,
                    identity=identity,
                    force_majeure=bool(broken) and force_majeure,
                    reason=reason,
                    authorised_by=signed_in(by),
                )
        except IntegrityError:
            raise TournamentError(_("Ese puesto ya tiene un suplente en esta partida."), code="taken") from None
        _complete_on_the_clock(match, pair)
    live_bump(tournament_id=tournament.pk)
    return substitution


def _complete_on_the_clock(match: Match, pair: Pair) -> None:
    """AMM 6.1.b with 5.8: the suplente completes a pair the clock counts as incomplete, at this
    moment — the lateness penalties stop there (those already due stay: never forgiven)."""
    side = "a" if pair.pk == match.pair_a_id else "b"
    clock = MatchClock.objects.select_for_update().filter(match=match, started_at__isnull=False).first()
    if clock is None or clock.finished_at is not None:
        return
    if getattr(clock, f"absent_{side}") and getattr(clock, f"arrived_{side}_at") is None:
        setattr(clock, f"arrived_{side}_at", timezone.now())
        clock.save(update_fields=[f"arrived_{side}_at", "updated_at"])


def substitute_cancel(
    *, by: User, substitution: Substitution, reason: str = "", force_majeure: bool = False
) -> Substitution:
    """Withdraw a suplente before the partida begins: once begun, the suplente finishes it (AMM
    5.8.a), unless force majeure with a reason."""
    if not can(by, substitution.tournament, Action.INCIDENTS_MANAGE):
        raise NotAllowed(_("Solo los jueces y la organización del torneo anulan suplencias."))
    reason = clean_text(reason or "")
    with transaction.atomic():
        current = Substitution.objects.select_for_update().select_related("match").get(pk=substitution.pk)
        if current.status != Substitution.Status.ACTIVE:
            raise TournamentError(_("Esa suplencia ya estaba anulada."), code="cancelled")
        if _started(current.match) and not (force_majeure and reason):
            raise ValidationError(
                {"reason": _("La partida ya ha empezado: quien empieza una partida la termina (AMM 5.8.a).")}
            )
        current.status = Substitution.Status.CANCELLED
        current.cancelled_by, current.cancelled_at = signed_in(by), timezone.now()
        if reason:
            current.reason = (current.reason + "\n" if current.reason else "") + reason
        current.save(update_fields=["status", "cancelled_by", "cancelled_at", "reason"])
    live_bump(tournament_id=current.tournament_id)
    return current
