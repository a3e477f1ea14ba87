"""API for results: each round's results, entering them (the version you saw, or 409), every
version of an acta, and the double check's confirmation (another person, or a player of the losing
pair, AMM 3.16). Thin: scoring.services.results decides; errors are Spanish and keyed by field."""

from typing import Any

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.messages import describe_submission
from scoring.models import ResultSubmission
from scoring.selectors import results as selectors
from scoring.services.results import (
    can_confirm,
    result_confirm,
    result_note,
    result_reject,
    result_report,
    result_resolve,
    result_submit,
)
from torneo.api.access import TournamentScoped
from torneo.api.permissions import TournamentAction
from torneo.models import Match, Pair, Round
from torneo.numbers import is_digits, parse_int
from torneo.people import public_name
from torneo.permissions import Action, access_match, can
from torneo.ratelimit import table_write_check

# --- representations ---------------------------------------------------------------------------


class PairBriefSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.CharField()
    status = serializers.CharField()


class ResultSerializer(serializers.Serializer):
    """A match (mesa) and the result that stands (only confirmed versions count)."""

    id = serializers.IntegerField()
    round = serializers.IntegerField()
    pool = serializers.CharField(help_text="Grupo: vacío, «A»/«B» (repesca) o el número de liguilla.")
    table = serializers.IntegerField(allow_null=True, help_text="Mesa; vacía para una exenta.")
    pair_a = PairBriefSerializer()
    pair_b = PairBriefSerializer(allow_null=True, help_text="Vacía: exenta (AMM 5.6).")
    outcome = serializers.ChoiceField(choices=Match.Outcome.choices)
    games_a = serializers.IntegerField(allow_null=True)
    games_b = serializers.IntegerField(allow_null=True)
    tantos_a = serializers.IntegerField(allow_null=True)
    tantos_b = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True, help_text="Número de la pareja ganadora.")
    version = serializers.IntegerField(help_text="Versión del acta que está en vigor (0: ninguna).")


class SubmissionSerializer(serializers.ModelSerializer):
    """One version of a match's acta."""

    round = serializers.IntegerField(source="match.round.number", read_only=True)
    table = serializers.IntegerField(source="match.table_number", read_only=True, allow_null=True)
    winner = serializers.IntegerField(source="winner.number", read_only=True, allow_null=True, default=None)
    submitted_by = serializers.SerializerMethodField(
        help_text="Quién lo anotó: su usuario para el personal del torneo; para los jugadores, su nombre (nunca un "
        "usuario: medio inicio de sesión)."
    )
    confirmed_by = serializers.SerializerMethodField(help_text="Quién lo confirmó, como submitted_by.")

    def _who(self, user: Any) -> str:
        if user is None:
            return ""
        return user.get_username() if self.context.get("staff", True) else public_name(user, as_player=True)

    @extend_schema_field(serializers.CharField())
    def get_submitted_by(self, sub: ResultSubmission) -> str:
        return self._who(sub.submitted_by)

    @extend_schema_field(serializers.CharField())
    def get_confirmed_by(self, sub: ResultSubmission) -> str:
        return self._who(sub.confirmed_by)

    class Meta:
        model = ResultSubmission
        fields = [
            "id",
            "match",
            "round",
            "table",
            "version",
            "status",
            "source",
            "outcome",
            "games_a",
            "games_b",
            "tantos",
            "winner",
            "reason",
            "submitted_by",
            "submitted_at",
            "confirmed_by",
            "confirmed_at",
        ]


class TantosField(serializers.ListField):
    child = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=200), min_length=2, max_length=2
    )


class ResultSubmitSerializer(serializers.Serializer):
    """An acta: the mesa by round and table (or by match id), the result and the version seen."""

    match = serializers.IntegerField(required=False, help_text="Id de la partida (o bien round y table).")
    round = serializers.IntegerField(required=False, min_value=1, help_text="Número de ronda.")
    table = serializers.IntegerField(required=False, min_value=1, help_text="Número de mesa.")
    outcome = serializers.ChoiceField(
        choices=Match.Outcome.choices,
        default=Match.Outcome.PLAYED,
        help_text="played (jugada), walkover (incomparecencia), retired (retirada), double_loss (pierden ambas), "
        "ruling (decisión del juez).",
    )
    games_a = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=9)
    games_b = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=9)
    winner = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Número de la pareja que gana (o que se presenta, en una incomparecencia).",
    )
    tantos = TantosField(required=False, max_length=15, help_text="Tantos de cada juego: [[40, 32], [38, 40], …].")
    version = serializers.IntegerField(
        min_value=0,
        help_text="Última versión del acta que has visto (0 si no había ninguna): si otra persona ha anotado "
        "después, la respuesta es 409.",
        error_messages={"required": "Indica la versión del acta que has visto (0 si no había ninguna)."},
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")
    source = serializers.ChoiceField(
        choices=[
            (ResultSubmission.Source.CONTROL.value, ResultSubmission.Source.CONTROL.label),
            (ResultSubmission.Source.API.value, ResultSubmission.Source.API.label),
        ],
        default=ResultSubmission.Source.API.value,
        help_text="Procedencia que declara el cliente, para el historial del acta: «control» (la mesa de control, "
        "la página de anotar resultados) o «api» (por defecto). No cambia quién puede anotar.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("match") is None and (attrs.get("round") is None or attrs.get("table") is None):
            raise serializers.ValidationError({"table": ["Indica la ronda y la mesa (round y table), o la partida."]})
        return attrs


class ReportSerializer(serializers.Serializer):
    """A pair's report of its table's result (issue 32)."""

    match = serializers.IntegerField(help_text="Id de la partida de la pareja.")
    games_a = serializers.IntegerField(min_value=0, max_value=9, help_text="Juegos de pair_a.")
    games_b = serializers.IntegerField(min_value=0, max_value=9, help_text="Juegos de pair_b.")
    tantos = TantosField(required=False, max_length=15, help_text="Tantos de cada juego (opcional): [[40, 32], …].")


class RejectSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")


class EntryStateSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    locked = serializers.BooleanField(help_text="Ronda cerrada: ya se publicó el sorteo siguiente (AMM 3.18).")
    total = serializers.IntegerField()
    decided = serializers.IntegerField()
    missing = serializers.ListField(child=serializers.DictField(), help_text="Mesas sin acta.")
    awaiting = serializers.ListField(child=serializers.DictField(), help_text="Actas pendientes de confirmar.")


class SubmittedSerializer(SubmissionSerializer):
    """The acta just entered, what the mesa's page would say about it, and the round's entry state
    after it (one request per acta for the fast entry desk)."""

    message = serializers.CharField(
        read_only=True, help_text="El texto que muestra la página: «Mesa 3: … 3–1 …. Anotado (versión 1).»"
    )
    state = EntryStateSerializer(read_only=True, help_text="Mesas de la ronda sin acta y pendientes de confirmar.")

    class Meta(SubmissionSerializer.Meta):
        fields = [*SubmissionSerializer.Meta.fields, "message", "state"]


class LookupProposalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    games_a = serializers.IntegerField(allow_null=True)
    games_b = serializers.IntegerField(allow_null=True)
    outcome = serializers.CharField()
    outcome_label = serializers.CharField()
    by = serializers.CharField()


class LookupDisagreementSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Id del acta (para elegirla al decidir: choice).")
    version = serializers.IntegerField()
    games_a = serializers.IntegerField(allow_null=True)
    games_b = serializers.IntegerField(allow_null=True)
    outcome = serializers.CharField()
    outcome_label = serializers.CharField()
    by = serializers.CharField()


class NoteSerializer(serializers.Serializer):
    note = serializers.CharField(
        max_length=500,
        help_text="La nota (AMM 3.18): queda en el historial del acta; el resultado no cambia.",
        error_messages={"required": "Escribe la nota.", "blank": "Escribe la nota."},
    )


class ResolveSerializer(serializers.Serializer):
    """The decision between two actas that disagree: keep one (choice) or enter another result."""

    reason = serializers.CharField(
        max_length=500,
        help_text="Motivo de la decisión: queda en el historial del acta.",
        error_messages={"required": "Escribe el motivo de la decisión: queda en el historial del acta."},
    )
    choice = serializers.IntegerField(
        required=False, allow_null=True, help_text="Id de una de las dos actas en desacuerdo, la que vale."
    )
    outcome = serializers.ChoiceField(choices=Match.Outcome.choices, default=Match.Outcome.PLAYED)
    games_a = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=9)
    games_b = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=9)
    winner = serializers.IntegerField(required=False, allow_null=True, help_text="Número de la pareja que gana.")
    tantos = TantosField(required=False, max_length=15, help_text="Tantos de cada juego: [[40, 32], [38, 40], …].")


class LookupSerializer(serializers.Serializer):
    """What the mesa sees after typing a table (scoring.selectors.results.match_lookup)."""

    id = serializers.IntegerField(help_text="Id de la partida.")
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    pool = serializers.CharField()
    pair_a = PairBriefSerializer()
    pair_b = PairBriefSerializer(allow_null=True, help_text="Vacía: exenta (AMM 5.6).")
    outcome = serializers.ChoiceField(choices=Match.Outcome.choices)
    outcome_label = serializers.CharField()
    games_a = serializers.IntegerField(allow_null=True)
    games_b = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True, help_text="Número de la pareja ganadora.")
    version = serializers.IntegerField(help_text="Versión del acta que hay que enviar de vuelta (0: ninguna).")
    latest_by = serializers.CharField(help_text="Quién anotó la última versión.")
    standing_version = serializers.IntegerField(
        help_text="Versión del acta de la que sale el resultado que cuenta (0: ninguno); no la última si una "
        "posterior espera confirmación."
    )
    standing_by = serializers.CharField(help_text="Quién anotó la versión que cuenta.")
    proposed = LookupProposalSerializer(allow_null=True, help_text="Acta pendiente de confirmar, si la hay.")
    disagreement = LookupDisagreementSerializer(
        many=True,
        help_text="Dos actas que no coinciden (doble comprobación, AMM 3.16), la más antigua primero; vacía si no "
        "las hay. No cuenta ninguna hasta que la organización o un juez decide (resolve).",
    )
    clock_notes = serializers.ListField(
        child=serializers.CharField(),
        help_text="Lo que decidió el reloj de la mesa: juegos o partida perdidos por retraso (AMM 6.1.b), "
        "terminación por tiempo (6.5.b).",
    )
    acta_notes = serializers.ListField(
        child=serializers.CharField(),
        help_text="Las sanciones del juez en esta partida, como las escribe el acta (AMM 5.4): "
        "apercibimientos, juegos o la partida perdidos.",
    )
    locked = serializers.BooleanField(help_text="Ronda cerrada (AMM 3.18): solo la organización corrige.")
    next_prepared = serializers.BooleanField(help_text="El sorteo de la ronda siguiente ya está preparado.")
    is_bye = serializers.BooleanField(help_text="Exenta: no hay resultado que anotar.")


# --- views ---------------------------------------------------------------------------------------


def _round(tournament: Any, number: Any) -> Round:
    """The published round (scoring.selectors.results.published_round) or the API's 404 / 400."""
    try:
        round_ = selectors.published_round(tournament, number)
    except ValueError:
        raise serializers.ValidationError({"round": ["El número de ronda no es válido."]}) from None
    if round_ is None and number in (None, ""):
        raise NotFound("Todavía no hay ninguna ronda publicada.")
    if round_ is None:
        raise NotFound(f"No hay ninguna ronda {number} publicada.")
    return round_


ROUND_PARAM = OpenApiParameter("round", int, description="Número de ronda (por defecto, la última publicada).")


class ResultViewSet(TournamentScoped, viewsets.GenericViewSet):
    """Results by round. Anyone reads them; the mesa de control (and the organizer) enters them."""

    permission_classes = [TournamentAction]
    serializer_class = ResultSerializer
    pagination_class = None
    action_permissions = {
        "create": Action.RESULTS_ENTER,
        "entry_state": Action.RESULTS_ENTER,
        "lookup": Action.RESULTS_ENTER,
        "resolve": Action.RESULTS_RESOLVE,
        "note": Action.RESULTS_OVERRIDE,
    }

    def get_queryset(self) -> QuerySet[Match]:
        return Match.objects.none()

    @extend_schema(parameters=[ROUND_PARAM], responses=ResultSerializer(many=True))
    def list(self, request: Request, tournament_slug: str) -> Response:
        """The matches of a round with the result that stands (exentas included)."""
        round_ = _round(self.get_tournament(), request.query_params.get("round"))
        return Response([m.as_dict() for m in selectors.round_matches(round_)])

    @extend_schema(
        request=ResultSubmitSerializer,
        responses={201: SubmittedSerializer, 400: None, 403: None, 409: None},
        description="Anota (o corrige) el resultado de una mesa. Cada envío es una versión nueva; con la doble "
        "comprobación del torneo queda pendiente hasta que otra persona lo confirma. Tras publicarse el sorteo "
        "siguiente (AMM 3.18) el resultado es inamovible para todos: la organización solo añade una nota "
        "(results/<id>/note/); una mesa sin resultado aún la anota la organización, con un motivo. La respuesta trae "
        "además el mensaje que muestra la página (message) y las mesas de la ronda que aún faltan (state).",
    )
    def create(self, request: Request, tournament_slug: str) -> Response:
        tournament = self.get_tournament()
        serializer = ResultSubmitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = self._match(tournament, data)
        winner = self._winner(tournament, match, data.get("winner"))
        sub = result_submit(
            match=match,
            by=request.user,
            outcome=data["outcome"],
            games_a=data.get("games_a"),
            games_b=data.get("games_b"),
            winner=winner,
            tantos=data.get("tantos") or [],
            expected_version=data["version"],
            source=data["source"],
            reason=data.get("reason", ""),
        )
        sub = ResultSubmission.objects.select_related("match__round", "winner", "submitted_by", "confirmed_by").get(
            pk=sub.pk
        )
        body = {
            **SubmissionSerializer(sub).data,
            "message": describe_submission(match, sub, request.user),
            "state": selectors.entry_state(match.round).as_dict(),
        }
        return Response(body, status=status.HTTP_201_CREATED)

    def _winner(self, tournament: Any, match: Match, number: int | None) -> Pair | None:
        if number is None:
            return None
        winner = Pair.objects.filter(tournament=tournament, number=number).first()
        if winner is None or winner.pk not in (match.pair_a_id, match.pair_b_id):
            message = f"La pareja {number} no juega en la mesa {match.table_number}."
            raise serializers.ValidationError({"winner": [message]})
        return winner

    def _match(self, tournament: Any, data: dict[str, Any]) -> Match:
        qs = Match.objects.select_related("round__tournament", "pair_a", "pair_b").filter(round__tournament=tournament)
        if data.get("match") is not None:
            match = qs.filter(pk=data["match"]).first()
            if match is None:
                raise serializers.ValidationError({"match": [f"La partida {data['match']} no es de este torneo."]})
            return match
        round_ = _round(tournament, data["round"])
        match = qs.filter(round=round_, table_number=data["table"]).first()
        if match is None:
            raise serializers.ValidationError(
                {"table": [f"No hay ninguna mesa {data['table']} en la ronda {round_.number}."]}
            )
        return match

    @extend_schema(responses=SubmissionSerializer(many=True))
    @action(detail=True, methods=["get"])
    def history(self, request: Request, tournament_slug: str, pk: str) -> Response:
        """Every version of the match's acta, newest first: who entered and confirmed it, when, why."""
        tournament = self.get_tournament()
        match = get_object_or_404(Match.objects.select_related("round"), pk=pk, round__tournament=tournament)
        if not can(request.user, tournament, Action.VIEW_PRIVATE):
            raise NotFound()
        return Response(SubmissionSerializer(selectors.match_history(match), many=True).data)

    @extend_schema(
        request=ResolveSerializer,
        responses={200: SubmissionSerializer, 400: None, 403: None, 404: None},
        description="Decide entre dos actas que no coinciden (doble comprobación, AMM 3.16): la organización o un "
        "juez que no anotó ninguna de las dos. Con choice vale esa acta; sin choice, el resultado que se envía. "
        "Siempre con un motivo (reason). Tras publicarse el sorteo siguiente, solo la organización (AMM 3.18).",
    )
    @action(detail=True, methods=["post"])
    def resolve(self, request: Request, tournament_slug: str, pk: str) -> Response:
        tournament = self.get_tournament()
        serializer = ResolveSerializer(data=request.data)  # a body that is not JSON: 400 before anything
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = get_object_or_404(
            Match.objects.select_related("round__tournament", "pair_a", "pair_b"), pk=pk, round__tournament=tournament
        )
        choice = None
        if data.get("choice") is not None:
            choice = ResultSubmission.objects.filter(match=match, pk=data["choice"]).first()
            if choice is None:
                raise serializers.ValidationError({"choice": ["Esa acta no es de esta mesa."]})
        decision = result_resolve(
            match=match,
            by=request.user,
            reason=data["reason"],
            choice=choice,
            outcome=data["outcome"],
            games_a=data.get("games_a"),
            games_b=data.get("games_b"),
            winner=self._winner(tournament, match, data.get("winner")),
            tantos=data.get("tantos") or [],
        )
        sub = ResultSubmission.objects.select_related("match__round", "winner", "submitted_by", "confirmed_by")
        return Response(SubmissionSerializer(sub.get(pk=decision.pk)).data)

    @extend_schema(
        request=NoteSerializer,
        responses={201: SubmissionSerializer, 400: None, 403: None, 404: None},
        description="Una nota de la organización en el historial de un resultado (AMM 3.18: tras el sorteo "
        "siguiente el resultado es inamovible; la nota no cambia nada de lo que cuenta).",
    )
    @action(detail=True, methods=["post"])
    def note(self, request: Request, tournament_slug: str, pk: str) -> Response:
        tournament = self.get_tournament()
        serializer = NoteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = get_object_or_404(
            Match.objects.select_related("round__tournament", "pair_a", "pair_b"), pk=pk, round__tournament=tournament
        )
        written = result_note(match=match, by=request.user, note=serializer.validated_data["note"])
        sub = ResultSubmission.objects.select_related("match__round", "winner", "submitted_by", "confirmed_by")
        return Response(SubmissionSerializer(sub.get(pk=written.pk)).data, status=201)

    @extend_schema(
        parameters=[
            ROUND_PARAM,
            OpenApiParameter("table", int, required=True, description="Número de mesa."),
        ],
        responses={200: LookupSerializer, 400: None, 404: None},
        description="Lo que ve la mesa de control al escribir una mesa: las dos parejas con sus jugadores, el "
        "resultado en vigor, el acta pendiente de confirmar, la versión que hay que enviar al anotar (version) y "
        "si la ronda está cerrada (AMM 3.18).",
    )
    @action(detail=False, methods=["get"])
    def lookup(self, request: Request, tournament_slug: str) -> Response:
        """The match at a table of a round (the last published one by default)."""
        round_ = _round(self.get_tournament(), request.query_params.get("round"))
        table = request.query_params.get("table", "").strip()
        if not table:
            return Response({"detail": "Indica el número de mesa (table)."}, status=status.HTTP_400_BAD_REQUEST)
        if not is_digits(table):
            return Response(
                {"detail": f"El número de mesa no es válido: «{table[:20]}». Escribe solo cifras."},
                status=status.HTTP_400_BAD_REQUEST,
            )
        # No table has a number beyond the column's range (and no database integer overflows on it).
        number = parse_int(table, low=1, high=2**15 - 1)
        match = selectors.match_at_table(round_, number) if number is not None else None
        if match is None:
            shown = table[:20] if number is None else number
            raise NotFound(f"No hay ninguna mesa {shown} en la ronda {round_.number}.")
        return Response(selectors.match_lookup(match), headers={"Cache-Control": "no-store"})

    @extend_schema(parameters=[ROUND_PARAM], responses=EntryStateSerializer)
    @action(detail=False, methods=["get"], url_path="pending")
    def entry_state(self, request: Request, tournament_slug: str) -> Response:
        """For the mesa: the tables of a round still missing an acta, and those awaiting confirmation."""
        round_ = _round(self.get_tournament(), request.query_params.get("round"))
        return Response(selectors.entry_state(round_).as_dict(), headers={"Cache-Control": "no-store"})


class SubmissionViewSet(TournamentScoped, viewsets.GenericViewSet):
    """Submissions awaiting confirmation (double check): staff see them all, a player those of
    their losing pair; confirming or rejecting follows the same rules as the pages."""

    permission_classes = [IsAuthenticated]
    serializer_class = SubmissionSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[ResultSubmission]:
        if getattr(self, "swagger_fake_view", False):
            return ResultSubmission.objects.none()
        return ResultSubmission.objects.filter(match__round__tournament=self.get_tournament()).select_related(
            "match__round__tournament", "match__pair_a", "match__pair_b", "winner", "submitted_by", "confirmed_by"
        )

    @extend_schema(responses=SubmissionSerializer(many=True))
    def list(self, request: Request, tournament_slug: str) -> Response:
        """Proposed results you may confirm (the staff: all of them)."""
        subs = self.get_queryset().filter(status=ResultSubmission.Status.PROPOSED).order_by("submitted_at", "pk")
        tournament = self.get_tournament()
        if not can(request.user, tournament, Action.RESULTS_ENTER):
            # A player (or the pair's terminal): only the matches of their own pair, and of those
            # the ones they may sign.
            own = Pair.objects.filter(
                Q(members__player__user=request.user) | Q(terminal__user=request.user), tournament=tournament
            ).values("pk")
            mine = Q(match__pair_a__in=own) | Q(match__pair_b__in=own)
            subs = [s for s in subs.filter(mine).distinct() if can_confirm(request.user, s)]
        return Response(SubmissionSerializer(subs, many=True, context=self._context()).data)

    def _context(self) -> dict[str, Any]:
        """The staff read usernames; the players (and the pairs' terminals) names only."""
        return {"staff": can(self.request.user, self.get_tournament(), Action.VIEW_PRIVATE)}

    def _get(self, pk: str) -> ResultSubmission:
        return get_object_or_404(self.get_queryset(), pk=pk)

    @extend_schema(
        request=ReportSerializer,
        responses={201: SubmissionSerializer, 400: None, 403: None, 409: None, 429: None},
        description="Una pareja anota el resultado de su mesa (su terminal, el enlace de su tarjeta, o la cuenta de "
        "uno de sus jugadores): queda pendiente hasta que la otra pareja lo confirma (submissions/<id>/confirm/, la "
        "firma del acta, AMM 3.16) y entonces cuenta sin la mesa. El mismo resultado anotado por las dos cuenta en "
        "el acto; uno distinto es un desacuerdo que decide la mesa o el juez (409 a partir de ahí). Solo las dos "
        "parejas de la mesa, y solo en una partida sin resultado.",
    )
    @action(detail=False, methods=["post"])
    def report(self, request: Request, tournament_slug: str) -> Response:
        serializer = ReportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = access_match(request.user, self.get_tournament(), data["match"], players=True, playable=True)
        table_write_check(request.user, self.get_tournament())
        sub = result_report(
            match=match,
            by=request.user,
            games_a=data["games_a"],
            games_b=data["games_b"],
            tantos=data.get("tantos") or [],
        )
        # Answered with what was written (its match, pairs and people already read): no second read.
        return Response(SubmissionSerializer(sub, context=self._context()).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: SubmissionSerializer, 403: None, 429: None})
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, tournament_slug: str, pk: str) -> Response:
        """Confirm: another member of the staff or a player of the losing pair; never the submitter."""
        table_write_check(request.user, self.get_tournament())
        sub = result_confirm(submission=self._get(pk), by=request.user)
        return Response(SubmissionSerializer(sub, context=self._context()).data)

    @extend_schema(request=RejectSerializer, responses={200: SubmissionSerializer, 403: None, 429: None})
    @action(detail=True, methods=["post"])
    def reject(self, request: Request, tournament_slug: str, pk: str) -> Response:
        serializer = RejectSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        table_write_check(request.user, self.get_tournament())
        sub = result_reject(submission=self._get(pk), by=request.user, reason=serializer.validated_data["reason"])
        return Response(SubmissionSerializer(self._get(str(sub.pk)), context=self._context()).data)
