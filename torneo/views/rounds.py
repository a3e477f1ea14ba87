"""Rounds and their public draws (AMM 5.5): the public pages (by table, by surname, projector, wall
sheet, the draw's command input) and the mesa de control's pages (prepare, publish, cancel, redraw).

Thin: the round services decide and write; their Spanish messages are shown as they come.
"""

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from torneo.errors import TournamentError
from torneo.forms.rounds import DrawPublishForm, RedrawForm, RoundPrepareForm
from torneo.models import Round, Tournament
from torneo.numbers import parse_int
from torneo.pagecache import anonymous_page, cached_body, page_with_body, tournament_stamp
from torneo.permissions import Action, can
from torneo.selectors.rounds import (
    RoundPage,
    fixed_round_preview,
    jueces_of,
    next_step,
    round_page,
    rounds_of,
)
from torneo.services.rounds import (
    draw_publish,
    draw_redraw,
    round_cancel,
    round_prepare,
    round_publish,
    tournament_finish_if_done,
)
from torneo.views.access import tournament_for

# --- public pages --------------------------------------------------------------------------------


def _page(tournament: Tournament, number: int) -> RoundPage:
    page = round_page(tournament, number)
    if page is None:
        raise Http404
    return page


def rounds_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    return render(
        request,
        "torneo/rounds/rounds_list.html",
        {
            "tournament": tournament,
            "rounds": list(rounds_of(tournament)),
            "can_manage": can(request.user, tournament, Action.DRAWS_MANAGE),
        },
    )


def _public_round(request: HttpRequest, tournament: Tournament, number: int, name: str, **extra: Any) -> HttpResponse:
    """A round's public page: its body (the same for everyone, ~800 KB with 1,024 pairs) is cached
    under the tournament's stamp (torneo.pagecache); the per-user frame is rendered around it."""
    body = cached_body(
        f"ronda:{tournament.pk}:{number}",
        tournament_stamp(tournament),
        f"torneo/rounds/_{name}_body.html",
        lambda: {"tournament": tournament, "page": _page(tournament, number)},
    )
    context = {"tournament": tournament, "number": number, **extra}
    return page_with_body(request, f"torneo/rounds/{name}.html", context, body)


@anonymous_page()
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round's draw by table and by surname, results, and how to verify the draw (AMM 5.5)."""
    tournament = tournament_for(request, slug)
    can_manage = can(request.user, tournament, Action.DRAWS_MANAGE)
    return _public_round(request, tournament, number, "round", can_manage=can_manage)


@anonymous_page()
def round_projector(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Big type, high contrast, no chrome; scrolls by itself (static/js/rounds.js)."""
    return _public_round(request, tournament_for(request, slug), number, "projector")


@anonymous_page()
def round_wall(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Printable wall sheets (A4): by surname and by table."""
    return _public_round(request, tournament_for(request, slug), number, "wall")


def draw_input(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One pool's `python -m torneo.draws` input as a file (?grupo=<index>, ?sorteo=<id> for a
    superseded draw). Only once the draw is published: before, the secret stays secret."""
    tournament = tournament_for(request, slug)
    page = _page(tournament, number)
    index = parse_int(request.GET.get("grupo", "0"))
    sorteo = request.GET.get("sorteo")
    draw_id = parse_int(sorteo, low=1) if sorteo else None
    if index is None or (sorteo and draw_id is None):
        raise Http404
    pool_input = page.pool_input(index, draw_id)
    if pool_input is None:
        raise Http404
    response = HttpResponse(pool_input.text + "\n", content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{pool_input.filename}"'
    return response


# --- staff pages ---------------------------------------------------------------------------------


def manage_rounds(request: HttpRequest, slug: str) -> HttpResponse:
    """The mesa de control's rounds: what to do next (prepare round N, publish the prepared one, or
    nothing more once the tournament is decided: it is finished here at the latest), the suggestion
    of the rondas finales when few pairs are left, and the list of rounds."""
    tournament = tournament_for(request, slug, Action.DRAWS_MANAGE)
    if tournament_finish_if_done(tournament_id=tournament.pk):
        tournament.refresh_from_db()
    return _render_rounds(request, tournament, RoundPrepareForm(tournament=tournament))


def _render_rounds(
    request: HttpRequest, tournament: Tournament, form: RoundPrepareForm, status: int = 200
) -> HttpResponse:
    rounds = list(rounds_of(tournament))
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "step": next_step(tournament, rounds),
        "form": form,
        "has_juez": jueces_of(tournament).exists(),
        "can_edit": can(request.user, tournament, Action.TOURNAMENT_EDIT),
    }
    return render(request, "torneo/rounds/manage_rounds.html", context, status=status)


@require_POST
def manage_round_prepare(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.DRAWS_MANAGE)
    form = RoundPrepareForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            round_ = round_prepare(tournament=tournament, by=request.user, session=form.cleaned_data["session"])
        except TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            if round_.kind == Round.Kind.DRAW:
                messages.success(
                    request,
                    _("Ronda %(n)d preparada: su compromiso ya es público. Haz el sorteo ante el juez (AMM 5.5).")
                    % {"n": round_.number},
                )
            else:
                messages.success(request, _("Ronda %(n)d preparada: revísala y publícala.") % {"n": round_.number})
            return redirect("torneo:manage_round", slug=slug, number=round_.number)
    tournament.refresh_from_db()
    return _render_rounds(request, tournament, form, status=400)


def manage_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.DRAWS_MANAGE)
    return _render_round(request, tournament, _page(tournament, number))


def _render_round(
    request: HttpRequest,
    tournament: Tournament,
    page: RoundPage,
    *,
    publish_form: DrawPublishForm | None = None,
    redraw_form: RedrawForm | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    draw = page.live_draw
    if publish_form is None and page.is_committed and draw is not None:
        publish_form = DrawPublishForm(tournament=tournament, draw=draw)
    can_redraw = can(request.user, tournament, Action.DRAWS_REDRAW)
    if redraw_form is None and can_redraw:
        redraw_form = RedrawForm()
    preview = []
    if not page.round.is_published and page.round.kind != Round.Kind.DRAW:
        preview = fixed_round_preview(tournament)
    context = {
        "tournament": tournament,
        "page": page,
        "publish_form": publish_form,
        "redraw_form": redraw_form,
        "can_redraw": can_redraw,
        "has_juez": jueces_of(tournament).exists(),
        "can_edit_roles": can(request.user, tournament, Action.ROLES_MANAGE),
        "preview": preview,
        "error": error,
        "is_last": page.next_number is None,
    }
    return render(request, "torneo/rounds/manage_round.html", context, status=status)


@require_POST
def manage_round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A drawn round: the public draw, made and published in one act (AMM 5.5). A liguilla or
    fixed-bracket round: publish its matches."""
    tournament = tournament_for(request, slug, Action.DRAWS_MANAGE)
    page = _page(tournament, number)
    form = None
    try:
        if page.round.kind == Round.Kind.DRAW:
            draw = page.live_draw
            if draw is None or not page.is_committed:
                raise TournamentError(_("Este sorteo ya está publicado o anulado."), code="not_committed")
            form = DrawPublishForm(request.POST, tournament=tournament, draw=draw)
            if not form.is_valid():
                return _render_round(request, tournament, page, publish_form=form, status=400)
            draw_publish(
                draw=draw,
                public_value=form.cleaned_data["public_value"],
                witness=form.cleaned_data["witness"],
                by=request.user,
            )
            messages.success(request, _("Sorteo de la ronda %(n)d hecho y publicado.") % {"n": number})
        else:
            round_publish(round=page.round, by=request.user)
            messages.success(request, _("Ronda %(n)d publicada.") % {"n": number})
    except TournamentError as exc:
        tournament.refresh_from_db()
        page = _page(tournament, number)
        if form is not None and page.is_committed:
            form.add_error(None, str(exc))
            return _render_round(request, tournament, page, publish_form=form, status=400)
        return _render_round(request, tournament, page, error=str(exc), status=400)
    return redirect("torneo:manage_round", slug=slug, number=number)


@require_POST
def manage_round_cancel(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_for(request, slug, Action.DRAWS_MANAGE)
    page = _page(tournament, number)
    try:
        round_cancel(round=page.round)
    except TournamentError as exc:
        return _render_round(request, tournament, page, error=str(exc), status=400)
    messages.success(request, _("Ronda %(n)d anulada: no se ha sorteado nada.") % {"n": number})
    return redirect("torneo:manage_rounds", slug=slug)


@require_POST
def manage_round_redraw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The organizer's new draw of a published round, with a reason that is published too."""
    tournament = tournament_for(request, slug, Action.DRAWS_REDRAW)
    page = _page(tournament, number)
    form = RedrawForm(request.POST)
    if not form.is_valid():
        return _render_round(request, tournament, page, redraw_form=form, status=400)
    try:
        draw_redraw(round=page.round, reason=form.cleaned_data["reason"], by=request.user)
    except TournamentError as exc:
        form.add_error(None, str(exc))
        return _render_round(request, tournament, page, redraw_form=form, status=400)
    messages.success(
        request,
        _("Sorteo anulado y registrado. Nuevo compromiso publicado: haz el nuevo sorteo ante el juez (AMM 5.5)."),
    )
    return redirect("torneo:manage_round", slug=slug, number=number)


__all__ = [
    "draw_input",
    "manage_round",
    "manage_round_cancel",
    "manage_round_prepare",
    "manage_round_publish",
    "manage_round_redraw",
    "manage_rounds",
    "round_detail",
    "round_projector",
    "round_wall",
    "rounds_list",
]
