"""CSV import (all or nothing, errors by row and column) and export."""

import csv
import io

import pytest

from tests.factories import TournamentFactory, make_pair, player_data
from torneo.models import Pair
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
    assert exported.startswith("\ufeffpareja,estado,presente")
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
