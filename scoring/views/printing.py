"""Printables as PDF for the mesa de control and the jueces: a partida's acta (AMM 3.16), a round's
actas in one PDF built by a worker with a progress bar, blank actas. Thin: scoring.selectors.actas
and scoring.selectors.printables gather what is printed, scoring.services.printing queues and runs
the jobs, scoring.printing renders. Staff only (VIEW_PRIVATE): a PDF costs the server seconds."""

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.models import PrintJob
from scoring.printing import PDF_TYPE, pdf_from_html, pdf_of_sheets
from scoring.selectors.actas import acta_for, acta_frame, blank_actas, qr_png
from scoring.selectors.hands import matches_with_players
from scoring.selectors.printables import acta_filename, printable_filename
from scoring.selectors.standings import bracket_applies
from scoring.services.printing import printable_request
from torneo.errors import NotAllowed
from torneo.models import Round
from torneo.numbers import parse_int
from torneo.permissions import Action, can
from torneo.services.terminals import terminal_url, terminals_for_cards
from torneo.views.access import tournament_for

BLANK_MAX = 50


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=PDF_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_GET
def acta_pdf(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """One partida's acta, one A4 page, with a QR code to the partida's page."""
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    match = get_object_or_404(matches_with_players(), pk=match_id, round__tournament=tournament)
    if match.is_bye:
        raise Http404("una exenta no tiene acta")
    # The site's configured address, never the request's Host (scoring.services.printing).
    url = settings.SITE_URL + reverse("scoring:hands_match", kwargs={"slug": slug, "match_id": match.pk})
    html = render_to_string("scoring/print/acta.html", {"acta": acta_for(match, url=url)}, request=request)
    return _pdf(pdf_from_html(html), acta_filename(match))


@require_GET
def blank_actas_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """Blank actas with the tournament's terms, for manual use (``?n=``: how many, 1 to 50)."""
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    count = parse_int(request.GET.get("n", "1"), low=1, high=BLANK_MAX)
    if count is None:
        messages.error(request, _("Actas en blanco: indica un número entre 1 y %(m)d.") % {"m": BLANK_MAX})
        return redirect("scoring:printables", slug=slug)
    blanks = blank_actas(tournament, count=count)
    pdf, _pages = pdf_of_sheets(
        "scoring/print/actas.html", blanks, context={"title": _("Actas en blanco")}, frame=acta_frame(blanks)
    )
    return _pdf(pdf, f"actas-en-blanco-{count}.pdf")


CARDS_PER_SHEET = 4  # A6 cards, two by two on an A4 sheet


@require_POST
def pair_cards_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The tarjetas de pareja (issue 32): one A6 card per registered pair, four to an A4 sheet, each
    with its private link as a QR (torneo/services/terminals.py). Printing makes the links: every
    pair without one gets one now (``renovar``: every pair a new one, the old ones stop). A POST
    (it issues links); the PDF is never stored nor cached (it holds the links)."""
    tournament = tournament_for(request, slug, Action.CHECK_IN)
    try:
        issued = terminals_for_cards(tournament=tournament, by=request.user, renew=bool(request.POST.get("renovar")))
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    if not issued:
        messages.info(
            request, _("Todas las parejas inscritas tienen ya su tarjeta: marca «renovar» para hacerlas de nuevo.")
        )
        return redirect("scoring:printables", slug=slug)
    cards = [
        {
            "pair": item.terminal.pair,
            "players": [m.player.full_name for m in item.terminal.pair.ordered_members()],
            "qr": qr_png(terminal_url(tournament, item.token)),
            "issue": item.terminal.issues,
        }
        for item in issued
    ]
    sheets = [
        [
            {**card, "left": 93 * (i % 2), "top": 137 * (i // 2)}
            for i, card in enumerate(cards[start : start + CARDS_PER_SHEET])
        ]
        for start in range(0, len(cards), CARDS_PER_SHEET)
    ]
    context = {"title": _("Tarjetas de pareja"), "tournament": tournament}
    pdf, _pages = pdf_of_sheets("scoring/print/pair_cards.html", sheets, context=context, key="sheets")
    response = _pdf(pdf, "tarjetas-de-pareja.pdf")
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    return response


@require_http_methods(["GET", "POST"])
def printables(request: HttpRequest, slug: str) -> HttpResponse:
    """The printing desk: each round's actas (one PDF, prepared by a worker), blank actas, and the
    documents prepared lately. A POST asks for a document and goes to its progress page."""
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        number = parse_int(request.POST.get("round") or "0")
        try:
            if number is None:
                raise ValidationError({"round": _("La ronda debe ser un número.")})
            job = printable_request(
                tournament=tournament,
                kind=kind,
                round_number=number,
                by=request.user,  # type: ignore[arg-type]
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect("scoring:printables", slug=slug)
        return redirect("scoring:printable_job", slug=slug, job_id=job.pk)
    rounds = Round.objects.filter(tournament=tournament).order_by("-number")
    jobs = PrintJob.objects.filter(tournament=tournament).defer("pdf")[:10]
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "jobs": jobs,
        "blank_max": BLANK_MAX,
        "may_cards": can(request.user, tournament, Action.CHECK_IN),
        "has_bracket": bracket_applies(tournament),
    }
    return render(request, "scoring/manage/printables.html", context)


def _job(request: HttpRequest, slug: str, job_id: int) -> PrintJob:
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    return get_object_or_404(PrintJob.objects.defer("pdf"), pk=job_id, tournament=tournament)


def job_state(job: PrintJob) -> dict[str, object]:
    """What the progress bar reads (the page's script and the API)."""
    return {
        "id": job.pk,
        "kind": job.kind,
        "round": job.round_number or None,
        "status": job.status,
        "status_display": job.get_status_display(),
        "done": job.done,
        "total": job.total,
        "percent": job.percent,
        "pages": job.pages,
        "error": job.error,
    }


@require_GET
def printable_job(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """A printable's progress while a worker prepares it, then its PDF's link."""
    job = _job(request, slug, job_id)
    return render(request, "scoring/manage/printable_job.html", {"tournament": job.tournament, "job": job})


@require_GET
def printable_job_state(request: HttpRequest, slug: str, job_id: int) -> JsonResponse:
    """The job's progress as JSON, polled by the progress page every second."""
    response = JsonResponse(job_state(_job(request, slug, job_id)))
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def printable_job_pdf(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The job's PDF once done (404 before)."""
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    job = get_object_or_404(PrintJob, pk=job_id, tournament=tournament, status=PrintJob.Status.DONE)
    return _pdf(bytes(job.pdf or b""), printable_filename(job.kind, job.round_number))
