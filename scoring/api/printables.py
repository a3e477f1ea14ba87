"""API for the printables (AMM 3.16's actas of a round, the draw for the wall by table and by
player, the standings and the final classification): ask for one, follow its progress, fetch its
PDF. The same jobs as the Imprimir page (scoring.services.printing): a document whose data have
not changed since it was last asked for is the same job, its PDF ready at once.

Staff of the tournament only (VIEW_PRIVATE: organizer, mesa de control, juez); anyone else gets a
403 (an anonymous request 401/403 as the rest of the API), a tournament they may not see a 404. Bad
input (an unknown document, a round that does not exist or whose draw is not public yet) is a 400
keyed by field with a Spanish message, and queues nothing.
"""

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.models import PrintJob
from scoring.printing import PDF_TYPE
from scoring.selectors.printables import printable_filename
from scoring.services.printing import printable_request
from torneo.api.access import TournamentScoped
from torneo.models import Tournament
from torneo.permissions import Action, can


class PrintRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=PrintJob.Kind.choices,
        help_text=(
            "actas, draw_tables, draw_players (de una ronda); "
            "standings, classification, bracket_a3, bracket_a4 (del torneo)"
        ),
    )
    round = serializers.IntegerField(required=False, min_value=1, help_text="la ronda (documentos de una ronda)")


class PrintJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=PrintJob.Status.choices)
    status_display = serializers.CharField()
    done = serializers.IntegerField(help_text="hojas ya compuestas (la barra de progreso)")
    total = serializers.IntegerField()
    percent = serializers.IntegerField()
    pages = serializers.IntegerField(allow_null=True)
    error = serializers.CharField()
    pdf = serializers.CharField(allow_null=True, help_text="la dirección del PDF, cuando está listo")


def job_data(request: Request, job: PrintJob) -> dict[str, Any]:
    from django.urls import reverse

    from scoring.views.printing import job_state

    pdf = None
    if job.status == PrintJob.Status.DONE:
        pdf = request.build_absolute_uri(
            reverse("api_printable_pdf", kwargs={"tournament_slug": job.tournament.slug, "pk": job.pk})
        )
    return {**job_state(job), "pdf": pdf}


class StaffScoped(TournamentScoped):
    def get_staff_tournament(self) -> Tournament:
        tournament = self.get_tournament()
        if not can(self.request.user, tournament, Action.VIEW_PRIVATE):
            raise PermissionDenied
        return tournament

    def get_job(self, pk: int) -> PrintJob:
        return get_object_or_404(PrintJob.objects.defer("pdf"), pk=pk, tournament=self.get_staff_tournament())


class PrintablesView(StaffScoped, APIView):
    """The documents prepared lately (newest first); POST asks for one (202 while a worker prepares
    it, 200 when an unchanged one is ready)."""

    @extend_schema(operation_id="printables_list", responses=PrintJobSerializer(many=True))
    def get(self, request: Request, tournament_slug: str) -> Response:
        jobs = PrintJob.objects.filter(tournament=self.get_staff_tournament()).defer("pdf")[:20]
        return Response([job_data(request, job) for job in jobs])

    @extend_schema(
        operation_id="printables_create",
        request=PrintRequestSerializer,
        responses={200: PrintJobSerializer, 202: PrintJobSerializer},
        examples=[OpenApiExample("Actas de la ronda 2", value={"kind": "actas", "round": 2}, request_only=True)],
    )
    def post(self, request: Request, tournament_slug: str) -> Response:
        tournament = self.get_staff_tournament()
        serializer = PrintRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        job = printable_request(
            tournament=tournament,
            kind=serializer.validated_data["kind"],
            round_number=serializer.validated_data.get("round", 0),
            by=request.user,  # type: ignore[arg-type]
        )
        code = status.HTTP_200_OK if job.status == PrintJob.Status.DONE else status.HTTP_202_ACCEPTED
        return Response(job_data(request, job), status=code)


class PrintableView(StaffScoped, APIView):
    """One document's progress (poll it until ``status`` is done, then fetch ``pdf``)."""

    @extend_schema(operation_id="printables_retrieve", responses=PrintJobSerializer)
    def get(self, request: Request, tournament_slug: str, pk: int) -> Response:
        return Response(job_data(request, self.get_job(pk)))


class PrintablePdfView(StaffScoped, APIView):
    """The document's PDF once done (404 before)."""

    @extend_schema(operation_id="printables_pdf", responses={(200, PDF_TYPE): OpenApiTypes.BINARY})
    def get(self, request: Request, tournament_slug: str, pk: int) -> HttpResponse:
        job = get_object_or_404(PrintJob, pk=pk, tournament=self.get_staff_tournament(), status=PrintJob.Status.DONE)
        response = HttpResponse(bytes(job.pdf or b""), content_type=PDF_TYPE)
        response["Content-Disposition"] = f'inline; filename="{printable_filename(job.kind, job.round_number)}"'
        return response
