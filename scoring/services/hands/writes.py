"""The writes: record the next hand of a match, edit a hand (a new version; the old one is kept)
and delete one (the row stays, marked deleted). Each write locks the tournament row and then the
match row (the order of result_submit and the draw services, so two phones recording the same
table get consecutive numbers, never the same one), checks who may write (``permissions``), cleans
the record (``records``), then replays the juego (``count``) and follows the match result
(``result``). The only module of the package that writes hands and juegos directly.
"""

from __future__ import annotations

import dataclasses

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import mus
from scoring.models import RecordedGame, RecordedHand
from scoring.services.hands.count import game_refresh
from scoring.services.hands.permissions import authorize
from scoring.services.hands.records import Side, clean_record, hand_findings, has_error, other, to_hand_frame
from scoring.services.hands.result import ResultNote, follow_result, juegos_result
from torneo.errors import Conflict
from torneo.models import Match, Tournament
from torneo.services.live import live_bump
from torneo.typing import User, signed_in_or_none

# Every hand scores at least one tanto (the grande, AMM 3.13), so a juego to 40 ends within 40
# counted hands: these bounds only stop a phone that posts without end (and the small integers
# that number hands and versions from overflowing).
MAX_HANDS_PER_GAME = 200
MAX_VERSIONS_PER_HAND = 100


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


def _game_for_new_hand(match: Match, *, game_number: int | None, mano: str | None, by: User) -> RecordedGame:
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
        created_by=signed_in_or_none(by),
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
    by: User,
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
        valid=not has_error(findings),
        recorded_by=signed_in_or_none(by),
        recorded_as=recorded_as,
    )


def after_write(match: Match, game: RecordedGame, by: User) -> ResultNote | None:
    if game_refresh(game):
        live_bump(tournament_id=match.round.tournament_id, pairs=(match.pair_a_id, match.pair_b_id))
    return follow_result(match, by)


def hand_record(
    *, match: Match, by: User, record: object, mano: str | None = None, game: int | None = None
) -> HandSaved:
    """Record the next hand of a match: `record` in the engine's JSON format (A = this hand's mano
    pair; without «score», the running tantos), `mano` which match pair ("a"/"b") is mano (default:
    alternating), `game` the juego's number (default: the open juego, or a new one)."""
    with transaction.atomic():
        match = _lock_match(match)
        recorded_as = authorize(by, match)
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
        note = after_write(match, target_game, by)
        hand.refresh_from_db()
        return HandSaved(hand, target_game, note)


def lock_hand(hand: RecordedHand) -> tuple[Match, RecordedHand]:
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
    by: User,
    record: object,
    mano: str | None = None,
    expected_version: int | None = None,
) -> HandSaved:
    """Correct a hand: a new version replaces it in the count; the old one is kept. Without
    «score» the record keeps the score before of the version it replaces."""
    with transaction.atomic():
        match, hand = lock_hand(hand)
        if expected_version is not None and expected_version != hand.version:
            raise Conflict(
                _("La mano n.º %(n)d ha cambiado (ahora es la versión %(v)d): revísala antes de cambiarla.")
                % {"n": hand.number, "v": hand.version}
            )
        recorded_as = authorize(by, match, hand)
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
        note = after_write(match, hand.game, by)
        new.refresh_from_db()
        return HandSaved(new, hand.game, note)


def hand_delete(*, hand: RecordedHand, by: User) -> HandSaved:
    """Take a hand out of the count; the row stays, marked deleted, for the record."""
    with transaction.atomic():
        match, hand = lock_hand(hand)
        authorize(by, match, hand)
        hand.is_current = False
        hand.deleted_at = timezone.now()
        hand.deleted_by = signed_in_or_none(by)
        hand.counted, hand.score_a, hand.score_b = False, None, None
        hand.save(update_fields=["is_current", "deleted_at", "deleted_by", "counted", "score_a", "score_b"])
        note = after_write(match, hand.game, by)
        return HandSaved(hand, hand.game, note)
