"""The largest event on record, on a real server: 1,146 pairs, 500 phones, 573 results (issue 18).

Run with ``.venv/bin/python benchmarks/load.py`` (SQLite in a temporary directory: the embedded
default) or ``DATABASE_URL=postgres://… .venv/bin/python benchmarks/load.py`` (a throwaway
database: it migrates it and leaves its tournament there). ``--quick`` runs a small version.

What it does, in order:

1. Starts what production runs, on a temporary ``VAR_DIR``: gunicorn (``--workers`` sync
   processes, 2 × cores + 1, one request at a time each, as behind nginx; ``--threads`` for
   threaded ones) and, as ``scripts/run.sh``, a Celery worker at ``nice -n 10`` (``--worker-nice``:
   the pages rendered ahead, the notices) and the clocks' worker with beat at normal priority (the
   clocks' tick every ``CLOCK_TICK_SECONDS``).
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

``--mode players`` (issue 32, «the table in the players' hands»): the pairs report and confirm the
results themselves, from their phones, without the mesa. Steps 1 to 3 as above; then:

4. Every pair's tarjeta is issued **through the API**, as the mesa does (``POST
   …/pairs/<n>/terminal/`` with the staff token): one private link per pair. Before any phone, a
   second yardstick, for information: what a *signed-in* phone's requests cost on the idle server
   (a tarjeta opened, live.json, the pair's page, the standings, the draw, the results), since the
   anonymous visitors' whole pages kept gzipped (torneo/pagecache.py) are not for a session.
5. ``--phones-per-pair`` phones per pair (2: 2,292 phones) open their pair's link over ``--arrive``
   seconds (``GET /torneos/<slug>/tarjeta/<token>/``, the 303 not followed: each phone keeps its own
   session cookie, and the csrftoken cookie its first page sets), read the page the 303 names, their
   pair's page, and the stylesheet, then behave as the anonymous phones above, signed in: the
   pair's first phone stays on its pair's page, the others on a page drawn as theirs are (half of
   them their pair's page). ``--spectators`` adds anonymous phones as above (none by default).
6. After ``--poll`` + ``--settle`` seconds of phones alone, over a window of ``--window`` seconds
   (600: ten minutes), at a moment drawn for each table, one of its pairs (drawn) reports the result
   from its first phone (``POST …/submissions/report/``: the partida's id read from its page's
   «Anotar el resultado» link, session authentication with ``X-CSRFToken`` and ``Referer`` as the
   page's script sends them). The rival pair's first phone sees it on its own page (its live.json
   changes, it fetches the page again, as live.js does), checks the page shows what was reported and
   confirms it (``POST …/submissions/<id>/confirm/``). The phase ends once every table is confirmed
   (at the latest a minute, or six polls, after the window).
7. Prints the same table per phase (``tarjeta``, ``report`` and ``confirm`` among the kinds), the
   report's and the confirmation's figures over the whole run, the seconds from a report to its
   signature, and reads every table back from the database: its result counts (confirmed), with
   the games reported, entered by the reporting pair's terminal and signed by the rival's. Exits 1
   on any error (5xx, any 4xx — nothing here is refused to a legitimate phone, 429 included — or no
   answer), a table whose result does not count as reported, a page that did not show what was
   reported, or a Celery worker that stopped. Not simulated, in either mode: the clock's own API,
   which static/js/clocks.js asks every 15 s on a page with a running clock, and taps on the clock.

Goals of this mode: 0 errors and 0 results lost; while the pairs report, every public page's p95
within 5× the idle trivial page (the pages the phones read as the public does: live.json, the
draw, the standings, the results; a pair's own page, which its phones read signed in, is its
terminal, a private page rendered after each change of that pair: reported apart), and the
report's and the confirmation's p95 under 300 ms. The same requests are also timed by the server
(gunicorn's access log: the worker's own time, without the phone's). With ``--quick``: 64 pairs
(128 phones), 4 s of arrivals and a 20 s window.
"""

from __future__ import annotations

import argparse
import bisect
import gzip
import html
import http.client
import http.cookiejar
import io
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import contention

ROOT = Path(__file__).resolve().parents[1]
SLUG = "gran-torneo"
FIRST = ["Antonio", "Begoña", "Carmen", "Daniel", "Elena", "Fermín", "Gloria", "Hugo", "Inés", "Koldo"]
LAST = ["Abad", "Barrios", "Cano", "Díaz", "Esteban", "Font", "Garrido", "Herrero", "Ibarra", "Juárez", "Larrea"]
PUBLIC_KINDS = ("live", "standings", "round", "results", "pair", "static")
# The mesas' requests (the default mode) and the players' own (--mode players): the tarjeta's link
# opened, a pair's report of its table and the rival pair's confirmation.
OTHER_KINDS = ("lookup", "result", "tarjeta", "report", "confirm")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--mode",
        choices=("mesa", "players"),
        default="mesa",
        help="mesa: the mesas enter the results (default); players: each pair's phones report and confirm them",
    )
    p.add_argument("--pairs", type=int, default=1146, help="pairs (default 1146: Bilbao 2010)")
    p.add_argument("--phones", type=int, default=500, help="simulated phones (default 500)")
    p.add_argument("--poll", type=float, default=10.0, help="seconds between a phone's polls (live.js: 10)")
    p.add_argument("--mesas", type=int, default=4, help="mesas de control at a human pace (default 4)")
    p.add_argument("--mesa-interval", type=float, default=2.0, help="seconds between a mesa's results (default 2)")
    p.add_argument("--writers", type=int, default=12, help="writers flat out (default 12)")
    p.add_argument("--settle", type=float, default=15.0, help="seconds of phones alone before each phase")
    p.add_argument(
        "--phones-per-pair", type=int, default=2, help="--mode players: signed-in phones per pair (default 2)"
    )
    p.add_argument(
        "--spectators", type=int, default=0, help="--mode players: anonymous phones besides the pairs' (default 0)"
    )
    p.add_argument(
        "--arrive", type=float, default=60.0, help="--mode players: seconds over which the phones open their links"
    )
    p.add_argument(
        "--window", type=float, default=600.0, help="--mode players: seconds over which the tables report (default 600)"
    )
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
    p.add_argument(
        "--worker-nice",
        type=int,
        default=10,
        help="the Celery worker's niceness, as scripts/run.sh (default 10; beat and the clocks' tick then in a worker "
        "of their own at normal priority; 0: one worker with beat for everything)",
    )
    p.add_argument(
        "--phone-rcvbuf",
        type=int,
        default=RCVBUF,
        help=f"each phone socket's receive buffer in bytes (default {RCVBUF}: a page's answer fits in it, as "
        "nginx takes it in production; 0: the kernel's default)",
    )
    p.add_argument(
        "--phones-priority",
        choices=("normal", "idle"),
        default="normal",
        help="the phones' CPU priority: idle (SCHED_IDLE) runs them only when no process of the server needs "
        "the core, the nearest this machine comes to phones on other machines (default normal)",
    )
    p.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE", help="for the servers")
    p.add_argument(
        "--quick",
        action="store_true",
        help="a small run: 64 pairs, 40 phones (--mode players: 2 a pair, a 20 s window), 2 s polls",
    )
    p.add_argument("--json", type=Path, help="also write the figures here, as JSON")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    p.add_argument("--seed", type=int, default=2010)
    args = p.parse_args(argv)
    if args.quick:
        args.pairs, args.phones, args.poll, args.settle, args.mesa_interval = 64, 40, 2.0, 3.0, 0.3
        args.phone_processes, args.idle_requests = min(args.phone_processes, 2), 200
        args.arrive, args.window = min(args.arrive, 4.0), min(args.window, 20.0)
    if args.phones_per_pair < 1:
        p.error("--phones-per-pair: at least 1 (the pair's first phone reports and confirms)")
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


# --- the phones' sockets -----------------------------------------------------------------------------
#
# A phone's TCP receive buffer (``--phone-rcvbuf``). On loopback the kernel's default one (128 KB,
# half of it offered as the window) holds less than a 1,146-pair page (80 KB gzipped, more with its
# headers and a signed-in frame stored around it), so a sync gunicorn worker could not finish
# writing it until the phone's thread, in a process of hundreds of them, came round to read it:
# the server's own time (its access log) then counted the load generator's wait. In production
# nginx takes the whole answer from the worker (docs/production.md); a roomy buffer gives the
# phones here the same effect, and ``0`` keeps the kernel's default.
RCVBUF = 1 << 20


class _RoomyConnection(http.client.HTTPConnection):
    """An HTTP connection whose socket gets the phones' receive buffer before it connects (the
    window is agreed at the handshake)."""

    def connect(self) -> None:
        if not RCVBUF:
            return super().connect()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
            sock.settimeout(self.timeout)
            sock.connect((self.host, self.port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except BaseException:
            sock.close()
            raise
        self.sock = sock
        return None


class _RoomyHandler(urllib.request.HTTPHandler):
    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_RoomyConnection, req)


_OPENER = urllib.request.build_opener(_RoomyHandler())


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
        with _OPENER.open(request, timeout=120) as response:
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


def as_phones(priority: str) -> None:
    """Puts this thread and those it starts at the phones' CPU priority (``--phones-priority``).

    The phones stand for hundreds of devices that do not share the server's cores; on one
    machine, ``idle`` (Linux's SCHED_IDLE) gives a core to them only when no server process
    (web, Celery, the database) is waiting for it, so they stop queueing in front of the
    requests they time. Called after the servers started: they do not inherit it."""
    if priority == "idle":
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


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


# --- the players' phones (--mode players) -----------------------------------------------------------


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer of its own: the tarjeta's 303 is timed alone, and the phone asks for
    the page it names as the next request (as a browser does, with the cookies just set)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Browser:
    """One phone's browser: its cookies (the session the tarjeta opened, the CSRF token, the device
    cookie), gzip taken, redirects not followed."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            _RoomyHandler(), urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def fetch(
        self, url: str, *, method: str = "GET", data: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, str, Any]:
        sent = {"Accept": "application/json, text/html", "Accept-Encoding": "gzip", **(headers or {})}
        if data is not None:
            sent.setdefault("Content-Type", "application/json")
        request = urllib.request.Request(url, data=data, headers=sent, method=method)
        try:
            with self.opener.open(request, timeout=120) as response:
                return response.status, response.read(), response.headers.get("Content-Encoding", ""), response.headers
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), exc.headers.get("Content-Encoding", ""), exc.headers
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            return 0, b"", "", None

    def timed(self, rec: Recorder, kind: str, url: str, **kwargs: Any) -> tuple[int, bytes, Any]:
        """A request timed until its last byte arrived; the body decoded, the answer's headers."""
        start = time.perf_counter()
        status, body, encoding, headers = self.fetch(url, **kwargs)
        rec.add(kind, status, time.perf_counter() - start)
        return status, decoded(body, encoding), headers

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")


@dataclass(frozen=True)
class Duty:
    """What a pair's first phone does at its table: report the result at ``report_at`` (a moment of
    CLOCK_MONOTONIC, the same in every process), or, the rival pair's (``report_at`` None), confirm
    it once its page shows it."""

    table: int
    match: int  # the partida's id, as the API's results list says (the phone reads it from its page)
    side: str  # "a" or "b": this pair in the partida
    games: tuple[int, int]  # games_a, games_b: what is reported
    report_at: float | None


@dataclass(frozen=True)
class Done:
    """A duty done (or not): the report's or the confirmation's answer, what it names, when."""

    kind: str  # "report", "confirm", or "problem" (what the phone saw was not what was reported)
    table: int
    status: int
    submission: int | None
    at: float
    detail: str = ""


REPORT_LINK = re.compile(rb"/partidas/(\d+)/anotar/")
CONFIRM_CARD = re.compile(rb'id="confirmar-(\d+)".*?mesa (\d+)\s*:\s*(\d+)-(\d+)', re.DOTALL)


def issue_links(base: str, world: dict[str, Any]) -> dict[int, str]:
    """Every pair's tarjeta through the API, as the mesa does (``POST …/pairs/<n>/terminal/``, the
    staff token): the link's path by pair (the link names the site's SITE_URL, not this server)."""
    api, token = f"{base}/api/v1/tournaments/{world['slug']}", world["token"]

    def one(number: int) -> tuple[int, str]:
        status, body = call(f"{api}/pairs/{number}/terminal/", method="POST", data=b"", token=token)
        if status != 201:
            raise SystemExit(f"tarjeta de la pareja {number}: {status} {body[:400]!r}")
        return number, urllib.parse.urlsplit(json.loads(body)["url"]).path

    with ThreadPoolExecutor(max_workers=8) as pool:
        return dict(pool.map(one, range(1, world["pairs"] + 1)))


def signed_in_yardstick(base: str, world: dict[str, Any], rec: Recorder, requests: int) -> None:
    """What a signed-in phone's requests cost on the idle server (no other phone yet), in bursts as
    the idle yardstick's: pair 1's tarjeta opened by new phones (5 a burst), and one phone signed in
    with it reading its live.json and its pair's page (40 each a burst) and the standings, the
    round's draw and the results (5 each). Anonymous visitors get whole pages kept gzipped; a
    session goes through the view (torneo/pagecache.py)."""
    rec.mark("idle_in")
    slug = world["slug"]
    browser = Browser()
    browser.fetch(base + world["links"][1])
    pages = {
        "standings": f"{base}/torneos/{slug}/clasificacion/",
        "round": f"{base}/torneos/{slug}/rondas/{world['round']}/",
        "results": f"{base}/torneos/{slug}/resultados/",
    }
    for burst in range(max(1, requests // 100)):
        if burst:
            time.sleep(2.0)
        for _ in range(5):
            Browser().timed(rec, "tarjeta", base + world["links"][1])
        for _ in range(40):
            browser.timed(rec, "live", f"{base}/torneos/{slug}/live.json?pareja=1")
            browser.timed(rec, "pair", f"{base}/torneos/{slug}/parejas/1/ficha/")
        for kind, url in pages.items():
            for _ in range(5):
                browser.timed(rec, kind, url)


def plan_duties(
    world: dict[str, Any], draw: list[dict[str, Any]], start: float, window: float, seed: int
) -> dict[int, Duty]:
    """For each table, one of its pairs (drawn at random) reports a result at a moment drawn in
    ``window`` seconds from ``start``; the other pair confirms it. By pair number."""
    rng = random.Random(f"informes-{seed}")
    target = world["games_to_win"]
    duties: dict[int, Duty] = {}
    for m in draw:
        if m["pair_b"] is None or m["table"] is None:
            continue  # an exenta: nothing to report
        loser = rng.randrange(target)
        games = (target, loser) if rng.random() < 0.5 else (loser, target)
        at = start + rng.uniform(0, window)
        reporter = rng.choice("ab")
        for side in "ab":
            number = m[f"pair_{side}"]["number"]
            duties[number] = Duty(m["table"], m["id"], side, games, at if side == reporter else None)
    return duties


def player_phone(
    base: str,
    world: dict[str, Any],
    index: int,
    rec: Recorder,
    stop: threading.Event,
    poll: float,
    done: list[Done],
    settled: Any,
) -> None:
    """A pair's phone (``index // per_pair + 1``): opens the pair's tarjeta (its link, the 303 not
    followed: the session cookie kept), reads its pair's page (the page the 303 names) and the
    stylesheet, then stays on a page as the anonymous phones do (``phone``): the pair's first phone
    on its pair's page, the others on one drawn as theirs are. The first phone also does its pair's
    duty: at its moment, reports the table's result (the partida's id from its page's «Anotar el
    resultado» link, the CSRF token from its cookie, ``X-CSRFToken`` and ``Referer`` as the page's
    script sends them); or, the rival's, confirms the result once its page shows it to be confirmed,
    having checked that the page shows what was reported."""
    per_pair = world["per_pair"]
    pair, first = index // per_pair + 1, index % per_pair == 0
    duty = world["duties"].get(pair) if first else None
    rng = random.Random(f"jugador-{index}")
    slug, browser = world["slug"], Browser()
    own = f"{base}/torneos/{slug}/parejas/{pair}/ficha/"
    api = f"{base}/api/v1/tournaments/{slug}/submissions"
    stop.wait(max(0.0, world["phones_from"] + rng.random() * world["arrive"] - time.monotonic()))
    if stop.is_set():
        return
    status, _, headers = browser.timed(rec, "tarjeta", base + world["links"][pair])
    home = urllib.parse.urljoin(base + "/", headers["Location"]) if status == 303 and headers is not None else own
    if home != own:
        done.append(
            Done("problem", duty.table if duty else 0, status, None, time.monotonic(), f"el enlace lleva a {home}")
        )
    status, body, _ = browser.timed(rec, "pair", own)
    seen = REPORT_LINK.search(body) if status == 200 else None
    match_id = int(seen.group(1)) if seen else None
    live, version = live_of(base, status, body)
    browser.timed(rec, "static", f"{base}/static/css/site.css")
    kind, url = "pair", own
    if not first:
        pages = {
            "pair": own,
            "standings": f"{base}/torneos/{slug}/clasificacion/",
            "round": f"{base}/torneos/{slug}/rondas/{world['round']}/",
            "results": f"{base}/torneos/{slug}/resultados/",
        }
        kind = rng.choices(list(pages), weights=[50, 20, 20, 10])[0]
        url = pages[kind]
        if kind != "pair":
            status, body, _ = browser.timed(rec, kind, url)
            live, version = live_of(base, status, body)
    confirmed: set[int] = set()

    def settle() -> None:
        with settled.get_lock():
            settled.value += 1

    def secured() -> dict[str, str]:
        return {"X-CSRFToken": browser.cookie("csrftoken"), "Referer": own}

    def confirm_what(page: bytes) -> None:
        """The rival's first phone: the results its page asks it to confirm."""
        if duty is None or duty.report_at is not None:
            return
        for found in CONFIRM_CARD.finditer(page):
            pk, table, mine, theirs = (int(g) for g in found.groups())
            if pk in confirmed:
                continue
            confirmed.add(pk)
            expected = duty.games if duty.side == "a" else duty.games[::-1]
            if (table, (mine, theirs)) != (duty.table, expected):
                done.append(
                    Done("problem", duty.table, 0, pk, time.monotonic(), f"la página muestra {found.group(0)!r}")
                )
                settle()
                continue
            answer, reply, _ = browser.timed(
                rec, "confirm", f"{api}/{pk}/confirm/", method="POST", data=b"{}", headers=secured()
            )
            done.append(
                Done("confirm", duty.table, answer, pk, time.monotonic(), "" if answer == 200 else str(reply[:300]))
            )
            settle()

    def report() -> None:
        nonlocal match_id
        assert duty is not None
        if match_id is None:  # its page did not load, or showed no partida: read it again
            answer, page, _ = browser.timed(rec, "pair", own)
            seen = REPORT_LINK.search(page) if answer == 200 else None
            match_id = int(seen.group(1)) if seen else None
        if match_id != duty.match:
            done.append(Done("problem", duty.table, 0, None, time.monotonic(), f"partida {match_id} en su página"))
        payload = {"match": match_id or duty.match, "games_a": duty.games[0], "games_b": duty.games[1]}
        answer, reply, _ = browser.timed(
            rec, "report", f"{api}/report/", method="POST", data=json.dumps(payload).encode(), headers=secured()
        )
        sub = json.loads(reply).get("id") if answer == 201 else None
        done.append(
            Done("report", duty.table, answer, sub, time.monotonic(), "" if answer == 201 else str(reply[:300]))
        )
        if answer != 201:
            settle()  # nobody will confirm it

    if kind == "pair" and status == 200:
        confirm_what(body)
    report_at = duty.report_at if duty is not None and duty.report_at is not None else float("inf")
    next_poll = time.monotonic() + poll * rng.uniform(0.9, 1.1)
    while not stop.is_set():
        now = time.monotonic()
        if now >= report_at:
            report_at = float("inf")
            report()
            continue
        if now >= next_poll:
            next_poll = now + poll * rng.uniform(0.9, 1.1)
            fresh = live is None
            if not fresh:
                answer, reply, _ = browser.timed(rec, "live", live)
                fresh = answer == 200 and str(json.loads(reply)["version"]) != version
            if fresh:
                status, body, _ = browser.timed(rec, kind, url)
                live, version = live_of(base, status, body)
                if kind == "pair" and status == 200:
                    confirm_what(body)
            continue
        stop.wait(max(0.0, min(next_poll, report_at) - now))


def player_phone_process(
    base: str,
    world: dict[str, Any],
    indices: list[int],
    spectators: list[int],
    poll: float,
    stop: Any,
    settled: Any,
    out: Any,
) -> None:
    """One process of phones, the pairs' (``indices``) and anonymous ones (``spectators``, as in the
    default mode). Sends back its hits and the duties done when ``stop`` is set."""
    rec, halt, done = Recorder(), threading.Event(), []
    threads = [
        threading.Thread(target=player_phone, args=(base, world, i, rec, halt, poll, done, settled), daemon=True)
        for i in indices
    ]
    threads += [threading.Thread(target=phone, args=(base, world, i, rec, halt, poll), daemon=True) for i in spectators]
    for t in threads:
        t.start()
    stop.wait()
    halt.set()
    for t in threads:
        t.join(timeout=130)
    with rec.lock:
        out.put(([(h.kind, h.status, h.seconds, h.at) for h in rec.hits], list(done)))


def lost_reports(world: dict[str, Any], done: list[Done]) -> list[str]:
    """Every table read back from the database: its result counts (confirmed), with the games its
    pair reported, entered by the reporting pair's terminal and signed by the rival pair's."""
    from django.db import connections

    from scoring.models import ResultSubmission
    from torneo.models import Match, PairTerminal

    terminals = dict(
        PairTerminal.objects.filter(pair__tournament__slug=world["slug"]).values_list("pair__number", "user_id")
    )
    reported = {d.table: d.submission for d in done if d.kind == "report" and d.status == 201}
    by_table = {}
    for number, duty in world["duties"].items():
        by_table.setdefault(duty.table, {})[duty.report_at is not None] = (number, duty)
    problems = []
    matches = Match.objects.filter(round__tournament__slug=world["slug"], round__number=world["round"])
    for match in matches.exclude(pair_b__isnull=True).order_by("table_number"):
        (reporter, duty), (rival, _) = by_table[match.table_number][True], by_table[match.table_number][False]
        counted = match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).first()
        where = f"mesa {match.table_number}"
        if match.table_number not in reported:
            stored = match.submissions.filter(source=ResultSubmission.Source.PLAYER).count()
            problems.append(f"{where}: su pareja no recibió un 201 al anotarla (actas suyas en la base: {stored})")
        elif counted is None:
            problems.append(f"{where}: anotada (acta {reported[match.table_number]}), sin confirmar ({match.outcome})")
        elif (
            counted.pk != reported[match.table_number]
            or (match.outcome, match.games_a, match.games_b) != (Match.Outcome.PLAYED, *duty.games)
            or (counted.games_a, counted.games_b) != duty.games
            or counted.version != match.result_version
            or counted.source != ResultSubmission.Source.PLAYER
            or (counted.submitted_by_id, counted.confirmed_by_id) != (terminals.get(reporter), terminals.get(rival))
        ):
            problems.append(
                f"{where}: cuenta el acta {counted.pk} v{counted.version} {counted.games_a}-{counted.games_b} "
                f"({counted.source}); se anotó el acta {reported[match.table_number]} {duty.games[0]}-{duty.games[1]}"
            )
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


def cpu_meter(servers: contention.Servers, procs: list[Any], facts: dict[str, Any]) -> CpuMeter:
    """The web server, the Celery workers and beat, the load (this process and the phones'), PostgreSQL."""
    web, workers = servers.processes[-1].pid, [p.pid for p in servers.processes[:-1]]
    return CpuMeter(
        {
            "web": lambda: tree_cpu_seconds(web),
            "celery": lambda: sum(tree_cpu_seconds(pid) for pid in workers),
            "load": lambda: sum(os.times()[:2]) + sum(tree_cpu_seconds(p.pid or 0) for p in procs),
            **({"postgresql": lambda: named_cpu_seconds("postgres")} if facts["vendor"] == "postgresql" else {}),
            "cpu_wait": cpu_wait_seconds,
        }
    )


def worker_state(servers: contention.Servers) -> dict[str, Any]:
    """Whether the Celery workers and beat are still there at the end and ran the heartbeat lately
    (beat sends it every 10 s): a worker that stopped mid-run stops the clocks and the pages
    rendered ahead, and the run fails."""
    from django.db import connections
    from django.utils import timezone

    from torneo.models import WorkerHeartbeat

    beat = WorkerHeartbeat.objects.filter(name="beat").first()
    age = None if beat is None else round((timezone.now() - beat.beat_at).total_seconds(), 1)
    connections.close_all()
    alive = all(p.poll() is None for p in servers.processes[:-1])
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
        for kind in (*PUBLIC_KINDS, *OTHER_KINDS):
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
    for kind in (*PUBLIC_KINDS, *OTHER_KINDS):
        if kind in table:
            f = table[kind]
            print(
                f"  {kind:10} {f['count']:>6} {f['p50_ms']:>9} {f['p95_ms']:>9} {f['max_ms']:>9} "
                f"{f['p95_ratio']!s:>8}×  {f['errors'] or '-'}"
            )


# The server's own time of each request, from gunicorn's access log (contention.ACCESS_FORMAT): the
# kind of request its path names, as the phones name theirs.
SERVER_KINDS = (
    (re.compile(r"/live\.json$"), "live"),
    (re.compile(r"/clasificacion/$"), "standings"),
    (re.compile(r"/rondas/\d+/$"), "round"),
    (re.compile(r"/resultados/$"), "results"),
    (re.compile(r"/parejas/\d+/ficha/$"), "pair"),
    (re.compile(r"^/static/"), "static"),
    (re.compile(r"/tarjeta/"), "tarjeta"),
    (re.compile(r"/submissions/report/$"), "report"),
    (re.compile(r"/submissions/\d+/confirm/$"), "confirm"),
)
WALL = time.time() - time.monotonic()  # CLOCK_MONOTONIC + WALL = the wall clock the log's moments use


def server_hits(log: Path) -> list[Hit]:
    """Every request of gunicorn's access log as a hit (its kind by its path, the worker's time,
    the moment on CLOCK_MONOTONIC to the second), for ``Recorder.phased``."""
    hits = []
    for line in log.read_text(errors="replace").splitlines():
        try:
            moment, _method, path, status, micros = line.rsplit(" ", 4)
            at = datetime.strptime(moment.strip("[]"), "%d/%b/%Y:%H:%M:%S %z").timestamp() - WALL
        except ValueError:
            continue
        kind = next((k for pattern, k in SERVER_KINDS if pattern.search(path)), "")
        if kind:
            hits.append(Hit(kind, "", int(status), int(micros) / 1_000_000, at))
    return hits


# --- the run ---------------------------------------------------------------------------------------


def idle_yardstick(base: str, world: dict[str, Any], rec: Recorder, requests: int) -> float:
    """The trivial page (live.json) on the idle server: the p95 the other pages are compared to."""
    rec.mark("idle")
    live = f"{base}/torneos/{world['slug']}/live.json"
    # 1,000 requests back to back, in 10 bursts of 100 two seconds apart: 20 s, so that the
    # window holds the server's own periodic work (beat's tick of every clock, every 5 s) in
    # its share, as any window of the run does. 200 requests in one burst (0.3 s) measured a
    # p95 of 0.9 to 2.0 ms from run to run, as a tick fell in it or not. (A lone request every
    # 20 ms measures more, p50 2.0 ms, the server waking for each: not used, it would flatter.)
    for burst in range(requests // 100):
        if burst:
            time.sleep(2.0)
        for _ in range(100):
            timed(rec, "live", live)
    idle = [h.seconds for h in rec.hits if h.status == 200]
    idle_p95 = pct(idle, 95)
    print(f"Página trivial (live.json) con el servidor en reposo: p50 {pct(idle, 50) * 1000:.1f} ms, ", end="")
    print(f"p95 {idle_p95 * 1000:.1f} ms")
    return idle_p95


def main(argv: list[str] | None = None) -> int:
    global RCVBUF  # the phones' processes are forked: they inherit it
    args = parse_args(argv)
    RCVBUF = args.phone_rcvbuf
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    own_dir = tempfile.mkdtemp(prefix="torneo-event-")
    try:
        return (run_players if args.mode == "players" else run)(args, Path(own_dir))
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
    as_phones(args.phones_priority)
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

        idle_p95 = idle_yardstick(servers.url, world, rec, args.idle_requests)

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
        cpu = cpu_meter(servers, procs, facts)
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


def run_players(args: argparse.Namespace, own_dir: Path) -> int:
    """--mode players: the pairs' phones, signed in with their tarjetas, report and confirm every
    table's result (the module's docstring)."""
    var_dir = own_dir / "var"
    var_dir.mkdir()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{own_dir / 'event.sqlite3'}")
    contention.setup_django(var_dir)
    facts = contention.database_facts()
    print(f"Base de datos: {json.dumps(facts, ensure_ascii=False)}")
    world = prepare_database(args.pairs)
    args.access_log = var_dir / "access.log"
    servers = contention.start_servers(args, var_dir)
    as_phones(args.phones_priority)
    rec = Recorder()
    stop: Any = None
    worker: dict[str, Any] = {"ok": False}
    done: list[Done] = []
    report: dict[str, Any] = {"database": facts, "args": {k: str(v) for k, v in vars(args).items()}}
    phones = args.pairs * args.phones_per_pair
    try:
        t0 = time.perf_counter()
        world = build_through_the_site(servers.url, world, args.pairs, args.seed)
        world["pairs"], world["per_pair"], world["arrive"] = args.pairs, args.phones_per_pair, args.arrive
        api = f"{servers.url}/api/v1/tournaments/{world['slug']}"
        world["games_to_win"] = api_json(f"{api}/", world["token"], method="GET").get("games_to_win") or 3
        t1 = time.perf_counter()
        world["links"] = issue_links(servers.url, world)
        world["timings"]["links_s"] = time.perf_counter() - t1
        print(f"Torneo construido por la web en {time.perf_counter() - t0:.1f} s: {args.pairs} parejas, ", end="")
        print(f"{len(world['tables'])} mesas, {len(world['links'])} tarjetas · ", end="")
        print(json.dumps({k: round(v, 1) for k, v in world["timings"].items()}))
        draw = api_json(f"{api}/results/?round={world['round']}", world["token"], method="GET")

        idle_p95 = idle_yardstick(servers.url, world, rec, args.idle_requests)
        signed_in_yardstick(servers.url, world, rec, args.idle_requests)

        world["phones_from"] = time.monotonic() + 2.0  # the processes are up by then
        reports_from = world["phones_from"] + args.arrive + args.poll + args.settle
        world["duties"] = plan_duties(world, draw, reports_from, args.window, args.seed)
        tables = len({d.table for d in world["duties"].values()})
        context = multiprocessing.get_context("fork")
        stop, out, settled = context.Event(), context.Queue(), context.Value("i", 0)
        spectators = [phones + i for i in range(args.spectators)]  # the anonymous phones' indices: their own
        procs = [
            context.Process(
                target=player_phone_process,
                args=(
                    servers.url,
                    world,
                    list(range(phones))[k :: args.phone_processes],
                    spectators[k :: args.phone_processes],
                    args.poll,
                    stop,
                    settled,
                    out,
                ),
                daemon=True,
            )
            for k in range(args.phone_processes)
        ]
        for proc in procs:
            proc.start()
        cpu = cpu_meter(servers, procs, facts)

        def until(moment: float) -> None:
            time.sleep(max(0.0, moment - time.monotonic()))

        def reports() -> None:
            """The window, then until every table is settled (confirmed, or failed) or long after."""
            until(reports_from + args.window)
            deadline = time.monotonic() + max(60.0, 6 * args.poll)
            while settled.value < tables and time.monotonic() < deadline:
                time.sleep(0.5)

        for phase, action in (
            ("arrive", lambda: until(world["phones_from"] + args.arrive)),
            ("phones", lambda: until(reports_from)),
            ("reports", reports),
            ("after", lambda: time.sleep(args.poll)),
        ):
            rec.mark(phase)
            cpu.read(phase)
            action()
        cpu.read("end")
        stop.set()
        for _ in procs:
            hits, theirs = out.get(timeout=180)
            rec.hits.extend(Hit(kind, "", status, seconds, at) for kind, status, seconds, at in hits)
            done.extend(theirs)
        for proc in procs:
            proc.join(timeout=10)
        worker = worker_state(servers)
    finally:
        if stop is not None:
            stop.set()
        servers.stop()
    lost = lost_reports(world, done)
    hits = rec.phased(rec.hits)
    table = figures(hits, idle_p95)
    shares = cpu.shares()
    print_table("Con sesión (la tarjeta de la pareja 1), con el servidor en reposo", table["idle_in"])
    for name, label in (
        ("arrive", f"Los móviles abren sus tarjetas ({phones} móviles de {args.pairs} parejas)"),
        ("phones", "Solo los móviles"),
        ("reports", f"Las parejas anotan y confirman ({tables} mesas en {args.window:g} s)"),
        ("after", "Después"),
    ):
        if name in table:
            print_table(label, table[name])
            cores = dict(shares.get(name, {}))
            wait = cores.pop("cpu_wait", None)
            print(f"  CPU (% de un núcleo; la máquina tiene {os.cpu_count()}): {cores}")
            print(f"  Tiempo con algún proceso esperando un núcleo (/proc/pressure/cpu): {wait} %")
    # The same requests as the server timed them: what of a phone's time was the server's own.
    served = rec.phased(server_hits(args.access_log))
    idle_served = [h.seconds for h in served if h.phase == "idle" and h.kind == "live" and h.status == 200]
    server_table = figures(served, pct(idle_served, 95))
    if "reports" in server_table:
        print_table(
            f"Tiempo del propio servidor (gunicorn) mientras anotan; en reposo live.json p95 "
            f"{pct(idle_served, 95) * 1000:.1f} ms",
            server_table["reports"],
        )
    # Every answer that is not a success nor the tarjeta's redirect is an error: nothing here is refused.
    errors = [h for h in hits if h.status == 0 or h.status >= 400]
    problems = [d for d in done if d.kind == "problem" or (d.kind != "problem" and d.status not in (200, 201))]
    reported = {d.table: d.at for d in done if d.kind == "report" and d.status == 201}
    signed = [d.at - reported[d.table] for d in done if d.kind == "confirm" and d.status == 200 and d.table in reported]
    ends = {kind: [h for h in hits if h.kind == kind] for kind in ("report", "confirm")}
    duty_figures = {
        kind: {
            "count": len(mine),
            "p50_ms": round(pct([h.seconds for h in mine], 50) * 1000, 1),
            "p95_ms": round(pct([h.seconds for h in mine], 95) * 1000, 1),
            "max_ms": round(max((h.seconds for h in mine), default=0) * 1000, 1),
            "errors": dict(Counter(str(h.status) for h in mine if h.status not in (200, 201))),
        }
        for kind, mine in ends.items()
    }
    for kind, f in duty_figures.items():
        print(f"\n{kind} (toda la ejecución): n {f['count']}, p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms, ", end="")
        print(f"max {f['max_ms']} ms, errores {f['errors'] or '-'}")
    print(f"Del informe a la firma de la otra pareja: p50 {pct(signed, 50):.1f} s, p95 {pct(signed, 95):.1f} s")
    print(f"\nMesas anotadas: {len(reported)} de {tables}; confirmadas: {len(signed)}; ", end="")
    print(f"leídas de la base de datos: {'todas cuentan' if not lost else f'{len(lost)} mal: {lost[:5]}'}")
    print(f"Errores (5xx, 4xx o sin respuesta): {len(errors)} {dict(Counter((h.kind, h.status) for h in errors))}")
    if problems:
        seen = [(d.kind, d.table, d.status, d.detail) for d in problems[:5]]
        print(f"Lo que vieron los móviles: {len(problems)} {seen}")
    print(f"Worker de Celery con beat al final: {json.dumps(worker)}")
    during = table.get("reports", {})
    # A phone of a pair reads its pair's page signed in: the pair's terminal (its clock, «Anotar el
    # resultado», the rival's proposal to confirm), a private page rendered after each change of
    # that pair, reported apart; the public pages are the others.
    public_ok = all(during[k]["p95_ratio"] <= 5 for k in PUBLIC_KINDS if k in during and k != "pair")
    duties_ok = all(duty_figures[k]["count"] and duty_figures[k]["p95_ms"] < 300 for k in ("report", "confirm"))
    print(f"Objetivos mientras anotan: páginas p95 ≤ 5× reposo: {'sí' if public_ok else 'NO'}; ", end="")
    print(f"anotar y confirmar p95 < 300 ms: {'sí' if duties_ok else 'NO'}")
    if args.json:
        report |= {
            "mode": "players",
            "phones": phones,
            "phones_priority": args.phones_priority,
            "phone_rcvbuf": args.phone_rcvbuf,
            "tables": tables,
            "idle_p95_ms": round(idle_p95 * 1000, 2),
            "phases": table,
            "server_idle_p95_ms": round(pct(idle_served, 95) * 1000, 2),
            "server_phases": server_table,
            "duties": duty_figures,
            "report_to_confirm_s": {"p50": round(pct(signed, 50), 1), "p95": round(pct(signed, 95), 1)},
            "errors": len(errors),
            "errors_by_kind": {f"{k} {s}": n for (k, s), n in Counter((h.kind, h.status) for h in errors).items()},
            "problems": [vars(d) for d in problems],
            "worker": worker,
            "reported": len(reported),
            "confirmed": len(signed),
            "lost": lost,
            "goals": {"public_p95_within_5x": public_ok, "report_confirm_p95_under_300ms": duties_ok},
            "timings": world.get("timings", {}),
            "cpu_percent_of_one_core": shares,
            "statuses": dict(Counter(str(h.status) for h in hits)),
        }
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 1 if errors or problems or lost or not worker["ok"] else 0


if __name__ == "__main__":
    sys.exit(main())
