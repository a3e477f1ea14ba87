"""The results pages. Public, phone first and live (static/js/live.js swaps <main> when a result
arrives): the results of each round by table, and their CSV export.

The mesa de control's pages: fast entry by table number (a plain form that works without
JavaScript; static/js/results-entry.js speeds it up through the API, /api/v1/…/results/: lookup,
pending and create), the confirmation queue of the double check,
each match's history with corrections, and the confirmation a player of the losing pair gives from
a phone (AMM 3.16). Two actas that disagree are shown side by side, in red, on the queue and the
history, where the organizer or a juez decides between them (`result_resolve`). Thin:
scoring.services.results decides, scoring.selectors.results reads."""

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import exports
from scoring.forms.results import CorrectionForm, EntryForm, RejectForm, ReportForm, ResolveForm, ResultFields
from scoring.messages import describe_submission
from scoring.models import ResultSubmission
from scoring.selectors import results as selectors
from scoring.services.results import (
    can_confirm,
    disagreement,
    resolve_refusal,
    result_confirm,
    result_note,
    result_reject,
    result_report,
    result_resolve,
    result_submit,
    round_locked,
)
from scoring.views.render import csv_response, results_rows
from torneo import pagecache
from torneo.errors import Conflict, NotAllowed, TournamentError
from torneo.forms.errors import attach_errors, service_errors
from torneo.models import Match, Round, Tournament
from torneo.numbers import parse_int
from torneo.permissions import Action, access_match, can, is_player_of, member_pairs
from torneo.ratelimit import table_write_refused
from torneo.views.access import LoginRequired, safe_next, tournament_for

# --- public: the results of each round -------------------------------------------------------------------


@pagecache.anonymous_page(params=("ronda",))
def results(request: HttpRequest, slug: str) -> HttpResponse:
    """The results of one round (the current one by default), by table."""
    tournament = tournament_for(request, slug)
    rounds = selectors.published_rounds(tournament)
    number = request.GET.get("ronda", "")
    round_ = rounds[-1] if rounds else None
    if number:
        value = parse_int(number)
        round_ = next((r for r in rounds if r.number == value), None) if value is not None else None
        if round_ is None:
            raise Http404
    is_staff = can(request.user, tournament, Action.VIEW_PRIVATE)

    def context() -> dict[str, Any]:
        matches = selectors.round_matches(round_) if round_ else []
        decided = sum(1 for m in matches if m.decided)
        history = reverse("scoring:result_history", args=[tournament.slug, 0]) if is_staff else None
        return {
            "tournament": tournament,
            "rounds": rounds,
            "round": round_,
            "matches": matches,
            "decided": decided,
            "rows": results_rows(matches, history=history),  # 573 tables: scoring.views.render
        }

    # The body, the same for everyone (the staff's has the links to each table's history), is
    # rendered once per change (torneo.pagecache): 573 tables while a hundred phones reload.
    body = pagecache.cached_body(
        f"scoring:results:{tournament.pk}:{round_.number if round_ else 0}:{int(is_staff)}",
        pagecache.tournament_stamp(tournament),
        "scoring/_results_body.html",
        lambda: {**context(), "is_staff": is_staff},
    )
    return pagecache.page_with_body(request, "scoring/results.html", {"tournament": tournament}, body)


def results_csv(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    tournament = tournament_for(request, slug)
    if (
        number is not None
        and not Round.objects.filter(tournament=tournament, number=number, status=Round.Status.PUBLISHED).exists()
    ):
        raise Http404
    name = f"resultados-{tournament.slug}" + (f"-ronda-{number}" if number is not None else "") + ".csv"
    return csv_response(exports.results_csv(tournament, number), name)


# --- the mesa de control ---------------------------------------------------------------------------------

# The entry script's texts, translated here and handed over with json_script ({x}: filled in by it).
SCRIPT_STRINGS = {
    "hint": gettext_lazy("Escribe el número de mesa: aparecerán las dos parejas."),
    "bye": gettext_lazy("Exenta: no hay resultado que anotar."),
    "current": gettext_lazy(
        "Ya tiene resultado: {outcome} {a}–{b} (versión {version}, {by}). Lo que anotes será una corrección."
    ),
    "proposed": gettext_lazy(
        "Pendiente de confirmar: {a}–{b}, anotado por {by}. Si el acta dice lo mismo, anótalo igual y queda confirmado."
    ),
    "locked": gettext_lazy(
        "Ronda cerrada (AMM 3.18): el resultado es inamovible; la organización puede añadir una nota en el historial."
    ),
    "prepared": gettext_lazy(
        "El sorteo de la ronda siguiente ya está preparado: si cambias este resultado habrá que anular esa ronda "
        "preparada y volver a prepararla."
    ),
    "history": gettext_lazy("Historial de la mesa"),
    "disagreement": gettext_lazy(
        "Dos actas que no coinciden (AMM 3.16): no cuenta ninguna hasta que la organización o un juez decida."
    ),
    "disagreement_version": gettext_lazy("Versión {version}: {a}–{b} {outcome}, anotada por {by}"),
    "disagreement_link": gettext_lazy("Ver las dos actas y decidir"),
    "disagreement_list": gettext_lazy("ver las dos actas"),
    "yours": gettext_lazy("(la has anotado tú: la confirma otra persona)"),
    "all_done": gettext_lazy("Todas las mesas tienen resultado."),
    "all_entered": gettext_lazy("Todas las mesas tienen acta: {n} por confirmar (abajo)."),
    "none": gettext_lazy("Ninguno."),
    "refused": gettext_lazy("rechazada"),
    "refused_title": gettext_lazy("{a} – {b} · la otra pareja no firmó el resultado propuesto ({by}, AMM 3.16)"),
    "confirm": gettext_lazy("confirmar"),
    "table": gettext_lazy("Mesa {table}"),
    "check": gettext_lazy("Revisa los campos marcados."),
    "conflict": gettext_lazy("Si aun así el acta dice otra cosa, vuelve a pulsar Intro para corregirlo."),
    # What the form says about these fields, checked by the script before it calls the API.
    "table_required": gettext_lazy("Escribe el número de mesa."),
    "tantos": gettext_lazy("Escribe los tantos de cada juego como 40-32, separados por espacios o comas."),
}


def _round(tournament: Tournament, number: Any) -> Round | None:
    """The published round with this number (404 if there is none), or the current one."""
    try:
        round_ = selectors.published_round(tournament, number)
    except ValueError:
        raise Http404 from None
    if round_ is None and number not in (None, ""):
        raise Http404
    return round_


def _winner(match: Match, side: str) -> Any:
    return {"a": match.pair_a, "b": match.pair_b}.get(side or "")


def _submit(request: HttpRequest, match: Match, form: ResultFields) -> tuple[ResultSubmission | None, int, str]:
    """Call the service with the form's data. Returns (submission, status, error message);
    validation errors go onto the form."""
    data = form.cleaned_data
    version = data.get("version")
    try:
        sub = result_submit(
            match=match,
            by=request.user,
            outcome=data["outcome"],
            games_a=data.get("games_a"),
            games_b=data.get("games_b"),
            winner=_winner(match, data.get("winner", "")),
            tantos=data.get("tantos") or [],
            # A blank version means "I saw no result": never overwrite one unseen.
            expected_version=0 if version is None else version,
            reason=data.get("reason", ""),
        )
    except ValidationError as exc:
        attach_errors(form, exc)
        return None, 400, ""
    except Conflict as exc:
        return None, 409, str(exc)
    except NotAllowed as exc:
        return None, 403, str(exc)
    except TournamentError as exc:
        form.add_error(None, str(exc))
        return None, 400, str(exc)
    return sub, 200, ""


def _tell(request: HttpRequest, match: Match, sub: ResultSubmission) -> None:
    """The flash message after an acta is entered; a disagreement in red (AMM 3.16)."""
    if sub.status == ResultSubmission.Status.DISPUTED:
        messages.error(request, describe_submission(match, sub, request.user))
        return
    messages.success(request, describe_submission(match, sub, request.user))


def results_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """Type the table, see the pairs, type the juegos, Enter: next table. This is the page without
    JavaScript (plain POSTs); the script does the same through the API."""
    tournament = tournament_for(request, slug, Action.RESULTS_ENTER)
    round_ = _round(tournament, request.POST.get("round") if request.method == "POST" else request.GET.get("ronda"))
    if round_ is None:
        return render(request, "scoring/manage/entry.html", {"tournament": tournament, "round": None})
    lookup = None
    status = 200
    if request.method == "POST":
        form = EntryForm(request.POST)
        if not form.is_valid():
            return _entry_page(request, tournament, round_, form, None, 400)
        match = selectors.match_at_table(round_, form.cleaned_data["table"])
        if match is None:
            form.add_error(
                "table",
                _("No hay ninguna mesa %(t)d en la ronda %(r)d.")
                % {
                    "t": form.cleaned_data["table"],
                    "r": round_.number,
                },
            )
            return _entry_page(request, tournament, round_, form, None, 400)
        if form.is_lookup_only:
            # Without JavaScript: the table alone shows the pairs and the version to send back.
            lookup = selectors.match_lookup(match)
            form = EntryForm(
                initial={"round": round_.number, "table": match.table_number, "version": lookup["version"]}
            )
            return _entry_page(request, tournament, round_, form, lookup, 200)
        sub, status, error = _submit(request, match, form)
        if sub is not None:
            _tell(request, match, sub)
            return redirect(f"{reverse('scoring:results_entry', kwargs={'slug': slug})}?ronda={round_.number}")
        lookup = selectors.match_lookup(match)
        if status == 409:
            # Keep what was typed, with the version now seen: sending it again overwrites knowingly.
            data = request.POST.copy()
            data["version"] = str(lookup["version"])
            form = EntryForm(data)
            form.is_valid()
        if error:
            form.add_error(None, error)
    else:
        initial = {"round": round_.number}
        table = parse_int(request.GET.get("mesa"), high=99_999)
        if table is not None:
            match = selectors.match_at_table(round_, table)
            if match is not None:
                lookup = selectors.match_lookup(match)
                initial.update({"table": match.table_number, "version": lookup["version"]})
        form = EntryForm(initial=initial)
    return _entry_page(request, tournament, round_, form, lookup, status)


def _entry_page(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round,
    form: EntryForm,
    lookup: dict[str, Any] | None,
    status: int,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "round": round_,
        "strings": SCRIPT_STRINGS,
        "rounds": selectors.published_rounds(tournament),
        "form": form,
        "lookup": lookup,
        "state": selectors.entry_state(round_),
        "can_override": can(request.user, tournament, Action.RESULTS_OVERRIDE),
    }
    return render(request, "scoring/manage/entry.html", context, status=status)


def results_queue(request: HttpRequest, slug: str) -> HttpResponse:
    """The double check's queue: every result awaiting a second person's confirmation, and every
    disagreement between two actas, both side by side, for the organizer or a juez to decide."""
    tournament = tournament_for(request, slug)
    if not (
        can(request.user, tournament, Action.RESULTS_ENTER) or can(request.user, tournament, Action.RESULTS_RESOLVE)
    ):
        if not request.user.is_authenticated:
            raise LoginRequired
        raise PermissionDenied
    items = selectors.submissions_awaiting(tournament)
    for item in items:
        if item.disagreement:
            item.refusal = resolve_refusal(request.user, item.match, item.submissions) or ""
    context = {
        "tournament": tournament,
        "items": items,
        # Only what this person may confirm offers a button: never their own entry.
        "confirmable": {
            s.pk for item in items if not item.disagreement for s in item.submissions if can_confirm(request.user, s)
        },
        "reject_form": RejectForm(),
    }
    return render(request, "scoring/manage/queue.html", context)


def result_history(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Every version of a match's acta; a correction is a new version (AMM 3.18 after the next draw)."""
    tournament = tournament_for(request, slug, Action.VIEW_PRIVATE)
    match = get_object_or_404(
        Match.objects.select_related("round__tournament", "pair_a", "pair_b"),
        pk=match_id,
        round__tournament=tournament,
    )
    may_enter = can(request.user, tournament, Action.RESULTS_ENTER)
    locked = round_locked(match.round)
    disputed = disagreement(match)
    standing = match.outcome != Match.Outcome.PENDING
    may_correct = (
        may_enter
        and match.pair_b_id is not None
        and not disputed  # two actas that disagree are decided, not corrected
        and not (locked and standing)  # AMM 3.18: inamovible, for everybody
        and (not locked or can(request.user, tournament, Action.RESULTS_OVERRIDE))
    )
    # AMM 3.18: after the next draw the organizer may only add a note to the history.
    may_note = locked and standing and can(request.user, tournament, Action.RESULTS_OVERRIDE)
    note_error = ""
    refusal = resolve_refusal(request.user, match, disputed) if disputed else None
    resolve_form = ResolveForm(versions=disputed)
    form = CorrectionForm(initial=_initial(match))
    status = 200
    if request.method == "POST" and request.POST.get("action") == "resolve":
        if not can(request.user, tournament, Action.RESULTS_RESOLVE):
            raise PermissionDenied
        resolve_form = ResolveForm(request.POST, versions=disputed)
        status = _resolve(request, match, disputed, resolve_form)
        if status == 302:
            return redirect(
                safe_next(request, reverse("scoring:result_history", kwargs={"slug": slug, "match_id": match.pk}))
            )
        disputed = disagreement(match)
        refusal = resolve_refusal(request.user, match, disputed) if disputed else None
    elif request.method == "POST" and request.POST.get("action") == "note":
        if not can(request.user, tournament, Action.RESULTS_OVERRIDE):
            raise PermissionDenied
        try:
            result_note(match=match, by=request.user, note=request.POST.get("note", ""))
        except (ValidationError, TournamentError) as exc:
            note_error = " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
            status = 400
        else:
            messages.success(request, _("Nota añadida al historial: el resultado no cambia (AMM 3.18)."))
            return redirect("scoring:result_history", slug=slug, match_id=match.pk)
    elif request.method == "POST":
        if not may_enter:
            raise PermissionDenied
        form = CorrectionForm(request.POST)
        if form.is_valid():
            sub, status, error = _submit(request, match, form)
            if sub is not None:
                _tell(request, match, sub)
                return redirect("scoring:result_history", slug=slug, match_id=match.pk)
            if error:
                form.add_error(None, error)
        else:
            status = 400
    history = selectors.match_history(match)
    context = {
        "tournament": tournament,
        "match": match,
        "lookup": selectors.match_lookup(match),
        "history": history,
        "form": form,
        "locked": locked,
        "may_correct": may_correct,
        "may_note": may_note,
        "note_error": note_error,
        "may_enter": may_enter,
        "disagreement": disputed,
        "may_resolve": bool(disputed) and refusal is None,
        "resolve_refusal": refusal,
        "resolve_form": resolve_form,
        "confirmable": {
            s.pk for s in history if s.status == ResultSubmission.Status.PROPOSED and can_confirm(request.user, s)
        },
    }
    return render(request, "scoring/manage/history.html", context, status=status)


def _resolve(request: HttpRequest, match: Match, disputed: list[ResultSubmission], form: ResolveForm) -> int:
    """Decide between two actas that disagree (AMM 3.16) with the form's data: 302 when done (the
    message is flashed), else the status, with the errors on the form."""
    if not form.is_valid():
        return 400
    data = form.cleaned_data
    kept = next((d for d in disputed if d.pk == form.keeps), None)
    try:
        decision = result_resolve(
            match=match,
            by=request.user,
            reason=data["reason"],
            choice=kept,
            outcome=data["outcome"],
            games_a=data.get("games_a"),
            games_b=data.get("games_b"),
            winner=_winner(match, data.get("winner", "")),
            tantos=data.get("tantos") or [],
        )
    except ValidationError as exc:
        attach_errors(form, exc)
        return 400
    except TournamentError as exc:
        form.add_error(None, str(exc))
        return exc.http_status
    messages.success(
        request,
        _("Mesa %(t)s: decidido, %(a)s %(s)s %(b)s (versión %(v)d). El resultado ya cuenta.")
        % {
            "t": match.table_number or "—",
            "a": match.pair_a,
            "s": selectors.submission_score(decision) or decision.get_outcome_display(),
            "b": match.pair_b,
            "v": decision.version,
        },
    )
    return 302


def _initial(match: Match) -> dict[str, Any]:
    latest = match.submissions.first()
    initial: dict[str, Any] = {"version": latest.version if latest else 0}
    if match.outcome not in (Match.Outcome.PENDING, Match.Outcome.BYE):
        initial.update(
            {
                "outcome": match.outcome,
                "games_a": match.games_a,
                "games_b": match.games_b,
                "winner": "a" if match.winner_id == match.pair_a_id else "b" if match.winner_id else "",
            }
        )
    return initial


def _submission(tournament: Tournament, submission_id: int) -> ResultSubmission:
    return get_object_or_404(
        ResultSubmission.objects.select_related(
            "match__round__tournament", "match__pair_a", "match__pair_b", "submitted_by", "confirmed_by", "winner"
        ),
        pk=submission_id,
        match__round__tournament=tournament,
    )


def result_confirm_view(request: HttpRequest, slug: str, submission_id: int) -> HttpResponse:
    """Confirm a proposed result: another member of the staff, or a player of the losing pair from
    their phone (the signature of AMM 3.16). Never the person who entered it."""
    tournament = tournament_for(request, slug)
    if not request.user.is_authenticated:
        raise LoginRequired
    sub = _submission(tournament, submission_id)
    allowed = can_confirm(request.user, sub)
    # The table's own pairs read where their acta stands, even once they may not sign it: in
    # disagreement (the mesa or the other phone wrote another result), already signed, replaced.
    table = allowed or is_player_of(request.user, sub.match)
    if not table and not can(request.user, tournament, Action.VIEW_PRIVATE):
        raise PermissionDenied
    status = 200
    if request.method == "POST":
        if not table:
            raise PermissionDenied
        if refused := table_write_refused(request, tournament):
            return refused
        try:
            result_confirm(submission=sub, by=request.user)
        except TournamentError as exc:
            messages.error(request, str(exc))
            status = exc.http_status
        else:
            messages.success(request, _("Resultado confirmado. Gracias."))
            return redirect(
                safe_next(request, reverse("scoring:result_confirm", kwargs={"slug": slug, "submission_id": sub.pk}))
            )
        sub = _submission(tournament, submission_id)
    context = {
        "tournament": tournament,
        "sub": sub,
        "match": sub.match,
        "can_confirm": allowed and sub.status == ResultSubmission.Status.PROPOSED,
        "reject_form": RejectForm(),
        "own": sub.submitted_by_id == request.user.pk,
        # A version in disagreement: both shown, decided on the match's history (AMM 3.16).
        "disagreement": disagreement(sub.match) if sub.status == ResultSubmission.Status.DISPUTED else [],
    }
    return render(request, "scoring/confirm.html", context, status=status)


@require_POST
def result_reject_view(request: HttpRequest, slug: str, submission_id: int) -> HttpResponse:
    tournament = tournament_for(request, slug)
    if not request.user.is_authenticated:
        raise LoginRequired
    sub = _submission(tournament, submission_id)
    if not can_confirm(request.user, sub) and sub.submitted_by_id != request.user.pk:
        raise PermissionDenied
    if refused := table_write_refused(request, tournament):
        return refused
    form = RejectForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        result_reject(submission=sub, by=request.user, reason=reason)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Resultado rechazado. Sigue valiendo el anterior, si lo había."))
    confirm = reverse("scoring:result_confirm", kwargs={"slug": slug, "submission_id": sub.pk})
    return redirect(safe_next(request, confirm))


def result_report_view(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A pair reports its table's result from its phone (issue 32): its terminal (the tarjeta's
    link) or a player's account. The other pair confirms it on its own phone (AMM 3.16)."""
    tournament = tournament_for(request, slug)
    if not request.user.is_authenticated:
        raise LoginRequired
    match = access_match(request.user, tournament, match_id, players=True, playable=True)
    if not is_player_of(request.user, match):
        raise PermissionDenied(_("Solo las dos parejas de la mesa anotan su resultado."))
    own = member_pairs(request.user, [match.pair_a_id, match.pair_b_id])
    mine = match.pair_a if match.pair_a_id in own else match.pair_b
    assert mine is not None
    back = reverse("scoring:pair_page", kwargs={"slug": slug, "number": mine.number})
    if request.method == "POST" and (refused := table_write_refused(request, tournament)):
        return refused
    form = ReportForm(request.POST or None, match=match)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with service_errors(form) as call:
            sub = result_report(
                match=match, by=request.user, games_a=data["games_a"], games_b=data["games_b"], tantos=data["tantos"]
            )
        if call.ok:
            if sub.status == ResultSubmission.Status.CONFIRMED:
                messages.success(request, _("Resultado anotado: coincide con el de la otra pareja y ya cuenta."))
            elif sub.status == ResultSubmission.Status.DISPUTED:
                messages.warning(
                    request, _("La otra pareja ha anotado otro resultado: lo decide la mesa de control o el juez.")
                )
            else:
                messages.success(request, _("Resultado anotado: falta que lo confirme la otra pareja en su móvil."))
            return redirect(back)
    pending = match.submissions.filter(status=ResultSubmission.Status.PROPOSED).first()
    context = {"tournament": tournament, "match": match, "mine": mine, "form": form, "pending": pending, "back": back}
    return render(request, "scoring/players/report.html", context, status=400 if form.errors else 200)
