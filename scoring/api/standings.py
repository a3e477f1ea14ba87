"""API for standings, the final classification and the bracket: the same data as the public pages
(scoring.selectors.standings), cached under the tournament's signature."""

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.api.results import PairBriefSerializer, ResultSerializer
from scoring.selectors import standings as selectors
from torneo.api.access import TournamentScoped


class StandingsRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    position_to = serializers.IntegerField(help_text="Igual a position salvo puesto compartido (3.º–4.º).")
    pair = PairBriefSerializer()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField(help_text="Exentas (AMM 5.6): cuentan como pase de ronda.")
    points = serializers.IntegerField()
    juegos_diff = serializers.IntegerField()
    tantos_diff = serializers.IntegerField()
    tiebreaks = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    status = serializers.CharField(help_text="alive, champion, out, withdrawn, expelled (o vacío).")
    status_label = serializers.CharField()
    qualifies = serializers.BooleanField(help_text="Liguillas: se clasifica para el cuadro.")


class StandingsTableSerializer(serializers.Serializer):
    title = serializers.CharField()
    pool = serializers.CharField()
    kind = serializers.CharField(help_text="points (suizo, liguillas) o ceros (formatos de eliminación).")
    champion = PairBriefSerializer(allow_null=True)
    rows = StandingsRowSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    format = serializers.CharField()
    tiebreaks = serializers.ListField(child=serializers.CharField(), help_text="Orden de desempate del torneo.")
    last_round = serializers.IntegerField()
    pending = serializers.BooleanField(help_text="Faltan resultados de la última ronda.")
    note = serializers.CharField()
    tables = StandingsTableSerializer(many=True)


class ClassificationSectionSerializer(serializers.Serializer):
    title = serializers.CharField()
    rows = StandingsRowSerializer(many=True)


class ClassificationSerializer(serializers.Serializer):
    final = serializers.BooleanField(help_text="Definitiva (torneo decidido o terminado) o provisional.")
    rule = serializers.CharField(help_text="Cómo se ordena y se resuelven los empates.")
    sections = ClassificationSectionSerializer(many=True)
    excluded = PairBriefSerializer(many=True, help_text="Parejas expulsadas: no se clasifican.")


class BracketNodeSerializer(serializers.Serializer):
    match = ResultSerializer()
    children = serializers.ListField(child=serializers.DictField(), help_text="Los nodos de la ronda anterior.")


class BracketSerializer(serializers.Serializer):
    applies = serializers.BooleanField(help_text="El formato del torneo tiene cuadro.")
    rounds = serializers.ListField(child=serializers.IntegerField())
    champion = PairBriefSerializer(allow_null=True)
    roots = BracketNodeSerializer(many=True)


def _row(row: selectors.StandingsRow, tiebreaks: list[str]) -> dict[str, Any]:
    return row.as_dict(tiebreaks)


def standings_data(tournament: Any) -> dict[str, Any]:
    s = selectors.standings(tournament)
    shown = s.value_tiebreaks
    return {
        "format": s.format,
        "tiebreaks": s.tiebreaks,
        "last_round": s.last_round,
        "pending": s.pending,
        "note": s.note,
        "tables": [
            {
                "title": t.title,
                "pool": t.pool,
                "kind": t.kind,
                "champion": t.champion.as_dict() if t.champion else None,
                "rows": [_row(r, shown if t.kind == "points" else []) for r in t.rows],
            }
            for t in s.tables
        ],
    }


def classification_data(tournament: Any) -> dict[str, Any]:
    c = selectors.classification(tournament)
    return {
        "final": c.final,
        "rule": c.rule,
        "sections": [{"title": s.title, "rows": [_row(r, []) for r in s.rows]} for s in c.sections],
        "excluded": [p.as_dict() for p in c.excluded],
    }


def bracket_data(tournament: Any) -> dict[str, Any]:
    b = selectors.bracket(tournament)

    def node(n: dict[str, Any]) -> dict[str, Any]:
        return {"match": n["match"].as_dict(), "children": [node(c) for c in n["children"]]}

    return {
        "applies": b.applies,
        "rounds": b.rounds,
        "champion": b.champion.as_dict() if b.champion else None,
        "roots": [node(n) for n in b.roots],
    }


class StandingsViewSet(TournamentScoped, viewsets.ViewSet):
    """Standings of the tournament's format, the final classification and the bracket (public)."""

    permission_classes = [AllowAny]

    def _cached(self, kind: str, build: Any) -> Response:
        tournament = self.get_tournament()
        return Response(selectors.cached(f"api-{kind}", tournament, lambda: build(tournament)))

    @extend_schema(responses=StandingsSerializer)
    def standings(self, request: Request, tournament_slug: str) -> Response:
        """A N ceros: alive/out and losses per pool; Swiss and liguillas: points and the tiebreaks."""
        return self._cached("standings", standings_data)

    @extend_schema(responses=ClassificationSerializer)
    def classification(self, request: Request, tournament_slug: str) -> Response:
        """The final classification for prizes, ties resolved as the rule in `rule` says."""
        return self._cached("classification", classification_data)

    @extend_schema(responses=BracketSerializer)
    def bracket(self, request: Request, tournament_slug: str) -> Response:
        """The bracket as trees: each match with the matches its pairs came from."""
        return self._cached("bracket", bracket_data)
