"""JSON readers and writers shared by the command line and the recorded-hand format.

Readers take decoded JSON (``object``) and raise :class:`RecordFormatError` naming the field at
fault; writers return plain ``dict``/``list`` values ready for ``json.dumps``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .betting import _PARSED, Bet
from .core import LOVE, Lance, Pair, Score
from .errors import InvalidBetError, RecordFormatError, UnknownRuleSetError
from .evaluation import Showdown
from .rules import RuleSet, get_rules
from .tanteo import Event, TanteoResult

_new_tuple = tuple.__new__

JSON = Any
"""A decoded JSON value (what ``json.loads`` returns)."""


def expect_object(value: object, field: str) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise RecordFormatError(field, f"se esperaba un objeto JSON, no {_describe(value)}")
    return value


def expect_int(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordFormatError(field, f"se esperaba un número entero, no {_describe(value)}")
    return value


def expect_bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise RecordFormatError(field, f"se esperaba true o false, no {_describe(value)}")
    return value


def read_rules(value: object, field: str = "rules") -> RuleSet:
    if value is None:
        return get_rules(None)
    if not isinstance(value, str):
        raise RecordFormatError(field, f"se esperaba el nombre de un reglamento, no {_describe(value)}")
    try:
        return get_rules(value)
    except UnknownRuleSetError as error:
        raise RecordFormatError(field, str(error)) from None


def read_hands(value: object, field: str = "hands") -> tuple[str, ...]:
    """Four hand texts by seat; their cards are checked later, where each fault is a finding."""
    if not isinstance(value, list) or not all(isinstance(text, str) for text in value):
        raise RecordFormatError(field, 'se esperaba una lista de manos como ["12o 11c 7e 1b", …]')
    return tuple(value)


def plain_score(value: object) -> Score | None:
    """The usual, well-formed ``{"A": 12, "B": 7}`` read fast; ``None`` for anything else, which
    :func:`read_score` then reads naming the field at fault."""
    if type(value) is dict and len(value) == 2:
        a, b = value.get("A"), value.get("B")
        if type(a) is int and type(b) is int:
            return _new_tuple(Score, (a, b))
    return None


def read_score(value: object, field: str = "score") -> Score:
    """``{"A": 12, "B": 7}``; ``None`` (absent) is 0–0."""
    if value is None:
        return LOVE
    return plain_score(value) or _read_score(value, field)  # a Score, a 2-tuple, is never false


def _read_score(value: object, field: str) -> Score:
    data = expect_object(value, field)
    unknown = set(data) - {"A", "B"}
    if unknown:
        raise RecordFormatError(field, f"claves desconocidas {sorted(unknown)}: solo «A» y «B»")
    if "A" not in data or "B" not in data:
        raise RecordFormatError(field, "faltan los tantos de la pareja A o de la B")
    return Score(expect_int(data["A"], f"{field}.A"), expect_int(data["B"], f"{field}.B"))


def read_pair(value: object, field: str) -> Pair | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in ("A", "B"):
        raise RecordFormatError(field, f"se esperaba «A», «B» o null, no {_describe(value)}")
    return Pair[value]


LANCE_BY_KEY: Final[Mapping[str, Lance]] = {lance.key: lance for lance in Lance}
"""Each lance by its JSON name (``grande``…)."""


def read_lance(name: str, field: str) -> Lance:
    lance = LANCE_BY_KEY.get(name)
    if lance is None:
        raise RecordFormatError(field, f"lance desconocido {name!r}: grande, chica, pares, juego o punto")
    return lance


def read_lances(value: object, field: str = "lances") -> dict[Lance, tuple[Bet, ...]]:
    """``{"grande": ["A:envido 2", "B:no quiero"], …}``; a lance left out goes en paso."""
    if value is None:
        return {}
    data = expect_object(value, field)
    bets: dict[Lance, tuple[Bet, ...]] = {}
    for name, texts in data.items():
        lance = LANCE_BY_KEY.get(name) or read_lance(name, f"{field}.{name}")
        if not isinstance(texts, list):
            raise RecordFormatError(
                f"{field}.{name}", 'se esperaba una lista como ["A:envido 2", "B:quiero"]'
            )
        # Field names are only written out for an error: a tournament's records are many.
        parsed: list[Bet] = []
        for index, text in enumerate(texts):
            bet = _PARSED.get(text) if type(text) is str else None  # Bet.parse's memory, without the call
            if bet is not None:
                parsed.append(bet)
                continue
            if not isinstance(text, str):
                raise RecordFormatError(
                    f"{field}.{name}[{index}]", f"se esperaba un texto como «A:envido 2», no {_describe(text)}"
                )
            try:
                parsed.append(Bet.parse(text))
            except InvalidBetError as error:
                raise RecordFormatError(f"{field}.{name}[{index}]", str(error)) from None
        bets[lance] = tuple(parsed)
    return bets


def bets_to_json(bets: Mapping[Lance, tuple[Bet, ...]]) -> dict[str, list[str]]:
    return {lance.key: [str(bet) for bet in lance_bets] for lance, lance_bets in bets.items()}


def score_to_json(score: Score) -> dict[str, int]:
    return {"A": score.a, "B": score.b}


def showdown_to_json(result: Showdown) -> dict[str, JSON]:
    """The ``showdown`` command's output line (DESIGN «Fixed command-line contracts»)."""
    return {
        "grande": result.grande,
        "chica": result.chica,
        "pares": result.pares,
        "juego": result.juego,
        "punto": result.punto,
        "paso": score_to_json(result.paso),
        "players": [
            {
                "pares": None if player.pares is None else player.pares.key,
                "juego": player.juego,
                "punto": player.punto,
            }
            for player in result.players
        ],
    }


def event_to_json(event: Event) -> dict[str, JSON]:
    return {
        "lance": event.lance.key,
        "pair": event.pair.name,
        "points": event.points,
        "kind": event.kind.value,
    }


def tanteo_to_json(result: TanteoResult) -> dict[str, JSON]:
    """The ``tanteo`` command's output line (DESIGN «Fixed command-line contracts»)."""
    return {
        "events": [event_to_json(event) for event in result.events],
        "score": score_to_json(result.score),
        "game_winner": None if result.game_winner is None else result.game_winner.name,
    }


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"el texto {value!r}"
    if isinstance(value, int | float):
        return f"el número {value!r}"
    if isinstance(value, list):
        return "una lista"
    if isinstance(value, dict):
        return "un objeto"
    return type(value).__name__
