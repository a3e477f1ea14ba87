"""One phone flooding a table's clock, on a real server (security, round two, item 2).

Run with ``.venv/bin/python benchmarks/clock_flood.py`` (SQLite in temporary directories, the
embedded defaults). Prints figures and their ratios, asserts nothing; ``--json PATH`` writes them.

What it does, twice, each time on a fresh database and server (gunicorn and a Celery worker with
beat, as benchmarks/load.py starts them):

1. Builds a 16-pair tournament through the site (CSV import, check-ins, round 1 published before a
   juez, every clock started) and gives one player of table 1 an account with an API token.
2. That player floods the table's clock for ``--seconds`` seconds from ``--threads`` threads:
   ``POST …/clocks/<match>/tantos/``, ``…/juego/`` and ``…/undo/`` in a loop, as the probe did
   (2,800 calls in 40 s).
3. Meanwhile, once a second, the staff read ``/salud/`` (its status and beat's last heartbeat, which
   runs on the same periodic queue as the clocks' tick) and the broker's queue is counted (messages
   waiting, from the file-system broker's folder).
4. After the flood, how long until the queue is empty again.

The two runs: **baseline**, the protections of item 2 turned off by their settings
(``RATELIMIT_CLOCK_TAP=""``: no limit on taps; ``PAGES_RENDER_EVERY_SECONDS=0``: every change sends
its pages to render at once, no coalescing) — what the site did before, except that beat's tasks
keep their own queue, which is not a setting; and **protected**, the defaults. The ratios are the
protected figure over the baseline's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import contention
import load

RUNS = {
    "baseline": ["RATELIMIT_CLOCK_TAP=", "PAGES_RENDER_EVERY_SECONDS=0"],
    "protected": [],
}
ACTIONS = [("tantos", b'{"a": 12, "b": 7}'), ("juego", b'{"winner": "A"}'), ("undo", b"{}")]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=40.0, help="how long the flood lasts (default 40)")
    p.add_argument("--threads", type=int, default=8, help="the flooding phone's parallel requests (default 8)")
    p.add_argument("--pairs", type=int, default=16)
    p.add_argument("--drain", type=float, default=120.0, help="wait at most this long for the queue to empty")
    p.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2, as scripts/run.sh)")
    p.add_argument("--threads-per-worker", dest="server_threads", type=int, default=4)
    p.add_argument("--json", type=Path, help="also write the figures here, as JSON")
    p.add_argument("--one", choices=sorted(RUNS), help=argparse.SUPPRESS)  # a run in its own process
    p.add_argument("--seed", type=int, default=2026)
    return p.parse_args(argv)


def player_token(slug: str, table: int) -> tuple[int, str]:
    """An account for the first player of table ``table``'s pair A, with an API token; the match id."""
    from django.contrib.auth.models import User
    from django.db import connections
    from rest_framework.authtoken.models import Token

    from torneo.models import Match, Player

    match = Match.objects.get(round__tournament__slug=slug, round__number=1, table_number=table)
    member = match.pair_a.ordered_members()[0]
    user = User.objects.create_user("movil-inundador", password=None)
    Player.objects.filter(pk=member.player_id).update(user=user)
    token = Token.objects.create(user=user)
    connections.close_all()
    return match.pk, token.key


def queued(var_dir: Path) -> int:
    return sum(1 for _ in (var_dir / "broker" / "queue").glob("*.msg"))


def one_run(name: str, args: argparse.Namespace) -> dict[str, Any]:
    own_dir = Path(tempfile.mkdtemp(prefix=f"torneo-flood-{name}-"))
    var_dir = own_dir / "var"
    var_dir.mkdir()
    os.environ["DATABASE_URL"] = f"sqlite:///{own_dir / 'flood.sqlite3'}"
    contention.setup_django(var_dir)
    world = load.prepare_database(args.pairs)
    server_args = argparse.Namespace(
        workers=args.workers,
        threads=args.server_threads,
        keep_rate_limits=False,
        server_env=RUNS[name],
        no_celery=False,
        worker_nice=0,
    )
    servers = contention.start_servers(server_args, var_dir)
    try:
        world = load.build_through_the_site(servers.url, world, args.pairs, args.seed)
        match_id, token = player_token(world["slug"], world["tables"][0])
        base = f"{servers.url}/api/v1/tournaments/{world['slug']}/clocks/{match_id}"
        health_url = f"{servers.url}/salud/"
        # Beat ticking and the worker answering before the flood starts.
        deadline = time.monotonic() + 60
        while load.call(health_url, token=world["token"])[0] != 200 and time.monotonic() < deadline:
            time.sleep(1)

        statuses: Counter[int] = Counter()
        lock = threading.Lock()
        stop = threading.Event()

        def flood(k: int) -> None:
            i = k
            while not stop.is_set():
                action, body = ACTIONS[i % len(ACTIONS)]
                status, _ = load.call(f"{base}/{action}/", method="POST", data=body, token=token)
                with lock:
                    statuses[status] += 1
                i += 1

        samples: list[dict[str, Any]] = []

        def watch() -> None:
            while not stop.is_set():
                status, body = load.call(health_url, token=world["token"])
                try:
                    beat = json.loads(body)["beat"]["last_tick_seconds_ago"]
                except (ValueError, KeyError, TypeError):
                    beat = None
                samples.append({"salud": status, "beat_age": beat, "queued": queued(var_dir)})
                stop.wait(1.0)

        threads = [threading.Thread(target=flood, args=(k,)) for k in range(args.threads)]
        watcher = threading.Thread(target=watch)
        t0 = time.monotonic()
        watcher.start()
        for thread in threads:
            thread.start()
        time.sleep(args.seconds)
        stop.set()
        for thread in [*threads, watcher]:
            thread.join()
        flood_s = time.monotonic() - t0
        t1 = time.monotonic()
        while queued(var_dir) and time.monotonic() - t1 < args.drain:
            time.sleep(0.5)
        drain_s = time.monotonic() - t1
        ages = [s["beat_age"] for s in samples if s["beat_age"] is not None]
        log = servers.error_log.read_text(errors="replace") if servers.error_log else ""
        errors = sorted({line.strip() for line in log.splitlines() if "Error" in line and not line.startswith(" ")})
        return {
            "taps": sum(statuses.values()),
            "taps_per_s": round(sum(statuses.values()) / flood_s, 1),
            "statuses": {str(k): v for k, v in sorted(statuses.items())},
            "accepted": statuses.get(200, 0),
            "refused_by_the_rules_400": statuses.get(400, 0),
            "refused_429": statuses.get(429, 0),
            "server_errors": sum(v for k, v in statuses.items() if k >= 500 or k == 0),
            "queue_max": max((s["queued"] for s in samples), default=0),
            "queue_after_flood": samples[-1]["queued"] if samples else 0,
            "drain_s": round(drain_s, 1),
            "salud_samples": len(samples),
            "salud_not_200": sum(1 for s in samples if s["salud"] != 200),
            "beat_age_max_s": max(ages, default=None),
            "server_error_kinds": errors[:10],
        }
    finally:
        servers.stop()
        shutil.rmtree(own_dir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.one:
        print(json.dumps(one_run(args.one, args)))
        return 0
    figures: dict[str, dict[str, Any]] = {}
    passed = [f"--{k}={getattr(args, k)}" for k in ("seconds", "threads", "pairs", "drain")]
    for name in RUNS:
        print(f"== {name}: {' '.join(RUNS[name]) or 'los valores por defecto'}", flush=True)
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "VAR_DIR")}
        done = subprocess.run(
            [sys.executable, __file__, "--one", name, *passed], env=env, capture_output=True, text=True, check=False
        )
        if done.returncode:
            print(done.stdout[-2000:], done.stderr[-4000:], sep="\n")
            return done.returncode
        figures[name] = json.loads(done.stdout.strip().splitlines()[-1])
        print(json.dumps(figures[name], ensure_ascii=False), flush=True)
    base, new = figures["baseline"], figures["protected"]
    print("\nMisma inundación, protegido frente a la línea base:")
    for key in ("taps", "accepted", "queue_max", "drain_s", "salud_not_200", "beat_age_max_s"):
        before, after = base[key], new[key]
        ratio = f"{after / before:.2f}×" if isinstance(before, (int, float)) and before else "—"
        print(f"  {key:>16}: {before} → {after}  ({ratio})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
