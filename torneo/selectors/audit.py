"""The organizer's log of changes: who changed what in the tournament, when, from what to what.

django-simple-history keeps a historical row for every save of the audited models (the admin's
and the API's too, with the user of the request). This module reads those tables for one
tournament as one list, newest first: registrations, roles, rounds and draws, results, incidents
and sanctions, suplentes, the juez's rulings and the announcements to the hall.

Decisions:
- **One list from many tables.** Each source is read newest first with the same filters and at
  most as many rows as the page needs, and the sources are merged: a page costs one query per
  source, plus one per source to find the previous version of what changed on it.
- **Before → after** is the row's previous historical row of the same object (by history id, the
  order of the writes): the fields that differ. A creation lists what it was created with.
- **Personal data (RGPD).** The log says *that* a document, phone or e-mail changed, never the
  values: the log is exported and kept, the personal data only where the registration needs it
  (and it is erased there on request). The draw's secret is never shown (it is published with the
  draw, on the round's page), nor columns derived from others (normalised names, identity keys).
- The sources are named by string (``apps.get_model``): torneo, the lower app, reads scoring's and
  referees' history without importing them (docs/architecture.md).
"""

from __future__ import annotations

import heapq
import itertools
import json
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from torneo.models import Draw, Match, Pair, Player, Round, Session, Tournament

PAGE_SIZE = 50

# The kinds of change, as the filter offers them.
KINDS: dict[str, Promise] = {
    "torneo": _("Datos del torneo y jornadas"),
    "funciones": _("Funciones"),
    "inscripciones": _("Inscripciones"),
    "sorteos": _("Rondas y sorteos"),
    "resultados": _("Resultados"),
    "incidencias": _("Incidencias y sanciones"),
    "suplentes": _("Suplentes"),
    "fallos": _("Fallos del juez"),
    "avisos": _("Avisos"),
}
ACTIONS: dict[str, Promise] = {"+": _("Alta"), "~": _("Cambio"), "-": _("Baja")}

PERSONAL = frozenset({"id_document", "phone", "email"})
HIDDEN = frozenset(
    {
        "id",
        "secret",
        "normalized_name",
        "identity",
        "identity_key",
        "created_at",
        "updated_at",
        "live_version",
        "version_token",
        "slot",
    }
)
# Fields whose model gives no Spanish name of its own.
LABELS: dict[str, Promise] = {
    "draw": _("sorteo"),
    "result_version": _("versión del resultado"),
    "submitted_by": _("anotado por"),
    "submitted_at": _("anotado a las"),
    "confirmed_by": _("confirmado por"),
    "confirmed_at": _("confirmado a las"),
    "rejected_by": _("rechazado por"),
    "rejected_at": _("rechazado a las"),
    "committed_by": _("compromiso publicado por"),
    "committed_at": _("compromiso publicado a las"),
    "published_by": _("publicado por"),
    "published_at": _("publicado a las"),
    "given_by": _("dada por"),
    "closed_by": _("cerrada por"),
    "closed_at": _("cerrada a las"),
    "cancelled_by": _("anulada por"),
    "cancelled_at": _("anulada a las"),
    "ruled_by": _("confirmado por"),
    "is_current": _("vigente"),
    "withdrawn_by": _("retirado por"),
    "withdrawn_at": _("retirado a las"),
    "score_a": _("tantos A"),
    "score_b": _("tantos B"),
    "won_by_ordago": _("ganado por órdago"),
    "user": _("usuario"),
    "tournament": _("torneo"),
}
JSON_LIMIT = 160


@dataclass(frozen=True)
class Source:
    """An audited model: its label, its kind, and the path from its historical row to the tournament.
    ``changes_kind``: the kind of its changes when it differs from that of its creation (a partida
    is created by a draw; what changes on it afterwards is its result)."""

    label: str
    kind: str
    tournament: str
    related: tuple[str, ...] = ()
    changes_kind: str = ""

    @property
    def history(self) -> type[models.Model]:
        return apps.get_model(self.label).history.model  # type: ignore[no-any-return]

    def kinds(self) -> set[str]:
        return {self.kind, self.changes_kind or self.kind}

    def kind_of(self, history_type: str) -> str:
        return self.changes_kind if self.changes_kind and history_type == "~" else self.kind

    def rows(self, tournament: Tournament, filters: AuditFilter) -> QuerySet[Any]:
        qs = self.history._default_manager.filter(**{self.tournament: tournament.pk})
        if filters.kind and self.changes_kind:
            changes = Q(history_type="~")
            qs = qs.filter(changes if filters.kind == self.changes_kind else ~changes)
        if filters.user:
            qs = qs.filter(history_user__username__iexact=filters.user)
        if filters.since:
            qs = qs.filter(history_date__gte=_day_start(filters.since))
        if filters.until:
            qs = qs.filter(history_date__lt=_day_start(filters.until + timedelta(days=1)))
        return qs.select_related("history_user", *self.related).order_by("-history_date", "-history_id")


SOURCES: tuple[Source, ...] = (
    Source("torneo.Tournament", "torneo", "id"),
    Source("torneo.Session", "torneo", "tournament_id"),
    Source("torneo.TournamentRole", "funciones", "tournament_id"),
    Source("torneo.Pair", "inscripciones", "tournament_id"),
    Source("torneo.Player", "inscripciones", "tournament_id"),
    Source("torneo.PairMember", "inscripciones", "tournament_id"),
    Source("torneo.Round", "sorteos", "tournament_id"),
    Source("torneo.Draw", "sorteos", "round__tournament_id", ("round",)),
    Source("torneo.Match", "sorteos", "round__tournament_id", ("round",), changes_kind="resultados"),
    Source("scoring.ResultSubmission", "resultados", "match__round__tournament_id", ("match__round",)),
    Source("referees.Incident", "incidencias", "tournament_id"),
    Source("referees.Sanction", "incidencias", "tournament_id"),
    Source("referees.Substitution", "suplentes", "tournament_id"),
    Source("scoring.HandRuling", "fallos", "hand__game__match__round__tournament_id", ("hand__game",)),
    Source("torneo.Announcement", "avisos", "tournament_id"),
)


@dataclass(frozen=True)
class AuditFilter:
    kind: str = ""
    user: str = ""
    since: date | None = None
    until: date | None = None


@dataclass
class FieldChange:
    name: str
    before: str  # "" when the object's previous version is not in the log (rows written in bulk)
    after: str


@dataclass
class Change:
    """One write to one audited object: what, when, who, and the fields it changed."""

    when: datetime
    kind: str
    kind_label: str
    action: str
    action_label: str
    what: str
    user: str
    reason: str
    fields: list[FieldChange] = field(default_factory=list)
    source: Source | None = field(default=None, repr=False)
    row: Any = field(default=None, repr=False)


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def _sources(filters: AuditFilter) -> list[Source]:
    return [s for s in SOURCES if not filters.kind or filters.kind in s.kinds()]


def count(*, tournament: Tournament, filters: AuditFilter) -> int:
    return sum(source.rows(tournament, filters).count() for source in _sources(filters))


def changes(*, tournament: Tournament, filters: AuditFilter, offset: int = 0, limit: int | None = None) -> list[Change]:
    """The changes under ``filters``, newest first, from ``offset``; all of them without ``limit``."""
    most = None if limit is None else offset + limit
    streams = [_stream(source, tournament, filters, most) for source in _sources(filters)]
    merged = heapq.merge(*streams, key=lambda item: item[0], reverse=True)
    picked = [(source, row) for _key, source, row in _slice(merged, offset, limit)]
    return _described(picked)


def _stream(source: Source, tournament: Tournament, filters: AuditFilter, most: int | None) -> Iterator[Any]:
    """A source's rows, newest first, keyed for the merge (date, then the order of the writes)."""
    rows = source.rows(tournament, filters)
    if most is not None:
        rows = rows[:most]
    for row in rows.iterator(2000):
        yield (row.history_date, row.history_id, source.label), source, row


def _slice(items: Iterator[Any], offset: int, limit: int | None) -> Iterable[Any]:
    for index, item in enumerate(items):
        if index < offset:
            continue
        if limit is not None and index >= offset + limit:
            return
        yield item


# --- before → after -------------------------------------------------------------------------------


def _previous(picked: list[tuple[Source, Any]]) -> dict[tuple[str, int], Any]:
    """For every changed row, the historical row of the same object just before it: per source,
    one query for every version of the objects concerned."""
    wanted: dict[Source, set[int]] = defaultdict(set)
    for source, row in picked:
        if row.history_type != "+":
            wanted[source].add(row.id)
    found: dict[tuple[str, int], Any] = {}
    for source, ids in wanted.items():
        ordered: dict[int, list[Any]] = defaultdict(list)
        id_list = sorted(ids)
        for start in range(0, len(id_list), 500):
            chunk = id_list[start : start + 500]
            versions: Any = source.history._default_manager.filter(id__in=chunk).order_by("id", "history_id")
            for version in versions:
                ordered[version.id].append(version)
        for versions in ordered.values():
            for before, after in itertools.pairwise(versions):
                found[(source.label, after.history_id)] = before
    return found


def _fields(source: Source) -> list[models.Field[Any, Any]]:
    model = apps.get_model(source.label)
    history_names = {f.attname for f in source.history._meta.concrete_fields}
    return [f for f in model._meta.concrete_fields if f.name not in HIDDEN and f.attname in history_names]


class _Names:
    """The labels of what the fields point at, read in bulk: users by username, pairs by number,
    players by name, rounds and their draws by the round's number, jornadas and tournaments by
    name; anything else by its number."""

    def __init__(self, picked: list[tuple[Source, Any]], previous: dict[tuple[str, int], Any]) -> None:
        wanted: dict[type[models.Model], set[int]] = defaultdict(set)
        fields_of = {source.label: _fields(source) for source, _row in picked}
        for source, row in picked:
            for f in fields_of[source.label]:
                if f.is_relation and f.related_model is not None:
                    for r in (row, previous.get((source.label, row.history_id))):
                        value = getattr(r, f.attname, None) if r is not None else None
                        if value is not None:
                            wanted[f.related_model].add(value)
            if source.label == "scoring.HandRuling":
                wanted[Match].add(row.hand.game.match_id)
        user_model = get_user_model()
        self.labels: dict[tuple[type[models.Model], int], str] = {}
        for model, ids in wanted.items():
            if model is user_model:
                pairs = model._default_manager.filter(pk__in=ids).values_list("pk", model.USERNAME_FIELD)
                self.labels.update(((model, pk), str(name)) for pk, name in pairs)
            elif model is Pair:
                numbers = Pair.objects.filter(pk__in=ids).values_list("pk", "number")
                self.labels.update(((Pair, pk), gettext("pareja %(n)d") % {"n": n}) for pk, n in numbers)
            elif model is Match:
                tables = Match.objects.filter(pk__in=ids).values_list("pk", "round__number", "table_number")
                self.labels.update(
                    ((Match, pk), gettext("ronda %(r)s, mesa %(t)s") % {"r": r, "t": t or "—"}) for pk, r, t in tables
                )
            elif model is Round:  # by its number, as everyone names it (issue 34: not its id)
                rounds = Round.objects.filter(pk__in=ids).values_list("pk", "number")
                self.labels.update(((Round, pk), gettext("ronda %(r)s") % {"r": n}) for pk, n in rounds)
            elif model is Draw:
                draws = Draw.objects.filter(pk__in=ids).values_list("pk", "round__number")
                self.labels.update(((Draw, pk), gettext("sorteo · ronda %(r)s") % {"r": n}) for pk, n in draws)
            elif model is Tournament:
                tournaments = Tournament.objects.filter(pk__in=ids).values_list("pk", "name")
                self.labels.update(((Tournament, pk), str(name)) for pk, name in tournaments)
            elif model is Session:
                sessions = Session.objects.filter(pk__in=ids).values_list("pk", "name")
                self.labels.update(((Session, pk), str(name)) for pk, name in sessions)
            elif model is Player:
                names = Player.objects.filter(pk__in=ids).values_list("pk", "first_name", "last_name")
                self.labels.update(((Player, pk), f"{first} {last}") for pk, first, last in names)

    def of(self, model: type[models.Model], pk: int) -> str:
        return self.labels.get((model, pk), f"nº {pk}")


def _label(f: models.Field[Any, Any]) -> str:
    own = str(f.verbose_name)
    return capfirst(str(LABELS[f.name]) if f.name in LABELS and own == f.name.replace("_", " ") else own)


def _shown(f: models.Field[Any, Any], value: Any, names: _Names) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if f.name in PERSONAL:
        return gettext("(dato personal)")
    if f.is_relation and f.related_model is not None:
        return names.of(f.related_model, value)
    if f.choices:
        return str(dict(f.flatchoices).get(value, value))
    if isinstance(value, bool):
        return gettext("sí") if value else gettext("no")
    if isinstance(value, datetime):
        return timezone.localtime(value).strftime("%d/%m/%Y %H:%M:%S")
    if isinstance(value, list | dict):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return text if len(text) <= JSON_LIMIT else text[: JSON_LIMIT - 1] + "…"
    return str(value)


def _what(source: Source, row: Any, names: _Names) -> str:
    """The object, named from its own historical row, the rows its tournament's path joined anyway
    (a round, a partida), and the labels read in bulk (pairs, players, users, partidas)."""
    name = str(apps.get_model(source.label)._meta.verbose_name)
    label = source.label
    if label == "torneo.Tournament":
        return f"{name}: {row.name}"
    if label == "torneo.Pair":
        return gettext("Pareja %(n)s") % {"n": row.number}
    if label == "torneo.Player":
        return f"{name}: {row.first_name} {row.last_name}"
    if label == "torneo.PairMember":
        return f"{names.of(Pair, row.pair_id)} · {names.of(Player, row.player_id)}"
    if label == "torneo.TournamentRole":
        return f"{name}: {names.of(get_user_model(), row.user_id)}"
    if label == "torneo.Round":
        return gettext("Ronda %(r)s") % {"r": row.number}
    if label == "torneo.Draw":
        return f"{name} · " + gettext("ronda %(r)s") % {"r": row.round.number}
    if label == "torneo.Match":
        return f"{name} · " + gettext("ronda %(r)s, mesa %(t)s") % {"r": row.round.number, "t": row.table_number or "—"}
    if label == "scoring.ResultSubmission":
        where = gettext("ronda %(r)s, mesa %(t)s") % {"r": row.match.round.number, "t": row.match.table_number or "—"}
        return f"{name} · {where} · " + gettext("versión %(v)s") % {"v": row.version}
    if label == "referees.Sanction":
        return f"{name} nº {row.number}.{row.version} · {names.of(Pair, row.pair_id)}"
    if label == "referees.Substitution":
        return f"{name} · {names.of(Match, row.match_id)} · {names.of(Pair, row.pair_id)}"
    if label == "scoring.HandRuling":
        return f"{name} · {names.of(Match, row.hand.game.match_id)}"
    return f"{name} nº {row.id}"


def _described(picked: list[tuple[Source, Any]]) -> list[Change]:
    previous = _previous(picked)
    names = _Names(picked, previous)
    out = []
    for source, row in picked:
        before = previous.get((source.label, row.history_id))
        fields = []
        for f in _fields(source):
            new = getattr(row, f.attname)
            if row.history_type == "-":
                fields.append(FieldChange(_label(f), _shown(f, new, names), "—"))
                continue
            after = _shown(f, new, names)
            if before is None:
                if after != "—":
                    fields.append(FieldChange(_label(f), "—" if row.history_type == "+" else "", after))
                continue
            old = getattr(before, f.attname)
            if old != new:
                fields.append(FieldChange(_label(f), _shown(f, old, names), after))
        if row.history_type == "-":
            fields = [c for c in fields if c.before != "—"]
        kind = source.kind_of(row.history_type)
        user = row.history_user.get_username() if row.history_user_id else ""
        out.append(
            Change(
                when=row.history_date,
                kind=kind,
                kind_label=str(KINDS[kind]),
                action=row.history_type,
                action_label=str(ACTIONS[row.history_type]),
                what=_what(source, row, names),
                user=user,
                reason=row.history_change_reason or "",
                fields=fields,
                source=source,
                row=row,
            )
        )
    return out
