"""Creating and editing tournaments, their jornadas, and who holds which role in them.

Once round 1 is prepared (its commitment is public, AMM 5.5) the rules the players were told are
fixed: the format, the ceros, the juegos and tantos of a partida, the reglamento of the hands and
the number of liguillas (`LOCKED_AFTER_DRAW`). The other settings that alter the standings or the
pairings (`CONFIRM_AFTER_DRAW`) may still change, but only when the change is confirmed after
seeing what it changes (`ConfirmationNeeded`).
"""

import copy
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext as _

from torneo.errors import Conflict, TournamentError
from torneo.identity import clean_text
from torneo.models import Draw, Round, Session, Tournament, TournamentRole
from torneo.selectors.rounds import Champion, Progress, tournament_progress
from torneo.services.accounts import password_resets_revoke
from torneo.services.registrations import promote_waitlisted
from torneo.services.rounds import tournament_finish_if_done
from torneo.snapshot import load
from torneo.tableranges import format_tables, parse_tables
from torneo.typing import User, signed_in

UserModel = get_user_model()

TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "venue",
    "description",
    "privacy_notice",
    "start_date",
    "end_date",
    "rule_set",
    "games_to_win",
    "points_per_game",
    "clock_rules",
    "clocks_autostart",
    "ladder_scope",
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
    "seed_by_rating",
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


def _set(tournament: Tournament, data: dict[str, Any]) -> None:
    unknown = set(data) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise ValidationError({k: _("Campo desconocido.") for k in sorted(unknown)})
    for key, value in data.items():
        setattr(tournament, key, value)


def _apply(tournament: Tournament, data: dict[str, Any], *, generated_slug: bool = False) -> None:
    _set(tournament, data)
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
        password_resets_revoke(account=organizer)  # an organizer's password is never reset by link
        return tournament


def tournament_update(*, tournament: Tournament, data: dict[str, Any], confirm: bool = False) -> Tournament:
    """Edit a tournament. Raising the capacity moves pairs up from the waiting list.

    Once round 1 is prepared, a change of a field of `LOCKED_AFTER_DRAW` is refused (a
    ValidationError on that field), and a change that alters the standings or the pairings
    (`CONFIRM_AFTER_DRAW`) needs `confirm` (else `ConfirmationNeeded`, which says what it changes).
    A confirmed change that undoes the decision of a finished tournament puts it back in play; one
    that decides it finishes it."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = copy.copy(locked)
        lock = draw_lock(locked)
        _set(locked, data)
        if lock is not None:
            _refuse_locked(before, locked, data, lock)
        locked.full_clean()
        changes: list[Change] = []
        if lock is not None:
            changes = _changes_after_draw(before, locked, data)
            _check_rounds_already_drawn(before, locked, lock)
        if changes and lock is not None:
            outcome = _consequences(before, locked, lock)
            if not confirm:
                raise ConfirmationNeeded(changes, outcome.lines)
            if outcome.reopens and locked.status == Tournament.Status.FINISHED:
                locked.status = Tournament.Status.RUNNING
        _save_slug_safe(locked, name=None)
        if locked.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
            promote_waitlisted(tournament=locked)
        # A confirmed change may decide the tournament (a Swiss shortened to the rounds played).
        if changes and tournament_finish_if_done(tournament_id=locked.pk):
            locked.refresh_from_db()
        return locked


# --- what a draw fixes ---------------------------------------------------------------------------

# Fixed from round 1's preparation: what the players were told they play (the format and the ceros
# that put a pair out, the partida's juegos and tantos, the reglamento of the hands) and the number
# of liguillas, which round 1's draw uses and no later change could undo.
LOCKED_AFTER_DRAW = ("format", "max_losses", "games_to_win", "points_per_game", "rule_set", "group_count")

_ELIMINATION = (Tournament.Format.CEROS, Tournament.Format.REPESCA)

# Settings that alter the standings or the pairings: after the draw, saved only when confirmed.
# The formats where each one counts (None: every format); in the others a change is harmless.
CONFIRM_AFTER_DRAW: dict[str, tuple[str, ...] | None] = {
    "same_losses": _ELIMINATION,
    "repesca_until_round": (Tournament.Format.REPESCA,),
    "pool_b_max_losses": (Tournament.Format.REPESCA,),
    "repesca_reentry_round": (Tournament.Format.REPESCA,),
    "swiss_rounds": (Tournament.Format.SWISS,),
    "group_qualifiers": (Tournament.Format.LIGUILLAS,),
    "final_phase_from_round": None,
    "points_per_win": None,
    "tiebreaks": None,
}


def _effects() -> dict[str, str]:
    return {
        "same_losses": _("cambia cómo se emparejan las próximas rondas"),
        "repesca_until_round": _("cambia qué parejas pasan al grupo B, quién sigue en juego y la clasificación"),
        "pool_b_max_losses": _("cambia quién sigue en juego en el grupo B y la clasificación"),
        "repesca_reentry_round": _(
            "cambia cuándo vuelve el grupo B al grupo A, los emparejamientos y la clasificación"
        ),
        "swiss_rounds": _("cambia cuándo termina el torneo y si su clasificación es la final"),
        "group_qualifiers": _("cambia qué parejas pasan al cuadro y la clasificación"),
        "final_phase_from_round": _(
            "cambia desde qué ronda una derrota elimina y el cuadro queda fijo, sin suplentes (AMM 5.8.d)"
        ),
        "points_per_win": _("cambia los puntos de la clasificación"),
        "tiebreaks": _("cambia el orden de la clasificación"),
    }


@dataclass(frozen=True)
class DrawLock:
    """A tournament with rounds: the latest round's number, and whether a draw was ever published
    (else only round 1 is prepared, and cancelling it unlocks everything)."""

    last_round: int
    published: bool

    def refusal(self, label: str) -> str:
        """Why the field `label` cannot change, for the service's error."""
        if self.published:
            return _(
                "No se puede cambiar «%(field)s»: la primera ronda ya está sorteada y se juega con lo anunciado."
            ) % {"field": label}
        return _(
            "No se puede cambiar «%(field)s»: la ronda 1 ya está preparada y su compromiso es público. "
            "Anula la ronda preparada para cambiarlo."
        ) % {"field": label}

    @property
    def reason(self) -> str:
        """Why the form shows the locked fields disabled."""
        if self.published:
            return _("Fijado: la primera ronda ya está sorteada.")
        return _("Fijado mientras la ronda 1 esté preparada: anúlala para cambiarlo.")


def draw_lock(tournament: Tournament) -> DrawLock | None:
    """The tournament's lock once round 1 is prepared (None before): one query."""
    found = Round.objects.filter(tournament=tournament).aggregate(
        last=Max("number"),
        published=Count("pk", filter=Q(status=Round.Status.PUBLISHED), distinct=True),
        redrawn=Count("draws", filter=Q(draws__status=Draw.Status.SUPERSEDED)),
    )
    if found["last"] is None:
        return None
    return DrawLock(found["last"], bool(found["published"] or found["redrawn"]))


def locked_fields(tournament: Tournament) -> dict[str, str]:
    """The fields the edit form shows disabled, each with the reason."""
    lock = draw_lock(tournament)
    return dict.fromkeys(LOCKED_AFTER_DRAW, lock.reason) if lock is not None else {}


def _field(name: str) -> "models.Field[Any, Any]":
    return cast("models.Field[Any, Any]", Tournament._meta.get_field(name))


def _label(name: str) -> str:
    return str(capfirst(_field(name).verbose_name))


def _normal(tournament: Tournament, name: str) -> Any:
    """The field's value as the database keeps it (the API and the forms give it typed already)."""
    value = getattr(tournament, name)
    try:
        return _field(name).to_python(value)
    except ValidationError:
        return value


def _refuse_locked(before: Tournament, after: Tournament, data: dict[str, Any], lock: DrawLock) -> None:
    errors = {
        name: lock.refusal(_label(name))
        for name in LOCKED_AFTER_DRAW
        if name in data and _normal(after, name) != _normal(before, name)
    }
    if errors:
        raise ValidationError(errors)


def _display(tournament: Tournament, name: str) -> str:
    field = _field(name)
    value = getattr(tournament, name)
    if value is None or value == "":
        return _("vacío")
    if isinstance(value, bool):
        return _("sí") if value else _("no")
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if name == "tiebreaks":
        return ", ".join(tournament.tiebreak_order)
    return str(value)


def _effective(tournament: Tournament, name: str) -> Any:
    return tournament.tiebreak_order if name == "tiebreaks" else getattr(tournament, name)


@dataclass(frozen=True)
class Change:
    """A confirmed-only change: the field, its value before and after, and what it alters."""

    field: str
    label: str
    before: str
    after: str
    effect: str


def _changes_after_draw(before: Tournament, after: Tournament, data: dict[str, Any]) -> list[Change]:
    effects = _effects()
    return [
        Change(name, _label(name), _display(before, name), _display(after, name), effects[name])
        for name, formats in CONFIRM_AFTER_DRAW.items()
        if name in data
        and (formats is None or after.format in formats)
        and _effective(after, name) != _effective(before, name)
    ]


def _check_rounds_already_drawn(before: Tournament, after: Tournament, lock: DrawLock) -> None:
    """What would rewrite rounds already prepared or played is refused, whatever the confirmation:
    the rondas finales start in a round still to prepare, and the Swiss keeps the rounds it has."""
    errors: dict[str, str] = {}
    old, new = before.final_phase_from_round, after.final_phase_from_round
    if new != old:
        if old is not None and old <= lock.last_round:
            errors["final_phase_from_round"] = _(
                "Las rondas finales ya empezaron en la ronda %(n)d: no se pueden mover ni quitar."
            ) % {"n": old}
        elif new is not None and new <= lock.last_round:
            errors["final_phase_from_round"] = _(
                "Las rondas finales solo pueden empezar en una ronda todavía sin preparar: la %(n)d o una posterior."
            ) % {"n": lock.last_round + 1}
    if (
        after.format == Tournament.Format.SWISS
        and after.swiss_rounds != before.swiss_rounds
        and (after.swiss_rounds or 0) < lock.last_round
    ):
        errors["swiss_rounds"] = _("Ya hay %(n)d rondas: el suizo no puede tener menos.") % {"n": lock.last_round}
    if errors:
        raise ValidationError(errors)


def _champions_label(champions: tuple[Champion, ...]) -> str:
    """« (campeona: 7 · García / Pérez)», one per pool; "" without champion (the Swiss)."""
    if not champions:
        return ""
    named = [
        _("campeona del %(g)s: %(p)s") % {"g": c.title, "p": f"{c.number} · {c.name}"}
        if c.title
        else _("campeona: %(p)s") % {"p": f"{c.number} · {c.name}"}
        for c in champions
    ]
    return " (" + "; ".join(named) + ")"


@dataclass(frozen=True)
class Consequences:
    lines: list[str]
    reopens: bool  # the change undoes the decision: a finished tournament goes back in play


def _consequences(before: Tournament, after: Tournament, lock: DrawLock) -> Consequences:
    """What the change does to the tournament as it stands: its decision and champion, or how many
    pairs the next round would have (the draw planner with the old and the new settings)."""
    lines = []
    if before.status == Tournament.Status.FINISHED:
        lines.append(_("El torneo ha terminado: su clasificación final, ya publicada, puede cambiar."))
    state = load(before)
    old: Progress = tournament_progress(before, state)
    if old.prepared:
        lines.append(
            _(
                "La ronda %(n)d está preparada: si el cambio afecta a su sorteo, habrá que anularla y volver a "
                "prepararla."
            )
            % {"n": lock.last_round}
        )
    if old.design is None:
        return Consequences(lines, False)
    new = tournament_progress(after, replace(state, tournament=after))
    if new.design is None:
        return Consequences(lines, False)
    reopens = False
    if old.done and not new.done:
        reopens = True
        lines.append(
            _(
                "Ahora el torneo está decidido%(c)s; con el cambio dejaría de estarlo: habría una ronda %(n)d "
                "y el torneo volvería a estar en juego."
            )
            % {"c": _champions_label(old.champions), "n": new.design.number}
        )
    elif new.done and not old.done:
        lines.append(
            _("Con el cambio el torneo quedaría decidido%(c)s: no habría ronda %(n)d.")
            % {"c": _champions_label(new.champions), "n": old.design.number}
        )
    elif old.done and new.done:
        if old.champions != new.champions:
            lines.append(
                _("La campeona cambiaría: %(a)s → %(b)s.")
                % {
                    "a": "; ".join(f"{c.number} · {c.name}" for c in old.champions) or "—",
                    "b": "; ".join(f"{c.number} · {c.name}" for c in new.champions) or "—",
                }
            )
    elif old.alive != new.alive:
        lines.append(
            _("En la ronda %(n)d entrarían %(b)d parejas en lugar de %(a)d.")
            % {"n": new.design.number, "a": old.alive, "b": new.alive}
        )
    return Consequences(lines, reopens)


class ConfirmationNeeded(ValidationError):
    """A change that alters the standings or the pairings of a drawn tournament, not confirmed: on
    the field «confirm» (the form's checkbox, the API's `confirm: true`), with what it changes."""

    def __init__(self, changes: list[Change], consequences: list[str]) -> None:
        self.changes = changes
        self.consequences = consequences
        summary = "; ".join(f"{c.label}: {c.before} → {c.after} ({c.effect})" for c in changes)
        message = _(
            "Este cambio altera la clasificación o los emparejamientos de un torneo ya sorteado: %(s)s. "
            "Confírmalo para guardarlo."
        ) % {"s": summary}
        if consequences:
            message += " " + " ".join(consequences)
        super().__init__({"confirm": ValidationError(message, code="confirm")})


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


def role_grant(
    *, tournament: Tournament, username: str, role: str, tables: str = "", full_name: str = ""
) -> TournamentRole:
    """Give a user (by user name or e-mail) a role in the tournament; a juez, optionally, a zone of
    tables (``tables``: «1-20, 41-50», torneo.tableranges), which a second grant changes.
    ``full_name``: how the others read the person (the public draw «ante el juez Juan Pérez», never
    a username: torneo.people), given to an account that has no name yet; a name the account
    already has is its owner's and stays."""
    if role not in TournamentRole.Role.values:
        raise ValidationError({"role": _("Función desconocida.")})
    try:
        ranges = parse_tables(tables or "")
    except ValueError:
        raise ValidationError(
            {"tables": _("Escribe las mesas como números o intervalos separados por comas: p. ej. 1-20, 41-50.")}
        ) from None
    if ranges and role != TournamentRole.Role.JUEZ:
        raise ValidationError({"tables": _("Solo un juez tiene mesas asignadas.")})
    user = UserModel.objects.filter(username=username).first() or (
        UserModel.objects.filter(email__iexact=username).first() if "@" in username else None
    )
    if user is None:
        raise ValidationError({"username": _("No hay ningún usuario «%(u)s».") % {"u": username}})
    name = " ".join(clean_text(full_name).split())
    if name and not user.get_full_name().strip():
        first, _sep, last = name.partition(" ")
        user.first_name, user.last_name = first[:150], last[:150]
        user.save(update_fields=["first_name", "last_name"])
    obj, created = TournamentRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    if created:  # a password link issued for the account as it was no longer holds
        password_resets_revoke(account=user)
    if obj.tables != format_tables(ranges):
        obj.tables = format_tables(ranges)
        obj.save(update_fields=["tables"])
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
