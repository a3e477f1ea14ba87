"""The state of the background machinery (Celery worker and beat) and the site's health: the
database, the broker and beat's last tick, for the venue's laptop and a load balancer."""

from __future__ import annotations

import dataclasses
import time
from datetime import timedelta
from typing import Any

from django.db import connection
from django.utils import timezone

from torneo.models import WorkerHeartbeat

HEARTBEAT_SECONDS = 10
# Beat every 10 s; three missed beats and the dashboard warns.
STALE_AFTER = timedelta(seconds=3 * HEARTBEAT_SECONDS)


def heartbeat_record(*, name: str) -> WorkerHeartbeat:
    beat, _ = WorkerHeartbeat.objects.update_or_create(name=name, defaults={"beat_at": timezone.now()})
    return beat


def heartbeat_age(*, name: str = "beat") -> timedelta | None:
    """How long ago the worker last ran the beat's task; None if never."""
    beat = WorkerHeartbeat.objects.filter(name=name).first()
    return None if beat is None else timezone.now() - beat.beat_at


@dataclasses.dataclass(frozen=True)
class Check:
    ok: bool
    ms: float
    detail: str = ""


def _timed(probe: Any) -> Check:
    start = time.perf_counter()
    try:
        detail = probe() or ""
    except Exception as error:  # a health check reports every failure, it never raises
        return Check(False, round(1000 * (time.perf_counter() - start), 1), type(error).__name__)
    return Check(True, round(1000 * (time.perf_counter() - start), 1), detail)


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def _broker() -> str:
    from torneo.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
        # The broker's kind from its URL (redis, filesystem), not the transport class that speaks it
        # (torneo/broker.py's own).
        return str(app.conf.broker_url).split("://", 1)[0]


def health() -> dict[str, Any]:
    """The database answers, the broker accepts a connection, beat ticked within STALE_AFTER.
    No address, user or password in the answer: it is public."""
    database = _timed(_database)
    broker = _timed(_broker)
    age = heartbeat_age() if database.ok else None
    beat_ok = age is not None and age <= STALE_AFTER
    return {
        "ok": database.ok and broker.ok and beat_ok,
        "database": dataclasses.asdict(database),
        "broker": dataclasses.asdict(broker),
        "beat": {
            "ok": beat_ok,
            "last_tick_seconds_ago": None if age is None else round(age.total_seconds(), 1),
            "stale_after_seconds": STALE_AFTER.total_seconds(),
        },
    }
