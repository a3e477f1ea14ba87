"""Celery tasks of the tournament app. Tasks fetch by id and call services; they stay thin."""

from typing import Any

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


@shared_task(name="torneo.notify_round", ignore_result=True)
def notify_round_task(round_id: int) -> int:
    """Queued when a round is published: each pair's phones are told their table (torneo.notices)."""
    from torneo.models import Round
    from torneo.notices import notify_round_published

    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    return 0 if round_ is None else notify_round_published(round=round_)


@shared_task(name="torneo.email_notices_purge", ignore_result=True)
def email_notices_purge_task() -> int:
    """Hourly on beat: the notices' addresses of tournaments that are over (and those never confirmed)."""
    from torneo.services.email_notices import email_notices_purge

    return email_notices_purge()


@shared_task(name="torneo.notice_emails", bind=True, ignore_result=True, max_retries=5)
def notice_emails_task(self: Any, items: list[list[Any]]) -> int:
    """Queued by torneo.services.email_notices: a batch of e-mails, through one connection; the
    whole batch again after 30 s, 1, 2, 4 and 8 min when the mail server fails (then given up)."""
    from torneo.services.email_notices import email_batch

    try:
        return email_batch(items)
    except OSError as exc:  # smtplib's errors, a refused or lost connection
        raise self.retry(exc=exc, countdown=30 * 2**self.request.retries) from exc


@shared_task(name="torneo.push_batch", bind=True, ignore_result=True, max_retries=5)
def push_batch_task(self: Any, items: list[list[Any]], ttl: int) -> int:
    """Queued by torneo.push.send.push_send_each: one batch of Web Push notifications, each
    ``[subscription id, data]``. The ones that failed for a reason that may pass (408, 429, 5xx,
    network) are retried alone, after 1, 2, 4, 8 and 16 s; then given up."""
    from torneo.push.send import MAX_RETRIES, push_batch

    again = push_batch(items, ttl)
    if again and self.request.retries < MAX_RETRIES:
        raise self.retry(args=(again, ttl), countdown=2**self.request.retries, max_retries=MAX_RETRIES)
    return len(items) - len(again)
