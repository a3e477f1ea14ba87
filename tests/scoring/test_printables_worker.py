"""A round's actas printed by a REAL Celery worker (with beat, on the server-less file-system broker,
against the test database): the request's message reaches the worker, which renders the PDF and
records its progress; a job whose message was lost (queued, no message) is run by beat's sweep.
The worker shares this process's VAR_DIR, hence its broker: a message from another test process
names a job this database does not have, and the worker's claim leaves it alone."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from scoring.models import PrintJob
from scoring.services.printing import printable_request
from tests.scoring import publish_next_round
from tests.scoring.test_clocks_worker import kill, wait_for
from tests.torneo.simulation import new_tournament
from tests.torneo.test_celery_worker import database_url

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def start_worker(tmp_path: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "VAR_DIR": str(settings.VAR_DIR),
        "PRINT_SWEEP_SECONDS": "1",
        "PRINT_QUEUE_GRACE_SECONDS": "60",  # the first job must come through its message, not the sweep
    }
    with log.open("ab") as out:
        return subprocess.Popen(
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
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def test_a_real_worker_prints_a_rounds_actas_and_beat_runs_a_job_whose_message_was_lost(tmp_path: Path) -> None:
    sim = new_tournament(11)
    publish_next_round(sim)
    log = tmp_path / "worker.log"
    worker = start_worker(tmp_path, log)
    try:
        job = printable_request(
            tournament=sim.tournament, kind="actas", round_number=1, by=sim.organizer, base_url="http://mus.test/"
        )
        assert job.status == PrintJob.Status.QUEUED

        def done(pk: int) -> bool:
            return PrintJob.objects.filter(pk=pk, status=PrintJob.Status.DONE).exists()

        wait_for(lambda: done(job.pk), worker, log, "the actas through the worker")
        job.refresh_from_db()
        assert (job.pages, job.done, job.total) == (5, 5, 5) and bytes(job.pdf).startswith(b"%PDF")
        assert job.started_at is not None and job.finished_at is not None

        # A job left queued with no message (a broker restarted): beat's sweep runs it.
        lost = PrintJob.objects.create(
            tournament=sim.tournament, kind="standings", digest="x" * 64, base_url="http://mus.test/", total=0
        )
        PrintJob.objects.filter(pk=lost.pk).update(created_at=timezone.now() - datetime.timedelta(minutes=5))
        wait_for(lambda: done(lost.pk), worker, log, "the sweep of a job with no message")
    finally:
        kill(worker)
