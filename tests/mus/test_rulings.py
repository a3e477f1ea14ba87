"""Chapter IV rulings: the engine applies the effects of errors the way the reglamento says."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.mus import RecordedHand, format_hand, showdown, tanteo
from scoring.mus.__main__ import COMMANDS, process
from scoring.mus.rulings import JuezFacts, rule

from .strategies import deals, hand_bets, scores


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_hand_without_errors_is_ruled_as_its_tanteo(data: st.DataObject) -> None:
    hands = data.draw(deals())
    result = showdown(hands)
    bets = data.draw(hand_bets(result))
    before = data.draw(scores())
    expected = tanteo(hands, bets, before)
    record = RecordedHand(hands=tuple(format_hand(hand) for hand in hands), score=before, bets=bets)
    ruling = rule(record, JuezFacts())
    assert ruling.score == expected.score
    assert ruling.game_winner == expected.game_winner
    assert [(e.lance, e.pair, e.points, e.kind) for e in ruling.events] == [
        (e.lance, e.pair, e.points, e.kind) for e in expected.events
    ]
    assert not ruling.errors


DATA = Path(__file__).parent / "data"
CASES = [json.loads(line) for line in (DATA / "chapter4_cases.jsonl").read_text().splitlines() if line.strip()]


def _answer(case: dict[str, Any]) -> dict[str, Any]:
    out = io.StringIO()
    process(COMMANDS[case["command"]], [json.dumps(case["input"])], out)
    answer: dict[str, Any] = json.loads(out.getvalue())
    return answer


def _events(answer: dict[str, Any]) -> list[list[Any]]:
    return [
        [e["lance"], e["pair"], e["points"], e["kind"]] + ([e["article"]] if "article" in e else [])
        for e in answer["events"]
    ]


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_worked_cases_of_chapters_4_and_7_amm_4_2(case: dict[str, Any]) -> None:
    answer = _answer(case)
    expected = case["expected"]
    if "error" in expected:
        assert expected["error"] in answer.get("error", ""), answer
        return
    assert "error" not in answer, answer["error"]
    for key, value in expected.items():
        got = _events(answer) if key == "events" else answer[key]
        assert got == value, f"{case['id']} {key}: {got!r} != {value!r}\n" + "\n".join(answer.get("explanation", []))
    if case["command"] == "ruling" and answer["articles"]:
        assert all(any(article in sentence for article in answer["articles"]) for sentence in answer["explanation"])


def test_worked_cases_cover_every_article_with_its_exception() -> None:
    required = [
        *("4.1a", "4.1b", "4.1c", "4.1d", "4.2.a", "4.2.b", "4.2.c", "4.2.d", "4.2.e", "4.2.f", "4.2.g"),
        *("4.3", "4.4.a", "4.4.b", "4.4.c", "3.12.a", "3.12.b", "3.20.a", "3.20.b", "3.20.c", "2.7.a", "2.7.b"),
        *("2.8", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6"),
    ]
    sides: dict[str, set[str]] = {}
    for case in CASES:
        for article, side in case["shows"].items():
            sides.setdefault(article, set()).add(side)
            assert case["quote"], case["id"]
    # An article with an exception in its text shows it; one without shows a contrast: a case
    # next to the rule where the effect does not come, or comes the same way in other facts.
    missing = [
        article
        for article in required
        if "regla" not in sides.get(article, set()) or not sides[article] & {"excepcion", "contraste"}
    ]
    assert not missing
    assert len(CASES) >= 60


D2 = ["12o 12c 7e 4b", "11o 11c 5e 6b", "7o 7c 1e 5c", "10o 6e 4c 1b"]


def _rule(**extra: Any) -> dict[str, Any]:
    out = io.StringIO()
    process(COMMANDS["ruling"], [json.dumps({"hands": D2, **extra})], out)
    answer: dict[str, Any] = json.loads(out.getvalue())
    return answer


@pytest.mark.parametrize(
    ("sena", "article"),
    [
        ({"first_hand_before_cut": True}, "7.2"),
        ({"during_deal": True}, "7.3"),
        ({"asking": True}, "7.5"),
    ],
)
def test_a_sena_out_of_time_or_asking_is_no_error_but_a_sanction_amm_7_2_7_3_7_5(
    sena: dict[str, Any], article: str
) -> None:
    answer = _rule(senas=[{"seat": 3, "sena": "dos reyes", **sena}])
    assert answer["errors"] == []
    assert answer["sanctions"] == [{"seat": 3, "article": article}]
    assert answer["score"] == {"A": 6, "B": 1}  # counted as played
    assert article in answer["articles"]


def test_a_false_sena_cites_4_1a_and_its_chapter_vii_article_amm_4_1a() -> None:
    answer = _rule(senas=[{"seat": 0, "sena": "duples"}])
    (error,) = answer["errors"]
    assert (error["seat"], error["kind"], error["article"], error["lance"]) == (0, "sena", "4.1a", "pares")
    assert "7.1" in answer["articles"] and "duples" in error["message"]


def test_an_accepted_ordago_that_stands_ends_the_hand_before_any_count_amm_4_2_d() -> None:
    answer = _rule(
        score={"A": 30, "B": 35},
        declarations=[{"pares": True}, {"pares": True}, {"pares": True}, {"pares": True}],
        lances={"grande": ["A:envido 2", "B:no quiero"], "pares": ["A:paso", "B:ordago", "A:quiero"]},
    )
    assert answer["game_winner"] == "A"
    assert answer["score"] == {"A": 31, "B": 35}  # the grande negada before it; no count


def test_cards_shown_in_answer_to_an_ordago_accept_it_amm_3_4_a() -> None:
    """3.4.a «Si algún jugador enseñara sus cartas en respuesta a un órdago, se considerará que se
    acepta, excepto casos manifiestamente claros (ver v5.2 ABUSO DE REGLAMENTO)»."""
    hand = {
        "score": {"A": 10, "B": 12},
        "lances": {"grande": ["A:paso", "B:ordago"]},
    }
    shown = _rule(**hand, showed_cards=[{"seat": 1, "lance": "grande"}])  # B's own: no órdago of the other pair
    assert "showed_cards" in shown.get("error", "") and "3.4.a" in shown["error"]
    accepted = _rule(**hand, showed_cards=[{"seat": 0, "lance": "grande"}])
    assert "error" not in accepted, accepted
    assert accepted["game_winner"] == "A" and "3.4.a" in accepted["articles"]  # A's reyes win the grande
    assert any("se considera que la pareja A lo acepta" in s for s in accepted["explanation"])
    clear = _rule(**hand, showed_cards=[{"seat": 2, "lance": "grande", "clear": True}])
    assert clear.get("game_winner") is None and "5.2" in clear.get("articles", []), clear


def test_an_ordago_already_answered_keeps_its_answer_when_cards_are_shown_amm_3_4_a() -> None:
    answer = _rule(
        score={"A": 10, "B": 12},
        lances={"grande": ["A:paso", "B:ordago", "A:no quiero"]},
        showed_cards=[{"seat": 0, "lance": "grande"}],
    )
    assert "error" not in answer, answer
    assert answer["game_winner"] is None and any("vale lo que se dijo" in s for s in answer["explanation"])


def test_showing_to_be_out_renounces_the_earlier_lances_and_wins_when_right_amm_3_4_b() -> None:
    """3.4.b: «Los lances anteriores al evidente que no se hayan jugado ni mencionado, se
    sobreentiende que renuncia la pareja que enseña y los contrarios se apuntan las negadas que
    procedan (en pares sólo si lleva alguno de cada pareja)»; A at 38 with juego 31 is out."""
    answer = _rule(score={"A": 38, "B": 10}, showed_out={"seat": 0, "lance": "juego"})
    assert "error" not in answer, answer
    assert answer["game_winner"] == "A" and "3.4.b" in answer["articles"]
    dejes = [(e["lance"], e["pair"]) for e in answer["events"] if e["kind"] == "deje"]
    assert dejes == [("grande", "B"), ("chica", "B"), ("pares", "B")]  # both pairs hold pares
    assert any("sí estaba fuera" in s for s in answer["explanation"])


def test_a_wrong_appreciation_loses_the_later_lances_not_played_amm_3_4_b() -> None:
    """3.4.b: «En caso de ser errónea la apreciación de estar fuera, los lances posteriores al
    evidente no jugados ni mencionados los perderá la pareja que enseñó, de modo similar a 4.2.c»."""
    answer = _rule(score={"A": 30, "B": 10}, showed_out={"seat": 0, "lance": "pares"})
    assert "error" not in answer, answer
    assert answer["game_winner"] is None
    juego = [e for e in answer["events"] if e["lance"] == "juego"]
    assert [(e["pair"], e["kind"]) for e in juego] == [("B", "paso")]  # A's 31 lost: B's juego counts
    assert any("no estaba fuera" in s for s in answer["explanation"])
    assert not any(s.startswith("Sin errores") for s in answer["explanation"])


def test_the_rivals_better_jugada_takes_the_bet_they_make_amm_3_4_b() -> None:
    """3.4.b: «si al lance evidente los contrarios tuvieran una jugada mayor, el gesto de haber
    enseñado implica la aceptación del envite u órdago que quieran echar los contrarios»; «En ningún
    caso se podrá dar por hecho un envite u órdago que no haya sido explícitamente mencionado»."""
    ordago = _rule(score={"A": 10, "B": 36}, showed_out={"seat": 1, "lance": "juego", "rival_bet": "ordago"})
    assert ordago["game_winner"] == "A"  # mano's 31 beats seat 1's 31
    assert [e["kind"] for e in ordago["events"] if e["lance"] == "juego"] == ["ordago"]
    none = _rule(score={"A": 10, "B": 36}, showed_out={"seat": 1, "lance": "juego"})
    assert [e["kind"] for e in none["events"] if e["lance"] == "juego"] == ["paso"]  # no bet assumed


def test_the_rivals_may_choose_to_go_on_and_renounce_the_penalties_amm_3_4_b() -> None:
    """3.4.b: «Si la pareja contraria no ha enseñado sus cartas podrá escoger que el juego continúe,
    en cuyo caso renuncia a que se apliquen las anteriores penalizaciones»."""
    hand = {"score": {"A": 10, "B": 36}}
    plain = _rule(**hand)
    went_on = _rule(**hand, showed_out={"seat": 1, "lance": "juego", "continued": True})
    assert went_on["score"] == plain["score"] and went_on["events"] == plain["events"]
    assert "3.4.b" in went_on["articles"]
    bad = _rule(**hand, showed_out={"seat": 1, "lance": "juego", "rival_bet": 1})
    assert "showed_out.rival_bet" in bad["error"]


def test_a_singular_quiero_and_no_quiero_at_once_the_quiero_stands_amm_3_10_a() -> None:
    """3.10.a: «tendrá prioridad siempre el envite/órdago frente al quiero y el quiero frente al
    no quiero»: the pair's recorded «no quiero» gives way to the «quiero» said at the same time."""
    hand = {"score": {"A": 10, "B": 12}, "lances": {"grande": ["A:envido 5", "B:no quiero"]}}
    plain = _rule(**hand)
    both = _rule(**hand, simultaneous=[{"lance": "grande", "pair": "B", "said": ["no quiero", "quiero"]}])
    assert "error" not in both, both
    assert "3.10.a" in both["articles"]
    grande = [(e["pair"], e["kind"], e["points"]) for e in both["events"] if e["lance"] == "grande"]
    assert grande == [("A", "envite", 5)]  # querido: A's reyes win the 5
    assert [e["kind"] for e in plain["events"] if e["lance"] == "grande"] == ["deje"]
    raised = _rule(
        score={"A": 10, "B": 12},
        lances={"grande": ["A:envido 2", "B:quiero"], "chica": ["A:paso", "B:paso"]},
        simultaneous=[{"lance": "grande", "pair": "B", "said": ["quiero", "ordago"]}],
    )
    assert "error" in raised  # the órdago stands, and nobody answered it in the recorded hand
    assert "sin respuesta" in raised["error"]


def test_two_envites_at_once_or_a_plural_answer_the_other_pair_chooses_amm_3_10_and_3_10_b() -> None:
    """3.10: two envites at once, «la pareja contraria tiene la opción de elegir»; 3.10.b a
    «queremos / no queremos»: «eligen los contrarios»."""
    hand = {"score": {"A": 10, "B": 12}, "lances": {"grande": ["A:envido 5", "B:no quiero"]}}
    unchosen = _rule(
        **hand, simultaneous=[{"lance": "grande", "pair": "B", "said": ["quiero", "no quiero"], "plural": True}]
    )
    assert "chosen" in unchosen["error"] and "3.10.b" in unchosen["error"]
    chosen = _rule(
        **hand,
        simultaneous=[{"lance": "grande", "pair": "B", "said": ["quiero", "no quiero"], "plural": True, "chosen": 1}],
    )
    assert "3.10.b" in chosen["articles"]
    assert [e["kind"] for e in chosen["events"] if e["lance"] == "grande"] == ["deje"]  # A chose the no quiero
