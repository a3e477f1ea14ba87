"""Live updates: a per-tournament counter that public pages poll (static/js/live.js)."""

from django.db.models import F

from torneo.models import Tournament


def live_bump(*, tournament_id: int) -> None:
    """Something players watch changed. One UPDATE, no lock: the value only has to change."""
    Tournament.objects.filter(pk=tournament_id).update(live_version=F("live_version") + 1)
