"""Celery tasks of the tournament app. Tasks fetch by id and call services; they stay thin."""

from celery import shared_task

from torneo.idempotency import idempotency_purge
from torneo.services.system import heartbeat_record
from torneo.views.prerender import prerender_pages


@shared_task(name="torneo.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Run by beat every few seconds: proves to the dashboard that worker and beat are alive."""
    heartbeat_record(name="beat")


@shared_task(name="torneo.prerender_pages", ignore_result=True)
def prerender_pages_task(tournament_id: int, pair_ids: list[int], shared: bool) -> int:
    """Sent when a draw or a result commits (torneo.services.live): the pages it changed, rendered
    for the anonymous visitors before their phones ask (torneo.views.prerender)."""
    return prerender_pages(tournament_id=tournament_id, pair_ids=pair_ids, shared=shared)


@shared_task(name="torneo.idempotency_purge", ignore_result=True)
def idempotency_purge_task() -> int:
    """Hourly on beat: forget the API's Idempotency-Key answers past their keeping time."""
    return idempotency_purge()
