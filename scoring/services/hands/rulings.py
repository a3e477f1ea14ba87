"""The juez's rulings on a recorded hand (AMM chapter IV): ask the engine, then confirm or withdraw.

The juez asks for a ruling with the facts only the table knows (when an error was rectified, the
envites declined because of it, the señas, a player who put his cards into the deck…) and sees
the engine's answer (``hand_ruling_preview``: nothing is written). Confirming it
(``hand_ruling_confirm``) stores the ruling with the hand's version — who, when, the facts, the
articles — and the hand then counts in its juego at the ruling's tantos, whatever its own
findings (a false declaration stops the count until a juez rules); the juego's count and the
match result follow as after any write. A new ruling replaces the current one; withdrawing it
(``hand_ruling_withdraw``) puts the hand back as the engine counts it. The server always asks the
engine again: what the page showed is never trusted.

Only the organizer and the jueces rule (``Action.HANDS_RULE``); a hand without cards cannot be
ruled (the engine needs them).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import mus
from scoring.models import HandRuling, RecordedGame, RecordedHand
from scoring.mus.rulings import rule
from scoring.mus.rulings_io import FACT_KEYS, read_facts, ruling_to_json
from scoring.services.hands.records import Side, engine_record, other, to_match_frame
from scoring.services.hands.result import ResultNote
from scoring.services.hands.writes import after_write, lock_hand
from scoring.signals import ruling_changed
from torneo.errors import Conflict, NotAllowed, TournamentError
from torneo.history import update_with_history
from torneo.models import Match
from torneo.permissions import Action, can
from torneo.typing import User, signed_in_or_none


@dataclasses.dataclass(frozen=True)
class RulingSaved:
    """A ruling written (or withdrawn), its juego after the replay, and the match result's note."""

    ruling: HandRuling
    game: RecordedGame
    result: ResultNote | None


def can_rule(user: User, match: Match) -> bool:
    """The organizer and the tournament's jueces rule on hands (AMM chapter IV is the jueces')."""
    return can(user, match.round.tournament, Action.HANDS_RULE)


def clean_facts(data: Mapping[str, Any]) -> dict[str, Any]:
    """The juez's facts, only the keys the engine reads, without empty ones."""
    return {key: value for key, value in data.items() if key in FACT_KEYS and value not in (None, [], {}, False)}


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def hand_ruling_preview(*, hand: RecordedHand, facts: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's ruling on ``hand`` with the juez's ``facts`` (the ``ruling`` command's JSON);
    nothing is written. Raises ``ValidationError`` keyed by the fact at fault."""
    if not hand.has_cards:
        raise ValidationError(
            {"hand": _("Esta mano se anotó sin cartas: para pedir un fallo hay que anotar las cartas de los cuatro.")}
        )
    record = engine_record(hand, hand.game)
    try:
        ruled = rule(record, read_facts(clean_facts(facts)))
    except mus.RecordFormatError as error:
        raise ValidationError({error.field or "facts": _sentence(error.detail)}) from None
    except mus.MusError as error:
        raise ValidationError({"facts": _sentence(str(error))}) from None
    return ruling_to_json(ruled)


def _authorize(by: User, match: Match) -> None:
    if not can_rule(by, match):
        raise NotAllowed(_("Solo un juez o la organización del torneo pueden dictar fallos sobre las manos."))
    if match.is_bye:
        raise TournamentError(_("Una exenta no se juega: no tiene manos."), code="bye")


def hand_ruling_confirm(
    *, hand: RecordedHand, by: User, facts: Mapping[str, Any], expected_version: int | None = None
) -> RulingSaved:
    """Store the engine's ruling on the current version of ``hand``, replacing any current one;
    the hand then counts at the ruling's tantos (AMM chapter IV)."""
    with transaction.atomic():
        match, hand = lock_hand(hand)
        _authorize(by, match)
        if expected_version is not None and expected_version != hand.version:
            raise Conflict(
                _("La mano n.º %(n)d ha cambiado (ahora es la versión %(v)d): revísala antes de dictar el fallo.")
                % {"n": hand.number, "v": hand.version}
            )
        stored = clean_facts(facts)
        answer = hand_ruling_preview(hand=hand, facts=stored)
        score = mus.Score(answer["score"]["A"], answer["score"]["B"])
        score_a, score_b = to_match_frame(score, hand.mano_side)
        winner = answer["game_winner"]
        side = "" if winner is None else (hand.mano_side if winner == "A" else other(hand.mano_side))
        update_with_history(HandRuling.objects.filter(hand=hand, is_current=True), is_current=False)
        ruling = HandRuling.objects.create(
            hand=hand,
            facts=stored,
            ruling=answer,
            articles=answer["articles"],
            score_a=score_a,
            score_b=score_b,
            winner=side,
            won_by_ordago=any(event["kind"] == "ordago" for event in answer["events"]),
            ruled_by=signed_in_or_none(by),
        )
        ruling_changed.send(sender=HandRuling, ruling=ruling, by=by, withdrawn=False)
        note = after_write(match, hand.game, by)
        return RulingSaved(ruling, hand.game, note)


def hand_ruling_withdraw(*, ruling: HandRuling, by: User) -> RulingSaved:
    """Withdraw a current ruling: its hand counts again as the engine counts it."""
    with transaction.atomic():
        match, hand = lock_hand(ruling.hand)
        _authorize(by, match)
        ruling = HandRuling.objects.select_for_update().get(pk=ruling.pk)
        if not ruling.is_current or ruling.hand_id != hand.pk:
            raise Conflict(_("Ese fallo ya no está en vigor."))
        ruling.is_current = False
        ruling.withdrawn_by = signed_in_or_none(by)
        ruling.withdrawn_at = timezone.now()
        ruling.save(update_fields=["is_current", "withdrawn_by", "withdrawn_at"])
        ruling_changed.send(sender=HandRuling, ruling=ruling, by=by, withdrawn=True)
        note = after_write(match, hand.game, by)
        return RulingSaved(ruling, hand.game, note)


__all__ = [
    "RulingSaved",
    "Side",
    "can_rule",
    "clean_facts",
    "hand_ruling_confirm",
    "hand_ruling_preview",
    "hand_ruling_withdraw",
]
