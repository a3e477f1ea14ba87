"""Staff pages: creating and editing tournaments, jornadas, roles, registrations and check-in."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from torneo import selectors
from torneo.errors import TournamentError
from torneo.forms import (
    CsvImportForm,
    PairForm,
    RoleForm,
    SessionForm,
    TournamentForm,
    WithdrawForm,
    attach_errors,
)
from torneo.models import Pair, PairMember, Session, TournamentRole
from torneo.permissions import Action, can, can_create_tournament, roles_for
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
    registrations_export_csv,
    registrations_import_csv,
)
from torneo.services.system import STALE_AFTER, heartbeat_age
from torneo.services.tournaments import (
    role_grant,
    role_revoke,
    session_delete,
    session_save,
    tournament_create,
    tournament_update,
)
from torneo.views.access import safe_next, tournament_for


@login_required
def my_tournaments(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "torneo/manage/my_tournaments.html",
        {
            "tournaments": selectors.tournaments_managed_by(request.user),
            "can_create": can_create_tournament(request.user),
        },
    )


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not can_create_tournament(request.user):
        raise PermissionDenied
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(by=request.user, data=_model_data(form))
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, _("Torneo creado."))
            return redirect("manage_dashboard", slug=tournament.slug)
    return render(request, "torneo/manage/tournament_form.html", {"form": form, "tournament": None})


def _model_data(form: TournamentForm) -> dict:  # type: ignore[type-arg]
    return {name: form.cleaned_data[name] for name in form.Meta.fields}


def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    context = {
        "tournament": tournament,
        "counts": selectors.registration_counts(tournament),
        "roles": roles_for(request.user, tournament),
        "perms": {a.name: can(request.user, tournament, a) for a in Action},
        "heartbeat_age": heartbeat_age(),
        "heartbeat_stale_after": STALE_AFTER,
    }
    return render(request, "torneo/manage/dashboard.html", context)


def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.TOURNAMENT_EDIT)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            tournament_update(tournament=tournament, data=_model_data(form))
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, _("Cambios guardados."))
            return redirect("manage_dashboard", slug=tournament.slug)
    return render(request, "torneo/manage/tournament_form.html", {"form": form, "tournament": tournament})


def sessions(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.TOURNAMENT_EDIT)
    form = SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            session_save(tournament=tournament, **form.cleaned_data)
        except ValidationError as exc:
            attach_errors(form, exc)
        except TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Jornada añadida."))
            return redirect("manage_sessions", slug=slug)
    return render(
        request,
        "torneo/manage/sessions.html",
        {"tournament": tournament, "form": form, "sessions": tournament.sessions.all()},
    )


@require_POST
def session_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.TOURNAMENT_EDIT)
    session_delete(session=get_object_or_404(Session, tournament=tournament, pk=pk))
    messages.success(request, _("Jornada eliminada."))
    return redirect("manage_sessions", slug=slug)


def roles(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.ROLES_MANAGE)
    form = RoleForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            role_grant(tournament=tournament, **form.cleaned_data)
        except ValidationError as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, _("Función asignada."))
            return redirect("manage_roles", slug=slug)
    return render(
        request,
        "torneo/manage/roles.html",
        {"tournament": tournament, "form": form, "staff": selectors.staff_of(tournament)},
    )


@require_POST
def role_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.ROLES_MANAGE)
    try:
        role_revoke(tournament_role=get_object_or_404(TournamentRole, tournament=tournament, pk=pk))
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Función retirada."))
    return redirect("manage_roles", slug=slug)


def pairs(request: HttpRequest, slug: str) -> HttpResponse:
    """The mesa de control's list: search, check-in, edit, withdraw."""
    tournament = tournament_for(request, slug, Action.CHECK_IN)
    q = request.GET.get("q", "")[:100]
    status = request.GET.get("estado", "")
    statuses = [status] if status in Pair.Status.values else None
    context = {
        "tournament": tournament,
        "pairs": selectors.pairs_of(tournament, q=q, statuses=statuses),
        "q": q,
        "status": status,
        "statuses": Pair.Status.choices,
        "counts": selectors.registration_counts(tournament),
        "can_manage": can(request.user, tournament, Action.PAIRS_MANAGE),
    }
    return render(request, "torneo/manage/pairs.html", context)


def pair_new(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.PAIRS_MANAGE)
    form = PairForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            pair = pair_register(
                tournament=tournament,
                players=form.players(),
                name=form.cleaned_data["name"],
                source=Pair.Source.CONTROL,
            )
        except ValidationError as exc:
            attach_errors(form, exc)
        except TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request,
                _("Pareja %(n)d · %(p)s: %(s)s.") % {"n": pair.number, "p": pair, "s": pair.get_status_display()},
            )
            return redirect("manage_pair_new" if "otra" in request.POST else "manage_pairs", slug=slug)
    return render(request, "torneo/manage/pair_form.html", {"tournament": tournament, "form": form, "pair": None})


def pair_edit(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.PAIRS_MANAGE)
    pair = get_object_or_404(selectors.pairs_with_players(), tournament=tournament, number=number)
    form = PairForm(request.POST or None, tournament=tournament, initial=PairForm.initial_for(pair))
    if request.method == "POST" and form.is_valid():
        try:
            version = int(request.POST.get("version", "0")) or None
        except ValueError:
            version = None
        try:
            pair_update(pair=pair, players=form.players(), name=form.cleaned_data["name"], expected_version=version)
        except ValidationError as exc:
            attach_errors(form, exc)
        except TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Pareja %(n)d guardada.") % {"n": pair.number})
            return redirect("manage_pairs", slug=slug)
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
    tournament = tournament_for(request, slug, Action.CHECK_IN)
    pair = get_object_or_404(Pair, tournament=tournament, number=number)
    present = request.POST.get("present", "1") == "1"
    try:
        pair = pair_check_in(pair=pair) if present else pair_check_in_undo(pair=pair)
    except TournamentError as exc:
        if _wants_json(request):
            return JsonResponse({"error": str(exc)}, status=exc.http_status)
        messages.error(request, str(exc))
    else:
        if _wants_json(request):
            checked = pair.checked_in_at and timezone.localtime(pair.checked_in_at).strftime("%H:%M")
            return JsonResponse({"number": pair.number, "checked_in_at": checked})
    return redirect(safe_next(request, reverse("manage_pairs", kwargs={"slug": slug})))


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


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
    return redirect("manage_pairs", slug=slug)


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
    return redirect("manage_pair_edit", slug=slug, number=number)


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
            messages.success(
                request,
                _("Importadas %(n)d parejas (%(w)d en lista de espera).")
                % {"n": report.created, "w": report.waitlisted},
            )
            return redirect("manage_pairs", slug=slug)
    return render(
        request,
        "torneo/manage/pairs_import.html",
        {"tournament": tournament, "form": form, "row_errors": row_errors},
        status=400 if row_errors else 200,
    )


def pairs_export(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.PAIRS_MANAGE)
    response = HttpResponse(registrations_export_csv(tournament=tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="inscripciones-{tournament.slug}.csv"'
    return response
