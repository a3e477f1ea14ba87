"""What the circuits app does when scoring says something happened (scoring.signals)."""

from typing import Any

from circuits.models import CircuitTournament
from circuits.ratings import ratings_request


def on_result_counted(sender: Any, match: Any, **kwargs: Any) -> None:
    """A result counts: if its tournament is in a circuit, the ratings are recomputed."""
    if CircuitTournament.objects.filter(tournament_id=match.round.tournament_id).exists():
        ratings_request()
