"""Models of the tournament app, by subject: tournaments and registrations; rounds, draws, matches;
one-time account codes and links; the pairs' private links (their terminals); the browsers'
Web Push subscriptions and the notifications sent; the organizer's announcements to the hall."""

from torneo.models.accounts import AccountToken
from torneo.models.announcements import ANNOUNCEMENT_MAX_LENGTH, Announcement
from torneo.models.email_notices import EmailSubscription
from torneo.models.idempotency import IdempotentRequest
from torneo.models.notices import Notice
from torneo.models.push import PushSubscription
from torneo.models.rounds import Draw, Match, Round
from torneo.models.terminals import PairTerminal
from torneo.models.tournaments import (
    Pair,
    PairMember,
    Player,
    Session,
    Tournament,
    TournamentRole,
    WorkerHeartbeat,
    pair_label,
    players_label,
)

__all__ = [
    "ANNOUNCEMENT_MAX_LENGTH",
    "AccountToken",
    "Announcement",
    "Draw",
    "EmailSubscription",
    "IdempotentRequest",
    "Match",
    "Notice",
    "Pair",
    "PairMember",
    "PairTerminal",
    "Player",
    "PushSubscription",
    "Round",
    "Session",
    "Tournament",
    "TournamentRole",
    "WorkerHeartbeat",
    "pair_label",
    "players_label",
]
