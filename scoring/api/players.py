"""API for the players' view: find yourself by name, and a pair's overview (current table,
opponent and times, every match, results awaiting its confirmation). Public, read-only."""

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.selectors import players as selectors
from torneo.api.access import TournamentScoped
from torneo.models import Pair


class FoundPlayerSerializer(serializers.Serializer):
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    club = serializers.CharField()


class FoundPairSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField(source="display_name")
    status = serializers.CharField()
    players = serializers.SerializerMethodField()

    def get_players(self, pair: Pair) -> list[dict[str, str]]:
        return FoundPlayerSerializer([m.player for m in pair.ordered_members()], many=True).data


class OpponentSerializer(FoundPairSerializer):
    pass


class MatchLineSerializer(serializers.Serializer):
    match_id = serializers.IntegerField(source="match.pk")
    round = serializers.IntegerField(source="round.number")
    table = serializers.IntegerField(source="match.table_number", allow_null=True)
    opponent = OpponentSerializer(allow_null=True)
    is_bye = serializers.BooleanField()
    outcome = serializers.CharField(source="match.outcome")
    won = serializers.BooleanField(allow_null=True, help_text="true ganada, false perdida, null pendiente")
    result = serializers.CharField(source="result_label")
    games_for = serializers.IntegerField(allow_null=True)
    games_against = serializers.IntegerField(allow_null=True)
    tantos_for = serializers.SerializerMethodField()
    tantos_against = serializers.SerializerMethodField()
    hand_count = serializers.IntegerField(help_text="manos anotadas (versiones vigentes)")

    def get_tantos_for(self, line: selectors.MatchLine) -> int | None:
        return line.tantos[0]

    def get_tantos_against(self, line: selectors.MatchLine) -> int | None:
        return line.tantos[1]


class CurrentSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(
        choices=["waiting_for_draw", "playing", "finished", "bye", "not_playing"],
        help_text="waiting_for_draw: sin sorteo publicado; playing / finished: su partida de la ronda; "
        "bye: exenta (AMM 5.6); not_playing: no juega esta ronda",
    )
    match = MatchLineSerializer(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)
    clock_starts_at = serializers.DateTimeField(allow_null=True, help_text="a más tardar (AMM 6.1.a, 6.1.c)")
    expected_end = serializers.DateTimeField(allow_null=True, help_text="duración máxima (AMM 6.2)")
    max_minutes = serializers.IntegerField(allow_null=True)


class PendingSerializer(serializers.Serializer):
    submission = serializers.IntegerField(source="pk")
    match_id = serializers.IntegerField()
    round = serializers.IntegerField(source="match.round.number")
    table = serializers.IntegerField(source="match.table_number", allow_null=True)
    games_for = serializers.SerializerMethodField()
    games_against = serializers.SerializerMethodField()

    def get_games_for(self, sub: Any) -> int | None:
        return sub.games_a if sub.line.side == "a" else sub.games_b

    def get_games_against(self, sub: Any) -> int | None:
        return sub.games_b if sub.line.side == "a" else sub.games_a


class PairOverviewSerializer(serializers.Serializer):
    pair = FoundPairSerializer()
    current = CurrentSerializer()
    matches = MatchLineSerializer(many=True, help_text="las anteriores a la ronda actual, la más reciente primero")
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    out = serializers.BooleanField(allow_null=True, help_text="eliminada; null si el formato no elimina por derrotas")
    pending_confirmations = PendingSerializer(
        many=True, help_text="resultados que esta pareja (perdedora) debe confirmar"
    )


def _current(page: selectors.PairPage) -> dict[str, Any]:
    cur = page.current
    line = cur.line
    if cur.waiting_for_draw:
        state = "waiting_for_draw"
    elif line is None:
        state = "not_playing"
    elif line.is_bye:
        state = "bye"
    else:
        state = "playing" if line.won is None else "finished"
    times = cur.times if state == "playing" else None
    return {
        "round": cur.round.number if cur.round else None,
        "state": state,
        "match": line,
        "published_at": cur.round.published_at if cur.round else None,
        "clock_starts_at": times.starts_at if times else None,
        "expected_end": times.ends_at if times else None,
        "max_minutes": times.minutes if times else None,
    }


class PlayerFindView(TournamentScoped, APIView):
    """Find yourself: the pairs with a player whose name contains every word of `q`."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tournament_players_find",
        parameters=[OpenApiParameter("q", str, description="nombre o apellido; tildes y mayúsculas dan igual")],
        responses=FoundPairSerializer(many=True),
    )
    def get(self, request: Request, tournament_slug: str) -> Response:
        pairs = selectors.find_pairs(self.get_tournament(), request.query_params.get("q", "")[:100])
        return Response(FoundPairSerializer(pairs, many=True).data)


class PairOverviewView(TournamentScoped, APIView):
    """A pair's page as data: its current table, opponent and times, its matches."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="pair_overview", responses=PairOverviewSerializer)
    def get(self, request: Request, tournament_slug: str, number: int) -> Response:
        tournament = self.get_tournament()
        pair = selectors.pair_with_players(tournament, number)
        if pair is None:
            raise Http404
        page = selectors.pair_page(tournament, pair)
        data = {
            "pair": pair,
            "current": _current(page),
            "matches": page.past,
            "wins": page.wins,
            "losses": page.losses,
            "byes": page.byes,
            "out": page.out,
            "pending_confirmations": page.pending,
        }
        return Response(PairOverviewSerializer(data).data)
