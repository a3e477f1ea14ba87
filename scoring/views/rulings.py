"""The juez's ruling on a recorded hand from a phone (AMM chapter IV): the facts only the table
knows, the engine's answer previewed, then confirmed or withdrawn. Thin: scoring.services.hands
.rulings asks the engine and writes, and says who may."""

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.forms.rulings import RulingForm, field_for
from scoring.models import HandRuling, RecordedHand
from scoring.selectors import hands as hand_selectors
from scoring.selectors.rulings import current_ruling, hand_rulings
from scoring.services.hands import article_label
from scoring.services.hands.rulings import (
    RulingSaved,
    can_rule,
    hand_ruling_confirm,
    hand_ruling_preview,
    hand_ruling_withdraw,
)
from scoring.views.hands import _deny, _match
from torneo.errors import NotAllowed, TournamentError
from torneo.forms.errors import service_errors
from torneo.models import Match


def _ruled_hand(request: HttpRequest, slug: str, match_id: int, hand_id: int) -> tuple[Match, RecordedHand]:
    """The current version of a hand of the match, for a user who rules (anonymous: the login page;
    others: 403). A replaced or deleted version is not found: rulings are on the current one."""
    match = _match(request, slug, match_id)
    if not can_rule(request.user, match):
        _deny(request)
    hand = get_object_or_404(
        RecordedHand.objects.select_related("game", "recorded_by"), pk=hand_id, game__match=match, is_current=True
    )
    hand.game.match = match
    return match, hand


def _answer(answer: dict[str, Any], hand: RecordedHand, match: Match) -> dict[str, Any]:
    """The engine's answer for the page: A and B (the hand's frame) and the seats named."""
    names = hand_selectors.frame(hand, match)
    seat = hand_selectors.SEAT_LABELS
    winner = answer.get("game_winner")
    return {
        "score": [("A", names["A"], answer["score"]["A"]), ("B", names["B"], answer["score"]["B"])],
        "winner": f"{winner} ({names[winner]})" if winner in names else "",
        "articles": answer["articles"],
        "explanation": answer["explanation"],
        "errors": [
            {
                "message": error["message"],
                "article_label": article_label(f"AMM {error['article']}"),
                "seat_label": seat[error["seat"]],
                "lance": error["lance"],
                "pair_label": f"{error['pair']} ({names[error['pair']]})",
                "rectified": error.get("rectified"),
            }
            for error in answer["errors"]
        ],
        "sanctions": [
            {"seat_label": seat[s["seat"]], "article_label": article_label(f"AMM {s['article']}")}
            for s in answer["sanctions"]
        ],
    }


def _report(request: HttpRequest, saved: RulingSaved, match: Match, text: str) -> None:
    messages.success(request, text)
    if saved.game.winner:
        winner = match.pair_a if saved.game.winner == "a" else match.pair_b
        messages.info(
            request,
            _("Juego n.º %(g)d para %(p)s (%(a)d-%(b)d).")
            % {"g": saved.game.number, "p": winner, "a": saved.game.tantos_a, "b": saved.game.tantos_b},
        )
    if saved.result is not None:
        getattr(messages, saved.result.level)(request, saved.result.message)


def hand_ruling(request: HttpRequest, slug: str, match_id: int, hand_id: int) -> HttpResponse:
    """GET: the hand, its rulings and the facts' form (prefilled from the ruling in force). POST
    ``action=preview``: the engine's answer, nothing written; ``action=confirm``: the ruling stored."""
    match, hand = _ruled_hand(request, slug, match_id, hand_id)
    names = hand_selectors.frame(hand, match)
    ruling = current_ruling(hand)
    answer = None
    if request.method == "POST":
        form = RulingForm(request.POST, names=names)
        if form.is_valid():
            if request.POST.get("action") == "confirm":
                with service_errors(form, field_for=field_for) as call:
                    saved = hand_ruling_confirm(
                        hand=hand,
                        by=request.user,
                        facts=form.to_facts(),
                        expected_version=form.cleaned_data["expected_version"],
                    )
                if call.ok:
                    new = saved.ruling
                    a, b = hand_selectors.pair_label(match.pair_a), hand_selectors.pair_label(match.pair_b)
                    _report(
                        request,
                        saved,
                        match,
                        _("Fallo confirmado (AMM %(articles)s): tras la mano, %(a)s %(ta)d – %(tb)d %(b)s.")
                        % {"articles": ", ".join(new.articles), "a": a, "ta": new.score_a, "tb": new.score_b, "b": b},
                    )
                    return redirect("scoring:hand_detail", slug=slug, match_id=match.pk, hand_id=hand.pk)
            else:
                with service_errors(form, field_for=field_for) as call:
                    previewed = hand_ruling_preview(hand=hand, facts=form.to_facts())
                if call.ok:
                    answer = _answer(previewed, hand, match)
    else:
        initial = RulingForm.initial_from(ruling.facts if ruling else {}, version=hand.version)
        form = RulingForm(initial=initial, names=names)
    context = {
        "tournament": match.round.tournament,
        "match": match,
        "hand": hand,
        "notes": hand_selectors.notes(hand, match),
        "ruling": ruling,
        "history": [r for r in hand_rulings(hand) if not r.is_current],
        "form": form,
        "answer": answer,
    }
    return render(request, "scoring/hands/ruling.html", context)


@require_POST
def hand_ruling_withdraw_view(
    request: HttpRequest, slug: str, match_id: int, hand_id: int, ruling_id: int
) -> HttpResponse:
    """Withdraw the ruling in force: the hand counts again as the engine counts it."""
    match = _match(request, slug, match_id)
    if not can_rule(request.user, match):
        _deny(request)
    ruling = get_object_or_404(
        HandRuling.objects.select_related("hand__game"), pk=ruling_id, hand_id=hand_id, hand__game__match=match
    )
    try:
        saved = hand_ruling_withdraw(ruling=ruling, by=request.user)
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from exc
    except TournamentError as exc:
        messages.error(request, str(exc))
    else:
        _report(request, saved, match, _("Fallo retirado: la mano vuelve a contar como la cuenta el motor."))
    return redirect("scoring:hand_detail", slug=slug, match_id=match.pk, hand_id=hand_id)


__all__ = ["hand_ruling", "hand_ruling_withdraw_view"]
