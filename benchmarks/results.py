"""Benchmarks for results and standings: prints measured figures, asserts nothing.

Run with ``.venv/bin/python benchmarks/results.py`` (SQLite in a temporary file) or with
``DATABASE_URL=postgres://… .venv/bin/python benchmarks/results.py`` (a throwaway database
``test_bench_results`` next to the given one). Nothing outside that throwaway database is touched.

Section "entry": the time to enter 512 results (one full round of 1,024 pairs) through
``scoring.services.results.result_submit``, the service the entry page and the API call, with its
queries per result.

Section "standings": the public standings page (``/torneos/<slug>/clasificacion/``) of a Swiss
tournament of 1,024 pairs after 8 rounds (4,096 matches with juegos and tantos), and of a 16-pair
one after 8 rounds, against a trivial page of the same site in the same run (``live.json``, one
query). For each: the queries, the *cold* time (the first request after a result: the standings are
computed and rendered) and the *warm* time (every other phone asking for the same version: the body
comes from the cache keyed by the tournament's signature). Goal: queries independent of the number
of pairs; the page within 5 times the trivial one. The classification and bracket pages follow.

Data for the standings are bulk-created (pairs, players, rounds and matches with results), since
the draw is not what is measured here.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "torneo.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.services.results import result_submit  # noqa: E402
from torneo.identity import normalize_name  # noqa: E402
from torneo.models import Match, Pair, PairMember, Player, Round, Tournament, TournamentRole  # noqa: E402

REPEAT = 40


def build(pairs: int, rounds: int, *, slug: str, seed: int = 1, pending_last: bool = False) -> Tournament:
    """A Swiss tournament with `pairs` pairs and `rounds` published rounds of results (the last one
    left pending when `pending_last`), bulk-created."""
    rng = random.Random(seed)
    t = Tournament.objects.create(
        name=f"Banco {slug}",
        slug=slug,
        start_date=date(2027, 1, 1),
        end_date=date(2027, 1, 2),
        status=Tournament.Status.RUNNING,
        format=Tournament.Format.SWISS,
        swiss_rounds=max(rounds, 1),
    )
    now = timezone.now()
    people = []
    for i in range(2 * pairs):
        first, last = f"Jugador{i}", f"Apellido{i} Segundo{i % 97}"
        people.append(
            Player(tournament=t, first_name=first, last_name=last, normalized_name=normalize_name(f"{first} {last}"))
        )
    people = Player.objects.bulk_create(people)
    made = Pair.objects.bulk_create(
        [Pair(tournament=t, number=n + 1, checked_in_at=now, status=Pair.Status.CONFIRMED) for n in range(pairs)]
    )
    PairMember.objects.bulk_create(
        [
            PairMember(
                pair=p,
                player=people[2 * i + k],
                tournament=t,
                position=k + 1,
                identity_key=f"name:{people[2 * i + k].normalized_name}",
            )
            for i, p in enumerate(made)
            for k in (0, 1)
        ]
    )
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(
            tournament=t, number=number, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=now
        )
        order = made[:]
        rng.shuffle(order)
        rows = []
        for table, k in enumerate(range(0, len(order) - 1, 2), start=1):
            a, b = order[k], order[k + 1]
            row = Match(round=round_, table_number=table, slot=table - 1, pair_a=a, pair_b=b)
            if not (pending_last and number == rounds):
                loser = rng.randint(0, 2)
                a_wins = rng.random() < 0.5
                row.outcome = Match.Outcome.PLAYED
                row.games_a, row.games_b = (3, loser) if a_wins else (loser, 3)
                row.winner = a if a_wins else b
                row.tantos_a = 40 * row.games_a + rng.randint(0, 30) * row.games_b
                row.tantos_b = 40 * row.games_b + rng.randint(0, 30) * row.games_a
                row.result_version = 1
            rows.append(row)
        Match.objects.bulk_create(rows)
    return t


class Queries:
    """Counts the queries run inside the block (an execute wrapper: immune to the per-request reset
    of connection.queries)."""

    def __enter__(self) -> Queries:
        self.count = 0
        self._cm = connection.execute_wrapper(self._wrap)
        self._cm.__enter__()
        return self

    def _wrap(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)

    def __exit__(self, *exc: object) -> None:
        self._cm.__exit__(*exc)

    def __len__(self) -> int:
        return self.count


def build_knockout(pairs: int, *, slug: str, seed: int = 2) -> Tournament:
    """A finished knockout (1 cero) of `pairs` pairs, bulk-created: every round pairs the survivors."""
    rng = random.Random(seed)
    t = build(pairs, 0, slug=slug)
    Tournament.objects.filter(pk=t.pk).update(format=Tournament.Format.CEROS, max_losses=1, swiss_rounds=None)
    t.refresh_from_db()
    alive = list(Pair.objects.filter(tournament=t).order_by("number"))
    number = 0
    now = timezone.now()
    while len(alive) > 1:
        number += 1
        round_ = Round.objects.create(
            tournament=t, number=number, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=now
        )
        rows, winners = [], []
        for table, k in enumerate(range(0, len(alive) - 1, 2), start=1):
            a, b = alive[k], alive[k + 1]
            a_wins = rng.random() < 0.5
            loser = rng.randint(0, 2)
            rows.append(
                Match(
                    round=round_,
                    table_number=table,
                    slot=table - 1,
                    pair_a=a,
                    pair_b=b,
                    outcome=Match.Outcome.PLAYED,
                    games_a=3 if a_wins else loser,
                    games_b=loser if a_wins else 3,
                    winner=a if a_wins else b,
                    result_version=1,
                )
            )
            winners.append(a if a_wins else b)
        Match.objects.bulk_create(rows)
        alive = winners
    return t


def timed(fn: Callable[[], Any], repeat: int = REPEAT) -> tuple[float, list[float]]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def get(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)


def section_entry() -> None:
    print("== entry: 512 results of a 1,024-pair round through result_submit ==")
    t = build(1024, 1, slug="banco-entrada", pending_last=True)
    mesa = User.objects.create(username="mesa-banco")
    TournamentRole.objects.create(tournament=t, user=mesa, role=TournamentRole.Role.CONTROL)
    matches = list(Match.objects.filter(round__tournament=t).select_related("round__tournament").order_by("pk"))
    rng = random.Random(5)
    with Queries() as queries:
        start = time.perf_counter()
        for m in matches:
            loser = rng.randint(0, 2)
            games = (3, loser) if rng.random() < 0.5 else (loser, 3)
            result_submit(match=m, by=mesa, games_a=games[0], games_b=games[1], expected_version=0)
        elapsed = time.perf_counter() - start
    print(
        f"  {len(matches)} results in {elapsed:.2f} s: {1000 * elapsed / len(matches):.1f} ms and "
        f"{len(queries) / len(matches):.1f} queries per result (each one a transaction with its row locks)"
    )


def page_figures(client: Client, url: str, t: Tournament) -> tuple[int, float, float, float]:
    """Queries and cold time (median of fresh versions: a result arrived, the cache is empty) of a
    public page, then its warm time and the trivial page's, measured alternately so that a busy
    machine slows both alike."""
    live = f"/torneos/{t.slug}/live.json"
    cold = []
    queries = 0
    for i in range(5):
        Tournament.objects.filter(pk=t.pk).update(live_version=t.live_version + 100 + i)  # a result arrives
        cache.clear()
        with Queries() as captured:
            start = time.perf_counter()
            get(client, url)
            cold.append(time.perf_counter() - start)
        queries = len(captured)
    warm, trivial = [], []
    for _ in range(REPEAT):
        for target, times in ((live, trivial), (url, warm)):
            start = time.perf_counter()
            get(client, target)
            times.append(time.perf_counter() - start)
    return queries, statistics.median(cold), statistics.median(warm), statistics.median(trivial)


def section_standings() -> None:
    print("== public pages after 8 rounds of a Swiss tournament (cold: the first request after a result) ==")
    client = Client()
    for pairs in (16, 1024):
        start = time.perf_counter()
        t = build(pairs, 8, slug=f"banco-{pairs}")
        print(f"  {pairs} pairs, {8 * (pairs // 2)} matches built in {time.perf_counter() - start:.1f} s")
        with Queries() as captured:
            get(client, f"/torneos/{t.slug}/live.json")
        print(f"    trivial page live.json: {len(captured)} query")
        for name, path in (
            ("standings", "clasificacion/"),
            ("classification", "clasificacion/final/"),
            ("bracket", "cuadro/"),
        ):
            report(name, *page_figures(client, f"/torneos/{t.slug}/{path}", t))
    t = build_knockout(1024, slug="banco-cuadro")
    print("  knockout of 1,024 pairs, 10 rounds, 1,023 matches: the bracket page draws them all")
    report("bracket", *page_figures(client, f"/torneos/{t.slug}/cuadro/", t))
    report("classification", *page_figures(client, f"/torneos/{t.slug}/clasificacion/final/", t))


def report(name: str, queries: int, cold: float, warm: float, trivial: float) -> None:
    print(
        f"    {name:<15} {queries:2d} queries   cold {1000 * cold:6.1f} ms ({cold / trivial:5.1f}× trivial)"
        f"   warm {1000 * warm:5.2f} ms ({warm / trivial:4.1f}× trivial {1000 * trivial:4.2f} ms)"
    )


SECTIONS: list[Callable[[], None]] = [section_entry, section_standings]


def main() -> None:
    # Not setup_test_environment(): it instruments every template render, which a real server does not.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings_dict = connection.settings_dict
    tmp = None
    if settings_dict["ENGINE"].endswith("sqlite3"):
        tmp = tempfile.mkdtemp(prefix="bench-results-")
        settings_dict.setdefault("TEST", {})["NAME"] = os.path.join(tmp, "bench.sqlite3")
    else:
        settings_dict.setdefault("TEST", {})["NAME"] = "test_bench_results"
    old_name = settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    try:
        for section in SECTIONS:
            section()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
