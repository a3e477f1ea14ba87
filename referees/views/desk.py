"""The juez's desk (Action.INCIDENTS_MANAGE): an incident logged from the table's number in three
taps (AMM 5.3.a), the open incidents newest first, and the round's tables by urgency (open
incidents first, then by number) with their clocks' phase."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from referees.forms import (
    DeskForm,
)
from referees.models import Incident
from referees.selectors.sanctions import (
    IncidentFilter,
    articles,
    incidents,
    juez_zone,
    open_counts,
)
from referees.services.incidents import incident_report
from referees.views.common import _match_at, _round, _rows, table_names
from scoring.selectors.clocks import round_clocks
from scoring.selectors.results import published_rounds
from scoring.selectors.rulings import hands_awaiting_ruling
from scoring.views.clocks import Card, cards_for
from torneo.forms.errors import service_errors
from torneo.models import Match, Round, Tournament
from torneo.numbers import parse_int
from torneo.permissions import Action
from torneo.tableranges import format_tables, in_tables
from torneo.views.access import tournament_for

# The services' error keys that are not the forms' own fields: on the whole form.
_DESK_FIELDS = {"article": "article", "pair": "pair", "description": "description", "match": "table"}


# --- the juez's desk ------------------------------------------------------------------------------


@dataclasses.dataclass
class Table:
    """One table of the round on the desk: its clock and its open incidents."""

    card: Card
    open: int

    @property
    def urgency(self) -> tuple[int, int, tuple[int, float, int, int]]:
        """Open incidents first, then the clocks' order (6.6 alerts, absences, ended by time,
        última mano, excedido, ajustes, then by time left: scoring's Card.urgency)."""
        return (0 if self.open else 1, -self.open, self.card.urgency)


def juez_desk(request: HttpRequest, slug: str) -> HttpResponse:
    """The juez walking the room: an incident from a table's number, the open ones, the tables."""
    tournament = tournament_for(request, slug, Action.INCIDENTS_MANAGE)
    rounds = published_rounds(tournament)
    base = reverse("referees:juez_desk", kwargs={"slug": slug})
    if request.method == "POST":
        round_ = _round(rounds, request.POST.get("ronda"))
        form = _desk_form(request, tournament, round_)
        if form.is_valid():
            match = _match_at(round_, form.cleaned_data["table"])
            if round_ is None:
                form.add_error(None, _("Todavía no hay ninguna ronda publicada."))
            elif match is None:
                form.add_error(
                    "table",
                    _("No hay ninguna mesa %(t)d en la ronda %(r)d.")
                    % {"t": form.cleaned_data["table"], "r": round_.number},
                )
            elif match.pair_b is None:
                form.add_error("table", _("Esa mesa es una exenta: no se juega."))
            else:
                incident = _log_incident(request, tournament, form, match)
                if incident is not None:
                    return redirect(f"{base}?ronda={round_.number}#incidencia-{incident.pk}")
        return _desk_page(request, tournament, rounds, round_, form, status=400)
    round_ = _round(rounds, request.GET.get("ronda"))
    table = parse_int(request.GET.get("mesa"), high=9999)
    match = None
    initial: dict[str, Any] = {"ronda": round_.number if round_ else None}
    if table is not None:
        match = _match_at(round_, table)
        if match is not None:
            initial["table"] = match.table_number
    article = request.GET.get("articulo", "")
    if any(a.code == article for a in articles(tournament)):
        initial["article"] = article  # from a table's alert (AMM 6.6)
    form = DeskForm(initial=initial, tournament=tournament, match=match)
    return _desk_page(request, tournament, rounds, round_, form)


def _desk_form(request: HttpRequest, tournament: Tournament, round_: Round | None) -> DeskForm:
    """The desk's form as POSTed; the pairs named when the table is one of the round's."""
    table = parse_int(request.POST.get("table"), high=9999)
    match = _match_at(round_, table) if table is not None else None
    return DeskForm(request.POST, tournament=tournament, match=match)


def _log_incident(request: HttpRequest, tournament: Tournament, form: DeskForm, match: Match) -> Incident | None:
    data = form.cleaned_data
    pair = match.pair_a if data["pair"] == "A" else match.pair_b
    incident = None
    with service_errors(form, field_for=lambda key: _DESK_FIELDS.get(key)) as call:
        incident = incident_report(
            tournament=tournament,
            by=request.user,
            article=data["article"],
            match=match,
            pair=pair,
            description=data.get("description") or "",
        )
    if not call.ok or incident is None or pair is None:
        return None
    messages.success(
        request,
        _("Mesa %(t)s: incidencia anotada a la pareja %(p)s (AMM %(a)s).")
        % {"t": match.table_number, "p": pair.number, "a": incident.article},
    )
    return incident


def _desk_page(
    request: HttpRequest,
    tournament: Tournament,
    rounds: list[Round],
    round_: Round | None,
    form: DeskForm,
    status: int = 200,
) -> HttpResponse:
    now = timezone.now()
    cards = cards_for(round_clocks(round_, now), now, tournament) if round_ else []
    counts = open_counts(tournament, [c.match for c in cards])
    tables = sorted((Table(c, counts.get(c.pk, 0)) for c in cards), key=lambda t: t.urgency)
    open_rows = _rows(incidents(tournament, IncidentFilter(status=Incident.Status.OPEN)), tournament)
    # The juez's zone (their role's tables): theirs only, unless they ask for every table.
    zone = juez_zone(request.user, tournament)
    every = request.GET.get("todas") == "1" or not zone
    if not every:
        tables = [t for t in tables if in_tables(t.card.table, zone)]
        open_rows = [
            r for r in open_rows if in_tables(r.incident.match.table_number if r.incident.match else None, zone)
        ]
    # Recorded hands with a false declaration wait for the juez's ruling (AMM chapter IV).
    awaiting = hands_awaiting_ruling([t.card.match for t in tables])
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "round": round_,
        "form": form,
        "open_rows": open_rows,
        "awaiting": awaiting,
        "tables": tables,
        "zone": format_tables(zone),
        "every": every,
        "table_names": table_names(round_),
    }
    return render(request, "referees/juez_desk.html", context, status=status)
