"""The largest event on record, on a real server: 1,146 pairs, 500 phones, 573 results (issue 18).

Run with ``.venv/bin/python benchmarks/load.py`` (SQLite in a temporary directory: the embedded
default) or ``DATABASE_URL=postgres://… .venv/bin/python benchmarks/load.py`` (a throwaway
database: it migrates it and leaves its tournament there). ``--quick`` runs a small version.

What it does, in order:

1. Starts what production runs, on a temporary ``VAR_DIR``: gunicorn (``--workers`` sync
   processes, 2 × cores + 1, one request at a time each, as behind nginx; ``--threads`` for
   threaded ones) and a Celery worker with beat (the clocks' tick every ``CLOCK_TICK_SECONDS``).
2. Builds the tournament **through the site**: the staff user's token, one CSV import of
   ``--pairs`` pairs (``POST …/pairs/import/``), every check-in (``POST …/pairs/<n>/check-in/``),
   round 1 prepared and published before a juez (``…/rounds/prepare/``, ``…/rounds/1/publish/``)
   and every table's clock started (``…/clocks/start/``): from here on beat ticks 573 clocks.
3. Measures a **trivial page on the idle server** (``live.json``: the Django stack, one small
   answer), 1,000 requests back to back in 10 bursts over 20 s (the clocks ticking, no other
   request): the yardstick of the ratios below.
4. Starts ``--phones`` simulated phones that behave like the pages' own script (static/js/live.js):
   each opens one page (its pair's page, the standings, the round's draw or the results, with the
   stylesheet), then polls ``live.json`` every ``--poll`` seconds and fetches its page again when the
   version changed; like browsers, they take gzip (a request's time ends at its last byte). While
   they run, the 573 results are entered **twice**: first by ``--mesas`` mesas de control at a
   human pace (each looks the table up, then posts its result, one every
   ``--mesa-interval`` seconds), then, as corrections of the same tables, flat out by ``--writers``
   writers. A quiet period before each phase lets the phones settle.
5. Prints, for each phase and kind of request, the count, p50/p95/max, the p95 as a ratio to the idle
   trivial page, requests per second, errors by status, the CPU each group of processes took, and
   reads every accepted result back from the database. Exits 1 on any server error (5xx or no
   answer), any accepted result missing, or a Celery worker that stopped (no heartbeat in 30 s).
   ``--json PATH`` writes the figures.

Goals (README, *Speed*): 0 server errors and 0 results lost; at the human pace every public
page's p95 within 5× the idle trivial page and result entry's p95 under 300 ms.
"""

from __future__ import annotations

import argparse
import bisect
import gzip
import html
import io
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import contention

ROOT = Path(__file__).resolve().parents[1]
SLUG = "gran-torneo"
FIRST = ["Antonio", "Begoña", "Carmen", "Daniel", "Elena", "Fermín", "Gloria", "Hugo", "Inés", "Koldo"]
LAST = ["Abad", "Barrios", "Cano", "Díaz", "Esteban", "Font", "Garrido", "Herrero", "Ibarra", "Juárez", "Larrea"]
PUBLIC_KINDS = ("live", "standings", "round", "results", "pair", "static")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=1146, help="pairs (default 1146: Bilbao 2010)")
    p.add_argument("--phones", type=int, default=500, help="simulated phones (default 500)")
    p.add_argument("--poll", type=float, default=10.0, help="seconds between a phone's polls (live.js: 10)")
    p.add_argument("--mesas", type=int, default=4, help="mesas de control at a human pace (default 4)")
    p.add_argument("--mesa-interval", type=float, default=2.0, help="seconds between a mesa's results (default 2)")
    p.add_argument("--writers", type=int, default=12, help="writers flat out (default 12)")
    p.add_argument("--settle", type=float, default=15.0, help="seconds of phones alone before each phase")
    p.add_argument(
        "--phone-processes",
        type=int,
        default=4,
        help="processes for the phones (default 4)",
    )
    p.add_argument("--idle-requests", type=int, default=1000, help="requests of the idle yardstick (bursts of 100)")
    cores = os.cpu_count() or 1
    p.add_argument(
        "--workers",
        type=int,
        default=2 * cores + 1,
        help=f"gunicorn workers (default 2 × cores + 1 = {2 * cores + 1}, as production: docs/production.md)",
    )
    p.add_argument(
        "--threads", type=int, default=1, help="gunicorn threads per worker (default 1: sync workers, as production)"
    )
    p.add_argument("--worker-nice", type=int, default=0, help="the Celery worker's niceness (default 0)")
    p.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE", help="for the servers")
    p.add_argument("--quick", action="store_true", help="a small run: 64 pairs, 40 phones, 2 s polls")
    p.add_argument("--json", type=Path, help="also write the figures here, as JSON")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    p.add_argument("--seed", type=int, default=2010)
    args = p.parse_args(argv)
    if args.quick:
        args.pairs, args.phones, args.poll, args.settle, args.mesa_interval = 64, 40, 2.0, 3.0, 0.3
        args.phone_processes, args.idle_requests = min(args.phone_processes, 2), 200
    # contention.start_servers reads these.
    args.no_celery, args.keep_rate_limits = False, True
    return args


# --- HTTP ------------------------------------------------------------------------------------------


@dataclass
class Hit:
    kind: str
    phase: str
    status: int  # 0: no HTTP answer at all
    seconds: float
    at: float


@dataclass
class Recorder:
    """The requests made, each with the moment it ended. Phases are moments too (``mark``): the
    phones run in other processes, and CLOCK_MONOTONIC is the same clock in all of them, so a hit
    is given the phase it ended in once everything is gathered (``phased``)."""

    hits: list[Hit] = field(default_factory=list)
    marks: list[tuple[float, str]] = field(default_factory=lambda: [(0.0, "build")])
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, status: int, seconds: float) -> None:
        with self.lock:
            self.hits.append(Hit(kind, "", status, seconds, time.monotonic()))

    def mark(self, phase: str) -> None:
        self.marks.append((time.monotonic(), phase))

    def phased(self, hits: list[Hit]) -> list[Hit]:
        starts = [at for at, _ in self.marks]
        return [
            Hit(h.kind, self.marks[bisect.bisect_right(starts, h.at) - 1][1], h.status, h.seconds, h.at) for h in hits
        ]


def fetch(
    url: str,
    *,
    method: str = "GET",
    data: bytes | None = None,
    token: str = "",
    content_type: str = "application/json",
) -> tuple[int, bytes, str]:
    """One request as a browser sends it (taking gzip); the body as it came, and its encoding."""
    headers = {"Accept": "application/json, text/html", "Accept-Encoding": "gzip"}
    if data is not None:
        headers["Content-Type"] = content_type
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read(), response.headers.get("Content-Encoding", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers.get("Content-Encoding", "")
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return 0, b"", ""


def decoded(body: bytes, encoding: str) -> bytes:
    """What the browser makes of a body once it has it all (not the server's time)."""
    return gzip.decompress(body) if encoding == "gzip" else body


def call(url: str, **kwargs: Any) -> tuple[int, bytes]:
    status, body, encoding = fetch(url, **kwargs)
    return status, decoded(body, encoding)


def timed(rec: Recorder, kind: str, url: str, **kwargs: Any) -> tuple[int, bytes]:
    """A request timed until its last byte arrived."""
    start = time.perf_counter()
    status, body, encoding = fetch(url, **kwargs)
    rec.add(kind, status, time.perf_counter() - start)
    return status, decoded(body, encoding)


def api_json(url: str, token: str, payload: Any = None, *, method: str = "POST") -> Any:
    data = json.dumps(payload).encode() if payload is not None else None
    if data is None and method == "POST":
        data = b"{}"
    status, body = call(url, method=method, data=data, token=token)
    if status >= 300:
        raise SystemExit(f"{method} {url}: {status} {body[:400]!r}")
    return json.loads(body or b"null")


# --- building the event through the site ------------------------------------------------------------


def prepare_database(pairs: int) -> dict[str, Any]:
    """Migrate; the staff user with a token, a juez, and the empty tournament (one row each)."""
    import datetime as dt
    from zoneinfo import ZoneInfo

    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections
    from rest_framework.authtoken.models import Token

    from torneo.models import Tournament, TournamentRole
    from torneo.services.tournaments import session_save, tournament_create

    call_command("migrate", verbosity=0, interactive=False)
    staff, _ = User.objects.get_or_create(username="gran-mesa", defaults={"is_staff": True, "is_superuser": True})
    juez, _ = User.objects.get_or_create(username="gran-juez")
    token, _ = Token.objects.get_or_create(user=staff)
    slug = SLUG if not Tournament.objects.filter(slug=SLUG).exists() else f"{SLUG}-{uuid.uuid4().hex[:6]}"
    today = dt.date.today()
    tournament = tournament_create(
        by=staff,
        data={
            "name": "Gran torneo (carga)",
            "slug": slug,
            "venue": "Bilbao Exhibition Centre",
            "start_date": today,
            "end_date": today,
            "status": Tournament.Status.REGISTRATION_CLOSED,
            "max_pairs": pairs + 10,
        },
    )
    session_save(
        tournament=tournament,
        name="Jornada única",
        courtesy_minutes=10,
        starts_at=dt.datetime.combine(today, dt.time(9, 0), tzinfo=ZoneInfo("Europe/Madrid")),
    )
    TournamentRole.objects.create(tournament=tournament, user=juez, role=TournamentRole.Role.JUEZ)
    connections.close_all()
    return {"token": token.key, "slug": slug, "juez": juez.username}


def csv_of(pairs: int, seed: int) -> bytes:
    rng = random.Random(seed)
    out = io.StringIO()
    out.write("nombre_1,apellidos_1,nombre_2,apellidos_2\n")
    for i in range(pairs):
        a, b = rng.choice(FIRST), rng.choice(FIRST)
        out.write(f"{a},{rng.choice(LAST)} {i}-1,{b},{rng.choice(LAST)} {i}-2\n")
    return out.getvalue().encode()


def multipart(name: str, filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            "Content-Type: text/csv\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def build_through_the_site(base: str, world: dict[str, Any], pairs: int, seed: int) -> dict[str, Any]:
    api, token = f"{base}/api/v1/tournaments/{world['slug']}", world["token"]
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    body, content_type = multipart("file", "parejas.csv", csv_of(pairs, seed))
    status, answer = call(f"{api}/pairs/import/", method="POST", data=body, token=token, content_type=content_type)
    if status != 201 and status != 200:
        raise SystemExit(f"CSV import: {status} {answer[:400]!r}")
    timings["import_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(
            pool.map(
                lambda n: call(f"{api}/pairs/{n}/check-in/", method="POST", data=b"", token=token)[0],
                range(1, pairs + 1),
            )
        )
    bad = Counter(s for s in statuses if s >= 300 or s == 0)
    if bad:
        raise SystemExit(f"check-ins refused: {dict(bad)}")
    timings["check_ins_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    prepared = api_json(f"{api}/rounds/prepare/", token, {})
    number = prepared["number"]
    api_json(f"{api}/rounds/{number}/publish/", token, {"public_value": "1146", "witness": world["juez"]})
    timings["draw_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    api_json(f"{api}/clocks/start/", token, {"round": number})
    timings["clocks_s"] = time.perf_counter() - t0
    state = api_json(f"{api}/results/pending/?round={number}", token, method="GET")
    tables = sorted(m["table"] for m in state["missing"] if m["b"] is not None)
    return {**world, "round": number, "tables": tables, "timings": timings}


# --- the phones ------------------------------------------------------------------------------------


def phone(base: str, world: dict[str, Any], index: int, rec: Recorder, stop: threading.Event, poll: float) -> None:
    """One phone, as static/js/live.js: its page once (and the stylesheet), then the page's own
    ``data-live`` URL every ``poll`` seconds, and the page again when the version there differs from
    the one the page says it shows (``data-live-version``)."""
    rng = random.Random(index)
    slug = world["slug"]
    pages = {
        "pair": f"{base}/torneos/{slug}/parejas/{rng.randint(1, world['pairs'])}/ficha/",
        "standings": f"{base}/torneos/{slug}/clasificacion/",
        "round": f"{base}/torneos/{slug}/rondas/{world['round']}/",
        "results": f"{base}/torneos/{slug}/resultados/",
    }
    kind = rng.choices(list(pages), weights=[50, 20, 20, 10])[0]
    url = pages[kind]
    stop.wait(rng.random() * poll)  # phones arrive spread over one poll
    if stop.is_set():
        return
    live, version = live_of(base, *timed(rec, kind, url))
    timed(rec, "static", f"{base}/static/css/site.css")
    while not stop.wait(poll * rng.uniform(0.9, 1.1)):
        if live is None:
            live, version = live_of(base, *timed(rec, kind, url))
            continue
        status, body = timed(rec, "live", live)
        if status == 200 and str(json.loads(body)["version"]) != version:
            live, version = live_of(base, *timed(rec, kind, url))


def phone_process(base: str, world: dict[str, Any], indices: list[int], poll: float, stop: Any, out: Any) -> None:
    """One process of phones: real phones do not share one interpreter lock, and the time a phone
    thread waits for it is not the server's. Sends back its hits when ``stop`` is set."""
    rec, halt = Recorder(), threading.Event()
    threads = [threading.Thread(target=phone, args=(base, world, i, rec, halt, poll), daemon=True) for i in indices]
    for t in threads:
        t.start()
    stop.wait()
    halt.set()
    for t in threads:
        t.join(timeout=130)
    with rec.lock:
        out.put([(h.kind, h.status, h.seconds, h.at) for h in rec.hits])


def live_of(base: str, status: int, body: bytes) -> tuple[str | None, str | None]:
    """The page's live.json URL and the version it shows (its <main data-live… data-live-version…>)."""
    if status != 200:
        return None, None
    found = re.search(rb'data-live="([^"]+)" data-live-version="(\d+)"', body)
    if not found:
        return None, None
    return base + html.unescape(found.group(1).decode()), found.group(2).decode()


# --- the mesas -------------------------------------------------------------------------------------


@dataclass
class Entered:
    table: int
    status: int
    id: int | None
    version: int | None
    games: tuple[int, int]


def enter(base: str, world: dict[str, Any], table: int, rec: Recorder, rng: random.Random) -> Entered:
    """What a mesa does for one acta: look the table up, post its result with the version seen."""
    api, token = f"{base}/api/v1/tournaments/{world['slug']}/results", world["token"]
    status, body = timed(rec, "lookup", f"{api}/lookup/?round={world['round']}&table={table}", token=token)
    version = json.loads(body).get("version", 0) if status == 200 else 0
    target = world["games_to_win"]
    loser = rng.randrange(target)
    games = (target, loser) if rng.random() < 0.5 else (loser, target)
    payload = {"round": world["round"], "table": table, "games_a": games[0], "games_b": games[1], "version": version}
    status, body = timed(rec, "result", api + "/", method="POST", data=json.dumps(payload).encode(), token=token)
    answer = json.loads(body) if status == 201 else {}
    return Entered(table, status, answer.get("id"), answer.get("version"), games)


def human_pace(base: str, world: dict[str, Any], rec: Recorder, mesas: int, interval: float) -> list[Entered]:
    """``mesas`` mesas, each with its share of the tables, one acta every ``interval`` s (± 30%)."""
    shares = [world["tables"][i::mesas] for i in range(mesas)]

    def mesa(index: int) -> list[Entered]:
        rng = random.Random(f"mesa-{index}")
        done = []
        for table in shares[index]:
            start = time.monotonic()
            done.append(enter(base, world, table, rec, rng))
            time.sleep(max(0.0, interval * rng.uniform(0.7, 1.3) - (time.monotonic() - start)))
        return done

    with ThreadPoolExecutor(max_workers=mesas) as pool:
        return [e for batch in pool.map(mesa, range(mesas)) for e in batch]


def flat_out(base: str, world: dict[str, Any], rec: Recorder, writers: int) -> list[Entered]:
    tables = list(world["tables"])
    random.Random(7).shuffle(tables)
    with ThreadPoolExecutor(max_workers=writers) as pool:
        return list(pool.map(lambda t: enter(base, world, t, rec, random.Random(f"flat-{t}")), tables))


def lost_results(world: dict[str, Any], entered: list[Entered]) -> list[str]:
    """Every accepted result read back from the database: the version and the games as sent, and
    each partida showing its latest version."""
    from django.db import connections

    from scoring.models import ResultSubmission
    from torneo.models import Match

    problems = []
    accepted = {e.id: e for e in entered if e.status == 201}
    stored = {s.pk: s for s in ResultSubmission.objects.filter(pk__in=list(accepted))}
    for pk, e in accepted.items():
        s = stored.get(pk)
        if s is None or (s.version, s.games_a, s.games_b) != (e.version, *e.games):
            problems.append(f"table {e.table}: accepted as version {e.version}, not stored as sent")
    for match in Match.objects.filter(round__tournament__slug=world["slug"], round__number=world["round"]):
        latest = match.submissions.order_by("-version").values_list("version", flat=True).first() or 0
        if latest != match.result_version:
            problems.append(f"table {match.table_number}: shows version {match.result_version} of {latest}")
    connections.close_all()
    return problems


# --- where the CPU went ------------------------------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of a process and all its descendants, the living ones and those
    already reaped (their parents' cutime/cstime). Linux /proc; 0 elsewhere."""
    stats: dict[int, tuple[int, float]] = {}  # pid -> (parent, its CPU seconds with its reaped children)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # after the command: state, ppid, …; utime, stime, cutime, cstime are fields 14-17 of stat(5)
        stats[int(entry.name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]) / TICKS)
    children: dict[int, list[int]] = defaultdict(list)
    for child, (parent, _) in stats.items():
        children[parent].append(child)
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += stats.get(current, (0, 0.0))[1]
        todo.extend(children[current])
    return total


def named_cpu_seconds(name: str) -> float:
    """CPU seconds (user + system) of the process trees whose root has this command name:
    PostgreSQL's server (``postgres``: the postmaster, nobody's child here, and its backends, the
    ones that ended too, in its cutime/cstime). Linux /proc; 0 elsewhere."""
    names: dict[int, tuple[str, int]] = {}  # pid -> (command, parent)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command, rest = (entry / "stat").read_text().split(" (", 1)[1].rsplit(")", 1)
        except (OSError, IndexError, ValueError):
            continue
        names[int(entry.name)] = (command, int(rest.split()[1]))
    roots = [pid for pid, (command, parent) in names.items() if command == name and names.get(parent, ("",))[0] != name]
    return sum(tree_cpu_seconds(pid) for pid in roots)


def cpu_wait_seconds() -> float:
    """Seconds during which some runnable process waited for a core (Linux's pressure stall
    information, /proc/pressure/cpu "some"): the share of a phase when a request's process could
    not run at once because every core was taken. 0 where the kernel does not tell."""
    try:
        some = Path("/proc/pressure/cpu").read_text().splitlines()[0]
    except (OSError, IndexError):
        return 0.0
    return int(some.rsplit("total=", 1)[1]) / 1_000_000


@dataclass
class CpuMeter:
    """CPU seconds per group of processes (the web server, the Celery worker with beat, the load),
    read at each phase's start: how much of the machine each took during the phase."""

    groups: dict[str, Any]  # name -> a function answering CPU seconds so far
    readings: list[tuple[str, float, dict[str, float]]] = field(default_factory=list)

    def read(self, phase: str) -> None:
        self.readings.append((phase, time.monotonic(), {g: seconds() for g, seconds in self.groups.items()}))

    def shares(self) -> dict[str, dict[str, float]]:
        """Per phase, each group's CPU as a percentage of one core (200 = both cores of this machine)."""
        out = {}
        for (phase, t0, a), (_, t1, b) in zip(self.readings, self.readings[1:], strict=False):
            out[phase] = {g: round(100 * (b[g] - a[g]) / (t1 - t0), 1) for g in a}
        return out


def worker_state(servers: contention.Servers) -> dict[str, Any]:
    """Whether the Celery worker with beat is still there at the end and ran the heartbeat lately
    (beat sends it every 10 s): a worker that stopped mid-run stops the clocks and the pages
    rendered ahead, and the run fails."""
    from django.db import connections
    from django.utils import timezone

    from torneo.models import WorkerHeartbeat

    beat = WorkerHeartbeat.objects.filter(name="beat").first()
    age = None if beat is None else round((timezone.now() - beat.beat_at).total_seconds(), 1)
    connections.close_all()
    alive = servers.processes[0].poll() is None
    return {"alive": alive, "heartbeat_age_s": age, "ok": alive and age is not None and age < 30}


# --- figures ---------------------------------------------------------------------------------------


def pct(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def figures(hits: list[Hit], idle_p95: float) -> dict[str, Any]:
    by_phase: dict[str, dict[str, Any]] = {}
    phases = sorted({h.phase for h in hits}, key=[h.phase for h in hits].index)
    for phase in phases:
        mine = [h for h in hits if h.phase == phase]
        span = (max(h.at for h in mine) - min(h.at for h in mine)) or 1.0
        table: dict[str, Any] = {"seconds": round(span, 1), "requests_per_s": round(len(mine) / span, 1)}
        for kind in (*PUBLIC_KINDS, "lookup", "result"):
            of_kind = [h for h in mine if h.kind == kind]
            if not of_kind:
                continue
            ok = [h.seconds for h in of_kind if 200 <= h.status < 400]
            p95 = pct(ok, 95)
            table[kind] = {
                "count": len(of_kind),
                "p50_ms": round(pct(ok, 50) * 1000, 1),
                "p95_ms": round(p95 * 1000, 1),
                "max_ms": round(max(ok, default=0) * 1000, 1),
                "p95_ratio": round(p95 / idle_p95, 1) if idle_p95 else None,
                "errors": dict(Counter(str(h.status) for h in of_kind if not 200 <= h.status < 400)),
            }
        by_phase[phase] = table
    return by_phase


def print_table(name: str, table: dict[str, Any]) -> None:
    print(f"\n{name}: {table['seconds']} s, {table['requests_per_s']} peticiones/s")
    print(f"  {'tipo':10} {'n':>6} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9} {'p95/idle':>9}  errores")
    for kind in (*PUBLIC_KINDS, "lookup", "result"):
        if kind in table:
            f = table[kind]
            print(
                f"  {kind:10} {f['count']:>6} {f['p50_ms']:>9} {f['p95_ms']:>9} {f['max_ms']:>9} "
                f"{f['p95_ratio']!s:>8}×  {f['errors'] or '-'}"
            )


# --- the run ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    own_dir = tempfile.mkdtemp(prefix="torneo-event-")
    try:
        return run(args, Path(own_dir))
    finally:
        if args.keep:
            print(f"Directorio temporal conservado: {own_dir}")
        else:
            shutil.rmtree(own_dir, ignore_errors=True)


def run(args: argparse.Namespace, own_dir: Path) -> int:
    var_dir = own_dir / "var"
    var_dir.mkdir()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{own_dir / 'event.sqlite3'}")
    contention.setup_django(var_dir)
    facts = contention.database_facts()
    print(f"Base de datos: {json.dumps(facts, ensure_ascii=False)}")
    world = prepare_database(args.pairs)
    servers = contention.start_servers(args, var_dir)
    rec = Recorder()
    stop: Any = None
    worker: dict[str, Any] = {"ok": False}
    entered: list[Entered] = []
    report: dict[str, Any] = {"database": facts, "args": {k: str(v) for k, v in vars(args).items()}}
    try:
        t0 = time.perf_counter()
        world = build_through_the_site(servers.url, world, args.pairs, args.seed)
        world["pairs"], world["games_to_win"] = args.pairs, 3
        print(f"Torneo construido por la web en {time.perf_counter() - t0:.1f} s: {args.pairs} parejas, ", end="")
        print(f"{len(world['tables'])} mesas · {json.dumps({k: round(v, 1) for k, v in world['timings'].items()})}")
        games = api_json(f"{servers.url}/api/v1/tournaments/{world['slug']}/", world["token"], method="GET").get(
            "games_to_win"
        )
        world["games_to_win"] = games or 3

        rec.mark("idle")
        live = f"{servers.url}/torneos/{world['slug']}/live.json"
        # 1,000 requests back to back, in 10 bursts of 100 two seconds apart: 20 s, so that the
        # window holds the server's own periodic work (beat's tick of every clock, every 5 s) in
        # its share, as any window of the run does. 200 requests in one burst (0.3 s) measured a
        # p95 of 0.9 to 2.0 ms from run to run, as a tick fell in it or not. (A lone request every
        # 20 ms measures more, p50 2.0 ms, the server waking for each: not used, it would flatter.)
        for burst in range(args.idle_requests // 100):
            if burst:
                time.sleep(2.0)
            for _ in range(100):
                timed(rec, "live", live)
        idle = [h.seconds for h in rec.hits if h.status == 200]
        idle_p95 = pct(idle, 95)
        print(f"Página trivial (live.json) con el servidor en reposo: p50 {pct(idle, 50) * 1000:.1f} ms, ", end="")
        print(f"p95 {idle_p95 * 1000:.1f} ms")

        context = multiprocessing.get_context("fork")
        stop, out = context.Event(), context.Queue()
        procs = [
            context.Process(
                target=phone_process,
                args=(servers.url, world, list(range(args.phones))[k :: args.phone_processes], args.poll, stop, out),
                daemon=True,
            )
            for k in range(args.phone_processes)
        ]
        for proc in procs:
            proc.start()
        web, celery = servers.processes[-1].pid, servers.processes[0].pid
        cpu = CpuMeter(
            {
                "web": lambda: tree_cpu_seconds(web),
                "celery": lambda: tree_cpu_seconds(celery),
                "load": lambda: sum(os.times()[:2]) + sum(tree_cpu_seconds(p.pid or 0) for p in procs),
                **({"postgresql": lambda: named_cpu_seconds("postgres")} if facts["vendor"] == "postgresql" else {}),
                "cpu_wait": cpu_wait_seconds,
            }
        )
        for phase, action in (
            ("phones", lambda: time.sleep(args.poll + args.settle)),
            ("human", lambda: entered.extend(human_pace(servers.url, world, rec, args.mesas, args.mesa_interval))),
            ("between", lambda: time.sleep(args.settle)),
            ("flat", lambda: entered.extend(flat_out(servers.url, world, rec, args.writers))),
            ("after", lambda: time.sleep(args.poll)),
        ):
            rec.mark(phase)
            cpu.read(phase)
            action()
        cpu.read("end")
        stop.set()
        for _ in procs:
            rec.hits.extend(Hit(kind, "", status, seconds, at) for kind, status, seconds, at in out.get(timeout=180))
        for proc in procs:
            proc.join(timeout=10)
        worker = worker_state(servers)
    finally:
        if stop is not None:
            stop.set()
        servers.stop()
    problems = lost_results(world, entered)
    hits = rec.phased(rec.hits)
    table = figures(hits, idle_p95)
    shares = cpu.shares()
    for name, label in (
        ("phones", "Solo los móviles"),
        ("human", f"Resultados a ritmo humano ({args.mesas} mesas)"),
        ("flat", f"Resultados a todo gas ({args.writers} escritores)"),
    ):
        if name in table:
            print_table(label, table[name])
            cores = dict(shares.get(name, {}))
            wait = cores.pop("cpu_wait", None)
            print(f"  CPU (% de un núcleo; la máquina tiene {os.cpu_count()}): {cores}")
            print(f"  Tiempo con algún proceso esperando un núcleo (/proc/pressure/cpu): {wait} %")
    server_errors = [h for h in hits if h.status >= 500 or h.status == 0]
    accepted = sum(1 for e in entered if e.status == 201)
    print(f"\nResultados aceptados: {accepted} de {len(entered)}; ", end="")
    print(f"leídos de la base de datos: {'todos' if not problems else problems[:5]}")
    print(f"Errores del servidor: {len(server_errors)} {dict(Counter((h.kind, h.status) for h in server_errors))}")
    print(f"Worker de Celery con beat al final: {json.dumps(worker)}")
    human_table = table.get("human", {})
    public_ok = all(human_table[k]["p95_ratio"] <= 5 for k in PUBLIC_KINDS if k in human_table)
    entry_ok = human_table.get("result", {}).get("p95_ms", 1e9) < 300
    print(f"Objetivos a ritmo humano: páginas p95 ≤ 5× reposo: {'sí' if public_ok else 'NO'}; ", end="")
    print(f"anotar p95 < 300 ms: {'sí' if entry_ok else 'NO'}")
    if args.json:
        report |= {
            "idle_p95_ms": round(idle_p95 * 1000, 2),
            "phases": table,
            "server_errors": len(server_errors),
            "worker": worker,
            "accepted": accepted,
            "lost": problems,
            "goals": {"public_p95_within_5x": public_ok, "entry_p95_under_300ms": entry_ok},
            "timings": world.get("timings", {}),
            "cpu_percent_of_one_core": shares,
            "statuses": dict(defaultdict(int, Counter(str(h.status) for h in hits))),
        }
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 1 if server_errors or problems or not worker["ok"] else 0


if __name__ == "__main__":
    sys.exit(main())
