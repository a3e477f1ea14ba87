"""API v1 pieces shared by every API module, scoring's included: the tournament of a view under
/tournaments/<slug>/ (`TournamentScoped`) and the token of a user (`TokenView`)."""

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request

from torneo.models import Tournament
from torneo.permissions import can_view
from torneo.ratelimit import LOGIN_REFUSED, LOGIN_THROTTLES, ThrottleMessage


class TournamentScoped:
    """Views under /tournaments/<slug>/: the tournament, 404 when this user may not see it."""

    kwargs: dict[str, Any]
    request: Request

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            tournament = get_object_or_404(Tournament, slug=self.kwargs["tournament_slug"])
            if not can_view(self.request.user, tournament):
                raise Http404
            self._tournament = tournament
        return self._tournament


class TokenView(ThrottleMessage, ObtainAuthToken):
    """A user's API token for their username and password. Too many failed attempts from one
    address, or for one username, are refused for a while (429 with Retry-After), the right
    password too; the login form counts the same failures. Rules: torneo/ratelimit.py."""

    throttle_classes = LOGIN_THROTTLES
    throttle_message = LOGIN_REFUSED
