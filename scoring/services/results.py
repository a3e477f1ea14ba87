"""Entering, confirming and correcting match results (actas).

Every submission is a new version (never an update), so nothing typed is ever lost. Entry and
correction lock the tournament row and then the match row (select_for_update, always in that order,
the order the draw services use) and compare the version the person saw with the latest one: of two
people typing the same table at once, one wins and the other gets a clear conflict (409), on
PostgreSQL as anywhere. Locking the tournament first also orders every result against the
publication of the next draw, so that no result slips in after the draw that should have used it.

With the tournament's double check on, a result counts only once a second person — or a player of
the losing pair, like the signature of AMM 3.16 — confirms it; nobody confirms their own entry. A
second, identical entry by another person confirms the first. A second entry by another person
that differs is a disagreement, not a replacement: both versions stay, as DISPUTED, neither applied
to the match, and nothing more is entered, confirmed or rejected for that table until a third
decision settles it (`result_resolve`): the organizer or a juez, with a reason, keeps one of the two
or enters another result; the decision is a new version, confirmed at once, and the two end
superseded (the one it keeps) or rejected. Neither person who entered one of the two decides alone,
except the organizer when no one else (another organizer, or a juez) can. A person who corrects
their own proposal still replaces it, and recorded hands keep their own rule (below).

A result that players' own recorded hands decide is never self-confirmed, double check or not: it
waits, proposed, until the mesa de control (or a juez, or the organizer) or the losing pair
confirms it — never the side that recorded it (AMM 3.16: the losing pair signs the acta). Such a
proposal never blocks the mesa: its own entry of the acta is not a conflict with it, and settles it.
The same holds for what the table's clock decided (`result_propose`: a pair late at 20 minutes,
AMM 6.1.b; the forced end, 6.5.b; the juegos tapped at the table): proposed, never applied alone.

Once the next round's draw is published the result is final (AMM 3.18) except for the organizer,
with a reason that stays on record; the same holds for every result once the tournament is finished.
"""

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.adjudications import adjudicated, won_by
from scoring.models import ResultSubmission
from scoring.signals import result_counted
from torneo.errors import Conflict, NotAllowed, TournamentError
from torneo.history import update_with_history
from torneo.models import Match, Pair, Round, Tournament, TournamentRole
from torneo.notices import notify_result_to_confirm
from torneo.permissions import MATRIX, Action, can, member_pairs, member_pairs_of_user_id, roles_for
from torneo.services.live import live_bump
from torneo.typing import AuthUser, User, signed_in, signed_in_or_none

Outcome = Match.Outcome
Status = ResultSubmission.Status
SUBMITTABLE = (Outcome.PLAYED, Outcome.WALKOVER, Outcome.RETIRED, Outcome.DOUBLE_LOSS, Outcome.RULING)
MAX_REASON = 500


def round_locked(round_: Round) -> bool:
    """AMM 3.18: once the next round's draw is published, the results that stand are final; and
    all of them once the tournament is finished (the classification is published)."""
    tournament = round_.tournament
    if tournament.status == Tournament.Status.FINISHED:
        return True
    return Round.objects.filter(
        tournament_id=tournament.pk, number__gt=round_.number, status=Round.Status.PUBLISHED
    ).exists()


def is_locked(match: Match) -> bool:
    """AMM 3.18 for one match (see `round_locked`)."""
    return round_locked(match.round)


def _errors(**by_field: str) -> ValidationError:
    return ValidationError({k: v for k, v in by_field.items() if v})


def clean_result(
    *,
    match: Match,
    outcome: str,
    games_a: int | None,
    games_b: int | None,
    winner: Pair | None,
    tantos: Sequence[Sequence[int]] = (),
) -> dict[str, Any]:
    """Check a result against the match and the tournament's juegos (AMM 1.7.a); return the
    normalised values. Errors are keyed by field, in Spanish."""
    tournament = match.round.tournament
    target = tournament.games_to_win
    if match.is_bye:
        # AMM 5.6: an exenta is a pass, not a match: nothing to write on an acta.
        raise TournamentError(_("Una exenta no tiene resultado que anotar: la pareja pasa de ronda."), code="bye")
    if outcome not in SUBMITTABLE:
        raise _errors(outcome=_("Resultado no válido."))
    pairs = {match.pair_a_id: "a", match.pair_b_id: "b"}
    if winner is not None and winner.pk not in pairs:
        raise _errors(winner=_("La ganadora debe ser una de las dos parejas de la mesa."))
    for name, value in (("games_a", games_a), ("games_b", games_b)):
        if value is not None and not (0 <= value <= target):
            raise _errors(**{name: _("Los juegos van de 0 a %(g)d (partida a %(g)d juegos ganados).") % {"g": target}})
    if outcome == Outcome.PLAYED:
        # AMM 1.7.a: the match ends when one pair reaches the tournament's juegos.
        if games_a is None or games_b is None:
            raise _errors(**{"games_a" if games_a is None else "games_b": _("Indica los juegos de cada pareja.")})
        if sorted((games_a, games_b))[1] != target or games_a == games_b:
            raise _errors(
                games_a=_(
                    "Una partida a %(g)d juegos ganados termina cuando una pareja llega a %(g)d "
                    "(p. ej. %(g)d-1); %(a)d-%(b)d no es un resultado posible."
                )
                % {"g": target, "a": games_a, "b": games_b}
            )
        derived = match.pair_a if games_a == target else match.pair_b
        assert derived is not None  # not an exenta (refused above): both pairs are there
        if winner is not None and winner.pk != derived.pk:
            raise _errors(winner=_("La ganadora no coincide con los juegos."))
        winner = derived
    elif outcome == Outcome.DOUBLE_LOSS:
        # AMM 6.1.b (both pairs late) and 6.5.b (time exceeded, no agreement): both pairs lose.
        if winner is not None:
            raise _errors(winner=_("Si pierden las dos parejas no hay ganadora."))
        if target in (games_a, games_b):
            raise _errors(games_a=_("Con una pareja en %(g)d juegos la partida ya tenía ganadora.") % {"g": target})
    else:  # walkover (incomparecencia, AMM 6.1.b), retirement, juez's ruling: the winner must be named
        if winner is None:
            raise _errors(winner=_("Indica qué pareja gana la partida."))
        if games_a is None and games_b is None:
            games_a, games_b = (target, 0) if winner.pk == match.pair_a_id else (0, target)
        elif games_a is None or games_b is None:
            raise _errors(
                **{
                    "games_a" if games_a is None else "games_b": _(
                        "Indica los juegos de las dos parejas, o de ninguna."
                    )
                }
            )
        _check_decided(
            outcome=outcome,
            target=target,
            won=games_a if winner.pk == match.pair_a_id else games_b,
            lost=games_b if winner.pk == match.pair_a_id else games_a,
        )
    _check_adjudicated(match, games_a=games_a, games_b=games_b)
    tantos_list = _clean_tantos(
        tantos,
        games_a=games_a,
        games_b=games_b,
        points=tournament.points_per_game,
        last_winner=("a" if winner.pk == match.pair_a_id else "b")
        if winner is not None and outcome == Outcome.PLAYED
        else None,
    )
    return {
        "outcome": outcome,
        "games_a": games_a,
        "games_b": games_b,
        "winner": winner,
        "tantos": tantos_list,
    }


def _check_adjudicated(match: Match, *, games_a: int | None, games_b: int | None) -> None:
    """The juegos the juez or a rule gave (scoring.adjudications: a sanction's juego, AMM 5.4.2; a
    pair late, 6.1.b «no pueden ser perdonadas») bind the acta: a pair has at least the juegos it
    was given. The error names the field of the pair short of them, and why."""
    given = adjudicated(match)
    for side, field, games in (("A", "games_a", games_a), ("B", "games_b", games_b)):
        theirs = won_by(given, side)
        if games is not None and games < len(theirs):
            pair = match.pair_a if side == "A" else match.pair_b
            raise _errors(
                **{
                    field: ngettext(
                        "La pareja %(p)s tiene %(n)d juego ganado que no se puede quitar (%(why)s): no puede "
                        "quedarse en %(g)d.",
                        "La pareja %(p)s tiene %(n)d juegos ganados que no se pueden quitar (%(why)s): no puede "
                        "quedarse en %(g)d.",
                        len(theirs),
                    )
                    % {
                        "p": pair.number if pair else "—",
                        "n": len(theirs),
                        "why": "; ".join(dict.fromkeys(j.label for j in theirs)),
                        "g": games,
                    }
                }
            )


def _check_decided(*, outcome: str, target: int, won: int, lost: int) -> None:
    """Whether a result decided off the table is a possible one.

    A walkover (AMM 6.1.b: «a los 20 minutos se dará la partida por perdida») and a retirement give
    the other pair the partida: it is written with the juegos to win, and the pair that did not play
    on keeps the juegos it had won (fewer). A juez's ruling may end the partida early (AMM 6.5.b:
    «se le dará la partida como perdida y a la pareja contraria como ganada, con marcador por un
    juego de diferencia»): the winner has more juegos than the loser, and never both at the juegos
    to win (3-3 at 3 juegos is no result)."""
    if lost >= target:
        raise _errors(
            games_a=_("La pareja perdedora no puede tener %(g)d juegos: con %(g)d juegos habría ganado (AMM 1.7.a).")
            % {"g": target}
        )
    if outcome in (Outcome.WALKOVER, Outcome.RETIRED) and won != target:
        raise _errors(
            games_a=_(
                "Con incomparecencia (AMM 6.1.b) o retirada la partida se da por ganada: la pareja ganadora "
                "se anota %(g)d juegos, y la otra los que hubiera ganado."
            )
            % {"g": target}
        )
    if won <= lost:
        raise _errors(
            games_a=_(
                "La pareja ganadora debe tener más juegos que la perdedora (AMM 6.5.b: «con marcador por un "
                "juego de diferencia»); %(w)d-%(l)d no da ganadora."
            )
            % {"w": won, "l": lost}
        )


# The bound of a juego's tantos, for the actas and the recorded hands alike. AMM 3.6 lets an envite
# be any number, and the engine counts it as said; but a stake of the tantos per juego already wins
# the juego, because the count stops at the first event that takes a pair to the target (AMM 3.13;
# scoring.mus.tanteo.score_hand). So the envites of one lance may add up to MAX_LANCE_STAKE (100, two
# and a half juegos to 40): only a typing slip (an extra zero) is refused. One event of the count is
# then at most MAX_LANCE_STAKE tantos (an accepted stake, or a deje, which is smaller; a jugada is at
# most 6, duples in both hands), so a pair ends a hand, and a juego, with at most
# target - 1 + MAX_LANCE_STAKE tantos: 139 in a juego to 40. That is far from what the database
# stores (RecordedHand.score_a and RecordedGame.tantos_a are smallints).
MAX_LANCE_STAKE = 100


def max_score_after(target: int) -> int:
    """The most tantos a pair can have after one hand of a juego to `target`, and so at the end of
    a juego (see above): what one hand can add to target − 1."""
    return target - 1 + MAX_LANCE_STAKE


def _clean_tantos(
    tantos: Sequence[Sequence[int]],
    *,
    games_a: int | None,
    games_b: int | None,
    points: int,
    last_winner: str | None,
) -> list[list[int]]:
    """Each juego's tantos, checked against the juegos (AMM 1.7.a).

    In a juego one pair reaches the juego's tantos (`points`) and the other stays below; a juego that
    neither reached was ended by an accepted órdago (its tantos are those on the tanteo when it was
    accepted). Who won each juego by tantos must agree with the juegos of the result, and in a
    partida played to the end the last juego is the winner's."""
    if not tantos:
        return []
    cleaned: list[list[int]] = []
    won = {"a": 0, "b": 0}
    top = max_score_after(points)
    for i, juego in enumerate(tantos, start=1):
        try:
            a, b = (int(x) for x in juego)
        except (TypeError, ValueError, OverflowError):  # OverflowError: int(float("inf"))
            raise _errors(tantos=_("Juego %(i)d: escribe los tantos de las dos parejas.") % {"i": i}) from None
        if not (0 <= a <= top and 0 <= b <= top):
            raise _errors(
                tantos=_(
                    "Juego %(i)d: los tantos van de 0 a %(top)d (juegos a %(p)d tantos: la cuenta se para al "
                    "llegar a %(p)d, AMM 3.13)."
                )
                % {"i": i, "top": top, "p": points}
            )
        if a >= points and b >= points:
            raise _errors(
                tantos=_(
                    "Juego %(i)d: %(a)d-%(b)d no es posible: solo una pareja llega a %(p)d tantos, y entonces el "
                    "juego termina (AMM 1.7.a, AMM 3.13)."
                )
                % {"i": i, "a": a, "b": b, "p": points}
            )
        if a >= points or b >= points:
            won["a" if a >= points else "b"] += 1
            if last_winner is not None and i == len(tantos) and (a >= points) != (last_winner == "a"):
                raise _errors(
                    tantos=_(
                        "Juego %(i)d: lo gana por tantos la pareja que pierde la partida, pero el último juego "
                        "es siempre de la ganadora (AMM 1.7.a)."
                    )
                    % {"i": i}
                )
        cleaned.append([a, b])
    last = cleaned[-1]
    if last_winner is not None and last[0] < points and last[1] < points:
        # The last juego went to an órdago: it is the winner's too (the partida ends on the winner's
        # juego), so it is counted for the winner, and a pair that already had its juegos before it
        # ended the partida there: [40-0] ×3 then [0-39] is no 3-1 (AMM 1.7.a).
        games = games_a if last_winner == "a" else games_b
        if games is not None and won[last_winner] >= games:
            raise _errors(
                tantos=_(
                    "Juego %(i)d: nadie llega a %(p)d tantos (lo terminó un órdago) y, siendo el último, es de la "
                    "pareja ganadora; pero la pareja %(s)s ya había ganado %(n)d juegos antes: la partida había "
                    "terminado (AMM 1.7.a)."
                )
                % {"i": len(cleaned), "p": points, "s": last_winner.upper(), "n": won[last_winner]}
            )
        won[last_winner] += 1
    if games_a is not None and games_b is not None:
        if len(cleaned) != games_a + games_b:
            raise _errors(
                tantos=ngettext(
                    "Hay %(n)d juego con tantos pero la partida tuvo %(m)d juegos.",
                    "Hay %(n)d juegos con tantos pero la partida tuvo %(m)d juegos.",
                    len(cleaned),
                )
                % {"n": len(cleaned), "m": games_a + games_b}
            )
        for side, games in (("a", games_a), ("b", games_b)):
            if won[side] > games:
                raise _errors(
                    tantos=ngettext(
                        "Por los tantos, la pareja %(s)s gana %(n)d juego, pero el resultado le da %(g)d (AMM 1.7.a).",
                        "Por los tantos, la pareja %(s)s gana %(n)d juegos, pero el resultado le da %(g)d (AMM 1.7.a).",
                        won[side],
                    )
                    % {"s": side.upper(), "n": won[side], "g": games}
                )
    return cleaned


def _same_result(sub: ResultSubmission, data: dict[str, Any]) -> bool:
    """The same result: outcome, juegos and winner (the optional tantos per juego aside)."""
    return (
        sub.outcome == data["outcome"]
        and sub.games_a == data["games_a"]
        and sub.games_b == data["games_b"]
        and sub.winner_id == (data["winner"].pk if data["winner"] else None)
    )


def _same(sub: ResultSubmission, data: dict[str, Any]) -> bool:
    return _same_result(sub, data) and (sub.tantos or []) == data["tantos"]


def _apply(match: Match, sub: ResultSubmission) -> None:
    match.outcome, match.games_a, match.games_b, match.winner_id = sub.outcome, sub.games_a, sub.games_b, sub.winner_id
    if sub.tantos:
        match.tantos_a = sum(a for a, _b in sub.tantos)
        match.tantos_b = sum(b for _a, b in sub.tantos)
    else:
        match.tantos_a = match.tantos_b = None
    match.result_version = sub.version
    match.save(update_fields=["outcome", "games_a", "games_b", "winner", "tantos_a", "tantos_b", "result_version"])
    live_bump(tournament_id=match.round.tournament_id, pairs=(match.pair_a_id, match.pair_b_id))
    result_counted.send(sender=Match, match=match)  # the ratings (circuits), once this commits


def latest_version(match: Match) -> int:
    return match.submissions.aggregate(v=Max("version"))["v"] or 0


def _versions(match: Match) -> list[ResultSubmission]:
    """Every submission of a locked match, newest first, with who entered each: one read instead
    of one per question (in disagreement? latest version? awaiting confirmation?). A match has a
    handful of versions."""
    return list(match.submissions.select_related("submitted_by").order_by("-version"))


def _lock(match_id: int, *, tournament_id: int | None = None) -> Match:
    """Lock the tournament row, then the match row: the order draw_publish uses (Tournament first),
    so a result and the next round's draw never interleave (AMM 3.18). ``tournament_id``: the
    match's, when the caller already read it (a round never changes tournament): one query less
    while every other table's result waits for the tournament's row."""
    if tournament_id is None:
        tournament_id = Match.objects.filter(pk=match_id).values_list("round__tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError(_("La partida no existe."), code="not_found")
    Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).values_list("pk", flat=True).get()
    return (
        Match.objects.select_for_update(no_key=True, of=("self",))
        .select_related("round__tournament", "pair_a", "pair_b")
        .get(pk=match_id)
    )


def result_submit(
    *,
    match: Match,
    by: User,
    outcome: str = Outcome.PLAYED,
    games_a: int | None = None,
    games_b: int | None = None,
    winner: Pair | None = None,
    tantos: Sequence[Sequence[int]] = (),
    expected_version: int | None = None,
    source: str = ResultSubmission.Source.CONTROL,
    reason: str = "",
    final: bool = False,
) -> ResultSubmission:
    """Enter (or correct) a match's result. ``final``: a juez's decision that counts at once (a
    sanction, AMM 5.1: «inapelables»), never waiting for the double check. `expected_version`: the
    latest version the person saw (0 if none); a different latest version means someone else
    entered it first: Conflict. With the double check, another person's different entry is a
    disagreement (both DISPUTED); while one stands, nothing is entered: Conflict (code
    "disagreement"), see `result_resolve`."""
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON:
        raise _errors(reason=_("El motivo es demasiado largo (máximo %(n)d caracteres).") % {"n": MAX_REASON})
    with transaction.atomic():
        return _submit_locked(
            _lock(match.pk),
            by=by,
            outcome=outcome,
            games_a=games_a,
            games_b=games_b,
            winner=winner,
            tantos=tantos,
            expected_version=expected_version,
            source=source,
            reason=reason,
            final=final,
        )


def _submit_locked(
    match: Match,
    *,
    by: User,
    outcome: str,
    games_a: int | None,
    games_b: int | None,
    winner: Pair | None = None,
    tantos: Sequence[Sequence[int]] = (),
    expected_version: int | None = None,
    source: str,
    reason: str = "",
    final: bool = False,
    versions: list[ResultSubmission] | None = None,
) -> ResultSubmission:
    """`result_submit` of a match already locked (`_lock`) in the caller's transaction: a pair's
    report (`result_report`) locks it once, not twice. ``versions``: the match's submissions as
    `_versions` read them under this lock (the caller's changes applied), so the report reads
    them once while every other table waits for the tournament's row."""
    tournament = match.round.tournament
    if not match.round.is_published:
        raise TournamentError(_("La ronda no está publicada."), code="unpublished")
    locked = is_locked(match)
    if locked:
        # AMM 3.18: a partida with no result yet may still be entered, by the organizer, with a reason.
        if not can(by, tournament, Action.RESULTS_OVERRIDE):
            raise NotAllowed(
                _(
                    "El resultado de la mesa %(t)s es inamovible: ya se ha publicado el sorteo "
                    "siguiente (AMM 3.18). Solo la organización puede añadir una nota al historial."
                )
                % {"t": match.table_number or "—"}
            )
        if not reason and match.outcome == Outcome.PENDING:
            raise _errors(reason=_("Anotar un resultado en una ronda ya cerrada (AMM 3.18) necesita un motivo."))
    if versions is None:
        versions = _versions(match)
    disputed = sorted((v for v in versions if v.status == Status.DISPUTED), key=lambda v: v.version)
    if disputed:
        # Only a third decision settles two actas that disagree (result_resolve).
        raise Conflict(_disagreement_message(match, disputed), code="disagreement")
    latest = versions[0].version if versions else 0
    if (
        expected_version is not None
        and expected_version != latest
        and not _only_desk_settled_since(versions, expected_version, tournament)
    ):
        last = versions[0] if versions else None
        who = last.submitted_by.get_username() if last and last.submitted_by else "?"
        raise Conflict(
            _("La mesa %(t)s acaba de recibir otro resultado (versión %(v)d, de %(u)s). Revísalo antes de cambiarlo.")
            % {"t": match.table_number or "—", "v": latest, "u": who}
        )
    data = clean_result(match=match, outcome=outcome, games_a=games_a, games_b=games_b, winner=winner, tantos=tantos)
    if locked:
        _final_after_the_draw(match, data)
    if data["outcome"] == Outcome.RULING and not reason:
        raise _errors(reason=_("Escribe la decisión del juez (quién y por qué) en el motivo."))
    from_players = source == ResultSubmission.Source.HANDS and not _records_as_staff(by, tournament)
    reported = source == ResultSubmission.Source.PLAYER  # a pair's own report (result_report)
    # Double check (AMM 3.16 by a second person), and always for a result the players' own
    # hands decided or a pair reported: proposed until someone else confirms it.
    needs_confirmation = ((tournament.results_double_check and not locked) or from_players or reported) and not final
    pending = next((v for v in versions if v.status == Status.PROPOSED), None)  # the newest
    adds_tantos = False
    if needs_confirmation and pending and can_confirm(by, pending):
        if _same(pending, data) or (_same_result(pending, data) and not data["tantos"]):
            # A second, identical entry confirms the first; so does one with the same result that
            # leaves out the optional tantos per juego (the first one's stand).
            return _confirm(match, pending, by)
        if _same_result(pending, data) and not pending.tantos:
            # The same result, and only this entry gives the tantos: it counts at once, with them
            # (the tantos are optional: one side's writing them is no other reading of the acta).
            adds_tantos, needs_confirmation = True, False
            reason = reason or _(
                "Confirma la versión %(v)d (el mismo resultado) y añade los tantos de cada juego."
            ) % {"v": pending.version}
    submitter = by if isinstance(by, AuthUser) and by.pk else None  # nobody to record when anonymous
    if (
        needs_confirmation
        and pending is not None
        and not adds_tantos
        and pending.submitted_by_id != getattr(submitter, "pk", None)
        and pending.tantos
        and not data["tantos"]
        and _same_result(pending, data)
    ):
        # The same result from someone who may not sign it, without the optional tantos: nothing to
        # add, and the tantos already written stay (the winning pair's phone over the mesa's entry).
        return pending
    # A second, different entry by another person: a disagreement, both kept (AMM 3.16).
    disagreement = (
        not adds_tantos
        and needs_confirmation
        and pending is not None
        and not from_players
        and _disagrees(
            pending, data, submitter_id=submitter.pk if submitter else None, source=source, tournament=tournament
        )
    )
    if pending:
        pending.status = Status.DISPUTED if disagreement else Status.SUPERSEDED
        pending.save(update_fields=["status"])
    now = timezone.now()
    if disagreement:
        status = Status.DISPUTED
    else:
        status = Status.PROPOSED if needs_confirmation else Status.CONFIRMED
    sub = ResultSubmission.objects.create(
        match=match,
        version=latest + 1,
        source=source,
        submitted_by=submitter,
        reason=reason,
        status=status,
        confirmed_by=None if needs_confirmation else submitter,
        confirmed_at=None if needs_confirmation else now,
        outcome=data["outcome"],
        games_a=data["games_a"],
        games_b=data["games_b"],
        winner=data["winner"],
        tantos=data["tantos"],
    )
    if needs_confirmation:
        # Nothing public changes, but the players' pages show what awaits their confirmation.
        live_bump(tournament_id=tournament.pk, pairs=(match.pair_a_id, match.pair_b_id))
    else:
        superseded = match.submissions.filter(status=Status.CONFIRMED).exclude(pk=sub.pk)
        update_with_history(superseded, status=Status.SUPERSEDED)
        _apply(match, sub)
    return sub


def result_propose(
    *,
    match: Match,
    source: str,
    outcome: str,
    winner_side: str | None = None,
    games_a: int | None = None,
    games_b: int | None = None,
    reason: str = "",
    final: bool = False,
) -> ResultSubmission | None:
    """A result nobody typed (the table's clock), proposed for the mesa, a juez or the losing pair
    to confirm (AMM 3.16), never applied by itself — unless ``final``: a result a rule decided
    (6.1.b «no pueden ser perdonadas», 6.5.b, a juego given by the juez), which counts at once.
    Nothing is proposed over a result already entered, an entry awaiting confirmation or in
    disagreement, a closed round (AMM 3.18), or a second time for the same match and source.
    Returns the proposal (or the result that counts), or None."""
    with transaction.atomic():
        match = _lock(match.pk)
        if (
            match.outcome != Outcome.PENDING
            or not match.round.is_published
            or is_locked(match)
            or match.submissions.filter(Q(source=source) | Q(status__in=(Status.PROPOSED, Status.DISPUTED))).exists()
        ):
            return None
        winner = {"A": match.pair_a, "B": match.pair_b}.get(winner_side or "")
        data = clean_result(match=match, outcome=outcome, games_a=games_a, games_b=games_b, winner=winner)
        sub = ResultSubmission.objects.create(
            match=match,
            version=latest_version(match) + 1,
            source=source,
            submitted_by=None,
            reason=reason[:MAX_REASON],
            status=Status.CONFIRMED if final else Status.PROPOSED,
            confirmed_at=timezone.now() if final else None,
            outcome=data["outcome"],
            games_a=data["games_a"],
            games_b=data["games_b"],
            winner=data["winner"],
            tantos=data["tantos"],
        )
        if final:
            _apply(match, sub)
    live_bump(tournament_id=match.round.tournament_id, pairs=(match.pair_a_id, match.pair_b_id))
    return sub


def result_report(
    *,
    match: Match,
    by: User,
    games_a: int | None,
    games_b: int | None,
    tantos: Sequence[Sequence[int]] = (),
) -> ResultSubmission:
    """A pair reports its table's result from its terminal or a player's account (issue 32): the
    juegos of each pair (and the tantos of each juego, if it wishes), checked as the mesa's entry is
    (AMM 1.7.a, 3.13). It is a proposal that the other pair confirms on its own phone (AMM 3.16: the
    losing pair's signature; the same result reported by the other pair confirms it) and that then
    counts without the mesa; a different result from the other pair is a disagreement for the mesa
    and the jueces, as between two actas. A new report of the same pair replaces its own earlier
    one. Only for a partida that has no result yet: a result the mesa entered is corrected there."""
    with transaction.atomic():
        match = _lock(match.pk, tournament_id=_known_tournament_id(match))
        side = member_pairs(by, [match.pair_a_id, match.pair_b_id])
        if not side or match.pair_b_id is None:
            raise NotAllowed(_("Solo las dos parejas de la mesa anotan su resultado."))
        if match.outcome != Outcome.PENDING:
            raise TournamentError(
                _("La mesa %(t)s ya tiene resultado. Si no es el vuestro, avisad a la mesa de control.")
                % {"t": match.table_number or "—"},
                code="has_result",
            )
        versions = _versions(match)
        for earlier in versions:
            if (
                earlier.status == Status.PROPOSED
                and earlier.source == ResultSubmission.Source.PLAYER
                and earlier.submitted_by is not None
                and member_pairs(earlier.submitted_by, side)
            ):
                earlier.status = Status.SUPERSEDED  # the same pair corrects its report
                earlier.save(update_fields=["status"])
        sub = _submit_locked(
            match,
            by=by,
            outcome=Outcome.PLAYED,
            games_a=games_a,
            games_b=games_b,
            tantos=tantos,
            source=ResultSubmission.Source.PLAYER,
            versions=versions,
        )
        if sub.status == Status.PROPOSED:  # the rival pair's phones: it awaits their signature (issue 33)
            from scoring.tasks import notify_rival_task

            reporter_id = match.pair_a_id if match.pair_a_id in side else match.pair_b_id
            submission_id = sub.pk
            transaction.on_commit(lambda: notify_rival_task.delay(submission_id, reporter_id))
        return sub


def result_notify_rival(*, submission_id: int, reporter_id: int) -> int:
    """The rival pair of a report is asked to sign it on its phones (AMM 3.16; issue 33), from a
    task queued when the report commits: the notice's reads and writes (who is told, what was
    sent, the addresses) stay out of the report's transaction, which holds the tournament's row —
    every table's report and signature waits for it (benchmarks/load.py --mode players). Nothing
    is sent for a report no longer awaiting them: signed, replaced or refused in between."""
    sub = (
        ResultSubmission.objects.select_related("match__round__tournament", "match__pair_a", "match__pair_b")
        .filter(pk=submission_id, status=Status.PROPOSED)
        .first()
    )
    if sub is None:
        return 0
    match = sub.match
    reporter = match.pair_a if match.pair_a_id == reporter_id else match.pair_b
    if reporter is None or reporter.pk != reporter_id:
        return 0
    return notify_result_to_confirm(
        match=match, reported_by=reporter, submission_id=sub.pk, games_a=sub.games_a, games_b=sub.games_b
    )


def _values(sub: ResultSubmission) -> dict[str, Any]:
    return {
        "outcome": sub.outcome,
        "games_a": sub.games_a,
        "games_b": sub.games_b,
        "winner": sub.winner,
        "tantos": list(sub.tantos or []),
    }


def _final_after_the_draw(match: Match, data: dict[str, Any]) -> None:
    """AMM 3.18: «una vez efectuado el siguiente sorteo el resultado que conste será inamovible».

    Nothing of a result that stands changes once the next draw is out — not the winner, not the
    juegos nor the tantos (they feed the tiebreaks), for nobody: the organizer may only add a note
    to its history (`result_note`), or settle a disagreement left over by keeping that very result.
    A partida with no result yet has nothing that stands, and may still be entered (by the
    organizer, with a reason; checked by the caller)."""
    if match.outcome == Outcome.PENDING:
        return
    tantos = data["tantos"] or []
    same = (
        data["outcome"] == match.outcome
        and data["games_a"] == match.games_a
        and data["games_b"] == match.games_b
        and (data["winner"].pk if data["winner"] else None) == match.winner_id
        and (sum(a for a, _b in tantos) if tantos else None) == match.tantos_a
        and (sum(b for _a, b in tantos) if tantos else None) == match.tantos_b
    )
    if same:
        return
    raise TournamentError(
        _(
            "El resultado de la mesa %(t)s es inamovible: ya se ha publicado el sorteo siguiente (AMM 3.18: «una "
            "vez efectuado el siguiente sorteo el resultado que conste será inamovible»). La organización puede "
            "añadir una nota al historial; el resultado no cambia."
        )
        % {"t": match.table_number or "—"},
        code="final",
    )


def result_note(*, match: Match, by: User, note: str) -> ResultSubmission:
    """AMM 3.18: the organizer adds a note to the history of a result that can no longer change (a
    late claim, an error found after the draw). A version that counts for nothing: it repeats the
    result that stands, with the note as its reason."""
    note = (note or "").strip()
    if not note:
        raise _errors(note=_("Escribe la nota."))
    if len(note) > MAX_REASON:
        raise _errors(note=_("La nota es demasiado larga (máximo %(n)d caracteres).") % {"n": MAX_REASON})
    with transaction.atomic():
        match = _lock(match.pk)
        if not can(by, match.round.tournament, Action.RESULTS_OVERRIDE):
            raise NotAllowed(_("Solo la organización añade notas al historial de un resultado."))
        if match.outcome == Outcome.PENDING or match.is_bye:
            raise TournamentError(_("La mesa %(t)s no tiene resultado todavía.") % {"t": match.table_number or "—"})
        current = match.submissions.filter(status=Status.CONFIRMED).order_by("-version").first()
        sub = ResultSubmission.objects.create(
            match=match,
            version=latest_version(match) + 1,
            source=ResultSubmission.Source.NOTE,
            submitted_by=signed_in(by),
            reason=note,
            status=Status.NOTE,
            outcome=match.outcome if match.outcome in SUBMITTABLE else Outcome.PLAYED,
            games_a=current.games_a if current else match.games_a,
            games_b=current.games_b if current else match.games_b,
            winner_id=match.winner_id,
            tantos=list(current.tantos or []) if current else [],
        )
    return sub


def _records_as_staff(user: User | None, tournament: Tournament) -> bool:
    """Organizer, mesa de control or juez: who record hands for any table (not as a player)."""
    return user is not None and can(user, tournament, Action.HANDS_RECORD)


def _settled_by_the_desk(sub: ResultSubmission, tournament: Tournament) -> bool:
    """Proposed by a player from the recorded hands (not by staff), or by the table's clock: what
    the mesa's own entry of the acta settles without a disagreement."""
    if sub.status != Status.PROPOSED:
        return False
    if sub.source == ResultSubmission.Source.CLOCK:
        return True
    return sub.source == ResultSubmission.Source.HANDS and not _records_as_staff(sub.submitted_by, tournament)


def _only_desk_settled_since(versions: Sequence[ResultSubmission], version: int, tournament: Tournament) -> bool:
    """Whether every version after `version` is a player's pending proposal: the mesa that typed
    the acta without having seen one is not in conflict with it (its entry settles it)."""
    newer = [sub for sub in versions if sub.version > version]
    return bool(newer) and all(_settled_by_the_desk(sub, tournament) for sub in newer)


def _disagrees(
    pending: ResultSubmission, data: dict[str, Any], *, submitter_id: int | None, source: str, tournament: Tournament
) -> bool:
    """Whether a new entry that does not confirm the pending proposal is a disagreement with it
    (double check, AMM 3.16): another person read the acta otherwise. Not so when it is the same
    person correcting their own entry, when the proposal is a player's from the recorded hands
    (the mesa's entry settles it), nor when both come from the recorded hands (the hands changed)."""
    if pending.submitted_by_id == submitter_id or _same(pending, data):
        return False
    if _same_result(pending, data) and not (pending.tantos and data["tantos"]):
        return False  # the same result; the optional tantos given by one of the two only
    if _settled_by_the_desk(pending, tournament):
        return False
    return not (pending.source == ResultSubmission.Source.HANDS and source == ResultSubmission.Source.HANDS)


def _disputed(match: Match) -> list[ResultSubmission]:
    """The versions of a match in disagreement, oldest first (two, or none)."""
    return list(
        match.submissions.filter(status=Status.DISPUTED).select_related("submitted_by", "winner").order_by("version")
    )


def _disagreement_message(match: Match, disputed: Sequence[ResultSubmission]) -> str:
    return _(
        "La mesa %(t)s tiene dos actas que no coinciden (versiones %(v)s): no cuenta ninguna, y no se anota, "
        "confirma ni rechaza nada más, hasta que la organización o un juez decida, con un motivo, cuál vale "
        "o qué resultado anotar (AMM 3.16)."
    ) % {"t": match.table_number or "—", "v": _(" y ").join(str(d.version) for d in disputed)}


def _confirm(match: Match, sub: ResultSubmission, by: User) -> ResultSubmission:
    update_with_history(match.submissions.filter(status=Status.CONFIRMED), status=Status.SUPERSEDED)
    sub.status, sub.confirmed_by, sub.confirmed_at = Status.CONFIRMED, signed_in(by), timezone.now()
    sub.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    _apply(match, sub)
    return sub


def can_confirm(user: User, sub: ResultSubmission) -> bool:
    """Staff who enter results, or a player of the losing pair (AMM 3.16) — never the submitter,
    nor a player of the submitter's own pair (a side never confirms its own result); and nobody a
    version in disagreement (see `result_resolve`)."""
    if not user.is_authenticated or sub.submitted_by_id == user.pk or sub.status == Status.DISPUTED:
        return False  # two actas in disagreement are decided (result_resolve), never confirmed
    match = sub.match
    ids = [p.pk for p in (match.pair_a, match.pair_b) if p is not None]
    mine = member_pairs(user, ids)  # two queries, whoever asks (a pair's phone confirms at every report)
    theirs = member_pairs_of_user_id(sub.submitted_by_id, ids)
    if mine & theirs:
        return False
    if can(user, match.round.tournament, Action.RESULTS_ENTER):
        return True
    if sub.source == ResultSubmission.Source.PLAYER and sub.submitted_by_id is not None:
        # A pair's report (issue 32): the other pair signs it, whichever won (the loser's report
        # is already its signature, AMM 3.16).
        return bool(mine - theirs)
    return bool(mine & {p.pk for p in losing_pairs(sub)})


def losing_pairs(sub: ResultSubmission) -> list[Pair]:
    """The pairs that lose by this submission: the one that signs the acta (AMM 3.16); both in a
    double loss."""
    match = sub.match
    return [p for p in (match.pair_a, match.pair_b) if p is not None and p.pk != sub.winner_id]


def _known_tournament_id(match: Match | None) -> int | None:
    """The match's tournament when its round is already read (None: not read, `_lock` asks)."""
    if match is None or not Match.round.is_cached(match):
        return None
    return match.round.tournament_id


def result_confirm(*, submission: ResultSubmission, by: User) -> ResultSubmission:
    """Confirm a proposed result. What it returns has its match, winner and people read (the API
    answers with it)."""
    with transaction.atomic():
        known = submission.match if ResultSubmission.match.is_cached(submission) else None
        match = _lock(submission.match_id, tournament_id=_known_tournament_id(known))
        sub = ResultSubmission.objects.select_related(
            "match__round__tournament", "match__pair_a", "match__pair_b", "winner", "submitted_by"
        ).get(pk=submission.pk)
        if sub.status == Status.DISPUTED:
            raise Conflict(_disagreement_message(match, _disputed(match)), code="disagreement")
        if sub.status != Status.PROPOSED:
            raise TournamentError(_("Este resultado ya no está pendiente de confirmar."), code="not_proposed")
        if sub.submitted_by_id == getattr(by, "pk", None):
            raise NotAllowed(_("No puedes confirmar un resultado que has anotado tú: debe hacerlo otra persona."))
        if not can_confirm(by, sub):
            raise NotAllowed(_("Solo la mesa de control o la pareja perdedora pueden confirmar este resultado."))
        if is_locked(match):
            _final_after_the_draw(match, _values(sub))
            if not can(by, match.round.tournament, Action.RESULTS_OVERRIDE):
                raise NotAllowed(_("La ronda ya está cerrada (AMM 3.18): solo la organización puede confirmarlo."))
        return _confirm(match, sub, by)


def result_reject(*, submission: ResultSubmission, by: User, reason: str = "") -> ResultSubmission:
    """Reject a proposed result (the staff, the losing pair, or its own submitter withdrawing it)."""
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON:
        raise _errors(reason=_("El motivo es demasiado largo (máximo %(n)d caracteres).") % {"n": MAX_REASON})
    with transaction.atomic():
        match = _lock(submission.match_id)
        sub = ResultSubmission.objects.select_related("match__round__tournament", "match__pair_a", "match__pair_b").get(
            pk=submission.pk
        )
        if sub.status == Status.DISPUTED:
            raise Conflict(_disagreement_message(match, _disputed(match)), code="disagreement")
        if sub.status != Status.PROPOSED:
            raise TournamentError(_("Este resultado ya no está pendiente de confirmar."), code="not_proposed")
        if not can_confirm(by, sub) and sub.submitted_by_id != getattr(by, "pk", None):
            raise NotAllowed(_("Solo la mesa de control o la pareja perdedora pueden rechazar este resultado."))
        sub.status, sub.reason = Status.REJECTED, reason or sub.reason
        sub.rejected_by, sub.rejected_at = signed_in_or_none(by), timezone.now()
        sub.save(update_fields=["status", "reason", "rejected_by", "rejected_at"])
        live_bump(tournament_id=sub.match.round.tournament_id, pairs=(sub.match.pair_a_id, sub.match.pair_b_id))
        return sub


# --- a disagreement between two actas (double check, AMM 3.16) ----------------------------------------


def disagreement(match: Match) -> list[ResultSubmission]:
    """The two versions of a match's acta that disagree, oldest first; empty when there is none."""
    return _disputed(match)


def resolve_refusal(user: User, match: Match, disputed: Sequence[ResultSubmission]) -> str | None:
    """Why this user may not settle the disagreement (None: they may).

    The organizer or a juez of the tournament (Action.RESULTS_RESOLVE), and once the next draw is
    published only the organizer (AMM 3.18). Not a person who entered one of the two actas — the
    decision is a third one — except the organizer when no one else can: no other organizer or
    juez (organizer only, in a closed round) who entered neither."""
    tournament = match.round.tournament
    if not user.is_authenticated or not can(user, tournament, Action.RESULTS_RESOLVE):
        return _("Solo la organización o un juez del torneo deciden entre dos actas que no coinciden.")
    locked = is_locked(match)
    if locked and not can(user, tournament, Action.RESULTS_OVERRIDE):
        return _("La ronda ya está cerrada (AMM 3.18): solo la organización puede decidir entre estas dos actas.")
    submitters = {d.submitted_by_id for d in disputed if d.submitted_by_id is not None}
    if user.pk in submitters:
        deciders = MATRIX[Action.RESULTS_OVERRIDE] if locked else MATRIX[Action.RESULTS_RESOLVE]
        someone_else = (
            TournamentRole.objects.filter(tournament=tournament, role__in=deciders)
            .exclude(user_id__in=submitters)
            .exists()
        )
        if someone_else or TournamentRole.Role.ORGANIZER not in roles_for(user, tournament):
            return _("Has anotado una de las dos actas: decide otra persona (la organización o un juez del torneo).")
    return None


def can_resolve(user: User, match: Match, disputed: Sequence[ResultSubmission]) -> bool:
    return bool(disputed) and resolve_refusal(user, match, disputed) is None


def result_resolve(
    *,
    match: Match,
    by: User,
    reason: str,
    choice: ResultSubmission | None = None,
    outcome: str = Outcome.PLAYED,
    games_a: int | None = None,
    games_b: int | None = None,
    winner: Pair | None = None,
    tantos: Sequence[Sequence[int]] = (),
) -> ResultSubmission:
    """Settle two actas that disagree (double check, AMM 3.16): keep one of them (`choice`) or
    enter another result, with a reason. The decision is a new version, confirmed at once and
    applied to the match; the version it keeps ends superseded, the other rejected (both, when the
    decision is another result). Who may: `resolve_refusal`."""
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON:
        raise _errors(reason=_("El motivo es demasiado largo (máximo %(n)d caracteres).") % {"n": MAX_REASON})
    with transaction.atomic():
        match = _lock(match.pk)
        disputed = _disputed(match)
        if not disputed:
            raise TournamentError(
                _("La mesa %(t)s no tiene actas en desacuerdo: ya se ha decidido.") % {"t": match.table_number or "—"},
                code="no_disagreement",
            )
        refusal = resolve_refusal(by, match, disputed)
        if refusal:
            raise NotAllowed(refusal)
        if not reason:
            raise _errors(reason=_("Escribe el motivo de la decisión: queda en el historial del acta."))
        if choice is not None:
            kept = next((d for d in disputed if d.pk == choice.pk), None)
            if kept is None:
                raise _errors(choice=_("Elige una de las dos actas en desacuerdo, o anota otro resultado."))
            data: dict[str, Any] = {
                "outcome": kept.outcome,
                "games_a": kept.games_a,
                "games_b": kept.games_b,
                "winner": kept.winner,
                "tantos": list(kept.tantos or []),
            }
        else:
            data = clean_result(
                match=match, outcome=outcome, games_a=games_a, games_b=games_b, winner=winner, tantos=tantos
            )
        if is_locked(match):
            _final_after_the_draw(match, data)
        decider = signed_in(by)
        decision = ResultSubmission.objects.create(
            match=match,
            version=latest_version(match) + 1,
            source=ResultSubmission.Source.RESOLUTION,
            submitted_by=decider,
            reason=reason,
            status=Status.CONFIRMED,
            confirmed_by=decider,
            confirmed_at=timezone.now(),
            **data,
        )
        for version in disputed:
            version.status = Status.SUPERSEDED if _same(version, data) else Status.REJECTED
            version.save(update_fields=["status"])
        update_with_history(
            match.submissions.filter(status=Status.CONFIRMED).exclude(pk=decision.pk), status=Status.SUPERSEDED
        )
        _apply(match, decision)
        return decision
