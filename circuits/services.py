"""Writing circuits (issue 35): create and edit one, add and remove its tournaments.

Who may: a circuit is created by someone who organizes a tournament (or a superuser), who then
manages it; its managers edit it. A tournament joins only by a user who manages the circuit *and*
organizes that tournament (Action.TOURNAMENT_EDIT): its organizer consents to its results being
ranked there. Every write is in the history (django-simple-history), with who made it.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from circuits.models import POINTS_TABLE_MAX, Circuit, CircuitTournament, PersonLink
from circuits.ratings import ratings_request
from torneo.errors import NotAllowed, TournamentError
from torneo.models import Player, Tournament, TournamentRole
from torneo.permissions import Action, can
from torneo.typing import User, signed_in_or_none

POINTS_MAX = 100_000


def parse_points_table(value: object) -> list[int]:
    """The points of each place, from what a person types («100, 80, 65», spaces or semicolons
    also separate) or a list: whole numbers from 0 to 100 000, never rising from one place to the
    next, at most POINTS_TABLE_MAX places, some place giving points. A ValidationError on
    ``points_table`` names the place that is wrong."""
    if isinstance(value, str):
        items: list[Any] = [x for x in re.split(r"[\s,;]+", value.strip()) if x]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        items = []
    if not items:
        raise ValidationError({"points_table": _("Escribe los puntos de cada puesto, p. ej. «100, 80, 65, 55».")})
    if len(items) > POINTS_TABLE_MAX:
        message = _("La tabla tiene %(n)d puestos; como mucho, %(max)d.") % {"n": len(items), "max": POINTS_TABLE_MAX}
        raise ValidationError({"points_table": message})
    points: list[int] = []
    for place, item in enumerate(items, start=1):
        text = str(item)
        if isinstance(item, bool) or not re.fullmatch(r"\d{1,6}", text) or int(text) > POINTS_MAX:
            message = _("El puesto %(p)d («%(v)s») debe ser un número entero entre 0 y %(max)d.") % {
                "p": place,
                "v": text[:20],
                "max": POINTS_MAX,
            }
            raise ValidationError({"points_table": message})
        value_ = int(text)
        if points and value_ > points[-1]:
            message = _("Los puntos no pueden subir: el puesto %(p)d (%(v)d) da más que el %(q)d (%(w)d).") % {
                "p": place,
                "v": value_,
                "q": place - 1,
                "w": points[-1],
            }
            raise ValidationError({"points_table": message})
        points.append(value_)
    if not points[0]:
        raise ValidationError({"points_table": _("Algún puesto tiene que dar puntos.")})
    return points


def may_create_circuit(user: User) -> bool:
    """Whoever organizes a tournament here (or a superuser)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return TournamentRole.objects.filter(user_id=user.pk, role=TournamentRole.Role.ORGANIZER).exists()


def may_manage(user: User, circuit: Circuit) -> bool:
    if not user.is_authenticated:
        return False
    return bool(user.is_superuser) or circuit.managers.filter(pk=user.pk).exists()


def _check(*, name: object, season: object, best_of: object, final_spots: object) -> dict[str, Any]:
    errors: dict[str, str] = {}
    clean: dict[str, Any] = {}
    required = {"name": _("Escribe el nombre del circuito."), "season": _("Escribe la temporada.")}
    too_long = {
        "name": _("El nombre no puede pasar de %(n)d caracteres.") % {"n": 200},
        "season": _("La temporada no puede pasar de %(n)d caracteres.") % {"n": 40},
    }
    for field, value, limit in (("name", name, 200), ("season", season, 40)):
        text = " ".join(str(value or "").split())
        if not text:
            errors[field] = required[field]
        elif len(text) > limit:
            errors[field] = too_long[field]
        clean[field] = text
    if best_of in ("", None):
        clean["best_of"] = None
    elif isinstance(best_of, int) and not isinstance(best_of, bool) and 1 <= best_of <= 100:
        clean["best_of"] = best_of
    else:
        errors["best_of"] = _("Los resultados que cuentan son un número del 1 al 100, o vacío para todos.")
    if isinstance(final_spots, int) and not isinstance(final_spots, bool) and 0 <= final_spots <= 1000:
        clean["final_spots"] = final_spots
    else:
        errors["final_spots"] = _("Las plazas para la final son un número del 0 al 1000.")
    if errors:
        raise ValidationError(errors)
    return clean


def _free_slug(base: str) -> str:
    base = (slugify(base) or "circuito")[:70]
    slug, n = base, 2
    while Circuit.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def circuit_create(
    *,
    by: User,
    name: str,
    season: str,
    points_table: object,
    best_of: int | None = None,
    final_spots: int = 0,
    description: str = "",
) -> Circuit:
    """A new circuit, managed by whoever creates it."""
    if not may_create_circuit(by):
        raise NotAllowed(_("Solo quien organiza un torneo puede crear un circuito."))
    clean = _check(name=name, season=season, best_of=best_of, final_spots=final_spots)
    table = parse_points_table(points_table)
    author = signed_in_or_none(by)
    for _attempt in range(3):
        try:
            with transaction.atomic():
                circuit = Circuit(
                    **clean,
                    slug=_free_slug(f"{clean['name']} {clean['season']}"),
                    points_table=table,
                    description=description.strip(),
                )
                circuit._history_user = author  # type: ignore[attr-defined]
                circuit.save()
                if author is not None:
                    circuit.managers.add(author)
                return circuit
        except IntegrityError:  # the same address taken at the same moment: take the next
            continue
    raise TournamentError(_("No se pudo crear el circuito: inténtalo de nuevo."))


def circuit_update(
    *,
    circuit: Circuit,
    by: User,
    name: str,
    season: str,
    points_table: object,
    best_of: int | None = None,
    final_spots: int = 0,
    description: str = "",
) -> Circuit:
    if not may_manage(by, circuit):
        raise NotAllowed(_("No gestionas este circuito."))
    clean = _check(name=name, season=season, best_of=best_of, final_spots=final_spots)
    table = parse_points_table(points_table)
    with transaction.atomic():
        locked = Circuit.objects.select_for_update().get(pk=circuit.pk)
        for field, value in clean.items():
            setattr(locked, field, value)
        locked.points_table = table
        locked.description = description.strip()
        locked._history_user = signed_in_or_none(by)  # type: ignore[attr-defined]
        locked.save()
    return locked


def circuit_tournament_add(*, circuit: Circuit, tournament: Tournament, by: User) -> CircuitTournament:
    """Add a tournament: its final classification gives the circuit's points once it is decided."""
    if not may_manage(by, circuit):
        raise NotAllowed(_("No gestionas este circuito."))
    if not can(by, tournament, Action.TOURNAMENT_EDIT):
        raise NotAllowed(
            _("Solo su organización puede poner el torneo «%(t)s» en un circuito.") % {"t": tournament.name}
        )
    try:
        with transaction.atomic():
            entry = CircuitTournament(circuit=circuit, tournament=tournament, added_by=signed_in_or_none(by))
            entry._history_user = signed_in_or_none(by)  # type: ignore[attr-defined]
            entry.save()
            ratings_request()  # its partidas are rated from now on
    except IntegrityError:
        raise TournamentError(
            _("El torneo «%(t)s» ya está en este circuito.") % {"t": tournament.name}, code="duplicate"
        ) from None
    return entry


def circuit_tournament_remove(*, circuit: Circuit, tournament_id: int, by: User) -> None:
    if not may_manage(by, circuit):
        raise NotAllowed(_("No gestionas este circuito."))
    with transaction.atomic():
        entry = (
            CircuitTournament.objects.select_for_update().filter(circuit=circuit, tournament_id=tournament_id).first()
        )
        if entry is None:
            raise TournamentError(_("Ese torneo ya no está en el circuito."), code="gone")
        entry._history_user = signed_in_or_none(by)  # type: ignore[attr-defined]
        entry.delete()
        ratings_request()  # rated only while in a circuit


def person_link(*, player_a: Player, player_b: Player, by: User, consent: str) -> PersonLink:
    """Join two registrations of one person in two tournaments (RGPD: with their consent, recorded
    as ``consent``), by someone who organizes both tournaments."""
    consent = " ".join(str(consent or "").split())
    if not consent:
        message = _(
            "Escribe cómo dio la persona su consentimiento (p. ej., «firmado en la inscripción del 3 de mayo»)."
        )
        raise ValidationError({"consent": message})
    if player_a.pk == player_b.pk or player_a.tournament_id == player_b.tournament_id:
        raise TournamentError(_("Une inscripciones de dos torneos distintos."), code="same_tournament")
    for player in (player_a, player_b):
        if not can(by, player.tournament, Action.TOURNAMENT_EDIT):
            message = _("Solo quien organiza los dos torneos puede unir sus inscripciones («%(t)s»).") % {
                "t": player.tournament.name
            }
            raise NotAllowed(message)
    a, b = sorted((player_a, player_b), key=lambda p: p.pk)
    try:
        with transaction.atomic():
            link = PersonLink(player_a=a, player_b=b, consent=consent[:2000], created_by=signed_in_or_none(by))
            link._history_user = signed_in_or_none(by)  # type: ignore[attr-defined]
            link.save()
            ratings_request()
    except IntegrityError:
        raise TournamentError(_("Esas dos inscripciones ya son la misma persona."), code="duplicate") from None
    return link
