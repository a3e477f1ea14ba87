"""The plain types every part of the engine shares: seats, pairs, lances and a score.

Seats are counted in turn order from mano (0) to postre (3); pair A is mano's pair (seats 0
and 2), pair B the other (seats 1 and 3). Every tie goes to the seat nearer mano.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

Seat = int
"""A seat at the table, 0–3 in turn order: 0 is mano, 3 is postre (GLOSSARY)."""

MANO: Final[Seat] = 0
POSTRE: Final[Seat] = 3
SEATS: Final[tuple[Seat, Seat, Seat, Seat]] = (0, 1, 2, 3)

SEAT_NAMES: Final[tuple[str, str, str, str]] = (
    "asiento 0 (mano)",
    "asiento 1",
    "asiento 2 (compañero del mano)",
    "asiento 3 (postre)",
)
"""How seats are named in messages to users (Spanish)."""


class Pair(enum.IntEnum):
    """A pareja. A is always mano's pair in the hand at hand; the Django layer maps A/B to teams."""

    A = 0
    B = 1

    def __str__(self) -> str:
        return self.name

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (self.value, self.value + 2)

    @property
    def other(self) -> Pair:
        return _OTHER_PAIR[self]

    @classmethod
    def of(cls, seat: Seat) -> Pair:
        """The pair a seat plays for: even seats are A, odd seats are B."""
        return _PAIR_OF_SEAT[seat]

    @classmethod
    def parse(cls, text: str) -> Pair:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"pareja desconocida {text!r}: se esperaba «A» o «B»") from None


_PAIR_OF_SEAT: Final[tuple[Pair, Pair, Pair, Pair]] = (Pair.A, Pair.B, Pair.A, Pair.B)
_OTHER_PAIR: Final[tuple[Pair, Pair]] = (Pair.B, Pair.A)
PAIRS: Final[tuple[Pair, Pair]] = (Pair.A, Pair.B)


class Lance(enum.IntEnum):
    """The lances in the order they are played and counted (AMM 3.13).

    PUNTO replaces JUEGO as the fourth lance when nobody holds juego; the two never meet in one
    hand, so sorting lances always gives the order of the count.
    """

    GRANDE = 0
    CHICA = 1
    PARES = 2
    JUEGO = 3
    PUNTO = 4

    def __str__(self) -> str:
        return self.key

    @property
    def key(self) -> str:
        """The lowercase name used in JSON and in messages: ``grande``, ``chica``…"""
        return _LANCE_KEYS[self]

    @classmethod
    def parse(cls, text: str) -> Lance:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(
                f"lance desconocido {text!r}: se esperaba grande, chica, pares, juego o punto"
            ) from None


_LANCE_KEYS: Final[tuple[str, ...]] = ("grande", "chica", "pares", "juego", "punto")


class Score(NamedTuple):
    """Tantos of each pair; index it with a :class:`Pair` (``score[Pair.B]``)."""

    a: int = 0
    b: int = 0

    def add(self, pair: Pair, points: int) -> Score:
        """The score after ``pair`` wins ``points`` more tantos."""
        # tuple.__new__ directly: NamedTuple's own __new__ is a Python-level lambda.
        if pair is Pair.A:
            return _new_tuple(Score, (self[0] + points, self[1]))
        return _new_tuple(Score, (self[0], self[1] + points))

    def swapped(self) -> Score:
        """The same score seen from the other pair (for the next hand, where mano changes pair)."""
        return Score(self.b, self.a)

    def leader(self, target: int) -> Pair | None:
        """The pair that has reached ``target`` (A first if both did, which never happens in play)."""
        if self.a >= target:
            return Pair.A
        if self.b >= target:
            return Pair.B
        return None


_new_tuple: Final = tuple.__new__

LOVE: Final = Score(0, 0)
"""0–0, the score a juego starts from."""
