"""Betting: pair-level actions, the legal sequences, and how each lance ends."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.mus import (
    AMM,
    Action,
    Bet,
    IllegalBetError,
    InvalidBetError,
    Lance,
    LanceBetting,
    Outcome,
    Pair,
    get_rules,
    parse_bets,
    resolve_lance,
)
from scoring.mus.rules import RuleSet


def lance(texts: list[str], lance: Lance = Lance.GRANDE, rules: RuleSet = AMM, **options: object) -> LanceBetting:
    return resolve_lance(lance, parse_bets(texts), rules, **options)  # type: ignore[arg-type]


def illegal(texts: list[str], code: str, lance_: Lance = Lance.GRANDE, **options: object) -> IllegalBetError:
    with pytest.raises(IllegalBetError) as raised:
        lance(texts, lance_, **options)
    assert raised.value.code == code
    assert raised.value.lance is lance_
    return raised.value


class TestNotation:
    @pytest.mark.parametrize(
        ("text", "bet"),
        [
            ("A:envido 2", Bet(Pair.A, Action.ENVIDO, 2)),
            ("B:envido", Bet(Pair.B, Action.ENVIDO)),
            ("A:ordago", Bet(Pair.A, Action.ORDAGO)),
            ("B:quiero", Bet(Pair.B, Action.QUIERO)),
            ("A:no quiero", Bet(Pair.A, Action.NO_QUIERO)),
            ("B:paso", Bet(Pair.B, Action.PASO)),
            ("a: Órdago", Bet(Pair.A, Action.ORDAGO)),
            (" B : no   quiero ", Bet(Pair.B, Action.NO_QUIERO)),
            ("A:ENVIDO 40", Bet(Pair.A, Action.ENVIDO, 40)),
        ],
    )
    def test_bets_are_read_from_their_notation(self, text: str, bet: Bet) -> None:
        assert Bet.parse(text) == bet

    @pytest.mark.parametrize(
        "text",
        ["C:quiero", "A:envido dos", "A:quiero 2", "A:", "envido 2", "A:envite 2", "A:envido -2", "A:todo"],
    )
    def test_anything_else_is_an_invalid_bet_error(self, text: str) -> None:
        with pytest.raises(InvalidBetError, match="no es una apuesta"):
            Bet.parse(text)

    def test_only_an_envido_carries_a_number(self) -> None:
        with pytest.raises(InvalidBetError, match="solo un envido lleva número"):
            Bet(Pair.A, Action.QUIERO, 2)

    @given(
        st.builds(
            Bet,
            st.sampled_from(Pair),
            st.just(Action.ENVIDO),
            st.one_of(st.none(), st.integers(0, 10**9 - 1)),
        )
        | st.builds(Bet, st.sampled_from(Pair), st.sampled_from([a for a in Action if a is not Action.ENVIDO]))
    )
    def test_format_then_parse_round_trips(self, bet: Bet) -> None:
        assert Bet.parse(str(bet)) == bet


class TestEnvites:
    def test_nothing_said_is_paso(self) -> None:
        assert lance([]) == LanceBetting(Lance.GRANDE, Outcome.PASO, None, 0, ())
        assert lance(["A:paso", "B:paso", "A:paso", "B:paso"]).outcome is Outcome.PASO

    @pytest.mark.parametrize(
        ("texts", "outcome", "pair", "amount"),
        [
            (["A:envido", "B:no quiero"], Outcome.DEJE, Pair.A, 1),
            (["A:envido", "B:quiero"], Outcome.QUERIDO, Pair.A, 2),
            (["A:envido 3", "B:no quiero"], Outcome.DEJE, Pair.A, 1),
            (["A:envido 3", "B:quiero"], Outcome.QUERIDO, Pair.A, 3),
            (["A:envido", "B:envido 4", "A:no quiero"], Outcome.DEJE, Pair.B, 2),
            (["A:envido", "B:envido 4", "A:quiero"], Outcome.QUERIDO, Pair.B, 6),
            (["A:envido", "B:envido 4", "A:envido 3", "B:no quiero"], Outcome.DEJE, Pair.A, 6),
        ],
    )
    def test_envite_outcomes_seed_002_art_17(self, texts: list[str], outcome: Outcome, pair: Pair, amount: int) -> None:
        result = lance(texts)
        assert (result.outcome, result.pair, result.amount) == (outcome, pair, amount)

    def test_envite_without_number_is_two_amm_3_6(self) -> None:
        assert lance(["B:envido", "A:quiero"]).amount == 2
        assert lance(["B:envido 5", "A:envido", "B:quiero"]).amount == 7

    def test_a_large_envite_is_never_an_ordago_amm_3_6(self) -> None:
        result = lance(["A:envido 100", "B:quiero"])
        assert (result.outcome, result.amount) == (Outcome.QUERIDO, 100)

    def test_envite_of_less_than_two_is_illegal_amm_3_6(self) -> None:
        error = illegal(["A:envido 1", "B:quiero"], "envite_menor_de_dos")
        assert error.article == "AMM 3.6" and error.index == 0
        assert str(error) == "en grande, la pareja A envida 1: un envite es de 2 tantos o más (AMM 3.6)"
        illegal(["A:envido", "B:envido 0", "A:quiero"], "envite_menor_de_dos")

    def test_an_envite_above_40_counts_as_two_in_asturias_seed_000(self) -> None:
        asturias = get_rules("asturias")
        assert lance(["A:envido 41", "B:quiero"], rules=asturias).amount == 2
        assert lance(["A:envido 40", "B:quiero"], rules=asturias).amount == 40
        assert lance(["A:envido 30", "B:envido 50", "A:quiero"], rules=asturias).amount == 32

    def test_passes_before_an_envite_are_free(self) -> None:
        result = lance(["A:paso", "B:paso", "A:envido", "B:quiero"])
        assert (result.outcome, result.pair) == (Outcome.QUERIDO, Pair.A)


class TestOrdago:
    def test_accepted_ordago_ends_the_lance_as_ordago(self) -> None:
        result = lance(["A:envido", "B:ordago", "A:quiero"])
        assert (result.outcome, result.pair, result.amount) == (Outcome.ORDAGO, Pair.B, 0)

    def test_declined_ordago_is_a_declined_envite(self) -> None:
        assert (lance(["A:ordago", "B:no quiero"]).amount, lance(["A:ordago", "B:no quiero"]).pair) == (
            1,
            Pair.A,
        )
        raised = lance(["A:envido 5", "B:ordago", "A:no quiero"])
        assert (raised.outcome, raised.pair, raised.amount) == (Outcome.DEJE, Pair.B, 5)

    def test_nothing_goes_above_an_ordago(self) -> None:
        illegal(["A:ordago", "B:envido 10"], "envite_tras_ordago")
        illegal(["A:ordago", "B:ordago"], "envite_tras_ordago")

    def test_jugada_minima_may_accept_any_envite_but_not_an_ordago_amm_3_12(self) -> None:
        envite = lance(["A:envido 30", "B:quiero"], Lance.PARES, jugada_minima=True)
        assert (envite.outcome, envite.amount, envite.ordago_annulled) == (Outcome.QUERIDO, 30, False)

    def test_ordago_accepted_with_jugada_minima_is_scored_as_declined_amm_3_12_a(self) -> None:
        result = lance(["A:ordago", "B:quiero"], Lance.PARES, jugada_minima=True)
        assert (result.outcome, result.pair, result.amount, result.ordago_annulled) == (
            Outcome.DEJE,
            Pair.A,
            1,
            True,
        )
        raised = lance(["A:envido 4", "B:envido 2", "A:ordago", "B:quiero"], Lance.JUEGO, jugada_minima=True)
        assert (raised.outcome, raised.amount, raised.ordago_annulled) == (Outcome.DEJE, 6, True)

    def test_jugada_minima_is_pair_bs_so_a_accepting_stands(self) -> None:
        result = lance(["B:ordago", "A:quiero"], Lance.PARES, jugada_minima=True)
        assert result.outcome is Outcome.ORDAGO

    def test_without_3_12_a_the_ordago_stands_fournier(self) -> None:
        result = lance(["A:ordago", "B:quiero"], Lance.PARES, get_rules("fournier"), jugada_minima=True)
        assert result.outcome is Outcome.ORDAGO


class TestWhoMayBet:
    def test_a_pair_without_pares_cannot_bet_pares_amm_3_8(self) -> None:
        error = illegal(["B:envido", "A:quiero"], "envite_sin_jugada", Lance.PARES, holders=(True, False))
        assert error.article == "AMM 3.8"
        assert "la pareja B envida sin llevar pares" in str(error)

    def test_no_envites_when_only_one_pair_holds_seed_000(self) -> None:
        illegal(["A:envido", "B:quiero"], "envite_sin_contrario", Lance.JUEGO, holders=(True, False))

    def test_passes_are_fine_when_nobody_may_bet(self) -> None:
        result = lance(["A:paso", "B:paso"], Lance.PARES, holders=(False, False))
        assert result.outcome is Outcome.PASO


class TestSequence:
    def test_a_pair_cannot_raise_its_own_envite(self) -> None:
        illegal(["A:envido", "A:envido 4"], "envite_propio")

    def test_a_pair_cannot_answer_its_own_envite(self) -> None:
        illegal(["A:envido", "A:quiero"], "envite_propio")

    def test_an_answer_needs_an_envite(self) -> None:
        error = illegal(["A:paso", "B:no quiero"], "respuesta_sin_envite")
        assert error.index == 1

    def test_paso_after_an_envite_is_not_an_answer(self) -> None:
        illegal(["A:envido", "B:paso"], "paso_tras_envite")

    def test_nothing_after_the_answer(self) -> None:
        illegal(["A:envido", "B:quiero", "A:envido"], "lance_cerrado")
        illegal(["A:envido", "B:no quiero", "B:paso"], "lance_cerrado")

    def test_an_envite_needs_an_answer(self) -> None:
        error = illegal(["A:envido", "B:envido 2"], "envite_sin_respuesta")
        assert error.index is None
        assert str(error) == "en grande, el envite de la pareja B se quedó sin respuesta"
