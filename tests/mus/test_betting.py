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

from .strategies import lance_bets


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

    def test_nothing_goes_above_an_ordago_seed_000(self) -> None:
        """Seed 000, «Órdago»: «se apuestan todas las piedras o amarrakos de una sola vez» (AMM says
        nothing about raising one)."""
        error = illegal(["A:ordago", "B:envido 10"], "envite_tras_ordago")
        assert error.article == "seed 000 (órdago)"
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
        """Seed 000, «Anuncio de las jugadas»: «iniciándose los envites en el caso de que, al menos,
        uno de los jugadores de cada pareja tenga Pares» (AMM says nothing)."""
        error = illegal(["A:envido", "B:quiero"], "envite_sin_contrario", Lance.JUEGO, holders=(True, False))
        assert error.article == "seed 000 (anuncio de las jugadas)"

    def test_passes_are_fine_when_nobody_may_bet(self) -> None:
        result = lance(["A:paso", "B:paso"], Lance.PARES, holders=(False, False))
        assert result.outcome is Outcome.PASO


class TestTurns:
    """AMM 3.8 «TURNOS DE ENVITE» and seed 000 «Anuncio de las jugadas»: «El jugador "mano" es el
    primero que en cada jugada manifiesta si desea pasar, envidar…, y cada uno de los demás
    jugadores, por turno riguroso de juego, deberá manifestar si pasa, si acepta el envite o si lo
    aumenta.» Before an envite a written pass is one player's turn, A, B, A, B from mano."""

    @pytest.mark.parametrize(
        ("texts", "index"),
        [
            (["A:paso", "B:paso", "A:paso", "B:paso", "A:envido", "B:quiero"], 4),
            (["A:paso", "B:paso", "A:paso", "B:paso", "B:envido", "A:quiero"], 4),
            (["A:paso", "A:paso", "A:envido", "B:quiero"], 2),  # B's passes left out: four turns gone
            (["B:paso", "B:paso", "A:envido", "B:quiero"], 2),  # mano's and asiento 2's left out
            (["A:paso", "B:paso", "A:paso", "B:paso", "A:paso"], 4),
        ],
    )
    def test_after_everybody_passed_the_lance_is_closed_amm_3_8(self, texts: list[str], index: int) -> None:
        """AMM 3.8 (turnos de envite); seed 000: «Un jugador podrá pasar, sin quedar eliminado,
        siempre que ningún jugador anterior a él haya envidado, pudiendo entrar en el juego al
        llegarle su segundo turno de hablar, aceptando o aumentando los envites anteriores» — after
        four passes there is no envite to accept or raise: the lance is closed en paso."""
        error = illegal(texts, "lance_cerrado")
        assert error.article == "AMM 3.8"
        assert "ya han pasado los cuatro jugadores" in str(error)
        assert error.index == index

    @pytest.mark.parametrize(
        ("texts", "pair"),
        [
            (["A:paso", "B:paso", "A:envido", "B:quiero"], Pair.A),  # mano's partner
            (["A:paso", "A:envido", "B:quiero"], Pair.A),  # asiento 1's pass left out
            (["A:paso", "B:paso", "A:paso", "B:envido", "A:quiero"], Pair.B),  # postre
            (["B:paso", "A:envido", "B:quiero"], Pair.A),  # mano's pass left out
            (["A:paso", "A:paso", "B:envido", "A:quiero"], Pair.B),
        ],
    )
    def test_a_pass_leaves_the_turns_still_to_come_amm_3_8(self, texts: list[str], pair: Pair) -> None:
        """AMM 3.8; seed 000: «Un jugador podrá pasar, sin quedar eliminado, siempre que ningún
        jugador anterior a él haya envidado» — the players after him still have their turn."""
        result = lance(texts)
        assert (result.outcome, result.pair) == (Outcome.QUERIDO, pair)

    def test_passes_may_be_left_out_amm_3_8(self) -> None:
        """AMM 3.8; seed 000: mano speaks first, «y cada uno de los demás jugadores, por turno
        riguroso de juego»: a pass left out is a turn the record skips."""
        assert lance(["B:envido", "A:quiero"]).outcome is Outcome.QUERIDO  # mano's pass left out
        assert lance(["A:paso", "B:paso", "A:paso", "B:paso"]).outcome is Outcome.PASO
        assert lance(["B:paso"]).outcome is Outcome.PASO

    def test_a_pair_that_passed_answers_an_envite_made_after_it_amm_3_8(self) -> None:
        """Seed 000: a player who passed may enter again «al llegarle su segundo turno de hablar,
        aceptando o aumentando los envites anteriores»."""
        raised = lance(["A:paso", "B:envido", "A:envido 4", "B:quiero"])
        assert (raised.outcome, raised.pair, raised.amount) == (Outcome.QUERIDO, Pair.A, 6)
        declined = lance(["A:paso", "B:paso", "A:paso", "B:envido", "A:no quiero"])
        assert (declined.outcome, declined.pair, declined.amount) == (Outcome.DEJE, Pair.B, 1)

    @pytest.mark.parametrize(
        ("texts", "pair", "amount"),
        [
            (["A:envido", "B:paso"], Pair.A, 1),
            (["A:paso", "B:envido", "A:paso"], Pair.B, 1),
            (["A:envido", "B:envido 4", "A:paso"], Pair.B, 2),
            (["A:ordago", "B:paso"], Pair.A, 1),
        ],
    )
    def test_a_pass_after_an_envite_declines_it_seed_000_seed_001(
        self, texts: list[str], pair: Pair, amount: int
    ) -> None:
        """Seed 000, «Anuncio de las jugadas»: «si un jugador pasase después de haber envidado algún
        jugador anterior a él, queda definitivamente eliminado de esa jugada»; seed 001: «pudiendo
        cada quien, al responder a un envite, pasar (no responder), igualar, o subir el envite» and
        «Si no se va a responder al envite se dice "no quiero" o "no envido"». The same outcome as
        «no quiero»."""
        result = lance(texts)
        declined = lance([*texts[:-1], texts[-1].replace("paso", "no quiero")])
        assert (result.outcome, result.pair, result.amount) == (Outcome.DEJE, pair, amount)
        assert (declined.outcome, declined.pair, declined.amount) == (result.outcome, result.pair, result.amount)

    @given(lance_bets(can_bet=True), st.booleans(), st.booleans())
    def test_written_passes_change_no_outcome_amm_3_8(
        self, bets: tuple[Bet, ...], late: bool, paso_declines: bool
    ) -> None:
        """AMM 3.8; seed 000: mano speaks first «y cada uno de los demás jugadores, por turno riguroso
        de juego»; a pass after an envite «queda definitivamente eliminado». Writing every pass before
        the first envite, or a decline as «paso», gives the same outcome as leaving them out."""
        said = [bet for bet in bets if bet.action is not Action.PASO]
        expected = resolve_lance(Lance.GRANDE, said)
        if not said:
            assert expected.outcome is Outcome.PASO
            return
        turn = said[0].pair + (2 if late else 0)  # the first envite at the pair's first or second turn
        written = [Bet(Pair(before % 2), Action.PASO) for before in range(turn)] + said
        if paso_declines and written[-1].action is Action.NO_QUIERO:
            written[-1] = Bet(written[-1].pair, Action.PASO)
        result = resolve_lance(Lance.GRANDE, written)
        assert (result.outcome, result.pair, result.amount) == (expected.outcome, expected.pair, expected.amount)

    def test_nothing_after_a_decline_by_pass_amm_3_9(self) -> None:
        """AMM 3.9: what the pair says for both closes the jugada («la jugada quedará cerrada ya que
        se entiende que habla por los dos»); seed 000: the player who passed «queda definitivamente
        eliminado de esa jugada»."""
        error = illegal(["A:envido", "B:paso", "B:quiero"], "lance_cerrado")
        assert (error.article, error.index) == ("AMM 3.9", 2)


class TestSequence:
    def test_a_pair_cannot_raise_its_own_envite_amm_3_10(self) -> None:
        """AMM 3.10: «Si los dos componentes de una pareja envidan o revocan al mismo tiempo…, la
        pareja contraria tiene la opción de elegir el envite»: a pair's envites are one envite, which
        the other pair answers; it does not raise itself."""
        error = illegal(["A:envido", "A:envido 4"], "envite_propio")
        assert (error.article, error.index) == ("AMM 3.10", 1)
        illegal(["B:envido", "A:envido", "A:ordago"], "envite_propio")
        assert illegal(["A:paso", "B:envido", "B:envido 4"], "envite_propio").article == "AMM 3.10"

    def test_a_pair_cannot_answer_or_pass_on_its_own_envite_amm_3_7_d(self) -> None:
        """AMM 3.7.d: «Durante el diálogo de una pareja para sopesar querer, no querer o revocar, la
        pareja contraria debe permanecer en silencio»: the pair facing the envite answers it."""
        error = illegal(["A:envido", "A:quiero"], "envite_propio")
        assert error.article == "AMM 3.7.d"
        passed = illegal(["A:envido", "A:paso", "B:quiero"], "envite_propio")
        assert (passed.article, passed.index) == ("AMM 3.7.d", 1)
        assert str(passed) == "en grande, la pareja A pasa ante su propio envite: le toca responder a la pareja B"

    def test_an_answer_needs_an_envite_seed_000(self) -> None:
        """Seed 000, «Anuncio de las jugadas»: each player «deberá manifestar si pasa, si acepta el
        envite o si lo aumenta» — accepting or declining needs an envite (AMM says nothing)."""
        error = illegal(["A:paso", "B:no quiero"], "respuesta_sin_envite")
        assert (error.index, error.article) == (1, "seed 000 (anuncio de las jugadas)")

    def test_nothing_after_the_answer_amm_3_9(self) -> None:
        """AMM 3.9: «la jugada quedará cerrada ya que se entiende que habla por los dos» — the
        record's answer is the pair's word, and it closes the lance."""
        error = illegal(["A:envido", "B:quiero", "A:envido"], "lance_cerrado")
        assert (error.article, error.index) == ("AMM 3.9", 2)
        illegal(["A:envido", "B:no quiero", "B:paso"], "lance_cerrado")

    def test_an_envite_needs_an_answer_amm_3_7(self) -> None:
        """AMM 3.7: «se podrá utilizar hasta 1 minuto para aceptar o revocar un envite»; 3.7.b:
        «Rebasado el tiempo límite se entenderá que declinan» — the record says which, with «quiero»,
        «no quiero» or a raise."""
        error = illegal(["A:envido", "B:envido 2"], "envite_sin_respuesta")
        assert (error.index, error.article) == (None, "AMM 3.7")
        assert str(error) == "en grande, el envite de la pareja B se quedó sin respuesta"
