"""The long repeated parts of the public pages — standings rows, classification rows, bracket nodes,
the results page's tables (the round page's: torneo/templatetags/round_rows.py) —
written in Python rather than template loops: a 1,024-pair table is ~1,000 rows of ~10 cells, which
the template engine renders in ~100 ms and these functions in a few. The page structure (headings,
table heads, notes) stays in the templates; this markup mirrors templates/scoring/_pair.html.

Also `csv_response`, how the results page sends its exports (scoring.exports) as a download: the CSV,
or with scoring.urls' `with_formats` the format its ?formato= asks for (torneo.sheets)."""

from collections.abc import Iterable
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.selectors.bracket_sheets import match_head
from scoring.selectors.standings import AheadMatch, AheadSeat, StandingsRow, StandingsTable
from torneo.sheets import Sheet, SheetResponse, sheet_response
from torneo.snapshot import MatchInfo, PairInfo


def pair_html(pair: PairInfo) -> str:
    players = f"<small>{escape(pair.players)}</small>" if pair.players and pair.players != pair.name else ""
    return (
        f'<span class="sc-pair"><span class="num">{pair.number}</span> '
        f"<strong>{escape(pair.name)}</strong>{players}</span>"
    )


def results_rows(matches: Iterable[MatchInfo], *, history: str | None = None) -> SafeString:
    """The ``<li>`` of each table of a round on the results page (templates/scoring/_results_body.html):
    573 at a 1,146-pair event, rendered again after every result. ``history``: the address of a
    table's history with ``0`` for the match's id (the staff's version of the page)."""
    before, after = history.rsplit("/0/", 1) if history is not None else ("", "")
    mesa, exenta = escape(_("Mesa")), escape(_("Exenta"))
    pendiente, historial = escape(_("pendiente")), escape(_("historial"))
    out = []
    for m in matches:
        table_no = f"{mesa} {m.table}" if m.table else "—"
        if m.pool:
            table_no += f" · {escape(m.pool)}"
        if m.is_bye:
            score = exenta
        elif m.decided:
            score = escape(m.score or "–") + (f"<small>{escape(m.outcome_label)}</small>" if m.special else "")
        else:
            score = f"<small>{pendiente}</small>"
        b = ""
        if m.b is not None:
            b = f'<span class="sc-side{" won" if m.winner_side == "b" else ""}">{pair_html(m.b)}\n</span>'
        link = ""
        if history is not None:
            link = f'<a class="sc-history" href="{escape(f"{before}/{m.id}/{after}")}">{historial}</a>'
        out.append(
            f'\n  <li class="sc-match{"" if m.decided else " pending"}" id="mesa-{m.table or ""}">\n'
            f'    <span class="sc-table-no">{table_no}</span>\n'
            f'    <span class="sc-side{" won" if m.winner_side == "a" else ""}">{pair_html(m.a)}\n</span>\n'
            f'    <span class="sc-score">{score}</span>\n'
            f"    {b}\n"
            f"    {link}\n"
            "  </li>\n  "
        )
    return mark_safe("".join(out))


def standings_rows(table: StandingsTable) -> SafeString:
    out = []
    points = table.kind == "points"
    for r in table.rows:
        classes = r.status + (" qualifies" if r.qualifies else "")
        cells = [r.position_label, pair_html(r.pair)]
        if points:
            cells.append(str(r.points))
        cells += [str(r.played), str(r.wins), str(r.losses), str(r.byes)]
        if points:
            cells += ["" if v is None else str(v) for v in r.values]
        else:
            cells += [str(r.juegos_diff), escape(r.status_label)]
        classes = f' class="{classes.strip()}"' if classes.strip() else ""
        out.append(f'<tr id="pareja-{r.pair.number}"{classes}><td>' + "</td><td>".join(cells) + "</td></tr>")
    return mark_safe("\n".join(out))


def classification_rows(rows: Iterable[StandingsRow]) -> SafeString:
    out = []
    one, many = _("%(n)d punto"), _("%(n)d puntos")
    for r in rows:
        classes = r.status + (" shared" if r.shared else "")
        detail = escape(r.status_label) + (" · " if r.status_label else "")
        points = (one if r.points == 1 else many) % {"n": r.points}
        out.append(
            f'<li id="pareja-{r.pair.number}" class="{classes.strip()}"><span class="sc-pos">{r.position_label}</span>'
            f'{pair_html(r.pair)}<span class="sc-detail">{detail}{escape(points)}</span></li>'
        )
    return mark_safe("\n".join(out))


def _side(m: MatchInfo, side: str) -> str:
    pair = m.a if side == "a" else m.b
    if pair is None:
        return f'<div class="bk-side bye">{escape(_("exenta"))}</div>'
    games = m.games_a if side == "a" else m.games_b
    state = " won" if m.winner_side == side else (" lost" if m.decided else "")
    return (
        f'<div class="bk-side{state}"><span class="num">{pair.number}</span><span class="nm">{escape(pair.name)}</span>'
        f"<b>{'' if games is None else games}</b></div>"
    )


def _ahead_side(seat: AheadSeat) -> str:
    if seat.bye:
        return f'<div class="bk-side bye">{escape(_("exenta"))}</div>'
    if seat.pair is not None:
        pair = seat.pair
        return (
            f'<div class="bk-side"><span class="num">{pair.number}</span><span class="nm">{escape(pair.name)}</span>'
            "<b></b></div>"
        )
    label = _("Ganadora de la mesa %(t)d") % {"t": seat.after_table} if seat.after_table else ""
    return f'<div class="bk-side tbd"><span class="nm">{escape(label) or "&nbsp;"}</span></div>'


def _ahead_match(m: AheadMatch, fed: bool) -> str:
    head = match_head(m.round_number, pool=m.pool, redrawn=m.redrawn)
    classes = "bk-match pending ahead" + (" fed" if fed else "")
    return f'<div class="{classes}"><div class="bk-head">{escape(head)}</div>{_ahead_side(m.a)}{_ahead_side(m.b)}</div>'


def bracket_node(node: dict[str, Any]) -> str:
    children = "".join(bracket_node(c) for c in node["children"])
    if node["match"] is None:
        match = _ahead_match(node["ahead"], bool(children))
        return (
            '<div class="bk-node">'
            + (f'<div class="bk-children">{children}</div>' if children else "")
            + match
            + "</div>"
        )
    m: MatchInfo = node["match"]
    head = match_head(m.round_number, table=m.table, pool=m.pool)
    note = f'<div class="bk-note">{escape(m.outcome_label)}</div>' if m.special else ""
    classes = "bk-match" + ("" if m.decided else " pending") + (" fed" if children else "")
    match = (
        f'<div class="{classes}"><div class="bk-head">{escape(head)}</div>{_side(m, "a")}{_side(m, "b")}{note}</div>'
    )
    return (
        '<div class="bk-node">' + (f'<div class="bk-children">{children}</div>' if children else "") + match + "</div>"
    )


def bracket_trees(roots: Iterable[dict[str, Any]]) -> SafeString:
    return mark_safe("".join(f'<div class="bk-tree">{bracket_node(n)}</div>' for n in roots))


def csv_response(sheet: Sheet, filename: str) -> SheetResponse:
    """An export (scoring.exports) as a CSV download named `filename` ("….csv")."""
    return sheet_response(sheet, filename.removesuffix(".csv"))
