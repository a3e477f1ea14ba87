"""API v1: a tournament's pairs (registration, editing, check-in, withdrawal, CSV import), the public
registration and the players of the tournaments where you are staff (RGPD erasure included).
Thin: services do the writes."""

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from torneo.api.access import TournamentScoped
from torneo.api.permissions import TournamentAction
from torneo.api.serializers import (
    ImportSerializer,
    PairPrivateSerializer,
    PairPublicSerializer,
    PairWriteSerializer,
    PlayerSerializer,
    WithdrawSerializer,
)
from torneo.identity import normalize_name
from torneo.models import Pair, Player
from torneo.permissions import Action, can, can_withdraw
from torneo.ratelimit import REGISTRATION_REFUSED, RegistrationThrottle, ThrottleMessage
from torneo.selectors.registrations import pairs_of, pairs_with_players, registration_counts
from torneo.services.personal_data import player_erase_personal_data
from torneo.services.registrations import (
    pair_check_in,
    pair_check_in_undo,
    pair_register,
    pair_update,
    pair_withdraw,
)
from torneo.services.registrations_csv import CsvImportError, registrations_import_csv
from torneo.services.terminals import terminal_issue, terminal_revoke, terminal_url

CHECKED_IN_HEADER = "X-Parejas-Presentes"  # after a check-in or its undo: the pairs present now


class TerminalLinkSerializer(serializers.Serializer):
    """A pair's private link just issued (issue 32): shown once, never stored in the clear."""

    pair = serializers.IntegerField(help_text="Número de la pareja.")
    token = serializers.CharField(help_text="El secreto del enlace: solo se ve ahora.")
    url = serializers.CharField(help_text="El enlace completo, como se imprime en la tarjeta (con su QR).")


class PairViewSet(TournamentScoped, viewsets.GenericViewSet):
    """A tournament's pairs. Anyone sees names and clubs; staff also contact data.
    The mesa de control registers, edits, checks in and withdraws pairs here."""

    permission_classes = [TournamentAction]
    lookup_field = "number"
    action_permissions = {
        "create": Action.PAIRS_MANAGE,
        "update": Action.PAIRS_MANAGE,
        "check_in": Action.CHECK_IN,
        "terminal": Action.CHECK_IN,
        "import_csv": Action.PAIRS_MANAGE,
    }

    def get_queryset(self) -> QuerySet[Pair]:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no tournament
            return Pair.objects.none()
        qs = pairs_of(self.get_tournament(), q=self.request.query_params.get("q", "")[:100])
        if not self._private():
            qs = qs.filter(status__in=[Pair.Status.CONFIRMED, Pair.Status.WAITLISTED])
        return qs

    def _private(self) -> bool:
        if getattr(self, "swagger_fake_view", False):
            return True
        return can(self.request.user, self.get_tournament(), Action.VIEW_PRIVATE)

    def get_serializer_class(self) -> type:
        if self.action in ("create", "update"):
            return PairWriteSerializer
        return PairPrivateSerializer if self._private() else PairPublicSerializer

    def _out(self, pair: Pair, code: int = status.HTTP_200_OK) -> Response:
        pair = pairs_with_players().get(pk=pair.pk)
        return Response(PairPrivateSerializer(pair).data, status=code)

    @extend_schema(responses=PairPublicSerializer(many=True))
    def list(self, request: Request, tournament_slug: str) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(responses=PairPublicSerializer)
    def retrieve(self, request: Request, tournament_slug: str, number: int) -> Response:
        pair = get_object_or_404(self.get_queryset(), number=number)
        return Response(self.get_serializer(pair).data)

    @extend_schema(request=PairWriteSerializer, responses=PairPrivateSerializer)
    def create(self, request: Request, tournament_slug: str) -> Response:
        serializer = PairWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        pair = pair_register(
            tournament=self.get_tournament(),
            players=serializer.player_data(),
            name=serializer.validated_data["name"],
            source=Pair.Source.API,
        )
        return self._out(pair, status.HTTP_201_CREATED)

    @extend_schema(request=PairWriteSerializer, responses=PairPrivateSerializer)
    def update(self, request: Request, tournament_slug: str, number: int) -> Response:
        pair = get_object_or_404(Pair, tournament=self.get_tournament(), number=number)
        serializer = PairWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        pair = pair_update(
            pair=pair,
            players=serializer.player_data(),
            name=serializer.validated_data["name"],
            expected_version=serializer.validated_data.get("version"),
        )
        return self._out(pair)

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(
                PairPrivateSerializer,
                description=f"La pareja; la cabecera {CHECKED_IN_HEADER} dice cuántas parejas están presentes ahora.",
            )
        },
        methods=["POST", "DELETE"],
    )
    @action(detail=True, methods=["post", "delete"], url_path="check-in")
    def check_in(self, request: Request, tournament_slug: str, number: int) -> Response:
        """POST: the pair is present (before round 1). DELETE: undo."""
        pair = get_object_or_404(Pair, tournament=self.get_tournament(), number=number)
        pair = pair_check_in(pair=pair) if request.method == "POST" else pair_check_in_undo(pair=pair)
        response = self._out(pair)
        # How many pairs are present now, every desk's taps included: the list's counter (static/js/checkin.js).
        response[CHECKED_IN_HEADER] = str(registration_counts(pair.tournament)["checked_in"])
        return response

    @extend_schema(
        request=None,
        responses={201: TerminalLinkSerializer, 400: None, 403: None, 404: None},
        methods=["POST"],
        description="La tarjeta de la pareja (issue 32): un enlace privado nuevo para sus móviles, que al abrirlo "
        "quedan como el terminal de la pareja. El anterior deja de valer y sus móviles salen. El enlace y su secreto "
        "solo se ven en esta respuesta (no-store). La organización y la mesa de control.",
    )
    @extend_schema(
        request=None,
        responses={204: None, 403: None, 404: None},
        methods=["DELETE"],
        description="Retira el enlace privado de la pareja sin dar otro (una tarjeta perdida): deja de valer y sus "
        "móviles salen. La organización y la mesa de control.",
    )
    @action(detail=True, methods=["post", "delete"], url_path="terminal")
    def terminal(self, request: Request, tournament_slug: str, number: int) -> Response:
        """POST: a new private link for the pair's phones. DELETE: the link withdrawn."""
        tournament = self.get_tournament()
        pair = get_object_or_404(Pair.objects.select_related("tournament"), tournament=tournament, number=number)
        if request.method == "DELETE":
            terminal_revoke(pair=pair, by=request.user)
            return Response(status=status.HTTP_204_NO_CONTENT)
        issued = terminal_issue(pair=pair, by=request.user)
        body = {"pair": pair.number, "token": issued.token, "url": terminal_url(tournament, issued.token)}
        return Response(
            TerminalLinkSerializer(body).data, status=status.HTTP_201_CREATED, headers={"Cache-Control": "no-store"}
        )

    @extend_schema(request=WithdrawSerializer, responses=PairPrivateSerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def withdraw(self, request: Request, tournament_slug: str, number: int) -> Response:
        """Staff withdraw any pair; a player their own, before play starts."""
        pair = get_object_or_404(Pair, tournament=self.get_tournament(), number=number)
        if not can_withdraw(request.user, pair):
            raise PermissionDenied
        serializer = WithdrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        pair_withdraw(pair=pair, reason=serializer.validated_data["reason"])
        return self._out(pair)

    @extend_schema(request={"multipart/form-data": ImportSerializer}, responses={201: None})
    @action(detail=False, methods=["post"], url_path="import")
    def import_csv(self, request: Request, tournament_slug: str) -> Response:
        """Import a CSV of registrations: all or nothing; errors name each row and column."""
        serializer = ImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            report = registrations_import_csv(
                tournament=self.get_tournament(), data=serializer.validated_data["file"].read()
            )
        except CsvImportError as exc:
            return Response(
                {
                    "detail": _("No se ha importado nada."),
                    "errors": [{"row": e.row, "column": e.column, "message": e.message} for e in exc.errors],
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response({"created": report.created, "waitlisted": report.waitlisted}, status=status.HTTP_201_CREATED)


class RegistrationViewSet(ThrottleMessage, TournamentScoped, viewsets.GenericViewSet):
    """Public registration: anyone may enter a pair while the tournament's registration is open.
    A limited number per client address and hour (429 with Retry-After beyond it); the
    tournament's staff have no limit."""

    permission_classes = [AllowAny]
    serializer_class = PairWriteSerializer
    throttle_classes = [RegistrationThrottle]
    throttle_message = REGISTRATION_REFUSED

    @extend_schema(request=PairWriteSerializer, responses={201: PairPublicSerializer})
    def create(self, request: Request, tournament_slug: str) -> Response:
        serializer = PairWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        pair = pair_register(
            tournament=self.get_tournament(),
            players=serializer.player_data(),
            name=serializer.validated_data["name"],
            source=Pair.Source.PUBLIC_FORM,
        )
        pair = pairs_with_players().get(pk=pair.pk)
        return Response(PairPublicSerializer(pair).data, status=status.HTTP_201_CREATED)


class PlayerViewSet(viewsets.ReadOnlyModelViewSet):
    """Players of the tournaments where you are staff, with their contact data: each record is
    one tournament's registration, so a role in one tournament never shows another's."""

    serializer_class = PlayerSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self) -> QuerySet[Player]:
        if getattr(self, "swagger_fake_view", False):
            return Player.objects.none()
        user = self.request.user
        qs = Player.objects.all()
        if not user.is_superuser:
            qs = qs.filter(tournament__roles__user=user).distinct()
        for word in normalize_name(self.request.query_params.get("q", "")).split():
            qs = qs.filter(normalized_name__contains=word)
        return qs.order_by("last_name", "first_name", "id")

    @extend_schema(request=None, responses=PlayerSerializer)
    @action(detail=True, methods=["post"], url_path="erase-personal-data")
    def erase_personal_data(self, request: Request, pk: str) -> Response:
        """RGPD erasure on request: the player's document, phone and e-mail, also from the change
        history (the tournament's organizer)."""
        player = self.get_object()
        if not can(request.user, player.tournament, Action.PERSONAL_DATA_ERASE):
            raise PermissionDenied
        return Response(PlayerSerializer(player_erase_personal_data(player=player)).data)
