"""The circuits' pages (issue 35): the public list and ranking (pairs, players, the tournaments,
the places in the final) with its downloads; creating and managing a circuit. Thin: the services
decide (circuits.services), their Spanish messages are shown as they come."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from circuits import selectors
from circuits.exports import ranking_sheet
from circuits.forms import CircuitForm, PersonLinkForm, TournamentChoiceForm
from circuits.models import Circuit
from circuits.services import (
    circuit_create,
    circuit_tournament_add,
    circuit_tournament_remove,
    circuit_update,
    may_create_circuit,
    may_manage,
    person_link,
)
from torneo import sheets
from torneo.errors import TournamentError
from torneo.forms.errors import service_errors


def circuit_list(request: HttpRequest) -> HttpResponse:
    context = {
        "circuits": selectors.public_circuits(),
        "may_create": may_create_circuit(request.user),
        "managed": selectors.managed_circuits(request.user),
    }
    return render(request, "circuits/list.html", context)


def circuit_detail(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = get_object_or_404(Circuit, slug=slug)
    ranking = selectors.circuit_ranking(circuit)
    context = {
        "circuit": circuit,
        "ranking": ranking,
        "may_manage": may_manage(request.user, circuit),
        "table": list(enumerate(circuit.points_table, start=1)),
    }
    return render(request, "circuits/detail.html", context)


def circuit_player(request: HttpRequest, slug: str, person: str) -> HttpResponse:
    """A player's page in the circuit: rating, results, pairs (names only, RGPD)."""
    circuit = get_object_or_404(Circuit, slug=slug)
    page = selectors.person_page(circuit, person)
    if page is None:
        raise Http404
    ranking = selectors.circuit_ranking(circuit)
    context = {"circuit": circuit, "page": page, "events": ranking.events}
    return render(request, "circuits/player.html", context)


def circuit_download(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = get_object_or_404(Circuit, slug=slug)
    which = request.GET.get("de", "parejas")
    if which not in ("parejas", "jugadores"):
        raise Http404
    sheet = ranking_sheet(selectors.circuit_ranking(circuit), players=which == "jugadores")
    return sheets.download(request, sheet, f"circuito-{circuit.slug}-{which}")


def _fields(form: CircuitForm) -> dict[str, object]:
    data = form.cleaned_data
    return {
        "name": data["name"],
        "season": data["season"],
        "points_table": data["points_table"],
        "best_of": data["best_of"],
        "final_spots": data["final_spots"],
        "description": data["description"],
    }


@login_required
def circuit_new(request: HttpRequest) -> HttpResponse:
    if not may_create_circuit(request.user):
        raise PermissionDenied
    form = CircuitForm(request.POST or None, initial={"points_table": "100, 80, 65, 55, 50, 45, 40, 35"})
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            circuit = circuit_create(by=request.user, **_fields(form))  # type: ignore[arg-type]
        if call.ok:
            messages.success(request, _("Circuito creado: añade sus torneos."))
            return redirect("circuits:manage", slug=circuit.slug)
    return render(request, "circuits/form.html", {"form": form, "circuit": None}, status=400 if form.errors else 200)


def _managed(request: HttpRequest, slug: str) -> Circuit:
    circuit = get_object_or_404(Circuit, slug=slug)
    if not may_manage(request.user, circuit):
        raise PermissionDenied
    return circuit


@login_required
def circuit_manage(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = _managed(request, slug)
    form = CircuitForm(request.POST) if request.method == "POST" else CircuitForm.of(circuit)
    if request.method == "POST" and form.is_valid():
        with service_errors(form) as call:
            circuit = circuit_update(circuit=circuit, by=request.user, **_fields(form))  # type: ignore[arg-type]
        if call.ok:
            messages.success(request, _("Circuito guardado."))
            return redirect("circuits:manage", slug=circuit.slug)
    context = {
        "circuit": circuit,
        "form": form,
        "entries": circuit.entries.select_related("tournament"),
        "add": TournamentChoiceForm(tournaments=selectors.tournaments_to_add(request.user, circuit)),
        "link": PersonLinkForm(players=selectors.linkable_players(request.user, circuit)),
    }
    return render(request, "circuits/manage.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def circuit_tournament_add_view(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = _managed(request, slug)
    form = TournamentChoiceForm(request.POST, tournaments=selectors.tournaments_to_add(request.user, circuit))
    if not form.is_valid():
        messages.error(request, _("Elige uno de tus torneos que aún no esté en el circuito."))
        return redirect("circuits:manage", slug=slug)
    tournament = form.cleaned_data["tournament"]
    try:
        circuit_tournament_add(circuit=circuit, tournament=tournament, by=request.user)
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("«%(t)s» está en el circuito.") % {"t": tournament.name})
    return redirect("circuits:manage", slug=slug)


@login_required
@require_POST
def circuit_tournament_remove_view(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    circuit = _managed(request, slug)
    try:
        circuit_tournament_remove(circuit=circuit, tournament_id=tournament_id, by=request.user)
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Torneo quitado del circuito."))
    return redirect("circuits:manage", slug=slug)


@login_required
@require_POST
def person_link_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Join two registrations of one person, with their consent (circuits.services.person_link)."""
    circuit = _managed(request, slug)
    form = PersonLinkForm(request.POST, players=selectors.linkable_players(request.user, circuit))
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("circuits:manage", slug=slug)
    try:
        person_link(
            player_a=form.cleaned_data["player_a"],
            player_b=form.cleaned_data["player_b"],
            by=request.user,
            consent=form.cleaned_data["consent"],
        )
    except ValidationError as exc:
        for error in exc.messages:
            messages.error(request, error)
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Inscripciones unidas: cuentan como una misma persona en el circuito."))
    return redirect("circuits:manage", slug=slug)
