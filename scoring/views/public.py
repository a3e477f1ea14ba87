"""Public pages, phone first and live (static/js/live.js swaps <main> when a result arrives): the
results of each round, the standings of the tournament's format, the bracket and the final
classification; and their CSV exports.

The standings, bracket and classification bodies are rendered once per tournament signature
(scoring.selectors.signature) and cached: after each result every phone in the room asks for the
page again, and all but the first get the cached body.
"""

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from scoring import exports, selectors
from scoring.views import render as html
from torneo.models import Round
from torneo.permissions import Action, can
from torneo.views.access import tournament_for

_MARK = "<!--scoring:body-->"


def _body(kind: str, sig: str, template: str, build: Callable[[], dict[str, Any]]) -> bytes:
    """The page's body, rendered once per signature and kept as UTF-8 bytes."""
    return selectors.cached(f"{kind}-html", sig, lambda: render_to_string(template, build()).encode())


def _page(request: HttpRequest, template: str, context: dict[str, Any], body: bytes) -> HttpResponse:
    """Render the (small, per-user) page around the cached body and splice the bytes in: a body of
    a thousand rows is never re-escaped, joined or encoded again."""
    page = render_to_string(template, {**context, "body": mark_safe(_MARK)}, request=request)
    head, _mark, tail = page.partition(_MARK)
    return HttpResponse(b"".join((head.encode(), body, tail.encode())))


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
    """A live public page whose body is computed and rendered once per tournament signature."""
    tournament = tournament_for(request, slug)
    sig = selectors.signature(tournament)

    def body() -> dict[str, Any]:
        return context(tournament, selectors.cached(kind, sig, lambda: build(tournament)))

    content = _body(kind, sig, f"scoring/_{kind}_body.html", body)
    return _page(request, f"scoring/{kind}.html", {"tournament": tournament}, content)


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
