"""The standings pages, phone first and live (static/js/live.js swaps <main> when a result arrives):
the standings of the tournament's format, the bracket and the final classification; and the exports
of the standings and the classification (CSV, Excel's CSV or .xlsx: ?formato=, torneo.sheets).

Their bodies are rendered once per change of the tournament (torneo.pagecache): after each result
every phone in the room asks for the page again, and all but the first get the cached body.
"""

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from scoring import exports
from scoring.selectors import standings as selectors
from scoring.views import render as html
from torneo import pagecache, sheets
from torneo.views.access import tournament_for


def _cached_page(
    request: HttpRequest,
    slug: str,
    kind: str,
    build: Callable[[Any], Any],
    context: Callable[[Any, Any], dict[str, Any]],
) -> HttpResponse:
    """A live public page whose body is computed and rendered once per change (torneo.pagecache)."""
    tournament = tournament_for(request, slug)
    body = pagecache.cached_body(
        f"scoring:{kind}:{tournament.pk}",
        pagecache.tournament_stamp(tournament),
        f"scoring/_{kind}_body.html",
        lambda: context(tournament, selectors.cached(kind, tournament, lambda: build(tournament))),
    )
    return pagecache.page_with_body(request, f"scoring/{kind}.html", {"tournament": tournament}, body)


@pagecache.anonymous_page()
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    return _cached_page(request, slug, "standings", selectors.standings, _standings_context)


@pagecache.anonymous_page()
def classification(request: HttpRequest, slug: str) -> HttpResponse:
    return _cached_page(request, slug, "classification", selectors.classification, _classification_context)


@pagecache.anonymous_page()
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    return _cached_page(request, slug, "bracket", selectors.bracket, _bracket_context)


def _standings_context(tournament: Any, standings: selectors.Standings) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "standings": standings,
        "tables": [(table, html.standings_rows(table)) for table in standings.tables],
        "legend": standings_legend(standings),
    }


def standings_legend(standings: selectors.Standings) -> list[tuple[str, str, bool]]:
    """What each abbreviated column of the page's tables means: (abbreviation, meaning, secondary),
    for the columns these tables show only (a points table: points and the tournament's tiebreaks;
    an elimination format's: the juegos difference, no tiebreaks). `secondary`: a column a phone
    does not show (static/css/scoring.css), nor its line of the legend; those go last."""
    kinds = {table.kind for table in standings.tables}
    if not kinds:
        return []
    main: list[tuple[str, str]] = []
    secondary: list[tuple[str, str]] = [(_("J"), _("Jugadas")), (_("E"), _("Exentas"))]
    if "points" in kinds:
        main.append((_("Pts"), _("Puntos")))
    main += [(_("G"), _("Ganadas")), (_("P"), _("Perdidas"))]
    if "points" in kinds:
        main += [(short, long) for _key, short, long in standings.tiebreak_columns]
    if "ceros" in kinds:
        secondary.insert(0, (selectors.tiebreak_short("juegos"), selectors.tiebreak_label("juegos")))
    legend: dict[str, tuple[str, str, bool]] = {}
    for entries, is_secondary in ((main, False), (secondary, True)):
        for short, long in entries:
            legend.setdefault(short, (short, long, is_secondary))  # "G": Ganadas, also the wins tiebreak
    return list(legend.values())


def _classification_context(tournament: Any, classification: selectors.Classification) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "classification": classification,
        "sections": [(section, html.classification_rows(section.rows)) for section in classification.sections],
    }


def _bracket_context(tournament: Any, bracket: selectors.BracketView) -> dict[str, Any]:
    return {"tournament": tournament, "bracket": bracket, "trees": html.bracket_trees(bracket.tree)}


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    return sheets.download(request, exports.standings_sheet(tournament), f"clasificacion-{tournament.slug}")


def classification_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    return sheets.download(request, exports.classification_sheet(tournament), f"clasificacion-final-{tournament.slug}")
