"""A deliberately plain evaluator, written from the seeds' wording and not from the engine's
tables, to check the engine against on random deals (differential property tests).

It sorts each hand's ranks and compares tuples, lance by lance, seat by seat.
"""

from __future__ import annotations

from collections import Counter

from scoring.mus import Hand, Real31, RuleSet

# Seed 000 «Orden y valor de las cartas»: rey o tres, caballo, sota, 7, 6, 5, 4, dos o as.
_ORDER_8 = [[1, 2], [4], [5], [6], [7], [10], [11], [12, 3]]
# With 4 reyes the treses and doses keep their natural place.
_ORDER_4 = [[1], [2], [3], [4], [5], [6], [7], [10], [11], [12]]


def rank(number: int, rules: RuleSet) -> int:
    order = _ORDER_8 if rules.reyes == 8 else _ORDER_4
    return next(position for position, numbers in enumerate(order) if number in numbers)


def value(number: int, rules: RuleSet) -> int:
    if number >= 10 or (rules.reyes == 8 and number == 3):
        return 10
    if rules.reyes == 8 and number == 2:
        return 1
    return number


def total(hand: Hand, rules: RuleSet) -> int:
    return sum(value(card.number, rules) for card in hand.cards)


def is_real(hand: Hand, rules: RuleSet) -> bool:
    numbers = sorted(card.number for card in hand.cards)
    if rules.real_31 is Real31.OFF or numbers.count(7) != 3 or total(hand, rules) != 31:
        return False
    fourth = next(card for card in hand.cards if card.number != 7)
    siete_suits = {card.suit.letter for card in hand.cards if card.number == 7}
    allowed = {
        Real31.ANY_FIGURE: fourth.number in (10, 11, 12),
        Real31.FIGURE_OR_THREE: fourth.number in (10, 11, 12, 3),
        Real31.SOTA: fourth.number == 10,
        Real31.CABALLO: fourth.number == 11,
        Real31.DISTINCT_SUITS: fourth.number in (10, 11, 12) and fourth.suit.letter not in siete_suits,
        Real31.SOTA_DE_OROS: fourth.number == 10 and fourth.suit.letter == "o",
        Real31.SOTA_DE_OROS_DISTINCT_SUITS: (
            fourth.number == 10 and fourth.suit.letter == "o" and "o" not in siete_suits
        ),
    }
    return allowed[rules.real_31]


def pares(hand: Hand, rules: RuleSet) -> tuple[int, ...]:
    """(kind, ranks…): 3 duples, 2 medias, 1 pareja, 0 none."""
    counts = Counter(rank(card.number, rules) for card in hand.cards)
    by_count = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
    (top, n), *rest = by_count
    if n == 4:
        return (3, top, top)
    if n == 3:
        return (2, top)
    if n == 2 and rest[0][1] == 2:
        return (3, max(top, rest[0][0]), min(top, rest[0][0]))
    if n == 2:
        return (1, top)
    return (0,)


_JUEGO = [31, 32, 40, 37, 36, 35, 34, 33]


def juego(hand: Hand, rules: RuleSet) -> int:
    """Higher is better; 0 is no juego."""
    points = total(hand, rules)
    if points < 31:
        return 0
    if is_real(hand, rules):
        return 100
    return 50 - _JUEGO.index(points)


def winner(keys: list[tuple[int, ...]]) -> int:
    best = 0
    for seat in (1, 2, 3):
        if keys[seat] > keys[best]:
            best = seat
    return best


def oracle_showdown(hands: list[Hand], rules: RuleSet) -> dict[str, object]:
    grande = winner([tuple(sorted((rank(c.number, rules) for c in h.cards), reverse=True)) for h in hands])
    chica = winner([tuple(-r for r in sorted(rank(c.number, rules) for c in h.cards)) for h in hands])
    paso = [0, 0]
    paso[grande % 2] += 1
    paso[chica % 2] += 1
    pares_keys = [pares(h, rules) for h in hands]
    pares_winner: int | None = winner(pares_keys)
    if pares_keys[pares_winner][0] == 0:
        pares_winner = None
    else:
        side = pares_winner % 2
        paso[side] += pares_keys[side][0] + pares_keys[side + 2][0]
    juego_keys = [(juego(h, rules),) for h in hands]
    juego_winner: int | None = winner(juego_keys)
    punto_winner: int | None = None
    if juego_keys[juego_winner][0] == 0:
        juego_winner = None
        punto_winner = winner([(total(h, rules),) for h in hands])
        paso[punto_winner % 2] += 1
    else:
        side = juego_winner % 2
        for seat in (side, side + 2):
            points = total(hands[seat], rules)
            paso[side] += 0 if points < 31 else 3 if points == 31 else 2
    return {
        "grande": grande,
        "chica": chica,
        "pares": pares_winner,
        "juego": juego_winner,
        "punto": punto_winner,
        "paso": (paso[0], paso[1]),
    }
