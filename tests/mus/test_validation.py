"""Validation of recorded hands and of a juego's sequence of hands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.mus import (
    Finding,
    Lance,
    Pair,
    Score,
    Severity,
    check_record,
    finding_to_json,
    parse_record,
    replay_game,
    tanteo_to_json,
    validate,
)

DATA = Path(__file__).parent / "data"
VALIDATE_CASES = [
    json.loads(line)
    for line in (DATA / "validate.jsonl").read_text().splitlines()
    if line and "juego" not in json.loads(line)["input"]
]

S1 = ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]
TRUE_S1 = [
    {"pares": True, "juego": False},
    {"pares": True, "juego": False},
    {"pares": True, "juego": False},
    {"pares": False, "juego": False},
]


def codes(findings: list[Finding]) -> list[str]:
    return [finding.code for finding in findings]


@pytest.mark.parametrize("case", VALIDATE_CASES, ids=[case["why"][:3] for case in VALIDATE_CASES])
def test_hand_checked_records(case: dict[str, Any]) -> None:
    check = check_record(parse_record(case["input"]))
    expected = case["expected"]
    assert check.valid is expected["valid"]
    assert [finding_to_json(finding) for finding in check.findings] == expected["findings"]
    if "tanteo" in expected:
        assert (None if check.tanteo is None else tanteo_to_json(check.tanteo)) == expected["tanteo"]


def test_a_correct_record_has_no_findings() -> None:
    record = parse_record({"hands": S1, "declarations": TRUE_S1, "claimed": {"score": {"A": 1, "B": 5}}})
    assert validate(record) == []


def test_every_false_declaration_is_reported_by_seat_and_lance_amm_4_1a() -> None:
    wrong = [
        {"pares": False, "juego": False},  # seat 0 holds a pareja of reyes
        {"pares": False, "juego": True},  # seat 1 holds duples and 28
        {"pares": True, "juego": False},
        {"pares": True, "juego": False},  # seat 3 holds no pares
    ]
    findings = validate(parse_record({"hands": S1, "declarations": wrong}))
    false = [(f.seat, f.lance, f.pair, f.article) for f in findings if f.code == "declaracion_falsa"]
    assert false == [
        (0, Lance.PARES, Pair.A, "AMM 4.1a"),
        (1, Lance.PARES, Pair.B, "AMM 4.1a"),
        (1, Lance.JUEGO, Pair.B, "AMM 4.1a"),
        (3, Lance.PARES, Pair.B, "AMM 4.1a"),
    ]
    assert findings[1].message == "El asiento 1 declaró «pares no» y lleva duples de caballos y cuatros."
    assert codes(findings)[-1] == "tanteo_no_comprobado"


def test_ehmt_records_cite_the_ehmt_articles_for_false_declarations_seed_002_arts_12_14() -> None:
    """Seed 002 (EHMT) art. 12: «Pareak izanda, ohar gabean, ez dituela esan duen jokalaririk balego»
    (holding pares, said none); 13: «Jokorik izan gabe, ohar gabean, baduela esan duen jokalaririk
    balego» (said juego without it); 14: «Jokoa izanda, ohar gabean, ez duela esan duen jokalaririk
    balego» (held juego, said none). A false «pares sí» has no EHMT article: AMM 4.1a."""
    wrong = [
        {"pares": False, "juego": False},  # seat 0 holds a pareja of reyes: art. 12
        {"pares": True, "juego": True},  # seat 1 has 28: art. 13
        {"pares": True, "juego": False},
        {"pares": True, "juego": False},  # seat 3 holds no pares: no EHMT article
    ]
    findings = validate(parse_record({"hands": S1, "declarations": wrong, "rules": "ehmt"}))
    assert [(f.code, f.seat, f.article) for f in findings] == [
        ("declaracion_falsa", 0, "EHMT art. 12"),
        ("declaracion_falsa", 1, "EHMT art. 13"),
        ("declaracion_falsa", 3, "AMM 4.1a"),
        ("tanteo_no_comprobado", None, "EHMT arts. 12–14"),
    ]
    assert "(EHMT arts. 12–14)" in findings[-1].message
    s4 = ["12o 11o 10o 7o", "12c 11c 10c 3c", "12e 11e 6e 6b", "12b 10b 10e 1b"]  # every seat has juego
    held = [{"juego": False}, {}, {}, {}]
    assert [f.article for f in validate(parse_record({"hands": s4, "declarations": held, "rules": "ehmt"}))] == [
        "EHMT art. 14",
        "EHMT arts. 12–14",
    ]
    amm = validate(parse_record({"hands": s4, "declarations": held}))
    assert [f.article for f in amm] == ["AMM 4.1a", "AMM 4.2"]


def test_ehmt_records_cite_the_ehmt_count_and_target_seed_002_arts_1_16() -> None:
    """Seed 002 (EHMT) art. 16: «Kontaketa, lehenik handira, ondoren txikira, paretara eta jokora edo
    puntura egingo da»; art. 1: «8 hamarrekotara izango diren 3 partida» (juegos to 40)."""
    claimed = {"lances": {"grande": {"A": 0, "B": 1}}, "score": {"A": 0, "B": 0}, "game_winner": "A"}
    findings = validate(parse_record({"hands": S1, "rules": "ehmt", "claimed": claimed}))
    assert [(f.code, f.article) for f in findings] == [
        ("tanteo_incorrecto", "EHMT art. 16"),  # pair A
        ("tanteo_incorrecto", "EHMT art. 16"),  # pair B
        ("marcador_incorrecto", "EHMT art. 16"),
        ("ganador_incorrecto", "EHMT art. 1"),
    ]
    assert [f.article for f in validate(parse_record({"hands": S1, "rules": "ehmt", "score": {"A": 40, "B": 0}}))] == [
        "EHMT art. 1"
    ]
    assert [f.article for f in validate(parse_record({"hands": S1, "claimed": claimed}))] == [
        "AMM 3.13",
        "AMM 3.13",
        "AMM 3.13",
        "AMM 1.7.a",
    ]


def test_betting_is_checked_against_the_declarations_amm_3_8() -> None:
    # Seat 3 falsely says «pares sí»: as the table knew it, both pairs held pares, so the envite
    # is legal; the false declaration is the finding.
    declarations = [dict(d) for d in TRUE_S1]
    declarations[1] = {"pares": False, "juego": False}  # seat 1 hides its duples
    declarations[3] = {"pares": False, "juego": False}
    findings = validate(
        parse_record({"hands": S1, "declarations": declarations, "lances": {"pares": ["A:envido", "B:quiero"]}})
    )
    assert "envite_sin_contrario" in codes(findings)
    assert "declaracion_falsa" in codes(findings)


def test_undeclared_seats_are_taken_from_their_cards() -> None:
    partial = [{"pares": True}, None, {}, {"juego": False}]
    record = parse_record({"hands": S1, "declarations": partial, "lances": {"pares": ["B:envido", "A:quiero"]}})
    assert validate(record) == []


def test_a_card_outside_la_riojas_deck_seed_000() -> None:
    findings = validate(parse_record({"hands": S1, "rules": "la_rioja"}))
    assert [(f.code, f.seat) for f in findings] == [("carta_fuera_de_baraja", 3)]


def test_a_deal_without_four_hands() -> None:
    findings = validate(parse_record({"hands": S1[:3]}))
    assert [(f.code, f.seat) for f in findings] == [("numero_de_manos", None)]
    assert findings[0].message == "El reparto tiene 3 manos; deben ser 4."


def test_an_impossible_score_before_the_hand_amm_1_7_a() -> None:
    findings = validate(parse_record({"hands": S1, "score": {"A": 40, "B": 3}}))
    assert codes(findings) == ["marcador_imposible"]
    assert findings[0].message == "Marcador previo: el juego ya terminó: la pareja A tiene 40 tantos (se juega a 40)."


def test_envites_after_an_accepted_ordago() -> None:
    record = parse_record(
        {"hands": S1, "lances": {"grande": ["A:ordago", "B:quiero"], "pares": ["B:envido", "A:quiero"]}}
    )
    check = check_record(record)
    assert [(f.code, f.lance) for f in check.findings] == [("lance_tras_ordago", Lance.PARES)]
    assert check.tanteo is None and not check.valid


def test_a_wrong_game_winner_is_reported() -> None:
    record = parse_record(
        {"hands": S1, "lances": {"grande": ["A:ordago", "B:quiero"]}, "claimed": {"game_winner": "B"}}
    )
    findings = validate(record)
    assert codes(findings) == ["ganador_incorrecto"]
    assert findings[0].message == "Se anotó que la pareja B ganó el juego y lo ganó la pareja A."


def test_an_ordago_annulled_by_jugada_minima_is_a_note_not_an_error_amm_3_12_a() -> None:
    record = parse_record(
        {
            "hands": ["12o 12c 5o 4o", "11o 10o 6o 4c", "7o 6c 5c 3e", "1o 2c 7c 6e"],
            "lances": {"pares": ["A:ordago", "B:quiero"]},
        }
    )
    check = check_record(record)
    assert check.valid
    assert [(f.code, f.severity) for f in check.findings] == [("ordago_anulado", Severity.AVISO)]


def test_finding_json_omits_what_does_not_apply() -> None:
    finding = Finding("x", "AMM 1.2", "Mensaje.")
    assert finding_to_json(finding) == {
        "code": "x",
        "article": "AMM 1.2",
        "severity": "error",
        "message": "Mensaje.",
    }


# --- a juego ---------------------------------------------------------------------------------


def paso_hand(score: dict[str, int]) -> dict[str, Any]:
    """S1 en paso from ``score``: mano's pair A +1, B +5."""
    return {"hands": S1, "score": score}


def test_a_juego_is_replayed_with_mano_alternating_amm_2_8() -> None:
    # S1 en paso gives mano's pair 1 and the other 5. In the first hand's frame mano's pair
    # alternates, so every two hands add 6 and 6: (1, 5), (6, 6), (7, 11) … (36, 36) after hand
    # 11. In hand 12 A is mano again: grande A 37, chica B 37, pares B 40: B wins, punto unplayed.
    game = Score(0, 0)
    records = []
    for index in range(13):
        own = game if index % 2 == 0 else game.swapped()
        records.append(parse_record(paso_hand({"A": own.a, "B": own.b})))
        game = Score(game.a + 1, game.b + 5) if index % 2 == 0 else Score(game.a + 5, game.b + 1)
    records.append(parse_record(paso_hand({"A": 40, "B": 37})))  # hand 13, B is mano: 37–40 swapped
    replay = replay_game(records)
    assert replay.scores[:3] == (Score(1, 5), Score(6, 6), Score(7, 11))
    assert replay.scores[11] == Score(36, 36)
    assert replay.scores[12] == Score(37, 40)
    assert replay.winner is Pair.B
    # Hand 13 was recorded after the end (and, from 40 tantos, cannot be counted).
    assert sorted((f.hand, f.code) for f in replay.findings) == [
        (13, "mano_tras_fin_de_juego"),
        (13, "marcador_imposible"),
    ]


def test_the_score_before_a_hand_must_follow_the_previous_one() -> None:
    replay = replay_game([parse_record(paso_hand({"A": 0, "B": 0})), parse_record(paso_hand({"A": 1, "B": 5}))])
    assert [(f.code, f.hand) for f in replay.findings] == [("marcador_previo_incorrecto", 1)]
    good = replay_game([parse_record(paso_hand({"A": 0, "B": 0})), parse_record(paso_hand({"A": 5, "B": 1}))])
    assert good.valid and good.findings == ()


def test_explicit_mano_pairs_override_the_alternation() -> None:
    records = [parse_record(paso_hand({"A": 0, "B": 0})), parse_record(paso_hand({"A": 1, "B": 5}))]
    replay = replay_game(records, [Pair.A, Pair.A])  # AMM 2.8: noticed after grande, the hand stands
    assert replay.valid
    assert replay.scores == (Score(1, 5), Score(2, 10))
    with pytest.raises(ValueError, match="una pareja mano por cada mano"):
        replay_game(records, [Pair.A])


def test_the_same_pair_mano_twice_running_is_an_aviso_amm_2_8() -> None:
    """AMM 2.8 (MANO 2 VECES): «Si una pareja fuera mano dos veces seguidas se anulará la jugada salvo
    que se haya cerrado el lance de Grande, en cuyo caso se seguirá ya normalmente.» A recorded hand
    was played past grande; whether someone noticed before is the jueces' to know: an aviso."""
    records = [parse_record(paso_hand({"A": 0, "B": 0})), parse_record(paso_hand({"A": 1, "B": 5}))]
    records.append(parse_record(paso_hand({"A": 10, "B": 2})))
    replay = replay_game(records, [Pair.A, Pair.A, Pair.B])
    assert [(f.code, f.article, f.severity, f.hand) for f in replay.findings] == [
        ("mano_repetida", "AMM 2.8", Severity.AVISO, 1)
    ]
    assert "se anulará la jugada salvo que se haya cerrado el lance de Grande" in replay.findings[0].message
    assert replay.valid and replay.scores == (Score(1, 5), Score(2, 10), Score(7, 11))  # every hand counts
    assert replay_game(records[:1] + records[1:2], [Pair.B, Pair.B]).findings[0].code == "mano_repetida"
    assert replay_game([records[0], parse_record(paso_hand({"A": 5, "B": 1}))]).findings == ()


def test_a_hand_that_cannot_be_counted_passes_on_its_claimed_score() -> None:
    broken = {
        "hands": S1,
        "declarations": [{"pares": False}, {}, {}, {}],
        "claimed": {"score": {"A": 3, "B": 5}},
    }
    replay = replay_game([parse_record(broken), parse_record(paso_hand({"A": 5, "B": 3}))])
    # Hand 2 (A 5 – B 3 in its own frame) ends at A 6 – B 8, i.e. A 8 – B 6 in the first frame.
    assert replay.scores == (Score(3, 5), Score(8, 6))
    assert {f.code for f in replay.findings} == {"declaracion_falsa", "tanteo_no_comprobado"}
    assert all(f.hand == 0 for f in replay.findings)
