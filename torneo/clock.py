"""The time of a partida (AMM chapter VI), as pure functions: when a round's clock starts and the
longest a partida may last. No Django: the pair page calls it, and so can anyone
(``python -m torneo.clock`` reads JSON lines, see :func:`main`).

This is the part of chapter VI the players' view needs (6.1.a, 6.1.c, 6.2, 6.5); the running
clocks of each table, with their lateness rules (6.1.b) and finishing adjustments (6.4), come
later.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import math
import sys
from collections.abc import Iterable
from typing import Final, TextIO

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


def clock_start(published_at: datetime.datetime, *, courtesy_minutes: int = 0) -> datetime.datetime:
    """AMM 6.1.a: the latest moment the clock of a round's partidas starts, 5 minutes after the
    draw's publication; plus the tiempo de cortesía of the jornada's first partida (6.1.c)."""
    if courtesy_minutes < 0:
        raise ValueError(f"el tiempo de cortesía no puede ser negativo ({courtesy_minutes})")
    return published_at + DRAW_TO_CLOCK + datetime.timedelta(minutes=courtesy_minutes)


@dataclasses.dataclass(frozen=True)
class RoundTimes:
    """A round's times: the clock starts at ``starts_at`` at the latest (6.1.a, 6.1.c), the partida
    should end by ``ends_at`` (6.2), and is ended by force at ``limit_at`` (6.5)."""

    published_at: datetime.datetime
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    limit_at: datetime.datetime
    minutes: int
    courtesy_minutes: int = 0


def round_times(published_at: datetime.datetime, games_to_win: int, *, courtesy_minutes: int = 0) -> RoundTimes:
    """The times of a round published at ``published_at`` whose partidas are to ``games_to_win``."""
    minutes = max_duration_minutes(games_to_win)
    start = clock_start(published_at, courtesy_minutes=courtesy_minutes)
    end = start + datetime.timedelta(minutes=minutes)
    return RoundTimes(published_at, start, end, end + OVERTIME_LIMIT, minutes, courtesy_minutes)


def _answer(data: object) -> dict[str, object]:
    if not isinstance(data, dict):
        raise ValueError('se esperaba un objeto como {"games_to_win": 3, "published_at": "2026-12-12T10:00:00+01:00"}')
    games = data.get("games_to_win", 3)
    if type(games) is not int:
        raise ValueError("games_to_win: se esperaba un número entero")
    courtesy = data.get("courtesy_minutes", 0)
    if type(courtesy) is not int:
        raise ValueError("courtesy_minutes: se esperaba un número entero")
    out: dict[str, object] = {"games_to_win": games, "max_minutes": max_duration_minutes(games)}
    published = data.get("published_at")
    if published is not None:
        if not isinstance(published, str):
            raise ValueError("published_at: se esperaba una fecha ISO 8601")
        try:
            when = datetime.datetime.fromisoformat(published)
        except ValueError:
            raise ValueError(f"published_at: «{published}» no es una fecha ISO 8601") from None
        times = round_times(when, games, courtesy_minutes=courtesy)
        out.update(
            starts_at=times.starts_at.isoformat(),
            ends_at=times.ends_at.isoformat(),
            limit_at=times.limit_at.isoformat(),
        )
    return out


def main(lines: Iterable[str] = sys.stdin, out: TextIO = sys.stdout) -> int:
    """``python -m torneo.clock``: each input line ``{"games_to_win": 3, "published_at": "…",
    "courtesy_minutes": 0}`` (all optional) gives ``{"games_to_win", "max_minutes", "starts_at",
    "ends_at", "limit_at"}``; a bad line gives ``{"error": "línea N: …"}`` and the command goes on."""
    status = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            answer = _answer(json.loads(line))
        except ValueError as error:  # json.JSONDecodeError is a ValueError
            answer = {"error": f"línea {number}: {error}"}
            status = 1
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
