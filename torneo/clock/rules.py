"""The timings of chapter VI as options of a rule set: the AMM v6.4 values by default, and other
lateness schemes as presets. Every number the partida rules use comes from here, so a tournament
that plays another scheme changes a preset, not the code."""

from __future__ import annotations

import dataclasses
from typing import Final


def gettext_noop(message: str) -> str:
    """Marks a label for translation (``makemessages`` finds it by this name) without importing
    Django: the site shows it through ``gettext_lazy``; the command line keeps the Spanish."""
    return message


@dataclasses.dataclass(frozen=True)
class ClockRules:
    """The chapter VI timings, in minutes on the partida's clock (tantos where it says so)."""

    name: str = "amm-6.4"
    label: str = gettext_noop("AMM v6.4")
    absence_juegos_at: tuple[float, ...] = (10.0, 15.0)
    """AMM 6.1.b: a pair still incomplete at each of these minutes loses one more juego."""
    absence_partida_at: float | None = 20.0
    """AMM 6.1.b: ... and at this minute the partida (None: never)."""
    adjustments_window: float = 10.0
    """AMM 6.4: the adjustments apply from this many minutes before the maximum."""
    tie_break_normal_from: float = 5.0
    """AMM 6.4.b: a tie-breaking juego starting with this many minutes or more left is normal."""
    tie_break_tantos: int = 20
    """AMM 6.4.b: ... with less left (but not past the maximum), it is played to this many tantos."""
    short_tantos: tuple[int, ...] = (10, 5)
    """AMM 6.4.b past the maximum, 6.4.c: to 10 or 5 tantos, the juez chooses."""
    overtime_limit: float = 10.0
    """AMM 6.5: this many minutes past the maximum, the partida is ended."""
    last_hand_minute: float = 9.0
    """AMM 6.5.a: from this many minutes past the maximum, the last hand may still finish..."""
    last_hand_margin: int = 5
    """AMM 6.5.a: ... when both pairs are fewer than this many tantos from winning the last juego."""
    mus_seconds: int = 60
    """AMM 2.3: the mus dialogue of the pair mano, «sin utilizar más de un minuto»; 2.3.a: the
    other pair's, when mano's partner gives mus, «en las mismas condiciones»."""
    envite_seconds: int = 60
    """AMM 3.7: the time to accept or decline an envite."""
    envite_final_seconds: int = 120
    """AMM 3.7.a: in final jugadas ..."""
    envite_final_tantos: int = 10
    """AMM 3.7.a: ... when a pair needs this many tantos or fewer."""
    recidivism_sanctions: int = 3
    """AMM 6.6: a pair with this many delay sanctions in earlier partidas is flagged to the juez."""


AMM: Final = ClockRules()
"""Reglamento AMM v6.4, chapter VI and 3.7 (the default)."""

CLUB_15: Final = ClockRules(
    name="club-15",
    label=gettext_noop("Club: partida perdida a los 15 minutos"),
    absence_juegos_at=(),
    absence_partida_at=15.0,
)
"""A lateness scheme many club tournaments play: no juegos lost by lateness, the partida lost at
15 minutes; everything else as AMM v6.4."""

PRESETS: Final[dict[str, ClockRules]] = {rules.name: rules for rules in (AMM, CLUB_15)}
