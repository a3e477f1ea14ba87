"""Printables as PDF: a partida's acta (AMM 3.16) for the mesa de control and the jueces. Thin:
scoring.selectors.actas gathers what the acta carries, scoring.printing renders it."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse

from scoring.printing import PDF_TYPE, pdf_from_html
from scoring.selectors.actas import acta_for
from torneo.models import Match
from torneo.permissions import Action
from torneo.views.access import tournament_for


def acta_pdf(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """One partida's acta, one A4 page, with a QR code to the partida's page."""
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    match = get_object_or_404(
        Match.objects.select_related("round__tournament", "pair_a", "pair_b").prefetch_related(
            "pair_a__members__player", "pair_b__members__player"
        ),
        pk=match_id,
        round__tournament=tournament,
    )
    if match.is_bye:
        raise Http404("una exenta no tiene acta")
    url = request.build_absolute_uri(reverse("scoring:hands_match", kwargs={"slug": slug, "match_id": match.pk}))
    acta = acta_for(match, url=url)
    html = render_to_string(
        "scoring/print/acta.html", {"acta": acta, "sides": [("A", acta.pair_a), ("B", acta.pair_b)]}, request=request
    )
    response = HttpResponse(pdf_from_html(html), content_type=PDF_TYPE)
    name = f"acta-ronda-{match.round.number}-mesa-{match.table_number or match.pk}.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response
