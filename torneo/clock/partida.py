"""One partida at one moment of its clock: what chapter VI says is due (AMM 6.1.b, 6.4, 6.5, 6.6,
3.7). Pure: facts in (:class:`Partida`), a state out (:class:`PartidaState`); the site's clocks,
its beat task and ``python -m torneo.clock partida`` all ask here.

Decisions where the reglamento is silent (docs/clock.md says them with examples):

- ``juegos`` are the juegos played; the juegos a pair loses by lateness (6.1.b) are added to the
  other pair's score, as the acta writes them. When that gives both pairs the juegos to win (both
  missing, a partida to 1 or 2 juegos), both lose the partida, as at 20 minutes.
- The adjustments of 6.4 are decided by the score when the juego being played at max − 10 began:
  one juego left at most (2-2 to 3) is 6.4.a, two (2-1) is 6.4.b, more is 6.4.c. A juego that
  begins at or after max − 10 has "begun in the window".
- 6.4.b: only the tie-breaking juego after the penultimate is shortened, by the time left when it
  begins (5 minutes or more: normal; 0 to 5: to 20 tantos; past the maximum: 10 or 5).
- 6.4.c: every juego begun in the window is to 10 or 5 tantos, and one begun with the score tied
  is the single final juego: its winner wins the partida.
- A partida decided (a pair reached the juegos to win, won the final juego, or the other lost it
  by lateness) is ``terminada`` whatever the time.
- 6.5.b with no agreement and exactly one pair warned for delay: that pair loses by one juego
  (the winner with the juegos to win, the loser one fewer). Both or none warned: both lose, and no
  result is given.
- 6.6: a pair is "involved in a delay" when it was warned for delay in this partida, arrived late
  (6.1.b), or the partida went past its maximum undecided (6.3: an unreported delay is both
  pairs').
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Final, Literal

from torneo.clock.rules import AMM, ClockRules
from torneo.clock.times import max_duration_minutes

Side = Literal["A", "B"]
SIDES: Final[tuple[Side, Side]] = ("A", "B")
Phase = Literal["normal", "ajustes", "excedido", "ultima_mano", "terminada"]
PHASES: Final[tuple[Phase, ...]] = ("normal", "ajustes", "excedido", "ultima_mano", "terminada")


def other(side: Side) -> Side:
    return "B" if side == "A" else "A"


@dataclasses.dataclass(frozen=True)
class Juego:
    """A finished juego: who won it and the minute on the partida's clock it ended."""

    winner: Side
    ended: float


@dataclasses.dataclass(frozen=True)
class Partida:
    """The facts of a partida at one moment. Minutes are on the partida's clock: since it started
    (6.1.a / 6.1.c), pauses (3.15) excluded."""

    minute: float
    games_to_win: int = 3
    juegos: tuple[Juego, ...] = ()
    tantos: Mapping[Side, int] | None = None
    """Tantos of the juego being played (both start at points − the juego's tantos)."""
    missing: Mapping[Side, float | None] = dataclasses.field(default_factory=dict)
    """Pairs incomplete when the clock started: the minute they were complete (None: still not)."""
    delay_warnings: Mapping[Side, int] = dataclasses.field(default_factory=dict)
    earlier_delay_sanctions: Mapping[Side, int] = dataclasses.field(default_factory=dict)
    agreed_result: Mapping[Side, int] | None = None
    points_per_game: int = 40
    rules: ClockRules = AMM

    def __post_init__(self) -> None:
        problems = list(_problems(self))
        if problems:
            raise ValueError(problems[0])


@dataclasses.dataclass(frozen=True)
class Absence:
    """AMM 6.1.b penalties due by now for one pair."""

    juegos: int = 0
    partida: bool = False


@dataclasses.dataclass(frozen=True)
class JuegoRule:
    """The juego being played: the tantos it is played to (a tuple: the juez chooses), the article
    that set them (None: the normal juego), and whether its winner wins the partida."""

    tantos: int | tuple[int, ...]
    article: str | None = None
    final: bool = False


@dataclasses.dataclass(frozen=True)
class ForcedEnd:
    """AMM 6.5.b: the partida ended by the juez. ``loser`` "both" (no result) or a pair; None with
    an agreed result that is a tie."""

    loser: Side | Literal["both"] | None
    result: Mapping[Side, int] | None
    agreed: bool
    article: str = "6.5.b"


@dataclasses.dataclass(frozen=True)
class PartidaState:
    """What chapter VI says about a partida now (see the module's docstring)."""

    max_minutes: int
    phase: Phase
    missing: Mapping[Side, Absence]
    juego: JuegoRule
    forced_end: ForcedEnd | None
    alerts: tuple[Side, ...]
    score: Mapping[Side, int]
    winner: Side | Literal["both"] | None
    """Who won the partida on the table (juegos, final juego, lateness); None while undecided."""
    adjustments: str | None
    """The clause of 6.4 in force ("6.4.a", "6.4.b", "6.4.c"), once the window opened."""
    remaining: float
    """Minutes to the maximum (negative past it)."""
    envite_seconds: int
    """AMM 3.7: the time to answer an envite now."""
    rules: ClockRules

    @property
    def mus_seconds(self) -> int:
        """AMM 2.3 / 2.3.a: the time of a pair's mus dialogue (one minute; the same for each pair)."""
        return self.rules.mus_seconds

    @property
    def waits_cancellable(self) -> bool:
        """AMM 6.4.d: in a partida running short of time the juez may cancel the waits of 2.3 and 3.7."""
        return self.phase in ("ajustes", "excedido", "ultima_mano")

    def as_dict(self) -> dict[str, object]:
        """The contract of ``python -m torneo.clock partida`` (docs/clock.md), plus a few keys."""
        tantos: object = list(self.juego.tantos) if isinstance(self.juego.tantos, tuple) else self.juego.tantos
        forced: object = None
        if self.forced_end is not None:
            forced = {
                "article": self.forced_end.article,
                "loser": self.forced_end.loser,
                "result": dict(self.forced_end.result) if self.forced_end.result is not None else None,
                "agreed": self.forced_end.agreed,
            }
        return {
            "max_minutes": self.max_minutes,
            "phase": self.phase,
            "missing": {s: {"juegos": a.juegos, "partida": a.partida} for s, a in self.missing.items()},
            "juego": {"article": self.juego.article, "tantos": tantos, "final": self.juego.final},
            "forced_end": forced,
            "alerts": [{"article": "6.6", "pair": side} for side in self.alerts],
            "score": dict(self.score),
            "winner": self.winner,
            "adjustments": self.adjustments,
            "remaining": round(self.remaining, 3),
            "envite_seconds": self.envite_seconds,
            "mus_seconds": self.mus_seconds,
            "waits_cancellable": self.waits_cancellable,
            "rules": self.rules.name,
        }


# --- the rules ---------------------------------------------------------------------------------------


def absence(complete_at: float | None, minute: float, rules: ClockRules = AMM) -> Absence:
    """AMM 6.1.b for a pair incomplete when the clock started and complete at ``complete_at``
    (None: still incomplete): one juego lost at each of 10 and 15 minutes, the partida at 20, each
    due when the mark is reached with the pair still incomplete. Nobody can forgive them."""

    def due(mark: float) -> bool:
        return minute >= mark and (complete_at is None or complete_at > mark)

    juegos = sum(1 for mark in rules.absence_juegos_at if due(mark))
    partida = rules.absence_partida_at is not None and due(rules.absence_partida_at)
    return Absence(juegos, partida)


def left_after(score: Mapping[Side, int], games_to_win: int) -> int:
    """The most juegos still to be played, the current one included (2-1 to 3: two)."""
    return (games_to_win - score["A"]) + (games_to_win - score["B"]) - 1


def envite_seconds(tantos: Mapping[Side, int] | None, points: int = 40, rules: ClockRules = AMM) -> int:
    """AMM 3.7: one minute to accept or decline an envite; 3.7.a: two in final jugadas, when a pair
    needs 10 tantos or fewer."""
    if tantos is not None and any(points - tantos[s] <= rules.envite_final_tantos for s in SIDES):
        return rules.envite_final_seconds
    return rules.envite_seconds


def clock_minutes(started: float, now: float, pauses: Sequence[tuple[float, float | None]] = ()) -> float:
    """Minutes on a partida's clock (AMM 3.15: pauses authorised by the juez do not count). Times
    are seconds (a POSIX timestamp); a pause with no end is still running."""
    paused = 0.0
    for begin, end in pauses:
        begin = max(begin, started)
        stop = now if end is None else min(end, now)
        if stop > begin:
            paused += stop - begin
    return max(0.0, (now - started - paused) / 60)


def state(p: Partida) -> PartidaState:
    """Chapter VI for the partida ``p`` now (module docstring: the decisions taken)."""
    rules = p.rules
    maximum = max_duration_minutes(p.games_to_win)
    window = maximum - rules.adjustments_window
    limit = maximum + rules.overtime_limit
    missing = {s: absence(p.missing[s], p.minute, rules) if s in p.missing else Absence() for s in SIDES}
    penalty = {s: missing[other(s)].juegos for s in SIDES}

    # Walk the juegos in order, each with the rule it was played under, to the one being played.
    score = {s: min(p.games_to_win, penalty[s]) for s in SIDES}
    # Lateness alone may decide it (to 1 or 2 juegos); when it gives both pairs the juegos to win,
    # neither wins: both lost it by lateness, as at 20 minutes.
    by_lateness = [s for s in SIDES if score[s] >= p.games_to_win]
    winner: Side | Literal["both"] | None = "both" if len(by_lateness) == 2 else next(iter(by_lateness), None)
    decided_at: float | None = None if winner is None else 0.0
    adjustments: str | None = None
    start = 0.0
    rule = JuegoRule(p.points_per_game)
    for index in range(len(p.juegos) + 1):
        if winner is not None and index < len(p.juegos):
            raise ValueError(f"juegos[{index + 1}]: la partida ya estaba decidida antes de este juego")
        if adjustments is None and winner is None and p.minute >= window and _ends(p, index) > window:
            adjustments = _clause(left_after(score, p.games_to_win))
        rule = _rule(p, score, start, window, maximum, adjustments, index)
        if index == len(p.juegos):
            break
        juego = p.juegos[index]
        score[juego.winner] += 1
        start = juego.ended
        winner = juego.winner if rule.final else _decided_by(score, p.games_to_win)
        if winner is not None:
            decided_at = juego.ended

    lost = [s for s in SIDES if missing[s].partida]
    if lost:
        winner = "both" if len(lost) == 2 else other(lost[0])
        lost_at = rules.absence_partida_at if rules.absence_partida_at is not None else 0.0
        decided_at = lost_at if decided_at is None else min(decided_at, lost_at)

    tantos = p.tantos
    last_hand = (
        rule.final
        and tantos is not None
        and all(p.points_per_game - tantos[s] < rules.last_hand_margin for s in SIDES)
    )
    phase: Phase
    if winner is not None or p.minute >= limit:
        phase = "terminada"
    elif p.minute >= maximum + rules.last_hand_minute and last_hand:
        phase = "ultima_mano"
    elif p.minute >= maximum:
        phase = "excedido"
    elif p.minute >= window:
        phase = "ajustes"
    else:
        phase = "normal"

    if p.agreed_result is not None:
        for s in SIDES:
            if p.agreed_result[s] < penalty[s]:
                # 6.1.b: «Estas sanciones no pueden ser perdonadas en ningún caso por la pareja contraria».
                raise ValueError(
                    f"agreed_result.{s}: la pareja {s} ya tiene {penalty[s]} juegos por el retraso de la otra "
                    "(AMM 6.1.b): un acuerdo no se los puede quitar"
                )
    forced = _forced_end(p) if winner is None and phase == "terminada" else None
    # 6.6: the partida went past its maximum (not one decided before it, asked about later).
    over = p.minute >= maximum and (decided_at is None or decided_at > maximum)
    alerts = tuple(
        s
        for s in SIDES
        if p.earlier_delay_sanctions.get(s, 0) >= rules.recidivism_sanctions
        and (p.delay_warnings.get(s, 0) > 0 or s in p.missing or over)
    )
    return PartidaState(
        max_minutes=maximum,
        phase=phase,
        missing=missing,
        juego=rule,
        forced_end=forced,
        alerts=alerts,
        score=score,
        winner=winner,
        adjustments=adjustments,
        remaining=maximum - p.minute,
        envite_seconds=envite_seconds(tantos, p.points_per_game, rules),
        rules=rules,
    )


def _ends(p: Partida, index: int) -> float:
    """When the juego ``index`` ended (the one being played: not yet)."""
    return p.juegos[index].ended if index < len(p.juegos) else math.inf


def _clause(left: int) -> str:
    """AMM 6.4.a/b/c by the juegos still possible when the window opens."""
    if left <= 1:
        return "6.4.a"
    if left == 2:
        return "6.4.b"
    return "6.4.c"


def _decided_by(score: Mapping[Side, int], games_to_win: int) -> Side | None:
    return next((s for s in SIDES if score[s] >= games_to_win), None)


def _rule(
    p: Partida,
    score: Mapping[Side, int],
    start: float,
    window: float,
    maximum: float,
    adjustments: str | None,
    index: int,
) -> JuegoRule:
    """The rule of the juego ``index``, begun at minute ``start`` with ``score``."""
    rules = p.rules
    last = score["A"] == score["B"] == p.games_to_win - 1
    in_window = adjustments is not None and start >= window
    if adjustments == "6.4.b" and in_window and last:
        # The tie-breaking juego after the penultimate: by the time left when it begins.
        left = maximum - start
        if left >= rules.tie_break_normal_from:
            return JuegoRule(p.points_per_game, "6.4.b", True)
        if left >= 0:
            return JuegoRule(rules.tie_break_tantos, "6.4.b", True)
        return JuegoRule(rules.short_tantos, "6.4.b", True)
    if adjustments == "6.4.c" and in_window:
        return JuegoRule(rules.short_tantos, "6.4.c", score["A"] == score["B"])
    return JuegoRule(p.points_per_game, None, last)


def _forced_end(p: Partida) -> ForcedEnd:
    """AMM 6.5.b: an agreed result, else the only pair warned for delay loses by one juego, else both."""
    if p.agreed_result is not None:
        a, b = p.agreed_result["A"], p.agreed_result["B"]
        loser: Side | None = "A" if a < b else "B" if b < a else None
        return ForcedEnd(loser, dict(p.agreed_result), agreed=True)
    warned = [s for s in SIDES if p.delay_warnings.get(s, 0) > 0]
    if len(warned) == 1:
        loser_side = warned[0]
        result = {loser_side: p.games_to_win - 1, other(loser_side): p.games_to_win}
        return ForcedEnd(loser_side, {s: result[s] for s in SIDES}, agreed=False)
    return ForcedEnd("both", None, agreed=False)


def _problems(p: Partida) -> list[str]:
    problems: list[str] = []
    if not 1 <= p.games_to_win <= 9:
        problems.append(f"games_to_win: una partida se gana con 1 a 9 juegos, no {p.games_to_win}")
    if not (math.isfinite(p.minute) and p.minute >= 0):
        problems.append(f"minute: el minuto de la partida no puede ser negativo ({p.minute})")
    if not 5 <= p.points_per_game <= 100:
        problems.append(f"points_per_game: un juego es a 5-100 tantos, no {p.points_per_game}")
    previous = 0.0
    for n, juego in enumerate(p.juegos, start=1):
        if juego.winner not in SIDES:
            problems.append(f"juegos[{n}].winner: «A» o «B», no {juego.winner!r}")
        if not math.isfinite(juego.ended) or juego.ended < previous:
            problems.append(f"juegos[{n}].ended: los juegos van en orden, cada uno termina después del anterior")
        if juego.ended > p.minute:
            problems.append(f"juegos[{n}].ended: termina en el minuto {juego.ended}, después del minuto {p.minute}")
        previous = juego.ended
    for name, values, top in (
        ("tantos", p.tantos, p.points_per_game),
        ("agreed_result", p.agreed_result, p.games_to_win),
    ):
        if values is not None:
            for s in SIDES:
                value = values.get(s)
                if type(value) is not int or not 0 <= value <= top:
                    problems.append(f"{name}.{s}: un número entero de 0 a {top}")
    for name, counts in (("delay_warnings", p.delay_warnings), ("earlier_delay_sanctions", p.earlier_delay_sanctions)):
        for s, value in counts.items():
            if s not in SIDES or type(value) is not int or value < 0:
                problems.append(f"{name}.{s}: un número entero de 0 o más")
    for s, arrived in p.missing.items():
        if s not in SIDES or (arrived is not None and not (math.isfinite(arrived) and arrived >= 0)):
            problems.append(f"missing.{s}: el minuto en que la pareja estuvo completa, o null")
    return problems
