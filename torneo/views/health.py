"""The site's health for the venue's laptop and a load balancer: ``GET /salud/`` answers 200 when
the database answers, the broker accepts a connection and beat ticked lately, 503 otherwise, with
what each check found (torneo.services.system.health). Public and without secrets; each process
checks at most once every two seconds, however often it is asked."""

import threading
import time
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from torneo.services.system import health

EVERY = 2.0
_lock = threading.Lock()
_last: tuple[float, dict[str, Any]] | None = None


@require_GET
def health_view(request: HttpRequest) -> JsonResponse:
    global _last
    with _lock:
        now = time.monotonic()
        if _last is None or now - _last[0] >= EVERY:
            _last = (now, health())
        data = _last[1]
    response = JsonResponse(data, status=200 if data["ok"] else 503)
    response["Cache-Control"] = "no-store"
    return response
