"""Printables built in the background (scoring.models.PrintJob): asked for from a page or the API,
rendered by a Celery worker with a progress the page shows, stored, and reused until what they
print changes.

``printable_request`` reads the document's data (scoring.selectors.printables) and its digest: a
job for the same document and digest is reused — its PDF if done, the job itself while it runs —
else a new job is queued and handed to a worker once the transaction commits. ``printable_run``
(the task) claims a queued job with one conditional UPDATE, so two workers given the same job
render it once; it reports its progress after each chunk of sheets in statements of their own,
which the page reads while the job runs. ``printables_sweep`` (beat) runs the jobs whose message
was lost (queued longer than PRINT_QUEUE_GRACE_SECONDS: a broker restarted, a worker killed) and
queues again the ones left running by a dead worker (PRINT_RUNNING_TIMEOUT_SECONDS).
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import PrintJob
from scoring.printing import pdf_of_sheets
from scoring.selectors.printables import BUILDERS, ROUND_KINDS
from torneo.models import Tournament

log = logging.getLogger(__name__)


def _enqueue(job: PrintJob) -> None:
    from scoring.tasks import print_job_task  # the task module imports this one

    transaction.on_commit(lambda: print_job_task.delay(job.pk))


def printable_request(
    *, tournament: Tournament, kind: str, round_number: int = 0, by: AbstractBaseUser | None
) -> PrintJob:
    """The job that prints this document as its data stand now: reused if one exists for the same
    digest (a failed one is queued again), else a new one, queued. Its links (the actas' QR codes)
    are to the site's configured address, settings.SITE_URL, never to the Host a request came
    with: whatever name or port asked for it, the same document is the same job."""
    builder = BUILDERS.get(kind)
    if builder is None:
        raise ValidationError({"kind": _("Documento desconocido: «%(k)s».") % {"k": kind}})
    if kind not in ROUND_KINDS:
        round_number = 0  # the tournament's document, not a round's
    elif round_number < 1:
        raise ValidationError({"round": _("Indica la ronda.")})
    base_url = settings.SITE_URL + "/"
    printable = builder(tournament, round_number, base_url)
    key = {"tournament": tournament, "kind": kind, "round_number": round_number, "digest": printable.digest}
    job = PrintJob.objects.filter(**key).first()
    if job is None:
        try:
            with transaction.atomic():
                job = PrintJob.objects.create(
                    **key,
                    base_url=base_url,
                    total=len(printable.items),
                    requested_by=by,  # type: ignore[misc]
                )
        except IntegrityError:  # the same request, at the same moment: theirs is ours
            return PrintJob.objects.get(**key)
        _enqueue(job)
        return job
    if job.status == PrintJob.Status.FAILED:
        PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.FAILED).update(
            status=PrintJob.Status.QUEUED, done=0, error="", created_at=timezone.now()
        )
        job.refresh_from_db()
        _enqueue(job)
    return job


def _progress(rows: QuerySet[PrintJob], done: int) -> None:
    rows.update(done=done)


def printable_run(*, job_id: int) -> bool:
    """Render a queued job (the Celery task's body). False when another worker has it, or it is
    done: the claim is one conditional UPDATE."""
    claimed = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
        status=PrintJob.Status.RUNNING, started_at=timezone.now(), done=0
    )
    if not claimed:
        return False
    job = PrintJob.objects.select_related("tournament").get(pk=job_id)
    rows = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING)
    try:
        printable = BUILDERS[job.kind](job.tournament, job.round_number, job.base_url)
        rows.update(total=len(printable.items))
        pdf, pages = pdf_of_sheets(
            printable.template,
            printable.items,
            context=printable.context,
            key=printable.key,
            progress=lambda done: _progress(rows, done),
            frame=printable.frame,
        )
    except Exception as error:  # a bad document must not leave its job running forever
        log.exception("printable %s failed", job_id)
        rows.update(status=PrintJob.Status.FAILED, error=str(error)[:500], finished_at=timezone.now())
        return False
    done = len(printable.items)
    rows.update(status=PrintJob.Status.DONE, pdf=pdf, pages=pages, done=done, finished_at=timezone.now())
    _prune(job)
    return True


KEEP = 3
"""Versions of a document kept with their PDF (the newest): a round reprinted after every sanction
must not fill the database with megabytes of old actas."""


def _prune(job: PrintJob) -> None:
    """Forget all but the newest KEEP finished versions of ``job``'s document."""
    versions = PrintJob.objects.filter(
        tournament_id=job.tournament_id,
        kind=job.kind,
        round_number=job.round_number,
        status__in=(PrintJob.Status.DONE, PrintJob.Status.FAILED),
    ).order_by("-finished_at", "-pk")
    old = list(versions.values_list("pk", flat=True)[KEEP:])
    if old:
        PrintJob.objects.filter(pk__in=old).delete()


def printables_sweep(*, now: datetime.datetime | None = None) -> int:
    """Run what no worker will (beat, every PRINT_SWEEP_SECONDS): jobs left running by a dead
    worker go back to the queue, jobs queued longer than the grace are run here. How many ran."""
    now = now or timezone.now()
    dead = now - datetime.timedelta(seconds=settings.PRINT_RUNNING_TIMEOUT_SECONDS)
    PrintJob.objects.filter(status=PrintJob.Status.RUNNING, started_at__lt=dead).update(
        status=PrintJob.Status.QUEUED, created_at=now - datetime.timedelta(days=1)
    )
    lost = now - datetime.timedelta(seconds=settings.PRINT_QUEUE_GRACE_SECONDS)
    ids = PrintJob.objects.filter(status=PrintJob.Status.QUEUED, created_at__lte=lost).values_list("pk", flat=True)
    return sum(printable_run(job_id=pk) for pk in list(ids))
