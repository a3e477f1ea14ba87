"""CSV exports of results, standings and the final classification: UTF-8 with a BOM (so that a
spreadsheet reads the accents right), Spanish headers, one row per match or pair. Public data only
(names and results, never contact data). Every file is written by torneo.csvsafe (CSV injection)."""

from collections.abc import Iterable

from django.utils.translation import gettext as _

from scoring.selectors import standings as selectors
from torneo import csvsafe, snapshot
from torneo.models import Tournament

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


def _csv(header: list[str], rows: Iterable[list[object]]) -> str:
    return csvsafe.csv_text([header, *rows])


def results_csv(tournament: Tournament, round_number: int | None = None) -> str:
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
    return _csv(RESULT_HEADER, rows)


def standings_csv(tournament: Tournament) -> str:
    """The standings of the tournament's format, one row per pair and table (liguilla, pool)."""
    standings = selectors.standings(tournament)
    tiebreaks = standings.value_tiebreaks
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
                    *r.values,
                    r.status_label or (_("Clasificada") if r.qualifies else ""),
                ]
            )
    return _csv(header, rows)


def classification_csv(tournament: Tournament) -> str:
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
    return _csv(header, rows)
