"""Rounds and their public draws (sorteos, AMM 5.5): prepare, publish, redraw.

The flow of a drawn round:

1. `round_prepare`: the mesa de control asks for round N once round N-1 is complete. The site
   freezes who will be drawn (and their history and exentas), picks a secret and publishes its
   commitment (SHA-256) on the round's page.
2. `draw_publish`: in the room, before a juez (AMM 5.5), a public value is produced (a number
   called out, dice) and typed in. The seed is derived from the secret and that value, the draw is
   made and published at once with its secret, so anyone can recompute it with
   `python -m torneo.draws`. Performing is publishing: nobody can look at a draw and try again.
3. A published draw is immutable. `draw_redraw` (organizer only, with a reason, before any
   result) supersedes it with a new commitment; both stay on record.

Liguilla rounds after the group draw and fixed-bracket rounds have no randomness: `round_prepare`
creates them and `round_publish` writes their matches.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from torneo.draws import commitment, derive_seed, new_secret
from torneo.draws.errors import DrawUserError
from torneo.draws.manager import RoundDesign, design_next_round, perform, write_drawn, write_fixed
from torneo.errors import TournamentError
from torneo.models import Draw, Match, Pair, Round, Session, Tournament, TournamentRole
from torneo.selectors.rounds import tournament_progress
from torneo.services.live import live_bump
from torneo.typing import AuthUser, User, signed_in


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _design(tournament: Tournament) -> RoundDesign:
    try:
        return design_next_round(tournament)
    except DrawUserError as exc:
        raise TournamentError(str(exc), code="draw") from exc


def pending_tables(round: Round) -> list[Match]:
    return list(round.matches.filter(outcome=Match.Outcome.PENDING).select_related("pair_a", "pair_b"))


def _decided() -> TournamentError:
    return TournamentError(_("El torneo ya está decidido: no hay más rondas."), code="decided")


def _finish(tournament: Tournament) -> None:
    """Mark the (locked) tournament finished: its classification is final from now on."""
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status", "updated_at"])
    live_bump(tournament_id=tournament.pk)


def tournament_finish_if_done(*, tournament_id: int) -> bool:
    """Finish the tournament when the format says it is decided: a champion in every pool (a N
    ceros, repesca, knockout, the bracket after the liguillas) or the Swiss's last round played,
    with every result in. True when it was finished now.

    Called before the next round would be prepared (`round_prepare`), after a change of the format
    (`tournament_update`) and by the staff's pages that decide what to offer next (the rounds page,
    the dashboard). Not by the results service: a finished tournament takes no more actas, and the
    mesa must still be able to correct the final's acta right after entering it. Cheap when the
    tournament is not done: one query while a result is missing."""
    status = Tournament.objects.filter(pk=tournament_id).values_list("status", flat=True).first()
    if status in (None, Tournament.Status.FINISHED, Tournament.Status.DRAFT):
        return False
    if Match.objects.filter(round__tournament_id=tournament_id, outcome=Match.Outcome.PENDING).exists():
        return False
    with transaction.atomic():
        # FOR NO KEY UPDATE: the results service's lock on the row, so a no-op inside its transaction.
        tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament_id)
        if tournament.status == Tournament.Status.FINISHED or not tournament_progress(tournament).done:
            return False
        _finish(tournament)
        return True


def round_prepare(*, tournament: Tournament, by: User, session: Session | None = None) -> Round:
    """Create the next round. For a drawn round, publish the commitment of the draw's secret. When
    the format says there is no next round, the tournament is finished and the answer says so."""
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            if tournament_progress(tournament).done:
                raise _decided()
            raise TournamentError(_("El torneo ha terminado."), code="finished")
        if tournament.status == Tournament.Status.DRAFT:
            raise TournamentError(_("El torneo está en borrador: ábrelo antes de sortear."), code="draft")
        last = tournament.rounds.order_by("-number").first()
        if last is not None:
            if not last.is_published:
                raise TournamentError(
                    _("La ronda %(n)d está preparada pero sin publicar.") % {"n": last.number}, code="unpublished"
                )
            missing = pending_tables(last)
            if missing:
                tables = ", ".join(str(m.table_number) for m in missing[:20])
                raise TournamentError(
                    _("Faltan resultados de la ronda %(n)d: mesas %(t)s.") % {"n": last.number, "t": tables},
                    code="pending_results",
                )
        design = _design(tournament)
        if not design.finished:
            return _create_round(tournament, design, by=by, session=session)
        # Decided: the tournament ends now (this commits), and there is no round to prepare.
        _finish(tournament)
    raise _decided()


def _create_round(tournament: Tournament, design: RoundDesign, *, by: User, session: Session | None) -> Round:
    """The round `design` describes (inside round_prepare's transaction, the tournament locked)."""
    if session is not None and session.tournament_id != tournament.pk:
        raise TournamentError(_("La jornada no pertenece a este torneo."))
    round_ = Round.objects.create(
        tournament=tournament,
        number=design.number,
        kind=design.kind,
        phase=design.phase,
        is_final=design.is_final,
        session=session,
    )
    if design.kind == Round.Kind.DRAW:
        secret = new_secret()
        Draw.objects.create(
            round=round_,
            secret=secret,
            commitment=commitment(secret),
            requests=design.requests_json(),
            committed_by=signed_in(by),
        )
    if tournament.status != Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    # The public pages show the commitment from now on (AMM 5.5): let them refresh.
    live_bump(tournament_id=tournament.pk)
    return round_


def live_draw(round: Round) -> Draw | None:
    return round.draws.exclude(status=Draw.Status.SUPERSEDED).first()


def draw_publish(*, draw: Draw, public_value: str, witness: AuthUser | None, by: User) -> Round:
    """Make the draw with the room's public value, before the juez `witness`, and publish it."""
    with transaction.atomic():
        tournament = _lock(draw.round.tournament)
        draw = Draw.objects.select_for_update().select_related("round").get(pk=draw.pk)
        if draw.status != Draw.Status.COMMITTED:
            raise TournamentError(_("Este sorteo ya está publicado o anulado."), code="not_committed")
        public_value = " ".join(str(public_value).split())
        if not public_value:
            raise TournamentError(
                _("Escribe el valor público obtenido en la sala (un número cantado, los dados…)."), code="public_value"
            )
        if len(public_value) > 200:
            raise TournamentError(
                _("El valor público es demasiado largo (máximo 200 caracteres)."), code="public_value"
            )
        # AMM 5.5: the draw is made in public before at least one juez of the tournament.
        if (
            witness is None
            or not TournamentRole.objects.filter(
                tournament=tournament, user=witness, role=TournamentRole.Role.JUEZ
            ).exists()
        ):
            raise TournamentError(_("Indica el juez presente en el sorteo (AMM 5.5)."), code="witness")
        design = _design(tournament)
        design.keep_frozen_pots(draw.requests)
        if design.number != draw.round.number or design.requests_json() != draw.requests:
            raise TournamentError(
                _(
                    "Las parejas o resultados han cambiado desde que se publicó el compromiso: "
                    "anula la ronda preparada y vuelve a prepararla."
                ),
                code="stale_commitment",
            )
        seed = derive_seed(draw.secret, public_value)
        try:
            matches, output = perform(design, seed)
        except DrawUserError as exc:
            raise TournamentError(str(exc), code="draw") from exc
        round_ = draw.round
        write_drawn(round=round_, draw=draw, matches=matches, seed=seed)
        now = timezone.now()
        draw.public_value, draw.seed, draw.results = public_value, seed, output
        draw.status, draw.witness, draw.published_by, draw.published_at = (
            Draw.Status.PUBLISHED,
            witness,
            signed_in(by),
            now,
        )
        draw.save()
        round_.status, round_.published_at = Round.Status.PUBLISHED, now
        round_.save(update_fields=["status", "published_at"])
        live_bump(tournament_id=tournament.pk)
        _notify_published(round_)
        return round_


def round_publish(*, round: Round, by: User) -> Round:
    """Publish a liguilla or fixed-bracket round (no randomness: no public value needed)."""
    with transaction.atomic():
        tournament = _lock(round.tournament)
        round_ = Round.objects.select_for_update().get(pk=round.pk)
        if round_.is_published:
            raise TournamentError(_("La ronda ya está publicada."), code="published")
        if round_.kind == Round.Kind.DRAW:
            raise TournamentError(_("Esta ronda se sortea: publícala con el valor público del sorteo."), code="draw")
        design = _design(tournament)
        if design.number != round_.number:
            raise TournamentError(_("La ronda ya no es la siguiente del torneo."), code="stale")
        write_fixed(round=round_, slots=design.slots)
        round_.status, round_.published_at = Round.Status.PUBLISHED, timezone.now()
        round_.save(update_fields=["status", "published_at"])
        live_bump(tournament_id=tournament.pk)
        _notify_published(round_)
        return round_


def _notify_published(round_: Round) -> None:
    """Each pair's phones, its table (torneo/notices.py): by a worker once the round is committed,
    so that publishing a 573-table round does not wait for 1,146 notifications."""
    from torneo.tasks import notify_round_task

    round_id = round_.pk
    transaction.on_commit(lambda: notify_round_task.delay(round_id))


def round_cancel(*, round: Round) -> None:
    """Remove a prepared round that was never published (its commitment stays meaningless)."""
    with transaction.atomic():
        tournament = _lock(round.tournament)
        round_ = Round.objects.select_for_update().get(pk=round.pk)
        if round_.is_published:
            raise TournamentError(
                _("Una ronda publicada no se puede anular; el organizador puede repetir el sorteo."), code="published"
            )
        # A redrawn round keeps its superseded (published) draw on record: it cannot vanish.
        if round_.draws.filter(status=Draw.Status.SUPERSEDED).exists():
            raise TournamentError(
                _(
                    "Esta ronda ya tuvo un sorteo publicado, anulado por un nuevo sorteo que queda registrado: "
                    "no se puede anular; publica el nuevo sorteo."
                ),
                code="redrawn",
            )
        round_.draws.all().delete()
        round_.delete()
        live_bump(tournament_id=tournament.pk)


def draw_redraw(*, round: Round, reason: str, by: User) -> Draw:
    """The organizer's new draw of a published round, before any result; logged with its reason."""
    with transaction.atomic():
        tournament = _lock(round.tournament)
        round_ = Round.objects.select_for_update().get(pk=round.pk)
        reason = reason.strip()
        if not reason:
            raise TournamentError(_("Un nuevo sorteo necesita un motivo, que queda registrado."), code="reason")
        if round_.kind != Round.Kind.DRAW or not round_.is_published:
            raise TournamentError(_("Solo se puede repetir el sorteo de una ronda sorteada y publicada."))
        if tournament.rounds.filter(number__gt=round_.number).exists():
            raise TournamentError(_("Ya hay una ronda posterior: no se puede repetir este sorteo."), code="later_round")
        played = round_.matches.exclude(outcome__in=[Match.Outcome.PENDING, Match.Outcome.BYE])
        if played.exists():
            raise TournamentError(_("Ya hay resultados en esta ronda: no se puede repetir el sorteo."), code="results")
        old = live_draw(round_)
        round_.matches.all().delete()
        assert old is not None  # a published drawn round has its published draw
        old.status = Draw.Status.SUPERSEDED
        old.save(update_fields=["status"])
        round_.status, round_.published_at = Round.Status.PREPARED, None
        round_.save(update_fields=["status", "published_at"])
        design = _design(tournament)
        secret = new_secret()
        live_bump(tournament_id=tournament.pk)
        return Draw.objects.create(
            round=round_,
            secret=secret,
            commitment=commitment(secret),
            requests=design.requests_json(),
            committed_by=signed_in(by),
            replaces=old,
            reason=reason,
        )


def active_pairs_count(tournament: Tournament) -> int:
    return Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED).count()


__all__ = [
    "draw_publish",
    "draw_redraw",
    "live_draw",
    "round_cancel",
    "round_prepare",
    "round_publish",
    "tournament_finish_if_done",
]
