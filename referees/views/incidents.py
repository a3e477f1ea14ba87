"""An incident (Action.INCIDENTS_MANAGE): the pair's sanctions in force, what the ladder of AMM 5.4
proposes (the steps above it need a reason, 5.4.a), the sanction given, or the incident closed
without one; the log (Action.VIEW_PRIVATE) with its spreadsheet; and the players' report (5.3)."""

from __future__ import annotations

import dataclasses

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from referees.forms import (
    DismissForm,
    LogFilterForm,
    ReportForm,
    SanctionForm,
    UndoForm,
)
from referees.models import Incident, Sanction
from referees.rules.ladder import Proposal, Step
from referees.selectors.sanctions import (
    IncidentFilter,
    articles,
    incidents,
    pair_sanctions,
    sanction_line,
    sanctions,
)
from referees.services.incidents import incident_answer, incident_dismiss, incident_report, table_calls
from referees.services.sanctions import ladder_proposal, past_of, sanction_give, sanction_undo
from referees.views.common import _rows
from torneo import sheets
from torneo.errors import NotAllowed, TournamentError
from torneo.forms.errors import service_errors
from torneo.models import Pair, Tournament
from torneo.numbers import parse_int
from torneo.people import desk_name
from torneo.permissions import Action, access_match, can, member_pairs
from torneo.ratelimit import table_write_refused
from torneo.views.access import LoginRequired, tournament_for

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
    selected = parse_int(chosen)
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
        _("Dio parte"),
        _("Atendida por («voy»)"),
        _("Atendida a las"),
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
                desk_name(i.reported_by),
                desk_name(i.answered_by),
                timezone.localtime(i.answered_at).strftime("%Y-%m-%d %H:%M") if i.answered_at else None,
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
    if request.method == "POST" and (refused := table_write_refused(request, tournament)):
        return refused
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
                return redirect(request.path)  # the call's state: sent, then «el juez va hacia la mesa»
        status = 400
    else:
        form = ReportForm(tournament=tournament, match=match, own=own)
    calls = table_calls(match=match)
    context = {"tournament": tournament, "match": match, "form": form, "calls": calls}
    return render(request, "referees/report.html", context, status=status)


@require_POST
def incident_answer_view(request: HttpRequest, slug: str, incident_id: int) -> HttpResponse:
    """The juez answers a table's call «voy» (issue 32): the table sees that a juez is on the way."""
    tournament = tournament_for(request, slug, Action.INCIDENTS_MANAGE)
    incident = get_object_or_404(Incident.objects.select_related("match__round"), pk=incident_id, tournament=tournament)
    try:
        incident_answer(incident=incident, by=request.user)
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("La mesa ve que vas hacia ella."))
    desk = reverse("referees:juez_desk", kwargs={"slug": slug})
    if incident.match is not None:
        desk += f"?ronda={incident.match.round.number}"
    return redirect(f"{desk}#incidencia-{incident.pk}")
