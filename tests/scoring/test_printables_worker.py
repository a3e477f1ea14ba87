"""A round's actas printed by a REAL Celery worker (with beat, on the server-less file-system broker,
against the test database): the request's message reaches the worker, which renders the PDF and
records its progress; a job whose message was lost (queued, no message) is run by beat's sweep.
The worker shares this process's VAR_DIR, hence its broker: a message from another test process
names a job this database does not have, and the worker's claim leaves it alone."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from scoring.models import PrintJob
from scoring.services.printing import printable_request
from tests.scoring import publish_next_round
from tests.scoring.test_clocks_worker import kill, start_worker, wait_for
from tests.torneo.simulation import new_tournament

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_a_real_worker_prints_a_rounds_actas_and_beat_runs_a_job_whose_message_was_lost(tmp_path: Path) -> None:
    sim = new_tournament(11)
    publish_next_round(sim)
    log = tmp_path / "worker.log"
    worker = start_worker(
        Path(settings.VAR_DIR),
        log,
        schedule=tmp_path / "beat-schedule",
        PRINT_SWEEP_SECONDS="1",
        PRINT_QUEUE_GRACE_SECONDS="60",  # the first job must come through its message, not the sweep
    )
    try:
        job = printable_request(tournament=sim.tournament, kind="actas", round_number=1, by=sim.organizer)
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
