"""API for the juez's rulings on a recorded hand (AMM chapter IV): the hand's rulings (list, public
like the hand), the engine's ruling for some facts (preview: nothing is written), confirm it (the
hand then counts at the ruling's tantos) and withdraw it (the hand counts again as the engine
counts it).

Only the organizer and the jueces rule (``can_rule``): a player of the match, the mesa de control
or anyone else gets a 403, an anonymous request a 401/403 as the rest of the API. The facts are a
JSON object in the engine's format (scoring/mus/rulings_io.py: ``rectifications``,
``declined_by_error``, ``senas``, ``into_deck``, ``wrong_cards``, ``mano_repetida``,
``rival_showed_cards``, ``obligadas``); the server always asks the engine again. Bad facts are a
400 keyed by field with Spanish messages, and nothing is written: in the preview, whose body is
the facts, the field as the engine names it (``rectifications[0].seat``); in the confirmation,
under «facts.» (``facts.rectifications[0].seat``); facts that are not a JSON object, or that
contradict the hand (a rectification for a player with no error), under «facts»; a key the engine
does not read (a typo would drop a fact without a word) by its name. A hand changed meanwhile
(``expected_version``, a newer version) or a ruling no longer in force is a 409. The withdraw
route names the ruling ``pk``, as every other route of the API (the API root fills in its
templates with those names).
"""

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.hands import MatchScoped, ScoreSerializer
from scoring.models import HandRuling, RecordedHand
from scoring.mus.rulings_io import FACT_KEYS
from scoring.selectors.rulings import hand_rulings
from scoring.services.hands.rulings import (
    can_rule,
    hand_ruling_confirm,
    hand_ruling_preview,
    hand_ruling_withdraw,
)
from torneo.models import Match
from torneo.people import JUEZ, public_name

FACTS_EXAMPLE = {"rectifications": [{"seat": 1, "lance": "pares", "when": "antes"}]}


# --- The facts (documentation: the engine reads and checks them, with its own messages) ----------


class RectificationSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="asiento que rectifica: 0 mano, 1, 2 compañero del mano, 3 postre")
    lance = serializers.ChoiceField(choices=["grande", "chica", "pares", "juego", "punto"])
    when = serializers.ChoiceField(
        choices=["antes", "durante", "despues"], help_text="antes, durante o después de ese lance (AMM 4.4)"
    )
    rival_intervened = serializers.BooleanField(required=False)
    infractor_intervened = serializers.BooleanField(required=False)


class FactsSerializer(serializers.Serializer):
    """The juez's facts as the engine reads them (scoring/mus/rulings_io.py); every key optional."""

    rectifications = RectificationSerializer(many=True, required=False, help_text="AMM 4.3 y 4.4")
    declined_by_error = serializers.DictField(
        required=False,
        help_text='AMM 4.2.f: envites rechazados por el error, por lance: {"pares": 2, "juego": "ordago"}',
    )
    senas = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="señas vistas: seat, sena, lance, moment, first_hand_before_cut, during_deal, asking",
    )
    into_deck = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="AMM 3.20: seat, recovered"
    )
    wrong_cards = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="AMM 2.7: seat, when, admitted"
    )
    mano_repetida = serializers.ChoiceField(
        choices=["antes_grande", "tras_grande"], required=False, help_text="AMM 2.8"
    )
    rival_showed_cards = serializers.BooleanField(required=False, help_text="AMM 3.12.b")
    obligadas = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="AMM 4.1d, halladas por el juez: seat, lance"
    )


@extend_schema_field(FactsSerializer)
class FactsField(serializers.JSONField):
    """The facts as they came: the engine checks them, naming the field at fault."""


# --- The engine's answer -----------------------------------------------------------------------


class EngineScoreSerializer(serializers.Serializer):
    A = serializers.IntegerField(help_text="la pareja mano de la mano")
    B = serializers.IntegerField()


class RulingErrorSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    pair = serializers.ChoiceField(choices=["A", "B"])
    lance = serializers.CharField()
    article = serializers.CharField(help_text="«4.1a», «3.20»…")
    kind = serializers.CharField(help_text="«declaracion», «sena», «meterse_en_baraja»")
    message = serializers.CharField()
    rectified = serializers.DictField(allow_null=True, help_text="lance, when y rival_intervened, o null")


class RulingEventSerializer(serializers.Serializer):
    lance = serializers.CharField()
    pair = serializers.ChoiceField(choices=["A", "B"])
    points = serializers.IntegerField()
    kind = serializers.CharField(help_text="como en el tanteo: «paso», «envite», «jugada», «deje», «ordago»…")
    article = serializers.CharField(required=False, help_text="el artículo del fallo que lo da")


class RulingSanctionSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    article = serializers.CharField()


class EngineRulingSerializer(serializers.Serializer):
    """The engine's ruling (the ``ruling`` command's JSON); A is the pair that is mano in the hand."""

    errors = RulingErrorSerializer(many=True)
    events = RulingEventSerializer(many=True)
    score = EngineScoreSerializer(help_text="tantos tras la mano (A: la pareja mano de la mano)")
    game_winner = serializers.CharField(allow_null=True, help_text="«A» o «B» si la mano cierra el juego; si no, null")
    articles = serializers.ListField(child=serializers.CharField(), help_text="los artículos aplicados, en orden")
    explanation = serializers.ListField(child=serializers.CharField())
    sanctions = RulingSanctionSerializer(many=True)


@extend_schema_field(EngineRulingSerializer)
class EngineRulingField(serializers.JSONField):
    """The engine's ruling as stored."""


# --- A stored ruling -----------------------------------------------------------------------------


def display_name(user: AbstractBaseUser | None) -> str | None:
    """Who ruled, as people read it: the full name, else «juez del torneo»; never the username nor
    an e-mail address (torneo.people)."""
    if user is None:
        return None
    return public_name(user, fallback=JUEZ)


class HandRulingSerializer(serializers.ModelSerializer):
    articles = serializers.ListField(child=serializers.CharField(), help_text="«4.1a», «4.2.b»…")
    score = serializers.SerializerMethodField(help_text="tantos tras la mano, en el orden de la mesa (pair_a, pair_b)")
    winner = serializers.SerializerMethodField(help_text="«a», «b» (la pareja de la mesa) si la mano cierra el juego")
    facts = FactsField(help_text="los hechos del juez con los que se pidió el fallo")
    ruling = EngineRulingField(help_text="la respuesta del motor (A es la pareja mano de la mano)")
    ruled_by = serializers.SerializerMethodField(help_text="quién lo dictó (su nombre, nunca su correo)")

    class Meta:
        model = HandRuling
        fields = [
            "id",
            "is_current",
            "articles",
            "score",
            "winner",
            "won_by_ordago",
            "facts",
            "ruling",
            "ruled_by",
            "ruled_at",
            "withdrawn_at",
        ]

    @extend_schema_field(ScoreSerializer)
    def get_score(self, ruling: HandRuling) -> dict[str, int]:
        return {"a": ruling.score_a, "b": ruling.score_b}

    def get_winner(self, ruling: HandRuling) -> str | None:
        return ruling.winner or None

    def get_ruled_by(self, ruling: HandRuling) -> str | None:
        return display_name(ruling.ruled_by)


class RulingConfirmSerializer(serializers.Serializer):
    facts = FactsField(help_text="los hechos del juez, como en la vista previa ({} si no hay ninguno)")
    expected_version = serializers.IntegerField(
        required=False, allow_null=True, help_text="la versión de la mano que se juzga; si ya hay otra: 409"
    )


# --- Helpers ---------------------------------------------------------------------------------------


def checked_facts(facts: object, *, prefix: str) -> dict[str, Any]:
    """The facts must be a JSON object with the engine's keys; an unknown key (a typo would drop a
    fact without a word) is refused by name."""
    if not isinstance(facts, Mapping):
        raise ValidationError({"facts": [_("Los hechos del juez deben ser un objeto JSON.")]})
    unknown = sorted(str(key) for key in facts if key not in FACT_KEYS)
    if unknown:
        raise ValidationError(
            {
                f"{prefix}{key}": [
                    _("El motor no conoce este hecho. Los hechos posibles son: %(keys)s.")
                    % {"keys": ", ".join(sorted(FACT_KEYS))}
                ]
                for key in unknown
            }
        )
    return dict(facts)


_OWN_FIELDS = {"facts", "hand", "expected_version"}


def bad_facts(exc: DjangoValidationError, *, prefix: str) -> ValidationError:
    """The service's errors keyed by the fact's field, under ``prefix`` for the facts' own."""
    if not hasattr(exc, "error_dict"):
        return ValidationError({"facts": exc.messages})
    return ValidationError(
        {(key if key in _OWN_FIELDS else f"{prefix}{key}"): msgs for key, msgs in exc.message_dict.items()}
    )


class HandScoped(MatchScoped):
    """Views under a hand (any version, as ``HandView``): its match, the hand, who may rule."""

    def get_hand(self, match: Match) -> RecordedHand:
        hand = get_object_or_404(
            RecordedHand.objects.select_related("game", "recorded_by"), pk=self.kwargs["hand_id"], game__match=match
        )
        hand.game.match = match
        return hand

    def get_ruled_hand(self) -> tuple[Match, RecordedHand]:
        """The match and hand for a ruling: only the organizer and the jueces (403 otherwise)."""
        match = self.get_match()
        hand = self.get_hand(match)
        if not can_rule(self.request.user, match):
            raise PermissionDenied(_("Solo un juez o la organización del torneo pueden dictar fallos sobre las manos."))
        return match, hand


def _ruling_response(ruling: HandRuling, code: int) -> Response:
    return Response(HandRulingSerializer(ruling).data, status=code)


# --- Views -----------------------------------------------------------------------------------------


class HandRulingsView(HandScoped, APIView):
    """A hand's rulings (the current one first, then the newest; public like the hand); POST
    confirms the engine's ruling for the juez's facts."""

    @extend_schema(operation_id="hand_rulings_list", responses=HandRulingSerializer(many=True))
    def get(self, request: Request, tournament_slug: str, match_id: int, hand_id: int) -> Response:
        hand = self.get_hand(self.get_match())
        return Response(HandRulingSerializer(hand_rulings(hand), many=True).data)

    @extend_schema(
        operation_id="hand_rulings_create",
        request=RulingConfirmSerializer,
        responses={201: HandRulingSerializer},
        examples=[
            OpenApiExample(
                "Fallo con una rectificación", value={"facts": FACTS_EXAMPLE, "expected_version": 1}, request_only=True
            )
        ],
    )
    def post(self, request: Request, tournament_slug: str, match_id: int, hand_id: int) -> Response:
        _match, hand = self.get_ruled_hand()
        serializer = RulingConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        facts = checked_facts(data["facts"], prefix="facts.")
        try:
            saved = hand_ruling_confirm(
                hand=hand, by=request.user, facts=facts, expected_version=data.get("expected_version")
            )
        except DjangoValidationError as exc:
            raise bad_facts(exc, prefix="facts.") from exc
        return _ruling_response(saved.ruling, status.HTTP_201_CREATED)


class HandRulingPreviewView(HandScoped, APIView):
    """The engine's ruling on the hand for the juez's facts (the body); nothing is written."""

    @extend_schema(
        operation_id="hand_ruling_preview",
        request=FactsSerializer,
        responses=EngineRulingSerializer,
        examples=[OpenApiExample("Rectificación antes de pares", value=FACTS_EXAMPLE, request_only=True)],
    )
    def post(self, request: Request, tournament_slug: str, match_id: int, hand_id: int) -> Response:
        _match, hand = self.get_ruled_hand()
        data = request.data
        facts = checked_facts(data.dict() if hasattr(data, "dict") else data, prefix="")
        try:
            answer = hand_ruling_preview(hand=hand, facts=facts)
        except DjangoValidationError as exc:
            raise bad_facts(exc, prefix="") from exc
        return Response(answer)


class HandRulingWithdrawView(HandScoped, APIView):
    """Withdraw a ruling in force: the hand counts again as the engine counts it (409 if it is no
    longer in force)."""

    @extend_schema(operation_id="hand_ruling_withdraw", request=None, responses=HandRulingSerializer)
    def post(self, request: Request, tournament_slug: str, match_id: int, hand_id: int, pk: int) -> Response:
        _match, hand = self.get_ruled_hand()
        ruling = get_object_or_404(HandRuling.objects.select_related("ruled_by"), pk=pk, hand=hand)
        saved = hand_ruling_withdraw(ruling=ruling, by=request.user)
        return _ruling_response(saved.ruling, status.HTTP_200_OK)


__all__ = [
    "EngineRulingSerializer",
    "FactsSerializer",
    "HandRulingPreviewView",
    "HandRulingSerializer",
    "HandRulingWithdrawView",
    "HandRulingsView",
    "RulingConfirmSerializer",
]
