"""The standings pages, phone first and live (static/js/live.js swaps <main> when a result arrives):
the standings of the tournament's format, the bracket and the final classification; and the CSV
exports of the standings and the classification.

Their bodies are rendered once per change of the tournament (torneo.pagecache): after each result
every phone in the room asks for the page again, and all but the first get the cached body.
"""

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from scoring import exports
from scoring.selectors import standings as selectors
from scoring.views import render as html
from scoring.views.render import csv_response
from torneo import pagecache
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


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    return _cached_page(request, slug, "standings", selectors.standings, _standings_context)


def classification(request: HttpRequest, slug: str) -> HttpResponse:
    return _cached_page(request, slug, "classification", selectors.classification, _classification_context)


def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    return _cached_page(request, slug, "bracket", selectors.bracket, _bracket_context)


def _standings_context(tournament: Any, standings: selectors.Standings) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "standings": standings,
        "tables": [(table, html.standings_rows(table)) for table in standings.tables],
    }


def _classification_context(tournament: Any, classification: selectors.Classification) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "classification": classification,
        "sections": [(section, html.classification_rows(section.rows)) for section in classification.sections],
    }


def _bracket_context(tournament: Any, bracket: selectors.BracketView) -> dict[str, Any]:
    return {"tournament": tournament, "bracket": bracket, "trees": html.bracket_trees(bracket.roots)}


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    return csv_response(exports.standings_csv(tournament), f"clasificacion-{tournament.slug}.csv")


def classification_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    return csv_response(exports.classification_csv(tournament), f"clasificacion-final-{tournament.slug}.csv")
