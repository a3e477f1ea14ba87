"""CSV import and export of registrations: the spreadsheet an organizer already keeps.

Import is all or nothing: every row is checked (against the tournament and against the other rows)
before anything is written; if any row is wrong, nothing is written and the report names each bad
row (as the spreadsheet numbers it: the header is row 1) and column. Headers are matched loosely
('Nombre 1', 'nombre_1', 'NOMBRE JUGADOR 1', 'DNI 2' ...); ';', ',' and tab separators and
UTF-8 or Windows-1252 files (Excel's defaults in Spain) are accepted.
"""

import csv
import io
import re
from dataclasses import dataclass
from typing import Literal

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from torneo import csvsafe
from torneo.identity import normalize_name
from torneo.models import Pair, PairMember, Tournament
from torneo.services.registrations import PLAYER_FIELDS, PlayerData, RowErrors, pairs_register_many
from torneo.sheets import Sheet

MAX_ROWS = 5000
MAX_BYTES = 2_000_000

# Column name (Spanish, as exported) for each player field.
COLUMN_FOR_FIELD = {
    "first_name": "nombre",
    "last_name": "apellidos",
    "id_document": "documento",
    "phone": "telefono",
    "email": "email",
    "club": "club",
}
_ALIASES = {
    "nombre": "first_name",
    "name": "first_name",
    "first_name": "first_name",
    "apellidos": "last_name",
    "apellido": "last_name",
    "last_name": "last_name",
    "surname": "last_name",
    "documento": "id_document",
    "dni": "id_document",
    "nie": "id_document",
    "dni_nie": "id_document",
    "pasaporte": "id_document",
    "document": "id_document",
    "id_document": "id_document",
    "telefono": "phone",
    "movil": "phone",
    "phone": "phone",
    "email": "email",
    "correo": "email",
    "correo_electronico": "email",
    "e_mail": "email",
    "club": "club",
    "pena": "club",
    "club_pena": "club",
}
_PAIR_NAME_HEADERS = {"pareja", "nombre_pareja", "nombre_de_la_pareja", "pair", "equipo"}
_FIELD_LABEL = {
    "first_name": _("nombre"),
    "last_name": _("apellidos"),
    "id_document": _("documento"),
    "phone": _("teléfono"),
    "email": _("correo"),
    "club": _("club"),
}


@dataclass(frozen=True)
class RowError:
    row: int  # as the spreadsheet numbers it (header = 1)
    column: str
    message: str

    def __str__(self) -> str:
        where = _("fila %(row)d") % {"row": self.row}
        if self.column:
            where += _(", columna «%(col)s»") % {"col": self.column}
        return f"{where}: {self.message}"


class CsvImportError(Exception):
    """The file was not imported; `errors` says why, row by row."""

    def __init__(self, errors: list[RowError]) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


@dataclass(frozen=True)
class ImportReport:
    created: int
    waitlisted: int


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _header_key(header: str) -> tuple[str, int] | Literal["name"] | None:
    """'Apellidos jugador 2' -> ('last_name', 1); 'Pareja' -> 'name'; unknown -> None."""
    key = re.sub(r"[^a-z0-9]+", "_", normalize_name(header)).strip("_")
    if key in _PAIR_NAME_HEADERS:
        return "name"
    match = re.fullmatch(r"(?:jugador_?)?(\d)_?([a-z_]+?)|([a-z_]+?)_?(?:jugador_?|j_?)?(\d)", key)
    if not match:
        return None
    number = match.group(1) or match.group(4)
    word = match.group(2) or match.group(3)
    field = _ALIASES.get(word.strip("_"))
    if field is None or not number or not 1 <= int(number) <= 3:
        return None
    return field, int(number) - 1


def _column_name(field: str, index: int) -> str:
    return f"{COLUMN_FOR_FIELD[field]}_{index + 1}"


def registrations_import_csv(*, tournament: Tournament, data: bytes) -> ImportReport:
    """Register every pair in the file, or none. Raises CsvImportError with every problem."""
    if len(data) > MAX_BYTES:
        raise CsvImportError([RowError(0, "", _("El archivo es demasiado grande (máximo 2 MB)."))])
    text = _decode(data)
    if not text.strip():
        raise CsvImportError([RowError(1, "", _("El archivo está vacío."))])
    first_line = text.splitlines()[0]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(first_line, delimiters=";,\t")
    except csv.Error:
        dialect = csv.excel
    # The header line alone cannot show how quotes are escaped: spreadsheets (and our export) double
    # them («Los ""Txikis""»), which is what the sniffer cannot see and would otherwise turn off.
    dialect.doublequote = True
    try:
        rows = list(csv.reader(io.StringIO(text), dialect))
    except csv.Error:  # a NUL byte (not a text file), a cell longer than the csv module's limit
        raise CsvImportError([RowError(0, "", _("El archivo no se puede leer como CSV."))]) from None
    header, body = rows[0], rows[1:]
    columns: dict[int, tuple[str, int] | Literal["name"]] = {}
    titles: dict[tuple[str, int] | Literal["name"], str] = {}  # the file's own header of each column
    for position, title in enumerate(header):
        key = _header_key(title)
        if key is not None:
            columns[position] = key
            titles.setdefault(key, title.strip())
    present = set(columns.values())
    missing = [_column_name(f, i) for i in (0, 1) for f in ("first_name", "last_name") if (f, i) not in present]
    if missing:
        raise CsvImportError(
            [RowError(1, col, _("Falta la columna obligatoria «%(col)s».") % {"col": col}) for col in missing]
        )
    if len(body) > MAX_ROWS:
        raise CsvImportError([RowError(0, "", _("Demasiadas filas (máximo %(n)d).") % {"n": MAX_ROWS})])

    entries: list[tuple[str, list[PlayerData]]] = []
    row_numbers: list[int] = []
    for offset, row in enumerate(body):
        if not any(cell.strip() for cell in row):
            continue  # blank lines at the end of a spreadsheet
        name = ""
        values: dict[int, dict[str, str]] = {}
        for position, key in columns.items():
            # Our own export writes a text "=x" as "'=x" (CSV injection): unneutralize gives "=x" back.
            cell = csvsafe.unneutralize(row[position].strip()) if position < len(row) else ""
            if key == "name":
                name = cell
            else:
                field, index = key
                values.setdefault(index, {})[field] = cell
        players = [
            PlayerData(**{f: values[i].get(f, "") for f in PLAYER_FIELDS})
            for i in sorted(values)
            if any(values[i].values())
        ]
        entries.append((name, players))
        row_numbers.append(offset + 2)
    if not entries:
        raise CsvImportError([RowError(2, "", _("El archivo no tiene ninguna pareja."))])

    try:
        created = pairs_register_many(
            tournament=tournament,
            entries=entries,
            source=Pair.Source.CSV,
            entry_labels=[_("fila %(row)d") % {"row": row} for row in row_numbers],
        )
    except RowErrors as exc:
        errors: list[RowError] = []
        for index, by_key in sorted(exc.errors.items()):
            for field_key, messages in by_key.items():
                errors.extend(RowError(row_numbers[index], _column_for_key(field_key, titles), m) for m in messages)
        raise CsvImportError(errors) from exc
    waitlisted = sum(p.status == Pair.Status.WAITLISTED for p in created)
    return ImportReport(created=len(created), waitlisted=waitlisted)


def _column_for_key(key: str, titles: dict[tuple[str, int] | Literal["name"], str]) -> str:
    """The column of an error as the file heads it («Teléfono jugador 2»), so that the organizer
    finds it in their own sheet; our name for it when the file has no such column."""
    parts = key.split(".")
    if len(parts) == 3 and parts[0] == "players":
        field, index = parts[2], int(parts[1])
        return titles.get((field, index)) or _column_name(field, index)
    if key == "name":
        return titles.get("name") or "pareja"
    return ""


EXAMPLE_ROWS = (
    ("Los Txikis", "Ana", "Pérez Goñi", "12345678Z", "634-556-677", "ana@example.org", "Peña Zoco"),
    ("", "Koldo", "Larrea", "", "+34 600 111 222", "", "Peña Zoco"),
    ("Hermanos Núñez", "Begoña", "Núñez", "X1234567L", "634.556.678", "", ""),
    ("", "Íñigo", "Núñez", "", "", "", ""),
)


def registrations_example_sheet() -> Sheet:
    """A file to start from, in the columns the import reads: two pairs, one row each (the pair's
    name is optional; document, phone, e-mail and club too), phones written as people write them."""
    header = ["pareja"] + [_column_name(f, i) for i in (0, 1) for f in PLAYER_FIELDS]
    rows: list[list[object]] = []
    for first, second in zip(EXAMPLE_ROWS[::2], EXAMPLE_ROWS[1::2], strict=True):
        rows.append([first[0], *first[1:], *second[1:]])
    return Sheet(header, rows, _("Inscripciones"))


def registrations_export_sheet(*, tournament: Tournament) -> Sheet:
    """Every pair, by number, with its players and state, in the columns the import reads
    ("numero", "estado"... are ignored by it). torneo.sheets writes it (CSV injection included)."""
    pairs = list(
        Pair.objects.filter(tournament=tournament)
        .prefetch_related(Prefetch("members", queryset=PairMember.objects.select_related("player")))
        .order_by("registered_at", "id")
    )
    width = max([3 if tournament.allow_trios else 2] + [len(p.members.all()) for p in pairs])
    header = ["numero", "pareja", "estado", "presente", "inscrita_el", "origen"]
    for i in range(width):
        header += [_column_name(f, i) for f in PLAYER_FIELDS]
    rows: list[list[object]] = []
    for pair in pairs:
        row: list[object] = [
            pair.number,
            pair.name,
            pair.get_status_display(),
            _("sí") if pair.checked_in_at else _("no"),
            timezone.localtime(pair.registered_at).strftime("%Y-%m-%d %H:%M"),
            pair.get_source_display(),
        ]
        members = pair.ordered_members()
        for i in range(width):
            player = members[i].player if i < len(members) else None
            row += [getattr(player, f) if player else "" for f in PLAYER_FIELDS]
        rows.append(row)
    return Sheet(header, rows, _("Inscripciones"))


def registrations_export_csv(*, tournament: Tournament) -> str:
    """The registrations export as CSV text (comma separated, BOM first): what the import reads back."""
    return registrations_export_sheet(tournament=tournament).csv()
