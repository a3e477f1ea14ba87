"""CSV import (all or nothing, errors by row and column) and export (CSV, Excel's CSV, .xlsx)."""

import csv
import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.models import Pair
from torneo.services.registrations import PlayerData
from torneo.services.registrations_csv import (
    CsvImportError,
    registrations_export_csv,
    registrations_import_csv,
)

pytestmark = pytest.mark.django_db

COLUMNS = ("nombre", "apellidos", "documento", "telefono", "email", "club")
HEADER = ";".join(["pareja"] + [f"{c}_{n}" for n in (1, 2) for c in COLUMNS])


def csv_bytes(*rows: str, header: str = HEADER, encoding: str = "utf-8") -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode(encoding)


def test_import_semicolon_spreadsheet_export():
    t = TournamentFactory(max_pairs=2)
    data = csv_bytes(
        "Los Amarracos;José;García Ruiz;12345678Z;600111222;jose@example.com;Peña Duples;Ana;Sanz Gil;;;;",
        ";Iñaki;Etxeberria;;;;;Koldo;Arregui;;;;",
        ";María;López;;;;;Pilar;Ortega;;;;",
    )
    report = registrations_import_csv(tournament=t, data=data)
    assert (report.created, report.waitlisted) == (3, 1)
    pair = Pair.objects.get(tournament=t, number=1)
    assert pair.name == "Los Amarracos"
    assert pair.members_label == "José García Ruiz · Ana Sanz Gil"
    assert pair.source == Pair.Source.CSV


def test_import_windows_1252_comma_file_with_loose_headers():
    t = TournamentFactory()
    header = "Nombre Jugador 1,Apellidos Jugador 1,DNI 1,Nombre Jugador 2,Apellidos Jugador 2,Marca temporal"
    data = csv_bytes("Begoña,Núñez,,Iñigo,Muñoz,2026-11-01", header=header, encoding="cp1252")
    registrations_import_csv(tournament=t, data=data)
    assert Pair.objects.get(tournament=t).members_label == "Begoña Núñez · Iñigo Muñoz"


def test_import_reports_every_bad_row_and_column_and_writes_nothing():
    t = TournamentFactory()
    make_pair(t, players=[player_data(1, id_document="12345678Z"), player_data(2)])
    data = csv_bytes(
        ";Ana;Sanz;;;;;Luis;Gil;;;;",  # row 2: fine
        ";Eva;;;;correo-malo;;Juan;Mora;;;;",  # row 3: no surname, bad email
        ";Pepe;Rey;12345678Z;;;;Rosa;Paz;;;;",  # row 4: already registered (document)
        "",  # blank line: ignored
        ";Ana;Sanz;;;;;Marta;Vidal;;;;",  # row 6: Ana Sanz also in row 2
    )
    with pytest.raises(CsvImportError) as exc:
        registrations_import_csv(tournament=t, data=data)
    found = {(e.row, e.column) for e in exc.value.errors}
    assert found == {(3, "apellidos_1"), (3, "email_1"), (4, "nombre_1"), (6, "nombre_1")}
    texts = [str(e) for e in exc.value.errors]
    assert any(t.startswith("fila 3, columna «email_1»: Jugador 1: el correo") for t in texts)
    assert Pair.objects.filter(tournament=t).count() == 1


def test_phones_with_dashes_dots_or_spaces_are_accepted_and_written_one_way():
    """Issue 34: «634-556-677» was refused. Separators become single spaces; what is left must be
    9 to 15 digits, with a «+» in front if any."""
    t = TournamentFactory()
    data = csv_bytes(
        ";Ana;Sanz;;634-556-677;;;Luis;Gil;;634.556.678;;",
        ";Eva;Mora;;(+34) 634 55 66 79;;;Juan;Paz;;+34  600/111/222;;",
    )
    registrations_import_csv(tournament=t, data=data)
    phones = [
        m.player.phone for pair in Pair.objects.filter(tournament=t).order_by("number") for m in pair.ordered_members()
    ]
    assert phones == ["634 556 677", "634 556 678", "+34 634 55 66 79", "+34 600 111 222"]


def test_errors_name_the_columns_as_the_sheet_heads_them():
    """Issue 34: an error names «Teléfono jugador 2», the file's own header, not «telefono_2»."""
    t = TournamentFactory()
    header = (
        "Nombre jugador 1,Apellidos jugador 1,Nombre jugador 2,Apellidos jugador 2,Teléfono jugador 2,Nombre pareja"
    )
    data = csv_bytes("Ana,Sanz,Luis,Gil,12-34,Los Txikis", header=header)
    with pytest.raises(CsvImportError) as exc:
        registrations_import_csv(tournament=t, data=data)
    assert [(e.row, e.column) for e in exc.value.errors] == [(2, "Teléfono jugador 2")]
    assert "de 9 a 15 cifras" in exc.value.errors[0].message
    assert not Pair.objects.filter(tournament=t).exists()


@pytest.mark.parametrize("fmt", ["", "xlsx"])
def test_the_example_file_downloads_and_imports_as_it_is(fmt):
    """Issue 34: a downloadable example, in the columns the import reads, that imports unchanged."""
    t = TournamentFactory()
    staff = UserFactory()
    grant(staff, t, "control")
    client = Client()
    client.force_login(staff)
    url = f"/torneos/{t.slug}/gestion/importar/ejemplo/" + (f"?formato={fmt}" if fmt else "")
    response = client.get(url)
    assert response.status_code == 200
    assert "ejemplo-inscripciones" in response["Content-Disposition"]
    if fmt:
        assert openpyxl.load_workbook(io.BytesIO(response.content)).active.max_row == 3
        return
    assert Client().get(url).status_code in (302, 403, 404)  # staff only
    page = client.get(f"/torneos/{t.slug}/gestion/importar/").content.decode()
    assert f'href="/torneos/{t.slug}/gestion/importar/ejemplo/"' in page
    upload = SimpleUploadedFile("ejemplo.csv", response.content, content_type="text/csv")
    answer = client.post(f"/torneos/{t.slug}/gestion/importar/", {"file": upload})
    assert answer.status_code == 302
    pairs = Pair.objects.filter(tournament=t).order_by("number")
    assert [p.members_label for p in pairs] == ["Ana Pérez Goñi · Koldo Larrea", "Begoña Núñez · Íñigo Núñez"]
    assert pairs[0].ordered_members()[0].player.phone == "634 556 677"


def test_import_missing_required_columns():
    t = TournamentFactory()
    with pytest.raises(CsvImportError) as exc:
        registrations_import_csv(tournament=t, data=csv_bytes("Ana;Sanz", header="nombre_1;apellidos_1"))
    assert [e.column for e in exc.value.errors] == ["nombre_2", "apellidos_2"]


@pytest.mark.parametrize(("data", "fragment"), [(b"", "vacío"), (HEADER.encode() + b"\n", "ninguna pareja")])
def test_import_empty_files(data, fragment):
    with pytest.raises(CsvImportError) as exc:
        registrations_import_csv(tournament=TournamentFactory(), data=data)
    assert fragment in str(exc.value)


def test_import_a_trio_only_when_admitted_amm_5_8_e():
    header = HEADER + ";nombre_3;apellidos_3"
    row = ";A;Uno;;;;;B;Dos;;;;;C;Tres"
    with pytest.raises(CsvImportError) as exc:
        registrations_import_csv(tournament=TournamentFactory(allow_trios=False), data=csv_bytes(row, header=header))
    assert "no admite tríos" in str(exc.value)
    t = TournamentFactory(allow_trios=True)
    registrations_import_csv(tournament=t, data=csv_bytes(row, header=header))
    assert len(Pair.objects.get(tournament=t).ordered_members()) == 3


def test_export_then_import_round_trip():
    source = TournamentFactory()
    make_pair(
        source,
        players=[player_data(1, id_document="12345678Z", email="a@example.com"), player_data(2)],
        name="Pareja Uno",
    )
    make_pair(source)
    exported = registrations_export_csv(tournament=source)
    assert exported.startswith("\ufeffnumero,pareja,estado,presente")
    rows = list(csv.DictReader(io.StringIO(exported.lstrip("\ufeff"))))
    assert rows[0]["documento_1"] == "12345678Z" and rows[0]["estado"] == "Inscrita"
    target = TournamentFactory()
    registrations_import_csv(tournament=target, data=exported.encode())
    assert [p.members_label for p in Pair.objects.filter(tournament=target)] == [
        p.members_label for p in Pair.objects.filter(tournament=source)
    ]


def test_a_file_that_is_not_csv_is_a_clear_error_not_a_500():
    data = b"pareja;nombre_1\n" + b'"' + b"x" * 200_000  # one cell over the csv module's limit
    t = TournamentFactory()
    with pytest.raises(CsvImportError) as exc:
        registrations_import_csv(tournament=t, data=data)
    assert "no se puede leer como CSV" in str(exc.value)
    assert not Pair.objects.filter(tournament=t).exists()


def test_quotes_in_a_name_survive_export_and_import():
    source = TournamentFactory()
    make_pair(source, players=[player_data(1, last_name='Ruiz "el Txiki"'), player_data(2)], name='Los "Txikis"')
    target = TournamentFactory()
    registrations_import_csv(tournament=target, data=registrations_export_csv(tournament=source).encode())
    pair = Pair.objects.get(tournament=target)
    assert pair.name == 'Los "Txikis"' and pair.ordered_members()[0].player.last_name == 'Ruiz "el Txiki"'


def staff_download(tournament, query: str = ""):
    client = Client()
    client.force_login(grant(UserFactory(), tournament, "organizer"))
    return client.get(f"/torneos/{tournament.slug}/gestion/exportar.csv{query}")


def test_export_carries_the_pair_number_first_and_the_import_ignores_it():
    source = TournamentFactory()
    first = make_pair(source, name="Los de Olite")
    second = make_pair(source)
    rows = list(csv.DictReader(io.StringIO(registrations_export_csv(tournament=source).lstrip("\ufeff"))))
    assert list(rows[0])[:3] == ["numero", "pareja", "estado"]
    assert [(r["numero"], r["pareja"]) for r in rows] == [(str(first.number), "Los de Olite"), (str(second.number), "")]
    target = TournamentFactory()
    registrations_import_csv(tournament=target, data=registrations_export_csv(tournament=source).encode())
    assert [p.name for p in Pair.objects.filter(tournament=target).order_by("number")] == ["Los de Olite", ""]


def test_export_for_spanish_excel_is_semicolon_separated_and_imports_back():
    source = TournamentFactory(allow_trios=True)
    make_pair(source, players=[player_data(1, phone="+34 600 111 222"), player_data(2), player_data(3)], name="Á;ñ")
    response = staff_download(source, "?formato=excel")
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="inscripciones-{source.slug}-excel.csv"' in response["Content-Disposition"]
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeffnumero;pareja;estado;presente;inscrita_el;origen;nombre_1;")
    rows = list(csv.reader(io.StringIO(body[1:], newline=""), delimiter=";"))
    assert {len(r) for r in rows} == {len(rows[0])} == {6 + 3 * 6}
    assert rows[1][:2] == ["1", "Á;ñ"] and "'+34 600 111 222" in rows[1]  # a text starting with '+': quoted
    target = TournamentFactory(allow_trios=True)
    registrations_import_csv(tournament=target, data=response.content)
    pair = Pair.objects.get(tournament=target)
    assert pair.name == "Á;ñ" and pair.ordered_members()[0].player.phone == "+34 600 111 222"


def test_export_as_xlsx_has_the_same_cells_with_numbers_as_numbers():
    source = TournamentFactory()
    make_pair(source, players=[player_data(1, phone="+34 600 111 222"), player_data(2)], name="=1+1")
    plain = list(csv.reader(io.StringIO(registrations_export_csv(tournament=source).lstrip("\ufeff"))))
    response = staff_download(source, "?formato=xlsx")
    assert response.status_code == 200
    assert f'filename="inscripciones-{source.slug}.xlsx"' in response["Content-Disposition"]
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    cells = [["" if v is None else v for v in row] for row in sheet.iter_rows(values_only=True)]
    assert cells[0] == plain[0] and sheet.title == "Inscripciones"
    number, name = cells[1][:2]
    assert number == 1 and name == "=1+1" and sheet["B2"].data_type == "s"  # text, never a formula
    assert "+34 600 111 222" in cells[1]  # no quote needed in a typed cell
    assert staff_download(source, "?formato=ods").status_code == 404


def test_a_person_in_the_file_and_already_registered_is_refused_naming_the_pair():
    t = TournamentFactory()
    make_pair(t, players=[PlayerData("Pepe", "Rey", id_document="12345678Z"), PlayerData("Rosa", "Paz")])
    data = csv_bytes(
        ";Ana;Sanz;;;;;Luis;Gil;;;;",  # row 2
        ";José;Rey;12345678Z;;;;Marta;Vidal;;;;",  # row 3: the document of pair 1's Pepe Rey
        "",
        ";Eva;Mora;;;;;ana;sanz;;;;",  # row 5: Ana Sanz is in row 2
    )
    with pytest.raises(CsvImportError) as exc:
        registrations_import_csv(tournament=t, data=data)
    texts = [str(e) for e in exc.value.errors]
    assert texts == [
        "fila 3, columna «nombre_1»: Jugador 1: José Rey ya está inscrito en la pareja 1: Pepe Rey · Rosa Paz "
        "(mismo documento).",
        "fila 5, columna «nombre_2»: Jugador 2: ana sanz ya figura en la pareja de la fila 2: Ana Sanz · Luis Gil "
        "(mismo nombre). Si es otra persona con el mismo nombre, indica su documento.",
    ]


@pytest.mark.parametrize(
    ("rows", "max_pairs", "message"),
    [
        (1, None, "Importada 1 pareja."),
        (3, None, "Importadas 3 parejas."),
        (3, 2, "Importadas 3 parejas. 1 queda en lista de espera."),
        (4, 1, "Importadas 4 parejas. 3 quedan en lista de espera."),
    ],
)
def test_the_import_page_says_how_many_pairs_with_the_right_plural(rows, max_pairs, message):
    t = TournamentFactory(max_pairs=max_pairs)
    client = Client()
    client.force_login(grant(UserFactory(), t, "control"))
    data = csv_bytes(*(f";Nombre{i};Apellido{i};;;;;Otro{i};Segundo{i};;;;" for i in range(rows)))
    response = client.post(f"/torneos/{t.slug}/gestion/importar/", {"file": SimpleUploadedFile("p.csv", data)})
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert message in html
