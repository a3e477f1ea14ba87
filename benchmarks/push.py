"""Benchmark of the round's notifications (issue 33): a draw of 573 tables (1,146 pairs) tells every
subscribed phone its table, through one real Celery worker. Prints measured figures, asserts
nothing.

Run with ``.venv/bin/python benchmarks/push.py`` (SQLite in a temporary directory) or with
``DATABASE_URL=postgres://… .venv/bin/python benchmarks/push.py`` (a throwaway database: it migrates
it and leaves its tournament there). ``--pairs``, ``--phones-per-pair`` (2: 2,292 subscriptions).

What it does: a running tournament of ``--pairs`` pairs with round 1 published (bulk-created: the
draw is not what is measured), each pair's tarjeta account with ``--phones-per-pair`` push
subscriptions (each its own P-256 key pair and auth secret, as a browser makes them) whose endpoint
is a push service on this machine (a threaded HTTP server in this process that answers 201 after
``--latency`` seconds, 80 ms by default: a real push service is a round trip away, and hiding
those round trips is what the batches' threads are for; and counts). Then it queues what
publishing the round queues (``torneo.notify_round``) and times until
the push service has received every push: the round's notices written once (``Notice``), the pushes
queued in batches of 100, each encrypted for its device (aes128gcm, RFC 8291) and signed with the
site's VAPID key by a Celery worker (``--concurrency 1``: one worker process) and posted to the
push service. A sample of the pushes received is decrypted with its subscription's keys and
checked (the right table for the right pair).

Baseline, in the same run: the same pushes sent one after another by this process
(``torneo.push.send._send_one``: the same encryption and signing, no Celery, no batches, no
threads), timed over ``--baseline`` pushes and extrapolated to all. Goal (issue 33): every push
within 30 s.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class PushService:
    """A push service on 127.0.0.1: answers 201 to every POST and keeps the bodies by path."""

    def __init__(self, latency: float) -> None:
        self.bodies: dict[str, bytes] = {}
        self.count = 0
        self.first: float | None = None
        self.last: float | None = None
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                time.sleep(latency)  # a real push service's answer takes a round trip
                now = time.perf_counter()
                with service.lock:
                    service.bodies[self.path] = body
                    service.count += 1
                    service.first = service.first or now
                    service.last = now
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=1146)
    p.add_argument("--phones-per-pair", type=int, default=2)
    p.add_argument("--baseline", type=int, default=200, help="pushes sent one by one for the baseline")
    p.add_argument(
        "--latency", type=float, default=0.08, help="seconds the push service takes to answer (default 0.08)"
    )
    p.add_argument("--timeout", type=float, default=300.0)
    return p.parse_args()


def build(pairs: int, phones: int, origin: str) -> tuple[int, dict[str, tuple[Any, bytes, int, int]]]:
    """The tournament, its published round, the tarjetas' accounts and their subscriptions; returns
    the round's id and, by endpoint path, (private key, auth secret, pair number, table)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from django.contrib.auth.models import User
    from django.utils import timezone

    from torneo.models import Match, Pair, PairTerminal, PushSubscription, Round, Tournament

    today = timezone.localdate()
    t = Tournament.objects.create(
        name="Gran torneo (avisos)",
        slug=f"avisos-{random.randrange(10**6)}",
        start_date=today,
        end_date=today,
        status=Tournament.Status.RUNNING,
        format=Tournament.Format.SWISS,
        swiss_rounds=5,
    )
    now = timezone.now()
    made = Pair.objects.bulk_create(
        [Pair(tournament=t, number=n + 1, checked_in_at=now, status=Pair.Status.CONFIRMED) for n in range(pairs)]
    )
    users = User.objects.bulk_create([User(username=f"{t.slug}-tarjeta-{p.number}") for p in made])
    PairTerminal.objects.bulk_create([PairTerminal(pair=p, user=u) for p, u in zip(made, users, strict=True)])
    round_ = Round.objects.create(
        tournament=t, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=now
    )
    Match.objects.bulk_create(
        [
            Match(round=round_, table_number=n + 1, slot=n, pair_a=made[2 * n], pair_b=made[2 * n + 1])
            for n in range(pairs // 2)
        ]
    )
    devices: dict[str, tuple[Any, bytes, int, int]] = {}
    rows = []
    for index, (pair, user) in enumerate(zip(made, users, strict=True)):
        for phone in range(phones):
            key = ec.generate_private_key(ec.SECP256R1())
            auth = os.urandom(16)
            point = key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
            path = f"/push/{pair.number}/{phone}"
            devices[path] = (key, auth, pair.number, index // 2 + 1)
            rows.append(
                PushSubscription(user=user, endpoint=origin + path, p256dh=b64(point), auth=b64(auth), tournament=t)
            )
    PushSubscription.objects.bulk_create(rows, batch_size=500)
    return round_.pk, devices


def start_worker(env: dict[str, str], var_dir: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "celery", "-A", "torneo.celery", "worker", "--loglevel=WARNING"]
    command += ["--concurrency=1", "--pidfile="]
    log = open(var_dir / "celery.log", "wb")  # noqa: SIM115 (the child keeps it)
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)


def main() -> int:
    args = parse_args()
    own = Path(tempfile.mkdtemp(prefix="torneo-push-"))
    var_dir = own / "var"
    var_dir.mkdir()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{own / 'push.sqlite3'}")
    os.environ["VAR_DIR"] = str(var_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "torneo.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import http_ece
    from django.core.management import call_command
    from django.db import connection, connections

    from torneo.models import Notice, PushSubscription
    from torneo.push import keys
    from torneo.push.send import _send_one, push_payload
    from torneo.tasks import notify_round_task

    call_command("migrate", verbosity=0, interactive=False)
    print(f"Base de datos: {connection.vendor}")
    service = PushService(args.latency)
    t0 = time.perf_counter()
    round_id, devices = build(args.pairs, args.phones_per_pair, service.origin)
    total = len(devices)
    built = time.perf_counter() - t0
    print(f"{args.pairs} parejas, {args.pairs // 2} mesas, {total} suscripciones creadas en {built:.1f} s")
    keys.vapid()  # the site's key, made now (the worker reads the same var/vapid/)
    connections.close_all()

    # Baseline: the same kind of push, one after another, in this process.
    vapid, claims = keys.vapid(), {"sub": keys.subject()}
    sample = list(PushSubscription.objects.order_by("pk")[: args.baseline])
    data = push_payload({"title": "Ronda 1: mesa 1", "body": "Contra Pareja 2", "url": "/", "tag": "r1"})
    start = time.perf_counter()
    for row in sample:
        assert _send_one(row.subscription_info(), data, 60, vapid, dict(claims)) == "delivered"
    each = (time.perf_counter() - start) / len(sample)
    serial = each * total
    print(f"Línea base: uno tras otro en este proceso, {each * 1000:.1f} ms por aviso → {serial:.1f} s para {total}")
    with service.lock:
        service.bodies.clear()
        service.count, service.first, service.last = 0, None, None

    env = {**os.environ}
    worker = start_worker(env, var_dir)
    try:
        time.sleep(3.0)  # the worker up and listening before the clock starts
        connections.close_all()
        start = time.perf_counter()
        notify_round_task.delay(round_id)
        deadline = start + args.timeout
        while service.count < total and time.perf_counter() < deadline and worker.poll() is None:
            time.sleep(0.05)
        took = (service.last or time.perf_counter()) - start
        first = (service.first or start) - start
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    ok = 0
    checked = random.Random(1).sample(sorted(service.bodies), min(50, len(service.bodies)))
    for path in checked:
        key, auth, number, table = devices[path]
        plain = http_ece.decrypt(service.bodies[path], private_key=key, auth_secret=auth, version="aes128gcm")
        push = json.loads(plain)
        ok += int(push["title"].endswith(f"mesa {table}") and push["url"].endswith(f"/parejas/{number}/ficha/"))
    notices = Notice.objects.filter(key__startswith=f"ronda:{round_id}:").count()
    print(f"Avisos recibidos: {service.count} de {total}; el primero a los {first:.2f} s, el último a los {took:.2f} s")
    print(f"Avisos anotados una vez (Notice): {notices} de {args.pairs} parejas")
    print(f"Muestra descifrada con las claves de cada suscripción: {ok} de {len(checked)} correctos")
    ratio = serial / took if took else 0.0
    print(f"Con el worker (lotes de 100, 16 a la vez): {took:.1f} s; uno tras otro {serial:.1f} s: {ratio:.1f}×")
    print(f"Objetivo (todos en menos de 30 s con un worker): {'sí' if service.count == total and took < 30 else 'NO'}")
    shutil.rmtree(own, ignore_errors=True)
    return 0 if service.count == total and ok == len(checked) else 1


if __name__ == "__main__":
    sys.exit(main())
