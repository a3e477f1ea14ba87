"""Registrations: entering pairs (and tríos), editing them, check-in, withdrawal, the waiting list.

Every write takes the tournament row lock first (select_for_update), so that capacity, the
waiting list and 'one person, one pair' are decided one registration at a time even when the
public form, the mesa de control and an import run together. What can be checked without the
database (formats, sizes, a pair of two or three) is checked before the lock, so that a stranger's
bad request never holds it; under the lock, the checks against the registered players are hash
lookups (RegistrationBook), never comparisons of every player with every other.

Personal data belongs to the registration (RGPD; DESIGN «Personal data»): every registration
creates its own Player rows in its tournament, holding exactly what it brought. Nothing is looked
up by document across tournaments, so a form never reveals, reuses or overwrites another
registration's name, club, phone or e-mail. Linking a person across tournaments (Player.user) is
an act of the organizer or of the person, never a side effect of a form.

Errors are ValidationErrors keyed by
field ('players.<i>.<field>' for a player's field, 'name', 'players' or '__all__'), with Spanish
messages that also name the player, so forms, the API and the CSV report can all show them.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import F, Field, Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.models import HistoricalRecords

from torneo.errors import Conflict, TournamentError
from torneo.identity import (
    clean_text,
    identity_key,
    normalize_document,
    normalize_name,
    normalize_phone,
    validate_document,
)
from torneo.models import Pair, PairMember, Player, Tournament
from torneo.models.tournaments import players_label
from torneo.typing import AuthUser

PLAYER_FIELDS = ("first_name", "last_name", "id_document", "phone", "email", "club")
# A pareja has two players, a trío three (AMM 5.8.e): no registration ever carries more.
MAX_PLAYERS = 3
_MAX_LENGTHS = {
    f.name: f.max_length for f in Player._meta.get_fields() if f.name in PLAYER_FIELDS and isinstance(f, Field)
}


def _pair_name_too_long(name: str) -> bool:
    limit = Pair._meta.get_field("name").max_length
    assert limit is not None  # Pair.name is a CharField with a max_length
    return len(name) > limit


@dataclass(frozen=True)
class PlayerData:
    """One player's details as typed in a form, an API call or a CSV row."""

    first_name: str
    last_name: str
    id_document: str = ""
    phone: str = ""
    email: str = ""
    club: str = ""

    def cleaned(self) -> "PlayerData":
        return PlayerData(
            first_name=clean_text(self.first_name),
            last_name=clean_text(self.last_name),
            id_document=normalize_document(clean_text(self.id_document)),
            phone=normalize_phone(clean_text(self.phone)),
            email=clean_text(self.email).lower(),
            club=clean_text(self.club),
        )

    @property
    def identity(self) -> str:
        return identity_key(document=self.id_document, first_name=self.first_name, last_name=self.last_name)

    @property
    def normalized_name(self) -> str:
        return normalize_name(f"{self.first_name} {self.last_name}")


@dataclass
class _Errors:
    """Collects errors under their keys, so every mistake is reported at once."""

    by_key: dict[str, list[str]] = field(default_factory=dict)

    def add(self, key: str, message: str) -> None:
        self.by_key.setdefault(key, []).append(message)

    def raise_if_any(self) -> None:
        if self.by_key:
            raise ValidationError({k: [ValidationError(m) for m in v] for k, v in self.by_key.items()})


def _player_label(index: int) -> str:
    return _("Jugador %(n)d") % {"n": index + 1}


def _clean_players(players: Sequence[PlayerData], tournament: Tournament, errors: _Errors) -> list[PlayerData]:
    needed_max = tournament.max_players_per_pair
    if len(players) > needed_max:
        if tournament.allow_trios:
            errors.add("players", _("Un trío tiene como máximo tres jugadores (AMM 5.8.e)."))
        else:
            errors.add("players", _("Este torneo no admite tríos: la pareja debe tener dos jugadores."))
        if len(players) > MAX_PLAYERS:
            return []  # thousands of «players» are not a registration: nothing more to check
    cleaned = [p.cleaned() for p in players]
    if len(cleaned) < 2:
        errors.add("players", _("Una pareja necesita dos jugadores."))
    for i, p in enumerate(cleaned):
        label = _player_label(i)
        if not p.first_name:
            errors.add(f"players.{i}.first_name", _("%(who)s: falta el nombre.") % {"who": label})
        if not p.last_name:
            errors.add(f"players.{i}.last_name", _("%(who)s: faltan los apellidos.") % {"who": label})
        for name, value in (
            ("first_name", p.first_name),
            ("last_name", p.last_name),
            ("club", p.club),
            ("phone", p.phone),
            ("id_document", p.id_document),
            ("email", p.email),
        ):
            limit = _MAX_LENGTHS[name]
            if limit and len(value) > limit:
                errors.add(
                    f"players.{i}.{name}",
                    ngettext(
                        "%(who)s: el campo tiene más de %(n)d carácter.",
                        "%(who)s: el campo tiene más de %(n)d caracteres.",
                        limit,
                    )
                    % {"who": label, "n": limit},
                )
        try:
            validate_document(p.id_document)
        except ValidationError as exc:
            message = exc.messages[0]
            errors.add(f"players.{i}.id_document", f"{label}: {message[0].lower()}{message[1:]}")
        if p.email:
            try:
                validate_email(p.email)
            except ValidationError:
                errors.add(f"players.{i}.email", _("%(who)s: el correo electrónico no es válido.") % {"who": label})
        if p.phone and not _looks_like_phone(p.phone):
            errors.add(
                f"players.{i}.phone",
                _(
                    "%(who)s: el teléfono debe tener de 9 a 15 cifras, con un «+» delante si quieres "
                    "(espacios, guiones y puntos entre ellas valen)."
                )
                % {"who": label},
            )
    for i in range(len(cleaned)):
        for j in range(i):
            if _same_person(cleaned[i], cleaned[j]):
                errors.add(
                    f"players.{i}.first_name",
                    _("%(a)s y %(b)s son la misma persona.") % {"a": _player_label(j), "b": _player_label(i)},
                )
    return cleaned


def _looks_like_phone(phone: str) -> bool:
    digits = phone.replace(" ", "")
    if digits.startswith("+"):
        digits = digits[1:]
    return digits.isdigit() and 9 <= len(digits) <= 15


def _same_person(a: PlayerData, b: PlayerData) -> bool:
    """Same document, or (when either has none) the same normalised name."""
    if a.id_document and b.id_document:
        return a.id_document == b.id_document
    return a.normalized_name == b.normalized_name


@dataclass(frozen=True)
class _Registered:
    """A player already holding a place in the tournament (for the one-pair check)."""

    pair_id: int
    document: str
    normalized_name: str


@dataclass
class _BookPair:
    """A pair of the book as a refusal names it: its number, name and players in seat order; an
    entry of the same batch, not written yet, has no number and is named by `entry` («fila 4»)."""

    number: int | None
    name: str
    players: list[tuple[str, str]] = field(default_factory=list)
    entry: str = ""


class RegistrationBook:
    """The tournament's current registrations, loaded once and indexed by document and by
    normalised name, to check many new pairs quickly: a CSV import of thousands of pairs runs one
    query and one dictionary lookup per player, not a scan of every registered player."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        members = (
            PairMember.objects.filter(tournament=tournament, identity_key__isnull=False)
            .select_related("player", "pair")
            .only(
                "pair_id",
                "position",
                "pair__number",
                "pair__name",
                "player__id_document",
                "player__normalized_name",
                "player__first_name",
                "player__last_name",
            )
            .order_by("pair_id", "position")
        )
        self._by_document: dict[str, list[_Registered]] = {}
        self._by_name: dict[str, list[_Registered]] = {}
        self.pairs: dict[int, _BookPair] = {}
        for m in members:
            seen = self.pairs.setdefault(m.pair_id, _BookPair(m.pair.number, m.pair.name))
            seen.players.append((m.player.first_name, m.player.last_name))
            self._index(_Registered(m.pair_id, m.player.id_document, m.player.normalized_name))
        self.confirmed = Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED).count()

    def _index(self, reg: _Registered) -> None:
        if reg.document:
            self._by_document.setdefault(reg.document, []).append(reg)
        self._by_name.setdefault(reg.normalized_name, []).append(reg)

    def conflicts(self, player: PlayerData, *, ignore_pair_id: int | None = None) -> _Registered | None:
        """The same document; or, when either side has no document, the same normalised name
        (`_same_person`, answered by two lookups)."""
        candidates = self._by_document.get(player.id_document, []) if player.id_document else []
        by_name = self._by_name.get(player.normalized_name, [])
        candidates = candidates + [r for r in by_name if not (player.id_document and r.document)]
        return next((r for r in candidates if r.pair_id != ignore_pair_id), None)

    def add(self, pair_id: int, players: Sequence[PlayerData], *, entry: str, name: str = "") -> None:
        """An entry of the batch being checked, named `entry` in the refusals of the next ones."""
        self.pairs[pair_id] = _BookPair(None, name, [(p.first_name, p.last_name) for p in players], entry)
        for p in players:
            self._index(_Registered(pair_id, p.id_document, p.normalized_name))

    def clash_message(self, index: int, player: PlayerData, clash: _Registered) -> str:
        """Player `index` of the new pair is `clash`'s person: say so, naming the pair that has
        them (its number, name and players), and how they were recognised."""
        seen = self.pairs[clash.pair_id]
        values: dict[str, object] = {
            "who": _player_label(index),
            "player": f"{player.first_name} {player.last_name}",
            "players": players_label(seen.players),
            "how": _("mismo documento") if (player.id_document and clash.document) else _("mismo nombre"),
            "hint": "" if player.id_document else _(" Si es otra persona con el mismo nombre, indica su documento."),
        }
        if seen.number is None:
            return _("%(who)s: %(player)s ya figura en la pareja de la %(entry)s: %(players)s (%(how)s).%(hint)s") % {
                **values,
                "entry": seen.entry,
            }
        if seen.name:
            return _(
                "%(who)s: %(player)s ya está inscrito en la pareja %(number)d «%(name)s»: "
                "%(players)s (%(how)s).%(hint)s"
            ) % {**values, "number": seen.number, "name": seen.name}
        return _("%(who)s: %(player)s ya está inscrito en la pareja %(number)d: %(players)s (%(how)s).%(hint)s") % {
            **values,
            "number": seen.number,
        }


def validate_pair(
    *,
    tournament: Tournament,
    players: Sequence[PlayerData],
    name: str,
    book: RegistrationBook,
    ignore_pair_id: int | None = None,
) -> list[PlayerData]:
    """All the checks for one pair, against the book; returns the cleaned players or raises."""
    errors = _Errors()
    name = clean_text(name)
    if _pair_name_too_long(name):
        errors.add("name", _("El nombre de la pareja es demasiado largo."))
    cleaned = _clean_players(players, tournament, errors)
    for i, p in enumerate(cleaned):
        if not (p.first_name and p.last_name):
            continue
        clash = book.conflicts(p, ignore_pair_id=ignore_pair_id)
        if clash:
            errors.add(f"players.{i}.first_name", book.clash_message(i, p, clash))
    errors.raise_if_any()
    return cleaned


def clean_pair(*, tournament: Tournament, players: Sequence[PlayerData], name: str) -> list[PlayerData]:
    """The checks that need no registered players (formats, sizes, two or three players), run
    before the lock: bad input is refused without waiting for, or holding, the tournament."""
    errors = _Errors()
    if _pair_name_too_long(clean_text(name)):
        errors.add("name", _("El nombre de la pareja es demasiado largo."))
    cleaned = _clean_players(players, tournament, errors)
    errors.raise_if_any()
    return cleaned


def _check_open_for(tournament: Tournament, source: str) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(_("El torneo ha terminado: ya no admite inscripciones."), code="finished")
    if source == Pair.Source.PUBLIC_FORM and not tournament.accepts_public_registrations:
        raise TournamentError(_("La inscripción de este torneo no está abierta."), code="registration_closed")


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _new_player(data: PlayerData, *, tournament: Tournament) -> Player:
    """The registration's own record of the person: what it brought, in its tournament only."""
    return Player.objects.create(tournament=tournament, **{attr: getattr(data, attr) for attr in PLAYER_FIELDS})


@dataclass(frozen=True)
class _NewPair:
    name: str
    players: list[PlayerData]
    status: str


def _history_user() -> AuthUser | None:
    """Who the change is by, as simple_history's middleware saw the request (for bulk writes)."""
    user = getattr(getattr(HistoricalRecords.context, "request", None), "user", None)
    return user if user is not None and user.is_authenticated else None


def _create_pairs(*, tournament: Tournament, new: Sequence[_NewPair], source: str) -> list[Pair]:
    """Create pairs with their own player records in a few bulk statements, whatever their number
    (a CSV import of thousands), with their change history (the page cache's stamp reads it)."""
    last = Pair.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"] or 0
    pairs = [
        Pair(tournament=tournament, number=last + i + 1, name=clean_text(p.name), source=source, status=p.status)
        for i, p in enumerate(new)
    ]
    Pair.objects.bulk_create(pairs)
    players = [
        Player(tournament=tournament, **{attr: getattr(data, attr) for attr in PLAYER_FIELDS})
        for entry in new
        for data in entry.players
    ]
    for player in players:
        player.set_normalized_name()
    Player.objects.bulk_create(players)
    seats = iter(players)
    members = [
        PairMember(pair=pair, player=next(seats), tournament=tournament, position=i + 1, identity_key=data.identity)
        for pair, entry in zip(pairs, new, strict=True)
        for i, data in enumerate(entry.players)
    ]
    PairMember.objects.bulk_create(members)
    user = _history_user()
    for model, objs in ((Pair, pairs), (Player, players), (PairMember, members)):
        model.history.bulk_history_create(objs, default_user=user)
    return pairs


def _has_room(tournament: Tournament, confirmed: int) -> bool:
    return tournament.max_pairs is None or confirmed < tournament.max_pairs


def pair_register(
    *,
    tournament: Tournament,
    players: Sequence[PlayerData],
    name: str = "",
    source: str = Pair.Source.CONTROL,
) -> Pair:
    """Enter a pair. Over capacity it goes to the waiting list (the returned pair's status says)."""
    clean_pair(tournament=tournament, players=players, name=name)
    try:
        with transaction.atomic():
            locked = _lock(tournament)
            _check_open_for(locked, source)
            book = RegistrationBook(locked)
            cleaned = validate_pair(tournament=locked, players=players, name=name, book=book)
            status = Pair.Status.CONFIRMED if _has_room(locked, book.confirmed) else Pair.Status.WAITLISTED
            (pair,) = _create_pairs(tournament=locked, new=[_NewPair(name, cleaned, status)], source=source)
            return pair
    except IntegrityError as exc:  # the DB constraint caught a race the lock could not (SQLite)
        # The other registration is written now: name its pair, as the check under the lock would have.
        validate_pair(tournament=tournament, players=players, name=name, book=RegistrationBook(tournament))
        raise ValidationError(_("Uno de los jugadores ya está inscrito en otra pareja del torneo.")) from exc


def pairs_register_many(
    *,
    tournament: Tournament,
    entries: Sequence[tuple[str, Sequence[PlayerData]]],
    source: str,
    entry_labels: Sequence[str] | None = None,
) -> list[Pair]:
    """Enter many pairs at once, all or nothing. Raises RowErrors naming every bad entry. A person
    in two entries is refused in the later one, naming the earlier by `entry_labels` (the CSV's
    «fila 4»; by default «entrada 1», «entrada 2»…)."""
    if entry_labels is None:
        entry_labels = [_("entrada %(n)d") % {"n": index + 1} for index in range(len(entries))]
    row_errors: dict[int, dict[str, list[str]]] = {}
    for index, (name, players) in enumerate(entries):  # before the lock: formats and sizes
        try:
            clean_pair(tournament=tournament, players=players, name=name)
        except ValidationError as exc:
            row_errors[index] = exc.message_dict
    with transaction.atomic():
        locked = _lock(tournament)
        _check_open_for(locked, source)
        book = RegistrationBook(locked)
        checked: list[tuple[str, list[PlayerData]]] = []
        for index, (name, players) in enumerate(entries):
            if index in row_errors:
                continue
            try:
                cleaned = validate_pair(tournament=locked, players=players, name=name, book=book)
            except ValidationError as exc:
                row_errors[index] = exc.message_dict
                continue
            book.add(-(index + 1), cleaned, entry=entry_labels[index], name=clean_text(name))
            checked.append((name, cleaned))
        if row_errors:
            raise RowErrors(dict(sorted(row_errors.items())))
        new = []
        confirmed = book.confirmed
        for name, cleaned in checked:
            status = Pair.Status.CONFIRMED if _has_room(locked, confirmed) else Pair.Status.WAITLISTED
            confirmed += status == Pair.Status.CONFIRMED
            new.append(_NewPair(name, cleaned, status))
        return _create_pairs(tournament=locked, new=new, source=source)


class RowErrors(Exception):
    """Errors of a batch, by entry index (0-based) and field key."""

    def __init__(self, errors: dict[int, dict[str, list[str]]]) -> None:
        super().__init__(f"{len(errors)} entradas con errores")
        self.errors = errors


def pair_update(
    *,
    pair: Pair,
    players: Sequence[PlayerData],
    name: str,
    expected_version: int | None = None,
) -> Pair:
    """Correct a pair's details (typos, a changed partner before play). Refuses stale edits.
    Only this pair's own player records change; a new partner gets a new record."""
    clean_pair(tournament=pair.tournament, players=players, name=name)
    with transaction.atomic():
        tournament = _lock(pair.tournament)
        current = Pair.objects.select_for_update().get(pk=pair.pk)
        if expected_version is not None and current.version != expected_version:
            raise Conflict()
        if not current.is_active:
            raise TournamentError(_("La pareja está retirada: no se puede modificar."), code="inactive")
        if tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("El torneo ha terminado: ya no se pueden cambiar las parejas."))
        book = RegistrationBook(tournament)
        cleaned = validate_pair(tournament=tournament, players=players, name=name, book=book, ignore_pair_id=current.pk)
        old_members = list(current.members.select_related("player"))
        current.members.all().delete()
        for i, data in enumerate(cleaned):
            reused = next((m.player for m in old_members if _same_person(_as_data(m.player), data)), None)
            if reused is not None:
                for attr in PLAYER_FIELDS:
                    setattr(reused, attr, getattr(data, attr))
                reused.save()
                player = reused
            else:
                player = _new_player(data, tournament=tournament)
            PairMember.objects.create(
                pair=current, player=player, tournament=tournament, position=i + 1, identity_key=data.identity
            )
        current.name = clean_text(name)
        current.version = F("version") + 1
        current.save(update_fields=["name", "version"])
        current.refresh_from_db()
        return current


def _as_data(player: Player) -> PlayerData:
    return PlayerData(**{attr: getattr(player, attr) for attr in PLAYER_FIELDS})


def pair_withdraw(*, pair: Pair, reason: str = "") -> Pair | None:
    """Withdraw a pair: it will not be drawn again, its players are free to enter another pair,
    and, before play starts, the first pair on the waiting list moves up (returned)."""
    with transaction.atomic():
        tournament = _lock(pair.tournament)
        current = Pair.objects.select_for_update().get(pk=pair.pk)
        if not current.is_active:
            raise TournamentError(_("La pareja ya estaba retirada."), code="already_withdrawn")
        was_confirmed = current.status == Pair.Status.CONFIRMED
        current.status = Pair.Status.WITHDRAWN
        current.withdrawn_at = timezone.now()
        current.checked_in_at = None
        if reason:
            current.notes = (current.notes + "\n" if current.notes else "") + _("Retirada: %(r)s") % {"r": reason}
        current.version = F("version") + 1
        current.save(update_fields=["status", "withdrawn_at", "checked_in_at", "notes", "version"])
        current.members.update(identity_key=None)
        pair.refresh_from_db()
        if was_confirmed and tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
            promoted = promote_waitlisted(tournament=tournament, places=1)
            return promoted[0] if promoted else None
        return None


def pair_expel(*, pair: Pair, reason: str) -> Pair:
    """Expel a pair (AMM 5.4.3, 5.10, 3.16.b: the juez's decision, recorded by referees' services):
    it is never drawn again, keeps the place its results gave it, and its players stay registered
    in this tournament (5.8.b: none of them may be a suplente here). Nobody moves up from the
    waiting list: the tournament is under way."""
    reason = clean_text(reason or "")
    if not reason:
        raise ValidationError({"reason": _("La expulsión necesita un motivo.")})
    with transaction.atomic():
        _lock(pair.tournament)
        current = Pair.objects.select_for_update().get(pk=pair.pk)
        if current.status == Pair.Status.EXPELLED:
            raise TournamentError(_("La pareja ya estaba expulsada."), code="already_expelled")
        current.status = Pair.Status.EXPELLED
        current.withdrawn_at = timezone.now()
        current.notes = (current.notes + "\n" if current.notes else "") + _("Expulsada: %(r)s") % {"r": reason}
        current.version = F("version") + 1
        current.save(update_fields=["status", "withdrawn_at", "notes", "version"])
        current.refresh_from_db()
        return current


def pair_reinstate(*, pair: Pair) -> Pair:
    """Take back an expulsion (the sanction undone): the pair is drawn again from the next draw."""
    with transaction.atomic():
        _lock(pair.tournament)
        current = Pair.objects.select_for_update().get(pk=pair.pk)
        if current.status != Pair.Status.EXPELLED:
            raise TournamentError(_("La pareja no está expulsada."), code="not_expelled")
        current.status = Pair.Status.CONFIRMED
        current.withdrawn_at = None
        current.version = F("version") + 1
        current.save(update_fields=["status", "withdrawn_at", "version"])
        current.refresh_from_db()
        return current


def promote_waitlisted(*, tournament: Tournament, places: int | None = None) -> list[Pair]:
    """Move pairs up from the waiting list, oldest first, while there is room. Caller holds the lock."""
    confirmed = Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED).count()
    room = 10**9 if tournament.max_pairs is None else tournament.max_pairs - confirmed
    if places is not None:
        room = min(room, places)
    if room <= 0:
        return []
    waiting = list(
        Pair.objects.select_for_update()
        .filter(tournament=tournament, status=Pair.Status.WAITLISTED)
        .order_by("registered_at", "id")[:room]
    )
    for p in waiting:
        p.status = Pair.Status.CONFIRMED
        p.version = F("version") + 1
        p.save(update_fields=["status", "version"])
        p.refresh_from_db()
    return waiting


def pair_check_in(*, pair: Pair) -> Pair:
    """Mark a pair present before round 1 (only pairs present are drawn in round 1). Idempotent."""
    with transaction.atomic():
        _lock(pair.tournament)
        current = Pair.objects.select_for_update().get(pk=pair.pk)
        if current.status == Pair.Status.WAITLISTED:
            raise TournamentError(
                _("La pareja está en lista de espera: solo las parejas inscritas confirman presencia."),
                code="waitlisted",
            )
        if current.status != Pair.Status.CONFIRMED:
            raise TournamentError(_("La pareja está retirada: no puede confirmar presencia."), code="inactive")
        if current.tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("El torneo ha terminado."), code="finished")
        if current.checked_in_at is None:
            current.checked_in_at = timezone.now()
            current.version = F("version") + 1
            current.save(update_fields=["checked_in_at", "version"])
            current.refresh_from_db()
        return current


def pair_check_in_undo(*, pair: Pair) -> Pair:
    with transaction.atomic():
        _lock(pair.tournament)
        current = Pair.objects.select_for_update().get(pk=pair.pk)
        if current.checked_in_at is not None:
            current.checked_in_at = None
            current.version = F("version") + 1
            current.save(update_fields=["checked_in_at", "version"])
            current.refresh_from_db()
        return current


__all__ = [
    "PlayerData",
    "RegistrationBook",
    "RowErrors",
    "clean_pair",
    "pair_check_in",
    "pair_check_in_undo",
    "pair_expel",
    "pair_register",
    "pair_reinstate",
    "pair_update",
    "pair_withdraw",
    "pairs_register_many",
    "promote_waitlisted",
    "validate_pair",
]
