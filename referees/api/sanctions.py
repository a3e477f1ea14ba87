"""API for sanctions (AMM 5.4, 5.4.a, 5.10, 3.16.b): the list (public: only those in force that
change results — a juego, the partida, the expulsión —, never the reason; the staff: every version,
with the reason and who gave it), what the ladder offers the juez for a new infraction, giving a
sanction and undoing one (a new version, with its reason).

Thin: referees.services.sanctions checks who may, applies the sanction to the clock and the results
and keeps the versions; referees.selectors.sanctions reads."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from referees.api.common import (
    ARTICLE_MESSAGE,
    MAX_ID,
    NO_STORE,
    PAIR_MESSAGE,
    PairRefField,
    body,
    id_field,
    is_staff,
    messages,
    resolve_match,
    resolve_pair,
)
from referees.models import Incident, Sanction
from referees.rules.ladder import Step
from referees.selectors.sanctions import article_title, pair_sanctions, sanctions
from referees.services.incidents import catalogue_article
from referees.services.sanctions import ladder_proposal, past_of, sanction_give, sanction_undo
from torneo.api.access import TournamentScoped
from torneo.api.permissions import TournamentAction
from torneo.models import Match, Pair, Tournament
from torneo.numbers import parse_int
from torneo.permissions import Action
from torneo.selectors.registrations import members_prefetch

STEP_MESSAGE = gettext_lazy(
    "Indica la sanción (step): 1 apercibimiento, 2 pérdida de un juego, 3 pérdida de la partida, 4 expulsión."
)
REASON_TEXT = gettext_lazy("El motivo tiene que ser un texto.")
UNDO_REASON = gettext_lazy("Anular una sanción necesita un motivo.")
STEP_HELP = "1 apercibimiento, 2 pérdida de un juego, 3 pérdida de la partida, 4 expulsión del torneo (AMM 5.4)."

# --- representations ------------------------------------------------------------------------------


class SanctionSerializer(serializers.Serializer):
    """A sanction as the public reads it: only those in force that change results (AMM 5.4.2, 5.4.3)."""

    number = serializers.IntegerField(help_text="Número de la sanción en el torneo (el mismo en todas sus versiones).")
    version = serializers.IntegerField(help_text="Versión: anular una sanción es una versión nueva.")
    # A plain string, not an enum: the schema's StatusEnum names are taken by other components.
    status = serializers.CharField(
        help_text="in_force (en vigor), superseded (sustituida por una versión posterior) o undone (anulada)."
    )
    pair = serializers.IntegerField(source="pair.number", help_text="Número de la pareja sancionada.")
    pair_name = serializers.CharField(source="pair.display_name", help_text="Nombre de la pareja.")
    step = serializers.IntegerField(help_text=STEP_HELP)
    step_label = serializers.CharField(source="get_step_display", help_text="La sanción, en palabras.")
    article = serializers.CharField(help_text="Artículo del reglamento que se infringió.")
    article_title = serializers.SerializerMethodField(help_text="Título del artículo.")
    round = serializers.IntegerField(source="match.round.number", allow_null=True, help_text="Número de ronda.")
    table = serializers.IntegerField(source="match.table_number", allow_null=True, help_text="Número de mesa.")
    given_at = serializers.DateTimeField()

    def get_article_title(self, sanction: Sanction) -> str:
        tournament: Tournament = self.context.get("tournament") or sanction.tournament
        return article_title(tournament, sanction.article)


class SanctionStaffSerializer(SanctionSerializer):
    """A sanction as the staff read it: every version, with its reason and who gave it."""

    id = serializers.IntegerField(help_text="Id de esta versión (para anularla: undo).")
    match = serializers.IntegerField(source="match_id", allow_null=True, help_text="Id de la partida.")
    incident = serializers.IntegerField(source="incident_id", allow_null=True, help_text="Id de la incidencia.")
    proposed = serializers.IntegerField(
        allow_null=True, help_text="Lo que proponía la escala (AMM 5.4); vacío si el artículo fija su sanción."
    )
    reason = serializers.CharField(help_text="Motivo del juez (privado).")
    given_by = serializers.CharField(source="given_by.username", allow_null=True, help_text="Quién la dio.")


SANCTION_ANSWER = PolymorphicProxySerializer(
    component_name="SanctionAnswer",
    serializers=[SanctionStaffSerializer, SanctionSerializer],
    resource_type_field_name=None,
    many=True,
)


class LadderEntrySerializer(serializers.Serializer):
    """A sanction in force of the pair, as the ladder weighs it."""

    number = serializers.IntegerField(help_text="Número de la sanción.")
    step = serializers.IntegerField(help_text=STEP_HELP)
    step_label = serializers.CharField()
    article = serializers.CharField()
    match = serializers.IntegerField(allow_null=True, help_text="Id de la partida en que se dio.")
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)


class LadderOptionSerializer(serializers.Serializer):
    step = serializers.IntegerField(help_text=STEP_HELP)
    label = serializers.CharField()


class ProposalSerializer(serializers.Serializer):
    """What AMM 5.4 offers the juez for the pair's new infraction."""

    pair = serializers.IntegerField(help_text="Número de la pareja.")
    match = serializers.IntegerField(allow_null=True, help_text="Id de la partida.")
    cited = serializers.CharField(help_text="El artículo infringido.")
    own = serializers.BooleanField(
        help_text="El artículo fija su propia sanción: la escala no propone nada (el juez decide, con motivo)."
    )
    article = serializers.CharField(
        help_text="La norma que decide la sanción: 5.4 (la escala), 3.16.b (expulsión) o el propio artículo."
    )
    step = serializers.IntegerField(allow_null=True, help_text="El paso propuesto (el menor de options).")
    step_label = serializers.CharField()
    options = LadderOptionSerializer(
        many=True, help_text="Los pasos que se pueden dar sin motivo; cualquier otro lo necesita (AMM 5.4.a)."
    )
    counted = LadderEntrySerializer(many=True, help_text="Las sanciones en vigor que cuenta la escala.")
    elsewhere = LadderEntrySerializer(
        many=True, help_text="Las demás sanciones en vigor de la pareja, para que el juez las valore (AMM 5.4.a)."
    )
    apart = LadderEntrySerializer(
        many=True,
        help_text="Sus sanciones por artículos con sanción propia (6.1.b, 3.17, 6.6…): no son pasos de la escala "
        "(AMM 5.4).",
    )
    scope = serializers.CharField(
        help_text="Qué cuenta la escala, opción del torneo: «partida» (la misma partida) o «torneo». Fuera de una "
        "partida (AMM 5.10) cuenta siempre las del torneo."
    )


# --- request bodies -------------------------------------------------------------------------------


class SanctionGiveSerializer(serializers.Serializer):
    """A sanction: the pair, the article, the step, the partida and the incident, the reason."""

    pair = PairRefField(
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="La pareja sancionada: su número, o «A» / «B» de la partida (por defecto, la de la incidencia).",
    )
    article = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=50,
        help_text="Artículo infringido (por defecto, el de la incidencia).",
        error_messages=messages(ARTICLE_MESSAGE),
    )
    step = serializers.IntegerField(
        min_value=1,
        max_value=4,
        help_text=STEP_HELP,
        error_messages=messages(STEP_MESSAGE, ("required", "null", "invalid", "min_value", "max_value")),
    )
    match = id_field("Id de la partida (por defecto, la de la incidencia). Necesaria para un juego o la partida.")
    incident = id_field("Id de la incidencia que se sanciona: queda cerrada.")
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="Motivo (privado). Obligatorio para saltarse pasos de la escala (AMM 5.4.a), para dar menos "
        "de lo que propone y para un artículo con sanción propia.",
        error_messages=messages(REASON_TEXT, ("null", "invalid")),
    )


class SanctionUndoSerializer(serializers.Serializer):
    reason = serializers.CharField(
        help_text="Por qué se anula: queda en el registro.",
        error_messages={**messages(UNDO_REASON, ("required", "null", "blank")), "invalid": REASON_TEXT},
    )


class ProposalQuerySerializer(serializers.Serializer):
    pair = PairRefField()
    article = serializers.CharField(max_length=50, error_messages=messages(ARTICLE_MESSAGE))
    match = id_field("Id de la partida.")


# --- views ----------------------------------------------------------------------------------------


def _plays(pair: Pair, match: Match | None) -> None:
    if match is not None and pair.pk not in (match.pair_a_id, match.pair_b_id):
        raise serializers.ValidationError({"pair": [_("La pareja no juega esa partida.")]})


def _entry(sanction: Sanction) -> dict[str, Any]:
    match = sanction.match
    return {
        "number": sanction.number,
        "step": sanction.step,
        "step_label": str(sanction.get_step_display()),
        "article": sanction.article,
        "match": sanction.match_id,
        "round": match.round.number if match else None,
        "table": match.table_number if match else None,
    }


def _option(step: Step) -> dict[str, Any]:
    return {"step": int(step), "label": str(Sanction.Step(int(step)).label)}


class SanctionViewSet(TournamentScoped, viewsets.GenericViewSet):
    """The sanctions of a tournament (AMM 5.4). Anyone who may see the tournament reads those that
    change results; the staff read every version; the organizer and the jueces give and undo them."""

    permission_classes = [IsAuthenticatedOrReadOnly, TournamentAction]
    action_permissions = {
        "create": Action.INCIDENTS_MANAGE,
        "proposal": Action.INCIDENTS_MANAGE,
        "undo": Action.INCIDENTS_MANAGE,
    }
    serializer_class = SanctionStaffSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Sanction]:
        return Sanction.objects.none()

    def _rows(self, *, public: bool = False) -> QuerySet[Sanction]:
        return sanctions(self.get_tournament(), public=public).prefetch_related(members_prefetch("pair__members"))

    def _answer(self, sanction: Sanction, code: int = status.HTTP_201_CREATED) -> Response:
        row = self._rows().get(pk=sanction.pk)
        data = SanctionStaffSerializer(row, context={"tournament": self.get_tournament()}).data
        return Response(data, status=code, headers=NO_STORE)

    @extend_schema(
        responses={200: SANCTION_ANSWER, 404: None},
        description="Las sanciones del torneo (AMM 5.4). Público: solo las que están en vigor y cambian "
        "resultados (pérdida de un juego, de la partida, expulsión), sin motivos. La organización, los jueces y "
        "la mesa de control: todas las versiones, apercibimientos incluidos, con el motivo, quién la dio, la "
        "incidencia y lo que proponía la escala.",
    )
    def list(self, request: Request, tournament_slug: str) -> Response:
        tournament = self.get_tournament()
        staff = is_staff(request.user, tournament)
        shown = SanctionStaffSerializer if staff else SanctionSerializer
        rows = self._rows(public=not staff)
        return Response(shown(rows, many=True, context={"tournament": tournament}).data, headers=NO_STORE)

    @extend_schema(
        parameters=[
            OpenApiParameter("pair", str, required=True, description="Número de la pareja, o «A» / «B» con match."),
            OpenApiParameter("article", str, required=True, description="Artículo infringido («3.20.c»)."),
            OpenApiParameter("match", int, description="Id de la partida en que se sanciona."),
        ],
        responses={200: ProposalSerializer, 400: None, 401: None, 403: None, 404: None},
        description="Lo que ofrece la escala de sanciones (AMM 5.4) por una nueva infracción de la pareja: el paso "
        "propuesto, los que se pueden dar sin motivo, las sanciones en vigor que cuenta y las demás. Con un "
        "artículo que fija su propia sanción, own es true y no se propone nada. La organización o los jueces.",
    )
    @action(detail=False, methods=["get"])
    def proposal(self, request: Request, tournament_slug: str) -> Response:
        data = body(ProposalQuerySerializer, request.query_params)
        tournament = self.get_tournament()
        match = resolve_match(request.user, tournament, data.get("match"))
        pair = resolve_pair(tournament, data["pair"], match)
        if pair is None:
            raise serializers.ValidationError({"pair": [str(PAIR_MESSAGE)]})
        _plays(pair, match)
        entry = catalogue_article(tournament, data["article"])
        offered = ladder_proposal(pair=pair, match=match, article=entry.code)
        record = pair_sanctions(pair, with_warnings=True)
        counted = [] if offered is None else list(offered.counted)
        answer = {
            "pair": pair.number,
            "match": match.pk if match else None,
            "cited": entry.code,
            "own": offered is None,
            "article": entry.code if offered is None else offered.article,
            "step": None if offered is None else int(offered.step),
            "step_label": "" if offered is None else _option(offered.step)["label"],
            "options": [] if offered is None else [_option(step) for step in offered.options],
            "counted": [_entry(s) for s in record if past_of(s) in counted],
            "elsewhere": [_entry(s) for s in record if past_of(s) not in counted and past_of(s).penalty == "ladder"],
            "apart": [_entry(s) for s in record if past_of(s).penalty != "ladder"],
            "scope": tournament.ladder_scope,
        }
        return Response(answer, headers=NO_STORE)

    @extend_schema(
        request=SanctionGiveSerializer,
        responses={
            201: SanctionStaffSerializer,
            400: OpenApiResponse(description="Datos no válidos: el error va en su campo (pair, step, reason…)."),
            401: OpenApiResponse(description="Sin identificar."),
            403: OpenApiResponse(description="Solo la organización y los jueces sancionan."),
            404: OpenApiResponse(description="No hay ese torneo."),
        },
        description="Sanciona a una pareja (AMM 5.4) y lo aplica: el apercibimiento queda en el acta; la pérdida "
        "de un juego se lo da a la otra pareja en el reloj; la pérdida de la partida es una decisión del juez "
        "que cuenta al momento; la expulsión saca a la pareja del torneo (5.10, 3.16.b). Un paso que la escala no "
        "ofrece necesita un motivo (5.4.a). La organización o los jueces.",
    )
    def create(self, request: Request, tournament_slug: str) -> Response:
        data = body(SanctionGiveSerializer, request.data)
        tournament = self.get_tournament()
        incident: Incident | None = None
        if data.get("incident") is not None:
            rows = Incident.objects.select_related("pair__tournament")
            incident = rows.filter(pk=data["incident"], tournament=tournament).first()
            if incident is None:
                raise serializers.ValidationError({"incident": [_("La incidencia no es de este torneo.")]})
        match_id = data.get("match") or (incident.match_id if incident else None)
        match = resolve_match(request.user, tournament, match_id)
        pair = resolve_pair(tournament, data.get("pair"), match) or (incident.pair if incident else None)
        if pair is None:
            raise serializers.ValidationError({"pair": [str(PAIR_MESSAGE)]})
        _plays(pair, match)
        article = (data.get("article") or "").strip() or (incident.article if incident else "")
        if not article:
            raise serializers.ValidationError({"article": [str(ARTICLE_MESSAGE)]})
        sanction = sanction_give(
            by=request.user,
            pair=pair,
            article=article,
            step=data["step"],
            match=match,
            incident=incident,
            reason=data.get("reason") or "",
        )
        return self._answer(sanction)

    @extend_schema(
        request=SanctionUndoSerializer,
        responses={201: SanctionStaffSerializer, 400: None, 401: None, 403: None, 404: None},
        description="Anula una sanción en vigor, con su motivo: es una versión nueva (la anterior queda "
        "sustituida). Se devuelve el juego que dio en el reloj mientras la partida sigue, se retira el aviso por "
        "retraso y se levanta la expulsión; un resultado que ya fijó se corrige en el acta. La organización o "
        "los jueces.",
    )
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, tournament_slug: str, pk: str) -> Response:
        data = body(SanctionUndoSerializer, request.data)
        text = str(pk)
        pk = parse_int(text, low=1, high=MAX_ID)
        if pk is None:
            raise NotFound
        sanction = Sanction.objects.select_related("tournament", "pair").filter(pk=pk, tournament=self.get_tournament())
        found = sanction.first()
        if found is None:
            raise NotFound
        return self._answer(sanction_undo(sanction=found, by=request.user, reason=data["reason"]))
