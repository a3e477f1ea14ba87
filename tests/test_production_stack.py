"""The production stack, for real (issue 18, item 1; docs/production.md): Debian's redis-server and
PostgreSQL (a cluster of its own, restarted mid-round) on free local ports, the site under
gunicorn with DJANGO_PRODUCTION=1 (collected static files served by whitenoise), two Celery
workers and one beat, Redis as the broker, the result backend and the pages' and rate limits'
caches. A round is played through the site from the CSV import to the last result, and the
clocks' tick, sent by beat through Redis to a worker, ends every table's clock once its result
is in.

Runs in the PostgreSQL pass of the test command (marker postgres), which installs PostgreSQL and
redis-server.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402 (benchmarks/load.py: the event built through the site)

pytestmark = [pytest.mark.postgres, pytest.mark.celery, pytest.mark.xdist_group("pantalla-y-pila")]
PAIRS = 16


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _healthy(answer: tuple[int, bytes]) -> Any:
    status, body = answer
    return json.loads(body) if status == 200 else None


def _wait(what: str, check: Any, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        try:
            found = check()
            if found:
                return found
        except Exception:  # not up yet
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: nothing after {seconds} s")
        time.sleep(0.3)


class RedisServer:
    """Debian's redis-server on a free local port, in-memory only; ``restart`` as after a crash."""

    def __init__(self, directory: Path) -> None:
        server = shutil.which("redis-server")
        assert server, "redis-server is missing: the test command installs Debian's redis-server"
        self.port, self.directory, self.binary = _free_port(), directory, server
        self.url = f"redis://127.0.0.1:{self.port}"
        self.start()

    def start(self) -> None:
        import redis

        options = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(
            [self.binary, *options, "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait("redis-server", lambda: redis.Redis(port=self.port).ping(), 20)

    def stop(self) -> None:
        self.proc.kill()  # as a crash: no save, every connection cut
        self.proc.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    yield server
    server.stop()


class PostgresServer:
    """A PostgreSQL cluster of this test's own (Debian's initdb and pg_ctl, as the test command
    starts its own) on a free local port, so that it can be stopped as after a crash and started
    again while the site and the workers run: the shared server of the other tests cannot be."""

    def __init__(self) -> None:
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
        assert bins, "PostgreSQL is missing: the test command installs Debian's postgresql"
        self.bin, self.port = bins[-1], _free_port()
        # Not under pytest's tmp_path: its folders are the invoking user's only, and initdb runs as
        # the postgres system user when that user is root.
        self.directory = Path(tempfile.mkdtemp(prefix="torneo-pg-"))
        self.as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_pg:
            shutil.chown(self.directory, "postgres")
        self.data = self.directory / "data"
        self._pg(
            "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "-N"
        )
        self.start()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/stack"
        self._pg("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "stack")

    def _pg(self, program: str, *args: str) -> None:
        subprocess.run([*self.as_pg, str(self.bin / program), *args], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._pg("pg_ctl", "-D", str(self.data), "-l", str(self.directory / "log"), "-w", "-o", options, "start")

    def crash(self) -> None:
        """Every backend killed at once, nothing written back: recovery at the next start."""
        self._pg("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def restart(self) -> None:
        self.crash()
        self.start()

    def remove(self) -> None:
        try:
            self.crash()
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    yield server
    server.remove()


def _run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done.stdout


def test_a_round_on_postgresql_redis_gunicorn_two_workers_and_one_beat(
    tmp_path: Path, redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    redis_url, database_url = redis_server.url, postgres_server.url
    var = tmp_path / "var"
    var.mkdir()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "torneo.settings",
        "DJANGO_PRODUCTION": "1",
        "SECURE_SSL_REDIRECT": "0",  # no TLS proxy in front of this test
        "SECRET_KEY": uuid.uuid4().hex * 2,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": f"{redis_url}/0",
        "CELERY_RESULT_BACKEND": f"{redis_url}/3",
        "CACHE_URL": f"{redis_url}/1",
        "RATELIMIT_CACHE_URL": f"{redis_url}/2",
        "CLOCK_TICK_SECONDS": "1",
        "VAR_DIR": str(var),
        "LOG_LEVEL": "WARNING",
    }
    env.pop("REQUIRE_POSTGRES", None)
    _run(env, "manage.py", "migrate", "--no-input")
    _run(env, "manage.py", "collectstatic", "--no-input")
    world = json.loads(
        _run(
            env,
            "-c",
            "import json, sys; sys.path.insert(0, 'benchmarks'); import contention, load, pathlib; "
            f"contention.setup_django(pathlib.Path({str(var)!r})); print(json.dumps(load.prepare_database({PAIRS})))",
        )
        .strip()
        .splitlines()[-1]
    )
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    logs = {name: open(var / f"{name}.log", "wb") for name in ("web", "w1", "w2", "beat")}  # noqa: SIM115
    celery = [sys.executable, "-m", "celery", "-A", "torneo.celery"]
    commands = {
        "web": [sys.executable, "-m", "gunicorn", "torneo.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2"],
        "w1": [*celery, "worker", "-n", "w1@%h", "--concurrency=1", "--loglevel=WARNING"],
        "w2": [*celery, "worker", "-n", "w2@%h", "--concurrency=1", "--loglevel=WARNING"],
        "beat": [*celery, "beat", "--schedule", str(var / "celerybeat-schedule"), "--loglevel=WARNING"],
    }
    procs = {
        name: subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=logs[name], stderr=logs[name])
        for name, cmd in commands.items()
    }
    try:
        _wait("gunicorn", lambda: urllib.request.urlopen(f"{base}/api/v1/", timeout=5).status == 200)
        # Two workers answer through Redis.
        from celery import Celery

        control = Celery(broker=f"{redis_url}/0")

        def both_workers() -> set[str] | None:
            names = {name.split("@")[0] for answer in control.control.ping(timeout=2) for name in answer}
            return names if {"w1", "w2"} <= names else None

        assert _wait("two workers answering through Redis", both_workers) == {"w1", "w2"}
        world = load.build_through_the_site(base, world, PAIRS, 5)
        world["pairs"], world["games_to_win"] = PAIRS, 3
        api = f"{base}/api/v1/tournaments/{world['slug']}"
        clocks = load.api_json(f"{api}/clocks/?round={world['round']}", world["token"], method="GET")
        assert clocks and all(c["started"] for c in clocks)
        # Phones open every pair's page (anonymous visitors: the whole page kept in Redis).
        import pickle

        import redis

        pages = redis.Redis.from_url(f"{redis_url}/1")
        pair_pages = f"*anonima:/torneos/{world['slug']}/parejas/*/ficha/*"

        def stamps() -> dict[bytes, str]:
            return {key: pickle.loads(pages.get(key)).stamp for key in pages.keys(pair_pages)}

        for number in range(1, PAIRS + 1):
            opened = urllib.request.urlopen(f"{base}/torneos/{world['slug']}/parejas/{number}/ficha/", timeout=10)
            assert opened.status == 200
        watched = stamps()
        assert len(watched) == PAIRS
        rec = load.Recorder()
        import random

        entered = [load.enter(base, world, table, rec, random.Random(table)) for table in world["tables"]]
        assert all(e.status == 201 for e in entered), [e.status for e in entered]
        state = load.api_json(f"{api}/results/pending/?round={world['round']}", world["token"], method="GET")
        assert state["missing"] == [] and state["decided"] == state["total"]
        # The tick (beat → Redis → a worker, every second) ends each decided table's clock.
        import psycopg

        def ended() -> bool:
            with psycopg.connect(database_url) as conn:
                phases = conn.execute(
                    "SELECT c.phase, c.finished_at IS NOT NULL FROM scoring_matchclock c "
                    "JOIN torneo_match m ON m.id = c.match_id JOIN torneo_round r ON r.id = m.round_id "
                    "JOIN torneo_tournament t ON t.id = r.tournament_id WHERE t.slug = %s",
                    [world["slug"]],
                ).fetchall()
            return len(phases) == len(world["tables"]) and all(p == ("terminada", True) for p in phases)

        _wait("the clocks' tick", ended, 120)
        # The public pages, from the cache in Redis; the health endpoint sees all of it.
        standings = urllib.request.urlopen(f"{base}/torneos/{world['slug']}/clasificacion/", timeout=10)
        assert standings.status == 200 and b"data-live-version" in standings.read()
        # Each result sent its two pairs' pages to a worker, which rendered them again for the
        # anonymous visitors into the same Redis cache before anyone asked (torneo.views.prerender).
        _wait(
            "the pair pages rendered again by a worker",
            lambda: sum(stamp != watched[key] for key, stamp in stamps().items()) >= 2 * len(world["tables"]),
            120,
        )
        health = _wait(
            "health",
            # The staff (the token's account) read every check; a 503 is "not yet".
            lambda: _healthy(load.call(f"{base}/salud/", token=world["token"])),
            90,
        )
        assert health["ok"] and health["database"]["detail"] == "postgresql" and health["broker"]["detail"] == "redis"
        # Anybody else reads only ok / not ok (each web process checks on its own: "not yet" is a 503).
        anonymous = _wait("health for anonymous visitors", lambda: _healthy(load.call(f"{base}/salud/")), 90)
        assert anonymous == {"ok": True}
        static = urllib.request.urlopen(f"{base}/static/css/site.css", timeout=10)
        assert static.status == 200

        # Faults (issue 18, item 4). PostgreSQL restarted as after a crash (every backend killed,
        # recovery at start) in the middle of the round: the site's and the workers' connections
        # are dead; the next requests reconnect (CONN_HEALTH_CHECKS), no error, nothing lost.
        def started() -> Any:
            with psycopg.connect(database_url) as conn:
                return conn.execute("SELECT pg_postmaster_start_time()").fetchone()[0]

        first_start = started()
        postgres_server.restart()
        assert started() > first_start
        for _ in range(6):  # every gunicorn process meets its dead connection
            page = urllib.request.urlopen(f"{base}/torneos/{world['slug']}/resultados/", timeout=10)
            assert page.status == 200
        again = load.enter(base, world, world["tables"][0], rec, random.Random(99))
        assert again.status == 201 and again.version == 2

        # Redis restarted (killed, its data gone): the workers and beat reconnect, the tick goes on.
        def last_beat() -> Any:
            with psycopg.connect(database_url) as conn:
                return conn.execute("SELECT max(beat_at) FROM torneo_workerheartbeat").fetchone()[0]

        before = last_beat()
        redis_server.restart()
        assert _wait("two workers after Redis restarted", both_workers, 90) == {"w1", "w2"}
        _wait("beat and a worker after Redis restarted", lambda: (now := last_beat()) and now > before, 90)
        page = urllib.request.urlopen(f"{base}/torneos/{world['slug']}/clasificacion/", timeout=10)
        assert page.status == 200
    except AssertionError as failure:
        for log in logs.values():
            log.flush()
        tails = {name: (var / f"{name}.log").read_text(errors="replace")[-3000:] for name in logs}
        logged = "\n".join(f"--- {n}.log ---\n{t}" for n, t in tails.items())
        # The reason first and last: a CI summary shows the head and the tail of a long failure.
        raise AssertionError(f"{failure}\n{logged}\n--- failed: {failure}") from None
    finally:
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs.values():
            log.close()
