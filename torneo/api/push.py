"""Web Push subscriptions (issue 33): the site's VAPID public key, and a browser's subscription
saved or removed by the account signed in on it (a player's, a pair's terminal, the staff's).

- ``GET /api/v1/push/key/``: ``{"public_key": "<base64url>"}``, the ``applicationServerKey`` to
  subscribe with (public);
- ``POST /api/v1/push/subscriptions/``: the browser's ``PushSubscription.toJSON()``
  (``{"endpoint", "keys": {"p256dh", "auth"}}``) and, optionally, the ``tournament`` (its slug)
  it was turned on for. The same endpoint again updates its row (201 the first time, 200 after);
  an endpoint saved by another account passes to this one (the device is signed in as it now);
- ``DELETE /api/v1/push/subscriptions/``: ``{"endpoint"}``, one of this account's own (404 else).

The endpoint must be https (http only with DEBUG or on this machine: localhost, 127.0.0.1); the
keys base64url: ``p256dh`` a P-256 point, uncompressed (65 bytes), ``auth`` 16 bytes."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from torneo.models import PushSubscription, Tournament
from torneo.permissions import can_view
from torneo.push.keys import b64url_decode, public_key_b64url

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
P256DH_BYTES = 65
AUTH_BYTES = 16


def _endpoint_allowed(value: str) -> str:
    url = urlparse(value)
    if url.scheme == "https" or (url.scheme == "http" and (settings.DEBUG or url.hostname in LOCAL_HOSTS)):
        return value
    raise serializers.ValidationError(_("El campo «endpoint» debe ser una dirección https."))


def _b64url(value: str, field: str, size: int) -> bytes:
    try:
        raw = b64url_decode(value)
    except ValueError:
        raw = b""
    if not raw:
        raise serializers.ValidationError(_("El campo «%(field)s» debe estar en base64url.") % {"field": field})
    if len(raw) != size:
        raise serializers.ValidationError(
            _("El campo «%(field)s» debe medir %(size)s bytes (tiene %(got)s).")
            % {"field": field, "size": size, "got": len(raw)}
        )
    return raw


class PushKeysSerializer(serializers.Serializer[Any]):
    p256dh = serializers.CharField(max_length=200, trim_whitespace=True)
    auth = serializers.CharField(max_length=100, trim_whitespace=True)

    def validate_p256dh(self, value: str) -> str:
        raw = _b64url(value, "keys.p256dh", P256DH_BYTES)
        try:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
        except ValueError as exc:
            raise serializers.ValidationError(
                _("El campo «keys.p256dh» debe ser un punto P-256 sin comprimir.")
            ) from exc
        return value.rstrip("=")

    def validate_auth(self, value: str) -> str:
        _b64url(value, "keys.auth", AUTH_BYTES)
        return value.rstrip("=")


class PushSubscriptionSerializer(serializers.Serializer[Any]):
    endpoint = serializers.URLField(max_length=1000, validators=[_endpoint_allowed])
    keys = PushKeysSerializer()
    tournament = serializers.CharField(max_length=100, required=False, allow_blank=True, allow_null=True)
    expirationTime = serializers.IntegerField(required=False, allow_null=True)  # the browser's own; ignored

    def validate_tournament(self, value: str | None) -> Tournament | None:
        if not value:
            return None
        tournament = Tournament.objects.filter(slug=value).first()
        if tournament is None or not can_view(self.context["request"].user, tournament):
            raise serializers.ValidationError(_("El campo «tournament» no es un torneo que exista."))
        return tournament


class PushEndpointSerializer(serializers.Serializer[Any]):
    endpoint = serializers.URLField(max_length=1000)


SUBSCRIPTION_ANSWER = inline_serializer(
    "PushSubscriptionSaved",
    fields={
        "endpoint": serializers.URLField(),
        "tournament": serializers.CharField(allow_null=True),
        "created_at": serializers.DateTimeField(),
    },
)
BROWSER_EXAMPLE = {
    "endpoint": "https://push.example.net/v2/gAAAAABk…",
    "keys": {
        "p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
        "auth": "tBHItJI5svbpez7KI4CCXg",
    },
    "tournament": "open-de-mus",
}


class PushKeyView(APIView):
    """The site's VAPID public key: the ``applicationServerKey`` a browser subscribes with."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="push_key",
        responses=inline_serializer("PushKey", fields={"public_key": serializers.CharField()}),
    )
    def get(self, request: Request) -> Response:
        return Response({"public_key": public_key_b64url()})


class PushSubscriptionsView(APIView):
    """This browser's push subscription, saved (POST) or removed (DELETE) by the account signed in."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="push_subscription_save",
        request=PushSubscriptionSerializer,
        responses={200: SUBSCRIPTION_ANSWER, 201: SUBSCRIPTION_ANSWER},
        examples=[OpenApiExample("PushSubscription del navegador", value=BROWSER_EXAMPLE, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        serializer = PushSubscriptionSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        row, created = PushSubscription.objects.update_or_create(
            endpoint=data["endpoint"],
            defaults={
                "user": request.user,
                "p256dh": data["keys"]["p256dh"],
                "auth": data["keys"]["auth"],
                "tournament": data.get("tournament"),
                "failures": 0,
            },
        )
        return Response(
            {
                "endpoint": row.endpoint,
                "tournament": row.tournament.slug if row.tournament else None,
                "created_at": row.created_at,
            },
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @extend_schema(operation_id="push_subscription_delete", request=PushEndpointSerializer, responses={204: None})
    def delete(self, request: Request) -> Response:
        serializer = PushEndpointSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        deleted, _rows = PushSubscription.objects.filter(
            user=request.user, endpoint=serializer.validated_data["endpoint"]
        ).delete()
        if not deleted:
            raise NotFound(_("Esta cuenta no tiene esa suscripción."))
        return Response(status=status.HTTP_204_NO_CONTENT)
