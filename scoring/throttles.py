"""The limit on the taps that move a table's clock (security, round two).

A juego won, its undo and the tantos of the juego being played are tapped by the table's players
from their phones. Each tap writes the clock, bumps the pages' versions and sends pages to be
rendered ahead; one phone looping on the API once made 2,800 taps in 40 s, queued 1,800 tasks and
left the clocks' tick and the heartbeat behind. The window is per account and table (the juez taps
many tables, each at a human pace), in the shared "ratelimit" cache like every other rule
(torneo/ratelimit.py); the rate is REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["clock_tap"]."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy

from torneo.models import Match
from torneo.ratelimit import RateThrottle, refused_page

CLOCK_TAP_REFUSED = gettext_lazy(
    "Demasiados toques en el reloj de esta mesa en poco tiempo. Espera un momento y vuelve a intentarlo."
)
TAP_ACTIONS = frozenset({"juego", "undo", "tantos"})


class ClockTapThrottle(RateThrottle):
    """Every tap counts, accepted or refused by the service: a flood is a flood."""

    scope = "clock_tap"

    def key_for(self, user: Any, match: Match) -> str | None:
        if not getattr(user, "is_authenticated", False):
            return None  # nobody anonymous taps: the service refuses them first
        return self.key_of(f"{user.pk}:{match.pk}")


def clock_tap_wait(user: Any, match: Match) -> float | None:
    """Count this tap: None when allowed, else the seconds to wait."""
    throttle = ClockTapThrottle()
    return throttle.refusal(throttle.key_for(user, match))


def clock_tap_refused(request: HttpRequest, match: Match) -> HttpResponse | None:
    """The pages' taps: counts this one, or answers the site's 429 page."""
    wait = clock_tap_wait(request.user, match)
    if wait is None:
        return None
    return refused_page(request, wait, CLOCK_TAP_REFUSED, {"tournament": match.round.tournament})
