"""Benchmark of the mus engine: showdowns per second and the time to validate a tournament.

Run with ``.venv/bin/python benchmarks/engine.py`` (``--deals N``, ``--records N``, ``--seed S``).

It times, in one process and on the same random deals:

1. ``scoring.mus.showdown`` (table lookups per distinct hand);
2. a straightforward evaluator, the baseline: sort each hand's ranks and compare tuples;

checks that both give the same winners and paso points, and prints both rates and the ratio
(goal: 10 times). Then it validates ``--records`` random recorded hands (a large tournament:
15,000; goal: under a second), from decoded JSON to findings, written as tables write them
(passes before an envite now and then, a pass declining some envites), and prints the time per
hand also as a multiple of the straightforward evaluator's showdown, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.mus import (
    AMM,
    DECK,
    Hand,
    Lance,
    Pair,
    RecordedHand,
    Score,
    Showdown,
    parse_record,
    record_to_json,
    showdown,
    tanteo,
    validate,
)
from scoring.mus.betting import Action, Bet

# --- the straightforward evaluator (AMM: 8 reyes, no 31 real) --------------------------------

_RANK = {1: 0, 2: 0, 4: 1, 5: 2, 6: 3, 7: 4, 10: 5, 11: 6, 12: 7, 3: 7}
_VALUE = {1: 1, 2: 1, 3: 10, 4: 4, 5: 5, 6: 6, 7: 7, 10: 10, 11: 10, 12: 10}
_JUEGO_ORDER = {31: 8, 32: 7, 40: 6, 37: 5, 36: 4, 35: 3, 34: 2, 33: 1}
_PARES_VALUE = {0: 0, 1: 1, 2: 2, 3: 3}

NaiveResult = tuple[int, int, int | None, int | None, int | None, tuple[int, int]]


def _naive_facts(hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    ranks = sorted((_RANK[card.number] for card in hand.cards), reverse=True)
    grande = tuple(ranks)
    chica = tuple(-rank for rank in reversed(ranks))  # lower is better: negate to compare as "max"
    counts = {rank: ranks.count(rank) for rank in ranks}
    pairs = sorted((rank for rank, n in counts.items() if n == 2), reverse=True)
    if 4 in counts.values():
        pares: tuple[int, ...] = (3, ranks[0], ranks[0])
    elif 3 in counts.values():
        pares = (2, next(rank for rank, n in counts.items() if n == 3))
    elif len(pairs) == 2:
        pares = (3, pairs[0], pairs[1])
    elif len(pairs) == 1:
        pares = (1, pairs[0])
    else:
        pares = (0,)
    total = sum(_VALUE[card.number] for card in hand.cards)
    return grande, chica, pares, total


def _winner(keys: Sequence[tuple[int, ...]]) -> int:
    best = 0
    for seat in range(1, 4):
        if keys[seat] > keys[best]:
            best = seat
    return best


def naive_showdown(hands: Sequence[Hand]) -> NaiveResult:
    facts = [_naive_facts(hand) for hand in hands]
    grande = _winner([f[0] for f in facts])
    chica = _winner([f[1] for f in facts])
    paso = [0, 0]
    paso[grande % 2] += 1
    paso[chica % 2] += 1
    pares_keys = [f[2] for f in facts]
    best = _winner(pares_keys)
    pares: int | None = None
    if pares_keys[best][0]:
        pares = best
        side = best % 2
        paso[side] += sum(_PARES_VALUE[pares_keys[seat][0]] for seat in (side, side + 2))
    totals = [f[3] for f in facts]
    juego_keys = [(_JUEGO_ORDER.get(total, 0),) for total in totals]
    best = _winner(juego_keys)
    juego: int | None = None
    punto: int | None = None
    if juego_keys[best][0]:
        juego = best
        side = best % 2
        paso[side] += sum((3 if totals[seat] == 31 else 2) if totals[seat] >= 31 else 0 for seat in (side, side + 2))
    else:
        punto = _winner([(total,) for total in totals])
        paso[punto % 2] += 1
    return grande, chica, pares, juego, punto, (paso[0], paso[1])


def _same(engine: Showdown, naive: NaiveResult) -> bool:
    return (
        engine.grande,
        engine.chica,
        engine.pares,
        engine.juego,
        engine.punto,
        tuple(engine.paso),
    ) == naive


# --- data -----------------------------------------------------------------------------------


def random_deals(count: int, rng: random.Random) -> list[tuple[Hand, Hand, Hand, Hand]]:
    deals = []
    for _ in range(count):
        cards = rng.sample(DECK, 16)
        deals.append(
            (
                Hand(tuple(cards[0:4])),
                Hand(tuple(cards[4:8])),
                Hand(tuple(cards[8:12])),
                Hand(tuple(cards[12:16])),
            )
        )
    return deals


def _random_lance(lance: Lance, rng: random.Random, holders: tuple[bool, bool]) -> tuple[Bet, ...]:
    if not all(holders) or rng.random() < 0.45:
        return ()
    first = Pair(rng.randrange(2))
    # Passes as tables write them (AMM 3.8 turns): sometimes the turns before the first envite.
    passes = tuple(Bet(Pair(turn % 2), Action.PASO) for turn in range(rng.choice((0, 0, 1, 2)) + first))
    roll = rng.random()
    if roll < 0.4:
        decline = rng.choice((Action.NO_QUIERO, Action.NO_QUIERO, Action.PASO))  # a pass declines too
        return (*passes, Bet(first, Action.ENVIDO, None), Bet(first.other, decline))
    if roll < 0.75:
        return (*passes, Bet(first, Action.ENVIDO, rng.choice((2, 3, 5, 10))), Bet(first.other, Action.QUIERO))
    if roll < 0.95:
        return (
            *passes,
            Bet(first, Action.ENVIDO, 2),
            Bet(first.other, Action.ENVIDO, rng.choice((2, 4))),
            Bet(first, rng.choice((Action.QUIERO, Action.NO_QUIERO))),
        )
    return (*passes, Bet(first, Action.ORDAGO), Bet(first.other, Action.NO_QUIERO))


def random_records(count: int, rng: random.Random) -> list[dict[str, object]]:
    """Recorded hands as the site receives them: decoded JSON with declarations and a claim."""
    records = []
    for deal in random_deals(count, rng):
        result = showdown(deal)
        bets = {}
        for lance in (Lance.GRANDE, Lance.CHICA, Lance.PARES, result.fourth_lance):
            holders = result.holders(lance) if lance in (Lance.PARES, Lance.JUEGO) else (True, True)
            bets[lance] = _random_lance(lance, rng, holders)
        score = (rng.randrange(0, 30), rng.randrange(0, 30))
        counted = tanteo(deal, bets, score=Score(*score))
        record = RecordedHand(
            hands=tuple(str(hand) for hand in deal),
            score=counted.before,
            bets=bets,
        )
        data = record_to_json(record)
        data["declarations"] = [
            {"pares": player.pares is not None, "juego": player.juego is not None} for player in result.players
        ]
        data["claimed"] = {
            "lances": {lance.key: _json_score(counted.points(lance)) for lance in bets},
            "score": _json_score(counted.score),
        }
        records.append(json.loads(json.dumps(data)))
    return records


def _json_score(score: Score) -> dict[str, int]:
    return {"A": score[0], "B": score[1]}


# --- timing ---------------------------------------------------------------------------------


def _rate(function: object, deals: list[tuple[Hand, Hand, Hand, Hand]], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for deal in deals:
            function(deal)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return len(deals) / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--records", type=int, default=15_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    deals = random_deals(args.deals, rng)
    mismatches = sum(not _same(showdown(deal, AMM), naive_showdown(deal)) for deal in deals)
    if mismatches:
        print(f"ERROR: the two evaluators disagree on {mismatches} deals", file=sys.stderr)
        return 1

    engine_rate = _rate(showdown, deals, args.repeat)  # default rules: amm
    naive_rate = _rate(naive_showdown, deals, args.repeat)
    print(f"deals: {len(deals):,} random deals, both evaluators agree on every one")
    print(f"scoring.mus.showdown: {engine_rate:,.0f} showdowns/s")
    print(f"straightforward evaluator (sort ranks, compare tuples): {naive_rate:,.0f} showdowns/s")
    print(f"ratio: {engine_rate / naive_rate:.1f}x (goal: 10x)")

    records = random_records(args.records, rng)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        findings = sum(len(validate(parse_record(record))) for record in records)
        best = min(best, time.perf_counter() - start)
    if findings:
        print(f"ERROR: {findings} findings on correct records", file=sys.stderr)
        return 1
    lines = [json.dumps(record) for record in records]
    start = time.perf_counter()
    for line in lines:
        validate(parse_record(json.loads(line)))
    with_json = time.perf_counter() - start
    print(
        f"validate: {len(records):,} recorded hands in {best:.3f} s from decoded JSON "
        f"({with_json:.3f} s from JSON text) (goal: under 1 s)"
    )
    # Against the same run's baseline, a figure that the machine's load changes little.
    per_hand = best / len(records)
    print(
        f"validate: {per_hand * 1e6:.1f} µs a hand, the time of {per_hand * naive_rate:.1f} showdowns of the "
        "straightforward evaluator above"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
