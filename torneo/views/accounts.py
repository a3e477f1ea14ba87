"""Pages of accounts without the admin (the scheme and its safety: torneo/services/accounts.py).

Staff pages: a pair's *Cuentas* (the mesa de control prints one-time codes for its players; the
organizer also hands out password links to them), and *Invitaciones y contraseñas* (the organizer
invites a mesa or a juez with a link, annuls one, hands out a password link to a staff account).
A code or a link is shown once, on the answer to the POST that made it (never kept anywhere but as
a hash), with a QR of its address.

Public pages: the tournament's claim page (``/torneos/<slug>/cuenta/``: the code, then a username
and password), an invitation link, a password link, and changing one's own password. Failed codes
and links count per browser, per client IP under a ceiling a venue never reaches, and per code
(``ClaimBrowserThrottle``, ``ClaimIPThrottle``, ``ClaimCodeThrottle``, on torneo/ratelimit.py's
failure windows); answers to these pages are never cached and send their
address as Referer to no other site (a code or link may be in it).
"""

from datetime import timedelta
from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from torneo.errors import NotAllowed, TournamentError
from torneo.forms.accounts import ClaimCodeForm, InvitationForm, NewAccountForm, NewPasswordForm
from torneo.forms.errors import service_errors
from torneo.models import AccountToken, Pair, PairTerminal, Tournament
from torneo.numbers import parse_int
from torneo.permissions import Action, can, can_view
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
from torneo.services import accounts as service
from torneo.typing import signed_in
from torneo.views.access import tournament_for

CLAIM_REFUSED = gettext_lazy(
    "Demasiados intentos fallidos con códigos o enlaces desde esta conexión, o con este código. "
    "Si el código es tuyo, pide otro en la mesa de control."
)
SESSION_KEY = "torneo_account_claim"
CLAIM_SESSION_MINUTES = 30  # between a right code and choosing the password


# --- rate limits: failed codes and links ---------------------------------------------------------
#
# Per browser, with a ceiling per address (torneo.ratelimit: a venue's phones share one address),
# and per printed code.


class ClaimBrowserThrottle(BrowserFailureThrottle):
    """Failed player codes, invitation links and password links of one browser."""

    scope = "account_claim_browser"


class ClaimIPThrottle(AddressFailureThrottle):
    """Failed player codes, invitation links and password links per client IP: the ceiling."""

    scope = "account_claim_ip"


class ClaimCodeThrottle(DefaultRateThrottle):
    """Failed attempts at one printed code (its tournament and selector), from any client."""

    scope = "account_claim_code"
    default_rate = "5/hour"

    def key_for(self, tournament: Tournament | None, selector: str | None) -> str | None:
        return self.key_of(f"{tournament.pk}:{selector}") if tournament is not None and selector else None


def _windows(request: HttpRequest, tournament: Tournament | None, selector: str | None) -> Windows:
    by_code = ClaimCodeThrottle()
    code = (by_code, by_code.key_for(tournament, selector))
    return [*venue_windows(request, ClaimBrowserThrottle, ClaimIPThrottle), code]


def _refusal(request: HttpRequest, tournament: Tournament | None, selector: str | None = None) -> HttpResponse | None:
    """The 429 page while this browser (or its address, or this code) has failed too often; None: go on."""
    wait = windows_refusal(_windows(request, tournament, selector))
    return None if wait is None else _private(refused_page(request, wait, CLAIM_REFUSED))


def _failed(request: HttpRequest, tournament: Tournament | None, selector: str | None = None) -> None:
    windows_failed(_windows(request, tournament, selector))


# --- helpers -------------------------------------------------------------------------------------


def _private(response: HttpResponse) -> HttpResponse:
    """Codes and links are in these pages (or their addresses): not cached, and their address goes as
    Referer to this site only ("no-referrer" would make the browser's own form POSTs say
    ``Origin: null``, which Django's CSRF check refuses)."""
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    return response


def qr_svg(url: str) -> SafeString:
    """The address as an inline SVG QR code (segno builds it; no image files, no network)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, title=url)
    return mark_safe(svg)  # segno escapes the title; the rest is its own markup


def _login(request: HttpRequest, account: Any) -> None:
    login(request, account, backend=settings.AUTHENTICATION_BACKENDS[0])


def _form_errors(form: Any) -> Any:
    """service_errors' field_for for our account forms: the service's keys to the form's fields."""
    mapping: dict[str, str] = getattr(form, "field_for_service", {})
    return lambda key: mapping.get(key, key)


# --- staff: a pair's codes -----------------------------------------------------------------------


def pair_accounts(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """GET: the pair's players and their accounts. POST: one-time codes for them, shown once."""
    tournament = tournament_for(request, slug, Action.CHECK_IN)
    pair = get_object_or_404(Pair, tournament=tournament, number=number)
    if request.method == "POST":
        positions = [n for p in request.POST.getlist("position") if (n := parse_int(p, high=99)) is not None] or None
        try:
            issued = service.player_codes_issue(pair=pair, by=request.user, positions=positions)
        except NotAllowed as exc:
            raise PermissionDenied(str(exc)) from exc
        except TournamentError as exc:
            messages.error(request, str(exc))
            return redirect("torneo:manage_pair_accounts", slug=slug, number=number)
        claim = request.build_absolute_uri(reverse("torneo:account_claim", kwargs={"slug": slug}))
        slips = [
            {
                "player": player,
                "code": item.code,
                "claim": claim,
                "expires_at": item.token.expires_at,
                "qr": qr_svg(f"{claim}?{urlencode({'codigo': item.code})}"),
            }
            for player, item in issued
        ]
        context = {"tournament": tournament, "pair": pair, "slips": slips}
        return _private(render(request, "torneo/accounts/codes.html", context))
    entries = service.pair_accounts(pair)
    resets = {
        e.player.pk: service.password_reset_allowed(by=request.user, tournament=tournament, account=e.player.user)
        for e in entries
        if e.player.user is not None
    }
    context = {
        "tournament": tournament,
        "pair": pair,
        "entries": [(e, resets.get(e.player.pk, False)) for e in entries],
        "can_reset": can(request.user, tournament, Action.ROLES_MANAGE),
        "terminal": PairTerminal.objects.filter(pair=pair).first(),
        "ttl_hours": int(service.PLAYER_CODE_TTL / timedelta(hours=1)),
    }
    return render(request, "torneo/accounts/pair_accounts.html", context)


# --- staff: invitations and password links ------------------------------------------------------


def manage_accounts(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer's invitations (a form and the list) and the staff's password links."""
    tournament = tournament_for(request, slug, Action.ROLES_MANAGE)
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            issued = service.invitation_create(
                tournament=tournament,
                by=request.user,
                role=form.cleaned_data["role"],
                label=form.cleaned_data["label"],
            )
        if call.ok:
            path = reverse("torneo:account_invitation", kwargs={"slug": slug, "token": issued.secret})
            return _link_issued(request, tournament, issued.token, request.build_absolute_uri(path))
    context = {
        "tournament": tournament,
        "form": form,
        "invitations": service.invitations_of(tournament)[:50],
        "staff": service.staff_accounts(tournament=tournament, by=request.user),
        "ttl_days": service.INVITATION_TTL.days,
    }
    return render(request, "torneo/accounts/manage.html", context)


def _link_issued(request: HttpRequest, tournament: Tournament, token: AccountToken, url: str) -> HttpResponse:
    context = {"tournament": tournament, "token": token, "url": url, "qr": qr_svg(url)}
    return _private(render(request, "torneo/accounts/link_issued.html", context))


@require_POST
def invitation_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.ROLES_MANAGE)
    token = get_object_or_404(AccountToken, tournament=tournament, kind=AccountToken.Kind.INVITATION, pk=pk)
    service.token_revoke(token=token)
    messages.success(request, _("Invitación anulada."))
    return redirect("torneo:manage_accounts", slug=slug)


@require_POST
def password_reset_issue(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    """A password link for an account of this tournament (only the organizer's own: see the service)."""
    tournament = tournament_for(request, slug, Action.ROLES_MANAGE)
    account = service.account_in_tournament(tournament=tournament, user_id=user_id)
    if account is None:
        raise Http404
    try:
        issued = service.password_reset_create(tournament=tournament, by=request.user, account=account)
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    path = reverse("torneo:account_password_reset", kwargs={"slug": slug, "token": issued.secret})
    return _link_issued(request, tournament, issued.token, request.build_absolute_uri(path))


# --- public: a player claims their account -------------------------------------------------------


@with_browser_cookie
def claim(request: HttpRequest, slug: str) -> HttpResponse:
    """Step 1: the code (the QR's address brings it in ``?codigo=``; it is checked only when sent)."""
    tournament = tournament_for(request, slug)
    form = ClaimCodeForm(request.POST or None, initial={"code": request.GET.get("codigo", "")[:40]})
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"]
        selector = service.code_selector(code)
        if (refused := _refusal(request, tournament, selector)) is not None:
            return refused
        try:
            token = service.player_code_verify(tournament=tournament, code=code)
        except service.InvalidCode as exc:
            _failed(request, tournament, selector)
            form.add_error("code", str(exc))
        else:
            until = timezone.now() + timedelta(minutes=CLAIM_SESSION_MINUTES)
            request.session[SESSION_KEY] = {
                "token": token.pk,
                "tournament": tournament.pk,
                "until": until.timestamp(),
            }
            return redirect("torneo:account_claim_finish", slug=slug)
    return _private(render(request, "torneo/accounts/claim.html", {"tournament": tournament, "form": form}))


def claim_finish(request: HttpRequest, slug: str) -> HttpResponse:
    """Step 2, after a right code: a username and password (or a password for the account made
    for the player, or linking the account one is signed in with)."""
    tournament = tournament_for(request, slug)
    data = request.session.get(SESSION_KEY) or {}
    token = None
    if data.get("tournament") == tournament.pk and data.get("until", 0) > timezone.now().timestamp():
        token = (
            AccountToken.objects.filter(pk=data.get("token"), tournament=tournament, kind=AccountToken.Kind.PLAYER)
            .select_related("player__user")
            .first()
        )
    if token is None or not token.is_pending or token.player is None:
        request.session.pop(SESSION_KEY, None)
        messages.error(request, str(service.InvalidCode()))
        return redirect("torneo:account_claim", slug=slug)
    player = token.player
    pair = Pair.objects.filter(members__player=player).order_by("-registered_at").first()
    form: Any = None
    if request.user.is_authenticated:
        mode = "link"
    elif player.user is None:
        mode, form = "new", NewAccountForm(request.POST or None)
    elif service.account_is_claimable(player.user, tournament):
        mode, form = "password", NewPasswordForm(player.user, request.POST or None)
    else:
        mode = "has_account"
    if request.method == "POST" and mode != "has_account" and (form is None or form.is_valid()):
        fields = form.cleaned_data if form is not None else {}

        def claim_it() -> Any:
            return service.player_code_claim(
                tournament=tournament,
                token_id=token.pk,
                user=request.user,
                username=fields.get("username", ""),
                password=fields.get("password1") or fields.get("new_password1") or "",
            )

        account = None
        if form is None:  # signed in: link this account; a refusal is a message
            try:
                account = claim_it()
            except TournamentError as exc:
                messages.error(request, str(exc))
                return redirect("torneo:account_claim_finish", slug=slug)
        else:
            with service_errors(form, field_for=_form_errors(form)) as call:
                account = claim_it()
            if not call.ok:
                account = None
        if account is not None:
            request.session.pop(SESSION_KEY, None)
            if not request.user.is_authenticated:
                _login(request, account)
            messages.success(
                request,
                _("Listo: tu cuenta «%(u)s» es la de tu pareja en este torneo.") % {"u": account.get_username()},
            )
            return redirect("torneo:tournament_detail", slug=slug)
    login_url = f"{reverse('login')}?{urlencode({'next': request.path})}"
    context = {
        "tournament": tournament,
        "form": form,
        "mode": mode,
        "first_name": player.first_name,
        "pair": pair,
        "login_url": login_url,
    }
    return _private(render(request, "torneo/accounts/claim_finish.html", context))


# --- public: invitation and password links -------------------------------------------------------


def _invalid_link(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The same answer for every link that does not work, which names no tournament; in a tournament
    the user may not see (a draft), the site's plain 404, as for a tournament that does not exist."""
    _failed(request, tournament)
    if not can_view(request.user, tournament):
        raise Http404
    response = render(request, "torneo/accounts/invalid_link.html", {"message": service.InvalidLink()}, status=404)
    return _private(response)


def _link_tournament(request: HttpRequest, slug: str) -> Tournament | HttpResponse:
    """The tournament of an invitation or password link (drafts too: staff are invited before it
    opens), or the 429 page while this client has failed too often. The refusal comes first and a
    slug that does not exist counts as a failed link, as a draft's wrong link does: otherwise, once
    the window is full, a draft's slug would answer 429 where a missing one answers 404, and a
    stranger could tell which drafts exist. Someone holding a good link still reads why they must
    wait."""
    if (refused := _refusal(request, None)) is not None:
        return refused
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        _failed(request, None)
        raise Http404
    return tournament


@with_browser_cookie
def invitation_accept(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    tournament = _link_tournament(request, slug)
    if isinstance(tournament, HttpResponse):
        return tournament
    try:
        invitation = service.invitation_find(tournament=tournament, token=token)
    except service.InvalidLink:
        return _invalid_link(request, tournament)
    form = None if request.user.is_authenticated else NewAccountForm(request.POST or None)
    if request.method == "POST" and (form is None or form.is_valid()):
        fields = form.cleaned_data if form is not None else {}

        def accept() -> Any:
            return service.invitation_accept(
                tournament=tournament,
                token=token,
                user=request.user,
                username=fields.get("username", ""),
                password=fields.get("password1", ""),
            )

        account = None
        if form is None:
            try:
                account = accept()
            except NotAllowed as exc:  # a pair's phone (its tarjeta) signed in
                messages.error(request, str(exc))
                return redirect(request.path)
            except TournamentError:  # used by someone else meanwhile
                return _invalid_link(request, tournament)
        else:
            with service_errors(form, field_for=_form_errors(form)) as call:
                account = accept()
            if not call.ok:
                account = None
        if account is not None:
            if not request.user.is_authenticated:
                _login(request, account)
            messages.success(
                request,
                _("Bienvenida/o: ahora eres %(role)s en «%(t)s».")
                % {"role": invitation.get_role_display(), "t": tournament.name},
            )
            return redirect("torneo:manage_dashboard", slug=slug)
    context = {
        "tournament": tournament,
        "invitation": invitation,
        "form": form,
        "login_url": f"{reverse('login')}?{urlencode({'next': request.path})}",
    }
    return _private(render(request, "torneo/accounts/invitation.html", context))


@with_browser_cookie
def password_reset_use(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    tournament = _link_tournament(request, slug)
    if isinstance(tournament, HttpResponse):
        return tournament
    try:
        reset = service.password_reset_find(tournament=tournament, token=token)
    except service.InvalidLink:
        return _invalid_link(request, tournament)
    account = reset.user
    form = NewPasswordForm(account, request.POST or None)
    if request.method == "POST" and form.is_valid():
        with service_errors(form, field_for=_form_errors(form)) as call:
            account = service.password_reset_use(
                tournament=tournament, token=token, password=form.cleaned_data["new_password1"]
            )
        if call.ok:
            if request.user.is_authenticated and request.user.pk == account.pk:
                update_session_auth_hash(request, account)
                messages.success(request, _("Contraseña cambiada."))
                return redirect("torneo:tournament_detail", slug=slug)
            messages.success(
                request, _("Contraseña cambiada. Entra con tu usuario «%(u)s».") % {"u": account.get_username()}
            )
            return redirect("login")
    context = {"tournament": tournament, "form": form, "account": account}
    return _private(render(request, "torneo/accounts/password_reset.html", context))


@login_required
def password_change(request: HttpRequest) -> HttpResponse:
    """Anyone signed in changes their own password (the current one is asked first). Their API
    tokens are revoked and their other sessions end; this one goes on."""
    form = PasswordChangeForm(signed_in(request.user), request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save()
        service.credentials_revoke(account=form.user)
        update_session_auth_hash(request, form.user)
        messages.success(request, _("Contraseña cambiada."))
        return redirect("torneo:home")
    return _private(render(request, "torneo/accounts/password_change.html", {"form": form}))
