"""Cards, hands and deals: notation, round trips, and every error path."""

from __future__ import annotations

import pytest
from hypothesis import given

from scoring.mus import (
    DECK,
    FULL_DECK,
    MULTISETS,
    Card,
    CardCountError,
    CardNotInDeckError,
    Hand,
    InvalidCardError,
    MusError,
    RepeatedCardError,
    Suit,
    check_deal,
    format_hand,
    get_rules,
    parse_deal,
    parse_hand,
)

from .strategies import deals


class TestCard:
    def test_the_deck_has_40_cards_numbers_1_to_7_and_10_to_12_amm_1_2(self) -> None:
        assert len(DECK) == len(set(DECK)) == 40
        assert sorted({card.number for card in DECK}) == [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
        assert {card.suit for card in DECK} == set(Suit)

    def test_notation_is_number_and_suit_letter(self) -> None:
        assert str(Card(12, Suit.OROS)) == "12o"
        assert str(Card(1, Suit.BASTOS)) == "1b"
        assert Card.parse("11c") == Card(11, Suit.COPAS)
        assert Card.parse(" 7E ") == Card(7, Suit.ESPADAS)

    @pytest.mark.parametrize("text", ["8o", "9c", "13e", "0b", "12x", "rey", "", "o12", "1.5o"])
    def test_a_bad_card_is_an_invalid_card_error(self, text: str) -> None:
        with pytest.raises(InvalidCardError, match="no es una carta"):
            Card.parse(text)

    def test_a_card_cannot_be_built_with_a_number_outside_the_deck(self) -> None:
        with pytest.raises(InvalidCardError, match="no está en la baraja"):
            Card(8, Suit.OROS)

    def test_a_card_cannot_be_built_without_a_suit(self) -> None:
        with pytest.raises(InvalidCardError, match="palo desconocido"):
            Card(12, "o")  # type: ignore[arg-type]

    def test_every_card_round_trips_and_has_its_own_index(self) -> None:
        assert sorted(card.index for card in DECK) == list(range(40))
        for card in DECK:
            assert Card.parse(str(card)) == card
            assert hash(card) == card.index

    def test_errors_are_value_errors(self) -> None:
        assert issubclass(InvalidCardError, ValueError)
        assert issubclass(CardNotInDeckError, InvalidCardError)
        assert issubclass(RepeatedCardError, MusError)
        assert issubclass(CardCountError, MusError)


class TestHand:
    def test_hands_print_high_to_low_and_compare_regardless_of_order(self) -> None:
        hand = Hand.parse("1b 7e 12o 11c")
        assert str(hand) == format_hand(hand) == "12o 11c 7e 1b"
        assert hand == parse_hand("12o 11c 7e 1b")
        assert Hand.parse("5b 5o 5e 5c").cards == Hand.parse("5o 5c 5e 5b").cards

    def test_hand_numbers_are_its_multiset(self) -> None:
        assert Hand.parse("3o 12c 2e 1b").numbers == (1, 2, 3, 12)

    def test_there_are_715_multisets_of_four_numbers(self) -> None:
        assert len(MULTISETS) == len(set(MULTISETS)) == 715

    @pytest.mark.parametrize("text", ["12o 11c 7e", "12o 11c 7e 1b 2b", "", "12o"])
    def test_a_hand_without_four_cards_is_a_card_count_error(self, text: str) -> None:
        with pytest.raises(CardCountError, match="deben ser 4"):
            Hand.parse(text)

    def test_a_repeated_card_in_a_hand_is_a_repeated_card_error(self) -> None:
        with pytest.raises(RepeatedCardError, match="repite 12o"):
            Hand.parse("12o 12o 7e 1b")

    def test_a_bad_card_in_a_hand_is_an_invalid_card_error(self) -> None:
        with pytest.raises(InvalidCardError):
            Hand.parse("12o 8c 7e 1b")

    @given(deals())
    def test_format_then_parse_round_trips(self, deal: tuple[Hand, Hand, Hand, Hand]) -> None:
        for hand in deal:
            assert Hand.parse(str(hand)) == hand
            assert str(Hand.parse(" ".join(reversed(str(hand).split())))) == str(hand)


class TestDeal:
    def test_a_good_deal_parses_by_seat(self) -> None:
        hands = parse_deal(["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"])
        assert [str(hand) for hand in hands] == [
            "12o 12c 5b 1e",
            "11o 11c 4e 4b",
            "7o 7c 3c 1b",
            "10o 6e 5c 2c",
        ]

    def test_a_card_in_two_hands_is_a_repeated_card_error_naming_both_seats(self) -> None:
        with pytest.raises(RepeatedCardError, match=r"asiento 3 \(postre\): la carta 12o .*asiento 0"):
            parse_deal(["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "12o 6e 5c 2c"])

    def test_a_deal_without_four_hands_is_a_card_count_error(self) -> None:
        with pytest.raises(CardCountError, match="3 manos"):
            parse_deal(["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b"])

    def test_a_dos_is_not_in_la_riojas_36_card_deck_seed_000(self) -> None:
        rioja = get_rules("la_rioja")
        texts = ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]
        with pytest.raises(CardNotInDeckError, match=r"asiento 3 .*2c"):
            parse_deal(texts, rioja.deck)
        assert len(rioja.deck) == 36 and len(FULL_DECK) == 40

    def test_check_deal_lists_every_fault_by_seat(self) -> None:
        hands, problems = check_deal(["12o 12c 1e 5b", "12o 11c 4e", "8o 7o 7c 1b", "10o 6e 5c 2c 2o"])
        assert hands is None
        assert [(seat, type(error)) for seat, error in problems] == [
            (1, RepeatedCardError),
            (1, CardCountError),
            (2, InvalidCardError),
            (3, CardCountError),
        ]

    def test_check_deal_reports_a_card_twice_in_the_same_hand(self) -> None:
        hands, problems = check_deal(["12o 12o 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"])
        assert hands is None
        assert [(seat, str(error)) for seat, error in problems] == [
            (0, "asiento 0 (mano): la carta 12o está repetida (en su misma mano)")
        ]

    @given(deals())
    def test_any_real_deal_passes(self, deal: tuple[Hand, Hand, Hand, Hand]) -> None:
        hands, problems = check_deal([str(hand) for hand in deal])
        assert problems == [] and hands == deal


class TestDealPaths:
    def test_capital_letters_are_read_too(self) -> None:
        hands, problems = check_deal(["12O 12C 1E 5B", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"])
        assert problems == [] and hands is not None
        assert str(hands[0]) == "12o 12c 5b 1e"
        assert [str(card) for card in hands[0]] == ["12o", "12c", "5b", "1e"]

    def test_a_deck_of_ones_own_is_honoured(self) -> None:
        no_reyes = frozenset(card for card in DECK if card.number != 12)
        texts = ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]
        hands, problems = check_deal(texts, no_reyes)
        assert hands is None
        assert [(seat, type(error)) for seat, error in problems] == [
            (0, CardNotInDeckError),
            (0, CardNotInDeckError),
        ]
        other = ["11o 11c 1e 5b", "10c 10e 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]
        assert check_deal(other, no_reyes)[1] == []
