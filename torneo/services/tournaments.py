"""Creating and editing tournaments, their jornadas, and who holds which role in them."""

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from torneo.errors import Conflict, TournamentError
from torneo.models import Session, Tournament, TournamentRole
from torneo.services.registrations import promote_waitlisted
from torneo.typing import User, signed_in

UserModel = get_user_model()

TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "venue",
    "description",
    "start_date",
    "end_date",
    "rule_set",
    "games_to_win",
    "points_per_game",
    "max_pairs",
    "allow_trios",
    "entry_fee",
    "status",
    "listed",
    "format",
    "max_losses",
    "same_losses",
    "repesca_until_round",
    "pool_b_max_losses",
    "repesca_reentry_round",
    "swiss_rounds",
    "group_count",
    "group_qualifiers",
    "final_phase_from_round",
    "first_table_number",
    "results_double_check",
    "points_per_win",
    "tiebreaks",
)


# Creations of tournaments with the same name at the same moment: each retry takes the next free
# slug, so the k-th of k simultaneous creations needs k attempts.
SLUG_ATTEMPTS = 50


def _unique_slug(name: str) -> str:
    """The name's slug, or the first of «<slug>-2», «<slug>-3»… that no tournament has yet."""
    base = slugify(name)[:70] or "torneo"
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def _save_slug_safe(tournament: Tournament, *, name: str | None) -> None:
    """Save the tournament. Another request may take its slug between the check (full_clean,
    _unique_slug) and the write: the unique index decides, and the loser does not get a 500. A slug
    generated from `name` moves on to the next free one; a slug the user chose (`name` None) is a
    ValidationError on «slug», as full_clean would have said."""
    for _attempt in range(SLUG_ATTEMPTS):
        try:
            with transaction.atomic():  # a savepoint: the caller's transaction survives a failed write
                tournament.save()
            return
        except IntegrityError:
            if not Tournament.objects.filter(slug=tournament.slug).exclude(pk=tournament.pk).exists():
                raise  # another constraint
            if name is None:
                raise ValidationError({"slug": tournament.unique_error_message(Tournament, ("slug",))}) from None
            tournament.slug = _unique_slug(name)
    raise Conflict(_("No se ha podido dar al torneo una dirección libre: vuelve a intentarlo."))


def _apply(tournament: Tournament, data: dict[str, Any], *, generated_slug: bool = False) -> None:
    unknown = set(data) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise ValidationError({k: _("Campo desconocido.") for k in sorted(unknown)})
    for key, value in data.items():
        setattr(tournament, key, value)
    # A generated slug is valid by construction and may be taken by now: the write decides.
    tournament.full_clean(exclude=["slug"] if generated_slug else None)


def tournament_create(*, by: User, data: dict[str, Any]) -> Tournament:
    """Create a tournament; its creator becomes its organizer."""
    with transaction.atomic():
        organizer = signed_in(by)
        tournament = Tournament(created_by=organizer)
        data = dict(data)
        generated = not data.get("slug")
        if generated:
            data["slug"] = _unique_slug(str(data.get("name", "")))
        _apply(tournament, data, generated_slug=generated)
        _save_slug_safe(tournament, name=str(data.get("name", "")) if generated else None)
        TournamentRole.objects.create(tournament=tournament, user=organizer, role=TournamentRole.Role.ORGANIZER)
        return tournament


def tournament_update(*, tournament: Tournament, data: dict[str, Any]) -> Tournament:
    """Edit a tournament. Raising the capacity moves pairs up from the waiting list."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        _apply(locked, data)
        _save_slug_safe(locked, name=None)
        if locked.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
            promote_waitlisted(tournament=locked)
        return locked


def session_save(
    *,
    tournament: Tournament,
    name: str,
    starts_at: datetime,
    courtesy_minutes: int = 0,
    session: Session | None = None,
) -> Session:
    """Add or change a jornada. Its start must fall within the tournament's dates (Madrid time)."""
    local_day = timezone.localtime(starts_at).date()
    if not (tournament.start_date <= local_day <= tournament.end_date):
        raise ValidationError(
            {
                "starts_at": _("La jornada debe empezar entre el %(a)s y el %(b)s, fechas del torneo.")
                % {
                    "a": tournament.start_date.strftime("%d/%m/%Y"),
                    "b": tournament.end_date.strftime("%d/%m/%Y"),
                }
            }
        )
    session = session or Session(tournament=tournament)
    if session.tournament_id != tournament.pk:
        raise TournamentError(_("La jornada no pertenece a este torneo."))
    session.name, session.starts_at, session.courtesy_minutes = name.strip(), starts_at, courtesy_minutes
    session.full_clean()
    session.save()
    return session


def session_delete(*, session: Session) -> None:
    session.delete()


def role_grant(*, tournament: Tournament, username: str, role: str) -> TournamentRole:
    """Give a user (by user name or e-mail) a role in the tournament."""
    if role not in TournamentRole.Role.values:
        raise ValidationError({"role": _("Función desconocida.")})
    user = UserModel.objects.filter(username=username).first() or (
        UserModel.objects.filter(email__iexact=username).first() if "@" in username else None
    )
    if user is None:
        raise ValidationError({"username": _("No hay ningún usuario «%(u)s».") % {"u": username}})
    obj, _created = TournamentRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    return obj


def role_revoke(*, tournament_role: TournamentRole) -> None:
    """Remove a role; a tournament always keeps at least one organizer."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament_role.tournament_id)
        if tournament_role.role == TournamentRole.Role.ORGANIZER:
            organizers = TournamentRole.objects.filter(
                tournament_id=tournament_role.tournament_id, role=TournamentRole.Role.ORGANIZER
            ).count()
            if organizers <= 1:
                raise TournamentError(_("El torneo debe conservar al menos una persona de la organización."))
        tournament_role.delete()
