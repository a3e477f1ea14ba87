"""Sending Web Push notifications: ``push_send(user_ids=..., payload=...)`` (one notification for
some accounts) or ``push_send_each(messages=...)`` (a notification of its own for each group of
accounts: each pair its table) queues the work on Celery, 100 pushes per task
(``torneo.push_batch``, torneo/tasks.py); each task sends its batch in parallel (16 threads),
each push encrypted for its device (aes128gcm, RFC 8291) and signed with the site's VAPID key
(RFC 8292, torneo/push/keys.py).

What the push service answers decides what happens to the subscription:

- 2xx: delivered; ``last_ok_at`` now, ``failures`` back to 0;
- 404 or 410: the browser unsubscribed or the subscription expired: the row is deleted;
- 408, 429, 5xx or no answer (a network error, a timeout): ``failures`` + 1, and the task is retried
  for those subscriptions only, after 1, 2, 4, 8 and 16 s (five retries; then given up);
- any other 4xx (a payload the service refuses, a bad key): ``failures`` + 1, not retried (the
  same push would be refused again).

The payload: a JSON object ``{"title", "body", "url", "tag"}`` (``title`` required; ``url`` a path
of this site; ``tag`` lets a newer notification replace an older one on the device), at most 3 KB
once encoded (push services take 4 KB with the encryption's overhead). The push services carry it
encrypted, but it still ends on a phone's lock screen: it names tables and pairs («Mesa 4: Pareja
12 – Pareja 3») and nothing personal beyond that — no player's name, document, phone or e-mail, no
result that is not public, no link carrying a secret.

``push_send`` queues the tasks when the current transaction commits (at once outside one), so a
task never reads rows its caller may still roll back."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlparse

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from torneo.models import PushSubscription

logger = logging.getLogger(__name__)

BATCH_SIZE = 100
THREADS = 16
MAX_PAYLOAD_BYTES = 3 * 1024
MAX_RETRIES = 5
DEFAULT_TTL = 60 * 60  # seconds a push service keeps a notification for a device that is offline
TIMEOUT = 10.0  # seconds for each push service's answer
PAYLOAD_FIELDS = ("title", "body", "url", "tag")

DELIVERED = "delivered"
GONE = "gone"
RETRY = "retry"
FAILED = "failed"


def push_payload(payload: dict[str, Any]) -> str:
    """The payload as sent: JSON, only the known fields, each a string; ValueError otherwise."""
    unknown = set(payload) - set(PAYLOAD_FIELDS)
    if unknown:
        raise ValueError(f"campos desconocidos en la notificación: {sorted(unknown)}")
    if not payload.get("title"):
        raise ValueError("la notificación necesita un título")
    if any(not isinstance(value, str) for value in payload.values()):
        raise ValueError("los campos de la notificación son textos")
    url = payload.get("url", "")
    if url and (not url.startswith("/") or url.startswith("//") or urlparse(url).scheme):
        raise ValueError("la dirección de la notificación es una ruta de este sitio (/…)")
    data = json.dumps({k: payload[k] for k in PAYLOAD_FIELDS if k in payload}, ensure_ascii=False)
    if len(data.encode()) > MAX_PAYLOAD_BYTES:
        raise ValueError(f"la notificación pasa de {MAX_PAYLOAD_BYTES} bytes")
    return data


def push_send(*, user_ids: Iterable[int], payload: dict[str, Any], ttl: int = DEFAULT_TTL) -> int:
    """Queue ``payload`` for every subscription of these accounts; returns how many pushes."""
    return push_send_each(messages=[(user_ids, payload)], ttl=ttl)


def push_send_each(*, messages: Sequence[tuple[Iterable[int], dict[str, Any]]], ttl: int = DEFAULT_TTL) -> int:
    """Queue each message's payload for every subscription of its accounts (one query for all:
    a draw of 573 tables is 1,146 messages); returns how many pushes. ValueError, before anything
    is queued, for a payload that is not one (`push_payload`)."""
    wanted: dict[int, list[str]] = {}
    for user_ids, payload in messages:
        data = push_payload(payload)
        for user_id in user_ids:
            wanted.setdefault(user_id, []).append(data)
    if not wanted:
        return 0
    rows = PushSubscription.objects.filter(user_id__in=list(wanted)).order_by("pk").values_list("pk", "user_id")
    items = [(pk, data) for pk, user_id in rows for data in wanted[user_id]]
    if not items:
        return 0

    def queue() -> None:
        from torneo.tasks import push_batch_task

        for start in range(0, len(items), BATCH_SIZE):
            push_batch_task.delay(items[start : start + BATCH_SIZE], ttl)

    transaction.on_commit(queue)
    return len(items)


def _send_one(subscription: dict[str, Any], data: str, ttl: int, vapid: Any, claims: dict[str, Any]) -> str:
    from pywebpush import WebPushException, webpush

    try:
        webpush(
            subscription_info=subscription,
            data=data,
            vapid_private_key=vapid,
            vapid_claims=dict(claims),  # webpush writes aud and exp into it: one per push
            content_encoding="aes128gcm",
            ttl=ttl,
            timeout=TIMEOUT,
        )
    except WebPushException as exc:
        code = exc.response.status_code if exc.response is not None else None
        if code in (404, 410):
            return GONE
        if code is None or code in (408, 429) or code >= 500:
            return RETRY
        logger.warning("push refused by %s: %s", urlparse(subscription["endpoint"]).netloc, code)
        return FAILED
    except Exception as exc:  # network errors, timeouts: the push service may answer later
        logger.info("push to %s failed: %r", urlparse(subscription["endpoint"]).netloc, exc)
        return RETRY
    return DELIVERED


def push_batch(items: Sequence[Sequence[Any]], ttl: int) -> list[tuple[int, str]]:
    """Send each ``(subscription id, data)`` (those whose subscription is still there), in parallel;
    update or delete each row by the answer. Returns the pushes to try again (408, 429, 5xx,
    network errors)."""
    from torneo.push import keys

    pushes = [(int(pk), str(data)) for pk, data in items]
    rows = PushSubscription.objects.in_bulk({pk for pk, _data in pushes})
    pushes = [(pk, data) for pk, data in pushes if pk in rows]
    if not pushes:
        return []
    vapid = keys.vapid()
    claims = {"sub": keys.subject()}
    with ThreadPoolExecutor(max_workers=min(THREADS, len(pushes))) as pool:
        outcomes = list(
            pool.map(lambda push: _send_one(rows[push[0]].subscription_info(), push[1], ttl, vapid, claims), pushes)
        )
    by_outcome: dict[str, set[int]] = {DELIVERED: set(), GONE: set(), RETRY: set(), FAILED: set()}
    again = []
    for push, outcome in zip(pushes, outcomes, strict=True):
        by_outcome[outcome].add(push[0])
        if outcome == RETRY:
            again.append(push)
    gone = by_outcome[GONE]
    delivered = by_outcome[DELIVERED] - gone
    if delivered:
        PushSubscription.objects.filter(pk__in=delivered).update(last_ok_at=timezone.now(), failures=0)
    if gone:
        PushSubscription.objects.filter(pk__in=gone).delete()
    failed = (by_outcome[RETRY] | by_outcome[FAILED]) - gone
    if failed:
        PushSubscription.objects.filter(pk__in=failed).update(failures=F("failures") + 1)
    return [push for push in again if push[0] not in gone]
