"""A small, documented, portable PRNG: the same seed gives the same draw on any Python.

``random.Random`` is not used on purpose: its algorithms (and ``shuffle``/``randrange``) are not
a stable public contract, and a published draw must be recomputable years later, also from another
language. The generator is SHA-256 in counter mode:

* ``key = SHA-256(b"torneo-mus/rng/v1\\x00" + UTF-8(seed))``
* block ``i`` (i = 0, 1, 2, ...) is ``SHA-256(key + i.to_bytes(8, "big"))``, read as four unsigned
  64-bit big-endian words, consumed in order; each word is used once.
* ``below(n)`` (a uniform integer in ``[0, n)``): if ``n == 1`` it returns 0 and consumes nothing;
  otherwise it takes ``k = ceil(bit_length(n - 1) / 64)`` words (at least one), joins them big-endian
  into an integer ``x < 2**(64k)``, and accepts ``x`` when ``x < 2**(64k) - (2**(64k) mod n)``,
  returning ``x mod n``; otherwise it draws again (rejection, so the result is exactly unbiased).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from torneo.draws.errors import DrawFatalError

T = TypeVar("T")

_DOMAIN = b"torneo-mus/rng/v1\x00"
_WORDS = struct.Struct(">4Q")


class DrawRandom:
    """Deterministic random numbers from a text seed (see the module docstring for the spec)."""

    __slots__ = ("_block", "_buffer", "_key", "draws")

    def __init__(self, seed: str) -> None:
        if not isinstance(seed, str):
            raise DrawFatalError("the seed must be a str")
        self._key = hashlib.sha256(_DOMAIN + seed.encode("utf-8")).digest()
        self._block = 0
        self._buffer: list[int] = []
        #: How many calls to ``below`` with ``n >= 2`` were answered; budgets are counted in
        #: these, never in time, so that a budget runs out at the same point on every machine.
        self.draws = 0

    def next_u64(self) -> int:
        """The next unsigned 64-bit word of the stream."""
        if not self._buffer:
            digest = hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            # Reversed so that pop() hands the words out in stream order.
            self._buffer = list(reversed(_WORDS.unpack(digest)))
        return self._buffer.pop()

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, exactly unbiased (rejection sampling)."""
        if n <= 0:
            raise DrawFatalError(f"below() needs n >= 1, got {n}")
        if n == 1:
            return 0
        self.draws += 1
        words = max(1, -(-(n - 1).bit_length() // 64))
        span = 1 << (64 * words)
        limit = span - span % n
        while True:
            x = 0
            for _ in range(words):
                x = (x << 64) | self.next_u64()
            if x < limit:
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place: position ``i`` (from the end) swaps with ``below(i + 1)``."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def weighted_index(self, weights: Sequence[int]) -> int:
        """An index chosen with probability proportional to its non-negative integer weight."""
        total = sum(weights)
        if total <= 0:
            raise DrawFatalError("weighted_index() needs a positive total weight")
        x = self.below(total)
        for index, weight in enumerate(weights):
            if x < weight:
                return index
            x -= weight
        raise DrawFatalError("weighted_index() fell off the end")  # pragma: no cover
