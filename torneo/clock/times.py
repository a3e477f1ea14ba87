"""A round's times (AMM 6.1.a, 6.1.c, 6.2, 6.5): when its clock starts and the longest a partida
may last. Pure: the pair page, the clocks of the site and ``python -m torneo.clock`` call it."""

from __future__ import annotations

import dataclasses
import datetime
import math
from collections.abc import Sequence
from typing import Final

DRAW_TO_CLOCK: Final = datetime.timedelta(minutes=5)
"""AMM 6.1.a: after a draw is published, at most 5 minutes to find the table; then the clock starts."""

OVERTIME_LIMIT: Final = datetime.timedelta(minutes=10)
"""AMM 6.5: 10 minutes past the maximum duration, an unfinished partida is ended."""

MINUTES_PER_GAME: Final = 12
"""AMM 6.2: other numbers of juegos, 12 minutes per juego of the longest possible partida."""

_FIXED: Final = {3: 60, 4: 85}
"""AMM 6.2: 60 minutes at 3 juegos ganados, 85 at 4."""


def max_games(games_to_win: int) -> int:
    """The juegos of the longest possible partida: to 3 juegos ganados, 3-2 is 5 juegos."""
    if games_to_win < 1:
        raise ValueError(f"una partida se gana con 1 juego o más, no {games_to_win}")
    return 2 * games_to_win - 1


def max_duration_minutes(games_to_win: int) -> int:
    """AMM 6.2: the maximum duration of a partida to ``games_to_win`` juegos ganados, in minutes.

    60 at 3 juegos and 85 at 4; otherwise 12 minutes per juego of the longest possible partida,
    rounded up to the nearest multiple of 5 (to 2 juegos: 3 × 12 = 36, so 40).
    """
    longest = max_games(games_to_win)
    if games_to_win in _FIXED:
        return _FIXED[games_to_win]
    return 5 * math.ceil(MINUTES_PER_GAME * longest / 5)


def clock_start(
    published_at: datetime.datetime,
    *,
    jornada_starts_at: datetime.datetime | None = None,
    courtesy_minutes: int = 0,
) -> datetime.datetime:
    """The latest moment the clock of a round's partidas starts: the later of

    - AMM 6.1.a: the draw's publication plus the time to find the table (at most 5 minutes), and
    - AMM 6.1.c: the jornada's start plus its tiempo de cortesía (``courtesy_minutes``, which the
      caller gives for the jornada's first partida only; 0 for the others).

    A draw published before its jornada starts (the night before, at the venue's opening) does not
    start the clock: the players are not there yet. Without a jornada, the courtesy time counts
    from the draw's publication (the draw opens the jornada).
    """
    if courtesy_minutes < 0:
        raise ValueError(f"el tiempo de cortesía no puede ser negativo ({courtesy_minutes})")
    if jornada_starts_at is not None and (published_at.tzinfo is None) != (jornada_starts_at.tzinfo is None):
        raise ValueError("la publicación y el comienzo de la jornada: las dos con zona horaria, o ninguna")
    jornada = published_at if jornada_starts_at is None else jornada_starts_at
    return max(published_at + DRAW_TO_CLOCK, jornada + datetime.timedelta(minutes=courtesy_minutes))


def jornada_of(published_at: datetime.datetime, starts: Sequence[datetime.datetime]) -> int | None:
    """The index in ``starts`` (the jornadas' start times) of the jornada a draw published at
    ``published_at`` belongs to, for a round that names none:

    - the last jornada started by the publication on the same day: the one being played (a morning
      and an afternoon tanda: the morning's draws are the morning's);
    - else the next jornada to start: the draw was made ahead of it (the night before, or at dawn
      for a jornada at 10:00);
    - else the last jornada.

    The day is the one in ``published_at``'s time zone: give it in the tournament's local time.
    None when there is no jornada.
    """
    if not starts:
        return None
    order = sorted(range(len(starts)), key=lambda i: starts[i])
    tz = published_at.tzinfo

    def day(when: datetime.datetime) -> datetime.date:
        return when.astimezone(tz).date() if tz is not None and when.tzinfo is not None else when.date()

    today = [i for i in order if starts[i] <= published_at and day(starts[i]) == published_at.date()]
    if today:
        return today[-1]
    ahead = [i for i in order if starts[i] > published_at]
    return ahead[0] if ahead else order[-1]


@dataclasses.dataclass(frozen=True)
class RoundTimes:
    """A round's times: the clock starts at ``starts_at`` at the latest (6.1.a, 6.1.c), the partida
    should end by ``ends_at`` (6.2), and is ended by force at ``limit_at`` (6.5). ``courtesy_minutes``
    is the courtesy time applied (the jornada's first partida only) and ``jornada_starts_at`` the
    start of the round's jornada, when it has one."""

    published_at: datetime.datetime
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    limit_at: datetime.datetime
    minutes: int
    courtesy_minutes: int = 0
    jornada_starts_at: datetime.datetime | None = None

    @property
    def from_jornada(self) -> bool:
        """True when the jornada's start (and courtesy), not the draw, sets the clock's start."""
        return self.starts_at > self.published_at + DRAW_TO_CLOCK


def round_times(
    published_at: datetime.datetime,
    games_to_win: int,
    *,
    jornada_starts_at: datetime.datetime | None = None,
    courtesy_minutes: int = 0,
) -> RoundTimes:
    """The times of a round published at ``published_at`` whose partidas are to ``games_to_win``,
    in the jornada starting at ``jornada_starts_at`` (see :func:`clock_start`)."""
    minutes = max_duration_minutes(games_to_win)
    start = clock_start(published_at, jornada_starts_at=jornada_starts_at, courtesy_minutes=courtesy_minutes)
    end = start + datetime.timedelta(minutes=minutes)
    return RoundTimes(published_at, start, end, end + OVERTIME_LIMIT, minutes, courtesy_minutes, jornada_starts_at)
