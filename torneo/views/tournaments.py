"""Pages of tournaments: the public list, a tournament's page and its live version; the staff's
tournaments, creating and editing one, its dashboard, jornadas and functions."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from torneo import pagecache
from torneo.errors import TournamentError
from torneo.forms.errors import service_errors
from torneo.forms.tournaments import RoleForm, SessionForm, TournamentForm
from torneo.models import Session, TournamentRole
from torneo.numbers import parse_int
from torneo.permissions import Action, can, can_create_tournament, roles_for
from torneo.selectors.announcements import announcements_of
from torneo.selectors.registrations import registration_counts
from torneo.selectors.tournaments import (
    live_version,
    staff_of,
    tournament_outcome,
    tournaments_managed_by,
    tournaments_public,
)
from torneo.services.rounds import tournament_finish_if_done
from torneo.services.system import STALE_AFTER, heartbeat_age
from torneo.services.tournaments import (
    ConfirmationNeeded,
    draw_lock,
    locked_fields,
    role_grant,
    role_revoke,
    session_delete,
    session_save,
    tournament_create,
    tournament_update,
)
from torneo.views.access import tournament_for
from torneo.views.registrations import _my_pairs

# --- public pages --------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "torneo/home.html", {"tournaments": tournaments_public()})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's page; once decided, its final classification comes first (the champion,
    and the way to the whole classification), as soon as the deciding result counts; then the
    organizer's announcements to the hall, newest first."""
    tournament = tournament_for(request, slug)
    context = {
        "tournament": tournament,
        "outcome": (outcome := tournament_outcome(tournament)),
        "champions": outcome.champions,
        "counts": registration_counts(tournament),
        "sessions": tournament.sessions.all(),
        "is_staff": can(request.user, tournament, Action.VIEW_PRIVATE),
        "my_pairs": _my_pairs(request, tournament),
        "announcements": announcements_of(tournament),
    }
    return render(request, "torneo/tournament_detail.html", context)


def tournament_live(request: HttpRequest, slug: str) -> JsonResponse:
    """The tournament's live version: public pages poll it (static/js/live.js), cheaply. With
    ``?pareja=<number>``, the version of that pair's page (torneo.services.live). A tournament the
    public may see answers from the cache, for everyone (torneo.pagecache), without a query."""
    state = pagecache.public_state(slug)
    version = live_version(state or tournament_for(request, slug), pair=request.GET.get("pareja"))
    if version is None:
        raise Http404
    response = JsonResponse({"version": version})
    response["Cache-Control"] = "no-store"
    return response


# --- staff pages ---------------------------------------------------------------------------------


@login_required
def my_tournaments(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "torneo/manage/my_tournaments.html",
        {
            "tournaments": tournaments_managed_by(request.user),
            "can_create": can_create_tournament(request.user),
        },
    )


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not can_create_tournament(request.user):
        raise PermissionDenied
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            tournament = tournament_create(by=request.user, data=_model_data(form))
        if call.ok:
            messages.success(request, _("Torneo creado."))
            return redirect("torneo:manage_dashboard", slug=tournament.slug)
    return render(request, "torneo/manage/tournament_form.html", {"form": form, "tournament": None})


def _model_data(form: TournamentForm) -> dict:  # type: ignore[type-arg]
    return {name: form.cleaned_data[name] for name in form.Meta.fields}


def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    # A tournament decided since its last result (or by a change of its settings) ends here at the
    # latest: the staff see it finished, with its final classification.
    if tournament_finish_if_done(tournament_id=tournament.pk):
        tournament.refresh_from_db()
    context = {
        "tournament": tournament,
        "counts": registration_counts(tournament),
        "roles": roles_for(request.user, tournament),
        "perms": {a.name: can(request.user, tournament, a) for a in Action},
        "heartbeat_age": heartbeat_age(),
        "heartbeat_stale_after": STALE_AFTER,
    }
    return render(request, "torneo/manage/dashboard.html", context)


def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Edit the tournament. Once drawn, the fixed fields are disabled with the reason, and a change
    that alters the standings or the pairings is saved at the second submit, once confirmed after
    seeing what it changes. ?rondas_finales=N (the rounds page's suggestion) proposes the rondas
    finales from round N."""
    tournament = tournament_for(request, slug, Action.TOURNAMENT_EDIT)
    lock = draw_lock(tournament)
    locked = locked_fields(tournament)
    initial = {}
    proposed = parse_int(request.GET.get("rondas_finales"), low=1, high=999)
    if request.method != "POST" and proposed is not None:
        initial["final_phase_from_round"] = proposed
    form = TournamentForm(request.POST or None, instance=tournament, initial=initial, locked=locked)
    pending: ConfirmationNeeded | None = None
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            tournament_update(
                tournament=tournament, data=_model_data(form), confirm=bool(form.cleaned_data.get("confirm"))
            )
        if call.ok:
            messages.success(request, _("Cambios guardados."))
            return redirect("torneo:manage_dashboard", slug=tournament.slug)
        if isinstance(call.error, ConfirmationNeeded):
            pending = call.error
    context = {
        "form": form,
        "tournament": tournament,
        "lock": lock,
        "pending": pending,
        "proposed_final_round": initial.get("final_phase_from_round"),
    }
    return render(request, "torneo/manage/tournament_form.html", context)


def sessions(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.TOURNAMENT_EDIT)
    form = SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            session_save(tournament=tournament, **form.cleaned_data)
        if call.ok:
            messages.success(request, _("Jornada añadida."))
            return redirect("torneo:manage_sessions", slug=slug)
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
    return redirect("torneo:manage_sessions", slug=slug)


def roles(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.ROLES_MANAGE)
    form = RoleForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            role_grant(tournament=tournament, **form.cleaned_data)
        if call.ok:
            messages.success(request, _("Función asignada."))
            return redirect("torneo:manage_roles", slug=slug)
    return render(
        request,
        "torneo/manage/roles.html",
        {"tournament": tournament, "form": form, "staff": staff_of(tournament)},
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
    return redirect("torneo:manage_roles", slug=slug)
