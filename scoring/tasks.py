"""Celery tasks of the scoring app. Thin: they call services."""

from celery import shared_task

from scoring.services.clocks import clocks_tick


@shared_task(name="scoring.clocks_tick", ignore_result=True)
def clocks_tick_task() -> int:
    """Run by beat every few seconds (CLOCK_TICK_SECONDS): applies what the match clocks made due
    (AMM chapter VI). Idempotent, so a tick lost with a killed worker is made up by the next one."""
    return clocks_tick()
