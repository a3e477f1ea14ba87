"""API for recorded hands: a match's juegos and hands (list), record a hand (create), read any
version (retrieve), correct it as a new version (update), take it out of the count (delete).

Reads are public like the match; writes are for HANDS_RECORD (organizer, mesa de control, juez)
and the players of that match. The hand is the engine's JSON record (docs/engine.md, A = the pair
that is mano in that hand); bad input is a 400 keyed by field (``record.hands[2]``,
``record.lances.grande[1]``, ``mano``…), with Spanish messages, and nothing is written — a lance's
envites in an order no play can have included (a «quiero» with no envite, anything after the
answer…). A finding keeps its ``code`` and ``article`` as the engine writes them, and adds
``article_label``, the article as the pages show it.
"""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.models import RecordedGame, RecordedHand
from scoring.selectors import hands as selectors
from scoring.services.hands import (
    HandSaved,
    article_label,
    can_change_hand,
    can_record_hands,
    hand_delete,
    hand_edit,
    hand_record,
)
from torneo.api.access import TournamentScoped
from torneo.models import Match
from torneo.people import public_name
from torneo.permissions import access_match

RECORD_EXAMPLE = {
    "hands": ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"],
    "declarations": [
        {"pares": True, "juego": False},
        {"pares": True, "juego": False},
        {"pares": True, "juego": False},
        {"pares": False, "juego": False},
    ],
    "lances": {"grande": ["A:envido 2", "B:envido 4", "A:no quiero"], "pares": ["B:envido", "A:quiero"]},
    "claimed": {"score": {"A": 0, "B": 11}},
}


class RecordScoreSerializer(serializers.Serializer):
    A = serializers.IntegerField(help_text="la pareja mano de la mano")
    B = serializers.IntegerField()


class FindingSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="para programas: «declaracion_falsa», «tanteo_de_la_mesa»…")
    article = serializers.CharField(help_text="como lo cita el motor: «AMM 3.8», «EHMT art. 12», «seed 000 (órdago)»")
    article_label = serializers.SerializerMethodField(
        help_text="el artículo para personas, como lo muestran las páginas: «Reglamento AMM, art. 3.8»"
    )
    severity = serializers.ChoiceField(choices=["error", "aviso"])
    message = serializers.CharField()
    seat = serializers.IntegerField(required=False, help_text="0 mano, 1, 2 compañero del mano, 3 postre")
    lance = serializers.CharField(required=False)
    pair = serializers.ChoiceField(choices=["A", "B"], required=False, help_text="A: la pareja mano de la mano")
    hand = serializers.IntegerField(required=False)
    table = RecordScoreSerializer(
        required=False,
        help_text="«tanteo_de_la_mesa» (AMM 3.14): el tanteo tras la mano que anotó la mesa, el que cuenta",
    )
    engine = RecordScoreSerializer(
        required=False, help_text="«tanteo_de_la_mesa» (AMM 3.14): el tanteo tras la mano según el motor"
    )

    def get_article_label(self, finding: dict[str, Any]) -> str:
        return article_label(str(finding.get("article", "")))


class ScoreSerializer(serializers.Serializer):
    a = serializers.IntegerField(help_text="pareja A de la mesa (pair_a)")
    b = serializers.IntegerField(help_text="pareja B de la mesa (pair_b)")


class HandSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game.number", help_text="número del juego en la partida")
    mano = serializers.CharField(source="mano_side", help_text="qué pareja de la mesa es mano: «a» o «b»")
    mano_pair = serializers.SerializerMethodField(help_text="número de la pareja mano (la A del registro)")
    recorded_by = serializers.SerializerMethodField()
    deleted = serializers.SerializerMethodField()
    findings = FindingSerializer(many=True, help_text="las de la propia mano, al guardarla")
    sequence_findings = FindingSerializer(many=True, help_text="las de su lugar en el juego")
    score_after = serializers.SerializerMethodField(help_text="tanteo tras la mano (si cuenta)")
    record = serializers.JSONField(help_text="la mano anotada en el formato del motor (docs/engine.md)")

    class Meta:
        model = RecordedHand
        fields = [
            "id",
            "game",
            "number",
            "version",
            "is_current",
            "deleted",
            "mano",
            "mano_pair",
            "record",
            "has_cards",
            "valid",
            "counted",
            "score_after",
            "findings",
            "sequence_findings",
            "recorded_by",
            "recorded_at",
        ]

    def get_mano_pair(self, hand: RecordedHand) -> int:
        match = hand.game.match
        return (match.pair_a if hand.mano_side == "a" else match.pair_b).number

    def get_recorded_by(self, hand: RecordedHand) -> str | None:
        return public_name(hand.recorded_by, as_player=True) if hand.recorded_by else None  # never the username

    def get_deleted(self, hand: RecordedHand) -> bool:
        return hand.is_deleted

    @extend_schema_field(ScoreSerializer(allow_null=True))
    def get_score_after(self, hand: RecordedHand) -> dict[str, int] | None:
        return {"a": hand.score_a, "b": hand.score_b} if hand.counted else None


class GameSerializer(serializers.ModelSerializer):
    tantos = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField(help_text="«a», «b» o null mientras no se cierra")
    hands = serializers.SerializerMethodField(help_text="las versiones vigentes de sus manos, en orden")

    class Meta:
        model = RecordedGame
        fields = [
            "number",
            "first_mano",
            "rule_set",
            "target",
            "tantos",
            "winner",
            "won_by_ordago",
            "stopped_at",
            "hands",
        ]

    @extend_schema_field(ScoreSerializer)
    def get_tantos(self, game: RecordedGame) -> dict[str, int]:
        return {"a": game.tantos_a, "b": game.tantos_b}

    def get_winner(self, game: RecordedGame) -> str | None:
        return game.winner or None

    @extend_schema_field(HandSerializer(many=True))
    def get_hands(self, game: RecordedGame) -> Any:
        hands = getattr(game, "current_hands", None)
        if hands is None:
            hands = list(game.hands.filter(is_current=True).select_related("recorded_by").order_by("number"))
        for hand in hands:
            hand.game = game
        return HandSerializer(hands, many=True).data


class SidePairSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField(source="display_name")


class MatchHandsSerializer(serializers.Serializer):
    match_id = serializers.IntegerField(source="match.pk")
    round = serializers.IntegerField(source="match.round.number")
    table = serializers.IntegerField(source="match.table_number", allow_null=True)
    pair_a = SidePairSerializer(source="match.pair_a")
    pair_b = SidePairSerializer(source="match.pair_b")
    juegos = serializers.SerializerMethodField(help_text="juegos ganados según las manos anotadas")
    outcome = serializers.CharField(source="match.outcome", help_text="resultado de la partida (acta)")
    games = GameSerializer(many=True)

    @extend_schema_field(ScoreSerializer)
    def get_juegos(self, view: selectors.MatchHands) -> dict[str, int]:
        a, b = view.juegos
        return {"a": a, "b": b}


class ResultNoteSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=["success", "info", "warning", "error"])
    message = serializers.CharField()
    submission = serializers.SerializerMethodField()

    def get_submission(self, note: Any) -> int | None:
        return note.submission.pk if note.submission is not None else None


class HandSavedSerializer(serializers.Serializer):
    hand = HandSerializer()
    game = GameSerializer()
    result = ResultNoteSerializer(allow_null=True, help_text="qué ha pasado con el resultado de la partida")


class HandWriteSerializer(serializers.Serializer):
    record = serializers.JSONField(
        help_text="la mano en el formato del motor (docs/engine.md): A es la pareja mano de esta mano; sin "
        "«score», el tanteo que se lleva; «rules» es el reglamento del torneo"
    )
    mano = serializers.ChoiceField(
        choices=["a", "b"],
        required=False,
        allow_null=True,
        help_text="qué pareja de la mesa es mano; por defecto, alterna (AMM 2.8); obligatorio en la primera mano",
    )
    game = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, help_text="número del juego; por defecto el abierto o uno nuevo"
    )


class HandEditSerializer(serializers.Serializer):
    record = serializers.JSONField(help_text="la mano corregida; sin «score», la de la versión que sustituye")
    mano = serializers.ChoiceField(choices=["a", "b"], required=False, allow_null=True)
    expected_version = serializers.IntegerField(
        required=False, allow_null=True, help_text="la versión que se corrige; si ya hay otra: 409"
    )


_OWN_FIELDS = {"mano", "game", "expected_version"}


def _bad_input(exc: DjangoValidationError) -> ValidationError:
    """The service's errors keyed by the engine's field, under «record.» for the record's own."""
    if not hasattr(exc, "error_dict"):
        return ValidationError({"record": exc.messages})
    return ValidationError(
        {
            (key if key in _OWN_FIELDS or key == "record" else f"record.{key}"): msgs
            for key, msgs in exc.message_dict.items()
        }
    )


def _saved(saved: HandSaved, code: int) -> Response:
    return Response(HandSavedSerializer(saved).data, status=code)


class MatchScoped(TournamentScoped):
    def get_match(self) -> Match:
        return access_match(
            self.request.user,
            self.get_tournament(),
            self.kwargs["match_id"],
            playable=True,
            queryset=selectors.matches_with_players(),
        )


class MatchHandsView(MatchScoped, APIView):
    """A match's recorded juegos with their current hands; POST records the next hand."""

    @extend_schema(operation_id="match_hands_list", responses=MatchHandsSerializer)
    def get(self, request: Request, tournament_slug: str, match_id: int) -> Response:
        return Response(MatchHandsSerializer(selectors.match_hands(self.get_match())).data)

    @extend_schema(
        operation_id="match_hands_create",
        request=HandWriteSerializer,
        responses={201: HandSavedSerializer},
        examples=[OpenApiExample("Mano con cartas", value={"mano": "a", "record": RECORD_EXAMPLE}, request_only=True)],
    )
    def post(self, request: Request, tournament_slug: str, match_id: int) -> Response:
        match = self.get_match()
        if not can_record_hands(request.user, match):
            raise PermissionDenied
        serializer = HandWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            saved = hand_record(
                match=match, by=request.user, record=data["record"], mano=data.get("mano"), game=data.get("game")
            )
        except DjangoValidationError as exc:
            raise _bad_input(exc) from exc
        return _saved(saved, status.HTTP_201_CREATED)


class HandView(MatchScoped, APIView):
    """One hand, any version (ids are stable: the jueces' rulings cite them); PUT corrects the
    current version with a new one, DELETE takes it out of the count (the row is kept)."""

    def get_hand(self, match: Match) -> RecordedHand:
        hand = get_object_or_404(
            RecordedHand.objects.select_related("game", "recorded_by"), pk=self.kwargs["hand_id"], game__match=match
        )
        hand.game.match = match
        return hand

    @extend_schema(operation_id="hand_retrieve", responses=HandSerializer)
    def get(self, request: Request, tournament_slug: str, match_id: int, hand_id: int) -> Response:
        return Response(HandSerializer(self.get_hand(self.get_match())).data)

    @extend_schema(operation_id="hand_update", request=HandEditSerializer, responses=HandSavedSerializer)
    def put(self, request: Request, tournament_slug: str, match_id: int, hand_id: int) -> Response:
        match = self.get_match()
        hand = self.get_hand(match)
        if not can_change_hand(request.user, hand, match):
            raise PermissionDenied
        serializer = HandEditSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            saved = hand_edit(
                hand=hand,
                by=request.user,
                record=data["record"],
                mano=data.get("mano"),
                expected_version=data.get("expected_version"),
            )
        except DjangoValidationError as exc:
            raise _bad_input(exc) from exc
        return _saved(saved, status.HTTP_200_OK)

    @extend_schema(operation_id="hand_destroy", responses={200: HandSavedSerializer})
    def delete(self, request: Request, tournament_slug: str, match_id: int, hand_id: int) -> Response:
        match = self.get_match()
        hand = self.get_hand(match)
        if not can_change_hand(request.user, hand, match):
            raise PermissionDenied
        return _saved(hand_delete(hand=hand, by=request.user), status.HTTP_200_OK)
