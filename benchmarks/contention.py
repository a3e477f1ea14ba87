"""Load test of a real server: parallel result corrections and public registrations over HTTP.

Run with ``.venv/bin/python benchmarks/contention.py`` (SQLite in a temporary directory: the embedded
default of ``scripts/run.sh``) or with ``DATABASE_URL=postgres://… .venv/bin/python benchmarks/contention.py``
(point it at a throwaway database: it migrates it and leaves its two tournaments there).

What it does, in order:

1. Migrates the database and builds, through the same services the site uses, a staff user with an
   API token, a tournament in play (``--pairs`` pairs registered, checked in, round 1 drawn before
   a juez and published) and a second tournament with its registration open.
2. Starts what ``scripts/run.sh`` starts: ``gunicorn torneo.wsgi --workers 2 --threads 4`` on a
   free local port and (unless ``--no-celery``) a Celery worker with beat, with a temporary
   ``VAR_DIR``. With ``--url`` it starts nothing and uses that server instead, which must be
   running on the same ``DATABASE_URL``.
3. Fires, from ``--clients`` threads at once, shuffled together: ``--results`` result corrections
   through the API (each one reads the round's results as the mesa de control would, then posts a
   new result for one of the first ``--tables`` tables with the version it saw: of two corrections
   of the same table at once one wins and the other gets 409, which is correct) and
   ``--registrations`` anonymous registrations through ``POST /api/v1/tournaments/<slug>/registrations/``.
4. Prints the counts by status code and the p50/p95 latencies of each kind of request, checks in
   the database that every 201 it received is there (each registration's pair with its players;
   each accepted result as a version of its match, the match showing the latest one), and exits
   with 1 if any response was a 5xx, any request got no response at all, or anything accepted is
   missing. ``--json PATH`` also writes the figures as JSON (the test tests/torneo/test_contention.py
   reads it).

Rate limits: every registration comes from this one IP, so the servers it starts get
``RATELIMIT_REGISTRATION=1000000/hour`` (torneo/ratelimit.py: the per-IP limit on public
registrations, 10/hour by default) unless the environment already sets it or ``--keep-rate-limits``
is given: the throttle still runs, it just lets the load reach the database. ``--server-env
NAME=VALUE`` (repeatable) adds any other variable for the servers. Against a server of your own
(``--url``), ``--registrations-token`` sends the registrations with the staff token (the staff are
not limited) instead of anonymously. 429s are counted and reported, never taken for server errors.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS_SLUG = "carga-resultados"
REGISTRATION_SLUG = "carga-inscripciones"
FIRST = ["Antonio", "Begoña", "Carmen", "Daniel", "Elena", "Fermín", "Gloria", "Hugo", "Inés", "Jaime"]
LAST = ["Abad", "Barrios", "Cano", "Díaz", "Esteban", "Font", "Garrido", "Herrero", "Ibarra", "Juárez"]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--results", type=int, default=200, help="result corrections (default 200)")
    p.add_argument("--registrations", type=int, default=80, help="public registrations (default 80)")
    p.add_argument("--pairs", type=int, default=16, help="pairs of the tournament in play (default 16)")
    p.add_argument("--tables", type=int, default=4, help="tables the corrections go to (default 4)")
    p.add_argument("--clients", type=int, default=40, help="client threads firing at once (default 40)")
    p.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2, as scripts/run.sh)")
    p.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker (default 4, as run.sh)")
    p.add_argument("--no-celery", action="store_true", help="do not start the Celery worker with beat")
    p.add_argument("--url", help="use this running server (same DATABASE_URL) instead of starting one")
    p.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE", help="for the servers")
    p.add_argument("--registrations-token", action="store_true", help="register with the staff token")
    p.add_argument("--keep-rate-limits", action="store_true", help="leave RATELIMIT_REGISTRATION as it is")
    p.add_argument("--json", type=Path, help="also write the figures here, as JSON")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory (VAR_DIR, SQLite file)")
    p.add_argument("--seed", type=int, default=2026)
    return p.parse_args(argv)


# --- the database: schema, the two tournaments, the checks afterwards ----------------------------


def setup_django(var_dir: Path) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "torneo.settings")
    os.environ["VAR_DIR"] = str(var_dir)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def database_facts() -> dict[str, Any]:
    """The database in use and, on SQLite, what the settings' init_command and OPTIONS made of a
    new connection (the same settings the server's connections get)."""
    from django.conf import settings
    from django.db import connection

    facts: dict[str, Any] = {"vendor": connection.vendor}
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            for pragma in ("journal_mode", "synchronous", "busy_timeout"):
                cursor.execute(f"PRAGMA {pragma}")
                facts[pragma] = cursor.fetchone()[0]
            facts["transaction_mode"] = settings.DATABASES["default"].get("OPTIONS", {}).get("transaction_mode")
            facts["sqlite_version"] = cursor.connection.execute("select sqlite_version()").fetchone()[0]
        else:
            cursor.execute("SELECT version()")
            facts["version"] = cursor.fetchone()[0].split(" on ")[0]
    return facts


def build(*, pairs: int, seed: int) -> dict[str, Any]:
    """Migrate; create the staff user with a token, the tournament in play and the open one.
    Slugs get a suffix when a previous run left its tournaments in the same database."""
    import datetime as dt
    from zoneinfo import ZoneInfo

    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections
    from rest_framework.authtoken.models import Token

    from torneo.models import Match, Pair, Tournament, TournamentRole
    from torneo.services.registrations import PlayerData, pair_check_in, pair_register
    from torneo.services.rounds import draw_publish, live_draw, round_prepare
    from torneo.services.tournaments import session_save, tournament_create

    call_command("migrate", verbosity=0, interactive=False)
    staff, _ = User.objects.get_or_create(username="carga", defaults={"is_staff": True, "is_superuser": True})
    juez, _ = User.objects.get_or_create(username="carga-juez")
    token, _ = Token.objects.get_or_create(user=staff)
    suffix = "" if not Tournament.objects.filter(slug=RESULTS_SLUG).exists() else f"-{int(time.time())}"
    rng = random.Random(seed)
    today = dt.date.today()
    common = {"venue": "Peña El Órdago", "start_date": today, "end_date": today + dt.timedelta(days=1)}
    playing = tournament_create(
        by=staff,
        data={
            **common,
            "name": "Carga: resultados",
            "slug": RESULTS_SLUG + suffix,
            "status": Tournament.Status.REGISTRATION_CLOSED,
        },
    )
    session_save(
        tournament=playing,
        name="Jornada única",
        courtesy_minutes=10,
        starts_at=dt.datetime.combine(today, dt.time(10, 0), tzinfo=ZoneInfo("Europe/Madrid")),
    )
    TournamentRole.objects.create(tournament=playing, user=juez, role=TournamentRole.Role.JUEZ)
    for i in range(pairs):
        people = [PlayerData(FIRST[(2 * i + k) % 10], f"{LAST[i % 10]} Mesa {i} {k}") for k in (0, 1)]
        pair_check_in(pair=pair_register(tournament=playing, players=people, source=Pair.Source.CONTROL))
    round_ = round_prepare(tournament=playing, by=staff)
    draw_publish(draw=live_draw(round_), public_value=str(rng.randint(100, 999)), witness=juez, by=staff)
    tables = sorted(
        round_.matches.filter(outcome=Match.Outcome.PENDING, pair_b__isnull=False).values_list(
            "table_number", flat=True
        )
    )
    registering = tournament_create(
        by=staff,
        data={
            **common,
            "name": "Carga: inscripciones",
            "slug": REGISTRATION_SLUG + suffix,
            "status": Tournament.Status.REGISTRATION_OPEN,
        },
    )
    connections.close_all()  # the servers are other processes: nothing of ours stays open
    return {
        "token": token.key,
        "results_slug": playing.slug,
        "registration_slug": registering.slug,
        "round": round_.number,
        "tables": tables,
        "games_to_win": playing.games_to_win,
    }


def verify(world: dict[str, Any], outcomes: list[Outcome]) -> list[str]:
    """Everything the server accepted (201) must be in the database; returns what is not."""
    from django.db import connections
    from django.db.models import Max

    from scoring.models import ResultSubmission
    from torneo.models import Match, Pair

    problems: list[str] = []
    for o in outcomes:
        if o.status != 201:
            continue
        if o.kind == "registration":
            pair = Pair.objects.filter(tournament__slug=world["registration_slug"], number=o.body["number"]).first()
            wanted = {p["last_name"] for p in o.sent["players"]}
            got = {m.player.last_name for m in pair.ordered_members()} if pair else set()
            if wanted != got:
                problems.append(f"registration {o.body['number']}: sent {sorted(wanted)}, stored {sorted(got)}")
        elif o.kind == "result":
            sub = ResultSubmission.objects.filter(pk=o.body["id"]).select_related("match").first()
            if sub is None or sub.version != o.body["version"] or sub.games_a != o.sent["games_a"]:
                problems.append(f"result {o.body['id']} (table {o.sent['table']}): accepted, not stored as sent")
    matches = Match.objects.filter(round__tournament__slug=world["results_slug"]).annotate(
        latest=Max("submissions__version")
    )
    for match in matches:
        versions = sorted(match.submissions.values_list("version", flat=True))
        if versions != list(range(1, len(versions) + 1)):
            problems.append(f"table {match.table_number}: versions {versions}")
        if (match.latest or 0) != match.result_version:
            problems.append(f"table {match.table_number}: shows version {match.result_version} of {match.latest}")
    registered = Pair.objects.filter(tournament__slug=world["registration_slug"]).count()
    accepted = sum(1 for o in outcomes if o.kind == "registration" and o.status == 201)
    if registered != accepted:
        problems.append(f"{registered} pairs stored for {accepted} registrations accepted")
    connections.close_all()
    return problems


# --- the servers -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# gunicorn's access log as benchmarks/load.py reads it: the moment (wall clock, to the second), the
# method, the path, the status and the microseconds the worker spent on the request (from the
# request read to the answer written: not the time it waited for a free worker).
ACCESS_FORMAT = "%(t)s %(m)s %(U)s %(s)s %(D)s"


@dataclass
class Servers:
    url: str
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    error_log: Path | None = None

    def stop(self) -> None:
        for proc in self.processes:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.processes:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def start_servers(args: argparse.Namespace, var_dir: Path) -> Servers:
    env = {"DJANGO_SETTINGS_MODULE": "torneo.settings", **os.environ, "VAR_DIR": str(var_dir)}
    if not args.keep_rate_limits:
        env.setdefault("RATELIMIT_REGISTRATION", "1000000/hour")
    for item in args.server_env:
        name, _, value = item.partition("=")
        env[name] = value
    port = free_port()
    servers = Servers(url=f"http://127.0.0.1:{port}", error_log=var_dir / "gunicorn-error.log")
    if not args.no_celery:
        celery = [sys.executable, "-m", "celery", "-A", "torneo.celery", "worker", "--loglevel=WARNING", "--pidfile="]
        beat = ["--beat", "--schedule", str(var_dir / "celerybeat-schedule")]
        nice = getattr(args, "worker_nice", 0)
        # As scripts/run.sh and docs/production.md: with a niceness, the worker that renders pages
        # ahead runs below the web, and beat and the clocks' tick (the periodic queue, chapter VI)
        # run in a worker of their own at the web's priority; without one, a single worker with
        # beat does everything.
        workers = (
            [
                ["nice", "-n", str(nice), *celery, "--concurrency=2"],
                [*celery, "-Q", "periodic", "-n", "reloj@%h", "--concurrency=1", *beat],
            ]
            if nice
            else [[*celery, "--concurrency=2", *beat]]
        )
        for k, command in enumerate(workers):
            servers.processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=open(var_dir / ("celery.log" if k == 0 else f"celery-{k}.log"), "wb"),  # noqa: SIM115
                )
            )
    gunicorn = [sys.executable, "-m", "gunicorn", "torneo.wsgi", "--bind", f"127.0.0.1:{port}"]
    gunicorn += ["--workers", str(args.workers), "--threads", str(args.threads)]
    gunicorn += ["--error-logfile", str(servers.error_log)]
    if getattr(args, "access_log", None):  # load.py: the server's own time of each request
        gunicorn += ["--access-logfile", str(args.access_log), "--access-logformat", ACCESS_FORMAT]
    log = open(servers.error_log, "ab")  # noqa: SIM115 (the child keeps it): Django's log goes to stderr
    servers.processes.append(subprocess.Popen(gunicorn, cwd=ROOT, env=env, stdout=log, stderr=log))
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{servers.url}/api/v1/tournaments/", timeout=5) as response:
                if response.status == 200:
                    return servers
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline or servers.processes[-1].poll() is not None:
            servers.stop()
            raise SystemExit(f"gunicorn did not start: see {servers.error_log}")
        time.sleep(0.2)


# --- the load ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    kind: str  # "result", "result-read", "registration"
    status: int  # 0: no HTTP response at all (connection refused or reset, timeout)
    seconds: float
    sent: dict[str, Any] = field(default_factory=dict)
    body: Any = None
    error: str = ""


def request(url: str, *, data: dict[str, Any] | None = None, token: str | None = None) -> tuple[int, Any, str]:
    headers = {"Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Token {token}"
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, headers=headers, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            return response.status, json.loads(response.read() or b"null"), ""
    except urllib.error.HTTPError as exc:
        text = exc.read().decode(errors="replace")
        return exc.code, None, text[:300]
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as exc:
        return 0, None, repr(exc)


def timed(kind: str, url: str, **kwargs: Any) -> Outcome:
    start = time.perf_counter()
    status, body, error = request(url, **kwargs)
    return Outcome(kind, status, time.perf_counter() - start, sent=kwargs.get("data") or {}, body=body, error=error)


def correction(base: str, world: dict[str, Any], table: int, rng: random.Random) -> list[Outcome]:
    """What the mesa de control does: read the round's results, then post the table's result with
    the version it saw (409 if someone else posted in between)."""
    api = f"{base}/api/v1/tournaments/{world['results_slug']}/results/"
    read = timed("result-read", f"{api}?round={world['round']}", token=world["token"])
    version = next((m["version"] for m in read.body or [] if m["table"] == table), 0)
    target = world["games_to_win"]
    loser = rng.randrange(target)
    games = (target, loser) if rng.random() < 0.5 else (loser, target)
    data = {"round": world["round"], "table": table, "games_a": games[0], "games_b": games[1], "version": version}
    return [read, timed("result", api, data=data, token=world["token"])]


def registration(base: str, world: dict[str, Any], n: int, token: str | None) -> list[Outcome]:
    players = [{"first_name": FIRST[(n + k) % 10], "last_name": f"{LAST[n % 10]} Carga {n} {k}"} for k in (0, 1)]
    url = f"{base}/api/v1/tournaments/{world['registration_slug']}/registrations/"
    return [timed("registration", url, data={"players": players}, token=token)]


def fire(args: argparse.Namespace, base: str, world: dict[str, Any]) -> tuple[list[Outcome], float]:
    rng = random.Random(args.seed)
    tables = world["tables"][: args.tables]
    token = world["token"] if args.registrations_token else None
    jobs: list[tuple[str, int, int]] = [("result", tables[i % len(tables)], i) for i in range(args.results)]
    jobs += [("registration", n, n) for n in range(args.registrations)]
    rng.shuffle(jobs)
    barrier = threading.Barrier(min(args.clients, len(jobs)))
    started = threading.local()

    def run(job: tuple[str, int, int]) -> list[Outcome]:
        if not getattr(started, "yes", False):  # every client thread starts at the same instant
            started.yes = True
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait(timeout=30)
        kind, value, index = job
        if kind == "result":
            return correction(base, world, value, random.Random(f"{args.seed}-{index}"))
        return registration(base, world, value, token)

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.clients) as pool:
        outcomes = [o for batch in pool.map(run, jobs) for o in batch]
    return outcomes, time.perf_counter() - start


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def summarize(outcomes: list[Outcome]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for kind in ("result", "registration", "result-read"):
        mine = [o for o in outcomes if o.kind == kind]
        seconds = [o.seconds for o in mine]
        summary[kind] = {
            "count": len(mine),
            "status": dict(sorted(Counter(str(o.status) for o in mine).items())),
            "p50_ms": round(percentile(seconds, 50) * 1000, 1),
            "p95_ms": round(percentile(seconds, 95) * 1000, 1),
            "max_ms": round(max(seconds, default=0) * 1000, 1),
        }
    return summary


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # SIGTERM (a test's timeout, Ctrl-C's cousin) unwinds like Ctrl-C: the servers are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    own_dir = tempfile.mkdtemp(prefix="torneo-load-")
    try:
        return run(args, own_dir)
    finally:
        if args.keep:
            print(f"Directorio temporal conservado: {own_dir}")
        else:
            shutil.rmtree(own_dir, ignore_errors=True)


def run(args: argparse.Namespace, own_dir: str) -> int:
    var_dir = Path(own_dir) / "var"
    var_dir.mkdir()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(own_dir) / 'load.sqlite3'}")
    setup_django(var_dir)
    facts = database_facts()
    print(f"Base de datos: {json.dumps(facts, ensure_ascii=False)}")
    t0 = time.perf_counter()
    world = build(pairs=args.pairs, seed=args.seed)
    print(f"Preparado en {time.perf_counter() - t0:.1f} s: mesas {world['tables']} de la ronda {world['round']}")
    servers = Servers(url=args.url.rstrip("/")) if args.url else start_servers(args, var_dir)
    try:
        outcomes, elapsed = fire(args, servers.url, world)
    finally:
        if not args.url:
            servers.stop()
    summary = summarize(outcomes)
    problems = verify(world, outcomes)
    server_errors = [o for o in outcomes if o.status >= 500 or o.status == 0]
    print(f"{len(outcomes)} peticiones en {elapsed:.1f} s desde {args.clients} clientes contra {servers.url}")
    for kind, figures in summary.items():
        print(f"  {kind:13} {figures}")
    if server_errors:
        print(f"  ¡{len(server_errors)} errores del servidor! {Counter((o.kind, o.status) for o in server_errors)}")
        if servers.error_log and servers.error_log.exists():
            causes = Counter(
                line for line in servers.error_log.read_text(errors="replace").splitlines() if "Error:" in line
            )
            for line, count in causes.most_common(5):
                print(f"    {count} × {line[:200]}")
    if any(o.status == 429 for o in outcomes):
        print("  Aviso: hubo 429 (límite de peticiones): la carga no llegó entera a la base de datos.")
    print(f"Comprobación en la base de datos: {'todo lo aceptado está' if not problems else problems[:10]}")
    if args.json:
        report = {
            "database": facts,
            "elapsed_s": round(elapsed, 2),
            "clients": args.clients,
            "summary": summary,
            "server_errors": len(server_errors),
            "problems": problems,
            "world": {k: v for k, v in world.items() if k != "token"},
            "accepted": {
                "registrations": [o.body["number"] for o in outcomes if o.kind == "registration" and o.status == 201],
                "results": [
                    {"id": o.body["id"], "table": o.sent["table"], "version": o.body["version"]}
                    for o in outcomes
                    if o.kind == "result" and o.status == 201
                ],
            },
        }
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 1 if server_errors or problems else 0


if __name__ == "__main__":
    sys.exit(main())
