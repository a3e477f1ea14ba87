"""The juego's running count (rule 3 of the package docstring): its current hands replayed in order
by the engine, which of them count, where the count stops, the juego's tantos and its winner (rule
4), stored as derived fields of the hands and the juego by ``game_refresh``. It reads the records
through ``records`` and knows nothing of the match result or of who wrote the hands, except that a
player's hand without cards may not close a juego.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext as _

from scoring import mus
from scoring.models import RecordedGame, RecordedHand
from scoring.services.hands.records import engine_record, has_error, ordago_accepted, other, to_match_frame

SEQUENCE_CODES = frozenset({"marcador_previo_incorrecto", "mano_tras_fin_de_juego"})


@dataclasses.dataclass
class GameState:
    tantos: tuple[int, int]  # match frame
    winner: str  # "", "a" or "b"
    won_by_ordago: bool
    stopped_at: int | None


def _sequence_extras(hands: list[RecordedHand], index: int) -> list[dict[str, Any]]:
    """Avisos about the order of the hands that the engine's replay leaves to the site."""
    hand = hands[index]
    notes: list[dict[str, Any]] = []
    if index > 0 and hands[index - 1].mano_side == hand.mano_side:
        notes.append(
            {
                "code": "mano_dos_veces",
                "article": "AMM 2.8",
                "severity": "aviso",
                "hand": index,
                "message": _(
                    "La misma pareja es mano en las manos n.º %(p)d y %(n)d: si se advierte antes de cerrarse "
                    "la grande, la mano se anula (AMM 2.8)."
                )
                % {"p": hands[index - 1].number, "n": hand.number},
            }
        )
    if index == 0:
        score = hand.record.get("score") or {}
        if (score.get("A"), score.get("B")) != (0, 0):
            notes.append(
                {
                    "code": "marcador_inicial",
                    "article": "AMM 6.4.b",
                    "severity": "aviso",
                    "hand": index,
                    "message": _(
                        "El juego empieza con A %(a)s – B %(b)s y no 0 – 0: solo cabe en un juego a menos "
                        "tantos decidido por el juez (AMM 6.4.b, 6.4.c)."
                    )
                    % {"a": score.get("A"), "b": score.get("B")},
                }
            )
    return notes


def _claimed_winner(record: mus.RecordedHand) -> mus.Pair | None:
    claimed = record.claimed
    if claimed is None:
        return None
    if claimed.game_winner is not None:
        return claimed.game_winner
    return claimed.score.leader(record.rules.target) if claimed.score is not None else None


def _no_cards_decide(index: int) -> dict[str, Any]:
    return {
        "code": "sin_cartas_decide",
        "article": "AMM 3.4.c, 3.16",
        "severity": "error",
        "hand": index,
        "message": _(
            "Sin cartas, una mano anotada por los jugadores no puede cerrar un juego: anota las cartas "
            "(que se enseñan al terminar la mano, AMM 3.4.c) o que lo anote la mesa de control o un juez."
        ),
    }


def _player_decides_without_cards(hand: RecordedHand, record: mus.RecordedHand) -> bool:
    """A hand without cards counts at the score the table claims; typed by a player, that claim
    must not end a juego (nor, through it, the match): a side would be declaring its own win."""
    return (
        not hand.has_cards
        and hand.recorded_as == RecordedHand.RecordedAs.PLAYER
        and _claimed_winner(record) is not None
    )


def game_refresh(game: RecordedGame) -> bool:
    """Replay the juego's current hands (rule 3) and store the derived fields of the hands and the
    juego. Returns whether the juego's winner changed."""
    hands = list(game.hands.filter(is_current=True).order_by("number"))
    state = GameState((0, 0), "", False, None)
    if hands:
        frame = hands[0].mano_side  # the replay's pair A: mano of the juego's first current hand
        records = [engine_record(h, game) for h in hands]
        mano_pairs = [mus.Pair.A if h.mano_side == frame else mus.Pair.B for h in hands]
        replay = mus.replay_game(records, mano_pairs)
        winner: mus.Pair | None = None  # in the replay's frame
        for index, (hand, record) in enumerate(zip(hands, records, strict=True)):
            sequence = [mus.finding_to_json(f) for f in replay.findings if f.hand == index and f.code in SEQUENCE_CODES]
            sequence += _sequence_extras(hands, index)
            if hand.valid and _player_decides_without_cards(hand, record):
                sequence.append(_no_cards_decide(index))
            counts = winner is None and state.stopped_at is None and hand.valid and not has_error(sequence)
            score: tuple[int, int] | None = None
            if counts:
                after = replay.scores[index]
                assert after is not None  # a valid hand has its tanteo, or the claimed score
                score = to_match_frame(after, frame)
                state.tantos = score
                check = replay.checks[index]
                if check.tanteo is not None:
                    hand_winner = check.tanteo.game_winner
                    ordago = any(e.kind is mus.EventKind.ORDAGO for e in check.tanteo.events)
                else:
                    hand_winner = _claimed_winner(record)
                    ordago = hand_winner is not None and ordago_accepted(record) is not None
                if hand_winner is not None:
                    winner = hand_winner if mano_pairs[index] is mus.Pair.A else hand_winner.other
                    state.won_by_ordago = ordago
            elif state.stopped_at is None and winner is None:
                state.stopped_at = hand.number
            changes = {"sequence_findings": sequence, "counted": counts}
            changes["score_a"], changes["score_b"] = score if score else (None, None)
            changed = [name for name, value in changes.items() if getattr(hand, name) != value]
            if changed:
                for name in changed:
                    setattr(hand, name, changes[name])
                hand.save(update_fields=changed)
        if winner is not None:
            state.winner = frame if winner is mus.Pair.A else other(frame)
    before = game.winner
    if hands and hands[0].number == 1:
        game.first_mano = hands[0].mano_side  # a correction may change who was mano
    game.tantos_a, game.tantos_b = state.tantos
    game.winner, game.won_by_ordago, game.stopped_at = state.winner, state.won_by_ordago, state.stopped_at
    game.save(update_fields=["first_mano", "tantos_a", "tantos_b", "winner", "won_by_ordago", "stopped_at"])
    return before != game.winner
