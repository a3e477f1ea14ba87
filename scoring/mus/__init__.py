"""The mus engine: cards, rule sets, evaluation, betting, tanteo and recorded-hand validation.

Pure Python, no Django: the tournament site uses it, and so can anyone on their own (``python
-m scoring.mus`` reads and writes JSON lines). The default rules are the AMM reglamento v6.4.

>>> from scoring.mus import Hand, showdown
>>> hands = [Hand.parse(text) for text in ("12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c")]
>>> showdown(hands).grande
0
"""

from .betting import Action, Bet, LanceBetting, Outcome, parse_bets, resolve_lance
from .cards import (
    DECK,
    FULL_DECK,
    MULTISETS,
    NUMBERS,
    Card,
    Hand,
    Suit,
    check_deal,
    format_hand,
    parse_deal,
    parse_hand,
)
from .core import LOVE, MANO, PAIRS, POSTRE, SEAT_NAMES, SEATS, Lance, Pair, Score, Seat
from .errors import (
    CardCountError,
    CardNotInDeckError,
    IllegalBetError,
    InvalidBetError,
    InvalidCardError,
    InvalidRuleSetError,
    InvalidScoreError,
    MusError,
    RecordFormatError,
    RepeatedCardError,
    UnknownRuleSetError,
)
from .evaluation import (
    Pares,
    PlayerFacts,
    Showdown,
    distinct_hands,
    evaluate,
    jugada_maxima,
    jugada_minima,
    showdown,
)
from .jsonio import showdown_to_json, tanteo_to_json
from .record import Claimed, Declaration, RecordedHand, parse_record, record_to_json
from .rules import AMM, AMM_ARTICLES, EHMT, FOURNIER, RULE_SETS, Real31, RuleSet, get_rules
from .tanteo import Event, EventKind, TanteoResult, tanteo
from .validation import (
    Finding,
    GameReplay,
    RecordCheck,
    Severity,
    check_record,
    finding_to_json,
    replay_game,
    validate,
)

__all__ = [
    "AMM",
    "AMM_ARTICLES",
    "DECK",
    "EHMT",
    "FOURNIER",
    "FULL_DECK",
    "LOVE",
    "MANO",
    "MULTISETS",
    "NUMBERS",
    "PAIRS",
    "POSTRE",
    "RULE_SETS",
    "SEATS",
    "SEAT_NAMES",
    "Action",
    "Bet",
    "Card",
    "CardCountError",
    "CardNotInDeckError",
    "Claimed",
    "Declaration",
    "Event",
    "EventKind",
    "Finding",
    "GameReplay",
    "Hand",
    "IllegalBetError",
    "InvalidBetError",
    "InvalidCardError",
    "InvalidRuleSetError",
    "InvalidScoreError",
    "Lance",
    "LanceBetting",
    "MusError",
    "Outcome",
    "Pair",
    "Pares",
    "PlayerFacts",
    "Real31",
    "RecordCheck",
    "RecordFormatError",
    "RecordedHand",
    "RepeatedCardError",
    "RuleSet",
    "Score",
    "Seat",
    "Severity",
    "Showdown",
    "Suit",
    "TanteoResult",
    "UnknownRuleSetError",
    "check_deal",
    "check_record",
    "distinct_hands",
    "evaluate",
    "finding_to_json",
    "format_hand",
    "get_rules",
    "jugada_maxima",
    "jugada_minima",
    "parse_bets",
    "parse_deal",
    "parse_hand",
    "parse_record",
    "record_to_json",
    "replay_game",
    "resolve_lance",
    "showdown",
    "showdown_to_json",
    "tanteo",
    "tanteo_to_json",
    "validate",
]
