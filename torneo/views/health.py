"""The site's health for the venue's laptop and a load balancer: ``GET /salud/`` answers 200 when
the database answers, the broker accepts a connection and beat ticked lately, 503 otherwise, with
what each check found (torneo.services.system.health) to the site's staff (an ``is_staff``
account, by session or API token) and only ``{"ok": …}`` to everybody else: the database's vendor
and the broker's class tell an attacker what to aim at. Each process checks at most once every two
seconds, however often it is asked."""

import threading
import time
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from torneo.services.system import health

EVERY = 2.0
_lock = threading.Lock()
_last: tuple[float, dict[str, Any]] | None = None


def _staff(request: HttpRequest) -> bool:
    """The site's staff, signed in or sending its API token (the venue's monitoring script)."""
    if request.user.is_authenticated:
        return bool(request.user.is_staff)
    try:
        found = TokenAuthentication().authenticate(request)  # type: ignore[arg-type]
    except AuthenticationFailed:
        return False
    return found is not None and bool(found[0].is_staff)


@require_GET
def health_view(request: HttpRequest) -> JsonResponse:
    global _last
    with _lock:
        now = time.monotonic()
        if _last is None or now - _last[0] >= EVERY:
            _last = (now, health())
        data = _last[1]
    status = 200 if data["ok"] else 503
    response = JsonResponse(data if _staff(request) else {"ok": data["ok"]}, status=status)
    response["Cache-Control"] = "no-store"
    return response
