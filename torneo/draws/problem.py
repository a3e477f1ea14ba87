"""The draw input, checked and put in canonical form, and the priorities as costs.

Canonical form is what makes a draw depend only on the *sets* given and on the seed, never on the
order in which a caller listed them: pair ids are sorted (integers numerically, then texts by code
point), history is reduced to "who has met whom" among the pairs in the draw, and group labels are
numbered in sorted order. Every algorithm downstream works on the indices ``0 .. n-1`` of that
sorted order and consumes random numbers in a fixed order over them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from torneo.draws.errors import DrawUserError

PairId = int | str
GroupLabel = int | str


def id_key(value: PairId) -> tuple[int, int, str]:
    """Sort key of ids and labels: integers first (numerically), then texts (by code point)."""
    if isinstance(value, int):
        return (0, value, "")
    return (1, 0, value)


def show(value: object) -> str:
    """How an id appears in a Spanish message: «p1»."""
    return f"«{value}»"


def _check_id(value: object, what: str) -> PairId:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise DrawUserError(
            f"Identificador de pareja no válido en {what}: {value!r} (debe ser un texto o un número entero)."
        )
    if isinstance(value, str) and not value.strip():
        raise DrawUserError(f"Identificador de pareja vacío en {what}.")
    return value


@dataclass(frozen=True)
class Problem:
    """A draw in canonical form. Vertex ``v`` is the pair ``ids[v]``.

    ``met[v]``: the vertices v has already played (AMM 5.7). ``meetings[(u, v)]`` (``u < v``): how
    many times they played, at least 1 for every pair in ``met``. ``byes[v]``: how many exentas v has
    had (AMM 5.6). ``group[v]``: a group number; pairs without a group each get a group of their own,
    so "same group" never holds for them. ``grouped[v]`` says whether v had a group in the input.
    """

    ids: tuple[PairId, ...]
    met: tuple[frozenset[int], ...]
    meetings: Mapping[tuple[int, int], int]
    byes: tuple[int, ...]
    group: tuple[int, ...]
    grouped: tuple[bool, ...]
    seed: str

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def min_byes(self) -> int:
        return min(self.byes)

    def bye_tier(self, v: int) -> int:
        """0 for the pairs with the fewest exentas; the bye must go to tier 0 (AMM 5.6)."""
        return self.byes[v] - self.min_byes

    def eligible_for_bye(self) -> tuple[int, ...]:
        """The pairs that may get the exenta: those with the fewest exentas so far (AMM 5.6)."""
        low = self.min_byes
        return tuple(v for v in range(self.n) if self.byes[v] == low)

    def is_rematch(self, u: int, v: int) -> bool:
        return v in self.met[u]

    def meeting_count(self, u: int, v: int) -> int:
        """How many times u and v already played each other (0: never)."""
        if v not in self.met[u]:
            return 0
        return self.meetings[(u, v) if u < v else (v, u)]

    @cached_property
    def repeat_depth(self) -> int:
        """K, the most times two pairs of this draw already met: the length of ``Score.repeats``."""
        return max(self.meetings.values(), default=0)

    @cached_property
    def repeat_levels(self) -> tuple[int, ...]:
        """The distinct meeting counts c_1 < c_2 < ... < c_L (all ≥ 1) of the pairs that met.

        ``Score.repeats`` is constant between two consecutive counts, so these L levels are all the
        weights need (see ``rematch_costs``): L ≤ K, and L is small even when K is not.
        """
        return tuple(sorted(set(self.meetings.values())))

    def same_group(self, u: int, v: int) -> bool:
        return self.group[u] == self.group[v]

    def groups(self) -> tuple[tuple[int, ...], ...]:
        """Members of each group number, in canonical order."""
        members: dict[int, list[int]] = {}
        for v, g in enumerate(self.group):
            members.setdefault(g, []).append(v)
        return tuple(tuple(members[g]) for g in sorted(members))


def build_problem(
    pairs: Iterable[PairId],
    *,
    history: Iterable[Iterable[PairId]] = (),
    byes: Iterable[PairId] = (),
    group: Mapping[PairId, GroupLabel] | None = None,
    seed: str,
) -> Problem:
    """Check the input and put it in canonical form; user mistakes raise ``DrawUserError``.

    History entries that name a pair not in this draw are ignored (a manager passes the whole
    tournament's matches, eliminated pairs included); ``byes`` and ``group`` must only name pairs
    in the draw, since a mistake there changes who gets the exenta or who meets whom.
    """
    if not isinstance(seed, str):
        raise DrawUserError("La semilla («seed») debe ser un texto.")
    if isinstance(pairs, str | bytes | Mapping) or not isinstance(pairs, Iterable):
        raise DrawUserError("«pairs» debe ser una lista de identificadores de pareja.")
    seen: set[PairId] = set()
    for raw in pairs:
        pair = _check_id(raw, "«pairs»")
        if pair in seen:
            raise DrawUserError(f"La pareja {show(pair)} aparece dos veces en la lista de parejas del sorteo.")
        seen.add(pair)
    if len(seen) < 2:
        raise DrawUserError(f"Hacen falta al menos dos parejas para hacer un sorteo (hay {len(seen)}).")
    ids = tuple(sorted(seen, key=id_key))
    index = {pair: v for v, pair in enumerate(ids)}
    n = len(ids)

    met: list[set[int]] = [set() for _ in range(n)]
    meetings: dict[tuple[int, int], int] = {}
    if isinstance(history, str | bytes | Mapping) or not isinstance(history, Iterable):
        raise DrawUserError("«history» debe ser una lista de partidas [pareja, pareja].")
    for entry in history:
        if isinstance(entry, str | bytes | Mapping) or not isinstance(entry, Iterable):
            raise DrawUserError(f"Cada partida del historial debe ser una lista de dos parejas: {entry!r}.")
        items = list(entry)
        if len(items) != 2:
            raise DrawUserError(f"Cada partida del historial debe ser una lista de dos parejas: {entry!r}.")
        a = _check_id(items[0], "«history»")
        b = _check_id(items[1], "«history»")
        if a == b:
            raise DrawUserError(f"La partida {items!r} del historial enfrenta a la pareja {show(a)} consigo misma.")
        if a in index and b in index:
            u, v = sorted((index[a], index[b]))
            met[u].add(v)
            met[v].add(u)
            meetings[(u, v)] = meetings.get((u, v), 0) + 1

    bye_counts = [0] * n
    if isinstance(byes, str | bytes | Mapping) or not isinstance(byes, Iterable):
        raise DrawUserError("«byes» debe ser una lista de parejas (una entrada por exenta).")
    for raw in byes:
        pair = _check_id(raw, "«byes»")
        if pair not in index:
            raise DrawUserError(f"La exenta de {show(pair)} no corresponde a ninguna pareja del sorteo.")
        bye_counts[index[pair]] += 1

    labels: dict[int, GroupLabel] = {}
    if group is not None:
        if not isinstance(group, Mapping):
            raise DrawUserError("«group» debe ser un objeto {pareja: grupo}.")
        for raw, label in group.items():
            pair = _check_id(raw, "«group»")
            if pair not in index:
                raise DrawUserError(f"El grupo indicado para {show(pair)} no corresponde a ninguna pareja del sorteo.")
            if isinstance(label, bool) or not isinstance(label, int | str):
                raise DrawUserError(f"El grupo de {show(pair)} debe ser un texto o un número entero, no {label!r}.")
            labels[index[pair]] = label
    numbering = {label: g for g, label in enumerate(sorted(set(labels.values()), key=id_key))}
    next_free = len(numbering)
    group_of: list[int] = []
    for v in range(n):
        if v in labels:
            group_of.append(numbering[labels[v]])
        else:
            group_of.append(next_free)
            next_free += 1

    return Problem(
        ids=ids,
        met=tuple(frozenset(s) for s in met),
        meetings=meetings,
        byes=tuple(bye_counts),
        group=tuple(group_of),
        grouped=tuple(v in labels for v in range(n)),
        seed=seed,
    )


@dataclass(frozen=True)
class Pairing:
    """A draw on vertex indices: matches ``(u, v)`` with ``u < v``, sorted; ``bye`` or None."""

    matches: tuple[tuple[int, int], ...]
    bye: int | None

    @staticmethod
    def of(matches: Iterable[tuple[int, int]], bye: int | None) -> Pairing:
        return Pairing(tuple(sorted((min(u, v), max(u, v)) for u, v in matches)), bye)


@dataclass(frozen=True, order=True)
class Score:
    """The priorities of a draw, compared lexicographically (smaller is better).

    ``bye_tier``: exentas the bye had above the minimum (must be 0, AMM 5.6).

    ``repeats`` (AMM 5.7): ``(r_1, r_2, ..., r_K)`` where ``r_k`` is the number of matches between
    two pairs that already met at least k times, i.e. matches that would be their (k+1)-th meeting
    or later; K is ``Problem.repeat_depth`` (the most times two pairs of the draw met), the same for
    every draw of a problem. ``r_1`` is the number of rematches; among draws with as few rematches,
    the fewest third meetings or later, then fourth, and so on. Empty when nobody met.

    ``cross_group``: matches not inside one group.
    """

    bye_tier: int
    repeats: tuple[int, ...]
    cross_group: int

    @property
    def rematches(self) -> int:
        """Matches between pairs that already met (``r_1``)."""
        return self.repeats[0] if self.repeats else 0


def repeat_vector(counts: Iterable[int], depth: int) -> tuple[int, ...]:
    """``(r_1, ..., r_depth)`` for matches whose pairs met ``counts`` times before (0: never).

    ``r_k`` counts the matches with a count ≥ k (every count must be ≤ ``depth``).
    """
    at = [0] * (depth + 1)
    for c in counts:
        at[c] += 1
    out = [0] * depth
    running = 0
    for k in range(depth, 0, -1):
        running += at[k]
        out[k - 1] = running
    return tuple(out)


def no_repeats(problem: Problem) -> tuple[int, ...]:
    """``Score.repeats`` of a draw without rematches (the lower bound of AMM 5.7)."""
    return (0,) * problem.repeat_depth


def score(problem: Problem, pairing: Pairing) -> Score:
    """Score a complete draw (every pair exactly once is checked by ``check_pairing``)."""
    tier = problem.bye_tier(pairing.bye) if pairing.bye is not None else 0
    counts = (problem.meeting_count(u, v) for u, v in pairing.matches if problem.is_rematch(u, v))
    repeats = repeat_vector(counts, problem.repeat_depth)
    cross = sum(1 for u, v in pairing.matches if not problem.same_group(u, v))
    return Score(tier, repeats, cross)


def rematch_costs(problem: Problem, unit: int, base: int) -> tuple[dict[int, int], int]:
    """Integer costs that make a sum over one draw compare like ``Score.repeats`` (AMM 5.7).

    ``unit``: the cost unit just below (its whole range over one draw must stay below
    ``unit * base``); ``base``: more than the matches of a draw. With the levels c_1 < ... < c_L of
    ``Problem.repeat_levels`` (``(1,)`` when nobody met, so that the ranges do not depend on the
    history's presence), level j (1 = most significant) costs ``U_j = unit * base**(L - j + 1)``,
    and a match whose pairs met c times costs ``Σ U_j`` over the levels with ``c_j ≤ c``. Over a
    draw, level j is paid by ``s_j ≤ matches < base`` matches, where s_j = r_k for every k in
    (c_{j-1}, c_j]: the total is the number ``s_1 s_2 ... s_L`` written in base ``base``, above
    the lower ranges, so it compares like (s_1, ..., s_L), hence like ``repeats`` (same blocks for
    every draw). Returns ``{c: cost}`` for 0 and every c_j, and ``unit * base**(L + 1)``: the unit
    of the next range up (the exenta tier), above every possible total. Python ints: exact.
    """
    levels = problem.repeat_levels or (1,)
    count = len(levels)
    costs = {0: 0}
    total = 0
    for j, c in enumerate(levels):
        total += unit * base ** (count - j)
        costs[c] = total
    return costs, unit * base ** (count + 1)
