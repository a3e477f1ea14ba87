"""Exports of results (per round and all), standings, the final classification and the registrations:
UTF-8 with a BOM, Spanish headers, public data only (but the staff's registrations); each as CSV,
as Excel's CSV (?formato=excel: ';') and as .xlsx (?formato=xlsx), every row as wide as its header."""

import csv
import io

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from scoring.services.results import result_submit
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Pair, Tournament
from torneo.sheets import XLSX_TYPE as XLSX
from torneo.sheets import Sheet

pytestmark = pytest.mark.django_db


def read(response) -> list[dict[str, str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")  # the BOM: spreadsheets then read the accents right
    return list(csv.DictReader(io.StringIO(body[1:])))


def test_results_csv_per_round_and_for_all_rounds_with_exentas():
    sim = new_tournament(5, seed=31, format=Tournament.Format.CEROS, max_losses=2)
    first = publish_next_round(sim)
    a, b = playing(first)
    result_submit(match=a, by=sim.organizer, games_a=3, games_b=1, tantos=[[40, 2], [40, 3], [1, 40], [40, 39]])
    result_submit(match=b, by=sim.organizer, outcome="walkover", winner=b.pair_b)
    publish_next_round(sim)
    client = Client()
    response = client.get(f"/torneos/{sim.tournament.slug}/resultados/ronda-1.csv")
    assert 'filename="resultados-' in response["Content-Disposition"]
    rows = read(response)
    assert list(rows[0]) == [
        "ronda",
        "grupo",
        "mesa",
        "pareja_a",
        "nombre_a",
        "jugadores_a",
        "pareja_b",
        "nombre_b",
        "jugadores_b",
        "resultado",
        "juegos_a",
        "juegos_b",
        "tantos_a",
        "tantos_b",
        "ganadora",
        "version",
    ]
    assert len(rows) == 3
    played = next(r for r in rows if r["mesa"] == str(a.table_number))
    assert (played["resultado"], played["juegos_a"], played["juegos_b"], played["tantos_a"], played["tantos_b"]) == (
        "Jugada",
        "3",
        "1",
        "121",
        "84",
    )
    assert played["ganadora"] == str(a.pair_a.number) and played["jugadores_a"] == a.pair_a.members_label
    walkover = next(r for r in rows if r["mesa"] == str(b.table_number))
    assert (walkover["resultado"], walkover["ganadora"]) == ("Incomparecencia", str(b.pair_b.number))
    exenta = next(r for r in rows if r["mesa"] == "")
    assert (exenta["nombre_b"], exenta["resultado"]) == ("exenta", "Exenta")
    everything = read(client.get(f"/torneos/{sim.tournament.slug}/resultados/resultados.csv"))
    assert {r["ronda"] for r in everything} == {"1", "2"}
    assert client.get(f"/torneos/{sim.tournament.slug}/resultados/ronda-9.csv").status_code == 404


def test_standings_csv_has_the_tiebreak_columns_in_the_tournaments_order():
    sim = new_tournament(6, seed=32, format=Tournament.Format.SWISS, swiss_rounds=2, tiebreaks="buchholz,juegos")
    sim.play_all()
    rows = read(Client().get(f"/torneos/{sim.tournament.slug}/clasificacion/clasificacion.csv"))
    assert list(rows[0])[-3:] == ["desempate_buchholz", "desempate_juegos", "estado"]
    assert len(rows) == 6 and rows[0]["puesto"] == "1"
    assert sum(int(r["ganadas"]) for r in rows) == 6  # three matches a round, two rounds
    assert "telefono" not in ",".join(rows[0]) and "@" not in str(rows)


def test_classification_csv_shows_shared_places():
    sim = new_tournament(4, seed=33, format=Tournament.Format.CEROS, max_losses=1, tiebreaks="wins")
    for m in playing(publish_next_round(sim)):
        result_submit(match=m, by=sim.organizer, games_a=3, games_b=0)
    (final,) = playing(publish_next_round(sim))
    result_submit(match=final, by=sim.organizer, games_a=0, games_b=3)
    rows = read(Client().get(f"/torneos/{sim.tournament.slug}/clasificacion/final.csv"))
    assert [(r["puesto"], r["puesto_hasta"]) for r in rows] == [("1", "1"), ("2", "2"), ("3", "4"), ("3", "4")]
    assert rows[0]["pareja"] == str(final.pair_b.number) and rows[0]["detalle"] == "Campeona"


def test_exports_of_a_draft_tournament_are_hidden():
    sim = new_tournament(2, seed=1, status=Tournament.Status.DRAFT)
    for path in ("resultados/resultados.csv", "clasificacion/clasificacion.csv", "clasificacion/final.csv"):
        assert Client().get(f"/torneos/{sim.tournament.slug}/{path}").status_code == 404


# --- every export, every format: as wide as its header, in the format asked for ------------------------

FORMATS = {
    "swiss": {"format": Tournament.Format.SWISS, "swiss_rounds": 2},
    "ceros": {"format": Tournament.Format.CEROS, "max_losses": 2},  # the default tiebreaks: three columns
    "repesca": {"format": Tournament.Format.REPESCA, "max_losses": 2},
    "liguillas": {"format": Tournament.Format.LIGUILLAS, "group_count": 2, "group_qualifiers": 2},
}
PUBLIC_EXPORTS = (
    "resultados/resultados.csv",
    "resultados/ronda-1.csv",
    "clasificacion/clasificacion.csv",
    "clasificacion/final.csv",
)


def staff(tournament: Tournament) -> Client:
    client = Client()
    client.force_login(grant(UserFactory(), tournament, "organizer"))
    return client


def every_export(tournament: Tournament) -> list[tuple[Client, str]]:
    """Every table the site offers for download (grep csv_response / torneo.sheets), by its address."""
    public = [(Client(), f"/torneos/{tournament.slug}/{path}") for path in PUBLIC_EXPORTS]
    return [*public, (staff(tournament), f"/torneos/{tournament.slug}/gestion/exportar.csv")]


def table_of(response, fmt: str) -> list[list[object]]:
    """The cells of a download, header first, whatever its format."""
    assert response.status_code == 200
    disposition = response["Content-Disposition"]
    if fmt == "xlsx":
        assert response["Content-Type"] == XLSX and disposition.endswith('.xlsx"')
        book = openpyxl.load_workbook(io.BytesIO(response.content))
        return [list(row) for row in book.active.iter_rows(values_only=True)]
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    if fmt == "excel":
        assert disposition.endswith('-excel.csv"') and "\r\n" in body
        return list(csv.reader(io.StringIO(body[1:], newline=""), delimiter=";"))
    assert disposition.endswith('.csv"') and not disposition.endswith('-excel.csv"')
    return list(csv.reader(io.StringIO(body[1:])))


@pytest.mark.parametrize("fmt", ["csv", "excel", "xlsx"])
@pytest.mark.parametrize("fields", FORMATS.values(), ids=FORMATS.keys())
def test_every_export_has_as_many_cells_in_each_row_as_headers(fields, fmt):
    sim = new_tournament(8, seed=34, **fields)
    sim.play_round()
    sim.play_round()
    for client, url in every_export(sim.tournament):
        query = "" if fmt == "csv" else f"?formato={fmt}"
        rows = table_of(client.get(url + query), fmt)
        header = rows[0]
        assert len(rows) > 1 and header[0] and all(isinstance(h, str) and h for h in header), url
        assert {len(row) for row in rows} == {len(header)}, (url, header, [r for r in rows if len(r) != len(header)])


def test_ceros_standings_have_no_tiebreak_columns_and_estado_under_estado():
    sim = new_tournament(8, seed=35, format=Tournament.Format.CEROS, max_losses=1)  # default tiebreaks
    sim.play_round()
    rows = read(Client().get(f"/torneos/{sim.tournament.slug}/clasificacion/clasificacion.csv"))
    assert list(rows[0])[-3:] == ["dif_juegos", "dif_tantos", "estado"]
    assert {r["estado"] for r in rows} == {"En juego", "Eliminada en la ronda 1"}
    assert all(None not in r for r in rows)  # no cell without its heading


def test_the_standings_have_the_same_cells_as_csv_excel_csv_and_xlsx():
    sim = new_tournament(6, seed=36, format=Tournament.Format.SWISS, swiss_rounds=2, tiebreaks="tantos,head_to_head")
    sim.play_all()
    url = f"/torneos/{sim.tournament.slug}/clasificacion/clasificacion.csv"
    plain = list(csv.reader(io.StringIO(Client().get(url).content.decode()[1:])))
    assert plain[0][-2:] == ["desempate_tantos", "estado"]
    excel = table_of(Client().get(url + "?formato=excel"), "excel")
    assert excel == plain  # the same cells, separated by ';'
    workbook = table_of(Client().get(url + "?formato=xlsx"), "xlsx")
    assert [[("" if v is None else str(v)) for v in row] for row in workbook] == plain
    numbers = [row[plain[0].index("dif_juegos")] for row in workbook[1:]]
    assert all(isinstance(n, int) for n in numbers) and min(numbers) < 0  # numbers, negative ones too


def test_excel_csv_is_semicolon_separated_keeps_negative_numbers_and_quotes_formulas():
    sim = new_tournament(4, seed=37, format=Tournament.Format.SWISS, swiss_rounds=1)
    Pair.objects.filter(tournament=sim.tournament, number=1).update(name='=HYPERLINK("http://x","y")')
    Pair.objects.filter(tournament=sim.tournament, number=2).update(name="Peña; «Los de Ñ»")
    sim.play_all()
    url = f"/torneos/{sim.tournament.slug}/clasificacion/clasificacion.csv?formato=excel"
    response = Client().get(url)
    assert f'filename="clasificacion-{sim.tournament.slug}-excel.csv"' in response["Content-Disposition"]
    body = response.content.decode("utf-8")
    assert body.startswith("\ufefftabla;puesto;puesto_hasta;pareja;nombre;") and "sep=" not in body
    rows = table_of(response, "excel")
    by_name = {r[4]: r for r in rows[1:]}
    assert '\'=HYPERLINK("http://x","y")' in by_name and "Peña; «Los de Ñ»" in by_name
    assert any(r[11].startswith("-") and r[11][1:].isdigit() for r in rows[1:])  # dif_juegos: a number


def test_xlsx_types_text_as_text_so_a_formula_is_never_run():
    sim = new_tournament(4, seed=38, format=Tournament.Format.SWISS, swiss_rounds=1)
    Pair.objects.filter(tournament=sim.tournament, number=1).update(name="=1+1")
    Pair.objects.filter(tournament=sim.tournament, number=2).update(name="@SUM(1)\x01")
    sim.play_all()
    response = Client().get(f"/torneos/{sim.tournament.slug}/clasificacion/final.csv?formato=xlsx")
    assert f'filename="clasificacion-final-{sim.tournament.slug}.xlsx"' in response["Content-Disposition"]
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert sheet.title == "Clasificación final" and sheet.freeze_panes == "A2" and sheet["A1"].font.b
    names = {c.value: c.data_type for c in sheet["E"][1:]}
    assert names["=1+1"] == "s" and names["@SUM(1)"] == "s"  # text as typed, no quote; the control char dropped
    assert all(c.data_type == "n" for c in sheet["B"][1:])  # puesto: a number


def test_an_unknown_format_is_not_found_and_a_misaligned_table_is_an_error():
    sim = new_tournament(2, seed=39)
    for path in (*PUBLIC_EXPORTS[:1], *PUBLIC_EXPORTS[2:]):
        assert Client().get(f"/torneos/{sim.tournament.slug}/{path}?formato=pdf").status_code == 404
    with pytest.raises(ValueError, match="row 2 has 1 cells for 2 columns"):
        Sheet(["a", "b"], [[1, 2], [3]])


def test_the_pages_link_the_csv_the_excel_csv_and_the_xlsx():
    sim = new_tournament(4, seed=40, format=Tournament.Format.SWISS, swiss_rounds=1)
    sim.play_all()
    slug = sim.tournament.slug
    pages = {"clasificacion/": "clasificacion/clasificacion.csv", "clasificacion/final/": "clasificacion/final.csv"}
    links = (("", ">CSV<"), ("?formato=excel", ">CSV para Excel<"), ("?formato=xlsx", ">Excel (.xlsx)<"))
    for page, export in pages.items():
        html = Client().get(f"/torneos/{slug}/{page}").content.decode()
        for query, label in links:
            assert f'href="/torneos/{slug}/{export}{query}"' in html, (page, query)
            assert label in html
    dashboard = staff(sim.tournament).get(f"/torneos/{slug}/gestion/").content.decode()
    for query in ("", "?formato=excel", "?formato=xlsx"):
        assert f'href="/torneos/{slug}/gestion/exportar.csv{query}"' in dashboard
    results = Client().get(f"/torneos/{slug}/resultados/").content.decode()
    for export in (reverse("scoring:results_round_csv", args=[slug, 1]), reverse("scoring:results_csv", args=[slug])):
        for query in ("", "?formato=excel", "?formato=xlsx"):
            assert f'href="{export}{query}"' in results, (export, query)
            assert Client().get(export + query).status_code == 200
