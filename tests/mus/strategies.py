"""Hypothesis strategies and small helpers shared by the mus engine tests."""

from __future__ import annotations

from hypothesis import strategies as st

from scoring.mus import DECK, Action, Bet, Hand, Lance, Pair, Score, Showdown, Suit, parse_deal

Deal = tuple[Hand, Hand, Hand, Hand]


def deal(*texts: str) -> Deal:
    """Four hands by seat, checked like a real deal."""
    return parse_deal(texts)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    cards = draw(st.permutations(DECK))[:16]
    return (
        Hand(tuple(cards[0:4])),
        Hand(tuple(cards[4:8])),
        Hand(tuple(cards[8:12])),
        Hand(tuple(cards[12:16])),
    )


@st.composite
def suit_shuffles(draw: st.DrawFn) -> dict[int, dict[Suit, Suit]]:
    """For every number, a permutation of the suits: applied to a deal it keeps it valid."""
    suits = list(Suit)
    return {
        number: dict(zip(suits, draw(st.permutations(suits)), strict=True))
        for number in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
    }


def _amount() -> st.SearchStrategy[int | None]:
    return st.one_of(st.none(), st.integers(min_value=2, max_value=45))


@st.composite
def lance_bets(draw: st.DrawFn, can_bet: bool) -> tuple[Bet, ...]:
    """A legal betting sequence for one lance (paso when the lance admits no envites)."""
    if not can_bet:
        return draw(st.sampled_from([(), (Bet(Pair.A, Action.PASO),)]))
    bets: list[Bet] = []
    if draw(st.booleans()):
        bets.append(Bet(Pair.A, Action.PASO))
    if draw(st.integers(0, 3)) == 0:
        return tuple(bets)  # en paso
    bettor = draw(st.sampled_from(Pair))
    raises = draw(st.integers(0, 3))
    for index in range(raises + 1):
        ordago = index == raises and draw(st.integers(0, 5)) == 0
        bets.append(Bet(bettor, Action.ORDAGO) if ordago else Bet(bettor, Action.ENVIDO, draw(_amount())))
        if ordago:
            break
        bettor = bettor.other
    answer = draw(st.sampled_from([Action.QUIERO, Action.NO_QUIERO]))
    bets.append(Bet(bets[-1].pair.other, answer))
    return tuple(bets)


@st.composite
def hand_bets(draw: st.DrawFn, result: Showdown) -> dict[Lance, tuple[Bet, ...]]:
    """Legal bets for a whole hand; after an accepted órdago the later lances stay en paso."""
    bets: dict[Lance, tuple[Bet, ...]] = {}
    for lance in (Lance.GRANDE, Lance.CHICA, Lance.PARES, result.fourth_lance):
        can_bet = all(result.holders(lance)) if lance in (Lance.PARES, Lance.JUEGO) else True
        lance_sequence = draw(lance_bets(can_bet))
        bets[lance] = lance_sequence
        if (
            len(lance_sequence) >= 2
            and lance_sequence[-2].action is Action.ORDAGO
            and lance_sequence[-1].action is Action.QUIERO
        ):
            break
    return bets


def scores(target: int = 40) -> st.SearchStrategy[Score]:
    return st.builds(Score, st.integers(0, target - 1), st.integers(0, target - 1))
