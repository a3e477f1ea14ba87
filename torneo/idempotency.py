"""``Idempotency-Key`` on every API write (issue 33; the IETF draft «The Idempotency-Key HTTP
Header Field», as Stripe uses it).

A phone queues what it typed without network and sends it when the connection returns; an answer
lost on the venue's Wi-Fi makes it send again. Each write carries a key the phone made for it
(a UUID): the first request with that key is answered and its answer kept; the same key again from
the same account gets that answer back (``Idempotent-Replayed: true``) and writes nothing; the same
key for a different request (another path, method or body) is refused (422); the same key while
the first is still being answered waits for it (409, ``Retry-After``).

The write and the record of its answer commit together (one transaction), so a server that dies
half-way has written neither, and the key can be sent again. What is kept: final answers — 2xx and
the 4xx that say something about the request (400, 404, 409, 422…). Never kept, so that sending
again tries again: 5xx, and 401/403/429 (not signed in, a CSRF token missing, a limit: they change
with time). Keys are per account (an anonymous write has no key to keep: it is answered as
without one) and kept ``IDEMPOTENCY_KEEP_HOURS`` (24 h; `idempotency_purge`, hourly on beat)."""

from __future__ import annotations

import datetime
import hashlib
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.settings import api_settings

from torneo.models import IdempotentRequest

HEADER = "Idempotency-Key"
KEY = re.compile(r"^[\x21-\x7e]{1,100}$")  # visible ASCII, as the draft's examples (UUIDs)
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
NOT_KEPT = frozenset({401, 403, 408, 429})
MAX_BODY = 2 * 1024 * 1024  # an answer bigger than this is not kept (the API's are a few KB)
IN_FLIGHT_SECONDS = 120  # a first request older than this without an answer died with its process


def _error(status: int, detail: str, code: str, **headers: str) -> JsonResponse:
    response = JsonResponse({"detail": detail, "code": code}, status=status)
    for name, value in headers.items():
        response[name] = value
    response["Cache-Control"] = "no-store"
    return response


def _api_user(request: HttpRequest) -> Any:
    """The account the API will see: the session's, or a token's (DRF authenticates in the view,
    after the middleware; the token is checked here the same way, CSRF is left to the view)."""
    if getattr(request, "user", None) is not None and request.user.is_authenticated:
        return request.user
    drf = Request(request)
    for authenticator in api_settings.DEFAULT_AUTHENTICATION_CLASSES:
        if issubclass(authenticator, SessionAuthentication):
            continue
        try:
            found = authenticator().authenticate(drf)
        except Exception:  # a bad token: the view answers it, without a key
            return None
        if found is not None:
            return found[0]
    return None


def _fingerprint(request: HttpRequest) -> str:
    digest = hashlib.sha256()
    digest.update(request.method.encode() if request.method else b"")
    digest.update(b"\0" + request.get_full_path().encode() + b"\0")
    digest.update(request.body)
    return digest.hexdigest()


def _replay(row: IdempotentRequest) -> HttpResponse:
    response = HttpResponse(bytes(row.body), status=row.status, content_type=row.content_type or None)
    response["Idempotent-Replayed"] = "true"
    response["Cache-Control"] = "no-store"
    return response


class IdempotencyMiddleware:
    """After the authentication middleware; only ``/api/`` writes that carry the header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get(HEADER)
        if key is None or request.method not in UNSAFE or not request.path.startswith("/api/"):
            return self.get_response(request)
        key = key.strip()
        if not KEY.match(key):
            return _error(
                400,
                _("La cabecera Idempotency-Key no es válida: de 1 a 100 caracteres visibles (p. ej. un UUID)."),
                "idempotency_key",
            )
        fingerprint = _fingerprint(request)  # reads the body first: the view parses it afterwards
        user = _api_user(request)
        if user is None:
            return self.get_response(request)
        row, refusal = self._claim(user, key, request, fingerprint)
        if refusal is not None:
            return refusal
        assert row is not None
        with transaction.atomic():
            response = self.get_response(request)
            kept = (
                200 <= response.status_code < 500
                and response.status_code not in NOT_KEPT
                and not response.streaming
                and len(response.content) <= MAX_BODY
            )
            if kept:
                row.status = response.status_code
                row.content_type = response.get("Content-Type", "")[:100]
                row.body = response.content
                row.save(update_fields=["status", "content_type", "body"])
            else:
                transaction.set_rollback(True)  # a 5xx leaves nothing half-written; try again
        if not kept:
            IdempotentRequest.objects.filter(pk=row.pk, status=0).delete()
        return response

    def _claim(
        self, user: Any, key: str, request: HttpRequest, fingerprint: str
    ) -> tuple[IdempotentRequest | None, HttpResponse | None]:
        """The key's row, new (this request answers it), or the answer already due to it."""
        path = request.path[:500]
        method = request.method or ""
        for _attempt in range(2):
            try:
                with transaction.atomic():
                    row = IdempotentRequest.objects.create(
                        user=user, key=key, method=method, path=path, fingerprint=fingerprint
                    )
                return row, None
            except IntegrityError:
                pass
            first = IdempotentRequest.objects.filter(user=user, key=key).first()
            if first is None:
                continue  # answered with an error and released meanwhile: claim it again
            if first.fingerprint != fingerprint:
                return None, _error(
                    422,
                    _(
                        "Esta Idempotency-Key ya se usó para otra petición (%(method)s %(path)s): cada envío "
                        "lleva su propia clave."
                    )
                    % {"method": first.method, "path": first.path},
                    "idempotency_key_reused",
                )
            if first.status:
                return None, _replay(first)
            stale = timezone.now() - datetime.timedelta(seconds=IN_FLIGHT_SECONDS)
            if first.created_at < stale and IdempotentRequest.objects.filter(pk=first.pk, status=0).delete()[0]:
                continue  # its process died before answering: this request answers it now
            return None, _error(
                409,
                _("La misma petición aún se está atendiendo: vuelve a enviarla en un momento."),
                "idempotency_in_flight",
                **{"Retry-After": "1"},
            )
        return None, _error(409, _("Vuelve a enviarla en un momento."), "idempotency_in_flight", **{"Retry-After": "1"})


def idempotency_purge(*, now: datetime.datetime | None = None) -> int:
    """Forget the keys older than IDEMPOTENCY_KEEP_HOURS: how many."""
    hours = getattr(settings, "IDEMPOTENCY_KEEP_HOURS", 24)
    until = (now or timezone.now()) - datetime.timedelta(hours=hours)
    return IdempotentRequest.objects.filter(created_at__lt=until).delete()[0]
