"""API for incidents (AMM 5.3, 5.3.a): the log of the tournament's staff (the organizer, the jueces,
the mesa de control), a report — by a juez or the organizer about any partida, by a player about
the partida they play (5.3) — closing one without a sanction, and a juez's «voy» to a table's call
(issue 32: the table reads that a juez is on the way).

Thin: referees.services.incidents checks who may and writes; referees.selectors.sanctions reads.
The log is private (descriptions, players' names): never for the public. A player who reports gets
back only what they sent, not the staff's view of the incident."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from referees.api.common import (
    ARTICLE_MESSAGE,
    MAX_ID,
    NO_STORE,
    PairRefField,
    body,
    id_field,
    is_staff,
    messages,
    resolve_match,
    resolve_pair,
)
from referees.models import Incident
from referees.selectors.sanctions import IncidentFilter, article_title, incidents
from referees.services.incidents import incident_answer, incident_dismiss, incident_report, table_calls
from torneo.api.access import TournamentScoped
from torneo.api.permissions import TournamentAction
from torneo.models import Player, Tournament
from torneo.numbers import parse_int
from torneo.people import JUEZ, public_name
from torneo.permissions import Action, can
from torneo.ratelimit import table_write_check

DESCRIPTION_MESSAGE = gettext_lazy("La descripción tiene que ser un texto.")
MINUTE_MESSAGE = gettext_lazy("El minuto va de 0 a 600.")
RESOLUTION_MESSAGE = gettext_lazy("Escribe por qué se archiva sin sanción.")

# --- representations ------------------------------------------------------------------------------


class IncidentReceiptSerializer(serializers.Serializer):
    """What a player gets back after reporting: what they sent, nothing of other people's."""

    id = serializers.IntegerField(help_text="Id de la incidencia.")
    article = serializers.CharField(help_text="Artículo del reglamento que se cita: «3.20.c», «6.3».")
    article_title = serializers.SerializerMethodField(help_text="Título del artículo.")
    match = serializers.IntegerField(source="match_id", allow_null=True, help_text="Id de la partida.")
    round = serializers.IntegerField(source="match.round.number", allow_null=True, help_text="Número de ronda.")
    table = serializers.IntegerField(source="match.table_number", allow_null=True, help_text="Número de mesa.")
    pair = serializers.IntegerField(source="pair.number", allow_null=True, help_text="Número de la pareja.")
    minute = serializers.FloatField(allow_null=True, help_text="Minuto del reloj de la partida.")
    description = serializers.CharField(help_text="Lo que se describió (privado: solo lo lee el personal).")
    # A plain string, not an enum: the schema's StatusEnum names are taken by other components.
    status = serializers.CharField(help_text="open (abierta), sanctioned (sancionada) o dismissed (archivada).")
    reported_at = serializers.DateTimeField()

    def get_article_title(self, incident: Incident) -> str:
        tournament: Tournament = self.context.get("tournament") or incident.tournament
        return article_title(tournament, incident.article)


class IncidentSerializer(IncidentReceiptSerializer):
    """An incident as the staff reads it (AMM 5.3): private, descriptions and players' names."""

    player = serializers.CharField(
        source="player.full_name", allow_null=True, help_text="Nombre del jugador, si se indicó."
    )
    source = serializers.ChoiceField(
        choices=Incident.Source.choices, help_text="juez (AMM 5.3.a), player (5.3) u organizer."
    )
    reported_by = serializers.CharField(
        source="reported_by.username", allow_null=True, help_text="Usuario que dio parte."
    )
    resolution = serializers.CharField(help_text="Por qué se archivó sin sanción.")
    sanctions = serializers.SerializerMethodField(
        help_text="Ids de las sanciones dadas por esta incidencia (todas sus versiones)."
    )
    answered_by = serializers.SerializerMethodField(
        help_text="El juez que atendió el aviso de la mesa («voy»): su nombre, o «juez del torneo» si su cuenta "
        "no tiene nombre; null si nadie lo ha atendido."
    )
    answered_at = serializers.DateTimeField(
        allow_null=True, help_text="Cuándo atendió un juez el aviso de la mesa; null si nadie lo ha atendido."
    )

    def get_sanctions(self, incident: Incident) -> list[int]:
        return [sanction.pk for sanction in incident.sanctions.all()]

    def get_answered_by(self, incident: Incident) -> str | None:
        """By name, never the username (torneo.people): the table's players read who is coming."""
        if incident.answered_by is None:
            return None
        return public_name(incident.answered_by, fallback=JUEZ)


class TableCallSerializer(serializers.Serializer):
    """A table's call to the jueces as the table's players read it (issue 32: «llamar al juez»):
    when it was made and whether a juez is on the way; never its article nor its description (the
    staff's: the page shows the table no more, and the called-on pair need not read why)."""

    id = serializers.IntegerField(help_text="Id del aviso (la incidencia).")
    reported_at = serializers.DateTimeField(help_text="Cuándo se avisó.")
    answered = serializers.SerializerMethodField(help_text="true: un juez va hacia la mesa («voy»).")
    answered_by = serializers.SerializerMethodField(
        help_text="El juez que va hacia la mesa, por su nombre (o «juez del torneo»); null si aún nadie."
    )
    answered_at = serializers.DateTimeField(allow_null=True, help_text="Desde cuándo va; null si aún nadie.")

    def get_answered(self, incident: Incident) -> bool:
        return incident.answered_at is not None

    def get_answered_by(self, incident: Incident) -> str | None:
        return None if incident.answered_by is None else public_name(incident.answered_by, fallback=JUEZ)


INCIDENT_ANSWER = PolymorphicProxySerializer(
    component_name="IncidentAnswer",
    serializers=[IncidentSerializer, IncidentReceiptSerializer],
    resource_type_field_name=None,
)
# --- request bodies -------------------------------------------------------------------------------


class IncidentReportSerializer(serializers.Serializer):
    """A report (AMM 5.3): the article, the partida, the pair and the player, what happened."""

    article = serializers.CharField(
        max_length=50,
        help_text="Artículo del reglamento que se infringió, como lo escribe el catálogo: «3.20.c», «6.3».",
        error_messages=messages(ARTICLE_MESSAGE),
    )
    match = id_field(
        "Id de la partida. Un jugador, la que juega (AMM 5.3); la organización y los jueces, cualquiera, u "
        "omitirla para algo ocurrido fuera de una partida."
    )
    pair = PairRefField(
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="La pareja que infringió: «A» o «B» de la partida, o su número (sin partida).",
    )
    player = id_field("Id del jugador que infringió, si fue uno (de la pareja indicada).")
    description = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="Qué pasó, hasta 2000 caracteres. Privado: solo lo lee el personal del torneo.",
        error_messages=messages(DESCRIPTION_MESSAGE, ("null", "invalid")),
    )
    minute = serializers.FloatField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=600,
        help_text="Minuto de la partida (por defecto, el de su reloj si está en marcha).",
        error_messages=messages(MINUTE_MESSAGE, ("invalid", "min_value", "max_value", "max_string_length")),
    )


class IncidentDismissSerializer(serializers.Serializer):
    resolution = serializers.CharField(
        help_text="Por qué se archiva sin sanción: queda en el registro.",
        error_messages=messages(RESOLUTION_MESSAGE, ("required", "null", "blank", "invalid")),
    )


# --- views ----------------------------------------------------------------------------------------

STATUS_PARAM = OpenApiParameter(
    "status", str, enum=Incident.Status.values, description="Solo las de este estado: open, sanctioned, dismissed."
)
LIST_PARAMS = [
    STATUS_PARAM,
    OpenApiParameter("article", str, description="Solo las de este artículo («6.3»)."),
    OpenApiParameter("round", int, description="Solo las de las partidas de esta ronda (número)."),
    OpenApiParameter("pair", int, description="Solo las de esta pareja (número)."),
]


def _number(params: Any, name: str, message: str) -> int | None:
    raw = str(params.get(name, "")).strip()
    if not raw:
        return None
    number = parse_int(raw, high=999_999)
    if number is not None:
        return number
    raise serializers.ValidationError({name: [message]})


def _filters(params: Any) -> IncidentFilter:
    state = str(params.get("status", "")).strip()
    if state and state not in Incident.Status.values:
        raise serializers.ValidationError({"status": [_("Estado no válido: open, sanctioned o dismissed.")]})
    return IncidentFilter(
        status=state,
        article=str(params.get("article", "")).strip()[:20],
        round=_number(params, "round", _("El número de ronda no es válido.")),
        pair=_number(params, "pair", _("El número de pareja no es válido.")),
    )


class IncidentViewSet(TournamentScoped, viewsets.GenericViewSet):
    """The incidents of a tournament (AMM 5.3). The staff read the log; the organizer and the jueces
    report about any partida and close them; a player reports about the partida they play."""

    permission_classes = [IsAuthenticated, TournamentAction]
    action_permissions = {"dismiss": Action.INCIDENTS_MANAGE, "answer": Action.INCIDENTS_MANAGE}
    serializer_class = IncidentSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Incident]:
        return Incident.objects.none()

    def _context(self) -> dict[str, Any]:
        return {"request": self.request, "tournament": self.get_tournament()}

    def _incident(self, pk: object) -> Incident:
        """An incident of this tournament, or 404 (a word or a number out of range too)."""
        text = str(pk)
        pk = parse_int(text, low=1, high=MAX_ID)
        if pk is None:
            raise NotFound
        incident = incidents(self.get_tournament()).filter(pk=pk).first()
        if incident is None:
            raise NotFound
        return incident

    @extend_schema(
        parameters=LIST_PARAMS,
        responses={200: IncidentSerializer(many=True), 400: None, 401: None, 403: None, 404: None},
        description="El registro de incidencias del torneo, las más recientes primero (AMM 5.3, 5.3.a): artículo, "
        "partida, pareja, jugador, minuto, descripción, quién dio parte, estado y sanciones. Privado: la "
        "organización, los jueces y la mesa de control.",
    )
    def list(self, request: Request, tournament_slug: str) -> Response:
        tournament = self.get_tournament()
        if not is_staff(request.user, tournament):
            raise PermissionDenied
        rows = incidents(tournament, _filters(request.query_params))
        return Response(IncidentSerializer(rows, many=True, context=self._context()).data, headers=NO_STORE)

    @extend_schema(
        request=IncidentReportSerializer,
        responses={
            201: OpenApiResponse(
                INCIDENT_ANSWER,
                description="La incidencia. La organización y los jueces la ven entera; un jugador, solo lo que envió.",
            ),
            400: OpenApiResponse(description="Datos no válidos: el error va en el campo (article, match, pair…)."),
            401: OpenApiResponse(description="Sin identificar."),
            403: OpenApiResponse(description="No juegas esa partida (AMM 5.3) ni eres juez u organizador."),
            404: OpenApiResponse(description="No hay ese torneo."),
            429: OpenApiResponse(description="Demasiados envíos desde la mesa en poco tiempo (Retry-After)."),
        },
        description="Da parte de una infracción (AMM 5.3): artículo, partida, pareja («A» o «B» de la partida, o "
        "su número), jugador, descripción y minuto (por defecto, el del reloj de la partida). La organización y "
        "los jueces, de cualquier partida (5.3.a: por iniciativa propia); un jugador, solo de la partida que "
        "juega, y pocos partes abiertos a la vez.",
    )
    def create(self, request: Request, tournament_slug: str) -> Response:
        data = body(IncidentReportSerializer, request.data)
        tournament, user = self.get_tournament(), request.user
        if data.get("match") is None and not can(user, tournament, Action.INCIDENTS_MANAGE):
            message = _("Indica la partida (match): un jugador da parte de la partida que juega (AMM 5.3).")
            raise serializers.ValidationError({"match": [message]})
        match = resolve_match(user, tournament, data.get("match"), action=Action.INCIDENTS_MANAGE, players=True)
        table_write_check(user, tournament)
        pair = resolve_pair(tournament, data.get("pair"), match)
        player = None
        if data.get("player") is not None:
            player = Player.objects.filter(pk=data["player"], memberships__tournament=tournament).first()
            if player is None:
                raise serializers.ValidationError({"player": [_("El jugador no es de la pareja indicada.")]})
        incident = incident_report(
            tournament=tournament,
            by=user,
            article=data["article"],
            match=match,
            pair=pair,
            player=player,
            description=data.get("description") or "",
            minute=data.get("minute"),
        )
        incident = self._incident(incident.pk)
        shown = IncidentSerializer if is_staff(user, tournament) else IncidentReceiptSerializer
        return Response(shown(incident, context=self._context()).data, status=status.HTTP_201_CREATED, headers=NO_STORE)

    @extend_schema(
        parameters=[
            OpenApiParameter("match", int, required=True, description="Id de la partida que juega la mesa."),
        ],
        responses={200: TableCallSerializer(many=True), 400: None, 401: None, 403: None, 404: None},
        description="Los avisos abiertos de una mesa al juez (issue 32: «llamar al juez»), los más antiguos "
        "primero: cuándo se avisó y si un juez va ya hacia la mesa (answered, answered_by, answered_at). Para "
        "los jugadores de esa partida (y sus móviles de pareja) y el personal del torneo; sin la descripción.",
    )
    @action(detail=False, methods=["get"], url_path="table")
    def table(self, request: Request, tournament_slug: str) -> Response:
        tournament = self.get_tournament()
        match_id = _number(request.query_params, "match", _("Indica la partida (match) con su número de id."))
        if match_id is None:
            raise serializers.ValidationError({"match": [_("Indica la partida (match) con su número de id.")]})
        match = resolve_match(request.user, tournament, match_id, action=Action.INCIDENTS_MANAGE, players=True)
        if match is None:  # not reached: resolve_match names a match or raises
            raise NotFound
        calls = table_calls(match=match)
        return Response(TableCallSerializer(calls, many=True).data, headers=NO_STORE)

    @extend_schema(
        request=IncidentDismissSerializer,
        responses={200: IncidentSerializer, 400: None, 401: None, 403: None, 404: None},
        description="Archiva una incidencia abierta sin sanción, con el motivo (resolution). La organización o "
        "los jueces.",
    )
    @action(detail=True, methods=["post"])
    def dismiss(self, request: Request, tournament_slug: str, pk: str) -> Response:
        data = body(IncidentDismissSerializer, request.data)
        incident = incident_dismiss(incident=self._incident(pk), by=request.user, resolution=data["resolution"])
        shown = IncidentSerializer(self._incident(incident.pk), context=self._context())
        return Response(shown.data, headers=NO_STORE)

    @extend_schema(
        request=None,
        responses={200: IncidentSerializer, 400: None, 401: None, 403: None, 404: None},
        description="«Voy»: un juez atiende el aviso de una mesa (issue 32). La mesa lee que el juez va hacia "
        "ella y la incidencia guarda quién lo atendió y cuándo (answered_by, answered_at). Una vez por aviso: "
        "si ya va otro juez, o la incidencia está cerrada, un 400 lo dice. La organización o los jueces.",
    )
    @action(detail=True, methods=["post"])
    def answer(self, request: Request, tournament_slug: str, pk: str) -> Response:
        incident = incident_answer(incident=self._incident(pk), by=request.user)
        shown = IncidentSerializer(self._incident(incident.pk), context=self._context())
        return Response(shown.data, headers=NO_STORE)
