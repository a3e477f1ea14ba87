"""Recorded hands: what a table writes down about one hand, in a documented JSON format.

The format (``docs/engine.md`` has it in full)::

    {"id": "mesa 7 / mano 12",                 optional, echoed back
     "rules": "amm",                           optional, default amm
     "hands": ["12o 11c 7e 1b", …],            required: four hands by seat, 0 mano … 3 postre
     "score": {"A": 0, "B": 0},                optional: before the hand, A = mano's pair
     "declarations": [{"pares": true, "juego": false}, …],   optional: four, by seat
     "lances": {"grande": ["A:envido 2", "B:no quiero"], …},  optional: missing = paso
     "claimed": {"lances": {"grande": {"A": 1, "B": 0}, …},   optional: what the table
                 "score": {"A": 7, "B": 4}, "game_winner": null}}   counted

The structure is checked here (:class:`RecordFormatError` names the field); the cards are kept
as written, so that validation can report an impossible deal as findings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final

from .betting import Bet
from .core import LOVE, Lance, Pair, Score
from .errors import RecordFormatError
from .jsonio import (
    JSON,
    LANCE_BY_KEY,
    bets_to_json,
    expect_bool,
    expect_object,
    plain_score,
    read_hands,
    read_lance,
    read_lances,
    read_pair,
    read_rules,
    read_score,
    score_to_json,
)
from .rules import AMM, RuleSet


@dataclasses.dataclass(frozen=True, slots=True)
class Declaration:
    """What a player declared before pares and juego (AMM 4.1a); ``None`` = not recorded."""

    pares: bool | None = None
    juego: bool | None = None


@dataclasses.dataclass(frozen=True)
class Claimed:
    """What the table counted: tantos per lance, the score after the hand, the juego's winner.

    ``game_winner`` is only compared when ``states_game_winner`` (the key was present, even as
    ``null``).
    """

    lances: Mapping[Lance, Score] = dataclasses.field(default_factory=dict)
    score: Score | None = None
    game_winner: Pair | None = None
    states_game_winner: bool = False


@dataclasses.dataclass(frozen=True)
class RecordedHand:
    """One recorded hand. ``hands`` are the texts as written (see :func:`scoring.mus.check_deal`)."""

    hands: tuple[str, ...]
    rules: RuleSet = AMM
    score: Score = LOVE
    declarations: tuple[Declaration, ...] | None = None
    bets: Mapping[Lance, tuple[Bet, ...]] = dataclasses.field(default_factory=dict)
    claimed: Claimed | None = None
    id: str | int | None = None


_new_object: Final = object.__new__
_KEYS: Final = frozenset({"id", "rules", "hands", "score", "declarations", "lances", "claimed"})
_CLAIMED_KEYS: Final = frozenset({"lances", "score", "game_winner"})


def parse_record(data: object) -> RecordedHand:
    """Read a recorded hand from decoded JSON; raises :class:`RecordFormatError`."""
    record = expect_object(data, "")
    unknown = [] if _KEYS.issuperset(record) else sorted(set(record) - _KEYS)
    if unknown:
        raise RecordFormatError(unknown[0], f"clave desconocida; las claves son: {', '.join(sorted(_KEYS))}")
    if "hands" not in record:
        raise RecordFormatError("hands", "falta: las cuatro manos por asiento, 0 mano … 3 postre")
    record_id = record.get("id")
    if record_id is not None and (isinstance(record_id, bool) or not isinstance(record_id, str | int)):
        raise RecordFormatError("id", "se esperaba un texto o un número")
    # RecordedHand(...) with every field, set at once rather than one object.__setattr__ each in
    # the frozen dataclass's __init__: a tournament's validation reads records by the ten thousand.
    parsed: RecordedHand = _new_object(RecordedHand)
    parsed.__dict__.update(
        hands=read_hands(record["hands"]),
        rules=read_rules(record.get("rules")),
        score=read_score(record.get("score")),
        declarations=_read_declarations(record.get("declarations")),
        bets=read_lances(record.get("lances")),
        claimed=_read_claimed(record.get("claimed")),
        id=record_id,
    )
    return parsed


_DECLARATIONS: Final = {(p, j): Declaration(p, j) for p in (False, True) for j in (False, True)}


def _read_declarations(value: object) -> tuple[Declaration, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 4:
        raise RecordFormatError(
            "declarations",
            'se esperaban cuatro declaraciones por asiento: [{"pares": true, "juego": false}, …]',
        )
    declarations: list[Declaration] = []
    for seat, item in enumerate(value):
        if type(item) is dict and len(item) == 2:  # the usual, well-formed case, checked fast
            pares, juego = item.get("pares"), item.get("juego")
            if type(pares) is bool and type(juego) is bool:
                declarations.append(_DECLARATIONS[pares, juego])
                continue
        field = f"declarations[{seat}]"
        if item is None:
            declarations.append(Declaration())
            continue
        entry = expect_object(item, field)
        unknown = sorted(set(entry) - {"pares", "juego"})
        if unknown:
            raise RecordFormatError(f"{field}.{unknown[0]}", "clave desconocida: solo «pares» y «juego»")
        pares, juego = entry.get("pares"), entry.get("juego")
        declarations.append(
            Declaration(
                pares=None if pares is None else expect_bool(pares, f"{field}.pares"),
                juego=None if juego is None else expect_bool(juego, f"{field}.juego"),
            )
        )
    return tuple(declarations)


def _read_claimed(value: object) -> Claimed | None:
    if value is None:
        return None
    data = expect_object(value, "claimed")
    unknown = [] if _CLAIMED_KEYS.issuperset(data) else sorted(set(data) - _CLAIMED_KEYS)
    if unknown:
        raise RecordFormatError(
            f"claimed.{unknown[0]}", "clave desconocida: solo «lances», «score» y «game_winner»"
        )
    lances: dict[Lance, Score] = {}
    if data.get("lances") is not None:
        for name, points in expect_object(data["lances"], "claimed.lances").items():
            lance, score = LANCE_BY_KEY.get(name), plain_score(points)
            if lance is None or score is None:  # the field's name is only written for an error
                field = f"claimed.lances.{name}"
                lance, score = read_lance(name, field), read_score(points, field)
            lances[lance] = score
    claimed: Claimed = _new_object(Claimed)  # Claimed(...), every field set at once (as in parse_record)
    claimed.__dict__.update(
        lances=lances,
        score=None if data.get("score") is None else read_score(data["score"], "claimed.score"),
        game_winner=read_pair(data.get("game_winner"), "claimed.game_winner"),
        states_game_winner="game_winner" in data,
    )
    return claimed


def record_to_json(record: RecordedHand) -> dict[str, JSON]:
    """The JSON form of a recorded hand (``parse_record`` reads it back equal)."""
    data: dict[str, JSON] = {}
    if record.id is not None:
        data["id"] = record.id
    data["rules"] = record.rules.name
    data["hands"] = list(record.hands)
    data["score"] = score_to_json(record.score)
    if record.declarations is not None:
        data["declarations"] = [
            {key: value for key, value in (("pares", d.pares), ("juego", d.juego)) if value is not None}
            for d in record.declarations
        ]
    data["lances"] = bets_to_json(record.bets)
    if record.claimed is not None:
        claimed: dict[str, JSON] = {}
        if record.claimed.lances:
            claimed["lances"] = {lance.key: score_to_json(s) for lance, s in record.claimed.lances.items()}
        if record.claimed.score is not None:
            claimed["score"] = score_to_json(record.claimed.score)
        if record.claimed.states_game_winner:
            winner = record.claimed.game_winner
            claimed["game_winner"] = None if winner is None else winner.name
        data["claimed"] = claimed
    return data
