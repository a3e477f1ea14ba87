"""Recorded hands (manos anotadas): record, edit (a new version) and delete a hand of a match; the
mus engine validates each hand as it is saved; the juego's running tantos follow from its valid
hands, and the match result from the recorded juegos.

The rules of the record, precisely (README «Manos anotadas» says the same to users):

1. Typing mistakes are refused and nothing is written: a record that does not follow the
   engine's format (``RecordFormatError``, keyed by its field) and a deal that cannot exist — a
   card that is not one, a card twice, a hand without four cards (keyed ``hands[<seat>]``). The
   cards are optional (AMM 3.4.c has them shown at the end of every hand, but a table may not
   note them): four hands or none. Tantos no hand can have are typing mistakes too: a score
   before the hand outside 0 to tantos per juego − 1 (a juego decided at fewer tantos, AMM 6.4,
   still starts below it), envites of one lance adding up to more than 100, a claimed score after
   the hand below 0 or above tantos per juego − 1 + 100 (``_check_tantos``).
2. Everything else the engine finds is a fact about the play and the hand is stored with it:
   false declarations by seat and lance (AMM 4.1a), illegal betting, claimed tantos that differ
   from the count (AMM 3.13), an impossible score. A disputed hand is recorded as it happened;
   the jueces' rulings (chapter IV) start from it.
3. The running tantos: the juego's current hands are replayed in order by the engine
   (``replay_game``, with the recorded mano of each hand). A hand **counts** when it has no
   finding of severity error — its own, or of the sequence (its score before is not the score
   after the previous hand, AMM 1.5; it follows the end of the juego) — and every hand before it
   counted. The first hand with an error **stops the count** of its juego: it and the hands
   after it are kept but do not count until it is corrected (a new version) or deleted. Counted
   hands score what the engine counts, never what was claimed. A hand without cards cannot be
   checked: it counts at the table's claimed score after the hand (required), with an «aviso»;
   recorded by a player, it cannot close a juego (an error, ``sin_cartas_decide``): a side would
   be declaring its own win.
4. A juego closes when a counted hand takes a pair to the tournament's tantos per juego or wins
   an accepted órdago (AMM 1.7.a); a later hand of that juego is an error. The next hand starts
   the next juego, mano continuing to alternate (AMM 2.8).
5. The match: when the closed juegos, in order, give a pair the tournament's juegos to win, the
   result is submitted through ``result_submit(source=HANDS)`` (double check, AMM 3.16, and the
   3.18 lock included). Recorded by a player, it is only proposed, double check or not, until the
   mesa de control or the losing pair confirms it — never the side that recorded it. A result the
   mesa de control or a player entered otherwise is never overwritten: a difference is reported.
   A refusal (3.18, a conflict) is reported too; the hand stays saved.

Writes lock the tournament row and then the match row (the order of result_submit and the draw
services), so two phones recording the same table get consecutive numbers, never the same one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import mus
from scoring.models import RecordedGame, RecordedHand, ResultSubmission
from scoring.services.results import is_locked, result_submit
from torneo.errors import Conflict, NotAllowed, TournamentError
from torneo.models import Match, PairMember, Tournament
from torneo.permissions import Action, can
from torneo.services.live import live_bump

Side = RecordedGame.Side
SEQUENCE_CODES = frozenset({"marcador_previo_incorrecto", "mano_tras_fin_de_juego"})
# Every hand scores at least one tanto (the grande, AMM 3.13), so a juego to 40 ends within 40
# counted hands: these bounds only stop a phone that posts without end (and the small integers
# that number hands and versions from overflowing).
MAX_HANDS_PER_GAME = 200
MAX_VERSIONS_PER_HAND = 100
_DEAL_CODES = frozenset({"carta_invalida", "carta_fuera_de_baraja", "carta_repetida", "numero_de_cartas"})


def other(side: str) -> str:
    return Side.B if side == Side.A else Side.A


def to_match_frame(score: mus.Score, mano_side: str) -> tuple[int, int]:
    """A score whose A is the mano pair of a hand, as (match pair_a, match pair_b)."""
    return (score.a, score.b) if mano_side == Side.A else (score.b, score.a)


def to_hand_frame(a: int, b: int, mano_side: str) -> mus.Score:
    """(match pair_a, pair_b) tantos as the engine's score of a hand where `mano_side` is mano (A)."""
    return mus.Score(a, b) if mano_side == Side.A else mus.Score(b, a)


# --- who may record --------------------------------------------------------------------------


def is_staff_recorder(user: Any, match: Match) -> bool:
    return can(user, match.round.tournament, Action.HANDS_RECORD)


def is_player_of(user: Any, match: Match) -> bool:
    """The player role, for a match: the user plays in one of its two pairs."""
    if not user.is_authenticated or match.pair_b_id is None:
        return False
    return PairMember.objects.filter(pair_id__in=[match.pair_a_id, match.pair_b_id], player__user=user).exists()


def can_record_hands(user: Any, match: Match) -> bool:
    """HANDS_RECORD (organizer, mesa de control, juez) for any match; a player for their own."""
    return is_staff_recorder(user, match) or is_player_of(user, match)


def can_change_hand(user: Any, hand: RecordedHand, match: Match) -> bool:
    """Staff change any hand; a player only the hands players recorded (never a juez's)."""
    if is_staff_recorder(user, match):
        return True
    return hand.recorded_as == RecordedHand.RecordedAs.PLAYER and is_player_of(user, match)


def _authorize(by: Any, match: Match, hand: RecordedHand | None = None) -> str:
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


# --- reading a record ------------------------------------------------------------------------


def rules_for(game: RecordedGame) -> mus.RuleSet:
    """The juego's rules: the tournament's preset, its target replaced by the tantos per juego."""
    rules = mus.get_rules(game.rule_set)
    return rules if rules.target == game.target else dataclasses.replace(rules, target=game.target)


def engine_record(hand: RecordedHand, game: RecordedGame) -> mus.RecordedHand:
    """The stored record, read back by the engine with the juego's rules."""
    record = mus.parse_record(hand.record)
    return dataclasses.replace(record, rules=rules_for(game))


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


# The bounds of a record's tantos. AMM 3.6 lets an envite be any number, and the engine counts it
# as said; but a stake of the tantos per juego already wins the juego, because the count stops at
# the first event that takes a pair to the target (scoring.mus.tanteo.score_hand). So the envites
# of one lance may add up to MAX_LANCE_STAKE (100, two and a half juegos to 40): only a typing slip
# (an extra zero) is refused. One event of the count is then at most MAX_LANCE_STAKE tantos (an
# accepted stake, or a deje, which is smaller; a jugada is at most 6, duples in both hands), so a
# pair has at most target - 1 + MAX_LANCE_STAKE tantos after a hand: 139 in a juego to 40. That
# bounds the claimed score too, keeps the juego's tantos within the results' 0-200 per juego, and
# far from what the database stores (RecordedHand.score_a and RecordedGame.tantos_a are smallints).
MAX_LANCE_STAKE = 100


def max_score_after(target: int) -> int:
    """The most tantos a pair can have after one hand of a juego to `target` (see above)."""
    return target - 1 + MAX_LANCE_STAKE


def _check_tantos(record: mus.RecordedHand, target: int) -> None:
    """Refuse tantos no hand can have: a score before the hand outside 0..target-1 (a juego ends
    when a pair reaches the target; one decided by the juez at fewer tantos, AMM 6.4, still starts
    below it), a lance's envites above MAX_LANCE_STAKE, a claimed score after the hand below 0 or
    above max_score_after. A claimed score lower than the score before stays a finding (AMM 3.13)."""
    score = record.score
    if not (0 <= score.a < target and 0 <= score.b < target):
        raise ValidationError(
            {
                "score": _(
                    "Antes de una mano cada pareja tiene de 0 a %(max)d tantos (el juego es a %(t)d): "
                    "A %(a)d – B %(b)d no puede ser."
                )
                % {"max": target - 1, "t": target, "a": score.a, "b": score.b}
            }
        )
    cap = record.rules.envite_cap
    for lance, bets in record.bets.items():
        stake = 0
        for index, bet in enumerate(bets):
            if bet.action is not mus.Action.ENVIDO:
                continue
            amount = 2 if bet.amount is None else bet.amount
            stake += 2 if cap is not None and amount > cap else amount  # as the engine counts it
            if stake > MAX_LANCE_STAKE:
                raise ValidationError(
                    {
                        f"lances.{lance.key}[{index}]": _(
                            "Los envites de %(l)s suman %(n)d tantos: como mucho %(max)d (con %(t)d ya se "
                            "gana el juego)."
                        )
                        % {"l": lance.key, "n": stake, "max": MAX_LANCE_STAKE, "t": target}
                    }
                )
    claimed = record.claimed.score if record.claimed is not None else None
    highest = max_score_after(target)
    if claimed is not None and not (0 <= claimed.a <= highest and 0 <= claimed.b <= highest):
        raise ValidationError(
            {
                "claimed.score": _(
                    "Tras una mano cada pareja tiene de 0 a %(max)d tantos (el juego es a %(t)d): "
                    "A %(a)d – B %(b)d no puede ser."
                )
                % {"max": highest, "t": target, "a": claimed.a, "b": claimed.b}
            }
        )


def clean_record(
    data: object, *, rule_set: str, target: int, score: mus.Score, record_id: str
) -> tuple[mus.RecordedHand, dict[str, Any], bool]:
    """Read a recorded hand typed by a table (the engine's JSON format) and refuse typing mistakes
    (rule 1 above): ValidationError keyed by the engine's field. Returns the engine's record, its
    JSON as stored, and whether it has the cards. `score` is used when the record has none. Tantos
    no hand can have are typing mistakes too (`_check_tantos`), keyed «score», «claimed.score» or
    the lance's envite."""
    if not isinstance(data, Mapping):
        raise ValidationError({"record": _("Se esperaba una mano anotada: un objeto con «hands», «lances»…")})
    data = dict(data)
    given_rules = data.get("rules")
    if given_rules not in (None, rule_set):
        raise ValidationError(
            {"rules": _("El torneo se juega con el reglamento «%(r)s»; no se puede anotar con otro.") % {"r": rule_set}}
        )
    data["rules"] = rule_set
    data["id"] = record_id
    if data.get("score") is None:
        data["score"] = {"A": score.a, "B": score.b}
    hands = data.get("hands")
    if hands is None:
        hands = data["hands"] = []
    has_cards = True
    if isinstance(hands, list) and all(isinstance(h, str) for h in hands):
        blank = [not h.strip() for h in hands]
        if all(blank):
            data["hands"], has_cards = [], False
        elif any(blank) or len(hands) != 4:
            raise ValidationError({"hands": _("Escribe las cartas de los cuatro jugadores, o de ninguno.")})
        else:
            data["hands"] = [" ".join(h.split()) for h in hands]
    try:
        record = mus.parse_record(data)
    except mus.RecordFormatError as error:
        raise ValidationError({error.field or "record": _sentence(error.detail)}) from None
    except mus.MusError as error:  # a rule set the engine does not know
        raise ValidationError({"rules": _sentence(str(error))}) from None
    rules = mus.get_rules(rule_set)
    if rules.target != target:
        rules = dataclasses.replace(rules, target=target)
    record = dataclasses.replace(record, rules=rules)
    _check_tantos(record, target)
    if has_cards:
        _hands, problems = mus.check_deal(record.hands, rules.deck)
        if problems:
            errors: dict[str, list[str]] = {}
            for seat, problem in problems:
                key = "hands" if seat is None else f"hands[{seat}]"
                errors.setdefault(key, []).append(_sentence(str(problem)))
            raise ValidationError(errors)
    elif record.claimed is None or record.claimed.score is None:
        raise ValidationError(
            {"claimed.score": _("Sin cartas la mano no se puede contar: anota el marcador tras la mano.")}
        )
    return record, mus.record_to_json(record), has_cards


def _ordago_accepted(record: mus.RecordedHand) -> mus.Lance | None:
    for lance, bets in record.bets.items():
        actions = [bet.action for bet in bets]
        if mus.Action.ORDAGO in actions and actions[-1] is mus.Action.QUIERO:
            return lance
    return None


def hand_findings(record: mus.RecordedHand, has_cards: bool) -> list[dict[str, Any]]:
    """The hand's own findings, as JSON (scoring.mus.finding_to_json)."""
    if has_cards:
        return [mus.finding_to_json(f) for f in mus.check_record(record).findings]
    findings = [
        {
            "code": "sin_cartas",
            "article": "AMM 3.4.c",
            "severity": "aviso",
            "message": _(
                "No se anotaron las cartas (que se enseñan al terminar cada mano, AMM 3.4.c): el tanteo "
                "anotado por la mesa no se puede comprobar y cuenta tal cual."
            ),
        }
    ]
    claimed = record.claimed.score if record.claimed is not None else None
    if claimed is not None and (claimed.a < record.score.a or claimed.b < record.score.b):
        findings.append(
            {
                "code": "marcador_incorrecto",
                "article": "AMM 3.13",
                "severity": "error",
                "message": _(
                    "Tras la mano se anotó A %(ca)d – B %(cb)d, menos tantos que antes de ella (A %(a)d – B %(b)d)."
                )
                % {"ca": claimed.a, "cb": claimed.b, "a": record.score.a, "b": record.score.b},
            }
        )
    lance = _ordago_accepted(record)
    if lance is not None and (record.claimed is None or record.claimed.game_winner is None):
        findings.append(
            {
                "code": "ordago_sin_ganador",
                "article": "AMM 1.7.a",
                "severity": "error",
                "lance": lance.key,
                "message": _("Hubo un órdago aceptado a %(l)s: sin cartas, anota qué pareja ganó el juego.")
                % {"l": lance.key},
            }
        )
    return findings


def _has_error(findings: list[dict[str, Any]]) -> bool:
    return any(f.get("severity") == "error" for f in findings)


# --- the juego's replay ----------------------------------------------------------------------


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
            counts = winner is None and state.stopped_at is None and hand.valid and not _has_error(sequence)
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
                    ordago = hand_winner is not None and _ordago_accepted(record) is not None
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


# --- the match result ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ResultNote:
    """What happened to the match result after a hand was saved: a message for the page."""

    level: str  # "success", "info", "warning" or "error" (django.contrib.messages tags)
    message: str
    submission: ResultSubmission | None = None


def juegos_result(games: list[RecordedGame], games_to_win: int) -> tuple[int, int, list[list[int]]] | None:
    """Juegos won by each pair and the tantos of each, when the closed juegos, in order, decide
    the match (AMM 1.7.a); None otherwise."""
    won = {Side.A: 0, Side.B: 0}
    tantos: list[list[int]] = []
    for game in games:
        if not game.winner:
            return None
        won[game.winner] += 1
        tantos.append([game.tantos_a, game.tantos_b])
        if won[game.winner] == games_to_win:
            return won[Side.A], won[Side.B], tantos
    return None


def _games_label(result: Match | ResultSubmission) -> str:
    if result.games_a is not None and result.games_b is not None:
        return f"{result.games_a}-{result.games_b}"
    return str(result.get_outcome_display())


def _follow_result(match: Match, by: Any) -> ResultNote | None:
    """Rule 5: submit the result the recorded juegos give, or say why not."""
    tournament = match.round.tournament
    games = list(match.recorded_games.order_by("number"))
    decided = juegos_result(games, tournament.games_to_win)
    confirmed = match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).first()
    if decided is None:
        if match.is_decided and confirmed is not None and confirmed.source == ResultSubmission.Source.HANDS:
            return ResultNote(
                "warning",
                _(
                    "La partida tiene un resultado que salió de las manos anotadas y ya no se deduce de "
                    "ellas: revísalo con la mesa de control."
                ),
            )
        return None
    games_a, games_b, tantos = decided
    score = f"{games_a}-{games_b}"
    if match.outcome == Match.Outcome.PLAYED and (match.games_a, match.games_b) == (games_a, games_b):
        return None  # it is already the match's result
    pending = match.submissions.filter(status=ResultSubmission.Status.PROPOSED).first()
    if pending is not None and (pending.outcome, pending.games_a, pending.games_b) == (
        Match.Outcome.PLAYED,
        games_a,
        games_b,
    ):
        return ResultNote(
            "info",
            _("Resultado %(s)s pendiente de confirmar por la pareja perdedora (AMM 3.16).") % {"s": score},
            pending,
        )
    if pending is not None and pending.source != ResultSubmission.Source.HANDS:
        return ResultNote(
            "warning",
            _(
                "Hay un resultado pendiente de confirmar (%(c)s, %(w)s) y las manos anotadas dan %(s)s: no se "
                "cambia. Revisadlo con la mesa de control."
            )
            % {"c": _games_label(pending), "w": pending.get_source_display(), "s": score},
        )
    if match.is_decided and (confirmed is None or confirmed.source != ResultSubmission.Source.HANDS):
        return ResultNote(
            "warning",
            _(
                "La partida ya tiene resultado (%(c)s) y las manos anotadas dan %(s)s: no se cambia. "
                "Revisadlo con la mesa de control."
            )
            % {"c": _games_label(match), "s": score},
        )
    try:
        with transaction.atomic():
            sub = result_submit(
                match=match,
                by=by,
                outcome=Match.Outcome.PLAYED,
                games_a=games_a,
                games_b=games_b,
                tantos=tantos,
                source=ResultSubmission.Source.HANDS,
            )
    except (ValidationError, TournamentError) as exc:
        reason = " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
        return ResultNote(
            "error", _("Las manos dan %(s)s, pero el resultado no se ha anotado: %(e)s") % {"s": score, "e": reason}
        )
    if sub.status == ResultSubmission.Status.CONFIRMED:
        return ResultNote(
            "success", _("Partida decidida por las manos anotadas: %(s)s. Resultado anotado.") % {"s": score}, sub
        )
    return ResultNote(
        "info",
        _("Partida decidida por las manos anotadas: %(s)s. Falta que la confirme la pareja perdedora (AMM 3.16).")
        % {"s": score},
        sub,
    )


# --- writes ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class HandSaved:
    """A write's outcome: the hand (the new version, or the deleted row), its juego after the
    replay, and what happened to the match result."""

    hand: RecordedHand
    game: RecordedGame
    result: ResultNote | None


def _lock_match(match: Match) -> Match:
    """Lock the tournament row, then the match row: the order of the results and draw services,
    so that recording a hand and entering a result or publishing a draw never deadlock."""
    tournament_id = Match.objects.filter(pk=match.pk).values_list("round__tournament_id", flat=True).get()
    Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).values_list("pk", flat=True).get()
    return (
        Match.objects.select_for_update(no_key=True, of=("self",))
        .select_related("round__tournament", "pair_a", "pair_b")
        .get(pk=match.pk)
    )


def _record_id(match: Match, game_number: int, number: int) -> str:
    return f"mesa {match.table_number or '-'} / partida {match.pk} / juego {game_number} / mano {number}"


def _clean_side(mano: str | None, field: str = "mano") -> str | None:
    if mano in (None, ""):
        return None
    if mano not in Side.values:
        raise ValidationError({field: _("Indica la pareja mano: «a» (pareja A de la mesa) o «b» (pareja B).")})
    return mano


def _game_for_new_hand(match: Match, *, game_number: int | None, mano: str | None, by: Any) -> RecordedGame:
    tournament = match.round.tournament
    games = list(match.recorded_games.order_by("number"))
    if game_number is not None:
        game = next((g for g in games if g.number == game_number), None)
        if game is not None:
            if game.is_closed:
                raise ValidationError(
                    {
                        "game": _("El juego n.º %(n)d ya está cerrado: lo ganó la pareja %(p)s.")
                        % {
                            "n": game.number,
                            "p": (match.pair_a if game.winner == Side.A else match.pair_b),
                        }
                    }
                )
            return game
        if game_number != len(games) + 1:
            raise ValidationError({"game": _("No existe el juego n.º %(n)d.") % {"n": game_number}})
    else:
        game = next((g for g in games if not g.is_closed), None)
        if game is not None:
            return game
    open_games = [g.number for g in games if not g.is_closed]
    if open_games:
        raise ValidationError({"game": _("El juego n.º %(n)d no está cerrado.") % {"n": open_games[0]}})
    decided = juegos_result(games, tournament.games_to_win)
    if decided is not None:
        raise ValidationError(
            {
                "game": _("La partida ya está decidida (%(a)d-%(b)d): no hay más juegos que anotar.")
                % {
                    "a": decided[0],
                    "b": decided[1],
                }
            }
        )
    if mano is None and games:
        last = RecordedHand.objects.filter(game=games[-1], is_current=True).order_by("-number").first()
        mano = other(last.mano_side) if last is not None else other(games[-1].first_mano)
    if mano is None:
        raise ValidationError({"mano": _("Indica qué pareja es mano en la primera mano del juego.")})
    return RecordedGame.objects.create(
        match=match,
        number=len(games) + 1,
        first_mano=mano,
        rule_set=tournament.rule_set,
        target=tournament.points_per_game,
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )


def next_mano(game: RecordedGame, hands: list[RecordedHand]) -> str:
    """Mano alternates each hand (AMM 2.8): the other pair from the last current hand's mano."""
    return other(hands[-1].mano_side) if hands else game.first_mano


def _save_version(
    *,
    game: RecordedGame,
    number: int,
    mano: str,
    data: object,
    score: mus.Score,
    by: Any,
    recorded_as: str,
    previous: RecordedHand | None,
) -> RecordedHand:
    match = game.match
    record, stored, has_cards = clean_record(
        data,
        rule_set=game.rule_set,
        target=game.target,
        score=score,
        record_id=_record_id(match, game.number, number),
    )
    findings = hand_findings(record, has_cards)
    version = (RecordedHand.objects.filter(game=game, number=number).aggregate(v=Max("version"))["v"] or 0) + 1
    if version > MAX_VERSIONS_PER_HAND:
        raise ValidationError(
            {
                "record": _("La mano n.º %(n)d ya tiene %(v)d versiones: pide a la mesa de control que la revise.")
                % {"n": number, "v": MAX_VERSIONS_PER_HAND}
            }
        )
    if previous is not None and previous.is_current:
        previous.is_current = False
        previous.save(update_fields=["is_current"])
    return RecordedHand.objects.create(
        game=game,
        number=number,
        version=version,
        replaces=previous,
        mano_side=mano,
        record=stored,
        has_cards=has_cards,
        findings=findings,
        valid=not _has_error(findings),
        recorded_by=by if getattr(by, "is_authenticated", False) else None,
        recorded_as=recorded_as,
    )


def _after_write(match: Match, game: RecordedGame, by: Any) -> ResultNote | None:
    if game_refresh(game):
        live_bump(tournament_id=match.round.tournament_id)
    return _follow_result(match, by)


def hand_record(
    *, match: Match, by: Any, record: object, mano: str | None = None, game: int | None = None
) -> HandSaved:
    """Record the next hand of a match: `record` in the engine's JSON format (A = this hand's mano
    pair; without «score», the running tantos), `mano` which match pair ("a"/"b") is mano (default:
    alternating), `game` the juego's number (default: the open juego, or a new one)."""
    with transaction.atomic():
        match = _lock_match(match)
        recorded_as = _authorize(by, match)
        mano = _clean_side(mano)
        target_game = _game_for_new_hand(match, game_number=game, mano=mano, by=by)
        target_game.match = match
        current = list(target_game.hands.filter(is_current=True).order_by("number"))
        side = mano or next_mano(target_game, current)
        running = (target_game.tantos_a, target_game.tantos_b)
        number = (current[-1].number if current else 0) + 1
        if number > MAX_HANDS_PER_GAME:
            raise ValidationError(
                {
                    "game": _("El juego n.º %(g)d ya tiene %(n)d manos: pide a la mesa de control que lo revise.")
                    % {"g": target_game.number, "n": MAX_HANDS_PER_GAME}
                }
            )
        previous = RecordedHand.objects.filter(game=target_game, number=number).order_by("-version").first()
        hand = _save_version(
            game=target_game,
            number=number,
            mano=side,
            data=record,
            score=to_hand_frame(*running, side),
            by=by,
            recorded_as=recorded_as,
            previous=previous,
        )
        note = _after_write(match, target_game, by)
        hand.refresh_from_db()
        return HandSaved(hand, target_game, note)


def _lock_hand(hand: RecordedHand) -> tuple[Match, RecordedHand]:
    match = _lock_match(Match(pk=RecordedGame.objects.values_list("match_id", flat=True).get(pk=hand.game_id)))
    hand = RecordedHand.objects.select_related("game").get(pk=hand.pk)
    hand.game.match = match
    if not hand.is_current:
        newer = hand.game.hands.filter(number=hand.number, is_current=True).first()
        if newer is not None:
            raise Conflict(
                _("La mano n.º %(n)d ya tiene una versión más reciente (v%(v)d): revísala antes de cambiarla.")
                % {"n": hand.number, "v": newer.version}
            )
        raise Conflict(_("La mano n.º %(n)d se ha borrado.") % {"n": hand.number})
    return match, hand


def hand_edit(
    *,
    hand: RecordedHand,
    by: Any,
    record: object,
    mano: str | None = None,
    expected_version: int | None = None,
) -> HandSaved:
    """Correct a hand: a new version replaces it in the count; the old one is kept. Without
    «score» the record keeps the score before of the version it replaces."""
    with transaction.atomic():
        match, hand = _lock_hand(hand)
        if expected_version is not None and expected_version != hand.version:
            raise Conflict(
                _("La mano n.º %(n)d ha cambiado (ahora es la versión %(v)d): revísala antes de cambiarla.")
                % {"n": hand.number, "v": hand.version}
            )
        recorded_as = _authorize(by, match, hand)
        side = _clean_side(mano) or hand.mano_side
        old = hand.record.get("score") or {}
        before = mus.Score(old.get("A", 0), old.get("B", 0))
        if side != hand.mano_side:
            before = before.swapped()
        new = _save_version(
            game=hand.game,
            number=hand.number,
            mano=side,
            data=record,
            score=before,
            by=by,
            recorded_as=recorded_as,
            previous=hand,
        )
        note = _after_write(match, hand.game, by)
        new.refresh_from_db()
        return HandSaved(new, hand.game, note)


def hand_delete(*, hand: RecordedHand, by: Any) -> HandSaved:
    """Take a hand out of the count; the row stays, marked deleted, for the record."""
    with transaction.atomic():
        match, hand = _lock_hand(hand)
        _authorize(by, match, hand)
        hand.is_current = False
        hand.deleted_at = timezone.now()
        hand.deleted_by = by if getattr(by, "is_authenticated", False) else None
        hand.counted, hand.score_a, hand.score_b = False, None, None
        hand.save(update_fields=["is_current", "deleted_at", "deleted_by", "counted", "score_a", "score_b"])
        note = _after_write(match, hand.game, by)
        return HandSaved(hand, hand.game, note)
