"""The juego's running count (rule 3 of the package docstring): its current hands checked in order
by the engine (or as a juez ruled them, AMM chapter IV), which of them count, where the count
stops, the juego's tantos and its winner (rule 4), stored as derived fields of the hands and the
juego by ``game_refresh``. Where the tantos the table wrote differ from the engine's count, the
table's count stands (AMM 3.14, ``records.table_count``) and the juego goes on from it, so the
order of the hands is checked here against the count that stands rather than by the engine's
replay. It reads the records through ``records`` and knows nothing of the match result or of who
wrote the hands, except that a player's hand without cards may not close a juego.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext as _

from scoring import mus
from scoring.models import HandRuling, RecordedGame, RecordedHand
from scoring.services.hands.records import (
    Side,
    engine_record,
    has_error,
    ordago_accepted,
    other,
    table_count,
    to_hand_frame,
    to_match_frame,
)


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


def _pair_name(game: RecordedGame, side: str) -> str:
    """One of the match's pairs by its number and name, as the pages name it: the sentences of the
    findings never say «A» or «B» of the match, which on the pages are the hand's mano pair and
    the other."""
    pair = game.match.pair_a if side == Side.A else game.match.pair_b
    if pair is None:  # never for a played match
        return str(Side(side).label)
    return f"{pair.number} · {pair.display_name}"


def _sequence_findings(
    hand: RecordedHand, index: int, previous: tuple[int, int] | None, ended: tuple[str, int] | None, game: RecordedGame
) -> list[dict[str, Any]]:
    """The hand's place in the juego, as the engine's replay checks it (scoring.mus.replay_game)
    but against the juego's count as the site keeps it, where the table's count stands (AMM 3.14):
    the score before must be the score after the previous hand (AMM 1.5), and no hand follows the
    end of the juego (AMM 1.7.a). `previous` and `ended` are in the match's frame."""
    notes: list[dict[str, Any]] = []
    if ended is not None:
        side, number = ended
        notes.append(
            {
                "code": "mano_tras_fin_de_juego",
                "article": "AMM 1.7.a",
                "severity": "error",
                "hand": index,
                "message": _(
                    "La mano n.º %(n)d se jugó después de que la pareja %(p)s ganara el juego (mano n.º %(w)d)."
                )
                % {"n": hand.number, "p": _pair_name(game, side), "w": number},
            }
        )
    score = hand.record.get("score") or {}
    before = to_match_frame(mus.Score(score.get("A", 0), score.get("B", 0)), hand.mano_side)
    if previous is not None and before != previous:
        expected = to_hand_frame(*previous, hand.mano_side)
        notes.append(
            {
                "code": "marcador_previo_incorrecto",
                "article": "AMM 1.5",
                "severity": "error",
                "hand": index,
                "message": _(
                    "La mano n.º %(n)d empieza con A %(a)d – B %(b)d y debería empezar con A %(ea)d – B %(eb)d "
                    "(A es la pareja mano de esta mano)."
                )
                % {
                    "n": hand.number,
                    "a": score.get("A", 0),
                    "b": score.get("B", 0),
                    "ea": expected.a,
                    "eb": expected.b,
                },
            }
        )
    return notes


def game_refresh(game: RecordedGame) -> bool:
    """Replay the juego's current hands (rule 3) and store the derived fields of the hands and the
    juego. Returns whether the juego's winner changed."""
    hands = list(game.hands.filter(is_current=True).order_by("number"))
    # A juez's ruling (AMM chapter IV, services.hands.rulings) decides what its hand counts.
    rulings = {r.hand_id: r for r in HandRuling.objects.filter(hand__in=hands, is_current=True)}
    state = GameState((0, 0), "", False, None)
    previous: tuple[int, int] | None = None  # the score after the previous hand, as the count goes
    ended: tuple[str, int] | None = None  # a hand the engine could count won the juego: side, number
    for index, hand in enumerate(hands):
        record = engine_record(hand, game)
        check = mus.check_record(record) if hand.has_cards else None
        ruling = rulings.get(hand.pk)
        # The hand as it counts: a juez's ruling; else the engine's count, or the table's where it
        # differs and stands (AMM 3.14, records.table_count); without cards, the table's claimed
        # score (rule 3).
        after: mus.Score | None
        if ruling is not None:
            ruled = ruling.ruling
            after = mus.Score(ruled["score"]["A"], ruled["score"]["B"])
            hand_winner = None if ruled["game_winner"] is None else mus.Pair[ruled["game_winner"]]
            ordago = ruling.won_by_ordago
        elif check is not None and check.tanteo is not None:
            table = table_count(check)
            if table is not None:
                after, hand_winner, ordago = table.score, table.winner, table.by_ordago
            else:
                after, hand_winner = check.tanteo.score, check.tanteo.game_winner
                ordago = any(e.kind is mus.EventKind.ORDAGO for e in check.tanteo.events)
        else:
            after = record.claimed.score if record.claimed is not None else None
            hand_winner = _claimed_winner(record)
            ordago = hand_winner is not None and ordago_accepted(record) is not None
        winner_side = None  # the hand's winner of the juego, as a side of the match
        if hand_winner is not None:
            winner_side = hand.mano_side if hand_winner is mus.Pair.A else other(hand.mano_side)
        sequence = _sequence_findings(hand, index, previous, ended, game)
        sequence += _sequence_extras(hands, index)
        if hand.valid and ruling is None and _player_decides_without_cards(hand, record):
            sequence.append(_no_cards_decide(index))
        ruled_or_valid = hand.valid or ruling is not None
        counts = not state.winner and state.stopped_at is None and ruled_or_valid and not has_error(sequence)
        score: tuple[int, int] | None = None
        if counts:
            assert after is not None  # a valid hand has its tanteo, or the claimed score
            score = state.tantos = to_match_frame(after, hand.mano_side)
            if winner_side is not None:
                state.winner, state.won_by_ordago = winner_side, ordago
        elif state.stopped_at is None and not state.winner:
            state.stopped_at = hand.number
        previous = None if after is None else to_match_frame(after, hand.mano_side)
        engine_counted = ruling is not None or (check is not None and check.tanteo is not None)
        if ended is None and winner_side is not None and engine_counted:
            ended = (winner_side, hand.number)
        changes = {"sequence_findings": sequence, "counted": counts}
        changes["score_a"], changes["score_b"] = score if score else (None, None)
        changed = [name for name, value in changes.items() if getattr(hand, name) != value]
        if changed:
            for name in changed:
                setattr(hand, name, changes[name])
            hand.save(update_fields=changed)
    before = game.winner
    if hands and hands[0].number == 1:
        game.first_mano = hands[0].mano_side  # a correction may change who was mano
    game.tantos_a, game.tantos_b = state.tantos
    game.winner, game.won_by_ordago, game.stopped_at = state.winner, state.won_by_ordago, state.stopped_at
    game.save(update_fields=["first_mano", "tantos_a", "tantos_b", "winner", "won_by_ordago", "stopped_at"])
    return before != game.winner
