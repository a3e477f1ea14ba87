"""API v1: tournaments — the public ones plus those where you hold a role; creating and editing one.
Thin: services do the writes.

Once round 1 is prepared, the format, the ceros, the juegos, the tantos, the reglamento and the
number of liguillas are fixed (a 400 on the field), and a change that alters the standings or the
pairings needs ``"confirm": true`` in the same request (else a 400 on «confirm» saying what the
change does).

A pair's own phone also confirms its presence here (``self-check-in``, issue 32): the API twin of the
page torneo.views.terminals.self_check_in, with the same service and the same limit on wrong codes."""

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, Throttled
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from torneo.api.serializers import TournamentSerializer
from torneo.errors import TournamentError
from torneo.models import Tournament
from torneo.permissions import Action, can, can_create_tournament, can_view
from torneo.selectors.tournaments import tournaments_visible_to
from torneo.services.self_check_in import pair_self_check_in
from torneo.services.tournaments import tournament_create, tournament_update
from torneo.views.terminals import SelfCheckInThrottle

NO_STORE = {"Cache-Control": "no-store"}
# The page's own words (templates/torneo/terminals/check_in.html, torneo.views.terminals): already
# in the catalogues.
CODE_MESSAGE = gettext_lazy(
    "Escribe el código que muestra la pantalla de la sala (cambia cada 5 minutos), o escanea su código QR."
)
TOO_MANY_CODES = gettext_lazy("Demasiados códigos equivocados.")


class TournamentWriteSerializer(TournamentSerializer):
    """The tournament, plus the write-only ``confirm`` of a change to a drawn tournament."""

    confirm = serializers.BooleanField(
        write_only=True,
        required=False,
        default=False,
        help_text=(
            "Confirma un cambio que altera la clasificación o los emparejamientos de un torneo ya "
            "sorteado (desempates, puntos, repesca, rondas del suizo, rondas finales…)."
        ),
    )

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "confirm"]


class SelfCheckInSerializer(serializers.Serializer):
    """The venue's code, as the page's form names it (``codigo``; its QR fills it in as ``?codigo=``)."""

    codigo = serializers.CharField(
        max_length=12,
        help_text="El código de la sala: el que muestra ahora la pantalla (cambia cada 5 minutos).",
        error_messages=dict.fromkeys(("required", "null", "blank", "invalid", "max_length"), CODE_MESSAGE),
    )


class SelfCheckInResultSerializer(serializers.Serializer):
    """The pair that is present now, and since when (the first check-in's time: it is idempotent)."""

    pair = serializers.IntegerField(source="number", help_text="Número de la pareja.")
    checked_in_at = serializers.DateTimeField(help_text="Cuándo confirmó la pareja su presencia.")


class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Tournaments: the public ones, plus those where you hold a role."""

    serializer_class = TournamentWriteSerializer
    lookup_field = "slug"

    def get_queryset(self) -> QuerySet[Tournament]:
        return tournaments_visible_to(self.request.user).prefetch_related("sessions")

    def get_object(self) -> Tournament:
        tournament = get_object_or_404(Tournament.objects.prefetch_related("sessions"), slug=self.kwargs["slug"])
        if not can_view(self.request.user, tournament):
            raise Http404
        if self.action in ("update", "partial_update") and not can(
            self.request.user, tournament, Action.TOURNAMENT_EDIT
        ):
            raise PermissionDenied
        return tournament

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Who may create is checked before the body is read: a refused user learns nothing from the
        validation (which slugs are taken). A bad body then gets every error at once (the serializer
        checks each field and the model's rules on the fields that are right)."""
        if not can_create_tournament(request.user):
            raise PermissionDenied
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer: TournamentSerializer) -> None:
        if not can_create_tournament(self.request.user):
            raise PermissionDenied
        data = dict(serializer.validated_data)
        data.pop("confirm", None)  # nothing to confirm in a new tournament
        serializer.instance = tournament_create(by=self.request.user, data=data)

    def perform_update(self, serializer: TournamentSerializer) -> None:
        data = dict(serializer.validated_data)
        confirm = bool(data.pop("confirm", False))
        serializer.instance = tournament_update(tournament=serializer.instance, data=data, confirm=confirm)

    @extend_schema(
        request=SelfCheckInSerializer,
        responses={
            200: SelfCheckInResultSerializer,
            400: OpenApiResponse(
                description="El código no es el de la sala (code), la confirmación está cerrada (closed: antes de "
                "abrirse o con la primera ronda ya sorteada), la pareja no puede confirmar (waitlisted, inactive) "
                "o falta el código (codigo)."
            ),
            401: OpenApiResponse(description="Sin identificar."),
            403: OpenApiResponse(description="No eres de una pareja del torneo (su tarjeta o uno de sus jugadores)."),
            404: OpenApiResponse(description="No hay ese torneo."),
            429: OpenApiResponse(description="Demasiados códigos equivocados en una hora; Retry-After dice cuándo."),
        },
        description="Confirma la presencia de tu pareja con el código de la sala (issue 32): el que muestra la "
        "pantalla, que cambia cada 5 minutos. Desde el móvil de la pareja (su tarjeta) o la cuenta de uno de sus "
        "jugadores; desde dos horas antes de la primera jornada hasta que se sortea la primera ronda (después, en "
        "la mesa de control). Los códigos equivocados tienen un límite por cuenta, como en la página.",
    )
    @action(detail=True, methods=["post"], url_path="self-check-in", permission_classes=[IsAuthenticated])
    def self_check_in(self, request: Request, slug: str) -> Response:
        """The lockout is checked before the body is read, and only a wrong code fills it (as on the
        page: the same throttle, the same window per account): a locked-out phone learns nothing,
        not even whether its next code is right."""
        tournament = self.get_object()
        throttle = SelfCheckInThrottle()
        key = throttle.key_for(request.user)
        if (wait := throttle.refusal(key)) is not None:
            raise Throttled(wait=wait, detail=str(TOO_MANY_CODES))
        data = SelfCheckInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            pair = pair_self_check_in(tournament=tournament, by=request.user, code=data.validated_data["codigo"])
        except TournamentError as exc:
            if exc.code == "code":
                throttle.record(key)
            raise  # torneo.api.errors: its Spanish message and code, 400 (403 for NotAllowed)
        return Response(SelfCheckInResultSerializer(pair).data, headers=NO_STORE)
