"""API v1: tournaments — the public ones plus those where you hold a role; creating and editing one.
Thin: services do the writes."""

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework import mixins, viewsets
from rest_framework.exceptions import PermissionDenied

from torneo.api.serializers import TournamentSerializer
from torneo.models import Tournament
from torneo.permissions import Action, can, can_create_tournament, can_view
from torneo.selectors.tournaments import tournaments_visible_to
from torneo.services.tournaments import tournament_create, tournament_update


class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Tournaments: the public ones, plus those where you hold a role."""

    serializer_class = TournamentSerializer
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

    def perform_create(self, serializer: TournamentSerializer) -> None:
        if not can_create_tournament(self.request.user):
            raise PermissionDenied
        serializer.instance = tournament_create(by=self.request.user, data=dict(serializer.validated_data))

    def perform_update(self, serializer: TournamentSerializer) -> None:
        serializer.instance = tournament_update(tournament=serializer.instance, data=dict(serializer.validated_data))
