"""Benchmark of the player ratings (issue 35): recomputing 10,000 partidas from scratch.

Run with ``.venv/bin/python benchmarks/ratings.py`` (``--games N``, ``--people N``, ``--seed S``).

It times, in one process and on the same random season (``--people`` players in pairs that change
partners now and then, ``--games`` partidas between random pairs, the stronger pair winning more
often):

1. ``circuits.rating.rate``: openskill's Plackett-Luce, every partida in order (what
   ``manage.py ratings_recompute`` runs after reading the partidas);
2. the baseline: a plain Elo update per player over the same partidas (a team's rating the mean
   of its players'), the cheapest rating one could run;

and prints both times, the ratio, and the time against the goal (10,000 partidas under 10 s). It
also checks that the ratings find the strong players: the rank correlation between the players'
hidden strength and their ordinal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from circuits.rating import Game, rate


def season(games: int, people: int, seed: int) -> tuple[list[Game[int]], dict[int, float]]:
    rng = random.Random(seed)
    strength = {p: rng.gauss(0, 1) for p in range(people)}
    out: list[Game[int]] = []
    players = list(range(people))
    for _ in range(games):
        a1, a2, b1, b2 = rng.sample(players, 4)
        edge = (strength[a1] + strength[a2]) - (strength[b1] + strength[b2])
        won = rng.random() < 1 / (1 + 10 ** (-edge / 2))
        out.append(Game((a1, a2), (b1, b2), "a" if won else "b"))
    return out, strength


def elo(games: list[Game[int]]) -> dict[int, float]:
    rating: dict[int, float] = {}
    for g in games:
        ra = sum(rating.get(p, 1500.0) for p in g.a) / len(g.a)
        rb = sum(rating.get(p, 1500.0) for p in g.b) / len(g.b)
        expected = 1 / (1 + 10 ** ((rb - ra) / 400))
        delta = 24 * ((1.0 if g.winner == "a" else 0.0) - expected)
        for p in g.a:
            rating[p] = rating.get(p, 1500.0) + delta
        for p in g.b:
            rating[p] = rating.get(p, 1500.0) - delta
    return rating


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[int]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0] * len(values)
        for r, i in enumerate(order):
            out[i] = r
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    d2 = sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True))
    return 1 - 6 * d2 / (n * (n * n - 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    games, strength = season(args.games, args.people, args.seed)
    start = time.perf_counter()
    ratings = rate(games)
    skill = time.perf_counter() - start
    start = time.perf_counter()
    elo(games)
    baseline = time.perf_counter() - start
    people = sorted(ratings)
    rho = spearman([strength[p] for p in people], [ratings[p].ordinal for p in people])
    print(f"partidas: {len(games):,}  jugadores: {len(ratings):,}")
    ratio = skill / baseline
    print(f"openskill (Plackett-Luce): {skill:.2f} s   Elo (línea base): {baseline:.3f} s   ratio: {ratio:.0f}×")
    print(f"objetivo: {args.games:,} partidas en menos de 10 s → {skill:.2f} s ({10 / skill:.1f}× de margen)")
    print(f"correlación de rangos entre la fuerza oculta y el ordinal: {rho:.2f}")


if __name__ == "__main__":
    main()
