"""The circuit's ranking as a download (torneo.sheets: CSV, Excel's CSV, xlsx): one row per pair
or player, its position, points, tournaments played and the place and points of each tournament
(blank where it did not play; a discarded result in brackets)."""

from django.utils.translation import gettext as _

from circuits.selectors import CircuitRanking, Row
from torneo.sheets import Sheet


def ranking_sheet(ranking: CircuitRanking, *, players: bool) -> Sheet:
    names = [e.tournament.name for e in ranking.events]
    header = ["puesto", "jugador" if players else "pareja", "pareja" if players else "jugadores", "puntos", "torneos"]
    header += names
    if not players:
        header.append("final")
    rows: list[list[object]] = []
    for row in ranking.players if players else ranking.pairs:
        cells: list[object] = [row.position, row.name, row.detail, row.points, row.played]
        cells += _per_event(row, len(names))
        if not players:
            cells.append(_("sí") if row.qualifies else "")
        rows.append(cells)
    return Sheet(header, rows, title=_("Jugadores") if players else _("Parejas"))


def _per_event(row: Row, count: int) -> list[object]:
    cells: list[object] = [""] * count
    for result in row.counted:
        cells[result.event] = f"{result.place}.º · {result.points:g}"
    for result in row.discarded:
        cells[result.event] = f"({result.place}.º · {result.points:g})"
    return cells
