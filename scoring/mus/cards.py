"""Cards, hands and deals of the 40-card Spanish deck, and their notation ``12o 11c 7e 1b``.

A card is its number (1–7, 10 sota, 11 caballo, 12 rey) and a suit letter (o oros, c copas,
e espadas, b bastos). Suits never matter to the lances except for some 31 real variants
(seed 000), so a hand also carries the index of its multiset of numbers, which the evaluator
uses to look every lance up in precomputed tables.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import operator
from collections.abc import Iterator, Sequence
from typing import Final

from .core import SEAT_NAMES, Seat
from .errors import CardCountError, CardNotInDeckError, InvalidCardError, MusError, RepeatedCardError


class Suit(enum.IntEnum):
    """The four suits, in the order used to print hands (o, c, e, b)."""

    OROS = 0
    COPAS = 1
    ESPADAS = 2
    BASTOS = 3

    @property
    def letter(self) -> str:
        return _SUIT_LETTERS[self.value]


_SUIT_LETTERS: Final = ("o", "c", "e", "b")

NUMBERS: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
"""The numbers of the 40-card deck (no 8 or 9), low to high by face (AMM 1.2)."""

SOTA: Final = 10
CABALLO: Final = 11
REY: Final = 12

_NUMBER_POSITION: Final[dict[int, int]] = {number: position for position, number in enumerate(NUMBERS)}
# Base-5 digit per number: the sum over a hand identifies its multiset of numbers (a number
# appears at most four times, so the digits never carry).
_WEIGHT: Final[dict[int, int]] = {number: 5**position for position, number in enumerate(NUMBERS)}


@dataclasses.dataclass(frozen=True, slots=True)
class Card:
    """One card: ``Card(12, Suit.OROS)`` is the rey de oros, written ``12o``."""

    number: int
    suit: Suit
    index: int = dataclasses.field(init=False, repr=False, compare=False)
    """Position 0–39 in :data:`DECK` (suit by suit): a compact id, and the card's hash."""
    order: int = dataclasses.field(init=False, repr=False, compare=False)
    """Printing order within a hand: numbers high to low, then suits o c e b."""
    weight: int = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        position = _NUMBER_POSITION.get(self.number) if isinstance(self.number, int) else None
        if position is None:
            raise InvalidCardError(
                f"el número {self.number!r} no está en la baraja española de 40 cartas (1–7, 10, 11, 12)"
            )
        if not isinstance(self.suit, Suit):
            raise InvalidCardError(f"palo desconocido {self.suit!r}")
        suit = int(self.suit)
        # Computed once per card: hands are built and hashed in the validation hot path.
        object.__setattr__(self, "index", suit * 10 + position)
        object.__setattr__(self, "order", (9 - position) * 4 + suit)
        object.__setattr__(self, "weight", _WEIGHT[self.number])

    def __hash__(self) -> int:
        return self.index

    def __str__(self) -> str:
        return f"{self.number}{self.suit.letter}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card in the notation ``12o``; raises :class:`InvalidCardError`."""
        card = _CARD_BY_TEXT.get(text.strip().lower())
        if card is None:
            raise InvalidCardError(_not_a_card(text))
        return card


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _not_a_card(text: str) -> str:
    return (
        f"«{text}» no es una carta: se escribe el número (1–7, 10, 11, 12) y el palo "
        "(o, c, e, b), p. ej. «12o»"
    )


DECK: Final[tuple[Card, ...]] = tuple(Card(number, suit) for suit in Suit for number in NUMBERS)
"""The 40 cards, suit by suit."""

_CARD_BY_TEXT: Final[dict[str, Card]] = {str(card): card for card in DECK}

FULL_DECK: Final[frozenset[Card]] = frozenset(DECK)
DECK_WITHOUT_DOSES: Final[frozenset[Card]] = frozenset(card for card in DECK if card.number != 2)
"""La Rioja's 36-card deck (seed 000: «se juega con 36 cartas (sin doses)»)."""

_FULL_MASK: Final = (1 << 40) - 1
_DECK_MASKS: Final[dict[int, int]] = {
    id(DECK_WITHOUT_DOSES): sum(1 << card.index for card in DECK_WITHOUT_DOSES)
}


_ORDER: Final = operator.attrgetter("order")

# Every multiset of four numbers (715 of them), and the base-5 code that finds one in O(1).
MULTISETS: Final[tuple[tuple[int, int, int, int], ...]] = tuple(
    (NUMBERS[a], NUMBERS[b], NUMBERS[c], NUMBERS[d])
    for a, b, c, d in itertools.combinations_with_replacement(range(len(NUMBERS)), 4)
)
_MULTISET_BY_CODE: Final[dict[int, int]] = {
    sum(_WEIGHT[number] for number in numbers): index for index, numbers in enumerate(MULTISETS)
}


@dataclasses.dataclass(frozen=True, slots=True)
class Hand:
    """Four distinct cards, kept in printed order (so equal hands compare and print equal).

    ``multiset`` is the index in :data:`MULTISETS` of the hand's numbers: everything the lances
    need except the suits.
    """

    cards: tuple[Card, ...]
    multiset: int = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = sorted(self.cards, key=_ORDER)
        if len(cards) != 4:
            text = " ".join(map(str, cards))
            raise CardCountError(f"la mano «{text}» tiene {_count(len(cards), 'carta')}; deben ser 4")
        c0, c1, c2, c3 = cards
        # Sorted, a repeated card sits next to itself.
        if c0.order == c1.order or c1.order == c2.order or c2.order == c3.order:
            text = " ".join(map(str, cards))
            repeated = sorted({str(card) for card in cards if cards.count(card) > 1})
            raise RepeatedCardError(f"la mano «{text}» repite {', '.join(repeated)}")
        object.__setattr__(self, "cards", (c0, c1, c2, c3))
        object.__setattr__(self, "multiset", _MULTISET_BY_CODE[c0.weight + c1.weight + c2.weight + c3.weight])

    @property
    def numbers(self) -> tuple[int, int, int, int]:
        return MULTISETS[self.multiset]

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read a hand such as ``"12o 11c 7e 1b"`` (any order, any spacing)."""
        return cls(tuple(Card.parse(token) for token in text.split()))


def parse_hand(text: str) -> Hand:
    """``Hand.parse``, as a function."""
    return Hand.parse(text)


def format_hand(hand: Hand) -> str:
    """The canonical notation of a hand: numbers high to low, suits o c e b."""
    return str(hand)


def check_deal(
    texts: Sequence[str], deck: frozenset[Card] = FULL_DECK
) -> tuple[tuple[Hand, Hand, Hand, Hand] | None, list[tuple[Seat | None, MusError]]]:
    """Read four hands by seat and list every reason the deal is impossible.

    Returns the hands when there is none. Faults are bad cards, cards outside the rule set's
    deck, hands without four cards, a card repeated within a hand or across hands, and a deal
    without four hands; each comes with its seat (``None`` for the deal as a whole).
    """
    fast = _check_deal_fast(texts, deck)
    if fast is not None:
        return fast, []
    problems: list[tuple[Seat | None, MusError]] = []
    if len(texts) != 4:
        problems.append((None, CardCountError(f"el reparto tiene {_count(len(texts), 'mano')}; deben ser 4")))
    hands: list[Hand] = []
    owner: dict[int, Seat] = {}  # card index -> the seat that holds it
    check_deck = deck is not FULL_DECK
    for seat, text in enumerate(texts[:4]):
        name = SEAT_NAMES[seat]
        tokens = text.split()
        cards: list[Card] = []
        for token in tokens:
            card = _CARD_BY_TEXT.get(token.lower())
            if card is None:
                problems.append((seat, InvalidCardError(f"{name}: {_not_a_card(token)}")))
                continue
            if check_deck and card not in deck:
                message = f"{name}: la carta {card} no está en la baraja de este reglamento"
                problems.append((seat, CardNotInDeckError(message)))
            first = owner.get(card.index)
            if first is not None:
                where = "en su misma mano" if first == seat else f"también en el {SEAT_NAMES[first]}"
                problems.append((seat, RepeatedCardError(f"{name}: la carta {card} está repetida ({where})")))
                continue
            owner[card.index] = seat
            cards.append(card)
        if len(tokens) != 4:
            message = f"{name}: la mano «{text}» tiene {_count(len(tokens), 'carta')}; deben ser 4"
            problems.append((seat, CardCountError(message)))
        elif len(cards) == 4:
            hands.append(Hand(tuple(cards)))
    if problems or len(hands) != 4:
        return None, problems
    return (hands[0], hands[1], hands[2], hands[3]), problems


def _check_deal_fast(texts: Sequence[str], deck: frozenset[Card]) -> tuple[Hand, Hand, Hand, Hand] | None:
    # The common case, a good deal, with one bit per card; None sends any doubt to the
    # detailed path above, which words each fault.
    if len(texts) != 4:
        return None
    allowed = _DECK_MASKS.get(id(deck)) if deck is not FULL_DECK else _FULL_MASK
    if allowed is None:
        return None
    get = _CARD_BY_TEXT.get
    hands: list[Hand] = []
    seen = 0  # the cards dealt so far, one bit each
    for text in texts:
        tokens = text.split()
        if len(tokens) != 4:
            return None
        c0, c1, c2, c3 = get(tokens[0]), get(tokens[1]), get(tokens[2]), get(tokens[3])
        if c0 is None or c1 is None or c2 is None or c3 is None:
            return None
        cards = (1 << c0.index) | (1 << c1.index) | (1 << c2.index) | (1 << c3.index)
        # Four different cards, none dealt before, all in this rule set's deck.
        if cards.bit_count() != 4 or seen & cards or cards & allowed != cards:
            return None
        seen |= cards
        hands.append(_distinct_hand([c0, c1, c2, c3]))
    return hands[0], hands[1], hands[2], hands[3]


_new_object: Final = object.__new__
_set_cards, _set_multiset = (getattr(Hand, field.name).__set__ for field in dataclasses.fields(Hand))


def _distinct_hand(cards: list[Card]) -> Hand:
    """``Hand(tuple(cards))`` for four cards the caller knows are distinct, without checking
    them again: what ``Hand.__post_init__`` does, in the deal's fast path (the slots are set
    directly, as evaluation.py does for a Showdown)."""
    cards.sort(key=_ORDER)
    c0, c1, c2, c3 = cards
    hand: Hand = _new_object(Hand)
    _set_cards(hand, (c0, c1, c2, c3))
    _set_multiset(hand, _MULTISET_BY_CODE[c0.weight + c1.weight + c2.weight + c3.weight])
    return hand


def parse_deal(texts: Sequence[str], deck: frozenset[Card] = FULL_DECK) -> tuple[Hand, Hand, Hand, Hand]:
    """Read four hands by seat (0 mano … 3 postre), checking the deal could have been dealt.

    Raises the first fault :func:`check_deal` finds (:class:`InvalidCardError`,
    :class:`CardNotInDeckError`, :class:`RepeatedCardError` or :class:`CardCountError`).
    """
    hands, problems = check_deal(texts, deck)
    if problems:
        raise problems[0][1]
    assert hands is not None
    return hands
