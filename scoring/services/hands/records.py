"""Reading and checking one recorded hand, on its own: the frames (the engine's pair A is the
hand's mano, the site's is the match's pair A), the juego's rules, the typing mistakes refused
before anything is written (rule 1 of the package docstring: the engine's format, the deal, a
sequence of envites no play can have, tantos no hand can have) and the hand's own findings that
are stored with it (rule 2), among them the table's count where it differs from the engine's and
stands (AMM 3.14, ``table_count``). No database writes and nothing about the other hands of the
juego: the count and the writes build on it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring import mus
from scoring.models import RecordedGame, RecordedHand
from scoring.services.results import MAX_LANCE_STAKE, max_score_after

Side = RecordedGame.Side
_DEAL_CODES = frozenset({"carta_invalida", "carta_fuera_de_baraja", "carta_repetida", "numero_de_cartas"})


def other(side: str) -> str:
    return Side.B if side == Side.A else Side.A


def to_match_frame(score: mus.Score, mano_side: str) -> tuple[int, int]:
    """A score whose A is the mano pair of a hand, as (match pair_a, match pair_b)."""
    return (score.a, score.b) if mano_side == Side.A else (score.b, score.a)


def to_hand_frame(a: int, b: int, mano_side: str) -> mus.Score:
    """(match pair_a, pair_b) tantos as the engine's score of a hand where `mano_side` is mano (A)."""
    return mus.Score(a, b) if mano_side == Side.A else mus.Score(b, a)


def rules_for(game: RecordedGame) -> mus.RuleSet:
    """The juego's rules: the tournament's preset, its target replaced by the tantos per juego."""
    rules = mus.get_rules(game.rule_set)
    return rules if rules.target == game.target else dataclasses.replace(rules, target=game.target)


def engine_record(hand: RecordedHand, game: RecordedGame) -> mus.RecordedHand:
    """The stored record, read back by the engine with the juego's rules."""
    record = mus.parse_record(hand.record)
    return dataclasses.replace(record, rules=rules_for(game))


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


# The engine's betting codes that a lance's sequence has whatever the cards: wrong as written, they
# are typing mistakes and refused (rule 1). The other codes of an illegal bet depend on who holds
# the jugada — envite_sin_jugada (AMM 3.8: envidar is declaring that one holds it, a false
# declaration for the juez), envite_sin_contrario — or on the cards (lance_equivocado,
# lance_tras_ordago): facts of the play, stored as findings (rule 2).
SEQUENCE_CODES = frozenset(
    {
        "respuesta_sin_envite",
        "envite_propio",
        "lance_cerrado",
        "envite_tras_ordago",
        "envite_sin_respuesta",
        "envite_menor_de_dos",
    }
)


def _check_sequences(record: mus.RecordedHand) -> None:
    """Refuse a lance whose sequence of envites no play can have, whatever the cards (rule 1,
    SEQUENCE_CODES): each lance is resolved by the engine as if both pairs held the jugada, so
    only the sequence itself is judged. Keyed by the action at fault, ``lances.<lance>[<index>]``,
    or by the lance, ``lances.<lance>``, for an envite left without an answer."""
    errors: dict[str, list[str]] = {}
    for lance, bets in record.bets.items():
        try:
            mus.resolve_lance(lance, bets, record.rules)
        except mus.IllegalBetError as error:
            key = f"lances.{lance.key}" if error.index is None else f"lances.{lance.key}[{error.index}]"
            errors.setdefault(key, []).append(_sentence(error.message))
    if errors:
        raise ValidationError(errors)


# The bounds of a record's tantos are the site's bounds of a juego's tantos (MAX_LANCE_STAKE and
# max_score_after, in scoring.services.results, where the actas check them too).


def _check_tantos(record: mus.RecordedHand, target: int) -> None:
    """Refuse tantos no hand can have: a score before the hand outside 0..target-1 (a juego ends
    when a pair reaches the target; one decided by the juez at fewer tantos, AMM 6.4, still starts
    below it), a lance's envites above MAX_LANCE_STAKE, a claimed score after the hand below 0 or
    above max_score_after. A claimed score lower than the score before stays a finding (AMM 3.13)."""
    score = record.score
    if not (0 <= score.a < target and 0 <= score.b < target):
        raise ValidationError(
            {
                "score": _(
                    "Antes de una mano cada pareja tiene de 0 a %(max)d tantos (el juego es a %(t)d): "
                    "A %(a)d – B %(b)d no puede ser."
                )
                % {"max": target - 1, "t": target, "a": score.a, "b": score.b}
            }
        )
    cap = record.rules.envite_cap
    for lance, bets in record.bets.items():
        stake = 0
        for index, bet in enumerate(bets):
            if bet.action is not mus.Action.ENVIDO:
                continue
            amount = 2 if bet.amount is None else bet.amount
            stake += 2 if cap is not None and amount > cap else amount  # as the engine counts it
            if stake > MAX_LANCE_STAKE:
                raise ValidationError(
                    {
                        f"lances.{lance.key}[{index}]": _(
                            "Los envites de %(l)s suman %(n)d tantos: como mucho %(max)d (con %(t)d ya se "
                            "gana el juego)."
                        )
                        % {"l": lance.key, "n": stake, "max": MAX_LANCE_STAKE, "t": target}
                    }
                )
    claimed = record.claimed.score if record.claimed is not None else None
    highest = max_score_after(target)
    if claimed is not None and not (0 <= claimed.a <= highest and 0 <= claimed.b <= highest):
        raise ValidationError(
            {
                "claimed.score": _(
                    "Tras una mano cada pareja tiene de 0 a %(max)d tantos (el juego es a %(t)d): "
                    "A %(a)d – B %(b)d no puede ser."
                )
                % {"max": highest, "t": target, "a": claimed.a, "b": claimed.b}
            }
        )


def clean_record(
    data: object, *, rule_set: str, target: int, score: mus.Score, record_id: str
) -> tuple[mus.RecordedHand, dict[str, Any], bool]:
    """Read a recorded hand typed by a table (the engine's JSON format) and refuse typing mistakes
    (rule 1 of the package docstring): ValidationError keyed by the engine's field. Returns the engine's record, its
    JSON as stored, and whether it has the cards. `score` is used when the record has none. Tantos
    no hand can have are typing mistakes too (`_check_tantos`), keyed «score», «claimed.score» or
    the lance's envite, and so is a sequence of envites no play can have (`_check_sequences`),
    keyed by the lance's action at fault."""
    if not isinstance(data, Mapping):
        raise ValidationError({"record": _("Se esperaba una mano anotada: un objeto con «hands», «lances»…")})
    data = dict(data)
    given_rules = data.get("rules")
    if given_rules not in (None, rule_set):
        raise ValidationError(
            {"rules": _("El torneo se juega con el reglamento «%(r)s»; no se puede anotar con otro.") % {"r": rule_set}}
        )
    data["rules"] = rule_set
    data["id"] = record_id
    if data.get("score") is None:
        data["score"] = {"A": score.a, "B": score.b}
    hands = data.get("hands")
    if hands is None:
        hands = data["hands"] = []
    has_cards = True
    if isinstance(hands, list) and all(isinstance(h, str) for h in hands):
        blank = [not h.strip() for h in hands]
        if all(blank):
            data["hands"], has_cards = [], False
        elif any(blank) or len(hands) != 4:
            raise ValidationError({"hands": _("Escribe las cartas de los cuatro jugadores, o de ninguno.")})
        else:
            data["hands"] = [" ".join(h.split()) for h in hands]
    try:
        record = mus.parse_record(data)
    except mus.RecordFormatError as error:
        raise ValidationError({error.field or "record": _sentence(error.detail)}) from None
    except mus.MusError as error:  # a rule set the engine does not know
        raise ValidationError({"rules": _sentence(str(error))}) from None
    rules = mus.get_rules(rule_set)
    if rules.target != target:
        rules = dataclasses.replace(rules, target=target)
    record = dataclasses.replace(record, rules=rules)
    _check_sequences(record)
    _check_tantos(record, target)
    if has_cards:
        _hands, problems = mus.check_deal(record.hands, rules.deck)
        if problems:
            errors: dict[str, list[str]] = {}
            for seat, problem in problems:
                key = "hands" if seat is None else f"hands[{seat}]"
                errors.setdefault(key, []).append(_sentence(str(problem)))
            raise ValidationError(errors)
    elif record.claimed is None or record.claimed.score is None:
        raise ValidationError(
            {"claimed.score": _("Sin cartas la mano no se puede contar: anota el marcador tras la mano.")}
        )
    return record, mus.record_to_json(record), has_cards


def ordago_accepted(record: mus.RecordedHand) -> mus.Lance | None:
    for lance, bets in record.bets.items():
        actions = [bet.action for bet in bets]
        if mus.Action.ORDAGO in actions and actions[-1] is mus.Action.QUIERO:
            return lance
    return None


# The engine's findings that compare the tantos the table wrote down with its own count
# (scoring.mus.validation, the comparison of «claimed»): per lance, after the hand, the winner.
CLAIM_CODES = frozenset({"tanteo_incorrecto", "marcador_incorrecto", "ganador_incorrecto"})
# The site's aviso that replaces them when the table's count stands (AMM 3.14).
TABLE_COUNT_CODE = "tanteo_de_la_mesa"
_COUNT_ORDER = (mus.Lance.GRANDE, mus.Lance.CHICA, mus.Lance.PARES, mus.Lance.JUEGO, mus.Lance.PUNTO)


@dataclasses.dataclass(frozen=True)
class TableCount:
    """A hand as the table counted it, where that differs from the engine's count (AMM 3.14): the
    score after the hand and the juego's winner, in the hand's frame (A = its mano pair)."""

    score: mus.Score
    winner: mus.Pair | None
    by_ordago: bool


def _engine_ordago(tanteo: mus.TanteoResult) -> mus.Pair | None:
    return next((e.pair for e in tanteo.events if e.kind is mus.EventKind.ORDAGO), None)


def _table_score(record: mus.RecordedHand, tanteo: mus.TanteoResult) -> mus.Score:
    """The score after the hand that the table wrote; without one, its tantos per lance (the
    engine's for a lance it did not write) added in the order of the count, which stops when a
    pair reaches the tantos per juego (AMM 3.13, 1.7.a)."""
    claimed = record.claimed
    assert claimed is not None
    if claimed.score is not None:
        return claimed.score
    score, target = record.score, record.rules.target
    for lance in _COUNT_ORDER:
        points = claimed.lances[lance] if lance in claimed.lances else tanteo.points(lance)
        score = mus.Score(score.a + points.a, score.b + points.b)
        if score.leader(target) is not None:
            break
    return score


def table_count(check: mus.RecordCheck) -> TableCount | None:
    """AMM 3.14: once the tantos are written down and the cards gathered, no claim on the count
    is admitted, so where the tantos the table wrote (``claimed``) differ from the engine's count
    the table's count stands. Returns it, or None when there is nothing to stand on: the engine
    could not count the hand (the hand has errors anyway), the table's count agrees with it, or
    what the table wrote is not a juego's count at all: a pair losing tantos, more than a hand
    can give, both pairs at the tantos per juego, a winner that contradicts its own score or an
    accepted órdago. Then the engine's findings stay errors (AMM 3.13) and stop the count."""
    record, tanteo = check.record, check.tanteo
    if tanteo is None or record.claimed is None or not any(f.code in CLAIM_CODES for f in check.findings):
        return None
    claimed, target = record.claimed, record.rules.target
    score = _table_score(record, tanteo)
    if score.a < record.score.a or score.b < record.score.b:
        return None
    if max(score) > max_score_after(target) or min(score) >= target:
        return None
    leader, ordago = score.leader(target), _engine_ordago(tanteo)
    if claimed.states_game_winner:
        winner = claimed.game_winner
        if leader is not None and winner is not leader:
            return None
        if leader is None and (winner is None) != (ordago is None):
            return None
    else:
        winner = leader if leader is not None else ordago
    return TableCount(score, winner, by_ordago=winner is not None and leader is None)


def _score_text(score: mus.Score) -> str:
    return f"A {score.a} – B {score.b}"


def _count_text(score: mus.Score, lances: list[tuple[mus.Lance, mus.Score]], winner: str) -> str:
    text = _("%(s)s tras la mano") % {"s": _score_text(score)}
    if lances:
        text += " (" + ", ".join(f"{lance.key} {_score_text(points)}" for lance, points in lances) + ")"
    return text + winner


def _winner_text(winner: mus.Pair | None) -> str:
    if winner is None:
        return _("; el juego sigue")
    return _("; gana el juego la pareja %(p)s") % {"p": winner.name}


def table_count_aviso(check: mus.RecordCheck, count: TableCount) -> dict[str, Any]:
    """The aviso for the juez that replaces the engine's comparison: both counts, the table's
    standing (AMM 3.14). Scores in the hand's frame, like the record's."""
    record, tanteo = check.record, check.tanteo
    assert record.claimed is not None and tanteo is not None
    lances = [
        (lance, points, tanteo.points(lance))
        for lance, points in sorted(record.claimed.lances.items())
        if points != tanteo.points(lance)
    ]
    differ = count.winner is not tanteo.game_winner
    table = _count_text(
        count.score, [(lance, mine) for lance, mine, _its in lances], _winner_text(count.winner) if differ else ""
    )
    engine = _count_text(
        tanteo.score, [(lance, its) for lance, _mine, its in lances], _winner_text(tanteo.game_winner) if differ else ""
    )
    return {
        "code": TABLE_COUNT_CODE,
        "article": "AMM 3.14",
        "severity": "aviso",
        "message": _(
            "El tanteo anotado por la mesa no coincide con el del motor. Mesa: %(t)s. Motor: %(e)s. Cuenta el "
            "de la mesa: una vez apuntados los tantos no se admite reclamación de tanteo (AMM 3.14); queda "
            "como aviso para el juez."
        )
        % {"t": table, "e": engine},
        "table": {"A": count.score.a, "B": count.score.b},
        "engine": {"A": tanteo.score.a, "B": tanteo.score.b},
    }


def hand_findings(record: mus.RecordedHand, has_cards: bool) -> list[dict[str, Any]]:
    """The hand's own findings, as JSON (scoring.mus.finding_to_json). Where the table's count
    differs from the engine's and stands (AMM 3.14, ``table_count``), the engine's comparison
    (CLAIM_CODES, errors) gives way to one aviso with both counts."""
    if has_cards:
        check = mus.check_record(record)
        count = table_count(check)
        findings = [mus.finding_to_json(f) for f in check.findings if count is None or f.code not in CLAIM_CODES]
        if count is not None:
            findings.append(table_count_aviso(check, count))
        return findings
    findings = [
        {
            "code": "sin_cartas",
            "article": "AMM 3.4.c",
            "severity": "aviso",
            "message": _(
                "No se anotaron las cartas (que se enseñan al terminar cada mano, AMM 3.4.c): el tanteo "
                "anotado por la mesa no se puede comprobar y cuenta tal cual."
            ),
        }
    ]
    claimed = record.claimed.score if record.claimed is not None else None
    if claimed is not None and (claimed.a < record.score.a or claimed.b < record.score.b):
        findings.append(
            {
                "code": "marcador_incorrecto",
                "article": "AMM 3.13",
                "severity": "error",
                "message": _(
                    "Tras la mano se anotó A %(ca)d – B %(cb)d, menos tantos que antes de ella (A %(a)d – B %(b)d)."
                )
                % {"ca": claimed.a, "cb": claimed.b, "a": record.score.a, "b": record.score.b},
            }
        )
    lance = ordago_accepted(record)
    if lance is not None and (record.claimed is None or record.claimed.game_winner is None):
        findings.append(
            {
                "code": "ordago_sin_ganador",
                "article": "AMM 1.7.a",
                "severity": "error",
                "lance": lance.key,
                "message": _("Hubo un órdago aceptado a %(l)s: sin cartas, anota qué pareja ganó el juego.")
                % {"l": lance.key},
            }
        )
    return findings


def has_error(findings: list[dict[str, Any]]) -> bool:
    return any(f.get("severity") == "error" for f in findings)
