"""The ``ruling`` command's JSON: a recorded hand plus the juez's facts in, the ruling out.

Input (one line): the ``validate`` format (``record.py``) plus these optional keys::

    "rectifications": [{"seat": 1, "lance": "pares", "when": "antes" | "durante" | "despues",
                        "rival_intervened": false, "infractor_intervened": false}],
    "declined_by_error": {"pares": 2, "juego": "ordago"},         4.2.f, confirmed by the juez
    "senas": [{"seat": 1, "sena": "dos reyes", "lance": "grande", "moment": "tras_grande",
               "first_hand_before_cut": false, "during_deal": false, "asking": false}],
    "into_deck": [{"seat": 2, "recovered": true}],                3.20
    "wrong_cards": [{"seat": 1, "when": "antes_grande" | "tras_grande", "admitted": false}],  2.7
    "mano_repetida": "antes_grande" | "tras_grande",              2.8
    "rival_showed_cards": true,                                   3.12.b
    "obligadas": [{"seat": 2, "lance": "pares"}]                  4.1d, found by the juez
    "showed_cards": [{"seat": 1, "lance": "pares", "clear": false}]  3.4.a, cards shown to an órdago
    "showed_out": {"seat": 0, "lance": "juego", "rival_bet": 5 | "ordago" | null,
                   "continued": false}                            3.4.b, «estar fuera»
    "simultaneous": [{"lance": "grande", "pair": "A", "said": ["quiero", "no quiero"],
                      "plural": false, "chosen": 0 | 1 | null}]   3.10, 3.10.a, 3.10.b

Output: ``errors``, ``events`` (as the tanteo's, with ``article`` where a ruling gives them),
``score``, ``game_winner``, ``articles``, ``explanation`` and ``sanctions``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .betting import Bet
from .core import SEATS, Lance, Pair, Seat
from .errors import InvalidBetError, RecordFormatError
from .jsonio import JSON, LANCE_BY_KEY, expect_bool, expect_int, expect_object, score_to_json
from .record import RecordedHand, parse_record
from .rulings import (
    IntoDeck,
    JuezFacts,
    Rectification,
    RuleError,
    Ruling,
    RulingEvent,
    SenaPassed,
    ShowedCards,
    ShowedOut,
    Simultaneous,
    When,
    WrongCards,
    rule,
)
from .senas import MOMENTS, read_sena

FACT_KEYS: Final = frozenset(
    {
        "rectifications",
        "declined_by_error",
        "senas",
        "into_deck",
        "wrong_cards",
        "mano_repetida",
        "rival_showed_cards",
        "obligadas",
        "showed_cards",
        "showed_out",
        "simultaneous",
    }
)


def read_ruling_input(data: object) -> tuple[RecordedHand, JuezFacts]:
    """Split one input line into the recorded hand and the juez's facts; raises
    :class:`RecordFormatError` naming the field at fault."""
    line = expect_object(data, "")
    record = parse_record({key: value for key, value in line.items() if key not in FACT_KEYS})
    return record, read_facts(line)


def read_facts(line: Mapping[str, object]) -> JuezFacts:
    """The juez's facts from a decoded JSON object (keys outside :data:`FACT_KEYS` ignored)."""
    return JuezFacts(
        rectifications=tuple(
            _rectification(item, f"rectifications[{i}]") for i, item in enumerate(_list(line, "rectifications"))
        ),
        declined_by_error=_declined(line.get("declined_by_error")),
        senas=tuple(_sena(item, f"senas[{i}]") for i, item in enumerate(_list(line, "senas"))),
        into_deck=tuple(_into_deck(item, f"into_deck[{i}]") for i, item in enumerate(_list(line, "into_deck"))),
        wrong_cards=tuple(_wrong_cards(item, f"wrong_cards[{i}]") for i, item in enumerate(_list(line, "wrong_cards"))),
        mano_repetida=_mano_repetida(line.get("mano_repetida")),
        rival_showed_cards=_flag(line.get("rival_showed_cards"), "rival_showed_cards"),
        obligadas=frozenset(_obligada(item, f"obligadas[{i}]") for i, item in enumerate(_list(line, "obligadas"))),
        showed_cards=tuple(
            _showed(item, f"showed_cards[{i}]") for i, item in enumerate(_list(line, "showed_cards"))
        ),
        showed_out=None if line.get("showed_out") is None else _showed_out(line["showed_out"], "showed_out"),
        simultaneous=tuple(
            _simultaneous(item, f"simultaneous[{i}]") for i, item in enumerate(_list(line, "simultaneous"))
        ),
    )


def _list(line: Mapping[str, object], key: str) -> list[object]:
    value = line.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise RecordFormatError(key, "se esperaba una lista")
    return value


def _flag(value: object, field: str) -> bool:
    return False if value is None else expect_bool(value, field)


def _keys(entry: Mapping[str, object], field: str, allowed: frozenset[str], required: tuple[str, ...]) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise RecordFormatError(
            f"{field}.{unknown[0]}", f"clave desconocida; las claves son: {', '.join(sorted(allowed))}"
        )
    for key in required:
        if key not in entry:
            raise RecordFormatError(f"{field}.{key}", "falta")


def _seat(value: object, field: str) -> Seat:
    seat = expect_int(value, field)
    if seat not in SEATS:
        raise RecordFormatError(field, f"asiento {seat}: los asientos van de 0 (mano) a 3 (postre)")
    return seat


def _lance(value: object, field: str) -> Lance:
    lance = LANCE_BY_KEY.get(value) if isinstance(value, str) else None
    if lance is None:
        raise RecordFormatError(field, "se esperaba un lance: grande, chica, pares, juego o punto")
    return lance


_RECTIFICATION_KEYS: Final = frozenset({"seat", "lance", "when", "rival_intervened", "infractor_intervened"})
_WHEN: Final = {when.value: when for when in When}


def _rectification(item: object, field: str) -> Rectification:
    entry = expect_object(item, field)
    _keys(entry, field, _RECTIFICATION_KEYS, ("seat", "lance", "when"))
    when = _WHEN.get(entry["when"]) if isinstance(entry["when"], str) else None
    if when is None:
        raise RecordFormatError(f"{field}.when", "se esperaba «antes», «durante» o «despues»")
    return Rectification(
        seat=_seat(entry["seat"], f"{field}.seat"),
        lance=_lance(entry["lance"], f"{field}.lance"),
        when=when,
        rival_intervened=_flag(entry.get("rival_intervened"), f"{field}.rival_intervened"),
        infractor_intervened=_flag(entry.get("infractor_intervened"), f"{field}.infractor_intervened"),
    )


def _declined(value: object) -> dict[Lance, int | None]:
    if value is None:
        return {}
    data = expect_object(value, "declined_by_error")
    claims: dict[Lance, int | None] = {}
    for name, amount in data.items():
        field = f"declined_by_error.{name}"
        lance = _lance(name, field)
        if amount == "ordago":
            claims[lance] = None
            continue
        points = expect_int(amount, field)
        if points < 1:
            raise RecordFormatError(field, "un envite rechazado vale al menos 1 tanto")
        claims[lance] = points
    return claims


_SENA_KEYS: Final = frozenset({"seat", "sena", "lance", "moment", "first_hand_before_cut", "during_deal", "asking"})


def _sena(item: object, field: str) -> SenaPassed:
    entry = expect_object(item, field)
    _keys(entry, field, _SENA_KEYS, ("seat", "sena"))
    moment = entry.get("moment")
    if moment is not None and moment not in MOMENTS:
        raise RecordFormatError(f"{field}.moment", f"se esperaba {' o '.join(f'«{m}»' for m in MOMENTS)}")
    return SenaPassed(
        seat=_seat(entry["seat"], f"{field}.seat"),
        sena=read_sena(entry["sena"], f"{field}.sena"),
        lance=None if entry.get("lance") is None else _lance(entry["lance"], f"{field}.lance"),
        moment=moment if isinstance(moment, str) else None,
        first_hand_before_cut=_flag(entry.get("first_hand_before_cut"), f"{field}.first_hand_before_cut"),
        during_deal=_flag(entry.get("during_deal"), f"{field}.during_deal"),
        asking=_flag(entry.get("asking"), f"{field}.asking"),
    )


def _into_deck(item: object, field: str) -> IntoDeck:
    entry = expect_object(item, field)
    _keys(entry, field, frozenset({"seat", "recovered"}), ("seat",))
    recovered = entry.get("recovered")
    return IntoDeck(
        seat=_seat(entry["seat"], f"{field}.seat"),
        recovered=True if recovered is None else expect_bool(recovered, f"{field}.recovered"),
    )


def _showed(item: object, field: str) -> ShowedCards:
    entry = expect_object(item, field)
    _keys(entry, field, frozenset({"seat", "lance", "clear"}), ("seat", "lance"))
    return ShowedCards(
        seat=_seat(entry["seat"], f"{field}.seat"),
        lance=_lance(entry["lance"], f"{field}.lance"),
        clear=_flag(entry.get("clear"), f"{field}.clear"),
    )


def _showed_out(item: object, field: str) -> ShowedOut:
    entry = expect_object(item, field)
    _keys(entry, field, frozenset({"seat", "lance", "rival_bet", "continued"}), ("seat", "lance"))
    bet = entry.get("rival_bet")
    rival_bet: int | None
    if bet is None:
        rival_bet = None
    elif bet == "ordago":
        rival_bet = 0
    else:
        rival_bet = expect_int(bet, f"{field}.rival_bet")
        if not 2 <= rival_bet <= 100:
            raise RecordFormatError(f"{field}.rival_bet", "un envite va de 2 a 100 tantos, o «ordago» (AMM 3.6)")
    return ShowedOut(
        seat=_seat(entry["seat"], f"{field}.seat"),
        lance=_lance(entry["lance"], f"{field}.lance"),
        rival_bet=rival_bet,
        continued=_flag(entry.get("continued"), f"{field}.continued"),
    )


def _simultaneous(item: object, field: str) -> Simultaneous:
    entry = expect_object(item, field)
    _keys(entry, field, frozenset({"lance", "pair", "said", "plural", "chosen"}), ("lance", "pair", "said"))
    pair_text = entry["pair"]
    if pair_text not in ("A", "B"):
        raise RecordFormatError(f"{field}.pair", "se esperaba «A» o «B»")
    said = entry["said"]
    if not isinstance(said, list) or len(said) != 2 or not all(isinstance(x, str) for x in said):
        raise RecordFormatError(f"{field}.said", "se esperaban las dos voces, p. ej. [\"quiero\", \"no quiero\"]")
    bets = []
    for i, text in enumerate(said):
        try:
            bets.append(Bet.parse(f"{pair_text}:{text}"))
        except InvalidBetError as error:
            raise RecordFormatError(f"{field}.said[{i}]", str(error)) from None
    chosen = entry.get("chosen")
    if chosen is not None and chosen not in (0, 1):
        raise RecordFormatError(f"{field}.chosen", "se esperaba 0 o 1 (la voz que eligieron los contrarios)")
    return Simultaneous(
        lance=_lance(entry["lance"], f"{field}.lance"),
        pair=Pair.A if pair_text == "A" else Pair.B,
        said=(bets[0], bets[1]),
        plural=_flag(entry.get("plural"), f"{field}.plural"),
        chosen=chosen,
    )


_GRANDE_MOMENTS: Final = {"antes_grande": True, "tras_grande": False}


def _wrong_cards(item: object, field: str) -> WrongCards:
    entry = expect_object(item, field)
    _keys(entry, field, frozenset({"seat", "when", "admitted"}), ("seat", "when"))
    before = _GRANDE_MOMENTS.get(entry["when"]) if isinstance(entry["when"], str) else None
    if before is None:
        raise RecordFormatError(f"{field}.when", "se esperaba «antes_grande» o «tras_grande»")
    return WrongCards(
        seat=_seat(entry["seat"], f"{field}.seat"),
        after_grande=not before,
        admitted=_flag(entry.get("admitted"), f"{field}.admitted"),
    )


def _mano_repetida(value: object) -> bool | None:
    if value is None:
        return None
    before = _GRANDE_MOMENTS.get(value) if isinstance(value, str) else None
    if before is None:
        raise RecordFormatError("mano_repetida", "se esperaba «antes_grande» o «tras_grande»")
    return before


def _obligada(item: object, field: str) -> tuple[Seat, Lance]:
    entry = expect_object(item, field)
    _keys(entry, field, frozenset({"seat", "lance"}), ("seat", "lance"))
    return _seat(entry["seat"], f"{field}.seat"), _lance(entry["lance"], f"{field}.lance")


# ---------------------------------------------------------------------------------------------


def error_to_json(error: RuleError) -> dict[str, JSON]:
    data: dict[str, JSON] = {
        "seat": error.seat,
        "pair": error.pair.name,
        "lance": error.lance.key,
        "article": error.article,
        "kind": error.kind,
        "message": error.message,
        "rectified": None,
    }
    rectification = error.rectification
    if rectification is not None:
        data["rectified"] = {
            "lance": rectification.lance.key,
            "when": rectification.when.value,
            "rival_intervened": rectification.rival_intervened,
        }
    return data


def ruling_event_to_json(event: RulingEvent) -> dict[str, JSON]:
    data: dict[str, JSON] = {
        "lance": event.lance.key,
        "pair": event.pair.name,
        "points": event.points,
        "kind": event.kind.value,
    }
    if event.article is not None:
        data["article"] = event.article
    return data


def ruling_to_json(ruling: Ruling) -> dict[str, JSON]:
    """The ``ruling`` command's output line (the contract in issue 14 and docs/engine.md)."""
    return {
        "errors": [error_to_json(error) for error in ruling.errors],
        "events": [ruling_event_to_json(event) for event in ruling.events],
        "score": score_to_json(ruling.score),
        "game_winner": None if ruling.game_winner is None else ruling.game_winner.name,
        "articles": list(ruling.articles),
        "explanation": list(ruling.explanation),
        "sanctions": [{"seat": seat, "article": article} for seat, article in ruling.sanctions],
    }


def run_ruling(line: JSON) -> dict[str, JSON]:
    """``python -m scoring.mus ruling``, one line."""
    record, facts = read_ruling_input(line)
    output: dict[str, JSON] = {}
    if record.id is not None:
        output["id"] = record.id
    output.update(ruling_to_json(rule(record, facts)))
    return output
