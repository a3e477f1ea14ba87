"""Sending Web Push notifications: ``push_send(user_ids=..., payload=...)`` queues the work on
Celery, 100 subscriptions per task (``torneo.push_batch``, torneo/tasks.py); each task sends its
batch in parallel (16 threads), each push encrypted for its device (aes128gcm, RFC 8291) and
signed with the site's VAPID key (RFC 8292, torneo/push/keys.py).

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
    """Queue ``payload`` for every subscription of these accounts; returns how many subscriptions."""
    data = push_payload(payload)
    ids = list(PushSubscription.objects.filter(user_id__in=list(user_ids)).order_by("pk").values_list("pk", flat=True))
    if not ids:
        return 0

    def queue() -> None:
        from torneo.tasks import push_batch_task

        for start in range(0, len(ids), BATCH_SIZE):
            push_batch_task.delay(ids[start : start + BATCH_SIZE], data, ttl)

    transaction.on_commit(queue)
    return len(ids)


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


def push_batch(subscription_ids: Sequence[int], data: str, ttl: int) -> list[int]:
    """Send ``data`` to these subscriptions (those still there), in parallel; update or delete
    each row by the answer. Returns the ids to try again (408, 429, 5xx, network errors)."""
    from torneo.push import keys

    rows = list(PushSubscription.objects.filter(pk__in=subscription_ids).order_by("pk"))
    if not rows:
        return []
    vapid = keys.vapid()
    claims = {"sub": keys.subject()}
    with ThreadPoolExecutor(max_workers=min(THREADS, len(rows))) as pool:
        outcomes = list(pool.map(lambda row: _send_one(row.subscription_info(), data, ttl, vapid, claims), rows))
    by_outcome: dict[str, list[int]] = {DELIVERED: [], GONE: [], RETRY: [], FAILED: []}
    for row, outcome in zip(rows, outcomes, strict=True):
        by_outcome[outcome].append(row.pk)
    if by_outcome[DELIVERED]:
        PushSubscription.objects.filter(pk__in=by_outcome[DELIVERED]).update(last_ok_at=timezone.now(), failures=0)
    if by_outcome[GONE]:
        PushSubscription.objects.filter(pk__in=by_outcome[GONE]).delete()
    failed = by_outcome[RETRY] + by_outcome[FAILED]
    if failed:
        PushSubscription.objects.filter(pk__in=failed).update(failures=F("failures") + 1)
    return by_outcome[RETRY]
