"""Tanteo: the tantos a hand gives each pair, event by event, from the score before it.

Dejes are scored at once, as they happen; then the count, in the order grande, chica, pares,
juego or punto (AMM 3.13; seed 000 «lo primero que se cobra es el deje»). The first pair to
reach the target wins the juego and nothing after that is counted; an accepted órdago ends the
hand and the juego at once, for the pair that wins the lance.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import Final

from .betting import Action, Bet, LanceBetting, Outcome, resolve_lance
from .cards import Hand
from .core import LOVE, PAIRS, Lance, Pair, Score
from .errors import IllegalBetError, InvalidScoreError
from .evaluation import Showdown, jugada_minima, showdown
from .rules import AMM, RuleSet


class EventKind(enum.Enum):
    """Why a pair scores."""

    DEJE = "deje"
    """A declined envite, scored at once."""
    ENVITE = "envite"
    """An accepted envite's stake, at the count."""
    PASO = "paso"
    """What a lance without envites scores: 1 in grande, chica and punto; pares / juego values."""
    JUGADA = "jugada"
    """Pares / juego values, or the punto's tanto, scored along with an envite (accepted or
    declined)."""
    ORDAGO = "ordago"
    """An accepted órdago: 0 tantos, the pair wins the juego."""


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """One scoring event: ``pair`` scores ``points`` in ``lance``."""

    lance: Lance
    pair: Pair
    points: int
    kind: EventKind

    def __str__(self) -> str:
        if self.kind is EventKind.ORDAGO:
            return f"{self.lance}: {self.pair} gana el juego (órdago)"
        return f"{self.lance}: {self.pair} +{self.points} ({self.kind.value})"


@dataclasses.dataclass(frozen=True, slots=True)
class TanteoResult:
    """The events of a hand in the order they are scored, and where they leave the juego.

    ``events`` only holds what was counted: nothing after the target is reached. ``lances`` are
    the betting results of the lances played (the hand stops at an accepted órdago).
    """

    before: Score
    events: tuple[Event, ...]
    score: Score
    game_winner: Pair | None
    showdown: Showdown
    lances: tuple[LanceBetting, ...]

    def points(self, lance: Lance) -> Score:
        """Tantos each pair scored in ``lance`` (dejes included)."""
        total = LOVE
        for event in self.events:
            if event.lance is lance:
                total = total.add(event.pair, event.points)
        return total


_PLAYED: Final = (Lance.GRANDE, Lance.CHICA, Lance.PARES)


def check_score(score: Score, rules: RuleSet) -> None:
    """Raise :class:`InvalidScoreError` for a score no hand can start from."""
    for pair in PAIRS:
        if score[pair] < 0:
            raise InvalidScoreError(f"la pareja {pair.name} no puede tener {score[pair]} tantos")
        if score[pair] >= rules.target:
            raise InvalidScoreError(
                f"el juego ya terminó: la pareja {pair.name} tiene {score[pair]} tantos "
                f"(se juega a {rules.target})"
            )


def tanteo(
    hands: Sequence[Hand],
    bets: Mapping[Lance, Sequence[Bet]] | None = None,
    score: Score = LOVE,
    rules: RuleSet = AMM,
) -> TanteoResult:
    """Score one hand: the four hands by seat, each lance's bets, the score before it.

    ``bets`` maps a lance to its actions; a lance left out is played en paso. The fourth lance
    is ``Lance.JUEGO`` when anybody holds juego, else ``Lance.PUNTO``. Raises
    :class:`IllegalBetError` for bets the rules do not allow and :class:`InvalidScoreError`
    for an impossible score.
    """
    check_score(score, rules)
    result = showdown(hands, rules)
    return count(result, bets or {}, score, rules)


def count(
    result: Showdown,
    bets: Mapping[Lance, Sequence[Bet]],
    score: Score,
    rules: RuleSet,
) -> TanteoResult:
    """:func:`tanteo` from an existing showdown (the score is not checked)."""
    return score_hand(result, play(result, bets, rules), score, rules)


def play(result: Showdown, bets: Mapping[Lance, Sequence[Bet]], rules: RuleSet) -> list[LanceBetting]:
    """Resolve the betting of every lance played, up to an accepted órdago.

    Only pairs holding pares / juego bet in those lances (AMM 3.8); the fourth lance is juego
    when anybody holds it, else punto. Raises :class:`IllegalBetError`.
    """
    fourth = result.fourth_lance
    wrong = Lance.PUNTO if fourth is Lance.JUEGO else Lance.JUEGO
    if any(bet.action is not Action.PASO for bet in bets.get(wrong, ())):
        message = (
            "nadie lleva juego: el cuarto lance es el punto, no el juego"
            if fourth is Lance.PUNTO
            else "hay juego: el cuarto lance es el juego, no el punto"
        )
        raise IllegalBetError(
            message, code="lance_equivocado", article="seed 000 (juego y punto)", lance=wrong, index=None
        )
    played: list[LanceBetting] = []
    ordago: Lance | None = None
    for lance in (*_PLAYED, fourth):
        lance_bets = tuple(bets.get(lance, ()))
        if ordago is not None:
            if any(bet.action is not Action.PASO for bet in lance_bets):
                raise IllegalBetError(
                    f"la mano terminó con el órdago aceptado a {ordago.key}: no hay envites a {lance.key}",
                    code="lance_tras_ordago",
                    article="seed 000 (órdago)",
                    lance=lance,
                    index=0,
                )
            continue
        holders = result.holders(lance) if lance in (Lance.PARES, Lance.JUEGO) else (True, True)
        outcome = resolve_lance(
            lance, lance_bets, rules, holders=holders, jugada_minima=jugada_minima(result, lance)
        )
        played.append(outcome)
        if outcome.outcome is Outcome.ORDAGO:
            ordago = lance
    return played


def score_hand(
    result: Showdown, played: Sequence[LanceBetting], score: Score, rules: RuleSet
) -> TanteoResult:
    """Score lances whose betting is resolved: dejes as they happen, then the count."""
    scoring: list[_Scored] = []
    ordago: LanceBetting | None = None
    for outcome in played:
        if outcome.outcome is Outcome.DEJE:
            assert outcome.pair is not None
            # AMM 3.13 with seed 000: dejes are scored at once, before the count.
            scoring.append((outcome.lance, outcome.pair, outcome.amount, EventKind.DEJE))
        elif outcome.outcome is Outcome.ORDAGO:
            ordago = outcome
            break
    if ordago is None:
        for outcome in played:
            scoring.extend(_count_lance(result, outcome, rules))

    events: list[Event] = []
    tantos = [score.a, score.b]
    winner: Pair | None = None
    for item in scoring:
        lance, pair, points, kind = item
        if points <= 0:
            continue
        event = _EVENTS.get(item)
        if event is None:
            event = Event(lance, pair, points, kind)
            if len(_EVENTS) < 4096:  # events are values, and hands repeat the same few: keep them
                _EVENTS[item] = event
        events.append(event)
        tantos[pair] += points
        if tantos[pair] >= rules.target:
            # The juego is over: later tantos do not count (DESIGN «Order of scoring»; seed 000
            # «ganando la pareja… que primero alcance»).
            winner = pair
            break
    if ordago is not None and winner is None:
        # Seed 000: an accepted órdago ends the juego «sin necesidad de hacer tanteo», for the
        # pair that wins the lance (seed 001: «según las reglas del lance»).
        seat = result.winner(ordago.lance)
        assert seat is not None
        winner = Pair.of(seat)
        events.append(Event(ordago.lance, winner, 0, EventKind.ORDAGO))
    # TanteoResult(...) and Score(a, b), their slots and items set directly (as evaluation.py builds
    # a Showdown): a tournament's validation counts hands by the ten thousand.
    counted: TanteoResult = _new_object(TanteoResult)
    _set_before(counted, score)
    _set_events(counted, tuple(events))
    _set_score(counted, _new_score(Score, (tantos[0], tantos[1])))
    _set_game_winner(counted, winner)
    _set_showdown(counted, result)
    _set_lances(counted, tuple(played))
    return counted


_new_object: Final = object.__new__
_new_score: Final = tuple.__new__
_set_before, _set_events, _set_score, _set_game_winner, _set_showdown, _set_lances = (
    getattr(TanteoResult, field.name).__set__ for field in dataclasses.fields(TanteoResult)
)
_Scored = tuple[Lance, Pair, int, EventKind]
_EVENTS: dict[_Scored, Event] = {}


def _count_lance(result: Showdown, outcome: LanceBetting, rules: RuleSet) -> list[_Scored]:
    """What one lance gives at the count, in order."""
    lance = outcome.lance
    seat = result.winner(lance)
    if seat is None:  # nobody holds pares / juego
        return []
    winner = Pair.of(seat)
    kind = outcome.outcome
    if lance is Lance.GRANDE or lance is Lance.CHICA:
        # Seed 000 / 001: en paso the best hand scores 1; a declined envite was its deje.
        if kind is Outcome.PASO:
            return [(lance, winner, 1, EventKind.PASO)]
        if kind is Outcome.QUERIDO:
            return [(lance, winner, outcome.amount, EventKind.ENVITE)]
        return []
    if lance is Lance.PUNTO:
        # Seed 001: the punto scores 1, en paso or on top of an accepted envite; con deje (AMM
        # 1.7.c) the pair whose envite was declined scores it «aun cuando éste fuera inferior».
        if kind is Outcome.PASO:
            return [(lance, winner, 1, EventKind.PASO)]
        if kind is Outcome.QUERIDO:
            return [(lance, winner, outcome.amount, EventKind.ENVITE), (lance, winner, 1, EventKind.JUGADA)]
        assert outcome.pair is not None
        return [(lance, outcome.pair if rules.deje_punto else winner, 1, EventKind.JUGADA)]
    # Pares and juego: the winning pair's values, both partners' (seed 000; seed 002 art. 16).
    values = result.values(lance)
    if kind is Outcome.PASO:
        return [(lance, winner, values[winner], EventKind.PASO)]
    if kind is Outcome.QUERIDO:
        return [
            (lance, winner, outcome.amount, EventKind.ENVITE),
            (lance, winner, values[winner], EventKind.JUGADA),
        ]
    assert outcome.pair is not None
    # Con deje (AMM 1.7.c) the pair whose envite was declined scores its own jugada even with
    # worse cards; sin deje (seed 002 art. 16, Cataluña) the best jugada scores.
    scorer = outcome.pair if rules.con_deje(lance) else winner
    return [(lance, scorer, values[scorer], EventKind.JUGADA)]
