"""Public pages, phone first and live (static/js/live.js swaps <main> when a result arrives): the
results of each round, the standings of the tournament's format, the bracket and the final
classification; and their CSV exports.

The standings, bracket and classification bodies are rendered once per change of the tournament
(torneo.pagecache): after each result every phone in the room asks for the page again, and all
but the first get the cached body.
"""

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from scoring import exports, selectors
from scoring.views import render as html
from torneo import pagecache
from torneo.models import Round
from torneo.permissions import Action, can
from torneo.views.access import tournament_for


def results(request: HttpRequest, slug: str) -> HttpResponse:
    """The results of one round (the current one by default), by table."""
    tournament = tournament_for(request, slug)
    rounds = selectors.published_rounds(tournament)
    number = request.GET.get("ronda", "")
    round_ = rounds[-1] if rounds else None
    if number:
        if not number.isdigit():
            raise Http404
        round_ = next((r for r in rounds if r.number == int(number)), None)
        if round_ is None:
            raise Http404
    matches = selectors.round_matches(round_) if round_ else []
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "round": round_,
        "matches": matches,
        "decided": sum(1 for m in matches if m.decided),
        "is_staff": can(request.user, tournament, Action.VIEW_PRIVATE),
    }
    return render(request, "scoring/results.html", context)


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


def _csv(content: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def results_csv(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    tournament = tournament_for(request, slug)
    if (
        number is not None
        and not Round.objects.filter(tournament=tournament, number=number, status=Round.Status.PUBLISHED).exists()
    ):
        raise Http404
    name = f"resultados-{tournament.slug}" + (f"-ronda-{number}" if number is not None else "") + ".csv"
    return _csv(exports.results_csv(tournament, number), name)


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    return _csv(exports.standings_csv(tournament), f"clasificacion-{tournament.slug}.csv")


def classification_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    return _csv(exports.classification_csv(tournament), f"clasificacion-final-{tournament.slug}.csv")
