"""The juez's pages (AMM chapter V), Spanish and phone first, complete without JavaScript:

- the juez's desk (Action.INCIDENTS_MANAGE): an incident logged from the table's number in three
  taps (5.3.a), the open incidents newest first, and the round's tables by urgency (open incidents
  first, then by number) with their clocks' phase;
- an incident (Action.INCIDENTS_MANAGE): the pair's sanctions in force, what the ladder of 5.4
  proposes (the steps above it need a reason, 5.4.a), the sanction given, or the incident closed
  without one;
- the log (Action.VIEW_PRIVATE: the organizer, the jueces and, read-only, the mesa de control, who
  enters the results a sanction changes): every incident with its sanctions, filtered, and a
  sanction undone with its reason (Action.INCIDENTS_MANAGE); the same rows as a spreadsheet;
- the players' report (5.3): a player of the partida (or its staff) tells the jueces.

Thin: referees.services write (plain POSTs; a refusal shown next to its field with status 400,
nothing written; then POST/redirect/GET with a Spanish message), referees.selectors read."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from referees.forms import (
    DeskForm,
    DismissForm,
    LogFilterForm,
    ReportForm,
    SanctionForm,
    SubstituteCancelForm,
    SubstituteForm,
    UndoForm,
)
from referees.models import Incident, Sanction, Substitution
from referees.rules.ladder import Proposal, Step
from referees.selectors.sanctions import (
    IncidentFilter,
    articles,
    incidents,
    juez_zone,
    open_counts,
    pair_sanctions,
    sanction_line,
    sanctions,
)
from referees.services.incidents import incident_dismiss, incident_report
from referees.services.sanctions import ladder_proposal, past_of, sanction_give, sanction_undo
from referees.services.substitutes import substitute_authorise, substitute_cancel
from scoring.selectors.clocks import round_clocks
from scoring.selectors.results import published_rounds
from scoring.selectors.rulings import hands_awaiting_ruling
from scoring.views.clocks import Card, cards_for
from torneo import sheets
from torneo.forms.errors import service_errors
from torneo.models import Match, Pair, Round, Tournament
from torneo.permissions import Action, access_match, can, member_pairs
from torneo.tableranges import format_tables, in_tables
from torneo.views.access import LoginRequired, tournament_for

# The services' error keys that are not the forms' own fields: on the whole form.
_DESK_FIELDS = {"article": "article", "pair": "pair", "description": "description", "match": "table"}


def _round(rounds: list[Round], number: object) -> Round | None:
    """The published round ``number`` names (404 if none), or the latest."""
    text = str(number or "")
    if not text:
        return rounds[-1] if rounds else None
    if not (text.isascii() and text.isdigit()):
        raise Http404
    found = next((r for r in rounds if r.number == int(text)), None)
    if found is None:
        raise Http404
    return found


def _match_at(round_: Round | None, table: int | None) -> Match | None:
    if round_ is None or table is None:
        return None
    return (
        Match.objects.filter(round=round_, table_number=table)
        .select_related("round__tournament", "pair_a", "pair_b")
        .first()
    )


def _titles(tournament: Tournament) -> dict[str, str]:
    """Each article's title, translated once per page."""
    return {a.code: _(a.title) for a in articles(tournament)}


@dataclasses.dataclass
class Row:
    """An incident as the lists show it."""

    incident: Incident
    title: str

    @property
    def versions(self) -> list[Sanction]:
        return sorted(self.incident.sanctions.all(), key=lambda s: (s.number, s.version))


def _rows(rows: Any, tournament: Tournament) -> list[Row]:
    titles = _titles(tournament)
    return [Row(i, titles.get(i.article, i.article)) for i in rows]


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
    table = request.GET.get("mesa", "")
    match = None
    initial: dict[str, Any] = {"ronda": round_.number if round_ else None}
    if table.isascii() and table.isdigit() and len(table) < 5:
        match = _match_at(round_, int(table))
        if match is not None:
            initial["table"] = match.table_number
    article = request.GET.get("articulo", "")
    if any(a.code == article for a in articles(tournament)):
        initial["article"] = article  # from a table's alert (AMM 6.6)
    form = DeskForm(initial=initial, tournament=tournament, match=match)
    return _desk_page(request, tournament, rounds, round_, form)


def _desk_form(request: HttpRequest, tournament: Tournament, round_: Round | None) -> DeskForm:
    """The desk's form as POSTed; the pairs named when the table is one of the round's."""
    table = request.POST.get("table", "")
    match = _match_at(round_, int(table)) if table.isascii() and table.isdigit() and len(table) < 5 else None
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
    }
    return render(request, "referees/juez_desk.html", context, status=status)


# --- an incident: the ladder's proposal, the sanction, or closed without one ----------------------------


@dataclasses.dataclass
class StepChoice:
    """One step of AMM 5.4 as the sanction form offers it."""

    value: int
    label: str
    kind: str  # "proposed", "skip" (above the proposal: 5.4.a), "lower" (below it: 5.4), "" (no proposal)
    checked: bool
    article: str = "5.4"


def _steps(proposal: Proposal | None, chosen: object) -> list[StepChoice]:
    try:
        selected = int(str(chosen)) if chosen not in (None, "") else None
    except ValueError:
        selected = None
    if selected is None and proposal is not None:
        selected = int(proposal.step)
    out = []
    for value, label in Sanction.Step.choices:
        kind = ""
        if proposal is not None:
            if Step(value) in proposal.options:
                kind = "proposed"
            elif value > max(proposal.options):
                kind = "skip"
            else:
                kind = "lower"
        out.append(StepChoice(value, str(label), kind, value == selected, proposal.article if proposal else "5.4"))
    return out


def _incident_pair(request: HttpRequest, incident: Incident) -> tuple[Pair | None, str]:
    """The pair the sanction goes to: the incident's, else the side the juez chose (?pareja=A|B)."""
    match = incident.match
    if incident.pair is not None:
        side = ""
        if match is not None:
            side = "A" if incident.pair_id == match.pair_a_id else "B"
        return incident.pair, side
    side = (request.POST.get("pareja") or request.GET.get("pareja") or "").upper()
    if match is None or match.pair_b is None or side not in ("A", "B"):
        return None, ""
    return (match.pair_a if side == "A" else match.pair_b), side


def incident_detail(request: HttpRequest, slug: str, incident_id: int) -> HttpResponse:
    """An incident and what the juez decides: a step of the ladder (5.4, 5.4.a) or no sanction."""
    tournament = tournament_for(request, slug, Action.INCIDENTS_MANAGE)
    incident = get_object_or_404(
        Incident.objects.select_related(
            "match__round", "match__pair_a", "match__pair_b", "pair", "player", "reported_by", "closed_by"
        ),
        pk=incident_id,
        tournament=tournament,
    )
    pair, side = _incident_pair(request, incident)
    sanction_form, dismiss_form = SanctionForm(), DismissForm()
    desk = reverse("referees:juez_desk", kwargs={"slug": slug})
    if incident.match is not None:
        desk += f"?ronda={incident.match.round.number}"
    if request.method == "POST":
        if incident.status != Incident.Status.OPEN:
            messages.error(request, _("La incidencia ya está cerrada."))
            return redirect(request.path)
        if request.POST.get("action") == "dismiss":
            dismiss_form = DismissForm(request.POST)
            if dismiss_form.is_valid():
                with service_errors(dismiss_form) as call:
                    incident_dismiss(
                        incident=incident, by=request.user, resolution=dismiss_form.cleaned_data["resolution"]
                    )
                if call.ok:
                    messages.success(request, _("Incidencia archivada sin sanción."))
                    return redirect(desk)
        else:
            sanction_form = SanctionForm(request.POST)
            if pair is None:
                sanction_form.add_error(None, _("Elige primero a qué pareja se sanciona."))
            elif sanction_form.is_valid():
                given = None
                with service_errors(
                    sanction_form, field_for=lambda key: key if key in ("step", "reason") else None
                ) as call:
                    given = sanction_give(
                        by=request.user,
                        pair=pair,
                        article=incident.article,
                        step=sanction_form.cleaned_data["step"],
                        match=incident.match,
                        incident=incident,
                        reason=sanction_form.cleaned_data["reason"],
                    )
                if call.ok and given is not None:
                    messages.success(request, _("Sanción anotada. %(line)s") % {"line": sanction_line(given)})
                    return redirect(desk)
        return _incident_page(request, tournament, incident, pair, side, sanction_form, dismiss_form, status=400)
    return _incident_page(request, tournament, incident, pair, side, sanction_form, dismiss_form)


def _incident_page(
    request: HttpRequest,
    tournament: Tournament,
    incident: Incident,
    pair: Pair | None,
    side: str,
    sanction_form: SanctionForm,
    dismiss_form: DismissForm,
    status: int = 200,
) -> HttpResponse:
    entry = next((a for a in articles(tournament) if a.code == incident.article), None)
    proposal: Proposal | None = None
    in_force: list[Sanction] = []
    counted: list[Sanction] = []
    elsewhere: list[Sanction] = []
    apart: list[Sanction] = []
    if pair is not None:
        if entry is not None:
            proposal = ladder_proposal(pair=pair, match=incident.match, article=incident.article)
        in_force = pair_sanctions(pair, with_warnings=True)
        for s in in_force:
            past = past_of(s)
            if past.penalty != "ladder":
                apart.append(s)
                continue
            inside = past in proposal.counted if proposal else (s.match_id == incident.match_id)
            (counted if inside else elsewhere).append(s)
    chosen = sanction_form["step"].value() if sanction_form.is_bound else None
    context = {
        "tournament": tournament,
        "incident": incident,
        "title": _(entry.title) if entry else incident.article,
        "summary": _(entry.summary) if entry and entry.summary else "",
        "own_penalty": entry is not None and proposal is None and pair is not None,
        "pair": pair,
        "side": side,
        "proposal": proposal,
        "steps": _steps(proposal, chosen),
        "counted": counted,
        "elsewhere": elsewhere,
        "apart": apart,
        "ladder_scope": tournament.get_ladder_scope_display(),
        "sanction_form": sanction_form,
        "dismiss_form": dismiss_form,
        "is_open": incident.status == Incident.Status.OPEN,
        "log_url": reverse("referees:incident_log", kwargs={"slug": tournament.slug}),
    }
    return render(request, "referees/incident_detail.html", context, status=status)


# --- the log --------------------------------------------------------------------------------------


def _unattached(tournament: Tournament, filters: IncidentFilter) -> list[Sanction]:
    """The sanctions given without an incident (every version), under the same filters."""
    if filters.status:
        return []
    rows = sanctions(tournament).filter(incident__isnull=True)
    if filters.article:
        rows = rows.filter(article=filters.article)
    if filters.round is not None:
        rows = rows.filter(match__round__number=filters.round)
    if filters.pair is not None:
        rows = rows.filter(pair__number=filters.pair)
    return list(rows)


def incident_log(request: HttpRequest, slug: str) -> HttpResponse:
    """Every incident with its sanctions, filtered by GET; a sanction undone with its reason."""
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    manage = can(request.user, tournament, Action.INCIDENTS_MANAGE)
    filter_form = LogFilterForm(request.GET or None, tournament=tournament)
    filters = filter_form.filters()
    undo_form, undo_target, status = UndoForm(), None, 200
    if request.method == "POST":
        if not manage:
            raise PermissionDenied
        undo_form = UndoForm(request.POST)
        if undo_form.is_valid():
            sanction = get_object_or_404(
                Sanction.objects.select_related("pair", "tournament"),
                pk=undo_form.cleaned_data["sanction"],
                tournament=tournament,
            )
            undo_target = sanction.pk
            undone = None
            with service_errors(undo_form) as call:
                undone = sanction_undo(sanction=sanction, by=request.user, reason=undo_form.cleaned_data["reason"])
            if call.ok and undone is not None:
                text = _("Sanción nº %(n)d anulada: %(s)s a la pareja %(p)s.") % {
                    "n": undone.number,
                    "s": undone.get_step_display().lower(),
                    "p": undone.pair.number,
                }
                if undone.result_id is not None:
                    text += " " + _("El resultado que fijó se mantiene hasta que se corrija el acta.")
                messages.success(request, text)
                return redirect(request.get_full_path())
        status = 400
    context = {
        "tournament": tournament,
        "manage": manage,
        "filter_form": filter_form,
        "filtered": filters != IncidentFilter(),
        "rows": _rows(incidents(tournament, filters), tournament),
        "unattached": _unattached(tournament, filters),
        "undo_form": undo_form,
        "undo_target": undo_target,
        "in_force": Sanction.Status.IN_FORCE,
    }
    return render(request, "referees/incident_log.html", context, status=status)


def incident_log_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The log's rows (the same filters) as a spreadsheet: one row per incident."""
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    filters = LogFilterForm(request.GET or None, tournament=tournament).filters()
    header = [
        _("Nº"),
        _("Fecha y hora"),
        _("Ronda"),
        _("Mesa"),
        _("Pareja"),
        _("Artículo"),
        _("Título"),
        _("Minuto"),
        _("Origen"),
        _("Descripción"),
        _("Estado"),
        _("Resolución"),
        _("Sanciones"),
    ]
    rows = []
    for row in _rows(incidents(tournament, filters), tournament):
        i = row.incident
        rows.append(
            [
                i.pk,
                timezone.localtime(i.reported_at).strftime("%Y-%m-%d %H:%M"),
                i.match.round.number if i.match else None,
                i.match.table_number if i.match else None,
                i.pair.number if i.pair else None,
                i.article,
                row.title,
                i.minute,
                i.get_source_display(),
                i.description,
                i.get_status_display(),
                i.resolution,
                "; ".join(
                    f"{s.number}.{s.version} {s.get_step_display()} ({s.get_status_display()})"
                    + (f": {s.reason}" if s.reason else "")
                    for s in row.versions
                ),
            ]
        )
    sheet = sheets.Sheet(header, rows, title=_("Incidencias"))
    return sheets.download(request, sheet, f"incidencias-{tournament.slug}")


# --- the players' report --------------------------------------------------------------------------


def report(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A player of the partida tells the jueces (AMM 5.3): the pair, the article or «Otra», what happened."""
    tournament = tournament_for(request, slug)
    if not request.user.is_authenticated:
        raise LoginRequired
    match = access_match(
        request.user, tournament, match_id, action=Action.INCIDENTS_MANAGE, players=True, playable=True
    )
    own = member_pairs(request.user, [match.pair_a_id, match.pair_b_id])
    status = 200
    if request.method == "POST":
        form = ReportForm(request.POST, tournament=tournament, match=match, own=own)
        if form.is_valid():
            data = form.cleaned_data
            pair = match.pair_a if data["pair"] == "A" else match.pair_b
            with service_errors(form) as call:
                incident_report(
                    tournament=tournament,
                    by=request.user,
                    article=form.article_code,
                    match=match,
                    pair=pair,
                    description=data.get("description") or "",
                )
            if call.ok:
                messages.success(request, _("Aviso enviado: un juez se acercará a la mesa (AMM 5.3)."))
                return redirect(reverse("scoring:clock_table", kwargs={"slug": slug, "match_id": match.pk}))
        status = 400
    else:
        form = ReportForm(tournament=tournament, match=match, own=own)
    context = {"tournament": tournament, "match": match, "form": form}
    return render(request, "referees/report.html", context, status=status)


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
