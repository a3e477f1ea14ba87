"""Recorded hands from a phone: a match's juegos and hands with the engine's findings, the form
for the next hand, a hand's versions (edit as a new version, delete), and the staff's index of a
round's tables. Thin: scoring.services.hands validates and writes, the server checks who may."""

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.forms.hands import HandForm, form_field
from scoring.models import RecordedHand
from scoring.selectors import hands as selectors
from scoring.selectors.rulings import current_ruling, hands_awaiting_ruling, needs_ruling
from scoring.services.hands import (
    TABLE_COUNT_CODE,
    HandSaved,
    can_change_hand,
    can_record_hands,
    hand_delete,
    hand_edit,
    hand_record,
)
from scoring.services.hands.rulings import can_rule
from torneo.errors import NotAllowed, TournamentError
from torneo.forms.errors import service_errors
from torneo.models import Match, Pair
from torneo.numbers import parse_int
from torneo.permissions import Action, access_match
from torneo.views.access import LoginRequired, tournament_for


def _match(request: HttpRequest, slug: str, match_id: int) -> Match:
    """A played match of the tournament (public read; writes are checked by the services)."""
    tournament = tournament_for(request, slug)
    return access_match(request.user, tournament, match_id, playable=True, queryset=selectors.matches_with_players())


def _deny(request: HttpRequest) -> None:
    if not request.user.is_authenticated:
        raise LoginRequired
    raise PermissionDenied


def _label(pair: Pair) -> str:
    return f"{pair.number} · {pair.display_name}"


def _form(match: Match, data=None, initial=None) -> HandForm:  # type: ignore[no-untyped-def]
    return HandForm(data, initial=initial, pair_names=(_label(match.pair_a), _label(match.pair_b)))


def _report(request: HttpRequest, saved: HandSaved, verb: str) -> None:
    hand = saved.hand
    text = _("Mano n.º %(n)d del juego %(g)d %(verb)s.") % {"n": hand.number, "g": saved.game.number, "verb": verb}
    if hand.is_deleted:
        messages.success(request, text)
    elif hand.errors:
        messages.warning(
            request,
            text + " " + _("Tiene errores: no cuenta para el tanteo hasta que se corrija (ver las observaciones)."),
        )
    else:
        messages.success(request, text)
    if not hand.is_deleted and any(f.get("code") == TABLE_COUNT_CODE for f in hand.findings):
        messages.warning(
            request,
            _(
                "El tanteo anotado no coincide con el del motor: cuenta el de la mesa (AMM 3.14) y queda un aviso "
                "para el juez con los dos."
            ),
        )
    if saved.game.winner:
        winner = saved.game.match.pair_a if saved.game.winner == "a" else saved.game.match.pair_b
        messages.info(
            request,
            _("Juego n.º %(g)d para %(p)s (%(a)d-%(b)d).")
            % {"g": saved.game.number, "p": winner, "a": saved.game.tantos_a, "b": saved.game.tantos_b},
        )
    if saved.result is not None:
        getattr(messages, saved.result.level)(request, saved.result.message)


def _ruling_links(request: HttpRequest, match: Match, view: selectors.MatchHands) -> dict[str, object]:
    """For a juez (AMM chapter IV): the hands that await a ruling and those with one in force."""
    if not can_rule(request.user, match):
        return {"may_rule": False}
    to_rule = {awaiting.hand.pk for awaiting in hands_awaiting_ruling([match])}
    ruled = {h.pk for g in view.games for h in g.current_hands if needs_ruling(h) and h.pk not in to_rule}
    return {"may_rule": True, "to_rule": to_rule, "ruled": ruled}


def match_hands(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A match's recorded juegos and hands; the form for the next hand (POST records it)."""
    match = _match(request, slug, match_id)
    may_record = can_record_hands(request.user, match)
    form = None
    if request.method == "POST":
        if not may_record:
            _deny(request)
        form = _form(match, request.POST)
        if form.is_valid():
            with service_errors(form, field_for=form_field) as call:
                saved = hand_record(
                    match=match,
                    by=request.user,
                    record=form.to_record(),
                    mano=form.cleaned_data["mano"],
                    game=form.cleaned_data["game"],
                )
            if call.ok:
                _report(request, saved, _("anotada"))
                url = reverse("scoring:hands_match", kwargs={"slug": slug, "match_id": match.pk})
                return redirect(f"{url}#mano-{saved.hand.pk}")
    view = selectors.match_hands(match)
    if form is None and may_record and view.next is not None:
        nxt = view.next
        before = nxt.score_before or (0, 0)
        form = _form(
            match,
            initial={"game": nxt.game_number, "mano": nxt.mano, "score_a": before[0], "score_b": before[1]},
        )
    context = {
        "tournament": match.round.tournament,
        "match": match,
        "view": view,
        "form": form if may_record and (view.next is not None or request.method == "POST") else None,
        "may_record": may_record,
        **_ruling_links(request, match, view),
    }
    return render(request, "scoring/hands/match.html", context)


def hand_detail(request: HttpRequest, slug: str, match_id: int, hand_id: int) -> HttpResponse:
    """One hand (any version): its record and findings, its versions; POST saves a correction as a
    new version."""
    match = _match(request, slug, match_id)
    hand = get_object_or_404(RecordedHand.objects.select_related("game", "recorded_by"), pk=hand_id, game__match=match)
    hand.game.match = match
    may_change = hand.is_current and can_change_hand(request.user, hand, match)
    form = None
    if request.method == "POST":
        if not (hand.is_current and can_change_hand(request.user, hand, match)):
            _deny(request)
        form = _form(match, request.POST)
        if form.is_valid():
            with service_errors(form, field_for=form_field) as call:
                saved = hand_edit(
                    hand=hand,
                    by=request.user,
                    record=form.to_record(),
                    mano=form.cleaned_data["mano"],
                    expected_version=form.cleaned_data["expected_version"],
                )
            if call.ok:
                _report(request, saved, _("corregida (versión %(v)d)") % {"v": saved.hand.version})
                url = reverse("scoring:hands_match", kwargs={"slug": slug, "match_id": match.pk})
                return redirect(f"{url}#mano-{saved.hand.pk}")
    if form is None and may_change:
        form = _form(match, initial=HandForm.initial_from(hand.record, mano=hand.mano_side, version=hand.version))
    context = {
        "tournament": match.round.tournament,
        "match": match,
        "hand": hand,
        "versions": selectors.hand_versions(hand),
        "notes": selectors.notes(hand, match),
        "record_json": json.dumps(hand.record, ensure_ascii=False),
        "form": form,
        "may_change": may_change,
        "ruling": current_ruling(hand),
        "may_rule": hand.is_current and can_rule(request.user, match),
        "needs_ruling": needs_ruling(hand),
    }
    return render(request, "scoring/hands/hand.html", context)


@require_POST
def hand_delete_view(request: HttpRequest, slug: str, match_id: int, hand_id: int) -> HttpResponse:
    match = _match(request, slug, match_id)
    hand = get_object_or_404(RecordedHand, pk=hand_id, game__match=match)
    if not can_change_hand(request.user, hand, match):
        _deny(request)
    try:
        saved = hand_delete(hand=hand, by=request.user)
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        _report(request, saved, _("borrada"))
    return redirect("scoring:hands_match", slug=slug, match_id=match.pk)


def hands_index(request: HttpRequest, slug: str) -> HttpResponse:
    """Staff: a round's tables, to open one and record its hands."""
    tournament = tournament_for(request, slug, Action.HANDS_RECORD)
    number = request.GET.get("ronda", "")
    value = parse_int(number, low=1) if number else None
    if number and value is None:
        raise Http404
    round_, matches = selectors.matches_for_hands(tournament, value)
    return render(request, "scoring/hands/index.html", {"tournament": tournament, "round": round_, "matches": matches})
