"""Pages of registrations: the public list of pairs, the registration form and a player's own
withdrawal; the mesa de control's pairs (search, register, edit, check-in, withdraw, RGPD erasure)
and the CSV import and export."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from torneo import sheets
from torneo.errors import TournamentError
from torneo.forms.errors import service_errors
from torneo.forms.registrations import CsvImportForm, PairForm, WithdrawForm
from torneo.models import Pair, PairMember
from torneo.numbers import parse_int
from torneo.permissions import Action, can, can_withdraw
from torneo.ratelimit import registration_refused
from torneo.selectors.registrations import pairs_of, pairs_with_players, registration_counts
from torneo.services.personal_data import player_erase_personal_data
from torneo.services.registrations import (
    pair_check_in,
    pair_check_in_undo,
    pair_register,
    pair_update,
    pair_withdraw,
)
from torneo.services.registrations_csv import (
    CsvImportError,
    registrations_example_sheet,
    registrations_export_sheet,
    registrations_import_csv,
)
from torneo.views.access import LoginRequired, safe_next, tournament_for

# --- public pages --------------------------------------------------------------------------------


def _my_pairs(request: HttpRequest, tournament) -> list[Pair]:  # type: ignore[no-untyped-def]
    if not request.user.is_authenticated:
        return []
    return list(pairs_with_players().filter(tournament=tournament, members__player__user=request.user).distinct())


def tournament_pairs(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    q = request.GET.get("q", "")[:100]
    pairs = pairs_of(tournament, q=q, statuses=[Pair.Status.CONFIRMED, Pair.Status.WAITLISTED])
    return render(request, "torneo/tournament_pairs.html", {"tournament": tournament, "pairs": pairs, "q": q})


def public_registration(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    if not tournament.accepts_public_registrations:
        return render(request, "torneo/registration_closed.html", {"tournament": tournament}, status=200)
    if request.method == "POST" and (refused := registration_refused(request, tournament)):
        return refused  # too many registrations from this client (torneo/ratelimit.py)
    form = PairForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            pair = pair_register(
                tournament=tournament,
                players=form.players(),
                name=form.cleaned_data["name"],
                source=Pair.Source.PUBLIC_FORM,
            )
        if call.ok:
            if pair.status == Pair.Status.WAITLISTED:
                messages.warning(
                    request,
                    _("El torneo está completo: la pareja %(p)s queda en lista de espera.") % {"p": pair},
                )
            else:
                messages.success(
                    request, _("Pareja %(p)s inscrita con el número %(n)d.") % {"p": pair, "n": pair.number}
                )
            return redirect("torneo:tournament_pairs", slug=tournament.slug)
    return render(request, "torneo/registration_form.html", {"tournament": tournament, "form": form})


@require_POST
def pair_withdraw_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A player withdraws their own pair (before play); staff any pair."""
    tournament = tournament_for(request, slug)
    pair = get_object_or_404(Pair, tournament=tournament, number=number)
    if not can_withdraw(request.user, pair):
        if not request.user.is_authenticated:
            raise LoginRequired
        raise PermissionDenied
    form = WithdrawForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        promoted = pair_withdraw(pair=pair, reason=reason)
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("La pareja %(p)s se ha retirado del torneo.") % {"p": pair})
        if promoted:
            messages.info(request, _("La pareja %(p)s sube de la lista de espera.") % {"p": promoted})
    return redirect(safe_next(request, tournament.get_absolute_url()))


# --- staff pages: the mesa de control ------------------------------------------------------------


def pairs(request: HttpRequest, slug: str) -> HttpResponse:
    """The mesa de control's list: search, check-in, edit, withdraw."""
    tournament = tournament_for(request, slug, Action.CHECK_IN)
    q = request.GET.get("q", "")[:100]
    status = request.GET.get("estado", "")
    statuses = [status] if status in Pair.Status.values else None
    context = {
        "tournament": tournament,
        "pairs": pairs_of(tournament, q=q, statuses=statuses),
        "q": q,
        "status": status,
        "statuses": Pair.Status.choices,
        "counts": registration_counts(tournament),
        "can_manage": can(request.user, tournament, Action.PAIRS_MANAGE),
        "can_erase": can(request.user, tournament, Action.PERSONAL_DATA_ERASE),
    }
    return render(request, "torneo/manage/pairs.html", context)


def pair_new(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.PAIRS_MANAGE)
    form = PairForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            pair = pair_register(
                tournament=tournament,
                players=form.players(),
                name=form.cleaned_data["name"],
                source=Pair.Source.CONTROL,
            )
        if call.ok:
            messages.success(
                request,
                _("Pareja %(n)d · %(p)s: %(s)s.") % {"n": pair.number, "p": pair, "s": pair.get_status_display()},
            )
            return redirect("torneo:manage_pair_new" if "otra" in request.POST else "torneo:manage_pairs", slug=slug)
    return render(request, "torneo/manage/pair_form.html", {"tournament": tournament, "form": form, "pair": None})


def pair_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.PAIRS_MANAGE)
    pair = get_object_or_404(pairs_with_players(), tournament=tournament, number=number)
    form = PairForm(request.POST or None, tournament=tournament, initial=PairForm.initial_for(pair))
    if request.method == "POST" and form.is_valid():
        version = parse_int(request.POST.get("version", "0")) or None
        with service_errors(form) as call:
            pair_update(pair=pair, players=form.players(), name=form.cleaned_data["name"], expected_version=version)
        if call.ok:
            messages.success(request, _("Pareja %(n)d guardada.") % {"n": pair.number})
            return redirect("torneo:manage_pairs", slug=slug)
    return render(
        request,
        "torneo/manage/pair_form.html",
        {
            "tournament": tournament,
            "form": form,
            "pair": pair,
            "withdraw_form": WithdrawForm(),
            "can_erase": can(request.user, tournament, Action.PERSONAL_DATA_ERASE),
        },
    )


@require_POST
def pair_check_in_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The check-in form without JavaScript (static/js/checkin.js uses the API's check-in)."""
    tournament = tournament_for(request, slug, Action.CHECK_IN)
    pair = get_object_or_404(Pair, tournament=tournament, number=number)
    present = request.POST.get("present", "1") == "1"
    try:
        pair = pair_check_in(pair=pair) if present else pair_check_in_undo(pair=pair)
    except TournamentError as exc:
        messages.error(request, str(exc))
    return redirect(safe_next(request, reverse("torneo:manage_pairs", kwargs={"slug": slug})))


@require_POST
def pair_withdraw_staff(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.PAIRS_MANAGE)
    pair = get_object_or_404(Pair, tournament=tournament, number=number)
    form = WithdrawForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        promoted = pair_withdraw(pair=pair, reason=reason)
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Pareja %(n)d retirada.") % {"n": pair.number})
        if promoted:
            messages.info(request, _("La pareja %(n)d sube de la lista de espera.") % {"n": promoted.number})
    return redirect("torneo:manage_pairs", slug=slug)


@require_POST
def player_erase_view(request: HttpRequest, slug: str, number: int, position: int) -> HttpResponse:
    """RGPD erasure on request: the player's document, phone and e-mail (organizer only)."""
    tournament = tournament_for(request, slug, Action.PERSONAL_DATA_ERASE)
    member = get_object_or_404(
        PairMember.objects.select_related("player"), pair__tournament=tournament, pair__number=number, position=position
    )
    player_erase_personal_data(player=member.player)
    messages.success(
        request,
        _("Borrados el documento, el teléfono y el correo de %(p)s, también del historial.")
        % {"p": member.player.full_name},
    )
    return redirect("torneo:manage_pair_edit", slug=slug, number=number)


def import_message(created: int, waitlisted: int) -> str:
    """«Importada 1 pareja.», «Importadas 12 parejas. 2 quedan en lista de espera.»"""
    message = ngettext("Importada %(n)d pareja.", "Importadas %(n)d parejas.", created) % {"n": created}
    if waitlisted:
        queued = ngettext("%(n)d queda en lista de espera.", "%(n)d quedan en lista de espera.", waitlisted)
        message += " " + queued % {"n": waitlisted}
    return message


def pairs_import(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.PAIRS_MANAGE)
    form = CsvImportForm(request.POST or None, request.FILES or None)
    row_errors = []
    if request.method == "POST" and form.is_valid():
        try:
            report = registrations_import_csv(tournament=tournament, data=form.cleaned_data["file"].read())
        except CsvImportError as exc:
            row_errors = exc.errors
            form.add_error(None, _("No se ha importado nada: corrige estas filas y vuelve a subir el archivo."))
        except TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, import_message(report.created, report.waitlisted))
            return redirect("torneo:manage_pairs", slug=slug)
    return render(
        request,
        "torneo/manage/pairs_import.html",
        {"tournament": tournament, "form": form, "row_errors": row_errors},
        status=400 if row_errors else 200,
    )


def pairs_import_example(request: HttpRequest, slug: str) -> HttpResponse:
    """A file to fill in and import (CSV, Excel's CSV or .xlsx: ?formato=)."""
    tournament_for(request, slug, Action.PAIRS_MANAGE)
    return sheets.download(request, registrations_example_sheet(), "ejemplo-inscripciones")


def pairs_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The registrations as CSV, Excel's CSV or .xlsx (?formato=, torneo.sheets)."""
    tournament = tournament_for(request, slug, Action.PAIRS_MANAGE)
    sheet = registrations_export_sheet(tournament=tournament)
    return sheets.download(request, sheet, f"inscripciones-{tournament.slug}")
