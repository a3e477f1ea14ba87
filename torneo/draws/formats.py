"""Format planners: who is drawn this round, in which pool, and with which ``group`` preference.

Pure functions of the tournament state given as plain data (``PairState``); standings (points,
tiebreaks) are computed elsewhere and arrive here as numbers or as an order. A planner returns a
``RoundPlan`` of ``DrawRequest`` objects; each request is exactly the input of ``make_draw`` (and of
``python -m torneo.draws``, see ``DrawRequest.as_json``), filtered to the pairs in that draw.

Formats:

* ``plan_ceros``: "a N ceros" — a fresh draw among the pairs with fewer than N losses; option
  ``same_losses`` groups pairs by their number of losses.
* ``plan_repesca``: repesca / grupo B — the losers of the first K rounds go to pool B, drawn on its
  own; option ``reentry_round`` brings pool B's survivors back into the main pool.
* ``plan_swiss``: sistema suizo for a set number of rounds, grouped by score.
* Groups then bracket and the fixed final bracket live in ``torneo.draws.liguilla`` and
  ``torneo.draws.bracket``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from torneo.draws.errors import DrawUserError
from torneo.draws.generator import DrawResult, make_draw
from torneo.draws.problem import GroupLabel, PairId, id_key, show

POOL_MAIN = "A"
POOL_REPESCA = "B"


@dataclass(frozen=True)
class PairState:
    """One pair's state before a round, as plain data.

    ``losses``: matches lost so far; ``score``: points for Swiss (from the standings);
    ``first_loss_round``: the round of its first loss (repesca); ``withdrawn``: retired pairs are
    never drawn.
    """

    pair: PairId
    losses: int = 0
    score: int = 0
    first_loss_round: int | None = None
    withdrawn: bool = False


@dataclass(frozen=True)
class DrawRequest:
    """One draw to make: the pairs in it, their history and exentas, and the group preference."""

    label: str
    pairs: tuple[PairId, ...]
    history: tuple[tuple[PairId, PairId], ...] = ()
    byes: tuple[PairId, ...] = ()
    group: Mapping[PairId, GroupLabel] | None = field(default=None)
    top: tuple[PairId, ...] | None = None  # a Swiss's first round seeded by rating: the stronger half

    def seed_for(self, round_seed: str) -> str:
        """Each pool gets its own seed text: ``round_seed + "/" + label`` (the bare seed if no label)."""
        return f"{round_seed}/{self.label}" if self.label else round_seed

    def as_json(self, round_seed: str) -> dict[str, Any]:
        """The ``python -m torneo.draws`` input for this draw, for publication (AMM 5.5)."""
        data: dict[str, Any] = {
            "seed": self.seed_for(round_seed),
            "pairs": list(self.pairs),
            "history": [list(match) for match in self.history],
            "byes": list(self.byes),
        }
        if self.group is not None:
            data["group"] = dict(self.group)
        if self.top is not None:
            data["top"] = list(self.top)
        return data

    def draw(self, round_seed: str) -> DrawResult:
        if self.top is not None:
            from torneo.draws.halves import halves_draw  # halves builds on the generator

            return halves_draw(self.pairs, top=self.top, history=self.history, seed=self.seed_for(round_seed))
        return make_draw(
            self.pairs, history=self.history, byes=self.byes, group=self.group, seed=self.seed_for(round_seed)
        )


@dataclass(frozen=True)
class RoundPlan:
    """The draws of one round; ``decided``: pools with a single pair left (their winner)."""

    round_number: int
    requests: tuple[DrawRequest, ...]
    decided: Mapping[str, PairId] = field(default_factory=dict)
    is_final: bool = False

    def draw(self, round_seed: str) -> dict[str, DrawResult]:
        """Make every draw of the round with its own seed."""
        return {request.label: request.draw(round_seed) for request in self.requests}


def is_final_round(round_number: int, final_from_round: int | None) -> bool:
    """Rondas finales: from the round the organizer marked on (no suplentes there, AMM 5.8.d)."""
    return final_from_round is not None and round_number >= final_from_round


def request_for(
    label: str,
    pairs: Iterable[PairId],
    *,
    history: Iterable[Sequence[PairId]] = (),
    byes: Iterable[PairId] = (),
    group: Mapping[PairId, GroupLabel] | None = None,
) -> DrawRequest:
    """A request restricted to ``pairs``: history and exentas of other pairs are left out."""
    members = tuple(sorted(set(pairs), key=id_key))
    inside = set(members)
    return DrawRequest(
        label=label,
        pairs=members,
        history=tuple((a, b) for a, b in (tuple(m) for m in history) if a in inside and b in inside),
        byes=tuple(sorted((b for b in byes if b in inside), key=id_key)),
        group=None if group is None else {p: g for p, g in group.items() if p in inside},
    )


def _states(pairs: Sequence[PairState]) -> list[PairState]:
    seen: set[PairId] = set()
    for state in pairs:
        if state.pair in seen:
            raise DrawUserError(f"La pareja {show(state.pair)} aparece dos veces en el estado del torneo.")
        if state.losses < 0:
            raise DrawUserError(f"La pareja {show(state.pair)} tiene un número de derrotas negativo.")
        seen.add(state.pair)
    return [state for state in pairs if not state.withdrawn]


def _check_round(round_number: int) -> None:
    if round_number < 1:
        raise DrawUserError(f"El número de ronda debe ser 1 o mayor (es {round_number}).")


def _pool_request(
    label: str,
    members: list[PairState],
    *,
    history: Iterable[Sequence[PairId]],
    byes: Iterable[PairId],
    same_losses: bool,
) -> DrawRequest:
    group = {state.pair: state.losses for state in members} if same_losses else None
    return request_for(label, (s.pair for s in members), history=history, byes=byes, group=group)


def plan_ceros(
    pairs: Sequence[PairState],
    *,
    round_number: int,
    max_losses: int,
    same_losses: bool = False,
    history: Iterable[Sequence[PairId]] = (),
    byes: Iterable[PairId] = (),
    final_from_round: int | None = None,
) -> RoundPlan:
    """A N ceros: draw the pairs with fewer than ``max_losses`` losses (N = 1 is a knockout).

    ``same_losses``: prefer matches between pairs with the same number of losses.
    """
    _check_round(round_number)
    if max_losses < 1:
        raise DrawUserError(f"El número de ceros debe ser 1 o mayor (es {max_losses}).")
    alive = [s for s in _states(pairs) if s.losses < max_losses]
    history, byes = list(history), list(byes)
    requests: tuple[DrawRequest, ...] = ()
    decided: dict[str, PairId] = {}
    if len(alive) >= 2:
        requests = (_pool_request("", alive, history=history, byes=byes, same_losses=same_losses),)
    elif alive:
        decided[""] = alive[0].pair
    return RoundPlan(round_number, requests, decided, is_final_round(round_number, final_from_round))


@dataclass(frozen=True)
class RepescaRules:
    """Repesca / grupo B.

    ``until_round`` (K): pairs whose first loss came in rounds 1..K go to pool B. ``max_losses``:
    a pool A pair is out at this many losses. ``pool_b_max_losses``: a pool B pair is out at this
    many losses in total. ``reentry_round``: from this round on, pool B's survivors are drawn
    together with pool A (None: pool B stays apart, with its own prizes). ``same_losses``: group
    each draw by number of losses.
    """

    until_round: int
    max_losses: int = 1
    pool_b_max_losses: int = 2
    reentry_round: int | None = None
    same_losses: bool = False

    def pool_of(self, state: PairState) -> str:
        if state.first_loss_round is not None and state.first_loss_round <= self.until_round:
            return POOL_REPESCA
        return POOL_MAIN

    def alive(self, state: PairState) -> bool:
        limit = self.pool_b_max_losses if self.pool_of(state) == POOL_REPESCA else self.max_losses
        return state.losses < limit


def plan_repesca(
    pairs: Sequence[PairState],
    *,
    round_number: int,
    rules: RepescaRules,
    history: Iterable[Sequence[PairId]] = (),
    byes: Iterable[PairId] = (),
    final_from_round: int | None = None,
) -> RoundPlan:
    """One draw per pool (labels "A" and "B"), or a single draw "A" from the re-entry round on."""
    _check_round(round_number)
    if rules.until_round < 1 or rules.max_losses < 1 or rules.pool_b_max_losses < 1:
        raise DrawUserError("Las reglas de repesca necesitan rondas y derrotas de 1 o más.")
    if rules.reentry_round is not None and rules.reentry_round <= rules.until_round:
        raise DrawUserError("La ronda de reenganche debe ser posterior a la última ronda con repesca.")
    history, byes = list(history), list(byes)
    pools: dict[str, list[PairState]] = {POOL_MAIN: [], POOL_REPESCA: []}
    merged = rules.reentry_round is not None and round_number >= rules.reentry_round
    for state in _states(pairs):
        if rules.alive(state):
            pools[POOL_MAIN if merged else rules.pool_of(state)].append(state)
    requests: list[DrawRequest] = []
    decided: dict[str, PairId] = {}
    for label, members in pools.items():
        if len(members) >= 2:
            requests.append(_pool_request(label, members, history=history, byes=byes, same_losses=rules.same_losses))
        elif members and not (label == POOL_REPESCA and round_number <= rules.until_round):
            # A lone pool B pair during the repesca rounds waits for the next losers to arrive.
            decided[label] = members[0].pair
    return RoundPlan(round_number, tuple(requests), decided, is_final_round(round_number, final_from_round))


def plan_swiss(
    pairs: Sequence[PairState],
    *,
    round_number: int,
    rounds: int,
    history: Iterable[Sequence[PairId]] = (),
    byes: Iterable[PairId] = (),
    final_from_round: int | None = None,
    strength: Mapping[PairId, float] | None = None,
) -> RoundPlan:
    """Sistema suizo: everybody plays every round, pairs with the same score preferably together.

    The score group is the draw's ``group``: the generator keeps as many matches inside score
    groups as rematch avoidance (AMM 5.7) allows, and the floaters of odd groups meet each other.
    ``strength`` (seeding by rating): the first round is drawn by halves (torneo.draws.halves), the
    stronger half (by strength, then canonical order) each against one of the others.
    """
    _check_round(round_number)
    if rounds < 1:
        raise DrawUserError(f"El suizo necesita al menos una ronda (tiene {rounds}).")
    if round_number > rounds:
        raise DrawUserError(f"El suizo tiene {rounds} rondas; no hay ronda {round_number}.")
    active = _states(pairs)
    requests: tuple[DrawRequest, ...] = ()
    if len(active) >= 2:
        group = {state.pair: state.score for state in active}
        request = request_for("", (s.pair for s in active), history=history, byes=byes, group=group)
        if strength is not None and round_number == 1:
            ordered = sorted(request.pairs, key=lambda p: (-strength.get(p, 0.0), id_key(p)))
            top = tuple(sorted(ordered[: len(ordered) // 2], key=id_key))
            request = DrawRequest(request.label, request.pairs, request.history, request.byes, request.group, top)
        requests = (request,)
    return RoundPlan(round_number, requests, {}, is_final_round(round_number, final_from_round))
