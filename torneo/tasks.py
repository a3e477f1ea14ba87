"""Celery tasks of the tournament app. Tasks fetch by id and call services; they stay thin."""

from celery import shared_task

from torneo.services.system import heartbeat_record


@shared_task(name="torneo.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Run by beat every few seconds: proves to the dashboard that worker and beat are alive."""
    heartbeat_record(name="beat")
