"""Benchmarks for the draws: prints measured figures, asserts nothing.

Run with ``.venv/bin/python benchmarks/draws.py``. Each section is a function listed in
``SECTIONS``; to add one (e.g. the timing of the draw pages), define it below and append it there.

Section "generator": the time to draw 2,048 pairs with 10 previous rounds of history. The history
is realistic: 10 Swiss-style rounds drawn by the generator itself (score groups, random results),
so previous opponents are concentrated among pairs with similar records — exactly the pairs a
grouped draw wants to put together. Variants: no group preference, score groups (Swiss), groups
by losses (a ceros-style draw), and an odd count (2,047 pairs, so an exenta with a bye history).
Goal: under one second per draw. Two more lines show 30 previous rounds, past the goal's setting.

Section "pages": the public round page (draw by table and by surname, results, verification box)
for 16 and for 1,024 pairs, built through the services in a throwaway SQLite database under a
temporary VAR_DIR and requested through Django's test Client: its time and SQL query count, against
a trivial page (the tournament's ``live.json``) measured in the same run. Goals: the same query
count for 16 and 1,024 pairs; the page within 5 times the trivial one.
``python benchmarks/draws.py pages`` runs only this section (about a minute, mostly the setup).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

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
    time_draw("groups by losses, capped at 3 (ceros)", ids, history, byes, {p: min(losses[p], 3) for p in ids})
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


def _django_in_a_throwaway_database(var_dir: str) -> None:
    """Set Django up on a fresh SQLite database under ``var_dir`` (never the site's own)."""
    import os

    os.environ["VAR_DIR"] = var_dir
    os.environ.pop("DATABASE_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "torneo.settings"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)


def _tournament_with_a_published_round(pairs: int) -> Any:
    """``pairs`` pairs checked in; round 1 drawn before a juez with every result entered (the page
    shows them); round 2 drawn too (round 1's results final, AMM 3.18). All through the services."""
    import random

    from django.contrib.auth.models import User

    from scoring.services.results import result_submit
    from torneo.models import Match, Pair, Tournament, TournamentRole
    from torneo.services.registrations import PlayerData, pair_register
    from torneo.services.rounds import draw_publish, live_draw, round_prepare

    rng = random.Random(pairs)
    tournament = Tournament.objects.create(
        name=f"Banco de pruebas {pairs}",
        slug=f"banco-{pairs}",
        start_date="2026-12-12",
        end_date="2026-12-12",
        status=Tournament.Status.RUNNING,
        format=Tournament.Format.CEROS,
        max_losses=3,
    )
    organizer = User.objects.create(username=f"organizador{pairs}")
    juez = User.objects.create(username=f"juez{pairs}")
    TournamentRole.objects.create(tournament=tournament, user=organizer, role=TournamentRole.Role.ORGANIZER)
    TournamentRole.objects.create(tournament=tournament, user=juez, role=TournamentRole.Role.JUEZ)
    first = ["Ane", "Iker", "Lucía", "Mikel", "Nerea", "Óscar", "Paula", "Unai", "Begoña", "Jon"]
    last = ["Agirre", "Bengoetxea", "Castro", "Díaz", "Etxeberria", "Fernández", "García", "Ibarra", "Muñoz", "Ocaña"]
    for i in range(pairs):
        people = [
            PlayerData(first_name=rng.choice(first), last_name=f"{rng.choice(last)} {rng.choice(last)} {2 * i + k}")
            for k in range(2)
        ]
        pair_register(tournament=tournament, players=people)
    Pair.objects.filter(tournament=tournament).update(checked_in_at="2026-12-12T09:00:00+01:00")
    for number in (1, 2):
        round_ = round_prepare(tournament=tournament, by=organizer)
        draw_publish(draw=live_draw(round_), public_value=f"{number} {pairs}", witness=juez, by=organizer)
        if number == 1:
            for match in round_.matches.filter(outcome=Match.Outcome.PENDING).select_related("round__tournament"):
                loser = rng.randint(0, 2)
                a_wins = rng.random() < 0.5
                result_submit(match=match, by=organizer, games_a=3 if a_wins else loser, games_b=loser if a_wins else 3)
    tournament.refresh_from_db()
    return tournament


class _QueryCounter:
    """Counts the SQL statements run while it is installed (``connection.execute_wrapper``)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


def _get(client: Any, url: str) -> tuple[float, int, int]:
    """One request: its wall time, its SQL statement count and the size of the page in bytes."""
    from django.db import connection

    counter = _QueryCounter()
    with connection.execute_wrapper(counter):
        start = time.perf_counter()
        response = client.get(url)
        elapsed = time.perf_counter() - start
    assert response.status_code == 200, (url, response.status_code)
    return elapsed, counter.count, len(response.content)


def section_pages() -> None:
    """The public round page for 16 and for 1,024 pairs against a trivial page, in the same run.

    The trivial page is the tournament's ``live.json`` (one query, no template). The round page is
    measured "warm" (median of several requests: its body comes from the cache, as for the crowd at
    the wall and on their phones) and "cold" (the first request after a change — a result, a draw —
    bumps the tournament's live version and rebuilds the body from the database; median of 5)."""
    import tempfile

    repetitions = 31
    with tempfile.TemporaryDirectory(prefix="torneo-bench-") as var_dir:
        start = time.perf_counter()
        _django_in_a_throwaway_database(var_dir)
        from django.core.cache import cache
        from django.test import Client

        sizes = (16, 1024)
        tournaments = {n: _tournament_with_a_published_round(n) for n in sizes}
        print("== public round page (rondas/1/: draw by table and by surname, results, verification) ==")
        print(f"  setup: {sizes} pairs in a throwaway SQLite database, {time.perf_counter() - start:.0f} s")
        client = Client()
        trivial_url = f"/torneos/{tournaments[16].slug}/live.json"
        for _ in range(10):  # warm up the URL resolver, templates and the connection
            _get(client, trivial_url)
        trivial_runs = [_get(client, trivial_url) for _ in range(repetitions)]
        trivial = statistics.median(t for t, _q, _b in trivial_runs)
        print(f"  trivial page (live.json): median {trivial * 1000:6.2f} ms, {trivial_runs[0][1]} queries")
        figures: dict[int, tuple[float, int, int]] = {}
        for n in sizes:
            page_url = f"/torneos/{tournaments[n].slug}/rondas/1/"
            cold_runs = []
            for _ in range(5):
                cache.clear()
                cold_runs.append(_get(client, page_url))
            warm_runs = [_get(client, page_url) for _ in range(repetitions)]
            warm = statistics.median(t for t, _q, _b in warm_runs)
            cold = statistics.median(t for t, _q, _b in cold_runs)
            print(
                f"  {n:>5} pairs: warm median {warm * 1000:6.2f} ms = {warm / trivial:4.1f} x trivial, "
                f"{warm_runs[0][1]} queries | cold median {cold * 1000:6.1f} ms = {cold / trivial:5.1f} x, "
                f"{cold_runs[0][1]} queries | {warm_runs[0][2] / 1024:.0f} KB"
            )
            figures[n] = (warm / trivial, warm_runs[0][1], cold_runs[0][1])
        small, large = figures[sizes[0]], figures[sizes[-1]]
        same = small[1:] == large[1:]
        print(
            f"  goals: same queries for {sizes[0]} and {sizes[-1]} pairs: {'yes' if same else 'NO'}; "
            f"{sizes[-1]}-pair page within 5 x trivial: {'yes' if large[0] <= 5 else 'NO'} ({large[0]:.1f} x)"
        )


#: The sections run by ``main``, in order; append new ones here.
SECTIONS: list[Callable[[], None]] = [section_generator, section_pages]


def main() -> None:
    """Run every section, or only those named on the command line (``generator``, ``pages``)."""
    wanted = sys.argv[1:]
    for section in SECTIONS:
        if not wanted or section.__name__.removeprefix("section_") in wanted:
            section()


if __name__ == "__main__":
    main()
