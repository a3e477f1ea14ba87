"""Evaluation: lance winners, per-player facts and paso points, hand-checked and by property."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.mus import (
    AMM,
    CardCountError,
    Hand,
    Lance,
    Pares,
    Real31,
    RuleSet,
    Showdown,
    distinct_hands,
    evaluate,
    get_rules,
    jugada_maxima,
    jugada_minima,
    parse_deal,
    showdown,
    showdown_to_json,
)
from scoring.mus.cards import Card

from .oracle import oracle_showdown
from .strategies import Deal, deal, deals, suit_shuffles

DATA = Path(__file__).parent / "data"
SHOWDOWN_CASES = [json.loads(line) for line in (DATA / "showdown.jsonl").read_text().splitlines() if line]

# Fillers that hold nothing in the lance under test, so two hands meet alone. The engine
# compares any four hands (it does not check the deal), which is what a duel needs.
NO_PARES = "12o 7o 5o 1o"
NO_JUEGO = "1o 4o 5o 6o"  # 16; also no pares


def duel(lance: Lance, first: str, second: str, rules: RuleSet = AMM, filler: str = NO_JUEGO) -> int | None:
    """Who wins ``lance`` between seat 0 (``first``) and seat 1 (``second``)."""
    hands = [Hand.parse(text) for text in (first, second, filler, filler)]
    return showdown(hands, rules).winner(lance, among=(0, 1))


def both_ways(lance: Lance, better: str, worse: str, rules: RuleSet = AMM, filler: str = NO_JUEGO) -> None:
    """``better`` wins from either seat, so the result is not a tie-break."""
    assert duel(lance, better, worse, rules, filler) == 0
    assert duel(lance, worse, better, rules, filler) == 1


@pytest.mark.parametrize("case", SHOWDOWN_CASES, ids=[case["why"][:3] for case in SHOWDOWN_CASES])
def test_hand_checked_showdowns(case: dict[str, Any]) -> None:
    rules = get_rules(case["input"].get("rules"))
    result = showdown(parse_deal(case["input"]["hands"], rules.deck), rules)
    assert showdown_to_json(result) == case["expected"], case["why"]


class TestCardOrderAndValue:
    def test_tres_is_a_rey_and_dos_an_as_for_rank_and_value_amm_1_2(self) -> None:
        facts = evaluate(Hand.parse("3o 3c 2o 2c"))
        assert facts.pares is Pares.DUPLES and facts.total == 22  # rey rey as as: 10+10+1+1
        assert duel(Lance.GRANDE, "3o 1o 4o 5o", "12c 1c 4c 5c") == 0  # tie: mano
        assert duel(Lance.CHICA, "2o 12o 11o 10o", "1c 12c 11c 10c") == 0  # tie: mano
        both_ways(Lance.GRANDE, "3o 4o 4c 4e", "11o 11c 11e 10o")

    def test_with_4_reyes_treses_and_doses_keep_their_place_and_value_seed_000(self) -> None:
        navarra = get_rules("navarra")
        facts = evaluate(Hand.parse("3o 3c 2o 2c"), navarra)
        assert facts.pares is Pares.DUPLES and facts.total == 10
        both_ways(Lance.GRANDE, "4o 1o 1c 1e", "3o 2o 2c 2e", navarra)  # 4 > 3
        both_ways(Lance.CHICA, "1o 2o 12o 12c", "2c 3c 12e 12b", navarra)  # as < dos
        both_ways(Lance.CHICA, "2c 4c 12e 12b", "3o 4o 12o 12c", navarra)  # dos < tres

    def test_order_is_rey_caballo_sota_7_6_5_4_as(self) -> None:
        ladder = ["12", "11", "10", "7", "6", "5", "4", "1"]
        for high, low in itertools.pairwise(ladder):
            both_ways(Lance.GRANDE, f"{high}o 1c 1e 1b", f"{low}o 1c 1e 1b")
            both_ways(Lance.CHICA, f"{low}o 12c 12e 12b", f"{high}o 12c 12e 12b")

    def test_grande_compares_sorted_high_to_low_first_difference_wins(self) -> None:
        both_ways(Lance.GRANDE, "12o 12c 1o 1c", "12e 11o 11c 11e")
        both_ways(Lance.GRANDE, "12o 11o 10o 5o", "12c 11c 10c 4c")

    def test_chica_compares_sorted_low_to_high_lower_first_difference_wins(self) -> None:
        both_ways(Lance.CHICA, "1o 1c 12o 12c", "1e 4o 4c 4e")
        both_ways(Lance.CHICA, "1o 4o 6o 7o", "1c 4c 7c 7e")


class TestPares:
    @pytest.mark.parametrize(
        ("text", "kind", "value", "name"),
        [
            ("12o 12c 12e 12b", Pares.DUPLES, 3, "duples de cuatro reyes"),
            ("12o 12c 3e 3b", Pares.DUPLES, 3, "duples de cuatro reyes"),
            ("7o 7c 5o 5c", Pares.DUPLES, 3, "duples de sietes y cincos"),
            ("10o 10c 10e 4b", Pares.MEDIAS, 2, "medias de sotas"),
            ("1o 2c 1e 6b", Pares.MEDIAS, 2, "medias de ases"),
            ("6o 6c 5e 4b", Pares.PAREJA, 1, "pareja de seises"),
            ("12o 11c 10e 7b", None, 0, None),
        ],
    )
    def test_kinds_and_values_seed_003(self, text: str, kind: Pares | None, value: int, name: str | None) -> None:
        facts = evaluate(Hand.parse(text))
        assert (facts.pares, facts.pares_value, facts.pares_name) == (kind, value, name)

    def test_duples_beat_medias_beat_pareja(self) -> None:
        both_ways(Lance.PARES, "1o 1c 4o 4c", "12o 12c 12e 11o", filler=NO_PARES)
        both_ways(Lance.PARES, "4o 4c 4e 5o", "12o 12c 11o 10o", filler=NO_PARES)

    def test_four_reyes_beat_rey_rey_caballo_caballo(self) -> None:
        both_ways(Lance.PARES, "12o 12c 3o 3c", "12e 12b 11o 11c", filler=NO_PARES)

    def test_rey_rey_siete_siete_beats_four_sotas_seed_001(self) -> None:
        both_ways(Lance.PARES, "12o 12c 7o 7c", "10o 10c 10e 10b", filler=NO_PARES)

    def test_duples_with_the_same_higher_pair_go_to_the_higher_lower_pair_seed_002_art_11(self) -> None:
        both_ways(Lance.PARES, "12o 12c 5o 5c", "12e 12b 4o 4c", filler=NO_PARES)

    def test_medias_and_parejas_compare_their_rank_only(self) -> None:
        both_ways(Lance.PARES, "5o 5c 5e 1o", "4o 4c 4e 12o", filler=NO_PARES)
        both_ways(Lance.PARES, "7o 7c 1o 4o", "6o 6c 12o 11o", filler=NO_PARES)
        # Same pareja, different kickers: a tie, which goes to mano from either seat.
        assert duel(Lance.PARES, "7o 7c 1o 4o", "7e 7b 12o 11o", filler=NO_PARES) == 0
        assert duel(Lance.PARES, "7e 7b 12o 11o", "7o 7c 1o 4o", filler=NO_PARES) == 0

    def test_nobody_with_pares_means_no_pares_winner(self) -> None:
        result = showdown(deal("12o 11o 7o 1o", "12c 11c 7c 1c", "12e 11e 7e 1e", "12b 11b 7b 1b"))
        assert result.pares is None
        assert result.holders(Lance.PARES) == (False, False)


class TestJuegoAndPunto:
    ORDER = [
        ("31", "12o 11o 10o 1o"),
        ("32", "12o 11o 6o 6c"),
        ("40", "12o 11o 10o 3o"),
        ("37", "12o 11o 10o 7o"),
        ("36", "12o 11o 10o 6o"),
        ("35", "12o 11o 10o 5o"),
        ("34", "12o 11o 10o 4o"),
        ("33", "12o 11o 7o 6o"),
    ]

    def test_juego_order_is_31_32_40_37_36_35_34_33_seed_000(self) -> None:
        for index, (total, better) in enumerate(self.ORDER):
            assert evaluate(Hand.parse(better)).juego == int(total)
            for _, worse in self.ORDER[index + 1 :]:
                both_ways(Lance.JUEGO, better, worse)

    def test_juego_values_are_3_for_31_and_2_otherwise_seed_003(self) -> None:
        assert [evaluate(Hand.parse(text)).juego_value for _, text in self.ORDER] == [3, 2, 2, 2, 2, 2, 2, 2]
        assert evaluate(Hand.parse(NO_JUEGO)).juego_value == 0

    def test_31_against_31_goes_to_mano_without_real_amm_1_7_b(self) -> None:
        assert duel(Lance.JUEGO, "7c 7e 7b 10c", "12o 11o 10o 1o") == 0
        assert duel(Lance.JUEGO, "12o 11o 10o 1o", "7c 7e 7b 10c") == 0

    @pytest.mark.parametrize(
        ("variant", "real"),
        [
            (Real31.ANY_FIGURE, "7c 7e 7b 11o"),
            (Real31.FIGURE_OR_THREE, "7c 7e 7b 3o"),
            (Real31.SOTA, "7c 7e 7b 10c"),
            (Real31.CABALLO, "7c 7e 7b 11c"),
            (Real31.DISTINCT_SUITS, "7c 7e 7b 12o"),
            (Real31.SOTA_DE_OROS, "7o 7e 7b 10o"),
            (Real31.SOTA_DE_OROS_DISTINCT_SUITS, "7c 7e 7b 10o"),
        ],
    )
    def test_31_real_beats_any_juego_even_31_of_mano_seed_000(self, variant: Real31, real: str) -> None:
        rules = dataclasses.replace(AMM, name="real", real_31=variant)
        both_ways(Lance.JUEGO, real, "12o 11o 10o 1c", rules)
        assert evaluate(Hand.parse(real), rules).real
        assert evaluate(Hand.parse(real), rules).juego_value == 3
        assert not evaluate(Hand.parse(real), AMM).real

    def test_suits_decide_the_real_only_where_the_variant_says_so(self) -> None:
        rules = dataclasses.replace(AMM, name="real", real_31=Real31.SOTA_DE_OROS)
        real = deal("12o 11o 10c 1o", "7c 7e 7b 10o", "5o 5c 4o 4c", "6o 6c 1c 1e")
        plain = deal("12o 11o 10o 1o", "7c 7e 7b 10c", "5o 5c 4o 4c", "6o 6c 1c 1e")
        assert showdown(real, rules).juego == 1
        assert showdown(plain, rules).juego == 0

    def test_punto_30_is_best_and_ties_go_to_mano(self) -> None:
        both_ways(Lance.PUNTO, "12o 10o 5o 5c", "11o 11c 5e 4o")
        assert duel(Lance.PUNTO, "12o 10o 5o 5c", "12c 7c 6c 7e") == 0
        assert duel(Lance.PUNTO, "12c 7c 6c 7e", "12o 10o 5o 5c") == 0

    def test_there_is_no_punto_when_anybody_holds_juego(self) -> None:
        result = showdown(deal("12o 11o 10o 1o", "4c 5c 6c 1c", "4e 5e 6e 1e", "4b 5b 6b 1b"))
        assert (result.juego, result.punto, result.fourth_lance) == (0, None, Lance.JUEGO)
        assert result.winner(Lance.PUNTO, among=(1, 2, 3)) is None


class TestPaso:
    def test_pares_held_by_one_pair_score_its_values_both_partners(self) -> None:
        # Only pair B holds pares: seat 1 medias (2), seat 3 pareja (1). Nobody has juego.
        result = showdown(deal("12o 11o 7o 1o", "4c 4e 4b 5o", "12c 11c 7c 1c", "6o 6c 5c 1e"))
        assert result.pares == 1
        assert result.holders(Lance.PARES) == (False, True)
        assert result.values(Lance.PARES) == (0, 3)
        # A: grande (R C 7 A, tie with seat 2: mano) + punto (28, tie: mano); B: chica + 2 + 1.
        assert result.paso == (2, 4)

    def test_values_refuse_lances_without_them(self) -> None:
        result = showdown(deal("12o 11o 7o 1o", "4c 4e 4b 5o", "12c 11c 7c 1c", "6o 6c 5c 1e"))
        with pytest.raises(ValueError, match="no tiene valor"):
            result.values(Lance.GRANDE)

    def test_showdown_needs_four_hands(self) -> None:
        with pytest.raises(CardCountError):
            showdown([Hand.parse("12o 11o 7o 1o")] * 3)


class TestJugadaMinimaYMaxima:
    def test_two_ases_at_postre_partner_without_pares_is_jugada_minima_amm_3_12(self) -> None:
        result = showdown(deal("12o 12c 5o 4o", "11o 10o 6o 4c", "7o 6c 5c 3e", "1o 2c 7c 6e"))
        assert jugada_minima(result, Lance.PARES)
        assert not jugada_minima(result, Lance.GRANDE)

    def test_two_ases_are_not_jugada_minima_when_the_partner_holds_pares_amm_3_12(self) -> None:
        result = showdown(deal("12o 12c 5o 4o", "11o 11c 6o 4c", "7o 6c 5c 3e", "1o 2c 7c 6e"))
        assert not jugada_minima(result, Lance.PARES)

    def test_33_at_postre_partner_without_juego_is_jugada_minima_amm_3_12(self) -> None:
        result = showdown(deal("12o 11o 10o 1o", "4c 5c 6c 1c", "4e 5e 6e 1e", "12b 11b 7b 6b"))
        assert jugada_minima(result, Lance.JUEGO)
        other = showdown(deal("12o 11o 10o 1o", "4c 5c 6c 1c", "4e 5e 6e 1e", "12b 11b 7b 7c"))
        assert not jugada_minima(other, Lance.JUEGO)

    def test_jugada_maxima_amm_4_1c(self) -> None:
        four_reyes = showdown(deal("12o 12c 3o 3c", "11o 11c 11e 11b", "1o 1c 2o 2c", "7o 7c 6o 6c"))
        assert jugada_maxima(four_reyes, 0, Lance.GRANDE)
        assert jugada_maxima(four_reyes, 0, Lance.PARES)
        assert not jugada_maxima(four_reyes, 1, Lance.GRANDE)  # only mano
        assert not jugada_maxima(four_reyes, 0, Lance.CHICA)
        four_ases = showdown(deal("1o 1c 2o 2c", "11o 11c 11e 11b", "12o 12c 3o 3c", "7o 7c 6o 6c"))
        assert jugada_maxima(four_ases, 0, Lance.CHICA)
        treintayuna = deal("12o 11o 10o 1o", "12c 11c 10c 5c", "4e 5e 6e 1e", "4b 5b 6b 1b")
        assert jugada_maxima(showdown(treintayuna), 0, Lance.JUEGO)
        # Where a 31 real counts, a plain 31 can lose to it: not máxima.
        cantabria = get_rules("cantabria")
        assert not jugada_maxima(showdown(treintayuna, cantabria), 0, Lance.JUEGO, cantabria)
        lone_juego = showdown(deal("12o 11o 10o 4o", "1c 4c 5c 6c", "12e 11e 10e 5e", "4b 5b 6b 1b"))
        assert jugada_maxima(lone_juego, 0, Lance.JUEGO)  # no opponent holds juego
        lone_pares = showdown(deal("4o 4c 5o 6o", "12o 11o 7o 1o", "12c 11c 7c 1c", "12e 11e 7e 1e"))
        assert jugada_maxima(lone_pares, 0, Lance.PARES)
        treinta = showdown(deal("12o 10o 5o 5c", "11o 11c 5e 4o", "12c 7c 6c 7e", "1o 1c 2o 4c"))
        assert jugada_maxima(treinta, 0, Lance.PUNTO)


def test_there_are_330_hands_under_8_reyes_and_715_under_4() -> None:
    assert distinct_hands(AMM) == 330
    assert distinct_hands(get_rules("navarra")) == 715


# --- properties ------------------------------------------------------------------------------

ORACLE_RULES = [
    AMM,
    get_rules("navarra"),
    get_rules("cantabria"),
    get_rules("cataluna"),
    dataclasses.replace(AMM, name="sota_de_oros", real_31=Real31.SOTA_DE_OROS),
    dataclasses.replace(AMM, name="palos", real_31=Real31.DISTINCT_SUITS),
]


def _summary(result: Showdown) -> dict[str, object]:
    return {
        "grande": result.grande,
        "chica": result.chica,
        "pares": result.pares,
        "juego": result.juego,
        "punto": result.punto,
        "paso": tuple(result.paso),
    }


@settings(max_examples=300)
@given(deals(), st.sampled_from(ORACLE_RULES))
def test_engine_agrees_with_a_plain_evaluator(hands: Deal, rules: RuleSet) -> None:
    assert _summary(showdown(hands, rules)) == oracle_showdown(list(hands), rules)


def _resuit(hands: Deal, shuffle: dict[int, dict[Any, Any]]) -> Deal:
    h0, h1, h2, h3 = (
        Hand(tuple(Card(card.number, shuffle[card.number][card.suit]) for card in hand.cards)) for hand in hands
    )
    return h0, h1, h2, h3


@given(deals(), suit_shuffles(), st.sampled_from([AMM, get_rules("navarra"), get_rules("cantabria")]))
def test_suits_never_change_an_outcome(hands: Deal, shuffle: dict[int, dict[Any, Any]], rules: RuleSet) -> None:
    resuited = _resuit(hands, shuffle)
    parse_deal([str(hand) for hand in resuited])  # still a real deal
    assert showdown(resuited, rules) == showdown(hands, rules)


@given(deals())
def test_paso_points_are_between_3_and_14(hands: Deal) -> None:
    # Grande and chica always score 1 each and the fourth lance always scores (punto 1, or a
    # juego ≥ 2): at least 3, more than the 2 of grande and chica alone. At most: 1 + 1 +
    # pares (two duples, 6) + juego (two 31, 6) = 14.
    paso = showdown(hands).paso
    assert paso.a >= 0 and paso.b >= 0
    assert 3 <= paso.a + paso.b <= 14


@given(deals())
def test_rotating_the_hands_changes_only_the_tie_breaks(hands: Deal) -> None:
    rotated = (hands[1], hands[2], hands[3], hands[0])
    before, after = showdown(hands), showdown(rotated)
    for lance in Lance:
        seat, seat_after = before.winner(lance), after.winner(lance)
        assert (seat is None) == (seat_after is None)
        if seat is None or seat_after is None:
            continue
        best = before.players[seat].key(lance)
        assert after.players[seat_after].key(lance) == best
        if [player.key(lance) for player in before.players].count(best) == 1:
            assert rotated[seat_after] is hands[seat]  # a clear winner stays the winner


def test_winner_among_nobody_is_nobody() -> None:
    result = showdown(deal("12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"))
    assert result.winner(Lance.GRANDE, among=()) is None
    assert result.winner(Lance.PARES, among=(3,)) is None  # postre holds no pares
    assert result.winner(Lance.PARES, among=(0, 2)) == 0
    assert result.winner(Lance.PUNTO, among=(2, 3)) == 2


def test_no_jugada_maxima_without_the_jugada_amm_4_1c() -> None:
    result = showdown(deal("12o 11o 7o 1o", "4c 4e 4b 5o", "12c 11c 7c 1c", "6o 6c 5c 1e"))
    assert not jugada_maxima(result, 0, Lance.PARES)
    assert not jugada_maxima(result, 0, Lance.JUEGO)
    assert not jugada_maxima(result, 0, Lance.PUNTO)  # 28, not 30
    with_juego = showdown(deal("12o 10o 5o 5c", "12c 11c 10c 1b", "12e 7c 6c 7e", "1o 1c 2o 4c"))
    assert with_juego.players[0].punto == 30
    assert not jugada_maxima(with_juego, 0, Lance.PUNTO)  # there is juego: no punto lance
