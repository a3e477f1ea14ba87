"""The draw's exact random choice, recomputed from its seed (AMM 5.5), written from the published
specification (docs/draws.md: «Portable randomness», «Canonical form», the ``exact`` method and the
liguillas' allocation), not from the site's code.

Recomputed exactly: every draw of up to 22 vertices (pairs, plus one for the exenta when their
number is odd: up to 22 pairs), which the site's generator always solves by exact counting, and the
allocation of the liguillas. Larger draws use a sampler or a matching whose random choices are not
re-implemented here: for them the verifier checks the properties (5.5–5.7) only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

EXACT_VERTICES = 22
_RNG_DOMAIN = b"torneo-mus/rng/v1\x00"


class Stream:
    """SHA-256 in counter mode: block i is SHA-256(key ‖ i as 8 bytes big-endian), read as four
    64-bit big-endian words, each used once, in order."""

    def __init__(self, seed: str) -> None:
        self.key = hashlib.sha256(_RNG_DOMAIN + seed.encode("utf-8")).digest()
        self.block = 0
        self.words: list[int] = []

    def word(self) -> int:
        if not self.words:
            digest = hashlib.sha256(self.key + self.block.to_bytes(8, "big")).digest()
            self.block += 1
            self.words = [int.from_bytes(digest[k : k + 8], "big") for k in range(0, 32, 8)]
        return self.words.pop(0)

    def below(self, n: int) -> int:
        """Uniform in [0, n): enough words for n − 1, rejected above the last multiple of n."""
        if n == 1:
            return 0
        k = max(1, -(-(n - 1).bit_length() // 64))
        span = 1 << (64 * k)
        while True:
            x = 0
            for _ in range(k):
                x = (x << 64) | self.word()
            if x < span - span % n:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def _order(value: Any) -> tuple[int, int, str]:
    """Canonical order: integers numerically, then texts by code point."""
    return (0, value, "") if isinstance(value, int) else (1, 0, str(value))


def _pair_id(raw: Any, known: set[Any]) -> Any:
    """A pair id as the draw's input names it (JSON turns a group's integer keys into text)."""
    if raw in known:
        return raw
    if isinstance(raw, str) and raw.lstrip("-").isdigit() and int(raw) in known:
        return int(raw)
    return raw


def liguillas(
    pairs: Sequence[Any], groups: int, seed: str, pots: Sequence[Sequence[Any]] | None = None
) -> list[list[Any]]:
    """The liguillas drawn: the pairs in canonical order, shuffled, dealt one by one to the groups;
    seeded by rating, each bombo (``pots``, strongest first) in turn sorted, shuffled with the same
    stream, its i-th pair to liguilla i."""
    stream = Stream(seed)
    dealt: list[list[Any]] = [[] for _ in range(groups)]
    if pots is None:
        members = sorted(set(pairs), key=_order)
        stream.shuffle(members)
        for i, pair in enumerate(members):
            dealt[i % groups].append(pair)
    else:
        for pot in pots:
            members = sorted(pot, key=_order)
            stream.shuffle(members)
            for i, pair in enumerate(members):
                dealt[i].append(pair)
    return [sorted(group, key=_order) for group in dealt]


def halves(request: dict[str, Any], seed: str) -> tuple[list[tuple[Any, Any]], Any]:
    """A Swiss's first round seeded by rating: the others (not in ``top``) in canonical order,
    shuffled; ``top`` in canonical order; top[i] against other[i]; the one left over, the exenta."""
    pairs = sorted(set(request.get("pairs", [])), key=_order)
    top = sorted(set(request.get("top", [])), key=_order)
    other = [p for p in pairs if p not in set(top)]
    Stream(seed).shuffle(other)
    return list(zip(top, other, strict=False)), (other[len(top)] if len(other) > len(top) else None)


def exact_draw(request: dict[str, Any], seed: str) -> tuple[list[tuple[Any, Any]], Any] | None:
    """The draw of ``request`` (pairs, history, byes, group) with ``seed``: its matches and its
    exenta; None when it has more than ``EXACT_VERTICES`` vertices (not recomputed here)."""
    ids = sorted(set(request.get("pairs", [])), key=_order)
    n = len(ids)
    m = n + n % 2
    if m > EXACT_VERTICES or n < 2:
        return None
    at = {pair: v for v, pair in enumerate(ids)}
    known = set(ids)
    met: dict[tuple[int, int], int] = {}
    for entry in request.get("history", []):
        a, b = (_pair_id(x, known) for x in entry)
        if a in at and b in at and a != b:
            key = (min(at[a], at[b]), max(at[a], at[b]))
            met[key] = met.get(key, 0) + 1
    had = [0] * n
    for pair in request.get("byes", []):
        had[at[_pair_id(pair, known)]] += 1
    labels = {at[_pair_id(p, known)]: label for p, label in (request.get("group") or {}).items()}
    numbers = {label: g for g, label in enumerate(sorted(set(labels.values()), key=_order))}
    group = [numbers[labels[v]] if v in labels else len(numbers) + v for v in range(n)]
    # The priorities as digits in base m + 1 (5.6 ≫ 5.7 by meeting level ≫ same group).
    levels = sorted(set(met.values())) or [1]
    base = m + 1
    level_cost = {0: 0}
    running = 0
    for j, c in enumerate(levels):
        running += base ** (len(levels) - j)
        level_cost[c] = running
    bye_unit = base ** (len(levels) + 1)
    fewest = min(had)
    cost = [[0] * m for _ in range(m)]
    for u in range(n):
        for v in range(u + 1, n):
            cost[u][v] = cost[v][u] = level_cost[met.get((u, v), 0)] + (group[u] != group[v])
        if m > n:
            cost[u][n] = cost[n][u] = bye_unit * (had[u] - fewest)
    memo: dict[int, tuple[int, int]] = {0: (0, 1)}

    def best(mask: int) -> tuple[int, int]:
        """The lowest cost of pairing off ``mask`` and how many pairings reach it."""
        if mask not in memo:
            i = (mask & -mask).bit_length() - 1
            rest = mask & ~(1 << i)
            low, ways = -1, 0
            for j in range(i + 1, m):
                if rest >> j & 1:
                    sub, count = best(rest & ~(1 << j))
                    total = cost[i][j] + sub
                    if low < 0 or total < low:
                        low, ways = total, count
                    elif total == low:
                        ways += count
            memo[mask] = (low, ways)
        return memo[mask]

    mask = (1 << m) - 1
    best(mask)
    stream = Stream(seed)
    matches: list[tuple[int, int]] = []
    bye = None
    while mask:
        target = memo[mask][0]
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        options = [
            (j, memo[rest & ~(1 << j)][1])
            for j in range(i + 1, m)
            if rest >> j & 1 and cost[i][j] + memo[rest & ~(1 << j)][0] == target
        ]
        x = stream.below(sum(w for _j, w in options))
        chosen = 0
        while x >= options[chosen][1]:
            x -= options[chosen][1]
            chosen += 1
        j = options[chosen][0]
        if j >= n:
            bye = ids[i]
        else:
            matches.append((ids[i], ids[j]))
        mask = rest & ~(1 << j)
    return matches, bye
