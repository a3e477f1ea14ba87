"""Benchmarks for the draws: prints measured figures, asserts nothing.

Run with ``.venv/bin/python benchmarks/draws.py``. Each section is a function listed in
``SECTIONS``; to add one (e.g. the timing of the draw pages), define it below and append it there.

Section "generator": the time to draw 2,048 pairs with 10 previous rounds of history. The history
is realistic: 10 Swiss-style rounds drawn by the generator itself (score groups, random results),
so previous opponents are concentrated among pairs with similar records — exactly the pairs a
grouped draw wants to put together. Variants: no group preference, score groups (Swiss), groups
by losses (a ceros-style draw), and an odd count (2,047 pairs, so an exenta with a bye history).
Goal: under one second per draw. Two more lines show 30 previous rounds, past the goal's setting.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from torneo.draws import make_draw
from torneo.draws.problem import GroupLabel, PairId

PAIRS = 2048
ROUNDS = 10
REPETITIONS = 7


def simulate_history(
    pairs: int, rounds: int, seed: int
) -> tuple[list[int], list[tuple[int, int]], list[int], dict[int, int], dict[int, int]]:
    """Pair ids, the matches of ``rounds`` Swiss-style rounds, exentas, wins and losses."""
    results = random.Random(seed)
    ids = list(range(1, pairs + 1))
    history: list[tuple[int, int]] = []
    byes: list[int] = []
    wins = dict.fromkeys(ids, 0)
    losses = dict.fromkeys(ids, 0)
    for round_number in range(rounds):
        draw = make_draw(ids, history=history, byes=byes, group=dict(wins), seed=f"historia {round_number}")
        if draw.bye is not None:
            byes.append(draw.bye)
            wins[draw.bye] += 1
        for a, b in draw.matches:
            history.append((a, b))
            winner, loser = (a, b) if results.random() < 0.5 else (b, a)
            wins[winner] += 1
            losses[loser] += 1
    return ids, history, byes, wins, losses


def time_draw(
    label: str,
    pairs: list[int],
    history: list[tuple[int, int]],
    byes: list[int],
    group: Mapping[PairId, GroupLabel] | None,
) -> None:
    """Draw REPETITIONS times with different seeds; print median and max wall time."""
    times: list[float] = []
    methods: set[str] = set()
    rematches: set[int] = set()
    cross: set[int] = set()
    for repetition in range(REPETITIONS):
        start = time.perf_counter()
        draw = make_draw(pairs, history=history, byes=byes, group=group, seed=f"benchmark {repetition}")
        times.append(time.perf_counter() - start)
        methods.add(draw.method)
        rematches.add(draw.rematches)
        cross.add(draw.cross_group)
    print(
        f"  {label:<44} median {statistics.median(times):6.3f} s   max {max(times):6.3f} s   "
        f"method {'/'.join(sorted(methods))}   rematches {sorted(rematches)}   cross-group {sorted(cross)}"
    )


def section_generator() -> None:
    print(f"== draw generator: {PAIRS} pairs, {ROUNDS} previous rounds, {REPETITIONS} seeds each ==")
    start = time.perf_counter()
    ids, history, byes, wins, losses = simulate_history(PAIRS, ROUNDS, seed=2048)
    print(f"  history: {len(history)} matches simulated in {time.perf_counter() - start:.2f} s")
    time_draw("no group preference", ids, history, byes, None)
    time_draw("score groups (Swiss)", ids, history, byes, wins)
    time_draw(
        "groups by losses, capped at 3 (ceros)", ids, history, byes, {p: min(losses[p], 3) for p in ids}
    )
    odd = ids[:-1]
    time_draw("2047 pairs (exenta), no groups", odd, history, byes, None)
    time_draw("2047 pairs (exenta), score groups", odd, history, byes, {p: wins[p] for p in odd})
    # Beyond the goal: with 30 previous rounds a uniformly random draw almost never avoids every
    # rematch, so the sampler gives way to the construction (method "bound").
    start = time.perf_counter()
    ids, history, byes, wins, _losses = simulate_history(PAIRS, 3 * ROUNDS, seed=30)
    print(f"  history: {len(history)} matches ({3 * ROUNDS} rounds) in {time.perf_counter() - start:.2f} s")
    time_draw(f"{3 * ROUNDS} previous rounds, no group preference", ids, history, byes, None)
    time_draw(f"{3 * ROUNDS} previous rounds, score groups", ids, history, byes, wins)


#: The sections run by ``main``, in order; append new ones here.
SECTIONS: list[Callable[[], None]] = [section_generator]


def main() -> None:
    for section in SECTIONS:
        section()


if __name__ == "__main__":
    main()
