"""Backups of one tournament: everything it holds, in one JSON file, loaded back into any site.

``export_tournament(tournament=...)`` returns the backup as a dict (``manage.py tournament_export``
writes it as JSON); ``import_tournament(data=...)`` creates a new, independent tournament from it
(``manage.py tournament_import``). The whole database is backed up with the database's own tools
(docs/production.md, «Backups»); this is for one tournament: to keep it apart, move it to another
site, or bring back one deleted by mistake without rolling back everyone else's.

The file::

    {"format": "torneo-mus-backup", "version": 1,
     "exported_at": "2026-12-12T18:03:11.402+00:00",
     "tournament": {"pk": 7, "slug": "open-mus", "name": "Open de Mus"},   (for people; not read back)
     "objects": {"torneo.tournament": [{"pk": 7, "fields": {"name": "Open de Mus", ...}}],
                 "torneo.session": [...], ...}}

``objects`` has one list per model of ``parts()``, in that order, each row with its original pk and
its fields by name. Fields are walked generically (``_meta.concrete_fields``), so a field added to
one of these models is carried without touching this module: a plain value as JSON (dates and
times in ISO 8601 with their UTC offset, decimals as strings, JSON fields as they are); a reference
to another row of the backup by that row's original pk; a reference to a user by username.

Included (``parts()``, in the order they are created, each with how its rows reach the tournament).
Each app declares the parts it owns on its AppConfig as ``backup_parts`` (torneo/apps.py's
``TorneoConfig``, scoring/apps.py's ``ScoringConfig``), in dependency order, and ``parts()`` takes
them in INSTALLED_APPS order, so this module imports none of the apps above torneo:

- torneo.tournament: the tournament itself, every setting;
- torneo.session (``tournament``): the jornadas;
- torneo.tournamentrole (``tournament``): organizers, mesa de control and jueces, by username;
- torneo.player (``tournament``, and ``memberships__pair__tournament``: every player who is or
  was in one of its pairs, also on sites from before players belonged to one tournament): their
  personal data (document, phone, e-mail, club) and the username of the account they are linked
  to;
- torneo.pair (``tournament``), withdrawn and expelled pairs included, and torneo.pairmember
  (``pair__tournament``);
- torneo.round, torneo.draw (``round__tournament``): every draw, superseded ones too, with its
  secret, commitment, public value, seed, inputs and outputs (anyone can still verify it);
- torneo.match (``round__tournament``);
- scoring.resultsubmission (``match__round__tournament``): every version of every acta;
- scoring.recordedgame, scoring.recordedhand: every juego and every version of every hand,
  deleted ones too.

Not included: user accounts (passwords, groups, permissions, API tokens: a user is named by
username, and linked on import only if an account with that username exists *and* the import names
it (``link_accounts``; the command's ``--link-account``) — no account is ever created, and none is
attached silently: a file naming an account of this site as a juez or a player of the organizer's
tournament would otherwise let that organizer reset its password (torneo.services.accounts). A
role whose user is not linked — not named, or not on this site — is skipped and reported, a player
keeps their record without account, and any other reference is left empty and reported; ``links``
says which accounts were linked and which not); simple_history's historical tables (the change log of
each row: the import starts a new log, one «created» record per row, with the reason
``HISTORY_REASON``); the page cache; sessions, the admin log and the task heartbeats, which belong
to the site and not to a tournament; the one-time account codes and links (torneo.accounttoken,
torneo/services/accounts.py): their secrets are hashed with this site's SECRET_KEY, so they would not
work on another site, and they live a day or a week; the pairs' private links and their terminal
accounts (torneo.pairterminal, torneo/services/terminals.py): hashed the same way, and the mesa
issues new tarjetas on the new site; the browsers' Web Push subscriptions
(torneo.pushsubscription, torneo/push/): each is a device's, not the tournament's record (it names
the tournament only as where it was turned on), and it is bound to this site's VAPID key, so a
browser subscribes again on the new site; the addresses the pairs asked the notices at
(torneo.emailsubscription): their links are signed with this site's SECRET_KEY, and a player
asks again on the new site; the printables prepared (scoring.printjob):
PDFs derived from the rows above, made again on request; the circuits it is in
(circuits.circuittournament): a circuit's list, not the tournament's record — on another site its
organizer adds it to that site's circuits; the players' ratings (circuits.playerrating): derived
from every rated partida of the site, recomputed there (``manage.py ratings_recompute``); the
links that make two registrations one person (circuits.personlink): each joins two tournaments,
so it is neither's alone.

Import: the file is checked completely before anything is written, and a file that is not a
backup, of another version or malformed is refused with a ``BackupError`` that says what is wrong
and where. Then, in one transaction (all or nothing), every row is created with a new pk (the
original pks are only read, never reused, so the target site may hold any other tournaments),
each reference is remapped to the new pk of its row (self-references — a draw or hand version
that replaces an earlier one — in a second pass), and the tournament takes a free slug: the
original if free, else ``<slug>-2``, ``-3``… Values that ``save()`` would overwrite
(``auto_now``/``auto_now_add``: ``registered_at``, ``created_at``…) keep their exported values.
The imported tournament has new pks, so nothing cached for another one can be served for it
(torneo.pagecache's stamp and keys start with the pk), and its ``live_version`` is one more than
the exported one, so that a page still open from before (the same slug, restored) reloads.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, connection, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from torneo.errors import TournamentError
from torneo.models import Player, Tournament, TournamentRole

FORMAT = "torneo-mus-backup"
VERSION = 1
HISTORY_REASON = "Importado de una copia de seguridad"


class BackupError(TournamentError):
    """The file cannot be imported (not a backup, another version, malformed, rejected by the
    database); the message says what is wrong and where. Nothing has been written."""

    code = "backup"


@dataclass(frozen=True)
class Part:
    """One model of the backup and the lookup from it to its tournament (``also``: a second
    lookup, used only when the model has that field)."""

    model: type[models.Model]
    path: str
    also: str = ""

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    def queryset(self, tournament: Tournament) -> models.QuerySet[Any]:
        manager = self.model._base_manager
        if self.path == "pk":
            condition = Q(pk=tournament.pk)
        else:  # a subquery: a row reached along several paths is still one row
            condition = Q(pk__in=manager.filter(**{self.path: tournament}).values("pk"))
        if self.also and _has_field(self.model, self.also.split("__")[0]):
            condition |= Q(**{self.also: tournament})
        return manager.filter(condition).order_by("pk")


@cache
def parts() -> tuple[Part, ...]:
    """Every part of the backup, in dependency order: every row refers only to rows of earlier
    parts (or of its own, second pass). Each app declares its own on its AppConfig as
    ``backup_parts``, ``(model label, path)`` or ``(model label, path, also)``, and they are taken
    in INSTALLED_APPS order (torneo before scoring)."""
    return tuple(
        Part(apps.get_model(label), path, *also)
        for config in apps.get_app_configs()
        for label, path, *also in getattr(config, "backup_parts", ())
    )


# How a column is carried.
VALUE = "value"  # as JSON
TOURNAMENT = "tournament"  # the tournament: the new one on import
USER = "user"  # by username
REF = "ref"  # a row of an earlier part, by its original pk
SELF = "self"  # a row of the same part (second pass on import)


@dataclass(frozen=True)
class Column:
    field: models.Field[Any, Any]
    kind: str
    target: str = ""  # REF: the label of the referenced part

    @property
    def name(self) -> str:
        return self.field.name

    @property
    def auto_time(self) -> bool:
        """``save()`` and ``bulk_create()`` overwrite it with the current time."""
        return bool(getattr(self.field, "auto_now", False) or getattr(self.field, "auto_now_add", False))


def _has_field(model: type[models.Model], name: str) -> bool:
    return any(f.name == name for f in model._meta.concrete_fields)


@cache
def plan() -> tuple[tuple[Part, tuple[Column, ...]], ...]:
    """Every part with its columns. A relation this module cannot carry (to a model outside the
    backup, or an automatic many-to-many table) is a programming error, said at once."""
    user_model = get_user_model()
    seen: list[type[models.Model]] = []
    result = []
    for part in parts():
        meta = part.model._meta
        columns = []
        for f in meta.concrete_fields:
            if f.primary_key:
                continue
            target = f.related_model if f.is_relation else None
            if target is None:
                columns.append(Column(f, VALUE))
            elif target is Tournament and part.model is not Tournament:
                columns.append(Column(f, TOURNAMENT))
            elif target is user_model:
                columns.append(Column(f, USER))
            elif target is part.model:
                columns.append(Column(f, SELF))
            elif target in seen:
                columns.append(Column(f, REF, target._meta.label_lower))
            else:
                raise ImproperlyConfigured(
                    f"torneo.backup: {meta.label}.{f.name} apunta a {target._meta.label}, que no está antes en parts()"
                )
        for m2m in meta.local_many_to_many:
            if m2m.remote_field.through._meta.auto_created:
                raise ImproperlyConfigured(f"torneo.backup: {meta.label}.{m2m.name} es una tabla automática")
        seen.append(part.model)
        result.append((part, tuple(columns)))
    return tuple(result)


def _username_field() -> str:
    return str(get_user_model().USERNAME_FIELD)


# --- export ----------------------------------------------------------------------------------


def _json_value(obj: models.Model, column: Column, usernames: dict[Any, str]) -> Any:
    value = column.field.value_from_object(obj)
    if value is None:
        return None
    if column.kind == USER:
        return usernames[value]
    if column.kind != VALUE or isinstance(column.field, models.JSONField):
        return value
    if isinstance(value, (bool, int, float, str)):
        return value
    return column.field.value_to_string(obj)  # dates and times in ISO 8601, decimals as text


def export_tournament(*, tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a backup (the format in this module's docstring), read as one
    consistent state: every write to a tournament locks its row first, and so does this."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
        loaded = [(part, columns, list(part.queryset(tournament))) for part, columns in plan()]
        user_ids = {
            column.field.value_from_object(obj)
            for _part, columns, objs in loaded
            for column in columns
            if column.kind == USER
            for obj in objs
        }
        user_ids.discard(None)
        usernames = dict(get_user_model()._default_manager.filter(pk__in=user_ids).values_list("pk", _username_field()))
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": {"pk": tournament.pk, "slug": tournament.slug, "name": tournament.name},
        "objects": {
            part.label: [
                {"pk": obj.pk, "fields": {c.name: _json_value(obj, c, usernames) for c in columns}} for obj in objs
            ]
            for part, columns, objs in loaded
        },
    }


def dumps(data: dict[str, Any]) -> str:
    """The backup as the text of its file (UTF-8, one key per line: readable, and diffs well)."""
    return json.dumps(data, ensure_ascii=False, indent=1)


def loads(raw: bytes | str) -> Any:
    """The content of a backup file; BackupError if it is not JSON."""
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise BackupError(_("El archivo no es una copia de seguridad: no es texto UTF-8.")) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BackupError(
            _("El archivo no es una copia de seguridad: no es JSON válido (línea %(line)d, columna %(col)d).")
            % {"line": exc.lineno, "col": exc.colno}
        ) from exc
    except RecursionError as exc:
        raise BackupError(_("El archivo no es una copia de seguridad: no es JSON válido.")) from exc


# --- checking a file -------------------------------------------------------------------------


@dataclass
class _Row:
    pk: int
    values: dict[str, Any]  # by field name, only the fields the file has; converted


@dataclass
class _Parsed:
    tournament_pk: int
    rows: list[list[_Row]]  # by part, in parts() order, sorted by original pk
    usernames: set[str] = field(default_factory=set)


def _where(label: str, pk: Any, name: str | None = None) -> str:
    if name is None:
        return _("%(model)s pk %(pk)s") % {"model": label, "pk": pk}
    return _("%(model)s pk %(pk)s, campo «%(field)s»") % {"model": label, "pk": pk, "field": name}


def _malformed(where: str, problem: str) -> BackupError:
    return BackupError(_("Copia de seguridad no válida: %(where)s: %(problem)s") % {"where": where, "problem": problem})


def _convert(column: Column, raw: Any, where: str, known: dict[str, set[int]], tournament_pk: int) -> Any:
    f = column.field
    if raw is None:
        if not f.null:
            raise _malformed(where, _("no puede estar vacío."))
        return None
    if column.kind == USER:
        if not isinstance(raw, str) or not raw:
            raise _malformed(where, _("se esperaba un nombre de usuario."))
        return raw
    if column.kind in (TOURNAMENT, REF, SELF):
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise _malformed(where, _("se esperaba el número (pk) de una fila de la copia."))
        if column.kind == TOURNAMENT and raw != tournament_pk:
            raise _malformed(where, _("apunta a otro torneo (pk %(pk)d).") % {"pk": raw})
        if column.kind == REF and raw not in known[column.target]:
            raise _malformed(
                where, _("apunta a %(model)s pk %(pk)d, que no está en la copia.") % {"model": column.target, "pk": raw}
            )
        return raw
    if isinstance(f, models.JSONField):
        return raw
    if isinstance(raw, (dict, list)):
        raise _malformed(where, _("valor no válido."))
    try:
        value = f.to_python(raw)
    except ValidationError as exc:
        raise _malformed(where, " ".join(exc.messages)) from exc
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise _malformed(where, _("valor no válido.")) from exc
    if isinstance(value, str) and "\x00" in value:
        raise _malformed(where, _("valor no válido."))
    max_length = getattr(f, "max_length", None)
    if isinstance(value, str) and max_length and len(value) > max_length:
        raise _malformed(where, _("tiene más de %(n)d caracteres.") % {"n": max_length})
    return value


def _required(column: Column) -> bool:
    f = column.field
    return not (f.null or f.has_default() or f.blank or column.auto_time or column.kind == TOURNAMENT)


def parse(data: Any) -> _Parsed:
    """Check a whole backup before anything is written; BackupError naming what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(
            _('El archivo no es una copia de seguridad de un torneo (falta «"format": "%(format)s"»).')
            % {"format": FORMAT}
        )
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise BackupError(
            _("Versión de copia de seguridad desconocida: %(version)s (este programa lee la versión %(known)d).")
            % {"version": json.dumps(version), "known": VERSION}
        )
    objects = data.get("objects")
    if not isinstance(objects, dict):
        raise _malformed("«objects»", _("falta, o no es un objeto JSON."))
    labels = [part.label for part in parts()]
    unknown = sorted(set(objects) - set(labels))
    if unknown:
        raise _malformed("«objects»", _("modelos desconocidos: %(models)s.") % {"models": ", ".join(unknown)})
    missing = [label for label in labels if label not in objects]
    if missing:
        raise _malformed("«objects»", _("faltan los modelos: %(models)s.") % {"models": ", ".join(missing)})
    tournaments = objects[Tournament._meta.label_lower]
    if not isinstance(tournaments, list) or len(tournaments) != 1:
        raise _malformed(Tournament._meta.label_lower, _("debe haber exactamente un torneo."))
    tournament_pk = tournaments[0].get("pk") if isinstance(tournaments[0], dict) else None

    parsed = _Parsed(tournament_pk=tournament_pk, rows=[])  # type: ignore[arg-type]
    known: dict[str, set[int]] = {}
    for part, columns in plan():
        label = part.label
        rows_in = objects[label]
        if not isinstance(rows_in, list):
            raise _malformed(label, _("se esperaba una lista de filas."))
        names = {c.name: c for c in columns}
        rows: list[_Row] = []
        pks: set[int] = set()
        for index, row in enumerate(rows_in):
            if not isinstance(row, dict) or set(row) != {"pk", "fields"} or not isinstance(row["fields"], dict):
                raise _malformed(
                    _("%(model)s, fila %(n)d") % {"model": label, "n": index + 1},
                    _("se esperaba {«pk»: número, «fields»: {…}}."),
                )
            pk = row["pk"]
            if not isinstance(pk, int) or isinstance(pk, bool):
                raise _malformed(
                    _("%(model)s, fila %(n)d") % {"model": label, "n": index + 1}, _("«pk» no es un número.")
                )
            if pk in pks:
                raise _malformed(_where(label, pk), _("pk repetido."))
            pks.add(pk)
            extra = sorted(set(row["fields"]) - set(names))
            if extra:
                raise _malformed(_where(label, pk), _("campos desconocidos: %(f)s.") % {"f": ", ".join(extra)})
            values = {}
            for name, column in names.items():
                if name not in row["fields"]:
                    if _required(column):
                        raise _malformed(_where(label, pk, name), _("falta."))
                    continue
                value = _convert(column, row["fields"][name], _where(label, pk, name), known, tournament_pk)
                if column.kind == USER and value is not None:
                    parsed.usernames.add(value)
                values[name] = value
            rows.append(_Row(pk, values))
        for row in rows:  # self-references, once every row of the part is known
            for column in columns:
                target = row.values.get(column.name) if column.kind == SELF else None
                if target is not None and (target not in pks or target == row.pk):
                    raise _malformed(
                        _where(label, row.pk, column.name),
                        _("apunta a %(model)s pk %(pk)d, que no está en la copia.") % {"model": label, "pk": target},
                    )
        known[label] = pks
        rows.sort(key=lambda r: r.pk)  # new pks in the original order: orderings by id still hold
        parsed.rows.append(rows)
    slug = parsed.rows[0][0].values.get("slug", "")
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise _malformed(_where(Tournament._meta.label_lower, tournament_pk, "slug"), " ".join(exc.messages)) from exc
    return parsed


# --- import ----------------------------------------------------------------------------------


@dataclass
class AccountLinks:
    """The accounts a backup names, by username, and what its import did with each."""

    linked: set[str] = field(default_factory=set)  # on this site and named at import: linked
    not_linked: set[str] = field(default_factory=set)  # on this site but not named: left unlinked
    missing: set[str] = field(default_factory=set)  # not on this site


def named_accounts(data: Any) -> list[str]:
    """Every username a backup names (roles, players' accounts, who did what), sorted; BackupError
    if it is not a backup."""
    return sorted(parse(data).usernames)


def free_slug(slug: str) -> str:
    """`slug` if no tournament has it, else the first free `slug-2`, `slug-3`…"""
    max_length = Tournament._meta.get_field("slug").max_length or 80
    candidate, n = slug[:max_length], 2
    while Tournament.objects.filter(slug=candidate).exists():
        suffix = f"-{n}"
        candidate, n = slug[: max_length - len(suffix)] + suffix, n + 1
    return candidate


def import_tournament(
    *,
    data: Any,
    notes: list[str] | None = None,
    link_accounts: Collection[str] = (),
    links: AccountLinks | None = None,
) -> Tournament:
    """Create a new tournament from a backup (``data``: the file's content, as ``loads`` returns
    it), all or nothing. Only the accounts of this site named in ``link_accounts`` are linked
    (module docstring); ``links`` is filled with what was and was not. What the caller should know
    (roles skipped, users not found or not linked) is appended to ``notes``. BackupError (nothing
    written) when the file cannot be imported."""
    parsed = parse(data)
    found: list[str] = []
    accounts = AccountLinks()
    try:
        with transaction.atomic():
            tournament = _create(parsed, found, accounts, set(link_accounts))
    except DatabaseError as exc:
        raise BackupError(
            _("La base de datos rechaza la copia de seguridad; no se ha importado nada: %(error)s") % {"error": exc}
        ) from exc
    if notes is not None:
        notes.extend(found)
    if links is not None:
        links.linked, links.not_linked, links.missing = accounts.linked, accounts.not_linked, accounts.missing
    return tournament


def _insert(model: type[models.Model], objs: list[models.Model]) -> None:
    if connection.features.can_return_rows_from_bulk_insert:
        model._base_manager.bulk_create(objs)
        return
    for obj in objs:  # raw: keeps every value as given, auto_now ones included
        obj.save_base(raw=True, force_insert=True)


def _create(parsed: _Parsed, notes: list[str], accounts: AccountLinks, link: set[str]) -> Tournament:
    user_model = get_user_model()
    here = dict(
        user_model._default_manager.filter(**{f"{_username_field()}__in": parsed.usernames}).values_list(
            _username_field(), "pk"
        )
    )
    users = {name: pk for name, pk in here.items() if name in link}  # never one the import did not name
    accounts.linked = set(users)
    accounts.not_linked = set(here) - accounts.linked
    accounts.missing = parsed.usernames - set(here)
    missing_users: set[str] = set()
    unlinked_users: set[str] = set()
    new_pks: dict[str, dict[int, int]] = {}
    tournament: Tournament | None = None
    now = timezone.now()
    for (part, columns), rows in zip(plan(), parsed.rows, strict=True):
        model, label = part.model, part.label
        objs: list[models.Model] = []
        kept: list[_Row] = []
        for row in rows:
            obj = model()
            skip = False
            for column in columns:
                attname = column.field.attname
                if column.kind == TOURNAMENT:
                    present = column.name in row.values
                    setattr(obj, attname, None if present and row.values[column.name] is None else tournament.pk)  # type: ignore[union-attr]
                    continue
                if column.name not in row.values or column.kind == SELF:
                    continue
                value = row.values[column.name]
                if column.kind == USER and value is not None:
                    username, value = value, users.get(value)
                    unlinked = username in accounts.not_linked
                    if value is None:
                        if not column.field.null:
                            notes.append(_skipped(model, row, username, unlinked=unlinked))
                            skip = True
                        elif model is Player and unlinked:
                            notes.append(
                                _(
                                    "%(player)s queda sin cuenta: la cuenta «%(user)s» existe en este sitio, "
                                    "pero no se ha vinculado (no vinculada)."
                                )
                                % {"player": _player_name(row), "user": username}
                            )
                        elif model is Player:
                            notes.append(
                                _("%(player)s queda sin cuenta: el usuario «%(user)s» no existe en este sitio.")
                                % {"player": _player_name(row), "user": username}
                            )
                        else:
                            (unlinked_users if unlinked else missing_users).add(username)
                elif column.kind == REF and value is not None:
                    value = new_pks[column.target].get(value)
                    if value is None:
                        raise _malformed(
                            _where(label, row.pk, column.name),
                            _("apunta a una fila que no se ha importado (%(model)s pk %(pk)d).")
                            % {"model": column.target, "pk": row.values[column.name]},
                        )
                setattr(obj, attname, value)
            if skip:
                continue
            if model is Tournament:
                obj.slug = free_slug(obj.slug)  # type: ignore[attr-defined]
                obj.live_version = (obj.live_version or 0) + 1  # type: ignore[attr-defined]
            objs.append(obj)
            kept.append(row)
        _insert(model, objs)
        new_pks[label] = {row.pk: obj.pk for row, obj in zip(kept, objs, strict=True)}
        if model is Tournament:
            tournament = objs[0]  # type: ignore[assignment]
        # Second pass: self-references, and the times bulk_create has just overwritten.
        later = [c for c in columns if c.kind == SELF or c.auto_time]
        touched = set()
        for row, obj in zip(kept, objs, strict=True):
            for column in later:
                if column.name not in row.values:
                    continue
                value = row.values[column.name]
                if column.kind == SELF and value is not None:
                    value = new_pks[label][value]
                setattr(obj, column.field.attname, value)
                touched.add(column.name)
        if touched and objs:
            model._base_manager.bulk_update(objs, sorted(touched), batch_size=500)
        history_attribute = getattr(model._meta, "simple_history_manager_attribute", None)
        if history_attribute and objs:
            getattr(model, history_attribute).bulk_history_create(
                objs, default_change_reason=HISTORY_REASON, default_date=now
            )
    if missing_users:
        notes.append(
            _(
                "Estos usuarios no existen en este sitio; las referencias a ellos (quién creó, anotó, "
                "confirmó o presenció algo) quedan vacías: %(users)s."
            )
            % {"users": ", ".join(sorted(missing_users))}
        )
    if unlinked_users:
        notes.append(
            _(
                "Estas cuentas existen en este sitio, pero no se han vinculado; las referencias a ellas "
                "(quién creó, anotó, confirmó o presenció algo) quedan vacías: %(users)s."
            )
            % {"users": ", ".join(sorted(unlinked_users))}
        )
    assert tournament is not None
    tournament.refresh_from_db()
    return tournament


def _player_name(row: _Row) -> str:
    return f"{row.values.get('first_name', '')} {row.values.get('last_name', '')}".strip() or f"#{row.pk}"


def _skipped(model: type[models.Model], row: _Row, username: str, *, unlinked: bool) -> str:
    if model is TournamentRole:
        role = row.values.get("role", "")
        values = {
            "role": TournamentRole.Role(role).label if role in TournamentRole.Role.values else role,
            "user": username,
        }
        if unlinked:
            return (
                _(
                    "Se omite la función «%(role)s» de «%(user)s»: la cuenta existe en este sitio, "
                    "pero no se ha vinculado (no vinculada)."
                )
                % values
            )
        return _("Se omite la función «%(role)s» de «%(user)s»: ese usuario no existe en este sitio.") % values
    if unlinked:
        return _("Se omite %(row)s: la cuenta «%(user)s» existe en este sitio, pero no se ha vinculado.") % {
            "row": _where(model._meta.label_lower, row.pk),
            "user": username,
        }
    return _("Se omite %(row)s: el usuario «%(user)s» no existe en este sitio.") % {
        "row": _where(model._meta.label_lower, row.pk),
        "user": username,
    }


__all__ = [
    "FORMAT",
    "VERSION",
    "AccountLinks",
    "BackupError",
    "dumps",
    "export_tournament",
    "free_slug",
    "import_tournament",
    "loads",
    "named_accounts",
    "parse",
    "parts",
]
