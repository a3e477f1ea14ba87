"""The documents the mesa de control prints, as data: which template, which sheets, and the digest
of everything printed (scoring.services.printing renders each once per digest); and the Spanish
name each one downloads with (``printable_filename``).

One builder per ``PrintJob.Kind``; each reads its data in a few queries and never renders. A
document with a round (``round_number`` > 0) names a round of the tournament; an unknown round is
a ValidationError naming the field.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.exports import classification_sheet, standings_sheet
from scoring.models import PrintJob
from scoring.selectors.actas import acta_frame, digest, round_actas
from scoring.selectors.bracket_sheets import A3_LANDSCAPE, A4_PORTRAIT, MARGIN, Paper, bracket_sheets
from scoring.selectors.hands import matches_with_players
from scoring.selectors.standings import bracket
from torneo.models import Match, Round, Tournament
from torneo.selectors.rounds import surname_key
from torneo.sheets import Sheet


@dataclasses.dataclass(frozen=True)
class Printable:
    template: str
    items: Sequence[Any]
    """The sheets (or rows) the template lays out, in chunks, under ``key``."""
    context: dict[str, Any]
    digest: str
    key: str = "actas"
    frame: tuple[str, dict[str, Any]] | None = None
    """A one-page drawing under every sheet (the acta's frame), laid out once."""


Builder = Callable[[Tournament, int, str], Printable]


def _round(tournament: Tournament, number: int) -> Round:
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None:
        raise ValidationError({"round": _("La ronda %(n)s no existe en este torneo.") % {"n": number}})
    return round_


def round_actas_printable(tournament: Tournament, number: int, base_url: str) -> Printable:
    """All actas of a round, by table (AMM 3.16), each with its QR code to the partida's page."""
    round_ = _round(tournament, number)
    base = base_url.rstrip("/")

    def url_for(match: Match) -> str:
        return base + reverse("scoring:hands_match", kwargs={"slug": tournament.slug, "match_id": match.pk})

    actas = round_actas(round_, url_for=url_for)
    if not actas:
        raise ValidationError({"round": _("La ronda %(n)s no tiene partidas que jugar.") % {"n": number}})
    title = _("Actas · ronda %(n)s") % {"n": number}
    return Printable(
        template="scoring/print/actas.html",
        items=actas,
        context={"title": title},
        digest=digest(actas),
        frame=acta_frame(actas),
    )


# --- Listings for the wall and the mesa: the draw by table, by player, the standings ----------------


@dataclasses.dataclass(frozen=True)
class Column:
    label: str
    width: int  # % of the line
    align: str = "left"


@dataclasses.dataclass(frozen=True)
class ListingPage:
    """One sheet of a listing: its titles, its columns and the rows that fit on it."""

    title: str
    section: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    number: int = 0
    of: int = 0

    @property
    def cells(self) -> list[list[tuple[str, str, Column]]]:
        """Each row's cells as (first line, the rest in small type, column)."""
        return [
            [(*_lines(value), column) for value, column in zip(row, self.columns, strict=True)] for row in self.rows
        ]


def _lines(value: str) -> tuple[str, str]:
    first, _sep, rest = value.partition("\n")
    return first, rest


def paginate(
    title: str, columns: tuple[Column, ...], sections: Iterable[tuple[str, Sequence[tuple[str, ...]]]], per_page: int
) -> list[ListingPage]:
    """The sections' rows cut into sheets of ``per_page`` rows, each sheet with its titles and the
    columns' labels again (a wall sheet is read on its own), numbered «hoja n de m»."""
    pages = [
        ListingPage(title, section, columns, tuple(rows[start : start + per_page]))
        for section, rows in sections
        for start in range(0, max(len(rows), 1), per_page)
    ]
    return [dataclasses.replace(page, number=i, of=len(pages)) for i, page in enumerate(pages, start=1)]


def _listing(pages: list[ListingPage], *, big: bool) -> Printable:
    payload = json.dumps([dataclasses.asdict(p) for p in pages], sort_keys=True, default=str)
    return Printable(
        template="scoring/print/listing.html",
        items=pages,
        context={"title": pages[0].title if pages else "", "big": big},
        digest=hashlib.sha256(payload.encode()).hexdigest(),
        key="pages",
    )


def _published_round(tournament: Tournament, number: int) -> list[Match]:
    round_ = _round(tournament, number)
    if round_.status != Round.Status.PUBLISHED:
        message = _("La ronda %(n)s no está publicada: el sorteo aún no es público.") % {"n": number}
        raise ValidationError({"round": message})
    return list(matches_with_players().filter(round=round_).order_by("table_number", "pool", "slot", "pk"))


def _pair_cell(pair: Any) -> str:
    players = ", ".join(m.player.full_name for m in pair.ordered_members())
    return f"{pair.number} · {pair.display_name}\n{players}"


def draw_tables_printable(tournament: Tournament, number: int, base_url: str) -> Printable:
    """The round's draw for the wall, by table: the two pairs of each and, last, the exenta."""
    matches = _published_round(tournament, number)
    rows = [(str(m.table_number or "—"), _pair_cell(m.pair_a), _pair_cell(m.pair_b)) for m in matches if not m.is_bye]
    rows += [(_("Exenta"), _pair_cell(m.pair_a), "") for m in matches if m.is_bye]
    columns = (Column(_("Mesa"), 12, "center"), Column(_("Pareja A"), 44), Column(_("Pareja B"), 44))
    title = _("%(t)s · ronda %(n)s · sorteo por mesas") % {"t": tournament.name, "n": number}
    return _listing(paginate(title, columns, [("", rows)], 13), big=True)


def draw_players_printable(tournament: Tournament, number: int, base_url: str) -> Printable:
    """The round's draw for the wall, by player in alphabetical order (surname, then first name, in
    the web page's Spanish order: accents and case ignored, ñ after n, `surname_key`): where each
    one sits, so a room finds its table at a glance."""
    matches = _published_round(tournament, number)
    people = []
    for m in matches:
        for pair in (m.pair_a, m.pair_b):
            if pair is None:
                continue
            where = _("Exenta") if m.is_bye else str(m.table_number or "—")
            for member in pair.ordered_members():
                player = member.player
                name = f"{player.last_name}, {player.first_name}" if player.last_name else player.first_name
                key = (surname_key(player.last_name or player.first_name), surname_key(player.first_name), pair.number)
                people.append((key, (name, where, str(pair.number))))
    rows = [row for _key, row in sorted(people, key=lambda item: item[0])]
    columns = (Column(_("Jugador"), 64), Column(_("Mesa"), 18, "center"), Column(_("Pareja n.º"), 18, "center"))
    title = _("%(t)s · ronda %(n)s · sorteo por jugadores") % {"t": tournament.name, "n": number}
    return _listing(paginate(title, columns, [("", rows)], 25), big=True)


def _sections(sheet: Sheet, section_key: str, keys: Sequence[str]) -> list[tuple[str, list[tuple[str, ...]]]]:
    """A download's table (scoring.exports) as sections of printed rows: the columns ``keys``."""
    index = {name: i for i, name in enumerate(sheet.header)}
    sections: dict[str, list[tuple[str, ...]]] = {}
    for row in sheet.rows:
        cells = []
        for key in keys:
            value = row[index[key]]
            cells.append("" if value is None else str(value))
        sections.setdefault(str(row[index[section_key]] or ""), []).append(tuple(cells))
    return list(sections.items())


def _place(rows: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Printed rows from (puesto, puesto_hasta, pareja, nombre, jugadores, *rest): «3–5» for a
    shared place, else «3»; the pair's name with its players below it, in small type."""
    out = []
    for first, last, number, name, players, *rest in rows:
        place = f"{first}–{last}" if last and last != first else first
        out.append((place, number, f"{name}\n{players}", *rest))
    return out


def standings_printable(tournament: Tournament, number: int, base_url: str) -> Printable:
    """The current standings, as the standings page and its download show them."""
    keys = ["puesto", "puesto_hasta", "pareja", "nombre", "jugadores", "puntos", "jugadas", "ganadas", "perdidas"]
    keys += ["dif_juegos", "dif_tantos", "estado"]
    sections = [(title, _place(rows)) for title, rows in _sections(standings_sheet(tournament), "tabla", keys)]
    columns = (
        Column(_("Puesto"), 8, "center"),
        Column(_("N.º"), 6, "center"),
        Column(_("Pareja"), 40),
        Column(_("Ptos."), 7, "center"),
        Column(_("J"), 5, "center"),
        Column(_("G"), 5, "center"),
        Column(_("P"), 5, "center"),
        Column(_("±J"), 6, "center"),
        Column(_("±T"), 6, "center"),
        Column(_("Estado"), 12),
    )
    title = _("%(t)s · clasificación") % {"t": tournament.name}
    return _listing(paginate(title, columns, sections, ROWS_PER_SHEET), big=False)


def classification_printable(tournament: Tournament, number: int, base_url: str) -> Printable:
    """The final classification for the prize-giving (shared places as «3–5»)."""
    keys = ("puesto", "puesto_hasta", "pareja", "nombre", "jugadores", "puntos", "detalle")
    sheet = classification_sheet(tournament)
    sections = [(title, _place(rows)) for title, rows in _sections(sheet, "seccion", keys)]
    columns = (
        Column(_("Puesto"), 10, "center"),
        Column(_("N.º"), 8, "center"),
        Column(_("Pareja"), 50),
        Column(_("Ptos."), 8, "center"),
        Column(_("Detalle"), 24),
    )
    title = _("%(t)s · clasificación final") % {"t": tournament.name}
    return _listing(paginate(title, columns, sections, ROWS_PER_SHEET), big=False)


def _bracket_printable(tournament: Tournament, paper: Paper) -> Printable:
    """The bracket as the page draws it ahead (scoring.selectors.standings.bracket), on paper."""
    view = bracket(tournament)
    if not view.applies:
        raise ValidationError({"kind": _("Este torneo no tiene cuadro: su sistema no tiene eliminatorias.")})
    if not view.tree:
        message = _("El cuadro aún no tiene partidas: se dibuja al sortear su primera ronda de eliminatoria.")
        raise ValidationError({"kind": message})
    sheets = bracket_sheets(_("%(t)s · cuadro") % {"t": tournament.name}, view.tree, paper)
    payload = json.dumps([dataclasses.asdict(s) for s in sheets], sort_keys=True, default=str)
    return Printable(
        template="scoring/print/bracket.html",
        items=sheets,
        context={"title": sheets[0].title, "paper": paper, "margin": MARGIN},
        digest=hashlib.sha256(payload.encode()).hexdigest(),
        key="sheets",
    )


def bracket_a3_printable(tournament: Tournament, number: int, base_url: str) -> Printable:
    """The bracket on A3 landscape sheets, for the wall: up to 32 first-round matches a sheet."""
    return _bracket_printable(tournament, A3_LANDSCAPE)


def bracket_a4_printable(tournament: Tournament, number: int, base_url: str) -> Printable:
    """The bracket on A4 sheets, for the mesa: up to 16 first-round matches a sheet."""
    return _bracket_printable(tournament, A4_PORTRAIT)


ROWS_PER_SHEET = 24
"""Rows of a standings sheet: each row two or three lines (a long name, its players)."""


BUILDERS: dict[str, Builder] = {
    PrintJob.Kind.ACTAS: round_actas_printable,
    PrintJob.Kind.DRAW_TABLES: draw_tables_printable,
    PrintJob.Kind.DRAW_PLAYERS: draw_players_printable,
    PrintJob.Kind.STANDINGS: standings_printable,
    PrintJob.Kind.CLASSIFICATION: classification_printable,
    PrintJob.Kind.BRACKET_A3: bracket_a3_printable,
    PrintJob.Kind.BRACKET_A4: bracket_a4_printable,
}
ROUND_KINDS = frozenset({PrintJob.Kind.ACTAS, PrintJob.Kind.DRAW_TABLES, PrintJob.Kind.DRAW_PLAYERS})
"""The documents of one round; the others are the tournament's (round 0)."""

FILENAMES: dict[str, str] = {
    PrintJob.Kind.ACTAS: "actas-ronda-{n}.pdf",
    PrintJob.Kind.DRAW_TABLES: "sorteo-ronda-{n}-mesas.pdf",
    PrintJob.Kind.DRAW_PLAYERS: "sorteo-ronda-{n}-jugadores.pdf",
    PrintJob.Kind.STANDINGS: "clasificacion.pdf",
    PrintJob.Kind.CLASSIFICATION: "clasificacion-final.pdf",
    PrintJob.Kind.BRACKET_A3: "cuadro-a3.pdf",
    PrintJob.Kind.BRACKET_A4: "cuadro-a4.pdf",
}


def printable_filename(kind: str, round_number: int = 0) -> str:
    """The name a document downloads with (the page's and the API's link): Spanish, lowercase,
    hyphenated, with its round's number where it is a round's, never an id."""
    return FILENAMES[kind].format(n=round_number)


def acta_filename(match: Match) -> str:
    """One partida's acta: «acta-ronda-2-mesa-8.pdf»; a partida without a table (a walkover of a
    fixed round) is named by its pairs' numbers, «acta-ronda-2-parejas-3-y-5.pdf», never by an id."""
    if match.table_number:
        where = f"mesa-{match.table_number}"
    else:
        where = "parejas-" + "-y-".join(str(pair.number) for pair in (match.pair_a, match.pair_b) if pair)
    return f"acta-ronda-{match.round.number}-{where}.pdf"
