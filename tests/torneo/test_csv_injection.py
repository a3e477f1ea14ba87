"""CSV (formula) injection: a registrant types '=HYPERLINK(...)' as a name on the public form; no
CSV the site produces (the staff's registrations export, the public results and standings) may hand
it to a spreadsheet as a formula. Text cells starting with = + - @ tab or CR get a leading quote
(OWASP); numbers written by the code (a tantos difference of -12) stay numbers; the registrations
import takes the quote off again, so export -> import gives back the original text."""

import csv
import io
import re

import pytest
from django.db.models import F
from django.test import Client

from tests.factories import TournamentFactory, UserFactory, grant
from tests.torneo.simulation import new_tournament
from torneo import csvsafe
from torneo.models import Pair, Player, Tournament
from torneo.services.registrations import pair_check_in
from torneo.services.registrations_csv import registrations_export_csv, registrations_import_csv

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://evil","x")'
# What a registrant can type and what survives the form (the form and the service collapse
# whitespace, so a leading tab or carriage return never gets through them: see the planted test).
TYPED = [HYPERLINK, "+1+1", "-2+3", "@SUM(1)"]
PAYLOADS = [*TYPED, "\tx", "\rx"]
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?\d+(\.\d+)?")  # a number the code wrote as a number: not user text
SCORING_CSVS = (
    "resultados/resultados.csv",
    "resultados/ronda-1.csv",
    "clasificacion/clasificacion.csv",
    "clasificacion/final.csv",
)


def register_publicly(tournament: Tournament, index: int, payload: str) -> None:
    """The attack: the public registration form, as anyone can post it."""
    response = Client().post(
        f"/torneos/{tournament.slug}/inscripcion/",
        {
            "name": payload,
            "p1_first_name": payload,
            "p1_last_name": f"Uno {index}",
            "p1_club": payload,
            "p2_first_name": f"Dos {index}",
            "p2_last_name": payload,
            "p2_phone": "+34 600 111 222",  # a legitimate text starting with '+': quoted too
        },
    )
    assert response.status_code == 302, response.content.decode()


def cells(body: str) -> list[list[str]]:
    assert body.startswith(csvsafe.BOM)
    return list(csv.reader(io.StringIO(body[1:])))


def assert_no_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(DANGEROUS) or NUMBER.fullmatch(cell), (cell, row)


def download(client: Client, url: str) -> list[dict[str, str]]:
    response = client.get(url)
    assert response.status_code == 200, url
    body = response.content.decode("utf-8")
    assert_no_formula(cells(body))
    return list(csv.DictReader(io.StringIO(body[1:])))


def staff_client(tournament: Tournament) -> Client:
    client = Client()
    client.force_login(grant(UserFactory(), tournament, "organizer"))
    return client


def played_tournament_with_attackers(planted: dict[int, str] | None = None) -> Tournament:
    """A Swiss of six pairs, four registered through the public form with the payloads, played to
    the end; `planted` then writes raw names straight into the database (pair index -> text)."""
    sim = new_tournament(2, seed=5, format=Tournament.Format.SWISS, swiss_rounds=2)
    for index, payload in enumerate(TYPED):
        register_publicly(sim.tournament, index, payload)
    pairs = list(Pair.objects.filter(tournament=sim.tournament).order_by("number"))
    assert {p.source for p in pairs[2:]} == {Pair.Source.PUBLIC_FORM}
    for index, text in (planted or {}).items():
        pair = pairs[2 + index]
        Pair.objects.filter(pk=pair.pk).update(name=text, version=F("version") + 1)
        Player.objects.filter(pk=pair.ordered_members()[0].player_id).update(first_name=text)
    for pair in pairs:
        pair_check_in(pair=pair)
    sim.play_all()
    return sim.tournament


def test_helper_quotes_dangerous_text_and_leaves_numbers_alone():
    for payload in PAYLOADS:
        assert csvsafe.neutralize(payload) == "'" + payload
        assert csvsafe.unneutralize("'" + payload) == payload
    assert [csvsafe.neutralize(v) for v in (-12, 3.5, 0, None, "Los Txikis", "a=b", "12")] == [
        -12,
        3.5,
        0,
        "",
        "Los Txikis",
        "a=b",
        "12",
    ]
    assert csvsafe.neutralize("-12") == "'-12"  # text that looks like a number is still text
    assert [csvsafe.unneutralize(c) for c in ("'Chus", "O'Brien", "'", "")] == ["'Chus", "O'Brien", "'", ""]
    text = csvsafe.csv_text([["nombre", "dif"], [HYPERLINK, -12], ["\tx", 7]])
    assert cells(text) == [["nombre", "dif"], ["'" + HYPERLINK, "-12"], ["'\tx", "7"]]


def test_registrations_export_quotes_what_the_public_form_planted():
    t = TournamentFactory()
    for index, payload in enumerate(PAYLOADS):
        register_publicly(t, index, payload)
    rows = download(staff_client(t), f"/torneos/{t.slug}/gestion/exportar.csv")
    assert len(rows) == len(PAYLOADS)
    for index, payload in enumerate(TYPED):
        row = rows[index]
        quoted = "'" + payload
        assert (row["pareja"], row["nombre_1"], row["club_1"], row["apellidos_2"]) == (quoted,) * 4
        assert row["apellidos_1"] == f"Uno {index}" and row["telefono_2"] == "'+34 600 111 222"
    # A leading tab or carriage return is whitespace to the form: the name arrives as plain 'x'.
    assert [(r["pareja"], r["nombre_1"]) for r in rows[len(TYPED) :]] == [("x", "x"), ("x", "x")]


def test_registrations_export_then_import_gives_back_the_original_text():
    # Not HYPERLINK: the importer reads any '"' inside a cell wrongly (it sniffs the header line, so
    # its dialect has doublequote=False); that is older than, and separate from, the quoting here.
    typed = ["=1+1", "+1+1", "-2+3", "@SUM(1)"]
    source = TournamentFactory()
    for index, payload in enumerate(typed):
        register_publicly(source, index, payload)
    exported = registrations_export_csv(tournament=source)
    assert all(f",'{p},Inscrita," in exported for p in typed)  # quoted in the file (after the pair number)
    target = TournamentFactory()
    registrations_import_csv(tournament=target, data=exported.encode())
    imported = Pair.objects.filter(tournament=target).order_by("number")
    assert [p.name for p in imported] == typed
    players = [m.player for p in imported for m in p.ordered_members()]
    assert [p.first_name for p in players[::2]] == typed and [p.last_name for p in players[1::2]] == typed
    assert {p.phone for p in players[1::2]} == {"+34 600 111 222"}
    assert [p.members_label for p in imported] == [
        p.members_label for p in Pair.objects.filter(tournament=source).order_by("number")
    ]


def test_import_takes_off_only_a_quote_before_a_formula_character():
    t = TournamentFactory()
    data = (
        "pareja;nombre_1;apellidos_1;club_1;nombre_2;apellidos_2\n"
        "'=1+1;'@Ana;'-Sanz;'+Peña;'Chus;O'Brien\n"
        "'Los de arriba; '-Luis ;Gil;;Eva;Mora\n"
    ).encode()
    registrations_import_csv(tournament=t, data=data)
    first, second = Pair.objects.filter(tournament=t).order_by("number")
    one, two = (m.player for m in first.ordered_members())
    assert (first.name, one.first_name, one.last_name, one.club) == ("=1+1", "@Ana", "-Sanz", "+Peña")
    assert (two.first_name, two.last_name) == ("'Chus", "O'Brien")  # an apostrophe of the text stays
    assert (second.name, second.ordered_members()[0].player.first_name) == ("'Los de arriba", "-Luis")


def test_public_results_and_standings_csvs_quote_the_names_but_keep_negative_numbers():
    tournament = played_tournament_with_attackers()
    client = Client()
    by_path = {path: download(client, f"/torneos/{tournament.slug}/{path}") for path in SCORING_CSVS}
    quoted = {"'" + p for p in TYPED}
    for path in ("resultados/resultados.csv", "resultados/ronda-1.csv"):
        names = {r["nombre_a"] for r in by_path[path]} | {r["nombre_b"] for r in by_path[path]}
        assert quoted <= names, path
        players = {r["jugadores_a"] for r in by_path[path]} | {r["jugadores_b"] for r in by_path[path]}
        assert {f"'{p} Uno {i} · Dos {i} {p}" for i, p in enumerate(TYPED)} <= players, path
    for path in ("clasificacion/clasificacion.csv", "clasificacion/final.csv"):
        assert quoted <= {r["nombre"] for r in by_path[path]}, path
    standings = by_path["clasificacion/clasificacion.csv"]
    assert any(r["dif_juegos"].startswith("-") for r in standings)  # a number: no quote
    assert all(NUMBER.fullmatch(r["dif_juegos"]) and NUMBER.fullmatch(r["dif_tantos"]) for r in standings)


def test_every_csv_quotes_a_leading_tab_or_carriage_return_planted_in_the_database():
    """Defence in depth: the form strips them, but data written by another path (the admin, an old
    import, a future API) goes through the same writer."""
    tournament = played_tournament_with_attackers(planted={0: "\tx", 1: "\rx"})
    client = Client()
    for path in SCORING_CSVS:
        rows = download(client, f"/torneos/{tournament.slug}/{path}")
        names = {v for r in rows for k, v in r.items() if k.startswith("nombre")}
        assert {"'\tx", "'\rx"} <= names, path
    rows = download(staff_client(tournament), f"/torneos/{tournament.slug}/gestion/exportar.csv")
    assert {"'\tx", "'\rx"} <= {r["pareja"] for r in rows} and {"'\tx", "'\rx"} <= {r["nombre_1"] for r in rows}
