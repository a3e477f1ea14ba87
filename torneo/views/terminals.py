"""The pairs' private links (issue 32; torneo/services/terminals.py): the mesa issues or withdraws a
pair's link from the pair's *Cuentas* page, and whoever opens the link turns that phone into the
pair's terminal, then lands on the pair's own page without the link in the address bar (nor in any
Referer header, log or cached page: the answer is private, no-store and no-referrer)."""

from __future__ import annotations

import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from torneo.errors import NotAllowed, TournamentError
from torneo.models import Pair, PairTerminal, Tournament
from torneo.permissions import Action, can_view, is_member_of, own_pair_numbers
from torneo.ratelimit import (
    AddressFailureThrottle,
    BrowserFailureThrottle,
    DefaultRateThrottle,
    Windows,
    refused_page,
    venue_windows,
    windows_failed,
    windows_refusal,
    with_browser_cookie,
)
from torneo.services import self_check_in as checkin
from torneo.services import terminals as service
from torneo.views.access import LoginRequired, tournament_for
from torneo.views.accounts import _private, qr_svg


def _no_referrer(response: HttpResponse) -> HttpResponse:
    """The link is a key: never sent on as a Referer, never kept by a cache. Only on answers without
    a form (a redirect, a refusal): "no-referrer" would make a form's POST say ``Origin: null``,
    which the CSRF check refuses; the pages with a form are ``_private`` (Referer to this site only)."""
    response = _private(response)
    response["Referrer-Policy"] = "no-referrer"
    return response


def _home(terminal: PairTerminal) -> HttpResponse:
    pair = terminal.pair
    response = redirect("scoring:pair_page", slug=pair.tournament.slug, number=pair.number)
    response.status_code = 303
    return _no_referrer(response)


def _session_until_the_end(request: HttpRequest, tournament: Tournament) -> None:
    """The phone stays the pair's terminal until the tournament's last day is over (Madrid time)."""
    end = datetime.datetime.combine(
        tournament.end_date + datetime.timedelta(days=1), datetime.time(6, 0), tzinfo=ZoneInfo(settings.TIME_ZONE)
    )
    request.session.set_expiry(max(end, timezone.now() + datetime.timedelta(hours=12)))


# --- failed tarjeta links: per browser, with a ceiling per address (torneo.ratelimit) -------------

TARJETA_REFUSED = gettext_lazy(
    "Demasiados enlaces de tarjeta que no valen desde este móvil. Pide en la mesa de control la tarjeta "
    "nueva de tu pareja."
)


class TarjetaBrowserThrottle(BrowserFailureThrottle):
    scope = "tarjeta_browser"


class TarjetaAddressThrottle(AddressFailureThrottle):
    scope = "tarjeta_ip"


def _tarjeta_windows(request: HttpRequest) -> Windows:
    return venue_windows(request, TarjetaBrowserThrottle, TarjetaAddressThrottle)


def _tarjeta_refusal(request: HttpRequest) -> HttpResponse | None:
    wait = windows_refusal(_tarjeta_windows(request))
    return None if wait is None else _no_referrer(refused_page(request, wait, TARJETA_REFUSED))


@with_browser_cookie
def pair_terminal(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """Open a pair's link: signs this phone in as the pair's terminal (asking first when someone
    else is signed in on it) and goes to the pair's page."""
    return _pair_terminal(request, slug, token)


def _pair_terminal(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    if (refused := _tarjeta_refusal(request)) is not None:
        return refused
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        windows_failed(_tarjeta_windows(request))
        raise Http404
    try:
        terminal = service.terminal_find(tournament=tournament, token=token)
    except service.InvalidTerminalLink as invalid:
        windows_failed(_tarjeta_windows(request))
        if not can_view(request.user, tournament):
            raise Http404 from None
        page = render(request, "torneo/accounts/invalid_link.html", {"message": invalid}, status=404)
        return _no_referrer(page)
    user = request.user
    if user.is_authenticated and (user.pk == terminal.user_id or is_member_of(user, terminal.pair)):
        return _home(terminal)  # already this pair's terminal, or one of its players
    if user.is_authenticated and request.method != "POST":
        context = {"tournament": tournament, "pair": terminal.pair}
        return _private(render(request, "torneo/terminals/switch.html", context))
    login(request, terminal.user, backend=settings.AUTHENTICATION_BACKENDS[0])
    _session_until_the_end(request, tournament)
    return _home(terminal)


@require_POST
def pair_terminal_issue(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The mesa: a new link for the pair (the old one stops at once), shown once with its QR; or,
    with ``retirar``, the link withdrawn without a new one."""
    tournament = tournament_for(request, slug, Action.CHECK_IN)
    pair = get_object_or_404(Pair.objects.select_related("tournament"), tournament=tournament, number=number)
    back = reverse("torneo:manage_pair_accounts", kwargs={"slug": slug, "number": number})
    try:
        if "retirar" in request.POST:
            service.terminal_revoke(pair=pair, by=request.user)
            messages.success(request, _("Pareja %(n)s: enlace retirado; sus móviles han salido.") % {"n": number})
            return redirect(back)
        issued = service.terminal_issue(pair=pair, by=request.user)
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except TournamentError as exc:
        messages.error(request, str(exc))
        return redirect(back)
    url = service.terminal_url(tournament, issued.token)
    context = {"tournament": tournament, "pair": pair, "terminal": issued.terminal, "url": url, "qr": qr_svg(url)}
    return _private(render(request, "torneo/terminals/issued.html", context))


# --- self check-in with the venue's code (torneo/services/self_check_in.py) ---------------------------


class SelfCheckInThrottle(DefaultRateThrottle):
    """Wrong venue codes per account: 10 an hour (the code has 31⁶ values and lives ten minutes)."""

    scope = "self_check_in"
    default_rate = "10/hour"

    def key_for(self, user: Any) -> str:
        return self.key_of(str(user.pk))


def self_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """A pair confirms its presence from its phone with the code the venue's screen shows (its QR
    fills it in: ``?codigo=``)."""
    tournament = tournament_for(request, slug)
    if not request.user.is_authenticated:
        raise LoginRequired
    throttle = SelfCheckInThrottle()
    key = throttle.key_for(request.user)
    code = (request.POST.get("codigo") if request.method == "POST" else request.GET.get("codigo")) or ""
    error = None
    if request.method == "POST":
        if (wait := throttle.refusal(key)) is not None:
            return refused_page(request, wait, _("Demasiados códigos equivocados."), {"tournament": tournament})
        try:
            pair = checkin.pair_self_check_in(tournament=tournament, by=request.user, code=code)
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from exc
        except TournamentError as exc:
            if exc.code == "code":
                throttle.record(key)
            error = str(exc)
        else:
            messages.success(request, _("Pareja %(n)s: presencia confirmada.") % {"n": pair.number})
            return redirect("scoring:pair_page", slug=slug, number=pair.number)
    own = own_pair_numbers(request.user, tournament)
    home = ("scoring:pair_page", [slug, own[0]]) if own else ("torneo:tournament_detail", [slug])
    back = reverse(home[0], args=home[1])
    context = {
        "tournament": tournament,
        "code": code[:12],
        "error": error,
        "closed": checkin.self_check_in_refusal(tournament),
        "back": back,
        "pair_number": own[0] if own else None,
    }
    return _private(render(request, "torneo/terminals/check_in.html", context, status=400 if error else 200))


def venue_code(request: HttpRequest, slug: str) -> HttpResponse:
    """The venue's screen (the projector): the check-in code of these five minutes, big, with its QR;
    the page reloads itself when the code changes. The organizer and the mesa."""
    tournament = tournament_for(request, slug, Action.CHECK_IN)
    code = checkin.venue_code(tournament)
    path = reverse("torneo:self_check_in", kwargs={"slug": slug})
    url = f"{settings.SITE_URL}{path}?codigo={code}"
    changes = checkin.code_changes_at()
    seconds = max(5, int((changes - timezone.now()).total_seconds()) + 1)
    context = {
        "tournament": tournament,
        "code": code,
        "qr": qr_svg(url),
        "changes_at": changes,
        "refresh": seconds,
        "closed": checkin.self_check_in_refusal(tournament),
    }
    return _private(render(request, "torneo/terminals/venue_code.html", context))
