"""The recorded-hand JSON format: reading, writing back, and every malformed field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.mus import (
    AMM,
    Claimed,
    Declaration,
    Lance,
    Pair,
    RecordedHand,
    RecordFormatError,
    Score,
    get_rules,
    parse_bets,
    parse_record,
    record_to_json,
    showdown,
)

from .strategies import deals, hand_bets, scores

HANDS = ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]


def test_a_minimal_record_is_just_the_hands() -> None:
    record = parse_record({"hands": HANDS})
    assert record == RecordedHand(hands=tuple(HANDS))
    assert (record.rules, record.score, record.declarations, record.bets, record.claimed) == (
        AMM,
        Score(0, 0),
        None,
        {},
        None,
    )


def test_a_full_record_is_read_field_by_field() -> None:
    record = parse_record(
        {
            "id": 17,
            "rules": "ehmt",
            "hands": HANDS,
            "score": {"A": 12, "B": 30},
            "declarations": [{"pares": True, "juego": False}, None, {"pares": True}, {}],
            "lances": {"grande": ["A:envido", "B:quiero"], "punto": []},
            "claimed": {
                "lances": {"grande": {"A": 2, "B": 0}},
                "score": {"A": 14, "B": 35},
                "game_winner": None,
            },
        }
    )
    assert record.id == 17
    assert record.rules is get_rules("ehmt")
    assert record.score == Score(12, 30)
    assert record.declarations == (
        Declaration(True, False),
        Declaration(None, None),
        Declaration(True, None),
        Declaration(None, None),
    )
    assert record.bets == {Lance.GRANDE: parse_bets(["A:envido", "B:quiero"]), Lance.PUNTO: ()}
    assert record.claimed == Claimed({Lance.GRANDE: Score(2, 0)}, Score(14, 35), None, states_game_winner=True)


@st.composite
def records(draw: st.DrawFn) -> RecordedHand:
    hands = draw(deals())
    result = showdown(hands)
    declarations = draw(
        st.none()
        | st.tuples(
            *[st.builds(Declaration, st.sampled_from([None, True, False]), st.sampled_from([None, True, False]))] * 4
        )
    )
    claimed = draw(
        st.none()
        | st.builds(
            Claimed,
            st.dictionaries(st.sampled_from(list(Lance)), scores()),
            st.none() | scores(),
            st.none() | st.sampled_from(Pair),
            st.booleans(),
        )
    )
    if claimed is not None and not claimed.states_game_winner and claimed.game_winner is not None:
        claimed = Claimed(claimed.lances, claimed.score, None, False)
    return RecordedHand(
        hands=tuple(str(hand) for hand in hands),
        rules=draw(st.sampled_from([AMM, get_rules("fournier"), get_rules("la_rioja")])),
        score=draw(scores()),
        declarations=declarations,
        bets=draw(hand_bets(result)),
        claimed=claimed,
        id=draw(st.none() | st.text(max_size=10) | st.integers()),
    )


@given(records())
def test_records_round_trip_through_json(record: RecordedHand) -> None:
    assert parse_record(record_to_json(record)) == record


def _with(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"hands": HANDS}
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ([], "", "se esperaba un objeto JSON, no una lista"),
        ({}, "hands", "falta"),
        (_with(hand=HANDS), "hand", "clave desconocida"),
        (_with(hands="12o 12c 1e 5b"), "hands", "lista de manos"),
        (_with(hands=[1, 2, 3, 4]), "hands", "lista de manos"),
        (_with(rules="amn"), "rules", "reglamento desconocido"),
        (_with(rules=3), "rules", "nombre de un reglamento"),
        (_with(score={"A": 3}), "score", "faltan los tantos"),
        (_with(score={"A": 3, "B": "4"}), "score.B", "número entero, no el texto '4'"),
        (_with(score={"A": True, "B": 4}), "score.A", "número entero, no true"),
        (_with(score={"A": 1, "B": 2, "C": 3}), "score", "claves desconocidas"),
        (_with(score=[1, 2]), "score", "objeto JSON"),
        (_with(declarations=[{}, {}, {}]), "declarations", "cuatro declaraciones"),
        (_with(declarations=[{"pares": "si"}, {}, {}, {}]), "declarations[0].pares", "true o false"),
        (_with(declarations=[{}, {"punto": True}, {}, {}]), "declarations[1].punto", "clave desconocida"),
        (_with(declarations=[{}, {}, 7, {}]), "declarations[2]", "objeto JSON"),
        (_with(lances={"mus": []}), "lances.mus", "lance desconocido"),
        (_with(lances={"grande": "A:envido"}), "lances.grande", "una lista"),
        (_with(lances={"grande": [2]}), "lances.grande[0]", "un texto"),
        (_with(lances={"chica": ["A:paso", "A:envido dos"]}), "lances.chica[1]", "no es una apuesta"),
        (_with(claimed={"tantos": {}}), "claimed.tantos", "clave desconocida"),
        (_with(claimed={"lances": {"mus": {"A": 1, "B": 0}}}), "claimed.lances.mus", "lance desconocido"),
        (_with(claimed={"score": {"A": 1}}), "claimed.score", "faltan"),
        (_with(claimed={"game_winner": "C"}), "claimed.game_winner", "«A», «B» o null"),
        (_with(id=[1]), "id", "un texto o un número"),
    ],
)
def test_malformed_records_name_the_field_at_fault(data: Any, field: str, message: str) -> None:
    with pytest.raises(RecordFormatError) as raised:
        parse_record(data)
    assert raised.value.field == field
    assert message in str(raised.value)
    assert str(raised.value).startswith(f"{field}: " if field else message[:5])


@pytest.mark.parametrize(
    ("value", "described"),
    [(None, "null"), ({"A": 1}, "un objeto"), (1.5, "el número 1.5"), (False, "false")],
)
def test_wrong_types_are_described_in_spanish(value: Any, described: str) -> None:
    with pytest.raises(RecordFormatError, match=f"no {described}$"):
        parse_record(_with(score={"A": value, "B": 0}))
