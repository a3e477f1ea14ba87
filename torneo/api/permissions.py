"""DRF permission: each viewset action maps to one Action of the tournament matrix."""

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from torneo.permissions import Action, can


class TournamentAction(BasePermission):
    """The view declares `action_permissions = {"create": Action.X, ...}`; an action not listed
    there is a read (allowed; visibility is handled by the queryset)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        needed: Action | None = getattr(view, "action_permissions", {}).get(view.action)
        if needed is None:
            return True
        tournament = view.get_tournament()
        return can(request.user, tournament, needed)
