"""API v1: rounds, their matches and their public draws (AMM 5.5) — list, detail with everything
needed to verify a draw, and the mesa de control's acts: prepare, publish, cancel, redraw.

Thin: the round services decide and write; their errors reach the client through the API's
exception handler (400 with the Spanish message and a code). Reads take a fixed number of queries
whatever the number of pairs (torneo.selectors.rounds).
"""

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from torneo.api.access import TournamentScoped
from torneo.api.permissions import TournamentAction
from torneo.errors import TournamentError
from torneo.forms.rounds import PUBLIC_VALUE_REQUIRED, REASON_REQUIRED, WITNESS_REQUIRED
from torneo.models import Draw, Match, Round
from torneo.numbers import parse_int
from torneo.permissions import Action
from torneo.selectors.rounds import DrawRecord, PairView, RoundPage, jueces_of, round_page, rounds_of, witness_label
from torneo.services.rounds import draw_publish, draw_redraw, round_cancel, round_prepare, round_publish

# --- output --------------------------------------------------------------------------------------


class SessionRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_at = serializers.DateTimeField()


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=Round.Kind.choices, help_text="draw: sorteo público; schedule: liguilla; bracket: cuadro."
    )
    phase = serializers.ChoiceField(choices=Round.Phase.choices)
    status = serializers.CharField(help_text="prepared: preparada (compromiso publicado); published: publicada.")
    is_final = serializers.BooleanField(help_text="Ronda final: sin suplentes (AMM 5.8.d).")
    session = SessionRefSerializer(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)
    tables = serializers.IntegerField(allow_null=True, help_text="Partidas con dos parejas (publicada).")
    byes = serializers.IntegerField(allow_null=True, help_text="Exentas (AMM 5.6).")
    pending = serializers.IntegerField(allow_null=True, help_text="Resultados pendientes.")
    url = serializers.CharField(help_text="La página pública de la ronda.")


class PlayerNameSerializer(serializers.Serializer):
    first_name = serializers.CharField()
    last_name = serializers.CharField()


class PairRefSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    display_name = serializers.CharField()
    players = PlayerNameSerializer(many=True)


class MatchSerializer(serializers.Serializer):
    table = serializers.IntegerField(allow_null=True, help_text="Número de mesa (vacío en una exenta).")
    pool = serializers.CharField(help_text='"" (un solo grupo), "A"/"B" (repesca) o el número de liguilla.')
    pool_title = serializers.CharField()
    slot = serializers.IntegerField(allow_null=True)
    pair_a = PairRefSerializer()
    pair_b = PairRefSerializer(allow_null=True, help_text="Vacío: la pareja A tiene la exenta (AMM 5.6).")
    outcome = serializers.ChoiceField(choices=Match.Outcome.choices)
    games_a = serializers.IntegerField(allow_null=True)
    games_b = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True, help_text="Número de la pareja ganadora.")


class PoolInputSerializer(serializers.Serializer):
    label = serializers.CharField()
    title = serializers.CharField()
    input = serializers.JSONField(help_text="La entrada exacta de `python -m torneo.draws` (con «expect»).")
    filename = serializers.CharField()
    command = serializers.CharField()
    download_url = serializers.CharField()


class PoolToDrawSerializer(serializers.Serializer):
    label = serializers.CharField()
    title = serializers.CharField()
    pairs = serializers.ListField(child=serializers.IntegerField(), help_text="Números de pareja.")


class DrawSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Draw.Status.choices)
    commitment = serializers.CharField(help_text="SHA-256 del secreto, publicado antes del sorteo (AMM 5.5).")
    committed_at = serializers.DateTimeField()
    pairs_to_draw = PoolToDrawSerializer(many=True, help_text="Antes del sorteo: las parejas que entran.")
    public_value = serializers.CharField(allow_null=True, help_text="El valor público de la sala.")
    witness = serializers.CharField(allow_null=True, help_text="El juez presente: su nombre, no su usuario.")
    published_at = serializers.DateTimeField(allow_null=True)
    secret = serializers.CharField(allow_null=True, help_text="Solo tras la publicación.")
    seed = serializers.CharField(allow_null=True)
    inputs = PoolInputSerializer(many=True)
    reason = serializers.CharField(allow_blank=True, help_text="Sorteo anulado: el motivo del nuevo sorteo.")
    replaced_at = serializers.DateTimeField(allow_null=True)
    results = serializers.JSONField(allow_null=True, help_text="Sorteo anulado: lo que había publicado.")


class RoundDetailSerializer(RoundSerializer):
    results_final = serializers.BooleanField(help_text="Resultados definitivos (AMM 3.18).")
    matches = MatchSerializer(many=True)
    draw = DrawSerializer(allow_null=True, help_text="El sorteo vigente (rondas sorteadas).")
    superseded_draws = DrawSerializer(many=True, help_text="Sorteos anulados por la organización, con su motivo.")


def _session(round_: Round) -> dict[str, Any] | None:
    s = round_.session
    return {"id": s.pk, "name": s.name, "starts_at": s.starts_at} if s else None


def _summary(round_: Round, tournament_slug: str) -> dict[str, Any]:
    return {
        "number": round_.number,
        "kind": round_.kind,
        "phase": round_.phase,
        "status": round_.status,
        "is_final": round_.is_final,
        "session": _session(round_),
        "published_at": round_.published_at,
        "tables": getattr(round_, "table_count", None),
        "byes": getattr(round_, "bye_count", None),
        "pending": getattr(round_, "pending_count", None),
        "url": reverse("torneo:round_detail", kwargs={"slug": tournament_slug, "number": round_.number}),
    }


def _pair(pair: PairView | None) -> dict[str, Any] | None:
    if pair is None:
        return None
    players = [{"first_name": first, "last_name": last} for first, last in pair.members]
    return {"number": pair.number, "display_name": pair.name, "players": players}


def _draw(page: RoundPage, draw: Draw, record: DrawRecord | None) -> dict[str, Any]:
    published = bool(draw.seed)
    base = reverse("torneo:draw_input", kwargs={"slug": page.tournament.slug, "number": page.round.number})
    inputs = []
    for i in record.inputs if record else []:
        query = f"?grupo={i.index}" + (f"&sorteo={draw.pk}" if draw.status == Draw.Status.SUPERSEDED else "")
        inputs.append(
            {
                "label": i.label,
                "title": i.title,
                "input": i.data,
                "filename": i.filename,
                "command": i.command,
                "download_url": base + query,
            }
        )
    to_draw = []
    if draw.status == Draw.Status.COMMITTED:
        to_draw = [
            {"label": p.label, "title": p.title, "pairs": [pair.number for pair in p.pairs]} for p in page.to_draw
        ]
    return {
        "status": draw.status,
        "commitment": draw.commitment,
        "committed_at": draw.committed_at,
        "pairs_to_draw": to_draw,
        # AMM 5.5: the secret (and what derives from it) only once the draw is published.
        "public_value": draw.public_value if published else None,
        "witness": witness_label(draw.witness) if published and draw.witness else None,  # a name, never a login
        "published_at": draw.published_at,
        "secret": draw.secret if published else None,
        "seed": draw.seed if published else None,
        "inputs": inputs,
        "reason": record.reason if record else "",
        "replaced_at": record.replaced_at if record else None,
        "results": draw.results if draw.status == Draw.Status.SUPERSEDED else None,
    }


def round_detail_data(page: RoundPage) -> dict[str, Any]:
    data = _summary(page.round, page.tournament.slug)
    matches = [
        {
            "table": t.number,
            "pool": t.pool,
            "pool_title": t.pool_title,
            "slot": t.slot,
            "pair_a": _pair(t.pair_a),
            "pair_b": _pair(t.pair_b),
            "outcome": t.outcome,
            "games_a": t.games_a,
            "games_b": t.games_b,
            "winner": t.winner.number if t.winner else None,
        }
        for pool in page.pools
        for t in pool.tables + pool.byes
    ]
    tables = [m for m in matches if m["pair_b"] is not None]
    data.update(
        tables=len(tables) if page.round.is_published else None,
        byes=len(matches) - len(tables) if page.round.is_published else None,
        pending=sum(1 for m in matches if m["outcome"] == "pending") if page.round.is_published else None,
        results_final=page.results_final,
        matches=matches,
        draw=_draw(page, page.live_draw, page.verification) if page.live_draw else None,
        superseded_draws=[_draw(page, r.draw, r) for r in page.superseded],
    )
    return data


# --- input ---------------------------------------------------------------------------------------


class PrepareSerializer(serializers.Serializer):
    session = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Id de la jornada (opcional).",
        error_messages={"invalid": _("La jornada debe ser un número (su id).")},
    )


class PublishSerializer(serializers.Serializer):
    """For a drawn round both fields are required; a liguilla or bracket round needs neither."""

    public_value = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="El valor público obtenido en la sala (un número cantado, los dados…).",
        error_messages={"max_length": _("El valor público es demasiado largo (máximo 200 caracteres).")},
    )
    witness = serializers.CharField(
        required=False, allow_blank=True, help_text="El juez presente (AMM 5.5): su nombre de usuario o su id."
    )
    commitment = serializers.CharField(
        required=False, allow_blank=True, help_text="Opcional: el compromiso mostrado en la sala; si ha cambiado, 400."
    )


class RedrawSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=1000,
        help_text="El motivo, que queda registrado y se publica.",
        error_messages={"required": REASON_REQUIRED, "blank": REASON_REQUIRED},
    )


# --- views ---------------------------------------------------------------------------------------


class RoundViewSet(TournamentScoped, viewsets.GenericViewSet):
    """A tournament's rounds: everyone reads them (with the draw's verification data once
    published); the mesa de control prepares, publishes and cancels; the organizer redraws."""

    permission_classes = [TournamentAction]
    pagination_class = None
    lookup_field = "number"
    lookup_value_regex = r"[0-9]+"  # ASCII: \d is any script's digits
    serializer_class = RoundDetailSerializer
    action_permissions = {
        "prepare": Action.DRAWS_MANAGE,
        "publish": Action.DRAWS_MANAGE,
        "cancel": Action.DRAWS_MANAGE,
        "redraw": Action.DRAWS_REDRAW,
    }

    def _page(self, number: int | str) -> RoundPage:
        value = parse_int(number, low=1)
        page = round_page(self.get_tournament(), value) if value is not None else None
        if page is None:
            raise Http404
        return page

    def _detail(self, number: int, code: int = status.HTTP_200_OK) -> Response:
        return Response(RoundDetailSerializer(round_detail_data(self._page(number))).data, status=code)

    @extend_schema(responses=RoundSerializer(many=True))
    def list(self, request: Request, tournament_slug: str) -> Response:
        rounds = rounds_of(self.get_tournament())
        return Response(RoundSerializer([_summary(r, tournament_slug) for r in rounds], many=True).data)

    @extend_schema(responses=RoundDetailSerializer)
    def retrieve(self, request: Request, tournament_slug: str, number: str) -> Response:
        """The round with its matches (by table; exentas with `pair_b` empty), its results, and the
        draw's verification data: commitment, then public value, juez, secret, seed and each pool's
        `python -m torneo.draws` input (AMM 5.5)."""
        return Response(RoundDetailSerializer(round_detail_data(self._page(number))).data)

    @extend_schema(request=PrepareSerializer, responses={201: RoundDetailSerializer})
    @action(detail=False, methods=["post"])
    def prepare(self, request: Request, tournament_slug: str) -> Response:
        """Prepare the next round: freeze who is drawn and publish the draw's commitment (AMM 5.5)."""
        serializer = PrepareSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        session = None
        if serializer.validated_data.get("session") is not None:
            session = tournament.sessions.filter(pk=serializer.validated_data["session"]).first()
            if session is None:
                raise serializers.ValidationError({"session": [_("La jornada no pertenece a este torneo.")]})
        round_ = round_prepare(tournament=tournament, by=request.user, session=session)
        return self._detail(round_.number, status.HTTP_201_CREATED)

    @extend_schema(request=PublishSerializer, responses=RoundDetailSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, tournament_slug: str, number: str) -> Response:
        """A drawn round: make the public draw with the room's value before the juez, and publish it
        (one act, AMM 5.5). A liguilla or fixed-bracket round: publish its matches."""
        page = self._page(number)
        serializer = PublishSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        if page.round.kind != Round.Kind.DRAW:
            round_publish(round=page.round, by=request.user)
            return self._detail(page.round.number)
        draw = page.live_draw
        if draw is None or not page.is_committed:
            raise TournamentError(_("Este sorteo ya está publicado o anulado."), code="not_committed")
        data = serializer.validated_data
        errors: dict[str, list[str]] = {}
        if data.get("commitment") and data["commitment"] != draw.commitment:
            errors["commitment"] = [
                str(_("El compromiso del sorteo ha cambiado: comprueba el compromiso nuevo antes de sortear."))
            ]
        if not " ".join(data.get("public_value", "").split()):
            errors["public_value"] = [str(PUBLIC_VALUE_REQUIRED)]
        witness = self._witness(data.get("witness", ""))
        if witness is None:
            errors["witness"] = [str(WITNESS_REQUIRED)]
        if errors:
            raise serializers.ValidationError(errors)
        draw_publish(draw=draw, public_value=data["public_value"], witness=witness, by=request.user)
        return self._detail(page.round.number)

    def _witness(self, value: str) -> Any:
        value = value.strip()
        if not value:
            return None
        jueces = jueces_of(self.get_tournament())
        pk = parse_int(value, low=1)
        found = jueces.filter(pk=pk).first() if pk is not None else None
        return found or jueces.filter(username=value).first()

    @extend_schema(request=None, responses={204: OpenApiResponse(description="Ronda anulada.")})
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, tournament_slug: str, number: str) -> Response:
        """Cancel a prepared round that was never published (nothing was drawn)."""
        round_cancel(round=self._page(number).round)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=RedrawSerializer, responses=RoundDetailSerializer)
    @action(detail=True, methods=["post"])
    def redraw(self, request: Request, tournament_slug: str, number: str) -> Response:
        """The organizer's new draw of a published round (before any result), with a reason that is
        published; the old draw stays on record. Publish the new one as usual."""
        page = self._page(number)
        serializer = RedrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        draw_redraw(round=page.round, reason=serializer.validated_data["reason"], by=request.user)
        return self._detail(page.round.number)
