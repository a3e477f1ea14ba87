"""API for suplentes (AMM 5.8): the list (public: the suplentes authorised, their names and whom they
replace, never a document or a reason; the staff: every suplencia, cancelled ones too, with the
document, force majeure, the reason and who authorised it), authorising one and withdrawing one.

Thin: referees.services.substitutes checks who may (the jueces and the organizer) and every limit
of 5.8, each refusal a Spanish message naming its article."""

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
    MAX_ID,
    NO_STORE,
    PairRefField,
    body,
    is_staff,
    messages,
    resolve_match,
    resolve_pair,
)
from referees.api.sanctions import REASON_TEXT
from referees.models import Substitution
from referees.services.substitutes import MAX_REASON, substitute_authorise, substitute_cancel
from torneo.api.access import TournamentScoped
from torneo.api.permissions import TournamentAction
from torneo.identity import clean_text
from torneo.models import Round
from torneo.numbers import parse_int
from torneo.permissions import Action

ID_MESSAGE = gettext_lazy("El id no es válido: un número entero.")
MATCH_MESSAGE = gettext_lazy("Indica la partida (match) en la que juega el suplente: su id.")
REPLACED_MESSAGE = gettext_lazy(
    "Indica a qué jugador sustituye (replaced): 1, el primero de la pareja; 2, el segundo; 3, el tercero de un trío."
)
FIRST_NAME_MESSAGE = gettext_lazy("Escribe el nombre del suplente.")
LAST_NAME_MESSAGE = gettext_lazy("Escribe los apellidos del suplente.")
NAME_TOO_LONG = gettext_lazy("El nombre es demasiado largo.")
DOCUMENT_MESSAGE = gettext_lazy("El documento debe tener entre 5 y 20 letras o cifras.")
FORCE_MAJEURE_MESSAGE = gettext_lazy("Indica si es fuerza mayor (force_majeure): true o false.")
MAX_DOCUMENT = 50  # as typed, dots and dashes included: the service normalises and checks it
STATUS_HELP = "active (autorizada) o cancelled (anulada)."

# --- representations ------------------------------------------------------------------------------


class SubstitutionSerializer(serializers.Serializer):
    """A suplente as the public reads it (AMM 5.8): who plays for whom, where. Never the document."""

    id = serializers.IntegerField(help_text="Id de la suplencia.")
    round = serializers.IntegerField(source="match.round.number", help_text="Número de ronda.")
    table = serializers.IntegerField(source="match.table_number", allow_null=True, help_text="Número de mesa.")
    match = serializers.IntegerField(source="match_id", help_text="Id de la partida.")
    pair = serializers.IntegerField(source="pair.number", help_text="Número de la pareja.")
    replaced = serializers.CharField(source="replaced.full_name", help_text="Nombre del jugador al que sustituye.")
    name = serializers.CharField(help_text="Nombre y apellidos del suplente.")


class SubstitutionStaffSerializer(SubstitutionSerializer):
    """A suplencia as the staff read it: its state, the document, force majeure and the reason."""

    # A plain string, not an enum: the schema's StatusEnum names are taken by other components.
    status = serializers.CharField(help_text=STATUS_HELP)
    id_document = serializers.CharField(help_text="Documento del suplente (privado: datos personales).")
    force_majeure = serializers.BooleanField(
        help_text="Autorizada por fuerza mayor pese a incumplir un límite de AMM 5.8."
    )
    reason = serializers.CharField(help_text="Motivo (privado): el de la fuerza mayor y el de la anulación.")
    authorised_by = serializers.CharField(
        source="authorised_by.username", allow_null=True, help_text="Quién la autorizó."
    )
    authorised_at = serializers.DateTimeField(help_text="Cuándo se autorizó.")


SUBSTITUTION_ANSWER = PolymorphicProxySerializer(
    component_name="SubstitutionAnswer",
    serializers=[SubstitutionStaffSerializer, SubstitutionSerializer],
    resource_type_field_name=None,
    many=True,
)

# --- request bodies -------------------------------------------------------------------------------


class SubstitutionAuthoriseSerializer(serializers.Serializer):
    """A suplente (AMM 5.8): the partida, the pair and which of its players, the suplente's name and
    document, and force majeure with its reason to go beyond a limit."""

    match = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text="Id de la partida (publicada) en la que juega el suplente.",
        error_messages={
            **messages(ID_MESSAGE, ("invalid", "min_value", "max_value", "max_string_length")),
            **messages(MATCH_MESSAGE, ("required", "null")),
        },
    )
    pair = PairRefField(help_text="La pareja del jugador sustituido: «A» o «B» de la partida, o su número.")
    replaced = serializers.IntegerField(
        min_value=1,
        max_value=3,
        help_text="A qué jugador de la pareja sustituye, por su puesto en la pareja: 1, el primero; 2, el segundo; "
        "3, el tercero de un trío.",
        error_messages=messages(
            REPLACED_MESSAGE, ("required", "null", "invalid", "min_value", "max_value", "max_string_length")
        ),
    )
    also_missing = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=3,
        help_text="Solo para un trío: el puesto (1-3) del otro jugador que tampoco puede jugar; un suplente entra "
        "en un trío solo cuando faltan dos de los tres (AMM 5.8.e).",
        error_messages=messages(REPLACED_MESSAGE, ("invalid", "min_value", "max_value", "max_string_length")),
    )
    first_name = serializers.CharField(
        max_length=100,
        help_text="Nombre del suplente. Los límites de AMM 5.8 que se incumplan se explican en este campo.",
        error_messages={**messages(FIRST_NAME_MESSAGE), "max_length": NAME_TOO_LONG},
    )
    last_name = serializers.CharField(
        max_length=150,
        help_text="Apellidos del suplente.",
        error_messages={**messages(LAST_NAME_MESSAGE), "max_length": NAME_TOO_LONG},
    )
    id_document = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=MAX_DOCUMENT,
        help_text="Documento del suplente (DNI, NIE, pasaporte), opcional. Privado: solo lo ve el personal.",
        error_messages=messages(DOCUMENT_MESSAGE, ("null", "invalid", "max_length")),
    )
    force_majeure = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Fuerza mayor (AMM 5.8): autoriza aunque incumpla un límite; necesita un motivo (reason).",
        error_messages=messages(FORCE_MAJEURE_MESSAGE, ("null", "invalid")),
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text=f"Motivo (privado), hasta {MAX_REASON} caracteres. Obligatorio con fuerza mayor.",
        error_messages=messages(REASON_TEXT, ("null", "invalid")),
    )


class SubstitutionCancelSerializer(serializers.Serializer):
    """Withdrawing a suplente: free before the partida begins; after, only for force majeure (5.8.a)."""

    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text=f"Por qué se anula (privado), hasta {MAX_REASON} caracteres. Obligatorio con fuerza mayor.",
        error_messages=messages(REASON_TEXT, ("null", "invalid")),
    )
    force_majeure = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Fuerza mayor: anula la suplencia aunque la partida ya haya empezado (AMM 5.8.a), con motivo.",
        error_messages=messages(FORCE_MAJEURE_MESSAGE, ("null", "invalid")),
    )


# --- views ----------------------------------------------------------------------------------------


def _round_number(params: Any) -> int | None:
    raw = str(params.get("round", "")).strip()
    if not raw:
        return None
    number = parse_int(raw, high=999_999)
    if number is not None:
        return number
    raise serializers.ValidationError({"round": [_("El número de ronda no es válido.")]})


class SubstitutionViewSet(TournamentScoped, viewsets.GenericViewSet):
    """The suplentes of a tournament (AMM 5.8). Anyone who may see the tournament reads those
    authorised; the staff read every suplencia with its private data; the organizer and the jueces
    authorise and withdraw them."""

    permission_classes = [IsAuthenticatedOrReadOnly, TournamentAction]
    action_permissions = {"create": Action.INCIDENTS_MANAGE, "cancel": Action.INCIDENTS_MANAGE}
    serializer_class = SubstitutionStaffSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Substitution]:
        return Substitution.objects.none()

    def _rows(self) -> QuerySet[Substitution]:
        return Substitution.objects.filter(tournament=self.get_tournament()).select_related(
            "match__round", "pair", "replaced", "authorised_by"
        )

    def _answer(self, substitution: Substitution, code: int) -> Response:
        data = SubstitutionStaffSerializer(self._rows().get(pk=substitution.pk)).data
        return Response(data, status=code, headers=NO_STORE)

    @extend_schema(
        parameters=[OpenApiParameter("round", int, description="Solo los de esta ronda (número).")],
        responses={200: SUBSTITUTION_ANSWER, 400: None, 404: None},
        description="Los suplentes del torneo (AMM 5.8), por ronda y mesa: quién juega por quién. Público: solo "
        "las suplencias autorizadas, con el nombre del suplente, nunca su documento ni el motivo. La organización, "
        "los jueces y la mesa de control: también las anuladas, con el estado, el documento, la fuerza mayor, el "
        "motivo y quién la autorizó.",
    )
    def list(self, request: Request, tournament_slug: str) -> Response:
        tournament = self.get_tournament()
        number = _round_number(request.query_params)
        staff = is_staff(request.user, tournament)
        rows = self._rows()
        if not staff:
            rows = rows.filter(status=Substitution.Status.ACTIVE, match__round__status=Round.Status.PUBLISHED)
        if number is not None:
            rows = rows.filter(match__round__number=number)
        rows = rows.order_by("match__round__number", "match__table_number", "pk")
        shown = SubstitutionStaffSerializer if staff else SubstitutionSerializer
        return Response(shown(rows, many=True).data, headers=NO_STORE)

    @extend_schema(
        request=SubstitutionAuthoriseSerializer,
        responses={
            201: SubstitutionStaffSerializer,
            400: OpenApiResponse(
                description="Datos no válidos, o un límite de AMM 5.8 incumplido sin fuerza mayor: el error va en "
                "su campo (match, pair, replaced…); los límites, en first_name, cada uno con su artículo."
            ),
            401: OpenApiResponse(description="Sin identificar."),
            403: OpenApiResponse(description="Solo la organización y los jueces autorizan suplentes."),
            404: OpenApiResponse(description="No hay ese torneo."),
        },
        description="Autoriza un suplente (AMM 5.8) para un jugador de una pareja en una partida: la partida "
        "(match), la pareja («A» o «B» de la partida, o su número), a qué jugador sustituye (replaced: 1 o 2, su "
        "puesto en la pareja) y el nombre y documento del suplente. Se rechaza, citando el artículo, si la "
        "partida ya empezó con un suplente en ese puesto (5.8.a), si la persona está inscrita en el torneo "
        "(5.8.b), si ya fue suplente de otra pareja (5.8.c), en una ronda final (5.8.d) o para un trío (5.8.e); "
        "con fuerza mayor y un motivo se autoriza igualmente y queda anotado. Un suplente que ya tenía ese "
        "puesto en la partida queda anulado. La organización o los jueces.",
    )
    def create(self, request: Request, tournament_slug: str) -> Response:
        data = body(SubstitutionAuthoriseSerializer, request.data)
        tournament = self.get_tournament()
        match = resolve_match(request.user, tournament, data["match"], action=Action.INCIDENTS_MANAGE)
        if match is None:  # never: match is required
            raise serializers.ValidationError({"match": [str(MATCH_MESSAGE)]})
        pair = resolve_pair(tournament, data["pair"], match)
        if pair is None or pair.pk not in (match.pair_a_id, match.pair_b_id):
            raise serializers.ValidationError({"pair": [_("La pareja no juega esa partida.")]})
        members = pair.ordered_members()
        if len(members) < data["replaced"]:
            raise serializers.ValidationError({"replaced": [_("La pareja no tiene ese jugador.")]})
        also = data.get("also_missing")
        if also and len(members) < also:
            raise serializers.ValidationError({"also_missing": [_("La pareja no tiene ese jugador.")]})
        substitution = substitute_authorise(
            by=request.user,
            match=match,
            pair=pair,
            replaced=members[data["replaced"] - 1].player,
            first_name=data["first_name"],
            last_name=data["last_name"],
            id_document=data.get("id_document") or "",
            force_majeure=data.get("force_majeure", False),
            reason=data.get("reason") or "",
            also_missing=members[also - 1].player if also else None,
        )
        return self._answer(substitution, status.HTTP_201_CREATED)

    @extend_schema(
        request=SubstitutionCancelSerializer,
        responses={
            200: SubstitutionStaffSerializer,
            400: OpenApiResponse(
                description="La partida ya ha empezado y no es fuerza mayor con motivo (AMM 5.8.a: el error va en "
                "reason), o la suplencia ya estaba anulada."
            ),
            401: OpenApiResponse(description="Sin identificar."),
            403: OpenApiResponse(description="Solo la organización y los jueces anulan suplencias."),
            404: OpenApiResponse(description="No hay ese torneo o esa suplencia."),
        },
        description="Anula una suplencia (200, con la suplencia ya anulada). Antes de que empiece la partida, "
        "libremente; una vez empezada, quien empieza una partida la termina (AMM 5.8.a): solo por fuerza mayor "
        "(force_majeure) con un motivo (reason), que queda anotado. La organización o los jueces.",
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, tournament_slug: str, pk: str) -> Response:
        data = body(SubstitutionCancelSerializer, request.data)
        reason = clean_text(data.get("reason") or "")
        if len(reason) > MAX_REASON:
            message = _("El motivo es demasiado largo (máximo %(n)d caracteres).") % {"n": MAX_REASON}
            raise serializers.ValidationError({"reason": [message]})
        text = str(pk)
        pk = parse_int(text, low=1, high=MAX_ID)
        if pk is None:
            raise NotFound
        found = self._rows().filter(pk=pk).first()
        if found is None:
            raise NotFound
        cancelled = substitute_cancel(
            by=request.user, substitution=found, reason=reason, force_majeure=data.get("force_majeure", False)
        )
        return self._answer(cancelled, status.HTTP_200_OK)
