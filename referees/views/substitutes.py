"""Suplentes (AMM 5.8): the juez authorises one from the table's number, the pair and which of its
players; a limit refused with its article and nothing written; force majeure with a reason."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from referees.forms import (
    SubstituteCancelForm,
    SubstituteForm,
)
from referees.models import Substitution
from referees.services.substitutes import substitute_authorise, substitute_cancel
from referees.views.common import _match_at, _round, table_names
from scoring.selectors.results import published_rounds
from torneo.forms.errors import service_errors
from torneo.permissions import Action
from torneo.views.access import tournament_for

# --- suplentes (AMM 5.8) ----------------------------------------------------------------------------


def substitutes(request: HttpRequest, slug: str) -> HttpResponse:
    """The round's suplentes: authorise one for a table's player (every limit of 5.8 refused with
    its article, unless force majeure with a reason), and withdraw one before its partida begins."""
    tournament = tournament_for(request, slug, Action.INCIDENTS_MANAGE)
    rounds = published_rounds(tournament)
    round_ = _round(rounds, request.POST.get("ronda") or request.GET.get("ronda"))
    base = reverse("referees:substitutes", kwargs={"slug": slug})
    status = 200
    form = SubstituteForm()
    if request.method == "POST":
        form = SubstituteForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            match = _match_at(round_, data["table"])
            pair = None if match is None else (match.pair_a if data["pair"] == "A" else match.pair_b)
            members = pair.ordered_members() if pair is not None else []
            if round_ is None or match is None or pair is None:
                form.add_error("table", _("No hay ninguna partida en esa mesa de la ronda."))
            elif len(members) < int(data["position"]):
                form.add_error("position", _("La pareja no tiene ese jugador."))
            elif data["also_missing"] and len(members) < int(data["also_missing"]):
                form.add_error("also_missing", _("La pareja no tiene ese jugador."))
            else:
                replaced = members[int(data["position"]) - 1].player
                also = members[int(data["also_missing"]) - 1].player if data["also_missing"] else None
                with service_errors(form) as call:
                    substitute_authorise(
                        by=request.user,
                        match=match,
                        pair=pair,
                        replaced=replaced,
                        first_name=data["first_name"],
                        last_name=data["last_name"],
                        id_document=data["id_document"],
                        force_majeure=data["force_majeure"],
                        reason=data["reason"],
                        also_missing=also,
                    )
                if call.ok:
                    messages.success(
                        request,
                        _("Suplente autorizado en la mesa %(t)s: juega por %(r)s.")
                        % {"t": match.table_number, "r": replaced.full_name},
                    )
                    return redirect(f"{base}?ronda={round_.number}")
        status = 400
    rows = (
        Substitution.objects.filter(tournament=tournament, match__round=round_)
        .select_related("match", "pair", "replaced", "authorised_by")
        .order_by("match__table_number", "pk")
        if round_ is not None
        else Substitution.objects.none()
    )
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "round": round_,
        "form": form,
        "rows": list(rows),
        "cancel_form": SubstituteCancelForm(),
        "table_names": table_names(round_),
    }
    return render(request, "referees/substitutes.html", context, status=status)


def substitute_cancel_view(request: HttpRequest, slug: str, substitution_id: int) -> HttpResponse:
    """Withdraw a suplente (POST): before its partida begins, or for force majeure with a reason (5.8.a)."""
    tournament = tournament_for(request, slug, Action.INCIDENTS_MANAGE)
    if request.method != "POST":
        raise Http404
    substitution = get_object_or_404(Substitution, pk=substitution_id, tournament=tournament)
    form = SubstituteCancelForm(request.POST)
    base = reverse("referees:substitutes", kwargs={"slug": slug})
    if form.is_valid():
        with service_errors(form) as call:
            substitute_cancel(
                by=request.user,
                substitution=substitution,
                reason=form.cleaned_data["reason"],
                force_majeure=form.cleaned_data["force_majeure"],
            )
        if call.ok:
            messages.success(request, _("Suplencia anulada: %(s)s.") % {"s": substitution.name})
        else:
            for error in form.errors.values():
                for message in error:
                    messages.error(request, message)
    return redirect(f"{base}?ronda={substitution.match.round.number}")
