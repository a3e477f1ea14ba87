"""``python -m torneo.clock``: JSON lines in, one JSON line out for each (docs/clock.md).

- without a verb: a round's times — ``{"games_to_win": 3, "published_at": "…", "jornada_starts_at":
  "…", "courtesy_minutes": 0}`` (all optional) gives ``{"games_to_win", "max_minutes", "starts_at",
  "ends_at", "limit_at"}``;
- ``partida``: one partida at one moment of its clock gives its chapter VI state (the fixed
  contract of DESIGN.md: ``max_minutes``, ``phase``, ``missing``, ``juego``, ``forced_end``,
  ``alerts``, and a few more keys).

A bad line answers ``{"error": "línea N: …"}`` in Spanish and the command goes on (exit status 1
at the end)."""

from __future__ import annotations

import datetime
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TextIO

from torneo.clock.partida import SIDES, Juego, Partida, Side, state
from torneo.clock.rules import AMM, PRESETS
from torneo.clock.times import max_duration_minutes, round_times


def _when(data: Mapping[str, object], key: str) -> datetime.datetime | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{key}: se esperaba una fecha ISO 8601")
    try:
        return datetime.datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{key}: «{value}» no es una fecha ISO 8601") from None


def _object(data: object) -> Mapping[str, object]:
    if not isinstance(data, dict):
        raise ValueError('se esperaba un objeto JSON, como {"games_to_win": 3, "minute": 12.5}')
    return data


def _int(data: Mapping[str, object], key: str, default: int) -> int:
    value = data.get(key, default)
    if type(value) is not int:
        raise ValueError(f"{key}: se esperaba un número entero")
    return value


def times_answer(data: object) -> dict[str, object]:
    """A round's times (the verbless form)."""
    data = _object(data)
    games = _int(data, "games_to_win", 3)
    courtesy = _int(data, "courtesy_minutes", 0)
    out: dict[str, object] = {"games_to_win": games, "max_minutes": max_duration_minutes(games)}
    when = _when(data, "published_at")
    jornada = _when(data, "jornada_starts_at")
    if when is not None:
        times = round_times(when, games, jornada_starts_at=jornada, courtesy_minutes=courtesy)
        out.update(
            starts_at=times.starts_at.isoformat(),
            ends_at=times.ends_at.isoformat(),
            limit_at=times.limit_at.isoformat(),
        )
    return out


def _number(value: object, where: str) -> float:
    if type(value) not in (int, float):
        raise ValueError(f"{where}: se esperaba un número de minutos")
    assert isinstance(value, (int, float))
    return float(value)


def _sides(data: Mapping[str, object], key: str) -> dict[Side, object] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, dict) or any(k not in SIDES for k in value):
        raise ValueError(f'{key}: se esperaba un objeto con las parejas "A" y "B"')
    return {s: value[s] for s in SIDES if s in value}


def _counts(data: Mapping[str, object], key: str) -> dict[Side, int]:
    values = _sides(data, key) or {}
    out: dict[Side, int] = {}
    for side, value in values.items():
        if type(value) is not int or value < 0:
            raise ValueError(f"{key}.{side}: se esperaba un número entero de 0 o más")
        assert isinstance(value, int)
        out[side] = value
    return out


def _pair_ints(data: Mapping[str, object], key: str) -> dict[Side, int] | None:
    values = _sides(data, key)
    if values is None:
        return None
    if set(values) != set(SIDES):
        raise ValueError(f'{key}: hacen falta las dos parejas, "A" y "B"')
    out: dict[Side, int] = {}
    for side, value in values.items():
        if type(value) is not int:
            raise ValueError(f"{key}.{side}: se esperaba un número entero")
        assert isinstance(value, int)
        out[side] = value
    return out


def partida_facts(data: object) -> Partida:
    """The facts of one input line of ``partida`` (ValueError in Spanish, naming the key)."""
    data = _object(data)
    if "minute" not in data:
        raise ValueError("minute: falta el minuto de la partida (minutos de reloj desde que empezó)")
    raw_juegos = data.get("juegos", [])
    if not isinstance(raw_juegos, list):
        raise ValueError('juegos: se esperaba una lista como [{"winner": "A", "ended": 12.5}]')
    juegos = []
    for n, item in enumerate(raw_juegos, start=1):
        if not isinstance(item, dict) or item.get("winner") not in SIDES:
            raise ValueError(f'juegos[{n}]: se esperaba {{"winner": "A" o "B", "ended": minuto}}')
        winner: Side = "A" if item["winner"] == "A" else "B"
        juegos.append(Juego(winner, _number(item.get("ended"), f"juegos[{n}].ended")))
    missing: dict[Side, float | None] = {}
    for side, value in (_sides(data, "missing") or {}).items():
        missing[side] = None if value is None else _number(value, f"missing.{side}")
    rules = data.get("rules", AMM.name)
    if not isinstance(rules, str) or rules not in PRESETS:
        raise ValueError(f"rules: uno de {', '.join(sorted(PRESETS))}")
    return Partida(
        minute=_number(data["minute"], "minute"),
        games_to_win=_int(data, "games_to_win", 3),
        juegos=tuple(juegos),
        tantos=_pair_ints(data, "tantos"),
        missing=missing,
        delay_warnings=_counts(data, "delay_warnings"),
        earlier_delay_sanctions=_counts(data, "earlier_delay_sanctions"),
        agreed_result=_pair_ints(data, "agreed_result"),
        points_per_game=_int(data, "points_per_game", 40),
        rules=PRESETS[rules],
    )


def partida_answer(data: object) -> dict[str, object]:
    """One line of ``partida``: the chapter VI state of the partida it describes."""
    return state(partida_facts(data)).as_dict()


VERBS: dict[str, Callable[[object], dict[str, object]]] = {"": times_answer, "partida": partida_answer}


def main(lines: Iterable[str] = sys.stdin, out: TextIO = sys.stdout, argv: Sequence[str] = ()) -> int:
    """Answer each JSON line of ``lines`` on ``out`` (the verb in ``argv``; none: a round's times)."""
    verb = argv[0] if argv else ""
    answer = VERBS.get(verb)
    if answer is None or len(argv) > 1:
        sys.stderr.write(f"uso: python -m torneo.clock [partida] (no «{' '.join(argv)}»)\n")
        return 2
    status = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            try:
                data = json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                raise ValueError("no es un objeto JSON válido") from None
            result = answer(data)
        except ValueError as error:
            result = {"error": f"línea {number}: {error}"}
            status = 1
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return status
