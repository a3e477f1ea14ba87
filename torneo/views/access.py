"""Fetching a tournament for a request, with the role check done on the server."""

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import url_has_allowed_host_and_scheme

from torneo.models import Tournament
from torneo.permissions import Action, can, can_view


class LoginRequired(Exception):
    """Raised for anonymous users on staff pages; the middleware-free way to redirect them."""


def tournament_for(request: HttpRequest, slug: str, action: Action | None = None) -> Tournament:
    """The tournament if this user may see it (404 otherwise: drafts stay secret) and, when an
    action is given, may do it (login page for anonymous users, 403 for the others)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_view(request.user, tournament):
        raise Http404
    if action is not None and not can(request.user, tournament, action):
        if not request.user.is_authenticated:
            raise LoginRequired
        raise PermissionDenied
    return tournament


def login_redirect(request: HttpRequest) -> HttpResponse:
    return redirect_to_login(request.get_full_path())


def safe_next(request: HttpRequest, default: str) -> str:
    """The 'next' address from the form when it points into this site; never an open redirect."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return default
