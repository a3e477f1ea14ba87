"""Models of the tournament app, by subject: tournaments and registrations; rounds, draws, matches;
one-time account codes and links; the pairs' private links (their terminals); the browsers'
Web Push subscriptions and the notifications sent."""

from torneo.models.accounts import AccountToken
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
    "AccountToken",
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
