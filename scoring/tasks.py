"""Celery tasks of the scoring app. Thin: they call services."""

from celery import shared_task

from scoring.services.clocks import clocks_tick
from scoring.services.printing import printable_run, printables_sweep
from scoring.services.results import result_notify_rival


@shared_task(name="scoring.clocks_tick", ignore_result=True)
def clocks_tick_task() -> int:
    """Run by beat every few seconds (CLOCK_TICK_SECONDS): applies what the match clocks made due
    (AMM chapter VI). Idempotent, so a tick lost with a killed worker is made up by the next one."""
    return clocks_tick()


@shared_task(name="scoring.print_job", ignore_result=True)
def print_job_task(job_id: int) -> bool:
    """Render one printable (a round's actas…) with its progress; a job already claimed is left
    to the worker that has it."""
    return printable_run(job_id=job_id)


@shared_task(name="scoring.printables_sweep", ignore_result=True)
def printables_sweep_task() -> int:
    """Run by beat: the printables whose message was lost or whose worker died."""
    return printables_sweep()


@shared_task(name="scoring.notify_rival", ignore_result=True)
def notify_rival_task(submission_id: int, reporter_id: int) -> int:
    """Queued when a pair's report commits: the rival pair's phones are asked to sign it."""
    return result_notify_rival(submission_id=submission_id, reporter_id=reporter_id)
