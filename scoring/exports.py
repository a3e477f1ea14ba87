"""The tables of the exports of results, standings and the final classification: Spanish headers,
one row per match or pair, every row as wide as its header. Public data only (names and results,
never contact data). torneo.sheets writes them as CSV, Excel's CSV or .xlsx (?formato=), every
text cell safe against CSV injection (torneo.csvsafe)."""

from django.utils.translation import gettext as _

from scoring.selectors import standings as selectors
from torneo import snapshot
from torneo.models import Tournament
from torneo.sheets import Sheet

RESULT_HEADER = [
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


def results_sheet(tournament: Tournament, round_number: int | None = None) -> Sheet:
    """Every match of the published rounds (or of one round), with its result; exentas included."""
    data = snapshot.load(tournament)
    matches = [m for m in data.matches if round_number is None or m.round_number == round_number]
    rows = []
    for m in matches:
        winner = m.winner if m.winner is not None else ""
        rows.append(
            [
                m.round_number,
                m.pool,
                m.table,
                m.a.number,
                m.a.name,
                m.a.players,
                m.b.number if m.b else "",
                m.b.name if m.b else _("exenta"),
                m.b.players if m.b else "",
                m.outcome_label,
                m.games_a,
                m.games_b,
                m.tantos_a,
                m.tantos_b,
                winner,
                m.version,
            ]
        )
    return Sheet(RESULT_HEADER, rows, _("Resultados"))


# The name scoring.views.results calls (scoring.views.render.csv_response sends the sheet).
results_csv = results_sheet


def standings_sheet(tournament: Tournament) -> Sheet:
    """The standings of the tournament's format, one row per pair and table (liguilla, pool). The
    tiebreak columns are those the standings page shows: a points table's (Swiss, liguillas); an
    elimination format's tables have none (their order is the round of elimination)."""
    standings = selectors.standings(tournament)
    points = any(table.kind == "points" for table in standings.tables)
    tiebreaks = standings.value_tiebreaks if points else []
    header = [
        "tabla",
        "puesto",
        "puesto_hasta",
        "pareja",
        "nombre",
        "jugadores",
        "puntos",
        "jugadas",
        "ganadas",
        "perdidas",
        "exentas",
        "dif_juegos",
        "dif_tantos",
        *[f"desempate_{t}" for t in tiebreaks],
        "estado",
    ]
    rows = []
    for table in standings.tables:
        for r in table.rows:
            rows.append(
                [
                    table.title,
                    r.position,
                    r.position_to,
                    r.pair.number,
                    r.pair.name,
                    r.pair.players,
                    r.points,
                    r.played,
                    r.wins,
                    r.losses,
                    r.byes,
                    r.juegos_diff,
                    r.tantos_diff,
                    *_padded(r.values, len(tiebreaks)),
                    r.status_label or (_("Clasificada") if r.qualifies else ""),
                ]
            )
    return Sheet(header, rows, _("Clasificación"))


def _padded(values: list[int | None], width: int) -> list[int | None]:
    """A row's tiebreak values, as many as the header has tiebreak columns (blank when missing)."""
    return [*values[:width], *[None] * (width - len(values))]


def classification_sheet(tournament: Tournament) -> Sheet:
    """The final classification (positions shared when tied: puesto and puesto_hasta)."""
    result = selectors.classification(tournament)
    header = ["seccion", "puesto", "puesto_hasta", "pareja", "nombre", "jugadores", "puntos", "detalle"]
    rows = []
    for section in result.sections:
        for r in section.rows:
            rows.append(
                [
                    section.title,
                    r.position,
                    r.position_to,
                    r.pair.number,
                    r.pair.name,
                    r.pair.players,
                    r.points,
                    r.status_label,
                ]
            )
    for pair in result.excluded:
        rows.append(["", "", "", pair.number, pair.name, pair.players, "", _("Expulsada: no se clasifica")])
    return Sheet(header, rows, _("Clasificación final"))
