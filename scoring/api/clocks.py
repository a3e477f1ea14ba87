"""API for the match clocks (AMM chapter VI): every table's clock of a round and one table's
(public: pair numbers and names, never personal data), the events the beat task applied (staff and
the table's players), and the taps that move a clock: start it (6.1.a), pause and resume it (3.15),
a pair incomplete and then complete (6.1.b), a juego won and its undo, the tantos of the juego
being played (6.4, 6.5.a), a delay warning (6.3).

Thin: scoring.services.clocks checks who may and writes (and bumps the live version);
scoring.selectors.clocks reads. Each write answers the table's clock as it stands after it
(``ClockInfo.as_dict``, the same JSON as the reads). Errors are Spanish and keyed by field."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, Throttled
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.models import ClockEvent, JuegoClaim
from scoring.selectors.clocks import ClockInfo, clock_events, match_clock, round_clocks
from scoring.selectors.results import published_round
from scoring.services.clocks import (
    clock_absence,
    clock_juego,
    clock_juego_undo,
    clock_pause,
    clock_resume,
    clock_start,
    clock_tantos,
    clock_warning,
    clocks_start_round,
    tap_moment,
)
from scoring.throttles import CLOCK_TAP_REFUSED, clock_tap_wait
from torneo.api.access import TournamentScoped
from torneo.models import Match, Round, Tournament
from torneo.permissions import Action, access_match
from torneo.selectors.registrations import members_prefetch

NO_STORE = {"Cache-Control": "no-store"}
MAX_ROUND = 2**31 - 1
SIDES = [("A", "A"), ("B", "B")]

# --- representations (the JSON of ClockInfo.as_dict, for the schema) -----------------------------


class ClockPairSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="Número de la pareja.")
    name = serializers.CharField(help_text="Nombre de la pareja (o los apellidos de sus jugadores).")


class ClockJuegoSerializer(serializers.Serializer):
    winner = serializers.CharField(help_text="Pareja que ganó el juego: «A» o «B».")
    ended = serializers.FloatField(help_text="Minuto del reloj en que terminó.")


class ClockClaimSerializer(serializers.Serializer):
    winner = serializers.CharField(help_text="Pareja que dice haber ganado el juego: «A» o «B».")
    pair = serializers.IntegerField(help_text="Su número de pareja.")
    claimed_at = serializers.DateTimeField(help_text="Cuándo lo anotó: si se confirma, el juego terminó entonces.")


class ClockInfoSerializer(serializers.Serializer):
    """One table's clock now. Before it starts only the first keys are present (started: false)."""

    match = serializers.IntegerField(help_text="Id de la partida.")
    round = serializers.IntegerField(help_text="Número de ronda.")
    table = serializers.IntegerField(allow_null=True, help_text="Número de mesa.")
    pair_a = ClockPairSerializer()
    pair_b = ClockPairSerializer(allow_null=True)
    started = serializers.BooleanField(help_text="El reloj está en marcha (AMM 6.1.a).")
    started_at = serializers.DateTimeField(allow_null=True)
    paused = serializers.BooleanField(help_text="Reloj parado por el juez (AMM 3.15).")
    pause_reason = serializers.CharField(help_text="Motivo de la interrupción en curso (AMM 3.15).")
    minute = serializers.FloatField(allow_null=True, help_text="Minutos de reloj transcurridos (sin las pausas).")
    server_now = serializers.DateTimeField(help_text="La hora del servidor: las horas límite se cuentan desde ella.")
    max_minutes = serializers.IntegerField(required=False, help_text="Duración máxima de la partida (AMM 6.2).")
    phase = serializers.CharField(
        required=False,
        help_text="normal, ajustes (AMM 6.4), excedido (6.2), ultima_mano (6.5.a) o terminada (6.5).",
    )
    missing = serializers.DictField(
        required=False, help_text="Por pareja, juegos perdidos y partida perdida por incomparecencia (AMM 6.1.b)."
    )
    juego = serializers.DictField(
        required=False, help_text="El juego en curso: artículo que lo ajusta, tantos a los que se juega, si es final."
    )
    forced_end = serializers.DictField(
        required=False, allow_null=True, help_text="Terminación anticipada por tiempo (AMM 6.5.b): quién pierde."
    )
    alerts = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="Parejas reincidentes en retrasos (AMM 6.6)."
    )
    score = serializers.DictField(required=False, help_text="Juegos de cada pareja.")
    winner = serializers.CharField(required=False, allow_null=True)
    adjustments = serializers.CharField(
        required=False, allow_null=True, help_text="Ajuste de terminación en vigor: 6.4.a, 6.4.b o 6.4.c."
    )
    remaining = serializers.FloatField(required=False, help_text="Minutos que faltan hasta el máximo (AMM 6.2).")
    envite_seconds = serializers.IntegerField(required=False, allow_null=True)
    waits_cancellable = serializers.BooleanField(required=False, help_text="El juez puede anular esperas (6.4.d).")
    rules = serializers.CharField(required=False, help_text="Reglas de tiempo del torneo.")
    window_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="Cuándo empiezan los ajustes (AMM 6.4); vacía con el reloj parado."
    )
    max_at = serializers.DateTimeField(required=False, allow_null=True, help_text="Cuándo se llega al máximo (6.2).")
    limit_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="Cuándo se fuerza la terminación (AMM 6.5)."
    )
    juegos = ClockJuegoSerializer(many=True, required=False)
    claim = ClockClaimSerializer(required=False, allow_null=True)


class RoundClocksSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    started = serializers.IntegerField(help_text="Relojes puestos en marcha ahora (los que ya corrían no cuentan).")
    clocks = ClockInfoSerializer(many=True)


class ClockEventSerializer(serializers.ModelSerializer):
    """Something chapter VI made due and the beat task applied, once."""

    class Meta:
        model = ClockEvent
        fields = ["key", "article", "at", "minute", "data"]


# --- request bodies -------------------------------------------------------------------------------

_PAIR_MESSAGES: dict[str, Any] = {
    "required": gettext_lazy("Indica la pareja: «A» o «B»."),
    "null": gettext_lazy("Indica la pareja: «A» o «B»."),
    "invalid_choice": gettext_lazy("Indica la pareja: «A» o «B»."),
}


class ClockRoundStartSerializer(serializers.Serializer):
    round = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROUND,
        help_text="Número de la ronda publicada.",
        error_messages={
            "required": gettext_lazy("Indica la ronda (round)."),
            "null": gettext_lazy("Indica la ronda (round)."),
            "invalid": gettext_lazy("El número de ronda no es válido."),
            "min_value": gettext_lazy("El número de ronda no es válido."),
            "max_value": gettext_lazy("El número de ronda no es válido."),
            "max_string_length": gettext_lazy("El número de ronda no es válido."),
        },
    )


class ClockPauseSerializer(serializers.Serializer):
    reason = serializers.CharField(
        trim_whitespace=True,
        help_text="Motivo de la interrupción que autoriza el juez (AMM 3.15), hasta 200 caracteres.",
        error_messages={
            "required": gettext_lazy("Escribe el motivo de la interrupción (AMM 3.15)."),
            "null": gettext_lazy("Escribe el motivo de la interrupción (AMM 3.15)."),
            "blank": gettext_lazy("Escribe el motivo de la interrupción (AMM 3.15)."),
            "invalid": gettext_lazy("El motivo tiene que ser un texto."),
        },
    )


@extend_schema_field({"type": "string", "pattern": "^[AB]$"})
class SideField(serializers.ChoiceField):
    """«A» or «B». The schema names the choice set once (PairEnum, the ``pair`` fields): here a
    pattern, so that the same set does not get a second name."""


class ClockTapSerializer(serializers.Serializer):
    winner = SideField(
        choices=SIDES,
        help_text="Pareja que ha ganado el juego: «A» o «B».",
        error_messages={
            "required": gettext_lazy("Indica qué pareja ha ganado el juego: «A» o «B»."),
            "null": gettext_lazy("Indica qué pareja ha ganado el juego: «A» o «B»."),
            "invalid_choice": gettext_lazy("Indica qué pareja ha ganado el juego: «A» o «B»."),
        },
    )
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=99,
        help_text="El juego para el que es el toque, según el marcador que vio el móvil (juegos anotados + 1). Si "
        "ya no es el siguiente (otro móvil lo anotó, el toque llegó dos veces): 400, code «stale», y nada cambia. "
        "Sin él no se comprueba.",
        error_messages={"invalid": gettext_lazy("El número de juego no es válido.")},
    )
    tapped_at = serializers.DateTimeField(
        required=False,
        help_text="Cuándo se tocó, si se envía más tarde (un móvil sin conexión lo guarda y lo envía al volver): "
        "hora del servidor. El juego terminó entonces; se acepta hasta 10 minutos antes de llegar.",
        error_messages={"invalid": gettext_lazy("La hora del toque no es válida.")},
    )


_TANTOS_MESSAGES: dict[str, Any] = {
    "required": gettext_lazy("Indica los tantos de cada pareja (a y b)."),
    "null": gettext_lazy("Indica los tantos de cada pareja (a y b)."),
    "invalid": gettext_lazy("Los tantos son un número entero."),
    "max_string_length": gettext_lazy("Los tantos son un número entero."),
}


class ClockTantosSerializer(serializers.Serializer):
    a = serializers.IntegerField(
        help_text="Tantos de la pareja A en el juego en curso.", error_messages=_TANTOS_MESSAGES
    )
    b = serializers.IntegerField(
        help_text="Tantos de la pareja B en el juego en curso.", error_messages=_TANTOS_MESSAGES
    )


class ClockSideSerializer(serializers.Serializer):
    pair = serializers.ChoiceField(choices=SIDES, help_text="Pareja: «A» o «B».", error_messages=_PAIR_MESSAGES)


class ClockWarningSerializer(ClockSideSerializer):
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        trim_whitespace=True,
        help_text="Nota del juez (opcional), hasta 200 caracteres.",
        error_messages={"invalid": gettext_lazy("La nota tiene que ser un texto.")},
    )


def _body(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# --- views ----------------------------------------------------------------------------------------

ROUND_PARAM = OpenApiParameter("round", int, description="Número de ronda (por defecto, la última publicada).")
CLOCK_RESPONSES = {
    200: ClockInfoSerializer,
    400: OpenApiResponse(description="Datos no válidos o el reloj no permite la acción (detail y code)."),
    401: OpenApiResponse(description="Sin identificar."),
    403: OpenApiResponse(description="No puedes llevar el reloj de esta partida."),
    404: OpenApiResponse(description="No hay esa partida en el torneo (o es una exenta)."),
}


def _as_dicts(infos: list[ClockInfo], now: Any) -> list[dict[str, Any]]:
    return [info.as_dict(now) for info in infos]


def _round(tournament: Tournament, number: object) -> Round:
    """The published round ``number`` (the latest without one), or the API's 400 / 404."""
    try:
        round_ = published_round(tournament, number)
    except ValueError:
        raise serializers.ValidationError({"round": [_("El número de ronda no es válido.")]}) from None
    if round_ is None and number in (None, ""):
        raise NotFound(_("Todavía no hay ninguna ronda publicada."))
    if round_ is None:
        raise NotFound(_("No hay ninguna ronda %(n)s publicada.") % {"n": str(number)[:20]})
    return round_


class ClockViewSet(TournamentScoped, viewsets.GenericViewSet):
    """The match clocks of a tournament (AMM chapter VI). Anyone who may see the tournament reads
    them; the services say who may move them (the juez and the organizer everything; the mesa de
    control starts them and taps juegos; a player of the table taps its juegos and tantos)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = ClockInfoSerializer
    pagination_class = None
    lookup_url_kwarg = "match_id"

    def get_queryset(self) -> QuerySet[Match]:
        return Match.objects.none()

    def _match(self, match_id: object) -> Match:
        """A played match of this tournament (published, not an exenta), or 404."""
        queryset = Match.objects.select_related("round__tournament", "pair_a", "pair_b").prefetch_related(
            members_prefetch("pair_a__members"), members_prefetch("pair_b__members")
        )
        return access_match(self.request.user, self.get_tournament(), match_id, playable=True, queryset=queryset)

    def _tapped(self, match_id: object) -> Match:
        """The match of a tap (a juego, its undo, the tantos), counted against the limit per account
        and table (scoring.throttles): past it, a Spanish 429 with Retry-After, nothing written."""
        match = self._match(match_id)
        if (wait := clock_tap_wait(self.request.user, match)) is not None:
            raise Throttled(wait=wait, detail=str(CLOCK_TAP_REFUSED))
        return match

    def _clock(self, match: Match, now: Any) -> Response:
        return Response(match_clock(match, now).as_dict(now), headers=NO_STORE)

    # --- reads

    @extend_schema(
        parameters=[ROUND_PARAM],
        responses={200: ClockInfoSerializer(many=True), 400: None, 404: None},
        description="Los relojes de todas las mesas de una ronda (las exentas no tienen reloj), con las horas "
        "límite calculadas desde la hora del servidor (server_now): duración máxima (AMM 6.2), ajustes de "
        "terminación (6.4), terminación forzada (6.5). Público: solo números y nombres de pareja.",
    )
    def list(self, request: Request, tournament_slug: str) -> Response:
        round_ = _round(self.get_tournament(), request.query_params.get("round"))
        now = timezone.now()
        return Response(_as_dicts(round_clocks(round_, now), now), headers=NO_STORE)

    @extend_schema(
        responses={200: ClockInfoSerializer, 404: None},
        description="El reloj de una mesa (AMM capítulo VI): fase, juegos, incomparecencias (6.1.b), ajustes "
        "(6.4), terminación forzada (6.5.b) y avisos de reincidencia (6.6). Público.",
    )
    def retrieve(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        return self._clock(self._match(match_id), timezone.now())

    @extend_schema(
        responses={200: ClockEventSerializer(many=True), 403: None, 404: None},
        description="Lo que el capítulo VI hizo efectivo en la partida, una vez cada cosa: juegos y partida "
        "perdidos por incomparecencia (AMM 6.1.b), ajustes (6.4), terminación forzada (6.5.b), avisos (6.6). "
        "Para la organización, la mesa de control, los jueces y los jugadores de la mesa.",
    )
    @action(detail=True, methods=["get"])
    def events(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        tournament = self.get_tournament()
        match = access_match(
            request.user, tournament, match_id, action=Action.VIEW_PRIVATE, players=True, playable=True
        )
        return Response(ClockEventSerializer(clock_events(match), many=True).data, headers=NO_STORE)

    # --- writes

    @extend_schema(
        operation_id="tournaments_clocks_start_round",
        request=ClockRoundStartSerializer,
        responses={200: RoundClocksSerializer, 400: None, 401: None, 403: None, 404: None},
        description="Pone en marcha los relojes de todas las mesas de la ronda que aún no lo están (AMM 6.1.a: "
        "tras repartir el material y las actas; 6.1.c: pasado el tiempo de cortesía). Los que ya corren "
        "conservan su inicio. La organización, los jueces o la mesa de control.",
    )
    @action(detail=False, methods=["post"], url_path="start")
    def start_round(self, request: Request, tournament_slug: str) -> Response:
        data = _body(ClockRoundStartSerializer, request)
        round_ = _round(self.get_tournament(), data["round"])
        now = timezone.now()
        started = clocks_start_round(round=round_, by=request.user, at=now)
        body = {"round": round_.number, "started": started, "clocks": _as_dicts(round_clocks(round_, now), now)}
        return Response(body, headers=NO_STORE)

    @extend_schema(
        request=None,
        responses=CLOCK_RESPONSES,
        description="Pone en marcha el reloj de una mesa (AMM 6.1.a). Si ya estaba en marcha conserva su inicio. "
        "La organización, los jueces o la mesa de control.",
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        match, now = self._match(match_id), timezone.now()
        clock_start(match=match, by=request.user, at=now)
        return self._clock(match, now)

    @extend_schema(
        request=ClockPauseSerializer,
        responses=CLOCK_RESPONSES,
        description="Para el reloj por una interrupción que autoriza el juez, con su motivo (AMM 3.15): esos "
        "minutos no cuentan. La organización o los jueces.",
    )
    @action(detail=True, methods=["post"])
    def pause(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        data = _body(ClockPauseSerializer, request)
        match, now = self._match(match_id), timezone.now()
        clock_pause(match=match, by=request.user, reason=data["reason"], at=now)
        return self._clock(match, now)

    @extend_schema(
        request=None,
        responses=CLOCK_RESPONSES,
        description="Fin de la interrupción (AMM 3.15): el reloj sigue desde donde se paró. La organización o los "
        "jueces.",
    )
    @action(detail=True, methods=["post"])
    def resume(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        match, now = self._match(match_id), timezone.now()
        clock_resume(match=match, by=request.user, at=now)
        return self._clock(match, now)

    @extend_schema(
        request=ClockTapSerializer,
        responses={**CLOCK_RESPONSES, 202: ClockInfoSerializer},
        description="Un juego ganado (winner: «A» o «B»): los ajustes de terminación siguen el marcador real "
        "(AMM 6.4). La organización, los jueces o la mesa de control: cuenta en el acto (200). Un jugador de la "
        "mesa (o el móvil de su pareja): el juego de la pareja contraria cuenta en el acto (lo concede, 200); el "
        "de la suya queda pendiente (202, en «claim») hasta que la otra pareja lo confirme tocando el mismo juego "
        "(AMM 3.16: firma la pareja perdedora). Si las dos dicen haberlo ganado: 400 (code «disputed»), avisad "
        "al juez. Un toque guardado sin conexión llega con su hora (tapped_at): el juego terminó entonces; más de "
        "10 minutos después, 400 (code «late»): lo anota el juez.",
    )
    @action(detail=True, methods=["post"])
    def juego(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        data = _body(ClockTapSerializer, request)
        match, now = self._tapped(match_id), timezone.now()
        at = tap_moment(tapped_at=data.get("tapped_at"), now=now)
        tapped = clock_juego(match=match, by=request.user, winner=data["winner"], at=at, number=data.get("number"))
        answer = self._clock(match, now)
        if isinstance(tapped, JuegoClaim):
            answer.status_code = status.HTTP_202_ACCEPTED  # counted when the rivals confirm it (its ``claim``)
        return answer

    @extend_schema(
        request=None,
        responses=CLOCK_RESPONSES,
        description="Deshace el último juego anotado (un toque equivocado); los ajustes (AMM 6.4) vuelven al "
        "marcador anterior. La organización, los jueces o la mesa de control; un jugador de la mesa solo en "
        "contra de su pareja: retira el juego que su pareja anotó y espera confirmación, o deshace el último "
        "juego que ganó su pareja.",
    )
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        match, now = self._tapped(match_id), timezone.now()
        clock_juego_undo(match=match, by=request.user)
        return self._clock(match, now)

    @extend_schema(
        request=ClockTantosSerializer,
        responses=CLOCK_RESPONSES,
        description="Los tantos de cada pareja en el juego en curso (a, b): deciden la última mano (AMM 6.5.a). "
        "La organización, los jueces, la mesa de control o un jugador de la mesa.",
    )
    @action(detail=True, methods=["post"])
    def tantos(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        data = _body(ClockTantosSerializer, request)
        match, now = self._tapped(match_id), timezone.now()
        clock_tantos(match=match, by=request.user, a=data["a"], b=data["b"])
        return self._clock(match, now)

    @extend_schema(
        request=ClockSideSerializer,
        responses=CLOCK_RESPONSES,
        description="Marca una pareja incompleta al empezar el reloj (AMM 6.1.b): con los tiempos del reglamento, "
        "a los 10 minutos pierde un juego, a los 15 el segundo y a los 20 la partida (el torneo puede elegir "
        "otros); la pareja contraria no puede perdonarlo. La organización o los jueces.",
    )
    @action(detail=True, methods=["post"])
    def absence(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        data = _body(ClockSideSerializer, request)
        match, now = self._match(match_id), timezone.now()
        clock_absence(match=match, by=request.user, pair=data["pair"], at=now)
        return self._clock(match, now)

    @extend_schema(
        request=ClockSideSerializer,
        responses=CLOCK_RESPONSES,
        description="La pareja marcada incompleta ya está completa (AMM 6.1.b): desde ahora no pierde más juegos. "
        "La organización o los jueces.",
    )
    @action(detail=True, methods=["post"])
    def arrival(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        data = _body(ClockSideSerializer, request)
        match, now = self._match(match_id), timezone.now()
        clock_absence(match=match, by=request.user, pair=data["pair"], arrived=True, at=now)
        return self._clock(match, now)

    @extend_schema(
        request=ClockWarningSerializer,
        responses=CLOCK_RESPONSES,
        description="Apercibimiento por retraso a una pareja en esta partida (AMM 6.3), con una nota opcional: "
        "decide la terminación anticipada (6.5.b) y cuenta para la reincidencia (6.6). La organización o los "
        "jueces.",
    )
    @action(detail=True, methods=["post"])
    def warning(self, request: Request, tournament_slug: str, match_id: str) -> Response:
        data = _body(ClockWarningSerializer, request)
        match, now = self._match(match_id), timezone.now()
        clock_warning(match=match, by=request.user, pair=data["pair"], note=data["note"], at=now)
        return self._clock(match, now)
