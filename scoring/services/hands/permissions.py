"""Who may record the hands of a match: the staff with HANDS_RECORD (organizer, mesa de control,
juez) any match's, a player only their own match's, and only the hands players recorded. Kept apart
from the record and the count because it depends on the user and the tournament's roles only:
the views and the API ask it to show or hide the forms, and the writes call ``authorize`` before
anything is written (a bye, an unpublished round, the AMM 3.18 lock for players).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.models import RecordedHand
from scoring.services.results import is_locked
from torneo.errors import NotAllowed, TournamentError
from torneo.models import Match
from torneo.permissions import Action, can, is_player_of
from torneo.typing import User


def is_staff_recorder(user: User, match: Match) -> bool:
    return can(user, match.round.tournament, Action.HANDS_RECORD)


def can_record_hands(user: User, match: Match) -> bool:
    """HANDS_RECORD (organizer, mesa de control, juez) for any match; a player for their own."""
    return is_staff_recorder(user, match) or is_player_of(user, match)


def can_change_hand(user: User, hand: RecordedHand, match: Match) -> bool:
    """Staff change any hand; a player only the hands players recorded (never a juez's)."""
    if is_staff_recorder(user, match):
        return True
    return hand.recorded_as == RecordedHand.RecordedAs.PLAYER and is_player_of(user, match)


def authorize(by: User, match: Match, hand: RecordedHand | None = None) -> str:
    """Raise unless `by` may write this match's hands now; return how they record (staff/player)."""
    if match.is_bye:
        raise TournamentError(_("Una exenta no se juega: no tiene manos que anotar."), code="bye")
    if not match.round.is_published:
        raise TournamentError(_("La ronda no está publicada."), code="unpublished")
    if is_staff_recorder(by, match):
        return RecordedHand.RecordedAs.STAFF
    if not is_player_of(by, match):
        raise NotAllowed(_("Solo los jugadores de esta partida, la organización o un juez pueden anotar sus manos."))
    if is_locked(match):
        raise NotAllowed(
            _(
                "El resultado de esta partida ya es inamovible (AMM 3.18): solo la organización, la mesa "
                "de control o un juez pueden anotar o cambiar sus manos."
            )
        )
    if hand is not None and hand.recorded_as != RecordedHand.RecordedAs.PLAYER:
        raise NotAllowed(_("Esta mano la anotó la organización o un juez: solo ellos pueden cambiarla."))
    return RecordedHand.RecordedAs.PLAYER
