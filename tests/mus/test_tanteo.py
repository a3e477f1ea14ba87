"""Tanteo: dejes as they happen, the count in order, the target, the órdago."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.mus import (
    AMM,
    Bet,
    EventKind,
    IllegalBetError,
    InvalidScoreError,
    Lance,
    MusError,
    Pair,
    Score,
    get_rules,
    parse_bets,
    parse_deal,
    showdown,
    tanteo,
    tanteo_to_json,
)
from scoring.mus.jsonio import read_lances, read_score

from .strategies import Deal, deal, deals, hand_bets, scores

DATA = Path(__file__).parent / "data"
TANTEO_CASES = [json.loads(line) for line in (DATA / "tanteo.jsonl").read_text().splitlines() if line]

S1 = deal("12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c")
S4 = deal("12o 11o 10o 7o", "12c 11c 10c 3c", "12e 11e 6e 6b", "12b 10b 10e 1b")


def bets(**lances: list[str]) -> dict[Lance, tuple[Bet, ...]]:
    return {Lance.parse(name): parse_bets(texts) for name, texts in lances.items()}


@pytest.mark.parametrize("case", TANTEO_CASES, ids=[case["why"][:40] for case in TANTEO_CASES])
def test_hand_checked_tanteos(case: dict[str, Any]) -> None:
    data = case["input"]
    rules = get_rules(data.get("rules"))
    hands = parse_deal(data["hands"], rules.deck)
    if "error" in case["expected"]:
        with pytest.raises(MusError, match=case["expected"]["error"]):
            tanteo(hands, read_lances(data.get("lances")), read_score(data.get("score")), rules)
        return
    result = tanteo(hands, read_lances(data.get("lances")), read_score(data.get("score")), rules)
    assert tanteo_to_json(result) == case["expected"], case["why"]


def test_dejes_are_scored_at_once_before_the_count_amm_3_13() -> None:
    result = tanteo(S1, bets(chica=["B:envido", "A:no quiero"]), Score(39, 39))
    assert [(e.lance, e.pair, e.points, e.kind) for e in result.events] == [(Lance.CHICA, Pair.B, 1, EventKind.DEJE)]
    assert result.game_winner is Pair.B


def test_the_count_goes_grande_chica_pares_punto_and_stops_at_the_target_amm_3_13() -> None:
    result = tanteo(S1, {}, Score(38, 37))
    assert [e.lance for e in result.events] == [Lance.GRANDE, Lance.CHICA, Lance.PARES]
    assert (result.score, result.game_winner) == (Score(39, 41), Pair.B)


def test_an_accepted_ordago_ends_the_juego_for_the_lance_winner_seed_000() -> None:
    result = tanteo(S1, bets(grande=["B:ordago", "A:quiero"]))
    assert result.game_winner is Pair.A  # mano's R R 5 A wins grande
    assert [(e.kind, e.points) for e in result.events] == [(EventKind.ORDAGO, 0)]
    assert [outcome.lance for outcome in result.lances] == [Lance.GRANDE]


def test_no_envites_after_an_accepted_ordago_seed_000() -> None:
    with pytest.raises(IllegalBetError, match="terminó con el órdago aceptado a grande") as raised:
        tanteo(S1, bets(grande=["B:ordago", "A:quiero"], chica=["A:envido", "B:quiero"]))
    assert raised.value.code == "lance_tras_ordago"
    # Passes written after it are harmless.
    assert tanteo(S1, bets(grande=["B:ordago", "A:quiero"], chica=["A:paso"])).game_winner is Pair.A


def test_a_juego_already_won_before_an_ordago_stays_won() -> None:
    result = tanteo(S1, bets(grande=["A:envido", "B:no quiero"], pares=["A:ordago", "B:quiero"]), Score(39, 0))
    assert result.game_winner is Pair.A
    assert [e.kind for e in result.events] == [EventKind.DEJE]


def test_con_deje_in_juego_the_bettor_scores_its_juego_amm_1_7_c() -> None:
    result = tanteo(S4, bets(juego=["A:envido", "B:no quiero"]))
    # A's deje at once, then at the count A's juego (37 and 32: 2 + 2) although B's is better.
    assert result.points(Lance.JUEGO) == Score(1 + 4, 0)


def test_sin_deje_in_juego_the_best_juego_scores_seed_000_cataluna() -> None:
    result = tanteo(S4, bets(juego=["A:envido", "B:no quiero"]), rules=get_rules("cataluna"))
    assert result.points(Lance.JUEGO) == Score(1, 2 + 3)


def test_ehmt_a_declined_envite_leaves_pares_and_juego_to_the_best_jugada_seed_002_art_16() -> None:
    """Seed 002 (EHMT) art. 8: «Apustua ez hartzeko kasuan, apustua egin duen bikoteak tanto bat jasoko
    luke» (declined: the bettor's pair takes one tanto); art. 16 pares: «ii. Apusturik izan bada,
    aurrekoaz gain apustuan jarritako tantoak ere jasoko dira» — on top of «i.», the pares of
    «parerik onenak dituen bikotea»; juego «Pareetan bezala… Bikote irabazleak bakarrik kontatuko
    ditu tantoak»; punto «ii. Apustua egin eta utzi bada, egin duenak jasoko du tantoa»."""
    ehmt = get_rules("ehmt")
    declined = ["A:envido", "B:no quiero"]
    # S1: B's duples beat A's two parejas; A's deje, then B's duples (3). AMM, con deje: A 1 + 2.
    assert tanteo(S1, bets(pares=declined), rules=ehmt).points(Lance.PARES) == Score(1, 3)
    assert tanteo(S1, bets(pares=declined)).points(Lance.PARES) == Score(1 + 2, 0)
    # S4: postre's 31 wins juego; A's deje, then B's juegos (40: 2, 31: 3).
    assert tanteo(S4, bets(juego=declined), rules=ehmt).points(Lance.JUEGO) == Score(1, 2 + 3)
    # S1 punto (B's 28 is best): declined, A takes the deje and the punto's tanto.
    assert tanteo(S1, bets(punto=declined), rules=ehmt).points(Lance.PUNTO) == Score(1 + 1, 0)


def test_pares_held_by_one_pair_are_scored_without_betting() -> None:
    hands = deal("12o 11o 7o 1o", "4c 4e 4b 5o", "12c 11c 7c 1c", "6o 6c 5c 1e")
    assert tanteo(hands).points(Lance.PARES) == Score(0, 3)
    with pytest.raises(IllegalBetError) as raised:
        tanteo(hands, bets(pares=["B:envido", "A:quiero"]))
    assert raised.value.code == "envite_sin_contrario"


def test_the_target_comes_from_the_rule_set_gipuzkoa_30_seed_000() -> None:
    result = tanteo(S1, {}, Score(0, 26), get_rules("gipuzkoa"))
    assert result.game_winner is Pair.B  # 26 + chica 1 + pares 3 = 30


@pytest.mark.parametrize(("score", "message"), [(Score(-1, 0), "no puede tener -1"), (Score(12, 40), "ya terminó")])
def test_impossible_scores_are_rejected(score: Score, message: str) -> None:
    with pytest.raises(InvalidScoreError, match=message):
        tanteo(S1, {}, score)


def test_the_fourth_lance_must_be_the_one_played() -> None:
    with pytest.raises(IllegalBetError, match="hay juego: el cuarto lance es el juego"):
        tanteo(S4, bets(punto=["A:envido", "B:quiero"]))


# --- properties ------------------------------------------------------------------------------


@st.composite
def hands_with_bets(draw: st.DrawFn) -> tuple[Deal, dict[Lance, tuple[Bet, ...]], Score]:
    hands = draw(deals())
    return hands, draw(hand_bets(showdown(hands))), draw(scores())


@settings(max_examples=400)
@given(hands_with_bets())
def test_the_sum_of_events_equals_the_score_change(
    case: tuple[Deal, dict[Lance, tuple[Bet, ...]], Score],
) -> None:
    hands, lance_bets, before = case
    result = tanteo(hands, lance_bets, before)
    gained = [0, 0]
    for event in result.events:
        gained[event.pair] += event.points
    assert Score(before.a + gained[0], before.b + gained[1]) == result.score


@settings(max_examples=400)
@given(hands_with_bets())
def test_events_come_dejes_first_then_the_count_in_order_and_stop_at_the_target(
    case: tuple[Deal, dict[Lance, tuple[Bet, ...]], Score],
) -> None:
    hands, lance_bets, before = case
    result = tanteo(hands, lance_bets, before)
    kinds = [event.kind for event in result.events]
    dejes = [event for event in result.events if event.kind is EventKind.DEJE]
    assert result.events[: len(dejes)] == tuple(dejes)  # every deje before any count event
    assert [e.lance for e in dejes] == sorted(e.lance for e in dejes)
    counted = [e.lance for e in result.events[len(dejes) :] if e.kind is not EventKind.ORDAGO]
    assert counted == sorted(counted)
    assert all(event.points > 0 for event in result.events if event.kind is not EventKind.ORDAGO)
    reached = result.score.leader(AMM.target)
    if EventKind.ORDAGO in kinds:
        assert result.events[-1].kind is EventKind.ORDAGO and result.game_winner is result.events[-1].pair
    else:
        assert result.game_winner is reached
    if result.game_winner is not None and EventKind.ORDAGO not in kinds:
        # Only the last event reached the target.
        before_last = result.score.add(result.events[-1].pair, -result.events[-1].points)
        assert before_last.leader(AMM.target) is None


@given(deals())
def test_a_hand_en_paso_scores_the_showdowns_paso_points(hands: Deal) -> None:
    assert tanteo(hands).score == showdown(hands).paso
