"""The time of a partida (AMM chapter VI and 3.7, 3.15), as pure functions: no Django, strict
types. The site's clocks, its beat task, the pair page and ``python -m torneo.clock`` ask here.

- :mod:`torneo.clock.times`: a round's times — when its clock starts (6.1.a, 6.1.c), its maximum
  duration (6.2) and the forced end (6.5).
- :mod:`torneo.clock.partida`: one partida at one minute of its clock — lateness (6.1.b), the
  adjustments (6.4), the forced end (6.5), recidivism (6.6), the envite timer (3.7), pauses (3.15).
- :mod:`torneo.clock.rules`: the timings as options of a rule set (AMM v6.4 and other presets).
- :mod:`torneo.clock.cli`: the command line (docs/clock.md).
"""

from torneo.clock.cli import main
from torneo.clock.partida import (
    PHASES,
    SIDES,
    Absence,
    ForcedEnd,
    Juego,
    JuegoRule,
    Partida,
    PartidaState,
    absence,
    clock_minutes,
    envite_seconds,
    state,
)
from torneo.clock.rules import AMM, CLUB_15, PRESETS, ClockRules
from torneo.clock.times import (
    DRAW_TO_CLOCK,
    MINUTES_PER_GAME,
    OVERTIME_LIMIT,
    RoundTimes,
    clock_start,
    jornada_of,
    max_duration_minutes,
    max_games,
    round_times,
)

__all__ = [
    "AMM",
    "CLUB_15",
    "DRAW_TO_CLOCK",
    "MINUTES_PER_GAME",
    "OVERTIME_LIMIT",
    "PHASES",
    "PRESETS",
    "SIDES",
    "Absence",
    "ClockRules",
    "ForcedEnd",
    "Juego",
    "JuegoRule",
    "Partida",
    "PartidaState",
    "RoundTimes",
    "absence",
    "clock_minutes",
    "clock_start",
    "envite_seconds",
    "jornada_of",
    "main",
    "max_duration_minutes",
    "max_games",
    "round_times",
    "state",
]
