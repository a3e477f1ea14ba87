"""API v1: tournaments — the public ones plus those where you hold a role; creating and editing one.
Thin: services do the writes.

Once round 1 is prepared, the format, the ceros, the juegos, the tantos, the reglamento and the
number of liguillas are fixed (a 400 on the field), and a change that alters the standings or the
pairings needs ``"confirm": true`` in the same request (else a 400 on «confirm» saying what the
change does)."""

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from torneo.api.serializers import TournamentSerializer
from torneo.models import Tournament
from torneo.permissions import Action, can, can_create_tournament, can_view
from torneo.selectors.tournaments import tournaments_visible_to
from torneo.services.tournaments import tournament_create, tournament_update


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
