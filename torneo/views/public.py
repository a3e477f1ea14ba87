"""Public pages: the list of tournaments, a tournament, its pairs, the registration form."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from torneo import selectors
from torneo.errors import TournamentError
from torneo.forms import PairForm, WithdrawForm, attach_errors
from torneo.models import Pair
from torneo.permissions import Action, can, can_withdraw
from torneo.ratelimit import registration_refused
from torneo.services.registrations import pair_register, pair_withdraw
from torneo.views.access import LoginRequired, safe_next, tournament_for


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "torneo/home.html", {"tournaments": selectors.tournaments_public()})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    context = {
        "tournament": tournament,
        "counts": selectors.registration_counts(tournament),
        "sessions": tournament.sessions.all(),
        "is_staff": can(request.user, tournament, Action.VIEW_PRIVATE),
        "my_pairs": _my_pairs(request, tournament),
    }
    return render(request, "torneo/tournament_detail.html", context)


def _my_pairs(request: HttpRequest, tournament) -> list[Pair]:  # type: ignore[no-untyped-def]
    if not request.user.is_authenticated:
        return []
    return list(
        selectors.pairs_with_players().filter(tournament=tournament, members__player__user=request.user).distinct()
    )


def tournament_pairs(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    q = request.GET.get("q", "")[:100]
    pairs = selectors.pairs_of(tournament, q=q, statuses=[Pair.Status.CONFIRMED, Pair.Status.WAITLISTED])
    return render(request, "torneo/tournament_pairs.html", {"tournament": tournament, "pairs": pairs, "q": q})


def public_registration(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    if not tournament.accepts_public_registrations:
        return render(request, "torneo/registration_closed.html", {"tournament": tournament}, status=200)
    if request.method == "POST" and (refused := registration_refused(request, tournament)):
        return refused  # too many registrations from this client (torneo/ratelimit.py)
    form = PairForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            pair = pair_register(
                tournament=tournament,
                players=form.players(),
                name=form.cleaned_data["name"],
                source=Pair.Source.PUBLIC_FORM,
            )
        except ValidationError as exc:
            attach_errors(form, exc)
        except TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            if pair.status == Pair.Status.WAITLISTED:
                messages.warning(
                    request,
                    _("El torneo está completo: la pareja %(p)s queda en lista de espera.") % {"p": pair},
                )
            else:
                messages.success(
                    request, _("Pareja %(p)s inscrita con el número %(n)d.") % {"p": pair, "n": pair.number}
                )
            return redirect("tournament_pairs", slug=tournament.slug)
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


def tournament_live(request: HttpRequest, slug: str) -> JsonResponse:
    """The tournament's live version: public pages poll it (static/js/live.js), cheaply."""
    tournament = tournament_for(request, slug)
    response = JsonResponse({"version": tournament.live_version})
    response["Cache-Control"] = "no-store"
    return response
