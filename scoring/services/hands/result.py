"""Following the match result from the recorded juegos (rule 5 of the package docstring): when the
closed juegos, in order, decide the match, the result is submitted through
``result_submit(source=HANDS)`` (double check, AMM 3.16, and the 3.18 lock included); a result
entered otherwise is never overwritten, and a difference or a refusal is reported as a
``ResultNote`` for the page. It reads the juegos the count has stored and runs after each write.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import RecordedGame, ResultSubmission
from scoring.services.hands.records import Side
from scoring.services.results import result_submit
from torneo.errors import TournamentError
from torneo.models import Match
from torneo.typing import User


@dataclasses.dataclass(frozen=True)
class ResultNote:
    """What happened to the match result after a hand was saved: a message for the page."""

    level: str  # "success", "info", "warning" or "error" (django.contrib.messages tags)
    message: str
    submission: ResultSubmission | None = None


def juegos_result(games: Sequence[RecordedGame], games_to_win: int) -> tuple[int, int, list[list[int]]] | None:
    """Juegos won by each pair and the tantos of each, when the closed juegos, in order, decide
    the match (AMM 1.7.a); None otherwise."""
    won: dict[str, int] = {Side.A: 0, Side.B: 0}
    tantos: list[list[int]] = []
    for game in games:
        if not game.winner:
            return None
        won[game.winner] += 1
        tantos.append([game.tantos_a, game.tantos_b])
        if won[game.winner] == games_to_win:
            return won[Side.A], won[Side.B], tantos
    return None


def _games_label(result: Match | ResultSubmission) -> str:
    if result.games_a is not None and result.games_b is not None:
        return f"{result.games_a}-{result.games_b}"
    return str(result.get_outcome_display())


def follow_result(match: Match, by: User) -> ResultNote | None:
    """Rule 5: submit the result the recorded juegos give, or say why not."""
    tournament = match.round.tournament
    games = list(match.recorded_games.order_by("number"))
    decided = juegos_result(games, tournament.games_to_win)
    confirmed = match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).first()
    if decided is None:
        if match.is_decided and confirmed is not None and confirmed.source == ResultSubmission.Source.HANDS:
            return ResultNote(
                "warning",
                _(
                    "La partida tiene un resultado que salió de las manos anotadas y ya no se deduce de "
                    "ellas: revísalo con la mesa de control."
                ),
            )
        return None
    games_a, games_b, tantos = decided
    score = f"{games_a}-{games_b}"
    if match.outcome == Match.Outcome.PLAYED and (match.games_a, match.games_b) == (games_a, games_b):
        return None  # it is already the match's result
    pending = match.submissions.filter(status=ResultSubmission.Status.PROPOSED).first()
    if pending is not None and (pending.outcome, pending.games_a, pending.games_b) == (
        Match.Outcome.PLAYED,
        games_a,
        games_b,
    ):
        return ResultNote(
            "info",
            _("Resultado %(s)s pendiente de confirmar por la pareja perdedora (AMM 3.16).") % {"s": score},
            pending,
        )
    if pending is not None and pending.source != ResultSubmission.Source.HANDS:
        return ResultNote(
            "warning",
            _(
                "Hay un resultado pendiente de confirmar (%(c)s, %(w)s) y las manos anotadas dan %(s)s: no se "
                "cambia. Revisadlo con la mesa de control."
            )
            % {"c": _games_label(pending), "w": pending.get_source_display(), "s": score},
        )
    if match.is_decided and (confirmed is None or confirmed.source != ResultSubmission.Source.HANDS):
        return ResultNote(
            "warning",
            _(
                "La partida ya tiene resultado (%(c)s) y las manos anotadas dan %(s)s: no se cambia. "
                "Revisadlo con la mesa de control."
            )
            % {"c": _games_label(match), "s": score},
        )
    try:
        with transaction.atomic():
            sub = result_submit(
                match=match,
                by=by,
                outcome=Match.Outcome.PLAYED,
                games_a=games_a,
                games_b=games_b,
                tantos=tantos,
                source=ResultSubmission.Source.HANDS,
            )
    except (ValidationError, TournamentError) as exc:
        reason = " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
        return ResultNote(
            "error", _("Las manos dan %(s)s, pero el resultado no se ha anotado: %(e)s") % {"s": score, "e": reason}
        )
    if sub.status == ResultSubmission.Status.CONFIRMED:
        return ResultNote(
            "success", _("Partida decidida por las manos anotadas: %(s)s. Resultado anotado.") % {"s": score}, sub
        )
    return ResultNote(
        "info",
        _("Partida decidida por las manos anotadas: %(s)s. Falta que la confirme la pareja perdedora (AMM 3.16).")
        % {"s": score},
        sub,
    )
