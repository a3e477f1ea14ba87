"""Evaluation: who wins each lance with four hands on the table, and what each hand holds.

Everything a lance needs depends only on the hand's numbers (suits aside, except some 31 real
variants), and there are only 715 multisets of four numbers (330 distinct hands under 8 reyes).
So each rule set gets a table, built once, with every lance's comparison key per multiset; a
showdown is then four lookups and a few integer comparisons (see ``benchmarks/engine.py``).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Final

from .cards import MULTISETS, Hand
from .core import MANO, SEATS, Lance, Score, Seat
from .errors import CardCountError
from .rules import AMM, Real31, RuleSet


class Pares(enum.IntEnum):
    """The kinds of pares, whose value is also the tantos they score (seed 003 value table)."""

    PAREJA = 1
    MEDIAS = 2
    DUPLES = 3

    @property
    def key(self) -> str:
        return self.name.lower()


# Juego order, best first: 31, 32, 40, 37, 36, 35, 34, 33 (seed 000 «Juego»; AMM 1.7.b).
# A 31 real, where the rule set admits it, beats them all (seed 000 «La real»).
_JUEGO_ORDER: Final[dict[int, int]] = {31: 8, 32: 7, 40: 6, 37: 5, 36: 4, 35: 3, 34: 2, 33: 1}
_REAL_KEY: Final = 9


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerFacts:
    """What one hand holds, lance by lance, independently of the other three.

    ``juego`` is the total when it is 31 or more, ``punto`` the total when it is less (a
    player's fact; the punto *lance* is only played when nobody holds juego). ``keys`` are the
    comparison keys for grande, chica, pares, juego and punto: higher wins, 0 means "does not
    hold" in pares, juego and punto.
    """

    total: int
    pares: Pares | None
    pares_value: int
    pares_name: str | None
    """The pares in words, for messages: «pareja de sietes», «duples de reyes y ases»."""
    juego: int | None
    juego_value: int
    punto: int | None
    real: bool
    keys: tuple[int, int, int, int, int]

    def key(self, lance: Lance) -> int:
        return self.keys[lance]

    def holds(self, lance: Lance) -> bool:
        """Whether the hand holds pares / juego (always true for grande, chica and punto)."""
        if lance is Lance.PARES:
            return self.pares is not None
        if lance is Lance.JUEGO:
            return self.juego is not None
        return True


def _strengths(reyes: int) -> dict[int, int]:
    if reyes == 8:
        # AMM 1.2: a tres is a rey and a dos an as, for rank (and value, below).
        return {1: 0, 2: 0, 4: 1, 5: 2, 6: 3, 7: 4, 10: 5, 11: 6, 12: 7, 3: 7}
    # Seed 000/003: with 4 reyes the treses and doses keep their natural place.
    return {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 10: 7, 11: 8, 12: 9}


def _card_value(number: int, reyes: int) -> int:
    if number >= 10:
        return 10
    if reyes == 8 and number == 3:
        return 10  # AMM 1.2 «valorando los treses como reyes»
    if reyes == 8 and number == 2:
        return 1  # AMM 1.2 «y los doses como ases»
    return number


_RANK_NAMES: Final[dict[int, tuple[str, ...]]] = {
    8: ("ases", "cuatros", "cincos", "seises", "sietes", "sotas", "caballos", "reyes"),
    4: ("ases", "doses", "treses", "cuatros", "cincos", "seises", "sietes", "sotas", "caballos", "reyes"),
}


def _pares_key(strengths: list[int], reyes: int) -> tuple[Pares | None, int, str | None]:
    names = _RANK_NAMES[reyes]
    counts: dict[int, int] = {}
    for strength in strengths:
        counts[strength] = counts.get(strength, 0) + 1
    pairs = sorted((s for s, n in counts.items() if n == 2), reverse=True)
    for strength, count in counts.items():
        if count == 4:
            # Four equal cards are duples of that rank twice: four reyes beat rey-rey-caballo-
            # caballo (seed 001 «Duples: 2 parejas, o 4 cartas iguales»; DESIGN rule decisions).
            return Pares.DUPLES, 3 * 256 + strength * 16 + strength, f"duples de cuatro {names[strength]}"
        if count == 3:
            return Pares.MEDIAS, 2 * 256 + strength, f"medias de {names[strength]}"
    if len(pairs) == 2:
        # Duples compare the higher pair, then the lower (seed 002 art. 11; seed 001: a pair
        # of reyes and one of sietes beat four sotas).
        high, low = pairs
        return Pares.DUPLES, 3 * 256 + high * 16 + low, f"duples de {names[high]} y {names[low]}"
    if len(pairs) == 1:
        return Pares.PAREJA, 256 + pairs[0], f"pareja de {names[pairs[0]]}"
    return None, 0, None


def _facts(numbers: tuple[int, ...], reyes: int, real: bool) -> PlayerFacts:
    strength = _strengths(reyes)
    ranks = sorted((strength[number] for number in numbers), reverse=True)
    grande = ((ranks[0] * 16 + ranks[1]) * 16 + ranks[2]) * 16 + ranks[3]
    low = [15 - rank for rank in reversed(ranks)]  # lower cards first, lower is better
    chica = ((low[0] * 16 + low[1]) * 16 + low[2]) * 16 + low[3]
    pares, pares_key, pares_name = _pares_key(ranks, reyes)
    total = sum(_card_value(number, reyes) for number in numbers)
    has_juego = total >= 31
    juego_key = _REAL_KEY if real else _JUEGO_ORDER.get(total, 0)
    return PlayerFacts(
        total=total,
        pares=pares,
        pares_value=0 if pares is None else pares.value,
        pares_name=pares_name,
        juego=total if has_juego else None,
        # AMM/seed 003: 31 scores 3, any other juego 2; the real is a 31.
        juego_value=(3 if total == 31 else 2) if has_juego else 0,
        punto=None if has_juego else total,
        real=real,
        keys=(grande, chica, pares_key, juego_key, 0 if has_juego else total),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class _Table:
    facts: tuple[PlayerFacts, ...]
    real_facts: dict[int, PlayerFacts]
    """Multisets that are a real when the suits agree (suit-dependent variants only)."""
    variant: Real31


_TABLES: dict[tuple[int, Real31], _Table] = {}


def _build_table(reyes: int, variant: Real31) -> _Table:
    facts: list[PlayerFacts] = []
    real_facts: dict[int, PlayerFacts] = {}
    for index, numbers in enumerate(MULTISETS):
        total = sum(_card_value(number, reyes) for number in numbers)
        maybe_real = total == 31 and variant.admits_numbers(numbers)
        if maybe_real and variant.needs_suits:
            real_facts[index] = _facts(numbers, reyes, real=True)
            facts.append(_facts(numbers, reyes, real=False))
        else:
            facts.append(_facts(numbers, reyes, real=maybe_real))
    return _Table(tuple(facts), real_facts, variant)


def _table(rules: RuleSet) -> _Table:
    # Cached on the rule set itself: hashing a dataclass on every showdown would cost more
    # than the showdown.
    table: _Table | None = rules._mus_table
    if table is None:
        key = (rules.reyes, rules.real_31)
        table = _TABLES.get(key)
        if table is None:
            table = _TABLES[key] = _build_table(*key)
        object.__setattr__(rules, "_mus_table", table)
    return table


def distinct_hands(rules: RuleSet = AMM) -> int:
    """How many hands differ for the lances under ``rules`` (330 with 8 reyes, 715 with 4)."""
    return len({facts.keys for facts in _table(rules).facts})


def evaluate(hand: Hand, rules: RuleSet = AMM) -> PlayerFacts:
    """What one hand holds under ``rules``."""
    table = _table(rules)
    facts = table.facts[hand.multiset]
    if table.real_facts and hand.multiset in table.real_facts and table.variant.admits(hand.cards):
        return table.real_facts[hand.multiset]
    return facts


@dataclasses.dataclass(frozen=True, slots=True)
class Showdown:
    """The winner of every lance with all four hands shown, and what a hand en paso scores.

    ``pares`` and ``juego`` are ``None`` when nobody holds them; ``punto`` is ``None`` when
    somebody holds juego (then there is no punto lance). ``paso`` is what each pair scores if
    all four lances go without envites.
    """

    grande: Seat
    chica: Seat
    pares: Seat | None
    juego: Seat | None
    punto: Seat | None
    paso: Score
    players: tuple[PlayerFacts, PlayerFacts, PlayerFacts, PlayerFacts]

    @property
    def fourth_lance(self) -> Lance:
        """JUEGO when anybody holds juego, otherwise PUNTO."""
        return Lance.PUNTO if self.juego is None else Lance.JUEGO

    def winner(self, lance: Lance, among: Sequence[Seat] = SEATS) -> Seat | None:
        """The seat that wins ``lance`` among ``among`` (ties to the seat nearer mano).

        ``None`` when nobody among them holds pares / juego, or for punto when anybody at the
        table holds juego. Leaving a seat out answers the chapter IV question "who wins if
        this player's jugada is annulled" (AMM 4.2.a).
        """
        if among is SEATS:
            return (self.grande, self.chica, self.pares, self.juego, self.punto)[lance]
        if lance is Lance.PUNTO and self.juego is not None:
            return None
        best: Seat | None = None
        best_key = 0
        for seat in sorted(among):
            key = self.players[seat].keys[lance]
            if best is None or key > best_key:
                best, best_key = seat, key
        if best is None or (lance in _HELD_LANCES and best_key == 0):
            return None
        return best

    def holders(self, lance: Lance) -> tuple[bool, bool]:
        """Whether pair A and pair B hold the lance (pares, juego; always for the others)."""
        players = self.players
        return (
            players[0].holds(lance) or players[2].holds(lance),
            players[1].holds(lance) or players[3].holds(lance),
        )

    def values(self, lance: Lance) -> Score:
        """Each pair's pares or juego value: both partners' jugadas summed (seed 000 tanteo)."""
        p = self.players
        if lance is Lance.PARES:
            return _new_score(Score, (p[0].pares_value + p[2].pares_value, p[1].pares_value + p[3].pares_value))
        if lance is Lance.JUEGO:
            return _new_score(Score, (p[0].juego_value + p[2].juego_value, p[1].juego_value + p[3].juego_value))
        raise ValueError(f"el lance {lance.key} no tiene valor de jugada")


_HELD_LANCES: Final = frozenset({Lance.PARES, Lance.JUEGO, Lance.PUNTO})


def showdown(hands: Sequence[Hand], rules: RuleSet = AMM) -> Showdown:
    """Evaluate four hands by seat (0 mano … 3 postre) under ``rules``.

    The hands are not checked against each other (see :func:`parse_deal` for that), so any
    four hands can be compared, e.g. to ask what would have happened.
    """
    try:
        h0, h1, h2, h3 = hands
    except ValueError:
        raise CardCountError(f"un reparto tiene 4 manos, no {len(hands)}") from None
    table: _Table = rules._mus_table or _table(rules)
    if table.real_facts:
        f0, f1, f2, f3 = (evaluate(hand, rules) for hand in hands)
    else:
        facts = table.facts
        f0 = facts[h0.multiset]
        f1 = facts[h1.multiset]
        f2 = facts[h2.multiset]
        f3 = facts[h3.multiset]
    k0, k1, k2, k3 = f0.keys, f1.keys, f2.keys, f3.keys

    # This is the hot path (see benchmarks/engine.py), so each lance's comparison is written
    # out: the highest key wins, and strict ">" leaves a tie with the seat nearer mano.
    # Paso (DESIGN «Rule decisions»; seed 000 tanteo): grande 1, chica 1, pares and juego the
    # winning pair's values (both partners'), punto 1.
    best, grande = k0[0], 0
    if k1[0] > best:
        best, grande = k1[0], 1
    if k2[0] > best:
        best, grande = k2[0], 2
    if k3[0] > best:
        grande = 3

    best, chica = k0[1], 0
    if k1[1] > best:
        best, chica = k1[1], 1
    if k2[1] > best:
        best, chica = k2[1], 2
    if k3[1] > best:
        chica = 3
    paso_b = (grande & 1) + (chica & 1)
    paso_a = 2 - paso_b

    pares: Seat | None
    best, pares = k0[2], 0
    if k1[2] > best:
        best, pares = k1[2], 1
    if k2[2] > best:
        best, pares = k2[2], 2
    if k3[2] > best:
        best, pares = k3[2], 3
    if not best:  # nobody holds pares
        pares = None
    elif pares & 1:
        paso_b += f1.pares_value + f3.pares_value
    else:
        paso_a += f0.pares_value + f2.pares_value

    juego: Seat | None
    punto: Seat | None = None
    best, juego = k0[3], 0
    if k1[3] > best:
        best, juego = k1[3], 1
    if k2[3] > best:
        best, juego = k2[3], 2
    if k3[3] > best:
        best, juego = k3[3], 3
    if best:
        if juego & 1:
            paso_b += f1.juego_value + f3.juego_value
        else:
            paso_a += f0.juego_value + f2.juego_value
    else:  # nobody holds juego: punto
        juego = None
        best, punto = k0[4], 0
        if k1[4] > best:
            best, punto = k1[4], 1
        if k2[4] > best:
            best, punto = k2[4], 2
        if k3[4] > best:
            punto = 3
        if punto & 1:
            paso_b += 1
        else:
            paso_a += 1

    # Same object as Showdown(...), built through the slot descriptors: a frozen dataclass's
    # __init__ alone would cost a third of the showdown.
    result: Showdown = _new(Showdown)
    _set_grande(result, grande)
    _set_chica(result, chica)
    _set_pares(result, pares)
    _set_juego(result, juego)
    _set_punto(result, punto)
    _set_paso(result, _new_score(Score, (paso_a, paso_b)))
    _set_players(result, (f0, f1, f2, f3))
    return result


_new: Final = object.__new__
_new_score: Final = tuple.__new__
_set_grande, _set_chica, _set_pares, _set_juego, _set_punto, _set_paso, _set_players = (
    getattr(Showdown, field.name).__set__ for field in dataclasses.fields(Showdown)
)


def jugada_minima(result: Showdown, lance: Lance) -> bool:
    """Whether pair B's only jugada in ``lance`` is a jugada mínima (AMM 3.12).

    «Con la que es imposible ganar el lance en paso: 2 ases a pares ó 33 al juego, siendo postre
    y sin llevar el compañero». Only postre can hold it, so only pair B.
    """
    postre, partner = result.players[3], result.players[1]
    if lance is Lance.PARES:
        return partner.pares is None and postre.keys[2] == _LOWEST_PAREJA
    if lance is Lance.JUEGO:
        return partner.juego is None and postre.juego == 33
    return False


_LOWEST_PAREJA: Final = 256  # a pareja of the lowest rank: ases (and doses under 8 reyes)


def jugada_maxima(result: Showdown, seat: Seat, lance: Lance, rules: RuleSet = AMM) -> bool:
    """Whether ``seat`` holds a jugada máxima in ``lance`` (AMM 4.1c); see :func:`jugada_maxima_among`."""
    if lance is Lance.PUNTO and result.juego is not None:
        return False  # there is juego: no punto lance
    return jugada_maxima_among(result.players, seat, lance, rules)


def jugada_maxima_among(
    players: Sequence[PlayerFacts | None],
    seat: Seat,
    lance: Lance,
    rules: RuleSet = AMM,
    out: frozenset[Seat] = frozenset(),
) -> bool:
    """Whether ``seat`` holds a jugada máxima in ``lance`` (AMM 4.1c) among the seats not ``out``.

    «4 reyes a grande siendo mano; 4 ases a chica siendo mano; 4 reyes a pares siendo mano sobre
    los que lleven o cualquier par si ningún contrario lleva pares; 31 a juego siendo mano sobre
    los que lleven o cualquier juego si ningún contrario lleva; 30 al punto siendo mano.»
    «Siendo mano» is being first in turn order among the seats that take part in the lance: all
    four in grande, chica and punto (so only mano), the holders in pares and juego («sobre los que
    lleven»). Seats ``out`` (a jugada annulled by AMM 4.2.a, renounced by 3.20.b, cards void by
    2.7.b; ``None`` facts) take no part. Where the rule set admits a 31 real, a plain 31 can lose
    to it, so only the real is máxima.
    """
    mine = players[seat]
    if mine is None or seat in out:
        return False
    top = _table(rules).facts
    if lance is Lance.GRANDE:
        return seat == MANO and mine.keys[0] == max(f.keys[0] for f in top)
    if lance is Lance.CHICA:
        return seat == MANO and mine.keys[1] == max(f.keys[1] for f in top)
    if lance is Lance.PUNTO:
        return seat == MANO and mine.punto == 30

    def holds(other: Seat) -> bool:
        facts = players[other]
        return other not in out and facts is not None and facts.holds(lance)

    if not mine.holds(lance):
        return False
    if not any(holds(other) for other in SEATS if (other & 1) != (seat & 1)):
        return True  # «cualquier par / juego si ningún contrario lleva»
    first = not any(holds(other) for other in SEATS if other < seat)
    if lance is Lance.PARES:
        return first and mine.keys[2] == max(f.keys[2] for f in top)
    return first and (mine.real or (mine.juego == 31 and rules.real_31 is Real31.OFF))
