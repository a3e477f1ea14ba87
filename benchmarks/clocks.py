"""Benchmarks for the match clocks (AMM chapter VI): prints measured figures, asserts nothing.

Run with ``.venv/bin/python benchmarks/clocks.py`` (SQLite in a temporary file) or with
``DATABASE_URL=postgres://… .venv/bin/python benchmarks/clocks.py`` (a throwaway database
``test_bench_clocks`` next to the given one). Nothing outside that throwaway database is touched.

Section "tick": ``scoring.services.clocks.clocks_tick``, the body of the beat task that runs every
CLOCK_TICK_SECONDS (5 s by default), over 1,000 running clocks (one round of a 2,000-pair
tournament, clocks started 2 to 58 minutes ago, with juegos tapped, pauses, late pairs and delay
warnings), against an empty tick (no running clocks) measured in the same run, with the queries of
each. Two figures for the 1,000 clocks: a tick with nothing new due (what beat does almost every
time) and the first tick, which writes the events due (its events are deleted between repetitions,
outside the timing). Goal: under 200 ms for 1,000 clocks, and the same queries whatever the clocks.

Section "wall": the public clock wall (``/torneos/<slug>/relojes/``, URL ``scoring:clock_wall``)
of a round of 512 tables against one of 8, with a trivial page of the same site (``live.json``)
measured alternately in the same run. Goal: the query count independent of the number of tables.
When the page does not exist yet, the selector it reads (``scoring.selectors.clocks.round_clocks``)
is measured instead, and the output says so.

Data are bulk-created (pairs, players, a published round, its clocks and their facts), since the
draw and the services that tap the clocks are not what is measured here.
"""

from __future__ import annotations

import datetime
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "torneo.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import NoReverseMatch, reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.models import ClockEvent, ClockJuego, ClockPause, DelayWarning, MatchClock  # noqa: E402
from scoring.selectors.clocks import round_clocks  # noqa: E402
from scoring.services.clocks import clocks_tick  # noqa: E402
from torneo.identity import normalize_name  # noqa: E402
from torneo.models import Match, Pair, PairMember, Player, Round, Tournament  # noqa: E402

TICK_CLOCKS = 1000
WALL_TABLES = (8, 512)
REPEAT = 20


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


def timed(fn: Callable[[], Any], repeat: int = REPEAT, before: Callable[[], Any] | None = None) -> float:
    """The median time of ``fn`` (``before`` runs ahead of each repetition, outside the timing)."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def build_round(tables: int, *, slug: str) -> tuple[Tournament, Round]:
    """A running Swiss tournament of 2 × ``tables`` pairs with round 1 published (no results)."""
    t = Tournament.objects.create(
        name=f"Banco {slug}",
        slug=slug,
        start_date=date(2027, 1, 1),
        end_date=date(2027, 1, 2),
        status=Tournament.Status.RUNNING,
        format=Tournament.Format.SWISS,
        swiss_rounds=5,
    )
    now = timezone.now()
    pairs = 2 * tables
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
    round_ = Round.objects.create(
        tournament=t, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=now
    )
    Match.objects.bulk_create(
        [
            Match(round=round_, table_number=n + 1, slot=n, pair_a=made[2 * n], pair_b=made[2 * n + 1])
            for n in range(tables)
        ]
    )
    return t, round_


def start_clocks(round_: Round, *, seed: int) -> None:
    """Every table's clock started 2 to 58 minutes ago, none decided: juegos tapped as the minutes
    go (each pair short of the 3 juegos to win), tantos of the juego being played, a few late pairs
    complete before minute 15 (6.1.b), pauses closed and open (3.15), delay warnings (6.3)."""
    rng = random.Random(seed)
    now = timezone.now()
    matches = list(round_.matches.order_by("table_number"))
    plans = []
    clocks = []
    for match in matches:
        minute = rng.uniform(2, 58)
        start = now - datetime.timedelta(minutes=minute)
        clock = MatchClock(match=match, started_at=start)
        won = {"A": 0, "B": 0}
        late = rng.random() < 0.04
        if late:
            side = rng.choice("ab")
            arrived = min(minute, rng.uniform(3, 14))
            setattr(clock, f"absent_{side}", True)
            setattr(clock, f"arrived_{side}_at", start + datetime.timedelta(minutes=arrived))
            if arrived > 10:
                won["B" if side == "a" else "A"] += 1  # the juego the late pair lost (6.1.b)
        juegos = []
        for k in range(min(int(minute // 12), 4)):
            short = [s for s in "AB" if won[s] < 2]
            if not short:
                break
            winner = rng.choice(short)
            won[winner] += 1
            juegos.append((winner, start + datetime.timedelta(minutes=minute * (k + 1) / (k + 2.5))))
        if rng.random() < 0.5:
            clock.tantos_a, clock.tantos_b = rng.randint(0, 35), rng.randint(0, 35)
        clocks.append(clock)
        plans.append((match, start, minute, juegos))
    clocks = MatchClock.objects.bulk_create(clocks)
    rows_j, rows_p, rows_w = [], [], []
    for clock, (match, start, minute, juegos) in zip(clocks, plans, strict=True):
        for number, (winner, ended) in enumerate(juegos, start=1):
            rows_j.append(ClockJuego(clock=clock, number=number, winner=winner, ended_at=ended))
        luck = rng.random()
        if luck < 0.03 and minute > 10:
            begin = start + datetime.timedelta(minutes=rng.uniform(1, minute - 6))
            rows_p.append(
                ClockPause(clock=clock, started_at=begin, ended_at=begin + datetime.timedelta(minutes=4), reason="Baño")
            )
        elif luck < 0.04:
            rows_p.append(ClockPause(clock=clock, started_at=now, reason="Consulta al juez"))
        if rng.random() < 0.02:
            side = rng.choice("AB")
            pair = match.pair_a if side == "A" else match.pair_b
            rows_w.append(DelayWarning(clock=clock, pair=pair, side=side, at=now, note="Tarda en cortar"))
    ClockJuego.objects.bulk_create(rows_j)
    ClockPause.objects.bulk_create(rows_p)
    DelayWarning.objects.bulk_create(rows_w)


def section_tick() -> None:
    print(f"== tick: clocks_tick (the beat task's body) over {TICK_CLOCKS:,} running clocks ==")
    with Queries() as empty_q:
        clocks_tick()
    empty = timed(clocks_tick, repeat=200)
    _t, round_ = build_round(TICK_CLOCKS, slug="banco-relojes")
    start_clocks(round_, seed=6)
    running = MatchClock.objects.filter(started_at__isnull=False, finished_at__isnull=True).count()

    def reset() -> None:
        ClockEvent.objects.all().delete()
        MatchClock.objects.update(phase="normal")

    reset()
    with Queries() as first_q:
        written = clocks_tick()
    first = timed(clocks_tick, repeat=7, before=reset)
    clocks_tick()
    with Queries() as steady_q:
        again = clocks_tick()
    steady = timed(clocks_tick)
    still = MatchClock.objects.filter(started_at__isnull=False, finished_at__isnull=True).count()
    print(f"  {running:,} running clocks before, {still:,} after (none decided); median of {REPEAT} ticks")
    print(f"  {'tick':<48} {'queries':>7} {'median':>10} {'vs empty':>10}")
    rows = [
        ("empty (no running clocks)", len(empty_q), empty),
        (f"{running:,} clocks, nothing new due ({again} written)", len(steady_q), steady),
        (f"{running:,} clocks, first tick ({written:,} events written)", len(first_q), first),
    ]
    for name, queries, seconds in rows:
        print(f"  {name:<48} {queries:7d} {1000 * seconds:8.1f} ms {seconds / empty:9.0f}×")
    print("  goal: under 200 ms for 1,000 clocks")


def get(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)


def wall_url(t: Tournament) -> str | None:
    """The clock wall's address, if the page exists and answers."""
    try:
        url = reverse("scoring:clock_wall", args=[t.slug])
    except NoReverseMatch:
        return None
    try:
        return url if Client().get(url).status_code == 200 else None
    except Exception as exc:  # a page being written: measure the selector instead
        print(f"  (the wall page fails: {type(exc).__name__}: {exc})")
        return None


def section_wall() -> None:
    built = {}
    for tables in WALL_TABLES:
        t, round_ = build_round(tables, slug=f"banco-muro-{tables}")
        start_clocks(round_, seed=tables)
        built[tables] = (t, round_)
    clocks_tick()  # what is due applied, as beat would have
    client = Client()
    page = all(wall_url(t) for t, _r in built.values())
    if page:
        print("== wall: the public clock wall /torneos/<slug>/relojes/ (scoring:clock_wall) ==")
    else:
        print("== wall: the page scoring:clock_wall does not exist yet: measuring its selector round_clocks ==")
    print(f"  {'tables':>6} {'queries':>7} {'median':>10} {'vs 8 tables':>12} {'vs live.json':>13}")
    base: float | None = None
    for tables, (t, round_) in built.items():
        if page:
            url = reverse("scoring:clock_wall", args=[t.slug])
            live = f"/torneos/{t.slug}/live.json"
            with Queries() as captured:
                get(client, url)
            wall: list[float] = []
            trivial: list[float] = []
            for _ in range(REPEAT):
                for target, times in ((live, trivial), (url, wall)):
                    start = time.perf_counter()
                    get(client, target)
                    times.append(time.perf_counter() - start)
            median, versus = statistics.median(wall), f"{statistics.median(wall) / statistics.median(trivial):12.1f}×"
        else:
            with Queries() as captured:
                round_clocks(round_, timezone.now())
            median, versus = timed(partial(round_clocks, round_, timezone.now())), f"{'—':>13}"
        base = base or median
        print(f"  {tables:6d} {len(captured):7d} {1000 * median:8.1f} ms {median / base:11.1f}× {versus}")
    print("  goal: the same queries for 8 and 512 tables")


SECTIONS: list[Callable[[], None]] = [section_tick, section_wall]


def main() -> None:
    # Not setup_test_environment(): it instruments every template render, which a real server does not.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings_dict = connection.settings_dict
    if settings_dict["ENGINE"].endswith("sqlite3"):
        tmp = tempfile.mkdtemp(prefix="bench-clocks-")
        settings_dict.setdefault("TEST", {})["NAME"] = os.path.join(tmp, "bench.sqlite3")
    else:
        settings_dict.setdefault("TEST", {})["NAME"] = "test_bench_clocks"
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
