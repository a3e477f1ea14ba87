"""A real Celery worker with beat, on the server-less file-system broker, against the test
database: the periodic task runs and the organizer's dashboard sees it."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from tests.factories import TournamentFactory, UserFactory, grant
from torneo.models import WorkerHeartbeat

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    return f"sqlite:///{db['NAME']}"


def test_worker_and_beat_run_the_heartbeat(tmp_path: Path) -> None:
    # Its own VAR_DIR, so its own file-system broker: beat and worker talk only to each other.
    env = {**os.environ, "DATABASE_URL": database_url(), "VAR_DIR": str(tmp_path)}
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "torneo.celery",
            "worker",
            "--beat",
            "--pool=solo",
            "--loglevel=INFO",
            "--schedule",
            str(tmp_path / "beat-schedule"),
            "--pidfile=",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not WorkerHeartbeat.objects.filter(name="beat").exists():
            assert worker.poll() is None, worker.stdout.read() if worker.stdout else ""
            time.sleep(0.5)
        assert WorkerHeartbeat.objects.filter(name="beat").exists(), "beat never ran the heartbeat task"
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
    t = TournamentFactory()
    client = Client()
    client.force_login(grant(UserFactory(), t, "organizer"))
    assert "Tareas programadas (Celery): en marcha." in client.get(f"/torneos/{t.slug}/gestion/").content.decode()


def test_dashboard_warns_when_beat_never_ran() -> None:
    t = TournamentFactory()
    client = Client()
    client.force_login(grant(UserFactory(), t, "organizer"))
    assert "no se han ejecutado nunca" in client.get(f"/torneos/{t.slug}/gestion/").content.decode()
